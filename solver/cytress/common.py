"""Shared by the Cytress solvers: reading a puzzle's parameters, the game and state, CP-SAT runs."""

from __future__ import annotations

import math
import threading
from collections.abc import Mapping, Sequence
from typing import Any

from ortools.sat.python import cp_model

from games.core import Game
from games.cytress.game import CytressGame
from games.cytress.state import AUTOMA, NOBODY, CytressState
from games.errors import ConfigError, InvalidStateError
from solver.core import (
    SolveLimits,
    Status,
    shown,
)

__all__ = [
    "STATUS",
    "as_game",
    "as_state",
    "choice_param",
    "hex_param",
    "int_param",
    "owner_name",
    "seat_param",
    "solve",
]


STATUS = {
    cp_model.OPTIMAL: Status.OPTIMAL,
    cp_model.FEASIBLE: Status.FEASIBLE,
    cp_model.INFEASIBLE: Status.INFEASIBLE,
    cp_model.UNKNOWN: Status.UNKNOWN,
    cp_model.MODEL_INVALID: Status.UNKNOWN,
}


# ============================================================================ parameters
def int_param(params: Mapping[str, Any], key: str, default: int, lo: int, hi: int) -> int:
    value = params.get(key, default)
    number: int | None = None
    if isinstance(value, bool):
        number = None
    elif isinstance(value, int):
        number = value
    elif isinstance(value, float) and math.isfinite(value) and value.is_integer():
        number = int(value)
    if number is None or not lo <= number <= hi:
        raise ConfigError(f"{key} must be an integer {lo}..{hi}, got {shown(value)}", field=f"params.{key}")
    return number


def choice_param(params: Mapping[str, Any], key: str, choices: Sequence[str]) -> str:
    value = params.get(key, choices[0])
    if not isinstance(value, str) or value not in choices:
        raise ConfigError(f"{key} must be one of {list(choices)}, got {shown(value)}", field=f"params.{key}")
    return value


def seat_param(params: Mapping[str, Any], s: CytressState) -> int:
    default = s.actor if 0 <= s.actor < s.num_players else 0
    return int_param(params, "seat", default, 0, s.num_players - 1)


def hex_param(params: Mapping[str, Any], key: str, s: CytressState, value: Any) -> int:
    labels = s.map.layout.labels
    if not isinstance(value, str) or value not in labels:
        raise ConfigError(
            f"{key} must be a mini-map hex like {labels[0]!r} (columns A-, rows 1-), got {shown(value)}",
            field=f"params.{key}",
        )
    return labels.index(value)


def as_game(game: Game[Any, Any]) -> CytressGame:
    if not isinstance(game, CytressGame):
        raise InvalidStateError(f"expected the cytress game, got {game.info.name!r}", field="game")
    return game


def as_state(state: Any) -> CytressState:
    if not isinstance(state, CytressState):
        raise InvalidStateError(f"expected a cytress state, got {type(state).__name__}", field="state")
    return state


def owner_name(s: CytressState, o: int) -> str:
    if o == NOBODY:
        return "nobody"
    return "the automa" if s.solo and o == AUTOMA else f"seat {o}"


def solve(
    model: cp_model.CpModel,
    limits: SolveLimits,
    *,
    linearization: int = 2,
    probing: int = 2,
    presolve: bool = True,
) -> tuple[cp_model.CpSolver, Any]:
    """Solve with the limits; ``linearization`` 2 (the default here: the majorities' LP relaxation,
    ~1.6x faster on tube control), ``probing`` (presolve probing level, CP-SAT's default 2) and
    ``presolve`` (False: no presolve, symmetry detection or SAT inprocessing, for models too small to
    repay them)."""
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = max(0.01, float(limits.time_limit_s))
    solver.parameters.num_workers = max(1, int(limits.workers))
    solver.parameters.linearization_level = linearization
    solver.parameters.cp_model_probing_level = probing
    if not presolve:
        solver.parameters.cp_model_presolve = False
        solver.parameters.symmetry_level = 0
        solver.parameters.use_sat_inprocessing = False
    stop = limits.stop
    if stop is None:
        return solver, solver.solve(model)
    done = threading.Event()

    def watch() -> None:
        while not done.wait(0.02):
            if stop():
                solver.stop_search()

    watcher = threading.Thread(target=watch, name="cp-sat-stop", daemon=True)
    watcher.start()
    try:
        return solver, solver.solve(model)
    finally:
        done.set()
        watcher.join()
