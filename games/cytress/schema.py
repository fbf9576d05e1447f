"""The public form of a Cytress position, declared once (``games.core.form``): its JSON Schema
(docs/schemas/cytress.state.json), the check of every field on its own and the names
``games.cytress.codec`` writes and ``games.cytress.validate`` reads all come from here.

The schema does not depend on the content pack (a card or tile id is a string); the declaration
``state_form(content)`` reads the ids against the pack (``COR07`` into its content index). Hex labels
depend on the map, so ``hex`` fields are read as strings and placed by ``validate``.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.core.cache import PerContent
from games.core.form import AnyOf, Bool, Const, Field, Form, Id, Int, ListOf, Null, Obj, OneOf
from games.cytress.board import CREWS, STRAT_ROW, TUBE_SECTIONS
from games.cytress.content import AI_CARDS_PER_FACTION, Content
from games.cytress.economy import MAX_RESOURCE
from games.cytress.setup import INTEL_SLOTS, TRANSPORTS
from games.cytress.state import (
    FACTIONS,
    LEVELS,
    NOBODY,
    OP_BOUNTY_ASCEND,
    OP_BOUNTY_CREW,
    OP_INTEL,
    OP_NORMAL,
    OP_PLACE,
    PADS,
    PHASE_NAMES,
    RESOURCES,
    STEP_NAMES,
)

__all__ = [
    "FACTION_CODES",
    "FORMS",
    "MAX_ROUND",
    "OP_NAMES",
    "TRADES",
    "ai_card_code",
    "state_form",
    "state_schema",
]

FACTION_CODES: tuple[str, ...] = ("COR", "PRI", "HOO", "ROV")
"""Short faction codes used in card ids."""
OP_NAMES: dict[int, str] = {
    OP_BOUNTY_CREW: "bounty crew",
    OP_BOUNTY_ASCEND: "bounty ascend",
    OP_NORMAL: "drop a waste tube or take an intel card",
    OP_INTEL: "take an intel card",
    OP_PLACE: "place a crew",
}
"""The automa's pending actions in the rulebook's words (rule: cytress/solo-ai-actions)."""
TRADES: tuple[str, ...] = tuple(f"{give} for {get}" for give in RESOURCES for get in RESOURCES)
"""A trade under way, ``4 * give + get``: ``"tech for creds"``."""
BOARD_SIDES = ("1-3", "4+")
"""The faction district boards' sides (for 1-3 players and for 4 or more)."""
MAX_ROUND = 1000
"""The most rounds a position may show (a game without a round limit ends long before)."""

SEAT = Int(0, 4)
COUNT = Int(0, TUBE_SECTIONS)


def ai_card_code(card: int) -> str:
    """An AI action card's id: ``AI-COR-2`` (faction code, number 1-4)."""
    return f"AI-{FACTION_CODES[card // AI_CARDS_PER_FACTION]}-{card % AI_CARDS_PER_FACTION + 1}"


class _Ids:
    """The content pack's ids, each a closed set read as its content index (none: any string)."""

    def __init__(self, c: Content | None) -> None:
        def ids(what: str, codes: Sequence[str]) -> Id:
            return Id(tuple(codes), what=what, index=True, min_len=1, max_len=16)

        self.intel = ids("an intel card id", [x.code for x in c.intel] if c else ())
        self.strat = ids("a stratolite id", [x.code for x in c.stratolites] if c else ())
        self.bounty = ids("a bounty card id", [x.code for x in c.bounties] if c else ())
        self.tile = ids("a map tile id", [t.id for t in c.tiles] if c else ())
        self.rebel = ids("a rebel board id", [r.id for r in c.rebels] if c else ())
        self.ai = ids("an AI action card id", [ai_card_code(k) for k in range(4 * AI_CARDS_PER_FACTION)])
        self.market = Id(tuple(s.id for s in c.market) if c else (), what="a trade market side", index=True)
        self.hex = Id((), what="a hex label", min_len=1, max_len=16)


def _maybe(field: Field, description: str = "") -> AnyOf:
    return AnyOf((field, Null(NOBODY)), description=description)


def _owner(ids: _Ids) -> dict[str, Field]:
    """What every owner holds: a seat or the automa."""
    leader = Obj(
        {"faction": OneOf(FACTIONS, index=True), "spot": OneOf((1, 2))},
        description="the scouting spot the rebel leader is on",
    )
    return {
        "rebel": ids.rebel.described("the rebel board (its colour is the crews')"),
        "crews_unused": Int(0, CREWS, rule="cytress/setup", description="crews not yet placed"),
        "stratos": ListOf(Int(0, CREWS), LEVELS, LEVELS, description="crews on levels 1-3"),
        "leader": AnyOf((Null(None), leader)),
        "bounties": ListOf(ids.bounty, 0, 8, description="enforcer bounty cards claimed"),
    }


def _seat(ids: _Ids) -> Obj:
    """A seat."""
    return Obj(
        {
            **_owner(ids),
            "seat": SEAT,
            "side": _maybe(OneOf(("A", "B"), index=True), "the rebel board side (null: not chosen yet)"),
            "resources": Obj({r: Int(0, MAX_RESOURCE, rule="cytress/resources") for r in RESOURCES}),
            "lifepaths": Obj(
                {f: ListOf(ids.intel, 0, 18) for f in FACTIONS},
                description="intel cards on each lifepath, in order",
            ),
            "transports_on_board": Int(0, TRANSPORTS, rule="cytress/phase-3a-travel"),
            "transports_on_stratos": Int(0, TRANSPORTS, rule="cytress/phase-3b-extra-travel"),
            "reserved_stratolite": _maybe(ids.strat),
        }
    )


def _automa(ids: _Ids) -> Obj:
    """The solo automa."""
    to_do = Obj(
        {
            "action": OneOf(tuple(OP_NAMES.values())),
            "faction": AnyOf((OneOf(FACTIONS, index=True), Null(None))),
        }
    )
    return Obj(
        {
            **_owner(ids),
            "intel": ListOf(ids.intel, 0, 72),
            "deck": ListOf(ids.ai, 0, 16),
            "tracker": Obj(
                {f: ListOf(ids.ai, 0, 3) for f in FACTIONS},
                description="AI action cards still above each space",
            ),
            "tube_pieces": COUNT,
            "revealed": ListOf(ids.ai, 0, 16),
            "to_do": ListOf(to_do, 0, 4),
            "moving_from": _maybe(ids.hex),
        },
        description="the solo automa (rule: cytress/solo-gameplay)",
    )


def _pending(ids: _Ids) -> Obj:
    """The action under way."""
    return Obj(
        {
            "landing_pad": _maybe(OneOf(PADS, index=True)),
            "hex_type": _maybe(OneOf(FACTIONS, index=True)),
            "card": _maybe(Id((), what="a stratolite or bounty card id", min_len=1, max_len=16)),
            "resource": _maybe(OneOf(RESOURCES, index=True)),
            "height": Int(0, 3),
            "crew_hex": _maybe(ids.hex),
            "trades_made": Int(0, 1),
            "trade": _maybe(OneOf(TRADES, index=True)),
            "options": ListOf(ids.hex, 0, 50),
        },
        description="what the action under way has chosen so far",
    )


def _map(ids: _Ids) -> Obj:
    """The mini-map: its tiles and, per hex in layout order, its faction, crew and waste tube."""
    hexes = Obj(
        {
            "hex": ids.hex,
            "faction": OneOf(FACTIONS, index=True),
            "crew": AnyOf((SEAT, Const("automa", "automa"), Null(None))),
            "tube": Int(0, 3, rule="cytress/waste-tubes"),
        }
    )
    return Obj({"tiles": ListOf(ids.tile, 2, 5), "hexes": ListOf(hexes, 20, 50)})


def _faction(ids: _Ids) -> Obj:
    """A faction district board: its intel deck and face-up intel cards."""
    return Obj(
        {
            "faction": OneOf(FACTIONS, index=True),
            "deck": ListOf(ids.intel, 0, 18),
            "intel": ListOf(_maybe(ids.intel), INTEL_SLOTS, INTEL_SLOTS),
        }
    )


def state_form(content: Content | None) -> Form:
    """The public form of a position (``codec.state_to_dict``); ids read against ``content``."""
    ids = _Ids(content)
    stratolites = Obj(
        {
            "deck": ListOf(ids.strat, 0, 12),
            "row": ListOf(_maybe(ids.strat), STRAT_ROW, STRAT_ROW),
            "discard": ListOf(ids.strat, 0, 12),
        }
    )
    top = {
        "game": Const("cytress", "cytress"),
        "players": Int(1, 5, rule="cytress/setup"),
        "round": Int(0, MAX_ROUND),
        "phase": OneOf(PHASE_NAMES, index=True),
        "step": OneOf(STEP_NAMES, index=True),
        "to_move": AnyOf((SEAT, Null(NOBODY))),
        "turn": Int(0, 15),
        "first_player": SEAT,
        "phase_first_player": SEAT,
        "pending": _pending(ids),
        "map": _map(ids),
        "cytress_board_side": ids.market,
        "faction_board_side": OneOf(BOARD_SIDES, index=True, rule="cytress/setup"),
        "factions": ListOf(_faction(ids), 4, 4),
        "stratolites": stratolites,
        "bounty_stacks": Obj({f: ListOf(ids.bounty, 0, 2) for f in FACTIONS}),
        "tube_sections": Obj(
            {
                "near_stratos": Int(0, TUBE_SECTIONS, rule="cytress/setup"),
                "box": Int(0, TUBE_SECTIONS, rule="cytress/setup"),
            }
        ),
        "seats": ListOf(_seat(ids), 1, 5),
        "automa": AnyOf((Null(None), _automa(ids))),
        "end_triggered": Bool(),
        "round_limit": Int(0, MAX_ROUND),
        "tubes_from_box": Bool(
            description="whether tubes may be built from the box's sections once those near Stratos run out "
            "(2-5 players: always; solo: the solo_tubes variant 'box')"
        ),
        "bounty_scoring": OneOf(
            ("each", "best"),
            index=True,
            description="'each': every bounty pays its tier per matching icon; 'best': a faction's icons "
            "once, at the best tier held against it",
        ),
        "shuffle": Obj(
            {"seed": Int(0, 2**63 - 1), "count": Int(0, 10**9)},
            description="the hidden reshuffle seed (0 when observed)",
        ),
    }
    return Form(
        "cytress",
        "state",
        Obj(top),
        title="Cytress position",
        id="https://lictor.dev/schemas/cytress/state.json",
    )


def state_schema() -> dict[str, object]:
    """The JSON Schema of ``CytressGame.to_dict`` output (the same for every content pack)."""
    return state_form(None).schema()


FORMS: PerContent[Content, Form] = PerContent(state_form)
"""The declared form of each content pack (its ids read against the pack)."""
