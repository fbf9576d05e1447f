"""Registering a game and its solver (issue 32): a misnamed solver or wire module, and a solver
registering under a game name nobody registered, are errors where they happen, never silent skips."""

from __future__ import annotations

import pytest

from games.core.registry import register_game, unregister_game
from solver.core import register_advice, register_puzzle, register_scorer


def test_a_misnamed_solver_module_is_an_error_at_registration() -> None:
    with pytest.raises(ValueError, match=r"solver module 'solver.no_such_game' does not exist"):
        register_game("typo", "tests.fixtures.pig:PigGame", solver="solver.no_such_game")
    with pytest.raises(ValueError, match=r"wire module 'nowhere.at_all' does not exist"):
        register_game("typo", "tests.fixtures.pig:PigGame", wire="nowhere.at_all")


def test_a_solver_for_an_unregistered_game_is_an_error() -> None:
    for register in (
        lambda: register_scorer("tiberus", lambda game, state: None),  # type: ignore[arg-type,return-value]
        lambda: register_advice("tiberus", lambda *a: None),  # type: ignore[arg-type,return-value]
        lambda: register_puzzle("tiberus", "tiberus.x", lambda *a: None),  # type: ignore[arg-type,return-value]
    ):
        with pytest.raises(ValueError, match=r"'tiberus', which is no registered game"):
            register()


def test_a_game_with_its_solver_module_registers() -> None:
    register_game("pig2", "tests.fixtures.pig:PigGame", solver="tests.fixtures.pig_solver")
    unregister_game("pig2")
