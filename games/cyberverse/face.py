"""The face of CyberVerse: the description of a position in the rulebook's words, log lines a seat
may not see, and the end of the game in words (games/core/face.py). The catalogue is in
``catalogue.py``, the SVG in ``render.py``, the facts behind a move in ``explain.py``."""

from __future__ import annotations

from games.core.face import REFEREE, Description, Row, Section, Viewer, viewer_name
from games.cyberverse import engine, scoring
from games.cyberverse.agents import feature, max_health, org_xp
from games.cyberverse.catalogue import (
    STORE_NAMES,
    TABLE_HEAD,
    event_text,
    mission_text,
    plus,
    support_text,
    table_row,
    token_text,
)
from games.cyberverse.content import COLOURS, FEATURES, POSITION_KINDS, STATUSES, TOKEN_EFFECTS, Content
from games.cyberverse.engine import STORIES_TO_WIN
from games.cyberverse.engine import legal_actions as engine_legal
from games.cyberverse.hidden import observation as hidden_observation
from games.cyberverse.state import (
    AGENT,
    C_FIGHTER_TOKEN,
    C_STORY,
    C_TOKEN,
    D_CHOOSE_AGENT,
    D_INFLUENCE,
    D_KEEP_STORY,
    D_KEEP_TOKEN,
    D_MOVE,
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
from games.cyberverse.strategy import price_shift

__all__ = ["describe", "end_text", "hidden_line", "secret_to"]


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


def step_text(s: State, c: Content) -> str:
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
            f": {agent_name(s, c, ctx.agent)}, {ctx.mp} movement points left, "
            f"{left} action{'s' if left != 1 else ''} left"
        )
    elif s.step == D_TEST and ctx.agent >= 0:
        text += f": {agent_name(s, c, ctx.agent)} in {c.district_names[ctx.district]}"
    elif s.step == D_INFLUENCE and ctx.district >= 0:
        text += f" in {c.district_names[ctx.district]}"
    return text


def agent_name(s: State, c: Content, sheet: int) -> str:
    for a in s.agents:
        if a.sheet == sheet:
            return c.faces[2 * sheet + a.side].name
    return c.faces[2 * sheet].name


def where(s: State, c: Content, a: Agent) -> str:
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
    head = f"{face.name}, health {a.health} of {max_health(c, a)}, {where(s, c, a)}"
    notes = []
    if a.status:
        notes.append(" and ".join(STATUSES[i] for i in a.status))
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


def validated(org: Org, case: int) -> tuple[int, ...]:
    """The Missions validated on the Investigation card in place ``case`` (with an XP token or
    marked), sorted."""
    return tuple(sorted({*org.done[case], *org.marks[case]}))


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
        done = validated(org, case)
        n = len(card.missions)
        colour = COLOURS[card.colour]
        name = card.name if colour in card.name.lower() else f"{colour} {card.name}"
        parts.append(f"{name}: {len(done)} of {n}")
        if detail:
            for m, mission in enumerate(card.missions):
                mark = "done" if m in done else "to do"
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
    deck = ", ".join(plus(x) for x in org.deck) or "none"
    discard = ", ".join(plus(x) for x in org.discard) or "none"
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
    agents = [f"{agent_name(s, c, a.sheet)} (zone {a.zone + 1})" for a in s.agents if a.district == d]
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
        staff = [c.organisations[p].name for p in range(s.players) if p in s.city.staff[k]]
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
        Row(label=STORE_NAMES[k].capitalize(), value=_stock_value(s, c, k, viewer))
        for k in range(len(STORE_NAMES))
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
        lines = [TABLE_HEAD]
        for sheet in s.market.agent_row:
            lines += [table_row(c.faces[2 * sheet]), table_row(c.faces[2 * sheet + 1])]
        out.append(Section(title="Agent sheets to recruit (either side)", lines=tuple(lines)))
    return out


def _choice_section(s: State, c: Content) -> Section:
    taken = {a.sheet for a in s.agents}
    sheets = sorted({a.a for a in engine_legal(s, c) if a.kind == "choose"} - taken)
    lines = [TABLE_HEAD]
    for sheet in sheets:
        lines += [table_row(c.faces[2 * sheet]), table_row(c.faces[2 * sheet + 1])]
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
            name = f"{agent_name(s, c, f.ref)} ({c.organisations[f.org].name}{zone})"
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
        step=step_text(s, c),
        sections=tuple(sections),
    )
