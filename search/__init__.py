"""Search: MCTS / ISMCTS over the Game protocol.

THE CONTRACT (PLACEHOLDER_API in the search engineer's brief means exactly this file): the service
engineer codes against these names and signatures right now; keep them exactly. Replace the
NotImplementedError bodies with the real implementation (in other modules of search/, re-exported
here).

- ``SearchLimit(simulations=None, time_s=None, deadline=None)``: at least one set; the search
  returns its best-so-far when any is hit (within 50 ms). ``deadline`` is an absolute
  ``time.monotonic()`` value.
- ``Candidate``: action, text (notation), visits, value (mean per seat), prior, lcb (lower
  confidence bound of the mover's value), pv (principal variation in notation, starting with
  ``text``), proven (MCTS-Solver proven value for the mover, or None).
- ``Analysis``: seat, candidates (best first: by visits, ties by value), root_value (per seat),
  simulations, elapsed_s, seed, final (False for progress reports, True for the result).
- ``analyze(game, state, *, limit, seed=0, workers=1, stop=None, progress=None,
  progress_every_s=0.25, options=None) -> Analysis``: ISMCTS (determinizations drawn from
  ``game.observation(state, seat)``) when ``game.info.hidden_information``, plain MCTS otherwise.
  Raises ``games.errors.WrongSeatError`` when the state is terminal or at a chance node.
- ``choose_action(game, state, *, level=5, seed=0, limit=None, stop=None) -> (action, Analysis)``:
  strength level 1..10 (budget and move-choice temperature); ``limit`` overrides the level budget.
- Baseline bots in ``search/bots.py``: ``RandomBot(seed)``, ``GreedyBot(seed)`` with
  ``.choose(game, state) -> action``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games.core import Game

__all__ = ["Analysis", "Candidate", "MCTSOptions", "SearchLimit", "analyze", "choose_action"]


@dataclass(frozen=True, slots=True, kw_only=True)
class SearchLimit:
    """Budget of one search; at least one field set.

    Attributes:
        simulations: iterations budget (None = unbounded).
        time_s: wall-time budget in seconds from the start of the search.
        deadline: absolute ``time.monotonic()`` value to stop at.
    """

    simulations: int | None = None
    time_s: float | None = None
    deadline: float | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Candidate:
    """One ranked root action.

    Attributes:
        action: the game's action object.
        text: its notation, ``game.action_to_text(state, action)``.
        visits: simulations through it.
        value: mean value per seat (same scale as ``game.returns``).
        prior: its prior probability.
        lcb: lower confidence bound of the mover's value.
        pv: principal variation in notation, starting with ``text``.
        proven: the proven value for the mover (MCTS-Solver), or None.
    """

    action: Any
    text: str
    visits: int
    value: tuple[float, ...]
    prior: float
    lcb: float
    pv: tuple[str, ...]
    proven: float | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Analysis:
    """The result (or a progress report) of a search.

    Attributes:
        seat: the seat searched for (the player to move).
        candidates: ranked root actions, best first.
        root_value: value per seat at the root.
        simulations: simulations run.
        elapsed_s: seconds used.
        seed: the seed.
        final: False for progress reports, True for the result.
    """

    seat: int
    candidates: tuple[Candidate, ...]
    root_value: tuple[float, ...]
    simulations: int
    elapsed_s: float
    seed: int
    final: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class MCTSOptions:
    """Tuning of the search (the search engineer extends this).

    Attributes:
        c_uct: exploration constant.
    """

    c_uct: float = 1.4


def analyze(
    game: Game[Any, Any],
    state: Any,
    *,
    limit: SearchLimit,
    seed: int = 0,
    workers: int = 1,
    stop: threading.Event | None = None,
    progress: Callable[[Analysis], None] | None = None,
    progress_every_s: float = 0.25,
    options: MCTSOptions | None = None,
) -> Analysis:
    """Search ``state`` for the player to move and return the ranked analysis."""
    raise NotImplementedError


def choose_action(
    game: Game[Any, Any],
    state: Any,
    *,
    level: int = 5,
    seed: int = 0,
    limit: SearchLimit | None = None,
    stop: threading.Event | None = None,
) -> tuple[Any, Analysis]:
    """The AI seat's move at strength ``level`` (1..10) and the analysis behind it."""
    raise NotImplementedError
