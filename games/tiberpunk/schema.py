"""The JSON Schema (draft 2020-12) of Tiberpunk's public state form (``public.py``), built from the
content pack's ids."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.tiberpunk.content import CONDITIONS, GADGETS, GODS, ITYPES, SKILLS, TASKS, Content
from games.tiberpunk.public import (
    FORM_VERSION,
    MAX_LIST,
    MINIATURES,
    PHASE_WORDS,
    REWARD_WORDS,
    STAGE2_QUEST,
    STORY,
    TARGETS,
    Ids,
)

__all__ = ["state_schema"]


# --------------------------------------------------------------------------------------- schema


def _enum(words: Sequence[Any], description: str, *, nullable: bool = False) -> dict[str, Any]:
    values: list[Any] = list(words)
    if nullable:
        values.append(None)
    return {"enum": values, "description": description}


def _int(lo: int, description: str, hi: int | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "integer", "minimum": lo, "description": description}
    if hi is not None:
        out["maximum"] = hi
    return out


def _arr(items: dict[str, Any], description: str) -> dict[str, Any]:
    return {"type": "array", "items": items, "maxItems": MAX_LIST, "description": description}


def _obj(props: Mapping[str, dict[str, Any]], description: str) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": dict(props),
        "required": list(props),
        "additionalProperties": False,
        "description": description,
    }


def _counts(keys: Sequence[str], description: str) -> dict[str, Any]:
    return _obj({k: {"type": "integer", "minimum": 0} for k in keys}, description)


def state_schema(c: Content) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of the public form with the ids of pack ``c``."""
    ids = Ids(c)
    district = _enum(ids.districts, "a district id")
    gadget = _enum(GADGETS, "a gadget card")
    ships = ids.ship_words
    schema = _obj(
        {
            "form": {"const": FORM_VERSION, "description": "the version of this form"},
            "setup": _setup_schema(ids),
            "seed": _int(0, "hidden seed of later reshuffles of discard piles (0 in an observation)"),
            "active_seat": _int(0, "the active player (0-based seat; the drafting player in the draft)", 3),
            "phase": _enum(PHASE_WORDS, "the step of the game awaiting a decision"),
            "round": _int(0, "the round number (1 = the first)"),
            "turn": _turn_schema(ships, gadget),
            "players": {
                **_arr(_player_schema(ids, district, gadget), "per seat, in turn order"),
                "minItems": 2,
                "maxItems": 4,
            },
            "lictors": _arr(district, "districts of the lictors on the board"),
            **_piles_schema(ids, gadget),
            "reshuffles": _int(0, "discard-pile reshuffles so far"),
            "speed_bonuses_taken": _arr(
                {"type": "string"}, "objective cards whose speed bonus was taken (a skill or side-<id>)"
            ),
            "end_triggered": {"type": "boolean", "description": "the end of the game was triggered"},
            "abilities_to_draft": _arr(
                _enum(ids.abilities, "an ability tile id"), "ability tiles not chosen yet"
            ),
            "contest": {
                "anyOf": [{"type": "null"}, _ctx_schema(ids, district, ships)],
                "description": "the quest roll or combat in progress",
            },
            "rewards_pending": _arr(_reward_schema(district), "rewards still to resolve, first first"),
        },
        "A Tiberpunk position in the rulebook's words (docs/tiberpunk.md, 'Public state form')",
    )
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Tiberpunk state", **schema}


def _piles_schema(ids: Ids, gadget: dict[str, Any]) -> dict[str, Any]:
    """The properties of the quest stacks, the spaceship stacks, the blessing tiles and the decks."""
    ships = ids.ship_words
    return {
        "quest_stacks": _obj(
            {
                k: _arr(
                    _enum(ids.quests, "a Stage I quest card number", nullable=True),
                    "top (face up) first; null: face down",
                )
                for k in SKILLS
            },
            "the Stage I quest stacks, per storyline skill",
        ),
        "spaceship_stacks": _counts(ships, "spaceship cards left per stack"),
        "spaceship_lock": _enum(
            ships, "the stack under the spaceship lock marker (null: none yet)", nullable=True
        ),
        "blessing_tiles_left": _counts(GODS, "blessing tiles left per god"),
        "gadget_deck": _arr(_enum(GADGETS, "a gadget (null: face down)", nullable=True), "top first"),
        "gadget_discard": _arr(gadget, "the gadget discard pile"),
        "stage1_challenge_deck": _arr(
            {"type": ["integer", "null"], "minimum": 1},
            "Stage I challenge cards by number, top first (null: face down)",
        ),
        "stage1_challenge_discard": _arr({"type": "integer", "minimum": 1}, "Stage I challenge discard pile"),
        "stage3_challenge_deck": _arr(
            {"type": ["integer", "null"], "minimum": 1}, "Stage III challenge cards by number, top first"
        ),
        "stage3_challenge_discard": _arr(
            {"type": "integer", "minimum": 1}, "Stage III challenge discard pile"
        ),
    }


def _setup_schema(ids: Ids) -> dict[str, Any]:
    schema = _obj(
        {
            "personal_abilities": {
                "type": "boolean",
                "description": "the Personal Abilities module is used",
            },
            "max_rounds": _int(0, "a safety cap on rounds, not in the rulebook (0: none, the default)"),
            "coin_bank": _int(
                0, "coins in the bank (0: unlimited, the default; the coin_bank variant: the box's coins)"
            ),
            "side_objectives": _arr(
                _enum(ids.sides, "a side objective card id"), "side objective cards in play"
            ),
            "combat_tiles": _arr(_enum(CONDITIONS, "a combat tile's face-up side"), "the two combat tiles"),
        },
        "the setup choices (rule: general-setup)",
    )
    schema["required"] = [k for k in schema["required"] if k != "coin_bank"]  # older forms lack it
    return schema


def _turn_schema(ships: Sequence[str], gadget: dict[str, Any]) -> dict[str, Any]:
    return _obj(
        {
            "token_played": {"type": "boolean"},
            "favor_moved": {"type": "boolean"},
            "movement_actions": _int(0, "movement actions used", 2),
            "spaceship_played": {"type": "boolean"},
            "spaceship_cards_gained": _counts(ships, "spaceship cards gained this turn, per type"),
            "lictor_placement_due": {
                "type": "boolean",
                "description": "a played spaceship card still owes its lictor",
            },
            "juno_discount_used": {"type": "boolean"},
            "gadgets_used": _arr(gadget, "gadgets used this turn (for Recharge)"),
            "recharged": {"type": "boolean"},
        },
        "what the active player has done this turn",
    )


def _player_schema(ids: Ids, district: dict[str, Any], gadget: dict[str, Any]) -> dict[str, Any]:
    mini = _obj({m: {"type": "boolean"} for m in MINIATURES}, "per miniature")
    gods = _arr(_enum(GODS, "a god"), "gods")
    return _obj(
        {
            "coins": _int(0, "coins held"),
            "skills": _obj(
                {k: _int(1, "the skill marker's space on its track (1 = first)") for k in SKILLS},
                "skill tracks",
            ),
            "character": {
                **_enum(ids.districts, "the character's district (null: not placed yet)", nullable=True)
            },
            "drone": {**_enum(ids.districts, "the drone's district (null: not placed yet)", nullable=True)},
            "shackled": mini,
            "boosted": mini,
            "favor": _enum((*GODS, "centre"), "the segment of the favor marker"),
            "blessing_tiles": gods,
            "temple_influence": gods,
            "hub_influence": _arr(
                _enum(ids.hubs, "an upgrade hub's district"), "hubs with an influence marker"
            ),
            "gadgets": _arr(
                _enum(GADGETS, "a gadget (null: face down)", nullable=True), "gadget cards in hand"
            ),
            "gadgets_known": _arr(gadget, "the gadgets in hand every player knows"),
            "spaceship_cards": _counts(ids.ship_words, "spaceship cards held per type"),
            "interaction_tokens": _obj(
                {t: _arr(_enum(ITYPES, "an interaction type"), "types allowed") for t in ITYPES},
                "per token (by its printed type)",
            ),
            "tokens_on_wheel": _arr(_enum(ITYPES, "a token"), "tokens on the wheel, earliest first"),
            "storylines": _obj(
                {
                    k: _obj(
                        {
                            "progress": _enum(STORY, "storyline progress"),
                            "card": _enum(ids.quests, "quest card number", nullable=True),
                        },
                        "a storyline",
                    )
                    for k in SKILLS
                },
                "per storyline skill",
            ),
            "side_tasks_done": {
                "type": "object",
                "additionalProperties": _arr({"enum": list(TASKS)}, "tasks done"),
                "description": "per side objective card in play",
            },
            "triumph_tokens": {
                "type": "object",
                "additionalProperties": {"type": "integer", "minimum": 0},
                "description": "per objective card: the skills, then side-<id>",
            },
            "ability": _enum(ids.abilities, "the ability tile (null: none)", nullable=True),
            "rebooter_uses": _int(0, "Rebooter uses so far"),
        },
        "one player's components",
    )


def _ctx_schema(ids: Ids, district: dict[str, Any], ships: Sequence[str]) -> dict[str, Any]:
    die = {"type": "integer", "minimum": 1, "maximum": 6}
    objective = {
        "anyOf": [
            {"const": STAGE2_QUEST},
            _obj({"side_objective": {"enum": list(ids.sides)}, "task": {"enum": list(TASKS)}}, "a side task"),
            {"type": "null"},
        ]
    }
    return _obj(
        {
            "kind": _enum(("quest", "combat"), "a quest roll or a combat"),
            "stage": _enum((1, 3), "quest stage (null in a combat)", nullable=True),
            "storyline": _enum(SKILLS, "the quest's storyline (null in a combat)", nullable=True),
            "miniature": _enum(MINIATURES, "the acting miniature"),
            "district": district,
            "challenge_card": {
                "type": ["integer", "null"],
                "minimum": 1,
                "description": "the revealed challenge card's number",
            },
            "dice": _arr(die, "the quester's or attacker's dice, sorted"),
            "dice_to_roll": _int(0, "dice still to roll into dice", 15),
            "gadgets_played": _int(0, "gadgets played by the quester or attacker on this roll", 3),
            "defender_dice": _arr(die, "the defender's or lictor's dice, sorted"),
            "defender_dice_to_roll": _int(0, "dice still to roll into defender_dice", 15),
            "defender_gadgets_played": _int(0, "gadgets played by the defender on this roll", 3),
            "target": _enum(TARGETS, "the combat target", nullable=True),
            "target_seat": {"type": ["integer", "null"], "minimum": 0, "description": "the defending seat"},
            "combat_tile": _enum(CONDITIONS, "the chosen combat tile side", nullable=True),
            "objective": objective,
            "deciding_seat": {
                "type": ["integer", "null"],
                "minimum": 0,
                "maximum": 3,
                "description": "the seat deciding in a gadget phase (null: none yet)",
            },
        },
        "the quest roll or combat in progress",
    )


def _reward_schema(district: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {
            "seat": _int(0, "who takes it", 3),
            "reward": _enum(REWARD_WORDS, "the reward"),
            "skills": _arr(_enum(SKILLS, "a skill"), "skills the upgrade may go to (skill rewards)"),
            "from": {**district, "description": "the last lictor's district (escape)"},
        },
        "required": ["seat", "reward"],
        "additionalProperties": False,
    }
