"""Digits that are not ASCII ("³", "①", "𝟗") in notation and puzzle parameters are a caller's
mistake named by its field, never INTERNAL (issue 27: the 50,000-request fuzz found them)."""

from __future__ import annotations

import json

import grpc
import pytest

from games.core.text import is_digits, is_integer
from lictor.v1 import game_service_pb2 as game_pb
from lictor.v1 import position_pb2 as pos_pb
from lictor.v1 import solver_service_pb2 as solver_pb
from tests.service.helpers import record

ODD = ["³", "①", "𝟗", "٣"]


def test_only_ascii_digits_are_digits() -> None:
    assert is_digits("042") and is_integer("-7") and is_integer("12")
    for odd in ODD:
        assert odd.isdigit() or odd.isnumeric()
        assert not is_digits(odd) and not is_integer(odd) and not is_integer("-" + odd)
    assert not is_digits("") and not is_integer("-")


@pytest.mark.parametrize("odd", ODD)
def test_odd_digits_in_notation_are_invalid_arguments(api, odd: str) -> None:
    for game, text in (("tiberius", f"bid {odd}"), ("tiberpunk", f"dice {odd}")):
        for call, request in (
            (
                api.games.ApplyAction,
                game_pb.ApplyActionRequest(position=record(game), action=pos_pb.Action(text=text)),
            ),
            (
                api.games.DescribeAction,
                game_pb.DescribeActionRequest(position=record(game), action=pos_pb.Action(text=text)),
            ),
        ):
            with pytest.raises(grpc.RpcError) as err:
                call(request, timeout=30)
            assert err.value.code() in (grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.FAILED_PRECONDITION)


@pytest.mark.parametrize(
    ("game", "kind", "params"),
    [
        ("tiberius", "tiberius.elimination", {"max_nodes": "³"}),
        ("tiberius", "tiberius.best_bid", {"samples": "①"}),
        ("tiberpunk", "tiberpunk.route_plan", {"to": "IV", "coins": "³"}),
        ("tiberpunk", "tiberpunk.quest_odds", {"dice": "𝟗", "need": [1]}),
    ],
)
def test_odd_digits_in_puzzle_parameters_are_invalid_arguments(api, game, kind, params) -> None:
    request = solver_pb.SolveRequest(
        position=record(game), generic=solver_pb.GenericPuzzle(kind=kind, params_json=json.dumps(params))
    )
    with pytest.raises(grpc.RpcError) as err:
        api.solver.Solve(request, timeout=30)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT, err.value.details()
