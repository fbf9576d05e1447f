"""The JSON Schema (draft 2020-12) of the public form written by ``games.cytress.codec``."""

from __future__ import annotations

from typing import Any

from games.cytress.codec import OP_NAMES
from games.cytress.state import FACTIONS, PADS, PHASE_NAMES, RESOURCES, STEP_NAMES

__all__ = ["state_schema"]

_ID = {"type": "string", "minLength": 1, "maxLength": 16}
_MAYBE_ID = {"type": ["string", "null"], "maxLength": 16}
_COUNT = {"type": "integer", "minimum": 0}
_FACTION = {"enum": list(FACTIONS)}
_OWNER = {"oneOf": [{"type": "integer", "minimum": 0, "maximum": 4}, {"const": "automa"}, {"type": "null"}]}


def _obj(props: dict[str, Any], description: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {
        "type": "object",
        "properties": props,
        "required": sorted(props),
        "additionalProperties": False,
    }
    if description:
        out["description"] = description
    return out


def _list(items: Any, lo: int = 0, hi: int | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "array", "items": items, "minItems": lo}
    if hi is not None:
        out["maxItems"] = hi
    return out


def _owner_props() -> dict[str, Any]:
    return {
        "rebel": {**_ID, "description": "the rebel board (its colour is the crews')"},
        "crews_unused": {
            "type": "integer",
            "minimum": 0,
            "maximum": 12,
            "description": "crews not yet placed",
        },
        "stratos": {
            **_list({"type": "integer", "minimum": 0, "maximum": 12}, 3, 3),
            "description": "crews on levels 1-3",
        },
        "leader": {
            "oneOf": [
                {"type": "null"},
                _obj(
                    {"faction": _FACTION, "spot": {"enum": [1, 2]}},
                    "the scouting spot the rebel leader is on",
                ),
            ]
        },
        "bounties": {**_list(_ID, 0, 8), "description": "enforcer bounty cards claimed"},
    }


def _seat_schema() -> dict[str, Any]:
    """A seat of the public form."""
    return _obj(
        {
            **_owner_props(),
            "seat": {"type": "integer", "minimum": 0, "maximum": 4},
            "side": {"enum": ["A", "B", None], "description": "the rebel board side (null: not chosen yet)"},
            "resources": _obj({r: {"type": "integer", "minimum": 0, "maximum": 25} for r in RESOURCES}),
            "lifepaths": _obj(
                {f: _list(_ID, 0, 18) for f in FACTIONS}, "intel cards on each lifepath, in order"
            ),
            "transports_on_board": {"type": "integer", "minimum": 0, "maximum": 3},
            "transports_on_stratos": {"type": "integer", "minimum": 0, "maximum": 3},
            "reserved_stratolite": _MAYBE_ID,
        }
    )


def _automa_schema() -> dict[str, Any]:
    """The solo automa of the public form."""
    return _obj(
        {
            **_owner_props(),
            "intel": _list(_ID, 0, 72),
            "deck": _list(_ID, 0, 16),
            "tracker": _obj(
                {f: _list(_ID, 0, 3) for f in FACTIONS}, "AI action cards still above each space"
            ),
            "tube_pieces": _COUNT,
            "revealed": _list(_ID, 0, 16),
            "to_do": _list(
                _obj({"action": {"enum": list(OP_NAMES.values())}, "faction": {"enum": [*FACTIONS, None]}}),
                0,
                4,
            ),
            "moving_from": _MAYBE_ID,
        },
        "the solo automa (rule: cytress/solo-gameplay)",
    )


def _pending_schema() -> dict[str, Any]:
    """The action under way."""
    return _obj(
        {
            "landing_pad": {"enum": [*PADS, None]},
            "hex_type": {"enum": [*FACTIONS, None]},
            "card": _MAYBE_ID,
            "resource": {"enum": [*RESOURCES, None]},
            "height": {"type": "integer", "minimum": 0, "maximum": 3},
            "crew_hex": _MAYBE_ID,
            "trades_made": {"type": "integer", "minimum": 0, "maximum": 1},
            "trade": {"type": ["string", "null"]},
            "options": _list(_ID),
        },
        "what the action under way has chosen so far",
    )


def state_schema() -> dict[str, Any]:
    """The schema of ``CytressGame.to_dict`` output."""
    seat, automa, pending = _seat_schema(), _automa_schema(), _pending_schema()
    hexes = _obj(
        {
            "hex": _ID,
            "faction": _FACTION,
            "crew": _OWNER,
            "tube": {"type": "integer", "minimum": 0, "maximum": 3},
        }
    )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://lictor.dev/schemas/cytress/state.json",
        "title": "Cytress position",
        **_obj(
            {
                "game": {"const": "cytress"},
                "players": {"type": "integer", "minimum": 1, "maximum": 5},
                "round": _COUNT,
                "phase": {"enum": list(PHASE_NAMES)},
                "step": {"enum": list(STEP_NAMES)},
                "to_move": {"type": ["integer", "null"], "minimum": 0, "maximum": 4},
                "turn": _COUNT,
                "first_player": {"type": "integer", "minimum": 0, "maximum": 4},
                "phase_first_player": {"type": "integer", "minimum": 0, "maximum": 4},
                "pending": pending,
                "map": _obj({"tiles": _list(_ID, 2, 5), "hexes": _list(hexes, 20, 50)}),
                "cytress_board_side": {"type": "string"},
                "faction_board_side": {"enum": ["1-3", "4+"]},
                "factions": _list(
                    _obj({"faction": _FACTION, "deck": _list(_ID, 0, 18), "intel": _list(_MAYBE_ID, 3, 3)}),
                    4,
                    4,
                ),
                "stratolites": _obj(
                    {"deck": _list(_ID, 0, 12), "row": _list(_MAYBE_ID, 5, 5), "discard": _list(_ID, 0, 12)}
                ),
                "bounty_stacks": _obj({f: _list(_ID, 0, 2) for f in FACTIONS}),
                "tube_sections": _obj({"near_stratos": _COUNT, "box": _COUNT}),
                "seats": _list(seat, 1, 5),
                "automa": {"oneOf": [{"type": "null"}, automa]},
                "end_triggered": {"type": "boolean"},
                "round_limit": _COUNT,
                "tubes_from_box": {
                    "type": "boolean",
                    "description": "whether tubes may be built from the box's sections once those near "
                    "Stratos run out (2-5 players: always; solo: the solo_tubes variant 'box')",
                },
                "bounty_scoring": {
                    "enum": ["each", "best"],
                    "description": "'each': every bounty pays its tier per matching icon; 'best': a "
                    "faction's icons once, at the best tier held against it",
                },
                "shuffle": _obj(
                    {"seed": _COUNT, "count": _COUNT}, "the hidden reshuffle seed (0 when observed)"
                ),
            }
        ),
    }
