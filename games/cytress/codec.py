"""The public form of a Cytress position (``to_dict``), in the rulebook's words.

This is the one place that maps the internal encoding (``games.cytress.state``: tuples of content
indices by seat, owner, hex and level) to the public form: component ids (intel ``COR07``,
Stratolite ``S03``, bounty ``B1-COR``, AI action card ``AI-COR-2``, tile ``"3"``, hex ``C4``), names
from closed sets (factions, resources, phases, steps, landing pads), booleans and lists. The form is
declared once in ``games.cytress.schema`` (which encodes the content indices into ids by the same
declaration); ``games.cytress.validate`` reads it back.
"""

from __future__ import annotations

from typing import Any

from games.cytress.schema import FACTION_CODES, FORMS, OP_NAMES, ai_card_code
from games.cytress.state import (
    AUTOMA,
    FACTIONS,
    NOBODY,
    OP_BOUNTY_ASCEND,
    OVER,
    PAD_STRATOLITES,
    RESOURCES,
    CytressState,
)
from games.cytress.work import Ctx

__all__ = ["FACTION_CODES", "OP_NAMES", "ai_card_code", "owner_id", "state_to_dict"]


def owner_id(owner: int, players: int) -> int | str | None:
    """A crew's owner in the public form: the seat number, ``"automa"`` or None (no crew)."""
    if owner == NOBODY:
        return None
    return "automa" if players == 1 and owner == AUTOMA else owner


def _pending(ctx: Ctx, s: CytressState) -> dict[str, Any]:
    c = ctx.content
    p = s.pending
    labels = ctx.map(s.tiles).layout.labels
    card: int | str = NOBODY
    if p.card != NOBODY:
        card = c.stratolites[p.card].code if p.pad == PAD_STRATOLITES else c.bounties[p.card].code
    return {
        "landing_pad": p.pad,
        "hex_type": p.colour,
        "card": card,
        "resource": p.resource,
        "height": p.height,
        "crew_hex": labels[p.hex] if p.hex != NOBODY else NOBODY,
        "trades_made": p.trades,
        "trade": p.trade,
        "options": [labels[h] for h in p.options],
    }


def _owner(s: CytressState, o: int) -> dict[str, Any]:
    rebel = s.rebels[o]
    leader = rebel.leader
    return {
        "rebel": rebel.board,
        "crews_unused": rebel.unused,
        "stratos": rebel.stratos,
        "leader": None if leader == NOBODY else {"faction": leader // 2, "spot": leader % 2 + 1},
        "bounties": rebel.bounties,
    }


def _seat(s: CytressState, seat: int) -> dict[str, Any]:
    p = s.players[seat]
    return {
        **_owner(s, seat),
        "seat": seat,
        "side": p.side,
        "resources": dict(zip(RESOURCES, p.resources, strict=True)),
        "lifepaths": dict(zip(FACTIONS, p.lifepaths, strict=True)),
        "transports_on_board": p.transports,
        "transports_on_stratos": p.on_stratos,
        "reserved_stratolite": p.reserved,
    }


def _automa(ctx: Ctx, s: CytressState) -> dict[str, Any] | None:
    a = s.automa
    if a is None:
        return None
    return {
        **_owner(s, AUTOMA),
        "intel": a.intel,
        "deck": a.deck,
        "tracker": dict(zip(FACTIONS, a.tracker, strict=True)),
        "tube_pieces": a.records,
        "revealed": a.drawn,
        "to_do": [
            {"action": OP_NAMES[op // 16], "faction": None if op // 16 == OP_BOUNTY_ASCEND else op % 16}
            for op in a.program
        ],
        "moving_from": NOBODY if a.moving == NOBODY else ctx.map(s.tiles).layout.labels[a.moving],
    }


def state_to_dict(ctx: Ctx, s: CytressState) -> dict[str, Any]:
    """The public form of ``s`` (plain JSON types; round-trips through ``validate.state_from_dict``)."""
    view = ctx.map(s.tiles)
    hexes = [
        {
            "hex": view.layout.labels[h],
            "faction": view.faction[h],
            "crew": owner_id(s.crew[h], s.num_players),
            "tube": s.tube[h],
        }
        for h in range(len(s.crew))
    ]
    values = {
        "game": "cytress",
        "players": s.num_players,
        "round": s.round,
        "phase": s.phase,
        "step": s.step,
        "to_move": NOBODY if s.phase == OVER else s.actor,
        "turn": s.turn,
        "first_player": s.first,
        "phase_first_player": s.phase_first,
        "pending": _pending(ctx, s),
        "map": {"tiles": s.tiles, "hexes": hexes},
        "cytress_board_side": s.market,
        "faction_board_side": s.board_side,
        "factions": [
            {"faction": k, "deck": s.intel_deck[k], "intel": s.intel_row[k]} for k in range(len(FACTIONS))
        ],
        "stratolites": {"deck": s.strat_deck, "row": s.strat_row, "discard": s.strat_discard},
        "bounty_stacks": dict(zip(FACTIONS, s.bounty_stack, strict=True)),
        "tube_sections": {"near_stratos": s.tubes_left, "box": s.tubes_box},
        "seats": [_seat(s, seat) for seat in range(s.num_players)],
        "automa": _automa(ctx, s),
        "end_triggered": s.end_triggered,
        "round_limit": s.round_limit,
        "tubes_from_box": s.box_tubes,
        "bounty_scoring": int(s.bounty_best),
        "shuffle": {"seed": s.seed, "count": s.shuffles},
    }
    return FORMS(ctx.content).write(values)
