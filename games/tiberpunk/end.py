"""End of the game (rule: tiberpunk/end-of-game): who wins, and the standings as they would be now.

"The player with the most triumph tokens on objective cards wins. In case of a tie, the tied player
with the most coins wins. If there is still a tie, the tied players share the victory." The end is
triggered when a player places their last triumph token; the round is then played out so that every
player has had the same number of turns (``rules``' turn sequence does that).
"""

from __future__ import annotations

from games.tiberpunk.state import State

__all__ = ["ended_by", "places", "standing_key", "standings", "winners"]


def ended_by(state: State) -> str:
    """How a finished game ended: the rulebook's trigger (an 8th triumph token placed, the round then
    played out), or the ``max_rounds`` cap, a variant ("" before the end or with no round played)."""
    if state.end:
        return "a player placed an 8th triumph token and the round was played out"
    if state.cfg.max_rounds and state.rnd >= state.cfg.max_rounds:
        return f"the max_rounds cap of {state.cfg.max_rounds} rounds (a variant, not in the rulebook)"
    return ""


def standing_key(state: State, seat: int) -> tuple[int, int]:
    """What decides the winner, in order: triumph tokens placed, then coins."""
    p = state.players[seat]
    return (sum(p.otoks), p.coins)


def winners(state: State) -> list[int]:
    """The seats that win (share the victory) if the game ended now."""
    keys = [standing_key(state, i) for i in range(state.n)]
    best = max(keys)
    return [i for i, k in enumerate(keys) if k == best]


def standings(state: State) -> tuple[float, ...]:
    """``returns`` as if the game ended now: 1 to the winner, the tied winners share it."""
    won = winners(state)
    return tuple(1.0 / len(won) if i in won else 0.0 for i in range(state.n))


def places(state: State) -> list[int]:
    """Each seat's place (1 = first; tied seats share a place), by tokens then coins."""
    keys = [standing_key(state, i) for i in range(state.n)]
    return [1 + sum(other > k for other in keys) for k in keys]
