"""The shared steps of ``search/tree.py`` and the node fields both engines keep."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import CHANCE, GameConfig
from search import ISMCTS, MCTS, SearchLimit, SearchOptions
from search.ismcts import InfoSetNode
from search.mcts import Node
from search.tree import NodeStats, TreeSearch
from tests.fixtures.pig import PigGame


def _mcts_nodes(node: Node) -> Iterator[Node]:
    yield node
    for child in [*(c for c in node.children if c is not None), *node.outcome_children.values()]:
        yield from _mcts_nodes(child)


def _ismcts_nodes(node: InfoSetNode) -> Iterator[InfoSetNode]:
    yield node
    for child in [*node.children.values(), *node.outcome_children.values()]:
        yield from _ismcts_nodes(child)


def test_both_engines_run_the_one_walk() -> None:
    """MCTS and ISMCTS (fresh and pooled determinizations) inherit ``TreeSearch.simulate``."""
    assert MCTS.simulate is TreeSearch.simulate
    assert ISMCTS.simulate is TreeSearch.simulate
    assert issubclass(Node, NodeStats) and issubclass(InfoSetNode, NodeStats)


def test_backup_adds_a_visit_and_the_value_to_every_node_of_the_path() -> None:
    engine = ISMCTS(PigGame())  # (the shared backup as it is: MCTS adds the solver's proofs)
    engine._players = 2
    path = [NodeStats(2), NodeStats(2), NodeStats(2)]
    engine.backup(path, (0.25, 0.75))
    engine.backup(path[:2], (1.0, 0.0))
    assert [n.visits for n in path] == [2, 2, 1]
    assert [n.value_sums for n in path] == [[1.25, 0.75], [1.25, 0.75], [0.25, 0.75]]
    assert engine._value_scale() == (0.0, 1.0)  # the leaf values seen span [0, 1]


def test_chance_nodes_keep_probabilities_and_the_samplers_running_sums_apart() -> None:
    """A chance node drawn by the search's own sampler stores the game's outcomes and
    probabilities as given, and their running sums under their own name."""
    game = PigGame()
    engine = MCTS(game)
    engine.search(game.new_state(GameConfig(players=2), 3), limit=SearchLimit(simulations=300), seed=1)
    assert engine._root is not None
    chance = [n for n in _mcts_nodes(engine._root) if n.player == CHANCE and n.outcomes]
    assert chance
    for node in chance:
        listed = game.chance_outcomes(node.state)
        assert node.outcomes == [o for o, _ in listed]
        assert node.probabilities == [p for _, p in listed]
        assert node.cumulative == pytest.approx([sum(node.probabilities[: i + 1]) for i in range(6)])
        assert set(node.outcome_children) <= set(node.outcomes)


@pytest.mark.parametrize("pool", [None, 3])
def test_visits_and_value_sums_add_up_in_both_trees(pool: int | None) -> None:
    """Pig's values sum to 1 over the seats: every node's value sums add up to its visits, and a
    node has at least the visits of its children (each simulation passes through one child)."""
    game = PigGame()
    state = game.new_state(GameConfig(players=2), 3)
    limit = SearchLimit(simulations=300)
    mcts = MCTS(game, options=SearchOptions(solver=False))
    mcts.search(state, limit=limit, seed=2)
    ismcts = ISMCTS(game, options=SearchOptions(determinizations=pool))
    ismcts.search(state, limit=limit, seed=2)
    assert mcts._root is not None and ismcts._root is not None
    nodes: list[Any] = [*_mcts_nodes(mcts._root), *_ismcts_nodes(ismcts._root)]
    for node in nodes:
        assert math.isclose(sum(node.value_sums), node.visits, abs_tol=1e-9)
    for node in _mcts_nodes(mcts._root):
        below = [c for c in (*node.children, *node.outcome_children.values()) if c is not None]
        assert node.visits >= sum(c.visits for c in below)
    for info in _ismcts_nodes(ismcts._root):
        below_info = [*info.children.values(), *info.outcome_children.values()]
        assert info.visits >= sum(c.visits for c in below_info)
        assert all(c.available >= c.visits for c in info.children.values())


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    sims=st.integers(1, 60),
    players=st.integers(2, 3),
    pool=st.sampled_from([None, 2]),
    max_nodes=st.sampled_from([5, 300_000]),
    depth=st.sampled_from([0, 3]),
)
def test_tree_bookkeeping_invariants(
    *, seed: int, sims: int, players: int, pool: int | None, max_nodes: int, depth: int
) -> None:
    """Whatever the options: the root holds one visit per simulation, every node's value sums add
    up to its visits (Pig's values sum to 1), ``nodes`` counts the nodes in the tree (plus, with
    pooled determinizations, the positions cached in it), and a full tree stops growing."""
    game = PigGame()
    state = game.new_state(GameConfig(players=players), seed % 1000)
    limit = SearchLimit(simulations=sims)
    options = SearchOptions(max_nodes=max_nodes, rollout_depth=depth, determinizations=pool)
    mcts = MCTS(game, options=options)
    mcts.search(state, limit=limit, seed=seed)
    ismcts = ISMCTS(game, options=options)
    ismcts.search(state, limit=limit, seed=seed)
    assert mcts._root is not None and ismcts._root is not None
    tree = list(_mcts_nodes(mcts._root))
    info_sets = list(_ismcts_nodes(ismcts._root))
    for node in [*tree, *info_sets]:
        assert math.isclose(sum(node.value_sums), node.visits, abs_tol=1e-9)
    if mcts._root.proven is None:  # (a proven root ends the search early)
        assert mcts._root.visits == sims
    assert ismcts._root.visits == sims
    assert mcts.nodes == len(tree) <= max(max_nodes, 1)
    cached = sum(len(n.positions) for n in info_sets if n.positions is not None)
    assert ismcts.nodes == len(info_sets) + cached
    if pool is None:
        assert len(info_sets) <= max(max_nodes, 1) and cached == 0
