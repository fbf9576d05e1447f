"""The undercity's landing pads on the Cytress district board: the enforcers, the fixer and the
merchant.

rule: cytress/meet-the-enforcers - take one available bounty card (the top of a faction's stack) and
resolve at most 1 of its 2 benefits: a crew onto a hex of the card's type (spying as usual), or pay
5 of the card's resource to move one of your crews on Stratos 1 level higher.
rule: cytress/meet-the-fixer - a free intel card from any faction board (no crew), reserve a
Stratolite (one at a time: the previous one is discarded), and the first player marker (effective
from the next phase; not in solo: cytress/solo-gameplay).
rule: cytress/meet-the-merchant - up to 2 trades, each any number of one resource along an arrow of
the board side (GLOW to AMMO, CREDS or TECH; never to GLOW), gaining the Rover ratio per resource.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.core.records import replace
from games.cytress.board import ascend, slide_stratolites
from games.cytress.content import Content
from games.cytress.crews import start_crew
from games.cytress.economy import gain, pay
from games.cytress.intel import face_up, take_intel
from games.cytress.state import (
    AMOUNT,
    BENEFIT,
    CREW,
    FIXER_RESERVE,
    GLOW,
    NOBODY,
    ROVER,
    TRADE,
    Icons,
    Player,
    pending,
)
from games.cytress.work import Pos, Work, put, set_player, set_rebel

__all__ = [
    "ASCEND_COST",
    "BENEFIT_ASCEND_1",
    "BENEFIT_ASCEND_2",
    "BENEFIT_CREW",
    "BENEFIT_NONE",
    "MERCHANT_TRADES",
    "amount",
    "benefit",
    "benefit_options",
    "bounty_options",
    "choose_trade",
    "free_intel",
    "reserve",
    "take_bounty",
    "trade_options",
]

ASCEND_COST = 5
"""rule: cytress/meet-the-enforcers - pay 5 resources to move a crew on Stratos 1 level higher."""
MERCHANT_TRADES = 2
"""rule: cytress/meet-the-merchant - up to 2 separate trades."""
BENEFIT_NONE, BENEFIT_CREW, BENEFIT_ASCEND_1, BENEFIT_ASCEND_2 = range(4)


# ---------------------------------------------------------------- the enforcers
def bounty_options(stacks: Sequence[tuple[int, ...]]) -> list[int]:
    """rule: cytress/meet-the-enforcers - the available bounty cards: each stack's top card."""
    return [s[0] for s in stacks if s]


def take_bounty(content: Content, w: Work, seat: int, card: int) -> None:
    """Take the bounty card; its benefit is the next decision."""
    f = content.bounties[card].faction
    stacks = w.bounty_stack
    w.bounty_stack = put(stacks, f, stacks[f][1:])
    rebel = w.rebels[seat]
    set_rebel(w, seat, replace(rebel, bounties=(*rebel.bounties, card)))
    w.pending = pending(w.pending.pad, card=card)
    w.step = BENEFIT


def benefit_options(content: Content, w: Pos, seat: int, card: int) -> list[int]:
    """rule: cytress/meet-the-enforcers - no benefit ("you do not need to take these benefits"),
    a crew onto an empty hex of the card's type, or an ascent from level 1 or 2 paid with 5 of the
    card's resource."""
    bounty = content.bounties[card]
    out = [BENEFIT_NONE]
    if start_crew(w, seat, bounty.hex):
        out.append(BENEFIT_CREW)
    if w.players[seat].resources[bounty.resource] >= ASCEND_COST:
        for level in (1, 2):
            if w.rebels[seat].stratos[level - 1]:
                out.append(BENEFIT_ASCEND_1 + level - 1)
    return out


def benefit(content: Content, w: Work, choice: int) -> None:
    """Resolve the chosen benefit."""
    seat, card = w.actor, w.pending.card
    bounty = content.bounties[card]
    if choice == BENEFIT_CREW:
        w.pending = pending(w.pending.pad, bounty.hex, card)
        w.step = CREW
        return
    if choice in (BENEFIT_ASCEND_1, BENEFIT_ASCEND_2):
        level = choice - BENEFIT_ASCEND_1 + 1
        pay(w, seat, bounty.resource, ASCEND_COST)
        ascend(w, seat, level)
    w.finish()


# ---------------------------------------------------------------- the fixer
def free_intel(content: Content, w: Work, card: int) -> None:
    """rule: cytress/meet-the-fixer - the free intel card onto its lifepath (no crew placed)."""
    take_intel(content, w, w.actor, card)
    after_free_intel(w)


def after_free_intel(w: Work) -> None:
    """The fixer's second step: reserve a Stratolite if one is on Stratos, else the marker."""
    if any(c != NOBODY for c in w.strat_row):
        w.step = FIXER_RESERVE
    else:
        take_marker(w)


def take_marker(w: Work) -> None:
    """rule: cytress/meet-the-fixer - take the first player marker (effective from the next phase;
    solo has no marker: the automa always goes first, cytress/solo-gameplay)."""
    if not w.solo:
        w.first = w.actor
    w.finish()


def reserve(w: Work, card: int) -> None:
    """rule: cytress/meet-the-fixer - reserve ``card`` from Stratos (-1: keep what you have); a
    previously reserved Stratolite goes to the discard pile. The row slides and refills as when a
    Stratolite is used (reading: cytress/meet-a-stratolite)."""
    if card != NOBODY:
        seat = w.actor
        player = w.players[seat]
        if player.reserved != NOBODY:
            w.strat_discard_().append(player.reserved)
        set_player(w, seat, replace(player, reserved=card))
        slide_stratolites(w, list(w.strat_row).index(card))
    take_marker(w)


def fixer_intel_options(rows: Sequence[tuple[int, ...]]) -> list[int]:
    """rule: cytress/meet-the-fixer - any available intel card of any faction board."""
    return face_up(rows)


# ---------------------------------------------------------------- the merchant
def trade_ratio(icons: Icons, resource: int) -> int:
    """rule: cytress/meet-the-merchant - a seat's trade ratio for gaining ``resource``: the
    ``resource`` icons on its Rover lifepath (every rebel starts with 1 CREDS, TECH and AMMO)."""
    return icons[ROVER][resource]


def trade_options(content: Content, market: int, player: Player) -> list[int]:
    """rule: cytress/meet-the-merchant - the trades (``give * 4 + get``) a seat holding ``player``
    can make: along the board side's arrows, or GLOW for AMMO, CREDS or TECH, with at least 1 to
    give."""
    pairs = list(content.market[market].arrows) + [(GLOW, r) for r in range(4) if r != GLOW]
    have = player.resources
    return sorted(4 * g + t for g, t in pairs if have[g] >= 1)


def choose_trade(w: Work, trade: int) -> None:
    """The trade chosen; how many is the next decision."""
    p = w.pending
    w.pending = pending(p.pad, trades=p.trades, trade=trade)
    w.step = AMOUNT


def amount(w: Work, count: int) -> None:
    """Give ``count`` and gain ``count`` times the Rover ratio of the resource gained (up to 25)."""
    p = w.pending
    seat = w.actor
    give, get = divmod(p.trade, 4)
    pay(w, seat, give, count)
    gain(w, seat, get, count * trade_ratio(w.players[seat].icons, get))
    trades = p.trades + 1
    if trades >= MERCHANT_TRADES:
        w.finish()
    else:
        w.pending = pending(p.pad, trades=trades)
        w.step = TRADE
