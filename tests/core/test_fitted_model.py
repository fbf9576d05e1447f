"""The shipped win models' form (games/core/fitted.py): the prior temperature a model may carry and
the tempered prior it gives the search."""

from __future__ import annotations

import math

import pytest

from games.core.fitted import WinModel, fitted_evaluator, tempered
from games.errors import ContentError

BASE = {"game": "g", "features": ["a", "b"], "weights": {"*": [1.0, 0.0]}, "training": {"games": 3}}


def test_a_model_without_a_temperature_keeps_the_games_prior() -> None:
    model = WinModel.from_dict(BASE)
    assert model.prior_temperature == 1.0
    assert "prior_temperature" not in model.to_dict()
    ev = fitted_evaluator(
        model, lambda s: (0.5, 0.5), lambda s: [], ("a", "b"), levels=False, game_prior=lambda s: [1.0]
    )
    assert ev.prior is None  # the search then reads the game's own prior


def test_a_temperature_round_trips_and_tempers_the_games_prior() -> None:
    data = {**BASE, "prior_temperature": 2.0, "prior_selection": {"tried": {"2": "60%"}}}
    model = WinModel.from_dict(data)
    assert WinModel.from_dict(model.to_dict()) == model
    ev = fitted_evaluator(
        model, lambda s: (0.5, 0.5), lambda s: [], ("a", "b"), levels=False, game_prior=lambda s: [0.64, 0.36]
    )
    assert ev.prior is not None and ev.prior(None) == pytest.approx([0.8 / 1.4, 0.6 / 1.4])


@pytest.mark.parametrize("bad", [0.0, -1.0, 11.0, math.nan, "hot", None])
def test_a_temperature_out_of_range_is_a_content_error_naming_the_field(bad: object) -> None:
    with pytest.raises(ContentError) as err:
        WinModel.from_dict({**BASE, "prior_temperature": bad}, source="pack/fitted.json")
    assert err.value.field == "prior_temperature" and "0.1 to 10" in str(err.value)


def test_tempered_keeps_the_order_sums_to_one_and_passes_none_through() -> None:
    prior = [0.7, 0.2, 0.1, 0.0]
    for t in (0.5, 2.0, 4.0):
        got = tempered(lambda s: prior, t)(None)
        assert got is not None and sum(got) == pytest.approx(1.0)
        assert got[0] > got[1] > got[2] > got[3] == 0.0
    flatter = tempered(lambda s: prior, 2.0)(None)
    assert flatter is not None and flatter[0] < 0.7
    assert tempered(lambda s: None, 2.0)(None) is None
    one = lambda s: prior  # noqa: E731
    assert tempered(one, 1.0) is one
