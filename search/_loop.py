"""The budget loop shared by the tree searches: simulations, wall time, deadline, stop flag, progress."""

from __future__ import annotations

import time
from collections.abc import Callable

from search.types import SearchLimit, StopFlag

__all__ = ["run_loop"]


def run_loop(
    iterate: Callable[[], None],
    *,
    limit: SearchLimit,
    start: float,
    end: float,
    stop: StopFlag | None,
    is_proven: Callable[[], bool] | None,
    on_progress: Callable[[int], None] | None,
    interval_s: float,
) -> tuple[int, str]:
    """Run ``iterate`` until a bound is hit; returns (simulations run, why it stopped).

    The clock and the stop flag are read before every iteration, so the search ends within one
    iteration of a time bound (rollouts check the clock themselves).
    """
    budget = limit.simulations
    sims = 0
    next_report = start + interval_s
    monotonic = time.monotonic
    while True:
        if budget is not None and sims >= budget:
            return sims, "simulations"
        now = monotonic()
        if now >= end:
            return sims, "time"
        if stop is not None and stop.is_set():
            return sims, "stop"
        if is_proven is not None and is_proven():
            return sims, "proven"
        iterate()
        sims += 1
        if on_progress is not None and now >= next_report:
            on_progress(sims)
            next_report = monotonic() + interval_s
