"""The heuristic (``games.cytress.ai``): win chances are a distribution, and majorities still open
count by the chance of ruling them at the end (not an AI rule of the rulebook; it estimates the
scoring of rule: cytress/score-stratos-rewards and rule: cytress/score-waste-tubes)."""

from __future__ import annotations

import random

from games.core.protocol import TERMINAL, GameConfig
from games.core.records import replace
from tests.cytress.helpers import GAME, set_rebels


def test_open_stratos_level_counts_by_the_chance_of_ruling_it() -> None:
    """rule: cytress/score-stratos-rewards - with rounds left, a seat one crew behind on level 1
    expects part of that level's bonus, the leader a little less than all of it; at the end of the
    game the contest is settled (no adjustment)."""
    s = GAME.new_state(GameConfig(players=3, options={"rebel_sides": "A"}), 5)
    s = set_rebels(replace(s, round=2), stratos=((1, 0, 0), (2, 0, 0), (0, 0, 0)))
    ev = GAME.evaluator
    later = ev.rounds_left(s)
    assert later > 1
    delta = ev.open_contests(s, later)
    assert delta[0] > 0.0 > delta[1]
    assert delta[2] == 0.0  # nobody of seat 2 on Stratos: no level 1 base to reward
    settled = ev.open_contests(s, 0.0)
    assert abs(settled[0]) < abs(delta[0]) and abs(settled[1]) < abs(delta[1])


def test_win_chances_are_a_distribution_along_a_game() -> None:
    """rule: cytress/core-concepts - the most PRESTIGE wins: one chance per seat, summing to 1."""
    rng = random.Random(3)
    s = GAME.new_state(GameConfig(players=3), 3)
    while GAME.current_player(s) != TERMINAL:
        chances = GAME.heuristic(s)
        assert len(chances) == 3 and abs(sum(chances) - 1.0) < 1e-9
        assert all(0.0 <= c <= 1.0 for c in chances)
        s = GAME.apply_trusted(s, rng.choice(list(GAME.legal_actions(s))))
