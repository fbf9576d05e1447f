"""The AI seats of hosted matches, scheduled fairly across matches.

Every active match whose seat to move is an AI seat is *due*. Due matches get the AI workers'
processes oldest-waiting first, one move at a time per match (a match is due again only once its
move is played). A *heavy* move (a level whose budget is over :data:`HEAVY_S` seconds) may take
every process but one: the last is kept for light moves, so two AI-only level-10 matches can never
starve a level-1 seat of a third (it moves within a light move's time plus the queue of light
moves before it). Rule-based engines (``Seat.engine``) are light.

A move the database cannot save (a full disk, an I/O error) is kept, not searched again, and saved
again after ``STORAGE_RETRY_S``, doubling up to ``STORAGE_RETRY_MAX_S``, until it is saved or the
match moved on: it is played once, when the fault passes, and the match waits meanwhile
(:mod:`service.matches.seat_moves`).

Where the due matches come from depends on the database:

- **A database of its own (SQLite)**: this process is the only one that writes; every change to a
  match (``MatchStore.on_change``) tells whether it is due, and due matches wait in memory.
- **A shared database (PostgreSQL, replicas)**: the due AI turns are rows of the database's queue
  (:mod:`service.matches.postgres`). Whenever a process of the pool is idle, this replica claims the
  turns waiting longest (``FOR UPDATE SKIP LOCKED``: replicas never claim the same row) with a lease
  of ``lease_s`` seconds, renewed every third of it while it plays them; a turn it cannot play is
  given back. It looks again when a change is announced (LISTEN/NOTIFY), when a process becomes
  idle, and every :data:`POLL_S` seconds (leases that expired: a replica that died)
(:mod:`service.matches.seat_queue`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from games.errors import LictorError
from service.matches.model import HEAVY_S, LiveMatch
from service.matches.seat_queue import LEASE_S, POLL_S, QueuedTurns
from service.matches.store import MatchStore
from service.workers import JobCrashedError, WorkerPool

__all__ = ["HEAVY_S", "LEASE_S", "POLL_S", "AiSeats"]

log = logging.getLogger("lictor.matches")


class AiSeats(QueuedTurns):
    """Plays the AI seats of every active match on a worker pool (see the module doc).

    Its parts: :mod:`service.matches.seat_moves` (a move searched and saved, kept and saved again
    after a storage fault), :mod:`service.matches.seat_queue` (a shared database's queue of AI
    turns), and here the due matches of a database of its own.

    Args:
        store: the matches.
        pool: the AI seats' worker processes.
        run_db: runs a blocking store call off the event loop.
        games: the registrations the workers must know (run-time games).
        lease_s: on a shared database, the lease of a claimed AI turn (:data:`LEASE_S`).
    """

    def __init__(
        self,
        store: MatchStore,
        pool: WorkerPool,
        run_db: Callable[..., Awaitable[Any]],
        games: Callable[[], tuple[Any, ...]],
        *,
        lease_s: float = LEASE_S,
    ) -> None:
        super().__init__(store, pool, run_db, games, lease_s=lease_s)
        self._due: dict[str, tuple[float, LiveMatch]] = {}  # match id -> (due since, match)

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        """Take notice of every change to a match from now on."""
        self._loop = loop
        self.store.on_change.append(self.notify)
        # a process freed or replaced: due matches may go
        self.pool.on_idle.append(self._poke if self.shared else self._dispatch)

    def notify(self, live: LiveMatch) -> None:
        """A match changed (from any thread): it may be due."""
        loop = self._loop
        if loop is None or self._closed:
            return
        with contextlib.suppress(RuntimeError):  # the loop is closed: the server is stopping
            loop.call_soon_threadsafe(self._poke if self.shared else functools.partial(self._check, live))

    # ------------------------------------------------------------------ a database of its own

    def _check(self, live: LiveMatch) -> None:
        if self._closed or live.match_id in self._running or live.match_id in self._retry:
            return
        with live.lock:
            due = live.ai_to_move()
        if due:
            self._due.setdefault(live.match_id, (time.monotonic(), live))
        else:
            self._due.pop(live.match_id, None)
            self._unsaved.pop(live.match_id, None)  # (the match ended while its move waited)
        self._dispatch()

    def _heavy(self, live: LiveMatch) -> bool:
        with live.lock:
            seat = live.game.current_player(live.state)
        if seat < 0:
            return False
        spec = live.seats[seat]
        return spec.heavy

    def _dispatch(self) -> None:
        while not self._closed and self._due and self.pool.idle:
            heavy_running = sum(self._running.values())
            chosen = None
            for _, live in sorted(self._due.values(), key=lambda d: d[0]):
                heavy = self._heavy(live)
                if heavy and self.pool.size > 1 and heavy_running >= self.pool.size - 1:
                    continue  # the last process is kept for light moves
                chosen = (live, heavy)
                break
            if chosen is None:
                return
            live, heavy = chosen
            since, _ = self._due.pop(live.match_id)
            self._running[live.match_id] = heavy
            worker = self.pool.try_acquire()  # taken now: the loop's next turn sees one process fewer
            self._spawn(self._play(live, since, worker))

    async def _play(self, live: LiveMatch, since: float, worker: Any) -> None:
        try:
            unsaved = self._unsaved.get(live.match_id)
            if unsaved is not None:
                self.pool.release(worker)
                await self._save(live, unsaved)
            else:
                await self._move(live, worker, since)
        except (JobCrashedError, LictorError) as exc:
            if not self._closed:
                log.warning("AI seat of match %s: %s", live.match_id, exc)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("AI seat of match %s failed", live.match_id)
        finally:
            self._running.pop(live.match_id, None)
            if not self._closed:
                self._check(live)

    def _retry_now(self, live: LiveMatch) -> None:
        self._retry.pop(live.match_id, None)
        if not self.shared:
            self._check(live)
        elif not self._closed:
            self._spawn(self._resave(live))

    async def close(self) -> None:
        """Stop scheduling; running moves end with the pool. On a shared database the turns this
        replica had claimed are given back at once (another replica plays them without waiting for
        their leases to expire)."""
        self._closed = True
        claimed, self._claimed = list(self._claimed.items()), {}
        for handle in self._retry.values():
            handle.cancel()
        self._retry.clear()
        self._unsaved.clear()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task
        await self._give_back(claimed)
