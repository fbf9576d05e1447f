"""Self-play to fit a game's win model: games of search against search, positions sampled, a
conditional logit fitted with numpy, held out by game.

``lictor train GAME`` runs :func:`train` and writes the model the game ships (e.g.
``games/tiberpunk/fitted.json``, read by ``games/core/fitted.py``):

1. **Self-play** (:func:`play_selfplay`): every seat is the same search (``simulations`` a move,
   the evaluator ``evaluator`` names: ``""`` the game's hand-written one, ``"fitted"`` the model
   shipped now), its first ``explore_moves`` decisions picked at ``temperature`` (by visits, as the
   strength levels do), the rest the most visited move. Game *g* is a pure function of its seeds
   (setup and dice from ``derive_seed(seed, "deal", g)``, the seats' searches from
   ``derive_seed(seed, "players", g)``), so one process, ``jobs`` processes and Ray give the same games
   (``tests/batch/test_selfplay.py``).
2. **Positions**: each decision position with probability ``sample`` (seeded per game) is recorded
   with every seat's features (``Evaluator.features``) and the hand-written heuristic's chances.
3. **Fit** (:func:`fit`): a conditional logit (softmax over the seats of ``w · features``) by
   Newton's method with a small L2 penalty, on the first 80% of the games; the held-out 20% (whole
   games) scored by log-loss against the hand-written heuristic's chances and against chance.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from batch.jobs import run_jobs
from batch.logit import Choices, best_ridge, newton
from games.core import CHANCE, TERMINAL, Game, GameConfig, derive_seed, get_game, make_rng
from games.errors import ConfigError
from search import SearchBot, SearchLimit, SearchOptions

__all__ = [
    "FitResult",
    "PriorLabels",
    "SelfPlayGame",
    "SelfPlayJob",
    "fit",
    "load_games",
    "play_selfplay",
    "save_games",
    "schedule",
    "train",
]


@dataclass(frozen=True, slots=True)
class SelfPlayJob:
    """One self-play game.

    Attributes:
        game: the game's name.
        players: seats at the table.
        seed: the setup's and the dice's seed.
        bot_seed: the seed the seats' searches derive theirs from.
        simulations: simulations per move of every seat.
        evaluator: the evaluator every seat searches with (``""``: the game's own) and whose
            features are recorded (``features_of``).
        features_of: the evaluator whose ``features`` are recorded.
        temperature: move-choice temperature of each seat's first ``explore_moves`` decisions.
        explore_moves: decisions per seat played at ``temperature`` (then the most visited move).
        sample: probability that a decision position is recorded.
        options: the game's options (e.g. a round cap against stalled games).
        prior_sample: probability that a searched decision where the evaluator ``features_of``
            gives move features (``Evaluator.prior_features``) is recorded for the fitted prior.
        prior_simulations: the visits recorded for the prior come from a search of this many
            simulations of the position (a deeper one than the seat's, so the prior learns what a
            longer search finds); 0: the seat's own search.
    """

    game: str
    players: int
    seed: int
    bot_seed: int
    simulations: int
    evaluator: str = ""
    features_of: str = "fitted"
    temperature: float = 1.0
    explore_moves: int = 12
    sample: float = 0.1
    options: tuple[tuple[str, Any], ...] = ()
    prior_sample: float = 0.0
    prior_simulations: int = 0


@dataclass(frozen=True, slots=True)
class PriorLabels:
    """What self-play records for the fitted prior (``lictor train --prior-out``).

    Attributes:
        sample: the share of the searched decisions recorded (``SelfPlayJob.prior_sample``).
        simulations: the simulations of the search whose visits label them
            (``SelfPlayJob.prior_simulations``; 0: the seat's own search).
    """

    sample: float = 0.5
    simulations: int = 0


PolicyRow = tuple[tuple[tuple[float, ...], ...], tuple[float, ...]]
"""A decision recorded for the fitted prior: per legal action its move features, and the share of the
search's visits it got."""


@dataclass(frozen=True, slots=True)
class SelfPlayGame:
    """A played self-play game.

    Attributes:
        job: its job.
        returns: each seat's return.
        rows: the recorded positions: per position, per seat, the features.
        heuristic: per recorded position, the hand-written heuristic's chance per seat.
        moves: actions played (chance included).
        seconds: wall time it took.
        policy: the decisions recorded for the fitted prior (``job.prior_sample``).
    """

    job: SelfPlayJob
    returns: tuple[float, ...]
    rows: tuple[tuple[tuple[float, ...], ...], ...]
    heuristic: tuple[tuple[float, ...], ...]
    moves: int
    seconds: float
    policy: tuple[PolicyRow, ...] = ()


def play_selfplay(job: SelfPlayJob) -> SelfPlayGame:
    """Play one self-play game (a pool's or a Ray task's unit: a pure function of ``job``)."""
    start = time.perf_counter()
    game = get_game(job.game)
    features = _features(game, job.features_of)
    move_features = game.evaluators()[job.features_of].prior_features if job.prior_sample else None
    opts = SearchOptions(evaluator=job.evaluator)
    limit = SearchLimit(simulations=job.simulations)
    bots = [
        SearchBot(game, limit=limit, options=opts, seed=derive_seed(job.bot_seed, seat))
        for seat in range(job.players)
    ]
    label = None
    if job.prior_simulations:  # the deeper search whose visits label the prior's decisions
        deep = SearchLimit(simulations=job.prior_simulations)
        label = SearchBot(game, limit=deep, options=opts, seed=derive_seed(job.bot_seed, "label"))
    decided = [0] * job.players
    state = game.new_state(GameConfig(players=job.players, options=dict(job.options)), job.seed)
    dice = random.Random(derive_seed(job.seed, "dice"))
    pick = make_rng(derive_seed(job.seed, "sample"))
    pick_policy = make_rng(derive_seed(job.seed, "policy"))
    rows, heur, policy, moves = [], [], [], 0
    while (player := game.current_player(state)) != TERMINAL:
        if player == CHANCE:
            action = game.sample_chance(state, dice)
        else:
            if pick.random() < job.sample:
                rows.append(tuple(tuple(float(x) for x in f) for f in features(state)))
                heur.append(tuple(float(x) for x in game.heuristic(state)))
            bot = bots[player]
            bot.temperature = job.temperature if decided[player] < job.explore_moves else 0.0
            decided[player] += 1
            searched = bot.last
            action = bot.act(state)
            fresh = bot.last is not searched  # a search ran (not a forced move)
            if move_features is not None and fresh and pick_policy.random() < job.prior_sample:
                searched = bot.last if label is None else label.analyse(state)
                row = _policy_row(game, state, move_features, searched)
                if row is not None:
                    policy.append(row)
        state = game.apply(state, action)
        moves += 1
    return SelfPlayGame(
        job=job,
        returns=tuple(float(v) for v in game.returns(state)),
        rows=tuple(rows),
        heuristic=tuple(heur),
        moves=moves,
        seconds=time.perf_counter() - start,
        policy=tuple(policy),
    )


def _policy_row(
    game: Game[Any, Any], state: Any, move_features: Callable[[Any], Any], analysis: Any
) -> PolicyRow | None:
    """The decision just searched as a prior's training row (None where the game gives no move
    features, or the search spent no visits)."""
    rows = move_features(state)
    if rows is None or analysis is None:
        return None
    visits = {c.action: c.visits for c in analysis.candidates}
    counts = [float(visits.get(a, 0)) for a in game.legal_actions(state)]
    total = sum(counts)
    if total <= 0:
        return None
    return tuple(tuple(float(x) for x in r) for r in rows), tuple(c / total for c in counts)


def _features(game: Game[Any, Any], name: str) -> Callable[[Any], Sequence[Sequence[float]]]:
    """The feature function of the game's evaluator ``name``; ConfigError when it has none."""
    ev = game.evaluators().get(name)
    if ev is None or ev.features is None:
        raise ConfigError(
            f"{game.info.name} has no fitted evaluator {name!r} to train: it has {sorted(game.evaluators())}",
            field="game",
        )
    return ev.features


def schedule(
    game: str,
    *,
    games: int,
    players: int,
    seed: int,
    simulations: int,
    evaluator: str = "",
    temperature: float = 1.0,
    explore_moves: int = 12,
    sample: float = 0.1,
    options: dict[str, Any] | None = None,
    prior: PriorLabels | None = None,
) -> list[SelfPlayJob]:
    """The self-play games to play, each with its own derived seeds (``prior``: what they record for
    the move prior; None: nothing)."""
    return [
        SelfPlayJob(
            game=game,
            players=players,
            seed=derive_seed(seed, "deal", g),
            bot_seed=derive_seed(seed, "players", g),
            simulations=simulations,
            evaluator=evaluator,
            temperature=temperature,
            explore_moves=explore_moves,
            sample=sample,
            options=tuple(sorted((options or {}).items())),
            prior_sample=prior.sample if prior else 0.0,
            prior_simulations=prior.simulations if prior else 0,
        )
        for g in range(games)
    ]


# ---------------------------------------------------------------------------------------- the fit
@dataclass
class FitResult:
    """A fitted conditional logit and how well it predicts held-out games.

    Attributes:
        weights: one weight per feature.
        positions: recorded positions used (train, held out).
        games: games (train, held out).
        held_out: held-out mean log-loss: ``fitted``, ``hand_written`` (the game's heuristic), ``chance``
            (the even split); and ``first_fitted``/``first_hand_written``: how often the winner was
            ranked first.
        train_log_loss: the fitted model's mean log-loss on its training positions.
        ridge: the L2 penalty per position used (chosen by cross-validation unless given).
    """

    weights: list[float]
    positions: tuple[int, int]
    games: tuple[int, int]
    held_out: dict[str, float] = field(default_factory=dict)
    train_log_loss: float = 0.0
    ridge: float = 0.0


RIDGES = (0.003, 0.01, 0.03, 0.1, 0.3, 1.0)
"""The L2 penalties (per position) the fit chooses among by cross-validation on the training games."""


def fit(
    played: Sequence[SelfPlayGame],
    *,
    ridge: float | None = None,
    held_out: float = 0.2,
    center: Sequence[float] | None = None,
    folds: int = 5,
) -> FitResult:
    """Fit the conditional logit on the first games of ``played``, score it on the last
    ``held_out`` share of them (whole games).

    Newton's method on the log-likelihood with an L2 penalty ``ridge`` per position on the distance
    from ``center``: by default 1 on the first feature and 0 on the others, since a game's first
    feature is its hand-written evaluation's log-chance (weight 1 there and nothing else is the
    hand-written evaluation itself), so the fit leaves the hand-written evaluation only as far as
    the games say. ``ridge`` None picks one of :data:`RIDGES` by ``folds``-fold cross-validation
    over the training games (whole games per fold).
    """
    import numpy as np

    done = [g for g in played if g.rows and sum(g.returns) > 0]
    cut = max(1, round(len(done) * (1 - held_out)))
    train, test = done[:cut], done[cut:]
    dim = len(train[0].rows[0][0])
    c = np.zeros(dim)
    c[0] = 1.0
    if center is not None:
        c = np.array(center, dtype=float)
    if ridge is None:
        ridge = best_ridge(RIDGES, train, folds, _positions, c)
    rows = _positions(train)
    w = newton(rows, c, ridge)
    out = FitResult(
        weights=[float(v) for v in w],
        positions=(rows.n, 0),
        games=(len(train), len(test)),
        train_log_loss=rows.cross_entropy(rows.chances(w)),
        ridge=ridge,
    )
    tx, ty, th = _arrays(test)
    out.positions = (rows.n, len(tx))
    if len(tx):
        fitted = list(_chances(tx, w))
        out.held_out = {
            "fitted": _log_loss(fitted, list(ty)),
            "hand_written": _log_loss(list(th), list(ty)),
            "chance": _log_loss([np.full(len(y), 1.0 / len(y)) for y in ty], list(ty)),
            "first_fitted": _first(fitted, list(ty)),
            "first_hand_written": _first(list(th), list(ty)),
        }
    return out


def _arrays(chunk: Sequence[SelfPlayGame]) -> tuple[Any, Any, Any]:
    """Positions as arrays: features (n, seats, dim), outcomes (n, seats), heuristic (n, seats)."""
    import numpy as np

    xs, ys, hs = [], [], []
    for g in chunk:
        y = [v / sum(g.returns) for v in g.returns]
        for row, h in zip(g.rows, g.heuristic, strict=True):
            xs.append(row)
            ys.append(y)
            hs.append(h)
    return np.array(xs, dtype=float), np.array(ys, dtype=float), np.array(hs, dtype=float)


def _chances(x: Any, w: Any) -> Any:
    """The model's chances (n, seats): the softmax over the seats of ``x @ w``."""
    import numpy as np

    u = x @ w
    e = np.exp(u - u.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _positions(chunk: Sequence[SelfPlayGame]) -> Choices:
    """The recorded positions of ``chunk`` as choice situations: the seats, each with its features
    and its share of the win."""
    return Choices((row, [v / sum(g.returns) for v in g.returns]) for g in chunk for row in g.rows)


def _log_loss(ps: Sequence[Any], ys: Sequence[Any]) -> float:
    total = 0.0
    for p, y in zip(ps, ys, strict=True):
        total -= sum(float(yk) * math.log(max(float(pk), 1e-12)) for pk, yk in zip(p, y, strict=True))
    return total / max(1, len(ps))


def _first(ps: Sequence[Any], ys: Sequence[Any]) -> float:
    """How often the seat ranked first won (its share of the win)."""
    hits = sum(float(y[max(range(len(p)), key=lambda k: p[k])]) for p, y in zip(ps, ys, strict=True))
    return hits / max(1, len(ps))


def save_games(played: Sequence[SelfPlayGame], path: str) -> None:
    """Write self-play games as JSON lines (job, returns, recorded positions), to refit without
    playing them again (:func:`load_games`)."""
    import dataclasses
    import json

    with open(path, "w", encoding="utf-8") as f:
        for g in played:
            row = dataclasses.asdict(g)
            f.write(json.dumps(row) + "\n")


def load_games(path: str) -> list[SelfPlayGame]:
    """Self-play games written by :func:`save_games`."""
    import json

    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            job = d["job"]
            job["options"] = tuple(tuple(o) for o in job["options"])
            out.append(
                SelfPlayGame(
                    job=SelfPlayJob(**job),
                    returns=tuple(d["returns"]),
                    rows=tuple(tuple(tuple(f) for f in r) for r in d["rows"]),
                    heuristic=tuple(tuple(h) for h in d["heuristic"]),
                    moves=d["moves"],
                    seconds=d["seconds"],
                    policy=tuple(
                        (tuple(tuple(f) for f in rows), tuple(shares)) for rows, shares in d.get("policy", [])
                    ),
                )
            )
    return out


def train(
    game: str,
    *,
    games: int = 120,
    players: int = 2,
    seed: int = 0,
    simulations: int = 64,
    evaluator: str = "",
    sample: float = 0.15,
    options: dict[str, Any] | None = None,
    jobs: int = 1,
    ray_address: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    command: str = "",
    save: str | None = None,
    played: Sequence[SelfPlayGame] | None = None,
    prior: PriorLabels | None = None,
) -> dict[str, Any]:
    """Self-play ``games`` games, fit the game's ``"fitted"`` model, and return it as the JSON the
    game ships (``games/core/fitted.py``'s ``WinModel`` form, with how it was trained). ``save``
    writes the games (:func:`save_games`); ``played`` fits games played before instead (their
    settings as they were played: the other arguments are then only recorded). ``prior`` also
    records decisions for the move prior and fits it (``batch/priorfit.py``), under ``"prior"``."""
    names = _fitted_features(game, players)
    start = time.monotonic()
    todo = schedule(
        game,
        games=games,
        players=players,
        seed=seed,
        simulations=simulations,
        evaluator=evaluator,
        sample=sample,
        options=options,
        prior=prior,
    )
    played = played or run_jobs(play_selfplay, todo, jobs=jobs, ray_address=ray_address, progress=progress)
    if save is not None:
        save_games(played, save)
    result = fit(played)
    weights = [round(v, 5) for v in result.weights]
    settings = {
        "games": games,
        "players": players,
        "seed": seed,
        "simulations_per_move": simulations,
        "self_play_evaluator": evaluator or "hand-written",
        **_picking(todo),
        "sample": sample,
        "options": dict(options or {}),
    }
    out: dict[str, Any] = {
        "game": game,
        "features": list(names),
        "weights": {str(players): weights, "*": weights},
        "training": {**settings, **_fit_record(result, played, start=start, command=command)},
    }
    if prior is not None or any(g.policy for g in played):
        out["prior"] = _prior(game, played, command)  # None when no decision was recorded
    return out


def _picking(todo: Sequence[SelfPlayJob]) -> dict[str, Any]:
    """How the self-play seats picked their first moves (the training record's entries)."""
    return {
        "temperature": todo[0].temperature if todo else 0.0,
        "explore_moves": todo[0].explore_moves if todo else 0,
    }


def _prior(game: str, played: Sequence[SelfPlayGame], command: str) -> dict[str, Any] | None:
    """The move prior fitted to the visits ``played`` recorded (None when they recorded none)."""
    from batch.priorfit import prior_model

    if not any(g.policy for g in played):
        return None
    return prior_model(
        game, get_game(game).evaluators()["fitted"].prior_feature_names, played, command=command
    )


def _fitted_features(game: str, players: int) -> tuple[str, ...]:
    """The feature names of ``game``'s ``"fitted"`` evaluator, once the request is checked.

    Raises:
        ConfigError: the game has no fitted evaluator (here, not in a worker), or does not play
            with ``players`` players.
    """
    g = get_game(game)
    names = g.evaluators()["fitted"].feature_names if "fitted" in g.evaluators() else ()
    _features(g, "fitted")  # a game without a fitted evaluator fails here, not in a worker
    if not g.info.min_players <= players <= g.info.max_players:
        raise ConfigError(
            f"{game} plays with {g.info.min_players} to {g.info.max_players} players, not {players}",
            field="players",
        )
    return tuple(names)


def _fit_record(
    result: FitResult, played: Sequence[SelfPlayGame], *, start: float, command: str
) -> dict[str, Any]:
    """What the fit of ``played`` gave (the ``training`` record's second half): positions, held-out
    scores, the training loss, the games' mean length, the wall time since ``start``, the command."""
    return {
        "positions": {"train": result.positions[0], "held_out": result.positions[1]},
        "held_out_games": result.games[1],
        "held_out": {k: round(v, 4) for k, v in result.held_out.items()},
        "train_log_loss": round(result.train_log_loss, 4),
        "ridge": result.ridge,
        "mean_moves": round(sum(p.moves for p in played) / max(1, len(played)), 1),
        "wall_s": round(time.monotonic() - start, 1),
        "command": command,
    }
