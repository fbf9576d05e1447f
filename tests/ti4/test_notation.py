"""TI4 notation: factions and secret objectives by their printed names (rule: ti4/factions,
rule: ti4/objectives); the pack's ids are still read."""

from __future__ import annotations

import random

import pytest

from games.core.protocol import TERMINAL
from games.errors import NotationError
from games.ti4.state import COLOR, FACTION, SECRET, TI4Action
from tests.ti4.helpers import GAME, new, play_until


@pytest.mark.parametrize(("players", "options"), [(3, {}), (4, {"mode": "milty", "expansion": "pok"})])
def test_every_action_reads_back_and_names_no_id(players: int, options: dict[str, str]) -> None:
    """Every legal action's text reads back to it, in both modes, and no faction id shows."""
    state = new(players, 3, **options)
    rng = random.Random(3)
    while GAME.current_player(state) != TERMINAL:
        legal = list(GAME.legal_actions(state))
        for action in legal:
            text = GAME.action_to_text(state, action)
            assert GAME.parse_action(state, text) == action, text
            if action.kind in ("faction", "keep"):
                assert action.name not in text.split(), text
        state = GAME.apply(state, rng.choice(legal))


def test_faction_by_printed_name_or_id() -> None:
    """rule: ti4/factions — "choose faction The Emirates of Hacan", case-blind, "The" optional."""
    state = play_until(new(3, 1), FACTION)
    want = TI4Action("faction", name="hacan")
    assert GAME.action_to_text(state, want) == "choose faction The Emirates of Hacan"
    for text in (
        "choose faction The Emirates of Hacan",
        "choose faction the emirates of hacan",
        "choose faction Emirates of Hacan",
        "choose faction hacan",
    ):
        assert GAME.parse_action(state, text) == want, text
    sardakk = TI4Action("faction", name="sardakk")
    assert GAME.parse_action(state, "choose faction Sardakk N'orr") == sardakk
    assert GAME.parse_action(state, "choose faction The Arborec") == TI4Action("faction", name="arborec")


def test_secret_objective_by_title() -> None:
    """rule: ti4/objectives — the kept secret objective is written by its title."""
    state = play_until(new(3, 2), SECRET, seed=2)
    assert state.phase == SECRET
    for action in GAME.legal_actions(state):
        text = GAME.action_to_text(state, action)
        title = next(o.name for o in GAME.pack.objectives if o.id == action.name)
        assert text == f"keep secret objective {title}"
        assert GAME.parse_action(state, f"keep secret objective {action.name}") == action


@pytest.mark.parametrize(
    "text",
    ["choose faction The Emperor of Rome", "keep secret objective Win the Game", "choose faction"],
)
def test_unknown_names_are_errors_naming_the_field(text: str) -> None:
    state = play_until(new(3, 1), COLOR)
    with pytest.raises(NotationError) as err:
        GAME.parse_action(state, text)
    assert err.value.field == "action"
