"""The AI-facing evaluation of Tiberpunk: the heuristic for cut-off rollouts and the move prior.

Nothing here is a rule: these functions only read states to guide a search.
``TiberpunkGame.heuristic`` and ``TiberpunkGame.prior`` delegate here, so a better evaluation can be
worked on without touching the rules engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from games.tiberpunk import actions as act
from games.tiberpunk.state import LICTOR, PH_MAIN, PH_OVER, State

if TYPE_CHECKING:
    from games.tiberpunk.game import TiberpunkGame

__all__ = ["heuristic", "prior", "standings"]

# heuristic value of storyline progress: nothing / holds Stage II / holds Stage III / complete (tokens
# placed already count on their own)
_PROGRESS = (0.0, 0.4, 0.8, 0.0)


def standings(state: State) -> tuple[float, ...]:
    """``returns`` as if the game ended now: most tokens, then most coins, ties shared
    (rule: end-of-game)."""
    keys = [(sum(p.otoks), p.coins) for p in state.players]
    best = max(keys)
    winners = [i for i, k in enumerate(keys) if k == best]
    return tuple(1.0 / len(winners) if i in winners else 0.0 for i in range(state.n))


def heuristic(game: TiberpunkGame, state: State) -> tuple[float, ...]:
    """Each seat's share of a strength score, for cut-off rollouts (e.g. at the ``max_rounds`` cap).

    The score counts what decides the game (rule: end-of-game): triumph tokens (1 each), quest
    progress toward the next tokens (holding a Stage II card 0.4, a Stage III card 0.8: it is worth
    1-2 tokens), coins (0.05 each: they break ties), then gadgets (0.1), spaceship cards (0.05),
    skill upgrades (0.15) and shackles (-0.1). In the final round (the end was triggered, or this
    round is the ``max_rounds`` cap) half of the value is the standings as ``returns`` would give
    them now. Values are in [0, 1] and sum to 1; a finished game gives ``returns``.
    """
    if state.phase == PH_OVER:
        return game.returns(state)
    strengths = []
    for p in state.players:
        progress = sum(_PROGRESS[st] for st in p.story)
        strengths.append(
            1.0
            + sum(p.otoks)
            + progress
            + 0.05 * p.coins
            + 0.1 * len(p.hand)
            + 0.05 * sum(p.ships)
            + 0.15 * sum(p.skills)
            - 0.1 * p.shackles.bit_count()
        )
    total = sum(strengths)
    share = [x / total for x in strengths]
    cap = state.cfg.max_rounds
    if state.end or (cap and state.rnd >= cap):
        standing = standings(state)
        share = [0.5 * a + 0.5 * b for a, b in zip(share, standing, strict=True)]
    return tuple(share)


def prior(game: TiberpunkGame, state: State) -> Sequence[float] | None:
    """Rough move priors for PUCT in the main phase: quests and combats, then structures, then
    moves toward a quest district; collecting income and lictor moves are rarely best."""
    if state.phase != PH_MAIN:
        return None
    r = game.rules
    content = game.content
    p = state.players[state.seat]
    targets = list(r.quest_markers(state))
    for k in range(3):
        if p.story[k] == 2:
            targets.append(content.stage3[p.cards[k]].district)
        if p.story[k] == 1 and content.stage2[p.cards[k]].district >= 0:
            targets.append(content.stage2[p.cards[k]].district)
    dist = r.board.dist
    weights = []
    for a in game.legal_actions(state):
        o = act.op(a)
        w = 1.0
        if o == act.OP_INTERACT:
            it, sub = act.interact_fields(a)[1:3]
            w = 50.0 if it in (1, 3) else (8.0 if sub == 1 else 20.0) if it == 2 else 3.0 if it == 0 else 1.0
        elif o == act.OP_MOVE:
            _, mini, src, dst, pay = act.move_fields(a)
            if mini == LICTOR or not targets:
                w = 0.5
            else:
                closer = min(dist[dst][t] for t in targets) < min(dist[src][t] for t in targets)
                w = (6.0 if closer else 0.3) / (1 + pay)
        elif o == act.OP_END:
            w = 2.0
        weights.append(w)
    total = sum(weights)
    return [w / total for w in weights]
