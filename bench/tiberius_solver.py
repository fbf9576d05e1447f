"""Tiberius Who? solvers: solve time against brute-force enumeration, and growth with players.

Prints, measured in the same run:
1. best placement (CP-SAT) vs brute-force enumeration of every legal line, on PCIM actions with a
   growing number of cubes to move (brute force grows as the product of (cubes per box + 1)) and
   on career-card actions from random games; the ratio brute / CP-SAT (issue 6 target: >= 20x
   where brute force is feasible) and that both found the same optimum;
2. best bid (collapsed enumeration) vs trying every card-phase action;
3. how the CP-SAT placement time grows from 2 to 6 players;
4. the AI seat's win rate against GreedyBot in 4-player games is ``bench/tiberius_ai.py``.
Runs in about a minute on one core; the numbers are also written to
``bench/results/tiberius_solver.json``.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from games.core import GameConfig
from games.core.records import replace
from games.tiberius import TiberiusGame, TiberiusState
from games.tiberius.model import BOX_CODES, CARD, CUBE
from solver.core import SolveLimits
from solver.tiberius import (
    best_bid,
    best_placement,
    brute_force_bid,
    brute_force_elimination,
    brute_force_placement,
    elimination,
)

LIMITS = SolveLimits(time_limit_s=10.0, workers=1)
RESULTS = Path(__file__).parent / "results" / "tiberius_solver.json"
results: dict[str, Any] = {}


def _pcim_state(game: TiberiusGame, spread: dict[str, int], seed: int) -> TiberiusState:
    """A 3-player cube phase where seat 0 plays PCIM holding ``spread`` (box code -> cubes)."""
    s = game.new_state(GameConfig(players=3), seed)
    s = replace(s, start_priority=0, priority=0, actor=0)
    mine = tuple(spread.get(b, 0) for b in BOX_CODES)
    rng = random.Random(seed)
    others = [tuple(rng.randint(0, 4) if b != "BD" else 0 for b in BOX_CODES) for _ in range(2)]
    cubes = (mine, *others)
    s = replace(s, players=tuple(replace(p, cubes=c) for p, c in zip(s.players, cubes, strict=True)))
    s = game.apply(s, game.parse_action(s, "imperium maius"))
    for _ in range(2):
        s = game.apply(s, game.parse_action(s, "take 2 influence"))
    assert s.phase == CUBE and s.actor == 0
    return s


def _timed(fn: Any, *args: Any) -> tuple[Any, float]:
    start = time.perf_counter()
    out = fn(*args)
    return out, time.perf_counter() - start


def bench_pcim(game: TiberiusGame) -> None:
    print("1a. best placement, PCIM (move >= 5 cubes to gray), 3 players: brute force vs CP-SAT and vs the")
    print("    solver's default method='auto' (enumeration while small, else CP-SAT)")
    print(
        f"   {'cubes':>5} {'lines':>9} {'brute s':>9} {'cp-sat s':>9} {'ratio':>7} {'auto s':>9} {'ratio':>7}"
        "  auto used    same optimum"
    )
    spreads = [
        {"CQ": 2, "IM": 1, "CC": 2, "IN": 3},
        {"CQ": 2, "IM": 2, "CC": 2, "GV": 2, "IN": 3},
        {"CQ": 2, "IM": 2, "CC": 2, "GV": 2, "TR": 1, "IP": 2, "IN": 3},
        {"CQ": 3, "IM": 2, "CC": 2, "GV": 2, "TR": 2, "IP": 2, "PR": 2, "IN": 3},
    ]
    rows = results.setdefault("pcim_placement", [])
    for i, spread in enumerate(spreads):
        s = _pcim_state(game, spread, i)
        lines = 1
        for v in spread.values():
            lines *= v + 1
        (bf, _), t_bf = _timed(brute_force_placement, game, s)
        res, t_cp = _timed(best_placement, game, s, {"method": "cp-sat"}, LIMITS)
        auto, t_auto = _timed(best_placement, game, s, {}, LIMITS)
        ok = int(res.objective) == bf == int(auto.objective)
        same = "yes" if ok else f"NO ({res.objective}, {auto.objective} vs {bf})"
        rows.append(
            {
                "cubes": sum(spread.values()),
                "lines": lines,
                "brute_s": t_bf,
                "cpsat_s": t_cp,
                "ratio": t_bf / t_cp,
                "auto_s": t_auto,
                "auto_ratio": t_bf / t_auto,
                "auto_method": auto.method,
                "same_optimum": ok,
            }
        )
        print(
            f"   {sum(spread.values()):>5} {lines:>9} {t_bf:>9.3f} {t_cp:>9.3f} {t_bf / t_cp:>6.1f}x"
            f" {t_auto:>9.3f} {t_bf / t_auto:>6.1f}x  {auto.method:<12} {same}"
        )


def _random_states(
    game: TiberiusGame, players: int, phase: int, count: int, seed0: int
) -> list[TiberiusState]:
    out: list[TiberiusState] = []
    seed = seed0
    while len(out) < count:
        seed += 1
        rng = random.Random(seed)
        s = game.new_state(GameConfig(players=players), seed)
        stop = rng.randint(0, 120)
        k = 0
        while not game.is_terminal(s):
            if s.phase == phase and k >= stop and (phase != CUBE or s.players[s.actor].played >= 0):
                out.append(s)
                break
            s = game.apply(s, rng.choice(list(game.legal_actions(s))))
            k += 1
    return out


def bench_cards(game: TiberiusGame) -> None:
    states = _random_states(game, 4, CUBE, 40, 100)
    t_bf = t_cp = t_auto = 0.0
    same = 0
    for s in states:
        (bf, _), a = _timed(brute_force_placement, game, s)
        res, b = _timed(best_placement, game, s, {"method": "cp-sat"}, LIMITS)
        auto, c = _timed(best_placement, game, s, {}, LIMITS)
        t_bf, t_cp, t_auto = t_bf + a, t_cp + b, t_auto + c
        same += int(res.objective) == bf == int(auto.objective)
    results["card_placement"] = {
        "positions": len(states),
        "brute_ms": t_bf / len(states) * 1000,
        "cpsat_ms": t_cp / len(states) * 1000,
        "auto_ms": t_auto / len(states) * 1000,
        "same_optimum": same,
    }
    print(
        f"1b. best placement, career cards, 4 players, {len(states)} random positions: brute "
        f"{t_bf / len(states) * 1000:.1f} ms, CP-SAT {t_cp / len(states) * 1000:.1f} ms "
        f"(ratio {t_bf / t_cp:.2f}x; black icons are few, so enumeration is cheap here), default "
        f"method='auto' {t_auto / len(states) * 1000:.1f} ms (ratio {t_bf / t_auto:.2f}x); "
        f"same optimum {same}/{len(states)}"
    )


def bench_bid(game: TiberiusGame) -> None:
    states = _random_states(game, 3, CARD, 20, 300)
    t_bf = t_cp = 0.0
    same = 0
    for s in states:
        bf, a = _timed(brute_force_bid, game, s, {})
        res, b = _timed(best_bid, game, s, {}, LIMITS)
        t_bf, t_cp = t_bf + a, t_cp + b
        same += res.objective == bf
    results["best_bid"] = {
        "positions": len(states),
        "every_action_s": t_bf / len(states),
        "collapsed_s": t_cp / len(states),
        "ratio": t_bf / t_cp,
        "same_value": same,
    }
    print(
        f"2. best bid, 3 players, {len(states)} random card phases: every action "
        f"{t_bf / len(states):.3f} s, collapsed bids {t_cp / len(states):.3f} s "
        f"(ratio {t_bf / t_cp:.1f}x); same value {same}/{len(states)}"
    )


def bench_elimination(game: TiberiusGame) -> None:
    """Seat 0 of 2, at the start of the last cube phase and of turn 7's card phase."""
    states = []
    for seed in range(24):
        rng = random.Random(seed)
        s = game.new_state(GameConfig(players=2), seed)
        turn, phase = (8, CUBE) if seed % 2 else (6, CARD)
        while not (s.turn == turn and s.phase == phase) and not game.is_terminal(s):
            s = game.apply(s, rng.choice(list(game.legal_actions(s))))
        if not game.is_terminal(s):
            states.append(s)
    small = {"brute_s": 0.0, "solver_s": 0.0, "positions": 0, "agree": 0, "unknown": 0}
    big: dict[str, Any] = {"solver_s": 0.0, "positions": 0, "answers": {}}
    for s in states:
        res, b = _timed(elimination, game, s, {"seat": 0, "max_nodes": 50_000}, SolveLimits(time_limit_s=2.0))
        key = res.answer["can_finish_first"]
        try:
            bf, a = _timed(lambda st: brute_force_elimination(game, st, 0, max_nodes=5_000), s)
        except RuntimeError:
            big["solver_s"] += b
            big["positions"] += 1
            big["answers"][key] = big["answers"].get(key, 0) + 1
            continue
        small["brute_s"] += a
        small["solver_s"] += b
        small["positions"] += 1
        small["agree"] += key == ("yes" if bf else "no")
        small["unknown"] += key == "unknown"
    results["elimination"] = {"brute_force_feasible": small, "brute_force_over_5k_positions": big}
    print(
        f"2b. elimination, seat 0 of 2, from turn 6 on: {small['positions']} positions brute force can "
        f"finish (<= 5k positions): exhaustive {small['brute_s']:.2f} s, solver {small['solver_s']:.2f} s, "
        f"agree {small['agree']}/{small['positions']} (unknown within the limit: {small['unknown']}, "
        f"wrong: {small['positions'] - small['agree'] - small['unknown']}); "
        f"{big['positions']} positions beyond it: the solver answered {big['answers']} "
        f"in {big['solver_s']:.1f} s (2 s limit each)"
    )


def bench_growth(game: TiberiusGame) -> None:
    print("3. CP-SAT best placement time by player count (career cards, 12 random positions each)")
    for players in range(2, 7):
        states = _random_states(game, players, CUBE, 12, 1000 * players)
        times = [_timed(best_placement, game, s, {"method": "cp-sat"}, LIMITS)[1] for s in states]
        med, top = statistics.median(times) * 1000, max(times) * 1000
        print(f"   {players} players: median {med:.1f} ms, max {top:.1f} ms")
        results.setdefault("growth", {})[str(players)] = {"median_ms": med, "max_ms": top}


def bench_ai() -> None:
    """Section 4 lives in ``bench/tiberius_ai.py`` (100 four-player games take a few minutes)."""
    print(
        "4. AI vs 3 GreedyBots (100 four-player games, win rate with a 95% CI): "
        "python -m bench.tiberius_ai (run by `python -m bench` as its own benchmark)"
    )


def main() -> int:
    """Run the benchmark and print its numbers."""
    game = TiberiusGame()
    start = time.perf_counter()
    bench_pcim(game)
    bench_cards(game)
    bench_bid(game)
    bench_elimination(game)
    bench_growth(game)
    bench_ai()
    print(f"total {time.perf_counter() - start:.1f} s")
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
