"""Tiberius Who? solvers: the exact score, and three puzzles.

Which method, and why:

- **Score** (``register_scorer("tiberius")``): plain arithmetic over the VP schedule in
  ``games.tiberius.scoring`` (end-of-game scoring is a rule, so it lives in games/); this module adds
  the report: per-category breakdown and the tie-break steps that decided equal totals.
- **tiberius.best_placement** — CP-SAT. The cube action's choices couple: black cubes placed
  before the row choice can pay for it (Emperor cubes), the set bonus needs every board box at
  once, an adoption card needs several boxes at once, and every majority is decided by the same
  ten-step tie-breaker chain whose digits are the very counts being chosen. The model has integer
  cube counts per box, one boolean per extra row, and the chain read as one base-41 number (each
  digit is at most 40 cubes) compared with each opponent's. The <= 3 row choices and the
  black-cube *multisets* (order of placement never matters) keep the model small; the objective
  is the seat's VP if the cube phase ended after its action (set bonus for all, the seat's open
  adoption taken) - final VP on the last turn, the heuristic value before it.
- **tiberius.best_bid** — exact enumeration. Given the other seats' card-phase actions (known;
  unknown ones default to ``take2``, or are drawn from a likely-bid model in N sampled
  scenarios) and a fixed opponent model (other bidders pick the face-up card with the most
  top-row icons; other seats' cube decisions take their first legal action), the value of a
  card-phase action separates: it depends on the bid only through its rank among the bids and
  its cost, and with ample stock VP never rises with the cost, so one bid per rank (plus bids
  equal to a later seat's planned bid, which block it) is enough; with scarce stock every bid is
  tried. The seat's card pick and placement inside each line are exact (enumeration, CP-SAT for
  PCIM).
- **tiberius.elimination** — exact depth-first search with memo over every line of play (all
  seats cooperating), pruned by a valid upper bound on seat X's VP against another seat's
  guaranteed VP. YES comes with a witness line, NO is proven (bound at the root or search
  exhausted), UNKNOWN when the node or time limit is hit.

Layout: ``params`` (the parameters and their schemas), ``score`` (the exact score), ``placement``
(``tiberius.best_placement`` and the objective), ``bid`` (``tiberius.best_bid`` and the hint advice),
``elimination`` (``tiberius.elimination``); this module registers them.
"""

from __future__ import annotations

from solver.core import register_advice, register_puzzle, register_scorer
from solver.tiberius.bid import best_bid, brute_force_bid, hint_advice
from solver.tiberius.elimination import brute_force_elimination, elimination
from solver.tiberius.params import BEST_BID_PARAMS, BEST_PLACEMENT_PARAMS, ELIMINATION_PARAMS
from solver.tiberius.placement import best_placement, brute_force_placement, settled_vp
from solver.tiberius.score import score, sheet_detail

__all__ = [
    "best_bid",
    "best_placement",
    "brute_force_bid",
    "brute_force_elimination",
    "brute_force_placement",
    "elimination",
    "hint_advice",
    "score",
    "settled_vp",
    "sheet_detail",
]

register_scorer("tiberius", score)
register_advice("tiberius", hint_advice)
register_puzzle(
    "tiberius",
    "tiberius.best_placement",
    best_placement,
    summary="For the seat in its cube action: which boxes for its black icons, which extra row (if any) "
    "or which cubes to move to Pro-Consular Imperium Maius give it the most VP?",
    params_schema=BEST_PLACEMENT_PARAMS,
)
register_puzzle(
    "tiberius",
    "tiberius.best_bid",
    best_bid,
    summary="For the seat to act in the card phase: which bid, purchase, PCIM or take 2 leaves it the "
    "most VP at the end of this turn, and which career card does it win?",
    params_schema=BEST_BID_PARAMS,
)
register_puzzle(
    "tiberius",
    "tiberius.elimination",
    elimination,
    summary="Can this seat still finish first on some line of play? (yes with a witness line, no with "
    "a proof)",
    params_schema=ELIMINATION_PARAMS,
)
