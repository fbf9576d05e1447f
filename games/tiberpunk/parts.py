"""Constants and small helpers shared by Tiberpunk's rule modules (games/tiberpunk/rules.py).

The state is records (``state.py``), changed by name with ``games.core.records.replace``.
"""

from __future__ import annotations

from typing import TypeVar

from games.core.cache import memo
from games.core.records import replace
from games.tiberpunk import actions as act
from games.tiberpunk.content import GADGETS
from games.tiberpunk.state import (
    CHAR,
    DRONE,
    PH_DRAFT,
    PH_LPLACE,
    PH_MAIN,
    PH_PLACE,
    PH_QGADGET,
    Player,
    Turn,
)

T = TypeVar("T")
HACK, GUILE, OFF = 0, 1, 2
MERCURY, STELLAR, JUNO, GENIUS = 0, 1, 2, 3
REROLL, ADD, ROT1, ROT2, FLIP = 0, 1, 2, 3, 4
R_SKILL, R_COINS, R_SHIP, R_GADGET, R_BOOST, R_ESCAPE = 0, 1, 2, 3, 4, 5
T_DEF_CHAR, T_DEF_DRONE, T_DEF_LICTOR, T_NETWORK, T_SUPPLY, T_DEVOTION = 0, 1, 2, 3, 4, 5
T_PRIESTS, T_SENATOR, T_MASTERY, T_MERCHANTS = 6, 7, 8, 9
TPL_DELIVER, TPL_RELAY, TPL_INFILTRATE, TPL_SHADOW, TPL_GADGETS, TPL_SHIP, TPL_BLESS, TPL_DEFEAT = range(8)
AB_RECHARGE, AB_TOKEN, AB_MIRROR, AB_STREET, AB_REBOOTER = range(5)
MINIS_FOR = ((DRONE,), (CHAR,), (CHAR, DRONE))  # rule: character-drone-interactions
FRESH = Turn()

RULE_OF_OP = {
    act.OP_DICE: "tiberpunk/stage-1-quests",
    act.OP_DRAFT: "tiberpunk/personal-abilities",
    act.OP_PLACE: "tiberpunk/game-overview",
    act.OP_FAVOR: "tiberpunk/divine-favor",
    act.OP_MOVE: "tiberpunk/movement",
    act.OP_UNSHACKLE: "tiberpunk/shackles",
    act.OP_INTERACT: "tiberpunk/interaction-wheel",
    act.OP_END: "tiberpunk/game-overview",
    act.OP_REBOOT: "tiberpunk/personal-abilities",
    act.OP_RECHARGE: "tiberpunk/personal-abilities",
    act.OP_GADGET: "tiberpunk/gadget-cards",
    act.OP_STOP: "tiberpunk/gadget-cards",
    act.OP_PURSUE: "tiberpunk/stage-1-quests",
    act.OP_SKILL: "tiberpunk/objective-rewards",
    act.OP_BOOST: "tiberpunk/objective-rewards",
    act.OP_TAKE: "tiberpunk/objective-rewards",
    act.OP_LICTOR: "tiberpunk/spaceship-cards",
    act.OP_ESCAPE: "tiberpunk/combat-vs-lictor",
}


def bits(m: int) -> int:
    """The number of set bits of a mask (structures held, blessings)."""
    return m.bit_count()


def hand_add(p: Player, g: int, *, public: bool = False) -> Player:
    """Gadget ``g`` into the hand (``public``: face up, as Recharge returns it; rule: gadget-cards)."""
    if public:
        return replace(p, hand=tuple(sorted((*p.hand, g))), known=tuple(sorted((*p.known, g))))
    return replace(p, hand=tuple(sorted((*p.hand, g))))


def hand_remove(p: Player, g: int) -> Player:
    """Play or discard gadget ``g``. If it could have been a publicly known copy, the others can no
    longer tell which copy went, so one known copy stops being known (unless the whole hand was known)."""
    hand = list(p.hand)
    hand.remove(g)
    known = p.known
    if g in known:
        k = list(known)
        k.remove(g)
        known = tuple(hand) if len(p.known) == len(p.hand) else tuple(k)
    return replace(p, hand=tuple(hand), known=known)


def counts_to_list(code: int) -> list[int]:
    out: list[int] = []
    for g in range(len(GADGETS)):
        out += [g] * ((code >> (3 * g)) & 7)
    return out


def list_to_counts(gs: tuple[int, ...] | list[int]) -> int:
    code = 0
    for g in gs:
        code += 1 << (3 * g)
    return code


@memo(bound=4096)
def multisets(hand: tuple[int, ...], k: int) -> tuple[tuple[int, ...], ...]:
    """Distinct k-card choices (as sorted gadget tuples) from a hand (cached: hands repeat); face-down
    cards (-1, in an observation) cannot be chosen."""
    out: set[tuple[int, ...]] = set()
    hand = tuple(g for g in hand if g >= 0)

    def rec(start: int, chosen: tuple[int, ...]) -> None:
        if len(chosen) == k:
            out.add(chosen)
            return
        for i in range(start, len(hand)):
            rec(i + 1, (*chosen, hand[i]))

    rec(0, ())
    return tuple(sorted(out))


@memo(bound=4096)
def combo_codes(hand: tuple[int, ...], k: int) -> tuple[int, ...]:
    """The gadget-count codes (``list_to_counts``) of the distinct k-card choices from a hand (cached)."""
    return tuple(list_to_counts(combo) for combo in multisets(hand, k))


SEAT_DECIDES = frozenset((PH_MAIN, PH_PLACE, PH_QGADGET, PH_LPLACE, PH_DRAFT))
