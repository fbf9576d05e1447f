"""``python -m bench.fitted --players N`` (issue 33): the fitted evaluator in one seat against N-1
hand-written searches; the score is the pairwise head-to-head rate, its Wilson interval over games."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import pytest

from bench import fitted
from bench._stats import wilson
from bench.fitted import Played, pairwise_score, summary

FAST = ["--games", "2", "--move-time", "0.002", "--jobs", "1", "--opponents", "hand"]
"""Two games at 2 ms a move: a few seconds."""


@pytest.mark.parametrize(
    ("returns", "seat", "score"),
    [
        ((1.0, 0.0), 0, 1.0),  # 2 players: the fitted side's return
        ((0.0, 1.0), 0, 0.0),
        ((0.5, 0.5), 1, 0.5),
        ((1.0, 0.0, 0.0), 0, 1.0),  # beats both
        ((1.0, 0.0, 0.0), 1, 0.25),  # loses to seat 0, ties seat 2
        ((0.5, 0.5, 0.0), 0, 0.75),  # a shared win: ties seat 1, beats seat 2
        ((1 / 3, 1 / 3, 1 / 3), 2, 0.5),  # a three-way tie is even
        ((0.0, 0.5, 0.5, 0.0), 3, 1 / 6),  # 4 players: ties seat 0, loses to 1 and 2
    ],
)
def test_pairwise_score_counts_each_other_seat_once(
    returns: tuple[float, ...], seat: int, score: float
) -> None:
    assert pairwise_score(returns, seat) == pytest.approx(score)


def test_the_interval_counts_games_not_pairs() -> None:
    played = [
        Played((1.0, 0.0, 0.0), 0, [0.01], [0.01, 0.01], 0),  # 1
        Played((1.0, 0.0, 0.0), 1, [0.01], [0.01], 0),  # 0.25
        Played((0.5, 0.0, 0.5), 2, [], [], 0),  # 0.75
    ]
    args = argparse.Namespace(players=3, max_rounds=0, games=3, simulations=0)
    r = summary("hand", args, played, 0.002, start=0.0, load0=0.0)
    assert r["scores"] == [1.0, 0.25, 0.75]
    assert r["win_rate"] == pytest.approx(2 / 3)
    assert r["ci95"] == list(wilson(2.0, 3))
    assert r["mean_return"] == pytest.approx(0.5)
    assert r["even_share"] == pytest.approx(1 / 3)
    assert r["players"] == 3 and r["fitted_seats"] == [0, 1, 2]


def _run(
    argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[str, dict[str, Any]]:
    monkeypatch.setattr(fitted, "RESULTS", tmp_path / "fitted.json")
    assert fitted.main([*argv, *FAST]) == 0
    game = argv[argv.index("--game") + 1]
    name = "fitted.json" if game == "tiberpunk" else f"fitted_{game}.json"
    return capsys.readouterr().out, json.loads((tmp_path / name).read_text())


def test_cytress_three_players_rotates_the_fitted_seat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out, results = _run(["--game", "cytress", "--players", "3"], tmp_path, monkeypatch, capsys)
    r = results["matches"]["hand_3p"]
    assert r["players"] == 3 and r["args"]["players"] == 3 and r["games"] == 2
    assert r["fitted_seats"] == [0, 1]
    assert all(len(g) == 3 for g in r["returns"])
    assert r["scores"] == [pairwise_score(g, s) for g, s in zip(r["returns"], r["fitted_seats"], strict=True)]
    assert r["ours_s_per_move"] > 0 and r["theirs_s_per_move"] > 0
    assert "3 players (1 fitted, 2 hand-written)" in out
    assert "fitted vs 2 hand-written, 3 players: pairwise head-to-head" in out
    assert "the interval over games" in out and "even share 0.333" in out


def test_two_players_keep_the_score_and_the_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--game", "tiberpunk", "--max-rounds", "2"]
    out, results = _run(argv, tmp_path, monkeypatch, capsys)
    r = results["matches"]["hand"]
    assert set(r) == {
        *("opponent", "players", "games", "score", "win_rate", "ci95", "target", "move_time_s"),
        *("ours_s_per_move", "theirs_s_per_move", "rounds_per_game", "games_at_round_cap"),
        *("load_start", "load_end", "wall_s", "stopped_by_budget", "scores", "args", "simulations"),
    }
    assert r["simulations"] == 0  # equal time
    assert r["players"] == 2 and r["games"] == 2 and r["games_at_round_cap"] == 2
    assert out.splitlines()[1].startswith("fitted vs hand-written: ")
    assert "2 players, equal time a move" in out and "seats swapped" in out


def test_equal_simulations_give_every_search_seat_the_same_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--game", "cytress", "--players", "3", "--simulations", "4"]
    out, results = _run(argv, tmp_path, monkeypatch, capsys)
    r = results["matches"]["hand_3p_4sims"]
    assert r["simulations"] == 4 and r["games"] == 2
    assert "equal simulations a move (4)" in out and "4 simulations a move" in out


def test_openspiel_is_refused_beyond_two_players(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--game", "tiberpunk", "--players", "3", "--opponents", "hand,openspiel"]
    with pytest.raises(SystemExit) as exit_:
        fitted.main(argv)
    assert exit_.value.code == 2
    assert "openspiel plays 2 players only, not --players 3; use --opponents hand" in capsys.readouterr().err
