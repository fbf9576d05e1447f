"""The seeded shuffle helpers equal the standard library's draws (games/core/rng.py)."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from games.core.rng import below, shuffle, shuffled


@given(st.integers(0, 2**63), st.integers(0, 200))
def test_shuffled_equals_random_shuffle(seed: int, size: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    items = list(range(size))
    expected = list(items)
    theirs.shuffle(expected)
    assert shuffled(ours.getrandbits, items) == expected
    assert ours.getstate() == theirs.getstate()


@given(st.integers(0, 2**63), st.integers(0, 130))
def test_shuffle_in_place_equals_random_shuffle(seed: int, size: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    a, b = list(range(size)), list(range(size))
    shuffle(ours, a)
    theirs.shuffle(b)
    assert a == b and ours.getstate() == theirs.getstate()


@given(st.integers(0, 2**63), st.integers(1, 10_000))
def test_below_equals_randrange(seed: int, n: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    assert below(ours.getrandbits, n) == theirs.randrange(n)
    assert ours.getstate() == theirs.getstate()
