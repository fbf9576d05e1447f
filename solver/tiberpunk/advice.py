"""Exact hint advice at a quest roll: the success odds of each gadget play (and of stopping)."""

from __future__ import annotations

import time
from typing import Any

from games.core import Game
from solver.core import (
    Advice,
    SolveLimits,
)
from solver.tiberpunk.odds import StoppedError, solver_for, watching
from solver.tiberpunk.params import MAX_DICE, MAX_GADGETS

__all__ = ["hint_advice"]


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
    solver = solver_for(dice, need, rules.gadget_limit(state, seat), rules.dice_per_gadget(state, seat))
    pool = tuple(sorted(ctx.a))
    values: dict[str, float] = {}
    deadline = time.perf_counter() + float(limits.time_limit_s)
    try:
        with watching(deadline, limits.stop):
            for a in game.legal_actions(state):
                text = game.action_to_text(state, a)
                if a == act.STOP:
                    values[text] = solver.v(rolls - 1, hand)
                elif a & 31 == act.OP_GADGET:
                    values[text] = solver.outcome_value(rolls, hand, pool, ctx.ua, act.gadget_fields(a))
    except StoppedError:
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
