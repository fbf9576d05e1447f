"""Values for searches and the shipped policies: each seat's home value, one-ply placement gains.

The setup's result for a seat is its home value (``games.ti4.balance``) at the end; ``returns`` and
``heuristic`` turn the values into shares that sum to 1 (a softmax, one value point wide), so a
search favours its own home. Before the galaxy is complete, empty spaces count the mean value of
the tiles still in hands (what will fill them, on average).

Policies: ``greedy`` places the tile and space that raise its own home value most over the best
rival's (then picks the richest faction home system, the first colour and objective; in a Milty
draft the richest slice first, then faction, then the speaker's seat); ``balanced`` places to keep
the gap between the best and worst home value smallest (a table that wants a fair galaxy).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from fractions import Fraction

from games.ti4.balance import (
    IMPASSABLE,
    SCALE,
    TILE_UNIT,
    Movement,
    Weights,
    coefficients,
    home_values,
    movement,
    tile_points,
)
from games.ti4.content import Content, Pos, TileId
from games.ti4.flow import legal_actions
from games.ti4.hidden import unseen_tiles
from games.ti4.milty import milty_spaces
from games.ti4.placement import conflicts
from games.ti4.state import DRAFT, FACTION, HIDDEN_BLUE, PLACE, RED, TI4Action, TI4State

__all__ = [
    "TEMPERATURE",
    "balanced_policy",
    "faction_value",
    "fill_value",
    "greedy_policy",
    "placement_gains",
    "seat_values",
    "shares",
    "spaces_in_play",
]

TEMPERATURE = 1.0
"""Softmax width of ``returns`` and ``heuristic``, in home-value points."""


def spaces_in_play(state: TI4State, content: Content) -> tuple[Pos, ...]:
    """The positions of this galaxy: Mecatol Rex, the homes and the system spaces."""
    if state.mode == "milty":
        return milty_spaces(content, state.players)
    layout = content.board.layouts[state.players]
    return (0, *layout.homes, *layout.systems)


def fill_value(state: TI4State, content: Content, weights: Weights) -> int:
    """The value (in tile units) an empty space counts at: the mean of the tiles still to be placed.

    A tile the state hides (a seat's view: another seat's hand, the red tile not drawn yet) counts at
    the mean of the tiles of its back that the view has not seen, so the value is the expectation
    given what the viewer knows; on a full state it is the plain mean of the tiles in hands."""
    return _fill(state, content, weights)


def _fill(state: TI4State, content: Content, weights: Weights) -> int:
    left = [t for h in state.hands for t in h]
    if state.red_tile and not any(pl.tile == state.red_tile for pl in state.placed):
        left.append(state.red_tile)
    if not left:
        return 0
    known = sum(tile_points(content.tiles[t], weights) for t in left if t > 0)
    hidden = [t for t in left if t <= 0]
    if not hidden:
        return round(Fraction(known, len(left)))
    unseen = unseen_tiles(state, content)
    total = Fraction(known)
    for t in hidden:
        pool = unseen["blue" if t == HIDDEN_BLUE else "red"]
        if pool:
            total += Fraction(sum(tile_points(content.tiles[u], weights) for u in pool), len(pool))
    return round(total / len(left))


def seat_values(state: TI4State, content: Content, weights: Weights, *, fill: bool = True) -> list[float]:
    """Each seat's home value now (empty spaces at the mean value of the tiles in hands)."""
    if not all(state.homes):
        return [0.0] * state.players
    galaxy = {p: t for p, t in enumerate(state.galaxy) if t > 0}
    vals = home_values(
        content.board,
        galaxy,
        state.homes,
        content.tiles,
        weights,
        spaces=spaces_in_play(state, content),
        fill=_fill(state, content, weights) if fill else 0,
    )
    return [v / SCALE for v in vals]


def shares(values: Sequence[float]) -> tuple[float, ...]:
    """A softmax of the values (one :data:`TEMPERATURE` wide), summing to 1."""
    top = max(values)
    ex = [math.exp((v - top) / TEMPERATURE) for v in values]
    total = sum(ex)
    return tuple(e / total for e in ex)


def faction_value(content: Content, faction: str) -> float:
    """A faction's home system planets, optimal resources plus influence (the greedy pick)."""
    f = content.faction(faction)
    if f is None:
        return 0.0
    return float(sum(max(p.resources, p.influence) for p in content.tiles[f.home].planets))


def placement_gains(
    state: TI4State, content: Content, weights: Weights, actions: Sequence[TI4Action]
) -> list[tuple[float, float]]:
    """Per placement: (the mover's home value gain, the best rival's gain), one ply.

    Ordinary systems (no anomaly, no wormhole) leave every distance as it is, so their gain is the
    space's share for each home times the tile's value; anomalies and wormholes are evaluated in full.
    """
    seat = state.actor
    spaces = spaces_in_play(state, content)
    galaxy = {p: t for p, t in enumerate(state.galaxy) if t > 0}
    fill = _fill(state, content, weights)
    in_play = set(spaces)
    mv = [
        movement(content.tiles.get(galaxy.get(p, 0)), weights) if p in in_play else Movement(IMPASSABLE)
        for p in range(len(state.galaxy))
    ]
    counted = [p for p in spaces if p and p not in state.homes]
    coefs = coefficients(content.board, mv, state.homes, counted, weights)
    before: list[float] | None = None
    out = []
    for a in actions:
        tile = content.tiles[a.tile]
        if tile.is_anomaly or tile.wormholes:
            if before is None:
                before = seat_values(state, content, weights)
            g = dict(galaxy)
            g[a.pos] = a.tile
            after = [
                v / SCALE
                for v in home_values(
                    content.board, g, state.homes, content.tiles, weights, spaces=spaces, fill=fill
                )
            ]
            gains = [x - y for x, y in zip(after, before, strict=True)]
        else:
            delta = tile_points(tile, weights) - fill
            gains = [co.get(a.pos, 0) * delta / SCALE for co in coefs]
        rival = max((g for s, g in enumerate(gains) if s != seat), default=0.0)
        out.append((gains[seat], rival))
    return out


def greedy_policy(state: TI4State, content: Content, weights: Weights, rng: random.Random) -> TI4Action:
    """The greedy seat's decision (see the module docstring)."""
    actions = legal_actions(state, content)
    if state.phase in (PLACE, RED):
        gains = placement_gains(state, content, weights, actions)
        scores = [own - rival for own, rival in gains]
        return _best(actions, scores, rng)
    if state.phase == FACTION:
        return _best(actions, [faction_value(content, a.name) for a in actions], rng)
    if state.phase == DRAFT:
        return _best(actions, [_pick_score(state, content, weights, a) for a in actions], rng)
    return actions[0]


def _pick_score(state: TI4State, content: Content, weights: Weights, action: TI4Action) -> float:
    if action.kind == "slice":
        return 10.0 + slice_value(content, state.slices[action.pos], weights)
    if action.kind == "faction":
        return faction_value(content, action.name)
    return 1.0 / action.pos


def slice_value(content: Content, tiles: Sequence[TileId], weights: Weights) -> float:
    """A Milty slice's value: its systems' values (unweighted by distance), in value points."""
    return sum(tile_points(content.tiles[t], weights) for t in tiles) / TILE_UNIT


def balanced_policy(state: TI4State, content: Content, weights: Weights, rng: random.Random) -> TI4Action:
    """Place to keep the gap between the best and the worst home value smallest."""
    actions = legal_actions(state, content)
    if state.phase not in (PLACE, RED):
        return greedy_policy(state, content, weights, rng)
    base = seat_values(state, content, weights)
    scores = []
    for a in actions:
        g = _gains_all(state, content, weights, a)
        after = [b + x for b, x in zip(base, g, strict=True)]
        scores.append(-(max(after) - min(after)))
    return _best(actions, scores, rng)


def _gains_all(state: TI4State, content: Content, weights: Weights, action: TI4Action) -> list[float]:
    galaxy = {p: t for p, t in enumerate(state.galaxy) if t > 0}
    spaces = spaces_in_play(state, content)
    fill = _fill(state, content, weights)
    before = home_values(content.board, galaxy, state.homes, content.tiles, weights, spaces=spaces, fill=fill)
    galaxy[action.pos] = action.tile
    after = home_values(content.board, galaxy, state.homes, content.tiles, weights, spaces=spaces, fill=fill)
    return [(a - b) / SCALE for a, b in zip(after, before, strict=True)]


def _best(actions: Sequence[TI4Action], scores: Sequence[float], rng: random.Random) -> TI4Action:
    top = max(scores)
    best = [a for a, s in zip(actions, scores, strict=True) if s >= top - 1e-9]
    return best[rng.randrange(len(best))]


def uses_exception(state: TI4State, content: Content, action: TI4Action) -> bool:
    """Whether a placement touches a tile it may not (legal only because there was no other option)."""
    return bool(conflicts(state.galaxy, content.board, content.tiles, action.tile, action.pos))
