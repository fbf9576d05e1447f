"""Batch work over the games and the search: tournaments between AI configurations and their ratings,
in one process, a process pool, or on a Ray cluster (DESIGN.md: "Batch work ... runs on Ray when a
cluster is given, locally otherwise"). Imports ``games`` and ``search`` only."""

from batch.ratings import PairResult, Rating, rate
from batch.tournament import TournamentResult, entrant, run, schedule

__all__ = ["PairResult", "Rating", "TournamentResult", "entrant", "rate", "run", "schedule"]
