"""Tiberpunk exact quest odds with gadgets, by exhaustive enumeration of the dice.

A quest attempt (rulebook: STAGE I QUESTS, GADGET CARDS) rolls ``dice`` dice against a challenge
card's required values; after each roll the player may play gadgets (1 per roll, 3 with Emperor's
Genius, each on 2 dice when blessed); a failed roll lets the nearest lictor step closer, so the
player gets as many rolls as the lictor is districts away. :func:`quest_odds` is the probability of
success under optimal gadget play, computed by expectimax over every multiset of dice (no sampling).

Registered puzzle kinds: ``tiberpunk.quest_odds`` and ``tiberpunk.route_plan`` (fewest movement
actions, then fewest coins, to bring a miniature to a district).

Both honour ``SolveLimits``: the time limit and the ``stop`` flag (a cancelled call, the client's
deadline) end a solve early with the best answer so far. Quest odds then answer FEASIBLE with the
odds of a strategy known to be valid (the exact odds of every challenge card finished, and for the
others the odds of playing no gadget, a lower bound); a route plan stopped before it reached the
destination answers UNKNOWN. The memo of finished sub-results is kept, so asking again resumes.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

from games.core import Game
from games.core.text import is_integer
from games.errors import ConfigError, InvalidStateError, LimitError
from games.tiberpunk.content import GADGETS, SKILLS
from games.tiberpunk.dice import contains, outcomes, p_contains
from games.tiberpunk.validate import MAX_COINS
from solver.core import (
    Advice,
    ScoreLine,
    ScoreReport,
    SeatScore,
    SolveLimits,
    SolveResult,
    Status,
    check_param_keys,
    past_deadline_or_stopped,
    register_advice,
    register_puzzle,
    register_scorer,
    shown,
)

__all__ = [
    "best_gadget",
    "hint_advice",
    "no_gadget_odds",
    "quest_odds",
    "route_plan",
    "solve_quest_odds",
    "solve_route_plan",
]

REROLL, ADD, ROT1, ROT2, FLIP = range(5)
DELTAS = (0, 1, -1, 2, -2)
Pool = tuple[int, ...]
Hand = tuple[int, ...]
# an application: (gadget, count, targets) with targets ((0, value, delta code), ...) as the engine encodes
Play = tuple[int, int, tuple[tuple[int, int, int], ...]]


def _deltas(g: int, v: int) -> tuple[int, ...]:
    if g == ROT1:
        return tuple(dc for dc, ok in ((1, v < 6), (2, v > 1)) if ok)
    if g == ROT2:
        return tuple(dc for dc, ok in ((3, v <= 4), (4, v >= 3)) if ok)
    return (0,)


def _plays(hand: Hand, pool: Pool, per_die: int) -> list[Play]:
    """Every distinct gadget application on one's own dice (the engine's legal gadget actions)."""
    out: set[Play] = set()
    for g in set(hand):
        if g == ADD:
            out.add((ADD, 1, ()))
            if per_die == 2:
                out.add((ADD, 2, ()))
            continue
        singles = [(0, v, dc) for v in sorted(set(pool)) for dc in _deltas(g, v)]
        for t in singles:
            out.add((g, 1, (t,)))
        if per_die == 2:
            for i, t1 in enumerate(singles):
                for t2 in singles[i:]:
                    if t1[1] == t2[1] and pool.count(t1[1]) < 2:
                        continue
                    out.add((g, 2, (t1, t2)))
    return sorted(out)


class _StoppedError(Exception):
    """A solve reached its time limit or its stop flag (raised out of the enumeration)."""


_WATCH = threading.local()
"""This thread's running solve: ``limits`` = (deadline on ``time.perf_counter``, stop flag)."""

POLL_EVERY = 256
"""Enumeration nodes between two looks at the clock and the stop flag."""


@contextmanager
def _watching(deadline: float, stop: Callable[[], bool] | None) -> Iterator[None]:
    """Make the enumerations run in this thread raise ``_StoppedError`` past ``deadline`` or on ``stop``."""
    previous = getattr(_WATCH, "limits", None)
    _WATCH.limits = (deadline, stop)
    try:
        yield
    finally:
        _WATCH.limits = previous


def _poll() -> None:
    """Raise ``_StoppedError`` when this thread's solve is out of time or asked to stop."""
    limits = getattr(_WATCH, "limits", None)
    if limits is None:
        return
    if past_deadline_or_stopped(*limits):
        raise _StoppedError


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
            _poll()  # a stop leaves the memo with finished sub-results only (lru_cache keeps no partial one)
        if contains(pool, self.need):
            return 1.0
        best = self.v(rolls - 1, hand)  # stop: the lictor steps closer, roll again if it is not there
        if used < self.per_roll and hand:
            for play in _plays(hand, pool, self.per_die):
                best = max(best, self.outcome_value(rolls, hand, pool, used, play))
        return best


# ============================================================================ parameters

MAX_DICE = 8
"""The most dice an exact enumeration takes."""
MAX_GADGETS = 6
"""The most gadget cards in hand an exact enumeration takes."""
MAX_ROLLS = 12
"""The most rolls (the nearest lictor's distance) an exact enumeration takes."""
MINIS = ("character", "drone")


def _int_param(
    params: Mapping[str, Any], key: str, default: int, lo: int, hi: int, *, cap: int | None = None
) -> int:
    """An integer parameter in [lo, hi] (an int, an integral finite float or a short string of digits);
    ``ConfigError`` naming ``params.<key>`` and the allowed range otherwise (negative, NaN, infinite or
    huge numbers, booleans, other types). Above ``cap`` (an enumeration's size limit): ``LimitError``."""
    value = params.get(key, default)
    number: int | None = None
    if isinstance(value, bool):
        number = None
    elif isinstance(value, int):
        number = value
    elif isinstance(value, float) and math.isfinite(value) and value.is_integer():
        number = int(value)
    elif isinstance(value, str) and 0 < len(value.strip()) <= 20 and is_integer(value.strip()):
        number = int(value.strip())
    if number is not None and cap is not None and cap < number <= hi:
        raise LimitError(
            f"{key} is {number}: exact quest odds enumerate at most {cap}", field=f"params.{key}"
        )
    if number is None or not lo <= number <= (cap if cap is not None else hi):
        top = cap if cap is not None else hi
        raise ConfigError(
            f"{key} must be an integer from {lo} to {top}, not {shown(value)}", field=f"params.{key}"
        )
    return number


def _choice_param(params: Mapping[str, Any], key: str, choices: Sequence[str], default: str) -> str:
    """A string parameter among ``choices``."""
    value = params.get(key, default)
    if not isinstance(value, str) or value not in choices:
        raise ConfigError(f"{key} must be one of {list(choices)}, not {shown(value)}", field=f"params.{key}")
    return value


def _mini_param(params: Mapping[str, Any]) -> int:
    """``mini``: "character" (also "char", the notation's word) or "drone"; default the character."""
    value = params.get("mini", "character")
    if value == "char":
        value = "character"
    return MINIS.index(_choice_param({"mini": value}, "mini", MINIS, "character"))


def _need_param(params: Mapping[str, Any]) -> tuple[int, ...]:
    """``need``: the challenge card's required values, 1 to 8 dice values of 1 to 6."""
    value = params.get("need")
    if not isinstance(value, (list, tuple)) or not 1 <= len(value) <= MAX_DICE:
        raise ConfigError(
            f"need must be a list of 1 to {MAX_DICE} required dice values (1 to 6), not {shown(value)}",
            field="params.need",
        )
    return tuple(sorted(_int_param({"need": v}, "need", 0, 1, 6) for v in value))


def _gadgets_param(params: Mapping[str, Any]) -> tuple[int, ...]:
    """``gadgets``: gadget cards in hand, by name or index (at most ``MAX_GADGETS``)."""
    value = params.get("gadgets", [])
    if not isinstance(value, (list, tuple)):
        raise ConfigError(
            f"gadgets must be a list of gadget names {list(GADGETS)}, not {shown(value)}",
            field="params.gadgets",
        )
    if len(value) > MAX_GADGETS:
        raise LimitError(
            f"quest odds enumerate at most {MAX_GADGETS} gadgets, not {len(value)}", field="params.gadgets"
        )
    hand = []
    for g in value:
        if isinstance(g, str) and g in GADGETS:
            hand.append(GADGETS.index(g))
        elif isinstance(g, int) and not isinstance(g, bool) and 0 <= g < len(GADGETS):
            hand.append(g)
        else:
            raise ConfigError(
                f"gadgets must be gadget names {list(GADGETS)} (or their indices 0 to {len(GADGETS) - 1}); "
                f"{shown(g)} does not exist",
                field="params.gadgets",
            )
    return tuple(sorted(hand))


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
    dice, need_t, hand, rolls, per_roll, per_die = _numbers(numbers)
    return _solver(dice, need_t, per_roll, per_die).v(rolls, hand)


def _numbers(params: Mapping[str, Any]) -> tuple[int, tuple[int, ...], tuple[int, ...], int, int, int]:
    """(dice, need, hand, rolls, per_roll, dice_per_gadget) of the numbers form, validated."""
    dice = _int_param(params, "dice", 0, 0, 64, cap=MAX_DICE)
    need = _need_param(params)
    hand = _gadgets_param(params)
    rolls = _int_param(params, "rolls", 1, 1, 1000, cap=MAX_ROLLS)
    per_roll = _int_param(params, "per_roll", 1, 1, 3)
    per_die = _int_param(params, "dice_per_gadget", 1, 1, 2)
    return dice, need, hand, rolls, per_roll, per_die


@lru_cache(maxsize=256)
def _solver(dice: int, need: Pool, per_roll: int, per_die: int) -> _Solver:
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
    solver = _solver(dice, tuple(sorted(need)), per_roll, dice_per_gadget)
    hand = tuple(sorted(hand))
    best, choice = solver.v(rolls - 1, hand), None
    if used < per_roll:
        for play in _plays(hand, tuple(sorted(pool)), dice_per_gadget):
            value = solver.outcome_value(rolls, hand, tuple(sorted(pool)), used, play)
            if value > best + 1e-12:
                best, choice = value, play
    return choice


def _quest_of_state(
    game: Game[Any, Any], state: Any, params: Mapping[str, Any]
) -> tuple[int, tuple[int, ...], int, int, int, list[tuple[int, ...]], list[int]]:
    """(dice, hand, rolls, per_roll, dice_per_gadget, challenge cards, cards left) of the active
    player's quest named by ``params`` (skill, stage, mini) in ``state``."""
    if "skill" not in params:
        raise ConfigError(
            "name a quest (skill: hacking, guile or offense) or give the numbers (dice, need)",
            field="params.skill",
        )
    skill = SKILLS.index(_choice_param(params, "skill", SKILLS, "hacking"))
    stage = _int_param(params, "stage", 1, 1, 3)
    if stage == 2:
        raise ConfigError(
            "stage must be 1 or 3: Stage II quests roll no dice (rulebook: STAGE II QUESTS)",
            field="params.stage",
        )
    mini = _mini_param(params)
    rules = getattr(game, "rules", None)
    players = getattr(state, "players", None)
    if rules is None or players is None:
        raise InvalidStateError("a quest named by its skill needs a tiberpunk position", field="state")
    seat = state.seat
    p = players[seat]
    where = rules.pos(p, mini)
    if where < 0:
        raise InvalidStateError(
            f"the active player's {MINIS[mini]} is not on the board yet",
            field="state",
            rule="tiberpunk/game-overview",
        )
    dice = min(rules.dice_count(state, seat, mini, skill), MAX_DICE + 1)
    if dice > MAX_DICE:
        raise LimitError(f"quest odds enumerate at most {MAX_DICE} dice", field="params.skill")
    rolls = min(max(1, rules.board.nearest(where, state.lictors)[0]), MAX_ROLLS)
    per_roll = rules.gadget_limit(state, seat)
    per_die = rules.dice_per_gadget(state, seat)
    cards = list(rules.c.challenges1 if stage == 1 else rules.c.challenges3)
    disc = state.c1disc if stage == 1 else state.c3disc
    left = [i for i in range(len(cards)) if i not in disc] or list(range(len(cards)))
    hand = tuple(g for g in p.hand if g >= 0)
    if len(hand) > MAX_GADGETS:
        raise LimitError(
            f"quest odds enumerate at most {MAX_GADGETS} gadgets, not {len(hand)}", field="state"
        )
    return dice, hand, rolls, per_roll, per_die, cards, left


def _numbers_or_quest(params: Mapping[str, Any]) -> None:
    """The numbers (dice, need, ...) and a quest of the position (skill, stage, mini) exclude each other."""
    both = [k for k in ("skill", "stage", "mini") if k in params]
    if both:
        raise ConfigError(
            f"give the numbers (dice, need, ...) or name a quest (skill, stage, mini), not both: {both[0]}",
            field=f"params.{both[0]}",
        )


def solve_quest_odds(
    game: Game[Any, Any], state: Any, params: Mapping[str, Any], limits: SolveLimits
) -> SolveResult:
    """Puzzle ``tiberpunk.quest_odds``.

    ``params`` either give the numbers (``dice``, ``need``, optional ``gadgets``, ``rolls``,
    ``per_roll``, ``dice_per_gadget``) or name a quest of the active player in ``state``
    (``skill``: hacking/guile/offense, ``stage``: 1 or 3, ``mini``: character/drone); then dice,
    gadgets, rolls (nearest lictor) and favors come from the state, and the odds are averaged over
    the challenge cards not yet in the discard pile.

    Past ``limits.time_limit_s`` or once ``limits.stop()`` is True the answer is FEASIBLE: the odds
    of a valid strategy (optimal play on every card finished, no gadgets on the others), with
    ``answer["exact"] = False`` and the bound 1.
    """
    start = time.perf_counter()
    deadline = start + float(limits.time_limit_s)
    check_param_keys(params, QUEST_ODDS_PARAMS)
    by_numbers = "dice" in params or "need" in params
    if by_numbers:
        _numbers_or_quest(params)
        dice, need, hand, rolls, per_roll, per_die = _numbers(params)
        cards: list[tuple[int, ...]] = [need]
        left = [0]
    else:
        dice, hand, rolls, per_roll, per_die, cards, left = _quest_of_state(game, state, params)
    odds_of: dict[tuple[int, ...], float] = {}
    exact = True
    with _watching(deadline, limits.stop):
        for need_i in sorted({tuple(cards[i]) for i in left}):
            try:
                odds_of[need_i] = quest_odds(
                    dice, need_i, hand, rolls=rolls, per_roll=per_roll, dice_per_gadget=per_die
                )
            except _StoppedError:
                exact = False
                break
    for need_i in {tuple(cards[i]) for i in left} - set(odds_of):
        odds_of[need_i] = no_gadget_odds(dice, need_i, rolls=rolls)  # a valid strategy's odds
    odds = sum(odds_of[tuple(cards[i])] for i in left) / len(left)
    if by_numbers:
        answer: dict[str, Any] = {"odds": odds}
        text = f"{odds:.1%} to roll {list(cards[0])} with {dice} dice"
    else:
        per_card = {str(list(need)): v for need, v in sorted(odds_of.items())}
        answer = {"odds": odds, "dice": dice, "rolls": rolls, "per_card": per_card}
        text = (
            f"{odds:.1%} over the {len(left)} challenge cards left, {dice} dice, "
            f"{rolls} roll(s) before the lictor arrives"
        )
    answer["exact"] = exact
    elapsed = time.perf_counter() - start
    if not exact:
        stopped = "stopped" if limits.stop is not None and limits.stop() else "out of time"
        return SolveResult(
            kind="tiberpunk.quest_odds",
            status=Status.FEASIBLE,
            objective=odds,
            bound=1.0,
            answer=answer,
            explanation=f"at least {text} ({stopped} after {elapsed:.2f} s: odds not finished are counted"
            " without gadgets; ask again with more time for the exact odds).",
            method="enumeration",
            wall_s=elapsed,
        )
    return SolveResult(
        kind="tiberpunk.quest_odds",
        status=Status.OPTIMAL,
        objective=odds,
        bound=odds,
        answer=answer,
        explanation=text + " (exact enumeration, optimal gadget use).",
        method="enumeration",
        wall_s=elapsed,
    )


def route_plan(
    dist: tuple[tuple[int, ...], ...], src: int, dst: int, *, base_range: int, coins: int
) -> tuple[int, int, list[tuple[int, int, int]]] | None:
    """Fewest movement actions (then fewest coins) from ``src`` to ``dst`` on the district graph.

    Each movement goes up to ``base_range`` districts, +1 per coin paid (rulebook: MOVEMENT).
    Returns (moves, coins, legs as (from, to, pay)) or None when ``coins`` cannot pay for it.
    Inside a watched solve it polls the clock and the stop flag after every number of moves.
    """
    n = len(dist)
    if src == dst:
        return 0, 0, []
    # best[d] = (coins spent, previous district) after k moves
    frontier: dict[int, tuple[int, list[tuple[int, int, int]]]] = {src: (0, [])}
    for moves in range(1, n + 1):
        _poll()
        nxt: dict[int, tuple[int, list[tuple[int, int, int]]]] = {}
        for a, (spent, legs) in frontier.items():
            for b in range(n):
                if b == a:
                    continue
                pay = max(0, dist[a][b] - base_range)
                total = spent + pay
                if total <= coins and (b not in nxt or total < nxt[b][0]):
                    nxt[b] = (total, [*legs, (a, b, pay)])
        if dst in nxt:
            spent, legs = nxt[dst]
            return moves, spent, legs
        frontier = nxt
    return None


def solve_route_plan(
    game: Game[Any, Any], state: Any, params: Mapping[str, Any], limits: SolveLimits
) -> SolveResult:
    """Puzzle ``tiberpunk.route_plan``: the active player's character or drone to a district.

    ``params``: ``mini`` (character/drone), ``to`` (district id), optional ``coins`` (default: the
    player's coins). Mercury's favor in the state adds 1 to the range.
    """
    start = time.perf_counter()
    check_param_keys(params, ROUTE_PLAN_PARAMS)
    rules = getattr(game, "rules", None)
    players = getattr(state, "players", None)
    if rules is None or players is None:
        raise InvalidStateError("a route plan needs a tiberpunk position", field="state")
    p = players[state.seat]
    mini = _mini_param(params)
    ids = rules.c.district_ids
    if "to" not in params:
        raise ConfigError(f"to (the destination district) is required: one of {list(ids)}", field="params.to")
    dst = ids.index(_choice_param(params, "to", ids, ids[0]))
    coins = _int_param(params, "coins", p.coins, 0, state.cfg.bank or MAX_COINS)
    base = (1 if mini == 0 else 2) + (1 if p.favor == 0 else 0)
    src = rules.pos(p, mini)
    if src < 0:
        raise InvalidStateError(
            f"the active player's {MINIS[mini]} is not on the board yet",
            field="state",
            rule="tiberpunk/game-overview",
        )
    try:
        with _watching(start + float(limits.time_limit_s), limits.stop):
            plan = route_plan(rules.board.dist, src, dst, base_range=base, coins=coins)
    except _StoppedError:
        elapsed = time.perf_counter() - start
        return SolveResult(
            kind="tiberpunk.route_plan",
            status=Status.UNKNOWN,
            method="dp",
            wall_s=elapsed,
            answer={"exact": False},
            explanation=f"stopped after {elapsed:.2f} s before a route from {rules.c.district_ids[src]} "
            f"to {params['to']} was found; ask again with more time",
        )
    elapsed = time.perf_counter() - start
    if plan is None:
        return SolveResult(
            kind="tiberpunk.route_plan",
            status=Status.INFEASIBLE,
            method="dp",
            wall_s=elapsed,
            explanation=f"no route from {ids[src]} to {ids[dst]} within {coins} coins",
        )
    moves, spent, legs = plan
    name = "char" if mini == 0 else "drone"
    steps = [f"move {name} {ids[a]}-{ids[b]}" + (f" pay{pay}" if pay else "") for a, b, pay in legs]
    return SolveResult(
        kind="tiberpunk.route_plan",
        status=Status.OPTIMAL,
        objective=moves,
        bound=moves,
        answer={"moves": moves, "coins": spent, "plan": steps},
        explanation=f"{moves} movement action(s) and {spent} coin(s): " + "; ".join(steps),
        method="dp",
        wall_s=elapsed,
    )


QUEST_ODDS_PARAMS: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "tiberpunk.quest_odds parameters",
    "description": "either the numbers (dice, need and optionally gadgets, rolls, per_roll, dice_per_gadget) "
    "or a quest of the active player in the position (skill, optionally stage and mini)",
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "skill": {
            "enum": list(SKILLS),
            "description": "the quest's storyline skill; dice, gadgets, rolls (the nearest lictor's "
            "distance) and favors are read from the position and the odds averaged over the challenge "
            "cards left",
        },
        "stage": {
            "enum": [1, 3],
            "default": 1,
            "description": "the quest stage: 1 or 3 (Stage II rolls no dice)",
        },
        "mini": {
            "enum": list(MINIS),
            "default": "character",
            "description": "the miniature attempting the quest (hacking: the drone, guile: the character)",
        },
        "dice": {
            "type": "integer",
            "minimum": 0,
            "maximum": MAX_DICE,
            "description": "dice rolled each time",
        },
        "need": {
            "type": "array",
            "items": {"type": "integer", "minimum": 1, "maximum": 6},
            "minItems": 1,
            "maxItems": MAX_DICE,
            "description": "the challenge card's required values",
        },
        "gadgets": {
            "type": "array",
            "items": {"enum": list(GADGETS)},
            "maxItems": MAX_GADGETS,
            "default": [],
            "description": "gadget cards in hand, by name (their indices 0-4 are accepted too)",
        },
        "rolls": {
            "type": "integer",
            "minimum": 1,
            "maximum": MAX_ROLLS,
            "default": 1,
            "description": "rolls before the lictor arrives (the nearest lictor's distance)",
        },
        "per_roll": {
            "type": "integer",
            "minimum": 1,
            "maximum": 3,
            "default": 1,
            "description": "gadgets allowed per roll (1; 3 with Emperor's Genius)",
        },
        "dice_per_gadget": {
            "type": "integer",
            "minimum": 1,
            "maximum": 2,
            "default": 1,
            "description": "dice one gadget affects (2 with Emperor's Genius blessed)",
        },
    },
}
"""The JSON Schema of ``tiberpunk.quest_odds`` parameters."""

ROUTE_PLAN_PARAMS: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "tiberpunk.route_plan parameters",
    "type": "object",
    "additionalProperties": False,
    "required": ["to"],
    "properties": {
        "mini": {
            "enum": list(MINIS),
            "default": "character",
            "description": "the active player's miniature to move",
        },
        "to": {"type": "string", "description": "the destination district id (e.g. 'IV')"},
        "coins": {
            "type": "integer",
            "minimum": 0,
            "description": "coins available for extra districts (default: the player's coins)",
        },
    },
}
"""The JSON Schema of ``tiberpunk.route_plan`` parameters."""

register_puzzle(
    "tiberpunk",
    "tiberpunk.quest_odds",
    solve_quest_odds,
    summary="The exact odds that a quest attempt succeeds with the best use of the gadget cards in hand "
    "(given numbers, or the active player's quest in the position).",
    params_schema=QUEST_ODDS_PARAMS,
)
register_puzzle(
    "tiberpunk",
    "tiberpunk.route_plan",
    solve_route_plan,
    summary="The fewest movement actions, then the fewest coins, to bring the active player's character or "
    "drone to a district.",
    params_schema=ROUTE_PLAN_PARAMS,
)


# ============================================================================ hint advice


def hint_advice(
    game: Game[Any, Any], state: Any, actions: tuple[Any, ...], limits: SolveLimits
) -> Advice | None:
    """The exact advice behind a hint at a quest roll (``solver.core.Advice``): the success odds of
    each gadget play (and of stopping) with the best play afterwards, by the enumeration of
    :func:`quest_odds` (rule: tiberpunk/gadget-cards, tiberpunk/stage-1-quests); the hint ranks by
    them. None at any other decision, for more dice or gadgets than the enumeration takes, or when
    stopped first."""
    from games.tiberpunk import actions as act
    from games.tiberpunk.state import PH_QGADGET, State

    rules = getattr(game, "rules", None)
    if rules is None or not isinstance(state, State) or state.phase != PH_QGADGET or state.ctx is None:
        return None
    ctx, seat = state.ctx, state.seat
    if ctx.card < 0:
        return None
    need = tuple(sorted((rules.c.challenges1 if ctx.stage == 1 else rules.c.challenges3)[ctx.card]))
    dice = rules.dice_count(state, seat, ctx.mini, ctx.skill)
    hand = tuple(sorted(g for g in state.players[seat].hand if g >= 0))
    if dice > MAX_DICE or len(hand) > MAX_GADGETS:
        return None
    rolls = rules.board.nearest(ctx.where, state.lictors)[0]
    solver = _solver(dice, need, rules.gadget_limit(state, seat), rules.dice_per_gadget(state, seat))
    pool = tuple(sorted(ctx.a))
    values: dict[str, float] = {}
    deadline = time.perf_counter() + float(limits.time_limit_s)
    try:
        with _watching(deadline, limits.stop):
            for a in game.legal_actions(state):
                text = game.action_to_text(state, a)
                if a == act.STOP:
                    values[text] = solver.v(rolls - 1, hand)
                elif a & 31 == act.OP_GADGET:
                    values[text] = solver.outcome_value(rolls, hand, pool, ctx.ua, act.gadget_fields(a))
    except _StoppedError:
        return None
    if not values:
        return None
    best = max(values, key=values.__getitem__)
    left = "this roll" if rolls <= 1 else f"{rolls} rolls before the lictor arrives"
    return Advice(
        label="quest success odds with the best gadget play",
        unit="probability",
        values=values,
        best=best,
        method="exact enumeration (tiberpunk.quest_odds)",
        assumption=f"needs {list(need)} with {dice} dice, {left}",
        sentences={
            t: f"quest success odds {v:.1%} with the best gadget play after it" for t, v in values.items()
        },
    )


# ============================================================================ the score


def score(game: Game[Any, Any], state: Any) -> ScoreReport:
    """Standings by the end-of-game rule (rule: tiberpunk/end-of-game): most triumph tokens placed on
    objective cards, then most coins; players still tied share the victory. Before the end, the
    standings if the game ended now (``final`` false)."""
    from games.tiberpunk.end import ended_by, places, standing_key
    from games.tiberpunk.game import TiberpunkGame
    from games.tiberpunk.state import PH_OVER, State

    if not isinstance(game, TiberpunkGame) or not isinstance(state, State):
        raise InvalidStateError("not a Tiberpunk position", field="position")
    keys = [standing_key(state, seat) for seat in range(state.n)]
    rank = places(state)
    names = [*SKILLS, *(f"side objective {game.pack.side_cards[i].id}" for i in state.cfg.side)]
    seats = []
    for seat, p in enumerate(state.players):
        # rule: tiberpunk/end-of-game - each triumph token placed on an objective card counts 1;
        # the coins only break a tie on tokens (said in ``tiebreak``, where they decide)
        lines = [
            ScoreLine(
                category=f"triumph tokens on the {name} card",
                points=float(n),
                detail=f"{n} token{'s' if n != 1 else ''} × 1",
            )
            for name, n in zip(names, p.otoks, strict=True)
            if n
        ]
        seats.append(
            SeatScore(
                seat=seat,
                total=float(keys[seat][0]),
                rank=rank[seat],
                breakdown=tuple(lines),
                tiebreak=_tiebreak(keys, seat),
            )
        )
    over = state.phase == PH_OVER
    return ScoreReport(
        game="tiberpunk", final=over, seats=tuple(seats), ended_by=ended_by(state) if over else ""
    )


def _tiebreak(keys: Sequence[tuple[int, int]], seat: int) -> tuple[str, ...]:
    """Why ``seat`` ranks as it does against the seats with as many triumph tokens."""
    tokens, coins = keys[seat]
    tied = [i for i, k in enumerate(keys) if k[0] == tokens and i != seat]
    if not tied:
        return ()
    out = [f"tied on {tokens} triumph tokens with {', '.join(f'seat {i}' for i in tied)}: most coins wins"]
    for i in tied:
        other = keys[i][1]
        if other == coins:
            out.append(f"equal coins ({coins}) with seat {i}: the victory is shared")
        else:
            out.append(f"{coins} coins against seat {i}'s {other}: {'ahead' if coins > other else 'behind'}")
    return tuple(out)


register_scorer("tiberpunk", score)
register_advice("tiberpunk", hint_advice)
