"""Cytress solvers: the exact score of the rebellion, tube control, and the best final placement.

- **Score** (``register_scorer("cytress")`` and the puzzle ``cytress.score``): the rebellion as
  ``games.cytress.scoring`` counts it (rule: cytress/score-crews-on-stratos,
  cytress/score-stratos-rewards, cytress/score-waste-tubes, cytress/score-bounties), broken down per
  category and per waste tube: who controls it and by how many crews.
- **Tube control** (``cytress.tube_control``): for one waste tube, the fewest crews a seat must still
  place on the empty hexes around it to take or keep it against the crews each rival can still
  place there (rule: cytress/score-waste-tubes: a strict majority of the adjacent crews). CP-SAT
  (the rivals' best answer is a closed form: the strongest rival fills the empty hexes left);
  ``method="enumeration"`` plays every placement against every rival answer (tests: equal).
- **Best final placement** (``cytress.best_placement``): where to put a seat's next crews and which
  tubes to drop (hex and height, the crew ascending: rule: cytress/waste-tubes) to maximise its
  final PRESTIGE margin over the best rival, CP-SAT over hexes, tube control and Stratos
  majorities; ``method="enumeration"`` scores every placement with the engine's own scoring
  (tests: equal on hundreds of small instances). Rivals stand still; resources are not counted
  (the question is where, not whether it can be paid for).
- **Hint advice** (``register_advice("cytress")``, :func:`hint_advice`): where the seat to move
  chooses the hex for its crew or for its waste tube, every legal hex valued by that final margin
  (the best placement with the crew fixed there; the tube there), so hints rank by it.

Nothing here restates a rule table: the PRESTIGE tables are imported from ``games.cytress``.
"""

from __future__ import annotations

from solver.core import register_advice, register_puzzle, register_scorer
from solver.cytress.advice import ADVICE_LABEL, hint_advice
from solver.cytress.placement import (
    BEST_PLACEMENT_PARAMS,
    Placement,
    best_placement,
    best_placement_enumeration,
    margin_of,
)
from solver.cytress.score import SCORE_PARAMS, ended_by, score, score_puzzle
from solver.cytress.tubes import TUBE_CONTROL_PARAMS, tube_control, tube_control_enumeration

__all__ = [
    "ADVICE_LABEL",
    "BEST_PLACEMENT_PARAMS",
    "SCORE_PARAMS",
    "TUBE_CONTROL_PARAMS",
    "Placement",
    "best_placement",
    "best_placement_enumeration",
    "ended_by",
    "hint_advice",
    "margin_of",
    "score",
    "score_puzzle",
    "tube_control",
    "tube_control_enumeration",
]

register_scorer("cytress", score)
register_puzzle(
    "cytress",
    "cytress.score",
    score_puzzle,
    summary="If the rebellion broke out now: every rebel's PRESTIGE by category, and who controls each "
    "waste tube and by how many crews.",
    params_schema=SCORE_PARAMS,
)
register_puzzle(
    "cytress",
    "cytress.tube_control",
    tube_control,
    summary="How few crews must this seat still place (and where) to take or keep a waste tube whatever "
    "the rivals place around it?",
    params_schema=TUBE_CONTROL_PARAMS,
)
register_puzzle(
    "cytress",
    "cytress.best_placement",
    best_placement,
    summary="Where should this seat put its next crews and which waste tubes should it drop to end with "
    "the largest PRESTIGE margin over the best rival?",
    params_schema=BEST_PLACEMENT_PARAMS,
)
register_advice("cytress", hint_advice)
