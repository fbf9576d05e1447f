"""Who decides what, and what each decision does: the setup's steps wired in the rulebook's order.

Rulebook mode: factions (speaker first, clockwise) -> colours -> [the deal] -> five players: the
speaker's red tile -> [home systems] -> system tiles, snaking ring by ring -> [home systems attached,
trade goods, STEPS 7-11] -> secret objectives -> [stage I revealed] -> over.
Milty mode: the draft (slice, faction, seat; snake order) -> [the galaxy of slices] -> colours ->
secret objectives -> over.
"""

from __future__ import annotations

from games.core.protocol import Seat
from games.core.records import replace, replace_at
from games.errors import IllegalActionError, WrongSeatError
from games.ti4 import milty
from games.ti4.content import Content
from games.ti4.objectives import keep_objective
from games.ti4.placement import (
    conflicts,
    legal_placements,
    open_spaces,
    place_red_tile,
    place_tile,
    red_tile_spaces,
    start_placement,
)
from games.ti4.setup import available_colors, available_factions, home_system_tile, take_color, take_faction
from games.ti4.state import COLOR, DRAFT, FACTION, OVER, PLACE, RED, SECRET, TI4Action, TI4State

__all__ = ["apply_action", "legal_actions"]


def legal_actions(state: TI4State, content: Content) -> list[TI4Action]:
    """The legal decisions of the seat to act, in a fixed order (empty when the setup is over)."""
    phase = state.phase
    if phase == FACTION:
        return [TI4Action("faction", name=f) for f in sorted(available_factions(state, content))]
    if phase == COLOR:
        return [TI4Action("color", name=c) for c in available_colors(state, content)]
    if phase == RED:
        return [TI4Action("place", tile=state.red_tile, pos=p) for p in red_tile_spaces(state, content)]
    if phase == PLACE:
        layout = content.board.layouts[state.players]
        hand = state.hands[state.actor]
        return [
            TI4Action("place", tile=t, pos=p)
            for t, p in legal_placements(state.galaxy, content, layout, hand, state.reading)
        ]
    if phase == SECRET:
        return [TI4Action("keep", name=o) for o in state.secret_drawn[state.actor]]
    if phase == DRAFT:
        return _draft_actions(state, content)
    return []


def _draft_actions(state: TI4State, content: Content) -> list[TI4Action]:
    seat = state.actor
    out: list[TI4Action] = []
    if state.slice_pick[seat] < 0:
        taken = set(state.slice_pick)
        out += [TI4Action("slice", pos=k) for k in range(len(state.slices)) if k not in taken]
    if not state.factions[seat]:
        out += [TI4Action("faction", name=f) for f in available_factions(state, content)]
    if state.seat_pick[seat] == 0:
        taken = set(state.seat_pick)
        out += [TI4Action("seat", pos=k) for k in range(1, state.players + 1) if k not in taken]
    return out


def _rule_of(phase: int) -> str:
    return {
        FACTION: "ti4/factions",
        COLOR: "ti4/color-and-planets",
        RED: "ti4/five-player-red-tile",
        PLACE: "ti4/place-system-tiles",
        SECRET: "ti4/objectives",
    }.get(phase, "")


def apply_action(state: TI4State, content: Content, action: TI4Action, *, trusted: bool = False) -> TI4State:
    """The state after ``action`` (pure). Raises ``IllegalActionError`` naming the rule."""
    if state.phase == OVER:
        raise WrongSeatError("the setup is complete; no decision is left", field="action")
    if not trusted and action not in legal_actions(state, content):
        raise _illegal(state, content, action)
    phase = state.phase
    if phase == FACTION:
        return take_faction(state, action.name)
    if phase == COLOR:
        return _after_color(state, content, action.name)
    if phase == RED:
        return place_red_tile(state, content, action.pos)
    if phase == PLACE:
        return place_tile(state, content, action.tile, action.pos)
    if phase == SECRET:
        return keep_objective(state, action.name)
    return _after_pick(state, content, action)


def _illegal(state: TI4State, content: Content, action: TI4Action) -> IllegalActionError:
    rule = _rule_of(state.phase)
    if state.phase == PLACE and action.kind == "place":
        layout = content.board.layouts[state.players]
        if action.tile not in state.hands[state.actor]:
            return IllegalActionError(
                f"seat {state.actor} holds no tile {action.tile!r}", field="action.tile", rule=rule
            )
        spaces = open_spaces(state.galaxy, content.board, layout)
        if action.pos not in spaces:
            return IllegalActionError(
                f"space {action.pos!r} is not open: each ring is built before the next; open: {spaces}",
                field="action.pos",
                rule="ti4/ring-order",
            )
        found = conflicts(state.galaxy, content.board, content.tiles, action.tile, action.pos)
        if found:
            c = found[0]
            what = "anomalies" if c.kind == "anomaly" else f"{c.kind} wormholes"
            return IllegalActionError(
                f"tile {c.tile} at {c.pos} would touch tile {c.other} at {c.other_pos} ({what}); that is "
                "allowed only when there is no other option, and there is one",
                field="action",
                rule=c.rule,
            )
    legal = legal_actions(state, content)
    shown = ", ".join(f"{a.kind} {a.name or a.tile or a.pos}" for a in legal[:6])
    return IllegalActionError(
        f"{action!r} is not legal here; legal: {shown}{' ...' if len(legal) > 6 else ''}",
        field="action",
        rule=rule,
    )


def _after_color(state: TI4State, content: Content, color: str) -> TI4State:
    """A colour taken (``setup.take_color``); after the last one: the secret objectives (Milty), the
    speaker's red tile (five players) or the placement of system tiles."""
    s = take_color(state, color)
    if not all(s.colors):
        return s
    if state.mode == "milty":
        return replace(s, phase=SECRET, actor=state.speaker)
    if state.red_tile:
        return replace(s, phase=RED, actor=state.speaker)
    return start_placement(s, content)


def _after_pick(state: TI4State, content: Content, action: TI4Action) -> TI4State:
    """A Milty pick: a slice, a faction or a seat position; after the last pick, the galaxy."""
    seat: Seat = state.actor
    if action.kind == "slice":
        s = replace(state, slice_pick=replace_at(state.slice_pick, seat, action.pos))
    elif action.kind == "faction":
        s = replace(state, factions=replace_at(state.factions, seat, action.name))
    else:
        s = replace(state, seat_pick=replace_at(state.seat_pick, seat, action.pos))
    done = milty.picks_made(s)
    if done < 3 * state.players:
        return replace(s, actor=milty.draft_seat(s, done))
    homes = [home_system_tile(content, s.factions[k]) for k in range(state.players)]
    s = milty.assemble(s, content, homes)
    return replace(s, phase=COLOR, actor=s.speaker)
