"""Divine favor: moving the favor marker and the discounts of Juno (rule: tiberpunk/divine-favor).

One of the rule modules :class:`games.tiberpunk.rules.Rules` is composed of; the precomputed tables
it reads are :class:`games.tiberpunk.tables.Tables`.
"""

from __future__ import annotations

from games.core.records import replace, replace_at
from games.tiberpunk.movement import MovementRules
from games.tiberpunk.parts import JUNO
from games.tiberpunk.state import Player, State

__all__ = ["FavorRules"]


class FavorRules(MovementRules):
    """Divine favor: the favor marker and Juno's discounts on purchases."""

    def _move_favor(self, s: State, a: int) -> State:
        """Move the favor marker, once a turn (rule: divine-favor)."""
        seat = s.seat
        p = replace(s.players[seat], favor=a >> 5)
        return replace(s, players=replace_at(s.players, seat, p), turn=replace(s.turn, favor=True))

    def juno_cost(self, s: State, p: Player, costs: list[int]) -> tuple[int, bool]:
        """(total, uses the basic discount) of purchases in one structure interaction (rule: divine-favor)."""
        total = sum(costs)
        if p.favor != JUNO:
            return total, False
        if (p.blessings >> JUNO) & 1:
            return sum(max(0, x - 1) for x in costs), False
        if not s.turn.juno and total > 0:
            return total - 1, True
        return total, False

    def _pay(self, s: State, seat: int, costs: list[int]) -> State:
        """``seat`` pays the purchases of one structure interaction, less Juno's discount (rule:
        divine-favor, structure-interaction)."""
        p = s.players[seat]
        total, basic = self.juno_cost(s, p, costs)
        s = replace(s, players=replace_at(s.players, seat, replace(p, coins=p.coins - total)))
        return replace(s, turn=replace(s.turn, juno=True)) if basic else s
