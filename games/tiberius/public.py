"""The public form of a Tiberius Who? position: the one documented mapping to and from the state.

``to_dict`` writes a position in the rulebook's words: box names (``"conquests"``), career card ids
(``"HIS06"``), adoption card ids (``"A04"``), seats, booleans and lists, never a content-pack index
or a bit mask. ``from_dict`` reads it back and validates every field before any rule code sees it
(types, ranges, ids that exist in the pack, the 40 cubes of every seat, every career card and
adoption card exactly once, and the coherence of the phase: the seat to act really has a decision),
raising only ``InvalidStateError`` naming the first bad field (``state.players[1].cubes.conquests``;
the reads and checks are in ``games.tiberius.validate``). ``state_schema`` is its JSON Schema (draft
2020-12, ``games.tiberius.schema``).

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

from games.tiberius.model import (
    BD,
    BOX_KEYS,
    CUBES_PER_PLAYER,
    EMPTY,
    NOTHING,
    OVER,
    PCIM_CARD,
    PHASE_NAMES,
    TURNS,
    VARIANT_CHOICES,
    Content,
    TiberiusState,
)
from games.tiberius.schema import (
    ACTION_KEYS,
    PCIM_ID,
    SHEET_BOXES,
    SHEET_KEYS,
    SHEET_VARIANTS,
    TOP_KEYS,
    sheet_schema,
    state_schema,
)
from games.tiberius.setup import face_up_adoptions
from games.tiberius.validate import (
    Coherence,
    Fields,
    check_adoptions,
    check_cards,
    read_adoptions,
    read_decks,
    read_player,
    read_variants,
    show,
)

__all__ = ["PublicForm", "ScoreSheet"]


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
        f = Fields(self.content, "state")
        top = f.obj("", data, TOP_KEYS)
        variants = read_variants(f, top["variants"], VARIANT_CHOICES, "variants")
        turns = int(variants["turns"])
        raw_players = f.items("players", top["players"], most=6)
        n = len(raw_players)
        if n == 0:
            raise f.bad("players", "1 to 6 players", "tiberius/setup")
        seats = [read_player(f, p, raw, turns) for p, raw in enumerate(raw_players)]
        face_up, decks = read_decks(f, top["decks"])
        discarded = [
            f.card(f"discarded_cards[{i}]", c)
            for i, c in enumerate(f.items("discarded_cards", top["discarded_cards"]))
        ]
        check_cards(f, decks, face_up, [p["careers"] for p in seats], discarded)
        adopt_face_up = read_adoptions(f, top["adoption_cards_face_up"], "adoption_cards_face_up")
        adopt_unused = read_adoptions(f, top["adoption_cards_unused"], "adoption_cards_unused")
        check_adoptions(f, seats, adopt_face_up, adopt_unused)
        phase, turn, actor = _turn(f, top, turns, n)
        oldest = _oldest_first(f, top["oldest_first"], n)
        action = f.obj("cube_action", top["cube_action"], ACTION_KEYS)
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
            age=oldest,
            influence_table=str(variants["influence_table"]),
            pcim_rule=str(variants["pcim_rule"]),
            marriage_vp=str(variants["marriage_vp"]),
            imperator_solo=str(variants["imperator_solo"]),
            imperator_empty=str(variants["imperator_empty"]),
            turns=turns,
        )
        Coherence(f, self.content, state).check()
        return state

    # ------------------------------------------------------------------ schema
    def state_schema(self) -> dict[str, Any]:
        """The JSON Schema (draft 2020-12) of the public form."""
        if self._schema is None:
            self._schema = state_schema(self.content)
        return self._schema

    # ------------------------------------------------------------------ the score sheet
    def score_sheet_schema(self) -> dict[str, Any]:
        """See :class:`ScoreSheet`."""
        return self.sheet.schema()

    def from_score_sheet(self, data: Any) -> TiberiusState:
        """See :class:`ScoreSheet`."""
        return self.sheet.read(data)


def _turn(f: Fields, top: Mapping[str, Any], turns: int, n: int) -> tuple[int, int, int]:
    """The phase, the turn and the seat to act (-1 once the game is over), which must fit together."""
    phase = PHASE_NAMES.index(f.choice("phase", top["phase"], PHASE_NAMES))
    turn = f.integer("turn", top["turn"], 1, turns + 1)
    if (phase == OVER) != (turn == turns + 1):
        raise f.bad(
            "turn",
            f"turn {turn} does not fit phase {PHASE_NAMES[phase]!r} ({turns} turns)",
            "tiberius/end-of-game",
        )
    if phase != OVER:
        return phase, turn, f.seat("to_act", top["to_act"], n)
    if top["to_act"] is not None:
        raise f.bad("to_act", "nobody acts once the game is over", "tiberius/end-of-game")
    return phase, turn, -1


def _oldest_first(f: Fields, raw: Any, n: int) -> tuple[int, ...]:
    """The seats from the oldest player: every seat once."""
    oldest = f.items("oldest_first", raw, length=n)
    if sorted(a for a in oldest if isinstance(a, int) and not isinstance(a, bool)) != list(range(n)):
        raise f.bad("oldest_first", f"expected every seat 0..{n - 1} once, oldest first, got {show(oldest)}")
    return tuple(oldest)


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
        """The JSON Schema of the score sheet (:func:`games.tiberius.schema.sheet_schema`)."""
        return sheet_schema()

    def read(self, data: Any) -> TiberiusState:
        """The finished position of a score sheet (``InvalidStateError`` naming ``score_sheet.<path>``).

        Only what scores is given; the rest is filled in: a loyal player holds the first card of each
        deck not yet held, an adopted player revealed its own adoption card (which card does not
        score), every other career card is discarded.
        """
        f = Fields(self.content, "score_sheet")
        top = f.obj("", data, ("players",), optional=("variants",))
        variants = read_variants(
            f, top.get("variants", {}), {k: VARIANT_CHOICES[k] for k in SHEET_VARIANTS}, "variants"
        )
        rows = f.items("players", top["players"], most=6)
        n = len(rows)
        if n == 0:
            raise f.bad("players", "1 to 6 players", "tiberius/setup")
        sheets = [f.obj(f"players[{p}]", row, (), optional=SHEET_KEYS) for p, row in enumerate(rows)]
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
