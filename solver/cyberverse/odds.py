"""``cyberverse.feature_test``: the exact odds of one Feature test, or of the chain of tests of an
Investigation card, drawn from the Organization's Modifier deck without replacement, with the
reshuffle rule of the game's variant."""

from __future__ import annotations

import itertools
import time
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from games.core import Game
from games.cyberverse.game import CyberverseGame
from games.cyberverse.investigation import TEST, test_total
from games.cyberverse.modifiers import after_draw, deck_to_draw, succeeds
from games.cyberverse.state import State
from games.errors import ConfigError
from solver.core import SolveLimits, SolveResult, Status, check_param_keys, shown
from solver.cyberverse.params import game_of, int_param, seat_of, state_of, str_param


# ============================================================================ feature tests
def single_test_odds(deck: tuple[int, ...], discard: tuple[int, ...], total: int, threshold: int) -> float:
    """rule: cyberverse/feature-test - P(total + card > threshold) for one card drawn from the deck
    as it stands (the discard pile if the deck is empty)."""
    pile = deck_to_draw(tuple(sorted(deck)), tuple(sorted(discard)))
    if not pile:
        return 0.0
    return sum(1 for x in pile if succeeds(total, x, threshold)) / len(pile)


@lru_cache(maxsize=65536)
def chain_table(
    deck: tuple[int, ...], discard: tuple[int, ...], tests: tuple[tuple[int, int], ...], reshuffle: str
) -> tuple[float, ...]:
    """Distribution of the number of successes over ``tests`` in order (exact, by recursion over the
    deck's multiset: each distinct card drawn with its count's probability)."""
    if not tests:
        return (1.0,)
    total, threshold = tests[0]
    pile = deck_to_draw(deck, discard)
    out = [0.0] * (len(tests) + 1)
    if not pile:
        rest = chain_table(deck, discard, tests[1:], reshuffle)
        for k, p in enumerate(rest):
            out[k] += p
        return tuple(out)
    counts: dict[int, int] = {}
    for x in pile:
        counts[x] = counts.get(x, 0) + 1
    for card, n in counts.items():
        ok = succeeds(total, card, threshold)
        nd, nx = after_draw(deck, discard, card, ok, reshuffle)
        rest = chain_table(nd, nx, tests[1:], reshuffle)
        for k, p in enumerate(rest):
            out[k + ok] += n / len(pile) * p
    return tuple(out)


def chain_odds(
    deck: Sequence[int], discard: Sequence[int], tests: Sequence[tuple[int, int]], reshuffle: str = "success"
) -> tuple[float, ...]:
    """P(exactly k successes) for k = 0..len(tests): the chain of (total, threshold) tests drawn in
    order from one Modifier deck (rule: cyberverse/feature-test, investigation)."""
    return chain_table(tuple(sorted(deck)), tuple(sorted(discard)), tuple(tests), reshuffle)


def chain_by_orders(
    deck: Sequence[int], discard: Sequence[int], tests: Sequence[tuple[int, int]], reshuffle: str = "success"
) -> tuple[float, ...]:
    """The same distribution as :func:`chain_odds` by brute force: every order of the shuffled pile
    is enumerated (``itertools.permutations``, equally likely), and again at each reshuffle. For
    cross-checks on small chains (exponential)."""
    out = [0.0] * (len(tests) + 1)

    def run(pile: tuple[int, ...], discard: tuple[int, ...], k: int, wins: int, weight: float) -> None:
        if k == len(tests):
            out[wins] += weight
            return
        if not pile:
            if not discard:
                run(pile, discard, k + 1, wins, weight)
                return
            orders = list(itertools.permutations(discard))
            for order in orders:
                run(order, (), k, wins, weight / len(orders))
            return
        card, rest = pile[0], pile[1:]
        total, threshold = tests[k]
        ok = succeeds(total, card, threshold)
        discard = (*discard, card)
        if (ok and reshuffle == "success") or not rest:
            merged = rest + discard
            orders = list(itertools.permutations(merged))
            for order in orders:
                run(order, (), k + 1, wins + ok, weight / len(orders))
            return
        run(rest, discard, k + 1, wins + ok, weight)

    pile = tuple(deck)
    if pile:
        orders = list(itertools.permutations(pile))
        for order in orders:
            run(order, tuple(discard), 0, 0, 1.0 / len(orders))
    else:
        run((), tuple(discard), 0, 0, 1.0)
    return tuple(out)


FEATURE_TEST_PARAMS: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "seat": {
            "type": "integer",
            "description": "The Organization whose Modifier deck is drawn (default: the seat to move).",
        },
        "total": {
            "type": "integer",
            "description": "Feature plus bonuses of one test (without an investigation).",
        },
        "threshold": {
            "type": "integer",
            "description": "The Mission's threshold: the test succeeds above it.",
        },
        "investigation": {
            "type": "string",
            "description": "An Investigation card id of the seat's story (e.g. 'Y03'): "
            "the chain of its open test Missions.",
        },
        "agent": {
            "type": "string",
            "description": "With investigation: the Agent (its sheet's name) taking the tests.",
        },
    },
}


def _chain_of_tests(
    g: CyberverseGame, s: State, params: Mapping[str, Any], seat: int, t0: float
) -> SolveResult:
    """The odds of the chain of open test Missions of one Investigation card of ``seat``'s story."""
    c = g.content_pack
    org = s.orgs[seat]
    card_id = str_param(params, "investigation", "")
    ids = [c.investigations[k].id for k in org.cases]
    if card_id not in ids:
        raise ConfigError(
            f"investigation must be one of the story's cards {ids}, got {shown(card_id)}",
            field="params.investigation",
        )
    case = ids.index(card_id)
    name = str_param(params, "agent", "")
    mine = {c.faces[2 * a.sheet + a.side].name: a for a in s.agents if a.org == seat}
    if name not in mine:
        raise ConfigError(f"agent must be one of {sorted(mine)}, got {shown(name)}", field="params.agent")
    agent = mine[name]
    card = c.investigations[org.cases[case]]
    tests = [
        (test_total(s, c, agent, m.feature, xp=0, district=m.district), m.threshold)
        for i, m in enumerate(card.missions)
        if m.kind == TEST and i not in org.done[case]
    ]
    dist = chain_odds(org.deck, org.discard, tests, s.options.reshuffle)
    p_all = dist[-1]
    expected = sum(k * p for k, p in enumerate(dist))
    text = (
        f"{name} clears all {len(tests)} open test missions of {card_id} with probability {p_all:.3f} "
        f"(expected {expected:.2f} successes) from the deck {list(org.deck)}"
    )
    advice = " - go for it." if p_all >= 0.5 else " - raise the Feature (Cyber-Implant or XP) first."
    answer = {
        "tests": [list(t) for t in tests],
        "distribution": list(dist),
        "all": p_all,
        "expected": expected,
    }
    return SolveResult(
        kind="cyberverse.feature_test",
        status=Status.OPTIMAL,
        objective=p_all,
        bound=p_all,
        answer=answer,
        explanation=text + advice,
        method="exact recursion over the deck",
        wall_s=time.perf_counter() - t0,
    )


def feature_test(
    game: Game[Any, Any], state: Any, params: Mapping[str, Any], limits: SolveLimits
) -> SolveResult:
    """Exact odds of one test or of an Investigation card's chain of tests."""
    t0 = time.perf_counter()
    g, s = game_of(game), state_of(state)
    params = check_param_keys(params, FEATURE_TEST_PARAMS)
    seat = seat_of(s, params)
    org = s.orgs[seat]
    if "investigation" in params:
        return _chain_of_tests(g, s, params, seat, t0)
    total = int_param(params, "total", 0, -5, 20)
    threshold = int_param(params, "threshold", 0, -5, 30)
    p = single_test_odds(org.deck, org.discard, total, threshold)
    need = threshold - total + 1
    text = (
        f"A test of {total} against threshold {threshold} succeeds with probability {p:.3f}: it needs a "
        f"Modifier card of {need:+d} or more from {list(deck_to_draw(org.deck, org.discard))}"
    )
    text += "; take it." if p >= 0.5 else "; add XP tokens or wait for a better deck."
    return SolveResult(
        kind="cyberverse.feature_test",
        status=Status.OPTIMAL,
        objective=p,
        bound=p,
        answer={"probability": p, "card_needed": need},
        explanation=text,
        method="exact count over the cards left",
        wall_s=time.perf_counter() - t0,
    )
