"""The shared conformance check for every player count, mode and reading (fast: ~1 s a game)."""

from __future__ import annotations

import time

import pytest

from games.core.check import check_game
from games.ti4 import TI4Game

GAME = TI4Game()


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_check_game_rulebook(players: int) -> None:
    """rule: ti4/place-system-tiles - a thorough random setup per player count, quickly."""
    start = time.perf_counter()
    report = check_game(GAME, players=players, seeds=range(1))
    assert report.games == 1
    assert time.perf_counter() - start < 20.0  # ~1 s on an idle core


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (3, {"mode": "milty", "expansion": "pok"}),
        (6, {"mode": "milty"}),
        (4, {"no_other_option": "tile", "expansion": "pok"}),
        (5, {"factions": "random", "victory_points": 14}),
    ],
)
def test_check_game_variants(players: int, options: dict[str, object]) -> None:
    """rule: ti4/factions - the variants pass the same check."""
    assert check_game(GAME, players=players, seeds=[7], options=options).games == 1
