"""The one cache facility of ``games/``: tables per content pack and memoised pure functions.

Rules and faces precompute what they read often. Two kinds, and no other module-level cache in
``games/`` (``tests/core/test_idiom.py`` checks):

- :class:`PerContent`: tables built once per content pack (or rules object) and reused by every state
  that uses it (distances, codecs, weights), keyed by the pack's identity: two packs never share
  tables even when equal, and a pack that is freed and whose ``id`` is reused is detected by the
  identity check and rebuilt.
- :func:`memo`: a pure function of hashable arguments (dice odds, a planet's optimal value), its
  results kept up to a bound (least recently used dropped first). Every memo is listed in
  :func:`memos` (hits, misses, size: what a cache earns) and emptied by :func:`clear`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Generic, NamedTuple, ParamSpec, TypeVar, cast

__all__ = ["MemoInfo", "PerContent", "clear", "memo", "memos"]

K = TypeVar("K")
V = TypeVar("V")
P = ParamSpec("P")
R = TypeVar("R")


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


class MemoInfo(NamedTuple):
    """What one memoised function holds and earned.

    Attributes:
        name: the function's module and name.
        hits: calls answered from the cache.
        misses: calls computed.
        size: results held now.
        bound: results held at most (None: no bound).
    """

    name: str
    hits: int
    misses: int
    size: int
    bound: int | None


_MEMOS: dict[str, Any] = {}


def memo(bound: int | None = 128) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Memoise a pure function of hashable arguments, keeping at most ``bound`` results.

    >>> @memo(bound=4)
    ... def square(n: int) -> int:
    ...     return n * n
    >>> square(3), square(3)
    (9, 9)
    """

    def wrap(fn: Callable[P, R]) -> Callable[P, R]:
        cached = functools.lru_cache(maxsize=bound)(fn)
        _MEMOS[f"{fn.__module__}.{fn.__qualname__}"] = cached
        return cast(Callable[P, R], cached)

    return wrap


def memos() -> list[MemoInfo]:
    """Every memoised function, by name."""
    out = []
    for name, cached in sorted(_MEMOS.items()):
        info = cached.cache_info()
        out.append(MemoInfo(name, info.hits, info.misses, info.currsize, info.maxsize))
    return out


def clear(fn: Callable[..., Any] | None = None) -> None:
    """Empty the memo of ``fn`` (every memo when None), e.g. after the registry changed."""
    for cached in _MEMOS.values():
        if fn is None or cached is fn:
            cached.cache_clear()
