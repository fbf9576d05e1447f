"""Win models fitted to self-play, shipped as data: named features in, each seat's chance to win out.

A :class:`WinModel` is a conditional logit (McFadden): each seat's utility is ``w · features(seat)``
and its chance to win is the softmax of the utilities over the seats, so only the differences
between seats matter. The weights are kept per player count (``"2"``, ``"3"``, ...; ``"*"`` for any
other). The model is data: a JSON file shipped in the game's package (loaded with
:func:`load_model`) that names its features, gives the weights and says how it was trained (games,
seeds, the command that reproduces it, held-out log-losses). The fit itself is in ``batch/selfplay.py``
(numpy); here only the evaluation, in pure Python.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from games.core.cache import memo
from games.core.protocol import Evaluator
from games.errors import ContentError

__all__ = ["FittedPrior", "WinModel", "fitted_evaluator", "load_model", "softmax", "win_chances"]


@dataclass(frozen=True, slots=True, kw_only=True)
class WinModel:
    """A fitted conditional-logit win model.

    Attributes:
        game: the game it was fitted for.
        features: the feature names, in the order of each seat's feature vector.
        weights: per player count (``"2"``; ``"*"`` for any count without its own), one weight per
            feature.
        training: how it was made (games, seeds, budget, the command, held-out log-losses), as
            written by the trainer.
    """

    game: str
    features: tuple[str, ...]
    weights: Mapping[str, tuple[float, ...]]
    training: Mapping[str, Any] = field(default_factory=dict)

    def weights_for(self, players: int) -> tuple[float, ...]:
        """The weights for ``players`` seats (``"*"`` when that count has none; zeros without either)."""
        got = self.weights.get(str(players)) or self.weights.get("*")
        return got if got is not None else (0.0,) * len(self.features)

    def to_dict(self) -> dict[str, Any]:
        """The model as plain JSON types (the shipped file's form)."""
        return {
            "game": self.game,
            "features": list(self.features),
            "weights": {k: list(v) for k, v in self.weights.items()},
            "training": dict(self.training),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, source: str = "model") -> WinModel:
        """A model from its JSON form; ``ContentError`` naming the file and field when malformed."""
        try:
            features = tuple(str(f) for f in data["features"])
            weights = {str(k): tuple(float(x) for x in v) for k, v in data["weights"].items()}
            game = str(data["game"])
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ContentError(f"not a win model ({exc!r})", file=source, field="features/weights") from None
        for k, w in weights.items():
            if len(w) != len(features):
                raise ContentError(
                    f"weights[{k!r}] has {len(w)} numbers for {len(features)} features",
                    file=source,
                    field=f"weights.{k}",
                )
        return cls(game=game, features=features, weights=weights, training=dict(data.get("training", {})))


@memo(bound=None)
def load_model(package: str, filename: str) -> WinModel:
    """The model shipped as ``filename`` in ``package`` (package data), read once."""
    text = resources.files(package).joinpath(filename).read_text(encoding="utf-8")
    return WinModel.from_dict(json.loads(text), source=f"{package}/{filename}")


def softmax(utils: Sequence[float]) -> tuple[float, ...]:
    """The softmax of ``utils`` (shifted by their maximum: no overflow)."""
    top = max(utils)
    exps = [math.exp(u - top) for u in utils]
    total = sum(exps)
    return tuple(e / total for e in exps)


def win_chances(weights: Sequence[float], features: Sequence[Sequence[float]]) -> tuple[float, ...]:
    """Each seat's chance to win: the softmax over the seats of ``weights · features[seat]``."""
    return softmax([sum(w * x for w, x in zip(weights, f, strict=True)) for f in features])


@dataclass(frozen=True, slots=True, kw_only=True)
class FittedPrior:
    """A game's fitted move prior: a conditional logit over the legal actions (a :class:`WinModel`
    whose alternatives are the actions, not the seats), fitted to the search's visits in self-play
    (``batch/priorfit.py``).

    Attributes:
        prior: the priors over ``legal_actions`` (None: the game gives none here), or ``None`` when
            no fitted prior is shipped (the game's own prior is used).
        features: per legal action, its feature vector (what the trainer records).
        feature_names: their names, in order.
    """

    prior: Callable[[Any], Sequence[float] | None] | None
    features: Callable[[Any], Sequence[Sequence[float]] | None]
    feature_names: tuple[str, ...]


def fitted_evaluator(
    model: WinModel,
    heuristic: Callable[[Any], Sequence[float]],
    features: Callable[[Any], Sequence[Sequence[float]]],
    feature_names: Sequence[str],
    *,
    levels: bool,
    games_of: str = "self-play games",
    prior: FittedPrior | None = None,
) -> Evaluator:
    """A game's ``"fitted"`` evaluator: ``heuristic`` (the model's chances) with the fitted prior when
    ``prior`` ships one (else the game's own prior), summarised from the model's training record
    (``games_of``: what the games it was fitted on were)."""
    training = model.training
    summary = (
        f"conditional logit on {len(feature_names)} features fitted to {training.get('games', '?')} "
        f"{games_of} (held-out log-loss {training.get('held_out', {}).get('fitted', '?')})"
    )
    if prior is not None and prior.prior is not None:
        summary += f"; a fitted prior on {len(prior.feature_names)} move features"
    return Evaluator(
        heuristic=heuristic,
        prior=prior.prior if prior is not None else None,
        summary=summary,
        features=features,
        feature_names=tuple(feature_names),
        levels=levels,
        prior_features=prior.features if prior is not None else None,
        prior_feature_names=prior.feature_names if prior is not None else (),
    )
