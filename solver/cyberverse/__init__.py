"""CyberVerse solvers: Score, exact feature-test odds, the combat outcome distribution, and the best
activation plan (CP-SAT, cross-checked against brute force in tests/cyberverse/test_solver.py).

- **Score** (``register_scorer("cyberverse")``, ``score.py``): the victory points of
  :mod:`games.cyberverse.scoring` (rule: cyberverse/end-of-game).
- ``cyberverse.feature_test`` (``odds.py``): the exact odds of one Feature test, or of the chain of
  tests of an Investigation card, drawn from the Organization's Modifier deck as it stands, without
  replacement, with the reshuffle rule of the game's variant (rule: cyberverse/feature-test,
  investigation).
- ``cyberverse.combat`` (``combat.py``): the exact distribution of one attack's result on the Damage
  table over the Combat tokens still in the pool (the attacker draws 2 and keeps 1; the target
  receives 1, or draws 2 and keeps 1 if it is an Agent) (rule: cyberverse/combat, combat-tokens,
  damage-table).
- ``cyberverse.activation_plan`` (``plan.py``): which Agents to send to which district with the 3
  Actions to maximise expected clues (the odds of each open Mission there an Agent may test, or the
  best of them with the variant ``tests="one-per-agent"``) plus influence (a district the
  Organization would hold alone), under movement costs (rule: cyberverse/activation-phase,
  moving-agents, influence); the hint advice at an Agent's move reads the same plan.

Layout: ``params`` (the parameters the puzzles share), ``score``, ``odds``, ``combat``, ``plan``;
this module registers them.
"""

from __future__ import annotations

from solver.core import register_advice, register_puzzle, register_scorer
from solver.cyberverse.combat import COMBAT_PARAMS, Side, combat, combat_distribution
from solver.cyberverse.odds import (
    FEATURE_TEST_PARAMS,
    chain_by_orders,
    chain_odds,
    chain_table,
    feature_test,
    single_test_odds,
)
from solver.cyberverse.plan import (
    ACTIVATION_PARAMS,
    ADVICE_LABEL,
    ActivationProblem,
    activation_plan,
    activation_problem,
    brute_force_plan,
    hint_advice,
    plan_value,
    reachable_after,
    solve_plan,
)
from solver.cyberverse.score import score

__all__ = [
    "ADVICE_LABEL",
    "ActivationProblem",
    "Side",
    "activation_problem",
    "brute_force_plan",
    "chain_by_orders",
    "chain_odds",
    "chain_table",
    "combat_distribution",
    "hint_advice",
    "plan_value",
    "reachable_after",
    "score",
    "single_test_odds",
    "solve_plan",
]

register_scorer("cyberverse", score)
register_advice("cyberverse", hint_advice)
register_puzzle(
    "cyberverse",
    "cyberverse.feature_test",
    feature_test,
    summary="What are the exact odds of a Feature test, or of an Investigation card's chain of tests, with "
    "the Modifier deck as it stands?",
    params_schema=FEATURE_TEST_PARAMS,
)
register_puzzle(
    "cyberverse",
    "cyberverse.combat",
    combat,
    summary="What is the exact distribution of an attack's result on the Damage table over the Combat "
    "tokens still in the pool?",
    params_schema=COMBAT_PARAMS,
)
register_puzzle(
    "cyberverse",
    "cyberverse.activation_plan",
    activation_plan,
    summary="Which Agents should the Organization send to which districts with the 3 Actions to "
    "maximise expected clues and influence?",
    params_schema=ACTIVATION_PARAMS,
)
