"""CyberVerse's fitted win model: what an Organization reads off the city, weighed by self-play.

:func:`win_features` gives each seat a vector of named features (:data:`FEATURES`) a CyberVerse
player would recognise: the hand-written evaluation's own estimate (:meth:`CyberverseGame.heuristic`,
the greedy win model of :mod:`games.cyberverse.policies`, as a log-chance, so the fit starts from it),
the VP if the game ended now, Influence and the lead in it, the Investigation phase to come,
Resources, the Story in progress and its validated Missions, resolved Stories, the team (Agents,
their Health and Supply tokens) and Support cards. :func:`fitted_heuristic` turns them into win
chances with the weights of ``fitted.json`` (a conditional logit, ``games/core/fitted.py``), trained
by ``lictor train cyberverse`` (``batch/selfplay.py``). Nothing here is a rule: it only reads states.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from games.core.fitted import WinModel, fitted_evaluator, load_model, win_chances
from games.core.protocol import TERMINAL, Evaluator
from games.cyberverse import policies
from games.cyberverse.state import State

if TYPE_CHECKING:
    from games.cyberverse.game import CyberverseGame

__all__ = ["FEATURES", "evaluator", "fitted_heuristic", "model", "win_features"]

FEATURES = (
    "hand-written log-chance",
    "hand-written log-chance x game left",
    "VP now",
    "influence tokens",
    "influence lead when ahead",
    "influence lead when behind",
    "investigation phase to come",
    "resources",
    "stories resolved",
    "stories resolved x game left",
    "story in progress",
    "missions validated",
    "agents",
    "agents' health",
    "supply tokens",
    "support cards",
)
"""The features of each seat, in order (the names the shipped model's weights are given by):

- hand-written log-chance: the log of :meth:`CyberverseGame.heuristic`'s chance for the seat (weight
  1 and nothing else is the hand-written evaluation itself); "x game left" is the same times the
  fraction of the game left (:func:`games.cyberverse.policies.game_left`: 1 at the start, 0 at the
  end);
- VP now: the seat's victory points if the game ended now (Stories, Influence, majorities, D);
- influence tokens on the New Eden board, and the lead over the next Organization's (when ahead,
  when behind);
- investigation phase to come: the VP the rest of this turn's Investigation phase should bring
  (Influence where the seat's Agents stand alone, Hackings; tenths of the greedy value);
- resources: thousands of D;
- stories resolved, and the same times the fraction of the game left;
- story in progress: 1 while the seat holds a Story card; missions validated: of its cases;
- agents: the team's size; agents' health: their Health points; supply tokens on their dashboards;
- support cards held.
"""

FOR_LEVELS = False
"""Whether the AI's strength levels search with the fitted model (``Evaluator.levels``): only where
the head-to-head at equal time (``python -m bench.fitted --game cyberverse``) measured it stronger
than the hand-written evaluation; see docs/cyberverse.md, "Fitted evaluator". Not so far: the
shipped model (260 self-play games; held-out log-loss 0.607 against the hand-written 0.615) scored
39.7% [29.3, 51.2] against it over 73 games at 30 ms a move (target 60%)."""

MODEL_FILE = "fitted.json"
"""The shipped model (package data of ``games.cyberverse``)."""


def model() -> WinModel:
    """The shipped fitted model (read once: :func:`games.core.fitted.load_model`)."""
    return load_model("games.cyberverse", MODEL_FILE)


def win_features(game: CyberverseGame, state: State) -> list[tuple[float, ...]]:
    """Per seat, the features of :data:`FEATURES`."""
    c = game.content_pack
    greedy = policies.win_features(state, c)
    done = game.current_player(state) == TERMINAL
    # the hand-written heuristic (CyberverseGame.heuristic) on the greedy features computed once
    chances = game.returns(state) if done else policies.win_chances(state, c, greedy)
    left = policies.game_left(state)
    out: list[tuple[float, ...]] = []
    for seat, org in enumerate(state.orgs):
        log_chance = math.log(max(chances[seat], 1e-4))
        vp, infl, ahead, behind, pending, money, _rest, solved = greedy[seat]
        team = [a for a in state.agents if a.org == seat]
        out.append(
            (
                log_chance,
                log_chance * left,
                vp,
                infl,
                ahead,
                behind,
                pending,
                money,
                solved,
                solved * left,
                1.0 if org.story >= 0 else 0.0,
                float(sum(len(d) for d in org.done)),
                float(len(team)),
                float(sum(a.health for a in team)),
                float(sum(len(a.kit) for a in team)),
                float(len(org.support)),
            )
        )
    return out


def fitted_heuristic(game: CyberverseGame, state: State) -> tuple[float, ...]:
    """Each seat's chance to win by the fitted model (a finished game gives ``returns``)."""
    if game.current_player(state) == TERMINAL:
        return game.returns(state)
    return win_chances(model().weights_for(state.players), win_features(game, state))


def evaluator(game: CyberverseGame) -> Evaluator:
    """The ``"fitted"`` evaluator: :func:`fitted_heuristic` with the game's own prior."""
    return fitted_evaluator(
        model(),
        lambda state: fitted_heuristic(game, state),
        lambda state: win_features(game, state),
        FEATURES,
        levels=FOR_LEVELS,
    )
