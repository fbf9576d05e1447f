"""Shared helpers for the Cytress tests: one game object, states built by hand, scripted play."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from games.core.protocol import TERMINAL, GameConfig
from games.core.records import replace, replace_at
from games.cytress.economy import lifepath_icons
from games.cytress.game import CytressGame
from games.cytress.state import CAction, CytressState

GAME = CytressGame()
PACK = GAME.pack


def start(players: int, seed: int = 0, **options: Any) -> CytressState:
    """A new game with every rebel board on side A (no side decisions), first player seat 0."""
    opts = {"rebel_sides": "A", "first_player": 0, **options}
    return GAME.new_state(GameConfig(players=players, options=opts), seed)


def set_player(state: CytressState, seat: int, **changes: Any) -> CytressState:
    """``state`` with the seat's :class:`Player` fields ``changes``; its lifepath icons follow its
    lifepaths and side."""
    p = replace(state.players[seat], **changes)
    p = replace(p, icons=lifepath_icons(PACK, state.rebels[seat].board, p.side, p.lifepaths))
    return replace(state, players=replace_at(state.players, seat, p))


def set_rebels(state: CytressState, **per_owner: Sequence[Any]) -> CytressState:
    """``state`` with each owner's :class:`Rebel` fields set, one value per owner in owner order
    (``set_rebels(s, stratos=((1, 0, 0), (0, 0, 0)), unused=(11, 12))``)."""
    rebels = tuple(
        replace(r, **{name: values[o] for name, values in per_owner.items()})
        for o, r in enumerate(state.rebels)
    )
    return replace(state, rebels=rebels)


def set_icons(state: CytressState, seat: int, lifepath: int, resource: int, count: int) -> CytressState:
    """``state`` with ``count`` ``resource`` icons on the seat's ``lifepath`` (whatever its cards)."""
    p = state.players[seat]
    counts = replace_at(p.icons[lifepath], resource, count)
    p = replace(p, icons=replace_at(p.icons, lifepath, counts))
    return replace(state, players=replace_at(state.players, seat, p))


def res(state: CytressState, seat: int) -> dict[str, int]:
    """A seat's resources by name."""
    names = ("creds", "tech", "ammo", "glow")
    return dict(zip(names, state.players[seat].resources, strict=True))


def set_res(state: CytressState, seat: int, *amounts: int) -> CytressState:
    """``state`` with the seat's resources set (CREDS, TECH, AMMO, GLOW)."""
    p = replace(state.players[seat], resources=amounts)
    return replace(state, players=replace_at(state.players, seat, p))


def kinds(state: CytressState) -> set[str]:
    """The kinds of the legal actions."""
    return {a.kind for a in GAME.legal_actions(state)}


def texts(state: CytressState) -> list[str]:
    """The legal actions in notation."""
    return [GAME.action_to_text(state, a) for a in GAME.legal_actions(state)]


def do(state: CytressState, *moves: str) -> CytressState:
    """Apply moves given in notation."""
    for m in moves:
        state = GAME.apply(state, GAME.parse_action(state, m))
    return state


def play_until(
    state: CytressState, done: Callable[[CytressState], bool], seed: int = 0, limit: int = 5000
) -> CytressState:
    """Random legal play until ``done`` holds (or the game ends)."""
    rng = random.Random(seed)
    for _ in range(limit):
        if done(state) or GAME.current_player(state) == TERMINAL:
            return state
        state = GAME.apply(state, rng.choice(list(GAME.legal_actions(state))))
    raise AssertionError("play_until did not reach the condition")


def first(state: CytressState, kind: str, pick: Callable[[CAction], bool] = lambda a: True) -> CAction:
    """The first legal action of ``kind`` that ``pick`` accepts."""
    for a in GAME.legal_actions(state):
        if a.kind == kind and pick(a):
            return a
    raise AssertionError(f"no legal {kind}: {texts(state)}")
