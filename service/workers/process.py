"""The worker process side: a process warms up, then runs jobs one at a time until told to stop.

Processes start from a ``forkserver`` (:func:`forkserver_context`: a fresh interpreter that preloads
:mod:`service.jobs`), warm up (every registered game and its content pack, the solver modules) and
say they are ready. They run at a lower scheduling priority (``nice``) and ignore SIGINT and SIGTERM
(:func:`ignore_stop_signals`): the server that owns them handles those. A job polls its stop flag
(:class:`Stop`, in shared memory); a process that grew past ``growth`` times its warm memory says
so with its answer and exits; a process whose server is gone exits at once.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing as mp
import os
import pickle
import select
import signal
import sys
import threading
import time
import traceback
from collections.abc import Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from games.core.registry import GameEntry
from games.errors import LictorError
from service.workers.job import Job, error_payload

__all__ = [
    "Stop",
    "WorkerSettings",
    "cpu_seconds",
    "forkserver_context",
    "ignore_stop_signals",
    "parent_main_hidden",
    "rss_bytes",
    "worker_main",
]

_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def rss_bytes(pid: int | None = None) -> int:
    """Resident memory of a process in bytes (Linux ``/proc``; 0 where unknown)."""
    try:
        with open(f"/proc/{pid or 'self'}/statm") as f:
            return int(f.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return 0


def cpu_seconds(pid: int | None) -> float:
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
def parent_main_hidden() -> Iterator[None]:
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


@dataclass(frozen=True, slots=True)
class WorkerSettings:
    """How a worker process runs (picklable: it is the process's argument).

    Attributes:
        niceness: added to the process's ``nice`` value.
        growth: the process retires once its memory exceeds this factor of its warm size.
        entries: games registered at run time that the process must know at start.
    """

    niceness: int
    growth: float
    entries: tuple[GameEntry, ...]


class Stop:
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


def _run_one(job: Job, number: int, stop: Stop, conn: Connection) -> tuple[str, Any]:
    """Run a job; its final message's kind and payload."""
    from service import jobs

    def progress(payload: Any) -> None:
        conn.send(("progress", number, payload))

    try:
        return "done", jobs.run(job, stop=stop, progress=progress if job.progress else None)
    except LictorError as exc:
        return "error", error_payload(exc)
    except BaseException:
        return "crash", traceback.format_exc(limit=20)


def worker_main(conn: Connection, flags: Any, slot: int, settings: WorkerSettings) -> None:
    """A worker process: warm up, then run jobs until told to stop (or grown too large).

    A job's final message says whether the process retires after it (grown past ``growth`` times
    its warm memory), so the pool never hands a retiring process another job. A server that is
    gone (a closed pipe) ends the process quietly.

    Args:
        conn: the process's end of the pipe to the pool.
        flags: the pool's stop flags (shared memory): a job is told to stop when its slot's flag
            holds its number.
        slot: the process's place in the pool (its stop flag's index).
        settings: how it runs.
    """
    from service import jobs

    ignore_stop_signals()
    _exit_with_server(conn)
    with contextlib.suppress(OSError):
        os.nice(settings.niceness)
    jobs.warm_up(settings.entries)
    gc.collect()
    gc.freeze()
    warm = rss_bytes()
    try:
        conn.send(("ready", warm))
        while (msg := conn.recv()) is not None:
            number, job = msg
            kind, payload = _run_one(job, number, Stop(flags, slot, number, job.deadline), conn)
            rss = rss_bytes() if warm else 0
            grown = rss if rss > warm * settings.growth else 0
            try:
                conn.send((kind, number, payload, grown))
            except (pickle.PicklingError, TypeError, AttributeError):  # an answer that does not pickle
                conn.send(("crash", number, traceback.format_exc(limit=20), grown))
            if grown:
                return
    except (OSError, EOFError):
        return  # the server is gone
