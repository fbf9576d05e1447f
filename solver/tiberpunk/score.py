"""Tiberpunk's exact score report: the standings by the end-of-game rule."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.core import Game
from games.errors import InvalidStateError
from games.tiberpunk.content import SKILLS
from solver.core import (
    ScoreLine,
    ScoreReport,
    SeatScore,
)

__all__ = ["score"]


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
