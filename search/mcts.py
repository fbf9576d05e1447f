"""Monte Carlo tree search for any Lictor game (perfect information, chance, 1–6 seats).

One simulation is the walk of :meth:`search.tree.TreeSearch.simulate`, with this module's steps:
select (UCT, or PUCT at nodes where the game gives ``prior``; chance nodes drawn by their odds,
children keyed by outcome), expand (one leaf, its position kept in the node), evaluate (the
heuristic, or a cut-off random rollout ended by ``game.heuristic``) and backup of the whole value
vector: each node keeps the sum of values per seat and the seat to move maximises its own
component (max^n); MCTS-Solver then proves what it can (below). The node fields are documented on
:class:`Node`.

MCTS-Solver: terminal nodes are proven; a decision node is proven when a child gives its mover a
win (value 1, nothing is better) or when every child is proven (then the child best for the mover);
a chance node is proven when every outcome is in the tree and proven (the expectation). With
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
from collections.abc import Callable, Sequence
from typing import Any

from games.core import CHANCE, TERMINAL, Game
from search._stats import LOSS, WIN, ChildStats, RootStats
from search.tree import NodeStats, TreeSearch, chance_value, has_prior, leaf_depth, rollout, value_scale
from search.types import SearchLimit, SearchOptions, StopFlag

__all__ = ["MCTS", "Node", "chance_value", "has_prior", "leaf_depth", "rollout", "value_scale"]

_REUSE_DEPTH = 3
_REUSE_NODES = 300
_REUSE_SECONDS = 0.005


_UNSET: list[Any] = []
"""An unset list of a node: one empty list shared by every node, never mutated (a node gets its own
list before it writes one). Typed as the list it stands for: compiled code checks the type."""


class Node(NodeStats):
    """An MCTS node: one position, its statistics (``visits``, ``value_sums``: :class:`NodeStats`)
    and its edges. Lists stay the shared empty ``_UNSET`` until needed: most nodes are leaves
    visited once, and every list is one more object for the cyclic garbage collector to walk.

    Attributes:
        state: the position (the tree applies each action once: a node keeps what it led to).
        player: the seat to move, ``CHANCE`` or ``TERMINAL``.
        proven: the exact value per seat once known (a terminal position's returns, or one proved
            by MCTS-Solver), else ``None``.

    Decision nodes (``player`` >= 0):
        actions: the legal actions, listed by the leaf's rollout or when the tree first selects
            through the node.
        children: the child along ``actions[i]``, or ``None`` while it is not in the tree.
        opened: whether the node is ready for selection (``priors`` or ``untried`` set): done the
            first time the tree selects through it, so a leaf visited once never pays for
            ``Game.prior``.
        priors: the game's prior probability of each action (PUCT), or ``None`` (UCT).
        untried: UCT: indices of the actions without a child yet (tried first, at random).
        by_prior: PUCT: action indices by descending prior, then index.
        next_lower: PUCT: ``next_lower[j]`` is the first position after ``j`` in ``by_prior``
            whose prior is lower than that of ``by_prior[j]``.
        created: PUCT: ``(index, child, prior)`` of the children created so far.
        first_unvisited: PUCT: ``by_prior[:first_unvisited]`` all have visited children.

    Chance nodes (``player == CHANCE``):
        outcome_children: the child of each outcome drawn so far.
        outcomes: the outcomes (when the search draws them itself, from ``Game.chance_outcomes``).
        probabilities: the probability of each of ``outcomes``.
        cumulative: running sums of ``probabilities``, for the sampler's bisection.
    """

    __slots__ = (
        "actions",
        "by_prior",
        "children",
        "created",
        "cumulative",
        "first_unvisited",
        "next_lower",
        "opened",
        "outcome_children",
        "outcomes",
        "player",
        "priors",
        "probabilities",
        "proven",
        "state",
        "untried",
    )

    def __init__(self, state: Any, player: int, players: int) -> None:
        self.visits = 0  # (NodeStats's fields, set here: one call less per node)
        self.value_sums = [0.0] * players
        self.state = state
        self.player = player
        self.proven: tuple[float, ...] | None = None
        self.actions: list[Any] = _UNSET
        self.children: list[Node | None] = _UNSET
        self.opened = False
        self.priors: list[float] | None = None
        self.untried: list[int] = _UNSET
        self.by_prior: list[int] = _UNSET
        self.next_lower: list[int] = _UNSET
        self.created: list[tuple[int, Node, float]] = _UNSET
        self.first_unvisited = 0
        self.outcome_children: dict[Any, Node] = {}  # (an empty dict is not tracked by the collector)
        self.outcomes: list[Any] = _UNSET
        self.probabilities: list[float] = _UNSET
        self.cumulative: list[float] = _UNSET


class MCTS(TreeSearch):
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
        super().__init__(game, options)
        self._own_chance = type(game).sample_chance is Game.sample_chance
        self._solver = self.options.solver
        self._scale = (0.0, 1.0)  # value_scale of this simulation (changes only at a backup)

    # ------------------------------------------------------------------ public API
    def reset(self) -> None:
        """Forget the tree."""
        self._root = None
        self.nodes = 0

    def advance(self, action: Any) -> None:
        """Move the root along ``action`` (a move or a chance outcome), keeping that subtree."""
        root: Node | None = self._root
        if root is None:
            return
        child: Node | None = None
        if root.player == CHANCE:
            child = root.outcome_children.get(action)
        elif root.player >= 0:
            try:
                child = root.children[root.actions.index(action)]
            except ValueError:
                child = None
        if child is None:
            child = self._new_node(self.game.apply(root.state, action))
        self._root = child

    # ------------------------------------------------------------------ pieces used by parallel.py
    def prepare(self, state: Any, *, limit: SearchLimit, stop: StopFlag | None, seed: int = 0) -> None:
        """Check the request and set the root for ``state`` (reusing the old tree when possible)."""
        self._seat_to_search(state, limit=limit, stop=stop)
        self._players = self.game.num_players(state)
        root = find_position(self.game, self._root, state) if self.options.reuse else None
        if root is None:
            self.nodes = 0
            root = self._new_node(state)
        else:
            self.nodes = root.visits + 1  # a subtree has at most one node per simulation through its root
        if not root.opened:
            self._open(root)
        self._root = root
        self._lo, self._hi = math.inf, -math.inf

    def root_stats(self, simulations: int) -> RootStats:
        """The current root's statistics (for merging and ranking)."""
        root: Node | None = self._root
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
                pv = (text, *principal_variation(game, child, self.options.max_pv - 1))
                stats = ChildStats(
                    action, text, child.visits, list(child.value_sums), priors[i], child.proven, pv
                )
                children.append(stats)
        return RootStats(
            seat=root.player,
            players=self._players,
            children=children,
            visits=root.visits,
            wsum=list(root.value_sums),
            proven=root.proven,
            simulations=simulations,
            nodes=self.nodes,
        )

    # ------------------------------------------------------------------ the steps of a simulation
    def begin(self, root: Node, rng: random.Random) -> None:
        """Read the value scale once per simulation (it changes only at a backup)."""
        self._scale = self._value_scale()

    def arrive(self, node: Node) -> Sequence[float] | None:
        """A proven node (terminal, or proved by the solver) ends the walk with its value."""
        return node.proven

    def select(self, node: Node, rng: random.Random) -> tuple[Any, Node | None]:
        """At a chance node, an outcome drawn by its odds; at a decision node (opened on its first
        selection) an untried action at random (UCT: taken off the list when the tree has room for
        its child), else the child maximising PUCT or UCB1. Decision edges are action indices."""
        player = node.player
        if player == CHANCE:
            outcome = self._draw(node, rng)
            return outcome, node.outcome_children.get(outcome)
        if not node.opened:
            self._open(node)
        untried = node.untried
        if untried:
            j = rng.randrange(len(untried))
            i = untried[j]
            if not self.full:
                untried[j] = untried[-1]
                untried.pop()
            return i, None
        lo, kq = self._scale
        i = (
            self._select_puct(node, player, lo, kq)
            if node.priors is not None
            else self._select_uct(node, player, lo, kq)
        )
        return i, node.children[i]

    def expand(self, node: Node, action: Any) -> Node:
        """The child along ``action`` (an outcome, or an action index), added to ``node``."""
        if node.player == CHANCE:
            child = self._new_node(self.game.apply_trusted(node.state, action))
            node.outcome_children[action] = child
            return child
        child = self._new_node(self.game.apply_trusted(node.state, node.actions[action]))
        node.children[action] = child
        if node.priors is not None:
            node.created.append((action, child, node.priors[action]))
        return child

    def evaluate(self, node: Node, action: Any, child: Node, rng: random.Random) -> Sequence[float]:
        """Score a new leaf: its proven value, else the heuristic or a cut-off rollout (a decision
        leaf lists its actions for the rollout; its priors wait for a second visit)."""
        if child.proven is not None:
            return child.proven
        player = child.player
        if player >= 0:
            if self._depth == 0:  # the rollout would score the leaf at once
                return self._heuristic(child.state)
            self._list_actions(child)
        legal = (child.actions or None) if player >= 0 else None
        return self._rollout(child.state, player, legal, rng)

    def evaluate_outside(self, node: Node, action: Any, rng: random.Random) -> Sequence[float]:
        """Score the position after ``action`` without storing it (the tree is full)."""
        move = action if node.player == CHANCE else node.actions[action]
        return self._score(self.game.apply_trusted(node.state, move), rng)

    def backup(self, path: list[Any], value: Sequence[float]) -> None:
        """The shared backup, then MCTS-Solver: a proven leaf may prove the nodes above it."""
        super().backup(path, value)
        if self._solver and path[-1].proven is not None and len(path) > 1:
            prove_path(self.game, path, self._players)

    # ------------------------------------------------------------------ internals
    def _proof_flag(self, root: Node) -> Callable[[], bool] | None:
        """With ``stop_when_proven``, whether the root is proven (the loop then stops)."""
        return (lambda: root.proven is not None) if self.options.stop_when_proven else None

    def _new_node(self, state: Any) -> Node:
        """A leaf (a terminal one is proven at once). Decision nodes are opened (priors) on their
        second visit; a leaf scored by the heuristic alone never pays for ``legal_actions``."""
        player = self.game.current_player(state)
        node = Node(state, player, self._players)
        self.nodes += 1
        if player == TERMINAL:
            node.proven = tuple(float(x) for x in self.game.returns(state))
        return node

    def _list_actions(self, node: Node) -> None:
        """List a decision node's legal actions (no priors yet)."""
        if not node.actions:
            node.actions = list(self.game.legal_actions(node.state))
            node.children = [None] * len(node.actions)

    def _open(self, node: Node) -> None:
        """Ready a decision node for selection: its legal actions and priors (PUCT) or untried list."""
        self._list_actions(node)
        node.opened = True
        node.created = []
        priors = self._prior(node.state) if self._prior is not None and self._priors else None
        if priors is not None:
            node.priors = p = list(priors)
            node.by_prior = by_prior = sorted(range(len(p)), key=lambda i: -p[i])
            next_lower = [len(p)] * len(p)
            for j in range(len(p) - 2, -1, -1):
                same = p[by_prior[j + 1]] == p[by_prior[j]]
                next_lower[j] = next_lower[j + 1] if same else j + 1
            node.next_lower = next_lower
        else:
            node.untried = list(range(len(node.actions)))

    def _draw(self, node: Node, rng: random.Random) -> Any:
        """A chance node's outcome: ``Game.sample_chance``'s draw on the outcomes cached in the
        node (when the game keeps the default sampler), else the game's own sampler."""
        if not self._own_chance:
            return self.game.sample_chance(node.state, rng)
        cumulative = node.cumulative
        if not cumulative:
            cumulative = self._cache_outcomes(node)
        i = bisect_right(cumulative, rng.random())
        return node.outcomes[i if i < len(cumulative) else len(cumulative) - 1]

    def _cache_outcomes(self, node: Node) -> list[float]:
        """Store a chance node's ``outcomes``, ``probabilities`` and their ``cumulative`` sums."""
        listed = self.game.chance_outcomes(node.state)
        node.outcomes = [outcome for outcome, _ in listed]
        node.probabilities = [prob for _, prob in listed]
        cumulative: list[float] = []
        acc = 0.0
        for prob in node.probabilities:
            acc += prob
            cumulative.append(acc)
        node.cumulative = cumulative
        return cumulative

    def _select_uct(self, node: Node, p: int, lo: float, k: float) -> int:
        """The child maximising UCB1 for seat ``p`` (values read as ``(q - lo) * k``)."""
        c2log = self.options.uct_c * self.options.uct_c * math.log(node.visits)
        solver = self._solver
        sqrt = math.sqrt
        best_i = 0
        best = -math.inf
        for i, c in enumerate(node.children):
            assert c is not None
            n = c.visits
            proven = c.proven
            if proven is not None:
                q = proven[p]
                if solver and q <= LOSS:
                    continue
            else:
                q = c.value_sums[p] / n
            score = (q - lo) * k + sqrt(c2log / n)
            if score > best:
                best, best_i = score, i
        return best_i

    def _select_puct(self, node: Node, p: int, lo: float, kq: float) -> int:
        """The child maximising ``q + c * sqrt(N) * prior / (1 + n)`` (the first on ties; ``q`` read
        through :meth:`_value_scale`; an unvisited child's ``q`` is the node's mean, first-play
        urgency). Unvisited children all share that ``q``, so the best of them is the first unvisited
        one in ``by_prior``: only the created children are scanned, not every legal action."""
        priors = node.priors
        assert priors is not None
        scale = self.options.puct_c * math.sqrt(node.visits)
        best_i, best = _best_unvisited(node, p, lo, kq, scale)
        solver = self._solver
        for i, c, prior in node.created:  # (the hottest loop of a search: kept lean)
            n = c.visits
            proven = c.proven
            if proven is None:
                if not n:
                    continue  # counted with the unvisited ones
                score = (c.value_sums[p] / n - lo) * kq + scale * prior / (1 + n)
            else:
                q = proven[p]
                if solver and q <= LOSS:
                    continue
                score = (q - lo) * kq + scale * prior / (1 + n)
            if score > best or (score == best and i < best_i):
                best, best_i = score, i
        return best_i


# ---------------------------------------------------------------------- helpers of the steps
def _best_unvisited(node: Node, p: int, lo: float, kq: float, scale: float) -> tuple[int, float]:
    """PUCT's best unvisited child of ``node`` and its score (``(0, -inf)`` when every child is
    visited): the first unvisited one along ``by_prior`` (scores fall along it), or, where scores
    round to the same value (a zero scale at a fresh root, nearly equal priors), the lowest index
    among the first unvisited one of each run of equal priors (the plain scan's first-on-ties rule)."""
    priors = node.priors
    assert priors is not None
    children = node.children
    by_prior = node.by_prior
    k = node.first_unvisited
    end = len(by_prior)
    while k < end:
        c = children[by_prior[k]]
        if c is None or c.visits == 0:
            break
        k += 1
    node.first_unvisited = k  # children never become unvisited again
    if k >= end:
        return 0, -math.inf
    fpu = (node.value_sums[p] / node.visits - lo) * kq if node.visits else 0.5
    best_i = by_prior[k]
    best = fpu + scale * priors[best_i]
    next_lower = node.next_lower
    j = next_lower[k]
    while j < end and fpu + scale * priors[by_prior[j]] >= best:
        for jj in range(j, next_lower[j]):
            i = by_prior[jj]
            c = children[i]
            if c is None or c.visits == 0:
                best_i = min(best_i, i)
                break
        j = next_lower[j]
    return best_i, best


def prove_path(game: Game[Any, Any], path: list[Node], players: int) -> None:
    """MCTS-Solver's backup: prove the nodes of ``path`` above its proven leaf, bottom up, while
    they can be: a decision node by a child that wins for its mover, or once every child is proven
    (the best for the mover); a chance node once every outcome is in the tree and proven (the
    expectation)."""
    for idx in range(len(path) - 2, -1, -1):
        node = path[idx]
        child = path[idx + 1]
        if node.proven is not None or child.proven is None:
            return
        if node.player == CHANCE:
            proven = _chance_proof(game, node, players)
        elif child.proven[node.player] >= WIN:
            proven = child.proven
        elif node.untried:
            return
        else:
            proven = _decision_proof(node)
        if proven is None:
            return
        node.proven = proven


def _chance_proof(game: Game[Any, Any], node: Node, players: int) -> tuple[float, ...] | None:
    """A chance node's expectation once every outcome is in the tree and proven, else None."""
    outcomes = game.chance_outcomes(node.state)
    if len(node.outcome_children) < len(outcomes):
        return None
    total = [0.0] * players
    for outcome, prob in outcomes:
        proven = node.outcome_children[outcome].proven
        if proven is None:
            return None
        for k in range(players):
            total[k] += prob * proven[k]
    return tuple(total)


def _decision_proof(node: Node) -> tuple[float, ...] | None:
    """The proven child best for the mover once every child is proven, else None."""
    p = node.player
    best: tuple[float, ...] | None = None
    for other in node.children:
        if other is None or other.proven is None:
            return None
        if best is None or other.proven[p] > best[p]:
            best = other.proven
    return best


def principal_variation(game: Game[Any, Any], node: Node, length: int) -> tuple[str, ...]:
    """The line below ``node`` as notation: at each decision a proven win, else the most visited
    child; at each chance node the most visited outcome."""
    out: list[str] = []
    while length > 0 and node.visits > 0:
        step = _pv_step(node)
        if step is None:
            break
        action, child = step
        out.append(game.action_to_text(node.state, action))
        node = child
        length -= 1
    return tuple(out)


def _pv_step(node: Node) -> tuple[Any, Node] | None:
    """The edge a principal variation follows from ``node`` (``None`` where it stops)."""
    if node.player == CHANCE:
        if not node.outcome_children:
            return None
        return max(node.outcome_children.items(), key=lambda kv: kv[1].visits)
    if node.player < 0:
        return None
    best = None
    best_key: tuple[int, int] = (-1, -1)
    p = node.player
    for i, c in enumerate(node.children):
        if c is None:
            continue
        win = 1 if c.proven is not None and c.proven[p] >= WIN else 0
        if (win, c.visits) > best_key:
            best_key, best = (win, c.visits), i
    if best is None:
        return None
    picked = node.children[best]
    assert picked is not None
    return node.actions[best], picked


def find_position(game: Game[Any, Any], root: Node | None, state: Any) -> Node | None:
    """A node of the tree under ``root`` whose state equals ``state``: breadth first over the first plies,
    most visited children first, comparing states only where the player to move matches, and
    giving up after ``_REUSE_NODES`` comparisons or ``_REUSE_SECONDS`` (a miss must stay cheap)."""
    if root is None:
        return None
    player = game.current_player(state)
    frontier = [root]
    compared = 0
    give_up = time.monotonic() + _REUSE_SECONDS
    for _ in range(_REUSE_DEPTH + 1):
        below: list[Node] = []
        for node in frontier:
            if node.player == player:
                if node.state == state:
                    return node
                compared += 1
                if compared >= _REUSE_NODES or time.monotonic() > give_up:
                    return None
            below.extend(c for c in node.children if c is not None and c.visits > 0)
            below.extend(c for c in node.outcome_children.values() if c.visits > 0)
        below.sort(key=lambda c: -c.visits)
        frontier = below
    return None
