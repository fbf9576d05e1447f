"""End-of-game scoring: the VP schedule and the tie-breaker chain, as pure rules.

Every function works on plain cube vectors so that the solvers can call the same rules.

Reading of the schedule (documented in docs/tiberius.md):
- "Most / next-most / third-most" placements (Conquests, PCIM, Governorships, Imperator's most)
  go to seats with at least one cube, ranked by cubes, ties broken by the chain
  (rule: tiberius/tie-breaker). Imperator's "least" is the last seat of all seats; who takes
  Imperator's most and least with one player or when nobody has a cube is a variant
  (:func:`imperator_awards`, default the literal text).
- Imperial Marriages' most has no tie-breaker: it needs strictly more cubes than every other seat.

The VP schedule's numbers are defined here once (``PLACE_VP`` ... ``INFLUENCE_PER_VP``); the AI's
fast evaluation and the CP-SAT model of ``solver/tiberius/`` import them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import attrgetter, itemgetter, ne

from games.core.protocol import Seat
from games.core.records import Record
from games.tiberius.model import CC, CQ, CUBES_PER_PLAYER, GV, IM, IN, IP, PC, PR, TR, Box

__all__ = [
    "ADOPTION_VP",
    "CHAIN_NAMES",
    "IMPERATOR_LEAST",
    "IMPERATOR_MOST",
    "INFLUENCE_PER_VP",
    "LOYALTY_VP",
    "MARRIAGE_MOST",
    "MARRIAGE_NONE",
    "PLACE_VP",
    "TRIUMPH_NONE",
    "TRIUMPH_PER_CUBE",
    "Line",
    "SeatTally",
    "chain_key",
    "consul_points",
    "imperator_awards",
    "placement",
    "ranking",
    "score_cubes",
    "score_totals",
    "tiebreak_reasons",
]

CHAIN_BOXES: tuple[Box, ...] = (IN, PC, IM, IP, PR, GV, CQ, CC, TR)
"""The cube boxes of the chain after adoption, in order (rule: tiberius/tie-breaker)."""
_chain_boxes = itemgetter(*CHAIN_BOXES)
"""The counts of ``CHAIN_BOXES`` of a cube vector, as a tuple."""
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

# ------------------------------------------------------------------ the VP schedule, once
PLACE_VP: tuple[tuple[Box, tuple[int, ...], int], ...] = (
    (CQ, (10, 5, 2), 0),  # rule: tiberius/score-conquests - 10 / 5 / 2, others 0
    (PC, (12, 10), 7),  # rule: tiberius/score-pcim - 12 / 10, others with cubes 7
    (GV, (6, 5, 4), 2),  # rule: tiberius/score-governorships - 6 / 5 / 4, others with cubes 2
)
"""The categories scored by place among the seats with cubes: (box, VP by place, VP for a later
place); a seat without cubes there scores 0."""
MARRIAGE_MOST, MARRIAGE_NONE = 5, -5
"""rule: tiberius/score-imperial-marriages - strictly most +5 (no tie-breaker), no cubes -5."""
TRIUMPH_PER_CUBE, TRIUMPH_NONE = 2, -3
"""rule: tiberius/score-triumphs - 2 VP per cube, no cubes -3."""
IMPERATOR_MOST, IMPERATOR_LEAST = 3, -3
"""rule: tiberius/score-imperator - 1 VP per cube, most +3, least -3."""
ADOPTION_VP = 8
"""rule: tiberius/score-adoption - an adopted Son of Augustus scores 8 VP."""
LOYALTY_VP = 5
"""rule: tiberius/score-loyalty - career cards from all six decks: 5 VP."""
INFLUENCE_PER_VP = 3
"""rule: tiberius/score-influence - 1 VP per 3 Influence cubes."""


def imperator_awards(
    players: int, top_cubes: int, solo: str = "both", empty: str = "tiebreak"
) -> tuple[bool, bool]:
    """rule: tiberius/score-imperator - whether the first seat of the Imperator order (by cubes, ties
    broken by the chain) takes "most" +3, and whether the last seat takes "least" -3.

    ``top_cubes`` is the first seat's cube count (0: nobody has a cube). The readings where the text
    is unclear are variants, the default being the literal text:

    - ``solo`` "both": a lone player has both the most and the least cubes (+3 and -3);
      "most": a lone player is never "least".
    - ``empty`` "tiebreak": nobody has a cube, yet "all ties must be broken" (rule:
      tiberius/tie-breaker), so the chain still names a most (+3) and a least (-3); "least": most
      needs a cube, least does not; "none": neither is scored.
    """
    most = top_cubes >= 1 or empty == "tiebreak"
    least = (players >= 2 or solo == "both") and (top_cubes >= 1 or empty != "none")
    return most, least


class Line(Record, frozen=True):
    """One category's points for one seat.

    Attributes:
        category: the schedule's category name.
        points: VP scored.
        detail: how, with the numbers.
    """

    category: str
    points: int
    detail: str


class SeatTally(Record, frozen=True):
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
    return (int(adopted), *_chain_boxes(cubes), -age_rank)


def placement(
    cubes: Sequence[Sequence[int]], keys: Sequence[Key], box: Box, *, min_cubes: int = 1
) -> list[Seat]:
    """Seats with at least ``min_cubes`` in ``box``, best first (cubes, then the chain).

    Sorted by a list's ``__getitem__`` (no Python function call per seat), and no sort at all for
    one seat or none.
    """
    seats = [s for s in range(len(cubes)) if cubes[s][box] >= min_cubes]
    if len(seats) > 1:
        order = [(c[box], k) for c, k in zip(cubes, keys, strict=True)]
        seats.sort(key=order.__getitem__, reverse=True)
    return seats


def consul_points(n: int) -> int:
    """rule: tiberius/score-consul-censor - first cube 3, second 2, then 1 each."""
    return n + 2 * min(n, 1) + min(max(n - 1, 0), 1)


def _deciding_step(a: Key, b: Key) -> int:
    """The index of the first step of the chain where two seats' keys differ (-1 when none does):
    the step that decided between them (one pass in C, not a Python loop over the steps)."""
    differs = list(map(ne, a, b))
    try:
        return differs.index(True)
    except ValueError:
        return -1


def _tie_note(cubes: Sequence[Sequence[int]], keys: Sequence[Key], box: Box, seat: Seat, need: int) -> str:
    """How the chain broke ``seat``'s ties in ``box`` (empty when nobody had as many cubes)."""
    mine = cubes[seat][box]
    if mine < need:
        return ""
    notes = []
    own = keys[seat]
    for t in range(len(cubes)):
        if t == seat or cubes[t][box] != mine:
            continue
        other = keys[t]
        step = _deciding_step(own, other)
        if step >= 0:
            notes.append(
                f"{'ahead of' if own[step] > other[step] else 'behind'} seat {t} by {CHAIN_NAMES[step]}"
            )
    return f"; tie: {', '.join(notes)}" if notes else ""


_PLACE_TEXT: dict[int, str] = {1: "most", 2: "next-most", 3: "third-most"}


def _place_text(place: int) -> str:
    return _PLACE_TEXT.get(place) or f"place {place}"


def _by_count(category: str, points: Callable[[int], int]) -> dict[int, Line]:
    """The lines ``"<x> cubes"`` of a category scored by its cube count alone, for x = 0..40."""
    return {x: Line(category, points(x), f"{x} cubes") for x in range(CUBES_PER_PLAYER + 1)}


def _counted(table: dict[int, Line], x: int, points: Callable[[int], int]) -> Line:
    """The line for a count beyond ``table`` (not from a legal position), made anew."""
    return Line(table[0].category, points(x), f"{x} cubes")


def _triumph_points(x: int) -> int:
    """rule: tiberius/score-triumphs - 2 per cube, none -3."""
    return TRIUMPH_PER_CUBE * x if x else TRIUMPH_NONE


def _priesthood_points(x: int) -> int:
    """rule: tiberius/score-priesthoods - 1 VP per cube."""
    return x


def _influence_points(x: int) -> int:
    """rule: tiberius/score-influence - 1 VP per 3 cubes."""
    return x // INFLUENCE_PER_VP


_CONSUL = _by_count("Consul/Censor", consul_points)
_TRIUMPHS = _by_count("Triumphs", _triumph_points)
_PRIESTHOODS = _by_count("Priesthoods", _priesthood_points)
_INFLUENCE = _by_count("Influence", _influence_points)
_ADOPTED = (Line("Son of Augustus", 0, "not adopted"), Line("Son of Augustus", ADOPTION_VP, "adopted"))
_LOYAL = (Line("Loyalty", 0, "not all decks"), Line("Loyalty", LOYALTY_VP, "all six decks"))
_POINTS = attrgetter("points")


def _places(cubes: Sequence[Sequence[int]], keys: Sequence[Key], box: Box) -> list[int]:
    """Per seat, its place (1 = most) among the seats with cubes in ``box``; 0 without cubes."""
    place = [0] * len(cubes)
    for i, s in enumerate(placement(cubes, keys, box), 1):
        place[s] = i
    return place


_CATEGORY = {CQ: "Conquests", PC: "Pro-Consular Imperium Maius", GV: "Governorships"}
_PLACED: dict[Box, tuple[str, tuple[int, ...], int]] = {box: (_CATEGORY[box], t, o) for box, t, o in PLACE_VP}
"""The categories scored by place (``PLACE_VP``) with their names."""


def _placed_line(
    cubes: Sequence[Sequence[int]], keys: Sequence[Key], box: Box, seat: Seat, place: int
) -> Line:
    """The line of a category scored by place (``_PLACED``), for a seat with cubes there (``place`` > 0)."""
    x = cubes[seat][box]
    tied = sum(1 for c in cubes if c[box] == x) > 1
    category, table, later = _PLACED[box]
    tie = _tie_note(cubes, keys, box, seat, 1) if tied else ""
    points = table[place - 1] if place <= len(table) else later
    return Line(category, points, f"{_place_text(place)} ({x} cubes){tie}")


def _imperator_points(x: int) -> int:
    """rule: tiberius/score-imperator - 1 VP per cube (before most +3 / least -3)."""
    return x


_NO_CONQUESTS = Line("Conquests", 0, "no cubes")
_NO_PCIM = Line("Pro-Consular Imperium Maius", 0, "no cubes")
_NO_GOVERNORSHIPS = Line("Governorships", 0, "no cubes")
_IMPERATOR = _by_count("Imperator", _imperator_points)
"""Imperator lines of seats neither most nor least: ``"<x> cubes"``, x VP."""
_NO_MARRIAGES = Line("Imperial Marriages", MARRIAGE_NONE, "no cubes")
_STRICTLY_MOST = {
    x: Line("Imperial Marriages", MARRIAGE_MOST, f"strictly most ({x} cubes)")
    for x in range(1, CUBES_PER_PLAYER + 1)
}
_NOT_STRICTLY_MOST = {
    x: Line("Imperial Marriages", 0, f"not strictly most ({x} cubes)") for x in range(1, CUBES_PER_PLAYER + 1)
}


def _marriage_line(im: int, strictly_most: bool, aid: bool) -> Line:
    """rule: tiberius/score-imperial-marriages - most (no tie-breaker) +5, none -5; the VP aid adds
    1 VP per cube. The schedule's lines come from tables, made anew only for counts past 40."""
    if not aid:
        line = _NO_MARRIAGES if im == 0 else (_STRICTLY_MOST if strictly_most else _NOT_STRICTLY_MOST).get(im)
        if line is not None:
            return line
    if im == 0:
        im_points, im_why = MARRIAGE_NONE, "no cubes"
    elif strictly_most:
        im_points, im_why = MARRIAGE_MOST, "strictly most"
    else:
        im_points, im_why = 0, "not strictly most"
    if aid:
        im_points += im
        im_why += f", +1 per cube ({im})"
    return Line("Imperial Marriages", im_points, im_why if im == 0 else f"{im_why} ({im} cubes)")


def _imperator_line(
    cubes: Sequence[Sequence[int]], keys: Sequence[Key], seat: Seat, most: bool, least: bool
) -> Line:
    """rule: tiberius/score-imperator - 1 per cube, most +3, least -3 (with how the chain broke a tie)."""
    ip = cubes[seat][IP]
    if not (most or least):
        return _IMPERATOR.get(ip) or _counted(_IMPERATOR, ip, _imperator_points)
    ip_points, ip_why = ip, f"{ip} cubes"
    if most:
        ip_points, ip_why = ip_points + IMPERATOR_MOST, ip_why + ", most +3"
    if least:
        ip_points, ip_why = ip_points + IMPERATOR_LEAST, ip_why + ", least -3"
    return Line("Imperator", ip_points, ip_why + _tie_note(cubes, keys, IP, seat, 0))


def _imperator_ends(
    cubes: Sequence[Sequence[int]], keys: Sequence[Key], solo: str, empty: str
) -> tuple[Seat, Seat]:
    """rule: tiberius/score-imperator - the seats taking most and least (-1: nobody), by cubes, ties
    broken by the chain."""
    order = placement(cubes, keys, IP, min_cubes=0)
    most, least = imperator_awards(len(cubes), cubes[order[0]][IP], solo, empty)
    return (order[0] if most else -1), (order[-1] if least else -1)


def score_cubes(
    cubes: Sequence[Sequence[int]],
    adopted: Sequence[bool],
    loyal: Sequence[bool],
    age_rank: Sequence[int],
    *,
    marriage_vp: str = "schedule",
    imperator_solo: str = "both",
    imperator_empty: str = "tiebreak",
    keys: Sequence[Key] | None = None,
) -> tuple[SeatTally, ...]:
    """Score every seat by the VP schedule.

    Args:
        cubes: per seat, cubes per box.
        adopted: per seat, whether it is a Son of Augustus.
        loyal: per seat, whether it holds career cards from all six decks.
        age_rank: per seat, 0 for the oldest (read only to build the keys when ``keys`` is None).
        marriage_vp: "schedule" (default) or "aid" (the VP aid adds 1 VP per marriage cube).
        imperator_solo, imperator_empty: the Imperator readings (:func:`imperator_awards`).
        keys: the seats' ``chain_key`` when the caller has them already (else computed here).
    """
    n = len(cubes)
    if keys is None:
        keys = [chain_key(cubes[s], adopted[s], age_rank[s]) for s in range(n)]
    conquests, pcim, governors = _places(cubes, keys, CQ), _places(cubes, keys, PC), _places(cubes, keys, GV)
    most_ip, least_ip = _imperator_ends(cubes, keys, imperator_solo, imperator_empty)
    # rule: tiberius/score-imperial-marriages - strictly most: more cubes than every other seat.
    marriages = [c[IM] for c in cubes]
    top = max(marriages)
    top_alone, aid = marriages.count(top) == 1, marriage_vp == "aid"
    out = []
    for s in range(n):
        c = cubes[s]
        im = c[IM]
        p = conquests[s], pcim[s], governors[s]
        lines = (
            # rule: tiberius/score-conquests - 10 / 5 / 2, others 0.
            _placed_line(cubes, keys, CQ, s, p[0]) if p[0] else _NO_CONQUESTS,
            _marriage_line(im, im == top and top_alone, aid),
            # rule: tiberius/score-pcim - 12 / 10 / 7 with cubes, 0 without.
            _placed_line(cubes, keys, PC, s, p[1]) if p[1] else _NO_PCIM,
            # rule: tiberius/score-consul-censor
            _CONSUL.get(c[CC]) or _counted(_CONSUL, c[CC], consul_points),
            # rule: tiberius/score-governorships - 6 / 5 / 4, others with cubes 2.
            _placed_line(cubes, keys, GV, s, p[2]) if p[2] else _NO_GOVERNORSHIPS,
            # rule: tiberius/score-triumphs - 2 per cube, none -3.
            _TRIUMPHS.get(c[TR]) or _counted(_TRIUMPHS, c[TR], _triumph_points),
            _imperator_line(cubes, keys, s, most_ip == s, least_ip == s),
            # rule: tiberius/score-priesthoods
            _PRIESTHOODS.get(c[PR]) or _counted(_PRIESTHOODS, c[PR], _priesthood_points),
            # rule: tiberius/score-adoption
            _ADOPTED[1 if adopted[s] else 0],
            # rule: tiberius/score-loyalty
            _LOYAL[1 if loyal[s] else 0],
            # rule: tiberius/score-influence - 1 VP per 3 cubes.
            _INFLUENCE.get(c[IN]) or _counted(_INFLUENCE, c[IN], _influence_points),
        )
        out.append(SeatTally(s, sum(map(_POINTS, lines)), lines))
    return tuple(out)


def score_totals(
    cubes: Sequence[Sequence[int]],
    adopted: Sequence[bool],
    loyal: Sequence[bool],
    age_rank: Sequence[int],
    *,
    marriage_vp: str = "schedule",
    imperator_solo: str = "both",
    imperator_empty: str = "tiebreak",
) -> list[int]:
    """The totals of :func:`score_cubes` without the breakdown (the fast path for searches;
    ``tests/tiberius/test_solver.py`` checks both agree)."""
    n = len(cubes)
    keys = [chain_key(cubes[s], adopted[s], age_rank[s]) for s in range(n)]
    totals = [0] * n
    for box, table, others in PLACE_VP:
        for i, s in enumerate(placement(cubes, keys, box)):
            totals[s] += table[i] if i < len(table) else others
    for s in range(n):
        c = cubes[s]
        x = c[IM]
        if x == 0:
            totals[s] += MARRIAGE_NONE
        elif all(x > cubes[t][IM] for t in range(n) if t != s):
            totals[s] += MARRIAGE_MOST
        if marriage_vp == "aid":
            totals[s] += x
        triumphs = TRIUMPH_PER_CUBE * c[TR] if c[TR] else TRIUMPH_NONE
        totals[s] += consul_points(c[CC]) + triumphs + c[IP] + c[PR] + c[IN] // INFLUENCE_PER_VP
        totals[s] += (ADOPTION_VP if adopted[s] else 0) + (LOYALTY_VP if loyal[s] else 0)
    order = placement(cubes, keys, IP, min_cubes=0)
    most, least = imperator_awards(n, cubes[order[0]][IP], imperator_solo, imperator_empty)
    if most:
        totals[order[0]] += IMPERATOR_MOST
    if least:
        totals[order[-1]] += IMPERATOR_LEAST
    return totals


def ranking(totals: Sequence[int], keys: Sequence[Key]) -> list[Seat]:
    """Seats best first: by VP, ties broken by the chain (rule: tiberius/tie-breaker)."""
    return sorted(range(len(totals)), key=lambda s: (totals[s], keys[s]), reverse=True)


def tiebreak_reasons(totals: Sequence[int], keys: Sequence[Key], seat: Seat) -> tuple[str, ...]:
    """For ``seat``, the chain step that decided it against each seat with the same VP."""
    out: list[str] = []
    own = keys[seat]
    for t in range(len(totals)):
        if t == seat or totals[t] != totals[seat]:
            continue
        step = _deciding_step(own, keys[t])
        if step >= 0:
            name, a, b = CHAIN_NAMES[step], own[step], keys[t][step]
            verdict = "ahead of" if a > b else "behind"
            if name == "age":
                shown = "older" if a > b else "younger"
                out.append(f"{name}: {shown}, {verdict} seat {t}")
            else:
                out.append(f"{name}: {a} vs {b}, {verdict} seat {t}")
    return tuple(out)
