"""Tiberpunk exact quest odds with gadgets, by exhaustive enumeration of the dice.

A quest attempt (rulebook: STAGE I QUESTS, GADGET CARDS) rolls ``dice`` dice against a challenge
card's required values; after each roll the player may play gadgets (1 per roll, 3 with Emperor's
Genius, each on 2 dice when blessed); a failed roll lets the nearest lictor step closer, so the
player gets as many rolls as the lictor is districts away. :func:`quest_odds` is the probability of
success under optimal gadget play, computed by expectimax over every multiset of dice (no sampling).

Registered puzzle kinds: ``tiberpunk.quest_odds`` and ``tiberpunk.route_plan`` (fewest movement
actions, then fewest coins, to bring a miniature to a district).

Both honour ``SolveLimits``: the time limit and the ``stop`` flag (a cancelled call, the client's
deadline) end a solve early with the best answer so far. Quest odds then answer FEASIBLE with the
odds of a strategy known to be valid (the exact odds of every challenge card finished, and for the
others the odds of playing no gadget, a lower bound); a route plan stopped before it reached the
destination answers UNKNOWN. The memo of finished sub-results is kept, so asking again resumes.
"""

from __future__ import annotations

from solver.core import register_advice, register_puzzle, register_scorer
from solver.tiberpunk.advice import hint_advice
from solver.tiberpunk.odds import best_gadget, no_gadget_odds, quest_odds
from solver.tiberpunk.puzzles import (
    QUEST_ODDS_PARAMS,
    ROUTE_PLAN_PARAMS,
    route_plan,
    solve_quest_odds,
    solve_route_plan,
)
from solver.tiberpunk.score import score

__all__ = [
    "best_gadget",
    "hint_advice",
    "no_gadget_odds",
    "quest_odds",
    "route_plan",
    "score",
    "solve_quest_odds",
    "solve_route_plan",
]

register_puzzle(
    "tiberpunk",
    "tiberpunk.quest_odds",
    solve_quest_odds,
    summary="The exact odds that a quest attempt succeeds with the best use of the gadget cards in hand "
    "(given numbers, or the active player's quest in the position).",
    params_schema=QUEST_ODDS_PARAMS,
)
register_puzzle(
    "tiberpunk",
    "tiberpunk.route_plan",
    solve_route_plan,
    summary="The fewest movement actions, then the fewest coins, to bring the active player's character or "
    "drone to a district.",
    params_schema=ROUTE_PLAN_PARAMS,
)
register_scorer("tiberpunk", score)
register_advice("tiberpunk", hint_advice)
