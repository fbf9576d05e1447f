"""Tables built once per content pack (or rules object) and reused by every state that uses it.

A game's AI and codec precompute tables from its content (distances, codecs, weights). They are
keyed by the content object's identity: two packs never share tables even when equal, and a pack
that is freed and whose ``id`` is reused is detected by the identity check and rebuilt.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

__all__ = ["PerContent"]

K = TypeVar("K")
V = TypeVar("V")


class PerContent(Generic[K, V]):
    """``build(key)`` computed once per ``key`` object (by identity), at most ``size`` kept.

    >>> tables = PerContent(lambda pack: len(pack))
    >>> pack = (1, 2, 3)
    >>> tables(pack), tables(pack)
    (3, 3)
    """

    def __init__(self, build: Callable[[K], V], *, size: int = 16) -> None:
        self._build = build
        self._size = size
        self._built: dict[int, tuple[K, V]] = {}

    def __call__(self, key: K) -> V:
        got = self._built.get(id(key))
        if got is None or got[0] is not key:
            if len(self._built) >= self._size:
                self._built.clear()
            got = self._built[id(key)] = (key, self._build(key))
        return got[1]
