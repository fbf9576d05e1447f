"""The text description: 4-5 players fit 24 lines of 80 columns, and a seat sees nothing hidden.

rule: cytress/minimap-stratos - the description shows the mini-map's hexes by faction, the crews and
waste tubes on them, and each owner's crews on Stratos' three levels.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games.core.face import SPECTATOR
from games.core.protocol import TERMINAL, GameConfig
from games.cytress.state import CytressState
from tests.cytress.helpers import GAME


def _positions(players: int, seed: int, every: int = 11) -> list[CytressState]:
    rng = random.Random(seed)
    s = GAME.new_state(GameConfig(players=players), seed)
    out = [s]
    k = 0
    while GAME.current_player(s) != TERMINAL:
        s = GAME.apply_trusted(s, rng.choice(list(GAME.legal_actions(s))))
        k += 1
        if k % every == 0:
            out.append(s)
    return [*out, s]


@pytest.mark.parametrize("players", [4, 5])
def test_description_fits_24_lines(players: int) -> None:
    """rule: cytress/minimap-stratos - the whole public position in at most 24 lines of 80 columns
    (a seat's and a spectator's view; the referee also sees the face-down decks below it)."""
    for seed in range(2):
        for s in _positions(players, seed):
            for viewer in (SPECTATOR, 0, players - 1):
                text = GAME.describe(s, viewer).to_text()
                lines = text.splitlines()
                assert len(lines) <= 24, text
                assert max(len(x) for x in lines) <= 80


def test_seat_view_hides_deck_order() -> None:
    """rule: cytress/setup - the intel and Stratolite decks are face down: reordering them changes
    nothing a seat or a spectator reads."""
    s = _positions(4, 3)[5]
    shuffled = replace(
        s,
        intel_deck=tuple(tuple(reversed(d)) for d in s.intel_deck),
        strat_deck=tuple(reversed(s.strat_deck)),
    )
    for viewer in (SPECTATOR, 0, 2):
        assert GAME.describe(s, viewer).to_text() == GAME.describe(shuffled, viewer).to_text()
        assert "Face-down" not in GAME.describe(s, viewer).to_text()
    assert "Face-down" in GAME.describe(s).to_text()
