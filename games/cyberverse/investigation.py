"""The Investigation phase, district by district: Ambush, Combat, Hacking, Investigation, Influence.

rule: cyberverse/ambush - an Ambush card is drawn; its effect applies to every Agent in the
district except those of the Organization that placed the Ambush token.
rule: cyberverse/hacking - an Agent on the district's Hacking position credits its Organization
with 100 D x its Hacking value plus 200 D per Influence token of the Organization in that
district, then leaves the position.
rule: cyberverse/investigation - Agents in the district designated by a Mission draw a Modifier
card and add their Feature (``modifiers.py``); a success earns the Mission's rewards and places
the XP token.
rule: cyberverse/influence - if the Agents on a district board all belong to one Organization, it
places an Influence token on that district (at most 3 per Organization and district), or removes
one of another Organization's tokens there.
cyberverse/story-cards - red Investigation cards "require to gain influence in specific
districts": reading, a red Mission is validated when its Organization stands alone on that
district board in the Influence stage (no ``lockdown`` Event there), whether it then places a
token, removes a rival's or already holds its 3 (or when an Event's reward places one there).
cyberverse/feature-test - bonuses "from other game elements" add to the test.

Readings (docs/cyberverse.md): the Ambush token returns to its owner once its district is
resolved; a ``grill`` or ``break`` Ambush card costs each victim one token of its Organization's
choice; blue Missions are Hacking tests taken by the Agent on the Hacking position; an Agent may
test each open Mission of its district once per Investigation phase (variant ``tests``:
``"one-per-agent"``, at most one test per Agent and phase) and may choose not to; XP tokens are
committed before the Modifier card is drawn.
"""

from __future__ import annotations

from games.cyberverse import flow, stories
from games.cyberverse.agents import (
    FEATURE_MAX,
    ambush_immune,
    feature,
    hack_bonus,
    lose_health,
    spend_xp,
    test_bonus,
    xp_available,
)
from games.cyberverse.board import board_of
from games.cyberverse.content import (
    AMBUSH_EFFECTS,
    HACKING,
    IMPLANT,
    MISSION_KINDS,
    STATUSES,
    Content,
)
from games.cyberverse.events import BLACKOUT, LOCKDOWN, SCRUTINY, has_effect
from games.cyberverse.modifiers import after_draw, succeeds
from games.cyberverse.state import (
    C_AMBUSH,
    C_MODIFIER,
    D_INFLUENCE,
    D_LOSE_TOKEN,
    D_TEST,
    Action,
    Agent,
    State,
    act,
    mission_arg,
    mission_of,
)
from games.cyberverse.work import Work, insert_sorted, remove_one, with_member

__all__ = [
    "HACK_PER_INFLUENCE",
    "HACK_PER_POINT",
    "INFLUENCE_MAX",
    "begin",
    "gain_influence",
    "hack_gain",
    "influence",
    "legal_influence",
    "legal_loss",
    "legal_test",
    "lose",
    "on_ambush",
    "on_modifier",
    "run",
    "test",
    "test_total",
    "validate_kind",
]

HACK_PER_POINT = 100
"""rule: cyberverse/hacking - 100 D x the Agent's Hacking value."""
HACK_PER_INFLUENCE = 200
"""rule: cyberverse/hacking - 200 D per Influence token of the Organization in the district."""
INFLUENCE_MAX = 3
"""rule: cyberverse/influence - at most 3 Influence tokens per Organization in a district."""
TEST, COMBAT_MISSION, HACK, INFLUENCE = range(len(MISSION_KINDS))
_A_NONE, _A_DAMAGE, _A_STATUS, _A_MONEY, _A_GRILL, _A_BREAK = range(len(AMBUSH_EFFECTS))
assert len(STATUSES) == 3


def begin(w: Work, c: Content) -> None:
    """rule: cyberverse/investigation - starting from District 1, in ascending order."""
    w.set_ctx(district=0, stage=0, queue=(), started=False)
    run(w, c)


def run(w: Work, c: Content) -> None:
    """Resolve the stages of each district in order until a decision or a draw is pending."""
    from games.cyberverse import combat  # (combat imports this module: it resumes this loop at its end)

    while w.ctx.district < 5:
        d, stage = w.ctx.district, w.ctx.stage
        if stage == 0:
            if _ambush(w, c, d):
                return
            if not any(a.district == d for a in w.agents):
                # no Agent on the board: no Combat (its Henchmen leave), Hacking, test or Influence
                combat.start(w, c, d)
                w.set_ctx(district=d + 1, stage=0, queue=(), started=False, agent=-1)
                continue
        if stage <= 1:
            w.set_ctx(stage=1)
            if combat.start(w, c, d):
                return
        if stage <= 2:
            w.set_ctx(stage=2)
            if _hacking(w, c, d):
                return
        if stage <= 3:
            w.set_ctx(stage=3)
            if _investigate(w, c, d):
                return
        if stage <= 4:
            w.set_ctx(stage=4)
            if _influence(w, c, d):
                return
        w.set_ctx(district=d + 1, stage=0, queue=(), started=False, agent=-1)
    w.set_ctx(district=-1, stage=0)
    flow.finish(w, c)


def next_stage(w: Work, c: Content) -> None:
    w.set_ctx(stage=w.ctx.stage + 1, queue=(), started=False, agent=-1, tested=())
    run(w, c)


# ------------------------------------------------------------------ ambush (rule: cyberverse/ambush)
def _ambush(w: Work, c: Content, d: int) -> bool:
    owner = w.city.ambush[d]
    if owner < 0:
        return False
    tokens = list(w.city.ambush)
    tokens[d] = -1
    w.set_city(ambush=tuple(tokens))
    victims = tuple(a.sheet for a in w.agents if a.district == d and a.org != owner)
    if not victims:
        return False
    if not w.decks.ambush:
        w.set_decks(ambush=w.decks.ambush_discard, ambush_discard=())
    if not w.decks.ambush:
        return False
    w.set_ctx(queue=victims, seat=owner)
    flow.chance(w, C_AMBUSH)
    return True


def _loss_choices(c: Content, agent: Agent, effect: int) -> list[int]:
    """Tokens an Agent may lose to a ``grill`` (Cyber-Implants) or ``break`` (other tokens) card."""
    want_implant = effect == _A_GRILL
    return [
        t for t in agent.kit if t not in agent.broken and (c.tokens[t].category == IMPLANT) == want_implant
    ]


def on_ambush(w: Work, c: Content, card: int) -> None:
    """Apply the Ambush card drawn to every victim (rule: cyberverse/ambush)."""
    w.set_decks(
        ambush=remove_one(w.decks.ambush, card), ambush_discard=insert_sorted(w.decks.ambush_discard, card)
    )
    amb = c.ambush[card]
    choosers: list[int] = []
    for sheet in w.ctx.queue:
        if w.agent_at(sheet) < 0:
            continue
        agent = w.agent(sheet)
        if ambush_immune(c, w, agent, amb):
            continue
        if amb.effect == _A_DAMAGE:
            lose_health(w, c, sheet, amb.value)
        elif amb.effect == _A_STATUS:
            w.set_agent(sheet, status=with_member(agent.status, amb.status))
        elif amb.effect == _A_MONEY:
            org = w.orgs[agent.org]
            w.set_org(agent.org, money=org.money - min(org.money, amb.value))
        elif amb.effect in (_A_GRILL, _A_BREAK):
            options = _loss_choices(c, agent, amb.effect)
            if len(options) == 1:
                w.set_agent(sheet, broken=insert_sorted(agent.broken, options[0]))
            elif options:
                choosers.append(sheet)
    w.set_ctx(queue=tuple(choosers), store=amb.effect, seat=-1)
    _next_loss(w, c)


def _next_loss(w: Work, c: Content) -> None:
    if w.ctx.queue:
        sheet = w.ctx.queue[0]
        w.set_ctx(agent=sheet)
        flow.decide(w, D_LOSE_TOKEN, w.agent(sheet).org)
        return
    w.set_ctx(store=-1)
    next_stage(w, c)


def legal_loss(s: State, c: Content) -> list[Action]:
    """The tokens the victim's Organization may choose to lose."""
    agent = next(a for a in s.agents if a.sheet == s.ctx.agent)
    return [act("lose", agent.sheet, t) for t in _loss_choices(c, agent, s.ctx.store)]


def lose(w: Work, c: Content, a: Action) -> None:
    """The chosen token is grilled or broken (flipped over)."""
    agent = w.agent(a.a)
    w.set_agent(a.a, broken=insert_sorted(agent.broken, a.b))
    w.set_ctx(queue=w.ctx.queue[1:], agent=-1)
    _next_loss(w, c)


# ------------------------------------------------------------------ hacking (rule: cyberverse/hacking)
def _hacker(w: Work | State, c: Content, d: int) -> Agent | None:
    spot = board_of(w, c, d).hacking
    for a in w.agents:
        if a.district == d and a.spot == spot:
            return a
    return None


def hack_gain(state: State | Work, c: Content, agent: Agent, district: int) -> int:
    """D credited by a Hacking (rule: cyberverse/hacking; 0 under a ``blackout`` Event card)."""
    if has_effect(state, c, agent.org, BLACKOUT, district):
        return 0
    influence = state.orgs[agent.org].influence[district]
    return (
        HACK_PER_POINT * feature(c, agent, HACKING)
        + HACK_PER_INFLUENCE * influence
        + hack_bonus(c, state, agent)
    )


def _hacking(w: Work, c: Content, d: int) -> bool:
    agent = _hacker(w, c, d)
    if agent is None:
        return False
    org = w.orgs[agent.org]
    w.set_org(agent.org, money=org.money + hack_gain(w, c, agent, d))
    if _missions(w, c, agent, d, HACK):
        w.set_ctx(agent=agent.sheet, tested=())
        flow.decide(w, D_TEST, agent.org)
        return True
    w.set_agent(agent.sheet, spot=-1)
    return False


# ------------------------------------------------------------------ tests (rule: cyberverse/investigation)
def _missions(
    state: State | Work,
    c: Content,
    agent: Agent,
    d: int,
    kind: int,
    *,
    tested: tuple[tuple[int, int], ...] = (),
) -> list[tuple[int, int]]:
    """(case, mission) pairs of ``kind`` in district ``d`` the Agent's Organization has not
    validated (nor the Agent tested in this stage: in ``tested``)."""
    org = state.orgs[agent.org]
    out = []
    for case, card in enumerate(org.cases):
        done = org.done[case]
        for m, mission in enumerate(c.investigations[card].missions):
            if mission.kind == kind and mission.district == d and m not in done and (case, m) not in tested:
                out.append((case, m))
    return out


def test_total(state: State | Work, c: Content, agent: Agent, f: int, *, xp: int, district: int) -> int:
    """Feature (raised by ``xp`` XP tokens, never above 5) plus the bonuses of other game elements,
    less 1 per ``scrutiny`` Event card on the district (cyberverse/feature-test)."""
    value = min(FEATURE_MAX, feature(c, agent, f) + xp)
    return value + test_bonus(c, state, agent, f) - has_effect(state, c, agent.org, SCRUTINY, district)


def _investigate(w: Work, c: Content, d: int) -> bool:
    if not w.ctx.started:
        queue = tuple(a.sheet for a in w.agents if a.district == d)
        w.set_ctx(queue=queue, started=True)
    queue = w.ctx.queue
    while queue:
        sheet = queue[0]
        queue = queue[1:]
        if w.agent_at(sheet) < 0:
            continue
        agent = w.agent(sheet)
        if _missions(w, c, agent, d, TEST):
            w.set_ctx(queue=queue, agent=sheet, tested=())
            flow.decide(w, D_TEST, agent.org)
            return True
    w.set_ctx(queue=(), agent=-1, tested=())
    return False


def legal_test(s: State, c: Content) -> list[Action]:
    """Which Mission to test and how many XP tokens to use, or no test."""
    agent = next(a for a in s.agents if a.sheet == s.ctx.agent)
    kind = HACK if s.ctx.stage == 2 else TEST
    out: list[Action] = []
    xp = xp_available(s, agent)
    for case, m in _missions(s, c, agent, s.ctx.district, kind, tested=s.ctx.tested):
        f = c.investigations[s.orgs[agent.org].cases[case]].missions[m].feature
        top = min(xp, FEATURE_MAX - feature(c, agent, f))
        out.extend(act("test", mission_arg(case, m), x) for x in range(max(0, top) + 1))
    out.append(act("no-test"))
    return out


def test(w: Work, c: Content, a: Action) -> None:
    """Take the test: XP tokens are turned over, then a Modifier card is drawn."""
    if a.kind == "no-test":
        _after_test(w, c)
        return
    spend_xp(w, w.ctx.agent, a.b)
    w.set_ctx(mission=mission_of(a.a), xp=a.b, seat=w.agent(w.ctx.agent).org)
    org = w.orgs[w.ctx.seat]
    if not org.deck:  # the deck is empty: the discard pile is shuffled to form a new deck
        w.set_org(w.ctx.seat, deck=org.discard, discard=())
    flow.chance(w, C_MODIFIER)


def on_modifier(w: Work, c: Content, card: int) -> None:
    """The Modifier card drawn decides the test (cyberverse/feature-test)."""
    seat = w.ctx.seat
    agent = w.agent(w.ctx.agent)
    org = w.orgs[seat]
    case, m = w.ctx.mission
    mission = c.investigations[org.cases[case]].missions[m]
    total = test_total(w, c, agent, mission.feature, xp=w.ctx.xp, district=w.ctx.district)
    ok = succeeds(total, card, mission.threshold)
    deck, discard = after_draw(org.deck, org.discard, card, ok, w.options.reshuffle)
    w.set_org(seat, deck=deck, discard=discard)
    if ok:
        stories.validate(w, c, seat, case, m)
    w.set_ctx(mission=(), xp=0, seat=-1, tested=tuple(sorted({*w.ctx.tested, (case, m)})))
    if w.options.tests == "each-mission" and _test_again(w, c):
        return
    _after_test(w, c)


def _test_again(w: Work, c: Content) -> bool:
    """The Agent that just tested may test another open Mission of the district it has not tested
    in this stage (variant ``tests="each-mission"``): a decision is pending if so."""
    sheet = w.ctx.agent
    if w.agent_at(sheet) < 0:
        return False
    agent = w.agent(sheet)
    kind = HACK if w.ctx.stage == 2 else TEST
    if not _missions(w, c, agent, w.ctx.district, kind, tested=w.ctx.tested):
        return False
    flow.decide(w, D_TEST, agent.org)
    return True


def _after_test(w: Work, c: Content) -> None:
    if w.ctx.stage == 2:  # the hacker leaves the Hacking position
        if w.agent_at(w.ctx.agent) >= 0:
            w.set_agent(w.ctx.agent, spot=-1)
        next_stage(w, c)
        return
    w.set_ctx(agent=-1, tested=())
    run(w, c)


# ------------------------------------------------------------------ influence (rule: cyberverse/influence)
def gain_influence(w: Work, c: Content, seat: int, d: int) -> bool:
    """Place an Influence token of ``seat`` on district ``d`` (if under the limit); its red Missions
    there are validated. Returns whether a token was placed."""
    org = w.orgs[seat]
    if org.influence[d] >= INFLUENCE_MAX:
        return False
    inf = list(org.influence)
    inf[d] += 1
    w.set_org(seat, influence=tuple(inf))
    validate_kind(w, c, seat, INFLUENCE, d)
    return True


def validate_kind(w: Work, c: Content, seat: int, kind: int, d: int) -> None:
    """Validate every Mission of ``kind`` in district ``d`` of ``seat``'s story."""
    org = w.orgs[seat]
    story = org.story
    for case, card in enumerate(org.cases):
        for m, mission in enumerate(c.investigations[card].missions):
            if w.orgs[seat].story != story:
                return  # the story was resolved by the previous Mission
            if mission.kind == kind and mission.district == d:
                stories.validate(w, c, seat, case, m)


def influence_options(state: State | Work, c: Content, seat: int, d: int) -> list[Action]:
    """Place a token (under the limit, no ``lockdown``) or remove another Organization's token."""
    out = []
    if state.orgs[seat].influence[d] < INFLUENCE_MAX and not has_effect(state, c, seat, LOCKDOWN, d):
        out.append(act("place", d))
    out.extend(act("remove", d, p) for p in range(state.players) if p != seat and state.orgs[p].influence[d])
    return out


def _influence(w: Work, c: Content, d: int) -> bool:
    present = {a.org for a in w.agents if a.district == d}
    if len(present) != 1:
        return False
    seat = present.pop()
    if not has_effect(w, c, seat, LOCKDOWN, d):  # it gains influence there: its red Missions
        validate_kind(w, c, seat, INFLUENCE, d)
    options = influence_options(w, c, seat, d)
    if len(options) == 1:
        influence(w, c, options[0], seat, proceed=False)
    elif options:
        w.set_ctx(seat=seat)
        flow.decide(w, D_INFLUENCE, seat)
        return True
    return False


def legal_influence(s: State, c: Content) -> list[Action]:
    """The influence choices of the only Organization on the board."""
    return influence_options(s, c, s.ctx.seat, s.ctx.district)


def influence(w: Work, c: Content, a: Action, seat: int, *, proceed: bool = True) -> None:
    """Place or remove an Influence token (``seat``: the Organization alone on the board)."""
    if a.kind == "place":
        gain_influence(w, c, seat, a.a)
    else:
        org = w.orgs[a.b]
        inf = list(org.influence)
        inf[a.a] -= 1
        w.set_org(a.b, influence=tuple(inf))
    if proceed:
        w.set_ctx(seat=-1)
        next_stage(w, c)
