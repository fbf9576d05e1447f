"""Round-robin tournaments between AI configurations, in one process, a process pool or on Ray.

Entrants are named by text (:func:`entrant`):

- ``random`` — a uniformly random legal move; ``greedy`` — the best one-ply value (``search.GreedyBot``);
- ``engine:NAME`` — a rule-based player the game ships (``Game.policies()``: Cytress's ``automa``,
  CyberVerse's ``greedy``, ...);
- ``level:N`` — the AI seat at strength level N (1–10) with its simulations and temperature, without
  its wall-time cap, so that a game is a pure function of its seed;
- ``sims:N`` — the search with N simulations a move, playing its best move;
- ``openspiel:N`` — OpenSpiel's ``MCTSBot`` with N simulations a move, on the same engine, leaf
  evaluation and priors as ``sims:N`` (:mod:`batch.openspiel`; needs ``pip install 'lictor[bench]'``).
  It searches one state: in a game with hidden information, one sampled from its seat's view each
  move (``Game.sample_state``), never the true one.

Every pair of entrants plays ``games`` games; game *g* of a pair seats them alternately (seat *s* gets
the first entrant when *s + g* is even), and games 2k and 2k+1 share the setup and the dice, so each
pair meets on the same deals from both sides. Each game is a job with its own derived seeds, so the
results are the same in one process, in a pool and on Ray (``tests/batch/test_tournament.py``).
Ratings: Bradley–Terry on the Elo scale with bootstrap intervals (:mod:`batch.ratings`).
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from batch.jobs import run_jobs
from batch.ratings import PairResult, Rating, rate
from games.core import CHANCE, TERMINAL, Game, GameConfig, derive_seed, get_game, make_rng
from games.core.text import is_digits
from games.errors import ConfigError
from search import LEVELS, GreedyBot, RandomBot, SearchBot, SearchLimit

__all__ = [
    "GameResult",
    "Job",
    "PolicyBot",
    "TournamentResult",
    "budget_of",
    "entrant",
    "play_job",
    "run",
    "schedule",
]


class PolicyBot:
    """A rule-based player the game ships (``Game.policies()[name]``), seeded."""

    def __init__(self, game: Game[Any, Any], name: str, *, seed: int) -> None:
        policies = game.policies()
        if name not in policies:
            raise ConfigError(
                f"{game.info.name} ships no engine {name!r}; it has: {sorted(policies) or 'none'}",
                field="entrants",
            )
        self.name = f"engine:{name}"
        self._policy = policies[name]
        self._rng = make_rng(seed)

    def act(self, state: Any) -> Any:
        """The engine's action."""
        return self._policy(state, self._rng)


def entrant(game: Game[Any, Any], spec: str, *, seed: int) -> Any:
    """The player an entrant's text names (see the module doc); ConfigError naming it when unknown."""
    kind, _, arg = spec.partition(":")
    if spec == "random":
        return RandomBot(game, seed=seed)
    if spec == "greedy":
        return GreedyBot(game, seed=seed)
    if kind == "engine" and arg:
        return PolicyBot(game, arg, seed=seed)
    if kind in ("level", "sims") and is_digits(arg):
        number = int(arg)
        if kind == "level":
            if not 1 <= number <= len(LEVELS):
                raise ConfigError(f"entrant {spec!r}: a level is 1 to {len(LEVELS)}", field="entrants")
            sims = LEVELS[number - 1].simulations
            return SearchBot(game, level=number, limit=SearchLimit(simulations=sims), seed=seed)
        if number < 1:
            raise ConfigError(f"entrant {spec!r}: simulations must be at least 1", field="entrants")
        return SearchBot(game, limit=SearchLimit(simulations=number), seed=seed)
    if kind == "openspiel" and is_digits(arg) and int(arg) >= 1:
        return OpenSpielBot(game, int(arg), seed=seed)
    raise ConfigError(
        f"unknown entrant {spec!r}: one of random, greedy, engine:NAME, level:1..10, sims:N, openspiel:N",
        field="entrants",
    )


class OpenSpielBot:
    """OpenSpiel's ``MCTSBot`` (``openspiel:N``): N simulations a move, Lictor's cut-off rollout and
    heuristic at its leaves and PUCT on the game's priors, as the search's defaults; a forced move is
    played at once. In a game with hidden information it searches a state sampled from its seat's
    view (a determinization per move), so it never sees what its seat may not."""

    def __init__(self, game: Game[Any, Any], simulations: int, *, seed: int) -> None:
        try:
            import batch.openspiel  # noqa: F401  (OpenSpiel is an optional extra)
        except ImportError:
            raise ConfigError(
                "OpenSpiel is not installed: pip install 'lictor[bench]' for the openspiel:N entrant",
                field="entrants",
            ) from None
        self.name = f"openspiel:{simulations}"
        self.game = game
        self._simulations = simulations
        self._seed = seed
        self._rng = make_rng(seed)
        self._spiel: Any = None
        self._bot: Any = None

    def act(self, state: Any) -> Any:
        """MCTSBot's move (the most visited child, as ``MCTSBot.step``)."""
        from batch.openspiel import make_mcts_bot, make_spiel_game
        from search import SearchOptions

        game = self.game
        legal = game.legal_actions(state)
        if len(legal) == 1:
            return legal[0]
        seat = game.current_player(state)
        if game.info.hidden_information:
            state = game.sample_state(game.observation(state, seat), seat, self._rng)
        if self._spiel is None:
            options = SearchOptions()
            self._spiel = make_spiel_game(game, game.num_players(state), state)
            self._bot = make_mcts_bot(
                self._spiel,
                depth=options.rollout_depth or 0,
                uct_c=options.uct_c,
                puct_c=options.puct_c,
                simulations=self._simulations,
                seed=self._seed,
            )
        root = self._bot.mcts_search(self._spiel.wrap(state))
        return self._spiel.codec.decode(root.best_child().action)


def budget_of(spec: str) -> int | None:
    """Simulations a move of a search entrant (None for the others): the x of a strength plot."""
    kind, _, arg = spec.partition(":")
    if kind == "level" and is_digits(arg) and 1 <= int(arg) <= len(LEVELS):
        return LEVELS[int(arg) - 1].simulations
    if kind == "sims" and is_digits(arg):
        return int(arg)
    return None


@dataclass(frozen=True, slots=True)
class Job:
    """One game of a tournament.

    Attributes:
        game: the game's name.
        players: seats at the table.
        seats: the entrant's text at each seat.
        seed: the setup's and the dice's seed (shared by the two games of a pair's deal).
        bot_seed: the seed the seats' players derive theirs from.
        options: the game's options.
    """

    game: str
    players: int
    seats: tuple[str, ...]
    seed: int
    bot_seed: int
    options: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True, slots=True)
class GameResult:
    """A played game.

    Attributes:
        job: the game's job.
        returns: each seat's return.
        moves: actions played (chance included).
        seconds: wall time it took.
    """

    job: Job
    returns: tuple[float, ...]
    moves: int
    seconds: float


def play_job(job: Job) -> GameResult:
    """Play one game (a process pool's or a Ray task's unit: a pure function of ``job``)."""
    start = time.perf_counter()
    game = get_game(job.game)
    bots = [entrant(game, spec, seed=derive_seed(job.bot_seed, seat)) for seat, spec in enumerate(job.seats)]
    state = game.new_state(GameConfig(players=job.players, options=dict(job.options)), job.seed)
    dice = random.Random(derive_seed(job.seed, "dice"))
    moves = 0
    while (player := game.current_player(state)) != TERMINAL:
        action = game.sample_chance(state, dice) if player == CHANCE else bots[player].act(state)
        state = game.apply(state, action)
        moves += 1
    returns = tuple(float(v) for v in game.returns(state))
    return GameResult(job=job, returns=returns, moves=moves, seconds=time.perf_counter() - start)


def schedule(
    game: str,
    entrants: Sequence[str],
    *,
    games: int,
    players: int,
    seed: int,
    options: dict[str, Any] | None = None,
) -> list[Job]:
    """Every pair of entrants plays ``games`` games, seated alternately, deals shared by twos."""
    opts = tuple(sorted((options or {}).items()))
    jobs = []
    for i, j in itertools.combinations(range(len(entrants)), 2):
        for g in range(games):
            seats = tuple(entrants[i] if (s + g) % 2 == 0 else entrants[j] for s in range(players))
            jobs.append(
                Job(
                    game=game,
                    players=players,
                    seats=seats,
                    seed=derive_seed(seed, "deal", i, j, g // 2),
                    bot_seed=derive_seed(seed, "players", i, j, g),
                    options=opts,
                )
            )
    return jobs


@dataclass
class TournamentResult:
    """A tournament's games, pairwise scores and ratings.

    Attributes:
        game: the game.
        entrants: the entrants' texts.
        results: every game played, in schedule order.
        ratings: the ratings, best first.
        pairs: per ordered pair (a, b) of entrant indices, a's total score and the games they met in.
    """

    game: str
    entrants: list[str]
    results: list[GameResult]
    ratings: list[Rating] = field(default_factory=list)
    pairs: dict[tuple[int, int], tuple[float, int]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """Plain JSON: entrants, ratings, the pair table and each game."""
        return {
            "game": self.game,
            "entrants": self.entrants,
            "ratings": [
                {"entrant": r.name, "elo": r.elo, "low": r.low, "high": r.high, "games": r.games}
                for r in self.ratings
            ],
            "pairs": [
                {"entrant": self.entrants[a], "against": self.entrants[b], "score": s, "games": n}
                for (a, b), (s, n) in sorted(self.pairs.items())
            ],
            "games": [
                {"seats": list(r.job.seats), "seed": r.job.seed, "returns": list(r.returns), "moves": r.moves}
                for r in self.results
            ],
        }


def pair_results(entrants: Sequence[str], results: Sequence[GameResult]) -> list[PairResult]:
    """Each game as a result between its two entrants: the first one's share of the returns."""
    index = {e: k for k, e in enumerate(entrants)}
    out = []
    for r in results:
        names = sorted(set(r.job.seats), key=index.__getitem__)
        if len(names) != 2:
            continue
        a, b = (index[n] for n in names)
        mine = sum(v for v, s in zip(r.returns, r.job.seats, strict=True) if s == names[0])
        total = sum(r.returns)
        out.append(PairResult(a=a, b=b, score=mine / total if total > 0 else 0.5))
    return out


def run(
    game: str,
    entrants: Sequence[str],
    *,
    games: int = 10,
    players: int = 2,
    seed: int = 0,
    jobs: int = 1,
    ray_address: str | None = None,
    options: dict[str, Any] | None = None,
    progress: Callable[[int, int], None] | None = None,
    bootstrap: int = 200,
) -> TournamentResult:
    """Play the round robin and rate it (``jobs`` processes, or on Ray when ``ray_address`` is given:
    ``"local"`` starts a local Ray, anything else is a cluster's address)."""
    if len(set(entrants)) != len(entrants) or len(entrants) < 2:
        raise ConfigError("a tournament needs at least two different entrants", field="entrants")
    g = get_game(game)
    if not g.info.min_players <= players <= g.info.max_players:
        raise ConfigError(
            f"{game} plays with {g.info.min_players} to {g.info.max_players} players, not {players}",
            field="players",
        )
    for spec in entrants:  # a bad entrant fails here, not in a worker
        entrant(g, spec, seed=0)
    todo = schedule(game, entrants, games=games, players=players, seed=seed, options=options)
    results = run_jobs(play_job, todo, jobs=jobs, ray_address=ray_address, progress=progress)
    out = TournamentResult(game=game, entrants=list(entrants), results=results)
    pairs = pair_results(entrants, results)
    out.ratings = rate(list(entrants), pairs, samples=bootstrap, seed=seed)
    for p in pairs:
        s, n = out.pairs.get((p.a, p.b), (0.0, 0))
        out.pairs[(p.a, p.b)] = (s + p.score, n + 1)
        s, n = out.pairs.get((p.b, p.a), (0.0, 0))
        out.pairs[(p.b, p.a)] = (s + 1.0 - p.score, n + 1)
    return out
