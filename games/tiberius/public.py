"""The public form of a Tiberius Who? position: the one documented mapping to and from the state.

``to_dict`` writes a position in the rulebook's words: box names (``"conquests"``), career card ids
(``"HIS06"``), adoption card ids (``"A04"``), seats, booleans and lists, never a content-pack index
or a bit mask. ``from_dict`` reads it back and validates every field before any rule code sees it
(types, ranges, ids that exist in the pack, the 40 cubes of every seat, every career card and
adoption card exactly once, and the coherence of the phase: the seat to act really has a decision),
raising only ``InvalidStateError`` naming the first bad field (``state.players[1].cubes.conquests``).
``state_schema`` is its JSON Schema (draft 2020-12).

The short form of an end-of-game position a person types in from a real table (cubes per box,
influence, adoption, loyalty, age) is the score sheet: ``score_sheet_schema``, ``from_score_sheet``.

==============================  =============================================================
public form                     internal state (``TiberiusState``)
==============================  =============================================================
``turn``                        ``turn``
``phase``                       ``phase`` (``PHASE_NAMES``: card, pick, cube, adoption, over)
``to_act``                      ``actor`` (null once the game is over)
``priority_marker``             ``priority``
``priority_order_from``         ``start_priority``
``players[s].cubes.<box>``      ``cubes[s][box]`` (``BOX_KEYS``; ``bid`` is this turn's bid)
``players[s].stock``            40 minus the seat's cubes (checked)
``players[s].career_cards``     ``careers[s]`` (card ids)
``players[s].card_this_turn``   ``played[s]`` (card id, ``"pro_consular_imperium_maius"`` or null)
``players[s]....maius_played``  ``pcim_used[s]`` (``pro_consular_imperium_maius_played``)
``players[s].adoption_card``    ``secret[s]`` (null: hidden from this view)
``players[s].adopted_with``     ``adopted[s]``
``oldest_first``                ``age``
``decks[d]``                    ``face_up[d]``, ``decks[d]`` (face down, top first)
``discarded_cards``             ``discarded``
``adoption_cards_face_up``      ``adopt_face_up``
``adoption_cards_unused``       ``adopt_unused`` (with, in a seat's view, the cards it cannot see)
``cube_action``                 ``black``, ``row_open``, ``family``, ``moved``
``variants``                    ``influence_table`` ... ``turns``
==============================  =============================================================
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.errors import InvalidStateError
from games.tiberius import rules
from games.tiberius.model import (
    ADOPT,
    BD,
    BOARD_BOXES,
    BOX_KEYS,
    BOX_NAMES,
    CARD,
    CUBE,
    CUBES_PER_PLAYER,
    EMPTY,
    HIDDEN,
    IM,
    IN,
    NOTHING,
    OVER,
    PC,
    PCIM_CARD,
    PHASE_NAMES,
    PICK,
    TURNS,
    VARIANT_CHOICES,
    VARIANTS,
    Content,
    TiberiusState,
    face_up_adoptions,
)

__all__ = ["PublicForm", "ScoreSheet"]

PCIM_ID = "pro_consular_imperium_maius"
"""The Pro-Consular Imperium Maius card in the public form (``card_this_turn``)."""
_TOP_KEYS = (
    "turn",
    "phase",
    "to_act",
    "priority_marker",
    "priority_order_from",
    "players",
    "oldest_first",
    "decks",
    "discarded_cards",
    "adoption_cards_face_up",
    "adoption_cards_unused",
    "cube_action",
    "variants",
)
_PLAYER_KEYS = (
    "cubes",
    "stock",
    "career_cards",
    "card_this_turn",
    "pro_consular_imperium_maius_played",
    "adoption_card",
    "adopted_with",
)
_DECK_KEYS = ("region", "face_up", "face_down")
_ACTION_KEYS = ("black_icons_to_place", "extra_row_open", "augustus_family", "cubes_moved_to_gray")
SHEET_BOXES = tuple(BOX_KEYS[b] for b in (*BOARD_BOXES, IN))
"""The boxes of a score sheet: the main board's and Influence."""
_SHEET_KEYS = (*SHEET_BOXES, "adopted", "all_six_decks", "age")
_SHEET_VARIANTS = ("marriage_vp", "imperator_solo", "imperator_empty")
_SHOWN = 60


def _show(value: Any) -> str:
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


class _Fields:
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
            raise self.bad(field, f"expected an object, got {_show(value)}")
        for key in value:
            if key not in keys and key not in optional:
                name = key if isinstance(key, str) and len(key) <= 40 else _show(key)
                raise self.bad(
                    f"{field}.{name}" if field else str(name), f"unknown field; expected {list(keys)}"
                )
        for key in keys:
            if key not in value:
                raise self.bad(f"{field}.{key}" if field else key, "missing")
        return value

    def integer(self, field: str, value: Any, lo: int, hi: int, rule: str = "") -> int:
        if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
            raise self.bad(field, f"expected an integer {lo}..{hi}, got {_show(value)}", rule)
        return value

    def boolean(self, field: str, value: Any) -> bool:
        if not isinstance(value, bool):
            raise self.bad(field, f"expected true or false, got {_show(value)}")
        return value

    def choice(self, field: str, value: Any, choices: Sequence[Any]) -> Any:
        if isinstance(value, bool) or value not in choices:
            raise self.bad(field, f"expected one of {list(choices)}, got {_show(value)}")
        return value

    def items(self, field: str, value: Any, *, length: int | None = None, most: int = 64) -> list[Any]:
        if not isinstance(value, list):
            raise self.bad(field, f"expected a list, got {_show(value)}")
        if length is not None and len(value) != length:
            raise self.bad(field, f"expected {length} entries, got {len(value)}")
        if len(value) > most:
            raise self.bad(field, f"expected at most {most} entries, got {len(value)}")
        return value

    def card(self, field: str, code: Any) -> int:
        if not isinstance(code, str) or code not in self.cards:
            raise self.bad(field, f"no career card {_show(code)} in the content pack (ids like 'HIS06')")
        return self.cards[code]

    def adoption(self, field: str, code: Any) -> int:
        if not isinstance(code, str) or code not in self.adoptions:
            raise self.bad(field, f"no adoption card {_show(code)} in the content pack (ids like 'A04')")
        return self.adoptions[code]

    def seat(self, field: str, value: Any, players: int) -> int:
        return self.integer(field, value, 0, players - 1)


def _read_variants(f: _Fields, raw: Any, choices: Mapping[str, Sequence[Any]], field: str) -> dict[str, Any]:
    """The variants (a missing one takes its default, the first choice)."""
    data = f.obj(field, raw, (), optional=tuple(choices))
    return {
        key: f.choice(f"{field}.{key}", data.get(key, options[0]), options)
        for key, options in choices.items()
    }


class PublicForm:
    """``to_dict`` / ``from_dict`` / ``state_schema`` and the score sheet for one content pack.

    Args:
        content: the content pack.
    """

    def __init__(self, content: Content) -> None:
        self.content = content
        self._schema: dict[str, Any] | None = None
        self.sheet = ScoreSheet(content)

    # ------------------------------------------------------------------ writing
    def to_dict(self, s: TiberiusState) -> dict[str, Any]:
        """The public form of ``s`` (plain JSON types, the rulebook's words)."""
        cards, adoptions = self.content.cards, self.content.adoptions

        def adoption(a: int) -> str | None:
            return None if a < 0 else adoptions[a].code

        players = []
        for p in range(s.players):
            played = s.played[p]
            players.append(
                {
                    "cubes": dict(zip(BOX_KEYS, s.cubes[p], strict=True)),
                    "stock": s.stock(p),
                    "career_cards": [cards[c].code for c in s.careers[p]],
                    "card_this_turn": PCIM_ID
                    if played == PCIM_CARD
                    else (None if played < 0 else cards[played].code),
                    "pro_consular_imperium_maius_played": s.pcim_used[p],
                    "adoption_card": adoption(s.secret[p]),
                    "adopted_with": adoption(s.adopted[p]),
                }
            )
        return {
            "turn": s.turn,
            "phase": PHASE_NAMES[s.phase],
            "to_act": None if s.phase == OVER else s.actor,
            "priority_marker": s.priority,
            "priority_order_from": s.start_priority,
            "players": players,
            "oldest_first": list(s.age),
            "decks": [
                {
                    "region": self.content.regions[d],
                    "face_up": None if s.face_up[d] == EMPTY else cards[s.face_up[d]].code,
                    "face_down": [cards[c].code for c in s.decks[d]],
                }
                for d in range(len(s.decks))
            ],
            "discarded_cards": [cards[c].code for c in s.discarded],
            "adoption_cards_face_up": [adoptions[a].code for a in s.adopt_face_up],
            "adoption_cards_unused": [adoptions[a].code for a in s.adopt_unused],
            "cube_action": {
                "black_icons_to_place": s.black,
                "extra_row_open": s.row_open,
                "augustus_family": s.family,
                "cubes_moved_to_gray": s.moved,
            },
            "variants": {
                "influence_table": s.influence_table,
                "pcim_rule": s.pcim_rule,
                "marriage_vp": s.marriage_vp,
                "imperator_solo": s.imperator_solo,
                "imperator_empty": s.imperator_empty,
                "turns": s.turns,
            },
        }

    # ------------------------------------------------------------------ reading
    def from_dict(self, data: Any) -> TiberiusState:
        """A state from its public form, every field validated (``InvalidStateError`` only)."""
        f = _Fields(self.content, "state")
        top = f.obj("", data, _TOP_KEYS)
        variants = _read_variants(f, top["variants"], VARIANT_CHOICES, "variants")
        turns = int(variants["turns"])
        raw_players = f.items("players", top["players"], most=6)
        n = len(raw_players)
        if n == 0:
            raise f.bad("players", "1 to 6 players", "tiberius/setup")
        seats = [self._player(f, p, raw, turns) for p, raw in enumerate(raw_players)]
        face_up, decks = self._decks(f, top["decks"])
        discarded = [
            f.card(f"discarded_cards[{i}]", c)
            for i, c in enumerate(f.items("discarded_cards", top["discarded_cards"]))
        ]
        self._check_cards(f, decks, face_up, [p["careers"] for p in seats], discarded)
        adopt_face_up = self._adoptions(f, top["adoption_cards_face_up"], "adoption_cards_face_up")
        adopt_unused = self._adoptions(f, top["adoption_cards_unused"], "adoption_cards_unused")
        self._check_adoptions(f, seats, adopt_face_up, adopt_unused)
        phase = PHASE_NAMES.index(f.choice("phase", top["phase"], PHASE_NAMES))
        turn = f.integer("turn", top["turn"], 1, turns + 1)
        if (phase == OVER) != (turn == turns + 1):
            raise f.bad(
                "turn",
                f"turn {turn} does not fit phase {PHASE_NAMES[phase]!r} ({turns} turns)",
                "tiberius/end-of-game",
            )
        if phase == OVER:
            if top["to_act"] is not None:
                raise f.bad("to_act", "nobody acts once the game is over", "tiberius/end-of-game")
            actor = -1
        else:
            actor = f.seat("to_act", top["to_act"], n)
        oldest = f.items("oldest_first", top["oldest_first"], length=n)
        if sorted(a for a in oldest if isinstance(a, int) and not isinstance(a, bool)) != list(range(n)):
            raise f.bad(
                "oldest_first", f"expected every seat 0..{n - 1} once, oldest first, got {_show(oldest)}"
            )
        action = f.obj("cube_action", top["cube_action"], _ACTION_KEYS)
        state = TiberiusState(
            turn=turn,
            phase=phase,
            actor=actor,
            start_priority=f.seat("priority_order_from", top["priority_order_from"], n),
            priority=f.seat("priority_marker", top["priority_marker"], n),
            cubes=tuple(p["cubes"] for p in seats),
            decks=tuple(decks),
            face_up=tuple(face_up),
            careers=tuple(p["careers"] for p in seats),
            played=tuple(p["played"] for p in seats),
            bids=tuple(p["cubes"][BD] for p in seats),
            pcim_used=tuple(p["pcim_used"] for p in seats),
            secret=tuple(p["secret"] for p in seats),
            adopt_face_up=tuple(sorted(adopt_face_up)),
            adopt_unused=tuple(sorted(adopt_unused)),
            adopted=tuple(p["adopted"] for p in seats),
            discarded=tuple(discarded),
            black=f.integer("cube_action.black_icons_to_place", action["black_icons_to_place"], 0, 12),
            row_open=f.boolean("cube_action.extra_row_open", action["extra_row_open"]),
            family=f.boolean("cube_action.augustus_family", action["augustus_family"]),
            moved=f.integer(
                "cube_action.cubes_moved_to_gray", action["cubes_moved_to_gray"], 0, CUBES_PER_PLAYER
            ),
            age=tuple(oldest),
            influence_table=str(variants["influence_table"]),
            pcim_rule=str(variants["pcim_rule"]),
            marriage_vp=str(variants["marriage_vp"]),
            imperator_solo=str(variants["imperator_solo"]),
            imperator_empty=str(variants["imperator_empty"]),
            turns=turns,
        )
        _Coherence(f, self.content, state).check()
        return state

    def _player(self, f: _Fields, p: int, raw: Any, turns: int) -> dict[str, Any]:
        """One seat's holdings (``players[p]``)."""
        where = f"players[{p}]"
        data = f.obj(where, raw, tuple(k for k in _PLAYER_KEYS if k != "stock"), optional=("stock",))
        cubes = self._cubes(f, f"{where}.cubes", data["cubes"])
        given = data.get("stock", CUBES_PER_PLAYER - sum(cubes))  # (may be left out: it is implied)
        stock = f.integer(f"{where}.stock", given, 0, CUBES_PER_PLAYER)
        if stock != CUBES_PER_PLAYER - sum(cubes):
            raise f.bad(
                f"{where}.stock",
                f"{sum(cubes)} cubes in boxes and {stock} in stock: "
                f"every seat has exactly {CUBES_PER_PLAYER}",
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

    def _cubes(self, f: _Fields, where: str, raw: Any) -> tuple[int, ...]:
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

    def _decks(self, f: _Fields, raw: Any) -> tuple[list[int], list[tuple[int, ...]]]:
        """The face-up card and the face-down cards of each regional deck."""
        content = self.content
        face_up: list[int] = []
        decks: list[tuple[int, ...]] = []
        for d, entry in enumerate(f.items("decks", raw, length=len(content.decks))):
            where = f"decks[{d}]"
            data = f.obj(where, entry, ("face_up", "face_down"), optional=("region",))
            if data.get("region", content.regions[d]) != content.regions[d]:
                raise f.bad(
                    f"{where}.region", f"deck {d} is {content.regions[d]!r}, got {_show(data['region'])}"
                )
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
                        f"{content.cards[c].code} belongs to the "
                        f"{content.regions[content.cards[c].region]} deck",
                    )
            face_up.append(up)
            decks.append(down)
        return face_up, decks

    def _check_cards(
        self,
        f: _Fields,
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
                code = self.content.cards[c].code
                raise f.bad(
                    where,
                    f"career card {code} is also in {seen[c]}: every card is in one place",
                    "tiberius/setup",
                )
            seen[c] = where
        if len(seen) != len(self.content.cards):
            missing = next(c.code for c in self.content.cards if c.id not in seen)
            raise f.bad(
                "discarded_cards",
                f"career card {missing} is nowhere: "
                "every card is face down, face up, in a career or discarded",
                "tiberius/setup",
            )

    def _adoptions(self, f: _Fields, raw: Any, field: str) -> list[int]:
        return [
            f.adoption(f"{field}[{i}]", a)
            for i, a in enumerate(f.items(field, raw, most=len(self.content.adoptions)))
        ]

    def _check_adoptions(
        self, f: _Fields, seats: Sequence[Mapping[str, Any]], face_up: Sequence[int], unused: Sequence[int]
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
                code = self.content.adoptions[a].code
                raise f.bad(where, f"adoption card {code} is also in {seen[a]}", "tiberius/adoption-phase")
            seen[a] = where
        if len(seen) != len(self.content.adoptions):
            missing = next(a.code for a in self.content.adoptions if a.id not in seen)
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
        if hidden == 0 and len(unused) != len(self.content.adoptions) - dealt - len(seats):
            raise f.bad(
                "adoption_cards_unused",
                "one adoption card per player, the rest face up or unused",
                "tiberius/setup",
            )

    # ------------------------------------------------------------------ schema
    def state_schema(self) -> dict[str, Any]:
        """The JSON Schema (draft 2020-12) of the public form."""
        if self._schema is None:
            self._schema = _state_schema(self.content)
        return self._schema

    # ------------------------------------------------------------------ the score sheet
    def score_sheet_schema(self) -> dict[str, Any]:
        """See :class:`ScoreSheet`."""
        return self.sheet.schema()

    def from_score_sheet(self, data: Any) -> TiberiusState:
        """See :class:`ScoreSheet`."""
        return self.sheet.read(data)


def _sheet_names() -> list[str]:
    return [BOX_NAMES[BOX_KEYS.index(key)] for key in SHEET_BOXES]


class _Coherence:
    """The cross-field checks of a position whose every field is valid on its own: the phase's
    pending decision is coherent and the seat to act really decides (rule code relies on it)."""

    def __init__(self, f: _Fields, content: Content, s: TiberiusState) -> None:
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


def _variants_schema(names: Sequence[str]) -> dict[str, Any]:
    by_name = {v.name: v for v in VARIANTS}
    return {
        "type": "object",
        "additionalProperties": False,
        "description": "the readings the game was set up with (a missing one takes its default)",
        "properties": {
            name: {
                "enum": list(by_name[name].choices),
                "default": by_name[name].default,
                "description": by_name[name].description,
            }
            for name in names
        },
    }


_SEAT = {"type": "integer", "minimum": 0, "maximum": 5}
_COUNT = {"type": "integer", "minimum": 0, "maximum": CUBES_PER_PLAYER}


def _player_schema(card: dict[str, Any], adoption: dict[str, Any]) -> dict[str, Any]:
    """The JSON Schema of one player's holdings (``players[s]``)."""
    count = _COUNT
    return {
        "type": "object",
        "additionalProperties": False,
        "required": [k for k in _PLAYER_KEYS if k != "stock"],
        "properties": {
            "cubes": {
                "type": "object",
                "additionalProperties": False,
                "description": "cubes per box (the main board's, the player mat's Influence and Bid boxes); "
                "'bid' holds this turn's bid",
                "properties": {
                    key: {**count, "description": name} for key, name in zip(BOX_KEYS, BOX_NAMES, strict=True)
                },
            },
            "stock": {**count, "description": "cubes left in stock: 40 minus the cubes in boxes"},
            "career_cards": {
                "type": "array",
                "items": card,
                "maxItems": TURNS,
                "description": "in the order taken",
            },
            "card_this_turn": {
                "anyOf": [card, {"const": PCIM_ID}, {"type": "null"}],
                "description": "the career card taken this turn, 'pro_consular_imperium_maius' for "
                "that card, "
                "or null (took 2 Influence, or has not acted or picked yet)",
            },
            "pro_consular_imperium_maius_played": {
                "type": "boolean",
                "description": "the Pro-Consular Imperium Maius card has been played this game",
            },
            "adoption_card": {
                "anyOf": [adoption, {"type": "null"}],
                "description": "the secret adoption card (null: hidden from this view)",
            },
            "adopted_with": {
                "anyOf": [adoption, {"type": "null"}],
                "description": "the card that made the seat a Son of Augustus",
            },
        },
    }


def _deck_schema(content: Content, card: dict[str, Any]) -> dict[str, Any]:
    """The JSON Schema of one regional deck (``decks[d]``)."""
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["face_up", "face_down"],
        "properties": {
            "region": {"enum": list(content.regions)},
            "face_up": {"anyOf": [card, {"type": "null"}]},
            "face_down": {
                "type": "array",
                "items": card,
                "description": "top first (sorted in a seat's view: the order is hidden)",
            },
        },
    }


def _state_schema(content: Content) -> dict[str, Any]:
    """The JSON Schema of ``PublicForm.to_dict``."""
    seat = _SEAT
    count = _COUNT
    card = {"enum": [c.code for c in content.cards], "description": "a career card id"}
    adoption = {"enum": [a.code for a in content.adoptions], "description": "an adoption card id"}
    player = _player_schema(card, adoption)
    deck = _deck_schema(content, card)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Tiberius Who? position",
        "type": "object",
        "additionalProperties": False,
        "required": list(_TOP_KEYS),
        "properties": {
            "turn": {
                "type": "integer",
                "minimum": 1,
                "maximum": TURNS + 1,
                "description": "the game turn (turns + 1 once over)",
            },
            "phase": {
                "enum": list(PHASE_NAMES),
                "description": "card phase, the bidders' picks, cube phase, adoption phase, or over",
            },
            "to_act": {
                "anyOf": [seat, {"type": "null"}],
                "description": "the seat to decide (null once over)",
            },
            "priority_marker": {**seat, "description": "who holds the Priority marker now"},
            "priority_order_from": {
                **seat,
                "description": "who held it at the start of the turn: first in priority order",
            },
            "players": {"type": "array", "minItems": 1, "maxItems": 6, "items": player},
            "oldest_first": {
                "type": "array",
                "items": seat,
                "description": "the seats from the oldest player (the last tie-breaker)",
            },
            "decks": {
                "type": "array",
                "minItems": len(content.decks),
                "maxItems": len(content.decks),
                "items": deck,
            },
            "discarded_cards": {"type": "array", "items": card},
            "adoption_cards_face_up": {"type": "array", "items": adoption},
            "adoption_cards_unused": {
                "type": "array",
                "items": adoption,
                "description": "with, in a seat's view, the cards it cannot see",
            },
            "cube_action": {
                "type": "object",
                "additionalProperties": False,
                "required": list(_ACTION_KEYS),
                "description": "the cube action in progress (all zero / false outside it)",
                "properties": {
                    "black_icons_to_place": {"type": "integer", "minimum": 0, "maximum": 12},
                    "extra_row_open": {
                        "type": "boolean",
                        "description": "may still buy a second or third row",
                    },
                    "augustus_family": {
                        "type": "boolean",
                        "description": "may place Triumph cubes (marriages or adopted)",
                    },
                    "cubes_moved_to_gray": {
                        **count,
                        "description": "Pro-Consular Imperium Maius: cubes moved to gray so far",
                    },
                },
            },
            "variants": _variants_schema(tuple(VARIANT_CHOICES)),
        },
    }


class ScoreSheet:
    """The short end-of-game form a person types in from a real table: per player the cubes of each
    main-board box and of Influence, whether adopted, whether holding cards of all six decks, and
    (optionally) age; the readings (variants) that change scoring.

    Args:
        content: the content pack.
    """

    def __init__(self, content: Content) -> None:
        self.content = content

    def schema(self) -> dict[str, Any]:
        """The JSON Schema of the score sheet: per player the cubes of each main-board box and of
        Influence, whether adopted, whether holding cards of all six decks, and (optionally) age."""
        count = {"type": "integer", "minimum": 0, "maximum": CUBES_PER_PLAYER}
        player = {
            "type": "object",
            "additionalProperties": False,
            "description": "one player's end-of-game holdings (a box left out holds no cubes)",
            "properties": {
                **{
                    key: {**count, "description": f"cubes in {name}"}
                    for key, name in zip(SHEET_BOXES, _sheet_names(), strict=True)
                },
                "adopted": {"type": "boolean", "default": False, "description": "a Son of Augustus (8 VP)"},
                "all_six_decks": {
                    "type": "boolean",
                    "default": False,
                    "description": "career cards from all six decks (the loyalty bonus, 5 VP)",
                },
                "age": {
                    "type": "integer",
                    "minimum": 0,
                    "maximum": 150,
                    "description": "the player's age in years (the last tie-breaker: the oldest ranks "
                    "higher); give it for every player or for none (then seat 0 is the oldest, ages "
                    "falling clockwise)",
                },
            },
        }
        return {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "Tiberius Who? score sheet",
            "description": "An end-of-game position as a person types it in from a real table.",
            "type": "object",
            "additionalProperties": False,
            "required": ["players"],
            "properties": {
                "players": {"type": "array", "minItems": 1, "maxItems": 6, "items": player},
                "variants": _variants_schema(_SHEET_VARIANTS),
            },
        }

    def read(self, data: Any) -> TiberiusState:
        """The finished position of a score sheet (``InvalidStateError`` naming ``score_sheet.<path>``).

        Only what scores is given; the rest is filled in: a loyal player holds the first card of each
        deck not yet held, an adopted player revealed its own adoption card (which card does not
        score), every other career card is discarded.
        """
        f = _Fields(self.content, "score_sheet")
        top = f.obj("", data, ("players",), optional=("variants",))
        variants = _read_variants(
            f, top.get("variants", {}), {k: VARIANT_CHOICES[k] for k in _SHEET_VARIANTS}, "variants"
        )
        rows = f.items("players", top["players"], most=6)
        n = len(rows)
        if n == 0:
            raise f.bad("players", "1 to 6 players", "tiberius/setup")
        sheets = [f.obj(f"players[{p}]", row, (), optional=_SHEET_KEYS) for p, row in enumerate(rows)]
        cubes = []
        for p, sheet in enumerate(sheets):
            counts = {
                key: f.integer(f"players[{p}].{key}", sheet.get(key, 0), 0, CUBES_PER_PLAYER)
                for key in SHEET_BOXES
            }
            vector = tuple(counts.get(key, 0) for key in BOX_KEYS)
            if sum(vector) > CUBES_PER_PLAYER:
                raise f.bad(
                    f"players[{p}]",
                    f"{sum(vector)} cubes; {CUBES_PER_PLAYER} per player is an absolute limit",
                    "tiberius/setup",
                )
            cubes.append(vector)
        adopted = [f.boolean(f"players[{p}].adopted", s.get("adopted", False)) for p, s in enumerate(sheets)]
        loyal = [
            f.boolean(f"players[{p}].all_six_decks", s.get("all_six_decks", False))
            for p, s in enumerate(sheets)
        ]
        ages = [s.get("age") for s in sheets]
        if any(a is not None for a in ages):
            years = [f.integer(f"players[{p}].age", a, 0, 150) for p, a in enumerate(ages)]
            oldest = tuple(sorted(range(n), key=lambda p: (-years[p], p)))
        else:
            oldest = tuple(range(n))
        return self._finished(cubes, adopted, loyal, oldest, variants)

    def _finished(
        self,
        cubes: Sequence[tuple[int, ...]],
        adopted: Sequence[bool],
        loyal: Sequence[bool],
        oldest: tuple[int, ...],
        variants: Mapping[str, Any],
    ) -> TiberiusState:
        """A finished game with these holdings (the parts that do not score filled in)."""
        n = len(cubes)
        decks = self.content.decks
        careers: list[tuple[int, ...]] = []
        used = 0
        for p in range(n):
            if loyal[p]:
                careers.append(tuple(deck[used] for deck in decks))
                used += 1
            else:
                careers.append(())
        held = {c for cs in careers for c in cs}
        face = face_up_adoptions(n)
        return TiberiusState(
            turn=TURNS + 1,
            phase=OVER,
            actor=-1,
            start_priority=0,
            priority=0,
            cubes=tuple(cubes),
            decks=((),) * len(decks),
            face_up=(EMPTY,) * len(decks),
            careers=tuple(careers),
            played=(NOTHING,) * n,
            bids=(0,) * n,
            pcim_used=(False,) * n,
            secret=tuple(range(n)),
            adopt_face_up=tuple(range(n, n + face)),
            adopt_unused=tuple(range(n + face, len(self.content.adoptions))),
            adopted=tuple(p if adopted[p] else -1 for p in range(n)),
            discarded=tuple(c.id for c in self.content.cards if c.id not in held),
            black=0,
            row_open=False,
            family=False,
            moved=0,
            age=oldest,
            influence_table="setup",
            pcim_rule="once",
            marriage_vp=str(variants["marriage_vp"]),
            imperator_solo=str(variants["imperator_solo"]),
            imperator_empty=str(variants["imperator_empty"]),
            turns=TURNS,
        )
