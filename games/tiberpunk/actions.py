"""Integer action encodings: an op in the low 5 bits, op-specific fields above.

Actions are plain ints (hashable, compared by value, cheap to generate). ``games.tiberpunk.notation``
turns them into text and back.
"""

from __future__ import annotations

from enum import IntEnum
from typing import TypeAlias

__all__ = ["Action", "Op"]

Action: TypeAlias = int
"""A Tiberpunk action, an int packed by the helpers below."""


class Op(IntEnum):
    """The op codes (an action's low 5 bits), each with the rule it plays."""

    DICE = 0  # dice rolled (a chance outcome; rule: stage-1-quests, combat)
    DRAFT = 1  # an ability tile chosen (rule: personal-abilities)
    PLACE = 2  # the first-turn placement (rule: game-overview)
    FAVOR = 3  # the favor marker moved (rule: divine-favor)
    MOVE = 4  # a movement (rule: movement)
    UNSHACKLE = 5  # shackles removed (rule: shackles)
    INTERACT = 6  # an interaction by token or spaceship card (rule: interaction-wheel)
    END = 7  # the turn ends (rule: game-overview)
    REBOOT = 8  # the Rebooter ability (rule: personal-abilities)
    RECHARGE = 9  # the Recharge ability (rule: personal-abilities)
    GADGET = 10  # a gadget card played on a roll (rule: gadget-cards)
    STOP = 11  # no (more) gadget on this roll (rule: gadget-cards)
    PURSUE = 12  # the lictor pursuit (rule: stage-1-quests)
    SKILL = 13  # a skill upgrade reward (rule: objective-rewards)
    BOOST = 14  # a boost reward (rule: objective-rewards)
    TAKE = 15  # a spaceship card reward (rule: objective-rewards)
    LICTOR = 16  # a lictor placed from the reserve (rule: spaceship-cards)
    ESCAPE = 17  # the last lictor escapes (rule: combat-vs-lictor)


# the op codes as plain ints for the hot paths (an IntEnum compares and hashes as its int, slower)
OP_DICE: int = Op.DICE.value
OP_DRAFT: int = Op.DRAFT.value
OP_PLACE: int = Op.PLACE.value
OP_FAVOR: int = Op.FAVOR.value
OP_MOVE: int = Op.MOVE.value
OP_UNSHACKLE: int = Op.UNSHACKLE.value
OP_INTERACT: int = Op.INTERACT.value
OP_END: int = Op.END.value
OP_REBOOT: int = Op.REBOOT.value
OP_RECHARGE: int = Op.RECHARGE.value
OP_GADGET: int = Op.GADGET.value
OP_STOP: int = Op.STOP.value
OP_PURSUE: int = Op.PURSUE.value
OP_SKILL: int = Op.SKILL.value
OP_BOOST: int = Op.BOOST.value
OP_TAKE: int = Op.TAKE.value
OP_LICTOR: int = Op.LICTOR.value
OP_ESCAPE: int = Op.ESCAPE.value

# interaction sources: token index 0..3, or spaceship card type 0..2 as VIA_SHIP + type
VIA_SHIP = 4
# interaction kinds (ITYPES order) and income
IT_SPACESHIP, IT_CHARACTER, IT_STRUCTURE, IT_DRONE, IT_INCOME = range(5)
# sub-kinds: structure
SUB_TEMPLE, SUB_HUB, SUB_SITE = range(3)
# sub-kinds: character / drone
SUB_Q1, SUB_Q2, SUB_Q3, SUB_FIGHT = range(4)

END = OP_END
REBOOT = OP_REBOOT
STOP = OP_STOP


def op(a: Action) -> int:
    """The op code of an action (compare with ``OP_*``; ``Op(op(a))`` names it)."""
    return a & 31


# -- movement: via (0 movement action, 1..3 spaceship card type + 1), mini (0 char 1 drone 2 lictor)
def move(via: int, mini: int, src: int, dst: int, pay: int) -> Action:
    """A movement of one miniature (rule: movement)."""
    return OP_MOVE | via << 5 | mini << 8 | src << 10 | dst << 14 | pay << 18


def move_fields(a: Action) -> tuple[int, int, int, int, int]:
    """(via, mini, src, dst, pay) of a move."""
    return (a >> 5) & 7, (a >> 8) & 3, (a >> 10) & 15, (a >> 14) & 15, (a >> 18) & 15


def unshackle(via: int, mini: int) -> Action:
    """Spend a movement to remove shackles from one miniature (rule: shackles)."""
    return OP_UNSHACKLE | via << 5 | mini << 8


# -- interactions
PARAM_SHIFTS = (13, 17, 21, 25, 30)
"""Where an interaction's option fields p1..p5 sit in the action's bits (see :func:`interact_fields`)."""


def interact(via: int, it: int, sub: int = 0, *params: int) -> Action:
    """An interaction (token or spaceship card) with its complete option: ``params`` are its option
    fields p1..p5 (at most five; their meaning by interaction kind: :func:`interact_fields`)."""
    assert len(params) <= len(PARAM_SHIFTS), params
    a = OP_INTERACT | via << 5 | it << 8 | sub << 11
    for shift, p in zip(PARAM_SHIFTS, params, strict=False):
        a |= p << shift
    return a


def interact_fields(a: Action) -> tuple[int, int, int, int, int, int, int, int]:
    """(via, itype, sub, p1, p2, p3, p4, p5) of an interaction."""
    return (
        (a >> 5) & 7,
        (a >> 8) & 7,
        (a >> 11) & 3,
        (a >> 13) & 15,
        (a >> 17) & 15,
        (a >> 21) & 15,
        (a >> 25) & 31,
        a >> 30,
    )


def simple(opcode: int, value: int = 0) -> Action:
    """An op with one small field (draft, place, favor, recharge, skill, boost, take, lictor, escape)."""
    return opcode | value << 5


def value(a: Action) -> int:
    """The field of a :func:`simple` action."""
    return a >> 5


def pursue(src: int, dst: int) -> Action:
    """The left-hand player moves the nearest lictor ``src`` -> ``dst`` (rule: stage-1-quests)."""
    return OP_PURSUE | src << 5 | dst << 9


def dice(code: int) -> Action:
    """A chance outcome: the encoded sorted pool of dice rolled."""
    return OP_DICE | code << 5


# -- gadgets: type, count (dice affected or added), up to two targets (side, value, delta code)
DELTAS = (0, 1, -1, 2, -2)


def gadget(g: int, count: int, targets: tuple[tuple[int, int, int], ...] = ()) -> Action:
    """Play a gadget. ``targets``: (side 0 = a / 1 = d, die value, delta code index into DELTAS)."""
    a = OP_GADGET | g << 5 | count << 8
    for i, (side, val, dc) in enumerate(targets):
        a |= (side | val << 1 | dc << 4) << (10 + 7 * i)
    return a


def gadget_fields(a: Action) -> tuple[int, int, tuple[tuple[int, int, int], ...]]:
    """(gadget, count, targets) of a gadget action."""
    g, count = (a >> 5) & 7, (a >> 8) & 3
    targets = []
    for i in range(2):
        t = (a >> (10 + 7 * i)) & 127
        if t:
            targets.append((t & 1, (t >> 1) & 7, t >> 4))
    return g, count, tuple(targets)
