"""The TI4 puzzles and the scorer: parameters (validated, each named in its errors), the answers a
player can act on, and their registration (``ti4.balanced_map``, ``ti4.milty_slices``,
``ti4.check_map``, ``ti4.home_values``; ``Score``)."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from games.core import Game, records
from games.errors import ConfigError, NotationError
from games.ti4 import TI4Game, TI4State
from games.ti4.ai import slice_value, spaces_in_play
from games.ti4.balance import SCALE, HomeReport, home_reports
from games.ti4.content import Pos, TileId
from games.ti4.legality import check_map, check_string
from games.ti4.mapstring import format_map_string, parse_map_string
from games.ti4.measures import Measure
from games.ti4.milty import SLICE_BLUE, SLICE_RED
from games.ti4.setup import home_system_tile
from games.ti4.state import OVER, PLACE
from solver.core import (
    ScoreLine,
    ScoreReport,
    SeatScore,
    SolveLimits,
    SolveResult,
    Status,
    check_param_keys,
    register_puzzle,
    register_scorer,
    shown,
)
from solver.ti4.finish import forced_reasons, game_finish, placement_order, state_problem
from solver.ti4.model import known
from solver.ti4.params import (
    BALANCED_MAP_PARAMS,
    MAP_STRING_PARAMS,
    MILTY_PARAMS,
    choice_param,
    factions_param,
    int_param,
    map_string_params,
    measure_param,
    number_param,
    state_defaults,
    ti4_game,
    tiles_param,
)
from solver.ti4.problem import MapProblem, MapSolution, clash_pairs, map_problem, precheck_map
from solver.ti4.rules import fewest_clashes
from solver.ti4.search import solve_map
from solver.ti4.sheet import term_detail
from solver.ti4.slices import SliceProblem, solve_slices

__all__ = ["balanced_map", "check_map_puzzle", "home_values_puzzle", "map_svg", "milty_slices", "score"]

# ============================================================================ puzzles


def _result(kind: str, status: Status, start: float, **kw: Any) -> SolveResult:
    return SolveResult(
        kind=kind, status=status, method=kw.pop("method", "cp-sat"), wall_s=time.perf_counter() - start, **kw
    )


def balanced_map(
    game: Game[Any, Any], state: Any, params: Mapping[str, Any], limits: SolveLimits
) -> SolveResult:
    """The legal galaxy with the smallest gap between the best and the worst home value (by the
    chosen measure), from scratch or finishing a referee's state during tile placement."""
    start = time.perf_counter()
    g = ti4_game(game)
    check_param_keys(params, BALANCED_MAP_PARAMS)
    seed = int_param(params, "seed", 0, 0, 2**31 - 1)
    problem, factions, finishing = _map_request(g, state, params)
    include = tiles_param(g.pack, params, "include")
    bad = [t for t in include if t not in problem.pool and t not in problem.fixed.values()]
    if bad:
        return _result(
            "ti4.balanced_map",
            Status.INFEASIBLE,
            start,
            explanation=f"tile {bad[0]} cannot be included: it is excluded, outside the piles or not in hand",
        )
    why = precheck_map(g.pack, problem)
    if why:
        return _result("ti4.balanced_map", Status.INFEASIBLE, start, explanation=why)
    if include:
        problem = replace(
            problem, required=tuple(sorted(t for t in set(include) if t not in problem.fixed.values()))
        )
    deadline = start + limits.time_limit_s
    if finishing:
        assert isinstance(state, TI4State)
        sol = _finish(g, state, problem, limits, seed=seed, deadline=deadline)
    else:
        sol = _build(g, problem, limits, seed, deadline)
    if sol.status == Status.INFEASIBLE:
        return _result(
            "ti4.balanced_map",
            sol.status,
            start,
            explanation="no legal galaxy meets this request: the specialty and spread requests cannot all "
            "hold with these tiles; lower specialty_within or raise max_wormholes_per_home / "
            "max_legendary_per_home, or include fewer tiles",
        )
    if sol.status == Status.UNKNOWN:
        return _result(
            "ti4.balanced_map",
            sol.status,
            start,
            explanation="no galaxy found within the time limit: allow more time",
        )
    return _map_answer(g, problem, sol, start, factions)


def _map_request(g: TI4Game, state: Any, params: Mapping[str, Any]) -> tuple[MapProblem, list[str], bool]:
    """The map problem of a ``ti4.balanced_map`` request, every parameter validated: (problem, the
    factions named, whether it finishes a referee's state during tile placement)."""
    players0, exp0 = state_defaults(state)
    players = int_param(params, "players", players0, 3, 6)
    expansion = choice_param(params, "expansion", ("base", "pok"), exp0)
    chosen = measure_param(params)
    exclude = tiles_param(g.pack, params, "exclude")
    use_state = params.get("from_state", True)
    if not isinstance(use_state, bool):
        raise ConfigError(
            f"from_state must be true or false, got {shown(use_state)}", field="params.from_state"
        )
    factions = factions_param(g, params, players, expansion)
    if factions and "home" not in params.get("weights", {}):  # named factions: home systems count as printed
        chosen = Measure(chosen.name, tuple(replace(w, home=1.0) for w in chosen.parts))
    finishing = (
        use_state
        and isinstance(state, TI4State)
        and state.phase == PLACE
        and state.mode == "rulebook"
        and state.players == players
    )
    if finishing:
        problem = state_problem(g.pack, state, chosen, exclude)
    else:
        pool = [
            t for t in (*g.pack.pile("blue", expansion), *g.pack.pile("red", expansion)) if t not in exclude
        ]
        problem = map_problem(g.pack, players=players, expansion=expansion, measure=chosen, pool=pool)
    problem = replace(
        problem,
        specialty_within=int_param(params, "specialty_within", 0, 0, 3),
        max_wormholes_per_home=int_param(params, "max_wormholes_per_home", -1, -1, 8),
        max_legendary_per_home=int_param(params, "max_legendary_per_home", -1, -1, 4),
        wormhole_spread=number_param(params, "wormhole_spread", 0, 0, 100),
        legendary_spread=number_param(params, "legendary_spread", 0, 0, 100),
        specialty_missing=number_param(params, "specialty_missing", 0, 0, 100),
        specialty_reach=int_param(params, "specialty_reach", 2, 1, 3),
    )
    if factions:
        problem = replace(problem, home_tiles=tuple(home_system_tile(g.pack, f) for f in factions))
    elif use_state and isinstance(state, TI4State) and state.players == players:
        placed = tuple(state.galaxy[h] for h in problem.homes)
        if all(t > 0 for t in placed):  # the factions are chosen: their home systems are known
            problem = replace(problem, home_tiles=placed)
    try:
        problem.term_units()
    except ConfigError as exc:
        raise ConfigError(exc.message, field=f"params.{exc.field}") from None
    return problem, factions, bool(finishing)


def _build(g: TI4Game, problem: MapProblem, limits: SolveLimits, seed: int, deadline: float) -> MapSolution:
    """A galaxy from scratch. When the tiles required cannot all be kept apart, the fewest forbidden
    neighbours are allowed (rule: ti4/anomaly-adjacency: "unless there is no other option", read
    over every arrangement of the tiles, as ``ti4.check_map`` reads a bare map string)."""

    def left() -> float:
        return max(0.05, deadline - time.perf_counter())

    sol = solve_map(g.pack, problem, time_limit_s=left(), workers=limits.workers, seed=seed, stop=limits.stop)
    if sol.status != Status.INFEASIBLE or not problem.required:
        return sol
    fewest = fewest_clashes(g.pack, problem, time_limit_s=min(2.0, left()), seed=seed, stop=limits.stop)
    if fewest is None or fewest[0] == 0:
        return sol
    forced = replace(problem, max_clashes=fewest[0])
    sol = solve_map(g.pack, forced, time_limit_s=left(), workers=limits.workers, seed=seed, stop=limits.stop)
    why = "no arrangement of these tiles avoids it" if fewest[1] else "no arrangement found avoids it"
    return replace(sol, clashes=tuple(f"{c}: allowed, {why}" for c in sol.clashes))


def _finish(
    g: TI4Game, state: TI4State, problem: MapProblem, limits: SolveLimits, *, seed: int, deadline: float
) -> MapSolution:
    """The galaxy finished from a referee's state during tile placement: always legal. The game's own
    finish (the ``balanced`` policy, legal by construction) is the first answer and the fallback; the
    builder then allows the fewest forbidden neighbours the hands leave and its galaxy is kept only
    with an order of placements the rules allow (``finish.placement_order``); the answer says why
    each forbidden neighbour is allowed and lists the placements in order."""
    content = g.pack

    def left() -> float:
        return max(0.05, deadline - time.perf_counter())

    fallback, record = game_finish(content, state, problem.weights, seed)
    made = len(clash_pairs(content, problem, fallback))
    fewest = fewest_clashes(content, problem, time_limit_s=min(1.0, left() / 4), seed=seed, stop=limits.stop)
    allowed = made if fewest is None else min(made, fewest[0])
    tight = replace(problem, max_clashes=allowed)
    safe = known(content, replace(problem, max_clashes=made), fallback, Status.FEASIBLE)
    hint = fallback if made <= allowed else None
    sol = solve_map(
        content, tight, time_limit_s=left(), workers=limits.workers, seed=seed, stop=limits.stop, hint=hint
    )
    order = placement_order(content, state, sol.galaxy) if sol.galaxy else None
    if order is None or sol.objective > safe.objective:
        sol, order = safe, record
    return replace(sol, record=order, clashes=tuple(forced_reasons(content, state, order)))


def map_svg(g: TI4Game, problem: MapProblem, galaxy: Mapping[Pos, TileId], title: str) -> str:
    """An SVG of a built galaxy (the game's own renderer, homes as seats 0.., with the home values)."""
    from games.core.protocol import GameConfig
    from games.ti4.render import render_svg

    base = g.new_state(GameConfig(players=problem.players), 0)
    cells = [0] * len(base.galaxy)
    cells[0] = 18
    homes = dict(zip(problem.homes, problem.home_tiles, strict=False))
    for p, t in {**galaxy, **homes}.items():
        cells[p] = t
    shown = records.replace(base, galaxy=tuple(cells), homes=problem.homes, speaker=-1)
    reps = home_reports(
        g.pack.board,
        {0: 18, **galaxy, **homes},
        problem.homes,
        g.pack.tiles,
        problem.weights,
        spaces=problem.spaces,
    )
    return render_svg(g.pack, shown, reps, title=title)


def _map_answer(
    g: TI4Game, problem: MapProblem, sol: MapSolution, start: float, factions: Sequence[str] = ()
) -> SolveResult:
    """The ``ti4.balanced_map`` answer of a built galaxy: its map string, home values and picture."""
    layout = g.pack.board.layouts[problem.players]
    galaxy = [0] * 37
    galaxy[0] = 18
    for p, t in sol.galaxy.items():
        galaxy[p] = t
    text = format_map_string(
        tuple(galaxy),
        problem.spaces,
        layout.homes,
        home_tiles=dict(zip(problem.homes, problem.home_tiles, strict=False)),
    )
    return _result(
        "ti4.balanced_map",
        sol.status,
        start,
        objective=sol.objective,
        bound=sol.bound,
        answer={
            "map_string": text,
            "objective": round(sol.objective, 4),
            "terms": dict(sol.terms),
            "factions": list(factions),
            "home_values": [round(v, 4) for v in sol.values],
            "home_positions": list(layout.homes),
            "gap": round(sol.gap, 4),
            "gaps": [round(x, 4) for x in sol.gaps],
            "measure": problem.measure.name,
            "bound": round(sol.bound, 4),
            "forced_neighbours": list(sol.clashes),
            "placements": [{"seat": pl.seat, "tile": str(pl.tile), "position": pl.pos} for pl in sol.record],
            "galaxy": {str(p): str(t) for p, t in sorted(sol.galaxy.items())},
            "svg": map_svg(
                g,
                problem,
                sol.galaxy,
                f"Balanced {problem.players}-player galaxy: gap {sol.gap:.2f} ({sol.status.value})",
            ),
        },
        explanation=_map_explanation(g, problem, sol),
    )


def _map_explanation(g: TI4Game, problem: MapProblem, sol: MapSolution) -> str:
    """What to do with a built galaxy and why: its home values, gap and proof, the seat that should
    pick first, and what the answer adds (placements, allowed neighbours, terms, home systems)."""
    layout = g.pack.board.layouts[problem.players]
    vals = ", ".join(f"{v:.2f}" for v in sol.values)
    proof = (
        "proven the smallest possible"
        if sol.status == Status.OPTIMAL
        else f"no legal map can go below {sol.bound:.2f}"
    )
    worst = min(range(len(sol.values)), key=lambda k: sol.values[k])
    explanation = (
        f"paste this map string into Tabletop Simulator: {problem.measure.name} home values {vals} (seat "
        f"order from position {layout.homes[0]}), gap {sol.gap:.2f} ({proof}); seat {worst}, at position "
        f"{layout.homes[worst]}, has the weakest home and should pick first"
    )
    if len(sol.gaps) > 1:
        explanation += " (gaps " + ", ".join(f"{x:.2f}" for x in sol.gaps) + ": community, simple)"
    if sol.record:
        explanation += f"; place the {len(sol.record)} remaining tiles in the order given"
    if sol.clashes:
        explanation += f"; {len(sol.clashes)} forbidden neighbour(s) the rules allow here: {sol.clashes[0]}"
    if problem.weighted:
        explanation += "; secondary terms " + ", ".join(
            f"{k.replace('_', ' ')} {v}" for k, v in sol.terms.items()
        )
        explanation += f" (objective {sol.objective:.2f})"
    if problem.home_tiles:
        explanation += "; home systems " + ", ".join(
            f"{g.pack.tiles[t].name} at {h}" for h, t in zip(problem.homes, problem.home_tiles, strict=True)
        )
    return explanation


def milty_slices(
    game: Game[Any, Any], state: Any, params: Mapping[str, Any], limits: SolveLimits
) -> SolveResult:
    """The most even Milty slices within the given limits."""
    start = time.perf_counter()
    g = ti4_game(game)
    check_param_keys(params, MILTY_PARAMS)
    _, exp0 = state_defaults(state)
    expansion = choice_param(params, "expansion", ("base", "pok"), exp0)
    count = int_param(params, "slices", 6, 2, 9)
    prob = _slice_problem(g, params, expansion, count)
    seed = int_param(params, "seed", 0, 0, 2**31 - 1)
    tiles = g.pack.tiles
    nb = sum(1 for t in prob.pool if tiles[t].pile == "blue")
    nr = len(prob.pool) - nb
    if nb < SLICE_BLUE * count or nr < SLICE_RED * count:
        return _result(
            "ti4.milty_slices",
            Status.INFEASIBLE,
            start,
            explanation=f"{count} slices need {SLICE_BLUE * count} blue and {SLICE_RED * count} red tiles; "
            f"the {expansion} piles hold {nb} and {nr}: ask for fewer slices or use 'pok'",
        )
    for lo, hi in (
        ("min_resources", "max_resources"),
        ("min_influence", "max_influence"),
        ("min_total", "max_total"),
    ):
        if getattr(prob, lo) > getattr(prob, hi):
            raise ConfigError(
                f"{lo} {getattr(prob, lo)} is above {hi} {getattr(prob, hi)}", field=f"params.{lo}"
            )
    status, slices, gap, bound = solve_slices(
        g.pack, prob, time_limit_s=limits.time_limit_s, workers=limits.workers, seed=seed, stop=limits.stop
    )
    if status == Status.INFEASIBLE:
        return _result(
            "ti4.milty_slices",
            status,
            start,
            explanation="no slices meet these limits with no forbidden neighbours side by side: widen the "
            "total, resource or influence range, allow more wormholes or legendary planets per slice, or ask "
            "for fewer slices",
        )
    if status == Status.UNKNOWN:
        return _result(
            "ti4.milty_slices",
            status,
            start,
            explanation="no slices found within the time limit: allow more time",
        )
    return _slices_answer(g, prob, status, slices, gap=gap, bound=bound, start=start)


def _slice_problem(g: TI4Game, params: Mapping[str, Any], expansion: str, count: int) -> SliceProblem:
    """The slice problem of a ``ti4.milty_slices`` request: ``count`` slices of the piles of
    ``expansion`` within the request's limits (each validated; their order is checked later)."""
    return SliceProblem(
        count=count,
        pool=(*g.pack.pile("blue", expansion), *g.pack.pile("red", expansion)),
        min_resources=number_param(params, "min_resources", 0, 0, 30),
        max_resources=number_param(params, "max_resources", 30, 0, 30),
        min_influence=number_param(params, "min_influence", 0, 0, 30),
        max_influence=number_param(params, "max_influence", 30, 0, 30),
        min_total=number_param(params, "min_total", 9, 0, 30),
        max_total=number_param(params, "max_total", 13, 0, 30),
        max_wormholes=int_param(params, "max_wormholes", 1, 0, 5),
        max_legendary=int_param(params, "max_legendary", 1, 0, 5),
        min_wormholes_total=int_param(params, "min_wormholes_total", 0, 0, 10),
        weights=measure_param(params).weights,
    )


def _slices_answer(
    g: TI4Game,
    prob: SliceProblem,
    status: Status,
    slices: Sequence[Sequence[TileId]],
    *,
    gap: float,
    bound: float,
    start: float,
) -> SolveResult:
    """The ``ti4.milty_slices`` answer of found slices: their tiles, values and totals, and the
    option string that deals them."""
    from games.ti4.milty import slice_total, slices_to_text

    values = [round(slice_value(g.pack, s, prob.weights), 3) for s in slices]
    totals = [slice_total(g.pack, s) for s in slices]
    text = slices_to_text(slices)
    proof = (
        "proven the smallest possible" if status == Status.OPTIMAL else f"no deal can go below {bound:.2f}"
    )
    return _result(
        "ti4.milty_slices",
        status,
        start,
        objective=gap,
        bound=bound,
        answer={
            "slices": [[str(t) for t in s] for s in slices],
            "slice_values": values,
            "slice_totals": totals,
            "milty_slices": text,
        },
        explanation=f"deal these slices (set the game option milty_slices to {text!r}): values {values}, "
        f"gap {gap:.2f} ({proof}); each slice's tiles are in slot order (left, front, right, far front, far "
        "right) and no two slices put forbidden neighbours side by side, whichever seats the draft gives "
        "them",
    )


def check_map_puzzle(
    game: Game[Any, Any], state: Any, params: Mapping[str, Any], limits: SolveLimits
) -> SolveResult:
    """Every setup rule a map string breaks, named, with its tiles."""
    start = time.perf_counter()
    g = ti4_game(game)
    text, players, expansion, procedure = map_string_params(g, params)
    try:
        report = check_string(g.pack, text, players=players, expansion=expansion, procedure=procedure)
    except NotationError as exc:
        raise ConfigError(exc.message, field="params.map_string") from None
    if report.ok:
        explanation = f"legal {report.players}-player {procedure} galaxy: no setup rule is broken"
        if report.notes:
            explanation += f" ({len(report.notes)} note(s): forbidden neighbours the rules allow here)"
    else:
        first = report.violations[0]
        explanation = f"{len(report.violations)} broken rule(s); first, {first.rule}: {first.message}"
    return _result(
        "ti4.check_map",
        Status.OPTIMAL,
        start,
        method="enumeration",
        objective=len(report.violations),
        bound=len(report.violations),
        answer=report.to_dict(),
        explanation=explanation,
    )


def home_values_puzzle(
    game: Game[Any, Any], state: Any, params: Mapping[str, Any], limits: SolveLimits
) -> SolveResult:
    """Each home's value on a map string, with the numbers behind it."""
    start = time.perf_counter()
    g = ti4_game(game)
    text, players, expansion, procedure = map_string_params(g, params)
    chosen = measure_param(params)
    try:
        parsed = parse_map_string(text)
    except NotationError as exc:
        raise ConfigError(exc.message, field="params.map_string") from None
    report = check_map(g.pack, parsed, players=players, expansion=expansion, procedure=procedure)
    if report.players == 0:
        return _result(
            "ti4.home_values",
            Status.INFEASIBLE,
            start,
            method="enumeration",
            explanation=f"no {procedure} layout found: {report.violations[0].message}",
        )
    entries = [parsed.at(p) for p in range(37)]
    galaxy = {p: t for p, t in enumerate(entries) if t > 0 and t in g.pack.tiles}
    spaces = tuple(p for p in range(37) if entries[p] != -1)
    reps = home_reports(g.pack.board, galaxy, report.homes, g.pack.tiles, chosen.weights, spaces=spaces)
    vals = [r.value for r in reps]
    parts = chosen.values(g.pack.board, galaxy, report.homes, g.pack.tiles, spaces=spaces)
    gaps = [(max(v) - min(v)) / SCALE for v in parts]
    gap = max(gaps)
    worst = report.homes[vals.index(min(vals))]
    return _result(
        "ti4.home_values",
        Status.OPTIMAL,
        start,
        method="enumeration",
        objective=gap,
        bound=gap,
        answer={
            "homes": [_home_entry(r) for r in reps],
            "measure": chosen.name,
            "gap": round(gap, 4),
            "gaps": [round(x, 4) for x in gaps],
        },
        explanation=f"{chosen.name} home values {', '.join(f'{v:.2f}' for v in vals)} (gap {gap:.2f}); the "
        f"home at position {worst} is the weakest: its player should draft first or get the compensation",
    )


def _home_entry(r: HomeReport) -> dict[str, Any]:
    """One home of the ``ti4.home_values`` answer: its value and the numbers behind it."""
    return {
        "position": r.home,
        "home_value": round(r.value, 4),
        "optimal_resources": round(r.resources, 4),
        "optimal_influence": round(r.influence, 4),
        "resources_within_2_jumps": round(r.near_resources, 4),
        "influence_within_2_jumps": round(r.near_influence, 4),
        "wormholes": r.wormholes,
        "legendary_planets": r.legendary,
        "specialties_within_2_jumps": r.specialties,
        "jumps_to_mecatol_rex": r.mecatol,
        "lane_anomalies": [str(t) for t in r.lane_anomalies],
        "mecatol_path_term": round(r.mecatol_term, 4),
    }


# ============================================================================ score


def score(game: Game[Any, Any], state: Any) -> ScoreReport:
    """Each seat's home value (the setup's result) with its breakdown; rank 1 = the best home."""
    g = ti4_game(game)
    if not isinstance(state, TI4State):
        raise ConfigError("the state is not a ti4 state", field="state")
    reps = g.reports(state) if all(state.homes) else []
    if not reps:
        seats = tuple(SeatScore(seat=s, total=0.0, rank=1) for s in range(state.players))
        return ScoreReport(game="ti4", final=False, seats=seats)
    totals = [sum(x for _, x in r.terms) for r in reps]
    order = sorted(set(totals), reverse=True)
    always = ("optimal resources", "optimal influence", "Mecatol Rex path")
    spaces = spaces_in_play(state, g.pack)

    def tie(seat: int) -> tuple[str, ...]:
        equal = [k for k, t in enumerate(totals) if k != seat and t == totals[seat]]
        if not equal:
            return ()
        who = ", ".join(f"seat {k}" for k in equal)
        rank = 1 + order.index(totals[seat])
        return (f"home value {totals[seat]:.2f} equal to {who}'s: they share rank {rank}",)

    seats = tuple(
        SeatScore(
            seat=s,
            total=totals[s],
            rank=1 + order.index(totals[s]),
            breakdown=tuple(
                ScoreLine(
                    category=name,
                    points=x,
                    detail=term_detail(name, g.pack, g.weights, r, homes=state.homes, spaces=spaces),
                )
                for name, x in r.terms
                if x or (name in always and (name != "Mecatol Rex path" or g.weights.has_mecatol_term))
            ),
            tiebreak=tie(s),
        )
        for s, r in enumerate(reps)
    )
    over = state.phase == OVER
    ended = (
        "the galaxy is set up: every system tile is placed and every secret objective kept" if over else ""
    )
    return ScoreReport(game="ti4", final=over, seats=seats, ended_by=ended)


register_scorer("ti4", score)
register_puzzle(
    "ti4",
    "ti4.balanced_map",
    balanced_map,
    summary="Which legal galaxy (every setup rule obeyed) gives the smallest gap between the best and the "
    "worst home value, and is it proven the smallest?",
    params_schema=BALANCED_MAP_PARAMS,
)
register_puzzle(
    "ti4",
    "ti4.milty_slices",
    milty_slices,
    summary="Which Milty draft slices (three blue, two red tiles each) within these limits are the most "
    "even?",
    params_schema=MILTY_PARAMS,
)
register_puzzle(
    "ti4",
    "ti4.check_map",
    check_map_puzzle,
    summary="Which setup rules does this TTS map string break, and with which tiles?",
    params_schema=MAP_STRING_PARAMS,
)
register_puzzle(
    "ti4",
    "ti4.home_values",
    home_values_puzzle,
    summary="How good is each home system on this TTS map string, and which is the weakest?",
    params_schema=MAP_STRING_PARAMS,
)
