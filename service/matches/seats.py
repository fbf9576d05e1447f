"""The AI seats of hosted matches, scheduled fairly across matches.

Every active match whose seat to move is an AI seat is *due*. Due matches get the AI workers'
processes oldest-waiting first, one move at a time per match (a match is due again only once its
move is played). A *heavy* move (a level whose budget is over :data:`HEAVY_S` seconds) may take
every process but one: the last is kept for light moves, so two AI-only level-10 matches can never
starve a level-1 seat of a third (it moves within a light move's time plus the queue of light
moves before it). Rule-based engines (``Seat.engine``) are light.

A move the database cannot save (a full disk, an I/O error) is kept, not searched again, and saved
again after :data:`STORAGE_RETRY_S`, doubling up to :data:`STORAGE_RETRY_MAX_S`, until it is saved
or the match moved on: it is played once, when the fault passes, and the match waits meanwhile.

Where the due matches come from depends on the database:

- **A database of its own (SQLite)**: this process is the only one that writes; every change to a
  match (``MatchStore.on_change``) tells whether it is due, and due matches wait in memory.
- **A shared database (PostgreSQL, replicas)**: the due AI turns are rows of the database's queue
  (:mod:`service.matches.postgres`). Whenever a process of the pool is idle, this replica claims the
  turns waiting longest (``FOR UPDATE SKIP LOCKED``: replicas never claim the same row) with a lease
  of ``lease_s`` seconds, renewed every third of it while it plays them; a turn it cannot play is
  given back. It looks again when a change is announced (LISTEN/NOTIFY), when a process becomes
  idle, and every :data:`POLL_S` seconds (leases that expired: a replica that died).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import search
from games.core import CHANCE
from games.core.rng import derive_seed
from games.errors import LictorError
from service.errors import StaleMoveError, StorageError
from service.jobs import Move
from service.matches.model import HEAVY_S, LiveMatch
from service.matches.store import MatchStore
from service.workers import Job, JobCrashedError, WorkerPool

__all__ = ["HEAVY_S", "LEASE_S", "POLL_S", "AiSeats"]

log = logging.getLogger("lictor.matches")

LATE_S = 5.0
"""A move not answered this long after its level's budget plays the search's best move so far."""
STORAGE_RETRY_S = 0.5
"""A move the database could not save is saved again after this many seconds (doubling)..."""
STORAGE_RETRY_MAX_S = 5.0
"""... up to this many seconds between tries."""
LEASE_S = 10.0
"""Shared databases: how long a claimed AI turn is this replica's before another may take it (renewed
every third of it while the move is searched)."""
RELEASE_WAIT_S = 2.0
"""Shared databases: how long a stopping replica tries to give its claimed turns back."""
POLL_S = 1.0
"""Shared databases: how often idle processes look for AI turns without being told (at most a
quarter of the lease)."""


@dataclass(slots=True, kw_only=True)
class _Unsaved:
    """An AI seat's move found but not yet saved.

    Attributes:
        move: the move number it was found for.
        seat: the seat.
        text: the move in notation.
        level: the seat's level.
        since: when the match became due (monotonic seconds).
        tries: failed saves so far.
    """

    move: int
    seat: int
    text: str
    level: int
    since: float
    tries: int = 0


class AiSeats:
    """Plays the AI seats of every active match on a worker pool (see the module doc).

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
        self.store = store
        self.pool = pool
        self._run_db = run_db
        self._games = games
        self.shared = store.shared
        self.lease_s = lease_s
        self._poked: asyncio.Event | None = None  # shared: look for AI turns now
        self._claimed: dict[str, int] = {}  # shared: match id -> the move whose lease this replica holds
        self._loop: asyncio.AbstractEventLoop | None = None
        self._due: dict[str, tuple[float, LiveMatch]] = {}  # match id -> (due since, match)
        self._running: dict[str, bool] = {}  # match id -> heavy
        self._tasks: set[asyncio.Task[None]] = set()
        self._unsaved: dict[str, _Unsaved] = {}  # match id -> its move the database did not save
        self._retry: dict[str, asyncio.TimerHandle] = {}  # match id -> its next save
        self._closed = False
        self.waits: list[tuple[int, float]] = []  # (level, seconds from due to played), most recent last

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        """Take notice of every change to a match from now on."""
        self._loop = loop
        self.store.on_change.append(self.notify)
        # a process freed or replaced: due matches may go
        self.pool.on_idle.append(self._poke if self.shared else self._dispatch)

    def run(self) -> None:
        """Shared databases: start claiming AI turns from the queue (call on the loop, once serving)."""
        if self.shared and not self._closed and self._poked is None:
            self._poked = asyncio.Event()
            for coro in (self._claimer(), self._renewer()):
                task = asyncio.ensure_future(coro)
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

    def notify(self, live: LiveMatch) -> None:
        """A match changed (from any thread): it may be due."""
        loop = self._loop
        if loop is None or self._closed:
            return
        with contextlib.suppress(RuntimeError):  # the loop is closed: the server is stopping
            loop.call_soon_threadsafe(self._poke if self.shared else functools.partial(self._check, live))

    def remote(self, match_id: str, due: bool) -> None:
        """Another replica changed a match (on the loop): when it queued an AI turn, look."""
        if due:
            self._poke()

    # ------------------------------------------------------------------ shared: the queue
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
            task = asyncio.ensure_future(self._play_turn(match_id, move, worker))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
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
        # Shared: a move the database did not save, saved again under the same lease.
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
            task = asyncio.ensure_future(self._play(live, since, worker))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

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

    async def _move(self, live: LiveMatch, worker: Any, since: float) -> bool:
        # The seat's move, searched and saved; whether it was saved.
        with live.lock:
            if not live.ai_to_move():
                self.pool.release(worker)  # nothing to do after all
                return False
            state, move = live.state, len(live.actions)
            seat = live.game.current_player(state)
        if seat == CHANCE:  # (chance is resolved when it arises; kept for safety)
            self.pool.release(worker)
            return False
        spec = live.seats[seat]
        budget = 0.0 if spec.engine else search.level(spec.level).time_s
        job = Job(
            kind="choose",
            games=self._games(),
            args={
                "game": live.name,
                "pack": "",
                "state": state,
                "level": spec.level,
                "seed": derive_seed(live.setup.seed, "ai", move),
                "limit": None,
                "temperature": None,
                "engine": spec.engine,
            },
            deadline=time.monotonic() + budget + 1.0 if budget else None,
        )
        outcome = await self.pool.run(job, worker=worker, give_up_at=time.monotonic() + budget + LATE_S)
        text = outcome.value.text if isinstance(outcome.value, Move) else outcome.value.best.text
        return await self._save(
            live, _Unsaved(move=move, seat=seat, text=text, level=spec.level, since=since)
        )

    async def _save(self, live: LiveMatch, unsaved: _Unsaved) -> bool:
        # Whether it was saved (a storage fault: kept and saved again later; stale: dropped).
        match_id = live.match_id
        try:
            await self._run_db(
                self.store.submit,
                live,
                seat=unsaved.seat,
                expected_move_number=unsaved.move,
                action_msg=unsaved.text,
                by_ai=True,
            )
        except StorageError as exc:  # kept; saved again later (the store has logged the fault)
            unsaved.tries += 1
            self._unsaved[match_id] = unsaved
            delay = min(STORAGE_RETRY_MAX_S, STORAGE_RETRY_S * 2 ** (unsaved.tries - 1))
            if unsaved.tries == 1 and not self._closed:
                log.warning(
                    "AI seat %d of match %s: move %d is not saved yet (%s); it is saved again every "
                    "%.1f-%.1f s until it is",
                    unsaved.seat,
                    match_id,
                    unsaved.move,
                    type(exc).__name__,
                    STORAGE_RETRY_S,
                    STORAGE_RETRY_MAX_S,
                )
            if self._loop is not None and not self._closed:
                self._retry[match_id] = self._loop.call_later(delay, self._retry_now, live)
            return False
        except StaleMoveError:
            self._unsaved.pop(match_id, None)
            return False  # someone else moved first: _check looks again
        except LictorError:
            self._unsaved.pop(match_id, None)  # the match ended meanwhile (resigned)
            raise
        self._unsaved.pop(match_id, None)
        if unsaved.tries:
            log.info("AI seat %d of match %s: move %d saved", unsaved.seat, match_id, unsaved.move)
        self.waits.append((unsaved.level, time.monotonic() - unsaved.since))
        del self.waits[:-1000]
        return True

    def _retry_now(self, live: LiveMatch) -> None:
        self._retry.pop(live.match_id, None)
        if not self.shared:
            self._check(live)
        elif not self._closed:
            task = asyncio.ensure_future(self._resave(live))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

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
        if claimed:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._run_db(self.store.release_turns, claimed), RELEASE_WAIT_S)
