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
"""

from __future__ import annotations

import math
import re
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from operator import itemgetter
from typing import Any

from ortools.sat.python import cp_model

from games.core import Game, make_rng
from games.core.text import is_digits, is_integer
from games.errors import ConfigError, IllegalActionError, InvalidStateError, NotationError
from games.tiberius import TAction, TiberiusGame, TiberiusState
from games.tiberius.game import SOLO_TARGET
from games.tiberius.model import (
    ADOPT,
    BLACK,
    BOARD_BOXES,
    BOX_CODES,
    CARD,
    CC,
    CQ,
    CUBE,
    CUBES_PER_PLAYER,
    EM,
    GV,
    IM,
    IN,
    IP,
    OVER,
    PC,
    PCIM_CARD,
    PICK,
    PR,
    TR,
    TURNS,
    positional_builder,
)
from games.tiberius.rules import (
    BLACK_BOXES,
    MOVE_BOXES,
    PCIM_MIN_MOVES,
    adoption_options,
    is_legal,
    meets,
    priority_order,
    set_bonus,
)
from games.tiberius.scoring import (
    ADOPTION_VP,
    IMPERATOR_LEAST,
    IMPERATOR_MOST,
    INFLUENCE_PER_VP,
    LOYALTY_VP,
    MARRIAGE_MOST,
    MARRIAGE_NONE,
    PLACE_VP,
    TRIUMPH_NONE,
    TRIUMPH_PER_CUBE,
    Line,
    chain_key,
    consul_points,
    imperator_awards,
    ranking,
    score_totals,
    tiebreak_reasons,
)
from solver.core import (
    Advice,
    ScoreLine,
    ScoreReport,
    SeatScore,
    SolveLimits,
    SolveResult,
    Status,
    check_param_keys,
    past_deadline_or_stopped,
    register_advice,
    register_puzzle,
    register_scorer,
    shown,
)

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


# ============================================================================ parameters


def _int_param(params: Mapping[str, Any], key: str, default: int, lo: int, hi: int) -> int:
    """An integer puzzle parameter within [lo, hi]: an int, an integral finite float, or a short
    string of digits; ``ConfigError`` naming ``params.<key>`` and the allowed range otherwise
    (negative, NaN, infinite or huge numbers, booleans, other types)."""
    value = params.get(key, default)
    number: int | None = None
    if isinstance(value, bool):
        number = None
    elif isinstance(value, int):
        number = value
    elif isinstance(value, float) and math.isfinite(value) and value.is_integer():
        number = int(value)
    elif isinstance(value, str) and 0 < len(value.strip()) <= 20 and is_integer(value.strip()):
        number = int(value.strip())
    if number is None or not lo <= number <= hi:
        raise ConfigError(f"{key} must be an integer {lo}..{hi}, got {shown(value)}", field=f"params.{key}")
    return number


def _choice_param(params: Mapping[str, Any], key: str, choices: Sequence[str]) -> str:
    """A string parameter among ``choices`` (the first is the default)."""
    value = params.get(key, choices[0])
    if not isinstance(value, str) or value not in choices:
        raise ConfigError(f"{key} must be one of {list(choices)}, got {shown(value)}", field=f"params.{key}")
    return value


def _game(game: Game[Any, Any]) -> TiberiusGame:
    if not isinstance(game, TiberiusGame):
        raise InvalidStateError(f"expected the tiberius game, got {game.info.name!r}", field="game")
    return game


def _state(state: Any) -> TiberiusState:
    if not isinstance(state, TiberiusState):
        raise InvalidStateError(f"expected a tiberius state, got {type(state).__name__}", field="state")
    return state


# ============================================================================ score


_SCORE_LINES: dict[tuple[str, int, str], ScoreLine] = {}
"""Report lines by (category, points, detail): a line is a value and most recur, so one object serves
every report that has it (bounded by ``_MAX_SCORE_LINES``)."""
_MAX_SCORE_LINES = 20_000
_BY_TALLY_LINE: dict[int, tuple[Line, ScoreLine]] = {}
"""The same report lines by the id of the tally line they come from, each entry holding that line (so
that while the entry lives the id is that line's and no other's): the tally's lines are made once
per value too (``games.tiberius.scoring``), so a seat's breakdown is read by ids in one pass in C,
with no Python step per line. Bounded by ``_MAX_SCORE_LINES`` (cleared whole)."""
_entry_line = itemgetter(1)
_seat_score: Callable[[int, float, int, tuple[ScoreLine, ...], tuple[str, ...]], SeatScore] = (
    positional_builder(SeatScore)
)
"""``SeatScore(seat=, total=, rank=, breakdown=, tiebreak=)``, positionally and without a call per field."""
_score_report: Callable[[str, bool, tuple[SeatScore, ...], str], ScoreReport] = positional_builder(
    ScoreReport
)
"""``ScoreReport(game=, final=, seats=, ended_by=)``, likewise (``model.positional_builder``)."""


def _places(table: Sequence[int], others: int) -> str:
    shown = " / ".join(f"{v}" for v in table)
    words = ("the most", "the next-most", "the third-most")[: len(table)]
    rest = f", {others} VP to the others with cubes" if others else ""
    return f"{shown} VP to {', '.join(words[:-1])} and {words[-1]} cubes{rest}"


_PLACED_WEIGHT = {
    {CQ: "Conquests", PC: "Pro-Consular Imperium Maius", GV: "Governorships"}[box]: _places(table, others)
    for box, table, others in PLACE_VP
}
WEIGHTS: dict[str, str] = {
    **_PLACED_WEIGHT,
    "Imperial Marriages": (
        f"{MARRIAGE_MOST:+d} VP for strictly the most cubes, {MARRIAGE_NONE:+d} VP for none"
    ),
    "Consul/Censor": (
        f"{consul_points(1)} VP for the first cube, {consul_points(2) - consul_points(1)} for the second, "
        f"{consul_points(3) - consul_points(2)} for each after"
    ),
    "Triumphs": f"{TRIUMPH_PER_CUBE} VP a cube, {TRIUMPH_NONE:+d} VP for none",
    "Imperator": f"1 VP a cube, {IMPERATOR_MOST:+d} VP for the most, {IMPERATOR_LEAST:+d} VP for the least",
    "Priesthoods": "1 VP a cube",
    "Son of Augustus": f"{ADOPTION_VP} VP when adopted",
    "Loyalty": f"{LOYALTY_VP} VP for career cards from all six decks",
    "Influence": f"1 VP per {INFLUENCE_PER_VP} Influence cubes",
}
"""The weight of each category of the VP schedule, as a score sheet prints it beside the part (from
the schedule's own numbers in ``games.tiberius.scoring``)."""
_ONE_CUBE = re.compile(r"\b1 cubes\b")


def sheet_detail(line: Line) -> str:
    """``"most (5 cubes); 10 / 5 / 2 VP to the most, the next-most and the third-most cubes"``."""
    weight = WEIGHTS.get(line.category, "")
    how = _ONE_CUBE.sub("1 cube", line.detail)
    return f"{how}; {weight}" if weight else how


def _score_line(line: Line) -> ScoreLine:
    """The report line of a tally line (made once per value, kept in ``_SCORE_LINES``), then kept by
    the tally line's id in ``_BY_TALLY_LINE``: the category, its points and how they were earned at
    what weight."""
    made = _SCORE_LINES.get((line.category, line.points, line.detail))
    if made is None:
        made = ScoreLine(category=line.category, points=float(line.points), detail=sheet_detail(line))
        if len(_SCORE_LINES) >= _MAX_SCORE_LINES:
            _SCORE_LINES.clear()
        _SCORE_LINES[line.category, line.points, line.detail] = made
    if len(_BY_TALLY_LINE) >= _MAX_SCORE_LINES:
        _BY_TALLY_LINE.clear()
    _BY_TALLY_LINE[id(line)] = (line, made)
    return made


def _breakdown(lines: Sequence[Line]) -> tuple[ScoreLine, ...]:
    """The report lines of a seat's tally lines: by the lines' ids when all are known, else line by line."""
    try:
        return tuple(map(_entry_line, map(_BY_TALLY_LINE.__getitem__, map(id, lines))))
    except KeyError:
        return tuple([_score_line(x) for x in lines])


def score(game: Game[Any, Any], state: Any) -> ScoreReport:
    """The exact score: per-seat totals, per-category lines, places and the deciding tie-breaks."""
    g, s = _game(game), _state(state)
    keys = g.keys(s)
    tallies = g.tally(s, keys=keys)
    totals = [t.total for t in tallies]
    rank = [0] * len(totals)
    for place, seat in enumerate(ranking(totals, keys) if s.players > 1 else [0], 1):
        rank[seat] = place
    # rule: tiberius/tie-breaker - the chain decided between seats only where totals are equal.
    tied = len(set(totals)) < len(totals)
    return _score_report(
        "tiberius",
        s.phase == OVER,  # final
        tuple(
            [
                _seat_score(
                    seat,
                    float(t.total),
                    rank[seat],
                    _breakdown(t.lines),
                    tiebreak_reasons(totals, keys, seat) if tied else (),
                )
                for seat, t in enumerate(tallies)
            ]
        ),
        _ended_by(s) if s.phase == OVER else "",
    )


def _ended_by(s: TiberiusState) -> str:
    """rule: tiberius/end-of-game - the game lasts 8 turns (the ``turns`` variant: the 7 of the turn
    track)."""
    if s.turns == TURNS:
        return f"the game lasts {TURNS} turns: turn {TURNS} was played"
    return f"the {s.turns} turns of the printed turn track were played (the turns variant)"


# ============================================================================ the objective


def settle(game: TiberiusGame, state: TiberiusState, seat: int) -> tuple[list[list[int]], list[bool]]:
    """Cubes and adoption flags if the cube phase ended now: the set bonus for every seat (unless
    the engine already gave it) and ``seat`` taking an adoption open to it."""
    cubes = [list(c) for c in state.cubes]
    if state.phase == CUBE:
        for c in cubes:
            c[IN] += set_bonus(c)
    adopted = [a >= 0 for a in state.adopted]
    if not adopted[seat]:
        cards = ([state.secret[seat]] if state.secret[seat] >= 0 else []) + list(state.adopt_face_up)
        adopted[seat] = any(meets(game.pack.adoptions[a], cubes[seat]) for a in cards)
    return cubes, adopted


def settled_vp(game: TiberiusGame, state: TiberiusState, seat: int) -> int:
    """The placement objective: ``seat``'s VP after :func:`settle`."""
    cubes, adopted = settle(game, state, seat)
    loyal = [game.loyal(state, s) for s in range(state.players)]
    return score_totals(
        cubes,
        adopted,
        loyal,
        game.age_rank(state),
        marriage_vp=state.marriage_vp,
        imperator_solo=state.imperator_solo,
        imperator_empty=state.imperator_empty,
    )[seat]


def _in_action(state: TiberiusState, seat: int) -> bool:
    return state.phase == CUBE and state.actor == seat


def _require_cube_decision(state: TiberiusState) -> int:
    if state.phase != CUBE:
        raise IllegalActionError(
            "best placement needs a cube-phase decision; this state is in another phase",
            field="state",
            rule="tiberius/cube-phase",
        )
    return state.actor


class _EnumerationStopped(Exception):  # noqa: N818 (control flow, not an error)
    """Enumeration passed its state budget (the caller switches to CP-SAT)."""


def brute_force_placement(
    game: TiberiusGame,
    state: TiberiusState,
    *,
    max_states: int | None = None,
    until: Callable[[], bool] | None = None,
) -> tuple[int, list[str]]:
    """Best objective by enumerating every legal sequence of the actor's cube decisions (memoised).

    Raises ``_EnumerationStopped`` once more than ``max_states`` distinct positions were expanded, or once
    ``until()`` (polled every 64 positions: a deadline or a stop flag) returns True.
    """
    seat = _require_cube_decision(state)
    memo: dict[TiberiusState, tuple[int, list[str]]] = {}

    def go(s: TiberiusState) -> tuple[int, list[str]]:
        if not _in_action(s, seat):
            return settled_vp(game, s, seat), []
        if s in memo:
            return memo[s]
        if max_states is not None and len(memo) >= max_states:
            raise _EnumerationStopped
        if until is not None and len(memo) & 63 == 0 and until():
            raise _EnumerationStopped
        best: tuple[int, list[str]] | None = None
        for a in game.legal_actions(s):
            v, line = go(game.apply(s, a))
            if best is None or v > best[0]:
                best = (v, [game.action_to_text(s, a), *line])
        assert best is not None
        memo[s] = best
        return best

    return go(state)


# ============================================================================ best placement (CP-SAT)


@dataclass(frozen=True, slots=True)
class _Row:
    """An extra row as the model sees it.

    Attributes:
        index: 1 or 2 (printed row 2 or 3).
        cost: Emperor cubes to pay (icons plus priority).
        delta: cube change per box when bought (payment and non-black icons).
        blacks: black cubes it then lets the player place.
    """

    index: int
    cost: int
    delta: tuple[int, ...]
    blacks: int


@dataclass(frozen=True, slots=True)
class PlacementProblem:
    """The data of one placement model.

    Attributes:
        seat: the seat to act.
        x0: its cubes now.
        pcim: True for a PCIM action (moves to gray), False for a career card.
        min_moves: PCIM cubes still to move at least.
        black_boxes: boxes open to black cubes.
        first_blacks: black cubes to place before the row choice.
        rows: the extra rows that may still be bought.
        opponents: settled cubes of every other seat.
        opponent_keys: their tie-breaker chain keys.
        opponent_seats: their seat numbers.
        already_adopted: whether the seat is already adopted.
        adoption_requirements: requirement lists of the adoption cards the seat may take.
        loyal: whether the seat holds all six regions.
        age_rank: the seat's age rank (0 oldest).
        marriage_vp: the marriage variant.
        imperator_solo: the Imperator variant with one player.
        imperator_empty: the Imperator variant when nobody has a cube.
        force_adoption: whether the seat must meet one of ``adoption_requirements`` (a choice fixed
            by the caller, e.g. the card it claims in the adoption phase).
    """

    seat: int
    x0: tuple[int, ...]
    pcim: bool
    min_moves: int
    black_boxes: tuple[int, ...]
    first_blacks: int
    rows: tuple[_Row, ...]
    opponents: tuple[tuple[int, ...], ...]
    opponent_keys: tuple[tuple[int, ...], ...]
    opponent_seats: tuple[int, ...]
    already_adopted: bool
    adoption_requirements: tuple[tuple[tuple[int, int], ...], ...]
    loyal: bool
    age_rank: int
    marriage_vp: str
    imperator_solo: str = "both"
    imperator_empty: str = "tiebreak"
    force_adoption: bool = False


def placement_problem(game: TiberiusGame, state: TiberiusState) -> PlacementProblem:
    """Extract the model's data from a cube-phase decision of ``state.actor``."""
    seat = _require_cube_decision(state)
    x0 = state.cubes[seat]
    stock0 = state.stock(seat)
    # The other seats' settled cubes do not depend on this seat's choices: take any completion.
    ref = state
    while _in_action(ref, seat):
        ref = game.apply(
            ref,
            game.legal_actions(ref)[-1] if state.played[seat] == PCIM_CARD else game.legal_actions(ref)[0],
        )
    opp_cubes, opp_adopted = settle(game, ref, seat)
    ages = game.age_rank(state)
    others = tuple(s for s in range(state.players) if s != seat)
    rows: list[_Row] = []
    pcim = state.played[seat] == PCIM_CARD
    k1 = 0 if pcim else min(state.black, stock0)
    if not pcim and state.row_open:
        card = game.pack.cards[state.played[seat]]
        for r in range(1, len(card.rows)):
            row = card.rows[r]
            delta = [0] * len(x0)
            delta[EM] -= row.cost
            stock = stock0 - k1 + row.cost
            blacks = 0
            for icon in row.icons:
                if icon == BLACK:
                    blacks += 1
                elif stock > 0 and (icon != TR or state.family):
                    delta[icon] += 1
                    stock -= 1
            rows.append(_Row(index=r, cost=row.cost, delta=tuple(delta), blacks=min(blacks, stock)))
    cards = ([state.secret[seat]] if state.secret[seat] >= 0 else []) + list(state.adopt_face_up)
    return PlacementProblem(
        seat=seat,
        x0=x0,
        pcim=pcim,
        min_moves=max(0, PCIM_MIN_MOVES - state.moved),
        black_boxes=tuple(b for b in BLACK_BOXES if b != TR or state.family),
        first_blacks=k1,
        rows=tuple(rows),
        opponents=tuple(tuple(opp_cubes[o]) for o in others),
        opponent_keys=tuple(chain_key(opp_cubes[o], opp_adopted[o], ages[o]) for o in others),
        opponent_seats=others,
        already_adopted=state.adopted[seat] >= 0,
        adoption_requirements=tuple(game.pack.adoptions[a].requires for a in cards),
        loyal=game.loyal(state, seat),
        age_rank=ages[seat],
        marriage_vp=state.marriage_vp,
        imperator_solo=state.imperator_solo,
        imperator_empty=state.imperator_empty,
    )


_Lit = Any  # a CP-SAT literal or 0/1 constant


class _Bools:
    """Reified comparisons that read like the math: ``ge(x, k)`` is the literal [x >= k]."""

    def __init__(self, model: cp_model.CpModel) -> None:
        self.m = model
        self.true = model.new_constant(1)
        self.false = model.new_constant(0)

    def const(self, value: bool) -> _Lit:
        return self.true if value else self.false

    def ge(self, x: Any, k: int, name: str) -> _Lit:
        if isinstance(x, int):
            return self.const(x >= k)
        b = self.m.new_bool_var(name)
        self.m.add(x >= k).only_enforce_if(b)
        self.m.add(x <= k - 1).only_enforce_if(b.negated())
        return b

    def all_of(self, lits: Sequence[_Lit], name: str) -> _Lit:
        if not lits:
            return self.true
        b = self.m.new_bool_var(name)
        self.m.add_min_equality(b, list(lits))
        return b

    def any_of(self, lits: Sequence[_Lit], name: str) -> _Lit:
        if not lits:
            return self.false
        b = self.m.new_bool_var(name)
        self.m.add_max_equality(b, list(lits))
        return b

    def not_(self, lit: _Lit, name: str) -> _Lit:
        b = self.m.new_bool_var(name)
        self.m.add(b == 1 - lit)
        return b

    def eq(self, x: Any, k: int, name: str) -> _Lit:
        return self.all_of(
            [self.ge(x, k, f"{name}_ge"), self.not_(self.ge(x, k + 1, f"{name}_gt"), f"{name}_le")], name
        )


CHAIN_BASE = 41
"""Every digit of the tie-breaker chain is 0..40 (cubes are limited to 40), so the chain read as a
number in base 41 orders seats exactly as the lexicographic chain does."""


def chain_number(key: Sequence[Any]) -> Any:
    """The chain key (``scoring.chain_key``: ..., -age rank) as one base-41 number (int or expression)."""
    *head, age = key
    digits = [*head, 6 + age]  # -age_rank in -5..0 -> 1..6
    value: Any = 0
    for d in digits:
        value = value * CHAIN_BASE + d
    return value


@dataclass(slots=True)
class _PlacementModel:
    """A built placement model and the variables needed to read a solution."""

    model: cp_model.CpModel
    total: cp_model.IntVar
    moves: dict[int, cp_model.IntVar]
    first: dict[int, cp_model.IntVar]
    second: dict[int, cp_model.IntVar]
    use_row: dict[int, cp_model.IntVar]


def build_placement_model(p: PlacementProblem) -> _PlacementModel:
    """The best-placement CP-SAT model of one cube action.

    Variables: ``move_B`` (PCIM cubes taken from box B) or ``black1_B``/``black2_B`` (black cubes
    placed in box B before/after the row choice) and ``row_R`` (extra row R bought); ``cubes_B``
    the resulting counts; the reified placements and the chain comparisons.
    Constraints: how the action changes the cubes; the set bonus; the adoption; the ranks.
    Objective: the seat's VP (schedule plus tie-breakers), maximised.
    """
    m = cp_model.CpModel()
    lit = _Bools(m)
    nbox = len(p.x0)
    # ------------------------------------------------------------------ variables
    moves: dict[int, cp_model.IntVar] = {}
    first: dict[int, cp_model.IntVar] = {}
    second: dict[int, cp_model.IntVar] = {}
    use_row: dict[int, cp_model.IntVar] = {}
    expr: list[Any] = list(p.x0)
    if p.pcim:
        moves = {b: m.new_int_var(0, p.x0[b], f"move_{BOX_CODES[b]}") for b in MOVE_BOXES}
        moved = sum(moves.values())
        available = sum(p.x0[b] for b in MOVE_BOXES)
        # rule: tiberius/pcim-card - at least 5 (all of them when fewer remain).
        m.add(moved >= min(p.min_moves, available))
        for b in MOVE_BOXES:
            expr[b] = expr[b] - moves[b]
        expr[PC] = expr[PC] + moved
    else:
        max2 = max((r.blacks for r in p.rows), default=0)
        first = {b: m.new_int_var(0, p.first_blacks, f"black1_{BOX_CODES[b]}") for b in p.black_boxes}
        second = {b: m.new_int_var(0, max2, f"black2_{BOX_CODES[b]}") for b in p.black_boxes}
        use_row = {r.index: m.new_bool_var(f"row_{r.index + 1}") for r in p.rows}
        # ---------------------------------------------------------- constraints: the card
        m.add(sum(first.values()) == p.first_blacks)  # every black icon places a cube
        m.add(sum(use_row.values()) <= 1)  # one OR the other row, or none
        for r in p.rows:
            # rule: tiberius/cube-phase - afford the full price (before the Emperor discount).
            m.add(p.x0[EM] + first[EM] >= r.cost).only_enforce_if(use_row[r.index])
        m.add(sum(second.values()) == sum(r.blacks * use_row[r.index] for r in p.rows))
        for b in range(nbox):
            expr[b] = expr[b] + first.get(b, 0) + second.get(b, 0)
            expr[b] = expr[b] + sum(r.delta[b] * use_row[r.index] for r in p.rows if r.delta[b])
    x = [m.new_int_var(0, CUBES_PER_PLAYER, f"cubes_{BOX_CODES[b]}") for b in range(nbox)]
    for b in range(nbox):
        m.add(x[b] == expr[b])
    # ------------------------------------------------------------------ constraints: set bonus
    stock = m.new_int_var(0, CUBES_PER_PLAYER, "stock")
    m.add(stock == CUBES_PER_PLAYER - sum(x))
    cap = m.new_int_var(0, 3, "bonus_cap")
    m.add_min_equality(cap, [stock, 3])
    full_set = lit.all_of([lit.ge(x[b], 1, f"has_{BOX_CODES[b]}") for b in BOARD_BOXES], "full_set")
    bonus = m.new_int_var(0, 3, "set_bonus")
    m.add(bonus == cap).only_enforce_if(full_set)
    m.add(bonus == 0).only_enforce_if(full_set.negated())
    v: list[Any] = list(x)
    v[IN] = m.new_int_var(0, CUBES_PER_PLAYER, "influence")
    m.add(v[IN] == x[IN] + bonus)
    # ------------------------------------------------------------------ constraints: adoption
    if p.already_adopted:
        adopted: _Lit = lit.true
    else:
        met = [
            lit.all_of([lit.ge(v[b], need, f"adopt{i}_{BOX_CODES[b]}") for b, need in req], f"adopt{i}")
            for i, req in enumerate(p.adoption_requirements)
        ]
        adopted = lit.any_of(met, "adopted")
        if p.force_adoption:
            m.add(adopted == 1)
    total = _objective(m, lit, p, v, adopted)
    m.maximize(total)
    return _PlacementModel(model=m, total=total, moves=moves, first=first, second=second, use_row=use_row)


def _objective(m: cp_model.CpModel, lit: _Bools, p: PlacementProblem, v: list[Any], adopted: _Lit) -> Any:
    """The seat's VP by the schedule (``scoring``'s numbers) with every rank against the settled
    opponents decided by cubes and the tie-breaker chain, as a CP-SAT expression."""
    # ------------------------------------------------------------------ constraints: ranks
    # rule: tiberius/tie-breaker - the chain, one number: seat ranks below o iff chain < chain_o.
    mine = [adopted, v[IN], v[PC], v[IM], v[IP], v[PR], v[GV], v[CQ], v[CC], v[TR], -p.age_rank]
    chain = m.new_int_var(0, CHAIN_BASE**11, "chain")
    m.add(chain == chain_number(mine))
    behind = [
        lit.not_(lit.ge(chain, chain_number(key), f"chain_ge_{s}"), f"chain_below_{s}")
        for key, s in zip(p.opponent_keys, p.opponent_seats, strict=True)
    ]

    def beaten_by(o: int, box: int) -> _Lit:
        """[opponent o ranks above the seat in ``box``]: more cubes, or as many and a better chain."""
        k = p.opponents[o][box]
        name = f"{BOX_CODES[box]}_vs_{p.opponent_seats[o]}"
        fewer = lit.not_(lit.ge(v[box], k, f"{name}_ge"), f"{name}_fewer")
        tied = lit.eq(v[box], k, f"{name}_tied")
        return lit.any_of([fewer, lit.all_of([tied, behind[o]], f"{name}_tiebreak")], name)

    def placed(box: int, table: Sequence[int], others: int) -> Any:
        """VP of a most/next-most category among seats with cubes."""
        rivals = [o for o in range(len(p.opponents)) if p.opponents[o][box] >= 1]
        ahead = m.new_int_var(0, len(rivals), f"ahead_{BOX_CODES[box]}")
        m.add(ahead == sum(beaten_by(o, box) for o in rivals))
        has = lit.ge(v[box], 1, f"any_{BOX_CODES[box]}")
        pts: Any = 0
        for i, value in enumerate(table):
            pts += value * lit.all_of(
                [has, lit.eq(ahead, i, f"place{i + 1}_{BOX_CODES[box]}")], f"p{i + 1}_{BOX_CODES[box]}"
            )
        if others:
            later = lit.ge(ahead, len(table), f"later_{BOX_CODES[box]}")
            pts += others * lit.all_of([has, later], f"others_{BOX_CODES[box]}")
        return pts

    # ------------------------------------------------------------------ objective
    # rule: tiberius/score-conquests, score-pcim, score-governorships (the schedule's PLACE_VP)
    by_place = sum(placed(box, table, others) for box, table, others in PLACE_VP)
    imperator = v[IP] + _imperator_terms(m, lit, p, v[IP], beaten_by)  # rule: tiberius/score-imperator
    best_other = max((o[IM] for o in p.opponents), default=0)
    marriages = MARRIAGE_MOST * lit.ge(v[IM], best_other + 1, "most_IM") + MARRIAGE_NONE * lit.not_(
        lit.ge(v[IM], 1, "any_IM"), "no_IM"
    )
    if p.marriage_vp == "aid":
        marriages += v[IM]
    consul = (
        v[CC] + 2 * lit.ge(v[CC], 1, "cc1") + lit.ge(v[CC], 2, "cc2")
    )  # rule: tiberius/score-consul-censor (consul_points: 3, 2, then 1 each)
    triumphs = TRIUMPH_PER_CUBE * v[TR] + TRIUMPH_NONE * lit.not_(lit.ge(v[TR], 1, "any_TR"), "no_TR")
    influence = m.new_int_var(0, CUBES_PER_PLAYER // INFLUENCE_PER_VP, "influence_vp")
    m.add_division_equality(influence, v[IN], INFLUENCE_PER_VP)  # rule: tiberius/score-influence
    total = m.new_int_var(-100, 400, "total_vp")
    m.add(
        total
        == by_place
        + marriages
        + consul
        + triumphs
        + imperator
        + v[PR]
        + ADOPTION_VP * adopted
        + (LOYALTY_VP if p.loyal else 0)
        + influence
    )
    return total


def _imperator_terms(m: cp_model.CpModel, lit: _Bools, p: PlacementProblem, ip: Any, beaten_by: Any) -> Any:
    """rule: tiberius/score-imperator - most +3 and least -3 for the seat, as the schedule's
    ``imperator_awards`` decides them (variants for one player and for a box nobody has a cube in):
    the first seat's cube count is the opponents' best, or the seat's own when they have none."""
    n_opp = len(p.opponents)
    ahead = m.new_int_var(0, n_opp, "ahead_IP_all")
    m.add(ahead == sum(beaten_by(o, IP) for o in range(n_opp)))
    players = n_opp + 1
    others_have = max((o[IP] for o in p.opponents), default=0) >= 1
    with_cubes = imperator_awards(players, 1, p.imperator_solo, p.imperator_empty)
    empty = imperator_awards(players, 0, p.imperator_solo, p.imperator_empty)
    has = lit.ge(ip, 1, "any_IP_all")

    def award(k: int, place: _Lit, name: str) -> Any:
        if with_cubes[k] and (others_have or empty[k]):
            return place
        if with_cubes[k]:  # only when the seat itself has a cube (nobody else does)
            return lit.all_of([place, has], name)
        return 0  # (an award never needs fewer cubes: imperator_awards is monotone)

    most = award(0, lit.eq(ahead, 0, "first_IP"), "most_IP")
    least = award(1, lit.eq(ahead, n_opp, "last_IP"), "least_IP")
    return IMPERATOR_MOST * most + IMPERATOR_LEAST * least


_STATUS = {
    cp_model.OPTIMAL: Status.OPTIMAL,
    cp_model.FEASIBLE: Status.FEASIBLE,
    cp_model.INFEASIBLE: Status.INFEASIBLE,
    cp_model.UNKNOWN: Status.UNKNOWN,
    cp_model.MODEL_INVALID: Status.UNKNOWN,
}


def _line_from_solution(
    game: TiberiusGame, state: TiberiusState, built: _PlacementModel, solver: cp_model.CpSolver
) -> tuple[list[str], TiberiusState]:
    """Replay the solution through the engine (so the line is legal by construction)."""
    seat = state.actor
    s = state
    line: list[str] = []

    def play(a: TAction) -> None:
        nonlocal s
        line.append(game.action_to_text(s, a))
        s = game.apply(s, a)

    if built.moves:
        for b, var in built.moves.items():
            for _ in range(solver.value(var)):
                play(TAction("move", b))
        if _in_action(s, seat):
            play(TAction("done"))
        return line, s
    for b, var in built.first.items():
        for _ in range(solver.value(var)):
            play(TAction("black", b))
    if _in_action(s, seat) and s.black == 0 and s.row_open:
        chosen = [r for r, var in built.use_row.items() if solver.value(var)]
        play(TAction("row", chosen[0] if chosen else 0))
    for b, var in built.second.items():
        for _ in range(solver.value(var)):
            play(TAction("black", b))
    return line, s


def _solve_stoppable(
    solver: cp_model.CpSolver, model: cp_model.CpModel, stop: Callable[[], bool] | None
) -> Any:
    """``solver.solve(model)``, ended early (``stop_search``) once ``stop()`` is True."""
    if stop is None:
        return solver.solve(model)
    done = threading.Event()

    def watch() -> None:
        while not done.wait(0.02):
            if stop():
                solver.stop_search()  # repeated until the solve returns: a stop before it starts is not lost

    watcher = threading.Thread(target=watch, name="cp-sat-stop", daemon=True)
    watcher.start()
    try:
        return solver.solve(model)
    finally:
        done.set()
        watcher.join()


def _placement_explanation(state: TiberiusState, line: Sequence[str], vp: int) -> str:
    """The answer in words: the line to play and the VP it reaches."""
    what = "final VP" if state.turn == state.turns else "VP if the game ended after this cube phase"
    return f"play {', '.join(line) or 'nothing'}: {what} {vp}"


ENUMERATION_STATES = 100
"""``best_placement``'s ``method="auto"`` enumerates when the lines reach at most this many distinct
positions (CP-SAT's fixed cost is a few milliseconds; enumerating this many costs less)."""

_METHODS = ("auto", "cp-sat", "enumeration")


def best_placement(
    game: Game[Any, Any], state: Any, params: Mapping[str, Any], limits: SolveLimits
) -> SolveResult:
    """The row choice, black-icon boxes or PCIM moves that maximise the actor's VP.

    ``params["method"]``: ``"cp-sat"``; ``"enumeration"`` (every legal line, memoised: exact, but
    exponential in the cubes to place); or ``"auto"`` (the default): enumeration while it stays
    within ``ENUMERATION_STATES`` positions (small instances, e.g. most career cards), else CP-SAT.
    Both are exact and agree (tests/tiberius/test_solver.py).
    """
    start = time.perf_counter()
    g, s = _game(game), _state(state)
    check_param_keys(params, BEST_PLACEMENT_PARAMS)
    method = _choice_param(params, "method", _METHODS)
    if method != "cp-sat":
        seat = _require_cube_decision(s)
        end = time.perf_counter() + float(limits.time_limit_s)

        def until() -> bool:
            return past_deadline_or_stopped(end, limits.stop)

        try:
            vp, line = brute_force_placement(
                g, s, max_states=ENUMERATION_STATES if method == "auto" else None, until=until
            )
        except _EnumerationStopped:
            if method == "enumeration":
                return SolveResult(
                    kind="tiberius.best_placement",
                    status=Status.UNKNOWN,
                    explanation="enumeration stopped (time limit or stop) before it finished",
                    method="enumeration",
                    wall_s=time.perf_counter() - start,
                )
        else:
            return SolveResult(
                kind="tiberius.best_placement",
                status=Status.OPTIMAL,
                objective=float(vp),
                bound=float(vp),
                answer={"seat": seat, "actions": line, "vp": vp},
                explanation=_placement_explanation(s, line, vp),
                method="enumeration",
                wall_s=time.perf_counter() - start,
            )
    problem = placement_problem(g, s)
    built = build_placement_model(problem)
    solver = cp_model.CpSolver()
    left = float(limits.time_limit_s) - (time.perf_counter() - start)  # after any enumeration
    solver.parameters.max_time_in_seconds = max(1e-3, left)
    solver.parameters.num_workers = max(1, int(limits.workers))
    code = _solve_stoppable(solver, built.model, limits.stop)
    status = _STATUS.get(code, Status.UNKNOWN)
    wall = time.perf_counter() - start
    if status not in (Status.OPTIMAL, Status.FEASIBLE):
        return SolveResult(
            kind="tiberius.best_placement",
            status=status,
            explanation=f"no placement found ({solver.status_name(code)})",
            method="cp-sat",
            wall_s=wall,
        )
    line, after = _line_from_solution(g, s, built, solver)
    objective = round(solver.objective_value)
    replayed = settled_vp(g, after, problem.seat)
    explanation = _placement_explanation(s, line, int(objective))
    return SolveResult(
        kind="tiberius.best_placement",
        status=status,
        objective=float(objective),
        bound=float(math.floor(solver.best_objective_bound + 1e-6)),  # integer VP
        answer={"seat": problem.seat, "actions": line, "vp": replayed},
        explanation=explanation,
        method="cp-sat",
        wall_s=time.perf_counter() - start,
    )


# ============================================================================ best bid (enumeration)


def _opponent_action(game: TiberiusGame, state: TiberiusState) -> TAction:
    """The opponent model of ``best_bid``: what a seat other than the asking one does after the card
    phase.

    A bidder picks the face-up card with the most top-row icons (the first on ties); a PCIM player
    moves cubes from the last box that has any (Influence, usually) and stops as soon as 5 have
    moved; every other decision is the first legal action (a black icon to Conquests, no extra row,
    adoption with the first card the seat may take).
    """
    actions = game.legal_actions(state)
    if state.phase == PICK:
        return max(actions, key=lambda a: len(game.pack.cards[a.arg].rows[0].icons))
    if state.phase == CUBE and state.played[state.actor] == PCIM_CARD:
        return actions[-1]
    return actions[0]


def _planned(game: TiberiusGame, state: TiberiusState, plan: Mapping[int, str]) -> TAction:
    """A seat's card-phase action in a scenario: its planned action, or take 2 when none is planned or
    the plan is not legal when its turn comes (a bid another seat made first)."""
    text = plan.get(state.actor)
    if text is not None:
        action = game.parse_action(state, text)
        if is_legal(state, game.pack, action):
            return action
    return TAction("take2")


def _adoption_choices(
    game: TiberiusGame, s: TiberiusState, cubes: Sequence[Sequence[int]], seat: int
) -> list[tuple[TAction | None, list[bool]]]:
    """The seat's choices in this turn's adoption phase, each with who is adopted at its end.

    ``None`` stands for passing (or for a seat already adopted); ``adopt own`` / ``adopt A04`` for a
    card, whether or not ``cubes[seat]`` meets it (the caller requires that). The other seats decide
    in priority order by the model (their first option: own card first) on their ``cubes``; a
    face-up card claimed before the seat's turn is not offered (rule: tiberius/adoption-phase).
    """
    options: list[TAction | None] = [None]
    if s.adopted[seat] < 0:
        if s.secret[seat] >= 0:
            options.append(TAction("adopt", -1))
        options.extend(TAction("adopt", a) for a in s.adopt_face_up)
    out: list[tuple[TAction | None, list[bool]]] = []
    for choice in options:
        adopted, face = list(s.adopted), list(s.adopt_face_up)
        for k in priority_order(s.start_priority, s.players):
            if k == seat:
                took = None if choice is None else choice.arg
            else:
                view = replace(
                    s, cubes=tuple(map(tuple, cubes)), adopted=tuple(adopted), adopt_face_up=tuple(face)
                )
                offered = adoption_options(view, game.pack, k)
                took = offered[0] if offered else None
            if took is None:
                continue
            if took >= 0:
                if took not in face:
                    break  # claimed by an earlier seat: not a choice
                face.remove(took)
            adopted[k] = s.secret[k] if took == -1 else took
        else:
            out.append((choice, [a >= 0 for a in adopted]))
    return out


_Value = tuple[int, tuple[str, ...]]
"""A line's value: the asking seat's VP at the end of the turn, and its own decisions along the line."""


class _TurnValue:
    """The rest of one turn played through the engine, for the seat that asks.

    From a position of the turn, every other seat plays by the model (its planned card-phase action,
    then :func:`_opponent_action`) and ``seat`` takes the best of its own decisions (its pick, its
    cube decisions, its adoption) until the turn ends. The value is ``seat``'s VP at that moment
    (``game.totals``: the score if the game ended then; the final score after the last turn).
    Positions where ``seat`` decides are memoised. A PCIM action with more than
    ``ENUMERATION_STATES`` positions goes to CP-SAT (:meth:`_pcim_value`), the rest is enumerated.

    Args:
        game: the game.
        seat: the seat that asks.
        turn: the turn being played.
        plan: the other seats' card-phase actions (notation).
        method: ``"auto"``, ``"cp-sat"`` (every PCIM action by CP-SAT) or ``"enumeration"`` (none).
        limits: each CP-SAT solve's time limit, workers and stop.
    """

    def __init__(
        self,
        game: TiberiusGame,
        seat: int,
        turn: int,
        plan: Mapping[int, str],
        *,
        method: str,
        limits: SolveLimits,
    ) -> None:
        self.game = game
        self.seat = seat
        self.turn = turn
        self.plan = plan
        self.method = method
        self.limits = limits
        self.memo: dict[TiberiusState, _Value] = {}
        self.exact = True  # False once a CP-SAT solve stopped before proving its optimum

    def value(self, state: TiberiusState) -> _Value:
        """The value of ``state``: the asking seat's VP at the end of the turn, and its line."""
        g, seat = self.game, self.seat
        s = state
        while True:  # the other seats' actions: one each, nothing to memoise
            if s.turn != self.turn or s.phase == OVER:
                return g.totals(s)[seat], ()
            if s.actor == seat:
                break
            s = g.apply(s, _planned(g, s, self.plan) if s.phase == CARD else _opponent_action(g, s))
        known = self.memo.get(s)
        if known is not None:
            return known
        if s.phase == CUBE and s.played[seat] == PCIM_CARD and self._pcim_by_cp_sat(s):
            found = self._pcim_value(s)
        else:
            best: _Value | None = None
            for a in g.legal_actions(s):
                v, line = self.value(g.apply(s, a))
                if best is None or v > best[0]:
                    best = (v, (g.action_to_text(s, a), *line))
            assert best is not None  # a seat to act has a legal action
            found = best
        self.memo[s] = found
        return found

    def _pcim_by_cp_sat(self, s: TiberiusState) -> bool:
        """Whether the seat's PCIM action at ``s`` goes to CP-SAT: always with ``method="cp-sat"``,
        never with ``"enumeration"``, and with ``"auto"`` when its lines reach more than
        ``ENUMERATION_STATES`` positions (one per count of cubes moved from each box)."""
        if self.method != "auto":
            return self.method == "cp-sat"
        positions = 1
        for b in MOVE_BOXES:
            positions *= s.cubes[self.seat][b] + 1
        return positions > ENUMERATION_STATES

    def _pcim_value(self, s: TiberiusState) -> _Value:
        """The seat's best PCIM action at ``s`` with the adoption it then takes, by CP-SAT.

        The other seats' cube actions and the set bonus do not depend on which cubes the seat moves:
        their cubes at the end of the cube phase are those of any completion of its action. What
        the seat does in the adoption phase (pass, reveal its own card, or claim a face-up one) can
        change which later seats are adopted (a card it claims is gone for them), which the
        tie-breaker chain reads first: one model per choice (the seat's cubes must meet that card),
        and the best of them.
        """
        g, seat = self.game, self.seat
        ref = s
        while ref.turn == s.turn and ref.phase == CUBE:  # a completion, then the others' actions
            ref = g.apply(ref, _opponent_action(g, ref))
        ages = g.age_rank(s)
        others = tuple(o for o in range(s.players) if o != seat)
        best: _Value | None = None
        for choice, adopted in _adoption_choices(g, s, ref.cubes, seat):
            card = None if choice is None else (s.secret[seat] if choice.arg == -1 else choice.arg)
            problem = PlacementProblem(
                seat=seat,
                x0=s.cubes[seat],
                pcim=True,
                min_moves=max(0, PCIM_MIN_MOVES - s.moved),
                black_boxes=(),
                first_blacks=0,
                rows=(),
                opponents=tuple(tuple(ref.cubes[o]) for o in others),
                opponent_keys=tuple(chain_key(ref.cubes[o], adopted[o], ages[o]) for o in others),
                opponent_seats=others,
                already_adopted=s.adopted[seat] >= 0,
                adoption_requirements=() if card is None else (g.pack.adoptions[card].requires,),
                loyal=g.loyal(s, seat),
                age_rank=ages[seat],
                marriage_vp=s.marriage_vp,
                imperator_solo=s.imperator_solo,
                imperator_empty=s.imperator_empty,
                force_adoption=card is not None,
            )
            built = build_placement_model(problem)
            solver = cp_model.CpSolver()
            solver.parameters.max_time_in_seconds = max(1e-3, float(self.limits.time_limit_s))
            solver.parameters.num_workers = max(1, int(self.limits.workers))
            code = _solve_stoppable(solver, built.model, self.limits.stop)
            if code == cp_model.INFEASIBLE:
                continue  # the seat cannot meet this card
            if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                self.exact = False
                continue
            self.exact = self.exact and code == cp_model.OPTIMAL
            line, _ = _line_from_solution(g, s, built, solver)
            if choice is not None:
                line.append("adopt own" if choice.arg == -1 else f"adopt {g.pack.adoptions[choice.arg].code}")
            v = round(solver.objective_value)
            if best is None or v > best[0]:
                best = (v, tuple(line))
        if best is None:  # every solve stopped: the value of the completion played (a valid line)
            self.exact = False
            while ref.turn == s.turn and ref.phase != OVER:
                ref = g.apply(ref, _opponent_action(g, ref))
            return g.totals(ref)[seat], ()
        return best


LIKELY_MAX_BID = 5
"""The likely-bid model of ``best_bid`` samples bids 1..5 (or taking 2 influence)."""
CARD_PHASE_KINDS = ("bid", "buy", "pcim", "take2")


def _later_seats(state: TiberiusState) -> list[int]:
    """The seats after the one to act in this card phase (rule: tiberius/card-phase: clockwise from
    the priority holder at the start of the turn)."""
    order = priority_order(state.start_priority, state.players)
    return order[order.index(state.actor) + 1 :]


def _others_param(game: TiberiusGame, state: TiberiusState, params: Mapping[str, Any]) -> dict[int, str]:
    """``params["others"]``: {seat: card-phase action} for seats still to act in this card phase."""
    raw = params.get("others", {})
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise ConfigError(
            f"others must map seats to card-phase actions, got {shown(raw)}", field="params.others"
        )
    later = _later_seats(state)
    out: dict[int, str] = {}
    for key, text in raw.items():
        seat = _seat_key(key)
        where = f"params.others.{key[:20] if isinstance(key, str) else shown(key, 20)}"
        if seat is None or seat not in later:
            raise ConfigError(
                f"others names the seats still to act in this card phase ({later}), not {shown(key)}",
                field=where,
            )
        if not isinstance(text, str) or len(text) > 40:
            raise ConfigError(f"a planned action is notation like 'bid 3', not {shown(text)}", field=where)
        try:
            action = game.parse_action(state, text)
        except NotationError as exc:
            raise ConfigError(f"planned action {shown(text)}: {exc.message}", field=where) from None
        if action.kind not in CARD_PHASE_KINDS:
            raise ConfigError(
                "a planned action is a card-phase action (bid N, buy CARD, imperium maius, "
                f"take 2 influence), not {shown(text)}",
                field=where,
                rule="tiberius/card-phase",
            )
        out[seat] = text
    return out


def _seat_key(key: Any) -> int | None:
    """A seat number given as an int or a string of digits (JSON object keys are strings)."""
    if isinstance(key, bool):
        return None
    if isinstance(key, int):
        return key
    if isinstance(key, str) and 0 < len(key) <= 2 and is_digits(key):
        return int(key)
    return None


def _bid_setup(game: TiberiusGame, state: TiberiusState, params: Mapping[str, Any]) -> list[dict[int, str]]:
    """The scenarios: the known actions of the later seats, completed by samples (or by take 2)."""
    if state.phase != CARD:
        raise IllegalActionError(
            "best bid needs a card-phase decision; this state is in another phase",
            field="state",
            rule="tiberius/card-phase",
        )
    check_param_keys(params, BEST_BID_PARAMS)
    others = _others_param(game, state, params)
    _choice_param(params, "method", _METHODS)
    samples = _int_param(params, "samples", 0, 0, 64)
    seed = _int_param(params, "seed", 0, -(2**62), 2**62)
    if samples == 0:
        return [others]
    rng = make_rng(seed)
    scenarios = []
    for _ in range(samples):
        scenario = dict(others)
        for o in _later_seats(state):
            if o not in scenario:
                # the likely-bid model: take 2 influence or a small bid, uniformly
                top = min(state.cubes[o][IN], LIKELY_MAX_BID)
                scenario[o] = rng.choice(["take2", *(f"bid {b}" for b in range(1, top + 1))])
        scenarios.append(scenario)
    return scenarios


def _need_stock(game: TiberiusGame) -> int:
    """Stock above which no cube phase can run short: the biggest card's cubes plus the set bonus."""
    return _max_new_cubes(game) + 3


def _bid_candidates(
    game: TiberiusGame, state: TiberiusState, scenarios: Sequence[Mapping[int, str]]
) -> list[TAction]:
    """The card-phase actions worth evaluating (every one when the stock is scarce).

    With ample stock a seat's VP never rises with its bid while its rank among the bids stays the
    same (the bid goes to stock either way; fewer Influence cubes only score less and rank lower in
    the tie-breaker chain), so the smallest bid per rank is enough, plus every bid that equals a
    later seat's planned bid (it makes that bid illegal). Ranks are taken over the bids of every
    scenario.
    """
    seat = state.actor
    legal = list(game.legal_actions(state))
    bids = [a for a in legal if a.kind == "bid"]
    rest = [a for a in legal if a.kind != "bid"]
    if state.stock(seat) < _need_stock(game):
        return legal
    planned: set[int] = set()
    for others in scenarios:
        for v in others.values():
            words = v.split()
            if len(words) == 2 and words[0] == "bid" and is_digits(words[1]):
                planned.add(int(words[1]))
    thresholds = sorted({b for b in state.bids if b > 0} | planned)
    keep: list[TAction] = []
    seen_rank: set[int] = set()
    for a in bids:  # ascending
        rank = sum(1 for t in thresholds if t > a.arg)
        if a.arg in planned or rank not in seen_rank:
            keep.append(a)
            seen_rank.add(rank)
    return keep + rest


@dataclass(frozen=True, slots=True)
class _Candidate:
    """One card-phase action valued.

    Attributes:
        action: the action.
        text: its notation.
        vp: the seat's VP at the end of the turn (the mean over the scenarios).
        line: the seat's own decisions after it in the first scenario (its pick, cube decisions,
            adoption).
    """

    action: TAction
    text: str
    vp: float
    line: tuple[str, ...]


def _bid_values(
    game: TiberiusGame,
    state: TiberiusState,
    candidates: Sequence[TAction],
    scenarios: Sequence[Mapping[int, str]],
    *,
    method: str,
    limits: SolveLimits,
) -> tuple[list[_Candidate], bool]:
    """Each candidate valued (mean over the scenarios), and whether every value is exact."""
    seat = state.actor
    per_scenario = [
        _TurnValue(game, seat, state.turn, plan, method=method, limits=limits) for plan in scenarios
    ]
    out = []
    for a in candidates:
        after = game.apply(state, a)
        values = [t.value(after) for t in per_scenario]
        mean = sum(v for v, _ in values) / len(values)
        out.append(_Candidate(a, game.action_to_text(state, a), mean, values[0][1]))
    return out, all(t.exact for t in per_scenario)


def brute_force_bid(game: TiberiusGame, state: TiberiusState, params: Mapping[str, Any]) -> float:
    """Best value over every legal card-phase action (the cross-check of :func:`best_bid`'s pruned
    candidates)."""
    scenarios = _bid_setup(game, state, params)
    method = str(params.get("method", "auto"))
    values, _ = _bid_values(
        game, state, game.legal_actions(state), scenarios, method=method, limits=SolveLimits(workers=1)
    )
    return max(c.vp for c in values)


def _card_text(game: TiberiusGame, card: int) -> str:
    """``SYR06 "Legate of Antioch" (Syria/East)``."""
    c = game.pack.cards[card]
    return f'{c.code} "{c.title}" ({game.pack.regions[c.region]})'


def _bid_explanation(
    game: TiberiusGame,
    state: TiberiusState,
    ranked: Sequence[_Candidate],
    scenarios: Sequence[Mapping[int, str]],
) -> str:
    """The answer as a player reads it: which card the action wins, what the seat does with it, the
    VP it ends the turn with, and by how much it beats the next best action."""
    best = ranked[0]
    seat = state.actor
    first = scenarios[0]
    rest = list(best.line)
    picked = next((w for w in rest if w.startswith("pick ")), None)
    if picked is not None:
        rest.remove(picked)
    if best.action.kind == "bid":
        planned = [
            int(v.split()[1]) for v in first.values() if v.startswith("bid ") and is_digits(v.split()[1])
        ]
        bids = [b for b in state.bids if b > 0] + planned
        rank = 1 + sum(1 for b in bids if b > best.action.arg)
        order = ("first", "second", "third", "fourth", "fifth", "sixth")[rank - 1]
        head = (
            f"{best.text}: seat {seat}, the only bidder, picks first"
            if not bids
            else f"{best.text}: seat {seat} picks {order} of {len(bids) + 1} bidders"
        )
        if picked is not None:
            code = picked.split()[1]
            found = game.pack.card_by_code(code)
            head += f" and takes {_card_text(game, found.id) if found else code}"
        else:
            head += " but finds no card left (the bid still goes to stock)"
    elif best.action.kind == "buy":
        head = f"{best.text}: seat {seat} buys {_card_text(game, best.action.arg)} for 6 Influence"
    elif best.action.kind == "pcim":
        head = f"imperium maius: seat {seat} plays Pro-Consular Imperium Maius (no career card this turn)"
    else:
        head = f"take 2 influence: seat {seat} takes 2 Influence (no career card this turn)"
    if rest:
        head += f", then plays {', '.join(rest)}"
    when = "the final score" if state.turn == state.turns else "at the end of this turn"
    over = f"mean over {len(scenarios)} sampled scenarios, " if len(scenarios) > 1 else ""
    text = f"{head}; {over}{best.vp:g} VP {when}"
    if len(ranked) > 1:
        second = ranked[1]
        text += f" ({best.vp - second.vp:+g} VP over the next best, {second.text}: {second.vp:g} VP)"
    if len(scenarios) == 1 and not first:
        text += "; the seats still to act are assumed to take 2 Influence"
    return text + "."


def best_bid(game: Game[Any, Any], state: Any, params: Mapping[str, Any], limits: SolveLimits) -> SolveResult:
    """The card-phase action (bid / buy / PCIM / take 2) that leaves the seat the most VP at the end of
    this turn (exact enumeration through the engine; see :class:`_TurnValue`).

    Params (``BEST_BID_PARAMS``): ``others`` {seat: action} for seats still to act this card phase
    (the rest take 2 influence, or with ``samples`` = N > 0 and ``seed`` each of N scenarios draws
    their action from the likely-bid model, take 2 or bid 1..5, and values are means); ``method``
    for PCIM lines (``auto``, ``cp-sat``, ``enumeration``).
    """
    start = time.perf_counter()
    g, s = _game(game), _state(state)
    scenarios = _bid_setup(g, s, params)
    method = _choice_param(params, "method", _METHODS)
    candidates = _bid_candidates(g, s, scenarios)
    values, exact = _bid_values(g, s, candidates, scenarios, method=method, limits=limits)
    if limits.stop is not None and limits.stop():
        return SolveResult(
            kind="tiberius.best_bid",
            status=Status.UNKNOWN,
            explanation="stopped before every candidate was valued; ask again with more time",
            method="enumeration",
            wall_s=time.perf_counter() - start,
        )
    ranked = sorted(values, key=lambda c: -c.vp)  # stable: the first legal action on ties
    best = ranked[0]
    card = best.action.arg if best.action.kind == "buy" else None
    picked = next((w.split()[1] for w in best.line if w.startswith("pick ")), None)
    return SolveResult(
        kind="tiberius.best_bid",
        status=Status.OPTIMAL if exact else Status.FEASIBLE,
        objective=float(best.vp),
        bound=float(best.vp),
        answer={
            "action": best.text,
            "vp": best.vp,
            "card": picked if card is None else g.card_code(card),
            "line": list(best.line),
            "scenarios": len(scenarios),
            "evaluated": len(candidates),
            "candidates": [{"action": c.text, "vp": c.vp, "line": list(c.line)} for c in ranked],
        },
        explanation=_bid_explanation(g, s, ranked, scenarios),
        method="enumeration",
        wall_s=time.perf_counter() - start,
    )


def hint_advice(
    game: Game[Any, Any], state: Any, actions: tuple[Any, ...], limits: SolveLimits
) -> Advice | None:
    """The exact advice behind a card-phase hint (``solver.core.Advice``): every card-phase action the
    hint shows valued by :func:`best_bid`'s question (the seat's VP at the end of this turn, its own
    pick, cubes and adoption played best), so the hint ranks by it. None outside the card phase or
    when stopped before every value is known."""
    g, s = _game(game), _state(state)
    if s.phase != CARD or s.actor < 0:
        return None
    scenarios = _bid_setup(g, s, {})
    wanted = list(
        dict.fromkeys(
            [*_bid_candidates(g, s, scenarios), *(a for a in actions if a.kind in CARD_PHASE_KINDS)]
        )
    )
    values, _exact = _bid_values(g, s, wanted, scenarios, method="auto", limits=limits)
    if limits.stop is not None and limits.stop():
        return None
    best = max(values, key=lambda c: c.vp)  # the first legal action on ties, as best_bid answers
    when = "the final score" if s.turn == s.turns else "at the end of this turn"
    later = _later_seats(s)
    return Advice(
        label="VP at the end of this turn" if s.turn != s.turns else "final VP",
        unit="VP",
        values={c.text: float(c.vp) for c in values},
        best=best.text,
        method="exact enumeration (tiberius.best_bid)",
        assumption=(
            f"seat{'s' if len(later) > 1 else ''} {', '.join(map(str, later))} still to bid "
            f"{'are' if len(later) > 1 else 'is'} assumed to take 2 Influence"
            if later
            else ""
        ),
        sentences={
            c.text: f"{c.vp:g} VP {when}" + (f", then {', '.join(c.line)}" if c.line else "") for c in values
        },
    )


# ============================================================================ elimination

_MAX_ICONS_CACHE: dict[int, int] = {}


def _max_new_cubes(game: TiberiusGame) -> int:
    """Most cubes one cube action can take from stock: top row plus the largest extra row."""
    key = id(game)
    if key not in _MAX_ICONS_CACHE:
        _MAX_ICONS_CACHE[key] = max(
            len(c.rows[0].icons) + max((len(r.icons) for r in c.rows[1:]), default=0) for c in game.pack.cards
        )
    return _MAX_ICONS_CACHE[key]


def _turns_with_cubes_left(state: TiberiusState, seat: int) -> int:
    """Cube phases in which ``seat`` may still gain cubes (this one counts until it has acted)."""
    if state.phase == OVER:
        return 0
    later = state.turns - state.turn
    if state.phase in (CARD, PICK):
        return later + 1
    if state.phase == CUBE:
        return later + 1  # its own action or the set bonus may still come
    return later


def upper_bound(game: TiberiusGame, state: TiberiusState, seat: int) -> int:
    """A VP no line of play lets ``seat`` exceed.

    Per-cube VP (triumphs 2, consul/censor at most 3, imperator 1, priesthoods 1, influence 1/3,
    marriages 1 with the aid) of the cubes held, plus at most 3 VP for each cube still to come
    (per remaining cube phase: a card's icons, 2 taken influence or the set bonus), plus every
    majority and bonus won and no penalty.
    """
    if _cubes_final(state):
        return _final_score(game, state, seat, boost={seat})
    x = state.cubes[seat]
    per_cube = TRIUMPH_PER_CUBE * x[TR] + consul_points(x[CC]) + x[IP] + x[PR] + x[IN] // INFLUENCE_PER_VP
    if state.marriage_vp == "aid":
        per_cube += x[IM]
    turns = _turns_with_cubes_left(state, seat)
    future = turns * (_max_new_cubes(game) + 3 + 2) * 3
    majorities = sum(table[0] for _, table, _ in PLACE_VP) + MARRIAGE_MOST + IMPERATOR_MOST
    adoption = ADOPTION_VP if state.adopted[seat] >= 0 or state.phase != OVER else 0
    loyalty = LOYALTY_VP if game.loyal(state, seat) or turns > 0 else 0
    return per_cube + future + majorities + adoption + loyalty


def lower_bound(game: TiberiusGame, state: TiberiusState, seat: int) -> int:
    """A VP ``seat`` keeps on every line of play.

    Once a seat can no longer play PCIM, its board cubes never leave (only Influence and Emperor
    cubes are spent), so triumphs, consul/censor, imperator (less 3 for least), priesthoods, the
    PCIM and Governorship floors, adoption and loyalty are kept. A seat that may still play PCIM
    only keeps its adoption and loyalty (less every penalty).
    """
    if _cubes_final(state):
        return _final_score(game, state, seat, boost=set(range(state.players)) - {seat})
    x = state.cubes[seat]
    kept = (ADOPTION_VP if state.adopted[seat] >= 0 else 0) + (LOYALTY_VP if game.loyal(state, seat) else 0)
    pcim_ahead = state.played[seat] == PCIM_CARD and (
        state.phase in (CARD, PICK)
        or (state.phase == CUBE and (state.actor == seat or _pending(state, seat)))
    )
    may_pcim = state.phase != OVER and (
        state.pcim_rule == "influence" or not state.pcim_used[seat] or pcim_ahead
    )
    if may_pcim:
        return kept + MARRIAGE_NONE + TRIUMPH_NONE + IMPERATOR_LEAST  # every penalty
    lb = kept + consul_points(x[CC]) + x[IP] + IMPERATOR_LEAST + x[PR]
    lb += TRIUMPH_PER_CUBE * x[TR] if x[TR] else TRIUMPH_NONE
    lb += 0 if x[IM] else MARRIAGE_NONE
    if state.marriage_vp == "aid":
        lb += x[IM]
    lb += sum(later for box, _, later in PLACE_VP if box != CQ and x[box])  # PCIM 7, Governorships 2
    return lb


def _cubes_final(state: TiberiusState) -> bool:
    """In the last adoption phase (or after) no cube moves any more; only adoptions remain."""
    return state.phase == OVER or (state.turn == state.turns and state.phase == ADOPT)


def _final_score(game: TiberiusGame, state: TiberiusState, seat: int, *, boost: set[int]) -> int:
    """``seat``'s VP with the cubes as they are, the seats in ``boost`` adopted wherever they may be."""
    adopted = [
        a >= 0 or (s in boost and state.phase != OVER and bool(adoption_options(state, game.pack, s)))
        for s, a in enumerate(state.adopted)
    ]
    loyal = [game.loyal(state, s) for s in range(state.players)]
    return score_totals(
        state.cubes,
        adopted,
        loyal,
        game.age_rank(state),
        marriage_vp=state.marriage_vp,
        imperator_solo=state.imperator_solo,
        imperator_empty=state.imperator_empty,
    )[seat]


def _pending(state: TiberiusState, seat: int) -> bool:
    """Whether ``seat`` still has its cube action ahead in this cube phase."""
    order = [(state.start_priority + k) % state.players for k in range(state.players)]
    return order.index(seat) > order.index(state.actor)


def _wins(game: TiberiusGame, state: TiberiusState, seat: int) -> bool:
    return game.returns(state)[seat] == 1.0


def brute_force_elimination(
    game: TiberiusGame, state: TiberiusState, seat: int, *, max_nodes: int = 2_000_000
) -> bool:
    """Whether some line of play makes ``seat`` the winner (plain exhaustive search)."""
    memo: dict[TiberiusState, bool] = {}
    nodes = 0

    def go(s: TiberiusState) -> bool:
        nonlocal nodes
        if s.phase == OVER:
            return _wins(game, s, seat)
        if s in memo:
            return memo[s]
        nodes += 1
        if nodes > max_nodes:
            raise RuntimeError("brute force too large")
        found = any(go(game.apply(s, a)) for a in game.legal_actions(s))
        memo[s] = found
        return found

    return go(state)


def _probe_witness(
    game: TiberiusGame, state: TiberiusState, seat: int, *, probes: int, deadline: float
) -> list[str] | None:
    """Try a few guided lines before the exhaustive search: seat X takes the action best for its
    VP-if-the-game-ended-now, every other seat the action worst for its own (ties at random).
    Returns the first line that ends with X first, or None."""
    for k in range(probes):
        rng = make_rng(k)
        s, line = state, []
        while s.phase != OVER:
            if time.perf_counter() > deadline:
                return None
            actor = s.actor
            sign = 1 if actor == seat else -1
            best: list[TAction] = []
            best_v = None
            for a in game.legal_actions(s):
                v = sign * game.totals(game.apply(s, a))[actor]
                if best_v is None or v > best_v:
                    best, best_v = [a], v
                elif v == best_v:
                    best.append(a)
            a = best[rng.randrange(len(best))] if k else best[0]
            line.append(game.action_to_text(s, a))
            s = game.apply(s, a)
        if _wins(game, s, seat):
            return line
    return None


def elimination(
    game: Game[Any, Any], state: Any, params: Mapping[str, Any], limits: SolveLimits
) -> SolveResult:
    """Can seat ``params["seat"]`` still finish first? YES with a witness, NO proven, or UNKNOWN.

    Params: ``seat`` (default: the seat to act), ``max_nodes`` (default 200000), ``probes``
    (guided lines tried before the exhaustive search, default 3).
    The search uses the full state (deck order, secret cards); to ask from a seat's point of view,
    pass a state sampled from its observation.
    """
    start = time.perf_counter()
    g, s = _game(game), _state(state)
    check_param_keys(params, ELIMINATION_PARAMS)
    seat = _int_param(params, "seat", max(s.actor, 0), 0, s.players - 1)
    max_nodes = _int_param(params, "max_nodes", 200_000, 1, 50_000_000)
    probes = _int_param(params, "probes", 3, 0, 100)
    deadline = start + float(limits.time_limit_s)

    def best_rival(st: TiberiusState) -> tuple[int, int]:
        rivals = [(lower_bound(g, st, o), o) for o in range(st.players) if o != seat]
        return max(rivals) if rivals else (-(10**9), -1)

    def target(st: TiberiusState) -> tuple[int, int]:
        """The VP seat X must reach: a rival's guaranteed VP, or 45 solo."""
        return (SOLO_TARGET, -1) if st.players == 1 else best_rival(st)

    ub = upper_bound(g, s, seat)
    lb, leader = target(s)
    base: dict[str, Any] = {"seat": seat, "upper_bound": ub, "leader": leader, "leader_guaranteed": lb}
    if ub < lb and s.phase != OVER:
        return SolveResult(
            kind="tiberius.elimination",
            status=Status.INFEASIBLE,
            objective=0.0,
            bound=float(ub),
            answer={**base, "can_finish_first": "no", "witness": []},
            explanation=f"no: seat {seat} can reach at most {ub} VP but seat {leader} keeps {lb}",
            method="enumeration",
            wall_s=time.perf_counter() - start,
        )
    memo: dict[TiberiusState, bool] = {}
    nodes = 0
    out_of_budget = False

    def go(st: TiberiusState, line: list[str]) -> list[str] | None:
        nonlocal nodes, out_of_budget
        if st.phase == OVER:
            return line if _wins(g, st, seat) else None
        if st in memo:
            return None  # memo only stores failures
        nodes += 1
        if nodes > max_nodes or (nodes % 512 == 0 and past_deadline_or_stopped(deadline, limits.stop)):
            out_of_budget = True
            return None
        if upper_bound(g, st, seat) < target(st)[0]:
            memo[st] = False
            return None
        for a in g.legal_actions(st):
            found = go(g.apply(st, a), [*line, g.action_to_text(st, a)])
            if found is not None:
                return found
            if out_of_budget:
                return None
        memo[st] = False
        return None

    witness = _probe_witness(g, s, seat, probes=probes, deadline=deadline)
    if witness is None:
        witness = go(s, [])
    if witness is not None:
        base["witness_seats"] = _witness_seats(g, s, witness)
    return _elimination_answer(
        base,
        witness,
        seat=seat,
        ub=ub,
        nodes=nodes,
        out_of_budget=out_of_budget,
        wall=time.perf_counter() - start,
    )


def _witness_seats(game: TiberiusGame, state: TiberiusState, witness: Sequence[str]) -> list[int]:
    """Who plays each action of a witness line (replayed through the engine)."""
    seats, s = [], state
    for text in witness:
        seats.append(s.actor)
        s = game.apply(s, game.parse_action(s, text))
    return seats


def _witness_text(witness: Sequence[str], seats: Sequence[int], most: int = 8) -> str:
    """``"seat 0 bid 3, seat 1 take 2 influence, ..."``: a witness's first actions with who plays them."""
    shown = [f"seat {p} {t}" for p, t in zip(seats, witness, strict=True)][:most]
    return ", ".join(shown) + (", ..." if len(witness) > most else "")


def _elimination_answer(
    base: dict[str, Any],
    witness: list[str] | None,
    *,
    seat: int,
    ub: int,
    nodes: int,
    out_of_budget: bool,
    wall: float,
) -> SolveResult:
    """The elimination puzzle's answer, with a sentence a player can act on."""
    if witness is not None:
        return SolveResult(
            kind="tiberius.elimination",
            status=Status.OPTIMAL,
            objective=1.0,
            bound=float(ub),
            answer={**base, "can_finish_first": "yes", "witness": witness},
            explanation=(
                f"yes: seat {seat} finishes first along the witness line ({len(witness)} actions: "
                + _witness_text(witness, base["witness_seats"])
                + ")"
                if witness
                else f"yes: the game is over and seat {seat} is first"
            ),
            method="enumeration",
            wall_s=wall,
        )
    if out_of_budget:
        return SolveResult(
            kind="tiberius.elimination",
            status=Status.UNKNOWN,
            bound=float(ub),
            answer={**base, "can_finish_first": "unknown", "witness": []},
            explanation=f"unknown: {nodes} positions searched within the limits",
            method="enumeration",
            wall_s=wall,
        )
    return SolveResult(
        kind="tiberius.elimination",
        status=Status.INFEASIBLE,
        objective=0.0,
        bound=float(ub),
        answer={**base, "can_finish_first": "no", "witness": []},
        explanation=f"no: every line of play searched ({nodes} positions); seat {seat} never finishes first",
        method="enumeration",
        wall_s=wall,
    )


# ============================================================================ registration

_METHOD_SCHEMA = {
    "type": "string",
    "enum": list(_METHODS),
    "default": "auto",
    "description": "how a cube action is solved: 'auto' enumerates every line while they reach at most "
    f"{ENUMERATION_STATES} positions and uses CP-SAT beyond; 'cp-sat' always; 'enumeration' never "
    "(exact but exponential in the cubes to place). Every method gives the same optimum.",
}

BEST_PLACEMENT_PARAMS: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "tiberius.best_placement parameters",
    "type": "object",
    "additionalProperties": False,
    "properties": {"method": _METHOD_SCHEMA},
}
"""The parameters of ``tiberius.best_placement`` (JSON Schema)."""

BEST_BID_PARAMS: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "tiberius.best_bid parameters",
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "others": {
            "type": "object",
            "description": "what the seats still to act in this card phase will do, by seat number: "
            "'bid 3', 'buy HIS06', 'imperium maius' or 'take 2 influence' (a plan that is not legal "
            "when its turn comes, such as a bid already made, becomes take 2 influence); seats not "
            "named take 2 Influence, or are sampled (see samples)",
            "propertyNames": {"pattern": "^[0-5]$"},
            "additionalProperties": {"type": "string", "maxLength": 40},
            "default": {},
        },
        "samples": {
            "type": "integer",
            "minimum": 0,
            "maximum": 64,
            "default": 0,
            "description": "0: the seats not named in others take 2 Influence; N > 0: N scenarios each "
            "draw their action from the likely-bid model (take 2 or bid 1..5, uniformly) and every value "
            "is the mean over the scenarios",
        },
        "seed": {
            "type": "integer",
            "minimum": -(2**62),
            "maximum": 2**62,
            "default": 0,
            "description": "the seed of the sampled scenarios (same seed, same scenarios)",
        },
        "method": {
            **_METHOD_SCHEMA,
            "description": "how the seat's own PCIM action is solved: " + str(_METHOD_SCHEMA["description"]),
        },
    },
}
"""The parameters of ``tiberius.best_bid`` (JSON Schema)."""

ELIMINATION_PARAMS: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "tiberius.elimination parameters",
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "seat": {
            "type": "integer",
            "minimum": 0,
            "maximum": 5,
            "description": "the seat asked about (default: the seat to act; a seat of the position)",
        },
        "max_nodes": {
            "type": "integer",
            "minimum": 1,
            "maximum": 50_000_000,
            "default": 200_000,
            "description": "positions the exhaustive search may visit before it answers unknown",
        },
        "probes": {
            "type": "integer",
            "minimum": 0,
            "maximum": 100,
            "default": 3,
            "description": "guided lines tried before the exhaustive search (each may find a witness fast)",
        },
    },
}
"""The parameters of ``tiberius.elimination`` (JSON Schema)."""

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
