"""CyberVerse benchmark: engine speed against the Pig fixture, the greedy AI against random play,
the game lengths and end conditions with no turn cap (``--only length``), the ISMCTS seat against
greedy and random seats, and the exact feature-test chain against Monte Carlo simulation.

``python -m bench.cyberverse`` (``--quick`` for a short run, ``--jobs 2`` on 2 cores); writes
``bench/results/cyberverse.json`` (``cyberverse-<only>.json`` for one part). Every game is played
with no turn cap, the rulebook's end only (rule: cyberverse/end-of-game), but for the engine's
random playouts (:data:`ENGINE_TURNS`); a game still running at :data:`GUARD_TURNS` is stopped and
counted as running.

The engine is measured in each mode available (docs/compiled.md): pure Python, and compiled with
mypyc when a fresh build exists (``make fast``). The mode is fixed per process at import, so each is
measured in a child process of its own, with the Pig fixture timed in that same child.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, NamedTuple

from bench._stats import wilson
from games.core import CHANCE, TERMINAL, Game, GameConfig, compiled
from games.cyberverse import COMPILED, CyberverseGame
from games.cyberverse.engine import END_DOMINATION, END_STORIES, end_reason
from games.cyberverse.modifiers import after_draw
from solver.cyberverse import chain_by_orders, chain_odds, chain_table
from tests.fixtures.pig import PigGame

__all__ = ["main"]


ENGINE_TURNS = 12
"""The turn cap of the random playouts that time the engine (the ``max_turns`` variant): uniformly
random play spends its money and resolves few stories, so without a cap it need not end."""


def _steps_per_s(game: Game[Any, Any], players: int, seconds: float) -> float:
    """Random-playout steps (apply_trusted) per second of this process's CPU time (the machine is
    shared: CPU time, unlike the wall clock, does not count the other jobs' turns); each playout
    is capped at :data:`ENGINE_TURNS` turns."""
    rng = random.Random(1)
    steps = 0
    seed = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        s = game.new_state(GameConfig(players=players, options={"max_turns": ENGINE_TURNS}), seed)
        seed += 1
        while game.current_player(s) != TERMINAL:
            a = (
                game.sample_chance(s, rng)
                if game.current_player(s) == CHANCE
                else rng.choice(list(game.legal_actions(s)))
            )
            s = game.apply_trusted(s, a)
            steps += 1
    return steps / (time.process_time() - t0)


MODES = {"pure": "pure Python", "compiled": "compiled, mypyc"}
"""The engine's modes, by ``compiled.mode`` and as the bench prints them."""


def _engine_child(seconds: float) -> dict[str, Any]:
    """In this process's mode: the Pig fixture, then CyberVerse 2p and 4p, random-playout steps/s."""
    pig = _steps_per_s(PigGame(), 2, seconds)
    game = CyberverseGame()
    out: dict[str, Any] = {
        "mode": compiled.mode("games.cyberverse"),
        "reason": compiled.reason("games.cyberverse"),
        "pig_steps_per_s": pig,
    }
    for players in (2, 4):
        out[f"steps_per_s_{players}p"] = _steps_per_s(game, players, seconds)
    return out


def _compiled_available() -> str:
    """Why the compiled engine cannot be measured ("" when a fresh build exists)."""
    from games import cyberverse

    root, build = compiled.locate("games.cyberverse", cyberverse.__file__ or "")
    why, _ = compiled.check("games.cyberverse", COMPILED, root, build)
    return why


def _engine(seconds: float) -> dict[str, Any]:
    """The engine in each mode available, each in a child process (pure Python first); prints one
    line per mode and players, and the compiled/pure ratio."""
    root = Path(__file__).resolve().parents[1]
    env = {k: v for k, v in os.environ.items() if k != compiled.PURE_ENV}
    modes: dict[str, Any] = {}
    why = _compiled_available()
    for mode in ("pure", "compiled"):
        if mode == "compiled" and why:
            print(f"engine ({MODES[mode]}): not measured: {why}")
            modes[mode] = {"not_measured": why}
            continue
        child_env = {**env, compiled.PURE_ENV: "1"} if mode == "pure" else env
        proc = subprocess.run(
            [sys.executable, "-m", "bench.cyberverse", "--engine-child", str(seconds)],
            cwd=root,
            env=child_env,
            capture_output=True,
            text=True,
            check=True,
        )
        got = json.loads(proc.stdout)
        if got["mode"] != mode:
            raise RuntimeError(f"the {mode} engine child ran {got['mode']} ({got['reason']})")
        modes[mode] = got
        pig = got["pig_steps_per_s"]
        for players in (2, 4):
            cv = got[f"steps_per_s_{players}p"]
            print(
                f"engine {players}p ({MODES[mode]}): {cv:,.0f} random-playout steps/s = "
                f"{cv / pig:.3f}x the Pig fixture ({pig:,.0f}/s)"
            )
    out: dict[str, Any] = {"engine": modes}
    pure = modes["pure"]
    out["pig_steps_per_s"] = pure["pig_steps_per_s"]
    for players in (2, 4):
        out[f"steps_per_s_{players}p"] = pure[f"steps_per_s_{players}p"]
    fast = modes["compiled"]
    if "not_measured" not in fast:
        for players in (2, 4):
            key = f"steps_per_s_{players}p"
            raw = fast[key] / pure[key]
            ratio = (fast[key] / fast["pig_steps_per_s"]) / (pure[key] / pure["pig_steps_per_s"])
            out[f"compiled_speedup_{players}p"] = ratio
            out[f"compiled_speedup_raw_{players}p"] = raw
            print(
                f"engine {players}p: compiled = {ratio:.2f}x pure Python against each child's Pig "
                f"({raw:.2f}x the steps/s)"
            )
    return out


GUARD_TURNS = 200
"""A game still running after this many turns is stopped and counted as running (a stall): the
measurement's guard, not a rule (the games are played with no turn cap)."""
RULEBOOK_TURNS = 40
"""The issue's target: 95% of games end by a rulebook condition within this many turns."""


class Played(NamedTuple):
    """One benchmark game: the measured seat's score, the turns played and why it ended."""

    score: float
    turns: int
    end: str


def _finish(game: CyberverseGame, s: Any, seat: int) -> Played:
    """The result of a game stopped at its end or at :data:`GUARD_TURNS`."""
    if game.current_player(s) != TERMINAL:
        return Played(0.0, s.turn, "running")
    return Played(game.returns(s)[seat], s.turn, end_reason(s))


def _greedy_vs_random(game: CyberverseGame, players: int, seed: int) -> Played:
    """Seat 0 plays greedy, the others random (no turn cap)."""
    greedy = game.policies()["greedy"]
    rng = random.Random(seed)
    s = game.new_state(GameConfig(players=players), seed)
    while game.current_player(s) != TERMINAL and s.turn <= GUARD_TURNS:
        p = game.current_player(s)
        if p == CHANCE:
            a = game.sample_chance(s, rng)
        elif p == 0:
            a = greedy(s, rng)
        else:
            a = rng.choice(list(game.legal_actions(s)))
        s = game.apply_trusted(s, a)
    return _finish(game, s, 0)


def _greedy_game(task: tuple[int, int]) -> Played:
    """Every seat greedy (no turn cap); the score is seat 0's."""
    players, seed = task
    game = _GAME[0] if _GAME else CyberverseGame()
    _GAME[:] = [game]
    greedy = game.policies()["greedy"]
    rng = random.Random(seed)
    s = game.new_state(GameConfig(players=players), seed)
    while game.current_player(s) != TERMINAL and s.turn <= GUARD_TURNS:
        a = game.sample_chance(s, rng) if game.current_player(s) == CHANCE else greedy(s, rng)
        s = game.apply_trusted(s, a)
    return _finish(game, s, 0)


def lengths(games: list[Played]) -> dict[str, Any]:
    """Game lengths in turns (median, 90th percentile, max), the end condition that fired, and the
    share of games ended by a rulebook condition within :data:`RULEBOOK_TURNS` turns."""
    turns = sorted(g.turns for g in games)
    n = len(turns)
    ends: dict[str, int] = {}
    for g in games:
        ends[g.end] = ends.get(g.end, 0) + 1
    ok = sum(1 for g in games if g.end in (END_STORIES, END_DOMINATION) and g.turns <= RULEBOOK_TURNS)
    return {
        "games": n,
        "median": turns[(n - 1) // 2],
        "p90": turns[min(n - 1, math.ceil(0.9 * n) - 1)],
        "max": turns[-1],
        "ends": ends,
        "rulebook_within_40": ok / n,
    }


def length_line(label: str, stats: dict[str, Any]) -> str:
    """One printed line of :func:`lengths`."""
    ends = ", ".join(f"{k} {v}" for k, v in sorted(stats["ends"].items()))
    return (
        f"game length, {label}: median {stats['median']}, p90 {stats['p90']}, max {stats['max']} turns "
        f"over {stats['games']} games, no cap; ended by {ends}; by a rulebook end within "
        f"{RULEBOOK_TURNS} turns {stats['rulebook_within_40']:.1%}"
    )


SIMULATIONS = 100
"""ISMCTS simulations per decision in the bench (the budget is in simulations, never in seconds)."""


def search_options() -> Any:
    """The ISMCTS options of the bench's search seat: PUCT priors from the greedy evaluation with a
    low exploration constant (0.5: the search stays near the greedy choices and looks deeper), the
    leaf scored at once by the game's heuristic (the fitted win model, ``--only fit``; no random
    rollout), no averaging over a leaf's chance outcomes."""
    from search.types import SearchOptions

    return SearchOptions(rollout_depth=0, use_priors=True, chance_leaf_samples=0, puct_c=0.5)


_GAME: list[CyberverseGame] = []


def _mcts_game(task: tuple[int, str, int, int]) -> Played:
    """One game, no turn cap: the ISMCTS seat (rotating with the game number) against greedy or
    random seats; the ISMCTS seat's score. A decision with one legal action is played without a
    search."""
    from search.bots import SearchBot
    from search.types import SearchLimit

    players, opponent, g, simulations = task
    game = _GAME[0] if _GAME else CyberverseGame()
    _GAME[:] = [game]
    greedy = game.policies()["greedy"]
    rng = random.Random(2000 + g)
    bot = SearchBot(game, limit=SearchLimit(simulations=simulations), options=search_options(), seed=g)
    s = game.new_state(GameConfig(players=players), 2000 + g)
    seat = g % players
    while game.current_player(s) != TERMINAL and s.turn <= GUARD_TURNS:
        p = game.current_player(s)
        if p == CHANCE:
            a = game.sample_chance(s, rng)
        elif p == seat:
            legal = game.legal_actions(s)
            a = legal[0] if len(legal) == 1 else bot.act(s)
        elif opponent == "greedy":
            a = greedy(s, rng)
        else:
            a = rng.choice(list(game.legal_actions(s)))
        s = game.apply_trusted(s, a)
    return _finish(game, s, seat)


MATCHES = ("greedy-2p", "random-2p", "greedy-4p", "random-4p")
"""The ISMCTS matches, by the names ``--only`` takes."""


def _run(fn: Any, tasks: list[Any], jobs: int, what: str) -> list[Played]:
    """``fn`` over ``tasks``, on ``jobs`` worker processes (progress on stderr)."""
    if jobs <= 1:
        return [fn(task) for task in tasks]
    import multiprocessing

    out = []
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        for k, played in enumerate(pool.imap(fn, tasks, chunksize=1)):
            out.append(played)
            if (k + 1) % 20 == 0:
                print(f"  ({k + 1}/{len(tasks)} {what} games played)", file=sys.stderr, flush=True)
    return out


def _mcts_matches(games: int, simulations: int, jobs: int, only: str = "") -> dict[str, list[Played]]:
    """ISMCTS against greedy and against random play, 2 and 4 players, ``games`` each (``only``:
    just that match, a name of :data:`MATCHES`)."""
    keys = [(int(name[-2]), name.split("-")[0]) for name in MATCHES if not only or name == only]
    tasks = [(players, opponent, g, simulations) for players, opponent in keys for g in range(games)]
    played = _run(_mcts_game, tasks, jobs, "ISMCTS")
    return {
        f"ismcts_vs_{opponent}_{players}p": played[k * games : (k + 1) * games]
        for k, (players, opponent) in enumerate(keys)
    }


LENGTH_SEEDS = 3000
"""First seed of the greedy games of ``--only length`` (disjoint from the matches' 1000+ and 2000+)."""


def game_lengths(greedy_games: int, mcts_games: int, simulations: int, jobs: int) -> dict[str, Any]:
    """``--only length``: the lengths and end conditions of games with no turn cap, at 2, 3 and 4
    players: every seat greedy (``greedy_games`` each), and one ISMCTS seat (rotating) against
    greedy seats (``mcts_games`` each). Prints one line per row."""
    out: dict[str, Any] = {}
    for players in (2, 3, 4):
        tasks = [(players, LENGTH_SEEDS + g) for g in range(greedy_games)]
        stats = lengths(_run(_greedy_game, tasks, jobs, f"greedy {players}p"))
        out[f"greedy_{players}p"] = stats
        print(length_line(f"{players} players, every seat greedy", stats), flush=True)
    for players in (2, 3, 4):
        if not mcts_games:
            break
        tasks2 = [(players, "greedy", g, simulations) for g in range(mcts_games)]
        stats = lengths(_run(_mcts_game, tasks2, jobs, f"ISMCTS {players}p"))
        out[f"ismcts_vs_greedy_{players}p"] = stats
        print(length_line(f"{players} players, one ISMCTS seat ({simulations} simulations), greedy", stats))
    return out


FIT_SEEDS = range(50_000, 51_200)
"""Seeds of the games the win model is fitted on (disjoint from the bench's 1000+ and 2000+)."""
FIT_SEEDS_4P = range(60_000, 61_200)
"""Seeds of the 4-player games its 4-player weights are fitted on (``--fit-players 4``)."""


def _fit_positions(task: tuple[int, int]) -> dict[str, Any]:
    """One game of greedy seats that play at random with a probability drawn per game: 2, 3, 4 or 4
    players by the seed and 0, 5, 15 or 30% (``players`` 0), else ``players`` and 0, 0, 5 or 15%;
    about 8% of its decision positions with their win-model features and the fraction of the game
    left, and the game's returns."""
    from games.cyberverse.policies import game_left, win_features

    seed, players = task
    game = _GAME[0] if _GAME else CyberverseGame()
    _GAME[:] = [game]
    rng = random.Random(seed)
    greedy = game.policies()["greedy"]
    if players:
        eps = rng.choice((0.0, 0.0, 0.05, 0.15))
    else:
        players = (2, 3, 4, 4)[seed % 4]
        eps = rng.choice((0.0, 0.05, 0.15, 0.3))
    s = game.new_state(GameConfig(players=players), seed)
    rows = []
    while game.current_player(s) != TERMINAL and s.turn <= GUARD_TURNS:
        p = game.current_player(s)
        if p == CHANCE:
            a = game.sample_chance(s, rng)
        else:
            if rng.random() < 0.08:
                rows.append((game_left(s), win_features(s, game.content_pack)))
            a = rng.choice(list(game.legal_actions(s))) if rng.random() < eps else greedy(s, rng)
        s = game.apply_trusted(s, a)
    if game.current_player(s) != TERMINAL:  # stopped at the guard: no winner to fit on
        return {"returns": [], "rows": [], "turns": s.turn}
    return {"returns": list(game.returns(s)), "rows": rows, "turns": s.turn}


def _fit_games(jobs: int, players: int) -> tuple[list[dict[str, Any]], Any]:
    """The fitting games' positions (4 players: :data:`FIT_SEEDS_4P`, else :data:`FIT_SEEDS`) and
    the weights in the code now (``policies.WIN_WEIGHTS*``)."""
    import numpy as np

    from games.cyberverse import policies

    if players == 4:
        now = np.array([*policies.WIN_WEIGHTS_4P, *policies.WIN_WEIGHTS_LEFT_4P])
        tasks = [(seed, 4) for seed in FIT_SEEDS_4P]
    else:
        now = np.array([*policies.WIN_WEIGHTS, *policies.WIN_WEIGHTS_LEFT])
        tasks = [(seed, 0) for seed in FIT_SEEDS]
    if jobs > 1:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            return pool.map(_fit_positions, tasks, chunksize=4), now
    return [_fit_positions(task) for task in tasks], now


def _win_groups(chunk: list[dict[str, Any]]) -> list[tuple[Any, Any]]:
    """Per position of a finished game: the seats' features and the same times the fraction of the
    game left, with the result (1 for the winner)."""
    import numpy as np

    out = []
    for g in chunk:
        if not g["returns"]:
            continue
        y = np.array(g["returns"])
        for left, feats in g["rows"]:
            x = np.array(feats)
            out.append((np.hstack([x, left * x]), y))
    return out


def _newton_logit(train: list[tuple[Any, Any]]) -> Any:
    """The conditional logit's weights by Newton's method with a small ridge."""
    import numpy as np

    dim = train[0][0].shape[1]
    w = np.zeros(dim)
    ridge = 1e-3 * len(train)
    for _ in range(30):
        grad = ridge * w
        hess = ridge * np.eye(dim)
        for x, y in train:
            u = x @ w
            p = np.exp(u - u.max())
            p /= p.sum()
            grad = grad + x.T @ (p - y)
            hess = hess + x.T @ (np.diag(p) - np.outer(p, p)) @ x
        step = np.linalg.solve(hess, grad)
        w = w - step
        if np.abs(step).max() < 1e-7:
            break
    return w


def _win_score(chunk: list[tuple[Any, Any]], weights: Any) -> tuple[float, float]:
    """The log-loss and the share of positions whose winner the weights rank first."""
    import numpy as np

    loss = first = 0.0
    for x, y in chunk:
        u = x @ weights
        p = np.exp(u - u.max())
        p /= p.sum()
        loss -= float(np.sum(y * np.log(np.maximum(p, 1e-12))))
        first += float(y[int(np.argmax(p))])
    return loss / len(chunk), first / len(chunk)


def fit_win_model(jobs: int, players: int = 0) -> dict[str, Any]:
    """Fit the heuristic's win model (``policies.WIN_WEIGHTS`` and ``WIN_WEIGHTS_LEFT``; with
    ``players`` 4, ``WIN_WEIGHTS_4P`` and ``WIN_WEIGHTS_LEFT_4P`` on :data:`FIT_SEEDS_4P`): a
    conditional logit of the winner among the seats on each seat's features and the same times the
    fraction of the game left, by Newton's method (a small ridge), on the first 80% of the
    :data:`FIT_SEEDS` games; the log-loss and the winner ranked first on the last 20% (held out),
    against chance and the weights in the code now."""
    games, now = _fit_games(jobs, players)
    cut = len(games) * 4 // 5
    train, test = _win_groups(games[:cut]), _win_groups(games[cut:])
    w = _newton_logit(train)
    dim = len(w)
    out: dict[str, Any] = {
        "games": len(games),
        "stopped_at_guard": sum(1 for g in games if not g["returns"]),
        "turns_median": sorted(g["turns"] for g in games)[len(games) // 2],
        "positions": [len(train), len(test)],
        "weights": [round(float(v), 4) for v in w[: dim // 2]],
        "weights_left": [round(float(v), 4) for v in w[dim // 2 :]],
    }
    for k in (0, 2, 3, 4):
        sub = [g for g in test if k in (0, len(g[1]))]
        if not sub:
            continue
        chance = sum(-math.log(1 / len(g[1])) for g in sub) / len(sub)
        out[f"held_out_{k or 'all'}"] = {
            "positions": len(sub),
            "log_loss_chance": chance,
            "fitted": _win_score(sub, w),
            "in_code": _win_score(sub, now),
        }
    return out


def _odds_speed(rounds: int) -> tuple[float, float, float]:
    """Seconds per exact chain (cold cache), per enumeration of every deck order, and for a
    2,000-run Monte Carlo of the same chain (two tests, reshuffle after a success)."""
    tests = [(2, 2), (1, 2)]
    t0 = time.perf_counter()
    for _ in range(rounds):
        chain_table.cache_clear()
        chain_odds((-1, 0, 1, 1, 2), (), tests, "success")
    exact = (time.perf_counter() - t0) / rounds
    t0 = time.perf_counter()
    chain_by_orders((-1, 0, 1, 1, 2), (), tests, "success")
    brute = time.perf_counter() - t0
    rng = random.Random(3)
    t0 = time.perf_counter()
    for _ in range(2000):
        deck: tuple[int, ...] = (-1, 0, 1, 1, 2)
        discard: tuple[int, ...] = ()
        for total, threshold in tests:
            card = rng.choice(deck if deck else discard)
            deck, discard = after_draw(deck, discard, card, total + card > threshold, "success")
    mc = time.perf_counter() - t0
    return exact, brute, mc


def _rate_line(label: str, games: list[Played], players: int) -> tuple[dict[str, Any], str]:
    """A win rate with its Wilson interval (and the games' lengths) for the results file, and its line."""
    score, n = sum(g.score for g in games), len(games)
    lo, hi = wilson(score, n)
    row = {
        "score": score / n,
        "games": n,
        "wilson": [lo, hi],
        "chance": 1 / players,
        "lengths": lengths(games),
    }
    return (
        row,
        f"{label}: {score / n:.1%} [{lo:.1%}, {hi:.1%}] over {n} games (a random seat: {1 / players:.0%})",
    )


def _fit_main(jobs: int, players: int, out: Path) -> None:
    """``--only fit``: fit the win model, print it and write ``cyberverse-fit[-4p].json``."""
    fitted = fit_win_model(jobs, players)
    text = json.dumps(fitted, indent=1)
    print(text)
    (out / f"cyberverse-fit{f'-{players}p' if players else ''}.json").write_text(text)


def _parser() -> argparse.ArgumentParser:
    """The command line: what to run and how much of it."""
    parser = argparse.ArgumentParser(prog="python -m bench.cyberverse")
    parser.add_argument("--quick", action="store_true", help="a short run")
    parser.add_argument(
        "--games", type=int, default=0, help="games per greedy vs random match (default 100, quick 20)"
    )
    parser.add_argument(
        "--mcts-games",
        type=int,
        default=-1,
        help="games per ISMCTS match (vs greedy and vs random, 2 and 4 players; default 200, quick 0)",
    )
    parser.add_argument(
        "--length-games",
        type=int,
        default=-1,
        help="games of every-seat-greedy per player count in the length table (default 200, quick 20)",
    )
    parser.add_argument(
        "--length-mcts-games",
        type=int,
        default=-1,
        help="games with one ISMCTS seat per player count in the length table (default 40, quick 0)",
    )
    parser.add_argument(
        "--simulations", type=int, default=SIMULATIONS, help="ISMCTS simulations per decision"
    )
    parser.add_argument("--jobs", type=int, default=1, help="worker processes for the games and the fit")
    parser.add_argument(
        "--only",
        choices=(*MATCHES, "engine", "fit", "length", "greedy-vs-random"),
        default="",
        help="play only that ISMCTS match (the search seat against greedy or random seats, 2 or 4 "
        "players); 'engine': measure only the engine; 'fit': fit the heuristic's win model and "
        "print its weights (games of seeds 50000-51199); 'length': the game lengths and end "
        "conditions with no turn cap, greedy seats and one ISMCTS seat, 2, 3 and 4 players; "
        "'greedy-vs-random': only the greedy seat against random seats",
    )
    parser.add_argument(
        "--fit-players",
        type=int,
        choices=(0, 4),
        default=0,
        help="with --only fit: 4 fits the 4-player weights on 4-player games (seeds 60000-61199); "
        "0 (the default) the weights of 2 and 3 players on games of 2-4 players",
    )
    parser.add_argument("--engine-child", type=float, default=0.0, help=argparse.SUPPRESS)
    return parser


def _greedy_matches(results: dict[str, Any], games: int) -> None:
    """The greedy seat against random seats, 2 and 4 players, no turn cap."""
    game = CyberverseGame()
    for players in (2, 4):
        played = [_greedy_vs_random(game, players, 1000 + g) for g in range(games)]
        row, line = _rate_line(f"greedy vs random {players}p (no turn cap)", played, players)
        results[f"greedy_vs_random_{players}p"] = row
        print(line)
        print(length_line(f"greedy vs random {players}p", row["lengths"]))


def _ismcts_matches(results: dict[str, Any], games: int, simulations: int, jobs: int, only: str) -> None:
    """The ISMCTS seat against greedy and random seats (or the one match ``only`` names)."""
    t0 = time.perf_counter()
    matches = _mcts_matches(games, simulations, jobs, only)
    results["ismcts_options"] = {
        "simulations": simulations,
        "rollout_depth": 0,
        "priors": "greedy evaluation",
        "heuristic": "fitted win model (conditional logit; 4 players: weights of their own)",
        "puct_c": 0.5,
        "chance_leaf_samples": 0,
    }
    for key, played in matches.items():
        players = int(key[-2])
        opponent = "greedy" if "greedy" in key else "random"
        label = (
            f"ISMCTS ({simulations} simulations a decision, greedy priors, PUCT 0.5, leaves "
            f"scored by the fitted win model) vs {opponent} {players}p, seats rotating, no turn cap"
        )
        row, line = _rate_line(label, played, players)
        results[key] = row
        print(line)
        print(length_line(f"ISMCTS vs {opponent} {players}p", row["lengths"]))
    results["ismcts_wall_s"] = time.perf_counter() - t0


def _odds_claim(results: dict[str, Any]) -> None:
    """The exact odds of a test chain against enumeration and Monte Carlo."""
    exact, brute, mc = _odds_speed(50)
    results["chain_odds_s"] = exact
    results["enumeration_s"] = brute
    results["monte_carlo_2000_s"] = mc
    print(
        f"exact odds of a 2-test chain: {exact * 1e3:.3f} ms = {exact / brute:.4f}x the enumeration "
        f"of every deck order ({brute * 1e3:.0f} ms), "
        f"{exact / mc:.4f}x a 2,000-run Monte Carlo ({mc * 1e3:.0f} ms)"
    )


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print one line per claim."""
    args = _parser().parse_args(argv)
    if args.engine_child:
        json.dump(_engine_child(args.engine_child), sys.stdout)
        return 0
    only = args.only
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    target = out / (f"cyberverse-{only}.json" if only else "cyberverse.json")
    if only == "fit":
        _fit_main(args.jobs, args.fit_players, out)
        return 0
    quick = args.quick
    results: dict[str, Any] = {"mode": compiled.mode("games.cyberverse")}
    if only in ("", "engine"):
        results.update(_engine(2.0 if quick else 6.0))
    if only in ("", "greedy-vs-random"):
        _greedy_matches(results, args.games or (20 if quick else 100))
    if only in ("", "length"):
        greedy_games = args.length_games if args.length_games >= 0 else (20 if quick else 200)
        mcts_length = args.length_mcts_games if args.length_mcts_games >= 0 else (0 if quick else 40)
        results["lengths"] = game_lengths(greedy_games, mcts_length, args.simulations, args.jobs)
    mcts_games = args.mcts_games if args.mcts_games >= 0 else (0 if quick else 200)
    if mcts_games and only not in ("engine", "length", "greedy-vs-random"):
        _ismcts_matches(results, mcts_games, args.simulations, args.jobs, only)
    if not only:
        _odds_claim(results)
    target.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
