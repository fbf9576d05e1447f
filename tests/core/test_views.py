"""Who sees which move (games.core.views): per game, from its rulebook, what each move and draw
reveals and to whom (issue 27).

``seen_by`` decides it from the game's own observation (a viewer sees which move it was when its
view of the result tells it apart); these tests pin the outcome down per kind of move, as each
rulebook has it, over random games with every seat count.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from games.core import CHANCE, REFEREE, SPECTATOR, TERMINAL, GameConfig, get_game
from games.core.views import check_known, seen_by, seen_state, viewers_of
from games.errors import WrongSeatError

EVERYONE = "everyone"
ACTOR = "the seat that acts"
DRAWER = "the Organization it is drawn for"
NOBODY = "nobody"


def _cyberverse(game: Any, s: Any, action: Any) -> str:
    """rule: cyberverse/combat-tokens - 2 Combat tokens drawn per Agent, one kept face down, the
    other set aside: seen by that Agent's Organization alone; Henchmen and Teammates receive one
    face down (nobody sees it until it is revealed). rule: cyberverse/story-cards - the Organization
    draws 2 Story cards, keeps one in its slot, puts the other under the deck: the drawn pair is its
    own. Everything else is drawn face up: the Support and Agent rows (rule: cyberverse/setup),
    Event, Ambush, Brawl and Henchman cards, Modifier cards of a test (rule: cyberverse/feature-test),
    a Supply token shows its price side in the store and is revealed when bought
    (rule: cyberverse/supply-weapons)."""
    from games.cyberverse.state import C_FIGHTER_TOKEN, C_STORY, C_TOKEN, D_KEEP_STORY, D_KEEP_TOKEN

    if s.step == C_TOKEN:
        return DRAWER
    if s.step == C_FIGHTER_TOKEN:
        return NOBODY
    if s.step in (D_KEEP_TOKEN, D_KEEP_STORY):
        return ACTOR
    if s.step == C_STORY:
        return DRAWER
    return EVERYONE


def _ti4(game: Any, s: Any, action: Any) -> str:
    """rule: ti4/objectives - each player draws two secret objectives and keeps one, face down: the
    keeper alone sees which. rule: ti4/place-system-tiles - tiles are placed face up."""
    return ACTOR if action.kind == "keep" else EVERYONE


def _open(game: Any, s: Any, action: Any) -> str:
    """Every decision is made in the open and no draw is a move of its own (tiberpunk/stage-1-quests:
    the dice are rolled openly; a card drawn goes to a hand, hidden by the observation, not by the
    move; tiberius/card-phase, cytress/phase-3a-travel likewise)."""
    return EVERYONE


RULES: dict[str, Callable[[Any, Any, Any], str]] = {
    "cyberverse": _cyberverse,
    "ti4": _ti4,
    "tiberpunk": _open,
    "tiberius": _open,
    "cytress": _open,
}


def _expected(kind: str, game: Any, s: Any) -> set[int]:
    everyone = {REFEREE, *viewers_of(game, s)}
    player = game.current_player(s)
    if kind == EVERYONE:
        return everyone
    if kind == ACTOR:
        return {REFEREE, player}
    if kind == DRAWER:
        fight = s.fight
        seat = fight.fighters[fight.queue[0]].org if fight is not None and fight.queue else s.ctx.seat
        return {REFEREE, seat}
    return {REFEREE}


@pytest.mark.parametrize("name", sorted(RULES))
def test_what_each_move_reveals_and_to_whom(name: str) -> None:
    game = get_game(name)
    rng = random.Random(11)
    kinds: Counter[str] = Counter()
    for seed in range(4):
        players = [game.info.min_players, game.info.max_players, 3, 2][seed]
        players = min(game.info.max_players, max(game.info.min_players, players))
        s = game.new_state(GameConfig(players=players), seed)
        for _ in range(500 if name != "cyberverse" else 900):
            player = game.current_player(s)
            if player == TERMINAL:
                break
            a = game.sample_chance(s, rng) if player == CHANCE else rng.choice(list(game.legal_actions(s)))
            kind = RULES[name](game, s, a)
            seen = seen_by(game, s, a)
            if kind == EVERYONE or len({a2 for a2 in _distinct(game, s)}) > 1:
                assert seen == _expected(kind, game, s), (game.action_to_text(s, a), kind, seen)
            kinds[kind] += 1
            s = game.apply(s, a)
    assert kinds[EVERYONE] > 50
    if name == "cyberverse":
        assert kinds[DRAWER] and kinds[NOBODY] and kinds[ACTOR], kinds
    if name == "ti4":
        assert kinds[ACTOR], kinds


def _distinct(game: Any, s: Any) -> list[Any]:
    """The different results the moves of ``s`` lead to (one move alone reveals nothing)."""
    out: list[Any] = []
    moves = (
        [a for a, _ in game.chance_outcomes(s)] if game.current_player(s) == CHANCE else game.legal_actions(s)
    )
    for a in moves:
        r = game.apply(s, a)
        if r not in out:
            out.append(r)
    return out


@pytest.mark.parametrize("name", sorted(RULES))
def test_a_viewer_sees_its_view_and_nothing_else(name: str) -> None:
    """The face drawn for a viewer is drawn from its observation: two full states that look the same
    to the viewer describe and render the same (so no secret can show, whatever the game's face)."""
    game = get_game(name)
    rng = random.Random(5)
    s = game.new_state(GameConfig(players=min(game.info.max_players, max(game.info.min_players, 3))), 3)
    for _ in range(60):
        if game.current_player(s) == TERMINAL:
            break
        for viewer in viewers_of(game, s):
            shown = seen_state(game, s, viewer)
            assert game.observation(shown, viewer) == game.observation(s, viewer)
            other = game.sample_state(game.observation(s, viewer), viewer, random.Random(99))
            assert game.describe(seen_state(game, other, viewer), viewer) == game.describe(shown, viewer)
        player = game.current_player(s)
        s = game.apply(
            s, game.sample_chance(s, rng) if player == CHANCE else rng.choice(list(game.legal_actions(s)))
        )
    assert seen_state(game, s, REFEREE) is s


def test_a_view_that_hides_the_movers_tiles_says_so() -> None:
    """rule: ti4/deal-system-tiles - tiles are dealt face down: seat 0's view cannot list seat 1's
    placements (WrongSeatError naming the position and what it hides); seat 1's own view can."""
    game = get_game("ti4")
    rng = random.Random(2)
    s = game.new_state(GameConfig(players=3), 2)
    while not (game.current_player(s) == 1 and game.legal_actions(s)[0].kind == "place"):
        s = game.apply(s, rng.choice(list(game.legal_actions(s))))
    for viewer in (0, 2, SPECTATOR):
        with pytest.raises(WrongSeatError) as err:
            check_known(game, game.observation(s, viewer))
        assert err.value.field == "position" and "seat 1's system tiles" in err.value.message
    check_known(game, game.observation(s, 1))
    assert list(game.legal_actions(game.observation(s, 1))) == list(game.legal_actions(s))
