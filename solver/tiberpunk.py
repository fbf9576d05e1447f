"""Tiberpunk exact quest odds with gadgets, by exhaustive enumeration of the dice.

A quest attempt (rulebook: STAGE I QUESTS, GADGET CARDS) rolls ``dice`` dice against a challenge
card's required values; after each roll the player may play gadgets (1 per roll, 3 with Emperor's
Genius, each on 2 dice when blessed); a failed roll lets the nearest lictor step closer, so the
player gets as many rolls as the lictor is districts away. :func:`quest_odds` is the probability of
success under optimal gadget play, computed by expectimax over every multiset of dice (no sampling).

Registered puzzle kinds: ``tiberpunk.quest_odds`` and ``tiberpunk.route_plan`` (fewest movement
actions, then fewest coins, to bring a miniature to a district).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from games.core import Game
from games.errors import LimitError
from games.tiberpunk.content import GADGETS, SKILLS
from games.tiberpunk.dice import contains, outcomes
from solver.core import SolveLimits, SolveResult, Status, register_puzzle

__all__ = ["best_gadget", "quest_odds", "route_plan", "solve_quest_odds", "solve_route_plan"]

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
    hand = tuple(sorted(GADGETS.index(g) if isinstance(g, str) else g for g in gadgets))
    if dice > 8 or len(hand) > 6 or rolls > 12:
        raise LimitError(
            f"quest odds enumerate at most 8 dice, 6 gadgets and 12 rolls, not {dice}/{len(hand)}/{rolls}",
            field="params",
        )
    return _solver(dice, tuple(sorted(need)), per_roll, dice_per_gadget).v(rolls, hand)


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


def solve_quest_odds(
    game: Game[Any, Any], state: Any, params: Mapping[str, Any], limits: SolveLimits
) -> SolveResult:
    """Puzzle ``tiberpunk.quest_odds``.

    ``params`` either give the numbers (``dice``, ``need``, optional ``gadgets``, ``rolls``,
    ``per_roll``, ``dice_per_gadget``) or name a quest of the active player in ``state``
    (``skill``: hacking/guile/offense, ``stage``: 1 or 3, ``mini``: character/drone); then dice,
    gadgets, rolls (nearest lictor) and favors come from the state, and the odds are averaged over
    the challenge cards not yet in the discard pile.
    """
    start = time.perf_counter()
    if "dice" in params:
        need = tuple(int(x) for x in params["need"])
        odds = quest_odds(
            int(params["dice"]),
            need,
            tuple(params.get("gadgets", ())),
            rolls=int(params.get("rolls", 1)),
            per_roll=int(params.get("per_roll", 1)),
            dice_per_gadget=int(params.get("dice_per_gadget", 1)),
        )
        answer: dict[str, Any] = {"odds": odds}
        text = f"{odds:.1%} to roll {list(need)} with {params['dice']} dice"
    else:
        rules = game.rules  # type: ignore[attr-defined]
        seat = state.seat
        p = state.players[seat]
        skill = SKILLS.index(str(params["skill"]))
        mini = 0 if str(params.get("mini", "character")).startswith("char") else 1
        stage = int(params.get("stage", 1))
        dice = rules.dice_count(state, seat, mini, skill)
        rolls = max(1, rules.board.nearest(rules.pos(p, mini), state.lictors)[0])
        per_roll = rules.gadget_limit(state, seat)
        per_die = rules.dice_per_gadget(state, seat)
        cards = game.content.challenges1 if stage == 1 else game.content.challenges3  # type: ignore[attr-defined]
        disc = state.c1disc if stage == 1 else state.c3disc
        left = [i for i in range(len(cards)) if i not in disc] or list(range(len(cards)))
        odds_of = {
            cards[i]: quest_odds(
                dice, cards[i], p.hand, rolls=rolls, per_roll=per_roll, dice_per_gadget=per_die
            )
            for i in set(left)
        }
        per_card = {str(list(need)): v for need, v in sorted(odds_of.items())}
        odds = sum(odds_of[cards[i]] for i in left) / len(left)
        answer = {"odds": odds, "dice": dice, "rolls": rolls, "per_card": per_card}
        text = (
            f"{odds:.1%} over the {len(left)} challenge cards left, {dice} dice, "
            f"{rolls} roll(s) before the lictor arrives"
        )
    elapsed = time.perf_counter() - start
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
    """
    n = len(dist)
    if src == dst:
        return 0, 0, []
    # best[d] = (coins spent, previous district) after k moves
    frontier: dict[int, tuple[int, list[tuple[int, int, int]]]] = {src: (0, [])}
    for moves in range(1, n + 1):
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
    rules = game.rules  # type: ignore[attr-defined]
    p = state.players[state.seat]
    mini = 0 if str(params.get("mini", "character")).startswith("char") else 1
    ids = rules.c.district_ids
    dst = ids.index(str(params["to"]))
    coins = int(params.get("coins", p.coins))
    base = (1 if mini == 0 else 2) + (1 if p.favor == 0 else 0)
    src = rules.pos(p, mini)
    plan = route_plan(rules.board.dist, src, dst, base_range=base, coins=coins)
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


register_puzzle("tiberpunk", "tiberpunk.quest_odds", solve_quest_odds)
register_puzzle("tiberpunk", "tiberpunk.route_plan", solve_route_plan)
