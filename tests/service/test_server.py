"""Issue 2: the real server on port 0 — health, reflection, ListGames, errors, echo, SIGTERM drain."""

from __future__ import annotations

import grpc
import pytest
from google.protobuf import descriptor_pb2  # type: ignore[import-untyped]
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from games.core import game_names
from games.errors import (
    ConfigError,
    ContentError,
    IllegalActionError,
    InvalidStateError,
    LimitError,
    NotationError,
    NotFoundError,
    UnknownGameError,
    WrongSeatError,
)
from lictor.v1 import diagnostics_service_pb2 as diag_pb
from lictor.v1 import game_service_pb2 as game_pb
from service.errors import StaleMoveError, status_code_of, to_rpc_status
from service.server import SERVICE_NAMES, create_server
from tests.service.helpers import error_info, violations


def test_health_serving_overall_and_per_service(channel):
    stub = health_pb2_grpc.HealthStub(channel)
    for name in ("", *SERVICE_NAMES):
        reply = stub.Check(health_pb2.HealthCheckRequest(service=name), timeout=5)
        assert reply.status == health_pb2.HealthCheckResponse.SERVING, name


def test_reflection_lists_the_lictor_services(channel):
    stub = reflection_pb2_grpc.ServerReflectionStub(channel)
    request = reflection_pb2.ServerReflectionRequest(list_services="")
    reply = next(iter(stub.ServerReflectionInfo(iter([request]), timeout=5)))
    names = {s.name for s in reply.list_services_response.service}
    assert {
        "lictor.v1.GameService",
        "lictor.v1.AdvisorService",
        "lictor.v1.SolverService",
        "lictor.v1.MatchService",
        "lictor.v1.DiagnosticsService",
        "grpc.health.v1.Health",
    } <= names
    # The file descriptors are served too (grpcurl describe works).
    file_req = reflection_pb2.ServerReflectionRequest(file_containing_symbol="lictor.v1.GameService")
    reply = next(iter(stub.ServerReflectionInfo(iter([file_req]), timeout=5)))
    fd = descriptor_pb2.FileDescriptorProto.FromString(
        reply.file_descriptor_response.file_descriptor_proto[0]
    )
    assert fd.package == "lictor.v1"


def test_list_games_answers_from_the_registry(api):
    reply = api.games.ListGames(game_pb.ListGamesRequest(), timeout=10)
    names = [g.name for g in reply.games]
    assert names == sorted(names)
    assert "pig" in names
    assert set(game_names()) <= set(names)
    pig = next(g for g in reply.games if g.name == "pig")
    assert (pig.min_players, pig.max_players) == (2, 4)
    assert pig.hidden_information and pig.stochastic
    assert [v.name for v in pig.variants] == ["target"]
    assert pig.variants[0].default_value.integer == 12
    for g in reply.games:
        assert g.title and 1 <= g.min_players <= g.max_players


def test_bad_request_gets_invalid_argument_naming_the_field(api):
    request = game_pb.NewGameRequest(game="pig")
    request.setup.players = 9
    with pytest.raises(grpc.RpcError) as err:
        api.games.NewGame(request, timeout=10)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "2 to 4 players" in err.value.details()
    assert violations(err.value)[0][0] == "setup.players"
    assert error_info(err.value)["reason"] == "ConfigError"


def test_unknown_game_is_not_found(api):
    request = game_pb.NewGameRequest(game="chess")
    request.setup.players = 2
    with pytest.raises(grpc.RpcError) as err:
        api.games.NewGame(request, timeout=10)
    assert err.value.code() == grpc.StatusCode.NOT_FOUND
    assert "chess" in err.value.details()
    assert error_info(err.value)["field"] == "game"


def test_echo(api):
    assert api.diagnostics.Echo(diag_pb.EchoRequest(payload=b"ping"), timeout=5).payload == b"ping"


@pytest.mark.parametrize(
    ("exc", "code"),
    [
        (ConfigError("x"), grpc.StatusCode.INVALID_ARGUMENT),
        (ContentError("x"), grpc.StatusCode.INVALID_ARGUMENT),
        (NotationError("x"), grpc.StatusCode.INVALID_ARGUMENT),
        (InvalidStateError("x"), grpc.StatusCode.INVALID_ARGUMENT),
        (IllegalActionError("x"), grpc.StatusCode.INVALID_ARGUMENT),
        (WrongSeatError("x"), grpc.StatusCode.FAILED_PRECONDITION),
        (NotFoundError("x"), grpc.StatusCode.NOT_FOUND),
        (UnknownGameError("x"), grpc.StatusCode.NOT_FOUND),
        (LimitError("x"), grpc.StatusCode.RESOURCE_EXHAUSTED),
        (StaleMoveError("x"), grpc.StatusCode.ABORTED),
        (RuntimeError("x"), grpc.StatusCode.INTERNAL),
    ],
)
def test_error_table(exc, code):
    assert status_code_of(exc) == code
    assert to_rpc_status(exc).code == code


def test_default_bind_is_loopback():
    from service.server import DEFAULT_ADDRESS

    assert DEFAULT_ADDRESS.startswith("127.0.0.1:")


def test_stop_drains_in_flight_calls_within_grace(tmp_path):
    """A call in flight when the server stops still gets its answer (the grace period)."""
    import threading

    from lictor.v1 import advisor_service_pb2 as advisor_pb
    from tests.service.helpers import record

    srv, port = create_server("127.0.0.1:0", db_path=tmp_path / "d.db")
    ch = grpc.insecure_channel(f"127.0.0.1:{port}")
    from service.client import stubs

    api = stubs(ch)
    request = advisor_pb.AnalyzeRequest(position=record("pig"))
    request.budget.time_s = 0.6
    results = []

    def call():
        try:
            results.append(list(api.advisor.Analyze(request, timeout=10))[-1].analysis.final)
        except grpc.RpcError as exc:
            results.append(exc.code())

    t = threading.Thread(target=call)
    t.start()
    import time

    time.sleep(0.25)
    done = srv.stop(5.0)
    with pytest.raises(grpc.RpcError):  # new calls are refused while draining
        api.diagnostics.Echo(diag_pb.EchoRequest(), timeout=1)
    t.join(10)
    assert results == [True]
    assert done.wait(10)
    ch.close()


def test_tune_gc_freezes_the_loaded_heap():
    """``lictor serve`` loads every game and solver, freezes that heap and raises the GC threshold
    (checked in a child process: it changes the process's collector)."""
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "import gc, sys\n"
        "from service.server import GC_THRESHOLD, tune_gc\n"
        "tune_gc()\n"
        "assert gc.get_threshold() == GC_THRESHOLD, gc.get_threshold()\n"
        "assert gc.get_freeze_count() > 10_000, gc.get_freeze_count()\n"
        "assert 'solver.tiberius' in sys.modules\n"
    )
    repo = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=repo, check=False, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
