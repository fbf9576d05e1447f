"""Helpers of the HTTP transport tests: one way to call any RPC over gRPC, Connect (binary, JSON) or
gRPC-Web, and the failure it ends with, in one shape whatever the transport."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import grpc
from connectrpc.compat import google_protobuf_json_codec
from connectrpc.errors import ConnectError
from connectrpc.protocol import ProtocolType
from google.protobuf import any_pb2
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from lictor.v1 import (
    advisor_service_connect,
    advisor_service_pb2,
    diagnostics_service_connect,
    diagnostics_service_pb2,
    game_service_connect,
    game_service_pb2,
    match_service_connect,
    match_service_pb2,
    solver_service_connect,
    solver_service_pb2,
)
from service.client import Stubs
from service.http import HttpApp, HttpServer, bind_http, connect_apps
from service.server import LictorServer

TRANSPORTS = ("grpc", "connect-proto", "connect-json", "grpc-web")
"""Every way a client reaches the API: native gRPC and the three of the HTTP port."""

HTTP_TRANSPORTS = TRANSPORTS[1:]

SERVICES: dict[str, tuple[Any, Any]] = {
    "GameService": (game_service_pb2, game_service_connect),
    "AdvisorService": (advisor_service_pb2, advisor_service_connect),
    "SolverService": (solver_service_pb2, solver_service_connect),
    "MatchService": (match_service_pb2, match_service_connect),
    "DiagnosticsService": (diagnostics_service_pb2, diagnostics_service_connect),
}

_STUB_FIELD = {
    "GameService": "games",
    "AdvisorService": "advisor",
    "SolverService": "solver",
    "MatchService": "matches",
    "DiagnosticsService": "diagnostics",
}


def snake(name: str) -> str:
    """A method's name as the Connect stubs spell it."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def every_rpc() -> list[tuple[str, str, bool]]:
    """(service, method, server streaming) of every RPC of lictor.v1."""
    out = []
    for service, (pb, _) in SERVICES.items():
        for m in pb.DESCRIPTOR.services_by_name[service].methods:
            out.append((service, m.name, m.server_streaming))
    return out


@dataclass(frozen=True)
class CallFailedError(Exception):
    """How a call failed, the same shape on every transport.

    Attributes:
        code: the status name in lower case (``invalid_argument``).
        message: the status message.
        details: the ``google.rpc.Status`` details as (type name, bytes).
    """

    code: str
    message: str
    details: tuple[tuple[str, bytes], ...]

    def detail(self, cls: Any) -> Any:
        """The first detail of message class ``cls`` (None if there is none)."""
        for name, value in self.details:
            if name == cls.DESCRIPTOR.full_name:
                msg = cls()
                msg.ParseFromString(value)
                return msg
        return None

    @property
    def info(self) -> dict[str, str]:
        """ErrorInfo's reason and metadata."""
        info = self.detail(error_details_pb2.ErrorInfo)
        return {} if info is None else {"reason": info.reason, **dict(info.metadata)}


def _grpc_failure(err: grpc.RpcError) -> CallFailedError:
    status = rpc_status.from_call(err)
    details: tuple[tuple[str, bytes], ...] = ()
    if status is not None:
        details = tuple((_type_name(d), d.value) for d in status.details)
    code = err.code().name.lower()
    return CallFailedError("canceled" if code == "cancelled" else code, err.details() or "", details)


def _type_name(packed: any_pb2.Any) -> str:
    return str(packed.type_url).removeprefix("type.googleapis.com/")


def _connect_failure(err: ConnectError) -> CallFailedError:
    details = tuple((d.type_name, d.message_bytes) for d in err.details)
    return CallFailedError(err.code.value, err.message, details)


class Api:
    """Calls any RPC by (service, method) over one transport.

    Args:
        transport: one of :data:`TRANSPORTS`.
        stubs: the gRPC stubs (for ``grpc``).
        http_port: the HTTP port (for the others).
        token: a bearer token to send.
    """

    def __init__(self, transport: str, *, stubs: Stubs | None, http_port: int, token: str | None = None):
        self.transport = transport
        self.stubs = stubs
        self.http_port = http_port
        self.token = token
        self._clients: dict[str, Any] = {}

    def _client(self, service: str) -> Any:
        if service not in self._clients:
            _, module = SERVICES[service]
            cls = getattr(module, f"{service}ClientSync")
            kwargs: dict[str, Any] = {}
            if self.transport == "connect-json":
                kwargs["codec"] = google_protobuf_json_codec()
            if self.transport == "grpc-web":
                kwargs["protocol"] = ProtocolType.GRPC_WEB
            self._clients[service] = cls(f"http://127.0.0.1:{self.http_port}", **kwargs)
        return self._clients[service]

    def call(self, service: str, method: str, request: Any, *, timeout: float | None = None) -> Any:
        """The response (a list of messages for a server stream); :class:`CallFailedError` on an error."""
        streaming = any(s == service and m == method and st for s, m, st in every_rpc())
        if self.transport == "grpc":
            assert self.stubs is not None
            stub = getattr(self.stubs, _STUB_FIELD[service])
            metadata = [("authorization", f"Bearer {self.token}")] if self.token else None
            try:
                reply = getattr(stub, method)(request, timeout=timeout, metadata=metadata)
                return list(reply) if streaming else reply
            except grpc.RpcError as err:
                raise _grpc_failure(err) from None
        headers = {"authorization": f"Bearer {self.token}"} if self.token else None
        fn = getattr(self._client(service), snake(method))
        timeout_ms = None if timeout is None else int(timeout * 1000)
        try:
            reply = fn(request, headers=headers, timeout_ms=timeout_ms)
            return list(reply) if streaming else reply
        except ConnectError as err:
            raise _connect_failure(err) from None

    def stream(self, service: str, method: str, request: Any, *, timeout: float | None = None) -> Any:
        """An iterator over a server stream's messages (closing it cancels the call)."""
        if self.transport == "grpc":
            assert self.stubs is not None
            return getattr(getattr(self.stubs, _STUB_FIELD[service]), method)(request, timeout=timeout)
        timeout_ms = None if timeout is None else int(timeout * 1000)
        return getattr(self._client(service), snake(method))(request, timeout_ms=timeout_ms)

    def close(self) -> None:
        """Close the HTTP clients."""
        for client in self._clients.values():
            client.close()


def fail(api: Api, service: str, method: str, request: Any, **kw: Any) -> CallFailedError:
    """The failure of a call that must fail."""
    try:
        api.call(service, method, request, **kw)
    except CallFailedError as failure:
        return failure
    raise AssertionError(f"{method} over {api.transport} did not fail")


@contextmanager
def http_beside(
    server: LictorServer, *, token: str | None = None, tls: tuple[bytes, bytes] | None = None
) -> Iterator[int]:
    """The HTTP port serving ``server``'s own handlers (the objects its gRPC port calls), for the
    length of the block: both transports of one server, as ``create_server(http_address=...)``
    builds them."""
    apps = connect_apps(server.handlers, max_message_bytes=server.limits.max_message_bytes, auth_token=token)
    app = HttpApp(apps, serving=server.serving, grpc_port=server.port)
    http = HttpServer(app, bind_http("127.0.0.1:0"), tls=tls)
    asyncio.run_coroutine_threadsafe(http.start(), server.loop).result(60)
    try:
        yield http.port
    finally:
        asyncio.run_coroutine_threadsafe(http.stop(1.0), server.loop).result(60)
