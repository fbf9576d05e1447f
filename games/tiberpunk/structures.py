"""Structure interactions: temples, upgrade hubs and side objective sites.

rule: tiberpunk/structure-interaction

One of the rule modules :class:`games.tiberpunk.rules.Rules` is composed of; the precomputed tables
it reads are :class:`games.tiberpunk.tables.Tables`.
"""

from __future__ import annotations

from games.core.records import replace, replace_at
from games.tiberpunk import actions as act
from games.tiberpunk.parts import (
    AB_MIRROR,
    JUNO,
    T_MASTERY,
    T_MERCHANTS,
    T_PRIESTS,
    T_SENATOR,
    combo_codes,
    counts_to_list,
)
from games.tiberpunk.spaceships import SpaceshipRules
from games.tiberpunk.state import CHAR, DRONE, Player, State

__all__ = ["StructureRules"]


class StructureRules(SpaceshipRules):
    """Structure interactions: temples, upgrade hubs and side objective sites."""

    def _structure_options(self, s: State) -> list[int]:
        """rule: structure-interaction, side-objectives."""
        p = s.players[s.seat]
        char, drone = p.char, p.drone
        if p.ability >= 0:  # the Mirror code ability lets either miniature use any structure
            if not self._structure_at[char] | self._structure_at[drone]:
                return []
        else:
            lictors = s.lictors
            temple = self._temple_gods_at[char] & ~(p.temples | p.blessings) and char not in lictors
            hub = self._hub_at[drone] and drone not in lictors
            if temple or hub:
                return self._structure_options_all(s)
            # no temple of a god not yet held for the character, no hub for the drone: only sites
            sites_at = self._sites_at.get(s.cfg.side)
            if sites_at is None:
                in_play = {d for _slot, _ti, _kind, d in self._sites_of(s.cfg.side)}
                sites_at = self._sites_at[s.cfg.side] = (*(d in in_play for d in range(self.nd)), False)
            if not sites_at[char] and not sites_at[drone]:
                return []  # nothing here
        return self._structure_options_all(s)

    def _structure_options_all(self, s: State) -> list[int]:
        """``_structure_options`` without the quick "nothing here" check (the reference for tests)."""
        p = s.players[s.seat]
        mirror = p.ability >= 0 and self.c.abilities[p.ability].kind == AB_MIRROR
        left = self.c.influence_markers - p.temples.bit_count() - p.hubs.bit_count()  # markers_placed
        out = self._temple_options(s, p, mirror, left)
        out += self._hub_options(s, p, mirror, left)
        out += self._site_options(s, p)
        return out

    def _temple_options(self, s: State, p: Player, mirror: bool, left: int) -> list[int]:
        """Temples: the character there (Mirror code: the drone too; rule: structure-interaction)."""
        if left <= 0:
            return []
        c = self.c
        lictors = s.lictors
        out: list[int] = []
        held = p.temples | p.blessings
        for m in (CHAR, DRONE) if mirror else (CHAR,):
            d = p.char if m == CHAR else p.drone
            if d in lictors:
                continue
            for g in self.temples_at[d]:
                if (held >> g) & 1 or s.bless[g] <= 0:
                    continue
                cost = c.temple_cost if p.favor != JUNO else self.juno_cost(s, p, [c.temple_cost])[0]
                if p.coins >= cost:
                    out.append(self._temple_act[g][m])
        if mirror:
            out.sort()
        return out

    def _hub_options(self, s: State, p: Player, mirror: bool, left: int) -> list[int]:
        """Upgrade hubs: the drone there (Mirror code: the character too; rule: structure-interaction)."""
        gadget_ok = bool(s.gdeck or s.gdisc)
        lictors = s.lictors
        out: list[int] = []
        for m in (DRONE, CHAR) if mirror else (DRONE,):
            d = p.char if m == CHAR else p.drone
            h = self.hub_of[d] if d >= 0 else -1
            if h < 0 or d in lictors:
                continue
            first = not (p.hubs >> h) & 1 and left > 0
            juno = 0 if p.favor != JUNO else 2 if (p.blessings >> JUNO) & 1 else 0 if s.turn.juno else 1
            key = (h, m, p.skills, min(p.coins, self._hub_coin_cap), juno, first, gadget_ok)
            got = self._hub_cache.get(key)
            if got is None:
                got = self._hub_visits(s, p, h, m, first=first, gadget_ok=gadget_ok)
                self._hub_cache[key] = got
            out += got
        return out

    def _site_options(self, s: State, p: Player) -> list[int]:
        """Side objective sites: either miniature there, no lictor, the price paid (rule: side-objectives)."""
        out: list[int] = []
        sites = self._site_cache.get(s.cfg.side)
        if sites is None:
            sites = self._sites_of(s.cfg.side)
        lictors = s.lictors
        for slot, ti, kind, d in sites:
            if (p.side[slot] >> ti) & 1 or d not in (p.char, p.drone) or d in lictors:
                continue
            base = act.interact(0, act.IT_STRUCTURE, act.SUB_SITE, slot, ti)
            if kind == T_PRIESTS:
                if p.coins >= self.juno_cost(s, p, [3])[0]:
                    out += [base | k << 21 for k in range(3) if p.ships[k]]  # (p3: the spaceship stack)
            elif kind == T_SENATOR:
                if p.coins >= self.juno_cost(s, p, [7])[0]:
                    out.append(base)
            elif kind == T_MASTERY:
                if any(p.skills[k] >= self.max_slot[k] for k in range(3)):
                    out.append(base)
            else:
                out += [base | code << 30 for code in combo_codes(p.hand, 3)]  # (p5: the gadgets)
        return out

    def _sites_of(self, side: tuple[int, ...]) -> tuple[tuple[int, int, int, int], ...]:
        """(slot, task, kind, district) of the site tasks on the side cards in play (cached)."""
        got = self._site_cache.get(side)
        if got is None:
            got = tuple(
                (slot, ti, task.kind, self.c.sites[task.kind - T_PRIESTS])
                for slot, card_i in enumerate(side)
                for ti, task in enumerate(self.c.side_cards[card_i].tasks)
                if task.kind >= T_PRIESTS
            )
            self._site_cache[side] = got
        return got

    def _hub_visits(
        self, s: State, p: Player, h: int, m: int, *, first: bool, gadget_ok: bool
    ) -> tuple[int, ...]:
        """Every affordable hub visit: up to 3 different skills (+1 each) and at most one gadget."""
        c = self.c
        out = []
        ups = [k for k in range(3) if p.skills[k] < self.max_slot[k]]
        for mask in range(8):
            if any((mask >> k) & 1 and k not in ups for k in range(3)):
                continue
            for gad in (0, 1) if gadget_ok else (0,):
                if not mask and not gad and not first:
                    continue
                costs = [c.costs[k][p.skills[k] + 1] for k in range(3) if (mask >> k) & 1]
                if gad:
                    costs.append(c.gadget_cost)
                cost, _ = self.juno_cost(s, p, costs)
                if cost <= p.coins:
                    out.append(act.interact(0, act.IT_STRUCTURE, act.SUB_HUB, h, m, mask, gad))
        return tuple(out)

    def _do_structure(self, s: State, a: int) -> State:
        """A temple, an upgrade hub or a side objective site, per the interaction ``a`` (rule:
        structure-interaction, side-objectives)."""
        _via, _it, sub, p1, p2, p3, p4, p5 = act.interact_fields(a)
        c = self.c
        seat = s.seat
        if sub == act.SUB_TEMPLE:
            s = self._pay(s, seat, [c.temple_cost])
            p = s.players[seat]
            p = replace(p, blessings=p.blessings | 1 << p1, temples=p.temples | 1 << p1)
            s = replace(self._put(s, seat, p), bless=replace_at(s.bless, p1, s.bless[p1] - 1))
            return self._influence_tasks(s, seat)
        if sub == act.SUB_HUB:
            p = s.players[seat]
            costs = [c.costs[k][p.skills[k] + 1] for k in range(3) if (p3 >> k) & 1]
            if p4:
                costs.append(c.gadget_cost)
            s = self._pay(s, seat, costs)
            p = s.players[seat]
            skills = tuple(v + ((p3 >> k) & 1) for k, v in enumerate(p.skills))
            s = self._put(s, seat, replace(p, skills=skills))
            if p4:
                s = self._draw_gadget(s, seat)
            p = s.players[seat]
            if not (p.hubs >> p1) & 1 and self.markers_placed(p) < c.influence_markers:
                s = self._put(s, seat, replace(p, hubs=p.hubs | 1 << p1))
                s = self._influence_tasks(s, seat)
            return s
        # a side objective site
        task = c.side_cards[s.cfg.side[p1]].tasks[p2]
        if task.kind == T_PRIESTS:
            s = self._pay(s, seat, [3])
            s = self._return_ship(s, seat, p3)
        elif task.kind == T_SENATOR:
            s = self._pay(s, seat, [7])
        elif task.kind == T_MERCHANTS:
            for g in counts_to_list(p5):
                s = self._discard_gadget(s, seat, g)
        return self._complete_side(s, seat, p1, p2)
