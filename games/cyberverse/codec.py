"""The state as plain JSON and back, every field validated before any rule reads it.

The form mirrors the records of ``state.py`` field by field (their names are the rulebook's:
``money``, ``influence``, ``health``, ``status``...); phases and steps are written as their
rulebook names (``PHASES``, ``STEPS``). ``from_dict`` raises ``InvalidStateError`` naming the first
bad field; no other exception escapes it.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import fields, is_dataclass
from typing import Any

from games.cyberverse import state as st
from games.cyberverse.content import Content
from games.errors import InvalidStateError

__all__ = ["from_dict", "to_dict"]

_HINTS: dict[type, dict[str, Any]] = {}
_LIMIT = 10**9


def _hints(cls: type) -> dict[str, Any]:
    got = _HINTS.get(cls)
    if got is None:
        got = _HINTS[cls] = typing.get_type_hints(cls, vars(st))
    return got


Encoder = Callable[[Any], Any]
Decoder = Callable[[Any, str], Any]
_ENCODERS: dict[Any, Encoder] = {}
_DECODERS: dict[Any, Decoder] = {}


def _same(value: Any) -> Any:
    return value


def _encoder(tp: Any) -> Encoder:
    """A function writing a value of type ``tp`` as JSON types (built once per type)."""
    got = _ENCODERS.get(tp)
    if got is not None:
        return got
    origin = typing.get_origin(tp)
    fn: Encoder
    if tp in (int, bool, str):
        fn = _same
    elif origin is tuple:
        args = typing.get_args(tp)
        inner = [_encoder(a) for a in args if a is not Ellipsis]
        if all(e is _same for e in inner):
            fn = list
        elif len(args) == 2 and args[1] is Ellipsis:
            one = inner[0]
            fn = lambda v: [one(x) for x in v]  # noqa: E731
        else:
            fn = lambda v: [e(x) for e, x in zip(inner, v, strict=True)]  # noqa: E731
    elif origin in (types.UnionType, typing.Union):
        some = _encoder(next(a for a in typing.get_args(tp) if a is not type(None)))
        fn = lambda v: None if v is None else some(v)  # noqa: E731
    elif isinstance(tp, type) and is_dataclass(tp):
        hints = _hints(tp)
        parts = [(f.name, _encoder(hints[f.name])) for f in fields(tp)]
        fn = lambda v: {name: e(getattr(v, name)) for name, e in parts}  # noqa: E731
    else:  # pragma: no cover - every field type is handled above
        raise TypeError(tp)
    _ENCODERS[tp] = fn
    return fn


def to_dict(s: st.State) -> dict[str, Any]:
    """The state as plain JSON types."""
    data: dict[str, Any] = _encoder(st.State)(s)
    data["phase"] = st.PHASES[s.phase]
    data["step"] = st.STEPS[s.step]
    data["game"] = "cyberverse"
    return data


def _fail(path: str, want: str, got: Any) -> InvalidStateError:
    shown = f"<{type(got).__name__}>" if isinstance(got, list | dict) else repr(got)
    if len(shown) > 60:
        shown = shown[:57] + "..."
    return InvalidStateError(f"{path} must be {want}, not {shown}", field=path)


def _int(value: Any, path: str) -> int:
    if type(value) is not int or not -_LIMIT <= value <= _LIMIT:
        raise _fail(path, "an integer", value)
    return value


def _bool(value: Any, path: str) -> bool:
    if type(value) is not bool:
        raise _fail(path, "true or false", value)
    return value


def _str(value: Any, path: str) -> str:
    if type(value) is not str or len(value) > 40:
        raise _fail(path, "a short string", value)
    return value


def _ints(value: Any, path: str) -> tuple[int, ...]:
    if type(value) is not list or len(value) > 500:
        raise _fail(path, "a list", value)
    if not all(type(x) is int for x in value) or (
        value and not -_LIMIT <= min(value) <= max(value) <= _LIMIT
    ):
        bad = next(i for i, x in enumerate(value) if type(x) is not int or not -_LIMIT <= x <= _LIMIT)
        raise _fail(f"{path}[{bad}]", "an integer", value[bad])
    return tuple(value)


def _decoder(tp: Any) -> Decoder:
    """A function reading and validating a value of type ``tp`` (built once per type)."""
    got = _DECODERS.get(tp)
    if got is not None:
        return got
    origin = typing.get_origin(tp)
    fn: Decoder
    if tp is int:
        fn = _int
    elif tp is bool:
        fn = _bool
    elif tp is str:
        fn = _str
    elif origin is tuple:
        args = typing.get_args(tp)
        if args == (int, Ellipsis):
            fn = _ints
        elif len(args) == 2 and args[1] is Ellipsis:
            fn = _list_of(_decoder(args[0]))
        else:
            fn = _fixed(tuple(_decoder(a) for a in args))
    elif origin in (types.UnionType, typing.Union):
        some = _decoder(next(a for a in typing.get_args(tp) if a is not type(None)))
        fn = lambda v, path: None if v is None else some(v, path)  # noqa: E731
    elif isinstance(tp, type) and is_dataclass(tp):
        fn = _record(tp)
    else:  # pragma: no cover - every field type is handled above
        raise TypeError(tp)
    _DECODERS[tp] = fn
    return fn


def _list_of(one: Decoder) -> Decoder:
    def read(value: Any, path: str) -> tuple[Any, ...]:
        if type(value) is not list or len(value) > 500:
            raise _fail(path, "a list", value)
        return tuple(one(x, f"{path}[{i}]") for i, x in enumerate(value))

    return read


def _fixed(parts: tuple[Decoder, ...]) -> Decoder:
    def read(value: Any, path: str) -> tuple[Any, ...]:
        if type(value) is not list or len(value) != len(parts):
            raise _fail(path, f"a list of {len(parts)}", value)
        return tuple(d(x, f"{path}[{i}]") for i, (d, x) in enumerate(zip(parts, value, strict=True)))

    return read


def _record(tp: type) -> Decoder:
    hints = _hints(tp)
    parts = [(f.name, _decoder(hints[f.name])) for f in fields(tp)]

    def read(value: Any, path: str) -> Any:
        if not isinstance(value, Mapping):
            raise _fail(path, "an object", value)
        out = []
        for name, d in parts:
            where = f"{path}.{name}" if path else name
            if name not in value:
                raise InvalidStateError(f"{where} is missing", field=where)
            out.append(d(value[name], where))
        return tp(*out)

    return read


def _check_range(value: int, lo: int, hi: int, path: str, rule: str = "") -> None:
    if not lo <= value <= hi:
        raise InvalidStateError(f"{path} must be from {lo} to {hi}, not {value}", field=path, rule=rule)


def _check(s: st.State, c: Content) -> None:
    """Ranges and ids that the rules read (the first bad field named)."""
    _check_range(s.players, 2, 4, "players")
    _check_range(len(s.orgs), s.players, s.players, "orgs")
    _check_range(s.actor, -2, s.players - 1, "actor")
    _check_range(s.turn, 1, 10_000, "turn")
    for i, o in enumerate(s.orgs):
        p = f"orgs[{i}]"
        _check_range(o.money, 0, _LIMIT, f"{p}.money", "cyberverse/setup")
        if len(o.influence) != 5 or any(not 0 <= x <= 3 for x in o.influence):
            raise InvalidStateError(
                f"{p}.influence: 5 districts, 0 to 3 tokens each",
                field=f"{p}.influence",
                rule="cyberverse/influence",
            )
        if len(o.support) > 3 or any(not 0 <= u < len(c.support) for u in o.support):
            raise InvalidStateError(
                f"{p}.support: at most 3 Support cards of the pack",
                field=f"{p}.support",
                rule="cyberverse/support-cards",
            )
        if sorted(o.deck + o.discard) != sorted((-1, 0, 1, 1, 2)):
            raise InvalidStateError(
                f"{p}.deck and discard must hold the Modifier cards -1, 0, 1, 1, 2",
                field=f"{p}.deck",
                rule="cyberverse/setup",
            )
        n = len(o.cases)
        if not (len(o.done) == len(o.spent) == len(o.marks) == n) or any(
            not 0 <= k < len(c.investigations) for k in o.cases
        ):
            raise InvalidStateError(
                f"{p}.cases: Investigation cards of the pack, one mask each",
                field=f"{p}.cases",
                rule="cyberverse/story-cards",
            )
        _check_range(o.story, -1, len(c.stories) - 1, f"{p}.story", "cyberverse/story-cards")
        _check_range(o.actions, 0, 3, f"{p}.actions", "cyberverse/activation-phase")
    seen = set()
    for i, a in enumerate(s.agents):
        p = f"agents[{i}]"
        _check_range(a.sheet, 0, len(c.faces) // 2 - 1, f"{p}.sheet", "cyberverse/agent-sheets")
        if a.sheet in seen:
            raise InvalidStateError(
                f"{p}.sheet is recruited twice", field=f"{p}.sheet", rule="cyberverse/agent-sheets"
            )
        seen.add(a.sheet)
        _check_range(a.side, 0, 1, f"{p}.side")
        _check_range(a.org, 0, s.players - 1, f"{p}.org")
        _check_range(a.health, 1, 20, f"{p}.health", "cyberverse/loss-of-health")
        _check_range(a.status, 0, 7, f"{p}.status", "cyberverse/status-tokens")
        _check_range(a.district, -1, 4, f"{p}.district")
        if any(not 0 <= t < len(c.tokens) for t in a.kit) or len(a.kit) > c.equipment_slots:
            raise InvalidStateError(
                f"{p}.kit: Supply tokens of the pack, at most {c.equipment_slots}",
                field=f"{p}.kit",
                rule="cyberverse/agent-dashboard",
            )
        if a.district >= 0:
            board = c.boards[s.city.boards[a.district]]
            _check_range(a.zone, 0, board.zones - 1, f"{p}.zone", "cyberverse/new-eden-board")
            _check_range(a.spot, -1, len(board.positions) - 1, f"{p}.spot", "cyberverse/tactical-positions")
    if len(s.city.boards) != 5 or any(
        not 0 <= b < len(c.boards) or c.boards[b].district != d for d, b in enumerate(s.city.boards)
    ):
        raise InvalidStateError(
            "city.boards: one board of each district",
            field="city.boards",
            rule="cyberverse/building-new-eden",
        )


def from_dict(data: Mapping[str, Any], c: Content) -> st.State:
    """Rebuild and validate a state (``InvalidStateError`` naming the first bad field)."""
    if not isinstance(data, Mapping):
        raise InvalidStateError("the state must be an object", field="state")
    body = dict(data)
    if body.pop("game", "cyberverse") != "cyberverse":
        raise InvalidStateError("game must be 'cyberverse'", field="game")
    phase, step = body.get("phase"), body.get("step")
    if phase not in st.PHASES:
        raise _fail("phase", f"one of {list(st.PHASES)}", phase)
    if step not in st.STEPS:
        raise _fail("step", "a step name", step)
    body["phase"] = st.PHASES.index(phase)
    body["step"] = st.STEPS.index(step)
    s = _decoder(st.State)(body, "")
    try:
        _check(s, c)
    except InvalidStateError:
        raise
    except Exception as exc:  # a malformed nested record: name it
        raise InvalidStateError(f"inconsistent state: {exc}", field="state") from None
    return typing.cast(st.State, s)
