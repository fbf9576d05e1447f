"""The greedy AI Organization and the face's explanations."""

from __future__ import annotations

import random

from games.core import CHANCE, TERMINAL, GameConfig
from games.core.face import as_facts
from games.cyberverse import CyberverseGame
from games.cyberverse.state import State
from tests.cyberverse.helpers import play_until

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


def _play_to_turn(players: int, turn: int, seed: int) -> State:
    s = GAME.new_state(GameConfig(players=players), seed)
    rng = random.Random(seed)
    while GAME.current_player(s) != TERMINAL and s.turn < turn:
        acts = None if s.actor == CHANCE else GAME.legal_actions(s)
        s = GAME.apply_trusted(s, GAME.sample_chance(s, rng) if acts is None else rng.choice(list(acts)))
    return s


def test_heuristic_is_a_win_chance_per_seat() -> None:
    """The fitted win model gives each seat a probability; they sum to 1 (rule: cyberverse/end-of-game)."""
    for players in (2, 3, 4):
        s = _play_to_turn(players, 3, players)
        chances = GAME.heuristic(s)
        assert len(chances) == players
        assert all(0.0 < p < 1.0 for p in chances)
        assert abs(sum(chances) - 1.0) < 1e-9


def test_heuristic_favours_victory_points_more_as_the_end_nears() -> None:
    """rule: cyberverse/influence - an Organization with more Influence tokens (1 VP each and the
    majorities) is likelier to win, and its edge counts for more near the end (rule:
    cyberverse/end-of-game: every Organization one Story card short of the 4 that end a 4-player
    game) than at the start."""
    from games.core.records import replace

    base = _play_to_turn(4, 1, 5)
    orgs = list(base.orgs)
    orgs = [replace(o, influence=(0, 0, 0, 0, 0), solved=(), money=900) for o in orgs]
    orgs[2] = replace(orgs[2], influence=(1, 1, 0, 0, 0))
    early = replace(base, orgs=tuple(orgs), turn=1)
    late = replace(early, orgs=tuple(replace(o, solved=(10, 11, 12)) for o in orgs), turn=12)
    for s in (early, late):
        chances = GAME.heuristic(s)
        assert max(chances) == chances[2]
    assert GAME.heuristic(late)[2] > GAME.heuristic(early)[2]


def test_greedy_values_drawing_a_story_card() -> None:
    """rule: cyberverse/story-cards - an Organization with no Story card in progress may draw one as a
    Strategy action; the greedy value counts the card being drawn as held (the draw is a chance step,
    so without this the one-step lookahead never saw what the Action buys and never drew)."""
    from games.core.records import replace
    from games.cyberverse.policies import value
    from games.cyberverse.state import D_STRATEGY, act

    game = CyberverseGame()
    c = game.content_pack
    s = play_until(game, 2, 400, lambda s: s.step == D_STRATEGY)
    seat = s.actor
    orgs = list(s.orgs)  # its story resolved: no Story card in progress
    orgs[seat] = replace(orgs[seat], story=-1, cases=(), done=(), spent=(), marks=())
    s = replace(s, orgs=tuple(orgs))
    assert act("story") in game.legal_actions(s)
    after = game.apply(s, act("story"))
    assert after.orgs[seat].story < 0 and game.current_player(after) == -1  # the draw: a chance step
    assert value(after, c, seat) == value(s, c, seat) + 6.0
