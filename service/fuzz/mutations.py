"""The generic requests, drawn by hypothesis from the contract's descriptors: each field unset, a value
that makes sense or a hostile one (NaN, huge numbers, odd strings and digits, broken JSON, a real
state with one value replaced)."""

from __future__ import annotations

import json
import math
import queue
import re
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from google.protobuf import descriptor as gdesc
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from service.fuzz.corpus import Corpus
from service.fuzz.rpcs import Method, Shot, deadline_of

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
        "³",
        "٣٤",
        "１２",
        "1_000",
        " 7",
        "NaN",
        "null",
        "{}",
        "[]",
        '{"a":',
        "[" * 200 + "]" * 200,
        "[" * 50_000 + "]" * 50_000,
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
# Budgets stay small or over any cap: a fuzzed search is an error or a short search, never minutes.
_BUDGET_FLOATS = st.sampled_from([0.0, 0.01, 0.05, 0.1, 0.3, -1.0, math.nan, math.inf, 1e12, 3600.0])
_BUDGET_INTS = st.sampled_from([0, 1, 2, 10, 50, -1, 2**31 - 1, 2**63 - 1])
_HOSTILE_JSON: st.SearchStrategy[Any] = st.sampled_from(
    [
        None,
        -1,
        10**30,
        1e308,
        "x" * 200,
        [],
        {},
        [[[]]],
        True,
        "IV",
        0.5,
        [-1, 99],
        {"a": 1},
        "³",
        "1①",
        ["𝟗"],
    ]
)


def _mutated_state(draw: Callable[..., Any], states: list[dict[str, Any]]) -> str:
    """A real state with one value somewhere inside it replaced by a hostile one (or by itself with
    an odd digit)."""
    data = json.loads(json.dumps(draw(st.sampled_from(states))))
    node: Any = data
    for _ in range(draw(st.integers(1, 4))):
        if isinstance(node, dict) and node:
            key = draw(st.sampled_from(sorted(node)))
            if not isinstance(node[key], dict | list) or draw(st.booleans()):
                node[key] = draw(st.one_of(_HOSTILE_JSON, st.just(odd_digits(node[key]))))
                break
            node = node[key]
        elif isinstance(node, list) and node:
            i = draw(st.integers(0, len(node) - 1))
            if not isinstance(node[i], dict | list) or draw(st.booleans()):
                node[i] = draw(st.one_of(_HOSTILE_JSON, st.just(odd_digits(node[i]))))
                break
            node = node[i]
        else:
            break
    return json.dumps(data)


def _string(draw: Callable[..., Any], name: str, c: Corpus) -> str:
    pools: list[Any] = [_ODD_STRINGS, st.text(max_size=20)]
    if name == "game":
        pools += [st.sampled_from(c.games)] * 4
    elif name == "content_pack" and c.pack_names:
        pools += [st.sampled_from(c.pack_names)] * 4
    elif name in ("match_id",) and c.match_ids:
        pools += [st.sampled_from(c.match_ids)] * 4
    elif name == "kind" and c.kinds:
        pools += [st.sampled_from(c.kinds)] * 4
    elif name in ("text", "action", "actions", "state_text") and c.notations:
        pools += [st.sampled_from(c.notations)] * 4
        pools += [st.sampled_from(c.notations).map(odd_digits)]
    elif name in ("state_json", "score_sheet_json") and c.states:
        pools += [st.sampled_from([json.dumps(s) for s in c.states])]
        if c.views:
            pools += [st.sampled_from([v.position.state_json for v in c.views])]
        pools += [st.just("")]
        return draw(st.one_of(*pools)) if draw(st.integers(0, 2)) else _mutated_state(draw, c.states)
    elif name == "params_json":
        pools += [
            st.dictionaries(
                st.sampled_from(
                    sorted({k for sch in c.schemas.values() for k in sch.get("properties", {})} | {"x"})
                ),
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
        real = c.positions + [v.position for v in c.views]
        msg.CopyFrom(draw(st.sampled_from(real)))
        roll = draw(st.integers(0, 5))
        if roll == 0:  # a real position with one field made hostile
            _fill_field(draw, msg, draw(st.sampled_from(list(msg.DESCRIPTOR.fields))), c, depth)
        elif roll == 1 and c.pack_names:  # a real position read with a content pack
            packs = c.packs.by_game.get(msg.game, []) if c.packs else []
            msg.content_pack = draw(st.sampled_from(packs or c.pack_names))
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


_ODD_DIGITS = ("³", "①", "𝟗")
"""Characters ``str.isdigit`` takes for digits and ``int`` refuses (a check by isdigit, then int())."""


def odd_digits(value: Any) -> Any:
    """``value`` with the first ASCII digit of every string in it replaced by an odd digit."""
    if isinstance(value, str):
        return re.sub(r"[0-9]", _ODD_DIGITS[len(value) % len(_ODD_DIGITS)], value, count=1)
    if isinstance(value, list):
        return [odd_digits(v) for v in value]
    if isinstance(value, dict):
        return {k: odd_digits(v) for k, v in value.items()}
    return value


def generated_shots(
    c: Corpus, ms: Sequence[Method], count: int, seed: int, per_example: int = 4
) -> Iterator[Shot]:
    """``count`` generic requests drawn by hypothesis (seeded: the same ones each run), made in a
    thread of their own while they are sent."""
    made: queue.Queue[Shot | None] = queue.Queue(maxsize=64)
    produced = [0]

    def produce() -> None:
        try:
            for round_ in range(8):  # (an example hypothesis discards sends fewer: top up)
                left = count - produced[0]
                if left <= 0:
                    return

                @hypothesis_seed(seed * 1000 + round_)
                @settings(
                    max_examples=math.ceil(left / per_example),
                    deadline=None,
                    database=None,
                    phases=[Phase.generate],
                    suppress_health_check=list(HealthCheck),
                )
                @given(data=st.data())
                def draw_all(data: Any) -> None:
                    for _ in range(per_example):  # (always drawn alike: hypothesis replays prefixes)
                        method = data.draw(st.sampled_from(list(ms)))
                        msg = data.draw(request(method, c))
                        if produced[0] < count:
                            produced[0] += 1
                            made.put((method, msg, deadline_of(method)))

                draw_all()
        finally:
            made.put(None)

    threading.Thread(target=produce, name="fuzz-draw", daemon=True).start()
    while (shot := made.get()) is not None:
        yield shot
