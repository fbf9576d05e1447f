"""Seeded traces of Tiberius Who?, recorded before the move to the one state idiom (issue 32): the same
seeds must give the same games, step for step, and the same public form byte for byte.

Each trace is a digest (SHA-256) of every step's legal actions and the action taken, the public form
of every position (``json.dumps(to_dict(s))``: key order included), its log line, and now and then a
seat's view (its public form), the heuristic, the prior, the VP totals and every tally line, the
description and the explanation of the move; with the number of steps, the final returns and the
final score report. Seat 0 plays greedy in the "greedy" cases, everyone else at random.

Regenerate with ``python -m tests.tiberius.test_traces`` only when a rule deliberately changes.

History: recorded before the move to ``games.core.records`` (issue 32) and held through it.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest

from games.core import TERMINAL, GameConfig
from games.tiberius import TiberiusGame
from solver.core import get_scorer

TRACES = Path(__file__).with_name("traces.json")
VARIANTS: dict[str, Any] = {
    "influence_table": "mat",
    "pcim_rule": "influence",
    "marriage_vp": "aid",
    "imperator_solo": "most",
    "imperator_empty": "none",
    "turns": 7,
    "oldest_seat": 1,
}
CASES: list[tuple[int, int, str]] = [
    *[(1 + k % 6, k, "random") for k in range(12)],
    (2, 20, "greedy"),
    (4, 21, "greedy"),
    (6, 22, "greedy"),
    (1, 23, "variants"),
    (3, 24, "variants"),
    (5, 25, "variants"),
]


def play(players: int, seed: int, policy: str) -> dict[str, Any]:
    """One seeded game: its digest, steps, returns and final score report."""
    game = TiberiusGame()
    greedy = game.policies()["greedy"]
    options = {**VARIANTS, "oldest_seat": players - 1} if policy == "variants" else {}
    rng = random.Random(seed)
    s = game.new_state(GameConfig(players=players, options=options), seed)
    h = hashlib.sha256()
    steps = 0
    while game.current_player(s) != TERMINAL:
        seat = game.current_player(s)
        h.update(json.dumps(game.to_dict(s)).encode())
        legal = list(game.legal_actions(s))
        h.update(repr([(a.kind, a.arg) for a in legal]).encode())
        if steps % 5 == 0:
            h.update(json.dumps(game.to_dict(game.observation(s, seat))).encode())
            h.update(repr((game.heuristic(s), game.prior(s), game.totals(s))).encode())
            tally = [(t.total, [(x.category, x.points, x.detail) for x in t.lines]) for t in game.tally(s)]
            h.update(repr(tally).encode())
        a = greedy(s, rng) if policy == "greedy" and seat == 0 else rng.choice(legal)
        h.update(repr((a.kind, a.arg)).encode())
        h.update(game.log_line(s, a).encode())
        if steps % 11 == 0:
            h.update(game.describe(s, seat).to_text(80).encode())
            h.update(repr([(f.label, f.value, f.text) for f in game.explain(s, a)]).encode())
        s = game.apply(s, a)
        steps += 1
    h.update(json.dumps(game.to_dict(s)).encode())
    report = get_scorer("tiberius")(game, s)
    return {
        "digest": h.hexdigest(),
        "steps": steps,
        "returns": list(game.returns(s)),
        "score": hashlib.sha256(repr(report).encode()).hexdigest(),
    }


@pytest.mark.parametrize(("players", "seed", "policy"), CASES)
def test_trace_unchanged(players: int, seed: int, policy: str) -> None:
    """rule: tiberius/end-of-game - each seeded game is played, shown and scored exactly as recorded."""
    recorded = json.loads(TRACES.read_text())[f"{players}-{seed}-{policy}"]
    assert play(players, seed, policy) == recorded


if __name__ == "__main__":
    TRACES.write_text(json.dumps({f"{p}-{s}-{k}": play(p, s, k) for p, s, k in CASES}, indent=1) + "\n")
