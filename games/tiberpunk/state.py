"""Tiberpunk's state: records (``games.core.records``, docs/state.md) of ints and tuples, changed by name."""

from __future__ import annotations

from games.core.records import Record

__all__ = [
    "CHAR",
    "COMBAT",
    "DRONE",
    "PHASES",
    "PH_CGADGET",
    "PH_DRAFT",
    "PH_LPLACE",
    "PH_MAIN",
    "PH_OVER",
    "PH_PLACE",
    "PH_PURSUE",
    "PH_QGADGET",
    "PH_REWARD",
    "PH_ROLL",
    "QUEST",
    "UNLIMITED",
    "Cfg",
    "Ctx",
    "Player",
    "State",
    "Turn",
    "bank_left",
]

CHAR, DRONE, LICTOR = 0, 1, 2
QUEST, COMBAT = 0, 1
(
    PH_DRAFT,
    PH_PLACE,
    PH_MAIN,
    PH_ROLL,
    PH_QGADGET,
    PH_PURSUE,
    PH_CGADGET,
    PH_REWARD,
    PH_LPLACE,
    PH_OVER,
) = range(10)
PHASES = (
    "draft",
    "place",
    "main",
    "roll",
    "quest-gadget",
    "pursue",
    "combat-gadget",
    "reward",
    "lictor",
    "over",
)
STAGE2_OBJ = 15  # objective reference of a Stage II offense quest in a combat


class Cfg(Record, frozen=True):
    """The setup choices that never change during a game.

    Attributes:
        abilities: whether the Personal Abilities module is used.
        max_rounds: engine cap on rounds (0: none); the game then ends as if triggered.
        side: the side objective cards in play (content indices).
        tiles: the face-up side of each combat tile (condition indices).
        bank: coins in the bank (0: unlimited, the default: the rulebook limits no coins; the
            ``coin_bank`` variant plays with the box's coins only).
    """

    abilities: bool
    max_rounds: int
    side: tuple[int, ...]
    tiles: tuple[int, int]
    bank: int = 0


class Player(Record, frozen=True):
    """One player's components.

    Attributes:
        coins: coins held.
        skills: skill marker slot per skill (hacking, guile, offense).
        char: district of the character (-1 before the first-turn placement).
        drone: district of the drone (-1 before placement).
        shackles: bit 0 character, bit 1 drone.
        boosts: boost markers, bit 0 character, bit 1 drone.
        favor: god index of the favor marker's segment (-1: the centre space).
        blessings: blessing tiles held, bit per god.
        temples: influence markers on temples, bit per god.
        hubs: influence markers on upgrade hubs, bit per hub index.
        hand: face-down gadget cards (gadget indices, sorted).
        known: the part of ``hand`` every player knows (gadgets returned by Recharge), sorted.
        ships: spaceship cards held, per card type.
        wheel: interaction tokens on the wheel (token index), earliest first.
        tokens: per token index, the interaction types it allows (bit mask).
        story: per storyline skill: 0 none, 1 holds Stage II, 2 holds Stage III, 3 complete.
        cards: per storyline skill, the quest card index (-1: none).
        side: per side card in play, the mask of tasks completed.
        otoks: triumph tokens per objective card (3 storyline cards, then the side cards).
        ability: ability tile index (-1: none).
        reboots: Rebooter uses so far.
    """

    coins: int
    skills: tuple[int, ...]
    char: int
    drone: int
    shackles: int
    boosts: int
    favor: int
    blessings: int
    temples: int
    hubs: int
    hand: tuple[int, ...]
    known: tuple[int, ...]
    ships: tuple[int, ...]
    wheel: tuple[int, ...]
    tokens: tuple[int, ...]
    story: tuple[int, ...]
    cards: tuple[int, ...]
    side: tuple[int, ...]
    otoks: tuple[int, ...]
    ability: int
    reboots: int


class Turn(Record, frozen=True):
    """What the active player has done this turn.

    Attributes:
        token: an interaction token was played.
        favor: the favor marker was moved.
        moves: movement actions used.
        ship: a spaceship card was played.
        gained: spaceship cards gained this turn, per type.
        lictor_due: a played spaceship card still owes its lictor placement.
        juno: Juno's basic discount was used.
        used: gadgets the active player used this turn (for Recharge).
        recharged: Recharge was used.
    """

    token: bool = False
    favor: bool = False
    moves: int = 0
    ship: bool = False
    gained: tuple[int, ...] = (0, 0, 0)
    lictor_due: bool = False
    juno: bool = False
    used: tuple[int, ...] = ()
    recharged: bool = False


class Ctx(Record, frozen=True):
    """A quest roll or a combat in progress.

    Attributes:
        kind: QUEST or COMBAT.
        stage: quest stage (1 or 3); 0 for a combat.
        skill: the quest's storyline skill.
        mini: the acting miniature (CHAR or DRONE).
        card: the revealed challenge card (index), -1 for a combat.
        a: dice of the quester or attacker (sorted).
        d: dice of the defender or lictor (sorted).
        ra: dice still to roll into ``a`` (a pending chance node).
        rd: dice still to roll into ``d``.
        ua: gadgets used by the quester/attacker on this roll.
        ud: gadgets used by the defender on this roll.
        tkind: combat target: CHAR, DRONE or LICTOR.
        tseat: the defending seat (combat vs a miniature).
        tile: the chosen combat tile's condition.
        obj: the declared objective (side card slot * 3 + task, or STAGE2_OBJ).
        where: the district of the quest or combat.
        who: the seat deciding in the combat gadget phase.
    """

    kind: int
    stage: int
    skill: int
    mini: int
    card: int
    a: tuple[int, ...]
    d: tuple[int, ...]
    ra: int
    rd: int
    ua: int
    ud: int
    tkind: int
    tseat: int
    tile: int
    obj: int
    where: int
    who: int


class State(Record, frozen=True):
    """A Tiberpunk position.

    Attributes:
        n: number of players.
        cfg: setup choices.
        seed: hidden seed for later reshuffles of discard piles.
        seat: the active player (the drafting player during the ability draft).
        phase: one of the PH_* constants.
        rnd: round number (1-based).
        turn: the active player's turn flags.
        players: per seat.
        lictors: districts of the lictors on the board (sorted).
        quests: per skill, the Stage I stack (card indices; [0] is face up, its marker on the board).
        ships: spaceship cards per stack (type).
        lock: the stack under the spaceship lock marker (-1: none yet).
        bless: blessing tiles left per god.
        gdeck: gadget deck (top first).
        gdisc: gadget discard pile.
        c1deck: Stage I challenge deck (top first).
        c1disc: Stage I challenge discard pile.
        c3deck: Stage III challenge deck.
        c3disc: Stage III challenge discard pile.
        shuffles: reshuffles so far (derives each reshuffle's order from ``seed``).
        speed: objective cards whose speed bonus was taken (bit per objective card).
        end: the end of the game was triggered.
        draft: ability tiles not yet chosen.
        ctx: the quest roll or combat in progress.
        rewards: rewards still to resolve: (seat, kind, parameter).
    """

    n: int
    cfg: Cfg
    seed: int
    seat: int
    phase: int
    rnd: int
    turn: Turn
    players: tuple[Player, ...]
    lictors: tuple[int, ...]
    quests: tuple[tuple[int, ...], ...]
    ships: tuple[int, ...]
    lock: int
    bless: tuple[int, ...]
    gdeck: tuple[int, ...]
    gdisc: tuple[int, ...]
    c1deck: tuple[int, ...]
    c1disc: tuple[int, ...]
    c3deck: tuple[int, ...]
    c3disc: tuple[int, ...]
    shuffles: int
    speed: int
    end: bool
    draft: tuple[int, ...]
    ctx: Ctx | None
    rewards: tuple[tuple[int, int, int], ...]


UNLIMITED = 1 << 30
"""The coins left in a bank the rulebook does not limit (more than any game can pay out)."""


def bank_left(s: State) -> int:
    """Coins left in the bank: :data:`UNLIMITED` (the rulebook limits no coins), or with the
    ``coin_bank`` variant the box's coins less those the players hold (an empty bank pays nothing).

    rule: collect-income
    """
    if not s.cfg.bank:
        return UNLIMITED
    return s.cfg.bank - sum(p.coins for p in s.players)
