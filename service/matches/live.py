"""Matches in memory: each read back from its stored row and log, and kept caught up with the log.

A match is its setup replayed through its log. On a shared database (replicas) a match in memory
may be behind the log when another process wrote to it: before the store answers or acts it
catches up, replaying the log rows past those it holds. A match whose stored row does not read back
(:mod:`service.matches.rows`) or whose log no longer replays is quarantined: marked ``damaged``
with a reason a person can read; nothing else is affected.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any

from games.core import TERMINAL
from games.errors import LictorError, NotFoundError
from service import convert, events
from service.errors import RequestError, StorageError
from service.matches.backend import Database
from service.matches.model import LiveMatch
from service.matches.rows import (
    LOADED,
    DamageError,
    created_record,
    decode_flag,
    decode_seats,
    decode_secrets,
    decode_setup,
    decode_time,
    is_int,
    quote,
    summary,
)
from service.matches.storage import Storage

__all__ = ["FINISHED_KEPT", "SHARED_KEPT", "LiveMatches"]

log = logging.getLogger("lictor.matches")

FINISHED_KEPT = 256
"""Finished or damaged matches kept in memory (active ones always are, on a database of one's own)."""
SHARED_KEPT = 4096
"""Matches of any status kept in memory on a shared database (others may finish them unseen)."""


class LiveMatches(Storage):
    """The live copies of stored matches (see the module doc). Thread-safe.

    Args:
        db: the backend.

    Attributes:
        on_change: called with every match that changed (after its write is committed, or once
            this process caught up with another's).
    """

    def __init__(self, db: Database) -> None:
        super().__init__(db)
        self._live: OrderedDict[str, LiveMatch] = OrderedDict()
        self._live_lock = threading.Lock()
        self.on_change: list[Callable[[LiveMatch], None]] = []

    def get(self, match_id: str, *, field_name: str = "match_id", fresh: bool = True) -> LiveMatch:
        """The live match (loaded and replayed on first use); NotFoundError if unknown.

        ``fresh``: caught up with every move committed by another process (the caller acts under
        the match's lock otherwise: :meth:`submit` and :meth:`resign` catch up themselves). A stored
        match that does not read back is returned quarantined (``damage`` says why).
        """
        if not match_id:
            raise RequestError("match_id is required", field=field_name)
        with self._live_lock:
            live = self._live.get(match_id)
            if live is not None:
                self._live.move_to_end(match_id)
        if live is not None:
            if fresh:
                try:
                    self.refresh(live)
                except StorageError:
                    if self.shared:  # (on a database of its own, memory holds every committed move)
                        raise
            return live
        live = self._load(match_id, field_name)
        with self._live_lock:
            live = self._live.setdefault(match_id, live)
            self._trim()
        return live

    def _trim(self) -> None:
        # Caller holds _live_lock. On a database of its own: active matches stay (the AI plays them);
        # the oldest-used of the others go beyond FINISHED_KEPT. On a shared one any match may go
        # (it is caught up, or loaded again, when next asked for).
        if self.shared:
            for key in list(self._live)[: max(0, len(self._live) - SHARED_KEPT)]:
                del self._live[key]
            return
        idle = [k for k, m in self._live.items() if m.finished or m.damage]
        for key in idle[: max(0, len(idle) - FINISHED_KEPT)]:
            del self._live[key]

    def _load(self, match_id: str, field_name: str) -> LiveMatch:
        with self._reading("the match") as sql:
            found = sql(f"SELECT {LOADED} FROM matches WHERE match_id = ?", (match_id,))
            rows = sql("SELECT seq, kind, seat, action FROM log WHERE match_id = ? ORDER BY seq", (match_id,))
        if not found:
            raise NotFoundError(f"no match {match_id[:64]!r}", field=field_name)
        row = found[0]
        name = row[0] if isinstance(row[0], str) else ""
        live = LiveMatch(
            match_id=match_id,
            name=name,
            game=None,  # type: ignore[arg-type]  # set below, or the match is damaged
            setup=convert.Setup(players=0, options={}, seed=0),  # until read
            seats=(),
            created_at=0.0,
            state=None,
        )
        try:
            self._rebuild(live, row[:6], rows)
        except DamageError as exc:
            self._quarantine(live, str(exc))
        except Exception:  # a bug must not take the server or the listing down either
            log.exception("match %s does not read back", match_id)
            self._quarantine(live, "it does not read back (details in the server log)")
        else:
            if tuple(row[6:]) != (*summary(live), "", 1):
                self._summarize(live)
        return live

    def refresh(self, live: LiveMatch) -> bool:
        """Catch up with the log rows another process committed past those ``live`` holds (a
        storage fault: StorageError). Returns whether it moved; then ``on_change`` hears of it."""
        with live.lock:
            moved = self._catch_up(live)
        if moved:
            self._changed(live)
        return moved

    def _catch_up(self, live: LiveMatch) -> bool:
        # Caller holds live.lock. A finished or damaged match has nothing to catch up with.
        if live.damage or live.finished:
            return False
        logged = live.logged
        with self._reading("the match") as sql:
            rows = sql(
                "SELECT seq, kind, seat, action FROM log WHERE match_id = ? AND seq >= ? ORDER BY seq",
                (live.match_id, logged),
            )
        if not rows:
            return False
        try:
            self._replay(live, rows, start=logged)
        except DamageError as exc:
            self._quarantine(live, str(exc))
        except Exception:
            log.exception("match %s does not read back", live.match_id)
            self._quarantine(live, "it does not read back (details in the server log)")
        live.version += 1
        return True

    def _rebuild(self, live: LiveMatch, row: tuple[Any, ...], rows: list[tuple[Any, ...]]) -> None:
        # The match from its stored row and log; DamageError says what does not read back.
        name, setup_json, seats_json, created_at, secrets_json, client_seed = row
        if not live.name:
            raise DamageError("its stored game name is unreadable")
        live.setup = decode_setup(setup_json)
        live.seats = decode_seats(seats_json, live.setup.players)
        live.secret_hashes = decode_secrets(secrets_json, len(live.seats))
        live.created_at = decode_time(created_at)
        live.client_seed = decode_flag(client_seed, "seed's origin")
        try:
            live.game = convert.lookup_game(name)
        except LictorError:
            raise DamageError(f"its game {quote(name)} is not served by this server") from None
        engines = live.game.policies()
        for i, seat in enumerate(live.seats):
            if seat.engine and seat.engine not in engines:
                raise DamageError(f"seat {i}'s engine {quote(seat.engine)} is not an engine of this game")
        try:
            live.state = convert.new_game(live.game, live.setup, field="setup")
        except LictorError as exc:
            raise DamageError(f"its setup is no longer accepted: {exc.message}") from None
        except Exception:  # a bug in a game: logged, and the match alone is quarantined
            log.exception("match %s: its setup fails", live.match_id)
            raise DamageError(
                "its setup is no longer accepted: the game's rules fail on it (details in the server log)"
            ) from None
        live.events.append(created_record(live))
        self._replay(live, rows)

    def _replay(self, live: LiveMatch, rows: Iterable[tuple[Any, ...]], start: int = 0) -> None:
        # The log rows from seq ``start`` on, applied to the match in memory.
        game = live.game
        for i, (seq, kind, seat, text) in enumerate(rows, start):
            where = f"move {i} of its log"
            if seq != i:
                raise DamageError(f"its log misses move {i}")
            if live.finished:
                raise DamageError(f"{where} comes after the end of the match")
            if kind == "resign":
                if not (is_int(seat) and 0 <= seat < len(live.seats)):
                    raise DamageError(f"{where} is a resignation of no seat of the match")
                self._record_resign(live, seat)
                continue
            if kind not in ("action", "chance") or not isinstance(text, str):
                raise DamageError(f"{where} is unreadable")
            try:
                before = live.state
                action = game.parse_action(before, text)
                live.state = game.apply(before, action)
            except LictorError as exc:
                raise DamageError(
                    f"its log no longer replays at move {i} ({quote(text)}): {exc.message}"
                ) from None
            except Exception:  # a bug in a game: logged, and the match alone is quarantined
                log.exception("match %s does not replay at move %d", live.match_id, i)
                raise DamageError(
                    f"its log no longer replays at move {i} ({quote(text)}): the game's rules fail on it "
                    "(details in the server log)"
                ) from None
            live.actions.append(text)
            live.events.append(events.action_record(game, before, action, text, len(live.actions)))
            if game.current_player(live.state) == TERMINAL:
                live.events.append(events.game_over_record(game, live.state, len(live.actions)))

    def _quarantine(self, live: LiveMatch, reason: str) -> None:
        live.damage = reason[:300]
        log.warning("match %s quarantined: %s", live.match_id, live.damage)
        if live.game is None:

            class _Unknown:  # a stand-in so the match can still be shown
                info = convert.unknown_game_info(live.name or "?")

            live.game = _Unknown()  # type: ignore[assignment]
        with contextlib.suppress(StorageError), self._transaction("the quarantine mark") as sql:
            sql(
                "UPDATE matches SET status = 'damaged', damage = ?, summarized = 1 WHERE match_id = ?",
                (live.damage, live.match_id),
            )
            self.db.queue(sql, live.match_id, None)

    def _summarize(self, live: LiveMatch) -> None:
        # A cache of the match (listings read it), rewritten when it is not what the log says. Only
        # if no process has logged more meanwhile (their summary is newer): the match's row is held
        # while the log is counted. A storage fault leaves the old one.
        with contextlib.suppress(StorageError), self._transaction("the match's summary") as sql:
            self.db.lock_match(sql, live.match_id)
            ((logged,),) = sql("SELECT COUNT(*) FROM log WHERE match_id = ?", (live.match_id,))
            if int(logged) == live.logged:
                sql(
                    "UPDATE matches SET status = ?, moves = ?, to_move = ?, resigned_seat = ?, "
                    "returns_json = ?, damage = '', summarized = 1 WHERE match_id = ?",
                    (*summary(live), live.match_id),
                )

    def _record_resign(self, live: LiveMatch, seat: int) -> None:
        live.resigned_seat = seat
        live.events.extend(events.resign_record(seat, len(live.actions), live.returns()))
        live.version += 1

    def _changed(self, live: LiveMatch) -> None:
        for fn in self.on_change:
            fn(live)
