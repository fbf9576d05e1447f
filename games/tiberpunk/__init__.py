"""Tiberpunk: Streets of Rome — the complete rules engine on a networkx district graph.

The rules' hot path (:data:`COMPILED`) runs compiled with mypyc when ``make fast`` built it from
these very sources (docs/compiled.md); otherwise, or with ``LICTOR_PURE=1``, it runs as Python.
"""

from games.core import compiled as _compiled

COMPILED = (
    "abilities",
    "actions",
    "combat",
    "dice",
    "end",
    "favor",
    "gadgets",
    "interactions",
    "methods",
    "movement",
    "objectives",
    "parts",
    "quests",
    "rules",
    "setup",
    "spaceships",
    "structures",
    "tables",
    "turn",
)
"""The modules compiled by ``make fast``: the rules (one class per rulebook section, a line of single
inheritance ending in :class:`~games.tiberpunk.rules.Rules`: mypyc compiles no other), their tables,
the action codes and the dice. ``state.py`` stays Python: mypyc records a record's field annotations
as bare classes (``tuple[int, ...]`` becomes ``tuple``), and the codec reads them. ``board.py``
(networkx, used at load only), ``content.py``, ``game.py``, ``hidden.py``, the AI and the faces stay
Python too."""

_compiled.activate(__name__, __path__, COMPILED, package_file=__file__)

from games.tiberpunk.board import Board, District  # noqa: E402
from games.tiberpunk.content import Content, load_content  # noqa: E402
from games.tiberpunk.game import TiberpunkGame  # noqa: E402
from games.tiberpunk.state import State  # noqa: E402

__all__ = ["COMPILED", "Board", "Content", "District", "State", "TiberpunkGame", "load_content"]
