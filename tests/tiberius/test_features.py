"""Tiberius Who?'s fitted win model (issue 33, games/tiberius/features.py): named features per seat, the
shipped model's weights for them, and win chances that are chances, the same every time."""

from __future__ import annotations

import random

import pytest

from games.core import TERMINAL, GameConfig
from games.core.fitted import win_chances
from games.tiberius import TiberiusState, features
from games.tiberius.model import IN

from .helpers import cv, game, with_seats


def _positions(count: int, seed: int) -> list[TiberiusState]:
    """Decision positions of random games at 2 to 4 seats, and each game's end."""
    g = game()
    rng = random.Random(seed)
    out = []
    for k in range(3):
        state = g.new_state(GameConfig(players=2 + k), seed + k)
        while g.current_player(state) != TERMINAL:
            if rng.random() < 0.2:
                out.append(state)
            state = g.apply(state, rng.choice(g.legal_actions(state)))
        out.append(state)
    return out[:count]


def test_the_shipped_model_names_the_features_in_order() -> None:
    model = features.model()
    assert model.game == "tiberius"
    assert model.features == features.FEATURES
    assert len(model.weights_for(2)) == len(features.FEATURES)
    assert model.training.get("command", "").startswith("lictor train tiberius")
    assert set(model.training["held_out"]) >= {"fitted", "hand_written", "chance"}


def test_unit_weight_on_the_hand_written_log_chance_is_the_hand_written_heuristic() -> None:
    """The fit starts from the hand-written evaluation: weight 1 on its log-chance reproduces it."""
    g = game()
    unit = (1.0,) + (0.0,) * (len(features.FEATURES) - 1)
    for state in _positions(40, 1):
        if g.current_player(state) == TERMINAL:
            continue
        got = win_chances(unit, features.win_features(g, state))
        assert got == pytest.approx(g.heuristic(state), abs=1e-3)


def test_features_read_the_board_as_a_player_would() -> None:
    """Seat 0 strictly most in Imperator, both seats level in nothing else; 10 Influence vs 0."""
    g = game()
    state = with_seats(g.new_state(GameConfig(players=2), 5), cubes=(cv(IP=2, IN=10), cv(IP=1)))
    rows = [dict(zip(features.FEATURES, f, strict=True)) for f in features.win_features(g, state)]
    assert rows[0]["majorities held"] == 1 and rows[1]["majorities held"] == 0
    assert rows[0]["majorities contested"] == 0
    assert rows[0]["influence cubes"] == state.players[0].cubes[IN] == 10
    assert rows[0]["cubes in stock"] == 28 and rows[1]["cubes in stock"] == 39
    assert [r["VP now"] for r in rows] == g.totals(state)
    assert all(0.0 <= r["adoption requirements met"] <= 1.0 for r in rows)


def test_fitted_chances_are_chances_and_the_end_is_the_returns() -> None:
    g = game()
    for state in _positions(60, 7):
        got = features.fitted_heuristic(g, state)
        assert len(got) == state.num_players
        assert sum(got) == pytest.approx(1.0) and all(0.0 <= x <= 1.0 for x in got)
        if g.current_player(state) == TERMINAL:
            assert got == g.returns(state)


def test_fitted_chances_are_deterministic() -> None:
    g = game()
    for state in _positions(20, 11):
        assert features.fitted_heuristic(g, state) == features.fitted_heuristic(g, state)
        assert features.win_features(g, state) == features.win_features(g, state)


def test_the_game_offers_it_as_the_fitted_evaluator() -> None:
    g = game()
    ev = g.evaluators()["fitted"]
    state = g.new_state(GameConfig(players=2), 3)
    assert ev.heuristic(state) == features.fitted_heuristic(g, state)
    assert ev.feature_names == features.FEATURES
    assert ev.features is not None and len(ev.features(state)) == 2
    assert ev.levels == features.FOR_LEVELS


def test_the_fitted_evaluator_searches_with_the_games_prior_at_the_models_temperature() -> None:
    """The shipped model puts the game's own prior at temperature 2 (chosen by head-to-heads, see
    ``prior_selection`` in fitted.json): each probability's square root, renormalised; same order."""
    g = game()
    model = features.model()
    assert model.prior_temperature == 2.0 and "how" in model.prior_selection
    ev = g.evaluators()["fitted"]
    assert ev.prior is not None and "temperature 2" in ev.summary
    for state in _positions(30, 13):
        own = g.prior(state)
        got = ev.prior(state)
        if own is None:
            assert got is None
            continue
        assert got is not None
        root = [x**0.5 for x in own]
        assert got == pytest.approx([x / sum(root) for x in root])
        assert sorted(range(len(own)), key=own.__getitem__) == sorted(range(len(got)), key=got.__getitem__)
