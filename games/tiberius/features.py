"""Tiberius Who?'s fitted win model: what a player reads off the board, weighed by self-play.

:func:`win_features` gives each seat a vector of named features (:data:`FEATURES`) a Tiberius player
would recognise: the hand-written evaluation's own estimate (:meth:`TiberiusGame.heuristic`, as a
log-chance, so the fit starts from it), the VP if the game ended now (the scoring's own tally), the
majorities held and contested, cubes in stock and Influence, career cards and the decks they come
from, how far the seat's adoption cards' requirements are met, the Priority marker and the unused
Pro-Consular Imperium Maius card. :func:`fitted_heuristic` turns them into win chances with the
weights of ``fitted.json`` (a conditional logit, ``games/core/fitted.py``), trained by
``lictor train tiberius`` (``batch/selfplay.py``). Nothing here is a rule: it only reads states.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from games.core.fitted import WinModel, fitted_evaluator, load_model, win_chances
from games.core.protocol import Evaluator
from games.tiberius.model import CQ, CUBES_PER_PLAYER, GV, IM, IN, IP, OVER, PC, TiberiusState

if TYPE_CHECKING:
    from games.tiberius.game import TiberiusGame

__all__ = ["FEATURES", "evaluator", "fitted_heuristic", "model", "win_features"]

FEATURES = (
    "hand-written log-chance",
    "hand-written log-chance x game run",
    "VP now",
    "majorities held",
    "majorities contested",
    "cubes in stock",
    "cubes in stock x turns left",
    "influence cubes",
    "career cards",
    "regional decks held",
    "adoption requirements met",
    "priority marker",
    "imperium maius card unused",
)
"""The features of each seat, in order (the names the shipped model's weights are given by):

- hand-written log-chance: the log of :meth:`TiberiusGame.heuristic`'s chance for the seat (weight 1
  and nothing else is the hand-written evaluation itself); "x game run" is the same times the share
  of the game's turns begun before this one (0 in turn 1, 1 once the game is over);
- VP now: the seat's total by the VP schedule if the game ended now (:meth:`TiberiusGame.totals`);
- majorities held / contested: of the boxes scored by who has most (Conquests, Pro-Consular
  Imperium Maius, Governorships, Imperial Marriages, Imperator), those where the seat has strictly
  more cubes than every other seat / as many as the most of the others (at least one cube);
- cubes in stock (of the 40; icons are placed from stock), and the same times the turns left after
  this one (a count all seats share cancels in the conditional logit: it only counts through a
  product like this one);
- influence cubes (the currency of bids and purchases; 1 VP per 3 at the end);
- career cards taken, and the regional decks they come from (6 is loyalty);
- adoption requirements met: the largest share of an adoption card's cubes the seat has (its own
  secret card, when known, or a face-up one); 1 once adopted;
- priority marker: 1 for the seat that holds it now (first in the next card phase);
- imperium maius card unused: 1 while the seat may still play the Pro-Consular Imperium Maius card.
"""

MAJORITY_BOXES = (CQ, PC, GV, IM, IP)
"""The boxes that score the seat with the most cubes (places, strictly most, most)."""

FOR_LEVELS = False
"""Whether the AI's strength levels search with the fitted model (``Evaluator.levels``): only where
the head-to-head at equal time (``python -m bench.fitted --game tiberius``) measured it stronger than
the hand-written evaluation; see docs/tiberius.md, "Fitted evaluator". The shipped model (800
self-play games; held-out log-loss 0.585 against the hand-written 0.645), with the game's prior at
temperature 2 (``prior_temperature`` in fitted.json), scored 55.6% [52.8, 58.4] against it over
1,200 games at 30 ms a move (target 60%; 53.8% at temperature 1): stronger at two seats, but the
levels serve 1 to 6 and the model was fitted and measured at two, so they keep the hand-written one."""

MODEL_FILE = "fitted.json"
"""The shipped model (package data of ``games.tiberius``)."""


def model() -> WinModel:
    """The shipped fitted model (read once: :func:`games.core.fitted.load_model`)."""
    return load_model("games.tiberius", MODEL_FILE)


def _adoption_met(game: TiberiusGame, state: TiberiusState, seat: int) -> float:
    """The largest share of an adoption card's required cubes ``seat`` has (1 when adopted)."""
    player = state.players[seat]
    if player.adopted >= 0:
        return 1.0
    cards = game.pack.adoptions
    best = 0.0
    for a in (player.secret, *state.adopt_face_up):
        if a < 0:
            continue  # the seat's secret card, hidden in another seat's view
        req = cards[a].requires
        need = sum(v for _, v in req)
        have = sum(min(player.cubes[box], v) for box, v in req)
        best = max(best, have / need if need else 1.0)
    return best


def win_features(game: TiberiusGame, state: TiberiusState) -> list[tuple[float, ...]]:
    """Per seat, the features of :data:`FEATURES`."""
    players = state.players
    chances = game.returns(state) if state.phase == OVER else game.heuristic(state)
    vp = game.totals(state)
    turns = state.turns
    run = min(1.0, (state.turn - 1) / turns)
    left = max(turns - state.turn, 0)
    regions = [c.region for c in game.pack.cards]
    out: list[tuple[float, ...]] = []
    for seat, p in enumerate(players):
        log_chance = math.log(max(chances[seat], 1e-4))
        held = contested = 0
        for box in MAJORITY_BOXES:
            mine = p.cubes[box]
            most = max(q.cubes[box] for k, q in enumerate(players) if k != seat) if len(players) > 1 else 0
            if mine > most:
                held += 1
            elif mine and mine == most:
                contested += 1
        stock = float(CUBES_PER_PLAYER - sum(p.cubes))
        out.append(
            (
                log_chance,
                log_chance * run,
                float(vp[seat]),
                float(held),
                float(contested),
                stock,
                stock * left,
                float(p.cubes[IN]),
                float(len(p.careers)),
                float(len({regions[c] for c in p.careers})),
                _adoption_met(game, state, seat),
                1.0 if state.priority == seat else 0.0,
                0.0 if p.pcim_used else 1.0,
            )
        )
    return out


def fitted_heuristic(game: TiberiusGame, state: TiberiusState) -> tuple[float, ...]:
    """Each seat's chance to win by the fitted model (a finished game gives ``returns``; one seat alone
    the hand-written heuristic: the model is fitted on two seats or more)."""
    if state.phase == OVER:
        return game.returns(state)
    if state.num_players == 1:
        return game.heuristic(state)
    return win_chances(model().weights_for(state.num_players), win_features(game, state))


def evaluator(game: TiberiusGame) -> Evaluator:
    """The ``"fitted"`` evaluator: :func:`fitted_heuristic` with the game's own prior at the model's
    ``prior_temperature`` (``fitted.json``)."""
    return fitted_evaluator(
        model(),
        lambda state: fitted_heuristic(game, state),
        lambda state: win_features(game, state),
        FEATURES,
        levels=FOR_LEVELS,
        game_prior=game.prior,
    )
