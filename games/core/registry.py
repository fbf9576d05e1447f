"""The registry of games. A game is named by its key and built lazily from its module.

``get_game(name)`` returns the game with its reference content pack (cached);
``get_game(name, content_path=DIR)`` loads a user's pack from ``DIR`` instead.
"""

from __future__ import annotations

import importlib
from functools import lru_cache
from typing import Any

from games.core.protocol import Game, GameInfo
from games.errors import UnknownGameError

__all__ = ["game_names", "get_game", "list_games"]

# name -> "module:class". The class takes ``content_path`` as a keyword ("" = reference pack).
_GAMES: dict[str, str] = {
    "tiberpunk": "games.tiberpunk:TiberpunkGame",
    "tiberius": "games.tiberius:TiberiusGame",
}


def game_names() -> list[str]:
    """Registered game names, sorted."""
    return sorted(_GAMES)


@lru_cache(maxsize=32)
def get_game(name: str, *, content_path: str = "") -> Game[Any, Any]:
    """The game registered as ``name``; raises ``UnknownGameError`` naming the known games."""
    try:
        target = _GAMES[name]
    except KeyError:
        raise UnknownGameError(f"no game named {name!r}; known games: {game_names()}", field="game") from None
    module_name, _, attr = target.partition(":")
    cls = getattr(importlib.import_module(module_name), attr)
    game: Game[Any, Any] = cls(content_path=content_path)
    return game


def list_games() -> list[GameInfo]:
    """``GameInfo`` of every registered game, by name."""
    return [get_game(name).info for name in game_names()]
