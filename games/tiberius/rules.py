"""The turn sequence of Tiberius Who? as pure functions from a state to the next (docs/state.md).

``perform`` runs one action and the automatic steps that follow it (placing a card's top row,
skipping seats with nothing to decide, the set bonus, the end of the turn); each step returns a new
state with what it changes replaced by name. Each function cites the rulebook section it implements.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.core.protocol import Seat
from games.core.records import replace, replace_at, without
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
    "adoption_options",
    "affordable_rows",
    "is_legal",
    "legal_actions",
    "meets",
    "perform",
    "priority_order",
    "set_bonus",
    "start_turn",
]

BLACK_BOXES: tuple[Box, ...] = (CQ, IM, CC, GV, TR, IP, PR, EM, IN)
"""Where a black icon's cube may go: any box but PCIM (rule: tiberius/special-cases)."""
MOVE_BOXES: tuple[Box, ...] = (CQ, IM, CC, GV, TR, IP, PR, EM, IN, BD)
"""Where PCIM may take cubes from: anywhere but stock (and gray itself) (rule: tiberius/pcim-card)."""
PCIM_MIN_MOVES = 5
BUY_PRICE = 6
PCIM_PRICE = 3  # the "influence" variant (player mat reading)


def _plus(
    cubes: tuple[tuple[int, ...], ...], seat: Seat, *changes: tuple[Box, int]
) -> tuple[tuple[int, ...], ...]:
    """Every seat's cubes with ``seat``'s changed by (box, cubes) pairs."""
    mine = list(cubes[seat])
    for box, k in changes:
        mine[box] += k
    return replace_at(cubes, seat, tuple(mine))


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


def adoption_options(s: TiberiusState, content: Content, seat: Seat) -> list[int]:
    """Adoptions open to ``seat`` now: -1 for its own secret card, else face-up card ids.

    rule: tiberius/adoption-phase - reveal one's own card when its criteria hold, or claim a
    face-up card whose criteria hold; nobody is adopted twice.
    """
    if s.adopted[seat] >= 0:
        return []
    out: list[int] = []
    own = s.secret[seat]
    if own >= 0 and meets(content.adoptions[own], s.cubes[seat]):
        out.append(-1)
    out.extend(a for a in sorted(s.adopt_face_up) if meets(content.adoptions[a], s.cubes[seat]))
    return out


# ------------------------------------------------------------------------------------ phases


def start_turn(s: TiberiusState) -> TiberiusState:
    """rule: tiberius/card-phase - turn the top card of each pile face up; priority order is fixed."""
    face_up, decks = list(s.face_up), list(s.decks)
    for d, deck in enumerate(decks):
        if face_up[d] == EMPTY and deck:
            face_up[d], decks[d] = deck[0], deck[1:]
    n = s.players
    return replace(
        s,
        start_priority=s.priority,
        face_up=tuple(face_up),
        decks=tuple(decks),
        played=(NOTHING,) * n,
        bids=(0,) * n,
        phase=CARD,
        actor=s.priority,
    )


def _next_pick(s: TiberiusState, content: Content) -> TiberiusState:
    """rule: tiberius/card-phase - bidders pick in bid order, highest first; bids go to stock."""
    if any(b > 0 for b in s.bids):
        if any(c != EMPTY for c in s.face_up):
            return replace(s, phase=PICK, actor=max(range(s.players), key=s.bids.__getitem__))
        # no card left: the bids still go to stock
        cubes = tuple(
            [replace_at(c, BD, c[BD] - b) if b else c for c, b in zip(s.cubes, s.bids, strict=True)]
        )
        s = replace(s, cubes=cubes, bids=(0,) * s.players)
    # rule: tiberius/card-phase - the unselected face-up cards leave the game.
    s = replace(
        s,
        discarded=(*s.discarded, *(c for c in s.face_up if c != EMPTY)),
        face_up=(EMPTY,) * len(s.face_up),
        phase=CUBE,
    )
    return _cube_from(s, content, 0)


def _take_priority(s: TiberiusState, seat: Seat) -> TiberiusState:
    """rule: tiberius/special-cases - the marker moves to ``seat`` unless its holder played PCIM."""
    if s.priority != seat and s.played[s.priority] == PCIM_CARD:
        return s
    return replace(s, priority=seat)


def _place_row(s: TiberiusState, seat: Seat, row: IconRow) -> TiberiusState:
    """Place a row's cubes from stock in printed order (black icons become choices).

    rule: tiberius/special-cases - white icons are Influence; Triumphs only for family; a Priority
    icon takes the marker. When the stock runs out the remaining icons place nothing.
    """
    mine, black = list(s.cubes[seat]), s.black
    for icon in row.icons:
        if icon == BLACK:
            black += 1
        elif CUBES_PER_PLAYER - sum(mine) > 0 and (icon != TR or s.family):
            mine[icon] += 1
    s = replace(s, cubes=replace_at(s.cubes, seat, tuple(mine)), black=black)
    return _take_priority(s, seat) if row.priority else s


def _begin_action(s: TiberiusState, content: Content, seat: Seat) -> TiberiusState:
    """rule: tiberius/cube-phase - step 1, the card's top row from stock."""
    # rule: tiberius/special-cases - family: Imperial Marriage cubes or adopted, prior to the cube phase.
    family = s.cubes[seat][IM] > 0 or s.adopted[seat] >= 0
    s = replace(s, black=0, row_open=False, moved=0, family=family)
    card_id = s.played[seat]
    if card_id == PCIM_CARD:
        # rule: tiberius/special-cases - playing PCIM takes the Priority marker (the exception that it
        # "cannot be removed from a player whose career card for the current turn is PCIM - even by the
        # play of another PCIM" presumes it), unless its holder played PCIM this turn.
        return _take_priority(s, seat)
    card = content.cards[card_id]
    return replace(_place_row(s, seat, card.rows[0]), row_open=len(card.rows) > 1)


def _settled(s: TiberiusState, content: Content, seat: Seat) -> tuple[TiberiusState, bool]:
    """The cube action with what can no longer be done dropped, and whether ``seat`` still decides."""
    if s.played[seat] == PCIM_CARD:
        # rule: tiberius/pcim-card - keep moving while cubes are left outside stock and gray.
        return s, any(s.cubes[seat][b] > 0 for b in MOVE_BOXES)
    if s.black > 0 and s.stock(seat) == 0:
        s = replace(s, black=0)
    if s.black > 0:
        return s, True
    if s.row_open:
        if affordable_rows(content.cards[s.played[seat]].rows, s.cubes[seat][EM]):
            return s, True
        s = replace(s, row_open=False)
    return s, False


def _cube_from(s: TiberiusState, content: Content, index: int) -> TiberiusState:
    """Run cube actions from position ``index`` of the priority order to the next decision."""
    order = priority_order(s.start_priority, s.players)
    for k in range(index, s.players):
        seat = order[k]
        if s.played[seat] == NOTHING:
            continue
        s, decides = _settled(_begin_action(s, content, seat), content, seat)
        if decides:
            return replace(s, actor=seat)
    return _end_cube(s, content)


def _end_cube(s: TiberiusState, content: Content) -> TiberiusState:
    """rule: tiberius/set-bonus - every seat with cubes in all board boxes gains 3 Influence."""
    cubes = tuple(
        [_plus(s.cubes, p, (IN, set_bonus(c)))[p] if set_bonus(c) else c for p, c in enumerate(s.cubes)]
    )
    s = replace(s, cubes=cubes, black=0, row_open=False, family=False, moved=0, phase=ADOPT)
    return _adopt_from(s, content, 0)


def _adopt_from(s: TiberiusState, content: Content, index: int) -> TiberiusState:
    """rule: tiberius/adoption-phase - in priority order, each seat that can be adopted decides."""
    order = priority_order(s.start_priority, s.players)
    for k in range(index, s.players):
        if adoption_options(s, content, order[k]):
            return replace(s, actor=order[k])
    # rule: tiberius/end-of-game - move the turn marker; the game lasts 8 turns (variant ``turns``:
    # 7, the spaces of the printed turn track).
    if s.turn + 1 > s.turns:
        return replace(s, turn=s.turn + 1, phase=OVER, actor=-1)
    return start_turn(replace(s, turn=s.turn + 1))


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
    seat = s.actor
    if s.phase == CARD:
        return _card_action(s, content, seat, action)
    if s.phase == PICK:
        return _pick_card(s, content, seat, action.arg)
    if s.phase == CUBE:
        return _cube_action(s, content, seat, action)
    return _adoption_action(s, content, seat, action)  # ADOPT


def _card_action(s: TiberiusState, content: Content, seat: Seat, action: TAction) -> TiberiusState:
    """rule: tiberius/card-phase - a bid, a purchase (6 influence), the Pro-Consular Imperium Maius card
    or 2 influence; then the next seat in priority order, or the picks once every seat has acted."""
    kind, arg = action.kind, action.arg
    if kind == "bid":
        s = replace(s, cubes=_plus(s.cubes, seat, (IN, -arg), (BD, arg)), bids=replace_at(s.bids, seat, arg))
    elif kind == "buy":
        slot = s.face_up.index(arg)
        deck = s.decks[slot]
        s = replace(
            s,
            cubes=_plus(s.cubes, seat, (IN, -BUY_PRICE)),
            face_up=replace_at(s.face_up, slot, deck[0] if deck else EMPTY),
            decks=replace_at(s.decks, slot, deck[1:]),
            played=replace_at(s.played, seat, arg),
            careers=replace_at(s.careers, seat, (*s.careers[seat], arg)),
        )
    elif kind == "pcim":  # rule: tiberius/pcim-card
        price = PCIM_PRICE if s.pcim_rule == "influence" else 0
        s = replace(
            s,
            pcim_used=replace_at(s.pcim_used, seat, True),
            played=replace_at(s.played, seat, PCIM_CARD),
            cubes=_plus(s.cubes, seat, (IN, -price)),
        )
    else:  # take2
        s = replace(s, cubes=_plus(s.cubes, seat, (IN, min(2, s.stock(seat)))))
    order = priority_order(s.start_priority, s.players)
    k = order.index(seat)
    if k + 1 < s.players:
        return replace(s, actor=order[k + 1])
    return _next_pick(s, content)


def _pick_card(s: TiberiusState, content: Content, seat: Seat, card: int) -> TiberiusState:
    """rule: tiberius/card-phase - a bidder takes a face-up card; the bid goes to stock."""
    s = replace(
        s,
        face_up=replace_at(s.face_up, s.face_up.index(card), EMPTY),
        played=replace_at(s.played, seat, card),
        careers=replace_at(s.careers, seat, (*s.careers[seat], card)),
        cubes=_plus(s.cubes, seat, (BD, -s.bids[seat])),
        bids=replace_at(s.bids, seat, 0),
    )
    return _next_pick(s, content)


def _cube_action(s: TiberiusState, content: Content, seat: Seat, action: TAction) -> TiberiusState:
    """rule: tiberius/cube-phase - a black icon's cube placed, a row bought with Emperor cubes (or none),
    a cube moved to gray (rule: tiberius/pcim-card) or done; then the next seat once no decision is left."""
    kind, arg = action.kind, action.arg
    if kind == "black":
        s = replace(s, cubes=_plus(s.cubes, seat, (arg, 1)), black=s.black - 1)
    elif kind == "row":
        s = replace(s, row_open=False)
        if arg:
            row = content.cards[s.played[seat]].rows[arg]
            s = _place_row(replace(s, cubes=_plus(s.cubes, seat, (EM, -row.cost))), seat, row)
    elif kind == "move":
        s = replace(s, cubes=_plus(s.cubes, seat, (arg, -1), (PC, 1)), moved=s.moved + 1)
    if kind != "done":
        s, decides = _settled(s, content, seat)
        if decides:
            return s
    order = priority_order(s.start_priority, s.players)
    return _cube_from(s, content, order.index(seat) + 1)


def _adoption_action(s: TiberiusState, content: Content, seat: Seat, action: TAction) -> TiberiusState:
    """rule: tiberius/adoption-phase - reveal one's own adoption card (-1) or claim a face-up one, or
    pass; then the next seat in priority order."""
    if action.kind == "adopt" and action.arg == -1:
        s = replace(s, adopted=replace_at(s.adopted, seat, s.secret[seat]))
    elif action.kind == "adopt":
        s = replace(
            s,
            adopted=replace_at(s.adopted, seat, action.arg),
            adopt_face_up=without(s.adopt_face_up, action.arg),
        )
    order = priority_order(s.start_priority, s.players)
    return _adopt_from(s, content, order.index(seat) + 1)
