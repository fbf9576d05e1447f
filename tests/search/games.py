"""Tiny constructed games for the search tests (never registered).

- ``NimGame``: perfect information, 2 seats; take 1-3 stones, taking the last stone wins. The
  winning move leaves a multiple of 4. ``NimGame(priors=True)`` supplies priors (PUCT).
- ``ThreeSeatGame``: a 3-seat tree with a known max^n value: seat 0 plays ``R`` for (0.5, 0, 0.5).
- ``GambleGame``: seat 0 takes ``safe`` (0.6/0.4) or ``gamble`` on a fair coin (expectation 0.5).
- ``PeekGame``: seat 0 must guess seat 1's face-down card; only the observation may be used.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from games.core import CHANCE, TERMINAL, Game, GameConfig, GameInfo
from games.errors import IllegalActionError, NotationError


class _TextGame(Game[Any, str]):
    """Shared notation/serialization for the little games (states are frozen dataclasses)."""

    state_type: type

    def __init__(self, *, content_path: str = "") -> None:
        self.content_path = content_path

    def apply(self, state: Any, action: str) -> Any:
        if action not in self.legal_actions(state):
            raise IllegalActionError(f"{action!r} is not legal", field="action")
        return self._apply(state, action)

    def _apply(self, state: Any, action: str) -> Any:
        raise NotImplementedError

    def action_to_text(self, state: Any, action: str) -> str:
        return action

    def parse_action(self, state: Any, text: str) -> str:
        if text not in self.legal_actions(state):
            raise NotationError(f"{text!r} is not an action here", field="action")
        return text

    def to_dict(self, state: Any) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name in state.__dataclass_fields__:
            value = getattr(state, name)
            out[name] = list(value) if isinstance(value, tuple) else value
        return out

    def from_dict(self, data: Mapping[str, Any]) -> Any:
        return self.state_type(**{k: tuple(v) if isinstance(v, list) else v for k, v in data.items()})

    def state_to_text(self, state: Any) -> str:
        return json.dumps(self.to_dict(state), sort_keys=True)

    def parse_state(self, text: str) -> Any:
        return self.from_dict(json.loads(text))


@dataclass(frozen=True, slots=True)
class NimState:
    """Attributes: stones left; turn: seat to move; winner: -1 while playing."""

    stones: int
    turn: int = 0
    winner: int = -1


class NimGame(_TextGame):
    state_type = NimState
    info = GameInfo(name="nim", title="Nim (test)", min_players=2, max_players=2)

    def __init__(self, *, stones: int = 5, priors: bool = False) -> None:
        super().__init__()
        self.stones = stones
        self.priors = priors

    def new_state(self, config: GameConfig, seed: int) -> NimState:
        return NimState(stones=self.stones)

    def num_players(self, state: NimState) -> int:
        return 2

    def current_player(self, state: NimState) -> int:
        return TERMINAL if state.winner >= 0 else state.turn

    def legal_actions(self, state: NimState) -> Sequence[str]:
        if state.winner >= 0:
            return ()
        return tuple(f"take{k}" for k in (1, 2, 3) if k <= state.stones)

    def _apply(self, state: NimState, action: str) -> NimState:
        left = state.stones - int(action[4:])
        return NimState(stones=left, turn=1 - state.turn, winner=state.turn if left == 0 else -1)

    def returns(self, state: NimState) -> tuple[float, ...]:
        if state.winner < 0:
            return (0.0, 0.0)
        return tuple(1.0 if i == state.winner else 0.0 for i in range(2))

    def prior(self, state: NimState) -> Sequence[float] | None:
        if not self.priors:
            return None
        legal = self.legal_actions(state)
        good = f"take{state.stones % 4}"
        return [0.7 if a == good else 0.3 for a in legal] if good in legal else [1 / len(legal)] * len(legal)


@dataclass(frozen=True, slots=True)
class TreeState:
    """Attributes: path: the actions so far."""

    path: tuple[str, ...] = ()


_TREE: dict[tuple[str, ...], tuple[float, float, float]] = {
    ("L", "x"): (1.0, 0.0, 0.0),
    ("L", "y"): (0.0, 1.0, 0.0),
    ("R", "u"): (0.5, 0.0, 0.5),
    ("R", "v"): (0.0, 0.2, 0.3),
}


class ThreeSeatGame(_TextGame):
    state_type = TreeState
    info = GameInfo(name="tree3", title="Three-seat tree (test)", min_players=3, max_players=3)

    def new_state(self, config: GameConfig, seed: int) -> TreeState:
        return TreeState()

    def num_players(self, state: TreeState) -> int:
        return 3

    def current_player(self, state: TreeState) -> int:
        if len(state.path) == 2:
            return TERMINAL
        if not state.path:
            return 0
        return 1 if state.path[0] == "L" else 2

    def legal_actions(self, state: TreeState) -> Sequence[str]:
        if len(state.path) == 2:
            return ()
        if not state.path:
            return ("L", "R")
        return ("x", "y") if state.path[0] == "L" else ("u", "v")

    def _apply(self, state: TreeState, action: str) -> TreeState:
        return TreeState(path=(*state.path, action))

    def returns(self, state: TreeState) -> tuple[float, ...]:
        return _TREE.get(state.path, (0.0, 0.0, 0.0))


@dataclass(frozen=True, slots=True)
class GambleState:
    """Attributes: stage: "start", "coin" (chance) or the final result name."""

    stage: str = "start"


class GambleGame(_TextGame):
    state_type = GambleState
    info = GameInfo(name="gamble", title="Gamble (test)", min_players=2, max_players=2, stochastic=True)

    def new_state(self, config: GameConfig, seed: int) -> GambleState:
        return GambleState()

    def num_players(self, state: GambleState) -> int:
        return 2

    def current_player(self, state: GambleState) -> int:
        return {"start": 0, "coin": CHANCE}.get(state.stage, TERMINAL)

    def legal_actions(self, state: GambleState) -> Sequence[str]:
        return {"start": ("gamble", "safe"), "coin": ("heads", "tails")}.get(state.stage, ())

    def chance_outcomes(self, state: GambleState) -> Sequence[tuple[str, float]]:
        return (("heads", 0.5), ("tails", 0.5)) if state.stage == "coin" else ()

    def _apply(self, state: GambleState, action: str) -> GambleState:
        return GambleState(stage="coin" if action == "gamble" else action)

    def returns(self, state: GambleState) -> tuple[float, ...]:
        return {"safe": (0.6, 0.4), "heads": (1.0, 0.0), "tails": (0.0, 1.0)}.get(state.stage, (0.0, 0.0))


@dataclass(frozen=True, slots=True)
class PeekState:
    """Attributes: card: seat 1's face-down card (0-2, -1 hidden); guess: seat 0's guess (-1 none)."""

    card: int
    guess: int = -1


class PeekGame(_TextGame):
    """Seat 0 guesses seat 1's face-down card (0, 1 or 2); a right guess wins."""

    state_type = PeekState
    info = GameInfo(name="peek", title="Peek (test)", min_players=2, max_players=2, hidden_information=True)

    def new_state(self, config: GameConfig, seed: int) -> PeekState:
        return PeekState(card=random.Random(seed).randrange(3))

    def num_players(self, state: PeekState) -> int:
        return 2

    def current_player(self, state: PeekState) -> int:
        return TERMINAL if state.guess >= 0 else 0

    def legal_actions(self, state: PeekState) -> Sequence[str]:
        return () if state.guess >= 0 else ("g0", "g1", "g2")

    def _apply(self, state: PeekState, action: str) -> PeekState:
        return replace(state, guess=int(action[1]))

    def returns(self, state: PeekState) -> tuple[float, ...]:
        win = state.guess == state.card
        return (1.0, 0.0) if win else (0.0, 1.0)

    def observation(self, state: PeekState, seat: int) -> PeekState:
        return state if seat == 1 else replace(state, card=-1)

    def sample_state(self, observation: Any, seat: int, rng: random.Random) -> PeekState:
        obs: PeekState = observation
        return obs if obs.card >= 0 else replace(obs, card=rng.randrange(3))
