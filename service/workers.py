"""Worker processes for the CPU-heavy calls (searches, solves, AI seats): the GIL never holds a call.

The server's event loop runs the light calls itself; a :class:`WorkerPool` runs each heavy job in
a process of its own. Processes start from a ``forkserver`` (a fresh interpreter that preloads
:mod:`service.jobs`, started before the server takes calls, so no process is ever forked from a
process running gRPC's threads: grpc/grpc #13873, #14436, #22624), warm up (every registered game
and its content pack, the solver modules) and say they are ready before the pool takes jobs. They
run at a lower scheduling priority (``nice``), so the loop answering light calls wins the CPU.

A job carries its deadline on the shared monotonic clock; the pool can stop it early through a
flag in shared memory (a cancelled call, the server shutting down), which the search polls
between simulations and a solver between nodes. Jobs send progress reports. The caller names the
moment it must answer (``give_up_at``): a job that has not answered by then is answered for — its
last progress report, or :class:`JobLateError` saying why — and a job still running
:data:`STOP_GRACE_S` after it was told to stop (its deadline, a cancelled call, shutdown), and no
earlier than that moment, is killed and its process replaced at once. So no call waits past its
deadline and no process stays taken by a job nobody waits for.

A process that grows past ``growth`` times its warm memory (caches a search or solve left behind)
says so with its answer and is replaced at once, so memory returns to its warm level. A process
that dies is replaced (one log line each; at most :data:`RESPAWNS_PER_MINUTE` a minute, later ones
wait their turn). Workers ignore SIGINT and SIGTERM (:func:`ignore_stop_signals`, also in their
forkserver): a signal sent to the whole process group (Ctrl-C, ``timeout``, a service manager) is
the server's to handle; it drains, then stops its workers (no process is replaced while draining).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import multiprocessing as mp
import os
import pickle
import select
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from games.core.registry import GameEntry
from games.errors import LictorError, LimitError
from service.errors import UnavailableError

__all__ = [
    "RESPAWNS_PER_MINUTE",
    "STOP_GRACE_S",
    "Job",
    "JobCrashedError",
    "JobLateError",
    "JobOutcome",
    "WorkerPool",
    "forkserver_context",
    "ignore_stop_signals",
    "kill_time",
    "rss_bytes",
    "wait_until",
]

log = logging.getLogger("lictor.workers")

_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
RESPAWNS_PER_MINUTE = 30
"""Processes replaced per minute after dying or being killed; beyond that a replacement waits until
the minute's count allows it (a crash loop cannot fork without end)."""
STOP_GRACE_S = 0.25
"""A job told to stop (its deadline passed, its caller went away, the server is stopping) that has
not answered this many seconds later is killed and its process replaced (never before its caller's
``give_up_at``)."""
START_TIMEOUT_S = 60.0
"""A process that has not warmed up this long after it was started is killed (and replaced)."""
CLOSE_WAIT_S = 1.0
"""On close, how long processes get to exit by themselves before they are killed."""
_SHUTTING_DOWN = "the server is shutting down; retry after its restart"
_WHAT = {"analyze": "search", "hint": "search", "choose": "AI move", "solve": "solve"}
"""A job kind as a client reads it in a message."""


def rss_bytes(pid: int | None = None) -> int:
    """Resident memory of a process in bytes (Linux ``/proc``; 0 where unknown)."""
    try:
        with open(f"/proc/{pid or 'self'}/statm") as f:
            return int(f.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return 0


def _cpu_seconds(pid: int | None) -> float:
    """CPU seconds (user + system) a process has used (Linux ``/proc``; 0 where unknown)."""
    try:
        with open(f"/proc/{pid or 'self'}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / _TICK
    except (OSError, ValueError, IndexError):
        return 0.0


def ignore_stop_signals() -> None:
    """Ignore SIGINT and SIGTERM in this process (a worker, or the forkserver its workers inherit
    the setting from): the server that owns the workers handles them, drains, and stops them."""
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(ValueError, OSError):  # (not the main thread: nothing to do)
            signal.signal(sig, signal.SIG_IGN)


def _exit_with_server(conn: Connection) -> None:
    """End this process as soon as the server's end of ``conn`` closes (the server died, or dropped
    this process), even while a job that never polls its stop flag runs: a thread waits for the
    hang-up (Linux ``POLLRDHUP``; elsewhere an idle process still sees the pipe close)."""
    rdhup = getattr(select, "POLLRDHUP", 0)
    if not rdhup:
        return

    def watch() -> None:
        hangup = select.poll()
        hangup.register(conn.fileno(), rdhup)
        while True:
            if any(ev & (rdhup | select.POLLHUP | select.POLLERR) for _, ev in hangup.poll()):
                os._exit(0)

    threading.Thread(target=watch, name="lictor-server-watch", daemon=True).start()


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
    """A job raised something other than a LictorError (a bug)."""


class JobLateError(LimitError):
    """A job did not answer by the time its caller had to answer, and had no progress report to
    stand in (RESOURCE_EXHAUSTED; the message says whether it overran or never got the CPU)."""


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


def _run_one(job: Job, number: int, stop: _Stop, conn: Connection) -> tuple[str, Any]:
    """Run a job; its final message's kind and payload."""
    from service import jobs

    def progress(payload: Any) -> None:
        conn.send(("progress", number, payload))

    try:
        return "done", jobs.run(job, stop=stop, progress=progress if job.progress else None)
    except LictorError as exc:
        return "error", _error_payload(exc)
    except BaseException:
        return "crash", traceback.format_exc(limit=20)


def _worker_main(  # noqa: PLR0917  (a process target takes its arguments positionally)
    conn: Connection, flags: Any, slot: int, niceness: int, growth: float, entries: tuple[GameEntry, ...]
) -> None:
    """A worker process: warm up, then run jobs until told to stop (or grown too large).

    A job's final message says whether the process retires after it (grown past ``growth`` times
    its warm memory), so the pool never hands a retiring process another job. A server that is
    gone (a closed pipe) ends the process quietly.
    """
    from service import jobs

    ignore_stop_signals()
    _exit_with_server(conn)
    with contextlib.suppress(OSError):
        os.nice(niceness)
    jobs.warm_up(entries)
    gc.collect()
    gc.freeze()
    warm = rss_bytes()
    try:
        conn.send(("ready", warm))
        while (msg := conn.recv()) is not None:
            number, job = msg
            kind, payload = _run_one(job, number, _Stop(flags, slot, number, job.deadline), conn)
            rss = rss_bytes() if warm else 0
            grown = rss if rss > warm * growth else 0
            try:
                conn.send((kind, number, payload, grown))
            except (pickle.PicklingError, TypeError, AttributeError):  # an answer that does not pickle
                conn.send(("crash", number, traceback.format_exc(limit=20), grown))
            if grown:
                return
    except (OSError, EOFError):
        return  # the server is gone


@dataclass(slots=True, eq=False)
class _Worker:
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


def _retrieve(fut: asyncio.Future[Any]) -> None:
    """A job's answer may come when nobody waits for it any more: never "exception never retrieved"."""
    if not fut.cancelled():
        fut.exception()


def wait_until(deadline: float | None) -> float | None:
    """Until when a call without a process waits for a replacement that is warming up: half the
    time its job has (None: no deadline, no wait)."""
    if deadline is None:
        return None
    now = time.monotonic()
    return now + max(0.0, deadline - now) / 2


def kill_time(deadline: float | None, give_up_at: float | None) -> float | None:
    """When a job that has not answered is killed: :data:`STOP_GRACE_S` after its deadline, but not
    before its caller gives up (None: no deadline and a caller that waits: never)."""
    if deadline is None:
        return give_up_at
    kill = deadline + STOP_GRACE_S
    return kill if give_up_at is None else max(kill, give_up_at)


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
        self._started = False
        self._draining = False
        self._closed = False
        self._restarts: dict[int, asyncio.TimerHandle] = {}  # slot -> its delayed replacement
        self._tasks: set[asyncio.Task[None]] = set()
        self._deaths: list[float] = []
        self.on_idle: list[Callable[[], None]] = []
        """Called (soon, on the loop) whenever a process becomes idle: a job ended, a replacement
        warmed up. A scheduler that takes processes with :meth:`try_acquire` listens here."""
        self.jobs_run = 0
        self.replaced = 0
        self.killed = 0

    # ------------------------------------------------------------------ life cycle
    async def start(self) -> None:
        """Start every process and wait until each is warm (JobCrashedError if one dies first)."""
        self._loop = asyncio.get_running_loop()
        started = [self._spawn(slot) for slot in range(self.size)]
        for w in started:
            w.warm_rss = await w.ready
            self.release(w)
        self._started = True

    def _spawn(self, slot: int) -> _Worker:
        """Start a process in ``slot`` (raises what the forkserver raises when it cannot)."""
        assert self._loop is not None
        parent, child = self._ctx.Pipe(duplex=True)
        proc = self._ctx.Process(  # type: ignore[attr-defined]
            target=_worker_main,
            args=(child, self._flags, slot, self._niceness, self._growth, self._entries),
            name=f"lictor-{self.name}-{slot}",
            daemon=True,
        )
        try:
            with _parent_main_hidden():
                proc.start()
        finally:
            child.close()
        worker = _Worker(slot=slot, process=proc, conn=parent, ready=self._loop.create_future())
        worker.ready.add_done_callback(_retrieve)
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

    async def _await_ready(self, worker: _Worker, timer: asyncio.TimerHandle) -> None:
        try:
            worker.warm_rss = await worker.ready
        except JobCrashedError:
            return  # _lost has dealt with it
        finally:
            timer.cancel()
        self.release(worker)

    def _kill_if_not_ready(self, worker: _Worker) -> None:
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
            self._lost(w, "the server is shutting down", UnavailableError(_SHUTTING_DOWN))
        for _, _, fut in self._waiters:
            if not fut.done():
                fut.set_exception(UnavailableError(_SHUTTING_DOWN))
        self._waiters.clear()

    def stop_all(self) -> None:
        """Ask every running job to stop now (it answers its best so far; killed if it does not)."""
        for w in self._workers:
            if w is not None and w.future is not None:
                self._stop_job(w, w.job)

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

    # ------------------------------------------------------------------ jobs
    def try_acquire(self) -> _Worker | None:
        """An idle process now, or None (for a scheduler that must know at once whether it has one)."""
        if self._closed or not self._idle:
            return None
        return self._idle.pop()

    async def acquire(
        self, *, wait: bool, priority: float | None = None, until: float | None = None
    ) -> _Worker:
        """An idle process. Without ``wait``, LimitError at once when none is idle — unless a
        replacement process is warming up and ``until`` (monotonic) is given: then the call waits for
        it until then (a replaced process costs no refusal). Waiters are served by ``priority``
        (lowest first; default: first come, first served)."""
        if self._closed:
            raise UnavailableError(_SHUTTING_DOWN)
        if self._idle:
            return self._idle.pop()
        if not wait and (until is None or len(self._waiters) >= self.starting):
            raise self._full()
        assert self._loop is not None
        fut: asyncio.Future[_Worker] = self._loop.create_future()
        fut.add_done_callback(_retrieve)
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

    def _refuse(self, fut: asyncio.Future[_Worker]) -> None:
        if not fut.done():
            fut.set_exception(self._full())

    def _full(self) -> LimitError:
        return LimitError(
            f"the server is running its maximum of {self.size} concurrent searches and solves; retry later",
            field="budget",
        )

    def release(self, worker: _Worker) -> None:
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
        fut.add_done_callback(_retrieve)
        worker.job, worker.kind, worker.future = number, _WHAT.get(job.kind, job.kind), fut
        worker.on_progress, worker.last_progress = on_progress, None
        worker.started, worker.cpu_at_start = time.monotonic(), _cpu_seconds(worker.process.pid)
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

    def _late(self, worker: _Worker, number: int) -> JobOutcome:
        """The caller must answer now and the job has not: its last progress report, or why not."""
        self._stop_job(worker, number)
        wall = time.monotonic() - worker.started
        if worker.last_progress is not None:
            return JobOutcome(value=worker.last_progress, late=True, seconds=wall)
        raise JobLateError(self._why_late(worker, wall), field="budget")

    def _why_late(self, worker: _Worker, wall: float) -> str:
        cpu = _cpu_seconds(worker.process.pid) - worker.cpu_at_start
        if cpu >= 0.5 * wall:
            return (
                f"the {worker.kind} ran {wall:.1f} s and did not stop by its deadline; it is stopped "
                "(its worker process is replaced if it does not stop)"
            )
        return f"the {worker.kind} could not run before the deadline: the server is overloaded; retry later"

    def _arm(self, worker: _Worker, kill_at: float | None) -> None:
        """Kill the worker's job at ``kill_at`` if it has not answered by then."""
        if worker.watchdog is not None:
            worker.watchdog.cancel()
            worker.watchdog = None
        worker.kill_at = kill_at
        if kill_at is not None and self._loop is not None:
            worker.watchdog = self._loop.call_at(kill_at, self._kill_if_running, worker, worker.job)

    def _stop_job(self, worker: _Worker, number: int) -> None:
        """Tell a job to stop now; kill it :data:`STOP_GRACE_S` later if it has not answered."""
        if worker.gone or worker.job != number or worker.future is None:
            return
        self._flags[worker.slot] = number
        now = time.monotonic()
        worker.told = now if worker.told is None else min(worker.told, now)
        kill_at = now + STOP_GRACE_S
        if worker.kill_at is None or kill_at < worker.kill_at:
            self._arm(worker, kill_at)

    def _kill_if_running(self, worker: _Worker, number: int) -> None:
        if worker.gone or worker.job != number or worker.future is None or worker.future.done():
            return
        over = time.monotonic() - (worker.told if worker.told is not None else worker.started)
        why = f"its {worker.kind} job went on {max(0.0, over):.2f} s after it was told to stop; killed"
        with contextlib.suppress(Exception):
            worker.process.kill()
        self.killed += 1
        if self._draining:
            late: LictorError = UnavailableError(_SHUTTING_DOWN)
        else:
            late = JobLateError(
                f"the {worker.kind} did not stop by its deadline; it was stopped and its process replaced",
                field="budget",
            )
        self._lost(worker, why, late)

    # ------------------------------------------------------------------ messages from processes
    def _readable(self, worker: _Worker) -> None:
        try:
            while not worker.gone and worker.conn.poll():
                self._handle(worker, worker.conn.recv())
        except (EOFError, OSError):
            self._lost(worker, "its process exited")

    def _handle(self, worker: _Worker, msg: tuple[Any, ...]) -> None:
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
            fut.set_exception(_rebuild_error(msg[2]))
        else:
            log.error("%s job failed:\n%s", self.name, msg[2])
            fut.set_exception(JobCrashedError(f"internal error in a {self.name} job"))
        if msg[3]:
            self._retire(worker, int(msg[3]))
        else:
            self.release(worker)

    def _retire(self, worker: _Worker, rss: int) -> None:
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

    def _drop(self, worker: _Worker) -> None:
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

    def _lost(self, worker: _Worker, why: str, exc: LictorError | None = None) -> None:
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
