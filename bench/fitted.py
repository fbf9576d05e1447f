"""Fitted evaluators (issue 33): the search with a game's fitted win model against the same search
with its hand-written heuristic, and (Tiberpunk) against OpenSpiel's MCTSBot, at equal time per move.

Run: ``python -m bench.fitted [--game tiberpunk] [--games 400] [--move-time 0.03]
[--openspiel-move-time 0.05] [--opponents hand,openspiel] [--jobs 2]``.

- ``hand``: ours with ``SearchOptions(evaluator="fitted")`` against ours with the game's own heuristic
  (``evaluator=""``): the same search (ISMCTS for hidden information), the same priors, the same
  wall time per move (``--move-time``, 30 ms). Target >= 60%.
- ``openspiel``: ours (MCTS, both sides see the full state, as MCTSBot can only) with the fitted
  evaluator against OpenSpiel's ``MCTSBot`` with the hand-written heuristic and priors
  (``batch/openspiel.py``), both ``--openspiel-move-time`` a move (50 ms, as
  ``bench/search_vs_openspiel.py``). Target >= 75% (Tiberpunk only).

Seats swapped every game; games 2k and 2k+1 share the setup and the dice. Forced moves are played at
once and not timed. Score = the fitted side's return (win 1, shared wins split); 95% Wilson interval.
The machine's load average is printed at the start and the end (both sides share the cores, so load
slows both). Results go to ``bench/results/fitted.json``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

from bench._stats import wilson
from games.core import CHANCE, TERMINAL, GameConfig, derive_seed, get_game
from search import SearchBot, SearchLimit, SearchOptions

RESULTS = Path(__file__).parent / "results" / "fitted.json"
TARGETS = {"hand": 0.60, "openspiel": 0.75}


def _bots(kind: str, game_name: str, move_time: float, seed: int) -> tuple[Any, Any]:
    """(ours with the fitted evaluator, the opponent), each timed."""
    from batch.openspiel import make_spiel_game
    from bench._openspiel_games import TimedBot

    game = get_game(game_name)
    limit = SearchLimit(time_s=move_time)
    algorithm = "mcts" if kind == "openspiel" else "auto"
    fitted = SearchBot(
        game, limit=limit, options=SearchOptions(evaluator="fitted"), seed=seed, algorithm=algorithm
    )
    if kind == "openspiel":
        from bench._openspiel_games import OpenSpielPlayer

        spiel = make_spiel_game(game, 2, game.new_state(GameConfig(players=2), 0))
        defaults = SearchOptions()
        other: Any = OpenSpielPlayer(
            game,
            spiel,
            move_time=move_time,
            depth=defaults.rollout_depth or 0,
            uct_c=defaults.uct_c,
            puct_c=defaults.puct_c,
            seed=seed,
        )
    else:
        other = SearchBot(game, limit=limit, options=SearchOptions(), seed=derive_seed(seed, "hand"))
    return TimedBot(game, fitted), TimedBot(game, other)


def play_pair_game(
    job: tuple[str, str, float, int, int, int],
) -> tuple[float, list[float], list[float], int]:
    """Game ``n`` of a match: the fitted side's score, both sides' seconds per move with a choice,
    and the rounds played (when the game counts them)."""
    kind, game_name, move_time, seed, n, max_rounds = job
    game = get_game(game_name)
    ours, theirs = _bots(kind, game_name, move_time, derive_seed(seed, kind, n))
    seat = n % 2
    bots = [ours, theirs] if seat == 0 else [theirs, ours]
    setup = derive_seed(seed, "setup", n // 2)
    capped = max_rounds and any(v.name == "max_rounds" for v in game.info.variants)
    options = {"max_rounds": max_rounds} if capped else {}
    state = game.new_state(GameConfig(players=2, options=options), setup)
    dice = random.Random(derive_seed(setup, "dice"))
    while (p := game.current_player(state)) != TERMINAL:
        action = game.sample_chance(state, dice) if p == CHANCE else bots[p].act(state)
        state = game.apply(state, action)
    return game.returns(state)[seat], ours.times, theirs.times, int(getattr(state, "rnd", 0))


def match(kind: str, args: argparse.Namespace) -> dict[str, Any]:
    """One opponent: ``args.games`` games, ``args.jobs`` at once; prints a progress line every 20."""
    start = time.monotonic()
    load0 = os.getloadavg()[0]
    scores: list[float] = []
    ours_t: list[float] = []
    theirs_t: list[float] = []
    rounds: list[int] = []
    move_time = args.openspiel_move_time if kind == "openspiel" else args.move_time
    jobs = [(kind, args.game, move_time, args.seed, n, args.max_rounds) for n in range(args.games)]
    with mp.get_context("fork").Pool(max(1, args.jobs)) as pool:
        for score, a, b, rnd in pool.imap(play_pair_game, jobs):
            scores.append(score)
            ours_t += a
            theirs_t += b
            rounds.append(rnd)
            if args.budget_s is not None and time.monotonic() - start > args.budget_s:
                pool.terminate()  # a wall-time cap declared on the command line: the games so far
                break
            if len(scores) % 20 == 0:
                lo, hi = wilson(sum(scores), len(scores))
                print(
                    f"  {kind}: {sum(scores):.1f}/{len(scores)} [{100 * lo:.1f}, {100 * hi:.1f}] "
                    f"({time.monotonic() - start:.0f} s, load {os.getloadavg()[0]:.2f})",
                    flush=True,
                )
    n = len(scores)
    lo, hi = wilson(sum(scores), n)
    return {
        "opponent": kind,
        "games": n,
        "score": sum(scores),
        "win_rate": sum(scores) / n if n else 0.0,
        "ci95": [lo, hi],
        "target": TARGETS[kind],
        "move_time_s": move_time,
        "ours_s_per_move": sum(ours_t) / max(1, len(ours_t)),
        "theirs_s_per_move": sum(theirs_t) / max(1, len(theirs_t)),
        "rounds_per_game": sum(rounds) / max(1, n),
        "games_at_round_cap": sum(1 for r in rounds if args.max_rounds and r >= args.max_rounds),
        "load_start": load0,
        "load_end": os.getloadavg()[0],
        "wall_s": time.monotonic() - start,
        "stopped_by_budget": n < args.games,
        "scores": scores,
    }


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="tiberpunk")
    parser.add_argument("--games", type=int, default=400, help="games per opponent")
    parser.add_argument("--quick", action="store_true", help="20 games per opponent")
    parser.add_argument("--move-time", type=float, default=0.03, help="seconds per move vs hand-written")
    parser.add_argument(
        "--openspiel-move-time", type=float, default=0.05, help="seconds per move vs OpenSpiel"
    )
    parser.add_argument("--opponents", default="hand,openspiel", help="hand, openspiel (comma-separated)")
    parser.add_argument("--seed", type=int, default=3300)
    parser.add_argument(
        "--max-rounds",
        type=int,
        default=60,
        help="Tiberpunk's round cap (0: none): searches of a few dozen simulations can stall a game "
        "for hundreds of rounds of income",
    )
    parser.add_argument(
        "--budget-s", type=float, default=None, help="stop each match after this many wall seconds"
    )
    parser.add_argument("--jobs", type=int, default=1, help="games at once (processes)")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.quick:
        args.games = 20
    kinds = [k.strip() for k in args.opponents.split(",") if k.strip()]
    if args.game != "tiberpunk":
        kinds = [k for k in kinds if k != "openspiel"]  # adapted for Tiberpunk only
    if "fitted" not in get_game(args.game).evaluators():
        print(f"{args.game} ships no fitted evaluator: nothing to measure")
        return 0
    print(
        f"fitted evaluator on {args.game}, 2 players, equal time a move ({args.move_time * 1000:.0f} ms vs "
        f"hand-written, {args.openspiel_move_time * 1000:.0f} ms vs OpenSpiel), {args.games} games per "
        f"opponent, seats swapped (load {os.getloadavg()[0]:.2f} "
        f"on {os.cpu_count()} cores)",
        flush=True,
    )
    path = RESULTS if args.game == "tiberpunk" else RESULTS.with_name(f"fitted_{args.game}.json")
    capped = any(v.name == "max_rounds" for v in get_game(args.game).info.variants)
    done: dict[str, Any] = {}
    for kind in kinds:
        r = match(kind, args)
        r["args"] = vars(args)
        done[kind] = r
        lo, hi = r["ci95"]
        rounds = (
            f"{r['rounds_per_game']:.1f} rounds a game, {r['games_at_round_cap']} at the "
            f"{args.max_rounds}-round cap; "
            if capped
            else ""
        )
        print(
            f"fitted vs {'hand-written' if kind == 'hand' else 'OpenSpiel MCTSBot'}: "
            f"{100 * r['win_rate']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] over {r['games']} games "
            f"(target >= {100 * r['target']:.0f}%; {1000 * r['move_time_s']:.0f} ms a move; "
            f"s/move ours {r['ours_s_per_move']:.3f}, theirs "
            f"{r['theirs_s_per_move']:.3f}; {rounds}load "
            f"{r['load_start']:.2f} -> {r['load_end']:.2f}; {r['wall_s']:.0f} s)",
            flush=True,
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    out: dict[str, Any] = {"game": args.game, "matches": {}}
    if path.exists():  # a run of one opponent keeps the other's last result
        out["matches"] = json.loads(path.read_text()).get("matches", {})
    out["matches"].update(done)
    path.write_text(json.dumps(out, indent=1))
    print(f"results written to {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
