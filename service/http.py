"""The Lictor API over HTTP for browsers, and the web table's static files.

Every service of ``lictor.v1`` answers here over the Connect protocol (JSON and binary, unary and
server streams; ``POST /lictor.v1.GameService/ListGames``) and gRPC-Web, through the connectrpc
organisation's Python runtime (``connectrpc``: the ASGI applications generated into
``lictor/v1/*_connect.py`` by ``make proto``) under uvicorn, on the server's own event loop. The
handlers are the very objects the gRPC server calls (:mod:`service.rpc`); this module only adapts
them (:func:`connect_service`), so auth, request caps, deadlines, cancellation and error details are
the same on both transports:

- **auth**: the bearer token is checked on the ``authorization`` header before the body is read
  (:func:`service.auth.bearer_refusal`, a metadata interceptor); static files and ``/healthz`` are
  open, like gRPC's health service.
- **caps**: a request or response over ``max_message_bytes`` is RESOURCE_EXHAUSTED (measured as its
  protobuf size, as gRPC does); every field is bounded by :func:`service.requests.check_request`;
  bytes or JSON that are not a message of the method are INVALID_ARGUMENT.
- **deadlines**: the Connect ``connect-timeout-ms`` / gRPC-Web ``grpc-timeout`` header is the
  client's deadline: searches answer their best so far just before it, as over gRPC.
- **cancellation**: a client that disconnects cancels its handler (and so its search).
- **errors**: the same ``google.rpc.Status`` (:func:`service.errors.call_status`): code, message and
  details (ErrorInfo, BadRequest, ...) as the Connect error's ``details`` or gRPC-Web's
  ``grpc-status-details-bin``.

Native gRPC (HTTP/2 ``application/grpc``) stays on the gRPC port; on this port it is refused with
415, saying so. The web table (``service/web/``) is served at ``/``.
"""

from __future__ import annotations

import asyncio
import hashlib
import importlib
import logging
import re
import socket
import ssl
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import grpc
from connectrpc.code import Code
from connectrpc.errors import ConnectError, ErrorDetail
from connectrpc.request import RequestContext
from google.protobuf import json_format  # type: ignore[import-untyped]
from protobuf.wkt import Any as WireAny

from lictor.v1 import (
    advisor_service_connect,
    diagnostics_service_connect,
    game_service_connect,
    match_service_connect,
    solver_service_connect,
)
from service.auth import bearer_refusal
from service.errors import call_status
from service.rpc import client_key

__all__ = [
    "MAX_HTTP_CONNECTIONS",
    "WEB_ROOT",
    "ConnectCall",
    "HttpApp",
    "HttpServer",
    "bind_http",
    "connect_apps",
    "connect_error",
    "connect_service",
]

log = logging.getLogger("lictor.http")

WEB_ROOT = Path(__file__).resolve().parent / "web"
"""The web table's static files (served at ``/``)."""

MAX_HTTP_CONNECTIONS = 1024
"""Open HTTP connections and requests in flight at once; more are answered 503 (uvicorn's
``limit_concurrency``)."""

KEEP_ALIVE_S = 5
"""Seconds an idle HTTP/1.1 connection is kept open."""

_CONNECT_MODULES: tuple[Any, ...] = (
    game_service_connect,
    advisor_service_connect,
    solver_service_connect,
    match_service_connect,
    diagnostics_service_connect,
)

# gRPC's status numbers -> Connect's codes (the names are the same but for CANCELLED).
_CODES: dict[int, Code] = {
    status.value[0]: Code("canceled" if status.name == "CANCELLED" else status.name.lower())
    for status in grpc.StatusCode
    if status is not grpc.StatusCode.OK
}


# ------------------------------------------------------------------------------------------- calls
class ConnectCall:
    """A :class:`service.rpc.Call` over a Connect request context."""

    __slots__ = ("ctx",)

    def __init__(self, ctx: RequestContext[Any, Any]) -> None:
        self.ctx = ctx

    @property
    def client(self) -> str:
        """The client's address without its port, spelled as gRPC spells a peer."""
        address = self.ctx.client_address or ""
        host = client_key(address)
        if ":" in host:  # an IPv6 address
            return f"ipv6:[{host.strip('[]')}]"
        return f"ipv4:{host}" if host else ""

    def time_remaining(self) -> float | None:
        """Seconds to the client's deadline (its ``connect-timeout-ms`` or ``grpc-timeout``)."""
        ms = self.ctx.timeout_ms
        return None if ms is None else max(0.0, ms / 1000.0)


def connect_error(exc: BaseException) -> ConnectError:
    """The Connect error of an exception: the status gRPC would send, details and all."""
    if isinstance(exc, ConnectError):
        return exc
    status = call_status(exc)
    details = [ErrorDetail(WireAny(type_url=d.type_url, value=d.value)) for d in status.details]
    return ConnectError(_CODES.get(status.code, Code.INTERNAL), status.message, details)


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _unary(fn: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    async def unary(request: Any, ctx: RequestContext[Any, Any]) -> Any:
        try:
            return await fn(request, ConnectCall(ctx))
        except Exception as exc:
            raise connect_error(exc) from None

    return unary


def _stream(fn: Callable[..., AsyncIterator[Any]]) -> Callable[..., AsyncIterator[Any]]:
    async def stream(request: Any, ctx: RequestContext[Any, Any]) -> AsyncIterator[Any]:
        try:
            async for item in fn(request, ConnectCall(ctx)):
                yield item
        except Exception as exc:
            raise connect_error(exc) from None

    return stream


class _Adapter:
    """The Connect face of a handler: one snake_case method per RPC (as the generated code calls)."""

    def __init__(self, handler: object, service: Any) -> None:
        for method in service.methods:
            fn = getattr(handler, method.name)
            setattr(self, _snake(method.name), _stream(fn) if method.server_streaming else _unary(fn))


def connect_service(handler: object, service: Any) -> object:
    """The object a generated ``<Service>ASGIApplication`` serves: ``handler``'s RPC methods (by
    ``service``, a ServiceDescriptor), with exceptions turned into Connect errors."""
    return _Adapter(handler, service)


# ------------------------------------------------------------------------------------------- codecs
class _Codec:
    """google.protobuf messages as binary or JSON, with the server's message cap both ways and
    INVALID_ARGUMENT for a body that is not a message of the method (as over gRPC)."""

    def __init__(self, name: str, max_bytes: int) -> None:
        self._name = name
        self.max_bytes = max_bytes

    def name(self) -> str:
        """The codec's name in the content type (``proto`` or ``json``)."""
        return self._name

    def encode(self, message: Any) -> bytes:
        """The message's bytes; RESOURCE_EXHAUSTED past the cap."""
        size = message.ByteSize()
        if size > self.max_bytes:
            raise ConnectError(
                Code.RESOURCE_EXHAUSTED,
                f"the answer is {size} bytes; the server sends at most {self.max_bytes}",
            )
        if self._name == "json":
            return str(json_format.MessageToJson(message, indent=None)).encode()
        return bytes(message.SerializeToString())

    def decode(self, data: bytes | bytearray, message_class: type[Any]) -> Any:
        """The request message; INVALID_ARGUMENT when the body is not one."""
        message = message_class()
        try:
            if self._name == "json":
                json_format.Parse(bytes(data), message, ignore_unknown_fields=True)
            else:
                message.ParseFromString(bytes(data))
        except Exception as exc:
            if self._name == "json":
                why = str(exc)[:200]
                raise ConnectError(
                    Code.INVALID_ARGUMENT,
                    f"the request is not JSON of a {message.DESCRIPTOR.full_name}: {why}",
                ) from None
            raise ConnectError(
                Code.INVALID_ARGUMENT, "the request bytes are not a valid message of this method"
            ) from None
        return message


class _Auth:
    """A metadata interceptor: the bearer token, checked before the body is read."""

    def __init__(self, token: str) -> None:
        self._token = token

    async def on_start(self, ctx: RequestContext[Any, Any]) -> None:
        """Refuse a call without the token (UNAUTHENTICATED)."""
        refusal = bearer_refusal(self._token, ctx.request_headers.get("authorization", ""))
        if refusal is not None:
            raise ConnectError(Code.UNAUTHENTICATED, refusal)

    async def on_end(self, token: None, ctx: RequestContext[Any, Any], error: Exception | None) -> None:
        """Nothing to do at the end."""


def connect_apps(
    handlers: Mapping[str, object], *, max_message_bytes: int, auth_token: str | None
) -> dict[str, Any]:
    """One generated Connect ASGI application per service, by full service name."""
    codecs = [_Codec("proto", max_message_bytes), _Codec("json", max_message_bytes)]
    interceptors = [_Auth(auth_token)] if auth_token else []
    apps: dict[str, Any] = {}
    for module in _CONNECT_MODULES:
        descriptor = importlib.import_module(module.__name__.removesuffix("_connect") + "_pb2").DESCRIPTOR
        for service in descriptor.services_by_name.values():
            app_class = getattr(module, f"{service.name}ASGIApplication")
            apps[service.full_name] = app_class(
                connect_service(handlers[service.name], service),
                interceptors=interceptors,
                read_max_bytes=max_message_bytes,
                codecs=codecs,
            )
    return apps


# ------------------------------------------------------------------------------------------- the app
_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".json": "application/json",
    ".txt": "text/plain; charset=utf-8",
}

_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'"
)

_CORS_ALLOW_HEADERS = (
    "authorization, content-type, connect-protocol-version, connect-timeout-ms, connect-accept-encoding, "
    "connect-content-encoding, grpc-timeout, x-grpc-web, x-user-agent"
)
_CORS_EXPOSE_HEADERS = "grpc-status, grpc-message, grpc-status-details-bin, content-encoding"

Send = Callable[[dict[str, Any]], Awaitable[None]]
Receive = Callable[[], Awaitable[dict[str, Any]]]


async def _respond(
    send: Send, status: int, body: bytes, content_type: str, headers: Iterable[tuple[bytes, bytes]] = ()
) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", content_type.encode()),
                (b"content-length", str(len(body)).encode()),
                (b"x-content-type-options", b"nosniff"),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class HttpApp:
    """The ASGI application of the HTTP port: the Connect services by path, ``/healthz``, and the
    web table's static files.

    Args:
        apps: the Connect applications by full service name (:func:`connect_apps`).
        static_dir: the directory served at ``/`` (None: no page).
        cors_origins: origins whose pages may call the API (``*``: any); none by default (the
            page served here needs none).
        serving: whether the server takes calls (``/healthz`` says SERVING or NOT_SERVING).
        grpc_port: the gRPC port, named when a native gRPC call reaches this port.
    """

    def __init__(
        self,
        apps: Mapping[str, Any],
        *,
        static_dir: Path | None = WEB_ROOT,
        cors_origins: Sequence[str] = (),
        serving: Callable[[], bool] = lambda: True,
        grpc_port: int = 0,
    ) -> None:
        self.apps = dict(apps)
        self.static_dir = static_dir.resolve() if static_dir is not None else None
        self.cors_origins = tuple(cors_origins)
        self.serving = serving
        self.grpc_port = grpc_port

    def _cors(self, scope: Mapping[str, Any]) -> list[tuple[bytes, bytes]]:
        origin = ""
        for key, value in scope.get("headers", ()):
            if key == b"origin":
                origin = value.decode("latin-1")
        if not origin or not self.cors_origins:
            return []
        if "*" not in self.cors_origins and origin not in self.cors_origins:
            return []
        return [
            (b"access-control-allow-origin", origin.encode("latin-1")),
            (b"access-control-expose-headers", _CORS_EXPOSE_HEADERS.encode()),
            (b"vary", b"Origin"),
        ]

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        """Route one request."""
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        if scope["type"] != "http":
            return
        path, method = scope["path"], scope["method"]
        parts = path.split("/")
        app = self.apps.get(parts[1]) if len(parts) == 3 else None
        if app is not None:
            await self._rpc(app, scope, receive, send)
        elif path == "/healthz" and method in ("GET", "HEAD"):
            up = self.serving()
            await _respond(send, 200 if up else 503, b"SERVING\n" if up else b"NOT_SERVING\n", "text/plain")
        elif method in ("GET", "HEAD") and self.static_dir is not None:
            await self._static(path, method, send)
        else:
            await _respond(send, 404, b"not found\n", "text/plain; charset=utf-8")

    async def _rpc(self, app: Any, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        cors = self._cors(scope)
        if scope["method"] == "OPTIONS":  # a browser's CORS preflight
            if not cors:
                await _respond(
                    send, 403, b"this origin may not call the API (--http-cors-origin)\n", "text/plain"
                )
                return
            allow = [
                (b"access-control-allow-methods", b"POST, GET"),
                (b"access-control-allow-headers", _CORS_ALLOW_HEADERS.encode()),
                (b"access-control-max-age", b"7200"),
            ]
            await _respond(send, 204, b"", "text/plain", [*cors, *allow])
            return
        content_type = ""
        for key, value in scope.get("headers", ()):
            if key == b"content-type":
                content_type = value.decode("latin-1").lower()
        if content_type.startswith("application/grpc") and not content_type.startswith(
            "application/grpc-web"
        ):
            where = f" (port {self.grpc_port})" if self.grpc_port else ""
            message = (
                f"native gRPC is served on the gRPC port{where}; this port speaks Connect and gRPC-Web\n"
            )
            await _respond(send, 415, message.encode(), "text/plain; charset=utf-8")
            return
        if not cors:
            await app(scope, receive, send)
            return

        async def send_with_cors(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", ()), *cors]}
            await send(message)

        await app(scope, receive, send_with_cors)

    async def _static(self, path: str, method: str, send: Send) -> None:
        assert self.static_dir is not None
        rel = path.lstrip("/") or "index.html"
        target = (self.static_dir / rel).resolve()
        if target.is_dir():
            target = target / "index.html"
        inside = target.is_relative_to(self.static_dir)
        if not inside or not target.is_file() or any(p.startswith(".") for p in target.parts):
            await _respond(send, 404, b"not found\n", "text/plain; charset=utf-8")
            return
        body = await asyncio.to_thread(target.read_bytes)
        etag = hashlib.sha256(body).hexdigest()[:16]
        headers = [
            (b"cache-control", b"no-cache"),
            (b"etag", f'"{etag}"'.encode()),
            (b"referrer-policy", b"no-referrer"),
            (b"content-security-policy", _CSP.encode()),
        ]
        kind = _TYPES.get(target.suffix, "application/octet-stream")
        await _respond(send, 200, b"" if method == "HEAD" else body, kind, headers)


# ------------------------------------------------------------------------------------------- server
def bind_http(address: str) -> socket.socket:
    """A listening socket on ``host:port`` (port 0: a free one). OSError when it cannot be had."""
    host, _, port = address.rpartition(":")
    host = host.strip("[]") or "127.0.0.1"
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, int(port)))
        sock.listen(128)
        sock.setblocking(False)
    except (OSError, ValueError):
        sock.close()
        raise
    return sock


def _ssl_context(cert: bytes, key: bytes) -> ssl.SSLContext:
    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    with tempfile.TemporaryDirectory() as tmp:  # load_cert_chain reads files only
        cert_path, key_path = Path(tmp) / "cert.pem", Path(tmp) / "key.pem"
        cert_path.write_bytes(cert)
        key_path.touch(mode=0o600)
        key_path.write_bytes(key)
        ctx.load_cert_chain(cert_path, key_path)
    return ctx


class HttpServer:
    """uvicorn serving an :class:`HttpApp` on a bound socket, on the caller's event loop.

    Args:
        app: the ASGI application.
        sock: the listening socket (:func:`bind_http`).
        tls: PEM certificate chain and key: the port is HTTPS only.
    """

    def __init__(self, app: HttpApp, sock: socket.socket, *, tls: tuple[bytes, bytes] | None = None) -> None:
        import uvicorn

        self.sock = sock
        self.port: int = sock.getsockname()[1]
        config = uvicorn.Config(
            app,
            lifespan="off",
            log_config=None,
            access_log=False,
            server_header=False,
            http="h11",
            ws="none",
            limit_concurrency=MAX_HTTP_CONNECTIONS,
            timeout_keep_alive=KEEP_ALIVE_S,
        )
        config.load()
        logging.getLogger("uvicorn.error").setLevel(logging.WARNING)  # no start/stop lines of its own
        if tls is not None:
            config.ssl = _ssl_context(*tls)
        self._server = uvicorn.Server(config)
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Start serving (on the running loop)."""
        self._task = asyncio.ensure_future(self._server.serve(sockets=[self.sock]))
        while not self._server.started and not self._task.done():
            await asyncio.sleep(0.01)
        if self._task.done():
            self._task.result()  # its exception, if it failed to start

    async def stop(self, grace: float) -> None:
        """Stop taking connections; requests in flight get ``grace`` seconds, then are cancelled."""
        self._server.config.timeout_graceful_shutdown = max(1, round(grace))
        self._server.should_exit = True
        if self._task is not None:
            await self._task
        self.sock.close()

    def close(self) -> None:
        """Close the socket of a server that never started."""
        self.sock.close()
