"""Hidden information: what a seat may see, and states drawn consistent with it.

rule: cyberverse/combat - each Organization draws 2 Combat tokens per Agent and places the one it
keeps face down (the other is discarded unseen by the others); Henchmen and Teammates receive one
face down; a token is revealed when its miniature attacks or is attacked.
rule: cyberverse/story-cards - drawing 2 Story cards, the Organization keeps one and puts the other
at the bottom of the deck (seen by it alone).

Everything else is public: decks have no fixed order (a draw is a chance node over the cards
left), the Modifier discard pile is face up (so the deck's cards are known), the stores show their
tokens' backs. An observation is a :class:`State` whose hidden cards read ``UNKNOWN``; the cards
they may be are pooled with the deck they came from (the Combat token pool, the Story deck), so a
seat's observation holds exactly the multiset it could deduce.
"""

from __future__ import annotations

import random

from games.core.records import replace
from games.cyberverse.state import (
    AGENT,
    C_STORY,
    D_KEEP_STORY,
    State,
)

__all__ = ["UNKNOWN", "hides", "observation", "sample_state"]

UNKNOWN = -2
"""A card or token the observing seat cannot see."""


def _token_hidden(f_kind: int, f_org: int, shown: bool, seat: int) -> bool:
    return not shown and not (f_kind == AGENT and f_org == seat)


def observation(s: State, seat: int) -> State:
    """``s`` as ``seat`` sees it (hidden cards ``UNKNOWN``, pooled with their deck)."""
    tokens = list(s.decks.tokens)
    stories = list(s.decks.stories)
    fight = s.fight
    changed = False
    if fight is not None:
        fighters = list(fight.fighters)
        for i, f in enumerate(fighters):
            if f.token >= 0 and _token_hidden(f.kind, f.org, f.shown, seat):
                tokens.append(f.token)
                fighters[i] = replace(f, token=UNKNOWN)
        pair = fight.pair
        if pair and fight.queue and fight.fighters[fight.queue[0]].org != seat:
            tokens.extend(t for t in pair if t != UNKNOWN)
            pair = (UNKNOWN,) * len(pair)
        aside = []
        for org, t in fight.aside:
            if org >= 0 and org != seat:
                if t != UNKNOWN:
                    tokens.append(t)
                aside.append((org, UNKNOWN))
            else:
                aside.append((org, t))
        fight = replace(fight, fighters=tuple(fighters), pair=pair, aside=tuple(aside))
        changed = True
    under = list(s.decks.story_under)
    for i, (card, knows) in enumerate(zip(s.decks.story_under, s.decks.story_knows, strict=True)):
        if knows not in (-1, seat) and card != UNKNOWN:
            stories.append(card)
            under[i] = UNKNOWN
    ctx = s.ctx
    if s.step in (D_KEEP_STORY, C_STORY) and ctx.seat != seat and ctx.cards:
        stories.extend(card for card in ctx.cards if card != UNKNOWN)
        ctx = replace(ctx, cards=(UNKNOWN,) * len(ctx.cards))
    if not changed and len(stories) == len(s.decks.stories) and ctx is s.ctx:
        return s
    decks = replace(
        s.decks, tokens=tuple(sorted(tokens)), stories=tuple(sorted(stories)), story_under=tuple(under)
    )
    return replace(s, fight=fight, decks=decks, ctx=ctx)


def hides(s: State, seat: int) -> str:
    """What of ``seat``'s own secrets ``s`` (another seat's view) does not show: the Combat tokens
    its Organization drew or keeps, the Story cards it drew or put under the deck ("" when none)."""
    missing = []
    fight = s.fight
    if fight is not None:
        mine = fight.queue and fight.fighters[fight.queue[0]].org == seat
        if (
            any(f.token == UNKNOWN and f.kind == AGENT and f.org == seat for f in fight.fighters)
            or (mine and UNKNOWN in fight.pair)
            or (seat, UNKNOWN) in fight.aside
        ):
            missing.append("its Combat tokens")
    own_story = s.step in (D_KEEP_STORY, C_STORY) and s.ctx.seat == seat and UNKNOWN in s.ctx.cards
    decks = s.decks
    under = any(c == UNKNOWN and k == seat for c, k in zip(decks.story_under, decks.story_knows, strict=True))
    if own_story or under:
        missing.append("the Story cards it drew")
    return " and ".join(missing)


def sample_state(obs: State, seat: int, rng: random.Random) -> State:
    """A full state with ``seat``'s observation ``obs``: the unknown cards drawn from their pools."""
    pool = list(obs.decks.tokens)
    rng.shuffle(pool)
    fight = obs.fight
    if fight is not None:
        fighters = list(fight.fighters)
        for i, f in enumerate(fighters):
            if f.token == UNKNOWN:
                fighters[i] = replace(f, token=pool.pop())
        pair = tuple(pool.pop() if t == UNKNOWN else t for t in fight.pair)
        aside = tuple((org, pool.pop() if t == UNKNOWN else t) for org, t in fight.aside)
        fight = replace(fight, fighters=tuple(fighters), pair=pair, aside=aside)
    stories = list(obs.decks.stories)
    rng.shuffle(stories)
    under = tuple(stories.pop() if card == UNKNOWN else card for card in obs.decks.story_under)
    ctx = obs.ctx
    if any(card == UNKNOWN for card in ctx.cards):
        ctx = replace(ctx, cards=tuple(stories.pop() if card == UNKNOWN else card for card in ctx.cards))
    decks = replace(obs.decks, tokens=tuple(sorted(pool)), stories=tuple(sorted(stories)), story_under=under)
    return replace(obs, fight=fight, decks=decks, ctx=ctx)
