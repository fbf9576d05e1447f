"""Dice: sorted multisets of d6 results, their probabilities, challenge checks and combat scores.

A roll of ``k`` dice is a sorted tuple. As a chance outcome it is one of the multisets of size ``k``
with its multinomial probability (rule: stage-1-quests, combat-tiles).
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from math import factorial

from games.core.cache import memo

__all__ = [
    "contains",
    "decode_pool",
    "encode_pool",
    "outcomes",
    "p_attacker_wins",
    "p_contains",
    "score",
]

Pool = tuple[int, ...]


def encode_pool(pool: Pool) -> int:
    """A pool as an int: 4 bits of count per face 1..6."""
    code = 0
    for v in pool:
        code += 1 << (4 * (v - 1))
    return code


def decode_pool(code: int) -> Pool:
    """Inverse of :func:`encode_pool`."""
    out: list[int] = []
    for face in range(1, 7):
        out += [face] * ((code >> (4 * (face - 1))) & 15)
    return tuple(out)


@memo(bound=64)
def outcomes(k: int) -> tuple[tuple[Pool, float], ...]:
    """Every sorted result of ``k`` dice with its probability (multinomial), sorted by result."""
    total = 6**k
    out = []
    for combo in combinations_with_replacement(range(1, 7), k):
        ways = factorial(k)
        for face in range(1, 7):
            ways //= factorial(combo.count(face))
        out.append((combo, ways / total))
    return tuple(out)


def contains(pool: Pool, need: Pool) -> bool:
    """Whether the rolled dice show the required values (a sub-multiset; rule: stage-1-quests)."""
    if len(need) == 1:
        return need[0] in pool
    rest = list(pool)
    for v in need:
        if v in rest:
            rest.remove(v)
        else:
            return False
    return True


@memo(bound=4096)
def p_contains(k: int, need: Pool) -> float:
    """Probability that ``k`` dice show ``need`` in one roll (no gadgets)."""
    return sum(p for pool, p in outcomes(k) if contains(pool, need))


def score(cond: int, pool: Pool) -> int:
    """Dice matching a combat tile's condition (rule: combat-tiles).

    0 most odd values, 1 most even values, 2 largest group of identical values, 3 largest group of
    consecutive values.
    """
    if cond == 0:
        return sum(v & 1 for v in pool)
    if cond == 1:
        return sum(1 for v in pool if not v & 1)
    if not pool:
        return 0
    if cond == 2:
        return max(pool.count(v) for v in set(pool))
    best = run = 0
    prev = -5
    for v in sorted(set(pool)):
        run = run + 1 if v == prev + 1 else 1
        best = max(best, run)
        prev = v
    return best


@memo(bound=1024)
def p_attacker_wins(cond: int, ka: int, kd: int) -> float:
    """Probability that ``ka`` dice beat ``kd`` dice on a combat tile (ties to the defender), no gadgets."""
    da: dict[int, float] = {}
    for pool, p in outcomes(ka):
        k = score(cond, pool)
        da[k] = da.get(k, 0.0) + p
    dd: dict[int, float] = {}
    for pool, p in outcomes(kd):
        k = score(cond, pool)
        dd[k] = dd.get(k, 0.0) + p
    return sum(pa * pd for a, pa in da.items() for d, pd in dd.items() if a > d)
