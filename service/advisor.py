# ruff: noqa: N802  (handler methods are named after the RPCs)
"""AdvisorService: the AI's move, streamed analyses, hints with reasons.

Thin: read the position on the event loop, run the search in a worker process
(:mod:`service.jobs`), convert the answer. The client's deadline bounds every search, which
answers its best so far a little before it (:func:`service.limits.answer_by`); a cancelled call
stops its search. Transport-neutral (:mod:`service.rpc`): served over gRPC and HTTP alike.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

from games.core import CHANCE, TERMINAL, Fact, Game, as_facts
from games.core.registry import GameEntry
from games.core.views import check_known
from games.errors import LictorError, WrongSeatError
from lictor.v1 import advisor_service_pb2 as advisor_pb
from search import Analysis
from service import convert, face
from service.errors import RequestError
from service.jobs import Hint, Move
from service.limits import Limits, answer_by, give_up_at, search_limit
from service.matches.servicer import StreamGate
from service.rpc import Call, checked
from service.workers import Job, JobOutcome, WorkerPool, wait_until

__all__ = [
    "RANKED_BY",
    "AdvisorServicer",
    "check_searchable",
    "explain_facts",
    "hint_reasons",
    "varying_labels",
    "why_first",
]

DEFAULT_TOP_K = 3
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


RANKED_BY = "share of the search's simulations"
"""What hints are ranked by (the search's own order: a proven win first, then the most simulated
move), shown as every hint's first reason."""

MAX_COMPARED = 24
"""Most root moves whose facts are read to tell which facts differ between candidates."""


def _share(cand: Any, analysis: Analysis) -> float:
    total = max(1, sum(c.visits for c in analysis.candidates))
    return float(cand.visits) / total


def _mover_value(cand: Any, seat: int) -> float | None:
    values = [float(v) for v in cand.value]
    return values[seat] if 0 <= seat < len(values) else None


def _shown(value: float, unit: str) -> str:
    if unit == "probability":
        return f"{value:.0%}"
    text = f"{value:g}" if float(value).is_integer() else f"{value:.2f}"
    return f"{text} {unit}" if unit and unit not in ("share",) else text


def _reason(text: str, value: float, unit: str = "", sentence: str = "") -> advisor_pb.Reason:
    return advisor_pb.Reason(
        text=text, value=float(value), unit=unit, sentence=sentence or f"{text}: {_shown(value, unit)}"
    )


def explain_facts(game: Game[Any, Any], state: Any, action: Any) -> tuple[Fact, ...]:
    """The game's facts about ``action`` (empty when the game cannot explain it)."""
    try:
        return tuple(as_facts(game.explain(state, action)))
    except LictorError:
        return ()


def varying_labels(facts: Sequence[Sequence[Fact]]) -> set[str]:
    """Labels of the facts that are not the same for every candidate (missing counts as different)."""
    labels = {f.label for row in facts for f in row}
    varying = set()
    for label in labels:
        values = {next((f.value for f in row if f.label == label), None) for row in facts}
        if len(values) > 1:
            varying.add(label)
    return varying


def hint_reasons(
    facts: Sequence[Fact],
    cand: Any,
    analysis: Analysis,
    varying: set[str] | None = None,
    against: Sequence[Fact] = (),
) -> list[advisor_pb.Reason]:
    """A hint's reasons: the number hints are ranked by first, then the game's facts that differ
    between candidates (all of them when ``varying`` is None) — first those where it differs from
    ``against`` (the closest rival hint), so a short list still says what sets it apart — then the
    search's other numbers."""
    share = _share(cand, analysis)
    reasons = [_reason(RANKED_BY, share, "share", f"the search chose it in {share:.0%} of its simulations")]
    rival = {f.label: f.value for f in against}
    shown = [f for f in facts if varying is None or f.label in varying]
    shown.sort(key=lambda f: rival.get(f.label, f.value) == f.value)  # stable: the game's order kept
    reasons += [_reason(f.label, f.value, f.unit, f.sentence()) for f in shown]
    seat = analysis.seat
    mine = _mover_value(cand, seat)
    if mine is not None:
        reasons.append(_reason("expected result for you (search)", mine))
        others = [float(v) for i, v in enumerate(cand.value) if i != seat]
        if others:
            reasons.append(_reason("lead over the best other seat (search)", mine - max(others)))
    reasons.append(_reason("pessimistic value (lower confidence bound)", float(cand.lcb)))
    if cand.proven is not None:
        reasons.append(_reason("proven value (exact)", float(cand.proven)))
    return reasons


def why_first(
    first: Any, second: Any, facts: tuple[Sequence[Fact], Sequence[Fact]], analysis: Analysis
) -> str:
    """One line: why the first hint beats the second (the facts that differ between the two, what
    #1 gives up, then the search's numbers)."""
    gains: list[str] = []
    costs: list[str] = []
    other = {f.label: f for f in facts[1]}
    for f in facts[0]:
        g = other.get(f.label)
        if g is None or g.value == f.value:
            continue
        left = _shown(f.value, f.unit if f.unit == "probability" else "")
        shown = f"{f.label} {left} vs {_shown(g.value, f.unit)}"
        if f.unit != "probability":
            shown = f"{f.label} {f.value - g.value:+g} ({left} vs {_shown(g.value, f.unit)})"
        direction = f.better * (f.value - g.value)
        (costs if direction < 0 else gains).append(shown)
    parts = gains[:3]
    if costs:
        parts.append("gives up " + ", ".join(costs[:2]))
    s1, s2 = _share(first, analysis), _share(second, analysis)
    search = f"the search chose it in {s1:.0%} of its simulations vs {s2:.0%}"
    v1, v2 = _mover_value(first, analysis.seat), _mover_value(second, analysis.seat)
    if v1 is not None and v2 is not None:
        search += f", expected result {v1:.2f} vs {v2:.2f}"
        if v2 > v1:
            search += f" (the {second.text} estimate rests on fewer simulations)"
    if first.proven is not None:
        search = f"proven {first.proven:g} for you; " + search
    parts.append(search)
    return f"{first.text} over {second.text}: " + "; ".join(parts)


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

    @checked
    async def Hint(self, request: advisor_pb.HintRequest, call: Call) -> advisor_pb.HintResponse:
        """Top-k moves with reasons."""
        res = self._resolve(request)
        top_k = request.top_k or DEFAULT_TOP_K
        if not 1 <= top_k <= self.limits.max_top_k:
            raise RequestError(
                f"top_k must be 1..{self.limits.max_top_k}, not {request.top_k!r}", field="top_k"
            )
        by = answer_by(call.time_remaining(), self.limits)
        limit = search_limit(
            self.limits, simulations=request.budget.simulations, time_s=request.budget.time_s, by=by
        )
        job = self._job("hint", res, by, limit=limit, seed=request.seed, top_k=top_k)
        outcome = await self.pool.run(job, give_up_at=_give_up_at(call, by))
        if isinstance(outcome.value, Hint):
            analysis, facts = outcome.value.analysis, list(outcome.value.facts)
        else:  # late: the search's last report; the game's facts are read here
            analysis, facts = outcome.value, []
        reply = advisor_pb.HintResponse(
            seat=analysis.seat, analysis=convert.analysis_to_pb(analysis, final=True), ranked_by=RANKED_BY
        )
        top = analysis.candidates[:top_k]
        compared = analysis.candidates[: max(MAX_COMPARED, top_k)]
        try:
            seen = face.seen_state(res.game, res.state, analysis.seat)
        except LictorError:
            seen = None
        if seen is not res.state:  # hidden information: the facts come from what the mover may know
            facts = []
        if seen is None:  # no sample of the mover's view: no facts
            facts = [()] * len(compared)
        facts += [explain_facts(res.game, seen, c.action) for c in compared[len(facts) :]]
        varying = varying_labels(facts[: len(compared)]) if len(compared) > 1 else set()
        for i, c in enumerate(top):
            reply.hints.add(
                rank=i + 1,
                action=c.text,
                reasons=hint_reasons(
                    facts[i], c, analysis, varying, against=facts[1 if i == 0 else 0] if len(top) > 1 else ()
                ),
                candidate=convert.candidate_to_pb(c),
            )
        if len(top) > 1:
            kept = tuple([f for f in facts[i] if f.label in varying] for i in (0, 1))
            reply.why = why_first(top[0], top[1], (kept[0], kept[1]), analysis)[:500]
        if outcome.late:
            reply.analysis.stopped_by = "deadline"
        return reply
