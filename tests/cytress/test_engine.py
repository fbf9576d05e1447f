"""The engine's fast paths change nothing: fixed seeded playout traces, ``apply_trusted`` equal to
``apply``, and the working copy's freeze turning back every field a rule may make a list.

rule: cytress/core-concepts - the same seed and the same choices give the same game (every random
part of the rules draws from the state's seed).
"""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from games.core.protocol import TERMINAL, GameConfig
from games.cytress.scoring import final_scores
from games.cytress.state import CytressState
from games.cytress.work import Work
from tests.cytress.helpers import GAME

TRACES = {
    (1, 0): (87, "3cf26ea4a0d68bda"),
    (1, 1): (73, "261d9e2b8718a479"),
    (2, 0): (234, "495c879e1a8eaebe"),
    (3, 0): (354, "4f7454ed4c4687ca"),
    (3, 1): (311, "e0e0c11a5a015b96"),
    (4, 0): (416, "5c9f3e3a2ec90591"),
    (5, 0): (552, "81dcb234195c89ce"),
}
"""Seeded random playouts: steps and a digest of every legal-action list, the final public form and
the final state. Recorded before the engine's speed-ups (issue 19) and re-recorded deliberately
twice: the solo traces when the automa's AI action deck reshuffles moved from a seeded
``random.Random`` per reshuffle to one word of a SplitMix64 stream (``automa._reshuffled``); all of
them for issue 28, whose rules change the games (no round cap by default, no faction meeting
without an empty hex for the crew, solo tubes from the 14 sections only, two new public fields)."""


def _trace(players: int, seed: int) -> tuple[int, str]:
    rng = random.Random(seed)
    s = GAME.new_state(GameConfig(players=players), seed)
    h = hashlib.sha256()
    n = 0
    while GAME.current_player(s) != TERMINAL:
        legal = list(GAME.legal_actions(s))
        h.update(repr(legal).encode())
        s = GAME.apply_trusted(s, rng.choice(legal))
        n += 1
    h.update(json.dumps(GAME.to_dict(s), sort_keys=True).encode())
    h.update(_repr(s).encode())
    return n, h.hexdigest()[:16]


_OLD_FIELDS = (
    *("players", "round", "phase", "step", "actor", "turn", "first", "phase_first", "pending", "tiles"),
    *("market", "board_side", "rebels", "sides", "res", "paths", "icons", "crew", "tube", "stratos"),
    *("supply", "intel_deck", "intel_row", "strat_deck", "strat_row", "strat_discard", "reserved"),
    *("bounty_stack", "bounties", "tubes_left", "tubes_box", "leader", "transports", "on_stratos"),
    *("end_triggered", "automa", "seed", "shuffles", "round_limit", "box_tubes", "bounty_best"),
)
"""The state's fields before issue 32 (the per-seat ones since gathered in ``Player`` records, the
per-owner ones in ``Rebel`` records)."""


def _repr(s: CytressState) -> str:
    """The state's fields as its frozen dataclass's ``repr`` wrote them (before issue 32): the
    derived mini-map left out, the per-seat fields flat, seat after seat, and the per-owner fields
    owner after owner, as they were held then."""
    seats, owners = s.players, s.rebels
    old = {
        "players": s.num_players,
        "sides": tuple(p.side for p in seats),
        "res": tuple(x for p in seats for x in p.resources),
        "paths": tuple(path for p in seats for path in p.lifepaths),
        "icons": tuple(x for p in seats for path in p.icons for x in path),
        "rebels": tuple(r.board for r in owners),
        "stratos": tuple(x for r in owners for x in r.stratos),
        "supply": tuple(r.unused for r in owners),
        "bounties": tuple(r.bounties for r in owners),
        "leader": tuple(r.leader for r in owners),
        "reserved": tuple(p.reserved for p in seats),
        "transports": tuple(p.transports for p in seats),
        "on_stratos": tuple(p.on_stratos for p in seats),
    }
    shown = (f"{n}={old[n] if n in old else getattr(s, n)!r}" for n in _OLD_FIELDS)
    return f"CytressState({', '.join(shown)})"


@pytest.mark.parametrize(("players", "seed"), sorted(TRACES))
def test_seeded_playouts_unchanged(players: int, seed: int) -> None:
    """rule: cytress/core-concepts - the recorded playouts replay step for step."""
    assert _trace(players, seed) == TRACES[(players, seed)]


def test_automa_reshuffle_is_a_seeded_permutation() -> None:
    """rule: cytress/solo-gameplay - the AI action deck reshuffle deals every card once, the same
    order for the same hidden seed and count, and every order of 4 cards about equally often."""
    from collections import Counter

    from games.cytress.automa import _reshuffled
    from games.cytress.work import Work

    def _w(seed: int) -> Work:
        """A working copy with this hidden seed, before any reshuffle (a real ``Work``: the compiled
        rules check the type of what they are given)."""
        w = Work.of(GAME.new_state(GameConfig(players=1), 0))
        w.seed, w.shuffles = seed, 0
        return w

    a, b = _w(7), _w(7)
    first = [_reshuffled(a, list(range(16))) for _ in range(5)]
    assert first == [_reshuffled(b, list(range(16))) for _ in range(5)]
    assert all(sorted(order) == list(range(16)) for order in first)
    assert len(set(first)) == 5 and a.shuffles == 5
    w = _w(99)
    counts = Counter(_reshuffled(w, [0, 1, 2, 3]) for _ in range(4800))
    assert len(counts) == 24 and min(counts.values()) > 120 and max(counts.values()) < 280


def test_apply_trusted_equals_apply() -> None:
    """rule: cytress/phase-3a-travel - the unchecked path gives the checked path's states."""
    rng = random.Random(7)
    for players in (1, 3, 4):
        s = GAME.new_state(GameConfig(players=players), players)
        while GAME.current_player(s) != TERMINAL:
            a = rng.choice(list(GAME.legal_actions(s)))
            t = GAME.apply_trusted(s, a)
            assert t == GAME.apply(s, a)
            assert type(t) is CytressState
            assert not any(type(getattr(t, n)) is list for n in CytressState.__struct_fields__)
            s = t


def test_evaluator_totals_equal_the_rebellion() -> None:
    """rule: cytress/score-stratos-rewards - the search's fast tally is the rulebook's scoring: every
    owner's PRESTIGE and target icons as ``scoring.final_scores`` counts them, along random games."""
    for players in (1, 3, 5):
        rng = random.Random(players)
        s = GAME.new_state(GameConfig(players=players), players)
        while GAME.current_player(s) != TERMINAL:
            s = GAME.apply_trusted(s, rng.choice(list(GAME.legal_actions(s))))
            tallies = final_scores(GAME.pack, s, s.map.layout.adjacent)
            totals, icons = GAME.evaluator.totals(s)
            assert totals == [t.total for t in tallies]
            assert icons == [sum(t.facts.targets) for t in tallies]


def test_working_copy_has_the_state_fields() -> None:
    """``Work.of``/``Work.freeze`` pass the fields over by position: the same names in the same order."""
    assert Work.__struct_fields__ == CytressState.__struct_fields__
