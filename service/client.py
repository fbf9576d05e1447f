"""Client helpers: channels (TLS, bearer token), stubs, and position files (JSON) for the CLI."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
from google.protobuf import json_format  # type: ignore[import-untyped]

from lictor.v1 import advisor_service_pb2_grpc as advisor_grpc
from lictor.v1 import diagnostics_service_pb2_grpc as diag_grpc
from lictor.v1 import game_service_pb2_grpc as game_grpc
from lictor.v1 import match_service_pb2_grpc as match_grpc
from lictor.v1 import position_pb2 as pos_pb
from lictor.v1 import solver_service_pb2_grpc as solver_grpc
from service.convert import option_value_to_pb

__all__ = ["CHANNEL_OPTIONS", "Stubs", "connect", "position_from_dict", "position_from_file", "session"]


@dataclass(frozen=True, slots=True)
class Stubs:
    """One stub per service over one channel.

    Attributes:
        channel: the channel.
        games: GameService.
        advisor: AdvisorService.
        solver: SolverService.
        matches: MatchService.
        diagnostics: DiagnosticsService.
    """

    channel: grpc.Channel
    games: game_grpc.GameServiceStub
    advisor: advisor_grpc.AdvisorServiceStub
    solver: solver_grpc.SolverServiceStub
    matches: match_grpc.MatchServiceStub
    diagnostics: diag_grpc.DiagnosticsServiceStub


CHANNEL_OPTIONS = (
    ("grpc.max_receive_message_length", 16 * 1024 * 1024),
    ("grpc.max_send_message_length", 16 * 1024 * 1024),
)
"""Client channel options: messages up to the server's 16 MiB."""


class _Bearer(grpc.AuthMetadataPlugin):  # type: ignore[misc]
    def __init__(self, token: str) -> None:
        self.token = token

    def __call__(self, context: Any, callback: Any) -> None:
        callback((("authorization", f"Bearer {self.token}"),), None)


def connect(
    address: str, *, token: str | None = None, ca_cert: bytes | None = None, tls: bool = False
) -> grpc.Channel:
    """A channel to ``address``; TLS when ``tls`` or ``ca_cert`` is given; a bearer token if given."""
    if tls or ca_cert is not None:
        creds = grpc.ssl_channel_credentials(root_certificates=ca_cert)
        if token:
            creds = grpc.composite_channel_credentials(creds, grpc.metadata_call_credentials(_Bearer(token)))
        return grpc.secure_channel(address, creds, options=CHANNEL_OPTIONS)
    channel = grpc.insecure_channel(address, options=CHANNEL_OPTIONS)
    if token:
        header = ("authorization", f"Bearer {token}")
        channel = grpc.intercept_channel(channel, _TokenInterceptor(header))
    return channel


class _TokenInterceptor(
    grpc.UnaryUnaryClientInterceptor,  # type: ignore[misc]
    grpc.UnaryStreamClientInterceptor,  # type: ignore[misc]
):
    def __init__(self, header: tuple[str, str]) -> None:
        self.header = header

    def _details(self, details: Any) -> Any:
        metadata = [*(details.metadata or ()), self.header]
        return (
            details._replace(metadata=metadata)
            if hasattr(details, "_replace")
            else _Details(details, metadata)
        )

    def intercept_unary_unary(self, continuation: Any, client_call_details: Any, request: Any) -> Any:
        return continuation(self._details(client_call_details), request)

    def intercept_unary_stream(self, continuation: Any, client_call_details: Any, request: Any) -> Any:
        return continuation(self._details(client_call_details), request)


class _Details(grpc.ClientCallDetails):  # type: ignore[misc]
    def __init__(self, base: Any, metadata: Any) -> None:
        self.method = base.method
        self.timeout = base.timeout
        self.metadata = metadata
        self.credentials = base.credentials
        self.wait_for_ready = getattr(base, "wait_for_ready", None)
        self.compression = getattr(base, "compression", None)


def stubs(channel: grpc.Channel) -> Stubs:
    """Stubs of every service over ``channel``."""
    return Stubs(
        channel=channel,
        games=game_grpc.GameServiceStub(channel),
        advisor=advisor_grpc.AdvisorServiceStub(channel),
        solver=solver_grpc.SolverServiceStub(channel),
        matches=match_grpc.MatchServiceStub(channel),
        diagnostics=diag_grpc.DiagnosticsServiceStub(channel),
    )


@contextmanager
def session(
    server: str | None = None,
    *,
    token: str | None = None,
    ca_cert: bytes | None = None,
    db_path: str | None = None,
) -> Iterator[Stubs]:
    """Stubs to ``server``, or to an in-process server on a free loopback port when None."""
    if server:
        channel = connect(server, token=token, ca_cert=ca_cert)
        try:
            yield stubs(channel)
        finally:
            channel.close()
        return
    from service.server import create_server

    with tempfile.TemporaryDirectory(prefix="lictor-") as tmp:
        local, port = create_server("127.0.0.1:0", db_path=db_path or str(Path(tmp) / "local.db"))
        channel = grpc.insecure_channel(f"127.0.0.1:{port}", options=CHANNEL_OPTIONS)
        try:
            yield stubs(channel)
        finally:
            channel.close()
            local.stop(None).wait()
            local.close()


def position_from_dict(data: Mapping[str, Any]) -> pos_pb.Position:
    """A Position from a position file's JSON.

    Accepted forms (``game`` always required)::

        {"game": "pig", "record": {"players": 2, "options": {"target": 20}, "seed": 7, "actions": ["roll"]}}
        {"game": "pig", "state": { ...the game's to_dict... }}
        {"game": "pig", "state_text": "..."}

    and the protobuf JSON mapping of ``lictor.v1.Position`` (``{"game": ..., "record": {"setup": ...}}``).
    """
    proto_json = "stateJson" in data or "stateText" in data
    if proto_json or ("record" in data and isinstance(data["record"], Mapping) and "setup" in data["record"]):
        parsed: pos_pb.Position = json_format.ParseDict(dict(data), pos_pb.Position())
        return parsed
    game = str(data.get("game", ""))
    pack = str(data.get("content_pack", ""))
    if "record" in data:
        rec = data["record"]
        setup = pos_pb.GameSetup(players=int(rec.get("players", 0)), seed=int(rec.get("seed", 0)))
        for k, v in dict(rec.get("options", {})).items():
            setup.options[k].CopyFrom(option_value_to_pb(v))
        return pos_pb.Position(
            game=game,
            content_pack=pack,
            record=pos_pb.GameRecord(setup=setup, actions=[str(a) for a in rec.get("actions", [])]),
        )
    if "state" in data:
        return pos_pb.Position(game=game, content_pack=pack, state_json=json.dumps(data["state"]))
    if "state_json" in data:
        return pos_pb.Position(game=game, content_pack=pack, state_json=str(data["state_json"]))
    if "state_text" in data:
        return pos_pb.Position(game=game, content_pack=pack, state_text=str(data["state_text"]))
    raise ValueError("a position file needs 'record', 'state', 'state_json' or 'state_text' next to 'game'")


def position_from_file(path: str | Path) -> pos_pb.Position:
    """Read a position file (JSON, see :func:`position_from_dict`)."""
    data = json.loads(Path(path).read_text())
    if not isinstance(data, dict):
        raise ValueError(f"{path}: a position file holds a JSON object")
    return position_from_dict(data)
