"""The turn sequence of Tiberius Who? as pure functions on a mutable working copy.

``apply`` in :mod:`games.tiberius.game` copies the frozen state into a :class:`Work`, runs one
action and the automatic steps that follow it (placing a card's top row, skipping seats with
nothing to decide, the set bonus, the end of the turn), and freezes the result. Each function cites
the rulebook section it implements.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from games.core.protocol import Seat
from games.errors import IllegalActionError
from games.tiberius.model import (
    ADOPT,
    BD,
    BLACK,
    BOARD_BOXES,
    CARD,
    CC,
    CQ,
    CUBE,
    CUBES_PER_PLAYER,
    EM,
    EMPTY,
    GV,
    IM,
    IN,
    IP,
    NOTHING,
    OVER,
    PC,
    PCIM_CARD,
    PICK,
    PR,
    TR,
    AdoptionCard,
    Box,
    Content,
    IconRow,
    TAction,
    TiberiusState,
)

__all__ = [
    "BLACK_BOXES",
    "MOVE_BOXES",
    "Work",
    "adoption_options",
    "affordable_rows",
    "below",
    "is_legal",
    "legal_actions",
    "meets",
    "perform",
    "priority_order",
    "set_bonus",
    "shuffled",
]

BLACK_BOXES: tuple[Box, ...] = (CQ, IM, CC, GV, TR, IP, PR, EM, IN)
"""Where a black icon's cube may go: any box but PCIM (rule: tiberius/special-cases)."""
MOVE_BOXES: tuple[Box, ...] = (CQ, IM, CC, GV, TR, IP, PR, EM, IN, BD)
"""Where PCIM may take cubes from: anywhere but stock (and gray itself) (rule: tiberius/pcim-card)."""
PCIM_MIN_MOVES = 5
BUY_PRICE = 6
PCIM_PRICE = 3  # the "influence" variant (player mat reading)


@dataclass(slots=True)
class Work:
    """A mutable copy of :class:`TiberiusState` (same fields, lists instead of tuples)."""

    turn: int
    phase: int
    actor: int
    start_priority: int
    priority: int
    cubes: list[list[int]]
    decks: list[list[int]]
    face_up: list[int]
    careers: list[list[int]]
    played: list[int]
    bids: list[int]
    pcim_used: list[bool]
    secret: list[int]
    adopt_face_up: list[int]
    adopt_unused: list[int]
    adopted: list[int]
    discarded: list[int]
    black: int
    row_open: bool
    family: bool
    moved: int
    age: list[int]
    influence_table: str
    pcim_rule: str
    marriage_vp: str
    imperator_solo: str
    imperator_empty: str
    turns: int

    @classmethod
    def of(cls, s: TiberiusState) -> Work:
        """A working copy of ``s``."""
        return cls(
            turn=s.turn,
            phase=s.phase,
            actor=s.actor,
            start_priority=s.start_priority,
            priority=s.priority,
            cubes=[list(c) for c in s.cubes],
            decks=[list(d) for d in s.decks],
            face_up=list(s.face_up),
            careers=[list(c) for c in s.careers],
            played=list(s.played),
            bids=list(s.bids),
            pcim_used=list(s.pcim_used),
            secret=list(s.secret),
            adopt_face_up=list(s.adopt_face_up),
            adopt_unused=list(s.adopt_unused),
            adopted=list(s.adopted),
            discarded=list(s.discarded),
            black=s.black,
            row_open=s.row_open,
            family=s.family,
            moved=s.moved,
            age=list(s.age),
            influence_table=s.influence_table,
            pcim_rule=s.pcim_rule,
            marriage_vp=s.marriage_vp,
            imperator_solo=s.imperator_solo,
            imperator_empty=s.imperator_empty,
            turns=s.turns,
        )

    def freeze(self) -> TiberiusState:
        """The frozen state."""
        return TiberiusState(
            turn=self.turn,
            phase=self.phase,
            actor=self.actor,
            start_priority=self.start_priority,
            priority=self.priority,
            cubes=tuple(map(tuple, self.cubes)),
            decks=tuple(map(tuple, self.decks)),
            face_up=tuple(self.face_up),
            careers=tuple(map(tuple, self.careers)),
            played=tuple(self.played),
            bids=tuple(self.bids),
            pcim_used=tuple(self.pcim_used),
            secret=tuple(self.secret),
            adopt_face_up=tuple(self.adopt_face_up),
            adopt_unused=tuple(self.adopt_unused),
            adopted=tuple(self.adopted),
            discarded=tuple(self.discarded),
            black=self.black,
            row_open=self.row_open,
            family=self.family,
            moved=self.moved,
            age=tuple(self.age),
            influence_table=self.influence_table,
            pcim_rule=self.pcim_rule,
            marriage_vp=self.marriage_vp,
            imperator_solo=self.imperator_solo,
            imperator_empty=self.imperator_empty,
            turns=self.turns,
        )

    @property
    def n(self) -> int:
        """Number of seats."""
        return len(self.cubes)

    def stock(self, seat: Seat) -> int:
        """Cubes in ``seat``'s stock."""
        return CUBES_PER_PLAYER - sum(self.cubes[seat])


def _steps(size: int) -> tuple[tuple[int, int], ...]:
    """The Fisher-Yates steps of a list of ``size``, from the end: (index, bits drawn for a swap index)."""
    return tuple((i, (i + 1).bit_length()) for i in range(size - 1, 0, -1))


_STEPS: tuple[tuple[tuple[int, int], ...], ...] = tuple(_steps(size) for size in range(65))
"""``_steps(size)`` for the sizes of the decks (a whole pack's 64 cards at most)."""


def shuffled(getrandbits: Callable[[int], int], items: Iterable[int]) -> list[int]:
    """``items`` shuffled exactly as ``random.Random.shuffle`` shuffles them, given its ``getrandbits``.

    The same algorithm as the standard library's (Fisher-Yates from the end; each swap index drawn
    as ``_randbelow`` draws it: as many bits as the bound needs, drawn again while too large), so a
    seed deals the same decks, without a Python call per card for ``_randbelow``
    (``tests/tiberius/test_fast_paths.py`` checks it against ``random.Random.shuffle``).
    """
    out = list(items)
    size = len(out)
    for i, k in _STEPS[size] if size < len(_STEPS) else _steps(size):
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        out[i], out[j] = out[j], out[i]
    return out


def shuffled_each(getrandbits: Callable[[int], int], groups: Iterable[Iterable[int]]) -> list[list[int]]:
    """Each of ``groups`` shuffled in turn by :func:`shuffled` (the same draws, in the same order)."""
    return [shuffled(getrandbits, items) for items in groups]


def below(getrandbits: Callable[[int], int], n: int) -> int:
    """An int in [0, n) (n >= 1) drawn exactly as ``random.Random.randrange(n)`` draws it, given its
    ``getrandbits`` (``_randbelow``: the bits ``n`` needs, drawn again while too large;
    ``tests/tiberius/test_fast_paths.py`` checks it against ``randrange``)."""
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def priority_order(start: Seat, n: int) -> list[Seat]:
    """The priority holder at the start of the turn first, then clockwise (rule: tiberius/special-cases)."""
    return [(start + k) % n for k in range(n)]


def meets(card: AdoptionCard, cubes: Sequence[int]) -> bool:
    """Whether ``cubes`` possess all the card's cubes simultaneously (rule: tiberius/adoption-phase)."""
    return all(cubes[box] >= need for box, need in card.requires)


def affordable_rows(card_rows: Sequence[IconRow], emperor: int) -> list[int]:
    """Indexes (1, 2) of the second/third rows whose full price the Emperor cubes cover.

    rule: tiberius/cube-phase - the price is the row's icons plus its Priority icon, and the player
    must afford it before the Emperor icons' discount.
    """
    return [k for k in range(1, len(card_rows)) if emperor >= card_rows[k].cost]


def set_bonus(cubes: Sequence[int]) -> int:
    """Influence the set bonus gives (rule: tiberius/set-bonus): 3 from stock, if in every board box."""
    if all(cubes[b] >= 1 for b in BOARD_BOXES):
        return min(3, CUBES_PER_PLAYER - sum(cubes))
    return 0


def adoption_options(w: Work | TiberiusState, content: Content, seat: Seat) -> list[int]:
    """Adoptions open to ``seat`` now: -1 for its own secret card, else face-up card ids.

    rule: tiberius/adoption-phase - reveal one's own card when its criteria hold, or claim a
    face-up card whose criteria hold; nobody is adopted twice.
    """
    if w.adopted[seat] >= 0:
        return []
    out: list[int] = []
    own = w.secret[seat]
    if own >= 0 and meets(content.adoptions[own], w.cubes[seat]):
        out.append(-1)
    out.extend(a for a in sorted(w.adopt_face_up) if meets(content.adoptions[a], w.cubes[seat]))
    return out


# ------------------------------------------------------------------------------------ phases


def start_turn(w: Work) -> None:
    """rule: tiberius/card-phase - turn the top card of each pile face up; priority order is fixed."""
    w.start_priority = w.priority
    for d, deck in enumerate(w.decks):
        if w.face_up[d] == EMPTY and deck:
            w.face_up[d] = deck.pop(0)
    w.played = [NOTHING] * w.n
    w.bids = [0] * w.n
    w.phase = CARD
    w.actor = w.start_priority


def _next_pick(w: Work, content: Content) -> None:
    """rule: tiberius/card-phase - bidders pick in bid order, highest first; bids go to stock."""
    w.phase = PICK
    while True:
        bidders = [s for s in range(w.n) if w.bids[s] > 0]
        if not bidders:
            break
        s = max(bidders, key=lambda x: w.bids[x])
        if any(c != EMPTY for c in w.face_up):
            w.actor = s
            return
        w.cubes[s][BD] -= w.bids[s]  # no card left: the bid still goes to stock
        w.bids[s] = 0
    # rule: tiberius/card-phase - the unselected face-up cards leave the game.
    w.discarded.extend(c for c in w.face_up if c != EMPTY)
    w.face_up = [EMPTY] * len(w.face_up)
    w.phase = CUBE
    _cube_from(w, content, 0)


def _take_priority(w: Work, seat: Seat) -> None:
    """rule: tiberius/special-cases - the marker moves to ``seat`` unless its holder played PCIM."""
    if w.priority != seat and w.played[w.priority] == PCIM_CARD:
        return
    w.priority = seat


def _place_row(w: Work, seat: Seat, row: IconRow) -> None:
    """Place a row's cubes from stock in printed order (black icons become choices).

    rule: tiberius/special-cases - white icons are Influence; Triumphs only for family; a Priority
    icon takes the marker. When the stock runs out the remaining icons place nothing.
    """
    for icon in row.icons:
        if icon == BLACK:
            w.black += 1
        elif w.stock(seat) > 0 and (icon != TR or w.family):
            w.cubes[seat][icon] += 1
    if row.priority:
        _take_priority(w, seat)


def _begin_action(w: Work, content: Content, seat: Seat) -> None:
    """rule: tiberius/cube-phase - step 1, the card's top row from stock."""
    w.black, w.row_open, w.moved = 0, False, 0
    # rule: tiberius/special-cases - family: Imperial Marriage cubes or adopted, prior to the cube phase.
    w.family = w.cubes[seat][IM] > 0 or w.adopted[seat] >= 0
    card_id = w.played[seat]
    if card_id == PCIM_CARD:
        # rule: tiberius/special-cases - playing PCIM takes the Priority marker (the exception that it
        # "cannot be removed from a player whose career card for the current turn is PCIM - even by the
        # play of another PCIM" presumes it), unless its holder played PCIM this turn.
        _take_priority(w, seat)
        return
    card = content.cards[card_id]
    _place_row(w, seat, card.rows[0])
    w.row_open = len(card.rows) > 1


def _needs_decision(w: Work, content: Content, seat: Seat) -> bool:
    if w.played[seat] == PCIM_CARD:
        # rule: tiberius/pcim-card - keep moving while cubes are left outside stock and gray.
        return any(w.cubes[seat][b] > 0 for b in MOVE_BOXES)
    if w.black > 0 and w.stock(seat) == 0:
        w.black = 0
    if w.black > 0:
        return True
    if w.row_open:
        rows = content.cards[w.played[seat]].rows
        if affordable_rows(rows, w.cubes[seat][EM]):
            return True
        w.row_open = False
    return False


def _cube_from(w: Work, content: Content, index: int) -> None:
    """Run cube actions from position ``index`` of the priority order to the next decision."""
    order = priority_order(w.start_priority, w.n)
    for k in range(index, w.n):
        s = order[k]
        if w.played[s] == NOTHING:
            continue
        _begin_action(w, content, s)
        if _needs_decision(w, content, s):
            w.actor = s
            return
    _end_cube(w, content)


def _end_cube(w: Work, content: Content) -> None:
    """rule: tiberius/set-bonus - every seat with cubes in all board boxes gains 3 Influence."""
    for s in range(w.n):
        w.cubes[s][IN] += set_bonus(w.cubes[s])
    w.black, w.row_open, w.family, w.moved = 0, False, False, 0
    w.phase = ADOPT
    _adopt_from(w, content, 0)


def _adopt_from(w: Work, content: Content, index: int) -> None:
    """rule: tiberius/adoption-phase - in priority order, each seat that can be adopted decides."""
    order = priority_order(w.start_priority, w.n)
    for k in range(index, w.n):
        s = order[k]
        if adoption_options(w, content, s):
            w.actor = s
            return
    # rule: tiberius/end-of-game - move the turn marker; the game lasts 8 turns (variant ``turns``:
    # 7, the spaces of the printed turn track).
    w.turn += 1
    if w.turn > w.turns:
        w.phase, w.actor = OVER, -1
        return
    start_turn(w)


# ------------------------------------------------------------------------------------ actions


def legal_actions(s: TiberiusState, content: Content) -> list[TAction]:
    """Every legal action of the seat to act, in a fixed order."""
    if s.phase == OVER:
        return []
    seat = s.actor
    cubes = s.cubes[seat]
    if s.phase == CARD:
        # rule: tiberius/card-phase - bid (unique, >= 1), buy (6), PCIM, or take 2 influence.
        used = set(s.bids)
        out = [TAction("bid", b) for b in range(1, cubes[IN] + 1) if b not in used]
        if cubes[IN] >= BUY_PRICE:
            out.extend(TAction("buy", c) for c in s.face_up if c != EMPTY)
        if (s.pcim_rule == "once" and not s.pcim_used[seat]) or (
            s.pcim_rule == "influence" and cubes[IN] >= PCIM_PRICE
        ):
            out.append(TAction("pcim"))
        out.append(TAction("take2"))
        return out
    if s.phase == PICK:
        return [TAction("pick", c) for c in s.face_up if c != EMPTY]
    if s.phase == CUBE:
        if s.played[seat] == PCIM_CARD:
            out = [TAction("move", b) for b in MOVE_BOXES if cubes[b] > 0]
            if s.moved >= PCIM_MIN_MOVES:
                out.append(TAction("done"))
            return out
        if s.black > 0:
            return [TAction("black", b) for b in BLACK_BOXES if b != TR or s.family]
        rows = content.cards[s.played[seat]].rows
        return [TAction("row", 0)] + [TAction("row", k) for k in affordable_rows(rows, cubes[EM])]
    # ADOPT
    return [TAction("adopt", a) for a in adoption_options(s, content, seat)] + [TAction("pass")]


def is_legal(s: TiberiusState, content: Content, action: TAction) -> bool:
    """Whether ``action`` is legal in ``s``: one of ``legal_actions`` (legality is written once)."""
    return action in legal_actions(s, content)


def _illegal(s: TiberiusState, action: TAction, rule: str, why: str) -> IllegalActionError:
    return IllegalActionError(f"{action.kind} {action.arg!r} is not legal: {why}", field="action", rule=rule)


def perform(s: TiberiusState, content: Content, action: TAction, *, trusted: bool = False) -> TiberiusState:
    """Apply a legal action (checked here unless ``trusted``: taken from ``legal_actions``) and every
    automatic step after it."""
    if not trusted and action not in (legal := legal_actions(s, content)):
        rule = {CARD: "card-phase", PICK: "card-phase", CUBE: "cube-phase", ADOPT: "adoption-phase"}.get(
            s.phase, "end-of-game"
        )
        raise _illegal(s, action, f"tiberius/{rule}", f"legal here: {len(legal)} actions")
    w = Work.of(s)
    seat = w.actor
    if w.phase == CARD:
        _card_action(w, content, seat, action)
    elif w.phase == PICK:
        _pick_card(w, content, seat, action.arg)
    elif w.phase == CUBE:
        _cube_action(w, content, seat, action)
    else:  # ADOPT
        _adoption_action(w, content, seat, action)
    return w.freeze()


def _card_action(w: Work, content: Content, seat: Seat, action: TAction) -> None:
    """rule: tiberius/card-phase - a bid, a purchase (6 influence), the Pro-Consular Imperium Maius card
    or 2 influence; then the next seat in priority order, or the picks once every seat has acted."""
    me = w.cubes[seat]
    kind, arg = action.kind, action.arg
    if kind == "bid":
        me[IN] -= arg
        me[BD] += arg
        w.bids[seat] = arg
    elif kind == "buy":
        me[IN] -= BUY_PRICE
        slot = w.face_up.index(arg)
        w.face_up[slot] = w.decks[slot].pop(0) if w.decks[slot] else EMPTY
        w.played[seat] = arg
        w.careers[seat].append(arg)
    elif kind == "pcim":  # rule: tiberius/pcim-card
        w.pcim_used[seat] = True
        w.played[seat] = PCIM_CARD
        if w.pcim_rule == "influence":
            me[IN] -= PCIM_PRICE
    else:  # take2
        me[IN] += min(2, w.stock(seat))
    order = priority_order(w.start_priority, w.n)
    k = order.index(seat)
    if k + 1 < w.n:
        w.actor = order[k + 1]
    else:
        _next_pick(w, content)


def _pick_card(w: Work, content: Content, seat: Seat, card: int) -> None:
    """rule: tiberius/card-phase - a bidder takes a face-up card; the bid goes to stock."""
    slot = w.face_up.index(card)
    w.face_up[slot] = EMPTY
    w.played[seat] = card
    w.careers[seat].append(card)
    w.cubes[seat][BD] -= w.bids[seat]
    w.bids[seat] = 0
    _next_pick(w, content)


def _cube_action(w: Work, content: Content, seat: Seat, action: TAction) -> None:
    """rule: tiberius/cube-phase - a black icon's cube placed, a row bought with Emperor cubes (or none),
    a cube moved to gray (rule: tiberius/pcim-card) or done; then the next seat once no decision is left."""
    me = w.cubes[seat]
    kind, arg = action.kind, action.arg
    finished = False
    if kind == "black":
        me[arg] += 1
        w.black -= 1
    elif kind == "row":
        w.row_open = False
        if arg:
            row = content.cards[w.played[seat]].rows[arg]
            me[EM] -= row.cost
            _place_row(w, seat, row)
    elif kind == "move":
        me[arg] -= 1
        me[PC] += 1
        w.moved += 1
    else:  # done
        finished = True
    if finished or not _needs_decision(w, content, seat):
        order = priority_order(w.start_priority, w.n)
        _cube_from(w, content, order.index(seat) + 1)


def _adoption_action(w: Work, content: Content, seat: Seat, action: TAction) -> None:
    """rule: tiberius/adoption-phase - reveal one's own adoption card (-1) or claim a face-up one, or
    pass; then the next seat in priority order."""
    if action.kind == "adopt":
        if action.arg == -1:
            w.adopted[seat] = w.secret[seat]
        else:
            w.adopted[seat] = action.arg
            w.adopt_face_up.remove(action.arg)
    order = priority_order(w.start_priority, w.n)
    _adopt_from(w, content, order.index(seat) + 1)
