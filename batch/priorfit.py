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

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from batch.logit import Choices, best_ridge, newton
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


def _choices(chunk: Sequence[SelfPlayGame]) -> Choices:
    """The recorded decisions of ``chunk``: one row per legal action (its move features, its share of
    the visits)."""
    return Choices(decision for g in chunk for decision in g.policy)


def _top(c: Choices, p: Any) -> float:
    """How often the prior ``p`` puts a most visited move first."""
    hits = 0
    for k, s in enumerate(c.start):
        e = c.start[k + 1] if k + 1 < c.n else len(c.y)
        hits += int(c.y[s + int(p[s:e].argmax())] >= c.y[s:e].max())
    return hits / max(1, c.n)


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
        ridge = best_ridge(RIDGES, train, folds, _choices, c)
    rows = _choices(train)
    w = newton(rows, c, ridge)
    out = PriorFit(
        weights=[float(v) for v in w], decisions=(rows.n, 0), games=(len(train), len(test)), ridge=ridge
    )
    held = _choices(test)
    out.decisions = (rows.n, held.n)
    if held.n:
        fitted, hand = held.chances(w), held.chances(c)
        uniform = held.chances(np.zeros(dim))
        out.held_out = {
            "fitted": held.cross_entropy(fitted),
            "hand_written": held.cross_entropy(hand),
            "uniform": held.cross_entropy(uniform),
            "top_fitted": _top(held, fitted),
            "top_hand_written": _top(held, hand),
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
