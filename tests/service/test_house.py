"""The house for every game (issue 17): the service names no game, a game plugs in with one line,
and typed messages are optional."""

from __future__ import annotations

import re
from pathlib import Path

from games.core import game_names
from games.core.registry import BUILTIN_GAMES, game_entry
from service import typed

REPO = Path(__file__).resolve().parents[2]
_GAME_WORDS = re.compile(r"tiberpunk|tiberius|cytress|ti4|twilight|cyberverse|new eden", re.IGNORECASE)


def test_the_service_names_no_game():
    """Every game reaches the service through the registry: no file of service/ names one."""
    named = [
        f"{path.relative_to(REPO)}:{n}: {line.strip()}"
        for path in sorted((REPO / "service").rglob("*.py"))
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if _GAME_WORDS.search(line)
    ]
    assert not named, "\n".join(named)


def test_a_builtin_game_is_one_line():
    """A built-in game is its package, its solver module and one line of ``BUILTIN_GAMES``."""
    for name, target in BUILTIN_GAMES.items():
        entry = game_entry(name)
        assert entry.target == target
        assert entry.solver == f"solver.{name}"
        assert entry.wire == f"wire.{name}"


def test_the_fixture_registers_in_one_line_and_is_served():
    """The Pig fixture is registered by ``register_game`` (tests/service/conftest.py) and is served
    like any built-in game, without typed messages."""
    assert "pig" in game_names()
    entry = game_entry("pig")
    assert entry.solver == "tests.fixtures.pig_solver" and entry.wire == ""
    assert typed.action_from_text("pig", "roll") is None
    assert not typed.has_typed_actions("pig")


def test_typed_forms_are_found_by_registration():
    for name in ("tiberius", "tiberpunk"):
        assert typed.has_typed_actions(name)
