"""Hints a person can trust (issue 30) for CyberVerse: where an Organization stands in the rulebook's
terms (``outcome_facts``), the exact activation-plan advice at an Agent's move, a hint that ranks by
it and says so, and the Combat token step named as the rulebook does."""

from __future__ import annotations

import itertools
import random
import threading

import pytest

from games.core import CHANCE, TERMINAL, GameConfig
from games.cyberverse import CyberverseGame, scoring
from games.cyberverse.engine import STORIES_TO_WIN
from games.cyberverse.state import ACTIVATION, C_FIGHTER_TOKEN, D_MOVE, STEPS, State
from lictor.v1 import advisor_service_pb2 as advisor_pb
from search import SearchLimit
from service import jobs
from service.advisor import build_hints
from solver.core import SolveLimits, get_advice
from solver.cyberverse import ADVICE_LABEL, activation_problem, plan_value, reachable_after
from tests.cyberverse.helpers import play_until

GAME = CyberverseGame()
C = GAME.content_pack
LIMITS = SolveLimits(time_limit_s=30.0, workers=1)


def _positions(players: int, count: int, seed: int, want=lambda s: True) -> list[State]:
    """``count`` positions of random games where a seat decides and ``want`` holds."""
    rng = random.Random(seed)
    out: list[State] = []
    while len(out) < count:
        s = GAME.new_state(GameConfig(players=players), rng.randrange(10**6))
        while GAME.current_player(s) != TERMINAL and len(out) < count:
            if s.actor >= 0 and want(s) and rng.random() < 0.2:
                out.append(s)
            legal = list(GAME.legal_actions(s))
            s = GAME.apply(s, GAME.sample_chance(s, rng) if s.actor == CHANCE else rng.choice(legal))
    return out


def _agent_move(s: State) -> bool:
    return s.phase == ACTIVATION and s.step == D_MOVE


@pytest.mark.parametrize("players", [2, 4])
def test_outcome_facts_are_the_victory_points_by_source(players: int) -> None:
    """rule: cyberverse/end-of-game, rule: cyberverse/influence - the first fact is the VP the seat
    would have if the game ended now, the sources add up to it, the lead is over the best other
    Organization, the story cards resolved are counted against the number that ends the game, and
    every position gives the same labels; a hint looks ahead to the end of the game turn."""
    labels = None
    for s in _positions(players, 8, seed=players):
        seat = s.actor
        facts = GAME.outcome_facts(s, seat)
        totals = [b.total for b in scoring.breakdown(s, C)]
        assert facts[0].label == "VP if the game ended now" and facts[0].value == totals[seat]
        assert facts[1].label == "lead over the best other Organization"
        assert facts[1].value == totals[seat] - max(t for k, t in enumerate(totals) if k != seat)
        parts = [f.value for f in facts[2:] if f.label.endswith(" VP")]
        assert len(parts) == 4 and sum(parts) == facts[0].value
        resolved = next(f for f in facts if f.label == "story cards resolved")
        assert resolved.value == len(s.orgs[seat].solved)
        assert f"of {STORIES_TO_WIN[players]} story cards" in resolved.text
        names = [f.label for f in facts]
        assert labels in (None, names)
        labels = names
        assert GAME.round_of(s) == s.turn
    assert GAME.round_word == "turn"
    assert GAME.outcome_facts(s, players) == []


def _enumerated(s: State, seat: int) -> int:
    """The best plan for the rest of ``seat``'s activation by enumerating every way it can end: the
    Agents already activated stay, the one moving may go on at no Action's cost, each waiting one
    may go where it reaches for one Action (rule: cyberverse/activation-phase)."""
    p = activation_problem(s, C, seat)
    agents = [a for a in s.agents if a.org == seat and not a.recruited and not a.trained]
    ctx = s.ctx
    moving = s.phase == ACTIVATION and s.step == D_MOVE
    waiting = set(ctx.queue) if s.phase == ACTIVATION else set()
    options: list[list[int]] = []
    costs: list[bool] = []
    for i, a in enumerate(agents):
        if moving and a.sheet == ctx.agent and ctx.started:
            options.append(sorted({a.district} | reachable_after(s, C, a, ctx.mp, ctx.visited)))
            costs.append(False)
        elif a.sheet in waiting or (moving and a.sheet == ctx.agent):
            options.append(sorted({p.current[i]} | p.reach[i]))
            costs.append(True)
        else:
            options.append([p.current[i]])
            costs.append(False)
    best = -1
    for plan in itertools.product(*options):
        spent = sum(1 for i, d in enumerate(plan) if costs[i] and d != p.current[i])
        if spent <= p.actions:
            best = max(best, plan_value(p, plan))
    return best


@pytest.mark.parametrize("players", [2, 3])
def test_move_advice_is_the_best_activation_plan_after_each_step(players: int) -> None:
    """rule: cyberverse/activation-phase, rule: cyberverse/moving-agents - at an Agent's move the
    advice values every legal step by the best activation plan after it (CP-SAT), equal to
    enumerating every way the activation can end; its best has the most; it decides the hint only
    where the steps differ."""
    advise = get_advice("cyberverse")
    assert advise is not None
    decided = 0
    for s in _positions(players, 10, seed=20 + players, want=_agent_move):
        advice = advise(GAME, s, (), LIMITS)
        assert advice is not None and advice.label == ADVICE_LABEL
        legal = GAME.legal_actions(s)
        assert set(advice.values) == {GAME.action_to_text(s, a) for a in legal}
        for a in legal:
            value = advice.values[GAME.action_to_text(s, a)]
            assert value == _enumerated(GAME.apply(s, a), s.actor) / 1000
        assert advice.values[advice.best] == max(advice.values.values())
        assert advice.decides == (len(set(advice.values.values())) > 1)
        decided += advice.decides
    assert decided, "no position where the steps differ"
    strategy = _positions(players, 1, seed=5, want=lambda s: s.phase != ACTIVATION)[0]
    assert advise(GAME, strategy, (), LIMITS) is None


def test_a_hint_at_an_agent_move_ranks_by_the_plan_and_says_so() -> None:
    """rule: cyberverse/activation-phase - where the plan tells the steps apart, the hint's #1 is the
    plan's best among the moves it shows and its first reason is the plan's value, marked exact."""
    states = [s for s in _positions(3, 12, seed=3, want=_agent_move) if advise_decides(s)][:2]
    assert states
    for s in states:
        found = jobs.hint(
            game="cyberverse",
            pack="",
            state=s,
            limit=SearchLimit(simulations=100),
            seed=1,
            top_k=3,
            look_s=1.0,
            stop=threading.Event(),
            progress=None,
        )
        reply = advisor_pb.HintResponse(seat=found.analysis.seat)
        build_hints(reply, found, 3)
        advice = found.advice
        assert advice is not None and advice.decides
        shown = [advice.values[h.action] for h in reply.hints if h.action in advice.values]
        assert shown == sorted(shown, reverse=True)
        first = reply.hints[0].reasons[0]
        assert first.text == f"{ADVICE_LABEL} (exact)" and first.value == advice.values[reply.hints[0].action]


def advise_decides(s: State) -> bool:
    advise = get_advice("cyberverse")
    assert advise is not None
    advice = advise(GAME, s, (), LIMITS)
    return advice is not None and advice.decides


def test_a_henchman_combat_token_is_placed_face_down() -> None:
    """rule: cyberverse/combat-tokens - Henchmen and Teammates receive 1 Combat token, placed face
    down: the step says so (not "reveal"), and a state saved under the old name is still read."""
    s = play_until(GAME, 3, 1, lambda s: s.step == C_FIGHTER_TOKEN)
    assert STEPS[C_FIGHTER_TOKEN] == "place a combat token face down by a henchman or teammate"
    assert "face down" in GAME.describe(s).step
    data = GAME.to_dict(s)
    assert data["step"] == STEPS[C_FIGHTER_TOKEN]
    assert GAME.from_dict({**data, "step": "reveal a face-down combat token"}) == s
