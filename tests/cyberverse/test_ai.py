"""The greedy AI Organization and the face's explanations."""

from __future__ import annotations

import random

from games.core import CHANCE, TERMINAL, GameConfig
from games.core.face import as_facts
from games.cyberverse import CyberverseGame

GAME = CyberverseGame()


def test_greedy_plays_legal_moves_to_the_end() -> None:
    greedy = GAME.policies()["greedy"]
    s = GAME.new_state(GameConfig(players=2, options={"max_turns": 4}), 3)
    rng = random.Random(3)
    while GAME.current_player(s) != TERMINAL:
        if s.actor == CHANCE:
            a = GAME.sample_chance(s, rng)
        elif s.actor == 0:
            a = greedy(s, rng)
            assert a in GAME.legal_actions(s)
        else:
            a = rng.choice(list(GAME.legal_actions(s)))
        s = GAME.apply(s, a)
    assert len(GAME.returns(s)) == 2


def test_explain_gives_the_same_labels_for_every_move() -> None:
    s = GAME.new_state(GameConfig(players=2), 0)
    rng = random.Random(0)
    while s.phase != 2 or s.actor < 0:
        s = GAME.apply(s, GAME.sample_chance(s, rng) if s.actor == CHANCE else GAME.legal_actions(s)[0])
    labels = {tuple(f.label for f in as_facts(GAME.explain(s, a))) for a in GAME.legal_actions(s)}
    assert len(labels) == 1
    buy = next(a for a in GAME.legal_actions(s) if a.kind == "buy")
    money = next(f for f in as_facts(GAME.explain(s, buy)) if f.label == "resources change")
    assert money.value < 0
