"""The public form of a TI4 setup state (``to_dict``), its JSON Schema, and reading it back.

The one place where the internal encoding meets the rulebook's words: tiles are their printed
numbers as strings (``"26"``), positions the map-string indices (0 = Mecatol Rex), a tile a viewer
cannot see is ``"hidden blue"`` or ``"hidden red"`` (its back), an objective it cannot see is
``"hidden"``; phases are named (``"place system tiles"``). ``from_dict`` reads every field with
its type and range and raises ``InvalidStateError`` naming the first bad field; the rules'
invariants (conservation of tiles, the order of decisions, the placement record) are checked by
``games.ti4.validate``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core.text import is_digits
from games.errors import InvalidStateError
from games.ti4.content import Content, TileId
from games.ti4.state import HIDDEN, HIDDEN_BLUE, HIDDEN_RED, PHASE_NAMES, Placement, TI4State

__all__ = ["state_from_dict", "state_schema", "state_to_dict"]

MODES = ("rulebook", "milty")
READINGS = ("player", "tile")
VP_TRACKS = (10, 14)
HIDDEN_TILE = {HIDDEN_BLUE: "hidden blue", HIDDEN_RED: "hidden red"}


def _tile(t: TileId) -> str | None:
    if t == 0:
        return None
    return HIDDEN_TILE.get(t, str(t))


def _opt(x: str) -> str | None:
    return x or None


def state_to_dict(state: TI4State) -> dict[str, Any]:
    """The public form (plain JSON types, the rulebook's words)."""
    seats = []
    for s in range(state.players):
        seat: dict[str, Any] = {
            "faction": _opt(state.factions[s]),
            "color": _opt(state.colors[s]),
            "home_position": state.homes[s] or None,
            "system_tiles_in_hand": [_tile(t) for t in state.hands[s]],
            "trade_goods": state.trade_goods[s],
            "secret_objectives_drawn": list(state.secret_drawn[s]),
            "secret_objective_kept": _opt(state.secret_kept[s]),
        }
        if state.mode == "milty":
            seat["milty_slice"] = None if state.slice_pick[s] < 0 else state.slice_pick[s]
            seat["milty_seat"] = state.seat_pick[s] or None
        seats.append(seat)
    out: dict[str, Any] = {
        "game": "ti4",
        "players": state.players,
        "mode": state.mode,
        "expansion": state.expansion,
        "no_other_option": state.reading,
        "victory_points": state.vp_track,
        "step": PHASE_NAMES[state.phase],
        "to_decide": state.actor if state.actor >= 0 else None,
        "speaker": state.speaker if state.speaker >= 0 else None,
        "table": list(state.table),
        "seats": seats,
        "galaxy": [_tile(t) for t in state.galaxy],
        "placements": [{"seat": pl.seat, "tile": str(pl.tile), "position": pl.pos} for pl in state.placed],
        "undealt_tiles": [_tile(t) for t in state.undealt],
        "speakers_red_tile": _tile(state.red_tile),
        "objectives": {
            "stage_i": list(state.stage1),
            "stage_ii": list(state.stage2),
            "stage_i_revealed": state.revealed,
        },
    }
    if state.mode == "milty":
        out["milty"] = {
            "slices": [[str(t) for t in sl] for sl in state.slices],
            "factions_offered": list(state.offered),
            "draft_order": list(state.draft_order),
        }
    return out


# ------------------------------------------------------------------------------------ reading


def _bad(field: str, why: str, rule: str = "") -> InvalidStateError:
    return InvalidStateError(f"invalid ti4 state: {why}", field=f"state.{field}", rule=rule)


class _Reader:
    """Typed reads of plain JSON values, each naming its field on failure."""

    def __init__(self, content: Content) -> None:
        self.content = content

    @staticmethod
    def obj(
        field: str, value: Any, keys: tuple[str, ...], optional: tuple[str, ...] = ()
    ) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            raise _bad(field, f"expected an object, got {type(value).__name__}")
        for k in keys:
            if k not in value:
                raise _bad(f"{field}.{k}" if field else k, "missing")
        extra = [k for k in value if k not in keys and k not in optional]
        if extra:
            shown = str(extra[0])[:40]
            raise _bad(f"{field}.{shown}" if field else shown, "unknown field")
        return value

    @staticmethod
    def integer(field: str, value: Any, lo: int, hi: int) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
            shown = value if isinstance(value, int | float | bool | type(None)) else type(value).__name__
            raise _bad(field, f"expected an integer {lo}..{hi}, got {shown!r}")
        return value

    @staticmethod
    def choice(field: str, value: Any, choices: tuple[Any, ...]) -> Any:
        if isinstance(value, bool) or not isinstance(value, str | int) or value not in choices:
            shown = value if isinstance(value, str | int) else type(value).__name__
            shown = shown[:60] if isinstance(shown, str) else shown
            raise _bad(field, f"expected one of {list(choices)}, got {shown!r}")
        return value

    @staticmethod
    def items(field: str, value: Any, lo: int = 0, hi: int = 100) -> list[Any]:
        if not isinstance(value, list):
            raise _bad(field, f"expected a list, got {type(value).__name__}")
        if not lo <= len(value) <= hi:
            raise _bad(field, f"expected {lo}..{hi} entries, got {len(value)}")
        return value

    def tile(self, field: str, value: Any, *, allow_none: bool = False) -> TileId:
        if value is None and allow_none:
            return 0
        if value == "hidden blue":
            return HIDDEN_BLUE
        if value == "hidden red":
            return HIDDEN_RED
        if (
            not isinstance(value, str)
            or not is_digits(value)
            or len(value) > 3
            or int(value) not in self.content.tiles
        ):
            shown = value[:20] if isinstance(value, str) else type(value).__name__
            raise _bad(
                field, f"expected a tile number of the pack or 'hidden blue'/'hidden red', got {shown!r}"
            )
        return int(value)

    def text(self, field: str, value: Any, choices: set[str], *, allow_none: bool = True) -> str:
        if value is None and allow_none:
            return ""
        if not isinstance(value, str) or value not in choices:
            shown = value[:40] if isinstance(value, str) else type(value).__name__
            raise _bad(field, f"expected one of {sorted(choices)[:8]}..., got {shown!r}")
        return value


SEAT_KEYS = (
    "faction",
    "color",
    "home_position",
    "system_tiles_in_hand",
    "trade_goods",
    "secret_objectives_drawn",
    "secret_objective_kept",
)
TOP_KEYS = (
    "game",
    "players",
    "mode",
    "expansion",
    "no_other_option",
    "victory_points",
    "step",
    "to_decide",
    "speaker",
    "table",
    "seats",
    "galaxy",
    "placements",
    "undealt_tiles",
    "speakers_red_tile",
    "objectives",
)


def state_from_dict(content: Content, data: Any) -> TI4State:
    """Read the public form into a state, type by type (invariants: ``games.ti4.validate``)."""
    r = _Reader(content)
    d = r.obj("", data, TOP_KEYS, optional=("milty",))
    if d["game"] != "ti4":
        raise _bad("game", f"expected 'ti4', got {str(d['game'])[:20]!r}")
    n = r.integer("players", d["players"], 3, 6)
    mode = r.choice("mode", d["mode"], MODES)
    expansion = r.choice("expansion", d["expansion"], ("base", "pok"))
    reading = r.choice("no_other_option", d["no_other_option"], READINGS)
    vp = r.choice("victory_points", d["victory_points"], VP_TRACKS)
    phase = PHASE_NAMES.index(r.choice("step", d["step"], PHASE_NAMES))
    actor = -1 if d["to_decide"] is None else r.integer("to_decide", d["to_decide"], 0, n - 1)
    speaker = -1 if d["speaker"] is None else r.integer("speaker", d["speaker"], 0, n - 1)
    table = tuple(
        r.integer(f"table[{i}]", v, 0, n - 1) for i, v in enumerate(r.items("table", d["table"], n, n))
    )
    objectives = {o.id for o in content.objectives} | {HIDDEN}
    factions = {f.id for f in content.factions}
    f_, c_, h_, hands, goods, drawn, kept, sp, st = _read_seats(r, d, n, mode, objectives)
    galaxy_raw = r.items("galaxy", d["galaxy"], 37, 37)
    galaxy = tuple(r.tile(f"galaxy[{p}]", t, allow_none=True) for p, t in enumerate(galaxy_raw))
    placed = _read_placements(r, d, n)
    undealt = tuple(
        r.tile(f"undealt_tiles[{k}]", t)
        for k, t in enumerate(r.items("undealt_tiles", d["undealt_tiles"], 0, 60))
    )
    red = r.tile("speakers_red_tile", d["speakers_red_tile"], allow_none=True)
    stage1, stage2, revealed = _read_objectives(r, d, objectives)
    slices, offered, order = _read_milty(r, d, mode, n, factions)
    return TI4State(
        players=n,
        mode=mode,
        expansion=expansion,
        reading=reading,
        vp_track=vp,
        phase=phase,
        actor=actor,
        speaker=speaker,
        factions=tuple(f_),
        colors=tuple(c_),
        homes=tuple(h_),
        table=table,
        hands=tuple(tuple(sorted(h)) for h in hands),
        undealt=tuple(sorted(undealt)),
        red_tile=red,
        galaxy=galaxy,
        placed=tuple(placed),
        trade_goods=tuple(goods),
        secret_drawn=tuple(tuple(sorted(x)) for x in drawn),
        secret_kept=tuple(kept),
        stage1=stage1,
        stage2=stage2,
        revealed=revealed,
        slices=slices,
        offered=offered,
        draft_order=order,
        slice_pick=tuple(sp),
        seat_pick=tuple(st),
    )


def _read_seats(r: _Reader, d: Mapping[str, Any], n: int, mode: str, objectives: set[str]) -> tuple[Any, ...]:
    """Per seat: faction, colour, home, hand, trade goods, secret objectives, Milty picks."""
    seats = r.items("seats", d["seats"], n, n)
    milty_keys = ("milty_slice", "milty_seat") if mode == "milty" else ()
    factions = {f.id for f in r.content.factions}
    colors = {c for c, _ in r.content.colors}
    f_: list[str] = []
    c_: list[str] = []
    h_: list[int] = []
    hands: list[tuple[TileId, ...]] = []
    goods: list[int] = []
    drawn: list[tuple[str, ...]] = []
    kept: list[str] = []
    sp: list[int] = []
    st: list[int] = []
    for i, raw in enumerate(seats):
        at = f"seats[{i}]"
        seat = r.obj(at, raw, SEAT_KEYS + milty_keys)
        f_.append(r.text(f"{at}.faction", seat["faction"], factions))
        c_.append(r.text(f"{at}.color", seat["color"], colors))
        home = seat["home_position"]
        h_.append(0 if home is None else r.integer(f"{at}.home_position", home, 1, 36))
        hand = r.items(f"{at}.system_tiles_in_hand", seat["system_tiles_in_hand"], 0, 12)
        hands.append(tuple(r.tile(f"{at}.system_tiles_in_hand[{k}]", t) for k, t in enumerate(hand)))
        goods.append(r.integer(f"{at}.trade_goods", seat["trade_goods"], 0, 20))
        dr = r.items(f"{at}.secret_objectives_drawn", seat["secret_objectives_drawn"], 2, 2)
        drawn.append(
            tuple(
                r.text(f"{at}.secret_objectives_drawn[{k}]", o, objectives, allow_none=False)
                for k, o in enumerate(dr)
            )
        )
        kept.append(r.text(f"{at}.secret_objective_kept", seat["secret_objective_kept"], objectives))
        if mode == "milty":
            ms = seat["milty_slice"]
            sp.append(-1 if ms is None else r.integer(f"{at}.milty_slice", ms, 0, 20))
            mp = seat["milty_seat"]
            st.append(0 if mp is None else r.integer(f"{at}.milty_seat", mp, 1, n))
    return f_, c_, h_, hands, goods, drawn, kept, sp, st


def _read_placements(r: _Reader, d: Mapping[str, Any], n: int) -> list[Placement]:
    """The placement record (rule: ti4/place-system-tiles)."""
    placed: list[Placement] = []
    for k, raw in enumerate(r.items("placements", d["placements"], 0, 40)):
        pl = r.obj(f"placements[{k}]", raw, ("seat", "tile", "position"))
        seat_no = r.integer(f"placements[{k}].seat", pl["seat"], 0, n - 1)
        tile = r.tile(f"placements[{k}].tile", pl["tile"])
        if tile < 0:
            raise _bad(f"placements[{k}].tile", "a placed tile is face up, not hidden")
        pos = r.integer(f"placements[{k}].position", pl["position"], 1, 36)
        placed.append(Placement(seat=seat_no, tile=tile, pos=pos))
    return placed


def _read_objectives(
    r: _Reader, d: Mapping[str, Any], objectives: set[str]
) -> tuple[tuple[str, ...], tuple[str, ...], int]:
    """Stage I and II objectives and how many are revealed (rule: ti4/objectives)."""
    o = r.obj("objectives", d["objectives"], ("stage_i", "stage_ii", "stage_i_revealed"))
    stage1 = tuple(
        r.text(f"objectives.stage_i[{k}]", x, objectives, allow_none=False)
        for k, x in enumerate(r.items("objectives.stage_i", o["stage_i"], 5, 5))
    )
    stage2 = tuple(
        r.text(f"objectives.stage_ii[{k}]", x, objectives, allow_none=False)
        for k, x in enumerate(r.items("objectives.stage_ii", o["stage_ii"], 5, 5))
    )
    revealed = r.integer("objectives.stage_i_revealed", o["stage_i_revealed"], 0, 5)
    return stage1, stage2, revealed


def _read_milty(
    r: _Reader, d: Mapping[str, Any], mode: str, n: int, factions: set[str]
) -> tuple[tuple[tuple[TileId, ...], ...], tuple[str, ...], tuple[int, ...]]:
    """The Milty section: slices, factions offered, draft order (only in the Milty mode)."""
    slices: tuple[tuple[TileId, ...], ...] = ()
    offered: tuple[str, ...] = ()
    order: tuple[int, ...] = ()
    if mode == "milty":
        if "milty" not in d:
            raise _bad("milty", "missing")
        m = r.obj("milty", d["milty"], ("slices", "factions_offered", "draft_order"))
        slices = tuple(
            tuple(
                r.tile(f"milty.slices[{k}][{j}]", t)
                for j, t in enumerate(r.items(f"milty.slices[{k}]", sl, 5, 5))
            )
            for k, sl in enumerate(r.items("milty.slices", m["slices"], 1, 12))
        )
        offered = tuple(
            r.text(f"milty.factions_offered[{k}]", f, factions, allow_none=False)
            for k, f in enumerate(r.items("milty.factions_offered", m["factions_offered"], 1, 24))
        )
        order = tuple(
            r.integer(f"milty.draft_order[{k}]", s, 0, n - 1)
            for k, s in enumerate(r.items("milty.draft_order", m["draft_order"], n, n))
        )
    elif "milty" in d:
        raise _bad("milty", "only a milty-mode state has a milty section")
    return slices, offered, order


# ------------------------------------------------------------------------------------ schema

_TILE = {"type": "string", "pattern": "^([0-9]{1,3}|hidden blue|hidden red)$", "description": "a tile number"}
_NTILE = {"anyOf": [_TILE, {"type": "null"}]}
_OBJ = {"type": "string", "description": "an objective id, or 'hidden'"}


def _seat_schema(content: Content) -> dict[str, Any]:
    """The schema of one seat of the public form."""
    factions = [f.id for f in content.factions]
    colors = [c for c, _ in content.colors]
    return {
        "type": "object",
        "additionalProperties": False,
        "required": list(SEAT_KEYS),
        "properties": {
            "faction": {"enum": [*factions, None], "description": "the faction chosen (null: not yet)"},
            "color": {"enum": [*colors, None], "description": "the colour chosen (null: not yet)"},
            "home_position": {"type": ["integer", "null"], "minimum": 1, "maximum": 36},
            "system_tiles_in_hand": {"type": "array", "items": _TILE, "maxItems": 12},
            "trade_goods": {"type": "integer", "minimum": 0, "maximum": 20},
            "secret_objectives_drawn": {"type": "array", "items": _OBJ, "minItems": 2, "maxItems": 2},
            "secret_objective_kept": {"type": ["string", "null"]},
            "milty_slice": {"type": ["integer", "null"], "minimum": 0},
            "milty_seat": {"type": ["integer", "null"], "minimum": 1, "maximum": 6},
        },
    }


_PLACEMENTS = {
    "type": "array",
    "items": {
        "type": "object",
        "additionalProperties": False,
        "required": ["seat", "tile", "position"],
        "properties": {
            "seat": {"type": "integer", "minimum": 0, "maximum": 5},
            "tile": {"type": "string", "pattern": "^[0-9]{1,3}$"},
            "position": {"type": "integer", "minimum": 1, "maximum": 36},
        },
    },
}


def state_schema(content: Content) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of ``state_to_dict``."""
    factions = [f.id for f in content.factions]
    seat = _seat_schema(content)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Twilight Imperium 4 galaxy setup",
        "type": "object",
        "additionalProperties": False,
        "required": list(TOP_KEYS),
        "properties": {
            "game": {"const": "ti4"},
            "players": {"type": "integer", "minimum": 3, "maximum": 6},
            "mode": {"enum": list(MODES), "description": "rulebook setup or Milty draft"},
            "expansion": {"enum": ["base", "pok"]},
            "no_other_option": {"enum": list(READINGS), "description": "reading of 'no other option'"},
            "victory_points": {"enum": list(VP_TRACKS)},
            "step": {"enum": list(PHASE_NAMES)},
            "to_decide": {"type": ["integer", "null"], "minimum": 0, "maximum": 5},
            "speaker": {"type": ["integer", "null"], "minimum": 0, "maximum": 5},
            "table": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 5}},
            "seats": {"type": "array", "items": seat, "minItems": 3, "maxItems": 6},
            "galaxy": {
                "type": "array",
                "items": _NTILE,
                "minItems": 37,
                "maxItems": 37,
                "description": "the tile in each map-string position (0 = Mecatol Rex)",
            },
            "placements": _PLACEMENTS,
            "undealt_tiles": {"type": "array", "items": _TILE},
            "speakers_red_tile": _NTILE,
            "objectives": {
                "type": "object",
                "additionalProperties": False,
                "required": ["stage_i", "stage_ii", "stage_i_revealed"],
                "properties": {
                    "stage_i": {"type": "array", "items": _OBJ, "minItems": 5, "maxItems": 5},
                    "stage_ii": {"type": "array", "items": _OBJ, "minItems": 5, "maxItems": 5},
                    "stage_i_revealed": {"type": "integer", "minimum": 0, "maximum": 5},
                },
            },
            "milty": {
                "type": "object",
                "additionalProperties": False,
                "required": ["slices", "factions_offered", "draft_order"],
                "properties": {
                    "slices": {
                        "type": "array",
                        "items": {"type": "array", "items": _TILE, "minItems": 5, "maxItems": 5},
                    },
                    "factions_offered": {"type": "array", "items": {"enum": factions}},
                    "draft_order": {
                        "type": "array",
                        "items": {"type": "integer", "minimum": 0, "maximum": 5},
                    },
                },
            },
        },
    }
