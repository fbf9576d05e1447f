"""The parameters the CyberVerse puzzles share: bounded ints and strings, the game, the state and
the seat, each checked with the field named."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from games.core import Game
from games.cyberverse.game import CyberverseGame
from games.cyberverse.state import State
from games.errors import ConfigError, InvalidStateError
from solver.core import shown

SCALE = 1000
"""Expected values are scaled to integers (thousandths) in the CP-SAT model."""


# ============================================================================ parameters
def int_param(params: Mapping[str, Any], key: str, default: int, lo: int, hi: int) -> int:
    value = params.get(key, default)
    ok = isinstance(value, int) and not isinstance(value, bool)
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        value, ok = int(value), True
    if not ok or not lo <= value <= hi:
        raise ConfigError(f"{key} must be an integer {lo}..{hi}, got {shown(value)}", field=f"params.{key}")
    return int(value)


def str_param(params: Mapping[str, Any], key: str, default: str) -> str:
    value = params.get(key, default)
    if not isinstance(value, str) or len(value) > 60:
        raise ConfigError(f"{key} must be a short string, got {shown(value)}", field=f"params.{key}")
    return value


def game_of(game: Game[Any, Any]) -> CyberverseGame:
    if not isinstance(game, CyberverseGame):
        raise InvalidStateError(f"expected the cyberverse game, got {game.info.name!r}", field="game")
    return game


def state_of(state: Any) -> State:
    if not isinstance(state, State):
        raise InvalidStateError(f"expected a cyberverse state, got {type(state).__name__}", field="state")
    return state


def seat_of(s: State, params: Mapping[str, Any]) -> int:
    default = s.actor if s.actor >= 0 else 0
    return int_param(params, "seat", default, 0, s.players - 1)
