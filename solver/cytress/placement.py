"""The best final placement (the puzzle ``cytress.best_placement``): crews and tubes for the largest
final PRESTIGE margin over the best rival."""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ortools.sat.python import cp_model

from games.core import Game
from games.cytress.board import CREW_PRESTIGE, TUBE_PRESTIGE, adjacent_counts
from games.cytress.game import CytressGame
from games.cytress.scoring import (
    LEVEL_REWARD,
    CardFacts,
    card_facts,
    rebellion,
)
from games.cytress.state import LEVELS, NOBODY, CytressState
from games.cytress.tubes import buildable
from games.errors import ConfigError, InvalidStateError
from solver.core import (
    SolveLimits,
    SolveResult,
    Status,
    check_param_keys,
    shown,
)
from solver.cytress.common import (
    STATUS,
    as_game,
    as_state,
    choice_param,
    hex_param,
    int_param,
    seat_param,
    solve,
)

__all__ = [
    "BEST_PLACEMENT_PARAMS",
    "PlaceInstance",
    "Placement",
    "best_placement",
    "best_placement_cpsat",
    "best_placement_enumeration",
    "margin_of",
    "place_instance",
]


BEST_PLACEMENT_PARAMS: Mapping[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "seat": {
            "type": "integer",
            "minimum": 0,
            "maximum": 4,
            "description": "whose placement (default: to move)",
        },
        "crews": {
            "type": "integer",
            "minimum": 0,
            "maximum": 12,
            "description": "crews still to place on empty hexes (default: min(unused crews, 2))",
        },
        "tubes": {
            "type": "integer",
            "minimum": 0,
            "maximum": 6,
            "description": "waste tubes still to drop on hexes with the seat's crews (default 1)",
        },
        "hexes": {
            "type": "array",
            "items": {"type": "string"},
            "description": "the empty hexes the crews may go to (default: every empty hex)",
        },
        "method": {"enum": ["cp-sat", "enumeration"], "description": "CP-SAT, or score every placement"},
    },
}
"""The parameters of ``cytress.best_placement`` (JSON Schema)."""


@dataclass(frozen=True, slots=True)
class Placement:
    """One answer: the crews placed and the tubes dropped (hex, height)."""

    crews: tuple[int, ...]
    tubes: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class PlaceInstance:
    seat: int
    crews: int
    tubes: int
    sections: int
    candidates: tuple[int, ...]


def margin_of(
    facts: Sequence[CardFacts],
    s: CytressState,
    seat: int,
    placement: Placement,
) -> int:
    """The seat's PRESTIGE minus the best rival's after ``placement``, by the engine's own scoring."""
    crew = list(s.crew)
    tube = list(s.tube)
    stratos = [list(r.stratos) for r in s.rebels]
    for h in placement.crews:
        crew[h] = seat
    for h, height in placement.tubes:
        tube[h] = height
        crew[h] = NOBODY
        stratos[seat][height - 1] += 1
    tallies, _ = rebellion(facts, stratos, crew, tube, s.map.layout.adjacent)
    mine = tallies[seat].total
    return mine - max(t.total for t in tallies if t.owner != seat)


def place_instance(s: CytressState, params: Mapping[str, Any]) -> PlaceInstance:
    check_param_keys(params, BEST_PLACEMENT_PARAMS)
    seat = seat_param(params, s)
    unused = s.rebels[seat].unused
    crews = int_param(params, "crews", min(unused, 2), 0, 12)
    if crews > unused:
        raise ConfigError(
            f"crews must be at most the seat's unused crews ({unused}; rule: cytress/setup: 12 each)",
            field="params.crews",
        )
    tubes = int_param(params, "tubes", 1, 0, 6)
    sections = buildable(s)
    empty = [h for h in range(len(s.crew)) if s.crew[h] == NOBODY and not s.tube[h]]
    if "hexes" in params:
        given = params["hexes"]
        if not isinstance(given, list) or len(given) > len(s.crew):
            raise ConfigError(f"hexes must be a list of hex names, got {shown(given)}", field="params.hexes")
        chosen = []
        for i, x in enumerate(given):
            h = hex_param(params, f"hexes[{i}]", s, x)
            if h not in empty:
                raise ConfigError(
                    f"{x} is not empty (a crew goes on an empty hex: rule: cytress/meet-a-faction)",
                    field=f"params.hexes[{i}]",
                )
            chosen.append(h)
        empty = sorted(set(chosen))
    return PlaceInstance(seat, crews, tubes, sections, tuple(empty))


def best_placement_enumeration(
    g: CytressGame, s: CytressState, inst: PlaceInstance, deadline: float = math.inf
) -> tuple[int, Placement] | None:
    """Every placement of up to ``crews`` crews on the candidates, then up to ``tubes`` drops on the
    seat's crews (each height 1-3 within the sections left), scored by ``margin_of``."""
    facts = card_facts(g.pack, s)
    seat = inst.seat
    own = [h for h, o in enumerate(s.crew) if o == seat]
    best: tuple[int, Placement] | None = None
    for k in range(inst.crews + 1):
        for placed in itertools.combinations(inst.candidates, k):
            hosts = sorted([*own, *placed])
            for t in range(min(inst.tubes, len(hosts)) + 1):
                for where in itertools.combinations(hosts, t):
                    for heights in itertools.product((1, 2, 3), repeat=t):
                        if sum(heights) > inst.sections:
                            continue
                        p = Placement(tuple(placed), tuple(zip(where, heights, strict=True)))
                        v = margin_of(facts, s, seat, p)
                        if best is None or v > best[0]:
                            best = (v, p)
                if time.perf_counter() > deadline:
                    return best
    return best


def _needs(i_ctrl: Any, r_ctrl: Any, short: int) -> list[Any]:
    """The crews the seat needs next to a standing tube it is ``short`` of the best rival's count
    there: ``short`` to tie the lone leader (``r_ctrl`` 0), one more to take it (counted once:
    taking it also ties); constants need nothing."""
    out: list[Any] = []
    ties = not isinstance(r_ctrl, int) and short > 0
    if ties:
        out.append(short * (1 - r_ctrl))
    if not isinstance(i_ctrl, int):
        out.append((1 if ties else short + 1) * i_ctrl)
    return out


class _PlaceModel:
    """The CP-SAT model of ``best_placement``: crews and tube drops as booleans; tube control by
    strict majority of the adjacent crews; Stratos majorities (absolute or tied) per level; every
    owner's total; the seat's total minus each rival's, maximised.

    The formulation is monotone: the objective is ``margin <= mine - total(o)`` for every rival
    ``o`` (no max constraint), so a boolean that only adds to the seat's PRESTIGE needs only the
    constraints that forbid claiming it without cause (``ctrl -> mine > rival best``), and one that
    only adds to a rival's needs only those forcing it on (``mine < rival best -> rival controls``):
    at the optimum every such boolean takes its true value, and half the constraints of a full
    reification are gone (the LP relaxation is tighter too). Counts the placement cannot push past a
    threshold fold to constants (``_at_least``), and the crews ascending to each level and the new
    tubes' PRESTIGE are variables whose domains say "at most ``tubes``", so propagation alone bounds
    the margin near the optimum (66 against 39 on a 2-crew instance, where sums bounded host by host
    gave 527). The answer's margin is re-scored by the engine (``margin_of``)."""

    def __init__(self, g: CytressGame, s: CytressState, inst: PlaceInstance) -> None:
        self.s, self.inst, self.seat, self.owners = s, inst, inst.seat, s.owners
        self.facts = card_facts(g.pack, s)
        m = self.m = cp_model.CpModel()
        cand = set(inst.candidates)
        self.place = {h: m.new_bool_var(f"p{h}") for h in inst.candidates}
        m.add(sum(self.place.values()) <= inst.crews)
        self.hosts = {h for h in range(len(s.crew)) if s.crew[h] == self.seat or h in cand}
        heights = self.heights = [k for k in (1, 2, 3) if k <= inst.sections]
        hosts = sorted(self.hosts)
        # one tube to drop: a boolean per host and one per height (the tube's), not one per pair
        self.single = inst.tubes == 1 and bool(heights)
        if self.single:
            self.drop = {(h, 0): m.new_bool_var(f"d{h}") for h in hosts}
            self.tall = {k: m.new_bool_var(f"h{k}") for k in heights}
            m.add_at_most_one(self.drop.values())
            m.add(sum(self.tall.values()) == sum(self.drop.values()))
            self.dropped: dict[int, Any] = {h: self.drop[h, 0] for h in hosts}
            self.ups = {k: [self.tall[k]] for k in heights}
            self.worth: Any = sum(TUBE_PRESTIGE[k] * v for k, v in self.tall.items())
        else:
            self.drop = {(h, k): m.new_bool_var(f"d{h}_{k}") for h in hosts for k in heights}
            self.dropped = {h: sum(self.drop[h, k] for k in heights) for h in hosts}
            self.ups = {k: [self.drop[h, k] for h in hosts] for k in heights}
            for h in hosts:
                m.add_at_most_one(self.drop[h, k] for k in heights)
            m.add(sum(self.drop.values()) <= inst.tubes)
            m.add(sum(k * v for (h, k), v in self.drop.items()) <= inst.sections)
        for h in hosts:
            if s.crew[h] != self.seat:
                for v in self._drops_at(h):
                    m.add_implication(v, self.place[h])
        # dominance: a crew scores only next to a tube or as a tube's host, so a crew away from every
        # standing tube goes where a tube is dropped on it or next to it (or stays in the supply:
        # the same margin with fewer crews placed)
        adj = s.map.layout.adjacent
        for h in inst.candidates:
            if any(s.tube[n] for n in adj[h]):
                continue
            near = [v for n in (h, *adj[h]) if n in self.hosts for v in self._drops_at(n)]
            m.add_bool_or([*near, ~self.place[h]])
        self.totals: list[Any] = [0] * self.owners

    def _drops_at(self, h: int) -> list[Any]:
        """The booleans of a tube dropped on host ``h``."""
        if self.single:
            return [self.drop[h, 0]]
        return [self.drop[h, k] for k in self.heights]

    def mine_at(self, h: int) -> Any:
        """The seat's crew on ``h`` after the placement (0/1)."""
        if self.s.crew[h] == self.seat:
            base: Any = 1
        elif h in self.place:
            base = self.place[h]
        else:
            return 0
        if h in self.hosts:
            return base - self.dropped[h]
        return base

    def _mine_around(self, h: int) -> Any:
        """The seat's crews on the hexes next to ``h`` after the placement (a linear expression)."""
        if not self.single:
            return sum(self.mine_at(n) for n in self.s.map.layout.adjacent[h])
        # around a host of the one new tube the count matters only with the tube dropped here, and
        # then no neighbour's crew ascends: the drops are left out
        standing = bool(self.s.tube[h])
        crew, seat, place, drop = self.s.crew, self.seat, self.place, self.drop
        terms: list[Any] = []
        coefs: list[int] = []
        base = 0
        for n in self.s.map.layout.adjacent[h]:
            if crew[n] == seat:
                base += 1
            elif n in place:
                terms.append(place[n])
                coefs.append(1)
            else:
                continue
            if standing and n in self.hosts:
                terms.append(drop[n, 0])
                coefs.append(-1)
        return cp_model.LinearExpr.weighted_sum(terms, coefs) + base

    def add_tubes(self) -> None:
        """Tube PRESTIGE of every tube that stands or may be dropped (rule: cytress/score-waste-tubes).

        The seat's crews around a tube lie between its crews there now less the tubes it may drop and
        those plus the crews it may place next to it: a control the seat cannot reach, or cannot
        lose, is a constant, not a boolean (the model shrinks and its bound tightens)."""
        s, m, seat, inst = self.s, self.m, self.seat, self.inst
        adj = s.map.layout.adjacent
        rivals_crew = [o if o != seat else NOBODY for o in s.crew]
        own_tubes: list[Any] = []
        held: list[Any] = []  # one new tube: what lets the seat hold it
        theirs: dict[int, list[Any]] = {}  # one new tube: each lone rival's lower bounds
        gains: list[Any] = []  # standing tubes the seat takes or ties, times the crews it needs there
        for h in range(len(s.crew)):
            if not s.tube[h] and (h not in self.hosts or not self.heights):
                continue
            rival_best, lone, here, lo, hi = self._around(h, rivals_crew)
            open_ = lo < rival_best + 1 <= hi or (lone != NOBODY and lo < rival_best <= hi)
            mine = self._mine_around(h) if open_ else None  # only when a threshold is in doubt
            i_ctrl = self._at_least(mine, lo, hi, rival_best + 1, f"ctrl{h}")  # 1 only with the majority
            r_ctrl: Any = 0
            if lone != NOBODY:  # 1 unless the seat ties or passes the lone leader
                r_ctrl = 1 - self._at_least(mine, lo, hi, rival_best, f"rnot{h}")
            if s.tube[h]:
                pts = TUBE_PRESTIGE[s.tube[h]]
                self.totals[seat] += pts * i_ctrl
                if lone != NOBODY:
                    self.totals[lone] += pts * r_ctrl
                gains += _needs(i_ctrl, r_ctrl if lone != NOBODY else 0, rival_best - here)
                continue
            if self.single:
                self._one_new_tube(h, i_ctrl, lone, r_ctrl, held=held, theirs=theirs)
                continue
            # the new tube's PRESTIGE: at most its height's (0 without a drop) and 0 without control
            # for the seat; at least its height's under the lone rival's control
            top = TUBE_PRESTIGE[self.heights[-1]]
            worth = sum(TUBE_PRESTIGE[k] * self.drop[h, k] for k in self.heights)
            if not isinstance(i_ctrl, int) or i_ctrl:
                own = m.new_int_var(0, top, f"own{h}")
                m.add(own <= worth)
                if not isinstance(i_ctrl, int):
                    m.add(own <= top * i_ctrl)
                own_tubes.append(own)
            if lone != NOBODY and (not isinstance(r_ctrl, int) or r_ctrl):
                their = m.new_int_var(0, top, f"their{h}")
                m.add(their >= worth - top * (1 - r_ctrl))
                self.totals[lone] += their
        if own_tubes:  # at most ``tubes`` new tubes, each worth at most the tallest's PRESTIGE
            top = TUBE_PRESTIGE[self.heights[-1]]
            dropped = m.new_int_var(0, top * inst.tubes, "own_new_tubes")
            m.add(dropped == sum(own_tubes))
            self.totals[seat] += dropped
        if self.single:
            self._one_new_tube_totals(held, theirs)
        if len(gains) > 1:  # redundant: the crews placed reach at most so many tubes each
            reach = max((sum(1 for n in adj[h] if s.tube[n]) for h in self.place), default=0)
            m.add(sum(gains) <= inst.crews * reach)

    def _around(self, h: int, rivals_crew: list[int]) -> tuple[int, int, int, int, int]:
        """Around hex ``h``: (the best rival's crews, the lone leader or -1, the seat's crews now, and
        the least and most the seat may have there after the placement)."""
        s, seat, owners, inst = self.s, self.seat, self.owners, self.inst
        adj = s.map.layout.adjacent[h]
        others = adjacent_counts(adj, rivals_crew, owners)
        rival_best = max((others[o] for o in range(owners) if o != seat), default=0)
        leaders = [o for o in range(owners) if o != seat and others[o] == rival_best > 0]
        lone = leaders[0] if len(leaders) == 1 else NOBODY
        here = sum(1 for n in adj if s.crew[n] == seat)
        near = sum(1 for n in adj if n in self.place)
        if self.single and not s.tube[h]:
            # this count matters only with the one tube dropped here: then no neighbour's crew
            # ascends, and a crew placed here to host it is one fewer for the neighbours
            return rival_best, lone, here, here, here + min(inst.crews - (h in self.place), near)
        return rival_best, lone, here, max(0, here - inst.tubes), here + min(inst.crews, near)

    def _one_new_tube(
        self, h: int, i_ctrl: Any, lone: int, r_ctrl: Any, *, held: list[Any], theirs: dict[int, list[Any]]
    ) -> None:
        """One tube to drop, on host ``h``: the seat holds it if it is dropped here and the seat
        controls ``h``'s neighbours (``held``); a lone rival's lower bounds (``theirs``)."""
        d = self.drop[h, 0]
        if isinstance(i_ctrl, int):
            if i_ctrl:
                held.append(d)
        else:
            self.m.add_implication(i_ctrl, d)  # control of this host counts only for a tube here
            held.append(i_ctrl)
        if lone != NOBODY and (not isinstance(r_ctrl, int) or r_ctrl):
            top = TUBE_PRESTIGE[self.heights[-1]]
            theirs.setdefault(lone, []).append(self.worth - top * (1 - d) - top * (1 - r_ctrl))

    def _one_new_tube_totals(self, held: list[Any], theirs: dict[int, list[Any]]) -> None:
        """The one new tube's PRESTIGE: the seat's at most its height's and 0 unless it holds it; a
        lone rival's at least its height's where it controls the host (one variable each)."""
        m, top = self.m, TUBE_PRESTIGE[self.heights[-1]]
        if held:
            own = m.new_int_var(0, top, "own_new_tube")
            m.add(own <= self.worth)
            m.add(own <= top * sum(held))
            self.totals[self.seat] += own
        for o, bounds in theirs.items():
            their = m.new_int_var(0, top, f"their_new_tube{o}")
            for b in bounds:
                m.add(their >= b)
            self.totals[o] += their

    def _at_least(self, expr: Any, lo: int, hi: int, need: int, name: str) -> Any:
        """A boolean that may be 1 only if ``expr`` (within ``lo``..``hi``) reaches ``need``: the
        constant 0 when it cannot, 1 when it always does."""
        if hi < need:
            return 0
        if lo >= need:
            return 1
        b = self.m.new_bool_var(name)
        self.m.add(expr >= need).only_enforce_if(b)
        return b

    def add_stratos(self) -> None:
        """Crews on Stratos and the level rewards (rule: cytress/score-crews-on-stratos,
        cytress/score-stratos-rewards), and the bounties (constant)."""
        m, seat, owners, facts = self.m, self.seat, self.owners, self.facts
        stratos = [r.stratos for r in self.s.rebels]
        # the seat's crews ascending to each level: at most ``tubes`` (and the sections) in all, so
        # each count is a variable of that domain rather than a sum bounded by every host
        level: list[Any] = []
        most: list[int] = []  # the most crews that may ascend to each level
        ups_all: list[Any] = []
        for k in range(LEVELS):
            ups = self.ups.get(k + 1, [])
            base = stratos[seat][k]
            hi = min(self.inst.tubes, self.inst.sections // (k + 1), len(ups))
            most.append(hi if ups else 0)
            if not ups or not hi:
                level.append(base)
                continue
            up = m.new_int_var(0, hi, f"up{k + 1}")
            m.add(up == sum(ups))
            level.append(base + up)
            ups_all.append((k, up))
        for o, crews in enumerate(stratos):
            self.totals[o] += sum(CREW_PRESTIGE[k] * crews[k] for k in range(LEVELS)) + facts[o].bounty
        if ups_all:  # the crews ascending: at most ``tubes`` of them, each worth its level's PRESTIGE
            top = CREW_PRESTIGE[max(k for k, _ in ups_all)] * self.inst.tubes
            ascents = m.new_int_var(0, top, "ascents")
            m.add(ascents == sum(CREW_PRESTIGE[k] * up for k, up in ups_all))
            self.totals[seat] += ascents
        climbs: list[Any] = []  # the majorities won by crews still to ascend, each needing that many
        for k in range(LEVELS):
            rival_top = max((stratos[o][k] for o in range(owners) if o != seat), default=0)
            need = max(1, rival_top)
            base_k = stratos[seat][k]
            # the seat has the absolute or tied majority (and a crew)
            maj = self._at_least(level[k], base_k, base_k + most[k], need, f"maj{k}")
            if not isinstance(maj, int):
                climbs.append((need - base_k) * maj)
            if k == 0:
                cap = LEVEL_REWARD[0] * (sum(stratos[seat]) + 3)
                reward = m.new_int_var(0, cap, "reward1")  # at most the reward, and 0 without majority
                m.add(reward <= LEVEL_REWARD[0] * sum(level))
                m.add(reward <= cap * maj)
                self.totals[seat] += reward
            else:
                base = facts[seat].longest if k == 1 else facts[seat].sets
                self.totals[seat] += LEVEL_REWARD[k] * base * maj
            for o in range(owners):
                theirs = stratos[o][k]
                if o == seat or theirs == 0 or theirs < rival_top:
                    continue
                # 1 unless the seat passes them
                keeps = 1 - self._at_least(level[k], base_k, base_k + most[k], theirs + 1, f"pass{o}_{k}")
                f = facts[o]
                base_o = (sum(stratos[o]), f.longest, f.sets)[k]
                self.totals[o] += LEVEL_REWARD[k] * base_o * keeps
        if len(climbs) > 1:  # redundant: the climbs share the ``tubes`` crews that may ascend
            m.add(sum(climbs) <= self.inst.tubes)

    def solve(self, limits: SolveLimits) -> tuple[Status, int, int, Placement]:
        """Maximise the margin; (status, margin, bound, placement)."""
        m, seat = self.m, self.seat
        bound = 4000
        margin = m.new_int_var(-bound, bound, "margin")
        mine = self.totals[seat]
        for o in range(self.owners):
            if o != seat:
                m.add(margin <= mine - self.totals[o])
        m.maximize(margin)
        # the monotone model is small and propagates well: no LP, no presolve, no symmetry search
        # (each costs more than it saves here; measured in bench/cytress.py)
        solver, status = solve(m, limits, linearization=0, probing=0, presolve=False)
        st = STATUS[status]
        if st not in (Status.OPTIMAL, Status.FEASIBLE):
            return st, 0, 0, Placement((), ())
        placed = tuple(h for h, v in self.place.items() if solver.value(v))
        if self.single:
            tall = [k for k, v in self.tall.items() if solver.value(v)]
            tubes = tuple((h, tall[0]) for (h, _), v in self.drop.items() if solver.value(v))
        else:
            tubes = tuple((h, k) for (h, k), v in self.drop.items() if solver.value(v))
        return st, int(solver.value(margin)), int(solver.best_objective_bound), Placement(placed, tubes)


def best_placement_cpsat(
    g: CytressGame, s: CytressState, inst: PlaceInstance, limits: SolveLimits
) -> tuple[Status, int, int, Placement]:
    """Build and solve the placement model (``_PlaceModel``)."""
    model = _PlaceModel(g, s, inst)
    model.add_tubes()
    model.add_stratos()
    return model.solve(limits)


def best_placement(
    game: Game[Any, Any], state: Any, params: Mapping[str, Any], limits: SolveLimits
) -> SolveResult:
    """Where the seat's next crews go and which tubes it drops to maximise its final PRESTIGE margin."""
    start = time.perf_counter()
    g, s = as_game(game), as_state(state)
    if s.owners < 2:
        raise InvalidStateError("a margin needs a rival", field="state.players")
    inst = place_instance(s, params)
    method = choice_param(params, "method", ("cp-sat", "enumeration"))
    if method == "enumeration":
        found = best_placement_enumeration(g, s, inst, time.perf_counter() + float(limits.time_limit_s))
        assert found is not None  # placing nothing is always a placement
        value, placement = found
        status, bound = Status.OPTIMAL, value
    else:
        status, value, bound, placement = best_placement_cpsat(g, s, inst, limits)
    facts = card_facts(g.pack, s)
    if method != "enumeration" and status in (Status.OPTIMAL, Status.FEASIBLE):
        value = margin_of(facts, s, inst.seat, placement)  # the engine's own score of the answer
    labels = s.map.layout.labels
    before = margin_of(facts, s, inst.seat, Placement((), ()))
    steps = [f"a crew on {labels[h]}" for h in placement.crews]
    steps += [
        f"a {k}-high waste tube on {labels[h]} (its crew ascends to level {k})" for h, k in placement.tubes
    ]
    if status in (Status.OPTIMAL, Status.FEASIBLE):
        plan = "; ".join(steps) if steps else "nothing"
        text = (
            f"Place {plan}: your final margin over the best rival becomes {value:+d} PRESTIGE "
            f"(now {before:+d})."
        )
    else:
        text = "No placement found within the time limit; try a longer limit or fewer crews."
    return SolveResult(
        kind="cytress.best_placement",
        status=status,
        objective=float(value),
        bound=float(bound),
        answer={
            "seat": inst.seat,
            "crews": [labels[h] for h in placement.crews],
            "tubes": [{"hex": labels[h], "height": k} for h, k in placement.tubes],
            "margin": value,
            "margin_now": before,
        },
        explanation=text,
        method=method,
        wall_s=time.perf_counter() - start,
    )
