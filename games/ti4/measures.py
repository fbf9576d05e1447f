"""The measures players use to judge a galaxy's balance, as data.

A measure is one or more :class:`~games.ti4.balance.Weights` (every term a number a user may change);
its **gap** is the richest home's value minus the poorest's, and with several weight sets the worse of
their gaps. The named measures (docs/ti4.md works an example of each by hand):

- ``community`` (the default, the game's own home value too): ti4-lab's slice value. Every system
  other than a home and Mecatol Rex within 2 moves of a home counts for the nearest home(s), split
  equally among homes at the same distance; it is worth the sum over its planets of max(resources,
  influence), + 0.5 per technology specialty, + 1 per legendary planet; 1 and 2 moves weigh the same.
  Plus the Mecatol Rex path term 3 x (3 - d), d = moves from the home to Mecatol Rex (other homes
  impassable), - 2 if every shortest path crosses a supernova, - 1 likewise for a nebula. Supernovae
  cannot be entered, nebulae cannot be left, wormholes add no adjacency, asteroid fields and gravity
  rifts are crossed like any system.
- ``simple``: the same system value and movement; a system within 1 move counts in full, within 2
  moves half, for every home that reaches it (no sharing, no Mecatol Rex path).
- ``lictor``: the measure this builder used before: optimal resources and influence, + 0.2 per trait,
  + 0.5 per specialty, + 1 per legendary planet, + 0.5 per wormhole; 1, 2 and 3 moves weigh 1, 0.6 and
  0.3, nearest homes share; wormholes link, asteroid fields cannot be entered, leaving a nebula costs
  a move, the step out of a gravity rift is free.
- ``joint``: ``community`` and ``simple`` together: the worse of the two gaps.

Each named measure has its function below (values in value points); ``measure`` turns a name and a
user's own weights per term into a :class:`Measure`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.errors import ConfigError
from games.ti4.balance import SCALE, Weights, home_values
from games.ti4.content import Board, Pos, Tile, TileId

__all__ = [
    "COMMUNITY",
    "DEFAULT",
    "LICTOR",
    "MEASURES",
    "SIMPLE",
    "Measure",
    "community",
    "joint",
    "lictor",
    "measure",
    "simple",
]

COMMUNITY = Weights(
    resources=1.0,
    influence=1.0,
    trait=0.0,
    specialty=0.5,
    legendary=1.0,
    wormhole=0.0,
    distance=(1.0, 1.0),
    share="nearest",
    antimass=True,
    nebula_exit=-1,
    rift_bonus=False,
    wormhole_links=False,
    homes_block=True,
    mecatol=3.0,
    mecatol_moves=3,
    mecatol_supernova=2.0,
    mecatol_nebula=1.0,
)
"""ti4-lab's slice value (see the module docstring)."""

SIMPLE = Weights(
    resources=1.0,
    influence=1.0,
    trait=0.0,
    specialty=0.5,
    legendary=1.0,
    wormhole=0.0,
    distance=(1.0, 0.5),
    share="all",
    antimass=True,
    nebula_exit=-1,
    rift_bonus=False,
    wormhole_links=False,
    homes_block=True,
)
"""Within 1 move in full, within 2 moves half, for every home that reaches the system."""

LICTOR = Weights()
"""This builder's measure before the community's became the default (the :class:`Weights` defaults)."""


@dataclass(frozen=True, slots=True)
class Measure:
    """A measure of balance: one or more weight sets; its gap is the worst of their gaps.

    Attributes:
        name: ``community``, ``simple``, ``lictor``, ``joint`` or ``custom``.
        parts: the weight sets (``joint``: community, simple).
    """

    name: str
    parts: tuple[Weights, ...]

    @property
    def weights(self) -> Weights:
        """The first weight set: the one whose movement the requests (specialty within k moves, the
        spreads) and the reports use."""
        return self.parts[0]

    def values(
        self,
        board: Board,
        galaxy: Mapping[Pos, TileId],
        homes: Sequence[Pos],
        tiles: Mapping[TileId, Tile],
        *,
        spaces: Iterable[Pos] | None = None,
    ) -> list[list[int]]:
        """Per weight set, each home's value times SCALE (exact)."""
        in_play = None if spaces is None else tuple(spaces)
        return [home_values(board, galaxy, homes, tiles, w, spaces=in_play) for w in self.parts]

    def gap_units(self, values: Sequence[Sequence[int]]) -> int:
        """The worst gap of :meth:`values`, times SCALE."""
        return max(max(v) - min(v) for v in values)


MEASURES: Mapping[str, Measure] = {
    "community": Measure("community", (COMMUNITY,)),
    "simple": Measure("simple", (SIMPLE,)),
    "lictor": Measure("lictor", (LICTOR,)),
    "joint": Measure("joint", (COMMUNITY, SIMPLE)),
}
"""The named measures."""

DEFAULT = "community"
"""The measure of the builder, the home values, the scorer and the game's AI unless told otherwise."""


def measure(
    name: str = DEFAULT, overrides: Mapping[str, Any] | None = None, *, field: str = "measure"
) -> Measure:
    """The measure ``name`` with a user's own weights per term (``overrides``, applied to every weight
    set; the result is named ``custom`` when anything changes). Raises ``ConfigError`` naming the field."""
    if not isinstance(name, str) or name not in MEASURES:
        raise ConfigError(f"{field} must be one of {sorted(MEASURES)}, not {name!r}", field=field)
    base = MEASURES[name]
    if not overrides:
        return base
    prefix = field.rsplit(".", 1)[0] + ".weights" if "." in field else "weights"
    parts = tuple(
        Weights.from_dict({**w.to_dict(), **dict(overrides)}, field_prefix=prefix) for w in base.parts
    )
    return base if parts == base.parts else Measure("custom", parts)


def _values(
    w: Weights,
    board: Board,
    *,
    galaxy: Mapping[Pos, TileId],
    homes: Sequence[Pos],
    tiles: Mapping[TileId, Tile],
    spaces: Iterable[Pos] | None,
) -> list[float]:
    return [v / SCALE for v in home_values(board, galaxy, homes, tiles, w, spaces=spaces)]


def community(
    board: Board,
    galaxy: Mapping[Pos, TileId],
    homes: Sequence[Pos],
    tiles: Mapping[TileId, Tile],
    *,
    spaces: Iterable[Pos] | None = None,
) -> list[float]:
    """Each home's ``community`` value (ti4-lab's slice value plus the Mecatol Rex path term)."""
    return _values(COMMUNITY, board, galaxy=galaxy, homes=homes, tiles=tiles, spaces=spaces)


def simple(
    board: Board,
    galaxy: Mapping[Pos, TileId],
    homes: Sequence[Pos],
    tiles: Mapping[TileId, Tile],
    *,
    spaces: Iterable[Pos] | None = None,
) -> list[float]:
    """Each home's ``simple`` value (1 move in full, 2 moves half, for every home reaching it)."""
    return _values(SIMPLE, board, galaxy=galaxy, homes=homes, tiles=tiles, spaces=spaces)


def lictor(
    board: Board,
    galaxy: Mapping[Pos, TileId],
    homes: Sequence[Pos],
    tiles: Mapping[TileId, Tile],
    *,
    spaces: Iterable[Pos] | None = None,
) -> list[float]:
    """Each home's ``lictor`` value (the :class:`Weights` defaults)."""
    return _values(LICTOR, board, galaxy=galaxy, homes=homes, tiles=tiles, spaces=spaces)


def joint(
    board: Board,
    galaxy: Mapping[Pos, TileId],
    homes: Sequence[Pos],
    tiles: Mapping[TileId, Tile],
    *,
    spaces: Iterable[Pos] | None = None,
) -> float:
    """The ``joint`` gap: the worse of the ``community`` gap and the ``simple`` gap (value points)."""
    in_play = None if spaces is None else tuple(spaces)
    c = community(board, galaxy, homes, tiles, spaces=in_play)
    s = simple(board, galaxy, homes, tiles, spaces=in_play)
    return max(max(c) - min(c), max(s) - min(s))
