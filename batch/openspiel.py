"""Expose a Lictor game as a pyspiel Python game, so OpenSpiel's own bots can play it.

The adapter is thin on purpose: every pyspiel call goes straight to the Lictor engine (the same
``legal_actions``/``apply_trusted``/``returns``), so a comparison of OpenSpiel's ``MCTSBot`` with Lictor's
MCTS measures the searches, not two engines. Cloning a state is cheap (Lictor states are
immutable, so a clone shares it), which is the most favourable setting for OpenSpiel.

Actions are mapped to integers on first sight (one table per adapter game); ``legal_actions``
returns them in ascending order as pyspiel expects. Chance nodes map to pyspiel chance nodes.
For hidden information, ``information_state_string`` is the repr of the seat's observation, and
:func:`resampler` gives ``ISMCTSBot`` a determinization drawn with ``sample_state``.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from games.core import CHANCE, TERMINAL, Game

__all__ = [
    "DeadlineMCTSBot",
    "HeuristicRolloutEvaluator",
    "LictorSpielGame",
    "make_mcts_bot",
    "make_spiel_game",
    "resampler",
]

_counter = itertools.count()


class _Codec:
    """Lictor actions <-> pyspiel integers (assigned on first sight)."""

    def __init__(self) -> None:
        self.ids: dict[Any, int] = {}
        self.actions: list[Any] = []

    def encode(self, action: Any) -> int:
        i = self.ids.get(action)
        if i is None:
            i = self.ids[action] = len(self.actions)
            self.actions.append(action)
        return i

    def decode(self, i: int) -> Any:
        return self.actions[i]


class LictorSpielState(pyspiel.State):  # type: ignore[misc]
    """A pyspiel state wrapping an (immutable) Lictor state."""

    def __init__(self, game: LictorSpielGame, state: Any) -> None:
        super().__init__(game)
        self._lgame: LictorSpielGame = game
        self.lstate = state

    # -------------------------------------------------------------- pyspiel API
    def current_player(self) -> int:
        p = self._lgame.lictor.current_player(self.lstate)
        if p == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        if p == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return int(p)

    def _legal_actions(self, player: int) -> list[int]:
        enc = self._lgame.codec.encode
        return sorted(enc(a) for a in self._lgame.lictor.legal_actions(self.lstate))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        enc = self._lgame.codec.encode
        return sorted((enc(a), p) for a, p in self._lgame.lictor.chance_outcomes(self.lstate))

    def _apply_action(self, action: int) -> None:
        # OpenSpiel's bots apply only actions they took from legal_actions / chance_outcomes: the
        # game's unchecked fast path, the one Lictor's search uses too (a fair comparison)
        self.lstate = self._lgame.lictor.apply_trusted(self.lstate, self._lgame.codec.decode(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self._lgame.lictor.action_to_text(self.lstate, self._lgame.codec.decode(action))

    def is_terminal(self) -> bool:
        return bool(self._lgame.lictor.current_player(self.lstate) == TERMINAL)

    def returns(self) -> list[float]:
        g = self._lgame.lictor
        if g.current_player(self.lstate) != TERMINAL:
            return [0.0] * self._lgame.players
        return [float(x) for x in g.returns(self.lstate)]

    def information_state_string(self, player: int | None = None) -> str:
        seat = self.current_player() if player is None else player
        return repr(self._lgame.lictor.observation(self.lstate, seat))

    def observation_string(self, player: int | None = None) -> str:
        return self.information_state_string(player)

    def __str__(self) -> str:
        return self._lgame.lictor.state_to_text(self.lstate)

    def __deepcopy__(self, memo: Any) -> LictorSpielState:
        return LictorSpielState(self._lgame, self.lstate)

    def clone(self) -> LictorSpielState:
        return LictorSpielState(self._lgame, self.lstate)


class LictorSpielGame(pyspiel.Game):  # type: ignore[misc]
    """A pyspiel game over a Lictor game with a fixed player count and start position."""

    def __init__(self, lictor: Game[Any, Any], players: int, start: Any, game_type: Any, info: Any) -> None:
        super().__init__(game_type, info, {})
        self.lictor = lictor
        self.players = players
        self.start = start
        self.codec = _Codec()

    def new_initial_state(self) -> LictorSpielState:
        return LictorSpielState(self, self.start)

    def wrap(self, state: Any) -> LictorSpielState:
        """A pyspiel state at any Lictor position of this game."""
        return LictorSpielState(self, state)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        return None


def make_spiel_game(lictor: Game[Any, Any], players: int, start: Any) -> LictorSpielGame:
    """Build the pyspiel game object for ``lictor`` with ``players`` seats, starting at ``start``.

    The bots take the game object directly; it is not put in pyspiel's registry (a Python
    factory there crashes the interpreter at exit).
    """
    info = lictor.info
    short = f"lictor_{info.name}_{players}_{next(_counter)}"
    game_type = pyspiel.GameType(
        short_name=short,
        long_name=f"Lictor {info.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(
            pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
            if info.stochastic
            else pyspiel.GameType.ChanceMode.DETERMINISTIC
        ),
        information=(
            pyspiel.GameType.Information.IMPERFECT_INFORMATION
            if info.hidden_information
            else pyspiel.GameType.Information.PERFECT_INFORMATION
        ),
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players,
        min_num_players=players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification={},
    )
    game_info = pyspiel.GameInfo(
        num_distinct_actions=1_000_000,
        max_chance_outcomes=1_000_000,
        num_players=players,
        min_utility=0.0,
        max_utility=1.0,
        utility_sum=None,
        max_game_length=100_000,
    )
    game = LictorSpielGame(lictor, players, start, game_type, game_info)
    return game


def resampler(game: LictorSpielGame, rng: random.Random) -> Any:
    """An ``ISMCTSBot.set_resampler`` callback: a determinization of the seat's observation."""

    def cb(state: LictorSpielState, player: int) -> LictorSpielState:
        lg = game.lictor
        obs = lg.observation(state.lstate, player)
        return LictorSpielState(game, lg.sample_state(obs, player, rng))

    return cb


class HeuristicRolloutEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """OpenSpiel evaluator doing exactly what Lictor's cut-off rollout does.

    Random actions (chance by its odds) for ``depth`` steps, then the game's ``heuristic`` (or
    ``returns`` at the end); ``depth=None`` plays to the end. Priors are the game's ``prior`` where
    it gives one (as Lictor's PUCT uses them), else uniform.
    """

    def __init__(self, depth: int | None, seed: int = 0, *, use_prior: bool = True) -> None:
        self.depth = depth
        self.rng = random.Random(seed)
        self.use_prior = use_prior

    def evaluate(self, state: LictorSpielState) -> np.ndarray:
        g = state._lgame.lictor
        s = state.lstate
        rng = self.rng
        steps = 0
        while True:
            p = g.current_player(s)
            if p == TERMINAL:
                return np.array(g.returns(s), dtype=float)
            if self.depth is not None and steps >= self.depth:
                return np.array(g.heuristic(s), dtype=float)
            if p == CHANCE:
                a = g.sample_chance(s, rng)
            else:
                legal = g.legal_actions(s)
                a = legal[int(rng.random() * len(legal))]  # as search.mcts.rollout
            s = g.apply_trusted(s, a)
            steps += 1

    def prior(self, state: LictorSpielState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return state.chance_outcomes()
        g = state._lgame.lictor
        given = g.prior(state.lstate) if self.use_prior else None
        if given is not None:
            enc = state._lgame.codec.encode
            return [(enc(a), float(p)) for a, p in zip(g.legal_actions(state.lstate), given, strict=True)]
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


class _TimeUpError(Exception):
    """Raised between two simulations of a :class:`DeadlineMCTSBot` search when its time is up."""


class DeadlineMCTSBot(mcts.MCTSBot):  # type: ignore[misc]
    """OpenSpiel's ``MCTSBot`` with a wall-clock deadline, as Lictor's searches have.

    ``MCTSBot`` counts simulations only. :meth:`search_until` runs its own ``mcts_search``
    unchanged and stops it between two simulations once the deadline has passed (the check sits
    at the start of a simulation, in ``_apply_tree_policy``, before the tree is touched), then
    returns the root as it stands. Without a deadline the bot is ``MCTSBot``.
    """

    deadline = math.inf
    max_simulations: int
    _root: Any = None

    def _apply_tree_policy(self, root: Any, state: Any) -> Any:
        if self.deadline < math.inf:
            self._root = root
            # (children, not explore_count: the first simulation scores the root, the second
            # expands it; a root stopped between the two has no move to give)
            if root.children and time.perf_counter() >= self.deadline:
                raise _TimeUpError
        return super()._apply_tree_policy(root, state)

    def search_until(self, state: Any, deadline: float) -> Any:
        """``mcts_search(state)`` until ``deadline`` (``time.perf_counter``) or a solved root;
        returns the root (expanded: at least the simulations that give it children)."""
        self.deadline, cap = deadline, self.max_simulations
        self.max_simulations = 2**62
        try:
            return self.mcts_search(state)
        except _TimeUpError:
            return self._root
        finally:
            self.deadline, self.max_simulations, self._root = math.inf, cap, None


def make_mcts_bot(
    game: LictorSpielGame, *, depth: int | None, uct_c: float, puct_c: float, simulations: int, seed: int
) -> DeadlineMCTSBot:
    """OpenSpiel's ``MCTSBot`` set up like Lictor's MCTS: the same cut-off rollout evaluator, and
    PUCT on the game's priors (with Lictor's ``puct_c``) when the game gives priors, else UCT."""
    has_prior = type(game.lictor).prior is not Game.prior
    return DeadlineMCTSBot(
        game,
        puct_c if has_prior else uct_c,
        simulations,
        HeuristicRolloutEvaluator(depth, seed),
        random_state=np.random.RandomState(seed % 2**31),
        child_selection_fn=mcts.SearchNode.puct_value if has_prior else mcts.SearchNode.uct_value,
    )
