"""The movement part of the complete CP-SAT model (``solver.ti4.model``): per weight set's movement
and per home, ``reach[k][p]``, whether position ``p`` is within ``k`` moves (supernovae and asteroid
fields that cannot be entered, nebulae that end movement or cannot be left, the free step out of a
gravity rift, wormhole links wherever wormholes land, other homes that block; docs/ti4.md describes
the measure's movement)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ortools.sat.python import cp_model

from games.ti4.balance import IMPASSABLE, NEBULA, RIFT, Weights, movement
from games.ti4.content import Content, Pos, TileId
from solver.ti4.problem import MapProblem
from solver.ti4.rules import Lit, Logic

__all__ = ["ReachModel"]


class ReachModel:
    """The reach literals of a map model, made when first asked for and shared between the weight
    sets that move alike.

    Args:
        m: the model.
        lg: its logic helper.
        has: ``has(p, pred)``, whether position ``p`` holds a tile with ``pred`` (``rules.position_has``).
        content: the content pack.
        problem: the map problem.
        types: the wormhole types among the tiles.
    """

    def __init__(
        self,
        m: cp_model.CpModel,
        lg: Logic,
        has: Callable[[Pos, Callable[[TileId], bool]], Lit],
        *,
        content: Content,
        problem: MapProblem,
        types: Sequence[str],
    ) -> None:
        self.m, self.lg, self.has, self.c, self.p, self.types = m, lg, has, content, problem, types
        self._cache: dict[tuple[Any, ...], list[list[dict[Pos, Lit]]]] = {}

    def _kinds(self, w: Weights) -> tuple[dict[Pos, dict[int, Lit]], dict[Pos, dict[str, Lit]]]:
        """Per position, literals of its movement class and (with wormhole links) its wormholes."""
        kind: dict[Pos, dict[int, Lit]] = {}
        worm: dict[Pos, dict[str, Lit]] = {}
        types = self.types if w.wormhole_links else []
        for p in range(len(self.c.board.rings)):
            kind[p] = {k: self.has(p, _moves_as(self.c, w, k)) for k in range(4)}
            worm[p] = {wh: self.has(p, _links(self.c, w, wh)) for wh in types}
        return kind, worm

    def for_weights(self, w: Weights) -> list[list[dict[Pos, Lit]]]:
        """Per home, :meth:`_reach` by ``w``'s movement (shared between weight sets that move alike)."""
        key = _movement_key(w)
        if key not in self._cache:
            kinds = self._kinds(w)
            self._cache[key] = [self._reach(h, w, *kinds) for h in self.p.homes]
        return self._cache[key]

    def _reach(
        self,
        home: Pos,
        w: Weights,
        kind: Mapping[Pos, Mapping[int, Lit]],
        worm: Mapping[Pos, Mapping[str, Lit]],
    ) -> list[dict[Pos, Lit]]:
        """``r[k][p]``: whether ``p`` is within ``k`` moves of ``home`` (0..reach), by real movement."""
        lg, prob, adj = self.lg, self.p, self.c.board.adjacent
        spaces = [p for p in range(len(self.c.board.rings)) if p in prob.spaces]
        blocked = set(prob.homes) - {home} if w.homes_block else set()
        reach = max(w.reach, prob.specialty_within, prob.specialty_reach if prob.weighted else 0)
        types = list(worm[0])

        def imp(p: Pos) -> Lit:
            return True if p not in prob.spaces or p in blocked else kind[p][IMPASSABLE]

        r: list[dict[Pos, Lit]] = [{p: p == home for p in spaces}]
        for k in range(1, reach + 1):
            # a step out of q lands within k moves: leave a nebula at 1 + nebula_exit moves (never
            # when it cannot be left), else 1
            exit_k: dict[Pos, Lit] = {}
            for q in spaces:
                neb = kind[q][NEBULA]
                terms = [lg.and_([r[k - 1][q], lg.not_(neb)])]
                if not w.nebula_stops and k - 1 - w.nebula_exit >= 0:
                    terms.append(lg.and_([r[k - 1 - w.nebula_exit][q], neb]))
                exit_k[q] = lg.or_(terms)
            gate = {wh: lg.or_([lg.and_([exit_k[q], worm[q][wh]]) for q in spaces]) for wh in types}
            level: dict[Pos, Lit] = {}
            for p in spaces:
                if p == home:
                    level[p] = True
                    continue
                sup = [exit_k[q] for q in adj[p] if q in exit_k] + [
                    lg.and_([gate[wh], worm[p][wh]]) for wh in types
                ]
                level[p] = lg.and_([lg.not_(imp(p)), lg.or_(sup)])
            if w.rift_bonus:  # the step out of a gravity rift is free (to a space that is no rift)
                free = {q: lg.and_([level[q], kind[q][RIFT]]) for q in spaces}
                zgate = {wh: lg.or_([lg.and_([free[q], worm[q][wh]]) for q in spaces]) for wh in types}
                for p in spaces:
                    if p == home:
                        continue
                    zs = [free[q] for q in adj[p] if q in free] + [
                        lg.and_([zgate[wh], worm[p][wh]]) for wh in types
                    ]
                    extra = lg.and_([lg.not_(imp(p)), lg.not_(kind[p][RIFT]), lg.or_(zs)])
                    level[p] = lg.or_([level[p], extra])
            for p in spaces:
                a, b = r[k - 1][p], level[p]
                if not isinstance(a, bool) and not isinstance(b, bool):
                    self.m.add_implication(a, b)
            r.append(level)
        return r


def _movement_key(w: Weights) -> tuple[Any, ...]:
    """What of a weight set decides movement (two sets with the same key share the reach variables)."""
    return (w.antimass, w.nebula_exit, w.rift_bonus, w.wormhole_links, w.homes_block)


def _moves_as(content: Content, w: Weights, kind: int) -> Callable[[TileId], bool]:
    """Whether a tile's movement class by ``w`` is ``kind``."""

    def pred(t: TileId) -> bool:
        return movement(content.tiles[t], w).kind == kind

    return pred


def _links(content: Content, w: Weights, wormhole: str) -> Callable[[TileId], bool]:
    """Whether a tile has ``wormhole`` and ships can pass it (a link of movement by ``w``)."""

    def pred(t: TileId) -> bool:
        tile = content.tiles[t]
        return wormhole in tile.wormholes and movement(tile, w).kind != IMPASSABLE

    return pred
