"""Write every built-in game's JSON Schemas into ``docs/schemas/`` (``python -m games.core.schemas``).

``<game>.state.json`` is the schema of the public state form (``Game.state_schema``) and
``<game>.score-sheet.json`` that of the short end-of-game form (``Game.score_sheet_schema``), when
the game has one. tests/core/test_schemas.py checks that the files are the code's and that states
from random play validate against them.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from games.core.registry import BUILTIN_GAMES, get_game

__all__ = ["DOCS", "main", "schema_files"]

DOCS = Path(__file__).resolve().parents[2] / "docs" / "schemas"
"""Where the schemas are published."""


def _text(schema: Any) -> str:
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def schema_files() -> dict[str, str]:
    """File name -> content, for every built-in game."""
    out = {}
    for name in sorted(BUILTIN_GAMES):
        game = get_game(name)
        out[f"{name}.state.json"] = _text(game.state_schema())
        sheet = game.score_sheet_schema()
        if sheet is not None:
            out[f"{name}.score-sheet.json"] = _text(sheet)
    return out


def main(argv: list[str] | None = None) -> int:
    """Write the files (into the directory given, else docs/schemas)."""
    args = sys.argv[1:] if argv is None else argv
    target = Path(args[0]) if args else DOCS
    target.mkdir(parents=True, exist_ok=True)
    for name, text in schema_files().items():
        (target / name).write_text(text)
        print(f"wrote {target / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
