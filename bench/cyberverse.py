"""CyberVerse benchmark: engine speed against the Pig fixture, the greedy AI against random play,
and the exact feature-test chain against Monte Carlo simulation, all measured in the same run.

``python -m bench.cyberverse`` (``--quick`` for a short run); writes ``bench/results/cyberverse.json``.

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
from typing import Any

from bench._stats import wilson
from games.core import CHANCE, TERMINAL, Game, GameConfig, compiled
from games.cyberverse import COMPILED, CyberverseGame
from games.cyberverse.modifiers import after_draw
from solver.cyberverse import _chain, chain_by_orders, chain_odds
from tests.fixtures.pig import PigGame

__all__ = ["main"]


def _steps_per_s(game: Game[Any, Any], players: int, seconds: float) -> float:
    """Random-playout steps (apply_trusted) per second of this process's CPU time (the machine is
    shared: CPU time, unlike the wall clock, does not count the other jobs' turns)."""
    rng = random.Random(1)
    steps = 0
    seed = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        s = game.new_state(GameConfig(players=players), seed)
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


def _match(game: CyberverseGame, players: int, games: int) -> tuple[float, int]:
    """Seat 0 plays greedy, the others random; returns (score, games)."""
    greedy = game.policies()["greedy"]
    total = 0.0
    for g in range(games):
        rng = random.Random(1000 + g)
        s = game.new_state(GameConfig(players=players), 1000 + g)
        while game.current_player(s) != TERMINAL:
            p = game.current_player(s)
            if p == CHANCE:
                a = game.sample_chance(s, rng)
            elif p == 0:
                a = greedy(s, rng)
            else:
                a = rng.choice(list(game.legal_actions(s)))
            s = game.apply_trusted(s, a)
        total += game.returns(s)[0]
    return total, games


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


def _mcts_game(task: tuple[int, str, int, int]) -> float:
    """One game: the ISMCTS seat (rotating with the game number) against greedy or random seats;
    returns the ISMCTS seat's score. A decision with one legal action is played without a search."""
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
    while game.current_player(s) != TERMINAL:
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
    return game.returns(s)[seat]


MATCHES = ("greedy-2p", "random-2p", "greedy-4p", "random-4p")
"""The ISMCTS matches, by the names ``--only`` takes."""


def _mcts_matches(games: int, simulations: int, jobs: int, only: str = "") -> dict[str, tuple[float, int]]:
    """ISMCTS against greedy and against random play, 2 and 4 players, ``games`` each (``only``:
    just that match, a name of :data:`MATCHES`)."""
    keys = [(int(name[-2]), name.split("-")[0]) for name in MATCHES if not only or name == only]
    tasks = [(players, opponent, g, simulations) for players, opponent in keys for g in range(games)]
    if jobs > 1:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            scores = []
            for k, score in enumerate(pool.imap(_mcts_game, tasks, chunksize=1)):
                scores.append(score)
                if (k + 1) % 20 == 0:
                    print(f"  ({k + 1}/{len(tasks)} ISMCTS games played)", file=sys.stderr, flush=True)
    else:
        scores = [_mcts_game(task) for task in tasks]
    out = {}
    for k, (players, opponent) in enumerate(keys):
        chunk = scores[k * games : (k + 1) * games]
        out[f"ismcts_vs_{opponent}_{players}p"] = (sum(chunk), games)
    return out


FIT_SEEDS = range(50_000, 51_200)
"""Seeds of the games the win model is fitted on (disjoint from the bench's 1000+ and 2000+)."""


def _fit_positions(seed: int) -> dict[str, Any]:
    """One game of greedy seats that play at random with a probability drawn per game (0, 5, 15 or
    30%), 2, 3, 4 or 4 players by the seed; about 8% of its decision positions with their win-model
    features and the fraction of the game left, and the game's returns."""
    from games.cyberverse.policies import win_features

    game = _GAME[0] if _GAME else CyberverseGame()
    _GAME[:] = [game]
    players = (2, 3, 4, 4)[seed % 4]
    rng = random.Random(seed)
    greedy = game.policies()["greedy"]
    s = game.new_state(GameConfig(players=players), seed)
    eps = rng.choice((0.0, 0.05, 0.15, 0.3))
    rows = []
    while game.current_player(s) != TERMINAL:
        p = game.current_player(s)
        if p == CHANCE:
            a = game.sample_chance(s, rng)
        else:
            if rng.random() < 0.08:
                cap = s.options.max_turns or 12
                rows.append((max(0, cap - s.turn) / cap, win_features(s, game.content_pack)))
            a = rng.choice(list(game.legal_actions(s))) if rng.random() < eps else greedy(s, rng)
        s = game.apply_trusted(s, a)
    return {"returns": list(game.returns(s)), "rows": rows}


def fit_win_model(jobs: int) -> dict[str, Any]:
    """Fit the heuristic's win model (``policies.WIN_WEIGHTS`` and ``WIN_WEIGHTS_LEFT``): a
    conditional logit of the winner among the seats on each seat's features and the same times the
    fraction of the game left, by Newton's method (a small ridge), on the first 80% of the
    :data:`FIT_SEEDS` games; the log-loss and the winner ranked first on the last 20% (held out),
    against chance and the weights in the code now."""
    import numpy as np

    from games.cyberverse.policies import WIN_WEIGHTS, WIN_WEIGHTS_LEFT

    if jobs > 1:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            games = pool.map(_fit_positions, FIT_SEEDS, chunksize=4)
    else:
        games = [_fit_positions(seed) for seed in FIT_SEEDS]

    def groups(chunk: list[dict[str, Any]]) -> list[tuple[Any, Any]]:
        out = []
        for g in chunk:
            y = np.array(g["returns"])
            for left, feats in g["rows"]:
                x = np.array(feats)
                out.append((np.hstack([x, left * x]), y))
        return out

    cut = len(games) * 4 // 5
    train, test = groups(games[:cut]), groups(games[cut:])
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

    def score(chunk: list[tuple[Any, Any]], weights: Any) -> tuple[float, float]:
        loss = first = 0.0
        for x, y in chunk:
            u = x @ weights
            p = np.exp(u - u.max())
            p /= p.sum()
            loss -= float(np.sum(y * np.log(np.maximum(p, 1e-12))))
            first += float(y[int(np.argmax(p))])
        return loss / len(chunk), first / len(chunk)

    now = np.array([*WIN_WEIGHTS, *WIN_WEIGHTS_LEFT])
    out: dict[str, Any] = {
        "games": len(games),
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
            "fitted": score(sub, w),
            "in_code": score(sub, now),
        }
    return out


def _odds_speed(rounds: int) -> tuple[float, float, float]:
    """Seconds per exact chain (cold cache), per enumeration of every deck order, and for a
    2,000-run Monte Carlo of the same chain (two tests, reshuffle after a success)."""
    tests = [(2, 2), (1, 2)]
    t0 = time.perf_counter()
    for _ in range(rounds):
        _chain.cache_clear()
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


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print one line per claim."""
    parser = argparse.ArgumentParser(prog="python -m bench.cyberverse")
    parser.add_argument("--quick", action="store_true", help="a short run")
    parser.add_argument("--games", type=int, default=0, help="games per AI match (default 100, quick 20)")
    parser.add_argument(
        "--mcts-games",
        type=int,
        default=-1,
        help="games per ISMCTS match (vs greedy and vs random, 2 and 4 players; default 100, quick 0)",
    )
    parser.add_argument(
        "--simulations", type=int, default=SIMULATIONS, help="ISMCTS simulations per decision"
    )
    parser.add_argument(
        "--jobs", type=int, default=1, help="worker processes for the ISMCTS matches and the fit"
    )
    parser.add_argument(
        "--only",
        choices=(*MATCHES, "engine", "fit"),
        default="",
        help="play only that ISMCTS match (the search seat against greedy or random seats, 2 or 4 "
        "players); 'engine': measure only the engine; 'fit': fit the heuristic's win model and "
        "print its weights (games of seeds 50000-51199)",
    )
    parser.add_argument("--engine-child", type=float, default=0.0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.engine_child:
        json.dump(_engine_child(args.engine_child), sys.stdout)
        return 0
    only = args.only
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    target = out / (f"cyberverse-{only}.json" if only else "cyberverse.json")
    if only == "fit":
        fitted = fit_win_model(args.jobs)
        print(json.dumps(fitted, indent=1))
        target.write_text(json.dumps(fitted, indent=1))
        return 0
    seconds = 2.0 if args.quick else 6.0
    games = args.games or (20 if args.quick else 100)
    game = CyberverseGame()
    results: dict[str, Any] = {"mode": compiled.mode("games.cyberverse")}
    if only in ("", "engine"):
        results.update(_engine(seconds))
    if not only:
        for players in (2, 4):
            score, n = _match(game, players, games)
            lo, hi = wilson(score, n)
            base = 1 / players
            results[f"greedy_vs_random_{players}p"] = {
                "score": score / n,
                "games": n,
                "wilson": [lo, hi],
                "chance": base,
            }
            print(
                f"greedy vs random {players}p: {score / n:.1%} [{lo:.1%}, {hi:.1%}] over {n} games "
                f"(a random seat: {base:.0%})"
            )
    mcts_games = args.mcts_games if args.mcts_games >= 0 else (0 if args.quick else 100)
    if mcts_games and only != "engine":
        t0 = time.perf_counter()
        matches = _mcts_matches(mcts_games, args.simulations, args.jobs, only)
        results["ismcts_options"] = {
            "simulations": args.simulations,
            "rollout_depth": 0,
            "priors": "greedy evaluation",
            "heuristic": "fitted win model (conditional logit)",
            "puct_c": 0.5,
            "chance_leaf_samples": 0,
        }
        for key, (score, n) in matches.items():
            lo, hi = wilson(score, n)
            players = int(key[-2])
            results[key] = {"score": score / n, "games": n, "wilson": [lo, hi], "chance": 1 / players}
            opponent = "greedy" if "greedy" in key else "random"
            print(
                f"ISMCTS ({args.simulations} simulations a decision, greedy priors, PUCT 0.5, leaves "
                f"scored by the fitted win model) vs {opponent} {players}p: {score / n:.1%} "
                f"[{lo:.1%}, {hi:.1%}] over {n} games (seats rotating; a random seat: {1 / players:.0%})"
            )
        results["ismcts_wall_s"] = time.perf_counter() - t0
    if not only:
        exact, brute, mc = _odds_speed(50)
        results["chain_odds_s"] = exact
        results["enumeration_s"] = brute
        results["monte_carlo_2000_s"] = mc
        print(
            f"exact odds of a 2-test chain: {exact * 1e3:.3f} ms = {exact / brute:.4f}x the enumeration "
            f"of every deck order ({brute * 1e3:.0f} ms), "
            f"{exact / mc:.4f}x a 2,000-run Monte Carlo ({mc * 1e3:.0f} ms)"
        )
    target.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
