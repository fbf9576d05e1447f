"""Who decides what, and what each decision does: the setup's steps wired in the rulebook's order.

Rulebook mode: factions (speaker first, clockwise) -> colours -> [the deal] -> five players: the
speaker's red tile -> [home systems] -> system tiles, snaking ring by ring -> [home systems attached,
trade goods, STEPS 7-11] -> secret objectives -> [stage I revealed] -> over.
Milty mode: the draft (slice, faction, seat; snake order) -> [the galaxy of slices] -> colours ->
secret objectives -> over.
"""

from __future__ import annotations

from dataclasses import replace

from games.core.protocol import Seat
from games.errors import IllegalActionError, WrongSeatError
from games.ti4 import milty
from games.ti4.content import Content
from games.ti4.finish import board_complete, finish_setup
from games.ti4.placement import legal_placements, snake_seat
from games.ti4.setup import available_colors, available_factions, home_system_tile, next_in_order
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
        ring1 = content.board.ring_positions(1)
        return [TI4Action("place", tile=state.red_tile, pos=p) for p in ring1 if state.galaxy[p] == 0]
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
        return _after_faction(state, content, action.name)
    if phase == COLOR:
        return _after_color(state, content, action.name)
    if phase == RED:
        galaxy = list(state.galaxy)
        galaxy[action.pos] = action.tile
        placed = (*state.placed, (state.actor, action.tile, action.pos))
        return _start_placement(replace(state, galaxy=tuple(galaxy), placed=placed), content)
    if phase == PLACE:
        return _after_place(state, content, action)
    if phase == SECRET:
        return _after_keep(state, action.name)
    return _after_pick(state, content, action)


def _illegal(state: TI4State, content: Content, action: TI4Action) -> IllegalActionError:
    rule = _rule_of(state.phase)
    if state.phase == PLACE and action.kind == "place":
        layout = content.board.layouts[state.players]
        from games.ti4.placement import conflicts, open_spaces

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


def _after_faction(state: TI4State, content: Content, faction: str) -> TI4State:
    """rule: ti4/factions - the seat takes the faction; the next seat clockwise chooses."""
    factions = list(state.factions)
    factions[state.actor] = faction
    done = sum(1 for f in factions if f)
    if done < state.players:
        return replace(state, factions=tuple(factions), actor=next_in_order(state, done))
    return replace(state, factions=tuple(factions), phase=COLOR, actor=state.speaker)


def _after_color(state: TI4State, content: Content, color: str) -> TI4State:
    """rule: ti4/color-and-planets - the seat takes the colour; then the deal (rulebook) or the
    secret objectives (Milty)."""
    colors = list(state.colors)
    colors[state.actor] = color
    done = sum(1 for c in colors if c)
    s = replace(state, colors=tuple(colors))
    if done < state.players:
        return replace(s, actor=next_in_order(s, done))
    if state.mode == "milty":
        return replace(s, phase=SECRET, actor=state.speaker)
    if state.red_tile:  # rule: ti4/five-player-red-tile - the speaker places it next to Mecatol Rex
        return replace(s, phase=RED, actor=state.speaker)
    return _start_placement(s, content)


def _start_placement(state: TI4State, content: Content) -> TI4State:
    """rule: ti4/place-system-tiles - home systems first, then the speaker places the first tile."""
    galaxy = list(state.galaxy)
    for s in range(state.players):
        galaxy[state.homes[s]] = home_system_tile(content, state.factions[s])
    first = snake_seat(0, state.players, state.table, state.speaker)
    return replace(state, galaxy=tuple(galaxy), phase=PLACE, actor=first)


def _after_place(state: TI4State, content: Content, action: TI4Action) -> TI4State:
    """rule: ti4/place-system-tiles - the tile goes down face up; the snake moves on."""
    seat = state.actor
    hand = list(state.hands[seat])
    hand.remove(action.tile)
    hands = list(state.hands)
    hands[seat] = tuple(hand)
    galaxy = list(state.galaxy)
    galaxy[action.pos] = action.tile
    placed = (*state.placed, (seat, action.tile, action.pos))
    s = replace(state, hands=tuple(hands), galaxy=tuple(galaxy), placed=placed)
    if not any(hands):
        return board_complete(s, content)
    index = len(placed) - (1 if state.red_tile else 0)
    return replace(s, actor=snake_seat(index, state.players, state.table, state.speaker))


def _after_keep(state: TI4State, objective: str) -> TI4State:
    """rule: ti4/objectives - the seat keeps one secret objective (the other is shuffled back)."""
    kept = list(state.secret_kept)
    kept[state.actor] = objective
    done = sum(1 for k in kept if k)
    s = replace(state, secret_kept=tuple(kept))
    if done < state.players:
        return replace(s, actor=next_in_order(s, done))
    return finish_setup(s)


def _after_pick(state: TI4State, content: Content, action: TI4Action) -> TI4State:
    """A Milty pick: a slice, a faction or a seat position; after the last pick, the galaxy."""
    seat: Seat = state.actor
    if action.kind == "slice":
        picks = list(state.slice_pick)
        picks[seat] = action.pos
        s = replace(state, slice_pick=tuple(picks))
    elif action.kind == "faction":
        factions = list(state.factions)
        factions[seat] = action.name
        s = replace(state, factions=tuple(factions))
    else:
        seats = list(state.seat_pick)
        seats[seat] = action.pos
        s = replace(state, seat_pick=tuple(seats))
    done = milty.picks_made(s)
    if done < 3 * state.players:
        return replace(s, actor=milty.draft_seat(s, done))
    homes = [home_system_tile(content, s.factions[k]) for k in range(state.players)]
    s = milty.assemble(s, content, homes)
    return replace(s, phase=COLOR, actor=s.speaker)
