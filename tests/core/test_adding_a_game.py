"""docs/adding-a-game.md's worked example, built from the page's own code blocks (issue 32): the
game block and the solver block are written out as modules, registered like any game, checked by
``check_game`` and scored; a page whose example no longer plays fails here."""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest

from games.core import TERMINAL, GameConfig, get_game
from games.core.check import check_game
from games.core.registry import register_game, unregister_game
from solver.core import get_scorer

DOC = Path(__file__).resolve().parents[2] / "docs" / "adding-a-game.md"


def _block(tag: str) -> str:
    found = re.findall(rf"```python {tag}\n(.*?)```", DOC.read_text(), flags=re.S)
    assert len(found) == 1, f"docs/adding-a-game.md needs exactly one ```python {tag} block"
    return str(found[0])


@pytest.fixture
def nim(tmp_path, monkeypatch):
    (tmp_path / "doc_nim.py").write_text(_block("example-game"))
    (tmp_path / "doc_nim_solver.py").write_text(_block("example-solver"))
    monkeypatch.syspath_prepend(str(tmp_path))
    register_game("nim", "doc_nim:NimGame", solver="doc_nim_solver")
    yield get_game("nim")
    unregister_game("nim")
    for name in ("doc_nim", "doc_nim_solver"):
        sys.modules.pop(name, None)


def test_the_documented_game_passes_the_checks_every_game_passes(nim) -> None:
    check_game(nim, players=2, seeds=range(4))


def test_the_documented_solver_scores_a_finished_game(nim) -> None:
    state = nim.new_state(GameConfig(players=2, options={"pile": 7}), 0)
    rng = random.Random(1)
    while nim.current_player(state) != TERMINAL:
        state = nim.apply(state, rng.choice(list(nim.legal_actions(state))))
    report = get_scorer("nim")(nim, state)
    assert report.final and report.ended_by
    assert sorted(s.total for s in report.seats) == [0.0, 1.0]
    assert all(sum(x.points for x in s.breakdown) == s.total for s in report.seats)
