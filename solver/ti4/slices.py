"""Milty draft slices (CP-SAT): N slices of three blue and two red tiles, the most even, laid out so
that the assembled galaxy is legal whatever seats the draft gives them.

Variables: ``y[t, k, i]`` (tile ``t`` in slot ``i`` of slice ``k``; slots: left, front, right, far
front, far right). Constraints: one tile per slot, each tile once, three blue and two red per slice,
the limits (optimal resources, influence and total; wormholes, wormhole types, legendary planets),
no forbidden neighbours inside a slice, and none between two slices side by side in either order
(``games.ti4.milty.cross_pairs``: any slice may sit beside any other; rule: ti4/anomaly-adjacency,
rule: ti4/wormhole-adjacency). Objective: the richest slice's value minus the poorest's
(``games.ti4.ai.slice_value``).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ortools.sat.python import cp_model

from games.ti4.ai import slice_value
from games.ti4.balance import TILE_UNIT, Weights, optimal, tile_points
from games.ti4.content import WORMHOLES, Content, TileId
from games.ti4.measures import COMMUNITY
from games.ti4.milty import SLICE_BLUE, SLICE_RED, cross_pairs, safe_layouts, slice_total, slot_adjacency
from solver.core import Status
from solver.ti4.model import STATUS
from solver.ti4.rules import solve_stoppable

__all__ = ["SliceProblem", "brute_force_slices", "slices_gap", "slices_ok", "solve_slices"]


@dataclass(frozen=True, slots=True, kw_only=True)
class SliceProblem:
    """Milty slices to deal.

    Attributes:
        count: how many slices.
        pool: the tiles to choose from.
        min_resources: optimal resources per slice at least (planets' larger counts; halves on ties).
        max_resources: optimal resources per slice at most.
        min_influence: optimal influence per slice at least.
        max_influence: optimal influence per slice at most.
        min_total: a slice's optimal total (each planet's larger of resources and influence) at least.
        max_total: that total at most.
        max_wormholes: wormholes per slice at most (1: at most one type, the community's convention).
        max_legendary: legendary planets per slice at most.
        min_wormholes_total: wormholes over all slices at least.
        weights: the value weights (slice value: ``games.ti4.ai.slice_value``; the community's).
    """

    count: int
    pool: tuple[TileId, ...]
    min_resources: float = 0.0
    max_resources: float = 99.0
    min_influence: float = 0.0
    max_influence: float = 99.0
    min_total: float = 0.0
    max_total: float = 99.0
    max_wormholes: int = 1
    max_legendary: int = 1
    min_wormholes_total: int = 0
    weights: Weights = field(default_factory=lambda: COMMUNITY)


def _tile_halves(content: Content, t: TileId) -> tuple[int, int]:
    """A tile's optimal (resources, influence) in halves."""
    r = sum(optimal(p)[0] for p in content.tiles[t].planets)
    i = sum(optimal(p)[1] for p in content.tiles[t].planets)
    return int(2 * r), int(2 * i)


def _kinds(content: Content, t: TileId) -> list[str]:
    """What tile ``t`` may not be beside: ``anomaly`` and its wormhole types."""
    tile = content.tiles[t]
    return (["anomaly"] if tile.is_anomaly else []) + list(tile.wormholes)


def slices_ok(content: Content, problem: SliceProblem, slices: Sequence[Sequence[TileId]]) -> bool:
    """Whether ``slices`` obey ``problem``'s limits and can be laid out with no forbidden neighbours
    inside a slice or between any two slices side by side."""
    tiles = content.tiles
    if len(slices) != problem.count:
        return False
    used = [t for s in slices for t in s]
    if len(set(used)) != len(used) or not set(used) <= set(problem.pool):
        return False
    worms = 0
    for s in slices:
        backs = [tiles[t].pile for t in s]
        if backs.count("blue") != SLICE_BLUE or backs.count("red") != SLICE_RED:
            return False
        r = sum(_tile_halves(content, t)[0] for t in s) / 2
        i = sum(_tile_halves(content, t)[1] for t in s) / 2
        if not (
            problem.min_resources <= r <= problem.max_resources
            and problem.min_influence <= i <= problem.max_influence
            and problem.min_total <= slice_total(content, s) <= problem.max_total
        ):
            return False
        w = [wh for t in s for wh in tiles[t].wormholes]
        worms += len(w)
        if len(w) > problem.max_wormholes or len(set(w)) != len(w):
            return False
        if sum(1 for t in s for p in tiles[t].planets if p.legendary) > problem.max_legendary:
            return False
    return worms >= problem.min_wormholes_total and safe_layouts(content, slices) is not None


def slices_gap(content: Content, problem: SliceProblem, slices: Sequence[Sequence[TileId]]) -> float:
    """Richest minus poorest slice value."""
    v = [slice_value(content, s, problem.weights) for s in slices]
    return max(v) - min(v)


def _slice_model(
    content: Content, problem: SliceProblem
) -> tuple[cp_model.CpModel, dict[Any, Any], list[Any]]:
    """The CP-SAT model of the module docstring: (model, ``y``, each slice's value)."""
    tiles = content.tiles
    m = cp_model.CpModel()
    ks, slots = range(problem.count), range(5)
    # ---------------------------------------------------------------- variables
    y = {(t, k, i): m.new_bool_var(f"y{t}_{k}_{i}") for t in problem.pool for k in ks for i in slots}
    # ---------------------------------------------------------------- constraints
    for t in problem.pool:
        m.add_at_most_one(y[t, k, i] for k in ks for i in slots)
    for k in ks:
        for i in slots:
            m.add_exactly_one(y[t, k, i] for t in problem.pool)
    _neighbour_rules(m, content, problem, y)
    vals = [
        _slice_rules(m, content, problem, {t: sum(y[t, k, i] for i in slots) for t in problem.pool})
        for k in ks
    ]
    worms = sum(len(tiles[t].wormholes) * v for (t, _, _), v in y.items())
    m.add(worms >= problem.min_wormholes_total)
    for a, b in itertools.pairwise(vals):  # slices are interchangeable: poorest first
        m.add(a <= b)
    # ---------------------------------------------------------------- objective
    m.minimize(vals[-1] - vals[0] if vals else 0)
    return m, y, vals


def _neighbour_rules(m: cp_model.CpModel, content: Content, problem: SliceProblem, y: dict[Any, Any]) -> None:
    """No two anomalies, nor two wormholes of a type, side by side: within a slice (its adjacent
    slots) nor across two slices, whichever seats the draft gives them (``cross_pairs``)."""
    ks, slots = range(problem.count), range(5)
    kinds = ["anomaly", *WORMHOLES]
    has = {
        (kind, k, i): sum(y[t, k, i] for t in problem.pool if kind in _kinds(content, t))
        for kind in kinds
        for k in ks
        for i in slots
    }
    for kind in kinds:
        if not any(kind in _kinds(content, t) for t in problem.pool):
            continue
        for k in ks:
            for i, j in slot_adjacency(content):
                m.add(has[kind, k, i] + has[kind, k, j] <= 1)
        for i, j in cross_pairs(content):
            if i == j:
                m.add(sum(has[kind, k, i] for k in ks) <= 1)
                continue
            for k, other in itertools.permutations(ks, 2):
                m.add(has[kind, k, i] + has[kind, other, j] <= 1)


def _slice_rules(m: cp_model.CpModel, content: Content, problem: SliceProblem, col: dict[TileId, Any]) -> Any:
    """One slice's limits (``col``: whether each tile is in it): three blue and two red tiles, its
    resources, influence and optimal total in range, its wormholes (at most one of a type) and
    legendary planets. Returns its value (a linear expression)."""
    tiles = content.tiles
    m.add(sum(v for t, v in col.items() if tiles[t].pile == "blue") == SLICE_BLUE)
    m.add(sum(v for t, v in col.items() if tiles[t].pile == "red") == SLICE_RED)
    res = sum(_tile_halves(content, t)[0] * v for t, v in col.items())
    inf = sum(_tile_halves(content, t)[1] * v for t, v in col.items())
    m.add(res >= math.ceil(2 * problem.min_resources))
    m.add(res <= math.floor(2 * problem.max_resources))
    m.add(inf >= math.ceil(2 * problem.min_influence))
    m.add(inf <= math.floor(2 * problem.max_influence))
    total = sum(int(slice_total(content, [t])) * v for t, v in col.items())
    m.add(total >= math.ceil(problem.min_total))
    m.add(total <= math.floor(problem.max_total))
    m.add(sum(len(tiles[t].wormholes) * v for t, v in col.items()) <= problem.max_wormholes)
    for wh in WORMHOLES:
        m.add(sum(v for t, v in col.items() if wh in tiles[t].wormholes) <= 1)
    m.add(
        sum(sum(p.legendary for p in tiles[t].planets) * v for t, v in col.items()) <= problem.max_legendary
    )
    return sum(tile_points(tiles[t], problem.weights) * v for t, v in col.items())


def solve_slices(
    content: Content,
    problem: SliceProblem,
    *,
    time_limit_s: float = 10.0,
    workers: int = 2,
    seed: int = 0,
    stop: Callable[[], bool] | None = None,
) -> tuple[Status, list[tuple[TileId, ...]], float, float]:
    """The most even slices (CP-SAT): (status, slices laid out in slot order, gap, bound)."""
    m, y, _ = _slice_model(content, problem)
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = max(0.05, float(time_limit_s))
    solver.parameters.num_workers = max(1, int(workers))
    solver.parameters.random_seed = int(seed) % (2**31)
    code = solve_stoppable(solver, m, stop)
    status = STATUS.get(code, Status.UNKNOWN)
    if status not in (Status.OPTIMAL, Status.FEASIBLE):
        return status, [], 0.0, 0.0
    out = []
    for k in range(problem.count):
        out.append(tuple(next(t for t in problem.pool if solver.value(y[t, k, i])) for i in range(5)))
    gap = slices_gap(content, problem, out)
    bound = gap if status == Status.OPTIMAL else solver.best_objective_bound / TILE_UNIT
    return status, out, gap, min(gap, max(0.0, bound))


def brute_force_slices(content: Content, problem: SliceProblem) -> float | None:
    """The smallest slice gap over every way to deal ``problem.pool`` (small problems only)."""
    best: float | None = None

    def go(left: list[TileId], made: list[tuple[TileId, ...]]) -> None:
        nonlocal best
        if len(made) == problem.count:
            if slices_ok(content, problem, made):
                g = slices_gap(content, problem, made)
                best = g if best is None or g < best else best
            return
        for combo in itertools.combinations(left, 5):
            if made and combo < made[-1]:
                continue  # slices in increasing order: each partition once
            go([t for t in left if t not in combo], [*made, combo])

    go(sorted(problem.pool), [])
    return best
