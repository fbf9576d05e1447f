"""STEP 12 of the COMPLETE SETUP: the objectives.

rule: ti4/objectives - each player draws two secret objectives and keeps one (the other is shuffled
back); the victory point track (10 or 14, ``TI4State.vp_track``); the speaker deals five stage I and
five stage II objectives face down and reveals the first two stage I objectives.
"""

from __future__ import annotations

import random

from games.core.records import replace, replace_at
from games.core.rng import shuffle
from games.errors import ConfigError
from games.ti4.content import Content
from games.ti4.state import OVER, TI4State, next_in_order

__all__ = ["REVEALED_AT_START", "draw_objectives", "keep_objective"]

REVEALED_AT_START = 2
"""rule: ti4/objectives - the speaker reveals the first two stage I objectives."""


def draw_objectives(
    content: Content, players: int, rng: random.Random
) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...], tuple[str, ...]]:
    """Shuffle the objective decks: two secret objectives per seat, five stage I and five stage II.

    rule: ti4/objectives - each player draws two secret objectives; the speaker deals five stage I
    and five stage II objectives face down.
    """
    secret = [o.id for o in content.objectives_in("secret")]
    shuffle(rng, secret)
    if len(secret) < 2 * players:
        raise ConfigError(
            f"{players} players need {2 * players} secret objectives; the pack has {len(secret)}",
            field="content_path",
            rule="ti4/objectives",
        )
    drawn = tuple(tuple(sorted(secret[2 * s : 2 * s + 2])) for s in range(players))
    stage1 = [o.id for o in content.objectives_in("stage I")]
    stage2 = [o.id for o in content.objectives_in("stage II")]
    shuffle(rng, stage1)
    shuffle(rng, stage2)
    return drawn, tuple(stage1[:5]), tuple(stage2[:5])


def keep_objective(state: TI4State, objective: str) -> TI4State:
    """rule: ti4/objectives - the seat keeps one secret objective (the other is shuffled back); the
    next seat clockwise keeps one; once every seat has, the speaker reveals the first two stage I
    objectives and the setup is over."""
    kept = replace_at(state.secret_kept, state.actor, objective)
    done = sum(1 for k in kept if k)
    if done < state.players:
        return replace(state, secret_kept=kept, actor=next_in_order(state, done))
    return replace(state, secret_kept=kept, revealed=REVEALED_AT_START, phase=OVER, actor=-1)
