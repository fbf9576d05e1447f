"""Who may see what: the one per-viewer rule behind every view, event and log line.

A viewer sees of a state exactly its ``observation`` (a seat) or the public part (the
:data:`~games.core.face.SPECTATOR`); the :data:`~games.core.face.REFEREE` sees everything. Every
stream and view of a position follows from that one function, so no stream can show more than
the viewer's own view of the position:

- **an action** played in a state is shown (its notation) to a viewer when the viewer could tell
  it apart from every other move of that state by its own view of the result: for each other legal
  action (or chance outcome) ``b`` that leads to another state, ``observation(apply(state, b),
  viewer)`` differs from what the played action gave. A card drawn face down, a secret objective
  kept, a deck shuffled: the other seats see the same view whichever it was, so they do not see
  which (:func:`seen_by`). Moves that lead to the very same state (two dice that both fail a
  quest) tell nobody anything about the game: they do not hide each other. The seat that acts and
  the referee always see the action.
- **a log line** for that viewer is the game's ``log_line(state, action, viewer)``, which must
  read the same for moves the viewer cannot tell apart (``check_game`` proves it on every state of
  its playouts);
- **a description or a picture** is drawn from the viewer's observation (``seen_state``);
- **a view is a position** every call takes: where it hides what the seat to move decides on (seat
  1's tiles in seat 0's view), the calls that list, play or search that seat's moves refuse it by
  name (:func:`check_known`) instead of guessing.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.core.face import REFEREE, SPECTATOR, Viewer
from games.core.protocol import CHANCE, TERMINAL, Game
from games.errors import WrongSeatError

__all__ = ["check_known", "moves_of", "observe", "seen_by", "seen_state", "viewers_of"]

_SAMPLE_SEED = 0x5EE
"""The seed of the determinization a seat's view is drawn from: fixed, so a view is a pure function
of the observation (the same picture for the same view)."""


def viewers_of(game: Game[Any, Any], state: Any) -> list[Viewer]:
    """Every viewer who may hold a partial view of ``state``: the spectator, then each seat."""
    return [SPECTATOR, *range(game.num_players(state))]


def observe(game: Game[Any, Any], state: Any, viewer: Viewer) -> Any:
    """What ``viewer`` may see of ``state``: the state itself for the referee or in a game without
    hidden information, else the game's ``observation`` (a seat's, or the spectator's public one)."""
    if viewer == REFEREE or not game.info.hidden_information:
        return state
    return game.observation(state, viewer)


def seen_state(game: Game[Any, Any], state: Any, viewer: Viewer) -> Any:
    """A full state to draw ``viewer``'s view from: ``state`` for the referee or in a game without
    hidden information; else one drawn (with a fixed seed) from the viewer's observation, so only
    what the viewer may know can show in a description, a picture or a hint."""
    if viewer == REFEREE or not game.info.hidden_information:
        return state
    return game.sample_state(game.observation(state, viewer), viewer, random.Random(_SAMPLE_SEED))


def moves_of(game: Game[Any, Any], state: Any) -> Sequence[Any]:
    """The moves that could be played in ``state``: its chance outcomes or its legal actions."""
    player = game.current_player(state)
    if player == TERMINAL:
        return ()
    if player == CHANCE:
        return [a for a, _ in game.chance_outcomes(state)]
    return game.legal_actions(state)


def seen_by(game: Game[Any, Any], state: Any, action: Any) -> frozenset[Viewer]:
    """The viewers who see which move ``action`` was when it is played in ``state``.

    Always the referee and the seat that acts; in a game without hidden information everyone; else
    each other viewer (the spectator, the other seats) whose view of the result tells ``action``
    apart from every other move of ``state`` that leads to another state. An action that is not a
    move of ``state`` is seen by the referee and its actor only.
    """
    player = game.current_player(state)
    everyone = {REFEREE, *viewers_of(game, state)}
    if not game.info.hidden_information:
        return frozenset(everyone)
    mine = {REFEREE, player} if player >= 0 else {REFEREE}
    others = [v for v in viewers_of(game, state) if v not in mine]
    moves = moves_of(game, state)
    if action not in moves:
        return frozenset(mine)
    after = game.apply(state, action)
    views = {v: game.observation(after, v) for v in others}
    for other in moves:
        if not views:
            break
        if other == action:
            continue
        result = game.apply(state, other)
        if result == after:
            continue
        for v in list(views):
            if game.observation(result, v) == views[v]:
                del views[v]
    return frozenset(mine | set(views))


def check_known(game: Game[Any, Any], state: Any, *, field: str = "position") -> None:
    """WrongSeatError when the seat to move has secrets ``state`` does not hold (another viewer's
    view): its moves can be neither listed, played nor searched from it."""
    seat = game.current_player(state)
    if seat < 0:
        return
    missing = game.hides(state, seat)
    if missing:
        raise WrongSeatError(
            f"seat {seat} is to move, but this position hides {missing} (it is another viewer's view): "
            f"its moves cannot be listed, played or searched from it; send seat {seat}'s own view "
            "or the full position",
            field=field,
        )
