"""Hint advice (``register_advice("cytress")``): every legal hex for a crew or a waste tube valued by
the final PRESTIGE margin."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from games.core import Game
from games.cytress.game import CytressGame
from games.cytress.scoring import (
    card_facts,
)
from games.cytress.state import OVER, CytressState
from games.cytress.tubes import buildable
from solver.core import (
    Advice,
    SolveLimits,
    Status,
)
from solver.cytress.placement import PlaceInstance, Placement, best_placement_cpsat, margin_of

__all__ = ["ADVICE_LABEL", "hint_advice"]


ADVICE_LABEL = "final PRESTIGE margin"
"""What the advice's values measure (the hint's first number): the mover's PRESTIGE minus the best
rival's (solo: the automa's) if the rebellion broke out after the move and its best placement."""


def _crew_values(
    g: CytressGame, s: CytressState, hexes: Sequence[int], limits: SolveLimits
) -> dict[int, tuple[int, Placement]] | None:
    """Per hex, the best final margin with the mover's crew placed there and then its best waste
    tube drop on one of its crews (when tube sections are left): the best placement, CP-SAT, with
    the crew's hex fixed. None when a solve is not proven optimal within the limits."""
    seat = s.actor
    facts = card_facts(g.pack, s)
    sections = buildable(s)
    deadline = time.perf_counter() + float(limits.time_limit_s)
    out: dict[int, tuple[int, Placement]] = {}
    for h in hexes:
        left = deadline - time.perf_counter()
        if left <= 0 or (limits.stop is not None and limits.stop()):
            return None
        inst = PlaceInstance(seat, 1, 1 if sections else 0, sections, (h,))
        status, _, _, found = best_placement_cpsat(
            g, s, inst, SolveLimits(time_limit_s=left, workers=1, stop=limits.stop)
        )
        if status != Status.OPTIMAL:
            return None
        placement = Placement((h,), found.tubes)  # the crew only adds to the mover's counts
        out[h] = (margin_of(facts, s, seat, placement), placement)
    return out


def hint_advice(
    game: Game[Any, Any], state: Any, actions: tuple[Any, ...], limits: SolveLimits
) -> Advice | None:
    """The exact advice behind a hint where the mover places a crew or drops a waste tube
    (``solver.core.Advice``; rule: cytress/meet-a-faction, cytress/waste-tubes): every legal hex
    valued by the mover's final PRESTIGE margin over the best rival (solo: the automa) by the
    engine's own scoring, rivals standing still. A crew's hex: the best placement (CP-SAT) with the
    crew there and then the mover's best waste tube drop (hex and height, its cost not counted); a
    tube's hex: the margin with the tube of the chosen height there. None at any other decision,
    with no rival, or when the solves do not finish within the limits."""
    del actions  # every legal hex is valued
    if not isinstance(game, CytressGame) or not isinstance(state, CytressState):
        return None
    s = state
    if s.phase == OVER or s.owners < 2 or not 0 <= s.actor < s.num_players:
        return None
    legal = list(game.legal_actions(s))
    kinds = {a.kind for a in legal}
    labels = s.map.layout.labels
    whom = "the automa" if s.solo else "the best rival"
    values: dict[str, float] = {}
    sentences: dict[str, str] = {}
    if kinds == {"crew"}:
        found = _crew_values(game, s, [a.arg for a in legal], limits)
        if found is None:
            return None
        for a in legal:
            margin, placement = found[a.arg]
            text = game.action_to_text(s, a)
            then = "; ".join(f"then a {k}-high waste tube on {labels[h]}" for h, k in placement.tubes)
            values[text] = float(margin)
            sentences[text] = f"final margin over {whom} {margin:+d} PRESTIGE" + (
                f" ({then})" if then else ""
            )
        method = "CP-SAT best placement (cytress.best_placement)"
        assumption = "rivals stand still; then your best waste tube drop, its cost not counted"
    elif kinds == {"tube"}:
        facts = card_facts(game.pack, s)
        height = s.pending.height
        for a in legal:
            margin = margin_of(facts, s, s.actor, Placement((), ((a.arg, height),)))
            text = game.action_to_text(s, a)
            values[text] = float(margin)
            sentences[text] = f"final margin over {whom} {margin:+d} PRESTIGE with the tube there"
        method = "exact scoring of the rebellion (cytress.best_placement's margin)"
        assumption = "rivals stand still"
    else:
        return None
    best = max(values, key=values.__getitem__)  # the first legal hex on ties
    return Advice(
        label=f"{ADVICE_LABEL} over {whom}",
        unit="PRESTIGE",
        values=values,
        best=best,
        method=method,
        assumption=assumption,
        sentences=sentences,
    )
