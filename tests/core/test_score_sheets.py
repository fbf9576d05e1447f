"""Score sheets a person can check (issue 30): for every game with a scorer, over random finished
games, each seat's parts add up exactly to its total, every part names its category, and a
tie-breaker appears only where it decides (another seat has the same total)."""

from __future__ import annotations

import random

import pytest

from games.core import CHANCE, TERMINAL, GameConfig, game_names, get_game
from solver.core import get_scorer

SCORED = [n for n in game_names() if n not in ("pig",)]


def _finished(name: str, players: int, seed: int) -> object:
    game = get_game(name)
    state = game.new_state(GameConfig(players=players), seed)
    rng = random.Random(seed)
    while (player := game.current_player(state)) != TERMINAL:
        action = (
            game.sample_chance(state, rng)
            if player == CHANCE
            else rng.choice(list(game.legal_actions(state)))
        )
        state = game.apply(state, action)
    return state


@pytest.mark.parametrize("name", SCORED)
def test_every_score_sheet_adds_up(name: str) -> None:
    game = get_game(name)
    scorer = get_scorer(name)
    counts = sorted({game.info.min_players, min(game.info.max_players, 3), game.info.max_players})
    for seed, players in enumerate(counts):
        report = scorer(game, _finished(name, players, seed))
        assert report.final and report.ended_by, (name, players)
        totals = [s.total for s in report.seats]
        for seat in report.seats:
            assert sum(line.points for line in seat.breakdown) == pytest.approx(seat.total, abs=1e-9), (
                name,
                players,
                seat.seat,
                [(x.category, x.points) for x in seat.breakdown],
            )
            assert all(line.category.strip() for line in seat.breakdown)
            if seat.tiebreak:
                assert totals.count(seat.total) > 1, (name, seat.seat, seat.tiebreak)
