"""The end of the game: only the rulebook's end by default; every policy makes progress.

rule: cyberverse/end-of-game - "The game ends when one of the Organizations has completed a
certain number of Story cards: 6 for 2 players, 5 for 3 players, 4 for 4 players" (or dominates
every district); the rulebook has no turn limit, so ``max_turns`` is an opt-in variant off by
default, and a game it ends says so.
"""

from __future__ import annotations

import random

import pytest

import solver.cyberverse  # noqa: F401  (registers the scorer)
from games.core import CHANCE, TERMINAL, GameConfig
from games.cyberverse import CyberverseGame, engine
from games.cyberverse.engine import END_CAP, END_DOMINATION, END_STORIES, STORIES_TO_WIN, end_reason
from games.cyberverse.state import State
from solver import get_scorer

GAME = CyberverseGame()
GREEDY = GAME.policies()["greedy"]

TURNS_OK = 60
"""A bound no greedy game comes near (their longest is about 40 turns, docs/cyberverse.md): a game
still running after it has stalled."""


def _greedy_game(players: int, seed: int, options: dict[str, int] | None = None) -> State:
    rng = random.Random(seed)
    s = GAME.new_state(GameConfig(players=players, options=options or {}), seed)
    while GAME.current_player(s) != TERMINAL:
        assert s.turn <= TURNS_OK, f"a greedy {players}-player game (seed {seed}) stalled"
        a = GAME.sample_chance(s, rng) if s.actor == CHANCE else GREEDY(s, rng)
        s = GAME.apply_trusted(s, a)
    return s


def test_no_turn_cap_by_default() -> None:
    """rule: cyberverse/end-of-game - no turn limit: the ``max_turns`` variant defaults to 0 (off)."""
    variant = next(v for v in GAME.info.variants if v.name == "max_turns")
    assert variant.default == 0
    assert GAME.new_state(GameConfig(players=2), 1).options.max_turns == 0


@pytest.mark.parametrize(
    ("players", "seeds"), [(2, range(300, 304)), (3, range(300, 303)), (4, range(300, 303))]
)
def test_greedy_games_end_by_the_rulebook(players: int, seeds: range) -> None:
    """rule: cyberverse/end-of-game - with the cap off, games of greedy Organizations end by a
    rulebook condition (a seeded loop over several seeds and player counts: no stall)."""
    for seed in seeds:
        s = _greedy_game(players, seed)
        why = end_reason(s)
        assert why in (END_STORIES, END_DOMINATION)
        if why == END_STORIES:
            assert max(len(o.solved) for o in s.orgs) >= STORIES_TO_WIN[players]
        else:
            assert any(engine.dominates(s, p, s.options.domination) for p in range(players))


def test_random_play_makes_progress() -> None:
    """No step loops for ever: uniformly random play (which spends its money and resolves few
    stories, so it need not end) goes from turn to turn, in a bounded number of steps per turn."""
    for players in (2, 4):
        rng = random.Random(players)
        s = GAME.new_state(GameConfig(players=players), players)
        for turn in range(2, 9):
            steps = 0
            while s.turn < turn and GAME.current_player(s) != TERMINAL:
                a = (
                    GAME.sample_chance(s, rng)
                    if s.actor == CHANCE
                    else rng.choice(list(GAME.legal_actions(s)))
                )
                s = GAME.apply_trusted(s, a)
                steps += 1
                assert steps < 3000, f"turn {s.turn} of a random {players}-player game does not end"


def test_a_capped_game_says_so_in_its_score_sheet_and_description() -> None:
    """rule: cyberverse/end-of-game - a game ended by the opt-in cap (not a rule) says so in its
    score sheet ("end of the game") and its description; a game ended by the rulebook names which
    end fired."""
    capped = _greedy_game(2, 7, {"max_turns": 2})
    assert end_reason(capped) == END_CAP
    report = get_scorer("cyberverse")(GAME, capped)
    for seat in report.seats:
        line = next(x for x in seat.breakdown if x.category == "end of the game")
        assert (
            line.points == 0
            and "turn cap of 2 turns" in line.detail
            and "not the rulebook's end" in line.detail
        )
    assert "ended by the turn cap of 2 turns" in GAME.describe(capped).step
    assert GAME.describe(capped, 0).headline.startswith("CyberVerse, turn 2 of at most 2: ")

    ended = _greedy_game(2, 300)
    report = get_scorer("cyberverse")(GAME, ended)
    detail = next(x for x in report.seats[0].breakdown if x.category == "end of the game").detail
    assert "the rulebook's end" in detail and "turn cap" not in detail
    assert "the rulebook's end" in GAME.describe(ended).step
    assert GAME.describe(GAME.new_state(GameConfig(players=2), 1), 0).headline.startswith(
        "CyberVerse, turn 1: "
    )
