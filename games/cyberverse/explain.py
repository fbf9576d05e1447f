"""The facts behind a CyberVerse move, for hints and explanations (games/core/face.py, ``Fact``):
what a move buys, reaches, risks and scores, with the exact odds of tests and attacks."""

from __future__ import annotations

from games.core.face import Fact
from games.cyberverse import engine, scoring
from games.cyberverse.activation import travel_cost
from games.cyberverse.agents import feature, max_health, support_limit
from games.cyberverse.catalogue import mission_text, reward_text, support_text, token_text
from games.cyberverse.content import (
    CATEGORIES,
    COLOURS,
    FEATURES,
    MISSION_KINDS,
    POSITION_KINDS,
    SKILLS,
    TOKEN_EFFECTS,
    WEAPON,
    AgentFace,
    Content,
    Mission,
)
from games.cyberverse.damage import attack_outcomes
from games.cyberverse.face import agent_name, validated, where
from games.cyberverse.hidden import observation as hidden_observation
from games.cyberverse.investigation import hack_gain
from games.cyberverse.state import (
    AGENT,
    D_ATTACK,
    D_AUX,
    D_MOVE,
    D_PAYDAY,
    D_SECOND,
    D_STRATEGY,
    D_TEST,
    TEAMMATE,
    Action,
    Agent,
    State,
    mission_of,
)
from games.cyberverse.strategy import price, slot_price

__all__ = ["explain", "feature_test_odds"]


def _fact(label: str, value: float, text: str, unit: str = "", better: int = 0) -> Fact:
    return Fact(label=label, value=float(value), unit=unit, better=better, text=text)


def _story_missions(s: State, c: Content, seat: int) -> list[Mission]:
    """The Missions of ``seat``'s Story card not validated yet."""
    org = s.orgs[seat]
    out = []
    for case, card in enumerate(org.cases):
        done = validated(org, case)
        out += [m for k, m in enumerate(c.investigations[card].missions) if k not in done]
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
    name = agent_name(s, c, sheet)
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
    name = agent_name(s, c, sheet)
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
        what = f"{name} stays {where(s, c, agent)}"
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
        text = f"{verb} {t.name} ({token_text(c, t)}) of {agent_name(s, c, a.a)}"
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
            f"{agent_name(s, c, a.a)} heals 1 (health {agent.health} of {max_health(c, agent)}) "
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
            who = f"{agent_name(s, c, target.ref)} of {c.organisations[target.org].name}"
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
    """cyberverse/damage-table - the exact odds of the attack over the Combat tokens its
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
        return f"{agent_name(s, c, f.ref)} of {c.organisations[f.org].name}", _agent_health(s, f.ref)
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


def _influence_facts(s: State, c: Content, a: Action) -> list[Fact]:
    """Placing or removing an Influence token: the margin over the best rival, and what a removed
    rival keeps."""
    seat = s.actor
    k = a.kind
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


def _field_facts(s: State, c: Content, a: Action) -> list[Fact]:
    seat = s.actor
    k = a.kind
    if k in ("enter", "go", "step", "spot", "stay", "stop") and s.step == D_MOVE:
        return _move_facts(s, c, a)
    if s.fight is not None and k not in ("hold", "stand", "pass"):
        return _fight_facts(s, c, a)
    if k == "test":
        org = s.orgs[seat]
        place, number = mission_of(a.a)
        case = c.investigations[org.cases[place]]
        m = case.missions[number]
        text = f"mission {number + 1} of {case.name}: {mission_text(c, m)}; XP tokens spent {a.b}"
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
        return _influence_facts(s, c, a)
    if k == "ambush":
        rivals = sum(1 for x in s.agents if x.district == a.a and x.org != seat)
        text = f"an ambush token waits in {c.district_names[a.a]}; rival agents there now {rivals}"
        return [_fact("rival agents there", rivals, text, better=1)]
    if k == "staff":
        card = c.events[s.city.news[a.a]]
        text = f"staff on {card.name}: {reward_text(c, card)}; its effect spares you"
        return [_fact("staff reward", card.reward_value if card.reward == 0 else 1, text, better=1)]
    if k == "rescue":
        agent = next(x for x in s.agents if x.sheet == a.a)
        text = f"brings {agent_name(s, c, a.a)} back to the HQ, healed by 1 (health {agent.health} now)"
        return [_fact("health of the agent rescued", agent.health, text, better=-1)]
    return []


def explain(s: State, c: Content, a: Action) -> list[Fact]:
    """What the move does, in facts that differ between candidates: the Agent sheet's Features and
    skill, the token and who gets it, the district's open Missions and opponents, the test odds,
    influence margins; then the change in Resources and victory points."""

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
    """cyberverse/feature-test - the exact odds of the test ``a`` (0 for taking no test), from
    the Modifier deck as it stands."""
    from games.cyberverse.investigation import test_total
    from games.cyberverse.modifiers import deck_to_draw, succeeds

    if a.kind != "test":
        return 0.0
    org = s.orgs[s.actor]
    agent = next(x for x in s.agents if x.sheet == s.ctx.agent)
    place, number = mission_of(a.a)
    mission = c.investigations[org.cases[place]].missions[number]
    total = test_total(s, c, agent, mission.feature, xp=a.b, district=s.ctx.district)
    pile = deck_to_draw(org.deck, org.discard)
    return sum(1 for x in pile if succeeds(total, x, mission.threshold)) / len(pile) if pile else 0.0
