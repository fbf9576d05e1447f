# ruff: noqa: N802  (handler methods are named after the RPCs)
"""MatchService: hosted matches, over gRPC and HTTP alike (:mod:`service.rpc`). Thin: check, call
the store (off the event loop), convert.

Seeds: a match's seed comes from the operating system (``secrets``), is kept in the database and
shown only as its commitment until the match is over. A client's own seed is refused for a match
with a human seat whenever the seed would tell that human something (hidden information or chance).

Seat secrets are issued by default when two or more human seats play (``issue_seat_secrets``
unset); a client may opt out explicitly, or ask for them with one human seat.

Replicas (a shared database): every read catches up with the database first (``MatchStore.get``),
and a WatchMatch stream wakes on this replica's changes and on those other replicas announce
(:meth:`MatchServicer.remote`), catching up before it sends; it also looks every
:data:`WATCH_REFRESH_S` seconds, in case an announcement was lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from games.errors import LictorError, LimitError
from lictor.v1 import match_service_pb2 as match_pb
from service import convert
from service.errors import RequestError, StorageError, UnavailableError
from service.events import EventRecord
from service.limits import Limits
from service.matches.model import MAX_LEVEL, LiveMatch, SeatSpec
from service.matches.store import MatchStore
from service.rpc import Call, checked

__all__ = ["MatchServicer", "StreamGate"]

SECRET_BYTES = 32
"""Random bytes in a seat secret (URL-safe base64 text)."""
SEED_BITS = 63
WATCH_REFRESH_S = 5.0
"""On a shared database an idle WatchMatch stream catches up at least this often."""


class StreamGate:
    """Counts open streams per client and in all; beyond a cap a stream gets RESOURCE_EXHAUSTED."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.open: Counter[str] = Counter()

    @contextlib.contextmanager
    def hold(self, client: str) -> Any:
        """Hold one stream for ``client`` for the ``with`` block."""
        if sum(self.open.values()) >= self.limits.max_streams:
            raise LimitError(
                f"the server has its maximum of {self.limits.max_streams} open streams; retry later", field=""
            )
        if self.open[client] >= self.limits.max_streams_per_client:
            raise LimitError(
                f"this client has its maximum of {self.limits.max_streams_per_client} open streams; "
                "close one first",
                field="",
            )
        self.open[client] += 1
        try:
            yield
        finally:
            self.open[client] -= 1
            if not self.open[client]:
                del self.open[client]


def seats_from_pb(seats: Any, engines: Callable[[], list[str]]) -> tuple[SeatSpec, ...]:
    """The seats of a CreateMatch request, checked."""
    out = []
    for i, s in enumerate(seats):
        if s.kind == match_pb.SEAT_KIND_UNSPECIFIED:
            raise RequestError(f"seats[{i}].kind is required: HUMAN or AI", field=f"seats[{i}].kind")
        ai = s.kind == match_pb.SEAT_KIND_AI
        level = s.level or 5
        if not 1 <= level <= MAX_LEVEL:
            raise RequestError(f"seats[{i}].level must be 1..10, not {s.level!r}", field=f"seats[{i}].level")
        if s.engine:
            if not ai:
                raise RequestError(f"seats[{i}].engine is for AI seats", field=f"seats[{i}].engine")
            known = engines()
            if s.engine not in known:
                raise RequestError(
                    f"seats[{i}].engine {s.engine!r} is not an engine of this game; engines: {known}",
                    field=f"seats[{i}].engine",
                )
        out.append(SeatSpec(ai=ai, level=level, name=s.name, engine=s.engine))
    return tuple(out)


class MatchServicer:
    """Hosted matches (one method per RPC of ``lictor.v1.MatchService``).

    Args:
        store: the matches.
        limits: the server's caps.
        run_db: runs a blocking store call off the event loop (``await run_db(fn, *args)``).
        gate: the open-streams counter shared with the other streaming RPCs.
    """

    def __init__(
        self,
        store: MatchStore,
        limits: Limits,
        run_db: Callable[..., Awaitable[Any]],
        gate: StreamGate,
    ) -> None:
        self.store = store
        self.limits = limits
        self._db = run_db
        self.gate = gate
        self._wakers: dict[str, asyncio.Event] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self.stopping = False

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        """Wake watchers on every change to a match from now on."""
        self._loop = loop
        self.store.on_change.append(self._changed)

    def _changed(self, live: LiveMatch) -> None:
        loop = self._loop
        if loop is not None:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._wake, live.match_id)

    def _wake(self, match_id: str) -> None:
        event = self._wakers.pop(match_id, None)
        if event is not None:
            event.set()

    def remote(self, match_id: str, due: bool) -> None:
        """Another replica changed ``match_id`` ("": any match may have changed): wake its watchers
        (call on the loop)."""
        if match_id:
            self._wake(match_id)
            return
        for event in self._wakers.values():
            event.set()
        self._wakers.clear()

    def shutdown(self) -> None:
        """End every WatchMatch stream with UNAVAILABLE (call on the loop)."""
        self.stopping = True
        for event in self._wakers.values():
            event.set()
        self._wakers.clear()

    async def _get(self, match_id: str, *, fresh: bool = True) -> LiveMatch:
        live: LiveMatch = await self._db(lambda: self.store.get(match_id, fresh=fresh))
        return live

    # ------------------------------------------------------------------ RPCs
    @checked
    async def CreateMatch(
        self, request: match_pb.CreateMatchRequest, call: Call
    ) -> match_pb.CreateMatchResponse:
        """Create a match."""
        game = convert.lookup_game(request.game, field="game")
        seats = seats_from_pb(request.seats, lambda: sorted(game.policies()))
        if not seats:
            raise RequestError("seats is required: one Seat per player", field="seats")
        humans = sum(1 for s in seats if not s.ai)
        client_seed = request.HasField("seed")
        if client_seed and humans and (game.info.hidden_information or game.info.stochastic):
            raise RequestError(
                "a match with a human seat draws its seed from the server, which publishes only its "
                "commitment until the end: a known seed would show that player the hidden cards or the "
                "coming dice; leave seed unset (a seed is accepted when every seat is an AI seat)",
                field="seed",
            )
        seed = request.seed if client_seed else secrets.randbits(SEED_BITS) | 1
        setup = convert.Setup(
            players=len(seats), options=convert.options_from_pb(request.options, "options"), seed=seed
        )
        try:  # validate first: config errors name their request field
            convert.new_game(game, setup, field="")
        except LictorError as exc:
            exc.field = "seats" if exc.field == "players" else exc.field
            raise
        client = call.client
        await self._check_caps(client)
        issue = request.issue_seat_secrets if request.HasField("issue_seat_secrets") else humans >= 2
        issued = (
            {i: secrets.token_urlsafe(SECRET_BYTES) for i, s in enumerate(seats) if not s.ai} if issue else {}
        )
        live: LiveMatch = await self._db(
            lambda: self.store.create(
                request.game, setup, seats, seat_secrets=issued, client_seed=client_seed, creator=client
            )
        )
        with live.lock:
            return match_pb.CreateMatchResponse(
                match=live.to_pb(live.view_of(None, strict=False)),
                seat_secrets=[match_pb.SeatSecret(seat=i, secret=v) for i, v in sorted(issued.items())],
            )

    async def _check_caps(self, client: str) -> None:
        lim = self.limits
        total, active, mine = await self._db(
            lambda: (
                self.store.count(),
                self.store.count(active=True),
                self.store.count(active=True, creator=client),
            )
        )
        if total >= lim.max_matches:
            raise LimitError(f"the server keeps at most {lim.max_matches} matches", field="")
        if active >= lim.max_active_matches:
            raise LimitError(
                f"the server has its maximum of {lim.max_active_matches} active matches; retry later",
                field="",
            )
        if mine >= lim.max_active_matches_per_client:
            raise LimitError(
                f"this client has its maximum of {lim.max_active_matches_per_client} active matches; "
                "finish or resign one first",
                field="",
            )

    @checked
    async def GetMatch(self, request: match_pb.GetMatchRequest, call: Call) -> match_pb.GetMatchResponse:
        """A match."""
        live = await self._get(request.match_id)
        with live.lock:
            viewer = live.check_viewer(request)
            return match_pb.GetMatchResponse(match=live.to_pb(live.view_of(viewer, request.reveal_all)))

    @checked
    async def ListMatches(
        self, request: match_pb.ListMatchesRequest, call: Call
    ) -> match_pb.ListMatchesResponse:
        """A page of matches, newest first (without positions: GetMatch has them)."""
        size = request.page_size or 50
        if not 1 <= size <= 500:
            raise RequestError(f"page_size must be 1..500, not {request.page_size!r}", field="page_size")
        token = request.page_token or "0"
        if not (token.isascii() and token.isdigit()) or len(token) > 12:
            raise RequestError(f"bad page_token {token[:32]!r}: use a next_page_token", field="page_token")
        offset = int(token)
        listed = await self._db(
            lambda: self.store.list_page(game=request.game, offset=offset, limit=size + 1)
        )
        matches = [m.message for m in listed[:size]]
        return match_pb.ListMatchesResponse(
            matches=matches, next_page_token=str(offset + size) if len(listed) > size else ""
        )

    @checked
    async def SubmitAction(
        self, request: match_pb.SubmitActionRequest, call: Call
    ) -> match_pb.SubmitActionResponse:
        """A human seat's action."""
        live = await self._get(request.match_id, fresh=False)  # (the store catches up under its lock)
        if not request.HasField("action"):
            raise RequestError("the action is required", field="action")
        live.check_secret(request.seat, request.seat_secret)
        records = await self._db(
            lambda: self.store.submit(
                live,
                seat=request.seat,
                expected_move_number=request.expected_move_number,
                action_msg=request.action,
            )
        )
        with live.lock:
            view = live.view_of(request.seat)
            return match_pb.SubmitActionResponse(
                match=live.to_pb(view), events=[live.event_pb(e, view) for e in records]
            )

    @checked
    async def WatchMatch(
        self, request: match_pb.WatchMatchRequest, call: Call
    ) -> AsyncIterator[match_pb.WatchMatchResponse]:
        """Stream the match's events until it ends (UNAVAILABLE when the server shuts down)."""
        if request.from_move_number < 0:
            raise RequestError("from_move_number must be >= 0", field="from_move_number")
        live = await self._get(request.match_id)
        with live.lock:
            viewer = live.check_viewer(request)
            view = live.view_of(viewer, request.reveal_all)
            start = request.from_move_number
            idx = next(
                (i for i, e in enumerate(live.events) if e.move_number > start or (start == 0 and i == 0)),
                len(live.events),
            )
        with self.gate.hold(call.client):
            while True:
                if self.stopping:
                    raise UnavailableError(
                        "the server is shutting down; watch again with from_move_number to resume", field=""
                    )
                waker = self._wakers.setdefault(live.match_id, asyncio.Event())
                if self.store.shared:  # moves other replicas made (a fault: look again later)
                    with contextlib.suppress(StorageError):
                        await self._db(self.store.refresh, live)
                with live.lock:
                    batch = live.events[idx:]
                    idx = len(live.events)
                    over = live.finished or bool(live.damage)
                unseen = [e for e in batch if e.action is not None and not e.seen]
                if unseen:  # (events replayed at load: who sees each is found once, off the loop)
                    await asyncio.to_thread(_find_who_sees, live, unseen)
                with live.lock:
                    snapshot = live.to_pb(view) if batch else None
                    out = [live.event_pb(e, view) for e in batch]
                for event in out:
                    yield match_pb.WatchMatchResponse(event=event, match=snapshot)
                if over and not batch:
                    return
                if not batch:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(waker.wait(), WATCH_REFRESH_S if self.store.shared else None)

    @checked
    async def ResignMatch(
        self, request: match_pb.ResignMatchRequest, call: Call
    ) -> match_pb.ResignMatchResponse:
        """A seat resigns."""
        live = await self._get(request.match_id, fresh=False)
        live.check_secret(request.seat, request.seat_secret, what="resign")
        await self._db(self.store.resign, live, request.seat)
        with live.lock:
            return match_pb.ResignMatchResponse(match=live.to_pb(live.view_of(None, reveal_all=True)))


def _find_who_sees(live: LiveMatch, records: list[EventRecord]) -> None:
    """Who sees each of ``records`` (``EventRecord.seen_by``), found and kept (in a thread)."""
    for record in records:
        record.seen_by(live.game)
