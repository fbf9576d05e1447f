"""Writing matches: creating one, appending a seat's action (and the chance outcomes after it), a
resignation.

Every write is one transaction: the log's rows (``(match_id, seq)`` is their key, so a double move
is impossible even across processes), the match's summary, and its AI turn in the queue. Memory
follows only once it is committed; a write that loses a race to another process hits the log's key
and is ABORTED (:class:`~service.errors.StaleMoveError`).
"""

from __future__ import annotations

import json
import time
import uuid
from dataclasses import dataclass
from typing import Any

from games.core import CHANCE, TERMINAL, make_rng
from games.core.rng import derive_seed
from games.errors import WrongSeatError
from service import convert, events
from service.errors import RequestError, StaleMoveError
from service.matches.backend import Due, Sql
from service.matches.live import LiveMatches
from service.matches.model import LiveMatch, SeatSpec, hash_secret
from service.matches.rows import created_record, summary

__all__ = ["MAX_CHANCE_STEPS", "RESIGN_TRIES", "MatchWriter"]

MAX_CHANCE_STEPS = 10_000
RESIGN_TRIES = 3
"""A resignation that loses a race with another process's move catches up and tries again."""


@dataclass(frozen=True, slots=True)
class _Row:
    kind: str
    seat: int
    text: str
    before: Any
    action: Any
    after: Any


class MatchWriter(LiveMatches):
    """The live matches, and the writes that change them (see the module doc)."""

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
        live.events.append(created_record(live))
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
                resigned = summary(live)
                live.resigned_seat = -1
                try:
                    with self._transaction("the resignation") as sql:
                        self._insert(sql, live, len(live.actions), kind="resign", seat=seat, text="resign")
                        sql(
                            "UPDATE matches SET status = ?, moves = ?, to_move = ?, resigned_seat = ?, "
                            "returns_json = ? WHERE match_id = ?",
                            (*resigned, live.match_id),
                        )
                        self.db.queue(sql, live.match_id, None)
                except StaleMoveError:  # another process moved first: catch up, resign after its move
                    if attempt == RESIGN_TRIES - 1:
                        raise
                    continue
                break
            self._record_resign(live, seat)
        self._changed(live)

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
