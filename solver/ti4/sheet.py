"""The words of a TI4 score sheet (issue 30): each part of a home value with how it was earned and
at what weight, read from the measure's own weights (``games.ti4.balance.Weights``), so a person can
check every part by hand (docs/ti4.md works the community measure's example)."""

from __future__ import annotations

from collections.abc import Sequence

from games.ti4.balance import HomeReport, Weights, mecatol_lanes
from games.ti4.content import Content, Pos

__all__ = ["reach_words", "term_detail"]


def _n(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".")


def reach_words(weights: Weights) -> str:
    """Which systems count and how much: ``"systems within 2 moves × 1, shared equally by the nearest
    homes"``."""
    d = weights.distance
    if len(set(d)) == 1:
        far = f"within {len(d)} move{'s' if len(d) > 1 else ''} × {_n(d[0])}"
    else:
        far = ", ".join(f"at {k + 1} move{'s' if k else ''} × {_n(x)}" for k, x in enumerate(d))
    share = (
        "shared equally by the nearest homes" if weights.share == "nearest" else "for every home reaching it"
    )
    return f"systems {far}, {share}"


def _mecatol(
    content: Content, weights: Weights, report: HomeReport, homes: Sequence[Pos], spaces: Sequence[Pos]
) -> str:
    """``"3 × (3 - 2 moves to Mecatol Rex) = 3"`` with the penalties taken."""
    per = weights.mecatol
    in_play = frozenset({0, *spaces, *homes})
    lane = mecatol_lanes(content.board.adjacent, report.home, tuple(homes), in_play)
    d = lane[0] if lane is not None else 6
    base = per * (weights.mecatol_moves - d)
    text = f"{_n(per)} × ({weights.mecatol_moves} - {d} moves to Mecatol Rex) = {_n(base)}"
    penalty = round(base - report.mecatol_term, 6)
    taken = []
    if weights.mecatol_supernova and penalty >= weights.mecatol_supernova - 1e-9:
        taken.append(f"-{_n(weights.mecatol_supernova)} every shortest path crosses a supernova")
        penalty -= weights.mecatol_supernova
    if weights.mecatol_nebula and penalty >= weights.mecatol_nebula - 1e-9:
        taken.append(f"-{_n(weights.mecatol_nebula)} every shortest path crosses a nebula")
    return text + "".join(f"; {t}" for t in taken)


def term_detail(
    name: str,
    content: Content,
    weights: Weights,
    report: HomeReport,
    *,
    homes: Sequence[Pos],
    spaces: Sequence[Pos],
) -> str:
    """How one part of ``report``'s home value was earned, at what weight (``name`` is a term of
    ``HomeReport.terms``). Which systems count is said once, on the optimal resources' line (always
    on the sheet): it is the same for every term."""
    per = {
        "optimal resources": (weights.resources, "optimal resource", "optimal resources"),
        "optimal influence": (weights.influence, "optimal influence", "optimal influence"),
        "planet traits": (weights.trait, "planet with a trait", "planets with a trait"),
        "technology specialties": (weights.specialty, "technology specialty", "technology specialties"),
        "legendary planets": (weights.legendary, "legendary planet", "legendary planets"),
        "wormholes": (weights.wormhole, "wormhole", "wormholes"),
    }
    if name in per:
        w, one, many = per[name]
        amount = dict(report.terms).get(name, 0.0)
        count = amount / w if w else 0.0
        text = f"{_n(count)} {one if count == 1 else many} × {_n(w)}"
        if name == "optimal resources":
            text += (
                " (each planet counts the larger of its resources and influence, half of each when equal); "
                f"every part counts {reach_words(weights)}"
            )
        elif name == "optimal influence":
            text += " (counted as the resources are)"
        return text
    if name == "Mecatol Rex path":
        return _mecatol(content, weights, report, homes, spaces)
    if name == "home system":
        return f"× {_n(weights.home)} of the home system's own planets"
    return f"the mean tile still in hand × {_n(1)} per open space"
