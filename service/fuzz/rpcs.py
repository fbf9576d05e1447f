"""The RPCs under fuzz (every method of the ``lictor.v1`` services), the statuses no answer may get,
and the client deadlines of a request."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import grpc
from google.protobuf.message_factory import GetMessageClass

from lictor.v1 import (
    advisor_service_pb2,
    diagnostics_service_pb2,
    game_service_pb2,
    match_service_pb2,
    solver_service_pb2,
)

BAD_STATUSES = frozenset(
    {
        grpc.StatusCode.INTERNAL,
        grpc.StatusCode.UNKNOWN,
        grpc.StatusCode.DEADLINE_EXCEEDED,
        grpc.StatusCode.UNAVAILABLE,
        grpc.StatusCode.DATA_LOSS,
    }
)
"""Statuses no request may ever get: a bug, a hang, a server gone."""

PATH_LEAK = "PATH_LEAK"
"""The status counted for a reply that shows a server path."""

LATE = "LATE_REPLY"
"""The status counted for an answer that came after the client's deadline (a hang)."""

PACK_ACCEPTED = "PACK_ACCEPTED"
"""The status counted for an OK to a request naming a content pack that must be refused."""

_MODULES = (
    game_service_pb2,
    advisor_service_pb2,
    solver_service_pb2,
    match_service_pb2,
    diagnostics_service_pb2,
)


@dataclass(frozen=True)
class Method:
    """One RPC: its path, its request and response classes and whether it streams its answers."""

    path: str
    request: Any
    response: Any
    streaming: bool

    @property
    def name(self) -> str:
        """The RPC's name ("GetLegalActions")."""
        return self.path.rsplit("/", 1)[1]


def methods() -> list[Method]:
    """Every RPC of the ``lictor.v1`` services."""
    out = []
    for mod in _MODULES:
        for service in mod.DESCRIPTOR.services_by_name.values():
            for m in service.methods:
                out.append(
                    Method(
                        f"/{service.full_name}/{m.name}",
                        GetMessageClass(m.input_type),
                        GetMessageClass(m.output_type),
                        m.server_streaming,
                    )
                )
    return out


def by_name(ms: Sequence[Method]) -> dict[str, Method]:
    return {m.name: m for m in ms}


def reads_a_position(method: Method) -> bool:
    fd = method.request.DESCRIPTOR.fields_by_name.get("position")
    return (
        fd is not None and fd.message_type is not None and fd.message_type.full_name == "lictor.v1.Position"
    )


Shot = tuple[Method, Any, float]
"""One request to send: the RPC, the message and the client's deadline in seconds."""

UNARY_TIMEOUT_S = 10.0
"""Client deadline of a generic unary call."""
STREAM_TIMEOUT_S = 1.5
"""Client deadline of a stream (read for at most 3 answers)."""


def deadline_of(method: Method) -> float:
    return STREAM_TIMEOUT_S if method.streaming else UNARY_TIMEOUT_S
