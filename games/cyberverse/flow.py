"""The flow of a game turn: pending steps, phase hand-offs and draws from decks.

A phase module ends by calling :func:`finish` (the next phase begins, by the phase table of
``engine.py``) or by setting the next pending step with :func:`decide` or :func:`chance`. Decks are
sorted multisets: :func:`draw_outcomes` gives a chance node's outcomes over the cards left.
"""

from __future__ import annotations

from games.cyberverse.content import Content
from games.cyberverse.state import (
    OVER,
    S_OVER,
)
from games.cyberverse.work import Work

__all__ = ["chance", "decide", "draw_outcomes", "finish", "game_over", "resume"]

CHANCE_SEAT = -1
TERMINAL_SEAT = -2


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
    from games.cyberverse.engine import BEGIN, NEXT  # the phase table (engine imports every phase)

    w.phase = NEXT[w.phase]
    BEGIN[w.phase](w, c)


def resume(w: Work, c: Content) -> None:
    """The current phase is taken up again after a shared sub-flow (a Story card drawn)."""
    from games.cyberverse.engine import RESUME  # the phase table (engine imports every phase)

    RESUME[w.phase](w, c)


def game_over(w: Work) -> None:
    """The game is over (cyberverse/end-of-game)."""
    w.phase = OVER
    w.step = S_OVER
    w.actor = TERMINAL_SEAT
    w.fight = None


def draw_outcomes(pool: tuple[int, ...]) -> tuple[tuple[int, float], ...]:
    """Each distinct card of a (sorted) deck with the chance of drawing it."""
    n = len(pool)
    counts: dict[int, int] = {}
    for x in pool:
        counts[x] = counts.get(x, 0) + 1
    return tuple((x, k / n) for x, k in counts.items())
