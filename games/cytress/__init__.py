"""Cytress: the rules engine for 1-5 players, the solo automa, and the reference content pack."""

from games.cytress.game import CytressGame
from games.cytress.state import CAction, CytressState

__all__ = ["CAction", "CytressGame", "CytressState"]
