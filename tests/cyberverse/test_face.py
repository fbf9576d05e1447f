"""The face of CyberVerse as a person reads it: describe names every component (stores, Support
card row, districts, News track, Story card, Modifier deck), hides what the rulebook hides, and
explain gives each candidate its own facts (Features, prices, missions, odds)."""

from __future__ import annotations

import re
from functools import cache

import pytest

from games.core import SPECTATOR, GameConfig
from games.core.face import as_facts
from games.cyberverse import CyberverseGame
from games.cyberverse.state import (
    ACTIVATION,
    D_CHOOSE_AGENT,
    D_MOVE,
    STRATEGY,
    State,
)
from tests.cyberverse.helpers import play_until

GAME = CyberverseGame()
C = GAME.content_pack


@cache
def _strategy() -> State:
    return play_until(GAME, 2, 3, lambda s: s.phase == STRATEGY and s.actor >= 0 and s.turn >= 2)


@cache
def _moving() -> State:
    return play_until(GAME, 2, 3, lambda s: s.phase == ACTIVATION and s.step == D_MOVE and s.turn >= 2)


def _sentences(s: State) -> list[tuple[str, ...]]:
    return [tuple(f.sentence() for f in as_facts(GAME.explain(s, a))) for a in GAME.legal_actions(s)]


def test_setup_shows_the_agent_sheets_in_words() -> None:
    """rule: cyberverse/order-of-play - the first Organization chooses an Agent from the 14 sheets
    and a side; rule: cyberverse/agent-sheets - Features, health and salary of each side."""
    s = GAME.new_state(GameConfig(players=2), 3)
    assert s.step == D_CHOOSE_AGENT
    text = GAME.describe(s, 0).to_text(80)
    assert "Movement Analysis Hacking Reputation Combat Health Salary" in text
    for face in C.faces:
        assert face.name in text
    assert all(len(line) <= 80 for line in text.splitlines())


def test_organisation_is_in_words() -> None:
    """rule: cyberverse/setup - 900 D, the Modifier deck -1 0 1 1 2, the starting Story card and its
    Investigation cards; no bare number lists ("influence 0 0 0 0 0") and no "HQ" label."""
    s = GAME.new_state(GameConfig(players=2), 3)
    text = GAME.describe(s, 0).to_text(100)
    assert "900 D" in text
    assert "Modifier deck  5 to draw (-1, +0, +1, +1, +2), order unknown" in text
    assert "Story card" in text and "missions done on" in text
    assert not re.search(r"\b\d \d \d \d \d\b", text)
    assert "  HQ  " not in text


def test_strategy_phase_shows_stores_support_row_and_new_eden() -> None:
    """rule: cyberverse/building-new-eden - 3 tokens per store, cost side up; the Support card row;
    rule: cyberverse/strategy-phase - what can be bought, by slot."""
    s = _strategy()
    d = GAME.describe(s, s.actor)
    titles = [x.title for x in d.sections]
    assert titles[0].startswith(C.organisations[s.actor].name)  # the viewer's HQ first
    text = d.to_text(100)
    for store in ("Weapons", "Cyber-implants", "Gear", "Vehicles"):
        assert re.search(rf"^  {store}\s+1: ", text, re.M), store
    for card in s.market.support_row:
        assert C.support[card].name in text
    for name in C.district_names:
        assert name in text
    assert "News track" in text


def test_explain_agent_choice_differs_per_candidate() -> None:
    """rule: cyberverse/agent-sheets - each side's Features, initiative, salary and skill are the
    reasons: no two candidates read the same."""
    s = GAME.new_state(GameConfig(players=2), 3)
    rows = _sentences(s)
    assert len(set(rows)) == len(rows)
    texts = [GAME.action_to_text(s, a) for a in GAME.legal_actions(s)]
    steele = rows[texts.index("choose agent Marcus Steele")]
    assert "Combat 4" in steele and "salary 200 D a turn" in steele
    assert all(any(x.startswith("salary ") for x in row) for row in rows)


def test_explain_strategy_and_moves_differ_per_candidate() -> None:
    """rule: cyberverse/strategy-phase - a purchase says its price, the tokens it may be and who
    gets it; rule: cyberverse/moving-agents - a move says the open Missions there and the odds."""
    for s in (_strategy(), _moving()):
        rows = _sentences(s)
        assert len(set(rows)) == len(rows), rows
    buys = [r for r in _sentences(_strategy()) if any(x.startswith("costs ") and "from slot" in x for x in r)]
    assert buys and all(any("kit places left" in x for x in r) for r in buys)
    labels = {
        tuple(f.label for f in as_facts(GAME.explain(_strategy(), a)))
        for a in GAME.legal_actions(_strategy())
    }
    assert len(labels) == 1  # one fact, the cost, on every strategy move: hints compare like with like
    moves = _sentences(_moving())
    assert any(any("open missions of your story there" in x for x in r) for r in moves)


def test_face_down_combat_tokens_stay_secret() -> None:
    """rule: cyberverse/combat - the Combat token an Organization keeps is placed face down: its
    owner reads its attack and defense, the other seats and spectators read "a face-down combat
    token"."""
    s = play_until(
        GAME,
        2,
        11,
        lambda s: (
            s.fight is not None
            and any(f.token >= 0 and not f.shown and f.kind == 0 for f in s.fight.fighters)
        ),
    )
    assert s.fight is not None
    f = next(f for f in s.fight.fighters if f.token >= 0 and not f.shown and f.kind == 0)
    mine = GAME.describe(s, f.org).to_text(120)
    assert "face down" in mine
    for viewer in (1 - f.org, SPECTATOR):
        other = GAME.describe(s, viewer).to_text(120)
        assert "a face-down combat token" in other


@pytest.mark.parametrize("players", [2, 4])
def test_describe_depends_only_on_the_observation(players: int) -> None:
    """rule: cyberverse/combat - face-down Combat tokens are hidden; every seat's view is a
    function of what it may see (check_game's face check, on a few states with a fight)."""
    import random

    from games.cyberverse.hidden import observation, sample_state

    s = play_until(GAME, players, 11, lambda s: s.fight is not None and s.actor >= 0)
    rng = random.Random(0)
    for seat in range(players):
        sampled = sample_state(observation(s, seat), seat, rng)
        assert GAME.describe(sampled, seat) == GAME.describe(s, seat)


def test_picture_names_what_it_shows() -> None:
    """rule: cyberverse/new-eden-board - the district boards with their zones, walls, entry zones
    and tactical and hacking positions: the picture's legend names each mark, influence and
    miniatures are written with full names."""
    s = _moving()
    svg = GAME.render(s, s.actor)
    for word in ("advantageous position", "covered position", "hacking position", "entry zone", "wall"):
        assert word in svg
    assert "influence: " + C.organisations[0].name + " " in svg
    assert "movement points between districts" in svg


def test_combat_tokens_drawn_shown_to_their_owner_only() -> None:
    """rule: cyberverse/combat-tokens - the Organization draws 2 Combat tokens for its Agent and
    keeps one face down: it reads both (attack, defense, effect); the other seats read neither."""
    from games.cyberverse.state import D_KEEP_TOKEN

    s = play_until(GAME, 2, 7, lambda s: s.step == D_KEEP_TOKEN and s.actor >= 0)
    mine = GAME.describe(s, s.actor)
    assert any(x.title.startswith("Combat tokens drawn") for x in mine.sections)
    other = GAME.describe(s, 1 - s.actor)
    assert not any(x.title.startswith("Combat tokens drawn") for x in other.sections)


def test_every_decision_explains_each_candidate_differently() -> None:
    """rule: cyberverse/combat, cyberverse/strategy-phase, cyberverse/activation-phase - over a
    seeded game, no two candidates of a decision read the same reasons (teammates, targets,
    zones, purchases, moves)."""
    import random

    from games.core import CHANCE, TERMINAL

    for seed in (4, 5):
        s = GAME.new_state(GameConfig(players=3), seed)
        rng = random.Random(seed)
        for _ in range(2000):
            if GAME.current_player(s) == TERMINAL:
                break
            legal = list(GAME.legal_actions(s))
            if s.actor >= 0 and len(legal) > 1:
                rows = [tuple(f.sentence() for f in as_facts(GAME.explain(s, a))) for a in legal[:12]]
                assert len(set(rows)) == len(rows), [GAME.action_to_text(s, a) for a in legal[:12]]
            s = GAME.apply(s, GAME.sample_chance(s, rng) if s.actor == CHANCE else rng.choice(legal))


def test_headline_tells_the_turn_cap() -> None:
    """rule: cyberverse/end-of-game - the game ends by stories or domination; with the opt-in
    ``max_turns`` variant it also ends after that turn, and the headline says so; without it (the
    default), only the turn is shown."""
    capped = GAME.new_state(GameConfig(players=2, options={"max_turns": 12}), 1)
    assert GAME.describe(capped, 0).headline.startswith("CyberVerse, turn 1 of at most 12: ")
    free = GAME.new_state(GameConfig(players=2), 1)
    assert GAME.describe(free, 0).headline.startswith("CyberVerse, turn 1: ")
