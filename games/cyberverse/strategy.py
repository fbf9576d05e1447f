"""The Strategy phase: the stores, repairs, Support cards, training and drawing a Story card.

rule: cyberverse/strategy-phase - from the wealthiest to the least fortunate, Organizations buy
Supply tokens, repair broken Cyber-Implants at half price, take 1 Support card for free among the
ones available, train an Agent (healed of 1, earns 1 XP token, not activated in the next
Activation phase, no salary at the end of the turn). Each store shows 3 tokens cost side up; after
each purchase a new token of the same type is drawn into the store; a bought token goes on a free
slot of an Agent's dashboard; resold tokens go under their store's stack.
cyberverse/supply-weapons, supply-cyber-implants, supply-gear, supply-vehicles - the four
stores; a Cyber-Implant cannot be resold; a grilled or broken token is flipped over.
cyberverse/support-cards - at most 3 Support cards, and no more than the team's Reputation;
in the Strategy phase one may be discarded to take a new one.
cyberverse/story-cards - drawing a new Story card is an Action of the Strategy phase.

Readings (docs/cyberverse.md): a token's identity is hidden until bought (only its back - price and
EXPERT icon - shows), so buying reveals it by chance among the tokens with that back; a training
Agent stays where it stands (variant ``training``); one Support card may be taken per Strategy
phase; repairing costs half the price rounded down to the hundred, as resale does; any flipped
token (a broken Weapon, a grilled Implant) may be repaired; each Organization plays all its
Strategy actions, then ``done``.
"""

from __future__ import annotations

from games.cyberverse import flow, stories
from games.cyberverse.agents import XP_TOKENS, heal, support_limit, xp_in_play
from games.cyberverse.content import IMPLANT, SUPPORT_EFFECTS, Content
from games.cyberverse.events import STRIKE, has_effect, inflation
from games.cyberverse.state import (
    C_RESTOCK,
    C_REVEAL,
    C_SUPPORT_ROW,
    D_STRATEGY,
    Action,
    State,
    act,
)
from games.cyberverse.work import Work, insert_sorted, remove_one

__all__ = [
    "STOCK",
    "begin",
    "legal",
    "on_restock",
    "on_reveal",
    "on_support_row",
    "perform",
    "price",
    "resale_value",
    "resume",
]

STOCK = 3
"""cyberverse/building-new-eden - 3 Supply tokens in each store's available stock."""
INFLATION_D = 100
"""Authored: an ``inflation`` Event card adds 100 D to the store's prices."""
_DISCOUNT = SUPPORT_EFFECTS.index("discount")


def slot_price(c: Content, value: int) -> int:
    """The printed price of a stock slot's token (known token or back)."""
    if value >= 0:
        return c.tokens[value].price
    return c.backs[-2 - value][1]


def price(state: State | Work, c: Content, seat: int, store: int, printed: int) -> int:
    """What ``seat`` pays for a token of ``store`` printed at ``printed`` D: plus Event inflation,
    less its Support cards' discounts (authored effects), never below 0."""
    return max(0, printed + price_shift(state, c, seat, store))


def price_shift(state: State | Work, c: Content, seat: int, store: int) -> int:
    """D added to (or taken off) the printed prices of ``store`` for ``seat`` (:func:`price_shifts`)."""
    return price_shifts(state, c, seat)[store]


def price_shifts(state: State | Work, c: Content, seat: int) -> list[int]:
    """Per store, D added to (or taken off) its printed prices for ``seat``."""
    shifts = [INFLATION_D * n for n in inflation(state, c, seat)]
    for u in state.orgs[seat].support:
        card = c.support[u]
        if card.effect == _DISCOUNT and 0 <= card.category < len(shifts):
            shifts[card.category] -= card.value
    return shifts


def resale_value(c: Content, token: int) -> int:
    """rule: cyberverse/strategy-phase - half the price, rounded down to the nearest hundred."""
    return c.tokens[token].price // 2 // 100 * 100


def begin(w: Work, c: Content) -> None:
    """rule: cyberverse/strategy-phase - the Organizations in order of play, richest first."""
    w.set_ctx(queue=w.order)
    resume(w, c)


def resume(w: Work, c: Content) -> None:
    """The Organization at the head of the queue decides (or the phase ends)."""
    if not w.ctx.queue:
        flow.finish(w, c)
        return
    flow.decide(w, D_STRATEGY, w.ctx.queue[0])


def legal(s: State, c: Content) -> list[Action]:
    """The Strategy actions of the Organization to decide."""
    seat = s.ctx.queue[0]
    org = s.orgs[seat]
    money = org.money
    mine = [a for a in s.agents if a.org == seat]
    out: list[Action] = []
    slots = c.equipment_slots
    buyers = [a.sheet for a in mine if len(a.kit) < slots]
    if buyers:
        tokens = c.tokens
        backs = c.backs
        shifts = price_shifts(s, c, seat)
        for store, stock in enumerate(s.market.stock):
            for slot, v in enumerate(stock):
                if v == -1:
                    continue
                printed = tokens[v].price if v >= 0 else backs[-2 - v][1]  # slot_price, inline
                if max(0, printed + shifts[store]) > money:  # price(), the shifts found once
                    continue
                for sheet in buyers:
                    out.append(act("buy", store, slot, sheet))
    for a in mine:
        for t in a.broken:
            if resale_value(c, t) <= money:
                out.append(act("repair", a.sheet, t))
    if not org.took_support and s.market.support_row and not has_effect(s, c, seat, STRIKE):
        room = len(org.support) < support_limit(s, c, seat)
        for card in s.market.support_row:
            if room:
                out.append(act("support", card, -1))
            out.extend([act("support", card, held) for held in org.support])
    out.extend([act("train", a.sheet) for a in mine if not a.trained])
    if stories.can_draw(s, seat):
        out.append(act("story"))
    if s.options.resale == "always":
        out.extend(resell_actions(s, c, seat))
    out.append(act("done"))
    return out


def resell_actions(s: State | Work, c: Content, seat: int) -> list[Action]:
    """Reselling a Supply token (not a Cyber-Implant) of one of ``seat``'s Agents."""
    return [
        act("resell", a.sheet, t)
        for a in s.agents
        if a.org == seat
        for t in a.kit
        if c.tokens[t].category != IMPLANT
    ]


def resell(w: Work, c: Content, sheet: int, token: int) -> None:
    """rule: cyberverse/strategy-phase - half the price to the Organization; the token goes under
    its store's stack."""
    agent = w.agent(sheet)
    w.set_agent(sheet, kit=remove_one(agent.kit, token), broken=tuple(t for t in agent.broken if t != token))
    org = w.orgs[agent.org]
    w.set_org(agent.org, money=org.money + resale_value(c, token))
    under = list(w.market.under)
    cat = c.tokens[token].category
    under[cat] = (*under[cat], token)
    w.set_market(under=tuple(under))


def perform(w: Work, c: Content, a: Action) -> None:
    """Apply a Strategy action (validated by the caller)."""
    seat = w.ctx.queue[0]
    kind = a.kind
    if kind == "done":
        w.set_ctx(queue=w.ctx.queue[1:])
        resume(w, c)
    elif kind == "buy":
        _buy(w, c, seat, a.a, a.b, sheet=a.c)
    elif kind == "repair":
        org = w.orgs[seat]
        w.set_org(seat, money=org.money - resale_value(c, a.b))
        agent = w.agent(a.a)
        w.set_agent(a.a, broken=remove_one(agent.broken, a.b))
        resume(w, c)
    elif kind == "support":
        _take_support(w, c, seat, a.a, a.b)
    elif kind == "train":
        _train(w, c, a.a)
        resume(w, c)
    elif kind == "story":
        stories.start_draw(w, c, seat, replace=False)
    elif kind == "resell":
        resell(w, c, a.a, a.b)
        resume(w, c)


def _train(w: Work, c: Content, sheet: int) -> None:
    """rule: cyberverse/strategy-phase - "When an Agent goes for training, they are healed of 1
    point of damage and earn 1 XP token. They cannot be activated in the next Activation phase":
    the Agent stays where it stands (variant ``training="headquarters"``: back to its HQ)."""
    agent = w.agent(sheet)
    health, status = heal(c, agent, 1)
    xp = agent.xp + (1 if XP_TOKENS - xp_in_play(w) > 0 else 0)
    if w.options.training == "headquarters":
        w.set_agent(sheet, health=health, status=status, xp=xp, district=-1, zone=-1, spot=-1, trained=True)
    else:
        w.set_agent(sheet, health=health, status=status, xp=xp, trained=True)


def _buy(w: Work, c: Content, seat: int, store: int, slot: int, *, sheet: int) -> None:
    value = w.market.stock[store][slot]
    org = w.orgs[seat]
    w.set_org(seat, money=org.money - price(w, c, seat, store, slot_price(c, value)))
    w.set_ctx(store=store, slot=slot, agent=sheet)
    if value >= 0:
        _give(w, c, value)
    else:
        flow.chance(w, C_REVEAL)


def on_reveal(w: Work, c: Content, token: int) -> None:
    """The bought token is turned over: it is ``token``."""
    stacks = list(w.market.stack)
    stacks[w.ctx.store] = remove_one(stacks[w.ctx.store], token)
    w.set_market(stack=tuple(stacks))
    _give(w, c, token)


def _give(w: Work, c: Content, token: int) -> None:
    sheet = w.ctx.agent
    agent = w.agent(sheet)
    w.set_agent(sheet, kit=insert_sorted(agent.kit, token))
    store, slot = w.ctx.store, w.ctx.slot
    stock = list(w.market.stock)
    row = list(stock[store])
    row[slot] = -1
    stock[store] = tuple(row)
    w.set_market(stock=tuple(stock))
    w.set_ctx(agent=-1)
    if restock(w, c, store, slot):
        return
    w.set_ctx(store=-1, slot=-1)
    resume(w, c)


def restock_weights(state: State | Work, c: Content, store: int) -> dict[int, int]:
    """Per back, the face-down tokens of the stack (not yet in the stock) that show it."""
    counts: dict[int, int] = {}
    stack = state.market.stack[store]
    if not stack:
        return counts
    tokens = c.tokens
    for t in stack:
        b = tokens[t].back
        counts[b] = counts.get(b, 0) + 1
    for v in state.market.stock[store]:
        if v <= -2:
            counts[-2 - v] -= 1
    return {b: n for b, n in counts.items() if n > 0}


def restock(w: Work, c: Content, store: int, slot: int) -> bool:
    """A new token of the same type is drawn into the store (rule: cyberverse/strategy-phase).

    Returns True when a chance draw is pending. The face-down stack first; when it is empty the
    resold tokens under it, in order; else the slot stays empty.
    """
    if restock_weights(w, c, store):
        w.set_ctx(store=store, slot=slot)
        flow.chance(w, C_RESTOCK)
        return True
    under = w.market.under[store]
    value = -1
    if under:
        value = under[0]
        unders = list(w.market.under)
        unders[store] = under[1:]
        w.set_market(under=tuple(unders))
    stock = list(w.market.stock)
    row = list(stock[store])
    row[slot] = value
    stock[store] = tuple(row)
    w.set_market(stock=tuple(stock))
    return False


def on_restock(w: Work, c: Content, back: int) -> None:
    """A token showing ``back`` fills the empty slot."""
    store, slot = w.ctx.store, w.ctx.slot
    stock = list(w.market.stock)
    row = list(stock[store])
    row[slot] = -2 - back
    stock[store] = tuple(row)
    w.set_market(stock=tuple(stock))
    w.set_ctx(store=-1, slot=-1)
    resume(w, c)


def _take_support(w: Work, c: Content, seat: int, card: int, discard: int) -> None:
    org = w.orgs[seat]
    support = org.support
    if discard >= 0:
        support = tuple(u for u in support if u != discard)
        w.set_market(support_discard=insert_sorted(w.market.support_discard, discard))
    w.set_org(seat, support=(*support, card), took_support=True)
    w.set_market(support_row=tuple(u for u in w.market.support_row if u != card))
    if refill_support(w):
        return
    resume(w, c)


def refill_support(w: Work) -> bool:
    """Draw a Support card into the row (True: a chance draw is pending)."""
    if not w.market.support_pool and w.market.support_discard:
        w.set_market(support_pool=w.market.support_discard, support_discard=())
    if w.market.support_pool and len(w.market.support_row) < STOCK:
        flow.chance(w, C_SUPPORT_ROW)
        return True
    return False


def on_support_row(w: Work, c: Content, card: int) -> None:
    """A Support card drawn into the row."""
    w.set_market(
        support_pool=remove_one(w.market.support_pool, card), support_row=(*w.market.support_row, card)
    )
    flow.resume(w, c)
