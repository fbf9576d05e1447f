"""The cross-field rules of the public form of a Tiberius Who? position, checked after the declared
reading (``games.tiberius.schema``: every field valid on its own): seats below the player count, the
40 cubes of every seat, every career card and adoption card in exactly one place (rule:
tiberius/setup), the turn that fits the phase, and the coherence of the phase (``Coherence``: the
seat to act really has a decision). Every failure is an ``InvalidStateError`` naming the first bad
field (``state.players[1].cubes``) and the rulebook section.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.core.form import Form
from games.errors import InvalidStateError
from games.tiberius import rules
from games.tiberius.model import (
    ADOPT,
    CARD,
    CUBE,
    CUBES_PER_PLAYER,
    EMPTY,
    HIDDEN,
    IM,
    NOTHING,
    OVER,
    PC,
    PCIM_CARD,
    PHASE_NAMES,
    PICK,
    Content,
    TiberiusState,
)
from games.tiberius.setup import face_up_adoptions

__all__ = [
    "Checker",
    "Coherence",
    "check_adoptions",
    "check_cards",
    "check_cubes",
    "check_decks",
    "check_seats",
    "check_turn",
]


@dataclass(frozen=True)
class Checker:
    """The cross-field checks' view of a reading: the form (for its errors) and the content pack."""

    form: Form
    content: Content

    def bad(self, field: str, why: str, rule: str = "") -> InvalidStateError:
        return self.form.bad(field, why, rule)


def check_seats(f: Checker, top: Mapping[str, Any], n: int) -> None:
    """Every seat named is one of the ``n`` players; ``oldest_first`` names each once."""
    for key in ("to_act", "priority_marker", "priority_order_from"):
        if top[key] >= n:
            raise f.bad(key, f"expected a seat 0..{n - 1}, got {top[key]!r}")
    oldest = top["oldest_first"]
    if sorted(oldest) != list(range(n)):
        raise f.bad("oldest_first", f"expected every seat 0..{n - 1} once, oldest first, got {list(oldest)}")


def check_turn(f: Checker, top: Mapping[str, Any], turns: int) -> None:
    """rule: tiberius/end-of-game - the game lasts ``turns`` turns; nobody acts once it is over."""
    turn, phase = top["turn"], top["phase"]
    if turn > turns + 1 or (phase == OVER) != (turn == turns + 1):
        raise f.bad(
            "turn",
            f"turn {turn} does not fit phase {PHASE_NAMES[phase]!r} ({turns} turns)",
            "tiberius/end-of-game",
        )
    if (phase == OVER) != (top["to_act"] < 0):
        why = "nobody acts once the game is over" if phase == OVER else "a seat acts until the game is over"
        raise f.bad("to_act", why, "tiberius/end-of-game")


def check_cubes(f: Checker, at: str, cubes: Sequence[int], stock: tuple[str, int] | None = None) -> None:
    """rule: tiberius/setup - a seat has 40 cubes, in its boxes (``cubes``, at ``at``) or in stock
    (``stock``: its field and count, checked when given: it may be left out)."""
    if sum(cubes) > CUBES_PER_PLAYER:
        raise f.bad(
            at,
            f"{sum(cubes)} cubes placed; {CUBES_PER_PLAYER} per seat is an absolute limit",
            "tiberius/setup",
        )
    if stock is not None and stock[1] != CUBES_PER_PLAYER - sum(cubes):
        raise f.bad(
            stock[0],
            f"{sum(cubes)} cubes in boxes and {stock[1]} in stock: every seat has exactly {CUBES_PER_PLAYER}",
            "tiberius/setup",
        )


def check_decks(f: Checker, decks: Sequence[Mapping[str, Any]]) -> None:
    """Each regional deck holds its own region's cards, in the pack's order of regions."""
    content = f.content
    for d, deck in enumerate(decks):
        where = f"decks[{d}]"
        if deck.get("region", content.regions[d]) != content.regions[d]:
            raise f.bad(f"{where}.region", f"deck {d} is {content.regions[d]!r}, got {deck['region']!r}")
        for i, c in enumerate((deck["face_up"], *deck["face_down"])):
            if c != EMPTY and content.cards[c].region != d:
                name = "face_up" if i == 0 else f"face_down[{i - 1}]"
                raise f.bad(
                    f"{where}.{name}",
                    f"{content.cards[c].code} belongs to the {content.regions[content.cards[c].region]} deck",
                )


def check_cards(
    f: Checker,
    decks: Sequence[Sequence[int]],
    face_up: Sequence[int],
    careers: Sequence[Sequence[int]],
    discarded: Sequence[int],
) -> None:
    """Every career card of the pack exactly once: face down, face up, in a career or discarded."""
    seen: dict[int, str] = {}
    places = [(f"decks[{d}].face_down", c) for d, deck in enumerate(decks) for c in deck]
    places += [(f"decks[{d}].face_up", c) for d, c in enumerate(face_up) if c != EMPTY]
    places += [(f"players[{p}].career_cards", c) for p, cs in enumerate(careers) for c in cs]
    places += [("discarded_cards", c) for c in discarded]
    for where, c in places:
        if c in seen:
            code = f.content.cards[c].code
            raise f.bad(
                where,
                f"career card {code} is also in {seen[c]}: every card is in one place",
                "tiberius/setup",
            )
        seen[c] = where
    if len(seen) != len(f.content.cards):
        missing = next(c.code for c in f.content.cards if c.id not in seen)
        raise f.bad(
            "discarded_cards",
            f"career card {missing} is nowhere: every card is face down, face up, in a career or discarded",
            "tiberius/setup",
        )


def check_adoptions(
    f: Checker, seats: Sequence[Mapping[str, Any]], face_up: Sequence[int], unused: Sequence[int]
) -> None:
    """Every adoption card exactly once: a seat's card (or hidden among the unused), face up,
    unused, or claimed by an adopted seat; as many face up or claimed as were dealt face up."""
    seen: dict[int, str] = {}
    places = [
        (f"players[{p}].adoption_card", s["adoption_card"])
        for p, s in enumerate(seats)
        if s["adoption_card"] != HIDDEN
    ]
    claimed = [
        (f"players[{p}].adopted_with", s["adopted_with"])
        for p, s in enumerate(seats)
        if s["adopted_with"] >= 0 and s["adopted_with"] != s["adoption_card"]
    ]
    places += claimed
    places += [("adoption_cards_face_up", a) for a in face_up] + [
        ("adoption_cards_unused", a) for a in unused
    ]
    for where, a in places:
        if a in seen:
            code = f.content.adoptions[a].code
            raise f.bad(where, f"adoption card {code} is also in {seen[a]}", "tiberius/adoption-phase")
        seen[a] = where
    if len(seen) != len(f.content.adoptions):
        missing = next(a.code for a in f.content.adoptions if a.id not in seen)
        raise f.bad(
            "adoption_cards_unused",
            f"adoption card {missing} is nowhere (hidden cards are among the unused)",
            "tiberius/setup",
        )
    dealt = face_up_adoptions(len(seats))
    if len(face_up) + len(claimed) != dealt:
        raise f.bad(
            "adoption_cards_face_up",
            f"{len(face_up)} face up and {len(claimed)} claimed, "
            f"but {dealt} were dealt face up for {len(seats)} players",
            "tiberius/setup",
        )
    hidden = sum(1 for s in seats if s["adoption_card"] == HIDDEN)
    if hidden == 0 and len(unused) != len(f.content.adoptions) - dealt - len(seats):
        raise f.bad(
            "adoption_cards_unused",
            "one adoption card per player, the rest face up or unused",
            "tiberius/setup",
        )


class Coherence:
    """The cross-field checks of a position whose every field is valid on its own: the phase's
    pending decision is coherent and the seat to act really decides (rule code relies on it)."""

    def __init__(self, f: Checker, content: Content, s: TiberiusState) -> None:
        self.f = f
        self.content = content
        self.s = s

    def check(self) -> None:
        s, f = self.s, self.f
        for p in range(s.num_players):
            self._seat(p)
        bids = [p.bid for p in s.players]
        if s.phase not in (CARD, PICK) and any(bids):
            seat = next(p for p in range(s.num_players) if bids[p])
            raise f.bad(
                f"players[{seat}].cubes.bid",
                "bids go to stock once the bidders have picked",
                "tiberius/card-phase",
            )
        live = [b for b in bids if b > 0]
        if len(live) != len(set(live)):
            raise f.bad("players", "two seats bid the same: bids must be unique", "tiberius/card-phase")
        if s.phase in (CUBE, ADOPT, OVER) and any(c != EMPTY for c in s.face_up):
            raise f.bad(
                "decks",
                "the unselected face-up cards leave the game once the bidders have picked",
                "tiberius/card-phase",
            )
        if s.phase != CUBE and (s.black or s.row_open or s.family or s.moved):
            raise f.bad("cube_action", "there is a cube action only in the cube phase", "tiberius/cube-phase")
        if s.phase == CARD:
            self._card_phase()
        elif s.phase == PICK:
            self._picks()
        elif s.phase == CUBE:
            self._cube_phase()
        elif (
            s.phase == ADOPT
            and s.players[s.actor].secret != HIDDEN
            and not rules.adoption_options(s, self.content, s.actor)
        ):
            raise f.bad(
                "to_act",
                f"seat {s.actor} cannot be adopted now, so it does not decide",
                "tiberius/adoption-phase",
            )
        if s.phase != OVER and not rules.legal_actions(s, self.content):
            raise f.bad("to_act", f"seat {s.actor} has no legal action here")

    def _seat(self, p: int) -> None:
        s, f = self.s, self.f
        where = f"players[{p}]"
        me = s.players[p]
        played, careers = me.played, me.careers
        if played >= 0 and (not careers or careers[-1] != played):
            raise f.bad(
                f"{where}.card_this_turn",
                "this turn's card is the last of the seat's career cards",
                "tiberius/card-phase",
            )
        if played == PCIM_CARD and not me.pcim_used:
            raise f.bad(
                f"{where}.pro_consular_imperium_maius_played",
                "the seat plays the Pro-Consular Imperium Maius card this turn",
                "tiberius/card-phase",
            )
        earlier = len(careers) - (1 if played >= 0 else 0)
        if earlier > min(s.turn - 1, s.turns):
            raise f.bad(
                f"{where}.career_cards",
                f"{len(careers)} career cards by turn {s.turn}: one per turn at most",
                "tiberius/card-phase",
            )
        if me.bid and played != NOTHING:
            raise f.bad(
                f"{where}.cubes.bid", "a seat that bid has no card until it picks", "tiberius/card-phase"
            )

    def _card_phase(self) -> None:
        s, f = self.s, self.f
        order = rules.priority_order(s.start_priority, s.num_players)
        for p in order[order.index(s.actor) :]:
            if s.players[p].bid or s.players[p].played != NOTHING:
                raise f.bad(
                    f"players[{p}]",
                    f"seat {p} has not acted in this card phase yet "
                    f"(it comes after the seats before seat {s.actor})",
                    "tiberius/card-phase",
                )

    def _picks(self) -> None:
        s, f = self.s, self.f
        if not any(c != EMPTY for c in s.face_up):
            raise f.bad("decks", "bidders pick while face-up cards are left", "tiberius/card-phase")
        top = max(range(s.num_players), key=lambda p: s.players[p].bid)
        if s.players[s.actor].bid <= 0 or top != s.actor:
            raise f.bad("to_act", f"the highest bidder picks first (seat {top})", "tiberius/card-phase")

    def _cube_phase(self) -> None:
        s, f = self.s, self.f
        a = s.actor
        me = s.players[a]
        mine = me.cubes
        if me.played == NOTHING:
            raise f.bad(
                "to_act", f"seat {a} has no card this turn, so it has no cube action", "tiberius/cube-phase"
            )
        if s.family and not (mine[IM] > 0 or me.adopted >= 0) and me.played != PCIM_CARD:
            raise f.bad(
                "cube_action.augustus_family",
                "family means Imperial Marriages cubes or adopted (cubes are only added in a card's action)",
                "tiberius/special-cases",
            )
        if me.adopted >= 0 and not s.family:
            raise f.bad(
                "cube_action.augustus_family", "an adopted son is Augustus's family", "tiberius/special-cases"
            )
        if me.played == PCIM_CARD:
            if s.black or s.row_open:
                raise f.bad(
                    "cube_action",
                    "Pro-Consular Imperium Maius moves cubes: no icons to place",
                    "tiberius/pcim-card",
                )
            if s.moved > mine[PC]:
                raise f.bad(
                    "cube_action.cubes_moved_to_gray",
                    "more cubes moved than are in gray",
                    "tiberius/pcim-card",
                )
            return
        card = self.content.cards[me.played]
        if s.moved:
            raise f.bad(
                "cube_action.cubes_moved_to_gray",
                "only Pro-Consular Imperium Maius moves cubes",
                "tiberius/pcim-card",
            )
        if s.row_open and len(card.rows) < 2:
            raise f.bad("cube_action.extra_row_open", f"{card.code} has no extra row", "tiberius/cube-phase")
        icons = sum(1 for row in card.rows for i in row.icons if i < 0)
        if s.black > icons:
            raise f.bad(
                "cube_action.black_icons_to_place",
                f"{card.code} has {icons} black icons",
                "tiberius/special-cases",
            )
