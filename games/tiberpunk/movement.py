"""Movement of miniatures and lictors, shackles (rule: movement, shackles).

One of the rule modules :class:`games.tiberpunk.rules.Rules` is composed of; the precomputed tables
it reads are :class:`games.tiberpunk.tables.Tables`.
"""

from __future__ import annotations

from typing import Any

from games.tiberpunk import actions as act
from games.tiberpunk.parts import (
    _I_LICTORS,
    _I_PLAYERS,
    _I_TURN,
    _P_COINS,
    _P_SHACKLES,
    MERCURY,
    _new,
    _with,
)
from games.tiberpunk.state import (
    CHAR,
    DRONE,
    Player,
    State,
    Turn,
)
from games.tiberpunk.tables import Tables

__all__ = ["MovementRules"]


class MovementRules(Tables):
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
        if via == 0:
            tv: list[Any] = list(s.turn)
            tv[2] += 1  # moves
            sv: list[Any] = list(s)
            sv[_I_TURN] = _new(Turn, tv)
            return _new(State, sv)
        return self._play_ship(s, via - 1)

    def _unshackle(self, s: State, a: int) -> State:
        """Spend the movement (or a spaceship card) to remove a miniature's shackles (rule: shackles)."""
        via, mini = (a >> 5) & 7, (a >> 8) & 3
        s = self._use_move(s, via)
        p = s.players[s.seat]
        s = self._put(s, s.seat, _with(p, _P_SHACKLES, p.shackles & ~(1 << mini)))
        return self._advance(s) if via else s

    def _fast_move(self, s: State, a: int) -> State:
        """``_do_move`` with fewer intermediate states (same result)."""
        via, mini, dst, pay = (a >> 5) & 7, (a >> 8) & 3, (a >> 14) & 15, (a >> 18) & 15
        if via:
            s = self._play_ship(s, via - 1)
            sv: list[Any] = list(s)
        else:
            tv: list[Any] = list(s.turn)
            tv[2] += 1  # moves
            sv = list(s)
            sv[_I_TURN] = _new(Turn, tv)
        seat = s.seat
        pv: list[Any] = list(s.players[seat])
        pv[0] -= pay  # coins
        if mini == CHAR:
            pv[2] = dst
        elif mini == DRONE:
            pv[3] = dst
        else:
            lic = list(s.lictors)
            lic.remove((a >> 10) & 15)
            lic.append(dst)
            lic.sort()
            sv[_I_PLAYERS + 1] = tuple(lic)
        ps = list(s.players)
        ps[seat] = _new(Player, pv)
        sv[_I_PLAYERS] = tuple(ps)
        return self._advance(_new(State, sv)) if via else _new(State, sv)

    def _do_move(self, s: State, a: int) -> State:
        via, mini, src, dst, pay = act.move_fields(a)
        s = self._use_move(s, via)
        seat = s.seat
        p = s.players[seat]
        if mini == CHAR:
            p = p._replace(char=dst, coins=p.coins - pay)
        elif mini == DRONE:
            p = p._replace(drone=dst, coins=p.coins - pay)
        else:
            p = _with(p, _P_COINS, p.coins - pay)
            lic = list(s.lictors)
            lic.remove(src)
            lic.append(dst)
            s = _with(s, _I_LICTORS, tuple(sorted(lic)))
        s = self._put(s, seat, p)
        return self._advance(s) if via else s
