"""Parameters of the Tiberius Who? puzzles: typed reads that name the bad parameter, and each
puzzle's parameters as a JSON Schema."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from games.core import Game
from games.core.text import is_integer
from games.errors import ConfigError, InvalidStateError
from games.tiberius import TiberiusGame, TiberiusState
from solver.core import shown


def int_param(params: Mapping[str, Any], key: str, default: int, lo: int, hi: int) -> int:
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


def choice_param(params: Mapping[str, Any], key: str, choices: Sequence[str]) -> str:
    """A string parameter among ``choices`` (the first is the default)."""
    value = params.get(key, choices[0])
    if not isinstance(value, str) or value not in choices:
        raise ConfigError(f"{key} must be one of {list(choices)}, got {shown(value)}", field=f"params.{key}")
    return value


def as_game(game: Game[Any, Any]) -> TiberiusGame:
    if not isinstance(game, TiberiusGame):
        raise InvalidStateError(f"expected the tiberius game, got {game.info.name!r}", field="game")
    return game


def as_state(state: Any) -> TiberiusState:
    if not isinstance(state, TiberiusState):
        raise InvalidStateError(f"expected a tiberius state, got {type(state).__name__}", field="state")
    return state


ENUMERATION_STATES = 100
"""``best_placement``'s ``method="auto"`` enumerates when the lines reach at most this many distinct
positions (CP-SAT's fixed cost is a few milliseconds; enumerating this many costs less)."""

METHODS = ("auto", "cp-sat", "enumeration")

METHOD_SCHEMA = {
    "type": "string",
    "enum": list(METHODS),
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
    "properties": {"method": METHOD_SCHEMA},
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
            **METHOD_SCHEMA,
            "description": "how the seat's own PCIM action is solved: " + str(METHOD_SCHEMA["description"]),
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
