"""Bearer-token authentication (health stays open), one check for both transports.

The token is checked on the call's metadata (gRPC) or headers (HTTP: ``service.http``), before its
body is read: a call without the right token is refused with UNAUTHENTICATED and its request bytes
are never decoded. :func:`bearer_refusal` is the one check; the gRPC interceptor is here.
"""

from __future__ import annotations

import hmac
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import grpc

__all__ = ["OPEN_PREFIXES", "BearerTokenInterceptor", "bearer_refusal", "is_loopback", "read_token_file"]

OPEN_PREFIXES = ("/grpc.health.v1.Health/",)
"""Methods callable without a token."""

MAX_TOKEN_CHARS = 1024
"""Longest ``authorization`` value read (longer ones are refused unread)."""


def read_token_file(path: str | Path) -> str:
    """The token in ``path`` (surrounding whitespace stripped); ValueError when empty."""
    token = Path(path).read_text().strip()
    if not token:
        raise ValueError(f"auth token file {str(path)!r} is empty")
    return token


def is_loopback(host: str) -> bool:
    """Whether ``host`` (of a ``host:port`` address) is a loopback address."""
    host = host.strip("[]")
    return host in ("localhost", "::1") or host.startswith("127.")


def bearer_refusal(token: str, given: str) -> str | None:
    """Why a call whose ``authorization`` value is ``given`` is refused (None: it carries ``token``)."""
    if len(given) <= MAX_TOKEN_CHARS:
        scheme, _, value = given.partition(" ")
        if hmac.compare_digest(f"{scheme.lower()} {value.strip()}".encode(), f"bearer {token}".encode()):
            return None
    return ("missing bearer token" if not given else "invalid bearer token") + (
        "; send metadata 'authorization: Bearer <token>'"
    )


def _deny(message: str) -> Callable[[Any, grpc.aio.ServicerContext], Awaitable[Any]]:
    async def deny(request: Any, context: grpc.aio.ServicerContext) -> Any:
        await context.abort(grpc.StatusCode.UNAUTHENTICATED, message)

    return deny


def _deny_stream(message: str) -> Callable[[Any, grpc.aio.ServicerContext], Any]:
    async def deny(request: Any, context: grpc.aio.ServicerContext) -> Any:
        await context.abort(grpc.StatusCode.UNAUTHENTICATED, message)
        yield None  # pragma: no cover  (an async generator: abort raises first)

    return deny


class BearerTokenInterceptor(grpc.aio.ServerInterceptor):  # type: ignore[misc]
    """Refuse calls without ``authorization: Bearer <token>`` metadata with UNAUTHENTICATED."""

    def __init__(self, token: str) -> None:
        self._token = token

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler | None]],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler | None:
        """Pass the call on when it is open or carries the token."""
        method = handler_call_details.method or ""
        if method.startswith(OPEN_PREFIXES):
            return await continuation(handler_call_details)
        given = ""
        for key, value in handler_call_details.invocation_metadata or ():
            if key == "authorization":
                given = value if isinstance(value, str) else value.decode("latin-1")
                break
        message = bearer_refusal(self._token, given)
        if message is None:
            return await continuation(handler_call_details)
        handler = await continuation(handler_call_details)
        if handler is None:
            return None
        # No request deserializer: the refused call's body is never decoded.
        if handler.response_streaming:
            if handler.request_streaming:
                return grpc.stream_stream_rpc_method_handler(_deny_stream(message))
            return grpc.unary_stream_rpc_method_handler(
                _deny_stream(message), response_serializer=handler.response_serializer
            )
        if handler.request_streaming:
            return grpc.stream_unary_rpc_method_handler(_deny(message))
        return grpc.unary_unary_rpc_method_handler(
            _deny(message), response_serializer=handler.response_serializer
        )
