"""The match database as the store uses it: reads, write transactions, and storage faults.

A database it cannot use at all is refused when it opens (:class:`~service.matches.backend.StoreError`,
one line). Once open, a write that fails (disk full, I/O error, locked past the store's
``BUSY_TIMEOUT_S``, read-only, the database server unreachable) is rolled back whole and raised as
:class:`~service.errors.StorageFullError` (RESOURCE_EXHAUSTED) or :class:`~service.errors.StorageError`
(UNAVAILABLE); the store changes memory only after a commit, so memory and disk never disagree and
nothing acknowledged is lost. The next write tries again: the store recovers by itself when the
fault passes. The log says when writes start failing (then at most once per
:data:`STORAGE_LOG_EVERY_S`) and when they work again.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterator

from service.errors import StorageError, StorageFullError
from service.matches.backend import Database, Fault, Sql

__all__ = ["STORAGE_LOG_EVERY_S", "Storage"]

log = logging.getLogger("lictor.matches")

STORAGE_LOG_EVERY_S = 60.0
"""While writes keep failing, the log says so at most once per this many seconds."""


class Storage:
    """A database's reads and write transactions, its storage faults made clients' errors. Thread-safe.

    Args:
        db: the backend.

    Attributes:
        db: the backend.
        shared: other processes write to the database too (a replica among others).
        path: the database as a person reads it.
        write_fault: a test seam: called inside every write transaction with what it saves
            (``"the action"``, ...); raising a backend's error there is a storage fault.
    """

    def __init__(self, db: Database) -> None:
        self.db = db
        self.shared = db.shared
        self.path = db.target
        self.write_fault: Callable[[str], None] | None = None
        self._fault_lock = threading.Lock()
        self._faults = 0  # storage faults since the last write that worked
        self._unlogged = 0  # storage faults no log line has counted yet
        self._failing_at = -STORAGE_LOG_EVERY_S  # when the last "not saved" line was logged
        self._working_at = -STORAGE_LOG_EVERY_S  # when the last "work again" line was logged
        self._said_failing = False  # a "not saved" line awaits its "work again"

    def close(self) -> None:
        """Close the database."""
        self.db.close()

    @contextlib.contextmanager
    def _reading(self, what: str) -> Iterator[Sql]:
        # A connection for reads; a storage fault is a StorageError.
        try:
            with self.db.read() as sql:
                yield sql
        except BaseException as exc:
            fault = self.db.fault(exc)
            if fault is None:
                raise
            raise self._fault(fault, exc, f"{what} could not be read") from None

    @contextlib.contextmanager
    def _transaction(self, what: str) -> Iterator[Sql]:
        # One write transaction, committed whole or not at all. A storage fault rolls it back and is
        # a StorageError; the caller changes memory only after this block (so memory and disk never
        # disagree).
        try:
            with self.db.transaction() as sql:
                if self.write_fault is not None:
                    self.write_fault(what)
                yield sql
        except BaseException as exc:
            fault = self.db.fault(exc)
            if fault is None:
                raise
            raise self._fault(fault, exc, f"{what} was not saved") from None
        if self._faults:
            self._worked()

    def _worked(self) -> None:
        # A write worked after storage faults. Said once after a "not saved" line, else at most once
        # per STORAGE_LOG_EVERY_S (a fault that comes and goes).
        with self._fault_lock:
            now = time.monotonic()
            if self._said_failing or (self._unlogged and now - self._working_at >= STORAGE_LOG_EVERY_S):
                log.warning(
                    "match database: writes work again (%d more storage fault(s) since the last line)",
                    self._unlogged,
                )
                self._working_at, self._unlogged, self._said_failing = now, 0, False
            self._faults = 0

    def _fault(self, fault: Fault, exc: BaseException, outcome: str) -> StorageError:
        # The client's error, and a log line at most once per STORAGE_LOG_EVERY_S (however often the
        # fault comes and goes).
        with self._fault_lock:
            self._faults += 1
            self._unlogged += 1
            now = time.monotonic()
            if now - self._failing_at >= STORAGE_LOG_EVERY_S:
                log.warning(
                    "match database: %s (%s): clients get %s until it works again (%d storage fault(s) "
                    "since the last line)",
                    outcome,
                    str(exc).strip().split("\n")[0][:300],
                    "RESOURCE_EXHAUSTED" if fault.full else "UNAVAILABLE",
                    self._unlogged,
                )
                self._failing_at, self._unlogged, self._said_failing = now, 0, True
        if fault.full:
            return StorageFullError(
                f"the match database is full ({fault.reason}): {outcome}; retry once the server's "
                "operator has freed space",
                field="",
            )
        return StorageError(
            f"the match database cannot be used just now ({fault.reason}): {outcome}; retry later"
        )
