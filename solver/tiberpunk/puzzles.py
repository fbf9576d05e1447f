"""The puzzle kinds ``tiberpunk.quest_odds`` and ``tiberpunk.route_plan``: parameters (given numbers or
a position), limits, statuses and the explanation a player can act on.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from games.core import Game
from games.errors import ConfigError, InvalidStateError, LimitError
from games.tiberpunk.content import GADGETS, SKILLS
from games.tiberpunk.validate import MAX_COINS
from solver.core import (
    SolveLimits,
    SolveResult,
    Status,
    check_param_keys,
)
from solver.tiberpunk.odds import StoppedError, no_gadget_odds, odds_numbers, poll, quest_odds, watching
from solver.tiberpunk.params import (
    MAX_DICE,
    MAX_GADGETS,
    MAX_ROLLS,
    MINIS,
    choice_param,
    int_param,
    mini_param,
)

__all__ = ["QUEST_ODDS_PARAMS", "ROUTE_PLAN_PARAMS", "route_plan", "solve_quest_odds", "solve_route_plan"]


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
    skill = SKILLS.index(choice_param(params, "skill", SKILLS, "hacking"))
    stage = int_param(params, "stage", 1, 1, 3)
    if stage == 2:
        raise ConfigError(
            "stage must be 1 or 3: Stage II quests roll no dice (rulebook: STAGE II QUESTS)",
            field="params.stage",
        )
    mini = mini_param(params)
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


def _quest(
    game: Game[Any, Any], state: Any, params: Mapping[str, Any], *, by_numbers: bool
) -> tuple[int, tuple[int, ...], int, int, int, list[tuple[int, ...]], list[int]]:
    """(dice, hand, rolls, per_roll, dice_per_gadget, challenge cards, cards left) of a
    ``tiberpunk.quest_odds`` request: the numbers it gives (one card, ``need``) or, when
    ``by_numbers`` is False, the active player's quest it names (:func:`_quest_of_state`)."""
    if not by_numbers:
        return _quest_of_state(game, state, params)
    _numbers_or_quest(params)
    dice, need, hand, rolls, per_roll, per_die = odds_numbers(params)
    return dice, hand, rolls, per_roll, per_die, [need], [0]


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
    dice, hand, rolls, per_roll, per_die, cards, left = _quest(game, state, params, by_numbers=by_numbers)
    odds_of, exact = _odds_by_need(
        dice,
        {tuple(cards[i]) for i in left},
        hand,
        rolls=rolls,
        per_roll=per_roll,
        per_die=per_die,
        deadline=deadline,
        stop=limits.stop,
    )
    odds = sum(odds_of[tuple(cards[i])] for i in left) / len(left)
    answer, text = _quest_answer(
        odds, odds_of, by_numbers=by_numbers, dice=dice, rolls=rolls, cards=len(left)
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


def _quest_answer(
    odds: float,
    odds_of: Mapping[tuple[int, ...], float],
    *,
    by_numbers: bool,
    dice: int,
    rolls: int,
    cards: int,
) -> tuple[dict[str, Any], str]:
    """The answer and the explanation's text: the odds of the numbers given (one card), or of a
    quest of the position over the ``cards`` challenge cards left, with each card's."""
    if by_numbers:
        (need,) = odds_of
        return {"odds": odds}, f"{odds:.1%} to roll {list(need)} with {dice} dice"
    per_card = {str(list(need)): v for need, v in sorted(odds_of.items())}
    text = (
        f"{odds:.1%} over the {cards} challenge cards left, {dice} dice, "
        f"{rolls} roll(s) before the lictor arrives"
    )
    return {"odds": odds, "dice": dice, "rolls": rolls, "per_card": per_card}, text


def _odds_by_need(
    dice: int,
    needs: set[tuple[int, ...]],
    hand: tuple[int, ...],
    *,
    rolls: int,
    per_roll: int,
    per_die: int,
    deadline: float,
    stop: Callable[[], bool] | None,
) -> tuple[dict[tuple[int, ...], float], bool]:
    """The odds of each challenge card's ``need``, exact (optimal gadget use) until ``deadline`` or
    ``stop`` ends the enumeration; the cards not finished then get a valid strategy's odds (no
    gadgets). Returns (odds by need, whether all are exact)."""
    odds_of: dict[tuple[int, ...], float] = {}
    exact = True
    with watching(deadline, stop):
        for need_i in sorted(needs):
            try:
                odds_of[need_i] = quest_odds(
                    dice, need_i, hand, rolls=rolls, per_roll=per_roll, dice_per_gadget=per_die
                )
            except StoppedError:
                exact = False
                break
    for need_i in needs - set(odds_of):
        odds_of[need_i] = no_gadget_odds(dice, need_i, rolls=rolls)  # a valid strategy's odds
    return odds_of, exact


def _route_request(
    game: Game[Any, Any], state: Any, params: Mapping[str, Any]
) -> tuple[Any, int, int, int, int, int]:
    """(the game's rules, mini, from, to, base range, coins) of a ``tiberpunk.route_plan`` request:
    the active player's miniature, where it stands, the district named and the coins it may pay
    (rulebook: MOVEMENT; Mercury's favor adds 1 to the range)."""
    rules = getattr(game, "rules", None)
    players = getattr(state, "players", None)
    if rules is None or players is None:
        raise InvalidStateError("a route plan needs a tiberpunk position", field="state")
    p = players[state.seat]
    mini = mini_param(params)
    ids = rules.c.district_ids
    if "to" not in params:
        raise ConfigError(f"to (the destination district) is required: one of {list(ids)}", field="params.to")
    dst = ids.index(choice_param(params, "to", ids, ids[0]))
    coins = int_param(params, "coins", p.coins, 0, state.cfg.bank or MAX_COINS)
    base = (1 if mini == 0 else 2) + (1 if p.favor == 0 else 0)
    src = rules.pos(p, mini)
    if src < 0:
        raise InvalidStateError(
            f"the active player's {MINIS[mini]} is not on the board yet",
            field="state",
            rule="tiberpunk/game-overview",
        )
    return rules, mini, src, dst, base, coins


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
        poll()
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
    rules, mini, src, dst, base, coins = _route_request(game, state, params)
    ids = rules.c.district_ids
    try:
        with watching(start + float(limits.time_limit_s), limits.stop):
            plan = route_plan(rules.board.dist, src, dst, base_range=base, coins=coins)
    except StoppedError:
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
