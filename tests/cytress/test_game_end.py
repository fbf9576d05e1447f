"""How a game of Cytress ends (issue 28): only by the rulebook's end with 2-5 players, every policy
making progress toward it, and the opt-in round cap saying so when it ends a game.

rule: cytress/game-end-trigger - "At the end of the round where the last of the game's allocated
waste tubes were placed onto Cytress, players move to scoring the rebellion."
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.core.protocol import TERMINAL, GameConfig
from games.cytress.flow import END_LIMIT, END_SOLO, END_TUBES, end_condition
from games.cytress.game import DEFAULT_ROUND_LIMIT
from games.cytress.state import OVER, CytressState
from games.errors import InvalidStateError
from solver.cytress import score
from tests.cytress.helpers import GAME, play_until

ROUNDS_BOUND = 12
"""No game of a shipped policy may reach this round: the rulebook speaks of "approximately 5
rounds", and the greedy, automa-policy and search seats' games end by round 7 (docs/cytress.md, the
game-length table)."""
RANDOM_ROUNDS_BOUND = 30
"""Random play's bound: its games end too, but with a long tail (2 players, 5,000 seeds: rounds 5-14,
median 7; one bench game took 16)."""


def _play(players: int, seed: int, policy: str, **options: int | str) -> CytressState:
    """A game with every seat played by ``policy`` (``random`` or a shipped policy), no cap unless
    ``options`` set one; fails if it passes ``ROUNDS_BOUND`` rounds."""
    s = GAME.new_state(GameConfig(players=players, options=dict(options)), seed)
    rng = random.Random(seed)
    engine = GAME.policies().get(policy)
    bound = RANDOM_ROUNDS_BOUND if engine is None else ROUNDS_BOUND
    while GAME.current_player(s) != TERMINAL:
        assert s.round < bound, f"{policy} stalls: round {s.round}, {s.tubes_left} sections left"
        a = rng.choice(list(GAME.legal_actions(s))) if engine is None else engine(s, rng)
        s = GAME.apply_trusted(s, a)
    return s


def test_no_round_limit_by_default() -> None:
    """rule: cytress/game-end-trigger - the rulebook has no round limit: the variant is off (0) by
    default; a solo game keeps its printed end after round 5 (rule: cytress/solo-game-end)."""
    assert DEFAULT_ROUND_LIMIT == 0
    variant = next(v for v in GAME.info.variants if v.name == "round_limit")
    assert variant.default == 0
    assert GAME.new_state(GameConfig(players=3), 1).round_limit == 0
    assert GAME.new_state(GameConfig(players=1), 1).round_limit == 5


def test_seed_18_merchant_only_play_goes_past_round_10() -> None:
    """rule: cytress/game-end-trigger - the invented end, reproduced: 2 players, seed 18, default
    options; the first scout, then "meet the merchant" / "done trading" every travel turn. Before,
    the game was over after round 10 with all 14 tube sections still near Stratos; now it goes on
    (nobody placed the last allocated section)."""
    s = GAME.new_state(GameConfig(players=2), 18)
    while GAME.current_player(s) != TERMINAL and s.round <= 11:
        legal = GAME.legal_actions(s)
        words = [GAME.action_to_text(s, a) for a in legal]
        picks = [a for a, w in zip(legal, words, strict=True) if w in ("meet the merchant", "done trading")]
        s = GAME.apply(s, picks[0] if picks else legal[0])
    assert s.phase != OVER and s.round == 12
    assert s.tubes_left == 14 and not s.end_triggered


def test_last_allocated_section_ends_the_round_then_the_game() -> None:
    """rule: cytress/game-end-trigger - a game ends after the round its last allocated section was
    placed, and its score sheet and description say so."""
    end = _play(3, 4, "automa")
    assert end.end_triggered and end.tubes_left == 0 and end_condition(end) == END_TUBES
    report = score(GAME, end)
    assert (
        report.final
        and f"last allocated waste tube section was placed in round {end.round}" in report.ended_by
    )
    assert "the last allocated tube section was placed" in GAME.describe(end).headline


def test_round_limit_cap_says_it_is_not_the_rulebooks_end() -> None:
    """rule: cytress/game-end-trigger - (variant) ``round_limit`` is an opt-in safety cap; a game it
    stops says so in its score (``ended_by``, as ScoreResponse.ended_by serves it) and in its
    description."""
    s = GAME.new_state(GameConfig(players=2, options={"round_limit": 2, "rebel_sides": "A"}), 3)
    end = play_until(s, lambda x: x.phase == OVER)
    assert end.round == 2 and not end.end_triggered and end_condition(end) == END_LIMIT
    report = score(GAME, end)
    assert report.ended_by == (
        f"the round_limit cap of 2 rounds (a variant, not in the rulebook), with {end.tubes_left} "
        "allocated tube sections still near Stratos"
    )
    assert "round_limit cap, not the rulebook's end" in GAME.describe(end).headline
    assert score(GAME, s).ended_by == ""  # not over yet


def test_solo_still_ends_after_round_5() -> None:
    """rule: cytress/solo-game-end - "A solo game ends at the end of the 5th round"."""
    end = _play(1, 2, "automa")
    assert end.round == 5 and end_condition(end) == END_SOLO
    assert "end of the 5th round" in score(GAME, end).ended_by


def test_a_game_over_without_its_end_is_refused() -> None:
    """rule: cytress/game-end-trigger - a 2-5 player game over with allocated sections left and no
    round limit reached is not a position of the game: ``from_dict`` names the field."""
    s = GAME.new_state(GameConfig(players=2, options={"round_limit": 2, "rebel_sides": "A"}), 3)
    data = GAME.to_dict(play_until(s, lambda x: x.phase == OVER))
    assert GAME.from_dict(data).phase == OVER
    data["round_limit"] = 0
    with pytest.raises(InvalidStateError) as err:
        GAME.from_dict(data)
    assert err.value.field == "state.phase"
    data["round_limit"] = 2
    data["tubes_from_box"] = False  # 2-5 players always build on from the box
    with pytest.raises(InvalidStateError) as err:
        GAME.from_dict(data)
    assert err.value.field == "state.tubes_from_box"


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 5),
    seed=st.integers(0, 2**31),
    policy=st.sampled_from(["automa", "random", "automa", "random", "greedy"]),
)
def test_no_policy_stalls_without_a_cap(players: int, seed: int, policy: str) -> None:
    """rule: cytress/game-end-trigger - with no cap, every policy's games end by the tubes running
    out, the shipped policies' within ``ROUNDS_BOUND`` rounds (issue 28: the automa policy used to
    meet the fixer forever once its checklists found no tube)."""
    end = _play(players, seed, policy)
    assert end.end_triggered and end_condition(end) == END_TUBES


def test_the_search_seat_makes_progress() -> None:
    """rule: cytress/game-end-trigger - the ISMCTS seat (few simulations, to stay fast) against the
    automa policy, no cap: the games end by the tubes running out."""
    from search import SearchLimit, SearchOptions
    from search.bots import SearchBot

    automa = GAME.policies()["automa"]
    for players, seed in ((2, 7), (3, 8), (4, 9)):
        bot = SearchBot(GAME, limit=SearchLimit(simulations=8), options=SearchOptions(), seed=seed)
        s = GAME.new_state(GameConfig(players=players), seed)
        rng = random.Random(seed)
        while GAME.current_player(s) != TERMINAL:
            assert s.round < ROUNDS_BOUND
            s = GAME.apply(s, bot.act(s) if s.actor == 0 else automa(s, rng))
        assert s.end_triggered
