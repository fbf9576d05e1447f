"""Hosted matches: an append-only action log and a summary row per match, in SQLite or PostgreSQL.

Storage (:mod:`service.matches.backend`: SQLite by default, PostgreSQL for replicas): ``matches``
holds each match's setup (with its secret seed), seats and secrets' hashes, written once, plus a
summary kept with every append (status, moves, the seat to move, returns, damage) so that listings
never replay a log; ``log`` holds every action, chance outcome and resignation as one row keyed by
``(match_id, seq)`` and is never updated. A match is its setup replayed through its log: an
acknowledged action (committed before the RPC answers) survives a SIGKILL, and the key makes a
double move impossible even across processes. The store's SQL (here and in its parts) is the dialect
both backends share.

Replicas (a shared database): a match in memory may be behind the log when another process wrote
to it. Before it answers (:meth:`MatchStore.get`) or acts (:meth:`MatchStore.submit`,
:meth:`MatchStore.resign`) the store catches up, replaying the log rows past those it holds; a
write that still loses a race to another process hits the log's key and is ABORTED. AI turns go
through the database's queue (:meth:`MatchStore.claim_turns`), kept in the transaction of every
write.

A match whose stored row does not read back (a column that is not what was written, a game no
longer served, a log that no longer replays: a content pack or the rules changed) is quarantined:
it is marked ``damaged`` with a reason a person can read, shown as such, refuses every action, and
nothing else is affected. No stored row can stop the server.

Storage faults stay local too. A database it cannot use at all is refused when it opens
(:class:`StoreError`, one line). Once open, a write that fails (disk full, I/O error, locked past
:data:`BUSY_TIMEOUT_S`, read-only, the database server unreachable) is rolled back whole and raised
as :class:`~service.errors.StorageFullError` (RESOURCE_EXHAUSTED) or
:class:`~service.errors.StorageError` (UNAVAILABLE); memory changes only after a commit, so memory
and disk never disagree and nothing acknowledged is lost. The next write tries again: the store
recovers by itself when the fault passes. The log says when writes start failing (then at most
once per :data:`~service.matches.storage.STORAGE_LOG_EVERY_S`) and when they work again.

Its parts, one concern each (:class:`MatchStore` is the last of a chain of base classes):
:mod:`service.matches.storage` (reads, write transactions, storage faults),
:mod:`service.matches.rows` (a stored row read back, checked), :mod:`service.matches.live` (matches
in memory: loading, catching up, quarantine), :mod:`service.matches.writing` (creating, acting,
resigning), and here: listings, counts, resuming after a restart, the AI turns' queue.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games.errors import LictorError, NotFoundError
from lictor.v1 import match_service_pb2 as match_pb
from service.errors import RequestError, StorageError
from service.matches.backend import StoreError, open_database
from service.matches.model import PUBLIC_VIEW, LiveMatch
from service.matches.rows import LISTED, DamageError, listed_pb
from service.matches.writing import MatchWriter

__all__ = ["ListedMatch", "MatchStore", "StoreError"]

log = logging.getLogger("lictor.matches")

BUSY_TIMEOUT_S = 10.0
"""How long a call waits for another connection's lock on the database (or, on PostgreSQL, for a
free connection of the pool) before it fails (UNAVAILABLE)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ListedMatch:
    """A match as a listing shows it (from its summary row; no replay).

    Attributes:
        match_id: the id.
        game: the game name.
        message: the light ``Match`` (no position, no state).
    """

    match_id: str
    game: str
    message: match_pb.Match


class MatchStore(MatchWriter):
    """Matches in a database plus their live copies in memory. Thread-safe.

    Args:
        target: an SQLite file (or ``file:`` URI), or a ``postgresql://`` URL.
        pool_size: connections to PostgreSQL (and threads the server gives the store).

    Attributes:
        db: the backend.
        shared: other processes write to the database too (a replica among others).
        on_change: called with every match that changed (after its write is committed, or once
            this process caught up with another's).
        write_fault: a test seam: called inside every write transaction with what it saves
            (``"the action"``, ...); raising a backend's error there is a storage fault.
    """

    def __init__(self, target: str | Path, *, pool_size: int = 8) -> None:
        super().__init__(open_database(str(target), busy_timeout_s=BUSY_TIMEOUT_S, pool_size=pool_size))

    # ------------------------------------------------------------------------------ listing and counting
    def list_page(self, *, game: str, offset: int, limit: int) -> list[ListedMatch]:
        """Matches newest first, from their summary rows. A match whose row does not read back as
        it was written (never summarized, or a damaged column) is loaded: it shows what GetMatch
        shows (quarantined, if it is damaged)."""
        query = f"SELECT {LISTED} FROM matches "
        args: tuple[Any, ...] = (limit, offset)
        if game:
            query += "WHERE game = ? "
            args = (game, *args)
        query += "ORDER BY created_at DESC, match_id LIMIT ? OFFSET ?"
        with self._reading("the list of matches") as sql:
            rows = sql(query, args)
        out = []
        for row in rows:
            match_id = str(row[0])
            try:
                message = listed_pb(row)
            except DamageError:
                try:
                    live = self.get(match_id)
                except (NotFoundError, RequestError):  # a row without an id, or gone meanwhile
                    continue
                with live.lock:
                    message = live.to_pb(PUBLIC_VIEW, light=True)
            out.append(ListedMatch(match_id=match_id, game=message.game, message=message))
        return out

    def active_ids(self) -> list[str]:
        """Ids of the matches still being played."""
        with self._reading("the list of active matches") as sql:
            rows = sql("SELECT match_id FROM matches WHERE status = 'active' ORDER BY created_at")
        return [r[0] for r in rows]

    def count(self, *, active: bool = False, creator: str | None = None) -> int:
        """Matches stored (only active ones with ``active``; only ``creator``'s with ``creator``)."""
        query = "SELECT COUNT(*) FROM matches"
        where, args = [], []
        if active:
            where.append("status = 'active'")
        if creator is not None:
            where.append("creator = ?")
            args.append(creator)
        if where:
            query += " WHERE " + " AND ".join(where)
        with self._reading("the number of matches") as sql:
            ((n,),) = sql(query, args)
        return int(n)

    # ------------------------------------------------------------------------------ after a restart
    def resume(self) -> list[LiveMatch]:
        """Load every active match (after a restart); quarantines those that do not read back.

        On a shared database nothing is loaded: the AI turns wait in the database's queue, and a
        match is loaded when it is asked for.
        """
        out: list[LiveMatch] = []
        if self.shared:
            return out
        try:
            ids = self.active_ids()
        except StorageError as exc:
            log.warning("the active matches are not resumed: %s", exc)
            return out
        for match_id in ids:
            try:
                live = self.get(match_id)
            except LictorError as exc:
                log.warning("match %s is not resumed: %s", match_id, exc)
                continue
            if live.damage or live.finished:
                continue
            out.append(live)
            self._changed(live)
        return out

    # ------------------------------------------------------------------------------ AI turns' queue
    def claim_turns(self, *, limit: int, heavy_slots: int, lease_s: float) -> list[tuple[str, int, bool]]:
        """Lease up to ``limit`` due AI turns (shared databases): (match id, move, heavy) of each."""
        with self._transaction("the claim of AI turns") as sql:
            return self.db.claim(sql, limit=limit, heavy_slots=heavy_slots, lease_s=lease_s)

    def renew_turns(self, match_ids: list[str], lease_s: float) -> None:
        """Extend this process's leases of the AI turns of ``match_ids``."""
        with self._transaction("the leases of AI turns") as sql:
            self.db.renew(sql, match_ids, lease_s)

    def release_turns(self, turns: list[tuple[str, int]]) -> None:
        """Give back this process's leases of (match id, move) AI turns it did not play."""
        with self._transaction("the leases of AI turns") as sql:
            self.db.release(sql, turns)
