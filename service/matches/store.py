"""Hosted matches in SQLite: an append-only action log, and a summary row per match.

Storage (stdlib ``sqlite3``, WAL, ``synchronous=FULL``): ``matches`` holds each match's setup
(with its secret seed), seats and secrets' hashes, written once, plus a summary kept with every
append (status, moves, the seat to move, returns, damage) so that listings never replay a log;
``log`` holds every action, chance outcome and resignation as one row keyed by
``(match_id, seq)`` and is never updated. A match is its setup replayed through its log: an
acknowledged action (committed before the RPC answers) survives a SIGKILL, and the key makes a
double move impossible even across processes.

A match whose log no longer replays (a content pack or the rules changed) is quarantined: it is
marked ``damaged`` with the reason, shown as such, and nothing else is affected.

The store fails loudly: a database it cannot write or read is refused when it opens
(:class:`StoreError`, one line).
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games.core import CHANCE, TERMINAL, make_rng
from games.core.rng import derive_seed
from games.errors import LictorError, NotFoundError, WrongSeatError
from lictor.v1 import match_service_pb2 as match_pb
from lictor.v1 import position_pb2 as pos_pb
from service import convert, events
from service.errors import RequestError, StaleMoveError
from service.matches.model import LiveMatch, SeatSpec, commitment, hash_secret

__all__ = ["ListedMatch", "MatchStore", "StoreError"]

log = logging.getLogger("lictor.matches")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    match_id     TEXT PRIMARY KEY,
    game         TEXT NOT NULL,
    setup_json   TEXT NOT NULL,
    seats_json   TEXT NOT NULL,
    created_at   REAL NOT NULL,
    seat_secrets_json TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS log (
    match_id     TEXT NOT NULL REFERENCES matches(match_id),
    seq          INTEGER NOT NULL,
    kind         TEXT NOT NULL CHECK (kind IN ('action', 'chance', 'resign')),
    seat         INTEGER NOT NULL,
    action       TEXT NOT NULL,
    at           REAL NOT NULL,
    PRIMARY KEY (match_id, seq)
);
CREATE INDEX IF NOT EXISTS matches_by_time ON matches(created_at);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""

_ADDED_COLUMNS: tuple[tuple[str, str], ...] = (
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
"""Columns added to ``matches`` since the first schema: a database from an older server gets them
when it opens (its matches are summarized on first listing)."""

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
MAX_CHANCE_STEPS = 10_000
FINISHED_KEPT = 256
"""Finished or damaged matches kept in memory (active ones always are)."""


class StoreError(Exception):
    """The database cannot be used (unreadable, not a database, read-only): one line to print."""


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
    """Matches in SQLite plus their live copies in memory. Thread-safe."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        try:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=10.0)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(_SCHEMA)
            self._migrate()
            # Refuse a database that opens but cannot be written (a read-only file or directory):
            # better now, in one line, than INTERNAL on every write later.
            self._db.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES ('opened_at', ?)", (repr(time.time()),)
            )
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(f"cannot use the match database {self.path!r}: {exc}") from None
        self._db_lock = threading.Lock()
        self._live: OrderedDict[str, LiveMatch] = OrderedDict()
        self._live_lock = threading.Lock()
        self.on_change: list[Callable[[LiveMatch], None]] = []

    def _migrate(self) -> None:
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(matches)")}
        for name, decl in _ADDED_COLUMNS:
            if name not in columns:
                self._db.execute(f"ALTER TABLE matches ADD COLUMN {name} {decl}")
        self._db.execute("CREATE INDEX IF NOT EXISTS matches_by_status ON matches(status, creator)")

    def close(self) -> None:
        """Close the database."""
        with self._db_lock:
            self._db.close()

    # ------------------------------------------------------------------------------ reading
    def get(self, match_id: str, *, field_name: str = "match_id") -> LiveMatch:
        """The live match (loaded and replayed on first use); NotFoundError if unknown."""
        if not match_id:
            raise RequestError("match_id is required", field=field_name)
        with self._live_lock:
            live = self._live.get(match_id)
            if live is not None:
                self._live.move_to_end(match_id)
                return live
        live = self._load(match_id, field_name)
        with self._live_lock:
            live = self._live.setdefault(match_id, live)
            self._trim()
        return live

    def _trim(self) -> None:
        # Caller holds _live_lock. Active matches stay (the AI plays them); the oldest-used of the
        # others go beyond FINISHED_KEPT.
        idle = [k for k, m in self._live.items() if m.finished or m.damage]
        for key in idle[: max(0, len(idle) - FINISHED_KEPT)]:
            del self._live[key]

    def _load(self, match_id: str, field_name: str) -> LiveMatch:
        with self._db_lock:
            row = self._db.execute(
                "SELECT game, setup_json, seats_json, created_at, seat_secrets_json, client_seed "
                "FROM matches WHERE match_id = ?",
                (match_id,),
            ).fetchone()
            rows = self._db.execute(
                "SELECT kind, seat, action FROM log WHERE match_id = ? ORDER BY seq", (match_id,)
            ).fetchall()
        if row is None:
            raise NotFoundError(f"no match {match_id[:64]!r}", field=field_name)
        name, setup_json, seats_json, created_at, secrets_json, client_seed = row
        setup_d = json.loads(setup_json)
        setup = convert.Setup(players=setup_d["players"], options=setup_d["options"], seed=setup_d["seed"])
        seats = tuple(SeatSpec(**s) for s in json.loads(seats_json))
        live = LiveMatch(
            match_id=match_id,
            name=name,
            game=None,  # type: ignore[arg-type]  # set below, or the match is damaged
            setup=setup,
            seats=seats,
            created_at=created_at,
            state=None,
            client_seed=bool(client_seed),
            secret_hashes=tuple(json.loads(secrets_json)) if secrets_json else (),
        )
        try:
            live.game = convert.lookup_game(name)
            live.state = convert.new_game(live.game, setup, field="setup")
            live.events.append(_created(live))
            self._replay(live, rows)
        except LictorError as exc:
            self._quarantine(live, f"its log no longer replays: {exc}")
        except Exception as exc:  # a bug in a game must not take the listing down either
            log.exception("match %s does not replay", match_id)
            self._quarantine(live, f"its log no longer replays: {type(exc).__name__}")
        else:
            self._summarize(live)
        return live

    def _replay(self, live: LiveMatch, rows: Iterable[tuple[str, int, str]]) -> None:
        game = live.game
        for kind, seat, text in rows:
            if kind == "resign":
                self._record_resign(live, seat)
                continue
            before = live.state
            action = game.parse_action(before, text)
            live.state = game.apply(before, action)
            live.actions.append(text)
            live.events.append(events.action_record(game, before, action, text, len(live.actions)))
            if game.current_player(live.state) == TERMINAL:
                live.events.append(events.game_over_record(game, live.state, len(live.actions)))

    def _quarantine(self, live: LiveMatch, reason: str) -> None:
        live.damage = reason[:300]
        log.warning("match %s quarantined: %s", live.match_id, live.damage)
        if live.game is None:

            class _Unknown:  # a stand-in so the match can still be shown
                info = convert.unknown_game_info(live.name)

            live.game = _Unknown()  # type: ignore[assignment]
        with self._db_lock:
            self._db.execute(
                "UPDATE matches SET status = 'damaged', damage = ?, summarized = 1 WHERE match_id = ?",
                (live.damage, live.match_id),
            )

    def _summarize(self, live: LiveMatch) -> None:
        with self._db_lock:
            self._db.execute(
                "UPDATE matches SET status = ?, moves = ?, to_move = ?, resigned_seat = ?, returns_json = ?, "
                "damage = '', summarized = 1 WHERE match_id = ?",
                (*_summary(live), live.match_id),
            )

    def list_page(self, *, game: str, offset: int, limit: int) -> list[ListedMatch]:
        """Matches newest first, from their summary rows (a match never summarized is loaded once)."""
        query = f"SELECT {_LISTED} FROM matches "
        args: tuple[Any, ...] = (limit, offset)
        if game:
            query += "WHERE game = ? "
            args = (game, *args)
        query += "ORDER BY created_at DESC, match_id LIMIT ? OFFSET ?"
        with self._db_lock:
            rows = self._db.execute(query, args).fetchall()
        out = []
        for row in rows:
            match_id, name = row[0], row[1]
            if not row[-1]:  # from an older database: summarize it once
                self.get(match_id)
                with self._db_lock:
                    row = self._db.execute(
                        f"SELECT {_LISTED} FROM matches WHERE match_id = ?", (match_id,)
                    ).fetchone()
            out.append(ListedMatch(match_id=match_id, game=name, message=_listed_pb(row)))
        return out

    def active_ids(self) -> list[str]:
        """Ids of the matches still being played."""
        with self._db_lock:
            rows = self._db.execute(
                "SELECT match_id FROM matches WHERE status = 'active' ORDER BY created_at"
            ).fetchall()
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
        with self._db_lock:
            (n,) = self._db.execute(query, args).fetchone()
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
        ``client_seed``).
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
        with self._db_lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute(
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
                self._write_rows(live, 0, rows)
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        self._advance(live, rows)
        with self._live_lock:
            self._live[match_id] = live
            self._trim()
        self._changed(live)
        return live

    def submit(
        self, live: LiveMatch, *, seat: int, expected_move_number: int, action_msg: Any, by_ai: bool = False
    ) -> list[events.EventRecord]:
        """Append one seat's action (checked), then the chance outcomes after it. Returns the events."""
        with live.lock:
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
            with self._db_lock:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    self._write_rows(live, len(live.actions), rows)
                    self._db.execute("COMMIT")
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
            self._advance(live, rows)
            new = live.events[start:]
        self._changed(live)
        return new

    def resign(self, live: LiveMatch, seat: int) -> None:
        """A seat resigns; the match ends."""
        with live.lock:
            if live.damage:
                raise WrongSeatError(f"the match is damaged ({live.damage})", field="match_id")
            if live.finished:
                raise WrongSeatError("the match is already over", field="match_id")
            if not 0 <= seat < len(live.seats):
                raise RequestError(f"seat {seat!r} is not in 0..{len(live.seats) - 1}", field="seat")
            with self._db_lock:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    self._insert(live, len(live.actions), "resign", seat, "resign")
                    live.resigned_seat = seat
                    self._db.execute(
                        "UPDATE matches SET status = ?, moves = ?, to_move = ?, resigned_seat = ?, "
                        "returns_json = ? WHERE match_id = ?",
                        (*_summary(live), live.match_id),
                    )
                    self._db.execute("COMMIT")
                except BaseException:
                    live.resigned_seat = -1
                    self._db.execute("ROLLBACK")
                    raise
            live.resigned_seat = -1
            self._record_resign(live, seat)
        self._changed(live)

    def resume(self) -> list[LiveMatch]:
        """Load every active match (after a restart); quarantines those that no longer replay."""
        out = []
        for match_id in self.active_ids():
            live = self.get(match_id)
            if live.damage or live.finished:
                continue
            out.append(live)
            self._changed(live)
        return out

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

    def _write_rows(self, live: LiveMatch, seq: int, rows: list[_Row]) -> None:
        # Caller holds _db_lock inside a transaction.
        for i, row in enumerate(rows):
            self._insert(live, seq + i, row.kind, row.seat, row.text)
        final = rows[-1].after if rows else live.state
        moves = seq + len(rows)
        player = live.game.current_player(final)
        status = "finished" if player == TERMINAL else "active"
        returns = [float(v) for v in live.game.returns(final)] if player == TERMINAL else []
        self._db.execute(
            "UPDATE matches SET status = ?, moves = ?, to_move = ?, returns_json = ? WHERE match_id = ?",
            (status, moves, player, json.dumps(returns), live.match_id),
        )

    def _insert(self, live: LiveMatch, seq: int, kind: str, seat: int, text: str) -> None:
        try:
            self._db.execute(
                "INSERT INTO log (match_id, seq, kind, seat, action, at) VALUES (?, ?, ?, ?, ?, ?)",
                (live.match_id, seq, kind, seat, text, time.time()),
            )
        except sqlite3.IntegrityError:
            raise StaleMoveError(
                f"move {seq} of match {live.match_id!r} was already played", field="expected_move_number"
            ) from None

    def _advance(self, live: LiveMatch, rows: list[_Row]) -> None:
        # Caller holds live.lock (or owns a new match): the rows are committed; memory follows.
        for row in rows:
            live.state = row.after
            live.actions.append(row.text)
            live.events.append(
                events.action_record(live.game, row.before, row.action, row.text, len(live.actions))
            )
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
        _,
    ) = row
    setup_d = json.loads(setup_json)
    seats = [SeatSpec(**s) for s in json.loads(seats_json)]
    info = convert.game_info_or_unknown(name)
    hides = info.hidden_information or info.stochastic
    revealed = status == "finished" or bool(client_seed) or not hides
    setup = convert.setup_to_pb(
        convert.Setup(players=setup_d["players"], options=setup_d["options"], seed=setup_d["seed"])
    )
    if not revealed:
        setup.seed = 0
    returns = json.loads(returns_json)
    player = TERMINAL if status != "active" else to_move
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
        status=_STATUS.get(status, match_pb.MATCH_STATUS_DAMAGED),
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
        resigned_seat=resigned_seat,
        created_at=created_at,
        view=match_pb.MATCH_VIEW_PUBLIC if info.hidden_information else match_pb.MATCH_VIEW_FULL,
        seat_secrets=any(json.loads(secrets_json)) if secrets_json else False,
        seed_commitment=commitment(match_id, setup_d["seed"]),
        damage=damage,
        seed_revealed=revealed,
    )
