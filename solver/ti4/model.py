"""The complete CP-SAT model of a map problem: the measure itself in the model, exactly.

Variables: ``x[t, p]`` (tile ``t`` at open position ``p``), per weight set of the measure and per home
``reach[k][p]`` (position ``p`` within ``k`` moves, by that weight set's movement: supernovae and
asteroid fields that cannot be entered, nebulae that end movement or cannot be left, the free step out
of a gravity rift, wormhole links wherever wormholes land, other homes that block), the nearest-home
shares as tie-count indicators, and the Mecatol Rex path penalties (every shortest path crosses a
supernova / a nebula). Constraints: the setup rules (``solver.ti4.rules.add_rules``), the requests,
symmetry breaking between interchangeable tiles. Objective: the worst gap over the weight sets plus
the weighted secondary terms. So OPTIMAL is a proof: the brute-force cross-checks run this model.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from ortools.sat.python import cp_model

from games.errors import LictorError
from games.ti4.balance import (
    POINTS,
    SCALE,
    SHARE_UNIT,
    SUPERNOVAS,
    Weights,
    mecatol_lanes,
    tile_points,
)
from games.ti4.content import Content, Pos, TileId
from solver.core import Status
from solver.ti4.problem import (
    MapProblem,
    MapSolution,
    canonical,
    clash_pairs,
    clash_text,
    has_specialty,
    home_bonuses,
    legal_galaxy,
    legendary_count,
    measure_values,
    objective_units,
    secondary_terms,
    twins,
)
from solver.ti4.reach import ReachModel
from solver.ti4.rules import Lit, Logic, add_rules, placement_vars, position_has, solve_stoppable

__all__ = ["MapModel", "known", "solve_full"]

STATUS = {
    cp_model.OPTIMAL: Status.OPTIMAL,
    cp_model.FEASIBLE: Status.FEASIBLE,
    cp_model.INFEASIBLE: Status.INFEASIBLE,
}


def _has_anomaly(content: Content, kinds: Sequence[str]) -> Callable[[TileId], bool]:
    """Whether a tile is one of the anomalies ``kinds``."""

    def pred(t: TileId) -> bool:
        return any(a in kinds for a in content.tiles[t].anomalies)

    return pred


class MapModel:
    """The complete CP-SAT model of a :class:`MapProblem` (see the module docstring).

    Attributes:
        values: per weight set, each home's value times SCALE (linear expressions).
        extra: the weighted secondary terms of the objective (home-value units).
    """

    def __init__(self, content: Content, problem: MapProblem) -> None:
        self.c, self.p = content, problem
        self.m = cp_model.CpModel()
        self.lg = Logic(self.m)
        # ---------------------------------------------------------------- variables
        self.x = placement_vars(self.m, problem)
        self.has = position_has(self.lg, problem, self.x)
        tiles = content.tiles
        self.types = sorted(
            {wh for t in (*problem.pool, *problem.fixed.values()) for wh in tiles[t].wormholes}
        )
        self.extra: list[Any] = []
        # ---------------------------------------------------------------- constraints
        add_rules(self.m, self.lg, content, problem, self.x)
        self._symmetry()
        self.reaches = ReachModel(
            self.m, self.lg, self.has, content=content, problem=problem, types=self.types
        )
        # ---------------------------------------------------------------- the measure
        self.values = [self._home_values(w) for w in problem.measure.parts]
        reach = self.reaches.for_weights(problem.weights)
        self._specialty_request(reach)
        self._spread(problem.weights, reach)

    def _symmetry(self) -> None:
        """Symmetry breaking: tiles the rules and the measure cannot tell apart (``twins``) are used in
        number order and placed in position order."""
        rank = {p: i + 1 for i, p in enumerate(self.p.open)}
        for group in twins(self.c, self.p):
            for a, b in itertools.pairwise(group):
                used_a = sum(self.x[a, p] for p in self.p.open)
                used_b = sum(self.x[b, p] for p in self.p.open)
                self.m.add(used_b <= used_a)
                at_a = sum(rank[p] * self.x[a, p] for p in self.p.open)
                at_b = sum(rank[p] * self.x[b, p] for p in self.p.open)
                flag = self.m.new_bool_var(f"twin{b}_used")
                self.m.add(used_b == 1).only_enforce_if(flag)
                self.m.add(used_b == 0).only_enforce_if(flag.Not())
                self.m.add(at_a < at_b).only_enforce_if(flag)

    # ------------------------------------------------------------------------------ the values

    def _home_values(self, w: Weights) -> list[Any]:
        """Each home's value times SCALE by ``w``: the nearest homes share a space's value by its
        distance; plus the Mecatol Rex path term and the home systems."""
        lg, prob, tiles = self.lg, self.p, self.c.tiles
        homes = prob.homes
        reach = self.reaches.for_weights(w)
        wp = w.distance_points()
        counted = [p for p in prob.spaces if p and p not in homes]
        n = len(homes)
        totals: list[list[Any]] = [[] for _ in homes]
        for p in counted:
            if p in prob.fixed:
                tv: Any = tile_points(tiles[prob.fixed[p]], w)
                top = tv
            else:
                tv = sum(tile_points(tiles[t], w) * self.x[t, p] for t in prob.pool)
                top = max(tile_points(tiles[t], w) for t in prob.pool)
            for m in range(1, len(wp) + 1):
                exact = [lg.and_([reach[h][m][p], lg.not_(reach[h][m - 1][p])]) for h in range(n)]
                if w.share == "all":
                    near = exact
                else:
                    near = [
                        lg.and_([exact[h], *(lg.not_(reach[o][m - 1][p]) for o in range(n) if o != h)])
                        for h in range(n)
                    ]
                if all(x is False for x in near) or not wp[m - 1]:
                    continue
                share = self._share(near, tv, top, wp[m - 1], w.share == "all")
                for h in range(n):
                    totals[h].append(self._times(near[h], share, top * wp[m - 1] * SHARE_UNIT))
        lanes = self._mecatol(w)
        return [sum(t) + b + m for t, b, m in zip(totals, home_bonuses(self.c, prob, w), lanes, strict=True)]

    def _mecatol(self, w: Weights) -> list[Any]:
        """Each home's Mecatol Rex path term times SCALE (``balance.mecatol_terms``): a constant for
        the distance, minus the penalties when every shortest path crosses a supernova / a nebula."""
        if not w.has_mecatol_term:
            return [0] * len(self.p.homes)
        lg, prob = self.lg, self.p
        per, sup, neb = w.mecatol_points()
        unit = SCALE // POINTS
        in_play = frozenset({0, *prob.spaces})
        out: list[Any] = []
        for h in prob.homes:
            lane = mecatol_lanes(self.c.board.adjacent, h, tuple(prob.homes), in_play)
            if lane is None:
                out.append(per * (w.mecatol_moves - 6) * unit)
                continue
            d, steps = lane
            term: Any = per * (w.mecatol_moves - d) * unit
            for pts, kinds in ((sup, SUPERNOVAS), (neb, ("nebula",))):
                if not pts:
                    continue
                ok: dict[Pos, Lit] = {h: True}
                for p, preds in steps:
                    bad = False if p == 0 else self.has(p, _has_anomaly(self.c, kinds))
                    ok[p] = lg.and_([lg.not_(bad), lg.or_([ok.get(q, False) for q in preds])])
                crossed = lg.not_(ok.get(0, False))
                if crossed is True:
                    term -= pts * unit
                elif crossed is not False:
                    term -= pts * unit * crossed
            out.append(term)
        return out

    def _share(self, near: Sequence[Lit], tv: Any, top: int, dist_pts: int, every: bool) -> Any:
        """The value one nearest home gets: tile value x distance points x 60 / homes tied."""
        unit = dist_pts * SHARE_UNIT
        if every:
            return tv * unit
        s = self.m.new_int_var(0, top * unit, "")
        live = [x for x in near if x is not False]
        cnt = sum(1 if x is True else x for x in live)
        picks = []
        for j in range(1, len(live) + 1):
            b = self.m.new_bool_var("")
            self.m.add(cnt == j).only_enforce_if(b)
            self.m.add(s == tv * (unit // j)).only_enforce_if(b)
            picks.append(b)
        none = self.m.new_bool_var("")
        self.m.add(cnt == 0).only_enforce_if(none)
        self.m.add(s == 0).only_enforce_if(none)
        self.m.add_exactly_one([*picks, none])
        return s

    def _times(self, lit: Lit, value: Any, top: int) -> Any:
        """``value`` if ``lit`` else 0."""
        if lit is False:
            return 0
        if lit is True:
            return value
        z = self.m.new_int_var(0, top, "")
        self.m.add(z == value).only_enforce_if(lit)
        self.m.add(z == 0).only_enforce_if(lit.Not())
        return z

    # ------------------------------------------------------------------------------ the requests

    def _counts_for(
        self, w: Weights, reach: Sequence[Sequence[Mapping[Pos, Lit]]]
    ) -> dict[tuple[int, Pos], Lit]:
        """``(home, p)``: whether the system at ``p`` counts for the home (has a share of its value)."""
        lg, prob = self.lg, self.p
        wp = w.distance_points()
        n = len(prob.homes)
        out: dict[tuple[int, Pos], Lit] = {}
        for p in prob.spaces:
            if not p or p in prob.homes:
                continue
            for h in range(n):
                lits = []
                for m in range(1, len(wp) + 1):
                    if not wp[m - 1]:
                        continue
                    exact = lg.and_([reach[h][m][p], lg.not_(reach[h][m - 1][p])])
                    if w.share != "all":
                        exact = lg.and_([exact, *(lg.not_(reach[o][m - 1][p]) for o in range(n) if o != h)])
                    lits.append(exact)
                out[h, p] = lg.or_(lits)
        return out

    def _spread(self, w: Weights, reach: Sequence[Sequence[Mapping[Pos, Lit]]]) -> None:
        """The requests ``max_wormholes_per_home`` and ``max_legendary_per_home`` (hard caps) and the
        weighted ``wormhole_spread`` and ``legendary_spread`` terms of the objective."""
        prob = self.p
        worm_u, leg_u, _ = prob.term_units()
        tiles = self.c.tiles

        def wormholes(t: TileId) -> int:
            return len(tiles[t].wormholes)

        def legendary(t: TileId) -> int:
            return legendary_count(self.c, t)

        todo: list[tuple[int, int, Callable[[TileId], int]]] = [
            (prob.max_wormholes_per_home, worm_u, wormholes),
            (prob.max_legendary_per_home, leg_u, legendary),
        ]
        if all(cap < 0 and not unit for cap, unit, _ in todo):
            return
        counts_for = self._counts_for(w, reach)
        for cap, unit, count in todo:
            if cap < 0 and not unit:
                continue
            per_home: list[Any] = []
            for h in range(len(prob.homes)):
                const, terms = 0, []
                for (k, p), mine in counts_for.items():
                    if k != h or mine is False:
                        continue
                    cells: list[tuple[TileId, Lit]] = []
                    if p in prob.fixed:
                        cells = [(prob.fixed[p], True)]
                    elif p in prob.open:
                        cells = [(t, self.x[t, p]) for t in prob.pool]
                    for t, placed in cells:
                        lit = self.lg.and_([mine, placed])
                        if count(t) and lit is True:
                            const += count(t)
                        elif count(t) and lit is not False:
                            terms.append(count(t) * lit)
                if cap >= 0:
                    if terms:
                        self.m.add(sum(terms) <= cap - const)
                    elif const > cap:
                        self.m.add_bool_or([False])
                per_home.append(const + sum(terms))
            if unit:
                most, fewest = self.m.new_int_var(0, 99, "most"), self.m.new_int_var(0, 99, "fewest")
                self.m.add_max_equality(most, per_home)
                self.m.add_min_equality(fewest, per_home)
                self.extra.append(unit * (most - fewest))

    def _specialty_request(self, reach: Sequence[Sequence[Mapping[Pos, Lit]]]) -> None:
        """The request ``specialty_within`` (a specialty planet within k moves of every home) and the
        weighted ``specialty_missing`` term (a unit per home without one within ``specialty_reach``)."""
        prob = self.p
        unit = prob.term_units()[2]
        spec = {
            p: self.has(p, lambda t: has_specialty(self.c, t))
            for p in prob.spaces
            if p and p not in prob.homes
        }
        for h in range(len(prob.homes)):
            if prob.specialty_within:
                k = prob.specialty_within
                self.m.add_bool_or([self.lg.and_([reach[h][k][p], spec[p]]) for p in spec] + [False])
            if unit:
                k = prob.specialty_reach
                has = self.lg.or_([self.lg.and_([reach[h][k][p], spec[p]]) for p in spec])
                if has is not True:
                    self.extra.append(unit if has is False else unit * (1 - has))

    # ------------------------------------------------------------------------------ the objective

    def minimize_gap(self) -> None:
        """Objective: the worst gap over the weight sets plus the secondary terms, with the redundant
        average bounds (the best home is at least the mean, the worst at most)."""
        gaps = []
        for j, vals in enumerate(self.values):
            hi = self.m.new_int_var(-(10**9), 10**9, f"best{j}")
            lo = self.m.new_int_var(-(10**9), 10**9, f"worst{j}")
            self.m.add_max_equality(hi, vals)
            self.m.add_min_equality(lo, vals)
            n = len(vals)
            self.m.add(n * hi >= sum(vals))
            self.m.add(n * lo <= sum(vals))
            gaps.append(hi - lo)
        if len(gaps) == 1:
            self.m.minimize(gaps[0] + sum(self.extra))
            return
        worst = self.m.new_int_var(0, 10**9, "worst_gap")
        for g in gaps:
            self.m.add(worst >= g)
        self.m.minimize(worst + sum(self.extra))

    def hint_all(self, hint: Mapping[Pos, TileId]) -> None:
        """Hint every variable: the tiles of ``hint`` fixed in a copy of the model, the rest propagated."""
        fixed = self.m.clone()
        for (t, p), v in self.x.items():
            fixed.add(fixed.get_bool_var_from_proto_index(v.index) == int(hint.get(p) == t))
        solver = cp_model.CpSolver()
        solver.parameters.max_time_in_seconds = 2.0
        solver.parameters.num_workers = 1
        if solver.solve(fixed) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            for (t, p), v in self.x.items():
                self.m.add_hint(v, hint.get(p) == t)
            return
        values = solver.response_proto.solution
        self.m.proto.solution_hint.vars.extend(range(len(values)))
        self.m.proto.solution_hint.values.extend(values)


def known(content: Content, problem: MapProblem, galaxy: Mapping[Pos, TileId], status: Status) -> MapSolution:
    """A :class:`MapSolution` of a map whose objective is proven by nothing but itself: the bound is
    the objective when it is 0 (nothing is below 0), else 0."""
    full = {**problem.fixed, **galaxy}
    parts = measure_values(content, problem, full)
    units = objective_units(content, problem, full)
    return MapSolution(
        galaxy=full,
        values=tuple(v / SCALE for v in parts[0]),
        gap=problem.measure.gap_units(parts) / SCALE,
        bound=0.0,
        status=Status.OPTIMAL if units == 0 else status,
        objective=units / SCALE,
        terms=secondary_terms(content, problem, full),
        gaps=tuple((max(v) - min(v)) / SCALE for v in parts),
        clashes=tuple(clash_text(content, full, p, q, k) for p, q, k in clash_pairs(content, problem, full)),
    )


def solve_full(
    content: Content,
    problem: MapProblem,
    hint: Mapping[Pos, TileId] | None,
    *,
    time_limit_s: float,
    workers: int,
    seed: int,
    stop: Callable[[], bool] | None,
    presolve: bool | None,
    lns: bool = False,
) -> MapSolution:
    """The complete CP-SAT model (``lns``: large neighbourhood search only, from ``hint``). The answer
    is never worse than a legal ``hint``."""
    start = time.perf_counter()
    mm = MapModel(content, problem)
    mm.minimize_gap()
    first = None
    if hint and legal_galaxy(content, problem, {**problem.fixed, **hint}):
        first = known(content, problem, hint, Status.FEASIBLE)
        if first.objective == 0:  # 0 is the least possible: proven
            return replace(first, status=Status.OPTIMAL, bound=0.0)
        mm.hint_all(canonical(content, problem, {**problem.fixed, **hint}))
    left = time_limit_s - (time.perf_counter() - start)
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = max(0.05, float(left))
    solver.parameters.num_workers = max(1, int(workers))
    solver.parameters.random_seed = int(seed) % (2**31)
    solver.parameters.cp_model_presolve = time_limit_s >= 20.0 if presolve is None else presolve
    solver.parameters.use_lns_only = lns
    code = solve_stoppable(solver, mm.m, stop)
    status = STATUS.get(code, Status.UNKNOWN)
    if status not in (Status.OPTIMAL, Status.FEASIBLE):
        if status == Status.UNKNOWN and first is not None:
            return first
        return MapSolution(galaxy={}, values=(), gap=0.0, bound=0.0, status=status)
    sol = read_map(content, problem, mm, solver, status)
    if first is not None and first.objective < sol.objective:  # (an early stop before the hint was reached)
        return first
    return sol


def read_map(
    content: Content, problem: MapProblem, mm: MapModel, solver: cp_model.CpSolver, status: Status
) -> MapSolution:
    """The map of a CP-SAT answer, its values and objective checked against the measure to the unit."""
    galaxy = dict(problem.fixed)
    for (t, p), v in mm.x.items():
        if solver.value(v):
            galaxy[p] = t
    parts = measure_values(content, problem, galaxy)
    model_parts = [[solver.value(v) if not isinstance(v, int) else v for v in vals] for vals in mm.values]
    if model_parts != parts:  # the model is the measure, to the unit (tests check it on many maps)
        raise LictorError(f"internal: the CP-SAT values {model_parts} differ from the measure {parts}")
    units = objective_units(content, problem, galaxy)
    if round(solver.objective_value) != units:
        raise LictorError(f"internal: the CP-SAT objective {solver.objective_value} differs from {units}")
    if units == 0:
        status = Status.OPTIMAL  # nothing is below 0
    bound = units if status == Status.OPTIMAL else max(0.0, solver.best_objective_bound)
    out = known(content, problem, galaxy, status)
    return replace(out, status=status, bound=min(bound, units) / SCALE)
