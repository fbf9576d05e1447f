"""The setup rules as CP-SAT constraints, shared by every map model, and the rules-only model.

The rules-only model has no measure in it: it gives a legal galaxy in a fraction of a second (the
builder's first answer when random deals keep clashing, so any time limit gives a map) and the fewest
neighbouring pairs that may not touch that the tiles allow (rule: ti4/anomaly-adjacency, rule:
ti4/wormhole-adjacency: "unless there is no other option").
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ortools.sat.python import cp_model

from games.ti4.content import WORMHOLES as WORMHOLE_TYPES
from games.ti4.content import Content, Pos, TileId
from solver.ti4.problem import MapProblem, legal_galaxy

__all__ = ["Lit", "Logic", "add_rules", "feasible_map", "fewest_clashes", "solve_stoppable"]

Lit = Any
"""A CP-SAT literal, or a Python bool for a literal known when the model is built."""


class Logic:
    """Boolean helpers that fold Python constants away."""

    def __init__(self, model: cp_model.CpModel) -> None:
        self.m = model

    def not_(self, a: Lit) -> Lit:
        return (not a) if isinstance(a, bool) else a.Not()

    def and_(self, lits: Sequence[Lit]) -> Lit:
        if any(x is False for x in lits):
            return False
        rest = [x for x in lits if x is not True]
        if not rest:
            return True
        if len(rest) == 1:
            return rest[0]
        b = self.m.new_bool_var("")
        self.m.add_bool_and(rest).only_enforce_if(b)
        self.m.add_bool_or([self.not_(x) for x in rest] + [b])
        return b

    def or_(self, lits: Sequence[Lit]) -> Lit:
        if any(x is True for x in lits):
            return True
        rest = [x for x in lits if x is not False]
        if not rest:
            return False
        if len(rest) == 1:
            return rest[0]
        b = self.m.new_bool_var("")
        self.m.add_bool_or(rest).only_enforce_if(b)
        for x in rest:
            self.m.add_implication(x, b)
        return b

    def sum_lit(self, terms: Sequence[Lit]) -> Lit:
        """A literal equal to a sum of literals known to be at most 1."""
        if any(x is True for x in terms):
            return True
        rest = [x for x in terms if x is not False]
        if not rest:
            return False
        if len(rest) == 1:
            return rest[0]
        b = self.m.new_bool_var("")
        self.m.add(sum(rest) == b)
        return b


def placement_vars(m: cp_model.CpModel, problem: MapProblem) -> dict[tuple[TileId, Pos], Any]:
    """``x[t, p]``: tile ``t`` goes to open position ``p`` (named ``x<t>_<p>``)."""
    return {(t, p): m.new_bool_var(f"x{t}_{p}") for t in problem.pool for p in problem.open}


def position_has(
    lg: Logic, problem: MapProblem, x: Mapping[tuple[TileId, Pos], Any]
) -> Callable[[Pos, Callable[[TileId], bool]], Lit]:
    """``has(p, pred)``: whether position ``p`` holds a tile with ``pred`` (a literal; constants for
    fixed positions, False for Mecatol Rex, the homes and spaces out of play)."""

    def has(p: Pos, pred: Callable[[TileId], bool]) -> Lit:
        if p in problem.fixed:
            return pred(problem.fixed[p])
        if p not in problem.open:
            return False
        return lg.sum_lit([x[t, p] for t in problem.pool if pred(t)])

    return has


def add_rules(
    m: cp_model.CpModel,
    lg: Logic,
    content: Content,
    problem: MapProblem,
    x: Mapping[tuple[TileId, Pos], Any],
    *,
    count_clashes: bool = False,
) -> list[Lit]:
    """Every setup rule on ``x``: one tile per open position, each tile once (required tiles
    exactly once), the deal's blue and red counts (rule: ti4/deal-system-tiles), the hand and ring
    quotas, the five-player red tile next to Mecatol Rex (rule: ti4/five-player-red-tile), and no
    neighbouring anomalies or same-type wormholes beyond ``problem.max_clashes`` (rule:
    ti4/anomaly-adjacency, rule: ti4/wormhole-adjacency). Returns the clash literals (one per pair
    and kind) when ``count_clashes`` or ``max_clashes`` > 0, else [] (the pairs are forbidden)."""
    tiles, adj = content.tiles, content.board.adjacent
    for p in problem.open:
        m.add_exactly_one(x[t, p] for t in problem.pool)
    for t in problem.pool:
        if t in problem.required:
            m.add_exactly_one(x[t, p] for p in problem.open)
        else:
            m.add_at_most_one(x[t, p] for p in problem.open)
    for back, need in (("blue", problem.blue), ("red", problem.red)):
        m.add(sum(v for (t, _), v in x.items() if tiles[t].pile == back) == need)
    for q in problem.quotas:
        m.add(
            sum(x[t, p] for t in q.tiles if t in problem.pool for p in q.positions if p in problem.open)
            == q.count
        )
    if problem.red_next_to_mecatol:
        ring1 = [p for p in adj[0] if p in problem.spaces]
        if not any(tiles[problem.fixed[p]].pile == "red" for p in ring1 if p in problem.fixed):
            m.add_bool_or(
                [x[t, p] for p in ring1 if p in problem.open for t in problem.pool if tiles[t].pile == "red"]
            )
    return _clash_rules(m, lg, content, problem, x, count_clashes=count_clashes)


def _clash_rules(
    m: cp_model.CpModel,
    lg: Logic,
    content: Content,
    problem: MapProblem,
    x: Mapping[tuple[TileId, Pos], Any],
    *,
    count_clashes: bool,
) -> list[Lit]:
    """The adjacency rules of :func:`add_rules`: forbidden pairs excluded, or counted."""
    tiles = content.tiles
    has = position_has(lg, problem, x)

    def anomaly(t: TileId) -> bool:
        return tiles[t].is_anomaly

    def wormhole(kind: str) -> Callable[[TileId], bool]:
        return lambda t: kind in tiles[t].wormholes

    kinds = [anomaly, *(wormhole(wh) for wh in WORMHOLE_TYPES)]
    marks = {p: [has(p, k) for k in kinds] for p in problem.spaces}
    counting = count_clashes or problem.max_clashes > 0
    found: list[Lit] = []
    opened = set(problem.open)
    for p in problem.open:
        for q in content.board.adjacent[p]:
            if q not in problem.spaces or (q in opened and q < p):
                continue
            for a, b in zip(marks[p], marks[q], strict=True):
                if a is False or b is False:
                    continue
                if counting:
                    found.append(lg.and_([a, b]))
                elif a is True and b is True:
                    m.add_bool_or([False])
                elif a is True or b is True:
                    m.add((b if a is True else a) == 0)
                else:
                    m.add_bool_or([a.Not(), b.Not()])
    if counting and not count_clashes:
        m.add(sum(found) <= problem.max_clashes)
    return found


def solve_stoppable(
    solver: cp_model.CpSolver, model: cp_model.CpModel, stop: Callable[[], bool] | None
) -> Any:
    """``solver.solve(model)``, ended early once ``stop()`` is True."""
    if stop is None:
        return solver.solve(model)
    done = threading.Event()

    def watch() -> None:
        while not done.wait(0.02):
            if stop():
                solver.stop_search()

    watcher = threading.Thread(target=watch, name="cp-sat-stop", daemon=True)
    watcher.start()
    try:
        return solver.solve(model)
    finally:
        done.set()
        watcher.join()


def _solver(time_limit_s: float, seed: int, workers: int = 1) -> cp_model.CpSolver:
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = max(0.02, float(time_limit_s))
    solver.parameters.num_workers = max(1, int(workers))
    solver.parameters.random_seed = int(seed) % (2**31)
    return solver


def feasible_map(
    content: Content,
    problem: MapProblem,
    *,
    time_limit_s: float = 1.0,
    seed: int = 0,
    stop: Callable[[], bool] | None = None,
) -> tuple[dict[Pos, TileId] | None, bool]:
    """A legal galaxy by the rules-only model (a random one: the search follows a random deal as
    its hint): (the galaxy or None, whether the model proved that none exists). The requests
    (specialties, spreads) are not in this model: a galaxy breaking them is not returned."""
    m = cp_model.CpModel()
    lg = Logic(m)
    x = placement_vars(m, problem)
    add_rules(m, lg, content, problem, x)
    rng = random.Random(seed)
    order = list(problem.pool)
    rng.shuffle(order)
    guess = dict(zip(problem.open, order, strict=False))
    for (t, p), v in x.items():
        m.add_hint(v, guess.get(p) == t)
    solver = _solver(time_limit_s, seed)
    code = solve_stoppable(solver, m, stop)
    if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None, code == cp_model.INFEASIBLE
    out = {**problem.fixed, **{p: t for (t, p), v in x.items() if solver.value(v)}}
    return (out if legal_galaxy(content, problem, out) else None), False


def fewest_clashes(
    content: Content,
    problem: MapProblem,
    *,
    time_limit_s: float = 2.0,
    seed: int = 0,
    stop: Callable[[], bool] | None = None,
) -> tuple[int, bool] | None:
    """The fewest neighbouring pairs that may not touch over every galaxy the rules allow for
    ``problem`` (the deal, the quotas, the requests aside): (count, proven), or None when no galaxy
    exists at all (the counts cannot be met)."""
    m = cp_model.CpModel()
    lg = Logic(m)
    x = placement_vars(m, problem)
    found = add_rules(m, lg, content, problem, x, count_clashes=True)
    m.minimize(sum(found))
    solver = _solver(time_limit_s, seed)
    code = solve_stoppable(solver, m, stop)
    if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    return round(solver.objective_value), code == cp_model.OPTIMAL
