"""``convert.score_to_pb`` keeps every line as the scorer wrote it (-0.0, NaN and infinities included)."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import GameConfig, get_game
from service import convert
from solver.core import ScoreLine, ScoreReport, SeatScore, get_scorer

POINTS = st.one_of(
    st.integers(-20, 20),
    st.sampled_from([0.0, -0.0, 0.5, -3.0, math.nan, math.inf, -math.inf, 1e300]),
    st.floats(allow_nan=True, allow_infinity=True),
)
LINES = st.builds(
    ScoreLine,
    category=st.sampled_from(["Conquests", "Triumphs", "", "ünï"]),
    points=POINTS,
    detail=st.sampled_from(["", "0 cubes", "most (2 cubes); tie: ahead of seat 1 by age"]),
)
SEATS = st.builds(
    SeatScore,
    seat=st.integers(0, 5),
    total=st.floats(allow_nan=False, width=32),
    rank=st.integers(1, 6),
    breakdown=st.lists(LINES, max_size=12).map(tuple),
    tiebreak=st.lists(
        st.sampled_from(["age: older, ahead of seat 1", "influence: 3 vs 2, behind seat 0"])
    ).map(tuple),
)
REPORTS = st.builds(
    ScoreReport,
    game=st.sampled_from(["tiberius", "pig"]),
    final=st.booleans(),
    seats=st.lists(SEATS, max_size=4).map(tuple),
)


def _same(report: ScoreReport) -> None:
    msg = convert.score_to_pb(report)
    assert len(msg.seats) == len(report.seats)
    for a, b in zip(msg.seats, report.seats, strict=True):
        assert (a.seat, a.rank, tuple(a.tiebreak)) == (b.seat, b.rank, b.tiebreak)
        for x, y in zip(a.breakdown, b.breakdown, strict=True):  # -0.0 stays -0.0, NaN stays NaN
            assert (x.category, x.detail) == (y.category, y.detail)
            assert math.copysign(1.0, x.points) == math.copysign(1.0, float(y.points))
            assert math.isnan(x.points) == math.isnan(float(y.points))
            assert math.isnan(x.points) or x.points == float(y.points)


@settings(max_examples=300, deadline=None)
@given(report=REPORTS)
def test_score_to_pb_keeps_every_line(report):
    _same(report)


def test_zero_and_negative_zero_lines_are_told_apart():
    lines = (
        ScoreLine(category="a", points=0.0, detail="d"),
        ScoreLine(category="a", points=-0.0, detail="d"),
        ScoreLine(category="a", points=0, detail="d"),
    )
    report = ScoreReport(game="x", final=True, seats=(SeatScore(seat=0, total=0.0, rank=1, breakdown=lines),))
    for _ in range(2):
        _same(report)


def test_tiberius_scores_keep_every_line():
    """rule: tiberius/end-of-game - the real scorer's reports, line for line."""
    game = get_game("tiberius")
    score = get_scorer("tiberius")
    for players in (1, 2, 4, 6):
        for seed in range(20):
            _same(score(game, game.new_state(GameConfig(players=players), seed)))
