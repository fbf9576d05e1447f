"""Tiberpunk puzzles honour the solve's time limit and stop flag: the best answer so far, in time.

rule: tiberpunk/stage-1-quests, rule: tiberpunk/gadget-cards, rule: tiberpunk/movement
"""

from __future__ import annotations

import json
import random
import threading
import time

import grpc
import pytest

from games.core import game_names, get_game
from lictor.v1 import solver_service_pb2 as solver_pb
from solver.core import SolveLimits, Status, get_puzzle

pytestmark = pytest.mark.skipif("tiberpunk" not in game_names(), reason="tiberpunk is not registered")

# An enumeration that takes about a minute to finish: 8 dice, 6 gadgets, 12 rolls.
BIG_NEED = [6, 6, 6, 5, 5]
BIG_GADGETS = [0, 1, 2, 3, 4, 0]
BIG = {"dice": 8, "need": BIG_NEED, "gadgets": BIG_GADGETS, "rolls": 12}


def _tiberpunk_main_phase(seed: int = 5):
    """A record of a Tiberpunk game played at random to its main phase, the game and the state."""
    from games.core import CHANCE, GameConfig
    from tests.service.helpers import record

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


def _stopped() -> SolveLimits:
    flag = threading.Event()
    flag.set()
    return SolveLimits(time_limit_s=60.0, stop=flag.is_set)


def test_quest_odds_out_of_time_answers_feasible_lower_bound():
    """Past its time limit the puzzle answers FEASIBLE with a valid strategy's odds, in time."""
    from solver.tiberpunk import no_gadget_odds

    _, fn = get_puzzle("tiberpunk.quest_odds")
    t0 = time.perf_counter()
    result = fn(get_game("tiberpunk"), None, BIG, SolveLimits(time_limit_s=0.1))
    assert time.perf_counter() - t0 < 1.0
    assert result.status == Status.FEASIBLE and result.answer["exact"] is False
    floor = no_gadget_odds(8, BIG_NEED, rolls=12)
    assert result.objective == pytest.approx(floor) and result.bound == 1.0
    assert "at least" in result.explanation


def test_quest_odds_stop_flag_then_resume_exact():
    """A raised stop flag ends the enumeration at once; asking again finishes it exactly."""
    from solver.tiberpunk import no_gadget_odds, quest_odds

    _, fn = get_puzzle("tiberpunk.quest_odds")
    params = {"dice": 4, "need": [6, 5, 4], "gadgets": ["reroll", "flip", "rotate1"], "rolls": 3}
    stopped = fn(get_game("tiberpunk"), None, params, _stopped())
    assert stopped.status == Status.FEASIBLE
    assert stopped.objective == pytest.approx(no_gadget_odds(4, [6, 5, 4], rolls=3))
    done = fn(get_game("tiberpunk"), None, params, SolveLimits(time_limit_s=60.0))
    assert done.status == Status.OPTIMAL and done.answer["exact"] is True
    exact = quest_odds(4, (4, 5, 6), ("reroll", "flip", "rotate1"), rolls=3)
    assert done.objective == pytest.approx(exact)
    assert done.objective >= stopped.objective


def test_quest_odds_from_a_state_stopped():
    """The position's quest, stopped: per-card odds are still given, the average is a lower bound."""
    _, game, state = _tiberpunk_main_phase()
    _, fn = get_puzzle("tiberpunk.quest_odds")
    result = fn(game, state, {"skill": "offense", "stage": 1}, _stopped())
    exact = fn(game, state, {"skill": "offense", "stage": 1}, SolveLimits(time_limit_s=60.0))
    assert exact.status == Status.OPTIMAL
    assert result.status in (Status.FEASIBLE, Status.OPTIMAL)  # OPTIMAL when every card was cached
    assert result.answer["per_card"].keys() == exact.answer["per_card"].keys()
    assert result.objective <= exact.objective + 1e-12


def test_route_plan_stopped_is_unknown():
    """A route plan stopped before it reached the destination answers UNKNOWN, not a wrong plan."""
    _, game, state = _tiberpunk_main_phase()
    _, fn = get_puzzle("tiberpunk.route_plan")
    target = game.rules.c.district_ids[0]
    result = fn(game, state, {"mini": "character", "to": target}, _stopped())
    assert result.status == Status.UNKNOWN and result.answer["exact"] is False
    full = fn(game, state, {"mini": "character", "to": target}, SolveLimits())
    assert full.status in (Status.OPTIMAL, Status.INFEASIBLE)


def test_solve_rpc_deadline_gives_best_so_far(api):
    """Over gRPC: a 0.5 s deadline on a minute-long enumeration answers FEASIBLE in time."""
    pos, _, _ = _tiberpunk_main_phase()
    puzzle = solver_pb.TiberpunkQuestOddsPuzzle(dice=8, need=BIG_NEED, gadgets=BIG_GADGETS, rolls=12)
    request = solver_pb.SolveRequest(position=pos, tiberpunk_quest_odds=puzzle)
    t0 = time.perf_counter()
    try:
        reply = api.solver.Solve(request, timeout=0.5)
    except grpc.RpcError as exc:  # pragma: no cover - the failure this test is about
        pytest.fail(f"no best-so-far answer: {exc.code().name}")
    assert time.perf_counter() - t0 < 0.5
    assert reply.status == solver_pb.SOLVE_STATUS_FEASIBLE
    assert json.loads(reply.answer_json)["exact"] is False
    request.limits.time_limit_s = 0.1
    reply = api.solver.Solve(request, timeout=30)
    assert reply.status == solver_pb.SOLVE_STATUS_FEASIBLE and reply.wall_s < 1.0


# ---------------------------------------------------------------- parameters (issue 16)

BAD_QUEST_ODDS = [
    # (params, the field named) — today each was answered (often "optimal") or raised a TypeError
    ({"dice": 2, "need": [6], "gadgets": [9]}, "params.gadgets"),  # a gadget that does not exist
    ({"dice": 2, "need": [6], "gadgets": [-1]}, "params.gadgets"),  # a negative gadget
    ({"dice": 2, "need": [6], "gadgets": ["zz"]}, "params.gadgets"),
    ({"dice": 2, "need": [6], "rolls": -5}, "params.rolls"),
    ({"dice": 2, "need": [6], "per_roll": -1}, "params.per_roll"),
    ({"dice": 2, "need": [6], "dice_per_gadget": 3}, "params.dice_per_gadget"),
    ({"dice": -1, "need": [6]}, "params.dice"),
    ({"dice": float("nan"), "need": [6]}, "params.dice"),
    ({"dice": float("inf"), "need": [6]}, "params.dice"),
    ({"dice": 2, "need": [6], "rolls": 10**30}, "params.rolls"),
    ({"dice": True, "need": [6]}, "params.dice"),
    ({"dice": 2, "need": [7]}, "params.need"),
    ({"dice": 2, "need": []}, "params.need"),
    ({"dice": 2, "need": "6"}, "params.need"),
    ({"dice": 2, "need": [6], "zz": 1}, "params.zz"),
    ({"dice": 2, "need": [6], "skill": "guile"}, "params.skill"),
    ({"skill": "guile", "stage": 2}, "params.stage"),  # Stage II rolls no dice
    ({"skill": "guile", "stage": 4}, "params.stage"),
    ({"skill": "guile", "mini": "zz"}, "params.mini"),
    ({"skill": "charm"}, "params.skill"),
    ({"stage": 1}, "params.skill"),
    ([1, 2], "params"),
]


@pytest.mark.parametrize(("params", "field"), BAD_QUEST_ODDS)
def test_quest_odds_refuses_bad_params(params, field):
    """rule: tiberpunk/gadget-cards, rule: tiberpunk/stage-1-quests — every bad parameter is refused
    with a LictorError naming ``params.<name>`` and saying what is allowed."""
    from games.errors import LictorError

    _, game, state = _tiberpunk_main_phase()
    _, fn = get_puzzle("tiberpunk.quest_odds")
    with pytest.raises(LictorError) as err:
        fn(game, state, params, SolveLimits(time_limit_s=5.0))
    assert err.value.field == field, err.value
    assert any(
        word in err.value.message for word in ("must", "one of", "at most", "takes", "not both", "name")
    )


BAD_ROUTE_PLANS = [
    ({"to": "XIII"}, "params.to"),
    ({"to": 4}, "params.to"),
    ({}, "params.to"),
    ({"to": "IV", "mini": "zz"}, "params.mini"),
    ({"to": "IV", "coins": -1}, "params.coins"),
    ({"to": "IV", "coins": float("nan")}, "params.coins"),
    ({"to": "IV", "coins": 10**30}, "params.coins"),
    ({"to": "IV", "via": "air"}, "params.via"),
]


@pytest.mark.parametrize(("params", "field"), BAD_ROUTE_PLANS)
def test_route_plan_refuses_bad_params(params, field):
    """rule: tiberpunk/movement — bad route-plan parameters are refused naming ``params.<name>``."""
    from games.errors import LictorError

    _, game, state = _tiberpunk_main_phase()
    _, fn = get_puzzle("tiberpunk.route_plan")
    with pytest.raises(LictorError) as err:
        fn(game, state, params, SolveLimits(time_limit_s=5.0))
    assert err.value.field == field, err.value


def test_good_params_still_answer():
    """rule: tiberpunk/gadget-cards — gadgets by name or index, integral floats: the same exact odds."""
    from solver.tiberpunk import quest_odds

    _, fn = get_puzzle("tiberpunk.quest_odds")
    game = get_game("tiberpunk")
    by_name = fn(game, None, {"dice": 2, "need": [6], "gadgets": ["reroll"]}, SolveLimits())
    by_index = fn(game, None, {"dice": 2.0, "need": [6], "gadgets": [0]}, SolveLimits())
    assert by_name.status == Status.OPTIMAL and by_name.objective == pytest.approx(91 / 216)
    assert by_index.objective == by_name.objective == pytest.approx(quest_odds(2, [6], ["reroll"]))


def test_puzzles_are_registered_with_summary_and_schema():
    """rule: tiberpunk/movement — both kinds carry a one-sentence summary and a JSON Schema of their
    parameters (draft 2020-12) with a description per field."""
    from jsonschema import Draft202012Validator

    from solver.core import get_puzzle_spec

    for kind in ("tiberpunk.quest_odds", "tiberpunk.route_plan"):
        spec = get_puzzle_spec(kind)
        assert spec.summary.endswith(".") and len(spec.summary) > 40
        Draft202012Validator.check_schema(spec.params_schema)
        props = spec.params_schema["properties"]
        assert props and all(p.get("description") for p in props.values())
    validator = Draft202012Validator(get_puzzle_spec("tiberpunk.quest_odds").params_schema)
    assert validator.is_valid({"dice": 2, "need": [6], "gadgets": ["flip"], "rolls": 2})
    assert not validator.is_valid({"dice": 2, "need": [6], "gadgets": ["zz"]})
