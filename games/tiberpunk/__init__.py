"""Tiberpunk: Streets of Rome — the complete rules engine on a networkx district graph."""

from games.tiberpunk.board import Board, District
from games.tiberpunk.content import Content, load_content
from games.tiberpunk.game import TiberpunkGame
from games.tiberpunk.state import State

__all__ = ["Board", "Content", "District", "State", "TiberpunkGame", "load_content"]
