"""Cytress's fitted win model: what a player reads off the table, weighed by who won.

:func:`win_features` gives each seat a vector of named features (:data:`FEATURES`) a Cytress player
would recognise: the hand-written evaluation's own estimate (``games.cytress.ai``, as a log-chance,
so the fit starts from it) and the parts of it, plus what that evaluation misses: the waste tube the
seat can pay for now (a 3-high one drops a crew to level 3 of Stratos), its crews on the mini-map
that could carry a tube, its crews on each level of Stratos and the level 2 and 3 majorities, the
tubes it rules now and the empty hexes around them, its complete sets and longest lifepath (the
level 2 and 3 bonuses' bases), and how they weigh as the tube sections run out.
:func:`fitted_heuristic` turns them into win chances with the weights of ``fitted.json`` (a
conditional logit, ``games/core/fitted.py``); the fit is ``python -m bench.cytress --only fit``.
The greedy policy and ``CytressGame.heuristic`` stay the hand-written evaluation; a search picks
this one with ``SearchOptions(evaluator="fitted")``. Nothing here is a rule: it reads states as
``ai.py`` does.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from games.core.fitted import WinModel, fitted_evaluator, load_model, win_chances
from games.core.protocol import Evaluator
from games.cytress.board import TUBE_COST, TUBE_PRESTIGE, strict_leader, tube_neighbours
from games.cytress.state import CORPOCRAT, HOOLIGANG, LEVELS, OVER, PRIVATEER, ROVER, CytressState, Icons

if TYPE_CHECKING:
    from games.cytress.game import CytressGame

__all__ = ["FEATURES", "evaluator", "fitted_heuristic", "model", "win_features"]

FEATURES = (
    "hand-written log-chance",
    "prestige now",
    "prestige now x rounds left",
    "prestige now x final round",
    "open contests",
    "crews on the mini-map",
    "crews in supply",
    "resources",
    "resources x rounds left",
    "lifepath icons x rounds left",
    "income icons x rounds left",
    "faction target icons",
    "action under way",
    "tube height payable now",
    "tube height payable now x rounds left",
    "3-high tube payable now",
    "share of a 3-high tube's cost held",
    "3-high tube payable x crew on the mini-map",
    "crews on level 1",
    "crews on level 2",
    "crews on level 3",
    "level 2 majority",
    "level 3 majority",
    "tube prestige ruled now",
    "empty hexes next to tubes",
    "complete target sets",
    "longest lifepath",
    "bounties held",
)
"""The features of each seat, in order (the names the shipped model's weights are given by):

- hand-written log-chance: the log of ``CytressGame.heuristic``'s chance for the seat (weight 1 and
  nothing else is the hand-written evaluation itself);
- prestige now: PRESTIGE if the rebellion broke out now; times the rounds left (at most 4, over 4),
  and times 1 in the final round (the last tube section is down);
- open contests, crews on the mini-map, crews in supply, resources, lifepath icons times the rounds
  left, faction target icons, action under way: the parts of the hand-written projection
  (``games.cytress.ai``); income icons: the Corpocrat lifepath's;
- tube height payable now: the highest waste tube (0-3) the seat could pay in one resource after
  its Hooligang discount; a 3-high one (0/1); the share of a 3-high tube's cost it holds in its best
  resource (at most 1); a 3-high tube payable while it has a crew on the mini-map to drop it on;
- crews on each level of Stratos; level 2 and 3 majorities held (ties included);
- tube prestige ruled now; empty hexes next to tubes the seat has a crew next to (where it can
  still gain or defend a majority);
- complete target sets and the longest lifepath (the level 3 and 2 bonuses' bases); bounties held.
"""

FOR_LEVELS = False
"""Whether the AI's strength levels search with the fitted model (``Evaluator.levels``): no, since
2026-11-29. It met issue 28's target against two greedy seats (80.8% [74.7, 85.6] over 200 games,
docs/cytress.md), but head to head against the hand-written heuristic (one fitted seat, two
hand-written, 402 games each) it is weaker at equal time (pairwise 45.6% [40.8, 50.5], its seat won
27.6% [23.4, 32.1] against an even 33.3%) and no stronger at equal simulations (47.9% [43.0, 52.8],
30.8% [26.5, 35.4]), at about 1.4x the CPU a simulation."""

MODEL_FILE = "fitted.json"
"""The shipped model (package data of ``games.cytress``)."""


def model() -> WinModel:
    """The shipped fitted model (read once: :func:`games.core.fitted.load_model`)."""
    return load_model("games.cytress", MODEL_FILE)


def win_features(game: CytressGame, state: CytressState) -> list[tuple[float, ...]]:
    """Per seat, the features of :data:`FEATURES` (2+ seats; solo: the seat's only)."""
    now = _Now.of(game, state)
    return [_seat_features(state, now, seat) for seat in range(state.num_players)]


@dataclass(frozen=True, slots=True)
class _Now:
    """What every seat's features share: the heuristic's totals and chances, the time left, the
    Stratos leaders and the tubes."""

    game: CytressGame
    prestige: Sequence[int]
    icons: Sequence[int]
    later: float
    contests: Sequence[float]
    chances: Sequence[float]
    pending: float
    best: Sequence[int]
    ruled: Sequence[int]
    near_empty: Sequence[int]

    @classmethod
    def of(cls, game: CytressGame, state: CytressState) -> _Now:
        ev = game.evaluator
        now, icons = ev.totals(state)
        later = ev.rounds_left(state)
        if state.phase == OVER:
            contests: Sequence[float] = [0.0] * state.owners
            chances: Sequence[float] = game.returns(state)
        else:
            contests = ev.open_contests(state, later)
            if state.solo:
                chances = game.heuristic(state)
            else:
                chances = ev.chances_from(state, ev.fitted_values(state, now, icons, contests, later))
        pending = ev.pending_credit(state, later) if 0 <= state.actor < state.num_players else 0.0
        best = [max(r.stratos[k] for r in state.rebels) for k in range(LEVELS)]
        ruled, near_empty = _tubes(state)
        return cls(game, now, icons, later, contests, chances, pending, best, ruled, near_empty)


def _seat_features(state: CytressState, n: _Now, seat: int) -> tuple[float, ...]:
    """One seat's features, in the order of :data:`FEATURES`."""
    later = n.later
    t = min(later, 4.0) / 4.0
    final = 1.0 if later <= 0.0 else 0.0
    live = 1.0 if later > 0 else 0.45
    own = state.players[seat].icons
    res = state.players[seat].resources
    payable, share = _tube_reach(own, res)
    on_map = state.crew.count(seat)
    three = 1.0 if payable == 3 else 0.0
    rebel = state.rebels[seat]
    a, b, c = rebel.stratos
    targets, longest, _ = n.game.evaluator.card_counts(state, seat)
    total = float(n.prestige[seat])
    resources = float(sum(res))
    return (
        math.log(max(n.chances[seat], 1e-4)),
        total,
        total * t,
        total * final,
        n.contests[seat],
        on_map * live,
        rebel.unused * live * min(1.0, later),
        resources * live,
        resources * t,
        later * (sum(own[CORPOCRAT]) + sum(own[PRIVATEER]) + sum(own[HOOLIGANG]) + sum(own[ROVER])),
        later * sum(own[CORPOCRAT]),
        float(n.icons[seat]) * live,
        n.pending if seat == state.actor else 0.0,
        payable * live,
        payable * t,
        three * live,
        share * live,
        three if on_map else 0.0,
        float(a),
        float(b),
        float(c),
        1.0 if n.best[1] and b == n.best[1] else 0.0,
        1.0 if n.best[2] and c == n.best[2] else 0.0,
        float(n.ruled[seat]),
        float(n.near_empty[seat]) * live,
        float(min(targets)),
        float(longest),
        float(len(rebel.bounties)),
    )


def _tubes(state: CytressState) -> tuple[list[int], list[int]]:
    """Per owner, the tube PRESTIGE it rules now and the empty hexes next to the tubes it has a
    crew next to."""
    owners = state.owners
    crew, tube, adjacent = state.crew, state.tube, state.map.layout.adjacent
    ruled = [0] * owners
    near_empty = [0] * owners
    for h, height in enumerate(tube):
        if not height:
            continue
        counts, empty = tube_neighbours(adjacent[h], crew, tube, owners)
        who = strict_leader(counts)
        if who >= 0:
            ruled[who] += TUBE_PRESTIGE[height]
        if empty:
            for o in range(owners):
                if counts[o]:
                    near_empty[o] += empty
    return ruled, near_empty


def _tube_reach(icons: Icons, res: Sequence[int]) -> tuple[int, float]:
    """The highest waste tube a seat could pay in one resource now (after its Hooligang discount),
    and the share of a 3-high tube's cost it holds in its best resource (at most 1)."""
    payable = 0
    share = 0.0
    for r, have in enumerate(res):
        discount = icons[HOOLIGANG][r]
        for h in (3, 2, 1):
            if max(0, TUBE_COST[h] - discount) <= have:
                payable = max(payable, h)
                break
        share = max(share, min(1.0, have / max(1, TUBE_COST[3] - discount)))
    return payable, share


def fitted_heuristic(game: CytressGame, state: CytressState) -> tuple[float, ...]:
    """Each seat's chance to win by the fitted model; a finished game gives ``returns``, and a
    player count the model has no weights for (solo) the hand-written ``heuristic``."""
    if state.phase == OVER:
        return game.returns(state)
    weights = model().weights.get(str(state.num_players))
    if weights is None:
        return game.heuristic(state)
    return win_chances(weights, win_features(game, state))


def evaluator(game: CytressGame) -> Evaluator:
    """The ``"fitted"`` evaluator: :func:`fitted_heuristic` with the game's own prior."""
    return fitted_evaluator(
        model(),
        lambda state: fitted_heuristic(game, state),
        lambda state: win_features(game, state),
        FEATURES,
        levels=FOR_LEVELS,
        games_of="3-player games of greedy and automa-policy seats",
    )
