"""The builder: a legal first answer, then the decomposition over the special systems, then the
complete model's large neighbourhood search; the baselines and brute force.

- **The first answer** (:func:`first_answer`): the swap hill-climber's map after a share of the time,
  a random legal deal, or the rules-only model's galaxy: whatever the time limit, a legal map before
  the search, and every later answer is at least as good (each stage keeps the best).
- **The decomposition** (:func:`decompose`, a full galaxy): the *special* systems (anomalies and
  wormholes) shape movement and the adjacency rules, the *ordinary* systems do not. With the special
  systems placed, every home value of every weight set is linear in where the ordinary systems go,
  and ``solver.ti4.ordinary.solve_ordinary`` solves that exactly with an **aggregated** CP-SAT model
  (spaces and tiles in classes, the variables *how many* tiles of each class go to each space
  class; that module's docstring says which). A local search over the special systems
  (move one to another space, or swap it for an unused tile of its back) calls it at each step.
  It stops at objective 0 - a proof, nothing is below 0 - or hands over to the complete model
  (``solver.ti4.model``) for large neighbourhood search from the best map.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import replace

from games.errors import LictorError
from games.ti4.balance import (
    IMPASSABLE,
    NEBULA,
    SCALE,
    movement,
)
from games.ti4.content import Content, Pos, TileId
from solver.core import Status
from solver.ti4.bounds import total_bound
from solver.ti4.model import known, solve_full
from solver.ti4.ordinary import POLISH_S, ordinary_model
from solver.ti4.problem import (
    MapProblem,
    MapSolution,
    clash_pairs,
    legal_galaxy,
    objective_units,
    precheck_map,
    special,
)
from solver.ti4.rules import feasible_map

__all__ = [
    "brute_force_map",
    "first_answer",
    "hill_climb_map",
    "random_legal_map",
    "solve_map",
]

LNS_OPEN = 12
"""Above this many open positions the builder decomposes (:func:`decompose`); smaller problems get
the complete CP-SAT model (OPTIMAL proofs, as in the brute-force cross-checks)."""
LNS_MIN_S = 3.0
"""The least time for the final large neighbourhood search on the complete model (building the model
of a full galaxy takes about a second); with less, the decomposition gets the whole time."""
LNS_ONLY = True
"""Whether the complete model's final phase is large neighbourhood search only (else CP-SAT's full
search from the best map: with one worker it finds the coordinated moves of several systems)."""
STEP_S = 0.1
"""Least CP-SAT time per step of :func:`decompose` (the aggregated model; often proven sooner); a
step gets a twentieth of the budget up to :data:`STEP_MAX_S`, the first step three times that."""
STEP_MAX_S = 4.0
RESTART_AFTER = 12
"""Steps of :func:`decompose` without a strict improvement before the walk starts again from a random
legal map (the best map is kept)."""


def solve_map(
    content: Content,
    problem: MapProblem,
    *,
    time_limit_s: float = 10.0,
    workers: int = 2,
    seed: int = 0,
    stop: Callable[[], bool] | None = None,
    hint: Mapping[Pos, TileId] | None = None,
    warm_start: float = 0.1,
    lns_share: float = 0.3,
    presolve: bool | None = None,
) -> MapSolution:
    """The galaxy with the smallest objective: the measure's gap plus the weighted secondary terms.

    Up to :data:`LNS_OPEN` open positions: the complete CP-SAT model (OPTIMAL is a proof). A full
    galaxy: the decomposition (:func:`decompose`); its answer is OPTIMAL when it reaches 0, the least
    possible value, or the bound below. ``warm_start``: the share of the time the hill-climber spends
    first on a full galaxy (0: a random legal map); ``hint``: a first answer given by the caller
    instead. The answer is never worse than the first answer. A counting argument
    (``bounds.total_bound``) may prove a bound above 0; the answer is OPTIMAL when it reaches it
    (``proof`` says why).
    """
    if precheck_map(content, problem):
        return MapSolution(galaxy={}, values=(), gap=0.0, bound=0.0, status=Status.INFEASIBLE)
    floor = total_bound(content, problem)
    sol = _search(
        content,
        problem,
        time_limit_s=time_limit_s,
        workers=workers,
        seed=seed,
        stop=stop,
        hint=hint,
        warm_start=warm_start,
        lns_share=lns_share,
        presolve=presolve,
        floor=floor,
    )
    if floor is None or sol.status not in (Status.OPTIMAL, Status.FEASIBLE):
        return sol
    units, why = floor
    if round(sol.objective * SCALE) <= units:
        return replace(sol, status=Status.OPTIMAL, bound=sol.objective, proof=why)
    return replace(sol, bound=max(sol.bound, units / SCALE), proof=why) if units / SCALE > sol.bound else sol


def _search(
    content: Content,
    problem: MapProblem,
    *,
    time_limit_s: float,
    workers: int,
    seed: int,
    stop: Callable[[], bool] | None,
    hint: Mapping[Pos, TileId] | None,
    warm_start: float,
    lns_share: float,
    presolve: bool | None,
    floor: tuple[int, str] | None,
) -> MapSolution:
    """:func:`solve_map` without the counting bound (``floor``: it, to stop the search on reaching it)."""
    start = time.perf_counter()
    deadline = start + time_limit_s
    big = len(problem.open) > LNS_OPEN
    if hint is not None and not legal_galaxy(content, problem, {**problem.fixed, **hint}):
        hint = None
    if hint is None:
        hint, infeasible = first_answer(
            content, problem, seed, warm_start * time_limit_s if big else 0.0, stop, deadline=deadline
        )
        if infeasible:
            return MapSolution(galaxy={}, values=(), gap=0.0, bound=0.0, status=Status.INFEASIBLE)
    if not big:
        left = max(0.05, deadline - time.perf_counter())
        return solve_full(
            content,
            problem,
            hint,
            time_limit_s=left,
            workers=workers,
            seed=seed,
            stop=stop,
            presolve=presolve,
        )
    if hint is None:  # no legal map found in time: say so (UNKNOWN), never a wrong INFEASIBLE
        return MapSolution(galaxy={}, values=(), gap=0.0, bound=0.0, status=Status.UNKNOWN)
    lns = lns_share * time_limit_s >= LNS_MIN_S
    split = start + (1 - lns_share) * time_limit_s if lns else deadline
    least = 0 if floor is None else floor[0]
    galaxy, units = decompose(
        content, problem, hint, deadline=split, workers=workers, seed=seed, stop=stop, least=least
    )
    left = deadline - time.perf_counter()
    if units <= least or not lns or left < LNS_MIN_S / 2 or (stop is not None and stop()):
        return known(content, problem, galaxy, Status.OPTIMAL if units == 0 else Status.FEASIBLE)
    return solve_full(
        content,
        problem,
        galaxy,
        time_limit_s=left,
        workers=workers,
        seed=seed,
        stop=stop,
        presolve=presolve,
        lns=LNS_ONLY,
    )


def first_answer(
    content: Content,
    problem: MapProblem,
    seed: int,
    seconds: float,
    stop: Callable[[], bool] | None = None,
    *,
    deadline: float | None = None,
) -> tuple[dict[Pos, TileId] | None, bool]:
    """A legal first answer: the hill-climber's map after ``seconds`` (a random legal map if 0), or
    the rules-only model's galaxy when random deals keep clashing. Returns (galaxy or None, whether
    no legal galaxy exists at all: the rules-only model proved it)."""
    rng = random.Random(seed)
    try:
        if seconds > 0:
            return hill_climb_map(content, problem, rng, seconds=seconds, stop=stop)[0], False
        return random_legal_map(content, problem, rng, tries=300), False
    except LictorError:
        pass
    left = 5.0 if deadline is None else max(0.1, deadline - time.perf_counter())
    found, proven = feasible_map(content, problem, time_limit_s=min(left, 5.0), seed=seed, stop=stop)
    return found, proven


# ============================================================================ the special systems


def decompose(
    content: Content,
    problem: MapProblem,
    first: Mapping[Pos, TileId],
    *,
    deadline: float,
    workers: int,
    seed: int,
    stop: Callable[[], bool] | None,
    least: int = 0,
) -> tuple[dict[Pos, TileId], int]:
    """The builder on a full galaxy: a local search over the *special* systems (anomalies and
    wormholes) whose every step deals the ordinary systems anew by the exact aggregated CP-SAT model
    of :func:`solve_ordinary`. A step moves a special system to another space or swaps it with an
    unused tile of its back; it is kept when the objective does not grow. Starts from the legal map
    ``first``; ends at objective ``least`` (0, or a proven bound: nothing is below), at the deadline or
    on ``stop``.
    Returns (galaxy, objective units), never worse than ``first``."""
    rng = random.Random(seed)
    loose = replace(problem, specialty_within=0, max_legendary_per_home=-1)  # the ordinary deal fixes these
    steps = _Steps(content, problem, rng, deadline=deadline, stop=stop)
    # when the homes' total cannot make equal values unless a system is cut off, cut offs are the way
    cut_share = 0.5 if not least and total_bound(content, problem, cut_offs=False) else 0.15
    best, units = dict(first), objective_units(content, problem, first)
    if units > least and not steps.over():
        out = steps.deal(best, first_step=True)
        if out is not None and objective_units(content, problem, out) <= units:
            best, units = out, objective_units(content, problem, out)
    cur, cur_units, stale = dict(best), units, 0
    while units > least and not steps.over():
        if stale >= RESTART_AFTER:  # the walk is stuck: start it again from a random legal map
            cur, cur_units, stale = *steps.restart(loose, best, units), 0
            continue
        cand = _perturb(content, loose, cur, rng, cut_share)
        if cand is None:
            stale += 1
            continue
        out = steps.deal(cand, cap=cur_units)
        if out is None:
            if not legal_galaxy(content, problem, cand):
                stale += 1
                continue
            out = cand
        got = objective_units(content, problem, out)
        stale = 0 if got < cur_units else stale + 1
        if got <= cur_units:
            cur, cur_units = out, got
        if got < units:
            best, units = out, got
    return best, units


class _Steps:
    """The steps of :func:`decompose`: their time (a twentieth of the budget, at least
    :data:`STEP_S`, at most :data:`STEP_MAX_S`; longer budgets: longer, surer steps), the deal of the
    ordinary systems each one makes, and the restart of a stuck walk."""

    def __init__(
        self,
        content: Content,
        problem: MapProblem,
        rng: random.Random,
        *,
        deadline: float,
        stop: Callable[[], bool] | None,
    ) -> None:
        self.content, self.problem, self.rng = content, problem, rng
        self.deadline, self.stop = deadline, stop
        budget = max(0.0, deadline - time.perf_counter())
        self.step = min(STEP_MAX_S, max(STEP_S, budget / 20))
        self.polish = min(POLISH_S, self.step / 2)

    def over(self) -> bool:
        """Whether the walk must end (a step needs a few hundredths of a second to build its model)."""
        return time.perf_counter() >= self.deadline - 0.03 or (self.stop is not None and self.stop())

    def deal(
        self, galaxy: Mapping[Pos, TileId], *, first_step: bool = False, cap: int | None = None
    ) -> dict[Pos, TileId] | None:
        """The ordinary systems of ``galaxy`` dealt anew by the aggregated model (the first step
        gets three times a step's time; ``cap``: see :func:`ordinary_model`)."""
        return ordinary_model(
            self.content,
            self.problem,
            galaxy,
            time_limit_s=max(
                0.02, min(3 * self.step if first_step else self.step, self.deadline - time.perf_counter())
            ),
            workers=1,
            seed=self.rng.randrange(2**31),
            stop=self.stop,
            polish_s=self.polish,
            deadline=self.deadline,
            cap=cap,
        )

    def restart(
        self, loose: MapProblem, best: Mapping[Pos, TileId], units: int
    ) -> tuple[dict[Pos, TileId], int]:
        """A new start of the walk: a random legal map of ``loose`` (else the best map), its ordinary
        systems dealt anew; with its objective units (``units``, the best's, if it is not legal)."""
        content, problem = self.content, self.problem
        try:
            cur = random_legal_map(content, loose, self.rng, tries=300)
        except LictorError:
            cur = dict(best)
        out = self.deal(cur)
        cur = out if out is not None else cur
        return cur, objective_units(content, problem, cur) if legal_galaxy(content, problem, cur) else units


def _perturb(
    content: Content,
    problem: MapProblem,
    galaxy: Mapping[Pos, TileId],
    rng: random.Random,
    cut_share: float = 0.15,
) -> dict[Pos, TileId] | None:
    """A random legal neighbour of ``galaxy`` that moves a special system (see :func:`decompose`)."""
    tiles = content.tiles
    specials = [p for p in problem.open if special(content, galaxy[p])]
    ordinary = [p for p in problem.open if p not in specials]
    unused = [t for t in problem.pool if t not in galaxy.values()]
    spare_special = [t for t in unused if special(content, t)]
    for _ in range(50):
        h = dict(galaxy)
        move = rng.random()
        if move < cut_share:  # blockers onto every way to one system
            cut = _cut_off(content, problem, galaxy, rng)
            if cut is None:
                continue
            h = cut
        elif specials and ordinary and move < max(0.6, cut_share + 0.3):  # a special system elsewhere
            a, b = rng.choice(specials), rng.choice(ordinary)
            h[a], h[b] = galaxy[b], galaxy[a]
        elif len(specials) > 1 and move < max(0.7, cut_share + 0.4):  # two special systems change places
            a, b = rng.sample(specials, 2)
            h[a], h[b] = galaxy[b], galaxy[a]
        elif spare_special and move < 0.85:  # an unused special system in, of the same back
            t = rng.choice(spare_special)
            spots = [p for p in problem.open if tiles[galaxy[p]].pile == tiles[t].pile]
            if not spots:
                continue
            h[rng.choice(spots)] = t
        elif specials:  # a special system out, an unused tile of its back in
            a = rng.choice(specials)
            backs = [t for t in unused if tiles[t].pile == tiles[galaxy[a]].pile]
            if not backs:
                continue
            h[a] = rng.choice(backs)
        else:
            return None
        if legal_galaxy(content, problem, h):
            return h
    return None


def _cut_off(
    content: Content, problem: MapProblem, galaxy: Mapping[Pos, TileId], rng: random.Random
) -> dict[Pos, TileId] | None:
    """``galaxy`` with blockers (systems a ship cannot enter or cannot leave by the first weight
    set: supernovae, asteroid fields without Antimass Deflectors, nebulae that cannot be left) moved
    onto every space through which the homes reach one system at 2 moves: that system then counts
    for nobody (the one neighbourhood that changes what the homes share in total). None when the
    measure reaches farther than 2 moves or the blockers do not suffice."""
    w, tiles, adj = problem.weights, content.tiles, content.board.adjacent
    if w.reach != 2:
        return None

    def blocks(p: Pos) -> bool:
        if p not in galaxy or galaxy[p] not in tiles:
            return False
        kind = movement(tiles[galaxy[p]], w).kind
        return kind == IMPASSABLE or (kind == NEBULA and w.nebula_stops)

    homes = set(problem.homes)
    blockers = [p for p in problem.open if blocks(p)]
    options = []  # (target, its gates, the gates still to block) the blockers suffice for
    for q in problem.spaces:
        if not q or q in homes or homes & set(adj[q]):
            continue
        gates = [m for m in adj[q] if m in problem.spaces and m and m not in homes and homes & set(adj[m])]
        need = [m for m in gates if not blocks(m)]
        spare = [p for p in blockers if p not in gates]
        if need and len(need) <= len(spare) and all(m in problem.open for m in need):
            options.append((q, gates, need))
    if not options:
        return None
    q, gates, need = rng.choice(options)
    movers = [p for p in blockers if p not in gates]
    h = dict(galaxy)
    for a, m in zip(rng.sample(movers, len(need)), need, strict=True):
        h[a], h[m] = h[m], h[a]
    keep = {q, *gates}
    if q in problem.open and special(content, h[q]):  # the system cut off: an ordinary one, worth counting
        plain = [r for r in problem.open if r not in keep and not special(content, h[r])]
        if plain:
            r = rng.choice(plain)
            h[q], h[r] = h[r], h[q]
    for _ in range(8):  # anomalies and wormholes now next to a blocker go elsewhere
        bad = [p for p, r, _ in clash_pairs(content, problem, h) for p in (p, r) if p not in keep]
        if not bad:
            return h
        a = rng.choice(bad)
        calm = [
            r
            for r in problem.open
            if r not in keep
            and not special(content, h[r])
            and not any(x in h and h[x] in tiles and special(content, h[x]) for x in adj[r])
        ]
        if a not in problem.open or not calm:
            return h
        r = rng.choice(calm)
        h[a], h[r] = h[r], h[a]
    return h


# ============================================================================ baselines and brute force


def random_legal_map(
    content: Content, problem: MapProblem, rng: random.Random, *, tries: int = 2000
) -> dict[Pos, TileId]:
    """A random legal galaxy: random tiles of the deal's counts, reshuffled until legal (the rules-only
    model's galaxy when that keeps failing, e.g. with quotas); ``LictorError`` if none is found."""
    tiles = content.tiles
    blue = [t for t in problem.pool if tiles[t].pile == "blue"]
    red = [t for t in problem.pool if tiles[t].pile == "red"]
    need = set(problem.required)
    for _ in range(0 if problem.quotas else tries):
        chosen = rng.sample(blue, problem.blue) + rng.sample(red, problem.red)
        if not need <= set(chosen):
            continue
        rng.shuffle(chosen)
        galaxy = {**problem.fixed, **dict(zip(problem.open, chosen, strict=True))}
        if legal_galaxy(content, problem, galaxy):
            return galaxy
    found, _ = feasible_map(content, problem, time_limit_s=2.0, seed=rng.randrange(2**31))
    if found is None:
        raise LictorError("no random legal galaxy found", field="params")
    return found


def hill_climb_map(
    content: Content,
    problem: MapProblem,
    rng: random.Random,
    *,
    seconds: float,
    restarts: bool = True,
    stop: Callable[[], bool] | None = None,
) -> tuple[dict[Pos, TileId], float]:
    """The builder's warm start: a random legal map, then swaps (two positions, or a position and an
    unused tile of the same back) kept when the objective falls, restarting from a new random map
    when no swap helps; returns the best (galaxy, objective in value points) within ``seconds``.
    (The benchmark's baseline is its own, independent hill-climber: ``bench/_ti4_hill_climb.py``.)"""
    end = time.perf_counter() + seconds
    tiles = content.tiles
    best: tuple[dict[Pos, TileId], int] | None = None

    def over() -> bool:
        return time.perf_counter() >= end or (stop is not None and stop())

    while best is None or not over():
        g = random_legal_map(content, problem, rng)
        cur = objective_units(content, problem, g)
        improved = True
        while improved and cur > 0 and not over():
            improved = False
            unused = [t for t in problem.pool if t not in g.values()]
            moves: list[tuple[Pos, Pos | None, TileId]] = [
                (a, b, 0) for a, b in itertools.combinations(problem.open, 2)
            ] + [(a, None, t) for a in problem.open for t in unused if tiles[t].pile == tiles[g[a]].pile]
            rng.shuffle(moves)
            for a, b, t in moves:
                h = dict(g)
                if b is None:
                    h[a] = t
                else:
                    if g[a] == g[b]:
                        continue
                    h[a], h[b] = g[b], g[a]
                if not legal_galaxy(content, problem, h):
                    continue
                v = objective_units(content, problem, h)
                if v < cur:
                    g, cur, improved = h, v, True
                    break
                if over():
                    break
        if best is None or cur < best[1]:
            best = (g, cur)
        if not restarts or best[1] == 0:
            break
    return best[0], best[1] / SCALE


def brute_force_map(content: Content, problem: MapProblem) -> tuple[float, dict[Pos, TileId]] | None:
    """The smallest objective (the gap, plus the weighted secondary terms if any) over every legal
    galaxy, with a galaxy that has it (exhaustive: small problems only)."""
    best: tuple[float, dict[Pos, TileId]] | None = None
    for chosen in itertools.permutations(problem.pool, len(problem.open)):
        galaxy = {**problem.fixed, **dict(zip(problem.open, chosen, strict=True))}
        if not legal_galaxy(content, problem, galaxy):
            continue
        gap = objective_units(content, problem, galaxy) / SCALE
        if best is None or gap < best[0]:
            best = (gap, galaxy)
    return best
