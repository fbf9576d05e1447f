"""The heavy jobs, as worker processes run them (:mod:`service.workers`): searches, hints, AI seats'
moves and solves. The one place the service calls ``search`` and a solver's puzzle.

Each job names its game (and content pack) and carries the state; the worker looks the game up in
its own registry (games registered at run time travel with the job as ``GameEntry``s). Every job
takes the stop flag the pool controls (deadline, cancellation, shutdown) and a progress callback.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import search
from games.core import Fact, Game, as_facts, get_game, make_rng
from games.core.registry import GameEntry, game_entry, game_names, register_game
from games.errors import LictorError, NotFoundError
from search import Analysis, SearchLimit, StopFlag
from solver.core import SolveLimits, SolveResult, get_puzzle_spec, puzzle_kinds

__all__ = ["Hint", "Move", "run", "warm_up"]

PROGRESS_EVERY_S = 0.5
"""How often a search sends a progress report when the caller asked for none (the report stands
in for the answer if the process misses its deadline)."""


def warm_up(entries: Sequence[GameEntry] = ()) -> None:
    """Register ``entries``, then load every game, its content pack and the solver modules."""
    _register(entries)
    for name in game_names():
        get_game(name)
    puzzle_kinds()


def _register(entries: Sequence[GameEntry]) -> None:
    for e in entries:
        try:
            known = game_entry(e.name)
        except LictorError:
            known = None
        if known != e:
            register_game(e.name, e.target, solver=e.solver)


def _game(name: str, pack: str) -> Game[Any, Any]:
    return get_game(name, content_path=pack)


@dataclass(frozen=True, slots=True, kw_only=True)
class Hint:
    """A Hint job's answer: the analysis and the game's facts for each of the top moves.

    Attributes:
        analysis: the search's analysis.
        facts: per top candidate (in rank order), the game's facts about it.
    """

    analysis: Analysis
    facts: tuple[tuple[Fact, ...], ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Move:
    """An AI seat's move.

    Attributes:
        text: the action in notation.
        analysis: the search behind it (None for a rule-based engine).
        engine: who chose it (``"search level 5"``, ``"automa"``).
    """

    text: str
    analysis: Analysis | None
    engine: str


def analyze(
    *,
    game: str,
    pack: str,
    state: Any,
    limit: SearchLimit,
    seed: int,
    progress_every_s: float | None,
    stop: StopFlag,
    progress: Callable[[Any], None] | None,
) -> Analysis:
    """An analysis of ``state`` for the seat to move."""
    g = _game(game, pack)
    return search.analyze(
        g,
        state,
        limit=limit,
        seed=seed,
        stop=stop,
        progress=progress,
        progress_every_s=progress_every_s or PROGRESS_EVERY_S,
    )


def hint(
    *,
    game: str,
    pack: str,
    state: Any,
    limit: SearchLimit,
    seed: int,
    top_k: int,
    stop: StopFlag,
    progress: Callable[[Any], None] | None,
) -> Hint:
    """An analysis plus the game's facts about each of the ``top_k`` best moves."""
    g = _game(game, pack)
    analysis = search.analyze(
        g, state, limit=limit, seed=seed, stop=stop, progress=progress, progress_every_s=PROGRESS_EVERY_S
    )
    facts = tuple(tuple(as_facts(g.explain(state, c.action))) for c in analysis.candidates[:top_k])
    return Hint(analysis=analysis, facts=facts)


def choose(
    *,
    game: str,
    pack: str,
    state: Any,
    level: int,
    seed: int,
    limit: SearchLimit | None,
    temperature: float | None,
    engine: str,
    stop: StopFlag,
    progress: Callable[[Any], None] | None,
) -> Move:
    """An AI seat's move: by a rule-based ``engine`` the game ships, or by the search at ``level``."""
    g = _game(game, pack)
    if engine:
        policies = g.policies()
        if engine not in policies:
            raise NotFoundError(
                f"{game} has no engine {engine!r}; engines: {sorted(policies)}", field="engine"
            )
        action = policies[engine](state, make_rng(seed))
        return Move(text=g.action_to_text(state, action), analysis=None, engine=engine)
    action, analysis = search.choose_action(
        g,
        state,
        level=level,
        seed=seed,
        limit=limit,
        stop=stop,
        temperature=temperature,
        progress=progress,
        progress_every_s=PROGRESS_EVERY_S,
    )
    text = next((c.text for c in analysis.candidates if c.action is action), None)
    return Move(
        text=text if text is not None else g.action_to_text(state, action),
        analysis=analysis,
        engine=f"search level {level}",
    )


def solve(
    *,
    game: str,
    pack: str,
    kind: str,
    state: Any,
    params: Mapping[str, Any],
    time_limit_s: float,
    workers: int,
    stop: StopFlag,
    progress: Callable[[Any], None] | None,
) -> SolveResult:
    """A puzzle's answer."""
    g = _game(game, pack)
    spec = get_puzzle_spec(kind)
    return spec.fn(
        g, state, params, SolveLimits(time_limit_s=time_limit_s, workers=workers, stop=stop.is_set)
    )


_JOBS: dict[str, Callable[..., Any]] = {"analyze": analyze, "hint": hint, "choose": choose, "solve": solve}


def run(job: Any, *, stop: StopFlag, progress: Callable[[Any], None] | None) -> Any:
    """Run a :class:`service.workers.Job` in this process."""
    _register(job.games)
    return _JOBS[job.kind](stop=stop, progress=progress, **job.args)
