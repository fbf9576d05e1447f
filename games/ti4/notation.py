"""Notation of TI4 setup decisions and states, in the rulebook's words.

Actions::

    choose faction The Emirates of Hacan     rule: ti4/factions
    choose color red                rule: ti4/color-and-planets
    place 26 at 7                   a system tile (its printed number) at a map-string position
                                    (1-6 ring 1, 7-18 ring 2, 19-36 ring 3); rule: ti4/place-system-tiles
    keep secret objective Become the Gatekeeper     rule: ti4/objectives
    pick slice 2 | pick faction The Arborec | pick seat 1  (Milty draft; slices and seats from 1,
                                    seat 1 is the speaker)

Factions and objectives are written by their printed names; reading is case-blind, "The " may be
left out, and the pack's ids (``hacan``, ``become-the-gatekeeper``) are read too.

A state is ``ti4 `` followed by its public form as compact JSON (keys sorted).
"""

from __future__ import annotations

import json
from typing import Any

from games.core.text import is_digits
from games.errors import NotationError
from games.ti4.content import Content
from games.ti4.state import DRAFT, TI4Action, TI4State

__all__ = ["HINT", "action_to_text", "parse_action", "parse_state_json", "state_text"]

HINT = (
    "choose faction NAME, choose color COLOR, place TILE at POSITION, keep secret objective NAME, "
    "pick slice N, pick faction NAME, pick seat N"
)


def _key(name: str) -> str:
    """A name as it is compared: lower case, single spaces, without a leading "the"."""
    words = name.lower().split()
    return " ".join(words[1:] if words[:1] == ["the"] and len(words) > 1 else words)


def _names(content: Content) -> tuple[dict[str, str], dict[str, str]]:
    """Printed name or id (as compared) -> id, for factions and for objectives."""
    factions = {_key(f.name): f.id for f in content.factions} | {f.id: f.id for f in content.factions}
    objectives = {_key(o.name): o.id for o in content.objectives} | {o.id: o.id for o in content.objectives}
    return factions, objectives


def action_to_text(content: Content, state: TI4State, action: TI4Action) -> str:
    """The notation of ``action`` (a faction is ``pick``ed in a Milty draft, ``choose``n otherwise)."""
    k = action.kind
    if k == "faction":
        f = content.faction(action.name)
        verb = "pick" if state.phase == DRAFT else "choose"
        return f"{verb} faction {f.name if f else action.name}"
    if k == "color":
        return f"choose color {action.name}"
    if k == "place":
        return f"place {action.tile} at {action.pos}"
    if k == "keep":
        title = next((o.name for o in content.objectives if o.id == action.name), action.name)
        return f"keep secret objective {title}"
    if k == "slice":
        return f"pick slice {action.pos + 1}"
    if k == "seat":
        return f"pick seat {action.pos}"
    return k


def _number(word: str, text: str) -> int:
    if not is_digits(word) or len(word) > 3:
        raise NotationError(f"{text!r}: {word!r} is not a number; try {HINT}", field="action")
    return int(word)


def _named(table: dict[str, str], words: list[str], what: str, text: str) -> str:
    """The id a name (or id) stands for (``NotationError`` naming the field when none does)."""
    name = _key(" ".join(words))
    if name not in table:
        raise NotationError(f"{text[:80]!r}: no {what} is called {' '.join(words)[:40]!r}", field="action")
    return table[name]


def parse_action(content: Content, state: TI4State, text: str) -> TI4Action:
    """Parse an action's notation (``NotationError`` if it does not parse; legality is ``apply``'s)."""
    if not isinstance(text, str):
        raise NotationError("an action is text", field="action")
    words = text.strip().split()
    low = [w.lower() for w in words[:3]]
    factions, objectives = _names(content)
    if len(words) >= 3 and low[0] in ("choose", "pick") and low[1] == "faction":
        return TI4Action("faction", name=_named(factions, words[2:], "faction", text))
    if len(words) == 3 and low[:2] == ["choose", "color"]:
        return TI4Action("color", name=low[2])
    if len(words) == 4 and low[0] == "place" and words[2].lower() == "at":
        return TI4Action("place", tile=_number(words[1], text), pos=_number(words[3], text))
    if len(words) >= 4 and low == ["keep", "secret", "objective"]:
        return TI4Action("keep", name=_named(objectives, words[3:], "secret objective", text))
    words = [w.lower() for w in words]
    if len(words) == 3 and words[0] == "pick":
        if words[1] == "slice":
            n = _number(words[2], text)
            if n < 1:
                raise NotationError(f"{text!r}: slices count from 1", field="action")
            return TI4Action("slice", pos=n - 1)
        if words[1] == "seat":
            return TI4Action("seat", pos=_number(words[2], text))
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
