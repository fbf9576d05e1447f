"""The PostgreSQL backend of the match store: replicas share matches (``--db postgresql://…``).

psycopg 3 with a connection pool (psycopg-pool); every connection in autocommit, a write is one
explicit transaction. Any number of ``lictor serve`` processes use one database:

- **The log guards every move.** ``log``'s key ``(match_id, seq)`` makes a second move at the same
  number fail (a stale ``expected_move_number`` is ABORTED); a replica catches up from the log
  before it acts or answers (:meth:`service.matches.store.MatchStore.refresh`).
- **AI turns are a work queue** (``ai_queue``: one row per match whose seat to move is an AI
  seat, written in the same transaction as the move that made it due). A replica claims rows with
  ``SELECT … FOR UPDATE SKIP LOCKED`` and leases them (``leased_by``, ``lease_until`` in the
  database's clock) for :attr:`~service.limits.Limits.ai_lease_s` seconds, renewed while it
  searches. The move's own transaction clears the row (or queues the next turn). A replica that dies
  stops renewing: once the lease has expired another claims the turn and plays it; if the first
  one's move was saved after all, the log's key refuses the second. Every AI move is saved once.
- **Changes are announced** with ``NOTIFY lictor_matches`` (payload ``origin match_id due``) in
  the transaction that makes them; every replica ``LISTEN``s on a connection of its own
  (psycopg's async notifications on the server's event loop) and wakes its watchers and its AI
  seats. A lost listening connection is reopened, after which everything is looked at again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from service.matches.backend import (
    Database,
    Due,
    Fault,
    Migration,
    Sql,
    StoreError,
    apply_migrations,
    rows_of,
    shown,
)

try:
    import psycopg
    import psycopg_pool
    from psycopg import errors as pg_errors
except ImportError:  # pragma: no cover - the optional extra is missing
    psycopg = None  # type: ignore[assignment]

__all__ = ["CHANNEL", "MIGRATIONS", "PostgresDatabase"]

log = logging.getLogger("lictor.matches")

CHANNEL = "lictor_matches"
"""The LISTEN/NOTIFY channel of match changes."""
MIGRATION_LOCK = 0x4C494354  # "LICT": the advisory lock replicas starting together migrate under
CONNECT_TIMEOUT_S = 10
"""How long opening a connection may take before the server is called unreachable."""
LISTEN_RETRY_MAX_S = 5.0
"""A lost listening connection is reopened after 0.5 s, doubling up to this."""
DOWN_WAIT_S = 1.0
"""A call waits for a pooled connection this long at a time (up to the busy timeout); once the pool's
connection attempts fail, it tries one of its own instead and, failing, answers UNAVAILABLE."""
RECONNECT_GIVE_UP_S = 5.0
"""The pool retries a lost connection for this long (1 s, 2 s, ... apart); a call then starts a new
attempt at once, so a server that comes back after a long outage is used within a call or two."""


def _schema(sql: Sql) -> None:
    """1: matches, their log, the AI turns' queue (the SQLite schema at its version 2, plus the queue)."""
    sql(
        "CREATE TABLE IF NOT EXISTS matches (match_id TEXT PRIMARY KEY, game TEXT NOT NULL, "
        "setup_json TEXT NOT NULL, seats_json TEXT NOT NULL, created_at DOUBLE PRECISION NOT NULL, "
        "seat_secrets_json TEXT NOT NULL DEFAULT '', status TEXT NOT NULL DEFAULT 'active', "
        "moves INTEGER NOT NULL DEFAULT 0, to_move INTEGER NOT NULL DEFAULT 0, "
        "resigned_seat INTEGER NOT NULL DEFAULT -1, returns_json TEXT NOT NULL DEFAULT '[]', "
        "damage TEXT NOT NULL DEFAULT '', client_seed INTEGER NOT NULL DEFAULT 1, "
        "creator TEXT NOT NULL DEFAULT '', summarized INTEGER NOT NULL DEFAULT 0)"
    )
    sql(
        "CREATE TABLE IF NOT EXISTS log (match_id TEXT NOT NULL REFERENCES matches(match_id), "
        "seq INTEGER NOT NULL, kind TEXT NOT NULL CHECK (kind IN ('action', 'chance', 'resign')), "
        "seat INTEGER NOT NULL, action TEXT NOT NULL, at DOUBLE PRECISION NOT NULL, "
        "PRIMARY KEY (match_id, seq))"
    )
    sql("CREATE INDEX IF NOT EXISTS matches_by_time ON matches(created_at)")
    sql("CREATE INDEX IF NOT EXISTS matches_by_status ON matches(status, creator)")
    sql("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    sql(
        "CREATE TABLE IF NOT EXISTS ai_queue (match_id TEXT PRIMARY KEY REFERENCES matches(match_id), "
        "move INTEGER NOT NULL, heavy BOOLEAN NOT NULL, due_since TIMESTAMPTZ NOT NULL DEFAULT now(), "
        "leased_by TEXT NOT NULL DEFAULT '', lease_until TIMESTAMPTZ NOT NULL DEFAULT '-infinity')"
    )
    sql("CREATE INDEX IF NOT EXISTS ai_queue_by_due ON ai_queue(due_since)")


MIGRATIONS: tuple[Migration, ...] = (_schema,)
"""The PostgreSQL schema, step by step (``schema_version`` counts the steps a database has)."""


def _faults() -> tuple[tuple[type[BaseException], Fault], ...]:
    """What each error means to a client, most specific first."""
    e = pg_errors
    return (
        (e.DiskFull, Fault(full=True, reason="no space left on the database server's disk")),
        (e.OutOfMemory, Fault(full=False, reason="the database server is out of memory")),
        (e.TooManyConnections, Fault(full=False, reason="the database server has no connection free")),
        (e.ReadOnlySqlTransaction, Fault(full=False, reason="it is read-only")),
        (e.LockNotAvailable, Fault(full=False, reason="another process holds its lock")),
        (e.QueryCanceled, Fault(full=False, reason="another process holds its lock")),
        (e.DeadlockDetected, Fault(full=False, reason="a conflict with another replica")),
        (e.SerializationFailure, Fault(full=False, reason="a conflict with another replica")),
        (e.DataCorrupted, Fault(full=False, reason="its data is damaged")),
        (psycopg_pool.PoolTimeout, Fault(full=False, reason="no connection to the database server was free")),
        (psycopg.OperationalError, Fault(full=False, reason="the database server cannot be reached")),
        (psycopg.Error, Fault(full=False, reason="a storage error")),
    )


class PostgresDatabase(Database):
    """A match database on a PostgreSQL server, shared by replicas (see the module doc).

    Attributes:
        url: the connection URL (with its password: never shown; ``target`` is).
        origin: this replica's name in leases and notifications (host, process, a random part).
        pool: the connection pool.
    """

    shared = True

    def __init__(self, url: str, *, busy_timeout_s: float, pool_size: int) -> None:
        self.target = shown(url)
        if psycopg is None:
            raise StoreError(
                f"cannot use the match database {self.target!r}: PostgreSQL needs psycopg and psycopg-pool "
                "(pip install 'lictor[postgres]')"
            )
        self.url = url
        self.threads = max(1, pool_size)
        self.conflict = pg_errors.UniqueViolation
        self.origin = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"
        self._faults = _faults()
        self._queries: dict[str, str] = {}
        self._busy_s = busy_timeout_s
        self._down = False  # the pool's connection attempts failed since a call last had a connection
        self._errors = 0  # the pool's failed connection attempts seen so far
        logging.getLogger("psycopg.pool").setLevel(logging.ERROR)  # (one line per retry otherwise)
        timeout_ms = max(1, int(busy_timeout_s * 1000))
        self._kwargs: dict[str, Any] = {
            "autocommit": True,
            "connect_timeout": CONNECT_TIMEOUT_S,
            "application_name": "lictor",
            "options": f"-c lock_timeout={timeout_ms} -c idle_in_transaction_session_timeout=60000",
        }
        try:  # one connection first: a readable reason when the server cannot be used at all
            with psycopg.connect(url, **self._kwargs) as conn, conn.transaction():
                sql = self._runner(conn.cursor())
                sql("SELECT pg_advisory_xact_lock(?)", (MIGRATION_LOCK,))
                apply_migrations(sql, MIGRATIONS, self.target)
                sql(
                    "INSERT INTO meta (key, value) VALUES ('opened_at', now()::text) "
                    "ON CONFLICT (key) DO UPDATE SET value = excluded.value"
                )
        except psycopg.Error as exc:
            raise StoreError(f"cannot use the match database {self.target!r}: {_one_line(exc)}") from None
        self.pool = psycopg_pool.ConnectionPool(
            url,
            min_size=1,
            max_size=self.threads,
            kwargs=self._kwargs,
            timeout=busy_timeout_s,
            check=psycopg_pool.ConnectionPool.check_connection,
            reconnect_timeout=RECONNECT_GIVE_UP_S,
            name="lictor-matches",
            open=False,
        )
        try:
            self.pool.open(wait=True, timeout=CONNECT_TIMEOUT_S)
        except psycopg_pool.PoolTimeout:
            self.pool.close()
            raise StoreError(f"cannot use the match database {self.target!r}: no connection opened") from None

    # ------------------------------------------------------------------ statements
    def _runner(self, cursor: Any) -> Sql:
        def run(query: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
            text = self._queries.get(query)
            if text is None:  # the store's "?" placeholders are psycopg's "%s"
                text = self._queries.setdefault(query, query.replace("?", "%s"))
            cursor.execute(text, args)
            return rows_of(cursor)

        return run

    def _unreachable(self) -> bool:
        # Whether the pool's connection attempts failed since a call last had a connection.
        errors = self.pool.get_stats().get("connections_errors", 0)
        if errors > self._errors:
            self._down, self._errors = True, errors
        return self._down

    @contextlib.contextmanager
    def _connection(self) -> Iterator[Any]:
        # A pooled connection, checked (a server restart leaves dead ones behind). A call waits for
        # one up to the busy timeout, DOWN_WAIT_S at a time: once the server cannot be reached it
        # answers within DOWN_WAIT_S.
        # Once it cannot, a call tries a connection of its own: the first call after the server
        # returns gets one at once (the pool's own attempts are spaced out).
        deadline = time.monotonic() + self._busy_s
        conn, pooled = None, True
        while conn is None:
            try:
                conn = self.pool.getconn(timeout=max(0.01, min(DOWN_WAIT_S, deadline - time.monotonic())))
            except psycopg_pool.PoolTimeout:
                if self._unreachable():
                    conn, pooled = psycopg.connect(self.url, **{**self._kwargs, "connect_timeout": 2}), False
                elif time.monotonic() >= deadline:
                    raise
        try:
            with conn:
                yield conn
        finally:
            if pooled:
                self.pool.putconn(conn)
            else:
                conn.close()
        self._down = False

    @contextlib.contextmanager
    def read(self) -> Iterator[Sql]:
        """A pooled connection (autocommit: each statement sees what is committed)."""
        with self._connection() as conn:
            yield self._runner(conn.cursor())

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Sql]:
        """One transaction on a pooled connection; NOTIFYs in it are sent when it commits."""
        with self._connection() as conn, conn.transaction():
            yield self._runner(conn.cursor())

    def fault(self, exc: BaseException) -> Fault | None:
        """The first row of the fault table ``exc`` is an instance of (None: not a database error)."""
        if isinstance(exc, psycopg_pool.PoolTimeout) and self._down:
            return Fault(full=False, reason="the database server cannot be reached")
        for kind, fault in self._faults:
            if isinstance(exc, kind):
                return fault
        return None

    def lock_match(self, sql: Sql, match_id: str) -> None:
        """``SELECT … FOR UPDATE`` the match's row (every write to a match updates that row)."""
        sql("SELECT 1 FROM matches WHERE match_id = ? FOR UPDATE", (match_id,))

    def queue(self, sql: Sql, match_id: str, due: Due | None) -> None:
        """Queue the match's AI turn (a new row, never leased) or drop it; announce the change."""
        if due is None:
            sql("DELETE FROM ai_queue WHERE match_id = ?", (match_id,))
        else:
            sql(
                "INSERT INTO ai_queue (match_id, move, heavy, due_since, leased_by, lease_until) "
                "VALUES (?, ?, ?, now(), '', '-infinity') ON CONFLICT (match_id) DO UPDATE SET "
                "move = excluded.move, heavy = excluded.heavy, due_since = excluded.due_since, "
                "leased_by = '', lease_until = '-infinity'",
                (match_id, due.move, due.heavy),
            )
        sql("SELECT pg_notify(?, ?)", (CHANNEL, f"{self.origin} {match_id} {int(due is not None)}"))

    # ------------------------------------------------------------------ the AI turns' queue
    def claim(self, sql: Sql, *, limit: int, heavy_slots: int, lease_s: float) -> list[tuple[str, int, bool]]:
        """Lease up to ``limit`` due AI turns whose lease has expired, waiting longest first, at most
        ``heavy_slots`` of them heavy; rows another replica is claiming are skipped. Returns
        (match id, move, heavy) of each."""
        rows = sql(
            "SELECT match_id, move, heavy FROM ai_queue WHERE lease_until < now() AND (NOT heavy OR ?) "
            "ORDER BY due_since LIMIT ? FOR UPDATE SKIP LOCKED",
            (heavy_slots > 0, limit),
        )
        chosen: list[tuple[str, int, bool]] = []
        for match_id, move, heavy in rows:
            if heavy and sum(h for _, _, h in chosen) >= heavy_slots:
                continue
            chosen.append((str(match_id), int(move), bool(heavy)))
        if chosen:
            sql(
                "UPDATE ai_queue SET leased_by = ?, lease_until = now() + make_interval(secs => ?) "
                "WHERE match_id = ANY(?)",
                (self.origin, lease_s, [c[0] for c in chosen]),
            )
        return chosen

    def renew(self, sql: Sql, match_ids: list[str], lease_s: float) -> None:
        """Extend this replica's leases of ``match_ids`` by ``lease_s`` from now."""
        sql(
            "UPDATE ai_queue SET lease_until = now() + make_interval(secs => ?) "
            "WHERE leased_by = ? AND match_id = ANY(?)",
            (lease_s, self.origin, match_ids),
        )

    def release(self, sql: Sql, turns: list[tuple[str, int]]) -> None:
        """Give back this replica's leases of (match id, move) turns it did not play."""
        for match_id, move in turns:
            sql(
                "UPDATE ai_queue SET leased_by = '', lease_until = '-infinity' "
                "WHERE match_id = ? AND move = ? AND leased_by = ?",
                (match_id, move, self.origin),
            )

    # ------------------------------------------------------------------ notifications
    async def listen(self, on_change: Callable[[str, bool], None]) -> None:
        """Forever (until cancelled): call ``on_change(match_id, due)`` for every change another
        replica announces. After (re)connecting it calls ``on_change("", True)``: anything may have
        changed meanwhile."""
        delay, lost = 0.5, False
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(self.url, **self._kwargs)
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    if lost:
                        log.warning("match database: notifications from the other replicas work again")
                    delay, lost = 0.5, False
                    on_change("", True)
                    async for note in conn.notifies():
                        origin, _, rest = note.payload.partition(" ")
                        match_id, _, due = rest.partition(" ")
                        if origin != self.origin and match_id:
                            on_change(match_id, due == "1")
            except psycopg.Error as exc:
                if not lost:
                    log.warning(
                        "match database: notifications from the other replicas are lost (%s); "
                        "reconnecting (watchers and AI seats look again every few seconds meanwhile)",
                        _one_line(exc),
                    )
                lost = True
                await asyncio.sleep(delay)
                delay = min(LISTEN_RETRY_MAX_S, delay * 2)

    def close(self) -> None:
        """Close the pool."""
        self.pool.close()


def _one_line(exc: BaseException) -> str:
    """The first line of an error's message, clipped."""
    text = str(exc).strip().splitlines()
    return (text[0] if text else type(exc).__name__)[:300]
