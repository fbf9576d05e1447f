"""The HTTP port: auth, request caps, deadlines, cancellation and error details behave the same on
every transport (native gRPC, Connect binary and JSON, gRPC-Web): each case runs on each.

Also what only the HTTP port has: the web table's static files, ``/healthz``, CORS for other
origins, the README's ``curl`` line, and a clear refusal of native gRPC sent to it.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import grpc
import pytest
from google.rpc import error_details_pb2

from lictor.v1 import advisor_service_pb2 as advisor_pb
from lictor.v1 import diagnostics_service_pb2 as diag_pb
from lictor.v1 import game_service_pb2 as game_pb
from lictor.v1 import match_service_pb2 as match_pb
from service.client import stubs
from service.http import ConnectCall
from service.limits import Limits
from service.server import StartupError, create_server
from tests.service.helpers import record
from tests.service.http_helpers import HTTP_TRANSPORTS, TRANSPORTS, Api, fail, http_beside

TOKEN = "http-s3cret"


@pytest.fixture(scope="module")
def http_port(server) -> Iterator[int]:
    with http_beside(server[0]) as port:
        yield port


@pytest.fixture(scope="module", params=TRANSPORTS)
def any_api(request, api, http_port) -> Iterator[Api]:
    client = Api(request.param, stubs=api, http_port=http_port)
    yield client
    client.close()


def _post(port: int, path: str, body: bytes, headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("POST", path, body=body, headers=headers)
        reply = conn.getresponse()
        return reply.status, {k.lower(): v for k, v in reply.getheaders()}, reply.read()
    finally:
        conn.close()


def _get(port: int, path: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path, headers=headers or {})
        reply = conn.getresponse()
        return reply.status, {k.lower(): v for k, v in reply.getheaders()}, reply.read()
    finally:
        conn.close()


# ---------------------------------------------------------------- the same errors on every transport
def test_bad_input_is_invalid_argument_naming_the_field(any_api):
    failure = fail(
        any_api,
        "GameService",
        "GetLegalActions",
        game_pb.GetLegalActionsRequest(position=record("tiberius", actions=("fly",))),
    )
    assert failure.code == "invalid_argument"
    assert failure.info == {"reason": "NotationError", "field": "position.record.actions[0]"}
    bad = failure.detail(error_details_pb2.BadRequest)
    assert bad.field_violations[0].field == "position.record.actions[0]"
    assert "'fly' is not a tiberius action" in failure.message


def test_an_oversized_field_is_refused_naming_it(any_api):
    seat = match_pb.Seat(kind=match_pb.SEAT_KIND_HUMAN, name="n" * 5000)
    request = match_pb.CreateMatchRequest(game="pig", seats=[seat, seat])
    failure = fail(any_api, "MatchService", "CreateMatch", request)
    assert failure.code == "invalid_argument" and failure.info["field"] == "seats[0].name"
    assert len(failure.message) < 600


def test_unknown_game_is_not_found_with_resource_info(any_api):
    failure = fail(any_api, "GameService", "NewGame", game_pb.NewGameRequest(game="nope"))
    assert failure.code == "not_found" and failure.info["reason"] == "UnknownGameError"
    assert failure.detail(error_details_pb2.ResourceInfo).resource_type == "game"


def test_a_budget_over_the_cap_is_resource_exhausted(any_api):
    request = advisor_pb.HintRequest(
        position=record("pig"), budget=advisor_pb.SearchBudget(simulations=10**7)
    )
    failure = fail(any_api, "AdvisorService", "Hint", request)
    assert failure.code == "resource_exhausted" and failure.info["field"] == "budget.simulations"
    assert failure.detail(error_details_pb2.QuotaFailure).violations[0].subject == "budget.simulations"


def test_a_chance_node_is_failed_precondition(any_api):
    request = advisor_pb.SuggestActionRequest(position=record("pig", actions=("roll",)))
    failure = fail(any_api, "AdvisorService", "SuggestAction", request)
    assert failure.code == "failed_precondition" and "chance node" in failure.message
    assert failure.detail(error_details_pb2.PreconditionFailure).violations[0].subject == "position"


def test_a_stream_fails_with_the_same_details(any_api):
    request = match_pb.WatchMatchRequest(match_id="nope")
    failure = fail(any_api, "MatchService", "WatchMatch", request)
    assert failure.code == "not_found" and failure.info["field"] == "match_id"


def test_a_message_over_the_cap_is_resource_exhausted(any_api):
    request = diag_pb.EchoRequest(payload=b"x" * (5 * 1024 * 1024))
    failure = fail(any_api, "DiagnosticsService", "Echo", request)
    assert failure.code == "resource_exhausted"


# ---------------------------------------------------------------- deadlines and cancellation
def test_a_long_search_answers_its_best_before_a_short_deadline(any_api):
    """A 20 s Hint under a 1.5 s deadline answers in time, over the deadline header on HTTP."""
    request = advisor_pb.HintRequest(
        position=record("tiberpunk"), budget=advisor_pb.SearchBudget(time_s=20.0)
    )
    t0 = time.monotonic()
    reply = any_api.call("AdvisorService", "Hint", request, timeout=1.5)
    assert time.monotonic() - t0 < 1.5
    assert reply.hints and reply.analysis.stopped_by in ("time", "stop", "deadline")


def test_closing_a_stream_stops_its_search(any_api, server):
    """A client that goes away cancels its Analyze: the worker is free again at once."""
    pool = server[0].calls
    request = advisor_pb.AnalyzeRequest(
        position=record("tiberpunk"), budget=advisor_pb.SearchBudget(time_s=20.0), report_every_ms=50
    )
    stream = any_api.stream("AdvisorService", "Analyze", request, timeout=30)
    first = next(iter(stream))
    assert not first.analysis.final and pool.busy >= 1
    if any_api.transport == "grpc":
        stream.cancel()
    else:
        stream.close()
    deadline = time.monotonic() + 5
    while pool.busy and time.monotonic() < deadline:
        time.sleep(0.05)
    assert pool.busy == 0


def test_streams_count_per_client_whichever_transport():
    """The per-client stream cap counts a client once: HTTP peers read as gRPC spells them."""

    class Ctx:
        def __init__(self, address):
            self.client_address = address
            self.timeout_ms = 1500.0

    assert ConnectCall(Ctx("127.0.0.1:50123")).client == "ipv4:127.0.0.1"  # type: ignore[arg-type]
    assert ConnectCall(Ctx("::1:50123")).client == "ipv6:[::1]"  # type: ignore[arg-type]
    assert ConnectCall(Ctx("127.0.0.1:1")).time_remaining() == 1.5  # type: ignore[arg-type]


# ---------------------------------------------------------------- bytes that are no message
def test_garbage_bodies_are_invalid_argument(http_port, channel):
    raw = channel.unary_unary(
        "/lictor.v1.GameService/ListGames", request_serializer=None, response_deserializer=None
    )
    with pytest.raises(grpc.RpcError) as err:
        raw(b"\xff\xff\xff\xff", timeout=5)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    path = "/lictor.v1.GameService/ListGames"
    status, _, body = _post(http_port, path, b"\xff\xff\xff\xff", {"content-type": "application/proto"})
    assert status == 400
    assert json.loads(body) == {"code": "invalid_argument", "message": err.value.details()}
    status, _, body = _post(http_port, path, b"{nope", {"content-type": "application/json"})
    assert status == 400 and json.loads(body)["code"] == "invalid_argument"
    assert "not JSON of a lictor.v1.ListGamesRequest" in json.loads(body)["message"]


def test_native_grpc_on_the_http_port_is_refused_naming_the_grpc_port(http_port, server):
    status, _, body = _post(
        http_port, "/lictor.v1.GameService/ListGames", b"", {"content-type": "application/grpc"}
    )
    assert status == 415 and f"port {server[1]}" in body.decode()


# ---------------------------------------------------------------- the page and what is open
def test_the_readme_curl_line_lists_the_games(http_port):
    if shutil.which("curl") is None:
        pytest.skip("curl is not installed")
    out = subprocess.run(
        [
            "curl",
            "-s",
            "-d",
            "{}",
            "-H",
            "Content-Type: application/json",
            f"localhost:{http_port}/lictor.v1.GameService/ListGames",
        ],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    ).stdout
    names = {g["name"] for g in json.loads(out)["games"]}
    assert {"tiberpunk", "tiberius", "cytress", "ti4", "cyberverse"} <= names


def test_the_web_table_is_served_with_a_content_security_policy(http_port):
    status, headers, body = _get(http_port, "/")
    assert status == 200 and headers["content-type"].startswith("text/html")
    assert "script-src 'self'" in headers["content-security-policy"]
    assert b"<html" in body
    for path in ("/app.js", "/style.css"):
        assert _get(http_port, path)[0] == 200, path
    for path in ("/../http.py", "/%2e%2e/http.py", "/nope.js", "/.hidden"):
        assert _get(http_port, path)[0] == 404, path
    assert _get(http_port, "/healthz")[2] == b"SERVING\n"


def test_with_a_certificate_the_http_port_is_https_only(server, tmp_path):
    from tests.service.test_security import _self_signed

    cert, key = _self_signed(tmp_path)
    with http_beside(server[0], tls=(cert, key)) as port:
        trusted = ssl.create_default_context(cadata=cert.decode())
        conn = http.client.HTTPSConnection("localhost", port, timeout=10, context=trusted)
        conn.request(
            "POST",
            "/lictor.v1.GameService/ListGames",
            body=b"{}",
            headers={"content-type": "application/json"},
        )
        reply = conn.getresponse()
        assert reply.status == 200 and json.loads(reply.read())["games"]
        conn.close()
        with pytest.raises((http.client.HTTPException, OSError)):
            _get(port, "/healthz")


# ---------------------------------------------------------------- a server with a token, over create_server
@pytest.fixture(scope="module")
def auth_server(tmp_path_factory) -> Iterator[tuple[int, int]]:
    db = tmp_path_factory.mktemp("http") / "a.db"
    srv, port = create_server(
        "127.0.0.1:0",
        db_path=db,
        auth_token=TOKEN,
        http_address="127.0.0.1:0",
        cors_origins=["http://table.example"],
        limits=Limits(max_concurrent_searches=1, ai_workers=1),
    )
    yield port, srv.http_port
    srv.stop(None).wait(5)
    srv.close()


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_no_token_is_unauthenticated_on_every_transport(auth_server, transport):
    grpc_port, http_port = auth_server
    channel = grpc.insecure_channel(f"127.0.0.1:{grpc_port}")
    messages = set()
    for token in (None, "wrong"):
        client = Api(transport, stubs=stubs(channel), http_port=http_port, token=token)
        for service, method, request in (
            ("GameService", "ListGames", game_pb.ListGamesRequest()),
            ("MatchService", "WatchMatch", match_pb.WatchMatchRequest(match_id="x")),
        ):
            failure = fail(client, service, method, request)
            assert failure.code == "unauthenticated", (transport, method)
            messages.add(failure.message)
        client.close()
    assert messages == {
        "missing bearer token; send metadata 'authorization: Bearer <token>'",
        "invalid bearer token; send metadata 'authorization: Bearer <token>'",
    }
    client = Api(transport, stubs=stubs(channel), http_port=http_port, token=TOKEN)
    assert client.call("GameService", "ListGames", game_pb.ListGamesRequest()).games
    client.close()
    channel.close()


def test_without_a_token_the_body_is_never_decoded(auth_server):
    _, http_port = auth_server
    status, _, body = _post(
        http_port, "/lictor.v1.GameService/ListGames", b"{nope", {"content-type": "application/json"}
    )
    assert status == 401 and json.loads(body)["code"] == "unauthenticated"


def test_the_page_and_health_stay_open_and_cors_is_for_named_origins(auth_server):
    _, http_port = auth_server
    assert _get(http_port, "/")[0] == 200 and _get(http_port, "/healthz")[0] == 200
    conn = http.client.HTTPConnection("127.0.0.1", http_port, timeout=10)
    preflight = {"origin": "http://table.example", "access-control-request-method": "POST"}
    conn.request("OPTIONS", "/lictor.v1.GameService/ListGames", headers=preflight)
    reply = conn.getresponse()
    reply.read()
    assert reply.status == 204
    assert reply.getheader("access-control-allow-origin") == "http://table.example"
    assert "authorization" in (reply.getheader("access-control-allow-headers") or "")
    conn.request(
        "OPTIONS", "/lictor.v1.GameService/ListGames", headers={**preflight, "origin": "http://evil.example"}
    )
    reply = conn.getresponse()
    reply.read()
    assert reply.status == 403
    conn.close()
    status, headers, _ = _post(
        http_port,
        "/lictor.v1.GameService/ListGames",
        b"{}",
        {
            "content-type": "application/json",
            "origin": "http://table.example",
            "authorization": f"Bearer {TOKEN}",
        },
    )
    assert status == 200 and headers["access-control-allow-origin"] == "http://table.example"


# ---------------------------------------------------------------- start and stop
def test_an_http_port_in_use_is_one_line(tmp_path):
    with (
        held_port() as port,
        pytest.raises(StartupError, match=rf"cannot listen on 127.0.0.1:{port} \(HTTP\)"),
    ):
        create_server("127.0.0.1:0", db_path=tmp_path / "x.db", http_address=f"127.0.0.1:{port}")
    assert not (tmp_path / "x.db").exists()


@contextlib.contextmanager
def held_port() -> Iterator[int]:
    """A port held by another socket for the block."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(1)
    try:
        yield int(sock.getsockname()[1])
    finally:
        sock.close()


@pytest.mark.parametrize("transport", HTTP_TRANSPORTS[:1])
def test_http_watch_ends_with_unavailable_on_shutdown(tmp_path, transport):
    srv, _ = create_server(
        "127.0.0.1:0",
        db_path=tmp_path / "w.db",
        http_address="127.0.0.1:0",
        limits=Limits(max_concurrent_searches=1, ai_workers=1),
    )
    client = Api(transport, stubs=None, http_port=srv.http_port)
    human = match_pb.Seat(kind=match_pb.SEAT_KIND_HUMAN)
    match = client.call(
        "MatchService",
        "CreateMatch",
        match_pb.CreateMatchRequest(game="pig", seats=[human, human], issue_seat_secrets=False),
    ).match
    outcome: dict[str, object] = {}

    def watch() -> None:
        try:
            outcome["events"] = client.call(
                "MatchService", "WatchMatch", match_pb.WatchMatchRequest(match_id=match.match_id), timeout=30
            )
        except Exception as exc:
            outcome["error"] = exc

    thread = threading.Thread(target=watch)
    thread.start()
    time.sleep(0.5)
    t0 = time.monotonic()
    srv.stop(5).wait(10)
    thread.join(10)
    srv.close()
    client.close()
    assert time.monotonic() - t0 < 5
    assert getattr(outcome.get("error"), "code", None) == "unavailable", outcome


def test_lictor_serve_opens_the_http_port_and_stops_on_sigterm(tmp_path):
    """``lictor serve`` says where both ports are (a free HTTP port beside ``--port 0``)."""
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "service.cli",
            "serve",
            "--port",
            "0",
            "--db",
            str(tmp_path / "s.db"),
            "--grace",
            "1",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert proc.stdout is not None
        assert "serving on 127.0.0.1:" in proc.stdout.readline()
        line = proc.stdout.readline()
        assert "web table and Connect/gRPC-Web API on http://127.0.0.1:" in line
        port = int(line.rsplit(":", 1)[1].strip("/\n"))
        assert _get(port, "/healthz")[2] == b"SERVING\n"
        status, _, body = _post(
            port, "/lictor.v1.GameService/ListGames", b"{}", {"content-type": "application/json"}
        )
        assert status == 200 and json.loads(body)["games"]
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
