"""Exact answers: CP-SAT models and exact calculators, one module per game (``solver/<game>.py``)."""

from solver.core import (
    ScoreLine,
    ScoreReport,
    SeatScore,
    SolveLimits,
    SolveResult,
    Status,
    get_puzzle,
    get_scorer,
    puzzle_kinds,
)

__all__ = [
    "ScoreLine",
    "ScoreReport",
    "SeatScore",
    "SolveLimits",
    "SolveResult",
    "Status",
    "get_puzzle",
    "get_scorer",
    "puzzle_kinds",
]
