"""Bearer-token authentication as a server interceptor (health stays open)."""

from __future__ import annotations

import hmac
from collections.abc import Callable
from pathlib import Path
from typing import Any

import grpc

__all__ = ["OPEN_PREFIXES", "BearerTokenInterceptor", "read_token_file"]

OPEN_PREFIXES = ("/grpc.health.v1.Health/",)
"""Methods callable without a token."""


def read_token_file(path: str | Path) -> str:
    """The token in ``path`` (surrounding whitespace stripped); ValueError when empty."""
    token = Path(path).read_text().strip()
    if not token:
        raise ValueError(f"auth token file {str(path)!r} is empty")
    return token


def _deny(message: str) -> Callable[[Any, grpc.ServicerContext], Any]:
    def deny(request: Any, context: grpc.ServicerContext) -> Any:
        context.abort(grpc.StatusCode.UNAUTHENTICATED, message)

    return deny


class BearerTokenInterceptor(grpc.ServerInterceptor):  # type: ignore[misc]
    """Reject calls without ``authorization: Bearer <token>`` metadata with UNAUTHENTICATED."""

    def __init__(self, token: str) -> None:
        self._expected = f"bearer {token}".encode()

    def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], grpc.RpcMethodHandler | None],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler | None:
        """Pass the call on when it is open or carries the token."""
        method = handler_call_details.method or ""
        if method.startswith(OPEN_PREFIXES):
            return continuation(handler_call_details)
        metadata = dict(handler_call_details.invocation_metadata or ())
        given = str(metadata.get("authorization", ""))
        scheme, _, value = given.partition(" ")
        if hmac.compare_digest(f"{scheme.lower()} {value.strip()}".encode(), self._expected):
            return continuation(handler_call_details)
        handler = continuation(handler_call_details)
        message = "missing bearer token" if not given else "invalid bearer token"
        deny = _deny(message + "; send metadata 'authorization: Bearer <token>'")
        if handler is None:
            return None
        if handler.request_streaming and handler.response_streaming:
            return grpc.stream_stream_rpc_method_handler(deny)
        if handler.request_streaming:
            return grpc.stream_unary_rpc_method_handler(deny)
        if handler.response_streaming:
            return grpc.unary_stream_rpc_method_handler(
                deny, handler.request_deserializer, handler.response_serializer
            )
        return grpc.unary_unary_rpc_method_handler(
            deny, handler.request_deserializer, handler.response_serializer
        )
