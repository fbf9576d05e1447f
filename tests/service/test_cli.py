"""The `lictor` command: --version, games, suggest/hint/score/solve on position files, play."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from lictor import __version__
from service.cli import app
from service.client import position_from_dict

runner = CliRunner()


def test_version():
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and __version__ in result.output


def test_games_in_process():
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0, result.output
    assert "pig" in result.output


def test_games_against_a_server(server):
    result = runner.invoke(app, ["games", "--server", f"127.0.0.1:{server[1]}"])
    assert result.exit_code == 0, result.output
    assert "Hidden Pig" in result.output


@pytest.fixture
def pig_file(tmp_path):
    path = tmp_path / "pos.json"
    path.write_text(
        json.dumps({"game": "pig", "record": {"players": 2, "seed": 1, "actions": ["roll", "d4"]}})
    )
    return path


def test_suggest_and_hint(pig_file, server):
    result = runner.invoke(
        app, ["suggest", str(pig_file), "--simulations", "16", "--server", f"127.0.0.1:{server[1]}"]
    )
    assert result.exit_code == 0, result.output
    assert "seat 0 plays" in result.output
    result = runner.invoke(app, ["hint", str(pig_file), "--seconds", "0.2", "--top-k", "2"])
    assert result.exit_code == 0, result.output
    assert "#1" in result.output


def test_score_and_solve_report_errors_cleanly(pig_file):
    result = runner.invoke(app, ["score", str(pig_file)])
    assert result.exit_code == 0 and "banked" in result.output  # the fixture's scorer (pig_solver)
    result = runner.invoke(app, ["solve", str(pig_file), "--kind", "pig.nothing"])
    assert result.exit_code == 1 and "NOT_FOUND" in result.output


def test_position_file_forms():
    a = position_from_dict(
        {"game": "pig", "record": {"players": 2, "options": {"target": 20}, "actions": ["roll"]}}
    )
    assert a.record.setup.options["target"].integer == 20 and list(a.record.actions) == ["roll"]
    b = position_from_dict({"game": "pig", "state": {"scores": [0, 0]}})
    assert json.loads(b.state_json) == {"scores": [0, 0]}
    c = position_from_dict({"game": "pig", "record": {"setup": {"players": 3}, "actions": []}})
    assert c.record.setup.players == 3
    with pytest.raises(ValueError):
        position_from_dict({"game": "pig"})


def test_play_against_the_ai(tmp_path, monkeypatch):
    # "q" asks first: Enter plays on; "q", "r", "n" keeps playing; "q", "r", "y" resigns, which ends
    # the match, and the record is written (here: the temporary directory).
    monkeypatch.chdir(tmp_path)
    keys = "q\n\nq\nr\nn\nq\nr\ny\n"
    result = runner.invoke(app, ["play", "pig", "--seats", "human,ai:1"], input=keys)
    assert result.exit_code == 0, result.output
    assert result.output.count("Resign the game?") == 2 and "You play on." in result.output
    assert "game over" in result.output
    assert list(tmp_path.glob("lictor-pig-*.json"))


def test_lictor_serve_answers_health_and_stops_on_sigterm(tmp_path):
    import signal
    import subprocess
    import sys

    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "service.cli",
            "serve",
            "--port",
            "0",
            "--db",
            str(tmp_path / "s.db"),
            "--grace",
            "1",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert "serving on 127.0.0.1:" in line
        port = int(line.split()[3].rsplit(":", 1)[1])
        ch = grpc.insecure_channel(f"127.0.0.1:{port}")
        status = health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(), timeout=10).status
        assert status == health_pb2.HealthCheckResponse.SERVING
        ch.close()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
