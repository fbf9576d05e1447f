"""Seeded traces of the TI4 setup, recorded before the move to the one state idiom (issue 32): the
same seeds must give the same setups, step for step, and the same public form byte for byte.

Each trace is a digest (SHA-256) of every step's legal actions and the action taken, the public form
of every position (``json.dumps(to_dict(s))``: key order included), its log line and notation, and
now and then a seat's view (its public form, its picture, a state sampled from it), the heuristic,
the prior, the home values, where the seat stands (``outcome_facts``), the description and the
explanation of the move; with the number of steps, the final returns, the TTS map string and the
final score report. Seat 0 plays the named policy in the "greedy" and "balanced" cases, everyone
else at random.

Regenerate with ``python -m tests.ti4.test_traces`` only when a rule deliberately changes.

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
from games.ti4 import TI4Game
from solver.core import get_scorer

TRACES = Path(__file__).with_name("traces.json")
GAME = TI4Game()
OPTIONS: dict[str, dict[str, Any]] = {
    "rulebook": {},
    "pok": {"expansion": "pok", "no_other_option": "tile"},
    "random-factions": {"factions": "random", "victory_points": 14},
    "milty": {"mode": "milty"},
    "milty-pok": {"mode": "milty", "expansion": "pok", "milty_wormholes": "any", "milty_total": "any"},
}
CASES: list[tuple[int, int, str, str]] = [
    *[(3 + k % 4, k, "random", "rulebook") for k in range(6)],
    *[(3 + k % 4, 10 + k, "random", "milty") for k in range(4)],
    (4, 20, "greedy", "rulebook"),
    (5, 21, "greedy", "pok"),
    (6, 22, "balanced", "rulebook"),
    (3, 23, "greedy", "milty"),
    (5, 24, "random", "pok"),
    (3, 25, "random", "random-factions"),
    (5, 26, "balanced", "milty-pok"),
    (6, 27, "random", "pok"),
]


def _view(game: TI4Game, s: Any, seat: int, a: Any) -> list[Any]:
    """Now and then: a seat's view and the values and texts a hint shows."""
    return [
        json.dumps(game.to_dict(game.observation(s, seat))),
        game.heuristic(s),
        game.prior(s),
        game.home_values(s),
        [(f.label, f.value, f.unit, f.text) for f in game.outcome_facts(s, seat)],
        game.describe(s, seat).to_text(80),
        [(f.label, f.value, f.unit, f.text) for f in game.explain(s, a)],
        game.render(s, seat),
        json.dumps(game.to_dict(game.sample_state(game.observation(s, seat), seat, random.Random(seat)))),
    ]


def play(players: int, seed: int, policy: str, options: str) -> dict[str, Any]:
    """One seeded setup: its digest, steps, returns, map string and final score report."""
    game = GAME
    chosen = game.policies().get(policy)
    rng = random.Random(seed)
    s = game.new_state(GameConfig(players=players, options=OPTIONS[options]), seed)
    h = hashlib.sha256()
    steps = 0
    while game.current_player(s) != TERMINAL:
        seat = game.current_player(s)
        h.update(json.dumps(game.to_dict(s)).encode())
        legal = list(game.legal_actions(s))
        h.update(repr([(a.kind, a.tile, a.pos, a.name) for a in legal]).encode())
        a = chosen(s, rng) if chosen is not None and seat == 0 else rng.choice(legal)
        h.update(repr((a.kind, a.tile, a.pos, a.name)).encode())
        h.update(game.log_line(s, a).encode())
        h.update(game.action_to_text(s, a).encode())
        if steps % 7 == 0:
            h.update(repr(_view(game, s, seat, a)).encode())
        s = game.apply(s, a)
        steps += 1
    h.update(json.dumps(game.to_dict(s)).encode())
    h.update(game.state_to_text(s).encode())
    report = get_scorer("ti4")(game, s)
    return {
        "digest": h.hexdigest(),
        "steps": steps,
        "returns": list(game.returns(s)),
        "map": game.map_string(s, home_tiles=True),
        "score": hashlib.sha256(repr(report).encode()).hexdigest(),
    }


@pytest.mark.parametrize(("players", "seed", "policy", "options"), CASES)
def test_trace_unchanged(players: int, seed: int, policy: str, options: str) -> None:
    """rule: ti4/place-system-tiles - each seeded setup is played, shown and scored exactly as recorded."""
    recorded = json.loads(TRACES.read_text())[f"{players}-{seed}-{policy}-{options}"]
    assert play(players, seed, policy, options) == recorded


if __name__ == "__main__":
    TRACES.write_text(
        json.dumps({f"{p}-{s}-{k}-{o}": play(p, s, k, o) for p, s, k, o in CASES}, indent=1) + "\n"
    )
