"""Finishing a referee's state during tile placement: the problem the hands and rings leave, the
game's own finish as the fallback, and an order of the placements the rules allow.

rule: ti4/place-system-tiles - each seat places its own tiles in its snake-order turns; rule:
ti4/ring-order - ring by ring; so a seat's tiles go to the rings its remaining turns fall in
(:func:`quotas`). rule: ti4/anomaly-adjacency, rule: ti4/wormhole-adjacency - a forbidden neighbour
is legal only when the placing player has no other option at that moment (``games.ti4.placement``,
the state's reading), so a finished galaxy is legal exactly when some order of its placements
allows each one: :func:`placement_order` finds it (or proves there is none) and :func:`forced_reasons`
says why each forbidden neighbour was allowed.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace

from games.errors import ConfigError
from games.ti4.ai import balanced_policy
from games.ti4.balance import Weights
from games.ti4.content import Content, Pos, TileId
from games.ti4.flow import apply_action
from games.ti4.measures import Measure
from games.ti4.placement import conflicts, current_ring, legal_placements, snake_seat
from games.ti4.state import PLACE, Placement, TI4State
from solver.ti4.problem import MapProblem, Quota, map_problem

__all__ = ["forced_reasons", "game_finish", "placement_order", "quotas", "state_problem"]


def _turns(state: TI4State, content: Content) -> list[tuple[int, int]]:
    """The remaining placements in order: (seat, ring) each (rule: ti4/place-system-tiles, ring-order)."""
    layout = content.board.layouts[state.players]
    rings = content.board.rings
    empty = sorted(rings[p] for p in layout.systems if state.galaxy[p] == 0)
    first = len(state.placed) - (1 if state.red_tile else 0)
    return [
        (snake_seat(first + j, state.players, state.table, state.speaker), ring)
        for j, ring in enumerate(empty)
    ]


def quotas(state: TI4State, content: Content) -> tuple[Quota, ...]:
    """Per seat and ring, how many of the seat's tiles go to the ring's open positions."""
    layout = content.board.layouts[state.players]
    rings = content.board.rings
    count: dict[tuple[int, int], int] = {}
    for seat, ring in _turns(state, content):
        count[seat, ring] = count.get((seat, ring), 0) + 1
    return tuple(
        Quota(
            tiles=frozenset(state.hands[seat]),
            positions=frozenset(p for p in layout.systems if state.galaxy[p] == 0 and rings[p] == ring),
            count=c,
        )
        for (seat, ring), c in sorted(count.items())
    )


def state_problem(
    content: Content, state: TI4State, measure: Measure, exclude: Sequence[TileId] = ()
) -> MapProblem:
    """The map problem of a referee's state during tile placement: the tiles placed stay, the tiles in
    hand fill the open positions, each seat's in the rings of its turns."""
    if any(t <= 0 for h in state.hands for t in h):
        raise ConfigError("the state hides tiles in hand: ask with the referee's state", field="state")
    fixed = {p: t for p, t in enumerate(state.galaxy) if p and t > 0 and p not in state.homes}
    pool = [t for h in state.hands for t in h if t not in exclude]
    problem = map_problem(
        content, players=state.players, expansion=state.expansion, measure=measure, fixed=fixed, pool=pool
    )
    return replace(problem, quotas=quotas(state, content))


def game_finish(
    content: Content, state: TI4State, weights: Weights, seed: int
) -> tuple[dict[Pos, TileId], tuple[Placement, ...]]:
    """The game's own finish: every remaining placement by the ``balanced`` policy (legal by
    construction). Returns (the tiles placed by position, the placements in order)."""
    rng = random.Random(seed)
    s = state
    record: list[Placement] = []
    while s.phase == PLACE:
        action = balanced_policy(s, content, weights, rng)
        record.append(Placement(seat=s.actor, tile=action.tile, pos=action.pos))
        s = apply_action(s, content, action, trusted=True)
    return {pl.pos: pl.tile for pl in record}, tuple(record)


def placement_order(
    content: Content, state: TI4State, galaxy: Mapping[Pos, TileId], *, node_limit: int = 20_000
) -> tuple[Placement, ...] | None:
    """An order of the remaining placements that ends in ``galaxy`` with every placement legal at its
    moment (each seat placing its own tiles in its turns, ring by ring, a forbidden neighbour only
    when the seat has no other option), or None when there is none (or the search ran out)."""
    board, tiles = content.board, content.tiles
    layout = board.layouts[state.players]
    owner = {t: s for s, h in enumerate(state.hands) for t in h}
    todo = {p: galaxy[p] for p in layout.systems if state.galaxy[p] == 0}
    if any(t not in owner for t in todo.values()) or len(set(todo.values())) != len(todo):
        return None
    first = len(state.placed) - (1 if state.red_tile else 0)
    cells = list(state.galaxy)
    hands = [list(h) for h in state.hands]
    record: list[Placement] = []
    failed: set[frozenset[Pos]] = set()
    nodes = [0]

    def go() -> bool:
        if len(record) == len(todo):
            return True
        key = frozenset(pl.pos for pl in record)
        nodes[0] += 1
        if key in failed or nodes[0] > node_limit:
            return False
        seat = snake_seat(first + len(record), state.players, state.table, state.speaker)
        ring = current_ring(cells, board, layout)
        legal = set(legal_placements(cells, content, layout, hands[seat], state.reading))
        options = [(p, t) for p, t in todo.items() if cells[p] == 0 and owner[t] == seat and (t, p) in legal]
        options.sort(
            key=lambda o: (bool(conflicts(cells, board, tiles, o[1], o[0])), board.rings[o[0]] != ring)
        )
        for p, t in options:
            cells[p] = t
            hands[seat].remove(t)
            record.append(Placement(seat=seat, tile=t, pos=p))
            if go():
                return True
            record.pop()
            hands[seat].append(t)
            cells[p] = 0
        failed.add(key)
        return False

    return tuple(record) if go() else None


def forced_reasons(content: Content, state: TI4State, record: Sequence[Placement]) -> list[str]:
    """Why each forbidden neighbour of ``record`` is allowed: the seat had no other option (rule:
    ti4/anomaly-adjacency, rule: ti4/wormhole-adjacency), in the state's reading."""
    board, tiles = content.board, content.tiles
    cells = list(state.galaxy)
    hands = [list(h) for h in state.hands]
    out = []
    for pl in record:
        seat, t, p = pl.seat, pl.tile, pl.pos
        for c in conflicts(cells, board, tiles, t, p):
            what = "anomalies" if c.kind == "anomaly" else f"{c.kind} wormholes"
            ring = board.rings[p]
            held = ", ".join(str(x) for x in sorted(hands[seat]))
            why = (
                f"every tile in seat {seat}'s hand ({held}) touches a forbidden neighbour in every open "
                f"space of ring {ring}"
                if state.reading == "player"
                else f"tile {t} touches a forbidden neighbour in every open space of ring {ring}"
            )
            out.append(
                f"tiles {t} (at {p}) and {c.other} (at {c.other_pos}) are neighbouring {what}: allowed, "
                f"{why} (rule: {c.rule}: unless there is no other option)"
            )
        cells[p] = t
        hands[seat].remove(t)
    return out
