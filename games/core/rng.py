"""Seeded randomness. There is no global RNG in Lictor: every random choice takes an RNG or a seed."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterable
from typing import TypeVar

__all__ = ["below", "derive_seed", "make_rng", "shuffle", "shuffled"]

T = TypeVar("T")


def make_rng(seed: int) -> random.Random:
    """A fresh ``random.Random`` for ``seed`` (same seed, same sequence, on every platform)."""
    return random.Random(seed)


def derive_seed(seed: int, *labels: object) -> int:
    """A stable 63-bit seed derived from ``seed`` and labels (e.g. a worker index, a move number).

    Uses BLAKE2b, not ``hash()``, so it does not change between processes.
    """
    text = repr((seed, *labels)).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


def _steps(size: int) -> tuple[tuple[int, int], ...]:
    """The Fisher-Yates steps of a list of ``size``, from the end: (index, bits drawn for a swap index)."""
    return tuple((i, (i + 1).bit_length()) for i in range(size - 1, 0, -1))


_STEPS: tuple[tuple[tuple[int, int], ...], ...] = tuple(_steps(size) for size in range(129))
"""``_steps(size)`` for lists of up to 128 items."""


def shuffled(getrandbits: Callable[[int], int], items: Iterable[T]) -> list[T]:
    """``items`` shuffled exactly as ``random.Random.shuffle`` shuffles them, given its ``getrandbits``.

    The standard library's algorithm (Fisher-Yates from the end; each swap index drawn as
    ``_randbelow`` draws it: as many bits as the bound needs, drawn again while too large), so a
    seed deals the same permutation with the same draws, without a Python call per item for
    ``_randbelow`` (``tests/core/test_rng.py`` checks it against ``random.Random.shuffle``).
    """
    out = list(items)
    size = len(out)
    for i, k in _STEPS[size] if size < len(_STEPS) else _steps(size):
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        out[i], out[j] = out[j], out[i]
    return out


def shuffle(rng: random.Random, x: list[T]) -> None:
    """``rng.shuffle(x)`` in place: the same permutation and the same draws, with fewer calls.

    A plain ``random.Random`` goes through :func:`shuffled`; any other generator uses its own
    ``shuffle``.
    """
    if type(rng) is not random.Random:
        rng.shuffle(x)
        return
    x[:] = shuffled(rng.getrandbits, x)


def below(getrandbits: Callable[[int], int], n: int) -> int:
    """An int in [0, n) (n >= 1) drawn exactly as ``random.Random.randrange(n)`` draws it, given its
    ``getrandbits`` (``_randbelow``: the bits ``n`` needs, drawn again while too large)."""
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r
