"""Every registered game passes the shared conformance check and the protocol's invariants."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.core import CHANCE, TERMINAL, GameConfig, check_game, game_names, get_game

NAMES = game_names()
RANDOM_PLAY_OPTIONS = {"cyberverse": {"max_turns": 12}}
"""Options under which uniformly random play ends: CyberVerse has no turn cap by default (its
rulebook ends it by stories or domination, which random play, spending its money, rarely reaches),
so its random games take the opt-in cap (docs/cyberverse.md)."""


def _player_counts(name: str) -> list[int]:
    info = get_game(name).info
    return sorted({info.min_players, info.max_players, min(info.max_players, max(info.min_players, 3))})


@pytest.mark.parametrize(
    ("name", "players"),
    [(n, p) for n in NAMES for p in _player_counts(n)] or [pytest.param("", 0, marks=pytest.mark.skip)],
)
def test_check_game(name: str, players: int) -> None:
    # One thorough game per player count here; each game's own tests play many more.
    report = check_game(
        get_game(name), players=players, seeds=range(1), options=RANDOM_PLAY_OPTIONS.get(name)
    )
    assert report.games == 1


@pytest.mark.parametrize("name", NAMES or [pytest.param("", marks=pytest.mark.skip)])
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), steps=st.integers(0, 400))
def test_apply_never_mutates_and_dict_round_trips(name: str, seed: int, steps: int) -> None:
    game = get_game(name)
    info = game.info
    state = game.new_state(GameConfig(players=info.max_players), seed)
    rng = random.Random(seed)
    for _ in range(steps):
        player = game.current_player(state)
        if player == TERMINAL:
            break
        action = (
            game.sample_chance(state, rng)
            if player == CHANCE
            else rng.choice(list(game.legal_actions(state)))
        )
        before = json.dumps(game.to_dict(state), sort_keys=True)
        nxt = game.apply(state, action)
        assert json.dumps(game.to_dict(state), sort_keys=True) == before
        state = nxt
    assert game.from_dict(json.loads(json.dumps(game.to_dict(state)))) == state
