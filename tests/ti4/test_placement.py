"""``legal_placements`` (restriction by ``keep_apart`` sets) against the rule read literally: a
placement is restricted when ``conflicts`` lists a neighbour it may not touch."""

from __future__ import annotations

import random

import pytest

from games.core.protocol import TERMINAL
from games.ti4.placement import conflicts, legal_placements, open_spaces
from games.ti4.state import PLACE
from tests.ti4.helpers import GAME, new

PACK = GAME.pack


def _by_conflicts(galaxy, layout, hand, reading):  # type: ignore[no-untyped-def]
    """The rule as written: free placements first; restricted ones only when there is no other option."""
    spaces = open_spaces(galaxy, PACK.board, layout)
    tiles = sorted(set(hand))
    free = {t: [p for p in spaces if not conflicts(galaxy, PACK.board, PACK.tiles, t, p)] for t in tiles}
    any_free = any(free.values())
    out = []
    for t in tiles:
        if (reading == "player" and not any_free) or (reading == "tile" and not free[t]):
            out += [(t, p) for p in spaces]
        else:
            out += [(t, p) for p in free[t]]
    return out


@pytest.mark.parametrize("reading", ["player", "tile"])
def test_legal_placements_equal_the_rule_read_literally(reading: str) -> None:
    """rule: ti4/anomaly-adjacency, rule: ti4/wormhole-adjacency - every position of 24 random setups,
    with the seat's own hand and with hands of random tiles (anomalies and wormholes crowded)."""
    rng = random.Random(5)
    pool = sorted(PACK.pile("blue", "pok") + PACK.pile("red", "pok"))
    checked = 0
    for seed in range(24):
        s = new(3 + seed % 4, seed, expansion="pok", no_other_option=reading)
        while GAME.current_player(s) != TERMINAL:
            if s.phase == PLACE:
                layout = PACK.board.layouts[s.players]
                for hand in (s.hands[s.actor], rng.sample(pool, 6)):
                    got = legal_placements(s.galaxy, PACK, layout, hand, reading)
                    assert got == _by_conflicts(s.galaxy, layout, hand, reading)
                    checked += 1
            s = GAME.apply(s, rng.choice(list(GAME.legal_actions(s))))
    assert checked > 500
