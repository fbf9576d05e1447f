"""Tiberius Who?: the rules engine, exact scoring and the reference content pack.

The rules' hot path (:data:`COMPILED`) runs compiled with mypyc when ``make fast`` built it from
these very sources (docs/compiled.md); otherwise, or with ``LICTOR_PURE=1``, it runs as Python.
"""

from games.core import compiled as _compiled

COMPILED = ("rules", "scoring", "setup")
"""The modules compiled by ``make fast``: the rules of a turn, the setup and the exact scoring.
``model.py`` stays Python: it defines the records, and mypyc records a record's field annotations as
bare classes (``tuple[int, ...]`` becomes ``tuple``), which msgspec and the public form read."""

_compiled.activate(__name__, __path__, COMPILED, package_file=__file__)

from games.tiberius.game import TiberiusGame  # noqa: E402
from games.tiberius.model import TAction, TiberiusState  # noqa: E402

__all__ = ["COMPILED", "TAction", "TiberiusGame", "TiberiusState"]
