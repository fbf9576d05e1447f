"""Seeded randomness. There is no global RNG in Lictor: every random choice takes an RNG or a seed."""

from __future__ import annotations

import hashlib
import random

__all__ = ["derive_seed", "make_rng"]


def make_rng(seed: int) -> random.Random:
    """A fresh ``random.Random`` for ``seed`` (same seed, same sequence, on every platform)."""
    return random.Random(seed)


def derive_seed(seed: int, *labels: object) -> int:
    """A stable 63-bit seed derived from ``seed`` and labels (e.g. a worker index, a move number).

    Uses BLAKE2b, not ``hash()``, so it does not change between processes.
    """
    text = repr((seed, *labels)).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1
