"""The size limits of issue 32 outside the five games (``tests/core/test_idiom.py`` checks them inside):
no module over 800 lines, no function over 60, no class over 300, no complexity ``noqa``, no private
name imported from another of the project's modules, in the
service, the solvers, the search, the batch jobs, the wire mappings, the shared core of ``games/``,
the benchmarks and the tools. Generated code (``lictor/``: protobuf and Connect stubs) is exempt.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.core.test_idiom import _COMPLEXITY_NOQA, MAX_CLASS, MAX_FUNCTION, MAX_MODULE

REPO = Path(__file__).resolve().parents[2]
TREES = ["service", "solver", "search", "batch", "wire", "games/core", "bench", "tools"]
PROJECT = ("games", "service", "solver", "search", "batch", "wire", "bench", "tools")


def over_limits(tree: str) -> list[str]:
    """Every module, function and class in ``tree`` over its limit, and every complexity noqa."""
    out = []
    for path in sorted((REPO / tree).rglob("*.py")):
        name = str(path.relative_to(REPO))
        text = path.read_text()
        lines = text.count("\n")
        if lines > MAX_MODULE:
            out.append(f"module {name}: {lines} lines")
        if _COMPLEXITY_NOQA.search(text):
            out.append(f"complexity noqa in {name}")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(PROJECT):
                private = [a.name for a in node.names if a.name.startswith("_")]
                if private:
                    out.append(f"{name}:{node.lineno} private {', '.join(private)} from {node.module}")
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                size = (node.end_lineno or node.lineno) - node.lineno + 1
                limit = MAX_CLASS if isinstance(node, ast.ClassDef) else MAX_FUNCTION
                if size > limit:
                    out.append(f"{name}:{node.lineno} {node.name}: {size} lines (limit {limit})")
    return out


@pytest.mark.parametrize("tree", TREES)
def test_sizes_within_limits(tree: str) -> None:
    found = over_limits(tree)
    assert not found, "\n".join(found)
