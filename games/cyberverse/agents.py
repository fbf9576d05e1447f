"""Agents: their Features with Supply tokens and XP, their bonuses, healing and losing one.

rule: cyberverse/agent-sheets - Movement, Analysis, Hacking (max 5), Reputation (max 3), Combat,
Initiative, Salary, a unique skill; the team's Reputation bounds its Support cards.
rule: cyberverse/increasing-features - Cyber-Implants raise Analysis, Hacking and Combat for good,
XP tokens for one action; a Feature never exceeds 5 (Reputation 3); weapon bonuses count in Combat
only.
rule: cyberverse/agent-dashboard - Supply tokens on the dashboard's slots; a dead Agent's sheet
goes under the Agent stack (variant ``dead_agents``), its Supply tokens are discarded.
rule: cyberverse/loss-of-health - at 0 Health an Agent leaves the game with its Equipment and XP.
"""

from __future__ import annotations

from games.cyberverse.content import (
    AMBUSH_EFFECTS,
    COMBAT,
    FEATURES,
    GEAR,
    GEAR_KINDS,
    IMPLANT,
    MOVEMENT,
    REPUTATION,
    SKILLS,
    SUPPORT_EFFECTS,
    VEHICLE,
    WEAPON,
    AmbushCard,
    Content,
    SupplyToken,
)
from games.cyberverse.state import (
    SUPPRESSION,
    Agent,
    State,
)
from games.cyberverse.work import Work, insert_sorted

__all__ = [
    "FEATURE_MAX",
    "REPUTATION_MAX",
    "XP_TOKENS",
    "agent_lost",
    "ambush_immune",
    "attack_bonus",
    "defense_bonus",
    "feature",
    "heal",
    "lose_health",
    "movement_points",
    "org_xp",
    "spend_xp",
    "team_reputation",
    "test_bonus",
    "usable_weapons",
    "xp_available",
]

FEATURE_MAX = 5
"""rule: cyberverse/increasing-features - no Feature above 5, even with Supply tokens or XP."""
REPUTATION_MAX = 3
"""rule: cyberverse/agent-sheets - Reputation (Max: 3)."""
XP_TOKENS = 60
"""rule: cyberverse/components - 60 XP tokens in the box."""
EXPERT_COMBAT = 3
"""cyberverse/supply-weapons - an EXPERT weapon needs a Combat value of 3 or more."""

_SK_ATTACK, _SK_DEFENSE, _SK_TEST, _SK_HACK, _SK_TRAVEL, _SK_MEDIC, _SK_AMBUSH = range(len(SKILLS))
_G_DEFENSE, _G_REPUTATION, _G_TEST, _G_AMBUSH, _G_MEDKIT = range(len(GEAR_KINDS))
_U_ARMOR, _U_TEST, _U_DISCOUNT, _U_HACK, _U_AMBUSH = range(len(SUPPORT_EFFECTS))
assert AMBUSH_EFFECTS[0] == "none" and FEATURES[COMBAT] == "combat"


def _intact(agent: Agent, c: Content) -> list[SupplyToken]:
    broken = agent.broken
    return [c.tokens[t] for t in agent.kit if t not in broken]


def feature(c: Content, agent: Agent, f: int) -> int:
    """The Feature ``f`` of ``agent`` with its intact Cyber-Implants (and, for Movement, vehicles;
    for Reputation, gear), capped at 5 (Reputation 3). Suppression is not counted here.

    rule: cyberverse/increasing-features, cyberverse/supply-vehicles ("increases Movement").
    rule: cyberverse/supply-cyber-implants - "Each Cyber-Implant increases a Feature by 1 point".
    """
    face = c.faces[2 * agent.sheet + agent.side]
    value = face.features[f]
    for t in agent.kit:
        if t in agent.broken:
            continue
        tok = c.tokens[t]
        if tok.category == IMPLANT and tok.feature == f:
            value += 1
        elif f == MOVEMENT and tok.category == VEHICLE:
            value += tok.movement
        elif f == REPUTATION and tok.category == GEAR and tok.kind == _G_REPUTATION:
            value += tok.value
    return min(value, REPUTATION_MAX if f == REPUTATION else FEATURE_MAX)


def movement_points(c: Content, agent: Agent) -> int:
    """Movement points of an activation: Movement less 1 for Suppression (cyberverse/status-tokens)."""
    mp = feature(c, agent, MOVEMENT)
    if SUPPRESSION in agent.status:
        mp -= 1
    return max(0, mp)


def team_reputation(state: State | Work, c: Content, seat: int) -> int:
    """The sum of the Reputation of an Organization's Agents (rule: cyberverse/agent-sheets)."""
    return sum(feature(c, a, REPUTATION) for a in state.agents if a.org == seat)


def support_limit(state: State | Work, c: Content, seat: int) -> int:
    """Support cards an Organization may hold: 3, and no more than the team's Reputation.

    cyberverse/support-cards
    """
    return min(3, team_reputation(state, c, seat))


def test_bonus(c: Content, state: State | Work, agent: Agent, f: int) -> int:
    """Bonuses "from other game elements" to a Feature test of ``f`` (cyberverse/feature-test):
    the Agent's skill, its intact gear, its Organization's Support cards (authored effects)."""
    face = c.faces[2 * agent.sheet + agent.side]
    bonus = 1 if face.skill == _SK_TEST and face.skill_feature == f else 0
    for tok in _intact(agent, c):
        if tok.category == GEAR and tok.kind == _G_TEST and tok.feature == f:
            bonus += tok.value
    for u in state.orgs[agent.org].support:
        card = c.support[u]
        if card.effect == _U_TEST and card.feature == f:
            bonus += card.value
    return bonus


def usable_weapons(c: Content, agent: Agent) -> list[int]:
    """Weapon tokens the Agent can use: intact, and EXPERT ones only with Combat 3 or more
    (cyberverse/supply-weapons)."""
    combat = feature(c, agent, COMBAT)
    return [
        t
        for t in agent.kit
        if t not in agent.broken
        and c.tokens[t].category == WEAPON
        and (not c.tokens[t].expert or combat >= EXPERT_COMBAT)
    ]


def attack_bonus(c: Content, agent: Agent) -> int:
    """The Agent's skill bonus to its Attack value (authored skill ``attack_bonus``)."""
    return 1 if c.faces[2 * agent.sheet + agent.side].skill == _SK_ATTACK else 0


def defense_bonus(c: Content, state: State | Work, agent: Agent) -> int:
    """Defense bonus of an Agent's Equipment (gear), skill and its Organization's Support cards
    (cyberverse/combat-tokens: "any Defense bonus given by Equipment tokens").

    rule: cyberverse/supply-gear - "Each Gear has effects on its front side": a closed vocabulary
    (``GEAR_KINDS``: Defense here, Reputation in :func:`feature`, tests, Ambush, medkit).
    """
    bonus = 1 if c.faces[2 * agent.sheet + agent.side].skill == _SK_DEFENSE else 0
    for tok in _intact(agent, c):
        if tok.category == GEAR and tok.kind == _G_DEFENSE:
            bonus += tok.value
    for u in state.orgs[agent.org].support:
        if c.support[u].effect == _U_ARMOR:
            bonus += c.support[u].value
    return bonus


def hack_bonus(c: Content, state: State | Work, agent: Agent) -> int:
    """Extra D of a Hacking from the Agent's skill and its Organization's Support cards (authored)."""
    bonus = 200 if c.faces[2 * agent.sheet + agent.side].skill == _SK_HACK else 0
    for u in state.orgs[agent.org].support:
        if c.support[u].effect == _U_HACK:
            bonus += c.support[u].value
    return bonus


def travel_discount(c: Content, agent: Agent) -> int:
    """Movement points saved per district move by the skill ``fast_travel``."""
    return 1 if c.faces[2 * agent.sheet + agent.side].skill == _SK_TRAVEL else 0


def free_travel(c: Content, agent: Agent) -> bool:
    """An intact vehicle makes moves between districts cost no Movement points.

    rule: cyberverse/supply-vehicles
    """
    return any(tok.category == VEHICLE and tok.free_travel for tok in _intact(agent, c))


def heals_each_turn(c: Content, agent: Agent) -> int:
    """Healing at the start of each Activation phase: the skill ``medic`` and intact ``medkit`` gear."""
    n = 1 if c.faces[2 * agent.sheet + agent.side].skill == _SK_MEDIC else 0
    return n + sum(1 for tok in _intact(agent, c) if tok.category == GEAR and tok.kind == _G_MEDKIT)


def ambush_immune(c: Content, state: State | Work, agent: Agent, card: AmbushCard) -> bool:
    """Whether an Ambush card spares the Agent (cyberverse/ambush, cyberverse/supply-vehicles):
    the skill ``ambush_proof`` always; a vehicle, gear or Support card with ambush protection only if
    the card lets vehicles protect ("his Van will not protect him")."""
    if c.faces[2 * agent.sheet + agent.side].skill == _SK_AMBUSH:
        return True
    if not card.vehicles_protect:
        return False
    if any(tok.ambush_guard for tok in _intact(agent, c)):
        return True
    return any(c.support[u].effect == _U_AMBUSH for u in state.orgs[agent.org].support)


def max_health(c: Content, agent: Agent) -> int:
    """Health at recruitment: the top of the Health track."""
    return c.faces[2 * agent.sheet + agent.side].health


def heal(c: Content, agent: Agent, points: int) -> tuple[int, tuple[int, ...]]:
    """(health, status) after healing ``points``: each point removes a Status token if the Agent has
    one (Suppression first, then Wound, then Bleeding), else restores 1 Health point up to the top of
    the track.

    cyberverse/status-tokens - "Healing an Agent removes a Status token or increases their
    health by 1. However, an Agent cannot recover Health points unless all Status tokens ... have
    been removed."
    """
    health, status = agent.health, agent.status
    top = max_health(c, agent)
    for _ in range(points):
        if status:
            status = status[1:]
        elif health < top:
            health += 1
    return health, status


def org_xp(state: State | Work, seat: int) -> int:
    """Unused XP tokens on an Organization's dashboard (validated Missions' tokens not turned over)."""
    org = state.orgs[seat]
    return sum(1 for done, spent in zip(org.done, org.spent, strict=True) for m in done if m not in spent)


def xp_available(state: State | Work, agent: Agent) -> int:
    """XP tokens the Agent may use: its own and its Organization's (cyberverse/story-cards:
    mission XP tokens are "available for use by any Agent")."""
    return agent.xp + org_xp(state, agent.org)


def xp_in_play(state: State | Work) -> int:
    """XP tokens out of the reserve: on Agents and next to validated Missions."""
    n = sum(a.xp for a in state.agents)
    for org in state.orgs:
        n += sum(1 for done, marks in zip(org.done, org.marks, strict=True) for m in done if m not in marks)
    return n


def spend_xp(w: Work, sheet: int, n: int) -> None:
    """Turn over ``n`` XP tokens for one action: the Agent's own first, then its Organization's
    (the lowest Mission first). rule: cyberverse/increasing-features."""
    if n <= 0:
        return
    agent = w.agent(sheet)
    own = min(n, agent.xp)
    if own:
        w.set_agent(sheet, xp=agent.xp - own)
    n -= own
    if n <= 0:
        return
    org = w.orgs[agent.org]
    spent = list(org.spent)
    for i, done in enumerate(org.done):
        for m in done:
            if n and m not in spent[i]:
                spent[i] = insert_sorted(spent[i], m)
                n -= 1
    w.set_org(agent.org, spent=tuple(spent))


def agent_lost(w: Work, c: Content, sheet: int, *, left: bool = False) -> None:
    """An Agent leaves its Organization: killed (rule: cyberverse/loss-of-health) or unpaid
    (``left``, cyberverse/payday).

    Its Supply tokens go back under their stores (the "appropriate reserves") and its XP tokens to
    the reserve. A dead Agent's sheet leaves the game (variant ``dead_agents="removed"``) or goes
    under the Agent stack (``"bottom"``, rule: cyberverse/agent-dashboard); an unpaid one joins the
    row of Agents for hire. The Organization must then bring its Support cards within its team's
    Reputation (cyberverse/support-cards): it is queued in ``adjust``.
    """
    i = w.agent_at(sheet)
    if i < 0:
        return
    agent = w.agents[i]
    w.agents = w.agents[:i] + w.agents[i + 1 :]
    if agent.kit:
        under = [list(u) for u in w.market.under]
        for t in agent.kit:
            under[c.tokens[t].category].append(t)
        w.set_market(under=tuple(tuple(u) for u in under))
    if left:
        w.set_market(agent_row=(*w.market.agent_row, sheet))
    elif w.options.dead_agents == "bottom":
        w.set_market(agent_under=(*w.market.agent_under, sheet))
    seat = agent.org
    if len(w.orgs[seat].support) > support_limit(w, c, seat) and seat not in w.adjust:
        w.adjust = (*w.adjust, seat)
    fight = w.fight
    if fight is not None:
        for k, f in enumerate(fight.fighters):
            if f.kind == 0 and f.ref == sheet and not f.gone:
                w.set_fighter(k, gone=True)


def lose_health(w: Work, c: Content, sheet: int, points: int) -> bool:
    """The Agent loses ``points`` Health points; at 0 it is out of the game (rule:
    cyberverse/loss-of-health). Returns True if it died."""
    agent = w.agent(sheet)
    health = agent.health - points
    if health > 0:
        w.set_agent(sheet, health=health)
        return False
    agent_lost(w, c, sheet)
    return True
