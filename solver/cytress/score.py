"""The exact score of the rebellion (``register_scorer`` and the puzzle ``cytress.score``)."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from games.core import Game
from games.cytress.board import CREW_PRESTIGE, TUBE_PRESTIGE
from games.cytress.flow import END_LIMIT, END_SOLO, END_TUBES, end_condition
from games.cytress.game import CytressGame
from games.cytress.scoring import (
    LEVEL_REWARD,
    Tally,
    bounty_weights,
    card_facts,
    rebellion,
    winners,
)
from games.cytress.state import AUTOMA, FACTIONS, LEVELS, NOBODY, OVER, CytressState
from solver.core import (
    ScoreLine,
    ScoreReport,
    SeatScore,
    SolveLimits,
    SolveResult,
    Status,
    check_param_keys,
)
from solver.cytress.common import as_game, as_state, owner_name

__all__ = ["SCORE_PARAMS", "ended_by", "score", "score_puzzle"]


def _tallies(g: CytressGame, s: CytressState) -> tuple[tuple[Tally, ...], Any]:
    return rebellion(
        card_facts(g.pack, s), [r.stratos for r in s.rebels], s.crew, s.tube, s.map.layout.adjacent
    )


def _lines(g: CytressGame, s: CytressState, t: Tally) -> tuple[ScoreLine, ...]:
    """One seat's parts, each detail naming its counts and weights ("2 on level 1 × 5 + 1 on level 2 × 10",
    "3 PRESTIGE × 7 (crews on Stratos)")."""
    f = t.facts
    crews = " + ".join(
        f"{t.crews[k]} on level {k + 1} × {CREW_PRESTIGE[k]}" for k in range(LEVELS) if t.crews[k]
    )
    bases = (
        (sum(t.crews), "crews on Stratos"),
        (f.longest, "cards in the longest lifepath"),
        (f.sets, "complete sets of faction target icons"),
    )
    rewards = []
    for k, (base, unit) in enumerate(bases):
        paid = f"{LEVEL_REWARD[k]} PRESTIGE × {base} ({unit})"
        rewards.append(
            ScoreLine(
                category=f"Stratos level {k + 1} ruled",
                points=float(t.rewards[k]),
                detail=f"majority: {paid}"
                if t.majority[k]
                else f"no majority (a majority would score {paid})",
            )
        )
    by_height: dict[int, list[str]] = {}
    for h in t.tubes:
        by_height.setdefault(s.tube[h], []).append(s.map.layout.labels[h])
    tubes = " + ".join(
        f"{len(hexes)} × {TUBE_PRESTIGE[height]} (height {height}: {', '.join(hexes)})"
        for height, hexes in sorted(by_height.items())
    )
    weights = bounty_weights(g.pack, s.rebels[t.owner].bounties, best=s.bounty_best)
    bounties = " + ".join(
        f"{f.targets[k]} {FACTIONS[k].capitalize()} target icons × {w}" for k, w in enumerate(weights) if w
    )
    return (
        ScoreLine(
            category="Crews on Stratos",
            points=float(t.crew_prestige),
            detail=crews or "none: 0 × 5, 10 or 15 PRESTIGE by level 1, 2 or 3",
        ),
        *rewards,
        ScoreLine(
            category="Waste tubes controlled",
            points=float(t.tube_prestige),
            detail=tubes or "none: 0 × 3, 5 or 7 PRESTIGE by height 1, 2 or 3",
        ),
        ScoreLine(
            category="Bounties collected",
            points=float(t.bounty_prestige),
            detail=bounties or "no bounty: 0 × (2 a tier 1, 1 a tier 2 bounty pays per target icon)",
        ),
    )


def score(game: Game[Any, Any], state: Any) -> ScoreReport:
    """The exact rebellion: per seat, PRESTIGE per category and place (ties share a place: rule:
    cytress/core-concepts). Solo: the automa's total is a line of seat 0's breakdown, and seat 0
    is first only with more PRESTIGE than the automa (rule: cytress/solo-game-end)."""
    g, s = as_game(game), as_state(state)
    tallies, _ = _tallies(g, s)
    totals = [t.total for t in tallies]
    seats = []
    for seat in range(s.num_players):
        t = tallies[seat]
        lines = _lines(g, s, t)
        if s.solo:
            ai = tallies[AUTOMA]
            beat = f"{ai.total} PRESTIGE to beat, the automa's own total (× 0 in seat 0's: not a part of it)"
            lines = (*lines, ScoreLine(category="The automa", points=0.0, detail=beat))
            rank = 1 if winners(totals, solo=True) else 2
            tie = ("tied with the automa: no one wins",) if totals[0] == totals[AUTOMA] else ()
        else:
            rank = 1 + sum(1 for x in totals if x > t.total)
            tie = ("tied players rule Stratos and Cytress together",) if totals.count(t.total) > 1 else ()
        seats.append(SeatScore(seat=seat, total=float(t.total), rank=rank, breakdown=lines, tiebreak=tie))
    over = s.phase == OVER
    return ScoreReport(game="cytress", final=over, seats=tuple(seats), ended_by=ended_by(s) if over else "")


def ended_by(s: CytressState) -> str:
    """How a finished game ended (``flow.end_condition``), in the rulebook's words: rule:
    cytress/game-end-trigger, rule: cytress/solo-game-end, or the ``round_limit`` cap, which says it
    is a variant and how many allocated sections were left ("" before the end)."""
    reason = end_condition(s)
    if reason == END_TUBES:
        return (
            f"the last allocated waste tube section was placed in round {s.round}; the round was played "
            "out, then the rebellion"
        )
    if reason == END_SOLO:
        return f"a solo game ends at the end of the 5th round (round {s.round} was played)"
    if reason == END_LIMIT:
        return (
            f"the round_limit cap of {s.round_limit} rounds (a variant, not in the rulebook), with "
            f"{s.tubes_left} allocated tube sections still near Stratos"
        )
    return ""


SCORE_PARAMS: Mapping[str, Any] = {"type": "object", "properties": {}, "additionalProperties": False}
"""``cytress.score`` takes no parameters."""


def score_puzzle(
    game: Game[Any, Any], state: Any, params: Mapping[str, Any], limits: SolveLimits
) -> SolveResult:
    """The rebellion now: per owner its categories, per tube its controller and margin."""
    start = time.perf_counter()
    g, s = as_game(game), as_state(state)
    check_param_keys(params, SCORE_PARAMS)
    tallies, tubes = _tallies(g, s)
    labels = s.map.layout.labels
    owners = []
    for t in tallies:
        owners.append(
            {
                "owner": owner_name(s, t.owner),
                "total": t.total,
                "crews_on_stratos": t.crew_prestige,
                "level_rewards": {f"level {k + 1}": t.rewards[k] for k in range(LEVELS)},
                "waste_tubes": t.tube_prestige,
                "bounties": t.bounty_prestige,
            }
        )
    tube_rows = []
    for r in tubes:
        ranked = sorted(r.counts, reverse=True)
        margin = ranked[0] - (ranked[1] if len(ranked) > 1 else 0)
        tube_rows.append(
            {
                "hex": labels[r.hex],
                "height": r.height,
                "controller": owner_name(s, r.controller),
                "by": margin if r.controller != NOBODY else 0,
                "crews": {owner_name(s, o): c for o, c in enumerate(r.counts) if c},
                "prestige": r.prestige,
            }
        )
    totals = [t.total for t in tallies]
    best = max(totals)
    leaders = [owner_name(s, o) for o, x in enumerate(totals) if x == best]
    close = [row for row in tube_rows if row["by"] <= 1 and row["height"] >= 2]
    hint = (
        f" The {close[0]['height']}-high tube at {close[0]['hex']} is held by a margin of "
        f"{close[0]['by']} crew or none: a crew next to it can swing "
        f"{TUBE_PRESTIGE[int(close[0]['height'])]} PRESTIGE."
        if close
        else ""
    )
    return SolveResult(
        kind="cytress.score",
        status=Status.OPTIMAL,
        objective=float(best),
        bound=float(best),
        answer={"owners": owners, "tubes": tube_rows},
        explanation=f"If the rebellion broke out now, {' and '.join(leaders)} would rule with "
        f"{best} PRESTIGE." + hint,
        method="exact",
        wall_s=time.perf_counter() - start,
    )
