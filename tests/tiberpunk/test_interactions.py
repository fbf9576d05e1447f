"""Structures, spaceships, combat, objectives, rewards, end of game and the abilities module."""

from __future__ import annotations

import pytest

from games.core import TERMINAL
from games.core.records import replace
from games.errors import ConfigError
from games.tiberpunk.dice import score
from games.tiberpunk.state import PH_CGADGET, PH_LPLACE, PH_MAIN, PH_OVER, PH_REWARD
from tests.tiberpunk.helpers import GAME, C, R, ctx, d, do, lictors, new, placed, put, roll, texts, tokens

REROLL, ADD, ROT1, ROT2, FLIP = range(5)


def war(n: int = 2, where=("VII", "VII"), **kw):
    """Gang war side objectives (#5: defeat character / drone / lictor), tiles odd + identical."""
    s = placed(n, where=where, side_objectives="gang-war", **kw)
    return replace(s, cfg=replace(s.cfg, tiles=(0, 2)))


# ---------------------------------------------------------------- structures
def test_temple_offering() -> None:
    """rule: tiberpunk/structure-interaction — character next to the temple, 2 coins, blessing, marker."""
    s = placed(2, where=("II", "V"))
    assert "token structure temple:juno" in texts(s)  # Juno borders II and III
    s = do(s, "token structure temple:juno")
    p = s.players[0]
    assert p.coins == 1 and p.blessings == 4 and p.temples == 4 and s.bless[2] == 1
    s = do(do(s, "end"), "token drone income")
    s = do(s, "end")
    assert "token structure temple:juno" not in texts(put(s, 0, coins=5))  # no two identical blessings
    assert "token structure temple:juno" not in texts(put(s, 0, coins=1, blessings=0, temples=0))  # 2 coins


def test_upgrade_hub_visit() -> None:
    """rule: tiberpunk/structure-interaction — 3 different skills +1, 1 gadget for 2, marker once."""
    s = put(placed(2, where=("I", "V")), 0, coins=8)
    assert C.costs[0][2] == 2 and C.gadget_cost == 2
    assert "token structure hub:I up:hack,guile,offense gadget" in texts(s)  # 3 * 2 + 2 = 8
    assert "token structure hub:I up:hack,guile,offense gadget" not in texts(put(s, 0, coins=7))
    s = do(s, "token structure hub:I up:hack,guile gadget")
    p = s.players[0]
    assert p.skills == (2, 2, 1) and p.coins == 2 and len(p.hand) == 2 and p.hubs == 1
    s = do(do(s, "end"), "token drone income")
    s = do(put(do(s, "end"), 0, wheel=()), "token structure hub:I up:offense")
    assert s.players[0].hubs == 1 and R.markers_placed(s.players[0]) == 1  # first visit only
    maxed = put(placed(2), 0, skills=(4, 4, 4), coins=9)
    assert not any("up:hack" in t for t in texts(maxed))


def test_juno_discounts() -> None:
    """rule: tiberpunk/divine-favor — Juno: -1 once per structure interaction; blessed: -1 per purchase."""
    s = put(placed(2, where=("I", "V")), 0, coins=8, favor=2)
    assert R.juno_cost(s, s.players[0], [2, 2, 2, 2]) == (7, True)
    blessed = put(s, 0, blessings=4)
    assert R.juno_cost(blessed, blessed.players[0], [2, 2, 2, 2]) == (4, False)
    s = do(s, "token structure hub:I up:hack,guile,offense gadget")
    assert s.players[0].coins == 1


# ---------------------------------------------------------------- spaceships
def test_spaceship_interaction_and_lock() -> None:
    """rule: tiberpunk/spaceship-interaction — a gadget and a card from an unlocked stack; the lock moves."""
    s = placed(2)
    s = do(s, "token spaceship take:drone")
    p = s.players[0]
    assert p.ships == (0, 1, 0) and len(p.hand) == 2 and s.lock == 1 and s.ships == (6, 5, 6)
    s = do(do(s, "end"), "end") if "end" in texts(do(s, "end")) else do(s, "end")
    assert "token spaceship take:drone" not in texts(s)
    ark = put(s, 1, favor=1)  # Stellar Ark: the locked stack too, the lock stays
    ark = do(ark, "token spaceship take:drone")
    assert ark.lock == 1


def test_playing_spaceship_cards() -> None:
    """rule: tiberpunk/spaceship-cards — one per turn, not the one just taken, then a lictor is placed."""
    s = do(placed(2), "token spaceship take:drone")
    assert not any(t.startswith("ship:") for t in texts(s))  # gained this turn
    s = put(s, 0, ships=(1, 1, 0))
    assert any(t.startswith("ship:character") for t in texts(s))
    s = do(s, "ship:character move drone I-X")
    assert s.phase == PH_LPLACE  # place a lictor from the reserve
    busy = {d("I"), d("V"), d("X"), d("IV"), *R.quest_markers(s)}
    assert {d(t.split()[1]) for t in texts(s)} == set(range(12)) - busy
    where = texts(s)[0]
    s = do(s, where)
    assert len(s.lictors) == 3 and s.players[0].ships == (0, 1, 0) and s.ships == (7, 5, 6)
    assert not any(t.startswith("ship:") for t in texts(s))  # one card per turn
    ark = put(do(put(placed(2), 0, favor=1, blessings=2), "token spaceship take:drone"), 0)
    assert any(t.startswith("ship:drone") for t in texts(ark))  # Stellar Ark blessed


def test_lictor_placement_rule() -> None:
    """rule: tiberpunk/spaceship-cards — no other components, else any district without minis."""
    b = R.board
    assert b.placement(busy=[0, 1], minis=[0]) == tuple(range(2, 12))
    assert b.placement(busy=range(12), minis=[0, 5]) == tuple(x for x in range(12) if x not in (0, 5))


# ---------------------------------------------------------------- combat
def test_combat_needs_an_available_objective() -> None:
    """rule: tiberpunk/combat — only with an available, unfulfilled combat objective, declared."""
    basic = placed(2, where=("VII", "VII"))  # card #1 has no character/drone combat
    assert not any("attack char" in t or "attack drone" in t for t in texts(basic))
    s = war()
    attacks = [t for t in texts(s) if " attack " in t]
    assert "token character attack drone:P2 tile:odd for:defeat-drone@5" in attacks
    assert "token drone attack char:P2 tile:identical for:defeat-character@5" in attacks
    done = put(s, 0, side=(0b011,))
    assert not any(" attack " in t and "@5" in t for t in texts(done))


def test_combat_vs_drone_attacker_wins() -> None:
    """rule: tiberpunk/combat-vs-miniature — offense vs hacking; winner token + reward; loser shackles."""
    s = put(put(war(), 1, hand=()), 0, hand=())
    s = do(s, "token character attack drone:P2 tile:odd for:defeat-drone@5")
    assert ctx(s).ra == R.dice_count(s, 0, 0, 2) and ctx(s).rd == R.dice_count(s, 1, 1, 0)
    s = roll(roll(s, 1, 3), 2, 5)
    assert s.players[1].shackles == 2 and s.players[0].otoks[3] == 1 and s.players[0].coins == 5


def test_combat_tie_goes_to_defender() -> None:
    """rule: tiberpunk/combat-vs-miniature — ties to the defender, who gains the slot's reward."""
    s = put(put(war(), 1, hand=()), 0, hand=())
    s = do(s, "token character attack drone:P2 tile:odd for:defeat-drone@5")
    s = roll(roll(s, 1, 2), 3, 4)
    assert s.players[0].shackles == 1 and tokens(s, 0) == 0 and s.players[1].coins == 5


def test_combat_gadget_right_passes_back() -> None:
    """rule: tiberpunk/combat-vs-miniature — the losing side may play a gadget; the right passes on."""
    s = put(put(war(), 1, hand=(FLIP,)), 0, hand=(FLIP,))
    s = do(s, "token character attack drone:P2 tile:odd for:defeat-drone@5")
    s = roll(roll(s, 2, 4), 1, 2)  # attacker 0 odd vs 1: attacker losing
    assert s.phase == PH_CGADGET and GAME.current_player(s) == 0
    assert "gadget flip D1" in texts(s)  # also on the opponent's dice
    s = do(s, "gadget flip A2")  # 2 -> 5: 1 odd vs 1: still losing (tie)
    assert s.phase == PH_MAIN and s.players[0].shackles == 1  # no second gadget: resolved
    t = put(put(war(), 1, hand=(FLIP,)), 0, hand=(FLIP,))
    t = roll(roll(do(t, "token character attack drone:P2 tile:odd for:defeat-drone@5"), 2, 4), 2, 2)
    t = do(t, "gadget flip A2")  # attacker now 1 odd vs 0: defender losing, may answer
    assert t.phase == PH_CGADGET and GAME.current_player(t) == 1
    t = do(t, "gadget flip A5")
    assert t.players[0].shackles == 1 and t.players[1].coins == 5


def test_combat_vs_lictor() -> None:
    """rule: tiberpunk/combat-vs-lictor — the lictor rolls one more die, ties to it, a win returns it."""
    s = put(war(where=("VIII", "I")), 0, hand=())
    s = lictors(s, "VIII", "X")
    assert "token drone quest1:hack" not in texts(s)
    s = do(s, "token character attack lictor tile:odd for:defeat-lictor@5")
    assert ctx(s).rd == ctx(s).ra + 1
    won = roll(roll(s, 1, 1), 2, 2, 3)
    assert won.lictors == (d("X"),)  # back to the reserve
    assert won.phase == PH_REWARD  # skill reward of the slot: choose offense or guile
    lost = roll(roll(s, 1, 2), 1, 2, 2)
    assert lost.lictors == (d("VIII"), d("X")) and lost.players[0].shackles == 1


def test_last_lictor_moves_to_adjacent_district() -> None:
    """rule: tiberpunk/combat-vs-lictor — the last lictor on the board moves to an adjacent district."""
    s = lictors(put(war(where=("VIII", "I")), 0, hand=()), "VIII")
    s = roll(roll(do(s, "token character attack lictor tile:odd for:defeat-lictor@5"), 1, 1), 2, 2, 3)
    s = do(s, "skill offense")
    assert s.phase == PH_REWARD and sorted(texts(s)) == sorted(
        f"escape {x}" for x in ("IV", "VII", "IX", "X", "XI")
    )
    s = do(s, "escape IX")
    assert s.lictors == (d("IX"),)


def test_combat_tiles() -> None:
    """rule: tiberpunk/combat-tiles — odd, even, largest identical group, largest consecutive run."""
    pool = (1, 2, 3, 3, 5, 6)
    assert [score(c, pool) for c in range(4)] == [4, 2, 2, 3]
    assert [score(c, ()) for c in range(4)] == [0, 0, 0, 0]
    assert score(3, (1, 3, 5)) == 1 and score(3, (4, 5, 6, 1, 2)) == 3


# ---------------------------------------------------------------- objectives
def test_side_objective_influence_tasks() -> None:
    """rule: tiberpunk/side-objectives — network (4 structures), supply (3 hubs), devotion (3 temples)."""
    s = placed(2, where=("I", "V"), side_objectives="6")  # #6: defeat lictor, supply line, mastery
    s = put(s, 0, hubs=0b0110, coins=9)
    s = do(s, "token structure hub:I up:-")
    assert s.players[0].side[0] & 2 and s.players[0].otoks[3] == 1
    net = put(placed(2, where=("II", "V")), 0, temples=0b1001, hubs=0b1)  # #1: network
    net = do(net, "token structure temple:juno")
    assert net.players[0].side[0] & 2 and net.players[0].coins == 3 - 2 + 2
    dev = put(placed(2, where=("II", "V"), side_objectives="3"), 0, temples=0b1001, hubs=0b1)
    dev = do(dev, "token structure temple:juno")  # devotion: 3 temples -> spaceship reward
    assert dev.players[0].side[0] & 1


def test_side_objective_sites() -> None:
    """rule: tiberpunk/side-objectives — priests VIII, senator X, mastery IV, merchants XI, no lictor."""
    s = put(placed(2, where=("X", "V")), 0, coins=7)  # #1: senator in X
    s = lictors(s, "IV", "IX")
    assert "token structure task:senator@1" in texts(s)
    s = do(s, "token structure task:senator@1")
    while s.phase == PH_REWARD:
        s = GAME.apply(s, GAME.legal_actions(s)[0])
    assert s.players[0].coins == 0 and s.players[0].side[0] & 4
    blocked = lictors(put(placed(2, where=("X", "V")), 0, coins=7), "X")
    assert "token structure task:senator@1" not in texts(blocked)
    pri = put(placed(2, where=("VIII", "V"), side_objectives="3"), 0, coins=3, ships=(0, 1, 0))
    pri = lictors(pri, "IV", "X")
    pri = do(pri, "token structure task:priests@3 ship:drone")
    assert pri.players[0].ships == (0, 0, 0) and pri.players[0].coins == 0 and pri.ships == (6, 7, 6)
    mas = placed(2, where=("IV", "V"), side_objectives="3")
    mas = lictors(mas, "X", "I")
    assert not any("mastery" in t for t in texts(mas))
    assert any("mastery" in t for t in texts(put(mas, 0, skills=(4, 1, 1))))
    mer = lictors(put(placed(2, where=("XI", "V"), side_objectives="2"), 0, hand=(0, 0, 4, 2)), "IV", "X")
    mer = do(mer, "token structure task:merchants@2 gadgets:reroll,reroll,flip")
    assert mer.players[0].hand == (2,) and len(mer.gdisc) == 3


def test_a_spaceship_card_played_cannot_also_pay_the_priests() -> None:
    """rule: tiberpunk/side-objectives — the priests take a spaceship card the player still holds: the
    structure card played for the interaction has gone back to its stack, so with only that card
    the task is not offered through it (it was, and left the player -1 structure cards)."""
    s = put(placed(2, where=("VIII", "V"), side_objectives="3"), 0, coins=3, ships=(0, 0, 1))
    s = lictors(s, "IV", "X")
    offered = texts(s)
    assert "ship:structure task:priests@3 ship:structure" not in offered
    assert "token structure task:priests@3 ship:structure" in offered  # by a token, the card pays
    two = put(s, 0, ships=(0, 0, 2))
    assert "ship:structure task:priests@3 ship:structure" in texts(two)  # one to play, one to pay
    after = do(two, "ship:structure task:priests@3 ship:structure")
    assert after.players[0].ships == (0, 0, 0) and after.ships == (6, 6, 8)


def test_speed_bonus_and_one_completion_each() -> None:
    """rule: tiberpunk/game-overview — the first to place a third token on a card places a fourth."""
    s = put(placed(2, where=("X", "V")), 0, coins=7, side=(0b011,), otoks=(0, 0, 0, 2))
    s = lictors(s, "IV", "IX")
    s = do(s, "token structure task:senator@1")
    s = do(s, "skill guile")
    assert s.players[0].otoks[3] == 4 and s.speed == 8
    later = put(replace(s, seat=1, turn=replace(s.turn, token=False)), 1, char=d("X"), coins=7, side=(0b011,))
    later = put(later, 1, otoks=(0, 0, 0, 2))
    later = do(do(later, "token structure task:senator@1"), "skill guile")
    assert later.players[1].otoks[3] == 3
    assert "token structure task:senator@1" not in texts(
        replace(later, turn=replace(later.turn, token=False))
    )


def test_objective_rewards() -> None:
    """rule: tiberpunk/objective-rewards — skill, 2 coins, spaceship card, gadget, boost (+1 die)."""
    s = placed(2)
    s = replace(s, rewards=((0, 4, 0),))
    s = R._advance(s)
    assert s.phase == PH_REWARD and sorted(texts(s)) == ["boost char", "boost drone"]
    s = do(s, "boost drone")
    assert s.players[0].boosts == 2 and R.dice_count(s, 0, 1, 0) == 3
    s = R._advance(replace(s, rewards=((0, 3, 0), (0, 1, 2))))
    assert len(s.players[0].hand) == 2 and s.players[0].coins == 5
    s = R._advance(replace(s, rewards=((0, 2, 0),)))
    assert sorted(texts(s)) == ["take-ship character", "take-ship drone", "take-ship structure"]
    s = do(s, "take-ship structure")
    assert s.players[0].ships == (0, 0, 1) and s.turn.gained == (0, 0, 1)
    s = R._advance(replace(s, rewards=((0, 0, 0b100),)))
    assert s.players[0].skills[2] == C.start_slot[2] + 1  # a single indicated skill: applied at once


def test_side_objective_combinations() -> None:
    """rule: tiberpunk/side-objective-combinations — 1 card for 2 players, 2 for 3-4, scenarios."""
    assert [C.side_cards[i].id for i in new(2).cfg.side] == ["1"]
    assert [C.side_cards[i].id for i in new(3).cfg.side] == ["1A", "2A"]
    assert [C.side_cards[i].id for i in new(4, side_objectives="peace").cfg.side] == ["1B", "3B"]
    assert [C.side_cards[i].id for i in new(2, side_objectives="gang-war").cfg.side] == ["5"]
    assert [C.side_cards[i].id for i in new(3, side_objectives="2B+3B").cfg.side] == ["2B", "3B"]
    peace = {C.side_cards[i].id: C.side_cards[i] for i in new(3, side_objectives="peace").cfg.side}
    assert all(t.kind > 2 for card in peace.values() for t in card.tasks)  # no combat
    with pytest.raises(ConfigError, match="do not fit"):
        new(2, side_objectives="1A")
    with pytest.raises(ConfigError):
        new(3, side_objectives="1A")


# ---------------------------------------------------------------- end
def test_end_of_game_round_finishes_and_returns() -> None:
    """rule: tiberpunk/end-of-game — the 8th token triggers; the round ends; most tokens, then coins."""
    s = put(placed(3, where=("V", "X", "I")), 1, coins=7, otoks=(3, 3, 1, 0, 0))
    s = lictors(s, "IV", "IX")
    s = do(do(s, "token drone income"), "end")
    s = do(s, "token structure task:senator@1A")
    while s.phase == PH_REWARD:
        s = GAME.apply(s, GAME.legal_actions(s)[0])
    assert s.end and tokens(s, 1) == 8
    s = do(s, "end")
    assert s.seat == 2 and s.phase == PH_MAIN  # the round continues
    s = do(do(s, "token drone income"), "end")
    assert s.phase == PH_OVER and GAME.current_player(s) == TERMINAL and not GAME.legal_actions(s)
    assert GAME.returns(s) == (0.0, 1.0, 0.0)
    tie = put(put(s, 0, otoks=(3, 3, 2, 0, 0), coins=9), 1, coins=9)
    assert GAME.returns(tie) == (0.5, 0.5, 0.0)
    rich = put(tie, 0, coins=10)
    assert GAME.returns(rich) == (1.0, 0.0, 0.0)


# ---------------------------------------------------------------- personal abilities
def test_personal_abilities_effects() -> None:
    """rule: tiberpunk/personal-abilities — tokens, Mirror code, Street Support, Rebooter, Recharge."""
    ab = {a.id: i for i, a in enumerate(C.abilities)}
    s = placed(2, where=("II", "V"), abilities=True)
    cerb = put(s, 0, ability=ab["cerberus"], tokens=(1, 2, 4, 10))
    assert any(t.startswith("token character/drone as character") for t in texts(cerb))
    mirror = put(placed(2, where=("II", "V"), abilities=True), 0, ability=ab["mirror-code"], char=d("I"))
    assert "token structure temple:juno by:drone" in texts(mirror)
    assert any("hub:I" in t and "by:char" in t for t in texts(mirror))
    street = put(s, 0, ability=ab["street-support"], temples=3, hubs=3)
    assert R.dice_count(street, 0, 1, 0) == R.dice_count(s, 0, 1, 0) + 2
    reb = put(s, 0, ability=ab["rebooter"], wheel=(0, 3), coins=3)
    assert "reboot" in texts(reb)
    reb = do(reb, "reboot")
    assert reb.players[0].wheel == () and reb.players[0].coins == 2 and reb.players[0].reboots == 1
    q = placed(2, where=("IX", "V"), abilities=True)
    q = replace(q, quests=((0, 1), (6, 7), (12, 13)), c1deck=(5, *(i for i in range(14) if i != 5)))
    q = put(q, 0, ability=ab["recharge"], hand=(ROT1,))
    q = do(roll(do(q, "token drone quest1:hack"), 5, 5), "gadget rotate1 A5+1")
    while q.phase == PH_REWARD:
        q = GAME.apply(q, GAME.legal_actions(q)[0])
    assert "recharge rotate1" in texts(q)
    q = do(q, "recharge rotate1")
    assert q.players[0].hand == (ROT1,) and q.players[0].known == (ROT1,) and q.gdisc == ()
    assert not any(t.startswith("recharge") for t in texts(q))


def test_combat_odds_for_hints() -> None:
    """rule: tiberpunk/combat-vs-miniature — explain() gives exact win odds (ties to the defender)."""
    from games.tiberpunk.dice import p_attacker_wins

    assert p_attacker_wins(0, 2, 2) == pytest.approx(5 / 16)
    assert p_attacker_wins(2, 1, 1) == 0.0  # one die each: always a tie on identical groups
    s = war()
    attack = GAME.parse_action(s, "token character attack drone:P2 tile:odd for:defeat-drone@5")
    reasons = {f.label: f.value for f in GAME.explain(s, attack)}
    assert reasons["combat win odds (no gadgets)"] == pytest.approx(5 / 16)


def test_juno_pays_objectives_and_stellar_ark_basic() -> None:
    """rule: tiberpunk/divine-favor — Juno takes 1 off a coin objective; Stellar Ark takes a locked card."""
    s = lictors(put(placed(2, where=("X", "V")), 0, coins=6, favor=2), "IV", "IX")
    assert "token structure task:senator@1" in texts(s)  # 7 - 1
    s = do(s, "token structure task:senator@1")
    assert s.players[0].coins == 0 and s.turn.juno
    locked = replace(placed(2), lock=0)
    assert "token spaceship take:character" not in texts(locked)
    assert "token spaceship take:character" in texts(put(locked, 0, favor=1))


def test_rebooter_is_limited_to_five_uses() -> None:
    """rule: tiberpunk/personal-abilities — Rebooter: pay the slot's coins, at most 5 times."""
    ab = [a.id for a in C.abilities].index("rebooter")
    s = put(placed(2, abilities=True), 0, ability=ab, wheel=(0, 1), coins=20, reboots=4)
    assert "reboot" in texts(s)
    s = do(s, "reboot")
    assert s.players[0].coins == 15
    assert "reboot" not in texts(put(s, 0, wheel=(0, 1)))
