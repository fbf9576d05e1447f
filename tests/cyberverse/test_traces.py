"""Seeded playout traces fixed before the engine's speed rewrite: the same seeds must give the same
action sequences, the same legal-action lists and the same final scores (behaviour unchanged).

Each trace is a digest (SHA-256) of every step's legal actions (or chance outcomes with their
chances) and the action taken, with the number of steps, the final returns and a digest of the
final public form. Regenerate with ``python -m tests.cyberverse.test_traces`` only when a rule
deliberately changes.

The ``full-`` traces (``play_full``: every position's public form, log lines, views, heuristic,
prior, explanations, descriptions and the score report; no turn cap in most) were recorded before
the move to the one state idiom (issue 32) and held through it.

History: the records were first made before the engine's speed rewrite (commit 3b4b9d4) and held
through it (commit 594691a, where the new Support card decision was taken as the old engine did);
they were made again when the Henchmen's target became a decision (rule: cyberverse/combat), and
again when a Henchman's Projection, Multiple shot and Adrenalin became the decisions of the
Organization playing it (rule: cyberverse/combat-tokens; 2 of the 12 games changed: 3-1-random,
2-9-greedy), and again when its way to the target became a decision where two zones lead on a
shortest way (rule: cyberverse/henchmen; 7 of the 12 changed), and again when, in range, taking
its zone's tactical position became one too (rule: cyberverse/tactical-positions; 5 of the 12
changed), so from here they prove later rewrites keep the rules' behaviour. When the flow of the turn
(``ctx``) took words in the public form, only the 12 final-form digests changed (the action digests,
step counts and returns held). Made again for issue 28 (all 12 changed): the re-authored content
pack 2.0, the readings made literal (an Agent tests each open Mission of its district, a trained
Agent stays, the rescue fee leaves the Status tokens, Henchmen move freely, a dead Agent goes under
the stack, a red Mission validated by standing alone), the Stealth holder's move, the grill
decision and the greedy player's new value.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest

from games.core import CHANCE, TERMINAL, GameConfig
from games.cyberverse import CyberverseGame
from games.cyberverse.policies import value
from solver.core import get_scorer

TRACES = Path(__file__).with_name("traces.json")
CASES = [
    *[(2 + k % 3, k, "random") for k in range(9)],
    (2, 9, "greedy"),
    (3, 10, "greedy"),
    (4, 11, "greedy"),
]
OPTIONS: dict[str, Any] = {"max_turns": 8}


def play(players: int, seed: int, policy: str) -> dict[str, Any]:
    """One seeded game (seat 0 greedy when ``policy`` is "greedy", the rest random)."""
    game = CyberverseGame()
    greedy = game.policies()["greedy"]
    rng = random.Random(seed)
    s = game.new_state(GameConfig(players=players, options=OPTIONS), seed)
    h = hashlib.sha256()
    steps = 0
    while game.current_player(s) != TERMINAL:
        p = game.current_player(s)
        if p == CHANCE:
            h.update(repr([((a.kind, a.a, a.b, a.c), q) for a, q in game.chance_outcomes(s)]).encode())
            a = game.sample_chance(s, rng)
        else:
            legal = list(game.legal_actions(s))
            h.update(repr([(x.kind, x.a, x.b, x.c) for x in legal]).encode())
            if policy == "greedy" and p == 0:
                h.update(repr(round(value(s, game.content_pack, 0), 6)).encode())
                a = greedy(s, rng)
            else:
                a = rng.choice(legal)
        h.update(repr((a.kind, a.a, a.b, a.c)).encode())
        s = game.apply_trusted(s, a)
        steps += 1
    final = hashlib.sha256(json.dumps(game.to_dict(s), sort_keys=True).encode()).hexdigest()
    return {"digest": h.hexdigest(), "steps": steps, "returns": list(game.returns(s)), "final": final}


@pytest.mark.parametrize(("players", "seed", "policy"), CASES)
def test_trace_unchanged(players: int, seed: int, policy: str) -> None:
    """The engine plays each seeded game exactly as recorded (speed rewrites keep behaviour)."""
    recorded = json.loads(TRACES.read_text())[f"{players}-{seed}-{policy}"]
    assert play(players, seed, policy) == recorded


# ---------------------------------------------------------------- full traces (issue 32)
FULL_VARIANTS: dict[str, Any] = {
    "dead_agents": "removed",
    "rescue_clears": True,
    "tests": "one-per-agent",
    "training": "headquarters",
    "henchmen_moves": "shortest",
}
FULL_CASES: list[tuple[int, int, str]] = [
    *[(2 + k % 3, 100 + k, "random-capped" if k % 2 else "random") for k in range(9)],
    (2, 120, "greedy"),
    (3, 121, "greedy-capped"),
    (4, 122, "greedy"),
    (2, 130, "variants"),
    (3, 131, "variants"),
    (4, 132, "variants"),
    (3, 133, "greedy-variants"),
]
FULL_STEPS = 700
"""A full trace stops after this many steps (a game without a turn cap may run long)."""


def play_full(players: int, seed: int, policy: str) -> dict[str, Any]:
    """One seeded game recorded before the move to the one state idiom (issue 32): a digest of every
    position's public form (``json.dumps(to_dict(s))``, key order included), its legal actions (or
    chance outcomes), the action taken and its log line; now and then a seat's view, the heuristic,
    the prior, the description and the explanation of the move; the final score report. Seat 0 plays
    greedy in the "greedy" cases; the "variants" cases play issue 28's other readings; the "capped"
    cases end after turn 4 (the ``max_turns`` variant), the others have no turn cap and the trace
    stops after ``FULL_STEPS`` steps."""
    game = CyberverseGame()
    greedy = game.policies()["greedy"]
    options = {
        **(FULL_VARIANTS if "variants" in policy else {}),
        **({"max_turns": 4} if "capped" in policy else {}),
    }
    rng = random.Random(seed)
    s = game.new_state(GameConfig(players=players, options=options), seed)
    h = hashlib.sha256()
    steps = 0
    while game.current_player(s) != TERMINAL and steps < FULL_STEPS:
        p = game.current_player(s)
        h.update(json.dumps(game.to_dict(s)).encode())
        if p == CHANCE:
            h.update(repr([((a.kind, a.a, a.b, a.c), q) for a, q in game.chance_outcomes(s)]).encode())
            a = game.sample_chance(s, rng)
        else:
            legal = list(game.legal_actions(s))
            h.update(repr([(x.kind, x.a, x.b, x.c) for x in legal]).encode())
            if steps % 7 == 0:
                view = game.observation(s, p)
                h.update(json.dumps(game.to_dict(view)).encode())
                h.update(repr((game.heuristic(s), game.prior(s))).encode())
                h.update(repr([(f.label, f.value, f.text) for f in game.outcome_facts(s, p)]).encode())
            a = greedy(s, rng) if policy.startswith("greedy") and p == 0 else rng.choice(legal)
            if steps % 13 == 0:
                h.update(repr([(f.label, f.value, f.text) for f in game.explain(s, a)]).encode())
        h.update(repr((a.kind, a.a, a.b, a.c)).encode())
        h.update(game.log_line(s, a).encode())
        if steps % 50 == 0:
            h.update(game.describe(s).to_text(80).encode())
        s = game.apply(s, a)
        steps += 1
    h.update(json.dumps(game.to_dict(s)).encode())
    report = get_scorer("cyberverse")(game, s)
    return {
        "digest": h.hexdigest(),
        "steps": steps,
        "returns": list(game.returns(s)) if game.current_player(s) == TERMINAL else None,
        "score": hashlib.sha256(repr(report).encode()).hexdigest(),
    }


@pytest.mark.parametrize(("players", "seed", "policy"), FULL_CASES)
def test_full_trace_unchanged(players: int, seed: int, policy: str) -> None:
    """rule: cyberverse/end-of-game - each seeded game is played, shown and scored exactly as
    recorded before the move to the one state idiom (issue 32)."""
    recorded = json.loads(TRACES.read_text())[f"full-{players}-{seed}-{policy}"]
    assert play_full(players, seed, policy) == recorded


if __name__ == "__main__":
    TRACES.write_text(
        json.dumps(
            {
                **{f"{p}-{s}-{k}": play(p, s, k) for p, s, k in CASES},
                **{f"full-{p}-{s}-{k}": play_full(p, s, k) for p, s, k in FULL_CASES},
            },
            indent=1,
        )
        + "\n"
    )
