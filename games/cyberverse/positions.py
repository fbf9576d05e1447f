"""Where the miniatures stand in a Combat: zones, tactical positions and moves on a district board.

rule: cyberverse/tactical-positions - a character spends 1 Movement point to occupy a free tactical
position of its zone (one miniature each); the Advantageous position adds 2 to its Attack, the
Covered one 2 to its Defense. Henchmen and Teammates never take the Hacking position (its rule in
``investigation.py``). A move in a Combat is 1 Movement point per adjacent zone with room (walls are
not adjacency; the board's limits in ``board.py``).
"""

from __future__ import annotations

from games.cyberverse.board import ZONE_LIMIT, board_of
from games.cyberverse.content import Board, Content
from games.cyberverse.state import AGENT, Action, Fighter, State, act
from games.cyberverse.work import Work

ADVANTAGE = 2
"""rule: cyberverse/tactical-positions - the Advantageous position adds 2 to Attack."""
COVER = 2
"""rule: cyberverse/tactical-positions - the Covered position adds 2 to Defense."""


def spot_kind(board: Board, spot: int) -> int:
    return board.positions[spot][1] if spot >= 0 else -1


def where(w: Work | State, f: Fighter) -> tuple[int, int]:
    """(zone, tactical position) of a fighter."""
    if f.kind == AGENT:
        for a in w.agents:
            if a.sheet == f.ref:
                return a.zone, a.spot
        return -1, -1
    return f.zone, f.spot


def place(w: Work, i: int, zone: int, spot: int = -1) -> None:
    """Move fighter ``i`` to ``zone`` (and tactical position ``spot``)."""
    fight = w.fight
    assert fight is not None
    f = fight.fighters[i]
    if f.kind == AGENT:
        w.set_agent(f.ref, zone=zone, spot=spot)
    else:
        w.set_fighter(i, zone=zone, spot=spot)


def zone_counts(w: Work | State, c: Content) -> tuple[list[int], list[int]]:
    fight = w.fight
    assert fight is not None
    board = board_of(w, c, fight.district)
    zones = [0] * board.zones
    spots = [0] * len(board.positions)
    for f in fight.fighters:
        if f.gone:
            continue
        z, s = where(w, f)
        if z >= 0:
            zones[z] += 1
        if s >= 0:
            spots[s] = 1
    return zones, spots


def adjacent_room(s: Work | State, c: Content, zone: int, zones: list[int] | None = None) -> list[int]:
    """Zones adjacent to ``zone`` (walls are not adjacency) with room for one more miniature
    (``zones``: the miniatures per zone, if already counted)."""
    fight = s.fight
    assert fight is not None
    if zones is None:
        zones, _ = zone_counts(s, c)
    return [z for z in board_of(s, c, fight.district).adjacent[zone] if zones[z] < ZONE_LIMIT]


def fight_moves(s: Work | State, c: Content, i: int) -> list[Action]:
    """cyberverse/combat - move first (1 point per adjacent zone; rule:
    cyberverse/tactical-positions - 1 point to occupy a free position; Henchmen and Teammates never
    take the Hacking position, cyberverse/hacking)."""
    fight = s.fight
    assert fight is not None
    if fight.mp <= 0:
        return []
    f = fight.fighters[i]
    zone, spot = where(s, f)
    board = board_of(s, c, fight.district)
    zones, spots = zone_counts(s, c)
    out = [act("step", z) for z in adjacent_room(s, c, zone, zones)]
    p = board.position_at[zone]
    if p >= 0 and spot != p and not spots[p] and (f.kind == AGENT or p != board.hacking):
        out.append(act("spot", p))
    return out


def in_range(s: Work | State, c: Content, f: Fighter, g: Fighter, ranged: bool) -> bool:
    fight = s.fight
    assert fight is not None
    za, _ = where(s, f)
    zb, _ = where(s, g)
    if za < 0 or zb < 0:
        return False
    if za == zb:
        return True
    return ranged and zb in board_of(s, c, fight.district).adjacent[za]
