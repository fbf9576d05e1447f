"""The builder: a legal first answer, then the decomposition over the special systems, then the
complete model's large neighbourhood search; the baselines and brute force.

- **The first answer** (:func:`first_answer`): the swap hill-climber's map after a share of the time,
  a random legal deal, or the rules-only model's galaxy: whatever the time limit, a legal map before
  the search, and every later answer is at least as good (each stage keeps the best).
- **The decomposition** (:func:`decompose`, a full galaxy): the *special* systems (anomalies and
  wormholes) shape movement and the adjacency rules, the *ordinary* systems do not. With the special
  systems placed, every home value of every weight set is linear in where the ordinary systems go,
  and :func:`solve_ordinary` solves that exactly with an **aggregated** CP-SAT model: spaces with the
  same shares (and the same part in the requests and quotas) form a class, tiles with the same back,
  values, legendary planets, specialty, requirement and quotas form a class, and the variables are
  *how many* tiles of each class go to each space class. A local search over the special systems
  (move one to another space, or swap it for an unused tile of its back) calls it at each step.
  It stops at objective 0 - a proof, nothing is below 0 - or hands over to the complete model
  (``solver.ti4.model``) for large neighbourhood search from the best map.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from ortools.sat.python import cp_model

from games.errors import LictorError
from games.ti4.balance import (
    IMPASSABLE,
    NEBULA,
    SCALE,
    coefficients,
    distances,
    edges,
    mecatol_terms,
    movement,
    prepare_movement,
    tile_points,
)
from games.ti4.content import Content, Pos, TileId
from solver.core import Status
from solver.ti4.bounds import total_bound
from solver.ti4.model import known, solve_full
from solver.ti4.problem import (
    MapProblem,
    MapSolution,
    clash_pairs,
    has_specialty,
    home_bonuses,
    legal_galaxy,
    legendary_count,
    objective_units,
    precheck_map,
    secondary_terms,
    special,
)
from solver.ti4.rules import feasible_map, solve_stoppable

__all__ = [
    "brute_force_map",
    "first_answer",
    "hill_climb_map",
    "random_legal_map",
    "solve_map",
    "solve_ordinary",
]

LNS_OPEN = 12
"""Above this many open positions the builder decomposes (:func:`decompose`); smaller problems get
the complete CP-SAT model (OPTIMAL proofs, as in the brute-force cross-checks)."""
LNS_MIN_S = 3.0
"""The least time for the final large neighbourhood search on the complete model (building the model
of a full galaxy takes about a second); with less, the decomposition gets the whole time."""
LNS_ONLY = True
"""Whether the complete model's final phase is large neighbourhood search only (else CP-SAT's full
search from the best map: with one worker it finds the coordinated moves of several systems)."""
STEP_S = 0.1
"""Least CP-SAT time per step of :func:`decompose` (the aggregated model; often proven sooner); a
step gets a twentieth of the budget up to :data:`STEP_MAX_S`, the first step three times that."""
STEP_MAX_S = 4.0
RESTART_AFTER = 12
"""Steps of :func:`decompose` without a strict improvement before the walk starts again from a random
legal map (the best map is kept)."""
POLISH_S = 0.15
"""Time of the swap descent (:func:`_polish`) before each step's CP-SAT."""


def solve_map(
    content: Content,
    problem: MapProblem,
    *,
    time_limit_s: float = 10.0,
    workers: int = 2,
    seed: int = 0,
    stop: Callable[[], bool] | None = None,
    hint: Mapping[Pos, TileId] | None = None,
    warm_start: float = 0.1,
    lns_share: float = 0.3,
    presolve: bool | None = None,
) -> MapSolution:
    """The galaxy with the smallest objective: the measure's gap plus the weighted secondary terms.

    Up to :data:`LNS_OPEN` open positions: the complete CP-SAT model (OPTIMAL is a proof). A full
    galaxy: the decomposition (:func:`decompose`); its answer is OPTIMAL when it reaches 0, the least
    possible value, or the bound below. ``warm_start``: the share of the time the hill-climber spends
    first on a full galaxy (0: a random legal map); ``hint``: a first answer given by the caller
    instead. The answer is never worse than the first answer. A counting argument
    (``bounds.total_bound``) may prove a bound above 0; the answer is OPTIMAL when it reaches it
    (``proof`` says why).
    """
    if precheck_map(content, problem):
        return MapSolution(galaxy={}, values=(), gap=0.0, bound=0.0, status=Status.INFEASIBLE)
    floor = total_bound(content, problem)
    sol = _search(
        content, problem, time_limit_s, workers, seed, stop, hint, warm_start, lns_share, presolve, floor
    )
    if floor is None or sol.status not in (Status.OPTIMAL, Status.FEASIBLE):
        return sol
    units, why = floor
    if round(sol.objective * SCALE) <= units:
        return replace(sol, status=Status.OPTIMAL, bound=sol.objective, proof=why)
    return replace(sol, bound=max(sol.bound, units / SCALE), proof=why) if units / SCALE > sol.bound else sol


def _search(  # noqa: PLR0917
    content: Content,
    problem: MapProblem,
    time_limit_s: float,
    workers: int,
    seed: int,
    stop: Callable[[], bool] | None,
    hint: Mapping[Pos, TileId] | None,
    warm_start: float,
    lns_share: float,
    presolve: bool | None,
    floor: tuple[int, str] | None,
) -> MapSolution:
    """:func:`solve_map` without the counting bound (``floor``: it, to stop the search on reaching it)."""
    start = time.perf_counter()
    deadline = start + time_limit_s
    big = len(problem.open) > LNS_OPEN
    if hint is not None and not legal_galaxy(content, problem, {**problem.fixed, **hint}):
        hint = None
    if hint is None:
        hint, infeasible = first_answer(
            content, problem, seed, warm_start * time_limit_s if big else 0.0, stop, deadline=deadline
        )
        if infeasible:
            return MapSolution(galaxy={}, values=(), gap=0.0, bound=0.0, status=Status.INFEASIBLE)
    if not big:
        left = max(0.05, deadline - time.perf_counter())
        return solve_full(content, problem, hint, left, workers, seed, stop, presolve)
    if hint is None:  # no legal map found in time: say so (UNKNOWN), never a wrong INFEASIBLE
        return MapSolution(galaxy={}, values=(), gap=0.0, bound=0.0, status=Status.UNKNOWN)
    lns = lns_share * time_limit_s >= LNS_MIN_S
    split = start + (1 - lns_share) * time_limit_s if lns else deadline
    least = 0 if floor is None else floor[0]
    galaxy, units = decompose(
        content, problem, hint, deadline=split, workers=workers, seed=seed, stop=stop, least=least
    )
    left = deadline - time.perf_counter()
    if units <= least or not lns or left < LNS_MIN_S / 2 or (stop is not None and stop()):
        return known(content, problem, galaxy, Status.OPTIMAL if units == 0 else Status.FEASIBLE)
    return solve_full(content, problem, galaxy, left, workers, seed, stop, presolve, lns=LNS_ONLY)


def first_answer(
    content: Content,
    problem: MapProblem,
    seed: int,
    seconds: float,
    stop: Callable[[], bool] | None = None,
    *,
    deadline: float | None = None,
) -> tuple[dict[Pos, TileId] | None, bool]:
    """A legal first answer: the hill-climber's map after ``seconds`` (a random legal map if 0), or
    the rules-only model's galaxy when random deals keep clashing. Returns (galaxy or None, whether
    no legal galaxy exists at all: the rules-only model proved it)."""
    rng = random.Random(seed)
    try:
        if seconds > 0:
            return hill_climb_map(content, problem, rng, seconds=seconds, stop=stop)[0], False
        return random_legal_map(content, problem, rng, tries=300), False
    except LictorError:
        pass
    left = 5.0 if deadline is None else max(0.1, deadline - time.perf_counter())
    found, proven = feasible_map(content, problem, time_limit_s=min(left, 5.0), seed=seed, stop=stop)
    return found, proven


# ============================================================================ the ordinary systems


def solve_ordinary(
    content: Content,
    problem: MapProblem,
    galaxy: Mapping[Pos, TileId],
    *,
    time_limit_s: float = 2.0,
    workers: int = 1,
    seed: int = 0,
    stop: Callable[[], bool] | None = None,
) -> tuple[dict[Pos, TileId], float]:
    """Keep ``galaxy``'s anomalies and wormholes where they are and deal the ordinary systems anew
    with the smallest objective (CP-SAT). Returns (galaxy, objective in value points); the answer is
    legal and never worse than ``galaxy`` when ``galaxy`` is legal.

    With the movement fixed, each space's share of its system's value per home is a constant
    (``balance.coefficients``), so the model is linear; and it is *aggregated* (see the module
    docstring). The redundant average bounds (best >= mean >= worst) tighten the relaxation.
    """
    out = _ordinary_model(
        content, problem, galaxy, time_limit_s, workers, seed, stop, min(POLISH_S, time_limit_s / 4)
    )
    before = objective_units(content, problem, galaxy) if legal_galaxy(content, problem, galaxy) else None
    if out is not None:
        units = objective_units(content, problem, out)
        if before is None or units <= before:
            return out, units / SCALE
    return dict(galaxy), (before if before is not None else objective_units(content, problem, galaxy)) / SCALE


def _shares(
    content: Content, problem: MapProblem, full: Mapping[Pos, TileId]
) -> tuple[list[list[dict[Pos, int]]], list[list[int]]]:
    """Per weight set: each home's share of each counted space (``balance.coefficients``) and its
    Mecatol Rex path term plus home system (constants once the special systems stand)."""
    coefs_by, fixed_by = [], []
    for w in problem.measure.parts:
        moves, counted, _ = prepare_movement(
            content.board, full, problem.homes, content.tiles, w, fill=0, spaces=problem.spaces
        )
        coefs_by.append(coefficients(content.board, moves, problem.homes, counted, w))
        lanes = mecatol_terms(content.board, full, problem.homes, content.tiles, w, spaces=problem.spaces)
        fixed_by.append([a + b for a, b in zip(lanes, home_bonuses(content, problem, w), strict=True)])
    return coefs_by, fixed_by


def _within(
    content: Content, problem: MapProblem, full: Mapping[Pos, TileId], jumps: int
) -> set[tuple[int, Pos]]:
    """(home index, space) pairs within ``jumps`` moves (the specialty requests)."""
    if not jumps:
        return set()
    w = problem.weights
    moves, _, _ = prepare_movement(
        content.board, full, problem.homes, content.tiles, w, fill=0, spaces=problem.spaces
    )
    graph = edges(content.board, moves, w)
    out: set[tuple[int, Pos]] = set()
    for h, home in enumerate(problem.homes):
        near = distances(content.board, moves, home, w, limit=jumps, graph=graph, homes=problem.homes)
        out |= {(h, p) for p in near if p != home}
    return out


def _ordinary_model(  # noqa: PLR0917
    content: Content,
    problem: MapProblem,
    galaxy: Mapping[Pos, TileId],
    time_limit_s: float,
    workers: int,
    seed: int,
    stop: Callable[[], bool] | None,
    polish_s: float = 0.0,
    deadline: float | None = None,
    cap: int | None = None,
) -> dict[Pos, TileId] | None:
    """The aggregated model of :func:`solve_ordinary`: the new legal map, or None (none found).
    ``deadline``: the model's building and the descent count against ``time_limit_s`` up to it;
    ``cap``: only maps with an objective of at most ``cap`` units are wanted (CP-SAT proves quickly
    that a placement of the special systems cannot do as well as the best so far)."""
    if deadline is None:
        deadline = time.perf_counter() + time_limit_s + polish_s
    om = _OrdinaryModel(content, problem, galaxy)
    if cap is not None:
        om.m.add(om.objective <= cap // om.grid)
    return om.solve(time_limit_s, workers, seed, stop, polish_s, deadline)


class _OrdinaryModel:
    """The aggregated CP-SAT model of the ordinary systems with the special systems of ``galaxy`` kept
    (see the module docstring). Variables ``n[c, k]``: how many tiles of class ``c`` go to spaces of
    class ``k``.

    Attributes:
        spaces: the space classes (shares per weight set, request reach, ring 1, quotas) -> positions.
        kinds: the tile classes (back, values, legendary planets, specialty, required, quotas) -> tiles.
        n: the variables.
        grid: the exact unit the values are counted in.
        extra: the secondary terms of the objective (in grid units).
    """

    def __init__(self, content: Content, problem: MapProblem, galaxy: Mapping[Pos, TileId]) -> None:
        self.c, self.p, self.galaxy = content, problem, galaxy
        self.full = {0: 18, **problem.fixed, **galaxy}
        self.coefs_by, self.fixed_by = _shares(content, problem, self.full)
        self.free = [p for p in problem.open if not special(content, self.full[p])]
        self.kept = {p: self.full[p] for p in problem.open if p not in self.free}
        self.units = problem.term_units()
        self.homes = range(len(problem.homes))
        self.ring1 = set(content.board.adjacent[0]) if problem.red_next_to_mecatol else set()
        spec_u = self.units[2]
        self.within = [
            _within(content, problem, self.full, problem.specialty_within),
            _within(content, problem, self.full, problem.specialty_reach if spec_u else 0),
        ]
        # ---------------------------------------------------------------- variables
        self.spaces: dict[tuple[Any, ...], list[Pos]] = {}
        for p in self.free:
            self.spaces.setdefault(self._space_key(p), []).append(p)
        self.kinds: dict[tuple[Any, ...], list[TileId]] = {}
        for t in problem.pool:
            if not special(content, t) and t not in self.kept.values():
                self.kinds.setdefault(self._tile_key(t), []).append(t)
        self.m = cp_model.CpModel()
        self.n = {
            (c, k): self.m.new_int_var(0, min(len(ts), len(ps)), f"n{i}_{j}")
            for i, (c, ts) in enumerate(self.kinds.items())
            for j, (k, ps) in enumerate(self.spaces.items())
        }
        # ---------------------------------------------------------------- constraints
        self._rules()
        self.grid, gaps, span = self._values()
        self.extra: list[Any] = []
        self._requests()
        # ---------------------------------------------------------------- objective
        if len(gaps) == 1:
            self.objective: Any = gaps[0][0] - gaps[0][1] + sum(self.extra)
        else:
            worst = self.m.new_int_var(0, span, "worst_gap")
            for hi, lo in gaps:
                self.m.add(worst >= hi - lo)
            self.objective = worst + sum(self.extra)
        self.m.minimize(self.objective)

    def _space_key(self, p: Pos) -> tuple[Any, ...]:
        return (
            tuple(tuple(co.get(p, 0) for co in coefs) for coefs in self.coefs_by),
            tuple((h, p) in self.within[0] for h in self.homes),
            tuple((h, p) in self.within[1] for h in self.homes),
            p in self.ring1,
            tuple(i for i, q in enumerate(self.p.quotas) if p in q.positions),
        )

    def _tile_key(self, t: TileId) -> tuple[Any, ...]:
        return (
            self.c.tiles[t].pile,
            tuple(tile_points(self.c.tiles[t], w) for w in self.p.measure.parts),
            legendary_count(self.c, t),
            has_specialty(self.c, t),
            t in self.p.required,
            tuple(i for i, q in enumerate(self.p.quotas) if t in q.tiles),
        )

    def _rules(self) -> None:
        """Every space filled, every tile once (required exactly once), the deal's backs, the quotas,
        the five-player red tile next to Mecatol Rex."""
        m, n, tiles, kept, problem = self.m, self.n, self.c.tiles, self.kept, self.p
        for k, ps in self.spaces.items():
            m.add(sum(n[c, k] for c in self.kinds) == len(ps))
        for c, ts in self.kinds.items():
            used = sum(n[c, k] for k in self.spaces)
            m.add(used == len(ts)) if c[4] else m.add(used <= len(ts))
        for back, need in (("blue", problem.blue), ("red", problem.red)):
            have = sum(1 for t in kept.values() if tiles[t].pile == back)
            m.add(sum(v for (c, _), v in n.items() if c[0] == back) == need - have)
        for i, q in enumerate(problem.quotas):
            have = sum(1 for p, t in kept.items() if p in q.positions and t in q.tiles)
            m.add(sum(v for (c, k), v in n.items() if i in c[5] and i in k[4]) == q.count - have)
        if self.ring1 and not any(tiles[t].pile == "red" for p, t in kept.items() if p in self.ring1):
            m.add(sum(v for (c, k), v in n.items() if c[0] == "red" and k[3]) >= 1)

    def _values(self) -> tuple[int, list[tuple[Any, Any]], int]:
        """Each home's value per weight set (linear in ``n``) on the coarsest exact grid, with the
        best and worst homes bounded by inequalities and the average bounds. Returns (the grid, per
        weight set (best, worst) variables, the widest gap)."""
        m, n, tiles, full, parts = self.m, self.n, self.c.tiles, self.full, self.p.measure.parts
        consts = [
            [
                b
                + sum(
                    c * tile_points(tiles[full[p]], w)
                    for p, c in co.items()
                    if p not in self.free and full.get(p, 0) in tiles
                )
                for co, b in zip(coefs, fixed, strict=True)
            ]
            for coefs, fixed, w in zip(self.coefs_by, self.fixed_by, parts, strict=True)
        ]
        # a coarser exact grid: every value is a multiple of the gcd of the constants, the products and
        # the secondary weights; counting in gcds keeps the numbers (and the objective's domain) small
        grid = math.gcd(
            *(x for cs in consts for x in cs),
            *(k[0][j][h] * c[1][j] for c, k in n for j in range(len(parts)) for h in self.homes),
            *self.units,
            10**9,
        )
        lo_all = min(min(0, *cs) // grid for cs in consts)
        top = max(
            (consts[j][h] + sum(k[0][j][h] * c[1][j] * len(self.spaces[k]) for c, k in n if k[0][j][h]))
            // grid
            for j in range(len(parts))
            for h in self.homes
        )
        gaps = []
        for j in range(len(parts)):
            vals = [
                consts[j][h] // grid
                + sum(k[0][j][h] * c[1][j] // grid * v for (c, k), v in n.items() if k[0][j][h] and c[1][j])
                for h in self.homes
            ]
            hi, lo = m.new_int_var(lo_all, top, f"best{j}"), m.new_int_var(lo_all, top, f"worst{j}")
            for v in vals:  # (inequalities, not max/min equalities: their domains swamp the presolve)
                m.add(hi >= v)
                m.add(lo <= v)
            m.add(len(vals) * hi >= sum(vals))
            m.add(len(vals) * lo <= sum(vals))
            gaps.append((hi, lo))
        return grid, gaps, max(0, top - lo_all)

    def _requests(self) -> None:
        """The requests (a specialty within k moves, at most so many legendary planets) and the
        weighted secondary terms, in grid units."""
        m, n, problem, kept, grid = self.m, self.n, self.p, self.kept, self.grid
        worm_u, leg_u, spec_u = self.units
        if worm_u:  # (the wormholes are special systems: the spread is the galaxy's, a constant)
            self.extra.append(
                worm_u // grid * secondary_terms(self.c, problem, self.galaxy)["wormhole_spread"]
            )
        for j, unit in ((0, problem.specialty_within), (1, spec_u)):
            if not unit:
                continue
            jumps = problem.specialty_within if j == 0 else problem.specialty_reach
            near_kept = _within(self.c, problem, self.full, jumps)
            for h in self.homes:
                if any((h, p) in near_kept and has_specialty(self.c, t) for p, t in kept.items()):
                    continue
                spec_count: Any = sum(v for (c, k), v in n.items() if c[3] and k[1 + j][h])
                if j == 0:
                    m.add(spec_count >= 1)
                else:
                    miss = m.new_bool_var(f"missing{h}")
                    m.add(spec_count >= 1).only_enforce_if(miss.Not())
                    self.extra.append(unit // grid * miss)
        if problem.max_legendary_per_home < 0 and not leg_u:
            return
        counts = []
        for h, co in enumerate(self.coefs_by[0]):
            const = sum(legendary_count(self.c, kept[p]) for p in kept if co.get(p, 0))
            const += sum(
                legendary_count(self.c, self.full[p])
                for p in co
                if co[p] and p not in problem.open and self.full.get(p, 0) in self.c.tiles
            )
            counts.append(const + sum(c[2] * v for (c, k), v in n.items() if c[2] and k[0][0][h]))
        if problem.max_legendary_per_home >= 0:
            for x in counts:
                m.add(x <= problem.max_legendary_per_home)
        if leg_u:
            most, fewest = m.new_int_var(0, 99, "most"), m.new_int_var(0, 99, "fewest")
            m.add_max_equality(most, counts)
            m.add_min_equality(fewest, counts)
            self.extra.append(leg_u // grid * (most - fewest))

    def solve(  # noqa: PLR0917
        self,
        time_limit_s: float,
        workers: int,
        seed: int,
        stop: Callable[[], bool] | None,
        polish_s: float,
        deadline: float,
    ) -> dict[Pos, TileId] | None:
        """The swap descent first (without requests), its map the hint; then CP-SAT. The new legal
        map, or the descent's when CP-SAT finds nothing in time, or None."""
        problem, full = self.p, self.full
        plain = not (
            problem.specialty_within or self.units[1] or self.units[2] or problem.max_legendary_per_home >= 0
        )
        if plain:  # a fast swap descent with the shares fixed first: CP-SAT starts from its map
            polish_s = min(polish_s, max(0.0, deadline - time.perf_counter() - 0.02))
            moved = _polish(
                self.c, problem, full, self.free, self.coefs_by, self.fixed_by, polish_s, random.Random(seed)
            )
            full = {**full, **moved}
        kind_of = {t: c for c, ts in self.kinds.items() for t in ts}
        placed: dict[tuple[Any, ...], int] = {}
        for k, ps in self.spaces.items():
            for p in ps:
                if full[p] in kind_of:
                    placed[kind_of[full[p]], k] = placed.get((kind_of[full[p]], k), 0) + 1
        for cell, v in self.n.items():  # the map as given: the first answer
            self.m.add_hint(v, placed.get(cell, 0))
        given = {p: full[p] for p in problem.open}
        solver = cp_model.CpSolver()
        solver.parameters.max_time_in_seconds = max(0.02, min(time_limit_s, deadline - time.perf_counter()))
        solver.parameters.num_workers = max(1, workers)
        solver.parameters.random_seed = seed % (2**31)
        if solve_stoppable(solver, self.m, stop) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return given if plain and legal_galaxy(self.c, problem, given) else None  # (the descent's map)
        out = dict(given)
        left = {c: list(ts) for c, ts in self.kinds.items()}
        for k, ps in self.spaces.items():
            queue = list(ps)
            for c in self.kinds:
                for _ in range(solver.value(self.n[c, k])):
                    out[queue.pop()] = left[c].pop()
        return out if legal_galaxy(self.c, problem, out) else None


def _polish(  # noqa: PLR0917
    content: Content,
    problem: MapProblem,
    full: Mapping[Pos, TileId],
    free: Sequence[Pos],
    coefs_by: Sequence[Sequence[Mapping[Pos, int]]],
    fixed_by: Sequence[Sequence[int]],
    seconds: float,
    rng: random.Random,
) -> dict[Pos, TileId]:
    """A swap descent on the ordinary systems with the shares fixed (two spaces swap their systems,
    or a space takes an unused system of its back; quotas kept): each move changes the home values
    by a product, so thousands are tried in a fraction of a second. Worse moves are taken with a
    falling probability (annealing). Returns the ordinary systems' new places."""
    tiles, parts = content.tiles, problem.measure.parts
    at = {p: full[p] for p in free}
    used = set(full.values())
    spare = [
        t for t in problem.pool if t not in used and not special(content, t) and t not in problem.required
    ]
    pts = {t: [tile_points(tiles[t], w) for w in parts] for t in problem.pool}
    nh = len(problem.homes)
    width = len(parts) * nh  # values of every weight set, side by side
    vals = [
        fixed_by[j][h]
        + sum(
            c * tile_points(tiles[full[p]], w) for p, c in coefs_by[j][h].items() if full.get(p, 0) in tiles
        )
        for j, w in enumerate(parts)
        for h in range(nh)
    ]
    col = {p: [coefs_by[j][h].get(p, 0) for j in range(len(parts)) for h in range(nh)] for p in free}
    qtile = {t: tuple(i for i, q in enumerate(problem.quotas) if t in q.tiles) for t in problem.pool}
    qpos = {p: tuple(i for i, q in enumerate(problem.quotas) if p in q.positions) for p in free}
    ring1 = [p for p in content.board.adjacent[0] if p in problem.open] if problem.red_next_to_mecatol else []

    def gap_of(v: Sequence[int]) -> int:
        return max(max(v[j * nh : (j + 1) * nh]) - min(v[j * nh : (j + 1) * nh]) for j in range(len(parts)))

    gap = gap_of(vals)
    best, best_gap = dict(at), gap
    start = time.perf_counter()
    hot = max(gap / 8, SCALE / 100)  # annealing: a worse move is taken with probability exp(-loss / hot)
    tries = 0
    while best_gap and (tries % 256 or time.perf_counter() < start + seconds):
        tries += 1
        if tries % 256 == 0:
            hot = max(1.0, SCALE / 100 * (1 - (time.perf_counter() - start) / max(seconds, 1e-9)) ** 2)
        a = rng.choice(free)
        ta = at[a]
        k, b = -1, -1
        if spare and rng.random() < 0.3:
            k = rng.randrange(len(spare))
            tb = spare[k]
            if tiles[tb].pile != tiles[ta].pile or ta in problem.required or qtile[tb] != qtile[ta]:
                continue
            new = [vals[i] + col[a][i] * (pts[tb][i // nh] - pts[ta][i // nh]) for i in range(width)]
        else:
            b = rng.choice(free)
            tb = at[b]
            if qtile[ta] != qtile[tb] and qpos[a] != qpos[b]:
                continue
            if pts[ta] == pts[tb]:
                continue
            new = [
                vals[i] + (col[a][i] - col[b][i]) * (pts[tb][i // nh] - pts[ta][i // nh])
                for i in range(width)
            ]
        g2 = gap_of(new)
        if g2 > gap and rng.random() >= math.exp((gap - g2) / hot):
            continue
        if b < 0:
            at[a], spare[k] = tb, ta
        else:
            at[a], at[b] = tb, ta
        if ring1 and not any(tiles[at.get(p, full.get(p, 0))].pile == "red" for p in ring1):
            if b < 0:  # undo: the five-player red tile next to Mecatol Rex is gone
                at[a], spare[k] = ta, tb
            else:
                at[a], at[b] = ta, tb
            continue
        vals, gap = new, g2
        if gap < best_gap:
            best, best_gap = dict(at), gap
    return best


# ============================================================================ the special systems


def decompose(
    content: Content,
    problem: MapProblem,
    first: Mapping[Pos, TileId],
    *,
    deadline: float,
    workers: int,
    seed: int,
    stop: Callable[[], bool] | None,
    least: int = 0,
) -> tuple[dict[Pos, TileId], int]:
    """The builder on a full galaxy: a local search over the *special* systems (anomalies and
    wormholes) whose every step deals the ordinary systems anew by the exact aggregated CP-SAT model
    of :func:`solve_ordinary`. A step moves a special system to another space or swaps it with an
    unused tile of its back; it is kept when the objective does not grow. Starts from the legal map
    ``first``; ends at objective ``least`` (0, or a proven bound: nothing is below), at the deadline or
    on ``stop``.
    Returns (galaxy, objective units), never worse than ``first``."""
    rng = random.Random(seed)
    loose = replace(problem, specialty_within=0, max_legendary_per_home=-1)  # the ordinary deal fixes these

    def over() -> bool:  # (a step needs a few hundredths of a second to build its model)
        return time.perf_counter() >= deadline - 0.03 or (stop is not None and stop())

    budget = max(0.0, deadline - time.perf_counter())
    step = min(STEP_MAX_S, max(STEP_S, budget / 20))  # longer budgets: longer, surer steps
    polish = min(POLISH_S, step / 2)

    def step_time(first_step: bool = False) -> float:
        return max(0.02, min(3 * step if first_step else step, deadline - time.perf_counter()))

    # when the homes' total cannot make equal values unless a system is cut off, cut offs are the way
    cut_share = 0.5 if not least and total_bound(content, problem, cut_offs=False) else 0.15
    best, units = dict(first), objective_units(content, problem, first)
    if units > least and not over():
        out = _ordinary_model(
            content, problem, best, step_time(True), 1, rng.randrange(2**31), stop, polish, deadline
        )
        if out is not None and objective_units(content, problem, out) <= units:
            best, units = out, objective_units(content, problem, out)
    cur, cur_units, stale = dict(best), units, 0
    while units > least and not over():
        if stale >= RESTART_AFTER:  # the walk is stuck: start it again from a random legal map
            try:
                cur, stale = random_legal_map(content, loose, rng, tries=300), 0
            except LictorError:
                cur, stale = dict(best), 0
            out = _ordinary_model(
                content, problem, cur, step_time(), 1, rng.randrange(2**31), stop, polish, deadline
            )
            cur = out if out is not None else cur
            cur_units = (
                objective_units(content, problem, cur) if legal_galaxy(content, problem, cur) else units
            )
            continue
        cand = _perturb(content, loose, cur, rng, cut_share)
        if cand is None:
            stale += 1
            continue
        out = _ordinary_model(
            content,
            problem,
            cand,
            step_time(),
            1,
            rng.randrange(2**31),
            stop,
            polish,
            deadline,
            cap=cur_units,
        )
        if out is None:
            if not legal_galaxy(content, problem, cand):
                stale += 1
                continue
            out = cand
        got = objective_units(content, problem, out)
        stale = 0 if got < cur_units else stale + 1
        if got <= cur_units:
            cur, cur_units = out, got
        if got < units:
            best, units = out, got
    return best, units


def _perturb(
    content: Content,
    problem: MapProblem,
    galaxy: Mapping[Pos, TileId],
    rng: random.Random,
    cut_share: float = 0.15,
) -> dict[Pos, TileId] | None:
    """A random legal neighbour of ``galaxy`` that moves a special system (see :func:`decompose`)."""
    tiles = content.tiles
    specials = [p for p in problem.open if special(content, galaxy[p])]
    ordinary = [p for p in problem.open if p not in specials]
    unused = [t for t in problem.pool if t not in galaxy.values()]
    spare_special = [t for t in unused if special(content, t)]
    for _ in range(50):
        h = dict(galaxy)
        move = rng.random()
        if move < cut_share:  # blockers onto every way to one system
            cut = _cut_off(content, problem, galaxy, rng)
            if cut is None:
                continue
            h = cut
        elif specials and ordinary and move < max(0.6, cut_share + 0.3):  # a special system elsewhere
            a, b = rng.choice(specials), rng.choice(ordinary)
            h[a], h[b] = galaxy[b], galaxy[a]
        elif len(specials) > 1 and move < max(0.7, cut_share + 0.4):  # two special systems change places
            a, b = rng.sample(specials, 2)
            h[a], h[b] = galaxy[b], galaxy[a]
        elif spare_special and move < 0.85:  # an unused special system in, of the same back
            t = rng.choice(spare_special)
            spots = [p for p in problem.open if tiles[galaxy[p]].pile == tiles[t].pile]
            if not spots:
                continue
            h[rng.choice(spots)] = t
        elif specials:  # a special system out, an unused tile of its back in
            a = rng.choice(specials)
            backs = [t for t in unused if tiles[t].pile == tiles[galaxy[a]].pile]
            if not backs:
                continue
            h[a] = rng.choice(backs)
        else:
            return None
        if legal_galaxy(content, problem, h):
            return h
    return None


def _cut_off(
    content: Content, problem: MapProblem, galaxy: Mapping[Pos, TileId], rng: random.Random
) -> dict[Pos, TileId] | None:
    """``galaxy`` with blockers (systems a ship cannot enter or cannot leave by the first weight
    set: supernovae, asteroid fields without Antimass Deflectors, nebulae that cannot be left) moved
    onto every space through which the homes reach one system at 2 moves: that system then counts
    for nobody (the one neighbourhood that changes what the homes share in total). None when the
    measure reaches farther than 2 moves or the blockers do not suffice."""
    w, tiles, adj = problem.weights, content.tiles, content.board.adjacent
    if w.reach != 2:
        return None

    def blocks(p: Pos) -> bool:
        if p not in galaxy or galaxy[p] not in tiles:
            return False
        kind = movement(tiles[galaxy[p]], w).kind
        return kind == IMPASSABLE or (kind == NEBULA and w.nebula_stops)

    homes = set(problem.homes)
    blockers = [p for p in problem.open if blocks(p)]
    options = []  # (target, its gates, the gates still to block) the blockers suffice for
    for q in problem.spaces:
        if not q or q in homes or homes & set(adj[q]):
            continue
        gates = [m for m in adj[q] if m in problem.spaces and m and m not in homes and homes & set(adj[m])]
        need = [m for m in gates if not blocks(m)]
        spare = [p for p in blockers if p not in gates]
        if need and len(need) <= len(spare) and all(m in problem.open for m in need):
            options.append((q, gates, need))
    if not options:
        return None
    q, gates, need = rng.choice(options)
    movers = [p for p in blockers if p not in gates]
    h = dict(galaxy)
    for a, m in zip(rng.sample(movers, len(need)), need, strict=True):
        h[a], h[m] = h[m], h[a]
    keep = {q, *gates}
    if q in problem.open and special(content, h[q]):  # the system cut off: an ordinary one, worth counting
        plain = [r for r in problem.open if r not in keep and not special(content, h[r])]
        if plain:
            r = rng.choice(plain)
            h[q], h[r] = h[r], h[q]
    for _ in range(8):  # anomalies and wormholes now next to a blocker go elsewhere
        bad = [p for p, r, _ in clash_pairs(content, problem, h) for p in (p, r) if p not in keep]
        if not bad:
            return h
        a = rng.choice(bad)
        calm = [
            r
            for r in problem.open
            if r not in keep
            and not special(content, h[r])
            and not any(x in h and h[x] in tiles and special(content, h[x]) for x in adj[r])
        ]
        if a not in problem.open or not calm:
            return h
        r = rng.choice(calm)
        h[a], h[r] = h[r], h[a]
    return h


# ============================================================================ baselines and brute force


def random_legal_map(
    content: Content, problem: MapProblem, rng: random.Random, *, tries: int = 2000
) -> dict[Pos, TileId]:
    """A random legal galaxy: random tiles of the deal's counts, reshuffled until legal (the rules-only
    model's galaxy when that keeps failing, e.g. with quotas); ``LictorError`` if none is found."""
    tiles = content.tiles
    blue = [t for t in problem.pool if tiles[t].pile == "blue"]
    red = [t for t in problem.pool if tiles[t].pile == "red"]
    need = set(problem.required)
    for _ in range(0 if problem.quotas else tries):
        chosen = rng.sample(blue, problem.blue) + rng.sample(red, problem.red)
        if not need <= set(chosen):
            continue
        rng.shuffle(chosen)
        galaxy = {**problem.fixed, **dict(zip(problem.open, chosen, strict=True))}
        if legal_galaxy(content, problem, galaxy):
            return galaxy
    found, _ = feasible_map(content, problem, time_limit_s=2.0, seed=rng.randrange(2**31))
    if found is None:
        raise LictorError("no random legal galaxy found", field="params")
    return found


def hill_climb_map(
    content: Content,
    problem: MapProblem,
    rng: random.Random,
    *,
    seconds: float,
    restarts: bool = True,
    stop: Callable[[], bool] | None = None,
) -> tuple[dict[Pos, TileId], float]:
    """The builder's warm start: a random legal map, then swaps (two positions, or a position and an
    unused tile of the same back) kept when the objective falls, restarting from a new random map
    when no swap helps; returns the best (galaxy, objective in value points) within ``seconds``.
    (The benchmark's baseline is its own, independent hill-climber: ``bench/_ti4_hill_climb.py``.)"""
    end = time.perf_counter() + seconds
    tiles = content.tiles
    best: tuple[dict[Pos, TileId], int] | None = None

    def over() -> bool:
        return time.perf_counter() >= end or (stop is not None and stop())

    while best is None or not over():
        g = random_legal_map(content, problem, rng)
        cur = objective_units(content, problem, g)
        improved = True
        while improved and cur > 0 and not over():
            improved = False
            unused = [t for t in problem.pool if t not in g.values()]
            moves: list[tuple[Pos, Pos | None, TileId]] = [
                (a, b, 0) for a, b in itertools.combinations(problem.open, 2)
            ] + [(a, None, t) for a in problem.open for t in unused if tiles[t].pile == tiles[g[a]].pile]
            rng.shuffle(moves)
            for a, b, t in moves:
                h = dict(g)
                if b is None:
                    h[a] = t
                else:
                    if g[a] == g[b]:
                        continue
                    h[a], h[b] = g[b], g[a]
                if not legal_galaxy(content, problem, h):
                    continue
                v = objective_units(content, problem, h)
                if v < cur:
                    g, cur, improved = h, v, True
                    break
                if over():
                    break
        if best is None or cur < best[1]:
            best = (g, cur)
        if not restarts or best[1] == 0:
            break
    return best[0], best[1] / SCALE


def brute_force_map(content: Content, problem: MapProblem) -> tuple[float, dict[Pos, TileId]] | None:
    """The smallest objective (the gap, plus the weighted secondary terms if any) over every legal
    galaxy, with a galaxy that has it (exhaustive: small problems only)."""
    best: tuple[float, dict[Pos, TileId]] | None = None
    for chosen in itertools.permutations(problem.pool, len(problem.open)):
        galaxy = {**problem.fixed, **dict(zip(problem.open, chosen, strict=True))}
        if not legal_galaxy(content, problem, galaxy):
            continue
        gap = objective_units(content, problem, galaxy) / SCALE
        if best is None or gap < best[0]:
            best = (gap, galaxy)
    return best
