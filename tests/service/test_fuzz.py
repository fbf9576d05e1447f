"""Hostile requests against a real server (issue 16): every RPC, every registered game, no INTERNAL,
no UNKNOWN, no hang. ``make bench`` runs a larger round (bench/service.py)."""

from __future__ import annotations

import grpc
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lictor.v1 import match_service_pb2 as match_pb
from service.fuzz import BAD_STATUSES, FuzzResult, corpus, methods, request, send
from service.limits import Limits
from service.server import create_server

METHODS = methods()
PER_EXAMPLE = 8
EXAMPLES = 130  # 130 x 8 = 1,040 requests


@pytest.fixture(scope="module")
def fuzz_server(tmp_path_factory):
    limits = Limits(max_concurrent_searches=2, ai_workers=1, default_search_s=0.05, max_search_s=1.0)
    srv, port = create_server("127.0.0.1:0", db_path=tmp_path_factory.mktemp("fuzz") / "f.db", limits=limits)
    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    c = corpus(seed=3, positions_per_game=3)
    stub = channel.unary_unary(
        "/lictor.v1.MatchService/CreateMatch",
        request_serializer=match_pb.CreateMatchRequest.SerializeToString,
        response_deserializer=match_pb.CreateMatchResponse.FromString,
    )
    ai = match_pb.Seat(kind=match_pb.SEAT_KIND_AI)
    human = match_pb.Seat(kind=match_pb.SEAT_KIND_HUMAN)
    for name in c.games:
        players = max(2, min(3, _min_players(name)))
        seats = [human, *([ai] * (players - 1))]
        c.match_ids.append(stub(match_pb.CreateMatchRequest(game=name, seats=seats)).match.match_id)
    result = FuzzResult()
    yield channel, c, result
    channel.close()
    srv.stop(0).wait(10)
    srv.close()
    print(f"fuzz: {result.total} requests, by status {dict(result.counts.most_common())}")
    assert result.total >= EXAMPLES * PER_EXAMPLE, result.total


def _min_players(name: str) -> int:
    from games.core import get_game

    return get_game(name).info.min_players


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)
@given(data=st.data())
def test_no_request_gets_internal_unknown_or_a_hang(fuzz_server, data):
    channel, c, result = fuzz_server
    for _ in range(PER_EXAMPLE):
        method = data.draw(st.sampled_from(METHODS))
        msg = data.draw(request(method, c))
        code = send(channel, method, msg, result, timeout=8.0, stream_timeout=1.5)
        assert code not in BAD_STATUSES, "\n".join(result.bad)


def test_every_rpc_is_fuzzed():
    names = {m.path.rsplit("/", 1)[1] for m in METHODS}
    assert {"ListGames", "ApplyAction", "Hint", "Solve", "CreateMatch", "WatchMatch", "Echo"} <= names
