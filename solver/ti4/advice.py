"""The exact advice behind a TI4 placement hint (issue 30; ``solver.core.Advice``).

At a tile placement (rule: ti4/place-system-tiles; the five-player speaker's red tile, rule:
ti4/five-player-red-tile) every legal placement is valued exactly by the game's measure (the
``community`` measure unless the game was built with other weights): the mover's home value minus
the best rival's after it, every open space at the expected value of the tiles still to place as the
mover knows them (``games.ti4.outcomes.placement_values``). The hint ranks by it; its search and its
look ahead are shown beside it. Counting is exact (whole units of the measure) and takes about 0.3 ms
a placement, so every legal placement is valued, not only those the search tried.
"""

from __future__ import annotations

from typing import Any

from games.core import Game
from games.ti4 import TI4Game, TI4State
from games.ti4.measures import COMMUNITY
from games.ti4.outcomes import lead_words, placement_values
from solver.core import Advice, SolveLimits, register_advice

__all__ = ["LABEL", "hint_advice"]

LABEL = "home value lead over the best rival after it"
"""What the advice's values measure (the hint's first number)."""


def hint_advice(
    game: Game[Any, Any], state: Any, actions: tuple[Any, ...], limits: SolveLimits
) -> Advice | None:
    """Every legal placement valued by the mover's home value lead over the best rival after it (see
    the module docstring); None outside tile placement, before every home is known, or when stopped."""
    del actions, limits  # every legal placement is valued, in well under the hint's time
    if not isinstance(game, TI4Game) or not isinstance(state, TI4State):
        return None
    found = placement_values(game, state)
    if not found:
        return None
    values: dict[str, float] = {}
    sentences: dict[str, str] = {}
    for pv in found:
        text = game.action_to_text(state, pv.action)
        values[text] = pv.lead
        sentences[text] = f"{_after(pv)} after it (your home value {pv.after[pv.seat]:.2f})"
    best = max(values, key=values.__getitem__)  # the first legal placement on ties
    measure = "the community measure" if game.weights == COMMUNITY else "the game's measure"
    return Advice(
        label=LABEL,
        unit="points",
        values=values,
        best=best,
        method=f"exact count of {measure} (games.ti4.measures)",
        assumption="one placement ahead, open spaces at the expected tile still to place",
        sentences=sentences,
    )


def _after(pv: Any) -> str:
    after = list(pv.after)
    others = [k for k in range(len(after)) if k != pv.seat]
    if not others:
        return "no rival"
    best = max(others, key=lambda k: (after[k], -k))
    return lead_words(after[pv.seat] - after[best], best)


register_advice("ti4", hint_advice)
