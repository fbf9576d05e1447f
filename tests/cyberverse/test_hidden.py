"""Hidden information: face-down Combat tokens and the Story card put under the deck."""

from __future__ import annotations

import random

from games.core import CHANCE, REFEREE, SPECTATOR
from games.core.views import seen_by
from games.cyberverse import CyberverseGame
from games.cyberverse.hidden import UNKNOWN
from games.cyberverse.state import (
    C_FIGHTER_TOKEN,
    C_TOKEN,
    D_KEEP_STORY,
    D_KEEP_TOKEN,
    act,
)
from games.cyberverse.work import Work
from tests.cyberverse.helpers import play_until

GAME = CyberverseGame()


def test_kept_combat_token_is_face_down_to_the_others() -> None:
    """rule: cyberverse/combat - the token kept is placed face down; rule: cyberverse/combat-tokens -
    revealed when its miniature attacks or is attacked."""
    s = play_until(
        GAME,
        2,
        8,
        lambda s: (
            s.fight is not None
            and any(f.token >= 0 and not f.shown and f.kind == 0 for f in s.fight.fighters)
            and s.actor >= 0
        ),
    )
    assert s.fight is not None
    f = next(f for f in s.fight.fighters if f.token >= 0 and not f.shown and f.kind == 0)
    mine = GAME.observation(s, f.org)
    other = GAME.observation(s, 1 - f.org)
    assert any(g.token == f.token for g in mine.fight.fighters)  # type: ignore[union-attr]
    assert all(g.token == UNKNOWN for g in other.fight.fighters if g.ref == f.ref and g.kind == 0)  # type: ignore[union-attr]
    # the unknown token is pooled: the observer can deduce only the multiset
    assert sorted(other.decks.tokens) != sorted(s.decks.tokens)
    rng = random.Random(0)
    for _ in range(5):
        sampled = GAME.sample_state(other, 1 - f.org, rng)
        assert GAME.observation(sampled, 1 - f.org) == other


def test_secret_draws_are_hidden_in_the_log() -> None:
    s = play_until(GAME, 2, 8, lambda s: s.step in (C_TOKEN, D_KEEP_TOKEN, C_FIGHTER_TOKEN))
    a = GAME.legal_actions(s)[0]
    assert "face down" in GAME.log_line(s, a, SPECTATOR)
    assert "face down" not in GAME.log_line(s, a, REFEREE)
    assert SPECTATOR not in seen_by(GAME, s, a)


def test_story_card_under_the_deck_seen_by_its_drawer_only() -> None:
    """rule: cyberverse/story-cards - two drawn, one kept, the other to the bottom of the deck; an
    Organization without a Story card draws one as an Auxiliary Action."""
    s = play_until(GAME, 3, 1, lambda s: s.phase == 4 and s.actor >= 0)
    w = Work(s)
    who = s.actor
    w.set_org(who, story=-1, cases=(), done=(), spent=(), marks=())
    s = w.freeze()
    s = GAME.apply(s, act("story", 0))
    rng = random.Random(3)
    while s.actor == CHANCE:
        s = GAME.apply(s, GAME.sample_chance(s, rng))
    assert s.step == D_KEEP_STORY and s.actor == who
    kept = GAME.legal_actions(s)[0]
    s = GAME.apply(s, kept)
    while s.actor == CHANCE:
        s = GAME.apply(s, GAME.sample_chance(s, rng))
    assert s.orgs[who].story == kept.a and len(s.orgs[who].cases) == len(
        GAME.content_pack.stories[kept.a].requires
    )
    k = s.decks.story_knows.index(who)
    assert GAME.observation(s, who).decks.story_under[k] == s.decks.story_under[k]
    other = (who + 1) % 3
    assert GAME.observation(s, other).decks.story_under[k] == UNKNOWN


def test_explain_depends_only_on_the_movers_observation() -> None:
    s = play_until(
        GAME,
        2,
        8,
        lambda s: (
            s.fight is not None
            and s.actor >= 0
            and any(f.token >= 0 and not f.shown for f in s.fight.fighters)
        ),
    )
    rng = random.Random(1)
    other = GAME.sample_state(GAME.observation(s, s.actor), s.actor, rng)
    for a in GAME.legal_actions(s)[:6]:
        assert GAME.explain(s, a) == GAME.explain(other, a)
