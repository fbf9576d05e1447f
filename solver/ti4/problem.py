"""The map problem: which tiles may go where, what makes a galaxy legal, and what the builder minimises.

Everything here is a plain function of a galaxy (no CP-SAT): the models in ``solver.ti4.model``,
``solver.ti4.rules`` and ``solver.ti4.search`` reproduce these numbers exactly, and every answer is
checked against them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from games.errors import ConfigError
from games.ti4.balance import (
    POINTS,
    SCALE,
    Weights,
    coefficients,
    distances,
    edges,
    home_bonus,
    movement,
    prepare_movement,
    tile_points,
)
from games.ti4.content import Content, Pos, TileId
from games.ti4.measures import DEFAULT, MEASURES, Measure
from games.ti4.placement import clash
from games.ti4.state import Placement
from solver.core import Status

__all__ = [
    "TERMS",
    "MapProblem",
    "MapSolution",
    "Quota",
    "clash_pairs",
    "clash_text",
    "gap_of",
    "home_bonuses",
    "legal_galaxy",
    "map_problem",
    "measure_values",
    "objective_units",
    "precheck_map",
    "secondary_terms",
    "specialties_ok",
    "spread_ok",
    "with_weights",
]

TERMS = ("wormhole_spread", "legendary_spread", "specialty_missing")
"""The secondary terms, in the order of ``MapProblem.term_units``."""


@dataclass(frozen=True, slots=True)
class Quota:
    """Exactly ``count`` of ``tiles`` go to ``positions`` (from a referee's state: a seat's hand and
    the ring its remaining turns fall in; rule: ti4/place-system-tiles, rule: ti4/ring-order).

    Attributes:
        tiles: the tiles (a seat's hand).
        positions: the positions (the open spaces of one ring).
        count: how many of the tiles go there.
    """

    tiles: frozenset[TileId]
    positions: frozenset[Pos]
    count: int


@dataclass(frozen=True, slots=True, kw_only=True)
class MapProblem:
    """Which tiles may go where, and what is minimised.

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
        measure: the measure of balance (``games.ti4.measures``; default ``community``).
        required: tiles of the pool that must be placed.
        specialty_within: a request on top of the rules: every home has a planet with a technology
            specialty within this many moves (0: no request).
        max_wormholes_per_home: at most this many wormholes in the systems that count for each home
            (the spread of wormholes; -1: no limit).
        max_legendary_per_home: at most this many legendary planets count for each home (-1: no limit).
        wormhole_spread: weight (value points) of a secondary term of the objective: per unit of the
            spread (most minus fewest) of the wormholes counting for each home (0: not in the objective).
        legendary_spread: weight of the spread of the legendary planets counting for each home.
        specialty_missing: weight per home without a technology specialty within ``specialty_reach``
            moves ("no seat without a specialty" as a soft term; ``specialty_within`` is the hard one).
        specialty_reach: the moves of ``specialty_missing``.
        home_tiles: the tile standing in each seat's home position (its faction's home system, or the
            Creuss Gate), when the factions are known; each counts for its seat at ``weights.home``
            (rule: ti4/factions). Empty: home systems unknown, counted for nobody.
        quotas: hand and ring counts from a referee's state (:class:`Quota`; empty: any tile anywhere).
        max_clashes: neighbouring pairs that may not touch (anomalies, same wormholes) allowed among
            the open positions and their neighbours: 0 unless the rules' "unless there is no other
            option" allows some (``solver.ti4.rules.fewest_clashes`` finds how many).
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
    measure: Measure = field(default_factory=lambda: MEASURES[DEFAULT])
    required: tuple[TileId, ...] = ()
    specialty_within: int = 0
    max_wormholes_per_home: int = -1
    max_legendary_per_home: int = -1
    wormhole_spread: float = 0.0
    legendary_spread: float = 0.0
    specialty_missing: float = 0.0
    specialty_reach: int = 2
    home_tiles: tuple[TileId, ...] = ()
    quotas: tuple[Quota, ...] = ()
    max_clashes: int = 0

    @property
    def weights(self) -> Weights:
        """The measure's first weight set (movement for the requests, the reports)."""
        return self.measure.weights

    def term_units(self) -> tuple[int, int, int]:
        """The secondary weights in home-value units (x SCALE): wormhole, legendary, specialty."""
        out = []
        for name in TERMS:
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


def with_weights(problem: MapProblem, weights: Weights) -> MapProblem:
    """``problem`` measured by one weight set (a ``custom`` measure)."""
    return replace(problem, measure=Measure("custom", (weights,)))


@dataclass(frozen=True, slots=True, kw_only=True)
class MapSolution:
    """A galaxy built for a :class:`MapProblem`.

    Attributes:
        galaxy: the tile at each system position (fixed and placed).
        values: each home's value by the measure's first weight set (value points).
        gap: the measure's gap: best minus worst home value (the worst over the weight sets).
        bound: the proven lower bound on the objective (the gap when there are no secondary terms).
        status: OPTIMAL, FEASIBLE, INFEASIBLE or UNKNOWN.
        objective: the gap plus the weighted secondary terms (value points).
        terms: the secondary terms' counts: wormhole spread, legendary spread, homes without a
            specialty within ``specialty_reach`` moves.
        gaps: the gap of each weight set of the measure (``joint``: community, simple).
        clashes: the forbidden neighbours the answer has, each with why the rules allow it.
        record: finishing a referee's state: the placements in order.
        proof: how the bound is proven, for people ("" when it is CP-SAT's own or 0).
    """

    galaxy: Mapping[Pos, TileId]
    values: tuple[float, ...]
    gap: float
    bound: float
    status: Status
    objective: float = 0.0
    terms: Mapping[str, int] = field(default_factory=dict)
    gaps: tuple[float, ...] = ()
    clashes: tuple[str, ...] = ()
    record: tuple[Placement, ...] = ()
    proof: str = ""


def map_problem(
    content: Content,
    *,
    players: int,
    expansion: str = "base",
    weights: Weights | None = None,
    measure: Measure | None = None,
    fixed: Mapping[Pos, TileId] | None = None,
    pool: Sequence[TileId] | None = None,
) -> MapProblem:
    """The rulebook galaxy for ``players`` with every system position open (or ``fixed`` ones set),
    measured by ``measure`` (or one weight set ``weights``; default ``community``).

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
    if measure is None:
        measure = Measure("custom", (weights,)) if weights is not None else MEASURES[DEFAULT]
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
        measure=measure,
    )


# ------------------------------------------------------------------------------------ values


def home_bonuses(content: Content, problem: MapProblem, w: Weights) -> list[int]:
    """Each seat's own home system's share of its value times SCALE (0 without ``home_tiles``)."""
    if not problem.home_tiles:
        return [0] * len(problem.homes)
    return [home_bonus(t, content.tiles, w) for t in problem.home_tiles]


def measure_values(content: Content, problem: MapProblem, galaxy: Mapping[Pos, TileId]) -> list[list[int]]:
    """Per weight set of the measure, each home's value times SCALE (``games.ti4.balance``, with the
    home systems of ``problem.home_tiles`` counted for their seats at ``weights.home``)."""
    full = {0: 18, **problem.fixed, **galaxy}
    vals = problem.measure.values(content.board, full, problem.homes, content.tiles, spaces=problem.spaces)
    return [
        [v + b for v, b in zip(vs, home_bonuses(content, problem, w), strict=True)]
        for vs, w in zip(vals, problem.measure.parts, strict=True)
    ]


def gap_of(content: Content, problem: MapProblem, galaxy: Mapping[Pos, TileId]) -> float:
    """The measure's gap of ``galaxy`` (value points): best minus worst home value, the worst over
    the weight sets."""
    return problem.measure.gap_units(measure_values(content, problem, galaxy)) / SCALE


def objective_units(content: Content, problem: MapProblem, galaxy: Mapping[Pos, TileId]) -> int:
    """The builder's objective of ``galaxy`` times SCALE (exact): the measure's gap plus each
    secondary term's count times its weight."""
    out = problem.measure.gap_units(measure_values(content, problem, galaxy))
    if problem.weighted:
        terms = secondary_terms(content, problem, galaxy)
        units = problem.term_units()
        out += sum(u * terms[k] for u, k in zip(units, TERMS, strict=True))
    return out


# ------------------------------------------------------------------------------------ legality


def clash_pairs(
    content: Content, problem: MapProblem, galaxy: Mapping[Pos, TileId]
) -> list[tuple[Pos, Pos, str]]:
    """The neighbouring pairs that may not touch with at least one open position: (p, q, kind), kind
    ``anomaly`` or a wormhole type (rule: ti4/anomaly-adjacency, rule: ti4/wormhole-adjacency)."""
    tiles = content.tiles
    full = {**problem.fixed, **galaxy}
    opened = set(problem.open)
    out = []
    for p in problem.open:
        if p not in full:
            continue
        for q in content.board.adjacent[p]:
            if q in full and (q not in opened or q > p) and full[q] in tiles:
                out += [(p, q, k) for k in clash(tiles[full[p]], tiles[full[q]])]
    return out


def clash_text(content: Content, galaxy: Mapping[Pos, TileId], p: Pos, q: Pos, kind: str) -> str:
    """A forbidden neighbour in words: "tiles 41 (at 3) and 42 (at 4) are neighbouring anomalies"."""
    what = "anomalies" if kind == "anomaly" else f"{kind} wormholes"
    return f"tiles {galaxy[p]} (at {p}) and {galaxy[q]} (at {q}) are neighbouring {what}"


def legal_galaxy(content: Content, problem: MapProblem, galaxy: Mapping[Pos, TileId]) -> bool:
    """Whether ``galaxy`` fills every open position obeying the setup rules the builder enforces:
    the deal's counts, the hand and ring quotas, the five-player red tile, at most
    ``max_clashes`` forbidden neighbours, and the requests."""
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
    for q in problem.quotas:
        if sum(1 for p in q.positions if galaxy.get(p) in q.tiles) != q.count:
            return False
    full = {**problem.fixed, **galaxy}
    if problem.red_next_to_mecatol and not any(
        tiles[full[p]].pile == "red" for p in content.board.adjacent[0] if p in full
    ):
        return False
    if len(clash_pairs(content, problem, galaxy)) > problem.max_clashes:
        return False
    return specialties_ok(content, problem, full) and spread_ok(content, problem, full)


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


# ------------------------------------------------------------------------------------ requests


def legendary_count(content: Content, t: TileId) -> int:
    """Legendary planets on tile ``t``."""
    return sum(1 for p in content.tiles[t].planets if p.legendary)


def has_specialty(content: Content, t: TileId) -> bool:
    """Whether tile ``t`` has a planet with a technology specialty."""
    return any(p.specialty for p in content.tiles[t].planets)


def counted_tiles(content: Content, problem: MapProblem, full: Mapping[Pos, TileId]) -> list[list[TileId]]:
    """Per home, the tiles of the systems that count for it (a share of its value) by the first weight
    set, as ``balance.home_reports`` counts them."""
    w = problem.weights
    moves, counted, _ = prepare_movement(
        content.board, full, problem.homes, content.tiles, w, fill=0, spaces=problem.spaces
    )
    return [
        [full[p] for p, c in co.items() if c and full.get(p, 0) in content.tiles]
        for co in coefficients(content.board, moves, problem.homes, counted, w)
    ]


def near_homes(
    content: Content, problem: MapProblem, full: Mapping[Pos, TileId], moves_limit: int
) -> list[dict[Pos, int]]:
    """Per home, the spaces within ``moves_limit`` moves by the first weight set's movement."""
    w = problem.weights
    moves, _, _ = prepare_movement(
        content.board, full, problem.homes, content.tiles, w, fill=0, spaces=problem.spaces
    )
    graph = edges(content.board, moves, w)
    return [
        distances(content.board, moves, h, w, limit=moves_limit, graph=graph, homes=problem.homes)
        for h in problem.homes
    ]


def spread_ok(content: Content, problem: MapProblem, galaxy: Mapping[Pos, TileId]) -> bool:
    """The requests ``max_wormholes_per_home`` and ``max_legendary_per_home`` (systems that count for
    a home: those with a share of its value)."""
    worm_cap, leg_cap = problem.max_wormholes_per_home, problem.max_legendary_per_home
    if worm_cap < 0 and leg_cap < 0:
        return True
    tiles = content.tiles
    for mine in counted_tiles(content, problem, {0: 18, **galaxy}):
        if worm_cap >= 0 and sum(len(tiles[t].wormholes) for t in mine) > worm_cap:
            return False
        if leg_cap >= 0 and sum(legendary_count(content, t) for t in mine) > leg_cap:
            return False
    return True


def specialties_ok(content: Content, problem: MapProblem, galaxy: Mapping[Pos, TileId]) -> bool:
    """The request ``specialty_within``: every home reaches a technology specialty within that many
    moves (by the measure's movement)."""
    k = problem.specialty_within
    if not k:
        return True
    full = {0: 18, **galaxy}
    return all(
        any(p != h and full.get(p, 0) in content.tiles and has_specialty(content, full[p]) for p in near)
        for h, near in zip(problem.homes, near_homes(content, problem, full, k), strict=True)
    )


def secondary_terms(content: Content, problem: MapProblem, galaxy: Mapping[Pos, TileId]) -> dict[str, int]:
    """The secondary terms' counts of ``galaxy``: ``wormhole_spread`` and ``legendary_spread`` (most
    minus fewest wormholes / legendary planets in the systems that count for a home) and
    ``specialty_missing`` (homes without a technology specialty within ``specialty_reach`` moves)."""
    full = {0: 18, **problem.fixed, **galaxy}
    tiles = content.tiles
    mine = counted_tiles(content, problem, full)
    worms = [sum(len(tiles[t].wormholes) for t in m) for m in mine]
    legs = [sum(legendary_count(content, t) for t in m) for m in mine]
    missing = sum(
        not any(p != h and full.get(p, 0) in tiles and has_specialty(content, full[p]) for p in near)
        for h, near in zip(
            problem.homes, near_homes(content, problem, full, problem.specialty_reach), strict=True
        )
    )
    return {
        "wormhole_spread": max(worms) - min(worms),
        "legendary_spread": max(legs) - min(legs),
        "specialty_missing": missing,
    }


# ------------------------------------------------------------------------------------ symmetry


def profile(content: Content, problem: MapProblem, t: TileId) -> tuple[Any, ...]:
    """All the builder sees of a tile: its back, value and movement by each weight set, wormholes,
    anomaly, legendary planets, specialty, whether it is required, and its quotas."""
    tile = content.tiles[t]
    return (
        tile.pile,
        tuple(tile_points(tile, w) for w in problem.measure.parts),
        tuple(movement(tile, w).kind for w in problem.measure.parts),
        tuple(sorted(tile.wormholes)),
        tuple(sorted(tile.anomalies)),
        legendary_count(content, t),
        has_specialty(content, t),
        t in problem.required,
        tuple(i for i, q in enumerate(problem.quotas) if t in q.tiles),
    )


def twins(content: Content, problem: MapProblem) -> list[list[TileId]]:
    """Groups of pool tiles with the same :func:`profile` (interchangeable: the empty red systems, the
    two asteroid fields...), each sorted, of two tiles or more."""
    groups: dict[tuple[Any, ...], list[TileId]] = {}
    for t in problem.pool:
        groups.setdefault(profile(content, problem, t), []).append(t)
    return [sorted(g) for g in groups.values() if len(g) > 1]


def canonical(content: Content, problem: MapProblem, galaxy: Mapping[Pos, TileId]) -> dict[Pos, TileId]:
    """``galaxy`` with interchangeable tiles renumbered into the builder's symmetry-breaking order
    (the same map for the rules and the measure)."""
    out = dict(galaxy)
    rank = {p: i for i, p in enumerate(problem.open)}
    for group in twins(content, problem):
        spots = sorted((p for p in problem.open if out.get(p) in group), key=rank.__getitem__)
        for p, t in zip(spots, group, strict=False):
            out[p] = t
    return out


def special(content: Content, t: TileId) -> bool:
    """Whether a tile changes movement or the adjacency rules (an anomaly or a wormhole)."""
    tile = content.tiles[t]
    return tile.is_anomaly or bool(tile.wormholes)
