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
from games.cyberverse import scoring
from games.cyberverse.agents import feature
from games.cyberverse.content import (
    CATEGORIES,
    COLOURS,
    FEATURES,
    POSITION_KINDS,
    STATUSES,
    TOKEN_EFFECTS,
    Content,
)
from games.cyberverse.engine import STORIES_TO_WIN
from games.cyberverse.state import (
    AGENT,
    C_FIGHTER_TOKEN,
    C_STORY,
    C_TOKEN,
    D_KEEP_TOKEN,
    D_TEST,
    HENCHMAN,
    PHASES,
    STEPS,
    TEAMMATE,
    Action,
    State,
)

__all__ = ["catalogue", "describe", "explain", "render"]


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


def _step_text(s: State, c: Content) -> str:
    if s.actor == -2:
        totals = [b.total for b in scoring.breakdown(s, c)]
        return "game over: " + ", ".join(f"{c.organisations[i].name} {v} VP" for i, v in enumerate(totals))
    who = "chance" if s.actor == -1 else c.organisations[s.actor].name
    return f"{PHASES[s.phase]} phase: {STEPS[s.step]} ({who})"


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


def _fight_lines(s: State, c: Content, viewer: Viewer) -> tuple[str, ...]:
    fight = s.fight
    if fight is None:
        return ()
    lines = [f"combat in {c.district_names[fight.district]}, brawl card {'red' if fight.red else 'green'}"]
    for j, f in enumerate(fight.fighters):
        if f.gone:
            continue
        if f.kind == AGENT:
            name = c.faces[2 * f.ref + next(a.side for a in s.agents if a.sheet == f.ref)].name
        else:
            role = "teammate" if f.kind == TEAMMATE else "henchman"
            name = f"{c.henchman_types[f.ref]} ({role}, {f.health} HP)"
        seen = f.shown or viewer == REFEREE or (f.kind == AGENT and viewer == f.org)
        token = (
            "none"
            if f.token == -1
            else (c.combat_tokens[f.token].id if seen and f.token >= 0 else "face down")
        )
        lines.append(f"{j + 1}. {name}: token {token}")
    return tuple(lines)


def describe(s: State, c: Content, viewer: Viewer) -> Description:
    """The board, every Organization's HQ and its Agents, and the Combat under way with the Combat
    tokens ``viewer`` may see."""
    goal = STORIES_TO_WIN[s.players]
    sections = []
    for seat, org in enumerate(s.orgs):
        deck = " ".join(f"{x:+d}" for x in org.deck) or "empty"
        influence = " ".join(str(x) for x in org.influence)
        value = f"{org.money} D, stories {len(org.solved)}/{goal}, influence {influence}, deck {deck}"
        rows = [Row(label="HQ", value=value, seat=seat)]
        lines = []
        for a in s.agents:
            if a.org != seat:
                continue
            where = "HQ" if a.district < 0 else f"district {a.district + 1} zone {a.zone + 1}"
            status = ",".join(STATUSES[i] for i in range(3) if a.status >> i & 1) or "-"
            lines.append(f"{c.faces[2 * a.sheet + a.side].name}: {a.health} HP, {where}, status {status}")
        sections.append(
            Section(title=c.organisations[seat].name, rows=tuple(rows), lines=tuple(lines), seat=seat)
        )
    news = [c.events[e].name for e in s.city.news if e >= 0]
    sections.append(
        Section(title="New Eden", lines=("news: " + ("; ".join(news) or "none"), *_fight_lines(s, c, viewer)))
    )
    return Description(
        game="cyberverse",
        viewer=viewer,
        headline=f"CyberVerse, turn {s.turn}: {viewer_name(viewer)}",
        step=_step_text(s, c),
        sections=tuple(sections),
    )


def _board_svg(s: State, c: Content, d: int, x0: int, y0: int) -> list[str]:
    board = c.boards[s.city.boards[d]]
    cell = 56
    out = [
        f'<text x="{x0}" y="{y0 - 6}" font-size="12" font-weight="bold">{d + 1}. {html.escape(c.district_names[d])} ({board.id})</text>'  # noqa: E501
    ]
    for z, (col, row) in enumerate(board.coords):
        x, y = x0 + col * cell, y0 + row * cell
        fill = "#dfe9f3" if z == board.entry else "#f4f1ea"
        out.append(
            f'<rect x="{x}" y="{y}" width="{cell - 2}" height="{cell - 2}" fill="{fill}" stroke="#999" stroke-dasharray="3,2"/>'  # noqa: E501
        )
        out.append(f'<text x="{x + 3}" y="{y + 11}" font-size="9">{z + 1}</text>')
        p = board.position_at[z]
        if p >= 0:
            colour = ("#e67e22", "#2c82c9", "#16a085")[board.positions[p][1]]
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
            minis.append((a.zone, c.organisations[a.org].colour, c.faces[2 * a.sheet + a.side].name))
    if s.fight is not None and s.fight.district == d:
        for f in s.fight.fighters:
            if f.kind == HENCHMAN and not f.gone:
                minis.append((f.zone, "#333", c.henchman_types[f.ref]))
    else:
        for card, zone in s.city.henchmen[d]:
            minis.append((zone, "#333", c.henchmen[card].name))
    for zone, colour, name in minis:
        k = slots.get(zone, 0)
        slots[zone] = k + 1
        col, row = board.coords[zone]
        x, y = x0 + col * cell + 10 + 15 * k, y0 + row * cell + 34
        out.append(
            f'<circle cx="{x}" cy="{y}" r="6" fill="{colour}" stroke="#000"><title>{html.escape(name)}</title></circle>'  # noqa: E501
        )
    return out


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
    for d, (x, y) in enumerate(pts):
        out.append(f'<circle cx="{x}" cy="{y}" r="13" fill="#fff" stroke="#333"/>')
        out.append(f'<text x="{x - 4}" y="{y + 4}" font-weight="bold">{d + 1}</text>')
    news = [f"{k + 1}: {c.events[e].name}" for k, e in enumerate(s.city.news) if e >= 0]
    out.append(
        f'<text x="{cx - 150}" y="{cy + 110}" font-size="10">news: {html.escape("; ".join(news) or "none")}</text>'  # noqa: E501
    )
    return out


def render(s: State, c: Content, viewer: Viewer) -> str:
    """New Eden (the districts with their movement costs and influence) and the 5 district boards."""
    width, height = 1000, 470
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '  # noqa: E501
        'font-family="DejaVu Sans, sans-serif" font-size="11">',
        f'<rect width="{width}" height="{height}" fill="#fbfaf6"/>',
        f'<text x="16" y="22" font-size="15" font-weight="bold">{html.escape(_step_text(s, c))} - turn {s.turn}</text>',  # noqa: E501
    ]
    for d in range(5):
        x0 = 16 + (d % 3) * 330
        y0 = 60 + (d // 3) * 170
        out.extend(_board_svg(s, c, d, x0, y0))
        infl = " ".join(f"{c.organisations[p].name[:4]}:{s.orgs[p].influence[d]}" for p in range(s.players))
        amb = s.city.ambush[d]
        extra = f" ambush: {c.organisations[amb].name}" if amb >= 0 else ""
        out.append(
            f'<text x="{x0}" y="{y0 + 130}" font-size="10">influence {html.escape(infl)}{html.escape(extra)}</text>'  # noqa: E501
        )
    out.extend(_new_eden_svg(s, c, 820, 320))
    y = 440
    for seat, org in enumerate(s.orgs):
        colour = c.organisations[seat].colour
        text = f"{c.organisations[seat].name}: {org.money} D, {len(org.solved)} stories, support {len(org.support)}"  # noqa: E501
        out.append(f'<rect x="{16 + 240 * seat}" y="{y}" width="12" height="12" fill="{colour}"/>')
        out.append(f'<text x="{32 + 240 * seat}" y="{y + 10}">{html.escape(text)}</text>')
    out.append("</svg>")
    return "".join(out)


def explain(s: State, c: Content, a: Action) -> list[Fact]:
    """What the move changes now: Resources and victory points of the mover (same labels on every move)."""
    from games.cyberverse import engine

    seat = s.actor
    if seat < 0:
        return []
    before = scoring.breakdown(s, c)[seat]
    after_state = engine.perform(s, c, a)
    after = scoring.breakdown(after_state, c)[seat]
    mine = [x for x in s.agents if x.org == seat]
    analysis = max((feature(c, x, 1) for x in mine), default=0)
    facts = [
        Fact(label="resources change", value=float(after.resources - before.resources), unit="D", better=1),
        Fact(label="victory points change", value=float(after.total - before.total), unit="VP", better=1),
        Fact(label="best analysis in the team", value=float(analysis), unit="", better=1),
    ]
    if s.step == D_TEST:
        odds = feature_test_odds(s, c, a)
        facts.append(Fact(label="test success odds", value=odds, unit="probability", better=1))
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
