"""The TI4 setup's fitted win model: what a player reads off the galaxy, weighed by self-play.

:func:`win_features` gives each seat a vector of named features (:data:`FEATURES`) a TI4 player
would recognise while the galaxy is built: the hand-written evaluation's own estimate
(:meth:`TI4Game.heuristic`'s share, as a log, so the fit starts from it) and the same as the galaxy
fills, the system tiles still in the seat's hand and how much better they are than the tile an open
space is expected to get, the open spaces next to its home and two spaces out, and whether it places
next. :func:`fitted_heuristic` turns them into win chances with the weights of ``fitted.json`` (a
conditional logit, ``games/core/fitted.py``), trained by ``lictor train ti4`` (``batch/selfplay.py``).
Nothing here is a rule: it only reads states.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from games.core.fitted import WinModel, fitted_evaluator, load_model, win_chances
from games.core.protocol import Evaluator
from games.ti4 import ai
from games.ti4.balance import TILE_UNIT, tile_points
from games.ti4.content import Pos, TileId
from games.ti4.state import OVER, PLACE, RED, TI4State

if TYPE_CHECKING:
    from games.ti4.game import TI4Game

__all__ = ["FEATURES", "Table", "evaluator", "fitted_heuristic", "model", "win_features"]

FEATURES = (
    "hand-written log-share",
    "hand-written log-share x galaxy placed",
    "tiles in hand",
    "hand value over the expected tile",
    "open spaces next to home",
    "open spaces two from home",
    "places next",
)
"""The features of each seat, in order (the names the shipped model's weights are given by):

- hand-written log-share: the log of :meth:`TI4Game.heuristic`'s share for the seat, i.e. its home
  value (open spaces at the expected tile) less a count all seats share (weight 1 and nothing else is
  the hand-written evaluation itself); "x galaxy placed" is the same times the share of the galaxy's
  system spaces filled (0 before the first tile, 1 once the galaxy is complete): how far the home
  values so far can still move;
- tiles in hand: the system tiles the seat still has to place;
- hand value over the expected tile: the sum over those tiles of their value (the measure's value
  points) less the value every open space counts at (the mean tile still to be placed): the seat
  places its own good tiles near its home and its poor ones near its rivals;
- open spaces next to home / two from home: the empty system spaces in play adjacent to the seat's
  home, and those two steps away on the board (anomalies not considered): room for good tiles, or
  for a rival's anomalies;
- places next: 1 for the seat about to place a tile.

The seat's home value itself is not a feature of its own: in a conditional logit it is the log-share
(they differ by a count all seats share), and the value with nothing more placed would cost a second
home-value computation per leaf; the open spaces stand in for the difference.
"""

FOR_LEVELS = False
"""Whether the AI's strength levels search with the fitted model (``Evaluator.levels``): only where
the head-to-head at equal time (``python -m bench.fitted --game ti4 --players 3``) measured it
stronger than the hand-written evaluation; see docs/ti4.md, "Fitted evaluator". Not so far: the shipped
model (600 three-player self-play games; held-out log-loss 0.848 against the hand-written 1.021) scored
a pairwise 52.0% [44.1, 59.8] against two hand-written seats over 150 games at 30 ms a move (target
60%)."""

MODEL_FILE = "fitted.json"
"""The shipped model (package data of ``games.ti4``)."""


def model() -> WinModel:
    """The shipped fitted model (read once: :func:`games.core.fitted.load_model`)."""
    return load_model("games.ti4", MODEL_FILE)


def _log_shares(values: list[float]) -> list[float]:
    """The logs of :func:`games.ti4.ai.shares` of ``values``, computed without taking a log of a
    share (a share far below 1e-300 keeps its exact log)."""
    top = max(values)
    scaled = [(v - top) / ai.TEMPERATURE for v in values]
    norm = math.log(sum(math.exp(u) for u in scaled))
    return [u - norm for u in scaled]


@dataclass(frozen=True, slots=True)
class Table:
    """What the features read of a game's content, worked out once per evaluator (a leaf then only
    looks values up): each tile's value in fortieths by the game's measure, and each position's
    neighbours one and two steps away on the board."""

    points: Mapping[TileId, int]
    first: tuple[frozenset[Pos], ...]
    second: tuple[frozenset[Pos], ...]

    @classmethod
    def of(cls, game: TI4Game) -> Table:
        """The table of ``game``'s tiles, measure and board."""
        adjacent = game.pack.board.adjacent
        first = tuple(frozenset(a) for a in adjacent)
        second = tuple(
            frozenset(q for p in first[home] for q in adjacent[p]) - first[home] - {home}
            for home in range(len(adjacent))
        )
        points = {t: tile_points(tile, game.weights) for t, tile in game.pack.tiles.items()}
        return cls(points=points, first=first, second=second)


def win_features(game: TI4Game, state: TI4State, table: Table | None = None) -> list[tuple[float, ...]]:
    """Per seat, the features of :data:`FEATURES` (``table``: :meth:`Table.of` the game, built here
    when not given)."""
    table = Table.of(game) if table is None else table
    values = game.home_values(state, fill=state.phase != OVER)
    log_shares = _log_shares(values)
    spaces = ai.spaces_in_play(state, game.pack)
    galaxy, homes = state.galaxy, state.homes
    systems = [p for p in spaces if p and p not in homes]
    empty = {p for p in systems if galaxy[p] <= 0}
    filled = (len(systems) - len(empty)) / len(systems) if systems else 1.0
    fill = ai.fill_value(state, game.pack, game.weights) if state.phase != OVER else 0
    points = table.points
    placing = state.phase in (PLACE, RED)
    out: list[tuple[float, ...]] = []
    for seat in range(state.players):
        hand = state.hands[seat] if seat < len(state.hands) else ()
        home = homes[seat]
        out.append(
            (
                log_shares[seat],
                log_shares[seat] * filled,
                float(len(hand)),
                sum(points[t] - fill for t in hand if t > 0) / TILE_UNIT,
                float(len(table.first[home] & empty)) if home else 0.0,
                float(len(table.second[home] & empty)) if home else 0.0,
                1.0 if placing and state.actor == seat else 0.0,
            )
        )
    return out


def fitted_heuristic(game: TI4Game, state: TI4State, table: Table | None = None) -> tuple[float, ...]:
    """Each seat's chance to win by the fitted model (a finished setup gives ``returns``; ``table`` as
    :func:`win_features`)."""
    if state.phase == OVER:
        return game.returns(state)
    return win_chances(model().weights_for(state.players), win_features(game, state, table))


def evaluator(game: TI4Game) -> Evaluator:
    """The ``"fitted"`` evaluator: :func:`fitted_heuristic` with the game's own prior."""
    table = Table.of(game)
    return fitted_evaluator(
        model(),
        lambda state: fitted_heuristic(game, state, table),
        lambda state: win_features(game, state, table),
        FEATURES,
        levels=FOR_LEVELS,
    )
