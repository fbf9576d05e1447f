"""Fitted evaluators (issue 33): the search with a game's fitted win model against the same search
with its hand-written heuristic, and (Tiberpunk) against OpenSpiel's MCTSBot, at equal time per move.

Run: ``python -m bench.fitted [--game all|NAME] [--players N] [--games 400] [--move-time 0.03]
[--openspiel-move-time 0.05] [--opponents hand,openspiel] [--jobs 2]``. ``--game all`` (the default,
what ``make bench`` runs) measures every game that ships a fitted model, each at the player count
its model was fitted for (its training record: Cytress and TI4 3, the others 2). ``--simulations N``
measures against the hand-written search at equal simulations a move instead of equal time (what a
strength level bounded by simulations compares; recorded as ``hand_..._Nsims``).

- ``hand``: ours with ``SearchOptions(evaluator="fitted")`` against ours with the game's own heuristic
  (``evaluator=""``): the same search (ISMCTS for hidden information), the same priors, the same
  wall time per move (``--move-time``, 30 ms). Target >= 60%. With ``--players N`` (N > 2, e.g.
  Cytress, whose model is fitted for 3 players) one seat searches with the fitted evaluator and the
  other N-1 with the hand-written one, each a search of its own with its own seed.
- ``openspiel``: ours (MCTS, both sides see the full state, as MCTSBot can only) with the fitted
  evaluator against OpenSpiel's ``MCTSBot`` with the hand-written heuristic and priors
  (``batch/openspiel.py``), both ``--openspiel-move-time`` a move (50 ms, as
  ``bench/search_vs_openspiel.py``). Target >= 75% (Tiberpunk only; 2 players only).

Game n of a match puts the fitted side at seat n % N; games N*k .. N*k+N-1 share the setup and the
dice (2 players: seats swapped every game). Forced moves are played at once and not timed. Score:
the **pairwise head-to-head rate** (:func:`pairwise_score`): per game and per hand-written seat j,
1 if the fitted seat's return beats seat j's, 0.5 if equal, 0 if less; a game's score is the mean
over its j, the rate the mean over games (50%: equal strength). With 2 players this is the fitted
side's return (win 1, shared wins split). The 95% Wilson interval counts games as the trials (each
game's mean pairwise score, not every pair: the pairs of one game are not independent). With N > 2
the fitted seat's mean return (its share of the wins) is printed next to the even share 1/N. The
machine's load average is printed at the start and the end (all sides share the cores, so load
slows all). Results go to ``bench/results/fitted.json`` (Tiberpunk) or ``fitted_<game>.json``,
keyed by opponent (``hand_3p`` with 3 players), with the player count.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench._stats import wilson
from games.core import CHANCE, TERMINAL, GameConfig, derive_seed, get_game
from games.core.fitted import load_model
from games.core.registry import game_names
from search import SearchBot, SearchLimit, SearchOptions

RESULTS = Path(__file__).parent / "results" / "fitted.json"
TARGETS = {"hand": 0.60, "openspiel": 0.75}
DEFAULT_OPPONENTS = "hand,openspiel"


def pairwise_score(returns: Sequence[float], seat: int) -> float:
    """The fitted seat's mean head-to-head score in one game against every other seat.

    Args:
        returns: every seat's return (``game.returns`` of the final state).
        seat: the fitted side's seat.

    Returns:
        The mean over the other seats j of 1 if ``returns[seat] > returns[j]``, 0.5 if equal, else
        0. With 2 players and returns that share one win (1/0, 0.5/0.5) it is ``returns[seat]``.
    """
    mine = returns[seat]
    others = [r for j, r in enumerate(returns) if j != seat]
    return sum(1.0 if mine > r else 0.5 if mine == r else 0.0 for r in others) / len(others)


@dataclass(frozen=True)
class GameJob:
    """Game ``n`` of a match against opponent ``kind`` (``hand`` or ``openspiel``) at ``players``."""

    kind: str
    game: str
    move_time: float
    seed: int
    n: int
    max_rounds: int
    players: int = 2
    simulations: int = 0

    @property
    def limit(self) -> SearchLimit:
        """The budget of every search seat a move: ``simulations`` when given (equal simulations),
        else ``move_time`` seconds (equal time)."""
        if self.simulations:
            return SearchLimit(simulations=self.simulations)
        return SearchLimit(time_s=self.move_time)


@dataclass(frozen=True)
class Played:
    """One game's outcome: every seat's return, the fitted seat, the seconds per move with a choice
    of the fitted side and of the others (pooled), and the rounds played (when the game counts them)."""

    returns: tuple[float, ...]
    seat: int
    ours_s: list[float]
    theirs_s: list[float]
    rounds: int

    @property
    def score(self) -> float:
        """The fitted seat's mean pairwise score (:func:`pairwise_score`)."""
        return pairwise_score(self.returns, self.seat)


def _opponent(job: GameJob, seed: int, i: int) -> Any:
    """The ``i``-th opponent (from 0): OpenSpiel's MCTSBot, or ours with the hand-written heuristic
    (seeded from ``seed`` and ``"hand"``; the second and later with ``i`` too)."""
    game = get_game(job.game)
    if job.kind == "openspiel":
        from batch.openspiel import make_spiel_game
        from bench._openspiel_games import OpenSpielPlayer

        spiel = make_spiel_game(game, 2, game.new_state(GameConfig(players=2), 0))
        defaults = SearchOptions()
        return OpenSpielPlayer(
            game,
            spiel,
            move_time=job.move_time,
            depth=defaults.rollout_depth or 0,
            uct_c=defaults.uct_c,
            puct_c=defaults.puct_c,
            seed=seed,
        )
    own = derive_seed(seed, "hand") if i == 0 else derive_seed(seed, "hand", i)
    return SearchBot(game, limit=job.limit, options=SearchOptions(), seed=own)


def _bots(job: GameJob, seed: int) -> tuple[Any, list[Any]]:
    """(ours with the fitted evaluator, the ``players - 1`` opponents), each timed."""
    from bench._timed import TimedBot

    game = get_game(job.game)
    algorithm = "mcts" if job.kind == "openspiel" else "auto"
    options = SearchOptions(evaluator="fitted")
    limit = job.limit
    fitted = SearchBot(game, limit=limit, options=options, seed=seed, algorithm=algorithm)
    others = [_opponent(job, seed, i) for i in range(job.players - 1)]
    return TimedBot(game, fitted), [TimedBot(game, o) for o in others]


def play_game(job: GameJob) -> Played:
    """Game ``job.n`` of a match: the fitted side at seat ``n % players``, the others in the rest in
    order; games ``players * k`` to ``players * k + players - 1`` share the setup and the dice."""
    game = get_game(job.game)
    ours, theirs = _bots(job, derive_seed(job.seed, job.kind, job.n))
    seat = job.n % job.players
    bots = [*theirs[:seat], ours, *theirs[seat:]]
    setup = derive_seed(job.seed, "setup", job.n // job.players)
    capped = job.max_rounds and any(v.name == "max_rounds" for v in game.info.variants)
    options = {"max_rounds": job.max_rounds} if capped else {}
    state = game.new_state(GameConfig(players=job.players, options=options), setup)
    dice = random.Random(derive_seed(setup, "dice"))
    while (p := game.current_player(state)) != TERMINAL:
        action = game.sample_chance(state, dice) if p == CHANCE else bots[p].act(state)
        state = game.apply(state, action)
    theirs_s = [t for bot in theirs for t in bot.times]
    rounds = int(getattr(state, "rnd", 0))
    return Played(tuple(game.returns(state)), seat, ours.times, theirs_s, rounds)


def match(kind: str, args: argparse.Namespace) -> dict[str, Any]:
    """One opponent: ``args.games`` games, ``args.jobs`` at once; prints a progress line every 20."""
    start = time.monotonic()
    load0 = os.getloadavg()[0]
    played: list[Played] = []
    move_time = args.openspiel_move_time if kind == "openspiel" else args.move_time
    jobs = [
        GameJob(kind, args.game, move_time, args.seed, n, args.max_rounds, args.players, _sims(kind, args))
        for n in range(args.games)
    ]
    with mp.get_context("fork").Pool(max(1, args.jobs)) as pool:
        for one in pool.imap(play_game, jobs):
            played.append(one)
            if args.budget_s is not None and time.monotonic() - start > args.budget_s:
                pool.terminate()  # a wall-time cap declared on the command line: the games so far
                break
            if len(played) % 20 == 0:
                score = sum(p.score for p in played)
                lo, hi = wilson(score, len(played))
                print(
                    f"  {kind}: {score:.1f}/{len(played)} [{100 * lo:.1f}, {100 * hi:.1f}] "
                    f"({time.monotonic() - start:.0f} s, load {os.getloadavg()[0]:.2f})",
                    flush=True,
                )
    return summary(kind, args, played, move_time, start=start, load0=load0)


def summary(
    kind: str,
    args: argparse.Namespace,
    played: list[Played],
    move_time: float,
    *,
    start: float,
    load0: float,
) -> dict[str, Any]:
    """A match's record (``bench/results``): the pairwise rate and its Wilson interval over games;
    with N > 2 also the fitted seat's mean return, the even share, and every game's returns."""
    scores = [p.score for p in played]
    ours_t = [t for p in played for t in p.ours_s]
    theirs_t = [t for p in played for t in p.theirs_s]
    n = len(scores)
    lo, hi = wilson(sum(scores), n)
    out: dict[str, Any] = {
        "opponent": kind,
        "players": args.players,
        "games": n,
        "score": sum(scores),
        "win_rate": sum(scores) / n if n else 0.0,
        "ci95": [lo, hi],
        "target": TARGETS[kind],
        "move_time_s": move_time,
        "simulations": _sims(kind, args),
        "ours_s_per_move": sum(ours_t) / max(1, len(ours_t)),
        "theirs_s_per_move": sum(theirs_t) / max(1, len(theirs_t)),
        "rounds_per_game": sum(p.rounds for p in played) / max(1, n),
        "games_at_round_cap": sum(1 for p in played if args.max_rounds and p.rounds >= args.max_rounds),
        "load_start": load0,
        "load_end": os.getloadavg()[0],
        "wall_s": time.monotonic() - start,
        "stopped_by_budget": n < args.games,
        "scores": scores,
    }
    if args.players > 2:
        out["score_is"] = "pairwise head-to-head rate; ci95 over games (each game's mean pairwise score)"
        out["mean_return"] = sum(p.returns[p.seat] for p in played) / max(1, n)
        out["even_share"] = 1 / args.players
        out["fitted_seats"] = [p.seat for p in played]
        out["returns"] = [list(p.returns) for p in played]
    return out


def report(kind: str, r: dict[str, Any], args: argparse.Namespace, capped: bool) -> str:
    """A match's result line: the rate, its interval, the target, the time a move and the load."""
    lo, hi = r["ci95"]
    rate = f"{100 * r['win_rate']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] over {r['games']} games"
    target = f"target >= {100 * r['target']:.0f}%"
    if args.players == 2:
        head = f"fitted vs {'hand-written' if kind == 'hand' else 'OpenSpiel MCTSBot'}: {rate} ({target}; "
    else:
        head = (
            f"fitted vs {args.players - 1} hand-written, {args.players} players: pairwise head-to-head "
            f"{rate} (the interval over games, each game's mean pairwise score; {target}; fitted seat's "
            f"mean return {r['mean_return']:.3f}, even share {r['even_share']:.3f}; "
        )
    rounds = (
        f"{r['rounds_per_game']:.1f} rounds a game, {r['games_at_round_cap']} at the "
        f"{args.max_rounds}-round cap; "
        if capped
        else ""
    )
    sims = r.get("simulations")
    budget = f"{sims} simulations" if sims else f"{1000 * r['move_time_s']:.0f} ms"
    return (
        f"{head}{budget} a move; "
        f"s/move ours {r['ours_s_per_move']:.3f}, theirs "
        f"{r['theirs_s_per_move']:.3f}; {rounds}load "
        f"{r['load_start']:.2f} -> {r['load_end']:.2f}; {r['wall_s']:.0f} s)"
    )


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--game", default="all", help="a game, or all (every game shipping a fitted model, at its players)"
    )
    parser.add_argument(
        "--players",
        type=int,
        default=None,
        help="seats: 1 fitted, the others hand-written (N > 2: hand only); default: the players the "
        "game's model was fitted for",
    )
    parser.add_argument("--games", type=int, default=400, help="games per opponent")
    parser.add_argument("--quick", action="store_true", help="20 games per opponent")
    parser.add_argument("--move-time", type=float, default=0.03, help="seconds per move vs hand-written")
    parser.add_argument(
        "--openspiel-move-time", type=float, default=0.05, help="seconds per move vs OpenSpiel"
    )
    parser.add_argument(
        "--opponents",
        default=None,
        help=f"hand, openspiel (comma-separated; default {DEFAULT_OPPONENTS} with 2 players, else hand)",
    )
    parser.add_argument(
        "--simulations",
        type=int,
        default=0,
        help="equal simulations a move instead of equal time (the hand-written opponent only)",
    )
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


def _opponents(args: argparse.Namespace, parser: argparse.ArgumentParser) -> list[str]:
    """The opponents to measure; exits (usage, status 2) on a player count or an opponent the
    bench cannot play."""
    info = get_game(args.game).info
    if not max(2, info.min_players) <= args.players <= info.max_players:
        parser.error(
            f"--players {args.players!r}: {args.game} plays {info.min_players}-{info.max_players} "
            f"players and the head-to-head needs 2 or more; choose {max(2, info.min_players)}-"
            f"{info.max_players}"
        )
    if args.opponents is None:
        args.opponents = DEFAULT_OPPONENTS if args.players == 2 else "hand"
    kinds = [k.strip() for k in args.opponents.split(",") if k.strip()]
    unknown = [k for k in kinds if k not in TARGETS]
    if unknown:
        parser.error(f"--opponents {args.opponents!r}: unknown {unknown[0]!r}; choose from hand, openspiel")
    if "openspiel" in kinds and args.players != 2:
        parser.error(
            f"--opponents {args.opponents!r}: openspiel plays 2 players only, not --players "
            f"{args.players}; use --opponents hand"
        )
    if args.game != "tiberpunk":
        kinds = [k for k in kinds if k != "openspiel"]  # adapted for Tiberpunk only
    return kinds


def _sims(kind: str, args: argparse.Namespace) -> int:
    """The simulations a move of a match at equal simulations (``--simulations``; never against
    OpenSpiel, whose bot is timed), else 0 (equal time)."""
    return int(args.simulations or 0) if kind == "hand" else 0


def _header(args: argparse.Namespace) -> str:
    """The first line: what is measured, at what time a move, and the load."""
    if args.simulations:
        what = (
            f"{args.players} players (1 fitted, {args.players - 1} hand-written), equal simulations a move "
            f"({args.simulations}), {args.games} games, the fitted seat rotated"
        )
    elif args.players == 2:
        what = (
            f"2 players, equal time a move ({args.move_time * 1000:.0f} ms vs hand-written, "
            f"{args.openspiel_move_time * 1000:.0f} ms vs OpenSpiel), {args.games} games per "
            f"opponent, seats swapped"
        )
    else:
        what = (
            f"{args.players} players (1 fitted, {args.players - 1} hand-written), equal time a move "
            f"({args.move_time * 1000:.0f} ms), {args.games} games, the fitted seat rotated"
        )
    return (
        f"fitted evaluator on {args.game}, {what} (load {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores)"
    )


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.quick:
        args.games = 20
    if args.game != "all":
        return measure(args, parser)
    for name in game_names():  # make bench: every game's fitted model, at its own player count
        if "fitted" in get_game(name).evaluators():
            one = argparse.Namespace(**{**vars(args), "game": name})
            measure(one, parser)
    return 0


def fitted_players(game: str) -> int:
    """The player count the game's shipped model was fitted for (its training record; 2 if none)."""
    return int(load_model(f"games.{game}", "fitted.json").training.get("players", 2))


def measure(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Every opponent of one game (``args.game``), printed and written to its results file."""
    if "fitted" not in get_game(args.game).evaluators():
        print(f"{args.game} ships no fitted evaluator: nothing to measure")
        return 0
    if args.players is None:
        args.players = fitted_players(args.game)
    kinds = _opponents(args, parser)
    print(_header(args), flush=True)
    path = RESULTS if args.game == "tiberpunk" else RESULTS.with_name(f"fitted_{args.game}.json")
    capped = any(v.name == "max_rounds" for v in get_game(args.game).info.variants)
    done: dict[str, Any] = {}
    for kind in kinds:
        r = match(kind, args)
        r["args"] = vars(args)
        key = kind if args.players == 2 else f"{kind}_{args.players}p"
        done[key + (f"_{args.simulations}sims" if _sims(kind, args) else "")] = r
        print(report(kind, r, args, capped), flush=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    out: dict[str, Any] = {"game": args.game, "matches": {}}
    if path.exists():  # a run of one opponent (or player count) keeps the others' last results
        out["matches"] = json.loads(path.read_text()).get("matches", {})
    out["matches"].update(done)
    path.write_text(json.dumps(out, indent=1))
    print(f"results written to {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
