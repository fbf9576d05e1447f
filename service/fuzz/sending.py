"""Sending the requests and counting their answers: :func:`send` (one request, judged), :func:`run`
(from client threads at once) and :class:`FuzzResult`."""

from __future__ import annotations

import queue
import threading
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import grpc
from google.protobuf import text_format

from service.fuzz.checks import NO_ORACLE, Oracle, leaked_marker, named_pack, watches
from service.fuzz.rpcs import (
    BAD_STATUSES,
    LATE,
    PACK_ACCEPTED,
    PATH_LEAK,
    STREAM_TIMEOUT_S,
    UNARY_TIMEOUT_S,
    Method,
    Shot,
)


def _clip(msg: Any, limit: int = 160) -> str:
    """The request as protobuf text, every long string or bytes value cut to ``limit``."""
    copy = type(msg)()
    copy.CopyFrom(msg)
    _clip_fields(copy, limit)
    text = str(text_format.MessageToString(copy, as_one_line=True))
    return text if len(text) <= 2000 else text[:2000] + "..."


def _clip_fields(msg: Any, limit: int) -> None:
    for fd, value in msg.ListFields():
        if fd.message_type is not None:
            if fd.message_type.GetOptions().map_entry:
                continue
            for sub in value if fd.is_repeated else [value]:
                _clip_fields(sub, limit)
        elif fd.type in (fd.TYPE_STRING, fd.TYPE_BYTES):
            if fd.is_repeated:
                values = [_cut(v, limit) for v in value]
                del value[:]
                value.extend(values)
            else:
                setattr(msg, fd.name, _cut(value, limit))


def _cut(value: Any, limit: int) -> Any:
    if len(value) <= limit:
        return value
    tail = f"...({len(value)} in all)"
    return value[:limit] + (tail.encode() if isinstance(value, bytes) else tail)


@dataclass
class FuzzResult:
    """Counts by status, by RPC and by phase; the bad replies by kind (RPC and status) with the
    first two of each kind in full (at most 40), the first 20 path leaks and hangs."""

    counts: Counter[str] = field(default_factory=Counter)
    by_rpc: dict[str, Counter[str]] = field(default_factory=dict)
    by_phase: dict[str, Counter[str]] = field(default_factory=dict)
    bad: list[str] = field(default_factory=list)
    bad_total: int = 0
    bad_kinds: Counter[str] = field(default_factory=Counter)
    leaks: list[str] = field(default_factory=list)
    hangs: list[str] = field(default_factory=list)
    slowest_s: float = 0.0
    slowest: str = ""
    seconds_by_rpc: dict[str, float] = field(default_factory=dict)
    seconds_by_phase: dict[str, float] = field(default_factory=dict)
    client_errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def total(self) -> int:
        """Requests answered (any status)."""
        return sum(self.counts.values())

    def record(
        self, method: Method, msg: Any, *, phase: str, status: str, elapsed: float, problem: str
    ) -> None:
        """Count one reply; keep a bad one's story (status, details, the request clipped)."""
        with self.lock:
            self.counts[status] += 1
            self.by_rpc.setdefault(method.name, Counter())[status] += 1
            self.by_phase.setdefault(phase, Counter())[status] += 1
            self.seconds_by_rpc[method.name] = self.seconds_by_rpc.get(method.name, 0.0) + elapsed
            if elapsed > self.slowest_s:
                self.slowest_s, self.slowest = elapsed, f"{method.name} ({phase}, {status})"
            if not problem:
                return
            self.bad_total += 1
            story = f"[{phase}] {method.name} -> {status} after {elapsed:.2f} s: {problem[:400]}"
            story += f"\n    request: {_clip(msg)}"
            kind = f"{method.name} -> {status}"
            self.bad_kinds[kind] += 1
            if status == PATH_LEAK and len(self.leaks) < 20:
                self.leaks.append(story)
            if status in ("DEADLINE_EXCEEDED", LATE) and len(self.hangs) < 20:
                self.hangs.append(story)
            if self.bad_kinds[kind] <= 2 and len(self.bad) < 40:
                self.bad.append(story)

    def summary(self) -> dict[str, Any]:
        """The result as plain data (bench/results/service.json)."""
        return {
            "requests": self.total,
            "bad": self.bad_total,
            "by_status": dict(self.counts.most_common()),
            "by_rpc": {k: dict(v.most_common()) for k, v in sorted(self.by_rpc.items())},
            "by_phase": {k: dict(v.most_common()) for k, v in self.by_phase.items()},
            "seconds_by_phase": {k: round(v, 1) for k, v in self.seconds_by_phase.items()},
            "mean_ms_by_rpc": {
                k: round(1000 * s / max(1, sum(self.by_rpc[k].values())), 1)
                for k, s in sorted(self.seconds_by_rpc.items())
            },
            "slowest_s": round(self.slowest_s, 3),
            "slowest": self.slowest,
            "path_leaks": self.counts[PATH_LEAK],
            "hangs": self.counts["DEADLINE_EXCEEDED"] + self.counts[LATE],
            "bad_by_kind": dict(self.bad_kinds.most_common()),
            "bad_examples": self.bad,
            "leak_examples": self.leaks,
            "hang_examples": self.hangs,
            "client_errors": self.client_errors[:10],
        }


@dataclass(frozen=True)
class Reply:
    """What a request got.

    Attributes:
        status: the status's name, or IDLE_STREAM, PATH_LEAK, LATE_REPLY.
        answers: the raw answers (one for a unary call, up to 3 of a stream).
        details: the error's text ("" when OK).
    """

    status: str
    answers: list[bytes]
    details: str


def send(
    channel: grpc.Channel,
    method: Method,
    msg: Any,
    result: FuzzResult,
    *,
    timeout: float = UNARY_TIMEOUT_S,
    stream_timeout: float = STREAM_TIMEOUT_S,
    metadata: Iterable[tuple[str, str]] = (),
    oracle: Oracle = NO_ORACLE,
    phase: str = "generic",
) -> Reply:
    """Send one request, count its status, and return the reply.

    A stream is read for at most 3 answers, then cancelled. A stream that answered and then stays
    open until the deadline, or a watch that had nothing to say, is ``IDLE_STREAM``, not a hang.
    """
    t0 = time.monotonic()
    code = grpc.StatusCode.OK
    replies: list[bytes] = []
    texts: list[bytes] = []
    details = ""
    limit = stream_timeout if method.streaming else timeout
    try:
        if method.streaming:
            stream = channel.unary_stream(method.path, request_serializer=type(msg).SerializeToString)(
                msg, timeout=stream_timeout, metadata=tuple(metadata)
            )
            for item in stream:
                replies.append(item)
                if len(replies) >= 3:
                    stream.cancel()
                    break
        else:
            unary = channel.unary_unary(method.path, request_serializer=type(msg).SerializeToString)
            replies.append(unary(msg, timeout=timeout, metadata=tuple(metadata)))
    except grpc.RpcError as exc:
        code = exc.code()  # type: ignore[attr-defined]
        details = exc.details() or ""  # type: ignore[attr-defined]
        texts.append(details.encode("utf-8", "replace"))
        for _, value in exc.trailing_metadata() or ():  # type: ignore[attr-defined]
            texts.append(value if isinstance(value, bytes) else str(value).encode())
    elapsed = time.monotonic() - t0
    status, problem = code.name, ""
    if code == grpc.StatusCode.CANCELLED and method.streaming:
        status = "OK"
    elif code == grpc.StatusCode.DEADLINE_EXCEEDED and method.streaming and (replies or watches(method)):
        status = "IDLE_STREAM"
    elif code in BAD_STATUSES:
        problem = details or code.name
    elif elapsed > limit + 0.5:
        status, problem = LATE, f"answered {code.name} {elapsed - limit:.2f} s after the client's deadline"
    if not problem:
        leak = leaked_marker(oracle.markers, msg, texts + replies)
        if leak:
            status, problem = PATH_LEAK, f"{code.name} reply {leak}"
        elif status == "OK" and named_pack(msg) in oracle.refused_packs:
            status, problem = PACK_ACCEPTED, f"the content pack {named_pack(msg)[1]!r} must be refused"
    result.record(method, msg, phase=phase, status=status, elapsed=elapsed, problem=problem)
    return Reply(status, replies, details)


def run(
    target: str,
    shots: Iterable[Shot],
    result: FuzzResult,
    *,
    clients: int = 1,
    oracle: Oracle = NO_ORACLE,
    phase: str = "generic",
    back_off: float = 0.0,
) -> None:
    """Send ``shots`` from ``clients`` threads at once, each on its own channel to ``target``; a
    client refused for want of a slot (RESOURCE_EXHAUSTED) waits ``back_off`` seconds, as a
    polite client would."""
    todo: queue.Queue[Shot | None] = queue.Queue(maxsize=4 * clients)

    def client() -> None:
        channel = grpc.insecure_channel(target)
        try:
            while (shot := todo.get()) is not None:
                method, msg, timeout = shot
                try:
                    reply = send(
                        channel,
                        method,
                        msg,
                        result,
                        timeout=timeout,
                        stream_timeout=min(timeout, STREAM_TIMEOUT_S),
                        oracle=oracle,
                        phase=phase,
                    )
                    if reply.status == "RESOURCE_EXHAUSTED" and back_off:
                        time.sleep(back_off)
                except Exception as exc:  # a request the client itself cannot send: the fuzz's bug
                    with result.lock:
                        result.client_errors.append(f"{method.name}: {type(exc).__name__}: {exc}"[:300])
        finally:
            channel.close()

    threads = [threading.Thread(target=client, name=f"fuzz-{phase}-{k}", daemon=True) for k in range(clients)]
    for t in threads:
        t.start()
    try:
        for shot in shots:
            todo.put(shot)
    finally:
        for _ in threads:
            todo.put(None)
        for t in threads:
            t.join()
