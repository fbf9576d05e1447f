"""The search's public data: budgets, options, and the analysis it returns.

Every search (``search.analyze``, ``MCTS``, ``ISMCTS``) takes a :class:`SearchLimit` and
:class:`SearchOptions` and returns an :class:`Analysis`: the ranked :class:`Candidate` moves with
their visits, per-seat values, prior, lower confidence bound and principal variation. A progress
callback receives the same structure (``final=False``) while the search runs.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from games.core import Seat
from games.errors import LimitError

__all__ = [
    "Analysis",
    "Candidate",
    "ProgressCallback",
    "SearchLimit",
    "SearchOptions",
    "StopFlag",
]


class StopFlag(Protocol):
    """Anything with ``is_set()``: a ``threading.Event``, a ``multiprocessing.Event``, a gRPC adapter."""

    def is_set(self) -> bool:
        """True once the search should stop and return its best result so far."""
        ...


@dataclass(frozen=True, slots=True, kw_only=True)
class SearchLimit:
    """The budget of one search. The search stops at the first bound reached (or the stop flag).

    At least one bound must be given (or a stop flag passed to the search). Time bounds are
    honoured within a few milliseconds: the clock is read every iteration and inside long rollouts.

    Attributes:
        simulations: the number of simulations (iterations) to run, over all workers; the only
            bound that makes a search reproducible (same seed, same worker count, same result).
        time_s: wall time in seconds from the start of the search.
        deadline: an absolute deadline on the ``time.monotonic()`` clock (e.g. a gRPC deadline:
            ``time.monotonic() + context.time_remaining()``).
    """

    simulations: int | None = None
    time_s: float | None = None
    deadline: float | None = None

    def __post_init__(self) -> None:
        if self.simulations is not None and self.simulations < 1:
            raise LimitError(
                f"simulations must be at least 1, not {self.simulations!r}", field="limit.simulations"
            )
        if self.time_s is not None and not (self.time_s >= 0 and math.isfinite(self.time_s)):
            raise LimitError(
                f"time_s must be a finite number >= 0, not {self.time_s!r}", field="limit.time_s"
            )

    @property
    def bounded(self) -> bool:
        """Whether any bound is set."""
        return self.simulations is not None or self.time_s is not None or self.deadline is not None

    def end_time(self, start: float) -> float:
        """The monotonic time at which the search must stop (``inf`` if no time bound)."""
        end = math.inf
        if self.time_s is not None:
            end = start + self.time_s
        if self.deadline is not None:
            end = min(end, self.deadline)
        return end


@dataclass(frozen=True, slots=True, kw_only=True)
class SearchOptions:
    """How the tree search behaves (the budget is :class:`SearchLimit`).

    Attributes:
        uct_c: exploration constant of UCT (values are in [0, 1]).
        puct_c: exploration constant of PUCT, used at nodes where the game supplies ``prior``.
        use_priors: whether to call ``game.prior`` (PUCT) when the game overrides it.
        rollout_depth: random actions played from a new leaf before the game's ``heuristic`` scores
            the position (a cut-off rollout); ``None`` plays to the end; 0 (the default) scores the
            leaf directly. A game without a ``heuristic`` of its own is always played to the end.
            On Tiberpunk, random moves before the heuristic made play weaker (see docs/search.md).
        solver: MCTS-Solver backup of proven values where the game ends inside the tree (MCTS only;
            ISMCTS never proves values because its tree mixes determinizations).
        stop_when_proven: end the search early once the root's value is proven.
        progress_interval_s: seconds between progress callbacks (when a callback is given).
        max_pv: the longest principal variation reported per candidate.
        reuse: keep the tree between moves (``MCTS`` objects; ``analyze()`` is stateless).
        determinizations: ISMCTS only: draw this many determinizations once and cycle through
            them, caching their positions in the tree (no action is applied twice on the way
            down: much faster, less variety of hidden worlds); ``None`` draws a fresh one every
            iteration.
        max_nodes: the most nodes a tree may hold (MCTS nodes keep their state); once full, the
            search goes on scoring new positions without storing them.
        normalize_values: selection reads each mean value rescaled to [0, 1] by the lowest and
            highest leaf values this search has seen (as MuZero does), so the exploration constants
            mean the same whether a game's values spread over [0, 1] or over a few hundredths of it
            (a heuristic's win-probability estimates early in a long game).
        chance_leaf_samples: a leaf (or a cut-off rollout's last position) where chance acts next
            (dice to roll) is scored by the heuristic's expectation over the outcomes: exact over
            at most this many outcomes, else the mean of this many draws (``search.mcts.chance_value``);
            0 scores the position before the roll, which a heuristic may value far off (on
            Tiberpunk by -0.09 to +0.13 of a win).
        defer_full_gc: defer the cyclic garbage collector's full collections while the search
            runs (its oldest-generation threshold, restored at the end; see ``search/_gc.py``): a
            full collection walks the whole process heap and the growing tree, tens to hundreds of
            milliseconds that could otherwise land at a deadline. Young collections go on.
        evaluator: which leaf evaluation and priors the search reads: ``""`` (the default) the
            game's own ``heuristic`` and ``prior``; a name one of ``game.evaluators()`` (e.g.
            ``"fitted"``, a win model fitted to self-play; its prior, when it has none, the game's
            own). Resolved once per search (``search.tree.evaluation``).
    """

    uct_c: float = 1.0
    puct_c: float = 1.5
    use_priors: bool = True
    rollout_depth: int | None = 0
    solver: bool = True
    stop_when_proven: bool = True
    progress_interval_s: float = 0.25
    max_pv: int = 12
    reuse: bool = True
    determinizations: int | None = None
    max_nodes: int = 300_000
    normalize_values: bool = True
    chance_leaf_samples: int = 8
    defer_full_gc: bool = True
    evaluator: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Candidate:
    """One root move of an analysis.

    Attributes:
        action: the game's action object (hashable).
        text: its notation (``game.action_to_text``).
        visits: simulations through this move (over all workers).
        value: mean value per seat after this move (win 1, loss 0), or the proven value.
        prior: the prior the search used (``game.prior``, else uniform ``1/len(legal)``).
        lcb: a lower confidence bound of the mover's value (mean − 1.96·σ/√visits with the
            Bernoulli bound σ² ≤ m(1−m)); the proven value when proven; 0 when unvisited.
        pv: the principal variation starting with this move, as notation texts (chance outcomes
            included as the most visited outcome).
        proven: the mover's exact value when the solver proved this move, else ``None``.
        proven_values: the exact value per seat when proven, else ``None``.
    """

    action: Any
    text: str
    visits: int
    value: tuple[float, ...]
    prior: float
    lcb: float
    pv: tuple[str, ...]
    proven: float | None = None
    proven_values: tuple[float, ...] | None = None

    @property
    def is_proven(self) -> bool:
        """Whether the solver proved this move's value."""
        return self.proven is not None


@dataclass(frozen=True, slots=True, kw_only=True)
class Analysis:
    """What a search found, best candidate first.

    Attributes:
        seat: the seat the search played (the player to move at the root).
        candidates: the root moves, ranked (proven wins first, then by visits, then by value).
        root_value: the mean value per seat at the root (proven if the root is proven).
        simulations: simulations run (over all workers).
        elapsed_s: wall time of the search in seconds.
        seed: the seed the search used.
        final: False in a progress report, True in the result.
        workers: processes that searched (root parallelism).
        algorithm: ``"mcts"`` or ``"ismcts"``.
        stopped_by: why the search ended: ``"simulations"``, ``"time"``, ``"stop"``, ``"proven"``,
            ``"only-move"`` (``choose_action`` on a forced move), or ``"running"`` in a progress
            report.
        root_proven: True when the solver proved the root's value.
        tree_nodes: nodes in the tree (summed over workers), a size measure.
    """

    seat: Seat
    candidates: tuple[Candidate, ...]
    root_value: tuple[float, ...]
    simulations: int
    elapsed_s: float
    seed: int
    final: bool = True
    workers: int = 1
    algorithm: str = "mcts"
    stopped_by: str = "simulations"
    root_proven: bool = False
    tree_nodes: int = 0

    @property
    def best(self) -> Candidate:
        """The top-ranked candidate."""
        return self.candidates[0]

    @property
    def best_action(self) -> Any:
        """The top-ranked candidate's action."""
        return self.candidates[0].action

    def to_dict(self) -> dict[str, Any]:
        """The analysis as plain JSON types (actions as their notation text)."""
        return {
            "seat": self.seat,
            "candidates": [
                {
                    "text": c.text,
                    "visits": c.visits,
                    "value": list(c.value),
                    "prior": c.prior,
                    "lcb": c.lcb,
                    "pv": list(c.pv),
                    "proven": c.proven,
                    "proven_values": None if c.proven_values is None else list(c.proven_values),
                }
                for c in self.candidates
            ],
            "root_value": list(self.root_value),
            "simulations": self.simulations,
            "elapsed_s": self.elapsed_s,
            "seed": self.seed,
            "final": self.final,
            "workers": self.workers,
            "algorithm": self.algorithm,
            "stopped_by": self.stopped_by,
            "root_proven": self.root_proven,
            "tree_nodes": self.tree_nodes,
        }


ProgressCallback = Callable[[Analysis], None]
"""Called with a progress :class:`Analysis` (``final=False``) every ``progress_interval_s``."""
