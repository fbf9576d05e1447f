"""``TiberiusGame``: Tiberius Who? on the Game protocol.

Decision points (each owned by the seat the rulebook names):
card phase ``bid N`` / ``buy HIS06`` / ``imperium maius`` (play the Pro-Consular Imperium Maius
card) / ``take 2 influence``; bidders ``pick GAL03`` in bid order;
cube phase ``black conquests`` (one black icon at a time), ``row 2`` / ``row 3`` / ``row none``,
PCIM ``move imperator`` (one cube at a time) and ``done`` once 5 moved; adoption ``adopt own`` /
``adopt A04`` / ``pass``. Seats with nothing to decide are skipped automatically.

Hidden information: deck order, the other seats' secret adoption cards and the unused adoption
cards. Decks are shuffled at setup with the seed, so the game has no chance nodes.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.core.face import REFEREE, SPECTATOR, Catalogue, Description, Fact, Viewer, did_you_mean
from games.core.protocol import TERMINAL, Game, GameConfig, GameInfo, OptionValue, Seat
from games.core.protocol import Evaluator as LeafEvaluator
from games.core.records import replace
from games.errors import ConfigError, LictorError, NotationError
from games.tiberius import features, rules
from games.tiberius.ai import Evaluator
from games.tiberius.face import Face
from games.tiberius.model import (
    ADOPT,
    HIDDEN,
    OVER,
    VARIANTS,
    Content,
    TAction,
    TiberiusState,
    load_content,
)
from games.tiberius.notation import HINT, Notation
from games.tiberius.public import PublicForm
from games.tiberius.scoring import SeatTally, chain_key, ranking, score_cubes, score_totals
from games.tiberius.setup import Setup

__all__ = ["TiberiusGame"]

SOLO_TARGET = 45
"""rule: tiberius/end-of-game - a solo player needs 45 VP to win."""


class TiberiusGame(Game[TiberiusState, TAction]):
    """Tiberius Who? (Neil Whyman), 1-6 players, 8 turns."""

    def __init__(self, *, content_path: str = "") -> None:
        self.pack: Content = load_content(content_path)
        self.info = GameInfo(
            name="tiberius",
            title="Tiberius Who?",
            min_players=1,
            max_players=6,
            variants=VARIANTS,
            content_version=self.pack.version,
            hidden_information=True,
            stochastic=False,
        )
        self.notation = Notation(self.pack)
        self._ai = Evaluator(self.pack)
        self.public = PublicForm(self.pack)
        self.face = Face(self)
        self.setup = Setup(self.pack)
        # The options when a config sets none.
        self._defaults: dict[str, OptionValue] = {v.name: v.default for v in self.info.variants}

    # ------------------------------------------------------------------ setup and flow
    def new_state(self, config: GameConfig, seed: int) -> TiberiusState:
        """The set-up (:meth:`games.tiberius.setup.Setup.deal`) with the config's variants."""
        self.check_players(config)
        n = config.players
        opts = (
            {name: self.option(config, name) for name in self._defaults} if config.options else self._defaults
        )
        oldest = opts["oldest_seat"]
        if not isinstance(oldest, int) or isinstance(oldest, bool) or not 0 <= oldest < n:
            raise ConfigError(
                f"oldest_seat must be a seat 0..{n - 1}, not {oldest!r}", field="config.options.oldest_seat"
            )
        return self.setup.deal(n, seed, opts)

    def num_players(self, state: TiberiusState) -> int:
        return state.num_players

    def current_player(self, state: TiberiusState) -> Seat:
        return TERMINAL if state.phase == OVER else state.actor

    def legal_actions(self, state: TiberiusState) -> Sequence[TAction]:
        return rules.legal_actions(state, self.pack)

    def apply(self, state: TiberiusState, action: TAction) -> TiberiusState:
        return rules.perform(state, self.pack, action)

    def apply_trusted(self, state: TiberiusState, action: TAction) -> TiberiusState:
        """``apply`` without the legality check, for an action from ``legal_actions``."""
        return rules.perform(state, self.pack, action, trusted=True)

    # ------------------------------------------------------------------ scoring
    def loyal(self, state: TiberiusState, seat: Seat) -> bool:
        """rule: tiberius/adoption-phase - career cards from all six regional decks (the mat flips)."""
        careers, decks = state.players[seat].careers, len(self.pack.decks)
        if len(careers) < decks:  # fewer cards than decks: not all six (the usual case, no set to build)
            return False
        return len({self.pack.cards[c].region for c in careers}) == decks

    def age_rank(self, state: TiberiusState) -> tuple[int, ...]:
        """Per seat, 0 for the oldest."""
        age = state.age
        return tuple(map(age.index, range(len(state.players))))

    def tally(
        self, state: TiberiusState, *, keys: Sequence[tuple[int, ...]] | None = None
    ) -> tuple[SeatTally, ...]:
        """Every seat's VP by the schedule, as if the game ended now (exact at the end); ``keys``:
        ``self.keys(state)`` when the caller has them already."""
        decks = len(self.pack.decks)
        players = state.players
        return score_cubes(
            [p.cubes for p in players],
            [p.adopted >= 0 for p in players],
            # (a seat with fewer career cards than decks is not loyal: no set to build)
            [len(p.careers) >= decks and self.loyal(state, s) for s, p in enumerate(players)],
            self.age_rank(state) if keys is None else (),  # (read only to build the keys)
            marriage_vp=state.marriage_vp,
            imperator_solo=state.imperator_solo,
            imperator_empty=state.imperator_empty,
            keys=keys,
        )

    def totals(self, state: TiberiusState) -> list[int]:
        """Every seat's VP total as if the game ended now (the fast path of ``tally``)."""
        players = state.players
        return score_totals(
            [p.cubes for p in players],
            [p.adopted >= 0 for p in players],
            [self.loyal(state, s) for s in range(len(players))],
            self.age_rank(state),
            marriage_vp=state.marriage_vp,
            imperator_solo=state.imperator_solo,
            imperator_empty=state.imperator_empty,
        )

    def keys(self, state: TiberiusState) -> list[tuple[int, ...]]:
        """Each seat's tie-breaker chain key."""
        ages = self.age_rank(state)
        return [chain_key(p.cubes, p.adopted >= 0, ages[s]) for s, p in enumerate(state.players)]

    def standings(self, state: TiberiusState) -> list[Seat]:
        """Seats best first by VP, ties broken by the chain (rule: tiberius/tie-breaker)."""
        return ranking(self.totals(state), self.keys(state))

    def returns(self, state: TiberiusState) -> tuple[float, ...]:
        """1 for the winner after tie-breakers, else 0; solo: 1 with 45 VP (rule: tiberius/end-of-game)."""
        n = state.num_players
        if state.phase != OVER:
            return (0.0,) * n
        if n == 1:
            return (1.0 if self.totals(state)[0] >= SOLO_TARGET else 0.0,)
        winner = self.standings(state)[0]
        return tuple(1.0 if s == winner else 0.0 for s in range(n))

    def heuristic(self, state: TiberiusState) -> tuple[float, ...]:
        """Per seat in [0, 1] (summing to 1): a softmax of projected VP (``games.tiberius.ai``) - the
        VP if the game ended now plus icons already on their way (a card played, a bid's pick, PCIM
        moves, black icons), adoption and loyalty chances and stock for future turns; the softmax
        temperature shrinks as turns run out. Solo: projected VP against 45 (logistic)."""
        if state.num_players == 1:
            vp = self._ai.projected(state)[0]
            return (1.0 / (1.0 + math.exp(-(vp - SOLO_TARGET) / 5.0)),)
        return self._ai.win_chances(state)

    def prior(self, state: TiberiusState) -> Sequence[float] | None:
        """A PUCT prior: a softmax (1 VP temperature) of each legal action's one-ply gain in projected
        VP for the seat to act (``games.tiberius.ai``): a bid by the card its rank will pick less the
        cubes it costs, a buy by the card less its 6 Influence at ``ai.BUY_INFLUENCE_VP`` each (1 VP a
        cube: Influence pays for every later bid and buy), a picked card, black icon, extra row or
        PCIM move by its exact VP change, adoption first. ``None`` when the game is over."""
        if state.phase == OVER:
            return None
        return self._ai.priors(state)

    def evaluators(self) -> Mapping[str, LeafEvaluator]:
        """``"fitted"``: a win model fitted to self-play (see :mod:`games.tiberius.features`)."""
        return {"fitted": features.evaluator(self)}

    # ------------------------------------------------------------------ the face (games/tiberius/face.py)
    def content(self) -> Catalogue:
        return self.face.content()

    def describe(self, state: TiberiusState, viewer: Viewer = REFEREE) -> Description:
        return self.face.describe(state, viewer)

    def render(self, state: TiberiusState, viewer: Viewer = REFEREE) -> str:
        return self.face.render(state, viewer)

    def log_line(self, state: TiberiusState, action: TAction, viewer: Viewer = SPECTATOR) -> str:
        return self.face.log_line(state, action, viewer)

    def explain(self, state: TiberiusState, action: TAction) -> Sequence[Fact]:
        return self.face.explain(state, action)

    def outcome_facts(self, state: TiberiusState, seat: Seat) -> Sequence[Fact]:
        return self.face.outcome_facts(state, seat)

    round_word = "turn"

    def round_of(self, state: TiberiusState) -> int:
        """The game turn (1..8): a hint looks ahead to the end of the turn (rule: tiberius/end-of-game)."""
        return state.turn

    def policies(self) -> Mapping[str, Callable[[TiberiusState, random.Random], TAction]]:
        """``greedy``: the legal action the AI's one-ply evaluation (``games.tiberius.ai``) likes best."""
        return {"greedy": self._greedy}

    def _greedy(self, state: TiberiusState, rng: random.Random) -> TAction:
        actions = list(self.legal_actions(state))
        weights = self._ai.priors(state, actions)
        return actions[max(range(len(actions)), key=weights.__getitem__)]

    # ------------------------------------------------------------------ hidden information
    def observation(self, state: TiberiusState, seat: Seat) -> TiberiusState:
        """Hide deck order (decks sorted), other seats' unrevealed adoption cards and unused ones."""
        pool = list(state.adopt_unused)
        players = []
        for s, p in enumerate(state.players):
            if s == seat or p.secret in (HIDDEN, p.adopted):
                players.append(p)
            else:
                players.append(replace(p, secret=HIDDEN))
                pool.append(p.secret)
        return replace(
            state,
            decks=tuple(tuple(sorted(d)) for d in state.decks),
            players=tuple(players),
            adopt_unused=tuple(sorted(pool)),
        )

    def hides(self, state: TiberiusState, seat: Seat) -> str:
        """Another seat's view hides this seat's secret adoption card until it is revealed: the
        adoption phase's choices depend on it (rule: tiberius/adoption-phase)."""
        if state.phase != ADOPT or not 0 <= seat < state.num_players:
            return ""
        if state.players[seat].secret == HIDDEN and state.players[seat].adopted < 0:
            return f"seat {seat}'s secret adoption card"
        return ""

    def sample_state(self, observation: Any, seat: Seat, rng: random.Random) -> TiberiusState:
        """Shuffle each deck and deal the unseen adoption cards to the seats whose card is hidden."""
        obs: TiberiusState = observation
        decks = []
        for d in obs.decks:
            cards = list(d)
            rng.shuffle(cards)
            decks.append(tuple(cards))
        pool = list(obs.adopt_unused)
        rng.shuffle(pool)
        players = tuple(replace(p, secret=pool.pop()) if p.secret == HIDDEN else p for p in obs.players)
        return replace(obs, decks=tuple(decks), players=players, adopt_unused=tuple(sorted(pool)))

    # ------------------------------------------------------------------ notation
    def card_code(self, card: int) -> str:
        """Notation of a career card id."""
        return self.notation.card_code(card)

    def action_to_text(self, state: TiberiusState, action: TAction) -> str:
        return self.notation.action_text(action)

    def parse_action(self, state: TiberiusState, text: str) -> TAction:
        action = self.notation.parse_action(text)
        if action is None:
            raise self._not_an_action(state, text)
        return action

    def _not_an_action(self, state: TiberiusState, text: str) -> NotationError:
        """The error for text that is no action, with the legal moves it is closest to."""
        try:
            texts = [self.action_to_text(state, a) for a in self.legal_actions(state)]
        except LictorError:  # a position with no seat to move: no suggestion
            texts = []
        close = did_you_mean(text, texts)
        return NotationError(
            f"{text[:60]!r} is not a tiberius action{close or ';'} try {HINT}", field="action"
        )

    def state_to_text(self, state: TiberiusState) -> str:
        """``tiberius `` followed by the state's dict as compact JSON (keys sorted)."""
        return "tiberius " + json.dumps(self.to_dict(state), sort_keys=True, separators=(",", ":"))

    def parse_state(self, text: str) -> TiberiusState:
        head, _, body = text.strip().partition(" ")
        if head != "tiberius":
            raise NotationError("a tiberius state starts with 'tiberius '", field="state")
        try:
            data = json.loads(body)
        except json.JSONDecodeError as exc:
            raise NotationError(f"state is not valid JSON: {exc.msg}", field="state") from None
        except RecursionError:
            raise NotationError("state JSON is nested too deeply", field="state") from None
        if not isinstance(data, dict):
            raise NotationError("state JSON must be an object", field="state")
        return self.from_dict(data)

    # ------------------------------------------------------------------ the public form
    def to_dict(self, state: TiberiusState) -> dict[str, Any]:
        """The public form in the rulebook's words (:mod:`games.tiberius.public`)."""
        return self.public.to_dict(state)

    def from_dict(self, data: Mapping[str, Any]) -> TiberiusState:
        """Rebuild and validate a state; raises only ``InvalidStateError`` naming the field."""
        return self.public.from_dict(data)

    def state_schema(self) -> Mapping[str, Any]:
        return self.public.state_schema()

    def score_sheet_schema(self) -> Mapping[str, Any] | None:
        return self.public.score_sheet_schema()

    def from_score_sheet(self, data: Mapping[str, Any]) -> TiberiusState:
        return self.public.from_score_sheet(data)
