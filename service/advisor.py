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
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from games.core import CHANCE, TERMINAL, Fact, Game, as_facts
from games.core.registry import GameEntry
from games.core.views import check_known
from games.errors import LictorError, WrongSeatError
from lictor.v1 import advisor_service_pb2 as advisor_pb
from search import Analysis, Candidate
from search.outcomes import Outcome, hint_order, separated, value_of
from service import convert, face
from service.errors import RequestError
from service.jobs import MIN_VISITS, ChanceHint, Hint, Mistake, Move, Review, Reviewed
from service.limits import Limits, answer_by, give_up_at, search_limit
from service.matches.servicer import StreamGate
from service.rpc import Call, checked
from service.workers import Job, JobOutcome, WorkerPool, wait_until
from solver.core import Advice

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


RANKED_BY = "your win chance, at least (the search's 95% bound)"
"""What hints are ranked by when no exact solver answers: the lower end of the search's 95% interval
of the mover's value (the exact value when proven), shown as every hint's first reason; a move the
search tried a few times with a lucky mean never stands above a well-searched one."""
CHANCE_RANKED_BY = "probability"
"""What hints at a chance node are ranked by: each group of outcomes' probability."""

MAX_COMPARED = 24
"""Most root moves whose facts are read to tell which facts differ between candidates."""
MAX_WHY = 600
"""Longest ``why`` line."""


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


# ------------------------------------------------------------------------------ the first number
def first_reason(cand: Any, seat: int, advice: Advice | None) -> advisor_pb.Reason:
    """The number a hint is ranked by, as its first reason: the exact solver's value when it ranks
    the hints, else the search's pessimistic win chance (the proven value when proven)."""
    if advice is not None and advice.decides and cand.text in advice.values:
        v = float(advice.values[cand.text])
        said = advice.sentences.get(cand.text) or f"{advice.label} {_shown(v, advice.unit)}"
        return _reason(f"{advice.label} (exact)", v, advice.unit, f"{said} (exact)")
    mean = value_of(cand, seat)
    if cand.proven is not None:
        return _reason(RANKED_BY, mean, "probability", f"win chance {mean:.0%}, proven exactly by the search")
    return _reason(
        RANKED_BY,
        float(cand.lcb),
        "probability",
        f"win chance at least {cand.lcb:.0%} (estimate {mean:.0%} over {cand.visits} simulations)",
    )


def ranked_by(advice: Advice | None) -> str:
    """The text of every hint's first reason."""
    return f"{advice.label} (exact)" if advice is not None and advice.decides else RANKED_BY


# ------------------------------------------------------------------------------ outcomes compared
@dataclass(frozen=True, slots=True, kw_only=True)
class Difference:
    """One fact on which two moves' outcomes differ.

    Attributes:
        mine: the fact at the end of this move's line.
        theirs: the same fact at the end of the other move's line.
        expected: (this move's, the other's) means over the sampled continuations, when they differ
            by more than twice their standard error (None otherwise).
        favours: +1 when it favours this move, -1 the other, 0 neither (a fact with no direction).
    """

    mine: Fact
    theirs: Fact
    expected: tuple[float, float] | None
    favours: int


def differences(mine: Outcome, theirs: Outcome) -> list[Difference]:
    """The facts on which two moves' outcomes differ (along their lines, or significantly in
    expectation), in the game's order."""
    other = {f.label: f for f in theirs.line_facts}
    out = []
    for f in mine.line_facts:
        g = other.get(f.label)
        if g is None:
            continue
        e1, e2 = mine.expected.get(f.label), theirs.expected.get(f.label)
        expected = None
        if e1 is not None and e2 is not None and min(mine.samples, theirs.samples) >= 4:
            se = math.hypot(mine.spread.get(f.label, 0.0), theirs.spread.get(f.label, 0.0))
            if abs(e1 - e2) > max(2 * se, 1e-9):
                expected = (e1, e2)
        if f.value == g.value and expected is None:
            continue
        delta = expected[0] - expected[1] if expected is not None else f.value - g.value
        favours = 0 if not f.better else (1 if f.better * delta > 0 else -1)
        out.append(Difference(mine=f, theirs=g, expected=expected, favours=favours))
    return out


def _number(value: float, unit: str) -> str:
    if unit == "probability":
        return f"{value:.0%}"
    return f"{value:g}" if float(value).is_integer() else f"{value:.1f}"


def _amount(value: float, unit: str) -> str:
    """``"1 token"``, ``"3 tokens"``, ``"72%"``."""
    if unit in ("", "share"):
        return _number(value, "")
    if unit == "probability":
        return f"{value:.0%}"
    shown = _number(value, unit)
    return f"{shown} {unit[:-1] if shown in ('1', '-1') and unit.endswith('s') else unit}"


def _difference_sentence(d: Difference, other: str, horizon: str) -> str:
    """``"at the end of round 4: Conquests +2 VP (most (2 cubes)); after bid 1: 0 VP"``, or with the
    sampled continuations: ``"at the end of round 4, expected triumph tokens 0.2 vs 1 after bid 1"``."""
    unit = d.mine.unit
    if d.expected is None:
        return f"at {horizon}: {d.mine.sentence()}; after {other}: {_amount(d.theirs.value, unit)}"
    a, b = d.expected
    text = f"at {horizon}, expected {d.mine.label} {_number(a, unit)} vs {_number(b, unit)} after {other}"
    if d.mine.value != d.theirs.value:
        text += f" (along the lines: {d.mine.sentence()}; {_amount(d.theirs.value, unit)})"
    return text


def _difference_phrase(d: Difference, *, theirs_first: bool = False) -> str:
    """``"Conquests VP 10 vs 5 VP"``, or ``"lead over the best other seat -5 vs -13.4 VP expected"``
    when the sampled continuations tell them apart; ``theirs_first`` in a phrase about the second
    move ("#2 does better on ..."), so the first number is always the one of the move named."""
    unit = d.mine.unit if d.mine.unit not in ("share", "probability") else ""
    a, b = d.expected if d.expected is not None else (d.mine.value, d.theirs.value)
    if theirs_first:
        a, b = b, a
    text = f"{d.mine.label} {_number(a, d.mine.unit)} vs {_number(b, d.mine.unit)}"
    return text + (f" {unit}" if unit else "") + (" expected" if d.expected is not None else "")


def outcome_reasons(mine: Outcome, theirs: Outcome, *, most: int = 4) -> list[advisor_pb.Reason]:
    """A hint's reasons from what it leads to against its rival: the facts where it does better
    first, then those where the rival does (so a close call lists both sides)."""
    diffs = differences(mine, theirs)
    diffs.sort(key=lambda d: -d.favours)  # stable: the game's order within each side
    horizon = mine.horizon or "the horizon"
    return [
        _reason(d.mine.label, d.mine.value, d.mine.unit, _difference_sentence(d, theirs.action, horizon))
        for d in diffs[:most]
    ]


# ------------------------------------------------------------------------------ the hints
def hint_reasons(
    facts: Sequence[Fact],
    cand: Any,
    analysis: Analysis,
    varying: set[str] | None = None,
    against: Sequence[Fact] = (),
    *,
    advice: Advice | None = None,
    outcome: Outcome | None = None,
    rival: Outcome | None = None,
) -> list[advisor_pb.Reason]:
    """A hint's reasons: the number hints are ranked by first; then what the move leads to against
    its rival (``outcome`` vs ``rival``: the game's facts at the end of the look ahead); then the
    game's facts about the move itself that differ between candidates (all of them when ``varying``
    is None), those where it differs from ``against`` first; then the search's numbers, beside
    the reasons. No two reasons say the same."""
    seat = analysis.seat
    reasons = [first_reason(cand, seat, advice)]
    if outcome is not None and rival is not None:
        reasons += outcome_reasons(outcome, rival)
    other = {f.label: f.value for f in against}
    shown = [f for f in facts if varying is None or f.label in varying]
    shown.sort(key=lambda f: other.get(f.label, f.value) == f.value)  # stable: the game's order kept
    reasons += [_reason(f.label, f.value, f.unit, f.sentence()) for f in shown]
    if advice is not None and advice.decides:
        reasons.append(
            _reason(
                RANKED_BY,
                float(cand.lcb),
                "probability",
                f"the search: win chance at least {cand.lcb:.0%} (estimate {value_of(cand, seat):.0%})",
            )
        )
    share = _share(cand, analysis)
    reasons.append(
        _reason(
            "share of the search's simulations", share, "share", f"searched in {share:.0%} of the simulations"
        )
    )
    mine = _mover_value(cand, seat)
    if mine is not None:
        reasons.append(_reason("expected result for you (search)", mine))
        others = [float(v) for i, v in enumerate(cand.value) if i != seat]
        if others:
            reasons.append(_reason("lead over the best other seat (search)", mine - max(others)))
    if cand.proven is not None:
        reasons.append(_reason("proven value (exact)", float(cand.proven)))
    return _unique(reasons)


def _unique(reasons: list[advisor_pb.Reason]) -> list[advisor_pb.Reason]:
    """Reasons without repeats (the same sentence, or the same fact twice)."""
    seen_sentences: set[str] = set()
    seen_labels: set[tuple[str, str]] = set()
    out = []
    for r in reasons:
        key = (r.text, r.unit)
        if r.sentence in seen_sentences or (key in seen_labels and r.text != RANKED_BY):
            continue
        seen_sentences.add(r.sentence)
        seen_labels.add(key)
        out.append(r)
    return out


def _fact_gaps(first: Sequence[Fact], second: Sequence[Fact]) -> tuple[list[str], list[str]]:
    """The ``explain`` facts that differ between two moves: (the first's advantages, the second's),
    each with the value of the move it speaks of first."""
    gains: list[str] = []
    costs: list[str] = []
    other = {f.label: f for f in second}
    for f in first:
        g = other.get(f.label)
        if g is None or g.value == f.value:
            continue
        mine, theirs = _number(f.value, f.unit), _number(g.value, f.unit)
        if f.better * (f.value - g.value) < 0:
            costs.append(f"{f.label} {theirs} vs {mine}")
        else:
            gains.append(f"{f.label} {mine} vs {theirs}")
    return gains, costs


def why_first(  # noqa: PLR0917
    first: Any,
    second: Any,
    facts: tuple[Sequence[Fact], Sequence[Fact]],
    analysis: Analysis,
    outcomes: tuple[Outcome, Outcome] | None = None,
    advice: Advice | None = None,
) -> str:
    """One line: why the first hint beats the second. The number they are ranked by first (so #1
    never looks worse on it), whether the search can tell them apart at all, then what each leads
    to (its advantages first; on a close call the second's too), then the game's facts about the
    moves themselves. The search's visit counts are never the reason."""
    seat = analysis.seat
    a1, a2 = first.text, second.text
    exact = advice is not None and advice.decides and a1 in advice.values and a2 in advice.values
    if exact:
        assert advice is not None
        v1, v2 = advice.values[a1], advice.values[a2]
        head = f"{advice.label} {_shown(v1, advice.unit)} vs {_shown(v2, advice.unit)} (exact"
        head += f"; {advice.assumption})" if advice.assumption else ")"
        close = v1 == v2
        parts = [head + ("; equal by that measure" if close else "")]
        parts.append(f"the search: win chance at least {first.lcb:.0%} vs {second.lcb:.0%}")
    else:
        close = not separated(first, second, seat)
        m1, m2 = value_of(first, seat), value_of(second, seat)
        head = f"win chance at least {first.lcb:.0%} vs {second.lcb:.0%} (estimates {m1:.0%} vs {m2:.0%})"
        if first.proven is not None and second.proven is not None:
            head = f"win chance {m1:.0%} vs {m2:.0%}, both proven"
        parts = [head]
        parts.append(
            "too close for the search to tell apart (their 95% intervals overlap)"
            if close
            else "the search tells them apart"
        )
    if outcomes is not None:
        diffs = differences(outcomes[0], outcomes[1])
        gains = [_difference_phrase(d) for d in diffs if d.favours > 0]
        losses = [_difference_phrase(d, theirs_first=True) for d in diffs if d.favours < 0]
        horizon = outcomes[0].horizon or "the horizon"
        if gains:
            parts.append(f"by {horizon} {a1} leads to " + ", ".join(gains[:3]))
        if losses and (close or not gains):
            parts.append(f"{a2} does better on " + ", ".join(losses[:2]))
        elif losses:
            parts.append(f"{a2} does better only on " + ", ".join(losses[:1]))
        if not diffs:
            parts.append(f"by {horizon} both lead to the same facts")
    now_gains, now_costs = _fact_gaps(facts[0], facts[1])
    if now_gains:
        parts.append("now: " + ", ".join(now_gains[:3]))
    if now_costs and (close or not now_gains):
        parts.append(f"{a2} now: " + ", ".join(now_costs[:2]))
    text = f"{a1} over {a2}: " + "; ".join(parts)
    return text if len(text) <= MAX_WHY else text[: MAX_WHY - 1] + "…"


def build_hints(
    reply: advisor_pb.HintResponse,
    hint: Hint,
    top_k: int,
    *,
    facts_of: Callable[[Any], tuple[Fact, ...]] | None = None,
) -> None:
    """Fill ``reply`` with the hints of a hint job's answer (``hint.order`` of the analysis, its facts,
    outcomes and exact advice); ``facts_of`` reads the facts of moves the job did not."""
    analysis, advice = hint.analysis, hint.advice
    by_text = {c.text: c for c in analysis.candidates}
    order = [by_text[t] for t in hint.order if t in by_text] or hint_order(analysis)
    compared = order[: max(MAX_COMPARED, top_k)]
    facts = list(hint.facts)
    if facts_of is not None:
        facts += [facts_of(c.action) for c in compared[len(facts) :]]
    facts += [()] * (len(compared) - len(facts))
    varying = varying_labels(facts[: len(compared)]) if len(compared) > 1 else set()
    outcomes = {o.action: o for o in hint.outcomes if o.line_facts}
    top = order[:top_k]
    reply.ranked_by = ranked_by(advice)
    if advice is not None and advice.decides:
        reply.exact = f"{advice.method}: {advice.label}" + (
            f" ({advice.assumption})" if advice.assumption else ""
        )
    for i, c in enumerate(top):
        rival_i = 1 if i == 0 else 0
        rival = top[rival_i] if len(top) > 1 else None
        reply.hints.add(
            rank=i + 1,
            action=c.text,
            reasons=hint_reasons(
                facts[i],
                c,
                analysis,
                varying,
                against=facts[rival_i] if rival is not None else (),
                advice=advice,
                outcome=outcomes.get(c.text),
                rival=outcomes.get(rival.text) if rival is not None else None,
            ),
            candidate=convert.candidate_to_pb(c),
        )
    if len(top) > 1:
        pair = (outcomes.get(top[0].text), outcomes.get(top[1].text))
        kept = tuple([f for f in facts[i] if f.label in varying] for i in (0, 1))
        both = (pair[0], pair[1]) if pair[0] is not None and pair[1] is not None else None
        reply.why = why_first(top[0], top[1], (kept[0], kept[1]), analysis, both, advice)
        exact = advice is not None and advice.decides and top[0].text in advice.values
        reply.separated = bool(
            exact and advice is not None and advice.values[top[0].text] != advice.values.get(top[1].text)
        ) or (not exact and separated(top[0], top[1], analysis.seat))


def chance_hints(reply: advisor_pb.HintResponse, found: ChanceHint, top_k: int) -> None:
    """Fill ``reply`` with what each group of chance outcomes means for the seat."""
    reply.seat = found.seat
    reply.chance = True
    reply.ranked_by = CHANCE_RANKED_BY
    reply.analysis.seat = found.seat
    reply.analysis.final = True
    for i, g in enumerate(found.groups[:top_k]):
        more = len(g.outcomes) - 1
        reasons = [
            _reason(
                CHANCE_RANKED_BY,
                g.probability,
                "probability",
                f"probability {g.probability:.1%}"
                + (f" ({g.outcomes[0]} and {more} more like it)" if more else ""),
            ),
            _reason("what happens", 0.0, "", g.log),
        ]
        reasons += [_reason(f.label, f.value, f.unit, f.sentence()) for f in g.facts]
        reasons.append(
            _reason(
                "your estimate after it (the game's evaluation)",
                g.value,
                "probability",
                f"seat {found.seat}'s estimate after it: {g.value:.0%} (before the draw: {found.before:.0%})",
            )
        )
        reply.hints.add(rank=i + 1, action=g.outcomes[0], reasons=_unique(reasons))
    shown = [f"{g.probability:.0%} {g.log.rstrip('.')}" for g in found.groups[:4]]
    rest = sum(g.probability for g in found.groups[4:])
    if rest:
        shown.append(f"{rest:.0%} something else")
    reply.why = (
        f"chance decides ({found.outcomes} outcomes): "
        + "; ".join(shown)
        + f"; seat {found.seat}'s estimate before the draw: {found.before:.0%}"
    )[:MAX_WHY]


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
        budget = request.budget
        limit = search_limit(
            self.limits, simulations=budget.simulations, time_s=budget.time_s, by=by, use_default=False
        )
        sims = limit.simulations if limit is not None else REVIEW_SIMULATIONS
        time_s = limit.time_s if limit is not None else None
        setup = res.setup
        job = self._job(
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
        final = advisor_pb.ReviewResponse(final=True, moves=len(res.actions))
        if isinstance(outcome.value, Review):
            found = outcome.value
            final.start_values.extend(found.start)
            for m in found.mistakes:
                final.mistakes.append(_mistake_to_pb(m, found.moves[m.number - 1]))
            if found.stopped:
                final.stopped_by = "deadline"
        else:
            final.stopped_by = "deadline"
        yield final


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
        why=why_first(best, played, facts, analysis, pair, hint.advice),
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
