"""Part 2 of ``bench.search_vs_openspiel`` (its docstring describes it): head-to-head games against
OpenSpiel's MCTSBot, greedy and random, seats swapped."""

from __future__ import annotations

import argparse
import multiprocessing as mp
import random
import time
from types import SimpleNamespace
from typing import Any, NamedTuple

import numpy as np
from rich.progress import Progress

from batch.openspiel import LictorSpielGame, make_mcts_bot, make_spiel_game
from bench._openspiel_common import our_options, pick_game
from bench._stats import wilson
from bench._timed import TimedBot
from games.core import CHANCE, TERMINAL, Game, GameConfig, derive_seed
from search import GreedyBot, RandomBot, SearchBot, SearchLimit


class OpenSpielPlayer:
    """OpenSpiel's MCTSBot with the same wall time per move as ours: a deadline ``move_time`` after
    the call, checked between its simulations (:class:`DeadlineMCTSBot`). A forced move is played at
    once, as ours is (MCTSBot keeps no tree between moves, so this changes none of its choices).
    ``last.simulations`` is the last search's count, as on a ``SearchBot``'s analysis."""

    def __init__(
        self,
        game: Game[Any, Any],
        spiel: LictorSpielGame,
        *,
        move_time: float,
        depth: int,
        uct_c: float,
        puct_c: float,
        seed: int,
    ) -> None:
        self.name = "openspiel-mcts"
        self.game = game
        self.spiel = spiel
        self.move_time = move_time
        self.bot = make_mcts_bot(spiel, depth=depth, uct_c=uct_c, puct_c=puct_c, simulations=10, seed=seed)
        self.last: SimpleNamespace | None = None

    def act(self, state: Any) -> Any:
        legal = self.game.legal_actions(state)
        if len(legal) == 1:
            return legal[0]
        root = self.bot.search_until(self.spiel.wrap(state), time.perf_counter() + self.move_time)
        self.last = SimpleNamespace(simulations=root.explore_count)
        return self.spiel.codec.decode(root.best_child().action)  # MCTSBot.step's pick


def play(game: Game[Any, Any], bots: list[Any], players: int, seed: int) -> tuple[tuple[float, ...], Any]:
    """One game from the setup of ``seed``; chance by a seeded RNG. Returns the returns and the
    final state."""
    rng = random.Random(derive_seed(seed, "dice"))
    state = game.new_state(GameConfig(players=players), seed)
    while True:
        p = game.current_player(state)
        if p == TERMINAL:
            return tuple(float(x) for x in game.returns(state)), state
        action = game.sample_chance(state, rng) if p == CHANCE else bots[p].act(state)
        state = game.apply(state, action)  # a bot's move comes from outside: the checked path


def game_length(state: Any) -> tuple[int | None, bool]:
    """Rounds played and whether the engine's round cap ended the game (Tiberpunk-style states with
    ``rnd`` and ``cfg.max_rounds``; None and False for other games)."""
    rounds = getattr(state, "rnd", None)
    cap = getattr(getattr(state, "cfg", None), "max_rounds", 0)
    capped = bool(cap) and rounds is not None and rounds >= cap and not getattr(state, "end", True)
    return rounds, capped


_SPIEL: dict[str, LictorSpielGame] = {}


def _opponent(kind: str, game: Game[Any, Any], args: argparse.Namespace, seed: int) -> TimedBot:
    """The opponent's bot for a match of ``kind``, timed."""
    bot: Any
    if kind == "openspiel":
        spiel = _SPIEL.get(game.info.name)
        if spiel is None:
            spiel = _SPIEL[game.info.name] = make_spiel_game(
                game, 2, game.new_state(GameConfig(players=2), 0)
            )
        bot = OpenSpielPlayer(
            game,
            spiel,
            move_time=args.move_time,
            depth=args.depth,
            uct_c=args.uct_c,
            puct_c=args.puct_c,
            seed=seed,
        )
    elif kind == "greedy":
        bot = GreedyBot(game, seed=seed)
    else:
        bot = RandomBot(game, seed=seed)
    return TimedBot(game, bot)


def our_limit(kind: str, args: argparse.Namespace) -> SearchLimit:
    """Our budget per move: OpenSpiel's wall time against OpenSpiel; a simulation count (capped in
    time) against the baselines, so that a loaded machine does not decide those results."""
    if kind == "openspiel":
        return SearchLimit(time_s=args.move_time)
    sims = args.sims_per_move if kind == "greedy" else args.sims_vs_random
    return SearchLimit(simulations=sims, time_s=args.baseline_time_cap)


def play_pair_game(
    job: tuple[str, str, int, argparse.Namespace],
) -> tuple[float, list[float], list[float], list[int], list[int], Any]:
    """Game ``n`` of a match (run in a worker process): games ``2k`` and ``2k+1`` share the setup
    and the dice seed, with the seats swapped. Returns (our score, our and their seconds per move
    with a choice, our and their simulations per such move (searches only), (rounds, capped))."""
    kind, ours_algorithm, n, args = job
    game, _ = pick_game(args.game)
    seed = derive_seed(args.seed, kind, n)
    opts = our_options(args.depth, args)
    ours = TimedBot(
        game, SearchBot(game, limit=our_limit(kind, args), options=opts, seed=seed, algorithm=ours_algorithm)
    )
    theirs = _opponent(kind, game, args, seed)
    seat = n % 2
    bots = [ours, theirs] if seat == 0 else [theirs, ours]
    result, final = play(game, bots, 2, derive_seed(args.seed, "setup", n // 2))
    return result[seat], ours.times, theirs.times, ours.simulations, theirs.simulations, game_length(final)


def match(
    kind: str,
    label: str,
    *,
    args: argparse.Namespace,
    budget_s: float | None,
    progress: Progress,
    games: int,
    ours_algorithm: str = "auto",
) -> dict[str, Any]:
    """Ours vs an opponent, seats swapped every game, until ``games`` or the time budget.

    ``args.jobs`` games run at once in worker processes (each move still gets its wall time). The
    result lists every game's score in game order (``scores``), so runs can be compared game by game.
    """
    task = progress.add_task(label, total=games)
    start = time.monotonic()
    scores: list[float] = []
    our_times: list[float] = []
    their_times: list[float] = []
    our_sims: list[int] = []
    their_sims: list[int] = []
    rounds: list[int] = []
    capped = 0
    jobs = ((kind, ours_algorithm, i, args) for i in range(games))
    ctx = mp.get_context("fork")
    with ctx.Pool(max(1, args.jobs)) as pool:
        for result, ours_t, theirs_t, ours_n, theirs_n, (rnd, cap) in pool.imap(play_pair_game, jobs):
            scores.append(result)
            if rnd is not None:
                rounds.append(rnd)
            capped += cap
            our_times += ours_t
            their_times += theirs_t
            our_sims += ours_n
            their_sims += theirs_n
            progress.update(task, advance=1, description=f"{label}: {sum(scores):.1f}/{len(scores)}")
            if budget_s is not None and len(scores) >= 2 and time.monotonic() - start > budget_s:
                pool.terminate()
                break
    score, n = sum(scores), len(scores)
    lo, hi = wilson(score, n)
    return {
        "opponent": label,
        "games": n,
        "score": score,
        "win_rate": score / n if n else 0.0,
        "ci95": [lo, hi],
        "our_algorithm": ours_algorithm,
        "our_s_per_move": float(np.mean(our_times)) if our_times else 0.0,
        "our_choices_per_game": len(our_times) / n if n else 0.0,
        "rounds_per_game": float(np.mean(rounds)) if rounds else None,
        "games_at_round_cap": capped,
        "their_s_per_move": float(np.mean(their_times)) if their_times else 0.0,
        "our_sims_per_move": float(np.mean(our_sims)) if our_sims else None,
        "their_sims_per_move": float(np.mean(their_sims)) if their_sims else None,
        "wall_s": time.monotonic() - start,
        "scores": scores,
    }


class Opponent(NamedTuple):
    """A head-to-head opponent: its label, target, the algorithm ours plays it with and the default
    number of games."""

    label: str
    target: str
    algorithm: str
    games: int


OPPONENTS = {
    # MCTSBot sees the full state: so does ours
    "openspiel": Opponent("vs OpenSpiel MCTSBot", ">= 65%", "mcts", 100),
    "greedy": Opponent("vs greedy", ">= 80%", "auto", 200),
    "random": Opponent("vs random", ">= 95%", "auto", 100),
}
"""Head-to-head opponents by kind. Against greedy the score has stood within a few points of its
target in every run, where a 100-game interval is +-8 points: 200 games narrow it to about +-5.5."""


def games_vs(kind: str, args: argparse.Namespace) -> int:
    """The games to play against ``kind``: ``--games`` if given, else the opponent's default."""
    return int(args.games) if args.games is not None else OPPONENTS[kind].games
