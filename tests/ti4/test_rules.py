"""One test (at least) per rulebook section of the TI4 setup (rule ids from sections.json)."""

from __future__ import annotations

from collections import Counter

import pytest

from games.errors import IllegalActionError
from games.ti4.finish import seat_components
from games.ti4.legality import check_map
from games.ti4.placement import legal_placements, open_spaces, snake_seat
from games.ti4.setup import home_system_tile, starting_planets
from games.ti4.state import COLOR, FACTION, OVER, PLACE, RED, SECRET, Placement, TI4Action
from tests.ti4.helpers import GAME, new, play_out, play_until

PACK = GAME.pack


def test_speaker_drawn_from_the_seed() -> None:
    """rule: ti4/speaker - a random speaker, the same for the same seed, and first to choose."""
    speakers = {new(6, seed).speaker for seed in range(30)}
    assert speakers == set(range(6))
    assert new(4, 3).speaker == new(4, 3).speaker
    s = new(4, 3)
    assert s.phase == FACTION and s.actor == s.speaker


def test_factions_chosen_from_the_speaker_clockwise() -> None:
    """rule: ti4/factions - each player chooses a faction in turn, speaker first; its home system tile."""
    s = new(4, 5)
    order = []
    while s.phase == FACTION:
        order.append(s.actor)
        s = GAME.apply(s, GAME.legal_actions(s)[0])
    start = s.table.index(s.speaker)
    assert order == [s.table[(start + k) % 4] for k in range(4)]
    assert len(set(s.factions)) == 4
    f = PACK.faction("arborec")
    assert f is not None and home_system_tile(PACK, "arborec") == f.home
    assert PACK.tiles[f.home].back == "green"


def test_a_faction_cannot_be_taken_twice() -> None:
    """rule: ti4/factions - a chosen faction is no longer offered; choosing it is illegal."""
    s = new(3, 1)
    first = GAME.legal_actions(s)[0]
    s = GAME.apply(s, first)
    assert first not in GAME.legal_actions(s)
    with pytest.raises(IllegalActionError):
        GAME.apply(s, first)


def test_color_and_starting_planets() -> None:
    """rule: ti4/color-and-planets - each player chooses a colour; the home system's planets as cards."""
    s = play_until(new(3, 2), COLOR)
    while s.phase == COLOR:
        s = GAME.apply(s, GAME.legal_actions(s)[-1])
    assert len(set(s.colors)) == 3 and all(s.colors)
    comp = seat_components(s, PACK, 0)
    f = PACK.faction(s.factions[0])
    assert comp is not None and f is not None
    assert comp.planets == starting_planets(PACK, f.id) == tuple(p.name for p in PACK.tiles[f.home].planets)


def test_separate_systems_by_back() -> None:
    """rule: ti4/separate-systems - blue-backed and red-backed piles; home systems green, apart."""
    assert (len(PACK.pile("blue", "base")), len(PACK.pile("red", "base"))) == (20, 12)
    assert all(PACK.tiles[t].back == "blue" for t in PACK.pile("blue", "pok"))
    assert all(PACK.tiles[f.home].back == "green" for f in PACK.factions)
    assert 18 not in PACK.pile("blue", "pok") + PACK.pile("red", "pok")


@pytest.mark.parametrize(("players", "blue", "red"), [(3, 6, 2), (4, 5, 3), (5, 4, 2), (6, 3, 2)])
def test_deal_by_player_count(players: int, blue: int, red: int) -> None:
    """rule: ti4/deal-system-tiles - 3p six blue and two red each, 4p 5/3, 5p 4/2, 6p 3/2."""
    s = new(players, 11)
    for hand in s.hands:
        backs = Counter(PACK.tiles[t].pile for t in hand)
        assert (backs["blue"], backs["red"]) == (blue, red)
    dealt = [t for h in s.hands for t in h]
    assert len(set(dealt)) == len(dealt)


def test_dealt_tiles_are_secret() -> None:
    """rule: ti4/deal-system-tiles - a seat sees its own tiles and only the backs of the others'."""
    s = play_until(new(4, 4), PLACE)
    obs = GAME.observation(s, 1)
    assert obs.hands[1] == s.hands[1]
    assert all(t < 0 for t in obs.hands[0])


def test_five_player_red_tile_next_to_mecatol() -> None:
    """rule: ti4/five-player-red-tile - the speaker places one random red tile next to Mecatol Rex."""
    s = play_until(new(5, 9), RED)
    assert s.actor == s.speaker and s.red_tile > 0
    acts = GAME.legal_actions(s)
    assert {a.tile for a in acts} == {s.red_tile}
    assert {a.pos for a in acts} == set(PACK.board.adjacent[0])
    s = GAME.apply(s, acts[0])
    assert s.placed[0] == Placement(seat=s.speaker, tile=s.red_tile, pos=acts[0].pos)
    assert new(4, 9).red_tile == 0


def test_place_in_snake_order() -> None:
    """rule: ti4/place-system-tiles - speaker then clockwise, the last player places twice, snaking back."""
    table = (0, 1, 2, 3)
    order = [snake_seat(i, 4, table, 2) for i in range(10)]
    assert order == [2, 3, 0, 1, 1, 0, 3, 2, 2, 3]
    s = play_out(new(4, 3))
    for i, pl in enumerate(s.placed):
        assert pl.seat == snake_seat(i, 4, s.table, s.speaker)


def test_ring_order() -> None:
    """rule: ti4/ring-order - every ring full before the next: ring 1 first, then 2, then 3."""
    s = play_out(new(6, 8))
    rings = [PACK.board.rings[pl.pos] for pl in s.placed]
    assert rings == sorted(rings)
    galaxy = [0] * 37
    galaxy[0] = 18
    assert set(open_spaces(galaxy, PACK.board, PACK.board.layouts[6])) == set(PACK.board.adjacent[0])


def _galaxy(**placed: int) -> list[int]:
    g = [0] * 37
    g[0] = 18
    for k, v in placed.items():
        g[int(k[1:])] = v
    return g


def test_anomalies_not_adjacent_unless_no_other_option() -> None:
    """rule: ti4/anomaly-adjacency - no anomaly next to an anomaly while another placement exists."""
    layout = PACK.board.layouts[6]
    g = _galaxy(p1=41)  # a gravity rift at position 1
    legal = legal_placements(g, PACK, layout, [42, 19], "player")
    assert all(p not in PACK.board.adjacent[1] for t, p in legal if t == 42)
    # with only anomalies and every open space next to one, the rule yields
    g = _galaxy(p1=41, p3=43, p5=44)
    legal = legal_placements(g, PACK, layout, [42], "player")
    assert {p for _, p in legal} == {2, 4, 6}


def test_wormholes_not_adjacent_unless_no_other_option() -> None:
    """rule: ti4/wormhole-adjacency - same-type wormholes apart while another option exists."""
    layout = PACK.board.layouts[6]
    g = _galaxy(p1=26)  # Lodor, an alpha wormhole
    legal = legal_placements(g, PACK, layout, [39], "player")
    assert {p for _, p in legal} == {3, 4, 5}
    legal = legal_placements(g, PACK, layout, [40], "player")  # beta: no restriction
    assert {p for _, p in legal} == {2, 3, 4, 5, 6}
    # reading 'player': another tile in hand is another option; reading 'tile': it is not
    g = _galaxy(p1=26, p4=79)  # alpha wormholes at 1 and 4: every open space touches one
    assert {t for t, _ in legal_placements(g, PACK, layout, [39, 19], "player")} == {19}
    assert {t for t, _ in legal_placements(g, PACK, layout, [39, 19], "tile")} == {19, 39}


def test_home_systems_and_the_layout() -> None:
    """rule: ti4/home-systems - homes where the diagram puts them; the checker names a wrong home."""
    s = play_out(new(3, 2))
    assert s.homes == PACK.board.layouts[3].homes
    text = GAME.map_string(s)
    entries = [18] + [int(x) for x in text.split()]
    report = check_map(PACK, entries, expansion="base", record=s.placed, speaker=s.speaker, reading=s.reading)
    assert report.ok, report.violations
    entries[s.homes[0]], entries[1] = entries[1], 0
    bad = check_map(PACK, entries, expansion="base")
    assert any(v.rule == "ti4/home-systems" for v in bad.violations)


def test_five_player_trade_goods() -> None:
    """rule: ti4/five-player-trade-goods - three players receive trade goods by home position."""
    s = play_until(new(5, 3), SECRET)
    table = PACK.board.layouts[5].trade_goods
    assert s.trade_goods == tuple(table.get(h, 0) for h in s.homes)
    assert sorted(s.trade_goods) == [0, 0, 2, 2, 4]
    assert not any(play_until(new(4, 3), SECRET).trade_goods)


def test_custodians_decks_and_starting_components() -> None:
    """rule: ti4/custodians-and-decks, rule: ti4/starting-components - the common pieces and what
    each player starts with: technologies, units, 3 tactic, 3 fleet and 2 strategy tokens."""
    s = play_out(new(3, 6))
    assert len(PACK.strategy_cards) == 8
    assert PACK.common_decks and PACK.supply
    text = GAME.describe(s).to_text(80)
    assert "setup complete" in text
    comp = seat_components(s, PACK, 1)
    assert comp is not None
    assert dict(comp.command_tokens) == {"tactic": 3, "fleet": 3, "strategy": 2}
    assert (comp.units and comp.technologies) or comp.technology_choice


def test_objectives() -> None:
    """rule: ti4/objectives - draw two secret objectives, keep one; five stage I and II, two revealed."""
    s = play_until(new(4, 2), SECRET)
    assert all(len(d) == 2 for d in s.secret_drawn)
    while s.phase == SECRET:
        keep = GAME.legal_actions(s)
        assert {a.name for a in keep} == set(s.secret_drawn[s.actor])
        s = GAME.apply(s, keep[0])
    assert s.phase == OVER and s.revealed == 2
    assert len(s.stage1) == 5 and len(s.stage2) == 5
    assert all(k in d for k, d in zip(s.secret_kept, s.secret_drawn, strict=True))
    assert new(4, 2, victory_points=14).vp_track == 14


def test_keep_is_secret_in_the_log() -> None:
    """rule: ti4/objectives - the objective kept is secret: the spectator's log line hides it."""
    s = play_until(new(3, 2), SECRET)
    a = GAME.legal_actions(s)[0]
    assert a.name not in GAME.log_line(s, a)
    assert TI4Action("keep", name=a.name) == a
