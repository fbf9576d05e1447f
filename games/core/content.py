"""Content packs: the data a rulebook does not print (maps, card texts), loaded and validated.

A pack is a directory of JSON files with a ``pack.json`` manifest::

    {"name": "tiberpunk-reference", "version": "1.0", "authored": true, "files": ["board.json", ...]}

Games read their files through :class:`Node`, which checks types and ranges and raises
:class:`~games.errors.ContentError` naming the file, the field path and what was expected.
"""

from __future__ import annotations

import builtins
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from games.errors import ContentError

__all__ = ["Node", "PackManifest", "load_json", "load_manifest", "resolve_pack_dir"]


def resolve_pack_dir(package: str, content_path: str = "") -> Path:
    """The pack directory: ``content_path`` if given (must exist), else ``<package>/content``."""
    if content_path:
        path = Path(content_path)
        if not path.is_dir():
            raise ContentError(
                f"content pack directory {content_path!r} does not exist", field="content_path"
            )
        return path
    return Path(str(resources.files(package).joinpath("content")))


def load_json(path: Path) -> Node:
    """Read one JSON file of a pack as a validated :class:`Node`."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ContentError(f"cannot read pack file: {exc.strerror}", file=str(path)) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ContentError(
            f"not valid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}", file=str(path)
        ) from None
    return Node(data, file=str(path), path="")


@dataclass(frozen=True, slots=True)
class PackManifest:
    """A pack's ``pack.json``.

    Attributes:
        name: the pack's name.
        version: its version string (listed by ListGames).
        authored: True when the content is authored by Lictor rather than printed in a rulebook.
        directory: where the pack lives.
    """

    name: str
    version: str
    authored: bool
    directory: Path


def load_manifest(directory: Path) -> PackManifest:
    """Read and validate ``pack.json`` in ``directory``."""
    node = load_json(directory / "pack.json")
    return PackManifest(
        name=node.str("name"),
        version=node.str("version"),
        authored=node.bool("authored"),
        directory=directory,
    )


class Node:
    """A JSON value at a path inside a pack file, with typed, validating accessors.

    ``node.int("cost", min=0)`` returns ``node.value["cost"]`` if it is an int >= 0 and otherwise
    raises ``ContentError("expected an integer >= 0, got 'x'", file=..., field="quests[3].cost")``.
    """

    __slots__ = ("file", "path", "value")

    def __init__(self, value: Any, *, file: builtins.str, path: builtins.str) -> None:
        self.value = value
        self.file = file
        self.path = path

    # -- navigation
    def _child_path(self, key: builtins.str | int) -> builtins.str:
        if isinstance(key, int):
            return f"{self.path}[{key}]"
        return f"{self.path}.{key}" if self.path else key

    def fail(
        self, expected: builtins.str, *, key: builtins.str | builtins.int | None = None, got: Any = ...
    ) -> ContentError:
        """A ContentError at this node (or its child ``key``)."""
        where = self.path if key is None else self._child_path(key)
        shown = "" if got is ... else f", got {got!r}"
        return ContentError(f"expected {expected}{shown}", file=self.file, field=where or "<root>")

    def __getitem__(self, key: builtins.str | int) -> Node:
        if isinstance(key, int):
            if not isinstance(self.value, list):
                raise self.fail("a list", got=self.value)
            if not 0 <= key < len(self.value):
                raise self.fail(f"at least {key + 1} entries", got=len(self.value))
            return Node(self.value[key], file=self.file, path=self._child_path(key))
        if not isinstance(self.value, dict):
            raise self.fail("an object", got=self.value)
        if key not in self.value:
            raise self.fail("this field to be present", key=key)
        return Node(self.value[key], file=self.file, path=self._child_path(key))

    def has(self, key: builtins.str) -> builtins.bool:
        """Whether this object has ``key``."""
        return isinstance(self.value, dict) and key in self.value

    def items(self) -> Iterator[tuple[builtins.str, Node]]:
        """The (key, child) pairs of an object."""
        if not isinstance(self.value, dict):
            raise self.fail("an object", got=self.value)
        for key in self.value:
            yield key, Node(self.value[key], file=self.file, path=self._child_path(key))

    def list(
        self, key: builtins.str | None = None, *, min_len: int = 0, max_len: builtins.int | None = None
    ) -> builtins.list[Node]:
        """The entries of a list (this node's, or its child ``key``'s) with a length check."""
        node = self if key is None else self[key]
        if not isinstance(node.value, list):
            raise node.fail("a list", got=node.value)
        n = len(node.value)
        if n < min_len or (max_len is not None and n > max_len):
            bound = f"{min_len}..{max_len}" if max_len is not None else f">= {min_len}"
            raise node.fail(f"a list of {bound} entries", got=f"{n} entries")
        return [Node(v, file=node.file, path=node._child_path(i)) for i, v in enumerate(node.value)]

    # -- scalars
    def int(
        self,
        key: builtins.str | None = None,
        *,
        min: builtins.int | None = None,
        max: builtins.int | None = None,
    ) -> builtins.int:
        """An integer within ``[min, max]``."""
        node = self if key is None else self[key]
        v = node.value
        if not isinstance(v, int) or isinstance(v, bool):
            raise node.fail("an integer", got=v)
        if (min is not None and v < min) or (max is not None and v > max):
            lo = "" if min is None else f">= {min}"
            hi = "" if max is None else f"<= {max}"
            raise node.fail(f"an integer {' and '.join(x for x in (lo, hi) if x)}", got=v)
        return v

    def str(
        self, key: builtins.str | None = None, *, choices: Sequence[builtins.str] | None = None
    ) -> builtins.str:
        """A non-empty string, one of ``choices`` if given."""
        node = self if key is None else self[key]
        v = node.value
        if not isinstance(v, builtins.str) or not v:
            raise node.fail("a non-empty string", got=v)
        if choices is not None and v not in choices:
            raise node.fail(f"one of {list(choices)}", got=v)
        return v

    def bool(self, key: builtins.str | None = None) -> builtins.bool:
        """A boolean."""
        node = self if key is None else self[key]
        if not isinstance(node.value, bool):
            raise node.fail("true or false", got=node.value)
        return node.value

    def str_list(
        self, key: builtins.str | None = None, *, choices: Sequence[builtins.str] | None = None
    ) -> builtins.list[builtins.str]:
        """A list of strings, each one of ``choices`` if given."""
        return [n.str(choices=choices) for n in self.list(key)]

    def int_list(
        self,
        key: builtins.str | None = None,
        *,
        min: builtins.int | None = None,
        max: builtins.int | None = None,
    ) -> builtins.list[builtins.int]:
        """A list of integers within ``[min, max]``."""
        return [n.int(min=min, max=max) for n in self.list(key)]
