"""The public form of a Tiberius Who? position and of the score sheet, declared once
(``games.core.form``): the JSON Schemas (docs/schemas/tiberius.*.json), the validation of incoming
JSON and the names ``games.tiberius.public`` writes and reads all come from here."""

from __future__ import annotations

from collections.abc import Sequence

from games.core.form import AnyOf, Bool, Const, Form, Int, ListOf, Null, Obj, OneOf
from games.tiberius.model import (
    BOARD_BOXES,
    BOX_KEYS,
    BOX_NAMES,
    CUBES_PER_PLAYER,
    EMPTY,
    HIDDEN,
    IN,
    NOTHING,
    PCIM_CARD,
    PHASE_NAMES,
    TURNS,
    VARIANT_CHOICES,
    VARIANTS,
    Content,
)

__all__ = ["PCIM_ID", "SHEET_BOXES", "SHEET_VARIANTS", "sheet_form", "state_form"]

PCIM_ID = "pro_consular_imperium_maius"
"""The Pro-Consular Imperium Maius card in the public form (``card_this_turn``)."""
SHEET_BOXES = tuple(BOX_KEYS[b] for b in (*BOARD_BOXES, IN))
"""The boxes of a score sheet: the main board's and Influence."""
SHEET_VARIANTS = ("marriage_vp", "imperator_solo", "imperator_empty")
"""The variants a score sheet may name: those that change scoring."""

SEAT = Int(0, 5)
NOT_ADOPTED = -1
"""``adopted_with``: the seat is not a Son of Augustus."""


def variants_form(names: Sequence[str], *, optional: bool = False) -> Obj:
    """The ``variants`` object with the variants ``names`` (a missing one takes its default)."""
    by_name = {v.name: v for v in VARIANTS}
    return Obj(
        {
            name: OneOf(
                by_name[name].choices, default=by_name[name].default, description=by_name[name].description
            )
            for name in names
        },
        optional=optional,
        description="the readings the game was set up with (a missing one takes its default)",
    )


def _player(card: OneOf, adoption: OneOf) -> Obj:
    """One player's holdings (``players[s]``)."""
    boxes = {
        key: Int(0, CUBES_PER_PLAYER, default=0, description=name)
        for key, name in zip(BOX_KEYS, BOX_NAMES, strict=True)
    }
    return Obj(
        {
            "cubes": Obj(
                boxes,
                description="cubes per box (the main board's, the player mat's Influence and Bid boxes); "
                "'bid' holds this turn's bid",
            ),
            "stock": Int(
                0,
                CUBES_PER_PLAYER,
                optional=True,
                description="cubes left in stock: 40 minus the cubes in boxes",
            ),
            "career_cards": ListOf(card, max=TURNS, description="in the order taken"),
            "card_this_turn": AnyOf(
                (card, Const(PCIM_ID, PCIM_CARD), Null(NOTHING)),
                description="the career card taken this turn, 'pro_consular_imperium_maius' for that card, "
                "or null (took 2 Influence, or has not acted or picked yet)",
            ),
            "pro_consular_imperium_maius_played": Bool(
                description="the Pro-Consular Imperium Maius card has been played this game"
            ),
            "adoption_card": AnyOf(
                (adoption, Null(HIDDEN)), description="the secret adoption card (null: hidden from this view)"
            ),
            "adopted_with": AnyOf(
                (adoption, Null(NOT_ADOPTED)), description="the card that made the seat a Son of Augustus"
            ),
        }
    )


def _cube_action() -> Obj:
    """The cube action in progress (``cube_action``)."""
    return Obj(
        {
            "black_icons_to_place": Int(0, 12),
            "extra_row_open": Bool(description="may still buy a second or third row"),
            "augustus_family": Bool(description="may place Triumph cubes (marriages or adopted)"),
            "cubes_moved_to_gray": Int(
                0, CUBES_PER_PLAYER, description="Pro-Consular Imperium Maius: cubes moved to gray so far"
            ),
        },
        description="the cube action in progress (all zero / false outside it)",
    )


def state_form(content: Content) -> Form:
    """The public form of a position (``PublicForm.to_dict``) for the content pack ``content``."""
    ids = tuple(c.code for c in content.cards)
    card = OneOf(ids, what="a career card id", index=True, description="a career card id")
    adoption = OneOf(
        tuple(a.code for a in content.adoptions),
        what="an adoption card id",
        index=True,
        description="an adoption card id",
    )
    deck = Obj(
        {
            "region": OneOf(content.regions, optional=True),
            "face_up": AnyOf((card, Null(EMPTY))),
            "face_down": ListOf(card, description="top first (sorted in a seat's view: the order is hidden)"),
        }
    )
    n_decks = len(content.decks)
    top = {
        "turn": Int(1, TURNS + 1, description="the game turn (turns + 1 once over)"),
        "phase": OneOf(
            PHASE_NAMES,
            index=True,
            description="card phase, the bidders' picks, cube phase, adoption phase, or over",
        ),
        "to_act": AnyOf((SEAT, Null(-1)), description="the seat to decide (null once over)"),
        "priority_marker": SEAT.described("who holds the Priority marker now"),
        "priority_order_from": SEAT.described(
            "who held it at the start of the turn: first in priority order"
        ),
        "players": ListOf(_player(card, adoption), 1, 6, rule="tiberius/setup"),
        "oldest_first": ListOf(SEAT, description="the seats from the oldest player (the last tie-breaker)"),
        "decks": ListOf(deck, n_decks, n_decks),
        "discarded_cards": ListOf(card),
        "adoption_cards_face_up": ListOf(adoption),
        "adoption_cards_unused": ListOf(
            adoption, description="with, in a seat's view, the cards it cannot see"
        ),
        "cube_action": _cube_action(),
        "variants": variants_form(tuple(VARIANT_CHOICES)),
    }
    return Form("tiberius", "state", Obj(top), title="Tiberius Who? position")


def sheet_form() -> Form:
    """The score sheet: per player the cubes of each main-board box and of Influence, whether adopted,
    whether holding cards of all six decks, and (optionally) age."""
    names = {key: BOX_NAMES[BOX_KEYS.index(key)] for key in SHEET_BOXES}
    player = Obj(
        {
            **{
                key: Int(0, CUBES_PER_PLAYER, default=0, description=f"cubes in {name}")
                for key, name in names.items()
            },
            "adopted": Bool(default=False, description="a Son of Augustus (8 VP)"),
            "all_six_decks": Bool(
                default=False, description="career cards from all six decks (the loyalty bonus, 5 VP)"
            ),
            "age": Int(
                0,
                150,
                optional=True,
                description="the player's age in years (the last tie-breaker: the oldest ranks higher); "
                "give it for every player or for none (then seat 0 is the oldest, ages falling clockwise)",
            ),
        },
        description="one player's end-of-game holdings (a box left out holds no cubes)",
    )
    top = Obj(
        {
            "players": ListOf(player, 1, 6, rule="tiberius/setup"),
            "variants": variants_form(SHEET_VARIANTS, optional=True),
        },
        description="An end-of-game position as a person types it in from a real table.",
    )
    return Form("tiberius", "score_sheet", top, title="Tiberius Who? score sheet")
