"""The Event phase and the Event cards in play.

rule: cyberverse/event-phase - the first player moves the Event cards on the News track up one
rank, then draws an Event card and places it on the track according to its time value; a card
already on that spot is discarded. The card's negative effect holds while it is in play, except
for an Organization that placed a Staff token on it (one per Organization per card), which also
earns its reward. Its district icons place Henchmen, once, when the card comes into play (at most
3 Henchmen in a district).

Readings (docs/cyberverse.md): the card in slot 1 leaves the track when the cards move up; the
Henchmen of an event are drawn from the Henchman deck and placed like a Brawl card's; Staff tokens
come back to their Organization when their card leaves the track.
"""

from __future__ import annotations

from games.cyberverse import flow
from games.cyberverse.board import board_of, henchman_zone, occupancy
from games.cyberverse.content import CATEGORIES, EVENT_EFFECTS, Content, EventCard
from games.cyberverse.state import (
    C_EVENT,
    C_HENCHMAN,
    State,
)
from games.cyberverse.work import Work, insert_sorted, remove_one

__all__ = [
    "STAFF_TOKENS",
    "active_effects",
    "begin",
    "has_effect",
    "inflation",
    "on_event",
    "on_henchman",
    "staff_left",
    "tolls",
]

STAFF_TOKENS = 4
"""cyberverse/components - 16 Staff tokens, 4 per Organization."""

_NONE, TOLL, BLACKOUT, LOCKDOWN, SCRUTINY, INFLATION, STRIKE = range(len(EVENT_EFFECTS))


def active_effects(state: State | Work, c: Content, seat: int) -> list[tuple[int, int, int]]:
    """The negative effects in play for ``seat``: (effect, district, category) of every Event card on
    the News track without ``seat``'s Staff token (rule: cyberverse/event-phase)."""
    return [(ev.effect, ev.district, ev.category) for ev in _in_play(state, c, seat) if ev.effect]


def _in_play(state: State | Work, c: Content, seat: int) -> list[EventCard]:
    """The Event cards on the News track whose negative effect holds for ``seat`` (no Staff token of
    its own on them)."""
    city = state.city
    return [
        c.events[card] for slot, card in enumerate(city.news) if card >= 0 and seat not in city.staff[slot]
    ]


def has_effect(state: State | Work, c: Content, seat: int, effect: int, district: int = -1) -> int:
    """How many Event cards in play put ``effect`` (on ``district``, if given) on ``seat``."""
    n = 0
    for ev in _in_play(state, c, seat):
        if ev.effect == effect and (district < 0 or ev.district == district):
            n += 1
    return n


def tolls(state: State | Work, c: Content, seat: int) -> list[int]:
    """Per district, the ``toll`` Event cards in play on it for ``seat``."""
    out = [0] * 5
    for ev in _in_play(state, c, seat):
        if ev.effect == TOLL and 0 <= ev.district < 5:
            out[ev.district] += 1
    return out


def inflation(state: State | Work, c: Content, seat: int) -> list[int]:
    """Per store, the ``inflation`` Event cards in play on it for ``seat``."""
    out = [0] * len(CATEGORIES)
    for ev in _in_play(state, c, seat):
        if ev.effect == INFLATION and 0 <= ev.category < len(out):
            out[ev.category] += 1
    return out


def staff_left(state: State | Work, seat: int) -> int:
    """Staff tokens an Organization still has in hand."""
    return STAFF_TOKENS - sum(1 for seats in state.city.staff if seat in seats)


def _leave(w: Work, slot: int) -> None:
    """The card in ``slot`` leaves the track: discarded; its Staff tokens come back."""
    card = w.city.news[slot]
    if card < 0:
        return
    w.set_decks(events_discard=insert_sorted(w.decks.events_discard, card))
    news = list(w.city.news)
    staff = list(w.city.staff)
    news[slot] = -1
    staff[slot] = ()
    w.set_city(news=tuple(news), staff=tuple(staff))


def begin(w: Work, c: Content) -> None:
    """rule: cyberverse/event-phase - move the cards up one rank, then draw a card."""
    _leave(w, 0)
    news = w.city.news
    staff = w.city.staff
    w.set_city(news=(*news[1:], -1), staff=(*staff[1:], ()))
    if not w.decks.events:  # the deck is empty: its discard pile is shuffled into a new deck
        w.set_decks(events=w.decks.events_discard, events_discard=())
    if not w.decks.events:
        flow.finish(w, c)
        return
    flow.chance(w, C_EVENT)


def on_event(w: Work, c: Content, card: int) -> None:
    """The drawn Event card goes on the slot of its time value (rule: cyberverse/event-phase)."""
    w.set_decks(events=remove_one(w.decks.events, card))
    ev = c.events[card]
    slot = ev.time - 1
    _leave(w, slot)
    news = list(w.city.news)
    news[slot] = card
    w.set_city(news=tuple(news))
    queue = tuple(d for d in range(5) if ev.henchmen[d])
    w.set_ctx(queue=queue, cards=(card,), store=ev.henchmen[queue[0]] if queue else 0, slot=0)
    _place_next(w, c)


def _place_next(w: Work, c: Content) -> None:
    """Draw the next Henchman of the event for the first district of the queue, if there is room."""
    ctx = w.ctx
    ev = c.events[ctx.cards[0]]
    queue, left, k = ctx.queue, ctx.store, ctx.slot
    while queue:
        d = queue[0]
        if left > 0:
            zones, total, hench, _ = occupancy(w, c, d)
            if henchman_zone(board_of(w, c, d), zones, total, hench, k) >= 0:
                if not w.decks.henchmen:  # an empty deck: its discard pile is shuffled in
                    w.set_decks(henchmen=w.decks.henchmen_discard, henchmen_discard=())
                if w.decks.henchmen:
                    w.set_ctx(queue=queue, store=left, slot=k, district=d)
                    flow.chance(w, C_HENCHMAN)
                    return
        queue = queue[1:]
        left = ev.henchmen[queue[0]] if queue else 0
        k = 0
    w.set_ctx(queue=(), cards=(), store=-1, slot=-1, district=-1)
    flow.finish(w, c)


def on_henchman(w: Work, c: Content, card: int) -> None:
    """A Henchman card drawn for an event: its miniature is placed on the district board."""
    d = w.ctx.queue[0]
    w.set_decks(henchmen=remove_one(w.decks.henchmen, card))
    zones, total, hench, _ = occupancy(w, c, d)
    zone = henchman_zone(board_of(w, c, d), zones, total, hench, w.ctx.slot)
    hs = list(w.city.henchmen)
    hs[d] = (*hs[d], (card, zone))
    w.set_city(henchmen=tuple(hs))
    w.set_ctx(store=w.ctx.store - 1, slot=w.ctx.slot + 1)
    _place_next(w, c)
