"""The exact score of a Tiberius Who? position: per-seat totals, per-category lines (the VP schedule
of ``games.tiberius.scoring``), places and the tie-break steps that decided equal totals."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from games.core import Game
from games.tiberius import TiberiusState
from games.tiberius.model import CQ, GV, OVER, PC, TURNS
from games.tiberius.scoring import (
    ADOPTION_VP,
    IMPERATOR_LEAST,
    IMPERATOR_MOST,
    INFLUENCE_PER_VP,
    LOYALTY_VP,
    MARRIAGE_MOST,
    MARRIAGE_NONE,
    PLACE_VP,
    TRIUMPH_NONE,
    TRIUMPH_PER_CUBE,
    Line,
    consul_points,
    ranking,
    tiebreak_reasons,
)
from solver.core import ScoreLine, ScoreReport, SeatScore
from solver.tiberius.params import as_game, as_state


def _places(table: Sequence[int], others: int) -> str:
    shown = " / ".join(f"{v}" for v in table)
    words = ("the most", "the next-most", "the third-most")[: len(table)]
    rest = f", {others} VP to the others with cubes" if others else ""
    return f"{shown} VP to {', '.join(words[:-1])} and {words[-1]} cubes{rest}"


_PLACED_WEIGHT = {
    {CQ: "Conquests", PC: "Pro-Consular Imperium Maius", GV: "Governorships"}[box]: _places(table, others)
    for box, table, others in PLACE_VP
}
WEIGHTS: dict[str, str] = {
    **_PLACED_WEIGHT,
    "Imperial Marriages": (
        f"{MARRIAGE_MOST:+d} VP for strictly the most cubes, {MARRIAGE_NONE:+d} VP for none"
    ),
    "Consul/Censor": (
        f"{consul_points(1)} VP for the first cube, {consul_points(2) - consul_points(1)} for the second, "
        f"{consul_points(3) - consul_points(2)} for each after"
    ),
    "Triumphs": f"{TRIUMPH_PER_CUBE} VP a cube, {TRIUMPH_NONE:+d} VP for none",
    "Imperator": f"1 VP a cube, {IMPERATOR_MOST:+d} VP for the most, {IMPERATOR_LEAST:+d} VP for the least",
    "Priesthoods": "1 VP a cube",
    "Son of Augustus": f"{ADOPTION_VP} VP when adopted",
    "Loyalty": f"{LOYALTY_VP} VP for career cards from all six decks",
    "Influence": f"1 VP per {INFLUENCE_PER_VP} Influence cubes",
}
"""The weight of each category of the VP schedule, as a score sheet prints it beside the part (from
the schedule's own numbers in ``games.tiberius.scoring``)."""
_ONE_CUBE = re.compile(r"\b1 cubes\b")


def sheet_detail(line: Line) -> str:
    """``"most (5 cubes); 10 / 5 / 2 VP to the most, the next-most and the third-most cubes"``."""
    weight = WEIGHTS.get(line.category, "")
    how = _ONE_CUBE.sub("1 cube", line.detail) if "1 cubes" in line.detail else line.detail
    return f"{how}; {weight}" if weight else how


def _breakdown(lines: Sequence[Line]) -> tuple[ScoreLine, ...]:
    """The report lines of a seat's tally lines: the category, its points and how they were earned at
    what weight."""
    return tuple(
        [ScoreLine(category=x.category, points=float(x.points), detail=sheet_detail(x)) for x in lines]
    )


def score(game: Game[Any, Any], state: Any) -> ScoreReport:
    """The exact score: per-seat totals, per-category lines, places and the deciding tie-breaks."""
    g, s = as_game(game), as_state(state)
    keys = g.keys(s)
    tallies = g.tally(s, keys=keys)
    totals = [t.total for t in tallies]
    rank = [0] * len(totals)
    for place, seat in enumerate(ranking(totals, keys) if s.num_players > 1 else [0], 1):
        rank[seat] = place
    # rule: tiberius/tie-breaker - the chain decided between seats only where totals are equal.
    tied = len(set(totals)) < len(totals)
    return ScoreReport(
        game="tiberius",
        final=s.phase == OVER,
        seats=tuple(
            [
                SeatScore(
                    seat=seat,
                    total=float(t.total),
                    rank=rank[seat],
                    breakdown=_breakdown(t.lines),
                    tiebreak=tiebreak_reasons(totals, keys, seat) if tied else (),
                )
                for seat, t in enumerate(tallies)
            ]
        ),
        ended_by=_ended_by(s) if s.phase == OVER else "",
    )


def _ended_by(s: TiberiusState) -> str:
    """rule: tiberius/end-of-game - the game lasts 8 turns (the ``turns`` variant: the 7 of the turn
    track)."""
    if s.turns == TURNS:
        return f"the game lasts {TURNS} turns: turn {TURNS} was played"
    return f"the {s.turns} turns of the printed turn track were played (the turns variant)"
