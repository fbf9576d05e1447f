"""The one table that maps Lictor's exception tree to gRPC status codes.

=====================  =====================  ===========================================
exception              status code            details
=====================  =====================  ===========================================
PermissionDeniedError  PERMISSION_DENIED      ErrorInfo (field: the missing or wrong secret)
StaleMoveError         ABORTED                ErrorInfo (expected vs actual move number)
WrongSeatError         FAILED_PRECONDITION    PreconditionFailure (field, rule)
UnknownGameError       NOT_FOUND              ResourceInfo
NotFoundError          NOT_FOUND              ResourceInfo
LimitError             RESOURCE_EXHAUSTED     QuotaFailure
ConfigError            INVALID_ARGUMENT       BadRequest field violation (field, rule)
ContentError           INVALID_ARGUMENT       BadRequest field violation
NotationError          INVALID_ARGUMENT       BadRequest field violation
InvalidStateError      INVALID_ARGUMENT       BadRequest field violation
IllegalActionError     INVALID_ARGUMENT       BadRequest field violation
RequestError           INVALID_ARGUMENT       BadRequest field violation
LictorError (other)    INVALID_ARGUMENT       BadRequest field violation
any other exception    INTERNAL               (logged)
=====================  =====================  ===========================================

Every status carries a ``google.rpc.Status`` in the ``grpc-status-details-bin`` trailer with an
``ErrorInfo`` (reason = the exception class, metadata = field and rule) and the detail above.
"""

from __future__ import annotations

import functools
import inspect
import logging
from collections.abc import Callable, Iterator
from typing import Any, TypeVar, cast

import grpc
from google.protobuf import any_pb2  # type: ignore[import-untyped]
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from games.errors import (
    ConfigError,
    ContentError,
    IllegalActionError,
    InvalidStateError,
    LictorError,
    LimitError,
    NotationError,
    NotFoundError,
    UnknownGameError,
    WrongSeatError,
)

__all__ = [
    "ERROR_TABLE",
    "PermissionDeniedError",
    "RequestError",
    "StaleMoveError",
    "UnauthenticatedError",
    "grpc_errors",
    "status_code_of",
    "to_rpc_status",
    "with_field",
]

log = logging.getLogger("lictor.service")

ERROR_DOMAIN = "lictor.v1"


class RequestError(LictorError):
    """A request message that is malformed before any game sees it (a missing or bad field)."""


class StaleMoveError(LictorError):
    """A match action submitted against a move number that is no longer current."""


class PermissionDeniedError(LictorError):
    """A request that names a seat of a match with seat secrets without that seat's secret."""


class UnauthenticatedError(LictorError):
    """A call without a valid bearer token (raised by the auth interceptor)."""


# Most specific first: the first row whose class matches wins.
ERROR_TABLE: tuple[tuple[type[BaseException], grpc.StatusCode], ...] = (
    (UnauthenticatedError, grpc.StatusCode.UNAUTHENTICATED),
    (PermissionDeniedError, grpc.StatusCode.PERMISSION_DENIED),
    (StaleMoveError, grpc.StatusCode.ABORTED),
    (WrongSeatError, grpc.StatusCode.FAILED_PRECONDITION),
    (UnknownGameError, grpc.StatusCode.NOT_FOUND),
    (NotFoundError, grpc.StatusCode.NOT_FOUND),
    (LimitError, grpc.StatusCode.RESOURCE_EXHAUSTED),
    (ConfigError, grpc.StatusCode.INVALID_ARGUMENT),
    (ContentError, grpc.StatusCode.INVALID_ARGUMENT),
    (NotationError, grpc.StatusCode.INVALID_ARGUMENT),
    (InvalidStateError, grpc.StatusCode.INVALID_ARGUMENT),
    (IllegalActionError, grpc.StatusCode.INVALID_ARGUMENT),
    (RequestError, grpc.StatusCode.INVALID_ARGUMENT),
    (LictorError, grpc.StatusCode.INVALID_ARGUMENT),
)
"""Exception class -> status code, most specific first."""


def status_code_of(exc: BaseException) -> grpc.StatusCode:
    """The status code of an exception per :data:`ERROR_TABLE` (INTERNAL when none matches)."""
    for cls, code in ERROR_TABLE:
        if isinstance(exc, cls):
            return code
    return grpc.StatusCode.INTERNAL


def with_field(exc: LictorError, prefix: str) -> LictorError:
    """Prefix the error's ``field`` with the request path it came from (in place; returns it).

    E.g. a game's ``field="action"`` raised while replaying ``position.record.actions[3]``.
    """
    if prefix:
        if not exc.field:
            exc.field = prefix
        elif not exc.field.startswith(prefix):
            exc.field = f"{prefix}.{exc.field}" if not exc.field.startswith("[") else prefix + exc.field
    return exc


def _pack(msg: Any) -> any_pb2.Any:
    packed = any_pb2.Any()
    packed.Pack(msg)
    return packed


def to_rpc_status(exc: BaseException) -> grpc.Status:
    """The ``grpc.Status`` (code, message, rich details) for an exception."""
    code = status_code_of(exc)
    message = str(exc) if isinstance(exc, LictorError) else f"internal error: {type(exc).__name__}"
    details = status_pb2.Status(code=getattr(code_pb2, code.name), message=message)
    if isinstance(exc, LictorError):
        info = error_details_pb2.ErrorInfo(reason=type(exc).__name__, domain=ERROR_DOMAIN)
        if exc.field:
            info.metadata["field"] = exc.field
        if exc.rule:
            info.metadata["rule"] = exc.rule
        details.details.append(_pack(info))
        description = exc.message + (f" (rule {exc.rule})" if exc.rule else "")
        if code == grpc.StatusCode.INVALID_ARGUMENT:
            bad = error_details_pb2.BadRequest()
            bad.field_violations.add(field=exc.field, description=description, reason=exc.rule)
            details.details.append(_pack(bad))
        elif code == grpc.StatusCode.FAILED_PRECONDITION:
            pre = error_details_pb2.PreconditionFailure()
            pre.violations.add(type=exc.rule or "seat", subject=exc.field, description=exc.message)
            details.details.append(_pack(pre))
        elif code == grpc.StatusCode.NOT_FOUND:
            res = error_details_pb2.ResourceInfo(
                resource_type=exc.field or "resource", description=exc.message
            )
            details.details.append(_pack(res))
        elif code == grpc.StatusCode.RESOURCE_EXHAUSTED:
            quota = error_details_pb2.QuotaFailure()
            quota.violations.add(subject=exc.field, description=exc.message)
            details.details.append(_pack(quota))
    return cast(grpc.Status, rpc_status.to_status(details))


F = TypeVar("F", bound=Callable[..., Any])


def _abort(context: grpc.ServicerContext, exc: BaseException) -> None:
    if context.code() not in (None, grpc.StatusCode.OK):
        raise exc  # already aborted (context.abort raised): let grpc finish the call
    if not isinstance(exc, LictorError):
        log.exception("internal error in RPC", exc_info=exc)
    context.abort_with_status(to_rpc_status(exc))


def grpc_errors(fn: F) -> F:
    """Decorate a servicer method (unary or server-streaming) so errors go through the table."""
    if inspect.isgeneratorfunction(fn):

        @functools.wraps(fn)
        def stream(self: Any, request: Any, context: grpc.ServicerContext) -> Iterator[Any]:
            try:
                yield from fn(self, request, context)
            except Exception as exc:
                _abort(context, exc)

        return cast(F, stream)

    @functools.wraps(fn)
    def unary(self: Any, request: Any, context: grpc.ServicerContext) -> Any:
        try:
            return fn(self, request, context)
        except Exception as exc:
            _abort(context, exc)
            raise  # unreachable: abort raises

    return cast(F, unary)
