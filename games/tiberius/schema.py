"""The JSON Schemas (draft 2020-12) of the public form of a Tiberius Who? position and of the score
sheet, and the keys both forms use (``games.tiberius.public`` writes and reads them)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.tiberius.model import (
    BOARD_BOXES,
    BOX_KEYS,
    BOX_NAMES,
    CUBES_PER_PLAYER,
    IN,
    PHASE_NAMES,
    TURNS,
    VARIANT_CHOICES,
    VARIANTS,
    Content,
)

__all__ = [
    "ACTION_KEYS",
    "DECK_KEYS",
    "PCIM_ID",
    "PLAYER_KEYS",
    "SHEET_BOXES",
    "SHEET_KEYS",
    "SHEET_VARIANTS",
    "TOP_KEYS",
    "sheet_schema",
    "state_schema",
]

PCIM_ID = "pro_consular_imperium_maius"
"""The Pro-Consular Imperium Maius card in the public form (``card_this_turn``)."""
TOP_KEYS = (
    "turn",
    "phase",
    "to_act",
    "priority_marker",
    "priority_order_from",
    "players",
    "oldest_first",
    "decks",
    "discarded_cards",
    "adoption_cards_face_up",
    "adoption_cards_unused",
    "cube_action",
    "variants",
)
PLAYER_KEYS = (
    "cubes",
    "stock",
    "career_cards",
    "card_this_turn",
    "pro_consular_imperium_maius_played",
    "adoption_card",
    "adopted_with",
)
DECK_KEYS = ("region", "face_up", "face_down")
ACTION_KEYS = ("black_icons_to_place", "extra_row_open", "augustus_family", "cubes_moved_to_gray")
SHEET_BOXES = tuple(BOX_KEYS[b] for b in (*BOARD_BOXES, IN))
"""The boxes of a score sheet: the main board's and Influence."""
SHEET_KEYS = (*SHEET_BOXES, "adopted", "all_six_decks", "age")
SHEET_VARIANTS = ("marriage_vp", "imperator_solo", "imperator_empty")


def variants_schema(names: Sequence[str]) -> dict[str, Any]:
    """The JSON Schema of the ``variants`` object with the variants ``names``."""
    by_name = {v.name: v for v in VARIANTS}
    return {
        "type": "object",
        "additionalProperties": False,
        "description": "the readings the game was set up with (a missing one takes its default)",
        "properties": {
            name: {
                "enum": list(by_name[name].choices),
                "default": by_name[name].default,
                "description": by_name[name].description,
            }
            for name in names
        },
    }


_SEAT = {"type": "integer", "minimum": 0, "maximum": 5}
_COUNT = {"type": "integer", "minimum": 0, "maximum": CUBES_PER_PLAYER}


def player_schema(card: dict[str, Any], adoption: dict[str, Any]) -> dict[str, Any]:
    """The JSON Schema of one player's holdings (``players[s]``)."""
    count = _COUNT
    return {
        "type": "object",
        "additionalProperties": False,
        "required": [k for k in PLAYER_KEYS if k != "stock"],
        "properties": {
            "cubes": {
                "type": "object",
                "additionalProperties": False,
                "description": "cubes per box (the main board's, the player mat's Influence and Bid boxes); "
                "'bid' holds this turn's bid",
                "properties": {
                    key: {**count, "description": name} for key, name in zip(BOX_KEYS, BOX_NAMES, strict=True)
                },
            },
            "stock": {**count, "description": "cubes left in stock: 40 minus the cubes in boxes"},
            "career_cards": {
                "type": "array",
                "items": card,
                "maxItems": TURNS,
                "description": "in the order taken",
            },
            "card_this_turn": {
                "anyOf": [card, {"const": PCIM_ID}, {"type": "null"}],
                "description": "the career card taken this turn, 'pro_consular_imperium_maius' for "
                "that card, "
                "or null (took 2 Influence, or has not acted or picked yet)",
            },
            "pro_consular_imperium_maius_played": {
                "type": "boolean",
                "description": "the Pro-Consular Imperium Maius card has been played this game",
            },
            "adoption_card": {
                "anyOf": [adoption, {"type": "null"}],
                "description": "the secret adoption card (null: hidden from this view)",
            },
            "adopted_with": {
                "anyOf": [adoption, {"type": "null"}],
                "description": "the card that made the seat a Son of Augustus",
            },
        },
    }


def deck_schema(content: Content, card: dict[str, Any]) -> dict[str, Any]:
    """The JSON Schema of one regional deck (``decks[d]``)."""
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["face_up", "face_down"],
        "properties": {
            "region": {"enum": list(content.regions)},
            "face_up": {"anyOf": [card, {"type": "null"}]},
            "face_down": {
                "type": "array",
                "items": card,
                "description": "top first (sorted in a seat's view: the order is hidden)",
            },
        },
    }


def state_schema(content: Content) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of ``PublicForm.to_dict``."""
    seat = _SEAT
    card = {"enum": [c.code for c in content.cards], "description": "a career card id"}
    adoption = {"enum": [a.code for a in content.adoptions], "description": "an adoption card id"}
    player = player_schema(card, adoption)
    deck = deck_schema(content, card)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Tiberius Who? position",
        "type": "object",
        "additionalProperties": False,
        "required": list(TOP_KEYS),
        "properties": {
            "turn": {
                "type": "integer",
                "minimum": 1,
                "maximum": TURNS + 1,
                "description": "the game turn (turns + 1 once over)",
            },
            "phase": {
                "enum": list(PHASE_NAMES),
                "description": "card phase, the bidders' picks, cube phase, adoption phase, or over",
            },
            "to_act": {
                "anyOf": [seat, {"type": "null"}],
                "description": "the seat to decide (null once over)",
            },
            "priority_marker": {**seat, "description": "who holds the Priority marker now"},
            "priority_order_from": {
                **seat,
                "description": "who held it at the start of the turn: first in priority order",
            },
            "players": {"type": "array", "minItems": 1, "maxItems": 6, "items": player},
            "oldest_first": {
                "type": "array",
                "items": seat,
                "description": "the seats from the oldest player (the last tie-breaker)",
            },
            "decks": {
                "type": "array",
                "minItems": len(content.decks),
                "maxItems": len(content.decks),
                "items": deck,
            },
            "discarded_cards": {"type": "array", "items": card},
            "adoption_cards_face_up": {"type": "array", "items": adoption},
            "adoption_cards_unused": {
                "type": "array",
                "items": adoption,
                "description": "with, in a seat's view, the cards it cannot see",
            },
            "cube_action": _cube_action_schema(),
            "variants": variants_schema(tuple(VARIANT_CHOICES)),
        },
    }


def _cube_action_schema() -> dict[str, Any]:
    """The JSON Schema of the cube action in progress (``cube_action``)."""
    count = _COUNT
    return {
        "type": "object",
        "additionalProperties": False,
        "required": list(ACTION_KEYS),
        "description": "the cube action in progress (all zero / false outside it)",
        "properties": {
            "black_icons_to_place": {"type": "integer", "minimum": 0, "maximum": 12},
            "extra_row_open": {
                "type": "boolean",
                "description": "may still buy a second or third row",
            },
            "augustus_family": {
                "type": "boolean",
                "description": "may place Triumph cubes (marriages or adopted)",
            },
            "cubes_moved_to_gray": {
                **count,
                "description": "Pro-Consular Imperium Maius: cubes moved to gray so far",
            },
        },
    }


def sheet_names() -> list[str]:
    return [BOX_NAMES[BOX_KEYS.index(key)] for key in SHEET_BOXES]


def sheet_schema() -> dict[str, Any]:
    """The JSON Schema of the score sheet: per player the cubes of each main-board box and of
    Influence, whether adopted, whether holding cards of all six decks, and (optionally) age."""
    count = {"type": "integer", "minimum": 0, "maximum": CUBES_PER_PLAYER}
    player = {
        "type": "object",
        "additionalProperties": False,
        "description": "one player's end-of-game holdings (a box left out holds no cubes)",
        "properties": {
            **{
                key: {**count, "description": f"cubes in {name}"}
                for key, name in zip(SHEET_BOXES, sheet_names(), strict=True)
            },
            "adopted": {"type": "boolean", "default": False, "description": "a Son of Augustus (8 VP)"},
            "all_six_decks": {
                "type": "boolean",
                "default": False,
                "description": "career cards from all six decks (the loyalty bonus, 5 VP)",
            },
            "age": {
                "type": "integer",
                "minimum": 0,
                "maximum": 150,
                "description": "the player's age in years (the last tie-breaker: the oldest ranks "
                "higher); give it for every player or for none (then seat 0 is the oldest, ages "
                "falling clockwise)",
            },
        },
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Tiberius Who? score sheet",
        "description": "An end-of-game position as a person types it in from a real table.",
        "type": "object",
        "additionalProperties": False,
        "required": ["players"],
        "properties": {
            "players": {"type": "array", "minItems": 1, "maxItems": 6, "items": player},
            "variants": variants_schema(SHEET_VARIANTS),
        },
    }
