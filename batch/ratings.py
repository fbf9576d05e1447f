"""Ratings from game results: Bradley–Terry strengths on the Elo scale, with bootstrap intervals.

A game between entrants gives each pair of distinct entrants at the table a (fractional) win: the
share of the pair's returns that went to each (returns sum to 1: a win 1, a shared win split). The
Bradley–Terry model says entrant *i* beats *j* with probability π_i / (π_i + π_j); its maximum
likelihood strengths are found by the classic MM iteration (Hunter 2004). Every pair also gets one
virtual draw (half a win each way), a weak prior that keeps an entrant who won every game finite.
Strengths are shown on the Elo scale (400 · log10 π, the mean rating 0), and each rating's 95%
interval comes from a bootstrap over the games (each pair's games resampled with replacement).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["PairResult", "Rating", "bradley_terry", "elo_scale", "rate"]

PRIOR_DRAWS = 1.0
"""Virtual games per pair, split half and half (keeps a perfect record finite)."""


@dataclass(frozen=True, slots=True)
class PairResult:
    """One game's result between two entrants: ``a``'s share of the pair's returns.

    Attributes:
        a: the first entrant's index.
        b: the second entrant's index.
        score: ``a``'s share (1 a win, 0 a loss, 0.5 an even split).
    """

    a: int
    b: int
    score: float


@dataclass(frozen=True, slots=True)
class Rating:
    """An entrant's rating.

    Attributes:
        name: the entrant.
        elo: the Bradley–Terry strength on the Elo scale (mean of all entrants 0).
        low: the bootstrap 2.5th percentile.
        high: the bootstrap 97.5th percentile.
        games: games it played.
    """

    name: str
    elo: float
    low: float
    high: float
    games: int


def bradley_terry(n: int, results: Sequence[PairResult], *, iterations: int = 2000) -> np.ndarray:
    """Bradley–Terry strengths (π, geometric mean 1) of ``n`` entrants by the MM iteration."""
    wins = np.zeros((n, n))
    for r in results:
        wins[r.a, r.b] += r.score
        wins[r.b, r.a] += 1.0 - r.score
    games = wins + wins.T
    played = games > 0
    prior = np.where(played | played.T, PRIOR_DRAWS / 2, 0.0)
    np.fill_diagonal(prior, 0.0)
    wins = wins + prior
    games = wins + wins.T
    total_wins = wins.sum(axis=1)
    pi = np.ones(n)
    for _ in range(iterations):
        denom = (games / (pi[:, None] + pi[None, :])).sum(axis=1)
        new = np.where(denom > 0, total_wins / np.where(denom > 0, denom, 1.0), 1.0)
        new = np.maximum(new, 1e-12)
        new /= math.exp(float(np.mean(np.log(new))))
        if float(np.max(np.abs(np.log(new) - np.log(pi)))) < 1e-10:
            pi = new
            break
        pi = new
    return pi


def elo_scale(pi: np.ndarray) -> np.ndarray:
    """Strengths on the Elo scale, mean 0: 400 · log10 π."""
    elo: np.ndarray = 400.0 * np.log10(pi)
    centred: np.ndarray = elo - float(np.mean(elo))
    return centred


def rate(
    names: Sequence[str], results: Sequence[PairResult], *, samples: int = 200, seed: int = 0
) -> list[Rating]:
    """Each entrant's rating with its 95% bootstrap interval (best first)."""
    n = len(names)
    point = elo_scale(bradley_terry(n, results))
    by_pair: dict[tuple[int, int], list[PairResult]] = {}
    for r in results:
        by_pair.setdefault((r.a, r.b), []).append(r)
    rng = random.Random(seed)
    draws = np.zeros((samples, n))
    for k in range(samples):
        resampled = [rng.choice(games) for games in by_pair.values() for _ in games]
        draws[k] = elo_scale(bradley_terry(n, resampled, iterations=400))
    low = np.percentile(draws, 2.5, axis=0) if samples else point
    high = np.percentile(draws, 97.5, axis=0) if samples else point
    played = [sum(1 for r in results if i in (r.a, r.b)) for i in range(n)]
    out = [
        Rating(name=names[i], elo=float(point[i]), low=float(low[i]), high=float(high[i]), games=played[i])
        for i in range(n)
    ]
    return sorted(out, key=lambda r: -r.elo)
