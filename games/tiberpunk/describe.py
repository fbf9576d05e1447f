"""Tiberpunk's readable view of a position (``describe``): the step, the board, every player's holdings
and the viewer's own hand, in the rulebook's words.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from games.core.face import (
    REFEREE,
    Description,
    Row,
    Section,
    Viewer,
)
from games.tiberpunk.catalogue import reward_text
from games.tiberpunk.content import (
    ITYPES,
    SKILLS,
    Content,
)
from games.tiberpunk.dice import contains, score
from games.tiberpunk.snapshot import (
    MINI_WORDS,
    REWARD_KINDS,
    Pos,
    Roll,
    Seat,
    and_words,
    dice_text,
    face_texts,
    gadget_name,
    god_name,
    pack_of,
    plural,
    read_position,
    seat_colour,
    seat_word,
    task_name,
    tile_name,
)
from games.tiberpunk.state import (
    CHAR,
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
    State,
)

if TYPE_CHECKING:
    from games.tiberpunk.game import TiberpunkGame

__all__ = [
    "describe",
    "district_name",
    "hand_text",
    "headline_text",
    "objective_name",
    "step_text",
    "token_name",
]


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


def district_name(c: Content, d: int, *, long: bool = False) -> str:
    if d < 0:
        return "not placed"
    return f"{c.district_ids[d]} ({c.district_names[d]})" if long else c.district_ids[d]


def step_text(game: TiberpunkGame, pos: Pos) -> str:
    c = pack_of(game)
    if pos.phase == PH_OVER:
        win = pos.winners
        tokens = pos.players[win[0]].total
        tied = sum(1 for p in pos.players if p.total == tokens) > 1
        if len(win) == 1:
            coins = f" and {plural(pos.players[win[0]].coins, 'coin')} (the tie-break)" if tied else ""
            return f"game over: {seat_word(win[0])} wins with {tokens} triumph tokens{coins}"
        winners = and_words([seat_word(w) for w in win])
        return f"game over: {winners} share the victory with {tokens} triumph tokens"
    if pos.phase == PH_MAIN:
        done = []
        done.append("interaction token played" if pos.token_played else "an interaction token still to play")
        done.append(f"{plural(pos.moves, 'movement action')} used")
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
        return f"the dice are rolled: {whose} rolls {plural(ra or rd, 'die', 'dice')}"
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
        reserve = plural(c.lictors_total - len(pos.lictors), "lictor")
        return f"{_PHASE_STEP[PH_LPLACE]}: {reserve} in the reserve"
    if pos.phase in (PH_QGADGET, PH_CGADGET) and pos.roll is not None:
        return f"{_PHASE_STEP[pos.phase]}; {_pools_key(pos.roll, pos.seat)}"
    return _PHASE_STEP.get(pos.phase, "")


def _pools_key(roll: Roll, seat: int) -> str:
    """How a gadget move names the dice (rulebook: tiberpunk/gadget-cards): ``A`` the quester's or
    attacker's pool, ``D`` the defender's or the lictor's; ``flip A2`` turns a 2 of pool A."""
    if not roll.combat:
        need = dice_text(roll.need)
        return f"A = Seat {seat}'s dice {dice_text(roll.a)} (needs {need}); 'flip A2' turns its 2"
    defender = "the lictor" if roll.target == LICTOR else f"Seat {roll.defender}"
    return (
        f"A = Seat {seat}'s dice {dice_text(roll.a)}, D = {defender}'s dice {dice_text(roll.d)}; "
        "'rotate1 D5-1' turns a 5 of D into a 4"
    )


def headline_text(pos: Pos) -> str:
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
        colour = seat_colour(p.seat)[0]
        for m, where in ((CHAR, p.char), (DRONE, p.drone)):
            if where == d:
                marks = [w for w, on in (("shackled", p.shackled[m]), ("boosted", p.boosted[m])) if on]
                out.append(f"{colour} {MINI_WORDS[m]}" + (f" ({', '.join(marks)})" if marks else ""))
    k = pos.lictors.count(d)
    if k:
        out.append(plural(k, "lictor"))
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
                f"in {ids[roll.where]} for {objective_name(c, pos, roll.objective)}; "
                f"tile: {tile_name(roll.tile)}",
            )
        )
        rows.append(
            Row(label="Attacker's dice", value=f"{dice_text(roll.a)} ({score(roll.tile, roll.a)} matching)")
        )
        who = "Lictor's dice" if roll.target == LICTOR else "Defender's dice"
        rows.append(Row(label=who, value=f"{dice_text(roll.d)} ({score(roll.tile, roll.d)} matching)"))
    else:
        stage = "I" if roll.stage == 1 else "III"
        rows.append(
            Row(
                label="Quest roll",
                value=f"{seat_word(pos.seat)}'s {MINI_WORDS[roll.mini]}, Stage {stage} {SKILLS[roll.skill]} "
                f"quest in {ids[roll.where]}: the challenge needs {dice_text(roll.need)}",
            )
        )
        ok = contains(roll.a, roll.need) if roll.a else False
        rows.append(
            Row(label="Dice", value=f"{dice_text(roll.a)}" + (" (shows the challenge)" if ok else ""))
        )
    pending = sum(roll.to_roll)
    if pending:
        rows.append(Row(label="Dice to roll", value=str(pending)))
    used = sum(roll.gadgets_used)
    if used:
        rows.append(Row(label="Gadgets played on this roll", value=str(used)))
    return rows


def objective_name(c: Content, pos: Pos, obj: int) -> str:
    if obj == STAGE2_OBJ:
        return "the Stage II offense quest"
    slot, ti = divmod(obj, 3)
    card = c.side_cards[pos.side_cards[slot]]
    return f"'{task_name(card.tasks[ti].kind)}' (side objective {card.id})"


def hand_text(hand: Sequence[int | None]) -> str:
    """``"Reroll ×2, Flip, 1 face-down card"``."""
    seen = [gadget_name(g) for g in hand if g is not None]
    counts = {name: seen.count(name) for name in seen}
    hidden = sum(1 for g in hand if g is None)
    parts = [name if n == 1 else f"{name} ×{n}" for name, n in counts.items()]
    parts += [plural(hidden, "face-down card")] if hidden else []
    return ", ".join(parts) if parts else "none"


def token_name(mask: int) -> str:
    return "/".join(ITYPES[i] for i in range(4) if (mask >> i) & 1)


def _storylines(c: Content, p: Seat) -> str:
    """A player's storylines: the Stage II or III card held per skill, or complete."""
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
    return "; ".join(story) or "none started"


def _player_section(game: TiberpunkGame, pos: Pos, p: Seat, viewer: Viewer) -> Section:
    """A player's holdings: coins, triumph tokens, skills, favor, influence, cards, storylines."""
    c = pack_of(game)
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
            value=", ".join(f"{SKILLS[k]} {plural(p.dice[k], 'die', 'dice')}" for k in range(3)),
            seat=p.seat,
        ),
    ]
    favor = "centre (none yet)" if p.favor < 0 else god_name(p.favor)
    bless = and_words([god_name(g) for g in p.blessings]) or "none"
    rows.append(Row(label="Divine favor", value=f"{favor}; blessings: {bless}", seat=p.seat))
    infl = [f"Temple of {god_name(g)}" for g in p.temples] + [f"hub {c.district_ids[d]}" for d in p.hubs]
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
    rows.append(Row(label=label, value=hand_text(p.hand), seat=p.seat))
    ships = [f"{ITYPES[c.ship_types[k]]} {n}" for k, n in enumerate(p.ships) if n]
    rows.append(Row(label="Spaceship cards", value=", ".join(ships) or "none", seat=p.seat))
    rows.append(
        Row(
            label="Interaction tokens",
            value=f"available: {', '.join(token_name(t) for t in p.tokens) or 'none'}; "
            f"on the wheel: {', '.join(token_name(t) for t in p.wheel) or 'none'}",
            seat=p.seat,
        )
    )
    rows.append(Row(label="Storylines", value=_storylines(c, p), seat=p.seat))
    where = f"character {district_name(c, p.char)}, drone {district_name(c, p.drone)}"
    rows.append(Row(label="Miniatures", value=where, seat=p.seat))
    if p.ability >= 0:
        ab = c.abilities[p.ability]
        extra = f" (used {p.reboots} of {len(ab.costs)})" if ab.costs else ""
        rows.append(Row(label="Ability", value=ab.name + extra, seat=p.seat))
    title = f"{seat_word(p.seat)}" + (" — you" if viewer == p.seat else "")
    return Section(title=title, rows=tuple(rows), seat=p.seat)


def describe(game: TiberpunkGame, state: State, viewer: Viewer = REFEREE) -> Description:
    """What ``viewer`` may see, in the rulebook's words (rulebook: tiberpunk/game-overview).

    A seat sees its own gadget cards and the others' only as a count (plus any returned face up by
    Recharge); the spectator sees no hand; the referee sees every hand. The first sections (the
    board, the dice, one line per player) fit an 80x24 terminal; the details follow.
    """
    c = pack_of(game)
    pos = read_position(game, state, viewer)
    board_rows = []
    for d in range(len(c.district_ids)):
        pieces = _pieces_in(c, pos, d)
        if pieces:
            board_rows.append(Row(label=district_name(c, d, long=True), value=", ".join(pieces)))
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
        headline=headline_text(pos),
        step=step_text(game, pos),
        sections=tuple(sections),
    )


def _player_row(pos: Pos, p: Seat, viewer: Viewer) -> Row:
    """One line per player: tokens, coins, gadgets, favor (the compact overview)."""
    label = seat_word(p.seat) + (" — you" if viewer == p.seat else "")
    if p.seat == pos.seat and pos.phase != PH_OVER:
        label += " ▶"
    favor = "no favor yet" if p.favor < 0 else f"favor {god_name(p.favor)}"
    value = (
        f"{plural(p.total, 'triumph token')}, {plural(p.coins, 'coin')}, "
        f"{plural(len(p.hand), 'gadget')}, {favor}"
    )
    return Row(label=label, value=value, seat=p.seat)


def _structures_section(c: Content, pos: Pos) -> Section:
    """The temples (blessings left, influence) and the upgrade hubs (influence)."""
    rows = []
    for g, pair in enumerate(c.temples):
        owners = [seat_colour(p.seat)[0] for p in pos.players if g in p.temples]
        rows.append(
            Row(
                label=f"Temple of {god_name(g)} ({c.district_ids[pair[0]]}|{c.district_ids[pair[1]]})",
                value=f"{plural(pos.bless_left[g], 'blessing tile')} left; "
                f"influence: {', '.join(owners) or 'none'}",
            )
        )
    hubs = []
    for d in c.hubs:
        owners = [seat_colour(p.seat)[0] for p in pos.players if d in p.hubs]
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
            who = str(face_texts()["skills"][SKILLS[q.skill]]["miniatures"])
            quests.append(
                f"{SKILLS[k]} card {q.id} in {c.district_ids[q.district]} (your {who}; reward: 2 coins and "
                f"{reward_text(0, q.reward)}; {plural(n, 'card')} in the stack)"
            )
        else:
            quests.append(f"{SKILLS[k]}: stack empty")
    supply.append(Row(label="Stage I quests", value="; ".join(quests)))
    stacks = []
    for k, n in enumerate(pos.ship_stacks):
        lock = " (locked)" if k == pos.lock else ""
        stacks.append(f"{ITYPES[c.ship_types[k]]} {n}{lock}")
    supply.append(Row(label="Spaceship stacks", value=", ".join(stacks)))
    disc = hand_text(pos.gadget_discard) if pos.gadget_discard else "empty"
    supply.append(Row(label="Gadget deck", value=f"{plural(pos.gadget_deck, 'card')}; discard pile: {disc}"))
    last = [
        f"Stage {'I' if i == 0 else 'III'} deck {pos.challenge_decks[i]}"
        + (f" (last revealed: {dice_text(need)})" if need else "")
        for i, need in enumerate(pos.last_challenges)
    ]
    supply.append(Row(label="Challenge cards", value="; ".join(last)))
    supply.append(Row(label="Combat tiles", value="; ".join(tile_name(t) for t in pos.tiles)))
    side = []
    for i in pos.side_cards:
        side_card = c.side_cards[i]
        side.append(f"{side_card.id}: " + ", ".join(task_name(t.kind) for t in side_card.tasks))
    supply.append(Row(label="Side objectives", value="; ".join(side)))
    return Section(title="Supply and objectives", rows=tuple(supply))
