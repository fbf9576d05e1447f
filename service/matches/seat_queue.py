"""The AI turns of a shared database (PostgreSQL, replicas): claimed from the database's queue.

The due AI turns are rows of the database's queue (:mod:`service.matches.postgres`). Whenever a
process of the pool is idle, this replica claims the turns waiting longest (``FOR UPDATE SKIP
LOCKED``: replicas never claim the same row) with a lease of ``lease_s`` seconds, renewed every
third of it while it plays them; a turn it cannot play is given back. It looks again when a change
is announced (LISTEN/NOTIFY), when a process becomes idle, and every :data:`POLL_S` seconds (leases
that expired: a replica that died).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from games.errors import LictorError
from service.errors import StorageError
from service.matches.model import LiveMatch
from service.matches.seat_moves import SeatMoves
from service.matches.store import MatchStore
from service.workers import JobCrashedError, WorkerPool

__all__ = ["LEASE_S", "POLL_S", "RELEASE_WAIT_S", "QueuedTurns"]

log = logging.getLogger("lictor.matches")

LEASE_S = 10.0
"""Shared databases: how long a claimed AI turn is this replica's before another may take it (renewed
every third of it while the move is searched)."""
RELEASE_WAIT_S = 2.0
"""Shared databases: how long a stopping replica tries to give its claimed turns back."""
POLL_S = 1.0
"""Shared databases: how often idle processes look for AI turns without being told (at most a
quarter of the lease)."""


class QueuedTurns(SeatMoves):
    """AI seats' moves, and on a shared database the turns claimed from its queue (see the module doc).

    Args:
        store: the matches.
        pool: the AI seats' worker processes.
        run_db: runs a blocking store call off the event loop.
        games: the registrations the workers must know (run-time games).
        lease_s: the lease of a claimed AI turn (:data:`LEASE_S`).
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
        super().__init__(store, pool, run_db, games)
        self.lease_s = lease_s
        self._poked: asyncio.Event | None = None  # shared: look for AI turns now
        self._claimed: dict[str, int] = {}  # shared: match id -> the move whose lease this replica holds

    def run(self) -> None:
        """Shared databases: start claiming AI turns from the queue (call on the loop, once serving)."""
        if self.shared and not self._closed and self._poked is None:
            self._poked = asyncio.Event()
            for coro in (self._claimer(), self._renewer()):
                self._spawn(coro)

    def remote(self, match_id: str, due: bool) -> None:
        """Another replica changed a match (on the loop): when it queued an AI turn, look."""
        if due:
            self._poke()

    def _poke(self) -> None:
        if self._poked is not None and not self._closed:
            self._poked.set()

    async def _claimer(self) -> None:
        assert self._poked is not None
        while not self._closed:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._poked.wait(), min(POLL_S, self.lease_s / 4))
            self._poked.clear()
            try:
                await self._claim()
            except StorageError:
                pass  # the store has logged it; the next look tries again
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the AI turns could not be claimed")

    async def _claim(self) -> None:
        free = self.pool.idle
        if free <= 0 or self._closed:
            return
        heavy_running = sum(self._running.values())
        heavy_slots = free if self.pool.size <= 1 else max(0, self.pool.size - 1 - heavy_running)
        turns = await self._run_db(
            self.store.claim_turns, limit=free, heavy_slots=min(free, heavy_slots), lease_s=self.lease_s
        )
        back = []
        for match_id, move, heavy in turns:
            worker = self.pool.try_acquire()
            if worker is None or match_id in self._running or self._closed:
                back.append((match_id, move))
                if worker is not None:
                    self.pool.release(worker)
                continue
            self._claimed[match_id] = move
            self._running[match_id] = heavy
            self._spawn(self._play_turn(match_id, move, worker))
        if back:
            await self._run_db(self.store.release_turns, back)
        if turns and len(turns) == free:
            self._poke()  # there may be more

    async def _play_turn(self, match_id: str, move: int, worker: Any) -> None:
        saved = False
        try:
            try:
                live: LiveMatch = await self._run_db(self.store.get, match_id)
                with live.lock:
                    ready = live.logged == move and live.ai_to_move()
            except BaseException:
                self.pool.release(worker)
                raise
            if not ready:  # (the queue is written with the log: this is a match quarantined here)
                self.pool.release(worker)
                return
            saved = await self._move(live, worker, time.monotonic())  # (it releases the worker)
        except (JobCrashedError, LictorError) as exc:
            if not self._closed:
                log.warning("AI seat of match %s: %s", match_id, exc)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("AI seat of match %s failed", match_id)
        finally:
            self._running.pop(match_id, None)
            if match_id not in self._unsaved:  # (a move the database did not save keeps its lease)
                self._claimed.pop(match_id, None)
                if not saved and not self._closed:
                    with contextlib.suppress(StorageError):
                        await self._run_db(self.store.release_turns, [(match_id, move)])
            self._poke()

    async def _renewer(self) -> None:
        while not self._closed:
            await asyncio.sleep(self.lease_s / 3)
            if self._claimed:
                with contextlib.suppress(StorageError):
                    await self._run_db(self.store.renew_turns, list(self._claimed), self.lease_s)

    async def _resave(self, live: LiveMatch) -> None:
        # A move the database did not save, saved again under the same lease.
        match_id = live.match_id
        unsaved = self._unsaved.get(match_id)
        try:
            if unsaved is not None:
                await self._save(live, unsaved)
        except LictorError as exc:
            if not self._closed:
                log.warning("AI seat of match %s: %s", match_id, exc)
        finally:
            if match_id not in self._unsaved:
                self._claimed.pop(match_id, None)
            self._poke()

    async def _give_back(self, claimed: list[tuple[str, int]]) -> None:
        # A stopping replica gives its claimed turns back at once (another plays them without
        # waiting for their leases to expire).
        if claimed:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._run_db(self.store.release_turns, claimed), RELEASE_WAIT_S)
