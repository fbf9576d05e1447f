"""Root statistics: what a search tree (or several, one per worker) says about the root moves.

Both tree searches reduce their root to :class:`RootStats`; root parallelism merges the workers'
stats (visits and value sums add up); :func:`to_analysis` ranks the moves into an ``Analysis``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from search.types import Analysis, Candidate

__all__ = ["ChildStats", "RootStats", "merge_stats", "to_analysis"]

WIN = 1.0 - 1e-9
"""A seat's return at or above this is a win (the protocol scores a win 1): nothing is better."""

LOSS = 1e-9
"""A seat's return at or below this is a loss (the protocol scores a loss 0): nothing is worse."""


@dataclass(slots=True)
class ChildStats:
    """One root move's statistics.

    Attributes:
        action: the action.
        text: its notation.
        visits: simulations through it.
        wsum: value sums per seat.
        prior: the prior the search used.
        proven: the proven value per seat, or None.
        pv: the principal variation from this move (notation texts).
    """

    action: Any
    text: str
    visits: int
    wsum: list[float]
    prior: float
    proven: tuple[float, ...] | None
    pv: tuple[str, ...]


@dataclass(slots=True)
class RootStats:
    """The root of one search tree.

    Attributes:
        seat: the seat to move at the root.
        players: number of seats.
        children: one entry per legal root action, in ``legal_actions`` order.
        visits: simulations through the root.
        wsum: value sums per seat at the root.
        proven: the root's proven value, or None.
        simulations: simulations run by this search (excluding reused ones).
        nodes: nodes in the tree.
    """

    seat: int
    players: int
    children: list[ChildStats]
    visits: int
    wsum: list[float]
    proven: tuple[float, ...] | None
    simulations: int
    nodes: int = 0


def merge_stats(parts: Sequence[RootStats]) -> RootStats:
    """Merge the root statistics of independent searches of the same position (root parallelism).

    Visits and value sums add up; a proof found by any worker holds (proofs are exact); the principal
    variation of each move comes from the worker that visited it most.
    """
    first = parts[0]
    by_action = [{c.action: c for c in p.children} for p in parts]
    children: list[ChildStats] = []
    for c0 in first.children:
        same = [m[c0.action] for m in by_action if c0.action in m]
        wsum = [sum(c.wsum[k] for c in same) for k in range(first.players)]
        proven = next((c.proven for c in same if c.proven is not None), None)
        top = max(same, key=lambda c: c.visits)
        children.append(
            ChildStats(
                action=c0.action,
                text=c0.text,
                visits=sum(c.visits for c in same),
                wsum=wsum,
                prior=c0.prior,
                proven=proven,
                pv=top.pv,
            )
        )
    return RootStats(
        seat=first.seat,
        players=first.players,
        children=children,
        visits=sum(p.visits for p in parts),
        wsum=[sum(p.wsum[k] for p in parts) for k in range(first.players)],
        proven=next((p.proven for p in parts if p.proven is not None), None),
        simulations=sum(p.simulations for p in parts),
        nodes=sum(p.nodes for p in parts),
    )


def _rank_key(c: ChildStats, seat: int, index: int) -> tuple[int, int, float, int]:
    if c.proven is not None:
        v = c.proven[seat]
        tier = 2 if v >= WIN else 0 if v <= LOSS else 1
        return (-tier, -c.visits, -v, index)
    mean = c.wsum[seat] / c.visits if c.visits else 0.0
    return (-1, -c.visits, -mean, index)


def _lcb(mean: float, visits: int) -> float:
    if visits == 0:
        return 0.0
    var = max(mean * (1.0 - mean), 0.0025)
    return max(0.0, mean - 1.96 * math.sqrt(var / visits))


def to_analysis(
    stats: RootStats,
    *,
    seed: int,
    elapsed_s: float,
    final: bool,
    workers: int,
    algorithm: str,
    stopped_by: str,
) -> Analysis:
    """Rank the root moves and build the ``Analysis``."""
    seat = stats.seat
    order = sorted(range(len(stats.children)), key=lambda i: _rank_key(stats.children[i], seat, i))
    candidates = []
    for i in order:
        c = stats.children[i]
        if c.proven is not None:
            values = tuple(c.proven)
            lcb = values[seat]
        else:
            values = tuple(w / c.visits for w in c.wsum) if c.visits else (0.0,) * stats.players
            lcb = _lcb(values[seat], c.visits)
        candidates.append(
            Candidate(
                action=c.action,
                text=c.text,
                visits=c.visits,
                value=values,
                prior=c.prior,
                lcb=lcb,
                pv=c.pv,
                proven=None if c.proven is None else c.proven[seat],
                proven_values=c.proven,
            )
        )
    if stats.proven is not None:
        root_values = tuple(stats.proven)
    elif stats.visits:
        root_values = tuple(w / stats.visits for w in stats.wsum)
    else:
        root_values = (1.0 / stats.players,) * stats.players
    return Analysis(
        seat=seat,
        candidates=tuple(candidates),
        root_value=root_values,
        simulations=stats.simulations,
        elapsed_s=elapsed_s,
        seed=seed,
        final=final,
        workers=workers,
        algorithm=algorithm,
        stopped_by=stopped_by,
        root_proven=stats.proven is not None,
        tree_nodes=stats.nodes,
    )
