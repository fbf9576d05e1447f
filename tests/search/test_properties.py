"""Property tests (hypothesis): invariants of every analysis."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import GameConfig
from search import SearchLimit, SearchOptions, analyze
from tests.fixtures.pig import PigGame
from tests.search.games import NimGame


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    sims=st.integers(1, 80),
    players=st.integers(2, 4),
    algorithm=st.sampled_from(["mcts", "ismcts"]),
    depth=st.sampled_from([0, 3, None]),
    score=st.integers(0, 11),
)
def test_analysis_invariants(
    *, seed: int, sims: int, players: int, algorithm: str, depth: int | None, score: int
) -> None:
    game = PigGame()
    state = replace(game.new_state(GameConfig(players=players), seed), scores=(score,) + (0,) * (players - 1))
    a = analyze(
        game,
        state,
        limit=SearchLimit(simulations=sims),
        seed=seed,
        algorithm=algorithm,
        options=SearchOptions(rollout_depth=depth),
    )
    assert a.simulations == sims
    assert sum(c.visits for c in a.candidates) == sims
    assert sorted(c.text for c in a.candidates) == sorted(game.legal_actions(state))
    visits = [c.visits for c in a.candidates]
    assert visits == sorted(visits, reverse=True)
    for c in a.candidates:
        assert len(c.value) == players
        assert all(-1e-9 <= v <= 1 + 1e-9 for v in c.value)
        assert 0.0 <= c.lcb <= c.value[a.seat] + 1e-9
    assert abs(sum(a.root_value) - 1.0) < 1e-6


@settings(max_examples=20, deadline=None)
@given(stones=st.integers(1, 9), seed=st.integers(0, 1000))
def test_solver_is_exact_on_small_nim(stones: int, seed: int) -> None:
    """With enough simulations the solver proves every small Nim position, and the proof is right."""
    game = NimGame(stones=stones)
    a = analyze(
        game, game.new_state(GameConfig(players=2), 0), limit=SearchLimit(simulations=20_000), seed=seed
    )
    assert a.root_proven
    mover_wins = stones % 4 != 0
    assert a.root_value == ((1.0, 0.0) if mover_wins else (0.0, 1.0))
    if mover_wins:
        assert a.best.text == f"take{stones % 4}"
