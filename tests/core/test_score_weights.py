"""Score sheets say what each part is worth (issue 30): every part of a finished game's sheet names
its category and, in its detail, how it was earned at what weight. Checked for the games whose
sheets are done; the others are listed in ``TO_DO``."""

from __future__ import annotations

import random
import re

import pytest

from games.core import CHANCE, TERMINAL, GameConfig, get_game
from solver.core import get_scorer

DONE = ("tiberius", "tiberpunk", "ti4", "cyberverse", "cytress")
TO_DO: dict[str, str] = {}
WEIGHT = re.compile(r"\d+ VP|× ?[\d(]|VP (a|per) |\bper \d")


def _finished(name: str, players: int, seed: int) -> object:
    game = get_game(name)
    state = game.new_state(GameConfig(players=players), seed)
    rng = random.Random(seed)
    while (player := game.current_player(state)) != TERMINAL:
        moves = list(game.legal_actions(state))
        state = game.apply(state, game.sample_chance(state, rng) if player == CHANCE else rng.choice(moves))
    return state


@pytest.mark.parametrize("name", DONE)
def test_every_part_names_its_category_and_weight(name):
    """rule: tiberius/end-of-game, tiberpunk/end-of-game, ti4/place-system-tiles - the schedule's
    categories, each with its weight."""
    game = get_game(name)
    counts = sorted({game.info.min_players, min(3, game.info.max_players), game.info.max_players})
    for seed, players in enumerate(counts):
        report = get_scorer(name)(game, _finished(name, players, seed))
        for seat in report.seats:
            for line in seat.breakdown:
                assert line.category.strip() and line.detail.strip(), (name, line)
                assert WEIGHT.search(line.detail), (name, line.category, line.detail)
                assert not re.search(r"\b1 (cubes|tokens)\b", line.detail), line.detail
