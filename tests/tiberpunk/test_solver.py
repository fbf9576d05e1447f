"""Exact quest odds (solver/tiberpunk/odds.py) against closed forms and Monte-Carlo runs of the engine."""

from __future__ import annotations

import random

import pytest

from games.core import CHANCE
from games.core.records import replace
from games.tiberpunk import actions as act
from games.tiberpunk.dice import p_contains
from games.tiberpunk.state import PH_PURSUE, PH_QGADGET, PH_REWARD
from solver.core import SolveLimits, Status, get_puzzle
from solver.tiberpunk import best_gadget, quest_odds
from tests.tiberpunk.helpers import GAME, R, ctx, do, placed, put

REROLL, ADD, ROT1, ROT2, FLIP = range(5)


@pytest.mark.parametrize(
    ("dice", "need", "rolls"), [(1, (6,), 1), (2, (6,), 3), (3, (5, 5), 2), (4, (1, 2, 3), 2)]
)
def test_without_gadgets_matches_closed_form(dice, need, rolls) -> None:
    """rule: tiberpunk/stage-1-quests — roll again until the lictor arrives: 1 - (1 - p)^rolls."""
    assert quest_odds(dice, need, rolls=rolls) == pytest.approx(1 - (1 - p_contains(dice, need)) ** rolls)


def test_reroll_by_hand() -> None:
    """rule: tiberpunk/gadget-cards — 2 dice for a 6 with one reroll: 11/36 + 25/36 * 1/6."""
    assert quest_odds(2, (6,), ("reroll",)) == pytest.approx(91 / 216)
    assert quest_odds(1, (6,), ("flip",)) == pytest.approx(2 / 6)
    assert quest_odds(1, (6,), ("rotate2",)) == pytest.approx(2 / 6)
    assert quest_odds(0, (6,), ("add-die",)) == pytest.approx(1 / 6)
    assert quest_odds(2, (6,), ("reroll", "reroll"), per_roll=3) > quest_odds(2, (6,), ("reroll", "reroll"))


def _engine_run(
    rng: random.Random, hand: tuple[int, ...], card: int, favor: int = -1, blessings: int = 0
) -> bool:
    s = placed(2, where=("IX", "V"))
    s = replace(s, quests=((0, 1), (6, 7), (12, 13)), c1deck=(card, *(i for i in range(14) if i != card)))
    s = put(s, 0, hand=hand, favor=favor, blessings=blessings)
    s = do(s, "token drone quest1:hack")
    need = GAME.pack.challenges1[card]
    dice = R.dice_count(s, 0, 1, 0)
    while s.ctx is not None:
        if GAME.current_player(s) == CHANCE:
            s = GAME.apply(s, GAME.sample_chance(s, rng))
        elif s.phase == PH_QGADGET:
            rolls = R.board.nearest(ctx(s).where, s.lictors)[0]
            play = best_gadget(
                dice,
                need,
                s.players[0].hand,
                ctx(s).a,
                rolls=rolls,
                used=ctx(s).ua,
                per_roll=R.gadget_limit(s, 0),
                dice_per_gadget=R.dice_per_gadget(s, 0),
            )
            s = GAME.apply(s, act.STOP if play is None else act.gadget(*play))
        elif s.phase == PH_PURSUE:
            s = GAME.apply(s, GAME.legal_actions(s)[0])
        else:
            raise AssertionError(s.phase)
    while s.phase == PH_REWARD:
        s = GAME.apply(s, GAME.legal_actions(s)[0])
    return s.players[0].story[0] == 1


@pytest.mark.parametrize(
    ("hand", "card", "favor", "blessings"),
    [((ROT1, REROLL), 11, -1, 0), ((FLIP, ADD, ROT2), 8, 3, 0), ((ROT1,), 12, 3, 8)],
)
def test_enumeration_matches_monte_carlo_on_the_engine(hand, card, favor, blessings) -> None:
    """rule: tiberpunk/gadget-cards — exact odds vs the engine played with the solver's gadget policy."""
    need = GAME.pack.challenges1[card]
    per_roll = 3 if favor == 3 else 1
    per_die = 2 if favor == 3 and blessings & 8 else 1
    exact = quest_odds(2, need, hand, rolls=2, per_roll=per_roll, dice_per_gadget=per_die)
    rng = random.Random(card)
    n = 1500
    wins = sum(_engine_run(rng, hand, card, favor, blessings) for _ in range(n))
    sigma = (exact * (1 - exact) / n) ** 0.5
    assert abs(wins / n - exact) < 4 * sigma + 1e-9, (wins / n, exact)


def test_registered_puzzle_from_a_state() -> None:
    """rule: tiberpunk/stage-1-quests — the puzzle reads dice, gadgets and lictor distance from a state."""
    game_name, fn = get_puzzle("tiberpunk.quest_odds")
    assert game_name == "tiberpunk"
    s = put(placed(2, where=("IX", "V")), 0, hand=(REROLL,))
    result = fn(GAME, s, {"skill": "hacking", "stage": 1, "mini": "drone"}, SolveLimits())
    assert result.status == Status.OPTIMAL and result.method == "enumeration"
    assert result.answer["dice"] == 2 and result.answer["rolls"] == 2
    assert 0 < result.objective < 1
    direct = fn(GAME, s, {"dice": 2, "need": [6], "gadgets": ["reroll"], "rolls": 1}, SolveLimits())
    assert direct.objective == pytest.approx(91 / 216)


def test_route_plan_is_optimal() -> None:
    """rule: tiberpunk/movement — fewest movements then coins; checked against exhaustive search."""
    from itertools import product

    from solver.tiberpunk import route_plan

    dist = R.board.dist
    for src, dst, base, coins in product(range(12), range(12), (1, 2), (0, 2)):
        plan = route_plan(dist, src, dst, base_range=base, coins=coins)
        assert plan is not None  # the map is connected: small steps always work
        moves, spent, legs = plan
        assert moves <= -(-dist[src][dst] // base)
        assert sum(p for _, _, p in legs) == spent <= coins
        assert all(dist[a][b] <= base + p for a, b, p in legs)
        if coins == 0:
            assert moves == -(-dist[src][dst] // base)
    _, fn = get_puzzle("tiberpunk.route_plan")
    s = put(placed(2, where=("I", "V")), 0, coins=1)
    result = fn(GAME, s, {"mini": "drone", "to": "V"}, SolveLimits())
    assert result.answer["moves"] == 1 and result.answer["plan"] == ["move drone I-V pay1"]
    assert result.status == Status.OPTIMAL
