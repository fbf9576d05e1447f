"""Worker processes for the CPU-heavy calls (searches, solves, AI seats): the GIL never holds a call.

The server's event loop runs the light calls itself; a :class:`WorkerPool` runs each heavy job in
a process of its own. Processes start from a ``forkserver`` (a fresh interpreter that preloads
:mod:`service.jobs`, started before the server takes calls, so no process is ever forked from a
process running gRPC's threads: grpc/grpc #13873, #14436, #22624), warm up (every registered game
and its content pack, the solver modules) and say they are ready before the pool takes jobs. They
run at a lower scheduling priority (``nice``), so the loop answering light calls wins the CPU.

A job carries its deadline on the shared monotonic clock; the pool can stop it early through a
flag in shared memory (a cancelled call, the server shutting down), which the search polls
between simulations and a solver between nodes. Jobs send progress reports; the last one stands in
for the answer if a process misses its deadline (a machine too loaded to schedule it), and a
process that does not answer long after its deadline is killed and replaced. A process that grows
past ``growth`` times its warm memory (caches a search or solve left behind) retires after its job
and is replaced, so memory returns to its warm level.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import multiprocessing as mp
import os
import sys
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from games.core.registry import GameEntry
from games.errors import LictorError, LimitError

__all__ = ["Job", "JobCrashedError", "JobOutcome", "WorkerPool", "forkserver_context", "rss_bytes"]

log = logging.getLogger("lictor.workers")

_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
RESPAWNS_PER_MINUTE = 30
"""Processes replaced after dying (not retiring) per minute before the pool stops replacing them."""
_KILL_AFTER_S = 2.0
"""A process that has not answered this long after its job's deadline is killed and replaced."""


def rss_bytes(pid: int | None = None) -> int:
    """Resident memory of a process in bytes (Linux ``/proc``; 0 where unknown)."""
    try:
        with open(f"/proc/{pid or 'self'}/statm") as f:
            return int(f.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return 0


@contextlib.contextmanager
def _parent_main_hidden() -> Iterator[None]:
    """Start a process without it re-running the parent's ``__main__`` (a worker needs none, and a
    main read from stdin or a notebook cannot be re-run): spawn and forkserver children import the
    parent's main module by name or path unless it has neither."""
    main = sys.modules.get("__main__")
    saved = {k: main.__dict__.pop(k) for k in ("__file__",) if main is not None and k in main.__dict__}
    spec = getattr(main, "__spec__", None)
    if main is not None:
        main.__spec__ = None
    try:
        yield
    finally:
        if main is not None:
            main.__spec__ = spec
            main.__dict__.update(saved)


def forkserver_context() -> mp.context.BaseContext:
    """The ``forkserver`` context, its server preloading :mod:`service.jobs` (``spawn`` where there is
    no forkserver)."""
    try:
        ctx = mp.get_context("forkserver")
    except ValueError:
        return mp.get_context("spawn")
    ctx.set_forkserver_preload(["service._preload"])
    return ctx


@dataclass(frozen=True, slots=True, kw_only=True)
class Job:
    """One heavy job for a worker process.

    Attributes:
        kind: the function of :mod:`service.jobs` to run (``"analyze"``, ``"choose"``, ``"solve"``...).
        games: registrations the worker must know (games registered at run time, e.g. a test's).
        args: the function's keyword arguments (picklable: names, states, limits).
        deadline: when the job must stop (monotonic clock; None: no deadline).
        progress: whether the job sends progress reports.
    """

    kind: str
    games: tuple[GameEntry, ...] = ()
    args: dict[str, Any] = field(default_factory=dict)
    deadline: float | None = None
    progress: bool = True


@dataclass(frozen=True, slots=True, kw_only=True)
class JobOutcome:
    """What a job answered.

    Attributes:
        value: the result, or the last progress report when ``late``.
        late: True when the process missed its deadline and ``value`` is its last progress report.
        seconds: wall seconds from sending the job to its answer.
    """

    value: Any
    late: bool = False
    seconds: float = 0.0


class JobCrashedError(Exception):
    """A job raised something other than a LictorError (a bug), or its process died."""


class _Stop:
    """The stop flag a worker's job polls: the pool's flag for this job, or its deadline."""

    __slots__ = ("_deadline", "_flags", "_job", "_slot")

    def __init__(self, flags: Any, slot: int, job: int, deadline: float | None) -> None:
        self._flags, self._slot, self._job, self._deadline = flags, slot, job, deadline

    def is_set(self) -> bool:
        if self._flags[self._slot] == self._job:
            return True
        return self._deadline is not None and time.monotonic() >= self._deadline

    def set(self) -> None:
        self._flags[self._slot] = self._job

    def __call__(self) -> bool:
        return self.is_set()


def _error_payload(exc: LictorError) -> tuple[str, str, str, str, str]:
    return (type(exc).__module__, type(exc).__qualname__, exc.message, exc.field, exc.rule)


def _rebuild_error(payload: tuple[str, str, str, str, str]) -> LictorError:
    import importlib

    module, name, message, fld, rule = payload
    cls: Any = importlib.import_module(module)
    for part in name.split("."):
        cls = getattr(cls, part)
    exc = cls.__new__(cls)
    LictorError.__init__(exc, message, field=fld, rule=rule)
    if not hasattr(exc, "file"):
        with contextlib.suppress(AttributeError):
            exc.file = ""
    return exc  # type: ignore[no-any-return]


def _worker_main(  # noqa: PLR0917  (a process target takes its arguments positionally)
    conn: Connection, flags: Any, slot: int, niceness: int, growth: float, entries: tuple[GameEntry, ...]
) -> None:
    """A worker process: warm up, then run jobs until told to stop (or grown too large)."""
    from service import jobs

    with contextlib.suppress(OSError):
        os.nice(niceness)
    jobs.warm_up(entries)
    gc.collect()
    gc.freeze()
    warm = rss_bytes()
    conn.send(("ready", warm))
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        number, job = msg
        stop = _Stop(flags, slot, number, job.deadline)

        def progress(payload: Any, number: int = number) -> None:
            conn.send(("progress", number, payload))

        try:
            result = jobs.run(job, stop=stop, progress=progress if job.progress else None)
            conn.send(("done", number, result))
        except LictorError as exc:
            conn.send(("error", number, _error_payload(exc)))
        except BaseException:
            conn.send(("crash", number, traceback.format_exc(limit=20)))
        if warm and rss_bytes() > warm * growth:
            conn.send(("retire", rss_bytes()))
            return


@dataclass(slots=True, eq=False)
class _Worker:
    slot: int
    process: Any
    conn: Connection
    ready: asyncio.Future[int]
    warm_rss: int = 0
    job: int = 0
    future: asyncio.Future[Any] | None = None
    on_progress: Callable[[Any], None] | None = None
    last_progress: Any = None
    started: float = 0.0
    retiring: bool = False


class WorkerPool:
    """Processes that run heavy jobs, one job per process at a time.

    Args:
        name: for logs and process titles (``"calls"``, ``"seats"``).
        size: processes.
        ctx: the multiprocessing context (:func:`forkserver_context`).
        niceness: added to the processes' ``nice`` value.
        growth: a process retires once its memory exceeds this factor of its warm size.
        entries: games registered at run time that the processes must know at start.
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
        self.name = name
        self.size = size
        self._ctx = ctx
        self._niceness = niceness
        self._growth = growth
        self._entries = tuple(entries)
        self._flags: Any = ctx.RawArray("q", size)
        self._workers: list[_Worker | None] = [None] * size
        self._idle: list[_Worker] = []
        self._waiters: list[tuple[float, int, asyncio.Future[_Worker]]] = []
        self._numbers = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closed = False
        self.jobs_run = 0
        self.replaced = 0
        self._deaths: list[float] = []

    # ------------------------------------------------------------------ life cycle
    async def start(self) -> None:
        """Start every process and wait until each is warm."""
        self._loop = asyncio.get_running_loop()
        for slot in range(self.size):
            self._spawn(slot)
        for w in list(self._workers):
            assert w is not None
            await self._await_ready(w)

    def _spawn(self, slot: int) -> _Worker:
        assert self._loop is not None
        parent, child = self._ctx.Pipe(duplex=True)
        proc = self._ctx.Process(  # type: ignore[attr-defined]
            target=_worker_main,
            args=(child, self._flags, slot, self._niceness, self._growth, self._entries),
            name=f"lictor-{self.name}-{slot}",
            daemon=True,
        )
        with _parent_main_hidden():
            proc.start()
        child.close()
        worker = _Worker(slot=slot, process=proc, conn=parent, ready=self._loop.create_future())
        self._workers[slot] = worker
        self._loop.add_reader(parent.fileno(), self._readable, worker)
        return worker

    async def _await_ready(self, worker: _Worker) -> None:
        worker.warm_rss = await worker.ready
        self.release(worker)

    async def close(self) -> None:
        """Stop every job and process."""
        self._closed = True
        for i in range(self.size):
            self._flags[i] = -1  # no job number is -1: a flag that stops nothing, just in case
        for w in self._workers:
            if w is None:
                continue
            if w.future is not None:
                self._flags[w.slot] = w.job
            with contextlib.suppress(OSError, ValueError):
                w.conn.send(None)
        deadline = time.monotonic() + 3.0
        for w in self._workers:
            if w is None:
                continue
            while w.process.is_alive() and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
            if w.process.is_alive():
                w.process.kill()
            self._forget(w)
            if w.future is not None and not w.future.done():
                w.future.set_exception(JobCrashedError("the server is shutting down"))
        for _, _, fut in self._waiters:
            if not fut.done():
                fut.cancel()
        self._waiters.clear()

    def stop_all(self) -> None:
        """Ask every running job to stop now (it answers its best so far)."""
        for w in self._workers:
            if w is not None and w.future is not None:
                self._flags[w.slot] = w.job

    @property
    def busy(self) -> int:
        """Processes running a job."""
        return sum(1 for w in self._workers if w is not None and w.future is not None)

    @property
    def idle(self) -> int:
        """Warm processes waiting for a job."""
        return len(self._idle)

    def pids(self) -> list[int]:
        """The processes' ids (memory measurements)."""
        return [w.process.pid for w in self._workers if w is not None and w.process.pid]

    # ------------------------------------------------------------------ jobs
    async def acquire(self, *, wait: bool, priority: float | None = None) -> _Worker:
        """An idle process; without ``wait``, LimitError when none is idle. Waiters are served by
        ``priority`` (lowest first; default: first come, first served)."""
        if self._closed:
            raise LimitError("the server is shutting down", field="")
        if self._idle:
            return self._idle.pop()
        if not wait:
            raise LimitError(
                f"the server is running its maximum of {self.size} concurrent searches and solves; "
                "retry later",
                field="budget",
            )
        assert self._loop is not None
        fut: asyncio.Future[_Worker] = self._loop.create_future()
        self._numbers += 1
        self._waiters.append((time.monotonic() if priority is None else priority, self._numbers, fut))
        self._waiters.sort(key=lambda w: (w[0], w[1]))
        try:
            return await fut
        except asyncio.CancelledError:
            self._waiters = [w for w in self._waiters if w[2] is not fut]
            if fut.done() and not fut.cancelled():
                self.release(fut.result())
            raise

    def release(self, worker: _Worker) -> None:
        """Give a process back: to the first waiter, else to the idle processes."""
        if self._closed or worker.retiring:
            return
        while self._waiters:
            _, _, fut = self._waiters.pop(0)
            if not fut.done():
                fut.set_result(worker)
                return
        self._idle.append(worker)

    async def run(
        self,
        job: Job,
        *,
        worker: _Worker | None = None,
        wait: bool = False,
        give_up_at: float | None = None,
        on_progress: Callable[[Any], None] | None = None,
    ) -> JobOutcome:
        """Run ``job`` in a process (``worker`` when already acquired) and return what it answered.

        Args:
            job: the job.
            worker: a process from :meth:`acquire` (else one is acquired here).
            wait: wait for a process when none is idle (else LimitError at once).
            give_up_at: monotonic time after which the last progress report stands in for the
                answer (``JobOutcome.late``); the job is told to stop then, and its process is
                replaced if it still has not answered :data:`_KILL_AFTER_S` later.
            on_progress: called on the loop with each progress report.

        Raises:
            LictorError: what the job raised (a bad parameter, an illegal state).
            JobCrashedError: the job hit a bug or its process died.
        """
        if worker is None:
            worker = await self.acquire(wait=wait)
        assert self._loop is not None
        self._numbers += 1
        number = self._numbers
        fut: asyncio.Future[Any] = self._loop.create_future()
        worker.job, worker.future, worker.on_progress, worker.last_progress = number, fut, on_progress, None
        worker.started = time.monotonic()
        try:
            worker.conn.send((number, job))
        except (OSError, ValueError) as exc:
            self._died(worker, f"could not send the job: {exc!r}")
            raise JobCrashedError(f"worker {worker.slot} of {self.name} is gone") from None
        try:
            if give_up_at is None:
                value = await asyncio.shield(fut)
                return JobOutcome(value=value, seconds=time.monotonic() - worker.started)
            try:
                value = await asyncio.wait_for(asyncio.shield(fut), max(0.0, give_up_at - time.monotonic()))
                return JobOutcome(value=value, seconds=time.monotonic() - worker.started)
            except TimeoutError:
                self._flags[worker.slot] = number
                late = worker.last_progress
                self._loop.call_later(_KILL_AFTER_S, self._kill_if_stuck, worker, number)
                if late is None:
                    raise LimitError(
                        "the search could not be scheduled before the deadline (the machine is overloaded)",
                        field="budget",
                    ) from None
                return JobOutcome(value=late, late=True, seconds=time.monotonic() - worker.started)
        except asyncio.CancelledError:
            self._flags[worker.slot] = number  # the caller went away: stop the job, keep the process
            raise

    def _kill_if_stuck(self, worker: _Worker, number: int) -> None:
        if worker.job == number and worker.future is not None and not worker.future.done():
            log.warning("%s worker %d did not stop its job; replacing it", self.name, worker.slot)
            worker.process.kill()
            self._died(worker, "killed: it did not stop its job after the deadline")

    # ------------------------------------------------------------------ messages from processes
    def _readable(self, worker: _Worker) -> None:
        try:
            while worker.conn.poll():
                self._handle(worker, worker.conn.recv())
        except (EOFError, OSError):
            self._died(worker, "its process exited")

    def _handle(self, worker: _Worker, msg: tuple[Any, ...]) -> None:
        kind = msg[0]
        if kind == "ready":
            if not worker.ready.done():
                worker.ready.set_result(int(msg[1]))
            return
        if kind == "retire":
            worker.retiring = True
            self._forget(worker)
            self.replaced += 1
            if not self._closed:
                self._respawn(worker.slot)
            return
        number = msg[1]
        if number != worker.job or worker.future is None:
            return  # a late message of a job given up on
        if kind == "progress":
            worker.last_progress = msg[2]
            if worker.on_progress is not None:
                worker.on_progress(msg[2])
            return
        fut, worker.future, worker.on_progress = worker.future, None, None
        self._flags[worker.slot] = 0
        self.jobs_run += 1
        if not fut.done():
            if kind == "done":
                fut.set_result(msg[2])
            elif kind == "error":
                fut.set_exception(_rebuild_error(msg[2]))
            else:
                log.error("%s job failed:\n%s", self.name, msg[2])
                fut.set_exception(JobCrashedError(f"internal error in a {self.name} job"))
        if not worker.retiring:
            self.release(worker)

    def _forget(self, worker: _Worker) -> None:
        if self._loop is not None:
            with contextlib.suppress(Exception):
                self._loop.remove_reader(worker.conn.fileno())
        with contextlib.suppress(OSError):
            worker.conn.close()
        if worker in self._idle:
            self._idle.remove(worker)

    def _died(self, worker: _Worker, why: str) -> None:
        if self._workers[worker.slot] is not worker:
            return
        self._forget(worker)
        worker.retiring = True
        if worker.future is not None and not worker.future.done():
            worker.future.set_exception(JobCrashedError(f"{self.name} worker {worker.slot}: {why}"))
        was_ready = worker.ready.done() and not worker.ready.exception()
        if not worker.ready.done():
            worker.ready.set_exception(JobCrashedError(f"{self.name} worker {worker.slot}: {why}"))
        if self._closed:
            return
        now = time.monotonic()
        self._deaths = [t for t in self._deaths if now - t < 60.0] + [now]
        if not was_ready or len(self._deaths) > RESPAWNS_PER_MINUTE:
            log.error(
                "%s worker %d: %s; not starting another (failing at start or too often)",
                self.name,
                worker.slot,
                why,
            )
            return
        log.warning("%s worker %d: %s; starting another", self.name, worker.slot, why)
        self.replaced += 1
        self._respawn(worker.slot)

    def _respawn(self, slot: int) -> None:
        worker = self._spawn(slot)
        task = asyncio.ensure_future(self._await_ready(worker))
        task.add_done_callback(lambda t: t.exception() if not t.cancelled() else None)
