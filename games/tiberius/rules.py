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
    Player,
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


def _plus(cubes: tuple[int, ...], *changes: tuple[Box, int]) -> tuple[int, ...]:
    """A seat's cubes changed by (box, cubes) pairs."""
    mine = list(cubes)
    for box, k in changes:
        mine[box] += k
    return tuple(mine)


def _players_plus(s: TiberiusState, seat: Seat, *changes: tuple[Box, int]) -> tuple[Player, ...]:
    """Every seat's record, with ``seat``'s cubes changed by (box, cubes) pairs."""
    me = s.players[seat]
    return replace_at(s.players, seat, replace(me, cubes=_plus(me.cubes, *changes)))


def priority_order(start: Seat, n: int) -> list[Seat]:
    """The priority holder at the start of the turn first, then clockwise (rule: tiberius/special-cases).

    Seat ``order[k]`` is ``(start + k) % n``: the rules below step through the order by that sum
    (:func:`_place_in_order`) rather than build the list at every step.
    """
    return [(start + k) % n for k in range(n)]


def _place_in_order(s: TiberiusState, seat: Seat) -> int:
    """``seat``'s place in this turn's priority order (0 for the Priority holder at its start)."""
    return (seat - s.start_priority) % len(s.players)


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
    me = s.players[seat]
    if me.adopted >= 0:
        return []
    out: list[int] = []
    own = me.secret
    if own >= 0 and meets(content.adoptions[own], me.cubes):
        out.append(-1)
    out.extend(a for a in sorted(s.adopt_face_up) if meets(content.adoptions[a], me.cubes))
    return out


# ------------------------------------------------------------------------------------ phases


def start_turn(s: TiberiusState) -> TiberiusState:
    """rule: tiberius/card-phase - turn the top card of each pile face up; priority order is fixed."""
    face_up, decks = list(s.face_up), list(s.decks)
    for d, deck in enumerate(decks):
        if face_up[d] == EMPTY and deck:
            face_up[d], decks[d] = deck[0], deck[1:]
    # every seat starts the turn with no card and no bid
    players = tuple(
        [p if p.played == NOTHING and p.bid == 0 else replace(p, played=NOTHING, bid=0) for p in s.players]
    )
    return replace(
        s,
        start_priority=s.priority,
        face_up=tuple(face_up),
        decks=tuple(decks),
        players=players,
        phase=CARD,
        actor=s.priority,
    )


def _next_pick(s: TiberiusState, content: Content) -> TiberiusState:
    """rule: tiberius/card-phase - bidders pick in bid order, highest first; bids go to stock."""
    bids = [p.bid for p in s.players]
    if any(b > 0 for b in bids):
        if any(c != EMPTY for c in s.face_up):
            return replace(s, phase=PICK, actor=max(range(len(bids)), key=bids.__getitem__))
        # no card left: the bids still go to stock
        players = tuple(
            [replace(p, cubes=_plus(p.cubes, (BD, -p.bid)), bid=0) if p.bid else p for p in s.players]
        )
        s = replace(s, players=players)
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
    if s.priority != seat and s.players[s.priority].played == PCIM_CARD:
        return s
    return replace(s, priority=seat)


def _place_row(s: TiberiusState, seat: Seat, row: IconRow) -> TiberiusState:
    """Place a row's cubes from stock in printed order (black icons become choices).

    rule: tiberius/special-cases - white icons are Influence; Triumphs only for family; a Priority
    icon takes the marker. When the stock runs out the remaining icons place nothing.
    """
    me = s.players[seat]
    mine, black = list(me.cubes), s.black
    for icon in row.icons:
        if icon == BLACK:
            black += 1
        elif CUBES_PER_PLAYER - sum(mine) > 0 and (icon != TR or s.family):
            mine[icon] += 1
    s = replace(s, players=replace_at(s.players, seat, replace(me, cubes=tuple(mine))), black=black)
    return _take_priority(s, seat) if row.priority else s


def _begin_action(s: TiberiusState, content: Content, seat: Seat) -> TiberiusState:
    """rule: tiberius/cube-phase - step 1, the card's top row from stock."""
    # rule: tiberius/special-cases - family: Imperial Marriage cubes or adopted, prior to the cube phase.
    me = s.players[seat]
    family = me.cubes[IM] > 0 or me.adopted >= 0
    s = replace(s, black=0, row_open=False, moved=0, family=family)
    card_id = me.played
    if card_id == PCIM_CARD:
        # rule: tiberius/special-cases - playing PCIM takes the Priority marker (the exception that it
        # "cannot be removed from a player whose career card for the current turn is PCIM - even by the
        # play of another PCIM" presumes it), unless its holder played PCIM this turn.
        return _take_priority(s, seat)
    card = content.cards[card_id]
    return replace(_place_row(s, seat, card.rows[0]), row_open=len(card.rows) > 1)


def _settled(s: TiberiusState, content: Content, seat: Seat) -> tuple[TiberiusState, bool]:
    """The cube action with what can no longer be done dropped, and whether ``seat`` still decides."""
    me = s.players[seat]
    if me.played == PCIM_CARD:
        # rule: tiberius/pcim-card - keep moving while cubes are left outside stock and gray.
        return s, any(me.cubes[b] > 0 for b in MOVE_BOXES)
    if s.black > 0 and me.stock == 0:
        s = replace(s, black=0)
    if s.black > 0:
        return s, True
    if s.row_open:
        if affordable_rows(content.cards[me.played].rows, me.cubes[EM]):
            return s, True
        s = replace(s, row_open=False)
    return s, False


def _cube_from(s: TiberiusState, content: Content, index: int) -> TiberiusState:
    """Run cube actions from position ``index`` of the priority order to the next decision."""
    n = s.num_players
    for k in range(index, n):
        seat = (s.start_priority + k) % n
        if s.players[seat].played == NOTHING:
            continue
        s, decides = _settled(_begin_action(s, content, seat), content, seat)
        if decides:
            return replace(s, actor=seat)
    return _end_cube(s, content)


def _end_cube(s: TiberiusState, content: Content) -> TiberiusState:
    """rule: tiberius/set-bonus - every seat with cubes in all board boxes gains 3 Influence."""
    players = list(s.players)
    for k, p in enumerate(players):
        bonus = set_bonus(p.cubes)
        if bonus:
            players[k] = replace(p, cubes=_plus(p.cubes, (IN, bonus)))
    s = replace(s, players=tuple(players), black=0, row_open=False, family=False, moved=0, phase=ADOPT)
    return _adopt_from(s, content, 0)


def _adopt_from(s: TiberiusState, content: Content, index: int) -> TiberiusState:
    """rule: tiberius/adoption-phase - in priority order, each seat that can be adopted decides."""
    n = s.num_players
    for k in range(index, n):
        seat = (s.start_priority + k) % n
        if adoption_options(s, content, seat):
            return replace(s, actor=seat)
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
    me = s.players[seat]
    cubes = me.cubes
    if s.phase == CARD:
        # rule: tiberius/card-phase - bid (unique, >= 1), buy (6), PCIM, or take 2 influence.
        used = {p.bid for p in s.players}
        out = [TAction("bid", b) for b in range(1, cubes[IN] + 1) if b not in used]
        if cubes[IN] >= BUY_PRICE:
            out.extend(TAction("buy", c) for c in s.face_up if c != EMPTY)
        if (s.pcim_rule == "once" and not me.pcim_used) or (
            s.pcim_rule == "influence" and cubes[IN] >= PCIM_PRICE
        ):
            out.append(TAction("pcim"))
        out.append(TAction("take2"))
        return out
    if s.phase == PICK:
        return [TAction("pick", c) for c in s.face_up if c != EMPTY]
    if s.phase == CUBE:
        if me.played == PCIM_CARD:
            out = [TAction("move", b) for b in MOVE_BOXES if cubes[b] > 0]
            if s.moved >= PCIM_MIN_MOVES:
                out.append(TAction("done"))
            return out
        if s.black > 0:
            return [TAction("black", b) for b in BLACK_BOXES if b != TR or s.family]
        rows = content.cards[me.played].rows
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
    me = s.players[seat]
    if kind == "bid":
        me = replace(me, cubes=_plus(me.cubes, (IN, -arg), (BD, arg)), bid=arg)
    elif kind == "buy":
        slot = s.face_up.index(arg)
        deck = s.decks[slot]
        s = replace(
            s,
            face_up=replace_at(s.face_up, slot, deck[0] if deck else EMPTY),
            decks=replace_at(s.decks, slot, deck[1:]),
        )
        me = replace(me, cubes=_plus(me.cubes, (IN, -BUY_PRICE)), played=arg, careers=(*me.careers, arg))
    elif kind == "pcim":  # rule: tiberius/pcim-card
        price = PCIM_PRICE if s.pcim_rule == "influence" else 0
        me = replace(me, pcim_used=True, played=PCIM_CARD, cubes=_plus(me.cubes, (IN, -price)))
    else:  # take2
        me = replace(me, cubes=_plus(me.cubes, (IN, min(2, me.stock))))
    s = replace(s, players=replace_at(s.players, seat, me))
    if _place_in_order(s, seat) + 1 < s.num_players:
        return replace(s, actor=(seat + 1) % s.num_players)
    return _next_pick(s, content)


def _pick_card(s: TiberiusState, content: Content, seat: Seat, card: int) -> TiberiusState:
    """rule: tiberius/card-phase - a bidder takes a face-up card; the bid goes to stock."""
    me = s.players[seat]
    me = replace(me, played=card, careers=(*me.careers, card), cubes=_plus(me.cubes, (BD, -me.bid)), bid=0)
    s = replace(
        s,
        face_up=replace_at(s.face_up, s.face_up.index(card), EMPTY),
        players=replace_at(s.players, seat, me),
    )
    return _next_pick(s, content)


def _cube_action(s: TiberiusState, content: Content, seat: Seat, action: TAction) -> TiberiusState:
    """rule: tiberius/cube-phase - a black icon's cube placed, a row bought with Emperor cubes (or none),
    a cube moved to gray (rule: tiberius/pcim-card) or done; then the next seat once no decision is left."""
    kind, arg = action.kind, action.arg
    if kind == "black":
        s = replace(s, players=_players_plus(s, seat, (arg, 1)), black=s.black - 1)
    elif kind == "row":
        s = replace(s, row_open=False)
        if arg:
            row = content.cards[s.players[seat].played].rows[arg]
            s = _place_row(replace(s, players=_players_plus(s, seat, (EM, -row.cost))), seat, row)
    elif kind == "move":
        s = replace(s, players=_players_plus(s, seat, (arg, -1), (PC, 1)), moved=s.moved + 1)
    if kind != "done":
        s, decides = _settled(s, content, seat)
        if decides:
            return s
    return _cube_from(s, content, _place_in_order(s, seat) + 1)


def _adoption_action(s: TiberiusState, content: Content, seat: Seat, action: TAction) -> TiberiusState:
    """rule: tiberius/adoption-phase - reveal one's own adoption card (-1) or claim a face-up one, or
    pass; then the next seat in priority order."""
    me = s.players[seat]
    if action.kind == "adopt" and action.arg == -1:
        s = replace(s, players=replace_at(s.players, seat, replace(me, adopted=me.secret)))
    elif action.kind == "adopt":
        s = replace(
            s,
            players=replace_at(s.players, seat, replace(me, adopted=action.arg)),
            adopt_face_up=without(s.adopt_face_up, action.arg),
        )
    return _adopt_from(s, content, _place_in_order(s, seat) + 1)
