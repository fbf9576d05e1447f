"""TI4 benchmarks: the balanced-map builder against the community's first-improving-swap hill-climber
at equal time, under every measure; the proofs; finishing a referee's state; the Milty deal; setup speed.

Each claim is measured against a baseline in the same run, on the same deals:

- equal time (per measure: ``community``, ``simple``, ``joint``, ``lictor``; 3-6 players; 1 s and 5 s):
  per seed the rulebook deal of Prophecy of Kings tiles (``games.ti4.setup.deal_tiles``), built by
  ``solver.ti4.solve_map`` (one worker) and by the hill-climber of ``bench/_ti4_hill_climb.py`` (the
  method of ti4-lab and Map Lab, written from its description) given the builder's wall time (at
  least the limit); printed per cell: the median gaps, Lictor / hill-climber, and the share of seeds
  where Lictor's gap is at most the hill-climber's (with its Wilson interval).
- proofs: ``community`` at 3 and 4 players, 20 s each: OPTIMAL or the bound, and the time.
- finishing: four players, PoK, seed 2, 16 tiles placed by random legal moves (the issue's reproducer)
  and more such states: the answer's status and whether the game's own judge (``check_map`` with the
  placement record) finds it legal.
- Milty: random deals (slices outside the total range, slices with two wormhole types, forbidden
  neighbours side by side across slices over drafts played out) and the ``ti4.milty_slices`` answer.
- speed: random playouts of the full setup per second against the Pig fixture's.

``python -m bench.ti4`` (default: 10 seeds a cell, about 45 minutes on two shared cores), ``--quick``
(2 seeds, 1 s only, 5 s proofs), ``--seeds N``, ``--times 1,5``, ``--measures community,simple``,
``--proof-seeds N``. Writes ``bench/results/ti4.json``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench._stats import wilson
from bench._ti4_hill_climb import hill_climb
from games.core.check import random_playout
from games.core.protocol import TERMINAL, GameConfig
from games.core.rng import make_rng
from games.ti4 import TI4Game
from games.ti4.content import Content, TileId
from games.ti4.legality import check_map, check_string
from games.ti4.measures import MEASURES
from games.ti4.milty import side_by_side, slice_total
from games.ti4.setup import deal_tiles
from games.ti4.state import PLACE, Placement
from solver.core import SolveLimits, Status
from solver.ti4 import balanced_map, map_problem, milty_slices, solve_map

RESULTS = Path(__file__).parent / "results" / "ti4.json"


def deal(content: Content, players: int, seed: int) -> list[TileId]:
    """The rulebook deal of seed ``seed`` (Prophecy of Kings piles), the five-player red tile included."""
    hands, _, red = deal_tiles(content, content.board.layouts[players], "pok", make_rng(seed))
    return [t for h in hands for t in h] + ([red] if red else [])


def bench_cell(game: TI4Game, measure: str, players: int, seconds: float, seeds: int) -> dict[str, Any]:
    """One cell of the equal-time table: builder and hill-climber on the same deals."""
    chosen = MEASURES[measure]
    ours, theirs, spent_all = [], [], []
    proven = 0
    for seed in range(seeds):
        tiles = deal(game.pack, players, seed)
        problem = map_problem(game.pack, players=players, expansion="pok", measure=chosen, pool=tiles)
        t0 = time.perf_counter()
        sol = solve_map(game.pack, problem, time_limit_s=seconds, workers=1, seed=seed)
        spent = time.perf_counter() - t0
        found = sol.status in (Status.OPTIMAL, Status.FEASIBLE)
        proven += sol.status == Status.OPTIMAL
        _, gap = hill_climb(
            game.pack, tiles, players, chosen, seconds=max(seconds, spent), rng=random.Random(seed)
        )
        ours.append(sol.gap if found else float("inf"))
        theirs.append(gap)
        spent_all.append(spent)
    wins = sum(1 for a, b in zip(ours, theirs, strict=True) if a <= b + 1e-9)
    lo, hi = wilson(wins, seeds)
    cell = {
        "median_lictor": statistics.median(ours),
        "median_hill_climb": statistics.median(theirs),
        "lictor": ours,
        "hill_climb": theirs,
        "wins": wins,
        "share": wins / seeds,
        "wilson": [lo, hi],
        "proven": proven,
        "mean_wall_s": statistics.mean(spent_all),
    }
    print(
        f"{measure} {players}p {seconds:g} s: median gap {cell['median_lictor']:.3g} / "
        f"{cell['median_hill_climb']:.3g}; Lictor <= hill-climber on {wins}/{seeds} seeds "
        f"({wins / seeds:.0%}, 95% {lo:.0%}-{hi:.0%}); proven optimal {proven}/{seeds}",
        flush=True,
    )
    return cell


def print_table(measure: str, cells: dict[str, dict[str, Any]], times: list[float]) -> None:
    """The equal-time table of one measure, as docs/ti4.md holds it."""
    head = " | ".join(f"{t:g} s: median gap Lictor / hill-climber | Lictor <= h-c" for t in times)
    print(f"\n{measure}:\n| players | {head} |\n|---|" + "---|---|" * len(times))
    for players in (3, 4, 5, 6):
        row = []
        for t in times:
            c = cells[f"{players}p {t:g}s"]
            row.append(
                f"{c['median_lictor']:.3g} / {c['median_hill_climb']:.3g} | {c['wins']}/{len(c['lictor'])}"
            )
        print(f"| {players} | " + " | ".join(row) + " |")
    print(flush=True)


def bench_proofs(game: TI4Game, seeds: int, seconds: float) -> dict[str, Any]:
    """``community`` at 3 and 4 players: OPTIMAL within ``seconds``, or the bound."""
    out: dict[str, Any] = {}
    for players in (3, 4):
        runs: list[dict[str, Any]] = []
        for seed in range(seeds):
            tiles = deal(game.pack, players, seed)
            problem = map_problem(game.pack, players=players, expansion="pok", pool=tiles)
            t0 = time.perf_counter()
            sol = solve_map(game.pack, problem, time_limit_s=seconds, workers=1, seed=seed)
            spent = time.perf_counter() - t0
            runs.append(
                {
                    "seed": seed,
                    "status": sol.status.value,
                    "gap": sol.gap,
                    "bound": sol.bound,
                    "seconds": spent,
                }
            )
        done = [r for r in runs if r["status"] == "OPTIMAL"]
        times = [r["seconds"] for r in done]
        print(
            f"community {players}p proofs: OPTIMAL {len(done)}/{seeds} within {seconds:g} s (median "
            f"{statistics.median(times) if times else 0:.1f} s, slowest {max(times) if times else 0:.1f} s; "
            "gaps "
            f"{sorted({round(r['gap'], 3) for r in runs})}; unproven bounds "
            f"{[round(r['bound'], 3) for r in runs if r['status'] != 'OPTIMAL']})",
            flush=True,
        )
        out[str(players)] = runs
    return out


def bench_finish(game: TI4Game, states: int, seconds: float) -> dict[str, Any]:
    """Finishing referee states mid-placement (4p PoK, 16 tiles placed by random legal moves)."""
    rows: list[dict[str, Any]] = []
    for k in range(states):
        seed = 2 + k  # seed 2, move seed 2: the reproducer first
        s = game.new_state(GameConfig(players=4, options={"expansion": "pok"}), seed)
        rng = random.Random(seed)
        while not (s.phase == PLACE and len(s.placed) >= 16):
            s = game.apply(s, rng.choice(list(game.legal_actions(s))))
        t0 = time.perf_counter()
        res = balanced_map(game, s, {}, SolveLimits(time_limit_s=seconds, workers=1))
        spent = time.perf_counter() - t0
        legal = False
        if res.status in (Status.OPTIMAL, Status.FEASIBLE):
            cells = [0] * 37
            cells[0] = 18
            for p, t in res.answer["galaxy"].items():
                cells[int(p)] = int(t)
            for h in s.homes:
                cells[h] = s.galaxy[h]
            record = [
                *s.placed,
                *(
                    Placement(seat=x["seat"], tile=int(x["tile"]), pos=x["position"])
                    for x in res.answer["placements"]
                ),
            ]
            report = check_map(game.pack, cells, players=4, expansion="pok", record=record, speaker=s.speaker)
            legal = report.ok
        rows.append(
            {
                "seed": seed,
                "status": res.status.value,
                "legal": legal,
                "forced": len(res.answer.get("forced_neighbours", [])) if res.answer else 0,
                "seconds": spent,
            }
        )
    ok = sum(1 for r in rows if r["legal"])
    print(
        f"finishing 4p PoK states after 16 random placements: {ok}/{states} legal galaxies by the game's "
        f"own judge ({sum(r['forced'] for r in rows)} forced neighbours in all, each with its reason); "
        f"seed 2: {rows[0]['status']}, legal {rows[0]['legal']}",
        flush=True,
    )
    return {"states": rows, "legal": ok}


def bench_milty(game: TI4Game, deals: int) -> dict[str, Any]:
    """Random Milty deals against the conventions, drafts played out, and the solver's slices."""
    slices = outside = two_types = touching = 0
    rng = random.Random(0)
    for k in range(deals):
        players = 3 + k % 4
        expansion = "pok" if k % 2 else "base"
        s = game.new_state(GameConfig(players=players, options={"mode": "milty", "expansion": expansion}), k)
        for sl in s.slices:
            slices += 1
            outside += not 9 <= slice_total(game.pack, sl) <= 13
            two_types += len({w for t in sl for w in game.pack.tiles[t].wormholes}) > 1
        while game.current_player(s) != TERMINAL:
            s = game.apply(s, rng.choice(list(game.legal_actions(s))))
        report = check_string(
            game.pack, game.map_string(s, home_tiles=True), procedure="milty", expansion=expansion
        )
        touching += sum(1 for n in report.notes if "across two slices" in n) + len(report.violations)
    res = milty_slices(game, None, {"slices": 6, "expansion": "pok"}, SolveLimits(time_limit_s=5, workers=1))
    made = [[int(t) for t in sl] for sl in res.answer.get("slices", [])]
    beside = sum(side_by_side(game.pack, a, b) for a in made for b in made if a is not b)
    print(
        f"Milty random deals: {outside} of {slices} slices outside 9-13, {two_types} with two wormhole "
        f"types; {touching} forbidden neighbours across slices in {deals} drafts played out; "
        f"ti4.milty_slices (6 PoK slices, 5 s): {res.status.value}, gap {res.objective:.2f}, {beside} "
        "forbidden neighbours side by side over every pair of its slices in either order",
        flush=True,
    )
    return {
        "slices": slices,
        "outside_total": outside,
        "two_wormhole_types": two_types,
        "touching_across": touching,
        "drafts": deals,
        "solver": {"status": res.status.value, "gap": res.objective, "side_by_side": beside},
    }


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
    ap.add_argument("--quick", action="store_true", help="2 seeds, 1 s only, 5 s proofs")
    ap.add_argument("--seeds", type=int, default=0, help="seeds per cell (default 10)")
    ap.add_argument("--times", default="", help="time limits in seconds, comma-separated (default 1,5)")
    ap.add_argument("--measures", default="", help="measures (default community,simple,joint,lictor)")
    ap.add_argument("--proof-seeds", type=int, default=0, help="seeds per player count for the proofs (10)")
    args = ap.parse_args(argv)
    seeds = args.seeds or (2 if args.quick else 10)
    times = [float(x) for x in (args.times or ("1" if args.quick else "1,5")).split(",")]
    measures = (args.measures or "community,simple,joint,lictor").split(",")
    game = TI4Game()
    start = time.perf_counter()
    results: dict[str, Any] = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "command": "python -m bench.ti4" + (" " + " ".join(argv) if argv else ""),
        "seeds": seeds,
        "times": times,
        "equal_time": {},
    }

    def save() -> None:
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        RESULTS.write_text(json.dumps(results, indent=2))

    for measure in measures:
        cells = {
            f"{players}p {t:g}s": bench_cell(game, measure, players, t, seeds)
            for players in (3, 4, 5, 6)
            for t in times
        }
        results["equal_time"][measure] = cells
        print_table(measure, cells, times)
        save()
    met = [c["share"] >= 0.9 for m in measures if m != "lictor" for c in results["equal_time"][m].values()]
    print(
        "cells where Lictor <= hill-climber on >= 90% of seeds (community, simple, joint): "
        f"{sum(met)}/{len(met)}"
    )
    results["proofs"] = bench_proofs(
        game, args.proof_seeds or (2 if args.quick else 10), 5.0 if args.quick else 20.0
    )
    results["finish"] = bench_finish(game, 2 if args.quick else 10, 2.0)
    results["milty"] = bench_milty(game, 8 if args.quick else 40)
    results["speed"] = bench_speed(game, 5 if args.quick else 20)
    results["wall_s"] = time.perf_counter() - start
    print(f"wall time {results['wall_s'] / 60:.1f} min", flush=True)
    save()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
