"""Keep CPython's full garbage collections out of a running search.

A search allocates tens of thousands of tree nodes and positions a second (about 7 objects the
cyclic collector tracks per simulation on Tiberpunk). Every so often the collector runs a full
collection, which walks every tracked object of the process: the process's loaded modules (about
40 ms in the bench process, with OpenSpiel, numpy and rich loaded) and the growing tree (26–146 ms
in a 4 s search, 249 ms in an 8 s one, measured 2026-11-24). When one lands at a deadline, the
search answers that much late.

:func:`full_collections_deferred` raises the collector's oldest-generation threshold out of reach
while searches run and puts it back when the last one ends. Young collections go on as usual (they
walk only what was allocated since the last one); the full collection that was due runs after the
search, off its clock. Nothing is leaked: the tree is acyclic and freed by reference counting, and
garbage cycles wait for the first full collection after the search.

Searches running at the same time in threads share the deferral: the last one to finish restores
the threshold. A process that always has some search running (a busy server's overlapping
searches) would defer its full collections for ever, so a deferral lapses once it has lasted
``MAX_DEFERRAL_S``: a search starting after that restores the threshold, and the next deferral
begins when no search is running. ``SearchOptions.defer_full_gc=False`` opts out. Nothing is done
while the collector is disabled.
"""

from __future__ import annotations

import gc
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["MAX_DEFERRAL_S", "full_collections_deferred"]

_NEVER = 1 << 30
"""An oldest-generation threshold no search reaches (counts of middle-generation collections)."""


MAX_DEFERRAL_S = 30.0
"""The longest a deferral lasts while searches keep overlapping (see the module docstring)."""


class _Deferral:
    """This process's deferral: the searches inside it, the threshold to restore, since when."""

    lock = threading.Lock()
    active = 0
    saved = 0
    since = 0.0
    lapsed = False


def _after_fork_in_child() -> None:
    # a fork while another thread held the lock would leave it locked for ever in the child
    _Deferral.lock = threading.Lock()


os.register_at_fork(after_in_child=_after_fork_in_child)


@contextmanager
def full_collections_deferred(enabled: bool = True) -> Iterator[None]:
    """Run the body with the collector's full collections deferred (see the module docstring)."""
    d = _Deferral
    joined = False
    if enabled:
        with d.lock:
            if d.active:
                d.active += 1
                joined = True
                if not d.lapsed and time.monotonic() - d.since > MAX_DEFERRAL_S:
                    d.lapsed = True
                    _restore(d.saved)
            elif gc.isenabled():
                t0, t1, t2 = gc.get_threshold()
                if t2 != _NEVER:
                    d.saved = t2
                    gc.set_threshold(t0, t1, _NEVER)
                    d.active = 1
                    d.since = time.monotonic()
                    d.lapsed = False
                    joined = True
    try:
        yield
    finally:
        if joined:
            with d.lock:
                d.active -= 1
                if d.active == 0 and not d.lapsed:
                    _restore(d.saved)


def _restore(threshold: int) -> None:
    """Put the oldest generation's threshold back (the young ones as they are now)."""
    t0, t1, _ = gc.get_threshold()
    gc.set_threshold(t0, t1, threshold)
