"""Interactions: spaceship, structure (temples, upgrade hubs, sites), collect income, character and drone
options, spaceship cards (rule: spaceship-interaction, structure-interaction, collect-income, character-
drone-interactions, spaceship-cards).

One of the rule modules :class:`games.tiberpunk.rules.Rules` is composed of; the precomputed tables
it reads are :class:`games.tiberpunk.tables.Tables`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.tiberpunk import actions as act
from games.tiberpunk.parts import (
    _I_BLESS,
    _I_GDECK,
    _I_GDISC,
    _I_LICTORS,
    _I_LOCK,
    _I_PHASE,
    _I_PLAYERS,
    _I_SHIPS,
    _I_SHUFFLES,
    _I_TURN,
    _P_CHAR,
    _P_DRONE,
    _P_HAND,
    _P_HUBS,
    _P_SHIPS,
    _P_SKILLS,
    _P_WHEEL,
    _T_GAINED,
    _T_LICTOR_DUE,
    _T_SHIP,
    _T_TOKEN,
    AB_MIRROR,
    JUNO,
    OFF,
    STELLAR,
    T_MASTERY,
    T_MERCHANTS,
    T_PRIESTS,
    T_SENATOR,
    TPL_GADGETS,
    TPL_SHIP,
    _combo_codes,
    _counts_to_list,
    _new,
    _set,
    _with,
)
from games.tiberpunk.state import (
    CHAR,
    DRONE,
    PH_MAIN,
    Player,
    State,
    Turn,
    bank_left,
)
from games.tiberpunk.tables import Tables

__all__ = ["InteractionRules"]


class InteractionRules(Tables):
    """Interactions: spaceship, structure (temples, upgrade hubs, sites), collect income, character and
    drone options, spaceship cards."""

    def _spaceship_options(self, s: State) -> Sequence[int]:
        """rule: spaceship-interaction (Stellar Ark basic: a locked stack too)."""
        ark = s.players[s.seat].favor == STELLAR
        ships = s.ships
        key = ((ships[0] > 0) | (ships[1] > 0) << 1 | (ships[2] > 0) << 2, s.lock, ark)
        got = self._ship_cache.get(key)
        if got is None:
            got = self._ship_cache[key] = self._spaceship_options_all(s)
        return got

    def _spaceship_options_all(self, s: State) -> tuple[int, ...]:
        """``_spaceship_options`` without the cache (the reference for tests)."""
        ark = s.players[s.seat].favor == STELLAR
        return tuple(
            act.interact(0, act.IT_SPACESHIP, 0, k)
            for k in range(3)
            if s.ships[k] > 0 and (k != s.lock or ark)
        )

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
                got = self._hub_visits(s, p, h, m, first, gadget_ok)
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
                out += [base | code << 30 for code in _combo_codes(p.hand, 3)]  # (p5: the gadgets)
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

    def _hub_visits(  # noqa: PLR0917
        self, s: State, p: Player, h: int, m: int, first: bool, gadget_ok: bool
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

    def _mini_options(self, s: State, m: int) -> list[int]:
        """Quests and combats of the character or drone interaction (rule: character-drone-interactions)."""
        seat = s.seat
        players = s.players
        p = players[seat]
        d = p[_P_CHAR] if m == CHAR else p[_P_DRONE]  # (indexing: a little faster than attributes)
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
                out += self._stage2_options(s, p, m, d, lictor_here, skill, self._it_of_mini[m])
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
            oc = other[_P_CHAR]
            od = other[_P_DRONE]
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

    def _play_ship(self, s: State, k: int) -> State:
        """Discard a spaceship card to its stack; a lictor placement is owed (rule: spaceship-cards)."""
        seat = s.seat
        pv: list[Any] = list(s.players[seat])
        pv[_P_SHIPS] = _set(pv[_P_SHIPS], k, pv[_P_SHIPS][k] - 1)
        ps = list(s.players)
        ps[seat] = _new(Player, pv)
        tv: list[Any] = list(s.turn)
        tv[_T_SHIP] = True
        tv[_T_LICTOR_DUE] = True
        sv: list[Any] = list(s)
        sv[_I_PLAYERS] = tuple(ps)
        sv[_I_SHIPS] = _set(s.ships, k, s.ships[k] + 1)
        sv[_I_TURN] = _new(Turn, tv)
        return _new(State, sv)

    def _fast_income(self, s: State, via: int) -> State:
        """``_do_interact`` for Collect Income with a token (rule: collect-income, interaction-wheel),
        when no reward or lictor placement is pending: one new state, same result."""
        seat = s.seat
        players = s.players
        p = players[seat]
        pv: list[Any] = list(p)
        wheel = (*p.wheel, via)
        pv[_P_WHEEL] = wheel[1:] if len(wheel) == 3 else wheel
        amount = self.c.income[(p.temples.bit_count() + p.hubs.bit_count())]
        bank = bank_left(s)
        pv[0] += amount if amount < bank else bank
        tv: list[Any] = list(s.turn)
        tv[0] = True  # token
        sv: list[Any] = list(s)
        sv[_I_PHASE] = PH_MAIN
        sv[_I_TURN] = _new(Turn, tv)
        ps = list(players)
        ps[seat] = _new(Player, pv)
        sv[_I_PLAYERS] = tuple(ps)
        return _new(State, sv)

    def _fast_spaceship(self, s: State, via: int, k: int) -> State:
        """``_do_interact`` for a spaceship interaction with a token (rule: spaceship-interaction),
        when no reward or lictor placement is pending: fewer intermediate states, same result."""
        seat = s.seat
        ps = s.players
        pv: list[Any] = list(ps[seat])
        wheel = (*pv[_P_WHEEL], via)
        if len(wheel) == 3:
            wheel = wheel[1:]
        pv[_P_WHEEL] = wheel
        sv: list[Any] = list(s)
        deck = s.gdeck
        if not deck and s.gdisc:
            deck, sv[_I_SHUFFLES] = self._reshuffle(s, s.gdisc, "gadgets")
            sv[_I_GDISC] = ()
        if deck:
            pv[_P_HAND] = tuple(sorted((*pv[_P_HAND], deck[0])))
            sv[_I_GDECK] = deck[1:]
        ships = pv[_P_SHIPS]
        pv[_P_SHIPS] = _set(ships, k, ships[k] + 1)
        tv: list[Any] = list(s.turn)
        tv[0] = True
        tv[_T_GAINED] = _set(tv[_T_GAINED], k, tv[_T_GAINED][k] + 1)
        sv[_I_TURN] = _new(Turn, tv)
        sv[_I_PLAYERS] = (*ps[:seat], _new(Player, pv), *ps[seat + 1 :])
        sv[_I_SHIPS] = _set(s.ships, k, s.ships[k] - 1)
        sv[_I_LOCK] = k
        sv[_I_PHASE] = PH_MAIN
        return _new(State, sv)

    # -- interactions
    def _do_interact(self, s: State, a: int) -> State:
        via, it, sub, p1, p2, p3, p4, p5 = act.interact_fields(a)
        seat = s.seat
        p = s.players[seat]
        if via < act.VIA_SHIP:  # rule: interaction-wheel (the third token returns the earliest)
            wheel = (*p.wheel, via)
            if len(wheel) == 3:
                wheel = wheel[1:]
            ps = list(s.players)
            ps[seat] = _with(p, _P_WHEEL, wheel)
            sv: list[Any] = list(s)
            sv[_I_PLAYERS] = tuple(ps)
            sv[_I_TURN] = _with(s.turn, _T_TOKEN, True)
            s = _new(State, sv)
        else:
            s = self._play_ship(s, via - act.VIA_SHIP)
        p = s.players[seat]
        c = self.c
        if it == act.IT_INCOME:  # rule: collect-income
            s = self._gain(s, seat, c.income[self.markers_placed(p)])
        elif it == act.IT_SPACESHIP:  # rule: spaceship-interaction
            s = self._draw_gadget(s, seat)
            p = s.players[seat]
            s = self._put(s, seat, _with(p, _P_SHIPS, _set(p.ships, p1, p.ships[p1] + 1)))
            t = s.turn
            s = s._replace(
                ships=_set(s.ships, p1, s.ships[p1] - 1),
                lock=p1,
                turn=_with(t, _T_GAINED, _set(t.gained, p1, t.gained[p1] + 1)),
            )
        elif it == act.IT_STRUCTURE:
            s = self._do_structure(s, sub, p1, p2, p3, p4, p5)
        else:
            mini = CHAR if it == act.IT_CHARACTER else DRONE
            if sub == act.SUB_Q1:
                return self._start_quest(s, 1, p1, mini)
            if sub == act.SUB_Q3:
                return self._start_quest(s, 3, p1, mini)
            if sub == act.SUB_Q2:
                card = c.stage2[p.cards[p1]]
                if card.template == TPL_GADGETS:
                    for g in _counts_to_list(p5):
                        s = self._discard_gadget(s, seat, g)
                elif card.template == TPL_SHIP:
                    q = s.players[seat]
                    s = self._put(s, seat, _with(q, _P_SHIPS, _set(q.ships, p2, q.ships[p2] - 1)))
                    s = _with(s, _I_SHIPS, _set(s.ships, p2, s.ships[p2] + 1))
                s = self._story_done(s, seat, p1, 2, card.reward)
            else:
                return self._start_fight(s, mini, p1, p2, p3, p4)
        return self._advance(s)

    def _do_structure(  # noqa: PLR0917
        self, s: State, sub: int, p1: int, p2: int, p3: int, p4: int, p5: int
    ) -> State:
        """rule: structure-interaction, side-objectives."""
        c = self.c
        seat = s.seat
        if sub == act.SUB_TEMPLE:
            s = self._pay(s, seat, [c.temple_cost])
            p = s.players[seat]
            p = p._replace(blessings=p.blessings | 1 << p1, temples=p.temples | 1 << p1)
            s = _with(self._put(s, seat, p), _I_BLESS, _set(s.bless, p1, s.bless[p1] - 1))
            return self._influence_tasks(s, seat)
        if sub == act.SUB_HUB:
            p = s.players[seat]
            costs = [c.costs[k][p.skills[k] + 1] for k in range(3) if (p3 >> k) & 1]
            if p4:
                costs.append(c.gadget_cost)
            s = self._pay(s, seat, costs)
            p = s.players[seat]
            skills = tuple(v + ((p3 >> k) & 1) for k, v in enumerate(p.skills))
            s = self._put(s, seat, _with(p, _P_SKILLS, skills))
            if p4:
                s = self._draw_gadget(s, seat)
            p = s.players[seat]
            if not (p.hubs >> p1) & 1 and self.markers_placed(p) < c.influence_markers:
                s = self._put(s, seat, _with(p, _P_HUBS, p.hubs | 1 << p1))
                s = self._influence_tasks(s, seat)
            return s
        # a side objective site
        task = c.side_cards[s.cfg.side[p1]].tasks[p2]
        if task.kind == T_PRIESTS:
            s = self._pay(s, seat, [3])
            p = s.players[seat]
            s = self._put(s, seat, _with(p, _P_SHIPS, _set(p.ships, p3, p.ships[p3] - 1)))
            s = _with(s, _I_SHIPS, _set(s.ships, p3, s.ships[p3] + 1))
        elif task.kind == T_SENATOR:
            s = self._pay(s, seat, [7])
        elif task.kind == T_MERCHANTS:
            for g in _counts_to_list(p5):
                s = self._discard_gadget(s, seat, g)
        return self._complete_side(s, seat, p1, p2)

    def _place_lictor(self, s: State, a: int) -> State:
        """A lictor from the reserve placed in the district chosen (rule: spaceship-cards)."""
        return self._advance(_with(s, _I_LICTORS, tuple(sorted((*s.lictors, act.value(a))))))

    def _placement(self, s: State) -> tuple[int, ...]:
        """Where a lictor from the reserve may go (rule: spaceship-cards): ``Board.placement``, cached
        by the occupied districts."""
        minis = 0
        for p in s.players:
            if p.char >= 0:
                minis |= 1 << p.char
            if p.drone >= 0:
                minis |= 1 << p.drone
        busy = minis
        for d in s.lictors:
            busy |= 1 << d
        s1d = self._stage1_district
        for q in s.quests:
            if q:
                busy |= 1 << s1d[q[0]]
        key = busy << 32 | minis
        got = self._placement_cache.get(key)
        if got is None:
            if len(self._placement_cache) > 100_000:  # bounded
                self._placement_cache.clear()
            nd = self.nd
            got = self._placement_cache[key] = self.board.placement(
                [d for d in range(nd) if (busy >> d) & 1], [d for d in range(nd) if (minis >> d) & 1]
            )
        return got
