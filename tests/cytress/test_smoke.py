"""Random games end for every player count (rule: cytress/core-concepts)."""

from __future__ import annotations

import random

import pytest

from games.core.check import random_playout
from games.core.protocol import GameConfig
from games.cytress.game import CytressGame


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_random_games_end(players: int) -> None:
    """rule: cytress/core-concepts - a game is played over rounds until the rebellion."""
    game = CytressGame()
    for seed in range(3):
        state = game.new_state(GameConfig(players=players), seed)
        final, steps = random_playout(game, state, random.Random(seed))
        assert steps > 0
        assert len(game.returns(final)) == players
