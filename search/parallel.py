"""Root parallelism: independent searches of the same position in worker processes, merged.

This process searches as worker 0 while workers 1.. run in started processes. Worker ``i``
searches with the seed ``derive_seed(seed, "worker", i)`` and, under a simulation
limit, ``simulations // workers`` simulations (the first ``simulations % workers`` workers one
more), so the merged result depends only on the seed, the worker count and the limit. Time bounds
apply to every worker (the deadline is on the shared monotonic clock). Workers send their root
statistics back through pipes (also periodically, for progress); the parent merges them: visits
and per-seat value sums add up, proofs hold, the principal variation of a move comes from the
worker that visited it most. Under a time bound the parent waits for a worker's result until
``_LATE_S`` past the bound at the most: a worker that a loaded machine has not scheduled by then is
stopped, and its last progress report (if any) is merged in its place, so one slow process cannot
hold the answer back. Without a time bound the parent waits for every worker (determinism).

Processes are started with ``mp_context`` ("fork" by default where available: nothing is pickled
on the way in; use "forkserver" or "spawn" in a multi-threaded server if the game is picklable).
"""

from __future__ import annotations

import gc
import multiprocessing as mp
import time
from dataclasses import dataclass
from functools import partial
from multiprocessing.connection import Connection, wait
from typing import Any

from games.core import Game, derive_seed, make_rng
from search._dispose import dispose
from search._gc import full_collections_deferred
from search._stats import RootStats, merge_stats, to_analysis
from search.tree import TreeSearch
from search.types import Analysis, ProgressCallback, SearchLimit, SearchOptions, StopFlag

__all__ = ["parallel_search", "worker_limits"]


_MERGE_MARGIN_S = 0.02
"""Workers stop this much before a time bound, leaving time to send, merge and rank the results."""

_LATE_S = 0.02
"""How long past a time bound the parent still waits for a worker's result before it answers
without it (a worker stops ``_MERGE_MARGIN_S`` before the bound, so it has ``_MERGE_MARGIN_S +
_LATE_S`` to deliver)."""


def worker_limits(limit: SearchLimit, workers: int, *, start: float = 0.0) -> list[SearchLimit]:
    """Split a simulation limit over the workers; time bounds become one shared absolute deadline
    (``_MERGE_MARGIN_S`` early)."""
    end = limit.end_time(start)
    deadline = None if end == float("inf") else max(start, end - _MERGE_MARGIN_S)
    if limit.simulations is None:
        return [SearchLimit(deadline=deadline)] * workers
    share, extra = divmod(limit.simulations, workers)
    out = []
    for i in range(workers):
        sims = share + (1 if i < extra else 0)
        if sims > 0:
            out.append(SearchLimit(simulations=sims, deadline=deadline))
    return out


def _prepared(
    game: Game[Any, Any],
    algorithm: str,
    options: SearchOptions,
    state: Any,
    *,
    limit: SearchLimit,
    stop: Any,
    seed: int,
) -> TreeSearch:
    """A worker's engine, prepared for ``state`` (ISMCTS also takes the seed for its texts)."""
    from search.ismcts import ISMCTS
    from search.mcts import MCTS

    engine: TreeSearch = (
        ISMCTS(game, options=options) if algorithm == "ismcts" else MCTS(game, options=options)
    )
    engine.prepare(state, limit=limit, stop=stop, seed=seed)
    return engine


@dataclass(frozen=True, slots=True)
class _Job:
    """One worker's search.

    Attributes:
        game: the game.
        state: the position.
        algorithm: "mcts" or "ismcts".
        options: search options.
        limit: this worker's budget.
        seed: this worker's seed.
        start: the search's start on the monotonic clock.
        stop: the shared stop event.
        want_progress: whether to send progress reports.
    """

    game: Game[Any, Any]
    state: Any
    algorithm: str
    options: SearchOptions
    limit: SearchLimit
    seed: int
    start: float
    stop: Any
    want_progress: bool


def _worker(conn: Connection, job: _Job) -> None:
    # Everything inherited from the parent goes to the collector's permanent generation: a full
    # collection in this process then never walks (and copies, page by page) the parent's heap,
    # which in a long-lived parent can take longer than the whole margin before the deadline.
    gc.freeze()
    game, state, algorithm, options = job.game, job.state, job.algorithm, job.options
    limit, seed, start, stop, want_progress = job.limit, job.seed, job.start, job.stop, job.want_progress
    try:
        engine = _prepared(game, algorithm, options, state, limit=limit, stop=stop, seed=seed)

        def report(sims: int) -> None:
            conn.send(("progress", engine.root_stats(sims)))

        with full_collections_deferred(options.defer_full_gc):  # (inherited when forked mid-search)
            sims, why = engine.run(
                make_rng(seed),
                limit=limit,
                start=start,
                stop=stop,
                on_progress=report if want_progress else None,
            )
        conn.send(("done", engine.root_stats(sims), why))
    except BaseException as exc:
        try:
            conn.send(("error", exc))
        except Exception:
            conn.send(("error", RuntimeError(f"search worker failed: {exc!r}")))
    finally:
        conn.close()


def _reason(reasons: list[str]) -> str:
    for why in ("stop", "time", "proven"):
        if why in reasons:
            return why
    return reasons[0] if reasons else "simulations"


class _Relay:
    """The parent's stop flag: the caller's flag, passed on to the workers when it is set."""

    __slots__ = ("shared", "stop")

    def __init__(self, stop: StopFlag | None, shared: Any) -> None:
        self.stop = stop
        self.shared = shared

    def is_set(self) -> bool:
        if self.stop is not None and self.stop.is_set():
            self.shared.set()
            return True
        return False


class _Workers:
    """Workers 1.. of a parallel search: their processes, their pipes and what they sent.

    Attributes:
        latest: each worker's last root statistics (a progress report or its result).
        done: the workers that sent their result.
        reasons: why each finished search stopped, in the order they were heard of.
        errors: what failed (a worker's exception, or a worker that died without a result).
        late: the workers given up on at the time bound.
    """

    def __init__(self, ctx: Any, shared_stop: Any) -> None:
        self._ctx = ctx
        self._shared_stop = shared_stop
        self._procs: list[Any] = []
        self._conns: list[Connection] = []
        self._open: dict[int, Connection] = {}
        self.latest: dict[int, RootStats] = {}
        self.done: dict[int, RootStats] = {}
        self.reasons: list[str] = []
        self.errors: list[BaseException] = []
        self.late: set[int] = set()

    def start(self, job: _Job) -> None:
        """Start the next worker on ``job``."""
        parent_end, child_end = self._ctx.Pipe(duplex=False)
        proc = self._ctx.Process(target=_worker, args=(child_end, job), daemon=True)
        proc.start()
        child_end.close()
        self._procs.append(proc)
        self._conns.append(parent_end)
        self._open[len(self._conns)] = parent_end

    def drain(self, timeout: float | None) -> None:
        """Read what the workers sent (waiting up to ``timeout`` seconds for something)."""
        for conn in wait(list(self._open.values()), timeout=timeout):
            assert isinstance(conn, Connection)
            i = self._conns.index(conn) + 1
            try:
                msg = conn.recv()
            except EOFError:
                self._open.pop(i, None)
                if i not in self.done and not self.errors:
                    self.errors.append(RuntimeError(f"search worker {i} died without a result"))
                continue
            if msg[0] == "progress":
                self.latest[i] = msg[1]
            elif msg[0] == "done":
                self.done[i] = self.latest[i] = msg[1]
                self.reasons.append(msg[2])
                self._open.pop(i, None)
            else:
                self.errors.append(msg[1])
                self._open.pop(i, None)
                self._shared_stop.set()

    def wait(self, give_up: float, relay: _Relay) -> None:
        """Collect the results until every worker has sent its own or ``give_up`` (monotonic) has
        passed (then the rest are late: their last progress reports stand in for them)."""
        while self._open:
            relay.is_set()  # pass a late stop on
            left = give_up - time.monotonic()
            if left <= 0:
                self._shared_stop.set()
                self.late.update(self._open)
                self.reasons.append("time")
                break
            self.drain(min(0.02, left))

    def close(self) -> None:
        """Stop the workers: a finished one exits by itself (freeing its tree, no waiting), a late
        one is killed (its result would come too late to use), the others are joined."""
        self._shared_stop.set()
        for i, proc in enumerate(self._procs, start=1):
            if i in self.done:
                continue
            if i in self.late:
                proc.kill()
                continue
            proc.join(timeout=5)
            if proc.is_alive():
                proc.kill()
        for conn in self._conns:
            conn.close()


def parallel_search(
    game: Game[Any, Any],
    state: Any,
    *,
    algorithm: str,
    limit: SearchLimit,
    seed: int,
    options: SearchOptions,
    workers: int,
    stop: StopFlag | None = None,
    progress: ProgressCallback | None = None,
    mp_context: str | None = None,
) -> Analysis:
    """Search ``state`` in ``workers`` processes and merge their root statistics.

    This process is worker 0 (no process sits idle waiting); workers 1.. are started processes.
    The caller defers full garbage collections here (``search.analyze`` does, as
    ``SearchOptions.defer_full_gc`` says); the workers defer their own.
    """
    start = time.monotonic()
    method = mp_context or ("fork" if "fork" in mp.get_all_start_methods() else "spawn")
    ctx: Any = mp.get_context(method)
    shared_stop = ctx.Event()
    limits = worker_limits(limit, workers, start=start)
    relay = _Relay(stop, shared_stop)
    # worker 0 (this process) prepares first: bad requests fail here, before any process starts
    engine = _prepared(
        game, algorithm, options, state, limit=limits[0], stop=relay, seed=derive_seed(seed, "worker", 0)
    )
    pool = _Workers(ctx, shared_stop)
    for i, lim in enumerate(limits[1:], start=1):
        worker_seed = derive_seed(seed, "worker", i)
        pool.start(
            _Job(game, state, algorithm, options, lim, worker_seed, start, shared_stop, progress is not None)
        )
    merged = partial(_merged, pool, seed=seed, start=start, workers=len(limits), algorithm=algorithm)

    def report(sims: int) -> None:
        assert progress is not None
        pool.drain(0)
        progress(merged(engine.root_stats(sims), final=False, stopped_by="running"))

    try:
        sims, why = engine.run(
            make_rng(derive_seed(seed, "worker", 0)),
            limit=limits[0],
            start=start,
            stop=relay,
            on_progress=report if progress is not None else None,
        )
        pool.reasons.append(why)
        mine = engine.root_stats(sims)
        pool.wait(limit.end_time(start) + _LATE_S, relay)  # (inf without a time bound: wait for all)
    finally:
        dispose(engine)  # worker 0's tree is freed off this path
        pool.close()
    if pool.errors:
        raise pool.errors[0]
    # a finished worker's final stats, a late one's last progress report (if it sent any)
    return merged(mine, final=True, stopped_by=_reason(pool.reasons))


def _merged(
    pool: _Workers,
    mine: RootStats,
    *,
    seed: int,
    start: float,
    workers: int,
    algorithm: str,
    final: bool,
    stopped_by: str,
) -> Analysis:
    """The analysis of worker 0's statistics ``mine`` merged with the latest of the others."""
    parts = [mine, *(pool.latest[i] for i in sorted(pool.latest))]
    return to_analysis(
        merge_stats(parts),
        seed=seed,
        elapsed_s=time.monotonic() - start,
        final=final,
        workers=workers,
        algorithm=algorithm,
        stopped_by=stopped_by,
    )
