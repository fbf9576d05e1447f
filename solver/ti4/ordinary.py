"""The ordinary systems: with the special systems (anomalies and wormholes) placed, the exact
aggregated CP-SAT model that deals the ordinary systems (:func:`solve_ordinary`, the step of
``search.decompose``), and the swap descent that gives it its first answer (:func:`polish`).

With the special systems placed, every home value of every weight set is linear in where the
ordinary systems go. The model is **aggregated**: spaces with the same shares (and the same part in
the requests and quotas) form a class, tiles with the same back, values, legendary planets,
specialty, requirement and quotas form a class, and the variables are *how many* tiles of each
class go to each space class.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from ortools.sat.python import cp_model

from games.ti4.balance import (
    SCALE,
    coefficients,
    distances,
    edges,
    mecatol_terms,
    prepare_movement,
    tile_points,
)
from games.ti4.content import Content, Pos, TileId
from solver.ti4.problem import (
    MapProblem,
    has_specialty,
    home_bonuses,
    legal_galaxy,
    legendary_count,
    objective_units,
    secondary_terms,
    special,
)
from solver.ti4.rules import solve_stoppable

__all__ = ["POLISH_S", "ordinary_model", "polish", "solve_ordinary"]

POLISH_S = 0.15
"""Time of the swap descent (:func:`polish`) before each step's CP-SAT."""


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
    out = ordinary_model(
        content,
        problem,
        galaxy,
        time_limit_s=time_limit_s,
        workers=workers,
        seed=seed,
        stop=stop,
        polish_s=min(POLISH_S, time_limit_s / 4),
    )
    before = objective_units(content, problem, galaxy) if legal_galaxy(content, problem, galaxy) else None
    if out is not None:
        units = objective_units(content, problem, out)
        if before is None or units <= before:
            return out, units / SCALE
    return dict(galaxy), (before if before is not None else objective_units(content, problem, galaxy)) / SCALE


class SpaceKind(NamedTuple):
    """What the model needs of an open system space; spaces alike share one count per tile kind.

    Attributes:
        share: per weight set, per home, the share of the space's value that home counts.
        specialty_near: per home, whether the space is within its specialty distance.
        specialty_reach: per home, whether the space is within its specialty reach.
        ring1: whether the space is next to Mecatol Rex.
        quotas: the quotas (by index in the problem) the space counts for.
    """

    share: tuple[tuple[int, ...], ...]
    specialty_near: tuple[bool, ...]
    specialty_reach: tuple[bool, ...]
    ring1: bool
    quotas: tuple[int, ...]


class TileKind(NamedTuple):
    """What the model needs of an ordinary system; systems alike are counted together.

    Attributes:
        pile: its back, "blue" or "red".
        points: per weight set, its value.
        legendary: its legendary planets.
        specialty: whether it has a technology specialty.
        required: whether the problem requires it on the map.
        quotas: the quotas (by index in the problem) it counts for.
    """

    pile: str
    points: tuple[int, ...]
    legendary: int
    specialty: bool
    required: bool
    quotas: tuple[int, ...]


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


def ordinary_model(
    content: Content,
    problem: MapProblem,
    galaxy: Mapping[Pos, TileId],
    *,
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
    return om.solve(
        time_limit_s=time_limit_s, workers=workers, seed=seed, stop=stop, polish_s=polish_s, deadline=deadline
    )


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
        self.spaces: dict[SpaceKind, list[Pos]] = {}
        for p in self.free:
            self.spaces.setdefault(self._space_key(p), []).append(p)
        self.kinds: dict[TileKind, list[TileId]] = {}
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

    def _space_key(self, p: Pos) -> SpaceKind:
        return SpaceKind(
            tuple(tuple(co.get(p, 0) for co in coefs) for coefs in self.coefs_by),
            tuple((h, p) in self.within[0] for h in self.homes),
            tuple((h, p) in self.within[1] for h in self.homes),
            p in self.ring1,
            tuple(i for i, q in enumerate(self.p.quotas) if p in q.positions),
        )

    def _tile_key(self, t: TileId) -> TileKind:
        return TileKind(
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
            m.add(used == len(ts)) if c.required else m.add(used <= len(ts))
        for back, need in (("blue", problem.blue), ("red", problem.red)):
            have = sum(1 for t in kept.values() if tiles[t].pile == back)
            m.add(sum(v for (c, _), v in n.items() if c.pile == back) == need - have)
        for i, q in enumerate(problem.quotas):
            have = sum(1 for p, t in kept.items() if p in q.positions and t in q.tiles)
            m.add(sum(v for (c, k), v in n.items() if i in c.quotas and i in k.quotas) == q.count - have)
        if self.ring1 and not any(tiles[t].pile == "red" for p, t in kept.items() if p in self.ring1):
            m.add(sum(v for (c, k), v in n.items() if c.pile == "red" and k.ring1) >= 1)

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
            *(k.share[j][h] * c.points[j] for c, k in n for j in range(len(parts)) for h in self.homes),
            *self.units,
            10**9,
        )
        lo_all = min(min(0, *cs) // grid for cs in consts)
        top = max(
            (
                consts[j][h]
                + sum(k.share[j][h] * c.points[j] * len(self.spaces[k]) for c, k in n if k.share[j][h])
            )
            // grid
            for j in range(len(parts))
            for h in self.homes
        )
        gaps = []
        for j in range(len(parts)):
            vals = [
                consts[j][h] // grid
                + sum(
                    k.share[j][h] * c.points[j] // grid * v
                    for (c, k), v in n.items()
                    if k.share[j][h] and c.points[j]
                )
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
                spec_count: Any = sum(
                    v
                    for (c, k), v in n.items()
                    if c.specialty and (k.specialty_near, k.specialty_reach)[j][h]
                )
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
            counts.append(
                const + sum(c.legendary * v for (c, k), v in n.items() if c.legendary and k.share[0][h])
            )
        if problem.max_legendary_per_home >= 0:
            for x in counts:
                m.add(x <= problem.max_legendary_per_home)
        if leg_u:
            most, fewest = m.new_int_var(0, 99, "most"), m.new_int_var(0, 99, "fewest")
            m.add_max_equality(most, counts)
            m.add_min_equality(fewest, counts)
            self.extra.append(leg_u // grid * (most - fewest))

    def solve(
        self,
        *,
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
            shares = (self.coefs_by, self.fixed_by)
            moved = polish(
                self.c, problem, full, self.free, shares, seconds=polish_s, rng=random.Random(seed)
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


def polish(
    content: Content,
    problem: MapProblem,
    full: Mapping[Pos, TileId],
    free: Sequence[Pos],
    shares: tuple[Sequence[Sequence[Mapping[Pos, int]]], Sequence[Sequence[int]]],
    *,
    seconds: float,
    rng: random.Random,
) -> dict[Pos, TileId]:
    """A swap descent on the ordinary systems with the shares fixed (two spaces swap their systems,
    or a space takes an unused system of its back; quotas kept): each move changes the home values
    by a product, so thousands are tried in a fraction of a second. Worse moves are taken with a
    falling probability (annealing). ``shares``: :func:`_shares` of ``full``. Returns the ordinary
    systems' new places."""
    swaps = _Swaps(content, problem, full, free, shares)
    gap = swaps.gap_of(swaps.vals)
    best, best_gap = dict(swaps.at), gap
    start = time.perf_counter()
    hot = max(gap / 8, SCALE / 100)  # annealing: a worse move is taken with probability exp(-loss / hot)
    tries = 0
    while best_gap and (tries % 256 or time.perf_counter() < start + seconds):
        tries += 1
        if tries % 256 == 0:
            hot = max(1.0, SCALE / 100 * (1 - (time.perf_counter() - start) / max(seconds, 1e-9)) ** 2)
        move = swaps.propose(rng)
        if move is None:
            continue
        a, b, k, ta, tb, new = move
        g2 = swaps.gap_of(new)
        if g2 > gap and rng.random() >= math.exp((gap - g2) / hot):
            continue
        swaps.swap(a, b, k, tb, ta)
        if swaps.red_gone():  # undo: the five-player red tile next to Mecatol Rex is gone
            swaps.swap(a, b, k, ta, tb)
            continue
        swaps.vals, gap = new, g2
        if gap < best_gap:
            best, best_gap = dict(swaps.at), gap
    return best


Move = tuple[Pos, Pos, int, TileId, TileId, list[int]]
"""A move of the swap descent: ``(a, b, k, ta, tb, values)``: the space ``a`` takes ``tb`` from the
space ``b`` (which takes ``ta``), or, with ``b == -1``, the unused ``tb = spare[k]`` (which ``ta``
replaces among the unused); ``values``: the home values after it."""


class _Swaps:
    """The swap descent's map and home values (:func:`polish`).

    Attributes:
        at: the system on each free space.
        spare: the unused ordinary systems (not required).
        vals: every home's value of every weight set, side by side (weight set ``j``, home ``h`` at
            ``j * homes + h``), in value units.
    """

    def __init__(
        self,
        content: Content,
        problem: MapProblem,
        full: Mapping[Pos, TileId],
        free: Sequence[Pos],
        shares: tuple[Sequence[Sequence[Mapping[Pos, int]]], Sequence[Sequence[int]]],
    ) -> None:
        coefs_by, fixed_by = shares
        self.tiles, parts = content.tiles, problem.measure.parts
        tiles = self.tiles
        self.problem, self.full, self.free = problem, full, free
        self.at = {p: full[p] for p in free}
        used = set(full.values())
        self.spare = [
            t for t in problem.pool if t not in used and not special(content, t) and t not in problem.required
        ]
        self.pts = {t: [tile_points(tiles[t], w) for w in parts] for t in problem.pool}
        self.nh = nh = len(problem.homes)
        self.sets = len(parts)
        self.width = len(parts) * nh  # values of every weight set, side by side
        self.vals = [
            fixed_by[j][h]
            + sum(
                c * tile_points(tiles[full[p]], w)
                for p, c in coefs_by[j][h].items()
                if full.get(p, 0) in tiles
            )
            for j, w in enumerate(parts)
            for h in range(nh)
        ]
        self.col = {p: [coefs_by[j][h].get(p, 0) for j in range(len(parts)) for h in range(nh)] for p in free}
        self.qtile = {t: tuple(i for i, q in enumerate(problem.quotas) if t in q.tiles) for t in problem.pool}
        self.qpos = {p: tuple(i for i, q in enumerate(problem.quotas) if p in q.positions) for p in free}
        self.ring1 = (
            [p for p in content.board.adjacent[0] if p in problem.open] if problem.red_next_to_mecatol else []
        )

    def gap_of(self, v: Sequence[int]) -> int:
        """The widest gap between the best and the worst home of a weight set, of the values ``v``."""
        nh = self.nh
        return max(max(v[j * nh : (j + 1) * nh]) - min(v[j * nh : (j + 1) * nh]) for j in range(self.sets))

    def propose(self, rng: random.Random) -> Move | None:
        """A random move (an unused system in 30% of the time, else a swap of two spaces), or None
        when it is not allowed (another back, a required tile out, other quotas) or changes nothing."""
        tiles, at, spare, pts, col, qtile = self.tiles, self.at, self.spare, self.pts, self.col, self.qtile
        vals, nh = self.vals, self.nh
        a = rng.choice(self.free)
        ta = at[a]
        k, b = -1, -1
        if spare and rng.random() < 0.3:
            k = rng.randrange(len(spare))
            tb = spare[k]
            if tiles[tb].pile != tiles[ta].pile or ta in self.problem.required or qtile[tb] != qtile[ta]:
                return None
            new = [vals[i] + col[a][i] * (pts[tb][i // nh] - pts[ta][i // nh]) for i in range(self.width)]
        else:
            b = rng.choice(self.free)
            tb = at[b]
            if qtile[ta] != qtile[tb] and self.qpos[a] != self.qpos[b]:
                return None
            if pts[ta] == pts[tb]:
                return None
            new = [
                vals[i] + (col[a][i] - col[b][i]) * (pts[tb][i // nh] - pts[ta][i // nh])
                for i in range(self.width)
            ]
        return a, b, k, ta, tb, new

    def swap(self, a: Pos, b: Pos, k: int, to_a: TileId, to_other: TileId) -> None:
        """Put ``to_a`` on ``a`` and ``to_other`` on ``b`` (or, when ``b == -1``, at ``spare[k]``)."""
        if b < 0:
            self.at[a], self.spare[k] = to_a, to_other
        else:
            self.at[a], self.at[b] = to_a, to_other

    def red_gone(self) -> bool:
        """Whether the five-player red tile next to Mecatol Rex is gone (rule: ti4/five-player-red-tile)."""
        at, full, tiles = self.at, self.full, self.tiles
        return bool(self.ring1) and not any(
            tiles[at.get(p, full.get(p, 0))].pile == "red" for p in self.ring1
        )
