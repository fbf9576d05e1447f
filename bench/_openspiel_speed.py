"""Part 1 of ``bench.search_vs_openspiel`` (its docstring describes it): simulations per second,
ours against OpenSpiel's, and the deadline overshoot."""

from __future__ import annotations

import argparse
import gc
import math
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from open_spiel.python.algorithms import ismcts
from rich.table import Table

from batch.openspiel import (
    HeuristicRolloutEvaluator,
    LictorSpielGame,
    make_mcts_bot,
    make_spiel_game,
    resampler,
)
from bench._openspiel_common import depth_label, our_options, same_evaluator
from games.core import CHANCE, TERMINAL, Game
from search import SearchLimit, SearchOptions, analyze, full_collections_deferred
from search.mcts import rollout


def os_rate(bot: Any, spiel: LictorSpielGame, state: Any, simulations: int) -> float:
    """OpenSpiel's simulations per CPU second on ``state`` for a search of ``simulations`` (as many
    as ours ran: a search's cost per simulation grows with its tree, so both are timed on trees of
    one size; timing OpenSpiel for the same wall time instead, with its count calibrated on 20
    simulations, made its rate swing by 1.6x between runs).

    It runs with the collector's full collections deferred, as ours does by default
    (``SearchOptions.defer_full_gc``): one collector regime for both.
    """
    wrapped = spiel.wrap(state)
    sims = max(1, simulations)
    bot.max_simulations = bot._max_simulations = sims  # MCTSBot's and ISMCTSBot's spellings
    with full_collections_deferred():
        t = time.process_time()
        bot.step(wrapped)
        return sims / max(time.process_time() - t, 1e-6)


def our_rate(game: Game[Any, Any], state: Any, **kwargs: Any) -> tuple[float, int]:
    """Our simulations per CPU second of this process for one ``analyze`` call (one process), and
    the simulations it ran."""
    t = time.process_time()
    a = analyze(game, state, **kwargs)
    return a.simulations / max(time.process_time() - t, 1e-6), a.simulations


def rollout_cost(game: Game[Any, Any], state: Any, depth: int | None, seed: int, count: int = 200) -> float:
    """CPU seconds of one cut-off rollout plus its heuristic (the evaluator both searches share) from
    leaves one to three random actions below ``state``, with the game's evaluation caches warm (a
    second pass over the same leaves): a floor under either side's time per simulation, so
    ``OpenSpiel's time per simulation / this`` caps the speed ratio any search can reach."""
    rng = random.Random(seed)
    leaves = []
    for _ in range(count):
        s = state
        for _ in range(rng.randint(1, 3)):
            p = game.current_player(s)
            if p == TERMINAL:
                break
            s = game.apply_trusted(
                s, game.sample_chance(s, rng) if p == CHANCE else rng.choice(list(game.legal_actions(s)))
            )
        leaves.append(s)
    t = 0.0
    for _pass in (1, 2):  # the game caches its evaluations: the second (warm) pass is the one timed
        t = time.process_time()
        for s in leaves:
            p = game.current_player(s)
            if p != TERMINAL:
                rollout(game, s, rng, player=p, legal=None, depth=depth, end=math.inf)
    return (time.process_time() - t) / count


def speed(game: Game[Any, Any], positions: list[Any], args: argparse.Namespace) -> dict[str, Any]:
    """Simulations/s: ours vs OpenSpiel on the same positions and evaluator, and with 1 and 2 workers.

    The ours-vs-OpenSpiel cells are the mean over the positions of simulations per CPU second of
    this process for one search of ``--speed-time`` wall seconds (OpenSpiel: a search of as many
    simulations as ours ran, so both trees are of one size), so other work on the shared cores
    slows neither side's rate (both run in this process, one after the other). The 1- and 2-worker
    rows are simulations per wall second (worker processes' CPU is not this process's): they do feel
    the machine's load.
    """
    players = game.num_players(positions[0])
    spiel = make_spiel_game(game, players, positions[0])
    t = args.speed_time
    lim = SearchLimit(time_s=t)
    rows: dict[str, list[float]] = {}

    def add(key: str, value: float) -> None:
        rows.setdefault(key, []).append(value)

    depths: list[int | None] = list(dict.fromkeys([args.depth, args.compare_depth, None]))
    cutoffs = [d for d in depths if d is not None]  # ISMCTS and worker rows: the cut-off depths
    for i, state in enumerate(positions):
        for depth in depths:
            label = depth_label(depth)
            opts = same_evaluator(depth, args)
            # warm the game's own caches (priors, potentials) first: the first search of a position
            # would fill them for whichever side runs second
            analyze(game, state, limit=SearchLimit(time_s=t / 2), seed=i, options=opts, algorithm="mcts")
            rate, sims = our_rate(game, state, limit=lim, seed=i, options=opts, algorithm="mcts")
            add(f"ours mcts {label}", rate)
            bot = make_mcts_bot(
                spiel, depth=depth, uct_c=args.uct_c, puct_c=args.puct_c, simulations=20, seed=i
            )
            add(f"openspiel mcts {label}", os_rate(bot, spiel, state, sims))
            add(f"rollout s {label}", rollout_cost(game, state, depth, i))
        for depth in cutoffs:
            _cutoff_rows(game, spiel, state, i=i, depth=depth, args=args, add=add)
    return {k: float(np.mean(v)) for k, v in rows.items()}


def _cutoff_rows(
    game: Game[Any, Any],
    spiel: LictorSpielGame,
    state: Any,
    *,
    i: int,
    depth: int,
    args: argparse.Namespace,
    add: Callable[[str, float], None],
) -> None:
    """The rows of :func:`speed` at a cut-off ``depth`` on position ``i``: ISMCTS against
    ``ISMCTSBot`` (hidden information), ours with 1 and 2 workers, and ours with our default
    evaluator."""
    t = args.speed_time
    lim = SearchLimit(time_s=t)
    opts = same_evaluator(depth, args)
    label = depth_label(depth)
    if game.info.hidden_information:
        warm = SearchLimit(time_s=t / 2)
        analyze(game, state, limit=warm, seed=i, options=opts, algorithm="ismcts")
        rate, sims = our_rate(game, state, limit=lim, seed=i, options=opts, algorithm="ismcts")
        add(f"ours ismcts {label}", rate)
        ib = ismcts.ISMCTSBot(
            spiel,
            HeuristicRolloutEvaluator(depth, i),
            args.uct_c,
            20,
            random_state=np.random.RandomState(i),
        )
        ib.set_resampler(resampler(spiel, random.Random(i)))
        add(f"openspiel ismcts {label}", os_rate(ib, spiel, state, sims))
    for algo in ("mcts", "ismcts") if game.info.hidden_information else ("mcts",):
        for workers in (1, 2):
            a = analyze(game, state, limit=lim, seed=i, options=opts, workers=workers, algorithm=algo)
            add(f"workers {workers} {algo} {label}", a.simulations / a.elapsed_s)
        if depth == args.depth:  # our default evaluator (dice leaves scored after the roll)
            a = analyze(game, state, limit=lim, seed=i, options=our_options(depth, args), algorithm=algo)
            add(f"default {algo} {label}", a.simulations / a.elapsed_s)


def deadline_overshoot(
    game: Game[Any, Any], positions: list[Any], args: argparse.Namespace
) -> dict[str, Any]:
    """How far past an absolute deadline each search returns (issue 4: within 50 ms of the bound).

    Every search gets ``deadline = now + --deadline-time`` and no simulation cap; the overshoot is the
    wall time from the call to the returned result minus the budget (analysis building included), in
    ms. Several searches per setting: every position, three times (seeds 0, 1, 2); and once per
    position with a deadline ten times as far (a bigger tree). Every setting runs three ways, each
    from a freshly collected heap:

    - the baseline, ``defer_full_gc=False``: the collector as this process has it, where a full
      collection walks the whole heap (this process's modules: OpenSpiel, numpy, rich, and the
      tree), about 40 ms or more, and can land at a deadline;
    - as the library runs by default: the collector's full collections are deferred while a search
      runs (``SearchOptions.defer_full_gc``);
    - with the loaded heap frozen by the process itself (``gc.freeze``), as ``lictor serve`` does.

    A full collection landing at the deadline is rare in a dozen searches, so the table also counts
    this process's full (generation 2) collections while each setting's searches ran (in this
    process: a worker's are not seen) and the longest one: the pause a search can be held past its
    deadline.
    """
    short = args.deadline_time
    long = 10 * short  # a bigger tree: its own full collections take longer
    # (algorithm, label, rollout depth, workers, budget, searches per position)
    settings: list[tuple[str, str, int | None, int, float, int]] = [
        ("mcts", depth_label(args.depth), args.depth, 1, short, 3),
        ("mcts", depth_label(None), None, 1, short, 3),
        ("mcts", depth_label(args.depth), args.depth, 2, short, 3),
        ("mcts", depth_label(args.depth), args.depth, 1, long, 1),
    ]
    if game.info.hidden_information:
        settings.insert(2, ("ismcts", depth_label(args.depth), args.depth, 1, short, 3))
    out: dict[str, Any] = {}
    watch = _FullCollections()
    gc.callbacks.append(watch.on_gc)
    modes = ((", defer_full_gc off (baseline)", False), ("", True), (", heap frozen by the process", True))
    for mode, defer in modes:
        time.sleep(0.2)  # the janitor thread frees the last trees
        gc.collect()  # every mode starts from the same collected heap
        if mode.endswith("by the process"):  # as `lictor serve` runs (service.server.tune_gc)
            gc.freeze()
        for algo, label, depth, workers, budget, repeat in settings:
            opts = our_options(depth, args, defer_full_gc=defer)
            key = f"{algo.upper()}, {label}, {workers} process{'es' if workers > 1 else ''}"
            if budget != short:
                key += f", {budget:.0f} s deadline"
            out[key + mode] = _overshoot(
                game, positions, opts, watch, algorithm=algo, workers=workers, budget=budget, repeat=repeat
            )
    gc.callbacks.remove(watch.on_gc)
    gc.unfreeze()
    return out


def _overshoot(
    game: Game[Any, Any],
    positions: list[Any],
    opts: SearchOptions,
    watch: _FullCollections,
    *,
    algorithm: str,
    workers: int,
    budget: float,
    repeat: int,
) -> dict[str, Any]:
    """One row of :func:`deadline_overshoot`: ``repeat`` searches of each position ``i`` (seeds
    ``3 * i``, ``3 * i + 1``, ...), each with an absolute deadline ``budget`` seconds away, and the
    full collections that ran during them."""
    over: list[float] = []
    watch.pauses.clear()
    for i, state in enumerate(positions):
        for seed in range(repeat):
            t0 = time.monotonic()
            lim = SearchLimit(deadline=t0 + budget)
            with watch:
                analyze(
                    game,
                    state,
                    limit=lim,
                    seed=seed + 3 * i,
                    options=opts,
                    workers=workers,
                    algorithm=algorithm,
                )
            over.append(1000 * (time.monotonic() - t0 - budget))
    return {
        "searches": len(over),
        "p50_ms": float(np.percentile(over, 50)),
        "max_ms": float(max(over)),
        "full_collections": len(watch.pauses),
        "longest_full_collection_ms": float(max(watch.pauses, default=0.0)),
    }


class _FullCollections:
    """The full (generation 2) collections of this process while a search runs (``with watch:``
    around it; collections between searches are not counted).

    Attributes:
        pauses: each one's length, ms.
    """

    def __init__(self) -> None:
        self.pauses: list[float] = []
        self._began = 0.0
        self._inside = False

    def __enter__(self) -> None:
        self._inside = True

    def __exit__(self, *exc: object) -> None:
        self._inside = False

    def on_gc(self, phase: str, info: dict[str, int]) -> None:
        """The collector's callback (``gc.callbacks``)."""
        if info["generation"] == 2 and self._inside:
            if phase == "start":
                self._began = time.perf_counter()
            else:
                self.pauses.append(1000 * (time.perf_counter() - self._began))


def overshoot_table(ov: dict[str, Any], budget: float) -> Table:
    """The deadline overshoot table."""
    table = Table(title=f"deadline overshoot: return time past a {budget:.2f} s absolute deadline")
    for col in ("search", "searches", "p50 ms", "max ms", "full collections", "longest ms", "target"):
        table.add_column(col)
    for key, r in ov.items():
        table.add_row(
            key,
            str(r["searches"]),
            f"{r['p50_ms']:.1f}",
            f"{r['max_ms']:.1f}",
            str(r["full_collections"]),
            f"{r['longest_full_collection_ms']:.1f}",
            "<= 50 ms",
        )
    return table


def speed_table(sp: dict[str, Any], args: argparse.Namespace) -> tuple[Table, dict[str, float]]:
    """The speed table and the ratios it shows."""
    table = Table(title="simulations per second (per CPU second; workers: per wall second), same engine")
    for col in ("measure", "ours", "OpenSpiel", "ratio", "ceiling", "target"):
        table.add_column(col)
    ratios: dict[str, float] = {}
    for algo in ("mcts", "ismcts"):
        for key in sorted(k for k in sp if k.startswith(f"ours {algo} ")):
            label = key.removeprefix(f"ours {algo} ")
            theirs = sp.get(f"openspiel {algo} {label}")
            if theirs:
                ratio = sp[key] / theirs
                ratios[f"{algo} {label}"] = ratio
                target = ">= 3x" if algo == "mcts" else ""
                shared = sp.get(f"rollout s {label}")
                ceiling = ""
                if algo == "mcts" and shared:  # their time per simulation over the shared rollout's
                    ratios[f"{algo} {label} ceiling"] = 1 / (theirs * shared)
                    ceiling = f"{1 / (theirs * shared):.2f}x"
                table.add_row(
                    f"{algo.upper()}, {label}",
                    f"{sp[key]:,.0f}",
                    f"{theirs:,.0f}",
                    f"{ratio:.2f}x",
                    ceiling,
                    target,
                )
    for algo in ("mcts", "ismcts"):
        for depth in dict.fromkeys([args.depth, args.compare_depth]):
            label = depth_label(depth)
            one, two = sp.get(f"workers 1 {algo} {label}"), sp.get(f"workers 2 {algo} {label}")
            if not one or not two:
                continue
            row = f"{algo.upper()}, {label}"
            table.add_row(f"ours, 1 process ({row})", f"{one:,.0f}", "", "", "", ">= 1,000")
            table.add_row(
                f"ours, 2 processes ({row})", f"{two:,.0f}", "", f"{two / one:.2f}x vs 1", "", ">= 5,000"
            )
            ratios[f"{algo} {label} 2 workers vs 1"] = two / one
            mine = sp.get(f"default {algo} {label}")
            if mine:
                table.add_row(
                    f"ours, 1 process ({row}, dice leaves scored after the roll: the default)",
                    f"{mine:,.0f}",
                    "",
                    f"{mine / one:.2f}x vs 1",
                    "",
                    ">= 1,000",
                )
    return table, ratios
