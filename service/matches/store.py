"""Hosted matches: an append-only action log and a summary row per match, in SQLite or PostgreSQL.

Storage (:mod:`service.matches.backend`: SQLite by default, PostgreSQL for replicas): ``matches``
holds each match's setup (with its secret seed), seats and secrets' hashes, written once, plus a
summary kept with every append (status, moves, the seat to move, returns, damage) so that listings
never replay a log; ``log`` holds every action, chance outcome and resignation as one row keyed by
``(match_id, seq)`` and is never updated. A match is its setup replayed through its log: an
acknowledged action (committed before the RPC answers) survives a SIGKILL, and the key makes a
double move impossible even across processes. The SQL here is the dialect both backends share.

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
once per :data:`STORAGE_LOG_EVERY_S`) and when they work again.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeGuard

from games.core import CHANCE, TERMINAL, make_rng
from games.core.rng import derive_seed
from games.errors import LictorError, NotFoundError, WrongSeatError
from lictor.v1 import match_service_pb2 as match_pb
from lictor.v1 import position_pb2 as pos_pb
from service import convert, events
from service.errors import RequestError, StaleMoveError, StorageError, StorageFullError
from service.matches.backend import Database, Due, Fault, Sql, StoreError, open_database
from service.matches.model import MAX_LEVEL, PUBLIC_VIEW, LiveMatch, SeatSpec, commitment, hash_secret

__all__ = ["ListedMatch", "MatchStore", "StoreError"]

log = logging.getLogger("lictor.matches")

_STATUS = {
    "active": match_pb.MATCH_STATUS_ACTIVE,
    "finished": match_pb.MATCH_STATUS_FINISHED,
    "damaged": match_pb.MATCH_STATUS_DAMAGED,
}
_LISTED = (
    "match_id, game, setup_json, seats_json, created_at, seat_secrets_json, status, moves, to_move, "
    "resigned_seat, returns_json, damage, client_seed, summarized"
)
"""The columns a listing reads."""
_LOADED = (
    "game, setup_json, seats_json, created_at, seat_secrets_json, client_seed, "
    "status, moves, to_move, resigned_seat, returns_json, damage, summarized"
)
"""The columns a load reads: the match, then its summary (rewritten only when it is not right)."""
MAX_CHANCE_STEPS = 10_000
FINISHED_KEPT = 256
"""Finished or damaged matches kept in memory (active ones always are, on a database of one's own)."""
SHARED_KEPT = 4096
"""Matches of any status kept in memory on a shared database (others may finish them unseen)."""
BUSY_TIMEOUT_S = 10.0
"""How long a call waits for another connection's lock on the database (or, on PostgreSQL, for a
free connection of the pool) before it fails (UNAVAILABLE)."""
STORAGE_LOG_EVERY_S = 60.0
"""While writes keep failing, the log says so at most once per this many seconds."""
RESIGN_TRIES = 3
"""A resignation that loses a race with another process's move catches up and tries again."""


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


class MatchStore:
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
        self.db: Database = open_database(str(target), busy_timeout_s=BUSY_TIMEOUT_S, pool_size=pool_size)
        self.shared = self.db.shared
        self.path = self.db.target
        self._live: OrderedDict[str, LiveMatch] = OrderedDict()
        self._live_lock = threading.Lock()
        self.on_change: list[Callable[[LiveMatch], None]] = []
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

    # ------------------------------------------------------------------------------ storage
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

    # ------------------------------------------------------------------------------ reading
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
            found = sql(f"SELECT {_LOADED} FROM matches WHERE match_id = ?", (match_id,))
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
        except _DamageError as exc:
            self._quarantine(live, str(exc))
        except Exception:  # a bug must not take the server or the listing down either
            log.exception("match %s does not read back", match_id)
            self._quarantine(live, "it does not read back (details in the server log)")
        else:
            if tuple(row[6:]) != (*_summary(live), "", 1):
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
        except _DamageError as exc:
            self._quarantine(live, str(exc))
        except Exception:
            log.exception("match %s does not read back", live.match_id)
            self._quarantine(live, "it does not read back (details in the server log)")
        live.version += 1
        return True

    def _rebuild(self, live: LiveMatch, row: tuple[Any, ...], rows: list[tuple[Any, ...]]) -> None:
        # The match from its stored row and log; _DamageError says what does not read back.
        name, setup_json, seats_json, created_at, secrets_json, client_seed = row
        if not live.name:
            raise _DamageError("its stored game name is unreadable")
        live.setup = _decode_setup(setup_json)
        live.seats = _decode_seats(seats_json, live.setup.players)
        live.secret_hashes = _decode_secrets(secrets_json, len(live.seats))
        live.created_at = _decode_time(created_at)
        live.client_seed = _decode_flag(client_seed, "seed's origin")
        try:
            live.game = convert.lookup_game(name)
        except LictorError:
            raise _DamageError(f"its game {_quote(name)} is not served by this server") from None
        engines = live.game.policies()
        for i, seat in enumerate(live.seats):
            if seat.engine and seat.engine not in engines:
                raise _DamageError(f"seat {i}'s engine {_quote(seat.engine)} is not an engine of this game")
        try:
            live.state = convert.new_game(live.game, live.setup, field="setup")
        except LictorError as exc:
            raise _DamageError(f"its setup is no longer accepted: {exc.message}") from None
        except Exception:  # a bug in a game: logged, and the match alone is quarantined
            log.exception("match %s: its setup fails", live.match_id)
            raise _DamageError(
                "its setup is no longer accepted: the game's rules fail on it (details in the server log)"
            ) from None
        live.events.append(_created(live))
        self._replay(live, rows)

    def _replay(self, live: LiveMatch, rows: Iterable[tuple[Any, ...]], start: int = 0) -> None:
        # The log rows from seq ``start`` on, applied to the match in memory.
        game = live.game
        for i, (seq, kind, seat, text) in enumerate(rows, start):
            where = f"move {i} of its log"
            if seq != i:
                raise _DamageError(f"its log misses move {i}")
            if live.finished:
                raise _DamageError(f"{where} comes after the end of the match")
            if kind == "resign":
                if not (_is_int(seat) and 0 <= seat < len(live.seats)):
                    raise _DamageError(f"{where} is a resignation of no seat of the match")
                self._record_resign(live, seat)
                continue
            if kind not in ("action", "chance") or not isinstance(text, str):
                raise _DamageError(f"{where} is unreadable")
            try:
                before = live.state
                action = game.parse_action(before, text)
                live.state = game.apply(before, action)
            except LictorError as exc:
                raise _DamageError(
                    f"its log no longer replays at move {i} ({_quote(text)}): {exc.message}"
                ) from None
            except Exception:  # a bug in a game: logged, and the match alone is quarantined
                log.exception("match %s does not replay at move %d", live.match_id, i)
                raise _DamageError(
                    f"its log no longer replays at move {i} ({_quote(text)}): the game's rules fail on it "
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
                    (*_summary(live), live.match_id),
                )

    def list_page(self, *, game: str, offset: int, limit: int) -> list[ListedMatch]:
        """Matches newest first, from their summary rows. A match whose row does not read back as
        it was written (never summarized, or a damaged column) is loaded: it shows what GetMatch
        shows (quarantined, if it is damaged)."""
        query = f"SELECT {_LISTED} FROM matches "
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
                message = _listed_pb(row)
            except _DamageError:
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

    # ------------------------------------------------------------------------------ writing
    def create(
        self,
        name: str,
        setup: convert.Setup,
        seats: tuple[SeatSpec, ...],
        *,
        seat_secrets: dict[int, str] | None = None,
        client_seed: bool = False,
        creator: str = "",
    ) -> LiveMatch:
        """Create and persist a match, then resolve any chance nodes at its start.

        ``seat_secrets``: seat -> secret; only their hashes are stored. ``setup.seed`` is kept in
        the database and shown only as its commitment until the match is over (unless
        ``client_seed``). A storage fault (StorageError) leaves no trace of the match.
        """
        game = convert.lookup_game(name)
        state = convert.new_game(game, setup, field="")
        match_id = uuid.uuid4().hex
        now = time.time()
        hashes = (
            tuple(hash_secret(seat_secrets[i]) if i in seat_secrets else "" for i in range(len(seats)))
            if seat_secrets
            else ()
        )
        live = LiveMatch(
            match_id=match_id,
            name=name,
            game=game,
            setup=setup,
            seats=seats,
            created_at=now,
            state=state,
            client_seed=client_seed,
            secret_hashes=hashes,
        )
        live.events.append(_created(live))
        rows = self._chance_rows(live)
        with self._transaction("the new match") as sql:
            sql(
                "INSERT INTO matches (match_id, game, setup_json, seats_json, created_at, "
                "seat_secrets_json, client_seed, creator, summarized) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1)",
                (
                    match_id,
                    name,
                    json.dumps({"players": setup.players, "options": setup.options, "seed": setup.seed}),
                    json.dumps([s.to_json() for s in seats]),
                    now,
                    json.dumps(list(hashes)) if hashes else "",
                    int(client_seed),
                    creator[:64],
                ),
            )
            self._write_rows(sql, live, 0, rows)
        self._advance(live, rows)
        with self._live_lock:
            self._live[match_id] = live
            self._trim()
        self._changed(live)
        return live

    def submit(
        self, live: LiveMatch, *, seat: int, expected_move_number: int, action_msg: Any, by_ai: bool = False
    ) -> list[events.EventRecord]:
        """Append one seat's action (checked), then the chance outcomes after it. Returns the events.

        The match first catches up with what other processes logged. A storage fault
        (StorageError) leaves the match as it was, in memory and on disk.
        """
        with live.lock:
            self._catch_up(live)
            if live.damage:
                raise WrongSeatError(
                    f"the match is damaged ({live.damage}); no action is accepted", field="match_id"
                )
            if expected_move_number != len(live.actions):
                raise StaleMoveError(
                    f"expected_move_number {expected_move_number!r} is stale; the match is at move "
                    f"{len(live.actions)}",
                    field="expected_move_number",
                )
            if live.finished:
                raise WrongSeatError("the match is over; no action is legal", field="match_id")
            player = live.game.current_player(live.state)
            if not 0 <= seat < len(live.seats):
                raise RequestError(f"seat {seat!r} is not in 0..{len(live.seats) - 1}", field="seat")
            if seat != player:
                who = "a chance outcome" if player == CHANCE else f"seat {player}"
                raise WrongSeatError(f"it is {who}'s turn, not seat {seat}'s", field="seat")
            if live.seats[seat].ai and not by_ai:
                raise WrongSeatError(f"seat {seat} is played by the server's AI", field="seat")
            action = convert.parse_action(live.game, live.state, action_msg, field="action")
            text = live.game.action_to_text(live.state, action)
            where = "action" if isinstance(action_msg, str) else f"action.{action_msg.WhichOneof('kind')}"
            after = convert.apply_checked(live.game, live.state, action, field=where)
            start = len(live.events)
            rows = [_Row("action", seat, text, live.state, action, after)]
            rows += self._chance_rows(live, after=after, move=len(live.actions) + 1)
            with self._transaction("the action") as sql:
                self._write_rows(sql, live, len(live.actions), rows)
            self._advance(live, rows)
            new = live.events[start:]
        self._changed(live)
        return new

    def resign(self, live: LiveMatch, seat: int) -> None:
        """A seat resigns; the match ends (a storage fault: StorageError, and it goes on)."""
        with live.lock:
            for attempt in range(RESIGN_TRIES):
                self._catch_up(live)
                if live.damage:
                    raise WrongSeatError(f"the match is damaged ({live.damage})", field="match_id")
                if live.finished:
                    raise WrongSeatError("the match is already over", field="match_id")
                if not 0 <= seat < len(live.seats):
                    raise RequestError(f"seat {seat!r} is not in 0..{len(live.seats) - 1}", field="seat")
                live.resigned_seat = seat  # (under live.lock: nobody sees it before it is restored)
                summary = _summary(live)
                live.resigned_seat = -1
                try:
                    with self._transaction("the resignation") as sql:
                        self._insert(sql, live, len(live.actions), kind="resign", seat=seat, text="resign")
                        sql(
                            "UPDATE matches SET status = ?, moves = ?, to_move = ?, resigned_seat = ?, "
                            "returns_json = ? WHERE match_id = ?",
                            (*summary, live.match_id),
                        )
                        self.db.queue(sql, live.match_id, None)
                except StaleMoveError:  # another process moved first: catch up, resign after its move
                    if attempt == RESIGN_TRIES - 1:
                        raise
                    continue
                break
            self._record_resign(live, seat)
        self._changed(live)

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

    # ------------------------------------------------------------------------------ internals
    def _record_resign(self, live: LiveMatch, seat: int) -> None:
        live.resigned_seat = seat
        live.events.extend(events.resign_record(seat, len(live.actions), live.returns()))
        live.version += 1

    def _chance_rows(self, live: LiveMatch, *, after: Any = None, move: int | None = None) -> list[_Row]:
        # Dice are drawn from the match seed and the move number: a replay draws the same.
        state = live.state if after is None else after
        move = len(live.actions) if move is None else move
        rows: list[_Row] = []
        game = live.game
        while game.current_player(state) == CHANCE and len(rows) < MAX_CHANCE_STEPS:
            rng = make_rng(derive_seed(live.setup.seed, "chance", move))
            outcome = game.sample_chance(state, rng)
            nxt = game.apply(state, outcome)
            rows.append(_Row("chance", CHANCE, game.action_to_text(state, outcome), state, outcome, nxt))
            state = nxt
            move += 1
        return rows

    def _write_rows(self, sql: Sql, live: LiveMatch, seq: int, rows: list[_Row]) -> None:
        # Inside a transaction: the rows, the summary, the AI turn's queue.
        for i, row in enumerate(rows):
            self._insert(sql, live, seq + i, kind=row.kind, seat=row.seat, text=row.text)
        final = rows[-1].after if rows else live.state
        moves = seq + len(rows)
        player = live.game.current_player(final)
        status = "finished" if player == TERMINAL else "active"
        returns = [float(v) for v in live.game.returns(final)] if player == TERMINAL else []
        sql(
            "UPDATE matches SET status = ?, moves = ?, to_move = ?, returns_json = ? WHERE match_id = ?",
            (status, moves, player, json.dumps(returns), live.match_id),
        )
        due = player >= 0 and live.seats[player].ai
        self.db.queue(sql, live.match_id, Due(move=moves, heavy=live.seats[player].heavy) if due else None)

    def _insert(self, sql: Sql, live: LiveMatch, seq: int, *, kind: str, seat: int, text: str) -> None:
        try:
            sql(
                "INSERT INTO log (match_id, seq, kind, seat, action, at) VALUES (?, ?, ?, ?, ?, ?)",
                (live.match_id, seq, kind, seat, text, time.time()),
            )
        except self.db.conflict:
            raise StaleMoveError(
                f"move {seq} of match {live.match_id!r} was already played", field="expected_move_number"
            ) from None

    def _advance(self, live: LiveMatch, rows: list[_Row]) -> None:
        # Caller holds live.lock (or owns a new match): the rows are committed; memory follows.
        for row in rows:
            live.state = row.after
            live.actions.append(row.text)
            record = events.action_record(live.game, row.before, row.action, row.text, len(live.actions))
            record.seen_by(live.game)  # found here, off the event loop: every watcher's event reads it
            live.events.append(record)
            if live.game.current_player(row.after) == TERMINAL:
                live.events.append(events.game_over_record(live.game, row.after, len(live.actions)))
        live.version += 1

    def _changed(self, live: LiveMatch) -> None:
        for fn in self.on_change:
            fn(live)


@dataclass(frozen=True, slots=True)
class _Row:
    kind: str
    seat: int
    text: str
    before: Any
    action: Any
    after: Any


# ---------------------------------------------------------------------------------- stored rows
class _DamageError(Exception):
    """A stored match that does not read back; the message says what, for a person."""


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _quote(value: Any, cap: int = 40) -> str:
    text = str(value)
    return repr(text if len(text) <= cap else text[: cap - 3] + "...")


def _json(text: Any, what: str) -> Any:
    if not isinstance(text, str):
        raise _DamageError(f"its stored {what} is not text")
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise _DamageError(f"its stored {what} is not JSON") from None


def _decode_setup(text: Any) -> convert.Setup:
    d = _json(text, "setup")
    if not isinstance(d, dict):
        raise _DamageError("its stored setup is not an object")
    players, options, seed = d.get("players"), d.get("options"), d.get("seed")
    if not (_is_int(players) and 1 <= players <= 1024):
        raise _DamageError("its stored setup has no valid player count")
    if not isinstance(options, dict) or not all(_option_ok(v) for v in options.values()):
        raise _DamageError("its stored setup's options are unreadable")
    if not (_is_int(seed) and 0 <= seed < 2**64):
        raise _DamageError("its stored setup has no valid seed")
    return convert.Setup(players=players, options=options, seed=seed)


def _option_ok(value: Any) -> bool:
    if _is_int(value):
        return bool(-(2**63) <= value < 2**63)
    return isinstance(value, (bool, float, str))


def _decode_seats(text: Any, players: int) -> tuple[SeatSpec, ...]:
    items = _json(text, "seats")
    if not isinstance(items, list) or not all(isinstance(s, dict) for s in items):
        raise _DamageError("its stored seats are unreadable")
    if len(items) != players:
        raise _DamageError(f"it stores {len(items)} seats for {players} players")
    seats = []
    for i, s in enumerate(items):
        ai, level, name, engine = s.get("ai"), s.get("level", 5), s.get("name", ""), s.get("engine", "")
        if not isinstance(ai, bool) or not (_is_int(level) and 1 <= level <= MAX_LEVEL):
            raise _DamageError(f"its stored seat {i} is unreadable")
        if not isinstance(name, str) or not isinstance(engine, str):
            raise _DamageError(f"its stored seat {i} is unreadable")
        seats.append(SeatSpec(ai=ai, level=level, name=name, engine=engine))
    return tuple(seats)


def _decode_secrets(text: Any, seats: int) -> tuple[str, ...]:
    if text == "":
        return ()
    hashes = _json(text, "seat secrets")
    if not isinstance(hashes, list) or len(hashes) != seats or not all(isinstance(h, str) for h in hashes):
        raise _DamageError("its stored seat secrets are unreadable")
    return tuple(hashes)


def _decode_time(value: Any) -> float:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
        raise _DamageError("its stored creation time is not a time")
    return float(value)


def _decode_flag(value: Any, what: str) -> bool:
    if value not in (0, 1) or not _is_int(value):
        raise _DamageError(f"its stored {what} is unreadable")
    return bool(value)


def _decode_int(value: Any, what: str, low: int = -(2**31), high: int = 2**31 - 1) -> int:
    if not (_is_int(value) and low <= value <= high):
        raise _DamageError(f"its stored {what} is unreadable")
    return int(value)


def _decode_returns(text: Any) -> list[float]:
    values = _json(text, "returns")
    if not isinstance(values, list) or not all(
        isinstance(v, (int, float)) and not isinstance(v, bool) for v in values
    ):
        raise _DamageError("its stored returns are unreadable")
    return [float(v) for v in values]


def _summary(live: LiveMatch) -> tuple[str, int, int, int, str]:
    status = "damaged" if live.damage else "finished" if live.finished else "active"
    return status, len(live.actions), live.to_move(), live.resigned_seat, json.dumps(live.returns())


def _created(live: LiveMatch) -> events.EventRecord:
    kinds = ", ".join(
        f"seat {i}: " + (("AI, " + (s.engine or f"level {s.level}")) if s.ai else "human")
        for i, s in enumerate(live.seats)
    )
    return events.created_record(f"{live.game.info.title} match created ({kinds}).")


def _listed_pb(row: tuple[Any, ...]) -> match_pb.Match:
    """A listing's light ``Match`` from its summary row; _DamageError when the row is not as written
    (then the listing loads the match instead)."""
    (
        match_id,
        name,
        setup_json,
        seats_json,
        created_at,
        secrets_json,
        status,
        moves,
        to_move,
        resigned_seat,
        returns_json,
        damage,
        client_seed,
        summarized,
    ) = row
    if not summarized or status not in _STATUS or not isinstance(damage, str):
        raise _DamageError("no summary")
    try:
        info = convert.lookup_game(name).info
    except LictorError:
        raise _DamageError("no game") from None
    setup_d = _decode_setup(setup_json)
    seats = _decode_seats(seats_json, setup_d.players)
    revealed = (
        status == "finished"
        or _decode_flag(client_seed, "seed's origin")
        or not (info.hidden_information or info.stochastic)
    )
    setup = convert.setup_to_pb(setup_d)
    if not revealed:
        setup.seed = 0
    returns = _decode_returns(returns_json)
    moves = _decode_int(moves, "move count", 0)
    player = TERMINAL if status != "active" else _decode_int(to_move, "seat to move")
    return match_pb.Match(
        match_id=match_id,
        game=name,
        seats=[
            match_pb.Seat(
                kind=match_pb.SEAT_KIND_AI if s.ai else match_pb.SEAT_KIND_HUMAN,
                level=s.level if s.ai else 0,
                name=s.name,
                engine=s.engine,
            )
            for s in seats
        ],
        setup=setup,
        status=_STATUS[status],
        move_number=moves,
        summary=pos_pb.PositionSummary(
            game=name,
            players=len(seats),
            current_player=player,
            chance=player == CHANCE,
            terminal=player == TERMINAL,
            returns=returns,
            move_number=moves,
        ),
        returns=returns,
        resigned_seat=_decode_int(resigned_seat, "resigned seat"),
        created_at=_decode_time(created_at),
        view=match_pb.MATCH_VIEW_PUBLIC if info.hidden_information else match_pb.MATCH_VIEW_FULL,
        seat_secrets=any(_decode_secrets(secrets_json, len(seats))),
        seed_commitment=commitment(match_id, setup_d.seed),
        damage=damage,
        seed_revealed=revealed,
    )
