"""Twilight Imperium 4: the galaxy setup (Living Rules Reference) as a game, the home-value measure,
the TTS map string and the legality checker.

The rules' hot path (:data:`COMPILED`) runs compiled with mypyc when ``make fast`` built it from
these very sources (docs/compiled.md); otherwise, or with ``LICTOR_PURE=1``, it runs as Python.
"""

from games.core import compiled as _compiled

COMPILED = ("finish", "flow", "objectives", "placement", "setup")
"""The modules compiled by ``make fast``: a random playout's path (the phases, the placements and their
legality, the deal, the end of the setup). ``state.py`` stays Python: mypyc records a record's field
annotations as bare classes (``tuple[int, ...]`` becomes ``tuple``), and msgspec and the codecs read
them. ``content.py`` (frozen dataclasses read everywhere), ``milty.py``, ``hidden.py`` and the
measures stay Python too: a playout spends little time there."""

_compiled.activate(__name__, __path__, COMPILED, package_file=__file__)

from games.ti4.game import TI4Game  # noqa: E402
from games.ti4.state import TI4Action, TI4State  # noqa: E402

__all__ = ["COMPILED", "TI4Action", "TI4Game", "TI4State"]
