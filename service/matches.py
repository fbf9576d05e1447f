# ruff: noqa: N802  (gRPC servicer methods are named after the RPCs)
"""MatchService: hosted matches in SQLite (an append-only action log) with AI seats that move alone.

Storage (stdlib ``sqlite3``, WAL, ``synchronous=FULL``): ``matches`` holds each match's setup and
seats (written once); ``log`` holds every action, chance outcome and resignation as one row keyed
by ``(match_id, seq)`` and is never updated. A match is its setup replayed through its log, so an
acknowledged action (committed before the RPC answers) survives a SIGKILL; on restart the AI
worker picks up every active match whose seat to move is an AI seat.

Seat secrets (``CreateMatchRequest.issue_seat_secrets``): one random secret per human seat, shown
once in CreateMatch's answer; ``matches.seat_secrets_json`` keeps only their SHA-256 hashes (a list
by seat, "" for a seat without one). A database from before the column is migrated on open (the
column is added; its matches have no secrets).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import queue
import secrets
import sqlite3
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeAlias

import grpc

from games.core import CHANCE, TERMINAL, Game, make_rng
from games.core.rng import derive_seed
from games.errors import LictorError, NotFoundError, WrongSeatError
from lictor.v1 import match_service_pb2 as match_pb
from lictor.v1 import match_service_pb2_grpc as match_grpc
from lictor.v1 import position_pb2 as pos_pb
from service import ai, convert
from service.errors import PermissionDeniedError, RequestError, StaleMoveError, grpc_errors
from service.game import action_event, game_over_event

__all__ = ["AiWorker", "LiveMatch", "MatchServicer", "MatchStore"]

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
"""

MAX_SEATS_LEVEL = 10
SECRET_BYTES = 32
"""Random bytes in a seat secret (URL-safe base64 text)."""


def hash_secret(secret: str) -> str:
    """The SHA-256 hex digest a seat secret is stored as (secrets are random: no salt needed)."""
    return hashlib.sha256(secret.encode()).hexdigest()


def _migrate(db: sqlite3.Connection) -> None:
    """Bring a database written by an older server up to the current schema (idempotent)."""
    columns = {row[1] for row in db.execute("PRAGMA table_info(matches)")}
    if "seat_secrets_json" not in columns:
        db.execute("ALTER TABLE matches ADD COLUMN seat_secrets_json TEXT NOT NULL DEFAULT ''")


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatSpec:
    """One seat of a match.

    Attributes:
        ai: True when the server's AI plays it.
        level: AI strength 1..10.
        name: display name.
    """

    ai: bool
    level: int = 5
    name: str = ""


View: TypeAlias = int
"""How much of a match to show: a seat (its observation), FULL_VIEW or PUBLIC_VIEW."""
FULL_VIEW: View = -1
PUBLIC_VIEW: View = -2


@dataclass(slots=True, kw_only=True)
class LiveMatch:
    """A match in memory (rebuilt from the log on load). Mutated only under ``cond``.

    Attributes:
        match_id: the id.
        name: the game name.
        game: the game.
        setup: the setup.
        seats: the seats.
        created_at: Unix seconds.
        state: the current state.
        actions: every action and chance outcome in notation.
        resigned_seat: the seat that resigned, or -1.
        events: every event so far (CREATED first).
        secret_hashes: per seat, the SHA-256 hex digest of its secret ("" = none; empty = no secrets).
        cond: guards the fields above; notified on every change.
    """

    match_id: str
    name: str
    game: Game[Any, Any]
    setup: convert.Setup
    seats: tuple[SeatSpec, ...]
    created_at: float
    state: Any
    actions: list[str] = field(default_factory=list)
    resigned_seat: int = -1
    events: list[pos_pb.Event] = field(default_factory=list)
    secret_hashes: tuple[str, ...] = ()
    cond: threading.Condition = field(default_factory=threading.Condition)

    @property
    def has_secrets(self) -> bool:
        """Whether requests naming a seat must carry its secret."""
        return any(self.secret_hashes)

    def check_secret(self, seat: int, given: str, *, field: str = "seat_secret", what: str = "act") -> None:
        """PermissionDeniedError unless ``given`` is ``seat``'s secret (no-op without seat secrets).

        A seat out of range is left to the caller's own check; an AI seat has no secret, so nobody
        may act or look as it in a match with seat secrets.
        """
        if not self.has_secrets or not 0 <= seat < len(self.seats):
            return
        expected = self.secret_hashes[seat] if seat < len(self.secret_hashes) else ""
        if not expected:
            if what == "act" and self.seats[seat].ai:
                return  # SubmitAction refuses an AI seat itself (FAILED_PRECONDITION)
            raise PermissionDeniedError(
                f"seat {seat} is an AI seat: in a match with seat secrets nobody may {what} as it",
                field=field,
            )
        if not given:
            raise PermissionDeniedError(
                f"this match has seat secrets: send seat {seat}'s secret as {field} to {what} as it",
                field=field,
            )
        if not hmac.compare_digest(hash_secret(given), expected):
            raise PermissionDeniedError(f"{field} is not seat {seat}'s secret", field=field)

    @property
    def finished(self) -> bool:
        """Whether the match is over."""
        return self.resigned_seat >= 0 or self.game.current_player(self.state) == TERMINAL

    def returns(self) -> list[float]:
        """Final returns (resigner 0, the others share 1), empty while active."""
        n = len(self.seats)
        if self.resigned_seat >= 0:
            share = 1.0 / (n - 1) if n > 1 else 0.0
            return [0.0 if i == self.resigned_seat else share for i in range(n)]
        if self.game.current_player(self.state) == TERMINAL:
            return [float(v) for v in self.game.returns(self.state)]
        return []

    def ai_to_move(self) -> bool:
        """Whether the server must act next (an AI seat or a chance node)."""
        if self.finished:
            return False
        player = self.game.current_player(self.state)
        return player == CHANCE or self.seats[player].ai

    def may_reveal(self) -> bool:
        """Whether the full view may be shown (``reveal_all``): finished, or AI seats only."""
        return self.finished or all(s.ai for s in self.seats)

    def view_of(self, viewer: int | None, reveal_all: bool = False, *, strict: bool = True) -> View:
        """The view a request asks for (see docs/service.md, "Hidden information").

        No secrets, or ``reveal_all`` where allowed: the full view; ``viewer``: that seat's; else the
        public view. ``strict``: a ``reveal_all`` that is not allowed is an error (else: public).
        """
        if not self.game.info.hidden_information:
            return FULL_VIEW
        if viewer is not None:
            return viewer
        if reveal_all:
            if self.may_reveal():
                return FULL_VIEW
            if strict:
                raise WrongSeatError(
                    "reveal_all shows the other seats' secrets: only once the match is finished or "
                    "when every seat is an AI seat; set viewer_seat to see a seat's view",
                    field="reveal_all",
                )
        return PUBLIC_VIEW

    def to_pb(self, view: View = PUBLIC_VIEW) -> match_pb.Match:
        """The match as its message, in ``view`` (a seat, FULL_VIEW or PUBLIC_VIEW)."""
        if not self.game.info.hidden_information:
            view = FULL_VIEW
        setup = convert.setup_to_pb(self.setup)
        if view == FULL_VIEW:
            kind = match_pb.MATCH_VIEW_FULL
            position = convert.record_position(self.name, self.setup, self.actions)
            summary = convert.summary_of(self.game, self.name, self.state, len(self.actions))
        else:
            setup.seed = 0  # the seed would reveal the secrets
            player = self.game.current_player(self.state)
            if view == PUBLIC_VIEW:
                kind = match_pb.MATCH_VIEW_PUBLIC
                position = pos_pb.Position(game=self.name)
                summary = pos_pb.PositionSummary(
                    game=self.name,
                    players=len(self.seats),
                    current_player=player,
                    chance=player == CHANCE,
                    terminal=player == TERMINAL,
                    returns=self.returns(),
                    move_number=len(self.actions),
                )
            else:
                kind = match_pb.MATCH_VIEW_SEAT
                shown = self.game.observation(self.state, view)
                position = pos_pb.Position(
                    game=self.name, state_json=json.dumps(self.game.to_dict(shown), sort_keys=True)
                )
                summary = convert.summary_of(self.game, self.name, shown, len(self.actions))
        msg = match_pb.Match(
            match_id=self.match_id,
            game=self.name,
            seats=[
                match_pb.Seat(
                    kind=match_pb.SEAT_KIND_AI if s.ai else match_pb.SEAT_KIND_HUMAN,
                    level=s.level if s.ai else 0,
                    name=s.name,
                )
                for s in self.seats
            ],
            setup=setup,
            status=match_pb.MATCH_STATUS_FINISHED if self.finished else match_pb.MATCH_STATUS_ACTIVE,
            move_number=len(self.actions),
            position=position,
            summary=summary,
            returns=self.returns(),
            resigned_seat=self.resigned_seat,
            created_at=self.created_at,
            view=kind,
            seat_secrets=self.has_secrets,
        )
        return msg

    def check_viewer(self, request: Any) -> int | None:
        """The request's ``viewer_seat`` (None when unset); RequestError when not a seat."""
        if not request.HasField("viewer_seat"):
            return None
        seat = int(request.viewer_seat)
        if not 0 <= seat < len(self.seats):
            raise RequestError(
                f"viewer_seat {seat!r} is not in 0..{len(self.seats) - 1}", field="viewer_seat"
            )
        return seat

    def event_for(self, event: pos_pb.Event, view: View) -> pos_pb.Event:
        """An event as ``view`` may see it (chance outcomes hidden unless the full view)."""
        if (
            view == FULL_VIEW
            or not self.game.info.hidden_information
            or event.kind != pos_pb.EVENT_KIND_CHANCE
        ):
            return event
        return pos_pb.Event(
            kind=event.kind, move_number=event.move_number, seat=event.seat, description="chance: (not shown)"
        )


class MatchStore:
    """Matches in SQLite plus their live copies in memory."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=10.0)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(_SCHEMA)
        _migrate(self._db)
        self._db_lock = threading.Lock()
        self._live: dict[str, LiveMatch] = {}
        self._live_lock = threading.Lock()
        self.on_change: list[Any] = []  # callables(match) run after every change (the AI worker)

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
            if live is None:
                live = self._load(match_id, field_name)
                self._live[match_id] = live
            return live

    def _load(self, match_id: str, field_name: str) -> LiveMatch:
        with self._db_lock:
            row = self._db.execute(
                "SELECT game, setup_json, seats_json, created_at, seat_secrets_json FROM matches "
                "WHERE match_id = ?",
                (match_id,),
            ).fetchone()
            rows = self._db.execute(
                "SELECT kind, seat, action FROM log WHERE match_id = ? ORDER BY seq", (match_id,)
            ).fetchall()
        if row is None:
            raise NotFoundError(f"no match {match_id!r}", field=field_name)
        name, setup_json, seats_json, created_at, secrets_json = row
        setup_d = json.loads(setup_json)
        setup = convert.Setup(players=setup_d["players"], options=setup_d["options"], seed=setup_d["seed"])
        seats = tuple(SeatSpec(**s) for s in json.loads(seats_json))
        game = convert.lookup_game(name)
        state = convert.new_game(game, setup, field="setup")
        live = LiveMatch(
            match_id=match_id,
            name=name,
            game=game,
            setup=setup,
            seats=seats,
            created_at=created_at,
            state=state,
            secret_hashes=tuple(json.loads(secrets_json)) if secrets_json else (),
        )
        live.events.append(_created_event(live))
        for kind, seat, text in rows:
            if kind == "resign":
                self._record_resign(live, seat)
                continue
            before = live.state
            action = game.parse_action(before, text)
            live.state = game.apply(before, action)
            live.actions.append(text)
            live.events.append(action_event(game, before, live.state, text, len(live.actions)))
            if game.current_player(live.state) == TERMINAL:
                live.events.append(game_over_event(game, live.state, len(live.actions)))
        return live

    def list_ids(self, *, game: str, offset: int, limit: int) -> list[str]:
        """Match ids, newest first."""
        with self._db_lock:
            if game:
                rows = self._db.execute(
                    "SELECT match_id FROM matches WHERE game = ? "
                    "ORDER BY created_at DESC, match_id LIMIT ? OFFSET ?",
                    (game, limit, offset),
                ).fetchall()
            else:
                rows = self._db.execute(
                    "SELECT match_id FROM matches ORDER BY created_at DESC, match_id LIMIT ? OFFSET ?",
                    (limit, offset),
                ).fetchall()
        return [r[0] for r in rows]

    def active_ids(self) -> list[str]:
        """Ids of matches without a resignation (finished ones are filtered on load)."""
        with self._db_lock:
            rows = self._db.execute(
                "SELECT match_id FROM matches "
                "WHERE match_id NOT IN (SELECT match_id FROM log WHERE kind = 'resign')"
            ).fetchall()
        return [r[0] for r in rows]

    # ------------------------------------------------------------------------------ writing
    def create(
        self,
        name: str,
        setup: convert.Setup,
        seats: tuple[SeatSpec, ...],
        *,
        seat_secrets: dict[int, str] | None = None,
    ) -> LiveMatch:
        """Create and persist a match, then resolve any chance nodes at its start.

        ``seat_secrets``: seat -> secret; only their hashes are stored.
        """
        game = convert.lookup_game(name)
        state = convert.new_game(game, setup, field="")
        match_id = uuid.uuid4().hex
        now = time.time()
        setup_json = json.dumps({"players": setup.players, "options": setup.options, "seed": setup.seed})
        seats_json = json.dumps([{"ai": s.ai, "level": s.level, "name": s.name} for s in seats])
        hashes = (
            tuple(hash_secret(seat_secrets[i]) if i in seat_secrets else "" for i in range(len(seats)))
            if seat_secrets
            else ()
        )
        with self._db_lock:
            self._db.execute(
                "INSERT INTO matches (match_id, game, setup_json, seats_json, created_at, seat_secrets_json) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (match_id, name, setup_json, seats_json, now, json.dumps(list(hashes)) if hashes else ""),
            )
        live = LiveMatch(
            match_id=match_id,
            name=name,
            game=game,
            setup=setup,
            seats=seats,
            created_at=now,
            state=state,
            secret_hashes=hashes,
        )
        live.events.append(_created_event(live))
        with self._live_lock:
            self._live[match_id] = live
        with live.cond:
            self._resolve_chance(live)
            live.cond.notify_all()
        self._changed(live)
        return live

    def submit(
        self, live: LiveMatch, *, seat: int, expected_move_number: int, action_msg: Any, by_ai: bool = False
    ) -> list[pos_pb.Event]:
        """Append one seat's action (checked), then the chance outcomes after it. Returns the events."""
        with live.cond:
            if expected_move_number != len(live.actions):
                raise StaleMoveError(
                    f"expected_move_number {expected_move_number!r} is stale; "
                    f"the match is at move {len(live.actions)}",
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
            self._append(live, "action", seat, text, after)
            self._resolve_chance(live)
            live.cond.notify_all()
            events = live.events[start:]
        self._changed(live)
        return events

    def resign(self, live: LiveMatch, seat: int) -> None:
        """A seat resigns; the match ends."""
        with live.cond:
            if live.finished:
                raise WrongSeatError("the match is already over", field="match_id")
            if not 0 <= seat < len(live.seats):
                raise RequestError(f"seat {seat!r} is not in 0..{len(live.seats) - 1}", field="seat")
            self._insert(live, len(live.actions), "resign", seat, "resign")
            self._record_resign(live, seat)
            live.cond.notify_all()
        self._changed(live)

    def _record_resign(self, live: LiveMatch, seat: int) -> None:
        live.resigned_seat = seat
        live.events.append(
            pos_pb.Event(
                kind=pos_pb.EVENT_KIND_RESIGN,
                move_number=len(live.actions),
                seat=seat,
                description=f"seat {seat} resigns",
            )
        )
        live.events.append(
            pos_pb.Event(
                kind=pos_pb.EVENT_KIND_GAME_OVER,
                move_number=len(live.actions),
                seat=TERMINAL,
                description=f"game over; seat {seat} resigned",
                returns=live.returns(),
            )
        )

    def _insert(self, live: LiveMatch, seq: int, kind: str, seat: int, text: str) -> None:
        try:
            with self._db_lock:
                self._db.execute(
                    "INSERT INTO log (match_id, seq, kind, seat, action, at) VALUES (?, ?, ?, ?, ?, ?)",
                    (live.match_id, seq, kind, seat, text, time.time()),
                )
        except sqlite3.IntegrityError:
            raise StaleMoveError(
                f"move {seq} of match {live.match_id!r} was already played", field="expected_move_number"
            ) from None

    def _append(self, live: LiveMatch, kind: str, seat: int, text: str, after: Any) -> None:
        # Caller holds live.cond. The row is committed (autocommit) before memory changes.
        self._insert(live, len(live.actions), kind, seat, text)
        before = live.state
        live.state = after
        live.actions.append(text)
        live.events.append(action_event(live.game, before, after, text, len(live.actions)))
        if live.game.current_player(after) == TERMINAL:
            live.events.append(game_over_event(live.game, after, len(live.actions)))

    def _resolve_chance(self, live: LiveMatch) -> None:
        # Dice are drawn from the match seed and the move number: a replay draws the same.
        steps = 0
        while not live.finished and live.game.current_player(live.state) == CHANCE and steps < 10_000:
            rng = make_rng(derive_seed(live.setup.seed, "chance", len(live.actions)))
            outcome = live.game.sample_chance(live.state, rng)
            text = live.game.action_to_text(live.state, outcome)
            self._append(live, "chance", CHANCE, text, live.game.apply(live.state, outcome))
            steps += 1

    def _changed(self, live: LiveMatch) -> None:
        for fn in self.on_change:
            fn(live)

    def resume(self) -> list[LiveMatch]:
        """Load every active match (after a restart), resolve pending chance nodes; returns them."""
        out = []
        for match_id in self.active_ids():
            try:
                live = self.get(match_id)
            except LictorError:
                log.exception("cannot load match %s", match_id)
                continue
            if live.finished:
                continue
            with live.cond:
                self._resolve_chance(live)
                live.cond.notify_all()
            out.append(live)
            self._changed(live)
        return out


def _created_event(live: LiveMatch) -> pos_pb.Event:
    kinds = ", ".join(
        f"seat {i}: {'ai level ' + str(s.level) if s.ai else 'human'}" for i, s in enumerate(live.seats)
    )
    return pos_pb.Event(
        kind=pos_pb.EVENT_KIND_CREATED,
        move_number=0,
        seat=TERMINAL,
        description=f"{live.name} match created ({kinds})",
    )


class AiWorker:
    """Background threads that play the AI seats of every active match (one match per thread at a time)."""

    def __init__(self, store: MatchStore, stop: threading.Event, *, threads: int = 2) -> None:
        self.store = store
        self.stop = stop
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._pending: set[str] = set()  # queued, not yet taken
        self._active: set[str] = set()  # being played by a thread
        self._rerun: set[str] = set()  # queued again while active: its thread looks once more
        self._lock = threading.Lock()
        self._threads = [
            threading.Thread(target=self._run, name=f"lictor-ai-worker-{i}", daemon=True)
            for i in range(threads)
        ]
        store.on_change.append(self.notify)

    def start(self) -> None:
        """Start the threads and resume every active match."""
        for t in self._threads:
            t.start()
        self.store.resume()

    def notify(self, live: LiveMatch) -> None:
        """Queue a match when an AI seat is to move."""
        with live.cond:
            due = live.ai_to_move()
        if due:
            with self._lock:
                if live.match_id in self._pending:
                    return
                self._pending.add(live.match_id)
            self._queue.put(live.match_id)

    def close(self, timeout: float = 5.0) -> None:
        """Stop the threads."""
        self.stop.set()
        for _ in self._threads:
            self._queue.put(None)
        for t in self._threads:
            if t.is_alive():
                t.join(timeout)

    def _run(self) -> None:
        while not self.stop.is_set():
            match_id = self._queue.get()
            if match_id is None:
                return
            with self._lock:
                self._pending.discard(match_id)
                if match_id in self._active:
                    self._rerun.add(match_id)
                    continue
                self._active.add(match_id)
            try:
                while True:
                    self._play(self.store.get(match_id))
                    with self._lock:
                        if match_id in self._rerun and not self.stop.is_set():
                            self._rerun.discard(match_id)
                            continue
                        break
            except Exception:
                if not self.stop.is_set():
                    log.exception("AI worker failed on match %s", match_id)
            finally:
                with self._lock:
                    self._active.discard(match_id)
                    self._rerun.discard(match_id)

    def _play(self, live: LiveMatch) -> None:
        while not self.stop.is_set():
            with live.cond:
                if not live.ai_to_move():
                    return
                state, move = live.state, len(live.actions)
                seat = live.game.current_player(state)
                level = live.seats[seat].level if seat >= 0 else 5
            seed = derive_seed(live.setup.seed, "ai", move)
            action, _ = ai.choose(live.game, state, level=level, seed=seed, stop=self.stop)
            if self.stop.is_set():
                return
            text = live.game.action_to_text(state, action)
            try:
                self.store.submit(live, seat=seat, expected_move_number=move, action_msg=text, by_ai=True)
            except StaleMoveError:
                continue  # someone else moved first (a resume race): look again
            except LictorError:
                return  # the match ended meanwhile (a resignation)


def _seats_from_pb(seats: Any) -> tuple[SeatSpec, ...]:
    out = []
    for i, s in enumerate(seats):
        if s.kind == match_pb.SEAT_KIND_UNSPECIFIED:
            raise RequestError(f"seats[{i}].kind is required: HUMAN or AI", field=f"seats[{i}].kind")
        level = s.level or 5
        if not 1 <= level <= MAX_SEATS_LEVEL:
            raise RequestError(f"seats[{i}].level must be 1..10, not {s.level!r}", field=f"seats[{i}].level")
        out.append(SeatSpec(ai=s.kind == match_pb.SEAT_KIND_AI, level=level, name=s.name))
    return tuple(out)


class MatchServicer(match_grpc.MatchServiceServicer):  # type: ignore[misc]
    """Hosted matches over gRPC."""

    def __init__(self, store: MatchStore, server_stop: threading.Event, *, watch_poll_s: float = 0.5) -> None:
        self.store = store
        self.server_stop = server_stop
        self.watch_poll_s = watch_poll_s

    @grpc_errors
    def CreateMatch(
        self, request: match_pb.CreateMatchRequest, context: grpc.ServicerContext
    ) -> match_pb.CreateMatchResponse:
        """Create a match."""
        game = convert.lookup_game(request.game, field="game")
        seats = _seats_from_pb(request.seats)
        if not seats:
            raise RequestError("seats is required: one Seat per player", field="seats")
        setup = convert.Setup(
            players=len(seats), options=convert.options_from_pb(request.options, "options"), seed=request.seed
        )
        try:  # validate first: config errors name their request field
            convert.new_game(game, setup, field="")
        except LictorError as exc:
            exc.field = "seats" if exc.field == "players" else exc.field
            raise
        issued = (
            {i: secrets.token_urlsafe(SECRET_BYTES) for i, s in enumerate(seats) if not s.ai}
            if request.issue_seat_secrets
            else {}
        )
        live = self.store.create(request.game, setup, seats, seat_secrets=issued)
        with live.cond:
            return match_pb.CreateMatchResponse(
                match=live.to_pb(live.view_of(None, strict=False)),
                seat_secrets=[match_pb.SeatSecret(seat=i, secret=v) for i, v in sorted(issued.items())],
            )

    @grpc_errors
    def GetMatch(
        self, request: match_pb.GetMatchRequest, context: grpc.ServicerContext
    ) -> match_pb.GetMatchResponse:
        """A match."""
        live = self.store.get(request.match_id)
        viewer = live.check_viewer(request)
        if viewer is not None:
            live.check_secret(viewer, request.seat_secret, what="look")
        with live.cond:
            return match_pb.GetMatchResponse(match=live.to_pb(live.view_of(viewer, request.reveal_all)))

    @grpc_errors
    def ListMatches(
        self, request: match_pb.ListMatchesRequest, context: grpc.ServicerContext
    ) -> match_pb.ListMatchesResponse:
        """A page of matches, newest first."""
        size = request.page_size or 50
        if not 1 <= size <= 500:
            raise RequestError(f"page_size must be 1..500, not {request.page_size!r}", field="page_size")
        try:
            offset = int(request.page_token or "0")
            if offset < 0:
                raise ValueError
        except ValueError:
            raise RequestError(f"bad page_token {request.page_token!r}", field="page_token") from None
        ids = self.store.list_ids(game=request.game, offset=offset, limit=size + 1)
        matches = []
        for match_id in ids[:size]:
            live = self.store.get(match_id)
            with live.cond:
                matches.append(live.to_pb(live.view_of(None, request.reveal_all, strict=False)))
        token = str(offset + size) if len(ids) > size else ""
        return match_pb.ListMatchesResponse(matches=matches, next_page_token=token)

    @grpc_errors
    def SubmitAction(
        self, request: match_pb.SubmitActionRequest, context: grpc.ServicerContext
    ) -> match_pb.SubmitActionResponse:
        """A human seat's action."""
        live = self.store.get(request.match_id)
        if not request.HasField("action"):
            raise RequestError("the action is required", field="action")
        live.check_secret(request.seat, request.seat_secret)
        events = self.store.submit(
            live,
            seat=request.seat,
            expected_move_number=request.expected_move_number,
            action_msg=request.action,
        )
        with live.cond:
            view = live.view_of(request.seat)
            return match_pb.SubmitActionResponse(
                match=live.to_pb(view), events=[live.event_for(e, view) for e in events]
            )

    @grpc_errors
    def WatchMatch(
        self, request: match_pb.WatchMatchRequest, context: grpc.ServicerContext
    ) -> Iterator[match_pb.WatchMatchResponse]:
        """Stream the match's events until it ends."""
        live = self.store.get(request.match_id)
        viewer = live.check_viewer(request)
        if viewer is not None:
            live.check_secret(viewer, request.seat_secret, what="look")
        with live.cond:
            view = live.view_of(viewer, request.reveal_all)
        if request.from_move_number < 0:
            raise RequestError("from_move_number must be >= 0", field="from_move_number")
        start = request.from_move_number
        with live.cond:
            idx = next(
                (i for i, e in enumerate(live.events) if e.move_number > start or (start == 0 and i == 0)),
                len(live.events),
            )
        while context.is_active() and not self.server_stop.is_set():
            with live.cond:
                if idx >= len(live.events):
                    if live.finished:
                        return
                    live.cond.wait(self.watch_poll_s)
                    continue
                batch = live.events[idx:]
                idx = len(live.events)
                snapshot = live.to_pb(view)
            for event in batch:
                yield match_pb.WatchMatchResponse(event=live.event_for(event, view), match=snapshot)

    @grpc_errors
    def ResignMatch(
        self, request: match_pb.ResignMatchRequest, context: grpc.ServicerContext
    ) -> match_pb.ResignMatchResponse:
        """A seat resigns."""
        live = self.store.get(request.match_id)
        live.check_secret(request.seat, request.seat_secret, what="resign")
        self.store.resign(live, request.seat)
        with live.cond:
            return match_pb.ResignMatchResponse(match=live.to_pb(live.view_of(None, reveal_all=True)))
