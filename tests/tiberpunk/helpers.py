"""Helpers to build Tiberpunk positions for rule tests."""

from __future__ import annotations

import random
from typing import Any

from games.core import GameConfig
from games.core.records import replace
from games.tiberpunk import TiberpunkGame
from games.tiberpunk import actions as act
from games.tiberpunk.dice import encode_pool
from games.tiberpunk.state import PH_MAIN, Ctx, State

GAME = TiberpunkGame()
C = GAME.pack
R = GAME.rules
IDS = C.district_ids


def d(name: str) -> int:
    """District index of a roman numeral."""
    return IDS.index(name)


def new(n: int = 2, seed: int = 1, **options: Any) -> State:
    """A fresh game."""
    return GAME.new_state(GameConfig(players=n, options=options), seed)


def placed(n: int = 2, seed: int = 1, where: tuple[str, ...] = (), **options: Any) -> State:
    """A game with every miniature placed, seat 0 to play its main phase (turn 1)."""
    s = new(n, seed, **options)
    players = []
    for i, p in enumerate(s.players):
        w = d(where[i]) if i < len(where) else d(("I", "V", "VII", "XII")[i])
        players.append(replace(p, char=w, drone=w))
    return replace(s, players=tuple(players), phase=PH_MAIN, seat=0, draft=())


def put(s: State, seat: int, **fields: Any) -> State:
    """Replace fields of one player (districts may be given as roman numerals)."""
    for k in ("char", "drone"):
        if isinstance(fields.get(k), str):
            fields[k] = d(fields[k])
    p = replace(s.players[seat], **fields)
    return replace(s, players=(*s.players[:seat], p, *s.players[seat + 1 :]))


def lictors(s: State, *names: str) -> State:
    """Put the lictors on these districts."""
    return replace(s, lictors=tuple(sorted(d(x) for x in names)))


def texts(s: State) -> list[str]:
    """Notation of every legal action."""
    return [GAME.action_to_text(s, a) for a in GAME.legal_actions(s)]


def do(s: State, text: str) -> State:
    """Apply an action given in notation."""
    return GAME.apply(s, GAME.parse_action(s, text))


def roll(s: State, *values: int) -> State:
    """Apply a chance outcome: these dice."""
    return GAME.apply(s, act.dice(encode_pool(tuple(sorted(values)))))


def tokens(s: State, seat: int) -> int:
    """Triumph tokens a seat placed."""
    return sum(s.players[seat].otoks)


def ctx(s: State) -> Ctx:
    """The quest or combat in progress."""
    assert s.ctx is not None
    return s.ctx


def purposeful(s: State, rng: random.Random) -> int:
    """A biased-random policy: the game's prior (quests, combats and structures first)."""
    acts = GAME.legal_actions(s)
    weights = GAME.prior(s)
    if weights is None:
        return rng.choice(acts)
    return rng.choices(acts, weights=weights)[0]
