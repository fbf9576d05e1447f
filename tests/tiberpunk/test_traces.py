"""Seeded traces of Tiberpunk, recorded before the move to the one state idiom (issue 32): the same
seeds must give the same games, step for step, and the same public form byte for byte.

Each trace is a digest (SHA-256) of every step's legal actions and the action taken, the public form
of every position (``json.dumps(to_dict(s))``: key order included), its log line, the chance outcomes
at a chance node, and now and then a seat's view (its public form), the heuristic, the prior, the
outcome facts, the description, the explanation of the move and the state's text form; with the
number of steps, the final returns and the final score report. Seat 0 plays greedy (the move with the
highest prior, else the first legal one) in the "greedy" cases, everyone else at random; the greedy
cases apply by ``apply_trusted`` (the search's fast path).

Regenerate with ``python -m tests.tiberpunk.test_traces`` only when a rule deliberately changes.

History: recorded before the move to ``games.core.records`` (issue 32) and held through it.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest

from games.core import CHANCE, TERMINAL, GameConfig
from games.core.face import REFEREE, SPECTATOR
from games.tiberpunk import TiberpunkGame
from solver.tiberpunk import score

TRACES = Path(__file__).with_name("traces.json")
GAME = TiberpunkGame()
CASES: list[tuple[int, int, str]] = [
    *[(2 + k % 3, k, "random") for k in range(9)],
    (2, 20, "greedy"),
    (3, 21, "greedy"),
    (4, 22, "greedy"),
    (2, 30, "abilities"),
    (3, 31, "abilities"),
    (4, 32, "variants"),
    (2, 33, "variants"),
    (3, 34, "variants"),
]
OPTIONS: dict[str, dict[str, Any]] = {
    "random": {"max_rounds": 30},
    "greedy": {"max_rounds": 30},
    "abilities": {"abilities": True, "max_rounds": 30},
    "variants": {"side_objectives": "mixed", "coin_bank": True, "abilities": True, "max_rounds": 12},
}


def _greedy(s: Any, legal: list[int]) -> int:
    prior = GAME.prior(s)
    if not prior:
        return legal[0]
    return legal[max(range(len(legal)), key=lambda i: prior[i])]


def play(players: int, seed: int, policy: str) -> dict[str, Any]:
    """One seeded game: its digest, steps, returns and final score report."""
    game = GAME
    options = dict(OPTIONS[policy])
    if policy == "variants" and seed == 33:
        options["side_objectives"] = "gang-war"
    rng = random.Random(seed)
    s = game.new_state(GameConfig(players=players, options=options), seed)
    h = hashlib.sha256()
    steps = 0
    while game.current_player(s) != TERMINAL:
        seat = game.current_player(s)
        h.update(json.dumps(game.to_dict(s)).encode())
        legal = list(game.legal_actions(s))
        h.update(repr(legal).encode())
        if seat == CHANCE:
            outcomes = list(game.chance_outcomes(s))
            h.update(repr(outcomes).encode())
            a = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            if steps % 5 == 0:
                h.update(json.dumps(game.to_dict(game.observation(s, seat))).encode())
                h.update(repr((game.heuristic(s), game.prior(s))).encode())
            if steps % 13 == 0:
                h.update(repr([(f.label, f.value) for f in game.outcome_facts(s, seat)]).encode())
            if steps % 17 == 0:
                sample = game.sample_state(game.observation(s, seat), seat, random.Random(steps))
                h.update(json.dumps(game.to_dict(sample)).encode())
                h.update(json.dumps(game.internal_dict(sample)).encode())
            a = _greedy(s, legal) if policy == "greedy" and seat == 0 else rng.choice(legal)
        h.update(repr(a).encode())
        h.update(game.log_line(s, a).encode())
        if steps % 11 == 0:
            h.update(game.describe(s, seat if seat >= 0 else REFEREE).to_text(80).encode())
            h.update(game.log_line(s, a, SPECTATOR).encode())
            h.update(game.state_to_text(s).encode())
            if seat >= 0:
                h.update(repr([(f.label, f.value, f.text) for f in game.explain(s, a)]).encode())
        s = game.apply_trusted(s, a) if policy == "greedy" else game.apply(s, a)
        steps += 1
    h.update(json.dumps(game.to_dict(s)).encode())
    report = score(game, s)  # (the registered scorer; imported directly: no other game loaded)
    return {
        "digest": h.hexdigest(),
        "steps": steps,
        "returns": list(game.returns(s)),
        "score": hashlib.sha256(repr(report).encode()).hexdigest(),
    }


@pytest.mark.parametrize(("players", "seed", "policy"), CASES)
def test_trace_unchanged(players: int, seed: int, policy: str) -> None:
    """rule: tiberpunk/end-of-game - each seeded game is played, shown and scored exactly as recorded."""
    recorded = json.loads(TRACES.read_text())[f"{players}-{seed}-{policy}"]
    assert play(players, seed, policy) == recorded


if __name__ == "__main__":
    TRACES.write_text(json.dumps({f"{p}-{s}-{k}": play(p, s, k) for p, s, k in CASES}, indent=1) + "\n")
