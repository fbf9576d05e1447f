"""Tiberius Who?: the rules engine, exact scoring and the reference content pack."""

from games.tiberius.game import TiberiusGame
from games.tiberius.model import TAction, TiberiusState

__all__ = ["TAction", "TiberiusGame", "TiberiusState"]
