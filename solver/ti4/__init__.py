"""Twilight Imperium 4 solvers: the most even galaxy and Milty slices (CP-SAT), a map's legality, its
home values, and the setup's score.

Which method, and why (docs/ti4.md has the numbers):

- **ti4.balanced_map** - every open system position gets one tile of the piles, obeying every setup
  rule: the deal's blue and red counts, the five-player speaker's red tile next to Mecatol Rex, no
  neighbouring anomalies and no neighbouring same-type wormholes unless there is no other option
  (rule: ti4/anomaly-adjacency, rule: ti4/wormhole-adjacency). The objective is the gap between the
  best and the worst home value by the chosen measure (``games.ti4.measures``: ``community`` by
  default, ``simple``, ``lictor``, ``joint``, or the user's own weights), exactly, in integer units.
  A legal first answer comes before any search (``search.first_answer``); small problems get the
  complete model (``model``: the measure itself as CP-SAT constraints, OPTIMAL is a proof, checked
  against brute force); a full galaxy gets the decomposition (``search``: an exact aggregated
  model of the ordinary systems under a local search over the anomalies and wormholes), then large
  neighbourhood search on the complete model. From a referee's state during tile placement the
  hands and rings are quotas and the answer comes with an order of placements the rules allow
  (``finish``).
- **ti4.milty_slices** - CP-SAT (``slices``): N slices of three blue and two red tiles within the
  community's conventions, laid out so that no two slices put forbidden neighbours side by side
  whatever seats the draft gives them; minimise the richest minus the poorest slice.
- **ti4.check_map** - the legality checker of ``games.ti4.legality`` on a TTS map string.
- **ti4.home_values** - the home value report of a TTS map string, by the chosen measure.
- **Score** (``register_scorer("ti4")``): each seat's home value with its breakdown, each part with
  its weight.
- **Hint advice** (``register_advice("ti4")``, ``advice``): at a tile placement, every legal placement
  valued exactly by the mover's home value lead over the best rival after it; hints rank by it.

Layout: ``problem`` (the problem, legality and the objective as plain functions), ``rules`` (the
setup rules as CP-SAT constraints; the rules-only model), ``model`` (the complete model), ``search``
(the builder), ``ordinary`` (the builder's step: the ordinary systems' aggregated model), ``finish``
(a referee's state), ``slices`` (Milty), ``params`` (the puzzles' parameters), ``puzzles`` (answers,
registration).
"""

from __future__ import annotations

from solver.ti4.advice import hint_advice
from solver.ti4.finish import placement_order, quotas, state_problem
from solver.ti4.model import MapModel, known, solve_full
from solver.ti4.ordinary import solve_ordinary
from solver.ti4.problem import (
    TERMS,
    MapProblem,
    MapSolution,
    Quota,
    canonical,
    clash_pairs,
    gap_of,
    legal_galaxy,
    map_problem,
    measure_values,
    objective_units,
    precheck_map,
    secondary_terms,
    specialties_ok,
    spread_ok,
    with_weights,
)
from solver.ti4.puzzles import balanced_map, check_map_puzzle, home_values_puzzle, milty_slices, score
from solver.ti4.rules import feasible_map, fewest_clashes
from solver.ti4.search import (
    brute_force_map,
    first_answer,
    hill_climb_map,
    random_legal_map,
    solve_map,
)
from solver.ti4.slices import SliceProblem, brute_force_slices, slices_gap, slices_ok, solve_slices

__all__ = [
    "TERMS",
    "MapModel",
    "MapProblem",
    "MapSolution",
    "Quota",
    "SliceProblem",
    "balanced_map",
    "brute_force_map",
    "brute_force_slices",
    "canonical",
    "check_map_puzzle",
    "clash_pairs",
    "feasible_map",
    "fewest_clashes",
    "first_answer",
    "gap_of",
    "hill_climb_map",
    "hint_advice",
    "home_values_puzzle",
    "known",
    "legal_galaxy",
    "map_problem",
    "measure_values",
    "milty_slices",
    "objective_units",
    "placement_order",
    "precheck_map",
    "quotas",
    "random_legal_map",
    "score",
    "secondary_terms",
    "slices_gap",
    "slices_ok",
    "solve_full",
    "solve_map",
    "solve_ordinary",
    "solve_slices",
    "specialties_ok",
    "spread_ok",
    "state_problem",
    "with_weights",
]
