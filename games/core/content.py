"""Content packs: the data a rulebook does not print (maps, card texts), loaded and validated.

A pack is a directory of JSON files with a ``pack.json`` manifest::

    {"name": "tiberpunk-reference", "version": "1.0", "authored": true, "files": ["board.json", ...]}

Games read their files through :class:`Node`, which checks types and ranges and raises
:class:`~games.errors.ContentError` naming the file, the field path and what was expected.

A user's pack is read under caps, whoever names it: at most :data:`MAX_PACK_FILES` entries in its
directory, each file at most :data:`MAX_PACK_FILE_BYTES` bytes and nested at most
:data:`MAX_PACK_JSON_DEPTH` deep. Symbolic links are never followed: a pack directory, its
``pack.json`` or any pack file that is a symlink is refused (so no file outside the pack is read).
Errors name a file relative to its pack (``careers.json``), never a directory of the machine.
"""

from __future__ import annotations

import builtins
import json
import os
import stat
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from importlib import resources
from itertools import islice
from pathlib import Path
from typing import Any

from games.errors import ContentError

__all__ = [
    "MAX_PACK_FILES",
    "MAX_PACK_FILE_BYTES",
    "MAX_PACK_JSON_DEPTH",
    "NO_PACK",
    "Node",
    "PackManifest",
    "check_pack_dir",
    "json_depth",
    "load_json",
    "load_manifest",
    "resolve_pack_dir",
]

MAX_PACK_FILES = 64
"""Most entries a user's pack directory may hold (the reference packs hold at most 15)."""

MAX_PACK_FILE_BYTES = 1024 * 1024
"""Largest pack file read, in bytes (the reference packs' largest is 23 KB)."""

MAX_PACK_JSON_DEPTH = 32
"""Deepest nesting of arrays and objects in a pack file (the reference packs nest at most 8 deep)."""

NO_PACK = "not a content pack: a pack is a directory (not a symlink) holding a pack.json file"
"""The one message for a missing pack, whatever is missing (so it reveals nothing of the disk)."""

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)  # (no FIFO may block an open)


def check_pack_dir(directory: Path) -> None:
    """Raise ContentError(:data:`NO_PACK`) unless ``directory`` is a pack a user may name.

    That is: a real directory (not a symlink), holding a regular ``pack.json`` (not a symlink) and
    at most :data:`MAX_PACK_FILES` entries.
    """
    try:
        if not stat.S_ISDIR(os.lstat(directory).st_mode):
            raise ContentError(NO_PACK, field="content_path")
        if not stat.S_ISREG(os.lstat(directory / "pack.json").st_mode):
            raise ContentError(NO_PACK, field="content_path")
        with os.scandir(directory) as entries:
            count = sum(1 for _ in islice(entries, MAX_PACK_FILES + 1))
    except (OSError, ValueError):
        raise ContentError(NO_PACK, field="content_path") from None
    if count > MAX_PACK_FILES:
        raise ContentError(
            f"a content pack holds at most {MAX_PACK_FILES} files; this one holds more", field="content_path"
        )


def resolve_pack_dir(package: str, content_path: str = "") -> Path:
    """The pack directory: ``content_path`` if given (checked by :func:`check_pack_dir`), else the
    reference pack ``<package>/content``."""
    if content_path:
        path = Path(content_path)
        check_pack_dir(path)
        return path
    return Path(str(resources.files(package).joinpath("content")))


def json_depth(data: Any, limit: int) -> int:
    """The nesting depth of arrays and objects in ``data`` (a scalar is 0), counted without recursion.

    Stops counting once it passes ``limit`` (the answer is then ``limit + 1``).
    """
    deepest = 0
    stack: list[tuple[Any, int]] = [(data, 1)] if isinstance(data, dict | list) else []
    while stack:
        value, depth = stack.pop()
        deepest = max(deepest, depth)
        if depth > limit:
            return limit + 1
        children = value.values() if isinstance(value, dict) else value
        stack.extend((v, depth + 1) for v in children if isinstance(v, dict | list))
    return deepest


def _read_capped(path: Path, name: builtins.str) -> bytes:
    """The bytes of a regular pack file, not through a symlink, at most MAX_PACK_FILE_BYTES."""
    try:
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW)
    except OSError as exc:
        if os.path.islink(path):
            raise ContentError("a pack file may not be a symbolic link", file=name) from None
        raise ContentError(f"cannot read pack file: {exc.strerror}", file=name) from None
    except ValueError:  # a NUL byte in the path
        raise ContentError("cannot read pack file: bad file name", file=name) from None
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(f.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise ContentError("a pack file must be a regular file", file=name)
        if info.st_size > MAX_PACK_FILE_BYTES:
            raise ContentError(
                f"the file is {info.st_size} bytes; a pack file is at most {MAX_PACK_FILE_BYTES} bytes",
                file=name,
            )
        data = f.read(MAX_PACK_FILE_BYTES + 1)
    if len(data) > MAX_PACK_FILE_BYTES:  # (it grew since fstat)
        raise ContentError(f"a pack file is at most {MAX_PACK_FILE_BYTES} bytes", file=name)
    return data


def load_json(path: Path) -> Node:
    """Read one JSON file of a pack as a validated :class:`Node` (under the caps in the module doc).

    Errors name the file by its name in the pack (``path.name``), not by its path on this machine.
    """
    name = path.name
    raw = _read_capped(path, name)
    too_deep = ContentError(
        f"the file nests arrays and objects deeper than {MAX_PACK_JSON_DEPTH} levels", file=name
    )
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ContentError("the file is not UTF-8 text", file=name) from None
    except json.JSONDecodeError as exc:
        raise ContentError(
            f"not valid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}", file=name
        ) from None
    except ValueError as exc:  # e.g. an integer of more digits than Python converts
        raise ContentError(f"not valid JSON: {str(exc)[:200]}", file=name) from None
    except RecursionError:  # the C scanner stops a too-deep input here
        raise too_deep from None
    if json_depth(data, MAX_PACK_JSON_DEPTH) > MAX_PACK_JSON_DEPTH:
        raise too_deep
    return Node(data, file=name, path="")


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
