"""The TI4 content pack: system tiles, the board, factions and the setup components, validated.

Every fact here is data in ``games/ti4/content/`` (transcribed from the printed tiles and the
rulebook's GAME BOARD SETUP diagrams; the authored items say so); a user's pack replaces it with
``content_path=``. Nothing is read from outside the pack at run time.

Positions are the community's map-string indices (the TTS string): 0 is Mecatol Rex, 1-6 ring 1
(1 straight above Mecatol Rex, then clockwise), 7-18 ring 2, 19-36 ring 3. Neighbours are listed in
direction order N, NE, SE, S, SW, NW (hexes with flat tops and bottoms), ``None`` off the board.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeAlias

from games.core.cache import memo
from games.core.content import Node, load_json, load_manifest, resolve_pack_dir
from games.core.text import is_digits
from games.errors import ContentError

__all__ = [
    "ANOMALIES",
    "BACKS",
    "EXPANSIONS",
    "SPECIALTIES",
    "TRAITS",
    "WORMHOLES",
    "Board",
    "Content",
    "Faction",
    "Layout",
    "Objective",
    "Planet",
    "Pos",
    "Tile",
    "TileId",
    "load_content",
]

TileId: TypeAlias = int
"""A system tile by its printed number (the TTS map-string number): ``26`` is Lodor."""

Pos: TypeAlias = int
"""A space of the galaxy by its map-string index (0 = Mecatol Rex)."""

BACKS = ("blue", "red", "green")
"""Tile backs (rule: ti4/separate-systems): blue and red systems are dealt, green are home systems."""
PILES = ("blue", "red", "home", "none")
WORMHOLES = ("alpha", "beta", "gamma", "delta")
ANOMALIES = ("asteroid-field", "gravity-rift", "nebula", "supernova", "muaat-supernova")
TRAITS = ("cultural", "hazardous", "industrial")
SPECIALTIES = ("biotic", "cybernetic", "propulsion", "warfare")
EXPANSIONS = ("base", "pok")
"""``base`` = the base game; ``pok`` = with Prophecy of Kings (its tiles and factions added)."""
DIRECTIONS = ("N", "NE", "SE", "S", "SW", "NW")
_AXIAL = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
"""Axial (q, r) steps of the six directions for flat-topped hexes."""


@dataclass(frozen=True, slots=True)
class Planet:
    """A planet printed on a system tile.

    Attributes:
        name: its printed name.
        resources: resource value.
        influence: influence value.
        trait: ``cultural``, ``hazardous``, ``industrial`` or "" (none).
        specialty: technology specialty (``biotic``, ``cybernetic``, ``propulsion``, ``warfare``) or "".
        legendary: whether it is a legendary planet.
    """

    name: str
    resources: int
    influence: int
    trait: str
    specialty: str
    legendary: bool


@dataclass(frozen=True, slots=True)
class Tile:
    """A system tile.

    Attributes:
        id: its printed number.
        back: ``blue``, ``red`` or ``green`` (rule: ti4/separate-systems).
        pile: the setup pile it goes to: ``blue``, ``red``, ``home`` or ``none`` (Mecatol Rex, tiles
            made during play).
        expansion: ``base`` or ``pok``.
        planets: its planets.
        wormholes: wormhole types on it.
        anomalies: anomaly types (``asteroid-field``, ``gravity-rift``, ``nebula``, ``supernova``).
        faction: the faction whose home system it is ("" if none).
        note: a remark for people ("" if none).
        authored: whether the pack authored it (False: transcribed from the printed tile).
    """

    id: TileId
    back: str
    pile: str
    expansion: str
    planets: tuple[Planet, ...]
    wormholes: tuple[str, ...]
    anomalies: tuple[str, ...]
    faction: str = ""
    note: str = ""
    authored: bool = False

    @property
    def is_anomaly(self) -> bool:
        """Whether the tile is an anomaly (rule: ti4/anomaly-adjacency)."""
        return bool(self.anomalies)

    @property
    def name(self) -> str:
        """What a person calls it: its planets, its anomaly, its wormhole or "empty space"."""
        if self.planets:
            return " / ".join(p.name for p in self.planets)
        if self.anomalies:
            return self.anomalies[0].replace("-", " ")
        if self.wormholes:
            return f"{self.wormholes[0]} wormhole"
        return "empty space"


@dataclass(frozen=True, slots=True)
class Faction:
    """A faction (rule: ti4/factions).

    Attributes:
        id: short id used in notation (``hacan``).
        name: its printed name.
        home: its home system tile (the Ghosts of Creuss: tile 51, with the Creuss Gate 17 on the board).
        expansion: ``base`` or ``pok``.
        technologies: starting technologies (rule: ti4/starting-components; authored).
        units: starting units by unit name (authored).
        technology_choice: a starting technology the player chooses ("" if none).
        authored: whether the starting components are authored.
    """

    id: str
    name: str
    home: TileId
    expansion: str
    technologies: tuple[str, ...] = ()
    units: tuple[tuple[str, int], ...] = ()
    technology_choice: str = ""
    authored: bool = False


@dataclass(frozen=True, slots=True)
class Objective:
    """An objective card (rule: ti4/objectives); the titles are authored content.

    Attributes:
        id: short id (``sway-the-council``).
        name: its title.
        deck: ``stage I``, ``stage II`` or ``secret``.
        authored: whether the pack authored it.
    """

    id: str
    name: str
    deck: str
    authored: bool = True


@dataclass(frozen=True, slots=True)
class Layout:
    """The rulebook's galaxy for one player count (rule: ti4/home-systems, ti4/deal-system-tiles).

    Attributes:
        players: the player count.
        homes: home positions in clockwise order (seat k's home is ``homes[k]``).
        systems: positions that receive a system tile.
        trade_goods: trade goods by home position (rule: ti4/five-player-trade-goods).
        blue: blue-backed tiles dealt to each player.
        red: red-backed tiles dealt to each player.
        by_ring: the system positions ring by ring, innermost first, each ring's in order (built at
            load from ``systems`` and the board's rings: the rings are built in this order, rule:
            ti4/ring-order).
    """

    players: int
    homes: tuple[Pos, ...]
    systems: tuple[Pos, ...]
    trade_goods: Mapping[Pos, int]
    blue: int
    red: int
    by_ring: tuple[tuple[Pos, ...], ...]

    @property
    def extra_red(self) -> int:
        """The speaker's random red tile in a five-player game (rule: ti4/five-player-red-tile)."""
        return 1 if self.players == 5 else 0


@dataclass(frozen=True, slots=True)
class Board:
    """The 37 spaces of the three-ring galaxy.

    Attributes:
        rings: ring of each position (0 = Mecatol Rex).
        neighbours: per position, the neighbour in each direction (N..NW) or None.
        coords: axial (q, r) coordinates of each position (flat-topped hexes).
        layouts: the rulebook's layout by player count.
    """

    rings: tuple[int, ...]
    neighbours: tuple[tuple[Pos | None, ...], ...]
    coords: tuple[tuple[int, int], ...]
    layouts: Mapping[int, Layout]
    adjacent: tuple[tuple[Pos, ...], ...] = field(default=())

    def ring_positions(self, ring: int) -> tuple[Pos, ...]:
        """The positions of ``ring``, clockwise from the top."""
        return tuple(p for p, r in enumerate(self.rings) if r == ring)

    def rotate(self, pos: Pos, steps: int) -> Pos:
        """``pos`` turned ``steps`` sixths of a turn clockwise about Mecatol Rex."""
        ring = self.rings[pos]
        if ring == 0:
            return pos
        first = 1 + 3 * ring * (ring - 1)  # 1, 7, 19
        size = 6 * ring
        return first + (pos - first + ring * steps) % size

    def mirror(self, pos: Pos) -> Pos:
        """``pos`` reflected in the vertical axis through Mecatol Rex (position 1 stays)."""
        ring = self.rings[pos]
        if ring == 0:
            return pos
        first = 1 + 3 * ring * (ring - 1)
        size = 6 * ring
        return first + (-(pos - first)) % size


def _planet(node: Node) -> Planet:
    trait = node["trait"].value
    specialty = node["specialty"].value
    return Planet(
        name=node.str("name"),
        resources=node.int("resources", min=0, max=20),
        influence=node.int("influence", min=0, max=20),
        trait="" if trait is None else node.str("trait", choices=TRAITS),
        specialty="" if specialty is None else node.str("specialty", choices=SPECIALTIES),
        legendary=node.bool("legendary"),
    )


def _tile(node: Node) -> Tile:
    raw_id = node.str("id")
    if not is_digits(raw_id) or not 1 <= int(raw_id) <= 999:
        raise node.fail("a tile number 1..999", key="id", got=raw_id)
    return Tile(
        id=int(raw_id),
        back=node.str("back", choices=BACKS),
        pile=node.str("pile", choices=PILES),
        expansion=node.str("expansion", choices=EXPANSIONS),
        planets=tuple(_planet(p) for p in node.list("planets", max_len=6)),
        wormholes=tuple(node.str_list("wormholes", choices=WORMHOLES)),
        anomalies=tuple(node.str_list("anomalies", choices=ANOMALIES)),
        faction=node.str("faction") if node.has("faction") else "",
        note=node.str("note") if node.has("note") else "",
        authored=node.bool("authored"),
    )


def _coords(neighbours: tuple[tuple[Pos | None, ...], ...], file: str) -> tuple[tuple[int, int], ...]:
    coords: dict[Pos, tuple[int, int]] = {0: (0, 0)}
    queue = [0]
    while queue:
        p = queue.pop(0)
        q, r = coords[p]
        for d, n in enumerate(neighbours[p]):
            if n is None:
                continue
            at = (q + _AXIAL[d][0], r + _AXIAL[d][1])
            if n in coords and coords[n] != at:
                raise ContentError(f"neighbours of {p} and {n} disagree on geometry", file=file)
            if n not in coords:
                coords[n] = at
                queue.append(n)
    if len(coords) != len(neighbours):
        raise ContentError("the board is not connected", file=file)
    return tuple(coords[p] for p in range(len(neighbours)))


def _board(node: Node) -> Board:
    positions = node.list("positions", min_len=37, max_len=37)
    rings: list[int] = []
    neighbours: list[tuple[Pos | None, ...]] = []
    for i, p in enumerate(positions):
        if p.int("index") != i:
            raise p.fail(f"index {i}", key="index", got=p["index"].value)
        rings.append(p.int("ring", min=0, max=3))
        nb = p.list("neighbours", min_len=6, max_len=6)
        neighbours.append(tuple(None if n.value is None else n.int(min=0, max=36) for n in nb))
    for here, around in enumerate(neighbours):
        for there in around:
            if there is not None and here not in neighbours[there]:
                raise node.fail(
                    f"symmetric adjacency ({here} lists {there} but not the reverse)", key="positions"
                )
    layouts: dict[int, Layout] = {}
    for key, lay in node["layouts"].items():
        if key not in ("3", "4", "5", "6"):
            raise lay.fail("a player count 3..6 as key", got=key)
        count = int(key)
        homes = tuple(lay.int_list("homes", min=1, max=36))
        systems = tuple(lay.int_list("systems", min=1, max=36))
        if len(homes) != count or set(homes) & set(systems) or len(set(systems)) != len(systems):
            raise lay.fail(f"{count} home positions apart from distinct system positions")
        deal = lay["deal"]
        blue, red = deal.int("blue", min=0, max=20), deal.int("red", min=0, max=20)
        if count * (blue + red) + (1 if count == 5 else 0) != len(systems):
            raise lay.fail(f"as many system positions as tiles dealt ({count} x {blue}+{red})", key="systems")
        goods = {int(k): v.int(min=0, max=20) for k, v in lay["trade_goods"].items() if is_digits(k)}
        if set(goods) - set(homes):
            raise lay.fail("trade goods on home positions only", key="trade_goods")
        in_rings = sorted({rings[p] for p in systems})
        by_ring = tuple(tuple(sorted(p for p in systems if rings[p] == r)) for r in in_rings)
        layouts[count] = Layout(
            players=count,
            homes=homes,
            systems=systems,
            trade_goods=goods,
            blue=blue,
            red=red,
            by_ring=by_ring,
        )
    nb_t = tuple(neighbours)
    adjacent = tuple(tuple(n for n in nb if n is not None) for nb in nb_t)
    return Board(
        rings=tuple(rings),
        neighbours=nb_t,
        coords=_coords(nb_t, node.file),
        layouts=layouts,
        adjacent=adjacent,
    )


def _faction(node: Node, starting: Mapping[str, Node]) -> Faction:
    fid = node.str("id")
    home_id = node.str("home")
    if not is_digits(home_id):
        raise node.fail("a tile number", key="home", got=home_id)
    start = starting.get(fid)
    techs: tuple[str, ...] = ()
    units: tuple[tuple[str, int], ...] = ()
    choice = ""
    authored = node.bool("authored")
    if start is not None:
        techs = tuple(start.str_list("technologies"))
        units = tuple((k, v.int(min=0, max=20)) for k, v in start["units"].items())
        choice = start.str("technology_choice") if start.has("technology_choice") else ""
        authored = authored or start.bool("authored")
    return Faction(
        id=fid,
        name=node.str("name"),
        home=int(home_id),
        expansion=node.str("expansion", choices=EXPANSIONS),
        technologies=techs,
        units=units,
        technology_choice=choice,
        authored=authored,
    )


@dataclass(frozen=True, slots=True)
class Content:
    """A loaded TI4 content pack.

    Attributes:
        name: pack name.
        version: pack version.
        tiles: every system tile by number.
        board: the galaxy's spaces and the rulebook's layouts.
        factions: every faction, in pack order.
        colors: player colours (id, expansion) (rule: ti4/color-and-planets).
        strategy_cards: the eight strategy cards by initiative (rule: ti4/custodians-and-decks).
        command_tokens: tokens per pool at setup (rule: ti4/starting-components).
        common_decks: the decks shuffled at setup.
        supply: the supply piles.
        objectives: the objective cards (titles authored).
        milty_slice: the Milty slice's five spaces for the home at position 19, in slot order
            (left, front, right, far front, far right); other homes turn it (authored).
        milty_seats: home positions of a Milty galaxy by player count (authored).
    """

    name: str
    version: str
    tiles: Mapping[TileId, Tile]
    board: Board
    factions: tuple[Faction, ...]
    colors: tuple[tuple[str, str], ...]
    strategy_cards: tuple[str, ...]
    command_tokens: tuple[tuple[str, int], ...]
    common_decks: tuple[str, ...]
    supply: tuple[str, ...]
    objectives: tuple[Objective, ...]
    milty_slice: tuple[Pos, ...]
    milty_seats: Mapping[int, tuple[Pos, ...]]

    def faction(self, fid: str) -> Faction | None:
        """The faction with id ``fid`` or None."""
        return next((f for f in self.factions if f.id == fid), None)

    def factions_for(self, expansion: str) -> tuple[Faction, ...]:
        """The factions in play with ``expansion`` (``base``: the base game's only)."""
        return tuple(f for f in self.factions if expansion == "pok" or f.expansion == "base")

    def colors_for(self, expansion: str) -> tuple[str, ...]:
        """The player colours with ``expansion``."""
        return tuple(c for c, e in self.colors if expansion == "pok" or e == "base")

    def pile(self, back: str, expansion: str) -> tuple[TileId, ...]:
        """The tiles of the blue or red setup pile (rule: ti4/separate-systems), by number."""
        return tuple(
            sorted(
                t.id
                for t in self.tiles.values()
                if t.pile == back and (expansion == "pok" or t.expansion == "base")
            )
        )

    def objectives_in(self, deck: str) -> tuple[Objective, ...]:
        """The objective cards of ``deck``."""
        return tuple(o for o in self.objectives if o.deck == deck)


@memo(bound=8)
def load_content(content_path: str = "") -> Content:
    """Load and validate the pack (the reference pack when ``content_path`` is "")."""
    directory = resolve_pack_dir("games.ti4", content_path)
    manifest = load_manifest(directory)
    tiles = _load_tiles(directory)
    board_node = load_json(directory / "board.json")
    board = _board(board_node)
    milty_slice, milty_seats = _load_milty(board_node, board)
    for n in (3, 4, 5, 6):
        if n not in board.layouts:
            raise ContentError(f"no layout for {n} players", file="board.json")
    setup = load_json(directory / "setup.json")
    starting = {s.str("faction"): s for s in setup.list("starting")}
    factions_node = load_json(directory / "factions.json")
    factions = tuple(_faction(f, starting) for f in factions_node.list("factions", min_len=6))
    for f in factions:
        if f.home not in tiles or tiles[f.home].back != "green":
            raise ContentError(
                f"faction {f.id!r}: home {f.home} is not a green tile", file=factions_node.file
            )
    colors = tuple(
        (c.str("id"), c.str("expansion", choices=EXPANSIONS)) for c in setup.list("colors", min_len=6)
    )
    objectives = _load_objectives(setup)
    cards = [(c.int("initiative", min=1, max=8), c.str("name")) for c in setup.list("strategy_cards")]
    tokens = setup["command_tokens"]
    return Content(
        name=manifest.name,
        version=manifest.version,
        tiles=tiles,
        board=board,
        factions=factions,
        colors=colors,
        strategy_cards=tuple(n for _, n in sorted(cards)),
        command_tokens=tuple((k, tokens.int(k, min=0, max=16)) for k in ("tactic", "fleet", "strategy")),
        common_decks=tuple(setup.str_list("common_decks")),
        supply=tuple(setup.str_list("supply")),
        objectives=objectives,
        milty_slice=milty_slice,
        milty_seats=milty_seats,
    )


def _load_tiles(directory: Path) -> dict[TileId, Tile]:
    """The system tiles of ``tiles.json`` by number (each once; tile 18 is Mecatol Rex)."""
    tiles_node = load_json(directory / "tiles.json")
    tiles: dict[TileId, Tile] = {}
    for t in tiles_node.list("tiles", min_len=1):
        tile = _tile(t)
        if tile.id in tiles:
            raise t.fail("a tile number not listed before", key="id", got=tile.id)
        tiles[tile.id] = tile
    if 18 not in tiles or not any(p.name == "Mecatol Rex" for p in tiles[18].planets):
        raise ContentError("tile 18 must be Mecatol Rex", file=tiles_node.file, field="tiles")
    return tiles


def _load_milty(board_node: Node, board: Board) -> tuple[tuple[Pos, ...], dict[int, tuple[Pos, ...]]]:
    """The Milty slice shape and the seats by player count (among the six-player home positions)."""
    milty = board_node["milty"]
    milty_slice = tuple(milty.int_list("slice", min=1, max=36))
    six = board.layouts[6].homes if 6 in board.layouts else ()
    milty_seats = {
        int(k): tuple(v.int_list(min=1, max=36)) for k, v in milty["seats"].items() if is_digits(k)
    }
    if len(milty_slice) != 5 or any(not set(s) <= set(six) for s in milty_seats.values()):
        raise milty.fail("a five-space slice and seats among the six-player home positions")
    return milty_slice, milty_seats


def _load_objectives(setup: Node) -> tuple[Objective, ...]:
    """The objective cards of ``setup.json`` (enough of each deck for six players)."""
    objectives = tuple(
        Objective(
            id=o.str("id"),
            name=o.str("name"),
            deck=o.str("deck", choices=("stage I", "stage II", "secret")),
            authored=o.bool("authored"),
        )
        for o in setup.list("objectives")
    )
    for deck, need in (("stage I", 5), ("stage II", 5), ("secret", 12)):
        if sum(1 for o in objectives if o.deck == deck) < need:
            raise ContentError(f"at least {need} {deck} objectives needed", file=setup.file)
    return objectives
