"""The public form of a TI4 setup position, declared once (``games.core.form``): its JSON Schema
(docs/schemas/ti4.state.json), the check of every field on its own and the names ``games.ti4.codec``
writes and reads all come from here.

Tiles are their printed numbers as strings (``"26"``), read as the tile number; a tile the viewer
cannot see is its back (``"hidden blue"``, ``"hidden red"``); an empty space or no tile is null. An
objective the viewer cannot see is ``"?"``. ``state_form(content)`` reads the ids against the pack
(factions, colours, tiles, objectives); ``PLAIN`` (no pack) writes any position.
"""

from __future__ import annotations

from games.core.cache import PerContent
from games.core.form import AnyOf, Const, Field, Form, Id, Int, ListOf, Null, Obj, OneOf
from games.errors import InvalidStateError
from games.ti4.content import Content
from games.ti4.state import HIDDEN, HIDDEN_BLUE, HIDDEN_RED, PHASE_NAMES

__all__ = [
    "FORMS",
    "MAX_SLICES",
    "MODES",
    "PLAIN",
    "READINGS",
    "VP_TRACKS",
    "bad",
    "state_form",
    "state_schema",
]

MODES = ("rulebook", "milty")
READINGS = ("player", "tile")
VP_TRACKS = (10, 14)
MAX_SLICES = 12
"""The most Milty slices a position may hold (the PoK piles' 54 tiles make at most 10 of five)."""
MAX_HAND = 12
"""The most system tiles a hand may list (the deal gives at most 8: three players get 6 blue and 2 red;
``validate`` checks each hand against the deal)."""

SEAT = Int(0, 5)
POSITION = Int(1, 36, description="a map-string position (0 = Mecatol Rex)")


class _Ids:
    """The content pack's ids (none: any string of the right shape, for writing)."""

    def __init__(self, c: Content | None) -> None:
        def ids(what: str, codes: tuple[str, ...]) -> OneOf:
            return OneOf(codes, what=what) if c else Id((), what=what)

        self.faction = ids("a faction id", tuple(f.id for f in c.factions) if c else ())
        self.color = ids("a colour", tuple(col for col, _ in c.colors) if c else ())
        self.objective = Id(
            (*(o.id for o in c.objectives), HIDDEN) if c else (),
            what="an objective id, or '?' (hidden)",
            description="an objective id, or '?' (hidden)",
        )
        self.tile = Id(
            tuple(str(t) for t in c.tiles) if c else (),
            what="a tile number of the pack",
            number=True,
            pattern="^[0-9]{1,3}$",
            description="a tile number",
        )

    def tile_or_back(self, *, none: bool = False) -> AnyOf:
        """A tile, or the back of one the viewer cannot see (and null for none: 0)."""
        backs: tuple[Field, ...] = (Const("hidden blue", HIDDEN_BLUE), Const("hidden red", HIDDEN_RED))
        return AnyOf((self.tile, *backs, *((Null(0),) if none else ())))


def _seat(ids: _Ids) -> Obj:
    """One seat (``seats[s]``)."""
    return Obj(
        {
            "faction": AnyOf((ids.faction, Null("")), description="the faction chosen (null: not yet)"),
            "color": AnyOf((ids.color, Null("")), description="the colour chosen (null: not yet)"),
            "home_position": AnyOf(
                (POSITION, Null(0)), description="the home system's position (null: not yet)"
            ),
            "system_tiles_in_hand": ListOf(ids.tile_or_back(), max=MAX_HAND, rule="ti4/deal-system-tiles"),
            "trade_goods": Int(0, 20, rule="ti4/five-player-trade-goods"),
            "secret_objectives_drawn": ListOf(ids.objective, 2, 2, rule="ti4/objectives"),
            "secret_objective_kept": AnyOf((ids.objective, Null("")), description="null: not yet"),
            "milty_slice": AnyOf(
                (Int(0, MAX_SLICES - 1), Null(-1)),
                optional=True,
                description="Milty: the slice picked, from 0 (null: not yet; only in the Milty mode)",
            ),
            "milty_seat": AnyOf(
                (Int(1, 6), Null(0)),
                optional=True,
                description="Milty: the seat position picked, 1 = speaker (null: not yet; Milty mode only)",
            ),
        }
    )


def _milty(ids: _Ids) -> Obj:
    """The Milty draft's table (only in the Milty mode)."""
    return Obj(
        {
            "slices": ListOf(
                ListOf(ids.tile, 5, 5), 1, MAX_SLICES, description="five tiles each, in slot order"
            ),
            "factions_offered": ListOf(ids.faction, 1, 24),
            "draft_order": ListOf(SEAT, 3, 6, description="the first round's pick order"),
        },
        optional=True,
        description="the Milty draft (only in the Milty mode)",
    )


def state_form(content: Content | None) -> Form:
    """The public form of a position (``codec.state_to_dict``); ids read against ``content``."""
    ids = _Ids(content)
    top = {
        "game": Const("ti4", "ti4"),
        "players": Int(3, 6),
        "mode": OneOf(MODES, description="rulebook setup or Milty draft"),
        "expansion": OneOf(("base", "pok")),
        "no_other_option": OneOf(READINGS, description="reading of 'no other option'"),
        "victory_points": OneOf(VP_TRACKS),
        "step": OneOf(PHASE_NAMES, index=True),
        "to_decide": AnyOf((SEAT, Null(-1)), description="the seat to decide (null: the setup is complete)"),
        "speaker": AnyOf((SEAT, Null(-1)), description="the speaker (null: not known yet)"),
        "table": ListOf(SEAT, 3, 6, description="the seats in clockwise order"),
        "seats": ListOf(_seat(ids), 3, 6),
        "galaxy": ListOf(
            ids.tile_or_back(none=True),
            37,
            37,
            description="the tile in each map-string position (0 = Mecatol Rex)",
        ),
        "placements": ListOf(
            Obj({"seat": SEAT, "tile": ids.tile, "position": POSITION}),
            max=40,
            description="every system tile placed, in order",
            rule="ti4/place-system-tiles",
        ),
        "undealt_tiles": ListOf(ids.tile_or_back(), max=60),
        "speakers_red_tile": ids.tile_or_back(none=True).described(
            "five players: the speaker's random red tile (null: none)"
        ),
        "objectives": Obj(
            {
                "stage_i": ListOf(ids.objective, 5, 5, rule="ti4/objectives"),
                "stage_ii": ListOf(ids.objective, 5, 5, rule="ti4/objectives"),
                "stage_i_revealed": Int(0, 5, rule="ti4/objectives"),
            }
        ),
        "milty": _milty(ids),
    }
    return Form("ti4", "state", Obj(top), title="Twilight Imperium 4 galaxy setup")


def state_schema(content: Content) -> dict[str, object]:
    """The JSON Schema (draft 2020-12) of ``codec.state_to_dict`` for the pack ``content``."""
    return FORMS(content).schema()


FORMS: PerContent[Content, Form] = PerContent(state_form)
"""The declared form of each content pack (its ids read against the pack)."""
PLAIN = state_form(None)
"""The form without a pack: writes any position (``state_to_dict`` is given no pack)."""


def bad(at: str, why: str, rule: str = "") -> InvalidStateError:
    """The house error for the field at ``at`` (``state.<at>``) of a TI4 position."""
    return PLAIN.bad(at, why, rule)
