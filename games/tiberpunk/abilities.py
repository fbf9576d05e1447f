"""Personal abilities: the ability draft and the ability tiles' actions (rule: tiberpunk/personal-abilities).

One of the rule modules :class:`games.tiberpunk.rules.Rules` is composed of; the precomputed tables
it reads are :class:`games.tiberpunk.tables.Tables`.
"""

from __future__ import annotations

from games.core.records import replace, replace_at
from games.tiberpunk import actions as act
from games.tiberpunk.parts import (
    AB_REBOOTER,
    AB_RECHARGE,
    AB_TOKEN,
    hand_add,
)
from games.tiberpunk.state import PH_PLACE, Player, State
from games.tiberpunk.turn import TurnRules

__all__ = ["AbilityRules"]


class AbilityRules(TurnRules):
    """The Personal Abilities module: the draft, Rebooter, Recharge (Street Support, Token and Mirror
    code are read where their rules apply)."""

    def _draft(self, s: State, a: int) -> State:
        """rule: personal-abilities (chosen from the last player counter-clockwise)."""
        ab = self.c.abilities[a]
        p = s.players[s.seat]
        tokens = p.tokens
        if ab.kind == AB_TOKEN:
            tokens = replace_at(tokens, ab.replace, ab.mask)
        s = self._put(s, s.seat, replace(p, ability=a, tokens=tokens))
        draft = tuple(x for x in s.draft if x != a)
        if s.seat > 0:
            return replace(s, draft=draft, seat=s.seat - 1)
        return replace(s, draft=draft, phase=PH_PLACE, seat=0)

    def _ability_actions(self, acts: list[int], s: State, p: Player) -> None:
        """Append the Rebooter (before a token is used this turn) or Recharge option of the player's
        ability tile (rule: personal-abilities)."""
        t = s.turn
        ab = self.c.abilities[p.ability]
        if ab.kind == AB_REBOOTER and not t.token:
            if p.wheel and p.reboots < len(ab.costs) and p.coins >= ab.costs[p.reboots]:
                acts.append(act.REBOOT)
        elif ab.kind == AB_RECHARGE and not t.recharged:
            for g in sorted(set(t.used)):
                if g in s.gdisc:
                    acts.append(act.simple(act.OP_RECHARGE, g))

    def _reboot(self, s: State, a: int) -> State:
        """Rebooter: pay the next cost, take back the interaction tokens (rule: personal-abilities)."""
        p = s.players[s.seat]
        cost = self.c.abilities[p.ability].costs[p.reboots]
        return self._put(s, s.seat, replace(p, coins=p.coins - cost, wheel=(), reboots=p.reboots + 1))

    def _recharge(self, s: State, a: int) -> State:
        """Recharge: a gadget used this turn back to the hand, face up (rule: personal-abilities)."""
        g = act.value(a)
        disc = list(s.gdisc)
        disc.reverse()
        disc.remove(g)  # the most recent copy
        disc.reverse()
        used = list(s.turn.used)
        used.remove(g)
        p = hand_add(s.players[s.seat], g, public=True)
        turn = replace(s.turn, used=tuple(used), recharged=True)
        return replace(s, players=replace_at(s.players, s.seat, p), gdisc=tuple(disc), turn=turn)
