"""The public form of the state (plain JSON) and back, every field validated before any rule reads it.

The form mirrors the records of ``state.py`` field by field, in the rulebook's words: components
by their ids (``"AG04"``, ``"W13"``, ``"S01"``, ``"Y08"``, ``"E01"``, ``"T05"``, board ``"A3"``),
districts, zones, tactical positions and Mission numbers from 1, Status tokens and fighter kinds by
name, store stock as a token id or its back (``{"store": "weapon", "price": 300, "expert": false}``),
phases and steps by name; seats are 0-based; ``null`` where the rulebook has nothing (an empty
slot, an Agent in its HQ). Observations write a hidden card as ``"unknown"``. The flow of the turn
(``ctx``) is written by what each field means in the phase under way (:func:`_ctx_out`): only the
fields in use, the queue as Agent sheet ids, seats or district numbers, the investigation stage,
store and Ambush effect by name, the Mission under test as its Investigation card and number.
``from_dict`` raises ``InvalidStateError`` naming the first bad field; no other exception escapes it."""

from __future__ import annotations

import typing
from collections.abc import Mapping
from typing import Any

from games.cyberverse import state as st
from games.cyberverse.content import AMBUSH_EFFECTS, CATEGORIES, COLOURS, Content
from games.cyberverse.form import (
    Fields,
    Ids,
    codec_of,
    dec_number,
    dec_seat,
    dec_seats,
    enc_number,
    enc_seats,
    fail,
    read_bool,
    read_list,
    step_index,
)
from games.cyberverse.schema import CTX_KEYS
from games.cyberverse.validate import check
from games.errors import InvalidStateError

__all__ = ["from_dict", "to_dict"]


def _queue_kind(phase: int) -> str:
    """What ``ctx.queue`` holds in a phase: Organizations (Strategy, Payday), Agents (Activation,
    Investigation) or districts (the Event's Henchmen)."""
    if phase == st.EVENT:
        return "district"
    if phase in (st.ACTIVATION, st.INVESTIGATION):
        return "agent"
    return "seat"


def _cards_ids(f: Fields, phase: int) -> Ids:
    """What ``ctx.cards`` holds: the Agent sheet drawn (setup), the Event card placing Henchmen,
    or the Story cards drawn for a choice."""
    if phase == st.SETUP:
        return f.sheet
    if phase == st.EVENT:
        return f.event
    return f.story


def _ctx_out(s: st.State, f: Fields) -> dict[str, Any]:
    """The flow of the turn in words: only the fields in use, each by what it means in this phase."""
    ctx, phase = s.ctx, s.phase
    out: dict[str, Any] = {}
    if ctx.queue:
        kind = _queue_kind(phase)
        if kind == "agent":
            out["queue"] = f.sheet.enc_list(ctx.queue)
        elif kind == "district":
            out["queue"] = [enc_number(x) for x in ctx.queue]
        else:
            out["queue"] = enc_seats(ctx.queue)
    if ctx.agent != -1:
        out["agent"] = f.sheet.enc(ctx.agent)
    if ctx.mp:
        out["movement_points"] = ctx.mp
    if ctx.visited:
        out["districts_visited"] = [d + 1 for d in range(5) if ctx.visited >> d & 1]
    if ctx.started:
        out["started"] = True
    if ctx.district != -1:
        out["district"] = enc_number(ctx.district)
    if phase == st.INVESTIGATION or ctx.stage:
        out["stage"] = st.STAGES[ctx.stage] if 0 <= ctx.stage < len(st.STAGES) else ctx.stage
    out.update(_ctx_out_cards(s, f))
    return out


def _ctx_out_cards(s: st.State, f: Fields) -> dict[str, Any]:
    """:func:`_ctx_out` continued: the cards, store, slot, seat and Mission of the step under way."""
    ctx, phase = s.ctx, s.phase
    out: dict[str, Any] = {}
    if ctx.cards:
        out["cards"] = _cards_ids(f, phase).enc_list(ctx.cards)
    if ctx.store != -1:
        if phase == st.EVENT:
            out["henchmen_left"] = ctx.store
        elif phase == st.INVESTIGATION and 0 <= ctx.store < len(AMBUSH_EFFECTS):
            out["ambush_effect"] = AMBUSH_EFFECTS[ctx.store]
        elif 0 <= ctx.store < len(CATEGORIES):
            out["store"] = CATEGORIES[ctx.store]
    if ctx.slot != -1:
        out["placement" if phase == st.EVENT else "slot"] = enc_number(ctx.slot)
    if ctx.seat != -1:
        out["seat"] = ctx.seat
    if ctx.colours:
        out["colours"] = [COLOURS[x] for x in ctx.colours]
    if ctx.mission != -1:
        case, m = ctx.mission >> 4, ctx.mission & 15
        cases = s.orgs[ctx.seat].cases if 0 <= ctx.seat < len(s.orgs) else ()
        card = f.case.enc(cases[case]) if case < len(cases) else None
        out["mission"] = {"investigation": case + 1, "card": card, "mission": m + 1}
    if ctx.xp:
        out["xp_spent"] = ctx.xp
    if ctx.tested:
        out["missions_tested"] = [
            {"investigation": (b >> 4) + 1, "mission": (b & 15) + 1} for b in range(48) if ctx.tested >> b & 1
        ]
    return out


def _name(value: Any, names: tuple[str, ...], path: str) -> int:
    if value not in names or type(value) is not str:
        raise fail(path, f"one of {list(names)}", value)
    return names.index(value)


def _count(value: Any, path: str, top: int) -> int:
    if type(value) is not int or not 0 <= value <= top:
        raise fail(path, f"a number from 0 to {top}", value)
    return value


def _district(value: Any, path: str) -> int:
    """A district number 1 to 5 (or null) -> 0-based (-1)."""
    d = dec_number(value, path)
    if d > 4:
        raise fail(path, "a district number from 1 to 5, or null", value)
    return d


def _ctx_in(value: Any, phase: int, f: Fields) -> dict[str, Any]:
    """The numeric fields of ``Ctx`` from the words of :func:`_ctx_out` (missing fields: unused)."""
    if not isinstance(value, Mapping):
        raise fail("ctx", "an object", value)
    bad = next((k for k in value if k not in CTX_KEYS), None)
    if bad is not None:
        raise InvalidStateError(
            f"ctx.{str(bad)[:40]} is not a field of the flow (fields: {', '.join(CTX_KEYS)})",
            field=f"ctx.{str(bad)[:40]}",
        )
    out: dict[str, Any] = {
        "queue": [],
        "agent": -1,
        "mp": 0,
        "visited": 0,
        "started": False,
        "district": -1,
        "stage": 0,
        "cards": [],
        "store": -1,
        "slot": -1,
        "seat": -1,
        "colours": [],
        "mission": -1,
        "xp": 0,
        "tested": 0,
    }
    if "queue" in value:
        kind, items = _queue_kind(phase), read_list(value["queue"], "ctx.queue", 20)
        if kind == "agent":
            out["queue"] = list(f.sheet.dec_list(items, "ctx.queue"))
        elif kind == "district":
            out["queue"] = [_district(x, f"ctx.queue[{i}]") for i, x in enumerate(items)]
        else:
            out["queue"] = list(dec_seats(items, "ctx.queue"))
    if "agent" in value:
        out["agent"] = f.sheet.dec(value["agent"], "ctx.agent")
    if "movement_points" in value:
        out["mp"] = _count(value["movement_points"], "ctx.movement_points", 99)
    if "districts_visited" in value:
        for i, d in enumerate(read_list(value["districts_visited"], "ctx.districts_visited", 5)):
            x = _district(d, f"ctx.districts_visited[{i}]")
            if x < 0:
                raise fail(f"ctx.districts_visited[{i}]", "a district number from 1 to 5", d)
            out["visited"] |= 1 << x
    if "started" in value:
        out["started"] = read_bool(value["started"], "ctx.started")
    if "district" in value:
        out["district"] = _district(value["district"], "ctx.district")
    if "stage" in value:
        out["stage"] = _name(value["stage"], st.STAGES, "ctx.stage")
    out.update(_ctx_in_cards(value, phase, f))
    return out


def _ctx_in_cards(value: Mapping[str, Any], phase: int, f: Fields) -> dict[str, Any]:
    """:func:`_ctx_in` continued: the cards, store, slot, seat and Mission of the step under way."""
    out: dict[str, Any] = {}
    if "cards" in value:
        cards = read_list(value["cards"], "ctx.cards", 10)
        out["cards"] = list(_cards_ids(f, phase).dec_list(cards, "ctx.cards"))
    if "store" in value:
        out["store"] = _name(value["store"], CATEGORIES, "ctx.store")
    if "henchmen_left" in value:
        out["store"] = _count(value["henchmen_left"], "ctx.henchmen_left", 20)
    if "ambush_effect" in value:
        out["store"] = _name(value["ambush_effect"], AMBUSH_EFFECTS, "ctx.ambush_effect")
    for key in ("slot", "placement"):
        if key in value:
            out["slot"] = dec_number(value[key], f"ctx.{key}")
    if "seat" in value:
        out["seat"] = dec_seat(value["seat"], "ctx.seat")
    if "colours" in value:
        out["colours"] = [
            _name(x, COLOURS, f"ctx.colours[{i}]")
            for i, x in enumerate(read_list(value["colours"], "ctx.colours", 3))
        ]
    if "mission" in value:
        mission = value["mission"]
        if not isinstance(mission, Mapping):
            raise fail("ctx.mission", "an object {investigation, card, mission}", mission)
        case = dec_number(mission.get("investigation"), "ctx.mission.investigation")
        m = dec_number(mission.get("mission"), "ctx.mission.mission")
        if not 0 <= case < len(COLOURS) or not 0 <= m < 16:
            raise fail("ctx.mission", "an Investigation card's number and a Mission number", mission)
        out["mission"] = case << 4 | m
    if "xp_spent" in value:
        out["xp"] = _count(value["xp_spent"], "ctx.xp_spent", 20)
    if "missions_tested" in value:
        out["tested"] = 0
        for i, mission in enumerate(read_list(value["missions_tested"], "ctx.missions_tested", 48)):
            out["tested"] |= 1 << _mission_bit(mission, f"ctx.missions_tested[{i}]")
    return out


def _mission_bit(mission: Any, path: str) -> int:
    """A Mission of the dashboard, ``{investigation, mission}`` numbers from 1 -> (case << 4) | mission."""
    if not isinstance(mission, Mapping):
        raise fail(path, "an object {investigation, mission}", mission)
    case = dec_number(mission.get("investigation"), f"{path}.investigation")
    m = dec_number(mission.get("mission"), f"{path}.mission")
    if not 0 <= case < len(COLOURS) or not 0 <= m < 16:
        raise fail(path, "an Investigation card's number and a Mission number", mission)
    return case << 4 | m


def to_dict(s: st.State, c: Content) -> dict[str, Any]:
    """The state as plain JSON types: component ids, names and 1-based numbers."""
    codec = codec_of(c)
    data: dict[str, Any] = codec.encoder(st.State)(s)
    data["ctx"] = _ctx_out(s, codec.fields)
    data["phase"] = st.PHASES[s.phase]
    data["step"] = st.STEPS[s.step]
    data["game"] = "cyberverse"
    return data


def from_dict(data: Mapping[str, Any], c: Content) -> st.State:
    """Rebuild and validate a state (``InvalidStateError`` naming the first bad field)."""
    if not isinstance(data, Mapping):
        raise InvalidStateError("the state must be an object", field="state")
    body = dict(data)
    if body.pop("game", "cyberverse") != "cyberverse":
        raise InvalidStateError("game must be 'cyberverse'", field="game")
    phase, step = body.get("phase"), body.get("step")
    if phase not in st.PHASES:
        raise fail("phase", f"one of {list(st.PHASES)}", phase)
    body["step"] = step_index(step)
    if body["step"] < 0:
        raise fail("step", "a step name", step)
    body["phase"] = st.PHASES.index(phase)
    codec = codec_of(c)
    try:
        body["ctx"] = _ctx_in(body.get("ctx", {}), body["phase"], codec.fields)
        s = codec.decoder(st.State)(body, "")
        check(s, c)
    except InvalidStateError:
        raise
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, RecursionError) as exc:
        raise InvalidStateError(f"inconsistent state: {type(exc).__name__}", field="state") from None
    return typing.cast(st.State, s)
