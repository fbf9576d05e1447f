"""Server limits: every cap the server enforces (docs/service.md, "Limits"), budgets and deadlines.

A client can stall no part of the server: every number a request sends is checked here (finite,
in range, under its cap), every string and list by :mod:`service.requests`, and the client's
deadline bounds every search and solve, which answer their best so far a little before it.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from games.errors import LimitError
from search import SearchLimit
from service.errors import RequestError

__all__ = [
    "Limits",
    "answer_by",
    "check_number",
    "deadline_margin",
    "give_up_at",
    "search_limit",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class Limits:
    """Caps the server enforces (each documented with its number in docs/service.md, "Limits").

    Attributes:
        max_simulations: most simulations one search may ask for.
        max_search_s: most wall seconds one search or solve may ask for.
        default_search_s: budget of a search that gives none.
        max_concurrent_searches: searches and solves running at once (worker processes for calls);
            more get RESOURCE_EXHAUSTED.
        ai_workers: worker processes that play the AI seats of hosted matches.
        max_solve_workers: most CP-SAT workers one solve may use.
        max_message_bytes: largest request or response.
        max_top_k: most hints one Hint call returns.
        max_record_actions: most actions a record may hold.
        max_streams: open streams (WatchMatch, Analyze) in all.
        max_streams_per_client: open streams per client address.
        max_active_matches: active hosted matches in all.
        max_active_matches_per_client: active hosted matches created per client address.
        max_matches: matches the database keeps (active and finished).
        cache_bytes: bytes the caches of positions, start states and scores may hold in all.
        worker_growth: a worker process is replaced once its memory grows past this factor of its
            warm size (searches and solves leave caches behind).
        db_connections: on a PostgreSQL match database, the connections of this server's pool (and
            the threads that use them).
        ai_lease_s: on a PostgreSQL match database, how long an AI turn this server claimed is its
            own before another replica may take it (renewed every third of it while it plays).
    """

    max_simulations: int = 1_000_000
    max_search_s: float = 60.0
    default_search_s: float = 1.0
    max_concurrent_searches: int = 4
    ai_workers: int = 3
    max_solve_workers: int = 2
    max_message_bytes: int = 4 * 1024 * 1024
    max_top_k: int = 20
    max_record_actions: int = 20_000
    max_streams: int = 256
    max_streams_per_client: int = 16
    max_active_matches: int = 10_000
    max_active_matches_per_client: int = 200
    max_matches: int = 1_000_000
    cache_bytes: int = 24 * 1024 * 1024
    worker_growth: float = 1.25
    db_connections: int = 8
    ai_lease_s: float = 10.0


def check_number(value: float, *, field: str, low: float = 0.0, high: float | None = None) -> float:
    """``value`` when it is a finite number in ``[low, high]``; RequestError naming ``field`` else."""
    if not math.isfinite(value):
        raise RequestError(f"{field} must be a finite number, not {value!r}", field=field)
    if value < low:
        raise RequestError(f"{field} must be >= {low:g}, not {value!r}", field=field)
    if high is not None and value > high:
        raise LimitError(f"{field} {value!r} is over the server cap of {high:g}", field=field)
    return value


def deadline_margin(remaining: float) -> float:
    """Seconds kept back from a client's deadline to finish, send and receive the answer.

    A quarter of the time left for short deadlines, 10% for longer ones, at least 20 ms and at most
    0.5 s: a 200 ms deadline searches ~150 ms, a 10 s one ~9.5 s.
    """
    return min(0.5, max(0.02, 0.25 * remaining if remaining < 2.0 else 0.1 * remaining))


def answer_by(time_remaining: float | None, limits: Limits) -> float:
    """The monotonic time by which a search or solve must have answered: the client's deadline less
    :func:`deadline_margin`, and never later than ``max_search_s`` from now."""
    now = time.monotonic()
    cap = now + limits.max_search_s + 0.5
    if time_remaining is None or time_remaining > 1e8:
        return cap
    return min(cap, now + max(0.0, time_remaining - deadline_margin(time_remaining)))


def give_up_at(time_remaining: float | None, by: float, *, grace: float = 1.0) -> float:
    """When the caller stops waiting for a worker and answers with what it has (a search's last
    progress report, or "out of time"): a little before the client's deadline — an eighth of the
    :func:`deadline_margin`, at least 10 ms and at most 100 ms — so that the answer still reaches a
    client on a loaded machine (10 ms flat lost 1 Analyze at a 1.5 s deadline in 21,617 fuzzed
    calls), while a worker that answers at ``by`` (the margin before the deadline) is still waited
    for (a quarter of the margin lost 4 of 10 answers at a 200 ms deadline on a loaded machine);
    without a deadline, ``grace`` seconds after ``by``."""
    if time_remaining is None or time_remaining > 1e8:
        return by + grace
    keep = max(0.01, min(0.1, deadline_margin(time_remaining) / 8))
    return time.monotonic() + max(0.0, time_remaining - keep)


def search_limit(
    limits: Limits,
    *,
    simulations: int,
    time_s: float,
    by: float,
    field: str = "budget",
    use_default: bool = True,
) -> SearchLimit | None:
    """The ``SearchLimit`` of a request's budget, checked, capped, ending by ``by`` (monotonic).

    Returns None when the request sets no budget and ``use_default`` is False (the caller then uses
    its own budget, e.g. an AI level's, still bounded by ``by``).
    """
    if simulations < 0:
        raise RequestError(
            f"{field}.simulations must be >= 0, not {simulations!r}", field=f"{field}.simulations"
        )
    check_number(time_s, field=f"{field}.time_s")
    if simulations > limits.max_simulations:
        raise LimitError(
            f"{field}.simulations {simulations!r} is over the server cap of {limits.max_simulations}",
            field=f"{field}.simulations",
        )
    if time_s > limits.max_search_s:
        raise LimitError(
            f"{field}.time_s {time_s!r} is over the server cap of {limits.max_search_s:g} seconds",
            field=f"{field}.time_s",
        )
    if not simulations and not time_s:
        if not use_default:
            return None
        time_s = limits.default_search_s
    return SearchLimit(simulations=simulations or None, time_s=time_s or None, deadline=by)
