"""Cytress's fitted win model (games/cytress/features.py): named features per seat, finite; the shipped
model's weights for them; win chances that are chances; the game offers it as ``"fitted"`` while its
own ``heuristic`` stays the hand-written one."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from games.core import TERMINAL, GameConfig
from games.core.fitted import win_chances
from games.cytress import CytressGame, features


def _positions(players: int, seed: int, every: float = 0.05) -> list[Any]:
    """Decision positions of a random game (and its end)."""
    game = CytressGame()
    rng = random.Random(seed)
    out = []
    state = game.new_state(GameConfig(players=players), seed)
    while game.current_player(state) != TERMINAL:
        if rng.random() < every:
            out.append(state)
        state = game.apply(state, rng.choice(game.legal_actions(state)))
    out.append(state)
    return out


GAME = CytressGame()


def test_the_shipped_model_names_the_features_in_order() -> None:
    model = features.model()
    assert model.game == "cytress"
    assert model.features == features.FEATURES
    assert len(set(features.FEATURES)) == len(features.FEATURES)
    assert len(model.weights_for(3)) == len(features.FEATURES)
    assert model.training.get("command", "").startswith("python -m bench.cytress --only fit")


@pytest.mark.parametrize("players", [1, 2, 3, 5])
def test_features_are_named_finite_and_per_seat(players: int) -> None:
    for state in _positions(players, 11 + players):
        rows = features.win_features(GAME, state)
        assert len(rows) == players
        for row in rows:
            assert len(row) == len(features.FEATURES)
            assert all(math.isfinite(x) for x in row)


def test_unit_weight_on_the_hand_written_log_chance_is_the_hand_written_heuristic() -> None:
    """The fit starts from the hand-written evaluation: weight 1 on its log-chance reproduces it."""
    unit = (1.0,) + (0.0,) * (len(features.FEATURES) - 1)
    for state in _positions(3, 5):
        if GAME.current_player(state) == TERMINAL:
            continue
        got = win_chances(unit, features.win_features(GAME, state))
        want = GAME.heuristic(state)
        assert got == pytest.approx(want, abs=1e-3) or min(want) < 1e-4  # the log is clipped at 1e-4


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_fitted_chances_are_chances_and_the_end_is_the_returns(players: int) -> None:
    for state in _positions(players, 7 + players):
        got = features.fitted_heuristic(GAME, state)
        assert len(got) == players
        assert all(0.0 <= x <= 1.0 for x in got)
        if players > 1:
            assert sum(got) == pytest.approx(1.0)
        if GAME.current_player(state) == TERMINAL:
            assert got == GAME.returns(state)


def test_the_game_offers_it_as_the_fitted_evaluator_and_keeps_its_own_heuristic() -> None:
    ev = GAME.evaluators()["fitted"]
    state = _positions(3, 3)[2]
    assert ev.heuristic(state) == features.fitted_heuristic(GAME, state)
    assert ev.heuristic(state) != GAME.heuristic(state)
    assert ev.prior is None and ev.feature_names == features.FEATURES
    assert ev.features is not None and len(ev.features(state)) == 3


@pytest.mark.parametrize("players", [1, 2, 4])
def test_player_counts_without_weights_keep_the_hand_written_heuristic(players: int) -> None:
    for state in _positions(players, 21 + players)[:-1]:
        assert features.fitted_heuristic(GAME, state) == GAME.heuristic(state)


def test_the_strength_levels_keep_the_hand_written_heuristic() -> None:
    """Head to head against the hand-written heuristic it was weaker at equal time and no stronger at
    equal simulations (docs/cytress.md), so the levels search with the hand-written heuristic."""
    from search.api import level_evaluator

    assert not features.FOR_LEVELS and level_evaluator(GAME) == ""
