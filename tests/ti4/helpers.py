"""Shared helpers for the TI4 tests."""

from __future__ import annotations

import random
from typing import Any

from games.core.protocol import TERMINAL, GameConfig
from games.ti4 import TI4Game
from games.ti4.state import TI4State

GAME = TI4Game()


def new(players: int, seed: int = 0, **options: Any) -> TI4State:
    return GAME.new_state(GameConfig(players=players, options=options), seed)


def play_until(state: TI4State, phase: int, seed: int = 0) -> TI4State:
    """Random legal actions until the state reaches ``phase`` (or the end)."""
    rng = random.Random(seed)
    while state.phase != phase and GAME.current_player(state) != TERMINAL:
        state = GAME.apply(state, rng.choice(list(GAME.legal_actions(state))))
    return state


def play_out(state: TI4State, seed: int = 0) -> TI4State:
    rng = random.Random(seed)
    while GAME.current_player(state) != TERMINAL:
        state = GAME.apply(state, rng.choice(list(GAME.legal_actions(state))))
    return state
