# ruff: noqa: N802  (gRPC servicer methods are named after the RPCs)
"""AdvisorService: the AI's move, streamed analyses, hints with reasons.

Thin: read the position on the event loop, run the search in a worker process
(:mod:`service.jobs`), convert the answer. The client's deadline bounds every search, which
answers its best so far a little before it (:func:`service.limits.answer_by`); a cancelled call
stops its search.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import grpc

from games.core import CHANCE, TERMINAL, Fact, Game
from games.core.registry import GameEntry
from games.errors import WrongSeatError
from lictor.v1 import advisor_service_pb2 as advisor_pb
from lictor.v1 import advisor_service_pb2_grpc as advisor_grpc
from search import Analysis
from service import convert
from service.errors import RequestError, grpc_errors
from service.jobs import Hint, Move
from service.limits import Limits, answer_by, search_limit
from service.matches.servicer import StreamGate, client_of
from service.workers import Job, JobOutcome, WorkerPool

__all__ = ["AdvisorServicer", "check_searchable", "hint_reasons"]

DEFAULT_TOP_K = 3
MIN_REPORT_EVERY_S = 0.02
"""Progress reports come at most every 20 ms."""


def check_searchable(game: Game[Any, Any], state: Any) -> None:
    """WrongSeatError (FAILED_PRECONDITION) unless a seat is to decide."""
    player = game.current_player(state)
    if player == TERMINAL:
        raise WrongSeatError("the game is over; there is no move to search", field="position")
    if player == CHANCE:
        raise WrongSeatError(
            "the position is at a chance node; apply a chance outcome first (see GetLegalActions)",
            field="position",
        )


def hint_reasons(facts: tuple[Fact, ...], cand: Any, analysis: Analysis) -> list[advisor_pb.Reason]:
    """The game's facts about a move, then the search's numbers behind it."""
    reasons = [advisor_pb.Reason(text=f.label, value=float(f.value)) for f in facts]
    seat = analysis.seat
    total = max(1, sum(c.visits for c in analysis.candidates))
    values = [float(v) for v in cand.value]
    if 0 <= seat < len(values):
        reasons.append(advisor_pb.Reason(text="expected result for you (search)", value=values[seat]))
        others = [v for i, v in enumerate(values) if i != seat]
        if others:
            reasons.append(
                advisor_pb.Reason(
                    text="lead over the best other seat (search)", value=values[seat] - max(others)
                )
            )
    reasons.append(advisor_pb.Reason(text="share of the search's visits", value=cand.visits / total))
    reasons.append(
        advisor_pb.Reason(text="pessimistic value (lower confidence bound)", value=float(cand.lcb))
    )
    if cand.proven is not None:
        reasons.append(advisor_pb.Reason(text="proven value (exact)", value=float(cand.proven)))
    return reasons


def _give_up_at(context: grpc.aio.ServicerContext, by: float) -> float:
    """When the last progress report must stand in for a search's answer: just before the client's
    deadline (or a second after ``by`` without one)."""
    remaining: float | None = context.time_remaining()
    if remaining is None or remaining > 1e8:
        return by + 1.0
    return time.monotonic() + max(0.0, remaining - 0.01)


class AdvisorServicer(advisor_grpc.AdvisorServiceServicer):  # type: ignore[misc]
    """The AI over gRPC.

    Args:
        limits: the server's caps.
        pool: the worker processes for calls (one search each; none idle: RESOURCE_EXHAUSTED).
        games: the run-time game registrations the workers must know.
        gate: open streams per client and in all.
        content_root: the directory under which requests may name content packs.
    """

    def __init__(
        self,
        limits: Limits,
        pool: WorkerPool,
        games: Callable[[], tuple[GameEntry, ...]],
        gate: StreamGate,
        *,
        content_root: str | None = None,
    ) -> None:
        self.limits = limits
        self.pool = pool
        self.games = games
        self.gate = gate
        self.content_root = content_root

    def _resolve(self, request: Any) -> convert.Resolved:
        res = convert.resolve_position(request.position, content_root=self.content_root)
        check_searchable(res.game, res.state)
        return res

    def _job(self, kind: str, res: convert.Resolved, by: float, **args: Any) -> Job:
        return Job(
            kind=kind,
            games=self.games(),
            args={"game": res.name, "pack": res.pack_path, "state": res.state, **args},
            deadline=by,
        )

    @grpc_errors
    async def SuggestAction(
        self, request: advisor_pb.SuggestActionRequest, context: grpc.aio.ServicerContext
    ) -> advisor_pb.SuggestActionResponse:
        """The AI seat's move."""
        res = self._resolve(request)
        level = request.level or 5
        if not 1 <= level <= 10:
            raise RequestError(f"level must be 1..10, not {request.level!r}", field="level")
        by = answer_by(context.time_remaining(), self.limits)
        budget = request.budget
        limit = search_limit(
            self.limits, simulations=budget.simulations, time_s=budget.time_s, by=by, use_default=False
        )
        if limit is None and request.HasField("budget"):
            raise RequestError("budget is set but empty: set simulations or time_s", field="budget")
        job = self._job(
            "choose",
            res,
            by,
            level=level,
            seed=request.seed,
            limit=limit,
            # a budget without a level plays the best move it finds
            temperature=0.0 if request.level == 0 and limit is not None else None,
            engine="",
        )
        outcome = await self.pool.run(job, give_up_at=_give_up_at(context, by))
        if isinstance(outcome.value, Move):
            assert outcome.value.analysis is not None
            text, analysis = outcome.value.text, outcome.value.analysis
        else:  # late: the last progress report
            analysis = outcome.value
            text = analysis.best.text
        reply = advisor_pb.SuggestActionResponse(action=text)
        convert.analysis_to_pb(analysis, final=True, into=reply.analysis)
        if outcome.late:
            reply.analysis.stopped_by = "deadline"
        return reply

    @grpc_errors
    async def Analyze(
        self, request: advisor_pb.AnalyzeRequest, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[advisor_pb.AnalyzeResponse]:
        """Progress reports, then the final one."""
        res = self._resolve(request)
        if request.report_every_ms < 0 or request.max_candidates < 0:
            field = "report_every_ms" if request.report_every_ms < 0 else "max_candidates"
            raise RequestError(f"{field} must be >= 0", field=field)
        by = answer_by(context.time_remaining(), self.limits)
        limit = search_limit(
            self.limits, simulations=request.budget.simulations, time_s=request.budget.time_s, by=by
        )
        every = max(MIN_REPORT_EVERY_S, (request.report_every_ms or 250) / 1000.0)
        job = self._job("analyze", res, by, limit=limit, seed=request.seed, progress_every_s=every)
        reports: asyncio.Queue[Analysis] = asyncio.Queue(maxsize=64)

        def on_progress(analysis: Analysis) -> None:
            if reports.full():  # a slow reader: keep the newest
                reports.get_nowait()
            reports.put_nowait(analysis)

        with self.gate.hold(client_of(context)):
            worker = await self.pool.acquire(wait=False)
            run = asyncio.ensure_future(
                self.pool.run(
                    job, worker=worker, give_up_at=_give_up_at(context, by), on_progress=on_progress
                )
            )
            try:
                while not run.done() or not reports.empty():
                    get = asyncio.ensure_future(reports.get())
                    await asyncio.wait({get, run}, return_when=asyncio.FIRST_COMPLETED)
                    if not get.done():
                        get.cancel()
                        continue
                    yield advisor_pb.AnalyzeResponse(
                        analysis=convert.analysis_to_pb(
                            get.result(), max_candidates=request.max_candidates, final=False
                        )
                    )
                outcome: JobOutcome = run.result()
            finally:
                if not run.done():
                    run.cancel()
            final = convert.analysis_to_pb(outcome.value, max_candidates=request.max_candidates, final=True)
            if outcome.late:
                final.stopped_by = "deadline"
            yield advisor_pb.AnalyzeResponse(analysis=final)

    @grpc_errors
    async def Hint(
        self, request: advisor_pb.HintRequest, context: grpc.aio.ServicerContext
    ) -> advisor_pb.HintResponse:
        """Top-k moves with reasons."""
        res = self._resolve(request)
        top_k = request.top_k or DEFAULT_TOP_K
        if not 1 <= top_k <= self.limits.max_top_k:
            raise RequestError(
                f"top_k must be 1..{self.limits.max_top_k}, not {request.top_k!r}", field="top_k"
            )
        by = answer_by(context.time_remaining(), self.limits)
        limit = search_limit(
            self.limits, simulations=request.budget.simulations, time_s=request.budget.time_s, by=by
        )
        job = self._job("hint", res, by, limit=limit, seed=request.seed, top_k=top_k)
        outcome = await self.pool.run(job, give_up_at=_give_up_at(context, by))
        if isinstance(outcome.value, Hint):
            analysis, facts = outcome.value.analysis, outcome.value.facts
        else:  # late: the search's last report, without the game's facts
            analysis, facts = outcome.value, ()
        hints = [
            advisor_pb.MoveHint(
                rank=i + 1,
                action=c.text,
                reasons=hint_reasons(facts[i] if i < len(facts) else (), c, analysis),
                candidate=convert.candidate_to_pb(c),
            )
            for i, c in enumerate(analysis.candidates[:top_k])
        ]
        reply = advisor_pb.HintResponse(
            seat=analysis.seat, hints=hints, analysis=convert.analysis_to_pb(analysis, final=True)
        )
        if outcome.late:
            reply.analysis.stopped_by = "deadline"
        return reply
