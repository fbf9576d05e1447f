"""A hosted match in memory: its seats, its state, its events, and what each viewer may see of it.

Views (docs/service.md, "Hidden information"): a seat sees its observation; a spectator the public
view (no position, no state); the full view (the record with the seed, the full state) is shown
for games without hidden information, or once the match is over, or when every seat is an AI
seat and the caller asks. An AI seat's view is never shown while a human seat plays.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, TypeAlias

import search
from games.core import CHANCE, REFEREE, SPECTATOR, TERMINAL, Game
from games.errors import WrongSeatError
from lictor.v1 import match_service_pb2 as match_pb
from lictor.v1 import position_pb2 as pos_pb
from service import convert, events
from service.errors import PermissionDeniedError, RequestError
from service.events import EventRecord

__all__ = [
    "FULL_VIEW",
    "HEAVY_S",
    "PUBLIC_VIEW",
    "LiveMatch",
    "SeatSpec",
    "View",
    "commitment",
    "hash_secret",
    "seats_pb",
    "summary_pb",
]

MAX_LEVEL = 10
HEAVY_S = 0.6
"""An AI seat whose level's budget is over this many seconds is heavy (levels 6-10)."""


def hash_secret(secret: str) -> str:
    """The SHA-256 hex digest a seat secret is stored as (secrets are random: no salt needed)."""
    return hashlib.sha256(secret.encode()).hexdigest()


def commitment(match_id: str, seed: int) -> str:
    """The published commitment to a match's seed: SHA-256 of ``"lictor-seed:<match_id>:<seed>"``."""
    return hashlib.sha256(f"lictor-seed:{match_id}:{seed}".encode()).hexdigest()


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatSpec:
    """One seat of a match.

    Attributes:
        ai: True when the server plays it.
        level: AI strength 1..10 (the search's budget).
        name: display name.
        engine: a rule-based engine the game ships ("" = the search at ``level``).
    """

    ai: bool
    level: int = 5
    name: str = ""
    engine: str = ""

    @property
    def heavy(self) -> bool:
        """Whether its moves are heavy (a search over :data:`HEAVY_S`; rule-based engines are light)."""
        return self.ai and not self.engine and search.level(self.level).time_s > HEAVY_S

    def to_json(self) -> dict[str, Any]:
        """The seat as stored."""
        return {"ai": self.ai, "level": self.level, "name": self.name, "engine": self.engine}


def seats_pb(seats: Iterable[SeatSpec]) -> list[match_pb.Seat]:
    """Seats as messages (a human seat shows no level)."""
    return [
        match_pb.Seat(
            kind=match_pb.SEAT_KIND_AI if s.ai else match_pb.SEAT_KIND_HUMAN,
            level=s.level if s.ai else 0,
            name=s.name,
            engine=s.engine,
        )
        for s in seats
    ]


def summary_pb(
    name: str, players: int, player: int, returns: list[float], moves: int
) -> pos_pb.PositionSummary:
    """The public summary of a match's position: the seat to move (or CHANCE, TERMINAL), the returns."""
    return pos_pb.PositionSummary(
        game=name,
        players=players,
        current_player=player,
        chance=player == CHANCE,
        terminal=player == TERMINAL,
        returns=returns,
        move_number=moves,
    )


View: TypeAlias = int
"""How much of a match to show: a seat (its observation), FULL_VIEW or PUBLIC_VIEW."""
FULL_VIEW: View = REFEREE
PUBLIC_VIEW: View = SPECTATOR


@dataclass(slots=True, kw_only=True)
class LiveMatch:
    """A match in memory (rebuilt from the log on load). Mutated only under ``lock``.

    Attributes:
        match_id: the id.
        name: the game name.
        game: the game.
        setup: the setup (its seed is the secret one).
        seats: the seats.
        created_at: Unix seconds.
        state: the current state.
        client_seed: True when the client chose the seed (then it is not secret).
        actions: every action and chance outcome in notation.
        resigned_seat: the seat that resigned, or -1.
        events: every event so far (created first).
        secret_hashes: per seat, the SHA-256 hex digest of its secret ("" = none; empty = no secrets).
        damage: why the stored log no longer replays ("" = it does).
        lock: guards the fields above.
        version: bumped on every change (watchers compare it).
    """

    match_id: str
    name: str
    game: Game[Any, Any]
    setup: convert.Setup
    seats: tuple[SeatSpec, ...]
    created_at: float
    state: Any
    client_seed: bool = False
    actions: list[str] = field(default_factory=list)
    resigned_seat: int = -1
    events: list[EventRecord] = field(default_factory=list)
    secret_hashes: tuple[str, ...] = ()
    damage: str = ""
    lock: threading.RLock = field(default_factory=threading.RLock)
    version: int = 0

    # ------------------------------------------------------------------ status
    @property
    def has_secrets(self) -> bool:
        """Whether requests naming a seat must carry its secret."""
        return any(self.secret_hashes)

    @property
    def finished(self) -> bool:
        """Whether the match is over."""
        if self.damage:
            return False
        return self.resigned_seat >= 0 or self.game.current_player(self.state) == TERMINAL

    @property
    def status(self) -> int:
        """The ``MatchStatus``."""
        if self.damage:
            return match_pb.MATCH_STATUS_DAMAGED
        return match_pb.MATCH_STATUS_FINISHED if self.finished else match_pb.MATCH_STATUS_ACTIVE

    @property
    def all_ai(self) -> bool:
        """Whether every seat is an AI seat."""
        return all(s.ai for s in self.seats)

    @property
    def seed_hides_nothing(self) -> bool:
        """Whether knowing the seed tells a player nothing (no hidden information, no chance)."""
        info = self.game.info
        return not info.hidden_information and not info.stochastic

    @property
    def seed_revealed(self) -> bool:
        """Whether the seed may be shown: the match is over, or the seed hides nothing from anyone."""
        return self.finished or self.client_seed or self.seed_hides_nothing

    def returns(self) -> list[float]:
        """Final returns (resigner 0, the others share 1), empty while active."""
        n = len(self.seats)
        if self.resigned_seat >= 0:
            share = 1.0 / (n - 1) if n > 1 else 0.0
            return [0.0 if i == self.resigned_seat else share for i in range(n)]
        if not self.damage and self.game.current_player(self.state) == TERMINAL:
            return [float(v) for v in self.game.returns(self.state)]
        return []

    @property
    def logged(self) -> int:
        """Rows of its log held: every action and chance outcome, and a resignation."""
        return len(self.actions) + (1 if self.resigned_seat >= 0 else 0)

    def to_move(self) -> int:
        """The seat to move, CHANCE, or TERMINAL (also when finished by resignation or damaged)."""
        if self.finished or self.damage:
            return TERMINAL
        return self.game.current_player(self.state)

    def ai_to_move(self) -> bool:
        """Whether the server must act next (an AI seat or a chance node)."""
        player = self.to_move()
        return player == CHANCE or (player >= 0 and self.seats[player].ai)

    # ------------------------------------------------------------------ who may see what
    def check_secret(self, seat: int, given: str, *, field: str = "seat_secret", what: str = "act") -> None:
        """PermissionDeniedError unless ``given`` is ``seat``'s secret (no-op without seat secrets).

        A seat out of range is left to the caller's own check; AI seats have no secret (their view
        is governed by :meth:`check_view`).
        """
        if not self.has_secrets or not 0 <= seat < len(self.seats):
            return
        expected = self.secret_hashes[seat] if seat < len(self.secret_hashes) else ""
        if not expected:
            if self.seats[seat].ai and what == "act":
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

    def check_viewer(self, request: Any) -> int | None:
        """The request's ``viewer_seat`` (None when unset), checked: in range, its secret given,
        and never an AI seat's view while a human seat plays."""
        if not request.HasField("viewer_seat"):
            return None
        seat = int(request.viewer_seat)
        if not 0 <= seat < len(self.seats):
            raise RequestError(
                f"viewer_seat {seat!r} is not in 0..{len(self.seats) - 1}", field="viewer_seat"
            )
        self.check_secret(seat, request.seat_secret, what="look")
        if (
            self.game.info.hidden_information
            and self.seats[seat].ai
            and not self.all_ai
            and not self.finished
        ):
            raise PermissionDeniedError(
                f"seat {seat} is an AI seat: its view is not shown while a human seat plays",
                field="viewer_seat",
            )
        return seat

    def may_reveal(self) -> bool:
        """Whether the full view may be shown (``reveal_all``): finished, or AI seats only."""
        return self.finished or self.all_ai

    def view_of(self, viewer: int | None, reveal_all: bool = False, *, strict: bool = True) -> View:
        """The view a request asks for (see the module doc).

        ``strict``: a ``reveal_all`` that is not allowed is an error (else: the public view).
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
                    "reveal_all shows the other seats' secrets: only once the match is finished or when "
                    "every seat is an AI seat; set viewer_seat to see a seat's view",
                    field="reveal_all",
                )
        return PUBLIC_VIEW

    # ------------------------------------------------------------------ messages
    def seats_pb(self) -> list[match_pb.Seat]:
        """The seats as messages."""
        return seats_pb(self.seats)

    def to_pb(self, view: View = PUBLIC_VIEW, *, light: bool = False) -> match_pb.Match:
        """The match as its message, in ``view``; ``light`` leaves out the position and the state
        (listings)."""
        if not self.game.info.hidden_information:
            view = FULL_VIEW
        setup = convert.setup_to_pb(self.setup)
        if not self.seed_revealed:
            setup.seed = 0
        msg = match_pb.Match(
            match_id=self.match_id,
            game=self.name,
            seats=self.seats_pb(),
            setup=setup,
            status=self.status,  # type: ignore[arg-type]
            move_number=len(self.actions),
            returns=self.returns(),
            resigned_seat=self.resigned_seat,
            created_at=self.created_at,
            seat_secrets=self.has_secrets,
            # a damaged match whose setup could not be read commits to nothing (seed 0 is never drawn)
            seed_commitment=commitment(self.match_id, self.setup.seed) if self.setup.seed else "",
            damage=self.damage,
            seed_revealed=self.seed_revealed,
        )
        if light or self.damage:
            msg.view = match_pb.MATCH_VIEW_FULL if view == FULL_VIEW else match_pb.MATCH_VIEW_PUBLIC
            msg.summary.CopyFrom(self._public_summary())
        else:
            self._show(msg, view)
        return msg

    def _public_summary(self) -> pos_pb.PositionSummary:
        # What anyone may read of the position: whose turn, the returns, the move number.
        return summary_pb(self.name, len(self.seats), self.to_move(), self.returns(), len(self.actions))

    def _show(self, msg: match_pb.Match, view: View) -> None:
        # The position and its summary as ``view`` may see them, into ``msg``.
        if view == FULL_VIEW:
            msg.view = match_pb.MATCH_VIEW_FULL
            if self.seed_revealed:
                msg.position.CopyFrom(convert.record_position(self.name, self.setup, self.actions))
            else:  # the record would need the secret seed to replay: the state itself instead
                msg.position.CopyFrom(
                    pos_pb.Position(
                        game=self.name, state_json=json.dumps(self.game.to_dict(self.state), sort_keys=True)
                    )
                )
            msg.summary.CopyFrom(convert.summary_of(self.game, self.name, self.state, len(self.actions)))
        elif view == PUBLIC_VIEW:
            msg.view = match_pb.MATCH_VIEW_PUBLIC
            msg.position.CopyFrom(pos_pb.Position(game=self.name))
            msg.summary.CopyFrom(self._public_summary())
        else:
            msg.view = match_pb.MATCH_VIEW_SEAT
            shown = self.game.observation(self.state, view)
            msg.position.CopyFrom(
                pos_pb.Position(
                    game=self.name, state_json=json.dumps(self.game.to_dict(shown), sort_keys=True)
                )
            )
            msg.summary.CopyFrom(convert.summary_of(self.game, self.name, shown, len(self.actions)))

    def event_pb(self, record: EventRecord, view: View) -> pos_pb.Event:
        """An event as ``view`` may read it."""
        return events.to_pb(self.game, record, view)
