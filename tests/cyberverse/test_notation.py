"""CyberVerse notation names cards as they are printed: by name, with an id only where two cards of
the pack share a name; the older notation with every card's id is still read (rule:
cyberverse/strategy-phase, rule: cyberverse/investigation)."""

from __future__ import annotations

import random
import re

from games.core import CHANCE, TERMINAL, GameConfig
from games.cyberverse import CyberverseGame
from games.cyberverse.notation import action_to_text

GAME = CyberverseGame()
C = GAME.content_pack
ID = re.compile(r"\b[A-Z]\d\d\b")


def test_cards_by_name_ids_only_for_twins_and_old_texts_still_read() -> None:
    unique = {x.id for pile in (C.support, C.events, C.stories, C.investigations) for x in pile}
    seen = 0
    for seed in range(3):
        rng = random.Random(seed)
        s = GAME.new_state(GameConfig(players=2, options={"max_turns": 4}), seed)
        while GAME.current_player(s) != TERMINAL:
            legal = list(GAME.legal_actions(s))
            for a in legal:
                text = GAME.action_to_text(s, a)
                assert not set(ID.findall(text)) & unique, text  # no id where the name is unique
                old = action_to_text(s, C, a, ids=True)
                if old != text:
                    seen += 1
                    assert GAME.parse_action(s, old) == a, old
            a = GAME.sample_chance(s, rng) if s.actor == CHANCE else rng.choice(legal)
            s = GAME.apply(s, a)
    assert seen > 0


def test_twins_keep_their_id() -> None:
    twins = [t for t in C.tokens if sum(1 for u in C.tokens if u.name == t.name) > 1]
    assert twins  # the pack has several Hand Guns: their texts must differ
    from games.cyberverse.notation import _card

    assert _card(twins[0], C.tokens, False) == f"{twins[0].name} ({twins[0].id})"
    solo = next(u for u in C.support)
    assert _card(solo, C.support, False) == solo.name
