"""The public form of a Tiberius Who? position: the one documented mapping to and from the state.

``to_dict`` writes a position in the rulebook's words: box names (``"conquests"``), career card ids
(``"HIS06"``), adoption card ids (``"A04"``), seats, booleans and lists, never a content-pack index
or a bit mask. The form is declared once in ``games.tiberius.schema``: its JSON Schema
(``state_schema``, draft 2020-12), the check of every field on its own (types, ranges, ids that exist
in the pack) and the names written here all come from that declaration. ``from_dict`` then checks the
cross-field rules (``games.tiberius.validate``: the 40 cubes of every seat, every career card and
adoption card exactly once, the coherence of the phase: the seat to act really has a decision),
raising only ``InvalidStateError`` naming the first bad field (``state.players[1].cubes.conquests``).

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
``players[s].cubes.<box>``      ``players[s].cubes[box]`` (``BOX_KEYS``; ``bid`` is ``players[s].bid``)
``players[s].stock``            ``players[s].stock``: 40 minus the seat's cubes (checked)
``players[s].career_cards``     ``players[s].careers`` (card ids)
``players[s].card_this_turn``   ``players[s].played`` (card id, ``"pro_consular_imperium_maius"``, null)
``players[s]....maius_played``  ``players[s].pcim_used`` (``pro_consular_imperium_maius_played``)
``players[s].adoption_card``    ``players[s].secret`` (null: hidden from this view)
``players[s].adopted_with``     ``players[s].adopted``
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
    EMPTY,
    OVER,
    TURNS,
    VARIANT_CHOICES,
    VARIANTS,
    Content,
    Player,
    TiberiusState,
)
from games.tiberius.schema import SHEET_BOXES, SHEET_VARIANTS, sheet_form, state_form
from games.tiberius.setup import face_up_adoptions
from games.tiberius.validate import (
    Checker,
    Coherence,
    check_adoptions,
    check_cards,
    check_cubes,
    check_decks,
    check_seats,
    check_turn,
)

__all__ = ["PublicForm", "ScoreSheet"]

_DEFAULTS = {v.name: v.default for v in VARIANTS}


class PublicForm:
    """``to_dict`` / ``from_dict`` / ``state_schema`` and the score sheet for one content pack.

    Args:
        content: the content pack.
    """

    def __init__(self, content: Content) -> None:
        self.content = content
        self.form = state_form(content)
        self.check = Checker(self.form, content)
        self._schema: dict[str, Any] | None = None
        self.sheet = ScoreSheet(content)

    # ------------------------------------------------------------------ writing
    def to_dict(self, s: TiberiusState) -> dict[str, Any]:
        """The public form of ``s`` (plain JSON types, the rulebook's words)."""
        players = [
            {
                "cubes": dict(zip(BOX_KEYS, p.cubes, strict=True)),
                "stock": p.stock,
                "career_cards": p.careers,
                "card_this_turn": p.played,
                "pro_consular_imperium_maius_played": p.pcim_used,
                "adoption_card": p.secret,
                "adopted_with": p.adopted,
            }
            for p in s.players
        ]
        decks = [
            {"region": region, "face_up": up, "face_down": down}
            for region, up, down in zip(self.content.regions, s.face_up, s.decks, strict=True)
        ]
        return self.form.write(
            {
                "turn": s.turn,
                "phase": s.phase,
                "to_act": s.actor,
                "priority_marker": s.priority,
                "priority_order_from": s.start_priority,
                "players": players,
                "oldest_first": s.age,
                "decks": decks,
                "discarded_cards": s.discarded,
                "adoption_cards_face_up": s.adopt_face_up,
                "adoption_cards_unused": s.adopt_unused,
                "cube_action": {
                    "black_icons_to_place": s.black,
                    "extra_row_open": s.row_open,
                    "augustus_family": s.family,
                    "cubes_moved_to_gray": s.moved,
                },
                "variants": {name: getattr(s, name) for name in VARIANT_CHOICES},
            }
        )

    # ------------------------------------------------------------------ reading
    def from_dict(self, data: Any) -> TiberiusState:
        """A state from its public form, every field validated (``InvalidStateError`` only)."""
        top = self.form.read(data)
        f = self.check
        players, variants = top["players"], top["variants"]
        n = len(players)
        check_seats(f, top, n)
        check_turn(f, top, variants["turns"])
        cubes = tuple(tuple(p["cubes"][key] for key in BOX_KEYS) for p in players)
        for p, player in enumerate(players):
            stock = player.get("stock")
            check_cubes(
                f, f"players[{p}].cubes", cubes[p], None if stock is None else (f"players[{p}].stock", stock)
            )
        check_decks(f, top["decks"])
        face_up = tuple(d["face_up"] for d in top["decks"])
        decks = tuple(d["face_down"] for d in top["decks"])
        check_cards(f, decks, face_up, [p["career_cards"] for p in players], top["discarded_cards"])
        check_adoptions(f, players, top["adoption_cards_face_up"], top["adoption_cards_unused"])
        action = top["cube_action"]
        state = TiberiusState(
            turn=top["turn"],
            phase=top["phase"],
            actor=top["to_act"],
            start_priority=top["priority_order_from"],
            priority=top["priority_marker"],
            players=tuple(
                Player(
                    cubes=c,
                    careers=p["career_cards"],
                    played=p["card_this_turn"],
                    bid=c[BD],
                    pcim_used=p["pro_consular_imperium_maius_played"],
                    secret=p["adoption_card"],
                    adopted=p["adopted_with"],
                )
                for p, c in zip(players, cubes, strict=True)
            ),
            decks=decks,
            face_up=face_up,
            adopt_face_up=tuple(sorted(top["adoption_cards_face_up"])),
            adopt_unused=tuple(sorted(top["adoption_cards_unused"])),
            discarded=top["discarded_cards"],
            black=action["black_icons_to_place"],
            row_open=action["extra_row_open"],
            family=action["augustus_family"],
            moved=action["cubes_moved_to_gray"],
            age=top["oldest_first"],
            **variants,
        )
        Coherence(f, self.content, state).check()
        return state

    # ------------------------------------------------------------------ schema
    def state_schema(self) -> dict[str, Any]:
        """The JSON Schema (draft 2020-12) of the public form."""
        if self._schema is None:
            self._schema = self.form.schema()
        return self._schema

    # ------------------------------------------------------------------ the score sheet
    def score_sheet_schema(self) -> dict[str, Any]:
        """See :class:`ScoreSheet`."""
        return self.sheet.schema()

    def from_score_sheet(self, data: Any) -> TiberiusState:
        """See :class:`ScoreSheet`."""
        return self.sheet.read(data)


class ScoreSheet:
    """The short end-of-game form a person types in from a real table: per player the cubes of each
    main-board box and of Influence, whether adopted, whether holding cards of all six decks, and
    (optionally) age; the readings (variants) that change scoring.

    Args:
        content: the content pack.
    """

    def __init__(self, content: Content) -> None:
        self.content = content
        self.form = sheet_form()
        self.check = Checker(self.form, content)

    def schema(self) -> dict[str, Any]:
        """The JSON Schema of the score sheet (:func:`games.tiberius.schema.sheet_form`)."""
        return self.form.schema()

    def read(self, data: Any) -> TiberiusState:
        """The finished position of a score sheet (``InvalidStateError`` naming ``score_sheet.<path>``).

        Only what scores is given; the rest is filled in: a loyal player holds the first card of each
        deck not yet held, an adopted player revealed its own adoption card (which card does not
        score), every other career card is discarded.
        """
        top = self.form.read(data)
        sheets = top["players"]
        cubes = []
        for p, sheet in enumerate(sheets):
            vector = tuple(sheet[key] if key in SHEET_BOXES else 0 for key in BOX_KEYS)
            check_cubes(self.check, f"players[{p}]", vector)
            cubes.append(vector)
        ages = [s.get("age") for s in sheets]
        if any(a is not None for a in ages):
            if None in ages:
                raise self.form.bad(
                    f"players[{ages.index(None)}].age", "missing: give every player's age or none"
                )
            oldest = tuple(sorted(range(len(sheets)), key=lambda p: (-ages[p], p)))
        else:
            oldest = tuple(range(len(sheets)))
        variants = top.get("variants", {k: _DEFAULTS[k] for k in SHEET_VARIANTS})
        adopted = [s["adopted"] for s in sheets]
        loyal = [s["all_six_decks"] for s in sheets]
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
            # seat p's adoption card is card p, revealed when it was adopted
            players=tuple(
                Player(cubes=cubes[p], careers=careers[p], secret=p, adopted=p if adopted[p] else -1)
                for p in range(n)
            ),
            decks=((),) * len(decks),
            face_up=(EMPTY,) * len(decks),
            adopt_face_up=tuple(range(n, n + face)),
            adopt_unused=tuple(range(n + face, len(self.content.adoptions))),
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
