"""The district graph of Rome (rule: movement, stage-1-quests pursuit, spaceship-cards placement).

A networkx graph built once from the content pack; all-pairs distances and next-hop tables are
precomputed into tuples so that the rules never call networkx in a hot path.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeAlias

import networkx as nx

__all__ = ["Board", "District"]

District: TypeAlias = int
"""A district, by index into the content pack's district list (0 = "I")."""


class Board:
    """The authored map: districts, adjacency, distances and routing helpers.

    Attributes:
        graph: the networkx graph (nodes are district indices, ``name``/``id`` attributes).
        size: number of districts.
        dist: ``dist[a][b]``, shortest-path length in districts.
        neighbors: sorted neighbours of each district.
        hops: ``hops[a][t]``, the neighbours of ``a`` one step closer to ``t`` (shortest routes).
        diameter: the largest distance.
    """

    def __init__(
        self, ids: tuple[str, ...], names: tuple[str, ...], edges: Iterable[tuple[int, int]]
    ) -> None:
        g = nx.Graph()
        for i, (did, name) in enumerate(zip(ids, names, strict=True)):
            g.add_node(i, id=did, name=name)
        g.add_edges_from(edges)
        self.graph = g
        self.size = len(ids)
        lengths = dict(nx.all_pairs_shortest_path_length(g))
        self.dist: tuple[tuple[int, ...], ...] = tuple(
            tuple(lengths[a][b] for b in range(self.size)) for a in range(self.size)
        )
        self.neighbors: tuple[tuple[int, ...], ...] = tuple(tuple(sorted(g[a])) for a in range(self.size))
        self.hops: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            tuple(
                tuple(b for b in self.neighbors[a] if self.dist[b][t] == self.dist[a][t] - 1)
                for t in range(self.size)
            )
            for a in range(self.size)
        )
        self.diameter = max(max(row) for row in self.dist)

    def reach(self, src: District, base_range: int, coins: int) -> dict[District, int]:
        """Where a miniature in ``src`` can move: destination -> coins to pay (rule: movement).

        ``base_range`` is 1 for a character, 2 for a drone or lictor (+1 with Mercury's favor);
        each extra district costs 1 coin.
        """
        row = self.dist[src]
        return {d: max(0, row[d] - base_range) for d in range(self.size) if 0 < row[d] <= base_range + coins}

    def nearest(self, target: District, lictors: Iterable[District]) -> tuple[int, tuple[District, ...]]:
        """(distance, districts of the nearest lictors) to ``target`` (rule: stage-1-quests)."""
        best, where = 1 << 30, []
        for lic in sorted(set(lictors)):
            d = self.dist[lic][target]
            if d < best:
                best, where = d, [lic]
            elif d == best:
                where.append(lic)
        return best, tuple(where)

    def shortest_routes(self, src: District, dst: District) -> list[list[District]]:
        """Every shortest route from ``src`` to ``dst`` (the left-hand player's choice)."""
        return sorted(nx.all_shortest_paths(self.graph, src, dst))

    def pursuit_steps(
        self, target: District, lictors: Iterable[District]
    ) -> tuple[tuple[District, District], ...]:
        """The (lictor district, next district) moves the left-hand player may choose from.

        The nearest lictor moves one district along a shortest route toward ``target``; equally
        near lictors and equally short routes are all offered (rule: stage-1-quests).
        """
        d, where = self.nearest(target, lictors)
        if d == 0:
            return ()
        return tuple((lic, hop) for lic in where for hop in self.hops[lic][target])

    def placement(self, busy: Iterable[District], minis: Iterable[District]) -> tuple[District, ...]:
        """Where a lictor from the reserve may be placed (rule: spaceship-cards).

        Districts without other components (characters, drones, lictors, quest markers: ``busy``);
        if there is none, any district without characters and drones (``minis``).
        """
        taken = set(busy)
        free = tuple(d for d in range(self.size) if d not in taken)
        if free:
            return free
        m = set(minis)
        return tuple(d for d in range(self.size) if d not in m)
