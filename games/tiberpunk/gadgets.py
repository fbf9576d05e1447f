"""Gadget cards: drawing, discarding, playing them on a roll, Emperor's Genius.

rule: tiberpunk/gadget-cards

One of the rule modules :class:`games.tiberpunk.rules.Rules` is composed of; the precomputed tables
it reads are :class:`games.tiberpunk.tables.Tables`.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.core.records import replace, replace_at
from games.tiberpunk import actions as act
from games.tiberpunk.objectives import ObjectiveRules
from games.tiberpunk.parts import ADD, FLIP, GENIUS, REROLL, ROT1, ROT2, hand_add, hand_remove
from games.tiberpunk.state import PH_QGADGET, QUEST, State

__all__ = ["GadgetRules", "die_changes"]


def die_changes(g: int, v: int) -> tuple[int, ...]:
    """The changes gadget ``g`` may make to a die showing ``v``, as codes into ``actions.DELTAS``:
    +1 or -1 for Rotate 1, +2 or -2 for Rotate 2 (within 1-6); one code 0 for the others (rule:
    gadget-cards)."""
    if g == ROT1:
        return tuple(dc for dc, ok in ((1, v < 6), (2, v > 1)) if ok)
    if g == ROT2:
        return tuple(dc for dc, ok in ((3, v <= 4), (4, v >= 3)) if ok)
    return (0,)


class GadgetRules(ObjectiveRules):
    """Gadget cards: drawing, discarding, playing them on a roll."""

    def gadget_limit(self, s: State, seat: int) -> int:
        """Gadgets per roll: 1, or 3 with Emperor's Genius (active player only; rule: gadget-cards)."""
        return 3 if seat == s.seat and s.players[seat].favor == GENIUS else 1

    def dice_per_gadget(self, s: State, seat: int) -> int:
        """Dice one gadget affects: 2 with Emperor's Genius blessed (rule: gadget-cards)."""
        p = s.players[seat]
        return 2 if seat == s.seat and p.favor == GENIUS and (p.blessings >> GENIUS) & 1 else 1

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
                (side, v, dc) for side in sides for v in sorted(set(pools[side])) for dc in die_changes(g, v)
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

    def _draw_gadget(self, s: State, seat: int) -> State:
        """Draw the top gadget (the discard pile is reshuffled when the deck is empty)."""
        deck = s.gdeck
        if not deck:
            if not s.gdisc:
                return s
            deck, shuffles = self._reshuffle(s, s.gdisc, "gadgets")
            s = replace(s, gdisc=(), shuffles=shuffles)
        players = replace_at(s.players, seat, hand_add(s.players[seat], deck[0]))
        return replace(s, players=players, gdeck=deck[1:])

    def _discard_gadget(self, s: State, seat: int, g: int) -> State:
        """``seat`` discards gadget ``g`` (rule: gadget-cards)."""
        players = replace_at(s.players, seat, hand_remove(s.players[seat], g))
        return replace(s, players=players, gdisc=(*s.gdisc, g))

    # -- gadgets (rule: gadget-cards)
    def _do_gadget(self, s: State, a: int) -> State:
        """Play a gadget on the roll: discard it, count it, change the dice (rule: gadget-cards)."""
        ctx = s.ctx
        assert ctx is not None
        g, count, targets = act.gadget_fields(a)
        seat = s.seat
        actor = seat if s.phase == PH_QGADGET else ctx.who
        mine = actor == seat
        s = self._discard_gadget(s, actor, g)
        if mine:
            s = replace(s, turn=replace(s.turn, used=(*s.turn.used, g)))
            ctx = replace(ctx, ua=ctx.ua + 1)
        else:
            ctx = replace(ctx, ud=ctx.ud + 1)
        if g == ADD:
            ctx = replace(ctx, ra=ctx.ra + count) if mine else replace(ctx, rd=ctx.rd + count)
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
            ctx = replace(
                ctx,
                a=tuple(sorted(pools[0])),
                d=tuple(sorted(pools[1])),
                ra=ctx.ra + pend[0],
                rd=ctx.rd + pend[1],
            )
        return self._roll_or_check(replace(s, ctx=ctx))

    def _no_gadget(self, s: State, a: int) -> State:
        """No (more) gadget on this roll: the quest roll fails or the combat is decided (rule:
        gadget-cards)."""
        assert s.ctx is not None
        return self._quest_fail_roll(s) if s.ctx.kind == QUEST else self._resolve_fight(s)
