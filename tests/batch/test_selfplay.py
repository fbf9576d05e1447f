"""Self-play and the win-model fit (issue 33, batch/selfplay.py): the same games in one process, in
a pool and on Ray; the conditional logit recovers known weights; ``lictor train`` writes a model the
game loads."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from batch.jobs import run_jobs
from batch.selfplay import (
    SelfPlayGame,
    SelfPlayJob,
    fit,
    load_games,
    play_selfplay,
    schedule,
    train,
)
from games.core.fitted import WinModel
from games.tiberpunk import features

TINY = {"max_rounds": 2}
"""Two rounds of Tiberpunk: a self-play game in a fraction of a second."""


def _jobs() -> list[SelfPlayJob]:
    return schedule("tiberpunk", games=3, players=2, seed=4, simulations=4, sample=0.5, options=TINY)


def test_self_play_is_a_pure_function_of_its_seeds() -> None:
    one = run_jobs(play_selfplay, _jobs())
    again = run_jobs(play_selfplay, _jobs())
    pool = run_jobs(play_selfplay, _jobs(), jobs=2)
    key = [(g.returns, g.rows, g.heuristic, g.moves) for g in one]
    assert key == [(g.returns, g.rows, g.heuristic, g.moves) for g in again]
    assert key == [(g.returns, g.rows, g.heuristic, g.moves) for g in pool]
    assert all(len(r) == 2 and len(r[0]) == len(features.FEATURES) for g in one for r in g.rows)


def test_ray_gives_the_same_self_play() -> None:
    ray = pytest.importorskip("ray")
    try:
        on_ray = run_jobs(play_selfplay, _jobs()[:2], ray_address="local")
    finally:
        ray.shutdown()
    one = run_jobs(play_selfplay, _jobs()[:2])
    assert [(g.returns, g.rows) for g in one] == [(g.returns, g.rows) for g in on_ray]


def _synthetic(games: int, weights: tuple[float, ...], seed: int) -> list[SelfPlayGame]:
    """Games whose winner is drawn from a known conditional logit of random features."""
    rng = random.Random(seed)
    job = SelfPlayJob(game="x", players=3, seed=0, bot_seed=0, simulations=1)
    out = []
    for _ in range(games):
        feats = tuple(tuple(rng.gauss(0, 1) for _ in weights) for _ in range(3))
        utils = [sum(w * x for w, x in zip(weights, f, strict=True)) for f in feats]
        z = sum(math.exp(u) for u in utils)
        winner = rng.choices(range(3), weights=[math.exp(u) / z for u in utils])[0]
        returns = tuple(1.0 if k == winner else 0.0 for k in range(3))
        out.append(SelfPlayGame(job, returns, (feats,), ((1 / 3, 1 / 3, 1 / 3),), 1, 0.0))
    return out


def test_fit_recovers_known_weights_and_beats_chance_held_out() -> None:
    truth = (1.5, -0.8)
    result = fit(_synthetic(3000, truth, 1), ridge=1e-4)
    assert result.weights == pytest.approx(truth, abs=0.15)
    held = result.held_out
    assert held["fitted"] < held["chance"] == pytest.approx(math.log(3))
    assert held["hand_written"] == pytest.approx(math.log(3))
    assert result.games == (2400, 600)


def test_without_evidence_the_fit_stays_at_the_hand_written_evaluation() -> None:
    """Outcomes independent of the features: a strong penalty keeps weight 1 on the first feature
    (the hand-written log-chance) and 0 elsewhere."""
    games = _synthetic(400, (0.0, 0.0), 2)
    assert fit(games, ridge=100.0).weights == pytest.approx([1.0, 0.0], abs=0.01)
    assert fit(games, ridge=1.0).weights[0] < 0.7  # a weak one follows the data away from it


def test_train_writes_a_model_the_game_reads_and_refits_saved_games(tmp_path: Path) -> None:
    saved = tmp_path / "games.jsonl"
    model = train(
        "tiberpunk", games=5, simulations=4, sample=0.5, options=TINY, seed=2, command="test", save=str(saved)
    )
    path = tmp_path / "fitted.json"
    path.write_text(json.dumps(model))
    loaded = WinModel.from_dict(json.loads(path.read_text()))
    assert loaded.game == "tiberpunk" and loaded.features == features.FEATURES
    assert len(loaded.weights_for(2)) == len(features.FEATURES)
    assert loaded.training["games"] == 5 and loaded.training["command"] == "test"
    again = train("tiberpunk", games=5, seed=2, command="test", played=load_games(str(saved)))
    assert again["weights"] == model["weights"]
