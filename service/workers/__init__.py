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

Its parts: :mod:`service.workers.job` (a job, its answer, its times), :mod:`service.workers.process`
(the worker process's loop), :mod:`service.workers.admission` (who takes a process),
:mod:`service.workers.restarts` (processes started and replaced), :mod:`service.workers.pool` (the
:class:`WorkerPool`: jobs run, answered for, stopped and killed).
"""

from service.workers.job import (
    STOP_GRACE_S,
    Job,
    JobCrashedError,
    JobLateError,
    JobOutcome,
    kill_time,
    wait_until,
)
from service.workers.pool import CLOSE_WAIT_S, WorkerPool
from service.workers.process import forkserver_context, ignore_stop_signals, rss_bytes
from service.workers.restarts import RESPAWNS_PER_MINUTE, START_TIMEOUT_S

__all__ = [
    "CLOSE_WAIT_S",
    "RESPAWNS_PER_MINUTE",
    "START_TIMEOUT_S",
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
