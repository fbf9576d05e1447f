"""One idiom for every game (issue 32, docs/state.md), checked on the sources.

Per game: no ``exec``, no ``__class__`` assignment, no index constants (``X._fields.index``), no
private name imported from another module, no complexity ``noqa``; modules at most 800 lines,
functions 60, classes 300; every rulebook section cited by rules code in exactly one module (faces,
notation, the public form, docs and tests may cite it anywhere); no module-level cache outside the
one cache facility, ``games/core/cache.py`` (no ``functools`` cache, no module-level empty dict, list
or set filled later).
"""

from __future__ import annotations

import ast
import json
import re
from collections import defaultdict
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SECTIONS = json.loads((REPO.parent / "shared" / "rules" / "sections.json").read_text())
GAMES = ["tiberpunk", "tiberius", "cytress", "cyberverse", "ti4"]
NOT_RULES = frozenset(
    {
        "__init__.py",
        "ai.py",
        "codec.py",
        "content.py",
        "face.py",
        "form.py",
        "game.py",
        "hidden.py",
        "notation.py",
        "policies.py",
        "public.py",
        "render.py",
        "schema.py",
        "validate.py",
    }
)
"""Modules that may cite a section without being where its rule lives."""
MAX_MODULE, MAX_FUNCTION, MAX_CLASS = 800, 60, 300
_COMPLEXITY_NOQA = re.compile(r"noqa: *(C901|PLR0912|PLR0915|PLR0914|PLR0917|PLR0911)")


def problems(game: str) -> dict[str, list[str]]:
    """What in ``games/<game>`` breaks the idiom, by kind."""
    out: dict[str, list[str]] = defaultdict(list)
    cites: dict[str, set[str]] = defaultdict(set)
    for path in sorted((REPO / "games" / game).rglob("*.py")):
        name = str(path.relative_to(REPO / "games" / game))
        text = path.read_text()
        if text.count("\n") > MAX_MODULE:
            out["module over 800 lines"].append(f"{name} ({text.count(chr(10))})")
        if _COMPLEXITY_NOQA.search(text):
            out["complexity noqa"].append(name)
        tree = ast.parse(text)
        for stmt in tree.body:
            if _module_cache(stmt):
                out["module-level cache"].append(f"{name}:{stmt.lineno}")
        for node in ast.walk(tree):
            out_of = _node_problem(node)
            if out_of:
                out[out_of[0]].append(f"{name}:{getattr(node, 'lineno', 0)} {out_of[1]}")
        if path.name not in NOT_RULES:
            for m in re.finditer(rf"rule: {game}/([a-z0-9-]+)", text):
                cites[m.group(1)].add(name)
    for section in SECTIONS[game]["sections"]:
        where = cites.get(section, set())
        if len(where) != 1:
            out["section not in exactly one rules module"].append(f"{section}: {sorted(where) or 'none'}")
    return dict(out)


_CACHING = frozenset({"cache", "lru_cache"})


def _module_cache(node: ast.stmt) -> bool:
    """A module-level ``X = {}`` / ``[]`` / ``set()`` (filled later: a cache or registry by hand)."""
    value = node.value if isinstance(node, ast.Assign | ast.AnnAssign) else None
    if isinstance(value, ast.Dict | ast.List | ast.Set):
        return not (value.keys if isinstance(value, ast.Dict) else value.elts)
    return (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id in {"dict", "list", "set", "defaultdict", "OrderedDict"}
        and not value.args
    )


def _node_problem(node: ast.AST) -> tuple[str, str] | None:
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        size = (node.end_lineno or node.lineno) - node.lineno + 1
        return ("function over 60 lines", f"{node.name} ({size})") if size > MAX_FUNCTION else None
    if isinstance(node, ast.ClassDef):
        size = (node.end_lineno or node.lineno) - node.lineno + 1
        return ("class over 300 lines", f"{node.name} ({size})") if size > MAX_CLASS else None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "exec":
        return ("exec", "exec(...)")
    if isinstance(node, ast.Assign) and any(
        isinstance(t, ast.Attribute) and t.attr == "__class__" for t in node.targets
    ):
        return ("__class__ assignment", "")
    if isinstance(node, ast.ImportFrom) and node.module == "functools":
        caching = [a.name for a in node.names if a.name in _CACHING]
        return ("functools cache (use games.core.cache)", ", ".join(caching)) if caching else None
    if (
        isinstance(node, ast.Attribute)
        and node.attr in _CACHING
        and getattr(node.value, "id", "") == "functools"
    ):
        return ("functools cache (use games.core.cache)", f"functools.{node.attr}")
    if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("games"):
        private = [a.name for a in node.names if a.name.startswith("_")]
        return ("private name imported", f"{node.module}: {', '.join(private)}") if private else None
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "index"
        and isinstance(node.func.value, ast.Attribute)
        and node.func.value.attr == "_fields"
    ):
        return ("index constant", "X._fields.index(...)")
    return None


MOVED: frozenset[str] = frozenset({"tiberius", "ti4", "cytress", "tiberpunk", "cyberverse"})
"""Games moved to the idiom (issue 32): their check must pass. The others are listed with what is
left to do (``test_what_is_left_to_move``)."""


@pytest.mark.parametrize("game", sorted(MOVED))
def test_a_moved_game_keeps_the_idiom(game: str) -> None:
    found = problems(game)
    assert not found, "\n".join(f"{kind}: {', '.join(where[:10])}" for kind, where in found.items())


def test_what_is_left_to_move() -> None:
    """Every game is either moved (and clean) or still has something to move: the list is kept honest
    (a game that became clean is moved into MOVED)."""
    for game in sorted(set(GAMES) - MOVED):
        assert problems(game), f"{game} keeps the idiom now: add it to MOVED"


def test_games_core_keeps_one_cache_facility() -> None:
    """The shared core of ``games/`` caches only through ``games/core/cache.py`` as well."""
    found = []
    for path in sorted((REPO / "games" / "core").rglob("*.py")):
        if path.name == "cache.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            bad = _node_problem(node)
            if bad and bad[0].startswith("functools cache"):
                found.append(f"{path.name}:{getattr(node, 'lineno', 0)} {bad[1]}")
    assert not found, found
