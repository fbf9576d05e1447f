"""The match database behind one small interface, with two backends: SQLite and PostgreSQL.

:class:`~service.matches.store.MatchStore` writes its SQL once, in the dialect both backends share
(``?`` placeholders; a backend translates them); everything that differs lives in one module per
backend: connecting, transactions, the schema's migrations, what a storage fault means, and for
PostgreSQL the queue of AI turns and the notifications between replicas.

- :mod:`service.matches.sqlite` (the default, a file path): one process owns the file; stdlib
  ``sqlite3``, WAL, ``synchronous=FULL``.
- :mod:`service.matches.postgres` (``postgresql://…`` or ``postgres://…``): any number of
  replicas share it; psycopg 3 with a connection pool.

Schema migrations are numbered: a ``schema_version`` table holds how many of a backend's
``MIGRATIONS`` the database has; at open the missing ones run, in order, in one transaction (each is
idempotent, so a database from before versioning takes them too). A database from a newer server
(a higher version) is refused.
"""

from __future__ import annotations

import abc
import re
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Protocol

__all__ = [
    "Database",
    "Due",
    "Fault",
    "Migration",
    "Sql",
    "StoreError",
    "apply_migrations",
    "is_postgres",
    "open_database",
    "shown",
]


class StoreError(Exception):
    """The database cannot be used (unreadable, not a database, read-only): one line to print."""


class Sql(Protocol):
    """Runs one statement (``?`` placeholders) and returns its rows (none for a write)."""

    def __call__(self, query: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Run ``query`` with ``args``."""
        ...


Migration = Callable[[Sql], None]
"""One numbered step of a schema: runs inside the migrating transaction; idempotent."""


@dataclass(frozen=True, slots=True)
class Fault:
    """A storage fault as a client reads it.

    Attributes:
        full: the disk (or the database's quota) is full: RESOURCE_EXHAUSTED, else UNAVAILABLE.
        reason: what happened, for a person ("a disk I/O error", "another process holds its lock").
    """

    full: bool
    reason: str


@dataclass(frozen=True, slots=True)
class Due:
    """A match whose next move is an AI seat's: a row of the AI turns' queue.

    Attributes:
        move: the move number the AI seat plays.
        heavy: the seat's level searches longer than a light move (see ``HEAVY_S``).
    """

    move: int
    heavy: bool


class Database(abc.ABC):
    """One backend of the match store.

    Attributes:
        target: the database as a person reads it (a path; a URL without its password).
        shared: other processes write to it too (replicas): a replica catches up before it acts,
            AI turns are claimed from a queue, and changes are announced to the others.
        threads: how many store calls may run at once (the server's database threads).
        conflict: the exception an ``INSERT`` raises when its key exists (a move already played).
    """

    target: str
    shared: bool
    threads: int
    conflict: type[BaseException]

    @abc.abstractmethod
    def read(self) -> AbstractContextManager[Sql]:
        """A connection for reads (no transaction needed)."""

    @abc.abstractmethod
    def transaction(self) -> AbstractContextManager[Sql]:
        """One write transaction: committed when the block ends, rolled back whole if it raises."""

    @abc.abstractmethod
    def fault(self, exc: BaseException) -> Fault | None:
        """The storage fault ``exc`` is, or None when it is not one of this backend's errors."""

    def lock_match(self, sql: Sql, match_id: str) -> None:  # noqa: B027  (a no-op by default)
        """Inside a transaction: hold the match's row until it ends (other writers of it wait)."""

    def queue(self, sql: Sql, match_id: str, due: Due | None) -> None:  # noqa: B027
        """Inside the transaction that changes a match: keep its AI turn queued (``due``) or not."""

    # Shared backends only: the AI turns' queue and the notifications between replicas.
    def claim(self, sql: Sql, *, limit: int, heavy_slots: int, lease_s: float) -> list[tuple[str, int, bool]]:
        """Lease due AI turns: (match id, move, heavy) of each (shared backends)."""
        raise NotImplementedError

    def renew(self, sql: Sql, match_ids: list[str], lease_s: float) -> None:
        """Extend this process's leases (shared backends)."""
        raise NotImplementedError

    def release(self, sql: Sql, turns: list[tuple[str, int]]) -> None:
        """Give back leases of (match id, move) turns not played (shared backends)."""
        raise NotImplementedError

    async def listen(self, on_change: Callable[[str, bool], None]) -> None:
        """Call ``on_change(match_id, due)`` for every change another process announces, until
        cancelled (shared backends)."""
        raise NotImplementedError

    @abc.abstractmethod
    def close(self) -> None:
        """Close every connection."""


def apply_migrations(sql: Sql, migrations: Sequence[Migration], target: str) -> int:
    """Bring a database to ``len(migrations)`` inside the caller's transaction; returns the version.

    Raises:
        StoreError: the database is from a newer server.
    """
    sql("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    rows = sql("SELECT version FROM schema_version")
    current = int(rows[0][0]) if rows else 0
    if current > len(migrations):
        raise StoreError(
            f"the match database {target!r} has schema version {current}, newer than this server's "
            f"{len(migrations)}: run a newer lictor"
        )
    for step in migrations[current:]:
        step(sql)
    if not rows:
        sql("INSERT INTO schema_version (version) VALUES (?)", (len(migrations),))
    elif current != len(migrations):
        sql("UPDATE schema_version SET version = ?", (len(migrations),))
    return len(migrations)


def is_postgres(target: str) -> bool:
    """Whether ``--db`` names a PostgreSQL database (a ``postgresql://`` or ``postgres://`` URL)."""
    return target.startswith(("postgresql://", "postgres://"))


_PASSWORD = re.compile(r"(://[^:/@?#]*):[^@/?#]*@")
_PASSWORD_PARAM = re.compile(r"([?&]password=)[^&#]*")


def shown(target: str) -> str:
    """``target`` without a password (for logs and messages)."""
    return _PASSWORD_PARAM.sub(r"\1***", _PASSWORD.sub(r"\1:***@", target))


def open_database(target: str, *, busy_timeout_s: float, pool_size: int) -> Database:
    """The backend ``target`` names: a PostgreSQL URL, else an SQLite file (or ``file:`` URI).

    Raises:
        StoreError: it cannot be used (one line, no password).
    """
    if is_postgres(target):
        from service.matches.postgres import PostgresDatabase

        return PostgresDatabase(target, busy_timeout_s=busy_timeout_s, pool_size=pool_size)
    from service.matches.sqlite import SqliteDatabase

    return SqliteDatabase(target, busy_timeout_s=busy_timeout_s)


def rows_of(cursor: Any) -> list[tuple[Any, ...]]:
    """Every row a cursor returned (none for a statement without rows)."""
    if cursor.description is None:
        return []
    return list(cursor.fetchall())
