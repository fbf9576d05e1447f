"""The hints' words: the reasons a hint gives (the number hints are ranked by first, what the move
leads to against its rival, the game's facts about it, the search's numbers), why #1 beats #2 in
one line, and what each group of chance outcomes means for a seat. Pure functions of a hint job's
answer (:mod:`service.jobs`); :mod:`service.advisor` serves them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from games.core import Fact, Game, as_facts
from games.errors import LictorError
from lictor.v1 import advisor_service_pb2 as advisor_pb
from search import Analysis
from search.outcomes import Outcome, hint_order, separated, value_of
from service import convert
from service.jobs import ChanceHint, Hint
from solver.core import Advice

__all__ = [
    "CHANCE_RANKED_BY",
    "RANKED_BY",
    "Difference",
    "build_hints",
    "chance_hints",
    "differences",
    "explain_facts",
    "first_reason",
    "hint_reasons",
    "outcome_reasons",
    "varying_labels",
    "why_first",
]


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


def why_first(
    first: Any,
    second: Any,
    facts: tuple[Sequence[Fact], Sequence[Fact]],
    analysis: Analysis,
    *,
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
        reply.why = why_first(top[0], top[1], (kept[0], kept[1]), analysis, outcomes=both, advice=advice)
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
