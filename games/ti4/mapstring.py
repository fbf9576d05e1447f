"""The community's Tabletop Simulator map string: import and export.

A map string lists the tile in each position from ring 1 outwards, in map-string order (position
1 straight above Mecatol Rex, then clockwise; ring 2 from 7, ring 3 from 19), separated by spaces
or commas. Mecatol Rex (18) is implied; ``{N}`` first puts tile N in the centre instead (a string
starting with ``18`` names it explicitly). ``0`` marks a home system's place (the table puts each
player's home there) or a position still empty; ``-1`` a position not in play (three-player
galaxies). Home system tile numbers in home positions are accepted too. Hyperlane tiles
(``83A2``) and seven- or eight-player galaxies (positions past 36) are not supported.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from games.errors import NotationError
from games.ti4.content import Pos, TileId

__all__ = ["ABSENT", "MapString", "format_map_string", "parse_map_string"]

ABSENT = -1
"""A position not in play (``-1`` in the string)."""
POSITIONS = 36
_TOKEN = re.compile(r"^\{?(-?\d{1,4})\}?$")


@dataclass(frozen=True, slots=True)
class MapString:
    """A parsed map string.

    Attributes:
        center: the tile in the centre (18 = Mecatol Rex).
        tiles: the entry of positions 1..36 (index 0 is position 1): a tile number, 0 (a home's place
            or empty) or :data:`ABSENT`.
    """

    center: TileId
    tiles: tuple[int, ...]

    def at(self, pos: Pos) -> int:
        """The entry at ``pos`` (0 = the centre)."""
        return self.center if pos == 0 else self.tiles[pos - 1]


def parse_map_string(text: str) -> MapString:
    """Read a map string (``NotationError`` naming the bad token)."""
    if not isinstance(text, str):
        raise NotationError("a map string is text", field="map_string")
    if len(text) > 2000:
        raise NotationError("a map string is at most 2000 characters", field="map_string")
    tokens = [t for t in re.split(r"[\s,]+", text.strip()) if t]
    if not tokens:
        raise NotationError("the map string is empty", field="map_string")
    center = 18
    if tokens[0].startswith("{"):
        m = _TOKEN.match(tokens[0])
        if m is None or not tokens[0].endswith("}"):
            raise NotationError(f"bad centre {tokens[0][:12]!r}: write {{N}}", field="map_string")
        center = int(m.group(1))
        tokens = tokens[1:]
    elif tokens[0] == "18" and len(tokens) == POSITIONS + 1:
        tokens = tokens[1:]
    values: list[int] = []
    for i, tok in enumerate(tokens):
        if re.match(r"^\d+[abAB]\d$", tok):
            raise NotationError(
                f"position {i + 1}: hyperlane tile {tok!r} is not supported (3-6 player galaxies only)",
                field="map_string",
            )
        m = _TOKEN.match(tok)
        if m is None or "{" in tok:
            raise NotationError(f"position {i + 1}: {tok[:12]!r} is not a tile number", field="map_string")
        v = int(m.group(1))
        if v < ABSENT:
            raise NotationError(f"position {i + 1}: {v} is not a tile number, 0 or -1", field="map_string")
        values.append(v)
    if len(values) > POSITIONS:
        raise NotationError(
            f"{len(values)} positions: only the three rings of a 3-6 player galaxy (36) are supported",
            field="map_string",
        )
    values += [0] * (POSITIONS - len(values))
    return MapString(center=center, tiles=tuple(values))


def format_map_string(
    galaxy: Sequence[TileId],
    spaces: Iterable[Pos],
    homes: Iterable[Pos],
    *,
    home_tiles: Mapping[Pos, TileId] | None = None,
) -> str:
    """The map string of ``galaxy``: ``spaces`` in play, home positions as 0 (or their tile numbers
    given ``home_tiles``), positions not in play as -1; Mecatol Rex implied."""
    in_play = set(spaces)
    home_set = set(homes)
    out = []
    for p in range(1, POSITIONS + 1):
        if p in home_set:
            out.append(str((home_tiles or {}).get(p, 0)))
        elif p in in_play:
            out.append(str(galaxy[p]))
        else:
            out.append(str(ABSENT))
    prefix = "" if galaxy[0] == 18 else f"{{{galaxy[0]}}} "
    return prefix + " ".join(out)
