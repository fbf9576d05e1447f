"""Waste tubes: meeting a Stratolite or the Renegade, dropping a tube and ascending a crew, and the
game-end trigger.

rule: cytress/meet-a-stratolite - choose one of the 5 Stratolites on Stratos or your reserved one;
pay its resource for the height, drop on a hex of its type where you have a crew; the card is
discarded (from the row: the cards to its left slide right and the leftmost slot is refilled,
reshuffling the discard pile when the deck is empty). The transport stays on Stratos (extra
travel: cytress/phase-3b-extra-travel).
rule: cytress/meet-the-renegade - pay in any 1 type of resource, drop on any hex with your crew.
rule: cytress/waste-tubes - 5, 11 or 18 resources (less the Hooligang discount of that resource)
for a tube 1, 2 or 3 sections high; the crew on that hex ascends to that level of Stratos.
cytress/game-end-trigger - when the allocated sections run out the box's are used, and this
is the final round.
cytress/solo-setup - solo: "Place 14 tube sections near Stratos. Keep the others in the box":
tubes are built from those 14 only (the ``solo_tubes`` variant ``box`` builds on from the box).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress

from games.core.records import replace, replace_at
from games.cytress.board import TUBE_COST, slide_stratolites
from games.cytress.content import Content, MapView
from games.cytress.economy import cost_after_discount, pay
from games.cytress.state import HEIGHT, HOOLIGANG, NOBODY, TUBE, Player, pending
from games.cytress.work import Pos, Work, set_player, set_rebel

__all__ = [
    "buildable",
    "can_meet_renegade",
    "choose_height",
    "choose_payment",
    "choose_stratolite",
    "drop_tube",
    "finish_tube",
    "heights",
    "renegade_resources",
    "stratolites_open",
    "tube_hexes",
]


def buildable(w: Pos) -> int:
    """cytress/game-end-trigger - the tube sections a tube may still be built from: the
    allocated ones near Stratos, then (2-5 players) the box's "as needed until the end of the
    round"; solo (cytress/solo-setup) the 14 near Stratos only, unless the ``solo_tubes``
    variant is ``box``."""
    return w.tubes_left + w.tubes_box if w.box_tubes else w.tubes_left


def heights(player: Player, resource: int, sections: int) -> list[int]:
    """rule: cytress/waste-tubes - the tube heights the seat can pay in ``resource`` (after its
    Hooligang discount) with enough tube sections left (``sections``: ``buildable``)."""
    have, icons = player.resources[resource], player.icons
    return [
        h for h in (1, 2, 3) if h <= sections and cost_after_discount(icons, resource, TUBE_COST[h]) <= have
    ]


def tube_hexes(view: MapView, crew: Sequence[int], seat: int, colour: int) -> list[int]:
    """cytress/rules-to-remember - players may only drop tubes on a hex holding their own
    crew; a Stratolite's on its hex type (``colour``), the Renegade's anywhere (-1)."""
    hexes = view.by_faction[colour] if colour >= 0 else range(len(crew))
    return [h for h in hexes if crew[h] == seat]


def stratolites_open(content: Content, w: Pos, seat: int, payable: Sequence[int] | None = None) -> list[int]:
    """rule: cytress/meet-a-stratolite - the Stratolites (the row's left to right, then the
    reserved one) the seat can complete a meeting with: a crew on a hex of the card's type and a
    height it can pay for ("you must be able to complete the action in full"). ``payable``: the
    seat's ``renegade_resources`` if the caller has them."""
    if buildable(w) <= 0:
        return []
    # a tube can be paid in a resource iff a 1-high one can (costs rise with the height)
    if payable is None:
        payable = renegade_resources(w.players[seat])
    if not payable:
        return []
    stratolites = content.stratolites
    mine: set[int] | None = None
    out = []
    for card in (*w.strat_row, w.players[seat].reserved):
        if card == NOBODY:
            continue
        st = stratolites[card]
        if st.resource not in payable:
            continue
        if mine is None:  # the factions of the hexes holding the seat's crews
            mine = set(compress(w.map.faction, map(seat.__eq__, w.crew)))
        if st.hex in mine:
            out.append(card)
    return out


def renegade_resources(player: Player) -> list[int]:
    """rule: cytress/meet-the-renegade - the resources the seat can pay at least a 1-high tube
    in (after the Hooligang discount: ``cost_after_discount``, inlined; a resource is never
    below 0, so the discount's floor at 0 changes nothing here)."""
    mine, discounts, cost = player.resources, player.icons[HOOLIGANG], TUBE_COST[1]
    return [r for r in range(4) if cost - discounts[r] <= mine[r]]


def can_meet_renegade(crew: Sequence[int], player: Player, seat: int, sections: int) -> bool:
    """rule: cytress/meet-the-renegade - a crew of ``seat`` (holding ``player``) on the mini-map, a
    section left and a payable 1-high tube in some resource."""
    return sections >= 1 and seat in crew and bool(renegade_resources(player))


def choose_stratolite(content: Content, w: Work, card: int) -> None:
    """The Stratolite chosen: its hex type and resource fix the tube's."""
    st = content.stratolites[card]
    w.pending = pending(w.pending.pad, st.hex, card, st.resource)
    w.step = HEIGHT


def choose_payment(w: Work, resource: int) -> None:
    """rule: cytress/meet-the-renegade - any 1 type of resource pays; any hex with a crew."""
    w.pending = pending(w.pending.pad, -1, -1, resource)
    w.step = HEIGHT


def choose_height(w: Work, height: int) -> None:
    """rule: cytress/waste-tubes - pay the height's cost (less the Hooligang discount)."""
    p = w.pending
    icons = w.players[w.actor].icons
    pay(w, w.actor, p.resource, cost_after_discount(icons, p.resource, TUBE_COST[height]))
    w.pending = pending(p.pad, p.colour, p.card, p.resource, height)
    w.step = TUBE


def drop_tube(w: Work, owner: int, h: int, height: int) -> None:
    """rule: cytress/waste-tubes - a ``height``-section tube on hex ``h``; the crew there ascends to
    that level of Stratos. cytress/game-end-trigger - sections come from the allocated
    supply, then from the box; the last allocated section triggers the final round (not in solo:
    cytress/solo-game-end)."""
    w.tube_()[h] = height
    w.crew_()[h] = NOBODY
    rebel = w.rebels[owner]
    levels = rebel.stratos
    set_rebel(w, owner, replace(rebel, stratos=replace_at(levels, height - 1, levels[height - 1] + 1)))
    take = min(w.tubes_left, height)
    if take:
        w.tubes_left -= take
        if w.tubes_left == 0 and not w.solo:
            w.end_triggered = True
    w.tubes_box -= height - take


def finish_tube(content: Content, w: Work, h: int) -> None:
    """Drop the paid tube on ``h``; a Stratolite card used is discarded (from the row: slide and
    refill; rule: cytress/meet-a-stratolite)."""
    p = w.pending
    seat = w.actor
    drop_tube(w, seat, h, p.height)
    card = p.card
    if card != NOBODY:
        w.strat_discard_().append(card)
        player = w.players[seat]
        if player.reserved == card:
            set_player(w, seat, replace(player, reserved=NOBODY))
        else:
            slide_stratolites(w, list(w.strat_row).index(card))
    w.finish()
