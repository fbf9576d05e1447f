"""The face of Tiberpunk for people: the catalogue, readable views, the SVG map, log lines and facts.

What a seat may see: everything on the table except the other players' face-down gadget cards (a
gadget returned by Recharge is face up and known), the order of the decks and the cards left in the
Stage I quest stacks under the face-up card. Dice are rolled in the open, and the revealed challenge
card is public. So a seat's description and picture are functions of its observation
(``TiberpunkGame.observation``); the spectator sees what every seat sees; the referee sees all hands.

The engine's state is read in one place, :func:`_read` (and the action decoding in :func:`_decode`,
the rules engine's queries through :func:`_rules`): a field renamed in ``state.py``, ``actions.py``
or ``rules.py`` is a fix there only. Everything else works on the plain snapshot (:class:`Pos`,
:class:`Seat`, :class:`Roll`, :class:`Act`).

Names and texts are in ``content/face.json`` (the rulebook's words where it prints them; the map
coordinates, colours and Stage II card texts are authored and marked so).
"""

from __future__ import annotations

import functools
import html
import json
import math
import textwrap
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import networkx as nx

from games.core.face import (
    REFEREE,
    SPECTATOR,
    Catalogue,
    ContentItem,
    Description,
    Fact,
    Row,
    Section,
    Viewer,
)
from games.errors import LictorError
from games.tiberpunk import actions as act
from games.tiberpunk import end
from games.tiberpunk.content import (
    ABILITY_KINDS,
    CONDITIONS,
    GADGETS,
    GODS,
    ITYPES,
    REWARDS,
    SITE_TASKS,
    SKILLS,
    TARGETS,
    TASKS,
    TEMPLATES,
    Content,
)
from games.tiberpunk.dice import contains, decode_pool, outcomes, p_attacker_wins, p_contains, score
from games.tiberpunk.state import (
    CHAR,
    COMBAT,
    DRONE,
    LICTOR,
    PH_CGADGET,
    PH_DRAFT,
    PH_LPLACE,
    PH_MAIN,
    PH_OVER,
    PH_PLACE,
    PH_PURSUE,
    PH_QGADGET,
    PH_REWARD,
    PH_ROLL,
    STAGE2_OBJ,
    Player,
    State,
)

if TYPE_CHECKING:
    from games.tiberpunk.game import TiberpunkGame
    from games.tiberpunk.rules import Rules

__all__ = ["catalogue", "describe", "explain", "log_line", "outcome_facts", "render"]

MINI_WORDS = ("character", "drone", "lictor")
REWARD_KINDS = (*REWARDS, "escape")  # the engine's pending reward kinds (R_SKILL .. R_ESCAPE)


# ---------------------------------------------------------------------------- texts (face.json)
@functools.cache
def _texts() -> dict[str, Any]:
    """The face's names and texts (``content/face.json``), read once."""
    data: dict[str, Any] = json.loads((Path(__file__).parent / "content" / "face.json").read_text("utf-8"))
    return data


def _colour(seat: int) -> tuple[str, str]:
    """(name, fill) of a seat's colour."""
    colours = _texts()["player_colours"]
    c = colours[seat % len(colours)]
    return str(c["name"]), str(c["fill"])


def seat_word(seat: int) -> str:
    """``"Seat 1 (Blue)"``."""
    return f"Seat {seat} ({_colour(seat)[0]})"


def _god(g: int) -> str:
    return str(_texts()["gods"][GODS[g]]["name"])


def _gadget(g: int) -> str:
    return str(_texts()["gadgets"][GADGETS[g]]["name"])


def _tile(cond: int) -> str:
    return str(_texts()["combat_tiles"][CONDITIONS[cond]]["name"])


def _task(kind: int) -> str:
    return str(_texts()["tasks"][TASKS[kind]]["name"])


def _and(words: Sequence[str], last: str = "and") -> str:
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + f" {last} " + words[-1]


def _plural(n: int, word: str, many: str = "") -> str:
    return f"{n} {word if n == 1 else many or word + 's'}"


def _dice(values: Sequence[int]) -> str:
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
    """A position as a viewer may see it (plain values; see :func:`_read`)."""

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
    winners: tuple[int, ...]  # who wins if the game ended now (rule: tiberpunk/end-of-game, end.py)
    players: tuple[Seat, ...] = field(default=())
    ended_by: str = ""  # how a finished game ended (end.ended_by)


def _rules(game: TiberpunkGame) -> Rules:
    """The rules engine the face asks for the turn order, distances and dice counts: ``current``,
    ``board`` (``dist``, ``neighbors``, ``diameter``), ``dice_count`` and the pack ``c``."""
    return game.rules


def _pack(game: TiberpunkGame) -> Content:
    return _rules(game).c


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


def _read(game: TiberpunkGame, state: State, viewer: Viewer = REFEREE) -> Pos:
    """The one place that reads the engine's state (a field rename is fixed here)."""
    r: Rules = _rules(game)
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


def _decode(action: int) -> Act:
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


# ---------------------------------------------------------------------------- the catalogue
def _reward_text(kind: int, skills_mask: int) -> str:
    t = _texts()["rewards"][REWARDS[kind]]
    return str(t).format(skills=_and([SKILLS[k] for k in range(3) if (skills_mask >> k) & 1], "or"))


def _stage2_text(c: Content, i: int) -> str:
    card = c.stage2[i]
    tpl = TEMPLATES[card.template]
    where = f" in district {c.district_ids[card.district]}" if card.district >= 0 else ""
    target = {
        "character": "a character",
        "drone": "a drone",
        "lictor": "a lictor",
        "any": "a character, a drone or a lictor",
    }
    text = str(_texts()["stage2_templates"][tpl]).format(
        district=c.district_ids[card.district] if card.district >= 0 else "",
        count=card.count,
        gadgets=_plural(card.count, "gadget card"),
        blessings=_plural(card.count, "blessing tile"),
        target=target[TARGETS[card.target]] if card.target >= 0 else "",
        where=where,
    )
    return text


def _district_items(game: TiberpunkGame) -> list[ContentItem]:
    """The districts of the map with their borders and structures (authored map)."""
    c = _pack(game)
    ids = c.district_ids
    items: list[ContentItem] = []
    for d, did in enumerate(ids):
        nbrs = [ids[x] for x in _rules(game).board.neighbors[d]]
        extras = []
        if d in c.hubs:
            extras.append("an upgrade hub")
        for g, pair in enumerate(c.temples):
            if d in pair:
                other = ids[pair[1] if pair[0] == d else pair[0]]
                extras.append(f"the Temple of {_god(g)} (on the border with {other})")
        for k, site in enumerate(c.sites):
            if site == d:
                extras.append(f"the site of '{_task(TASKS.index(SITE_TASKS[k]))}'")
        text = f"Borders {_and(nbrs)}." + (f" Holds {_and(extras)}." if extras else "")
        items.append(
            ContentItem(
                id=did,
                kind="district",
                name=c.district_names[d],
                text=text,
                values={
                    "neighbours": nbrs,
                    "upgrade hub": d in c.hubs,
                    "lictor at setup": d in c.lictor_start,
                },
                authored=c.authored,
            )
        )
    return items


def _component_items(c: Content) -> list[ContentItem]:
    """Miniatures, gods, gadgets, spaceship cards, interactions, combat tiles and ability tiles."""
    tx = _texts()
    ids = c.district_ids
    items: list[ContentItem] = []
    for m, word in enumerate(MINI_WORDS):
        rng = "1 district" if m == CHAR else "up to 2 districts"
        items.append(
            ContentItem(
                id=word,
                kind="miniature",
                name=word.capitalize(),
                text=f"Movement range: {rng}; +1 district per coin paid (rule: movement).",
                values={"range": 1 if m == CHAR else 2, "in the box": c.lictors_total if m == LICTOR else 4},
            )
        )
    for g, god in enumerate(GODS):
        t = tx["gods"][god]
        pair = c.temples[g]
        items.append(
            ContentItem(
                id=god,
                kind="god",
                name=str(t["name"]),
                text=f"Basic favor: {t['basic']} Blessed favor: {t['blessed']}",
                values={"temple": [ids[pair[0]], ids[pair[1]]], "blessing tiles": c.blessings_per_god},
            )
        )
    for g, name in enumerate(GADGETS):
        items.append(
            ContentItem(
                id=name,
                kind="gadget card",
                name=_gadget(g),
                text=str(tx["gadgets"][name]["text"]),
                values={"copies": c.gadget_deck.count(g)},
            )
        )
    for it in c.ship_types:
        items.append(
            ContentItem(
                id=ITYPES[it],
                kind="spaceship card",
                name=f"Spaceship card: {ITYPES[it]}",
                text=f"Discard it to perform a movement or the {ITYPES[it]} interaction; then place a "
                "lictor from the reserve. One per turn, not on the turn you take it.",
                values={"copies": c.ships_per_type},
            )
        )
    for word in ITYPES:
        items.append(
            ContentItem(
                id=word,
                kind="interaction",
                name=f"{word.capitalize()} interaction",
                text=str(tx["interactions"][word]["text"]),
            )
        )
    for cond in CONDITIONS:
        items.append(
            ContentItem(
                id=cond,
                kind="combat tile side",
                name=str(tx["combat_tiles"][cond]["name"]),
                text="Both sides roll; the side with more dice matching this condition wins the "
                "combat; on a tie the defender (or the lictor) wins.",
            )
        )
    for ab in c.abilities:
        items.append(
            ContentItem(
                id=ab.id,
                kind="ability tile",
                name=ab.name,
                text=str(tx["abilities"].get(ab.id, ABILITY_KINDS[ab.kind])),
                values={"level": ab.level},
            )
        )
    return items


def _card_items(c: Content) -> list[ContentItem]:
    """Quest cards (stages I-III), challenge cards and side objective cards (authored texts)."""
    tx = _texts()
    ids = c.district_ids
    items: list[ContentItem] = []
    for i, q in enumerate(c.stage1):
        who = str(tx["skills"][SKILLS[q.skill]]["miniatures"])
        items.append(
            ContentItem(
                id=str(q.id),
                kind="Stage I quest card",
                name=f"{SKILLS[q.skill].capitalize()} quest {q.id}",
                text=f"Quest marker in district {ids[q.district]}; your {who} there reveals a Stage I "
                f"challenge card and rolls {SKILLS[q.skill]} dice. Reward: 2 coins and "
                f"{_reward_text(0, q.reward)}.",
                values={"skill": SKILLS[q.skill], "district": ids[q.district]},
                authored=c.authored,
            )
        )
        items.append(
            ContentItem(
                id=str(q.id),
                kind="Stage II quest card",
                name=f"{SKILLS[q.skill].capitalize()} quest {q.id}, Stage II",
                text=f"{_stage2_text(c, i)} Reward: 2 coins and {_reward_text(0, c.stage2[i].reward)}.",
                values={"skill": SKILLS[q.skill], "template": TEMPLATES[c.stage2[i].template]},
                authored=c.authored,
            )
        )
        q3 = c.stage3[i]
        items.append(
            ContentItem(
                id=str(q.id),
                kind="Stage III quest card",
                name=f"{SKILLS[q.skill].capitalize()} quest {q.id}, Stage III",
                text=f"Your {who} in district {ids[q3.district]} reveals a Stage III challenge card. "
                f"Reward: 2 coins and {_reward_text(0, q3.reward)}.",
                values={"skill": SKILLS[q.skill], "district": ids[q3.district]},
                authored=c.authored,
            )
        )
    for stage, cards in ((1, c.challenges1), (3, c.challenges3)):
        for i, need in enumerate(cards):
            items.append(
                ContentItem(
                    id=str(i + 1),
                    kind=f"Stage {'I' if stage == 1 else 'III'} challenge card",
                    name=f"Roll {_dice(need)}",
                    text=f"The rolled dice must show {_dice(need)}.",
                    values={"values": list(need)},
                    authored=c.authored,
                )
            )
    for sc in c.side_cards:
        tasks = [
            f"{_task(t.kind)} ({_task_text(c, t.kind)}) — reward: {_reward_text(t.reward, t.skills)}"
            for t in sc.tasks
        ]
        items.append(
            ContentItem(
                id=sc.id,
                kind="side objective card",
                name=f"Side objective {sc.id}",
                text="; ".join(tasks) + ".",
                values={"players": sc.players, "tasks": [TASKS[t.kind] for t in sc.tasks]},
                authored=c.authored,
            )
        )
    return items


def catalogue(game: TiberpunkGame) -> Catalogue:
    """Every component a person sees, with names and rules texts; authored items marked.

    rule: tiberpunk/general-setup (the components), tiberpunk/gadget-cards, tiberpunk/divine-favor
    """
    c = _pack(game)
    items = [*_district_items(game), *_component_items(c), *_card_items(c)]
    return Catalogue(
        game="tiberpunk",
        version=c.version,
        items=tuple(items),
        notes="The rulebook prints no map and no card texts: the districts, quest cards, challenge "
        "cards, side objective cards and the map drawing are authored in games/tiberpunk/content/ "
        "(see docs/tiberpunk.md); gadget, favor, task and ability texts are the rulebook's.",
    )


def _task_text(c: Content, kind: int) -> str:
    name = TASKS[kind]
    district = c.district_ids[c.sites[SITE_TASKS.index(name)]] if name in SITE_TASKS else ""
    return str(_texts()["tasks"][name]["text"]).format(district=district).rstrip(".")


# ---------------------------------------------------------------------------- describe
_PHASE_STEP = {
    PH_DRAFT: "choose an ability tile",
    PH_PLACE: "first turn: place the character and the drone together in a district without a quest marker",
    PH_ROLL: "the dice are rolled",
    PH_QGADGET: "the quest roll failed so far: play a gadget card or stop",
    PH_PURSUE: "the quest roll failed: the player to the left moves the nearest lictor one district",
    PH_CGADGET: "the losing side of the combat may play a gadget card or stop",
    PH_REWARD: "choose a reward",
    PH_LPLACE: "place a lictor from the reserve (after a spaceship card)",
}


def _district(c: Content, d: int, *, long: bool = False) -> str:
    if d < 0:
        return "not placed"
    return f"{c.district_ids[d]} ({c.district_names[d]})" if long else c.district_ids[d]


def _step(game: TiberpunkGame, pos: Pos) -> str:
    c = _pack(game)
    if pos.phase == PH_OVER:
        win = pos.winners
        tokens = pos.players[win[0]].total
        tied = sum(1 for p in pos.players if p.total == tokens) > 1
        if len(win) == 1:
            coins = f" and {_plural(pos.players[win[0]].coins, 'coin')} (the tie-break)" if tied else ""
            return f"game over: {seat_word(win[0])} wins with {tokens} triumph tokens{coins}"
        return (
            f"game over: {_and([seat_word(w) for w in win])} share the victory with {tokens} triumph tokens"
        )
    if pos.phase == PH_MAIN:
        done = []
        done.append("interaction token played" if pos.token_played else "an interaction token still to play")
        done.append(f"{_plural(pos.moves, 'movement action')} used")
        if pos.favor_changed:
            done.append("divine favor changed")
        if pos.ship_played:
            done.append("spaceship card played")
        lead = "change divine favor, move, play an interaction token"
        if pos.token_played:
            lead = "move, play a spaceship card or end the turn"
        return f"{lead} ({'; '.join(done)})"
    if pos.phase == PH_ROLL and pos.roll is not None:
        ra, rd = pos.roll.to_roll
        who = pos.seat if ra else (pos.roll.defender if pos.roll.target != LICTOR else -1)
        whose = seat_word(who) if who >= 0 else "the lictor"
        return f"the dice are rolled: {whose} rolls {_plural(ra or rd, 'die', 'dice')}"
    if pos.phase == PH_REWARD and pos.rewards:
        _seat, kind, _param = pos.rewards[0]
        what = {
            "skill": "a skill to upgrade",
            "boost": "the boost slot (character or drone)",
            "spaceship": "the spaceship stack to take a card from",
            "escape": "the district the last lictor moves to",
        }.get(REWARD_KINDS[kind], "the reward")
        return f"choose {what}"
    if pos.phase == PH_LPLACE:
        reserve = _plural(c.lictors_total - len(pos.lictors), "lictor")
        return f"{_PHASE_STEP[PH_LPLACE]}: {reserve} in the reserve"
    if pos.phase in (PH_QGADGET, PH_CGADGET) and pos.roll is not None:
        return f"{_PHASE_STEP[pos.phase]}; {_pools_key(pos.roll, pos.seat)}"
    return _PHASE_STEP.get(pos.phase, "")


def _pools_key(roll: Roll, seat: int) -> str:
    """How a gadget move names the dice (rule: tiberpunk/gadget-cards): ``A`` the quester's or
    attacker's pool, ``D`` the defender's or the lictor's; ``flip A2`` turns a 2 of pool A."""
    if not roll.combat:
        return f"A = Seat {seat}'s dice {_dice(roll.a)} (needs {_dice(roll.need)}); 'flip A2' turns its 2"
    defender = "the lictor" if roll.target == LICTOR else f"Seat {roll.defender}"
    return (
        f"A = Seat {seat}'s dice {_dice(roll.a)}, D = {defender}'s dice {_dice(roll.d)}; "
        "'rotate1 D5-1' turns a 5 of D into a 4"
    )


def _headline(pos: Pos) -> str:
    if pos.phase == PH_OVER:
        how = f": {pos.ended_by}" if pos.ended_by else ""
        return f"Tiberpunk, round {pos.rnd}: the game is over{how}"
    if pos.decider == -1:
        to = "the dice decide"
    else:
        to = f"{seat_word(pos.decider)} to decide"
        if pos.decider != pos.seat:
            to += f" ({seat_word(pos.seat)}'s turn)"
    last = " (last round: the end is triggered)" if pos.end else ""
    return f"Tiberpunk, round {pos.rnd}{last}: {to}"


def _pieces_in(c: Content, pos: Pos, d: int) -> list[str]:
    out = []
    for p in pos.players:
        colour = _colour(p.seat)[0]
        for m, where in ((CHAR, p.char), (DRONE, p.drone)):
            if where == d:
                marks = [w for w, on in (("shackled", p.shackled[m]), ("boosted", p.boosted[m])) if on]
                out.append(f"{colour} {MINI_WORDS[m]}" + (f" ({', '.join(marks)})" if marks else ""))
    k = pos.lictors.count(d)
    if k:
        out.append(_plural(k, "lictor"))
    for skill, (card, _n) in enumerate(pos.quests):
        if card >= 0 and c.stage1[card].district == d:
            out.append(f"{SKILLS[skill]} quest marker (card {c.stage1[card].id})")
    return out


def _roll_lines(c: Content, pos: Pos) -> list[Row]:
    roll = pos.roll
    if roll is None:
        return []
    ids = c.district_ids
    rows = []
    if roll.combat:
        target = (
            "a lictor" if roll.target == LICTOR else f"{seat_word(roll.defender)}'s {MINI_WORDS[roll.target]}"
        )
        rows.append(
            Row(
                label="Combat",
                value=f"{seat_word(pos.seat)}'s {MINI_WORDS[roll.mini]} attacks {target} "
                f"in {ids[roll.where]} for {_objective_name(c, pos, roll.objective)}; "
                f"tile: {_tile(roll.tile)}",
            )
        )
        rows.append(
            Row(label="Attacker's dice", value=f"{_dice(roll.a)} ({score(roll.tile, roll.a)} matching)")
        )
        who = "Lictor's dice" if roll.target == LICTOR else "Defender's dice"
        rows.append(Row(label=who, value=f"{_dice(roll.d)} ({score(roll.tile, roll.d)} matching)"))
    else:
        stage = "I" if roll.stage == 1 else "III"
        rows.append(
            Row(
                label="Quest roll",
                value=f"{seat_word(pos.seat)}'s {MINI_WORDS[roll.mini]}, Stage {stage} {SKILLS[roll.skill]} "
                f"quest in {ids[roll.where]}: the challenge needs {_dice(roll.need)}",
            )
        )
        ok = contains(roll.a, roll.need) if roll.a else False
        rows.append(Row(label="Dice", value=f"{_dice(roll.a)}" + (" (shows the challenge)" if ok else "")))
    pending = sum(roll.to_roll)
    if pending:
        rows.append(Row(label="Dice to roll", value=str(pending)))
    used = sum(roll.gadgets_used)
    if used:
        rows.append(Row(label="Gadgets played on this roll", value=str(used)))
    return rows


def _objective_name(c: Content, pos: Pos, obj: int) -> str:
    if obj == STAGE2_OBJ:
        return "the Stage II offense quest"
    slot, ti = divmod(obj, 3)
    card = c.side_cards[pos.side_cards[slot]]
    return f"'{_task(card.tasks[ti].kind)}' (side objective {card.id})"


def _hand_text(hand: Sequence[int | None]) -> str:
    """``"Reroll ×2, Flip, 1 face-down card"``."""
    seen = [_gadget(g) for g in hand if g is not None]
    counts = {name: seen.count(name) for name in seen}
    hidden = sum(1 for g in hand if g is None)
    parts = [name if n == 1 else f"{name} ×{n}" for name, n in counts.items()]
    parts += [_plural(hidden, "face-down card")] if hidden else []
    return ", ".join(parts) if parts else "none"


def _token_name(mask: int) -> str:
    return "/".join(ITYPES[i] for i in range(4) if (mask >> i) & 1)


def _player_section(game: TiberpunkGame, pos: Pos, p: Seat, viewer: Viewer) -> Section:
    c = _pack(game)
    colour = _colour(p.seat)[0]
    objs = [SKILLS[k] for k in range(3)] + [f"side {c.side_cards[i].id}" for i in pos.side_cards]
    tri = ", ".join(f"{name} {k}" for name, k in zip(objs, p.triumphs, strict=False) if k)
    rows = [
        Row(label="Coins", value=str(p.coins), seat=p.seat),
        Row(
            label="Triumph tokens",
            value=f"{p.total} of {c.end_tokens} placed" + (f" ({tri})" if tri else ""),
            seat=p.seat,
        ),
        Row(
            label="Skills",
            value=", ".join(f"{SKILLS[k]} {_plural(p.dice[k], 'die', 'dice')}" for k in range(3)),
            seat=p.seat,
        ),
    ]
    favor = "centre (none yet)" if p.favor < 0 else _god(p.favor)
    bless = _and([_god(g) for g in p.blessings]) or "none"
    rows.append(Row(label="Divine favor", value=f"{favor}; blessings: {bless}", seat=p.seat))
    infl = [f"Temple of {_god(g)}" for g in p.temples] + [f"hub {c.district_ids[d]}" for d in p.hubs]
    placed = len(infl)
    rows.append(
        Row(
            label="Influence",
            value=(", ".join(infl) if infl else "none on the board")
            + f"; income {c.income[min(placed, len(c.income) - 1)]} coins",
            seat=p.seat,
        )
    )
    label = "Gadgets (your hand)" if viewer == p.seat else "Gadgets"
    rows.append(Row(label=label, value=_hand_text(p.hand), seat=p.seat))
    ships = [f"{ITYPES[c.ship_types[k]]} {n}" for k, n in enumerate(p.ships) if n]
    rows.append(Row(label="Spaceship cards", value=", ".join(ships) or "none", seat=p.seat))
    rows.append(
        Row(
            label="Interaction tokens",
            value=f"available: {', '.join(_token_name(t) for t in p.tokens) or 'none'}; "
            f"on the wheel: {', '.join(_token_name(t) for t in p.wheel) or 'none'}",
            seat=p.seat,
        )
    )
    story = []
    for k in range(3):
        st = p.story[k]
        if st == 0:
            continue
        card = p.cards[k]
        num = c.stage1[card].id if card >= 0 else "?"
        if st == 1:
            story.append(f"{SKILLS[k]}: Stage II card {num}")
        elif st == 2:
            story.append(f"{SKILLS[k]}: Stage III card {num} (in {c.district_ids[c.stage3[card].district]})")
        else:
            story.append(f"{SKILLS[k]}: complete")
    rows.append(Row(label="Storylines", value="; ".join(story) or "none started", seat=p.seat))
    where = f"character {_district(c, p.char)}, drone {_district(c, p.drone)}"
    rows.append(Row(label="Miniatures", value=where, seat=p.seat))
    if p.ability >= 0:
        ab = c.abilities[p.ability]
        extra = f" (used {p.reboots} of {len(ab.costs)})" if ab.costs else ""
        rows.append(Row(label="Ability", value=ab.name + extra, seat=p.seat))
    title = f"{seat_word(p.seat)}" + (" — you" if viewer == p.seat else "")
    del colour
    return Section(title=title, rows=tuple(rows), seat=p.seat)


def describe(game: TiberpunkGame, state: State, viewer: Viewer = REFEREE) -> Description:
    """What ``viewer`` may see, in the rulebook's words (rule: tiberpunk/game-overview).

    A seat sees its own gadget cards and the others' only as a count (plus any returned face up by
    Recharge); the spectator sees no hand; the referee sees every hand. The first sections (the
    board, the dice, one line per player) fit an 80x24 terminal; the details follow.
    """
    c = _pack(game)
    pos = _read(game, state, viewer)
    board_rows = []
    for d in range(len(c.district_ids)):
        pieces = _pieces_in(c, pos, d)
        if pieces:
            board_rows.append(Row(label=_district(c, d, long=True), value=", ".join(pieces)))
    board_rows.append(Row(label="Lictor reserve", value=str(c.lictors_total - len(pos.lictors))))
    sections = [Section(title="Rome", rows=tuple(board_rows))]
    roll = _roll_lines(c, pos)
    if roll:
        sections.append(Section(title="Dice (public)", rows=tuple(roll)))
    order = list(range(pos.n))
    if 0 <= viewer < pos.n:
        order = [viewer, *[i for i in order if i != viewer]]
    sections.append(
        Section(title="Players", rows=tuple(_player_row(pos, pos.players[i], viewer) for i in order))
    )
    sections.append(_structures_section(c, pos))
    sections.append(_supply_section(c, pos))
    sections += [_player_section(game, pos, pos.players[i], viewer) for i in order]
    if pos.phase == PH_DRAFT and pos.draft:
        sections.append(
            Section(
                title="Ability tiles to choose", lines=(", ".join(c.abilities[a].name for a in pos.draft),)
            )
        )
    return Description(
        game="tiberpunk",
        viewer=viewer,
        headline=_headline(pos),
        step=_step(game, pos),
        sections=tuple(sections),
    )


def _player_row(pos: Pos, p: Seat, viewer: Viewer) -> Row:
    """One line per player: tokens, coins, gadgets, favor (the compact overview)."""
    label = seat_word(p.seat) + (" — you" if viewer == p.seat else "")
    if p.seat == pos.seat and pos.phase != PH_OVER:
        label += " ▶"
    favor = "no favor yet" if p.favor < 0 else f"favor {_god(p.favor)}"
    value = (
        f"{_plural(p.total, 'triumph token')}, {_plural(p.coins, 'coin')}, "
        f"{_plural(len(p.hand), 'gadget')}, {favor}"
    )
    return Row(label=label, value=value, seat=p.seat)


def _structures_section(c: Content, pos: Pos) -> Section:
    """The temples (blessings left, influence) and the upgrade hubs (influence)."""
    rows = []
    for g, pair in enumerate(c.temples):
        owners = [_colour(p.seat)[0] for p in pos.players if g in p.temples]
        rows.append(
            Row(
                label=f"Temple of {_god(g)} ({c.district_ids[pair[0]]}|{c.district_ids[pair[1]]})",
                value=f"{_plural(pos.bless_left[g], 'blessing tile')} left; "
                f"influence: {', '.join(owners) or 'none'}",
            )
        )
    hubs = []
    for d in c.hubs:
        owners = [_colour(p.seat)[0] for p in pos.players if d in p.hubs]
        hubs.append(f"{c.district_ids[d]}: {', '.join(owners) or 'none'}")
    rows.append(Row(label="Upgrade hubs (influence)", value="; ".join(hubs)))
    return Section(title="Temples and upgrade hubs", rows=tuple(rows))


def _supply_section(c: Content, pos: Pos) -> Section:
    """Quest stacks, spaceship stacks, decks and discard piles, combat tiles, side objectives."""
    supply = []
    quests = []
    for k, (card, n) in enumerate(pos.quests):
        if card >= 0:
            q = c.stage1[card]
            who = str(_texts()["skills"][SKILLS[q.skill]]["miniatures"])
            quests.append(
                f"{SKILLS[k]} card {q.id} in {c.district_ids[q.district]} (your {who}; reward: 2 coins and "
                f"{_reward_text(0, q.reward)}; {_plural(n, 'card')} in the stack)"
            )
        else:
            quests.append(f"{SKILLS[k]}: stack empty")
    supply.append(Row(label="Stage I quests", value="; ".join(quests)))
    stacks = []
    for k, n in enumerate(pos.ship_stacks):
        lock = " (locked)" if k == pos.lock else ""
        stacks.append(f"{ITYPES[c.ship_types[k]]} {n}{lock}")
    supply.append(Row(label="Spaceship stacks", value=", ".join(stacks)))
    disc = _hand_text(pos.gadget_discard) if pos.gadget_discard else "empty"
    supply.append(Row(label="Gadget deck", value=f"{_plural(pos.gadget_deck, 'card')}; discard pile: {disc}"))
    last = [
        f"Stage {'I' if i == 0 else 'III'} deck {pos.challenge_decks[i]}"
        + (f" (last revealed: {_dice(need)})" if need else "")
        for i, need in enumerate(pos.last_challenges)
    ]
    supply.append(Row(label="Challenge cards", value="; ".join(last)))
    supply.append(Row(label="Combat tiles", value="; ".join(_tile(t) for t in pos.tiles)))
    side = []
    for i in pos.side_cards:
        side_card = c.side_cards[i]
        side.append(f"{side_card.id}: " + ", ".join(_task(t.kind) for t in side_card.tasks))
    supply.append(Row(label="Side objectives", value="; ".join(side)))
    return Section(title="Supply and objectives", rows=tuple(supply))


# ---------------------------------------------------------------------------- render (SVG)
W, H = 1240, 832
MAP_X0, MAP_Y0, MAP_W, MAP_H = 40, 82, 700, 700
STEP_CHARS = 150
"""Characters of the step's text on one line of the picture (13 px: 1,170 px of the 1,240)."""
R_DISTRICT = 54


@functools.cache
def _layout(ids: tuple[str, ...], edges: tuple[tuple[int, int], ...]) -> tuple[tuple[float, float], ...]:
    """Pixel centres of the districts: ``face.json``'s map, else a seeded networkx layout (once)."""
    fixed = _texts()["map"]
    coords: dict[int, tuple[float, float]] = {}
    for i, did in enumerate(ids):
        xy = fixed.get(did)
        if isinstance(xy, list) and len(xy) == 2:
            coords[i] = (float(xy[0]), float(xy[1]))
    if len(coords) < len(ids):
        g = nx.Graph()
        g.add_nodes_from(range(len(ids)))
        g.add_edges_from(edges)
        pos = nx.spring_layout(
            g,
            seed=7,
            pos={k: ((v[0] - 50) / 50, (v[1] - 50) / 50) for k, v in coords.items()} or None,
            fixed=list(coords) or None,
        )
        for i in range(len(ids)):
            if i not in coords:
                x, y = pos[i]
                coords[i] = (50 + 45 * float(x), 50 + 45 * float(y))
    return tuple(
        (MAP_X0 + 50 + coords[i][0] / 100 * (MAP_W - 100), MAP_Y0 + 50 + coords[i][1] / 100 * (MAP_H - 100))
        for i in range(len(ids))
    )


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _text(
    x: float,
    y: float,
    text: str,
    *,
    size: int = 13,
    anchor: str = "start",
    weight: str = "normal",
    fill: str = "#222",
    halo: bool = False,
) -> str:
    ring = ' stroke="#fffaf0" stroke-width="3" paint-order="stroke"' if halo else ""
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" '
        f'font-weight="{weight}" fill="{fill}"{ring}>{_e(text)}</text>'
    )


def _shade(colour: str, black: float = 0.4) -> str:
    """``colour`` mixed with ``black`` parts of black: a label in a colour that must read on the board."""
    rgb = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(c * (1 - black)):02x}" for c in rgb)


def _fitted(x: float, y: float, text: str, width: float, *, size: int = 12, weight: str = "normal") -> str:
    """``text`` at ``size``, smaller when it would run past ``width`` pixels: never cut (0.6 em a
    character, 0.66 bold)."""
    em = 0.66 if weight == "bold" else 0.6
    fits = min(float(size), width / max(1.0, em * len(text)))
    return _text(x, y, text, size=max(7, int(fits)), weight=weight)


def _character(x: float, y: float, fill: str, shackled: bool) -> str:
    ring = (
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="12" fill="none" stroke="#111" stroke-width="3" '
        'stroke-dasharray="3,2"/>'
        if shackled
        else ""
    )
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="9" fill="{fill}" stroke="#111" stroke-width="2"/>{ring}'


def _drone(x: float, y: float, fill: str, shackled: bool) -> str:
    pts = f"{x:.1f},{y - 11:.1f} {x + 11:.1f},{y:.1f} {x:.1f},{y + 11:.1f} {x - 11:.1f},{y:.1f}"
    ring = (
        f'<rect x="{x - 13:.1f}" y="{y - 13:.1f}" width="26" height="26" fill="none" stroke="#111" '
        'stroke-width="3" stroke-dasharray="3,2"/>'
        if shackled
        else ""
    )
    return f'<polygon points="{pts}" fill="{fill}" stroke="#111" stroke-width="2"/>{ring}'


def _lictor(x: float, y: float) -> str:
    corners = ((-9, -10), (9, -10), (9, 2), (0, 11), (-9, 2))
    pts = " ".join(f"{x + dx:.1f},{y + dy:.1f}" for dx, dy in corners)
    return f'<polygon points="{pts}" fill="#222" stroke="#e74c3c" stroke-width="2"/>'


def _quest_marker(x: float, y: float, fill: str) -> str:
    pts = []
    for i in range(10):
        r = 11 if i % 2 == 0 else 4.5
        a = math.pi / 2 + i * math.pi / 5
        pts.append(f"{x + r * math.cos(a):.1f},{y - r * math.sin(a):.1f}")
    return f'<polygon points="{" ".join(pts)}" fill="{fill}" stroke="#111" stroke-width="2"/>'


def _temple(x: float, y: float, fill: str) -> str:
    return (
        f'<g><polygon points="{x - 13:.1f},{y - 4:.1f} {x:.1f},{y - 14:.1f} {x + 13:.1f},{y - 4:.1f}" '
        f'fill="{fill}" stroke="#333" stroke-width="2"/>'
        f'<rect x="{x - 11:.1f}" y="{y - 4:.1f}" width="22" height="13" fill="#fdfaf0" '
        'stroke="#333" stroke-width="2"/>'
        f'<line x1="{x - 4:.1f}" y1="{y - 4:.1f}" x2="{x - 4:.1f}" y2="{y + 9:.1f}" '
        f'stroke="{fill}" stroke-width="2"/>'
        f'<line x1="{x + 4:.1f}" y1="{y - 4:.1f}" x2="{x + 4:.1f}" y2="{y + 9:.1f}" '
        f'stroke="{fill}" stroke-width="2"/></g>'
    )


def _die(x: float, y: float, value: int, needed: bool) -> str:
    """A die showing ``value`` (gold when it shows a value the challenge needs)."""
    fill = "#f5d76e" if needed else "#ffffff"
    return (
        f'<rect x="{x - 10:.1f}" y="{y - 10:.1f}" width="20" height="20" rx="4" fill="{fill}" '
        'stroke="#333" stroke-width="2"/>'
        + _text(x, y + 5, str(value), size=13, anchor="middle", weight="bold")
    )


def _boost(x: float, y: float) -> str:
    """The boost marker on a miniature's base (+1 die)."""
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="6" fill="#fff" stroke="#111" stroke-width="2"/>' + _text(
        x, y + 4, "+", size=11, anchor="middle", weight="bold"
    )


def _hub(x: float, y: float) -> str:
    pts = " ".join(
        f"{x + 10 * math.cos(t):.1f},{y + 10 * math.sin(t):.1f}"
        for t in (math.pi / 6 + i * math.pi / 3 for i in range(6))
    )
    return (
        f'<polygon points="{pts}" fill="#ecf0f1" stroke="#555" stroke-width="2"/>'
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="#555"/>'
    )


def _influence(x: float, y: float, fill: str) -> str:
    return (
        f'<rect x="{x - 4:.1f}" y="{y - 4:.1f}" width="8" height="8" fill="{fill}" '
        'stroke="#111" stroke-width="2"/>'
    )


def render(game: TiberpunkGame, state: State, viewer: Viewer = REFEREE) -> str:
    """The district graph of Rome with every miniature, marker and temple, a legend and each
    player's public holdings (the viewer's own hand named), as an SVG document.

    rule: tiberpunk/movement (the districts and their borders), tiberpunk/structure-interaction
    """
    c = _pack(game)
    pos = _read(game, state, viewer)
    xy = _layout(c.district_ids, c.edges)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" '
        'font-family="DejaVu Sans, Verdana, sans-serif">',
        f'<rect width="{W}" height="{H}" fill="#f6f1e4"/>',
        _fitted(20, 30, _headline(pos), W - 40, size=18, weight="bold"),
        *(
            _text(20, 50 + 16 * i, line, size=13, fill="#444")
            for i, line in enumerate(textwrap.wrap(_step(game, pos), STEP_CHARS)[:2])
        ),
        f'<rect x="{MAP_X0}" y="{MAP_Y0}" width="{MAP_W}" height="{MAP_H}" rx="14" '
        'fill="#e9dfc7" stroke="#7a6a48"/>',
    ]
    out += _map_static(c, pos, xy)
    out += _map_pieces(c, pos, xy)
    out += _legend(c)
    out += _panel(game, pos, viewer)
    out.append("</svg>")
    return "\n".join(out)


def _map_static(c: Content, pos: Pos, xy: Sequence[tuple[float, float]]) -> list[str]:
    """The districts and their borders, the upgrade hubs and temples with influence markers."""
    tx = _texts()
    out: list[str] = []
    for a, b in c.edges:
        (x1, y1), (x2, y2) = xy[a], xy[b]
        out.append(
            f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
            'stroke="#9c8a64" stroke-width="6" stroke-linecap="round"/>'
        )
    for d, (x, y) in enumerate(xy):
        out.append(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{R_DISTRICT}" fill="#fffaf0" '
            'stroke="#7a6a48" stroke-width="2.5"/>'
        )
        out.append(
            _text(x, y - 28, c.district_ids[d], size=17, anchor="middle", weight="bold", fill="#5a4a2a")
        )
        out.append(_text(x, y - 13, c.district_names[d], size=10, anchor="middle", fill="#5a4a2a"))
        if d in c.hubs:
            hx, hy = x + 40, y - 38
            out.append(_hub(hx, hy))
            owners = [p for p in pos.players if d in p.hubs]
            for j, p in enumerate(owners):
                out.append(_influence(hx + 15 + 9 * j, hy, _colour(p.seat)[1]))
    for g, (a, b) in enumerate(c.temples):
        (x1, y1), (x2, y2) = xy[a], xy[b]
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        fill = str(tx["gods"][GODS[g]]["colour"])
        out.append(_temple(mx, my, fill))
        out.append(_text(mx + 16, my + 4, _god(g), size=11, weight="bold", fill=_shade(fill), halo=True))
        owners = [p for p in pos.players if g in p.temples]
        for j, p in enumerate(owners):
            out.append(_influence(mx - 9 + 9 * j, my + 17, _colour(p.seat)[1]))
    return out


def _map_pieces(c: Content, pos: Pos, xy: Sequence[tuple[float, float]]) -> list[str]:
    """Characters, drones, lictors and quest markers: rows of icons inside each district."""
    tx = _texts()
    out: list[str] = []
    for d, (x, y) in enumerate(xy):
        icons: list[str] = []
        for p in pos.players:
            fill = _colour(p.seat)[1]
            if p.char == d:
                icons.append("c" + fill + ("!" if p.shackled[0] else "") + ("+" if p.boosted[0] else ""))
            if p.drone == d:
                icons.append("d" + fill + ("!" if p.shackled[1] else "") + ("+" if p.boosted[1] else ""))
        lictors = pos.lictors.count(d)
        if lictors:
            icons.append(f"l{lictors}")  # one icon with the number of lictors
        for k, (card, _n) in enumerate(pos.quests):
            if card >= 0 and c.stage1[card].district == d:
                icons.append("q" + str(tx["skills"][SKILLS[k]]["colour"]))
        counts: list[str] = []  # drawn last, over the icons
        per_row = 4 if len(icons) <= 8 else 5
        step = 24 if len(icons) <= 8 else 19
        for j, icon in enumerate(icons):
            row, col = divmod(j, per_row)
            in_row = min(per_row, len(icons) - row * per_row)
            px = x + (col - (in_row - 1) / 2) * step
            py = y + 12 + row * step
            kind, rest = icon[0], icon[1:]
            shackled = "!" in rest
            fill = rest.rstrip("!+")
            if kind == "c":
                out.append(_character(px, py, fill, shackled))
            elif kind == "d":
                out.append(_drone(px, py, fill, shackled))
            elif kind == "l":
                out.append(_lictor(px, py))
                if rest != "1":
                    counts.append(_text(px + 8, py + 14, f"×{rest}", size=11, weight="bold", halo=True))
            else:
                out.append(_quest_marker(px, py, fill))
            if "+" in rest:
                out.append(_boost(px + 9, py - 10))
        out += counts
    return out


def _legend(c: Content) -> list[str]:
    """What each icon means (bottom right)."""
    tx = _texts()
    x0, y0 = MAP_X0 + MAP_W + 34, H - 114
    out = [
        f'<rect x="{x0 - 14}" y="{y0 - 30}" width="{W - x0 - 6}" height="138" rx="8" fill="#fffaf0" '
        'stroke="#7a6a48"/>',
        _text(x0 - 4, y0 - 12, "Legend", size=12, weight="bold"),
    ]
    grey = "#888"
    columns: list[list[tuple[Any, str]]] = [
        [
            (lambda x, y: _character(x, y, grey, False), "character"),
            (lambda x, y: _drone(x, y, grey, False), "drone"),
            (_lictor, "lictor"),
            (lambda x, y: _character(x, y, grey, True), "shackled"),
            (lambda x, y: _character(x, y, grey, False) + _boost(x + 10, y - 2), "boosted"),
        ],
        [
            *(
                (
                    lambda x, y, k=k: _quest_marker(x, y, str(tx["skills"][SKILLS[k]]["colour"])),
                    f"{SKILLS[k]} quest",
                )
                for k in range(3)
            ),
            (_hub, "upgrade hub"),
        ],
        [
            (lambda x, y: _temple(x, y, "#777"), "temple"),
            (lambda x, y: _influence(x, y, "#777"), "influence marker"),
            (lambda x, y: _die(x, y, 5, False), "die"),
            (lambda x, y: _die(x, y, 5, True), "needed value"),
        ],
    ]
    for col, entries in enumerate(columns):
        x = x0 + 8 + col * 130
        for row, (draw, label) in enumerate(entries):
            y = y0 + 6 + 21 * row
            out.append(draw(x, y))
            out.append(_text(x + 16, y + 5, label, size=12))
    del c
    return out


def _player_card(pos: Pos, p: Seat, viewer: Viewer, x0: float, y: float) -> list[str]:
    """One player's public holdings (the viewer's own gadgets named), framed in the seat's colour."""
    name, fill = _colour(p.seat)
    h = 112
    deciding = p.seat == (pos.decider if pos.decider >= 0 else pos.seat) and pos.phase != PH_OVER
    out = [
        f'<rect x="{x0}" y="{y - 4}" width="{W - x0 - 20}" height="{h}" rx="8" fill="#fffaf0" '
        f'stroke="{fill}" stroke-width="{4 if deciding else 1.5}"/>',
        f'<rect x="{x0}" y="{y - 4}" width="12" height="{h}" rx="4" fill="{fill}"/>',
    ]
    title = (
        f"Seat {p.seat} ({name})"
        + ("  — you" if viewer == p.seat else "")
        + ("  ▶ to decide" if deciding else "")
    )
    out.append(_text(x0 + 22, y + 13, title, size=15, weight="bold"))
    tokens = f"{_plural(p.total, 'triumph token')} · {_plural(p.coins, 'coin')} · "
    tokens += _plural(sum(p.ships), "spaceship card")
    out.append(_text(x0 + 22, y + 32, tokens, size=13))
    dice = "dice: " + ", ".join(f"{SKILLS[k]} {p.dice[k]}" for k in range(3))
    out.append(_text(x0 + 22, y + 49, dice, size=12))
    favor = "favor: " + ("none yet" if p.favor < 0 else _god(p.favor))
    if p.blessings:
        favor += " · blessed by " + ", ".join(_god(g) for g in p.blessings)
    out.append(_fitted(x0 + 22, y + 66, favor, W - x0 - 50))
    room = W - x0 - 20 - 30
    out.append(_fitted(x0 + 22, y + 83, f"gadgets: {_hand_text(p.hand)}", room))
    story = ", ".join(
        f"{SKILLS[k]} {('', 'Stage II', 'Stage III', 'done')[min(p.story[k], 3)]}"
        for k in range(3)
        if p.story[k]
    )
    out.append(_fitted(x0 + 22, y + 100, f"storylines: {story or 'none'}", room))
    return out


def _panel(game: TiberpunkGame, pos: Pos, viewer: Viewer) -> list[str]:
    c = _pack(game)
    x0 = MAP_X0 + MAP_W + 20
    y = MAP_Y0 + 6
    out: list[str] = []
    for p in pos.players:
        out += _player_card(pos, p, viewer, x0, y)
        if p.ability >= 0:
            out.append(_text(W - 30, y + 13, c.abilities[p.ability].name, size=12, anchor="end", fill="#555"))
        y += 120
    if pos.phase == PH_DRAFT and pos.draft:
        out.append(_text(x0, y + 14, "Ability tiles to choose", size=15, weight="bold"))
        names = [c.abilities[a].name for a in pos.draft]
        for row in range(0, len(names), 4):
            out.append(_text(x0, y + 34 + 9 * row // 2, ", ".join(names[row : row + 4]), size=12))
        y += 80
    roll = pos.roll
    if roll is not None:
        out.append(_text(x0, y + 14, "Dice on the table", size=15, weight="bold"))
        if roll.combat:
            out.append(
                _text(x0, y + 34, f"Combat on '{_tile(roll.tile)}' in {c.district_ids[roll.where]}", size=12)
            )
            who = "lictor" if roll.target == LICTOR else f"Seat {roll.defender}"
            for row, (name, pool) in enumerate(((f"Seat {pos.seat}", roll.a), (who, roll.d))):
                yy = y + 56 + 24 * row
                out.append(_text(x0, yy + 4, f"{name}: {score(roll.tile, pool)} matching", size=12))
                out += [_die(x0 + 150 + 24 * i, yy, v, False) for i, v in enumerate(pool)]
        else:
            out.append(
                _text(
                    x0,
                    y + 34,
                    f"Seat {pos.seat}'s {MINI_WORDS[roll.mini]}, Stage {'I' if roll.stage == 1 else 'III'} "
                    f"{SKILLS[roll.skill]} quest in {c.district_ids[roll.where]}: needs {_dice(roll.need)}",
                    size=12,
                )
            )
            out.append(_text(x0, y + 58, "rolled:", size=12))
            left = list(roll.need)
            for i, v in enumerate(roll.a):
                hit = v in left
                if hit:
                    left.remove(v)
                out.append(_die(x0 + 70 + 26 * i, y + 54, v, hit))
        y += 96
    else:
        last = [
            f"Stage {'I' if i == 0 else 'III'}: {_dice(need)}"
            for i, need in enumerate(pos.last_challenges)
            if need
        ]
        if last:
            out.append(_text(x0, y + 14, "Last challenge cards: " + "; ".join(last), size=12))
            y += 24
    supply = f"lictor reserve: {c.lictors_total - len(pos.lictors)} · gadget deck: {pos.gadget_deck}"
    out.append(_text(W - 30, H - 126, supply, size=12, anchor="end", fill="#444"))
    del y
    return out


# ---------------------------------------------------------------------------- log lines
def _apply(game: TiberpunkGame, state: State, action: int) -> State | None:
    try:
        return game.apply_trusted(state, action)
    except (LictorError, IndexError, ValueError, KeyError, AssertionError):
        return None


def log_line(game: TiberpunkGame, state: State, action: int, viewer: Viewer = SPECTATOR) -> str:
    """One sentence for ``action`` played in ``state``, as an online table writes its log.

    A gadget drawn face down is named only to its holder and the referee; dice, challenge cards,
    gadgets played and everything on the board are public (rule: tiberpunk/stage-1-quests).
    """
    try:
        line = _log_line(game, state, action, viewer)
    except (IndexError, ValueError, KeyError, TypeError):
        return f"{seat_word(state.seat)} plays {game.action_to_text(state, action)}."
    then = _consequences(game, state, action)
    return f"{line[:-1] if line.endswith('.') else line}; {then}." if then else line


def _consequences(game: TiberpunkGame, state: State, action: int) -> str:
    """What follows from a move by the rules, on the public board (rule: tiberpunk/stage-1-quests
    (the failed roll's pursuit and the shackles), tiberpunk/combat, tiberpunk/shackles): a quest or
    combat decided, shackles placed or removed, a lictor defeated or stepping closer, triumph
    tokens placed, the pursuit that comes next. "" when nothing follows."""
    after = _apply(game, state, action)
    if after is None:
        return ""
    c = _pack(game)
    ids = c.district_ids
    b, f = _read(game, state, REFEREE), _read(game, after, REFEREE)
    kind = _decode(action).kind
    parts: list[str] = []
    if b.roll is not None and f.roll is None and kind != "stop":
        parts.append(_decided(b, f))
    for p0, p1 in zip(b.players, f.players, strict=True):
        for mini in (CHAR, DRONE):
            if p1.shackled[mini] and not p0.shackled[mini]:
                parts.append(
                    f"Seat {p0.seat}'s {MINI_WORDS[mini]} is shackled (1 die fewer until it is freed)"
                )
            elif p0.shackled[mini] and not p1.shackled[mini] and kind != "unshackle":
                parts.append(f"Seat {p0.seat}'s {MINI_WORDS[mini]} is freed of its shackles")
        gained = p1.total - p0.total
        if gained > 0:
            parts.append(f"Seat {p0.seat} places {_plural(gained, 'triumph token')} ({p1.total} in all)")
    if kind not in ("move", "pursue", "lictor", "escape"):
        gone = [d for d in b.lictors if list(b.lictors).count(d) > list(f.lictors).count(d)]
        new = [d for d in f.lictors if list(f.lictors).count(d) > list(b.lictors).count(d)]
        for d in gone[len(new) :]:
            parts.append(f"the lictor in {ids[d]} is defeated and returns to the reserve")
        for d0, d1 in zip(gone, new, strict=False):
            parts.append(f"a lictor steps from {ids[d0]} to {ids[d1]}")
    if kind == "pursue" and f.roll is not None:
        parts.append(f"it has not reached Seat {f.seat}'s miniature: the dice are rolled again")
    if f.phase == PH_PURSUE and b.phase != PH_PURSUE:
        parts.append(
            f"the pursuit: Seat {f.decider} (on the left) moves the nearest lictor one district toward "
            f"Seat {f.seat}'s miniature; if it reaches it the quest fails and the miniature is shackled, "
            "else the dice are rolled again"
        )
    return "; ".join(p for p in parts if p)


def _decided(b: Pos, f: Pos) -> str:
    """How a quest or combat ended (rule: tiberpunk/stage-1-quests, tiberpunk/combat)."""
    roll = b.roll
    assert roll is not None
    if not roll.combat:
        p0, p1 = b.players[b.seat], f.players[b.seat]
        won = p1.story != p0.story or p1.total > p0.total
        return f"the {SKILLS[roll.skill]} quest {'succeeds' if won else 'fails'}"
    attacker = b.seat
    won = f.players[attacker].total > b.players[attacker].total or len(f.lictors) < len(b.lictors)
    if roll.target == LICTOR:
        return "the attacker beats the lictor" if won else "the lictor wins the combat"
    return f"Seat {attacker} wins the combat" if won else f"Seat {roll.defender} defends and wins the combat"


def _log_line(game: TiberpunkGame, state: State, action: int, viewer: Viewer) -> str:
    pos = _read(game, state, viewer)
    a = _decode(action)
    who = f"Seat {pos.decider if pos.decider >= 0 else pos.seat}"  # the seat deciding
    if a.kind == "dice":
        return _dice_line(game, state, pos, a)
    if a.kind == "interact":
        return _interact_line(game, state, pos, a, action, viewer)
    line = _LINES.get(a.kind)
    if line is None:
        return f"{who} plays {game.action_to_text(state, action)}."
    return line(_pack(game), pos, a, who)


def _ship_prefix(c: Content, a: Act) -> str:
    """A movement or unshackling by a spaceship card, not the movement action (rule: spaceship-cards)."""
    return f"plays a {ITYPES[c.ship_types[a.via - 1]]} spaceship card and " if a.via else ""


def _move_line(c: Content, pos: Pos, a: Act, who: str) -> str:
    """rule: movement (extra districts paid in coins)."""
    mini, src, dst, pay = a.p
    ids = c.district_ids
    what = "a lictor" if mini == LICTOR else f"the {MINI_WORDS[mini]}"
    paid = f", paying {_plural(pay, 'coin')}" if pay else ""
    return f"Seat {pos.seat} {_ship_prefix(c, a)}moves {what} from {ids[src]} to {ids[dst]}{paid}."


def _unshackle_line(c: Content, pos: Pos, a: Act, who: str) -> str:
    """rule: shackles."""
    return f"Seat {pos.seat} {_ship_prefix(c, a)}removes the shackles from the {MINI_WORDS[a.p[0]]}."


def _reboot_line(c: Content, pos: Pos, a: Act, who: str) -> str:
    """rule: personal-abilities (Rebooter)."""
    cost = pos.players[pos.seat].reboot_cost
    return (
        f"Seat {pos.seat} uses Rebooter: pays {_plural(cost, 'coin')} and takes back the interaction tokens."
    )


def _stop_line(c: Content, pos: Pos, a: Act, who: str) -> str:
    """rule: gadget-cards (no gadget played: the roll stands)."""
    roll = pos.roll
    if roll is not None and roll.combat:
        return f"{who} plays no gadget: the combat is decided."
    return f"{who} plays no gadget: the quest roll fails."


def _escape_line(c: Content, pos: Pos, a: Act, who: str) -> str:
    """rule: combat-vs-lictor (the last lictor escapes)."""
    ids = c.district_ids
    where = pos.rewards[0][2] if pos.rewards else -1
    frm = f" from {ids[where]}" if where >= 0 else ""
    return f"{who} moves the last lictor{frm} to {ids[a.value]}."


_LINES: dict[str, Callable[[Content, Pos, Act, str], str]] = {
    # the log line of each action kind but dice and interactions: (pack, position, action, the seat
    # deciding) -> one sentence; "Seat {pos.seat}" is the active player
    "draft": lambda c, pos, a, who: (  # rule: personal-abilities (the draft)
        f"{who} takes the ability tile {c.abilities[a.value].name}."
    ),
    "place": lambda c, pos, a, who: (  # rule: game-overview (first turn)
        f"{who} places the character and the drone in {_district(c, a.value, long=True)}."
    ),
    "favor": lambda c, pos, a, who: (  # rule: divine-favor
        f"Seat {pos.seat} moves the favor marker to {_god(a.value)}."
    ),
    "move": _move_line,
    "unshackle": _unshackle_line,
    "end": lambda c, pos, a, who: f"Seat {pos.seat} ends the turn.",  # rule: game-overview
    "reboot": _reboot_line,
    "recharge": lambda c, pos, a, who: (  # rule: personal-abilities
        f"Seat {pos.seat} uses Recharge: takes back the {_gadget(a.value)} gadget card, face up."
    ),
    "gadget": lambda c, pos, a, who: _gadget_line(pos, a, who),  # rule: gadget-cards
    "stop": _stop_line,
    "pursue": lambda c, pos, a, who: (  # rule: stage-1-quests (the lictor pursuit)
        f"{who} pursues Seat {pos.seat}'s miniature after the missed roll: moves the nearest lictor from "
        f"{c.district_ids[a.p[0]]} to {c.district_ids[a.p[1]]}."
    ),
    # rule: objective-rewards
    "skill": lambda c, pos, a, who: f"{who} upgrades {SKILLS[a.value]} (reward).",
    "boost": lambda c, pos, a, who: (
        f"{who} places a boost marker on the {MINI_WORDS[a.value]} slot (reward)."
    ),
    "take": lambda c, pos, a, who: f"{who} takes a {ITYPES[c.ship_types[a.value]]} spaceship card (reward).",
    "lictor": lambda c, pos, a, who: (  # rule: spaceship-cards
        f"Seat {pos.seat} places a lictor from the reserve in {c.district_ids[a.value]}."
    ),
    "escape": _escape_line,
}


def _dice_line(game: TiberpunkGame, state: State, pos: Pos, a: Act) -> str:
    roll = pos.roll
    if roll is None:
        return f"Dice: {_dice(a.p)}."
    ra, _rd = roll.to_roll
    side = 0 if ra else 1
    before = roll.a if side == 0 else roll.d
    after = tuple(sorted(before + a.p))
    if roll.combat:
        if side == 0:
            whose = f"Seat {pos.seat}'s attack roll"
        elif roll.target == LICTOR:
            whose = "The lictor's roll"
        else:
            whose = f"Seat {roll.defender}'s defence roll"
        extra = f" (now {_dice(after)})" if before else ""
        return f"{whose}: {_dice(a.p)}{extra} — {score(roll.tile, after)} matching '{_tile(roll.tile)}'."
    verdict = "meets it" if contains(after, roll.need) else "misses"
    extra = f" (now {_dice(after)})" if before else ""
    return f"Seat {pos.seat}'s quest roll: {_dice(a.p)}{extra} — needs {_dice(roll.need)}: {verdict}."


def _gadget_line(pos: Pos, a: Act, who: str) -> str:
    g = a.value
    name = _gadget(g)
    roll = pos.roll
    mine = roll is None or roll.deciding == pos.seat
    if roll is None or not roll.combat:
        other = "the other"
    elif roll.target == LICTOR:
        other = "the lictor's"
    else:
        other = f"Seat {pos.seat if not mine else roll.defender}'s"
    if GADGETS[g] == "add-die":
        return f"{who} plays {name}: rolls {_plural(a.p[0], 'more die', 'more dice')}."
    targets = []
    rest = a.p[1:]
    for i in range(0, len(rest), 3):
        side, val, delta = rest[i : i + 3]
        owner = "their" if (side == 0) == mine else other
        if GADGETS[g] == "reroll":
            targets.append(f"{owner} {val}")
        elif GADGETS[g] == "flip":
            targets.append(f"{owner} {val} to {7 - val}")
        else:
            targets.append(f"{owner} {val} to {val + delta}")
    verb = "rerolls" if GADGETS[g] == "reroll" else "turns"
    return f"{who} plays {name}: {verb} {_and(targets)}."


_NUMBER_WORDS = {2: "two", 3: "three", 4: "four"}


def _paid(c: Content, gadgets: int, ship: int) -> str:
    """What an interaction's price was paid with: the gadget cards discarded (``gadgets`` holds
    three bits of count per gadget type) and the spaceship card given (``ship`` its type, -1 none)."""
    counts = [(g, (gadgets >> (3 * g)) & 7) for g in range(len(GADGETS))]
    cards = [_gadget(g) if n == 1 else f"{_NUMBER_WORDS.get(n, str(n))} {_gadget(g)}" for g, n in counts if n]
    total = sum(n for _g, n in counts)
    parts = [f"the gadget card{'s' if total > 1 else ''} {_and(cards)}"] if cards else []
    if ship >= 0:
        parts.append(f"a {ITYPES[c.ship_types[ship]]} spaceship card")
    return f", discarding {_and(parts)}" if parts else ""


def _interact_line(  # noqa: PLR0917
    game: TiberpunkGame, state: State, pos: Pos, a: Act, action: int, viewer: Viewer
) -> str:
    c = _pack(game)
    ids = c.district_ids
    me = f"Seat {pos.seat}"
    p = pos.players[pos.seat]
    if a.via >= act.VIA_SHIP:
        how = f"plays a {ITYPES[c.ship_types[a.via - act.VIA_SHIP]]} spaceship card"
    else:
        mask = p.token_slots[a.via]
        how = f"plays the {_token_name(mask)} token"
    p1, p2, p3, p4, _p5 = a.p
    if a.it == act.IT_INCOME:
        placed = len(p.temples) + len(p.hubs)
        return f"{me} {how} to collect income: {_plural(c.income[min(placed, len(c.income) - 1)], 'coin')}."
    if a.it == act.IT_SPACESHIP:
        drawn = _drawn(game, state, action, viewer)
        return f"{me} {how}: takes a {ITYPES[c.ship_types[p1]]} spaceship card and draws {drawn}."
    if a.it == act.IT_STRUCTURE:
        if a.sub == act.SUB_TEMPLE:
            return (
                f"{me} {how}: an offering at the Temple of {_god(p1)} — takes the blessing of "
                f"{_god(p1)} and places an influence marker."
            )
        if a.sub == act.SUB_HUB:
            ups = [SKILLS[k] for k in range(3) if (p3 >> k) & 1]
            parts = [f"upgrades {_and(ups)}"] if ups else []
            if p4:
                parts.append(f"buys {_drawn(game, state, action, viewer)}")
            did = _and(parts) if parts else "buys nothing"
            by = "character" if p2 == 0 else "drone"
            return f"{me} {how}: the {by} visits the upgrade hub in {ids[c.hubs[p1]]} and {did}."
        card = c.side_cards[pos.side_cards[p1]]
        task = card.tasks[p2]
        paid = _paid(c, a.p[4], p3 if task.kind == 6 else -1)
        return f"{me} {how}: completes '{_task(task.kind)}' (side objective {card.id}){paid}."
    mini = CHAR if a.it == act.IT_CHARACTER else DRONE
    where = ids[p.char if mini == CHAR else p.drone]
    if a.sub in (act.SUB_Q1, act.SUB_Q3):
        # (the challenge card is revealed by the action itself: the dice line names what it needs,
        # so a log line read before the move never shows the top of the deck)
        stage = "I" if a.sub == act.SUB_Q1 else "III"
        mini_word = MINI_WORDS[mini]
        return (
            f"{me} {how}: the {mini_word} starts the Stage {stage} {SKILLS[p1]} quest in {where} "
            f"and reveals a Stage {stage} challenge card."
        )
    if a.sub == act.SUB_Q2:
        number = p.cards[p1]
        text = _stage2_text(c, number).rstrip(".") if number >= 0 else ""
        ship = p2 if number >= 0 and c.stage2[number].template == 5 else -1
        paid = _paid(c, a.p[4], ship)
        return f"{me} {how}: the {MINI_WORDS[mini]} completes the Stage II {SKILLS[p1]} quest ({text}){paid}."
    target = "a lictor" if p1 == LICTOR else f"Seat {p2}'s {MINI_WORDS[p1]}"
    tile = _tile(pos.tiles[p3])
    return (
        f"{me} {how}: the {MINI_WORDS[mini]} attacks {target} in {where} on '{tile}' "
        f"for {_objective_name(c, pos, p4)}."
    )


def _drawn(game: TiberpunkGame, state: State, action: int, viewer: Viewer) -> str:
    """ "a gadget card", named for the referee only (a log line read before the move must not show
    the mover the top of the deck)."""
    if viewer != REFEREE:
        return "a gadget card"
    after = _apply(game, state, action)
    if after is None:
        return "a gadget card"
    seat = _read(game, state).seat
    new = list(_read(game, after).players[seat].hand)
    for g in _read(game, state).players[seat].hand:
        if g in new:
            new.remove(g)
    if len(new) == 1 and new[0] is not None:
        return f"a gadget card ({_gadget(new[0])})"
    return "a gadget card"


# ---------------------------------------------------------------------------- explain
@dataclass(frozen=True, slots=True, kw_only=True)
class PairFact(Fact):
    """A :class:`~games.core.face.Fact` that also unpacks as the older ``(label, value)`` pair, so
    ``dict(game.explain(...))`` keeps working for callers of the pair form."""

    def __iter__(self) -> Iterator[Any]:
        return iter((self.label, self.value))


def _nearest_lictor(game: TiberpunkGame, lictors: Sequence[int], d: int) -> int:
    if d < 0 or not lictors:
        return _rules(game).board.diameter + 1
    return min(_rules(game).board.dist[x][d] for x in lictors)


def _quest_odds(
    game: TiberpunkGame, state: State, pos: Pos, stage: int, *, skill: int, mini: int
) -> tuple[float, int, int, int]:
    """(odds, dice, rolls before the lictor arrives, nearest lictor) of a quest attempted now, no
    gadgets: each failed roll brings the nearest lictor one district closer
    (rule: tiberpunk/stage-1-quests).

    The challenge card is one of those not in the discard pile, each equally likely (the deck's
    order is hidden)."""
    c = _pack(game)
    p = pos.players[pos.seat]
    k = _rules(game).dice_count(state, pos.seat, mini, skill)
    where = p.char if mini == CHAR else p.drone
    dist = _nearest_lictor(game, pos.lictors, where)
    cards = c.challenges1 if stage == 1 else c.challenges3
    disc = pos.challenge_discards[0 if stage == 1 else 1]
    left = [i for i in range(len(cards)) if i not in disc] or list(range(len(cards)))
    rolls = max(dist, 1)
    odds = sum(1 - (1 - p_contains(k, cards[i])) ** rolls for i in left) / len(left)
    return odds, k, rolls, dist


def _roll_odds_after(pool_a: tuple[int, ...], pool_d: tuple[int, ...], ra: int, rd: int, judge: Any) -> float:
    """Odds that ``judge(a, d)`` holds once ``ra`` and ``rd`` more dice join the pools."""
    total = 0.0
    for extra_a, pa in outcomes(ra) if ra else (((), 1.0),):
        for extra_d, pd in outcomes(rd) if rd else (((), 1.0),):
            if judge(tuple(sorted(pool_a + extra_a)), tuple(sorted(pool_d + extra_d))):
                total += pa * pd
    return total


def _pools_after(
    roll: Roll, a: Act, decider_is_active: bool
) -> tuple[tuple[int, ...], tuple[int, ...], int, int]:
    """The two pools and the dice still to roll after gadget ``a`` (rule: tiberpunk/gadget-cards)."""
    pools = [list(roll.a), list(roll.d)]
    pend = [roll.to_roll[0], roll.to_roll[1]]
    name = GADGETS[a.value]
    if name == "add-die":
        pend[0 if decider_is_active else 1] += a.p[0]
    else:
        rest = a.p[1:]
        for i in range(0, len(rest), 3):
            side, val, delta = rest[i : i + 3]
            if val in pools[side]:
                pools[side].remove(val)
            if name == "reroll":
                pend[side] += 1
            elif name == "flip":
                pools[side].append(7 - val)
            else:
                pools[side].append(val + delta)
    return tuple(sorted(pools[0])), tuple(sorted(pools[1])), pend[0], pend[1]


def _gadget_facts(pos: Pos, a: Act) -> list[PairFact]:
    """The odds on this roll after a gadget (or after stopping), for the deciding player.

    rule: tiberpunk/gadget-cards, tiberpunk/combat-tiles
    """
    roll = pos.roll
    assert roll is not None
    decider_is_active = roll.deciding == pos.seat
    if a.kind == "stop":
        pa, pd, ra, rd = roll.a, roll.d, 0, 0
    else:
        pa, pd, ra, rd = _pools_after(roll, a, decider_is_active)
    if roll.combat:
        tile = roll.tile

        def attacker_wins(x: tuple[int, ...], y: tuple[int, ...]) -> bool:
            return score(tile, x) > score(tile, y)

        p_att = _roll_odds_after(pa, pd, ra, rd, attacker_wins)
        odds = p_att if decider_is_active else 1 - p_att
        label = "combat win odds on this roll"
    else:
        need = roll.need
        odds = _roll_odds_after(pa, (), ra, 0, lambda x, _y: contains(x, need))
        label = "quest success odds on this roll"
    hand = len(pos.players[roll.deciding].hand)
    spent = 0 if a.kind == "stop" else 1
    return [
        PairFact(label=label, value=float(odds), unit="probability", better=1),
        PairFact(label="gadget cards left", value=float(hand - spent), unit="cards", better=1),
    ]


def explain(game: TiberpunkGame, state: State, action: int) -> list[PairFact]:
    """Facts about ``action`` for the deciding seat, the same labels on every candidate of a kind.

    Every decision gets facts: the turn's moves (triumph tokens and coins gained now, the nearest
    lictor to your miniatures after the move, quest and combat odds, what the move gives up),
    gadget choices (odds on this roll), the pursuit (where the lictor ends up), rewards.
    rule: tiberpunk/stage-1-quests (odds and pursuit), tiberpunk/combat-tiles, tiberpunk/movement
    """
    pos = _read(game, state, REFEREE)
    decider = pos.decider
    if decider < 0:
        return _chance_facts(pos, action)
    a = _decode(action)
    if pos.phase in (PH_QGADGET, PH_CGADGET) and pos.roll is not None:
        return _gadget_facts(pos, a)
    after = _apply(game, state, action)
    me = pos.players[decider]
    facts: list[PairFact] = []  # what this kind of move decides first, then what it changes now
    if a.kind == "interact":
        facts += _interact_facts(game, state, pos, a)
    elif a.kind == "move":
        if a.via:
            facts.append(PairFact(label="spaceship cards spent", value=1.0, unit="cards", better=-1))
        if a.p[0] == LICTOR:
            facts += _lictor_facts(game, pos, a.p[2], own=False)
    elif a.kind == "end":
        allowed = 2 if me.favor == GODS.index("mercury") and me.favor in me.blessings else 1
        unused = max(0, allowed - pos.moves)
        facts.append(PairFact(label="movement actions left unused", value=float(unused), better=-1))
    elif a.kind == "favor":
        facts += _favor_facts(me, a.value)
    elif a.kind in ("pursue", "lictor", "escape"):
        facts += _lictor_facts(game, pos, a.p[1] if a.kind == "pursue" else a.value, own=True)
    elif a.kind == "place":
        c = _pack(game)
        markers = [c.stage1[card].district for card, _n in pos.quests if card >= 0]
        if markers:
            facts.append(
                PairFact(
                    label="districts to the nearest quest marker",
                    value=float(min(_rules(game).board.dist[a.value][d] for d in markers)),
                    unit="districts",
                    better=-1,
                )
            )
    else:
        facts += _choice_facts(game, state, pos, a, after)
    return facts + (_gain_facts(game, me, after) if after is not None else [])


def _chance_facts(pos: Pos, action: int) -> list[PairFact]:
    """What a roll means (a chance outcome; rule: tiberpunk/stage-1-quests, tiberpunk/combat-tiles):
    whether a quest roll meets the challenge card and how many of its values it shows; for a combat,
    the attacker's dice matching the tile, and once both sides have rolled, who is ahead."""
    roll = pos.roll
    if roll is None or action & 31 != act.OP_DICE:
        return []
    dice = decode_pool(action >> 5)
    side_a = roll.to_roll[0] > 0
    pool_a = tuple(sorted(roll.a + dice)) if side_a else roll.a
    pool_d = roll.d if side_a else tuple(sorted(roll.d + dice))
    if not roll.combat:
        need = roll.need
        rest, matched = list(pool_a), 0
        for v in need:
            if v in rest:
                rest.remove(v)
                matched += 1
        meets = contains(pool_a, need)
        return [
            PairFact(
                label="the roll meets the challenge",
                value=1.0 if meets else 0.0,
                text=f"the roll {_dice(pool_a)} meets the challenge {list(need)}"
                if meets
                else f"the roll {_dice(pool_a)} misses the challenge {list(need)}: gadgets or another roll "
                "may still make it",
            ),
            PairFact(
                label="challenge values shown",
                value=float(matched),
                text=f"{matched} of {len(need)} values shown",
            ),
        ]
    tile = roll.tile
    if side_a and roll.to_roll[1] > 0:  # the attacker rolls first; the defender has yet to
        n = score(tile, pool_a)
        return [
            PairFact(
                label="attacker's dice matching the tile",
                value=float(n),
                text=f"the attacker's {_dice(pool_a)}: {n} matching '{_tile(tile)}'",
            )
        ]
    ahead = score(tile, pool_a) > score(tile, pool_d)
    return [
        PairFact(
            label="the attacker is ahead after this roll",
            value=1.0 if ahead else 0.0,
            text=f"the attacker is {'ahead' if ahead else 'not ahead'} ({score(tile, pool_a)} against "
            f"{score(tile, pool_d)} matching '{_tile(tile)}'); gadgets may still change it",
        )
    ]


def outcome_facts(game: TiberpunkGame, state: State, seat: int) -> list[PairFact]:
    """Where ``seat`` stands, for hints (rule: tiberpunk/end-of-game: triumph tokens, then coins):
    its triumph tokens and its lead in them, coins, gadget cards, skill dice, storyline stages,
    structures with its influence, spaceship cards, shackled miniatures and the nearest lictor."""
    pos = _read(game, state, REFEREE)
    if not 0 <= seat < pos.n:
        return []
    c = _pack(game)
    me = pos.players[seat]
    others = [p.total for p in pos.players if p.seat != seat]
    lead = me.total - max(others) if others else 0
    minis = [d for d in (me.char, me.drone) if d >= 0]
    near = min((_nearest_lictor(game, pos.lictors, d) for d in minis), default=-1)
    shackled = sum(me.shackled)
    skills = ", ".join(f"{SKILLS[k]} {n}" for k, n in enumerate(me.dice))
    held = len(me.temples) + len(me.hubs)
    facts = [
        PairFact(
            label="triumph tokens",
            value=float(me.total),
            unit="tokens",
            better=1,
            text=f"{_plural(me.total, 'triumph token')} on objective cards",
        ),
        PairFact(
            label="lead in triumph tokens over the best other seat",
            value=float(lead),
            unit="tokens",
            better=1,
            text=(f"leads by {_plural(lead, 'triumph token')}" if lead > 0 else "")
            or (f"trails by {_plural(-lead, 'triumph token')}" if lead < 0 else "level on triumph tokens"),
        ),
        PairFact(
            label="coins", value=float(me.coins), unit="coins", better=1, text=_plural(me.coins, "coin")
        ),
        PairFact(
            label="gadget cards",
            value=float(len(me.hand)),
            unit="cards",
            better=1,
            text=_plural(len(me.hand), "gadget card") + " in hand",
        ),
        PairFact(
            label="skill dice",
            value=float(sum(me.dice)),
            unit="dice",
            better=1,
            text=f"skill dice: {skills}",
        ),
        PairFact(
            label="storyline stages",
            value=float(sum(me.story)),
            better=1,
            text=f"{_plural(sum(me.story), 'storyline stage')} reached",
        ),
        PairFact(
            label="structures with your influence",
            value=float(held),
            better=1,
            text=f"influence on {_plural(held, 'structure')}",
        ),
        *(
            PairFact(
                label=f"{ITYPES[c.ship_types[k]]} spaceship cards",
                value=float(n),
                unit="cards",
                better=1,
                text=_plural(n, f"{ITYPES[c.ship_types[k]]} spaceship card"),
            )
            for k, n in enumerate(me.ships)
        ),
        PairFact(
            label="shackled miniatures",
            value=float(shackled),
            better=-1,
            text=f"{_plural(shackled, 'miniature')} shackled" if shackled else "no miniature shackled",
        ),
    ]
    if near >= 0:
        facts.append(
            PairFact(
                label="nearest lictor to your miniatures",
                value=float(near),
                unit="districts",
                better=1,
                text=f"the nearest lictor {_plural(near, 'district')} from your miniatures"
                if near
                else "a lictor on a district of your miniatures",
            )
        )
    return facts


def _gain_facts(game: TiberpunkGame, me: Seat, after: State) -> list[PairFact]:
    """What the move changes at once for the deciding seat: tokens, coins, cards, skills, and the
    nearest lictor to its miniatures afterwards (rule: tiberpunk/movement)."""
    later = _read(game, after, REFEREE)
    new = later.players[me.seat]
    facts = [
        PairFact(
            label="triumph tokens gained now", value=float(new.total - me.total), unit="tokens", better=1
        ),
        PairFact(label="coins gained now", value=float(new.coins - me.coins), unit="coins", better=1),
    ]
    minis = [d for d in (new.char, new.drone) if d >= 0]
    if minis:
        near = min(_nearest_lictor(game, later.lictors, d) for d in minis)
        facts.append(
            PairFact(
                label="nearest lictor after the move, districts away",
                value=float(near),
                unit="districts",
                better=1,
            )
        )
    for label, diff, unit in (
        ("gadget cards gained", len(new.hand) - len(me.hand), "cards"),
        ("spaceship cards gained", sum(new.ships) - sum(me.ships), "cards"),
        ("skill levels gained", sum(new.dice) - sum(me.dice), "dice"),
    ):
        if diff:
            facts.append(PairFact(label=label, value=float(diff), unit=unit, better=1))
    return facts


def _lictor_facts(game: TiberpunkGame, pos: Pos, dst: int, *, own: bool) -> list[PairFact]:
    """Where a moved or placed lictor ends up: near the chooser's miniatures (bad for them) or the
    opponents' (rule: tiberpunk/stage-1-quests, tiberpunk/spaceship-cards)."""
    me = pos.players[pos.decider]
    dist = _rules(game).board.dist
    mine = [d for d in (me.char, me.drone) if d >= 0]
    opp = [d for q in pos.players if q.seat != me.seat for d in (q.char, q.drone) if d >= 0]
    facts = []
    if own and mine:
        facts.append(
            PairFact(
                label="lictor to your nearest miniature",
                value=float(min(dist[dst][d] for d in mine)),
                unit="districts",
                better=1,
            )
        )
    if opp:
        facts.append(
            PairFact(
                label="lictor to the nearest opponent miniature",
                value=float(min(dist[dst][d] for d in opp)),
                unit="districts",
                better=-1,
            )
        )
    return facts


def _choice_facts(game: TiberpunkGame, state: State, pos: Pos, a: Act, after: State | None) -> list[PairFact]:
    """Rewards and the ability draft: what the chosen option gives (rule: tiberpunk/objective-rewards)."""
    c = _pack(game)
    decider = pos.decider
    if a.kind == "skill":
        me = pos.players[decider]
        level = c.levels[a.value][min(me.skills[a.value] + 1, len(c.levels[a.value]) - 1)]
        return [
            PairFact(label="dice of the upgraded skill", value=float(level), unit="dice", better=1),
            PairFact(
                label="storyline stage of the upgraded skill (0 to 3)",
                value=float(me.story[a.value]),
                better=0,
            ),
        ]
    if a.kind == "boost" and after is not None:
        r = _rules(game)
        return [
            PairFact(
                label="character dice for guile", value=float(r.dice_count(after, decider, CHAR, 1)), better=1
            ),
            PairFact(
                label="drone dice for hacking", value=float(r.dice_count(after, decider, DRONE, 0)), better=1
            ),
        ]
    if a.kind == "take":
        left = pos.ship_stacks[a.value] - 1
        return [
            PairFact(label="spaceship cards left in that stack", value=float(left), unit="cards", better=0)
        ]
    if a.kind == "draft":
        tile = 1.0 if c.abilities[a.value].level == "easy" else 2.0
        return [PairFact(label="ability tile level (1 easy, 2 medium)", value=tile, better=0)]
    return []


def _favor_facts(me: Seat, god: int) -> list[PairFact]:
    """What each favor gives this turn (rule: tiberpunk/divine-favor)."""
    blessed = god in me.blessings
    name = GODS[god]
    return [
        PairFact(
            label="drone movement range", value=3.0 if name == "mercury" else 2.0, unit="districts", better=1
        ),
        PairFact(
            label="movement actions this turn", value=2.0 if name == "mercury" and blessed else 1.0, better=1
        ),
        PairFact(label="gadget cards per roll", value=3.0 if name == "emperors-genius" else 1.0, better=1),
        PairFact(
            label="coins saved at a structure", value=1.0 if name == "juno" else 0.0, unit="coins", better=1
        ),
        PairFact(
            label="may take the locked spaceship card", value=1.0 if name == "stellar-ark" else 0.0, better=1
        ),
    ]


def _next_tokens_fact(p: Seat, via: int) -> PairFact:
    """What a token play gives up: the interactions left to choose from next turn (the third token
    on the wheel returns the earliest; rule: tiberpunk/interaction-wheel)."""
    wheel = (*p.wheel_slots, via)
    if len(wheel) == 3:
        wheel = wheel[1:]
    kinds = sorted(
        {i for t, mask in enumerate(p.token_slots) if t not in wheel for i in range(4) if (mask >> i) & 1}
    )
    names = ", ".join(ITYPES[i] for i in kinds) or "none"
    return PairFact(
        label="interactions to choose from next turn",
        value=float(len(kinds)),
        better=1,
        text=f"interactions to choose from next turn: {names}",
    )


def _interact_facts(game: TiberpunkGame, state: State, pos: Pos, a: Act) -> list[PairFact]:
    c = _pack(game)
    facts: list[PairFact] = []
    p1, p2, p3, _p4, _p5 = a.p
    if a.via >= act.VIA_SHIP:
        gives_up = PairFact(label="spaceship cards spent", value=1.0, unit="cards", better=-1)
    else:
        gives_up = _next_tokens_fact(pos.players[pos.seat], a.via)
    if a.it == act.IT_INCOME:
        facts.append(
            PairFact(
                label="interaction given up for income",
                value=1.0,
                better=-1,
                text="gives up the interaction to collect income",
            )
        )
    elif a.it in (act.IT_CHARACTER, act.IT_DRONE) and a.sub in (act.SUB_Q1, act.SUB_Q3):
        mini = CHAR if a.it == act.IT_CHARACTER else DRONE
        stage = 1 if a.sub == act.SUB_Q1 else 3
        odds, k, rolls, dist = _quest_odds(game, state, pos, stage, skill=p1, mini=mini)
        facts += [
            PairFact(
                label="quest success odds (no gadgets)", value=float(odds), unit="probability", better=1
            ),
            PairFact(label="dice rolled", value=float(k), unit="dice", better=1),
            PairFact(label="nearest lictor, districts away", value=float(dist), unit="districts", better=1),
            PairFact(label="rolls before the lictor arrives", value=float(rolls), better=1),
        ]
    elif a.it in (act.IT_CHARACTER, act.IT_DRONE) and a.sub == act.SUB_FIGHT:
        mini = CHAR if a.it == act.IT_CHARACTER else DRONE
        r = _rules(game)
        ka = r.dice_count(state, pos.seat, mini, 2)
        kd = ka + 1 if p1 == LICTOR else r.dice_count(state, p2, p1, 1 if p1 == CHAR else 0)
        facts += [
            PairFact(
                label="combat win odds (no gadgets)",
                value=float(p_attacker_wins(pos.tiles[p3], min(ka, 8), min(kd, 8))),
                unit="probability",
                better=1,
            ),
            PairFact(label="attacker dice", value=float(ka), unit="dice", better=1),
            PairFact(label="defender dice", value=float(kd), unit="dice", better=-1),
        ]
    del c
    facts.append(gives_up)
    return facts
