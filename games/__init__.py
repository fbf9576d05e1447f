"""Lictor's games: one package per game, plus ``games.core`` (the Game protocol) and ``games.errors``.

Nothing here imports the search, the solvers or the service.
"""

from games.core.registry import get_game, list_games

__all__ = ["get_game", "list_games"]
