"""The Cytress content pack (``games/cytress/content/``) and the mini-map's hex graph.

rule: cytress/setup - the components: faction district boards (two sides), 72 intel cards, the 5
double-sided rebel boards, the 5 map tiles and their patterns, 12 Stratolites, 8 enforcer
bounties, the Cytress district board's trade market (two sides) and the solo AI action cards.
rule: cytress/minimap-stratos - the mini-map is a hex graph (``networkx``) whose nodes are the
hexes of the tiles laid in the pattern for the number of tiles, each hex in a faction's colour.

Everything is read through ``games.core.content`` (validating ``Node`` accessors): a bad pack
raises ``ContentError`` naming the file and the field.
"""

from __future__ import annotations

import string
from dataclasses import dataclass, field
from pathlib import Path

import networkx as nx

from games.core.content import Node, load_json, load_manifest, resolve_pack_dir
from games.cytress.state import FACTIONS, RESOURCES
from games.errors import ContentError

__all__ = [
    "AI_CARDS_PER_FACTION",
    "TILE_COLUMNS",
    "TILE_ROWS",
    "BoardSide",
    "Bounty",
    "Content",
    "IntelCard",
    "Layout",
    "MapView",
    "MarketSide",
    "Rebel",
    "Stratolite",
    "Tile",
    "hex_label",
    "load_content",
]

TILE_COLUMNS = 5
"""Hexes per tile row (authored tile shape, ``map.json``)."""
TILE_ROWS = 2
"""Rows per tile."""
AI_CARDS_PER_FACTION = 4
"""rule: cytress/solo-setup - 16 AI action cards: 3 per faction on the tracker, 1 in the deck."""
AI_ON_TRACKER = 3
FACTION_LETTERS = {"C": 0, "P": 1, "H": 2, "R": 3}
"""Map tile letters: Corpocrat, Privateer, Hooligang, Rover."""


@dataclass(frozen=True, slots=True)
class BoardSide:
    """One side of the faction district boards.

    Attributes:
        id: ``"1-3"`` or ``"4+"``.
        intel_cost: the intel cost on each faction's landing pad (in that faction's resource).
        spots: the two scouting spots' (resources gained, fewest players it is open to).
        authored: whether the values are authored.
    """

    id: str
    intel_cost: int
    spots: tuple[tuple[int, int], ...]
    authored: bool


@dataclass(frozen=True, slots=True)
class IntelCard:
    """A faction intel card.

    Attributes:
        id: index in ``Content.intel``.
        code: its notation, e.g. ``"COR07"``.
        faction: the deck (and lifepath) it belongs to.
        icons: the resource icons it adds to its lifepath.
        target: the rival faction it targets (its faction target icon).
        authored: True (the rulebook prints no card list).
    """

    id: int
    code: str
    faction: int
    icons: tuple[int, ...]
    target: int
    authored: bool


@dataclass(frozen=True, slots=True)
class Rebel:
    """A double-sided rebel board.

    Attributes:
        id: its id, e.g. ``"absalom"``.
        name: its printed (or authored) name.
        colour: the player colour of its standees and crews.
        sides: per side (``A``, ``B``), the starting icons of each lifepath (by faction index).
        authored: whether it is authored.
    """

    id: str
    name: str
    colour: str
    sides: tuple[tuple[tuple[int, ...], ...], ...]
    authored: bool


@dataclass(frozen=True, slots=True)
class Tile:
    """A mini-map tile.

    Attributes:
        id: its id (``"1"`` .. ``"5"``).
        factions: the faction of each hex, row by row (``TILE_ROWS`` x ``TILE_COLUMNS``).
        authored: True.
    """

    id: str
    factions: tuple[int, ...]
    authored: bool


@dataclass(frozen=True, slots=True)
class Layout:
    """The mini-map pattern for a number of tiles, and its hex graph.

    Attributes:
        tiles: the number of tiles.
        slots: each slot's (column, row) offset.
        labels: each hex's id (``"C4"``: column letter, row number), by hex index.
        coords: each hex's (column, row) in 'odd-r' offset coordinates.
        cell: each hex's (slot, position in its tile).
        adjacent: each hex's neighbours (hex indices), ascending.
        graph: the same adjacency as a ``networkx.Graph`` over hex indices (``label`` attribute).
    """

    tiles: int
    slots: tuple[tuple[int, int], ...]
    labels: tuple[str, ...]
    coords: tuple[tuple[int, int], ...]
    cell: tuple[tuple[int, int], ...]
    adjacent: tuple[tuple[int, ...], ...]
    graph: nx.Graph


@dataclass(frozen=True, slots=True)
class MapView:
    """The mini-map of one game: its layout and each hex's faction.

    Attributes:
        layout: the pattern (labels, adjacency, graph).
        faction: each hex's faction (colour), from the tiles drawn.
        by_faction: per faction, its hexes ascending.
        resource: each hex's faction's resource (what spying on a crew there gains).
    """

    layout: Layout
    faction: tuple[int, ...]
    by_faction: tuple[tuple[int, ...], ...]
    resource: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Stratolite:
    """A Stratolite card.

    Attributes:
        id: index in ``Content.stratolites``.
        code: its notation, e.g. ``"S07"``.
        name: its authored name.
        hex: the faction of the hexes it drops waste tubes onto.
        resource: the resource it is paid in.
        authored: True.
    """

    id: int
    code: str
    name: str
    hex: int
    resource: int
    authored: bool


@dataclass(frozen=True, slots=True)
class Bounty:
    """An enforcer bounty card.

    Attributes:
        id: index in ``Content.bounties``.
        code: its notation, e.g. ``"B1-COR"``.
        faction: the faction it is against (scores per matching target icon).
        tier: 1 (2 PRESTIGE per icon) or 2 (1 PRESTIGE per icon; 4+ players).
        hex: the faction of the hexes its crew benefit sends a crew to.
        resource: the resource its ascend benefit costs 5 of.
        authored: whether hex and resource are authored.
    """

    id: int
    code: str
    faction: int
    tier: int
    hex: int
    resource: int
    authored: bool


@dataclass(frozen=True, slots=True)
class MarketSide:
    """A side of the Cytress district board's trade market.

    Attributes:
        id: ``"A"`` or ``"B"``.
        arrows: the (give, get) resource pairs its arrows allow among AMMO, CREDS and TECH.
        authored: whether the arrows are authored.
    """

    id: str
    arrows: tuple[tuple[int, int], ...]
    authored: bool


@dataclass(frozen=True, slots=True)
class Content:
    """A loaded Cytress content pack.

    Attributes:
        name: the pack name.
        version: the pack version.
        authored: whether the pack says it is authored.
        faction_names: each faction's display name.
        faction_colour: each faction's hex colour name.
        faction_resource: each faction's resource (scouting, intel cost, spying).
        faction_authored: per faction, whether its colour/resource are authored.
        board_sides: the faction district boards' two sides (0: 1-3 players, 1: 4+).
        intel: the 72 intel cards.
        intel_decks: per faction, its cards' ids.
        rebels: the 5 rebel boards.
        tiles: the 5 map tiles.
        layouts: the mini-map pattern per number of tiles.
        stratolites: the 12 Stratolite cards.
        bounties: the 8 bounty cards.
        market: the trade market's two sides.
        intel_target: each intel card's target faction (``intel[c].target``, as a flat table).
        intel_faction: each intel card's faction (``intel[c].faction``, the same way).
        strat_resource: each Stratolite's resource (``stratolites[c].resource``, the same way).
        strat_hex: each Stratolite's hex faction (``stratolites[c].hex``, the same way).
    """

    name: str
    version: str
    authored: bool
    faction_names: tuple[str, ...]
    faction_colour: tuple[str, ...]
    faction_resource: tuple[int, ...]
    faction_authored: tuple[bool, ...]
    board_sides: tuple[BoardSide, ...]
    intel: tuple[IntelCard, ...]
    intel_decks: tuple[tuple[int, ...], ...]
    rebels: tuple[Rebel, ...]
    tiles: tuple[Tile, ...]
    layouts: dict[int, Layout]
    stratolites: tuple[Stratolite, ...]
    bounties: tuple[Bounty, ...]
    market: tuple[MarketSide, ...]
    intel_target: tuple[int, ...] = field(default=(), repr=False, compare=False)
    intel_faction: tuple[int, ...] = field(default=(), repr=False, compare=False)
    strat_resource: tuple[int, ...] = field(default=(), repr=False, compare=False)
    strat_hex: tuple[int, ...] = field(default=(), repr=False, compare=False)


def hex_label(col: int, row: int) -> str:
    """A hex's id: its column letter and row number (``C4``)."""
    return f"{string.ascii_uppercase[col]}{row + 1}"


def _neighbours(col: int, row: int) -> list[tuple[int, int]]:
    """The six neighbours of a hex in 'odd-r' offset coordinates (odd rows shifted right)."""
    if row % 2 == 0:
        deltas = ((1, 0), (-1, 0), (-1, -1), (0, -1), (-1, 1), (0, 1))
    else:
        deltas = ((1, 0), (-1, 0), (0, -1), (1, -1), (0, 1), (1, 1))
    return [(col + dc, row + dr) for dc, dr in deltas]


def _layout(node: Node) -> Layout:
    tiles = node.int("tiles", min=2, max=5)
    slot_nodes = node.list("slots", min_len=tiles, max_len=tiles)
    slots: list[tuple[int, int]] = []
    for s in slot_nodes:
        col, row = s.int_list(min=0, max=20)
        if row % 2:
            raise s.fail("an even row offset (tiles keep their shape on even rows)", got=row)
        slots.append((col, row))
    cells: dict[tuple[int, int], tuple[int, int]] = {}
    for k, (sc, sr) in enumerate(slots):
        for r in range(TILE_ROWS):
            for c in range(TILE_COLUMNS):
                where = (sc + c, sr + r)
                if where in cells:
                    raise node.fail("tiles that do not overlap", key="slots", got=list(map(list, slots)))
                cells[where] = (k, r * TILE_COLUMNS + c)
    order = sorted(cells, key=lambda cr: (cr[1], cr[0]))
    if max(c for c, _ in order) >= 26:
        raise node.fail("at most 26 columns", key="slots")
    index = {cr: i for i, cr in enumerate(order)}
    graph = nx.Graph()
    for i, (c, r) in enumerate(order):
        graph.add_node(i, label=hex_label(c, r))
    for i, (c, r) in enumerate(order):
        for nb in _neighbours(c, r):
            if nb in index:
                graph.add_edge(i, index[nb])
    if not nx.is_connected(graph):
        raise node.fail("tiles that touch (a connected mini-map)", key="slots")
    return Layout(
        tiles=tiles,
        slots=tuple(slots),
        labels=tuple(hex_label(c, r) for c, r in order),
        coords=tuple(order),
        cell=tuple(cells[cr] for cr in order),
        adjacent=tuple(tuple(sorted(graph.neighbors(i))) for i in range(len(order))),
        graph=graph,
    )


def _factions(node: Node) -> tuple[tuple[str, ...], tuple[str, ...], tuple[int, ...], tuple[bool, ...]]:
    entries = node.list("factions", min_len=4, max_len=4)
    names, colours, resources, authored = [], [], [], []
    for i, f in enumerate(entries):
        if f.str("id") != FACTIONS[i]:
            raise f.fail(
                f"faction {FACTIONS[i]!r} in lifepath order {list(FACTIONS)}", key="id", got=f.str("id")
            )
        names.append(f.str("name"))
        colours.append(f.str("colour"))
        resources.append(RESOURCES.index(f.str("resource", choices=RESOURCES)))
        authored.append(f.bool("authored"))
    if len(set(resources)) != 4:
        raise node.fail("four different faction resources", key="factions")
    return tuple(names), tuple(colours), tuple(resources), tuple(authored)


def _board_sides(node: Node) -> tuple[BoardSide, ...]:
    out = []
    for i, s in enumerate(node.list("board_sides", min_len=2, max_len=2)):
        ident = s.str("id", choices=("1-3", "4+"))
        if ident != ("1-3", "4+")[i]:
            raise s.fail("the 1-3 side first, then the 4+ side", key="id", got=ident)
        spots = tuple(
            (p.int("value", min=1, max=25), p.int("min_players", min=1, max=5))
            for p in s.list("spots", min_len=2, max_len=2)
        )
        if spots[0][0] < spots[1][0]:
            raise s.fail("the larger scouting spot first", key="spots")
        out.append(BoardSide(ident, s.int("intel_cost", min=0, max=25), spots, s.bool("authored")))
    return tuple(out)


def _intel(node: Node) -> tuple[tuple[IntelCard, ...], tuple[tuple[int, ...], ...]]:
    cards: list[IntelCard] = []
    decks: list[tuple[int, ...]] = []
    for f, deck in enumerate(node.list("decks", min_len=4, max_len=4)):
        if deck.str("faction") != FACTIONS[f]:
            raise deck.fail(f"the {FACTIONS[f]} deck here", key="faction", got=deck.str("faction"))
        code = deck.str("code")
        ids = []
        for c in deck.list("cards", min_len=18, max_len=18):
            number = c.int("number", min=1, max=99)
            icons = tuple(RESOURCES.index(i) for i in c.str_list("icons", choices=RESOURCES))
            if not 1 <= len(icons) <= 3:
                raise c.fail("1 to 3 resource icons", key="icons", got=len(icons))
            target = FACTIONS.index(c.str("target", choices=FACTIONS))
            card = IntelCard(len(cards), f"{code}{number:02d}", f, icons, target, c.bool("authored"))
            if any(x.code == card.code for x in cards):
                raise c.fail("a card number unique in its deck", key="number", got=number)
            ids.append(card.id)
            cards.append(card)
        decks.append(tuple(ids))
    return tuple(cards), tuple(decks)


def _rebels(node: Node) -> tuple[Rebel, ...]:
    out = []
    for r in node.list("rebels", min_len=5, max_len=5):
        sides = []
        for k, s in enumerate(r.list("sides", min_len=2, max_len=2)):
            if s.str("id") != "AB"[k]:
                raise s.fail(f"side {'AB'[k]!r}", key="id", got=s.str("id"))
            sides.append(
                tuple(tuple(RESOURCES.index(i) for i in s.str_list(f, choices=RESOURCES)) for f in FACTIONS)
            )
        out.append(Rebel(r.str("id"), r.str("name"), r.str("colour"), tuple(sides), r.bool("authored")))
    if len({r.id for r in out}) != 5:
        raise node.fail("5 rebel boards with different ids", key="rebels")
    return tuple(out)


def _tiles(node: Node) -> tuple[Tile, ...]:
    out = []
    for t in node.list("tiles", min_len=5, max_len=5):
        rows = t.str_list("rows")
        if len(rows) != TILE_ROWS or any(
            len(r) != TILE_COLUMNS or set(r) - set(FACTION_LETTERS) for r in rows
        ):
            raise t.fail(f"{TILE_ROWS} rows of {TILE_COLUMNS} letters among C, P, H, R", key="rows", got=rows)
        out.append(
            Tile(t.str("id"), tuple(FACTION_LETTERS[ch] for row in rows for ch in row), t.bool("authored"))
        )
    if len({t.id for t in out}) != 5:
        raise node.fail("5 tiles with different ids", key="tiles")
    return tuple(out)


def _stratolites(node: Node) -> tuple[Stratolite, ...]:
    out = []
    for i, s in enumerate(node.list("stratolites", min_len=12, max_len=12)):
        out.append(
            Stratolite(
                i,
                s.str("id"),
                s.str("name"),
                FACTIONS.index(s.str("hex", choices=FACTIONS)),
                RESOURCES.index(s.str("resource", choices=RESOURCES)),
                s.bool("authored"),
            )
        )
    if len({s.code for s in out}) != 12:
        raise node.fail("12 Stratolites with different ids", key="stratolites")
    return tuple(out)


def _bounties(node: Node) -> tuple[Bounty, ...]:
    out = []
    for i, b in enumerate(node.list("bounties", min_len=8, max_len=8)):
        out.append(
            Bounty(
                i,
                b.str("id"),
                FACTIONS.index(b.str("faction", choices=FACTIONS)),
                b.int("tier", min=1, max=2),
                FACTIONS.index(b.str("hex", choices=FACTIONS)),
                RESOURCES.index(b.str("resource", choices=RESOURCES)),
                b.bool("authored"),
            )
        )
    for tier in (1, 2):
        if sorted(b.faction for b in out if b.tier == tier) != [0, 1, 2, 3]:
            raise node.fail(f"one tier {tier} bounty against each faction", key="bounties")
    if len({b.code for b in out}) != 8:
        raise node.fail("8 bounties with different ids", key="bounties")
    return tuple(out)


def _market(node: Node) -> tuple[MarketSide, ...]:
    out = []
    trio = {RESOURCES.index(r) for r in ("creds", "tech", "ammo")}
    for s in node.list("sides", min_len=2, max_len=2):
        arrows = []
        for a in s.list("arrows", min_len=1, max_len=6):
            give, get = (RESOURCES.index(x) for x in a.str_list(choices=RESOURCES))
            if give == get or give not in trio or get not in trio:
                raise a.fail("an arrow between two of AMMO, CREDS and TECH", got=a.value)
            arrows.append((give, get))
        out.append(MarketSide(s.str("id"), tuple(arrows), s.bool("authored")))
    return tuple(out)


def load_content(content_path: str = "") -> Content:
    """Load and validate the pack (the reference pack when ``content_path`` is "")."""
    directory: Path = resolve_pack_dir("games.cytress", content_path)
    manifest = load_manifest(directory)
    fac = load_json(directory / "factions.json")
    names, colours, resources, f_authored = _factions(fac)
    intel, decks = _intel(load_json(directory / "intel.json"))
    map_node = load_json(directory / "map.json")
    layouts = {}
    for lay in map_node.list("layouts", min_len=4, max_len=4):
        layout = _layout(lay)
        layouts[layout.tiles] = layout
    if sorted(layouts) != [2, 3, 4, 5]:
        raise ContentError(
            "expected one layout for each of 2, 3, 4 and 5 tiles", file=map_node.file, field="layouts"
        )
    automa = load_json(directory / "automa.json")
    if (
        automa.int("cards_per_faction") != AI_CARDS_PER_FACTION
        or automa.int("on_tracker_per_faction") != AI_ON_TRACKER
    ):
        raise ContentError(
            "the solo automa uses 4 AI action cards per faction, 3 of them on the tracker",
            file=automa.file,
            field="cards_per_faction",
        )
    stratolites = _stratolites(load_json(directory / "stratolites.json"))
    return Content(
        name=manifest.name,
        version=manifest.version,
        authored=manifest.authored,
        faction_names=names,
        faction_colour=colours,
        faction_resource=resources,
        faction_authored=f_authored,
        board_sides=_board_sides(fac),
        intel=intel,
        intel_decks=decks,
        rebels=_rebels(load_json(directory / "rebels.json")),
        tiles=_tiles(map_node),
        layouts=layouts,
        stratolites=stratolites,
        bounties=_bounties(load_json(directory / "bounties.json")),
        market=_market(load_json(directory / "market.json")),
        strat_resource=tuple(c.resource for c in stratolites),
        strat_hex=tuple(c.hex for c in stratolites),
        intel_target=tuple(c.target for c in intel),
        intel_faction=tuple(c.faction for c in intel),
    )
