"""AI seats played by a game's own rule-based engines (``Seat.engine``: Cytress's official automa,
a greedy player...) in hosted matches, beside a search seat."""

from __future__ import annotations

import time
from typing import Any

import pytest

from games.core import game_names, get_game
from lictor.v1 import match_service_pb2 as match_pb
from tests.service.helpers import players_for

WITH_ENGINES: list[Any] = [(n, e) for n in game_names() for e in sorted(get_game(n).policies())] or [
    pytest.param("", "", marks=pytest.mark.skip(reason="no game ships an engine"))
]


@pytest.mark.parametrize(("name", "engine"), WITH_ENGINES)
def test_an_engine_seat_plays_a_hosted_match(api, name, engine):
    players = players_for(name)
    seats = [match_pb.Seat(kind=match_pb.SEAT_KIND_AI, engine=engine)]
    seats += [match_pb.Seat(kind=match_pb.SEAT_KIND_AI, level=1)] * (players - 1)
    m = api.matches.CreateMatch(match_pb.CreateMatchRequest(game=name, seats=seats)).match
    assert m.seats[0].engine == engine
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        now = api.matches.GetMatch(match_pb.GetMatchRequest(match_id=m.match_id)).match
        if now.move_number >= 8 or now.status != match_pb.MATCH_STATUS_ACTIVE:
            break
        time.sleep(0.1)
    assert now.status != match_pb.MATCH_STATUS_DAMAGED, now.damage
    assert now.move_number >= 8 or now.status == match_pb.MATCH_STATUS_FINISHED


def test_an_unknown_engine_is_refused_naming_the_seat(api):
    import grpc

    seats = [match_pb.Seat(kind=match_pb.SEAT_KIND_AI, engine="deep-blue")] * 2
    with pytest.raises(grpc.RpcError) as err:
        api.matches.CreateMatch(match_pb.CreateMatchRequest(game="pig", seats=seats))
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "seats[0].engine" in err.value.details()
