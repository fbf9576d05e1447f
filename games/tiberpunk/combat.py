"""Combat against a miniature or a lictor, combat tiles.

rule: tiberpunk/combat; rule: tiberpunk/combat-vs-miniature; rule: tiberpunk/combat-vs-lictor;
rule: tiberpunk/combat-tiles

One of the rule modules :class:`games.tiberpunk.rules.Rules` is composed of; the precomputed tables
it reads are :class:`games.tiberpunk.tables.Tables`.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.core.records import replace
from games.tiberpunk.dice import score
from games.tiberpunk.gadgets import GadgetRules
from games.tiberpunk.parts import (
    GUILE,
    HACK,
    OFF,
    R_COINS,
    R_ESCAPE,
    R_SKILL,
    T_DEF_CHAR,
    T_DEF_DRONE,
    T_DEF_LICTOR,
    TPL_DEFEAT,
)
from games.tiberpunk.state import (
    COMBAT,
    DRONE,
    LICTOR,
    PH_CGADGET,
    STAGE2_OBJ,
    Ctx,
    Player,
    State,
)

__all__ = ["CombatRules"]


class CombatRules(GadgetRules):
    """Combat against a miniature or a lictor, combat tiles."""

    def _combat_objectives(self, s: State, p: Player, tk: int, d: int) -> Sequence[int]:
        """Available, unfulfilled combat objectives against a target kind (rule: combat)."""
        key = (s.cfg.side, p.side, tk)
        out = self._side_objs.get(key)  # the side tasks part, cached
        if out is None:
            if len(self._side_objs) > 10_000:  # bounded
                self._side_objs.clear()
            tasks = self._combat_tasks.get(s.cfg.side)
            if tasks is None:
                tasks = tuple(
                    tuple(
                        (slot, ti)
                        for slot, card_i in enumerate(s.cfg.side)
                        for ti, task in enumerate(self.c.side_cards[card_i].tasks)
                        if task.kind == want
                    )
                    for want in (T_DEF_CHAR, T_DEF_DRONE, T_DEF_LICTOR)
                )
                self._combat_tasks[s.cfg.side] = tasks
            side = p.side
            out = self._side_objs[key] = tuple(
                slot * 3 + ti for slot, ti in tasks[tk] if not (side[slot] >> ti) & 1
            )
        if p.story[OFF] == 1:
            card = self.c.stage2[p.cards[OFF]]
            if card.template == TPL_DEFEAT and card.target in (tk, 3) and card.district in (-1, d):
                return (*out, STAGE2_OBJ)
        return out

    def _lictor_combat_options(self, s: State, p: Player, m: int, d: int) -> list[int]:
        """Combats of miniature ``m`` against the lictor in its district ``d`` (rule: combat-vs-lictor),
        each with an available combat objective declared, with or without a gadget (bit 21)."""
        base = self._fight_base[m] | LICTOR << 13  # act.interact(0, it, SUB_FIGHT, LICTOR, 0, tile, obj)
        out: list[int] = []
        for obj in self._combat_objectives(s, p, LICTOR, d):
            out.append(base | obj << 25)
            out.append(base | 1 << 21 | obj << 25)
        return out

    # -- combat (rule: combat, combat-vs-miniature, combat-vs-lictor)
    def _start_fight(self, s: State, mini: int, *, tk: int, tseat: int, tile: int, obj: int) -> State:
        """The attacker and the defender (or the lictor) take their dice (rule: combat, combat-vs-miniature,
        combat-vs-lictor)."""
        seat = s.seat
        ka = self.dice_count(s, seat, mini, OFF)
        if tk == LICTOR:
            kd = ka + 1
            tseat = 0
        else:
            kd = self.dice_count(s, tseat, tk, HACK if tk == DRONE else GUILE)
        where = self.pos(s.players[seat], mini)
        ctx = Ctx(
            kind=COMBAT,
            stage=0,
            skill=OFF,
            mini=mini,
            card=-1,
            a=(),
            d=(),
            ra=ka,
            rd=kd,
            ua=0,
            ud=0,
            tkind=tk,
            tseat=tseat,
            tile=s.cfg.tiles[tile],
            obj=obj,
            where=where,
            who=-1,
        )
        return self._roll_or_check(replace(s, ctx=ctx))

    def attacker_wins(self, ctx: Ctx) -> bool:
        """Whether the attacker is winning now (ties go to the defender or the lictor)."""
        return self._score_of(ctx.tile, ctx.a) > self._score_of(ctx.tile, ctx.d)

    def _score_of(self, cond: int, pool: tuple[int, ...]) -> int:
        """``dice.score`` (rule: combat-tiles), cached by (condition, pool): pools are small and repeat."""
        key = (cond, pool)
        got = self._scores.get(key)
        if got is None:
            if len(self._scores) > 50_000:  # bounded
                self._scores.clear()
            got = self._scores[key] = score(cond, pool)
        return got

    def _combat_check(self, s: State) -> State:
        ctx = s.ctx
        assert ctx is not None
        if self.attacker_wins(ctx):
            if ctx.tkind == LICTOR:
                return self._resolve_fight(s)
            loser = ctx.tseat
            can = bool(s.players[loser].hand) and ctx.ud < self.gadget_limit(s, loser)
        else:
            loser = s.seat
            can = bool(s.players[loser].hand) and ctx.ua < self.gadget_limit(s, loser)
        if can:
            return replace(s, phase=PH_CGADGET, ctx=replace(ctx, who=loser))
        return self._resolve_fight(s)

    def _resolve_fight(self, s: State) -> State:
        ctx = s.ctx
        assert ctx is not None
        seat = s.seat
        s = replace(s, ctx=None)
        if self.attacker_wins(ctx):
            if ctx.obj == STAGE2_OBJ:  # token and reward first, then the lictor or shackles
                p = s.players[seat]
                s = self._story_done(s, seat, OFF, 2, self.c.stage2[p.cards[OFF]].reward)
            else:
                s = self._complete_side(s, seat, *divmod(ctx.obj, 3))
            if ctx.tkind == LICTOR:
                if len(s.lictors) == 1:  # the last lictor moves to an adjacent district instead
                    s = replace(s, rewards=(*s.rewards, (seat, R_ESCAPE, ctx.where)))
                else:
                    lic = list(s.lictors)
                    lic.remove(ctx.where)
                    s = replace(s, lictors=tuple(lic))
            else:
                loser = s.players[ctx.tseat]
                s = self._put(s, ctx.tseat, replace(loser, shackles=loser.shackles | 1 << ctx.tkind))
        else:
            p = s.players[seat]
            s = self._put(s, seat, replace(p, shackles=p.shackles | 1 << ctx.mini))
            if ctx.tkind != LICTOR:  # the defender gains the reward of the slot
                q = ctx.tseat
                if ctx.obj == STAGE2_OBJ:
                    reward = self.c.stage2[p.cards[OFF]].reward
                    s = replace(s, rewards=(*s.rewards, (q, R_COINS, 2), (q, R_SKILL, reward)))
                else:
                    s = replace(s, rewards=(*s.rewards, self._side_reward_for(s, q, ctx.obj)))
        return self._advance(s)
