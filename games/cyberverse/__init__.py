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
    "engine",
    "events",
    "flow",
    "hidden",
    "investigation",
    "modifiers",
    "policies",
    "scoring",
    "stories",
    "strategy",
    "work",
)
"""The modules compiled by ``make fast`` (``state.py`` never: its builders assign ``__class__``
between twin slot classes, which a compiled class does not allow)."""

_compiled.activate(__name__, __path__, COMPILED, package_file=__file__)

from games.cyberverse.game import CyberverseGame  # noqa: E402

__all__ = ["COMPILED", "CyberverseGame"]
