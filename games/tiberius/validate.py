"""Reading the public form of a Tiberius Who? position: typed, validating reads of plain JSON
(``Fields``), each part of the form read and checked on its own (``read_player``, ``read_decks``,
every card in one place), then the cross-field coherence of the position (``Coherence``). Every
failure is an ``InvalidStateError`` naming the first bad field (``state.players[1].cubes.conquests``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.errors import InvalidStateError
from games.tiberius import rules
from games.tiberius.model import (
    ADOPT,
    BOX_KEYS,
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
    PICK,
    Content,
    TiberiusState,
)
from games.tiberius.schema import PCIM_ID, PLAYER_KEYS
from games.tiberius.setup import face_up_adoptions

__all__ = [
    "Coherence",
    "Fields",
    "check_adoptions",
    "check_cards",
    "read_adoptions",
    "read_cubes",
    "read_decks",
    "read_player",
    "read_variants",
    "show",
]

_SHOWN = 60


def show(value: Any) -> str:
    """A short, safe ``repr`` of input for a message (never deep, never a huge integer spelled out)."""
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int):
        return repr(value) if value.bit_length() <= 64 else f"<an integer of {value.bit_length()} bits>"
    if isinstance(value, str):
        return repr(value if len(value) <= _SHOWN else value[:_SHOWN] + "...")
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, Mapping):
        return f"<an object of {len(value)} keys>"
    if isinstance(value, list | tuple):
        return f"<a list of {len(value)} items>"
    return f"<{type(value).__name__}>"


class Fields:
    """Typed, validating reads of plain JSON data; every failure is an ``InvalidStateError`` naming
    the field under ``root`` (``state`` or ``score_sheet``)."""

    def __init__(self, content: Content, root: str) -> None:
        self.content = content
        self.root = root
        self.cards = {c.code: c.id for c in content.cards}
        self.adoptions = {a.code: a.id for a in content.adoptions}

    def bad(self, field: str, why: str, rule: str = "") -> InvalidStateError:
        where = f"{self.root}.{field}" if field else self.root
        return InvalidStateError(
            f"invalid tiberius {self.root.replace('_', ' ')}: {why}", field=where, rule=rule
        )

    def obj(
        self, field: str, value: Any, keys: Sequence[str], *, optional: Sequence[str] = ()
    ) -> Mapping[str, Any]:
        """An object with exactly ``keys`` (and any of ``optional``)."""
        if not isinstance(value, Mapping):
            raise self.bad(field, f"expected an object, got {show(value)}")
        for key in value:
            if key not in keys and key not in optional:
                name = key if isinstance(key, str) and len(key) <= 40 else show(key)
                raise self.bad(
                    f"{field}.{name}" if field else str(name), f"unknown field; expected {list(keys)}"
                )
        for key in keys:
            if key not in value:
                raise self.bad(f"{field}.{key}" if field else key, "missing")
        return value

    def integer(self, field: str, value: Any, lo: int, hi: int, rule: str = "") -> int:
        if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
            raise self.bad(field, f"expected an integer {lo}..{hi}, got {show(value)}", rule)
        return value

    def boolean(self, field: str, value: Any) -> bool:
        if not isinstance(value, bool):
            raise self.bad(field, f"expected true or false, got {show(value)}")
        return value

    def choice(self, field: str, value: Any, choices: Sequence[Any]) -> Any:
        if isinstance(value, bool) or value not in choices:
            raise self.bad(field, f"expected one of {list(choices)}, got {show(value)}")
        return value

    def items(self, field: str, value: Any, *, length: int | None = None, most: int = 64) -> list[Any]:
        if not isinstance(value, list):
            raise self.bad(field, f"expected a list, got {show(value)}")
        if length is not None and len(value) != length:
            raise self.bad(field, f"expected {length} entries, got {len(value)}")
        if len(value) > most:
            raise self.bad(field, f"expected at most {most} entries, got {len(value)}")
        return value

    def card(self, field: str, code: Any) -> int:
        if not isinstance(code, str) or code not in self.cards:
            raise self.bad(field, f"no career card {show(code)} in the content pack (ids like 'HIS06')")
        return self.cards[code]

    def adoption(self, field: str, code: Any) -> int:
        if not isinstance(code, str) or code not in self.adoptions:
            raise self.bad(field, f"no adoption card {show(code)} in the content pack (ids like 'A04')")
        return self.adoptions[code]

    def seat(self, field: str, value: Any, players: int) -> int:
        return self.integer(field, value, 0, players - 1)


def read_variants(f: Fields, raw: Any, choices: Mapping[str, Sequence[Any]], field: str) -> dict[str, Any]:
    """The variants (a missing one takes its default, the first choice)."""
    data = f.obj(field, raw, (), optional=tuple(choices))
    return {
        key: f.choice(f"{field}.{key}", data.get(key, options[0]), options)
        for key, options in choices.items()
    }


def read_player(f: Fields, p: int, raw: Any, turns: int) -> dict[str, Any]:
    """One seat's holdings (``players[p]``)."""
    where = f"players[{p}]"
    data = f.obj(where, raw, tuple(k for k in PLAYER_KEYS if k != "stock"), optional=("stock",))
    cubes = read_cubes(f, f"{where}.cubes", data["cubes"])
    given = data.get("stock", CUBES_PER_PLAYER - sum(cubes))  # (may be left out: it is implied)
    stock = f.integer(f"{where}.stock", given, 0, CUBES_PER_PLAYER)
    if stock != CUBES_PER_PLAYER - sum(cubes):
        raise f.bad(
            f"{where}.stock",
            f"{sum(cubes)} cubes in boxes and {stock} in stock: every seat has exactly {CUBES_PER_PLAYER}",
            "tiberius/setup",
        )
    careers = tuple(
        f.card(f"{where}.career_cards[{i}]", c)
        for i, c in enumerate(f.items(f"{where}.career_cards", data["career_cards"], most=turns))
    )
    raw_played = data["card_this_turn"]
    if raw_played is None:
        played = NOTHING
    elif raw_played == PCIM_ID:
        played = PCIM_CARD
    else:
        played = f.card(f"{where}.card_this_turn", raw_played)
    secret, adopted = data["adoption_card"], data["adopted_with"]
    return {
        "cubes": cubes,
        "careers": careers,
        "played": played,
        "pcim_used": f.boolean(
            f"{where}.pro_consular_imperium_maius_played", data["pro_consular_imperium_maius_played"]
        ),
        "secret": HIDDEN if secret is None else f.adoption(f"{where}.adoption_card", secret),
        "adopted": -1 if adopted is None else f.adoption(f"{where}.adopted_with", adopted),
    }


def read_cubes(f: Fields, where: str, raw: Any) -> tuple[int, ...]:
    """A seat's cubes per box (a missing box holds none); at most 40 in all."""
    data = f.obj(where, raw, (), optional=BOX_KEYS)
    cubes = tuple(f.integer(f"{where}.{key}", data.get(key, 0), 0, CUBES_PER_PLAYER) for key in BOX_KEYS)
    if sum(cubes) > CUBES_PER_PLAYER:
        raise f.bad(
            where,
            f"{sum(cubes)} cubes placed; {CUBES_PER_PLAYER} per seat is an absolute limit",
            "tiberius/setup",
        )
    return cubes


def read_decks(f: Fields, raw: Any) -> tuple[list[int], list[tuple[int, ...]]]:
    """The face-up card and the face-down cards of each regional deck."""
    content = f.content
    face_up: list[int] = []
    decks: list[tuple[int, ...]] = []
    for d, entry in enumerate(f.items("decks", raw, length=len(content.decks))):
        where = f"decks[{d}]"
        data = f.obj(where, entry, ("face_up", "face_down"), optional=("region",))
        if data.get("region", content.regions[d]) != content.regions[d]:
            raise f.bad(f"{where}.region", f"deck {d} is {content.regions[d]!r}, got {show(data['region'])}")
        up = EMPTY if data["face_up"] is None else f.card(f"{where}.face_up", data["face_up"])
        down = tuple(
            f.card(f"{where}.face_down[{i}]", c)
            for i, c in enumerate(
                f.items(f"{where}.face_down", data["face_down"], most=len(content.decks[d]))
            )
        )
        for i, c in enumerate((up, *down)):
            if c != EMPTY and content.cards[c].region != d:
                name = "face_up" if i == 0 else f"face_down[{i - 1}]"
                raise f.bad(
                    f"{where}.{name}",
                    f"{content.cards[c].code} belongs to the {content.regions[content.cards[c].region]} deck",
                )
        face_up.append(up)
        decks.append(down)
    return face_up, decks


def check_cards(
    f: Fields,
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


def read_adoptions(f: Fields, raw: Any, field: str) -> list[int]:
    return [
        f.adoption(f"{field}[{i}]", a)
        for i, a in enumerate(f.items(field, raw, most=len(f.content.adoptions)))
    ]


def check_adoptions(
    f: Fields, seats: Sequence[Mapping[str, Any]], face_up: Sequence[int], unused: Sequence[int]
) -> None:
    """Every adoption card exactly once: a seat's card (or hidden among the unused), face up,
    unused, or claimed by an adopted seat; as many face up or claimed as were dealt face up."""
    seen: dict[int, str] = {}
    places = [
        (f"players[{p}].adoption_card", s["secret"]) for p, s in enumerate(seats) if s["secret"] != HIDDEN
    ]
    claimed = [
        (f"players[{p}].adopted_with", s["adopted"])
        for p, s in enumerate(seats)
        if s["adopted"] >= 0 and s["adopted"] != s["secret"]
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
    hidden = sum(1 for s in seats if s["secret"] == HIDDEN)
    if hidden == 0 and len(unused) != len(f.content.adoptions) - dealt - len(seats):
        raise f.bad(
            "adoption_cards_unused",
            "one adoption card per player, the rest face up or unused",
            "tiberius/setup",
        )


class Coherence:
    """The cross-field checks of a position whose every field is valid on its own: the phase's
    pending decision is coherent and the seat to act really decides (rule code relies on it)."""

    def __init__(self, f: Fields, content: Content, s: TiberiusState) -> None:
        self.f = f
        self.content = content
        self.s = s

    def check(self) -> None:
        s, f = self.s, self.f
        for p in range(s.players):
            self._seat(p)
        if s.phase not in (CARD, PICK) and any(s.bids):
            seat = next(p for p in range(s.players) if s.bids[p])
            raise f.bad(
                f"players[{seat}].cubes.bid",
                "bids go to stock once the bidders have picked",
                "tiberius/card-phase",
            )
        live = [b for b in s.bids if b > 0]
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
            and s.secret[s.actor] != HIDDEN
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
        played, careers = s.played[p], s.careers[p]
        if played >= 0 and (not careers or careers[-1] != played):
            raise f.bad(
                f"{where}.card_this_turn",
                "this turn's card is the last of the seat's career cards",
                "tiberius/card-phase",
            )
        if played == PCIM_CARD and not s.pcim_used[p]:
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
        if s.bids[p] and s.played[p] != NOTHING:
            raise f.bad(
                f"{where}.cubes.bid", "a seat that bid has no card until it picks", "tiberius/card-phase"
            )

    def _card_phase(self) -> None:
        s, f = self.s, self.f
        order = rules.priority_order(s.start_priority, s.players)
        for p in order[order.index(s.actor) :]:
            if s.bids[p] or s.played[p] != NOTHING:
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
        top = max(range(s.players), key=lambda p: s.bids[p])
        if s.bids[s.actor] <= 0 or top != s.actor:
            raise f.bad("to_act", f"the highest bidder picks first (seat {top})", "tiberius/card-phase")

    def _cube_phase(self) -> None:
        s, f = self.s, self.f
        a = s.actor
        mine = s.cubes[a]
        if s.played[a] == NOTHING:
            raise f.bad(
                "to_act", f"seat {a} has no card this turn, so it has no cube action", "tiberius/cube-phase"
            )
        if s.family and not (mine[IM] > 0 or s.adopted[a] >= 0) and s.played[a] != PCIM_CARD:
            raise f.bad(
                "cube_action.augustus_family",
                "family means Imperial Marriages cubes or adopted (cubes are only added in a card's action)",
                "tiberius/special-cases",
            )
        if s.adopted[a] >= 0 and not s.family:
            raise f.bad(
                "cube_action.augustus_family", "an adopted son is Augustus's family", "tiberius/special-cases"
            )
        if s.played[a] == PCIM_CARD:
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
        card = self.content.cards[s.played[a]]
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
