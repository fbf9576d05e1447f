"""Cytress solvers: the exact score of the rebellion, tube control, and the best final placement.

- **Score** (``register_scorer("cytress")`` and the puzzle ``cytress.score``): the rebellion as
  ``games.cytress.scoring`` counts it (rule: cytress/score-crews-on-stratos,
  cytress/score-stratos-rewards, cytress/score-waste-tubes, cytress/score-bounties), broken down per
  category and per waste tube: who controls it and by how many crews.
- **Tube control** (``cytress.tube_control``): for one waste tube, the fewest crews a seat must still
  place on the empty hexes around it to take or keep it against the crews each rival can still
  place there (rule: cytress/score-waste-tubes: a strict majority of the adjacent crews). CP-SAT
  (the rivals' best answer is a closed form: the strongest rival fills the empty hexes left);
  ``method="enumeration"`` plays every placement against every rival answer (tests: equal).
- **Best final placement** (``cytress.best_placement``): where to put a seat's next crews and which
  tubes to drop (hex and height, the crew ascending: rule: cytress/waste-tubes) to maximise its
  final PRESTIGE margin over the best rival, CP-SAT over hexes, tube control and Stratos
  majorities; ``method="enumeration"`` scores every placement with the engine's own scoring
  (tests: equal on hundreds of small instances). Rivals stand still; resources are not counted
  (the question is where, not whether it can be paid for).
- **Hint advice** (``register_advice("cytress")``, :func:`hint_advice`): where the seat to move
  chooses the hex for its crew or for its waste tube, every legal hex valued by that final margin
  (the best placement with the crew fixed there; the tube there), so hints rank by it.

Nothing here restates a rule table: the PRESTIGE tables are imported from ``games.cytress``.
"""

from __future__ import annotations

import itertools
import math
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ortools.sat.python import cp_model

from games.core import Game
from games.cytress.board import CREW_PRESTIGE, TUBE_PRESTIGE, adjacent_counts
from games.cytress.flow import END_LIMIT, END_SOLO, END_TUBES, end_condition
from games.cytress.game import CytressGame
from games.cytress.scoring import (
    LEVEL_REWARD,
    CardFacts,
    Tally,
    bounty_weights,
    card_facts,
    rebellion,
    winners,
)
from games.cytress.state import AUTOMA, FACTIONS, LEVELS, NOBODY, OVER, CytressState
from games.cytress.tubes import buildable
from games.errors import ConfigError, InvalidStateError
from solver.core import (
    Advice,
    ScoreLine,
    ScoreReport,
    SeatScore,
    SolveLimits,
    SolveResult,
    Status,
    check_param_keys,
    register_advice,
    register_puzzle,
    register_scorer,
    shown,
)

__all__ = [
    "ADVICE_LABEL",
    "BEST_PLACEMENT_PARAMS",
    "SCORE_PARAMS",
    "TUBE_CONTROL_PARAMS",
    "Placement",
    "best_placement",
    "best_placement_enumeration",
    "ended_by",
    "hint_advice",
    "margin_of",
    "score",
    "score_puzzle",
    "tube_control",
    "tube_control_enumeration",
]

_STATUS = {
    cp_model.OPTIMAL: Status.OPTIMAL,
    cp_model.FEASIBLE: Status.FEASIBLE,
    cp_model.INFEASIBLE: Status.INFEASIBLE,
    cp_model.UNKNOWN: Status.UNKNOWN,
    cp_model.MODEL_INVALID: Status.UNKNOWN,
}


# ============================================================================ parameters
def _int_param(params: Mapping[str, Any], key: str, default: int, lo: int, hi: int) -> int:
    value = params.get(key, default)
    number: int | None = None
    if isinstance(value, bool):
        number = None
    elif isinstance(value, int):
        number = value
    elif isinstance(value, float) and math.isfinite(value) and value.is_integer():
        number = int(value)
    if number is None or not lo <= number <= hi:
        raise ConfigError(f"{key} must be an integer {lo}..{hi}, got {shown(value)}", field=f"params.{key}")
    return number


def _choice_param(params: Mapping[str, Any], key: str, choices: Sequence[str]) -> str:
    value = params.get(key, choices[0])
    if not isinstance(value, str) or value not in choices:
        raise ConfigError(f"{key} must be one of {list(choices)}, got {shown(value)}", field=f"params.{key}")
    return value


def _seat_param(params: Mapping[str, Any], s: CytressState) -> int:
    default = s.actor if 0 <= s.actor < s.players else 0
    return _int_param(params, "seat", default, 0, s.players - 1)


def _hex_param(params: Mapping[str, Any], key: str, s: CytressState, value: Any) -> int:
    labels = s.map.layout.labels
    if not isinstance(value, str) or value not in labels:
        raise ConfigError(
            f"{key} must be a mini-map hex like {labels[0]!r} (columns A-, rows 1-), got {shown(value)}",
            field=f"params.{key}",
        )
    return labels.index(value)


def _game(game: Game[Any, Any]) -> CytressGame:
    if not isinstance(game, CytressGame):
        raise InvalidStateError(f"expected the cytress game, got {game.info.name!r}", field="game")
    return game


def _state(state: Any) -> CytressState:
    if not isinstance(state, CytressState):
        raise InvalidStateError(f"expected a cytress state, got {type(state).__name__}", field="state")
    return state


class _Model(cp_model.CpModel):
    """A ``CpModel`` without the pre-PEP 8 method aliases its constructor adds one by one (a
    millisecond per model, more than solving a small placement model; nothing here uses them)."""

    def _add_pre_pep8_methods(self) -> None:
        pass


def _owner_name(s: CytressState, o: int) -> str:
    if o == NOBODY:
        return "nobody"
    return "the automa" if s.solo and o == AUTOMA else f"seat {o}"


def _solve(
    model: cp_model.CpModel,
    limits: SolveLimits,
    *,
    linearization: int = 2,
    probing: int = 2,
    presolve: bool = True,
) -> tuple[cp_model.CpSolver, Any]:
    """Solve with the limits; ``linearization`` 2 (the default here: the majorities' LP relaxation,
    ~1.6x faster on tube control), ``probing`` (presolve probing level, CP-SAT's default 2) and
    ``presolve`` (False: no presolve, symmetry detection or SAT inprocessing, for models too small to
    repay them)."""
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = max(0.01, float(limits.time_limit_s))
    solver.parameters.num_workers = max(1, int(limits.workers))
    solver.parameters.linearization_level = linearization
    solver.parameters.cp_model_probing_level = probing
    if not presolve:
        solver.parameters.cp_model_presolve = False
        solver.parameters.symmetry_level = 0
        solver.parameters.use_sat_inprocessing = False
    stop = limits.stop
    if stop is None:
        return solver, solver.solve(model)
    done = threading.Event()

    def watch() -> None:
        while not done.wait(0.02):
            if stop():
                solver.stop_search()

    watcher = threading.Thread(target=watch, name="cp-sat-stop", daemon=True)
    watcher.start()
    try:
        return solver, solver.solve(model)
    finally:
        done.set()
        watcher.join()


# ============================================================================ score
def _tallies(g: CytressGame, s: CytressState) -> tuple[tuple[Tally, ...], Any]:
    return rebellion(card_facts(g.pack, s), s.stratos, s.crew, s.tube, s.map.layout.adjacent)


def _lines(g: CytressGame, s: CytressState, t: Tally) -> tuple[ScoreLine, ...]:
    """One seat's parts, each detail naming its counts and weights ("2 on level 1 × 5 + 1 on level 2 × 10",
    "3 PRESTIGE × 7 (crews on Stratos)")."""
    f = t.facts
    crews = " + ".join(
        f"{t.crews[k]} on level {k + 1} × {CREW_PRESTIGE[k]}" for k in range(LEVELS) if t.crews[k]
    )
    bases = (
        (sum(t.crews), "crews on Stratos"),
        (f.longest, "cards in the longest lifepath"),
        (f.sets, "complete sets of faction target icons"),
    )
    rewards = []
    for k, (base, unit) in enumerate(bases):
        paid = f"{LEVEL_REWARD[k]} PRESTIGE × {base} ({unit})"
        rewards.append(
            ScoreLine(
                category=f"Stratos level {k + 1} ruled",
                points=float(t.rewards[k]),
                detail=f"majority: {paid}"
                if t.majority[k]
                else f"no majority (a majority would score {paid})",
            )
        )
    by_height: dict[int, list[str]] = {}
    for h in t.tubes:
        by_height.setdefault(s.tube[h], []).append(s.map.layout.labels[h])
    tubes = " + ".join(
        f"{len(hexes)} × {TUBE_PRESTIGE[height]} (height {height}: {', '.join(hexes)})"
        for height, hexes in sorted(by_height.items())
    )
    weights = bounty_weights(g.pack, s.bounties[t.owner], best=s.bounty_best)
    bounties = " + ".join(
        f"{f.targets[k]} {FACTIONS[k].capitalize()} target icons × {w}" for k, w in enumerate(weights) if w
    )
    return (
        ScoreLine(
            category="Crews on Stratos",
            points=float(t.crew_prestige),
            detail=crews or "none: 0 × 5, 10 or 15 PRESTIGE by level 1, 2 or 3",
        ),
        *rewards,
        ScoreLine(
            category="Waste tubes controlled",
            points=float(t.tube_prestige),
            detail=tubes or "none: 0 × 3, 5 or 7 PRESTIGE by height 1, 2 or 3",
        ),
        ScoreLine(
            category="Bounties collected",
            points=float(t.bounty_prestige),
            detail=bounties or "no bounty: 0 × (2 a tier 1, 1 a tier 2 bounty pays per target icon)",
        ),
    )


def score(game: Game[Any, Any], state: Any) -> ScoreReport:
    """The exact rebellion: per seat, PRESTIGE per category and place (ties share a place: rule:
    cytress/core-concepts). Solo: the automa's total is a line of seat 0's breakdown, and seat 0
    is first only with more PRESTIGE than the automa (rule: cytress/solo-game-end)."""
    g, s = _game(game), _state(state)
    tallies, _ = _tallies(g, s)
    totals = [t.total for t in tallies]
    seats = []
    for seat in range(s.players):
        t = tallies[seat]
        lines = _lines(g, s, t)
        if s.solo:
            ai = tallies[AUTOMA]
            beat = f"{ai.total} PRESTIGE to beat, the automa's own total (× 0 in seat 0's: not a part of it)"
            lines = (*lines, ScoreLine(category="The automa", points=0.0, detail=beat))
            rank = 1 if winners(totals, solo=True) else 2
            tie = ("tied with the automa: no one wins",) if totals[0] == totals[AUTOMA] else ()
        else:
            rank = 1 + sum(1 for x in totals if x > t.total)
            tie = ("tied players rule Stratos and Cytress together",) if totals.count(t.total) > 1 else ()
        seats.append(SeatScore(seat=seat, total=float(t.total), rank=rank, breakdown=lines, tiebreak=tie))
    over = s.phase == OVER
    return ScoreReport(game="cytress", final=over, seats=tuple(seats), ended_by=ended_by(s) if over else "")


def ended_by(s: CytressState) -> str:
    """How a finished game ended (``flow.end_condition``), in the rulebook's words: rule:
    cytress/game-end-trigger, rule: cytress/solo-game-end, or the ``round_limit`` cap, which says it
    is a variant and how many allocated sections were left ("" before the end)."""
    reason = end_condition(s)
    if reason == END_TUBES:
        return (
            f"the last allocated waste tube section was placed in round {s.round}; the round was played "
            "out, then the rebellion"
        )
    if reason == END_SOLO:
        return f"a solo game ends at the end of the 5th round (round {s.round} was played)"
    if reason == END_LIMIT:
        return (
            f"the round_limit cap of {s.round_limit} rounds (a variant, not in the rulebook), with "
            f"{s.tubes_left} allocated tube sections still near Stratos"
        )
    return ""


SCORE_PARAMS: Mapping[str, Any] = {"type": "object", "properties": {}, "additionalProperties": False}
"""``cytress.score`` takes no parameters."""


def score_puzzle(
    game: Game[Any, Any], state: Any, params: Mapping[str, Any], limits: SolveLimits
) -> SolveResult:
    """The rebellion now: per owner its categories, per tube its controller and margin."""
    start = time.perf_counter()
    g, s = _game(game), _state(state)
    check_param_keys(params, SCORE_PARAMS)
    tallies, tubes = _tallies(g, s)
    labels = s.map.layout.labels
    owners = []
    for t in tallies:
        owners.append(
            {
                "owner": _owner_name(s, t.owner),
                "total": t.total,
                "crews_on_stratos": t.crew_prestige,
                "level_rewards": {f"level {k + 1}": t.rewards[k] for k in range(LEVELS)},
                "waste_tubes": t.tube_prestige,
                "bounties": t.bounty_prestige,
            }
        )
    tube_rows = []
    for r in tubes:
        ranked = sorted(r.counts, reverse=True)
        margin = ranked[0] - (ranked[1] if len(ranked) > 1 else 0)
        tube_rows.append(
            {
                "hex": labels[r.hex],
                "height": r.height,
                "controller": _owner_name(s, r.controller),
                "by": margin if r.controller != NOBODY else 0,
                "crews": {_owner_name(s, o): c for o, c in enumerate(r.counts) if c},
                "prestige": r.prestige,
            }
        )
    totals = [t.total for t in tallies]
    best = max(totals)
    leaders = [_owner_name(s, o) for o, x in enumerate(totals) if x == best]
    close = [row for row in tube_rows if row["by"] <= 1 and row["height"] >= 2]
    hint = (
        f" The {close[0]['height']}-high tube at {close[0]['hex']} is held by a margin of "
        f"{close[0]['by']} crew or none: a crew next to it can swing "
        f"{TUBE_PRESTIGE[int(close[0]['height'])]} PRESTIGE."
        if close
        else ""
    )
    return SolveResult(
        kind="cytress.score",
        status=Status.OPTIMAL,
        objective=float(best),
        bound=float(best),
        answer={"owners": owners, "tubes": tube_rows},
        explanation=f"If the rebellion broke out now, {' and '.join(leaders)} would rule with "
        f"{best} PRESTIGE." + hint,
        method="exact",
        wall_s=time.perf_counter() - start,
    )


# ============================================================================ tube control
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
class _TubeInstance:
    seat: int
    around: tuple[int, ...]  # the tube's adjacent hexes
    empty: tuple[int, ...]  # the empty ones (crews may still go there)
    mine: int  # the seat's crews around it now
    rivals: tuple[tuple[int, int, int], ...]  # (owner, crews around now, crews it can still place)
    crews: int  # crews the seat can still place
    bonus: tuple[int, ...]  # per empty hex: other tubes it also touches (to choose where)


def _tube_instance(g: CytressGame, s: CytressState, params: Mapping[str, Any]) -> tuple[int, _TubeInstance]:
    check_param_keys(params, TUBE_CONTROL_PARAMS)
    seat = _seat_param(params, s)
    tubes = [h for h, t in enumerate(s.tube) if t]
    if "hex" in params:
        h = _hex_param(params, "hex", s, params["hex"])
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
    crews = _int_param(params, "crews", s.supply[seat], 0, 12)
    rival_default = list(s.supply)
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
    return h, _TubeInstance(seat, around, empty, counts[seat], rivals, crews, bonus)


def _holds(inst: _TubeInstance, placed: int) -> bool:
    """Whether ``placed`` more crews keep the tube against the strongest rival answer."""
    free = len(inst.empty) - placed
    worst = max((c + min(r, free) for _, c, r in inst.rivals), default=0)
    return inst.mine + placed > worst


def tube_control_enumeration(inst: _TubeInstance) -> tuple[int, tuple[int, ...]] | None:
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


def _tube_control_cpsat(inst: _TubeInstance, limits: SolveLimits) -> tuple[Status, int, tuple[int, ...]]:
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
    solver, status = _solve(m, limits)
    st = _STATUS[status]
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
    g, s = _game(game), _state(state)
    h, inst = _tube_instance(g, s, params)
    method = _choice_param(params, "method", ("cp-sat", "enumeration"))
    labels = s.map.layout.labels
    where = labels[h]
    height = s.tube[h]
    if method == "enumeration":
        found = tube_control_enumeration(inst)
        status = Status.OPTIMAL if found is not None else Status.INFEASIBLE
        k, chosen = found if found is not None else (0, ())
    else:
        status, k, chosen = _tube_control_cpsat(inst, limits)
    who = _owner_name(s, inst.seat)
    answer: dict[str, Any] = {
        "hex": where,
        "height": height,
        "seat": inst.seat,
        "crews_around": inst.mine,
        "rivals_around": {_owner_name(s, o): c for o, c, _ in inst.rivals},
        "empty_hexes": [labels[n] for n in inst.empty],
    }
    if status == Status.INFEASIBLE:
        strongest = max(inst.rivals, key=lambda t: t[1] + min(t[2], len(inst.empty)))
        answer.update(possible=False, crews_needed=None, place_on=[])
        text = (
            f"{who.capitalize()} cannot be sure of the {height}-high tube at {where}: with "
            f"{len(inst.empty)} empty hexes around it, {_owner_name(s, strongest[0])} can still match any "
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


# ============================================================================ best final placement
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
class _PlaceInstance:
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
    stratos = list(s.stratos)
    for h in placement.crews:
        crew[h] = seat
    for h, height in placement.tubes:
        tube[h] = height
        crew[h] = NOBODY
        stratos[LEVELS * seat + height - 1] += 1
    tallies, _ = rebellion(facts, stratos, crew, tube, s.map.layout.adjacent)
    mine = tallies[seat].total
    return mine - max(t.total for t in tallies if t.owner != seat)


def _place_instance(s: CytressState, params: Mapping[str, Any]) -> _PlaceInstance:
    check_param_keys(params, BEST_PLACEMENT_PARAMS)
    seat = _seat_param(params, s)
    crews = _int_param(params, "crews", min(s.supply[seat], 2), 0, 12)
    if crews > s.supply[seat]:
        raise ConfigError(
            f"crews must be at most the seat's unused crews ({s.supply[seat]}; rule: cytress/setup: 12 each)",
            field="params.crews",
        )
    tubes = _int_param(params, "tubes", 1, 0, 6)
    sections = buildable(s)
    empty = [h for h in range(len(s.crew)) if s.crew[h] == NOBODY and not s.tube[h]]
    if "hexes" in params:
        given = params["hexes"]
        if not isinstance(given, list) or len(given) > len(s.crew):
            raise ConfigError(f"hexes must be a list of hex names, got {shown(given)}", field="params.hexes")
        chosen = []
        for i, x in enumerate(given):
            h = _hex_param(params, f"hexes[{i}]", s, x)
            if h not in empty:
                raise ConfigError(
                    f"{x} is not empty (a crew goes on an empty hex: rule: cytress/meet-a-faction)",
                    field=f"params.hexes[{i}]",
                )
            chosen.append(h)
        empty = sorted(set(chosen))
    return _PlaceInstance(seat, crews, tubes, sections, tuple(empty))


def best_placement_enumeration(
    g: CytressGame, s: CytressState, inst: _PlaceInstance, deadline: float = math.inf
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

    def __init__(self, g: CytressGame, s: CytressState, inst: _PlaceInstance) -> None:
        self.s, self.inst, self.seat, self.owners = s, inst, inst.seat, s.owners
        self.facts = card_facts(g.pack, s)
        m = self.m = _Model()
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
        s, m, seat, owners, facts = self.s, self.m, self.seat, self.owners, self.facts
        # the seat's crews ascending to each level: at most ``tubes`` (and the sections) in all, so
        # each count is a variable of that domain rather than a sum bounded by every host
        level: list[Any] = []
        most: list[int] = []  # the most crews that may ascend to each level
        ups_all: list[Any] = []
        for k in range(LEVELS):
            ups = self.ups.get(k + 1, [])
            base = s.stratos[LEVELS * seat + k]
            hi = min(self.inst.tubes, self.inst.sections // (k + 1), len(ups))
            most.append(hi if ups else 0)
            if not ups or not hi:
                level.append(base)
                continue
            up = m.new_int_var(0, hi, f"up{k + 1}")
            m.add(up == sum(ups))
            level.append(base + up)
            ups_all.append((k, up))
        for o in range(owners):
            crews = [s.stratos[LEVELS * o + k] for k in range(LEVELS)]
            self.totals[o] += sum(CREW_PRESTIGE[k] * crews[k] for k in range(LEVELS)) + facts[o].bounty
        if ups_all:  # the crews ascending: at most ``tubes`` of them, each worth its level's PRESTIGE
            top = CREW_PRESTIGE[max(k for k, _ in ups_all)] * self.inst.tubes
            ascents = m.new_int_var(0, top, "ascents")
            m.add(ascents == sum(CREW_PRESTIGE[k] * up for k, up in ups_all))
            self.totals[seat] += ascents
        climbs: list[Any] = []  # the majorities won by crews still to ascend, each needing that many
        for k in range(LEVELS):
            rival_top = max((s.stratos[LEVELS * o + k] for o in range(owners) if o != seat), default=0)
            need = max(1, rival_top)
            base_k = s.stratos[LEVELS * seat + k]
            # the seat has the absolute or tied majority (and a crew)
            maj = self._at_least(level[k], base_k, base_k + most[k], need, f"maj{k}")
            if not isinstance(maj, int):
                climbs.append((need - base_k) * maj)
            if k == 0:
                cap = LEVEL_REWARD[0] * (sum(s.stratos[LEVELS * seat : LEVELS * seat + LEVELS]) + 3)
                reward = m.new_int_var(0, cap, "reward1")  # at most the reward, and 0 without majority
                m.add(reward <= LEVEL_REWARD[0] * sum(level))
                m.add(reward <= cap * maj)
                self.totals[seat] += reward
            else:
                base = facts[seat].longest if k == 1 else facts[seat].sets
                self.totals[seat] += LEVEL_REWARD[k] * base * maj
            for o in range(owners):
                theirs = s.stratos[LEVELS * o + k]
                if o == seat or theirs == 0 or theirs < rival_top:
                    continue
                # 1 unless the seat passes them
                keeps = 1 - self._at_least(level[k], base_k, base_k + most[k], theirs + 1, f"pass{o}_{k}")
                f = facts[o]
                base_o = (sum(s.stratos[LEVELS * o : LEVELS * o + LEVELS]), f.longest, f.sets)[k]
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
        solver, status = _solve(m, limits, linearization=0, probing=0, presolve=False)
        st = _STATUS[status]
        if st not in (Status.OPTIMAL, Status.FEASIBLE):
            return st, 0, 0, Placement((), ())
        placed = tuple(h for h, v in self.place.items() if solver.value(v))
        if self.single:
            tall = [k for k, v in self.tall.items() if solver.value(v)]
            tubes = tuple((h, tall[0]) for (h, _), v in self.drop.items() if solver.value(v))
        else:
            tubes = tuple((h, k) for (h, k), v in self.drop.items() if solver.value(v))
        return st, int(solver.value(margin)), int(solver.best_objective_bound), Placement(placed, tubes)


def _best_placement_cpsat(
    g: CytressGame, s: CytressState, inst: _PlaceInstance, limits: SolveLimits
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
    g, s = _game(game), _state(state)
    if s.owners < 2:
        raise InvalidStateError("a margin needs a rival", field="state.players")
    inst = _place_instance(s, params)
    method = _choice_param(params, "method", ("cp-sat", "enumeration"))
    if method == "enumeration":
        found = best_placement_enumeration(g, s, inst, time.perf_counter() + float(limits.time_limit_s))
        assert found is not None  # placing nothing is always a placement
        value, placement = found
        status, bound = Status.OPTIMAL, value
    else:
        status, value, bound, placement = _best_placement_cpsat(g, s, inst, limits)
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


register_scorer("cytress", score)
register_puzzle(
    "cytress",
    "cytress.score",
    score_puzzle,
    summary="If the rebellion broke out now: every rebel's PRESTIGE by category, and who controls each "
    "waste tube and by how many crews.",
    params_schema=SCORE_PARAMS,
)
register_puzzle(
    "cytress",
    "cytress.tube_control",
    tube_control,
    summary="How few crews must this seat still place (and where) to take or keep a waste tube whatever "
    "the rivals place around it?",
    params_schema=TUBE_CONTROL_PARAMS,
)
register_puzzle(
    "cytress",
    "cytress.best_placement",
    best_placement,
    summary="Where should this seat put its next crews and which waste tubes should it drop to end with "
    "the largest PRESTIGE margin over the best rival?",
    params_schema=BEST_PLACEMENT_PARAMS,
)


# ============================================================================ hint advice
ADVICE_LABEL = "final PRESTIGE margin"
"""What the advice's values measure (the hint's first number): the mover's PRESTIGE minus the best
rival's (solo: the automa's) if the rebellion broke out after the move and its best placement."""


def _crew_values(
    g: CytressGame, s: CytressState, hexes: Sequence[int], limits: SolveLimits
) -> dict[int, tuple[int, Placement]] | None:
    """Per hex, the best final margin with the mover's crew placed there and then its best waste
    tube drop on one of its crews (when tube sections are left): the best placement, CP-SAT, with
    the crew's hex fixed. None when a solve is not proven optimal within the limits."""
    seat = s.actor
    facts = card_facts(g.pack, s)
    sections = buildable(s)
    deadline = time.perf_counter() + float(limits.time_limit_s)
    out: dict[int, tuple[int, Placement]] = {}
    for h in hexes:
        left = deadline - time.perf_counter()
        if left <= 0 or (limits.stop is not None and limits.stop()):
            return None
        inst = _PlaceInstance(seat, 1, 1 if sections else 0, sections, (h,))
        status, _, _, found = _best_placement_cpsat(
            g, s, inst, SolveLimits(time_limit_s=left, workers=1, stop=limits.stop)
        )
        if status != Status.OPTIMAL:
            return None
        placement = Placement((h,), found.tubes)  # the crew only adds to the mover's counts
        out[h] = (margin_of(facts, s, seat, placement), placement)
    return out


def hint_advice(
    game: Game[Any, Any], state: Any, actions: tuple[Any, ...], limits: SolveLimits
) -> Advice | None:
    """The exact advice behind a hint where the mover places a crew or drops a waste tube
    (``solver.core.Advice``; rule: cytress/meet-a-faction, cytress/waste-tubes): every legal hex
    valued by the mover's final PRESTIGE margin over the best rival (solo: the automa) by the
    engine's own scoring, rivals standing still. A crew's hex: the best placement (CP-SAT) with the
    crew there and then the mover's best waste tube drop (hex and height, its cost not counted); a
    tube's hex: the margin with the tube of the chosen height there. None at any other decision,
    with no rival, or when the solves do not finish within the limits."""
    del actions  # every legal hex is valued
    if not isinstance(game, CytressGame) or not isinstance(state, CytressState):
        return None
    s = state
    if s.phase == OVER or s.owners < 2 or not 0 <= s.actor < s.players:
        return None
    legal = list(game.legal_actions(s))
    kinds = {a.kind for a in legal}
    labels = s.map.layout.labels
    whom = "the automa" if s.solo else "the best rival"
    values: dict[str, float] = {}
    sentences: dict[str, str] = {}
    if kinds == {"crew"}:
        found = _crew_values(game, s, [a.arg for a in legal], limits)
        if found is None:
            return None
        for a in legal:
            margin, placement = found[a.arg]
            text = game.action_to_text(s, a)
            then = "; ".join(f"then a {k}-high waste tube on {labels[h]}" for h, k in placement.tubes)
            values[text] = float(margin)
            sentences[text] = f"final margin over {whom} {margin:+d} PRESTIGE" + (
                f" ({then})" if then else ""
            )
        method = "CP-SAT best placement (cytress.best_placement)"
        assumption = "rivals stand still; then your best waste tube drop, its cost not counted"
    elif kinds == {"tube"}:
        facts = card_facts(game.pack, s)
        height = s.pending.height
        for a in legal:
            margin = margin_of(facts, s, s.actor, Placement((), ((a.arg, height),)))
            text = game.action_to_text(s, a)
            values[text] = float(margin)
            sentences[text] = f"final margin over {whom} {margin:+d} PRESTIGE with the tube there"
        method = "exact scoring of the rebellion (cytress.best_placement's margin)"
        assumption = "rivals stand still"
    else:
        return None
    best = max(values, key=values.__getitem__)  # the first legal hex on ties
    return Advice(
        label=f"{ADVICE_LABEL} over {whom}",
        unit="PRESTIGE",
        values=values,
        best=best,
        method=method,
        assumption=assumption,
        sentences=sentences,
    )


register_advice("cytress", hint_advice)
