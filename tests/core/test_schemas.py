"""The public forms' JSON Schemas (issue 17): published in docs/schemas/ as the code gives them, and
every state of random play (and every score sheet a game gives as its example) validates."""

from __future__ import annotations

import random

import pytest
from jsonschema import Draft202012Validator

from games.core import CHANCE, TERMINAL, GameConfig, get_game
from games.core.registry import BUILTIN_GAMES
from games.core.schemas import DOCS, schema_files

NAMES = sorted(BUILTIN_GAMES)


def test_published_schemas_are_the_codes():
    """docs/schemas/ holds exactly what the games give (regenerate: python -m games.core.schemas)."""
    files = schema_files()
    stale = [n for n, text in files.items() if not (DOCS / n).is_file() or (DOCS / n).read_text() != text]
    extra = sorted(p.name for p in DOCS.glob("*.json") if p.name not in files)
    assert not stale and not extra, f"stale: {stale}; not a game's: {extra}"


@pytest.mark.parametrize("name", NAMES)
def test_random_play_states_validate(name):
    game = get_game(name)
    schema = game.state_schema()
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema)
    info = game.info
    for seed in range(2):
        rng = random.Random(seed)
        state = game.new_state(GameConfig(players=rng.choice([info.min_players, info.max_players])), seed)
        for step in range(300):
            if step % 25 == 0:
                errors = sorted(validator.iter_errors(game.to_dict(state)), key=lambda e: list(e.path))
                assert not errors, (
                    f"{name} seed {seed} step {step}: {errors[0].message} at {list(errors[0].path)}"
                )
            player = game.current_player(state)
            if player == TERMINAL:
                break
            legal = list(game.legal_actions(state))
            state = game.apply(
                state, game.sample_chance(state, rng) if player == CHANCE else rng.choice(legal)
            )


@pytest.mark.parametrize("name", NAMES)
def test_score_sheet_schema_is_a_schema(name):
    sheet = get_game(name).score_sheet_schema()
    if sheet is None:
        pytest.skip(f"{name} has no score sheet")
    Draft202012Validator.check_schema(sheet)
