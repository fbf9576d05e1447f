"""Monte Carlo tree search for any Lictor game (perfect information, chance, 1–6 seats).

One iteration walks down the tree (UCT, or PUCT at nodes where the game gives ``prior``), samples
chance nodes with ``game.sample_chance`` (children keyed by outcome), adds one leaf, scores it with a
cut-off random rollout ended by ``game.heuristic``, and backs up the whole value vector: each node
keeps the sum of values per seat and the seat to move maximises its own component (max^n).

MCTS-Solver: terminal nodes are proven; a decision node is proven when a child gives its mover a
win (value 1, nothing is better) or when every child is proven (then the child best for the mover);
a chance node is proven when every outcome has been expanded and proven (the expectation). With
2 seats and win/loss/draw returns this is the classic MCTS-Solver. With 3–6 seats proofs are exact
*max^n* values: they assume each seat maximises its own return and breaks ties by action order,
which is not the only equilibrium of a multi-player game; treat them as "proven under max^n".
Proofs need returns in [0, 1] (the protocol's win 1 / loss 0); proven losses are never selected.

Nodes store their state, so each iteration applies one action in the tree plus the rollout's;
actions taken from ``legal_actions`` or chance draws go through ``game.apply_trusted`` (the game's
unchecked fast path). A new leaf lists its legal actions for its rollout but asks ``game.prior``
only when the tree first selects through it (most leaves are visited once). PUCT selection finds
the best unvisited child from the actions sorted by prior and scans only the visited children
(equal to the full scan, first index on ties: tests/search/test_fast_paths.py).
Tree reuse: ``advance(action)`` keeps the subtree of a played action, and ``search(state)`` looks
for ``state`` among the nodes of the first plies of the previous tree before starting afresh.

The tree sees the full state: for games with hidden information use :class:`search.ISMCTS`
(``search.analyze`` picks it automatically), or use this class deliberately as a cheating oracle.
"""

from __future__ import annotations

import math
import random
import time
from bisect import bisect_right
from collections.abc import Sequence
from typing import Any

from games.core import CHANCE, TERMINAL, Game, make_rng
from games.errors import LimitError, WrongSeatError
from search._gc import full_collections_deferred
from search._loop import run_loop
from search._stats import LOSS, WIN, ChildStats, RootStats, to_analysis
from search.types import Analysis, ProgressCallback, SearchLimit, SearchOptions, StopFlag

__all__ = ["MCTS", "chance_value", "rollout"]

_REUSE_DEPTH = 3
_REUSE_NODES = 300
_REUSE_SECONDS = 0.005


def has_prior(game: Game[Any, Any]) -> bool:
    """Whether the game overrides ``Game.prior`` (then PUCT is used where it returns priors)."""
    return type(game).prior is not Game.prior


def leaf_depth(game: Game[Any, Any], options: SearchOptions) -> int | None:
    """The rollout depth a search uses: ``options.rollout_depth``, or to the end (None) when the
    game has no ``heuristic`` of its own (``Game.heuristic``'s even split would tell it nothing)."""
    if type(game).heuristic is Game.heuristic:
        return None
    return options.rollout_depth


def value_scale(options: SearchOptions, lo: float, hi: float) -> tuple[float, float]:
    """``(lo, k)``: selection reads a mean value ``q`` as ``(q - lo) * k`` (``normalize_values``:
    the leaf values seen so far, from ``lo`` to ``hi``, span [0, 1]; until they spread, ``q`` as it
    is). Shared by MCTS and ISMCTS."""
    span = hi - lo
    if options.normalize_values and span > 1e-9:
        return lo, 1.0 / span
    return 0.0, 1.0


_UNSET: Any = ()
"""An unset list of a node (read as empty; never mutated: a node gets its own lists when needed)."""


class _Node:
    """A tree node. Decision nodes keep ``actions``/``children``/``priors``; chance nodes ``cmap``
    (children by outcome) and, once visited in the tree, ``actions`` (the outcomes) and ``priors``
    (their cumulative probabilities). A decision leaf's rollout lists its ``actions``; ``expanded``
    turns true when the tree first selects through it (then ``priors``/``untried`` are set: a leaf
    visited once never pays for ``Game.prior``)."""

    __slots__ = (
        "actions",
        "children",
        "cmap",
        "cursor",
        "expanded",
        "n",
        "nxt",
        "order",
        "player",
        "priors",
        "proven",
        "state",
        "untried",
        "visited",
        "w",
    )

    def __init__(self, state: Any, player: int, players: int) -> None:
        self.state = state
        self.player = player
        self.n = 0
        self.w = [0.0] * players
        self.proven: tuple[float, ...] | None = None
        # The lists below stay the shared empty tuple until the node lists its actions or is
        # expanded: most nodes are leaves visited once, and every list is one more object for the
        # cyclic garbage collector to walk (its full collections can land at a deadline).
        self.actions: list[Any] = _UNSET
        self.children: list[_Node | None] = _UNSET
        self.untried: list[int] = _UNSET
        self.priors: list[float] | None = None
        self.cmap: dict[Any, _Node] = {}  # (an empty dict is not tracked by the collector)
        self.expanded = False
        self.order: list[int] = _UNSET  # PUCT: action indices by descending prior, then index
        # PUCT: nxt[j] = the first position after j in ``order`` with a lower prior
        self.nxt: list[int] = _UNSET
        # PUCT: (index, child, prior) of the children created so far
        self.visited: list[tuple[int, _Node, float]] = _UNSET
        self.cursor = 0  # PUCT: ``order[:cursor]`` are all visited


class MCTS:
    """A reusable MCTS player/analyser for one game.

    Args:
        game: the game (any ``Game``).
        options: search options (keyword-only).

    Example:
        >>> engine = MCTS(game)
        >>> analysis = engine.search(state, limit=SearchLimit(simulations=2000), seed=7)
        >>> engine.advance(analysis.best_action)   # keep the subtree for the next move
    """

    algorithm = "mcts"

    def __init__(self, game: Game[Any, Any], *, options: SearchOptions | None = None) -> None:
        self.game = game
        self.options = options or SearchOptions()
        self._root: _Node | None = None
        self._players = 0
        self._priors = self.options.use_priors and has_prior(game)
        self._depth = leaf_depth(game, self.options)
        self._own_chance = type(game).sample_chance is Game.sample_chance
        self._max_nodes = self.options.max_nodes
        self._end = math.inf
        self._nodes = 0
        self._lo = math.inf  # the lowest and highest leaf values of this search (normalize_values)
        self._hi = -math.inf

    # ------------------------------------------------------------------ public API
    @property
    def root_visits(self) -> int:
        """Simulations stored in the current root (kept across moves by tree reuse)."""
        return self._root.n if self._root is not None else 0

    def reset(self) -> None:
        """Forget the tree."""
        self._root = None
        self._nodes = 0

    def advance(self, action: Any) -> None:
        """Move the root along ``action`` (a move or a chance outcome), keeping that subtree."""
        root = self._root
        if root is None:
            return
        child: _Node | None = None
        if root.player == CHANCE:
            child = root.cmap.get(action)
        elif root.player >= 0:
            try:
                child = root.children[root.actions.index(action)]
            except ValueError:
                child = None
        if child is None:
            child = self._new_node(self.game.apply(root.state, action))
        self._root = child

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
            root = self.prepare(state, limit=limit, stop=stop)
            rng = make_rng(seed)
            self._end = limit.end_time(start)

            def report(sims: int) -> None:
                assert progress is not None
                progress(
                    self._analysis(root, sims, seed=seed, start=start, final=False, stopped_by="running")
                )

            sims, why = self.run(
                rng, limit=limit, start=start, stop=stop, on_progress=report if progress is not None else None
            )
            return self._analysis(root, sims, seed=seed, start=start, final=True, stopped_by=why)

    # ------------------------------------------------------------------ pieces used by parallel.py
    def prepare(self, state: Any, *, limit: SearchLimit, stop: StopFlag | None) -> _Node:
        """Check the request and set the root for ``state`` (reusing the old tree when possible)."""
        if not limit.bounded and stop is None:
            raise LimitError(
                "a search needs a bound: simulations, time_s or deadline (or a stop flag)", field="limit"
            )
        player = self.game.current_player(state)
        if player == TERMINAL:
            raise WrongSeatError("the game is over; there is nothing to search", field="state")
        if player == CHANCE:
            raise WrongSeatError(
                "the next action is a chance outcome (dice, a draw), not a seat's decision", field="state"
            )
        self._players = self.game.num_players(state)
        root = self._find(state) if self.options.reuse else None
        if root is None:
            self._nodes = 0
            root = self._new_node(state)
        else:
            self._nodes = root.n + 1  # a subtree has at most one node per simulation through its root
        if not root.expanded:
            self._expand(root)
        self._root = root
        self._lo, self._hi = math.inf, -math.inf
        return root

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
        proven = (lambda: root.proven is not None) if self.options.stop_when_proven else None
        return run_loop(
            lambda: self._iterate(root, rng),
            limit=limit,
            start=start,
            end=self._end,
            stop=stop,
            is_proven=proven,
            on_progress=on_progress,
            interval_s=self.options.progress_interval_s,
        )

    def root_stats(self, simulations: int) -> RootStats:
        """The current root's statistics (for merging and ranking)."""
        root = self._root
        assert root is not None
        game = self.game
        state = root.state
        k = len(root.actions)
        priors = root.priors or [1.0 / k] * k
        children = []
        for i, action in enumerate(root.actions):
            child = root.children[i]
            text = game.action_to_text(state, action)
            if child is None:
                children.append(ChildStats(action, text, 0, [0.0] * self._players, priors[i], None, (text,)))
            else:
                pv = (text, *self._pv(child, self.options.max_pv - 1))
                children.append(ChildStats(action, text, child.n, list(child.w), priors[i], child.proven, pv))
        return RootStats(
            seat=root.player,
            players=self._players,
            children=children,
            visits=root.n,
            wsum=list(root.w),
            proven=root.proven,
            simulations=simulations,
            nodes=self._nodes,
        )

    # ------------------------------------------------------------------ internals
    def _analysis(
        self, root: _Node, sims: int, *, seed: int, start: float, final: bool, stopped_by: str
    ) -> Analysis:
        return to_analysis(
            self.root_stats(sims),
            seed=seed,
            elapsed_s=time.monotonic() - start,
            final=final,
            workers=1,
            algorithm=self.algorithm,
            stopped_by=stopped_by,
        )

    def _find(self, state: Any) -> _Node | None:
        """A node of the old tree whose state equals ``state``: breadth first over the first plies,
        most visited children first, comparing states only where the player to move matches, and
        giving up after ``_REUSE_NODES`` comparisons or ``_REUSE_SECONDS`` (a miss must stay cheap)."""
        root = self._root
        if root is None:
            return None
        player = self.game.current_player(state)
        frontier = [root]
        compared = 0
        give_up = time.monotonic() + _REUSE_SECONDS
        for _ in range(_REUSE_DEPTH + 1):
            nxt: list[_Node] = []
            for node in frontier:
                if node.player == player:
                    if node.state == state:
                        return node
                    compared += 1
                    if compared >= _REUSE_NODES or time.monotonic() > give_up:
                        return None
                nxt.extend(c for c in node.children if c is not None and c.n > 0)
                nxt.extend(c for c in node.cmap.values() if c.n > 0)
            nxt.sort(key=lambda c: -c.n)
            frontier = nxt
        return None

    def _new_node(self, state: Any) -> _Node:
        """A leaf. Decision nodes are expanded (legal actions and priors) on their second visit; a
        rollout from the leaf lists its legal actions (it needs them anyway) but not its priors, and a
        leaf scored by the heuristic alone never pays for ``legal_actions``."""
        player = self.game.current_player(state)
        node = _Node(state, player, self._players)
        self._nodes += 1
        if player == TERMINAL:
            node.proven = tuple(float(x) for x in self.game.returns(state))
        return node

    def _list_actions(self, node: _Node) -> None:
        """List a decision node's legal actions (no priors yet)."""
        if not node.actions:
            node.actions = list(self.game.legal_actions(node.state))
            node.children = [None] * len(node.actions)

    def _expand(self, node: _Node) -> None:
        """Ready a decision node for selection: its legal actions and priors (PUCT) or untried list."""
        self._list_actions(node)
        node.expanded = True
        node.visited = []
        priors = self.game.prior(node.state) if self._priors else None
        if priors is not None:
            node.priors = p = list(priors)
            node.order = order = sorted(range(len(p)), key=lambda i: -p[i])
            nxt = [len(p)] * len(p)
            for j in range(len(p) - 2, -1, -1):
                nxt[j] = j + 1 if p[order[j + 1]] != p[order[j]] else nxt[j + 1]
            node.nxt = nxt
        else:
            node.untried = list(range(len(node.actions)))

    def _pv(self, node: _Node, length: int) -> tuple[str, ...]:
        game = self.game
        out: list[str] = []
        while length > 0 and node.n > 0:
            if node.player == CHANCE:
                if not node.cmap:
                    break
                action, child = max(node.cmap.items(), key=lambda kv: kv[1].n)
            elif node.player >= 0:
                best = None
                best_key: tuple[int, int] = (-1, -1)
                p = node.player
                for i, c in enumerate(node.children):
                    if c is None:
                        continue
                    win = 1 if c.proven is not None and c.proven[p] >= WIN else 0
                    if (win, c.n) > best_key:
                        best_key, best = (win, c.n), i
                if best is None:
                    break
                action = node.actions[best]
                picked = node.children[best]
                assert picked is not None
                child = picked
            else:
                break
            out.append(game.action_to_text(node.state, action))
            node = child
            length -= 1
        return tuple(out)

    def _iterate(self, root: _Node, rng: random.Random) -> None:
        game = self.game
        node = root
        path = [root]
        value: Sequence[float]
        lo, kq = self._value_scale()  # (changes only when a value is backed up)
        while True:
            if node.proven is not None:
                value = node.proven
                break
            player = node.player
            if player == CHANCE:
                if self._own_chance:  # Game.sample_chance's draw, on outcomes cached in the node
                    cum = node.priors
                    if cum is None:
                        cum = self._cache_outcomes(node)
                    i = bisect_right(cum, rng.random())
                    outcome = node.actions[i if i < len(cum) else len(cum) - 1]
                else:
                    outcome = game.sample_chance(node.state, rng)
                child = node.cmap.get(outcome)
                if child is None:
                    if self._nodes >= self._max_nodes:
                        value = self._score(game.apply_trusted(node.state, outcome), rng)
                        break
                    child = self._new_node(game.apply_trusted(node.state, outcome))
                    node.cmap[outcome] = child
                    path.append(child)
                    value = self._evaluate(child, rng)
                    break
                node = child
                path.append(node)
                continue
            if not node.expanded:
                self._expand(node)
            untried = node.untried
            if untried:
                if self._nodes >= self._max_nodes:
                    i = untried[rng.randrange(len(untried))]
                    value = self._score(game.apply_trusted(node.state, node.actions[i]), rng)
                    break
                j = rng.randrange(len(untried))
                i = untried[j]
                untried[j] = untried[-1]
                untried.pop()
                child = self._new_node(game.apply_trusted(node.state, node.actions[i]))
                node.children[i] = child
                path.append(child)
                value = self._evaluate(child, rng)
                break
            if node.priors is not None:
                i = self._select_puct(node, player, lo, kq)
            else:
                i = self._select_uct(node, player, lo, kq)
            nxt = node.children[i]
            if nxt is None:
                if self._nodes >= self._max_nodes:
                    value = self._score(game.apply_trusted(node.state, node.actions[i]), rng)
                    break
                nxt = self._new_node(game.apply_trusted(node.state, node.actions[i]))
                node.children[i] = nxt
                node.visited.append((i, nxt, node.priors[i] if node.priors is not None else 0.0))
                path.append(nxt)
                value = self._evaluate(nxt, rng)
                break
            node = nxt
            path.append(node)
        players = self._players
        for nd in path:
            nd.n += 1
            w = nd.w
            for k in range(players):
                w[k] += value[k]
        lo, hi = min(value), max(value)
        self._lo = min(self._lo, lo)
        self._hi = max(self._hi, hi)
        if self.options.solver and path[-1].proven is not None and len(path) > 1:
            self._propagate(path)

    def _cache_outcomes(self, node: _Node) -> list[float]:
        """Store a chance node's outcomes (``actions``) and cumulative probabilities (``priors``)."""
        outcomes = self.game.chance_outcomes(node.state)
        node.actions = [a for a, _ in outcomes]
        cum: list[float] = []
        acc = 0.0
        for _, prob in outcomes:
            acc += prob
            cum.append(acc)
        node.priors = cum
        return cum

    def _value_scale(self) -> tuple[float, float]:
        """:func:`value_scale` of this search's leaf value range."""
        return value_scale(self.options, self._lo, self._hi)

    def _select_uct(self, node: _Node, p: int, lo: float, k: float) -> int:
        """The child maximising UCB1 for seat ``p`` (values read as ``(q - lo) * k``)."""
        c2log = self.options.uct_c * self.options.uct_c * math.log(node.n)
        solver = self.options.solver
        sqrt = math.sqrt
        best_i = 0
        best = -math.inf
        for i, c in enumerate(node.children):
            assert c is not None
            n = c.n
            proven = c.proven
            if proven is not None:
                q = proven[p]
                if solver and q <= LOSS:
                    continue
            else:
                q = c.w[p] / n
            score = (q - lo) * k + sqrt(c2log / n)
            if score > best:
                best, best_i = score, i
        return best_i

    def _select_puct(self, node: _Node, p: int, lo: float, kq: float) -> int:
        """The child maximising ``q + c * sqrt(N) * prior / (1 + n)`` (the first on ties; ``q`` read
        through :meth:`_value_scale`; an unvisited child's ``q`` is the node's mean, first-play
        urgency). Unvisited children all share that ``q``, so the best of them is the first unvisited
        one in ``order`` (by prior): only the visited children are scanned, not every legal action."""
        priors = node.priors
        assert priors is not None
        scale = self.options.puct_c * math.sqrt(node.n)
        children = node.children
        order = node.order
        k = node.cursor
        end = len(order)
        while k < end:
            c = children[order[k]]
            if c is None or c.n == 0:
                break
            k += 1
        node.cursor = k  # children never become unvisited again
        if k < end:
            fpu = (node.w[p] / node.n - lo) * kq if node.n else 0.5
            best_i = order[k]
            best = fpu + scale * priors[best_i]
            # scores fall along ``order``; where they round to the same value (a zero scale at a
            # fresh root, nearly equal priors) the plain scan's first-on-ties rule wants the lowest
            # index: the first unvisited one of each such run of equal priors (sorted by index)
            nxt = node.nxt
            j = nxt[k]
            while j < end and fpu + scale * priors[order[j]] >= best:
                for jj in range(j, nxt[j]):
                    i = order[jj]
                    c = children[i]
                    if c is None or c.n == 0:
                        best_i = min(best_i, i)
                        break
                j = nxt[j]
        else:
            best_i = 0
            best = -math.inf
        solver = self.options.solver
        for i, c, prior in node.visited:  # (the hottest loop of a search: kept lean)
            n = c.n
            proven = c.proven
            if proven is None:
                if not n:
                    continue  # counted with the unvisited ones
                score = (c.w[p] / n - lo) * kq + scale * prior / (1 + n)
            else:
                q = proven[p]
                if solver and q <= LOSS:
                    continue
                score = (q - lo) * kq + scale * prior / (1 + n)
            if score > best or (score == best and i < best_i):
                best, best_i = score, i
        return best_i

    def _propagate(self, path: list[_Node]) -> None:
        game = self.game
        for idx in range(len(path) - 2, -1, -1):
            node = path[idx]
            child = path[idx + 1]
            if node.proven is not None or child.proven is None:
                return
            p = node.player
            if p == CHANCE:
                outcomes = game.chance_outcomes(node.state)
                if len(node.cmap) < len(outcomes):
                    return
                total = [0.0] * self._players
                for outcome, prob in outcomes:
                    proven = node.cmap[outcome].proven
                    if proven is None:
                        return
                    for k in range(self._players):
                        total[k] += prob * proven[k]
                node.proven = tuple(total)
                continue
            if child.proven[p] >= WIN:
                node.proven = child.proven
                continue
            if node.untried:
                return
            best: tuple[float, ...] | None = None
            for other in node.children:
                if other is None or other.proven is None:
                    return
                if best is None or other.proven[p] > best[p]:
                    best = other.proven
            node.proven = best

    def _score(self, state: Any, rng: random.Random) -> Sequence[float]:
        """Score a state outside the tree (the tree is full: ``options.max_nodes``)."""
        player = self.game.current_player(state)
        if player == TERMINAL:
            return self.game.returns(state)
        return rollout(
            self.game,
            state,
            rng,
            player=player,
            legal=None,
            depth=self._depth,
            end=self._end,
            chance_samples=self.options.chance_leaf_samples,
        )

    def _evaluate(self, node: _Node, rng: random.Random) -> Sequence[float]:
        """Score a new leaf: its proven value, else a cut-off rollout."""
        if node.proven is not None:
            return node.proven
        if node.player >= 0:
            if self._depth == 0:  # the rollout would score the leaf at once
                return self.game.heuristic(node.state)
            self._list_actions(node)  # the rollout's first step needs them; priors wait for a 2nd visit
        return rollout(
            self.game,
            node.state,
            rng,
            player=node.player,
            legal=(node.actions or None) if node.player >= 0 else None,
            depth=self._depth,
            end=self._end,
            chance_samples=self.options.chance_leaf_samples,
        )


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
) -> Sequence[float]:
    """Play random actions (chance by its odds) for ``depth`` steps, then score with the heuristic.

    ``player`` and ``legal`` are those of ``state`` (already known to the caller). The rollout ends
    early, scored by the heuristic, once the monotonic clock passes ``end``. Where it ends on a chance
    node and ``chance_samples`` > 0, the score is :func:`chance_value` (the heuristic after the
    dice, not before them).
    """
    limit = math.inf if depth is None else depth
    steps = 0
    while True:
        if player == TERMINAL:
            return game.returns(state)
        if steps >= limit:
            if player == CHANCE and chance_samples > 0:
                return chance_value(game, state, rng, chance_samples)
            return game.heuristic(state)
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


def chance_value(game: Game[Any, Any], state: Any, rng: random.Random, samples: int) -> list[float]:
    """The expected score of a chance node: over its outcomes when there are at most ``samples``
    (weighted by their odds), else the mean over ``samples`` draws. Each outcome's position is
    scored by ``returns`` or the heuristic; a further chance node on the way (a defence roll after
    an attack roll) is resolved by one draw.
    """
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
        value = game.returns(after) if player == TERMINAL else game.heuristic(after)
        if total is None:
            total = [prob * v for v in value]
        else:
            for k, v in enumerate(value):
                total[k] += prob * v
    assert total is not None, "a chance node without outcomes"
    return total
