"""The pool of worker processes: a job sent to a process, its answer (or why it has none) returned.

A job carries its deadline on the shared monotonic clock; the pool can stop it early through a flag
in shared memory (a cancelled call, the server shutting down). The caller names the moment it must
answer (``give_up_at``): a job that has not answered by then is answered for (its last progress
report, or :class:`~service.workers.job.JobLateError` saying why), and a job still running
:data:`~service.workers.job.STOP_GRACE_S` after it was told to stop, and no earlier than that moment,
is killed and its process replaced at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing as mp
import time
from collections.abc import Callable, Sequence
from typing import Any

from games.core.registry import GameEntry
from games.errors import LictorError
from service.errors import UnavailableError
from service.workers.admission import SHUTTING_DOWN, Worker, retrieve
from service.workers.job import (
    STOP_GRACE_S,
    Job,
    JobCrashedError,
    JobLateError,
    JobOutcome,
    kill_time,
    rebuild_error,
    wait_until,
)
from service.workers.process import cpu_seconds
from service.workers.restarts import Restarts

__all__ = ["CLOSE_WAIT_S", "WorkerPool"]

log = logging.getLogger("lictor.workers")

CLOSE_WAIT_S = 1.0
"""On close, how long processes get to exit by themselves before they are killed."""
_WHAT = {"analyze": "search", "hint": "search", "choose": "AI move", "solve": "solve"}
"""A job kind as a client reads it in a message."""


class WorkerPool(Restarts):
    """Processes that run heavy jobs, one job per process at a time.

    Its parts: :class:`~service.workers.admission.Admission` (who takes a process),
    :class:`~service.workers.restarts.Restarts` (processes started and replaced), and here the jobs.

    Args:
        name: for logs and process titles (``"calls"``, ``"seats"``).
        size: processes.
        ctx: the multiprocessing context (:func:`~service.workers.process.forkserver_context`).
        niceness: added to the processes' ``nice`` value.
        growth: a process retires once its memory exceeds this factor of its warm size.
        entries: games registered at run time that the processes must know at start.

    Attributes:
        jobs_run: jobs answered so far.
        killed: jobs killed for not stopping.
    """

    def __init__(
        self,
        name: str,
        size: int,
        *,
        ctx: mp.context.BaseContext,
        niceness: int = 10,
        growth: float = 1.25,
        entries: Sequence[GameEntry] = (),
    ) -> None:
        if size < 1:
            raise ValueError(f"a worker pool needs at least one process, not {size}")
        super().__init__(name, size, ctx=ctx, niceness=niceness, growth=growth, entries=entries)
        self.jobs_run = 0
        self.killed = 0

    async def close(self) -> None:
        """Stop every job and process: each gets :data:`CLOSE_WAIT_S` to exit, then is killed."""
        self.drain()
        self._closed = True
        for w in self._workers:
            if w is None:
                continue
            if w.future is not None:
                self._flags[w.slot] = w.job
            with contextlib.suppress(OSError, ValueError):
                w.conn.send(None)
        end = time.monotonic() + CLOSE_WAIT_S
        for w in self._workers:
            if w is None:
                continue
            while w.process.is_alive() and time.monotonic() < end:
                await asyncio.sleep(0.02)
            if w.process.is_alive():
                with contextlib.suppress(Exception):
                    w.process.kill()
            self._lost(w, "the server is shutting down", UnavailableError(SHUTTING_DOWN))
        for _, _, fut in self._waiters:
            if not fut.done():
                fut.set_exception(UnavailableError(SHUTTING_DOWN))
        self._waiters.clear()

    def stop_all(self) -> None:
        """Ask every running job to stop now (it answers its best so far; killed if it does not)."""
        for w in self._workers:
            if w is not None and w.future is not None:
                self._stop_job(w, w.job)

    async def run(
        self,
        job: Job,
        *,
        worker: Worker | None = None,
        wait: bool = False,
        give_up_at: float | None = None,
        on_progress: Callable[[Any], None] | None = None,
    ) -> JobOutcome:
        """Run ``job`` in a process (``worker`` when already acquired) and return what it answered.

        Args:
            job: the job.
            worker: a process from :meth:`acquire` (else one is acquired here).
            wait: wait for a process when none is idle (else LimitError at once, unless a
                replacement is warming up: then it is waited for, at most half the job's time).
            give_up_at: monotonic time by which this returns: if the job has not answered then, it
                is told to stop and its last progress report stands in for the answer
                (``JobOutcome.late``), or JobLateError when it sent none. The job is killed and its
                process replaced at :func:`kill_time` if it still runs.
            on_progress: called on the loop with each progress report.

        Raises:
            LictorError: what the job raised (a bad parameter, an illegal state); JobLateError.
            UnavailableError: the job's process died, or the server is shutting down.
            JobCrashedError: the job hit a bug.
        """
        assert self._loop is not None
        if worker is None:
            worker = await self.acquire(wait=wait, until=wait_until(job.deadline or give_up_at))
        self._numbers += 1
        number = self._numbers
        fut: asyncio.Future[Any] = self._loop.create_future()
        fut.add_done_callback(retrieve)
        worker.job, worker.kind, worker.future = number, _WHAT.get(job.kind, job.kind), fut
        worker.on_progress, worker.last_progress = on_progress, None
        worker.started, worker.cpu_at_start = time.monotonic(), cpu_seconds(worker.process.pid)
        worker.told = job.deadline
        try:
            worker.conn.send((number, job))
        except (OSError, ValueError) as exc:
            self._lost(worker, f"it could not take a job ({exc!r})")
            raise UnavailableError(f"the {self.name} worker process was lost; retry", field="") from None
        except Exception:  # the job does not pickle: a bug; the process is untouched
            worker.future = None
            self.release(worker)
            raise
        self._arm(worker, kill_time(job.deadline, give_up_at))
        try:
            if give_up_at is None:
                value = await asyncio.shield(fut)
                return JobOutcome(value=value, seconds=time.monotonic() - worker.started)
            try:
                value = await asyncio.wait_for(asyncio.shield(fut), max(0.0, give_up_at - time.monotonic()))
                return JobOutcome(value=value, seconds=time.monotonic() - worker.started)
            except TimeoutError:
                return self._late(worker, number)
        except asyncio.CancelledError:
            self._stop_job(worker, number)  # the caller went away: stop the job, kill it if it will not
            raise

    def _late(self, worker: Worker, number: int) -> JobOutcome:
        """The caller must answer now and the job has not: its last progress report, or why not."""
        self._stop_job(worker, number)
        wall = time.monotonic() - worker.started
        if worker.last_progress is not None:
            return JobOutcome(value=worker.last_progress, late=True, seconds=wall)
        raise JobLateError(self._why_late(worker, wall), field="budget")

    def _why_late(self, worker: Worker, wall: float) -> str:
        cpu = cpu_seconds(worker.process.pid) - worker.cpu_at_start
        if cpu >= 0.5 * wall:
            return (
                f"the {worker.kind} ran {wall:.1f} s and did not stop by its deadline; it is stopped "
                "(its worker process is replaced if it does not stop)"
            )
        return f"the {worker.kind} could not run before the deadline: the server is overloaded; retry later"

    def _arm(self, worker: Worker, kill_at: float | None) -> None:
        """Kill the worker's job at ``kill_at`` if it has not answered by then."""
        if worker.watchdog is not None:
            worker.watchdog.cancel()
            worker.watchdog = None
        worker.kill_at = kill_at
        if kill_at is not None and self._loop is not None:
            worker.watchdog = self._loop.call_at(kill_at, self._kill_if_running, worker, worker.job)

    def _stop_job(self, worker: Worker, number: int) -> None:
        """Tell a job to stop now; kill it :data:`STOP_GRACE_S` later if it has not answered."""
        if worker.gone or worker.job != number or worker.future is None:
            return
        self._flags[worker.slot] = number
        now = time.monotonic()
        worker.told = now if worker.told is None else min(worker.told, now)
        kill_at = now + STOP_GRACE_S
        if worker.kill_at is None or kill_at < worker.kill_at:
            self._arm(worker, kill_at)

    def _kill_if_running(self, worker: Worker, number: int) -> None:
        if worker.gone or worker.job != number or worker.future is None or worker.future.done():
            return
        over = time.monotonic() - (worker.told if worker.told is not None else worker.started)
        why = f"its {worker.kind} job went on {max(0.0, over):.2f} s after it was told to stop; killed"
        with contextlib.suppress(Exception):
            worker.process.kill()
        self.killed += 1
        if self._draining:
            late: LictorError = UnavailableError(SHUTTING_DOWN)
        else:
            late = JobLateError(
                f"the {worker.kind} did not stop by its deadline; it was stopped and its process replaced",
                field="budget",
            )
        self._lost(worker, why, late)

    # ------------------------------------------------------------------ messages from processes
    def _readable(self, worker: Worker) -> None:
        try:
            while not worker.gone and worker.conn.poll():
                self._handle(worker, worker.conn.recv())
        except (EOFError, OSError):
            self._lost(worker, "its process exited")

    def _handle(self, worker: Worker, msg: tuple[Any, ...]) -> None:
        kind = msg[0]
        if kind == "ready":
            if not worker.ready.done():
                worker.ready.set_result(int(msg[1]))
            return
        number = msg[1]
        if number != worker.job or worker.future is None:
            return  # (a job's messages end with its final one; nothing else is expected)
        if kind == "progress":
            worker.last_progress = msg[2]
            if worker.on_progress is not None:
                worker.on_progress(msg[2])
            return
        fut, worker.future, worker.on_progress = worker.future, None, None
        self._arm(worker, None)
        self._flags[worker.slot] = 0
        self.jobs_run += 1
        if kind == "done":
            fut.set_result(msg[2])
        elif kind == "error":
            fut.set_exception(rebuild_error(msg[2]))
        else:
            log.error("%s job failed:\n%s", self.name, msg[2])
            fut.set_exception(JobCrashedError(f"internal error in a {self.name} job"))
        if msg[3]:
            self._retire(worker, int(msg[3]))
        else:
            self.release(worker)
