"""Exact attack odds in the explanations: over the Combat tokens the attacker's Organization cannot
see, equal to a Monte Carlo over states drawn from its observation (rule: cyberverse/damage-table,
rule: cyberverse/combat-tokens)."""

from __future__ import annotations

import random

from games.core.face import as_facts
from games.cyberverse import CyberverseGame
from games.cyberverse.damage import attack_outcomes, strike
from games.cyberverse.hidden import UNKNOWN, observation
from games.cyberverse.state import AGENT, D_ATTACK, State
from tests.cyberverse.helpers import play_until

GAME = CyberverseGame()
C = GAME.content_pack


def _henchman_attack(s: State) -> bool:
    if s.step != D_ATTACK or s.fight is None:
        return False
    return any(a.kind == "attack" and s.fight.fighters[a.a].kind != AGENT for a in GAME.legal_actions(s))


def test_attack_odds_equal_a_monte_carlo_over_the_observation() -> None:
    """The distribution of Health lost by a Henchman target (whose token is one draw from the tokens
    not seen) matches 4,000 states sampled from the attacker's observation within 3 standard
    errors; the exact odds appear among the attack's facts."""
    s = play_until(GAME, 2, 11, _henchman_attack)
    assert s.fight is not None
    a = next(x for x in GAME.legal_actions(s) if x.kind == "attack" and s.fight.fighters[x.a].kind != AGENT)
    i, j = s.fight.queue[0], a.a
    obs = observation(s, s.actor)
    assert obs.fight is not None and obs.fight.fighters[j].token == UNKNOWN
    exact = attack_outcomes(obs, C, i, j, weapon=a.b, xp=a.c)
    assert abs(sum(exact.values()) - 1) < 1e-9
    hurt = sum(p for (hp, _), p in exact.items() if hp > 0)
    rng = random.Random(5)
    n, hits = 4000, 0
    for _ in range(n):
        world = GAME.sample_state(obs, s.actor, rng)
        assert world.fight is not None
        f, g = world.fight.fighters[i], world.fight.fighters[j]
        blow, _ = strike(world, C, i, j, a.b, xp=a.c, tokens=(f.token, g.token))
        hits += blow.health > 0
    se = max((hurt * (1 - hurt) / n) ** 0.5, 1e-3)
    assert abs(hits / n - hurt) <= 3 * se, (hits / n, hurt)
    facts = {f.label: f.value for f in as_facts(GAME.explain(s, a))}
    assert facts["chance to take Health points (exact)"] == round(hurt, 4)


def test_known_tokens_give_a_certain_answer() -> None:
    """With both tokens known the distribution is one outcome: the engine's own blow."""
    s = play_until(GAME, 2, 11, _henchman_attack)
    assert s.fight is not None
    a = next(x for x in GAME.legal_actions(s) if x.kind == "attack")
    i, j = s.fight.queue[0], a.a
    dist = attack_outcomes(s, C, i, j, weapon=a.b, xp=a.c)  # the referee's state: every token known
    f, g = s.fight.fighters[i], s.fight.fighters[j]
    blow, _ = strike(s, C, i, j, a.b, xp=a.c, tokens=(f.token, g.token))
    assert dist == {(blow.health, blow.status): 1.0}
