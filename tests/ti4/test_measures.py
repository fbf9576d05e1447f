"""Each measure of balance reproduces a map computed by hand (games/ti4/measures.py, docs/ti4.md).

The map (six players, homes at 19, 22, 25, 28, 31, 34; every other space empty and passable):

    pos  7: tile 26 Lodor (3/1, cultural, alpha wormhole)   home 19's neighbour
    pos  8: tile 65 Primor (2/1, cultural, legendary)       2 moves from 19 and from 22
    pos 20: tile 24 Mehar Xull (1/3, hazardous, warfare)    19's neighbour, 2 moves from 22
    pos  1: tile 43 supernova                               the only way from 19 to Mecatol Rex
    pos  9: tile 42 nebula                                  the only way from 22 to Mecatol Rex
    pos  2: tile 19 Wellon (1/2, industrial, cybernetic)    behind the nebula from 22
    pos 35: tile 64 Atlas (3/1, hazardous, beta wormhole)   home 34's neighbour, 2 moves from 19
    pos 24: tile 44 asteroid field                          22's 2nd ring, 25's neighbour
    pos 10: tile 37 Arinam (1/2, ind.) / Meer (0/4, haz., warfare)  2 moves from 22 and from 25

Board (map-string positions): 19 touches 20, 7, 36; 22 touches 23, 9, 21; 25 touches 24, 26, 11;
34 touches 35, 17, 33; 8 touches 20, 21, 9, 2, 1, 7; 10 touches 9, 23, 24, 11, 3, 2.
"""

from __future__ import annotations

import pytest

from games.errors import ConfigError
from games.ti4 import measures
from games.ti4.balance import SCALE, Weights, home_reports, mecatol_terms
from tests.ti4.helpers import GAME

PACK = GAME.pack
BOARD = PACK.board
HOMES = (19, 22, 25, 28, 31, 34)
MAP = {0: 18, 7: 26, 8: 65, 20: 24, 1: 43, 9: 42, 2: 19, 35: 64, 24: 44, 10: 37}


def test_community_by_hand() -> None:
    """``community``: a system is worth the sum of max(R, I) over its planets, + 0.5 per specialty,
    + 1 per legendary planet; within 2 moves it counts for the nearest home(s), split on ties; the
    Mecatol Rex path term is 3 x (3 - d) - 2 if every shortest path crosses a supernova - 1 likewise
    for a nebula; supernovae cannot be entered, nebulae cannot be left, wormholes add no adjacency.

    Values: Lodor 3, Primor 2 + 1 = 3, Mehar Xull 3 + 0.5 = 3.5, Wellon 2 + 0.5 = 2.5, Atlas 3,
    Arinam/Meer 2 + 4 + 0.5 = 6.5, the anomalies 0.

    - 19: Mehar Xull (1 move; 22 is 2 away) 3.5 + Lodor (1 move) 3 + half of Primor (2 moves, tied
      with 22) 1.5 = 8; the supernova at 1 is on its only path (7, 1) to Mecatol Rex: d = 3,
      3 x 0 - 2 = -2. Atlas at 35 is 1 move from 34: 34's. Total 6.
    - 22: half of Primor 1.5 + half of Arinam/Meer (2 moves via 23; 25 reaches it in 2 too) 3.25
      = 4.75; Wellon at 2 is only reached through the nebula at 9, which cannot be left: nobody's;
      the nebula is on its only path (9, 2): -1. Total 3.75.
    - 25: half of Arinam/Meer 3.25 (the asteroid field at 24 can be crossed). Total 3.25.
    - 28, 31: 0. 34: Atlas 3.
    """
    assert measures.community(BOARD, MAP, HOMES, PACK.tiles) == [6.0, 3.75, 3.25, 0.0, 0.0, 3.0]


def test_simple_by_hand() -> None:
    """``simple``: the same system values and movement; within 1 move a system counts in full, within
    2 moves half, for every home that reaches it; no Mecatol Rex term.

    - 19: 1 move: Mehar Xull 3.5 + Lodor 3 = 6.5; 2 moves: Primor 3/2 + Atlas 3/2 = 3. Total 9.5.
    - 22: 1 move: nothing of value (the nebula is 0); 2 moves: Arinam/Meer 6.5/2 + Primor 1.5 +
      Mehar Xull 3.5/2 = 6.5 (Wellon is behind the nebula). Total 6.5.
    - 25: Arinam/Meer 3.25. 28, 31: 0. 34: Atlas 3 (19's own Lodor is 3 moves away).
    """
    assert measures.simple(BOARD, MAP, HOMES, PACK.tiles) == [9.5, 6.5, 3.25, 0.0, 0.0, 3.0]


def test_lictor_by_hand() -> None:
    """``lictor`` (the ``Weights`` defaults): optimal resources + influence, + 0.2 per trait, + 0.5 per
    specialty, + 1 per legendary, + 0.5 per wormhole; 1, 2, 3 moves weigh 1, 0.6, 0.3, nearest homes
    share; asteroid fields cannot be entered, leaving a nebula costs 2 moves.

    Values: Lodor 3 + 0.2 + 0.5 = 3.7, Primor 2 + 0.2 + 1 = 3.2, Mehar Xull 3 + 0.2 + 0.5 = 3.7,
    Wellon 2 + 0.2 + 0.5 = 2.7, Atlas 3.7, Arinam/Meer (2 + 0.2) + (4 + 0.2 + 0.5) = 6.9.

    - Lodor (1 move from 19 only): 19 gets 3.7. Mehar Xull (19 at 1, 22 at 2): 19 gets 3.7.
    - Primor (19 and 22 at 2): 3.2 x 0.6 / 2 = 0.96 each. Atlas (34 at 1): 34 gets 3.7.
    - Wellon at 2: 3 moves from 19 (via 8), 22 (via 21, 8) and 25 (via 11, 3): 2.7 x 0.3 / 3 = 0.27
      each. Arinam/Meer (22 via 23 and 25 via 11 at 2): 6.9 x 0.6 / 2 = 2.07 each.
    - 19: 3.7 + 3.7 + 0.96 + 0.27 = 8.63; 22: 0.96 + 0.27 + 2.07 = 3.30; 25: 0.27 + 2.07 = 2.34; 34: 3.7.
    """
    got = measures.lictor(BOARD, MAP, HOMES, PACK.tiles)
    assert got == pytest.approx([8.63, 3.30, 2.34, 0.0, 0.0, 3.7], abs=1e-9)


def test_joint_by_hand() -> None:
    """``joint``: the worse of the two gaps: community 6 - 0 = 6, simple 9.5 - 0 = 9.5: 9.5."""
    assert measures.joint(BOARD, MAP, HOMES, PACK.tiles) == 9.5


def test_own_weights_per_term() -> None:
    """A user's own weights on top of a measure: ``community`` with a specialty worth 1 (not 0.5).

    Mehar Xull 3 + 1 = 4, Arinam/Meer 2 + 4 + 1 = 7: 19: 4 + 3 + 1.5 - 2 = 6.5; 22: 1.5 + 3.5 - 1 =
    4; 25: 3.5; 34: 3.
    """
    m = measures.measure("community", {"specialty": 1.0})
    assert m.name == "custom"
    vals = m.values(BOARD, MAP, HOMES, PACK.tiles)
    assert [v / SCALE for v in vals[0]] == [6.5, 4.0, 3.5, 0.0, 0.0, 3.0]
    assert measures.measure("community", {}) is measures.MEASURES["community"]
    with pytest.raises(ConfigError) as err:
        measures.measure("community", {"specialty": 0.33}, field="params.measure")
    assert err.value.field == "params.weights.specialty"
    with pytest.raises(ConfigError):
        measures.measure("fairest")


def test_mecatol_path_term_needs_every_shortest_path_blocked() -> None:
    """The Mecatol Rex path term: four players, home 23 reaches Mecatol Rex in 3 moves by 10-3,
    10-2 or 9-2. One supernova (at 10) leaves the way by 9-2: no penalty; supernovae at 2 and 3
    cross every way: -2; a nebula at 10 and one at 9 likewise: -1."""
    homes = BOARD.layouts[4].homes
    unit = SCALE
    w = measures.COMMUNITY
    assert mecatol_terms(BOARD, {10: 43}, homes, PACK.tiles, w)[0] == 0
    assert mecatol_terms(BOARD, {2: 43, 3: 80}, homes, PACK.tiles, w)[0] == -2 * unit
    assert mecatol_terms(BOARD, {10: 42, 9: 68}, homes, PACK.tiles, w)[0] == -1 * unit
    reps = home_reports(BOARD, {0: 18, 2: 43, 3: 80}, homes, PACK.tiles, w)
    assert reps[0].mecatol_term == -2.0


def test_weights_accept_the_new_terms_and_reject_bad_ones() -> None:
    assert Weights(nebula_exit=-1).nebula_stops
    with pytest.raises(ConfigError) as err:
        Weights(mecatol_moves=9)
    assert err.value.field == "weights.mecatol_moves"
    with pytest.raises(ConfigError):
        Weights.from_dict({"homes_block": "yes"})


def test_the_game_and_its_hints_use_the_community_measure() -> None:
    """The game's own home value (AI seats, hints, the scorer) is the ``community`` measure."""
    assert GAME.weights == measures.COMMUNITY


def test_the_score_sheet_adds_up_term_by_term() -> None:
    """Each home's value split by term (resources, influence, specialties, legendary planets, the
    Mecatol Rex path...) adds up to the value: home 19 of the map above by ``community``: Lodor's 3
    resources, Mehar Xull's 3 influence and Primor's half (1 resource, 0.5 legendary) give 4
    resources, 3 influence, 0.5 specialty (Mehar Xull), 0.5 legendary; - 2 on the path; 6 in all."""
    rep = home_reports(BOARD, MAP, HOMES, PACK.tiles, measures.COMMUNITY)[0]
    terms = dict(rep.terms)
    assert terms["optimal resources"] == 4.0 and terms["optimal influence"] == 3.0
    assert terms["technology specialties"] == 0.5 and terms["legendary planets"] == 0.5
    assert terms["Mecatol Rex path"] == -2.0
    assert sum(terms.values()) == rep.value == 6.0
