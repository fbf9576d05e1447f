"""Rule tests for Tiberius Who?, each citing its rulebook section (rule: tiberius/<id>)."""

from __future__ import annotations

import pytest

from games.core import GameConfig
from games.core.records import replace
from games.errors import ConfigError, IllegalActionError
from games.tiberius.model import (
    ADOPT,
    BD,
    CARD,
    CQ,
    CUBE,
    EM,
    EMPTY,
    GV,
    IM,
    IN,
    OVER,
    PC,
    PCIM_CARD,
    PICK,
    TR,
)
from games.tiberius.scoring import chain_key, ranking, score_cubes
from tests.tiberius.helpers import at_card_phase, card, cv, game, legal_texts, run, with_seats

FACE = ["HIS02", "GAL08", "BAL05", "AFR05", "ROM07", "SYR12"]


def points(cubes, category, *, adopted=None, loyal=None, marriage_vp="schedule", **imperator):
    n = len(cubes)
    tallies = score_cubes(
        cubes,
        adopted or [False] * n,
        loyal or [False] * n,
        list(range(n)),
        marriage_vp=marriage_vp,
        **imperator,
    )
    return [next(x.points for x in t.lines if x.category == category) for t in tallies]


# ------------------------------------------------------------------------------------ setup


@pytest.mark.parametrize(("players", "influence"), [(1, 12), (2, 24), (3, 26), (4, 28), (5, 30), (6, 32)])
def test_setup_influence_by_player_count(players, influence):
    """rule: tiberius/setup - influence cubes by player count; 40 cubes each; adoption cards dealt."""
    s = game().new_state(GameConfig(players=players), seed=3)
    assert all(p.cubes[IN] == influence and sum(p.cubes) == influence for p in s.players)
    assert all(s.players[p].stock == 40 - influence for p in range(players))
    assert len(s.adopt_face_up) == (2 if players >= 4 else 1)
    secrets = {p.secret for p in s.players}
    assert len(secrets) == players and not secrets & set(s.adopt_face_up)
    assert len(s.adopt_face_up) + players + len(s.adopt_unused) == 9
    assert s.turn == 1 and s.phase == CARD and s.actor == s.priority == s.start_priority
    assert all(c != EMPTY for c in s.face_up)
    assert sum(len(d) for d in s.decks) == 64 - 6


def test_setup_priority_random_and_decks_shuffled_by_seed():
    """rule: tiberius/setup - priority at random; the six decks shuffled separately."""
    states = [game().new_state(GameConfig(players=4), seed=k) for k in range(12)]
    assert len({s.priority for s in states}) > 1
    assert len({s.decks for s in states}) == 12
    assert game().new_state(GameConfig(players=4), seed=5) == states[5]


def test_setup_mat_influence_variant():
    """rule: tiberius/setup - the player mat's table: 1st 26, 2nd 28, 3rd 30, 4th 32 in priority order."""
    s = game().new_state(GameConfig(players=4, options={"influence_table": "mat"}), seed=2)
    got = [s.players[(s.priority + k) % 4].cubes[IN] for k in range(4)]
    assert got == [26, 28, 30, 32]


def test_setup_rejects_bad_config():
    """rule: tiberius/setup - 1 to 6 players; the oldest seat must be a seat."""
    with pytest.raises(ConfigError):
        game().new_state(GameConfig(players=7), seed=0)
    with pytest.raises(ConfigError):
        game().new_state(GameConfig(players=3, options={"oldest_seat": 5}), seed=0)
    with pytest.raises(ConfigError):
        game().new_state(GameConfig(players=3, options={"pcim_rule": "twice"}), seed=0)


# ------------------------------------------------------------------------------------ card phase


def test_card_phase_bids_unique_minimum_one_to_bid_box():
    """rule: tiberius/card-phase - a bid is at least 1, unique this turn, cubes to the Bid box."""
    s = at_card_phase(3, FACE)
    s = run(s, "bid 3")
    assert s.players[0].cubes[IN] == 23 and s.players[0].cubes[BD] == 3 and s.players[0].bid == 3
    assert "bid 3" not in legal_texts(s) and "bid 1" in legal_texts(s)
    with pytest.raises(IllegalActionError) as err:
        run(s, "bid 3")
    assert err.value.rule == "tiberius/card-phase"
    with pytest.raises(IllegalActionError):
        run(s, "bid 0")


def test_card_phase_picks_in_bid_order_bids_to_stock_rest_discarded():
    """rule: tiberius/card-phase - bidders pick highest first; bids to stock; unpicked cards leave."""
    s = at_card_phase(3, FACE)
    s = run(s, "bid 2", "bid 5", "take 2 influence")
    assert s.phase == PICK and s.actor == 1
    s = run(s, "pick GAL08")
    assert s.phase == PICK and s.actor == 0 and s.players[1].cubes[BD] == 0 and s.players[1].cubes[IN] == 21
    assert "pick GAL08" not in legal_texts(s)
    s = run(s, "pick BAL05")
    assert s.players[0].cubes[BD] == 0 and s.players[0].cubes[IN] == 24
    assert set(s.discarded) == {card(c) for c in ("HIS02", "AFR05", "ROM07", "SYR12")}
    assert s.players[0].careers == (card("BAL05"),) and s.players[1].careers == (card("GAL08"),)


def test_card_phase_buy_costs_six_and_reveals_replacement():
    """rule: tiberius/card-phase - buy for 6 influence; a replacement is drawn face up."""
    s = at_card_phase(2, FACE)
    top = s.decks[0][0]
    s2 = run(s, "buy HIS02")
    assert s2.players[0].cubes[IN] == 18 and s2.face_up[0] == top and len(s2.decks[0]) == len(s.decks[0]) - 1
    assert s2.players[0].played == card("HIS02")
    empty = run(replace(s, decks=((), *s.decks[1:])), "buy HIS02")
    assert empty.face_up[0] == EMPTY  # some decks run out
    poor = with_seats(s, cubes=(cv(IN=5), s.players[1].cubes))
    assert not any(t.startswith("buy") for t in legal_texts(poor))


def test_card_phase_pcim_once_per_game_and_take_two():
    """rule: tiberius/card-phase - PCIM once per game (default); take 2 influence (stock permitting)."""
    s = at_card_phase(2, FACE)
    assert "imperium maius" in legal_texts(s)
    assert "imperium maius" not in legal_texts(with_seats(s, pcim_used=(True, False)))
    s2 = run(s, "imperium maius")
    assert s2.players[0].played == PCIM_CARD and s2.players[0].pcim_used
    s3 = run(s, "take 2 influence")
    assert s3.players[0].cubes[IN] == 26
    full = run(with_seats(s, cubes=(cv(IN=24, CQ=15), s.players[1].cubes)), "take 2 influence")
    assert full.players[0].cubes[IN] == 25  # the cubes are an absolute limit


def test_card_phase_pcim_influence_variant():
    """rule: tiberius/card-phase - the player mat's reading: PCIM costs 3 influence, no game limit."""
    s = at_card_phase(2, FACE, options={"pcim_rule": "influence"})
    s = with_seats(replace(s, pcim_rule="influence"), pcim_used=(True, False))
    assert "imperium maius" in legal_texts(s)
    assert run(s, "imperium maius").players[0].cubes[IN] == 21
    assert "imperium maius" not in legal_texts(with_seats(s, cubes=(cv(IN=2), s.players[1].cubes)))


# ------------------------------------------------------------------------------------ cube phase


def test_cube_phase_top_row_from_stock():
    """rule: tiberius/cube-phase - the top row's icons place cubes from stock by colour."""
    s = run(at_card_phase(2, FACE), "buy AFR05", "take 2 influence")
    # AFR05 top row: emperor, governor; no row affordable with 1 Emperor cube -> no decision
    assert s.players[0].cubes[EM] == 1 and s.players[0].cubes[GV] == 1 and s.players[0].cubes[IN] == 18
    assert s.turn == 2 and s.phase == CARD


def test_cube_phase_row_paid_in_emperor_cubes_with_discount():
    """rule: tiberius/cube-phase - one whole extra row, paid in Emperor cubes; Emperor icons discount."""
    s = at_card_phase(2, FACE, cubes=[cv(IN=24, EM=3), cv(IN=24)])
    s = run(s, "buy AFR05", "take 2 influence")
    assert s.phase == CUBE and legal_texts(s) == ["row none", "row 2", "row 3"]
    s2 = run(s, "row 2")  # emperor governor emperor: pay 3 of 4, then +2 back
    assert s2.players[0].cubes[EM] == 3 and s2.players[0].cubes[GV] == 2


def test_cube_phase_must_afford_before_discount():
    """rule: tiberius/cube-phase - enough Emperor cubes for the full price before the discount."""
    s = at_card_phase(2, FACE, cubes=[cv(IN=24, EM=1), cv(IN=24)])
    s = run(s, "buy AFR05", "take 2 influence")  # 2 Emperor cubes after the top row; row 2 costs 3
    assert s.phase != CUBE and s.players[0].cubes[EM] == 2 and s.players[0].cubes[GV] == 1


def test_special_cases_priority_icon_moves_marker():
    """rule: tiberius/special-cases - a Priority icon (top row or bought row) takes the marker."""
    s = at_card_phase(2, FACE, priority=1, cubes=[cv(IN=24), cv(IN=24)])
    s = run(s, "take 2 influence", "buy ROM07")  # ROM07 top row shows a Priority icon
    assert s.priority == 0 and s.start_priority == 1  # priority order changes next turn only
    s = run(s, "row none")
    assert s.turn == 2 and s.start_priority == 0
    s = at_card_phase(2, FACE, priority=1, cubes=[cv(IN=24, EM=3), cv(IN=24)])
    s = run(s, "take 2 influence", "buy AFR05", "row 3")  # row 3 has a Priority icon
    assert s.priority == 0


def test_special_cases_priority_kept_by_pcim_player_and_retained():
    """rule: tiberius/special-cases - the marker cannot leave a player whose card is PCIM."""
    s = at_card_phase(2, FACE, priority=1)
    s = run(s, "imperium maius", "buy ROM07")
    assert s.phase == CUBE and s.actor == 1
    s = run(s, *["move IN"] * 5, "done")
    assert s.actor == 0 and s.priority == 1
    s = run(at_card_phase(2, FACE, priority=1), "take 2 influence", "buy AFR05")
    assert s.priority == 1  # nobody had a Priority icon: retained


def test_special_cases_playing_pcim_takes_the_priority_marker():
    """rule: tiberius/special-cases - playing PCIM takes the Priority marker (issue 16: the engine
    never moved it), and a second PCIM cannot take it from the first."""
    s = at_card_phase(2, FACE, priority=0)
    s = run(s, "take 2 influence", "imperium maius")  # seat 1 plays PCIM; seat 0 holds Priority
    assert s.phase == CUBE and s.actor == 1 and s.priority == 1  # taken as its cube action begins
    s = run(s, *["move IN"] * 5, "done")
    assert s.turn == 2 and s.start_priority == 1  # and it orders the next turn
    s = at_card_phase(3, FACE, priority=0)
    s = run(s, "imperium maius", "imperium maius", "take 2 influence")  # seats 0, 1 play PCIM
    s = run(s, *["move IN"] * 5, "done", *["move IN"] * 5, "done")
    assert s.priority == 0  # "even by the play of another PCIM"
    s = at_card_phase(3, FACE, priority=0)
    s = run(s, "take 2 influence", "imperium maius", "buy ROM07")  # Priority icon after PCIM
    s = run(s, *["move IN"] * 5, "done")
    assert s.priority == 1 and s.actor == 2
    s = run(s, "row none")
    assert s.priority == 1 and s.start_priority == 1


def test_special_cases_triumphs_only_for_family():
    """rule: tiberius/special-cases - Triumph cubes only for Imperial Marriages or adopted sons."""
    plain = run(at_card_phase(2, FACE, cubes=[cv(IN=24), cv(IN=24)]), "buy GAL08", "take 2 influence")
    assert (
        plain.players[0].cubes[TR] == 0 and plain.players[0].cubes[5 + 1] == 1
    )  # imperator placed, triumph not
    married = run(at_card_phase(2, FACE, cubes=[cv(IN=24, IM=1), cv(IN=24)]), "buy GAL08", "take 2 influence")
    assert married.players[0].cubes[TR] == 1
    adopted = at_card_phase(2, FACE, adopted=(0, -1))
    adopted = run(adopted, "buy GAL08", "take 2 influence")
    assert adopted.players[0].cubes[TR] == 1


def test_special_cases_black_icon_any_box_but_pcim_and_white_is_influence():
    """rule: tiberius/special-cases - black: any box but PCIM (triumphs for family); white: influence."""
    s = run(at_card_phase(2, FACE), "buy HIS02", "take 2 influence")
    assert s.phase == CUBE and s.actor == 0 and s.black == 1
    boxes = legal_texts(s)
    assert "black pro_consular_imperium_maius" not in boxes and "black triumphs" not in boxes
    assert "black influence" in boxes and "black conquests" in boxes
    s = run(at_card_phase(2, ["HIS03", "GAL08"]), "buy HIS03", "take 2 influence")
    assert s.players[0].cubes[IN] == 24 - 6 + 2


def test_pcim_card_moves_at_least_five_to_gray():
    """rule: tiberius/pcim-card - move at least 5 cubes from anywhere except stock to gray."""
    s = at_card_phase(2, FACE, cubes=[cv(IN=10, CQ=2, EM=1), cv(IN=24)])
    s = run(s, "imperium maius", "take 2 influence")
    assert s.phase == CUBE and "done" not in legal_texts(s)
    assert set(legal_texts(s)) == {"move conquests", "move emperor", "move influence"}
    s = run(s, "move CQ", "move CQ", "move EM", "move IN")
    assert "done" not in legal_texts(s)
    s = run(s, "move IN")
    assert "done" in legal_texts(s) and s.players[0].cubes[PC] == 5 and sum(s.players[0].cubes) == 13
    s = run(s, "done")
    assert s.phase != CUBE or s.actor != 0
    few = run(
        at_card_phase(2, FACE, cubes=[cv(IN=2), cv(IN=24)]),
        "imperium maius",
        "take 2 influence",
        "move IN",
        "move IN",
    )
    assert few.players[0].cubes[PC] == 2 and few.phase != CUBE  # fewer than 5 available: all moved


def test_set_bonus_three_influence_for_every_board_box():
    """rule: tiberius/set-bonus - cubes in all boxes of the main board: 3 influence from stock."""
    full = cv(CQ=1, IM=1, PC=1, CC=1, GV=1, TR=1, IP=1, PR=1, EM=1, IN=10)
    s = run(at_card_phase(2, FACE, cubes=[full, cv(IN=24)]), "take 2 influence", "take 2 influence")
    assert s.players[0].cubes[IN] == 10 + 2 + 3 and s.players[1].cubes[IN] == 26
    capped = cv(CQ=1, IM=1, PC=1, CC=1, GV=1, TR=1, IP=1, PR=1, EM=1, IN=28)
    s = run(at_card_phase(2, FACE, cubes=[capped, cv(IN=24)]), "take 2 influence", "take 2 influence")
    assert sum(s.players[0].cubes) == 40  # limited by the stock


def test_adoption_phase_reveal_own_or_claim_face_up_never_twice():
    """rule: tiberius/adoption-phase - reveal one's own card, or claim a face-up one; never twice."""
    a04 = 3  # Adoption 04: 1 priest, 1 consul, 1 governor, 3 imperator, 1 triumph
    a06 = 5  # Adoption 06: 1 priest, 3 conquest, 2 governor, 2 influence
    meets04 = cv(PR=1, CC=1, GV=1, IP=3, TR=1, IN=20)
    meets06 = cv(PR=1, CQ=3, GV=2, IN=20)
    s = at_card_phase(
        2,
        FACE,
        cubes=[meets04, meets06],
        secret=(a04, 0),
        adopt_face_up=(a06,),
        adopt_unused=(1, 2, 4, 6, 7, 8),
    )
    s = run(s, "take 2 influence", "take 2 influence")
    assert s.phase == ADOPT and s.actor == 0 and legal_texts(s) == ["adopt own", "pass"]
    s = run(s, "adopt own")
    assert s.players[0].adopted == a04 and s.actor == 1 and legal_texts(s) == ["adopt A06", "pass"]
    s = run(s, "adopt A06")
    assert [p.adopted for p in s.players] == [a04, a06] and s.adopt_face_up == () and s.turn == 2
    s = run(s, "take 2 influence", "take 2 influence")
    assert s.turn == 3  # nobody is adopted twice: no adoption decisions any more


def test_adoption_phase_loyalty_bonus():
    """rule: tiberius/adoption-phase - career cards from all six regions flip the mat (loyalty)."""
    s = at_card_phase(2, FACE)
    six = tuple(card(c) for c in ("HIS01", "GAL01", "BAL01", "AFR01", "ROM01", "SYR01"))
    assert game().loyal(with_seats(s, careers=(six, six[:5])), 0)
    assert not game().loyal(with_seats(s, careers=(six, six[:5])), 1)


def test_end_of_game_after_eight_turns():
    """rule: tiberius/end-of-game - 8 turns, then scoring; the winner gets 1."""
    s = at_card_phase(2, FACE)
    for _ in range(8):
        assert s.phase == CARD
        s = run(s, "take 2 influence", "take 2 influence")
    assert s.phase == OVER and game().is_terminal(s) and not game().legal_actions(s)
    assert sorted(game().returns(s)) == [0.0, 1.0]


def test_end_of_game_turn_track_variant():
    """rule: tiberius/end-of-game - "The game lasts 8 turns" (default); the variant ``turns`` 7 plays
    the 7 spaces of the printed turn track (11-9 BC ... 11-13 AD)."""
    g = game()
    s = at_card_phase(2, FACE, options={"turns": 7})
    assert s.turns == 7 and at_card_phase(2, FACE).turns == 8
    for _ in range(7):
        assert s.phase == CARD
        s = run(s, "take 2 influence", "take 2 influence")
    assert s.phase == OVER and s.turn == 8 and g.is_terminal(s)
    with pytest.raises(ConfigError):
        g.new_state(GameConfig(players=2, options={"turns": 6}), 0)


def test_end_of_game_solo_needs_45():
    """rule: tiberius/end-of-game - playing solo, 45 VP are needed to win."""
    s = at_card_phase(1, FACE)
    rich = cv(CQ=1, IM=1, PC=1, CC=10, GV=1, TR=8, IP=2, PR=1, IN=3)  # 10+5+12+13+6+16+5+1+1 = 69
    end = replace(s, phase=OVER, actor=-1, turn=9)
    assert game().returns(with_seats(end, cubes=(rich,))) == (1.0,)
    poor = cv(CQ=1, IN=3)
    assert game().tally(with_seats(end, cubes=(poor,)))[0].total < 45
    assert game().returns(with_seats(end, cubes=(poor,))) == (0.0,)


# ------------------------------------------------------------------------------------ scoring


def test_tie_breaker_chain_order():
    """rule: tiberius/tie-breaker - adoption, influence, PCIM, marriages, imperator, priesthoods,
    governorships, conquests, consul/censor, triumphs, then the oldest player."""
    base = cv(IN=3)
    assert chain_key(base, True, 5) > chain_key(cv(IN=30), False, 0)
    assert chain_key(cv(IN=4), False, 5) > chain_key(cv(IN=3, PC=9), False, 0)
    order = ["PC", "IM", "IP", "PR", "GV", "CQ", "CC", "TR"]
    for i, box in enumerate(order):
        later = {b: 9 for b in order[i + 1 :]}
        assert chain_key(cv(**{box: 1}), False, 1) > chain_key(cv(**later), False, 0)
    assert chain_key(base, False, 0) > chain_key(base, False, 1)  # the oldest ranks higher
    assert ranking(
        [10, 10, 12], [chain_key(base, False, 1), chain_key(base, False, 0), chain_key(base, False, 2)]
    ) == [2, 1, 0]


def test_tie_breaker_breaks_category_ties():
    """rule: tiberius/tie-breaker - all ties are broken (here Conquests by influence, then age)."""
    assert points([cv(CQ=2, IN=1), cv(CQ=2, IN=5)], "Conquests") == [5, 10]
    assert points([cv(CQ=2), cv(CQ=2)], "Conquests") == [10, 5]  # seat 0 is the oldest


def test_score_conquests():
    """rule: tiberius/score-conquests - most 10, next 5, third 2, others 0."""
    assert points([cv(CQ=5), cv(CQ=3), cv(CQ=2), cv(CQ=1), cv()], "Conquests") == [10, 5, 2, 0, 0]


def test_score_imperial_marriages_no_tie_breaker():
    """rule: tiberius/score-imperial-marriages - strictly most +5 (no tie-breaker), none -5."""
    assert points([cv(IM=3), cv(IM=1), cv()], "Imperial Marriages") == [5, 0, -5]
    assert points([cv(IM=2, IN=9), cv(IM=2)], "Imperial Marriages") == [0, 0]
    assert points([cv(IM=3), cv(IM=1), cv()], "Imperial Marriages", marriage_vp="aid") == [8, 1, -5]


def test_score_pcim():
    """rule: tiberius/score-pcim - most 12, next 10, others with cubes 7, none 0."""
    assert points([cv(PC=1), cv(PC=6), cv(PC=5), cv()], "Pro-Consular Imperium Maius") == [7, 12, 10, 0]


def test_score_consul_censor():
    """rule: tiberius/score-consul-censor - 3 for the first cube, 2 for the second, 1 after."""
    assert points([cv(), cv(CC=1), cv(CC=2), cv(CC=5)], "Consul/Censor") == [0, 3, 5, 8]


def test_score_governorships():
    """rule: tiberius/score-governorships - 6 / 5 / 4, others with cubes 2, none 0."""
    got = points([cv(GV=4), cv(GV=3), cv(GV=2), cv(GV=1), cv()], "Governorships")
    assert got == [6, 5, 4, 2, 0]


def test_score_triumphs():
    """rule: tiberius/score-triumphs - 2 per cube, none -3."""
    assert points([cv(TR=3), cv()], "Triumphs") == [6, -3]


def test_score_imperator():
    """rule: tiberius/score-imperator - 1 per cube, most +3, least -3."""
    assert points([cv(IP=4), cv(IP=2), cv(IP=1)], "Imperator") == [7, 2, -2]
    assert points([cv(IP=2), cv(IP=2, IN=3)], "Imperator") == [-1, 5]  # ties broken by the chain


def test_score_imperator_solo_variant():
    """rule: tiberius/score-imperator - "Player with MOST cubes: +3 VP; Player with LEAST cubes: -3
    VP": a lone player has both the most and the least (literal default, variant ``imperator_solo``
    "both"); the variant "most" never makes a lone player "least"."""
    assert points([cv(IP=4)], "Imperator") == [4]  # 4 + 3 - 3
    assert points([cv(IP=4)], "Imperator", imperator_solo="most") == [7]
    g = game()
    s = at_card_phase(1, FACE, cubes=[cv(IP=4, IN=3)])
    lone = g.new_state(GameConfig(players=1, options={"imperator_solo": "most"}), 0)
    assert s.imperator_solo == "both" and lone.imperator_solo == "most"
    assert g.totals(replace(s, imperator_solo="most"))[0] == g.totals(s)[0] + 3


def test_score_imperator_empty_box_variant():
    """rule: tiberius/score-imperator with rule: tiberius/tie-breaker - "All ties must be broken": when
    nobody has an Imperator cube the chain still names a most (+3) and a least (-3) (literal default,
    ``imperator_empty`` "tiebreak"); "least": most needs a cube, least does not; "none": neither."""
    empty = [cv(IN=3), cv()]  # seat 0 wins the chain at influence
    assert points(empty, "Imperator") == [3, -3]
    assert points(empty, "Imperator", imperator_empty="least") == [0, -3]
    assert points(empty, "Imperator", imperator_empty="none") == [0, 0]
    # a box with a cube in it is scored the same under every reading
    for reading in ("tiebreak", "least", "none"):
        assert points([cv(IP=1), cv()], "Imperator", imperator_empty=reading) == [4, -3]
    # solo and empty together: both readings literal, +3 - 3
    assert points([cv()], "Imperator") == [0]
    assert points([cv()], "Imperator", imperator_empty="least") == [-3]
    assert points([cv()], "Imperator", imperator_empty="none", imperator_solo="most") == [0]


def test_score_priesthoods():
    """rule: tiberius/score-priesthoods - 1 per cube."""
    assert points([cv(PR=4), cv()], "Priesthoods") == [4, 0]


def test_score_adoption():
    """rule: tiberius/score-adoption - adopted sons of Augustus 8 VP."""
    assert points([cv(), cv()], "Son of Augustus", adopted=[True, False]) == [8, 0]


def test_score_loyalty():
    """rule: tiberius/score-loyalty - career cards from all six decks 5 VP."""
    assert points([cv(), cv()], "Loyalty", loyal=[False, True]) == [0, 5]


def test_score_influence():
    """rule: tiberius/score-influence - 1 VP per 3 influence cubes."""
    assert points([cv(IN=8), cv(IN=9), cv(IN=2)], "Influence") == [2, 3, 0]


def test_unused_constants_are_consistent():
    assert CQ == 0 and GV == 4 and IM == 1 and EM == 8


def test_card_phase_bidder_without_a_card_still_pays():
    """rule: tiberius/card-phase - bids go to stock even when no face-up card is left."""
    s = at_card_phase(2, ["GAL08"])
    s = run(s, "bid 2", "bid 3")
    assert s.phase == PICK and s.actor == 1 and legal_texts(s) == ["pick GAL08"]
    s = run(s, "pick GAL08")
    assert s.players[0].cubes[IN] == 22 and s.players[0].cubes[BD] == 0 and s.players[0].played == -1
    assert s.players[0].careers == () and s.players[1].cubes[IN] == 21


def test_cube_phase_stock_is_an_absolute_limit():
    """rule: tiberius/setup - with one cube left in stock only the first icon is placed."""
    # GAL05 top row: conquest, triumph, governor, imperator
    s = at_card_phase(2, ["GAL05"], cubes=[cv(IN=10, PR=30), cv(IN=24)])  # stock empty
    s = run(s, "bid 1", "take 2 influence", "pick GAL05")  # the bid returns to stock: one cube free
    x = s.players[0].cubes
    assert sum(x) == 40 and x[CQ] == 1 and x[GV] == 0 and x[5 + 1] == 0


def test_observation_reveals_a_card_once_adopted():
    """rule: tiberius/adoption-phase - a revealed adoption card is public."""
    meets04 = cv(PR=1, CC=1, GV=1, IP=3, TR=1, IN=20)
    s = at_card_phase(
        2,
        FACE,
        cubes=[meets04, cv(IN=24)],
        secret=(3, 0),
        adopt_face_up=(5,),
        adopt_unused=(1, 2, 4, 6, 7, 8),
    )
    assert game().observation(s, 1).players[0].secret == -1
    s = run(s, "take 2 influence", "take 2 influence", "adopt own")
    assert game().observation(s, 1).players[0].secret == 3


def test_tie_breaker_named_in_the_category_detail():
    """rule: tiberius/tie-breaker - the score says which chain step broke a category tie."""
    tallies = score_cubes([cv(CQ=2, IN=1), cv(CQ=2, IN=5)], [False, False], [False, False], [0, 1])
    detail = {t.seat: next(x.detail for x in t.lines if x.category == "Conquests") for t in tallies}
    assert detail[1] == "most (2 cubes); tie: ahead of seat 0 by influence"
    assert detail[0] == "next-most (2 cubes); tie: behind seat 1 by influence"
