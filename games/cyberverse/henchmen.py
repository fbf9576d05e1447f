"""The Henchmen in a Combat: whom they are sent against, who plays them, where they move.

rule: cyberverse/henchmen - a Henchman card gives Defense, Attack, Movement ("the maximum number of
adjacent zones he can move"), Health and the attack type. The Combat section's words on their
target ("Henchmen always attack the organization with the most resources") and on who plays them
(cyberverse/combat) are read here as queries; ``combat.py`` drives their turn with them.
"""

from __future__ import annotations

from games.cyberverse.board import ZONE_LIMIT, board_of
from games.cyberverse.content import Content
from games.cyberverse.damage import enemy, henchman_card
from games.cyberverse.positions import adjacent_room, in_range, where, zone_counts
from games.cyberverse.state import AGENT, HENCHMAN, Action, State, act
from games.cyberverse.work import Work


def henchman_target(s: Work | State, c: Content, i: int) -> int:
    """The printed targeting rule alone (no choice): the Organization with the most Resources;
    among its Agents the nearest, then the lowest Initiative (agents are kept in Initiative order).
    cyberverse/combat"""
    fight = s.fight
    assert fight is not None
    f = fight.fighters[i]
    board = board_of(s, c, fight.district)
    best, key = -1, (0, 0, 0)
    for j, g in enumerate(fight.fighters):
        if g.kind != AGENT or not enemy(s, c, f, g):
            continue
        zg, _ = where(s, g)
        k = (-s.orgs[g.org].money, board.distance[f.zone][zg], j)
        if best < 0 or k < key:
            best, key = j, k
    return best


def henchman_targets(s: Work | State, c: Content, i: int) -> list[int]:
    """The characters Henchman ``i`` may be sent against (cyberverse/combat): "Henchmen always
    attack the organization with the most resources", so the enemy characters (its Agents and its
    Teammates, "an enemy character") of the richest Organization with any on the board; "in the
    event of a tie on resources, Henchmen attack the nearest Agent (... the lowest Initiative)", so
    a tie leaves no choice (:func:`henchman_target`)."""
    fight = s.fight
    assert fight is not None
    f = fight.fighters[i]
    enemies = [j for j, g in enumerate(fight.fighters) if g.kind != HENCHMAN and enemy(s, c, f, g)]
    if not enemies:
        return []
    money = {fight.fighters[j].org: s.orgs[fight.fighters[j].org].money for j in enemies}
    top = max(money.values())
    richest = [org for org, m in money.items() if m == top]
    if len(richest) > 1:
        j = henchman_target(s, c, i)
        return [j] if j >= 0 else []
    return [j for j in enemies if fight.fighters[j].org == richest[0]]


def henchman_controller(s: Work | State, target_org: int) -> int:
    """The Organization that plays the Henchmen against ``target_org`` (cyberverse/combat):
    in a 2-player game its opponent ("each player controls the Henchmen who are confronting
    opposing Agents"); otherwise an Organization with no Agent on the District board, "or, failing
    that, which has the fewest Resources" (reading: among several, the fewest Resources, then the
    order of play)."""
    if s.players == 2:
        return 1 - target_org
    fight = s.fight
    assert fight is not None
    present = {a.org for a in s.agents if a.district == fight.district}
    absent = [seat for seat in s.order if seat not in present]
    pool = absent or [seat for seat in s.order if seat != target_org] or list(s.order)
    return min(pool, key=lambda seat: (s.orgs[seat].money, s.order.index(seat)))


def henchman_ways(s: Work | State, c: Content, i: int, j: int) -> list[int]:
    """The zones Henchman ``i``'s next step toward character ``j`` may enter: adjacent (walls are
    not adjacency), with room for one more miniature, and one zone nearer to ``j`` (a shortest
    way). rule: cyberverse/henchmen - Movement, "the maximum number of adjacent zones he can move"."""
    fight = s.fight
    assert fight is not None
    board = board_of(s, c, fight.district)
    zf = fight.fighters[i].zone
    zg, _ = where(s, fight.fighters[j])
    zones, _ = zone_counts(s, c)
    here = board.distance[zf][zg]
    return [z for z in board.adjacent[zf] if board.distance[z][zg] < here and zones[z] < ZONE_LIMIT]


def henchman_moves(s: Work | State, c: Content, i: int, j: int) -> list[Action]:
    """The moves Henchman ``i`` (sent against character ``j``) may make with the Movement left.

    Variant ``henchmen_moves="free"`` (the default): stop (``hold``), a step to any adjacent zone
    with room, or the free tactical position of its zone. rule: cyberverse/henchmen - Movement is
    "the maximum number of adjacent zones he can move", and the Organization playing it moves it
    (cyberverse/combat). ``"shortest"``: out of range, a step by a shortest way toward ``j``
    (:func:`henchman_ways`); in range, hold or take the position.

    Either way the position costs 1 Movement point and is never the Hacking position. rule:
    cyberverse/tactical-positions - "A character must spend 1 Movement point to occupy a Tactical
    Position"; cyberverse/hacking - "Henchmen cannot be placed in tactical Hacking positions"."""
    fight = s.fight
    assert fight is not None
    f = fight.fighters[i]
    if fight.mp <= 0:
        return []
    free = s.options.henchmen_moves == "free"
    if not free and not in_range(s, c, f, fight.fighters[j], henchman_card(c, f).ranged):
        return [act("step", z) for z in henchman_ways(s, c, i, j)]
    board = board_of(s, c, fight.district)
    zones, spots = zone_counts(s, c)
    out = [act("step", z) for z in adjacent_room(s, c, f.zone, zones)] if free else []
    p = board.position_at[f.zone]
    if p >= 0 and p not in (board.hacking, f.spot) and not spots[p]:
        out.append(act("spot", p))
    return [act("hold"), *out] if out else []
