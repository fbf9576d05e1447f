"""The solvers: CP-SAT against brute force on small instances, the model against the measure,
the puzzles' answers and their parameter errors."""

from __future__ import annotations

import random

import pytest

from games.errors import ConfigError
from games.ti4.balance import Weights
from games.ti4.legality import check_string
from games.ti4.measures import Measure
from solver.core import SolveLimits, Status, get_puzzle, get_scorer
from solver.ti4 import (
    SliceProblem,
    brute_force_map,
    brute_force_slices,
    gap_of,
    hill_climb_map,
    legal_galaxy,
    map_problem,
    random_legal_map,
    slices_ok,
    solve_map,
    solve_slices,
)
from tests.ti4.helpers import GAME, new, play_out

PACK = GAME.pack
LIMITS = SolveLimits(time_limit_s=1.0, workers=1)


def _small(seed: int, players: int, weights: Weights | Measure, opened: int = 4, spare: int = 2):
    """A full random legal map with ``opened`` positions emptied; pool: their tiles + spares."""
    rng = random.Random(seed)
    measure = weights if isinstance(weights, Measure) else Measure("custom", (weights,))
    full = map_problem(PACK, players=players, expansion="pok", measure=measure)
    galaxy = random_legal_map(PACK, full, rng)
    layout = PACK.board.layouts[players]
    near = [p for p in layout.systems if set(PACK.board.adjacent[p]) & set(layout.homes)]
    opened_pos = rng.sample(near, opened)
    unused = [t for t in full.pool if t not in galaxy.values()]
    specials = [t for t in unused if PACK.tiles[t].is_anomaly or PACK.tiles[t].wormholes]
    extra = rng.sample(specials, min(1, len(specials)))
    extra += rng.sample([t for t in unused if t not in extra], spare - len(extra))
    fixed = {p: t for p, t in galaxy.items() if p not in opened_pos}
    pool = [galaxy[p] for p in opened_pos] + extra
    return map_problem(PACK, players=players, expansion="pok", measure=measure, fixed=fixed, pool=pool)


@pytest.mark.parametrize(
    ("seed", "players", "weights"),
    [
        (1, 3, Weights()),
        (2, 4, Weights()),
        (3, 6, Weights(share="all")),
        (4, 5, Weights(antimass=True, rift_bonus=False, nebula_exit=0)),
        (5, 3, Weights(distance=(1.0, 0.5, 0.25, 0.1))),
    ],
)
def test_cp_sat_map_equals_brute_force(seed: int, players: int, weights: Weights) -> None:
    """rule: ti4/anomaly-adjacency - the CP-SAT builder's optimum is the brute-force optimum (and its
    home values are the measure's to the unit: solve_map checks that on every answer)."""
    problem = _small(seed, players, weights)
    exact = brute_force_map(PACK, problem)
    sol = solve_map(PACK, problem, time_limit_s=20, workers=1)
    if exact is None:
        assert sol.status == Status.INFEASIBLE
        return
    assert sol.status == Status.OPTIMAL
    assert sol.gap == pytest.approx(exact[0], abs=1e-9)
    assert legal_galaxy(PACK, problem, sol.galaxy)


@pytest.mark.parametrize(("players", "expansion"), [(5, "base"), (6, "pok"), (3, "pok")])
def test_cp_sat_full_map_is_legal_and_beats_a_random_map(players: int, expansion: str) -> None:
    """rule: ti4/deal-system-tiles, rule: ti4/five-player-red-tile - a full build passes the legality
    checker and is at least as even as a random legal map."""
    from games.ti4.mapstring import format_map_string

    problem = map_problem(PACK, players=players, expansion=expansion)
    sol = solve_map(PACK, problem, time_limit_s=1.5, workers=1, seed=players)
    assert sol.status in (Status.OPTIMAL, Status.FEASIBLE)
    assert legal_galaxy(PACK, problem, sol.galaxy)
    cells = [0] * 37
    cells[0] = 18
    for p, t in sol.galaxy.items():
        cells[p] = t
    text = format_map_string(tuple(cells), problem.spaces, {h: 0 for h in problem.homes})
    report = check_string(PACK, text, expansion=expansion)
    assert report.ok and report.players == players, report.violations
    rnd = random_legal_map(PACK, problem, random.Random(0))
    assert sol.gap <= gap_of(PACK, problem, rnd)
    assert 0 <= sol.bound <= sol.gap


def test_hill_climber_baseline_improves() -> None:
    problem = map_problem(PACK, players=3, expansion="base")
    rng = random.Random(2)
    start = gap_of(PACK, problem, random_legal_map(PACK, problem, random.Random(2)))
    _, gap = hill_climb_map(PACK, problem, rng, seconds=0.5)
    assert gap <= start


def test_balanced_map_puzzle_passes_the_checker() -> None:
    """rule: ti4/home-systems - the builder's map string passes the legality checker."""
    _, fn = get_puzzle("ti4.balanced_map")
    res = fn(GAME, new(4, 0), {"expansion": "base"}, SolveLimits(time_limit_s=1.0, workers=1))
    assert res.status in (Status.OPTIMAL, Status.FEASIBLE)
    assert "Tabletop Simulator" in res.explanation and "gap" in res.explanation
    assert res.answer["svg"].startswith("<svg") and res.answer["svg"].rstrip().endswith("</svg>")
    report = check_string(PACK, res.answer["map_string"], expansion="base")
    assert report.ok and report.players == 4, report.violations
    assert res.answer["gap"] == pytest.approx(
        max(res.answer["home_values"]) - min(res.answer["home_values"]), abs=1e-3
    )


def test_balanced_map_finishes_a_setup_in_progress() -> None:
    """rule: ti4/place-system-tiles - from a placement position: the tiles placed stay."""
    from games.ti4.state import PLACE
    from tests.ti4.helpers import play_until

    s = play_until(new(3, 4), PLACE)
    for _ in range(4):
        s = GAME.apply(s, GAME.legal_actions(s)[0])
    _, fn = get_puzzle("ti4.balanced_map")
    res = fn(GAME, s, {}, SolveLimits(time_limit_s=1.0, workers=1))
    assert res.status in (Status.OPTIMAL, Status.FEASIBLE)
    for pl in s.placed:
        assert res.answer["galaxy"][str(pl.pos)] == str(pl.tile)


def test_balanced_map_include_and_infeasible() -> None:
    """rule: ti4/deal-system-tiles - a request the piles cannot meet is named, not crashed on."""
    _, fn = get_puzzle("ti4.balanced_map")
    res = fn(GAME, None, {"players": 6, "expansion": "base", "exclude": [19, 20, 21]}, LIMITS)
    assert res.status == Status.INFEASIBLE and "blue" in res.explanation and "pok" in res.explanation
    res = fn(
        GAME,
        None,
        {"players": 3, "expansion": "base", "include": [43, 26]},
        SolveLimits(time_limit_s=1, workers=1),
    )
    assert res.status in (Status.OPTIMAL, Status.FEASIBLE)
    assert {"43", "26"} <= set(res.answer["galaxy"].values())


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"players": 9}, "params.players"),
        ({"players": "x"}, "params.players"),
        ({"expansion": "xyz"}, "params.expansion"),
        ({"bogus": 1}, "params.bogus"),
        ({"exclude": [999]}, "params.exclude[0]"),
        ({"exclude": "19"}, "params.exclude"),
        ({"weights": {"trait": -1}}, "params.weights.trait"),
        ({"weights": {"nope": 1}}, "params.weights.nope"),
        ({"seed": float("nan")}, "params.seed"),
        ({"from_state": 3}, "params.from_state"),
    ],
)
def test_balanced_map_bad_params(params: dict[str, object], field: str) -> None:
    _, fn = get_puzzle("ti4.balanced_map")
    with pytest.raises(ConfigError) as err:
        fn(GAME, None, params, LIMITS)
    assert err.value.field == field


def test_cp_sat_slices_equal_brute_force() -> None:
    """rule: ti4/deal-system-tiles - two slices from ten tiles: CP-SAT's gap is the brute-force gap."""
    pool = (19, 20, 21, 22, 23, 24, 39, 41, 47, 48)
    for limits in ({}, {"min_resources": 3.0}, {"max_influence": 4.0, "max_wormholes": 0}):
        problem = SliceProblem(count=2, pool=pool, **limits)  # type: ignore[arg-type]
        exact = brute_force_slices(PACK, problem)
        status, slices, gap, _ = solve_slices(PACK, problem, time_limit_s=10, workers=1)
        if exact is None:
            assert status == Status.INFEASIBLE
            continue
        assert status == Status.OPTIMAL
        assert gap == pytest.approx(exact, abs=1e-9)
        assert slices_ok(PACK, problem, slices)


def test_milty_slices_puzzle_feeds_the_draft() -> None:
    """rule: ti4/deal-system-tiles - the slices string plays as the game's milty_slices option."""
    _, fn = get_puzzle("ti4.milty_slices")
    res = fn(
        GAME,
        None,
        {"slices": 7, "expansion": "pok", "min_resources": 3, "min_influence": 3},
        SolveLimits(time_limit_s=3, workers=1),
    )
    assert res.status in (Status.OPTIMAL, Status.FEASIBLE)
    s = new(6, 1, mode="milty", expansion="pok", milty_slices=res.answer["milty_slices"])
    assert len(s.slices) == 7
    end = play_out(s, 1)
    assert end.phase == 6
    res = fn(GAME, None, {"slices": 9, "expansion": "base"}, LIMITS)
    assert res.status == Status.INFEASIBLE
    with pytest.raises(ConfigError) as err:
        fn(GAME, None, {"min_resources": 9, "max_resources": 2}, LIMITS)
    assert err.value.field == "params.min_resources"


def test_check_map_puzzle_names_the_rule() -> None:
    """rule: ti4/anomaly-adjacency - the checker names the broken rule and the tiles."""
    s = play_out(new(6, 3))
    text = GAME.map_string(s)
    _, fn = get_puzzle("ti4.check_map")
    tokens = text.split()
    # put two anomalies side by side in ring 1 where there were none
    tokens[0], tokens[1] = "41", "42"
    bad = " ".join(t for t in tokens)
    res = fn(GAME, None, {"map_string": bad}, LIMITS)
    rules = {v["rule"] for v in res.answer["violations"]}
    assert "ti4/deal-system-tiles" in rules or "ti4/anomaly-adjacency" in rules
    assert "broken rule" in res.explanation
    with pytest.raises(ConfigError) as err:
        fn(GAME, None, {"map_string": "a b c"}, LIMITS)
    assert err.value.field == "params.map_string"
    with pytest.raises(ConfigError):
        fn(GAME, None, {}, LIMITS)


def test_home_values_puzzle_and_scorer() -> None:
    """rule: ti4/home-systems - home values of a map string match the finished setup's score."""
    s = play_out(new(4, 5))
    _, fn = get_puzzle("ti4.home_values")
    text = GAME.map_string(s, home_tiles=True)
    res = fn(GAME, None, {"map_string": text}, LIMITS)
    assert res.status == Status.OPTIMAL and "weakest" in res.explanation
    report = get_scorer("ti4")(GAME, s)
    assert report.final and len(report.seats) == 4
    by_pos = {h["position"]: h["home_value"] for h in res.answer["homes"]}
    for seat in report.seats:
        assert seat.total == pytest.approx(by_pos[s.homes[seat.seat]], abs=1e-3)
    assert min(x.rank for x in report.seats) == 1


def test_ordinary_systems_dealt_anew_never_worse() -> None:
    """rule: ti4/anomaly-adjacency - anomalies and wormholes stay; the ordinary systems are dealt
    anew by CP-SAT: the map stays legal and its gap never grows."""
    from solver.ti4 import solve_ordinary

    problem = map_problem(PACK, players=3, expansion="base")
    start = random_legal_map(PACK, problem, random.Random(5))
    out, gap = solve_ordinary(PACK, problem, start, time_limit_s=0.5)
    assert legal_galaxy(PACK, problem, out)
    assert gap <= gap_of(PACK, problem, start) + 1e-12
    assert gap == pytest.approx(gap_of(PACK, problem, out))
    for p, t in start.items():
        if PACK.tiles[t].is_anomaly or PACK.tiles[t].wormholes:
            assert out[p] == t


@pytest.mark.parametrize("seed", [2, 6])
def test_specialty_request_equals_brute_force(seed: int) -> None:
    """rule: ti4/home-systems - the request "a technology specialty within one jump of every home":
    CP-SAT and brute force agree on the optimum, or on there being none."""
    from dataclasses import replace

    from solver.ti4 import specialties_ok

    problem = replace(_small(seed, 3, Weights()), specialty_within=1)
    exact = brute_force_map(PACK, problem)
    sol = solve_map(PACK, problem, time_limit_s=20, workers=1)
    if exact is None:
        assert sol.status == Status.INFEASIBLE
        return
    assert sol.status == Status.OPTIMAL and sol.gap == pytest.approx(exact[0], abs=1e-9)
    assert specialties_ok(PACK, problem, sol.galaxy)


def test_balanced_map_specialty_request() -> None:
    _, fn = get_puzzle("ti4.balanced_map")
    res = fn(
        GAME,
        None,
        {"players": 3, "expansion": "base", "specialty_within": 2},
        SolveLimits(time_limit_s=1.5, workers=1),
    )
    assert res.status in (Status.OPTIMAL, Status.FEASIBLE)
    assert all(
        h["specialties_within_2_jumps"] >= 1
        for h in fn.__globals__["home_values_puzzle"](
            GAME, None, {"map_string": res.answer["map_string"]}, LIMITS
        ).answer["homes"]
    )


def test_builder_polls_stop() -> None:
    """A stop request ends the build early with the best map so far (legal)."""
    import time

    problem = map_problem(PACK, players=4, expansion="base")
    t0 = time.perf_counter()
    sol = solve_map(PACK, problem, time_limit_s=60, workers=1, stop=lambda: time.perf_counter() - t0 > 0.5)
    assert time.perf_counter() - t0 < 20
    assert sol.status in (Status.OPTIMAL, Status.FEASIBLE)
    assert legal_galaxy(PACK, problem, sol.galaxy)


@pytest.mark.parametrize("seed", [1, 5, 6])
def test_spread_requests_equal_brute_force(seed: int) -> None:
    """rule: ti4/wormhole-adjacency - the spread requests (at most one wormhole and no legendary
    planet counting for each home): CP-SAT and brute force agree on the optimum, or on none."""
    from dataclasses import replace

    from solver.ti4 import spread_ok

    problem = replace(_small(seed, 4, Weights()), max_wormholes_per_home=1, max_legendary_per_home=0)
    exact = brute_force_map(PACK, problem)
    sol = solve_map(PACK, problem, time_limit_s=20, workers=1)
    if exact is None:
        assert sol.status == Status.INFEASIBLE
        return
    assert sol.status == Status.OPTIMAL and sol.gap == pytest.approx(exact[0], abs=1e-9)
    assert spread_ok(PACK, problem, sol.galaxy)
