"""SolverService: Score and Solve through the registry (a fixture scorer/puzzle for pig, plus every
registered game's real scorer)."""

from __future__ import annotations

import json

import grpc
import pytest

from games.core import GameConfig, game_names, get_game
from lictor.v1 import solver_service_pb2 as solver_pb
from solver import core as solver_core
from tests.service.helpers import players_for, record, violations


def test_score(api):
    reply = api.solver.Score(
        solver_pb.ScoreRequest(position=record("pig", actions=("roll", "d5", "hold"))), timeout=10
    )
    assert reply.game == "pig" and not reply.final
    assert reply.seats[0].breakdown[0].category == "banked" and reply.seats[0].breakdown[0].points == 5
    assert sorted(s.rank for s in reply.seats)[0] == 1


def test_solve_generic_and_limits(api):
    request = solver_pb.SolveRequest(
        position=record("pig"),
        generic=solver_pb.GenericPuzzle(kind="pig.points_needed", params_json='{"seat": 1}'),
        limits=solver_pb.SolveLimits(time_limit_s=3),
    )
    reply = api.solver.Solve(request, timeout=2)
    assert reply.status == solver_pb.SOLVE_STATUS_OPTIMAL and reply.objective == 12
    answer = json.loads(reply.answer_json)
    assert answer["seat"] == 1 and answer["time_limit_s"] < 2  # the deadline shortened the limit


def test_solver_bad_inputs(api):
    with pytest.raises(grpc.RpcError) as err:
        api.solver.Solve(solver_pb.SolveRequest(position=record("pig")), timeout=5)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT and violations(err.value)[0][0] == "puzzle"
    request = solver_pb.SolveRequest(
        position=record("pig"), generic=solver_pb.GenericPuzzle(kind="pig.nothing")
    )
    with pytest.raises(grpc.RpcError) as err:
        api.solver.Solve(request, timeout=5)
    assert err.value.code() == grpc.StatusCode.NOT_FOUND
    request = solver_pb.SolveRequest(
        position=record("pig"), generic=solver_pb.GenericPuzzle(kind="pig.points_needed", params_json="[1]")
    )
    with pytest.raises(grpc.RpcError) as err:
        api.solver.Solve(request, timeout=5)
    assert violations(err.value)[0][0] == "generic.params_json"
    request = solver_pb.SolveRequest(
        position=record("pig"), tiberius_best_bid=solver_pb.TiberiusBestBidPuzzle()
    )
    with pytest.raises(grpc.RpcError) as err:
        api.solver.Solve(request, timeout=5)
    assert err.value.code() in (grpc.StatusCode.NOT_FOUND, grpc.StatusCode.INVALID_ARGUMENT)


def _scored_games():
    out = []
    for name in game_names():
        try:
            solver_core.get_scorer(name)
            out.append(name)
        except Exception:
            pass
    return out or [pytest.param("", marks=pytest.mark.skip(reason="no registered game has a scorer yet"))]


@pytest.mark.parametrize("name", _scored_games())
def test_score_every_registered_game(api, name):
    game = get_game(name)
    state = game.new_state(GameConfig(players=players_for(name)), 1)
    reply = api.solver.Score(solver_pb.ScoreRequest(position=record(name)), timeout=60)
    assert reply.game == name and len(reply.seats) == game.num_players(state)
    assert min(s.rank for s in reply.seats) == 1


TIBERIUS = "tiberius" in game_names()


@pytest.mark.skipif(not TIBERIUS, reason="tiberius is not registered")
def test_tiberius_typed_puzzles(api):
    """One typed oneof case per puzzle kind reaches its solver (rule: tiberius/card-phase)."""
    game = get_game("tiberius")
    start = record("tiberius", players=3, seed=2)
    state = game.new_state(GameConfig(players=3), 2)
    bid = api.solver.Solve(
        solver_pb.SolveRequest(position=start, tiberius_best_bid=solver_pb.TiberiusBestBidPuzzle()),
        timeout=60,
    )
    assert bid.kind == "tiberius.best_bid" and bid.status == solver_pb.SOLVE_STATUS_OPTIMAL
    assert json.loads(bid.answer_json)
    elim = solver_pb.SolveRequest(
        position=start, tiberius_elimination=solver_pb.TiberiusEliminationPuzzle(seat=1, max_nodes=50)
    )
    reply = api.solver.Solve(elim, timeout=60)
    assert reply.kind == "tiberius.elimination"
    bad = solver_pb.SolveRequest(
        position=start, tiberius_elimination=solver_pb.TiberiusEliminationPuzzle(seat=7, max_nodes=50)
    )
    with pytest.raises(grpc.RpcError) as err:
        api.solver.Solve(bad, timeout=60)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert violations(err.value)[0][0] == "tiberius_elimination.seat"
    # best_placement needs the cube phase: at the card phase it is refused, naming the rule.
    assert game.to_dict(state)["phase"] == "card"
    place = solver_pb.SolveRequest(
        position=start, tiberius_best_placement=solver_pb.TiberiusBestPlacementPuzzle()
    )
    try:
        api.solver.Solve(place, timeout=60)
    except grpc.RpcError as exc:
        assert exc.code() in (grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.FAILED_PRECONDITION)


TIBERPUNK = "tiberpunk" in game_names()


def _tiberpunk_main_phase(seed: int = 5):
    """A record of a Tiberpunk game played at random to its main phase."""
    import random

    from games.core import CHANCE

    game = get_game("tiberpunk")
    state = game.new_state(GameConfig(players=2), seed)
    rng = random.Random(seed)
    actions = []
    while game.to_dict(state)["phase"] != "main" or game.current_player(state) == CHANCE:
        legal = game.legal_actions(state)
        a = legal[rng.randrange(len(legal))]
        actions.append(game.action_to_text(state, a))
        state = game.apply(state, a)
    return record("tiberpunk", players=2, seed=seed, actions=tuple(actions)), game, state


@pytest.mark.skipif(not TIBERPUNK, reason="tiberpunk is not registered")
def test_tiberpunk_typed_puzzles(api):
    """Quest odds (numbers and the position's quest) and a route plan.

    rule: tiberpunk/stage-1-quests, rule: tiberpunk/movement
    """
    pos, game, _state = _tiberpunk_main_phase()
    numbers = solver_pb.TiberpunkQuestOddsPuzzle(dice=3, need=[5, 6])
    reply = api.solver.Solve(solver_pb.SolveRequest(position=pos, tiberpunk_quest_odds=numbers), timeout=60)
    assert reply.kind == "tiberpunk.quest_odds" and reply.status == solver_pb.SOLVE_STATUS_OPTIMAL
    assert 0 < json.loads(reply.answer_json)["odds"] < 1
    quest = solver_pb.TiberpunkQuestOddsPuzzle(skill="hacking")
    reply = api.solver.Solve(solver_pb.SolveRequest(position=pos, tiberpunk_quest_odds=quest), timeout=60)
    assert 0 <= reply.objective <= 1
    target = game.rules.c.district_ids[0]
    route = solver_pb.TiberpunkRoutePlanPuzzle(mini="character", to=target)
    reply = api.solver.Solve(solver_pb.SolveRequest(position=pos, tiberpunk_route_plan=route), timeout=60)
    assert reply.kind == "tiberpunk.route_plan"
    assert reply.status in (solver_pb.SOLVE_STATUS_OPTIMAL, solver_pb.SOLVE_STATUS_INFEASIBLE)
    bad = solver_pb.TiberpunkRoutePlanPuzzle(to="Atlantis")
    with pytest.raises(grpc.RpcError) as err:
        api.solver.Solve(solver_pb.SolveRequest(position=pos, tiberpunk_route_plan=bad), timeout=60)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert violations(err.value)[0][0].startswith("tiberpunk_route_plan")
    with pytest.raises(grpc.RpcError) as err:
        api.solver.Solve(
            solver_pb.SolveRequest(position=pos, tiberpunk_quest_odds=solver_pb.TiberpunkQuestOddsPuzzle()),
            timeout=60,
        )
    assert violations(err.value)[0][0] == "tiberpunk_quest_odds.skill"


def test_cancelled_solve_stops_the_solver(api, tmp_path):
    """A cancelled Solve call stops its solve (SolveLimits.stop) and frees its slot at once."""
    import time

    marker = tmp_path / "stopped"
    request = solver_pb.SolveRequest(
        position=record("pig"),
        generic=solver_pb.GenericPuzzle(kind="pig.spin", params_json=json.dumps({"marker": str(marker)})),
        limits=solver_pb.SolveLimits(time_limit_s=15),
    )
    call = api.solver.Solve.future(request, timeout=30)
    time.sleep(0.3)
    t0 = time.monotonic()
    call.cancel()
    while not marker.exists() and time.monotonic() - t0 < 3.0:
        time.sleep(0.02)
    assert marker.exists(), "the solve went on after the call was cancelled"
    assert time.monotonic() - t0 < 3.0


def test_cp_sat_stops_when_asked():
    """CP-SAT (solver.tiberius) ends a long search once ``stop()`` is True, well before its time limit."""
    import time

    from ortools.sat.python import cp_model

    from solver.tiberius.placement import solve_stoppable

    m = cp_model.CpModel()  # a hard-ish model: 60 queens maximising a weighted placement
    n = 60
    q = [m.new_int_var(0, n - 1, f"q{i}") for i in range(n)]
    m.add_all_different(q)
    m.add_all_different([q[i] + i for i in range(n)])
    m.add_all_different([q[i] - i for i in range(n)])
    m.maximize(sum((i * 7919 % 97) * q[i] for i in range(n)))
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = 20.0
    solver.parameters.num_workers = 1
    t0 = time.monotonic()
    code = solve_stoppable(solver, m, lambda: time.monotonic() - t0 > 0.3)
    assert time.monotonic() - t0 < 3.0
    assert code in (cp_model.FEASIBLE, cp_model.OPTIMAL, cp_model.UNKNOWN)
