"""The Cytress solvers: the scorer, tube control and best placement (CP-SAT equal to brute force)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.core.protocol import TERMINAL
from games.core.records import replace
from games.cytress.state import NOBODY, OVER, CytressState
from games.errors import ConfigError, InvalidStateError
from solver.core import SolveLimits, Status, get_puzzle_spec
from solver.cytress import (
    best_placement,
    best_placement_enumeration,
    score,
    score_puzzle,
    tube_control,
    tube_control_enumeration,
)
from solver.cytress.placement import place_instance
from solver.cytress.tubes import tube_control_cpsat, tube_instance
from tests.cytress.helpers import GAME, play_until, start
from tests.cytress.test_scoring import green_example

LIMITS = SolveLimits(time_limit_s=10.0, workers=1)


def _positions(count: int, players: int, seed: int) -> list[CytressState]:
    """Positions along random games (rounds 2+), with some tubes on the board."""
    rng = random.Random(seed)
    out: list[CytressState] = []
    s = start(players, seed)
    while len(out) < count:
        if GAME.current_player(s) == TERMINAL:
            s = start(players, rng.randrange(1000))
            continue
        if s.round >= 2 and any(s.tube) and rng.random() < 0.08:
            out.append(s)
        s = GAME.apply(s, rng.choice(list(GAME.legal_actions(s))))
    return out


def test_scorer_reports_the_green_example() -> None:
    """rule: cytress/scoring-example - the scorer gives Green 111 with the rulebook's categories."""
    report = score(GAME, green_example())
    green = report.seats[0]
    assert green.total == 111
    points = {line.category: line.points for line in green.breakdown}
    assert points["Crews on Stratos"] == 65
    assert points["Stratos level 2 ruled"] + points["Stratos level 3 ruled"] == 24
    assert points["Bounties collected"] == 10 and points["Waste tubes controlled"] == 12


def test_score_puzzle_per_tube() -> None:
    """rule: cytress/score-waste-tubes - per tube: controller and by how many crews."""
    r = score_puzzle(GAME, green_example(), {}, LIMITS)
    heights = {row["height"]: row for row in r.answer["tubes"]}
    assert heights[3]["controller"] == "seat 0" and heights[3]["by"] == 1
    assert heights[1]["controller"] == "seat 1" and heights[1]["by"] == 1
    assert "PRESTIGE" in r.explanation


def test_tube_control_cpsat_equals_enumeration() -> None:
    """rule: cytress/score-waste-tubes - CP-SAT's fewest crews equal the exhaustive game over
    every placement and every rival answer (random instances)."""
    rng = random.Random(5)
    checked = 0
    for s in _positions(40, 3, 11):
        for h in [t for t, x in enumerate(s.tube) if x][:3]:
            seat = rng.randrange(3)
            rivals = [rng.randrange(0, 4) for _ in range(3)]
            params = {
                "hex": s.map.layout.labels[h],
                "seat": seat,
                "rival_crews": rivals,
                "crews": rng.randrange(0, 5),
            }
            _, inst = tube_instance(GAME, s, params)
            brute = tube_control_enumeration(inst)
            status, k, chosen = tube_control_cpsat(inst, LIMITS)
            if brute is None:
                assert status == Status.INFEASIBLE
            else:
                assert status == Status.OPTIMAL and k == brute[0] and len(chosen) == k
                assert set(chosen) <= set(inst.empty)
            checked += 1
    assert checked >= 60


def test_tube_control_answer_and_errors() -> None:
    """rule: cytress/waste-tubes - a named hex must hold a tube; bad params name the field."""
    s = green_example()
    tube = next(h for h, t in enumerate(s.tube) if t == 1)
    label = s.map.layout.labels[tube]
    r = tube_control(GAME, s, {"hex": label, "seat": 0, "crews": 5, "rival_crews": [0, 1]}, LIMITS)
    assert r.status == Status.INFEASIBLE  # every hex around it is taken: Blue keeps 2 against 1
    assert label in r.explanation and r.answer["possible"] is False
    empty = next(h for h, t in enumerate(s.tube) if not t and s.crew[h] == NOBODY)
    bad: list[tuple[dict[str, Any], str]] = [
        ({"hex": s.map.layout.labels[empty]}, "params.hex"),
        ({"hex": "Z99"}, "params.hex"),
        ({"seat": 7}, "params.seat"),
        ({"seat": True}, "params.seat"),
        ({"crews": float("nan")}, "params.crews"),
        ({"rival_crews": [1]}, "params.rival_crews"),
        ({"rival_crews": [1, -1]}, "params.rival_crews[1]"),
        ({"method": "magic"}, "params.method"),
        ({"bogus": 1}, "params.bogus"),
    ]
    for params, field in bad:
        with pytest.raises(ConfigError) as exc:
            tube_control(GAME, s, params, LIMITS)
        assert exc.value.field == field


def _small_instances(count: int) -> list[tuple[CytressState, dict[str, Any]]]:
    rng = random.Random(7)
    out = []
    for players in (2, 3, 4, 1):
        for s in _positions(count // 4 // 3 + 1, players, players * 13):
            empty = [h for h in range(len(s.crew)) if s.crew[h] == NOBODY and not s.tube[h]]
            for _ in range(3):
                seat = rng.randrange(s.num_players)
                # favour hexes near tubes, where the answer is interesting
                near = [h for h in empty if any(s.tube[n] for n in s.map.layout.adjacent[h])]
                pool = near + rng.sample(empty, min(2, len(empty)))
                hexes = sorted(set(rng.sample(pool, min(len(pool), rng.randrange(1, 5)))))
                crews = min(s.rebels[seat].unused, rng.randrange(0, 3))
                params = {
                    "seat": seat,
                    "crews": crews,
                    "tubes": rng.randrange(0, 2),
                    "hexes": [s.map.layout.labels[h] for h in hexes],
                }
                out.append((s, params))
    return out[:count]


_INSTANCES: list[tuple[CytressState, dict[str, Any]]] = []


@pytest.mark.parametrize("part", [0, 1, 2])
def test_best_placement_cpsat_equals_brute_force_300(part: int) -> None:
    """rule: cytress/score-stratos-rewards, cytress/score-waste-tubes - CP-SAT's best margin equals
    the brute force's (the engine's own scoring of every placement) on 300 small instances (three
    parts of 100)."""
    if not _INSTANCES:
        _INSTANCES.extend(_small_instances(300))
    assert len(_INSTANCES) == 300
    for s, params in _INSTANCES[100 * part : 100 * part + 100]:
        _assert_cpsat_equals_brute_force(s, params)


def _assert_cpsat_equals_brute_force(s: CytressState, params: dict[str, Any]) -> None:
    """CP-SAT proves the best margin of ``params``'s placement, and it is brute force's."""
    found = best_placement_enumeration(GAME, s, place_instance(s, params))
    assert found is not None
    r = best_placement(GAME, s, {**params, "method": "cp-sat"}, LIMITS)
    assert r.status == Status.OPTIMAL, params
    assert r.objective == found[0], (params, r.answer, found)


def test_best_placement_two_tubes_equals_brute_force() -> None:
    """rule: cytress/waste-tubes, cytress/score-waste-tubes - with two tubes to drop (the model's
    general form: a boolean per host and height) CP-SAT's best margin still equals the brute
    force's."""
    if not _INSTANCES:
        _INSTANCES.extend(_small_instances(300))
    for s, params in _INSTANCES[::10]:
        _assert_cpsat_equals_brute_force(s, {**params, "crews": min(params["crews"], 1), "tubes": 2})


def test_best_placement_answer_is_actionable() -> None:
    """The answer names hexes and heights, and its margin is what the scoring gives."""
    s = _positions(1, 3, 21)[0]
    r = best_placement(GAME, s, {"crews": 1, "tubes": 1}, LIMITS)
    assert r.status == Status.OPTIMAL and "margin" in r.explanation
    assert r.answer["margin"] >= r.answer["margin_now"]
    with pytest.raises(ConfigError) as exc:
        best_placement(GAME, s, {"crews": 13}, LIMITS)
    assert exc.value.field == "params.crews"
    with pytest.raises(ConfigError) as exc:
        best_placement(GAME, s, {"hexes": ["A1", 3]}, LIMITS)
    assert exc.value.field.startswith("params.hexes")
    with pytest.raises(InvalidStateError):
        best_placement(GAME, "not a state", {}, LIMITS)


def test_puzzles_registered_with_schemas() -> None:
    """The three puzzle kinds are registered with summaries and documented parameters."""
    for kind in ("cytress.score", "cytress.tube_control", "cytress.best_placement"):
        spec = get_puzzle_spec(kind)
        assert spec.summary and spec.params_schema["type"] == "object"
        for prop in spec.params_schema["properties"].values():
            assert prop.get("description")


def test_score_is_final_at_the_end() -> None:
    """rule: cytress/core-concepts - the report is final once the game is over; places by PRESTIGE."""
    end = play_until(start(3, 4), lambda x: x.phase == OVER)
    report = score(GAME, end)
    assert report.final
    totals = GAME.scores(end)
    for seat in report.seats:
        assert seat.total == totals[seat.seat]
        assert seat.rank == 1 + sum(1 for t in totals if t > seat.total)
    solo = play_until(start(1, 4), lambda x: x.phase == OVER)
    assert score(GAME, replace(solo)).seats[0].rank in (1, 2)


_JUNK = [
    None,
    True,
    -1,
    0,
    1,
    2,
    99,
    10**30,
    1.5,
    float("nan"),
    float("inf"),
    "",
    "A1",
    "Z9",
    [],
    ["A1"],
    [1, 2],
    {},
    {"a": 1},
]


def test_solver_params_fuzz_only_config_errors() -> None:
    """Any parameter value is answered or rejected with a ConfigError naming params.<name>."""
    rng = random.Random(3)
    states = _positions(3, 3, 5) + _positions(1, 1, 6)
    kinds = {
        tube_control: ["hex", "seat", "crews", "rival_crews", "method"],
        best_placement: ["seat", "crews", "tubes", "hexes", "method"],
        score_puzzle: ["anything"],
    }
    quick = SolveLimits(time_limit_s=2.0, workers=1)
    for _ in range(120):
        s = rng.choice(states)
        fn = rng.choice(list(kinds))
        names = kinds[fn]
        params = {k: rng.choice(_JUNK) for k in rng.sample(names, min(len(names), rng.randrange(1, 3)))}
        if "method" in params:
            params["method"] = "cp-sat"
        crews = params.get("crews")
        if fn is best_placement and isinstance(crews, int) and not isinstance(crews, bool):
            params["crews"] = min(crews, 2)
        try:
            fn(GAME, s, params, quick)
        except ConfigError as exc:
            assert exc.field.startswith("params")
        except InvalidStateError as exc:
            assert s.owners >= 2 or exc.field
