"""The TI4 setup's fitted win model (issue 33, games/ti4/features.py): the shipped model names the
features in order, gives a distribution over the seats, starts from the hand-written evaluation, and a
search can use it."""

from __future__ import annotations

import random

import pytest

from games.core.fitted import win_chances
from games.core.protocol import TERMINAL
from games.ti4 import features
from games.ti4.balance import TILE_UNIT
from games.ti4.state import OVER, PLACE, TI4State
from search import SearchLimit, SearchOptions, analyze
from tests.ti4.helpers import GAME, new, play_until


def _positions(seed: int) -> list[TI4State]:
    """Every decision position of a random rulebook setup at 3, 4 and 6 seats, and each end."""
    rng = random.Random(seed)
    out = []
    for players in (3, 4, 6):
        state = new(players, seed)
        while GAME.current_player(state) != TERMINAL:
            out.append(state)
            state = GAME.apply(state, rng.choice(list(GAME.legal_actions(state))))
        out.append(state)
    return out


def test_the_shipped_model_names_the_features_in_order() -> None:
    model = features.model()
    assert model.game == "ti4"
    assert model.features == features.FEATURES
    assert len(model.weights_for(3)) == len(features.FEATURES)
    assert model.training.get("command", "").startswith("lictor train ti4")
    assert set(model.training["held_out"]) >= {"fitted", "hand_written", "chance"}


def test_unit_weight_on_the_hand_written_log_share_is_the_hand_written_heuristic() -> None:
    """The fit starts from the hand-written evaluation: weight 1 on its log-share reproduces it."""
    unit = (1.0,) + (0.0,) * (len(features.FEATURES) - 1)
    for state in _positions(1):
        if state.phase == OVER:
            continue
        got = win_chances(unit, features.win_features(GAME, state))
        assert got == pytest.approx(GAME.heuristic(state), abs=1e-9)


def test_fitted_chances_are_a_distribution_over_the_seats_and_the_end_is_the_returns() -> None:
    for state in _positions(7):
        got = features.fitted_heuristic(GAME, state)
        assert len(got) == state.players
        assert sum(got) == pytest.approx(1.0) and all(0.0 <= x <= 1.0 for x in got)
        if state.phase == OVER:
            assert got == GAME.returns(state)
    milty = new(4, 2, mode="milty")  # no galaxy yet: still one chance per seat
    assert sum(features.fitted_heuristic(GAME, milty)) == pytest.approx(1.0)


def test_features_read_the_galaxy_as_a_player_would() -> None:
    """At the first placement: nothing placed, 8 tiles in every hand, the hands' values over the
    expected tile add up to (about) nothing, three open spaces next to every home, the mover places."""
    state = play_until(new(3, 4), PLACE)
    rows = [dict(zip(features.FEATURES, f, strict=True)) for f in features.win_features(GAME, state)]
    assert [r["tiles in hand"] for r in rows] == [8.0, 8.0, 8.0]
    assert all(r["hand-written log-share x galaxy placed"] == 0.0 for r in rows)
    assert abs(sum(r["hand value over the expected tile"] for r in rows)) <= 24 * 0.5 / TILE_UNIT
    assert [r["open spaces next to home"] for r in rows] == [3.0, 3.0, 3.0]
    assert [r["places next"] for r in rows] == [1.0 if s == state.actor else 0.0 for s in range(3)]


def test_a_search_runs_with_the_fitted_evaluator() -> None:
    ev = GAME.evaluators()["fitted"]
    assert ev.feature_names == features.FEATURES and ev.levels == features.FOR_LEVELS
    state = play_until(new(3, 5), PLACE)
    result = analyze(
        GAME, state, limit=SearchLimit(simulations=16), seed=3, options=SearchOptions(evaluator="fitted")
    )
    assert result.simulations == 16
    assert result.candidates and all(c.action in GAME.legal_actions(state) for c in result.candidates)
