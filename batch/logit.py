"""The conditional logit both self-play fits solve (numpy): the win model's alternatives are the
seats of a position (``batch/selfplay.py``), the prior's the legal actions of a decision
(``batch/priorfit.py``).

A :class:`Choices` holds choice situations of any sizes as flat rows (one per alternative: its
features ``x`` and its observed share ``y``); :func:`newton` finds the weights whose softmax within
each situation is nearest the shares (cross-entropy, an L2 penalty of ``ridge`` per situation on the
distance from ``center``); :func:`best_ridge` picks the penalty by cross-validation over whole games.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

__all__ = ["Choices", "best_ridge", "newton"]

G = TypeVar("G")


class Choices:
    """Choice situations as flat arrays: ``x`` (rows, dim), ``y`` (rows,), ``start`` the first row of
    each situation, ``n`` situations."""

    def __init__(self, situations: Iterable[tuple[Sequence[Sequence[float]], Sequence[float]]]) -> None:
        import numpy as np

        xs: list[Sequence[float]] = []
        ys: list[float] = []
        starts: list[int] = []
        for rows, shares in situations:
            starts.append(len(xs))
            xs.extend(rows)
            ys.extend(shares)
        self.x = np.array(xs, dtype=float)
        self.y = np.array(ys, dtype=float)
        self.start = np.array(starts, dtype=int)
        self.n = len(starts)
        self.group = np.repeat(np.arange(self.n), np.diff(np.append(self.start, len(xs))))

    def chances(self, w: Any) -> Any:
        """Each row's chance: the softmax of ``x @ w`` within its situation."""
        import numpy as np

        u = self.x @ w
        u = u - np.maximum.reduceat(u, self.start)[self.group]
        e = np.exp(u)
        return e / np.add.reduceat(e, self.start)[self.group]

    def cross_entropy(self, p: Any) -> float:
        """The mean cross-entropy per situation of chances ``p`` to the shares."""
        import numpy as np

        return float(-np.sum(self.y * np.log(np.maximum(p, 1e-12))) / max(1, self.n))


def newton(choices: Choices, center: Any, ridge: float) -> Any:
    """The penalised maximum-likelihood weights (Newton's method from ``center``)."""
    import numpy as np

    x = choices.x
    lam = ridge * choices.n
    w = center.copy()
    for _ in range(50):
        p = choices.chances(w)
        grad = lam * (w - center) + x.T @ (p - choices.y)
        mean = np.add.reduceat(x * p[:, None], choices.start)  # per situation, E_p[x]
        hess = lam * np.eye(x.shape[1]) + (x * p[:, None]).T @ x - mean.T @ mean
        step = np.linalg.solve(hess, grad)
        w = w - step
        if np.abs(step).max() < 1e-9:
            break
    return w


def best_ridge(
    ridges: Sequence[float],
    games: Sequence[G],
    folds: int,
    choices: Callable[[Sequence[G]], Choices],
    center: Any,
) -> float:
    """The ridge of ``ridges`` with the least cross-entropy over ``folds`` folds of whole ``games``
    (``choices``: a chunk of games as choice situations; the last ridge when no fold can be scored)."""
    best, best_loss = ridges[-1], math.inf
    for ridge in ridges:
        loss = 0.0
        for k in range(folds):
            fold = choices([g for i, g in enumerate(games) if i % folds == k])
            rest = choices([g for i, g in enumerate(games) if i % folds != k])
            if fold.n and rest.n:
                loss += fold.cross_entropy(fold.chances(newton(rest, center, ridge))) * fold.n
        if loss < best_loss:
            best, best_loss = ridge, loss
    return best
