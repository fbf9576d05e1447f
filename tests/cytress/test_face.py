"""The text description: 4-5 players fit 24 lines of 80 columns, and a seat sees nothing hidden.

rule: cytress/minimap-stratos - the description shows the mini-map's hexes by faction, the crews and
waste tubes on them, and each owner's crews on Stratos' three levels.
"""

from __future__ import annotations

import random

import pytest

from games.core.face import SPECTATOR
from games.core.protocol import TERMINAL, GameConfig
from games.core.records import replace
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


@pytest.mark.parametrize("players", [1, 3])
def test_log_lines_read_as_a_table_says_them(players: int) -> None:
    """rule: cytress/phase-3a-travel - every decision's log line is a sentence in the rulebook's
    words (no notation echoed after a colon), names hexes with their faction and cards with what
    they show, and two moves never read the same."""
    kinds: set[str] = set()
    for seed in range(2):
        rng = random.Random(seed)
        s = GAME.new_state(GameConfig(players=players), seed)
        while GAME.current_player(s) != TERMINAL:
            legal = list(GAME.legal_actions(s))
            lines = [GAME.log_line(s, a, SPECTATOR) for a in legal]
            assert len(set(lines)) == len(lines), lines
            for a, line in zip(legal, lines, strict=True):
                kinds.add(a.kind)
                assert ": " + GAME.action_to_text(s, a) not in line, line
                assert line.endswith(".") and line[0].isupper(), line
                if a.kind in ("crew", "tube") or a.kind.startswith("automa-"):
                    assert "hex)" in line, line
                if a.kind in ("stratolite", "reserve"):
                    assert "paid in" in line, line
            s = GAME.apply_trusted(s, rng.choice(legal))
    assert {"side", "scout", "pad", "intel", "crew", "tube", "height"} <= kinds


def test_explanations_tell_apart_amounts_intel_and_spying() -> None:
    """rule: cytress/meet-the-merchant, rule: cytress/phase-3a-travel - a hint's reasons differ
    between the Merchant's amounts and between intel cards (the resources and lifepath icons after
    the move), and placing a crew counts the rivals it may spy on."""
    from games.core.face import as_facts

    seen: set[str] = set()
    for seed in range(2):
        rng = random.Random(seed)
        s = GAME.new_state(GameConfig(players=3), seed)
        while GAME.current_player(s) != TERMINAL:
            legal = list(GAME.legal_actions(s))
            if legal[0].kind in ("amount", "intel") and len(legal) > 1:
                rows = {tuple(f.value for f in as_facts(GAME.explain(s, a))) for a in legal}
                cards = [GAME.pack.intel[a.arg] for a in legal if a.kind == "intel"]
                if not cards or len({(c.icons, c.target) for c in cards}) > 1:  # (twins read alike)
                    seen.add(legal[0].kind)
                    assert len(rows) > 1, [GAME.action_to_text(s, a) for a in legal]
            s = GAME.apply_trusted(s, rng.choice(legal))
    assert seen == {"amount", "intel"}


def test_the_picture_names_what_it_shows() -> None:
    """rule: cytress/minimap-stratos - the SVG shows Stratos' levels in words, every rebel's holdings
    in words, the intel for sale with its icons and targets, and the Stratolites by name."""
    s = GAME.new_state(GameConfig(players=3), 4)
    rng = random.Random(4)
    for _ in range(60):
        s = GAME.apply_trusted(s, rng.choice(list(GAME.legal_actions(s))))
    svg = GAME.render(s, 0)
    assert "level 3" in svg and "crews left" in svg and "intel cards on lifepaths" in svg
    for x in s.strat_row:
        if x >= 0:
            assert GAME.pack.stratolites[x].name in svg
    assert "→" in svg and "targets" in svg
