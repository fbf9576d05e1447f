"""Jobs run in this process, in a process pool or on Ray, with the same results in each (a job is a
pure function of its arguments): the tournaments' games and the self-play games both go through
:func:`run_jobs`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from games.errors import ConfigError

__all__ = ["run_jobs"]


def run_jobs(
    fn: Callable[[Any], Any],
    todo: Sequence[Any],
    *,
    jobs: int = 1,
    ray_address: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[Any]:
    """``[fn(job) for job in todo]`` in this process, in ``jobs`` processes (forkserver) or on Ray
    (``"local"`` starts a local Ray), results in ``todo``'s order."""
    if ray_address is not None:
        return _on_ray(fn, todo, ray_address, progress)
    results = []
    if jobs > 1:
        import multiprocessing as mp

        with mp.get_context("forkserver").Pool(jobs) as pool:
            for k, r in enumerate(pool.imap(fn, todo)):
                results.append(r)
                if progress:
                    progress(k + 1, len(todo))
        return results
    for k, job in enumerate(todo):
        results.append(fn(job))
        if progress:
            progress(k + 1, len(todo))
    return results


def _on_ray(
    fn: Callable[[Any], Any], todo: Sequence[Any], address: str, progress: Callable[[int, int], None] | None
) -> list[Any]:
    try:
        import ray
    except ImportError:
        raise ConfigError(
            "Ray is not installed: pip install 'lictor[ray]' (or drop --ray to play in local processes)",
            field="ray",
        ) from None
    if not ray.is_initialized():
        if address == "local":
            ray.init(include_dashboard=False, log_to_driver=False, configure_logging=False)
        else:
            ray.init(address=address, log_to_driver=False, configure_logging=False)
    task = ray.remote(fn)
    refs = [task.remote(job) for job in todo]
    pending, done = list(refs), 0
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        done += len(ready)
        if progress:
            progress(done, len(todo))
    return list(ray.get(refs))
