"""A heavy job as the pool and its processes exchange it: what it runs, what it answers, and its
times (when a caller waits, when a job that will not stop is killed).
"""

from __future__ import annotations

import contextlib
import importlib
import time
from dataclasses import dataclass, field
from typing import Any

from games.core.registry import GameEntry
from games.errors import LictorError, LimitError

__all__ = [
    "STOP_GRACE_S",
    "Job",
    "JobCrashedError",
    "JobLateError",
    "JobOutcome",
    "error_payload",
    "kill_time",
    "rebuild_error",
    "wait_until",
]

STOP_GRACE_S = 0.25
"""A job told to stop (its deadline passed, its caller went away, the server is stopping) that has
not answered this many seconds later is killed and its process replaced (never before its caller's
``give_up_at``)."""


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


def error_payload(exc: LictorError) -> tuple[str, str, str, str, str]:
    """A job's LictorError as the process sends it (its class by name, its message, field, rule)."""
    return (type(exc).__module__, type(exc).__qualname__, exc.message, exc.field, exc.rule)


def rebuild_error(payload: tuple[str, str, str, str, str]) -> LictorError:
    """The LictorError a process sent (:func:`error_payload`), as the pool raises it to its caller."""
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
