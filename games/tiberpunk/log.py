"""Tiberpunk's log lines (``log_line``): one sentence per action as an online table writes its log,
hiding what the viewer may not see.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from games.core.face import (
    REFEREE,
    SPECTATOR,
    Viewer,
)
from games.errors import LictorError
from games.tiberpunk import actions as act
from games.tiberpunk.catalogue import stage2_text
from games.tiberpunk.content import (
    GADGETS,
    ITYPES,
    SKILLS,
    Content,
)
from games.tiberpunk.describe import district_name, objective_name, token_name
from games.tiberpunk.dice import contains, score
from games.tiberpunk.snapshot import (
    MINI_WORDS,
    Act,
    Pos,
    and_words,
    decode,
    dice_text,
    gadget_name,
    god_name,
    pack_of,
    plural,
    read_position,
    seat_word,
    task_name,
    tile_name,
)
from games.tiberpunk.state import (
    CHAR,
    DRONE,
    LICTOR,
    PH_PURSUE,
    State,
)

if TYPE_CHECKING:
    from games.tiberpunk.game import TiberpunkGame

__all__ = ["applied", "log_line"]


# ---------------------------------------------------------------------------- log lines
def applied(game: TiberpunkGame, state: State, action: int) -> State | None:
    try:
        return game.apply_trusted(state, action)
    except (LictorError, IndexError, ValueError, KeyError, AssertionError):
        return None


def log_line(game: TiberpunkGame, state: State, action: int, viewer: Viewer = SPECTATOR) -> str:
    """One sentence for ``action`` played in ``state``, as an online table writes its log.

    A gadget drawn face down is named only to its holder and the referee; dice, challenge cards,
    gadgets played and everything on the board are public (rulebook: tiberpunk/stage-1-quests).
    """
    try:
        line = _log_line(game, state, action, viewer)
    except (IndexError, ValueError, KeyError, TypeError):
        return f"{seat_word(state.seat)} plays {game.action_to_text(state, action)}."
    then = _consequences(game, state, action)
    return f"{line[:-1] if line.endswith('.') else line}; {then}." if then else line


def _consequences(game: TiberpunkGame, state: State, action: int) -> str:
    """What follows from a move by the rules, on the public board (rulebook: tiberpunk/stage-1-quests
    (the failed roll's pursuit and the shackles), tiberpunk/combat, tiberpunk/shackles): a quest or
    combat decided, shackles placed or removed, a lictor defeated or stepping closer, triumph
    tokens placed, the pursuit that comes next. "" when nothing follows."""
    after = applied(game, state, action)
    if after is None:
        return ""
    c = pack_of(game)
    ids = c.district_ids
    b, f = read_position(game, state, REFEREE), read_position(game, after, REFEREE)
    kind = decode(action).kind
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
            parts.append(f"Seat {p0.seat} places {plural(gained, 'triumph token')} ({p1.total} in all)")
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
    """How a quest or combat ended (rulebook: tiberpunk/stage-1-quests, tiberpunk/combat)."""
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
    pos = read_position(game, state, viewer)
    a = decode(action)
    who = f"Seat {pos.decider if pos.decider >= 0 else pos.seat}"  # the seat deciding
    if a.kind == "dice":
        return _dice_line(game, state, pos, a)
    if a.kind == "interact":
        return _interact_line(game, state, pos, a, action=action, viewer=viewer)
    line = _LINES.get(a.kind)
    if line is None:
        return f"{who} plays {game.action_to_text(state, action)}."
    return line(pack_of(game), pos, a, who)


def _ship_prefix(c: Content, a: Act) -> str:
    """A movement or unshackling by a spaceship card, not the movement action (rule: spaceship-cards)."""
    return f"plays a {ITYPES[c.ship_types[a.via - 1]]} spaceship card and " if a.via else ""


def _move_line(c: Content, pos: Pos, a: Act, who: str) -> str:
    """rule: movement (extra districts paid in coins)."""
    mini, src, dst, pay = a.p
    ids = c.district_ids
    what = "a lictor" if mini == LICTOR else f"the {MINI_WORDS[mini]}"
    paid = f", paying {plural(pay, 'coin')}" if pay else ""
    return f"Seat {pos.seat} {_ship_prefix(c, a)}moves {what} from {ids[src]} to {ids[dst]}{paid}."


def _unshackle_line(c: Content, pos: Pos, a: Act, who: str) -> str:
    """rule: shackles."""
    return f"Seat {pos.seat} {_ship_prefix(c, a)}removes the shackles from the {MINI_WORDS[a.p[0]]}."


def _reboot_line(c: Content, pos: Pos, a: Act, who: str) -> str:
    """rule: personal-abilities (Rebooter)."""
    cost = pos.players[pos.seat].reboot_cost
    return (
        f"Seat {pos.seat} uses Rebooter: pays {plural(cost, 'coin')} and takes back the interaction tokens."
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
        f"{who} places the character and the drone in {district_name(c, a.value, long=True)}."
    ),
    "favor": lambda c, pos, a, who: (  # rule: divine-favor
        f"Seat {pos.seat} moves the favor marker to {god_name(a.value)}."
    ),
    "move": _move_line,
    "unshackle": _unshackle_line,
    "end": lambda c, pos, a, who: f"Seat {pos.seat} ends the turn.",  # rule: game-overview
    "reboot": _reboot_line,
    "recharge": lambda c, pos, a, who: (  # rule: personal-abilities
        f"Seat {pos.seat} uses Recharge: takes back the {gadget_name(a.value)} gadget card, face up."
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
        return f"Dice: {dice_text(a.p)}."
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
        extra = f" (now {dice_text(after)})" if before else ""
        return (
            f"{whose}: {dice_text(a.p)}{extra} — {score(roll.tile, after)} matching '{tile_name(roll.tile)}'."
        )
    verdict = "meets it" if contains(after, roll.need) else "misses"
    extra = f" (now {dice_text(after)})" if before else ""
    return f"Seat {pos.seat}'s quest roll: {dice_text(a.p)}{extra} — needs {dice_text(roll.need)}: {verdict}."


def _gadget_line(pos: Pos, a: Act, who: str) -> str:
    g = a.value
    name = gadget_name(g)
    roll = pos.roll
    mine = roll is None or roll.deciding == pos.seat
    if roll is None or not roll.combat:
        other = "the other"
    elif roll.target == LICTOR:
        other = "the lictor's"
    else:
        other = f"Seat {pos.seat if not mine else roll.defender}'s"
    if GADGETS[g] == "add-die":
        return f"{who} plays {name}: rolls {plural(a.p[0], 'more die', 'more dice')}."
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
    return f"{who} plays {name}: {verb} {and_words(targets)}."


_NUMBER_WORDS = {2: "two", 3: "three", 4: "four"}


def _paid(c: Content, gadgets: int, ship: int) -> str:
    """What an interaction's price was paid with: the gadget cards discarded (``gadgets`` holds
    three bits of count per gadget type) and the spaceship card given (``ship`` its type, -1 none)."""
    counts = [(g, (gadgets >> (3 * g)) & 7) for g in range(len(GADGETS))]
    cards = [
        gadget_name(g) if n == 1 else f"{_NUMBER_WORDS.get(n, str(n))} {gadget_name(g)}"
        for g, n in counts
        if n
    ]
    total = sum(n for _g, n in counts)
    parts = [f"the gadget card{'s' if total > 1 else ''} {and_words(cards)}"] if cards else []
    if ship >= 0:
        parts.append(f"a {ITYPES[c.ship_types[ship]]} spaceship card")
    return f", discarding {and_words(parts)}" if parts else ""


def _interact_line(
    game: TiberpunkGame, state: State, pos: Pos, a: Act, *, action: int, viewer: Viewer
) -> str:
    c = pack_of(game)
    ids = c.district_ids
    me = f"Seat {pos.seat}"
    p = pos.players[pos.seat]
    if a.via >= act.VIA_SHIP:
        how = f"plays a {ITYPES[c.ship_types[a.via - act.VIA_SHIP]]} spaceship card"
    else:
        mask = p.token_slots[a.via]
        how = f"plays the {token_name(mask)} token"
    p1, p2, p3, p4, _p5 = a.p
    if a.it == act.IT_INCOME:
        placed = len(p.temples) + len(p.hubs)
        return f"{me} {how} to collect income: {plural(c.income[min(placed, len(c.income) - 1)], 'coin')}."
    if a.it == act.IT_SPACESHIP:
        drawn = _drawn(game, state, action, viewer)
        return f"{me} {how}: takes a {ITYPES[c.ship_types[p1]]} spaceship card and draws {drawn}."
    if a.it == act.IT_STRUCTURE:
        if a.sub == act.SUB_TEMPLE:
            return (
                f"{me} {how}: an offering at the Temple of {god_name(p1)} — takes the blessing of "
                f"{god_name(p1)} and places an influence marker."
            )
        if a.sub == act.SUB_HUB:
            ups = [SKILLS[k] for k in range(3) if (p3 >> k) & 1]
            parts = [f"upgrades {and_words(ups)}"] if ups else []
            if p4:
                parts.append(f"buys {_drawn(game, state, action, viewer)}")
            did = and_words(parts) if parts else "buys nothing"
            by = "character" if p2 == 0 else "drone"
            return f"{me} {how}: the {by} visits the upgrade hub in {ids[c.hubs[p1]]} and {did}."
        card = c.side_cards[pos.side_cards[p1]]
        task = card.tasks[p2]
        paid = _paid(c, a.p[4], p3 if task.kind == 6 else -1)
        return f"{me} {how}: completes '{task_name(task.kind)}' (side objective {card.id}){paid}."
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
        text = stage2_text(c, number).rstrip(".") if number >= 0 else ""
        ship = p2 if number >= 0 and c.stage2[number].template == 5 else -1
        paid = _paid(c, a.p[4], ship)
        return f"{me} {how}: the {MINI_WORDS[mini]} completes the Stage II {SKILLS[p1]} quest ({text}){paid}."
    target = "a lictor" if p1 == LICTOR else f"Seat {p2}'s {MINI_WORDS[p1]}"
    tile = tile_name(pos.tiles[p3])
    return (
        f"{me} {how}: the {MINI_WORDS[mini]} attacks {target} in {where} on '{tile}' "
        f"for {objective_name(c, pos, p4)}."
    )


def _drawn(game: TiberpunkGame, state: State, action: int, viewer: Viewer) -> str:
    """ "a gadget card", named for the referee only (a log line read before the move must not show
    the mover the top of the deck)."""
    if viewer != REFEREE:
        return "a gadget card"
    after = applied(game, state, action)
    if after is None:
        return "a gadget card"
    seat = read_position(game, state).seat
    new = list(read_position(game, after).players[seat].hand)
    for g in read_position(game, state).players[seat].hand:
        if g in new:
            new.remove(g)
    if len(new) == 1 and new[0] is not None:
        return f"a gadget card ({gadget_name(new[0])})"
    return "a gadget card"
