"""The public form of a Cytress position (``to_dict``), in the rulebook's words.

This is the one place that maps the internal encoding (``games.cytress.state``: tuples of content
indices by seat, owner, hex and level) to the public form: component ids (intel ``COR07``,
Stratolite ``S03``, bounty ``B1-COR``, AI action card ``AI-COR-2``, tile ``"3"``, hex ``C4``), names
from closed sets (factions, resources, phases, steps, landing pads), booleans and lists.
``games.cytress.validate`` reads it back, checking every field. ``schema.json`` is its JSON Schema.
"""

from __future__ import annotations

from typing import Any

from games.cytress.content import AI_CARDS_PER_FACTION
from games.cytress.state import (
    AUTOMA,
    FACTIONS,
    NOBODY,
    OP_BOUNTY_ASCEND,
    OP_BOUNTY_CREW,
    OP_INTEL,
    OP_NORMAL,
    OP_PLACE,
    OVER,
    PAD_STRATOLITES,
    PADS,
    PHASE_NAMES,
    RESOURCES,
    STEP_NAMES,
    CytressState,
)
from games.cytress.work import Ctx

__all__ = ["FACTION_CODES", "OP_NAMES", "ai_card_code", "owner_id", "state_to_dict"]

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


def ai_card_code(card: int) -> str:
    """An AI action card's id: ``AI-COR-2`` (faction code, number 1-4)."""
    return f"AI-{FACTION_CODES[card // AI_CARDS_PER_FACTION]}-{card % AI_CARDS_PER_FACTION + 1}"


def owner_id(owner: int, players: int) -> int | str | None:
    """A crew's owner in the public form: the seat number, ``"automa"`` or None (no crew)."""
    if owner == NOBODY:
        return None
    return "automa" if players == 1 and owner == AUTOMA else owner


def _pending(ctx: Ctx, s: CytressState) -> dict[str, Any]:
    c = ctx.content
    p = s.pending
    labels = ctx.map(s.tiles).layout.labels
    card: str | None = None
    if p.card != NOBODY:
        card = c.stratolites[p.card].code if p.pad == PAD_STRATOLITES else c.bounties[p.card].code
    return {
        "landing_pad": PADS[p.pad] if p.pad != NOBODY else None,
        "hex_type": FACTIONS[p.colour] if p.colour != NOBODY else None,
        "card": card,
        "resource": RESOURCES[p.resource] if p.resource != NOBODY else None,
        "height": p.height,
        "crew_hex": labels[p.hex] if p.hex != NOBODY else None,
        "trades_made": p.trades,
        "trade": f"{RESOURCES[p.trade // 4]} for {RESOURCES[p.trade % 4]}" if p.trade != NOBODY else None,
        "options": [labels[h] for h in p.options],
    }


def _owner(ctx: Ctx, s: CytressState, o: int) -> dict[str, Any]:
    c = ctx.content
    leader = s.leader[o]
    return {
        "rebel": c.rebels[s.rebels[o]].id,
        "crews_unused": s.supply[o],
        "stratos": list(s.stratos[o]),
        "leader": None if leader == NOBODY else {"faction": FACTIONS[leader // 2], "spot": leader % 2 + 1},
        "bounties": [c.bounties[b].code for b in s.bounties[o]],
    }


def _seat(ctx: Ctx, s: CytressState, seat: int) -> dict[str, Any]:
    c = ctx.content
    out = _owner(ctx, s, seat)
    side = s.sides[seat]
    out.update(
        {
            "seat": seat,
            "side": None if side < 0 else "AB"[side],
            "resources": {r: s.res[seat][k] for k, r in enumerate(RESOURCES)},
            "lifepaths": {f: [c.intel[x].code for x in s.paths[seat][k]] for k, f in enumerate(FACTIONS)},
            "transports_on_board": s.transports[seat],
            "transports_on_stratos": s.on_stratos[seat],
            "reserved_stratolite": None
            if s.reserved[seat] == NOBODY
            else c.stratolites[s.reserved[seat]].code,
        }
    )
    return out


def _automa(ctx: Ctx, s: CytressState) -> dict[str, Any] | None:
    a = s.automa
    if a is None:
        return None
    c = ctx.content
    labels = ctx.map(s.tiles).layout.labels
    out = _owner(ctx, s, AUTOMA)
    out.update(
        {
            "intel": [c.intel[x].code for x in a.intel],
            "deck": [ai_card_code(x) for x in a.deck],
            "tracker": {f: [ai_card_code(x) for x in a.tracker[k]] for k, f in enumerate(FACTIONS)},
            "tube_pieces": a.records,
            "revealed": [ai_card_code(x) for x in a.drawn],
            "to_do": [
                {
                    "action": OP_NAMES[op // 16],
                    "faction": None if op // 16 == OP_BOUNTY_ASCEND else FACTIONS[op % 16],
                }
                for op in a.program
            ],
            "moving_from": None if a.moving == NOBODY else labels[a.moving],
        }
    )
    return out


def state_to_dict(ctx: Ctx, s: CytressState) -> dict[str, Any]:
    """The public form of ``s`` (plain JSON types; round-trips through ``validate.state_from_dict``)."""
    c = ctx.content
    view = ctx.map(s.tiles)
    return {
        "game": "cytress",
        "players": s.players,
        "round": s.round,
        "phase": PHASE_NAMES[s.phase],
        "step": STEP_NAMES[s.step],
        "to_move": None if s.phase == OVER else s.actor,
        "turn": s.turn,
        "first_player": s.first,
        "phase_first_player": s.phase_first,
        "pending": _pending(ctx, s),
        "map": {
            "tiles": [c.tiles[t].id for t in s.tiles],
            "hexes": [
                {
                    "hex": view.layout.labels[h],
                    "faction": FACTIONS[view.faction[h]],
                    "crew": owner_id(s.crew[h], s.players),
                    "tube": s.tube[h],
                }
                for h in range(len(s.crew))
            ],
        },
        "cytress_board_side": c.market[s.market].id,
        "faction_board_side": c.board_sides[s.board_side].id,
        "factions": [
            {
                "faction": f,
                "deck": [c.intel[x].code for x in s.intel_deck[k]],
                "intel": [None if x == NOBODY else c.intel[x].code for x in s.intel_row[k]],
            }
            for k, f in enumerate(FACTIONS)
        ],
        "stratolites": {
            "deck": [c.stratolites[x].code for x in s.strat_deck],
            "row": [None if x == NOBODY else c.stratolites[x].code for x in s.strat_row],
            "discard": [c.stratolites[x].code for x in s.strat_discard],
        },
        "bounty_stacks": {f: [c.bounties[b].code for b in s.bounty_stack[k]] for k, f in enumerate(FACTIONS)},
        "tube_sections": {"near_stratos": s.tubes_left, "box": s.tubes_box},
        "seats": [_seat(ctx, s, seat) for seat in range(s.players)],
        "automa": _automa(ctx, s),
        "end_triggered": s.end_triggered,
        "round_limit": s.round_limit,
        "tubes_from_box": s.box_tubes,
        "bounty_scoring": "best" if s.bounty_best else "each",
        "shuffle": {"seed": s.seed, "count": s.shuffles},
    }
