"""Tube control (the puzzle ``cytress.tube_control``): the fewest crews to take or keep a waste tube."""

from __future__ import annotations

import itertools
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ortools.sat.python import cp_model

from games.core import Game
from games.cytress.board import TUBE_PRESTIGE, adjacent_counts
from games.cytress.game import CytressGame
from games.cytress.state import NOBODY, CytressState
from games.errors import ConfigError
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
    owner_name,
    seat_param,
    solve,
)

__all__ = [
    "TUBE_CONTROL_PARAMS",
    "TubeInstance",
    "tube_control",
    "tube_control_cpsat",
    "tube_control_enumeration",
    "tube_instance",
]


TUBE_CONTROL_PARAMS: Mapping[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "hex": {"type": "string", "description": "the hex of the waste tube, e.g. 'C4'"},
        "seat": {
            "type": "integer",
            "minimum": 0,
            "maximum": 4,
            "description": "whose control (default: to move)",
        },
        "crews": {
            "type": "integer",
            "minimum": 0,
            "maximum": 12,
            "description": "crews the seat can still place (default: its unused crews)",
        },
        "rival_crews": {
            "type": "array",
            "items": {"type": "integer", "minimum": 0, "maximum": 12},
            "description": "per owner (seats, then the automa in solo), the crews it can still place next "
            "to the tube (default: its unused crews); the seat's own entry is ignored",
        },
        "method": {
            "enum": ["cp-sat", "enumeration"],
            "description": "CP-SAT, or every placement against every answer",
        },
    },
}
"""The parameters of ``cytress.tube_control`` (JSON Schema)."""


@dataclass(frozen=True, slots=True)
class TubeInstance:
    seat: int
    around: tuple[int, ...]  # the tube's adjacent hexes
    empty: tuple[int, ...]  # the empty ones (crews may still go there)
    mine: int  # the seat's crews around it now
    rivals: tuple[tuple[int, int, int], ...]  # (owner, crews around now, crews it can still place)
    crews: int  # crews the seat can still place
    bonus: tuple[int, ...]  # per empty hex: other tubes it also touches (to choose where)


def tube_instance(g: CytressGame, s: CytressState, params: Mapping[str, Any]) -> tuple[int, TubeInstance]:
    check_param_keys(params, TUBE_CONTROL_PARAMS)
    seat = seat_param(params, s)
    tubes = [h for h, t in enumerate(s.tube) if t]
    if "hex" in params:
        h = hex_param(params, "hex", s, params["hex"])
        if not s.tube[h]:
            raise ConfigError(
                f"there is no waste tube at {s.map.layout.labels[h]} (rule: cytress/waste-tubes); "
                "tubes stand at "
                f"{[s.map.layout.labels[t] for t in tubes] or 'no hex yet'}",
                field="params.hex",
            )
    elif tubes:
        h = max(tubes, key=lambda t: (s.tube[t], -t))
    else:
        raise ConfigError("no waste tube stands on the mini-map yet: name one with hex", field="params.hex")
    crews = int_param(params, "crews", s.rebels[seat].unused, 0, 12)
    rival_default = [r.unused for r in s.rebels]
    given = params.get("rival_crews", rival_default)
    if not isinstance(given, list) or len(given) != s.owners:
        raise ConfigError(
            f"rival_crews must list {s.owners} counts (one per owner), got {shown(given)}",
            field="params.rival_crews",
        )
    for i, x in enumerate(given):
        if isinstance(x, bool) or not isinstance(x, int) or not 0 <= x <= 12:
            raise ConfigError(
                f"rival_crews[{i}] must be an integer 0..12, got {shown(x)}",
                field=f"params.rival_crews[{i}]",
            )
    adj = s.map.layout.adjacent
    around = adj[h]
    counts = adjacent_counts(around, s.crew, s.owners)
    empty = tuple(n for n in around if s.crew[n] == NOBODY and not s.tube[n])
    bonus = tuple(sum(1 for t in adj[n] if s.tube[t] and t != h) for n in empty)
    rivals = tuple((o, counts[o], int(given[o])) for o in range(s.owners) if o != seat)
    return h, TubeInstance(seat, around, empty, counts[seat], rivals, crews, bonus)


def _holds(inst: TubeInstance, placed: int) -> bool:
    """Whether ``placed`` more crews keep the tube against the strongest rival answer."""
    free = len(inst.empty) - placed
    worst = max((c + min(r, free) for _, c, r in inst.rivals), default=0)
    return inst.mine + placed > worst


def tube_control_enumeration(inst: TubeInstance) -> tuple[int, tuple[int, ...]] | None:
    """Brute force: every set of empty hexes for the seat (fewest first) against every way the rivals
    can fill the rest (each hex empty or one rival's, within each rival's crews). None: no set holds."""
    owners = [o for o, _, _ in inst.rivals]
    base = {o: c for o, c, _ in inst.rivals}
    limit = {o: r for o, _, r in inst.rivals}
    for k in range(min(inst.crews, len(inst.empty)) + 1):
        for mine in itertools.combinations(inst.empty, k):
            rest = [n for n in inst.empty if n not in mine]
            ok = True
            for answer in itertools.product([NOBODY, *owners], repeat=len(rest)):
                used = {o: 0 for o in owners}
                for o in answer:
                    if o != NOBODY:
                        used[o] += 1
                if any(used[o] > limit[o] for o in owners):
                    continue
                if any(base[o] + used[o] >= inst.mine + k for o in owners):
                    ok = False
                    break
            if ok:
                return k, mine
    return None


def tube_control_cpsat(inst: TubeInstance, limits: SolveLimits) -> tuple[Status, int, tuple[int, ...]]:
    m = cp_model.CpModel()
    e = len(inst.empty)
    place = [m.new_bool_var(f"place_{n}") for n in inst.empty]
    x = m.new_int_var(0, e, "placed")
    m.add(x == sum(place))
    m.add(x <= inst.crews)
    free = m.new_int_var(0, e, "free")
    m.add(free == e - x)
    for o, c, r in inst.rivals:
        fill = m.new_int_var(0, e, f"fill_{o}")
        m.add_min_equality(fill, [free, m.new_constant(r)])
        m.add(inst.mine + x >= c + fill + 1)  # a strict majority against this rival's best answer
    big = 1 + sum(inst.bonus)
    m.minimize(big * x - sum(b * p for b, p in zip(inst.bonus, place, strict=True)))
    solver, status = solve(m, limits)
    st = STATUS[status]
    if st not in (Status.OPTIMAL, Status.FEASIBLE):
        return st, 0, ()
    chosen = tuple(n for n, p in zip(inst.empty, place, strict=True) if solver.value(p))
    return st, len(chosen), chosen


def tube_control(
    game: Game[Any, Any], state: Any, params: Mapping[str, Any], limits: SolveLimits
) -> SolveResult:
    """The fewest crews the seat must still place around a waste tube (and where) to take or keep it
    whatever the rivals place there (rule: cytress/score-waste-tubes)."""
    start = time.perf_counter()
    g, s = as_game(game), as_state(state)
    h, inst = tube_instance(g, s, params)
    method = choice_param(params, "method", ("cp-sat", "enumeration"))
    labels = s.map.layout.labels
    where, height = labels[h], s.tube[h]
    if method == "enumeration":
        found = tube_control_enumeration(inst)
        status = Status.OPTIMAL if found is not None else Status.INFEASIBLE
        k, chosen = found if found is not None else (0, ())
    else:
        status, k, chosen = tube_control_cpsat(inst, limits)
    who = owner_name(s, inst.seat)
    answer: dict[str, Any] = {
        "hex": where,
        "height": height,
        "seat": inst.seat,
        "crews_around": inst.mine,
        "rivals_around": {owner_name(s, o): c for o, c, _ in inst.rivals},
        "empty_hexes": [labels[n] for n in inst.empty],
    }
    if status == Status.INFEASIBLE:
        strongest = max(inst.rivals, key=lambda t: t[1] + min(t[2], len(inst.empty)))
        answer.update(possible=False, crews_needed=None, place_on=[])
        text = (
            f"{who.capitalize()} cannot be sure of the {height}-high tube at {where}: with "
            f"{len(inst.empty)} empty hexes around it, {owner_name(s, strongest[0])} can still match any "
            f"placement; put your crews where a tube can still be won."
        )
    elif status in (Status.OPTIMAL, Status.FEASIBLE):
        answer.update(possible=True, crews_needed=k, place_on=[labels[n] for n in chosen])
        if k == 0:
            text = (
                f"{who.capitalize()} already holds the {height}-high tube at {where} whatever the "
                "rivals place: no crew needed."
            )
        else:
            text = (
                f"Place {k} crew{'s' if k > 1 else ''} on {', '.join(labels[n] for n in chosen)} "
                "to take and keep the "
                f"{height}-high tube at {where} ({TUBE_PRESTIGE[height]} PRESTIGE) whatever the rivals place."
            )
    else:
        answer.update(possible=None)
        text = "The solver ran out of time before answering; try again with a longer time limit."
    return SolveResult(
        kind="cytress.tube_control",
        status=status,
        objective=float(k),
        bound=float(k),
        answer=answer,
        explanation=text,
        method=method,
        wall_s=time.perf_counter() - start,
    )
