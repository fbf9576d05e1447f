"""One implementation, two transports: every RPC of lictor.v1 answers the same request the same over
gRPC and over the HTTP port (the Connect protocol, binary and JSON, and gRPC-Web).

Both transports call the same handler objects (service.rpc); these tests hold that to the wire: the
same request sent over gRPC and over HTTP gets the same message back (or the same status, message
and details). What the server draws at random (a hosted match's id, seed and so its deals and dice,
its creation time) and what a clock measures (elapsed seconds) are cleared before comparing.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from lictor.v1 import advisor_service_pb2 as advisor_pb
from lictor.v1 import diagnostics_service_pb2 as diag_pb
from lictor.v1 import game_service_pb2 as game_pb
from lictor.v1 import match_service_pb2 as match_pb
from lictor.v1 import position_pb2 as pos_pb
from lictor.v1 import solver_service_pb2 as solver_pb
from tests.service.helpers import record
from tests.service.http_helpers import HTTP_TRANSPORTS, Api, CallFailedError, every_rpc, http_beside

CLOCKS = {"elapsed_s", "wall_s", "created_at"}
"""Fields a clock fills."""
DRAWN = {"match_id", "seed_commitment", "position", "summary", "seed", "returns", "description", "action"}
"""Fields of a hosted match the server's random seed decides (cleared only where a case says so)."""


@pytest.fixture(scope="module")
def http_port(server) -> Iterator[int]:
    with http_beside(server[0]) as port:
        yield port


@pytest.fixture(scope="module")
def grpc_api(api) -> Api:
    return Api("grpc", stubs=api, http_port=0)


@pytest.fixture(scope="module", params=HTTP_TRANSPORTS)
def web(request, http_port) -> Iterator[Api]:
    client = Api(request.param, stubs=None, http_port=http_port)
    yield client
    client.close()


def cleared(msg: Any, names: set[str]) -> Any:
    """A copy of ``msg`` with every field named in ``names`` cleared, at any depth."""
    out = type(msg)()
    out.CopyFrom(msg)
    _clear(out, names)
    return out


def _clear(msg: Any, names: set[str]) -> None:
    for fd, value in list(msg.ListFields()):
        if fd.name in names:
            msg.ClearField(fd.name)
        elif fd.message_type is not None and not fd.message_type.GetOptions().map_entry:
            for item in value if fd.is_repeated else [value]:
                _clear(item, names)


def answers(api: Api, service: str, method: str, request: Any) -> Any:
    """The reply, or the CallFailedError, of one call."""
    try:
        return api.call(service, method, request, timeout=60)
    except CallFailedError as failure:
        return failure


def same(grpc_api: Api, web: Api, service: str, method: str, request: Any, *, drop: set[str] = CLOCKS) -> Any:
    """Send ``request`` over both; assert the answers are equal (``drop`` cleared); return gRPC's."""
    a, b = answers(grpc_api, service, method, request), answers(web, service, method, request)
    if isinstance(a, CallFailedError) or isinstance(b, CallFailedError):
        assert a == b, f"{method}: {a!r} over gRPC, {b!r} over {web.transport}"
        return a
    if isinstance(a, list):
        a, b = [cleared(m, drop) for m in a], [cleared(m, drop) for m in b]
    else:
        a, b = cleared(a, drop), cleared(b, drop)
    assert a == b, f"{method} answers differently over {web.transport}"
    return a


def _finished(grpc_api: Api, match_id: str) -> match_pb.Match:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        m: match_pb.Match = grpc_api.call(
            "MatchService", "GetMatch", match_pb.GetMatchRequest(match_id=match_id)
        ).match
        if m.status == match_pb.MATCH_STATUS_FINISHED:
            return m
        time.sleep(0.1)
    raise AssertionError("the AI match did not finish")


TIBERIUS = record("tiberius", players=2, seed=7)
PIG = record("pig", players=2, seed=3)
SEARCH = advisor_pb.SearchBudget(simulations=40)

# (service, method) -> the requests sent (each must answer the same over both transports).
CASES: dict[tuple[str, str], Callable[[], list[Any]]] = {
    ("GameService", "ListGames"): lambda: [game_pb.ListGamesRequest()],
    ("GameService", "NewGame"): lambda: [
        game_pb.NewGameRequest(game="tiberius", setup=pos_pb.GameSetup(players=3, seed=7)),
        game_pb.NewGameRequest(game="nope"),
    ],
    ("GameService", "GetLegalActions"): lambda: [
        game_pb.GetLegalActionsRequest(position=TIBERIUS),
        game_pb.GetLegalActionsRequest(position=record("tiberius", actions=("fly",))),
    ],
    ("GameService", "ApplyAction"): lambda: [
        game_pb.ApplyActionRequest(
            position=PIG, action=pos_pb.Action(text="roll"), resolve_chance=True, chance_seed=5
        ),
        game_pb.ApplyActionRequest(position=TIBERIUS, action=pos_pb.Action(text="bid 99")),
    ],
    ("GameService", "ValidateState"): lambda: [
        game_pb.ValidateStateRequest(position=TIBERIUS),
        game_pb.ValidateStateRequest(position=pos_pb.Position(game="tiberius", state_json="{}")),
    ],
    ("GameService", "GetContent"): lambda: [game_pb.GetContentRequest(game="tiberpunk")],
    ("GameService", "Describe"): lambda: [
        game_pb.DescribeRequest(
            position=TIBERIUS, viewer=game_pb.Viewer(role=game_pb.VIEWER_ROLE_SEAT, seat=1), width=60
        )
    ],
    ("GameService", "Render"): lambda: [
        game_pb.RenderRequest(position=TIBERIUS, viewer=game_pb.Viewer(role=game_pb.VIEWER_ROLE_SEAT, seat=0))
    ],
    ("GameService", "DescribeAction"): lambda: [
        game_pb.DescribeActionRequest(position=TIBERIUS, action=pos_pb.Action(text="bid 3"))
    ],
    ("GameService", "GetSchema"): lambda: [game_pb.GetSchemaRequest(game="cytress")],
    ("AdvisorService", "SuggestAction"): lambda: [
        advisor_pb.SuggestActionRequest(position=TIBERIUS, budget=SEARCH, seed=1),
        advisor_pb.SuggestActionRequest(position=TIBERIUS, level=11),
    ],
    ("AdvisorService", "Hint"): lambda: [advisor_pb.HintRequest(position=TIBERIUS, budget=SEARCH, seed=1)],
    ("SolverService", "Score"): lambda: [solver_pb.ScoreRequest(position=TIBERIUS)],
    ("SolverService", "Solve"): lambda: [
        solver_pb.SolveRequest(
            position=PIG, generic=solver_pb.GenericPuzzle(kind="pig.points_needed", params_json='{"seat": 1}')
        ),
        solver_pb.SolveRequest(position=PIG, generic=solver_pb.GenericPuzzle(kind="pig.nothing")),
    ],
    ("DiagnosticsService", "Echo"): lambda: [diag_pb.EchoRequest(payload=b"ping")],
}


def test_every_rpc_has_a_case():
    covered = {*CASES, *STREAMS, *MATCH_CASES}
    missing = [(s, m) for s, m, _ in every_rpc() if (s, m) not in covered]
    assert not missing, f"RPCs without a parity case: {missing}"


@pytest.mark.parametrize("case", sorted(CASES), ids=lambda c: f"{c[0]}.{c[1]}")
def test_the_same_request_answers_the_same(grpc_api, web, case):
    for request in CASES[case]():
        same(grpc_api, web, case[0], case[1], request)


def _final(reports: list[Any]) -> Any:
    assert reports and reports[-1].analysis.final
    return reports[-1]


def test_analyze_streams_the_same_final_report(grpc_api, web):
    request = advisor_pb.AnalyzeRequest(position=TIBERIUS, budget=SEARCH, seed=1, report_every_ms=20)
    a = grpc_api.call("AdvisorService", "Analyze", request, timeout=60)
    b = web.call("AdvisorService", "Analyze", request, timeout=60)
    assert cleared(_final(a), CLOCKS) == cleared(_final(b), CLOCKS)
    assert all(not r.analysis.final for r in b[:-1])
    # a bad request fails the same way before any report
    bad = advisor_pb.AnalyzeRequest(position=TIBERIUS, budget=advisor_pb.SearchBudget(simulations=-1))
    same(grpc_api, web, "AdvisorService", "Analyze", bad)


def test_watch_match_streams_the_same_events(grpc_api, web):
    seats = [match_pb.Seat(kind=match_pb.SEAT_KIND_AI, level=1)] * 2
    created = grpc_api.call(
        "MatchService", "CreateMatch", match_pb.CreateMatchRequest(game="pig", seats=seats, seed=11)
    )
    _finished(grpc_api, created.match.match_id)
    request = match_pb.WatchMatchRequest(match_id=created.match.match_id)
    events = same(grpc_api, web, "MatchService", "WatchMatch", request, drop=set())
    assert events[-1].event.kind == pos_pb.EVENT_KIND_GAME_OVER
    same(grpc_api, web, "MatchService", "WatchMatch", match_pb.WatchMatchRequest(match_id="nope"))


def test_review_streams_the_same_reports(grpc_api, web):
    """A record reviewed over both transports: the same report per move and the same last report."""
    game = record("pig", players=2, seed=3, actions=("roll", "d6", "roll", "d2", "hold", "roll", "d1"))
    request = advisor_pb.ReviewRequest(position=game, budget=SEARCH, seed=1)
    reports = same(grpc_api, web, "AdvisorService", "Review", request)
    assert len(reports) == 8 and reports[-1].final
    same(grpc_api, web, "AdvisorService", "Review", advisor_pb.ReviewRequest(position=TIBERIUS, worst=99))


STREAMS = {("AdvisorService", "Analyze"), ("AdvisorService", "Review"), ("MatchService", "WatchMatch")}
"""Server streams: their own tests above."""


def test_matches_answer_the_same(grpc_api, web):
    """CreateMatch, GetMatch, ListMatches, SubmitAction and ResignMatch."""
    ai = [match_pb.Seat(kind=match_pb.SEAT_KIND_AI, level=1)] * 2
    # An AI match with the client's seed plays the same whichever transport created it.
    request = match_pb.CreateMatchRequest(game="pig", seats=ai, seed=11)
    a = grpc_api.call("MatchService", "CreateMatch", request).match
    b = web.call("MatchService", "CreateMatch", request).match
    keep = {"game", "seats", "setup", "view", "seat_secrets", "seed_revealed"}
    assert {f.name: v for f, v in a.ListFields() if f.name in keep} == {
        f.name: v for f, v in b.ListFields() if f.name in keep
    }
    for m in (a, b):
        _finished(grpc_api, m.match_id)
    ids = {"match_id", "seed_commitment", "created_at"}
    assert cleared(_finished(grpc_api, a.match_id), ids) == cleared(_finished(grpc_api, b.match_id), ids)
    # Reading one match answers the same.
    for req in (
        match_pb.GetMatchRequest(match_id=b.match_id),
        match_pb.GetMatchRequest(match_id=b.match_id, viewer_seat=1),
        match_pb.GetMatchRequest(match_id="nope"),
    ):
        same(grpc_api, web, "MatchService", "GetMatch", req, drop=set())
    same(grpc_api, web, "MatchService", "ListMatches", match_pb.ListMatchesRequest(page_size=2), drop=set())
    same(grpc_api, web, "MatchService", "ListMatches", match_pb.ListMatchesRequest(page_token="x"))
    # A human seat's match: the same moves and refusals; the server's seed makes the dice differ.
    human = [match_pb.Seat(kind=match_pb.SEAT_KIND_HUMAN), match_pb.Seat(kind=match_pb.SEAT_KIND_HUMAN)]
    request = match_pb.CreateMatchRequest(game="pig", seats=human, issue_seat_secrets=False)
    replies = []
    for api in (grpc_api, web):
        created = api.call("MatchService", "CreateMatch", request).match
        move = match_pb.SubmitActionRequest(
            match_id=created.match_id, seat=0, expected_move_number=0, action=pos_pb.Action(text="hold")
        )
        replies.append(api.call("MatchService", "SubmitAction", move))
        stale = answers(api, "MatchService", "SubmitAction", move)
        wrong = answers(
            api,
            "MatchService",
            "SubmitAction",
            match_pb.SubmitActionRequest(
                match_id=created.match_id, seat=0, expected_move_number=1, action=pos_pb.Action(text="hold")
            ),
        )
        resigned = api.call(
            "MatchService", "ResignMatch", match_pb.ResignMatchRequest(match_id=created.match_id, seat=1)
        )
        replies += [stale.code, stale.info.get("reason"), wrong.code, cleared(resigned, DRAWN | CLOCKS)]
    n = len(replies) // 2
    assert cleared(replies[0], DRAWN | CLOCKS) == cleared(replies[n], DRAWN | CLOCKS)
    assert [e.kind for e in replies[0].events] == [e.kind for e in replies[n].events]
    assert replies[1:n] == replies[n + 1 :]
    same(grpc_api, web, "MatchService", "ResignMatch", match_pb.ResignMatchRequest(match_id="nope", seat=0))


MATCH_CASES = {
    ("MatchService", name)
    for name in ("CreateMatch", "GetMatch", "ListMatches", "SubmitAction", "ResignMatch")
}
"""Hosted matches: ``test_matches_answer_the_same``."""
