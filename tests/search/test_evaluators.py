"""Evaluator selection (issue 33): ``SearchOptions.evaluator`` picks one of ``Game.evaluators()`` for
the leaves and priors of a search; ``""`` keeps the game's own heuristic and prior."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from games.core import GameConfig, get_game
from games.core.protocol import Evaluator
from games.errors import ConfigError
from search import MCTS, SearchLimit, SearchOptions, analyze
from search.ismcts import ISMCTS
from search.tree import evaluation
from tests.search.games import NimGame


class CountingNim(NimGame):
    """Nim with a hand-written heuristic and an evaluator named ``"other"``, each counting its calls."""

    def __init__(self) -> None:
        super().__init__(stones=9, priors=True)
        self.calls = {"heuristic": 0, "other": 0, "other_prior": 0}

    def heuristic(self, state: Any) -> tuple[float, ...]:
        self.calls["heuristic"] += 1
        return (0.5, 0.5)

    def _other(self, state: Any) -> tuple[float, ...]:
        self.calls["other"] += 1
        mover = state.turn
        good = state.stones % 4 != 0  # the mover can leave a multiple of 4
        return (0.8, 0.2) if good == (mover == 0) else (0.2, 0.8)

    def _other_prior(self, state: Any) -> Sequence[float] | None:
        self.calls["other_prior"] += 1
        legal = self.legal_actions(state)
        return [1 / len(legal)] * len(legal)

    def evaluators(self) -> Mapping[str, Evaluator]:
        return {
            "other": Evaluator(heuristic=self._other),
            "with-prior": Evaluator(heuristic=self._other, prior=self._other_prior),
        }


@pytest.mark.parametrize("engine", [MCTS, ISMCTS])
def test_named_evaluator_scores_the_leaves(engine: Any) -> None:
    game = CountingNim()
    engine(game, options=SearchOptions(evaluator="other")).search(
        game.new_state(GameConfig(players=2), 0), limit=SearchLimit(simulations=60), seed=1
    )
    assert game.calls["other"] > 0 and game.calls["heuristic"] == 0


def test_default_is_the_games_own() -> None:
    game = CountingNim()
    heuristic, prior = evaluation(game, SearchOptions())
    assert heuristic == game.heuristic and prior == game.prior
    MCTS(game).search(game.new_state(GameConfig(players=2), 0), limit=SearchLimit(simulations=60), seed=1)
    assert game.calls["heuristic"] > 0 and game.calls["other"] == 0


def test_evaluator_without_prior_keeps_the_games_prior_and_one_with_replaces_it() -> None:
    game = CountingNim()
    assert evaluation(game, SearchOptions(evaluator="other"))[1] == game.prior
    assert evaluation(game, SearchOptions(evaluator="with-prior"))[1] == game._other_prior
    MCTS(game, options=SearchOptions(evaluator="with-prior")).search(
        game.new_state(GameConfig(players=2), 0), limit=SearchLimit(simulations=60), seed=1
    )
    assert game.calls["other_prior"] > 0


def test_unknown_evaluator_is_refused_naming_those_known() -> None:
    game = CountingNim()
    with pytest.raises(ConfigError) as err:
        MCTS(game, options=SearchOptions(evaluator="nope"))
    assert err.value.field == "options.evaluator"
    assert "'other'" in err.value.message and "'nope'" in err.value.message


def test_tiberpunk_fitted_search_is_reproducible() -> None:
    game = get_game("tiberpunk")
    assert "fitted" in game.evaluators()
    state = game.new_state(GameConfig(players=2), 5)
    limit = SearchLimit(simulations=80)
    fitted = SearchOptions(evaluator="fitted")
    a = analyze(game, state, limit=limit, seed=3, options=fitted)
    b = analyze(game, state, limit=limit, seed=3, options=fitted)
    assert a.to_dict() | {"elapsed_s": 0} == b.to_dict() | {"elapsed_s": 0}
    assert a.simulations == 80


class LevelNim(CountingNim):
    """CountingNim whose ``"other"`` evaluator is marked for the strength levels."""

    def evaluators(self) -> Mapping[str, Evaluator]:
        return {"other": Evaluator(heuristic=self._other, levels=True)}


def test_levels_search_with_the_evaluator_the_game_marks_for_them() -> None:
    from search import choose_action
    from search.api import level_evaluator

    marked, plain = LevelNim(), CountingNim()
    assert level_evaluator(marked) == "other" and level_evaluator(plain) == ""
    choose_action(marked, marked.new_state(GameConfig(players=2), 0), level=3, seed=1)
    assert marked.calls["other"] > 0 and marked.calls["heuristic"] == 0
    choose_action(plain, plain.new_state(GameConfig(players=2), 0), level=3, seed=1)
    assert plain.calls["heuristic"] > 0 and plain.calls["other"] == 0
