"""Single-observer information-set MCTS (SO-ISMCTS, Cowling, Powley & Whitehouse 2012).

The searching seat sees only ``game.observation(state, seat)``. Every iteration draws a full state
consistent with it (``game.sample_state(observation, seat, rng)``, a determinization) and walks
one shared tree whose nodes are keyed by the action sequence from the root. At a decision node
only the actions legal in this determinization are *available*; a child's availability count (how
often it could have been chosen) replaces the parent's visit count in UCB, so actions legal only
in some determinizations are not starved nor favoured. Where the game gives ``prior`` for the
determinized position, PUCT weighs the available actions by it instead. Chance nodes sample
``sample_chance`` on the determinized state; children are keyed by outcome. Leaves are scored by
the same cut-off rollout as MCTS, and the value vector is backed up max^n style (each seat
maximises its own component).

Priors are computed once per node and reused while the node's legal actions are the same (in
another determinization they usually are for the observer's own decisions); a node reached with
other legal actions computes them afresh. They are guidance, so a prior computed on one
determinization serves the others.

``SearchOptions.determinizations = k`` draws k determinizations once and cycles through them,
caching each one's positions in the tree nodes, so the walk down the tree applies no action twice
(faster; fewer distinct hidden worlds). By default every iteration draws a fresh one.

Tree reuse (``SearchOptions.reuse``, with fresh determinizations): after ``advance(action)`` with
the move the seat played, the next search starts from that move's subtree (or, through one chance
node, from the subtree of the outcome it saw) when the new position is what the seat expected: it
is the seat's turn and its observation equals the observation of the old text determinization
(see below) after ``action`` (and that outcome). In Tiberpunk most decisions follow the same seat's
previous one (a turn is several moves), so most searches start with the visits of the last one.
The match reads only the seat's observations and the search's own determinization, never the
real state.

No peeking: the search reads the real state only through ``current_player`` (who is to move),
``num_players`` and ``observation``; texts and the principal variation are written on the first
iteration's determinization (or, when no iteration ran, on one drawn from a separate seed).
The tree fuses opponents' information sets with the observer's (the known
"strategy fusion" weakness of SO-ISMCTS). No proofs (a determinization's ending proves nothing
about the information set).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import Any

from games.core import CHANCE, TERMINAL, Game, derive_seed, make_rng
from games.errors import IllegalActionError, LimitError, WrongSeatError
from search._gc import full_collections_deferred
from search._loop import run_loop
from search._stats import ChildStats, RootStats, to_analysis
from search.mcts import has_prior, leaf_depth, rollout, value_scale
from search.types import Analysis, ProgressCallback, SearchLimit, SearchOptions, StopFlag

__all__ = ["ISMCTS"]


class _INode:
    """An information-set node: children by action (decisions) and by outcome (chance)."""

    __slots__ = ("avail", "cache", "chance", "children", "n", "pri", "w")

    def __init__(self, players: int) -> None:
        self.n = 0
        self.avail = 1
        self.w = [0.0] * players
        self.children: dict[Any, _INode] = {}
        self.chance: dict[Any, _INode] = {}
        self.cache: dict[int, _Entry] | None = None
        self.pri: tuple[Sequence[Any], Any] | None = None


_REUSE_OUTCOMES = 300
"""The most visited outcomes of a chance node that tree reuse tries to match (a miss stays cheap)."""

_Entry = tuple[Any, int, Any, Any]
"""A cached position of one pooled determinization: (state, player, legal actions or returns,
priors or None)."""


class ISMCTS:
    """An ISMCTS analyser for games with hidden information.

    Args:
        game: the game (any ``Game``; with perfect information it is plain MCTS without a solver).
        options: search options (keyword-only); ``solver`` does not apply, ``reuse`` only with fresh
            determinizations (``determinizations=None``).
    """

    algorithm = "ismcts"

    def __init__(self, game: Game[Any, Any], *, options: SearchOptions | None = None) -> None:
        self.game = game
        self.options = options or SearchOptions()
        self._root: _INode | None = None
        self._obs: Any = None
        self._seat = 0
        self._players = 0
        self._text_state: Any = None
        self._text_seed = 0
        self._nodes = 0
        self._end = math.inf
        self._iter = 0
        self._lo = math.inf  # the lowest and highest leaf values of this search (normalize_values)
        self._hi = -math.inf
        self._priors = self.options.use_priors and has_prior(game)
        self._depth = leaf_depth(game, self.options)
        self._played: list[Any] = []  # the moves passed to ``advance`` since the last search

    @property
    def root_visits(self) -> int:
        """Simulations stored in the current root (kept across moves by tree reuse)."""
        return self._root.n if self._root is not None else 0

    def reset(self) -> None:
        """Forget the tree."""
        self._root = None
        self._played = []

    def advance(self, action: Any) -> None:
        """Record a move the searching seat played (from the last searched position, then from the
        position that move led to, ...): the next search starts from their subtree if the position
        it gets is the one they lead to (through at most one chance node at the end)."""
        self._played.append(action)

    def search(
        self,
        state: Any,
        *,
        limit: SearchLimit,
        seed: int = 0,
        stop: StopFlag | None = None,
        progress: ProgressCallback | None = None,
    ) -> Analysis:
        """Search from the viewpoint of the seat to move; see ``MCTS.search`` for the arguments.

        Only ``game.observation(state, seat)`` of ``state`` is used (plus who is to move).
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
    def prepare(self, state: Any, *, limit: SearchLimit, stop: StopFlag | None, seed: int) -> None:
        """Check the request, take the seat's observation and start a fresh tree."""
        if not limit.bounded and stop is None:
            raise LimitError(
                "a search needs a bound: simulations, time_s or deadline (or a stop flag)", field="limit"
            )
        game = self.game
        seat = game.current_player(state)
        if seat == TERMINAL:
            raise WrongSeatError("the game is over; there is nothing to search", field="state")
        if seat == CHANCE:
            raise WrongSeatError(
                "the next action is a chance outcome (dice, a draw), not a seat's decision", field="state"
            )
        obs = game.observation(state, seat)
        players = game.num_players(state)
        del state  # from here on only the observation is used
        root = self._reused(seat, obs, players)
        self._seat = seat
        self._obs = obs
        self._players = players
        self._text_state = None  # the first iteration's determinization (or one drawn when none ran)
        self._text_seed = derive_seed(seed, "ismcts-text")
        if root is None:
            root, self._nodes = _INode(players), 1
        else:
            self._nodes = root.n + 1  # a subtree has at most one node per simulation through it
        self._root = root
        self._iter = 0
        self._lo, self._hi = math.inf, -math.inf

    def _reused(self, seat: int, obs: Any, players: int) -> _INode | None:
        """The subtree to start from (see the module docstring), or None for a fresh tree."""
        played, self._played = self._played, []
        node, after = self._root, self._text_state
        if (
            not played
            or node is None
            or after is None
            or not self.options.reuse
            or self.options.determinizations
            or seat != self._seat
            or players != self._players
        ):
            return None
        game = self.game
        for move in played:  # the seat's own moves, one after the other
            if game.current_player(after) != seat:
                return None
            child = node.children.get(move)
            if child is None:
                return None
            try:
                after = game.apply(after, move)
            except IllegalActionError:
                return None
            node = child
        player = game.current_player(after)
        if player == seat:
            return node if game.observation(after, seat) == obs else None
        if player != CHANCE:
            return None
        # one chance node (dice, a draw): the outcome whose result the seat observes now
        for outcome, child in sorted(node.chance.items(), key=lambda oc: -oc[1].n)[:_REUSE_OUTCOMES]:
            try:
                seen = game.apply(after, outcome)
            except IllegalActionError:
                continue
            if game.current_player(seen) == seat and game.observation(seen, seat) == obs:
                return child
        return None

    def run(
        self,
        rng: random.Random,
        *,
        limit: SearchLimit,
        start: float,
        stop: StopFlag | None,
        on_progress: Any = None,
    ) -> tuple[int, str]:
        """Iterate until the budget ends; returns (simulations, reason)."""
        root = self._root
        assert root is not None
        self._end = limit.end_time(start)
        iterate = self._iterate_pooled if self.options.determinizations else self._iterate
        return run_loop(
            lambda: iterate(root, rng),
            limit=limit,
            start=start,
            end=self._end,
            stop=stop,
            is_proven=None,
            on_progress=on_progress,
            interval_s=self.options.progress_interval_s,
        )

    def root_stats(self, simulations: int) -> RootStats:
        """The root's statistics, actions in the order of ``legal_actions``."""
        root = self._root
        assert root is not None
        game = self.game
        state = self._text_state
        if state is None:  # no iteration ran: draw one determinization for the texts
            state = self._text_state = game.sample_state(self._obs, self._seat, make_rng(self._text_seed))
        actions = list(game.legal_actions(state))
        given = game.prior(state) if self._priors else None
        priors = list(given) if given is not None else [1.0 / len(actions)] * len(actions)
        children = []
        for action, prior in zip(actions, priors, strict=True):
            text = game.action_to_text(state, action)
            child = root.children.get(action)
            if child is None:
                children.append(ChildStats(action, text, 0, [0.0] * self._players, prior, None, (text,)))
            else:
                pv = (text, *self._pv(child, game.apply_trusted(state, action), self.options.max_pv - 1))
                children.append(ChildStats(action, text, child.n, list(child.w), prior, None, pv))
        return RootStats(
            seat=self._seat,
            players=self._players,
            children=children,
            visits=root.n,
            wsum=list(root.w),
            proven=None,
            simulations=simulations,
            nodes=self._nodes,
        )

    # ------------------------------------------------------------------ internals
    def _analysis(self, sims: int, *, seed: int, start: float, final: bool, stopped_by: str) -> Analysis:
        return to_analysis(
            self.root_stats(sims),
            seed=seed,
            elapsed_s=time.monotonic() - start,
            final=final,
            workers=1,
            algorithm=self.algorithm,
            stopped_by=stopped_by,
        )

    def _pv(self, node: _INode, state: Any, length: int) -> tuple[str, ...]:
        """Most visited line, written on the text determinization (stops where it diverges)."""
        game = self.game
        out: list[str] = []
        while length > 0 and node.n > 0:
            player = game.current_player(state)
            if player == TERMINAL:
                break
            table = node.chance if player == CHANCE else node.children
            legal = set(game.legal_actions(state))
            options = [(a, c) for a, c in table.items() if a in legal]
            if not options:
                break
            action, node = max(options, key=lambda ac: ac[1].n)
            out.append(game.action_to_text(state, action))
            state = game.apply_trusted(state, action)
            length -= 1
        return tuple(out)

    def _choose(
        self, node: _INode, player: int, legal: Sequence[Any], priors: Any, rng: random.Random
    ) -> Any:
        """The action to follow at a decision node (availability counts updated). UCT tries every
        available unexpanded action first (at random); PUCT (when the game gives priors for this
        position) weighs them by prior, unvisited ones valued at the node's mean."""
        children = node.children
        lo, kq = value_scale(self.options, self._lo, self._hi)
        if priors is None:
            c2 = self.options.uct_c * self.options.uct_c
            sqrt, log = math.sqrt, math.log
            untried = []
            best_a: Any = None
            best = -math.inf
            for a in legal:
                c = children.get(a)
                if c is None:
                    untried.append(a)
                    continue
                c.avail += 1
                if not untried:
                    score = (c.w[player] / c.n - lo) * kq + sqrt(c2 * log(c.avail) / c.n)
                    if score > best:
                        best, best_a = score, a
            return untried[rng.randrange(len(untried))] if untried else best_a
        fpu = (node.w[player] / node.n - lo) * kq if node.n else 0.5
        scale = self.options.puct_c
        unvisited = scale * math.sqrt(node.n + 1)
        sqrt = math.sqrt
        get = children.get
        best_a = None
        best = -math.inf
        for a, p in zip(legal, priors, strict=True):
            c = get(a)
            if c is None:
                score = fpu + unvisited * p
            else:
                c.avail += 1
                score = (c.w[player] / c.n - lo) * kq + scale * p * sqrt(c.avail) / (1 + c.n)
            if score > best:
                best, best_a = score, a
        return best_a

    def _iterate(self, root: _INode, rng: random.Random) -> None:
        game = self.game
        state = game.sample_state(self._obs, self._seat, rng)
        if self._text_state is None:
            self._text_state = state
        node = root
        path = [root]
        value: Sequence[float]
        while True:
            player = game.current_player(state)
            if player == TERMINAL:
                value = game.returns(state)
                break
            if player == CHANCE:
                outcome = game.sample_chance(state, rng)
                state = game.apply_trusted(state, outcome)
                child = node.chance.get(outcome)
                if child is None:
                    if self._nodes >= self.options.max_nodes:
                        value = self._rollout(state, rng)
                        break
                    child = node.chance[outcome] = _INode(self._players)
                    self._nodes += 1
                    path.append(child)
                    value = self._rollout(state, rng)
                    break
                node = child
                path.append(node)
                continue
            legal = game.legal_actions(state)
            priors = None
            if self._priors:
                cached = node.pri
                if cached is not None and cached[0] == legal:
                    priors = cached[1]
                else:
                    priors = game.prior(state)
                    node.pri = (legal, priors)
            action = self._choose(node, player, legal, priors, rng)
            child = node.children.get(action)
            if child is None:
                if self._nodes >= self.options.max_nodes:
                    value = self._rollout(game.apply_trusted(state, action), rng)
                    break
                child = node.children[action] = _INode(self._players)
                self._nodes += 1
                state = game.apply_trusted(state, action)
                path.append(child)
                value = self._rollout(state, rng)
                break
            state = game.apply_trusted(state, action)
            node = child
            path.append(node)
        self._backup(path, value)

    def _entry(self, state: Any) -> _Entry:
        game = self.game
        player = game.current_player(state)
        self._nodes += 1
        if player >= 0:
            return (state, player, game.legal_actions(state), game.prior(state) if self._priors else None)
        if player == TERMINAL:
            return (state, player, game.returns(state), None)
        return (state, player, None, None)

    def _cached(self, node: _INode, k: int, parent: Any, action: Any) -> _Entry:
        """Determinization ``k``'s position at ``node`` (reached by ``action`` from ``parent``)."""
        cache = node.cache
        if cache is None:
            cache = node.cache = {}
        entry = cache.get(k)
        if entry is None:
            entry = cache[k] = self._entry(self.game.apply_trusted(parent, action))
        return entry

    def _iterate_pooled(self, root: _INode, rng: random.Random) -> None:
        """One iteration on pooled determinization ``k`` (round robin), whose positions are cached
        in the nodes: the walk down the tree applies no action it has applied before."""
        game = self.game
        k = self._iter % (self.options.determinizations or 1)
        self._iter += 1
        if root.cache is None:
            root.cache = {}
        entry = root.cache.get(k)
        if entry is None:
            entry = root.cache[k] = self._entry(game.sample_state(self._obs, self._seat, rng))
            if self._text_state is None:
                self._text_state = entry[0]
        node = root
        path = [root]
        value: Sequence[float]
        full = self._nodes >= self.options.max_nodes
        while True:
            state, player, legal, _ = entry
            if player == TERMINAL:
                value = legal
                break
            if player == CHANCE:
                outcome = game.sample_chance(state, rng)
                child = node.chance.get(outcome)
                if child is None:
                    if full:
                        value = self._rollout(game.apply_trusted(state, outcome), rng)
                        break
                    child = node.chance[outcome] = _INode(self._players)
                    self._nodes += 1
                    path.append(child)
                    value = self._rollout_entry(self._cached(child, k, state, outcome), rng)
                    break
                entry = (
                    self._cached(child, k, state, outcome)
                    if not full
                    else self._peek(child, k, state, outcome)
                )
                node = child
                path.append(node)
                continue
            action = self._choose(node, player, legal, entry[3], rng)
            child = node.children.get(action)
            if child is None:
                if full:
                    value = self._rollout(game.apply_trusted(state, action), rng)
                    break
                child = node.children[action] = _INode(self._players)
                self._nodes += 1
                path.append(child)
                value = self._rollout_entry(self._cached(child, k, state, action), rng)
                break
            node = child
            entry = self._cached(node, k, state, action) if not full else self._peek(node, k, state, action)
            path.append(node)
        self._backup(path, value)

    def _backup(self, path: list[_INode], value: Sequence[float]) -> None:
        """Add one visit and ``value`` to every node of ``path``; widen the leaf value range."""
        players = self._players
        for nd in path:
            nd.n += 1
            w = nd.w
            for k in range(players):
                w[k] += value[k]
        lo, hi = min(value), max(value)
        self._lo = min(self._lo, lo)
        self._hi = max(self._hi, hi)

    def _peek(self, node: _INode, k: int, parent: Any, action: Any) -> _Entry:
        """Like ``_cached`` but without storing (the tree is full)."""
        entry = node.cache.get(k) if node.cache is not None else None
        if entry is None:
            state = self.game.apply_trusted(parent, action)
            player = self.game.current_player(state)
            other = self.game.legal_actions(state) if player >= 0 else None
            if player == TERMINAL:
                other = self.game.returns(state)
            priors = self.game.prior(state) if self._priors and player >= 0 else None
            entry = (state, player, other, priors)
        return entry

    def _rollout_entry(self, entry: _Entry, rng: random.Random) -> Sequence[float]:
        state, player, legal, _ = entry
        if player == TERMINAL:
            return legal  # type: ignore[no-any-return]
        return rollout(
            self.game,
            state,
            rng,
            player=player,
            legal=legal if player >= 0 else None,
            depth=self._depth,
            end=self._end,
            chance_samples=self.options.chance_leaf_samples,
        )

    def _rollout(self, state: Any, rng: random.Random) -> Sequence[float]:
        return rollout(
            self.game,
            state,
            rng,
            player=self.game.current_player(state),
            legal=None,
            depth=self._depth,
            end=self._end,
            chance_samples=self.options.chance_leaf_samples,
        )
