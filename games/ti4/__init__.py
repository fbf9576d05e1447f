"""Twilight Imperium 4: the galaxy setup (Living Rules Reference) as a game, the home-value measure,
the TTS map string and the legality checker."""

from games.ti4.game import TI4Game
from games.ti4.state import TI4Action, TI4State

__all__ = ["TI4Action", "TI4Game", "TI4State"]
