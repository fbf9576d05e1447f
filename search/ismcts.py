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
maximises its own component). The walk is :meth:`search.tree.TreeSearch.simulate`, the one MCTS
runs, with this module's steps; the node fields are documented on :class:`InfoSetNode`.

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
from collections.abc import Sequence
from typing import Any

from games.core import CHANCE, TERMINAL, Game, derive_seed, make_rng
from games.errors import IllegalActionError
from search._stats import ChildStats, RootStats
from search.tree import NodeStats, Prior, TreeSearch
from search.types import SearchLimit, SearchOptions, StopFlag

__all__ = ["ISMCTS", "InfoSetNode"]

Position = tuple[Any, int, Any, Any]
"""A position of one pooled determinization, as cached in a node: ``(state, player, legal actions
(or the returns when the game is over, or None at a chance node), priors or None)``."""


class InfoSetNode(NodeStats):
    """An ISMCTS node: an information set of the searching seat, reached by one sequence of actions
    and outcomes from the root; its statistics (``visits``, ``value_sums``: :class:`NodeStats`)
    and its edges. It holds no state: each simulation walks it with its own determinization.

    Attributes:
        available: how many times the node's action was available (legal in the determinization)
            when its parent was selected through; replaces the parent's visits in UCB and PUCT.
        children: the child of each action tried at this node (a decision node).
        outcome_children: the child of each outcome drawn at this node (a chance node).
        positions: pooled determinizations only: determinization ``k``'s :data:`Position` here.
        prior_cache: ``(legal actions, priors)`` of the last determinization that computed them;
            reused while the legal actions are the same.
    """

    __slots__ = ("available", "children", "outcome_children", "positions", "prior_cache")

    def __init__(self, players: int) -> None:
        self.visits = 0  # (NodeStats's fields, set here: one call less per node)
        self.value_sums = [0.0] * players
        self.available = 1
        self.children: dict[Any, InfoSetNode] = {}
        self.outcome_children: dict[Any, InfoSetNode] = {}
        self.positions: dict[int, Position] | None = None
        self.prior_cache: tuple[Sequence[Any], Sequence[float] | None] | None = None


_REUSE_OUTCOMES = 300
"""The most visited outcomes of a chance node that tree reuse tries to match (a miss stays cheap)."""


class ISMCTS(TreeSearch):
    """An ISMCTS analyser for games with hidden information.

    Args:
        game: the game (any ``Game``; with perfect information it is plain MCTS without a solver).
        options: search options (keyword-only); ``solver`` does not apply, ``reuse`` only with fresh
            determinizations (``determinizations=None``).

    ``search`` (:meth:`TreeSearch.search`) reads only ``game.observation(state, seat)`` of the
    position it is given (plus who is to move).
    """

    algorithm = "ismcts"

    def __init__(self, game: Game[Any, Any], *, options: SearchOptions | None = None) -> None:
        super().__init__(game, options)
        self._obs: Any = None
        self._seat = 0
        self._text_state: Any = None
        self._text_seed = 0
        self._iter = 0
        self._pool = self.options.determinizations or 0  # pooled determinizations (0: fresh ones)
        self._played: list[Any] = []  # the moves passed to ``advance`` since the last search
        # where the current simulation stands: its determinization's state and player there, and
        # (pooled determinizations) which one it is and its cached position
        self._state: Any = None
        self._player = 0
        self._k = 0
        self._at: Position = (None, 0, None, None)

    def reset(self) -> None:
        """Forget the tree."""
        self._root = None
        self._played = []

    def advance(self, action: Any) -> None:
        """Record a move the searching seat played (from the last searched position, then from the
        position that move led to, ...): the next search starts from their subtree if the position
        it gets is the one they lead to (through at most one chance node at the end)."""
        self._played.append(action)

    # ------------------------------------------------------------------ pieces used by parallel.py
    def prepare(self, state: Any, *, limit: SearchLimit, stop: StopFlag | None, seed: int = 0) -> None:
        """Check the request, take the seat's observation and start a fresh tree (or reuse a
        subtree of the last one, see the module docstring)."""
        game = self.game
        seat = self._seat_to_search(state, limit=limit, stop=stop)
        obs = game.observation(state, seat)
        players = game.num_players(state)
        del state  # from here on only the observation is used
        played, self._played = self._played, []
        root = None
        if (
            self._root is not None
            and self._text_state is not None
            and self.options.reuse
            and not self._pool
            and seat == self._seat
            and players == self._players
        ):
            root = reused_subtree(game, self._root, self._text_state, played, seat=seat, obs=obs)
        self._seat = seat
        self._obs = obs
        self._players = players
        self._text_state = None  # the first iteration's determinization (or one drawn when none ran)
        self._text_seed = derive_seed(seed, "ismcts-text")
        if root is None:
            root, self.nodes = InfoSetNode(players), 1
        else:
            self.nodes = root.visits + 1  # a subtree has at most one node per simulation through it
        self._root = root
        self._iter = 0
        self._lo, self._hi = math.inf, -math.inf

    def root_stats(self, simulations: int) -> RootStats:
        """The root's statistics, actions in the order of ``legal_actions``."""
        root: InfoSetNode | None = self._root
        assert root is not None
        game = self.game
        state = self._text_state
        if state is None:  # no iteration ran: draw one determinization for the texts
            state = self._text_state = game.sample_state(self._obs, self._seat, make_rng(self._text_seed))
        actions = list(game.legal_actions(state))
        given = self._prior(state) if self._prior is not None and self._priors else None
        priors = list(given) if given is not None else [1.0 / len(actions)] * len(actions)
        children = []
        for action, prior in zip(actions, priors, strict=True):
            text = game.action_to_text(state, action)
            child = root.children.get(action)
            if child is None:
                children.append(ChildStats(action, text, 0, [0.0] * self._players, prior, None, (text,)))
            else:
                pv = (
                    text,
                    *text_line(game, child, game.apply_trusted(state, action), self.options.max_pv - 1),
                )
                children.append(
                    ChildStats(action, text, child.visits, list(child.value_sums), prior, None, pv)
                )
        return RootStats(
            seat=self._seat,
            players=self._players,
            children=children,
            visits=root.visits,
            wsum=list(root.value_sums),
            proven=None,
            simulations=simulations,
            nodes=self.nodes,
        )

    # ------------------------------------------------------------------ the steps of a simulation
    def begin(self, root: InfoSetNode, rng: random.Random) -> None:
        """Draw this simulation's determinization (pooled: take the next one of the pool, its
        positions cached in the nodes, so the walk down applies no action it applied before)."""
        game = self.game
        if not self._pool:
            self._state = state = game.sample_state(self._obs, self._seat, rng)
            if self._text_state is None:
                self._text_state = state
            return
        self._k = k = self._iter % self._pool
        self._iter += 1
        if root.positions is None:
            root.positions = {}
        at = root.positions.get(k)
        if at is None:
            at = root.positions[k] = self._position(game.sample_state(self._obs, self._seat, rng))
            if self._text_state is None:
                self._text_state = at[0]
        self._at = at

    def arrive(self, node: InfoSetNode) -> Sequence[float] | None:
        """The determinization's returns where its game is over, else ``None``."""
        if self._pool:
            state, player, legal, _ = self._at
            self._state = state
            self._player = player
            return legal if player == TERMINAL else None  # type: ignore[no-any-return]
        state = self._state
        self._player = player = self.game.current_player(state)
        return self.game.returns(state) if player == TERMINAL else None

    def select(self, node: InfoSetNode, rng: random.Random) -> tuple[Any, InfoSetNode | None]:
        """At a chance node, the game's draw on the determinization; at a decision node, the
        available action chosen by UCT or PUCT (:meth:`_choose`)."""
        state, player = self._state, self._player
        if player == CHANCE:
            outcome = self.game.sample_chance(state, rng)
            return outcome, node.outcome_children.get(outcome)
        if self._pool:
            _, _, legal, priors = self._at
        else:
            legal = self.game.legal_actions(state)
            priors = self._priors_at(node, state, legal) if self._priors else None
        action = self._choose(node, player, legal, priors, rng)
        return action, node.children.get(action)

    def descend(self, node: InfoSetNode, action: Any, child: InfoSetNode) -> None:
        """Move the determinization along ``action`` (pooled: its cached position at ``child``)."""
        if not self._pool:
            self._state = self.game.apply_trusted(self._state, action)
        elif self.full:
            self._at = self._peek(child, self._k, self._state, action)
        else:
            self._at = self._cached(child, self._k, self._state, action)

    def expand(self, node: InfoSetNode, action: Any) -> InfoSetNode:
        """The child along ``action`` (a move or an outcome), added to ``node``."""
        child = InfoSetNode(self._players)
        if self._player == CHANCE:
            node.outcome_children[action] = child
        else:
            node.children[action] = child
        self.nodes += 1
        return child

    def evaluate(
        self, node: InfoSetNode, action: Any, child: InfoSetNode, rng: random.Random
    ) -> Sequence[float]:
        """A cut-off rollout from the determinization's position at the new leaf (pooled: cached)."""
        if not self._pool:
            return self._score(self.game.apply_trusted(self._state, action), rng)
        state, player, legal, _ = self._cached(child, self._k, self._state, action)
        if player == TERMINAL:
            return legal  # type: ignore[no-any-return]
        return self._rollout(state, player, legal if player >= 0 else None, rng)

    def evaluate_outside(self, node: InfoSetNode, action: Any, rng: random.Random) -> Sequence[float]:
        """A cut-off rollout from the position after ``action`` (the tree is full)."""
        return self._score(self.game.apply_trusted(self._state, action), rng)

    # ------------------------------------------------------------------ internals
    def _priors_at(self, node: InfoSetNode, state: Any, legal: Sequence[Any]) -> Sequence[float] | None:
        """The game's priors at ``state``: the node's cached ones while its legal actions are the
        same (guidance computed on one determinization serves the others)."""
        cached = node.prior_cache
        if cached is not None and cached[0] == legal:
            return cached[1]
        assert self._prior is not None
        priors = self._prior(state)
        node.prior_cache = (legal, priors)
        return priors

    def _choose(
        self,
        node: InfoSetNode,
        player: int,
        legal: Sequence[Any],
        priors: Sequence[float] | None,
        rng: random.Random,
    ) -> Any:
        """The action to follow at a decision node (availability counts updated). UCT tries every
        available untried action first (at random); PUCT (when the game gives priors for this
        position) weighs them by prior, unvisited ones valued at the node's mean."""
        if priors is None:
            return self._choose_uct(node, player, legal, rng)
        return self._choose_puct(node, player, legal, priors)

    def _choose_uct(self, node: InfoSetNode, player: int, legal: Sequence[Any], rng: random.Random) -> Any:
        """UCB1 over the available children, each explored by its availability count; an available
        untried action first (at random)."""
        lo, kq = self._value_scale()
        children = node.children
        c2 = self.options.uct_c * self.options.uct_c
        untried = []
        best_a: Any = None
        best = -math.inf
        for a in legal:
            c = children.get(a)
            if c is None:
                untried.append(a)
                continue
            c.available += 1
            if not untried:
                n = c.visits
                score = (c.value_sums[player] / n - lo) * kq + math.sqrt(c2 * math.log(c.available) / n)
                if score > best:
                    best, best_a = score, a
        return untried[rng.randrange(len(untried))] if untried else best_a

    def _choose_puct(
        self, node: InfoSetNode, player: int, legal: Sequence[Any], priors: Sequence[float]
    ) -> Any:
        """PUCT over the available actions, each child explored by its availability count; an
        unvisited action is valued at the node's mean (first-play urgency). The first best wins."""
        lo, kq = self._value_scale()
        fpu = (node.value_sums[player] / node.visits - lo) * kq if node.visits else 0.5
        scale = self.options.puct_c
        unvisited = scale * math.sqrt(node.visits + 1)
        children = node.children
        best_a = None
        best = -math.inf
        for a, p in zip(legal, priors, strict=True):
            c = children.get(a)
            if c is None:
                score = fpu + unvisited * p
            else:
                c.available += 1
                score = (c.value_sums[player] / c.visits - lo) * kq + scale * p * math.sqrt(c.available) / (
                    1 + c.visits
                )
            if score > best:
                best, best_a = score, a
        return best_a

    def _position(self, state: Any) -> Position:
        """A pooled determinization's :data:`Position` at ``state``, counted in ``nodes`` (it is
        stored in the tree)."""
        self.nodes += 1
        return position_at(self.game, state, self._prior if self._priors else None)

    def _cached(self, node: InfoSetNode, k: int, parent: Any, action: Any) -> Position:
        """Determinization ``k``'s position at ``node`` (reached by ``action`` from ``parent``)."""
        positions = node.positions
        if positions is None:
            positions = node.positions = {}
        at = positions.get(k)
        if at is None:
            at = positions[k] = self._position(self.game.apply_trusted(parent, action))
        return at

    def _peek(self, node: InfoSetNode, k: int, parent: Any, action: Any) -> Position:
        """Like :meth:`_cached` but without storing (the tree is full)."""
        at = node.positions.get(k) if node.positions is not None else None
        if at is None:
            after = self.game.apply_trusted(parent, action)
            at = position_at(self.game, after, self._prior if self._priors else None)
        return at


def reused_subtree(
    game: Game[Any, Any], node: InfoSetNode, after: Any, played: list[Any], *, seat: int, obs: Any
) -> InfoSetNode | None:
    """Tree reuse (see the module docstring): the subtree under ``node`` that the moves ``played``
    by ``seat`` lead to, followed on the old text determinization ``after``, when the position the
    seat observes now (``obs``) is the one they lead to (through at most one chance node at the
    end); else None (a fresh tree).
    """
    if not played:
        return None
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
    drawn = sorted(node.outcome_children.items(), key=lambda oc: -oc[1].visits)
    for outcome, child in drawn[:_REUSE_OUTCOMES]:
        try:
            seen = game.apply(after, outcome)
        except IllegalActionError:
            continue
        if game.current_player(seen) == seat and game.observation(seen, seat) == obs:
            return child
    return None


def position_at(game: Game[Any, Any], state: Any, prior: Prior | None) -> Position:
    """The :data:`Position` at ``state`` (with the priors ``prior`` gives at a decision, if any)."""
    player = game.current_player(state)
    if player >= 0:
        return (state, player, game.legal_actions(state), prior(state) if prior is not None else None)
    if player == TERMINAL:
        return (state, player, game.returns(state), None)
    return (state, player, None, None)


def text_line(game: Game[Any, Any], node: InfoSetNode, state: Any, length: int) -> tuple[str, ...]:
    """The most visited line below ``node``, written on the determinization ``state`` (it stops
    where the line is not legal there)."""
    out: list[str] = []
    while length > 0 and node.visits > 0:
        player = game.current_player(state)
        if player == TERMINAL:
            break
        edges = node.outcome_children if player == CHANCE else node.children
        legal = set(game.legal_actions(state))
        options = [(a, c) for a, c in edges.items() if a in legal]
        if not options:
            break
        action, node = max(options, key=lambda ac: ac[1].visits)
        out.append(game.action_to_text(state, action))
        state = game.apply_trusted(state, action)
        length -= 1
    return tuple(out)
