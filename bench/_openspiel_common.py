"""What the parts of ``bench.search_vs_openspiel`` share: the game, the mid-game positions, and our
search options from the command line."""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any

from rich.console import Console

from games.core import CHANCE, TERMINAL, Game, GameConfig, derive_seed, game_names, get_game
from search import SearchOptions

console = Console() if sys.stdout.isatty() else Console(width=160)  # logs keep whole table rows


def pick_game(name: str | None) -> tuple[Game[Any, Any], str]:
    """The benchmark game and a note on which one it is."""
    if name and name != "pig":
        return get_game(name), f"{name} (requested)"
    if name is None and "tiberpunk" in game_names():
        return get_game("tiberpunk"), "tiberpunk"
    from tests.fixtures.pig import PigGame

    why = "requested" if name == "pig" else "tiberpunk is not registered yet"
    return PigGame(), f"FIXTURE Hidden Pig ({why})"


def midgame_positions(game: Game[Any, Any], players: int, count: int, seed: int) -> list[Any]:
    """Decision positions with a real choice (>= 2 moves) from the middle third of random games."""
    out: list[Any] = []
    for k in range(count * 3):
        if len(out) >= count:
            break
        rng = random.Random(derive_seed(seed, "mid", k))
        state = game.new_state(GameConfig(players=players), derive_seed(seed, "setup", k))
        trail = []
        while game.current_player(state) != TERMINAL:
            p = game.current_player(state)
            if p >= 0 and len(game.legal_actions(state)) >= 2:  # a real choice (no forced move)
                trail.append(state)
            a = game.sample_chance(state, rng) if p == CHANCE else rng.choice(list(game.legal_actions(state)))
            state = game.apply(state, a)
        if len(trail) >= 3:
            out.append(trail[len(trail) // 3 + rng.randrange(max(1, len(trail) // 3))])
    return out


def depth_label(depth: int | None) -> str:
    """How a rollout depth reads in the tables."""
    return "full rollout" if depth is None else f"cut-off at depth {depth}"


def our_options(depth: int | None, args: argparse.Namespace, **changes: Any) -> SearchOptions:
    """Our search options: the command line's rollout ``depth`` and exploration constants, the
    library's defaults otherwise (but for ``changes``)."""
    return SearchOptions(rollout_depth=depth, uct_c=args.uct_c, puct_c=args.puct_c, **changes)


def same_evaluator(depth: int | None, args: argparse.Namespace) -> SearchOptions:
    """Our options for the speed rows: leaves scored as OpenSpiel's evaluator scores them (a leaf
    where dice are to roll by the heuristic of that position: ``chance_leaf_samples=0``; our default
    scores it after the roll, a few heuristic calls more, see docs/search.md)."""
    return our_options(depth, args, chance_leaf_samples=0)
