"""Fit a game's move prior to the search's visits in self-play: a conditional logit over the legal
actions, with numpy.

Self-play (``batch/selfplay.py``, ``SelfPlayJob.prior_sample``) records, at searched decisions, each
legal action's move features (``Evaluator.prior_features``) and the share of the search's visits it
got. :func:`fit_prior` finds the weights ``w`` whose priors, the softmax over the legal actions of
``w · features(action)``, are nearest those shares (cross-entropy, an L2 penalty from ``center``:
by default 1 on the first feature and 0 on the others, since a game's first move feature is its
hand-written prior's logit, so the fit leaves the hand-written prior only as far as the visits say).
The first 80% of the games train it; the held-out 20% (whole games) score it against the
hand-written prior and against a uniform prior: the cross-entropy to the visits, and how often
each ranks the search's most visited move first.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from batch.selfplay import SelfPlayGame

__all__ = ["PriorFit", "fit_prior", "prior_model"]

RIDGES = (0.001, 0.01, 0.1, 1.0)
"""The L2 penalties (per decision) the fit chooses among by cross-validation on the training games."""


@dataclass
class PriorFit:
    """A fitted prior and how well it predicts the search's visits on held-out games.

    Attributes:
        weights: one weight per move feature.
        decisions: recorded decisions used (train, held out).
        games: games (train, held out).
        held_out: on the held-out decisions: ``fitted``, ``hand_written``, ``uniform``: the mean
            cross-entropy to the visit shares; ``top_fitted``, ``top_hand_written``: how often the
            prior's first move is the search's most visited one.
        ridge: the L2 penalty per decision used.
    """

    weights: list[float]
    decisions: tuple[int, int]
    games: tuple[int, int]
    held_out: dict[str, float] = field(default_factory=dict)
    ridge: float = 0.0


class _Rows:
    """Recorded decisions as flat arrays: one row per legal action (features ``x``, visit share ``y``),
    ``start`` the first row of each decision."""

    def __init__(self, chunk: Sequence[SelfPlayGame]) -> None:
        import numpy as np

        xs: list[Sequence[float]] = []
        ys: list[float] = []
        starts: list[int] = []
        for g in chunk:
            for rows, shares in g.policy:
                starts.append(len(xs))
                xs.extend(rows)
                ys.extend(shares)
        self.x = np.array(xs, dtype=float)
        self.y = np.array(ys, dtype=float)
        self.start = np.array(starts, dtype=int)
        self.n = len(starts)
        self.group = np.repeat(np.arange(self.n), np.diff(np.append(self.start, len(xs))))

    def priors(self, w: Any) -> Any:
        """Each row's prior: the softmax of ``x @ w`` within its decision."""
        import numpy as np

        u = self.x @ w
        u = u - np.maximum.reduceat(u, self.start)[self.group]
        e = np.exp(u)
        return e / np.add.reduceat(e, self.start)[self.group]

    def cross_entropy(self, p: Any) -> float:
        """The mean cross-entropy per decision of priors ``p`` to the visit shares."""
        import numpy as np

        return float(-np.sum(self.y * np.log(np.maximum(p, 1e-12))) / max(1, self.n))

    def top(self, p: Any) -> float:
        """How often the prior's first move is the most visited one."""
        hits = 0
        for k, s in enumerate(self.start):
            e = self.start[k + 1] if k + 1 < self.n else len(self.y)
            hits += int(self.y[s + int(p[s:e].argmax())] >= self.y[s:e].max())
        return hits / max(1, self.n)


def _newton(rows: _Rows, center: Any, ridge: float) -> Any:
    """The penalised maximum-likelihood weights (Newton's method from ``center``)."""
    import numpy as np

    dim = rows.x.shape[1]
    lam = ridge * rows.n
    w = center.copy()
    for _ in range(50):
        p = rows.priors(w)
        grad = lam * (w - center) + rows.x.T @ (p - rows.y)
        mean = np.add.reduceat(rows.x * p[:, None], rows.start)  # per decision, E_p[x]
        hess = lam * np.eye(dim) + (rows.x * p[:, None]).T @ rows.x - mean.T @ mean
        step = np.linalg.solve(hess, grad)
        w = w - step
        if np.abs(step).max() < 1e-9:
            break
    return w


def _cross_validate(train: Sequence[SelfPlayGame], center: Any, folds: int) -> float:
    """The ridge of :data:`RIDGES` with the least cross-entropy over ``folds`` folds of whole games."""
    best, best_loss = RIDGES[-1], math.inf
    for ridge in RIDGES:
        loss = 0.0
        for k in range(folds):
            fold = _Rows([g for i, g in enumerate(train) if i % folds == k])
            rest = _Rows([g for i, g in enumerate(train) if i % folds != k])
            if fold.n and rest.n:
                loss += fold.cross_entropy(fold.priors(_newton(rest, center, ridge))) * fold.n
        if loss < best_loss:
            best, best_loss = ridge, loss
    return best


def fit_prior(
    played: Sequence[SelfPlayGame],
    *,
    ridge: float | None = None,
    held_out: float = 0.2,
    center: Sequence[float] | None = None,
    folds: int = 3,
) -> PriorFit:
    """Fit the prior on the first games of ``played`` that recorded decisions, score it on the last
    ``held_out`` share of them (whole games). ``ridge`` None picks one of :data:`RIDGES` by
    ``folds``-fold cross-validation over the training games."""
    import numpy as np

    done = [g for g in played if g.policy]
    if not done:
        raise ValueError(
            "no recorded decisions: self-play with prior_sample > 0 and a game with move features"
        )
    cut = max(1, round(len(done) * (1 - held_out)))
    train, test = done[:cut], done[cut:]
    dim = len(train[0].policy[0][0][0])
    c = np.zeros(dim)
    c[0] = 1.0
    if center is not None:
        c = np.array(center, dtype=float)
    if ridge is None:
        ridge = _cross_validate(train, c, folds)
    rows = _Rows(train)
    w = _newton(rows, c, ridge)
    out = PriorFit(
        weights=[float(v) for v in w], decisions=(rows.n, 0), games=(len(train), len(test)), ridge=ridge
    )
    held = _Rows(test)
    out.decisions = (rows.n, held.n)
    if held.n:
        fitted, hand = held.priors(w), held.priors(c)
        uniform = held.priors(np.zeros(dim))
        out.held_out = {
            "fitted": held.cross_entropy(fitted),
            "hand_written": held.cross_entropy(hand),
            "uniform": held.cross_entropy(uniform),
            "top_fitted": held.top(fitted),
            "top_hand_written": held.top(hand),
        }
    return out


def prior_model(
    game: str, names: Sequence[str], played: Sequence[SelfPlayGame], *, command: str
) -> dict[str, Any]:
    """The fitted prior of ``played`` as the JSON a game ships (``games/core/fitted.py``'s ``WinModel``
    form: the alternatives are the legal actions, one weight set for every player count)."""
    result = fit_prior(played)
    job = played[0].job
    return {
        "game": game,
        "features": list(names),
        "weights": {"*": [round(v, 5) for v in result.weights]},
        "training": {
            "games": len(played),
            "players": job.players,
            "simulations_per_move": job.simulations,
            "self_play_evaluator": job.evaluator or "hand-written",
            "prior_sample": job.prior_sample,
            "label_simulations": job.prior_simulations or job.simulations,
            "options": dict(job.options),
            "decisions": {"train": result.decisions[0], "held_out": result.decisions[1]},
            "held_out_games": result.games[1],
            "held_out": {k: round(v, 4) for k, v in result.held_out.items()},
            "ridge": result.ridge,
            "command": command,
        },
    }
