"""Stage II and III cards come from the numbered stack: finding a card by its number is the rule.

GENERAL SETUP step 4 puts the Stage II and Stage III cards "into a single face-down stack, sorted in
order, with card number 1 on top"; a Stage I success says "Find the corresponding Stage II quest card
from the stack of numbered quests" and a Stage II success "Find and take the corresponding Stage III
quest card from the stack of numbered quests". Nothing is ever drawn from the top of that stack, it
is never shuffled, and each number belongs to exactly one Stage I card, which only its completer
keeps. So the engine looks the card up by number (``content.stage2[i]``/``stage3[i]`` share the number
of ``stage1[i]``) and the stack is implicit: every number not held or discarded by a player. These
tests check that this is the same as the stack (rule: tiberpunk/general-setup, rule:
tiberpunk/stage-2-quests, rule: tiberpunk/stage-3-quests).
"""

from __future__ import annotations

import random

from games.core import CHANCE, TERMINAL, GameConfig
from games.tiberpunk.state import State
from tests.tiberpunk.helpers import GAME, C, do, placed, put, roll
from tests.tiberpunk.test_quests import quest_state


def numbered_stack(s: State) -> set[int]:
    """Card numbers whose Stage II or III card is still in the numbered stack (the implicit stack).

    A player with story 1 holds the Stage II card, story 2 the Stage III card, story 3 has discarded
    all three; every other number is still in the stack.
    """
    out_of_stack = {C.stage1[p.cards[k]].id for p in s.players for k in range(3) if p.story[k] >= 1}
    return {c.id for c in C.stage2} - out_of_stack


def test_stack_holds_one_stage2_and_one_stage3_card_per_stage1_number() -> None:
    """rule: tiberpunk/general-setup — step 4: one sorted stack, numbered like the Stage I cards."""
    numbers = [c.id for c in C.stage1]
    assert len(set(numbers)) == len(numbers) == 18
    for q1, q2, q3 in zip(C.stage1, C.stage2, C.stage3, strict=True):
        assert q1.id == q2.id == q3.id and q1.skill == q2.skill == q3.skill
    # the sorted stack, searched by number, gives the card the engine uses for that Stage I card
    stack2 = {q.id: q for q in sorted(C.stage2, key=lambda q: q.id)}
    stack3 = {q.id: q for q in sorted(C.stage3, key=lambda q: q.id)}
    for i, q1 in enumerate(C.stage1):
        assert stack2[q1.id] is C.stage2[i] and stack3[q1.id] is C.stage3[i]


def test_stage1_success_takes_the_stage2_card_of_that_number() -> None:
    """rule: tiberpunk/stage-2-quests — "find the corresponding Stage II quest card" by its number."""
    s = quest_state()
    before = numbered_stack(s)
    s = roll(do(s, "token drone quest1:hack"), 2, 6)
    p = s.players[0]
    assert p.story[0] == 1 and C.stage2[p.cards[0]].id == C.stage1[0].id == 1
    assert before - numbered_stack(s) == {1}  # exactly card 1 left the stack


def test_stage2_success_takes_the_stage3_card_of_that_number() -> None:
    """rule: tiberpunk/stage-3-quests — "find and take the corresponding Stage III quest card"."""
    s = put(placed(2, where=("XII", "V")), 0, story=(1, 0, 0), cards=(0, -1, -1), otoks=(1, 0, 0, 0))
    s = do(s, "token drone quest2:hack")
    p = s.players[0]
    assert p.story[0] == 2 and C.stage3[p.cards[0]].id == 1
    assert C.stage3[p.cards[0]].district >= 0  # the Stage III card names where to go


def test_the_needed_card_is_always_in_the_stack() -> None:
    """rule: tiberpunk/stage-2-quests — over seeded games, every card taken by number was in the stack,
    and no two players ever hold the same number (so a drawn stack would give the same cards)."""
    from tests.tiberpunk.helpers import purposeful

    taken = 0
    for seed, players in ((1, 2), (2, 3), (3, 4)):
        s = GAME.new_state(GameConfig(players=players, options={"max_rounds": 25}), seed)
        rng = random.Random(seed)
        while GAME.current_player(s) != TERMINAL:
            if GAME.current_player(s) == CHANCE:
                a = GAME.sample_chance(s, rng)
            else:
                a = purposeful(s, rng)
            before = numbered_stack(s)
            nxt = GAME.apply(s, a)
            for q in range(s.n):
                for k in range(3):
                    was, now = s.players[q].story[k], nxt.players[q].story[k]
                    if now in (1, 2) and now != was:
                        number = C.stage1[nxt.players[q].cards[k]].id
                        if now == 1:  # the Stage II card leaves the stack now
                            assert number in before and number not in numbered_stack(nxt)
                        taken += 1
            held = [p.cards[k] for p in nxt.players for k in range(3) if p.story[k] in (1, 2)]
            assert len(held) == len(set(held))
            s = nxt
    assert taken >= 6
