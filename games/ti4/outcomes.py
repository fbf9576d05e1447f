"""What a decision leads to, for hints and reviews (issue 30): where a seat stands in the game's own
terms, the exact value of each placement, and the setup round a hint looks ahead to.

Every number is read from the seat's own view (``games.ti4.hidden``): an open space counts the
expected value of the tiles still to be placed (``ai.fill_value``: the seat's own tiles as they are,
the others' hidden ones at the mean of the unseen tiles of their backs), so a hint says the same
whatever sample of the hidden hands the search drew.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from games.core.face import Fact
from games.ti4 import ai
from games.ti4.balance import TERM_NAMES, HomeReport, Weights, home_reports
from games.ti4.content import TileId
from games.ti4.milty import picks_made
from games.ti4.state import DRAFT, PLACE, RED, TI4Action, TI4State

if TYPE_CHECKING:
    from games.ti4.game import TI4Game

__all__ = [
    "ROUND_WORD",
    "PlacementValue",
    "lead_words",
    "measured_terms",
    "outcome_facts",
    "placement_values",
    "round_of",
]

ROUND_WORD = "setup round"
"""What :func:`round_of` counts: one pass of the snake, in which every seat places (or picks) once."""

OPEN_TERM = "spaces still empty, at the mean tile in hand"
"""The name ``balance.home_reports`` gives the open spaces' share of a home value."""


def round_of(state: TI4State) -> int:
    """The setup round of ``state``: during tile placement the pass of the snake (rule:
    ti4/place-system-tiles: speaker to the last player, back to the speaker, ...; from 1), in a Milty
    draft the pass of the draft order; -1 in the steps every seat decides once (factions, colours,
    secret objectives, the speaker's red tile)."""
    if state.phase == PLACE:
        done = len(state.placed) - (1 if state.red_tile else 0)
        return 1 + done // state.players
    if state.phase == DRAFT:
        return 1 + picks_made(state) // state.players
    return -1


def _view(game: TI4Game, state: TI4State, seat: int) -> TI4State:
    """``state`` as ``seat`` sees it (the state itself for a seat out of range)."""
    return game.observation(state, seat) if 0 <= seat < state.players else state


@dataclass(frozen=True, slots=True)
class PlacementValue:
    """One placement's exact effect on every home value (the game's measure; open spaces at the
    expected tile still to place, from the mover's view).

    Attributes:
        action: the placement.
        seat: the mover.
        before: each seat's home value before it.
        after: each seat's home value after it.
    """

    action: TI4Action
    seat: int
    before: tuple[float, ...]
    after: tuple[float, ...]

    @property
    def gain(self) -> float:
        """The mover's home value gain."""
        return self.after[self.seat] - self.before[self.seat]

    @property
    def rival(self) -> int:
        """The rival the placement helps most (the lowest seat on ties; -1 alone)."""
        rivals = [k for k in range(len(self.after)) if k != self.seat]
        if not rivals:
            return -1
        return max(rivals, key=lambda k: (self.after[k] - self.before[k], -k))

    @property
    def rival_gain(self) -> float:
        """The home value gain of the rival it helps most."""
        k = self.rival
        return self.after[k] - self.before[k] if k >= 0 else 0.0

    @property
    def lead(self) -> float:
        """The mover's home value minus the best rival's, after the placement: the hint's exact value."""
        return _lead(self.after, self.seat)[0]


def _lead(values: tuple[float, ...] | list[float], seat: int) -> tuple[float, int]:
    """(the seat's value minus the best other seat's, that seat; -1 when alone)."""
    others = [k for k in range(len(values)) if k != seat]
    if not others:
        return 0.0, -1
    best = max(others, key=lambda k: (values[k], -k))
    return values[seat] - values[best], best


def lead_words(lead: float, rival: int) -> str:
    """``"you lead seat 2 (the best rival) by 1.50"``, ``"you trail seat 2 by 3.00"``, ``"level"``."""
    if rival < 0:
        return "no rival"
    if abs(lead) < 1e-9:
        return f"level with seat {rival}, the best rival"
    verb = "lead" if lead > 0 else "trail"
    return f"you {verb} seat {rival} (the best rival) by {abs(lead):.2f}"


def placement_values(
    game: TI4Game, state: TI4State, actions: Sequence[TI4Action] | None = None
) -> list[PlacementValue]:
    """Legal placements of the seat to move (``actions``, default every one) with each seat's home
    value before and after it (the placements of ``placement.py``, the speaker's red tile too), read from
    the mover's view; empty outside tile placement or before every home is known. Exact: the measure
    is counted in whole units (``games.ti4.balance``)."""
    seat = state.actor
    if state.phase not in (PLACE, RED) or not 0 <= seat < state.players or not all(state.homes):
        return []
    view = _view(game, state, seat)
    legal = game.legal_actions(view)
    chosen = legal if actions is None else [a for a in actions if a in legal]
    before = tuple(game.home_values(view))
    return [
        PlacementValue(
            action=a, seat=seat, before=before, after=tuple(game.home_values(game.apply_trusted(view, a)))
        )
        for a in chosen
    ]


def measured_terms(weights: Weights) -> tuple[str, ...]:
    """The terms of a home value that the measure weighs (``balance.TERM_NAMES`` with a weight, the
    Mecatol Rex path when it has one, the open spaces, the home system when it counts)."""
    pts = weights.points()
    keys = ("resources", "influence", "trait", "specialty", "legendary", "wormhole")
    terms = [name for name, key in zip(TERM_NAMES, keys, strict=True) if pts[key]]
    if weights.has_mecatol_term:
        terms.append("Mecatol Rex path")
    terms.append(OPEN_TERM)
    if weights.home_points():
        terms.append("home system")
    return tuple(terms)


def _term_label(name: str) -> str:
    return "value of the open spaces" if name == OPEN_TERM else name


def _term_text(name: str) -> str:
    return "open spaces (at the expected tile still to place)" if name == OPEN_TERM else name


def outcome_facts(game: TI4Game, state: TI4State, seat: int) -> list[Fact]:
    """Where ``seat`` stands, for hints: its home value, its lead over the best rival, the value by
    the measure's terms, the best rival's value, the galaxy's balance (the gap between the richest and
    the poorest home) and the anomalies on its lane; in a Milty draft before the galaxy exists, its
    picks (slice value, faction, seat position)."""
    if not 0 <= seat < state.players:
        return []
    view = _view(game, state, seat)
    if not all(view.homes):
        return _draft_facts(game, view, seat)
    values = game.home_values(view)
    mine = values[seat]
    lead, rival = _lead(values, seat)
    report = _report(game, view, seat)
    return [
        Fact(
            label="home value",
            value=mine,
            unit="points",
            better=1,
            text=f"home value {mine:.2f} (open spaces at the expected tile still to place)",
        ),
        Fact(
            label="lead over the best rival",
            value=lead,
            unit="points",
            better=1,
            text=lead_words(lead, rival),
        ),
        *_term_facts(game.weights, dict(report.terms)),
        Fact(
            label="best rival's home value",
            value=values[rival] if rival >= 0 else 0.0,
            unit="points",
            better=-1,
            text=f"seat {rival}'s home value {values[rival]:.2f}" if rival >= 0 else "no rival",
        ),
        _balance_fact(values),
        _lane_fact(report.lane_anomalies),
    ]


def _report(game: TI4Game, view: TI4State, seat: int) -> HomeReport:
    """The seat's home report on its view, open spaces at the expected tile still to place."""
    galaxy = {p: t for p, t in enumerate(view.galaxy) if t > 0}
    return home_reports(
        game.pack.board,
        galaxy,
        view.homes,
        game.pack.tiles,
        game.weights,
        spaces=ai.spaces_in_play(view, game.pack),
        fill=ai.fill_value(view, game.pack, game.weights),
    )[seat]


def _term_facts(weights: Weights, terms: dict[str, float]) -> list[Fact]:
    """The home value by the terms the measure weighs."""
    return [
        Fact(
            label=_term_label(name),
            value=terms.get(name, 0.0),
            unit="points",
            better=1,
            text=f"{_term_text(name)}: {terms.get(name, 0.0):.2f} points of your home value",
        )
        for name in measured_terms(weights)
    ]


def _balance_fact(values: Sequence[float]) -> Fact:
    """The galaxy's balance: the gap between the richest and the poorest home."""
    rich = max(range(len(values)), key=lambda k: (values[k], -k))
    poor = min(range(len(values)), key=lambda k: (values[k], k))
    gap = values[rich] - values[poor]
    return Fact(
        label="gap between the richest and the poorest home",
        value=gap,
        unit="points",
        text=f"the galaxy's balance: {gap:.2f} between seat {rich} (the richest) and seat {poor} "
        "(the poorest)",
    )


def _lane_fact(lane: Sequence[TileId]) -> Fact:
    """The anomalies next to the seat's home or on its lane to Mecatol Rex."""
    return Fact(
        label="anomalies on your lane",
        value=float(len(lane)),
        better=-1,
        text=f"{len(lane)} anomal{'y' if len(lane) == 1 else 'ies'} next to your home or on your lane "
        "to Mecatol Rex" + (f" (tiles {', '.join(map(str, lane))})" if lane else ""),
    )


def _draft_facts(game: TI4Game, state: TI4State, seat: int) -> list[Fact]:
    """A Milty seat's picks so far: its slice's value, its faction's home system, its seat position."""
    k = state.slice_pick[seat] if state.slice_pick else -1
    sl = state.slices[k] if 0 <= k < len(state.slices) else ()
    value = ai.slice_value(game.pack, sl, game.weights) if sl else 0.0
    faction = state.factions[seat]
    home = ai.faction_value(game.pack, faction) if faction else 0.0
    known = game.pack.faction(faction) if faction else None
    name = known.name if known else faction
    place = state.seat_pick[seat] if state.seat_pick else 0
    return [
        Fact(
            label="value of the slice you took",
            value=value,
            unit="points",
            better=1,
            text=f"slice {k + 1}: value {value:.2f}" if sl else "no slice yet",
        ),
        Fact(
            label="optimal resources and influence of the home planets",
            value=home,
            better=1,
            text=f"{name}: home planets worth {home:g}" if faction else "no faction yet",
        ),
        Fact(
            label="seat position picked",
            value=float(place),
            text=f"seat position {place}" + (" (speaker)" if place == 1 else "") if place else "no seat yet",
        ),
    ]
