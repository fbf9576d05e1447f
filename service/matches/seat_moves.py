"""An AI seat's move: searched on a worker process, then saved, and saved again while the database
cannot save it.

A move the database cannot save (a full disk, an I/O error) is kept, not searched again, and saved
again after :data:`STORAGE_RETRY_S`, doubling up to :data:`STORAGE_RETRY_MAX_S`, until it is saved
or the match moved on: it is played once, when the fault passes, and the match waits meanwhile.
The scheduler (:class:`~service.matches.seats.AiSeats`) says when a match's move is due.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any

import search
from games.core import CHANCE
from games.core.rng import derive_seed
from games.errors import LictorError
from service.errors import StaleMoveError, StorageError
from service.jobs import Move
from service.matches.model import LiveMatch
from service.matches.store import MatchStore
from service.workers import Job, WorkerPool

__all__ = ["LATE_S", "STORAGE_RETRY_MAX_S", "STORAGE_RETRY_S", "SeatMoves", "Unsaved"]

log = logging.getLogger("lictor.matches")

LATE_S = 5.0
"""A move not answered this long after its level's budget plays the search's best move so far."""
STORAGE_RETRY_S = 0.5
"""A move the database could not save is saved again after this many seconds (doubling)..."""
STORAGE_RETRY_MAX_S = 5.0
"""... up to this many seconds between tries."""


@dataclass(slots=True, kw_only=True)
class Unsaved:
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


class SeatMoves:
    """Plays one AI seat's move at a time per match and saves it (see the module doc).

    Args:
        store: the matches.
        pool: the AI seats' worker processes.
        run_db: runs a blocking store call off the event loop.
        games: the registrations the workers must know (run-time games).

    Attributes:
        waits: (level, seconds from due to played) of the moves played, most recent last.
    """

    def __init__(
        self,
        store: MatchStore,
        pool: WorkerPool,
        run_db: Callable[..., Awaitable[Any]],
        games: Callable[[], tuple[Any, ...]],
    ) -> None:
        self.store = store
        self.pool = pool
        self._run_db = run_db
        self._games = games
        self.shared = store.shared
        self._loop: asyncio.AbstractEventLoop | None = None
        self._running: dict[str, bool] = {}  # match id -> heavy
        self._tasks: set[asyncio.Task[None]] = set()
        self._unsaved: dict[str, Unsaved] = {}  # match id -> its move the database did not save
        self._retry: dict[str, asyncio.TimerHandle] = {}  # match id -> its next save
        self._closed = False
        self.waits: list[tuple[int, float]] = []  # (level, seconds from due to played), most recent last

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        # A task of the scheduler's (cancelled on close).
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

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
        return await self._save(live, Unsaved(move=move, seat=seat, text=text, level=spec.level, since=since))

    async def _save(self, live: LiveMatch, unsaved: Unsaved) -> bool:
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
        """Save the match's kept move again (called :meth:`_save`'s delay later; each source of due
        matches in its own way)."""
        raise NotImplementedError
