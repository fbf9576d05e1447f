"""One simulation of a tree search, in four named steps shared by MCTS and ISMCTS.

:meth:`TreeSearch.simulate` is the only walk down a tree in the search (MCTS, ISMCTS with fresh
determinizations and ISMCTS with pooled ones all run it); each engine supplies the steps:

- **arrive** at a node: its settled value when the walk ends there (a proven or terminal
  position), else ``None``;
- **select** the edge to follow: a decision node's action by UCT or PUCT (trying untried actions
  first under UCT), a chance node's outcome drawn by its odds; returns the action and the child
  already in the tree for it (``None`` when there is none yet);
- **descend** along an edge that is already in the tree (ISMCTS moves its determinization along);
- **expand** the tree by the child of the selected edge (one new node per simulation), unless the
  tree is full (``SearchOptions.max_nodes``): then the position after the edge is scored without
  being stored (:meth:`TreeSearch.evaluate_outside`);
- **evaluate** the new leaf: its proven value, the game's heuristic, or a cut-off
  :func:`rollout` ended by the heuristic (dice still to roll at its end are averaged over,
  :func:`chance_value`);
- **backup**: every node of the path gains one visit and the leaf's value vector (one value per
  seat: the seat to move at each node maximises its own component, max^n), and the range of leaf
  values seen widens (``normalize_values``). MCTS then propagates proofs (MCTS-Solver).

Every node keeps the statistics of :class:`NodeStats`; the engines' nodes add their own fields
(``search.mcts.Node``, ``search.ismcts.InfoSetNode``), each documented where it is declared.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from games.core import CHANCE, TERMINAL, Game, make_rng
from games.errors import ConfigError, LimitError, WrongSeatError
from search._gc import full_collections_deferred
from search._loop import run_loop
from search._stats import RootStats, to_analysis
from search.types import Analysis, ProgressCallback, SearchLimit, SearchOptions, StopFlag

__all__ = [
    "Heuristic",
    "NodeStats",
    "Prior",
    "TreeSearch",
    "chance_value",
    "evaluation",
    "has_prior",
    "leaf_depth",
    "rollout",
    "value_scale",
]


Heuristic = Callable[[Any], Sequence[float]]
"""A leaf evaluation: per seat, the estimated chance to win of a non-terminal state."""
Prior = Callable[[Any], Sequence[float] | None]
"""Move priors over ``legal_actions(state)`` (None: uniform)."""


def has_prior(game: Game[Any, Any]) -> bool:
    """Whether the game overrides ``Game.prior`` (then PUCT is used where it returns priors)."""
    return type(game).prior is not Game.prior


def evaluation(game: Game[Any, Any], options: SearchOptions) -> tuple[Heuristic, Prior | None]:
    """The leaf evaluation and priors ``options.evaluator`` names: ``""`` the game's own ``heuristic``
    and ``prior`` (None when the game gives no priors), else the game's evaluator of that name
    (``Game.evaluators``; its prior, when it has none, the game's own).

    Raises:
        ConfigError: the game offers no evaluator of that name (the message lists those it has).
    """
    own_prior = game.prior if has_prior(game) else None
    if not options.evaluator:
        return game.heuristic, own_prior
    known = game.evaluators()
    picked = known.get(options.evaluator)
    if picked is None:
        raise ConfigError(
            f"{game.info.name} has no evaluator {options.evaluator!r}; it has: "
            f"{sorted(known) or 'none'} (or '' for its own heuristic)",
            field="options.evaluator",
        )
    return picked.heuristic, picked.prior or own_prior


def leaf_depth(game: Game[Any, Any], options: SearchOptions) -> int | None:
    """The rollout depth a search uses: ``options.rollout_depth``, or to the end (None) when the
    game has no ``heuristic`` of its own (``Game.heuristic``'s even split would tell it nothing) and
    no evaluator is named."""
    if type(game).heuristic is Game.heuristic and not options.evaluator:
        return None
    return options.rollout_depth


def value_scale(options: SearchOptions, lo: float, hi: float) -> tuple[float, float]:
    """``(lo, k)``: selection reads a mean value ``q`` as ``(q - lo) * k`` (``normalize_values``:
    the leaf values seen so far, from ``lo`` to ``hi``, span [0, 1]; until they spread, ``q`` as it
    is)."""
    span = hi - lo
    if options.normalize_values and span > 1e-9:
        return lo, 1.0 / span
    return 0.0, 1.0


class NodeStats:
    """What every tree node records, whatever the engine (OpenSpiel's ``explore_count`` and
    ``total_reward``, with one value per seat).

    Attributes:
        visits: simulations that passed through the node (its backups).
        value_sums: per seat, the sum of the values backed up through the node; the mean value of
            seat ``s`` here is ``value_sums[s] / visits``.
    """

    __slots__ = ("value_sums", "visits")

    def __init__(self, players: int) -> None:
        self.visits = 0
        self.value_sums = [0.0] * players


class TreeSearch:
    """The state, the request handling and the steps both tree searches share; subclasses supply
    the engine's steps, ``prepare`` (the root for a position) and ``root_stats``.

    Attributes:
        game: the game searched.
        options: the search options.
        nodes: nodes in the tree (MCTS, ISMCTS) plus positions cached in it (pooled ISMCTS); once
            it reaches ``options.max_nodes`` the tree is full and stops growing.
        full: whether the tree was full when the current simulation began (then it expands
            nothing: new positions are scored without being stored).
    """

    def __init__(self, game: Game[Any, Any], options: SearchOptions | None) -> None:
        self.game = game
        self.options = options or SearchOptions()
        self.nodes = 0
        self.full = False
        self._players = 0
        self._max_nodes = self.options.max_nodes
        self._heuristic, self._prior = evaluation(game, self.options)
        self._priors = self.options.use_priors and self._prior is not None
        self._depth = leaf_depth(game, self.options)
        self._end = math.inf
        self._lo = math.inf  # the lowest and highest leaf values of this search (normalize_values)
        self._hi = -math.inf
        self._root: Any = None  # the engine's root node (each engine has its own node class)

    # ------------------------------------------------------------------ public API
    algorithm = ""
    """The engine's name in its analyses ("mcts", "ismcts")."""

    @property
    def root_visits(self) -> int:
        """Simulations stored in the current root (kept across moves by tree reuse)."""
        return self._root.visits if self._root is not None else 0

    def search(
        self,
        state: Any,
        *,
        limit: SearchLimit,
        seed: int = 0,
        stop: StopFlag | None = None,
        progress: ProgressCallback | None = None,
    ) -> Analysis:
        """Search ``state`` within ``limit`` and return the analysis (best move first).

        Args:
            state: the position; the seat to move is the one searched.
            limit: the budget; ``limit.simulations`` counts new simulations (reused ones add to
                the visits but not to the budget).
            seed: the RNG seed (same seed, same simulation limit, same tree → same analysis).
            stop: a flag polled every iteration; when set the search returns its best so far.
            progress: called with a progress ``Analysis`` every ``options.progress_interval_s``.

        Raises:
            WrongSeatError: the position is terminal or a chance node (no seat decides).
            LimitError: no bound in ``limit`` and no ``stop`` flag.
        """
        start = time.monotonic()
        with full_collections_deferred(self.options.defer_full_gc):
            self.prepare(state, limit=limit, stop=stop, seed=seed)
            rng = make_rng(seed)

            def report(sims: int) -> None:
                assert progress is not None
                progress(self._analysis(sims, seed=seed, start=start, final=False, stopped_by="running"))

            sims, why = self.run(
                rng, limit=limit, start=start, stop=stop, on_progress=report if progress is not None else None
            )
            return self._analysis(sims, seed=seed, start=start, final=True, stopped_by=why)

    # ------------------------------------------------------------------ pieces used by parallel.py
    def prepare(self, state: Any, *, limit: SearchLimit, stop: StopFlag | None, seed: int = 0) -> None:
        """Check the request and set the root for ``state`` (``seed``: ISMCTS's texts)."""
        raise NotImplementedError

    def run(
        self,
        rng: random.Random,
        *,
        limit: SearchLimit,
        start: float,
        stop: StopFlag | None,
        on_progress: Any = None,
    ) -> tuple[int, str]:
        """Iterate on the prepared root until the budget ends; returns (simulations, reason)."""
        root = self._root
        assert root is not None
        self._end = limit.end_time(start)
        simulate = self.simulate
        return run_loop(
            lambda: simulate(root, rng),
            limit=limit,
            start=start,
            end=self._end,
            stop=stop,
            is_proven=self._proof_flag(root),
            on_progress=on_progress,
            interval_s=self.options.progress_interval_s,
        )

    def root_stats(self, simulations: int) -> RootStats:
        """The current root's statistics (for merging and ranking)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ the request
    def _seat_to_search(self, state: Any, *, limit: SearchLimit, stop: StopFlag | None) -> int:
        """The seat to move at ``state``, once the request is checked.

        Raises:
            LimitError: no bound in ``limit`` and no ``stop`` flag.
            WrongSeatError: the position is terminal or a chance node (no seat decides).
        """
        if not limit.bounded and stop is None:
            raise LimitError(
                "a search needs a bound: simulations, time_s or deadline (or a stop flag)", field="limit"
            )
        seat = self.game.current_player(state)
        if seat == TERMINAL:
            raise WrongSeatError("the game is over; there is nothing to search", field="state")
        if seat == CHANCE:
            raise WrongSeatError(
                "the next action is a chance outcome (dice, a draw), not a seat's decision", field="state"
            )
        return seat

    def _proof_flag(self, root: Any) -> Callable[[], bool] | None:
        """What tells the loop the root is proven (it then stops), or None (no proofs)."""
        return None

    def _analysis(self, sims: int, *, seed: int, start: float, final: bool, stopped_by: str) -> Analysis:
        """The analysis of the root after ``sims`` simulations."""
        return to_analysis(
            self.root_stats(sims),
            seed=seed,
            elapsed_s=time.monotonic() - start,
            final=final,
            workers=1,
            algorithm=self.algorithm,
            stopped_by=stopped_by,
        )

    # ------------------------------------------------------------------ the walk
    def simulate(self, root: Any, rng: random.Random) -> None:
        """One simulation from ``root``: arrive / select / descend down the tree, expand and
        evaluate one new leaf (or score the position outside a full tree), then back up."""
        self.full = self.nodes >= self._max_nodes
        self.begin(root, rng)
        path: list[NodeStats] = [root]
        node = root
        value: Sequence[float] | None
        while True:
            value = self.arrive(node)
            if value is not None:
                break
            action, child = self.select(node, rng)
            if child is None:
                if self.full:
                    value = self.evaluate_outside(node, action, rng)
                else:
                    child = self.expand(node, action)
                    path.append(child)
                    value = self.evaluate(node, action, child, rng)
                break
            self.descend(node, action, child)
            node = child
            path.append(node)
        self.backup(path, value)

    # ------------------------------------------------------------------ the steps
    def begin(self, root: Any, rng: random.Random) -> None:
        """Ready a simulation (ISMCTS draws its determinization here)."""

    def arrive(self, node: Any) -> Sequence[float] | None:
        """The value the walk ends with at ``node`` (proven or terminal), else ``None``."""
        raise NotImplementedError

    def select(self, node: Any, rng: random.Random) -> tuple[Any, Any]:
        """``(action, child)``: the edge to follow from ``node`` and its child (``None`` if new)."""
        raise NotImplementedError

    def descend(self, node: Any, action: Any, child: Any) -> None:
        """Follow ``action`` from ``node`` to ``child``, a node already in the tree."""

    def expand(self, node: Any, action: Any) -> Any:
        """Add and return the child of ``node`` along ``action`` (one new node)."""
        raise NotImplementedError

    def evaluate(self, node: Any, action: Any, child: Any, rng: random.Random) -> Sequence[float]:
        """The value of the new leaf ``child`` (reached from ``node`` by ``action``)."""
        raise NotImplementedError

    def evaluate_outside(self, node: Any, action: Any, rng: random.Random) -> Sequence[float]:
        """The value of the position after ``action`` from ``node`` when the tree is full."""
        raise NotImplementedError

    def backup(self, path: list[NodeStats], value: Sequence[float]) -> None:
        """Add one visit and ``value`` to every node of ``path``; widen the leaf value range."""
        players = self._players
        for node in path:
            node.visits += 1
            sums = node.value_sums
            for k in range(players):
                sums[k] += value[k]
        lo, hi = min(value), max(value)
        self._lo = min(self._lo, lo)
        self._hi = max(self._hi, hi)

    # ------------------------------------------------------------------ shared by the steps
    def _value_scale(self) -> tuple[float, float]:
        """:func:`value_scale` of this search's leaf value range."""
        return value_scale(self.options, self._lo, self._hi)

    def _rollout(
        self, state: Any, player: int, legal: Sequence[Any] | None, rng: random.Random
    ) -> Sequence[float]:
        """:func:`rollout` from ``state`` (``player`` to move, ``legal`` its actions if known) with
        this search's depth, deadline and chance-leaf averaging."""
        return rollout(
            self.game,
            state,
            rng,
            player=player,
            legal=legal,
            depth=self._depth,
            end=self._end,
            chance_samples=self.options.chance_leaf_samples,
            heuristic=self._heuristic,
        )

    def _score(self, state: Any, rng: random.Random) -> Sequence[float]:
        """The value of a position outside the tree: its returns when the game is over, else a
        cut-off rollout."""
        return self._rollout(state, self.game.current_player(state), None, rng)


def rollout(
    game: Game[Any, Any],
    state: Any,
    rng: random.Random,
    *,
    player: int,
    legal: Sequence[Any] | None,
    depth: int | None,
    end: float,
    chance_samples: int = 0,
    heuristic: Heuristic | None = None,
) -> Sequence[float]:
    """Play random actions (chance by its odds) for ``depth`` steps, then score with the heuristic.

    ``player`` and ``legal`` are those of ``state`` (already known to the caller). The rollout ends
    early, scored by the heuristic, once the monotonic clock passes ``end``. Where it ends on a chance
    node and ``chance_samples`` > 0, the score is :func:`chance_value` (the heuristic after the
    dice, not before them). ``heuristic`` replaces ``game.heuristic`` (:func:`evaluation`).
    """
    if heuristic is None:
        heuristic = game.heuristic
    limit = math.inf if depth is None else depth
    steps = 0
    while True:
        if player == TERMINAL:
            return game.returns(state)
        if steps >= limit:
            if player == CHANCE and chance_samples > 0:
                return chance_value(game, state, rng, chance_samples, heuristic=heuristic)
            return heuristic(state)
        if player == CHANCE:
            action = game.sample_chance(state, rng)
        else:
            if legal is None:
                legal = game.legal_actions(state)
            action = legal[int(rng.random() * len(legal))]  # randrange costs ~5x more
        state = game.apply_trusted(state, action)
        legal = None
        steps += 1
        if steps & 15 == 0 and time.monotonic() >= end:
            limit = 0
        player = game.current_player(state)


def chance_value(
    game: Game[Any, Any],
    state: Any,
    rng: random.Random,
    samples: int,
    *,
    heuristic: Heuristic | None = None,
) -> list[float]:
    """The expected score of a chance node: over its outcomes when there are at most ``samples``
    (weighted by their odds), else the mean over ``samples`` draws. Each outcome's position is
    scored by ``returns`` or the heuristic (``heuristic``, else ``game.heuristic``); a further chance
    node on the way (a defence roll after an attack roll) is resolved by one draw.
    """
    if heuristic is None:
        heuristic = game.heuristic
    outcomes = game.chance_outcomes(state)
    if len(outcomes) > samples:
        share = 1.0 / samples
        outcomes = [(game.sample_chance(state, rng), share) for _ in range(samples)]
    total: list[float] | None = None
    for outcome, prob in outcomes:
        after = game.apply_trusted(state, outcome)
        player = game.current_player(after)
        while player == CHANCE:
            after = game.apply_trusted(after, game.sample_chance(after, rng))
            player = game.current_player(after)
        value = game.returns(after) if player == TERMINAL else heuristic(after)
        if total is None:
            total = [prob * v for v in value]
        else:
            for k, v in enumerate(value):
                total[k] += prob * v
    assert total is not None, "a chance node without outcomes"
    return total
