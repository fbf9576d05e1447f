"""A pool's processes as callers take them: the slots, the idle processes, the calls waiting for one.

A call takes an idle process (:meth:`Admission.acquire`) or is refused at once (RESOURCE_EXHAUSTED:
the pool runs its maximum) — unless a replacement process is warming up: then it waits for it, for
a time its caller names. A scheduler that must know at once takes one with
:meth:`Admission.try_acquire`. A process given back goes to the first waiter, else joins the idle
ones (and ``on_idle`` hears of it).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from games.errors import LimitError
from service.errors import UnavailableError

__all__ = ["SHUTTING_DOWN", "Admission", "Worker", "retrieve"]

SHUTTING_DOWN = "the server is shutting down; retry after its restart"


@dataclass(slots=True, eq=False)
class Worker:
    """A worker process as the pool sees it.

    Attributes:
        slot: its place in the pool (its stop flag's index).
        process: the process.
        conn: the pipe to it.
        ready: resolved with its warm memory once it is ready.
        warm_rss: its warm memory in bytes.
        job: the number of its job (0: none yet).
        kind: its job's kind (for messages).
        future: its job's answer (None: idle).
        on_progress: called with each progress report.
        last_progress: the job's last progress report.
        started: when the job was sent (monotonic).
        cpu_at_start: the process's CPU seconds then.
        told: when the job was told to stop (its deadline, or earlier when stopped; monotonic).
        kill_at: when the job is killed if it has not answered (monotonic; None: never).
        watchdog: the timer that kills it then.
        gone: no longer the pool's (dead, killed, retired or closed).
    """

    slot: int
    process: Any
    conn: Connection
    ready: asyncio.Future[int]
    warm_rss: int = 0
    job: int = 0
    kind: str = ""
    future: asyncio.Future[Any] | None = None
    on_progress: Callable[[Any], None] | None = None
    last_progress: Any = None
    started: float = 0.0
    cpu_at_start: float = 0.0
    told: float | None = None
    kill_at: float | None = None
    watchdog: asyncio.TimerHandle | None = None
    gone: bool = False


def retrieve(fut: asyncio.Future[Any]) -> None:
    """A job's answer may come when nobody waits for it any more: never "exception never retrieved"."""
    if not fut.cancelled():
        fut.exception()


class Admission:
    """The processes of a pool and who may take them (see the module doc).

    Args:
        name: for logs and messages (``"calls"``, ``"seats"``).
        size: processes.

    Attributes:
        on_idle: called (soon, on the loop) whenever a process becomes idle: a job ended, a
            replacement warmed up. A scheduler that takes processes with :meth:`try_acquire`
            listens here.
    """

    def __init__(self, name: str, size: int) -> None:
        self.name = name
        self.size = size
        self._workers: list[Worker | None] = [None] * size
        self._idle: list[Worker] = []
        self._waiters: list[tuple[float, int, asyncio.Future[Worker]]] = []
        self._numbers = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closed = False
        self.on_idle: list[Callable[[], None]] = []

    @property
    def busy(self) -> int:
        """Processes running a job."""
        return sum(1 for w in self._workers if w is not None and w.future is not None)

    @property
    def idle(self) -> int:
        """Warm processes waiting for a job."""
        return len(self._idle)

    @property
    def starting(self) -> int:
        """Processes started and not yet warm (replacements on their way)."""
        return sum(1 for w in self._workers if w is not None and not w.ready.done())

    def pids(self) -> list[int]:
        """The processes' ids (memory measurements)."""
        return [w.process.pid for w in self._workers if w is not None and w.process.pid]

    def try_acquire(self) -> Worker | None:
        """An idle process now, or None (for a scheduler that must know at once whether it has one)."""
        if self._closed or not self._idle:
            return None
        return self._idle.pop()

    async def acquire(
        self, *, wait: bool, priority: float | None = None, until: float | None = None
    ) -> Worker:
        """An idle process. Without ``wait``, LimitError at once when none is idle — unless a
        replacement process is warming up and ``until`` (monotonic) is given: then the call waits for
        it until then (a replaced process costs no refusal). Waiters are served by ``priority``
        (lowest first; default: first come, first served)."""
        if self._closed:
            raise UnavailableError(SHUTTING_DOWN)
        if self._idle:
            return self._idle.pop()
        if not wait and (until is None or len(self._waiters) >= self.starting):
            raise self._full()
        assert self._loop is not None
        fut: asyncio.Future[Worker] = self._loop.create_future()
        fut.add_done_callback(retrieve)
        self._numbers += 1
        self._waiters.append((time.monotonic() if priority is None else priority, self._numbers, fut))
        self._waiters.sort(key=lambda w: (w[0], w[1]))
        timer = None
        if not wait and until is not None:
            timer = self._loop.call_at(until, self._refuse, fut)
        try:
            return await fut
        except BaseException:
            self._waiters = [w for w in self._waiters if w[2] is not fut]
            if fut.done() and not fut.cancelled() and fut.exception() is None:
                self.release(fut.result())
            raise
        finally:
            if timer is not None:
                timer.cancel()

    def _refuse(self, fut: asyncio.Future[Worker]) -> None:
        if not fut.done():
            fut.set_exception(self._full())

    def _full(self) -> LimitError:
        return LimitError(
            f"the server is running its maximum of {self.size} concurrent searches and solves; retry later",
            field="budget",
        )

    def release(self, worker: Worker) -> None:
        """Give a process back: to the first waiter, else to the idle processes."""
        if self._closed or worker.gone:
            return
        while self._waiters:
            _, _, fut = self._waiters.pop(0)
            if not fut.done():
                fut.set_result(worker)
                return
        self._idle.append(worker)
        if self._loop is not None:
            for hook in self.on_idle:
                self._loop.call_soon(hook)
