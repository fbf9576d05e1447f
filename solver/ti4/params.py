"""The TI4 puzzles' parameters: their JSON Schemas and their validation (each bad value named by
its field, ``params.<key>``, with the range or the choices that would be legal)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from games.core import Game
from games.core.text import is_digits
from games.errors import ConfigError
from games.ti4 import TI4Game, TI4State
from games.ti4.content import Content, TileId
from games.ti4.measures import DEFAULT, MEASURES, Measure, measure
from solver.core import check_param_keys, shown

__all__ = [
    "BALANCED_MAP_PARAMS",
    "MAP_STRING_PARAMS",
    "MILTY_PARAMS",
    "choice_param",
    "factions_param",
    "int_param",
    "map_string_params",
    "measure_param",
    "number_param",
    "state_defaults",
    "ti4_game",
    "tiles_param",
]


def int_param(params: Mapping[str, Any], key: str, default: int, lo: int, hi: int) -> int:
    """The integer parameter ``key`` (``default`` when absent), within ``lo``..``hi``."""
    value = params.get(key, default)
    number = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, float) and math.isfinite(value) and value.is_integer():
        number = int(value)
    if number is None or not lo <= number <= hi:
        raise ConfigError(f"{key} must be an integer {lo}..{hi}, got {shown(value)}", field=f"params.{key}")
    return number


def number_param(params: Mapping[str, Any], key: str, default: float, lo: float, hi: float) -> float:
    """The number parameter ``key`` (``default`` when absent), within ``lo``..``hi``."""
    value = params.get(key, default)
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not math.isfinite(value)
        or not lo <= value <= hi
    ):
        raise ConfigError(f"{key} must be a number {lo}..{hi}, got {shown(value)}", field=f"params.{key}")
    return float(value)


def choice_param(params: Mapping[str, Any], key: str, choices: Sequence[str], default: str) -> str:
    """The parameter ``key``, one of ``choices`` (``default`` when absent)."""
    value = params.get(key, default)
    if not isinstance(value, str) or value not in choices:
        raise ConfigError(f"{key} must be one of {list(choices)}, got {shown(value)}", field=f"params.{key}")
    return value


def tiles_param(content: Content, params: Mapping[str, Any], key: str) -> list[TileId]:
    """The parameter ``key``: a list of blue or red system tile numbers (as numbers or digits)."""
    value = params.get(key, [])
    if not isinstance(value, list) or len(value) > 100:
        raise ConfigError(f"{key} must be a list of tile numbers, got {shown(value)}", field=f"params.{key}")
    out = []
    for i, t in enumerate(value):
        n = int(t) if isinstance(t, str) and is_digits(t) and len(t) <= 3 else t
        if (
            isinstance(n, bool)
            or not isinstance(n, int)
            or n not in content.tiles
            or content.tiles[n].pile not in ("blue", "red")
        ):
            raise ConfigError(
                f"{key}[{i}] must be the number of a blue or red system tile, got {shown(t)}",
                field=f"params.{key}[{i}]",
                rule="ti4/separate-systems",
            )
        out.append(n)
    return out


def measure_param(params: Mapping[str, Any]) -> Measure:
    """The ``measure`` parameter with the user's own ``weights`` per term on top (docs/ti4.md)."""
    value = params.get("weights", {})
    if not isinstance(value, Mapping):
        raise ConfigError(f"weights must be an object, got {shown(value)}", field="params.weights")
    name = params.get("measure", DEFAULT)
    if not isinstance(name, str) or name not in MEASURES:
        raise ConfigError(
            f"measure must be one of {sorted(MEASURES)}, got {shown(name)}", field="params.measure"
        )
    return measure(name, value, field="params.measure")


def ti4_game(game: Game[Any, Any]) -> TI4Game:
    """``game``, checked to be TI4."""
    if not isinstance(game, TI4Game):
        raise ConfigError("this puzzle is for the game 'ti4'", field="game")
    return game


def state_defaults(state: Any) -> tuple[int, str]:
    """The player count and expansion a request defaults to: the state's, else 6 and base."""
    if isinstance(state, TI4State):
        return state.players, state.expansion
    return 6, "base"


_WEIGHTS_SCHEMA = {
    "type": "object",
    "description": "your own weight per term of the measure, on top of it (docs/ti4.md): resources, "
    "influence, trait, specialty, legendary, wormhole, distance (list), share ('nearest'/'all'), antimass, "
    "nebula_exit (-1: a nebula cannot be left), rift_bonus, home, wormhole_links, homes_block, mecatol, "
    "mecatol_moves, mecatol_supernova, mecatol_nebula",
}
_MEASURE_SCHEMA = {
    "enum": sorted(MEASURES),
    "default": DEFAULT,
    "description": "the measure of balance: 'community' (ti4-lab's slice value with the Mecatol Rex path "
    "term), 'simple' (1 move in full, 2 moves half, for every home), 'lictor' (this builder's earlier "
    "measure), 'joint' (the worse of community and simple); docs/ti4.md works an example of each",
}
_LIMITS_NOTE = "time limit and workers come from the request's limits"

BALANCED_MAP_PARAMS: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "ti4.balanced_map parameters",
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "players": {
            "type": "integer",
            "minimum": 3,
            "maximum": 6,
            "description": "player count (default: the state's)",
        },
        "expansion": {"enum": ["base", "pok"], "description": "tile piles (default: the state's)"},
        "include": {
            "type": "array",
            "items": {"type": "integer"},
            "description": "tiles that must be on the map",
        },
        "exclude": {
            "type": "array",
            "items": {"type": "integer"},
            "description": "tiles that may not be used",
        },
        "from_state": {
            "type": "boolean",
            "default": True,
            "description": "during tile placement: keep the tiles placed and finish the galaxy with the "
            "tiles still in hand",
        },
        "seed": {
            "type": "integer",
            "minimum": 0,
            "maximum": 2**31 - 1,
            "default": 0,
            "description": "CP-SAT seed",
        },
        "specialty_within": {
            "type": "integer",
            "minimum": 0,
            "maximum": 3,
            "default": 0,
            "description": "every home gets a planet with a technology specialty within this many jumps "
            "(0: no such request)",
        },
        "max_wormholes_per_home": {
            "type": "integer",
            "minimum": -1,
            "maximum": 8,
            "default": -1,
            "description": "at most this many wormholes in the systems that count for each home "
            "(-1: no limit)",
        },
        "max_legendary_per_home": {
            "type": "integer",
            "minimum": -1,
            "maximum": 4,
            "default": -1,
            "description": "at most this many legendary planets count for each home (-1: no limit)",
        },
        "wormhole_spread": {
            "type": "number",
            "minimum": 0,
            "maximum": 100,
            "default": 0,
            "description": "weight (value points, a multiple of 0.05) in the objective of the spread of "
            "wormholes (most minus fewest counting for a home); 0: not in the objective",
        },
        "legendary_spread": {
            "type": "number",
            "minimum": 0,
            "maximum": 100,
            "default": 0,
            "description": "weight in the objective of the spread of legendary planets counting for a home",
        },
        "specialty_missing": {
            "type": "number",
            "minimum": 0,
            "maximum": 100,
            "default": 0,
            "description": "weight in the objective per home without a technology specialty within "
            "specialty_reach jumps",
        },
        "specialty_reach": {
            "type": "integer",
            "minimum": 1,
            "maximum": 3,
            "default": 2,
            "description": "the jumps of specialty_missing",
        },
        "factions": {
            "type": "array",
            "items": {"type": "string"},
            "description": "the faction of each seat, in seat order (home positions clockwise): their home "
            "systems stand in the home positions and count for their seats at weights.home (default 1 "
            "when factions are named)",
        },
        "measure": _MEASURE_SCHEMA,
        "weights": _WEIGHTS_SCHEMA,
    },
    "description": _LIMITS_NOTE,
}

MILTY_PARAMS: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "ti4.milty_slices parameters",
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "slices": {
            "type": "integer",
            "minimum": 2,
            "maximum": 9,
            "default": 6,
            "description": "how many slices",
        },
        "expansion": {"enum": ["base", "pok"], "description": "tile piles (default: the state's)"},
        "min_resources": {
            "type": "number",
            "minimum": 0,
            "maximum": 30,
            "default": 0,
            "description": "optimal resources per slice, at least",
        },
        "max_resources": {
            "type": "number",
            "minimum": 0,
            "maximum": 30,
            "default": 30,
            "description": "optimal resources per slice, at most",
        },
        "min_influence": {
            "type": "number",
            "minimum": 0,
            "maximum": 30,
            "default": 0,
            "description": "optimal influence per slice, at least",
        },
        "max_influence": {
            "type": "number",
            "minimum": 0,
            "maximum": 30,
            "default": 30,
            "description": "optimal influence per slice, at most",
        },
        "min_total": {
            "type": "number",
            "minimum": 0,
            "maximum": 30,
            "default": 9,
            "description": "a slice's optimal total (each planet's larger of resources and influence, "
            "summed), at least (the community's convention: 9)",
        },
        "max_total": {
            "type": "number",
            "minimum": 0,
            "maximum": 30,
            "default": 13,
            "description": "a slice's optimal total, at most (the community's convention: 13)",
        },
        "max_wormholes": {
            "type": "integer",
            "minimum": 0,
            "maximum": 5,
            "default": 1,
            "description": "wormholes per slice, at most (1: never an alpha and a beta together)",
        },
        "max_legendary": {
            "type": "integer",
            "minimum": 0,
            "maximum": 5,
            "default": 1,
            "description": "legendary planets per slice, at most",
        },
        "min_wormholes_total": {
            "type": "integer",
            "minimum": 0,
            "maximum": 10,
            "default": 0,
            "description": "wormholes over all slices, at least",
        },
        "seed": {
            "type": "integer",
            "minimum": 0,
            "maximum": 2**31 - 1,
            "default": 0,
            "description": "CP-SAT seed",
        },
        "weights": _WEIGHTS_SCHEMA,
    },
    "description": _LIMITS_NOTE,
}

MAP_STRING_PARAMS: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "ti4 map string parameters",
    "type": "object",
    "additionalProperties": False,
    "required": ["map_string"],
    "properties": {
        "map_string": {
            "type": "string",
            "maxLength": 2000,
            "description": "the TTS map string (ring 1 first, Mecatol Rex implied)",
        },
        "players": {
            "type": "integer",
            "minimum": 3,
            "maximum": 6,
            "description": "player count (default: from the homes)",
        },
        "expansion": {"enum": ["base", "pok"], "default": "pok", "description": "tiles allowed"},
        "procedure": {
            "enum": ["rulebook", "milty"],
            "default": "rulebook",
            "description": "how the map was built",
        },
        "measure": _MEASURE_SCHEMA,
        "weights": _WEIGHTS_SCHEMA,
    },
}


def factions_param(g: TI4Game, params: Mapping[str, Any], players: int, expansion: str) -> list[str]:
    """The ``factions`` parameter: one known faction per seat, all different (rule: ti4/factions)."""
    value = params.get("factions", [])
    if not isinstance(value, list) or (value and len(value) != players):
        raise ConfigError(
            f"factions must list one faction per seat ({players}), got {shown(value)}",
            field="params.factions",
            rule="ti4/factions",
        )
    allowed = {f.id for f in g.pack.factions if expansion == "pok" or f.expansion == "base"}
    for i, f in enumerate(value):
        if not isinstance(f, str) or f not in allowed:
            raise ConfigError(
                f"factions[{i}] must be a faction of the {expansion} game ({', '.join(sorted(allowed))}), "
                f"got {shown(f)}",
                field=f"params.factions[{i}]",
                rule="ti4/factions",
            )
        if f in value[:i]:
            raise ConfigError(
                f"factions[{i}]: {f} is chosen twice; each player takes a different faction",
                field=f"params.factions[{i}]",
                rule="ti4/factions",
            )
    return list(value)


def map_string_params(g: TI4Game, params: Any) -> tuple[str, int | None, str, str]:
    """The parameters of ``ti4.check_map`` and ``ti4.home_values``: (map string, players or None,
    expansion, procedure)."""
    check_param_keys(params, MAP_STRING_PARAMS)
    text = params.get("map_string")
    if not isinstance(text, str) or not text.strip():
        raise ConfigError(
            f"map_string must be a TTS map string, got {shown(text)}", field="params.map_string"
        )
    players = int_param(params, "players", 0, 0, 6) if "players" in params else None
    if players is not None and players < 3:
        raise ConfigError(f"players must be an integer 3..6, got {players}", field="params.players")
    expansion = choice_param(params, "expansion", ("base", "pok"), "pok")
    procedure = choice_param(params, "procedure", ("rulebook", "milty"), "rulebook")
    return text, players, expansion, procedure
