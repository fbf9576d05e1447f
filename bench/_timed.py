"""A bot's time per move, for the benches that play at equal time (no OpenSpiel needed)."""

from __future__ import annotations

import time
from typing import Any

from games.core import Game

__all__ = ["TimedBot"]


class TimedBot:
    """Wraps a bot to record its time (and a search's simulations) per move with a choice; forced
    moves are not counted."""

    def __init__(self, game: Game[Any, Any], bot: Any) -> None:
        self.game = game
        self.bot = bot
        self.name = bot.name
        self.times: list[float] = []
        self.simulations: list[int] = []

    def act(self, state: Any) -> Any:
        forced = len(self.game.legal_actions(state)) == 1
        t = time.perf_counter()
        action = self.bot.act(state)
        if not forced:
            self.times.append(time.perf_counter() - t)
            last = getattr(self.bot, "last", None)
            if last is not None:
                self.simulations.append(last.simulations)
        return action
