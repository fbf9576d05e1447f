"""A pool's processes started, and replaced when they die, are killed or grow too large.

Every process warms up before it takes a job (:meth:`Restarts.start` waits for all of them). A
process that dies (or is killed: a job that would not stop, a process that did not warm up within
:data:`START_TIMEOUT_S`) is replaced at once, one log line each; at most
:data:`RESPAWNS_PER_MINUTE` a minute, later ones wait their turn. A process grown past ``growth``
times its warm memory retires after its job and is replaced. While the server drains, nothing is
replaced.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing as mp
import time
from collections.abc import Sequence
from typing import Any

from games.core.registry import GameEntry
from games.errors import LictorError
from service.errors import UnavailableError
from service.workers.admission import Admission, Worker, retrieve
from service.workers.job import JobCrashedError
from service.workers.process import WorkerSettings, parent_main_hidden, worker_main

__all__ = ["RESPAWNS_PER_MINUTE", "START_TIMEOUT_S", "Restarts"]

log = logging.getLogger("lictor.workers")

RESPAWNS_PER_MINUTE = 30
"""Processes replaced per minute after dying or being killed; beyond that a replacement waits until
the minute's count allows it (a crash loop cannot fork without end)."""
START_TIMEOUT_S = 60.0
"""A process that has not warmed up this long after it was started is killed (and replaced)."""


class Restarts(Admission):
    """A pool's processes kept running (see the module doc).

    Args:
        name: for logs and process titles.
        size: processes.
        ctx: the multiprocessing context (:func:`~service.workers.process.forkserver_context`).
        niceness: added to the processes' ``nice`` value.
        growth: a process retires once its memory exceeds this factor of its warm size.
        entries: games registered at run time that the processes must know at start.

    Attributes:
        replaced: processes replaced so far.
    """

    def __init__(
        self,
        name: str,
        size: int,
        *,
        ctx: mp.context.BaseContext,
        niceness: int,
        growth: float,
        entries: Sequence[GameEntry],
    ) -> None:
        super().__init__(name, size)
        self._ctx = ctx
        self._settings = WorkerSettings(niceness=niceness, growth=growth, entries=tuple(entries))
        self._flags: Any = ctx.RawArray("q", size)
        self._started = False
        self._draining = False
        self._restarts: dict[int, asyncio.TimerHandle] = {}  # slot -> its delayed replacement
        self._tasks: set[asyncio.Task[None]] = set()
        self._deaths: list[float] = []
        self.replaced = 0

    async def start(self) -> None:
        """Start every process and wait until each is warm (JobCrashedError if one dies first)."""
        self._loop = asyncio.get_running_loop()
        started = [self._spawn(slot) for slot in range(self.size)]
        for w in started:
            w.warm_rss = await w.ready
            self.release(w)
        self._started = True

    def _spawn(self, slot: int) -> Worker:
        """Start a process in ``slot`` (raises what the forkserver raises when it cannot)."""
        assert self._loop is not None
        parent, child = self._ctx.Pipe(duplex=True)
        proc = self._ctx.Process(  # type: ignore[attr-defined]
            target=worker_main,
            args=(child, self._flags, slot, self._settings),
            name=f"lictor-{self.name}-{slot}",
            daemon=True,
        )
        try:
            with parent_main_hidden():
                proc.start()
        finally:
            child.close()
        worker = Worker(slot=slot, process=proc, conn=parent, ready=self._loop.create_future())
        worker.ready.add_done_callback(retrieve)
        self._workers[slot] = worker
        self._loop.add_reader(parent.fileno(), self._readable, worker)
        return worker

    def _start_slot(self, slot: int) -> None:
        """Start a replacement in ``slot`` (retried later when the forkserver cannot start one)."""
        self._restarts.pop(slot, None)
        if self._draining or self._workers[slot] is not None:
            return
        try:
            worker = self._spawn(slot)
        except Exception as exc:  # the forkserver is gone or out of resources: try again later
            log.warning(
                "%s worker %d: cannot start a process (%r); trying again in 5 s", self.name, slot, exc
            )
            assert self._loop is not None
            self._restarts[slot] = self._loop.call_later(5.0, self._start_slot, slot)
            return
        assert self._loop is not None
        timer = self._loop.call_later(START_TIMEOUT_S, self._kill_if_not_ready, worker)
        task = asyncio.ensure_future(self._await_ready(worker, timer))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _await_ready(self, worker: Worker, timer: asyncio.TimerHandle) -> None:
        try:
            worker.warm_rss = await worker.ready
        except JobCrashedError:
            return  # _lost has dealt with it
        finally:
            timer.cancel()
        self.release(worker)

    def _kill_if_not_ready(self, worker: Worker) -> None:
        if not worker.gone and not worker.ready.done():
            with contextlib.suppress(Exception):
                worker.process.kill()
            self._lost(worker, f"it did not warm up within {START_TIMEOUT_S:g} s; killed")

    def drain(self) -> None:
        """The server is stopping: running jobs go on, but no process is replaced from now on."""
        self._draining = True
        for handle in self._restarts.values():
            handle.cancel()
        self._restarts.clear()

    def _retire(self, worker: Worker, rss: int) -> None:
        """A process that grew past ``growth`` times its warm size: it exits; another starts now."""
        log.debug(
            "%s worker %d grew to %d MB (warm %d MB); replacing it",
            self.name,
            worker.slot,
            rss >> 20,
            worker.warm_rss >> 20,
        )
        self._drop(worker)
        self.replaced += 1
        self._start_slot(worker.slot)

    def _drop(self, worker: Worker) -> None:
        """The pool lets go of a process (its reader, its pipe, its slot)."""
        worker.gone = True
        if worker.watchdog is not None:
            worker.watchdog.cancel()
            worker.watchdog = None
        if self._loop is not None:
            with contextlib.suppress(Exception):
                self._loop.remove_reader(worker.conn.fileno())
        with contextlib.suppress(OSError):
            worker.conn.close()
        if worker in self._idle:
            self._idle.remove(worker)
        if self._workers[worker.slot] is worker:
            self._workers[worker.slot] = None

    def _lost(self, worker: Worker, why: str, exc: LictorError | None = None) -> None:
        """A process that died, was killed or could not take a job: its job (if any) answers
        ``exc`` (default UNAVAILABLE), and another process takes its slot (one log line)."""
        if worker.gone:
            return
        self._drop(worker)
        fut = worker.future
        if fut is not None and not fut.done():
            fut.set_exception(
                exc or UnavailableError(f"the {self.name} worker process running this call died; retry")
            )
        worker.future = None
        if not worker.ready.done():
            worker.ready.set_exception(JobCrashedError(f"{self.name} worker {worker.slot}: {why}"))
        if self._closed:
            return
        if self._draining:
            log.info("%s worker %d (pid %s): %s", self.name, worker.slot, worker.process.pid, why)
            return
        now = time.monotonic()
        self._deaths = [t for t in self._deaths if now - t < 60.0] + [now]
        delay = 0.0
        if len(self._deaths) > RESPAWNS_PER_MINUTE:
            delay = 60.0 - (now - self._deaths[-RESPAWNS_PER_MINUTE - 1])
        if not self._started:
            return  # start() fails with the first process that dies warming up
        log.warning(
            "%s worker %d (pid %s): %s; starting another%s",
            self.name,
            worker.slot,
            worker.process.pid,
            why,
            f" in {delay:.0f} s (more than {RESPAWNS_PER_MINUTE} replaced this minute)" if delay else "",
        )
        self.replaced += 1
        if delay:
            assert self._loop is not None
            self._restarts[worker.slot] = self._loop.call_later(delay, self._start_slot, worker.slot)
        else:
            self._start_slot(worker.slot)

    def _readable(self, worker: Worker) -> None:
        """Read what a process sent (the pool's jobs answer; an exited process is lost)."""
        raise NotImplementedError
