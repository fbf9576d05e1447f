"""The heavy jobs, as worker processes run them (:mod:`service.workers`): searches, hints, AI seats'
moves and solves. The one place the service calls ``search`` and a solver's puzzle.

Each job names its game (and content pack) and carries the state; the worker looks the game up in
its own registry (games registered at run time travel with the job as ``GameEntry``s). Every job
takes the stop flag the pool controls (deadline, cancellation, shutdown) and a progress callback.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import search
from games.core import CHANCE, REFEREE, TERMINAL, Fact, Game, GameConfig, as_facts, get_game, make_rng
from games.core.registry import GameEntry, game_entry, game_names, register_game
from games.core.views import seen_state
from games.errors import LictorError, NotFoundError
from search import Analysis, SearchLimit, StopFlag
from search.outcomes import Outcome, hint_order, look_ahead, value_of
from solver.core import Advice, SolveLimits, SolveResult, get_advice, get_puzzle_spec, puzzle_kinds

__all__ = [
    "ChanceGroup",
    "ChanceHint",
    "Hint",
    "Mistake",
    "Move",
    "Review",
    "Reviewed",
    "hint_details",
    "pair_details",
    "run",
    "warm_up",
]

PROGRESS_EVERY_S = 0.5
"""How often a search sends a progress report when the caller asked for none (the report stands
in for the answer if the process misses its deadline)."""


def warm_up(entries: Sequence[GameEntry] = ()) -> None:
    """Register ``entries``, then load every game, its content pack and the solver modules."""
    _register(entries)
    for name in game_names():
        get_game(name)
    puzzle_kinds()


def _register(entries: Sequence[GameEntry]) -> None:
    for e in entries:
        try:
            known = game_entry(e.name)
        except LictorError:
            known = None
        if known != e:
            register_game(e.name, e.target, solver=e.solver)


def _game(name: str, pack: str) -> Game[Any, Any]:
    return get_game(name, content_path=pack)


@dataclass(frozen=True, slots=True, kw_only=True)
class Hint:
    """A Hint job's answer: the analysis, the hint's order, and what the game says of the moves.

    Attributes:
        analysis: the search's analysis.
        order: the candidates' notation in the hint's order (``search.outcomes.hint_order``).
        facts: per candidate in ``order`` (the first ``MAX_COMPARED``), the game's ``explain``
            facts about it, read from the mover's view (empty when the view cannot be sampled).
        outcomes: what the first moves of ``order`` lead to (``search.outcomes.look_ahead``).
        advice: the exact solver's answer at this position, when the game has one.
    """

    analysis: Analysis
    order: tuple[str, ...] = ()
    facts: tuple[tuple[Fact, ...], ...] = ()
    outcomes: tuple[Outcome, ...] = ()
    advice: Advice | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ChanceGroup:
    """Chance outcomes that mean the same for the seat (the same ``explain`` facts, or the same
    estimate when the game explains none).

    Attributes:
        outcomes: their notation, the most likely first.
        probability: their summed probability.
        log: the log line of the most likely one, as the seat reads it.
        facts: the game's facts about them (``explain`` at the chance node).
        value: the seat's estimate after them (the game's heuristic; the result when it ends).
    """

    outcomes: tuple[str, ...]
    probability: float
    log: str
    facts: tuple[Fact, ...]
    value: float


@dataclass(frozen=True, slots=True, kw_only=True)
class ChanceHint:
    """A Hint at a chance node: what each outcome means for ``seat``.

    Attributes:
        seat: the seat the odds are told for.
        before: its estimate before the draw (the expectation over the outcomes).
        groups: the outcomes grouped by what they mean, the likeliest group first.
        outcomes: how many outcomes there are in all.
    """

    seat: int
    before: float
    groups: tuple[ChanceGroup, ...]
    outcomes: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Move:
    """An AI seat's move.

    Attributes:
        text: the action in notation.
        analysis: the search behind it (None for a rule-based engine).
        engine: who chose it (``"search level 5"``, ``"automa"``).
    """

    text: str
    analysis: Analysis | None
    engine: str


def analyze(
    *,
    game: str,
    pack: str,
    state: Any,
    limit: SearchLimit,
    seed: int,
    progress_every_s: float | None,
    stop: StopFlag,
    progress: Callable[[Any], None] | None,
) -> Analysis:
    """An analysis of ``state`` for the seat to move."""
    g = _game(game, pack)
    return search.analyze(
        g,
        state,
        limit=limit,
        seed=seed,
        stop=stop,
        progress=progress,
        progress_every_s=progress_every_s or PROGRESS_EVERY_S,
    )


MAX_COMPARED = 24
"""Most root moves whose facts are read to tell which facts differ between candidates."""
LOOKED_AT = 3
"""Moves whose outcomes a hint looks ahead for (the first ones of its order)."""


def _explain(g: Game[Any, Any], state: Any, action: Any) -> tuple[Fact, ...]:
    try:
        return tuple(as_facts(g.explain(state, action)))
    except LictorError:
        return ()


def hint_details(
    g: Game[Any, Any],
    state: Any,
    analysis: Analysis,
    *,
    game: str,
    seed: int,
    look_s: float,
    looked: int = LOOKED_AT,
    stop: StopFlag | None = None,
) -> Hint:
    """What a hint says beside the search: the exact advice, the hint's order, the game's facts about
    the moves and what the first ``looked`` of them lead to, all from the mover's view of ``state``."""
    seat = analysis.seat
    try:
        seen = seen_state(g, state, seat)
    except LictorError:  # the mover's view cannot be sampled: the search's numbers only
        return Hint(analysis=analysis, order=tuple(c.text for c in hint_order(analysis)))
    advice = None
    advise = get_advice(game)
    if advise is not None:
        try:
            advice = advise(
                g,
                seen,
                tuple(c.action for c in analysis.candidates[:MAX_COMPARED]),
                SolveLimits(time_limit_s=max(0.05, look_s), workers=1, stop=stop.is_set if stop else None),
            )
        except LictorError:
            advice = None
    exact = dict(advice.values) if advice is not None and advice.decides else None
    order = hint_order(analysis, exact)
    facts = tuple(_explain(g, seen, c.action) for c in order[:MAX_COMPARED])
    outcomes: tuple[Outcome, ...] = ()
    if looked and len(order) > 1 and not (stop is not None and stop.is_set()):
        moves = [(c.action, c.pv) for c in order[: max(2, looked)]]
        outcomes = tuple(look_ahead(g, seen, seat, moves, seed=seed, time_s=look_s, stop=stop))
    return Hint(
        analysis=analysis, order=tuple(c.text for c in order), facts=facts, outcomes=outcomes, advice=advice
    )


def hint(
    *,
    game: str,
    pack: str,
    state: Any,
    limit: SearchLimit,
    seed: int,
    top_k: int,
    look_s: float = 0.5,
    stop: StopFlag,
    progress: Callable[[Any], None] | None,
) -> Hint:
    """An analysis, then what a hint says of its moves (:func:`hint_details`)."""
    g = _game(game, pack)
    analysis = search.analyze(
        g, state, limit=limit, seed=seed, stop=stop, progress=progress, progress_every_s=PROGRESS_EVERY_S
    )
    return hint_details(
        g, state, analysis, game=game, seed=seed, look_s=look_s, looked=min(top_k, LOOKED_AT), stop=stop
    )


MAX_CHANCE_OUTCOMES = 400
"""Most outcomes a chance hint reads one by one (more: this many draws by their odds, seeded)."""


def chance_hint(
    *,
    game: str,
    pack: str,
    state: Any,
    seat: int | None,
    seed: int,
    stop: StopFlag,
    progress: Callable[[Any], None] | None,
) -> ChanceHint:
    """What each outcome of a chance node means for ``seat`` (default: the seat to decide after the
    likeliest outcome): its probability, the game's facts about it, the seat's estimate after it."""
    g = _game(game, pack)
    outcomes = list(g.chance_outcomes(state))
    if len(outcomes) > MAX_CHANCE_OUTCOMES:  # too many to read one by one: drawn by their odds
        rng = make_rng(seed)
        drawn = Counter(g.sample_chance(state, rng) for _ in range(MAX_CHANCE_OUTCOMES))
        weighted = [(a, n / MAX_CHANCE_OUTCOMES) for a, n in drawn.items()]
    else:
        weighted = outcomes
    weighted.sort(key=lambda o: -o[1])
    if seat is None:
        nxt = g.current_player(g.apply(state, weighted[0][0])) if weighted else 0
        seat = nxt if nxt >= 0 else 0
    total = sum(p for _, p in weighted) or 1.0
    groups: dict[tuple[Any, ...], list[tuple[str, float, str, tuple[Fact, ...], float]]] = {}
    for action, p in weighted:
        if stop.is_set():
            break
        after = g.apply(state, action)
        value = (g.returns(after) if g.is_terminal(after) else g.heuristic(after))[seat]
        facts = _explain(g, state, action)
        key = tuple((f.label, round(f.value, 3)) for f in facts) or (round(value, 2),)
        log = g.log_line(state, action, seat)
        groups.setdefault(key, []).append(
            (g.action_to_text(state, action), p / total, log, facts, float(value))
        )
    made = []
    for members in groups.values():
        members.sort(key=lambda m: -m[1])
        prob = sum(m[1] for m in members)
        made.append(
            ChanceGroup(
                outcomes=tuple(m[0] for m in members),
                probability=prob,
                log=members[0][2],
                facts=members[0][3],
                value=sum(m[1] * m[4] for m in members) / prob if prob else members[0][4],
            )
        )
    made.sort(key=lambda grp: -grp.probability)
    before = sum(grp.probability * grp.value for grp in made)
    return ChanceHint(seat=seat, before=before, groups=tuple(made), outcomes=len(outcomes))


@dataclass(frozen=True, slots=True, kw_only=True)
class Reviewed:
    """One move of a reviewed record, as the search sees it.

    Attributes:
        number: the move's number (1 = the first action after setup).
        seat: who moved (-1: chance).
        action: the move in notation.
        log: its log line, as the referee reads it.
        values: each seat's estimate after the move (the search's value of the next position; the
            game's evaluation over the dice at a chance node; the result at the end).
        best: the search's choice where the seat decided ("" at chance).
        best_value: the mover's value of ``best``.
        played_value: the mover's value of the move played.
        loss: how much of its chance the mover gave up against ``best`` (0 when none).
        played_visits: the simulations behind ``played_value`` (the played move's own, or those of
            the search of the position after it).
    """

    number: int
    seat: int
    action: str
    log: str
    values: tuple[float, ...]
    best: str = ""
    best_value: float = 0.0
    played_value: float = 0.0
    loss: float = 0.0
    played_visits: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class Mistake:
    """A move that gave up most against the search's choice, with what a hint says of the two.

    Attributes:
        number: the move's number.
        seat: who moved.
        hint: the search's choice and the move played, compared (``order`` = (best, played)).
    """

    number: int
    seat: int
    hint: Hint


@dataclass(frozen=True, slots=True, kw_only=True)
class Review:
    """A Review job's answer.

    Attributes:
        start: each seat's estimate at the start.
        moves: every move, in order.
        mistakes: the moves that gave up most, the worst first.
        stopped: True when the review stopped early (deadline, cancel): ``moves`` is a prefix.
    """

    start: tuple[float, ...]
    moves: tuple[Reviewed, ...]
    mistakes: tuple[Mistake, ...]
    stopped: bool = False


MIN_LOSS = 0.02
"""A move costs its player something in a review from this loss of win chance on."""
MIN_VISITS = 5
"""A played move is valued by its own search value from this many simulations on (fewer: by the
search of the position after it)."""


def _chance_values(g: Game[Any, Any], state: Any) -> tuple[float, ...]:
    """Each seat's estimate before a draw: the evaluation's expectation over (at most 64) outcomes."""
    outcomes = list(g.chance_outcomes(state))
    if not outcomes or len(outcomes) > 64:
        return tuple(g.heuristic(state))
    n = g.num_players(state)
    sums = [0.0] * n
    for action, p in outcomes:
        after = g.apply(state, action)
        v = g.returns(after) if g.is_terminal(after) else g.heuristic(after)
        for i in range(n):
            sums[i] += p * v[i]
    return tuple(sums)


def _values(analysis: Analysis) -> tuple[float, ...]:
    best = analysis.candidates[0] if analysis.candidates else None
    if best is not None and best.proven_values is not None:
        return tuple(best.proven_values)
    return tuple(analysis.root_value)


def review(
    *,
    game: str,
    pack: str,
    state: Any,
    players: int,
    options: Mapping[str, Any],
    setup_seed: int,
    actions: Sequence[str],
    simulations: int,
    time_s: float,
    seed: int,
    worst: int,
    look_s: float = 1.0,
    until: float = math.inf,
    stop: StopFlag,
    progress: Callable[[Any], None] | None,
) -> Review:
    """A KaTrain-like review of a record: the search's estimate for every seat after every move
    (each position searched at ``simulations`` / ``time_s``), and the ``worst`` moves that gave up
    most against the search's choice with a hint's comparison of the two. Each move is sent as a
    progress report when the position after it is searched; past ``until`` (monotonic) no more
    moves are searched, so the time left explains the worst of those reviewed. ``state`` is the
    record's last position (unused: the record is replayed)."""
    del state
    g = _game(game, pack)

    s = g.new_state(GameConfig(players=players, options=dict(options), content_path=pack), setup_seed)
    limit = SearchLimit(
        simulations=simulations or None,
        time_s=time_s or None,
        deadline=until if math.isfinite(until) else None,
    )

    values, analysis = _estimate(g, s, limit=limit, seed=seed, stop=stop)
    start = values
    moves: list[Reviewed] = []
    looked: list[tuple[int, Any, Analysis, str]] = []
    stopped = False
    for number, text in enumerate(actions, 1):
        if stop.is_set() or time.monotonic() > until:  # the rest of the time explains the worst moves
            stopped = True
            break
        mover = g.current_player(s)
        action = g.parse_action(s, text)
        log = g.log_line(s, action, REFEREE)  # the referee's log: a review reads a finished game
        before, here = s, analysis
        s = g.apply(s, action)
        values, analysis = _estimate(g, s, limit=limit, seed=seed, stop=stop)
        report = Reviewed(number=number, seat=mover, action=text, log=log, values=values)
        if here is not None and mover >= 0 and here.candidates:
            report = _against_best(report, here, analysis)
            if report.loss >= MIN_LOSS:
                looked.append((number, before, here, text))
        moves.append(report)
        if progress is not None:
            progress(report)
    mistakes = _mistakes(g, looked, moves, worst=worst, game=game, seed=seed, look_s=look_s, stop=stop)
    return Review(start=start, moves=tuple(moves), mistakes=mistakes, stopped=stopped or stop.is_set())


def _estimate(
    g: Game[Any, Any], position: Any, *, limit: SearchLimit, seed: int, stop: StopFlag
) -> tuple[tuple[float, ...], Analysis | None]:
    """Each seat's estimate in ``position`` and the search behind it (None at a chance node, where
    the evaluation is averaged over the draw, and at the end, where the result stands)."""
    player = g.current_player(position)
    if player == TERMINAL:
        return tuple(g.returns(position)), None
    if player == CHANCE:
        return _chance_values(g, position), None
    a = search.analyze(g, position, limit=limit, seed=seed, stop=stop)
    return _values(a), a


def _against_best(report: Reviewed, here: Analysis, after: Analysis | None) -> Reviewed:
    """``report`` judged against the search's choice in the position before the move (``here``):
    the move played is valued by its own search value when searched enough (:data:`MIN_VISITS`),
    else by the search of the position after it (``after``, whose values ``report`` holds)."""
    mover, text, values = report.seat, report.action, report.values
    best = hint_order(here)[0]
    played = next((c for c in here.candidates if c.text == text), None)
    best_value = value_of(best, mover)
    own = played is not None and (played.visits >= MIN_VISITS or played.proven is not None)
    played_value = value_of(played, mover) if own and played is not None else values[mover]
    played_visits = played.visits if own and played is not None else (after.simulations if after else 0)
    loss = max(0.0, best_value - played_value) if best.text != text else 0.0
    return Reviewed(
        number=report.number,
        seat=mover,
        action=text,
        log=report.log,
        values=values,
        best=best.text,
        best_value=best_value,
        played_value=played_value,
        loss=loss,
        played_visits=played_visits,
    )


def _mistakes(
    g: Game[Any, Any],
    looked: list[tuple[int, Any, Analysis, str]],
    moves: list[Reviewed],
    *,
    worst: int,
    game: str,
    seed: int,
    look_s: float,
    stop: StopFlag,
) -> tuple[Mistake, ...]:
    """The ``worst`` of the ``looked`` moves (number, position before, its search, the move) that
    gave up most, the worst first, each with a hint comparing the search's choice and the move."""
    worst_moves = sorted(looked, key=lambda m: -moves[m[0] - 1].loss)[: max(0, worst)]
    mistakes = []
    for number, before, here, text in worst_moves:
        if stop.is_set():
            break
        mistakes.append(
            Mistake(
                number=number,
                seat=here.seat,
                hint=pair_details(g, before, here, text, game=game, seed=seed, look_s=look_s, stop=stop),
            )
        )
    return tuple(mistakes)


def pair_details(
    g: Game[Any, Any],
    state: Any,
    analysis: Analysis,
    played: str,
    *,
    game: str,
    seed: int,
    look_s: float,
    stop: StopFlag | None = None,
) -> Hint:
    """A hint's comparison of the search's choice at ``state`` with the move ``played`` there: the
    order is (choice, played), facts and outcomes for both."""
    details = hint_details(g, state, analysis, game=game, seed=seed, look_s=0.0, looked=0, stop=stop)
    best = next(c for c in analysis.candidates if c.text == details.order[0])
    action = g.parse_action(state, played)
    known = next((c for c in analysis.candidates if c.text == played), None)
    pv = known.pv if known is not None else (played,)
    seen = seen_state(g, state, analysis.seat)
    outcomes = tuple(
        look_ahead(
            g,
            seen,
            analysis.seat,
            [(best.action, best.pv), (action, pv)],
            seed=seed,
            time_s=look_s,
            stop=stop,
        )
    )
    return Hint(
        analysis=analysis,
        order=(best.text, played),
        facts=(_explain(g, seen, best.action), _explain(g, seen, action)),
        outcomes=outcomes,
        advice=details.advice,
    )


def choose(
    *,
    game: str,
    pack: str,
    state: Any,
    level: int,
    seed: int,
    limit: SearchLimit | None,
    temperature: float | None,
    engine: str,
    stop: StopFlag,
    progress: Callable[[Any], None] | None,
) -> Move:
    """An AI seat's move: by a rule-based ``engine`` the game ships, or by the search at ``level``."""
    g = _game(game, pack)
    if engine:
        policies = g.policies()
        if engine not in policies:
            raise NotFoundError(
                f"{game} has no engine {engine!r}; engines: {sorted(policies)}", field="engine"
            )
        action = policies[engine](state, make_rng(seed))
        return Move(text=g.action_to_text(state, action), analysis=None, engine=engine)
    action, analysis = search.choose_action(
        g,
        state,
        level=level,
        seed=seed,
        limit=limit,
        stop=stop,
        temperature=temperature,
        progress=progress,
        progress_every_s=PROGRESS_EVERY_S,
    )
    text = next((c.text for c in analysis.candidates if c.action is action), None)
    return Move(
        text=text if text is not None else g.action_to_text(state, action),
        analysis=analysis,
        engine=f"search level {level}",
    )


def solve(
    *,
    game: str,
    pack: str,
    kind: str,
    state: Any,
    params: Mapping[str, Any],
    time_limit_s: float,
    workers: int,
    stop: StopFlag,
    progress: Callable[[Any], None] | None,
) -> SolveResult:
    """A puzzle's answer."""
    g = _game(game, pack)
    spec = get_puzzle_spec(kind)
    return spec.fn(
        g, state, params, SolveLimits(time_limit_s=time_limit_s, workers=workers, stop=stop.is_set)
    )


_JOBS: dict[str, Callable[..., Any]] = {
    "analyze": analyze,
    "hint": hint,
    "chance_hint": chance_hint,
    "review": review,
    "choose": choose,
    "solve": solve,
}


def run(job: Any, *, stop: StopFlag, progress: Callable[[Any], None] | None) -> Any:
    """Run a :class:`service.workers.Job` in this process."""
    _register(job.games)
    return _JOBS[job.kind](stop=stop, progress=progress, **job.args)
