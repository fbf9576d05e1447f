"""The SQLite backend of the match store (the default: a file, no server).

stdlib ``sqlite3``, WAL, ``synchronous=FULL``, one connection used from one thread at a time (the
server's database thread): one process owns the file. Its AI seats are scheduled in that process
(:mod:`service.matches.seats`), so there is no queue and no one to notify.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from service.matches.backend import Database, Fault, Migration, Sql, StoreError, apply_migrations, rows_of

__all__ = ["MIGRATIONS", "SqliteDatabase"]

log = logging.getLogger("lictor.matches")


def _first_tables(sql: Sql) -> None:
    """1: the tables of the first server (a database from before versioning has them already)."""
    sql(
        "CREATE TABLE IF NOT EXISTS matches (match_id TEXT PRIMARY KEY, game TEXT NOT NULL, "
        "setup_json TEXT NOT NULL, seats_json TEXT NOT NULL, created_at REAL NOT NULL)"
    )
    sql(
        "CREATE TABLE IF NOT EXISTS log (match_id TEXT NOT NULL REFERENCES matches(match_id), "
        "seq INTEGER NOT NULL, kind TEXT NOT NULL CHECK (kind IN ('action', 'chance', 'resign')), "
        "seat INTEGER NOT NULL, action TEXT NOT NULL, at REAL NOT NULL, PRIMARY KEY (match_id, seq))"
    )
    sql("CREATE INDEX IF NOT EXISTS matches_by_time ON matches(created_at)")
    sql("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")


ADDED_COLUMNS: tuple[tuple[str, str], ...] = (
    ("seat_secrets_json", "TEXT NOT NULL DEFAULT ''"),
    ("status", "TEXT NOT NULL DEFAULT 'active'"),
    ("moves", "INTEGER NOT NULL DEFAULT 0"),
    ("to_move", "INTEGER NOT NULL DEFAULT 0"),
    ("resigned_seat", "INTEGER NOT NULL DEFAULT -1"),
    ("returns_json", "TEXT NOT NULL DEFAULT '[]'"),
    ("damage", "TEXT NOT NULL DEFAULT ''"),
    ("client_seed", "INTEGER NOT NULL DEFAULT 1"),  # matches before secret seeds had the client's
    ("creator", "TEXT NOT NULL DEFAULT ''"),
    ("summarized", "INTEGER NOT NULL DEFAULT 0"),  # 0: summary columns not yet computed
)
"""Columns added to ``matches`` after the first server (seat secrets, the summary a listing reads):
a database from an older server gets those it lacks (its matches are summarized on first load)."""


def _seat_secrets_and_summaries(sql: Sql) -> None:
    """2: seat secrets' hashes and the summary columns (the servers before versioning added each
    column when it was missing; so does this step)."""
    columns = {row[1] for row in sql("PRAGMA table_info(matches)")}
    for name, decl in ADDED_COLUMNS:
        if name not in columns:
            sql(f"ALTER TABLE matches ADD COLUMN {name} {decl}")
    sql("CREATE INDEX IF NOT EXISTS matches_by_status ON matches(status, creator)")


MIGRATIONS: tuple[Migration, ...] = (_first_tables, _seat_secrets_and_summaries)
"""The SQLite schema, step by step (``schema_version`` counts the steps a database has)."""

_FAULTS = {
    sqlite3.SQLITE_IOERR: "a disk I/O error",
    sqlite3.SQLITE_BUSY: "another process holds its lock",
    sqlite3.SQLITE_LOCKED: "another process holds its lock",
    sqlite3.SQLITE_READONLY: "it is read-only",
    sqlite3.SQLITE_CANTOPEN: "its file cannot be opened",
    sqlite3.SQLITE_CORRUPT: "its file is damaged",
    sqlite3.SQLITE_NOTADB: "its file is damaged",
    sqlite3.SQLITE_NOMEM: "the server is out of memory",
    sqlite3.SQLITE_MISUSE: "the server is stopping",
}
"""What a person reads for a storage fault (SQLite's primary result code) other than a full disk."""


def primary_code(exc: sqlite3.Error) -> int | None:
    """SQLite's primary result code of a fault (``SQLITE_FULL``, ``SQLITE_IOERR``, ...), if known."""
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF
    if "database or disk is full" in str(exc):  # (a message without its code)
        return sqlite3.SQLITE_FULL
    if isinstance(exc, sqlite3.ProgrammingError):  # e.g. the database is closed: the server stops
        return sqlite3.SQLITE_MISUSE
    return None


class SqliteDatabase(Database):
    """A match database in one SQLite file.

    Attributes:
        lock: held while the connection is in use (one statement or transaction at a time).
        conn: the connection.
    """

    shared = False
    threads = 1
    conflict = sqlite3.IntegrityError

    def __init__(self, path: str, *, busy_timeout_s: float) -> None:
        self.target = path
        self.lock = threading.Lock()
        try:
            if path != ":memory:" and not path.startswith("file:"):  # (a URI names its own)
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            self.conn = sqlite3.connect(
                path, check_same_thread=False, isolation_level=None, timeout=busy_timeout_s
            )
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA synchronous=FULL")
            with self.transaction() as sql:
                apply_migrations(sql, MIGRATIONS, path)
            self._probe_write()
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(f"cannot use the match database {path!r}: {exc}") from None

    def _sql(self, query: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return rows_of(self.conn.execute(query, args))

    def _probe_write(self) -> None:
        # Refuse a database that opens but cannot be written (a read-only file or directory):
        # better now, in one line, than a failure on every write later. A full disk is not refused:
        # it passes, and until it does writes answer RESOURCE_EXHAUSTED while reads still work.
        try:
            self.conn.execute(
                "INSERT INTO meta (key, value) VALUES ('opened_at', ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (repr(time.time()),),
            )
        except sqlite3.Error as exc:
            if primary_code(exc) != sqlite3.SQLITE_FULL:
                raise
            log.warning(
                "the match database %s is full (no space left on its disk): matches can be read; "
                "writes answer RESOURCE_EXHAUSTED until space is freed",
                self.target,
            )

    @contextlib.contextmanager
    def read(self) -> Iterator[Sql]:
        """The connection, under its lock."""
        with self.lock:
            yield self._sql

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Sql]:
        """``BEGIN IMMEDIATE`` … ``COMMIT`` under the lock; rolled back whole if the block raises."""
        with self.lock:
            try:
                self.conn.execute("BEGIN IMMEDIATE")
                yield self._sql
                self.conn.execute("COMMIT")
            except BaseException:
                if self.conn.in_transaction:
                    with contextlib.suppress(sqlite3.Error):  # (SQLite may have rolled back already)
                        self.conn.execute("ROLLBACK")
                raise

    def fault(self, exc: BaseException) -> Fault | None:
        """``SQLITE_FULL`` is a full disk; the other SQLite errors say what failed."""
        if not isinstance(exc, sqlite3.Error):
            return None
        code = primary_code(exc)
        if code == sqlite3.SQLITE_FULL:
            return Fault(full=True, reason="no space left on its disk")
        return Fault(full=False, reason=_FAULTS.get(code or 0, "a storage error"))

    def close(self) -> None:
        """Close the connection."""
        with self.lock:
            self.conn.close()
