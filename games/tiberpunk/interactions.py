"""Interactions: the interaction wheel, collect income, the character's and the drone's options (quests
and combats); the structure and spaceship interactions are in ``structures.py`` and ``spaceships.py``.

rule: tiberpunk/interaction-wheel; rule: tiberpunk/collect-income;
rule: tiberpunk/character-drone-interactions

One of the rule modules :class:`games.tiberpunk.rules.Rules` is composed of; the precomputed tables
it reads are :class:`games.tiberpunk.tables.Tables`.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.core.records import replace, replace_at
from games.tiberpunk import actions as act
from games.tiberpunk.parts import (
    OFF,
    TPL_GADGETS,
    TPL_SHIP,
    counts_to_list,
)
from games.tiberpunk.state import CHAR, DRONE, PH_MAIN, State, bank_left
from games.tiberpunk.structures import StructureRules

__all__ = ["InteractionRules"]


class InteractionRules(StructureRules):
    """Interactions: spaceship, structure (temples, upgrade hubs, sites), collect income, character and
    drone options, spaceship cards."""

    def _mini_options(self, s: State, m: int) -> list[int]:
        """Quests and combats of the character or drone interaction (rule: character-drone-interactions)."""
        seat = s.seat
        players = s.players
        p = players[seat]
        d = p.char if m == CHAR else p.drone
        if d < 0:
            return []
        lictor_here = d in s.lictors
        out: list[int] = []
        story = p.story
        for skill in self._skills_for[m]:
            st = story[skill]
            if st == 0 and not lictor_here:
                stack = s.quests[skill]
                if stack and self._stage1_district[stack[0]] == d:
                    out.append(self._q1_act[m][skill])  # rule: stage-1-quests
            elif st == 1 and skill != OFF:
                out += self._stage2_options(
                    s, p, m, d, lictor_here=lictor_here, skill=skill, it=self._it_of_mini[m]
                )
            elif st == 2 and not lictor_here and self._stage3_district[p.cards[skill]] == d:
                out.append(self._q3_act[m][skill])  # rule: stage-3-quests
        # combats (rule: combat): targets in the district, an available combat objective declared
        if lictor_here:  # the lictor only (rule: combat-vs-lictor)
            out += self._lictor_combat_options(s, p, m, d)
            return out
        objs: list[Sequence[int] | None] | None = None  # per target kind, computed once
        q = -1
        for other in players:
            q += 1
            oc = other.char
            od = other.drone
            if d not in (oc, od) or q == seat:
                continue
            if objs is None:
                objs = [None, None]
            fight = self._fight_base[m]
            for tk, where in ((CHAR, oc), (DRONE, od)):
                if where == d:
                    got = objs[tk]
                    if got is None:
                        got = objs[tk] = self._combat_objectives(s, p, tk, d)
                    base = fight | tk << 13 | q << 17  # act.interact(0, it, SUB_FIGHT, tk, q, tile, obj)
                    for obj in got:
                        out.append(base | obj << 25)
                        out.append(base | 1 << 21 | obj << 25)
        return out

    @staticmethod
    def _wheel_after(wheel: tuple[int, ...], via: int) -> tuple[int, ...]:
        """The wheel after token ``via`` is played (rule: interaction-wheel: the third token returns the
        earliest)."""
        wheel = (*wheel, via)
        return wheel[1:] if len(wheel) == 3 else wheel

    def _fast_income(self, s: State, via: int) -> State:
        """``_do_interact`` for Collect Income with a token (rule: collect-income, interaction-wheel),
        when no reward or lictor placement is pending: one new state, same result."""
        seat = s.seat
        p = s.players[seat]
        amount = self.c.income[(p.temples.bit_count() + p.hubs.bit_count())]
        bank = bank_left(s)
        p = replace(
            p, coins=p.coins + (amount if amount < bank else bank), wheel=self._wheel_after(p.wheel, via)
        )
        return replace(
            s, phase=PH_MAIN, turn=replace(s.turn, token=True), players=replace_at(s.players, seat, p)
        )

    # -- interactions
    def _do_interact(self, s: State, a: int) -> State:
        via, it, sub, p1, p2, p3, p4, p5 = act.interact_fields(a)
        seat = s.seat
        p = s.players[seat]
        if via < act.VIA_SHIP:  # rule: interaction-wheel (the third token returns the earliest)
            p = replace(p, wheel=self._wheel_after(p.wheel, via))
            s = replace(s, players=replace_at(s.players, seat, p), turn=replace(s.turn, token=True))
        else:
            s = self._play_ship(s, via - act.VIA_SHIP)
        p = s.players[seat]
        c = self.c
        if it == act.IT_INCOME:  # rule: collect-income
            s = self._gain(s, seat, c.income[self.markers_placed(p)])
        elif it == act.IT_SPACESHIP:  # rule: spaceship-interaction
            s = self._draw_gadget(s, seat)
            p = s.players[seat]
            s = self._put(s, seat, replace(p, ships=replace_at(p.ships, p1, p.ships[p1] + 1)))
            t = s.turn
            s = replace(
                s,
                ships=replace_at(s.ships, p1, s.ships[p1] - 1),
                lock=p1,
                turn=replace(t, gained=replace_at(t.gained, p1, t.gained[p1] + 1)),
            )
        elif it == act.IT_STRUCTURE:
            s = self._do_structure(s, a)
        else:
            mini = CHAR if it == act.IT_CHARACTER else DRONE
            if sub == act.SUB_Q1:
                return self._start_quest(s, 1, p1, mini)
            if sub == act.SUB_Q3:
                return self._start_quest(s, 3, p1, mini)
            if sub == act.SUB_Q2:
                card = c.stage2[p.cards[p1]]
                if card.template == TPL_GADGETS:
                    for g in counts_to_list(p5):
                        s = self._discard_gadget(s, seat, g)
                elif card.template == TPL_SHIP:
                    s = self._return_ship(s, seat, p2)
                s = self._story_done(s, seat, p1, 2, card.reward)
            else:
                return self._start_fight(s, mini, tk=p1, tseat=p2, tile=p3, obj=p4)
        return self._advance(s)
