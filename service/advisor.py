# ruff: noqa: N802  (handler methods are named after the RPCs)
"""AdvisorService: the AI's move, streamed analyses, hints with reasons.

Thin: read the position on the event loop, run the search in a worker process
(:mod:`service.jobs`), convert the answer. The client's deadline bounds every search, which
answers its best so far a little before it (:func:`service.limits.answer_by`); a cancelled call
stops its search. Transport-neutral (:mod:`service.rpc`): served over gRPC and HTTP alike.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from games.core import CHANCE, TERMINAL, Game
from games.core.registry import GameEntry
from games.core.views import check_known
from games.errors import LictorError, WrongSeatError
from lictor.v1 import advisor_service_pb2 as advisor_pb
from search import Analysis, Candidate
from search.outcomes import hint_order
from service import convert, face
from service.errors import RequestError
from service.hints import (
    RANKED_BY,
    Difference,
    build_hints,
    chance_hints,
    differences,
    explain_facts,
    first_reason,
    hint_reasons,
    outcome_reasons,
    varying_labels,
    why_first,
)
from service.jobs import MIN_VISITS, Hint, Mistake, Move, Review, Reviewed
from service.limits import Limits, answer_by, give_up_at, search_limit
from service.matches.servicer import StreamGate
from service.rpc import Call, checked
from service.workers import Job, JobOutcome, WorkerPool, wait_until

__all__ = [
    "RANKED_BY",
    "AdvisorServicer",
    "Difference",
    "build_hints",
    "chance_hints",
    "check_searchable",
    "differences",
    "explain_facts",
    "first_reason",
    "hint_reasons",
    "outcome_reasons",
    "varying_labels",
    "why_first",
]

DEFAULT_TOP_K = 3
DEFAULT_WORST = 3
"""Moves a review explains when the request says none."""
MAX_WORST = 10
"""Most moves one review explains."""
REVIEW_SIMULATIONS = 100
"""Simulations per position of a review whose request sets no budget."""
REVIEW_EXPLAIN_S = 3.0
"""Seconds a review keeps (at most a quarter of its time) to explain the worst moves."""
LOOK_S = 2.0
"""Most seconds a hint looks ahead after its search (``search.outcomes.look_ahead``: 16
continuations per move, usually done in a fraction of that; never past the deadline). A whole
look ahead keeps a hint with a simulation budget reproducible."""
MIN_REPORT_EVERY_S = 0.02
"""Progress reports come at most every 20 ms."""


def check_searchable(game: Game[Any, Any], state: Any) -> None:
    """WrongSeatError (FAILED_PRECONDITION) unless a seat is to decide and the position holds what
    it decides on (not another viewer's view of it: ``games.core.views.check_known``)."""
    player = game.current_player(state)
    if player == TERMINAL:
        raise WrongSeatError("the game is over; there is no move to search", field="position")
    if player == CHANCE:
        raise WrongSeatError(
            "the position is at a chance node; apply a chance outcome first (see GetLegalActions)",
            field="position",
        )
    check_known(game, state)


def _give_up_at(call: Call, by: float) -> float:
    return give_up_at(call.time_remaining(), by)


class AdvisorServicer:
    """The AI (one method per RPC of ``lictor.v1.AdvisorService``).

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

    @checked
    async def SuggestAction(
        self, request: advisor_pb.SuggestActionRequest, call: Call
    ) -> advisor_pb.SuggestActionResponse:
        """The AI seat's move."""
        res = self._resolve(request)
        level = request.level or 5
        if not 1 <= level <= 10:
            raise RequestError(f"level must be 1..10, not {request.level!r}", field="level")
        by = answer_by(call.time_remaining(), self.limits)
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
        outcome = await self.pool.run(job, give_up_at=_give_up_at(call, by))
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

    @checked
    async def Analyze(
        self, request: advisor_pb.AnalyzeRequest, call: Call
    ) -> AsyncIterator[advisor_pb.AnalyzeResponse]:
        """Progress reports, then the final one."""
        res = self._resolve(request)
        if request.report_every_ms < 0 or request.max_candidates < 0:
            field = "report_every_ms" if request.report_every_ms < 0 else "max_candidates"
            raise RequestError(f"{field} must be >= 0", field=field)
        by = answer_by(call.time_remaining(), self.limits)
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

        with self.gate.hold(call.client):
            worker = await self.pool.acquire(wait=False, until=wait_until(by))
            run = asyncio.ensure_future(
                self.pool.run(job, worker=worker, give_up_at=_give_up_at(call, by), on_progress=on_progress)
            )
            get: asyncio.Future[Any] | None = None
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
            finally:  # a caller gone mid-wait leaves both pending: cancel them (a pending task
                # collected with its queue logged "Task was destroyed but it is pending!")
                if not run.done():
                    run.cancel()
                if get is not None and not get.done():
                    get.cancel()
            final = convert.analysis_to_pb(outcome.value, max_candidates=request.max_candidates, final=True)
            if outcome.late:
                final.stopped_by = "deadline"
            yield advisor_pb.AnalyzeResponse(analysis=final)

    @checked
    async def Hint(self, request: advisor_pb.HintRequest, call: Call) -> advisor_pb.HintResponse:
        """Top-k moves with reasons; at a chance node, what each outcome means for a seat."""
        res = convert.resolve_position(request.position, content_root=self.content_root)
        top_k = request.top_k or DEFAULT_TOP_K
        if not 1 <= top_k <= self.limits.max_top_k:
            raise RequestError(
                f"top_k must be 1..{self.limits.max_top_k}, not {request.top_k!r}", field="top_k"
            )
        by = answer_by(call.time_remaining(), self.limits)
        if res.game.current_player(res.state) == CHANCE:
            return await self._chance_hint(request, res, top_k, by, call)
        check_searchable(res.game, res.state)
        limit = search_limit(
            self.limits, simulations=request.budget.simulations, time_s=request.budget.time_s, by=by
        )
        job = self._job("hint", res, by, limit=limit, seed=request.seed, top_k=top_k, look_s=LOOK_S)
        outcome = await self.pool.run(job, give_up_at=_give_up_at(call, by))
        if isinstance(outcome.value, Hint):
            hint = outcome.value
        else:  # late: the search's last report; the game's facts are read here
            hint = Hint(analysis=outcome.value, order=tuple(c.text for c in hint_order(outcome.value)))
        analysis = hint.analysis
        reply = advisor_pb.HintResponse(
            seat=analysis.seat, analysis=convert.analysis_to_pb(analysis, final=True)
        )
        facts_of = None
        if not hint.facts:
            try:
                seen = face.seen_state(res.game, res.state, analysis.seat)
            except LictorError:
                seen = None
            game = res.game
            facts_of = (lambda a: explain_facts(game, seen, a)) if seen is not None else (lambda a: ())
        build_hints(reply, hint, top_k, facts_of=facts_of)
        if outcome.late:
            reply.analysis.stopped_by = "deadline"
        return reply

    async def _chance_hint(
        self, request: advisor_pb.HintRequest, res: convert.Resolved, top_k: int, by: float, call: Call
    ) -> advisor_pb.HintResponse:
        players = res.game.num_players(res.state)
        seat = None
        if request.HasField("seat"):
            if not 0 <= request.seat < players:
                raise RequestError(
                    f"seat {request.seat!r} is not a seat of this {players}-player position "
                    f"(seats are 0..{players - 1})",
                    field="seat",
                )
            seat = int(request.seat)
        job = self._job("chance_hint", res, by, seat=seat, seed=request.seed)
        outcome = await self.pool.run(job, give_up_at=_give_up_at(call, by))
        reply = advisor_pb.HintResponse()
        chance_hints(reply, outcome.value, top_k)
        return reply

    @checked
    async def Review(
        self, request: advisor_pb.ReviewRequest, call: Call
    ) -> AsyncIterator[advisor_pb.ReviewResponse]:
        """A record reviewed move by move: one report per move, then the worst moves explained."""
        res = convert.resolve_position(request.position, content_root=self.content_root)
        if res.kind != "record" or res.setup is None:
            raise RequestError(
                "a review needs the game's record (position.record): a state has no moves to review",
                field="position.record",
            )
        worst = request.worst or DEFAULT_WORST
        if not 1 <= worst <= MAX_WORST:
            raise RequestError(f"worst must be 0 (3) or 1..{MAX_WORST}, not {request.worst!r}", field="worst")
        by = answer_by(call.time_remaining(), self.limits)
        job = self._review_job(request, res, worst, by)
        reports: asyncio.Queue[Reviewed] = asyncio.Queue()
        with self.gate.hold(call.client):
            worker = await self.pool.acquire(wait=False, until=wait_until(by))
            run = asyncio.ensure_future(
                self.pool.run(
                    job, worker=worker, give_up_at=_give_up_at(call, by), on_progress=reports.put_nowait
                )
            )
            sent = 0
            get: asyncio.Future[Any] | None = None
            try:
                while not run.done() or not reports.empty():
                    get = asyncio.ensure_future(reports.get())
                    await asyncio.wait({get, run}, return_when=asyncio.FIRST_COMPLETED)
                    if not get.done():
                        get.cancel()
                        continue
                    sent += 1
                    yield advisor_pb.ReviewResponse(
                        move=_reviewed_to_pb(get.result()), moves=len(res.actions)
                    )
                outcome: JobOutcome = run.result()
            finally:  # a caller gone mid-wait leaves both pending: cancel them (a pending task
                # collected with its queue logged "Task was destroyed but it is pending!")
                if not run.done():
                    run.cancel()
                if get is not None and not get.done():
                    get.cancel()
        yield _review_final(outcome, len(res.actions))

    def _review_job(
        self, request: advisor_pb.ReviewRequest, res: convert.Resolved, worst: int, by: float
    ) -> Job:
        """The review job of a record: the request's budget per position (else
        :data:`REVIEW_SIMULATIONS`), a quarter of the time left (at most :data:`REVIEW_EXPLAIN_S`)
        kept to explain the worst moves."""
        budget = request.budget
        limit = search_limit(
            self.limits, simulations=budget.simulations, time_s=budget.time_s, by=by, use_default=False
        )
        sims = limit.simulations if limit is not None else REVIEW_SIMULATIONS
        time_s = limit.time_s if limit is not None else None
        setup = res.setup
        assert setup is not None
        return self._job(
            "review",
            res,
            by,
            players=setup.players,
            options=dict(setup.options),
            setup_seed=setup.seed,
            actions=res.actions,
            simulations=sims or 0,
            time_s=time_s or 0.0,
            seed=request.seed,
            worst=worst,
            until=by - min(REVIEW_EXPLAIN_S, max(0.0, by - time.monotonic()) / 4),
        )


def _review_final(outcome: JobOutcome, moves: int) -> advisor_pb.ReviewResponse:
    """A review's last report: the start values and the worst moves explained (``stopped_by``
    "deadline" when the review ran out of time)."""
    final = advisor_pb.ReviewResponse(final=True, moves=moves)
    if isinstance(outcome.value, Review):
        found = outcome.value
        final.start_values.extend(found.start)
        for m in found.mistakes:
            final.mistakes.append(_mistake_to_pb(m, found.moves[m.number - 1]))
        if found.stopped:
            final.stopped_by = "deadline"
    else:
        final.stopped_by = "deadline"
    return final


def _reviewed_to_pb(m: Reviewed) -> advisor_pb.ReviewedMove:
    return advisor_pb.ReviewedMove(
        number=m.number,
        seat=m.seat,
        action=m.action,
        log_line=m.log,
        values=list(m.values),
        best_action=m.best,
        best_value=m.best_value,
        played_value=m.played_value,
        loss=m.loss,
    )


def _mistake_to_pb(m: Mistake, move: Reviewed) -> advisor_pb.ReviewMistake:
    """A mistake of a review: the search's choice against the move played, with a hint's reasons."""
    hint = m.hint
    analysis = hint.analysis
    by_text = {c.text: c for c in analysis.candidates}
    best = by_text[hint.order[0]]
    known = by_text.get(move.action)
    own = known is not None and (known.visits >= MIN_VISITS or known.proven is not None)
    played = known if own and known is not None else _stand_in(move)
    outcomes = {o.action: o for o in hint.outcomes if o.line_facts}
    mine, theirs = outcomes.get(best.text), outcomes.get(played.text)
    facts = (hint.facts[0], hint.facts[1]) if len(hint.facts) >= 2 else ((), ())
    pair = (mine, theirs) if mine is not None and theirs is not None else None
    reasons = hint_reasons(
        facts[0], best, analysis, None, facts[1], advice=hint.advice, outcome=mine, rival=theirs
    )
    return advisor_pb.ReviewMistake(
        number=m.number,
        seat=m.seat,
        played=move.action,
        best_action=best.text,
        loss=move.loss,
        why=why_first(best, played, facts, analysis, outcomes=pair, advice=hint.advice),
        reasons=reasons,
    )


def _stand_in(move: Reviewed) -> Candidate:
    """The move played when the search hardly tried it: valued by the search of the position after
    it (its simulations as the visits, its pessimistic bound computed alike)."""
    m, n = move.played_value, max(1, move.played_visits)
    return Candidate(
        action=None,
        text=move.action,
        visits=n,
        value=move.values,
        prior=0.0,
        lcb=max(0.0, m - 1.96 * math.sqrt(max(0.0, m * (1 - m)) / n)),
        pv=(move.action,),
    )
