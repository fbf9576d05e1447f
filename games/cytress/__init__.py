"""Cytress: the rules engine for 1-5 players, the solo automa, and the reference content pack.

The rules' hot path (:data:`COMPILED`) runs compiled with mypyc when ``make fast`` built it from
these very sources (docs/compiled.md); otherwise, or with ``LICTOR_PURE=1``, it runs as Python.
"""

from games.core import compiled as _compiled

COMPILED = (
    "automa",
    "board",
    "crews",
    "economy",
    "flow",
    "intel",
    "rules",
    "scouting",
    "travel",
    "tubes",
    "undercity",
    "work",
)
"""The modules compiled by ``make fast``: every rules module a playout runs (the automa, the
travel, the crews, tubes and stratolites, the economy, the flow and the mutable ``Work`` of one
apply). ``state.py`` stays Python: it defines the records, and mypyc records a record's field
annotations as bare classes (``tuple[int, ...]`` becomes ``tuple``), which msgspec and the public
form read (``Work`` is never read that way). ``game.py``, ``policies.py``, ``ai.py``, the codec and
the faces stay Python too."""

_compiled.activate(__name__, __path__, COMPILED, package_file=__file__)

from games.cytress.game import CytressGame  # noqa: E402
from games.cytress.state import CAction, CytressState  # noqa: E402

__all__ = ["COMPILED", "CAction", "CytressGame", "CytressState"]
