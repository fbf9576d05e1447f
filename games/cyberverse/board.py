"""District boards: who stands where, the miniature limits and Henchman placement.

rule: cyberverse/new-eden-board - zones bordered by dotted lines and walls (two zones separated by
a wall are not adjacent), an Entry zone that is also the Exit zone, tactical positions.
cyberverse/combat - at most 5 miniatures (Agents + Henchmen) on a district board, 3 per
zone, 3 Henchmen per board; Henchmen are placed zone 1, zone 2, ... miniature by miniature.
cyberverse/tactical-positions - a tactical position holds one miniature.
cyberverse/hacking - Henchmen cannot be placed in a tactical Hacking position.
"""

from __future__ import annotations

from games.cyberverse.content import Board, Content
from games.cyberverse.state import (
    AGENT,
    State,
)
from games.cyberverse.work import Work

__all__ = [
    "BOARD_LIMIT",
    "HENCHMEN_LIMIT",
    "ZONE_LIMIT",
    "board_of",
    "henchman_zone",
    "occupancy",
    "spot_taken",
]

BOARD_LIMIT = 5
"""cyberverse/combat - miniatures (Agents + Henchmen) on a district board."""
ZONE_LIMIT = 3
"""cyberverse/combat - miniatures in one zone."""
HENCHMEN_LIMIT = 3
"""cyberverse/combat and cyberverse/event-phase - Henchmen on one district board."""


def board_of(state: State | Work, c: Content, district: int) -> Board:
    """The board in use for ``district``."""
    return c.boards[state.city.boards[district]]


def occupancy(state: State | Work, c: Content, district: int) -> tuple[list[int], int, int, list[int]]:
    """Miniatures on ``district``'s board: (per zone, total, henchmen, occupant per tactical position).

    During a Combat on that board the fighters are counted (Henchmen and Teammates from the fight,
    Agents from their records); otherwise Agents and the Henchmen standing there. A position's
    occupant is -1 (free) or 1 (taken).
    """
    board = board_of(state, c, district)
    zones = [0] * board.zones
    spots = [-1] * len(board.positions)
    total = hench = 0
    for a in state.agents:
        if a.district == district:
            zones[a.zone] += 1
            total += 1
            if a.spot >= 0:
                spots[a.spot] = 1
    fight = state.fight
    if fight is not None and fight.district == district:
        for f in fight.fighters:
            if f.kind != AGENT and not f.gone:
                zones[f.zone] += 1
                total += 1
                hench += 1
                if f.spot >= 0:
                    spots[f.spot] = 1
    else:
        for _, z in state.city.henchmen[district]:
            zones[z] += 1
            total += 1
            hench += 1
    return zones, total, hench, spots


def spot_taken(state: State | Work, c: Content, district: int, spot: int) -> bool:
    """Whether the tactical position ``spot`` of ``district``'s board holds a miniature."""
    return occupancy(state, c, district)[3][spot] >= 0


def henchman_zone(board: Board, zones: list[int], total: int, hench: int, k: int) -> int:
    """The zone of the ``k``-th Henchman (0-based) of a batch, or -1 when the limits are reached.

    cyberverse/combat - "Henchmen are placed in numbered zones, starting with zone 1,
    miniature by miniature ... until all henchmen have been placed, or the authorized limits have
    been reached": the ``k``-th goes to zone ``k+1`` (counting round the board), or the next zone
    with room. Placement is in the zone, not on a tactical position.
    """
    if total >= BOARD_LIMIT or hench >= HENCHMEN_LIMIT:
        return -1
    n = board.zones
    for i in range(n):
        z = (k + i) % n
        if zones[z] < ZONE_LIMIT:
            return z
    return -1
