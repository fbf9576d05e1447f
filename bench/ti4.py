"""TI4 benchmarks: the CP-SAT balanced-map builder against the community's random-then-hill-climb method,
and the setup game's speed against the Pig fixture.

Each claim is a ratio to a baseline measured in the same run on the same seeds:

- proofs: per player count (3-6) one build of the full base-game galaxy with up to 60 s: the status,
  the objective (the gap), the proven bound, the time and the bound gap (objective minus bound).
- gap: per player count and seed, the CP-SAT builder and the hill-climber (random legal map, then
  swaps kept while the home-value gap falls, restarting) get the same wall time on the same tiles and
  the same evaluator (``games.ti4.balance``); printed: mean gaps, their ratio (CP-SAT / hill-climb;
  below 1 is better) and how often CP-SAT is at least as even; the CP-SAT bound.
- speed: random playouts of the full setup (rulebook mode) per second against random playouts of the
  Pig fixture, both through the ``Game`` API.

``python -m bench.ti4`` (default: 20 seeds, 7 s per map, 60 s per proof, three proof seeds for 3 and 4
players: at most about 27 minutes on two cores), ``--quick`` (1 seed, 4 s per map, 10 s per proof),
``--seeds N``, ``--seconds S``,
``--proof-seconds S``.
Writes ``bench/results/ti4.json``.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path
from statistics import mean
from typing import Any

from games.core.check import random_playout
from games.core.protocol import GameConfig
from games.ti4 import TI4Game
from solver.core import Status
from solver.ti4 import hill_climb_map, map_problem, solve_map

RESULTS = Path(__file__).parent / "results" / "ti4.json"


def bench_gap(game: TI4Game, players: int, seeds: int, seconds: float) -> dict[str, Any]:
    """CP-SAT vs hill-climb at equal wall time on ``seeds`` seeds."""
    problem = map_problem(game.pack, players=players, expansion="base", weights=game.weights)
    cp, hc, bounds, proven = [], [], [], 0
    for seed in range(seeds):
        t0 = time.perf_counter()
        sol = solve_map(game.pack, problem, time_limit_s=seconds, workers=2, seed=seed)
        spent = time.perf_counter() - t0
        _, gap = hill_climb_map(game.pack, problem, random.Random(seed), seconds=spent)
        found = sol.status in (Status.OPTIMAL, Status.FEASIBLE)
        proven += sol.status == Status.OPTIMAL
        cp.append(sol.gap if found else float("inf"))  # no secondary terms here: objective = gap
        hc.append(gap)
        bounds.append(sol.bound)
    wins = sum(1 for a, b in zip(cp, hc, strict=True) if a <= b + 1e-9)
    ratio = mean(cp) / mean(hc) if mean(hc) > 0 else float("inf")
    print(
        f"{players}p gap: CP-SAT {mean(cp):.3f} vs hill-climb {mean(hc):.3f} (ratio {ratio:.2f}; "
        f"CP-SAT at least as even on {wins}/{seeds} seeds; {seconds:.1f} s each; "
        f"mean bound {mean(bounds):.3f}; proven optimal {proven}/{seeds})",
        flush=True,
    )
    return {
        "mean_cp_sat": mean(cp),
        "mean_hill_climb": mean(hc),
        "cp_sat": cp,
        "hill_climb": hc,
        "bounds": bounds,
        "ratio": ratio,
        "wins": wins,
        "proven": proven,
        "seconds": seconds,
    }


def bench_proofs(game: TI4Game, seconds: float, seeds: int) -> dict[str, Any]:
    """Per player count, builds of the full galaxy with up to ``seconds`` each (``seeds`` seeds for 3
    and 4 players, whose proofs are the target; one for 5 and 6): status, objective, bound, time."""
    out: dict[str, Any] = {}
    for players in (3, 4, 5, 6):
        problem = map_problem(game.pack, players=players, expansion="base", weights=game.weights)
        runs = []
        for seed in range(seeds if players <= 4 else 1):
            t0 = time.perf_counter()
            sol = solve_map(game.pack, problem, time_limit_s=seconds, workers=2, seed=seed)
            spent = time.perf_counter() - t0
            print(
                f"{players}p proof (seed {seed}): {sol.status.value} objective {sol.objective:.4f} "
                f"bound {sol.bound:.4f} (bound gap {sol.objective - sol.bound:.4f}) in {spent:.1f} s "
                f"of {seconds:.0f} s",
                flush=True,
            )
            runs.append(
                {
                    "seed": seed,
                    "status": sol.status.value,
                    "objective": sol.objective,
                    "bound": sol.bound,
                    "bound_gap": sol.objective - sol.bound,
                    "seconds": spent,
                    "limit": seconds,
                }
            )
        out[str(players)] = runs
    return out


def bench_speed(game: TI4Game, games: int) -> dict[str, Any]:
    """Random setup playouts per second, against the Pig fixture's."""
    from tests.fixtures.pig import PigGame

    def rate(g: Any, players: int) -> float:
        rng = random.Random(0)
        t0 = time.perf_counter()
        for seed in range(games):
            random_playout(g, g.new_state(GameConfig(players=players), seed), rng)
        return games / (time.perf_counter() - t0)

    ti4, pig = rate(game, 6), rate(PigGame(), 2)
    print(
        f"setup speed: {ti4:.1f} six-player setups/s vs Pig {pig:.1f} games/s (ratio {ti4 / pig:.3f})",
        flush=True,
    )
    return {"ti4_per_s": ti4, "pig_per_s": pig, "ratio": ti4 / pig}


def main(argv: list[str] | None = None) -> int:
    """Run the benchmarks and write ``bench/results/ti4.json``."""
    ap = argparse.ArgumentParser(prog="python -m bench.ti4", description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="1 seed, 4 s per map, 10 s per proof")
    ap.add_argument("--seeds", type=int, default=0, help="seeds per player count (default 20)")
    ap.add_argument("--seconds", type=float, default=0.0, help="wall time per map (default 7 s; quick 4 s)")
    ap.add_argument("--proof-seconds", type=float, default=0.0, help="time per proof (default 60 s)")
    args = ap.parse_args(argv)
    seeds = args.seeds or (1 if args.quick else 20)
    seconds = args.seconds or (4.0 if args.quick else 7.0)
    game = TI4Game()
    proof_s = args.proof_seconds or (10.0 if args.quick else 60.0)
    results: dict[str, Any] = {"proofs": bench_proofs(game, proof_s, 1 if args.quick else 3)}
    results["gap"] = {}
    for players in (3, 4, 5, 6):
        results["gap"][str(players)] = bench_gap(game, players, seeds, seconds)
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        RESULTS.write_text(json.dumps(results, indent=2))  # what is measured so far
    results["speed"] = bench_speed(game, 5 if args.quick else 20)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
