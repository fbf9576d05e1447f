"""Movement of miniatures and lictors, shackles.

rule: tiberpunk/movement; rule: tiberpunk/shackles

One of the rule modules :class:`games.tiberpunk.rules.Rules` is composed of; the precomputed tables
it reads are :class:`games.tiberpunk.tables.Tables`.
"""

from __future__ import annotations

from games.core.records import replace, replace_at
from games.tiberpunk import actions as act
from games.tiberpunk.interactions import InteractionRules
from games.tiberpunk.parts import MERCURY
from games.tiberpunk.state import CHAR, DRONE, Player, State

__all__ = ["MovementRules"]


class MovementRules(InteractionRules):
    """Movement of miniatures and lictors, shackles."""

    def _move_table(self, via: int, mini: int, src: int, base: int, budget: int) -> tuple[int, ...]:
        """Move actions of one miniature: every district within ``base`` + ``budget`` coins."""
        reach = self.board.reach(src, base, budget)
        return tuple(act.move(via, mini, src, d, pay) for d, pay in sorted(reach.items()))

    def _add_moves(self, out: list[int], s: State, p: Player, via: int) -> None:
        """Append the movement options (``_moves``) to ``out``: the character's, the drone's, each
        distinct lictor district's (in order), then the unshackle options (rule: movement, shackles)."""
        coins = p.coins
        chars, drones, lics, cache = self._move_ctx[
            (via * 2 + (p.favor == MERCURY)) * self._budgets + (coins if coins < self._diam else self._diam)
        ]
        out += chars[p.char]
        out += drones[p.drone]
        lictors = s.lictors
        got = cache.get(lictors)
        if got is None:
            if len(cache) > 8192:  # bounded (the sorted lictor tuples of one board are fewer)
                cache.clear()
            got = cache[lictors] = self._lictor_moves(lics, lictors)
        out += got
        if p.shackles:
            out += self._unshackle_acts[via][p.shackles]

    @staticmethod
    def _lictor_moves(lics: tuple[tuple[int, ...], ...], lictors: tuple[int, ...]) -> tuple[int, ...]:
        """The lictors' move actions: each distinct district once, in the (sorted) order of ``lictors``."""
        out: list[int] = []
        prev = -1
        for lic in lictors:
            if lic != prev:
                out += lics[lic]
                prev = lic
        return tuple(out)

    def _use_move(self, s: State, via: int) -> State:
        """The movement action (via 0) or a spaceship card (via 1-3) is spent (rule: movement,
        spaceship-cards)."""
        if via == 0:
            return replace(s, turn=replace(s.turn, moves=s.turn.moves + 1))
        return self._play_ship(s, via - 1)

    def _unshackle(self, s: State, a: int) -> State:
        """Spend the movement (or a spaceship card) to remove a miniature's shackles (rule: shackles)."""
        via, mini = (a >> 5) & 7, (a >> 8) & 3
        s = self._use_move(s, via)
        p = s.players[s.seat]
        s = self._put(s, s.seat, replace(p, shackles=p.shackles & ~(1 << mini)))
        return self._advance(s) if via else s

    def _fast_move(self, s: State, a: int) -> State:
        """``_do_move`` read from the action's bits directly (same result)."""
        via, mini, dst, pay = (a >> 5) & 7, (a >> 8) & 3, (a >> 14) & 15, (a >> 18) & 15
        s = self._use_move(s, via)
        seat = s.seat
        p = s.players[seat]
        if mini == CHAR:
            p = replace(p, coins=p.coins - pay, char=dst)
        elif mini == DRONE:
            p = replace(p, coins=p.coins - pay, drone=dst)
        else:
            p = replace(p, coins=p.coins - pay)
            lic = list(s.lictors)
            lic.remove((a >> 10) & 15)
            lic.append(dst)
            lic.sort()
            s = replace(s, lictors=tuple(lic))
        s = replace(s, players=replace_at(s.players, seat, p))
        return self._advance(s) if via else s

    def _do_move(self, s: State, a: int) -> State:
        """Move a miniature or a lictor, paying for the districts beyond the first (rule: movement)."""
        via, mini, src, dst, pay = act.move_fields(a)
        s = self._use_move(s, via)
        seat = s.seat
        p = s.players[seat]
        if mini == CHAR:
            p = replace(p, char=dst, coins=p.coins - pay)
        elif mini == DRONE:
            p = replace(p, drone=dst, coins=p.coins - pay)
        else:
            p = replace(p, coins=p.coins - pay)
            lic = list(s.lictors)
            lic.remove(src)
            lic.append(dst)
            s = replace(s, lictors=tuple(sorted(lic)))
        s = self._put(s, seat, p)
        return self._advance(s) if via else s
