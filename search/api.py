"""The one-call entry points: ``analyze`` (an analysis), ``choose_action`` (an AI seat's move at a
strength level) and the strength levels themselves."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace
from typing import Any

from games.core import Game, derive_seed, make_rng
from games.errors import ConfigError
from search._dispose import dispose
from search._gc import full_collections_deferred
from search.ismcts import ISMCTS
from search.mcts import MCTS
from search.parallel import parallel_search
from search.types import Analysis, ProgressCallback, SearchLimit, SearchOptions, StopFlag

__all__ = [
    "LEVELS",
    "Level",
    "analyze",
    "choose_action",
    "level",
    "level_evaluator",
    "pick_algorithm",
    "pick_move",
]

_ALGORITHMS = ("auto", "mcts", "ismcts")
_MIN_PROGRESS_S = 0.02
"""Progress reports are at least this far apart (each one ranks the moves and writes their PVs)."""


def pick_algorithm(game: Game[Any, Any], algorithm: str = "auto") -> str:
    """``"ismcts"`` for games with hidden information, else ``"mcts"`` (unless one is named)."""
    if algorithm not in _ALGORITHMS:
        raise ConfigError(
            f"unknown search algorithm {algorithm!r}; known: {list(_ALGORITHMS)}", field="algorithm"
        )
    if algorithm != "auto":
        return algorithm
    return "ismcts" if game.info.hidden_information else "mcts"


def analyze(
    game: Game[Any, Any],
    state: Any,
    *,
    limit: SearchLimit,
    seed: int = 0,
    options: SearchOptions | None = None,
    workers: int = 1,
    stop: StopFlag | None = None,
    progress: ProgressCallback | None = None,
    progress_every_s: float | None = None,
    algorithm: str = "auto",
    mp_context: str | None = None,
) -> Analysis:
    """Analyse ``state`` for the seat to move and return the ranked candidates.

    Stateless (for tree reuse between moves keep an :class:`MCTS` object). Games with hidden
    information are searched with ISMCTS from the mover's observation only.

    Args:
        game: any Lictor game.
        state: the position; the seat to move is the one searched.
        limit: the budget (simulations, wall time, absolute monotonic deadline).
        seed: the seed; with a simulation limit the analysis is reproducible for the same seed and
            worker count.
        options: search options (defaults: UCT, cut-off rollouts of 10 actions, solver on).
        workers: processes for root parallelism (1: search in this process).
        stop: a flag (e.g. ``threading.Event``) polled during the search; set it to stop early.
        progress: called with progress analyses (``final=False``) during the search.
        progress_every_s: seconds between progress reports (overrides ``options.progress_interval_s``;
            at least 0.02).
        algorithm: ``"auto"``, ``"mcts"`` or ``"ismcts"``.
        mp_context: multiprocessing start method for ``workers > 1`` (default fork where available).

    Raises:
        WrongSeatError: the position is terminal or a chance node.
        LimitError: no bound and no stop flag, or a bad bound.
        ConfigError: an unknown algorithm or ``workers < 1``.
    """
    algo = pick_algorithm(game, algorithm)
    opts = options or SearchOptions()
    if progress_every_s is not None:
        opts = replace(opts, progress_interval_s=max(_MIN_PROGRESS_S, progress_every_s))
    if workers < 1:
        raise ConfigError(f"workers must be at least 1, not {workers!r}", field="workers")
    if workers > 1:
        with full_collections_deferred(opts.defer_full_gc):
            return parallel_search(
                game,
                state,
                algorithm=algo,
                limit=limit,
                seed=seed,
                options=opts,
                workers=workers,
                stop=stop,
                progress=progress,
                mp_context=mp_context,
            )
    return _search_here(game, state, algo, opts, limit=limit, seed=seed, stop=stop, progress=progress)


def _search_here(
    game: Game[Any, Any],
    state: Any,
    algorithm: str,
    options: SearchOptions,
    *,
    limit: SearchLimit,
    seed: int,
    stop: StopFlag | None,
    progress: ProgressCallback | None,
) -> Analysis:
    """``analyze`` with one worker: a fresh engine of ``algorithm`` searches in this process."""
    engine: MCTS | ISMCTS = (
        ISMCTS(game, options=options) if algorithm == "ismcts" else MCTS(game, options=options)
    )
    try:
        result = engine.search(state, limit=limit, seed=seed, stop=stop, progress=progress)
    finally:
        dispose(engine)  # the tree is freed off this path: the result is returned at once
        del engine
    return result


def pick_move(analysis: Analysis, *, temperature: float = 0.0, rng: random.Random | None = None) -> Any:
    """Pick a move from an analysis: the best at temperature 0, else by visits^(1/temperature).

    A proven win is always played. Each move counts its prior as one extra (fractional) visit, so
    moves the search never tried are picked by how plausible the game finds them (a low level
    stumbles on plausible moves, not on any move at all).

    Raises:
        ConfigError: a temperature > 0 without an ``rng``.
    """
    best = analysis.best
    if temperature <= 0 or (best.proven is not None and best.proven >= 1.0 - 1e-9):
        return best.action
    if rng is None:
        raise ConfigError("pick_move with a temperature needs an rng", field="rng")
    counts = [c.visits + c.prior for c in analysis.candidates]
    top = max(counts) or 1.0
    weights = [math.pow(max(n, 1e-6) / top, 1.0 / temperature) for n in counts]
    r = rng.random() * sum(weights)
    for c, w in zip(analysis.candidates, weights, strict=True):
        r -= w
        if r < 0:
            return c.action
    return analysis.candidates[-1].action


def choose_action(
    game: Game[Any, Any],
    state: Any,
    *,
    level: int = 5,
    seed: int = 0,
    limit: SearchLimit | None = None,
    stop: StopFlag | None = None,
    options: SearchOptions | None = None,
    workers: int = 1,
    algorithm: str = "auto",
    temperature: float | None = None,
    progress: ProgressCallback | None = None,
    progress_every_s: float | None = None,
) -> tuple[Any, Analysis]:
    """An AI seat's move at a strength level: search, then pick at the level's temperature.

    Args:
        game: any Lictor game.
        state: the position (a seat's decision).
        level: strength 1–10 (budget, rollout depth and move-choice temperature).
        seed: the seed (the search's and the temperature draw's).
        limit: a budget instead of the level's (the level's temperature still applies).
        stop: a stop flag (cancellation, deadline); the best move so far is played.
        options: search options instead of the level's.
        workers: processes for root parallelism.
        algorithm: ``"auto"``, ``"mcts"`` or ``"ismcts"``.
        temperature: the move-choice temperature instead of the level's (0: the best move, e.g. for
            a custom ``limit`` that should play its best).
        progress: called with progress reports (as ``analyze``'s).
        progress_every_s: seconds between progress reports.

    Returns:
        The action and the analysis behind it (a forced move is played after one simulation,
        ``stopped_by="only-move"``).
    """
    lv = _level(level)
    if temperature is not None and not (temperature >= 0 and math.isfinite(temperature)):
        raise ConfigError(
            f"temperature must be a finite number >= 0, not {temperature!r}", field="temperature"
        )
    forced = len(game.legal_actions(state)) == 1
    analysis = analyze(
        game,
        state,
        limit=SearchLimit(simulations=1) if forced else limit or lv.limit,
        seed=seed,
        options=options or lv.options_for(game),
        workers=workers,
        stop=stop,
        algorithm=algorithm,
        progress=None if forced else progress,
        progress_every_s=progress_every_s,
    )
    if forced:
        return analysis.best_action, replace(analysis, stopped_by="only-move")
    temp = lv.temperature if temperature is None else temperature
    action = pick_move(analysis, temperature=temp, rng=make_rng(derive_seed(seed, "pick")))
    return action, analysis


@dataclass(frozen=True, slots=True, kw_only=True)
class Level:
    """A strength level for friendly opponents (like a chess engine's skill level).

    Attributes:
        level: 1 (weakest) to 10 (strongest).
        simulations: simulations per move.
        time_s: wall-time cap per move in seconds.
        temperature: move-choice temperature (0 plays the best move; higher plays looser).

    Every level searches with the default ``SearchOptions`` (leaves scored by the game's heuristic):
    levels differ in budget and temperature only. (Random rollout moves before the heuristic, once
    a level knob, made Tiberpunk's search weaker rather than more short-sighted: docs/search.md.)
    """

    level: int
    simulations: int
    time_s: float
    temperature: float

    @property
    def limit(self) -> SearchLimit:
        """The budget of one move at this level."""
        return SearchLimit(simulations=self.simulations, time_s=self.time_s)

    @property
    def options(self) -> SearchOptions:
        """Search options at this level (the defaults)."""
        return SearchOptions()

    def options_for(self, game: Game[Any, Any]) -> SearchOptions:
        """Search options at this level for ``game``: the defaults, with the evaluator the game
        marks for its levels (:func:`level_evaluator`)."""
        return SearchOptions(evaluator=level_evaluator(game))


def level_evaluator(game: Game[Any, Any]) -> str:
    """The evaluator the strength levels search ``game`` with: the one of ``game.evaluators()``
    marked ``levels`` (measured stronger than the game's own heuristic), else ``""`` (its own)."""
    return next((name for name, ev in game.evaluators().items() if ev.levels), "")


LEVELS: tuple[Level, ...] = (
    Level(level=1, simulations=8, time_s=0.2, temperature=2.0),
    Level(level=2, simulations=16, time_s=0.2, temperature=1.5),
    Level(level=3, simulations=32, time_s=0.3, temperature=1.0),
    Level(level=4, simulations=64, time_s=0.3, temperature=0.7),
    Level(level=5, simulations=150, time_s=0.5, temperature=0.5),
    Level(level=6, simulations=300, time_s=0.7, temperature=0.3),
    Level(level=7, simulations=600, time_s=1.0, temperature=0.15),
    Level(level=8, simulations=1500, time_s=2.0, temperature=0.05),
    Level(level=9, simulations=4000, time_s=4.0, temperature=0.0),
    Level(level=10, simulations=12000, time_s=8.0, temperature=0.0),
)
"""Levels 1–10: budget grows ~2x per level, temperature falls to 0 at level 9."""


def level(number: int) -> Level:
    """The strength level ``number`` (1–10). Raises ``ConfigError`` outside that range."""
    return _level(number)


def _level(number: int) -> Level:
    if not 1 <= number <= len(LEVELS):
        raise ConfigError(f"strength level must be 1 to {len(LEVELS)}, not {number!r}", field="level")
    return LEVELS[number - 1]
