"""The search's analyses, pinned: a SHA-256 of every field of the analysis but the wall time.

The expected digests were taken from the search as it stood before its tree walks were rebuilt on
the shared select / expand / evaluate / backup steps of ``search/tree.py`` (issue 17): the rebuild
must give the same analyses, visit for visit and float for float. Each case drives one path of the
walk on a tiny game: PUCT and UCT selection, chance nodes drawn by the search's own sampler (Pig) and
by the game's (a sampler override), the solver's proofs through decisions and chance nodes, a full
tree (``max_nodes``), cut-off rollouts through dice, tree reuse, and ISMCTS with fresh and pooled
determinizations (also with a full tree, and with priors). Never edit an expected digest to make a
change pass: a changed digest is a changed analysis.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest

from games.core import GameConfig
from search import ISMCTS, MCTS, Analysis, SearchLimit, SearchOptions, analyze
from tests.fixtures.pig import PigGame, PigState
from tests.search.games import GambleGame, NimGame, PeekGame, ThreeSeatGame


def digest(a: Analysis) -> str:
    """SHA-256 of the analysis (``to_dict`` without the wall time; floats written exactly)."""
    data = a.to_dict()
    del data["elapsed_s"]
    return hashlib.sha256(repr(sorted(data.items())).encode()).hexdigest()[:16]


class _PigOwnSampler(PigGame):
    """Pig whose dice are drawn by the game's own ``sample_chance`` (not the search's sampler)."""

    def sample_chance(self, state: PigState, rng: random.Random) -> str:
        return f"d{rng.randrange(6) + 1}"


def _pig(game: PigGame, players: int = 2) -> PigState:
    return game.new_state(GameConfig(players=players), 3)


def _nim_priors() -> Analysis:
    game = NimGame(stones=10, priors=True)
    return analyze(game, game.new_state(GameConfig(players=2), 0), limit=SearchLimit(simulations=800), seed=3)


def _nim_uct() -> Analysis:
    game = NimGame(stones=9)
    return analyze(game, game.new_state(GameConfig(players=2), 0), limit=SearchLimit(simulations=600), seed=2)


def _three_seats() -> Analysis:
    game = ThreeSeatGame()
    return analyze(game, game.new_state(GameConfig(players=3), 0), limit=SearchLimit(simulations=200), seed=4)


def _gamble() -> Analysis:
    game = GambleGame()
    opts = SearchOptions(stop_when_proven=False)
    state = game.new_state(GameConfig(players=2), 0)
    return analyze(game, state, limit=SearchLimit(simulations=300), seed=5, options=opts)


def _pig_mcts(players: int, **options: Any) -> Analysis:
    game = PigGame()
    opts = SearchOptions(**options)
    return analyze(
        game, _pig(game, players), limit=SearchLimit(simulations=400), seed=6, options=opts, algorithm="mcts"
    )


def _pig_own_sampler() -> Analysis:
    game = _PigOwnSampler()
    state = _pig(game)
    return analyze(game, state, limit=SearchLimit(simulations=400), seed=7, algorithm="mcts")


def _pig_reuse() -> Analysis:
    game = PigGame()
    engine = MCTS(game)
    state = _pig(game)
    first = engine.search(state, limit=SearchLimit(simulations=300), seed=8)
    engine.advance(first.best_action)
    state = game.apply(state, first.best_action)
    while game.current_player(state) < 0:  # a roll: the first face, then search again
        outcome = game.chance_outcomes(state)[1][0]
        engine.advance(outcome)
        state = game.apply(state, outcome)
    return engine.search(state, limit=SearchLimit(simulations=300), seed=9)


def _pig_ismcts(players: int, **options: Any) -> Analysis:
    game = PigGame()
    opts = SearchOptions(**options)
    return analyze(game, _pig(game, players), limit=SearchLimit(simulations=400), seed=10, options=opts)


def _pig_ismcts_reuse() -> Analysis:
    game = PigGame()
    engine = ISMCTS(game)
    state = _pig(game)
    first = engine.search(state, limit=SearchLimit(simulations=300), seed=11)
    assert first.best.text == "roll"  # the same seat moves after the roll: the tree is reused
    engine.advance(first.best_action)
    state = game.apply(state, first.best_action)
    while game.current_player(state) < 0:
        outcome = game.chance_outcomes(state)[2][0]
        state = game.apply(state, outcome)
    return engine.search(state, limit=SearchLimit(simulations=300), seed=12)


def _nim_ismcts(**options: Any) -> Analysis:
    game = NimGame(stones=10, priors=True)
    opts = SearchOptions(**options)
    state = game.new_state(GameConfig(players=2), 0)
    return analyze(game, state, limit=SearchLimit(simulations=300), seed=13, options=opts, algorithm="ismcts")


def _peek(**options: Any) -> Analysis:
    game = PeekGame()
    opts = SearchOptions(**options)
    state = game.new_state(GameConfig(players=2), 1)
    return analyze(game, state, limit=SearchLimit(simulations=200), seed=14, options=opts)


CASES: dict[str, tuple[Any, str]] = {
    "mcts: PUCT with priors and proofs (Nim)": (_nim_priors, "0c0de2b649afc607"),
    "mcts: UCT with proofs (Nim)": (_nim_uct, "6d1cd843cb7477a2"),
    "mcts: three seats, max^n proof": (_three_seats, "69a175749dd14448"),
    "mcts: a proof through a chance node (Gamble)": (_gamble, "e8f8f6d1bc548662"),
    "mcts: the search's own dice sampler (Pig, 2 seats)": (lambda: _pig_mcts(2), "9b097fdfd6e2dbd3"),
    "mcts: 3 seats, rollouts through dice": (
        lambda: _pig_mcts(3, rollout_depth=6, chance_leaf_samples=0),
        "e6c764f4a960bde7",
    ),
    "mcts: a full tree (max_nodes)": (lambda: _pig_mcts(2, max_nodes=40), "2963ce24bc70cd6e"),
    "mcts: raw values, no solver": (
        lambda: _pig_mcts(2, normalize_values=False, solver=False, uct_c=0.7),
        "9e2e78d0c77a3ccc",
    ),
    "mcts: the game's own dice sampler": (_pig_own_sampler, "eb2b8e13c7d21764"),
    "mcts: tree reuse through a roll": (_pig_reuse, "c52d555fd707ba5e"),
    "ismcts: fresh determinizations (Pig)": (lambda: _pig_ismcts(2), "1817678041723ec4"),
    "ismcts: 3 seats, rollouts through dice": (
        lambda: _pig_ismcts(3, rollout_depth=5),
        "75985a6a0be98c77",
    ),
    "ismcts: a full tree": (lambda: _pig_ismcts(2, max_nodes=30), "e8d2cedb284eb766"),
    "ismcts: pooled determinizations": (lambda: _pig_ismcts(2, determinizations=3), "5107bf09c7c789e0"),
    "ismcts: pooled, a full tree": (
        lambda: _pig_ismcts(2, determinizations=4, max_nodes=60),
        "6143141ae837d43d",
    ),
    "ismcts: tree reuse after the seat's move": (_pig_ismcts_reuse, "bdac94681083f17e"),
    "ismcts: PUCT with priors (Nim)": (_nim_ismcts, "a63cb03f46baffc6"),
    "ismcts: pooled with priors (Nim)": (lambda: _nim_ismcts(determinizations=2), "6e5d98af2f17f798"),
    "ismcts: hidden card (Peek)": (_peek, "ec74f697f38a0da5"),
    "ismcts: pooled hidden card (Peek)": (lambda: _peek(determinizations=3), "d314ab3f65bdd11e"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_analysis_is_unchanged(name: str) -> None:
    run, expected = CASES[name]
    assert digest(run()) == expected
