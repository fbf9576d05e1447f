"""Cytress benchmark, every number against a baseline measured in the same run.

- engine: random-playout steps per second, as a ratio to the Pig fixture (``tests/fixtures/pig.py``);
- AI: seat 0 played by the search (ISMCTS), the greedy policy or the automa policy, against the
  official solo automa and in 3-player games against two random seats or two automa seats: win
  rates with a 95% Wilson interval (``bench/_stats.py``), next to random play's own rate;
- solver: ``cytress.best_placement`` by CP-SAT against brute force on the same instances (ratio);
- game lengths (issue 28): with no round cap, the rounds each game lasts (median, 90th percentile,
  max) and which end fired, per player count (2-5) and policy (every seat greedy, automa policy or
  random; or seat 0 the search among greedy seats), with a Wilson interval on the share of games
  the tubes running out ended (``--only lengths``);
- the search's leaf evaluation (``--only fit``): plays ``--games`` 3-player games of greedy and
  automa-policy seats with some random moves, fits the ``"fitted"`` win model (a conditional logit
  on ``games/cytress/features.py``'s features, ``batch.selfplay.fit``), prints its held-out log-loss
  next to the hand-written heuristic's and chance, and writes ``games/cytress/fitted.json``. The
  search seat searches with it (``SEARCH_OPTIONS``; ``--evaluator ''``: the hand-written heuristic).

``python -m bench.cytress`` (about 2 minutes; ``--quick`` for a look in about 30 s); the issue's
claims: ``--search-games 200`` (``--jobs 2`` plays the games in 2 processes; the budget is in
simulations, so the win rates do not depend on the load); writes ``bench/results/cytress.json``.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import replace as with_options
from pathlib import Path
from typing import Any

from ortools.sat.python import cp_model

from bench._stats import wilson
from games.core import CHANCE, TERMINAL, Game, GameConfig
from games.core.fitted import WinModel
from games.core.records import replace
from games.cytress import CytressGame
from games.cytress.features import FEATURES, win_features
from games.cytress.scoring import winners
from search import SearchLimit, SearchOptions
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


SIMULATIONS = 120
"""The search's budget a move in the 3-player matches (``--sims``)."""
SOLO_SIMULATIONS = 60
"""The search's budget a move against the official automa (``--solo-sims``)."""
SEARCH_OPTIONS = SearchOptions(evaluator="fitted")
"""The search's options in the matches (ISMCTS; the budget is ``--sims`` simulations a move): the
leaf evaluation fitted to who won games of greedy seats (``games/cytress/features.py``; with 3 players,
else the hand-written heuristic); ``--evaluator ''`` searches with the hand-written heuristic."""


def _search(game: CytressGame, sims: int, seed: int) -> Chooser:
    bot = SearchBot(game, limit=SearchLimit(simulations=sims), options=_OPTIONS["search"], seed=seed)
    return lambda s, rng: bot.act(s)


def _chooser(game: CytressGame, kind: str, sims: int, index: int) -> Chooser:
    """A player by name: ``random``, a policy of ``game.policies()``, or ``search`` (seeded by the
    game's index)."""
    if kind == "random":
        return _random(game)
    if kind == "search":
        return _search(game, sims, index)
    return game.policies()[kind]


_OPTIONS: dict[str, SearchOptions] = {"search": SEARCH_OPTIONS}
"""The search seat's options in this run (``SEARCH_OPTIONS`` with ``--evaluator``; set before the
match workers fork)."""

_WORKER: dict[str, CytressGame] = {}
"""The game the match workers play (set before they fork)."""


def _one_game(job: tuple[int, str, str, int, int, int]) -> float:
    """Seat 0's result in one game: (players, seat 0's kind, the others' kind, simulations, index,
    seed)."""
    players, hero, rest, sims, index, seed = job
    game = _WORKER["game"]
    rng = random.Random(seed)
    s = game.new_state(GameConfig(players=players), seed)
    me = _chooser(game, hero, sims, index)
    others = _chooser(game, rest, sims, index)
    while game.current_player(s) != TERMINAL:
        a = me(s, rng) if game.current_player(s) == 0 else others(s, rng)
        s = game.apply(s, a)
    return game.returns(s)[0]


def _match(
    game: CytressGame,
    players: int,
    games: int,
    hero: str,
    rest: str,
    *,
    seed: int,
    sims: int = 0,
    jobs: int = 1,
) -> tuple[float, int, float]:
    """Seat 0 plays ``hero``, the others ``rest`` (solo: the official automa plays itself), game
    ``g`` with seed ``seed + g``, in ``jobs`` processes; returns (seat 0's wins, games, seconds)."""
    _WORKER["game"] = game
    t0 = time.perf_counter()
    work = [(players, hero, rest, sims, g, seed + g) for g in range(games)]
    if jobs > 1 and games > 1:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            total = sum(pool.imap_unordered(_one_game, work))
    else:
        total = sum(_one_game(job) for job in work)
    return total, games, time.perf_counter() - t0


LENGTH_GUARD = 40
"""The game-length runs' guard: a game still running after this round counts as stalled (the
rulebook has no round limit; no game of the published runs came near it)."""
LENGTH_POLICIES = ("greedy", "automa", "random", "search")
"""Who plays in the game-length runs: every seat that policy, or ``search``: seat 0 the ISMCTS seat
and the others greedy."""


def _one_length(job: tuple[int, str, int, int]) -> tuple[int, bool]:
    """(rounds played, whether the tubes running out ended it) of one game: (players, policy,
    simulations, seed), the guard as ``round_limit``."""
    players, policy, sims, seed = job
    game = _WORKER["game"]
    rng = random.Random(seed)
    s = game.new_state(GameConfig(players=players, options={"round_limit": LENGTH_GUARD}), seed)
    if policy == "search":
        me, others = _chooser(game, "search", sims, seed), _chooser(game, "greedy", sims, seed)
    else:
        me = others = _chooser(game, policy, sims, seed)
    while game.current_player(s) != TERMINAL:
        a = me(s, rng) if game.current_player(s) == 0 else others(s, rng)
        s = game.apply_trusted(s, a)
    return s.round, s.end_triggered


def _percentile(values: list[int], share: float) -> int:
    """The nearest-rank percentile of ``values``."""
    ranked = sorted(values)
    return ranked[max(0, min(len(ranked) - 1, math.ceil(share * len(ranked)) - 1))]


def _lengths(
    game: CytressGame, games: int, search_games: int, *, sims: int, jobs: int
) -> list[dict[str, Any]]:
    """Game lengths and end conditions with no round cap (a guard at ``LENGTH_GUARD`` rounds), per
    player count and policy; game ``g`` uses seed ``6000 + g``."""
    _WORKER["game"] = game
    rows = []
    for players in (2, 3, 4, 5):
        print(
            f"{players} players, no round cap (a game past round {LENGTH_GUARD} counts as stalled):",
            flush=True,
        )
        for policy in LENGTH_POLICIES:
            n = search_games if policy == "search" else games
            work = [(players, policy, sims, 6000 + g) for g in range(n)]
            t0 = time.perf_counter()
            if jobs > 1 and n > 1:
                with multiprocessing.get_context("fork").Pool(jobs) as pool:
                    results = list(pool.imap(_one_length, work))
            else:
                results = [_one_length(job) for job in work]
            rounds = [r for r, _ in results]
            tubes = sum(1 for _, ended in results if ended)
            lo, hi = wilson(tubes, n)
            who = (
                f"ISMCTS {sims} sims seat 0, greedy others" if policy == "search" else f"{policy}, every seat"
            )
            print(
                f"  {who:<38} rounds median {statistics.median(rounds):g}, p90 {_percentile(rounds, 0.9)}, "
                f"max {max(rounds)}; ended by the tubes {tubes}/{n} = {tubes / n:.1%} [{lo:.1%}, {hi:.1%}]; "
                f"stalled {n - tubes} ({time.perf_counter() - t0:.0f} s)",
                flush=True,
            )
            rows.append(
                {
                    "players": players,
                    "policy": policy,
                    "games": n,
                    "rounds": rounds,
                    "median": statistics.median(rounds),
                    "p90": _percentile(rounds, 0.9),
                    "max": max(rounds),
                    "ended_by_tubes": tubes,
                    "wilson95": [lo, hi],
                }
            )
    return rows


def _final(game: CytressGame, players: int, policy: str, seed: int, **options: Any) -> Any:
    """The end of one game, every seat ``policy`` (``random`` or a shipped policy)."""
    rng = random.Random(seed)
    s = game.new_state(GameConfig(players=players, options=options), seed)
    play = _chooser(game, policy, 0, seed)
    while game.current_player(s) != TERMINAL:
        s = game.apply_trusted(s, play(s, rng))
    return s


def _readings(game: CytressGame, games: int) -> dict[str, Any]:
    """How often the two readings of issue 28 matter, seeds 0..games-1: solo, the 14 tube sections
    running out (``solo_tubes`` 'supply', the default, against 'box'); 4-5 players, a seat holding
    both bounties against one faction and the winners that change between ``bounty_scoring`` 'each'
    (the default) and 'best'."""
    out: dict[str, Any] = {"solo": {}, "bounties": {}}
    print("Solo, the 14 tube sections near Stratos (solo_tubes supply, the default, vs box):", flush=True)
    for policy in ("random", "automa", "greedy"):
        gone = past = wins = wins_box = 0
        for seed in range(games):
            s = _final(game, 1, policy, seed)
            b = _final(game, 1, policy, seed, solo_tubes="box")
            gone += s.tubes_left == 0
            past += sum(b.tube) > 14
            wins += int(game.returns(s)[0])
            wins_box += int(game.returns(b)[0])
        print(
            f"  {policy:<7} the 14 used up in {gone}/{games} games; the box reading builds past 14 in "
            f"{past}/{games}; the solo seat wins {wins} (supply) / {wins_box} (box)",
            flush=True,
        )
        out["solo"][policy] = {"used_up": gone, "past_14": past, "wins": wins, "wins_box": wins_box}
    print("4-5 players, a seat with both bounties against one faction (bounty_scoring each vs best):")
    for players in (4, 5):
        for policy in ("random", "automa", "greedy"):
            both = changed = 0
            for seed in range(games):
                s = _final(game, players, policy, seed)
                held = [[game.pack.bounties[b].faction for b in r.bounties] for r in s.rebels]
                if any(len(f) != len(set(f)) for f in held):
                    both += 1
                    best = replace(s, bounty_best=True)
                    changed += winners(game.scores(s), solo=False) != winners(game.scores(best), solo=False)
            print(
                f"  {players} players, {policy:<7} in {both}/{games} games; the winners change in {changed}",
                flush=True,
            )
            out["bounties"][f"{players}-{policy}"] = {"games_with_both": both, "winners_change": changed}
    return out


FIT_SEED = 95000
"""The fit's games (``--only fit``): game ``g`` uses seed ``FIT_SEED + g``."""
FIT_GAMES = 2400
"""Games the fit plays by default (``--games``); the last fifth are held out."""
FIT_EXPLORE = (0.0, 0.05, 0.15)
"""The share of random moves in a fit game (one of these, drawn per game): more varied positions."""
FIT_EVERY = 7
"""A fit game records every ``FIT_EVERY``-th decision from round 1 on."""
FIT_RIDGE: float | None = None
"""The fit's L2 penalty per position towards the hand-written evaluation alone (None: chosen by
cross-validation over the training games, ``batch.selfplay.RIDGES``)."""


def _fit_game(seed: int) -> tuple[tuple[float, ...], list[list[tuple[float, ...]]], list[tuple[float, ...]]]:
    """One 3-player fit game (``--only fit``): each seat greedy (2 in 3) or the automa policy,
    playing a random move at a share of ``FIT_EXPLORE``; returns (returns, per recorded position
    every seat's ``win_features``, the hand-written heuristic's chances)."""
    game = _WORKER["game"]
    rng = random.Random(seed)
    played = game.policies()
    s = game.new_state(GameConfig(players=3), seed)
    explore = rng.choice(FIT_EXPLORE)
    kinds = [rng.choice(("greedy", "greedy", "automa")) for _ in range(3)]
    rows, hand = [], []
    k = 0
    while game.current_player(s) != TERMINAL:
        if k % FIT_EVERY == 0 and s.round >= 1:
            rows.append(win_features(game, s))
            hand.append(tuple(game.heuristic(s)))
        if rng.random() < explore:
            action = rng.choice(game.legal_actions(s))
        else:
            action = played[kinds[s.actor]](s, rng)
        s = game.apply_trusted(s, action)
        k += 1
    return game.returns(s), rows, hand


def _fit(game: CytressGame, games: int, *, jobs: int) -> dict[str, Any]:
    """Play ``games`` fit games, fit the conditional logit (``batch.selfplay.fit``, the first
    four fifths, held out the rest by game) and write ``games/cytress/fitted.json``."""
    from batch.selfplay import SelfPlayGame, SelfPlayJob, fit

    _WORKER["game"] = game
    t0 = time.perf_counter()
    seeds = range(FIT_SEED, FIT_SEED + games)
    if jobs > 1:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            results = pool.map(_fit_game, seeds, chunksize=8)
    else:
        results = [_fit_game(seed) for seed in seeds]
    job = SelfPlayJob(game="cytress", players=3, seed=FIT_SEED, bot_seed=FIT_SEED, simulations=0)
    played = [
        SelfPlayGame(job, tuple(ret), tuple(tuple(r) for r in rows), tuple(hand), 0, 0.0)
        for ret, rows, hand in results
    ]
    result = fit(played, ridge=FIT_RIDGE)
    held = {k: round(v, 4) for k, v in result.held_out.items()}
    print(
        f"  {games} games, positions {result.positions[0]} + {result.positions[1]} held out: log-loss fitted "
        f"{held['fitted']}, hand-written {held['hand_written']}, chance {held['chance']} "
        f"({time.perf_counter() - t0:.0f} s)",
        flush=True,
    )
    for name, w in zip(FEATURES, result.weights, strict=True):
        print(f"    {name:<45} {w:+.4f}")
    model = WinModel(
        game="cytress",
        features=FEATURES,
        weights={"3": tuple(round(w, 6) for w in result.weights)},
        training={
            "games": games,
            "players": 3,
            "seeds": [FIT_SEED, FIT_SEED + games - 1],
            "players_by_seat": "greedy (2 in 3) or the automa policy, drawn per seat; random moves at "
            f"a share drawn per game of {list(FIT_EXPLORE)}",
            "positions": list(result.positions),
            "games_split": list(result.games),
            "every": FIT_EVERY,
            "ridge": result.ridge,
            "held_out": held,
            "command": f"python -m bench.cytress --only fit --games {games}",
        },
    )
    path = Path(__file__).parent.parent / "games" / "cytress" / "fitted.json"
    path.write_text(json.dumps(model.to_dict(), indent=1) + "\n")
    print(f"  wrote {path}", flush=True)
    return model.to_dict()


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
    machine may be shared), after one untimed call of each."""
    rng = random.Random(4)
    states: list[Any] = []
    options = {"rebel_sides": "A"}
    s = game.new_state(GameConfig(players=3, options=options), 3)
    while len(states) < instances:
        if game.current_player(s) == TERMINAL:
            s = game.new_state(GameConfig(players=3, options=options), rng.randrange(10**6))
            continue
        if s.round >= 3 and any(s.tube) and rng.random() < 0.05 and min(r.unused for r in s.rebels) >= crews:
            states.append(s)
        s = game.apply_trusted(s, rng.choice(list(game.legal_actions(s))))
    limits = SolveLimits(time_limit_s=120.0, workers=1)
    # one untimed call of each first: the first CP-SAT solve of a process pays a one-time start-up
    warm = {"crews": crews, "tubes": 1, "seat": min(range(3), key=lambda x: -states[0].rebels[x].unused)}
    for method in ("cp-sat", "enumeration"):
        best_placement(game, states[0], {**warm, "method": method}, limits)
    t_cp = t_brute = 0.0
    agree = 0
    for st in states:
        seat = min(range(3), key=lambda x: -st.rebels[x].unused)
        params = {"crews": crews, "tubes": 1, "seat": seat}
        t0 = time.process_time()
        a = best_placement(game, st, {**params, "method": "cp-sat"}, limits)
        t1 = time.process_time()
        b = best_placement(game, st, {**params, "method": "enumeration"}, limits)
        t_cp += t1 - t0
        t_brute += time.process_time() - t1
        agree += a.objective == b.objective
    ratio = t_brute / t_cp if t_cp else 0.0
    floor = _cpsat_floor()
    print(
        f"  best placement, {crews} crews + 1 tube anywhere: brute force {t_brute / instances:.4f} s CPU, "
        f"CP-SAT {t_cp / instances:.4f} s per instance: {ratio:.1f}x faster; equal on {agree}/{instances}; "
        f"an empty CP-SAT model's solve {floor * 1000:.2f} ms "
        f"(brute force / that floor: {t_brute / instances / floor:.0f}x)",
        flush=True,
    )
    return {
        "instances": instances,
        "crews": crews,
        "brute_s": t_brute,
        "cpsat_s": t_cp,
        "ratio": ratio,
        "agree": agree,
        "empty_model_solve_s": floor,
    }


def _cpsat_floor(repeats: int = 20) -> float:
    """CPU seconds of CP-SAT on an empty model (one boolean, maximised; one worker, as the solver runs):
    what any CP-SAT answer costs before its model has a constraint."""
    t0 = time.process_time()
    for _ in range(repeats):
        model = cp_model.CpModel()
        model.maximize(model.new_bool_var("x"))
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.solve(model)
    return (time.process_time() - t0) / repeats


def _matches(
    game: CytressGame,
    games: int,
    search_games: int,
    *,
    sims: tuple[int, int],
    jobs: int,
    matches: list[dict[str, Any]],
    save: Callable[[], None],
    only: str = "",
) -> None:
    """Seat 0's win rates against the official automa (solo, ``sims[0]`` simulations a move) and in
    3-player games (``sims[1]``); ``only``: just the search seat's match against that opponent
    (``greedy``, ``random`` or ``automa`` for solo)."""
    search = f"ISMCTS {sims[1]} simulations/move"
    wanted = {"greedy": f"{search} vs 2 greedy", "random": f"{search} vs 2 random"}
    wanted["automa"] = f"ISMCTS {sims[0]} simulations/move"

    def run(name: str, players: int, n: int, hero: str, rest: str, *, seed: int) -> None:
        if only and name != wanted[only]:
            return
        budget = sims[0] if players == 1 else sims[1]
        matches.append(_rate(name, *_match(game, players, n, hero, rest, seed=seed, sims=budget, jobs=jobs)))
        save()

    print("3 players, seat 0 against two greedy seats:", flush=True)
    run(f"{search} vs 2 greedy", 3, search_games, "search", "greedy", seed=3000)
    run("random vs 2 greedy", 3, games // 4, "random", "greedy", seed=300)
    print("3 players, seat 0 against two random seats (random's own rate: 1/3):", flush=True)
    run(f"{search} vs 2 random", 3, search_games, "search", "random", seed=4000)
    run("automa policy vs 2 random", 3, games, "automa", "random", seed=200)
    run("greedy vs 2 random", 3, games // 2, "greedy", "random", seed=200)
    print("Solo against the official automa (seat 0's win rate; a tie is no win):", flush=True)
    run(f"ISMCTS {sims[0]} simulations/move", 1, search_games, "search", "random", seed=2000)
    run("random play", 1, games, "random", "random", seed=100)
    run("automa policy (its checklists for the seat)", 1, games, "automa", "random", seed=100)
    run("greedy (one-ply heuristic)", 1, games, "greedy", "random", seed=100)
    print("3 players, seat 0 against two automa-policy seats:", flush=True)
    run("greedy vs 2 automa", 3, games // 2, "greedy", "automa", seed=400)
    run("random vs 2 automa", 3, games, "random", "automa", seed=400)


def _parser() -> argparse.ArgumentParser:
    """The command line's options."""
    parser = argparse.ArgumentParser(prog="python -m bench.cytress", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a short run (about 30 s)")
    parser.add_argument("--games", type=int, default=0, help="games per fast match (default 40; quick 12)")
    parser.add_argument(
        "--search-games",
        type=int,
        default=0,
        help="games per search match (default 4; quick 2; the issue's claims: 200)",
    )
    parser.add_argument("--sims", type=int, default=SIMULATIONS, help="search simulations per move")
    parser.add_argument(
        "--solo-sims", type=int, default=SOLO_SIMULATIONS, help="search simulations per move in solo"
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes playing the matches' games")
    parser.add_argument(
        "--only",
        choices=("greedy", "random", "automa", "engine", "solver", "lengths", "readings", "fit"),
        default="",
        help="play only the search seat's match against two greedy, two random seats or the solo automa; "
        "'engine', 'solver', 'lengths' or 'readings': measure only that part (lengths: --games games "
        "per policy and player count, --search-games for the search seat's; readings: --games each; "
        "fit: fit the 'fitted' evaluator on --games games (default 2400) and write "
        "games/cytress/fitted.json)",
    )
    parser.add_argument(
        "--evaluator",
        default=SEARCH_OPTIONS.evaluator,
        help="the search seat's leaf evaluation: 'fitted' (the default, games/cytress/features.py) or "
        "'' (the game's hand-written heuristic)",
    )
    return parser


def _engine(game: CytressGame, quick: bool) -> dict[str, Any]:
    """The engine's speed: random playouts per CPU second, and their ratio to Pig's."""
    print("Cytress engine (random playouts, apply_trusted):", flush=True)
    pig, speeds = _speeds(game, 1.0 if quick else 3.0)
    for p, v in speeds.items():
        seats = f"{p} player{'s' if p > 1 else ''}"
        print(f"  {seats}: {v:,.0f} steps per CPU s = {v / pig:.2f}x Pig ({pig:,.0f})")
    return {
        "pig_steps_per_s": pig,
        "steps_per_s": speeds,
        "ratio_to_pig": {p: v / pig for p, v in speeds.items()},
    }


def _one_part(game: CytressGame, args: argparse.Namespace, games: int, search_games: int) -> dict[str, Any]:
    """``--only fit``, ``readings`` or ``lengths``: that part's results, by name."""
    if args.only == "fit":
        print("Fitting the 'fitted' evaluator (3 players):", flush=True)
        return {"fit": _fit(game, args.games or FIT_GAMES, jobs=args.jobs)}
    if args.only == "readings":
        return {"readings": _readings(game, games)}
    return {"lengths": _lengths(game, games, search_games, sims=args.sims, jobs=args.jobs)}


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print one line per claim."""
    args = _parser().parse_args(argv)
    quick = args.quick
    games = args.games or (12 if quick else 40)
    search_games = args.search_games or (2 if quick else 4)
    game = CytressGame()
    out: dict[str, Any] = {"quick": quick}

    _OPTIONS["search"] = with_options(SEARCH_OPTIONS, evaluator=args.evaluator)
    parts = ("engine", "solver", "lengths", "readings", "fit")
    name = f"cytress-{args.only}.json" if args.only in parts else "cytress.json"
    path = Path(__file__).parent / "results" / name
    path.parent.mkdir(parents=True, exist_ok=True)

    def save() -> None:  # after every part, so a long run stopped early keeps what it measured
        path.write_text(json.dumps(out, indent=1, default=str) + "\n")

    if args.only in ("fit", "readings", "lengths"):
        out.update(_one_part(game, args, games, search_games))
    if args.only not in ("solver", "fit", "readings", "lengths"):
        out["engine"] = _engine(game, quick)
        save()
    if args.only in ("engine", "fit", "readings", "lengths"):
        save()
        print(f"wrote {path}")
        return 0

    print("Solver (CP-SAT against brute force, same instances):", flush=True)
    out["solver"] = [_solver_ratio(game, 2 if quick else 4, 2)]
    if not quick:
        out["solver"].append(_solver_ratio(game, 4, 3))
    save()
    if args.only == "solver":
        print(f"wrote {path}")
        return 0

    out["search"] = {
        "simulations_solo": args.solo_sims,
        "simulations_3_players": args.sims,
        "options": repr(_OPTIONS["search"]),
    }
    out["matches"] = []
    sims, matches = (args.solo_sims, args.sims), out["matches"]
    _matches(game, games, search_games, sims=sims, jobs=args.jobs, matches=matches, save=save, only=args.only)
    if not args.only:
        out["lengths"] = _lengths(game, games, search_games, sims=args.sims, jobs=args.jobs)
    out["complete"] = True
    save()
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
