"""The fast paths of setup and scoring equal the straightforward code they replaced.

``new_state`` deals with ``setup.below``/``setup.shuffled`` (``random.Random``'s draws, bit for bit)
and builds the first turn's state directly; ``score_cubes`` reads tables built once. Each is
checked here against a reference: the step-by-step setup (``Random.randrange``, ``Random.shuffle``,
``rules.start_turn``) and the category-by-category scoring, kept below as they were.
"""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import GameConfig
from games.core.records import Record, replace
from games.core.rng import make_rng
from games.tiberius import rules, setup
from games.tiberius.model import (
    BOX_CODES,
    CC,
    CQ,
    EMPTY,
    GV,
    IM,
    IN,
    IP,
    NOTHING,
    PC,
    PR,
    TR,
    Player,
    TiberiusState,
)
from games.tiberius.scoring import (
    CHAIN_NAMES,
    Line,
    SeatTally,
    chain_key,
    placement,
    score_cubes,
    score_totals,
)
from games.tiberius.setup import MAT_INFLUENCE_FIRST, SETUP_INFLUENCE
from solver.core import ScoreReport, SeatScore, get_scorer
from solver.tiberius import sheet_detail
from tests.tiberius.helpers import game

# ------------------------------------------------------------------------------------ draws


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**64), size=st.integers(0, 80))
def test_shuffled_is_random_shuffle(seed, size):
    """rule: tiberius/setup - a seed shuffles a deck exactly as ``random.Random.shuffle`` does, and
    leaves the generator at the same point (the next draw agrees too)."""
    items = list(range(100, 100 + size))
    expected = list(items)
    reference = random.Random(seed)
    reference.shuffle(expected)
    fast = random.Random(seed)
    assert setup.shuffled(fast.getrandbits, items) == expected
    assert fast.getrandbits(32) == reference.getrandbits(32)


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**64), sizes=st.lists(st.integers(0, 70), max_size=8))
def test_shuffled_each_is_shuffled_in_turn(seed, sizes):
    """rule: tiberius/setup - shuffling several groups in one call draws as shuffling each in turn."""
    groups = [list(range(100 * g, 100 * g + size)) for g, size in enumerate(sizes)]
    reference, fast = random.Random(seed), random.Random(seed)
    expected = [setup.shuffled(reference.getrandbits, g) for g in groups]
    assert setup.shuffled_each(fast.getrandbits, groups) == expected
    assert fast.getrandbits(32) == reference.getrandbits(32)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**64), n=st.integers(1, 10**6))
def test_below_is_randrange(seed, n):
    """rule: tiberius/setup - the priority marker is drawn as ``random.Random.randrange(n)`` draws it."""
    reference, fast = random.Random(seed), random.Random(seed)
    assert setup.below(fast.getrandbits, n) == reference.randrange(n)
    assert fast.getrandbits(32) == reference.getrandbits(32)


# ------------------------------------------------------------------------------------ setup


def reference_new_state(config: GameConfig, seed: int) -> TiberiusState:
    """The setup step by step, as it was: draws through ``random.Random``, then ``rules.start_turn``.

    rule: tiberius/setup, rule: tiberius/card-phase
    """
    g = game()
    n = config.players
    table = str(g.option(config, "influence_table"))
    oldest = g.option(config, "oldest_seat")
    assert isinstance(oldest, int)
    rng = make_rng(seed)
    priority = rng.randrange(n)
    decks = []
    for deck in g.pack.decks:
        d = list(deck)
        rng.shuffle(d)
        decks.append(tuple(d))
    adoption = list(range(len(g.pack.adoptions)))
    rng.shuffle(adoption)
    face = 2 if n >= 4 else 1
    cubes = []
    for s in range(n):
        influence = SETUP_INFLUENCE[n] if table == "setup" else MAT_INFLUENCE_FIRST + 2 * ((s - priority) % n)
        cubes.append(tuple(influence if b == IN else 0 for b in range(len(BOX_CODES))))
    state = TiberiusState(
        turn=1,
        phase=0,
        actor=priority,
        start_priority=priority,
        priority=priority,
        players=tuple(
            Player(
                cubes=cubes[s],
                careers=(),
                played=NOTHING,
                bid=0,
                pcim_used=False,
                secret=adoption[face + s],
                adopted=-1,
            )
            for s in range(n)
        ),
        decks=tuple(decks),
        face_up=(EMPTY,) * len(decks),
        adopt_face_up=tuple(sorted(adoption[:face])),
        adopt_unused=tuple(sorted(adoption[face + n :])),
        discarded=(),
        black=0,
        row_open=False,
        family=False,
        moved=0,
        age=tuple((oldest + k) % n for k in range(n)),
        influence_table=table,
        pcim_rule=str(g.option(config, "pcim_rule")),
        marriage_vp=str(g.option(config, "marriage_vp")),
        imperator_solo=str(g.option(config, "imperator_solo")),
        imperator_empty=str(g.option(config, "imperator_empty")),
        turns=int(g.option(config, "turns")),
    )
    return rules.start_turn(state)


OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "influence_table": st.sampled_from(["setup", "mat"]),
        "pcim_rule": st.sampled_from(["once", "influence"]),
        "marriage_vp": st.sampled_from(["schedule", "aid"]),
        "imperator_solo": st.sampled_from(["both", "most"]),
        "imperator_empty": st.sampled_from(["tiebreak", "least", "none"]),
        "turns": st.sampled_from([8, 7]),
        "oldest_seat": st.just(0),
    },
)


@settings(max_examples=150, deadline=None)
@given(players=st.integers(1, 6), seed=st.integers(0, 2**63), options=OPTIONS)
def test_new_state_equals_step_by_step_setup(players, seed, options):
    """rule: tiberius/setup - the same seed deals the same game as the step-by-step setup."""
    config = GameConfig(players=players, options=options)
    assert game().new_state(config, seed) == reference_new_state(config, seed)


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_new_state_equals_step_by_step_setup_every_seed(players):
    """rule: tiberius/setup - 300 consecutive seeds per player count, defaults (the service's path)."""
    config = GameConfig(players=players)
    for seed in range(300):
        assert game().new_state(config, seed) == reference_new_state(config, seed)


@settings(max_examples=20, deadline=None)
@given(players=st.integers(1, 6), seed=st.integers(0, 10**6))
def test_a_state_is_a_record(players, seed):
    """rule: tiberius/setup - the state is a frozen record (docs/state.md): equal and hashed by value,
    copied, pickled and ``replace``d by name; along a random game, not only at setup."""
    g = game()
    rng = random.Random(seed)
    s = g.new_state(GameConfig(players=players), seed)
    for _ in range(40):
        assert isinstance(s, Record)
        assert pickle.loads(pickle.dumps(s)) == s and hash(pickle.loads(pickle.dumps(s))) == hash(s)
        assert copy.copy(s) == s and replace(s, turn=5).turn == 5 and replace(s, turn=s.turn) == s
        with pytest.raises(AttributeError):
            s.turn = 3  # type: ignore[misc]
        if g.is_terminal(s):
            break
        s = g.apply(s, rng.choice(list(g.legal_actions(s))))


@pytest.mark.parametrize("players", [1, 2, 4, 6])
def test_score_report_equals_one_built_by_the_constructors(players):
    """rule: tiberius/end-of-game - the scorer's report and seats equal ``ScoreReport(...)`` and
    ``SeatScore(...)`` of the same fields, and the tally's seats ``SeatTally(...)``."""
    g = game()
    score = get_scorer("tiberius")
    rng = random.Random(players)
    s = g.new_state(GameConfig(players=players), players)
    while True:
        report = score(g, s)
        rebuilt = ScoreReport(
            game=report.game,
            final=report.final,
            seats=tuple(
                SeatScore(seat=x.seat, total=x.total, rank=x.rank, breakdown=x.breakdown, tiebreak=x.tiebreak)
                for x in report.seats
            ),
            ended_by=report.ended_by,
        )
        assert type(report) is ScoreReport and all(type(x) is SeatScore for x in report.seats)
        assert report == rebuilt and hash(report.seats) == hash(rebuilt.seats)
        for t in g.tally(s):
            assert type(t) is SeatTally and t == SeatTally(t.seat, t.total, t.lines)
        if g.is_terminal(s):
            break
        s = g.apply(s, rng.choice(list(g.legal_actions(s))))


# ------------------------------------------------------------------------------------ scoring


def _tie_note(cubes, keys, box, seat, need):
    notes = []
    for t in range(len(cubes)):
        if t == seat or cubes[t][box] != cubes[seat][box] or cubes[t][box] < need:
            continue
        for name, a, b in zip(CHAIN_NAMES, keys[seat], keys[t], strict=True):
            if a != b:
                notes.append(f"{'ahead of' if a > b else 'behind'} seat {t} by {name}")
                break
    return f"; tie: {', '.join(notes)}" if notes else ""


def _place_text(place):
    return {1: "most", 2: "next-most", 3: "third-most"}.get(place, f"place {place}")


def _consul(n):
    return n + 2 * min(n, 1) + min(max(n - 1, 0), 1)


def reference_score_cubes(
    cubes: Sequence[Sequence[int]],
    adopted: Sequence[bool],
    loyal: Sequence[bool],
    age_rank: Sequence[int],
    *,
    marriage_vp: str = "schedule",
    imperator_solo: str = "both",
    imperator_empty: str = "tiebreak",
) -> tuple[SeatTally, ...]:
    """The VP schedule category by category, as it was (rule: tiberius/score-conquests ...
    rule: tiberius/score-influence, rule: tiberius/tie-breaker)."""
    n = len(cubes)
    keys = [chain_key(cubes[s], adopted[s], age_rank[s]) for s in range(n)]
    lines: list[list[Line]] = [[] for _ in range(n)]

    def places(box):
        return {s: i + 1 for i, s in enumerate(placement(cubes, keys, box))}

    def placed(box, category, table, later):
        pl = places(box)
        for s in range(n):
            p = pl.get(s, 0)
            pts = (table[p - 1] if p <= len(table) else later) if p else 0
            why = (
                f"{_place_text(p)} ({cubes[s][box]} cubes){_tie_note(cubes, keys, box, s, 1)}"
                if p
                else "no cubes"
            )
            lines[s].append(Line(category, pts, why))

    placed(CQ, "Conquests", (10, 5, 2), 0)
    for s in range(n):
        x = cubes[s][IM]
        others = max((cubes[t][IM] for t in range(n) if t != s), default=-1)
        pts = 5 if x >= 1 and x > others else (-5 if x == 0 else 0)
        why = "strictly most" if pts == 5 else ("no cubes" if x == 0 else "not strictly most")
        if marriage_vp == "aid":
            pts += x
            why += f", +1 per cube ({x})"
        lines[s].append(Line("Imperial Marriages", pts, why if x == 0 else f"{why} ({x} cubes)"))
    placed(PC, "Pro-Consular Imperium Maius", (12, 10), 7)
    for s in range(n):
        lines[s].append(Line("Consul/Censor", _consul(cubes[s][CC]), f"{cubes[s][CC]} cubes"))
    placed(GV, "Governorships", (6, 5, 4), 2)
    for s in range(n):
        x = cubes[s][TR]
        lines[s].append(Line("Triumphs", 2 * x if x else -3, f"{x} cubes"))
    order = placement(cubes, keys, IP, min_cubes=0)
    nobody = all(c[IP] == 0 for c in cubes)
    most_seat = order[0] if not nobody or imperator_empty == "tiebreak" else None
    least_seat: int | None = order[-1]
    if n == 1 and imperator_solo == "most":
        least_seat = None
    if nobody and imperator_empty == "none":
        least_seat = None
    for s in range(n):
        x = cubes[s][IP]
        pts, why = x, f"{x} cubes"
        if most_seat == s:
            pts, why = pts + 3, why + ", most +3"
        if least_seat == s:
            pts, why = pts - 3, why + ", least -3"
        if s in (most_seat, least_seat):
            why += _tie_note(cubes, keys, IP, s, 0)
        lines[s].append(Line("Imperator", pts, why))
    for s in range(n):
        lines[s].append(Line("Priesthoods", cubes[s][PR], f"{cubes[s][PR]} cubes"))
    for s in range(n):
        lines[s].append(
            Line("Son of Augustus", 8 if adopted[s] else 0, "adopted" if adopted[s] else "not adopted")
        )
    for s in range(n):
        lines[s].append(
            Line("Loyalty", 5 if loyal[s] else 0, "all six decks" if loyal[s] else "not all decks")
        )
    for s in range(n):
        lines[s].append(Line("Influence", cubes[s][IN] // 3, f"{cubes[s][IN]} cubes"))
    return tuple(SeatTally(s, sum(x.points for x in lines[s]), tuple(lines[s])) for s in range(n))


@st.composite
def tables(draw):
    """Any seats' cubes (small counts, so ties are frequent; sometimes past the 40-cube tables)."""
    n = draw(st.integers(1, 6))
    top = draw(st.sampled_from([2, 5, 45]))
    cubes = [tuple(draw(st.integers(0, top)) for _ in BOX_CODES) for _ in range(n)]
    adopted = [draw(st.booleans()) for _ in range(n)]
    loyal = [draw(st.booleans()) for _ in range(n)]
    ages = draw(st.permutations(range(n)))
    options = {
        "marriage_vp": draw(st.sampled_from(["schedule", "aid"])),
        "imperator_solo": draw(st.sampled_from(["both", "most"])),
        "imperator_empty": draw(st.sampled_from(["tiebreak", "least", "none"])),
    }
    return cubes, adopted, loyal, ages, options


@settings(max_examples=150, deadline=None)
@given(table=tables())
def test_score_cubes_equals_reference(table):
    """rule: tiberius/tie-breaker - same lines (category, points, detail), totals and order."""
    cubes, adopted, loyal, ages, options = table
    expected = reference_score_cubes(cubes, adopted, loyal, ages, **options)
    assert score_cubes(cubes, adopted, loyal, ages, **options) == expected
    keys = [chain_key(cubes[s], adopted[s], ages[s]) for s in range(len(cubes))]
    assert score_cubes(cubes, adopted, loyal, ages, **options, keys=keys) == expected


@settings(max_examples=30, deadline=None)
@given(players=st.integers(1, 6), seed=st.integers(0, 10**6))
def test_scorer_on_played_games_equals_reference(players, seed):
    """rule: tiberius/end-of-game - along random games, the scorer's lines and totals are the
    reference's, and its report lines are the tally's lines."""
    g = game()
    rng = random.Random(seed)
    s = g.new_state(GameConfig(players=players), seed)
    score = get_scorer("tiberius")
    while True:
        n = s.num_players
        ref = reference_score_cubes(
            [p.cubes for p in s.players],
            [s.players[k].adopted >= 0 for k in range(n)],
            [g.loyal(s, k) for k in range(n)],
            g.age_rank(s),
            marriage_vp=s.marriage_vp,
        )
        assert g.tally(s) == ref
        report = score(g, s)
        for seat, tally in zip(report.seats, ref, strict=True):
            assert seat.total == tally.total
            assert [(x.category, x.points, x.detail) for x in seat.breakdown] == [
                (x.category, float(x.points), sheet_detail(x)) for x in tally.lines
            ]
        if g.is_terminal(s):
            break
        s = g.apply(s, rng.choice(list(g.legal_actions(s))))


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_score_totals_equal_the_breakdown(data):
    """rule: tiberius/tie-breaker - ``score_totals`` (the chain compared once, per-count tables)
    gives the totals of ``score_cubes`` for every variant, with many ties in every box."""
    n = data.draw(st.integers(1, 6))
    cubes = [tuple(data.draw(st.lists(st.integers(0, 3), min_size=11, max_size=11))) for _ in range(n)]
    adopted = data.draw(st.lists(st.booleans(), min_size=n, max_size=n))
    loyal = data.draw(st.lists(st.booleans(), min_size=n, max_size=n))
    ages = data.draw(st.permutations(range(n)))
    variants = {
        "marriage_vp": data.draw(st.sampled_from(["schedule", "aid"])),
        "imperator_solo": data.draw(st.sampled_from(["both", "most"])),
        "imperator_empty": data.draw(st.sampled_from(["tiebreak", "least", "none"])),
    }
    tally = score_cubes(cubes, adopted, loyal, ages, **variants)
    assert score_totals(cubes, adopted, loyal, ages, **variants) == [t.total for t in tally]
