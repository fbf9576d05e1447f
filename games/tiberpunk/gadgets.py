"""Gadget cards: drawing, discarding, playing them on a roll (rule: gadget-cards).

One of the rule modules :class:`games.tiberpunk.rules.Rules` is composed of; the precomputed tables
it reads are :class:`games.tiberpunk.tables.Tables`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.tiberpunk import actions as act
from games.tiberpunk.parts import (
    _C_A,
    _C_D,
    _C_RA,
    _C_RD,
    _C_UA,
    _C_UD,
    _I_CTX,
    _I_GDECK,
    _I_GDISC,
    _I_PLAYERS,
    _I_TURN,
    _T_USED,
    ADD,
    FLIP,
    REROLL,
    ROT1,
    ROT2,
    _hand_add,
    _hand_remove,
    _new,
    _with,
)
from games.tiberpunk.state import (
    PH_QGADGET,
    QUEST,
    Ctx,
    State,
)
from games.tiberpunk.tables import Tables

__all__ = ["GadgetRules"]


class GadgetRules(Tables):
    """Gadget cards: drawing, discarding, playing them on a roll."""

    def _gadget_actions(self, s: State) -> Sequence[int]:
        """Gadgets the deciding player may play on this roll, then "stop" (rule: gadget-cards).

        Cached by what they depend on: the hand, dice per gadget, quest or combat, the two pools.
        """
        ctx = s.ctx
        assert ctx is not None
        actor = s.seat if s.phase == PH_QGADGET else ctx.who
        p = s.players[actor]
        per = self.dice_per_gadget(s, actor)
        key = (p.hand, per, ctx.kind, ctx.a, ctx.d)
        got = self._gadget_cache.get(key)
        if got is None:
            if len(self._gadget_cache) > 50_000:  # bounded
                self._gadget_cache.clear()
            got = self._gadget_cache[key] = tuple(
                self._gadget_actions_of(p.hand, per, ctx.kind, ctx.a, ctx.d)
            )
        return got

    def _gadget_actions_of(
        self, hand: tuple[int, ...], per: int, kind: int, a: tuple[int, ...], d: tuple[int, ...]
    ) -> list[int]:
        """``_gadget_actions`` from its inputs (``per``: dice one gadget affects; ``kind``: QUEST or
        COMBAT; ``a``/``d``: the quester's or attacker's and the defender's dice)."""
        sides = (0,) if kind == QUEST else (0, 1)
        pools = (a, d)
        acts: set[int] = set()
        for g in set(hand):
            if g < 0:  # a face-down card (an observation): not playable
                continue
            if g == ADD:
                acts.add(act.gadget(ADD, 1))
                if per == 2:
                    acts.add(act.gadget(ADD, 2))
                continue
            singles = [
                (side, v, dc) for side in sides for v in sorted(set(pools[side])) for dc in self._deltas(g, v)
            ]
            for t in singles:
                acts.add(act.gadget(g, 1, (t,)))
            if per == 2:
                for i, t1 in enumerate(singles):
                    for t2 in singles[i:]:
                        if t1[0] != t2[0]:
                            continue
                        if t1[1] == t2[1] and pools[t1[0]].count(t1[1]) < 2:
                            continue
                        acts.add(act.gadget(g, 2, (t1, t2)))
        return [*sorted(acts), act.STOP]

    @staticmethod
    def _deltas(g: int, v: int) -> tuple[int, ...]:
        if g == ROT1:
            return tuple(dc for dc, ok in ((1, v < 6), (2, v > 1)) if ok)
        if g == ROT2:
            return tuple(dc for dc, ok in ((3, v <= 4), (4, v >= 3)) if ok)
        return (0,)

    def _draw_gadget(self, s: State, seat: int) -> State:
        """Draw the top gadget (the discard pile is reshuffled when the deck is empty)."""
        deck = s.gdeck
        if not deck:
            if not s.gdisc:
                return s
            deck, shuffles = self._reshuffle(s, s.gdisc, "gadgets")
            s = s._replace(gdisc=(), shuffles=shuffles)
        ps = list(s.players)
        ps[seat] = _hand_add(ps[seat], deck[0])
        sv: list[Any] = list(s)
        sv[_I_PLAYERS] = tuple(ps)
        sv[_I_GDECK] = deck[1:]
        return _new(State, sv)

    def _discard_gadget(self, s: State, seat: int, g: int) -> State:
        ps = list(s.players)
        ps[seat] = _hand_remove(ps[seat], g)
        sv: list[Any] = list(s)
        sv[_I_PLAYERS] = tuple(ps)
        sv[_I_GDISC] = (*s.gdisc, g)
        return _new(State, sv)

    # -- gadgets (rule: gadget-cards)
    def _do_gadget(self, s: State, a: int) -> State:
        """Play a gadget on the roll: discard it, count it, change the dice (rule: gadget-cards).

        One new state (the general ``_replace`` steps in a single copy).
        """
        ctx = s.ctx
        assert ctx is not None
        g, count, targets = act.gadget_fields(a)
        seat = s.seat
        actor = seat if s.phase == PH_QGADGET else ctx.who
        sv: list[Any] = list(s)
        ps = list(s.players)
        ps[actor] = _hand_remove(ps[actor], g)
        sv[_I_PLAYERS] = tuple(ps)
        sv[_I_GDISC] = (*s.gdisc, g)
        cv: list[Any] = list(ctx)
        mine = actor == seat
        if mine:
            t = s.turn
            sv[_I_TURN] = _with(t, _T_USED, (*t.used, g))
            cv[_C_UA] += 1
        else:
            cv[_C_UD] += 1
        if g == ADD:
            cv[_C_RA if mine else _C_RD] += count
        else:
            pools = [list(ctx.a), list(ctx.d)]
            pend = [0, 0]
            for side, v, dc in targets:
                pools[side].remove(v)
                if g == REROLL:
                    pend[side] += 1
                elif g == FLIP:
                    pools[side].append(7 - v)
                else:
                    pools[side].append(v + act.DELTAS[dc])
            cv[_C_A] = tuple(sorted(pools[0]))
            cv[_C_D] = tuple(sorted(pools[1]))
            cv[_C_RA] += pend[0]
            cv[_C_RD] += pend[1]
        sv[_I_CTX] = _new(Ctx, cv)
        return self._roll_or_check(_new(State, sv))

    def _no_gadget(self, s: State, a: int) -> State:
        """No (more) gadget on this roll: the quest roll fails or the combat is decided (rule:
        gadget-cards)."""
        assert s.ctx is not None
        return self._quest_fail_roll(s) if s.ctx.kind == QUEST else self._resolve_fight(s)
