"""CyberVerse / New Eden (The Red Joker): the rules engine, content pack and face.

The rules' hot path (:data:`COMPILED`) runs compiled with mypyc when ``make fast`` built it from
these very sources (docs/compiled.md); otherwise, or with ``LICTOR_PURE=1``, it runs as Python.
"""

from games.core import compiled as _compiled

COMPILED = (
    "activation",
    "agents",
    "board",
    "combat",
    "damage",
    "engine",
    "events",
    "flow",
    "henchmen",
    "hidden",
    "investigation",
    "modifiers",
    "policies",
    "positions",
    "scoring",
    "stories",
    "strategy",
    "work",
)
"""The modules compiled by ``make fast``: the rules' hot path and what the AI calls at every node.
``state.py`` stays Python: its records are ``msgspec`` structs, ordinary Python classes to the
compiled code (docs/compiled.md)."""

_compiled.activate(__name__, __path__, COMPILED, package_file=__file__)

from games.cyberverse.game import CyberverseGame  # noqa: E402

__all__ = ["COMPILED", "CyberverseGame"]
