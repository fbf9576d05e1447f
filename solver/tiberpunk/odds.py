"""Exact quest odds with gadgets, by exhaustive enumeration of the dice (expectimax over every multiset
of dice, no sampling), stopped by the time limit or the stop flag of the running solve.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

from games.tiberpunk.actions import DELTAS
from games.tiberpunk.dice import contains, outcomes, p_contains
from games.tiberpunk.gadgets import die_changes
from games.tiberpunk.parts import ADD, FLIP, REROLL
from solver.core import (
    past_deadline_or_stopped,
)
from solver.tiberpunk.params import MAX_DICE, MAX_ROLLS, gadgets_param, int_param, need_param

__all__ = [
    "POLL_EVERY",
    "StoppedError",
    "best_gadget",
    "no_gadget_odds",
    "odds_numbers",
    "poll",
    "quest_odds",
    "solver_for",
    "watching",
]


Pool = tuple[int, ...]
Hand = tuple[int, ...]
# an application: (gadget, count, targets) with targets ((0, value, delta code), ...) as the engine encodes
Play = tuple[int, int, tuple[tuple[int, int, int], ...]]


def _plays(hand: Hand, pool: Pool, per_die: int) -> list[Play]:
    """Every distinct gadget application on one's own dice (the engine's legal gadget actions)."""
    out: set[Play] = set()
    for g in set(hand):
        if g == ADD:
            out.add((ADD, 1, ()))
            if per_die == 2:
                out.add((ADD, 2, ()))
            continue
        singles = [(0, v, dc) for v in sorted(set(pool)) for dc in die_changes(g, v)]
        for t in singles:
            out.add((g, 1, (t,)))
        if per_die == 2:
            for i, t1 in enumerate(singles):
                for t2 in singles[i:]:
                    if t1[1] == t2[1] and pool.count(t1[1]) < 2:
                        continue
                    out.add((g, 2, (t1, t2)))
    return sorted(out)


class StoppedError(Exception):
    """A solve reached its time limit or its stop flag (raised out of the enumeration)."""


_WATCH = threading.local()
"""This thread's running solve: ``limits`` = (deadline on ``time.perf_counter``, stop flag)."""

POLL_EVERY = 256
"""Enumeration nodes between two looks at the clock and the stop flag."""


@contextmanager
def watching(deadline: float, stop: Callable[[], bool] | None) -> Iterator[None]:
    """Make the enumerations run in this thread raise ``StoppedError`` past ``deadline`` or on ``stop``."""
    previous = getattr(_WATCH, "limits", None)
    _WATCH.limits = (deadline, stop)
    try:
        yield
    finally:
        _WATCH.limits = previous


def poll() -> None:
    """Raise ``StoppedError`` when this thread's solve is out of time or asked to stop."""
    limits = getattr(_WATCH, "limits", None)
    if limits is None:
        return
    if past_deadline_or_stopped(*limits):
        raise StoppedError


def no_gadget_odds(dice: int, need: tuple[int, ...] | list[int], *, rolls: int = 1) -> float:
    """Success odds of an attempt that plays no gadget: a lower bound of :func:`quest_odds`."""
    p = p_contains(dice, tuple(sorted(need)))
    return 1.0 - (1.0 - p) ** max(0, rolls)


def _remove(hand: Hand, g: int) -> Hand:
    lst = list(hand)
    lst.remove(g)
    return tuple(lst)


class _Solver:
    def __init__(self, dice: int, need: Pool, per_roll: int, per_die: int) -> None:
        self.dice = dice
        self.need = need
        self.per_roll = per_roll
        self.per_die = per_die
        self.nodes = 0
        self.v = lru_cache(maxsize=None)(self._v)
        self.w = lru_cache(maxsize=None)(self._w)

    def _v(self, rolls: int, hand: Hand) -> float:
        """Success odds with ``rolls`` rolls left, before rolling."""
        if rolls <= 0:
            return 0.0
        return sum(p * self.w(rolls, hand, pool, 0) for pool, p in outcomes(self.dice))

    def outcome_value(self, rolls: int, hand: Hand, pool: Pool, used: int, play: Play) -> float:
        """Expected value after applying one gadget play to ``pool``."""
        g, count, targets = play
        rest = _remove(hand, g)
        if g == ADD:
            return sum(
                p * self.w(rolls, rest, tuple(sorted(pool + extra)), used + 1) for extra, p in outcomes(count)
            )
        lst = list(pool)
        pending = 0
        for _, v, dc in targets:
            lst.remove(v)
            if g == REROLL:
                pending += 1
            elif g == FLIP:
                lst.append(7 - v)
            else:
                lst.append(v + DELTAS[dc])
        base = tuple(sorted(lst))
        if not pending:
            return self.w(rolls, rest, base, used + 1)
        return sum(
            p * self.w(rolls, rest, tuple(sorted(base + extra)), used + 1) for extra, p in outcomes(pending)
        )

    def _w(self, rolls: int, hand: Hand, pool: Pool, used: int) -> float:
        """Success odds after a roll showing ``pool``, ``used`` gadgets played on it."""
        self.nodes += 1
        if not self.nodes % POLL_EVERY:
            poll()  # a stop leaves the memo with finished sub-results only (lru_cache keeps no partial one)
        if contains(pool, self.need):
            return 1.0
        best = self.v(rolls - 1, hand)  # stop: the lictor steps closer, roll again if it is not there
        if used < self.per_roll and hand:
            for play in _plays(hand, pool, self.per_die):
                best = max(best, self.outcome_value(rolls, hand, pool, used, play))
        return best


def quest_odds(
    dice: int,
    need: tuple[int, ...] | list[int],
    gadgets: tuple[int | str, ...] | list[int | str] = (),
    *,
    rolls: int = 1,
    per_roll: int = 1,
    dice_per_gadget: int = 1,
) -> float:
    """Exact probability that a quest attempt succeeds with optimal gadget play.

    Args:
        dice: dice rolled each time (skill level - shackles + boost).
        need: the challenge card's required values.
        gadgets: gadget cards in hand (indices or names: reroll, add-die, rotate1, rotate2, flip).
        rolls: rolls before the lictor arrives (the nearest lictor's distance).
        per_roll: gadgets allowed per roll (1; 3 with Emperor's Genius).
        dice_per_gadget: dice one gadget affects (2 with Emperor's Genius blessed).
    """
    numbers = {
        "dice": dice,
        "need": list(need),
        "gadgets": list(gadgets),
        "rolls": rolls,
        "per_roll": per_roll,
        "dice_per_gadget": dice_per_gadget,
    }
    dice, need_t, hand, rolls, per_roll, per_die = odds_numbers(numbers)
    return solver_for(dice, need_t, per_roll, per_die).v(rolls, hand)


def odds_numbers(params: Mapping[str, Any]) -> tuple[int, tuple[int, ...], tuple[int, ...], int, int, int]:
    """(dice, need, hand, rolls, per_roll, dice_per_gadget) of the numbers form, validated."""
    dice = int_param(params, "dice", 0, 0, 64, cap=MAX_DICE)
    need = need_param(params)
    hand = gadgets_param(params)
    rolls = int_param(params, "rolls", 1, 1, 1000, cap=MAX_ROLLS)
    per_roll = int_param(params, "per_roll", 1, 1, 3)
    per_die = int_param(params, "dice_per_gadget", 1, 1, 2)
    return dice, need, hand, rolls, per_roll, per_die


@lru_cache(maxsize=256)
def solver_for(dice: int, need: Pool, per_roll: int, per_die: int) -> _Solver:
    return _Solver(dice, need, per_roll, per_die)


def best_gadget(
    dice: int,
    need: tuple[int, ...],
    hand: tuple[int, ...],
    pool: tuple[int, ...],
    *,
    rolls: int,
    used: int = 0,
    per_roll: int = 1,
    dice_per_gadget: int = 1,
) -> Play | None:
    """The optimal gadget play on this roll (None: stop and accept the failed roll)."""
    solver = solver_for(dice, tuple(sorted(need)), per_roll, dice_per_gadget)
    hand = tuple(sorted(hand))
    best, choice = solver.v(rolls - 1, hand), None
    if used < per_roll:
        for play in _plays(hand, tuple(sorted(pool)), dice_per_gadget):
            value = solver.outcome_value(rolls, hand, tuple(sorted(pool)), used, play)
            if value > best + 1e-12:
                best, choice = value, play
    return choice
