"""Notation of TI4 setup decisions and states, in the rulebook's words.

Actions::

    choose faction hacan            rule: ti4/factions
    choose color red                rule: ti4/color-and-planets
    place 26 at 7                   a system tile (its printed number) at a map-string position
                                    (1-6 ring 1, 7-18 ring 2, 19-36 ring 3); rule: ti4/place-system-tiles
    keep secret objective become-the-gatekeeper     rule: ti4/objectives
    pick slice 2 | pick faction hacan | pick seat 1  (Milty draft; slices and seats from 1,
                                    seat 1 is the speaker)

A state is ``ti4 `` followed by its public form as compact JSON (keys sorted).
"""

from __future__ import annotations

import json
from typing import Any

from games.errors import NotationError
from games.ti4.state import DRAFT, TI4Action, TI4State

__all__ = ["HINT", "action_to_text", "parse_action", "parse_state_json", "state_text"]

HINT = (
    "choose faction ID, choose color COLOR, place TILE at POSITION, keep secret objective ID, "
    "pick slice N, pick faction ID, pick seat N"
)


def action_to_text(state: TI4State, action: TI4Action) -> str:
    """The notation of ``action`` (a faction is ``pick``ed in a Milty draft, ``choose``n otherwise)."""
    k = action.kind
    if k == "faction":
        return f"{'pick' if state.phase == DRAFT else 'choose'} faction {action.name}"
    if k == "color":
        return f"choose color {action.name}"
    if k == "place":
        return f"place {action.tile} at {action.pos}"
    if k == "keep":
        return f"keep secret objective {action.name}"
    if k == "slice":
        return f"pick slice {action.pos + 1}"
    if k == "seat":
        return f"pick seat {action.pos}"
    return k


def _number(word: str, text: str) -> int:
    if not word.isdigit() or len(word) > 3:
        raise NotationError(f"{text!r}: {word!r} is not a number; try {HINT}", field="action")
    return int(word)


def parse_action(state: TI4State, text: str) -> TI4Action:
    """Parse an action's notation (``NotationError`` if it does not parse; legality is ``apply``'s)."""
    if not isinstance(text, str):
        raise NotationError("an action is text", field="action")
    words = text.strip().lower().split()
    if len(words) == 3 and words[0] == "choose" and words[1] in ("faction", "color"):
        return TI4Action(words[1], name=words[2])
    if len(words) == 4 and words[0] == "place" and words[2] == "at":
        return TI4Action("place", tile=_number(words[1], text), pos=_number(words[3], text))
    if len(words) == 4 and words[:3] == ["keep", "secret", "objective"]:
        return TI4Action("keep", name=words[3])
    if len(words) == 3 and words[0] == "pick":
        if words[1] == "slice":
            n = _number(words[2], text)
            if n < 1:
                raise NotationError(f"{text!r}: slices count from 1", field="action")
            return TI4Action("slice", pos=n - 1)
        if words[1] == "seat":
            return TI4Action("seat", pos=_number(words[2], text))
        if words[1] == "faction":
            return TI4Action("faction", name=words[2])
    raise NotationError(f"{text[:80]!r} is not a ti4 setup action; try {HINT}", field="action")


def state_text(data: dict[str, Any]) -> str:
    """``ti4 `` + the public form as compact JSON."""
    return "ti4 " + json.dumps(data, sort_keys=True, separators=(",", ":"))


def parse_state_json(text: str) -> Any:
    """The JSON body of a state's text form (``NotationError`` if it is not one)."""
    if not isinstance(text, str):
        raise NotationError("a state is text", field="state")
    head, _, body = text.strip().partition(" ")
    if head != "ti4":
        raise NotationError("a ti4 state starts with 'ti4 '", field="state")
    try:
        data = json.loads(body)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise NotationError(f"state is not valid JSON: {exc}", field="state") from None
    if not isinstance(data, dict):
        raise NotationError("state JSON must be an object", field="state")
    return data
