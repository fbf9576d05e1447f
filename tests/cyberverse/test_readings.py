"""The readings issue 28 settled: where the rulebook's text is clear its literal reading is the
default and the other a named variant (docs/cyberverse.md, "Readings ... and variants")."""

from __future__ import annotations

from typing import Any

import pytest

from games.core.records import replace
from games.cyberverse import CyberverseGame, investigation
from games.cyberverse.agents import agent_lost
from games.cyberverse.content import MISSION_KINDS
from games.cyberverse.state import (
    AUXILIARY,
    BLEEDING,
    D_AUX,
    D_FIGHT_MOVE,
    D_STRATEGY,
    D_TEST,
    HENCHMAN,
    INVESTIGATION,
    NO_CTX,
    STRATEGY,
    WOUND,
    State,
    act,
    mission_of,
)
from games.cyberverse.work import Work
from tests.cyberverse.helpers import combat_on, draw, play_until

GAME = CyberverseGame()
C = GAME.content_pack
TEST = MISSION_KINDS.index("test")


def _started(options: dict[str, Any] | None = None) -> State:
    """The first Strategy phase of a 2-player game: one Agent per Organization, both in their HQ."""
    return play_until(GAME, 2, 1, lambda s: s.phase == STRATEGY and s.actor >= 0, options=options)


def _two_tests_in_one_district() -> tuple[int, tuple[int, int], tuple[int, int]]:
    """A district and two (card, mission) test Missions there, on two yellow cards."""
    seen: dict[int, tuple[int, int]] = {}
    for k, card in enumerate(C.investigations):
        for m, mission in enumerate(card.missions):
            if card.colour == 0 and mission.kind == TEST:
                if mission.district in seen and seen[mission.district][0] != k:
                    return mission.district, seen[mission.district], (k, m)
                seen.setdefault(mission.district, (k, m))
    raise AssertionError("the pack has no two test Missions in one district")


def _investigating(options: dict[str, Any] | None = None) -> tuple[State, int]:
    """An Agent alone on a district board where its Organization has two open test Missions, at the
    Investigation stage (rule: cyberverse/investigation)."""
    s = _started(options)
    d, (k1, _), (k2, _) = _two_tests_in_one_district()
    w = Work(s)
    agent = w.agents[0]
    w.set_agent(agent.sheet, district=d, zone=C.boards[w.city.boards[d]].entry, spot=-1)
    for other in w.agents[1:]:
        w.set_agent(other.sheet, district=-1, zone=-1, spot=-1)
    w.set_org(agent.org, cases=(k1, k2), done=((), ()), spent=((), ()), marks=((), ()))
    w.phase = INVESTIGATION
    w.ctx = replace(NO_CTX, district=d, stage=3)
    investigation.run(w, C)
    t = w.freeze()
    assert t.step == D_TEST and t.ctx.agent == agent.sheet
    return t, agent.sheet


def _tested(s: State) -> set[int]:
    return {a.a for a in GAME.legal_actions(s) if a.kind == "test"}


def test_an_agent_tests_each_open_mission_of_its_district() -> None:
    """rule: cyberverse/investigation - "Agents present in the Districts designated by the
    Investigation card's Mission draw a Modifier card": an Agent present may test every open
    Mission of its district (once each per Investigation phase); the variant ``tests=
    "one-per-agent"`` keeps the earlier reading, one test per Agent and phase."""
    s, sheet = _investigating()
    first, second = sorted(_tested(s))
    s = GAME.apply(s, act("test", first, 0))
    s = draw(GAME, s, "-1")  # fails: the Mission stays open but this Agent has tested it
    assert s.step == D_TEST and s.ctx.agent == sheet and _tested(s) == {second}
    assert GAME.from_dict(GAME.to_dict(s)) == s
    tested = {"investigation": 1, "mission": mission_of(first)[1] + 1}
    assert GAME.to_dict(s)["ctx"]["missions_tested"] == [tested]
    s = GAME.apply(s, act("test", second, 0))
    s = draw(GAME, s, "+2")
    assert not (s.step == D_TEST and s.ctx.agent == sheet)

    s, sheet = _investigating({"tests": "one-per-agent"})
    s = GAME.apply(s, act("test", first, 0))
    s = draw(GAME, s, "-1")
    assert not (s.step == D_TEST and s.ctx.agent == sheet)


def _rescuable(options: dict[str, Any] | None = None) -> tuple[State, int]:
    s = play_until(GAME, 2, 3, lambda s: s.step == D_AUX and s.phase == AUXILIARY, options=options)
    w = Work(s)
    agent = next(a for a in w.agents if a.org == s.actor)
    w.set_agent(agent.sheet, district=2, zone=0, spot=-1, status=(WOUND, BLEEDING), health=2)
    w.set_org(s.actor, money=1000)
    return w.freeze(), agent.sheet


def test_rescue_fee_leaves_the_status_tokens() -> None:
    """rule: cyberverse/activation-phase - "his Organization must first pay 100D for each Status
    token they have before they can be moved to their Headquarters. The Agent is thus healed by
    1": the fee does not remove the tokens; the healing removes one (rule:
    cyberverse/status-tokens); the variant ``rescue_clears`` removes them all."""
    for clears, status, health in ((False, (BLEEDING,), 2), (True, (), 3)):
        s, sheet = _rescuable({"rescue_clears": clears} if clears else None)
        t = GAME.apply(s, act("rescue", sheet))
        agent = next(a for a in t.agents if a.sheet == sheet)
        assert t.orgs[s.actor].money == 1000 - 200 - 2 * 100
        assert (agent.district, agent.rescued, agent.status, agent.health) == (-1, True, status, health)


def test_a_trained_agent_stays_where_it_stands() -> None:
    """rule: cyberverse/strategy-phase - "When an Agent goes for training, they are healed of 1
    point of damage and earn 1 XP token. They cannot be activated in the next Activation phase":
    nothing sends it home, so it stays on its board (and is not activated); the variant
    ``training="headquarters"`` sends it back to its HQ."""
    for options, home in ((None, False), ({"training": "headquarters"}, True)):
        s = _started(options)
        assert s.step == D_STRATEGY
        w = Work(s)
        agent = next(a for a in w.agents if a.org == s.actor)
        w.set_agent(agent.sheet, district=3, zone=0, spot=-1)
        t = GAME.apply(w.freeze(), act("train", agent.sheet))
        trained = next(a for a in t.agents if a.sheet == agent.sheet)
        assert trained.trained and trained.xp == agent.xp + 1
        assert trained.district == (-1 if home else 3)


def _henchman_moving(options: dict[str, Any] | None = None) -> State:
    """A red Brawl card's lone Henchman about to move, both Agents having held (rule: cyberverse/combat)."""
    s = combat_on(GAME, 4, options=options)
    red = next(b.id for b in C.brawl if b.red and len(b.henchmen) == 1)
    s = draw(GAME, s, red)
    while not (
        s.step == D_FIGHT_MOVE and s.fight is not None and s.fight.fighters[s.fight.queue[0]].kind == HENCHMAN
    ):
        legal = list(GAME.legal_actions(s))
        if s.actor < 0:
            s = GAME.apply(s, legal[0])
            continue
        hold = [a for a in legal if a.kind in ("hold", "no-support")]
        s = GAME.apply(s, hold[0] if hold else legal[0])
        assert s.fight is not None, "the Henchman never moved"
    return s


def test_henchmen_move_as_the_organization_playing_them_chooses() -> None:
    """rule: cyberverse/henchmen - Movement "determines the maximum number of adjacent zones he can
    move", and rule: cyberverse/combat - "Henchmen are always played by an Organization": the
    Organization playing a Henchman may stop or step into any adjacent zone with room; the variant
    ``henchmen_moves="shortest"`` keeps the earlier reading, a shortest way toward its target."""
    s = _henchman_moving()
    assert s.fight is not None
    i, j = s.fight.queue[0], s.fight.target
    board = C.boards[s.city.boards[4]]
    zone = s.fight.fighters[i].zone
    steps = {a.a for a in GAME.legal_actions(s) if a.kind == "step"}
    assert any(a.kind == "hold" for a in GAME.legal_actions(s))
    assert steps and steps <= set(board.adjacent[zone])
    shortest = _henchman_moving({"henchmen_moves": "shortest"})
    assert shortest.fight is not None
    target = shortest.fight.fighters[shortest.fight.target]
    there = next(a.zone for a in shortest.agents if a.sheet == target.ref)
    here = shortest.fight.fighters[shortest.fight.queue[0]].zone
    for a in GAME.legal_actions(shortest):
        if a.kind == "step":
            assert board.distance[a.a][there] < board.distance[here][there]
    assert j >= 0


def test_red_mission_validated_by_standing_alone_at_three_tokens() -> None:
    """rule: cyberverse/story-cards - red cards "require to gain influence in specific districts";
    rule: cyberverse/influence - an Organization alone on a board gains influence there: its red
    Mission is validated even when it already holds its 3 Influence tokens (reading; else the
    Mission could never be validated)."""
    s = _started()
    red = next(k for k, card in enumerate(C.investigations) if card.colour == 2)
    d = C.investigations[red].missions[0].district
    w = Work(s)
    agent = w.agents[0]
    w.set_agent(agent.sheet, district=d, zone=0, spot=-1)
    for other in w.agents[1:]:
        w.set_agent(other.sheet, district=-1, zone=-1, spot=-1)
    influence = list(w.orgs[agent.org].influence)
    influence[d] = 3
    none: tuple[int, ...] = ()
    w.set_org(
        agent.org,
        cases=(red, red),
        done=(none, (0,)),
        spent=(none, none),
        marks=(none, none),
        influence=tuple(influence),
    )
    w.phase = INVESTIGATION
    w.ctx = replace(NO_CTX, district=d, stage=4)
    investigation.run(w, C)
    assert len(w.orgs[agent.org].solved) == len(s.orgs[agent.org].solved) + 1


@pytest.mark.parametrize(("options", "under"), [(None, True), ({"dead_agents": "removed"}, False)])
def test_a_dead_agent_goes_under_the_agent_stack(options: dict[str, Any] | None, under: bool) -> None:
    """rule: cyberverse/agent-dashboard - "When an Agent dies, they are placed at the bottom of the
    Agent sheet stack" (the default: a game without a turn cap never runs out of Agents to
    recruit); the variant ``dead_agents="removed"`` reads rule: cyberverse/loss-of-health,
    "permanently removed from the game"."""
    s = _started(options)
    w = Work(s)
    sheet = w.agents[0].sheet
    agent_lost(w, C, sheet)
    assert (sheet in w.market.agent_under) == under
