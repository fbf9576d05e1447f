"""The fitted move prior (issue 33, batch/priorfit.py): self-play records the search's visits with each
legal action's move features; the conditional logit over the actions recovers known weights; the
trained prior is one the game loads and gives a distribution over the legal actions."""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import cast

import pytest

from batch.jobs import run_jobs
from batch.priorfit import fit_prior
from batch.selfplay import (
    PriorLabels,
    SelfPlayGame,
    SelfPlayJob,
    load_games,
    play_selfplay,
    save_games,
    schedule,
    train,
)
from games.core import GameConfig, get_game
from games.core.fitted import WinModel, win_chances
from games.tiberpunk import features
from games.tiberpunk.game import TiberpunkGame
from games.tiberpunk.state import PH_MAIN

TINY = {"max_rounds": 2}


def _jobs() -> list[SelfPlayJob]:
    labels = PriorLabels(1.0)
    return schedule(
        "tiberpunk", games=2, players=2, seed=5, simulations=8, sample=0.2, options=TINY, prior=labels
    )


def test_self_play_records_visit_shares_over_the_legal_actions(tmp_path: Path) -> None:
    # a pure function of the seeds: the same decisions and visits in one process and in a pool
    played = run_jobs(play_selfplay, _jobs())
    pool = run_jobs(play_selfplay, _jobs(), jobs=2)
    assert [(g.returns, g.policy) for g in played] == [(g.returns, g.policy) for g in pool]
    rows = [r for g in played for r in g.policy]
    assert rows
    for move_features, shares in rows:
        assert len(move_features) == len(shares) >= 2
        assert all(len(f) == len(features.PRIOR_FEATURES) for f in move_features)
        assert math.isclose(sum(shares), 1.0) and all(s >= 0 for s in shares)
    path = tmp_path / "games.jsonl"
    save_games(played, str(path))
    assert [g.policy for g in load_games(str(path))] == [g.policy for g in played]


def test_without_prior_labels_nothing_is_recorded() -> None:
    jobs = schedule("tiberpunk", games=1, players=2, seed=5, simulations=8, sample=0.2, options=TINY)
    assert run_jobs(play_selfplay, jobs)[0].policy == ()


def _synthetic(decisions: int, weights: tuple[float, ...], seed: int) -> list[SelfPlayGame]:
    """Games whose visit shares are the softmax of a known conditional logit of random features."""
    rng = random.Random(seed)
    job = SelfPlayJob(game="x", players=2, seed=0, bot_seed=0, simulations=1)
    out = []
    for _ in range(decisions // 10):
        policy = []
        for _ in range(10):
            k = rng.randint(2, 6)
            rows = tuple(tuple(rng.gauss(0, 1) for _ in weights) for _ in range(k))
            shares = win_chances(weights, rows)
            policy.append((rows, shares))
        out.append(SelfPlayGame(job, (1.0, 0.0), (), (), 1, 0.0, tuple(policy)))
    return out


def test_fit_recovers_known_weights_and_beats_the_hand_written_prior_held_out() -> None:
    truth = (2.0, -0.7, 0.3)
    result = fit_prior(_synthetic(2000, truth, 1), ridge=1e-6)
    assert result.weights == pytest.approx(truth, abs=0.02)
    held = result.held_out
    assert held["fitted"] < held["hand_written"] < held["uniform"]
    assert held["top_fitted"] == pytest.approx(1.0)
    assert result.games == (160, 40)


def test_a_strong_penalty_keeps_the_hand_written_prior() -> None:
    games = _synthetic(400, (2.0, -0.7, 0.3), 2)
    assert fit_prior(games, ridge=1e4).weights == pytest.approx([1.0, 0.0, 0.0], abs=0.01)


def test_train_fits_a_prior_the_game_reads(tmp_path: Path) -> None:
    labels = PriorLabels(1.0)
    model = train("tiberpunk", games=4, simulations=8, sample=0.2, options=TINY, seed=3, prior=labels)
    prior = WinModel.from_dict(model["prior"])
    assert prior.features == features.PRIOR_FEATURES and prior.training["decisions"]["train"] > 0
    game = cast(TiberpunkGame, get_game("tiberpunk"))
    state = game.new_state(GameConfig(players=2), 1)
    while state.phase != PH_MAIN:
        state = game.apply(state, game.legal_actions(state)[0])
    rows = features.prior_features(game, state)
    assert rows is not None
    p = win_chances(prior.weights_for(2), rows)
    assert len(p) == len(game.legal_actions(state)) and math.isclose(sum(p), 1.0)


def test_the_prior_at_its_center_is_the_hand_written_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """Weight 1 on the hand-written prior's logit and 0 elsewhere gives the hand-written prior; the
    fitted evaluator uses a shipped prior and keeps the game's own without one."""
    game = cast(TiberpunkGame, get_game("tiberpunk"))
    assert features.prior_model() is None  # none shipped: measured no better (docs/search.md)
    assert game.evaluators()["fitted"].prior is None
    center = (1.0,) + (0.0,) * (len(features.PRIOR_FEATURES) - 1)
    shipped = WinModel(game="tiberpunk", features=features.PRIOR_FEATURES, weights={"*": center})
    monkeypatch.setattr(features, "prior_model", lambda: shipped)
    assert game.evaluators()["fitted"].prior is not None
    state = game.new_state(GameConfig(players=2), 3)
    seen = 0
    rng = random.Random(3)
    while seen < 5:
        if state.phase == PH_MAIN:
            fitted, hand = features.fitted_prior(game, state), game.prior(state)
            assert fitted is not None and hand is not None
            assert fitted == pytest.approx(hand, abs=1e-12)
            seen += 1
        else:
            assert features.fitted_prior(game, state) is None
        state = game.apply(state, rng.choice(game.legal_actions(state)))
