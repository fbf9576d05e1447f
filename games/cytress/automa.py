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
from itertools import compress

from games.core.records import replace
from games.cytress.board import adjacent_counts, ascend, strict_leader
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
    NO_PENDING,
    NOBODY,
    NONE,
    OP_BOUNTY_ASCEND,
    OP_BOUNTY_CREW,
    OP_INTEL,
    OP_NORMAL,
    OP_PLACE,
    Automa,
    Pending,
)
from games.cytress.tubes import buildable, drop_tube
from games.cytress.work import Pos, Work, put, set_rebel

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
    w.automa = Automa(a.deck[1:], a.tracker, a.intel, a.records, (*a.drawn, card), a.program, a.moving)
    scout(content, w, AUTOMA, 2 * _faction(card))


def scout_second(content: Content, w: Work) -> None:
    """rule: cytress/solo-gameplay - draw until a card shows a district where neither leader is,
    move the automa's leader there, then shuffle every revealed card back into the deck."""
    a = _automa(w)
    deck, drawn = list(a.deck), list(a.drawn)
    busy = {w.rebels[PLAYER].leader // 2, w.rebels[AUTOMA].leader // 2}
    while deck:
        card = deck.pop(0)
        drawn.append(card)
        if _faction(card) not in busy:
            scout(content, w, AUTOMA, 2 * _faction(card))
            break
    w.automa = Automa(_reshuffled(w, deck + drawn), a.tracker, a.intel, a.records, (), a.program, a.moving)


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
    tracker, drawn, program = _begin(content, w, a)
    w.automa = Automa(a.deck[1:], tracker, a.intel, a.records, drawn, program, a.moving)


def _begin(
    content: Content, w: Work, a: Automa
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...]]:
    """``begin_turn``'s (tracker, cards drawn, program); the card drawn is ``a.deck[0]``."""
    card = a.deck[0]
    f = card // AI_CARDS_PER_FACTION
    space = a.tracker[f]
    if not space:
        return a.tracker, (card,), ((OP_NORMAL * 16 + f),)
    tracker = list(a.tracker)
    tracker[f] = space[1:]
    reveal = 4 - len(space)
    if reveal == 1:
        return tuple(tracker), (card, space[0]), ((OP_INTEL * 16 + f),)
    op = OP_NORMAL * 16 + f
    if reveal == 3:
        stack = w.bounty_stack[f]
        if stack and all(content.bounties[b].faction != f for b in w.rebels[AUTOMA].bounties):
            bounty = content.bounties[stack[0]]
            w.bounty_stack = put(w.bounty_stack, f, stack[1:])
            rogue = w.rebels[AUTOMA]
            set_rebel(w, AUTOMA, replace(rogue, bounties=(*rogue.bounties, bounty.id)))
            return (
                tuple(tracker),
                (card, space[0]),
                (OP_BOUNTY_CREW * 16 + bounty.hex, OP_BOUNTY_ASCEND * 16, op),
            )
    return tuple(tracker), (card, space[0]), (op,)


def run_turn(content: Content, w: Work) -> bool:
    """Carry on the automa's turn; False when it waits for the solo player's choice, True when the
    turn is over (both cards shuffled back into the deck: rule: cytress/solo-gameplay).

    The automa's record is kept in locals and written back once (when the turn ends or waits for
    the solo player), not rebuilt per step."""
    a: Automa = w.automa  # type: ignore[assignment]
    deck, tracker, drawn, program = a.deck, a.tracker, a.drawn, a.program
    if not drawn:
        tracker, drawn, program = _begin(content, w, a)
        deck = deck[1:]
    intel, records, moving = a.intel, a.records, a.moving
    while program:
        op = program[0]
        code, arg = op >> 4, op & 15  # ``OP_* * 16 + argument``
        if code == OP_INTEL:
            card = _intel_choice(content, w.intel_row[arg], intel)
            if card == NOBODY:
                program, moving = program[1:], NOBODY
            else:
                take_from_row(content, w, card)
                intel = (*intel, card)
                program = (OP_PLACE * 16 + arg, *program[1:])
        elif code == OP_NORMAL:
            hexes = tube_candidates(w)
            if not hexes:
                program = (OP_INTEL * 16 + arg, *program[1:])
            elif len(hexes) == 1:
                records += _drop(w, hexes[0])
                program, moving = program[1:], NOBODY
            else:
                w.automa = Automa(deck, tracker, intel, records, drawn, program, moving)
                _ask(w, AUTOMA_TUBE, hexes)
                return False
        elif code == OP_BOUNTY_ASCEND:
            level = bounty_ascend_level(w)
            if level:
                ascend(w, AUTOMA, level)
            program, moving = program[1:], NOBODY
        else:  # OP_BOUNTY_CREW, OP_PLACE
            done, moving = _place(w, arg, moving)
            if not done:
                w.automa = Automa(deck, tracker, intel, records, drawn, program, moving)
                return False
            program, moving = program[1:], NOBODY
    w.automa = Automa(_reshuffled(w, [*deck, *drawn]), tracker, intel, records, (), program, moving)
    return True


def _pop(w: Work) -> None:
    a = _automa(w)
    w.automa = Automa(a.deck, a.tracker, a.intel, a.records, a.drawn, a.program[1:], NOBODY)


def _ask(w: Work, step: int, options: list[int]) -> None:
    """The solo player decides a tie of the automa's checklist ("you choose")."""
    w.step = step
    w.actor = PLAYER
    w.pending = Pending(-1, -1, -1, -1, 0, -1, 0, -1, tuple(options))


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
    w.pending = NO_PENDING
    w.step = NONE  # the automa's turn goes on


# ---------------------------------------------------------------- take an intel card
def choose_intel(content: Content, w: Work, faction: int) -> int:
    """rule: cytress/solo-ai-actions - from the top, the first face-up intel card of ``faction``
    whose target helps complete a set of the 4 faction targets (a target it has fewest of); if
    none helps, the topmost (-1: the board is empty)."""
    return _intel_choice(content, w.intel_row[faction], _automa(w).intel)


def _intel_choice(content: Content, row: Sequence[int], taken: Sequence[int]) -> int:
    """``choose_intel`` on a faction's face-up ``row`` for an automa holding the intel ``taken``."""
    cards = [c for c in row if c != NOBODY]
    if not cards:
        return NOBODY
    target = content.intel_target
    targets = [0, 0, 0, 0]
    for c in taken:
        targets[target[c]] += 1
    low = min(targets)
    for c in cards:
        if targets[target[c]] == low:
            return c
    return cards[0]


# ---------------------------------------------------------------- the crew placement checklist
def place(w: Work, colour: int) -> bool:
    """rule: cytress/solo-ai-actions - place one automa crew by the checklist (a crew of all 12
    placed first moves from a hex where it is not vying for, or losing, an adjacent tube; none:
    it passes). True when done, False when the solo player must choose."""
    a = _automa(w)
    done, moving = _place(w, colour, a.moving)
    if moving != _automa(w).moving:
        a = _automa(w)
        w.automa = Automa(a.deck, a.tracker, a.intel, a.records, a.drawn, a.program, moving)
    return done


def _place(w: Work, colour: int, moving: int) -> tuple[bool, int]:
    """``place`` with the automa's crew being moved (``moving``) in and out: (done, moving)."""
    if w.rebels[AUTOMA].unused <= 0:
        movable = ai_movable(w)
        if not movable:
            return True, moving
        if len(movable) > 1:
            _ask(w, AUTOMA_MOVE, movable)
            return False, moving
        moving = movable[0]
        _lift(w, moving)
    options = crew_candidates(w, colour, exclude=moving)
    if not options:
        if moving != NOBODY:  # nowhere else to go: it stays
            place_crew(w, AUTOMA, moving)
        return True, moving
    if len(options) == 1:
        place_crew(w, AUTOMA, options[0])
        return True, moving
    _ask(w, AUTOMA_CREW, options)
    return False, moving


def answer_lift(w: Work, h: int) -> None:
    """Take the automa's crew off ``h`` to move it."""
    _lift(w, h)
    a = _automa(w)
    w.automa = Automa(a.deck, a.tracker, a.intel, a.records, a.drawn, a.program, h)


def _lift(w: Work, h: int) -> None:
    """The automa's crew on ``h`` goes back among its unused crews (rule: cytress/solo-ai-actions:
    once all 12 are placed it moves one)."""
    w.crew_()[h] = NOBODY
    rogue = w.rebels[AUTOMA]
    set_rebel(w, AUTOMA, replace(rogue, unused=rogue.unused + 1))


def _positions(seq: Sequence[int], value: int) -> list[int]:
    """The indices holding ``value``, ascending (found by ``index``, not a Python loop per hex)."""
    out = []
    i = -1
    for _ in range(seq.count(value)):
        i = seq.index(value, i + 1)
        out.append(i)
    return out


def _tube_hexes(tube: Sequence[int]) -> tuple[int, ...]:
    """The hexes holding a waste tube, ascending."""
    return tuple(compress(range(len(tube)), tube))


def _empties(crew: Sequence[int], tube: Sequence[int], exclude: int) -> list[int]:
    """The empty hexes (no crew, no waste tube) but ``exclude``, ascending."""
    return [h for h in _positions(crew, NOBODY) if not tube[h] and h != exclude]


def ai_movable(w: Pos, me: int = AUTOMA) -> list[int]:
    """rule: cytress/solo-ai-actions - the automa's crews that may move once all 12 are placed:
    on a hex adjacent to no waste tube, or adjacent to one whose control it is losing (a rival has
    more crews around it)."""
    adj, crew, tube, owners = w.map.layout.adjacent, w.crew, w.tube, w.owners
    losing: dict[int, bool] = {}  # per tube, whether a rival has more crews around it than ``me``
    out = []
    for h in _positions(crew, me):
        near = False
        for t in adj[h]:
            if not tube[t]:
                continue
            near = True
            lost = losing.get(t)
            if lost is None:
                counts = adjacent_counts(adj[t], crew, owners)
                lost = losing[t] = _losing(counts, me)
            if lost:
                break
        else:
            if near:
                continue
        out.append(h)
    return out


def _losing(counts: list[int], me: int) -> bool:
    return max(c for o, c in enumerate(counts) if o != me) > counts[me]


def _rival_most(counts: list[int], me: int) -> int:
    return max((c for o, c in enumerate(counts) if o != me), default=0)


def _mine_other(adjacent: Sequence[int], crew: Sequence[int], me: int) -> tuple[int, int]:
    """(``me``'s crews, the other owner's crews) on the hexes ``adjacent``, with two owners."""
    mine = other = 0
    for n in adjacent:
        o = crew[n]
        if o >= 0:
            if o == me:
                mine += 1
            else:
                other += 1
    return mine, other


def _around(adjacent: Sequence[int], crew: Sequence[int], me: int, owners: int) -> tuple[int, int]:
    """(``me``'s crews, the most crews of one rival) on the hexes ``adjacent``."""
    if owners == 2:
        return _mine_other(adjacent, crew, me)
    counts = adjacent_counts(adjacent, crew, owners)
    return counts[me], _rival_most(counts, me)


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
    view = w.map
    adj, crew, tube, owners = view.layout.adjacent, w.crew, w.tube, w.owners
    spots = None if allowed is None else set(allowed)
    tubes = _tube_hexes(tube)
    if tubes:
        if spots is None and owners == 2:
            rogue = _rogue_solo(adj, crew, tube, tubes, exclude=exclude, me=me)
        else:
            rogue = _rogue(adj, crew, tube, tubes, spots=spots, exclude=exclude, me=me, owners=owners)
        if rogue:
            return rogue
    if allowed is not None:
        matching = list(allowed)
    elif colour >= 0:
        matching = [h for h in view.by_faction[colour] if crew[h] < 0 and not tube[h] and h != exclude]
        if not matching:
            return _empties(crew, tube, exclude)
    else:
        matching = _empties(crew, tube, exclude)
    return _colour_tiers(adj, crew, matching, me, owners)


def _colour_tiers(
    adj: Sequence[Sequence[int]], crew: Sequence[int], matching: list[int], me: int, owners: int
) -> list[int]:
    """The colour checklist's best tier among ``matching``: next to as many rival as own crews,
    else own crews, else rival crews (each fewest first); none of them: ``matching``."""
    even: list[tuple[int, int]] = []
    ours: list[tuple[int, int]] = []
    theirs: list[tuple[int, int]] = []
    solo = owners == 2
    for h in matching:
        if solo:
            a, r = _mine_other(adj[h], crew, me)
        else:
            c = adjacent_counts(adj[h], crew, owners)
            a = c[me]
            r = sum(c) - a
        if a:
            if a == r:
                even.append((a + r, h))
            ours.append((a, h))
        if r:
            theirs.append((r, h))
    for tier in (even, ours, theirs):
        if tier:
            best = min(tier)[0]
            return [h for k, h in tier if k == best]
    return matching


_GAIN, _LOSS, _HELD, _NEITHER = range(4)
"""How one more crew of the automa changes a tube's control: it takes it, it takes it from a rival
(a tie), the automa holds it already, or none of these."""


def _rate(near: Sequence[int], crew: Sequence[int], me: int, owners: int) -> tuple[int, int]:
    """(``_GAIN``/``_LOSS``/``_HELD``/``_NEITHER``, ``me``'s margin when it holds the tube) for a tube
    whose adjacent hexes are ``near``."""
    if owners == 2:  # solo: ``me`` against one rival, no list of counts
        mine, other = _mine_other(near, crew, me)
        if mine > other:
            return _HELD, mine - other
        if mine == other:  # nobody controls it: one more crew takes it
            return _GAIN, 0
        # the rival controls it: one more crew ties it when it leads by one
        return (_LOSS if mine + 1 == other else _NEITHER), 0
    counts = adjacent_counts(near, crew, owners)
    who = strict_leader(counts)
    if who == me:
        return _HELD, counts[me] - _rival_most(counts, me)
    counts[me] += 1
    now = strict_leader(counts)
    if now == me:
        return _GAIN, 0
    return (_LOSS if who not in (NOBODY, now) else _NEITHER), 0


def _rogue(
    adj: Sequence[Sequence[int]],
    crew: Sequence[int],
    tube: Sequence[int],
    tubes: Sequence[int],
    *,
    spots: set[int] | None,
    exclude: int,
    me: int,
    owners: int,
) -> list[int]:
    """The rogue placements next to waste tubes (see ``crew_candidates``), or []. The places are
    ``spots`` (None: the empty hexes but ``exclude``); against one rival on the empty hexes,
    ``_rogue_solo`` gives the same answer faster.

    One more crew of ``me`` next to a tube changes its control the same whichever empty hex next to
    it takes the crew, so each tube is rated once and its rating goes to its free neighbours."""
    gains: dict[int, int] = {}
    losses: dict[int, int] = {}
    held = []
    for t in tubes:
        near = adj[t]
        if spots is None:
            free = [n for n in near if crew[n] < 0 and not tube[n] and n != exclude]
        else:
            free = [n for n in near if n in spots]
        if not free:
            continue
        kind, margin = _rate(near, crew, me, owners)
        height = tube[t]
        if kind == _HELD:
            held.append((margin, -height, t, free))
        elif kind != _NEITHER:
            table = gains if kind == _GAIN else losses
            for n in free:
                if table.get(n, 0) < height:
                    table[n] = height
    return _pick(gains, losses, held)


def _pick(
    gains: dict[int, int], losses: dict[int, int], held: list[tuple[int, int, int, list[int]]]
) -> list[int]:
    """The rogue tiers' answer: the hexes gaining the tallest tube, else making a rival lose the
    tallest, else next to the held tube of the lowest margin (tallest first); ascending."""
    for table in (gains, losses):
        if table:
            best = max(table.values())
            out = [h for h, v in table.items() if v == best]
            out.sort()
            return out
    if not held:
        return []
    low = min(held)[:2]
    return sorted({n for m, neg, _, free in held if (m, neg) == low for n in free})


def _rogue_solo(
    adj: Sequence[Sequence[int]],
    crew: Sequence[int],
    tube: Sequence[int],
    tubes: Sequence[int],
    *,
    exclude: int,
    me: int,
) -> list[int]:
    """``_rogue`` against one rival on the empty hexes but ``exclude`` (``_rate`` inlined with the
    free neighbours found in the same pass: the automa's crew checklist runs this on most turns)."""
    gains: dict[int, int] = {}
    losses: dict[int, int] = {}
    held = []
    for t in tubes:
        free = []
        mine = other = 0
        for n in adj[t]:
            o = crew[n]
            if o < 0:
                if not tube[n] and n != exclude:
                    free.append(n)
            elif o == me:
                mine += 1
            else:
                other += 1
        if not free:
            continue
        height = tube[t]
        if mine > other:  # held
            held.append((mine - other, -height, t, free))
            continue
        if mine == other:  # nobody controls it: one more crew takes it
            table = gains
        elif mine + 1 == other:  # the rival leads by one: one more crew ties it
            table = losses
        else:
            continue
        for n in free:
            if table.get(n, 0) < height:
                table[n] = height
    return _pick(gains, losses, held)


# ---------------------------------------------------------------- the waste tube checklist
def _leads_by_one(near: Sequence[int], crew: Sequence[int], me: int) -> bool:
    """``_fragile`` against one rival: ``me`` has exactly one crew more than the rival on ``near``."""
    mine, other = _mine_other(near, crew, me)
    return mine == other + 1


def _fragile(near: Sequence[int], crew: Sequence[int], me: int, owners: int) -> bool:
    """Whether ``me`` controls the tube with adjacent hexes ``near`` by one crew (losing one loses it)."""
    if owners == 2:
        return _leads_by_one(near, crew, me)
    counts = adjacent_counts(near, crew, owners)
    if strict_leader(counts) != me:
        return False
    counts[me] -= 1
    return strict_leader(counts) != me


def tube_candidates(w: Pos, me: int = AUTOMA) -> list[int]:
    """rule: cytress/solo-ai-actions - hexes with an automa crew where dropping a tube (1) gives up
    control of no adjacent tube it controls and (2) leaves it at least neutral around the new tube;
    those with the most adjacent automa crews (ties: the solo player's choice). [] when none (or no
    tube section is left)."""
    if buildable(w) <= 0:
        return []
    adj, crew, tube, owners = w.map.layout.adjacent, w.crew, w.tube, w.owners
    fragile: dict[int, bool] = {}
    best = -1
    out: list[int] = []
    for h in _positions(crew, me):
        mine = other = 0
        for n in adj[h]:  # a hex holds a crew or a tube, never both (validate.py)
            o = crew[n]
            if o >= 0:
                if o == me:
                    mine += 1
                else:
                    other += 1
            elif tube[n]:
                lost = fragile.get(n)
                if lost is None:
                    near = adj[n]
                    lost = fragile[n] = (
                        _leads_by_one(near, crew, me) if owners == 2 else _fragile(near, crew, me, owners)
                    )
                if lost:
                    break
        else:
            if owners != 2:
                mine, other = _around(adj[h], crew, me, owners)
            if mine >= other:
                if mine > best:
                    best, out = mine, [h]
                elif mine == best:
                    out.append(h)
    return out


def tube_height(w: Pos, me: int = AUTOMA) -> int:
    """rule: cytress/solo-ai-actions - from level 1 up, the first level where one more crew
    establishes the automa's majority (a tied level); if it has the majority, or the player has
    none, on all 3 levels: 3; neither (reading): 3. At most the sections left."""
    s, owners = [r.stratos for r in w.rebels], w.owners
    height = 3
    if owners == 2:  # one rival
        mine, other = s[me], s[1 - me]
        for level in range(LEVELS):
            if mine[level] == other[level]:
                height = level + 1
                break
    else:
        for level in range(LEVELS):
            if s[me][level] == max(s[o][level] for o in range(owners) if o != me):
                height = level + 1
                break
    return min(height, buildable(w))


def drop(w: Work, h: int) -> None:
    """Drop the automa's tube on ``h`` (its crew ascends) and record it with a tube piece from the box
    on the AI tracker board."""
    if _drop(w, h):
        a = _automa(w)
        w.automa = Automa(a.deck, a.tracker, a.intel, a.records + 1, a.drawn, a.program, a.moving)


def _drop(w: Work, h: int) -> int:
    """``drop`` but the record: 1 when a tube piece from the box records it on the tracker, else 0."""
    drop_tube(w, AUTOMA, h, tube_height(w))
    if w.tubes_box > 0:
        w.tubes_box -= 1
        return 1
    return 0


# ---------------------------------------------------------------- the bounty's ascent
def bounty_ascend_level(w: Pos, me: int = AUTOMA) -> int:
    """rule: cytress/solo-ai-actions - starting from level 1, the level an automa crew moves up from:
    one where moving it neither gives up the automa's majority nor hands the majority to the solo
    player (0: none)."""
    s, owners = [r.stratos for r in w.rebels], w.owners
    for level in (1, 2):
        a = s[me][level - 1]
        p = max(s[o][level - 1] for o in range(owners) if o != me)
        if not a:
            continue
        gives_up = a > p and not a - 1 > p
        cedes = not p > a and p > a - 1
        if not gives_up and not cedes:
            return level
    return 0
