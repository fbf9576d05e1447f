"""The benchmark's baseline: a first-improving-swap hill-climber, the method of ti4-lab and Map Lab,
written from its description (independent of the builder in ``solver/ti4``).

A random legal arrangement of the dealt tiles, then: try the swaps of two positions in a random order
and take the first that lowers the measure's gap (keeping the map legal: no neighbouring anomalies
or same-type wormholes, five players: a red tile next to Mecatol Rex); when no swap helps, restart
from a new random arrangement; keep the best map found until the time is up. The measure is the game's
own (``games.ti4.measures``), the same evaluator the builder is judged by.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Sequence

from games.ti4.balance import SCALE
from games.ti4.content import Content, Pos, TileId
from games.ti4.measures import Measure
from games.ti4.placement import clash


def _clashes_at(content: Content, galaxy: dict[Pos, TileId], pos: Pos) -> int:
    """Forbidden neighbours of the tile at ``pos``."""
    tiles = content.tiles
    here = tiles[galaxy[pos]]
    if not here.is_anomaly and not here.wormholes:
        return 0
    return sum(len(clash(here, tiles[galaxy[q]])) for q in content.board.adjacent[pos] if q in galaxy)


def _red_ok(content: Content, galaxy: dict[Pos, TileId], players: int) -> bool:
    """Five players: a red tile next to Mecatol Rex (rule: ti4/five-player-red-tile)."""
    return players != 5 or any(content.tiles[galaxy[p]].pile == "red" for p in content.board.adjacent[0])


def _legal(content: Content, galaxy: dict[Pos, TileId], players: int) -> bool:
    return not any(_clashes_at(content, galaxy, p) for p in galaxy) and _red_ok(content, galaxy, players)


def _random_legal(
    content: Content, positions: Sequence[Pos], deal: Sequence[TileId], players: int, rng: random.Random
) -> dict[Pos, TileId]:
    """A random legal arrangement: shuffle, then repair clashes by random swaps."""
    while True:
        order = list(deal)
        rng.shuffle(order)
        galaxy = dict(zip(positions, order, strict=True))
        for _ in range(2000):
            if _legal(content, galaxy, players):
                return galaxy
            bad = [p for p in positions if _clashes_at(content, galaxy, p)]
            a = rng.choice(bad) if bad else rng.choice(positions)
            b = rng.choice(positions)
            galaxy[a], galaxy[b] = galaxy[b], galaxy[a]


def hill_climb(
    content: Content,
    deal: Sequence[TileId],
    players: int,
    measure: Measure,
    *,
    seconds: float,
    rng: random.Random,
) -> tuple[dict[Pos, TileId], float]:
    """The best (galaxy, gap in value points) the hill-climber finds for ``deal`` within ``seconds``."""
    layout = content.board.layouts[players]
    positions = list(layout.systems)
    spaces = (0, *layout.homes, *layout.systems)
    end = time.perf_counter() + seconds

    def gap(galaxy: dict[Pos, TileId]) -> int:
        values = measure.values(content.board, {0: 18, **galaxy}, layout.homes, content.tiles, spaces=spaces)
        return measure.gap_units(values)

    best: tuple[dict[Pos, TileId], int] | None = None
    while best is None or (best[1] > 0 and time.perf_counter() < end):
        galaxy = _random_legal(content, positions, deal, players, rng)
        current = gap(galaxy)
        improved = True
        while improved and current > 0 and time.perf_counter() < end:
            improved = False
            swaps = list(itertools.combinations(positions, 2))
            rng.shuffle(swaps)
            for a, b in swaps:
                if time.perf_counter() >= end:
                    break
                if galaxy[a] == galaxy[b]:
                    continue
                galaxy[a], galaxy[b] = galaxy[b], galaxy[a]
                if (
                    _clashes_at(content, galaxy, a) == 0
                    and _clashes_at(content, galaxy, b) == 0
                    and _red_ok(content, galaxy, players)
                ):
                    value = gap(galaxy)
                    if value < current:
                        current, improved = value, True
                        break
                galaxy[a], galaxy[b] = galaxy[b], galaxy[a]
        if best is None or current < best[1]:
            best = (dict(galaxy), current)
    return best[0], best[1] / SCALE
