"""Hostile requests against a running server: every RPC of ``lictor.v1``, every registered game.

Requests are built from the contract's descriptors (so a new RPC is fuzzed the day it is added)
out of hypothesis strategies: each field is left unset, given a value that makes sense (a game's
name, a legal move's notation, a real position, an existing match), or given a hostile one (NaN,
infinities, huge and negative numbers, undefined enum numbers, long and odd strings, deep or
broken JSON, a real state with one field replaced). A reply is *acceptable* when its status is OK
or a status the error table gives to the caller's mistake; INTERNAL, UNKNOWN (a bug),
DEADLINE_EXCEEDED (the server did not answer before the deadline: a hang) and UNAVAILABLE (the
server went away) are not. Used by tests/service/test_fuzz.py (make test) and bench/service.py
(make bench).
"""

from __future__ import annotations

import json
import math
import random
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import grpc
from google.protobuf import descriptor as gdesc
from google.protobuf.message_factory import GetMessageClass
from hypothesis import strategies as st

from games.core import CHANCE, TERMINAL, GameConfig, game_names, get_game
from lictor.v1 import (
    advisor_service_pb2,
    diagnostics_service_pb2,
    game_service_pb2,
    match_service_pb2,
    position_pb2,
    solver_service_pb2,
)
from solver.core import puzzle_kinds

__all__ = ["BAD_STATUSES", "Corpus", "FuzzResult", "Method", "corpus", "methods", "request", "send"]

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

_MODULES = (
    game_service_pb2,
    advisor_service_pb2,
    solver_service_pb2,
    match_service_pb2,
    diagnostics_service_pb2,
)


@dataclass(frozen=True)
class Method:
    """One RPC: its path, its request class and whether it streams its answers."""

    path: str
    request: Any
    streaming: bool


def methods() -> list[Method]:
    """Every RPC of the ``lictor.v1`` services."""
    out = []
    for mod in _MODULES:
        for service in mod.DESCRIPTOR.services_by_name.values():
            for m in service.methods:
                out.append(
                    Method(
                        f"/{service.full_name}/{m.name}", GetMessageClass(m.input_type), m.server_streaming
                    )
                )
    return out


@dataclass
class Corpus:
    """What makes sense to send: real games, positions, moves, matches and puzzle kinds."""

    games: list[str]
    positions: list[position_pb2.Position] = field(default_factory=list)
    notations: list[str] = field(default_factory=list)
    states: list[dict[str, Any]] = field(default_factory=list)
    match_ids: list[str] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)


def corpus(seed: int = 0, positions_per_game: int = 4) -> Corpus:
    """Real positions of every registered game (records and JSON states at random depths)."""
    rng = random.Random(seed)
    out = Corpus(games=game_names(), kinds=sorted(puzzle_kinds()))
    for name in out.games:
        game = get_game(name)
        info = game.info
        for i in range(positions_per_game):
            players = rng.choice(sorted({info.min_players, info.max_players}))
            state = game.new_state(GameConfig(players=players), seed + i)
            actions: list[str] = []
            for _ in range(rng.choice((0, 3, 12, 40))):
                player = game.current_player(state)
                if player == TERMINAL:
                    break
                a = (
                    game.sample_chance(state, rng)
                    if player == CHANCE
                    else rng.choice(list(game.legal_actions(state)))
                )
                if player != CHANCE:
                    out.notations.append(game.action_to_text(state, a))
                actions.append(game.action_to_text(state, a))
                state = game.apply(state, a)
            record = position_pb2.GameRecord(
                setup=position_pb2.GameSetup(players=players, seed=seed + i), actions=actions
            )
            out.positions.append(position_pb2.Position(game=name, record=record))
            data = game.to_dict(state)
            out.states.append(data)
            out.positions.append(position_pb2.Position(game=name, state_json=json.dumps(data)))
    return out


# ------------------------------------------------------------------------------------------ values
_ODD_STRINGS = st.sampled_from(
    [
        "",
        " ",
        "\x00",
        "é" * 40,
        "🂡" * 10,
        "x" * 300,
        "y" * 5000,
        "-1",
        "9999999999999999999",
        "NaN",
        "null",
        "{}",
        "[]",
        '{"a":',
        "[" * 200 + "]" * 200,
        "../../etc/passwd",
        "%s%n",
    ]
)
_NUMBERS = st.one_of(
    st.sampled_from([0, 1, 2, 3, 5, 7, 99, -1, -5, 2**31 - 1, 2**31, 2**53, 2**63 - 1]),
    st.integers(-(2**31), 2**31 - 1),
)
_FLOATS = st.one_of(
    st.sampled_from([0.0, 0.01, 0.05, 0.2, 1.0, 60.0, 1e9, -1.0, math.nan, math.inf, -math.inf]),
    st.floats(allow_nan=True, allow_infinity=True),
)
_BUDGET_FLOATS = st.sampled_from([0.0, 0.01, 0.05, 0.1, -1.0, math.nan, math.inf, 1e12, 60.0])
_BUDGET_INTS = st.sampled_from([0, 1, 2, 10, 50, -1, 2**31 - 1, 2**63 - 1])
_HOSTILE_JSON: st.SearchStrategy[Any] = st.sampled_from(
    [None, -1, 10**30, 1e308, "x" * 200, [], {}, [[[]]], True, "IV", 0.5, [-1, 99], {"a": 1}]
)


def _mutated_state(draw: Callable[..., Any], states: list[dict[str, Any]]) -> str:
    """A real state with one value somewhere inside it replaced by a hostile one."""
    data = json.loads(json.dumps(draw(st.sampled_from(states))))
    node: Any = data
    for _ in range(draw(st.integers(1, 4))):
        if isinstance(node, dict) and node:
            key = draw(st.sampled_from(sorted(node)))
            if not isinstance(node[key], dict | list) or draw(st.booleans()):
                node[key] = draw(_HOSTILE_JSON)
                break
            node = node[key]
        elif isinstance(node, list) and node:
            i = draw(st.integers(0, len(node) - 1))
            if not isinstance(node[i], dict | list) or draw(st.booleans()):
                node[i] = draw(_HOSTILE_JSON)
                break
            node = node[i]
        else:
            break
    return json.dumps(data)


def _string(draw: Callable[..., Any], name: str, c: Corpus) -> str:
    pools: list[Any] = [_ODD_STRINGS, st.text(max_size=20)]
    if name == "game":
        pools += [st.sampled_from(c.games)] * 4
    elif name in ("match_id",) and c.match_ids:
        pools += [st.sampled_from(c.match_ids)] * 4
    elif name == "kind" and c.kinds:
        pools += [st.sampled_from(c.kinds)] * 4
    elif name in ("text", "action", "actions", "state_text") and c.notations:
        pools += [st.sampled_from(c.notations)] * 4
    elif name in ("state_json", "score_sheet_json") and c.states:
        pools += [st.sampled_from([json.dumps(s) for s in c.states])]
        pools += [st.just("")]
        return draw(st.one_of(*pools)) if draw(st.integers(0, 2)) else _mutated_state(draw, c.states)
    elif name == "params_json":
        pools += [
            st.dictionaries(
                st.sampled_from(["seat", "player", "gadgets", "rolls", "per_roll", "time_limit_s", "x"]),
                _HOSTILE_JSON,
                max_size=3,
            ).map(json.dumps)
        ] * 3
    elif name in ("engine",):
        pools += [st.sampled_from(["automa", "greedy", "random", "search", "none"])] * 2
    return draw(st.one_of(*pools))  # type: ignore[no-any-return]


def _scalar(draw: Callable[..., Any], fd: gdesc.FieldDescriptor, c: Corpus) -> Any:
    t = fd.type
    budget = any(w in fd.name for w in ("time", "limit", "seconds", "simulations", "budget", "max"))
    if t == fd.TYPE_STRING:
        return _string(draw, fd.name, c)
    if t == fd.TYPE_BYTES:
        return draw(st.binary(max_size=64))
    if t == fd.TYPE_BOOL:
        return draw(st.booleans())
    if t in (fd.TYPE_DOUBLE, fd.TYPE_FLOAT):
        value = draw(_BUDGET_FLOATS if budget else _FLOATS)
        return value if t == fd.TYPE_DOUBLE or not math.isfinite(value) else max(-3e38, min(3e38, value))
    if t == fd.TYPE_ENUM:
        numbers = [v.number for v in fd.enum_type.values]
        return draw(st.sampled_from([*numbers, *numbers, 7, 99, -1]))
    value = draw(_BUDGET_INTS if budget else _NUMBERS)
    if t in (fd.TYPE_UINT32, fd.TYPE_FIXED32):
        return abs(value) % 2**32
    if t in (fd.TYPE_UINT64, fd.TYPE_FIXED64):
        return abs(value) % 2**64
    if t in (fd.TYPE_INT32, fd.TYPE_SINT32, fd.TYPE_SFIXED32):
        return max(-(2**31), min(2**31 - 1, value))
    return value


def _fill(draw: Callable[..., Any], msg: Any, c: Corpus, depth: int) -> None:
    if msg.DESCRIPTOR.full_name == "lictor.v1.Position" and c.positions and draw(st.integers(0, 3)):
        msg.CopyFrom(draw(st.sampled_from(c.positions)))
        if draw(st.integers(0, 4)) == 0:  # a real position with one field made hostile
            _fill_field(draw, msg, draw(st.sampled_from(list(msg.DESCRIPTOR.fields))), c, depth)
        return
    chosen_oneofs: set[str] = set()
    for fd in msg.DESCRIPTOR.fields:
        oneof = fd.containing_oneof
        if oneof is not None:
            if oneof.name in chosen_oneofs or draw(st.integers(0, len(oneof.fields))):
                continue
            chosen_oneofs.add(oneof.name)
        elif not draw(st.booleans()):
            continue
        _fill_field(draw, msg, fd, c, depth)


def _fill_field(draw: Callable[..., Any], msg: Any, fd: gdesc.FieldDescriptor, c: Corpus, depth: int) -> None:
    if fd.message_type is not None:
        if depth >= 5 or fd.message_type.full_name.startswith("google."):
            return
        if fd.is_repeated:
            target = getattr(msg, fd.name)
            if fd.message_type.GetOptions().map_entry:
                return
            for _ in range(draw(st.integers(0, 3))):
                _fill(draw, target.add(), c, depth + 1)
        else:
            _fill(draw, getattr(msg, fd.name), c, depth + 1)
            if not getattr(msg, fd.name).ListFields():
                getattr(msg, fd.name).SetInParent()
        return
    if fd.is_repeated:
        getattr(msg, fd.name).extend(_scalar(draw, fd, c) for _ in range(draw(st.integers(0, 4))))
    else:
        setattr(msg, fd.name, _scalar(draw, fd, c))


def request(method: Method, c: Corpus) -> st.SearchStrategy[Any]:
    """A strategy of requests for ``method``."""

    @st.composite
    def build(draw: Callable[..., Any]) -> Any:
        msg = method.request()
        _fill(draw, msg, c, 0)
        return msg

    return build()


# ------------------------------------------------------------------------------------------ sending
@dataclass
class FuzzResult:
    """Counts by status, and the requests that got a bad one."""

    counts: Counter[str] = field(default_factory=Counter)
    bad: list[str] = field(default_factory=list)
    slowest_s: float = 0.0

    @property
    def total(self) -> int:
        return sum(self.counts.values())


def send(
    channel: grpc.Channel,
    method: Method,
    msg: Any,
    result: FuzzResult,
    *,
    timeout: float = 5.0,
    stream_timeout: float = 2.0,
    metadata: Iterable[tuple[str, str]] = (),
) -> grpc.StatusCode:
    """Send one request and count its status.

    A stream is read for at most 3 answers, then cancelled. A stream that answered and then stays
    open until the deadline is a watch with nothing new to say (``IDLE_STREAM``), not a hang.
    """
    t0 = time.monotonic()
    code = grpc.StatusCode.OK
    received = 0
    try:
        if method.streaming:
            call = channel.unary_stream(method.path, request_serializer=type(msg).SerializeToString)
            stream = call(msg, timeout=stream_timeout, metadata=tuple(metadata))
            for received, _ in enumerate(stream, 1):
                if received >= 3:
                    stream.cancel()
                    break
        else:
            unary = channel.unary_unary(method.path, request_serializer=type(msg).SerializeToString)
            unary(msg, timeout=timeout, metadata=tuple(metadata))
    except grpc.RpcError as exc:
        code = exc.code()  # type: ignore[attr-defined]
        if code == grpc.StatusCode.CANCELLED and method.streaming:
            code = grpc.StatusCode.OK
        if code == grpc.StatusCode.DEADLINE_EXCEEDED and received:
            result.counts["IDLE_STREAM"] += 1
            return grpc.StatusCode.OK
        if code in BAD_STATUSES and len(result.bad) < 20:
            details = (exc.details() or "")[:300]  # type: ignore[attr-defined]
            result.bad.append(f"{method.path} -> {code.name}: {details}\n  {str(msg)[:600]}")
    result.counts[code.name] += 1
    result.slowest_s = max(result.slowest_s, time.monotonic() - t0)
    return code  # type: ignore[no-any-return]
