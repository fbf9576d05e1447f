"""The Activation phase: 3 Actions per Organization, Agents moving, then the Auxiliary Actions.

rule: cyberverse/activation-phase - each Organization must perform 3 Actions; Agents move in the
order of their Initiative (all Organizations' Agents interleaved, lowest first); moving is not
mandatory; an Agent in its HQ may be placed directly on the district board of its choice. Then,
starting with the Organization with the most Actions left (ties: the richest), the Auxiliary
Actions: recruit an Agent (at most 3, choosing the face; it starts with no XP or Supply tokens and
cannot be activated this turn), place a Staff token on an Event card, place an Ambush token on a
district (one per district), rescue an Agent (200 D plus 100 D per Status token, back to its HQ,
healed by 1, no salary this turn), draw or replace a Story card.
rule: cyberverse/moving-agents - the New Eden board gives the Movement points between districts;
an Agent enters a district on its Entry zone and spends its remaining points to move to adjacent
zones; to leave a district it must stand on the Entry zone (also the Exit zone).
cyberverse/new-eden-board - walls are not adjacency.
cyberverse/tactical-positions - occupying a tactical position costs 1 Movement point.
cyberverse/status-tokens - Bleeding: 1 Health point lost at the start of each Activation
phase; Suppression: Movement -1; Wound: cannot move to another district.

Readings (docs/cyberverse.md): moving one Agent (any number of its steps) is one Action; an Agent
placed from its HQ stands on the Entry zone with all its Movement points; within one activation an
Agent does not go back to a district it stood in (a vehicle making district moves free would
otherwise allow endless loops); with ``forced_actions`` an Organization passes only when no
Auxiliary Action is possible.
"""

from __future__ import annotations

from games.cyberverse import flow, stories
from games.cyberverse.agents import (
    free_travel,
    heal,
    heals_each_turn,
    lose_health,
    movement_points,
    travel_discount,
)
from games.cyberverse.board import BOARD_LIMIT, ZONE_LIMIT, board_of, occupancy
from games.cyberverse.content import Content
from games.cyberverse.events import STAFF_TOKENS, tolls
from games.cyberverse.investigation import gain_influence
from games.cyberverse.state import (
    AGENT,
    BLEEDING,
    C_AGENT_ROW,
    D_AUX,
    D_MOVE,
    WOUND,
    Action,
    Agent,
    State,
    act,
)
from games.cyberverse.work import Work, remove_one, with_member

__all__ = [
    "ACTIONS",
    "AMBUSH_TOKENS",
    "MAX_AGENTS",
    "RESCUE_COST",
    "add_agent",
    "ambush_left",
    "aux",
    "begin",
    "begin_aux",
    "legal_aux",
    "legal_move",
    "move",
    "new_agent",
    "on_agent_row",
    "refill_agents",
    "rescue_cost",
    "resume_aux",
    "travel_cost",
    "travel_costs",
]

ACTIONS = 3
"""rule: cyberverse/activation-phase - each Organization must perform 3 Actions."""
MAX_AGENTS = 3
"""cyberverse/agent-sheets - a team of at most 3 Agents."""
AMBUSH_TOKENS = 3
"""cyberverse/components - 12 Ambush tokens, 3 per Organization."""
RESCUE_COST = 200
"""rule: cyberverse/activation-phase - rescuing an Agent costs 200 D ..."""
RESCUE_PER_STATUS = 100
"""... plus 100 D per Status token."""
AGENT_ROW = 3
"""cyberverse/building-new-eden - 3 Agent sheets in the row."""


def begin(w: Work, c: Content) -> None:
    """rule: cyberverse/activation-phase - 3 Actions each; Bleeding; Agents by Initiative."""
    for seat in range(w.players):
        w.set_org(seat, actions=ACTIONS)
    for a in w.agents:  # cyberverse/status-tokens - Bleeding at the start of the phase
        if BLEEDING in a.status:
            lose_health(w, c, a.sheet, 1)
    for a in w.agents:  # authored: the skill "medic" and medkit gear heal after Bleeding
        n = heals_each_turn(c, a)
        if n:
            health, status = heal(c, a, n)
            w.set_agent(a.sheet, health=health, status=status)
    queue = tuple(a.sheet for a in w.agents if not a.recruited and not a.trained)
    w.set_ctx(queue=queue, agent=-1)
    _next_agent(w, c)


def _next_agent(w: Work, c: Content) -> None:
    queue = w.ctx.queue
    while queue:
        sheet = queue[0]
        queue = queue[1:]
        i = w.agent_at(sheet)
        if i < 0:
            continue
        agent = w.agents[i]
        if w.orgs[agent.org].actions <= 0:
            continue
        visited = (agent.district,) if agent.district >= 0 else ()
        w.set_ctx(queue=queue, agent=sheet, mp=movement_points(c, agent), visited=visited, started=False)
        flow.decide(w, D_MOVE, agent.org)
        return
    w.set_ctx(queue=(), agent=-1, mp=0, visited=(), started=False)
    flow.finish(w, c)


def travel_costs(state: State | Work, c: Content, agent: Agent, src: int) -> list[int]:
    """Per district, the Movement points to go there from district ``src`` (rule:
    cyberverse/moving-agents): the New Eden board's cost (none with a vehicle that makes district
    moves free, 1 less with the skill ``fast_travel``), plus 1 per ``toll`` Event card on the
    destination (authored)."""
    toll = tolls(state, c, agent.org)
    if free_travel(c, agent):
        return [toll[x] for x in range(5)]
    row = c.travel[src]
    off = travel_discount(c, agent)
    return [max(0, row[x] - off) + toll[x] for x in range(5)]


def travel_cost(state: State | Work, c: Content, agent: Agent, src: int, dst: int) -> int:
    """Movement points to go from district ``src`` to ``dst`` (:func:`travel_costs`)."""
    return travel_costs(state, c, agent, src)[dst]


def _room(state: State | Work, c: Content, d: int, zone: int) -> bool:
    """A miniature may enter ``zone`` of district ``d`` from outside the board."""
    zones, total, _, _ = occupancy(state, c, d)
    return total < BOARD_LIMIT and zones[zone] < ZONE_LIMIT


def _entry_room(s: State | Work, c: Content) -> list[bool]:
    """Per district, whether a miniature may enter its Entry zone from outside the board (one
    pass over the miniatures; the same answer as :func:`_room` for each district)."""
    boards = c.boards
    used = s.city.boards
    entries = [boards[used[x]].entry for x in range(5)]
    at_entry = [0] * 5
    total = [0] * 5
    for a in s.agents:
        d = a.district
        if d >= 0:
            total[d] += 1
            if a.zone == entries[d]:
                at_entry[d] += 1
    fight = s.fight
    fd = fight.district if fight is not None else -1
    for x in range(5):
        if x == fd:
            assert fight is not None
            for f in fight.fighters:
                if f.kind != AGENT and not f.gone:
                    total[x] += 1
                    if f.zone == entries[x]:
                        at_entry[x] += 1
        else:
            for _, z in s.city.henchmen[x]:
                total[x] += 1
                if z == entries[x]:
                    at_entry[x] += 1
    return [total[x] < BOARD_LIMIT and at_entry[x] < ZONE_LIMIT for x in range(5)]


def legal_move(s: State | Work, c: Content) -> list[Action]:
    """The moving Agent's next step, or stop (rule: cyberverse/moving-agents)."""
    ctx = s.ctx
    sheet = ctx.agent
    agent = next(a for a in s.agents if a.sheet == sheet)
    out = [act("stop" if ctx.started else "stay")]
    d = agent.district
    if d < 0:
        if not ctx.started:
            free = _entry_room(s, c)
            for x in range(5):
                if free[x]:
                    out.append(act("enter", x))
        return out
    board = c.boards[s.city.boards[d]]
    if agent.zone == board.entry and WOUND not in agent.status:
        visited = ctx.visited
        mp = ctx.mp
        cost = travel_costs(s, c, agent, d)
        room: list[bool] | None = None
        for x in range(5):
            if x != d and x not in visited and cost[x] <= mp:
                if room is None:
                    room = _entry_room(s, c)
                if room[x]:
                    out.append(act("go", x))
    if ctx.mp >= 1:
        zones, _, _, spots = occupancy(s, c, d)
        for z in board.adjacent[agent.zone]:
            if zones[z] < ZONE_LIMIT:
                out.append(act("step", z))
        p = board.position_at[agent.zone]
        if p >= 0 and agent.spot != p and spots[p] < 0:
            out.append(act("spot", p))
    return out


def move(w: Work, c: Content, a: Action) -> None:
    """Apply a movement step of the moving Agent."""
    ctx = w.ctx
    kind = a.kind
    if kind in ("stay", "stop"):
        _next_agent(w, c)
        return
    sheet = ctx.agent
    agent = w.agent(sheet)
    if not ctx.started:  # the first step spends the Organization's Action
        org = w.orgs[agent.org]
        w.set_org(agent.org, actions=org.actions - 1)
    mp = ctx.mp
    visited = ctx.visited
    if kind in ("enter", "go"):
        if kind == "go":
            mp -= travel_cost(w, c, agent, agent.district, a.a)
        visited = with_member(visited, a.a)
        w.set_agent(sheet, district=a.a, zone=board_of(w, c, a.a).entry, spot=-1)
    elif kind == "step":
        mp -= 1
        w.set_agent(sheet, zone=a.a, spot=-1)
    elif kind == "spot":
        mp -= 1
        w.set_agent(sheet, spot=a.a)
    w.set_ctx(mp=mp, visited=visited, started=True)
    if len(legal_move(w, c)) == 1:  # only "stop" is left
        _next_agent(w, c)


# ------------------------------------------------------------------ auxiliary actions
def begin_aux(w: Work, c: Content) -> None:
    """rule: cyberverse/activation-phase - then the Auxiliary Actions."""
    resume_aux(w, c)


def resume_aux(w: Work, c: Content) -> None:
    """The Organization with the most Actions left decides (ties: the richest, then the order of
    play); the phase ends when no Action is left."""
    best = -1
    most = richest = 0
    for seat in w.order:
        org = w.orgs[seat]
        n = org.actions
        if n > 0 and (best < 0 or n > most or (n == most and org.money > richest)):
            best, most, richest = seat, n, org.money
    if best < 0:
        flow.finish(w, c)
        return
    flow.decide(w, D_AUX, best)


def ambush_left(state: State | Work, seat: int) -> int:
    """Ambush tokens an Organization still has in hand."""
    return AMBUSH_TOKENS - sum(1 for o in state.city.ambush if o == seat)


def rescue_cost(agent: Agent) -> int:
    """rule: cyberverse/activation-phase - 200 D plus 100 D per Status token."""
    return RESCUE_COST + RESCUE_PER_STATUS * len(agent.status)


def legal_aux(s: State, c: Content) -> list[Action]:
    """The Auxiliary Actions of the Organization to decide."""
    seat = s.actor
    org = s.orgs[seat]
    money = org.money
    out: list[Action] = []
    team = [a for a in s.agents if a.org == seat]
    if len(team) < MAX_AGENTS and money >= s.options.hire_cost:
        for sheet in s.market.agent_row:
            out.append(act("recruit", sheet, 0))
            out.append(act("recruit", sheet, 1))
    city = s.city
    placed = 0
    free: list[Action] = []
    for slot, seats in enumerate(city.staff):
        if seat in seats:
            placed += 1
        elif city.news[slot] >= 0:
            free.append(act("staff", slot))
    if placed < STAFF_TOKENS:
        out.extend(free)
    ambush = city.ambush
    if ambush.count(seat) < AMBUSH_TOKENS:
        for d in range(5):
            if ambush[d] < 0:
                out.append(act("ambush", d))
    for a in team:
        if a.district >= 0 and rescue_cost(a) <= money:
            out.append(act("rescue", a.sheet))
    if org.story < 0:
        if stories.can_draw(s, seat):
            out.append(act("story", 0))
    elif stories.can_replace(s, c, seat):
        out.append(act("story", 1))
    if not out or not s.options.forced_actions:
        out.append(act("pass"))
    return out


def new_agent(c: Content, sheet: int, side: int, seat: int, *, recruited: bool) -> Agent:
    """A freshly recruited Agent in its HQ: full Health, no XP, no Supply tokens."""
    health = c.faces[2 * sheet + side].health
    return Agent(
        sheet=sheet,
        side=side,
        org=seat,
        health=health,
        status=(),
        kit=(),
        broken=(),
        xp=0,
        district=-1,
        zone=-1,
        spot=-1,
        recruited=recruited,
        trained=False,
        rescued=False,
    )


def add_agent(w: Work, c: Content, agent: Agent) -> None:
    """Put a new Agent among the recruited ones (kept in Initiative order)."""
    ini = c.faces[2 * agent.sheet + agent.side].initiative
    agents = list(w.agents)
    i = 0
    while i < len(agents) and c.faces[2 * agents[i].sheet + agents[i].side].initiative < ini:
        i += 1
    agents.insert(i, agent)
    w.agents = tuple(agents)


def aux(w: Work, c: Content, a: Action) -> None:
    """Apply an Auxiliary Action (one Action spent)."""
    seat = w.actor
    org = w.orgs[seat]
    w.set_org(seat, actions=org.actions - 1)
    kind = a.kind
    if kind == "recruit":
        w.set_market(agent_row=remove_one(w.market.agent_row, a.a))
        w.set_org(seat, money=w.orgs[seat].money - w.options.hire_cost)
        add_agent(w, c, new_agent(c, a.a, a.b, seat, recruited=True))
        if refill_agents(w):
            return
    elif kind == "staff":
        _staff(w, c, seat, a.a)
    elif kind == "ambush":
        tokens = list(w.city.ambush)
        tokens[a.a] = seat
        w.set_city(ambush=tuple(tokens))
    elif kind == "rescue":
        agent = w.agent(a.a)
        w.set_org(seat, money=w.orgs[seat].money - rescue_cost(agent))
        if w.options.rescue_clears:
            agent = w.set_agent(a.a, status=())
        health, status = heal(c, agent, 1)
        w.set_agent(a.a, health=health, status=status, district=-1, zone=-1, spot=-1, rescued=True)
    elif kind == "story":
        stories.start_draw(w, c, seat, replace=a.a == 1)
        return
    resume_aux(w, c)


def _staff(w: Work, c: Content, seat: int, slot: int) -> None:
    """cyberverse/event-phase - a Staff token on an Event card earns its reward and protects
    the Organization from its negative effect."""
    staff = list(w.city.staff)
    staff[slot] = with_member(staff[slot], seat)
    w.set_city(staff=tuple(staff))
    ev = c.events[w.city.news[slot]]
    if ev.reward == 0:
        w.set_org(seat, money=w.orgs[seat].money + ev.reward_value)
    elif ev.reward == 1:
        for agent in w.agents:
            if agent.org == seat:
                health, status = heal(c, agent, 1)
                w.set_agent(agent.sheet, health=health, status=status)
    else:
        gain_influence(w, c, seat, ev.reward_district)


def refill_agents(w: Work) -> bool:
    """Fill the row of Agent sheets back to 3 (True: a chance draw is pending)."""
    if len(w.market.agent_row) >= AGENT_ROW:
        return False
    if w.market.agent_pool:
        flow.chance(w, C_AGENT_ROW)
        return True
    if w.market.agent_under:
        w.set_market(
            agent_row=(*w.market.agent_row, w.market.agent_under[0]), agent_under=w.market.agent_under[1:]
        )
    return False


def on_agent_row(w: Work, c: Content, sheet: int) -> None:
    """An Agent sheet drawn into the row."""
    w.set_market(agent_pool=remove_one(w.market.agent_pool, sheet), agent_row=(*w.market.agent_row, sheet))
    if refill_agents(w):
        return
    flow.resume(w, c)
