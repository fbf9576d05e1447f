"""The search's fast paths equal the plain code: PUCT selection scanning only visited children,
priors computed on a node's second visit, and ``apply_trusted`` on the actions the search takes."""

from __future__ import annotations

import math
import random
from typing import Any

from games.core import CHANCE, GameConfig, get_game, make_rng
from search import SearchLimit, SearchOptions
from search._stats import LOSS
from search.mcts import MCTS
from tests.search.games import NimGame, NimState


def _reference_puct(engine: MCTS, node: Any, p: int) -> int:
    """The plain PUCT rule: scan every child, the first maximum wins (values read as normalised)."""
    scale = engine.options.puct_c * math.sqrt(node.visits)
    lo, k = engine._value_scale()
    fpu = (node.value_sums[p] / node.visits - lo) * k if node.visits else 0.5
    best_i, best = 0, -math.inf
    for i, c in enumerate(node.children):
        if c is None or c.visits == 0:
            q, n = fpu, 0
        else:
            n = c.visits
            if c.proven is not None:
                q = c.proven[p]
                if engine.options.solver and q <= LOSS:
                    continue
            else:
                q = c.value_sums[p] / n
            q = (q - lo) * k
        score = q + scale * node.priors[i] / (1 + n)
        if score > best:
            best, best_i = score, i
    return best_i


def _checked_search(engine: MCTS, start: Any, simulations: int) -> int:
    """Run ``simulations`` simulations from ``start`` one by one; before each, the fast PUCT
    selection at every node it may select through (opened with priors, visited) equals the plain
    rule. (A check from outside rather than a subclass: the compiled engine is a native class.)
    Returns the number of selections checked."""
    engine.prepare(start, limit=SearchLimit(simulations=simulations), stop=None, seed=3)
    rng = make_rng(3)
    root = engine._root
    checked = 0
    for _ in range(simulations):
        lo, kq = engine._value_scale()
        todo = [root]
        while todo:
            node = todo.pop()
            todo.extend(c for c in node.children if c is not None)
            if node.priors is not None and node.visits and node.player >= 0:
                assert engine._select_puct(node, node.player, lo, kq) == _reference_puct(
                    engine, node, node.player
                )
                checked += 1
        engine.simulate(root, rng)
    return checked


class _Counting(NimGame):
    """Nim, counting ``apply`` and ``apply_trusted`` calls."""

    trusted = checked = 0

    def apply(self, state: Any, action: Any) -> Any:
        self.checked += 1
        return super().apply(state, action)

    def apply_trusted(self, state: Any, action: Any) -> Any:
        self.trusted += 1
        self.checked -= 1  # the default apply_trusted calls apply
        return super().apply_trusted(state, action)


def test_puct_selection_equals_the_full_scan() -> None:
    """Every PUCT selection of real searches (priors from the game) equals the plain rule."""
    tiberpunk = get_game("tiberpunk")
    state = tiberpunk.new_state(GameConfig(players=2), 4)
    rng = random.Random(4)
    while tiberpunk.current_player(state) < 0 or tiberpunk.prior(state) is None:  # a main phase
        if tiberpunk.current_player(state) == CHANCE:
            state = tiberpunk.apply(state, tiberpunk.sample_chance(state, rng))
        else:
            state = tiberpunk.apply(state, rng.choice(tiberpunk.legal_actions(state)))
    for game, start, depth in (
        (tiberpunk, state, 4),
        (NimGame(stones=21, priors=True), NimState(stones=21), 0),
    ):
        engine = MCTS(game, options=SearchOptions(rollout_depth=depth))
        assert _checked_search(engine, start, 300) > 100


def test_search_applies_its_own_actions_trusted() -> None:
    """Tree descent, expansion and rollouts use ``apply_trusted``; nothing re-checks legality."""
    nim = _Counting(stones=40)
    engine = MCTS(nim, options=SearchOptions(rollout_depth=None))
    engine.search(nim.new_state(GameConfig(players=2), 0), limit=SearchLimit(simulations=200), seed=1)
    assert nim.trusted > 100 and nim.checked == 0
