"""A tournament as people read it: the ratings, the pairwise scores with their intervals."""

from __future__ import annotations

import math

from rich.table import Table

from batch.tournament import TournamentResult

__all__ = ["pair_table", "ratings_table", "wilson"]


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a score of ``score`` in ``n`` games (shared wins count half)."""
    if n == 0:
        return (0.0, 1.0)
    p = score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def ratings_table(result: TournamentResult) -> Table:
    """The ratings, best first: Elo (Bradley–Terry) with its 95% bootstrap interval."""
    table = Table(title=f"{result.game}: ratings ({len(result.results)} games, Bradley–Terry, Elo scale)")
    for col in ("entrant", "Elo", "95% interval", "games"):
        table.add_column(col, justify="left" if col == "entrant" else "right")
    for r in result.ratings:
        table.add_row(r.name, f"{r.elo:+.0f}", f"[{r.low:+.0f}, {r.high:+.0f}]", str(r.games))
    return table


def pair_table(result: TournamentResult) -> Table:
    """Each entrant's score against each other (row vs column), with the 95% Wilson interval."""
    names = result.entrants
    table = Table(title="score of the row against the column (95% Wilson interval)")
    table.add_column("")
    for name in names:
        table.add_column(name, justify="right")
    for a, row in enumerate(names):
        cells = []
        for b in range(len(names)):
            if a == b or (a, b) not in result.pairs:
                cells.append("")
                continue
            score, n = result.pairs[(a, b)]
            lo, hi = wilson(score, n)
            cells.append(f"{100 * score / n:.0f}% [{100 * lo:.0f}, {100 * hi:.0f}]")
        table.add_row(row, *cells)
    return table
