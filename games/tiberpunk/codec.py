"""The internal state as plain JSON and back (``TiberpunkGame.internal_dict``: lictor.v1
``TiberpunkState``, the reference games' digests, the version 1 state text): the engine's field names,
indices and bit masks, not the public form (``public.py``).
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from typing import Any

from games.core.cache import memo
from games.core.records import Record
from games.errors import InvalidStateError
from games.tiberpunk.state import State
from games.tiberpunk.validate import show

__all__ = ["from_plain", "plain", "shape"]


def _plain(x: Any) -> Any:
    if isinstance(x, Record):
        return {f: _plain(getattr(x, f)) for f in x.__struct_fields__}
    if isinstance(x, tuple):
        return [_plain(y) for y in x]
    return x


@memo(bound=None)
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _bad(path: str, expected: str, v: Any) -> InvalidStateError:
    return InvalidStateError(
        f"{path or 'the state'} must be {expected}, not {show(v)}", field=path or "state"
    )


def _build(tp: Any, v: Any, path: str) -> Any:
    """Rebuild a value of type ``tp`` from plain JSON data at ``path``: exact types, every key present
    and no unknown key (no recursion into data the type does not expect)."""
    origin = typing.get_origin(tp)
    if tp is int:
        if type(v) is not int:
            raise _bad(path, "an integer", v)
        return v
    if tp is bool:
        if type(v) is not bool:
            raise _bad(path, "true or false", v)
        return v
    if origin is tuple:
        args = typing.get_args(tp)
        if not isinstance(v, list):
            raise _bad(path, "a list", v)
        if len(args) == 2 and args[1] is Ellipsis:
            if len(v) > _MAX_LIST:
                raise _bad(path, f"a list of at most {_MAX_LIST} items", v)
            return tuple(_build(args[0], y, f"{path}[{i}]") for i, y in enumerate(v))
        if len(v) != len(args):
            raise _bad(path, f"a list of {len(args)} items", v)
        return tuple(_build(a, y, f"{path}[{i}]") for i, (a, y) in enumerate(zip(args, v, strict=True)))
    if origin in (typing.Union, types.UnionType):
        if v is None:
            return None
        return _build(next(a for a in typing.get_args(tp) if a is not type(None)), v, path)
    if isinstance(tp, type) and issubclass(tp, Record):
        fields = tp.__struct_fields__
        if not isinstance(v, Mapping):
            raise _bad(path, f"an object ({tp.__name__})", v)
        prefix = f"{path}." if path else ""
        missing = [f for f in fields if f not in v]
        if missing:
            raise InvalidStateError(f"{prefix}{missing[0]} is missing", field=prefix + missing[0])
        unknown = [k for k in v if k not in fields]
        if unknown:
            key = show(unknown[0])
            raise InvalidStateError(
                f"unknown field {key} in {path or 'the state'}; known: {', '.join(fields)}",
                field=path or "state",
            )
        hints = _hints(tp)
        return tp(**{f: _build(hints[f], v[f], prefix + f) for f in fields})
    raise TypeError(f"unsupported type {tp!r}")


_MAX_LIST = 64
"""The longest list a state field may hold (the gadget deck has 25 cards)."""


def _shape(tp: Any, prefix: str, out: dict[str, str]) -> None:
    origin = typing.get_origin(tp)
    if tp is bool:
        out[prefix] = "bool"
    elif tp is int:
        out[prefix] = "int"
    elif origin is tuple:
        args = typing.get_args(tp)
        inner = args[0]
        if isinstance(inner, type) and issubclass(inner, Record):
            _shape(inner, prefix + ".#", out)
        elif typing.get_origin(inner) is tuple:
            out[prefix] = "intss"
        else:
            out[prefix] = "ints"
    elif origin is not None:  # Optional[Ctx]
        out[prefix] = "int"
        _shape(next(a for a in typing.get_args(tp) if a is not type(None)), prefix, out)
    elif isinstance(tp, type) and issubclass(tp, Record):
        for f, h in _hints(tp).items():
            _shape(h, f"{prefix}.{f}" if prefix else f, out)


def plain(state: State) -> dict[str, Any]:
    """The internal state's fields as plain JSON (records as objects, tuples as lists)."""
    out: dict[str, Any] = _plain(state)
    return out


def from_plain(data: Any) -> State:
    """The state of :func:`plain`'s form, exact types, every key present and no unknown key
    (``InvalidStateError`` names the field by its internal path); no rule is checked here."""
    state: State = _build(State, data, "")
    return state


@memo(bound=None)
def shape() -> dict[str, str]:
    """The kind of each internal field by its dotted path (``players.#.coins``: ``int``), for the
    version 1 state text."""
    out: dict[str, str] = {}
    _shape(State, "", out)
    return out
