"""The AI evaluation of Tiberpunk (games/tiberpunk/ai.py): the heuristic and the move prior.

rule: tiberpunk/end-of-game — the heuristic estimates ``returns`` (most tokens, then coins) and
equals it once the game is over; rule: tiberpunk/stage-1-quests, tiberpunk/stage-3-quests — a
miniature nearer the district of its next quest is worth more.
"""

from __future__ import annotations

import math
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import CHANCE, TERMINAL
from games.core.records import replace
from games.tiberpunk import actions as act
from games.tiberpunk import ai
from games.tiberpunk.state import (
    CHAR,
    LICTOR,
    PH_CGADGET,
    PH_MAIN,
    PH_OVER,
    PH_PURSUE,
    PH_QGADGET,
    PH_REWARD,
    State,
)
from tests.tiberpunk.helpers import GAME, R, lictors, new, placed, put


def _walk(seed: int, steps: int, **options: object) -> list[State]:
    """States of a seeded game played by the prior (a purposeful policy), at most ``steps`` actions."""
    s = new(2, seed, **options)
    rng = random.Random(seed)
    out = [s]
    for _ in range(steps):
        player = GAME.current_player(s)
        if player == TERMINAL:
            break
        if player == CHANCE:
            a = GAME.sample_chance(s, rng)
        else:
            acts = GAME.legal_actions(s)
            weights = GAME.prior(s)
            a = rng.choices(acts, weights=weights)[0] if weights is not None else rng.choice(acts)
        s = GAME.apply(s, a)
        out.append(s)
    return out


def _fresh_seat(s: State, seat: int) -> tuple[float, tuple[tuple[float, int, int], ...]]:
    """A seat's potential and targets computed afresh (what the seat cache must return)."""
    tables = ai._tables(GAME)
    p = s.players[seat]
    targets = tuple(ai._targets(tables, s, seat))
    return ai._static(tables, s, seat) + ai._reach(tables, targets, p.char, p.drone), targets


def _fresh_gains(tables: Any, s: Any) -> tuple[float, ...]:
    """Each legal action's one-ply gain, computed without the gain and prior caches."""
    ply = ai._OnePly(GAME, tables, s)
    return tuple(ply.gain(a) for a in GAME.legal_actions(s))


def _fresh_prior(tables: Any, s: Any) -> tuple[float, ...]:
    """The prior computed without the gain and prior caches."""
    weights = [math.exp(ai.prior_logit(g)) for g in _fresh_gains(tables, s)]
    return tuple(w / sum(weights) for w in weights)


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_heuristic_is_a_distribution_and_the_prior_covers_legal_actions(seed: int) -> None:
    """rule: tiberpunk/end-of-game — values in [0, 1] summing to 1; the prior is a distribution over
    ``legal_actions`` in the main phase and None elsewhere (rolls, rewards, placement); the cached
    prior equals the uncached one."""
    tables = ai._tables(GAME)
    for s in _walk(seed, 120)[::3]:
        h = GAME.heuristic(s)
        assert len(h) == s.n and all(0.0 <= x <= 1.0 for x in h) and math.isclose(sum(h), 1.0)
        pr = GAME.prior(s)
        if s.phase != PH_MAIN:
            assert pr is None
        else:
            assert pr is not None and len(pr) == len(GAME.legal_actions(s))
            assert all(x > 0 for x in pr) and math.isclose(sum(pr), 1.0)
            assert tuple(pr) == _fresh_prior(tables, s)
            assert ai.move_gains(GAME, s) == _fresh_gains(tables, s)


@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_cached_potentials_equal_fresh_ones_across_determinizations(seed: int) -> None:
    """The potentials cache is keyed on what the potentials read (face-up quests, hand sizes): a
    determinization of hidden cards hits entries of another one only where the values are equal."""
    rng = random.Random(seed)
    for s in _walk(seed, 120)[::7]:
        if s.phase == PH_OVER:
            continue
        seat = max(0, GAME.current_player(s))
        for world in (s, GAME.sample_state(GAME.observation(s, seat), seat, rng)):
            got = ai.potentials(GAME, world)
            assert got == [_fresh_seat(world, i)[0] for i in range(world.n)]


def test_the_seat_cache_returns_what_a_fresh_computation_gives() -> None:
    """The seat cache (a seat's potential and targets) is keyed on everything they read: the seat's
    own state, the public board, and every seat's dice (a combat objective reads the opponents'
    dice: skills, shackles, boosts, influence markers). Warm it over the states of several games
    (several setups), then every state's cached values must equal fresh ones; so must the priors
    the cache feeds. (Until 2026-11-25 the key left out the opponents' dice, and this failed.)"""
    tables = ai._tables(GAME)
    states = [s for seed in (3, 4, 5, 6) for s in _walk(seed, 600)[::2] if s.phase != PH_OVER]
    for s in states:
        ai.potentials(GAME, s)
    for s in states:
        common = ai._common(s)
        for i in range(s.n):
            assert ai._seat(tables, s, i, common) == _fresh_seat(s, i)
        if s.phase == PH_MAIN:
            cached = _fresh_prior(tables, s)
            tables.seat_cache.clear()
            assert cached == _fresh_prior(tables, s)


def test_heuristic_equals_returns_at_the_end() -> None:
    """rule: tiberpunk/end-of-game — a finished game (here by the round cap) is scored by ``returns``."""
    for seed in (1, 2):
        last = _walk(seed, 5000, max_rounds=4)[-1]
        assert last.phase == PH_OVER
        assert GAME.heuristic(last) == GAME.returns(last)
    s = put(put(placed(2), 0, otoks=(3, 2, 1, 2)), 1, otoks=(1, 1, 1, 0))
    over = replace(s, end=True, phase=PH_OVER)
    assert GAME.heuristic(over) == GAME.returns(over) == (1.0, 0.0)


def _guile_quest(seed: int = 1) -> tuple[State, int]:
    """A placed 2-player game and the district of the face-up guile Stage I quest."""
    s = placed(2, seed)
    return s, GAME.pack.stage1[s.quests[1][0]].district


def _at(s: State, seat: int, district: int, away: int) -> int:
    """A district exactly ``away`` districts from ``district`` (the lowest such index)."""
    return next(x for x in range(R.nd) if R.board.dist[x][district] == away)


def test_one_step_from_a_quest_is_worth_more_than_three() -> None:
    """rule: tiberpunk/stage-1-quests — the guile quest needs the character in the marker's district:
    a character one district away is valued above the same seat three districts away (the drone,
    the opponent and the lictors unchanged)."""
    s, target = _guile_quest()
    far_spot = _at(s, 0, target, 3)
    near_spot = _at(s, 0, target, 1)
    base = put(s, 1, char=far_spot, drone=far_spot)
    drone = _at(s, 0, target, 3)
    near = put(base, 0, char=near_spot, drone=drone)
    far = put(base, 0, char=far_spot, drone=drone)
    assert GAME.heuristic(near)[0] > GAME.heuristic(far)[0] + 0.005
    assert ai.potentials(GAME, near)[0] > ai.potentials(GAME, far)[0]


def test_one_step_from_the_stage_3_quest_is_worth_more() -> None:
    """rule: tiberpunk/stage-3-quests — holding a Stage III card, the seat is valued higher with the
    required miniature next to its district than far from it."""
    s = placed(2, 3)
    card = next(i for i, q in enumerate(GAME.pack.stage1) if q.skill == 1)  # guile: the character
    target = GAME.pack.stage3[card].district
    s = put(s, 0, story=(0, 2, 0), cards=(-1, card, -1), otoks=(0, 2, 0, 0))
    spot3 = _at(s, 0, target, 3)
    near = put(s, 0, char=_at(s, 0, target, 1), drone=spot3)
    far = put(s, 0, char=spot3, drone=spot3)
    assert GAME.heuristic(near)[0] > GAME.heuristic(far)[0]


def test_a_placed_token_outweighs_progress() -> None:
    """rule: tiberpunk/storyline-objectives — completing a stage (a token) raises the seat's value
    more than holding its card, and more coins raise it a little."""
    s = placed(2)
    tok = put(s, 0, otoks=(1, 0, 0, 0), story=(1, 0, 0), cards=(0, -1, -1))
    held = put(s, 0, story=(1, 0, 0), cards=(0, -1, -1))
    rich = put(s, 0, coins=s.players[0].coins + 3)
    assert GAME.heuristic(tok)[0] > GAME.heuristic(held)[0] > GAME.heuristic(s)[0]
    assert GAME.heuristic(rich)[0] > GAME.heuristic(s)[0]


def test_prior_prefers_approaching_the_quest_and_doing_it() -> None:
    """rule: tiberpunk/movement, tiberpunk/stage-1-quests — a character move toward the quest gets
    more prior mass than one away from it and than any lictor move; in the district, the quest
    interaction gets the most mass."""
    s, target = _guile_quest()
    start = _at(s, 0, target, 2)
    s = lictors(put(s, 0, char=start), *())
    s = replace(s, lictors=tuple(sorted(x for x in range(R.nd) if R.board.dist[x][target] >= 3)[:2]))
    acts = GAME.legal_actions(s)
    pr = GAME.prior(s)
    assert pr is not None
    by = dict(zip(acts, pr, strict=True))
    toward = [
        w
        for a, w in by.items()
        if act.op(a) == act.OP_MOVE
        and act.move_fields(a)[1] == CHAR
        and act.move_fields(a)[4] == 0
        and R.board.dist[act.move_fields(a)[3]][target] < 2
    ]
    away = [
        w
        for a, w in by.items()
        if act.op(a) == act.OP_MOVE
        and act.move_fields(a)[1] == CHAR
        and R.board.dist[act.move_fields(a)[3]][target] > 2
    ]
    lictor_moves = [w for a, w in by.items() if act.op(a) == act.OP_MOVE and act.move_fields(a)[1] == LICTOR]
    assert toward and away and max(toward) > max(away) and max(toward) > max(lictor_moves)
    there = put(s, 0, char=target)
    acts = GAME.legal_actions(there)
    pr2 = GAME.prior(there)
    assert pr2 is not None
    best = acts[max(range(len(acts)), key=lambda i: pr2[i])]
    assert act.op(best) == act.OP_INTERACT and act.interact_fields(best)[1] == act.IT_CHARACTER


def test_a_roll_or_reward_in_progress_is_scored_as_it_settles() -> None:
    """rule: tiberpunk/combat, tiberpunk/gadget-cards, tiberpunk/objective-rewards — a position in
    the middle of a quest roll, a combat or a reward is scored as what it settles to when nobody
    plays another gadget: a combat is decided as the dice lie (the loser's miniature shackled), a
    reward is taken, a failed quest roll brings the nearest lictor closer (or ends the attempt)."""
    middle = (PH_QGADGET, PH_CGADGET, PH_PURSUE, PH_REWARD)
    seen = {phase: 0 for phase in middle}
    for seed in range(12):
        for s in _walk(seed, 400):
            if s.phase not in middle:
                assert ai.settled(GAME, s) is s
                continue
            seen[s.phase] += 1
            after = ai.settled(GAME, s)
            assert after.phase not in middle
            assert GAME.heuristic(s) == GAME.heuristic(after)
            if s.phase == PH_QGADGET:
                ctx = s.ctx
                assert ctx is not None
                near = min(R.board.dist[x][ctx.where] for x in s.lictors)
                assert after.ctx is None or min(R.board.dist[x][ctx.where] for x in after.lictors) < near
            if s.phase == PH_CGADGET:
                ctx = s.ctx
                assert ctx is not None and after.ctx is None
                if R.attacker_wins(ctx):
                    if ctx.tkind != LICTOR:
                        assert after.players[ctx.tseat].shackles >> ctx.tkind & 1
                else:
                    assert after.players[s.seat].shackles >> ctx.mini & 1
    assert all(seen.values()), seen
