"""One implementation, two transports: what a handler knows of its call, and the gRPC side of it.

The servicers (``GameServicer``, ``AdvisorServicer``, ``SolverServicer``, ``MatchServicer``,
``DiagnosticsServicer``) are transport-neutral: each RPC is a method named after it that takes the
request message and a :class:`Call`, returns the response message (or yields them, for a server
stream) and raises Lictor's exceptions. Two adapters put them on the wire, each built from the
service's descriptor, so no RPC is listed twice:

- :func:`grpc_servicer` for ``grpc.aio`` (this module), and
- ``service.http.connect_service`` for the Connect protocol and gRPC-Web (ASGI).

Both map exceptions through the one table of :mod:`service.errors`, so a status, its message and
its ``google.rpc.Status`` details are the same on both. Methods decorated with :func:`checked`
have their request bounded first (:func:`service.requests.check_request`), whatever the transport.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import AsyncIterator, Callable
from types import SimpleNamespace
from typing import Any, Protocol, TypeVar, cast

import grpc

from games.core.text import is_digits
from service.errors import abort

__all__ = ["Call", "GrpcCall", "checked", "client_key", "grpc_servicer"]

F = TypeVar("F", bound=Callable[..., Any])


class Call(Protocol):
    """What a handler may know of the call it answers, whatever the transport."""

    @property
    def client(self) -> str:
        """The caller's address without its port (``"ipv4:127.0.0.1"``): the unit of per-client caps,
        the same for a client whichever transport it uses."""
        ...

    def time_remaining(self) -> float | None:
        """Seconds left before the client's deadline (None: no deadline)."""
        ...


def client_key(peer: str) -> str:
    """A peer address without its port: ``"ipv4:127.0.0.1:5051"`` -> ``"ipv4:127.0.0.1"``."""
    host, sep, port = peer.rpartition(":")
    return host if sep and is_digits(port) else peer


class GrpcCall:
    """A :class:`Call` over a ``grpc.aio`` servicer context."""

    __slots__ = ("context",)

    def __init__(self, context: grpc.aio.ServicerContext) -> None:
        self.context = context

    @property
    def client(self) -> str:
        """The peer without its port."""
        return client_key(self.context.peer() or "")

    def time_remaining(self) -> float | None:
        """Seconds to the client's deadline."""
        remaining: float | None = self.context.time_remaining()
        return remaining


def checked(fn: F) -> F:
    """Decorate a handler method (unary or server-streaming): its request is bounded first
    (:func:`service.requests.check_request`) on every transport."""
    from service.requests import check_request

    if inspect.isasyncgenfunction(fn):

        @functools.wraps(fn)
        async def stream(self: Any, request: Any, call: Call) -> AsyncIterator[Any]:
            check_request(request)
            async for item in fn(self, request, call):
                yield item

        return cast(F, stream)

    @functools.wraps(fn)
    async def unary(self: Any, request: Any, call: Call) -> Any:
        check_request(request)
        return await fn(self, request, call)

    return cast(F, unary)


def _grpc_unary(fn: Callable[..., Any]) -> Callable[..., Any]:
    async def unary(request: Any, context: grpc.aio.ServicerContext) -> Any:
        try:
            return await fn(request, GrpcCall(context))
        except grpc.aio.AbortError:
            raise
        except Exception as exc:
            await abort(context, exc)
            raise  # unreachable: abort raises

    return unary


def _grpc_stream(fn: Callable[..., Any]) -> Callable[..., Any]:
    async def stream(request: Any, context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
        try:
            async for item in fn(request, GrpcCall(context)):
                yield item
        except grpc.aio.AbortError:
            raise
        except Exception as exc:
            await abort(context, exc)

    return stream


def grpc_servicer(handler: object, service: Any) -> Any:
    """An object with one ``grpc.aio`` method per RPC of ``service`` (a ServiceDescriptor), each
    calling ``handler``'s method of the same name; exceptions become statuses (:func:`abort`).
    Pass it to the generated ``add_<Service>Servicer_to_server``."""
    methods = {}
    for method in service.methods:
        fn = getattr(handler, method.name)
        methods[method.name] = _grpc_stream(fn) if method.server_streaming else _grpc_unary(fn)
    return SimpleNamespace(**methods)
