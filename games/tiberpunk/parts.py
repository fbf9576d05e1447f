"""Constants and tuple helpers shared by Tiberpunk's rule modules (games/tiberpunk/rules.py).

The internal state is small NamedTuples (``state.py``); the rule modules edit them through these
helpers (``_with``: one field replaced by index, ``_new``: a tuple built from a list) for speed.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Final, TypeVar

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
    Ctx,
    Player,
    State,
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


def _bits(m: int) -> int:
    return m.bit_count()


def _set(t: tuple[T, ...], i: int, v: T) -> tuple[T, ...]:
    return (*t[:i], v, *t[i + 1 :])


def _hand_add(p: Player, g: int, *, public: bool = False) -> Player:
    pv: list[Any] = list(p)
    pv[_P_HAND] = tuple(sorted((*p.hand, g)))
    if public:
        pv[_P_KNOWN] = tuple(sorted((*p.known, g)))
    return _new(Player, pv)


def _hand_remove(p: Player, g: int) -> Player:
    """Play or discard gadget ``g``. If it could have been a publicly known copy, the others can no
    longer tell which copy went, so one known copy stops being known (unless the whole hand was known)."""
    hand = list(p.hand)
    hand.remove(g)
    known = p.known
    if g in known:
        k = list(known)
        k.remove(g)
        known = tuple(hand) if len(p.known) == len(p.hand) else tuple(k)
    pv: list[Any] = list(p)
    pv[_P_HAND] = tuple(hand)
    pv[_P_KNOWN] = known
    return _new(Player, pv)


def _counts_to_list(code: int) -> list[int]:
    out: list[int] = []
    for g in range(len(GADGETS)):
        out += [g] * ((code >> (3 * g)) & 7)
    return out


def _list_to_counts(gs: tuple[int, ...] | list[int]) -> int:
    code = 0
    for g in gs:
        code += 1 << (3 * g)
    return code


@lru_cache(maxsize=4096)
def _multisets(hand: tuple[int, ...], k: int) -> tuple[tuple[int, ...], ...]:
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


@lru_cache(maxsize=4096)
def _combo_codes(hand: tuple[int, ...], k: int) -> tuple[int, ...]:
    """The gadget-count codes (``_list_to_counts``) of the distinct k-card choices from a hand (cached)."""
    return tuple(_list_to_counts(combo) for combo in _multisets(hand, k))


_new = tuple.__new__


_TupleT = TypeVar("_TupleT", bound=tuple[Any, ...])


def _with(t: _TupleT, i: int, v: object) -> _TupleT:
    """A copy of a state NamedTuple with field ``i`` set to ``v`` (a one-field ``_replace``)."""
    tv: list[Any] = list(t)
    tv[i] = v
    return _new(type(t), tv)


_I_CTX = State._fields.index("ctx")
_C_A = Ctx._fields.index("a")
_C_D = Ctx._fields.index("d")
_C_RA = Ctx._fields.index("ra")
_C_RD = Ctx._fields.index("rd")
_I_PLAYERS = State._fields.index("players")
_I_TURN = State._fields.index("turn")
_I_SEAT = State._fields.index("seat")
_I_PHASE = State._fields.index("phase")
_I_SHUFFLES = State._fields.index("shuffles")
_I_GDISC = State._fields.index("gdisc")
_I_GDECK = State._fields.index("gdeck")
_I_SHIPS = State._fields.index("ships")
_I_LOCK = State._fields.index("lock")
_P_HAND = Player._fields.index("hand")
_P_KNOWN = Player._fields.index("known")
_P_COINS = Player._fields.index("coins")
_P_CHAR: Final = 2  # (literal indices: mypy types ``p[_P_CHAR]`` as the field's type; checked below)
_P_DRONE: Final = 3
_P_SHACKLES = Player._fields.index("shackles")
_T_USED = Turn._fields.index("used")
_T_TOKEN = Turn._fields.index("token")
_T_JUNO = Turn._fields.index("juno")
_I_REWARDS = State._fields.index("rewards")
_I_BLESS = State._fields.index("bless")
_I_LICTORS = State._fields.index("lictors")
_I_QUESTS = State._fields.index("quests")
_P_BOOSTS = Player._fields.index("boosts")
_P_CARDS = Player._fields.index("cards")
_P_HUBS = Player._fields.index("hubs")
_P_OTOKS = Player._fields.index("otoks")
_P_SIDE = Player._fields.index("side")
_P_SKILLS = Player._fields.index("skills")
_P_STORY = Player._fields.index("story")
_C_UA = Ctx._fields.index("ua")
_C_UD = Ctx._fields.index("ud")
_C_WHO = Ctx._fields.index("who")
_P_SHIPS = Player._fields.index("ships")
_T_GAINED = Turn._fields.index("gained")
_T_SHIP = Turn._fields.index("ship")
_T_LICTOR_DUE = Turn._fields.index("lictor_due")
_P_FAVOR = Player._fields.index("favor")
_P_WHEEL = Player._fields.index("wheel")
_SEAT_DECIDES = frozenset((PH_MAIN, PH_PLACE, PH_QGADGET, PH_LPLACE, PH_DRAFT))
assert State._fields[_I_SEAT : _I_TURN + 3] == ("seat", "phase", "rnd", "turn", "players", "lictors")
assert Player._fields[:4] == ("coins", "skills", "char", "drone")
assert Player._fields[_P_CHAR] == "char" and Player._fields[_P_DRONE] == "drone"
assert Turn._fields[:3] == ("token", "favor", "moves")
assert State._fields[_I_PHASE + 1] == "rnd"
