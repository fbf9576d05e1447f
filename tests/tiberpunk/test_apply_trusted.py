"""``apply_trusted`` (the searches' fast path, no legality re-check) equals ``apply`` on legal actions.

rule: tiberpunk/game-overview — every action of seeded random games (2, 3 and 4 players, the
Personal Abilities module on and off; rule: tiberpunk/personal-abilities), every legal action and
every chance outcome of each position visited, gives the same state through both paths.
"""

from __future__ import annotations

import random

import pytest

from games.core import CHANCE, TERMINAL, GameConfig
from games.errors import IllegalActionError
from tests.tiberpunk.helpers import GAME

# (players, abilities) -> positions checked; the sum is in the thousands
CASES = [(2, False), (2, True), (3, False), (3, True), (4, False), (4, True)]
POSITIONS = 600


def _sweep(players: int, abilities: bool, positions: int) -> tuple[int, int]:
    """Check every legal action / chance outcome of ``positions`` positions from seeded random games;
    returns (positions, actions) checked."""
    config = GameConfig(players=players, options={"abilities": abilities, "max_rounds": 30})
    seen = actions = 0
    seed = 0
    while seen < positions:
        rng = random.Random(seed)
        state = GAME.new_state(config, seed)
        seed += 1
        while seen < positions:
            player = GAME.current_player(state)
            if player == TERMINAL:
                break
            if player == CHANCE:
                options = [a for a, _ in GAME.chance_outcomes(state)]
            else:
                options = list(GAME.legal_actions(state))
            for a in options:
                trusted = GAME.apply_trusted(state, a)
                assert trusted == GAME.apply(state, a), (seed, GAME.state_to_text(state), a)
                actions += 1
            seen += 1
            if player == CHANCE:
                action = GAME.sample_chance(state, rng)
            else:
                action = options[rng.randrange(len(options))]
            state = GAME.apply_trusted(state, action)
    return seen, actions


@pytest.mark.parametrize(("players", "abilities"), CASES)
def test_apply_trusted_equals_apply(players: int, abilities: bool) -> None:
    """rule: tiberpunk/game-overview — same state as ``apply`` for every legal action."""
    seen, actions = _sweep(players, abilities, POSITIONS)
    assert seen == POSITIONS and actions > POSITIONS


def test_apply_still_checks_legality() -> None:
    """rule: tiberpunk/movement — the checked ``apply`` keeps rejecting what is not legal."""
    state = GAME.new_state(GameConfig(players=2), 3)
    while GAME.current_player(state) == CHANCE:
        state = GAME.apply(state, GAME.sample_chance(state, random.Random(0)))
    legal = set(GAME.legal_actions(state))
    illegal = next(a for a in range(1, 1 << 20) if a not in legal)
    with pytest.raises(IllegalActionError):
        GAME.apply(state, illegal)
