"""Lictor's search vs OpenSpiel's MCTS on the same engine: speed and head-to-head strength.

Run: ``python -m bench.search_vs_openspiel [--games 100] [--move-time 0.05] [--budget-s SECONDS]``.

The game is Tiberpunk (2 players) when it is registered, else the test fixture Hidden Pig (the
output says which). OpenSpiel plays through ``batch/openspiel.py``, which calls the very
same Lictor engine, so the ratios compare the searches.

1. Speed on mid-game positions with a real choice, the same evaluator and priors on both sides (a
   random rollout cut off after ``--depth`` (0: the leaf itself, our default) or ``--compare-depth``
   (10) actions and scored by the game's heuristic, or played to the end; PUCT on the game's priors
   where it gives them): our MCTS simulations/s vs
   OpenSpiel ``MCTSBot``'s (target >= 3x), ISMCTS vs ``ISMCTSBot`` for hidden-information games,
   and ours with 1 and 2 worker processes (targets >= 1,000 per process and >= 5,000 on 2 cores).
   Both sides score a leaf where dice are to roll by the heuristic of that position
   (``chance_leaf_samples=0``); one more row gives our rate with our default, which scores it after
   the roll. OpenSpiel searches as many simulations as ours ran in ``--speed-time`` (trees of one
   size), with full collections deferred as ours are. The "ceiling" column is OpenSpiel's time per
   simulation over the cost of the rollout both sides share (timed alone, caches warm, from leaves
   near the positions): no search using that evaluator can be faster than OpenSpiel by more than
   that ratio. Ours-vs-OpenSpiel rates are per CPU second of this process (both run here, one after
   the other), so the shared cores' load mostly cancels from the ratios; the worker rows are per
   wall second and do feel it (the machine's load average is printed). Then the
   deadline overshoot (issue 4: a search returns within 50 ms of its bound): p50 and max over
   several searches with an absolute deadline (``--deadline-time``) and no simulation cap, as the
   library runs by default, against a baseline with the collector's full collections allowed during
   searches (``defer_full_gc=False``), and with the heap frozen by the process (as ``lictor serve``
   runs).
2. Head-to-head, seats swapped every game (games 2k and 2k+1 share the setup and dice): vs OpenSpiel
   ``MCTSBot`` at equal wall time per move (``--move-time``: a deadline for both searches, checked
   between simulations; ``DeadlineMCTSBot`` in the adapter) and the same evaluator and priors (both
   sides see the full state, as MCTSBot cannot do otherwise); vs greedy and vs random with
   a simulation count per move (our default: ISMCTS for hidden information; ``--sims-per-move``,
   3,000, vs greedy, ``--sims-vs-random``, 128, vs random), so a loaded machine does not decide
   those. Forced moves (one legal action) are played at once by both sides and not timed. Score =
   our return (win 1, loss 0, shared wins split); 95% Wilson interval. Each opponent
   (``--opponents``, all three by default) gets ``--games`` games (100 by default; ``--budget-s``
   caps the wall time of all head-to-head games for a quick look, and the table then shows how
   many were played); ``--jobs`` games run at once. The table also gives the time per move with a
   choice, the mean game length (rounds) and how many games reached the engine's ``max_rounds``
   cap; a line after it gives the simulations per move with a choice of both searches. Targets:
   >= 65% vs OpenSpiel, >= 80% vs greedy, >= 95% vs random.

Results are printed and written as JSON to ``bench/results/search_vs_openspiel.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from bench._openspiel_common import console, midgame_positions, pick_game
from bench._openspiel_games import OPPONENTS, games_vs, match
from bench._openspiel_speed import deadline_overshoot, overshoot_table, speed, speed_table
from games.core import Game
from search import SearchOptions

RESULTS = Path(__file__).parent / "results" / "search_vs_openspiel.json"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default=None, help="game name (default: tiberpunk, else the pig fixture)")
    parser.add_argument(
        "--games",
        type=int,
        default=None,
        help="most games per opponent (default: 100 vs OpenSpiel and random, 200 vs greedy)",
    )
    parser.add_argument(
        "--budget-s", type=float, default=None, help="cap on the wall seconds of all head-to-head games"
    )
    parser.add_argument("--move-time", type=float, default=0.05, help="seconds per move for both searches")
    parser.add_argument("--sims-per-move", type=int, default=3000, help="our simulations per move vs greedy")
    parser.add_argument("--sims-vs-random", type=int, default=128, help="our simulations per move vs random")
    parser.add_argument(
        "--baseline-time-cap", type=float, default=3.0, help="our time cap per move vs the baselines"
    )
    parser.add_argument("--positions", type=int, default=4, help="mid-game positions for the speed test")
    parser.add_argument("--speed-time", type=float, default=1.0, help="seconds per speed measurement")
    parser.add_argument(
        "--deadline-time", type=float, default=0.2, help="budget of each deadline-overshoot search"
    )
    parser.add_argument(
        "--depth", type=int, default=SearchOptions().rollout_depth, help="cut-off rollout depth"
    )
    parser.add_argument(
        "--compare-depth", type=int, default=10, help="a second cut-off depth for the speed rows"
    )
    parser.add_argument(
        "--uct-c", type=float, default=SearchOptions().uct_c, help="UCT constant (both sides)"
    )
    parser.add_argument(
        "--puct-c", type=float, default=SearchOptions().puct_c, help="PUCT constant (both sides, with priors)"
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=2, help="games played at once (processes)")
    parser.add_argument("--skip-speed", action="store_true")
    parser.add_argument("--skip-games", action="store_true")
    parser.add_argument(
        "--opponents", default=",".join(OPPONENTS), help="head-to-head opponents, comma-separated"
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)

    game, note = pick_game(args.game)
    players = 2
    load = os.getloadavg()[0]
    console.print(
        f"[bold]search vs OpenSpiel[/bold] on [bold]{note}[/bold], {players} players "
        f"(load average {load:.2f} on {os.cpu_count()} cores: other work slows both sides)"
    )
    out: dict[str, Any] = {
        "game": game.info.name,
        "note": note,
        "players": players,
        "args": vars(args),
        "load_average_at_start": load,
    }
    if not args.skip_speed:
        out.update(_speed_part(game, players, args))
    if not args.skip_games:
        opponents = [k.strip() for k in args.opponents.split(",") if k.strip()]
        unknown = sorted(set(opponents) - set(OPPONENTS))
        if unknown:
            parser.error(f"--opponents: unknown {unknown}; known: {sorted(OPPONENTS)}")
        out["head_to_head"] = results = _games_part(opponents, args)
        _print_games(results, note)

    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(out, indent=2, default=str))
    console.print(f"results written to {RESULTS}")
    return 0


def _speed_part(game: Game[Any, Any], players: int, args: argparse.Namespace) -> dict[str, Any]:
    """Part 1: the speed rows and the deadline overshoot, printed; returns their JSON."""
    positions = midgame_positions(game, players, args.positions, args.seed)
    console.print(
        f"speed: {len(positions)} mid-game positions, {args.speed_time:.1f} s each, depth {args.depth}"
    )
    sp = speed(game, positions, args)
    table, ratios = speed_table(sp, args)
    console.print(table)
    ov = deadline_overshoot(game, positions, args)
    console.print(overshoot_table(ov, args.deadline_time))
    return {"speed": {"sims_per_s": sp, "ratios": ratios}, "deadline_overshoot_ms": ov}


def _games_part(opponents: list[str], args: argparse.Namespace) -> list[dict[str, Any]]:
    """Part 2: the head-to-head matches against ``opponents``, with a progress bar."""
    share = None if args.budget_s is None else args.budget_s / max(1, len(opponents))
    results = []
    console.print(
        "head-to-head: "
        + ", ".join(f"{OPPONENTS[k].label} {games_vs(k, args)} games" for k in opponents)
        + (f" (at most ~{share:.0f} s each)" if share is not None else "")
        + ", seats swapped; "
        f"vs OpenSpiel both sides {args.move_time:.3f} s per move; vs greedy/random ours "
        f"{args.sims_per_move} (vs greedy) and {args.sims_vs_random} (vs random) simulations per move "
        f"(at most {args.baseline_time_cap:.2f} s)"
    )
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
    ) as progress:
        for kind in opponents:
            opponent = OPPONENTS[kind]
            results.append(
                match(
                    kind,
                    opponent.label,
                    args=args,
                    budget_s=share,
                    progress=progress,
                    games=games_vs(kind, args),
                    ours_algorithm=opponent.algorithm,
                )
            )
            results[-1]["target"] = opponent.target
    return results


def _print_games(results: list[dict[str, Any]], note: str) -> None:
    """The head-to-head table, then each search's simulations per move."""
    table = Table(title=f"head-to-head ({note})")
    cols = ("opponent", "games", "our score", "95% CI", "s/move ours", "s/move theirs", "rounds/game",
            "at cap", "wall s", "target")  # fmt: skip
    for col in cols:
        table.add_column(col)
    for r in results:
        rounds = r["rounds_per_game"]
        table.add_row(
            r["opponent"],
            str(r["games"]),
            f"{100 * r['win_rate']:.1f}%",
            f"[{100 * r['ci95'][0]:.1f}%, {100 * r['ci95'][1]:.1f}%]",
            f"{r['our_s_per_move']:.3f}",
            f"{r['their_s_per_move']:.3f}",
            "-" if rounds is None else f"{rounds:.1f}",
            str(r["games_at_round_cap"]),
            f"{r['wall_s']:.0f}",
            r["target"],
        )
    console.print(table)
    for r in results:
        ours_n, theirs_n = r["our_sims_per_move"], r["their_sims_per_move"]
        if ours_n and theirs_n:
            console.print(
                f"{r['opponent']}: simulations per move with a choice, ours {ours_n:.0f}, "
                f"theirs {theirs_n:.0f} ({ours_n / theirs_n:.2f}x)"
            )


if __name__ == "__main__":
    sys.exit(main())
