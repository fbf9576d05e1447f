"""Quests (stages I-III), the lictor pursuit, gadgets and storyline objectives."""

from __future__ import annotations

from games.core import CHANCE
from games.core.records import replace
from games.tiberpunk.state import PH_MAIN, PH_PURSUE, PH_QGADGET, PH_REWARD, PH_ROLL
from tests.tiberpunk.helpers import GAME, C, R, ctx, d, do, lictors, placed, put, roll, texts, tokens

REROLL, ADD, ROT1, ROT2, FLIP = range(5)


def quest_state(hand=(), where="IX", card=5):
    """Seat 0's drone in IX on Stage I hacking card #1 (index 0); challenge card ``card`` on top."""
    s = placed(2, where=(where, "V"))
    s = replace(s, quests=((0, 1), (6, 7), (12, 13)), c1deck=(card, *(i for i in range(14) if i != card)))
    return put(s, 0, hand=hand)


def test_which_miniature_does_which_quest() -> None:
    """rule: tiberpunk/character-drone-interactions — hacking by drone, guile by character, offense both."""
    s = quest_state()
    assert "token drone quest1:hack" in texts(s)
    assert "token character quest1:hack" not in texts(s)
    s = replace(s, quests=((1,), (6, 7), (12, 13)))  # #2 hacking in III; #7 guile in II
    s = put(s, 0, char=d("II"), drone=d("II"))
    assert "token character quest1:guile" in texts(s) and "token drone quest1:guile" not in texts(s)
    s = replace(s, quests=((1,), (6,), (16, 13)))  # #17 offense in II
    assert {"token character quest1:offense", "token drone quest1:offense"} <= set(texts(s))


def test_lictor_blocks_quests_and_attacks() -> None:
    """rule: tiberpunk/character-drone-interactions — no quest or attack with a lictor in the district."""
    s = quest_state()
    assert "token drone quest1:hack" in texts(s)
    s = lictors(s, "IX", "X")
    assert not any("quest1" in t for t in texts(s))


def test_stage1_success_rewards() -> None:
    """rule: tiberpunk/stage-1-quests — keep the card, marker moves, Stage II, token, 2 coins, skill."""
    s = quest_state()
    assert R.dice_count(s, 0, 1, 0) == 2  # hacking level 2
    s = do(s, "token drone quest1:hack")
    assert GAME.current_player(s) == CHANCE and ctx(s).ra == 2
    assert len(GAME.chance_outcomes(s)) == 21
    s = roll(s, 2, 6)  # card 5 needs a 6
    p = s.players[0]
    assert p.story[0] == 1 and p.cards[0] == 0 and s.quests[0] == (1,)
    assert R.quest_markers(s)[0] == C.stage1[1].district  # the marker moved to the next card
    assert p.otoks[0] == 1 and p.coins == 5
    assert s.phase == PH_REWARD and sorted(texts(s)) == ["skill guile", "skill hacking"]
    s = do(s, "skill guile")
    assert s.players[0].skills[1] == C.start_slot[1] + 1 and s.phase == PH_MAIN
    assert s.c1disc == (5,)


def test_stage1_failure_pursuit_left_player_chooses() -> None:
    """rule: tiberpunk/stage-1-quests — the left-hand player moves the nearest lictor, shortest route."""
    s = quest_state()
    s = do(s, "token drone quest1:hack")
    s = roll(s, 1, 2)
    # lictors IV and X are both 2 away from IX: the player to the left chooses lictor and route
    assert s.phase == PH_PURSUE and GAME.current_player(s) == 1
    assert sorted(texts(s)) == ["pursue IV-VIII", "pursue X-VIII", "pursue X-XI"]
    assert R.board.shortest_routes(d("X"), d("IX")) == [
        [d("X"), d("VIII"), d("IX")],
        [d("X"), d("XI"), d("IX")],
    ]
    s = do(s, "pursue X-XI")
    assert s.phase == PH_ROLL and ctx(s).a == ()  # roll again
    s = roll(s, 3, 3)
    # XI is now nearest (1 away): a single route, applied at once; it arrives, the attempt fails
    assert s.phase == PH_MAIN and s.lictors == (d("IV"), d("IX"))
    assert s.players[0].shackles == 2 and s.players[0].story[0] == 0


def test_gadget_saves_a_quest_roll() -> None:
    """rule: tiberpunk/gadget-cards — rotate +/-1 within 1..6; one gadget per roll, discarded."""
    s = quest_state(hand=(ROT1, ROT1))
    s = do(s, "token drone quest1:hack")
    s = roll(s, 5, 5)
    assert s.phase == PH_QGADGET
    assert {"gadget rotate1 A5+1", "gadget rotate1 A5-1", "stop"} == set(texts(s))
    s2 = do(s, "gadget rotate1 A5-1")
    assert s2.phase in {PH_PURSUE, PH_ROLL} or s2.players[0].shackles  # still failing
    assert s2.gdisc == (ROT1,)
    s = do(s, "gadget rotate1 A5+1")
    assert s.players[0].story[0] == 1 and s.gdisc == (ROT1,) and s.players[0].hand == (ROT1,)


def test_gadget_effects_bounds() -> None:
    """rule: tiberpunk/gadget-cards — rotate +/-2 stays in 1..6, flip to the opposite face, reroll, add."""
    s = quest_state(hand=(REROLL, ADD, ROT2, FLIP))
    s = do(s, "token drone quest1:hack")
    s = roll(s, 1, 5)
    t = set(texts(s))
    assert "gadget rotate2 A5+2" not in t and "gadget rotate2 A5-2" in t and "gadget rotate2 A1+2" in t
    assert "gadget rotate2 A1-2" not in t
    assert {"gadget flip A1", "gadget flip A5", "gadget reroll A1", "gadget add-die x1"} <= t
    flipped = do(s, "gadget flip A1")  # 1 -> 6: success
    assert flipped.players[0].story[0] == 1
    rerolled = do(s, "gadget reroll A1")
    assert rerolled.phase == PH_ROLL and ctx(rerolled).a == (5,) and ctx(rerolled).ra == 1
    assert roll(rerolled, 6).players[0].story[0] == 1
    added = do(s, "gadget add-die x1")
    assert ctx(added).ra == 1 and ctx(added).a == (1, 5)


def test_one_gadget_per_roll_unless_emperors_genius() -> None:
    """rule: tiberpunk/gadget-cards — 1 per roll; Emperor's Genius 3, blessed: each on 2 dice."""
    s = quest_state(hand=(ROT1, ROT1, ROT1), card=11)  # needs 5,5
    s = do(s, "token drone quest1:hack")
    s = roll(s, 3, 4)
    s = do(s, "gadget rotate1 A4+1")
    assert s.phase == PH_PURSUE  # no second gadget on this roll
    g = put(quest_state(hand=(ROT1, ROT1, ROT1), card=11), 0, favor=3)
    g = roll(do(g, "token drone quest1:hack"), 3, 4)
    g = do(g, "gadget rotate1 A4+1")
    assert g.phase == PH_QGADGET
    g = do(g, "gadget rotate1 A3+1")
    assert g.phase == PH_QGADGET and ctx(g).a == (4, 5)
    g = do(g, "gadget rotate1 A4+1")
    assert g.players[0].story[0] == 1
    b = put(quest_state(hand=(ROT1,), card=11), 0, favor=3, blessings=8)
    b = roll(do(b, "token drone quest1:hack"), 4, 4)
    assert "gadget rotate1 A4+1,A4+1" in texts(b)
    b = do(b, "gadget rotate1 A4+1,A4+1")
    assert b.players[0].story[0] == 1


def test_storyline_in_stage_order() -> None:
    """rule: tiberpunk/storyline-objectives — Stage I, then II, then III; one storyline per skill."""
    s = quest_state()
    s = put(s, 0, drone=d("V"))  # stage III district of card #1
    assert not any("quest3" in t for t in texts(s))
    s = put(s, 0, story=(2, 0, 0), cards=(0, -1, -1))
    assert "token drone quest3:hack" in texts(s)
    s = put(s, 0, story=(3, 0, 0), drone=d("IX"))
    s = replace(s, quests=((1,), (6,), (12,)))
    s = put(s, 0, drone=C.stage1[1].district)
    assert not any("quest1:hack" in t for t in texts(s))  # no new storyline of that skill


def test_stage2_hacking_deliver_and_interaction_used() -> None:
    """rule: tiberpunk/stage-2-quests — personal, no dice; token in slot 2, 2 coins and a skill."""
    s = put(placed(2, where=("XII", "V")), 0, story=(1, 0, 0), cards=(0, -1, -1), otoks=(1, 0, 0, 0))
    assert C.stage2[0].district == d("XII")
    assert "token drone quest2:hack" in texts(s)
    other = put(replace(s, seat=1), 1, drone=d("XII"))
    assert not any("quest2" in t for t in texts(other))  # personal: only the card's holder
    s = do(s, "token drone quest2:hack")
    p = s.players[0]
    assert p.story[0] == 2 and p.otoks[0] == 2 and p.coins == 5 and s.turn.token
    assert s.ctx is None


def test_stage2_guile_discards_gadgets() -> None:
    """rule: tiberpunk/stage-2-quests — guile: character, gadgets discarded (#7: 2 gadgets in VI)."""
    s = put(placed(2, where=("VI", "V")), 0, story=(0, 1, 0), cards=(-1, 6, -1), hand=(0, 2, 4))
    opts = [t for t in texts(s) if "quest2" in t]
    assert "token character quest2:guile gadgets:reroll,rotate1" in opts and len(opts) == 3
    s = do(s, "token character quest2:guile gadgets:reroll,flip")
    assert s.players[0].hand == (2,) and sorted(s.gdisc) == [0, 4] and s.players[0].story[1] == 2


def test_stage2_returning_a_spaceship_card_cannot_spend_the_card_played() -> None:
    """rule: tiberpunk/stage-2-quests — a Stage II card that takes a spaceship card (#8: guile in
    VIII): played through the player's only character card, that card has gone back to its stack
    and cannot be the one returned (it was offered, and left the player -1 character cards)."""
    s = put(placed(2, where=("VIII", "V")), 0, story=(0, 1, 0), cards=(-1, 7, -1), ships=(1, 0, 0))
    assert [t for t in texts(s) if "quest2" in t] == ["token character quest2:guile ship:character"]
    two = put(s, 0, ships=(2, 0, 0))
    assert "ship:character quest2:guile ship:character" in texts(two)  # one to play, one to return


def test_stage2_offense_needs_a_won_combat() -> None:
    """rule: tiberpunk/stage-2-quests — offense: declared combat; a loss keeps the card."""
    s = put(placed(2, where=("IV", "V")), 0, story=(0, 0, 1), cards=(-1, -1, 12), hand=())
    s = replace(s, cfg=replace(s.cfg, tiles=(0, 2)))
    assert C.stage2[12].template == 7  # defeat a lictor
    s = do(s, "token drone attack lictor tile:odd for:quest2")
    assert ctx(s).ra == 2 and ctx(s).rd == 3
    lost = roll(roll(s, 1, 3), 1, 2, 2)  # 2 odd vs 1 odd: player wins
    assert lost.players[0].story[2] == 2 and lost.players[0].otoks[2] == 1
    s = roll(roll(s, 1, 2), 1, 3, 4)  # tie: the lictor wins
    assert s.players[0].story[2] == 1 and s.players[0].shackles == 2


def test_stage3_first_completer_places_two_tokens() -> None:
    """rule: tiberpunk/stage-3-quests — >= 3 dice challenge; first completer 2 tokens, later ones 1."""
    s = placed(3, where=("V", "V", "I"))
    s = replace(s, c3deck=(0, *range(1, 14)))  # needs 1,2,3
    s = put(s, 0, story=(2, 0, 0), cards=(0, -1, -1), otoks=(2, 0, 0, 0, 0), hand=(), skills=(2, 1, 1))
    s = put(s, 1, story=(2, 0, 0), cards=(0, -1, -1), otoks=(2, 0, 0, 0, 0), hand=(), skills=(2, 1, 1))
    assert min(len(x) for x in C.challenges3) >= 3
    s = do(s, "token drone quest3:hack")
    s = roll(s, 1, 2, 3)
    while s.phase == PH_REWARD:
        s = GAME.apply(s, GAME.legal_actions(s)[0])
    assert s.players[0].otoks[0] == 4 and s.players[0].story[0] == 3  # 2 tokens: 4 on the card
    s = do(s, "end")
    s = replace(s, c3deck=(0, *s.c3deck))
    s = do(s, "token drone quest3:hack")
    s = roll(s, 1, 2, 3)
    while s.phase == PH_REWARD:
        s = GAME.apply(s, GAME.legal_actions(s)[0])
    assert s.players[1].otoks[0] == 3  # later: 1 token


def test_quest_dice_with_boost_and_shackles() -> None:
    """rule: tiberpunk/stage-1-quests — dice = skill level, -1 with shackles, +1 with a boost."""
    s = placed(2)
    assert R.dice_count(s, 0, 0, 2) == 2
    assert R.dice_count(put(s, 0, boosts=1), 0, 0, 2) == 3
    assert R.dice_count(put(s, 0, boosts=1, shackles=2), 0, 1, 2) == 1
    assert R.dice_count(put(s, 0, boosts=1, shackles=2), 0, 0, 2) == 3
    assert tokens(s, 0) == 0


def test_stage2_templates() -> None:
    """rule: tiberpunk/stage-2-quests — relay, infiltrate (needs a lictor), shadow, spaceship, blessings."""
    base = placed(2, where=("I", "V"))
    relay = put(base, 0, story=(1, 0, 0), cards=(1, -1, -1), drone=d("IX"))  # #2: drone 3+ from character
    assert C.stage2[1].template == 1 and R.board.dist[d("I")][d("IX")] == 3
    assert "token drone quest2:hack" in texts(relay)
    assert "token drone quest2:hack" not in texts(put(relay, 0, drone=d("VIII")))
    infil = put(base, 0, story=(1, 0, 0), cards=(3, -1, -1), drone=d("X"))  # #4: with a lictor
    assert "token drone quest2:hack" in texts(infil)
    assert "token drone quest2:hack" not in texts(put(infil, 0, drone=d("XI")))
    shadow = put(base, 0, story=(1, 0, 0), cards=(4, -1, -1), drone=d("V"))  # #5: with another's miniature
    assert "token drone quest2:hack" in texts(shadow)
    assert "token drone quest2:hack" not in texts(put(shadow, 0, drone=d("XII")))
    ship = put(base, 0, story=(0, 1, 0), cards=(-1, 7, -1), char=d("VIII"), ships=(0, 0, 1))  # #8 in VIII
    ship = lictors(ship, "IV", "X")
    s = do(ship, "token character quest2:guile ship:structure")
    assert s.players[0].ships == (0, 0, 0) and s.ships == (6, 6, 7) and s.players[0].story[1] == 2
    bless = put(base, 0, story=(0, 1, 0), cards=(-1, 8, -1), blessings=0)  # #9: 1 blessing, in I
    assert not any("quest2" in t for t in texts(bless))
    assert "token character quest2:guile" in texts(put(bless, 0, blessings=2))


def test_spaceship_card_interaction_for_a_quest() -> None:
    """rule: tiberpunk/spaceship-cards — a card's interaction can start a quest; the lictor comes after."""
    s = put(quest_state(), 0, ships=(0, 1, 0))
    assert "ship:drone quest1:hack" in texts(s)
    s = roll(do(s, "ship:drone quest1:hack"), 6, 6)
    s = do(s, "skill hacking")
    assert s.players[0].story[0] == 1
    assert s.phase != PH_MAIN or len(s.lictors) == 3  # the owed lictor is placed after the quest
    if s.phase != PH_MAIN:
        s = GAME.apply(s, GAME.legal_actions(s)[0])
    assert len(s.lictors) == 3 and s.phase == PH_MAIN and not s.turn.token
