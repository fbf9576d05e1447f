"""Free finished search trees off the caller's path.

Dropping the last reference to a large tree frees every node and position it holds, which takes
tens of milliseconds for a tree of a few seconds' search (more for longer ones). ``dispose`` hands
the tree to a background thread instead, so a search returns its result right at its deadline.
"""

from __future__ import annotations

import os
import queue
import threading
from typing import Any

__all__ = ["dispose"]

_lock = threading.Lock()
_janitor: dict[int, queue.SimpleQueue[Any]] = {}
"""This process's queue, by process id (a forked worker starts its own thread)."""


def _drain(q: queue.SimpleQueue[Any]) -> None:
    while True:
        item = q.get()
        del item  # the last reference: the tree is freed here, on this thread


def dispose(obj: Any) -> None:
    """Drop ``obj`` (a search engine with its tree) on a background thread of this process."""
    with _lock:
        q = _janitor.get(os.getpid())
        if q is None:
            q = _janitor[os.getpid()] = queue.SimpleQueue()
            threading.Thread(target=_drain, args=(q,), name="lictor-tree-janitor", daemon=True).start()
    q.put(obj)
