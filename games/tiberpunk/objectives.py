"""Objectives and their rewards: triumph tokens, the speed bonus, side tasks and the end trigger.

rule: tiberpunk/side-objectives; rule: tiberpunk/objective-rewards

One of the rule modules :class:`games.tiberpunk.rules.Rules` is composed of; the precomputed tables
it reads are :class:`games.tiberpunk.tables.Tables`.
"""

from __future__ import annotations

from games.core.records import replace, replace_at
from games.tiberpunk.parts import (
    R_BOOST,
    R_COINS,
    R_ESCAPE,
    R_GADGET,
    R_SHIP,
    R_SKILL,
    T_DEVOTION,
    T_NETWORK,
    T_SUPPLY,
    bits,
)
from games.tiberpunk.state import (
    CHAR,
    DRONE,
    State,
)
from games.tiberpunk.tables import Tables

__all__ = ["ObjectiveRules"]


class ObjectiveRules(Tables):
    """Objectives and their rewards: triumph tokens, the speed bonus, side tasks and the end trigger."""

    def _reward_options(self, s: State, seat: int, kind: int, param: int) -> list[int]:
        p = s.players[seat]
        if kind == R_SKILL:
            return [k for k in range(3) if (param >> k) & 1 and p.skills[k] < self.max_slot[k]]
        if kind == R_BOOST:
            return [m for m in (CHAR, DRONE) if not (p.boosts >> m) & 1]
        if kind == R_SHIP:
            return [k for k in range(3) if s.ships[k] > 0]
        if kind == R_ESCAPE:
            return list(self.board.neighbors[param])
        return [0]  # coins, gadget: automatic

    def _choose_reward(self, s: State, a: int) -> State:
        """The recipient's choice of a skill, boost slot, spaceship stack (rule: objective-rewards) or the
        last lictor's escape (rule: combat-vs-lictor)."""
        seat, kind, param = s.rewards[0]
        s = replace(s, rewards=s.rewards[1:])
        return self._advance(self._apply_reward(s, seat, kind, param, a >> 5))

    def _apply_reward(self, s: State, seat: int, kind: int, param: int, choice: int) -> State:
        """rule: objective-rewards."""
        p = s.players[seat]
        if kind == R_SKILL:
            return self._put(s, seat, replace(p, skills=replace_at(p.skills, choice, p.skills[choice] + 1)))
        if kind == R_COINS:
            return self._gain(s, seat, param)
        if kind == R_GADGET:
            return self._draw_gadget(s, seat)
        if kind == R_BOOST:
            return self._put(s, seat, replace(p, boosts=p.boosts | 1 << choice))
        if kind == R_SHIP:
            s = self._put(s, seat, replace(p, ships=replace_at(p.ships, choice, p.ships[choice] + 1)))
            s = replace(s, ships=replace_at(s.ships, choice, s.ships[choice] - 1))
            if seat == s.seat:
                gained = s.turn.gained
                s = replace(s, turn=replace(s.turn, gained=replace_at(gained, choice, gained[choice] + 1)))
            return s
        # escape: the last lictor moves to an adjacent district instead (rule: combat-vs-lictor)
        lic = list(s.lictors)
        lic.remove(param)
        lic.append(choice)
        return replace(s, lictors=tuple(sorted(lic)))

    def _score(self, s: State, seat: int, obj: int, count: int) -> State:
        """Place triumph tokens on an objective card, with the speed bonus (rule: game-overview)."""
        p = s.players[seat]
        before = p.otoks[obj]
        after = before + count
        speed = s.speed
        if before < 3 <= after and not (speed >> obj) & 1:
            after += 1
            speed |= 1 << obj
        otoks = replace_at(p.otoks, obj, after)
        s = self._put(s, seat, replace(p, otoks=otoks))
        end = s.end or sum(otoks) >= self.c.end_tokens
        return replace(s, speed=speed, end=end)

    def _complete_side(self, s: State, seat: int, slot: int, ti: int) -> State:
        """A side task is done: a token on its card and the slot's reward (rule: side-objectives)."""
        p = s.players[seat]
        s = self._put(s, seat, replace(p, side=replace_at(p.side, slot, p.side[slot] | 1 << ti)))
        s = self._score(s, seat, 3 + slot, 1)
        task = self.c.side_cards[s.cfg.side[slot]].tasks[ti]
        param = task.skills if task.reward == R_SKILL else 2
        return replace(s, rewards=(*s.rewards, (seat, task.reward, param)))

    def _side_reward_for(self, s: State, seat: int, obj: int) -> tuple[int, int, int]:
        slot, ti = divmod(obj, 3)
        task = self.c.side_cards[s.cfg.side[slot]].tasks[ti]
        return (seat, task.reward, task.skills if task.reward == R_SKILL else 2)

    def _influence_tasks(self, s: State, seat: int) -> State:
        """Network (4 in structures), supply line (3 in hubs), devotion (3 in temples)."""
        for slot, card_i in enumerate(s.cfg.side):
            for ti, task in enumerate(self.c.side_cards[card_i].tasks):
                p = s.players[seat]
                if (p.side[slot] >> ti) & 1:
                    continue
                if (
                    (task.kind == T_NETWORK and self.markers_placed(p) >= 4)
                    or (task.kind == T_SUPPLY and bits(p.hubs) >= 3)
                    or (task.kind == T_DEVOTION and bits(p.temples) >= 3)
                ):
                    s = self._complete_side(s, seat, slot, ti)
        return s
