"""The one table that maps Lictor's exception tree to status codes (gRPC's; Connect's are the same).

=====================  =====================  ===========================================
exception              status code            details
=====================  =====================  ===========================================
UnauthenticatedError   UNAUTHENTICATED        ErrorInfo
StorageFullError       RESOURCE_EXHAUSTED     QuotaFailure (the match database's disk is full)
UnavailableError       UNAVAILABLE            ErrorInfo (shutting down; StorageError: the match
                                              database cannot be written or read just now)
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

Every status carries a ``google.rpc.Status`` (:func:`rich_status`) with an ``ErrorInfo`` (reason =
the exception class, metadata = field and rule) and the detail above: over gRPC and gRPC-Web in the
``grpc-status-details-bin`` trailer, over the Connect protocol as the error's ``details``
(``service.http``), the same messages on every transport.
Messages are cut to 500 characters and field paths to 200 (a message quotes bad input with ``!r``;
request caps keep inputs short, the cut keeps any trailer small).
"""

from __future__ import annotations

import logging
from typing import Any, cast

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
    "MAX_FIELD_CHARS",
    "MAX_MESSAGE_CHARS",
    "PermissionDeniedError",
    "RequestError",
    "StaleMoveError",
    "StorageError",
    "StorageFullError",
    "UnauthenticatedError",
    "UnavailableError",
    "abort",
    "call_status",
    "clipped",
    "rich_status",
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


class UnavailableError(LictorError):
    """The server is shutting down: retry against another replica or after the restart."""


class StorageError(UnavailableError):
    """The match database cannot be written or read just now (an I/O error, locked past the busy
    timeout, read-only): nothing was saved; retry later."""


class StorageFullError(StorageError):
    """The match database's disk is full: nothing was saved; retry once space is freed."""


# Most specific first: the first row whose class matches wins.
ERROR_TABLE: tuple[tuple[type[BaseException], grpc.StatusCode], ...] = (
    (UnauthenticatedError, grpc.StatusCode.UNAUTHENTICATED),
    (StorageFullError, grpc.StatusCode.RESOURCE_EXHAUSTED),
    (UnavailableError, grpc.StatusCode.UNAVAILABLE),
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


def rich_status(exc: BaseException) -> status_pb2.Status:
    """The ``google.rpc.Status`` (code, message, details) of an exception: what every transport sends."""
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
    return details


def to_rpc_status(exc: BaseException) -> grpc.Status:
    """The ``grpc.Status`` (code, message, rich details) for an exception."""
    return cast(grpc.Status, rpc_status.to_status(rich_status(exc)))


MAX_MESSAGE_CHARS = 500
"""Longest error message sent (a message quotes at most this much of any bad input)."""
MAX_FIELD_CHARS = 200
"""Longest field path sent in an error's details."""


def _clip(text: str, cap: int) -> str:
    return text if len(text) <= cap else text[: cap - 3] + "..."


def clipped(exc: BaseException) -> BaseException:
    """``exc`` with its message and field cut to :data:`MAX_MESSAGE_CHARS` / :data:`MAX_FIELD_CHARS`."""
    if isinstance(exc, LictorError):
        exc.message = _clip(exc.message, MAX_MESSAGE_CHARS)
        exc.field = _clip(exc.field, MAX_FIELD_CHARS)
        exc.rule = _clip(exc.rule, MAX_FIELD_CHARS)
    return exc


def call_status(exc: BaseException) -> status_pb2.Status:
    """The status a call ends with for ``exc``, on any transport: per :data:`ERROR_TABLE`, clipped,
    and logged when unexpected (anything but a LictorError is a bug: INTERNAL)."""
    if not isinstance(exc, LictorError):
        log.error("internal error in RPC", exc_info=exc)
    return rich_status(clipped(exc))


async def abort(context: grpc.aio.ServicerContext, exc: BaseException) -> None:
    """End a gRPC call with the status of ``exc`` (:func:`call_status`)."""
    status = rpc_status.to_status(call_status(exc))
    await context.abort(status.code, status.details, status.trailing_metadata)
