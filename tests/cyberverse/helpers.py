"""Helpers for the CyberVerse tests: play seeded random games to a chosen point."""

from __future__ import annotations

import random
from collections.abc import Callable

from games.core import CHANCE, TERMINAL, GameConfig
from games.cyberverse import CyberverseGame
from games.cyberverse.state import State


def play_until(
    game: CyberverseGame, players: int, seed: int, stop: Callable[[State], bool], limit: int = 20_000
) -> State:
    """A random game's first state where ``stop`` holds (seeds tried in turn until one reaches it)."""
    for k in range(50):
        s = game.new_state(GameConfig(players=players), seed + k)
        rng = random.Random(seed + k)
        for _ in range(limit):
            if stop(s):
                return s
            if game.current_player(s) == TERMINAL:
                break
            a = game.sample_chance(s, rng) if s.actor == CHANCE else rng.choice(list(game.legal_actions(s)))
            s = game.apply(s, a)
    raise AssertionError("no game reached the wanted state")
