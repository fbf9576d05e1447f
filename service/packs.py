"""Content packs a request names: the rule for a pack's name, finding its directory under the
server's content root (never through a symlink, never showing a server path), and remembering the
packs that failed to load until their files change (``service.convert.game_with_pack`` loads them).
"""

from __future__ import annotations

import os
import re
import stat
import threading
from collections import OrderedDict
from itertools import islice
from pathlib import Path
from typing import Any

from games.core.content import MAX_PACK_FILES, NO_PACK, check_pack_dir
from games.errors import ContentError
from service.errors import RequestError

__all__ = [
    "MAX_PACK_NAME_CHARS",
    "MAX_PACK_NAME_PARTS",
    "MAX_PACK_PART_CHARS",
    "PACK_FAILURES",
    "PACK_NAME_RULE",
    "clipped_pack_name",
    "pack_error_message",
    "pack_name_problem",
    "pack_stamp",
    "resolve_pack",
]


MAX_PACK_NAME_CHARS = 128
"""Longest content pack name a request may give."""
MAX_PACK_NAME_PARTS = 8
"""Most ``/``-separated parts in a pack name (directories below the content root)."""
MAX_PACK_PART_CHARS = 64
"""Longest part of a pack name."""

PACK_NAME_RULE = (
    f"a pack name is a path relative to the server's content root: 1 to {MAX_PACK_NAME_PARTS} parts "
    f"joined by '/', each of 1 to {MAX_PACK_PART_CHARS} letters, digits, '-', '_' or '.' not starting "
    f"with '.', at most {MAX_PACK_NAME_CHARS} characters in all (e.g. 'mypack' or 'season2/promo')"
)
"""What a valid pack name looks like (said by every refusal of a name)."""

_PACK_PART = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]*\Z")


def clipped_pack_name(content_pack: str) -> str:
    """A pack name as a message shows it: its first 60 characters."""
    return content_pack if len(content_pack) <= 60 else content_pack[:60] + "..."


def pack_name_problem(content_pack: str) -> str:
    """What is wrong with a pack name ("" when it is a valid name; see :data:`PACK_NAME_RULE`)."""
    if len(content_pack) > MAX_PACK_NAME_CHARS:
        return f"it is {len(content_pack)} characters long"
    if any(c < " " or c == "\x7f" for c in content_pack):
        return "it holds a control character"
    if content_pack.startswith("/"):
        return "it is an absolute path"
    parts = content_pack.split("/")
    if len(parts) > MAX_PACK_NAME_PARTS:
        return f"it has {len(parts)} parts"
    for part in parts:
        if part in ("", ".", ".."):
            return f"it has a part {part!r}"
        if len(part) > MAX_PACK_PART_CHARS:
            return f"a part is {len(part)} characters long"
        if not _PACK_PART.match(part):
            return f"part {clipped_pack_name(part)!r} holds a character not allowed or starts with '.'"
    return ""


def resolve_pack(content_pack: str, root: str | None, *, field: str) -> str:
    """The directory of a request's content pack, a real directory under the server's content root.

    "" (the reference pack) stays "". The name is checked first (:func:`pack_name_problem`); then
    every directory on the way down must be a real directory (a symlink is never followed) and the
    last one a pack (:func:`games.core.content.check_pack_dir`). A missing pack gets one message
    whatever is missing, and no message shows a path of the server.
    """
    if not content_pack:
        return ""
    shown = clipped_pack_name(content_pack)
    problem = pack_name_problem(content_pack)
    if problem:
        raise RequestError(
            f"content pack {shown!r} is not a valid pack name ({problem}); {PACK_NAME_RULE}", field=field
        )
    if not root:
        raise RequestError(
            f"this server loads no content packs (asked for {shown!r}); start it with --content-root",
            field=field,
        )
    missing = RequestError(
        f"no content pack named {shown!r} on this server (a pack is a directory under the content root, "
        "not a symlink, holding a pack.json file)",
        field=field,
    )
    path = _root_dir(root)
    for part in content_pack.split("/"):
        path = path / part
        try:
            if not stat.S_ISDIR(os.lstat(path).st_mode):  # (a symlink is S_ISLNK)
                raise missing
        except OSError:
            raise missing from None
    try:
        check_pack_dir(path)
    except ContentError as exc:
        if exc.message == NO_PACK:
            raise missing from None
        raise RequestError(f"content pack {shown!r} is not valid: {exc.message}", field=field) from None
    return str(path)


_ROOTS: dict[str, Path] = {}


def _root_dir(root: str) -> Path:
    """The content root with its own symlinks resolved (the operator's choice), kept per root."""
    path = _ROOTS.get(root)
    if path is None:
        path = _ROOTS[root] = Path(root).resolve()
    return path


class _PackFailures:
    """Packs that failed to load, by (game, directory), with a stamp of their files: a bad pack is
    refused from memory (not parsed again) until a file in it changes."""

    def __init__(self, capacity: int = 256) -> None:
        self.capacity = capacity
        self._data: OrderedDict[tuple[str, str], tuple[tuple[Any, ...], str]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[str, str]) -> tuple[tuple[Any, ...], str] | None:
        return self._data.get(key)

    def put(self, key: tuple[str, str], stamp: tuple[Any, ...], message: str) -> None:
        with self._lock:
            self._data[key] = (stamp, message)
            while len(self._data) > self.capacity:
                self._data.popitem(last=False)

    def forget(self, key: tuple[str, str]) -> None:
        with self._lock:
            self._data.pop(key, None)


PACK_FAILURES = _PackFailures()


def pack_stamp(directory: str) -> tuple[Any, ...]:
    """What changes when any file of the pack changes: each entry's name, mtime, size and inode."""
    try:
        with os.scandir(directory) as entries:
            found = [(e.name, e.stat(follow_symlinks=False)) for e in islice(entries, MAX_PACK_FILES + 1)]
        own = os.lstat(directory)
    except OSError:
        return ()
    return (own.st_mtime_ns, *sorted((n, s.st_mtime_ns, s.st_size, s.st_ino) for n, s in found))


def pack_error_message(name: str, content_pack: str, directory: str, exc: ContentError) -> str:
    """A pack's load error as a client may read it: the pack as it named it, the file relative to
    the pack, never a path of the server."""
    file = Path(exc.file).name if exc.file else ""
    at = exc.field if exc.field not in ("", "content_path", "<root>") else ""
    where = ", ".join(x for x in (file, at) if x)
    text = exc.message.replace(directory, "<pack>")
    return (
        f"content pack {clipped_pack_name(content_pack)!r} is not valid for {name}: "
        + (f"{where}: " if where else "")
        + text
    )
