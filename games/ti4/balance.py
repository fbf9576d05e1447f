"""Home value: how good the galaxy is for each home system, by one of the measures players use.

One engine, many measures: a measure is a :class:`Weights` (data, every term tunable); the named
measures are in ``games.ti4.measures`` (``community``, the default, ``simple``, ``lictor``, ``joint``).
The terms (docs/ti4.md gives each with a worked example):

1. A planet is worth its **optimal** resources and influence: the larger of the two counts
   (resources if R > I, influence if I > R; when equal, half of each), times the resource or
   influence weight (with both weights 1 this is max(R, I)); plus the trait, specialty and
   legendary weights. A system is worth its planets plus the wormhole weight per wormhole.
2. **Real movement** from each home system: a step to an adjacent system, or (``wormhole_links``)
   through a wormhole to a system with the same wormhole, is one move. A supernova cannot be
   entered; an asteroid field neither (unless ``antimass``: the technology Antimass Deflectors); a
   nebula ends movement, so leaving one costs ``nebula_exit`` extra moves (-1: it cannot be left);
   a ship leaving a gravity rift gets +1 move, so with ``rift_bonus`` the step out of a rift (to a
   system that is not a rift) is free; with ``homes_block`` no ship passes through another home.
3. A system ``d`` moves from a home counts ``distance[d - 1]`` of its value (none beyond the last
   weight). With ``share="nearest"`` a system counts only for the homes nearest to it (split
   equally among ties: an equidistant system is shared); with ``share="all"`` it counts for every
   home by its own distance.
4. The **Mecatol Rex path** (:func:`mecatol_terms`): ``mecatol`` x (``mecatol_moves`` - d) for d =
   moves from the home to Mecatol Rex on the board (other homes impassable), minus
   ``mecatol_supernova`` if every such shortest path crosses a supernova and ``mecatol_nebula`` if
   every one crosses a nebula.

Mecatol Rex counts for nobody; a home system counts only for its own seat, ``home`` times its own
value (0 by default: the galaxy around the homes; with the factions known, ``home`` = 1 adds each
faction's home planets as the tile data prints them; the Ghosts of Creuss count their home system,
tile 51, off the board behind the Creuss Gate).

Every weight is a multiple of 0.05, so a value times :data:`SCALE` is an exact integer: the CP-SAT
builder (``solver/ti4``) reproduces it to the unit, and a test checks the two against each other.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from fractions import Fraction
from typing import Any

from games.core.cache import memo
from games.errors import ConfigError
from games.ti4.content import Board, Planet, Pos, Tile, TileId

__all__ = [
    "POINTS",
    "SCALE",
    "SHARE_UNIT",
    "TERM_NAMES",
    "TILE_UNIT",
    "HomeReport",
    "Movement",
    "Weights",
    "blocked_for",
    "coefficients",
    "crosses_every_path",
    "distances",
    "edges",
    "home_bonus",
    "home_reports",
    "home_system",
    "home_values",
    "mecatol_lanes",
    "mecatol_terms",
    "movement",
    "optimal",
    "planet_points",
    "prepare_movement",
    "tile_points",
    "tile_terms",
]

POINTS = 20
"""Weights are counted in twentieths (every weight is a multiple of 0.05)."""
TILE_UNIT = 2 * POINTS
"""Planet and system values are counted in fortieths (half counts times twentieths: exact)."""
SHARE_UNIT = 60
"""A shared system's value is split in sixtieths (60 = lcm(1..6): exact among up to six homes)."""
SCALE = TILE_UNIT * POINTS * SHARE_UNIT
"""A home value times SCALE is an integer (tile units x distance points x share units)."""


def _points(x: float, name: str) -> int:
    p = round(x * POINTS)
    if abs(p - x * POINTS) > 1e-9 or p < 0 or p > 100 * POINTS:
        raise ConfigError(
            f"weight {name} must be a multiple of 0.05 between 0 and 100, not {x!r}", field=f"weights.{name}"
        )
    return p


@dataclass(frozen=True, slots=True, kw_only=True)
class Weights:
    """The tunable terms of a home-value measure (docs/ti4.md; the named measures are in
    ``games.ti4.measures``). The defaults are the ``lictor`` measure.

    Attributes:
        resources: value of one optimal resource.
        influence: value of one optimal influence.
        trait: value of a planet with a trait (cultural, hazardous, industrial: explorable).
        specialty: value of a technology specialty.
        legendary: value of a legendary planet.
        wormhole: value of a wormhole in the system.
        distance: share of a system's value counted at 1, 2, 3... moves (none beyond).
        share: ``"nearest"`` (a system counts for its nearest homes, split on ties) or ``"all"``.
        antimass: whether ships may enter asteroid fields (Antimass Deflectors).
        nebula_exit: extra moves to leave a nebula (movement ends in a nebula); -1: a nebula cannot
            be left at all.
        rift_bonus: whether the step out of a gravity rift is free (+1 move leaving a rift).
        home: share of a home system's own value (its planets, as printed) counted for its seat (0:
            none, the galaxy around the homes).
        wormhole_links: whether a wormhole links its system to the systems with the same wormhole
            for movement (False: wormholes add no adjacency).
        homes_block: whether ships cannot pass through another player's home system.
        mecatol: value per move of the Mecatol Rex path term, ``mecatol`` x (``mecatol_moves`` - d).
        mecatol_moves: the moves to Mecatol Rex at which the path term is 0.
        mecatol_supernova: subtracted when every shortest path to Mecatol Rex crosses a supernova.
        mecatol_nebula: subtracted when every shortest path to Mecatol Rex crosses a nebula.
    """

    resources: float = 1.0
    influence: float = 1.0
    trait: float = 0.2
    specialty: float = 0.5
    legendary: float = 1.0
    wormhole: float = 0.5
    distance: tuple[float, ...] = (1.0, 0.6, 0.3)
    share: str = "nearest"
    antimass: bool = False
    nebula_exit: int = 1
    rift_bonus: bool = True
    home: float = 0.0
    wormhole_links: bool = True
    homes_block: bool = False
    mecatol: float = 0.0
    mecatol_moves: int = 3
    mecatol_supernova: float = 0.0
    mecatol_nebula: float = 0.0
    _pts: tuple[int, ...] = field(default=(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        names = ("resources", "influence", "trait", "specialty", "legendary", "wormhole")
        pts = [_points(getattr(self, n), n) for n in names]
        if not 1 <= len(self.distance) <= 6:
            raise ConfigError("weights.distance needs 1 to 6 entries", field="weights.distance")
        dist = [_points(w, f"distance[{i}]") for i, w in enumerate(self.distance)]
        if self.share not in ("nearest", "all"):
            raise ConfigError(
                f"weights.share must be 'nearest' or 'all', not {self.share!r}", field="weights.share"
            )
        if not isinstance(self.nebula_exit, int) or not -1 <= self.nebula_exit <= 3:
            raise ConfigError(
                f"weights.nebula_exit must be 0..3 moves, or -1 (a nebula cannot be left), not "
                f"{self.nebula_exit!r}",
                field="weights.nebula_exit",
            )
        if not isinstance(self.mecatol_moves, int) or not 0 <= self.mecatol_moves <= 6:
            raise ConfigError(
                f"weights.mecatol_moves must be 0..6 moves, not {self.mecatol_moves!r}",
                field="weights.mecatol_moves",
            )
        lane = [_points(getattr(self, n), n) for n in ("mecatol", "mecatol_supernova", "mecatol_nebula")]
        object.__setattr__(self, "_pts", (*pts, _points(self.home, "home"), *lane, *dist))

    @property
    def reach(self) -> int:
        """The farthest jump that still counts."""
        return len(self.distance)

    def points(self) -> dict[str, int]:
        """The value weights in twentieths."""
        names = ("resources", "influence", "trait", "specialty", "legendary", "wormhole")
        return dict(zip(names, self._pts[:6], strict=True))

    def distance_points(self) -> tuple[int, ...]:
        """The distance weights in twentieths, for 1, 2, 3... moves."""
        return self._pts[10:]

    def mecatol_points(self) -> tuple[int, int, int]:
        """The Mecatol Rex path weights in twentieths: per move, supernova, nebula."""
        return self._pts[7], self._pts[8], self._pts[9]

    @property
    def has_mecatol_term(self) -> bool:
        """Whether the Mecatol Rex path term is part of the measure."""
        return any(self.mecatol_points())

    @property
    def nebula_stops(self) -> bool:
        """Whether a nebula cannot be left (``nebula_exit`` = -1)."""
        return self.nebula_exit < 0

    def home_points(self) -> int:
        """The home weight in twentieths."""
        return self._pts[6]

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types."""
        return {f.name: getattr(self, f.name) for f in fields(self) if not f.name.startswith("_")} | {
            "distance": list(self.distance)
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, field_prefix: str = "weights") -> Weights:
        """Weights from a dict (unknown keys and wrong types raise ``ConfigError`` naming the field)."""
        known = {f.name: f for f in fields(cls) if not f.name.startswith("_")}
        kwargs: dict[str, Any] = {}
        for key, value in data.items():
            if key not in known:
                raise ConfigError(
                    f"unknown weight {key!r}; known: {sorted(known)}", field=f"{field_prefix}.{key}"
                )
            default = getattr(cls(), key)
            if key == "distance":
                if not isinstance(value, list | tuple) or not all(
                    isinstance(v, int | float) and not isinstance(v, bool) for v in value
                ):
                    raise ConfigError(
                        f"{key} must be a list of numbers, not {value!r}", field=f"{field_prefix}.{key}"
                    )
                value = tuple(float(v) for v in value)
            elif isinstance(default, bool):
                if not isinstance(value, bool):
                    raise ConfigError(
                        f"{key} must be true or false, not {value!r}", field=f"{field_prefix}.{key}"
                    )
            elif isinstance(default, int):
                if not isinstance(value, int) or isinstance(value, bool):
                    raise ConfigError(
                        f"{key} must be an integer, not {value!r}", field=f"{field_prefix}.{key}"
                    )
            elif isinstance(default, float):
                if not isinstance(value, int | float) or isinstance(value, bool):
                    raise ConfigError(f"{key} must be a number, not {value!r}", field=f"{field_prefix}.{key}")
                value = float(value)
            elif not isinstance(value, str):
                raise ConfigError(f"{key} must be a string, not {value!r}", field=f"{field_prefix}.{key}")
            kwargs[key] = value
        try:
            return cls(**kwargs)
        except ConfigError as exc:
            raise ConfigError(exc.message, field=exc.field.replace("weights", field_prefix, 1)) from None


@memo(bound=1024)
def optimal(planet: Planet) -> tuple[Fraction, Fraction]:
    """A planet's optimal (resources, influence): the larger count, halves of each when equal."""
    r, i = planet.resources, planet.influence
    if r > i:
        return Fraction(r), Fraction(0)
    if i > r:
        return Fraction(0), Fraction(i)
    return Fraction(r, 2), Fraction(i, 2)


def planet_points(planet: Planet, weights: Weights) -> int:
    """A planet's value in fortieths (:data:`TILE_UNIT`; step 1 of the measure): exact."""
    w = weights.points()
    r, i = optimal(planet)
    value = 2 * (r * w["resources"] + i * w["influence"])  # 2 x halves x twentieths: whole
    value += 2 * w["trait"] if planet.trait else 0
    value += 2 * w["specialty"] if planet.specialty else 0
    value += 2 * w["legendary"] if planet.legendary else 0
    return int(value)


TERM_NAMES = (
    "optimal resources",
    "optimal influence",
    "planet traits",
    "technology specialties",
    "legendary planets",
    "wormholes",
)
"""The terms of a system's value (step 1), in the order of :func:`tile_terms`."""


@memo(bound=4096)
def tile_terms(tile: Tile, weights: Weights) -> tuple[int, ...]:
    """A system's value in fortieths split by term (:data:`TERM_NAMES`); they add up to
    :func:`tile_points`."""
    w = weights.points()
    res = inf = trait = spec = leg = 0
    for p in tile.planets:
        r, i = optimal(p)
        res += int(2 * r * w["resources"])
        inf += int(2 * i * w["influence"])
        trait += 2 * w["trait"] if p.trait else 0
        spec += 2 * w["specialty"] if p.specialty else 0
        leg += 2 * w["legendary"] if p.legendary else 0
    return res, inf, trait, spec, leg, 2 * w["wormhole"] * len(tile.wormholes)


@memo(bound=4096)
def tile_points(tile: Tile, weights: Weights) -> int:
    """A system's value in fortieths: its planets plus its wormholes (step 1)."""
    return sum(planet_points(p, weights) for p in tile.planets) + 2 * weights.points()["wormhole"] * len(
        tile.wormholes
    )


# ------------------------------------------------------------------------------------ movement

IMPASSABLE, NEBULA, RIFT, NORMAL = range(4)


@dataclass(frozen=True, slots=True)
class Movement:
    """How ships move through one space (step 2 of the measure).

    Attributes:
        kind: ``NORMAL``, ``IMPASSABLE``, ``NEBULA`` or ``RIFT``.
        wormholes: the wormhole types in the space (links to every space with the same type).
    """

    kind: int
    wormholes: tuple[str, ...] = ()


def movement(tile: Tile | None, weights: Weights) -> Movement:
    """The movement class of a space holding ``tile`` (None: an empty or unfilled space)."""
    if tile is None:
        return Movement(NORMAL)
    an = tile.anomalies
    if "supernova" in an or "muaat-supernova" in an or ("asteroid-field" in an and not weights.antimass):
        return Movement(IMPASSABLE, tile.wormholes)
    if "nebula" in an:
        return Movement(NEBULA, tile.wormholes)
    if "gravity-rift" in an:
        return Movement(RIFT, tile.wormholes)
    return Movement(NORMAL, tile.wormholes)


def exit_cost(here: Movement, there: Movement, weights: Weights) -> int:
    """Moves to step from ``here`` to ``there`` (adjacent or through a shared wormhole); a nebula that
    cannot be left has no steps out (:func:`edges`)."""
    if here.kind == NEBULA:
        return 1 + weights.nebula_exit
    if here.kind == RIFT and weights.rift_bonus and there.kind != RIFT:
        return 0
    return 1


def edges(board: Board, moves: Sequence[Movement], weights: Weights) -> list[list[tuple[Pos, int]]]:
    """Per space, the spaces a ship steps to from it and the moves each step costs (step 2)."""
    by_type: dict[str, list[Pos]] = {}
    if weights.wormhole_links:
        for p, m in enumerate(moves):
            if m.kind != IMPASSABLE:
                for w in m.wormholes:
                    by_type.setdefault(w, []).append(p)
    out: list[list[tuple[Pos, int]]] = []
    for u, here in enumerate(moves):
        if here.kind == IMPASSABLE or (here.kind == NEBULA and weights.nebula_stops):
            out.append([])
            continue
        targets: list[Pos] = list(board.adjacent[u])
        for w in here.wormholes if weights.wormhole_links else ():
            targets += [q for q in by_type.get(w, ()) if q != u and q not in targets]
        out.append([(v, exit_cost(here, moves[v], weights)) for v in targets if moves[v].kind != IMPASSABLE])
    return out


def blocked_for(home: Pos, homes: Sequence[Pos], weights: Weights) -> frozenset[Pos]:
    """The spaces a ship from ``home`` may not enter beyond the anomalies: the other homes with
    ``homes_block``."""
    return frozenset(h for h in homes if h != home) if weights.homes_block else frozenset()


def distances(
    board: Board,
    moves: Sequence[Movement],
    home: Pos,
    weights: Weights,
    *,
    limit: int | None = None,
    graph: Sequence[Sequence[tuple[Pos, int]]] | None = None,
    homes: Sequence[Pos] = (),
) -> dict[Pos, int]:
    """Moves from ``home`` to every space within ``limit`` (default: the weights' reach).

    ``graph``: ``edges(board, moves, weights)`` when the caller has it already; ``homes``: every
    home (with ``homes_block``, the others cannot be entered).
    """
    limit = weights.reach if limit is None else limit
    steps = edges(board, moves, weights) if graph is None else graph
    blocked = blocked_for(home, homes, weights)
    dist = {home: 0}
    buckets: list[list[Pos]] = [[home]] + [[] for _ in range(limit)]
    for d in range(limit + 1):
        for u in buckets[d]:  # (a free step appends to the bucket being read: it is read too)
            if dist[u] != d:
                continue
            for v, cost in steps[u]:
                nd = d + cost
                if nd <= limit and nd < dist.get(v, limit + 1) and v not in blocked:
                    dist[v] = nd
                    buckets[nd].append(v)
    return dist


def coefficients(
    board: Board,
    moves: Sequence[Movement],
    homes: Sequence[Pos],
    counted: Iterable[Pos],
    weights: Weights,
    *,
    dists: Sequence[Mapping[Pos, int]] | None = None,
) -> list[dict[Pos, int]]:
    """Per home, the share of each counted space's value it gets, in POINTS x SHARE_UNIT units.

    Depends only on the movement classes (anomalies and wormholes), not on the planets: a search
    that swaps two ordinary systems keeps the coefficients. ``dists``: each home's distances (at
    least to the weights' reach) when the caller has them.
    """
    if dists is None:
        graph = edges(board, moves, weights)
        dists = [distances(board, moves, h, weights, graph=graph, homes=homes) for h in homes]
    reach = weights.reach
    dist = [{p: d for p, d in dd.items() if d <= reach} for dd in dists]
    wp = weights.distance_points()
    out: list[dict[Pos, int]] = [{} for _ in homes]
    for p in counted:
        ds = [d.get(p) for d in dist]
        reached = [d for d in ds if d is not None and d >= 1]
        if not reached:
            continue
        if weights.share == "all":
            for k, d in enumerate(ds):
                if d is not None and d >= 1:
                    out[k][p] = wp[d - 1] * SHARE_UNIT
            continue
        m = min(reached)
        nearest = [k for k, d in enumerate(ds) if d == m]
        share = wp[m - 1] * SHARE_UNIT // len(nearest)
        for k in nearest:
            out[k][p] = share
    return out


# ------------------------------------------------------------------------ the Mecatol Rex path


SUPERNOVAS = ("supernova", "muaat-supernova")


@memo(bound=512)
def mecatol_lanes(
    adjacent: tuple[tuple[Pos, ...], ...], home: Pos, homes: tuple[Pos, ...], spaces: frozenset[Pos]
) -> tuple[int, tuple[tuple[Pos, tuple[Pos, ...]], ...]] | None:
    """The shortest paths on the board from ``home`` to Mecatol Rex (0), other homes and spaces out of
    play impassable (step 4): (d, every space on such a path after the home with its predecessors on
    one, nearest first, Mecatol Rex last), or None without any path. Geometry only: the tiles do not
    change it."""
    others = set(homes) - {home}

    def bfs(src: Pos) -> dict[Pos, int]:
        dist = {src: 0}
        queue = [src]
        for u in queue:
            for v in adjacent[u]:
                if v in spaces and v not in others and v not in dist:
                    dist[v] = dist[u] + 1
                    queue.append(v)
        return dist

    dh = bfs(home)
    if 0 not in dh:
        return None
    dm = bfs(0)
    d = dh[0]
    on = {p for p in dh if p != home and p in dm and dh[p] + dm[p] == d}
    order = sorted(on, key=lambda p: (dh[p], p))
    return d, tuple(
        (p, tuple(q for q in adjacent[p] if (q == home or q in on) and dh.get(q) == dh[p] - 1)) for p in order
    )


def crosses_every_path(
    home: Pos, lane: Sequence[tuple[Pos, Sequence[Pos]]], bad: Callable[[Pos], bool]
) -> bool:
    """Whether every shortest path of ``lane`` (:func:`mecatol_lanes`) crosses a space with ``bad``
    (Mecatol Rex itself is the end, not crossed)."""
    ok = {home: True}
    for p, preds in lane:
        ok[p] = (p == 0 or not bad(p)) and any(ok.get(q, False) for q in preds)
    return not ok.get(0, False)


def mecatol_terms(
    board: Board,
    galaxy: Mapping[Pos, TileId],
    homes: Sequence[Pos],
    tiles: Mapping[TileId, Tile],
    weights: Weights,
    *,
    spaces: Iterable[Pos] | None = None,
) -> list[int]:
    """Each home's Mecatol Rex path term times :data:`SCALE` (step 4 of the measure): ``mecatol`` x
    (``mecatol_moves`` - d), minus ``mecatol_supernova`` when every shortest path crosses a supernova
    and ``mecatol_nebula`` when every one crosses a nebula (d = 6 when no path exists)."""
    if not weights.has_mecatol_term:
        return [0] * len(homes)
    per, sup, neb = weights.mecatol_points()
    in_play = frozenset(range(len(board.rings)) if spaces is None else {0, *spaces, *homes})

    def has(p: Pos, kinds: Sequence[str]) -> bool:
        tile = tiles.get(galaxy.get(p, 0))
        return tile is not None and any(a in kinds for a in tile.anomalies)

    out = []
    for h in homes:
        lane = mecatol_lanes(board.adjacent, h, tuple(homes), in_play)
        if lane is None:
            out.append(per * (weights.mecatol_moves - 6) * (SCALE // POINTS))
            continue
        d, steps = lane
        v = per * (weights.mecatol_moves - d)
        if sup and crosses_every_path(h, steps, lambda p: has(p, SUPERNOVAS)):
            v -= sup
        if neb and crosses_every_path(h, steps, lambda p: has(p, ("nebula",))):
            v -= neb
        out.append(v * (SCALE // POINTS))
    return out


def home_values(
    board: Board,
    galaxy: Mapping[Pos, TileId],
    homes: Sequence[Pos],
    tiles: Mapping[TileId, Tile],
    weights: Weights,
    *,
    spaces: Iterable[Pos] | None = None,
    fill: int = 0,
) -> list[int]:
    """Each home's value times :data:`SCALE` (exact integers).

    Args:
        board: the board.
        galaxy: the system tile in each space (spaces missing: empty, passable, worth ``fill``).
        homes: the home positions, in seat order.
        tiles: the tiles by number.
        weights: the weights.
        spaces: the spaces in play (None: all 37); others cannot be entered and count for nobody.
        fill: the value in fortieths of a space not yet filled (0: nothing).
    """
    moves, counted, points = prepare_movement(board, galaxy, homes, tiles, weights, fill=fill, spaces=spaces)
    coefs = coefficients(board, moves, homes, counted, weights)
    lanes = mecatol_terms(board, galaxy, homes, tiles, weights, spaces=spaces)
    return [
        sum(c * points[p] for p, c in co.items()) + home_bonus(galaxy.get(h, 0), tiles, weights) + m
        for h, co, m in zip(homes, coefs, lanes, strict=True)
    ]


def home_system(tile: TileId, tiles: Mapping[TileId, Tile]) -> Tile | None:
    """The home system a home position's tile stands for: itself, or for the Creuss Gate (a faction's
    tile without planets) the faction's home system with planets (tile 51, off the board)."""
    t = tiles.get(tile)
    if t is None or t.planets or not t.faction:
        return t
    return next((u for u in tiles.values() if u.faction == t.faction and u.planets and u.pile == "home"), t)


def home_bonus(tile: TileId, tiles: Mapping[TileId, Tile], weights: Weights) -> int:
    """A seat's own home system's share of its value times SCALE (``weights.home``; 0 without a tile)."""
    hp = weights.home_points()
    system = home_system(tile, tiles) if hp else None
    return tile_points(system, weights) * hp * SHARE_UNIT if system is not None else 0


def prepare_movement(
    board: Board,
    galaxy: Mapping[Pos, TileId],
    homes: Sequence[Pos],
    tiles: Mapping[TileId, Tile],
    weights: Weights,
    *,
    fill: int,
    spaces: Iterable[Pos] | None,
) -> tuple[list[Movement], list[Pos], dict[Pos, int]]:
    """Each space's movement, the spaces that count for a home (not a home, in play) and their points
    (``fill`` for an empty one): what a home value is computed from."""
    n = len(board.rings)
    in_play = set(range(n)) if spaces is None else set(spaces) | set(homes)
    moves = [
        movement(tiles.get(galaxy.get(p, 0)), weights) if p in in_play else Movement(IMPASSABLE)
        for p in range(n)
    ]
    home_set = set(homes)
    counted = [p for p in range(1, n) if p not in home_set and p in in_play]
    points = {
        p: (tile_points(tiles[galaxy[p]], weights) if galaxy.get(p, 0) in tiles else fill) for p in counted
    }
    return moves, counted, points


@dataclass(frozen=True, slots=True, kw_only=True)
class HomeReport:
    """What one home system has around it (the balance per seat).

    Attributes:
        home: its position.
        value: the home value (step 3 of the measure).
        resources: optimal resources counted in the value (weighted by distance and share).
        influence: optimal influence counted in the value (weighted by distance and share).
        near_resources: optimal resources of planets within 2 jumps (unweighted, unshared).
        near_influence: optimal influence of planets within 2 jumps (unweighted, unshared).
        systems: systems that count for this home.
        wormholes: wormholes in systems that count for it.
        legendary: legendary planets in systems that count for it.
        specialties: technology specialties within 2 jumps.
        mecatol: moves to Mecatol Rex (None beyond 6).
        lane_anomalies: anomalies next to the home or on every shortest way to Mecatol Rex.
        mecatol_term: the Mecatol Rex path term in the value (step 4; 0 when the measure has none).
        terms: the value split by term (:data:`TERM_NAMES`, then ``Mecatol Rex path`` and ``home
            system``): they add up to ``value`` (a score sheet a person can check).
    """

    home: Pos
    value: float
    resources: float
    influence: float
    near_resources: float
    near_influence: float
    systems: int
    wormholes: int
    legendary: int
    specialties: int
    mecatol: int | None
    lane_anomalies: tuple[TileId, ...]
    mecatol_term: float = 0.0
    terms: tuple[tuple[str, float], ...] = ()


def home_reports(
    board: Board,
    galaxy: Mapping[Pos, TileId],
    homes: Sequence[Pos],
    tiles: Mapping[TileId, Tile],
    weights: Weights,
    *,
    spaces: Iterable[Pos] | None = None,
    fill: int = 0,
) -> list[HomeReport]:
    """A :class:`HomeReport` per home (the numbers behind the value, for people)."""
    moves, counted, points = prepare_movement(board, galaxy, homes, tiles, weights, fill=fill, spaces=spaces)
    graph = edges(board, moves, weights)
    fars = [
        distances(board, moves, h, weights, limit=max(6, weights.reach), graph=graph, homes=homes)
        for h in homes
    ]
    coefs = coefficients(board, moves, homes, counted, weights, dists=fars)
    lanes = mecatol_terms(board, galaxy, homes, tiles, weights, spaces=spaces)
    out = []
    for k, h in enumerate(homes):
        co = coefs[k]
        far = fars[k]
        near = _near(counted, galaxy, tiles, co, far)
        parts = [0] * len(TERM_NAMES)
        for p in counted:
            tile = tiles.get(galaxy.get(p, 0))
            if tile is not None:
                parts = [a + co.get(p, 0) * b for a, b in zip(parts, tile_terms(tile, weights), strict=True)]
        own = home_bonus(galaxy.get(h, 0), tiles, weights)
        empty = sum(c * fill for p, c in co.items() if galaxy.get(p, 0) not in tiles)
        terms = (
            *zip(TERM_NAMES, (x / SCALE for x in parts), strict=True),
            ("Mecatol Rex path", lanes[k] / SCALE),
            *((("spaces still empty, at the mean tile in hand", empty / SCALE),) if fill else ()),
        )
        out.append(
            HomeReport(
                home=h,
                terms=(*terms, ("home system", own / SCALE)),
                value=(sum(c * points[p] for p, c in co.items()) + own + lanes[k]) / SCALE,
                resources=near.resources,
                influence=near.influence,
                near_resources=near.near_resources,
                near_influence=near.near_influence,
                wormholes=near.wormholes,
                legendary=near.legendary,
                specialties=near.specialties,
                systems=sum(1 for p in co if galaxy.get(p, 0) in tiles),
                mecatol=far.get(0),
                lane_anomalies=_lane_anomalies(board, galaxy, tiles, h),
                mecatol_term=lanes[k] / SCALE,
            )
        )
    return out


@dataclass(frozen=True, slots=True)
class _Planets:
    """The planet counts of a :class:`HomeReport` (see its attributes)."""

    resources: float
    influence: float
    near_resources: float
    near_influence: float
    wormholes: int
    legendary: int
    specialties: int


def _near(
    counted: Sequence[Pos],
    galaxy: Mapping[Pos, TileId],
    tiles: Mapping[TileId, Tile],
    co: Mapping[Pos, int],
    far: Mapping[Pos, int],
) -> _Planets:
    """A home's planets in numbers: optimal resources and influence counted in its value (by their
    coefficients ``co``) and within 2 jumps (``far``), wormholes, legendary planets, specialties."""
    unit = POINTS * SHARE_UNIT
    res = inf = near_r = near_i = 0.0
    worm = leg = spec = 0
    for p in counted:
        tile = tiles.get(galaxy.get(p, 0))
        if tile is None:
            continue
        c = co.get(p, 0) / unit
        d = far.get(p)
        for planet in tile.planets:
            r, i = (float(x) for x in optimal(planet))
            res += c * r
            inf += c * i
            if d is not None and d <= 2:
                near_r += r
                near_i += i
                spec += 1 if planet.specialty else 0
            leg += 1 if planet.legendary and c else 0
        worm += len(tile.wormholes) if c else 0
    return _Planets(res, inf, near_r, near_i, worm, leg, spec)


def _lane_anomalies(
    board: Board, galaxy: Mapping[Pos, TileId], tiles: Mapping[TileId, Tile], home: Pos
) -> tuple[TileId, ...]:
    """Anomalies next to ``home`` or on the straight lane from it to Mecatol Rex (by geometry)."""
    lane = set(board.adjacent[home]) | set(_straight_lane(board.coords, home))
    found = {galaxy[p] for p in lane if galaxy.get(p, 0) in tiles and tiles[galaxy[p]].is_anomaly}
    return tuple(sorted(found))


@memo(bound=64)
def _straight_lane(coords: tuple[tuple[int, int], ...], home: Pos) -> tuple[Pos, ...]:
    """The spaces between ``home`` and Mecatol Rex by plain hex distance (every shortest way)."""
    q0, r0 = coords[home]

    def hexdist(a: tuple[int, int], b: tuple[int, int]) -> int:
        dq, dr = a[0] - b[0], a[1] - b[1]
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    total = hexdist((q0, r0), (0, 0))
    return tuple(
        p
        for p, c in enumerate(coords)
        if 0 < hexdist(c, (q0, r0)) < total and hexdist(c, (q0, r0)) + hexdist(c, (0, 0)) == total
    )
