"""Helpers for the CyberVerse tests: play seeded random games to a chosen point, set up a Combat."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from games.core import CHANCE, TERMINAL, GameConfig
from games.core.records import replace
from games.cyberverse import CyberverseGame, combat
from games.cyberverse.state import INVESTIGATION, NO_CTX, STRATEGY, State, act
from games.cyberverse.work import Work


def play_until(
    game: CyberverseGame,
    players: int,
    seed: int,
    stop: Callable[[State], bool],
    limit: int = 20_000,
    *,
    options: Mapping[str, Any] | None = None,
) -> State:
    """A random game's first state where ``stop`` holds (seeds tried in turn until one reaches it)."""
    for k in range(50):
        s = game.new_state(GameConfig(players=players, options=dict(options or {})), seed + k)
        rng = random.Random(seed + k)
        for _ in range(limit):
            if stop(s):
                return s
            if game.current_player(s) == TERMINAL:
                break
            a = game.sample_chance(s, rng) if s.actor == CHANCE else rng.choice(list(game.legal_actions(s)))
            s = game.apply(s, a)
    raise AssertionError("no game reached the wanted state")


def combat_on(
    game: CyberverseGame,
    district: int,
    *,
    kits: Mapping[int, tuple[int, ...]] | None = None,
    options: Mapping[str, Any] | None = None,
) -> State:
    """A 2-player game at its first Strategy phase made the start of a Combat on ``district``
    (0-based): both Organizations' Agents on its Entry zone, no Henchman, no Ambush, the Brawl
    card about to be drawn. ``kits``: Supply tokens per Agent, by its place in Initiative order."""
    s = play_until(game, 2, 1, lambda s: s.phase == STRATEGY and s.actor >= 0, options=options)
    c = game.content_pack
    w = Work(s)
    entry = c.boards[w.city.boards[district]].entry
    for k, agent in enumerate(w.agents):
        w.set_agent(agent.sheet, district=district, zone=entry, spot=-1, status=(), broken=())
        if kits and k in kits:
            w.set_agent(agent.sheet, kit=kits[k])
    w.set_city(ambush=(-1,) * 5, henchmen=((),) * 5)
    w.phase = INVESTIGATION
    w.ctx = replace(NO_CTX, district=district, stage=1)
    w.fight = None
    assert combat.start(w, c, district)
    return w.freeze()


def draw(game: CyberverseGame, s: State, card_id: str) -> State:
    """Apply the chance draw of the card, token or sheet named ``card_id`` (its content id)."""
    for a in game.legal_actions(s):
        if a.kind == "draw" and card_id in game.action_to_text(s, a).split():
            return game.apply(s, a)
        if a.kind == "draw" and f"({card_id})" in game.action_to_text(s, a):
            return game.apply(s, a)
    raise AssertionError(
        f"no draw of {card_id} in {[game.action_to_text(s, a) for a in game.legal_actions(s)]}"
    )


__all__ = ["act", "combat_on", "draw", "play_until"]
