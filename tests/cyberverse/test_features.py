"""CyberVerse's fitted win model (issue 33, games/cyberverse/features.py): named features per seat,
the shipped model's weights for them, and win chances that are chances, the same every time."""

from __future__ import annotations

import random

import pytest

from games.core import CHANCE, TERMINAL, GameConfig
from games.core.fitted import win_chances
from games.cyberverse import CyberverseGame, features
from games.cyberverse.state import State

GAME = CyberverseGame()


def _positions(seed: int, *, players: int = 2, turns: int = 3) -> list[State]:
    """Decision positions of a random game cut short after ``turns`` turns, and its end."""
    g = GAME
    rng = random.Random(seed)
    state = g.new_state(GameConfig(players=players, options={"max_turns": turns}), seed)
    out = []
    while g.current_player(state) != TERMINAL:
        if state.actor == CHANCE:
            action = g.sample_chance(state, rng)
        else:
            if rng.random() < 0.1:
                out.append(state)
            action = rng.choice(list(g.legal_actions(state)))
        state = g.apply(state, action)
    return [*out, state]


def test_the_shipped_model_names_the_features_in_order() -> None:
    model = features.model()
    assert model.game == "cyberverse"
    assert model.features == features.FEATURES
    assert len(model.weights_for(2)) == len(features.FEATURES)
    assert model.training.get("command", "").startswith("lictor train cyberverse")
    assert "/tmp" not in model.training["command"]
    assert set(model.training["held_out"]) >= {"fitted", "hand_written", "chance"}


def test_unit_weight_on_the_hand_written_log_chance_is_the_hand_written_heuristic() -> None:
    """The fit starts from the hand-written evaluation: weight 1 on its log-chance reproduces it."""
    unit = (1.0,) + (0.0,) * (len(features.FEATURES) - 1)
    for state in _positions(1)[:-1]:
        got = win_chances(unit, features.win_features(GAME, state))
        assert got == pytest.approx(GAME.heuristic(state), abs=1e-3)


def test_features_read_the_city_as_a_player_would() -> None:
    for state in _positions(3)[:-1]:
        rows = [dict(zip(features.FEATURES, f, strict=True)) for f in features.win_features(GAME, state)]
        for seat, (row, org) in enumerate(zip(rows, state.orgs, strict=True)):
            team = [a for a in state.agents if a.org == seat]
            assert row["influence tokens"] == sum(org.influence)
            assert row["resources"] == org.money / 1000
            assert row["stories resolved"] == len(org.solved)
            assert row["story in progress"] == (1.0 if org.story >= 0 else 0.0)
            assert row["agents"] == len(team)
            assert row["support cards"] == len(org.support)
            assert row["influence lead when ahead"] >= 0 >= row["influence lead when behind"]


@pytest.mark.parametrize("players", [2, 3])
def test_fitted_chances_are_chances_and_the_end_is_the_returns(players: int) -> None:
    for state in _positions(7, players=players):
        got = features.fitted_heuristic(GAME, state)
        assert len(got) == players
        assert sum(got) == pytest.approx(1.0) and all(0.0 <= x <= 1.0 for x in got)
        if GAME.current_player(state) == TERMINAL:
            assert got == GAME.returns(state)


def test_fitted_chances_are_deterministic() -> None:
    for state in _positions(11):
        assert features.fitted_heuristic(GAME, state) == features.fitted_heuristic(GAME, state)
        assert features.win_features(GAME, state) == features.win_features(GAME, state)


def test_the_game_offers_it_as_the_fitted_evaluator() -> None:
    ev = GAME.evaluators()["fitted"]
    state = GAME.new_state(GameConfig(players=2), 3)
    assert ev.heuristic(state) == features.fitted_heuristic(GAME, state)
    assert ev.prior is None and ev.feature_names == features.FEATURES
    assert ev.features is not None and len(ev.features(state)) == 2
    assert ev.levels == features.FOR_LEVELS
