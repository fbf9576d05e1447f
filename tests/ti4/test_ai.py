"""AI seats (the shipped policies) and the hints' facts."""

from __future__ import annotations

import random

from games.core.protocol import TERMINAL
from games.ti4.state import DRAFT, PLACE
from tests.ti4.helpers import GAME, new, play_until


def test_policies_play_whole_setups() -> None:
    """rule: ti4/place-system-tiles - the greedy and balanced seats only play legal actions to the end."""
    for name, policy in GAME.policies().items():
        for players, options in ((4, {}), (5, {"mode": "milty", "expansion": "pok"})):
            s = new(players, 3, **options)
            rng = random.Random(1)
            while GAME.current_player(s) != TERMINAL:
                a = policy(s, rng)
                assert a in GAME.legal_actions(s), name
                s = GAME.apply(s, a)
            assert len(GAME.returns(s)) == players


def test_balanced_seats_build_a_fairer_galaxy_than_random() -> None:
    """rule: ti4/place-system-tiles - over a few seeds, 'balanced' seats leave a smaller gap."""
    policy = GAME.policies()["balanced"]
    gaps = {"balanced": 0.0, "random": 0.0}
    for seed in range(3):
        for who in gaps:
            s, rng = new(3, seed), random.Random(seed)
            while GAME.current_player(s) != TERMINAL:
                acts = GAME.legal_actions(s)
                s = GAME.apply(s, policy(s, rng) if who == "balanced" else rng.choice(list(acts)))
            v = GAME.home_values(s, fill=False)
            gaps[who] += max(v) - min(v)
    assert gaps["balanced"] < gaps["random"]


def test_hints_give_the_same_facts_for_every_placement() -> None:
    """rule: ti4/anomaly-adjacency - each candidate placement is explained with the same labels:
    home value, optimal resources within 2 jumps, the best rival's gain, lane anomalies, exception."""
    s = play_until(new(4, 2), PLACE)
    for _ in range(5):
        s = GAME.apply(s, GAME.legal_actions(s)[0])
    labels = None
    for a in GAME.legal_actions(s)[:10]:
        facts = GAME.explain(s, a)
        got = [f.label for f in facts]
        labels = labels or got
        assert got == labels
        assert any("within 2 jumps" in f.text for f in facts)


def test_draft_hint_values_a_slice() -> None:
    s = new(3, 1, mode="milty", expansion="pok")
    assert s.phase == DRAFT
    slice_pick = next(a for a in GAME.legal_actions(s) if a.kind == "slice")
    assert any("slice value" in f.text for f in GAME.explain(s, slice_pick))
