"""Seeded traces of Cytress, recorded before the move to the one state idiom (issue 32): the same seeds
must give the same games, step for step, and the same public form byte for byte.

Each trace is a digest (SHA-256) of every step's legal actions and the action taken, the public form
of every position (``json.dumps(to_dict(s))``: key order included), its log line, and now and then a
seat's view (its public form), a sampled state (``sample_state``), the heuristic, the prior, every
owner's PRESTIGE, the description and the explanation of the move; with the number of steps, the final
returns and the final score report. Seat 0 plays greedy in the "greedy" cases and by the automa's
checklists in the "automa" cases, everyone else at random.

Regenerate with ``python -m tests.cytress.test_traces`` only when a rule deliberately changes.

History: recorded before the move to ``games.core.records`` (issue 32).
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest

from games.core import TERMINAL, GameConfig
from games.cytress import CytressGame
from solver.core import get_scorer

TRACES = Path(__file__).with_name("traces.json")
VARIANTS: dict[str, Any] = {
    "market_side": "B",
    "solo_board_side": "1-3",
    "rebel_sides": "A",
    "round_limit": 4,
    "solo_tubes": "box",
    "bounty_scoring": "best",
}
CASES: list[tuple[int, int, str]] = [
    *[(1 + k % 5, k, "random") for k in range(15)],
    (1, 20, "greedy"),
    (3, 21, "greedy"),
    (1, 22, "automa"),
    (4, 23, "automa"),
    (1, 24, "variants"),
    (2, 25, "variants"),
    (5, 26, "variants"),
]

_GAME: list[CytressGame] = []


def _game() -> CytressGame:
    if not _GAME:
        _GAME.append(CytressGame())
    return _GAME[0]


def play(players: int, seed: int, policy: str) -> dict[str, Any]:
    """One seeded game: its digest, steps, returns and final score report."""
    game = _game()
    engine = game.policies()["automa" if policy == "automa" else "greedy"]
    options = {**VARIANTS, "first_player": players - 1} if policy == "variants" else {}
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
            h.update(repr((game.heuristic(s), game.prior(s), game.scores(s))).encode())
        if steps % 7 == 0:
            sampled = game.sample_state(game.observation(s, seat), seat, random.Random(steps))
            h.update(json.dumps(game.to_dict(sampled)).encode())
        a = engine(s, rng) if policy in ("greedy", "automa") and seat == 0 else rng.choice(legal)
        h.update(repr((a.kind, a.arg)).encode())
        h.update(game.log_line(s, a).encode())
        if steps % 11 == 0:
            h.update(game.describe(s, seat).to_text(80).encode())
            h.update(repr([(f.label, f.value, f.text) for f in game.explain(s, a)]).encode())
        s = game.apply(s, a)
        steps += 1
    h.update(json.dumps(game.to_dict(s)).encode())
    report = get_scorer("cytress")(game, s)
    return {
        "digest": h.hexdigest(),
        "steps": steps,
        "returns": list(game.returns(s)),
        "score": hashlib.sha256(repr(report).encode()).hexdigest(),
    }


@pytest.mark.parametrize(("players", "seed", "policy"), CASES)
def test_trace_unchanged(players: int, seed: int, policy: str) -> None:
    """rule: cytress/game-end-trigger - each seeded game is played, shown and scored exactly as
    recorded (solo: rule: cytress/solo-game-end)."""
    recorded = json.loads(TRACES.read_text())[f"{players}-{seed}-{policy}"]
    assert play(players, seed, policy) == recorded


if __name__ == "__main__":
    TRACES.write_text(json.dumps({f"{p}-{s}-{k}": play(p, s, k) for p, s, k in CASES}, indent=1) + "\n")
