# ruff: noqa: N802  (gRPC servicer methods are named after the RPCs)
"""AdvisorService: the AI's move, streamed analyses, hints with reasons. Thin over ``search``."""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator
from typing import Any

import grpc

from games.core import CHANCE, TERMINAL, Game, as_facts
from games.errors import WrongSeatError
from lictor.v1 import advisor_service_pb2 as advisor_pb
from lictor.v1 import advisor_service_pb2_grpc as advisor_grpc
from service import ai, convert
from service.errors import RequestError, grpc_errors
from service.limits import Limits, SearchGate, call_deadline, cancel_event, search_limit

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


def hint_reasons(game: Game[Any, Any], state: Any, cand: Any, analysis: Any) -> list[advisor_pb.Reason]:
    """The rules' reasons for a move (``game.explain``) and the search's numbers behind it."""
    reasons = [
        advisor_pb.Reason(text=f.label, value=float(f.value))
        for f in as_facts(game.explain(state, cand.action))
    ]
    seat = analysis.seat
    total = max(1, sum(c.visits for c in analysis.candidates))
    values = ai.candidate_values(cand)
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
    proven = ai.candidate_proven(cand, seat)
    if proven is not None:
        reasons.append(advisor_pb.Reason(text="proven value (exact)", value=proven))
    return reasons


class AdvisorServicer(advisor_grpc.AdvisorServiceServicer):  # type: ignore[misc]
    """The AI over gRPC."""

    def __init__(
        self,
        limits: Limits,
        gate: SearchGate,
        server_stop: threading.Event,
        *,
        content_root: str | None = None,
    ) -> None:
        self.content_root = content_root
        self.limits = limits
        self.gate = gate
        self.server_stop = server_stop

    @grpc_errors
    def SuggestAction(
        self, request: advisor_pb.SuggestActionRequest, context: grpc.ServicerContext
    ) -> advisor_pb.SuggestActionResponse:
        """The AI seat's move."""
        res = convert.resolve_position(request.position, content_root=self.content_root)
        check_searchable(res.game, res.state)
        level = request.level or 5
        if not 1 <= level <= 10:
            raise RequestError(f"level must be 1..10, not {request.level!r}", field="level")
        budget = request.budget
        deadline = call_deadline(context)  # read once: the budget and the stop flag share it
        limit = search_limit(
            self.limits,
            context,
            simulations=budget.simulations,
            time_s=budget.time_s,
            use_default=False,
            deadline=deadline,
        )
        if limit is None and request.HasField("budget"):
            raise RequestError("budget is set but empty: set simulations or time_s", field="budget")
        stop = cancel_event(context, self.server_stop, deadline=deadline)
        with self.gate.slot():
            action, analysis = ai.choose(
                res.game,
                res.state,
                level=level,
                seed=request.seed,
                limit=limit,
                stop=stop,
                # a budget without a level plays the best move it finds
                temperature=0.0 if request.level == 0 and limit is not None else None,
            )
        # The chosen move is one of the candidates, whose notation the search wrote already.
        text = next((c.text for c in analysis.candidates if c.action is action), None)
        if text is None:
            text = res.game.action_to_text(res.state, action)
        reply = advisor_pb.SuggestActionResponse(action=text)
        convert.analysis_to_pb(analysis, final=True, into=reply.analysis)
        return reply

    @grpc_errors
    def Analyze(
        self, request: advisor_pb.AnalyzeRequest, context: grpc.ServicerContext
    ) -> Iterator[advisor_pb.AnalyzeResponse]:
        """Progress reports, then the final one."""
        res = convert.resolve_position(request.position, content_root=self.content_root)
        check_searchable(res.game, res.state)
        if request.report_every_ms < 0 or request.max_candidates < 0:
            field = "report_every_ms" if request.report_every_ms < 0 else "max_candidates"
            raise RequestError(f"{field} must be >= 0", field=field)
        limit = search_limit(
            self.limits, context, simulations=request.budget.simulations, time_s=request.budget.time_s
        )
        assert limit is not None
        stop = cancel_event(context, self.server_stop)
        every = max(MIN_REPORT_EVERY_S, (request.report_every_ms or 250) / 1000.0)
        reports: queue.Queue[tuple[str, Any]] = queue.Queue()

        def run() -> None:
            try:
                final = ai.run_search(
                    res.game,
                    res.state,
                    limit=limit,
                    seed=request.seed,
                    stop=stop,
                    progress=lambda a: reports.put(("progress", a)),
                    progress_every_s=every,
                )
                reports.put(("final", final))
            except BaseException as exc:
                reports.put(("error", exc))

        with self.gate.slot():
            worker = threading.Thread(target=run, name="lictor-analyze", daemon=True)
            worker.start()
            try:
                while True:
                    kind, item = reports.get()
                    if kind == "error":
                        raise item
                    final = kind == "final"
                    yield advisor_pb.AnalyzeResponse(
                        analysis=convert.analysis_to_pb(
                            item, max_candidates=request.max_candidates, final=final
                        )
                    )
                    if final:
                        break
            finally:
                stop.set()
                worker.join()

    @grpc_errors
    def Hint(self, request: advisor_pb.HintRequest, context: grpc.ServicerContext) -> advisor_pb.HintResponse:
        """Top-k moves with reasons."""
        res = convert.resolve_position(request.position, content_root=self.content_root)
        check_searchable(res.game, res.state)
        top_k = request.top_k or DEFAULT_TOP_K
        if not 1 <= top_k <= self.limits.max_top_k:
            raise RequestError(
                f"top_k must be 1..{self.limits.max_top_k}, not {request.top_k!r}", field="top_k"
            )
        limit = search_limit(
            self.limits, context, simulations=request.budget.simulations, time_s=request.budget.time_s
        )
        assert limit is not None
        stop = cancel_event(context, self.server_stop)
        with self.gate.slot():
            analysis = ai.run_search(res.game, res.state, limit=limit, seed=request.seed, stop=stop)
        hints = [
            advisor_pb.MoveHint(
                rank=i + 1,
                action=c.text,
                reasons=hint_reasons(res.game, res.state, c, analysis),
                candidate=convert.candidate_to_pb(c, analysis.seat),
            )
            for i, c in enumerate(analysis.candidates[:top_k])
        ]
        return advisor_pb.HintResponse(
            seat=analysis.seat, hints=hints, analysis=convert.analysis_to_pb(analysis, final=True)
        )
