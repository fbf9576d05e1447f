"""Cytress benchmark, every number against a baseline measured in the same run.

- engine: random-playout steps per second, as a ratio to the Pig fixture (``tests/fixtures/pig.py``);
- AI: seat 0 played by the search (ISMCTS), the greedy policy or the automa policy, against the
  official solo automa and in 3-player games against two random seats or two automa seats: win
  rates with a 95% Wilson interval (``bench/_stats.py``), next to random play's own rate;
- solver: ``cytress.best_placement`` by CP-SAT against brute force on the same instances (ratio).

``python -m bench.cytress`` (about 2 minutes; ``--quick`` for a look in about 30 s);
writes ``bench/results/cytress.json``.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench._stats import wilson
from games.core import CHANCE, TERMINAL, Game, GameConfig
from games.cytress import CytressGame
from search import SearchLimit
from search.bots import SearchBot
from solver.core import SolveLimits
from solver.cytress import best_placement
from tests.fixtures.pig import PigGame

__all__ = ["main"]

Chooser = Callable[[Any, random.Random], Any]


class _Playouts:
    """Random playouts of one game, run in slices (``apply_trusted``), counting steps and CPU time."""

    def __init__(self, game: Game[Any, Any], players: int) -> None:
        self.game, self.players = game, players
        self.rng = random.Random(1)
        self.seed = 0
        self.steps = 0
        self.seconds = 0.0
        self.state: Any = None

    def run(self, seconds: float) -> None:
        game = self.game
        t0 = time.perf_counter()
        c0 = time.process_time()
        while time.perf_counter() - t0 < seconds:
            if self.state is None or game.current_player(self.state) == TERMINAL:
                self.state = game.new_state(GameConfig(players=self.players), self.seed)
                self.seed += 1
            for _ in range(50):
                s = self.state
                if game.current_player(s) == TERMINAL:
                    break
                a = (
                    game.sample_chance(s, self.rng)
                    if game.current_player(s) == CHANCE
                    else self.rng.choice(list(game.legal_actions(s)))
                )
                self.state = game.apply_trusted(s, a)
                self.steps += 1
        self.seconds += time.process_time() - c0

    @property
    def rate(self) -> float:
        return self.steps / self.seconds if self.seconds else 0.0


def _speeds(game: CytressGame, seconds: float) -> tuple[float, dict[int, float]]:
    """Steps per second of Pig (2 players) and of Cytress (1, 3, 5 players), measured in
    interleaved 0.25 s slices so a change of machine load hits every one alike."""
    pig = _Playouts(PigGame(), 2)
    ours = {p: _Playouts(game, p) for p in (1, 3, 5)}
    slices = max(1, int(seconds / 0.25))
    for _ in range(slices):
        pig.run(0.25)
        for runner in ours.values():
            runner.run(0.25)
    return pig.rate, {p: r.rate for p, r in ours.items()}


def _random(game: CytressGame) -> Chooser:
    return lambda s, rng: rng.choice(list(game.legal_actions(s)))


def _search(game: CytressGame, sims: int, seed: int) -> Chooser:
    bot = SearchBot(game, limit=SearchLimit(simulations=sims), seed=seed)
    return lambda s, rng: bot.act(s)


def _match(
    game: CytressGame, players: int, games: int, hero: Callable[[int], Chooser], rest: Chooser, *, seed: int
) -> tuple[float, int, float]:
    """Seat 0 plays ``hero(game index)``, the others ``rest`` (solo: the official automa plays
    itself); returns (seat 0's wins, games, seconds)."""
    t0 = time.perf_counter()
    total = 0.0
    for g in range(games):
        rng = random.Random(seed + g)
        s = game.new_state(GameConfig(players=players), seed + g)
        me = hero(g)
        while game.current_player(s) != TERMINAL:
            a = me(s, rng) if game.current_player(s) == 0 else rest(s, rng)
            s = game.apply(s, a)
        total += game.returns(s)[0]
    return total, games, time.perf_counter() - t0


def _rate(name: str, wins: float, games: int, seconds: float) -> dict[str, Any]:
    lo, hi = wilson(wins, games)
    rate = wins / games if games else 0.0
    print(
        f"  {name:<46} {rate:6.1%} [{lo:.1%}, {hi:.1%}] over {games} games ({seconds:.0f} s)",
        flush=True,
    )
    return {
        "name": name,
        "wins": wins,
        "games": games,
        "rate": rate,
        "wilson95": [lo, hi],
        "seconds": seconds,
    }


def _solver_ratio(game: CytressGame, instances: int, crews: int) -> dict[str, Any]:
    """CP-SAT against brute force on the same best-placement instances (``crews`` crews and 1 tube
    on every empty hex of a 3-player game in round 3 or later), in CPU seconds of this process (the
    machine may be shared)."""
    rng = random.Random(4)
    states: list[Any] = []
    options = {"rebel_sides": "A"}
    s = game.new_state(GameConfig(players=3, options=options), 3)
    while len(states) < instances:
        if game.current_player(s) == TERMINAL:
            s = game.new_state(GameConfig(players=3, options=options), rng.randrange(10**6))
            continue
        if s.round >= 3 and any(s.tube) and rng.random() < 0.05 and min(s.supply[:3]) >= crews:
            states.append(s)
        s = game.apply_trusted(s, rng.choice(list(game.legal_actions(s))))
    limits = SolveLimits(time_limit_s=120.0, workers=1)
    t_cp = t_brute = 0.0
    agree = 0
    for st in states:
        seat = min(range(3), key=lambda x: -st.supply[x])
        params = {"crews": crews, "tubes": 1, "seat": seat}
        t0 = time.process_time()
        a = best_placement(game, st, {**params, "method": "cp-sat"}, limits)
        t1 = time.process_time()
        b = best_placement(game, st, {**params, "method": "enumeration"}, limits)
        t_cp += t1 - t0
        t_brute += time.process_time() - t1
        agree += a.objective == b.objective
    ratio = t_brute / t_cp if t_cp else 0.0
    print(
        f"  best placement, {crews} crews + 1 tube anywhere: brute force {t_brute / instances:.3f} s CPU, "
        f"CP-SAT {t_cp / instances:.3f} s per instance: {ratio:.1f}x faster; equal on {agree}/{instances}",
        flush=True,
    )
    return {
        "instances": instances,
        "crews": crews,
        "brute_s": t_brute,
        "cpsat_s": t_cp,
        "ratio": ratio,
        "agree": agree,
    }


def _matches(game: CytressGame, games: int, search_games: int, sims: int) -> list[dict[str, Any]]:
    """Seat 0's win rates against the official automa (solo) and in 3-player games."""
    pol = game.policies()
    greedy, automa, rnd = pol["greedy"], pol["automa"], _random(game)
    matches: list[dict[str, Any]] = []
    print("Solo against the official automa (seat 0's win rate; a tie is no win):", flush=True)
    matches.append(_rate("random play", *_match(game, 1, games, lambda g: rnd, rnd, seed=100)))
    matches.append(
        _rate(
            "automa policy (its checklists for the seat)",
            *_match(game, 1, games, lambda g: automa, rnd, seed=100),
        )
    )
    matches.append(
        _rate("greedy (one-ply heuristic)", *_match(game, 1, games, lambda g: greedy, rnd, seed=100))
    )
    matches.append(
        _rate(
            f"ISMCTS {sims} simulations/move",
            *_match(game, 1, search_games, lambda g: _search(game, sims, g), rnd, seed=100),
        )
    )
    print("3 players, seat 0 against two random seats (random's own rate: 1/3):", flush=True)
    matches.append(
        _rate("automa policy vs 2 random", *_match(game, 3, games, lambda g: automa, rnd, seed=200))
    )
    matches.append(_rate("greedy vs 2 random", *_match(game, 3, games // 2, lambda g: greedy, rnd, seed=200)))
    matches.append(
        _rate(
            f"ISMCTS {sims} sims vs 2 random",
            *_match(game, 3, search_games, lambda g: _search(game, sims, g), rnd, seed=200),
        )
    )
    print("3 players, seat 0 against two greedy seats:", flush=True)
    matches.append(_rate("random vs 2 greedy", *_match(game, 3, games // 4, lambda g: rnd, greedy, seed=300)))
    matches.append(
        _rate(
            f"ISMCTS {sims} sims vs 2 greedy",
            *_match(game, 3, search_games, lambda g: _search(game, sims, g), greedy, seed=300),
        )
    )
    print("3 players, seat 0 against two automa-policy seats:", flush=True)
    matches.append(
        _rate("greedy vs 2 automa", *_match(game, 3, games // 2, lambda g: greedy, automa, seed=400))
    )
    matches.append(_rate("random vs 2 automa", *_match(game, 3, games, lambda g: rnd, automa, seed=400)))
    return matches


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print one line per claim."""
    parser = argparse.ArgumentParser(prog="python -m bench.cytress", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a short run (about 30 s)")
    parser.add_argument("--games", type=int, default=0, help="games per fast match (default 40; quick 12)")
    parser.add_argument(
        "--search-games",
        type=int,
        default=0,
        help="games per search match (default 4; quick 2; the issue's claims: 200)",
    )
    parser.add_argument("--sims", type=int, default=30, help="search simulations per move")
    args = parser.parse_args(argv)
    quick = args.quick
    games = args.games or (12 if quick else 40)
    search_games = args.search_games or (2 if quick else 4)
    game = CytressGame()
    out: dict[str, Any] = {"quick": quick}

    print("Cytress engine (random playouts, apply_trusted):", flush=True)
    secs = 1.0 if quick else 3.0
    pig, speeds = _speeds(game, secs)
    for p, v in speeds.items():
        print(
            f"  {p} player{'s' if p > 1 else ''}: {v:,.0f} steps per CPU s = {v / pig:.2f}x Pig ({pig:,.0f})"
        )
    out["engine"] = {
        "pig_steps_per_s": pig,
        "steps_per_s": speeds,
        "ratio_to_pig": {p: v / pig for p, v in speeds.items()},
    }

    out["matches"] = _matches(game, games, search_games, args.sims)

    print("Solver (CP-SAT against brute force, same instances):", flush=True)
    out["solver"] = [_solver_ratio(game, 2 if quick else 4, 2)]
    if not quick:
        out["solver"].append(_solver_ratio(game, 4, 3))

    path = Path(__file__).parent / "results" / "cytress.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=1, default=str) + "\n")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
