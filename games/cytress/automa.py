"""The solo automa: its scouting, its travel turns with the AI action cascade, and its checklists.

rule: cytress/solo-gameplay - the automa is always first; it gains and spends no resources; in
phase 2 its AI action cards pick the districts its leader blocks; in phase 3 each of its 3 turns
draws an AI action card, removes the topmost matching card from the AI tracker board (revealing an
action of that faction's space), acts, and shuffles both cards back into the deck.
rule: cytress/solo-ai-actions - the first card removed from a space reveals "take an intel card",
the second "drop a waste tube" (or, if the checklist finds no hex, take an intel card), the third
the bonus "complete bounty" and then a normal action (a tube, else intel). The intel-choice
priority, the crew placement checklist, the waste tube checklist and height rule, and the bounty's
two effects are each a function below. Where a checklist leaves a tie "at the player's
discretion" the solo player decides (a decision point of seat 0: ``AUTOMA_*`` steps).

Readings where the text is silent (docs/cytress.md lists them): a faction space with no card
left still acts with all its actions revealed (a tube, else intel; no second bounty); "an even
number of rival crews and AI crews" means as many of each, at least one; with no matching hex
left the solo player picks any empty hex; when neither height rule applies the tube is 3 high.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.cytress.board import adjacent_counts, strict_leader
from games.cytress.content import AI_CARDS_PER_FACTION, Content
from games.cytress.crews import place_crew
from games.cytress.intel import take_from_row
from games.cytress.scouting import scout
from games.cytress.state import (
    AUTOMA,
    AUTOMA_CREW,
    AUTOMA_MOVE,
    AUTOMA_TUBE,
    LEVELS,
    NOBODY,
    NONE,
    OP_BOUNTY_ASCEND,
    OP_BOUNTY_CREW,
    OP_INTEL,
    OP_NORMAL,
    OP_PLACE,
    Automa,
    Pending,
    make_automa,
)
from games.cytress.tubes import drop_tube
from games.cytress.work import Pos, Work

__all__ = [
    "ai_movable",
    "answer",
    "bounty_ascend_level",
    "choose_intel",
    "crew_candidates",
    "run_turn",
    "scout_first",
    "scout_second",
    "tube_candidates",
    "tube_height",
]

PLAYER = 0
"""The solo player's seat (the automa's rival)."""


def _faction(card: int) -> int:
    return card // AI_CARDS_PER_FACTION


def _automa(w: Work) -> Automa:
    a = w.automa
    assert a is not None
    return a


# ---------------------------------------------------------------- phase 2
def scout_first(content: Content, w: Work) -> None:
    """rule: cytress/solo-gameplay - draw an AI action card; the automa's leader goes to that
    faction's (largest) scouting spot, blocking it; it gains nothing (the player's Privateer
    lifepath still pays)."""
    a = _automa(w)
    card = a.deck[0]
    w.automa = make_automa(a.deck[1:], a.tracker, a.intel, a.records, (*a.drawn, card), a.program, a.moving)
    scout(content, w, AUTOMA, 2 * _faction(card))


def scout_second(content: Content, w: Work) -> None:
    """rule: cytress/solo-gameplay - draw until a card shows a district where neither leader is,
    move the automa's leader there, then shuffle every revealed card back into the deck."""
    a = _automa(w)
    deck, drawn = list(a.deck), list(a.drawn)
    busy = {w.leader[PLAYER] // 2, w.leader[AUTOMA] // 2}
    while deck:
        card = deck.pop(0)
        drawn.append(card)
        if _faction(card) not in busy:
            scout(content, w, AUTOMA, 2 * _faction(card))
            break
    w.automa = make_automa(
        _reshuffled(w, deck + drawn), a.tracker, a.intel, a.records, (), a.program, a.moving
    )


_MASK64 = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


def _reshuffled(w: Work, cards: list[int]) -> tuple[int, ...]:
    """rule: cytress/solo-gameplay - the AI action deck shuffled with the revealed cards: the
    permutation is read from one 64-bit word, the ``w.shuffles``-th output of a SplitMix64 stream
    seeded by the game's hidden seed (Fisher-Yates, each swap index a digit of the word in mixed
    radix: 16 cards need 2^44.2 of its 2^64 values, so every order is as likely to within 10^-6).

    The automa reshuffles some 20 times a game; a fresh seeded ``random.Random`` for each cost more
    than the rest of its turn. The seed is hidden (0 in an observation, fresh in ``sample_state``),
    so the future order does not leak; the same seed gives the same game."""
    z = (w.seed + (w.shuffles + 1) * _GAMMA) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    z ^= z >> 31
    w.shuffles += 1
    for i in range(len(cards) - 1, 0, -1):
        z, j = divmod(z, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return tuple(cards)


# ---------------------------------------------------------------- phase 3: a turn
def begin_turn(content: Content, w: Work) -> None:
    """rule: cytress/solo-gameplay - draw an AI action card and remove the topmost matching card
    from the AI tracker board; rule: cytress/solo-ai-actions - the third removal from a space
    completes the matching bounty first (if the automa has none against that faction)."""
    a = _automa(w)
    card = a.deck[0]
    f = _faction(card)
    drawn = [card]
    tracker = list(a.tracker)
    reveal = 0
    if tracker[f]:
        drawn.append(tracker[f][0])
        tracker[f] = tracker[f][1:]
        reveal = 3 - len(tracker[f])
    program = []
    if reveal == 3:
        stack = w.bounty_stack[f]
        held = {content.bounties[b].faction for b in w.bounties[AUTOMA]}
        if stack and f not in held:
            bounty = content.bounties[stack[0]]
            w.bounty_stack_()[f] = stack[1:]
            bounties = w.bounties_()
            bounties[AUTOMA] = (*bounties[AUTOMA], bounty.id)
            program += [OP_BOUNTY_CREW * 16 + bounty.hex, OP_BOUNTY_ASCEND * 16]
    program.append((OP_INTEL if reveal == 1 else OP_NORMAL) * 16 + f)
    w.automa = make_automa(
        a.deck[1:], tuple(tracker), a.intel, a.records, tuple(drawn), tuple(program), a.moving
    )


def run_turn(content: Content, w: Work) -> bool:
    """Carry on the automa's turn; False when it waits for the solo player's choice, True when the
    turn is over (both cards shuffled back into the deck: rule: cytress/solo-gameplay)."""
    if not _automa(w).drawn:
        begin_turn(content, w)
    while _automa(w).program:
        a = _automa(w)
        code, arg = divmod(a.program[0], 16)
        if code in (OP_BOUNTY_CREW, OP_PLACE):
            if not place(w, arg):
                return False
            _pop(w)
        elif code == OP_BOUNTY_ASCEND:
            level = bounty_ascend_level(w)
            if level:
                stratos = w.stratos_()
                stratos[LEVELS * AUTOMA + level - 1] -= 1
                stratos[LEVELS * AUTOMA + level] += 1
            _pop(w)
        elif code == OP_NORMAL:
            hexes = tube_candidates(w)
            if not hexes:
                _replace_head(w, OP_INTEL * 16 + arg)
            elif len(hexes) == 1:
                drop(w, hexes[0])
                _pop(w)
            else:
                _ask(w, AUTOMA_TUBE, hexes)
                return False
        else:  # OP_INTEL
            card = choose_intel(content, w, arg)
            if card == NOBODY:
                _pop(w)
            else:
                take_from_row(content, w, card)
                a = _automa(w)
                w.automa = make_automa(
                    a.deck, a.tracker, (*a.intel, card), a.records, a.drawn, a.program, a.moving
                )
                _replace_head(w, OP_PLACE * 16 + arg)
    a = _automa(w)
    w.automa = make_automa(
        _reshuffled(w, [*a.deck, *a.drawn]), a.tracker, a.intel, a.records, (), a.program, a.moving
    )
    return True


def _pop(w: Work) -> None:
    a = _automa(w)
    w.automa = make_automa(a.deck, a.tracker, a.intel, a.records, a.drawn, a.program[1:], NOBODY)


def _replace_head(w: Work, op: int) -> None:
    a = _automa(w)
    w.automa = make_automa(a.deck, a.tracker, a.intel, a.records, a.drawn, (op, *a.program[1:]), a.moving)


def _ask(w: Work, step: int, options: list[int]) -> None:
    """The solo player decides a tie of the automa's checklist ("you choose")."""
    w.step = step
    w.actor = PLAYER
    w.pending = Pending(options=tuple(options))


def answer(w: Work, step: int, h: int) -> None:
    """The solo player's choice for the automa: the hex of its crew or tube, or the crew to move."""
    if step == AUTOMA_MOVE:
        answer_lift(w, h)
    elif step == AUTOMA_CREW:
        place_crew(w, AUTOMA, h)
        _pop(w)
    else:
        drop(w, h)
        _pop(w)
    w.pending = Pending()
    w.step = NONE  # the automa's turn goes on


# ---------------------------------------------------------------- take an intel card
def choose_intel(content: Content, w: Work, faction: int) -> int:
    """rule: cytress/solo-ai-actions - from the top, the first face-up intel card of ``faction``
    whose target helps complete a set of the 4 faction targets (a target it has fewest of); if
    none helps, the topmost (-1: the board is empty)."""
    cards = [c for c in w.intel_row[faction] if c != NOBODY]
    if not cards:
        return NOBODY
    targets = [0, 0, 0, 0]
    for c in _automa(w).intel:
        targets[content.intel[c].target] += 1
    low = min(targets)
    for c in cards:
        if targets[content.intel[c].target] == low:
            return c
    return cards[0]


# ---------------------------------------------------------------- the crew placement checklist
def place(w: Work, colour: int) -> bool:
    """rule: cytress/solo-ai-actions - place one automa crew by the checklist (a crew of all 12
    placed first moves from a hex where it is not vying for, or losing, an adjacent tube; none:
    it passes). True when done, False when the solo player must choose."""
    a = _automa(w)
    if w.supply[AUTOMA] <= 0:
        movable = ai_movable(w)
        if not movable:
            return True
        if len(movable) > 1:
            _ask(w, AUTOMA_MOVE, movable)
            return False
        answer_lift(w, movable[0])
        a = _automa(w)
    options = crew_candidates(w, colour, exclude=a.moving)
    if not options:
        if a.moving != NOBODY:  # nowhere else to go: it stays
            place_crew(w, AUTOMA, a.moving)
        return True
    if len(options) == 1:
        place_crew(w, AUTOMA, options[0])
        return True
    _ask(w, AUTOMA_CREW, options)
    return False


def answer_lift(w: Work, h: int) -> None:
    """Take the automa's crew off ``h`` to move it."""
    w.crew_()[h] = NOBODY
    w.supply_()[AUTOMA] += 1
    a = _automa(w)
    w.automa = make_automa(a.deck, a.tracker, a.intel, a.records, a.drawn, a.program, h)


def ai_movable(w: Pos, me: int = AUTOMA) -> list[int]:
    """rule: cytress/solo-ai-actions - the automa's crews that may move once all 12 are placed:
    on a hex adjacent to no waste tube, or adjacent to one whose control it is losing (a rival has
    more crews around it)."""
    adj, crew, tube, owners = w.map.layout.adjacent, w.crew, w.tube, w.owners
    out = []
    for h, o in enumerate(crew):
        if o != me:
            continue
        tubes = [t for t in adj[h] if tube[t]]
        if not tubes or any(_losing(adjacent_counts(adj[t], crew, owners), me) for t in tubes):
            out.append(h)
    return out


def _losing(counts: list[int], me: int) -> bool:
    return max(c for o, c in enumerate(counts) if o != me) > counts[me]


def _rival_most(counts: list[int], me: int) -> int:
    return max((c for o, c in enumerate(counts) if o != me), default=0)


def crew_candidates(
    w: Pos, colour: int, *, exclude: int = NOBODY, me: int = AUTOMA, allowed: Sequence[int] | None = None
) -> list[int]:
    """rule: cytress/solo-ai-actions - the hexes the checklist allows, best tier only: with tubes on
    the mini-map, any empty hex next to a tube where the automa (1) gains control (tallest tube
    first), else (2) makes a rival lose it (taller first), else (3) adds to the tube it controls by
    the lowest margin (tallest first); otherwise a hex of ``colour`` next to (1) as many rival as
    automa crews (fewest crews), (2) automa crews (fewest), (3) rival crews (fewest); ties and the
    rest are the solo player's choice. ``me``/``allowed``: the same checklist for a seat played by
    the automa policy, among its legal hexes."""
    adj, crew, tube, owners = w.map.layout.adjacent, w.crew, w.tube, w.owners
    if allowed is None:
        empties = [h for h in range(len(crew)) if crew[h] == NOBODY and not tube[h] and h != exclude]
    else:
        empties = list(allowed)
    if any(tube):
        rogue = _rogue(adj, crew, tube, empties, me=me, owners=owners)
        if rogue:
            return rogue
    faction = w.map.faction
    matching = [h for h in empties if faction[h] == colour] if colour >= 0 and allowed is None else empties
    if not matching:
        return empties
    rated = []
    for h in matching:
        c = adjacent_counts(adj[h], crew, owners)
        mine = c[me]
        rated.append((h, mine, sum(c) - mine))
    tiers = (
        [(a + r, h) for h, a, r in rated if a == r >= 1],
        [(a, h) for h, a, r in rated if a >= 1],
        [(r, h) for h, a, r in rated if r >= 1],
    )
    for tier in tiers:
        if tier:
            best = min(k for k, _ in tier)
            return [h for k, h in tier if k == best]
    return matching


def _rogue(
    adj: Sequence[Sequence[int]],
    crew: Sequence[int],
    tube: Sequence[int],
    empties: list[int],
    *,
    me: int,
    owners: int,
) -> list[int]:
    """The rogue placements next to waste tubes (see ``crew_candidates``), or []."""
    before: dict[int, tuple[list[int], int]] = {}
    for t, height in enumerate(tube):
        if height:
            counts = adjacent_counts(adj[t], crew, owners)
            before[t] = (counts, strict_leader(counts))
    gains: dict[int, int] = {}
    losses: dict[int, int] = {}
    for h in empties:
        for t in adj[h]:
            if t not in before:
                continue
            counts, who = before[t]
            after = list(counts)
            after[me] += 1
            now = strict_leader(after)
            if who != me and now == me:
                gains[h] = max(gains.get(h, 0), tube[t])
            elif who not in (me, NOBODY) and now != who:
                losses[h] = max(losses.get(h, 0), tube[t])
    for table in (gains, losses):
        if table:
            best = max(table.values())
            return sorted(h for h, v in table.items() if v == best)
    spots = set(empties)
    held = []
    for t, (counts, who) in before.items():
        if who == me and any(n in spots for n in adj[t]):
            held.append((counts[me] - _rival_most(counts, me), -tube[t], t))
    if not held:
        return []
    low = min(held)[:2]
    tubes = [t for m, neg, t in held if (m, neg) == low]
    return sorted({n for t in tubes for n in adj[t] if n in spots})


# ---------------------------------------------------------------- the waste tube checklist
def tube_candidates(w: Pos, me: int = AUTOMA) -> list[int]:
    """rule: cytress/solo-ai-actions - hexes with an automa crew where dropping a tube (1) gives up
    control of no adjacent tube it controls and (2) leaves it at least neutral around the new tube;
    those with the most adjacent automa crews (ties: the solo player's choice). [] when none (or no
    tube section is left)."""
    if w.tubes_left + w.tubes_box <= 0:
        return []
    adj, crew, tube, owners = w.map.layout.adjacent, w.crew, w.tube, w.owners
    rated = []
    for h, o in enumerate(crew):
        if o != me:
            continue
        keeps = True
        for t in adj[h]:
            if tube[t]:
                counts = adjacent_counts(adj[t], crew, owners)
                if strict_leader(counts) == me:
                    counts[me] -= 1
                    if strict_leader(counts) != me:
                        keeps = False
                        break
        if not keeps:
            continue
        around = adjacent_counts(adj[h], crew, owners)
        if around[me] >= _rival_most(around, me):
            rated.append((around[me], h))
    if not rated:
        return []
    best = max(a for a, _ in rated)
    return [h for a, h in rated if a == best]


def tube_height(w: Pos, me: int = AUTOMA) -> int:
    """rule: cytress/solo-ai-actions - from level 1 up, the first level where one more crew
    establishes the automa's majority (a tied level); if it has the majority, or the player has
    none, on all 3 levels: 3; neither (reading): 3. At most the sections left."""
    s, owners = w.stratos, w.owners
    height = 3
    for level in range(LEVELS):
        mine = s[LEVELS * me + level]
        if mine == max(s[LEVELS * o + level] for o in range(owners) if o != me):
            height = level + 1
            break
    return min(height, w.tubes_left + w.tubes_box)


def drop(w: Work, h: int) -> None:
    """Drop the automa's tube on ``h`` (its crew ascends) and record it with a tube piece from the box
    on the AI tracker board."""
    drop_tube(w, AUTOMA, h, tube_height(w))
    a = _automa(w)
    if w.tubes_box > 0:
        w.tubes_box -= 1
        w.automa = make_automa(a.deck, a.tracker, a.intel, a.records + 1, a.drawn, a.program, a.moving)


# ---------------------------------------------------------------- the bounty's ascent
def bounty_ascend_level(w: Pos, me: int = AUTOMA) -> int:
    """rule: cytress/solo-ai-actions - starting from level 1, the level an automa crew moves up from:
    one where moving it neither gives up the automa's majority nor hands the majority to the solo
    player (0: none)."""
    s, owners = w.stratos, w.owners
    for level in (1, 2):
        a = s[LEVELS * me + level - 1]
        p = max(s[LEVELS * o + level - 1] for o in range(owners) if o != me)
        if not a:
            continue
        gives_up = a > p and not a - 1 > p
        cedes = not p > a and p > a - 1
        if not gives_up and not cedes:
            return level
    return 0
