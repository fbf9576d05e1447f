"""Quests: Stage I rolls and the lictor pursuit, Stage II templates, Stage III, storylines.

rule: tiberpunk/stage-1-quests; rule: tiberpunk/stage-2-quests; rule: tiberpunk/stage-3-quests;
rule: tiberpunk/storyline-objectives

One of the rule modules :class:`games.tiberpunk.rules.Rules` is composed of; the precomputed tables
it reads are :class:`games.tiberpunk.tables.Tables`.
"""

from __future__ import annotations

from games.core.records import replace, replace_at
from games.errors import InvalidStateError
from games.tiberpunk import actions as act
from games.tiberpunk.combat import CombatRules
from games.tiberpunk.dice import contains, decode_pool
from games.tiberpunk.parts import (
    R_COINS,
    R_SKILL,
    TPL_BLESS,
    TPL_DELIVER,
    TPL_GADGETS,
    TPL_INFILTRATE,
    TPL_RELAY,
    TPL_SHADOW,
    TPL_SHIP,
    bits,
    combo_codes,
)
from games.tiberpunk.state import (
    PH_PURSUE,
    PH_QGADGET,
    PH_ROLL,
    QUEST,
    Ctx,
    Player,
    State,
)

__all__ = ["QuestRules"]


class QuestRules(CombatRules):
    """Quests: Stage I rolls and the lictor pursuit, Stage II templates, Stage III."""

    def _stage2_options(
        self, s: State, p: Player, m: int, d: int, *, lictor_here: bool, skill: int, it: int
    ) -> list[int]:
        """rule: stage-2-quests (hacking: drones; guile: gadgets, spaceship cards, blessings)."""
        card = self.c.stage2[p.cards[skill]]
        tpl = card.template
        base = act.interact(0, it, act.SUB_Q2, skill)
        if tpl == TPL_INFILTRATE:  # the card explicitly needs a lictor in the drone's district
            return [base] if lictor_here else []
        if lictor_here or (card.district >= 0 and card.district != d):
            return []
        if tpl == TPL_DELIVER:
            return [base]
        if tpl == TPL_RELAY:
            return [base] if p.char >= 0 and self.board.dist[p.char][p.drone] >= card.count else []
        if tpl == TPL_SHADOW:
            seat = s.seat
            near = any(q != seat and d in (o.char, o.drone) for q, o in enumerate(s.players))
            return [base] if near else []
        if tpl == TPL_GADGETS:
            return [base | code << 30 for code in combo_codes(p.hand, card.count)]  # (p5: the gadgets)
        if tpl == TPL_SHIP:
            return [act.interact(0, it, act.SUB_Q2, skill, k) for k in range(3) if p.ships[k] >= 1]
        if tpl == TPL_BLESS:
            return [base] if bits(p.blessings) >= card.count else []
        return []

    def _story_done(self, s: State, seat: int, skill: int, stage: int, reward: int) -> State:
        """A storyline stage is done: token in its slot, 2 coins and a skill (rule: storyline-objectives)."""
        p = s.players[seat]
        s = self._put(s, seat, replace(p, story=replace_at(p.story, skill, stage if stage < 3 else 3)))
        s = self._score(s, seat, skill, 1)
        return replace(s, rewards=(*s.rewards, (seat, R_COINS, 2), (seat, R_SKILL, reward)))

    # -- quests (rule: stage-1-quests, stage-3-quests)
    def _start_quest(self, s: State, stage: int, skill: int, mini: int) -> State:
        if stage == 1:
            deck, disc = s.c1deck, s.c1disc
        else:
            deck, disc = s.c3deck, s.c3disc
        shuffles = s.shuffles
        if not deck:
            deck, shuffles = self._reshuffle(s, disc, f"challenges{stage}")
            disc = ()
        card = deck[0]
        if card < 0:
            raise InvalidStateError(
                f"the next stage {stage} challenge card is face down in this position (an observation); "
                "sample a full state (sample_state) to play it",
                field=f"c{stage}deck",
                rule="tiberpunk/stage-1-quests",
            )
        deck = deck[1:]
        if stage == 1:
            s = replace(s, c1deck=deck, c1disc=disc, shuffles=shuffles)
        else:
            s = replace(s, c3deck=deck, c3disc=disc, shuffles=shuffles)
        k = self.dice_count(s, s.seat, mini, skill)
        where = self.pos(s.players[s.seat], mini)
        ctx = Ctx(
            kind=QUEST,
            stage=stage,
            skill=skill,
            mini=mini,
            card=card,
            a=(),
            d=(),
            ra=k,
            rd=0,
            ua=0,
            ud=0,
            tkind=0,
            tseat=0,
            tile=0,
            obj=0,
            where=where,
            who=s.seat,
        )
        return self._roll_or_check(replace(s, ctx=ctx))

    def _roll_or_check(self, s: State) -> State:
        ctx = s.ctx
        assert ctx is not None
        if ctx.ra or ctx.rd:
            return replace(s, phase=PH_ROLL)
        if ctx.kind == QUEST:
            return self._quest_check(s)
        return self._combat_check(s)

    def _do_dice(self, s: State, a: int) -> State:
        """The rolled dice join the pending side's pool (rule: stage-1-quests, combat-tiles)."""
        ctx = s.ctx
        assert ctx is not None
        code = a >> 5
        pool = self._pools.get(code)
        if pool is None:
            pool = self._pools[code] = decode_pool(code)
        if ctx.ra:
            ctx = replace(ctx, a=tuple(sorted(ctx.a + pool)) if ctx.a else pool, ra=0)
        else:
            ctx = replace(ctx, d=tuple(sorted(ctx.d + pool)) if ctx.d else pool, rd=0)
        return self._roll_or_check(replace(s, ctx=ctx))

    def challenge(self, ctx: Ctx) -> tuple[int, ...]:
        """The required values of the revealed challenge card."""
        return self.need1[ctx.card] if ctx.stage == 1 else self.need3[ctx.card]

    def _quest_check(self, s: State) -> State:
        ctx = s.ctx
        assert ctx is not None
        if contains(ctx.a, self.challenge(ctx)):
            return self._quest_success(s)
        if s.players[s.seat].hand and ctx.ua < self.gadget_limit(s, s.seat):
            return replace(s, phase=PH_QGADGET)
        return self._quest_fail_roll(s)

    def _end_quest(self, s: State) -> State:
        ctx = s.ctx
        assert ctx is not None
        if ctx.stage == 1:
            return replace(s, ctx=None, c1disc=(*s.c1disc, ctx.card))
        return replace(s, ctx=None, c3disc=(*s.c3disc, ctx.card))

    def _quest_success(self, s: State) -> State:
        ctx = s.ctx
        assert ctx is not None
        seat, skill = s.seat, ctx.skill
        p = s.players[seat]
        if ctx.stage == 1:  # keep the card, move the marker, take Stage II
            card = s.quests[skill][0]
            if len(s.quests[skill]) > 1 and s.quests[skill][1] < 0:
                raise InvalidStateError(
                    "the next Stage I card of the stack is face down in this position (an observation); "
                    "sample a full state (sample_state) to play it",
                    field=f"quests[{skill}]",
                    rule="tiberpunk/stage-1-quests",
                )
            s = self._put(s, seat, replace(p, cards=replace_at(p.cards, skill, card)))
            s = replace(s, quests=replace_at(s.quests, skill, s.quests[skill][1:]))
            s = self._story_done(s, seat, skill, 1, self.c.stage1[card].reward)
        else:
            s = self._story_done(s, seat, skill, 3, self.c.stage3[p.cards[skill]].reward)
        return self._advance(self._end_quest(s))

    def _quest_fail_roll(self, s: State) -> State:
        """A failed roll: the left-hand player moves the nearest lictor one district closer."""
        ctx = s.ctx
        assert ctx is not None
        steps = self.board.pursuit_steps(ctx.where, s.lictors)
        if not steps:
            return self._quest_failed(s)
        if len(steps) == 1:
            return self._pursue(s, *steps[0])
        return replace(s, phase=PH_PURSUE)

    def _pursue(self, s: State, src: int, dst: int) -> State:
        ctx = s.ctx
        assert ctx is not None
        lic = list(s.lictors)
        lic.remove(src)
        lic.append(dst)
        s = replace(s, lictors=tuple(sorted(lic)))
        if dst == ctx.where:
            return self._quest_failed(s)
        k = self.dice_count(s, s.seat, ctx.mini, ctx.skill)
        return self._roll_or_check(replace(s, ctx=replace(ctx, a=(), ua=0, ra=k)))

    def _quest_failed(self, s: State) -> State:
        """The lictor arrived: the attempt fails with shackles (rule: shackles)."""
        ctx = s.ctx
        assert ctx is not None
        p = s.players[s.seat]
        s = self._put(s, s.seat, replace(p, shackles=p.shackles | 1 << ctx.mini))
        return self._advance(self._end_quest(s))
