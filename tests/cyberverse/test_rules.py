"""CyberVerse rules, section by section (each test cites its rulebook section)."""

from __future__ import annotations

from collections.abc import Callable

from games.core.records import replace
from games.cyberverse import CyberverseGame, engine, events, investigation, stories, strategy
from games.cyberverse import state as cv_state
from games.cyberverse.activation import travel_cost
from games.cyberverse.agents import (
    agent_lost,
    defense_bonus,
    feature,
    free_travel,
    lose_health,
    usable_weapons,
)
from games.cyberverse.board import HENCHMEN_LIMIT, henchman_zone
from games.cyberverse.content import ANALYSIS, COMBAT, GEAR, IMPLANT, MOVEMENT, VEHICLE, WEAPON
from games.cyberverse.damage import ENERGY_SHIELD, FRENZY, POISONED_BLADE, SMOKE_BOMB, attack, damage
from games.cyberverse.henchmen import henchman_controller, henchman_target, henchman_targets
from games.cyberverse.state import (
    BLEEDING,
    D_DROP_SUPPORT,
    D_HENCHMAN_TARGET,
    PAYDAY,
    SUPPRESSION,
    WOUND,
    State,
    act,
)
from games.cyberverse.work import Work
from tests.cyberverse.helpers import play_until

GAME = CyberverseGame()
C = GAME.content_pack


def _started(players: int = 2) -> State:
    return play_until(GAME, players, 1, lambda s: s.phase == 2 and s.actor >= 0)


def _blow(**kw: int | bool) -> tuple[int, tuple[int, ...]]:
    args = dict(
        combat=2,
        token_attack=0,
        weapon_bonus=0,
        ranged_weapon=False,
        attacker_effect=-1,
        advantage=False,
        other_zone_reach=False,
        defense=0,
        token_defense=0,
        defender_effect=-1,
        cover=False,
        target_is_agent=True,
    )
    args.update(kw)
    b = attack(**args)  # type: ignore[arg-type]
    return b.health, b.status


def test_damage_table() -> None:
    """rule: cyberverse/damage-table - 0 or lower nothing; +1..2 Suppression; +3..4 -1 and Wound;
    +5..7 -1 and Bleeding; +8 and up -2 and Bleeding."""
    assert [damage(d) for d in (-3, 0, 1, 2, 3, 4, 5, 7, 8, 12)] == [
        (0, ()),
        (0, ()),
        (0, (SUPPRESSION,)),
        (0, (SUPPRESSION,)),
        (1, (WOUND,)),
        (1, (WOUND,)),
        (1, (BLEEDING,)),
        (1, (BLEEDING,)),
        (2, (BLEEDING,)),
        (2, (BLEEDING,)),
    ]


def test_rulebook_combat_example() -> None:
    """rule: cyberverse/combat-tokens - Alena: 4 + 3 + 2 = 9 against Defense 3: +6, -1 Health and
    Bleeding (the rulebook's example); rule: cyberverse/combat - Q-bert's Armor piercer with a ranged
    Weapon: 2 + 2 + 2 + 3 = 9 against the Killer's 0 + 3."""
    assert _blow(combat=4, token_attack=3, weapon_bonus=2, token_defense=3) == (1, (BLEEDING,))
    piercer = 3
    assert _blow(
        combat=2,
        token_attack=2,
        weapon_bonus=2,
        ranged_weapon=True,
        attacker_effect=piercer,
        token_defense=3,
        target_is_agent=False,
    ) == (1, ())


def test_status_token_effects() -> None:
    """rule: cyberverse/status-tokens - Energy shield +3 Defense (the Marauder's 6 against 5 + 3: no
    damage); Smoke bomb cancels; Frenzy +5; Poisoned blade Bleeding; Henchmen take no Status token."""
    assert _blow(combat=3, token_attack=3, token_defense=5, defender_effect=ENERGY_SHIELD) == (0, ())
    assert _blow(combat=9, defender_effect=SMOKE_BOMB) == (0, ())
    assert _blow(combat=0, attacker_effect=FRENZY) == (1, (BLEEDING,))
    assert _blow(combat=0, attacker_effect=POISONED_BLADE) == (0, (BLEEDING,))
    assert _blow(combat=2, attacker_effect=POISONED_BLADE) == (0, (SUPPRESSION, BLEEDING))
    assert _blow(combat=5, target_is_agent=False) == (1, ())


def test_tactical_positions() -> None:
    """rule: cyberverse/tactical-positions - Advantageous +2 Attack, Covered +2 Defense."""
    assert _blow(combat=2, advantage=True) == damage(4)
    assert _blow(combat=2, cover=True) == damage(0)


def test_henchmen_placement_and_limits() -> None:
    """rule: cyberverse/henchmen and cyberverse/combat - placed zone 1, zone 2, ... one by one; at
    most 3 Henchmen, 5 miniatures per board and 3 per zone."""
    board = C.boards[0]
    zones = [0] * board.zones
    assert [henchman_zone(board, zones, 0, 0, k) for k in range(3)] == [0, 1, 2]
    assert henchman_zone(board, zones, 2, HENCHMEN_LIMIT, 0) == -1
    assert henchman_zone(board, zones, 5, 0, 0) == -1
    full = [3] + [0] * (board.zones - 1)
    assert henchman_zone(board, full, 3, 0, 0) == 1
    h = C.henchmen[0]
    assert h.health > 0 and h.movement >= 0


def test_new_eden_board_walls_are_not_adjacency() -> None:
    """rule: cyberverse/new-eden-board - two zones separated by a wall are not adjacent; one Entry zone."""
    for board in C.boards:
        for a, b in board.walls:
            assert b not in board.adjacent[a] and a not in board.adjacent[b]
        assert 0 <= board.entry < board.zones


def _with_token(s: State, category: int, pred=lambda t: True) -> tuple[Work, int, int]:  # type: ignore[no-untyped-def]
    w = Work(s)
    agent = w.agents[0]
    token = next(i for i, t in enumerate(C.tokens) if t.category == category and pred(t))
    w.set_agent(
        agent.sheet, kit=(*agent.kit, token) if len(agent.kit) < C.equipment_slots else (token,), broken=()
    )
    return w, agent.sheet, token


def test_weapons_expert() -> None:
    """rule: cyberverse/supply-weapons - an EXPERT weapon needs Combat 3 or more."""
    w, sheet, token = _with_token(_started(), WEAPON, lambda t: t.expert)
    agent = w.agent(sheet)
    assert (token in usable_weapons(C, agent)) == (feature(C, agent, COMBAT) >= 3)


def test_cyber_implants_raise_a_feature_and_cannot_be_resold() -> None:
    """rule: cyberverse/supply-cyber-implants - +1 to a Feature (never above 5, rule:
    cyberverse/increasing-features); not resold."""
    s = _started()
    w, sheet, token = _with_token(s, IMPLANT)
    f = C.tokens[token].feature
    before = feature(C, Work(s).agent(sheet), f)
    assert feature(C, w.agent(sheet), f) == min(5, before + 1)
    assert all(a.b != token for a in strategy.resell_actions(w, C, w.agent(sheet).org))


def test_gear_defense() -> None:
    """rule: cyberverse/supply-gear - a Gear token's effect (authored: defense) adds to Defense."""
    s = _started()
    w, sheet, token = _with_token(s, GEAR, lambda t: t.kind == 0)
    assert (
        defense_bonus(C, w, w.agent(sheet))
        == defense_bonus(C, s, Work(s).agent(sheet)) + C.tokens[token].value
    )


def test_vehicles() -> None:
    """rule: cyberverse/supply-vehicles - increases Movement; free travel between districts."""
    s = _started()
    w, sheet, _token = _with_token(s, VEHICLE, lambda t: t.free_travel)
    agent = w.agent(sheet)
    assert free_travel(C, agent) and travel_cost(w, C, agent, 0, 2) in (0, 1)
    assert feature(C, agent, MOVEMENT) >= feature(C, Work(s).agent(sheet), MOVEMENT)


def test_strategy_resale_and_training() -> None:
    """rule: cyberverse/strategy-phase - resale at half the price rounded down to the hundred; a
    trained Agent heals 1, earns 1 XP and is not activated."""
    super_vagabond = next(i for i, t in enumerate(C.tokens) if t.price == 500)
    assert strategy.resale_value(C, super_vagabond) == 200
    s = _started()
    w = Work(s)
    sheet = w.agents[0].sheet
    w.set_agent(sheet, health=w.agent(sheet).health - 1)
    strategy._train(w, C, sheet)
    trained = w.agent(sheet)
    assert trained.trained and trained.xp == 1 and trained.health == Work(s).agent(sheet).health


def test_agent_dashboard_and_loss_of_health() -> None:
    """rule: cyberverse/loss-of-health and rule: cyberverse/agent-dashboard - at 0 Health the Agent leaves
    the game; its Supply tokens go back to the stores."""
    s = _started()
    w, sheet, token = _with_token(s, WEAPON)
    assert lose_health(w, C, sheet, 99)
    assert w.agent_at(sheet) < 0
    assert token in w.market.under[WEAPON]


def test_payday_unpaid_agent_leaves() -> None:
    """rule: cyberverse/payday - an Agent who is not paid leaves and is available for hire."""
    s = play_until(GAME, 2, 3, lambda s: s.phase == PAYDAY or (s.phase == 5 and s.actor >= 0))
    w = Work(s)
    seat = w.agents[0].org
    w.set_org(seat, money=0)
    sheet = w.agents[0].sheet
    w.set_agent(sheet, trained=False, rescued=False)
    engine._pay(w, C, seat)
    if engine.salary_due(C, sheet, s.agents[0].side) > 0:
        assert w.agent_at(sheet) < 0 and sheet in w.market.agent_row


def test_hacking_gain() -> None:
    """rule: cyberverse/hacking - 100 D x Hacking + 200 D per Influence token in the district."""
    s = _started()
    w = Work(s)
    agent = w.agents[0]
    infl = list(w.orgs[agent.org].influence)
    infl[2] = 2
    w.set_org(agent.org, influence=tuple(infl))
    gain = investigation.hack_gain(w, C, agent, 2)
    assert gain - (100 * feature(C, agent, 2) + 400) in (0, 200, 100, 300)


def test_influence_at_most_three() -> None:
    """rule: cyberverse/influence - at most 3 Influence tokens per Organization in a district."""
    w = Work(_started())
    for _ in range(5):
        investigation.gain_influence(w, C, 0, 1)
    assert w.orgs[0].influence[1] == 3


def test_story_card_validated_when_every_mission_is() -> None:
    """rule: cyberverse/story-cards - a Mission earns its Resources; the Story card is resolved when
    every Investigation card is."""
    s = _started()
    w = Work(s)
    org = w.orgs[0]
    money = org.money
    for case, card in enumerate(org.cases):
        for m in range(len(C.investigations[card].missions)):
            stories.validate(w, C, 0, case, m)
    assert w.orgs[0].solved == (org.story,) and w.orgs[0].story == -1
    rewards = sum(m.reward for k in org.cases for m in C.investigations[k].missions)
    assert w.orgs[0].money == money + rewards


def test_event_phase_news_track() -> None:
    """rule: cyberverse/event-phase - the cards move up one rank, the new card goes on the slot of
    its time value."""
    s = _started()
    w = Work(s)
    events.begin(w, C)
    card = next(iter(w.decks.events))
    events.on_event(w, C, card)
    assert w.city.news[C.events[card].time - 1] == card


def test_ambush_spares_the_owner() -> None:
    """rule: cyberverse/ambush - the card applies to every Agent in the district but the owner's."""
    s = _started()
    w = Work(s)
    a, b = w.agents[0], next(x for x in w.agents if x.org != w.agents[0].org)
    w.set_agent(a.sheet, district=0, zone=C.boards[w.city.boards[0]].entry)
    w.set_agent(b.sheet, district=0, zone=C.boards[w.city.boards[0]].entry)
    damage_card = next(i for i, x in enumerate(C.ambush) if x.effect == 1 and x.value == 1)
    w.set_ctx(queue=(b.sheet,), district=0, stage=0)
    health = (w.agent(a.sheet).health, w.agent(b.sheet).health)
    investigation.on_ambush(w, C, damage_card)
    assert w.agent(a.sheet).health == health[0]


def test_agent_lost_adjusts_support() -> None:
    """rule: cyberverse/support-cards - after losing an Agent, no more Support cards than the
    team's Reputation; the Organization chooses which to discard (one decision per card), then the
    interrupted step goes on."""
    s = _started()
    w = Work(s)
    seat = w.agents[0].org
    w.set_org(seat, support=(0, 1, 2))
    for a in [x for x in w.agents if x.org == seat]:
        agent_lost(w, C, a.sheet)
    engine.adjust_support(w, C)
    t = w.freeze()
    assert t.step == D_DROP_SUPPORT and t.actor == seat and t.held == (s.step, s.actor)
    assert GAME.legal_actions(t) == [act("drop-support", u) for u in (0, 1, 2)]
    assert GAME.from_dict(GAME.to_dict(t)) == t
    t = GAME.apply(t, act("drop-support", 1))
    assert t.orgs[seat].support == (0, 2) and t.step == D_DROP_SUPPORT
    t = GAME.apply(GAME.apply(t, act("drop-support", 2)), act("drop-support", 0))
    assert t.orgs[seat].support == () and 1 in t.market.support_discard
    assert (t.step, t.actor, t.held, t.adjust) == (s.step, s.actor, (), ())


def test_activation_three_actions_and_initiative() -> None:
    """rule: cyberverse/activation-phase - 3 Actions each; Agents move in Initiative order; rule:
    cyberverse/agent-sheets - Agents kept by Initiative."""
    s = play_until(GAME, 3, 2, lambda s: s.phase == 3 and s.actor >= 0)
    assert all(o.actions <= 3 for o in s.orgs)
    ini = [C.faces[2 * a.sheet + a.side].initiative for a in s.agents]
    assert ini == sorted(ini)


def test_combat_engaged_and_status_on_agents() -> None:
    """rule: cyberverse/combat - a fight happens in random play; Agents keep their Status tokens
    (rule: cyberverse/status-tokens) and never exceed one of each type."""
    s = play_until(GAME, 2, 5, lambda s: s.fight is not None and s.fight.engaged and s.actor >= 0)
    assert s.fight is not None and any(f.kind == 0 for f in s.fight.fighters)
    assert all(a.status == tuple(sorted(set(a.status))) and set(a.status) <= {0, 1, 2} for a in s.agents)
    assert BLEEDING in replace(s.agents[0], status=(BLEEDING,)).status
    assert ANALYSIS == 1


def test_support_card_turns_henchmen_into_teammates_within_reputation() -> None:
    """rule: cyberverse/support-cards - discarding a Support card before a Combat changes as many
    Henchmen into Teammates as the card says but no more than the Agent's Reputation (the El Duque
    example: 3 on the card, Reputation 1, 1 Teammate); rule: cyberverse/combat - one card per
    Organization and board."""
    from games.core import CHANCE
    from games.cyberverse.content import REPUTATION
    from games.cyberverse.state import D_CONVERT, D_SUPPORT, TEAMMATE

    s = play_until(GAME, 2, 11, lambda s: s.step == D_SUPPORT)
    assert s.fight is not None
    leader = s.fight.fighters[s.fight.queue[0]]
    henchmen = sum(1 for f in s.fight.fighters if f.kind == 2 and not f.gone)
    action = next(a for a in GAME.legal_actions(s) if a.kind == "discard-support")
    card = C.support[action.a]
    reputation = feature(C, next(a for a in s.agents if a.sheet == leader.ref), REPUTATION)
    s = GAME.apply(s, action)
    while s.step == D_CONVERT:
        s = GAME.apply(s, GAME.legal_actions(s)[0])
    assert s.fight is not None
    teammates = [f for f in s.fight.fighters if f.kind == TEAMMATE]
    assert len(teammates) == min(card.teammates, reputation, henchmen)
    assert all(f.org == leader.org for f in teammates)
    assert action.a not in s.orgs[leader.org].support
    assert leader.org in s.fight.supported
    assert s.actor == CHANCE or s.step != D_SUPPORT or s.fight.fighters[s.fight.queue[0]].org != leader.org


def test_henchmen_target_chosen_by_the_organization_playing_them() -> None:
    """rule: cyberverse/combat - "Henchmen always attack the organization with the most resources"
    (its Agents and its Teammates, "an enemy character"); the Organization playing them (in a
    2-player game the opponent of the one attacked) chooses which; a tie on resources leaves the
    printed rule (the nearest Agent, then the lowest Initiative) and no choice."""
    s = play_until(GAME, 2, 0, lambda s: s.step == D_HENCHMAN_TARGET)
    assert s.fight is not None
    i = s.fight.queue[0]
    targets = [a.a for a in GAME.legal_actions(s)]
    orgs = {s.fight.fighters[j].org for j in targets}
    assert len(targets) >= 2 and len(orgs) == 1
    (target_org,) = orgs
    assert s.actor == henchman_controller(s, target_org) == 1 - target_org
    kinds = {s.fight.fighters[j].kind for j in henchman_targets(s, C, i)}
    assert kinds <= {cv_state.AGENT, cv_state.TEAMMATE}
    for a in GAME.legal_actions(s):
        t = GAME.apply(s, a)
        assert t.step != D_HENCHMAN_TARGET or t.fight is None or t.fight.queue[0] != i


def _two_sides_against_henchmen(s: State) -> bool:
    f = s.fight
    if f is None or not f.red or not f.engaged:
        return False
    sides = {g.org for g in f.fighters if g.kind != cv_state.HENCHMAN and not g.gone}
    return len(sides) >= 2 and any(g.kind == cv_state.HENCHMAN and not g.gone for g in f.fighters)


def test_henchmen_tie_on_resources_leaves_the_printed_rule() -> None:
    """rule: cyberverse/combat - "In the event of a tie on resources, Henchmen attack the nearest
    Agent (in the event of a tie on distance, they prefer the one with the lowest Initiative
    value)": no choice is left."""
    s = play_until(GAME, 3, 0, _two_sides_against_henchmen)
    assert s.fight is not None
    w = Work(s)
    for seat in range(3):
        w.set_org(seat, money=500)
    tie = w.freeze()
    assert tie.fight is not None
    for i, f in enumerate(tie.fight.fighters):
        if f.kind == cv_state.HENCHMAN and not f.gone:
            j = henchman_target(tie, C, i)
            assert henchman_targets(tie, C, i) == ([j] if j >= 0 else [])
            assert j < 0 or tie.fight.fighters[j].kind == cv_state.AGENT


SHORTEST = {"henchmen_moves": "shortest"}
"""The variant in which a Henchman always moves toward its target by a shortest way."""


def _henchman_at(step: int) -> Callable[[State], bool]:
    def stop(s: State) -> bool:
        f = s.fight
        return s.step == step and f is not None and f.fighters[f.queue[0]].kind == cv_state.HENCHMAN

    return stop


def test_henchman_projection_chosen_by_the_organization_playing_it() -> None:
    """rule: cyberverse/combat-tokens - Projection: "Targeted character is moved to an adjacent
    zone"; rule: cyberverse/combat - for a Henchman the Organization playing it (in a 2-player game
    the opponent of the one attacked; with 3 one with no Agent on the board or the fewest
    Resources) chooses the zone, among the adjacent ones with room."""

    def projecting(s: State) -> bool:
        return _henchman_at(cv_state.D_PROJECT)(s) and len(GAME.legal_actions(s)) >= 2

    for players in (2, 3):
        s = play_until(GAME, players, 0, projecting)
        assert s.fight is not None
        target = s.fight.fighters[s.fight.target]
        assert s.actor == henchman_controller(s, target.org) != target.org
        if players == 2:
            assert s.actor == 1 - target.org
        legal = GAME.legal_actions(s)
        zone = next(a.zone for a in s.agents if a.sheet == target.ref) if target.kind == 0 else target.zone
        board = C.boards[s.city.boards[s.fight.district]]
        assert len(legal) >= 2 and all(a.kind == "project" and a.a in board.adjacent[zone] for a in legal)
        for a in legal:
            t = GAME.apply(s, a)
            moved = next((x.zone for x in t.agents if x.sheet == target.ref), -1) if target.kind == 0 else -1
            if target.kind == 0 and moved >= 0:
                assert moved == a.a
            assert GAME.parse_action(s, GAME.action_to_text(s, a)) == a


def test_henchman_adrenalin_chosen_by_the_organization_playing_it() -> None:
    """rule: cyberverse/combat-tokens - Adrenalin (attack): "Character can move to an adjacent zone
    after performing an Attack"; rule: cyberverse/combat - for a Henchman the Organization playing
    it chooses to hold or the zone (adjacent, with room), and the Henchman moves there."""
    for players in (2, 3):
        s = play_until(GAME, players, 0, _henchman_at(cv_state.D_ADRENALIN))
        assert s.fight is not None
        i = s.fight.queue[0]
        target = s.fight.fighters[s.fight.target]
        assert s.actor == henchman_controller(s, target.org) != target.org
        legal = GAME.legal_actions(s)
        assert legal[0].kind == "hold" and len(legal) >= 2
        zone = s.fight.fighters[i].zone
        board = C.boards[s.city.boards[s.fight.district]]
        for a in legal[1:]:
            assert a.kind == "step" and a.a in board.adjacent[zone]
            t = GAME.apply(s, a)
            assert t.fight is None or t.fight.fighters[i].zone == a.a
        t = GAME.apply(s, legal[0])
        assert t.fight is None or t.fight.fighters[i].zone == zone


def test_henchman_multiple_shot_second_target_chosen_by_the_organization_playing_it() -> None:
    """rule: cyberverse/combat-tokens - Multiple shot: "Character can target 2 characters in the
    same zone"; rule: cyberverse/combat - for a Henchman the Organization playing it chooses the
    second target (reading: one of the same Organization as the first, "Henchmen always attack the
    organization with the most resources") or holds."""
    from games.cyberverse.damage import MULTIPLE_SHOT

    s = play_until(GAME, 2, 0, lambda s: s.step == D_HENCHMAN_TARGET)
    assert s.fight is not None
    i = s.fight.queue[0]
    # the second target an Agent, whose Health and Status outlive the Combat
    kinds = [f.kind for f in s.fight.fighters]
    first, second = sorted((a.a for a in GAME.legal_actions(s)[:2]), key=lambda j: -kinds[j])
    assert kinds[second] == cv_state.AGENT
    w = Work(s)
    zone = s.fight.fighters[i].zone
    shot = next(t for t, tok in enumerate(C.combat_tokens) if tok.effect == MULTIPLE_SHOT)
    w.set_fighter(i, token=shot, shown=False, grappled=False)
    for j in (first, second):
        g = s.fight.fighters[j]
        if g.kind == cv_state.AGENT:
            w.set_agent(g.ref, zone=zone, spot=-1)
        else:
            w.set_fighter(j, zone=zone, spot=-1)
        w.set_fighter(j, token=-1, shown=False)
    s = w.freeze()
    s = GAME.apply(s, act("send", first))
    if (
        s.step == cv_state.D_FIGHT_MOVE
    ):  # in range already: it stops where it stands (rule: cyberverse/henchmen)
        s = GAME.apply(s, act("hold"))
    assert s.step == cv_state.D_SECOND and s.fight is not None and s.fight.queue[0] == i
    target_org = s.fight.fighters[first].org
    assert s.actor == henchman_controller(s, target_org) == 1 - target_org
    legal = GAME.legal_actions(s)
    assert legal[0].kind == "hold"
    assert second in [a.a for a in legal[1:]]
    assert all(a.kind == "attack" and s.fight.fighters[a.a].org == target_org for a in legal[1:])
    a = next(a for a in legal if a.a == second and a.kind == "attack")
    assert GAME.parse_action(s, GAME.action_to_text(s, a)) == a
    GAME.explain(s, a)
    from games.cyberverse.damage import strike

    blow, _ = strike(s, C, i, second, -1, xp=0, tokens=(shot, -1))
    g = s.fight.fighters[second]
    t = GAME.apply(s, a)
    before = next(x for x in s.agents if x.sheet == g.ref)
    after = next((x for x in t.agents if x.sheet == g.ref), None)
    hit = after is None or (after.health, after.status) != (before.health, before.status)
    assert hit == bool(blow.health or blow.status)


def test_henchman_way_chosen_by_the_organization_playing_it() -> None:
    """rule: cyberverse/henchmen - a Henchman moves up to its Movement ("the maximum number of
    adjacent zones he can move"); with the variant ``henchmen_moves="shortest"`` toward its target,
    and rule: cyberverse/combat - where two zones lead on a shortest way, the Organization playing
    it chooses (step "move in combat", `move to zone N`); the Henchman steps there and walks on or
    attacks. (The default, free moves: test_readings.py.)"""
    from games.cyberverse.henchmen import henchman_ways

    def way(s: State) -> bool:
        if not (_henchman_at(cv_state.D_FIGHT_MOVE)(s) and GAME.legal_actions(s)[0].kind == "step"):
            return False
        after = [GAME.apply(s, a).fight for a in GAME.legal_actions(s)]
        return all(f is not None and s.fight is not None and f.district == s.fight.district for f in after)

    for players in (2, 3):
        s = play_until(GAME, players, 0, way, options=SHORTEST)
        assert s.fight is not None
        i, j = s.fight.queue[0], s.fight.target
        target = s.fight.fighters[j]
        assert s.actor == henchman_controller(s, target.org) != target.org
        board = C.boards[s.city.boards[s.fight.district]]
        zone = s.fight.fighters[i].zone
        goal = next(a.zone for a in s.agents if a.sheet == target.ref) if target.kind == 0 else target.zone
        legal = GAME.legal_actions(s)
        assert [a.a for a in legal] == henchman_ways(s, C, i, j) and len(legal) >= 2
        for a in legal:
            assert a.kind == "step" and a.a in board.adjacent[zone]
            assert board.distance[a.a][goal] == board.distance[zone][goal] - 1
            assert GAME.parse_action(s, GAME.action_to_text(s, a)) == a
            assert GAME.action_to_text(s, a) == f"move to zone {a.a + 1}"
            t = GAME.apply(s, a)
            assert t.fight is not None and t.fight.fighters[i].zone in (
                a.a,
                *board.adjacent[a.a],
            )


def test_henchman_decisions_round_trip_and_read() -> None:
    """rule: cyberverse/combat - each Henchman decision (its way, Projection, Adrenalin) is a state
    like any other: its JSON form round-trips, the deciding seat's observation keeps the same
    choices, and every choice has a log line, reasons and a description that do not fail."""
    for step in (cv_state.D_FIGHT_MOVE, cv_state.D_PROJECT, cv_state.D_ADRENALIN):
        s = play_until(GAME, 3, 0, _henchman_at(step))
        assert GAME.from_dict(GAME.to_dict(s)) == s
        legal = list(GAME.legal_actions(s))
        assert list(GAME.legal_actions(GAME.observation(s, s.actor))) == legal
        GAME.describe(s, s.actor)
        for a in legal:
            assert ", playing the " in GAME.log_line(s, a) and GAME.action_to_text(s, a)
            assert GAME.explain(s, a)


def test_henchman_tactical_position_chosen_by_the_organization_playing_it() -> None:
    """rule: cyberverse/tactical-positions - "A character must spend 1 Movement point to occupy a
    Tactical Position" (advantageous: +2 Attack); rule: cyberverse/hacking - "Henchmen cannot be
    placed in tactical Hacking positions"; rule: cyberverse/henchmen - a Henchman in range of its
    target with Movement left may take its zone's free position, the choice of the Organization
    playing it (`take the advantageous position` or `hold`, and with the default free moves a
    step too), and then attacks."""
    from games.cyberverse.content import POSITION_KINDS
    from games.cyberverse.henchmen import henchman_moves

    def position(s: State) -> bool:
        # another Henchman acts after it, so the Combat is still on after its attack
        ok = _henchman_at(cv_state.D_FIGHT_MOVE)(s) and GAME.legal_actions(s)[-1].kind == "spot"
        ok = ok and s.fight is not None and len(s.fight.queue) > 1
        after = [GAME.apply(s, a).fight for a in GAME.legal_actions(s)]
        return ok and all(
            f is not None and s.fight is not None and f.district == s.fight.district for f in after
        )

    s = play_until(GAME, 3, 0, position, options=SHORTEST)
    assert s.fight is not None
    i, j = s.fight.queue[0], s.fight.target
    f = s.fight.fighters[i]
    assert s.actor == henchman_controller(s, s.fight.fighters[j].org)
    board = C.boards[s.city.boards[s.fight.district]]
    hold, spot = GAME.legal_actions(s)
    assert list(GAME.legal_actions(s)) == henchman_moves(s, C, i, j)
    assert hold.kind == "hold" and spot.a == board.position_at[f.zone] != board.hacking
    kind = POSITION_KINDS[board.positions[spot.a][1]]
    assert kind != "hacking" and GAME.action_to_text(s, spot) == f"take the {kind} position"
    assert GAME.parse_action(s, GAME.action_to_text(s, spot)) == spot
    for a, where in ((spot, spot.a), (hold, f.spot)):
        t = GAME.apply(s, a)
        assert t.fight is not None and t.fight.district == s.fight.district
        assert t.fight.fighters[i].spot == where and t.fight.fighters[i].done


def test_stealth_token_holder_still_moves_in_combat() -> None:
    """rule: cyberverse/status-tokens - "Stealth: Cannot attack or be attacked" says nothing of
    moving; rule: cyberverse/combat - "Agents move first, in order of their initiative": the Agent
    holding a Stealth token is offered its move first (the issue's reproducer: 2 players, both
    Agents on district 5's Entry zone, the empty green Brawl card, the lower-Initiative Agent
    holding T17), and it has no attack to make."""
    from tests.cyberverse.helpers import combat_on, draw

    s = draw(GAME, combat_on(GAME, 4), "B07")
    low = s.agents[0]
    assert (
        C.faces[2 * low.sheet + low.side].initiative
        < C.faces[2 * s.agents[1].sheet + s.agents[1].side].initiative
    )
    s = draw(GAME, draw(GAME, s, "T17"), "T02")
    s = GAME.apply(s, next(a for a in GAME.legal_actions(s) if "T17" in GAME.action_to_text(s, a)))
    s = draw(GAME, draw(GAME, s, "T03"), "T18")
    s = GAME.apply(s, GAME.legal_actions(s)[0])
    assert s.fight is not None
    assert s.step == cv_state.D_FIGHT_MOVE and s.actor == low.org
    assert s.fight.fighters[s.fight.queue[0]].ref == low.sheet
    assert any(a.kind == "step" for a in GAME.legal_actions(s))
    s = GAME.apply(s, act("hold"))
    assert s.fight is not None and s.fight.fighters[s.fight.queue[0]].ref != low.sheet  # no attack


def test_grill_weapon_lets_the_attacker_choose_the_cyber_implant() -> None:
    """rule: cyberverse/supply-weapons - "If the Attack succeeds in inflicting at least 1 Damage, the
    Attacker may choose to grill a Cyber-Implant of his target": a non-expert grill Weapon (Power
    Fist) hitting a target that carries two Cyber-Implants offers the step "grill a cyber-implant"
    to the attacker's Organization: either Implant, or none."""
    from tests.cyberverse.helpers import combat_on, draw

    ids = {t.id: i for i, t in enumerate(C.tokens)}
    assert not C.tokens[ids["W20"]].expert
    s = combat_on(GAME, 4, kits={0: (ids["W20"],), 1: (ids["C01"], ids["C02"])})
    attacker, target = s.agents[0], s.agents[1]
    s = draw(GAME, draw(GAME, draw(GAME, s, "B07"), "T27"), "T02")
    s = GAME.apply(s, next(a for a in GAME.legal_actions(s) if "T27" in GAME.action_to_text(s, a)))
    s = draw(GAME, draw(GAME, s, "T20"), "T03")
    s = GAME.apply(s, next(a for a in GAME.legal_actions(s) if "T20" in GAME.action_to_text(s, a)))
    s = GAME.apply(s, act("hold"))
    assert s.fight is not None and s.fight.fighters[s.fight.queue[0]].ref == attacker.sheet
    hit = next(a for a in GAME.legal_actions(s) if a.kind == "attack" and a.b == ids["W20"] and a.c == 0)
    s = GAME.apply(s, hit)
    assert s.step == cv_state.D_GRILL and s.actor == attacker.org
    assert sorted((a.kind, a.a) for a in GAME.legal_actions(s)) == [
        ("grill", ids["C01"]),
        ("grill", ids["C02"]),
        ("no-grill", 0),
    ]
    assert next(a for a in s.agents if a.sheet == target.sheet).broken == ()
    grilled = GAME.apply(s, act("grill", ids["C02"]))
    assert next(a for a in grilled.agents if a.sheet == target.sheet).broken == (ids["C02"],)
    spared = GAME.apply(s, act("no-grill"))
    assert next(a for a in spared.agents if a.sheet == target.sheet).broken == ()
