"""The public form of a TI4 setup state (``to_dict``) and reading it back.

The one place where the internal encoding (``games.ti4.state``) meets the rulebook's words: tiles are
their printed numbers as strings (``"26"``), positions the map-string indices (0 = Mecatol Rex), a
tile a viewer cannot see is ``"hidden blue"`` or ``"hidden red"`` (its back), an objective it cannot
see is ``"?"``; phases are named (``"place system tiles"``). The form is declared once in
``games.ti4.schema`` (its JSON Schema, the check of every field on its own, the names written here);
``state_from_dict`` then checks what depends on the player count and the mode (seats below it, the
Milty fields only in the Milty mode), and ``games.ti4.validate`` the rules' invariants (conservation
of tiles, the order of decisions, the placement record).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.ti4.content import Content
from games.ti4.schema import FORMS, PLAIN, bad, state_schema
from games.ti4.state import Placement, TI4State

__all__ = ["state_from_dict", "state_schema", "state_to_dict"]

_MILTY_SEAT = ("milty_slice", "milty_seat")


def state_to_dict(state: TI4State) -> dict[str, Any]:
    """The public form (plain JSON types, the rulebook's words)."""
    milty = state.mode == "milty"
    seats = []
    for s in range(state.players):
        seat: dict[str, Any] = {
            "faction": state.factions[s],
            "color": state.colors[s],
            "home_position": state.homes[s],
            "system_tiles_in_hand": state.hands[s],
            "trade_goods": state.trade_goods[s],
            "secret_objectives_drawn": state.secret_drawn[s],
            "secret_objective_kept": state.secret_kept[s],
        }
        if milty:
            seat["milty_slice"] = state.slice_pick[s]
            seat["milty_seat"] = state.seat_pick[s]
        seats.append(seat)
    values: dict[str, Any] = {
        "game": "ti4",
        "players": state.players,
        "mode": state.mode,
        "expansion": state.expansion,
        "no_other_option": state.reading,
        "victory_points": state.vp_track,
        "step": state.phase,
        "to_decide": state.actor,
        "speaker": state.speaker,
        "table": state.table,
        "seats": seats,
        "galaxy": state.galaxy,
        "placements": [{"seat": pl.seat, "tile": pl.tile, "position": pl.pos} for pl in state.placed],
        "undealt_tiles": state.undealt,
        "speakers_red_tile": state.red_tile,
        "objectives": {"stage_i": state.stage1, "stage_ii": state.stage2, "stage_i_revealed": state.revealed},
    }
    if milty:
        values["milty"] = {
            "slices": state.slices,
            "factions_offered": state.offered,
            "draft_order": state.draft_order,
        }
    return PLAIN.write(values)


# ------------------------------------------------------------------------------------ reading


def _seat_no(at: str, value: int, n: int, *, first: int = 0) -> int:
    """A seat (or a seat position, from ``first``) of ``n`` players."""
    if not first <= value < n + first:
        raise bad(at, f"expected {first}..{n - 1 + first} with {n} players, got {value!r}")
    return value


def _count(at: str, items: Sequence[Any], n: int) -> None:
    if len(items) != n:
        raise bad(at, f"expected {n} entries (one per player), got {len(items)}")


def state_from_dict(content: Content, data: Any) -> TI4State:
    """Read the public form into a state: each field by the declaration, then the seats against the
    player count and the Milty fields against the mode (the rules' invariants: ``games.ti4.validate``)."""
    d = FORMS(content).read(data)
    n, mode = d["players"], d["mode"]
    seats = d["seats"]
    _count("seats", seats, n)
    _count("table", d["table"], n)
    for key in ("to_decide", "speaker"):
        if d[key] >= 0:
            _seat_no(key, d[key], n)
    placed = tuple(
        Placement(seat=_seat_no(f"placements[{k}].seat", pl["seat"], n), tile=pl["tile"], pos=pl["position"])
        for k, pl in enumerate(d["placements"])
    )
    o = d["objectives"]
    return TI4State(
        players=n,
        mode=mode,
        expansion=d["expansion"],
        reading=d["no_other_option"],
        vp_track=d["victory_points"],
        phase=d["step"],
        actor=d["to_decide"],
        speaker=d["speaker"],
        factions=tuple(s["faction"] for s in seats),
        colors=tuple(s["color"] for s in seats),
        homes=tuple(s["home_position"] for s in seats),
        table=d["table"],
        hands=tuple(tuple(sorted(s["system_tiles_in_hand"])) for s in seats),
        undealt=tuple(sorted(d["undealt_tiles"])),
        red_tile=d["speakers_red_tile"],
        galaxy=d["galaxy"],
        placed=placed,
        trade_goods=tuple(s["trade_goods"] for s in seats),
        secret_drawn=tuple(tuple(sorted(s["secret_objectives_drawn"])) for s in seats),
        secret_kept=tuple(s["secret_objective_kept"] for s in seats),
        stage1=o["stage_i"],
        stage2=o["stage_ii"],
        revealed=o["stage_i_revealed"],
        **_read_milty(d, mode, n),
    )


def _read_milty(d: Mapping[str, Any], mode: str, n: int) -> dict[str, Any]:
    """The Milty section and each seat's picks: there in the Milty mode, and only there."""
    seats = d["seats"]
    if mode != "milty":
        if "milty" in d:
            raise bad("milty", "only a milty-mode state has a milty section")
        for i, seat in enumerate(seats):
            for key in _MILTY_SEAT:
                if key in seat:
                    raise bad(f"seats[{i}].{key}", "only a milty-mode state has milty picks")
        return {}
    if "milty" not in d:
        raise bad("milty", "missing; a milty-mode state has a milty section")
    for i, seat in enumerate(seats):
        for key in _MILTY_SEAT:
            if key not in seat:
                raise bad(f"seats[{i}].{key}", "missing; a milty-mode seat has its milty picks")
        if seat["milty_seat"]:
            _seat_no(f"seats[{i}].milty_seat", seat["milty_seat"], n, first=1)
    m = d["milty"]
    _count("milty.draft_order", m["draft_order"], n)
    for k, s in enumerate(m["draft_order"]):
        _seat_no(f"milty.draft_order[{k}]", s, n)
    return {
        "slices": m["slices"],
        "offered": m["factions_offered"],
        "draft_order": m["draft_order"],
        "slice_pick": tuple(s["milty_slice"] for s in seats),
        "seat_pick": tuple(s["milty_seat"] for s in seats),
    }
