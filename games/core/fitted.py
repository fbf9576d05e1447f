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

__all__ = ["FittedPrior", "WinModel", "fitted_evaluator", "load_model", "softmax", "tempered", "win_chances"]


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
        prior_temperature: the temperature the evaluator's search puts the game's own prior at
            (:func:`tempered`; 1: as the game gives it), chosen by self-play head-to-heads.
        prior_selection: how ``prior_temperature`` was chosen (the matches and their scores).
    """

    game: str
    features: tuple[str, ...]
    weights: Mapping[str, tuple[float, ...]]
    training: Mapping[str, Any] = field(default_factory=dict)
    prior_temperature: float = 1.0
    prior_selection: Mapping[str, Any] = field(default_factory=dict)

    def weights_for(self, players: int) -> tuple[float, ...]:
        """The weights for ``players`` seats (``"*"`` when that count has none; zeros without either)."""
        got = self.weights.get(str(players)) or self.weights.get("*")
        return got if got is not None else (0.0,) * len(self.features)

    def to_dict(self) -> dict[str, Any]:
        """The model as plain JSON types (the shipped file's form)."""
        out: dict[str, Any] = {
            "game": self.game,
            "features": list(self.features),
            "weights": {k: list(v) for k, v in self.weights.items()},
            "training": dict(self.training),
        }
        if self.prior_temperature != 1.0:
            out["prior_temperature"] = self.prior_temperature
            out["prior_selection"] = dict(self.prior_selection)
        return out

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
        try:
            temperature = float(data.get("prior_temperature", 1.0))
        except (TypeError, ValueError):
            temperature = math.nan
        if not 0.1 <= temperature <= 10.0:  # also refuses nan
            raise ContentError(
                f"prior_temperature must be a number from 0.1 to 10, not {data.get('prior_temperature')!r}",
                file=source,
                field="prior_temperature",
            )
        return cls(
            game=game,
            features=features,
            weights=weights,
            training=dict(data.get("training", {})),
            prior_temperature=temperature,
            prior_selection=dict(data.get("prior_selection", {})),
        )


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


def tempered(
    prior: Callable[[Any], Sequence[float] | None], temperature: float
) -> Callable[[Any], Sequence[float] | None]:
    """``prior`` at ``temperature``: each action's probability raised to ``1 / temperature`` and
    renormalised (above 1 flatter, so the search tries the moves the prior doubts sooner; the
    order of the moves is kept). ``prior`` itself at temperature 1."""
    if temperature == 1.0:
        return prior
    power = 1.0 / temperature

    def at_temperature(state: Any) -> Sequence[float] | None:
        p = prior(state)
        if p is None:
            return None
        q = [x**power for x in p]
        total = sum(q)
        return [x / total for x in q]

    return at_temperature


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
    game_prior: Callable[[Any], Sequence[float] | None] | None = None,
) -> Evaluator:
    """A game's ``"fitted"`` evaluator: ``heuristic`` (the model's chances) with the fitted prior when
    ``prior`` ships one, else the game's own prior (``game_prior``) at the model's
    ``prior_temperature``; summarised from the model's training record (``games_of``: what the games
    it was fitted on were)."""
    training = model.training
    summary = (
        f"conditional logit on {len(feature_names)} features fitted to {training.get('games', '?')} "
        f"{games_of} (held-out log-loss {training.get('held_out', {}).get('fitted', '?')})"
    )
    own = None
    if prior is not None and prior.prior is not None:
        summary += f"; a fitted prior on {len(prior.feature_names)} move features"
        own = prior.prior
    elif game_prior is not None and model.prior_temperature != 1.0:
        summary += f"; the game's prior at temperature {model.prior_temperature:g}"
        own = tempered(game_prior, model.prior_temperature)
    return Evaluator(
        heuristic=heuristic,
        prior=own,
        summary=summary,
        features=features,
        feature_names=tuple(feature_names),
        levels=levels,
        prior_features=prior.features if prior is not None else None,
        prior_feature_names=prior.feature_names if prior is not None else (),
    )
