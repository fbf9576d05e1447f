"""CyberVerse benchmark: engine speed against the Pig fixture, the greedy AI against random play,
and the exact feature-test chain against Monte Carlo simulation, all measured in the same run.

``python -m bench.cyberverse`` (``--quick`` for a short run); writes ``bench/results/cyberverse.json``.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path
from typing import Any

from bench._stats import wilson
from games.core import CHANCE, TERMINAL, Game, GameConfig
from games.cyberverse import CyberverseGame
from games.cyberverse.modifiers import after_draw
from solver.cyberverse import _chain, chain_by_orders, chain_odds
from tests.fixtures.pig import PigGame

__all__ = ["main"]


def _steps_per_s(game: Game[Any, Any], players: int, seconds: float) -> float:
    """Random-playout steps (apply_trusted) per second."""
    rng = random.Random(1)
    steps = 0
    seed = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
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
    return steps / (time.perf_counter() - t0)


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


def _mcts_match(game: CyberverseGame, games: int, simulations: int) -> tuple[float, int]:
    """ISMCTS (``simulations`` per decision, rollouts cut at depth 6 and scored by the heuristic)
    against the greedy AI, 2 players, seats alternating game by game; returns (ISMCTS score, games)."""
    from search.bots import SearchBot
    from search.types import SearchLimit, SearchOptions

    greedy = game.policies()["greedy"]
    total = 0.0
    for g in range(games):
        rng = random.Random(2000 + g)
        bot = SearchBot(
            game, limit=SearchLimit(simulations=simulations), options=SearchOptions(rollout_depth=6), seed=g
        )
        s = game.new_state(GameConfig(players=2), 2000 + g)
        seat = g % 2
        while game.current_player(s) != TERMINAL:
            p = game.current_player(s)
            if p == CHANCE:
                a = game.sample_chance(s, rng)
            elif p == seat:
                a = bot.act(s)
            else:
                a = greedy(s, rng)
            s = game.apply_trusted(s, a)
        total += game.returns(s)[seat]
    return total, games


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
        default=0,
        help="also play ISMCTS (seat 0) vs greedy for this many 2-player games (slow)",
    )
    parser.add_argument("--simulations", type=int, default=100, help="ISMCTS simulations per decision")
    args = parser.parse_args(argv)
    seconds = 2.0 if args.quick else 6.0
    games = args.games or (20 if args.quick else 100)
    game = CyberverseGame()
    pig = _steps_per_s(PigGame(), 2, seconds)
    results: dict[str, Any] = {"pig_steps_per_s": pig}
    for players in (2, 4):
        cv = _steps_per_s(game, players, seconds)
        results[f"steps_per_s_{players}p"] = cv
        print(
            f"engine {players}p: {cv:,.0f} random-playout steps/s = "
            f"{cv / pig:.3f}x the Pig fixture ({pig:,.0f}/s)"
        )
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
    if args.mcts_games:
        score, n = _mcts_match(game, args.mcts_games, args.simulations)
        lo, hi = wilson(score, n)
        results["ismcts_vs_greedy_2p"] = {"score": score / n, "games": n, "wilson": [lo, hi]}
        print(
            f"ISMCTS ({args.simulations} simulations) vs greedy 2p: {score / n:.1%} "
            f"[{lo:.1%}, {hi:.1%}] over {n} games"
        )
    exact, brute, mc = _odds_speed(50)
    results["chain_odds_s"] = exact
    results["enumeration_s"] = brute
    results["monte_carlo_2000_s"] = mc
    print(
        f"exact odds of a 2-test chain: {exact * 1e3:.3f} ms = {exact / brute:.4f}x the enumeration of "
        f"every deck order ({brute * 1e3:.0f} ms), "
        f"{exact / mc:.4f}x a 2,000-run Monte Carlo ({mc * 1e3:.0f} ms)"
    )
    out = Path(__file__).parent / "results"
    out.mkdir(exist_ok=True)
    (out / "cyberverse.json").write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
