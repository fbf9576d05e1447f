"""The Game protocol every Lictor game implements (see DESIGN.md, "The Game protocol").

A game is a stateless object (its content pack loaded once) whose methods take immutable states:

- ``new_state(config, seed)`` sets the game up per the rulebook; setup shuffles use ``seed``.
- ``current_player(state)`` is a seat (0-based), :data:`CHANCE` (dice: the next action is drawn from
  ``chance_outcomes``) or :data:`TERMINAL`.
- ``legal_actions(state)`` lists the actions in a deterministic order; ``apply`` is pure and raises
  :class:`~games.errors.IllegalActionError` naming the rule.
- ``returns(state)`` gives one number per seat at the end (1 win, 0 loss, shared wins split);
  ``heuristic(state)`` estimates it before the end.
- Hidden information: ``observation(state, seat)`` is what that seat may see and
  ``sample_state(observation, seat, rng)`` draws a full state consistent with it.
- Notation: ``action_to_text``/``parse_action`` and ``state_to_text``/``parse_state`` round-trip.
- Serialization: ``to_dict``/``from_dict`` round-trip through plain JSON types.

Actions must be hashable and compare by value (frozen dataclasses, tuples, ints or strings), so
that a search can key its tree on them.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeAlias, TypeVar

from games.core.face import (
    REFEREE,
    SPECTATOR,
    Catalogue,
    Description,
    Fact,
    Section,
    Viewer,
    did_you_mean,
    text_svg,
)
from games.errors import ConfigError, IllegalActionError, LictorError, NotFoundError, WrongSeatError

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Evaluator",
    "Game",
    "GameConfig",
    "GameInfo",
    "Seat",
    "Variant",
]

Seat: TypeAlias = int
"""A player's seat, 0-based in turn order at setup."""

CHANCE: Seat = -1
"""``current_player`` when the next action is a chance outcome (dice, a draw)."""

TERMINAL: Seat = -2
"""``current_player`` when the game is over."""

S = TypeVar("S")  # the game's state type
A = TypeVar("A")  # the game's action type

OptionValue: TypeAlias = "str | int | float | bool"


@dataclass(frozen=True, slots=True, kw_only=True)
class Variant:
    """A named rules variant or optional module a game offers.

    Attributes:
        name: the option key (``config.options[name]``).
        description: what it changes, citing the rulebook.
        default: the value when the option is not given.
        choices: allowed values (empty: any value of the default's type).
    """

    name: str
    description: str
    default: OptionValue = False
    choices: tuple[OptionValue, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class GameInfo:
    """What a game is, for listings.

    Attributes:
        name: the registry key, e.g. ``"tiberpunk"``.
        title: the box title, e.g. ``"Tiberpunk: Streets of Rome"``.
        min_players: fewest seats the rulebook allows.
        max_players: most seats the rulebook allows.
        variants: the options ``GameConfig.options`` accepts.
        content_version: the version of the default content pack ("" if none).
        hidden_information: whether observations hide anything (then searches use ISMCTS).
        stochastic: whether the game has chance nodes.
    """

    name: str
    title: str
    min_players: int
    max_players: int
    variants: tuple[Variant, ...] = ()
    content_version: str = ""
    hidden_information: bool = False
    stochastic: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Evaluator:
    """A leaf evaluation a game offers besides its own ``heuristic`` and ``prior`` (e.g. one fitted to
    self-play, ``games/core/fitted.py``); a search picks it by name (``Game.evaluators``).

    Attributes:
        heuristic: per seat, the estimated chance to win of a non-terminal state (as ``Game.heuristic``).
        prior: move priors over ``legal_actions`` (as ``Game.prior``); ``None`` keeps the game's own.
        summary: one line on what it is and how it was made (for listings and reports).
        features: per seat, the feature vector a fitted model weighs (what a trainer records from
            self-play positions), or ``None`` when the evaluator is not a fitted model.
        feature_names: the names of those features, in order.
        levels: whether the AI's strength levels search with it by default (set where a
            head-to-head at equal time measured it stronger than the game's own).
        prior_features: per legal action, the feature vector a fitted prior weighs (None where the
            game gives no priors, e.g. outside its main phase), or ``None`` when the evaluator has
            no fitted prior to train.
        prior_feature_names: the names of those features, in order.
    """

    heuristic: Callable[[Any], Sequence[float]]
    prior: Callable[[Any], Sequence[float] | None] | None = None
    summary: str = ""
    features: Callable[[Any], Sequence[Sequence[float]]] | None = None
    feature_names: tuple[str, ...] = ()
    levels: bool = False
    prior_features: Callable[[Any], Sequence[Sequence[float]] | None] | None = None
    prior_feature_names: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class GameConfig:
    """How to set a game up.

    Attributes:
        players: number of seats.
        options: variant options by name (see ``GameInfo.variants``); missing ones take defaults.
        content_path: a directory holding a user's content pack to use instead of the reference
            pack ("" for the reference pack).
    """

    players: int
    options: Mapping[str, OptionValue] = field(default_factory=dict)
    content_path: str = ""


class Game(ABC, Generic[S, A]):
    """Base class of every game. Subclasses set ``info`` and implement the abstract methods."""

    info: GameInfo
    round_word: str = "round"
    """What the rulebook calls the unit :meth:`round_of` counts ("round"; Tiberius: "turn")."""

    # ----------------------------------------------------------------- setup and flow
    @abstractmethod
    def new_state(self, config: GameConfig, seed: int) -> S:
        """Set up a new game per the rulebook. Raises ``ConfigError`` on a bad config."""

    @abstractmethod
    def num_players(self, state: S) -> int:
        """Number of seats in this game."""

    @abstractmethod
    def current_player(self, state: S) -> Seat:
        """The seat to decide, ``CHANCE`` or ``TERMINAL``."""

    @abstractmethod
    def legal_actions(self, state: S) -> Sequence[A]:
        """The legal actions in a deterministic order (empty iff terminal).

        At a chance node these are the chance outcomes' actions.
        """

    @abstractmethod
    def apply(self, state: S, action: A) -> S:
        """Return the state after ``action``. Never mutates ``state``.

        Raises ``IllegalActionError`` (``WrongSeatError``) naming the rule when the action is not
        legal here.
        """

    def apply_trusted(self, state: S, action: A) -> S:
        """``apply`` for an action taken from ``legal_actions(state)`` (or ``chance_outcomes``).

        Searches and playouts call this; a game may skip re-checking legality here (a fast path),
        and must then have a test proving it equals ``apply`` on legal actions. Never mutates.
        """
        return self.apply(state, action)

    def chance_outcomes(self, state: S) -> Sequence[tuple[A, float]]:
        """At a chance node, every outcome with its probability (summing to 1)."""
        return ()

    @abstractmethod
    def returns(self, state: S) -> tuple[float, ...]:
        """One value per seat: at the end the result (win 1, loss 0, ties shared)."""

    def heuristic(self, state: S) -> tuple[float, ...]:
        """A per-seat estimate of ``returns`` for a non-terminal state (cut-off rollouts)."""
        n = self.num_players(state)
        return tuple(1.0 / n for _ in range(n))

    def is_terminal(self, state: S) -> bool:
        """Whether the game is over."""
        return self.current_player(state) == TERMINAL

    # ----------------------------------------------------------------- hidden information
    def observation(self, state: S, seat: Seat) -> Any:
        """What ``seat`` may see of ``state``. Perfect-information games return the state."""
        return state

    def sample_state(self, observation: Any, seat: Seat, rng: random.Random) -> S:
        """Draw a full state consistent with ``observation`` (determinization for ISMCTS)."""
        return observation  # type: ignore[no-any-return]

    def explain(self, state: S, action: A) -> Sequence[Fact | tuple[str, float]]:
        """Facts about ``action`` for the mover, with the number behind each (for hints).

        E.g. ``Fact(label="quest success odds", value=0.72, unit="probability", better=1)``: what
        the move gains and costs now, odds, distances, margins. Facts should differ between
        candidates (the same ``label`` on each, so a hint can compare #1 with #2). Pure rules facts
        only; the search adds its own numbers (visits, values). (Older games return
        ``(label, value)`` pairs; ``games.core.face.as_facts`` reads both.)
        """
        return ()

    def outcome_facts(self, state: S, seat: Seat) -> Sequence[Fact]:
        """Where ``seat`` stands in ``state``, in the game's own terms (for hints and reviews).

        The score by category if the game ended now, money, cards, distances, odds: each a
        :class:`~games.core.face.Fact` with the same ``label`` in every position, most important
        first (the total first). A hint plays each candidate move along the search's principal
        variation and in sampled continuations to the end of the round (:meth:`round_of`) and
        compares these facts: "bid 3 ends the turn with Conquests 10 VP where take 2 influence has
        5". Read ``state`` as the seat may know it (it is a sample of the seat's view in a game
        with hidden information). Default: none (hints then compare ``explain`` facts only).
        """
        return ()

    def round_of(self, state: S) -> int:
        """The rulebook's turn or round number of ``state`` (the horizon of a hint's look ahead:
        continuations are played until it changes and every other seat has decided once); -1 when
        the game counts none (then one decision of every seat is the horizon)."""
        return -1

    # ----------------------------------------------------------------- the face (games/core/face.py)
    def content(self) -> Catalogue:
        """The components a person sees, with names, rules texts and whether each is authored."""
        return Catalogue(game=self.info.name, version=self.info.content_version)

    def describe(self, state: S, viewer: Viewer = REFEREE) -> Description:
        """What ``viewer`` (a seat, SPECTATOR or REFEREE) may see of ``state``, readable.

        Must be a function of what the viewer may see: for a seat, of ``observation(state, seat)``.
        The default shows whose turn it is and, to the referee or in a game without hidden
        information, the state's text form; games override it with their board and holdings.
        """
        player = self.current_player(state)
        if player == TERMINAL:
            step = "the game is over"
        elif player == CHANCE:
            step = "chance: the dice or the deck decide"
        else:
            step = f"seat {player} to move"
        sections: tuple[Section, ...] = ()
        if viewer == REFEREE or not self.info.hidden_information:
            sections = (Section(title="State", lines=(self.state_to_text(state),)),)
        return Description(
            game=self.info.name, viewer=viewer, headline=self.info.title, step=step, sections=sections
        )

    def render(self, state: S, viewer: Viewer = REFEREE) -> str:
        """An SVG picture of ``state`` as ``viewer`` may see it (default: the description as text)."""
        d = self.describe(state, viewer)
        return text_svg(d.headline, d.to_text(100).splitlines()[1:])

    def log_line(self, state: S, action: A, viewer: Viewer = SPECTATOR) -> str:
        """One sentence for ``action`` played in ``state``, as ``viewer`` may read it.

        Hidden information stays hidden: a move the viewer cannot tell apart from another by its
        own view (``games.core.views.seen_by``: a card drawn face down, a secret kept) must read the
        same whichever it was ("draws a card"); ``check_game`` proves it. Games override it with
        the rulebook's words.
        """
        from games.core.views import seen_by  # views builds on this module

        player = self.current_player(state)
        seen = viewer in seen_by(self, state, action)
        text = self.action_to_text(state, action) if seen else ""
        if player == CHANCE:
            return f"Chance: {text}." if seen else "Chance decides."
        return f"Seat {player} plays {text}." if seen else f"Seat {player} moves."

    def hides(self, state: S, seat: Seat) -> str:
        """What of ``seat``'s own secrets ``state`` does not hold, in words ("" when it holds all).

        A full state and the seat's own view hold them all; another viewer's view (GetMatch as
        seat 0, a spectator's) may not: "its system tiles" while seat 1 is to place one. Such a
        position cannot list or play ``seat``'s moves (``games.core.views.check_known``). Games
        with secrets a seat decides on override it.
        """
        return ""

    def policies(self) -> Mapping[str, Callable[[S, random.Random], A]]:
        """Rule-based players the game ships, by engine name (e.g. ``"automa"``, ``"greedy"``).

        Each takes a state where a seat is to decide and an RNG, and returns that seat's action
        (from ``legal_actions``). A hosted match's AI seat may be played by one (``engine``).
        """
        return {}

    def score_sheet_schema(self) -> Mapping[str, Any] | None:
        """The JSON Schema of the game's short end-of-game form (None: the game has none).

        A score sheet is what a person types in from a real table to have the end scored exactly
        (Tiberius: cubes per box, influence, adoption, age), not the whole mid-game state.
        """
        return None

    def from_score_sheet(self, data: Mapping[str, Any]) -> S:
        """The state to score from a score sheet (``score_sheet_schema``); ``InvalidStateError``
        naming the bad field (``field="score_sheet.<path>"``), ``NotFoundError`` without one."""
        raise NotFoundError(f"{self.info.name} has no score sheet form", field="score_sheet")

    def state_schema(self) -> Mapping[str, Any]:
        """The JSON Schema of the public state form (``to_dict``)."""
        return {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"}

    def prior(self, state: S) -> Sequence[float] | None:
        """Optional prior probabilities over ``legal_actions(state)`` for PUCT (None: uniform)."""
        return None

    def evaluators(self) -> Mapping[str, Evaluator]:
        """Other leaf evaluations than ``heuristic``/``prior`` the game ships, by name (e.g. a win
        model fitted to self-play, ``"fitted"``); a search picks one with ``SearchOptions.evaluator``.
        Empty by default."""
        return {}

    # ----------------------------------------------------------------- notation
    @abstractmethod
    def action_to_text(self, state: S, action: A) -> str:
        """The notation of ``action`` in ``state`` (round-trips through ``parse_action``)."""

    @abstractmethod
    def parse_action(self, state: S, text: str) -> A:
        """Parse an action's notation. Raises ``NotationError`` when it does not parse."""

    @abstractmethod
    def state_to_text(self, state: S) -> str:
        """A text form of the whole state (round-trips through ``parse_state``)."""

    @abstractmethod
    def parse_state(self, text: str) -> S:
        """Parse a state's text form. Raises ``NotationError`` when it does not parse."""

    # ----------------------------------------------------------------- serialization
    @abstractmethod
    def to_dict(self, state: S) -> dict[str, Any]:
        """The state as plain JSON types (round-trips through ``from_dict``)."""

    @abstractmethod
    def from_dict(self, data: Mapping[str, Any]) -> S:
        """Rebuild a state from ``to_dict`` output. Raises ``InvalidStateError`` on bad data."""

    # ----------------------------------------------------------------- helpers for games
    def check_players(self, config: GameConfig) -> None:
        """Raise ``ConfigError`` unless ``config.players`` is within the rulebook's range."""
        lo, hi = self.info.min_players, self.info.max_players
        if not lo <= config.players <= hi:
            raise ConfigError(
                f"{self.info.name} plays with {lo} to {hi} players, not {config.players!r}",
                field="config.players",
            )

    def option(self, config: GameConfig, name: str) -> OptionValue:
        """The value of a variant option, validated against ``info.variants``."""
        by_name = {v.name: v for v in self.info.variants}
        unknown = sorted(set(config.options) - set(by_name))
        if unknown:
            raise ConfigError(
                f"unknown option {unknown[0]!r} for {self.info.name}; known: {sorted(by_name)}",
                field=f"config.options.{unknown[0]}",
            )
        variant = by_name[name]
        value = config.options.get(name, variant.default)
        if variant.choices and value not in variant.choices:
            raise ConfigError(
                f"option {name!r} must be one of {list(variant.choices)}, not {value!r}",
                field=f"config.options.{name}",
            )
        if not variant.choices and type(value) is not type(variant.default):
            raise ConfigError(
                f"option {name!r} takes a {type(variant.default).__name__}, not {value!r}",
                field=f"config.options.{name}",
            )
        return value

    def check_action(self, state: S, action: A, *, rule: str = "") -> None:
        """Raise unless ``action`` is among ``legal_actions(state)`` (a generic slow check)."""
        player = self.current_player(state)
        if player == TERMINAL:
            raise WrongSeatError("the game is over; no action is legal", field="action", rule=rule)
        legal = self.legal_actions(state)
        if action not in legal:
            texts = [self.action_to_text(state, a) for a in legal]
            try:
                wrote = self.action_to_text(state, action)
            except LictorError:  # an action this position cannot even write
                wrote = repr(action)
            more = " ..." if len(texts) > 8 else ""
            close = did_you_mean(wrote, texts)
            raise IllegalActionError(
                f"{wrote[:80]!r} is not legal here{close or ';'} legal: {', '.join(texts[:8])}{more}",
                field="action",
                rule=rule,
            )

    def sample_chance(self, state: S, rng: random.Random) -> A:
        """Draw one chance outcome by its probability."""
        outcomes = self.chance_outcomes(state)
        r = rng.random()
        acc = 0.0
        for action, p in outcomes:
            acc += p
            if r < acc:
                return action
        return outcomes[-1][0]
