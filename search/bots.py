"""Players for AI seats, tests and benchmarks: random, greedy (one ply) and search bots.

Every bot has ``act(state) -> action`` for the seat to move. Bots that face hidden information
(greedy, ISMCTS) look only at the mover's observation.
"""

from __future__ import annotations

from typing import Any, Protocol

from games.core import CHANCE, TERMINAL, Game, derive_seed, make_rng
from games.errors import WrongSeatError
from search.api import Level, analyze, level, pick_algorithm, pick_move
from search.ismcts import ISMCTS
from search.mcts import MCTS
from search.types import Analysis, SearchLimit, SearchOptions

__all__ = ["Bot", "GreedyBot", "RandomBot", "SearchBot"]


class Bot(Protocol):
    """A player: picks an action for the seat to move."""

    name: str

    def act(self, state: Any) -> Any:
        """The action the bot plays in ``state`` (a decision node)."""
        ...


def _seat(game: Game[Any, Any], state: Any) -> int:
    seat = game.current_player(state)
    if seat in (CHANCE, TERMINAL):
        raise WrongSeatError("no seat decides here (chance node or game over)", field="state")
    return seat


class RandomBot:
    """Plays a uniformly random legal action.

    Args:
        game: the game.
        seed: the RNG seed.
    """

    name = "random"

    def __init__(self, game: Game[Any, Any], *, seed: int = 0) -> None:
        self.game = game
        self.rng = make_rng(seed)

    def act(self, state: Any) -> Any:
        """A random legal action."""
        _seat(self.game, state)
        legal = self.game.legal_actions(state)
        return legal[self.rng.randrange(len(legal))]


class GreedyBot:
    """Plays the action with the best one-ply value for its seat (ties broken at random).

    The value of an action is ``returns`` if it ends the game, else ``heuristic``; when the action
    leads to a chance node, the expectation over its outcomes (two chance nodes deep, e.g. an attack
    roll then a defence roll; over more than ``max_outcomes`` outcomes, the mean of that many
    seeded draws). With hidden information the bot evaluates on one determinization of its
    observation.

    Args:
        game: the game.
        seed: the RNG seed.
        max_outcomes: the most outcomes of a chance node evaluated exactly.
    """

    name = "greedy"

    def __init__(self, game: Game[Any, Any], *, seed: int = 0, max_outcomes: int = 64) -> None:
        self.game = game
        self.rng = make_rng(seed)
        self.max_outcomes = max_outcomes

    def _value(self, state: Any, seat: int, depth: int = 0) -> float:
        game = self.game
        player = game.current_player(state)
        if player == TERMINAL:
            return float(game.returns(state)[seat])
        if player == CHANCE and depth < 2:
            outcomes = game.chance_outcomes(state)
            if len(outcomes) > self.max_outcomes:  # e.g. a pool of many dice: a seeded sample
                sample = self.rng.choices(
                    [a for a, _ in outcomes], weights=[p for _, p in outcomes], k=self.max_outcomes
                )
                return sum(self._value(game.apply_trusted(state, a), seat, depth + 1) for a in sample) / len(
                    sample
                )
            return sum(p * self._value(game.apply_trusted(state, a), seat, depth + 1) for a, p in outcomes)
        return float(game.heuristic(state)[seat])

    def act(self, state: Any) -> Any:
        """The greedy action."""
        game = self.game
        seat = _seat(game, state)
        if game.info.hidden_information:
            state = game.sample_state(game.observation(state, seat), seat, self.rng)
        best: list[Any] = []
        best_v = -float("inf")
        for action in game.legal_actions(state):
            v = self._value(game.apply_trusted(state, action), seat)
            if v > best_v + 1e-12:
                best_v, best = v, [action]
            elif v >= best_v - 1e-12:
                best.append(action)
        return best[self.rng.randrange(len(best))]


class SearchBot:
    """An AI seat backed by MCTS (perfect information, with tree reuse) or ISMCTS (hidden information).

    Give either a strength ``level`` (1–10) or a ``limit`` (then it plays the best move).

    Args:
        game: the game.
        level: a strength level 1–10 (budget, temperature, rollout depth).
        limit: a budget per move instead of a level.
        options: search options (default: the level's or ``SearchOptions()``).
        seed: the seed; move ``k`` searches with ``derive_seed(seed, k)``.
        workers: worker processes per search (root parallelism; disables tree reuse).
        algorithm: ``"auto"``, ``"mcts"`` or ``"ismcts"``.
    """

    def __init__(
        self,
        game: Game[Any, Any],
        *,
        level: int | None = None,
        limit: SearchLimit | None = None,
        options: SearchOptions | None = None,
        seed: int = 0,
        workers: int = 1,
        algorithm: str = "auto",
    ) -> None:
        self.game = game
        self.level: Level | None = _level(level) if level is not None else None
        if limit is None:
            limit = self.level.limit if self.level is not None else SearchLimit(simulations=1000)
        self.limit = limit
        if options is None:
            options = self.level.options_for(game) if self.level is not None else SearchOptions()
        self.options = options
        self.seed = seed
        self.workers = workers
        self.algorithm = pick_algorithm(game, algorithm)
        self.temperature = self.level.temperature if self.level is not None else 0.0
        self.name = f"{self.algorithm}" + (f"-level{self.level.level}" if self.level is not None else "")
        self._moves = 0
        self._rng = make_rng(derive_seed(seed, "choice"))
        self._engine: MCTS | ISMCTS | None = None
        if workers == 1:
            self._engine = (
                MCTS(game, options=options) if self.algorithm == "mcts" else ISMCTS(game, options=options)
            )
        self.last: Analysis | None = None

    def analyse(self, state: Any, *, limit: SearchLimit | None = None) -> Analysis:
        """Search ``state`` with the bot's budget (or ``limit``)."""
        seed = derive_seed(self.seed, self._moves)
        self._moves += 1
        lim = limit or self.limit
        if self._engine is not None:
            analysis = self._engine.search(state, limit=lim, seed=seed)
        else:
            analysis = analyze(
                self.game,
                state,
                limit=lim,
                seed=seed,
                options=self.options,
                workers=self.workers,
                algorithm=self.algorithm,
            )
        self.last = analysis
        return analysis

    def act(self, state: Any) -> Any:
        """Search and pick a move (at the level's temperature); a forced move is played at once."""
        legal = self.game.legal_actions(state)
        if len(legal) == 1:
            self._moves += 1
            if isinstance(self._engine, ISMCTS):  # (MCTS finds the next root by its state)
                self._engine.advance(legal[0])
            return legal[0]
        analysis = self.analyse(state)
        action = pick_move(analysis, temperature=self.temperature, rng=self._rng)
        if self._engine is not None:
            self._engine.advance(action)
        return action


def _level(number: int) -> Level:
    return level(number)
