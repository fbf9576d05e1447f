"""Lower bounds on the gap that no relaxation gives: a counting argument on the homes' total.

The LP relaxation of "best minus worst" is 0 whatever the tiles (values can always be evened out
fractionally), so on a full galaxy a gap above 0 is proven only by an argument about whole numbers:

**The total.** Under a measure whose distance weights are all equal and whose systems count for
their nearest homes (``community``), every system within reach counts for the homes once in total,
shared or not. If no system can be cut off from every home (each system at 2 moves is reached
through more spaces than there are supernovae and nebulae to block them), every system counts, so
the home values add up to the same number S for every galaxy of these tiles - plus the Mecatol Rex
path terms. Equal home values would each be S / n; but every home value is a multiple of the value
step g (the gcd of everything a system can add to one home: its value, split among the homes that can
tie for it, and the constant terms). When S minus any combination of path penalties is never a
multiple of n x g, no galaxy has gap 0, and the gap is at least g.

Example (four players, the community measure): the dealt tiles are worth 75.5 together, systems
split between two homes give quarters (the step g is 0.25) and the path penalties are whole points;
four equal values would add up to a multiple of 4 x 0.25 = 1, never 75.5 + a whole number: every
galaxy of these tiles has a gap of at least 0.25.
"""

from __future__ import annotations

import itertools
import math

from games.ti4.balance import (
    IMPASSABLE,
    NEBULA,
    POINTS,
    SCALE,
    SHARE_UNIT,
    mecatol_lanes,
    movement,
    tile_points,
)
from games.ti4.content import Content
from solver.ti4.problem import MapProblem, home_bonuses

__all__ = ["total_bound"]


def total_bound(content: Content, problem: MapProblem, *, cut_offs: bool = True) -> tuple[int, str] | None:
    """The counting bound of the module docstring: (the least gap, times SCALE; why, for people), or
    None when the argument does not apply (unequal distance weights, ``share="all"``, several weight
    sets, secondary terms, a pool larger than the open positions, a system that can go uncounted).
    ``cut_offs=False``: as if no system could be cut off (not a bound then: the builder's hint that
    only a cut-off can reach a gap of 0)."""
    parts = problem.measure.parts
    if len(parts) != 1 or problem.weighted or len(problem.pool) != len(problem.open):
        return None
    w = parts[0]
    wp = w.distance_points()
    if w.share != "nearest" or len(set(wp)) != 1 or not wp[0] or w.reach != 2 or not w.homes_block:
        return None
    tiles, adj = content.tiles, content.board.adjacent
    placed = [*problem.pool, *problem.fixed.values()]

    def blocks(t: int) -> bool:
        kind = movement(tiles[t], w).kind
        return kind == IMPASSABLE or (kind == NEBULA and w.nebula_stops)

    if any(movement(tiles[t], w).kind == IMPASSABLE and tile_points(tiles[t], w) for t in placed):
        return None  # (a system no ship enters, worth something, would count for nobody)
    blockers = sum(1 for t in placed if blocks(t))
    ties = _ties(content, problem, blockers if cut_offs else 0)
    if ties is None:
        return None
    unit = SCALE // POINTS
    per, sup, neb = w.mecatol_points()
    base = []
    for h in problem.homes:
        lane = mecatol_lanes(adj, h, tuple(problem.homes), frozenset({0, *problem.spaces}))
        base.append(per * (w.mecatol_moves - (6 if lane is None else lane[0])) * unit)
    bonus = home_bonuses(content, problem, w)
    steps = [tile_points(tiles[t], w) * wp[0] * (SHARE_UNIT // k) for t in placed for k in range(1, ties + 1)]
    g = math.gcd(*steps, *base, *bonus, sup * unit, neb * unit)
    if g == 0:
        return None
    n = len(problem.homes)
    total = sum(tile_points(tiles[t], w) for t in placed) * wp[0] * SHARE_UNIT + sum(base) + sum(bonus)
    penalties = (
        {sum(combo) for combo in itertools.product(*[[0, sup * unit, neb * unit, (sup + neb) * unit]] * n)}
        if (sup or neb)
        else {0}
    )
    if any((total - pen) % (n * g) == 0 for pen in penalties):
        return None
    step = g / SCALE
    why = (
        f"every system within 2 moves counts once in total and no {blockers} supernova or nebula can cut "
        f"one off, so the home values add up to {total / SCALE:g} minus whole Mecatol Rex penalties, which "
        f"{n} equal values (each a multiple of {step:g}) cannot make: every galaxy of these tiles has a gap "
        f"of at least {step:g}"
    )
    return g, why


def _ties(content: Content, problem: MapProblem, blockers: int) -> int | None:
    """The most homes one system within 2 moves counts for, or None when a system can go uncounted
    (no home reaches it, or ``blockers`` blocking systems could cut off every way to it; 0: as if
    none could): then the total of the home values is not fixed."""
    adj = content.board.adjacent
    homes = set(problem.homes)
    counted = [p for p in problem.spaces if p and p not in homes]
    ties = 1
    for q in counted:
        gates = [m for m in adj[q] if m in problem.spaces and m and m not in homes and homes & set(adj[m])]
        near = homes & (set(adj[q]) | {h for m in gates for h in adj[m]})
        ties = max(ties, len(near))
        if homes & set(adj[q]):
            continue
        if len(gates) <= blockers:  # (0 gates: never reached)
            return None  # never reached, or it could be cut off: the total is not fixed
    return ties
