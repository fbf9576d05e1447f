"""Strength levels: does each step up the ladder beat the one below?

Run: ``python -m bench.levels [--game tiberius] [--games 40] [--pairs 1:random,3:1,5:3]``.

Each pair ``a:b`` plays level ``a`` (``choose_action``'s level, via ``SearchBot(level=a)``) against
level ``b`` (or ``random``/``greedy``) in 2-player games, seats swapped every game (games 2k and
2k+1 share the setup and dice). Score = the stronger side's return (win 1, loss 0, shared wins
split), with a 95% Wilson interval. The claim checked: every pair scores above 50% (the higher
level is stronger), and level 1 beats random play. Results go to ``bench/results/levels.json``.

The default game is Tiberius Who? (short games, hidden cards, so ISMCTS runs as in a match); the
levels are the same for every game.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import sys
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from bench._openspiel_games import play
from bench._stats import wilson
from games.core import derive_seed, get_game
from search import LEVELS, GreedyBot, RandomBot, SearchBot

RESULTS = Path(__file__).parent / "results" / "levels.json"
console = Console() if sys.stdout.isatty() else Console(width=160)


def _bot(game: Any, who: str, seed: int) -> Any:
    if who == "random":
        return RandomBot(game, seed=seed)
    if who == "greedy":
        return GreedyBot(game, seed=seed)
    return SearchBot(game, level=int(who), seed=seed)


def play_game(job: tuple[str, str, str, int, int]) -> float:
    """Game ``n`` of pair (a, b) in a worker process: a's score."""
    name, a, b, n, seed = job
    game = get_game(name)
    seat = n % 2
    mine = _bot(game, a, derive_seed(seed, a, b, n, "a"))
    theirs = _bot(game, b, derive_seed(seed, a, b, n, "b"))
    bots = [mine, theirs] if seat == 0 else [theirs, mine]
    result, _ = play(game, bots, 2, derive_seed(seed, "setup", n // 2))
    return result[seat]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="tiberius")
    parser.add_argument("--games", type=int, default=40, help="games per pair")
    parser.add_argument("--pairs", default="1:random,3:1,5:3", help="comma-separated a:b pairs")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    pairs = [tuple(p.split(":")) for p in args.pairs.split(",")]
    console.print(
        f"[bold]strength levels[/bold] on {args.game}, 2 players, {args.games} games per pair, seats swapped"
    )
    rows = []
    ctx = mp.get_context("fork")
    for a, b in pairs:
        start = time.monotonic()
        jobs = [(args.game, a, b, n, args.seed) for n in range(args.games)]
        with ctx.Pool(max(1, args.jobs)) as pool:
            scores = pool.map(play_game, jobs)
        score = sum(scores)
        lo, hi = wilson(score, len(scores))
        rows.append(
            {
                "stronger": a,
                "weaker": b,
                "games": len(scores),
                "score": score,
                "win_rate": score / len(scores),
                "ci95": [lo, hi],
                "wall_s": time.monotonic() - start,
            }
        )
    table = Table(title=f"level ladder ({args.game}, 2 players)")
    for col in ("pair", "games", "stronger side's score", "95% CI", "wall s", "claim"):
        table.add_column(col)
    for r in rows:

        def name(x: str) -> str:
            return x if x in ("random", "greedy") else f"level {x}"

        table.add_row(
            f"{name(r['stronger'])} vs {name(r['weaker'])}",
            str(r["games"]),
            f"{100 * r['win_rate']:.1f}%",
            f"[{100 * r['ci95'][0]:.1f}%, {100 * r['ci95'][1]:.1f}%]",
            f"{r['wall_s']:.0f}",
            "> 50%",
        )
    console.print(table)
    levels = Table(title="levels (search/api.py LEVELS)")
    for col in ("level", "simulations", "time cap s", "temperature"):
        levels.add_column(col)
    for lv in LEVELS:
        levels.add_row(str(lv.level), str(lv.simulations), f"{lv.time_s:g}", f"{lv.temperature:g}")
    console.print(levels)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps({"game": args.game, "args": vars(args), "pairs": rows}, indent=2))
    console.print(f"results written to {RESULTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
