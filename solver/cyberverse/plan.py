"""``cyberverse.activation_plan`` (CP-SAT, cross-checked against brute force) and the hint advice at
an Agent's move: which Agents to send to which district with the 3 Actions to maximise expected
clues plus influence, under movement costs."""

from __future__ import annotations

import itertools
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ortools.sat.python import cp_model

from games.core import Game
from games.cyberverse.agents import movement_points
from games.cyberverse.content import Content
from games.cyberverse.game import CyberverseGame
from games.cyberverse.investigation import TEST, test_total
from games.cyberverse.state import ACTIVATION, D_MOVE, WOUND, State
from solver.core import Advice, SolveLimits, SolveResult, Status, check_param_keys, past_deadline_or_stopped
from solver.cyberverse.odds import single_test_odds
from solver.cyberverse.params import SCALE, game_of, seat_of, state_of


# ============================================================================ activation plan
@dataclass(frozen=True, slots=True)
class ActivationProblem:
    """One Organization's activation as an assignment problem.

    Attributes:
        agents: the Agents' names.
        current: per Agent, its district (-1 in HQ).
        reach: per Agent, the districts it may end in (its own included).
        clue: per Agent and district, the expected clues (thousandths) of its tests there.
        influence: per district, the value (thousandths) of holding it alone (0 if impossible).
        actions: Actions available (3).
    """

    agents: tuple[str, ...]
    current: tuple[int, ...]
    reach: tuple[frozenset[int], ...]
    clue: tuple[tuple[int, ...], ...]
    influence: tuple[int, ...]
    actions: int


def plan_value(p: ActivationProblem, plan: Sequence[int]) -> int:
    """The objective of a plan (one district or -1 per Agent)."""
    total = sum(p.clue[i][d] for i, d in enumerate(plan) if d >= 0)
    held = {d for d in plan if d >= 0}
    return total + sum(p.influence[d] for d in held)


def _moves(p: ActivationProblem, plan: Sequence[int]) -> int:
    return sum(1 for i, d in enumerate(plan) if d != p.current[i])


def brute_force_plan(p: ActivationProblem) -> tuple[int, tuple[int, ...]]:
    """The best plan by enumeration (for cross-checks)."""
    best, arg = -1, tuple(p.current)
    options = [sorted(r | {p.current[i]}) for i, r in enumerate(p.reach)]
    for plan in itertools.product(*options):
        if _moves(p, plan) <= p.actions:
            v = plan_value(p, plan)
            if v > best:
                best, arg = v, tuple(plan)
    return best, arg


def solve_plan(
    p: ActivationProblem, limits: SolveLimits | None = None
) -> tuple[int, tuple[int, ...], Status]:
    """The best plan by CP-SAT: x[a, d] one district per Agent, moves within the Actions, y[d] a
    district held (influence counted once)."""
    limits = limits or SolveLimits()
    m = cp_model.CpModel()
    x: dict[tuple[int, int], Any] = {}
    for i, r in enumerate(p.reach):
        for d in sorted(r | {p.current[i]}):
            x[i, d] = m.new_bool_var(f"x{i}_{d}")
        m.add_exactly_one(x[i, d] for d in sorted(r | {p.current[i]}))
    m.add(sum(v for (i, d), v in x.items() if d != p.current[i]) <= p.actions)
    y = {}
    for d in range(5):
        here = [v for (i, dd), v in x.items() if dd == d]
        if here and p.influence[d] > 0:
            y[d] = m.new_bool_var(f"y{d}")
            m.add(y[d] <= sum(here))
    m.maximize(
        sum(p.clue[i][d] * v for (i, d), v in x.items() if d >= 0)
        + sum(p.influence[d] * v for d, v in y.items())
    )
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = max(0.1, limits.time_limit_s)
    solver.parameters.num_workers = max(1, limits.workers)
    code = solver.solve(m)
    if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return -1, tuple(p.current), Status.UNKNOWN
    plan = tuple(
        next(d for (ii, d), v in x.items() if ii == i and solver.value(v)) for i in range(len(p.agents))
    )
    return plan_value(p, plan), plan, Status.OPTIMAL if code == cp_model.OPTIMAL else Status.FEASIBLE


def _reach(s: State, c: Content, agent: Any) -> frozenset[int]:
    """Districts the Agent can end its move in (rule: cyberverse/moving-agents): anywhere from its HQ;
    else through the Entry zone with its Movement points (not out of the district when Wounded)."""
    if agent.district < 0:
        return frozenset(range(5))
    return reachable_after(s, c, agent, movement_points(c, agent), ())


def reachable_after(s: State, c: Content, agent: Any, mp: int, visited: tuple[int, ...]) -> frozenset[int]:
    """Districts an Agent on a district board can still go on to with ``mp`` Movement points: out
    through the Entry zone, never back to a district in ``visited``, not at all when
    Wounded (rule: cyberverse/moving-agents, cyberverse/status-tokens)."""
    from games.cyberverse.activation import travel_cost

    if WOUND in agent.status:
        return frozenset()
    board = c.boards[s.city.boards[agent.district]]
    mp -= board.distance[agent.zone][board.entry]
    best = {agent.district: 0}
    todo = [agent.district]
    while todo:
        d = todo.pop()
        for e in range(5):
            cost = best[d] + travel_cost(s, c, agent, d, e)
            if e != d and e not in visited and cost <= mp and cost < best.get(e, 99):
                best[e] = cost
                todo.append(e)
    return frozenset(best) - {agent.district}


def activation_problem(s: State, c: Content, seat: int) -> ActivationProblem:
    """The seat's activation as an :class:`ActivationProblem` from the state."""
    org = s.orgs[seat]
    agents = [a for a in s.agents if a.org == seat and not a.recruited and not a.trained]
    others = {a.district for a in s.agents if a.org != seat and a.district >= 0}
    each = s.options.tests == "each-mission"  # an Agent tests every open Mission of its district
    clue = []
    for a in agents:
        row = []
        for d in range(5):
            odds = [0.0]
            for k, card in enumerate(org.cases):
                for i, m in enumerate(c.investigations[card].missions):
                    if m.kind == TEST and m.district == d and i not in org.done[k]:
                        total = test_total(s, c, a, m.feature, xp=0, district=d)
                        odds.append(single_test_odds(org.deck, org.discard, total, m.threshold))
            row.append(round((sum(odds) if each else max(odds)) * SCALE))
        clue.append(tuple(row))
    influence = tuple(SCALE if d not in others and org.influence[d] < 3 else 0 for d in range(5))
    return ActivationProblem(
        agents=tuple(c.faces[2 * a.sheet + a.side].name for a in agents),
        current=tuple(a.district for a in agents),
        reach=tuple(_reach(s, c, a) for a in agents),
        clue=tuple(clue),
        influence=influence,
        actions=org.actions if s.phase in (3, 4) else 3,
    )


ACTIVATION_PARAMS: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "seat": {
            "type": "integer",
            "description": "The Organization to plan for (default: the seat to move).",
        },
    },
}


def activation_plan(
    game: Game[Any, Any], state: Any, params: Mapping[str, Any], limits: SolveLimits
) -> SolveResult:
    """The best assignment of Agents to districts for this turn's Actions (CP-SAT)."""
    t0 = time.perf_counter()
    g, s = game_of(game), state_of(state)
    c = g.content_pack
    params = check_param_keys(params, ACTIVATION_PARAMS)
    seat = seat_of(s, params)
    p = activation_problem(s, c, seat)
    if not p.agents:
        return SolveResult(
            kind="cyberverse.activation_plan",
            status=Status.OPTIMAL,
            answer={"plan": {}},
            explanation="No Agent can be activated this turn: recruit one with an Auxiliary Action.",
            method="none",
            wall_s=time.perf_counter() - t0,
        )
    value, plan, status = solve_plan(p, limits)
    names = c.district_names
    moves = {p.agents[i]: ("headquarters" if d < 0 else names[d]) for i, d in enumerate(plan)}
    sends = [f"{a} to {w}" for (a, w), d, cur in zip(moves.items(), plan, p.current, strict=True) if d != cur]
    text = "Send " + ", ".join(sends) if sends else "Keep every Agent where it stands"
    text += f": {value / SCALE:.2f} expected clues and districts held."
    return SolveResult(
        kind="cyberverse.activation_plan",
        status=status,
        objective=value / SCALE,
        bound=value / SCALE,
        answer={"plan": moves, "value": value / SCALE},
        explanation=text,
        method="CP-SAT assignment",
        wall_s=time.perf_counter() - t0,
    )


# ============================================================================ hint advice
ADVICE_LABEL = "expected clues and districts held by the best plan after it"
"""What the hint advice's values measure (the activation plan's objective, see ``activation_plan``)."""


def _rest_of_activation(
    s: State, c: Content, seat: int, limits: SolveLimits
) -> tuple[int, tuple[int, ...], ActivationProblem]:
    """The best plan for the rest of ``seat``'s Activation phase from ``s`` (rule:
    cyberverse/activation-phase): the Agents already activated stay, the one moving goes on with the
    Movement points it has left (its Action already spent), those still waiting in the Initiative
    order move as in ``activation_plan``. Returns (objective in thousandths, the plan, the problem)."""
    p = activation_problem(s, c, seat)
    agents = [a for a in s.agents if a.org == seat and not a.recruited and not a.trained]
    ctx = s.ctx
    moving_phase = s.phase == ACTIVATION and s.step == D_MOVE
    waiting = set(ctx.queue) if s.phase == ACTIVATION else set()
    reach = list(p.reach)
    moving, onward = -1, frozenset[int]()
    for i, a in enumerate(agents):
        if moving_phase and a.sheet == ctx.agent and ctx.started:
            moving, onward = i, reachable_after(s, c, a, ctx.mp, ctx.visited)
            reach[i] = frozenset()
        elif a.sheet not in waiting and not (moving_phase and a.sheet == ctx.agent):
            reach[i] = frozenset()  # activated already (or never this turn): it stays
    p = replace(p, reach=tuple(reach))
    if moving < 0:
        value, plan, _ = solve_plan(p, limits)
        return value, plan, p
    best: tuple[int, tuple[int, ...]] = (-1, p.current)
    for end in sorted({p.current[moving], *onward}):  # its further steps cost no Action: each end fixed
        q = replace(p, current=tuple(end if i == moving else d for i, d in enumerate(p.current)))
        value, plan, _ = solve_plan(q, limits)
        best = max(best, (value, plan))
    return best[0], best[1], p


def hint_advice(
    game: Game[Any, Any], state: Any, actions: tuple[Any, ...], limits: SolveLimits
) -> Advice | None:
    """At an Agent's move in the Activation phase (rule: cyberverse/activation-phase,
    cyberverse/moving-agents), every legal step valued by the best activation plan after it (CP-SAT,
    ``solve_plan``): the expected clues of the Missions the Agents may test where they end, plus the
    districts the Organization would hold alone. None elsewhere."""
    del actions  # every legal step is valued: a few small CP-SAT models
    if not isinstance(game, CyberverseGame) or not isinstance(state, State):
        return None
    s, c = state, game.content_pack
    if s.phase != ACTIVATION or s.step != D_MOVE or s.actor < 0:
        return None
    seat = s.actor
    deadline = time.perf_counter() + limits.time_limit_s
    values: dict[str, float] = {}
    sentences: dict[str, str] = {}
    for a in game.legal_actions(s):
        if past_deadline_or_stopped(deadline, limits.stop):
            return None
        value, plan, p = _rest_of_activation(game.apply(s, a), c, seat, limits)
        text = game.action_to_text(s, a)
        values[text] = value / SCALE
        ends = [
            f"{name} in {'its HQ' if d < 0 else c.district_names[d]}"
            for name, d in zip(p.agents, plan, strict=True)
        ]
        sentences[text] = f"{value / SCALE:.2f} expected clues and districts held, ending with " + (
            ", ".join(ends) or "no Agent activated"
        )
    if not values:
        return None
    return Advice(
        label=ADVICE_LABEL,
        unit="points",
        values=values,
        best=max(values, key=values.__getitem__),  # the first legal step on ties
        decides=len(set(values.values())) > 1,  # every step alike: the plan has nothing to say
        method="CP-SAT assignment (solver.cyberverse.solve_plan)",
        assumption="this Activation phase only; the other Organizations' Agents stay where they stand",
        sentences=sentences,
    )
