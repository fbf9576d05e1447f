"""The position as Tiberpunk's face reads it: the plain snapshot (:class:`Pos`, :class:`Seat`,
:class:`Roll`, :class:`Act`) and the words (names and texts from ``content/face.json``).

The engine's state is read in one place, :func:`read_position` (and the action decoding in
:func:`decode`, the rules engine's queries through :func:`rules_of`): a field renamed in ``state.py``,
``actions.py`` or the rules is a fix there only. The face's other modules work on the snapshot.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from games.core.cache import memo
from games.core.face import (
    REFEREE,
    Viewer,
)
from games.core.text import plural
from games.tiberpunk import actions as act
from games.tiberpunk import end
from games.tiberpunk.content import (
    CONDITIONS,
    GADGETS,
    GODS,
    REWARDS,
    TASKS,
    Content,
)
from games.tiberpunk.state import (
    COMBAT,
    PH_CGADGET,
    PH_OVER,
    Player,
    State,
)

if TYPE_CHECKING:
    from games.tiberpunk.game import TiberpunkGame
    from games.tiberpunk.rules import Rules

__all__ = [
    "MINI_WORDS",
    "REWARD_KINDS",
    "Act",
    "Pos",
    "Roll",
    "Seat",
    "and_words",
    "decode",
    "dice_text",
    "face_texts",
    "gadget_name",
    "god_name",
    "pack_of",
    "plural",
    "read_position",
    "rules_of",
    "seat_colour",
    "seat_word",
    "task_name",
    "tile_name",
]


MINI_WORDS = ("character", "drone", "lictor")
REWARD_KINDS = (*REWARDS, "escape")  # the engine's pending reward kinds (R_SKILL .. R_ESCAPE)


# ---------------------------------------------------------------------------- texts (face.json)
@memo(bound=None)
def face_texts() -> dict[str, Any]:
    """The face's names and texts (``content/face.json``), read once."""
    data: dict[str, Any] = json.loads((Path(__file__).parent / "content" / "face.json").read_text("utf-8"))
    return data


def seat_colour(seat: int) -> tuple[str, str]:
    """(name, fill) of a seat's colour."""
    colours = face_texts()["player_colours"]
    c = colours[seat % len(colours)]
    return str(c["name"]), str(c["fill"])


def seat_word(seat: int) -> str:
    """``"Seat 1 (Blue)"``."""
    return f"Seat {seat} ({seat_colour(seat)[0]})"


def god_name(g: int) -> str:
    return str(face_texts()["gods"][GODS[g]]["name"])


def gadget_name(g: int) -> str:
    return str(face_texts()["gadgets"][GADGETS[g]]["name"])


def tile_name(cond: int) -> str:
    return str(face_texts()["combat_tiles"][CONDITIONS[cond]]["name"])


def task_name(kind: int) -> str:
    return str(face_texts()["tasks"][TASKS[kind]]["name"])


def and_words(words: Sequence[str], last: str = "and") -> str:
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + f" {last} " + words[-1]


def dice_text(values: Sequence[int]) -> str:
    return ", ".join(map(str, values)) if values else "no dice"


# ---------------------------------------------------------------------------- the snapshot
@dataclass(frozen=True, slots=True)
class Seat:
    """One player's components as a viewer sees them.

    ``hand`` holds gadget indices; ``None`` for a card the viewer may not see.
    """

    seat: int
    coins: int
    skills: tuple[int, ...]
    dice: tuple[int, ...]
    char: int
    drone: int
    shackled: tuple[bool, bool]
    boosted: tuple[bool, bool]
    favor: int
    blessings: tuple[int, ...]
    temples: tuple[int, ...]
    hubs: tuple[int, ...]
    hand: tuple[int | None, ...]
    ships: tuple[int, ...]
    wheel: tuple[int, ...]
    tokens: tuple[int, ...]
    story: tuple[int, ...]
    cards: tuple[int, ...]
    side: tuple[int, ...]
    triumphs: tuple[int, ...]
    ability: int
    reboots: int
    token_slots: tuple[int, ...]  # the interaction types of each of the player's tokens (bit masks)
    wheel_slots: tuple[int, ...]  # which tokens are on the wheel, earliest first
    reboot_cost: int  # coins of the next Rebooter use (0: none)

    @property
    def total(self) -> int:
        """Triumph tokens placed on objective cards."""
        return sum(self.triumphs)


@dataclass(frozen=True, slots=True)
class Roll:
    """A quest roll or a combat in progress (everything on it is public)."""

    combat: bool
    stage: int
    skill: int
    mini: int
    need: tuple[int, ...]
    a: tuple[int, ...]
    d: tuple[int, ...]
    to_roll: tuple[int, int]
    gadgets_used: tuple[int, int]
    target: int
    defender: int
    tile: int
    objective: int
    where: int
    deciding: int


@dataclass(frozen=True, slots=True)
class Pos:
    """A position as a viewer may see it (plain values; see :func:`read_position`)."""

    n: int
    rnd: int
    seat: int
    phase: int
    decider: int
    end: bool
    lictors: tuple[int, ...]
    quests: tuple[tuple[int, int], ...]  # per skill: (face-up Stage I card or -1, cards in the stack)
    ship_stacks: tuple[int, ...]
    lock: int
    bless_left: tuple[int, ...]
    gadget_deck: int
    gadget_discard: tuple[int, ...]
    challenge_decks: tuple[int, int]
    last_challenges: tuple[tuple[int, ...] | None, tuple[int, ...] | None]
    challenge_discards: tuple[tuple[int, ...], tuple[int, ...]]  # Stage I and III (card indices)
    side_cards: tuple[int, ...]
    tiles: tuple[int, ...]
    speed: int
    moves: int
    token_played: bool
    favor_changed: bool
    ship_played: bool
    roll: Roll | None
    rewards: tuple[tuple[int, int, int], ...]
    draft: tuple[int, ...]
    winners: tuple[int, ...]  # who wins if the game ended now (rulebook: tiberpunk/end-of-game, end.py)
    players: tuple[Seat, ...] = field(default=())
    ended_by: str = ""  # how a finished game ended (end.ended_by)


def rules_of(game: TiberpunkGame) -> Rules:
    """The rules engine the face asks for the turn order, distances and dice counts: ``current``,
    ``board`` (``dist``, ``neighbors``, ``diameter``), ``dice_count`` and the pack ``c``."""
    return game.rules


def pack_of(game: TiberpunkGame) -> Content:
    return rules_of(game).c


def _read_seat(c: Content, i: int, p: Player, viewer: Viewer) -> Seat:
    """One player's components as ``viewer`` sees them (others' gadgets face down unless known)."""
    if viewer in (REFEREE, i):
        hand: tuple[int | None, ...] = tuple(g if g >= 0 else None for g in p.hand)
    else:  # the publicly known gadgets face up, the others face down
        known = tuple(g for g in p.known if g >= 0)
        hand = (*known, *(None,) * (len(p.hand) - len(known)))
    return Seat(
        seat=i,
        coins=p.coins,
        skills=p.skills,
        dice=tuple(c.levels[k][p.skills[k]] for k in range(3)),
        char=p.char,
        drone=p.drone,
        shackled=(bool(p.shackles & 1), bool(p.shackles & 2)),
        boosted=(bool(p.boosts & 1), bool(p.boosts & 2)),
        favor=p.favor,
        blessings=tuple(g for g in range(4) if (p.blessings >> g) & 1),
        temples=tuple(g for g in range(4) if (p.temples >> g) & 1),
        hubs=tuple(c.hubs[h] for h in range(len(c.hubs)) if (p.hubs >> h) & 1),
        hand=hand,
        ships=p.ships,
        wheel=tuple(p.tokens[t] for t in p.wheel),
        tokens=tuple(p.tokens[t] for t in range(len(p.tokens)) if t not in p.wheel),
        story=p.story,
        cards=p.cards,
        side=p.side,
        triumphs=p.otoks,
        ability=p.ability,
        reboots=p.reboots,
        token_slots=p.tokens,
        wheel_slots=p.wheel,
        reboot_cost=_reboot_cost(c, p),
    )


def _reboot_cost(c: Content, p: Player) -> int:
    if p.ability < 0:
        return 0
    costs = c.abilities[p.ability].costs
    return costs[p.reboots] if p.reboots < len(costs) else 0


def _read_roll(c: Content, state: State) -> Roll | None:
    """The quest roll or combat in progress (public: dice are rolled in the open)."""
    ctx = state.ctx
    roll = None
    if ctx is not None:
        combat = ctx.kind == COMBAT
        need: tuple[int, ...] = ()
        if not combat and ctx.card >= 0:
            need = (c.challenges1 if ctx.stage == 1 else c.challenges3)[ctx.card]
        deciding = ctx.who if state.phase == PH_CGADGET else state.seat
        roll = Roll(
            combat=combat,
            stage=ctx.stage,
            skill=ctx.skill,
            mini=ctx.mini,
            need=need,
            a=ctx.a,
            d=ctx.d,
            to_roll=(ctx.ra, ctx.rd),
            gadgets_used=(ctx.ua, ctx.ud),
            target=ctx.tkind,
            defender=ctx.tseat,
            tile=ctx.tile,
            objective=ctx.obj,
            where=ctx.where,
            deciding=deciding,
        )
    return roll


def read_position(game: TiberpunkGame, state: State, viewer: Viewer = REFEREE) -> Pos:
    """The one place that reads the engine's state (a field rename is fixed here)."""
    r: Rules = rules_of(game)
    c = r.c
    players = tuple(_read_seat(c, i, p, viewer) for i, p in enumerate(state.players))
    roll = _read_roll(c, state)
    cur = r.current(state)
    last1 = c.challenges1[state.c1disc[-1]] if state.c1disc else None
    last3 = c.challenges3[state.c3disc[-1]] if state.c3disc else None
    return Pos(
        n=state.n,
        rnd=state.rnd,
        seat=state.seat,
        phase=state.phase,
        decider=cur,
        end=state.end,
        lictors=state.lictors,
        quests=tuple((q[0] if q else -1, len(q)) for q in state.quests),
        ship_stacks=state.ships,
        lock=state.lock,
        bless_left=state.bless,
        gadget_deck=len(state.gdeck),
        gadget_discard=state.gdisc,
        challenge_decks=(len(state.c1deck), len(state.c3deck)),
        last_challenges=(last1, last3),
        challenge_discards=(state.c1disc, state.c3disc),
        side_cards=state.cfg.side,
        tiles=state.cfg.tiles,
        speed=state.speed,
        moves=state.turn.moves,
        token_played=state.turn.token,
        favor_changed=state.turn.favor,
        ship_played=state.turn.ship,
        roll=roll,
        rewards=state.rewards,
        draft=state.draft,
        winners=tuple(end.winners(state)),
        players=players,
        ended_by=end.ended_by(state) if state.phase == PH_OVER else "",
    )


@dataclass(frozen=True, slots=True)
class Act:
    """An action decoded into named fields (the one place that reads ``actions.py``'s encoding)."""

    kind: str
    via: int = (
        0  # movement/unshackle: 0 movement action, k + 1 spaceship stack k; interaction: token or 4 + k
    )
    it: int = 0
    sub: int = 0
    p: tuple[int, ...] = ()
    value: int = 0


_OP_KIND = {
    act.OP_DICE: "dice",
    act.OP_DRAFT: "draft",
    act.OP_PLACE: "place",
    act.OP_FAVOR: "favor",
    act.OP_MOVE: "move",
    act.OP_UNSHACKLE: "unshackle",
    act.OP_INTERACT: "interact",
    act.OP_END: "end",
    act.OP_REBOOT: "reboot",
    act.OP_RECHARGE: "recharge",
    act.OP_GADGET: "gadget",
    act.OP_STOP: "stop",
    act.OP_PURSUE: "pursue",
    act.OP_SKILL: "skill",
    act.OP_BOOST: "boost",
    act.OP_TAKE: "take",
    act.OP_LICTOR: "lictor",
    act.OP_ESCAPE: "escape",
}


def decode(action: int) -> Act:
    o = act.op(action)
    kind = _OP_KIND.get(o, "unknown")
    if kind == "move":
        via, mini, src, dst, pay = act.move_fields(action)
        return Act(kind, via=via, p=(mini, src, dst, pay))
    if kind == "unshackle":
        return Act(kind, via=(action >> 5) & 7, p=((action >> 8) & 3,))
    if kind == "interact":
        via, it, sub, *ps = act.interact_fields(action)
        return Act(kind, via=via, it=it, sub=sub, p=tuple(ps))
    if kind == "pursue":
        return Act(kind, p=((action >> 5) & 15, (action >> 9) & 15))
    if kind == "gadget":
        g, count, targets = act.gadget_fields(action)
        return Act(kind, value=g, p=(count, *(x for t in targets for x in (t[0], t[1], act.DELTAS[t[2]]))))
    if kind == "dice":
        code = act.value(action)
        pool: list[int] = []
        for face in range(1, 7):
            pool += [face] * ((code >> (4 * (face - 1))) & 15)
        return Act(kind, p=tuple(pool))
    return Act(kind, value=act.value(action))
