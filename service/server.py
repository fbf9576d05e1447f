"""The Lictor gRPC server: ``create_server`` (for tests and embedding) and ``serve`` (the CLI).

The server is asyncio (``grpc.aio``) on an event loop of its own: a stream holds no thread, and
light calls (the referee's, listings, scores, matches) are answered on the loop. The CPU-heavy
calls (searches, solves) run in a pool of worker processes, and the AI seats of hosted matches in
another (:mod:`service.workers`), both started from a forkserver and warm before the port takes
calls. The match store is used from threads of its own (one for SQLite, ``db_connections`` for
PostgreSQL), so the loop never waits on a disk or a database server.

``create_server(address, db_path=...)`` builds and starts a server with every ``lictor.v1``
service, the standard health service (overall and per service) and reflection, and returns it with
its bound port (``"127.0.0.1:0"`` picks a free one). With ``http_address`` the same handlers also
answer over HTTP (the Connect protocol and gRPC-Web, :mod:`service.http`) on that port, which
serves the web table at ``/`` too; ``serve`` opens it on 127.0.0.1:8080 by default. It binds the
ports before it opens the database (a port in use leaves no database file behind) and raises
:class:`StartupError` (one line) when a port, the database or a worker process cannot be had.
``serve`` runs it until SIGTERM/SIGINT, then drains in-flight calls for ``grace_s`` seconds.

``db_path`` is an SQLite file (the default; one server owns it) or a ``postgresql://`` (or
``postgres://``) URL: then any number of servers share the matches, each catching up from the
database, claiming AI turns from its queue and hearing the others' changes (LISTEN/NOTIFY) on a
connection of its own (:mod:`service.matches.postgres`).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import gc
import logging
import signal
import socket
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from types import FrameType
from typing import Any

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_health.v1._async import HealthServicer
from grpc_reflection.v1alpha import reflection

from games.core.registry import entries
from lictor.v1 import (
    advisor_service_pb2,
    advisor_service_pb2_grpc,
    diagnostics_service_pb2,
    diagnostics_service_pb2_grpc,
    game_service_pb2,
    game_service_pb2_grpc,
    match_service_pb2,
    match_service_pb2_grpc,
    solver_service_pb2,
    solver_service_pb2_grpc,
)
from service import convert
from service.advisor import AdvisorServicer
from service.auth import BearerTokenInterceptor, is_loopback
from service.game import DiagnosticsServicer, GameServicer, list_game_infos
from service.http import HttpApp, HttpServer, bind_http, connect_apps
from service.limits import Limits
from service.matches import AiSeats, MatchServicer, MatchStore, StoreError, StreamGate
from service.rpc import grpc_servicer
from service.solve import SolverServicer
from service.workers import WorkerPool, forkserver_context

__all__ = [
    "DEFAULT_ADDRESS",
    "DEFAULT_HTTP_ADDRESS",
    "GC_THRESHOLD",
    "SERVICE_NAMES",
    "LictorServer",
    "StartupError",
    "create_server",
    "serve",
    "tune_gc",
]

log = logging.getLogger("lictor.server")

DEFAULT_ADDRESS = "127.0.0.1:50051"
"""Where ``serve`` binds by default (loopback only)."""

DEFAULT_HTTP_ADDRESS = "127.0.0.1:8080"
"""Where ``serve`` answers over HTTP (Connect, gRPC-Web, the web table) by default."""

SERVICE_NAMES: tuple[str, ...] = (
    game_service_pb2.DESCRIPTOR.services_by_name["GameService"].full_name,
    advisor_service_pb2.DESCRIPTOR.services_by_name["AdvisorService"].full_name,
    solver_service_pb2.DESCRIPTOR.services_by_name["SolverService"].full_name,
    match_service_pb2.DESCRIPTOR.services_by_name["MatchService"].full_name,
    diagnostics_service_pb2.DESCRIPTOR.services_by_name["DiagnosticsService"].full_name,
)
"""The full names of the ``lictor.v1`` services."""

_GRPC_ADDERS: tuple[tuple[Any, Any], ...] = (
    (game_service_pb2, game_service_pb2_grpc.add_GameServiceServicer_to_server),
    (diagnostics_service_pb2, diagnostics_service_pb2_grpc.add_DiagnosticsServiceServicer_to_server),
    (advisor_service_pb2, advisor_service_pb2_grpc.add_AdvisorServiceServicer_to_server),
    (solver_service_pb2, solver_service_pb2_grpc.add_SolverServiceServicer_to_server),
    (match_service_pb2, match_service_pb2_grpc.add_MatchServiceServicer_to_server),
)
"""Each service's generated module and the function that puts a servicer of it on a gRPC server."""

GC_THRESHOLD = (10_000, 10, 10)
"""The cyclic collector's thresholds in a serving process (Python's default is 700, 10, 10)."""


class StartupError(Exception):
    """The server cannot start (port in use, database unusable, workers failing): one line."""


def tune_gc() -> None:
    """Load what calls will use, then keep the cyclic garbage collector off the serving path.

    Every game, its content pack and the solver modules are loaded (the first call does not pay
    for them; after :func:`create_server` they are already, and listing them again costs little),
    the heap built so far is frozen (``gc.freeze``) and the youngest generation is collected every
    10,000 allocations instead of 700. Used by :func:`serve`.
    """
    list_game_infos()
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLD)


class _SafeDecode(grpc.aio.ServerInterceptor):  # type: ignore[misc]
    """Decodes each ``lictor.v1`` request itself, so bytes that are not the request message get
    INVALID_ARGUMENT naming the message type (gRPC's own decoder would answer INTERNAL)."""

    async def intercept_service(self, continuation: Any, details: grpc.HandlerCallDetails) -> Any:
        handler = await continuation(details)
        if handler is None or handler.request_deserializer is None:
            return handler
        if not (details.method or "").startswith("/lictor.v1."):
            return handler
        decode = handler.request_deserializer
        if handler.unary_unary is not None:
            inner = handler.unary_unary

            async def unary(raw: bytes, context: grpc.aio.ServicerContext) -> Any:
                return await inner(await _decoded(decode, raw, context), context)

            return grpc.unary_unary_rpc_method_handler(unary, None, handler.response_serializer)
        if handler.unary_stream is not None:
            inner_stream = handler.unary_stream

            async def stream(raw: bytes, context: grpc.aio.ServicerContext) -> Any:
                async for item in inner_stream(await _decoded(decode, raw, context), context):
                    yield item

            return grpc.unary_stream_rpc_method_handler(stream, None, handler.response_serializer)
        return handler


async def _decoded(decode: Any, raw: bytes, context: grpc.aio.ServicerContext) -> Any:
    try:
        return decode(raw)
    except Exception:
        await context.abort(
            grpc.StatusCode.INVALID_ARGUMENT, "the request bytes are not a valid message of this method"
        )


class LictorServer:
    """A running server: the ``grpc.aio`` server on its loop thread, the match store, the worker
    pools and the AI seats' scheduler.

    Attributes:
        port: the bound port.
        http_port: the bound HTTP port (0: no HTTP).
        store: the match store.
        limits: the caps.
        calls: the worker processes of searches and solves.
        seats: the worker processes of the AI seats.
        ai: the AI seats' scheduler.
        warnings: what the server wants said on start (e.g. a token without TLS off loopback).
    """

    def __init__(self, *, loop: asyncio.AbstractEventLoop, thread: threading.Thread) -> None:
        self.loop = loop
        self._thread = thread
        self.grpc_server: grpc.aio.Server
        self.port = 0
        self.http_port = 0
        self.http: HttpServer | None = None
        self.store: MatchStore
        self.limits: Limits
        self.calls: WorkerPool
        self.seats: WorkerPool
        self.ai: AiSeats
        self.matches: MatchServicer
        self.handlers: dict[str, Any] = {}
        self.health: HealthServicer
        self.db_executor = concurrent.futures.ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="lictor-db"
        )
        self._listener: asyncio.Task[None] | None = None
        self.warnings: list[str] = []
        self._started = False
        self._stopping: concurrent.futures.Future[None] | None = None
        self._done = threading.Event()
        self._refusing = threading.Event()
        self._closed = False

    async def run_db(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        """Run a blocking store call on the store's thread."""
        return await self.loop.run_in_executor(self.db_executor, functools.partial(fn, *args, **kwargs))

    def _call(self, coro: Any, timeout: float | None = None) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def start(self) -> None:
        """Start serving and the AI seats (``create_server(start=False)`` leaves both to this)."""
        if not self._started:
            self._started = True
            self._call(self._start())

    async def _start(self) -> None:
        await self.grpc_server.start()
        if self.http is not None:
            await self.http.start()
        await self.run_db(self.store.resume)
        if self.store.shared:  # the other replicas' changes, and the AI turns' queue
            self._listener = asyncio.ensure_future(self.store.db.listen(self._remote))
            self.ai.run()

    def _remote(self, match_id: str, due: bool) -> None:
        self.matches.remote(match_id, due)
        self.ai.remote(match_id, due)

    def serving(self) -> bool:
        """Whether the server takes calls (started, not shutting down)."""
        return self._started and not self._refusing.is_set()

    def stop(self, grace: float | None = None) -> threading.Event:
        """Stop accepting calls, let in-flight calls finish within ``grace`` seconds, then close.

        Returns an event set when the server has terminated (like ``grpc.Server.stop``).
        """
        if self._stopping is None and not self._done.is_set():
            self._stopping = asyncio.run_coroutine_threadsafe(self._stop(grace), self.loop)
            self._refusing.wait(5.0)  # new calls are refused once this returns
        return self._done

    async def _stop(self, grace: float | None) -> None:
        try:
            grace = grace or 0.0
            self.calls.drain()  # no worker process is replaced from now on
            self.seats.drain()
            stopping = asyncio.ensure_future(self.grpc_server.stop(grace))
            http_stopping = asyncio.ensure_future(self.http.stop(grace)) if self.http is not None else None
            await asyncio.sleep(0)  # the stop task runs until it waits: no new calls from now on
            self._refusing.set()
            await self.health.enter_graceful_shutdown()
            self.matches.shutdown()
            await self.ai.close()
            if self._listener is not None:
                self._listener.cancel()
                with contextlib.suppress(BaseException):
                    await self._listener
            # Searches still running near the end of the grace period answer their best so far, in
            # time for their answers to leave before the server cancels what is left.
            self.loop.call_later(max(0.0, grace - min(0.5, 0.25 * grace)), self.calls.stop_all)
            await stopping
            if http_stopping is not None:
                await http_stopping
            await asyncio.gather(self.calls.close(), self.seats.close())
        finally:
            self._refusing.set()
            self._done.set()

    def close(self) -> None:
        """Stop (at once, if not stopping already), then close the database and the loop."""
        if self._closed:
            return
        self._closed = True
        if self._started and not self._done.is_set():
            self.stop(0).wait(10)
        elif not self._started:
            self._call(self._close_pools(), 10)
            if self.http is not None:
                self.http.close()
        self.db_executor.shutdown(wait=True)
        self.store.close()
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(5)
        self._done.set()

    async def _close_pools(self) -> None:
        await asyncio.gather(self.calls.close(), self.seats.close())

    def wait_for_termination(self, timeout: float | None = None) -> bool:
        """Block until the server stops."""
        return self._done.wait(timeout)


def create_server(
    address: str = DEFAULT_ADDRESS,
    *,
    db_path: str | Path = "lictor.db",
    limits: Limits | None = None,
    tls_cert: bytes | None = None,
    tls_key: bytes | None = None,
    auth_token: str | None = None,
    content_root: str | Path | None = None,
    http_address: str | None = None,
    cors_origins: Sequence[str] = (),
    start: bool = True,
) -> tuple[LictorServer, int]:
    """Build (and by default start) a server on ``address``; returns it and its bound port.

    Args:
        address: ``host:port`` to bind (port 0 picks a free port).
        db_path: the SQLite file of hosted matches, or a ``postgresql://`` URL shared by replicas.
        limits: server caps (budgets, processes, streams, matches, message size, caches).
        tls_cert: PEM certificate chain; with ``tls_key`` the port is TLS only.
        tls_key: PEM private key.
        auth_token: when set, every call but health needs ``authorization: Bearer <token>``.
        content_root: the directory under which requests may name content packs (None: no user packs).
        http_address: ``host:port`` where the same API answers over HTTP (Connect, gRPC-Web) and the
            web table is served (None: no HTTP; port 0 picks a free port: ``server.http_port``).
        cors_origins: origins of other pages that may call the HTTP API (``*``: any).
        start: start serving (and the AI seats) before returning.

    Raises:
        StartupError: the port, the database or the worker processes cannot be had.
        ValueError: a certificate without a key or the reverse.
    """
    if (tls_cert is None) != (tls_key is None):
        raise ValueError("TLS needs both a certificate and a key")
    ctx = forkserver_context()  # before any thread of ours: the forkserver starts clean
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="lictor-loop", daemon=True)
    thread.start()
    server = LictorServer(loop=loop, thread=thread)
    try:
        build = _build(
            server,
            address,
            ctx=ctx,
            db_path=db_path,
            limits=limits or Limits(),
            tls=(tls_cert, tls_key) if tls_cert is not None and tls_key is not None else None,
            auth_token=auth_token,
            content_root=str(content_root) if content_root else None,
            http=(http_address, tuple(cors_origins)) if http_address else None,
        )
        asyncio.run_coroutine_threadsafe(build, loop).result()
    except BaseException:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
        raise
    if start:
        server.start()
    return server, server.port


async def _build(
    server: LictorServer,
    address: str,
    *,
    ctx: Any,
    db_path: str | Path,
    limits: Limits,
    tls: tuple[bytes, bytes] | None,
    auth_token: str | None,
    content_root: str | None,
    http: tuple[str, tuple[str, ...]] | None = None,
) -> None:
    """Build ``server`` in the order that leaves nothing behind when a step fails: the ports, the
    database, the worker processes, then the servicers (and the HTTP server)."""
    server.limits = limits
    convert.configure_caches(limits.cache_bytes)
    aio = _grpc_server(server, address, limits=limits, tls=tls, auth_token=auth_token)
    http_sock = None
    if http is not None:
        http_sock = await _bind_http(aio, http[0])
    server.warnings += _clear_token_warnings(
        (address, *([http[0]] if http is not None else [])), auth_token, tls
    )
    _open_store(server, db_path, limits, http_sock)
    await _start_pools(server, ctx, limits, http_sock)

    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, list_game_infos)  # every game loaded before the first call
    gate = StreamGate(limits)
    games = entries
    server.matches = MatchServicer(server.store, limits, server.run_db, gate)
    server.matches.start(loop)
    server.ai = AiSeats(server.store, server.seats, server.run_db, games, lease_s=limits.ai_lease_s)
    server.ai.start(loop)

    await _add_services(server, aio, gate, content_root)
    if http is not None and http_sock is not None:
        apps = connect_apps(
            server.handlers, max_message_bytes=limits.max_message_bytes, auth_token=auth_token
        )
        app = HttpApp(apps, cors_origins=http[1], serving=server.serving, grpc_port=server.port)
        server.http = HttpServer(app, http_sock, tls=tls)
        server.http_port = server.http.port


def _grpc_server(
    server: LictorServer,
    address: str,
    *,
    limits: Limits,
    tls: tuple[bytes, bytes] | None,
    auth_token: str | None,
) -> grpc.aio.Server:
    """The ``grpc.aio`` server of ``server``, its port bound on ``address`` (first: if it is taken,
    nothing else, no database file, is made)."""
    # The token first (no body decoded for a caller without it), then our own decoding.
    interceptors: Sequence[grpc.aio.ServerInterceptor] = [
        *([BearerTokenInterceptor(auth_token)] if auth_token else []),
        _SafeDecode(),
    ]
    aio = grpc.aio.server(
        interceptors=interceptors,
        options=[
            ("grpc.max_receive_message_length", limits.max_message_bytes),
            ("grpc.max_send_message_length", limits.max_message_bytes),
            ("grpc.so_reuseport", 0),
        ],
    )
    server.grpc_server = aio
    try:
        if tls is not None:
            creds = grpc.ssl_server_credentials([(tls[1], tls[0])])
            server.port = aio.add_secure_port(address, creds)
        else:
            server.port = aio.add_insecure_port(address)
    except RuntimeError:
        raise StartupError(
            f"cannot listen on {address}: the port is in use or the address is wrong"
        ) from None
    return aio


async def _bind_http(aio: grpc.aio.Server, address: str) -> socket.socket:
    """The HTTP port's socket (the gRPC server is stopped when it cannot be had)."""
    try:
        return bind_http(address)
    except (OSError, ValueError):
        await aio.stop(None)
        raise StartupError(
            f"cannot listen on {address} (HTTP): the port is in use or the address is wrong"
        ) from None


def _clear_token_warnings(
    addresses: Sequence[str], auth_token: str | None, tls: tuple[bytes, bytes] | None
) -> list[str]:
    """A warning per address off loopback where a bearer token would cross the network without TLS."""
    warnings = []
    for where in addresses:
        host = where.rsplit(":", 1)[0]
        if auth_token and tls is None and not is_loopback(host):
            warnings.append(
                f"warning: a bearer token is required on {where} without TLS: the token crosses the network "
                "in the clear (use --tls-cert/--tls-key)"
            )
    return warnings


def _open_store(
    server: LictorServer, db_path: str | Path, limits: Limits, http_sock: socket.socket | None
) -> None:
    """The match store, with as many store threads as its database takes (the HTTP socket is closed
    when it cannot be opened)."""
    try:
        server.store = MatchStore(db_path, pool_size=limits.db_connections)
    except StoreError as exc:
        if http_sock is not None:
            http_sock.close()
        raise StartupError(str(exc)) from None

    if server.store.db.threads > 1:
        server.db_executor.shutdown(wait=False)
        server.db_executor = concurrent.futures.ThreadPoolExecutor(
            max_workers=server.store.db.threads, thread_name_prefix="lictor-db"
        )


async def _start_pools(
    server: LictorServer, ctx: Any, limits: Limits, http_sock: socket.socket | None
) -> None:
    """The worker processes of calls and of AI seats, started (the store and the HTTP socket are
    closed when they cannot be)."""
    server.calls = WorkerPool("calls", limits.max_concurrent_searches, ctx=ctx, growth=limits.worker_growth)
    server.seats = WorkerPool("seats", limits.ai_workers, ctx=ctx, growth=limits.worker_growth)
    try:
        await asyncio.gather(server.calls.start(), server.seats.start())
    except Exception as exc:
        server.store.close()
        if http_sock is not None:
            http_sock.close()
        raise StartupError(f"the worker processes did not start: {exc}") from None


async def _add_services(server: LictorServer, aio: Any, gate: StreamGate, content_root: str | None) -> None:
    """Every servicer on the gRPC server (and, when asked, the HTTP server), health SERVING,
    reflection on."""
    limits, games = server.limits, entries
    server.handlers = {
        "GameService": GameServicer(content_root=content_root),
        "DiagnosticsService": DiagnosticsServicer(),
        "AdvisorService": AdvisorServicer(limits, server.calls, games, gate, content_root=content_root),
        "SolverService": SolverServicer(limits, server.calls, games, content_root=content_root),
        "MatchService": server.matches,
    }
    for module, adder in _GRPC_ADDERS:
        name = adder.__name__.removeprefix("add_").removesuffix("Servicer_to_server")
        adder(grpc_servicer(server.handlers[name], module.DESCRIPTOR.services_by_name[name]), aio)
    server.health = HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(server.health, aio)
    for name in ("", *SERVICE_NAMES):
        await server.health.set(name, health_pb2.HealthCheckResponse.SERVING)
    reflection.enable_server_reflection(
        (*SERVICE_NAMES, "grpc.health.v1.Health", reflection.SERVICE_NAME), aio
    )


def serve(
    address: str = DEFAULT_ADDRESS,
    *,
    db_path: str | Path = "lictor.db",
    grace_s: float = 10.0,
    http_address: str | None = DEFAULT_HTTP_ADDRESS,
    **kwargs: Any,
) -> None:
    """Run a server until SIGTERM or SIGINT, then drain in-flight calls within ``grace_s``.

    The signals are taken before the server starts (one during start-up stops it once it is up).
    Sent to the whole process group (Ctrl-C in a terminal, ``timeout``, a service manager), they
    reach the worker processes too, which ignore them: the server drains (no worker is replaced
    meanwhile), then stops its workers, and returns (exit code 0).

    Raises :class:`StartupError` when it cannot start (the CLI prints it in one line, exit 2).
    """
    # The handler only appends: it runs in the main thread between two bytecodes, and one that took a
    # lock (``threading.Event.set``) could find it held by the very wait it interrupted and hang.
    signals: list[int] = []

    def on_signal(signum: int, frame: FrameType | None) -> None:
        signals.append(signum)

    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, on_signal)
    server, port = create_server(address, db_path=db_path, start=False, http_address=http_address, **kwargs)
    tune_gc()  # before the first call
    server.start()
    host = address.rsplit(":", 1)[0]
    for warning in server.warnings:
        log.warning("%s", warning)
        print(warning, flush=True)
    db = server.store.path
    log.info("lictor serving on %s:%d (db %s)", host, port, db)
    print(f"lictor serving on {host}:{port} (db {db})", flush=True)
    if http_address is not None:
        web_host = http_address.rsplit(":", 1)[0]
        scheme = "https" if kwargs.get("tls_cert") else "http"
        shown = f"{scheme}://{web_host}:{server.http_port}/"
        log.info("lictor web table and Connect/gRPC-Web API on %s", shown)
        print(f"lictor web table and Connect/gRPC-Web API on {shown}", flush=True)
    while not signals:
        time.sleep(0.1)
    t0 = time.monotonic()
    log.info("%s: draining for up to %.1f s", signal.Signals(signals[0]).name, grace_s)
    server.stop(grace_s).wait()
    server.close()
    log.info("lictor stopped in %.1f s", time.monotonic() - t0)
