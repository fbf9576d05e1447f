"""The flow of a game turn: pending steps, phase hand-offs and draws from decks.

A phase module ends by calling :func:`finish` (the next phase begins, see ``engine.py`` for the
table) or by setting the next pending step with :func:`decide` or :func:`chance`. Decks are sorted
multisets: :func:`draw_outcomes` gives a chance node's outcomes over the cards left.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from games.cyberverse.content import Content
from games.cyberverse.state import (
    OVER,
    S_OVER,
)
from games.cyberverse.work import Work

__all__ = ["BEGIN", "NEXT", "RESUME", "chance", "decide", "draw_outcomes", "finish", "game_over"]

CHANCE_SEAT = -1
TERMINAL_SEAT = -2

BEGIN: dict[int, Callable[[Work, Content], None]] = {}
"""Per phase, the function that begins it (filled by ``engine.py``)."""
NEXT: dict[int, int] = {}
"""Per phase, the phase that follows it (filled by ``engine.py``)."""
RESUME: dict[int, Callable[[Work, Content], None]] = {}
"""Per phase, the function that takes the phase up again after a shared sub-flow (a Story card
drawn in the Strategy phase or as an Auxiliary Action; filled by ``engine.py``)."""


def decide(w: Work, step: int, seat: int) -> None:
    """The next step is ``seat``'s decision ``step``."""
    w.step = step
    w.actor = seat


def chance(w: Work, step: int) -> None:
    """The next step is the chance draw ``step``."""
    w.step = step
    w.actor = CHANCE_SEAT


def finish(w: Work, c: Content) -> None:
    """The current phase is over: the next one begins."""
    w.phase = NEXT[w.phase]
    BEGIN[w.phase](w, c)


def game_over(w: Work) -> None:
    """The game is over (cyberverse/end-of-game)."""
    w.phase = OVER
    w.step = S_OVER
    w.actor = TERMINAL_SEAT
    w.fight = None


@lru_cache(maxsize=4096)
def draw_outcomes(pool: tuple[int, ...]) -> tuple[tuple[int, float], ...]:
    """Each distinct card of a (sorted) deck with the chance of drawing it."""
    n = len(pool)
    counts: dict[int, int] = {}
    for x in pool:
        counts[x] = counts.get(x, 0) + 1
    return tuple((x, k / n) for x, k in counts.items())
