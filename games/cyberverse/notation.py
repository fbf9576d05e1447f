"""Notation: actions in the rulebook's words (``recruit Molly Kuwata``, ``attack the Killer with
Hand Gun``), parsed back by matching the legal actions' texts; the state's text is its JSON form.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Protocol

from games.cyberverse import codec, engine
from games.cyberverse.content import CATEGORIES, FEATURES, POSITION_KINDS, Content
from games.cyberverse.state import (
    AGENT,
    C_AGENT_ROW,
    C_AMBUSH,
    C_BRAWL,
    C_CASE,
    C_EVENT,
    C_FIGHTER_TOKEN,
    C_HENCHMAN,
    C_MODIFIER,
    C_RESTOCK,
    C_REVEAL,
    C_SETUP_SHEET,
    C_STORY,
    C_SUPPORT_ROW,
    C_TOKEN,
    TEAMMATE,
    Action,
    State,
    mission_of,
)
from games.errors import InvalidStateError, NotationError

__all__ = ["action_to_text", "agent_name", "parse_action", "parse_state", "state_to_text"]


def agent_name(s: State, c: Content, sheet: int) -> str:
    """The name on the recruited side of an Agent sheet (or both sides' names, not recruited)."""
    for a in s.agents:
        if a.sheet == sheet:
            return c.faces[2 * sheet + a.side].name
    return f"{c.faces[2 * sheet].name} / {c.faces[2 * sheet + 1].name}"


class _Named(Protocol):
    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...


def _card(x: _Named, cards: Sequence[_Named], ids: bool) -> str:
    """A card by its name, with its id only when another card of the pack has the same name (or
    always with ``ids``: the older notation, still read)."""
    if ids or sum(1 for y in cards if y.name == x.name) > 1:
        return f"{x.name} ({x.id})"
    return x.name


def _case(c: Content, card: int, ids: bool) -> str:
    """An Investigation card by its name (by its id in the older notation)."""
    return c.investigations[card].id if ids else c.investigations[card].name


def _draw_text(s: State, c: Content, x: int, ids: bool) -> str:
    step = s.step
    if step in (C_SETUP_SHEET, C_AGENT_ROW):
        return f"draw agent sheet {c.sheet_ids[x] if ids else agent_name(s, c, x)}"
    if step == C_SUPPORT_ROW:
        return f"draw support card {_card(c.support[x], c.support, ids)}"
    if step == C_EVENT:
        return f"draw event card {_card(c.events[x], c.events, ids)}"
    if step == C_HENCHMAN:
        return f"draw henchman card {_card(c.henchmen[x], c.henchmen, ids)}"
    if step == C_REVEAL:
        return f"the token bought is {_card(c.tokens[x], c.tokens, ids)}"
    if step == C_RESTOCK:
        cat, price, expert = c.backs[x]
        return f"restock a {CATEGORIES[cat]} token at {price} D{' (expert)' if expert else ''}"
    if step == C_STORY:
        return f"draw story card {_card(c.stories[x], c.stories, ids)}"
    if step == C_CASE:
        return f"draw investigation card {_case(c, x, ids)}"
    if step == C_AMBUSH:
        return f"draw ambush card {_card(c.ambush[x], c.ambush, ids)}"
    if step == C_BRAWL:
        return f"draw brawl card {c.brawl[x].id} ({'red' if c.brawl[x].red else 'green'})"
    if step in (C_TOKEN, C_FIGHTER_TOKEN):
        t = c.combat_tokens[x]
        return f"draw combat token {t.id} (attack {t.attack}, defense {t.defense})"
    if step == C_MODIFIER:
        return f"draw modifier card {x:+d}"
    return f"draw {x}"


def _fighter(s: State, c: Content, j: int) -> str:
    assert s.fight is not None
    f = s.fight.fighters[j]
    if f.kind == AGENT:
        return agent_name(s, c, f.ref)
    who = "teammate" if f.kind == TEAMMATE else "henchman"
    return f"the {c.henchman_types[f.ref]} {who} in zone {f.zone + 1} (miniature {j + 1})"


def _hq_text(s: State, c: Content, a: Action, ids: bool) -> str:
    """Setup, Strategy and HQ actions ("" if ``a`` is none of them)."""
    k = a.kind
    if k == "choose":
        return f"choose agent {c.faces[2 * a.a + a.b].name}"
    if k == "recruit":
        return f"recruit {c.faces[2 * a.a + a.b].name}"
    if k == "buy":
        return f"buy the {CATEGORIES[a.a]} token in slot {a.b + 1} for {agent_name(s, c, a.c)}"
    if k == "repair":
        return f"repair {_card(c.tokens[a.b], c.tokens, ids)} of {agent_name(s, c, a.a)}"
    if k == "resell":
        return f"resell {_card(c.tokens[a.b], c.tokens, ids)} of {agent_name(s, c, a.a)}"
    if k == "support":
        text = f"take support card {c.support[a.a].name}"
        return text + (f" discarding {c.support[a.b].name}" if a.b >= 0 else "")
    if k == "train":
        return f"train {agent_name(s, c, a.a)}"
    if k == "story":
        return "replace the story card" if a.a == 1 else "draw a story card"
    if k == "done":
        return "end the strategy actions"
    if k == "keep":
        if s.fight is not None:
            t = c.combat_tokens[a.a]
            return f"keep combat token {t.id} (attack {t.attack}, defense {t.defense})"
        return f"keep story card {_card(c.stories[a.a], c.stories, ids)}"
    if k == "discard-support":
        return f"discard support card {c.support[a.a].name} for teammates"
    if k == "convert":
        return f"make {_fighter(s, c, a.a)} a teammate"
    if k == "project":
        return f"project the target to zone {a.a + 1}"
    if k == "dodge":
        return f"dodge to zone {a.a + 1}"
    return ""


def _field_text(s: State, c: Content, a: Action, ids: bool) -> str:
    """Moves, Auxiliary Actions, Combat, tests and influence ("" if ``a`` is none of them)."""
    k = a.kind
    district = c.district_names
    if k == "enter":
        return f"place the agent in {district[a.a]} (district {a.a + 1})"
    if k == "go":
        return f"move to {district[a.a]} (district {a.a + 1})"
    if k == "step":
        return f"move to zone {a.a + 1}"
    if k == "spot":
        d = (
            s.fight.district
            if s.fight is not None
            else next(x.district for x in s.agents if x.sheet == s.ctx.agent)
        )
        kind = c.boards[s.city.boards[d]].positions[a.a][1]
        return f"take the {POSITION_KINDS[kind]} position"
    if k == "staff":
        return f"place a staff token on event {c.events[s.city.news[a.a]].name} (slot {a.a + 1})"
    if k == "ambush":
        return f"place an ambush token in {district[a.a]} (district {a.a + 1})"
    if k == "rescue":
        return f"rescue {agent_name(s, c, a.a)}"
    if k == "grill":
        target = s.fight.fighters[s.fight.target].ref if s.fight is not None else -1
        return f"grill {_card(c.tokens[a.a], c.tokens, ids)} of {agent_name(s, c, target)}"
    if k == "lose":
        return f"lose {_card(c.tokens[a.b], c.tokens, ids)} of {agent_name(s, c, a.a)}"
    if k == "attack":
        weapon = f"with {c.tokens[a.b].name}" if a.b >= 0 else "bare-handed"
        xp = f" and {a.c} XP" if a.c else ""
        return f"attack {_fighter(s, c, a.a)} {weapon}{xp}"
    if k == "test":
        org = s.orgs[s.actor]
        place, number = mission_of(a.a)
        case = org.cases[place]
        m = c.investigations[case].missions[number]
        xp = f" with {a.b} XP" if a.b else ""
        return f"test {FEATURES[m.feature]} for mission {number + 1} of {_case(c, case, ids)}{xp}"
    if k == "place":
        return f"place an influence token in {district[a.a]}"
    if k == "remove":
        return f"remove an influence token of {c.organisations[a.b].name} from {district[a.a]}"
    return ""


_WORDS = {
    "no-support": "keep the support cards",
    "stand": "stand firm",
    "stay": "leave the agent where it is",
    "stop": "stop moving",
    "hold": "hold",
    "pass": "pass",
    "no-test": "take no test",
    "no-grill": "grill no cyber-implant",
    "pay": "pay the salaries",
}
"""Actions without arguments, in the rulebook's words."""


def action_to_text(s: State, c: Content, a: Action, *, ids: bool = False) -> str:
    """The action in the rulebook's words: cards by name (with their id only where two cards share
    a name); ``ids`` gives the older notation that named every card with its id, still read."""
    if a.kind == "draw":
        return _draw_text(s, c, a.a, ids)
    if a.kind in _WORDS:
        return _WORDS[a.kind]
    if a.kind == "send" and s.fight is not None:
        return f"send {_fighter(s, c, s.fight.queue[0])} against {_fighter(s, c, a.a)}"
    if a.kind == "drop-support":
        return f"discard support card {c.support[a.a].name} over the reputation limit"
    return _hq_text(s, c, a, ids) or _field_text(s, c, a, ids) or f"{a.kind} {a.a} {a.b} {a.c}"


def parse_action(s: State, c: Content, text: str) -> Action:
    """The legal action whose text is ``text`` (``NotationError`` otherwise)."""
    if not isinstance(text, str):
        raise NotationError("an action is a string", field="action")
    want = " ".join(text.split()).lower()
    legal = engine.legal_actions(s, c)
    for ids in (False, True):  # the notation, then the older one with every card's id
        for a in legal:
            if action_to_text(s, c, a, ids=ids).lower() == want:
                return a
    raise NotationError(f"no legal action reads {text[:80]!r}", field="action")


def state_to_text(s: State, c: Content) -> str:
    """The state's text: its JSON form."""
    return json.dumps(codec.to_dict(s, c), separators=(",", ":"), sort_keys=True)


def parse_state(text: str, c: Content) -> State:
    """Parse a state's text (``NotationError`` when it does not parse or is invalid)."""
    if not isinstance(text, str):
        raise NotationError("a state text is a string", field="state")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise NotationError(f"not JSON: {exc}", field="state") from None
    try:
        return codec.from_dict(data, c)
    except InvalidStateError as exc:
        raise NotationError(str(exc), field=exc.field or "state") from None
