"""Story and Investigation cards: drawing a Story card, validating Missions, resolving a story.

rule: cyberverse/story-cards - a Story card requires 1 to 3 Investigation cards of different
colours, drawn from the matching decks; to draw a new Story card (or replace one, except the
starting card) the Organization draws 2, keeps one and puts the other at the bottom of the deck; a
validated Mission earns its Resources and an XP token placed next to it; once every Investigation
card is resolved the Story card is validated (turned over on the dashboard) and the clue tokens
are discarded; a discarded Story card loses its clue tokens too. Investigation cards cannot be
discarded.

Readings (docs/cyberverse.md): one Story card is in progress at a time (the dashboard has one slot
per colour); the replaced card goes under the Story deck face up (everyone saw it); the
Investigation cards of a replaced or resolved story go to their discard piles, which are shuffled
into a new deck when a deck is empty.
"""

from __future__ import annotations

from games.cyberverse import flow
from games.cyberverse.agents import XP_TOKENS, xp_in_play
from games.cyberverse.content import Content
from games.cyberverse.state import (
    C_CASE,
    C_STORY,
    D_KEEP_STORY,
    State,
)
from games.cyberverse.work import Work, remove_one, with_member

__all__ = ["can_draw", "can_replace", "keep", "on_case", "on_story", "start_draw", "validate"]

STORY_CHOICE = 2
"""rule: cyberverse/story-cards - draw 2 Story cards, keep one."""


def can_draw(s: State | Work, seat: int) -> bool:
    """Whether ``seat`` may draw a new Story card: none in progress and cards left in the deck."""
    decks = s.decks
    return s.orgs[seat].story < 0 and bool(decks.stories or decks.story_under)


def can_replace(s: State | Work, c: Content, seat: int) -> bool:
    """Whether ``seat`` may replace its Story card: one in progress that is not its starting card."""
    story = s.orgs[seat].story
    decks = s.decks
    return story >= 0 and c.stories[story].organisation < 0 and bool(decks.stories or decks.story_under)


def _drop_story(w: Work, c: Content, seat: int) -> None:
    """The story in progress leaves the dashboard: its Investigation cards go to their discard piles
    and its clue (XP) tokens back to the reserve."""
    org = w.orgs[seat]
    discards = [list(d) for d in w.decks.cases_discard]
    for card in org.cases:
        discards[c.investigations[card].colour].append(card)
    w.set_decks(cases_discard=tuple(tuple(sorted(d)) for d in discards))
    w.set_org(seat, story=-1, cases=(), done=(), spent=(), marks=())


def start_draw(w: Work, c: Content, seat: int, *, replace: bool) -> None:
    """Begin drawing a Story card for ``seat`` (replacing the one in progress if ``replace``)."""
    if replace:
        old = w.orgs[seat].story
        _drop_story(w, c, seat)
        w.set_decks(story_under=(*w.decks.story_under, old), story_knows=(*w.decks.story_knows, -1))
    w.set_ctx(seat=seat, cards=(), colours=())
    _draw_next(w, c)


def _draw_next(w: Work, c: Content) -> None:
    cards = w.ctx.cards
    decks = w.decks
    while len(cards) < STORY_CHOICE and (decks.stories or decks.story_under):
        if decks.stories:
            flow.chance(w, C_STORY)
            return
        card = decks.story_under[0]  # the shuffled part is empty: the cards put under come next
        w.set_decks(story_under=decks.story_under[1:], story_knows=decks.story_knows[1:])
        decks = w.decks
        cards = (*cards, card)
        w.set_ctx(cards=cards)
    if len(cards) == 1:
        keep(w, c, cards[0])
    else:
        flow.decide(w, D_KEEP_STORY, w.ctx.seat)


def on_story(w: Work, c: Content, card: int) -> None:
    """A Story card drawn for the choice."""
    w.set_decks(stories=remove_one(w.decks.stories, card))
    w.set_ctx(cards=(*w.ctx.cards, card))
    _draw_next(w, c)


def keep(w: Work, c: Content, card: int) -> None:
    """Keep ``card``; the other goes to the bottom of the deck (seen by the keeper only)."""
    seat = w.ctx.seat
    for other in w.ctx.cards:
        if other != card:
            w.set_decks(story_under=(*w.decks.story_under, other), story_knows=(*w.decks.story_knows, seat))
    w.set_org(seat, story=card, cases=(), done=(), spent=(), marks=())
    w.set_ctx(cards=(), colours=c.stories[card].requires)
    _draw_case(w, c)


def _draw_case(w: Work, c: Content) -> None:
    colours = w.ctx.colours
    while colours:
        col = colours[0]
        if not w.decks.cases[col]:
            pools = list(w.decks.cases)
            discards = list(w.decks.cases_discard)
            pools[col], discards[col] = discards[col], ()
            w.set_decks(cases=tuple(pools), cases_discard=tuple(discards))
        if w.decks.cases[col]:
            flow.chance(w, C_CASE)
            return
        colours = colours[1:]  # no card of that colour left anywhere: the story does without it
        w.set_ctx(colours=colours)
    seat = w.ctx.seat
    w.set_ctx(seat=-1)
    _check_story(w, c, seat)
    flow.resume(w, c)


def on_case(w: Work, c: Content, card: int) -> None:
    """An Investigation card drawn for the new story, placed face up on the dashboard."""
    seat = w.ctx.seat
    col = c.investigations[card].colour
    pools = list(w.decks.cases)
    pools[col] = remove_one(pools[col], card)
    w.set_decks(cases=tuple(pools))
    org = w.orgs[seat]
    w.set_org(
        seat,
        cases=(*org.cases, card),
        done=(*org.done, ()),
        spent=(*org.spent, ()),
        marks=(*org.marks, ()),
    )
    w.set_ctx(colours=w.ctx.colours[1:])
    _draw_case(w, c)


def validate(w: Work, c: Content, seat: int, case: int, mission: int) -> None:
    """A Mission is validated: its Resources, an XP token next to it, and the story resolved when
    every Investigation card is (rule: cyberverse/story-cards, cyberverse/investigation)."""
    org = w.orgs[seat]
    if mission in org.done[case]:
        return
    card = c.investigations[org.cases[case]]
    reward = card.missions[mission].reward
    done = list(org.done)
    done[case] = with_member(done[case], mission)
    marks = list(org.marks)
    spent = list(org.spent)
    if XP_TOKENS - xp_in_play(w) <= 0:  # no XP token left in the reserve: the Mission is only marked
        marks[case] = with_member(marks[case], mission)
        spent[case] = with_member(spent[case], mission)
    w.set_org(seat, money=org.money + reward, done=tuple(done), spent=tuple(spent), marks=tuple(marks))
    _check_story(w, c, seat)


def case_complete(c: Content, card: int, done: tuple[int, ...]) -> bool:
    """Whether every Mission of an Investigation card is validated (``done``: its validated ones)."""
    return done == tuple(range(len(c.investigations[card].missions)))


def _check_story(w: Work, c: Content, seat: int) -> None:
    org = w.orgs[seat]
    if org.story < 0 or not all(case_complete(c, k, d) for k, d in zip(org.cases, org.done, strict=True)):
        return
    story = org.story
    _drop_story(w, c, seat)
    org = w.orgs[seat]
    w.set_org(seat, solved=(*org.solved, story))
