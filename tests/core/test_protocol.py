"""The Game protocol, the conformance checker and the fixture game."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games.core import CHANCE, TERMINAL, GameConfig, check_game, random_playout
from games.core.check import GameCheckError
from games.errors import ConfigError, IllegalActionError, NotationError, WrongSeatError
from tests.fixtures.pig import PigGame, PigState


@pytest.mark.parametrize("players", [2, 3, 4])
def test_fixture_passes_check_game(players: int) -> None:
    report = check_game(PigGame(), players=players, seeds=range(8))
    assert report.games == 8
    assert report.steps > 0


def test_player_count_is_checked() -> None:
    with pytest.raises(ConfigError) as err:
        PigGame().new_state(GameConfig(players=7), seed=1)
    assert err.value.field == "config.players"
    assert "2 to 4" in str(err.value)


def test_options_are_validated() -> None:
    game = PigGame()
    with pytest.raises(ConfigError, match="unknown option 'speed'"):
        game.new_state(GameConfig(players=2, options={"speed": 1}), seed=1)
    with pytest.raises(ConfigError, match="takes a int"):
        game.new_state(GameConfig(players=2, options={"target": "x"}), seed=1)
    assert game.new_state(GameConfig(players=2, options={"target": 5}), seed=1).target == 5


def test_chance_and_terminal_markers() -> None:
    game = PigGame()
    state = game.new_state(GameConfig(players=2), seed=3)
    assert game.current_player(state) == 0
    rolled = game.apply(state, "roll")
    assert game.current_player(rolled) == CHANCE
    end, steps = random_playout(game, state, random.Random(1))
    assert game.current_player(end) == TERMINAL and steps > 0
    assert sum(game.returns(end)) == pytest.approx(1.0)


def test_illegal_actions_raise_with_field() -> None:
    game = PigGame()
    state = game.new_state(GameConfig(players=2), seed=3)
    with pytest.raises(IllegalActionError) as err:
        game.apply(state, "d6")
    assert err.value.field == "action"
    with pytest.raises(NotationError):
        game.parse_action(state, "jump")
    over = replace(state, over=True)
    with pytest.raises(WrongSeatError):
        game.check_action(over, "roll")


def test_checker_catches_a_mutating_apply() -> None:
    class Mutating(PigGame):
        def apply(self, state: PigState, action: str) -> PigState:
            object.__setattr__(state, "turn_total", state.turn_total + 1)
            return super().apply(state, action)

    with pytest.raises(GameCheckError):
        check_game(Mutating(), players=2, seeds=range(1))


def test_checker_catches_a_peeking_sampler() -> None:
    class Peeking(PigGame):
        def sample_state(self, observation, seat, rng):  # type: ignore[no-untyped-def]
            return replace(observation, bonus=tuple(9 for _ in observation.bonus))

    with pytest.raises(GameCheckError, match="observation"):
        check_game(Peeking(), players=2, seeds=range(1))


def test_checker_catches_an_endless_game() -> None:
    class Endless(PigGame):
        def apply(self, state: PigState, action: str) -> PigState:
            return replace(super().apply(state, action), over=False, scores=(0,) * len(state.scores))

    with pytest.raises(GameCheckError, match="did not end"):
        check_game(Endless(), players=2, seeds=range(1), max_steps=200, thorough=False)


def test_observation_hides_other_bonus() -> None:
    game = PigGame()
    state = game.new_state(GameConfig(players=3), seed=5)
    obs = game.observation(state, 1)
    assert obs.bonus[1] == state.bonus[1]
    assert obs.bonus[0] == obs.bonus[2] == -1
