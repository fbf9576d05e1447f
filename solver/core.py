"""Shared result types of the solvers, and the per-game registry the service dispatches on.

Game-specific models live in ``solver/<game>.py`` and register their scorer and puzzle kinds here
(``register_scorer``, ``register_puzzle``); the service looks them up by game name and kind.
"""

from __future__ import annotations

import enum
import importlib
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from games.core import Game
from games.errors import ConfigError, NotFoundError

__all__ = [
    "Advice",
    "AdviceFn",
    "PuzzleFn",
    "PuzzleSpec",
    "ScoreFn",
    "ScoreLine",
    "ScoreReport",
    "SeatScore",
    "SolveLimits",
    "SolveResult",
    "Status",
    "check_param_keys",
    "get_advice",
    "get_puzzle",
    "get_puzzle_spec",
    "get_scorer",
    "past_deadline_or_stopped",
    "puzzle_kinds",
    "register_advice",
    "register_puzzle",
    "register_scorer",
    "shown",
]


SHOWN = 60
"""Characters of client input an error message quotes at most."""


def shown(value: Any, limit: int = SHOWN) -> str:
    """A short, safe ``repr`` of client input for an error message: never deep (no recursion into
    nested lists), never a huge integer spelled out, at most ``limit`` characters."""
    if isinstance(value, bool) or value is None:
        text = repr(value)
    elif isinstance(value, int):
        text = repr(value) if value.bit_length() <= 64 else f"<an integer of {value.bit_length()} bits>"
    elif isinstance(value, float | str):
        text = repr(value[: limit + 1] if isinstance(value, str) else value)
    elif isinstance(value, Mapping):
        text = f"<an object of {len(value)} keys>"
    elif isinstance(value, list | tuple):
        text = f"<a list of {len(value)} items>"
    else:
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def check_param_keys(params: Any, schema: Mapping[str, Any]) -> Mapping[str, Any]:
    """``params`` is an object whose keys are all among the schema's properties (``ConfigError``
    naming ``params`` or ``params.<key>`` otherwise); returns it."""
    if not isinstance(params, Mapping):
        raise ConfigError(f"params must be an object, got {shown(params)}", field="params")
    known = schema["properties"]
    for key in params:
        if key not in known:
            name = key[:30] if isinstance(key, str) else shown(key, 30)
            raise ConfigError(
                f"unknown parameter {shown(key)}; this puzzle takes {sorted(known)}",
                field=f"params.{name}",
            )
    return params


class Status(enum.Enum):
    """How good an answer is (the CP-SAT statuses, also used by exact enumeration)."""

    OPTIMAL = "OPTIMAL"  # proven best (or the exact answer of an enumeration)
    FEASIBLE = "FEASIBLE"  # valid, not proven best (time ran out)
    INFEASIBLE = "INFEASIBLE"  # proven that no answer exists
    UNKNOWN = "UNKNOWN"  # nothing found within the limits


@dataclass(frozen=True, slots=True, kw_only=True)
class SolveLimits:
    """Limits for one solve.

    Attributes:
        time_limit_s: wall-time limit in seconds (the client's deadline shortens it).
        workers: CP-SAT search workers.
        stop: polled while solving (None: never); once it returns True the solve ends early like
            at its time limit (CP-SAT through ``stop_search``, searches between nodes), e.g. when
            the caller cancels.
    """

    time_limit_s: float = 10.0
    workers: int = 2
    stop: Callable[[], bool] | None = field(default=None, compare=False)


def past_deadline_or_stopped(deadline: float, stop: Callable[[], bool] | None) -> bool:
    """True once ``time.perf_counter()`` is past ``deadline`` or ``stop()`` says so: the check a
    solver polls between nodes (``SolveLimits.time_limit_s`` and ``SolveLimits.stop``)."""
    return time.perf_counter() > deadline or (stop is not None and stop())


@dataclass(frozen=True, slots=True, kw_only=True)
class ScoreLine:
    """One scoring category for one seat.

    Attributes:
        category: the rulebook's category name (e.g. ``"Conquests"``).
        points: points scored in it.
        detail: how (e.g. ``"most cubes (5) in Conquests"``).
    """

    category: str
    points: float
    detail: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatScore:
    """One seat's score.

    Attributes:
        seat: the seat.
        total: total points.
        rank: final place, 1 = first (equal ranks for a shared place).
        breakdown: points per category.
        tiebreak: the tie-breakers that decided this seat's rank against seats with equal totals,
            in the order applied (empty when no tie).
    """

    seat: int
    total: float
    rank: int
    breakdown: tuple[ScoreLine, ...] = ()
    tiebreak: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class ScoreReport:
    """An exact score.

    Attributes:
        game: the game's name.
        final: True when the game is over (else the score if it ended now).
        seats: per-seat scores, by seat.
        ended_by: how the game ended, in the rulebook's words ("a player placed an 8th triumph
            token"); a variant's limit says it is one ("the max_rounds cap of 40 rounds, a variant
            not in the rulebook"); "" before the end.
    """

    game: str
    final: bool
    seats: tuple[SeatScore, ...]
    ended_by: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class SolveResult:
    """The answer to a puzzle.

    Attributes:
        kind: the puzzle kind (e.g. ``"tiberius.best_placement"``).
        status: OPTIMAL / FEASIBLE / INFEASIBLE / UNKNOWN.
        objective: the objective value of the answer (0 when none).
        bound: the proven bound on the objective.
        answer: the answer as plain JSON types (actions in notation, numbers).
        explanation: one or two sentences a human can act on.
        method: ``"cp-sat"``, ``"enumeration"`` or ``"dp"``.
        wall_s: seconds spent.
    """

    kind: str
    status: Status
    objective: float = 0.0
    bound: float = 0.0
    answer: Mapping[str, Any] = field(default_factory=dict)
    explanation: str = ""
    method: str = ""
    wall_s: float = 0.0


ScoreFn = Callable[[Game[Any, Any], Any], ScoreReport]
PuzzleFn = Callable[[Game[Any, Any], Any, Mapping[str, Any], SolveLimits], SolveResult]


@dataclass(frozen=True, slots=True, kw_only=True)
class PuzzleSpec:
    """A registered puzzle kind.

    Attributes:
        kind: ``"<game>.<name>"``, e.g. ``"tiberius.best_bid"``.
        game: the game it is about.
        fn: the solver function.
        summary: one sentence: the question it answers, for a person.
        params_schema: the JSON Schema of its parameters (``SolveRequest`` params), documented
            field by field (``description``, ``minimum``/``maximum``, ``enum``).
    """

    kind: str
    game: str
    fn: PuzzleFn
    summary: str = ""
    params_schema: Mapping[str, Any] = field(default_factory=lambda: {"type": "object"})


@dataclass(frozen=True, slots=True, kw_only=True)
class Advice:
    """An exact solver's answer to the question a hint asks at a position (the best move by an exact
    measure), so the hint uses it and agrees with it (issue 30).

    Attributes:
        label: what the values measure, in the game's words (``"VP at the end of this turn"``).
        unit: how to read them (``"VP"``, ``"probability"``).
        values: the exact value of each move it valued, by notation (higher is better).
        best: the move the solver answers (notation).
        decides: True when the values answer the hint's question, so hints rank by them; False when
            they are only a fact to show beside the search's ranking.
        method: how the values were found ("exact enumeration", "cp-sat").
        assumption: what the answer takes for granted, in words ("" when nothing): the other seats'
            choices it models, the scope it looks at.
        sentences: per move (notation), the value as a sentence a player reads ("" to let the client
            write ``label: value``).
    """

    label: str
    unit: str
    values: Mapping[str, float]
    best: str
    decides: bool = True
    method: str = "exact enumeration"
    assumption: str = ""
    sentences: Mapping[str, str] = field(default_factory=dict)


AdviceFn = Callable[[Game[Any, Any], Any, tuple[Any, ...], "SolveLimits"], Advice | None]
"""``fn(game, state, actions, limits) -> Advice | None``: the exact values of ``actions`` (and of the
solver's best move) at ``state``, as the mover may know it; None where the solver asks nothing."""

_SCORERS: dict[str, ScoreFn] = {}
_ADVICE: dict[str, AdviceFn] = {}
_PUZZLES: dict[str, PuzzleSpec] = {}
_LOADED: set[str] = set()


def _known(game: str) -> str:
    """``game`` when it is a registered game; ValueError otherwise (a solver module registering under a
    misspelt name would never be found: an error where it registers, not a silent skip)."""
    from games.core.registry import game_names

    names = game_names()
    if game not in names:
        shown = sorted(names)
        raise ValueError(f"solver registered for {game!r}, which is no registered game; games: {shown}")
    return game


def register_scorer(game: str, fn: ScoreFn) -> None:
    """Register the exact scorer of ``game``."""
    _SCORERS[_known(game)] = fn


def register_advice(game: str, fn: AdviceFn) -> None:
    """Register ``game``'s exact advice for hints (:class:`Advice`): a solver that answers, at some
    positions, which move is best by an exact measure (Tiberius' best bid, Tiberpunk's quest odds)."""
    _ADVICE[_known(game)] = fn


def get_advice(game: str) -> AdviceFn | None:
    """The exact advice of ``game`` (None when it registers none)."""
    _load()
    return _ADVICE.get(game)


def register_puzzle(
    game: str,
    kind: str,
    fn: PuzzleFn,
    *,
    summary: str = "",
    params_schema: Mapping[str, Any] | None = None,
) -> None:
    """Register a puzzle ``kind`` (e.g. ``"tiberius.best_bid"``) answered for ``game``.

    Args:
        game: the game's registry name.
        kind: ``"<game>.<name>"``.
        fn: ``fn(game, state, params, limits) -> SolveResult``.
        summary: the question it answers, in one sentence.
        params_schema: the JSON Schema of ``params`` (an object schema).
    """
    schema = params_schema or {"type": "object"}
    _PUZZLES[kind] = PuzzleSpec(kind=kind, game=_known(game), fn=fn, summary=summary, params_schema=schema)


def _load() -> None:
    # Importing a game's solver module registers its scorer and puzzles. Each module once; a game
    # registered later (register_game) has its module imported on the next lookup.
    from games.core.registry import game_entry, game_names

    for name in game_names():
        module = game_entry(name).solver
        if not module or module in _LOADED:
            continue
        _LOADED.add(module)
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise


def get_scorer(game: str) -> ScoreFn:
    """The scorer of ``game``; ``NotFoundError`` if it has none."""
    _load()
    if game not in _SCORERS:
        shown = game if len(game) <= 60 else game[:60] + "..."
        raise NotFoundError(f"no exact scorer for {shown!r}; scorers: {sorted(_SCORERS)}", field="game")
    return _SCORERS[game]


def get_puzzle_spec(kind: str) -> PuzzleSpec:
    """The registration of a puzzle kind; ``NotFoundError`` if unknown."""
    _load()
    spec = _PUZZLES.get(kind)
    if spec is None:
        shown = kind if len(kind) <= 60 else kind[:60] + "..."
        raise NotFoundError(f"no puzzle kind {shown!r}; kinds: {sorted(_PUZZLES)}", field="kind")
    return spec


def get_puzzle(kind: str) -> tuple[str, PuzzleFn]:
    """(game, solver function) of a puzzle kind; ``NotFoundError`` if unknown."""
    spec = get_puzzle_spec(kind)
    return spec.game, spec.fn


def puzzle_kinds() -> list[str]:
    """Every registered puzzle kind."""
    _load()
    return sorted(_PUZZLES)
