"""Tiberpunk's fitted win model (issue 33, games/tiberpunk/features.py): named features per seat, the
shipped model's weights for them, and win chances that are chances."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.core import CHANCE, TERMINAL, GameConfig, get_game
from games.core.fitted import win_chances
from games.tiberpunk import features
from games.tiberpunk.game import TiberpunkGame


def _game() -> TiberpunkGame:
    game = get_game("tiberpunk")
    assert isinstance(game, TiberpunkGame)
    return game


def _positions(count: int, seed: int) -> list[Any]:
    """Decision positions of random games (capped short)."""
    game = get_game("tiberpunk")
    rng = random.Random(seed)
    out = []
    for k in range(3):
        state = game.new_state(GameConfig(players=2 + k % 2, options={"max_rounds": 12}), seed + k)
        while game.current_player(state) != TERMINAL:
            player = game.current_player(state)
            if player >= 0 and rng.random() < 0.05:
                out.append(state)
            action = (
                game.sample_chance(state, rng) if player == CHANCE else rng.choice(game.legal_actions(state))
            )
            state = game.apply(state, action)
        out.append(state)
    return out[:count]


def test_the_shipped_model_names_the_features_in_order() -> None:
    model = features.model()
    assert model.game == "tiberpunk"
    assert model.features == features.FEATURES
    assert len(model.weights_for(2)) == len(features.FEATURES)
    assert model.training.get("command", "").startswith("lictor train tiberpunk")


def test_unit_weight_on_the_hand_written_log_chance_is_the_hand_written_heuristic() -> None:
    """The fit starts from the hand-written evaluation: weight 1 on its log-chance reproduces it."""
    game = _game()
    unit = (1.0,) + (0.0,) * (len(features.FEATURES) - 1)
    for state in _positions(40, 1):
        if game.current_player(state) == TERMINAL:
            continue
        got = win_chances(unit, features.win_features(game, state))
        assert got == pytest.approx(game.heuristic(state), abs=1e-3)


def test_fitted_chances_are_chances_and_the_end_is_the_returns() -> None:
    game = _game()
    for state in _positions(60, 7):
        got = features.fitted_heuristic(game, state)
        assert len(got) == len(state.players)
        assert sum(got) == pytest.approx(1.0) and all(0.0 <= x <= 1.0 for x in got)
        if game.current_player(state) == TERMINAL:
            assert got == game.returns(state)


def test_the_game_offers_it_as_the_fitted_evaluator() -> None:
    game = _game()
    ev = game.evaluators()["fitted"]
    state = game.new_state(GameConfig(players=2), 3)
    assert ev.heuristic(state) == features.fitted_heuristic(game, state)
    assert ev.prior is None and ev.feature_names == features.FEATURES
    assert ev.features is not None and len(ev.features(state)) == 2
