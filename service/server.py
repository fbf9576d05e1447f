"""The Lictor gRPC server: ``create_server`` (for tests and embedding) and ``serve`` (the CLI).

``create_server(address, db_path=...)`` builds and starts a server with every ``lictor.v1``
service, the standard health service (overall and per service) and reflection, and returns it with
its bound port (``"127.0.0.1:0"`` picks a free one). ``serve`` runs it until SIGTERM/SIGINT, then
drains in-flight calls for ``grace_s`` seconds.
"""

from __future__ import annotations

import gc
import logging
import signal
import threading
from collections.abc import Sequence
from concurrent import futures
from pathlib import Path
from types import FrameType
from typing import Any

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

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
from service.advisor import AdvisorServicer
from service.auth import BearerTokenInterceptor
from service.game import DiagnosticsServicer, GameServicer
from service.limits import Limits, SearchGate
from service.matches import AiWorker, MatchServicer, MatchStore
from service.solve import SolverServicer

__all__ = [
    "DEFAULT_ADDRESS",
    "GC_THRESHOLD",
    "SERVICE_NAMES",
    "LictorServer",
    "create_server",
    "serve",
    "tune_gc",
]

log = logging.getLogger("lictor.server")

DEFAULT_ADDRESS = "127.0.0.1:50051"
"""Where ``serve`` binds by default (loopback only)."""

SERVICE_NAMES: tuple[str, ...] = (
    game_service_pb2.DESCRIPTOR.services_by_name["GameService"].full_name,
    advisor_service_pb2.DESCRIPTOR.services_by_name["AdvisorService"].full_name,
    solver_service_pb2.DESCRIPTOR.services_by_name["SolverService"].full_name,
    match_service_pb2.DESCRIPTOR.services_by_name["MatchService"].full_name,
    diagnostics_service_pb2.DESCRIPTOR.services_by_name["DiagnosticsService"].full_name,
)
"""The full names of the ``lictor.v1`` services."""


GC_THRESHOLD = (10_000, 10, 10)
"""The cyclic collector's thresholds in a serving process (Python's default is 700, 10, 10)."""


def tune_gc() -> None:
    """Load what calls will use, then keep the cyclic garbage collector off the serving path.

    Every game, its content pack and the solver modules are loaded now (the first call does not pay
    for them), the heap built so far is frozen (``gc.freeze``: the collector no longer walks the
    modules, content and the like on every full collection, a pause of tens of milliseconds), and
    the youngest generation is collected every 10,000 allocations instead of 700: calls allocate
    many short-lived objects, and fewer, larger young collections cost less in all.
    Used by :func:`serve` (a process of its own); embedding code may call it too.
    """
    from service.game import list_game_infos

    list_game_infos()  # every registered game, its scorer and its puzzles
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLD)


class LictorServer:
    """A running server: the ``grpc.Server`` plus the match store, AI worker and health servicer.

    Attributes:
        grpc_server: the underlying server.
        port: the bound port.
        store: the match store.
        health: the health servicer.
        stop_event: set when the server stops (searches and the AI worker end).
    """

    def __init__(
        self,
        *,
        grpc_server: grpc.Server,
        port: int,
        store: MatchStore,
        worker: AiWorker,
        health_servicer: health.HealthServicer,
        stop_event: threading.Event,
    ) -> None:
        self.grpc_server = grpc_server
        self.port = port
        self.store = store
        self.worker = worker
        self.health = health_servicer
        self.stop_event = stop_event
        self._closed = False
        self._close_lock = threading.Lock()

    def start(self) -> None:
        """Start serving and the AI worker (``create_server(start=False)`` leaves both to this)."""
        self.grpc_server.start()
        self.worker.start()

    def stop(self, grace: float | None = None) -> threading.Event:
        """Stop accepting calls, let in-flight calls finish within ``grace`` seconds, then close.

        Returns an event set when the server has terminated (like ``grpc.Server.stop``).
        """
        self.health.enter_graceful_shutdown()
        done: threading.Event = self.grpc_server.stop(grace)
        threading.Thread(target=self._close_after, args=(done, grace), daemon=True).start()
        return done

    def _close_after(self, done: threading.Event, grace: float | None) -> None:
        # Searches still running near the end of the grace period return their best so far, in time
        # for their answers to leave before the server cancels what is left.
        done.wait(max(0.0, (grace or 0.0) - min(0.5, 0.25 * (grace or 0.0))))
        self.stop_event.set()
        done.wait()
        self.close()

    def close(self) -> None:
        """Stop the AI worker and close the database (after the server stopped)."""
        with self._close_lock:
            if self._closed:
                return
            self._closed = True
        self.stop_event.set()
        self.worker.close()
        self.store.close()

    def wait_for_termination(self, timeout: float | None = None) -> bool:
        """Block until the server stops."""
        return bool(self.grpc_server.wait_for_termination(timeout))


def create_server(
    address: str = DEFAULT_ADDRESS,
    *,
    db_path: str | Path = "lictor.db",
    limits: Limits | None = None,
    max_workers: int = 64,
    tls_cert: bytes | None = None,
    tls_key: bytes | None = None,
    auth_token: str | None = None,
    content_root: str | Path | None = None,
    start: bool = True,
) -> tuple[LictorServer, int]:
    """Build (and by default start) a server on ``address``; returns it and its bound port.

    Args:
        address: ``host:port`` to bind (port 0 picks a free port).
        db_path: the SQLite file of hosted matches.
        limits: server caps (budgets, concurrent searches, message size).
        max_workers: threads serving calls (streams hold one each).
        tls_cert: PEM certificate chain; with ``tls_key`` the port is TLS only.
        tls_key: PEM private key.
        auth_token: when set, every call but health needs ``authorization: Bearer <token>``.
        content_root: the directory under which requests may name content packs (None: no user packs).
        start: start serving (and the AI worker) before returning.
    """
    limits = limits or Limits()
    stop_event = threading.Event()
    interceptors: Sequence[grpc.ServerInterceptor] = (
        [BearerTokenInterceptor(auth_token)] if auth_token else []
    )
    options: list[tuple[str, Any]] = [
        ("grpc.max_receive_message_length", limits.max_message_bytes),
        ("grpc.max_send_message_length", limits.max_message_bytes),
        ("grpc.so_reuseport", 0),
    ]
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix="lictor-rpc"),
        interceptors=interceptors,
        options=options,
    )
    gate = SearchGate(limits.max_concurrent_searches)
    store = MatchStore(db_path)
    worker = AiWorker(store, stop_event)

    root = str(content_root) if content_root else None
    game_service_pb2_grpc.add_GameServiceServicer_to_server(GameServicer(content_root=root), server)
    diagnostics_service_pb2_grpc.add_DiagnosticsServiceServicer_to_server(DiagnosticsServicer(), server)
    advisor_service_pb2_grpc.add_AdvisorServiceServicer_to_server(
        AdvisorServicer(limits, gate, stop_event, content_root=root), server
    )
    solver_service_pb2_grpc.add_SolverServiceServicer_to_server(
        SolverServicer(limits, gate, stop_event, content_root=root), server
    )
    match_service_pb2_grpc.add_MatchServiceServicer_to_server(MatchServicer(store, stop_event), server)

    health_servicer = health.HealthServicer(experimental_non_blocking=True)
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    for name in ("", *SERVICE_NAMES):
        health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    reflection.enable_server_reflection(
        (*SERVICE_NAMES, health.SERVICE_NAME, reflection.SERVICE_NAME), server
    )

    if tls_cert is not None or tls_key is not None:
        if tls_cert is None or tls_key is None:
            raise ValueError("TLS needs both a certificate and a key")
        creds = grpc.ssl_server_credentials([(tls_key, tls_cert)])
        port = server.add_secure_port(address, creds)
    else:
        port = server.add_insecure_port(address)
    if port == 0:
        store.close()
        raise OSError(f"cannot bind {address!r}")
    lictor = LictorServer(
        grpc_server=server,
        port=port,
        store=store,
        worker=worker,
        health_servicer=health_servicer,
        stop_event=stop_event,
    )
    if start:
        lictor.start()
    return lictor, port


def serve(
    address: str = DEFAULT_ADDRESS,
    *,
    db_path: str | Path = "lictor.db",
    grace_s: float = 10.0,
    **kwargs: Any,
) -> None:
    """Run a server until SIGTERM or SIGINT, then drain in-flight calls within ``grace_s``."""
    server, port = create_server(address, db_path=db_path, start=False, **kwargs)
    tune_gc()  # before the first call
    server.start()
    host = address.rsplit(":", 1)[0]
    log.info("lictor serving on %s:%d (db %s)", host, port, db_path)
    print(f"lictor serving on {host}:{port} (db {db_path})", flush=True)
    stopping = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        if stopping.is_set():
            return
        stopping.set()
        log.info("signal %d: draining for up to %.1f s", signum, grace_s)
        server.stop(grace_s)

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    server.wait_for_termination()
    server.close()
