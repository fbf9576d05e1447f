"""Twilight Imperium 4 solvers: the most even galaxy and Milty slices (CP-SAT), a map's legality, its
home values, and the setup's score.

Which method, and why:

- **ti4.balanced_map** - CP-SAT. Every open system position gets one tile of the piles, obeying every
  setup rule: the deal's blue and red counts, the five-player speaker's red tile next to Mecatol
  Rex, no neighbouring anomalies and no neighbouring same-type wormholes (rule:
  ti4/anomaly-adjacency, ti4/wormhole-adjacency: the pile always has another option, so none is
  allowed). The objective is the gap between the best and the worst home value of
  ``games.ti4.balance`` - the *same* measure, exactly, in integer units: the movement graph is in
  the model (a boolean "reached within k jumps" per home, space and jump count, with supernovas and
  asteroid fields impassable, nebulas ending movement, the free step out of a gravity rift and the
  wormhole links between whatever wormholes land where), the "nearest home" share is an indicator
  per tie count, and the tile value times the share is a channelled product. So the reported gap is
  the home-value gap of the map returned, and OPTIMAL means no legal map of these tiles has a
  smaller one. Cross-checked against brute force on small instances (tests/ti4/test_solver.py).
- **ti4.milty_slices** - CP-SAT: N slices of three blue and two red tiles within min/max optimal
  resources and influence, wormhole and legendary limits, anomalies placeable apart; minimise the
  gap between the richest and the poorest slice (slice value: ``games.ti4.ai.slice_value``).
- **ti4.check_map** - the legality checker of ``games.ti4.legality`` on a TTS map string.
- **ti4.home_values** - the home value report of a TTS map string.
- **Score** (``register_scorer("ti4")``): each seat's home value with its breakdown.

The community's method (a random legal map improved by swaps, :func:`hill_climb_map`) is here too:
the benchmark (bench/ti4.py) compares it with the CP-SAT builder on the same seeds and measure.
"""

from __future__ import annotations

import itertools
import math
import random
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ortools.sat.python import cp_model

from games.core import Game
from games.errors import ConfigError, LictorError, NotationError
from games.ti4 import TI4Game, TI4State
from games.ti4.ai import slice_value
from games.ti4.balance import (
    IMPASSABLE,
    NEBULA,
    POINTS,
    RIFT,
    SCALE,
    SHARE_UNIT,
    TILE_UNIT,
    Weights,
    home_bonus,
    home_reports,
    home_values,
    movement,
    optimal,
    tile_points,
)
from games.ti4.content import Content, Pos, TileId
from games.ti4.legality import check_map, check_string
from games.ti4.mapstring import format_map_string, parse_map_string
from games.ti4.milty import SLICE_BLUE, SLICE_RED, _arrange, slot_adjacency
from games.ti4.placement import clash
from games.ti4.setup import home_system_tile
from games.ti4.state import OVER, PLACE
from solver.core import (
    ScoreLine,
    ScoreReport,
    SeatScore,
    SolveLimits,
    SolveResult,
    Status,
    check_param_keys,
    register_puzzle,
    register_scorer,
    shown,
)

__all__ = [
    "MapProblem",
    "MapSolution",
    "SliceProblem",
    "balanced_map",
    "brute_force_map",
    "brute_force_slices",
    "gap_of",
    "hill_climb_map",
    "map_problem",
    "random_legal_map",
    "score",
    "solve_map",
    "solve_ordinary",
    "solve_slices",
]

Lit = Any
"""A CP-SAT literal, or a Python bool for a literal known when the model is built."""


# ============================================================================ the map problem


@dataclass(frozen=True, slots=True, kw_only=True)
class MapProblem:
    """Which tiles may go where.

    Attributes:
        players: the player count (3-6).
        spaces: the positions in play (Mecatol Rex, homes, system positions).
        homes: the home positions, by seat.
        open: the system positions to fill.
        fixed: tiles already placed, by position (homes excluded).
        pool: the tiles that may be placed (sorted).
        blue: blue-backed tiles the open positions take.
        red: red-backed tiles the open positions take.
        red_next_to_mecatol: five players: at least one red tile next to Mecatol Rex.
        weights: the home-value weights.
        required: tiles of the pool that must be placed.
        specialty_within: a request on top of the rules: every home has a planet with a technology
            specialty within this many jumps (0: no request).
        max_wormholes_per_home: at most this many wormholes in the systems that count for each home
            (the spread of wormholes; -1: no limit).
        max_legendary_per_home: at most this many legendary planets count for each home (-1: no limit).
        wormhole_spread: weight (value points) of a secondary term of the objective: per unit of the
            spread (most minus fewest) of the wormholes counting for each home (0: not in the objective).
        legendary_spread: weight of the spread of the legendary planets counting for each home.
        specialty_missing: weight per home without a technology specialty within ``specialty_reach``
            jumps ("no seat without a specialty" as a soft term; ``specialty_within`` is the hard one).
        specialty_reach: the jumps of ``specialty_missing``.
        home_tiles: the tile standing in each seat's home position (its faction's home system, or the
            Creuss Gate), when the factions are known; each counts for its seat at ``weights.home``
            (rule: ti4/factions). Empty: home systems unknown, counted for nobody.
    """

    players: int
    spaces: tuple[Pos, ...]
    homes: tuple[Pos, ...]
    open: tuple[Pos, ...]
    fixed: Mapping[Pos, TileId]
    pool: tuple[TileId, ...]
    blue: int
    red: int
    red_next_to_mecatol: bool
    weights: Weights = field(default_factory=Weights)
    required: tuple[TileId, ...] = ()
    specialty_within: int = 0
    max_wormholes_per_home: int = -1
    max_legendary_per_home: int = -1
    wormhole_spread: float = 0.0
    legendary_spread: float = 0.0
    specialty_missing: float = 0.0
    specialty_reach: int = 2
    home_tiles: tuple[TileId, ...] = ()

    def term_units(self) -> tuple[int, int, int]:
        """The secondary weights in home-value units (x SCALE): wormhole, legendary, specialty."""
        out = []
        for name in ("wormhole_spread", "legendary_spread", "specialty_missing"):
            x = getattr(self, name)
            pts = round(x * POINTS)
            if abs(pts - x * POINTS) > 1e-9 or not 0 <= pts <= 100 * POINTS:
                raise ConfigError(
                    f"{name} must be a multiple of 0.05 between 0 and 100, not {x!r}", field=name
                )
            out.append(pts * (SCALE // POINTS))
        return out[0], out[1], out[2]

    @property
    def weighted(self) -> bool:
        """Whether the objective has secondary terms."""
        return any(self.term_units())


@dataclass(frozen=True, slots=True, kw_only=True)
class MapSolution:
    """A galaxy built for a :class:`MapProblem`.

    Attributes:
        galaxy: the tile at each system position (fixed and placed).
        values: each home's value (value points).
        gap: best minus worst home value.
        bound: the proven lower bound on the objective (the gap when there are no secondary terms).
        status: OPTIMAL, FEASIBLE, INFEASIBLE or UNKNOWN.
        objective: the gap plus the weighted secondary terms (value points).
        terms: the secondary terms' counts: wormhole spread, legendary spread, homes without a
            specialty within ``specialty_reach`` jumps.
    """

    galaxy: Mapping[Pos, TileId]
    values: tuple[float, ...]
    gap: float
    bound: float
    status: Status
    objective: float = 0.0
    terms: Mapping[str, int] = field(default_factory=dict)


def map_problem(
    content: Content,
    *,
    players: int,
    expansion: str = "base",
    weights: Weights | None = None,
    fixed: Mapping[Pos, TileId] | None = None,
    pool: Sequence[TileId] | None = None,
) -> MapProblem:
    """The rulebook galaxy for ``players`` with every system position open (or ``fixed`` ones set).

    rule: ti4/deal-system-tiles - the blue and red counts of the deal; rule: ti4/five-player-red-tile.
    """
    layout = content.board.layouts[players]
    fixed = dict(fixed or {})
    open_ = tuple(p for p in layout.systems if p not in fixed)
    tiles = content.tiles
    blue_fixed = sum(1 for t in fixed.values() if tiles[t].pile == "blue")
    red_fixed = sum(1 for t in fixed.values() if tiles[t].pile == "red")
    if pool is None:
        pool = [
            t
            for t in (*content.pile("blue", expansion), *content.pile("red", expansion))
            if t not in fixed.values()
        ]
    return MapProblem(
        players=players,
        spaces=(0, *layout.homes, *layout.systems),
        homes=layout.homes,
        open=open_,
        fixed=fixed,
        pool=tuple(sorted(set(pool))),
        blue=players * layout.blue - blue_fixed,
        red=players * layout.red + layout.extra_red - red_fixed,
        red_next_to_mecatol=bool(layout.extra_red),
        weights=weights or Weights(),
    )


def _values(content: Content, problem: MapProblem, galaxy: Mapping[Pos, TileId]) -> list[int]:
    """Each home's value times SCALE (``games.ti4.balance.home_values``, with the home systems of
    ``problem.home_tiles`` counted for their seats at ``weights.home``)."""
    vals = home_values(
        content.board, {0: 18, **galaxy}, problem.homes, content.tiles, problem.weights, spaces=problem.spaces
    )
    return [v + b for v, b in zip(vals, _bonus(content, problem), strict=True)]


def _bonus(content: Content, problem: MapProblem) -> list[int]:
    """Each seat's own home system's share of its value times SCALE (0 without ``home_tiles``)."""
    if not problem.home_tiles:
        return [0] * len(problem.homes)
    return [home_bonus(t, content.tiles, problem.weights) for t in problem.home_tiles]


def gap_of(content: Content, problem: MapProblem, galaxy: Mapping[Pos, TileId]) -> float:
    """Best minus worst home value of ``galaxy`` (value points)."""
    v = _values(content, problem, galaxy)
    return (max(v) - min(v)) / SCALE


def legal_galaxy(content: Content, problem: MapProblem, galaxy: Mapping[Pos, TileId]) -> bool:
    """Whether ``galaxy`` fills every open position obeying the setup rules the builder enforces."""
    tiles = content.tiles
    placed = [galaxy.get(p, 0) for p in problem.open]
    if 0 in placed or len(set(placed)) != len(placed) or not set(placed) <= set(problem.pool):
        return False
    if not set(problem.required) <= set(placed):
        return False
    if sum(1 for t in placed if tiles[t].pile == "blue") != problem.blue:
        return False
    if sum(1 for t in placed if tiles[t].pile == "red") != problem.red:
        return False
    full = {**problem.fixed, **galaxy}
    if problem.red_next_to_mecatol and not any(
        tiles[full[p]].pile == "red" for p in content.board.adjacent[0] if p in full
    ):
        return False
    for p in problem.open:
        for q in content.board.adjacent[p]:
            if q in full and clash(tiles[full[p]], tiles[full[q]]):
                return False
    return specialties_ok(content, problem, full) and spread_ok(content, problem, full)


def _legendary(content: Content, t: TileId) -> int:
    return sum(1 for p in content.tiles[t].planets if p.legendary)


def _wormhole_count(content: Content) -> Callable[[TileId], int]:
    def count(t: TileId) -> int:
        return len(content.tiles[t].wormholes)

    return count


def _legendary_count(content: Content) -> Callable[[TileId], int]:
    def count(t: TileId) -> int:
        return _legendary(content, t)

    return count


def spread_ok(content: Content, problem: MapProblem, galaxy: Mapping[Pos, TileId]) -> bool:
    """The requests ``max_wormholes_per_home`` and ``max_legendary_per_home`` (systems that count for
    a home: those with a share of its value, as ``balance.home_reports`` counts them)."""
    from games.ti4.balance import _prepare, coefficients

    worm_cap, leg_cap = problem.max_wormholes_per_home, problem.max_legendary_per_home
    if worm_cap < 0 and leg_cap < 0:
        return True
    full = {0: 18, **galaxy}
    tiles = content.tiles
    moves, counted, _ = _prepare(
        content.board, full, problem.homes, tiles, problem.weights, 0, problem.spaces
    )
    for co in coefficients(content.board, moves, problem.homes, counted, problem.weights):
        mine = [full[p] for p, c in co.items() if c and full.get(p, 0) in tiles]
        if worm_cap >= 0 and sum(len(tiles[t].wormholes) for t in mine) > worm_cap:
            return False
        if leg_cap >= 0 and sum(_legendary(content, t) for t in mine) > leg_cap:
            return False
    return True


def _has_specialty(content: Content, t: TileId) -> bool:
    return any(p.specialty for p in content.tiles[t].planets)


def specialties_ok(content: Content, problem: MapProblem, galaxy: Mapping[Pos, TileId]) -> bool:
    """The request ``specialty_within``: every home reaches a technology specialty within that many
    jumps (by real movement, as the home value counts them)."""
    from games.ti4.balance import _prepare, distances, edges

    k = problem.specialty_within
    if not k:
        return True
    full = {0: 18, **galaxy}
    moves, _, _ = _prepare(
        content.board, full, problem.homes, content.tiles, problem.weights, 0, problem.spaces
    )
    graph = edges(content.board, moves, problem.weights)
    for h in problem.homes:
        near = distances(content.board, moves, h, problem.weights, limit=k, graph=graph)
        if not any(
            p != h and p in full and full[p] in content.tiles and _has_specialty(content, full[p])
            for p in near
        ):
            return False
    return True


def secondary_terms(content: Content, problem: MapProblem, galaxy: Mapping[Pos, TileId]) -> dict[str, int]:
    """The secondary terms' counts of ``galaxy``: ``wormhole_spread`` and ``legendary_spread`` (most
    minus fewest wormholes / legendary planets in the systems that count for a home) and
    ``specialty_missing`` (homes without a technology specialty within ``specialty_reach`` jumps)."""
    from games.ti4.balance import _prepare, coefficients, distances, edges

    full = {0: 18, **problem.fixed, **galaxy}
    tiles, w = content.tiles, problem.weights
    moves, counted, _ = _prepare(content.board, full, problem.homes, tiles, w, 0, problem.spaces)
    worms, legs = [], []
    for co in coefficients(content.board, moves, problem.homes, counted, w):
        mine = [full[p] for p, c in co.items() if c and full.get(p, 0) in tiles]
        worms.append(sum(len(tiles[t].wormholes) for t in mine))
        legs.append(sum(_legendary(content, t) for t in mine))
    graph = edges(content.board, moves, w)
    missing = 0
    for h in problem.homes:
        near = distances(content.board, moves, h, w, limit=problem.specialty_reach, graph=graph)
        missing += not any(
            p != h and full.get(p, 0) in tiles and _has_specialty(content, full[p]) for p in near
        )
    return {
        "wormhole_spread": max(worms) - min(worms),
        "legendary_spread": max(legs) - min(legs),
        "specialty_missing": missing,
    }


def objective_units(content: Content, problem: MapProblem, galaxy: Mapping[Pos, TileId]) -> int:
    """The builder's objective of ``galaxy`` times SCALE (exact): the home-value gap plus each secondary
    term's count times its weight."""
    vals = _values(content, problem, {**problem.fixed, **galaxy})
    out = max(vals) - min(vals)
    if problem.weighted:
        terms = secondary_terms(content, problem, galaxy)
        units = problem.term_units()
        out += sum(u * terms[k] for u, k in zip(units, TERMS, strict=True))
    return out


TERMS = ("wormhole_spread", "legendary_spread", "specialty_missing")
"""The secondary terms, in the order of ``MapProblem.term_units``."""


# ============================================================================ the CP-SAT model


def _profile(content: Content, problem: MapProblem, t: TileId) -> tuple[Any, ...]:
    """All the builder sees of a tile: its back, value, movement, wormholes, anomaly, legendary
    planets, specialty and whether it is required."""
    tile, w = content.tiles[t], problem.weights
    return (
        tile.pile,
        tile_points(tile, w),
        movement(tile, w).kind,
        tuple(sorted(tile.wormholes)),
        tile.is_anomaly,
        _legendary(content, t),
        _has_specialty(content, t),
        t in problem.required,
    )


def _twins(content: Content, problem: MapProblem) -> list[list[TileId]]:
    """Groups of pool tiles with the same :func:`_profile` (interchangeable: the empty red systems, the
    two asteroid fields...), each sorted, of two tiles or more."""
    groups: dict[tuple[Any, ...], list[TileId]] = {}
    for t in problem.pool:
        groups.setdefault(_profile(content, problem, t), []).append(t)
    return [sorted(g) for g in groups.values() if len(g) > 1]


def canonical(content: Content, problem: MapProblem, galaxy: Mapping[Pos, TileId]) -> dict[Pos, TileId]:
    """``galaxy`` with interchangeable tiles renumbered into the builder's symmetry-breaking order
    (the same map for the rules and the measure)."""
    out = dict(galaxy)
    rank = {p: i for i, p in enumerate(problem.open)}
    for group in _twins(content, problem):
        spots = sorted((p for p in problem.open if out.get(p) in group), key=rank.__getitem__)
        for p, t in zip(spots, group, strict=False):
            out[p] = t
    return out


class _Logic:
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


def _kind_is(content: Content, w: Weights, kind: int) -> Callable[[TileId], bool]:
    """Whether a tile's movement class is ``kind``."""

    def pred(t: TileId) -> bool:
        return movement(content.tiles[t], w).kind == kind

    return pred


def _links(content: Content, w: Weights | None, wormhole: str) -> Callable[[TileId], bool]:
    """Whether a tile has ``wormhole`` (and, with weights, ships can pass it: a link of movement)."""

    def pred(t: TileId) -> bool:
        tile = content.tiles[t]
        return wormhole in tile.wormholes and (w is None or movement(tile, w).kind != IMPASSABLE)

    return pred


class _MapModel:
    """The CP-SAT model of a :class:`MapProblem` (see the module docstring)."""

    def __init__(self, content: Content, problem: MapProblem) -> None:
        self.c, self.p = content, problem
        self.m = cp_model.CpModel()
        self.lg = _Logic(self.m)
        tiles, w = content.tiles, problem.weights
        self.x = {(t, p): self.m.new_bool_var(f"x{t}_{p}") for t in problem.pool for p in problem.open}
        for p in problem.open:
            self.m.add_exactly_one(self.x[t, p] for t in problem.pool)
        for t in problem.pool:
            if t in problem.required:
                self.m.add_exactly_one(self.x[t, p] for p in problem.open)
            else:
                self.m.add_at_most_one(self.x[t, p] for p in problem.open)
        for back, need in (("blue", problem.blue), ("red", problem.red)):
            self.m.add(sum(v for (t, _), v in self.x.items() if tiles[t].pile == back) == need)
        self.kind: dict[Pos, dict[int, Lit]] = {}
        self.worm: dict[Pos, dict[str, Lit]] = {}
        types = sorted({wh for t in (*problem.pool, *problem.fixed.values()) for wh in tiles[t].wormholes})
        for p in range(len(content.board.rings)):
            self.kind[p] = {k: self._has(p, _kind_is(content, w, k)) for k in range(4)}
            self.worm[p] = {wh: self._has(p, _links(content, w, wh)) for wh in types}
        self.types = types
        self.extra: list[Any] = []
        """The weighted secondary terms of the objective (home-value units)."""
        self._rules()
        self._symmetry()
        self.values = self._home_values()

    def _symmetry(self) -> None:
        """Symmetry breaking: tiles the rules and the measure cannot tell apart (:func:`_twins`) are
        used in number order and placed in position order."""
        rank = {p: i + 1 for i, p in enumerate(self.p.open)}
        for group in _twins(self.c, self.p):
            for a, b in itertools.pairwise(group):
                used_a = sum(self.x[a, p] for p in self.p.open)
                used_b = sum(self.x[b, p] for p in self.p.open)
                self.m.add(used_b <= used_a)
                at_a = sum(rank[p] * self.x[a, p] for p in self.p.open)
                at_b = sum(rank[p] * self.x[b, p] for p in self.p.open)
                flag = self.m.new_bool_var("")
                self.m.add(used_b == 1).only_enforce_if(flag)
                self.m.add(used_b == 0).only_enforce_if(flag.Not())
                self.m.add(at_a < at_b).only_enforce_if(flag)

    def _has(self, p: Pos, pred: Callable[[TileId], bool]) -> Lit:
        """Whether position ``p`` holds a tile with ``pred`` (a literal)."""
        prob = self.p
        if p not in prob.spaces:
            return False
        if p in prob.fixed:
            return pred(prob.fixed[p])
        if p not in prob.open:
            return False  # Mecatol Rex and the homes: ordinary, no wormhole here
        return self.lg.sum_lit([self.x[t, p] for t in prob.pool if pred(t)])

    def imp(self, p: Pos) -> Lit:
        """Whether ``p`` cannot be entered (outside the galaxy, supernova, asteroid field)."""
        return True if p not in self.p.spaces else self.kind[p][IMPASSABLE]

    def _rules(self) -> None:
        """rule: ti4/anomaly-adjacency, ti4/wormhole-adjacency, ti4/five-player-red-tile."""
        tiles, prob, adj = self.c.tiles, self.p, self.c.board.adjacent
        anomaly = {p: self._has(p, lambda t: tiles[t].is_anomaly) for p in prob.spaces}
        worm_any = {p: {wh: self._has(p, _links(self.c, None, wh)) for wh in self.types} for p in prob.spaces}
        for p in prob.open:
            for q in adj[p]:
                if q not in prob.spaces or (q in prob.open and q < p):
                    continue
                for a, b in [(anomaly[p], anomaly[q])] + [
                    (worm_any[p][wh], worm_any[q][wh]) for wh in self.types
                ]:
                    self._not_both(a, b)
        if prob.red_next_to_mecatol:
            ring1 = [p for p in adj[0] if p in prob.spaces]
            if not any(tiles[prob.fixed[p]].pile == "red" for p in ring1 if p in prob.fixed):
                self.m.add_bool_or(
                    [
                        self.x[t, p]
                        for p in ring1
                        if p in prob.open
                        for t in prob.pool
                        if tiles[t].pile == "red"
                    ]
                )

    def _not_both(self, a: Lit, b: Lit) -> None:
        """Not ``a`` and ``b`` together."""
        if a is False or b is False:
            return
        if a is True and b is True:
            self.m.add_bool_or([False])
        elif a is True or b is True:
            self.m.add((b if a is True else a) == 0)
        else:
            self.m.add_bool_or([a.Not(), b.Not()])

    def _reach(self, home: Pos) -> list[dict[Pos, Lit]]:
        """``r[k][p]``: whether ``p`` is within ``k`` jumps of ``home`` (0..reach), by real movement."""
        lg, prob, w, adj = self.lg, self.p, self.p.weights, self.c.board.adjacent
        spaces = [p for p in range(len(self.c.board.rings)) if p in prob.spaces]
        reach = max(w.reach, prob.specialty_within, prob.specialty_reach if prob.weighted else 0)
        r: list[dict[Pos, Lit]] = [{p: p == home for p in spaces}]
        out: list[dict[Pos, Lit]] = [{p: False for p in spaces}]
        for k in range(1, reach + 1):
            # a step out of q lands within k jumps: leave a nebula at 1 + nebula_exit jumps, else 1
            exit_k: dict[Pos, Lit] = {}
            for q in spaces:
                neb = self.kind[q][NEBULA]
                terms = [lg.and_([r[k - 1][q], lg.not_(neb)])]
                if k - 1 - w.nebula_exit >= 0:
                    terms.append(lg.and_([r[k - 1 - w.nebula_exit][q], neb]))
                exit_k[q] = lg.or_(terms)
            gate = {wh: lg.or_([lg.and_([exit_k[q], self.worm[q][wh]]) for q in spaces]) for wh in self.types}
            level: dict[Pos, Lit] = {}
            for p in spaces:
                if p == home:
                    level[p] = True
                    continue
                sup = [exit_k[q] for q in adj[p] if q in exit_k] + [
                    lg.and_([gate[wh], self.worm[p][wh]]) for wh in self.types
                ]
                level[p] = lg.and_([lg.not_(self.imp(p)), lg.or_(sup)])
            if w.rift_bonus:  # the step out of a gravity rift is free (to a space that is no rift)
                free = {q: lg.and_([level[q], self.kind[q][RIFT]]) for q in spaces}
                zgate = {
                    wh: lg.or_([lg.and_([free[q], self.worm[q][wh]]) for q in spaces]) for wh in self.types
                }
                for p in spaces:
                    if p == home:
                        continue
                    zs = [free[q] for q in adj[p] if q in free] + [
                        lg.and_([zgate[wh], self.worm[p][wh]]) for wh in self.types
                    ]
                    extra = lg.and_([lg.not_(self.imp(p)), lg.not_(self.kind[p][RIFT]), lg.or_(zs)])
                    level[p] = lg.or_([level[p], extra])
            for p in spaces:
                a, b = r[k - 1][p], level[p]
                if not isinstance(a, bool) and not isinstance(b, bool):
                    self.m.add_implication(a, b)
            r.append(level)
            out.append(exit_k)
        return r

    def _home_values(self) -> list[Any]:
        """Each home's value times SCALE: the nearest homes share a space's value by its distance."""
        lg, prob, w, tiles = self.lg, self.p, self.p.weights, self.c.tiles
        homes = prob.homes
        reach = [self._reach(h) for h in homes]
        self._specialty_request(reach)
        wp = w.distance_points()
        counted = [p for p in prob.spaces if p and p not in homes]
        n = len(homes)
        totals: list[list[Any]] = [[] for _ in homes]
        counts_for: dict[tuple[int, Pos], list[Lit]] = {}
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
                if all(x is False for x in near):
                    continue
                share = self._share(near, tv, top, wp[m - 1], w.share == "all")
                if wp[m - 1]:
                    for h in range(n):
                        counts_for.setdefault((h, p), []).append(near[h])
                for h in range(n):
                    totals[h].append(self._times(near[h], share, top * wp[m - 1] * SHARE_UNIT))
        self._spread(counts_for)
        return [sum(t) + b for t, b in zip(totals, _bonus(self.c, prob), strict=True)]

    def _spread(self, counts_for: Mapping[tuple[int, Pos], Sequence[Lit]]) -> None:
        """The requests ``max_wormholes_per_home`` and ``max_legendary_per_home`` (hard caps) and the
        weighted ``wormhole_spread`` and ``legendary_spread`` terms of the objective."""
        prob = self.p
        worm_u, leg_u, _ = prob.term_units()
        for cap, unit, count in (
            (prob.max_wormholes_per_home, worm_u, _wormhole_count(self.c)),
            (prob.max_legendary_per_home, leg_u, _legendary_count(self.c)),
        ):
            if cap < 0 and not unit:
                continue
            per_home: list[Any] = []
            for h in range(len(prob.homes)):
                const, terms = 0, []
                for (k, p), lits in counts_for.items():
                    mine = self.lg.or_(list(lits)) if k == h else False
                    if mine is False:
                        continue
                    cells = (
                        [(prob.fixed[p], True)] if p in prob.fixed else [(t, self.x[t, p]) for t in prob.pool]
                    )
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
                most, fewest = self.m.new_int_var(0, 99, ""), self.m.new_int_var(0, 99, "")
                self.m.add_max_equality(most, per_home)
                self.m.add_min_equality(fewest, per_home)
                self.extra.append(unit * (most - fewest))

    def _specialty_request(self, reach: Sequence[Sequence[Mapping[Pos, Lit]]]) -> None:
        """The request ``specialty_within`` (a specialty planet within k jumps of every home) and the
        weighted ``specialty_missing`` term (a unit per home without one within ``specialty_reach``)."""
        prob = self.p
        unit = prob.term_units()[2]
        spec = {
            p: self._has(p, lambda t: _has_specialty(self.c, t))
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


def _solve_stoppable(
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


_STATUS = {
    cp_model.OPTIMAL: Status.OPTIMAL,
    cp_model.FEASIBLE: Status.FEASIBLE,
    cp_model.INFEASIBLE: Status.INFEASIBLE,
}


def precheck_map(content: Content, problem: MapProblem) -> str:
    """Why ``problem`` has no answer ("" when the counts allow one): names the setting to change."""
    tiles = content.tiles
    have = {b: sum(1 for t in problem.pool if tiles[t].pile == b) for b in ("blue", "red")}
    for back, need in (("blue", problem.blue), ("red", problem.red)):
        if have[back] < need:
            return (
                f"{problem.players} players need {need} {back}-backed tiles in the open positions but the "
                f"pool holds {have[back]}: use the 'pok' expansion or include fewer exclusions"
            )
    if problem.blue + problem.red != len(problem.open):
        return f"{len(problem.open)} open positions but the deal fills {problem.blue + problem.red}"
    return ""


def _full_hint(mm: _MapModel, hint: Mapping[Pos, TileId]) -> None:
    """Hint every variable: the tiles of ``hint`` fixed in a copy of the model, the rest propagated."""
    fixed = mm.m.clone()
    for (t, p), v in mm.x.items():
        fixed.add(fixed.get_bool_var_from_proto_index(v.index) == int(hint.get(p) == t))
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = 2.0
    solver.parameters.num_workers = 1
    if solver.solve(fixed) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        for (t, p), v in mm.x.items():
            mm.m.add_hint(v, hint.get(p) == t)
        return
    values = solver.response_proto.solution
    mm.m.proto.solution_hint.vars.extend(range(len(values)))
    mm.m.proto.solution_hint.values.extend(values)


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
    """The galaxy with the smallest objective: the home-value gap plus the weighted secondary terms.

    Up to :data:`LNS_OPEN` open positions: the complete CP-SAT model (OPTIMAL is a proof). A full
    galaxy: the decomposition of :func:`_decompose` (an exact CP-SAT assignment of the ordinary
    systems under a local search over where the anomalies and wormholes go); its answer is OPTIMAL
    when it reaches 0, the least possible value. ``warm_start``: the share of the time the
    hill-climber spends first on a full galaxy (0: a random legal map); ``hint``: a first answer
    given by the caller instead. The answer is never worse than the first answer. ``presolve``:
    CP-SAT's presolve on the complete model (None: only with 20 s or more).
    """
    start = time.perf_counter()
    if precheck_map(content, problem):
        return MapSolution(galaxy={}, values=(), gap=0.0, bound=0.0, status=Status.INFEASIBLE)
    if len(problem.open) > LNS_OPEN:
        if hint is None:
            hint = _first_answer(content, problem, seed, warm_start * time_limit_s, stop)
        if not hint or not legal_galaxy(content, problem, {**problem.fixed, **hint}):
            hint = None
        deadline = start + time_limit_s
        split = start + (1 - lns_share) * time_limit_s
        found = _decompose(content, problem, hint, deadline=split, workers=workers, seed=seed, stop=stop)
        left = max(0.05, deadline - time.perf_counter())
        if found is None:  # no legal map by local search: the complete model decides (INFEASIBLE...)
            return _solve_full(content, problem, None, left, workers, seed, stop, presolve)
        galaxy, units = found
        if units == 0 or lns_share <= 0 or left < LNS_MIN_S:  # (the complete model takes ~1 s to build)
            return _known(content, problem, galaxy, Status.OPTIMAL if units == 0 else Status.FEASIBLE)
        return _solve_full(content, problem, galaxy, left, workers, seed, stop, presolve, lns=True)
    return _solve_full(content, problem, hint, time_limit_s, workers, seed, stop, presolve)


def _solve_full(  # noqa: PLR0917
    content: Content,
    problem: MapProblem,
    hint: Mapping[Pos, TileId] | None,
    time_limit_s: float,
    workers: int,
    seed: int,
    stop: Callable[[], bool] | None,
    presolve: bool | None,
    *,
    lns: bool = False,
) -> MapSolution:
    """The complete CP-SAT model (``lns``: large neighbourhood search only, from ``hint``), with the
    redundant average bounds (the best home is at least the mean, the worst at most) and the
    weighted secondary terms."""
    start = time.perf_counter()
    mm = _MapModel(content, problem)
    hi = mm.m.new_int_var(-(10**9), 10**9, "best")
    lo = mm.m.new_int_var(-(10**9), 10**9, "worst")
    mm.m.add_max_equality(hi, mm.values)
    mm.m.add_min_equality(lo, mm.values)
    n = len(mm.values)
    mm.m.add(n * hi >= sum(mm.values))
    mm.m.add(n * lo <= sum(mm.values))
    mm.m.minimize(hi - lo + sum(mm.extra))
    if hint is None:
        hint = _first_answer(content, problem, seed, 0.0, stop)
    if hint and legal_galaxy(content, problem, {**problem.fixed, **hint}):
        first = _known(content, problem, hint, Status.FEASIBLE)
        if first.objective == 0:  # 0 is the least possible: proven
            return replace(first, status=Status.OPTIMAL, bound=0.0)
        _full_hint(mm, canonical(content, problem, {**problem.fixed, **hint}))
    left = time_limit_s - (time.perf_counter() - start)
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = max(0.05, float(left))
    solver.parameters.num_workers = max(1, int(workers))
    solver.parameters.random_seed = int(seed) % (2**31)
    solver.parameters.cp_model_presolve = time_limit_s >= 20.0 if presolve is None else presolve
    solver.parameters.use_lns_only = lns
    code = _solve_stoppable(solver, mm.m, stop)
    status = _STATUS.get(code, Status.UNKNOWN)
    if status not in (Status.OPTIMAL, Status.FEASIBLE):
        if status == Status.UNKNOWN and hint and legal_galaxy(content, problem, {**problem.fixed, **hint}):
            return _known(content, problem, hint, Status.FEASIBLE)
        return MapSolution(galaxy={}, values=(), gap=0.0, bound=0.0, status=status)
    return _read_map(content, problem, mm, solver, status)


def _known(
    content: Content, problem: MapProblem, galaxy: Mapping[Pos, TileId], status: Status
) -> MapSolution:
    """A :class:`MapSolution` of a map whose objective is proven by nothing but itself: the bound is
    the objective when it is 0 (nothing is below 0), else 0."""
    full = {**problem.fixed, **galaxy}
    vals = _values(content, problem, full)
    gap = (max(vals) - min(vals)) / SCALE
    units = objective_units(content, problem, full)
    return MapSolution(
        galaxy=full,
        values=tuple(v / SCALE for v in vals),
        gap=gap,
        bound=0.0,
        status=Status.OPTIMAL if units == 0 else status,
        objective=units / SCALE,
        terms=secondary_terms(content, problem, full),
    )


def _read_map(
    content: Content, problem: MapProblem, mm: _MapModel, solver: cp_model.CpSolver, status: Status
) -> MapSolution:
    """The map of a CP-SAT answer, its values and objective checked against the measure to the unit."""
    galaxy = dict(problem.fixed)
    for (t, p), v in mm.x.items():
        if solver.value(v):
            galaxy[p] = t
    vals = _values(content, problem, galaxy)
    model_vals = [solver.value(v) if not isinstance(v, int) else v for v in mm.values]
    if model_vals != vals:  # the model is the measure, to the unit (tests check it on many maps)
        raise LictorError(f"internal: the CP-SAT values {model_vals} differ from the measure {vals}")
    units = objective_units(content, problem, galaxy)
    if round(solver.objective_value) != units:
        raise LictorError(f"internal: the CP-SAT objective {solver.objective_value} differs from {units}")
    if units == 0:
        status = Status.OPTIMAL  # nothing is below 0
    bound = units if status == Status.OPTIMAL else max(0.0, solver.best_objective_bound)
    return MapSolution(
        galaxy=galaxy,
        values=tuple(v / SCALE for v in vals),
        gap=(max(vals) - min(vals)) / SCALE,
        bound=min(bound, units) / SCALE,
        status=status,
        objective=units / SCALE,
        terms=secondary_terms(content, problem, galaxy),
    )


LNS_OPEN = 12
LNS_MIN_S = 1.0
"""The least time left for the final large neighbourhood search on the complete model."""
"""Above this many open positions the builder decomposes (:func:`_decompose`); smaller problems get
the complete CP-SAT model (OPTIMAL proofs, as in the brute-force cross-checks)."""


def _special(content: Content, t: TileId) -> bool:
    """Whether a tile changes movement or adjacency rules (an anomaly or a wormhole)."""
    tile = content.tiles[t]
    return tile.is_anomaly or bool(tile.wormholes)


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
    (``balance.coefficients``), so the model is linear; and it is *aggregated*: spaces with the same
    shares (and the same part in the requests) form a class, tiles with the same back, value,
    legendary planets, specialty and requirement form a class, and the variables are how many tiles
    of each tile class go to each space class. Interchangeable tiles and spaces leave no symmetry
    to search through, and the redundant average bounds (best >= mean >= worst) tighten the
    relaxation.
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


def _ordinary_model(  # noqa: PLR0917, PLR0912, PLR0915
    content: Content,
    problem: MapProblem,
    galaxy: Mapping[Pos, TileId],
    time_limit_s: float,
    workers: int,
    seed: int,
    stop: Callable[[], bool] | None,
    polish_s: float = 0.0,
) -> dict[Pos, TileId] | None:
    """The aggregated model of :func:`solve_ordinary`: the new legal map, or None (none found)."""
    from games.ti4.balance import _prepare, coefficients, distances, edges

    tiles, w = content.tiles, problem.weights
    full = {0: 18, **problem.fixed, **galaxy}
    moves, counted, _ = _prepare(content.board, full, problem.homes, tiles, w, 0, problem.spaces)
    coefs = coefficients(content.board, moves, problem.homes, counted, w)
    free = [p for p in problem.open if not _special(content, full[p])]
    kept = {p: full[p] for p in problem.open if p not in free}
    worm_u, leg_u, spec_u = problem.term_units()
    graph = edges(content.board, moves, w)
    within: list[set[Pos]] = [set(), set()]  # per request: (home, space) pairs as home * 100 + space
    for j, jumps in enumerate((problem.specialty_within, problem.specialty_reach if spec_u else 0)):
        if jumps:
            for h, home in enumerate(problem.homes):
                near = distances(content.board, moves, home, w, limit=jumps, graph=graph)
                within[j] |= {h * 100 + p for p in near if p != home}
    ring1 = set(content.board.adjacent[0]) if problem.red_next_to_mecatol else set()
    homes = range(len(problem.homes))

    def space_key(p: Pos) -> tuple[Any, ...]:
        return (
            tuple(co.get(p, 0) for co in coefs),
            tuple(h * 100 + p in within[0] for h in homes),
            tuple(h * 100 + p in within[1] for h in homes),
            p in ring1,
        )

    spaces: dict[tuple[Any, ...], list[Pos]] = {}
    for p in free:
        spaces.setdefault(space_key(p), []).append(p)
    kinds: dict[tuple[Any, ...], list[TileId]] = {}
    for t in problem.pool:
        if not _special(content, t) and t not in kept.values():
            prof = _profile(content, problem, t)
            kinds.setdefault((prof[0], prof[1], prof[5], prof[6], prof[7]), []).append(t)
    m = cp_model.CpModel()
    n = {
        (c, k): m.new_int_var(0, min(len(ts), len(ps)), "")
        for c, ts in kinds.items()
        for k, ps in spaces.items()
    }
    for k, ps in spaces.items():
        m.add(sum(n[c, k] for c in kinds) == len(ps))
    for c, ts in kinds.items():
        used = sum(n[c, k] for k in spaces)
        m.add(used == len(ts)) if c[4] else m.add(used <= len(ts))
    for back, need in (("blue", problem.blue), ("red", problem.red)):
        have = sum(1 for t in kept.values() if tiles[t].pile == back)
        m.add(sum(v for (c, _), v in n.items() if c[0] == back) == need - have)
    if ring1 and not any(tiles[t].pile == "red" for p, t in kept.items() if p in ring1):
        m.add(sum(v for (c, k), v in n.items() if c[0] == "red" and k[3]) >= 1)
    consts = [
        b
        + sum(
            c * tile_points(tiles[full[p]], w)
            for p, c in co.items()
            if p not in free and full.get(p, 0) in tiles
        )
        for co, b in zip(coefs, _bonus(content, problem), strict=True)
    ]
    # a coarser exact grid: every value is a multiple of the gcd of the constants, the products and
    # the secondary weights; counting in gcds keeps the numbers (and the objective's domain) small
    grid = math.gcd(*consts, *(k[0][h] * c[1] for c, k in n for h in homes), worm_u, leg_u, spec_u, 10**9)
    values = [
        consts[h] // grid + sum(k[0][h] * c[1] // grid * v for (c, k), v in n.items() if k[0][h] and c[1])
        for h in homes
    ]
    top = max(
        (consts[h] + sum(k[0][h] * c[1] * len(spaces[k]) for c, k in n if k[0][h])) // grid for h in homes
    )
    hi, lo = m.new_int_var(0, top, ""), m.new_int_var(0, top, "")
    for v in values:  # (inequalities, not max/min equalities: their domains swamp the presolve)
        m.add(hi >= v)
        m.add(lo <= v)
    m.add(len(values) * hi >= sum(values))
    m.add(len(values) * lo <= sum(values))
    extra: list[Any] = []
    if worm_u:
        extra.append(worm_u // grid * secondary_terms(content, problem, galaxy)["wormhole_spread"])
    for j, unit in ((0, problem.specialty_within), (1, spec_u)):
        if not unit:
            continue
        reach_k = problem.specialty_within if j == 0 else problem.specialty_reach
        for h, home in enumerate(problem.homes):
            near = distances(content.board, moves, home, w, limit=reach_k, graph=graph)
            if any(p in kept and _has_specialty(content, kept[p]) for p in near if p != home):
                continue
            spec_count: Any = sum(v for (c, k), v in n.items() if c[3] and k[1 + j][h])
            if j == 0:
                m.add(spec_count >= 1)
            else:
                miss = m.new_bool_var("")
                m.add(spec_count >= 1).only_enforce_if(miss.Not())
                extra.append(unit // grid * miss)
    if problem.max_legendary_per_home >= 0 or leg_u:
        counts = []
        for h, co in enumerate(coefs):
            const = sum(_legendary(content, kept[p]) for p in kept if co.get(p, 0))
            const += sum(
                _legendary(content, full[p])
                for p in co
                if co[p] and p not in problem.open and full.get(p, 0) in tiles
            )
            counts.append(const + sum(c[2] * v for (c, k), v in n.items() if c[2] and k[0][h]))
        if problem.max_legendary_per_home >= 0:
            for x in counts:
                m.add(x <= problem.max_legendary_per_home)
        if leg_u:
            most, fewest = m.new_int_var(0, 99, ""), m.new_int_var(0, 99, "")
            m.add_max_equality(most, counts)
            m.add_min_equality(fewest, counts)
            extra.append(leg_u // grid * (most - fewest))
    m.minimize(hi - lo + sum(extra))
    plain = not (problem.specialty_within or spec_u or leg_u or problem.max_legendary_per_home >= 0)
    if plain:  # a fast swap descent with the shares fixed first: CP-SAT starts from its map
        full = {**full, **_polish(content, problem, full, free, coefs, polish_s, random.Random(seed))}
    kind_of = {t: c for c, ts in kinds.items() for t in ts}
    placed: dict[tuple[Any, ...], int] = {}
    for k, ps in spaces.items():
        for p in ps:
            if full[p] in kind_of:
                placed[kind_of[full[p]], k] = placed.get((kind_of[full[p]], k), 0) + 1
    for key, v in n.items():  # the map as given: the first answer (the best and worst values too)
        m.add_hint(v, placed.get(key, 0))
    given = [
        consts[h] // grid + sum(k[0][h] * c[1] // grid * placed.get((c, k), 0) for c, k in n if k[0][h])
        for h in homes
    ]
    m.add_hint(hi, max(given))
    m.add_hint(lo, min(given))
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = max(0.02, time_limit_s)
    solver.parameters.num_workers = max(1, workers)
    solver.parameters.random_seed = seed % (2**31)
    if _solve_stoppable(solver, m, stop) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    out = {p: full[p] for p in problem.open}
    left = {c: list(ts) for c, ts in kinds.items()}
    for k, ps in spaces.items():
        queue = list(ps)
        for c in kinds:
            for _ in range(solver.value(n[c, k])):
                out[queue.pop()] = left[c].pop()
    return out if legal_galaxy(content, problem, out) else None


def _polish(  # noqa: PLR0917
    content: Content,
    problem: MapProblem,
    full: Mapping[Pos, TileId],
    free: Sequence[Pos],
    coefs: Sequence[Mapping[Pos, int]],
    seconds: float,
    rng: random.Random,
) -> dict[Pos, TileId]:
    """A swap descent on the ordinary systems with the shares fixed (two spaces swap their systems,
    or a space takes an unused system of its back): each move changes the home values by a product,
    so thousands are tried in a fraction of a second. Moves that keep the gap are taken too (a walk
    on the plateau). Returns the ordinary systems' new places."""
    tiles, w = content.tiles, problem.weights
    at = {p: full[p] for p in free}
    used = set(full.values())
    spare = [
        t for t in problem.pool if t not in used and not _special(content, t) and t not in problem.required
    ]
    pts = {t: tile_points(tiles[t], w) for t in problem.pool}
    homes = range(len(coefs))
    vals = [
        b + sum(c * tile_points(tiles[full[p]], w) for p, c in co.items() if full.get(p, 0) in tiles)
        for co, b in zip(coefs, _bonus(content, problem), strict=True)
    ]
    ring1 = (
        [p for p in content.board.adjacent[0] if p in problem.spaces] if problem.red_next_to_mecatol else []
    )
    col = {p: [co.get(p, 0) for co in coefs] for p in free}
    gap = max(vals) - min(vals)
    best, best_gap = dict(at), gap
    start = time.perf_counter()
    end = start + seconds
    hot = max(gap / 8, SCALE / 100)  # annealing: a worse move is taken with probability exp(-loss / hot)
    tries = 0
    while best_gap and (tries % 256 or time.perf_counter() < end):
        tries += 1
        if tries % 256 == 0:
            hot = max(1.0, SCALE / 100 * (1 - (time.perf_counter() - start) / max(seconds, 1e-9)) ** 2)
        a = rng.choice(free)
        ta = at[a]
        k, b = -1, -1
        if spare and rng.random() < 0.3:
            k = rng.randrange(len(spare))
            tb = spare[k]
            if tiles[tb].pile != tiles[ta].pile or ta in problem.required:
                continue
            d = pts[tb] - pts[ta]
            new = [vals[h] + col[a][h] * d for h in homes]
        else:
            b = rng.choice(free)
            tb = at[b]
            d = pts[tb] - pts[ta]
            if not d:
                continue
            new = [vals[h] + (col[a][h] - col[b][h]) * d for h in homes]
        g2 = max(new) - min(new)
        if g2 > gap and rng.random() >= math.exp((gap - g2) / hot):
            continue
        if b < 0:
            at[a], spare[k] = tb, ta
        else:
            at[a], at[b] = tb, ta
        if ring1 and not any(
            tiles[at.get(p, full.get(p, 0))].pile == "red" for p in ring1 if p in problem.open
        ):
            if b < 0:  # undo: the five-player red tile next to Mecatol Rex is gone
                at[a], spare[k] = ta, tb
            else:
                at[a], at[b] = ta, tb
            continue
        vals, gap = new, g2
        if gap < best_gap:
            best, best_gap = dict(at), gap
    return best


def _decompose(
    content: Content,
    problem: MapProblem,
    first: Mapping[Pos, TileId] | None,
    *,
    deadline: float,
    workers: int,
    seed: int,
    stop: Callable[[], bool] | None,
) -> tuple[dict[Pos, TileId], int] | None:
    """The builder on a full galaxy: a local search over the *special* systems (anomalies and
    wormholes: they shape movement, so the shares of value) whose every step deals the ordinary
    systems anew by the exact aggregated CP-SAT model of :func:`solve_ordinary`. A step moves a
    special system to another space or swaps it with an unused tile of its back; it is kept when
    the objective does not grow. Ends at objective 0 (proven: nothing is below), at the deadline or
    on ``stop``. Returns (galaxy, objective units), or None if no legal map was found."""
    rng = random.Random(seed)
    loose = replace(problem, specialty_within=0, max_legendary_per_home=-1)  # the ordinary deal fixes these

    def over() -> bool:
        return time.perf_counter() >= deadline or (stop is not None and stop())

    budget = max(0.0, deadline - time.perf_counter())
    step = min(STEP_MAX_S, max(STEP_S, budget / 16))  # longer budgets: longer, surer steps

    def step_time(first: bool = False) -> float:
        return max(0.02, min(3 * step if first else step, deadline - time.perf_counter()))

    best: dict[Pos, TileId] | None = None
    units = 0
    start = dict(first) if first else None
    while best is None and not over():
        if start is None:
            try:
                start = random_legal_map(content, loose, rng, tries=300)
            except LictorError:
                return None
        out = _ordinary_model(
            content, problem, start, step_time(True), 1, rng.randrange(2**31), stop, POLISH_S
        )
        if legal_galaxy(content, problem, start) and (
            out is None or objective_units(content, problem, start) < objective_units(content, problem, out)
        ):
            out = dict(start)
        if out is not None:
            best, units = out, objective_units(content, problem, out)
        start = None
    while best is not None and units > 0 and not over():
        cand = _perturb(content, loose, best, rng)
        if cand is None:
            continue
        out = _ordinary_model(content, problem, cand, step_time(), 1, rng.randrange(2**31), stop, POLISH_S)
        if out is None:
            if not legal_galaxy(content, problem, cand):
                continue
            out = cand
        got = objective_units(content, problem, out)
        if got <= units:
            best, units = out, got
    return (best, units) if best is not None else None


STEP_S = 1.0
"""Least CP-SAT time per step of :func:`_decompose` (the aggregated model; often proven sooner); a
step gets a sixteenth of the budget up to :data:`STEP_MAX_S`, the first step three times that."""
STEP_MAX_S = 4.0
POLISH_S = 0.15
"""Time of the swap descent (:func:`_polish`) before each step's CP-SAT."""
"""CP-SAT time per step of :func:`_decompose` (the aggregated model; often proven sooner)."""


def _perturb(
    content: Content, problem: MapProblem, galaxy: Mapping[Pos, TileId], rng: random.Random
) -> dict[Pos, TileId] | None:
    """A random legal neighbour of ``galaxy`` that moves a special system (see :func:`_decompose`)."""
    tiles = content.tiles
    specials = [p for p in problem.open if _special(content, galaxy[p])]
    ordinary = [p for p in problem.open if p not in specials]
    unused = [t for t in problem.pool if t not in galaxy.values()]
    spare_special = [t for t in unused if _special(content, t)]
    for _ in range(50):
        h = dict(galaxy)
        move = rng.random()
        if specials and ordinary and move < 0.6:  # a special system to another space
            a, b = rng.choice(specials), rng.choice(ordinary)
            h[a], h[b] = galaxy[b], galaxy[a]
        elif spare_special and move < 0.8:  # an unused special system in, of the same back
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


def _first_answer(
    content: Content, problem: MapProblem, seed: int, seconds: float, stop: Callable[[], bool] | None = None
) -> dict[Pos, TileId] | None:
    """CP-SAT's first answer: the hill-climber's map after ``seconds`` (a random legal map if 0)."""
    rng = random.Random(seed)
    try:
        if seconds > 0:
            return hill_climb_map(content, problem, rng, seconds=seconds, stop=stop)[0]
        return random_legal_map(content, problem, rng, tries=300)
    except LictorError:
        return None


# ============================================================================ baselines and brute force


def random_legal_map(
    content: Content, problem: MapProblem, rng: random.Random, *, tries: int = 2000
) -> dict[Pos, TileId]:
    """A random legal galaxy (random tiles of the deal's counts, reshuffled until legal)."""
    tiles = content.tiles
    blue = [t for t in problem.pool if tiles[t].pile == "blue"]
    red = [t for t in problem.pool if tiles[t].pile == "red"]
    for _ in range(tries):
        chosen = rng.sample(blue, problem.blue) + rng.sample(red, problem.red)
        rng.shuffle(chosen)
        galaxy = {**problem.fixed, **dict(zip(problem.open, chosen, strict=True))}
        if legal_galaxy(content, problem, galaxy):
            return galaxy
    raise LictorError("no random legal galaxy found", field="params")


def hill_climb_map(
    content: Content,
    problem: MapProblem,
    rng: random.Random,
    *,
    seconds: float,
    restarts: bool = True,
    stop: Callable[[], bool] | None = None,
) -> tuple[dict[Pos, TileId], float]:
    """The community's method: a random legal map, then swaps (two positions, or a position and an
    unused tile of the same back) kept when the objective (the gap, plus the weighted secondary
    terms if any) falls, restarting from a new random map when no swap helps; returns the best
    (galaxy, objective in value points) found within ``seconds``."""
    end = time.perf_counter() + seconds
    tiles = content.tiles
    best: tuple[dict[Pos, TileId], float] | None = None

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


# ============================================================================ Milty slices


@dataclass(frozen=True, slots=True, kw_only=True)
class SliceProblem:
    """Milty slices to deal.

    Attributes:
        count: how many slices.
        pool: the tiles to choose from.
        min_resources / max_resources: optimal resources per slice (planets' larger counts).
        min_influence / max_influence: optimal influence per slice.
        max_wormholes: wormholes per slice at most.
        max_legendary: legendary planets per slice at most.
        min_wormholes_total: wormholes over all slices at least.
        weights: the value weights (slice value: ``games.ti4.ai.slice_value``).
    """

    count: int
    pool: tuple[TileId, ...]
    min_resources: float = 0.0
    max_resources: float = 99.0
    min_influence: float = 0.0
    max_influence: float = 99.0
    max_wormholes: int = 1
    max_legendary: int = 1
    min_wormholes_total: int = 0
    weights: Weights = field(default_factory=Weights)


def _slot_independence(content: Content) -> int:
    """The most slots of one slice no two of which are neighbours (anomalies a slice can hold)."""
    edges = slot_adjacency(content)
    return max(
        len(s)
        for k in range(6)
        for s in itertools.combinations(range(5), k)
        if not any(i in s and j in s for i, j in edges)
    )


def _tile_halves(content: Content, t: TileId) -> tuple[int, int]:
    """A tile's optimal (resources, influence) in halves."""
    r = sum(optimal(p)[0] for p in content.tiles[t].planets)
    i = sum(optimal(p)[1] for p in content.tiles[t].planets)
    return int(2 * r), int(2 * i)


def slices_ok(content: Content, problem: SliceProblem, slices: Sequence[Sequence[TileId]]) -> bool:
    """Whether ``slices`` obey ``problem``'s limits and each can be laid out without clashes."""
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
        ):
            return False
        w = [wh for t in s for wh in tiles[t].wormholes]
        worms += len(w)
        if len(w) > problem.max_wormholes or len(set(w)) != len(w):
            return False
        if sum(1 for t in s for p in tiles[t].planets if p.legendary) > problem.max_legendary:
            return False
        if _arrange(content, list(s)) is None:
            return False
    return worms >= problem.min_wormholes_total


def slices_gap(content: Content, problem: SliceProblem, slices: Sequence[Sequence[TileId]]) -> float:
    """Richest minus poorest slice value."""
    v = [slice_value(content, s, problem.weights) for s in slices]
    return max(v) - min(v)


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
    tiles, w = content.tiles, problem.weights
    m = cp_model.CpModel()
    k_range = range(problem.count)
    s = {(t, k): m.new_bool_var(f"s{t}_{k}") for t in problem.pool for k in k_range}
    for t in problem.pool:
        m.add_at_most_one(s[t, k] for k in k_range)
    alpha = _slot_independence(content)
    types = sorted({wh for t in problem.pool for wh in tiles[t].wormholes})
    vals = []
    for k in k_range:
        col = {t: s[t, k] for t in problem.pool}
        m.add(sum(v for t, v in col.items() if tiles[t].pile == "blue") == SLICE_BLUE)
        m.add(sum(v for t, v in col.items() if tiles[t].pile == "red") == SLICE_RED)
        res = sum(_tile_halves(content, t)[0] * v for t, v in col.items())
        inf = sum(_tile_halves(content, t)[1] * v for t, v in col.items())
        m.add(res >= math.ceil(2 * problem.min_resources))
        m.add(res <= math.floor(2 * problem.max_resources))
        m.add(inf >= math.ceil(2 * problem.min_influence))
        m.add(inf <= math.floor(2 * problem.max_influence))
        m.add(sum(len(tiles[t].wormholes) * v for t, v in col.items()) <= problem.max_wormholes)
        for wh in types:
            m.add(sum(v for t, v in col.items() if wh in tiles[t].wormholes) <= 1)
        m.add(
            sum(sum(p.legendary for p in tiles[t].planets) * v for t, v in col.items())
            <= problem.max_legendary
        )
        m.add(sum(v for t, v in col.items() if tiles[t].is_anomaly) <= alpha)
        vals.append(sum(tile_points(tiles[t], w) * v for t, v in col.items()))
    m.add(sum(len(tiles[t].wormholes) * v for (t, _), v in s.items()) >= problem.min_wormholes_total)
    top = m.new_int_var(0, 10**7, "top")
    low = m.new_int_var(0, 10**7, "low")
    m.add_max_equality(top, vals)
    m.add_min_equality(low, vals)
    m.minimize(top - low)
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = max(0.05, float(time_limit_s))
    solver.parameters.num_workers = max(1, int(workers))
    solver.parameters.random_seed = int(seed) % (2**31)
    code = _solve_stoppable(solver, m, stop)
    status = _STATUS.get(code, Status.UNKNOWN)
    if status not in (Status.OPTIMAL, Status.FEASIBLE):
        return status, [], 0.0, 0.0
    out = []
    for k in k_range:
        chosen = [t for t in problem.pool if solver.value(s[t, k])]
        laid = _arrange(content, chosen)
        if laid is None:  # cannot happen: anomalies <= the slots' independence number
            raise LictorError(f"internal: slice {chosen} has no clash-free layout")
        out.append(laid)
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


# ============================================================================ parameters


def _int(params: Mapping[str, Any], key: str, default: int, lo: int, hi: int) -> int:
    value = params.get(key, default)
    number = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, float) and math.isfinite(value) and value.is_integer():
        number = int(value)
    if number is None or not lo <= number <= hi:
        raise ConfigError(f"{key} must be an integer {lo}..{hi}, got {shown(value)}", field=f"params.{key}")
    return number


def _num(params: Mapping[str, Any], key: str, default: float, lo: float, hi: float) -> float:
    value = params.get(key, default)
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not math.isfinite(value)
        or not lo <= value <= hi
    ):
        raise ConfigError(f"{key} must be a number {lo}..{hi}, got {shown(value)}", field=f"params.{key}")
    return float(value)


def _choice(params: Mapping[str, Any], key: str, choices: Sequence[str], default: str) -> str:
    value = params.get(key, default)
    if not isinstance(value, str) or value not in choices:
        raise ConfigError(f"{key} must be one of {list(choices)}, got {shown(value)}", field=f"params.{key}")
    return value


def _tiles(content: Content, params: Mapping[str, Any], key: str) -> list[TileId]:
    value = params.get(key, [])
    if not isinstance(value, list) or len(value) > 100:
        raise ConfigError(f"{key} must be a list of tile numbers, got {shown(value)}", field=f"params.{key}")
    out = []
    for i, t in enumerate(value):
        n = int(t) if isinstance(t, str) and t.isdigit() and len(t) <= 3 else t
        if (
            isinstance(n, bool)
            or not isinstance(n, int)
            or n not in content.tiles
            or content.tiles[n].pile not in ("blue", "red")
        ):
            raise ConfigError(
                f"{key}[{i}] must be the number of a blue or red system tile, got {shown(t)}",
                field=f"params.{key}[{i}]",
                rule="ti4/separate-systems",
            )
        out.append(n)
    return out


def _weights(params: Mapping[str, Any]) -> Weights:
    value = params.get("weights", {})
    if not isinstance(value, Mapping):
        raise ConfigError(f"weights must be an object, got {shown(value)}", field="params.weights")
    return Weights.from_dict(value, field_prefix="params.weights")


def _game(game: Game[Any, Any]) -> TI4Game:
    if not isinstance(game, TI4Game):
        raise ConfigError("this puzzle is for the game 'ti4'", field="game")
    return game


def _state_defaults(state: Any) -> tuple[int, str]:
    if isinstance(state, TI4State):
        return state.players, state.expansion
    return 6, "base"


_WEIGHTS_SCHEMA = {
    "type": "object",
    "description": "home-value weights (docs/ti4.md): resources, influence, trait, specialty, legendary, "
    "wormhole, distance (list), share ('nearest'/'all'), antimass, nebula_exit, rift_bonus",
}
_LIMITS_NOTE = "time limit and workers come from the request's limits"

BALANCED_MAP_PARAMS: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "ti4.balanced_map parameters",
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "players": {
            "type": "integer",
            "minimum": 3,
            "maximum": 6,
            "description": "player count (default: the state's)",
        },
        "expansion": {"enum": ["base", "pok"], "description": "tile piles (default: the state's)"},
        "include": {
            "type": "array",
            "items": {"type": "integer"},
            "description": "tiles that must be on the map",
        },
        "exclude": {
            "type": "array",
            "items": {"type": "integer"},
            "description": "tiles that may not be used",
        },
        "from_state": {
            "type": "boolean",
            "default": True,
            "description": "during tile placement: keep the tiles placed and finish the galaxy with the "
            "tiles still in hand",
        },
        "seed": {
            "type": "integer",
            "minimum": 0,
            "maximum": 2**31 - 1,
            "default": 0,
            "description": "CP-SAT seed",
        },
        "specialty_within": {
            "type": "integer",
            "minimum": 0,
            "maximum": 3,
            "default": 0,
            "description": "every home gets a planet with a technology specialty within this many jumps "
            "(0: no such request)",
        },
        "max_wormholes_per_home": {
            "type": "integer",
            "minimum": -1,
            "maximum": 8,
            "default": -1,
            "description": "at most this many wormholes in the systems that count for each home "
            "(-1: no limit)",
        },
        "max_legendary_per_home": {
            "type": "integer",
            "minimum": -1,
            "maximum": 4,
            "default": -1,
            "description": "at most this many legendary planets count for each home (-1: no limit)",
        },
        "wormhole_spread": {
            "type": "number",
            "minimum": 0,
            "maximum": 100,
            "default": 0,
            "description": "weight (value points, a multiple of 0.05) in the objective of the spread of "
            "wormholes (most minus fewest counting for a home); 0: not in the objective",
        },
        "legendary_spread": {
            "type": "number",
            "minimum": 0,
            "maximum": 100,
            "default": 0,
            "description": "weight in the objective of the spread of legendary planets counting for a home",
        },
        "specialty_missing": {
            "type": "number",
            "minimum": 0,
            "maximum": 100,
            "default": 0,
            "description": "weight in the objective per home without a technology specialty within "
            "specialty_reach jumps",
        },
        "specialty_reach": {
            "type": "integer",
            "minimum": 1,
            "maximum": 3,
            "default": 2,
            "description": "the jumps of specialty_missing",
        },
        "factions": {
            "type": "array",
            "items": {"type": "string"},
            "description": "the faction of each seat, in seat order (home positions clockwise): their home "
            "systems stand in the home positions and count for their seats at weights.home (default 1 "
            "when factions are named)",
        },
        "weights": _WEIGHTS_SCHEMA,
    },
    "description": _LIMITS_NOTE,
}

MILTY_PARAMS: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "ti4.milty_slices parameters",
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "slices": {
            "type": "integer",
            "minimum": 2,
            "maximum": 9,
            "default": 6,
            "description": "how many slices",
        },
        "expansion": {"enum": ["base", "pok"], "description": "tile piles (default: the state's)"},
        "min_resources": {
            "type": "number",
            "minimum": 0,
            "maximum": 30,
            "default": 0,
            "description": "optimal resources per slice, at least",
        },
        "max_resources": {
            "type": "number",
            "minimum": 0,
            "maximum": 30,
            "default": 30,
            "description": "optimal resources per slice, at most",
        },
        "min_influence": {
            "type": "number",
            "minimum": 0,
            "maximum": 30,
            "default": 0,
            "description": "optimal influence per slice, at least",
        },
        "max_influence": {
            "type": "number",
            "minimum": 0,
            "maximum": 30,
            "default": 30,
            "description": "optimal influence per slice, at most",
        },
        "max_wormholes": {
            "type": "integer",
            "minimum": 0,
            "maximum": 5,
            "default": 1,
            "description": "wormholes per slice, at most",
        },
        "max_legendary": {
            "type": "integer",
            "minimum": 0,
            "maximum": 5,
            "default": 1,
            "description": "legendary planets per slice, at most",
        },
        "min_wormholes_total": {
            "type": "integer",
            "minimum": 0,
            "maximum": 10,
            "default": 0,
            "description": "wormholes over all slices, at least",
        },
        "seed": {
            "type": "integer",
            "minimum": 0,
            "maximum": 2**31 - 1,
            "default": 0,
            "description": "CP-SAT seed",
        },
        "weights": _WEIGHTS_SCHEMA,
    },
    "description": _LIMITS_NOTE,
}

MAP_STRING_PARAMS: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "ti4 map string parameters",
    "type": "object",
    "additionalProperties": False,
    "required": ["map_string"],
    "properties": {
        "map_string": {
            "type": "string",
            "maxLength": 2000,
            "description": "the TTS map string (ring 1 first, Mecatol Rex implied)",
        },
        "players": {
            "type": "integer",
            "minimum": 3,
            "maximum": 6,
            "description": "player count (default: from the homes)",
        },
        "expansion": {"enum": ["base", "pok"], "default": "pok", "description": "tiles allowed"},
        "procedure": {
            "enum": ["rulebook", "milty"],
            "default": "rulebook",
            "description": "how the map was built",
        },
        "weights": _WEIGHTS_SCHEMA,
    },
}


# ============================================================================ puzzles


def _result(kind: str, status: Status, start: float, **kw: Any) -> SolveResult:
    return SolveResult(
        kind=kind, status=status, method=kw.pop("method", "cp-sat"), wall_s=time.perf_counter() - start, **kw
    )


def balanced_map(
    game: Game[Any, Any], state: Any, params: Mapping[str, Any], limits: SolveLimits
) -> SolveResult:
    """The legal galaxy with the smallest gap between the best and the worst home value."""
    start = time.perf_counter()
    g = _game(game)
    check_param_keys(params, BALANCED_MAP_PARAMS)
    players0, exp0 = _state_defaults(state)
    players = _int(params, "players", players0, 3, 6)
    expansion = _choice(params, "expansion", ("base", "pok"), exp0)
    weights = _weights(params)
    seed = _int(params, "seed", 0, 0, 2**31 - 1)
    include, exclude = _tiles(g.pack, params, "include"), _tiles(g.pack, params, "exclude")
    use_state = params.get("from_state", True)
    if not isinstance(use_state, bool):
        raise ConfigError(
            f"from_state must be true or false, got {shown(use_state)}", field="params.from_state"
        )
    factions = _factions(g, params, players, expansion)
    if factions and "home" not in params.get("weights", {}):
        weights = replace(weights, home=1.0)  # named factions: their home systems count as printed
    problem = _problem_for(g, state, players, expansion, weights, exclude, use_state)
    problem = replace(
        problem,
        specialty_within=_int(params, "specialty_within", 0, 0, 3),
        max_wormholes_per_home=_int(params, "max_wormholes_per_home", -1, -1, 8),
        max_legendary_per_home=_int(params, "max_legendary_per_home", -1, -1, 4),
        wormhole_spread=_num(params, "wormhole_spread", 0, 0, 100),
        legendary_spread=_num(params, "legendary_spread", 0, 0, 100),
        specialty_missing=_num(params, "specialty_missing", 0, 0, 100),
        specialty_reach=_int(params, "specialty_reach", 2, 1, 3),
    )
    if factions:
        problem = replace(problem, home_tiles=tuple(home_system_tile(g.pack, f) for f in factions))
    elif use_state and isinstance(state, TI4State) and state.players == players:
        placed = tuple(state.galaxy[h] for h in problem.homes)
        if all(t > 0 for t in placed):  # the factions are chosen: their home systems are known
            problem = replace(problem, home_tiles=placed)
    try:
        problem.term_units()
    except ConfigError as exc:
        raise ConfigError(exc.message, field=f"params.{exc.field}") from None
    bad = [t for t in include if t not in problem.pool and t not in problem.fixed.values()]
    if bad:
        return _result(
            "ti4.balanced_map",
            Status.INFEASIBLE,
            start,
            explanation=f"tile {bad[0]} cannot be included: it is excluded, outside the {expansion} piles "
            "or not in hand",
        )
    why = precheck_map(g.pack, problem)
    if why:
        return _result("ti4.balanced_map", Status.INFEASIBLE, start, explanation=why)
    if include:
        problem = _with_included(problem, include)
    sol = solve_map(
        g.pack, problem, time_limit_s=limits.time_limit_s, workers=limits.workers, seed=seed, stop=limits.stop
    )
    if sol.status == Status.INFEASIBLE:
        return _result(
            "ti4.balanced_map",
            sol.status,
            start,
            explanation="no legal galaxy meets this request: the included anomalies or wormholes cannot all "
            "be kept apart, or the specialty and spread requests cannot all hold; include fewer tiles, "
            "lower specialty_within or raise max_wormholes_per_home / max_legendary_per_home",
        )
    if sol.status == Status.UNKNOWN:
        return _result(
            "ti4.balanced_map",
            sol.status,
            start,
            explanation="no galaxy found within the time limit: allow more time",
        )
    return _map_answer(g, problem, sol, start, factions)


def _factions(g: TI4Game, params: Mapping[str, Any], players: int, expansion: str) -> list[str]:
    """The ``factions`` parameter: one known faction per seat, all different (rule: ti4/factions)."""
    value = params.get("factions", [])
    if not isinstance(value, list) or (value and len(value) != players):
        raise ConfigError(
            f"factions must list one faction per seat ({players}), got {shown(value)}",
            field="params.factions",
            rule="ti4/factions",
        )
    allowed = {f.id for f in g.pack.factions if expansion == "pok" or f.expansion == "base"}
    for i, f in enumerate(value):
        if not isinstance(f, str) or f not in allowed:
            raise ConfigError(
                f"factions[{i}] must be a faction of the {expansion} game ({', '.join(sorted(allowed))}), "
                f"got {shown(f)}",
                field=f"params.factions[{i}]",
                rule="ti4/factions",
            )
        if f in value[:i]:
            raise ConfigError(
                f"factions[{i}]: {f} is chosen twice; each player takes a different faction",
                field=f"params.factions[{i}]",
                rule="ti4/factions",
            )
    return list(value)


def _problem_for(  # noqa: PLR0917
    g: TI4Game,
    state: Any,
    players: int,
    expansion: str,
    weights: Weights,
    exclude: Sequence[TileId],
    use_state: bool,
) -> MapProblem:
    if (
        use_state
        and isinstance(state, TI4State)
        and state.phase == PLACE
        and state.mode == "rulebook"
        and state.players == players
    ):
        fixed = {p: t for p, t in enumerate(state.galaxy) if p and t > 0 and p not in state.homes}
        pool = [t for h in state.hands for t in h if t > 0]
        if any(t <= 0 for h in state.hands for t in h):
            raise ConfigError("the state hides tiles in hand: ask with the referee's state", field="state")
        return map_problem(
            g.pack,
            players=players,
            expansion=expansion,
            weights=weights,
            fixed=fixed,
            pool=[t for t in pool if t not in exclude],
        )
    pool = [t for t in (*g.pack.pile("blue", expansion), *g.pack.pile("red", expansion)) if t not in exclude]
    return map_problem(g.pack, players=players, expansion=expansion, weights=weights, pool=pool)


def _with_included(problem: MapProblem, include: Sequence[TileId]) -> MapProblem:
    """The problem with ``include`` (tiles not fixed already) required on the map."""
    need = tuple(sorted(t for t in set(include) if t not in problem.fixed.values()))
    return replace(problem, required=need)


def map_svg(g: TI4Game, problem: MapProblem, galaxy: Mapping[Pos, TileId], title: str) -> str:
    """An SVG of a built galaxy (the game's own renderer, homes as seats 0.., with the home values)."""
    from games.core.protocol import GameConfig
    from games.ti4.render import render_svg

    base = g.new_state(GameConfig(players=problem.players), 0)
    cells = [0] * len(base.galaxy)
    cells[0] = 18
    homes = dict(zip(problem.homes, problem.home_tiles, strict=False))
    for p, t in {**galaxy, **homes}.items():
        cells[p] = t
    shown = replace(base, galaxy=tuple(cells), homes=problem.homes, speaker=-1)
    reps = home_reports(
        g.pack.board,
        {0: 18, **galaxy, **homes},
        problem.homes,
        g.pack.tiles,
        problem.weights,
        spaces=problem.spaces,
    )
    return render_svg(g.pack, shown, reps, title=title)


def _map_answer(
    g: TI4Game, problem: MapProblem, sol: MapSolution, start: float, factions: Sequence[str] = ()
) -> SolveResult:
    layout = g.pack.board.layouts[problem.players]
    galaxy = [0] * 37
    galaxy[0] = 18
    for p, t in sol.galaxy.items():
        galaxy[p] = t
    text = format_map_string(
        tuple(galaxy),
        problem.spaces,
        layout.homes,
        home_tiles=dict(zip(problem.homes, problem.home_tiles, strict=False)),
    )
    vals = ", ".join(f"{v:.2f}" for v in sol.values)
    proof = (
        "proven the smallest possible"
        if sol.status == Status.OPTIMAL
        else f"no legal map can go below {sol.bound:.2f}"
    )
    worst = min(range(len(sol.values)), key=lambda k: sol.values[k])
    explanation = (
        f"paste this map string into Tabletop Simulator: home values {vals} (seat order from position "
        f"{layout.homes[0]}), gap {sol.gap:.2f} ({proof}); seat {worst}, at position {layout.homes[worst]}, "
        f"has the weakest home and should pick first"
    )
    if problem.weighted:
        explanation += "; secondary terms " + ", ".join(
            f"{k.replace('_', ' ')} {v}" for k, v in sol.terms.items()
        )
        explanation += f" (objective {sol.objective:.2f})"
    if problem.home_tiles:
        explanation += "; home systems " + ", ".join(
            f"{g.pack.tiles[t].name} at {h}" for h, t in zip(problem.homes, problem.home_tiles, strict=True)
        )
    return _result(
        "ti4.balanced_map",
        sol.status,
        start,
        objective=sol.objective,
        bound=sol.bound,
        answer={
            "map_string": text,
            "objective": round(sol.objective, 4),
            "terms": dict(sol.terms),
            "factions": list(factions),
            "home_values": [round(v, 4) for v in sol.values],
            "home_positions": list(layout.homes),
            "gap": round(sol.gap, 4),
            "bound": round(sol.bound, 4),
            "galaxy": {str(p): str(t) for p, t in sorted(sol.galaxy.items())},
            "svg": map_svg(
                g,
                problem,
                sol.galaxy,
                f"Balanced {problem.players}-player galaxy: gap {sol.gap:.2f} ({sol.status.value})",
            ),
        },
        explanation=explanation,
    )


def milty_slices(
    game: Game[Any, Any], state: Any, params: Mapping[str, Any], limits: SolveLimits
) -> SolveResult:
    """The most even Milty slices within the given limits."""
    start = time.perf_counter()
    g = _game(game)
    check_param_keys(params, MILTY_PARAMS)
    _, exp0 = _state_defaults(state)
    expansion = _choice(params, "expansion", ("base", "pok"), exp0)
    count = _int(params, "slices", 6, 2, 9)
    prob = SliceProblem(
        count=count,
        pool=(*g.pack.pile("blue", expansion), *g.pack.pile("red", expansion)),
        min_resources=_num(params, "min_resources", 0, 0, 30),
        max_resources=_num(params, "max_resources", 30, 0, 30),
        min_influence=_num(params, "min_influence", 0, 0, 30),
        max_influence=_num(params, "max_influence", 30, 0, 30),
        max_wormholes=_int(params, "max_wormholes", 1, 0, 5),
        max_legendary=_int(params, "max_legendary", 1, 0, 5),
        min_wormholes_total=_int(params, "min_wormholes_total", 0, 0, 10),
        weights=_weights(params),
    )
    seed = _int(params, "seed", 0, 0, 2**31 - 1)
    tiles = g.pack.tiles
    nb = sum(1 for t in prob.pool if tiles[t].pile == "blue")
    nr = len(prob.pool) - nb
    if nb < SLICE_BLUE * count or nr < SLICE_RED * count:
        return _result(
            "ti4.milty_slices",
            Status.INFEASIBLE,
            start,
            explanation=f"{count} slices need {SLICE_BLUE * count} blue and {SLICE_RED * count} red tiles; "
            f"the {expansion} piles hold {nb} and {nr}: ask for fewer slices or use 'pok'",
        )
    for lo, hi in (("min_resources", "max_resources"), ("min_influence", "max_influence")):
        if getattr(prob, lo) > getattr(prob, hi):
            raise ConfigError(
                f"{lo} {getattr(prob, lo)} is above {hi} {getattr(prob, hi)}", field=f"params.{lo}"
            )
    status, slices, gap, bound = solve_slices(
        g.pack, prob, time_limit_s=limits.time_limit_s, workers=limits.workers, seed=seed, stop=limits.stop
    )
    if status == Status.INFEASIBLE:
        return _result(
            "ti4.milty_slices",
            status,
            start,
            explanation="no slices meet these limits: widen the resource or influence range, or allow "
            "more wormholes or legendary planets per slice",
        )
    if status == Status.UNKNOWN:
        return _result(
            "ti4.milty_slices",
            status,
            start,
            explanation="no slices found within the time limit: allow more time",
        )
    from games.ti4.milty import slices_to_text

    values = [round(slice_value(g.pack, s, prob.weights), 3) for s in slices]
    text = slices_to_text(slices)
    proof = (
        "proven the smallest possible" if status == Status.OPTIMAL else f"no deal can go below {bound:.2f}"
    )
    return _result(
        "ti4.milty_slices",
        status,
        start,
        objective=gap,
        bound=bound,
        answer={
            "slices": [[str(t) for t in s] for s in slices],
            "slice_values": values,
            "milty_slices": text,
        },
        explanation=f"deal these slices (set the game option milty_slices to {text!r}): values {values}, "
        f"gap {gap:.2f} ({proof})",
    )


def _map_params(g: TI4Game, params: Any) -> tuple[str, int | None, str, str]:
    check_param_keys(params, MAP_STRING_PARAMS)
    text = params.get("map_string")
    if not isinstance(text, str) or not text.strip():
        raise ConfigError(
            f"map_string must be a TTS map string, got {shown(text)}", field="params.map_string"
        )
    players = _int(params, "players", 0, 0, 6) if "players" in params else None
    if players is not None and players < 3:
        raise ConfigError(f"players must be an integer 3..6, got {players}", field="params.players")
    expansion = _choice(params, "expansion", ("base", "pok"), "pok")
    procedure = _choice(params, "procedure", ("rulebook", "milty"), "rulebook")
    return text, players, expansion, procedure


def check_map_puzzle(
    game: Game[Any, Any], state: Any, params: Mapping[str, Any], limits: SolveLimits
) -> SolveResult:
    """Every setup rule a map string breaks, named, with its tiles."""
    start = time.perf_counter()
    g = _game(game)
    text, players, expansion, procedure = _map_params(g, params)
    try:
        report = check_string(g.pack, text, players=players, expansion=expansion, procedure=procedure)
    except NotationError as exc:
        raise ConfigError(exc.message, field="params.map_string") from None
    if report.ok:
        explanation = f"legal {report.players}-player {procedure} galaxy: no setup rule is broken"
        if report.notes:
            explanation += f" ({len(report.notes)} note(s): forbidden neighbours the rules allow here)"
    else:
        first = report.violations[0]
        explanation = f"{len(report.violations)} broken rule(s); first, {first.rule}: {first.message}"
    return _result(
        "ti4.check_map",
        Status.OPTIMAL,
        start,
        method="enumeration",
        objective=len(report.violations),
        bound=len(report.violations),
        answer=report.to_dict(),
        explanation=explanation,
    )


def home_values_puzzle(
    game: Game[Any, Any], state: Any, params: Mapping[str, Any], limits: SolveLimits
) -> SolveResult:
    """Each home's value on a map string, with the numbers behind it."""
    start = time.perf_counter()
    g = _game(game)
    text, players, expansion, procedure = _map_params(g, params)
    weights = _weights(params)
    try:
        parsed = parse_map_string(text)
    except NotationError as exc:
        raise ConfigError(exc.message, field="params.map_string") from None
    report = check_map(g.pack, parsed, players=players, expansion=expansion, procedure=procedure)
    if report.players == 0:
        return _result(
            "ti4.home_values",
            Status.INFEASIBLE,
            start,
            method="enumeration",
            explanation=f"no {procedure} layout found: {report.violations[0].message}",
        )
    entries = [parsed.at(p) for p in range(37)]
    galaxy = {p: t for p, t in enumerate(entries) if t > 0 and t in g.pack.tiles}
    spaces = tuple(p for p in range(37) if entries[p] != -1)
    reps = home_reports(g.pack.board, galaxy, report.homes, g.pack.tiles, weights, spaces=spaces)
    vals = [r.value for r in reps]
    gap = max(vals) - min(vals)
    worst = report.homes[vals.index(min(vals))]
    return _result(
        "ti4.home_values",
        Status.OPTIMAL,
        start,
        method="enumeration",
        objective=gap,
        bound=gap,
        answer={
            "homes": [
                {
                    "position": r.home,
                    "home_value": round(r.value, 4),
                    "optimal_resources": round(r.resources, 4),
                    "optimal_influence": round(r.influence, 4),
                    "resources_within_2_jumps": round(r.near_resources, 4),
                    "influence_within_2_jumps": round(r.near_influence, 4),
                    "wormholes": r.wormholes,
                    "legendary_planets": r.legendary,
                    "specialties_within_2_jumps": r.specialties,
                    "jumps_to_mecatol_rex": r.mecatol,
                    "lane_anomalies": [str(t) for t in r.lane_anomalies],
                }
                for r in reps
            ],
            "gap": round(gap, 4),
        },
        explanation=f"home values {', '.join(f'{v:.2f}' for v in vals)} (gap {gap:.2f}); the home at "
        f"position {worst} is the weakest: its player should draft first or get the compensation",
    )


# ============================================================================ score


def score(game: Game[Any, Any], state: Any) -> ScoreReport:
    """Each seat's home value (the setup's result) with its breakdown; rank 1 = the best home."""
    g = _game(game)
    if not isinstance(state, TI4State):
        raise ConfigError("the state is not a ti4 state", field="state")
    reps = g.reports(state) if all(state.homes) else []
    if not reps:
        seats = tuple(SeatScore(seat=s, total=0.0, rank=1) for s in range(state.players))
        return ScoreReport(game="ti4", final=False, seats=seats)
    vals = [r.value for r in reps]
    order = sorted(set(vals), reverse=True)
    seats = tuple(
        SeatScore(
            seat=s,
            total=round(r.value, 4),
            rank=1 + order.index(r.value),
            breakdown=(
                ScoreLine(
                    category="optimal resources",
                    points=round(r.resources, 4),
                    detail="weighted by distance and share",
                ),
                ScoreLine(
                    category="optimal influence",
                    points=round(r.influence, 4),
                    detail="weighted by distance and share",
                ),
                ScoreLine(
                    category="wormholes",
                    points=float(r.wormholes),
                    detail="in systems that count for this home",
                ),
                ScoreLine(
                    category="legendary planets",
                    points=float(r.legendary),
                    detail="in systems that count for this home",
                ),
                ScoreLine(
                    category="technology specialties", points=float(r.specialties), detail="within 2 jumps"
                ),
            ),
            tiebreak=("equal home values share the rank",),
        )
        for s, r in enumerate(reps)
    )
    over = state.phase == OVER
    ended = (
        "the galaxy is set up: every system tile is placed and every secret objective kept" if over else ""
    )
    return ScoreReport(game="ti4", final=over, seats=seats, ended_by=ended)


register_scorer("ti4", score)
register_puzzle(
    "ti4",
    "ti4.balanced_map",
    balanced_map,
    summary="Which legal galaxy (every setup rule obeyed) gives the smallest gap between the best and the "
    "worst home value, and is it proven the smallest?",
    params_schema=BALANCED_MAP_PARAMS,
)
register_puzzle(
    "ti4",
    "ti4.milty_slices",
    milty_slices,
    summary="Which Milty draft slices (three blue, two red tiles each) within these limits are the most "
    "even?",
    params_schema=MILTY_PARAMS,
)
register_puzzle(
    "ti4",
    "ti4.check_map",
    check_map_puzzle,
    summary="Which setup rules does this TTS map string break, and with which tiles?",
    params_schema=MAP_STRING_PARAMS,
)
register_puzzle(
    "ti4",
    "ti4.home_values",
    home_values_puzzle,
    summary="How good is each home system on this TTS map string, and which is the weakest?",
    params_schema=MAP_STRING_PARAMS,
)
