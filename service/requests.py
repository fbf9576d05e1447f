"""Every field a client sends is bounded: one walk over each request message before any handler.

:func:`check_request` walks a request by its descriptor and refuses, with INVALID_ARGUMENT naming
the field path (``position.record.actions[3]``), any

- string or bytes field longer than its cap (:data:`STRING_CAPS` by field name, else
  :data:`DEFAULT_STRING_CAP`),
- repeated or map field with more entries than its cap (:data:`REPEATED_CAPS`, else
  :data:`DEFAULT_REPEATED_CAP`),
- floating-point field that is NaN or infinite,
- enum field holding a number its enum does not define (proto3 keeps unknown numbers),
- message nested deeper than :data:`MAX_DEPTH`.

Field-specific ranges (budgets >= 0, a seat in range) are checked where the field is read.
The caps are listed in docs/service.md ("Limits").
"""

from __future__ import annotations

import math
from typing import Any

from google.protobuf.descriptor import FieldDescriptor  # type: ignore[import-untyped]

from service.errors import RequestError

__all__ = [
    "DEFAULT_REPEATED_CAP",
    "DEFAULT_STRING_CAP",
    "MAX_DEPTH",
    "REPEATED_CAPS",
    "STRING_CAPS",
    "check_request",
]

DEFAULT_STRING_CAP = 256
"""Characters (or bytes) of a string field not listed in :data:`STRING_CAPS`."""

STRING_CAPS: dict[str, int] = {
    "state_json": 512 * 1024,
    "state_text": 512 * 1024,
    "score_sheet_json": 64 * 1024,
    "params_json": 64 * 1024,
    "payload": 64 * 1024,
    "text": 1024,
    "actions": 1024,
    "action": 1024,
    "content_pack": 256,
    "game": 64,
    "kind": 64,
    "name": 64,
    "match_id": 64,
    "page_token": 32,
    "seat_secret": 128,
    "engine": 32,
}
"""Caps by field name (the last part of its path)."""

DEFAULT_REPEATED_CAP = 64
"""Entries of a repeated or map field not listed in :data:`REPEATED_CAPS`."""

REPEATED_CAPS: dict[str, int] = {
    "actions": 20_000,
    "seats": 16,
    "options": 32,
}
"""Caps on entries by field name. Typed per-game positions list their own (a deck's cards)."""

TYPED_REPEATED_CAP = 1024
"""Entries of a repeated field inside a typed per-game position (decks, hands, histories)."""

MAX_DEPTH = 12
"""Deepest nesting of messages in a request."""

_FLOATS = (FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT)
_TEXT = (FieldDescriptor.TYPE_STRING, FieldDescriptor.TYPE_BYTES)


def check_request(msg: Any, *, prefix: str = "") -> None:
    """Raise RequestError unless every field of ``msg`` is within its cap (see the module doc)."""
    _walk(msg, prefix, 0, typed=False)


def _walk(msg: Any, path: str, depth: int, *, typed: bool) -> None:
    if depth > MAX_DEPTH:
        raise RequestError(f"the request nests messages more than {MAX_DEPTH} deep", field=path)
    for fd, value in msg.ListFields():
        where = f"{path}.{fd.name}" if path else fd.name
        inner_typed = typed or (fd.message_type is not None and fd.message_type.name.endswith("State"))
        if fd.is_repeated:
            _repeated(fd, value, where, depth, typed=typed, inner_typed=inner_typed)
        elif fd.message_type is not None:
            _walk(value, where, depth + 1, typed=inner_typed)
        else:
            _scalar(fd, value, where)


def _repeated(
    fd: FieldDescriptor, value: Any, where: str, depth: int, *, typed: bool, inner_typed: bool
) -> None:
    """A repeated or map field: its number of entries, then each entry."""
    cap = REPEATED_CAPS.get(fd.name, TYPED_REPEATED_CAP if typed else DEFAULT_REPEATED_CAP)
    if len(value) > cap:
        raise RequestError(f"{where} has {len(value)} entries; at most {cap}", field=where)
    if fd.message_type is not None and fd.message_type.GetOptions().map_entry:
        vfd = fd.message_type.fields_by_name["value"]
        for key in value:
            at = f"{where}[{_short(key)}]"
            _scalar(fd.message_type.fields_by_name["key"], key, at)
            if vfd.message_type is not None:
                _walk(value[key], at, depth + 1, typed=inner_typed)
            else:
                _scalar(vfd, value[key], at)
    elif fd.message_type is not None:
        for i, item in enumerate(value):
            _walk(item, f"{where}[{i}]", depth + 1, typed=inner_typed)
    elif fd.type in _TEXT:
        cap = STRING_CAPS.get(fd.name, DEFAULT_STRING_CAP)
        longest = max(map(len, value), default=0)
        if longest > cap:
            i = next(i for i, v in enumerate(value) if len(v) == longest)
            raise RequestError(
                f"{where}[{i}] is {longest} characters long; at most {cap}", field=f"{where}[{i}]"
            )
    elif fd.type in _FLOATS or fd.enum_type is not None:
        for i, item in enumerate(value):
            _scalar(fd, item, f"{where}[{i}]")


def _scalar(fd: FieldDescriptor, value: Any, where: str) -> None:
    if fd.type in _TEXT:
        cap = STRING_CAPS.get(fd.name, DEFAULT_STRING_CAP)
        if len(value) > cap:
            raise RequestError(f"{where} is {len(value)} characters long; at most {cap}", field=where)
    elif fd.type in _FLOATS:
        if not math.isfinite(value):
            raise RequestError(f"{where} must be a finite number, not {value!r}", field=where)
    elif fd.enum_type is not None and fd.enum_type.values_by_number.get(value) is None:
        known = ", ".join(v.name for v in fd.enum_type.values)
        raise RequestError(f"{where} {value!r} is not a {fd.enum_type.name}; known: {known}", field=where)


def _short(key: Any) -> str:
    text = str(key)
    return text if len(text) <= 40 else text[:40] + "..."
