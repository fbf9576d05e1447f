"""The face of CyberVerse: the catalogue, the description, the SVG of New Eden and the district
boards, and the facts behind a move (games/core/face.py)."""

from __future__ import annotations

import html

from games.core.face import (
    REFEREE,
    Catalogue,
    ContentItem,
    Description,
    Fact,
    Row,
    Section,
    Viewer,
    viewer_name,
)
from games.cyberverse import engine, scoring
from games.cyberverse.activation import travel_cost
from games.cyberverse.agents import feature, max_health, org_xp, support_limit
from games.cyberverse.combat import attack_outcomes
from games.cyberverse.content import (
    CATEGORIES,
    COLOURS,
    EVENT_EFFECTS,
    EVENT_REWARDS,
    FEATURES,
    GEAR,
    GEAR_KINDS,
    IMPLANT,
    MISSION_KINDS,
    POSITION_KINDS,
    SKILLS,
    STATUSES,
    SUPPORT_EFFECTS,
    TOKEN_EFFECTS,
    WEAPON,
    WEAPON_EFFECTS,
    AgentFace,
    Content,
    EventCard,
    Mission,
    SupplyToken,
    SupportCard,
)
from games.cyberverse.engine import STORIES_TO_WIN
from games.cyberverse.engine import legal_actions as engine_legal
from games.cyberverse.hidden import observation as hidden_observation
from games.cyberverse.investigation import hack_gain
from games.cyberverse.state import (
    AGENT,
    C_FIGHTER_TOKEN,
    C_STORY,
    C_TOKEN,
    D_ATTACK,
    D_AUX,
    D_CHOOSE_AGENT,
    D_INFLUENCE,
    D_KEEP_STORY,
    D_KEEP_TOKEN,
    D_MOVE,
    D_PAYDAY,
    D_SECOND,
    D_STRATEGY,
    D_TEST,
    HENCHMAN,
    PAYDAY,
    PHASES,
    SETUP,
    STEPS,
    STRATEGY,
    TEAMMATE,
    Action,
    Agent,
    Org,
    State,
)
from games.cyberverse.strategy import price, price_shift, slot_price

__all__ = [
    "catalogue",
    "describe",
    "event_text",
    "explain",
    "mission_text",
    "render",
    "support_text",
    "token_text",
]

ZONE = "#f4f1ea"
"""A zone of a district board in the picture."""
ENTRY = "#dfe9f3"
"""The entry zone of a district board."""
EDGE = "#6b6b6b"
"""The outline of a zone: at least 3:1 against the page and the zones (issue 30's pictures)."""
POSITION_COLOURS = ("#b85c00", "#1f6aa5", "#0e7a63")
"""The dot of an advantageous, covered and hacking position (``POSITION_KINDS``): at least 3:1
against the page and every zone."""
NEWS_CHARS = 53
"""The News track's line in the picture wraps at this many characters (10 px text, 320 px wide)."""
HEADLINE_CHARS = 96
"""The picture's headline wraps at this many characters (15 px bold text, 960 px wide)."""


def _ink(fill: str) -> str:
    """Black or white, whichever reads better on ``fill`` (``#rrggbb`` or ``#rgb``; an
    Organization's colour comes from the content pack)."""

    def lin(v: int) -> float:
        x = v / 255
        return x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4

    if len(fill) == 4 and fill.startswith("#"):  # "#333"
        fill = "#" + "".join(ch * 2 for ch in fill[1:])
    if not (len(fill) == 7 and fill.startswith("#")):
        return "#fff"
    r, g, b = (lin(int(fill[i : i + 2], 16)) for i in (1, 3, 5))
    lum = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return "#000" if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else "#fff"


def _agent_and_supply_items(c: Content) -> list[ContentItem]:
    """Agent sheets, Supply tokens, Support cards and Henchman cards."""
    items: list[ContentItem] = []
    for f in c.faces:
        values = {n: f.features[i] for i, n in enumerate(FEATURES)}
        values |= {"initiative": f.initiative, "salary": f.salary, "health": f.health}
        items.append(
            ContentItem(
                id=f.id,
                kind="agent sheet",
                name=f.name,
                text=f.skill_text,
                values=values,
                authored=f.authored,
            )
        )
    for t in c.tokens:
        items.append(
            ContentItem(
                id=t.id,
                kind=f"{CATEGORIES[t.category]} token",
                name=t.name,
                values={"price": t.price},
                authored=t.authored,
            )
        )
    for u in c.support:
        items.append(
            ContentItem(
                id=u.id,
                kind="support card",
                name=u.name,
                values={"teammates": u.teammates},
                authored=u.authored,
            )
        )
    for h in c.henchmen:
        values = {
            "defense": h.defense,
            "attack": h.attack,
            "movement": h.movement,
            "health": h.health,
            "ranged": h.ranged,
        }
        items.append(
            ContentItem(id=h.id, kind="henchman card", name=h.name, values=values, authored=h.authored)
        )
    return items


def _card_items(c: Content) -> list[ContentItem]:
    """Brawl, Combat tokens, Ambush, Event, Story and Investigation cards, District boards."""
    items: list[ContentItem] = []
    for b in c.brawl:
        items.append(
            ContentItem(
                id=b.id,
                kind="brawl card",
                name=b.id,
                values={"red": b.red, "henchmen": [c.henchman_types[k] for k in b.henchmen]},
                authored=b.authored,
            )
        )
    for ct in c.combat_tokens:
        eff = TOKEN_EFFECTS[ct.effect] if ct.effect >= 0 else ""
        items.append(
            ContentItem(
                id=ct.id,
                kind="combat token",
                name=ct.id,
                text=eff,
                values={"attack": ct.attack, "defense": ct.defense},
                authored=ct.authored,
            )
        )
    for a in c.ambush:
        items.append(ContentItem(id=a.id, kind="ambush card", name=a.name, authored=a.authored))
    for e in c.events:
        items.append(
            ContentItem(
                id=e.id,
                kind="event card",
                name=e.name,
                values={"time": e.time, "henchmen": list(e.henchmen)},
                authored=e.authored,
            )
        )
    for s in c.stories:
        items.append(
            ContentItem(
                id=s.id,
                kind="story card",
                name=s.name,
                values={"victory points": s.vp, "investigations": [COLOURS[k] for k in s.requires]},
                authored=s.authored,
            )
        )
    for i in c.investigations:
        missions = [f"{FEATURES[m.feature]} > {m.threshold} in district {m.district + 1}" for m in i.missions]
        items.append(
            ContentItem(
                id=i.id,
                kind=f"{COLOURS[i.colour]} investigation card",
                name=i.name,
                text="; ".join(missions),
                authored=i.authored,
            )
        )
    for bd in c.boards:
        items.append(
            ContentItem(
                id=bd.id,
                kind="district board",
                name=f"{c.district_names[bd.district]} {bd.id}",
                values={"zones": bd.zones, "entry zone": bd.entry + 1},
                authored=bd.authored,
            )
        )
    return items


def catalogue(c: Content) -> Catalogue:
    """Every component of the pack with its numbers (all authored but the rulebook's)."""
    items = _agent_and_supply_items(c) + _card_items(c)
    return Catalogue(
        game="cyberverse",
        version=c.version,
        items=tuple(items),
        notes="The rulebook prints the rules but not the card and token data: the reference pack authors them "  # noqa: E501
        "(each item marked authored); a user's pack with the same files replaces it (content_path).",
    )


# --------------------------------------------------------------------------- words for components
_STORE_NAMES = ("weapons", "cyber-implants", "gear", "vehicles")
"""The four stores (rule: cyberverse/strategy-phase; "Equipment" is the Gear store)."""


def _plus(n: int) -> str:
    return f"{n:+d}"


def token_text(c: Content, t: SupplyToken) -> str:
    """What a Supply token does, in words (``"Combat +1, ranged"``)."""
    if t.category == WEAPON:
        kind = "ranged" if t.ranged else "close combat"
        effects = [WEAPON_EFFECTS[i] for i in range(len(WEAPON_EFFECTS)) if t.effects >> i & 1]
        text = f"Combat {_plus(t.bonus)}, {kind}"
        if effects:
            text += ", " + " and ".join(effects)
        return text + (", expert (needs Combat 3)" if t.expert else "")
    if t.category == IMPLANT:
        return f"{FEATURES[t.feature].capitalize()} +1"
    if t.category == GEAR:
        kind = GEAR_KINDS[t.kind]
        if kind == "defense":
            return f"Defense {_plus(t.value)} in combat"
        if kind == "reputation":
            return f"Reputation {_plus(t.value)}"
        if kind == "test_bonus":
            return f"{_plus(t.value)} to {FEATURES[t.feature].capitalize()} tests"
        if kind == "ambush_guard":
            return "protects from ambush cards"
        return f"heals {t.value} at the start of each activation phase"
    parts = [f"Movement {_plus(t.movement)}"] if t.movement else []
    if t.free_travel:
        parts.append("moving between districts costs no movement points")
    if t.ambush_guard:
        parts.append("protects from ambush cards")
    return ", ".join(parts) or "no effect"


def support_text(c: Content, u: SupportCard) -> str:
    """What a Support card does while held, and the Henchmen it turns into Teammates."""
    effect = SUPPORT_EFFECTS[u.effect]
    if effect == "armor":
        text = f"Defense {_plus(u.value)} for your agents"
    elif effect == "test_bonus":
        text = f"{_plus(u.value)} to {FEATURES[u.feature].capitalize()} tests"
    elif effect == "discount":
        text = f"{u.value} D off {_STORE_NAMES[u.category]}"
    elif effect == "hack_bonus":
        text = f"+{u.value} D per hacking"
    else:
        text = "protects your agents from ambush cards"
    if u.teammates == 1:
        return f"{text}; 1 henchman becomes a teammate in a combat"
    return f"{text}; {u.teammates} henchmen become teammates in a combat"


def event_text(c: Content, e: EventCard) -> str:
    """An Event card's negative effect while in play (rule: cyberverse/event-phase)."""
    effect = EVENT_EFFECTS[e.effect]
    where = c.district_names[e.district] if e.district >= 0 else "every district"
    if effect == "toll":
        return f"+1 movement point to enter {where}"
    if effect == "blackout":
        return f"no hacking in {where}"
    if effect == "lockdown":
        return f"no influence token placed in {where}"
    if effect == "scrutiny":
        return f"-1 to feature tests in {where}"
    if effect == "inflation":
        return f"+100 D on {_STORE_NAMES[e.category]}"
    if effect == "strike":
        return "no support card taken in the strategy phase"
    return "no lasting effect"


def _reward_text(c: Content, e: EventCard) -> str:
    reward = EVENT_REWARDS[e.reward]
    if reward == "money":
        return f"earns {e.reward_value} D"
    if reward == "heal":
        return "heals each of your agents by 1"
    return f"an influence token in {c.district_names[e.reward_district]}"


def mission_text(c: Content, m: Mission) -> str:
    """A Mission of an Investigation card (``"Analysis test above 2 in Neon Gardens, 100 D"``)."""
    where = c.district_names[m.district]
    kind = MISSION_KINDS[m.kind]
    if kind == "test":
        what = f"{FEATURES[m.feature].capitalize()} test above {m.threshold} in {where}"
    elif kind == "hack":
        what = f"Hacking test above {m.threshold} in {where} (hacking position)"
    elif kind == "combat":
        what = f"take part in a combat in {where}"
    else:
        what = f"gain influence in {where}"
    return f"{what}, {m.reward} D"


_TABLE_HEAD = "Agent             Movement Analysis Hacking Reputation Combat Health Salary"


def _table_row(f: AgentFace) -> str:
    m, a, h, r, k = f.features
    return f"{f.name:<17} {m:>5}    {a:>5}    {h:>4}    {r:>6}     {k:>4}   {f.health:>3}  {f.salary:>4} D"


def secret_to(s: State, a: Action) -> int | None:
    """Who alone sees ``a`` played in ``s`` (-1: nobody, None: everyone): a Combat token drawn or
    kept for an Agent (its Organization), one drawn for a Henchman or a Teammate (nobody, face
    down), a Story card drawn (its drawer)."""
    step = s.step
    if step in (C_TOKEN, D_KEEP_TOKEN):
        assert s.fight is not None
        return s.fight.fighters[s.fight.queue[0]].org
    if step == C_FIGHTER_TOKEN:
        return -1
    if step == C_STORY:
        return s.ctx.seat
    return None


def hidden_line(s: State, c: Content, a: Action) -> str:
    """The log line of a secret action for those who do not see it."""
    step = s.step
    if step in (C_TOKEN, C_FIGHTER_TOKEN):
        return "Chance: a combat token is drawn face down."
    if step == C_STORY:
        return f"Chance: {c.organisations[s.ctx.seat].name} draws a story card."
    return f"{c.organisations[s.actor].name}: keeps a combat token face down."


def end_text(s: State, c: Content) -> str:
    """Why the game ended, in words ("" while it runs): the rulebook's end (rule:
    cyberverse/end-of-game) or the opt-in turn cap, which is no rule of the game."""
    why = engine.end_reason(s)
    if why == engine.END_STORIES:
        goal = engine.STORIES_TO_WIN[s.players]
        who = [c.organisations[p].name for p in range(s.players) if len(s.orgs[p].solved) >= goal]
        return f"{' and '.join(who)} resolved {goal} story cards (the rulebook's end)"
    if why == engine.END_DOMINATION:
        who = [
            c.organisations[p].name for p in range(s.players) if engine.dominates(s, p, s.options.domination)
        ]
        return f"{' and '.join(who)} dominates every district (the rulebook's end)"
    if why == engine.END_CAP:
        return (
            f"the turn cap of {s.options.max_turns} turns (the max_turns variant, not the rulebook's end: "
            "no Organization resolved enough story cards nor dominated)"
        )
    return ""


def _step_text(s: State, c: Content) -> str:
    if s.actor == -2:
        totals = [b.total for b in scoring.breakdown(s, c)]
        return f"Game over, ended by {end_text(s, c)}: " + ", ".join(
            f"{c.organisations[i].name} {v} VP" for i, v in enumerate(totals)
        )
    who = "chance" if s.actor == -1 else c.organisations[s.actor].name
    text = f"{PHASES[s.phase].capitalize()} phase: {STEPS[s.step]} ({who})"
    ctx = s.ctx
    if s.step == D_MOVE and ctx.agent >= 0:
        left = s.orgs[s.actor].actions
        text += (
            f": {_agent_name(s, c, ctx.agent)}, {ctx.mp} movement points left, "
            f"{left} action{'s' if left != 1 else ''} left"
        )
    elif s.step == D_TEST and ctx.agent >= 0:
        text += f": {_agent_name(s, c, ctx.agent)} in {c.district_names[ctx.district]}"
    elif s.step == D_INFLUENCE and ctx.district >= 0:
        text += f" in {c.district_names[ctx.district]}"
    return text


def _agent_name(s: State, c: Content, sheet: int) -> str:
    for a in s.agents:
        if a.sheet == sheet:
            return c.faces[2 * sheet + a.side].name
    return c.faces[2 * sheet].name


def _where(s: State, c: Content, a: Agent) -> str:
    if a.district < 0:
        return "in the HQ"
    text = f"in {c.district_names[a.district]}, zone {a.zone + 1}"
    if a.spot >= 0:
        kind = c.boards[s.city.boards[a.district]].positions[a.spot][1]
        text += f", on the {POSITION_KINDS[kind]} position"
    return text


def _agent_line(s: State, c: Content, a: Agent) -> str:
    face = c.faces[2 * a.sheet + a.side]
    features = ", ".join(f"{FEATURES[f].capitalize()} {feature(c, a, f)}" for f in range(5))
    head = f"{face.name}, health {a.health} of {max_health(c, a)}, {_where(s, c, a)}"
    notes = []
    if a.status:
        notes.append(" and ".join(STATUSES[i] for i in range(3) if a.status >> i & 1))
    if a.xp:
        notes.append(f"{a.xp} XP token{'s' if a.xp > 1 else ''}")
    if a.recruited:
        notes.append("recruited this turn")
    if a.trained:
        notes.append("trained this turn")
    kit = [
        f"{c.tokens[t].name}{' (broken)' if t in a.broken else ''} ({token_text(c, c.tokens[t])})"
        for t in a.kit
    ]
    text = f"{head}: {features}"
    if kit:
        text += "; kit: " + "; ".join(kit)
    if notes:
        text += "; " + ", ".join(notes)
    return text


def _validated(org: Org, case: int) -> int:
    return org.done[case] | org.marks[case]


def _story_rows(s: State, c: Content, seat: int, detail: bool) -> tuple[list[Row], list[str]]:
    org = s.orgs[seat]
    if org.story < 0:
        return [
            Row(label="Story card", value="none in progress (draw one in the strategy phase)", seat=seat)
        ], []
    story = c.stories[org.story]
    parts = []
    lines = []
    for case, card_index in enumerate(org.cases):
        card = c.investigations[card_index]
        done = _validated(org, case)
        n = len(card.missions)
        colour = COLOURS[card.colour]
        name = card.name if colour in card.name.lower() else f"{colour} {card.name}"
        parts.append(f"{name}: {bin(done).count('1')} of {n}")
        if detail:
            for m, mission in enumerate(card.missions):
                mark = "done" if done >> m & 1 else "to do"
                lines.append(f"{mark}: {mission_text(c, mission)}")
    value = f"{story.name} ({story.vp} VP); missions done on " + ", ".join(parts)
    return [Row(label="Story card", value=value, seat=seat)], lines


def _org_section(s: State, c: Content, seat: int, viewer: Viewer) -> Section:
    org = s.orgs[seat]
    goal = STORIES_TO_WIN[s.players]
    vp = sum(c.stories[x].vp for x in org.solved)
    xp = org_xp(s, seat)
    value = f"{org.money} D; stories solved {len(org.solved)} of {goal} ({vp} VP); XP tokens {xp}"
    rows = [Row(label="Resources", value=value, seat=seat)]
    story_rows, mission_lines = _story_rows(s, c, seat, detail=viewer in (seat, REFEREE))
    rows += story_rows
    if org.support:
        held = "; ".join(f"{c.support[u].name} ({support_text(c, c.support[u])})" for u in org.support)
        rows.append(Row(label="Support cards", value=held, seat=seat))
    deck = ", ".join(_plus(x) for x in org.deck) or "none"
    discard = ", ".join(_plus(x) for x in org.discard) or "none"
    rows.append(
        Row(
            label="Modifier deck",
            value=f"{len(org.deck)} to draw ({deck}), order unknown; discard pile: {discard}",
            seat=seat,
        )
    )
    lines = [_agent_line(s, c, a) for a in s.agents if a.org == seat] or ["no agent yet"]
    you = ", you" if viewer == seat else ""
    title = f"{c.organisations[seat].name} (seat {seat}{you})"
    return Section(title=title, rows=tuple(rows), lines=tuple(lines + mission_lines), seat=seat)


def _district_value(s: State, c: Content, d: int) -> str:
    parts = []
    influence = [
        f"{c.organisations[p].name} {s.orgs[p].influence[d]}"
        for p in range(s.players)
        if s.orgs[p].influence[d]
    ]
    if influence:
        parts.append("influence " + ", ".join(influence))
    agents = [f"{_agent_name(s, c, a.sheet)} (zone {a.zone + 1})" for a in s.agents if a.district == d]
    if agents:
        parts.append("agents " + ", ".join(agents))
    if s.fight is not None and s.fight.district == d:
        names = [
            f"{c.henchman_types[f.ref]} (zone {f.zone + 1})"
            for f in s.fight.fighters
            if f.kind == HENCHMAN and not f.gone
        ]
    else:
        names = [f"{c.henchmen[card].name} (zone {zone + 1})" for card, zone in s.city.henchmen[d]]
    if names:
        parts.append("henchmen " + ", ".join(names))
    if s.city.ambush[d] >= 0:
        parts.append(f"ambush token of {c.organisations[s.city.ambush[d]].name}")
    return "; ".join(parts) or "nobody"


def _news_value(s: State, c: Content) -> str:
    items = []
    for k, e in enumerate(s.city.news):
        if e < 0:
            continue
        card = c.events[e]
        staff = [c.organisations[p].name for p in range(s.players) if s.city.staff[k] >> p & 1]
        text = f"{k + 1}. {card.name} ({event_text(c, card)}"
        text += f"; staff: {', '.join(staff)})" if staff else ")"
        items.append(text)
    return "; ".join(items) or "empty"


def _new_eden_section(s: State, c: Content) -> Section:
    rows = [Row(label=c.district_names[d], value=_district_value(s, c, d)) for d in range(5)]
    rows.append(Row(label="News track", value=_news_value(s, c)))
    return Section(title="New Eden", rows=tuple(rows))


def _stock_value(s: State, c: Content, store: int, viewer: Viewer) -> str:
    items = []
    for slot, v in enumerate(s.market.stock[store]):
        if v == -1:
            items.append(f"{slot + 1}: empty")
        elif v >= 0:
            t = c.tokens[v]
            items.append(f"{slot + 1}: {t.name} {t.price} D ({token_text(c, t)})")
        else:
            _, cost, expert = c.backs[-2 - v]
            items.append(f"{slot + 1}: {cost} D{', expert' if expert else ''}")
    text = "; ".join(items)
    if viewer >= 0:
        shift = price_shift(s, c, viewer, store)
        if shift:
            text += f" (you pay {shift:+d} D each)"
    return text


def _market_sections(s: State, c: Content, viewer: Viewer) -> list[Section]:
    """The stores (rule: cyberverse/building-new-eden: cost side up), the Support card row and the
    Agent sheets for hire."""
    rows = [
        Row(label=_STORE_NAMES[k].capitalize(), value=_stock_value(s, c, k, viewer))
        for k in range(len(_STORE_NAMES))
    ]
    out = [
        Section(
            title="Stores by slot (face down, price side up; expert weapons need Combat 3)", rows=tuple(rows)
        )
    ]
    support = tuple(
        Row(label=c.support[u].name, value=support_text(c, c.support[u])) for u in s.market.support_row
    )
    out.append(Section(title="Support card row", rows=support or (Row(label="", value="empty"),)))
    if s.market.agent_row:
        lines = [_TABLE_HEAD]
        for sheet in s.market.agent_row:
            lines += [_table_row(c.faces[2 * sheet]), _table_row(c.faces[2 * sheet + 1])]
        out.append(Section(title="Agent sheets to recruit (either side)", lines=tuple(lines)))
    return out


def _choice_section(s: State, c: Content) -> Section:
    taken = {a.sheet for a in s.agents}
    sheets = sorted({a.a for a in engine_legal(s, c) if a.kind == "choose"} - taken)
    lines = [_TABLE_HEAD]
    for sheet in sheets:
        lines += [_table_row(c.faces[2 * sheet]), _table_row(c.faces[2 * sheet + 1])]
    title = "Agent sheets to choose from (a side of a sheet; the last to choose begins the first turn)"
    return Section(title=title, lines=tuple(lines), seat=s.actor if s.actor >= 0 else None)


def _fight_section(s: State, c: Content, viewer: Viewer) -> Section | None:
    fight = s.fight
    if fight is None:
        return None
    lines = []
    for j, f in enumerate(fight.fighters):
        if f.gone:
            continue
        if f.kind == AGENT:
            agent = next((x for x in s.agents if x.sheet == f.ref), None)
            zone = f", health {agent.health}, zone {agent.zone + 1}" if agent is not None else ""
            name = f"{_agent_name(s, c, f.ref)} ({c.organisations[f.org].name}{zone})"
        else:
            role = "teammate" if f.kind == TEAMMATE else "henchman"
            name = f"{c.henchman_types[f.ref]} ({role}, health {f.health}, zone {f.zone + 1})"
        if f.token == -1:
            token = "no combat token"
        elif f.token >= 0:
            t = c.combat_tokens[f.token]
            effect = f", {TOKEN_EFFECTS[t.effect].replace('_', ' ')}" if t.effect >= 0 else ""
            hidden_note = "" if f.shown else ", face down"
            token = f"combat token attack {t.attack}, defense {t.defense}{effect}{hidden_note}"
        else:
            token = "a face-down combat token"
        done = "; has acted" if f.done else ""
        lines.append(f"miniature {j + 1}: {name}: {token}{done}")
    title = f"Combat in {c.district_names[fight.district]} (brawl card {'red' if fight.red else 'green'})"
    return Section(title=title, lines=tuple(lines))


def _combat_token_text(c: Content, token: int) -> str:
    t = c.combat_tokens[token]
    effect = f", {TOKEN_EFFECTS[t.effect].replace('_', ' ')}" if t.effect >= 0 else ""
    return f"attack {t.attack}, defense {t.defense}{effect}"


def _drawn_section(s: State, c: Content) -> Section | None:
    """The cards drawn that wait for the viewer's choice (already hidden from the others by the
    observation): two Story cards to keep one, two Combat tokens to keep one."""
    if s.step == D_KEEP_STORY and s.ctx.cards and all(x >= 0 for x in s.ctx.cards):
        rows = []
        for x in s.ctx.cards:
            st = c.stories[x]
            need = ", ".join(COLOURS[k] for k in st.requires)
            rows.append(
                Row(label=st.name, value=f"{st.vp} VP; needs {need} investigation cards", seat=s.actor)
            )
        return Section(title="Story cards drawn: keep one, the other goes under the deck", rows=tuple(rows))
    fight = s.fight
    if s.step == D_KEEP_TOKEN and fight is not None and fight.pair and all(x >= 0 for x in fight.pair):
        tokens = tuple(
            Row(label=f"combat token {k + 1}", value=_combat_token_text(c, x), seat=s.actor)
            for k, x in enumerate(fight.pair)
        )
        return Section(title="Combat tokens drawn: keep one face down", rows=tokens)
    return None


def _turn_cap(s: State) -> str:
    """The turn cap in the headline when the game has one (the ``max_turns`` variant: the game ends
    after that turn if the rulebook's end, rule: cyberverse/end-of-game, has not come first)."""
    cap = s.options.max_turns
    return f" of at most {cap}" if cap else ""


def describe(s: State, c: Content, viewer: Viewer) -> Description:
    """What ``viewer`` may see (a seat: its observation): every Organization's HQ with its Agents,
    Story card and Modifier deck, New Eden's districts and News track, the stores and rows in the
    Strategy phase, the Agent sheets in the agent choice, the Combat under way."""
    if viewer != REFEREE:
        s = hidden_observation(s, viewer)
    order = list(range(s.players))
    if 0 <= viewer < s.players:
        order.remove(viewer)
        order.insert(0, viewer)
    sections: list[Section] = []
    if s.step == D_CHOOSE_AGENT:
        sections.append(_choice_section(s, c))
    fight = _fight_section(s, c, viewer)
    if fight is not None:
        sections.append(fight)
    drawn = _drawn_section(s, c)
    if drawn is not None:
        sections.append(drawn)
    orgs = [_org_section(s, c, seat, viewer) for seat in order]
    if 0 <= viewer < s.players:  # the viewer's HQ, then what it decides on, then the rivals
        sections.append(orgs.pop(0))
    if s.phase in (STRATEGY, PAYDAY):
        sections += _market_sections(s, c, viewer)
    if s.phase != SETUP:
        sections.append(_new_eden_section(s, c))
    sections += orgs
    who = viewer_name(viewer)
    if 0 <= viewer < s.players:
        who = f"you are {c.organisations[viewer].name} (seat {viewer})"
    return Description(
        game="cyberverse",
        viewer=viewer,
        headline=f"CyberVerse, turn {s.turn}{_turn_cap(s)}: {who}",
        step=_step_text(s, c),
        sections=tuple(sections),
    )


def _board_svg(s: State, c: Content, d: int, x0: int, y0: int) -> list[str]:
    board = c.boards[s.city.boards[d]]
    cell = 56
    out = [
        f'<text x="{x0}" y="{y0 - 6}" font-size="12" font-weight="bold">{d + 1}. {html.escape(c.district_names[d])} (district board {board.id})</text>'  # noqa: E501
    ]
    for z, (col, row) in enumerate(board.coords):
        x, y = x0 + col * cell, y0 + row * cell
        fill = ENTRY if z == board.entry else ZONE
        out.append(
            f'<rect x="{x}" y="{y}" width="{cell - 2}" height="{cell - 2}" fill="{fill}" stroke="{EDGE}" stroke-dasharray="3,2"/>'  # noqa: E501
        )
        out.append(f'<text x="{x + 3}" y="{y + 11}" font-size="9">{z + 1}</text>')
        p = board.position_at[z]
        if p >= 0:
            colour = POSITION_COLOURS[board.positions[p][1]]
            out.append(
                f'<circle cx="{x + cell - 12}" cy="{y + 10}" r="5" fill="{colour}"><title>{POSITION_KINDS[board.positions[p][1]]}</title></circle>'  # noqa: E501
            )
    for a_, b_ in board.walls:
        (ca, ra), (cb, rb) = board.coords[a_], board.coords[b_]
        if ra == rb:
            x = x0 + max(ca, cb) * cell - 1
            out.append(
                f'<line x1="{x}" y1="{y0 + ra * cell}" x2="{x}" y2="{y0 + ra * cell + cell - 2}" stroke="#222" stroke-width="4"/>'  # noqa: E501
            )
        else:
            y = y0 + max(ra, rb) * cell - 1
            out.append(
                f'<line x1="{x0 + ca * cell}" y1="{y}" x2="{x0 + ca * cell + cell - 2}" y2="{y}" stroke="#222" stroke-width="4"/>'  # noqa: E501
            )
    slots: dict[int, int] = {}
    minis: list[tuple[int, str, str]] = []
    for a in s.agents:
        if a.district == d:
            org = c.organisations[a.org]
            minis.append((a.zone, org.colour, f"{c.faces[2 * a.sheet + a.side].name} ({org.name})"))
    if s.fight is not None and s.fight.district == d:
        for f in s.fight.fighters:
            if f.kind != AGENT and not f.gone:
                role = "teammate" if f.kind == TEAMMATE else "henchman"
                colour = c.organisations[f.org].colour if f.kind == TEAMMATE else "#333"
                minis.append((f.zone, colour, f"{c.henchman_types[f.ref]} ({role})"))
    else:
        for card, zone in s.city.henchmen[d]:
            minis.append((zone, "#333", f"{c.henchmen[card].name} (henchman)"))
    infl = ", ".join(f"{c.organisations[p].name} {s.orgs[p].influence[d]}" for p in range(s.players))
    amb = s.city.ambush[d]
    names = [f"influence: {infl}" + (f"; ambush token of {c.organisations[amb].name}" if amb >= 0 else "")]
    for n, (zone, colour, name) in enumerate(minis):
        k = slots.get(zone, 0)
        slots[zone] = k + 1
        col, row = board.coords[zone]
        x, y = x0 + col * cell + 10 + 15 * k, y0 + row * cell + 36
        out.append(
            f'<circle cx="{x}" cy="{y}" r="7" fill="{colour}" stroke="#000" stroke-width="2"><title>{html.escape(name)}</title></circle>'  # noqa: E501
        )
        ink = _ink(colour)
        out.append(
            f'<text x="{x}" y="{y + 3}" font-size="8" fill="{ink}" text-anchor="middle">{n + 1}</text>'
        )
        names.append(f"{n + 1} {name} in zone {zone + 1}")
    lines = _wrap_svg(names[0], 60) + _wrap_svg("; ".join(names[1:]), 60)
    for k, line in enumerate(lines[:5]):
        out.append(f'<text x="{x0}" y="{y0 + 128 + 12 * k}" font-size="9">{html.escape(line)}</text>')
    return out


def _wrap_svg(text: str, width: int) -> list[str]:
    import textwrap

    return textwrap.wrap(text, width) if text else []


def _new_eden_svg(s: State, c: Content, cx: int, cy: int) -> list[str]:
    """The New Eden board: the 5 districts, the Movement points between them, the News track."""
    import math

    pts = [
        (cx + round(90 * math.sin(2 * math.pi * d / 5)), cy - round(80 * math.cos(2 * math.pi * d / 5)))
        for d in range(5)
    ]
    out = [f'<text x="{cx - 60}" y="{cy - 100}" font-size="12" font-weight="bold">New Eden</text>']
    for a in range(5):
        for b in range(a + 1, 5):
            (xa, ya), (xb, yb) = pts[a], pts[b]
            out.append(f'<line x1="{xa}" y1="{ya}" x2="{xb}" y2="{yb}" stroke="#bbb"/>')
            mx, my = (xa + xb) // 2, (ya + yb) // 2
            out.append(f'<text x="{mx}" y="{my}" font-size="9" fill="#777">{c.travel[a][b]}</text>')
    out.append(
        f'<text x="{cx - 150}" y="{cy + 96}" font-size="9" fill="#767676">'
        "on the lines: movement points between districts</text>"
    )
    for d, (x, y) in enumerate(pts):
        out.append(f'<circle cx="{x}" cy="{y}" r="13" fill="#fff" stroke="#333" stroke-width="2"/>')
        out.append(f'<text x="{x - 4}" y="{y + 4}" font-weight="bold">{d + 1}</text>')
    news = [f"{k + 1}: {c.events[e].name}" for k, e in enumerate(s.city.news) if e >= 0]
    for k, line in enumerate(_wrap_svg("news: " + ("; ".join(news) or "none"), NEWS_CHARS)):
        out.append(f'<text x="{cx - 150}" y="{cy + 110 + 12 * k}" font-size="10">{html.escape(line)}</text>')
    return out


def render(s: State, c: Content, viewer: Viewer) -> str:
    """New Eden (the districts with their movement costs and influence) and the 5 district boards."""
    if viewer != REFEREE:
        s = hidden_observation(s, viewer)
    width, height = 1000, 520 + 16 * s.players
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '  # noqa: E501
        'font-family="DejaVu Sans, sans-serif" font-size="11">',
        f'<rect width="{width}" height="{height}" fill="#fbfaf6"/>',
    ]
    for k, line in enumerate(_wrap_svg(f"{_step_text(s, c)} - turn {s.turn}", HEADLINE_CHARS)[:2]):
        out.append(
            f'<text x="16" y="{22 + 18 * k}" font-size="15" font-weight="bold">{html.escape(line)}</text>'
        )
    for d in range(5):
        x0 = 16 + (d % 3) * 330
        y0 = 60 + (d // 3) * 200
        out.extend(_board_svg(s, c, d, x0, y0))
    out.extend(_new_eden_svg(s, c, 826, 370))
    y = 480
    goal = STORIES_TO_WIN[s.players]
    for seat, org in enumerate(s.orgs):
        colour = c.organisations[seat].colour
        cards = len(org.support)
        text = (
            f"{c.organisations[seat].name}: {org.money} D, stories solved {len(org.solved)} of {goal}, "
            f"{cards} support card{'' if cards == 1 else 's'}"
        )
        out.append(
            f'<rect x="16" y="{y}" width="12" height="12" fill="{colour}" stroke="#222" stroke-width="2"/>'
        )
        out.append(f'<text x="32" y="{y + 10}" font-size="10">{html.escape(text)}</text>')
        y += 16
    x = 16
    for colour, word in zip(POSITION_COLOURS, POSITION_KINDS, strict=True):
        word += " position"
        out.append(f'<circle cx="{x + 5}" cy="{y + 27}" r="5" fill="{colour}"/>')
        out.append(f'<text x="{x + 14}" y="{y + 31}" font-size="10">{word}</text>')
        x += 160
    out.append(
        f'<rect x="{x}" y="{y + 21}" width="12" height="12" fill="{ENTRY}" stroke="{EDGE}" stroke-width="2"/>'
    )
    out.append(f'<text x="{x + 17}" y="{y + 31}" font-size="10">entry zone</text>')
    out.append(
        f'<line x1="{x + 100}" y1="{y + 27}" x2="{x + 130}" y2="{y + 27}" stroke="#222" stroke-width="4"/>'
    )
    out.append(f'<text x="{x + 136}" y="{y + 31}" font-size="10">wall (zones apart)</text>')
    out.append("</svg>")
    return "".join(out)


def _fact(label: str, value: float, text: str, unit: str = "", better: int = 0) -> Fact:
    return Fact(label=label, value=float(value), unit=unit, better=better, text=text)


def _story_missions(s: State, c: Content, seat: int) -> list[Mission]:
    """The Missions of ``seat``'s Story card not validated yet."""
    org = s.orgs[seat]
    out = []
    for case, card in enumerate(org.cases):
        done = _validated(org, case)
        out += [m for k, m in enumerate(c.investigations[card].missions) if not done >> k & 1]
    return out


def _skill_helps(f: AgentFace, m: Mission) -> bool:
    """Whether an Agent's skill adds to the test of Mission ``m`` (a test bonus on its Feature, or
    extra D on a hacking)."""
    skill = SKILLS[f.skill]
    if skill == "test_bonus":
        return f.skill_feature == m.feature
    return skill == "hack_bonus" and MISSION_KINDS[m.kind] == "hack"


def _face_facts(s: State, c: Content, f: AgentFace, seat: int) -> list[Fact]:
    """An Agent sheet's side: its Features, health, initiative, salary, skill, and the open
    Missions of the Story card it passes with a 0 Modifier card."""
    features = ", ".join(f"{FEATURES[i].capitalize()} {v}" for i, v in enumerate(f.features))
    missions = [m for m in _story_missions(s, c, seat) if m.kind in (0, 2) and m.threshold >= 0]
    helped = sum(1 for m in missions if _skill_helps(f, m))
    passes = [m for m in missions if f.features[m.feature] > m.threshold]
    # the four a short hint shows come first; the rest are there for "why #1 beats #2"
    facts = [
        _fact("features in all", sum(f.features), f"{features} (in all {sum(f.features)})", better=1),
        _fact(
            "health",
            f.health,
            f"health {f.health}, initiative {f.initiative} (lower acts first), salary {f.salary} D a turn",
            better=1,
        ),
        _fact(
            "open missions the skill helps",
            helped,
            f"skill: {f.skill_text}" + (f" (helps {helped} open missions of your story)" if helped else ""),
            better=1,
        ),
    ]
    if missions:
        text = f"passes {len(passes)} of the {len(missions)} open feature tests of your story with a 0 card"
        facts.append(_fact("open story tests passed with a 0 card", len(passes), text, better=1))
    facts += [
        _fact(FEATURES[i], v, f"{FEATURES[i].capitalize()} {v}", better=1) for i, v in enumerate(f.features)
    ]
    facts += [
        _fact("initiative", f.initiative, f"initiative {f.initiative} (lower acts first)", better=-1),
        _fact("salary", f.salary, f"salary {f.salary} D a turn", "D", better=-1),
    ]
    return facts


def _buy_facts(s: State, c: Content, a: Action) -> list[Fact]:
    store, slot, sheet = a.a, a.b, a.c
    seat = s.actor
    v = s.market.stock[store][slot]
    printed = slot_price(c, v)
    paid = price(s, c, seat, store, printed)
    agent = next(x for x in s.agents if x.sheet == sheet)
    name = _agent_name(s, c, sheet)
    room = c.equipment_slots - len(agent.kit) - 1
    if v >= 0:
        t = c.tokens[v]
        what = f"{t.name} ({token_text(c, t)})"
        expert = t.expert
    else:
        _, _, expert = c.backs[-2 - v]
        names = sorted(
            {
                f"{c.tokens[t].name} ({token_text(c, c.tokens[t])})"
                for t in s.market.stack[store]
                if c.tokens[t].back == -2 - v
            }
        )
        what = f"a face-down {CATEGORIES[store]} token{' (expert)' if expert else ''}"
        if names:
            what += ", one of: " + "; ".join(names)
    facts = [
        _fact(
            "price",
            paid,
            f"costs {paid} D (leaving {s.orgs[seat].money - paid} D): from slot {slot + 1}, {what}",
            "D",
            better=-1,
        ),
        _fact("kit places left", room, f"for {name}: kit places left after it {room} of {c.equipment_slots}"),
    ]
    if store == WEAPON:
        combat = feature(c, agent, 4)
        usable = not expert or combat >= 3
        text = f"{name} has Combat {combat}: " + ("can use it" if usable else "cannot use an expert weapon")
        facts.append(_fact("weapon usable", float(usable), text, better=1))
    return facts


def _move_facts(s: State, c: Content, a: Action) -> list[Fact]:
    """A movement step, with the same three facts on every candidate: the open Missions of the
    story where the Agent ends up (and the modifier cards that pass them), the Movement points
    left, the opponents there."""
    seat = s.actor
    sheet = s.ctx.agent
    agent = next(x for x in s.agents if x.sheet == sheet)
    name = _agent_name(s, c, sheet)
    d, left = agent.district, s.ctx.mp
    if a.kind in ("enter", "go"):
        d = a.a
        left -= travel_cost(s, c, agent, agent.district, d) if a.kind == "go" else 0
        what = f"{name} goes to {c.district_names[d]}"
    elif a.kind == "step":
        left -= 1
        what = f"{name} steps to zone {a.a + 1} of {c.district_names[d]}"
    elif a.kind == "spot":
        left -= 1
        kind = c.boards[s.city.boards[d]].positions[a.a][1]
        what = f"{name} takes the {POSITION_KINDS[kind]} position in {c.district_names[d]}"
        if POSITION_KINDS[kind] == "hacking":
            what += f" (a hacking there gives {hack_gain(s, c, agent, d)} D)"
    else:
        what = f"{name} stays {_where(s, c, agent)}"
    here = [m for m in _story_missions(s, c, seat) if m.district == d] if d >= 0 else []
    tests = "; ".join(_mission_odds(s, c, agent, m) for m in here)
    hench = len(s.city.henchmen[d]) if d >= 0 else 0
    others = sum(1 for x in s.agents if d >= 0 and x.district == d and x.org != seat)
    return [
        _fact(
            "open missions there",
            len(here),
            f"{what}: open missions of your story there {len(here)}" + (f" ({tests})" if tests else ""),
            better=1,
        ),
        _fact("movement points left", left, f"movement points left {left}", better=1),
        _fact(
            "opponents there",
            hench + others,
            f"opponents there: {hench} henchmen, {others} rival agents (a combat if they stay)",
            better=-1,
        ),
    ]


def _mission_odds(s: State, c: Content, agent: Agent, m: Mission) -> str:
    """A Mission and, for a test, the Modifier cards of the deck with which ``agent`` passes it."""
    from games.cyberverse.investigation import test_total
    from games.cyberverse.modifiers import deck_to_draw, succeeds

    text = mission_text(c, m).rsplit(" in ", 1)[0]
    if m.threshold < 0 or m.feature < 0:
        return text
    if MISSION_KINDS[m.kind] == "hack":
        text += " from the hacking position"
    org = s.orgs[agent.org]
    total = test_total(s, c, agent, m.feature, xp=0, district=m.district)
    pile = deck_to_draw(org.deck, org.discard)
    wins = sum(1 for x in pile if succeeds(total, x, m.threshold))
    return f"{text}: passes with {wins} of the {len(pile)} modifier cards"


def _hq_facts(s: State, c: Content, a: Action) -> list[Fact]:
    seat = s.actor
    k = a.kind
    if k in ("choose", "recruit"):
        return _face_facts(s, c, c.faces[2 * a.a + a.b], seat)
    if k == "buy":
        return _buy_facts(s, c, a)
    if k in ("repair", "resell", "lose"):
        t = c.tokens[a.b]
        verb = {"repair": "repairs", "resell": "resells", "lose": "loses"}[k]
        text = f"{verb} {t.name} ({token_text(c, t)}) of {_agent_name(s, c, a.a)}"
        return [_fact("token price", t.price, text, "D")]
    if k == "support":
        u = c.support[a.a]
        held = len(s.orgs[seat].support) + (0 if a.b >= 0 else 1)
        limit = support_limit(s, c, seat)
        text = f"takes {u.name}: {support_text(c, u)} (support cards held: {held} of {limit})"
        if a.b >= 0:
            text += f"; discards {c.support[a.b].name}"
        return [_fact("henchmen made teammates", u.teammates, text, better=1)]
    if k == "train":
        agent = next(x for x in s.agents if x.sheet == a.a)
        text = (
            f"{_agent_name(s, c, a.a)} heals 1 (health {agent.health} of {max_health(c, agent)}) "
            "and gains 1 XP, but is not activated this turn and draws no salary"
        )
        return [_fact("health after", min(agent.health + 1, max_health(c, agent)), text, better=1)]
    if k == "story":
        return [_fact("story", 1, "draws 2 story cards and keeps one: its investigation cards come with it")]
    if k == "done":
        salaries = sum(c.faces[2 * x.sheet + x.side].salary for x in s.agents if x.org == seat)
        text = f"keeps {s.orgs[seat].money} D; salaries at payday: {salaries} D"
        return [_fact("resources kept", s.orgs[seat].money, text, "D", better=1)]
    if k == "keep" and s.fight is None:
        st = c.stories[a.a]
        need = ", ".join(COLOURS[x] for x in st.requires)
        return [
            _fact("story VP", st.vp, f"keeps {st.name}: {st.vp} VP, needs {need} investigations", better=1)
        ]
    if k == "keep":
        ct = c.combat_tokens[a.a]
        effect = f", {TOKEN_EFFECTS[ct.effect].replace('_', ' ')}" if ct.effect >= 0 else ""
        return [
            _fact("token attack", ct.attack, f"attack {ct.attack}{effect}", better=1),
            _fact("token defense", ct.defense, f"defense {ct.defense}", better=1),
        ]
    return []


def _agent_health(s: State, sheet: int) -> int:
    return next((x.health for x in s.agents if x.sheet == sheet), 0)


def _fight_facts(s: State, c: Content, a: Action) -> list[Fact]:
    """Combat moves: where the miniature goes, whom it attacks and with what."""
    assert s.fight is not None
    k = a.kind
    if k == "step":
        return [_fact("moves in combat", 1, f"moves to zone {a.a + 1}")]
    if k == "spot":
        d = s.fight.district
        kind = c.boards[s.city.boards[d]].positions[a.a][1]
        return [_fact("moves in combat", 1, f"takes the {POSITION_KINDS[kind]} position")]
    if k == "attack":
        target = s.fight.fighters[a.a]
        if target.kind == AGENT:
            who = f"{_agent_name(s, c, target.ref)} of {c.organisations[target.org].name}"
        else:
            who = f"the {c.henchman_types[target.ref]} (health {target.health})"
        health = target.health if target.kind != AGENT else _agent_health(s, target.ref)
        facts = [_fact("target health", health, f"attacks {who}", better=-1)]
        if a.b >= 0:
            t = c.tokens[a.b]
            facts.append(_fact("weapon bonus", t.bonus, f"with {t.name} ({token_text(c, t)})", better=1))
        else:
            facts.append(_fact("weapon bonus", 0, "bare-handed", better=1))
        facts.append(_fact("XP spent", a.c, f"XP tokens spent: {a.c}", better=-1))
        return facts + _attack_odds(s, c, a, health)
    return []


def _attack_odds(s: State, c: Content, a: Action, health: int) -> list[Fact]:
    """rule: cyberverse/damage-table - the exact odds of the attack over the Combat tokens its
    Organization cannot see (``combat.attack_outcomes`` on the seat's observation)."""
    assert s.fight is not None
    xp = s.fight.xp if s.step == D_SECOND else a.c
    obs = hidden_observation(s, s.actor)
    dist = attack_outcomes(obs, c, s.fight.queue[0], a.a, weapon=a.b, xp=xp)
    hurt = sum(p for (hp, _), p in dist.items() if hp > 0)
    out = sum(p for (hp, _), p in dist.items() if hp >= health > 0)
    expected = sum(hp * p for (hp, _), p in dist.items())
    return [
        Fact(
            label="chance to take Health points (exact)",
            value=round(hurt, 4),
            unit="probability",
            better=1,
            text=f"takes at least 1 Health point with probability {hurt:.0%} (over the Combat tokens "
            "you cannot see)",
        ),
        Fact(label="expected Health points taken", value=round(expected, 3), unit="health", better=1),
        Fact(label="chance to put the target out (exact)", value=round(out, 4), unit="probability", better=1),
    ]


def _fighter_words(s: State, c: Content, j: int) -> tuple[str, int]:
    """A miniature of the Combat in words, and its Health points."""
    assert s.fight is not None
    f = s.fight.fighters[j]
    if f.kind == AGENT:
        return f"{_agent_name(s, c, f.ref)} of {c.organisations[f.org].name}", _agent_health(s, f.ref)
    card = c.henchmen[f.card if f.card >= 0 else c.henchman_type_card[f.ref]]
    kind = "ranged" if card.ranged else "close combat"
    role = "teammate" if f.kind == TEAMMATE else "henchman"
    words = (
        f"the {c.henchman_types[f.ref]} {role} in zone {f.zone + 1} "
        f"(miniature {j + 1}; attack {card.attack}, defense {card.defense}, {kind})"
    )
    return words, f.health


def _combat_choice_facts(s: State, c: Content, a: Action) -> list[Fact]:
    """Choices around a Combat: Support cards for Teammates, which Henchman turns, whom a Henchman
    attacks, where a target is thrown or dodges."""
    k = a.kind
    if k in ("discard-support", "drop-support"):
        u = c.support[a.a]
        if k == "drop-support":
            text = f"discards {u.name} ({support_text(c, u)}) to stay within the reputation limit"
            return [_fact("henchmen made teammates", u.teammates, text, better=-1)]
        text = f"discards {u.name}: {u.teammates} henchmen become your teammates in this combat"
        return [_fact("henchmen made teammates", u.teammates, text, better=1)]
    if k == "no-support":
        return [_fact("henchmen made teammates", 0, "keeps the support cards: no teammates in this combat")]
    if s.fight is None:
        return []
    if k in ("grill", "no-grill"):
        target, _ = _fighter_words(s, c, s.fight.target)
        if k == "no-grill":
            return [_fact("cyber-implants grilled", 0, f"grills no cyber-implant of {target}")]
        t = c.tokens[a.a]
        text = f"grills {t.name} ({token_text(c, t)}) of {target}: flipped over until repaired"
        return [_fact("cyber-implants grilled", 1, text, better=1)]
    if k == "convert":
        words, health = _fighter_words(s, c, a.a)
        return [
            _fact("teammate's health", health, f"{words}, health {health}, fights on your side", better=1)
        ]
    if k == "send":
        words, health = _fighter_words(s, c, a.a)
        return [_fact("target health", health, f"the henchman attacks {words}, health {health}", better=-1)]
    if k in ("project", "dodge"):
        here = sum(1 for f in s.fight.fighters if not f.gone and f.kind != AGENT and f.zone == a.a)
        verb = "throws the target" if k == "project" else "dodges"
        return [
            _fact(
                "miniatures in that zone",
                here,
                f"{verb} to zone {a.a + 1}, where {here} henchmen or teammates stand",
            )
        ]
    return []


def _field_facts(s: State, c: Content, a: Action) -> list[Fact]:
    seat = s.actor
    k = a.kind
    if k in ("enter", "go", "step", "spot", "stay", "stop") and s.step == D_MOVE:
        return _move_facts(s, c, a)
    if s.fight is not None and k not in ("hold", "stand", "pass"):
        return _fight_facts(s, c, a)
    if k == "test":
        org = s.orgs[seat]
        case = c.investigations[org.cases[a.a >> 4]]
        m = case.missions[a.a & 15]
        text = f"mission {(a.a & 15) + 1} of {case.name}: {mission_text(c, m)}; XP tokens spent {a.b}"
        return [_fact("mission reward", m.reward, text, "D", better=1)]
    if k == "pay":
        salaries = sum(c.faces[2 * x.sheet + x.side].salary for x in s.agents if x.org == seat)
        text = f"pays the salaries, {salaries} D, from {s.orgs[seat].money} D (an agent not paid leaves)"
        return [_fact("salaries paid", salaries, text, "D", better=-1)]
    if k == "hold" and s.step == D_ATTACK:
        return [
            _fact("target health", 0, "holds: no attack with this miniature", better=-1),
            _fact("weapon bonus", 0, "no weapon used", better=1),
            _fact("XP spent", 0, "XP tokens spent: 0", better=-1),
        ]
    if k == "hold":
        return [_fact("moves in combat", 0, "stays where it is")]
    if k in ("stand", "pass", "stay", "stop"):
        words = {"stand": "stands firm", "pass": "passes"}
        return [_fact("acts", 0, words.get(k, "does nothing more"))]
    if k == "no-test":
        return [_fact("mission reward", 0, "takes no test: the modifier deck stays as it is", "D", better=1)]
    if k in ("place", "remove"):
        d = a.a
        mine = s.orgs[seat].influence[d] + (1 if k == "place" else 0)
        best = max(
            (
                s.orgs[p].influence[d] - (1 if k == "remove" and p == a.b else 0)
                for p in range(s.players)
                if p != seat
            ),
            default=0,
        )
        text = f"your influence in {c.district_names[d]} {mine}, best rival {best}"
        facts = [_fact("influence margin", mine - best, text, better=1)]
        if k == "remove":
            left = s.orgs[a.b].influence[d] - 1
            who = c.organisations[a.b].name
            text = f"{who} keeps {left} influence tokens in {c.district_names[d]}"
            facts.append(_fact("rival influence left", left, text, better=-1))
        return facts
    if k == "ambush":
        rivals = sum(1 for x in s.agents if x.district == a.a and x.org != seat)
        text = f"an ambush token waits in {c.district_names[a.a]}; rival agents there now {rivals}"
        return [_fact("rival agents there", rivals, text, better=1)]
    if k == "staff":
        card = c.events[s.city.news[a.a]]
        text = f"staff on {card.name}: {_reward_text(c, card)}; its effect spares you"
        return [_fact("staff reward", card.reward_value if card.reward == 0 else 1, text, better=1)]
    if k == "rescue":
        agent = next(x for x in s.agents if x.sheet == a.a)
        text = f"brings {_agent_name(s, c, a.a)} back to the HQ, healed by 1 (health {agent.health} now)"
        return [_fact("health of the agent rescued", agent.health, text, better=-1)]
    return []


def explain(s: State, c: Content, a: Action) -> list[Fact]:
    """What the move does, in facts that differ between candidates: the Agent sheet's Features and
    skill, the token and who gets it, the district's open Missions and opponents, the test odds,
    influence margins; then the change in Resources and victory points."""
    from games.cyberverse import engine

    seat = s.actor
    if seat < 0:
        return []
    facts = _hq_facts(s, c, a) or _combat_choice_facts(s, c, a) or _field_facts(s, c, a)
    if s.step == D_TEST:
        odds = feature_test_odds(s, c, a)
        facts.append(Fact(label="test success odds", value=odds, unit="probability", better=1))
    before = scoring.breakdown(s, c)[seat]
    after = scoring.breakdown(engine.perform(s, c, a), c)[seat]
    if s.step in (D_STRATEGY, D_AUX, D_PAYDAY):  # moves of many kinds: one fact, its cost, says it all
        cost = before.resources - after.resources
        words = "; ".join(f.sentence() for f in facts) or "does it"
        if a.kind == "recruit":
            words = f"recruits {c.faces[2 * a.a + a.b].name}: {words}"
        if cost and "costs " not in words:
            words += f" ({'costs' if cost > 0 else 'brings'} {abs(cost)} D)"
        facts = [Fact(label="cost", value=float(cost), unit="D", better=-1, text=words)]
    facts += [
        Fact(label="resources change", value=float(after.resources - before.resources), unit="D", better=1),
        Fact(label="victory points change", value=float(after.total - before.total), unit="VP", better=1),
    ]
    return facts


def feature_test_odds(s: State, c: Content, a: Action) -> float:
    """rule: cyberverse/feature-test - the exact odds of the test ``a`` (0 for taking no test), from
    the Modifier deck as it stands."""
    from games.cyberverse.investigation import test_total
    from games.cyberverse.modifiers import deck_to_draw, succeeds

    if a.kind != "test":
        return 0.0
    org = s.orgs[s.actor]
    agent = next(x for x in s.agents if x.sheet == s.ctx.agent)
    mission = c.investigations[org.cases[a.a >> 4]].missions[a.a & 15]
    total = test_total(s, c, agent, mission.feature, xp=a.b, district=s.ctx.district)
    pile = deck_to_draw(org.deck, org.discard)
    return sum(1 for x in pile if succeeds(total, x, mission.threshold)) / len(pile) if pile else 0.0


assert AGENT == 0
