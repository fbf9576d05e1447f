"""Statistics the benchmarks share."""

from __future__ import annotations

import math


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win rate over ``n`` games (shared wins count as fractions)."""
    if n == 0:
        return (0.0, 1.0)
    p = score / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))
