"""Check-style: the search plays every registered game (and the fixture) through the protocol only."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.core import CHANCE, TERMINAL, Game, GameConfig, derive_seed, game_names, get_game
from search import GreedyBot, SearchLimit, SearchOptions, analyze
from tests.fixtures.pig import PigGame


def _cases() -> list[tuple[str, int]]:
    cases = [("fixture:pig", n) for n in (2, 3, 4)]
    for name in game_names():
        info = get_game(name).info
        counts = sorted({max(info.min_players, 2), info.max_players} - {1})
        cases += [(name, n) for n in counts if n >= 2] or [(name, info.min_players)]
    return cases


def _game(name: str) -> Game[Any, Any]:
    return PigGame() if name == "fixture:pig" else get_game(name)


def _positions(game: Game[Any, Any], players: int, seed: int, count: int) -> list[Any]:
    """Decision positions along one random game (the start and a few later ones)."""
    rng = random.Random(derive_seed(seed, "positions"))
    state = game.new_state(GameConfig(players=players), seed)
    out: list[Any] = []
    steps = 0
    while game.current_player(state) != TERMINAL and len(out) < count and steps < 5000:
        player = game.current_player(state)
        if player >= 0 and (not out or rng.random() < 0.1):
            out.append(state)
        action = (
            game.sample_chance(state, rng)
            if player == CHANCE
            else rng.choice(list(game.legal_actions(state)))
        )
        state = game.apply(state, action)
        steps += 1
    return out


@pytest.mark.parametrize(("name", "players"), _cases())
def test_search_plays_game(name: str, players: int) -> None:
    game = _game(name)
    opts = SearchOptions(rollout_depth=4)
    for state in _positions(game, players, seed=1, count=3):
        a = analyze(game, state, limit=SearchLimit(simulations=20, time_s=5.0), seed=1, options=opts)
        legal = list(game.legal_actions(state))
        assert a.best_action in legal
        assert len(a.candidates) == len(legal)
        assert len(a.root_value) == players
        assert a.seat == game.current_player(state)
        for c in a.candidates[:3]:
            assert game.parse_action(state, c.text) == c.action
        assert GreedyBot(game, seed=1).act(state) in legal


@pytest.mark.parametrize(("name", "players"), [c for c in _cases() if _game(c[0]).info.hidden_information])
def test_ismcts_does_not_peek(name: str, players: int) -> None:
    """Another state with the same observation for the mover (its hidden parts redrawn by
    ``sample_state``) gets the identical analysis for the same seed."""
    game = _game(name)
    opts = SearchOptions(rollout_depth=4)
    rng = random.Random(7)
    for state in _positions(game, players, seed=2, count=2):
        seat = game.current_player(state)
        other = game.sample_state(game.observation(state, seat), seat, rng)
        lim = SearchLimit(simulations=30)
        a = analyze(game, state, limit=lim, seed=3, options=opts)
        b = analyze(game, other, limit=lim, seed=3, options=opts)
        assert a.algorithm == "ismcts"
        assert [(c.text, c.visits, c.value, c.pv) for c in a.candidates] == [
            (c.text, c.visits, c.value, c.pv) for c in b.candidates
        ]
        assert a.root_value == b.root_value
