"""The public form of a CyberVerse state (``to_dict``) and reading it back (``from_dict``).

The form is declared once in ``games.cyberverse.schema`` (its JSON Schema, the check of every field
on its own, the names written here): ``to_dict`` builds its values from the records (a set as the
list of what it holds) and writes them; ``from_dict`` reads them, decodes what depends on another
field (what the flow's queue and cards hold in the phase, a fighter's sheet or Henchman type, a
Supply token's back) and builds the records, which ``games.cyberverse.validate`` checks against the
rules. ``from_dict`` raises ``InvalidStateError`` naming the first bad field; no other exception
escapes it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from msgspec.structs import asdict

from games.cyberverse import state as st
from games.cyberverse.content import AMBUSH_EFFECTS, CATEGORIES, COLOURS, Content
from games.cyberverse.schema import FORMS, OLD_STEP_NAMES, PACKS, STATUSES, Pack, bad
from games.cyberverse.validate import check

__all__ = ["from_dict", "to_dict"]


def _members(items: tuple[int, ...], first: int = 0) -> tuple[int, ...]:
    """A set of the records (a sorted tuple) from the list the form read, numbered from ``first``
    (a member listed twice is held once)."""
    return tuple(sorted({i - first for i in items}))


def _queue_kind(phase: int) -> str:
    """What ``ctx.queue`` holds in a phase: Agents (Activation, Investigation), districts (the Event's
    Henchmen) or Organizations (Strategy, Payday)."""
    if phase == st.EVENT:
        return "district"
    if phase in (st.ACTIVATION, st.INVESTIGATION):
        return "sheet"
    return "seat"


def _cards_kind(phase: int) -> str:
    """What ``ctx.cards`` holds: the Agent sheet drawn (setup), the Event card placing Henchmen, or the
    Story cards drawn for a choice."""
    return "sheet" if phase == st.SETUP else "event" if phase == st.EVENT else "story"


# ------------------------------------------------------------------------------------ writing


def to_dict(s: st.State, c: Content) -> dict[str, Any]:
    """The state as plain JSON types: component ids, names and 1-based numbers."""
    p = PACKS(c)
    values = {
        **asdict(s),
        "options": asdict(s.options),
        "orgs": [_org_values(o) for o in s.orgs],
        "agents": [{**asdict(a), "status": [STATUSES[i] for i in a.status]} for a in s.agents],
        "city": {**asdict(s.city), "staff": [list(seats) for seats in s.city.staff]},
        "market": _market_values(s.market, c),
        "decks": {
            **asdict(s.decks),
            "cases": dict(zip(COLOURS, s.decks.cases, strict=True)),
            "cases_discard": dict(zip(COLOURS, s.decks.cases_discard, strict=True)),
        },
        "fight": None if s.fight is None else _fight_values(s.fight, p),
        "ctx": _ctx_values(s, p),
        "game": "cyberverse",
    }
    return FORMS(c).write(values)


def _org_values(o: st.Org) -> dict[str, Any]:
    missions = {key: [[m + 1 for m in ms] for ms in getattr(o, key)] for key in ("done", "spent", "marks")}
    return {**asdict(o), **missions}


def _market_values(m: st.Market, c: Content) -> dict[str, Any]:
    """The stores: a token known (its index), a token showing its back, or none (-1)."""

    def cell(x: int) -> Any:
        if x >= -1:
            return x
        store, price, expert = c.backs[-2 - x]
        return {"store": store, "price": price, "expert": expert}

    return {**asdict(m), "stock": [[cell(x) for x in row] for row in m.stock]}


def _fight_values(f: st.Fight, p: Pack) -> dict[str, Any]:
    def ref(x: st.Fighter) -> Any:
        names = p.names["sheet"] if x.kind == st.AGENT else p.htypes
        return names[x.ref] if x.ref >= 0 else (None if x.ref == -1 else "unknown")

    return {
        **asdict(f),
        "fighters": [{**asdict(x), "ref": ref(x)} for x in f.fighters],
        "movement_points": f.mp,
        "xp_spent": f.xp,
        "supported": list(f.supported),
        "took_part": list(f.took_part),
    }


def _ctx_values(s: st.State, p: Pack) -> dict[str, Any]:
    """The flow of the turn: only the fields in use, each by what it means in this phase."""
    ctx, phase = s.ctx, s.phase
    out: dict[str, Any] = {}
    if ctx.queue:
        kind = _queue_kind(phase)
        if kind == "sheet":
            out["queue"] = [p.names["sheet"][x] if x >= 0 else x for x in ctx.queue]
        else:
            out["queue"] = [x + (kind == "district") if x >= 0 else -1 for x in ctx.queue]
    if ctx.agent != -1:
        out["agent"] = ctx.agent
    if ctx.mp:
        out["movement_points"] = ctx.mp
    if ctx.visited:
        out["districts_visited"] = list(ctx.visited)
    if ctx.started:
        out["started"] = True
    if ctx.district != -1:
        out["district"] = ctx.district
    if phase == st.INVESTIGATION or ctx.stage:
        out["stage"] = ctx.stage
    out.update(_ctx_step_values(s, p))
    return out


def _ctx_step_values(s: st.State, p: Pack) -> dict[str, Any]:
    """:func:`_ctx_values` continued: the cards, store, slot, seat and Mission of the step under way."""
    ctx, phase = s.ctx, s.phase
    out: dict[str, Any] = {}
    if ctx.cards:
        names = p.names[_cards_kind(phase)]
        out["cards"] = [names[x] if x >= 0 else x for x in ctx.cards]
    if ctx.store != -1:
        if phase == st.EVENT:
            out["henchmen_left"] = ctx.store
        elif phase == st.INVESTIGATION and 0 <= ctx.store < len(AMBUSH_EFFECTS):
            out["ambush_effect"] = ctx.store
        elif 0 <= ctx.store < len(CATEGORIES):
            out["store"] = ctx.store
    if ctx.slot != -1:
        out["placement" if phase == st.EVENT else "slot"] = ctx.slot
    if ctx.seat != -1:
        out["seat"] = ctx.seat
    if ctx.colours:
        out["colours"] = ctx.colours
    if ctx.mission:
        case, m = ctx.mission
        cases = s.orgs[ctx.seat].cases if 0 <= ctx.seat < len(s.orgs) else ()
        out["mission"] = {
            "investigation": case,
            "card": cases[case] if case < len(cases) else -1,
            "mission": m,
        }
    if ctx.xp:
        out["xp_spent"] = ctx.xp
    if ctx.tested:
        out["missions_tested"] = [{"investigation": case, "mission": m} for case, m in ctx.tested]
    return out


# ------------------------------------------------------------------------------------ reading


def from_dict(data: Mapping[str, Any], c: Content) -> st.State:
    """Read the public form into a state: each field by the declaration, then what depends on another
    field, then the rules' invariants (``validate.check``)."""
    step = data.get("step") if isinstance(data, Mapping) else None
    if isinstance(step, str) and step in OLD_STEP_NAMES:
        data = {**data, "step": st.STEPS[OLD_STEP_NAMES[step]]}
    d = FORMS(c).read(data)
    del d["game"]
    p = PACKS(c)
    city, decks, fight = d["city"], d["decks"], d["fight"]
    s = st.State(
        **{
            **d,
            "options": st.Options(**d["options"]),
            "orgs": tuple(_org(o) for o in d["orgs"]),
            "agents": tuple(_agent(a) for a in d["agents"]),
            "city": st.City(**{**city, "staff": tuple(map(_members, city["staff"]))}),
            "market": _market(d["market"], c),
            "decks": st.Decks(
                **{
                    **decks,
                    "cases": tuple(decks["cases"][col] for col in COLOURS),
                    "cases_discard": tuple(decks["cases_discard"][col] for col in COLOURS),
                }
            ),
            "fight": None if fight is None else _fight(fight, p),
            "ctx": _ctx(d["ctx"], d["phase"], p),
        }
    )
    check(s, c)
    return s


def _agent(a: dict[str, Any]) -> st.Agent:
    """An Agent, its Status tokens by their index in ``STATUSES``."""
    return st.Agent(**{**a, "status": _members(tuple(map(STATUSES.index, a["status"])))})


def _org(o: dict[str, Any]) -> st.Org:
    missions = {key: tuple(_members(x, 1) for x in o[key]) for key in ("done", "spent", "marks")}
    return st.Org(**{**o, **missions})


def _market(m: dict[str, Any], c: Content) -> st.Market:
    """The stores: a token's back read as ``-2 - back`` (one of the pack's backs)."""
    backs = {back: i for i, back in enumerate(c.backs)}
    stock = []
    for i, row in enumerate(m["stock"]):
        cells = []
        for k, x in enumerate(row):
            if isinstance(x, dict):
                b = backs.get((x["store"], x["price"], x["expert"]))
                if b is None:
                    store, price, expert = CATEGORIES[x["store"]], x["price"], x["expert"]
                    why = f"no {store} token of the pack has the back (price {price}, expert {expert})"
                    raise bad(f"market.stock[{i}][{k}]", why, "cyberverse/components")
                x = -2 - b
            cells.append(x)
        stock.append(tuple(cells))
    return st.Market(**{**m, "stock": tuple(stock)})


def _fight(f: dict[str, Any], p: Pack) -> st.Fight:
    fighters = []
    for i, x in enumerate(f["fighters"]):
        agent = x["kind"] == st.AGENT
        names = p.names["sheet"] if agent else p.htypes
        if x["ref"] not in names:
            what = "an agent sheet id for an agent" if agent else "a henchman type for a teammate or henchman"
            raise bad(f"fight.fighters[{i}].ref", f"expected {what}, got {x['ref']!r}", "cyberverse/combat")
        fighters.append(st.Fighter(**{**x, "ref": names.index(x["ref"])}))
    out = {k: v for k, v in f.items() if k not in ("movement_points", "xp_spent")}
    return st.Fight(
        **{
            **out,
            "fighters": tuple(fighters),
            "mp": f["movement_points"],
            "xp": f["xp_spent"],
            "supported": _members(f["supported"]),
            "took_part": _members(f["took_part"]),
        }
    )


def _shown(x: Any) -> Any:
    """A decoded entry as it was written (-1 null, -2 ``"unknown"``)."""
    return {-1: None, -2: "unknown"}.get(x, x) if isinstance(x, int) else x


def _queue(items: tuple[Any, ...], phase: int, p: Pack) -> tuple[int, ...]:
    """``ctx.queue`` by what it holds in the phase (rule: cyberverse/order-of-play)."""
    kind, out = _queue_kind(phase), []
    for i, x in enumerate(items):
        if kind == "sheet" and (isinstance(x, str) or x in (-1, -2)):
            out.append(p.names["sheet"].index(x) if isinstance(x, str) else x)
            continue
        if kind == "district" and isinstance(x, int) and (x == -1 or 1 <= x <= 5):
            out.append(x - 1 if x > 0 else x)
            continue
        if kind == "seat" and isinstance(x, int) and -1 <= x <= 3:
            out.append(x)
            continue
        want = {"sheet": "an agent sheet id", "district": "a district number 1..5", "seat": "a seat 0..3"}[
            kind
        ]
        why = f"expected {want} or null in the {st.PHASES[phase]} phase, got {_shown(x)!r}"
        raise bad(f"ctx.queue[{i}]", why, "cyberverse/order-of-play")
    return tuple(out)


def _cards(items: tuple[Any, ...], phase: int, p: Pack) -> tuple[int, ...]:
    """``ctx.cards`` by what they are in the phase."""
    kind, out = _cards_kind(phase), []
    names = p.names[kind]
    for i, x in enumerate(items):
        if isinstance(x, str):
            if x not in names:
                why = f"expected a {kind} card id in the {st.PHASES[phase]} phase, got {x!r}"
                raise bad(f"ctx.cards[{i}]", why)
            x = names.index(x)
        out.append(x)
    return tuple(out)


def _ctx(v: dict[str, Any], phase: int, p: Pack) -> st.Ctx:
    """The numeric fields of ``Ctx`` from the flow's words (a field left out: unused)."""
    out: dict[str, Any] = {}
    if "queue" in v:
        out["queue"] = _queue(v["queue"], phase, p)
    for key, name in (("agent", "agent"), ("movement_points", "mp"), ("started", "started")):
        if key in v:
            out[name] = v[key]
    if "districts_visited" in v:
        out["visited"] = _members(v["districts_visited"])
    for key, name in (("district", "district"), ("stage", "stage"), ("seat", "seat"), ("colours", "colours")):
        if key in v:
            out[name] = v[key]
    if "cards" in v:
        out["cards"] = _cards(v["cards"], phase, p)
    for key in ("store", "henchmen_left", "ambush_effect"):
        if key in v:
            out["store"] = v[key]
    for key in ("slot", "placement"):
        if key in v:
            out["slot"] = v[key]
    if "mission" in v:
        out["mission"] = (v["mission"]["investigation"], v["mission"]["mission"])
    if "xp_spent" in v:
        out["xp"] = v["xp_spent"]
    if "missions_tested" in v:
        out["tested"] = tuple(sorted({(m["investigation"], m["mission"]) for m in v["missions_tested"]}))
    return st.Ctx(**out)
