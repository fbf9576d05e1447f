"""STEP 6.iii - PLACE SYSTEM TILES: the order, the rings, and the adjacency rules.

rule: ti4/place-system-tiles - home systems first; then from the speaker clockwise one tile each
into ring 1; the last player places a second tile and the order snakes back to the speaker, who
places two; and so on until every tile is placed.
rule: ti4/ring-order - each ring is fully built before any tile goes into the next.
rule: ti4/anomaly-adjacency - anomalies are not placed next to one another unless there is no other
option.
rule: ti4/wormhole-adjacency - systems with the same type of wormhole are not placed next to one
another unless there is no other option.
rule: ti4/five-player-red-tile - with five players, before the snake starts the speaker places the
random red-backed tile drawn at the deal (``setup.deal_tiles``) next to Mecatol Rex.

"No other option" is computed exactly. Two readings are offered (``TI4State.reading``):
``player`` (the default) - a restricted placement is legal only when every placement of every tile
in the player's hand into the open spaces of the ring is restricted; ``tile`` - a restricted
placement of a tile is legal when that tile has no unrestricted space (the player may still choose
which tile to place).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from games.core.cache import PerContent
from games.core.protocol import Seat
from games.core.records import replace, replace_at, without
from games.ti4.content import WORMHOLES, Board, Content, Layout, Pos, Tile, TileId
from games.ti4.finish import board_complete
from games.ti4.setup import home_system_tile
from games.ti4.state import PLACE, Placement, TI4State

__all__ = [
    "KEEP_APART_KINDS",
    "Conflict",
    "conflicts",
    "current_ring",
    "keep_apart",
    "keep_apart_bits",
    "legal_placements",
    "open_spaces",
    "place_red_tile",
    "place_tile",
    "red_tile_spaces",
    "snake_seat",
    "start_placement",
]


def snake_seat(index: int, players: int, table: Sequence[Seat], speaker: Seat) -> Seat:
    """The seat that places the ``index``-th tile (from 0): speaker first, clockwise, snaking.

    rule: ti4/place-system-tiles - round 0 runs clockwise from the speaker to the last player,
    round 1 back from the last player to the speaker (so each of them places twice in a row), ...
    """
    start = table.index(speaker)
    rnd, k = divmod(index, players)
    offset = k if rnd % 2 == 0 else players - 1 - k
    return table[(start + offset) % players]


def current_ring(galaxy: Sequence[TileId], board: Board, layout: Layout) -> int:
    """The ring being built: the innermost ring with an empty system space (rule: ti4/ring-order);
    0 when every system space is filled."""
    spaces = open_spaces(galaxy, board, layout)
    return board.rings[spaces[0]] if spaces else 0


def open_spaces(galaxy: Sequence[TileId], board: Board, layout: Layout) -> list[Pos]:
    """The empty system spaces of the ring being built (rule: ti4/ring-order), in order."""
    for ring in layout.by_ring:
        spaces = [p for p in ring if galaxy[p] == 0]
        if spaces:
            return spaces
    return []


@dataclass(frozen=True, slots=True)
class Conflict:
    """A placement next to a system it may not touch.

    Attributes:
        kind: ``anomaly`` (rule: ti4/anomaly-adjacency) or the wormhole type (rule:
            ti4/wormhole-adjacency).
        tile: the tile placed.
        pos: where.
        other: the tile next to it.
        other_pos: where that one is.
    """

    kind: str
    tile: TileId
    pos: Pos
    other: TileId
    other_pos: Pos

    @property
    def rule(self) -> str:
        """The rule section this conflict touches."""
        return "ti4/anomaly-adjacency" if self.kind == "anomaly" else "ti4/wormhole-adjacency"


def clash(a: Tile, b: Tile) -> list[str]:
    """Why ``a`` and ``b`` may not be neighbours: ``anomaly`` and/or shared wormhole types."""
    out = ["anomaly"] if a.is_anomaly and b.is_anomaly else []
    out += [w for w in a.wormholes if w in b.wormholes]
    return out


def conflicts(
    galaxy: Sequence[TileId], board: Board, tiles: Mapping[TileId, Tile], tile: TileId, pos: Pos
) -> list[Conflict]:
    """The adjacency rules that placing ``tile`` at ``pos`` would touch, given the galaxy so far."""
    t = tiles[tile]
    if not t.is_anomaly and not t.wormholes:
        return []
    out = []
    for q in board.adjacent[pos]:
        other = galaxy[q]
        if other > 0 and other in tiles:
            out += [Conflict(k, tile, pos, other, q) for k in clash(t, tiles[other])]
    return out


def keep_apart(tile: Tile) -> frozenset[str]:
    """What ``tile`` may not touch: ``anomaly`` for an anomaly, and its wormhole types (two tiles may
    not be neighbours, unless there is no other option, when these share an entry: :func:`clash`)."""
    return frozenset((["anomaly"] if tile.is_anomaly else []) + list(tile.wormholes))


KEEP_APART_KINDS: tuple[str, ...] = ("anomaly", *WORMHOLES)
"""The entries of a :func:`keep_apart` set, in the order of their bits in :func:`keep_apart_bits`."""


def keep_apart_bits(tile: Tile) -> int:
    """:func:`keep_apart` as an integer: bit ``i`` set for ``KEEP_APART_KINDS[i]`` (two tiles may not be
    neighbours when their bits share one)."""
    apart = keep_apart(tile)
    return sum(1 << i for i, kind in enumerate(KEEP_APART_KINDS) if kind in apart)


def _keep_apart_table(content: Content) -> dict[TileId, int]:
    return {t.id: keep_apart_bits(t) for t in content.tiles.values()}


_KEEP_APART: PerContent[Content, dict[TileId, int]] = PerContent(_keep_apart_table)
"""Each tile's :func:`keep_apart_bits`, per content pack."""


def legal_placements(
    galaxy: Sequence[TileId],
    content: Content,
    layout: Layout,
    hand: Iterable[TileId],
    reading: str,
) -> list[tuple[TileId, Pos]]:
    """Every legal (tile, space) for a player holding ``hand`` (sorted by tile, then space).

    rule: ti4/anomaly-adjacency, rule: ti4/wormhole-adjacency - a restricted placement is legal only
    when there is no other option (read per ``reading``; see the module docstring). A placement is
    restricted when the tile shares a :func:`keep_apart` entry with a neighbour (as :func:`conflicts`
    finds, without listing them).
    """
    spaces = open_spaces(galaxy, content.board, layout)
    apart = _KEEP_APART(content)
    touching = {p: _touching(galaxy, content.board.adjacent[p], apart) for p in spaces}
    tiles = sorted(set(hand))
    free: dict[TileId, list[Pos]] = {}
    for t in tiles:
        mine = apart[t]
        free[t] = [p for p in spaces if not mine & touching[p]] if mine else spaces
    any_free = any(free.values())
    out: list[tuple[TileId, Pos]] = []
    for t in tiles:
        if (reading == "player" and not any_free) or (reading == "tile" and not free[t]):
            out += [(t, p) for p in spaces]
        else:
            out += [(t, p) for p in free[t]]
    return out


def _touching(galaxy: Sequence[TileId], around: Sequence[Pos], apart: dict[TileId, int]) -> int:
    """The :func:`keep_apart_bits` of the tiles placed on the spaces ``around``, or-ed."""
    bits = 0
    for q in around:
        bits |= apart.get(galaxy[q], 0)
    return bits


def red_tile_spaces(state: TI4State, content: Content) -> list[Pos]:
    """rule: ti4/five-player-red-tile - the empty spaces next to Mecatol Rex, for the speaker's red tile."""
    return [p for p in content.board.ring_positions(1) if state.galaxy[p] == 0]


def place_red_tile(state: TI4State, content: Content, pos: Pos) -> TI4State:
    """rule: ti4/five-player-red-tile - the speaker's red tile goes next to Mecatol Rex, first in the
    record; then the snake starts."""
    galaxy = replace_at(state.galaxy, pos, state.red_tile)
    placed = (*state.placed, Placement(seat=state.actor, tile=state.red_tile, pos=pos))
    return start_placement(replace(state, galaxy=galaxy, placed=placed), content)


def start_placement(state: TI4State, content: Content) -> TI4State:
    """rule: ti4/place-system-tiles - home systems first, then the speaker places the first tile."""
    galaxy = list(state.galaxy)
    for s in range(state.players):
        galaxy[state.homes[s]] = home_system_tile(content, state.factions[s])
    first = snake_seat(0, state.players, state.table, state.speaker)
    return replace(state, galaxy=tuple(galaxy), phase=PLACE, actor=first)


def place_tile(state: TI4State, content: Content, tile: TileId, pos: Pos) -> TI4State:
    """rule: ti4/place-system-tiles - the tile goes down face up; the snake moves on, and once every
    tile is placed the galaxy is complete."""
    seat = state.actor
    hands = replace_at(state.hands, seat, without(state.hands[seat], tile))
    placed = (*state.placed, Placement(seat=seat, tile=tile, pos=pos))
    s = replace(state, hands=hands, galaxy=replace_at(state.galaxy, pos, tile), placed=placed)
    if not any(hands):
        return board_complete(s, content)
    index = len(placed) - (1 if state.red_tile else 0)
    return replace(s, actor=snake_seat(index, state.players, state.table, state.speaker))
