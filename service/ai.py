"""The one place the service calls the search (``search/``): analyses and AI moves.

The service asks two things of the search: an analysis of a position (Analyze, Hint) and an AI
seat's move at a strength level (SuggestAction, the match worker). Both take a stop event the
service sets on cancellation, at the client's deadline and at shutdown.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import search
from games.core import Game
from search import Analysis, Candidate, SearchLimit, StopFlag

__all__ = ["candidate_proven", "candidate_values", "choose", "root_values", "run_search"]


def run_search(
    game: Game[Any, Any],
    state: Any,
    *,
    limit: SearchLimit,
    seed: int = 0,
    stop: StopFlag | None = None,
    progress: Callable[[Analysis], None] | None = None,
    progress_every_s: float = 0.25,
) -> Analysis:
    """Analyse ``state`` for the seat to move."""
    return search.analyze(
        game, state, limit=limit, seed=seed, stop=stop, progress=progress, progress_every_s=progress_every_s
    )


def choose(
    game: Game[Any, Any],
    state: Any,
    *,
    level: int = 5,
    seed: int = 0,
    limit: SearchLimit | None = None,
    stop: StopFlag | None = None,
    temperature: float | None = None,
) -> tuple[Any, Analysis]:
    """The AI's move at strength ``level`` (``limit`` overrides the level's budget, ``temperature``
    the level's move-choice temperature) and its analysis."""
    return search.choose_action(
        game, state, level=level, seed=seed, limit=limit, stop=stop, temperature=temperature
    )


def candidate_values(cand: Candidate) -> tuple[float, ...]:
    """A candidate's mean value per seat."""
    return tuple(float(v) for v in cand.value)


def candidate_proven(cand: Candidate, seat: int) -> float | None:
    """A candidate's proven value for the mover (None when not proven)."""
    return None if cand.proven is None else float(cand.proven)


def root_values(analysis: Analysis) -> tuple[float, ...]:
    """An analysis's value per seat at the root."""
    return tuple(float(v) for v in analysis.root_value)
