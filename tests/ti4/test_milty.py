"""Milty drafts: the random deal keeps the community's conventions, and slices (dealt or built) make a
legal galaxy together whichever seats the draft gives them."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import pytest

from games.core.protocol import TERMINAL
from games.errors import ConfigError
from games.ti4.legality import check_map, check_string
from games.ti4.milty import (
    cross_pairs,
    fewest_touching,
    safe_layouts,
    side_by_side,
    slice_positions,
    slice_total,
    slices_to_text,
)
from solver.core import SolveLimits, Status, get_puzzle
from solver.ti4 import SliceProblem, brute_force_slices, slices_ok, solve_slices
from tests.ti4.helpers import GAME, new

PACK = GAME.pack


def test_slots_beside_the_next_slice() -> None:
    """The geometry: a slice's right and far right slots touch the next slice clockwise (right-left,
    far front-far front, far right-left, far right-front, far right-far front)."""
    assert cross_pairs(PACK) == [(2, 0), (3, 3), (4, 0), (4, 1), (4, 3)]


@pytest.mark.parametrize(("players", "expansion"), [(3, "base"), (4, "pok"), (5, "base"), (6, "pok")])
def test_random_deal_keeps_the_conventions(players: int, expansion: str) -> None:
    """rule: ti4/anomaly-adjacency, rule: ti4/wormhole-adjacency - the game's random deal: every
    slice's optimal total within 9-13, no alpha and beta wormhole together, at most one legendary
    planet, and no two slices put forbidden neighbours side by side in either order."""
    for seed in range(6):
        s = new(players, seed, mode="milty", expansion=expansion)
        for sl in s.slices:
            assert 9 <= slice_total(PACK, sl) <= 13
            assert len({w for t in sl for w in PACK.tiles[t].wormholes}) <= 1
            assert sum(p.legendary for t in sl for p in PACK.tiles[t].planets) <= 1
        for a, b in itertools.permutations(s.slices, 2):
            assert side_by_side(PACK, a, b) == 0


def test_random_deal_conventions_are_options() -> None:
    """The conventions are configurable: ``milty_total`` ('any' lifts the range), ``milty_wormholes``
    and ``milty_legendary``; a bad range names its option."""
    totals = [
        slice_total(PACK, sl)
        for seed in range(8)
        for sl in new(6, seed, mode="milty", milty_total="any").slices
    ]
    assert any(not 9 <= t <= 13 for t in totals)
    narrow = [
        slice_total(PACK, sl) for sl in new(4, 1, mode="milty", expansion="pok", milty_total="10-11").slices
    ]
    assert all(10 <= t <= 11 for t in narrow)
    loose = new(6, 0, mode="milty", expansion="pok", milty_wormholes="any", milty_legendary=2)
    assert len(loose.slices) == 7  # six players and milty_extra 1
    with pytest.raises(ConfigError) as err:
        new(6, 0, mode="milty", milty_total="13-9")
    assert err.value.field == "config.options.milty_total"


def test_drafted_galaxies_are_legal_with_the_slices_side_by_side() -> None:
    """rule: ti4/anomaly-adjacency - random drafts played out: the checker finds no forbidden
    neighbours across slices (the random deal lays the slices out so that none can touch)."""
    for seed in range(4):
        s = new(6, seed, mode="milty", expansion="pok")
        rng = random.Random(seed)
        while GAME.current_player(s) != TERMINAL:
            s = GAME.apply(s, rng.choice(list(GAME.legal_actions(s))))
        report = check_string(PACK, GAME.map_string(s, home_tiles=True), procedure="milty", expansion="pok")
        assert report.ok, report.violations
        assert not [n for n in report.notes if "across two slices" in n]


def _galaxy(ring: Sequence[Sequence[int]]) -> list[int]:
    cells = [0] * 37
    cells[0] = 18
    for h, sl in zip(PACK.board.layouts[6].homes, ring, strict=True):
        for p, t in zip(slice_positions(PACK, h), sl, strict=True):
            cells[p] = t
    return cells


def test_checker_flags_avoidable_neighbours_across_slices() -> None:
    """rule: ti4/anomaly-adjacency - two slices laid out with anomalies on the touching slots
    (right-left) where another order of their tiles avoids it: a violation; the same slices laid out
    safely: legal."""
    bad = [
        (59, 60, 41, 61, 46),  # the gravity rift in the right slot...
        (42, 62, 63, 65, 47),  # ...beside the nebula in the next slice's left slot
        (19, 20, 21, 48, 49),
        (22, 23, 24, 50, 77),
        (27, 28, 29, 78, 40),
        (30, 67, 31, 32, 39),
    ]
    assert side_by_side(PACK, bad[0], bad[1]) == 1
    report = check_map(PACK, _galaxy(bad), players=6, procedure="milty")
    assert not report.ok
    assert "across two slices" in report.violations[0].message
    laid = safe_layouts(PACK, bad)
    assert laid is not None and fewest_touching(PACK, laid) == 0
    assert check_map(PACK, _galaxy([tuple(sl) for sl in laid]), players=6, procedure="milty").ok


def test_cp_sat_slices_equal_brute_force_with_the_layout_rules() -> None:
    """rule: ti4/deal-system-tiles - two slices from ten tiles with three anomalies: CP-SAT's gap is
    the brute-force gap under the totals and the rule that no two slices touch badly."""
    pool = (19, 20, 21, 22, 24, 26, 41, 42, 43, 47)
    for limits in ({}, {"min_total": 3.0, "max_total": 6.0}):
        problem = SliceProblem(count=2, pool=pool, **limits)  # type: ignore[arg-type]
        exact = brute_force_slices(PACK, problem)
        status, slices, gap, _ = solve_slices(PACK, problem, time_limit_s=10, workers=1)
        if exact is None:
            assert status == Status.INFEASIBLE
            continue
        assert status == Status.OPTIMAL
        assert gap == pytest.approx(exact, abs=1e-9)
        assert slices_ok(PACK, problem, slices)
        for a, b in itertools.permutations(slices, 2):
            assert side_by_side(PACK, a, b) == 0


def test_milty_slices_puzzle_keeps_the_conventions_and_plays() -> None:
    """The solver's slices: totals 9-13 by default, laid out so that every draft is legal."""
    _, fn = get_puzzle("ti4.milty_slices")
    res = fn(GAME, None, {"slices": 6, "expansion": "pok"}, SolveLimits(time_limit_s=5, workers=1))
    assert res.status in (Status.OPTIMAL, Status.FEASIBLE)
    assert all(9 <= t <= 13 for t in res.answer["slice_totals"])
    slices = [tuple(int(t) for t in sl) for sl in res.answer["slices"]]
    for a, b in itertools.permutations(slices, 2):
        assert side_by_side(PACK, a, b) == 0
    s = new(6, 3, mode="milty", expansion="pok", milty_slices=slices_to_text(slices), milty_extra=0)
    rng = random.Random(3)
    while GAME.current_player(s) != TERMINAL:
        s = GAME.apply(s, rng.choice(list(GAME.legal_actions(s))))
    assert check_string(PACK, GAME.map_string(s, home_tiles=True), procedure="milty", expansion="pok").ok
