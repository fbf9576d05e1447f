"""CyberVerse solvers: exact odds against enumeration and Monte Carlo, CP-SAT against brute force."""

from __future__ import annotations

import random

import pytest

from games.core import GameConfig
from games.cyberverse import CyberverseGame
from games.cyberverse.modifiers import after_draw
from games.errors import ConfigError
from solver.core import SolveLimits, get_puzzle, get_scorer
from solver.cyberverse import (
    ActivationProblem,
    Side,
    brute_force_plan,
    chain_odds,
    combat_distribution,
    plan_value,
    single_test_odds,
    solve_plan,
)
from tests.cyberverse.helpers import play_until

GAME = CyberverseGame()
C = GAME.content_pack


def test_one_test_odds_by_enumeration() -> None:
    """rule: cyberverse/feature-test - success when Feature + card is above the threshold."""
    assert single_test_odds((-1, 0, 1, 1, 2), (), 2, 2) == pytest.approx(3 / 5)
    assert single_test_odds((-1, 0, 1, 1, 2), (), 2, 4) == 0.0
    assert single_test_odds((), (1, 2), 1, 2) == pytest.approx(1 / 2)  # an empty deck draws the discard


def _simulate(
    deck: tuple[int, ...],
    discard: tuple[int, ...],
    tests: list[tuple[int, int]],
    reshuffle: str,
    rng: random.Random,
) -> int:
    wins = 0
    for total, threshold in tests:
        pile = deck if deck else discard
        card = rng.choice(pile)
        ok = total + card > threshold
        deck, discard = after_draw(deck, discard, card, ok, reshuffle)
        wins += ok
    return wins


@pytest.mark.parametrize("reshuffle", ["success", "empty"])
def test_chain_odds_match_monte_carlo(reshuffle: str) -> None:
    """rule: cyberverse/investigation - the chain of tests drawn without replacement, the discard
    shuffled back after a success (variant) or when the deck is empty."""
    tests = [(2, 2), (1, 2), (3, 3), (2, 1), (0, 1), (2, 3), (1, 1)]
    dist = chain_odds((-1, 0, 1, 1, 2), (), tests, reshuffle)
    assert sum(dist) == pytest.approx(1.0)
    rng = random.Random(5)
    n = 20_000
    counts = [0] * (len(tests) + 1)
    for _ in range(n):
        counts[_simulate((-1, 0, 1, 1, 2), (), tests, reshuffle, rng)] += 1
    for k, p in enumerate(dist):
        assert abs(counts[k] / n - p) < 0.015


def test_chain_differs_by_reshuffle_rule() -> None:
    tests = [(1, 1), (1, 1), (1, 1)]
    assert chain_odds((-1, 0, 1, 1, 2), (), tests, "success") != chain_odds(
        (-1, 0, 1, 1, 2), (), tests, "empty"
    )


def test_combat_distribution_matches_monte_carlo() -> None:
    """rule: cyberverse/combat-tokens, cyberverse/damage-table - exact over the token draws."""
    from games.cyberverse.damage import attack
    from games.cyberverse.damage import keep_better as _keep

    pool = list(range(12))
    att = Side(combat=2, weapon_bonus=2, ranged=True, defense=0, agent=True)
    tgt = Side(combat=3, weapon_bonus=0, ranged=True, defense=1, agent=False)
    dist = combat_distribution(C, pool, att, tgt)
    assert sum(dist.values()) == pytest.approx(1.0)
    rng = random.Random(2)
    n = 20_000
    mc: dict[tuple[int, tuple[int, ...]], int] = {}
    for _ in range(n):
        draw = rng.sample(pool, 3)
        ta = _keep(C, (draw[0], draw[1]), "attack")
        a, d = C.combat_tokens[ta], C.combat_tokens[draw[2]]
        b = attack(
            combat=2,
            token_attack=a.attack,
            weapon_bonus=2,
            ranged_weapon=True,
            attacker_effect=a.effect,
            advantage=False,
            other_zone_reach=False,
            defense=1,
            token_defense=d.defense,
            defender_effect=d.effect,
            cover=False,
            target_is_agent=False,
        )
        mc[b.health, b.status] = mc.get((b.health, b.status), 0) + 1
    for key, p in dist.items():
        assert abs(mc.get(key, 0) / n - p) < 0.015


def _random_problem(rng: random.Random) -> ActivationProblem:
    n = rng.randint(1, 3)
    current = tuple(rng.choice([-1, 0, 1, 2, 3, 4]) for _ in range(n))
    reach = tuple(frozenset(d for d in range(5) if d != current[i] and rng.random() < 0.6) for i in range(n))
    clue = tuple(tuple(rng.choice([0, 0, 200, 400, 600, 1000]) for _ in range(5)) for _ in range(n))
    influence = tuple(rng.choice([0, 1000]) for _ in range(5))
    return ActivationProblem(
        tuple(f"agent {i}" for i in range(n)), current, reach, clue, influence, rng.randint(0, 3)
    )


def test_activation_plan_equals_brute_force_on_300_instances() -> None:
    """rule: cyberverse/activation-phase - 3 Actions; rule: cyberverse/moving-agents - reach."""
    rng = random.Random(11)
    limits = SolveLimits(time_limit_s=5.0, workers=1)
    for _ in range(300):
        p = _random_problem(rng)
        best, _ = brute_force_plan(p)
        value, plan, _ = solve_plan(p, limits)
        assert value == best
        assert plan_value(p, plan) == best


def test_puzzles_answer_on_a_game_state() -> None:
    s = play_until(GAME, 2, 4, lambda s: s.phase == 3 and s.actor >= 0)
    seat = s.actor
    _, fn = get_puzzle("cyberverse.feature_test")
    res = fn(GAME, s, {"total": 2, "threshold": 2, "seat": seat}, SolveLimits())
    assert 0 <= res.objective <= 1 and res.explanation
    org = s.orgs[seat]
    name = next(C.faces[2 * a.sheet + a.side].name for a in s.agents if a.org == seat)
    res = fn(
        GAME,
        s,
        {"investigation": C.investigations[org.cases[0]].id, "agent": name, "seat": seat},
        SolveLimits(),
    )
    assert sum(res.answer["distribution"]) == pytest.approx(1.0)
    _, fn = get_puzzle("cyberverse.activation_plan")
    res = fn(GAME, s, {}, SolveLimits(time_limit_s=2, workers=1))
    assert res.explanation
    _, fn = get_puzzle("cyberverse.combat")
    res = fn(GAME, s, {"attacker": name, "target": C.henchman_types[0]}, SolveLimits())
    assert sum(o["probability"] for o in res.answer["outcomes"]) == pytest.approx(1.0)
    report = get_scorer("cyberverse")(GAME, s)
    assert len(report.seats) == 2


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"total": "x"}, "params.total"),
        ({"threshold": float("nan")}, "params.threshold"),
        ({"bogus": 1}, "params.bogus"),
        ({"investigation": "Z99"}, "params.investigation"),
        ({"seat": 9}, "params.seat"),
    ],
)
def test_bad_params_name_the_field(params: dict[str, object], field: str) -> None:
    s = GAME.new_state(GameConfig(players=2), 0)
    _, fn = get_puzzle("cyberverse.feature_test")
    with pytest.raises(ConfigError) as err:
        fn(GAME, s, params, SolveLimits())
    assert err.value.field == field


def test_chain_odds_equal_enumeration_of_every_order() -> None:
    """rule: cyberverse/feature-test - draws without replacement; the odds equal the enumeration of
    every order of the shuffled deck (and of each reshuffle)."""
    from solver.cyberverse import chain_by_orders

    cases = [
        ((-1, 0, 1, 1, 2), (), [(2, 2)], "success"),
        ((-1, 0, 1, 1, 2), (), [(2, 2), (1, 2)], "success"),
        ((1, 2), (-1, 0, 1), [(1, 1), (1, 2), (0, 1)], "success"),
        ((-1, 0, 1, 1, 2), (), [(1, 1), (2, 3), (0, 0), (3, 3), (1, 2), (2, 2)], "empty"),
        ((0, 2), (-1, 1, 1), [(1, 1), (1, 2), (0, 1), (2, 2)], "empty"),
    ]
    for deck, discard, tests, rule in cases:
        exact = chain_odds(deck, discard, tests, rule)
        brute = chain_by_orders(deck, discard, tests, rule)
        assert exact == pytest.approx(brute, abs=1e-12)


def test_activation_plan_on_game_states_equals_brute_force() -> None:
    """rule: cyberverse/moving-agents - the plan built from real states (reach by Movement points
    and travel costs) is optimal: CP-SAT equals enumeration."""
    from solver.cyberverse import activation_problem

    for seed in range(4):
        s = play_until(GAME, 3, 20 + seed, lambda s: s.phase == 3 and s.actor >= 0 and s.turn >= 2)
        p = activation_problem(s, C, s.actor)
        best, _ = brute_force_plan(p)
        value, _, _ = solve_plan(p, SolveLimits(time_limit_s=5.0, workers=1))
        assert value == best


def test_combat_between_agents_matches_monte_carlo() -> None:
    """rule: cyberverse/combat - both Agents draw 2 Combat tokens and keep 1 (the attacker its best
    attack, the target its best defense); rule: cyberverse/status-tokens - Status on Agents."""
    from games.cyberverse.damage import attack
    from games.cyberverse.damage import keep_better as _keep

    pool = list(range(10))
    att = Side(combat=3, weapon_bonus=1, ranged=False, defense=0, agent=True, advantage=True)
    tgt = Side(combat=2, weapon_bonus=0, ranged=False, defense=1, agent=True, cover=True)
    dist = combat_distribution(C, pool, att, tgt)
    assert sum(dist.values()) == pytest.approx(1.0)
    rng = random.Random(4)
    n = 20_000
    mc: dict[tuple[int, tuple[int, ...]], int] = {}
    for _ in range(n):
        draw = rng.sample(pool, 4)
        a = C.combat_tokens[_keep(C, (draw[0], draw[1]), "attack")]
        d = C.combat_tokens[_keep(C, (draw[2], draw[3]), "defense")]
        b = attack(
            combat=3,
            token_attack=a.attack,
            weapon_bonus=1,
            ranged_weapon=False,
            attacker_effect=a.effect,
            advantage=True,
            other_zone_reach=False,
            defense=1,
            token_defense=d.defense,
            defender_effect=d.effect,
            cover=True,
            target_is_agent=True,
        )
        mc[b.health, b.status] = mc.get((b.health, b.status), 0) + 1
    for key, p in dist.items():
        assert abs(mc.get(key, 0) / n - p) < 0.015
