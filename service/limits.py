"""Server limits: the search budget caps, the concurrent-search gate, deadlines and cancellation."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any

import grpc

from games.errors import LimitError
from search import SearchLimit

__all__ = [
    "DEADLINE_MARGIN_S",
    "CallStop",
    "Limits",
    "SearchGate",
    "call_deadline",
    "cancel_event",
    "search_limit",
]

DEADLINE_MARGIN_S = 0.1
"""Most seconds kept back from the client's deadline to build and send the answer (a quarter of
the time left when that is less)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Limits:
    """Caps the server enforces.

    Attributes:
        max_simulations: most simulations one search may ask for.
        max_search_s: most wall seconds one search or solve may ask for.
        default_search_s: budget of a search that gives none (and has no deadline).
        max_concurrent_searches: searches and solves running at once; more get RESOURCE_EXHAUSTED.
        max_solve_workers: most CP-SAT workers one solve may use.
        max_message_bytes: largest request or response.
        max_top_k: most hints one Hint call returns.
    """

    max_simulations: int = 1_000_000
    max_search_s: float = 60.0
    default_search_s: float = 1.0
    max_concurrent_searches: int = 4
    max_solve_workers: int = 2
    max_message_bytes: int = 16 * 1024 * 1024
    max_top_k: int = 20


class SearchGate:
    """Counts running searches; beyond the cap a call gets a LimitError (RESOURCE_EXHAUSTED).

    ``with gate.slot():`` holds one slot for the block (a plain counter under a lock: no generator
    and no semaphore object per call on the hot path).
    """

    __slots__ = ("_lock", "capacity", "running")

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.running = 0
        self._lock = threading.Lock()

    def slot(self) -> SearchGate:
        """Hold one search slot for the ``with`` block."""
        return self

    def __enter__(self) -> None:
        with self._lock:
            if self.running >= self.capacity:
                raise LimitError(
                    f"the server is running its maximum of {self.capacity} concurrent searches; retry later",
                    field="budget",
                )
            self.running += 1

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self.running -= 1


def call_deadline(context: grpc.ServicerContext) -> float | None:
    """The client's deadline as an absolute ``time.monotonic()`` value (less a send margin)."""
    remaining: float | None = context.time_remaining()
    if remaining is None or remaining > 1e8:
        return None
    margin = min(DEADLINE_MARGIN_S, remaining * 0.25)
    return time.monotonic() + max(0.0, remaining - margin)


class CallStop:
    """The stop flag of one call's search: set on cancellation, at the deadline or at shutdown.

    A search polls ``is_set()`` between simulations (no thread per call: the deadline is read from
    the clock, the cancellation from the call's termination callback).
    """

    __slots__ = ("_deadline", "_server_stop", "_set")

    def __init__(self, deadline: float | None, server_stop: threading.Event | None) -> None:
        self._set = False  # a plain flag: nobody waits on it, and a bool store is atomic
        self._deadline = deadline
        self._server_stop = server_stop

    def set(self) -> None:
        """Stop the search now."""
        self._set = True

    def is_set(self) -> bool:
        """True once the search should return its best result so far."""
        if self._set:
            return True
        if self._deadline is not None and time.monotonic() >= self._deadline:
            return True
        return self._server_stop is not None and self._server_stop.is_set()


_UNSET: Any = object()


def cancel_event(
    context: grpc.ServicerContext,
    server_stop: threading.Event | None = None,
    *,
    deadline: float | None = _UNSET,
) -> CallStop:
    """The stop flag of a call: set when the client cancels, at its deadline, or at server shutdown.

    ``deadline``: the call's :func:`call_deadline` when the caller already read it.
    """
    stop = CallStop(call_deadline(context) if deadline is _UNSET else deadline, server_stop)
    context.add_callback(stop.set)
    return stop


def search_limit(
    limits: Limits,
    context: grpc.ServicerContext,
    *,
    simulations: int = 0,
    time_s: float = 0.0,
    field: str = "budget",
    use_default: bool = True,
    deadline: float | None = _UNSET,
) -> SearchLimit | None:
    """The ``SearchLimit`` of a request's budget, capped, bounded by the client's deadline.

    Returns None when the request sets no budget and ``use_default`` is False (the caller then
    uses its own budget, e.g. an AI level's; :func:`cancel_event` enforces the deadline).
    ``deadline``: the call's :func:`call_deadline` when the caller already read it.
    """
    if simulations < 0:
        raise LimitError(f"simulations must be >= 0, not {simulations!r}", field=f"{field}.simulations")
    if time_s < 0:
        raise LimitError(f"time_s must be >= 0, not {time_s!r}", field=f"{field}.time_s")
    if simulations > limits.max_simulations:
        raise LimitError(
            f"simulations {simulations!r} is over the server cap of {limits.max_simulations}",
            field=f"{field}.simulations",
        )
    if time_s > limits.max_search_s:
        raise LimitError(
            f"time_s {time_s!r} is over the server cap of {limits.max_search_s} seconds",
            field=f"{field}.time_s",
        )
    if not simulations and not time_s:
        if not use_default:
            return None  # the caller's own budget; the stop event enforces the deadline
        time_s = limits.default_search_s
    if deadline is _UNSET:
        deadline = call_deadline(context)
    cap = time.monotonic() + limits.max_search_s
    deadline = cap if deadline is None else min(deadline, cap)
    return SearchLimit(simulations=simulations or None, time_s=time_s or None, deadline=deadline)
