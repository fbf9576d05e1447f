"""CyberVerse on the Game protocol: check_game for every player count, setup, properties."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.core import CHANCE, TERMINAL, GameConfig, check_game
from games.cyberverse import CyberverseGame, engine
from games.cyberverse.engine import STARTING_MONEY, STORIES_TO_WIN
from games.cyberverse.state import D_CHOOSE_AGENT, SETUP
from games.errors import ConfigError, IllegalActionError, InvalidStateError

GAME = CyberverseGame()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_check_game_every_player_count(players: int) -> None:
    # 6 turns (every phase, Payday and the turn order several times) keep the test within seconds
    report = check_game(GAME, players=players, seeds=range(1), options={"max_turns": 6})
    assert report.games == 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_playouts_end_quickly(players: int) -> None:
    # uniformly random play spends its money and resolves few stories: it needs the opt-in cap to
    # end (greedy games end by the rulebook: test_end.py)
    report = check_game(GAME, players=players, seeds=range(3), options={"max_turns": 12}, thorough=False)
    assert report.games == 3


def test_setup() -> None:
    """rule: cyberverse/setup - 900 D, Modifier deck -1 0 1 1 2, the starting Story card with one
    Investigation card of each colour; rule: cyberverse/building-new-eden - 3 tokens per store,
    3 Support cards in the row; rule: cyberverse/components - the counts the rulebook prints."""
    s = GAME.new_state(GameConfig(players=3), 7)
    c = GAME.content_pack
    assert s.phase == SETUP and s.step == D_CHOOSE_AGENT and s.actor == 0
    for seat, org in enumerate(s.orgs):
        assert org.money == STARTING_MONEY
        assert sorted(org.deck) == [-1, 0, 1, 1, 2] and org.discard == ()
        assert org.story == c.organisations[seat].starting_story
        assert sorted(c.investigations[k].colour for k in org.cases) == [0, 1, 2]
    assert all(len(stock) == 3 and all(v <= -2 for v in stock) for stock in s.market.stock)
    assert len(s.market.support_row) == 3
    assert len(c.faces) == 28 and len(c.events) == 45 and len(c.stories) == 40 and len(c.investigations) == 60


def test_order_of_play_first_turn() -> None:
    """rule: cyberverse/order-of-play - each Organization chooses an Agent in turn, the last to
    choose begins the first turn."""
    s = GAME.new_state(GameConfig(players=3), 1)
    rng = random.Random(0)
    seen = []
    while s.phase == SETUP:
        if s.actor >= 0:
            seen.append(s.actor)
            s = GAME.apply(s, rng.choice(list(GAME.legal_actions(s))))
        else:
            s = GAME.apply(s, GAME.sample_chance(s, rng))
    assert seen == [0, 1, 2]
    assert s.order[0] == 2
    assert len(s.market.agent_row) == 3


def test_stories_to_win() -> None:
    """rule: cyberverse/end-of-game - 6, 5, 4 Story cards for 2, 3, 4 players."""
    assert STORIES_TO_WIN == {2: 6, 3: 5, 4: 4}


def test_bad_config_rejected() -> None:
    with pytest.raises(ConfigError) as err:
        GAME.new_state(GameConfig(players=5), 0)
    assert err.value.field == "config.players"
    with pytest.raises(ConfigError) as err:
        GAME.new_state(GameConfig(players=2, options={"reshuffle": "never"}), 0)
    assert err.value.field == "config.options.reshuffle"


def test_illegal_action_rejected() -> None:
    s = GAME.new_state(GameConfig(players=2), 0)
    from games.cyberverse.state import act

    with pytest.raises(IllegalActionError):
        GAME.apply(s, act("recruit", 99, 0))


def test_from_dict_names_the_bad_field() -> None:
    s = GAME.new_state(GameConfig(players=2), 0)
    data = GAME.to_dict(s)
    data["orgs"][1]["money"] = -5
    with pytest.raises(InvalidStateError) as err:
        GAME.from_dict(data)
    assert err.value.field == "state.orgs[1].money"
    data = GAME.to_dict(s)
    data["orgs"][0]["influence"] = [0, 0, 0, 0, 4]
    with pytest.raises(InvalidStateError) as err:
        GAME.from_dict(data)
    assert err.value.field == "state.orgs[0].influence[4]"


def _walk(seed: int, steps: int, players: int = 4):  # type: ignore[no-untyped-def]
    s = GAME.new_state(GameConfig(players=players), seed)
    rng = random.Random(seed)
    out = [s]
    for _ in range(steps):
        if GAME.current_player(s) == TERMINAL:
            break
        a = GAME.sample_chance(s, rng) if s.actor == CHANCE else rng.choice(list(GAME.legal_actions(s)))
        s = GAME.apply(s, a)
        out.append(s)
    return out


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), steps=st.integers(0, 600))
def test_invariants_hold_in_random_play(seed: int, steps: int) -> None:
    """Money never negative; Features within 5 and Reputation within 3 (rule:
    cyberverse/increasing-features, cyberverse/agent-sheets); at most 3 Agents and 3 Support
    cards (rule: cyberverse/support-cards); the Modifier cards conserved (rule: cyberverse/feature-test);
    at most 3 Influence tokens per district (rule: cyberverse/influence)."""
    from games.cyberverse.agents import feature

    c = GAME.content_pack
    for s in _walk(seed, steps):
        for seat, org in enumerate(s.orgs):
            assert org.money >= 0
            assert sorted(org.deck + org.discard) == [-1, 0, 1, 1, 2]
            assert len(org.support) <= 3
            assert all(0 <= x <= 3 for x in org.influence)
            assert len([a for a in s.agents if a.org == seat]) <= 3
        for a in s.agents:
            for f in range(5):
                assert 0 <= feature(c, a, f) <= (3 if f == 3 else 5)
            assert len(a.kit) <= c.equipment_slots
        # combat tokens conserved
        held = [t for t in s.decks.tokens]
        if s.fight is not None:
            held += [f.token for f in s.fight.fighters if f.token >= 0]
            held += [t for _, t in s.fight.aside] + list(s.fight.pair)
        assert sorted(held) == list(range(len(c.combat_tokens)))
    last = _walk(seed, steps)[-1]
    assert GAME.from_dict(json.loads(json.dumps(GAME.to_dict(last)))) == last


VARIANT_OPTIONS = {
    "reshuffle": "empty",
    "dead_agents": "removed",
    "forced_actions": False,
    "influence_bonus": False,
    "domination": "sole",
    "rescue_clears": True,
    "resale": "always",
    "starting_agent": "random",
    "max_turns": 6,
    "hire_cost": 200,
    "boards": "random",
    "tests": "one-per-agent",
    "training": "headquarters",
    "henchmen_moves": "shortest",
}


def test_variant_options_are_the_non_defaults() -> None:
    assert sorted(VARIANT_OPTIONS) == sorted(v.name for v in GAME.info.variants)
    for v in GAME.info.variants:
        assert VARIANT_OPTIONS[v.name] != v.default


@pytest.mark.parametrize("name", sorted(VARIANT_OPTIONS))
def test_every_variant_plays(name: str) -> None:
    """Each variant (docs/cyberverse.md, readings) plays seeded random games to the end (random
    play needs the opt-in turn cap to end)."""
    options = {"max_turns": 6, name: VARIANT_OPTIONS[name]}
    report = check_game(GAME, players=3, seeds=range(2), options=options, thorough=False)
    assert report.games == 2


def test_all_variants_together_thorough() -> None:
    report = check_game(GAME, players=2, seeds=range(1), options=VARIANT_OPTIONS)
    assert report.games == 1


def test_turn_cap_is_a_variant_and_the_rulebook_end_holds_without_it() -> None:
    """rule: cyberverse/end-of-game - the game ends by story count or domination; ``max_turns`` is
    an opt-in variant (default 0: off) that ends it after that turn."""
    game = CyberverseGame()
    assert next(v for v in game.info.variants if v.name == "max_turns").default == 0
    for cap in (3, 0):
        s = game.new_state(GameConfig(players=2, options={"max_turns": cap}), 5)
        rng = random.Random(5)
        while game.current_player(s) != TERMINAL and s.turn <= 14:
            a = game.sample_chance(s, rng) if s.actor == CHANCE else rng.choice(list(game.legal_actions(s)))
            s = game.apply_trusted(s, a)
        goal = STORIES_TO_WIN[2]
        ended_by_rule = any(len(o.solved) >= goal for o in s.orgs) or any(
            engine.dominates(s, p, s.options.domination) for p in range(2)
        )
        if cap:
            assert game.current_player(s) == TERMINAL and (s.turn == cap or ended_by_rule)
        else:
            assert s.turn > 12 or ended_by_rule
