"""End-of-game scoring: the VP schedule and the tie-breaker chain, as pure rules.

Every function works on plain cube vectors so that the solvers can call the same rules.

Reading of the schedule (documented in docs/tiberius.md):
- "Most / next-most / third-most" placements (Conquests, PCIM, Governorships, Imperator's most)
  go to seats with at least one cube, ranked by cubes, ties broken by the chain
  (rule: tiberius/tie-breaker). Imperator's "least" is the last seat of all seats (2+ players).
- Imperial Marriages' most has no tie-breaker: it needs strictly more cubes than every other seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.core.protocol import Seat
from games.tiberius.model import CC, CQ, GV, IM, IN, IP, PC, PR, TR, Box

__all__ = [
    "CHAIN_NAMES",
    "Line",
    "SeatTally",
    "chain_key",
    "consul_points",
    "placement",
    "ranking",
    "score_cubes",
    "score_totals",
    "tiebreak_reasons",
]

CHAIN_BOXES: tuple[Box, ...] = (IN, PC, IM, IP, PR, GV, CQ, CC, TR)
"""The cube boxes of the chain after adoption, in order (rule: tiberius/tie-breaker)."""
CHAIN_NAMES: tuple[str, ...] = (
    "adoption",
    "influence",
    "pcim",
    "imperial marriages",
    "imperator",
    "priesthoods",
    "governorships",
    "conquests",
    "consul/censor",
    "triumphs",
    "age",
)

Key = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Line:
    """One category's points for one seat.

    Attributes:
        category: the schedule's category name.
        points: VP scored.
        detail: how, with the numbers.
    """

    category: str
    points: int
    detail: str


@dataclass(frozen=True, slots=True)
class SeatTally:
    """One seat's VP.

    Attributes:
        seat: the seat.
        total: total VP.
        lines: points per category, in schedule order.
    """

    seat: Seat
    total: int
    lines: tuple[Line, ...]


def chain_key(cubes: Sequence[int], adopted: bool, age_rank: int) -> Key:
    """The tie-breaker chain of one seat as a tuple that sorts higher for the better seat.

    rule: tiberius/tie-breaker - adoption, influence, PCIM, Imperial Marriages, Imperator,
    Priesthoods, Governorships, Conquests, Consul/Censor, Triumphs, then the oldest player.
    ``age_rank`` is 0 for the oldest seat.
    """
    return (int(adopted), *(cubes[b] for b in CHAIN_BOXES), -age_rank)


def placement(
    cubes: Sequence[Sequence[int]], keys: Sequence[Key], box: Box, *, min_cubes: int = 1
) -> list[Seat]:
    """Seats with at least ``min_cubes`` in ``box``, best first (cubes, then the chain)."""
    seats = [s for s in range(len(cubes)) if cubes[s][box] >= min_cubes]
    return sorted(seats, key=lambda s: (cubes[s][box], keys[s]), reverse=True)


def consul_points(n: int) -> int:
    """rule: tiberius/score-consul-censor - first cube 3, second 2, then 1 each."""
    return n + 2 * min(n, 1) + min(max(n - 1, 0), 1)


def _tie_note(cubes: Sequence[Sequence[int]], keys: Sequence[Key], box: Box, seat: Seat, need: int) -> str:
    """How the chain broke ``seat``'s ties in ``box`` (empty when nobody had as many cubes)."""
    notes = []
    for t in range(len(cubes)):
        if t == seat or cubes[t][box] != cubes[seat][box] or cubes[t][box] < need:
            continue
        for name, a, b in zip(CHAIN_NAMES, keys[seat], keys[t], strict=True):
            if a != b:
                notes.append(f"{'ahead of' if a > b else 'behind'} seat {t} by {name}")
                break
    return f"; tie: {', '.join(notes)}" if notes else ""


def _place_text(place: int) -> str:
    return {1: "most", 2: "next-most", 3: "third-most"}.get(place, f"place {place}")


def score_cubes(
    cubes: Sequence[Sequence[int]],
    adopted: Sequence[bool],
    loyal: Sequence[bool],
    age_rank: Sequence[int],
    *,
    marriage_vp: str = "schedule",
) -> tuple[SeatTally, ...]:
    """Score every seat by the VP schedule.

    Args:
        cubes: per seat, cubes per box.
        adopted: per seat, whether it is a Son of Augustus.
        loyal: per seat, whether it holds career cards from all six decks.
        age_rank: per seat, 0 for the oldest.
        marriage_vp: "schedule" (default) or "aid" (the VP aid adds 1 VP per marriage cube).
    """
    n = len(cubes)
    keys = [chain_key(cubes[s], adopted[s], age_rank[s]) for s in range(n)]
    lines: list[list[Line]] = [[] for _ in range(n)]

    def places(box: Box) -> dict[Seat, int]:
        return {s: i + 1 for i, s in enumerate(placement(cubes, keys, box))}

    # rule: tiberius/score-conquests - 10 / 5 / 2, others 0.
    pl = places(CQ)
    for s in range(n):
        p = pl.get(s, 0)
        pts = {1: 10, 2: 5, 3: 2}.get(p, 0)
        why = (
            f"{_place_text(p)} ({cubes[s][CQ]} cubes){_tie_note(cubes, keys, CQ, s, 1)}" if p else "no cubes"
        )
        lines[s].append(Line("Conquests", pts, why))
    # rule: tiberius/score-imperial-marriages - most (no tie-breaker) +5, none -5.
    for s in range(n):
        x = cubes[s][IM]
        others = max((cubes[t][IM] for t in range(n) if t != s), default=-1)
        pts = 5 if x >= 1 and x > others else (-5 if x == 0 else 0)
        why = "strictly most" if pts == 5 else ("no cubes" if x == 0 else "not strictly most")
        if marriage_vp == "aid":
            pts += x
            why += f", +1 per cube ({x})"
        lines[s].append(Line("Imperial Marriages", pts, why if x == 0 else f"{why} ({x} cubes)"))
    # rule: tiberius/score-pcim - 12 / 10 / 7 with cubes, 0 without.
    pl = places(PC)
    for s in range(n):
        p = pl.get(s, 0)
        pts = {1: 12, 2: 10}.get(p, 7) if p else 0
        why = (
            f"{_place_text(p)} ({cubes[s][PC]} cubes){_tie_note(cubes, keys, PC, s, 1)}" if p else "no cubes"
        )
        lines[s].append(Line("Pro-Consular Imperium Maius", pts, why))
    # rule: tiberius/score-consul-censor
    for s in range(n):
        lines[s].append(Line("Consul/Censor", consul_points(cubes[s][CC]), f"{cubes[s][CC]} cubes"))
    # rule: tiberius/score-governorships - 6 / 5 / 4, others with cubes 2.
    pl = places(GV)
    for s in range(n):
        p = pl.get(s, 0)
        pts = {1: 6, 2: 5, 3: 4}.get(p, 2) if p else 0
        why = (
            f"{_place_text(p)} ({cubes[s][GV]} cubes){_tie_note(cubes, keys, GV, s, 1)}" if p else "no cubes"
        )
        lines[s].append(Line("Governorships", pts, why))
    # rule: tiberius/score-triumphs - 2 per cube, none -3.
    for s in range(n):
        x = cubes[s][TR]
        lines[s].append(Line("Triumphs", 2 * x if x else -3, f"{x} cubes"))
    # rule: tiberius/score-imperator - 1 per cube, most +3, least -3.
    order = placement(cubes, keys, IP, min_cubes=0)
    for s in range(n):
        x = cubes[s][IP]
        pts, why = x, f"{x} cubes"
        if order[0] == s and x >= 1:
            pts, why = pts + 3, why + ", most +3"
        if n >= 2 and order[-1] == s:
            pts, why = pts - 3, why + ", least -3"
        if (order[0] == s and x >= 1) or (n >= 2 and order[-1] == s):
            why += _tie_note(cubes, keys, IP, s, 0)
        lines[s].append(Line("Imperator", pts, why))
    # rule: tiberius/score-priesthoods
    for s in range(n):
        lines[s].append(Line("Priesthoods", cubes[s][PR], f"{cubes[s][PR]} cubes"))
    # rule: tiberius/score-adoption
    for s in range(n):
        lines[s].append(
            Line("Son of Augustus", 8 if adopted[s] else 0, "adopted" if adopted[s] else "not adopted")
        )
    # rule: tiberius/score-loyalty
    for s in range(n):
        lines[s].append(
            Line("Loyalty", 5 if loyal[s] else 0, "all six decks" if loyal[s] else "not all decks")
        )
    # rule: tiberius/score-influence - 1 VP per 3 cubes.
    for s in range(n):
        lines[s].append(Line("Influence", cubes[s][IN] // 3, f"{cubes[s][IN]} cubes"))
    return tuple(SeatTally(s, sum(x.points for x in lines[s]), tuple(lines[s])) for s in range(n))


def score_totals(
    cubes: Sequence[Sequence[int]],
    adopted: Sequence[bool],
    loyal: Sequence[bool],
    age_rank: Sequence[int],
    *,
    marriage_vp: str = "schedule",
) -> list[int]:
    """The totals of :func:`score_cubes` without the breakdown (the fast path for searches;
    ``tests/tiberius/test_solver.py`` checks both agree)."""
    n = len(cubes)
    keys = [chain_key(cubes[s], adopted[s], age_rank[s]) for s in range(n)]
    totals = [0] * n
    for box, table, others in ((CQ, (10, 5, 2), 0), (PC, (12, 10), 7), (GV, (6, 5, 4), 2)):
        for i, s in enumerate(placement(cubes, keys, box)):
            totals[s] += table[i] if i < len(table) else others
    for s in range(n):
        c = cubes[s]
        x = c[IM]
        if x == 0:
            totals[s] -= 5
        elif all(x > cubes[t][IM] for t in range(n) if t != s):
            totals[s] += 5
        if marriage_vp == "aid":
            totals[s] += x
        totals[s] += consul_points(c[CC]) + (2 * c[TR] if c[TR] else -3) + c[IP] + c[PR] + c[IN] // 3
        totals[s] += (8 if adopted[s] else 0) + (5 if loyal[s] else 0)
    order = placement(cubes, keys, IP, min_cubes=0)
    if cubes[order[0]][IP] >= 1:
        totals[order[0]] += 3
    if n >= 2:
        totals[order[-1]] -= 3
    return totals


def ranking(totals: Sequence[int], keys: Sequence[Key]) -> list[Seat]:
    """Seats best first: by VP, ties broken by the chain (rule: tiberius/tie-breaker)."""
    return sorted(range(len(totals)), key=lambda s: (totals[s], keys[s]), reverse=True)


def tiebreak_reasons(totals: Sequence[int], keys: Sequence[Key], seat: Seat) -> tuple[str, ...]:
    """For ``seat``, the chain step that decided it against each seat with the same VP."""
    out: list[str] = []
    for t in range(len(totals)):
        if t == seat or totals[t] != totals[seat]:
            continue
        for name, a, b in zip(CHAIN_NAMES, keys[seat], keys[t], strict=True):
            if a != b:
                verdict = "ahead of" if a > b else "behind"
                if name == "age":
                    shown = "older" if a > b else "younger"
                    out.append(f"{name}: {shown}, {verdict} seat {t}")
                else:
                    out.append(f"{name}: {a} vs {b}, {verdict} seat {t}")
                break
    return tuple(out)
