"""Phase 3A: travel, one transport at a time to a landing pad, and meeting a faction.

rule: cytress/phase-3a-travel - in turn order each player moves one transport to one of the 9
landing pads; any number of transports may share a pad, "but you must be able to complete the action
in full at the landing pad you select": a pad is offered only when the whole action can be done.
cytress/meet-a-faction - pay the faction's intel cost in its resource (less the Hooligang
discount), take one of its face-up intel cards onto the matching lifepath, place a crew on an empty
hex of that faction and may spy on one adjacent rival.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from games.core.records import replace
from games.cytress.board import TUBE_COST
from games.cytress.content import Content
from games.cytress.crews import start_crew
from games.cytress.economy import cost_after_discount, pay
from games.cytress.intel import take_intel
from games.cytress.state import (
    BOUNTY,
    CREW,
    EXTRA,
    FIXER_INTEL,
    HOOLIGANG,
    INTEL,
    NOBODY,
    PAD_ENFORCERS,
    PAD_FIXER,
    PAD_MERCHANT,
    PAD_RENEGADE,
    PAD_STRATOLITES,
    PAYMENT,
    STRATOLITE,
    TRADE,
    pending,
)
from games.cytress.tubes import buildable
from games.cytress.undercity import after_free_intel
from games.cytress.work import Pos, Work, set_player

__all__ = ["intel_cost", "meet_faction_intel", "pad_choices", "pad_options", "start_pad"]


def intel_cost(content: Content, w: Pos, seat: int, faction: int) -> tuple[int, int]:
    """cytress/meet-a-faction - (resource, amount) of the faction's intel cost for ``seat``:
    the landing pad's cost in the faction's resource, less the seat's Hooligang discount."""
    resource = content.faction_resource[faction]
    cost = content.board_sides[w.board_side].intel_cost
    return resource, cost_after_discount(w.players[seat].icons, resource, cost)


def pad_options(content: Content, w: Pos, seat: int) -> list[int]:
    """rule: cytress/phase-3a-travel - the landing pads where ``seat`` can complete the action in
    full (extra travel: any but the Stratolites: cytress/phase-3b-extra-travel)."""
    return pad_choices(content, w, seat, _PAD_NUMBERS)


_PAD_NUMBERS = tuple(range(PAD_MERCHANT + 1))
_T = TypeVar("_T")


def pad_choices(content: Content, w: Pos, seat: int, names: Sequence[_T]) -> list[_T]:
    """``pad_options``, each pad ``p`` given as ``names[p]`` (the legal actions take the shared
    action objects straight from here).

    The faction pads (cytress/meet-a-faction): the intel cost in the faction's resource less
    the Hooligang discount is affordable (``intel_cost``, inlined: this runs on every travel), a
    face-up card is left and, while the seat has an unused crew, an empty hex of the faction's
    colour takes it ("you must be able to complete the action in full"; only "after running out of
    crew tokens" may a seat take the card without placing one: rule: cytress/rules-to-remember)."""
    out = []
    player, rows = w.players[seat], w.intel_row
    cost = content.board_sides[w.board_side].intel_cost
    mine, discounts = player.resources, player.icons[HOOLIGANG]
    placing = w.rebels[seat].unused > 0
    for f, resource in enumerate(content.faction_resource):
        row = rows[f]
        if mine[resource] >= cost - discounts[resource] and row.count(NOBODY) != len(row):
            # a card is left: card ids are >= 0, an empty slot NOBODY (-1)
            if placing and not start_crew(w, seat, f):  # no empty hex of the faction's colour
                continue
            out.append(names[f])
    if buildable(w) > 0 and seat in w.crew:
        # the resources a 1-high tube can be paid in (``renegade_resources``, unrolled)
        tube = TUBE_COST[1]
        payable = []
        if tube - discounts[0] <= mine[0]:
            payable.append(0)
        if tube - discounts[1] <= mine[1]:
            payable.append(1)
        if tube - discounts[2] <= mine[2]:
            payable.append(2)
        if tube - discounts[3] <= mine[3]:
            payable.append(3)
        if payable:
            # a Stratolite needs the same as the Renegade and more (cytress/meet-a-stratolite)
            if w.phase != EXTRA and _any_stratolite(content, w, seat, payable):
                out.append(names[PAD_STRATOLITES])
            out.append(names[PAD_RENEGADE])
    if any(w.bounty_stack):
        out.append(names[PAD_ENFORCERS])
    out.append(names[PAD_FIXER])  # always complete: the marker (and whatever intel and Stratolites are left)
    out.append(names[PAD_MERCHANT])  # "up to 2 trades": none is a complete visit
    return out


def _any_stratolite(content: Content, w: Pos, seat: int, payable: list[int]) -> bool:
    """Whether ``stratolites_open`` is not empty (the first card found will do)."""
    resource, colour = content.strat_resource, content.strat_hex
    by_faction, crew = w.map.by_faction, w.crew
    seen = 0  # the colours already looked at (bits): the seat has no crew on their hexes
    for card in (*w.strat_row, w.players[seat].reserved):
        if card < 0 or resource[card] not in payable:
            continue
        c = colour[card]
        if seen >> c & 1:
            continue
        for h in by_faction[c]:  # a crew of the seat on a hex of the card's colour
            if crew[h] == seat:
                return True
        seen |= 1 << c
    return False


_PAD_PENDING = tuple(pending(pad) for pad in range(PAD_MERCHANT + 1))
"""The shared ``Pending`` of a visit to each landing pad, nothing chosen yet."""


def start_pad(content: Content, w: Work, pad: int) -> None:
    """Move a transport to ``pad``: from the tracker board (travel) or off Stratos (extra travel);
    a transport meeting the Stratolites stays on Stratos (cytress/phase-3b-extra-travel)."""
    seat = w.actor
    p = w.players[seat]
    if w.phase == EXTRA:
        set_player(w, seat, replace(p, on_stratos=p.on_stratos - 1))
    elif pad == PAD_STRATOLITES:
        set_player(w, seat, replace(p, transports=p.transports - 1, on_stratos=p.on_stratos + 1))
    else:
        set_player(w, seat, replace(p, transports=p.transports - 1))
    w.pending = _PAD_PENDING[pad]
    if pad < 4:
        resource, cost = intel_cost(content, w, seat, pad)
        pay(w, seat, resource, cost)
        w.step = INTEL
    elif pad == PAD_STRATOLITES:
        w.step = STRATOLITE
    elif pad == PAD_RENEGADE:
        w.step = PAYMENT
    elif pad == PAD_ENFORCERS:
        w.step = BOUNTY
    elif pad == PAD_FIXER:
        if any(c != NOBODY for row in w.intel_row for c in row):
            w.step = FIXER_INTEL
        else:
            after_free_intel(w)
    else:
        w.step = TRADE


def meet_faction_intel(content: Content, w: Work, card: int) -> None:
    """cytress/meet-a-faction - the intel card onto its lifepath; then the crew on an empty
    hex of the faction met (the landing pad was open only if one is empty); a seat out of crews
    takes the card alone (rule: cytress/rules-to-remember)."""
    seat = w.actor
    take_intel(content, w, seat, card)
    faction = content.intel_faction[card]
    if start_crew(w, seat, faction):
        w.pending = pending(w.pending.pad, faction)
        w.step = CREW
    else:
        w.finish()
