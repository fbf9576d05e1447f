"""CyberVerse / New Eden (The Red Joker): the rules engine, content pack and face."""

from games.cyberverse.game import CyberverseGame

__all__ = ["CyberverseGame"]
