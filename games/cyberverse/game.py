"""``CyberverseGame``: CyberVerse / New Eden on the Game protocol, wiring the package together.

Where things are: setup, the phase table, Payday and the end in :mod:`~games.cyberverse.engine`;
one module per rulebook part (``events``, ``strategy``, ``activation``, ``investigation``,
``combat``, ``stories``, ``modifiers``, ``agents``, ``board``, ``scoring``); the JSON form in
:mod:`~games.cyberverse.codec`; notation in :mod:`~games.cyberverse.notation`; the face in
:mod:`~games.cyberverse.face`; rule-based players in :mod:`~games.cyberverse.policies`.

Every draw is a chance node over the cards left (decks are multisets, never a fixed order), so the
engine holds no hidden order; the Modifier deck is drawn without replacement with its reshuffle.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

import msgspec

from games.core.face import REFEREE, SPECTATOR, Catalogue, Description, Fact, Viewer
from games.core.protocol import CHANCE, TERMINAL, Evaluator, Game, GameConfig, GameInfo, Variant
from games.cyberverse import (
    catalogue,
    codec,
    engine,
    explain,
    face,
    features,
    hidden,
    notation,
    outcomes,
    policies,
    render,
    schema,
    scoring,
)
from games.cyberverse.content import Content, load_content
from games.cyberverse.state import (
    D_ADRENALIN,
    D_FIGHT_MOVE,
    D_GRILL,
    D_PROJECT,
    D_SECOND,
    HENCHMAN,
    Action,
    Options,
    State,
)
from games.errors import IllegalActionError, InvalidStateError, LictorError, WrongSeatError

__all__ = ["VARIANTS", "CyberverseGame"]

VARIANTS: tuple[Variant, ...] = (
    Variant(
        name="reshuffle",
        description=(
            "'success': the Modifier discard pile is shuffled back after a successful test "
            "(rule: cyberverse/investigation) and when the deck is empty; 'empty': only when "
            "the deck is empty (rule: cyberverse/feature-test read alone)."
        ),
        default="success",
        choices=("success", "empty"),
    ),
    Variant(
        name="dead_agents",
        description=(
            "'bottom': a dead Agent's sheet goes under the Agent stack (rule: "
            "cyberverse/agent-dashboard, 'they are placed at the bottom of the Agent sheet stack'); "
            "'removed': it leaves the game (rule: cyberverse/loss-of-health, 'permanently removed "
            "from the game'), so a long game can run out of Agents to recruit."
        ),
        default="bottom",
        choices=("bottom", "removed"),
    ),
    Variant(
        name="forced_actions",
        description=(
            "The 3 Actions must be played while an Auxiliary Action is possible (rule: "
            "cyberverse/activation-phase, 'must perform 3 Actions')."
        ),
        default=True,
    ),
    Variant(
        name="influence_bonus",
        description=(
            "Score the influence majorities (+1 per district, +5 overall) of rule: "
            "cyberverse/influence besides 1 VP per token."
        ),
        default=True,
    ),
    Variant(
        name="domination",
        description=(
            "'most': an Organization dominates a district with strictly the most Influence "
            "tokens; 'sole': with the only ones (rule: cyberverse/end-of-game)."
        ),
        default="most",
        choices=("most", "sole"),
    ),
    Variant(
        name="rescue_clears",
        description=(
            "Paying 100 D per Status token at a rescue also removes them. Off (the rulebook's words, "
            "rule: cyberverse/activation-phase: the Organization 'must first pay 100D for each Status "
            "token they have before they can be moved to their Headquarters'): the fee is paid and the "
            "tokens stay, the rescue's healing by 1 removes one (rule: cyberverse/status-tokens)."
        ),
        default=False,
    ),
    Variant(
        name="resale",
        description=(
            "'payday': Supply tokens are resold at Payday only (rule: cyberverse/payday); "
            "'always': also in the Strategy phase."
        ),
        default="payday",
        choices=("payday", "always"),
    ),
    Variant(
        name="starting_agent",
        description=(
            "'choose': each Organization chooses its first Agent in turn (rule: "
            "cyberverse/order-of-play); 'random': drawn at random, the side chosen (rule: "
            "cyberverse/setup)."
        ),
        default="choose",
        choices=("choose", "random"),
    ),
    Variant(
        name="max_turns",
        description=(
            "An opt-in safety cap, not a rule: the game ends after this turn as if triggered, and "
            "its score sheet and description say so. 0 (the default): no cap, the game ends only by "
            "the rulebook's end (6, 5 or 4 resolved Story cards, or domination; rule: "
            "cyberverse/end-of-game)."
        ),
        default=0,
    ),
    Variant(
        name="hire_cost", description=("D paid to recruit an Agent (the rulebook prints none)."), default=0
    ),
    Variant(
        name="boards",
        description=(
            "The side of the district boards: 'A', 'B' or 'random' (rule: cyberverse/new-eden-board)."
        ),
        default="A",
        choices=("A", "B", "random"),
    ),
    Variant(
        name="tests",
        description=(
            "'each-mission': an Agent present may test each open Mission of its district once per "
            "Investigation phase (rule: cyberverse/investigation, 'Agents present in the Districts "
            "designated by the Investigation card's Mission draw a Modifier card'); "
            "'one-per-agent': at most one test per Agent and phase."
        ),
        default="each-mission",
        choices=("each-mission", "one-per-agent"),
    ),
    Variant(
        name="training",
        description=(
            "'stays': a trained Agent stays where it stands and is not activated in the next "
            "Activation phase (rule: cyberverse/strategy-phase, 'They cannot be activated in the "
            "next Activation phase'); 'headquarters': it goes back to its HQ."
        ),
        default="stays",
        choices=("stays", "headquarters"),
    ),
    Variant(
        name="henchmen_moves",
        description=(
            "'free': the Organization playing a Henchman moves it through any adjacent zones, up to "
            "its Movement, and may stop (rule: cyberverse/henchmen, Movement 'determines the maximum "
            "number of adjacent zones he can move'); 'shortest': it always moves toward its target "
            "by a shortest way until in range. Either way it attacks its target when in range."
        ),
        default="free",
        choices=("free", "shortest"),
    ),
)


_F = TypeVar("_F", bound=Callable[..., Any])
_RULE_SLIPS = (
    IndexError,
    KeyError,
    ValueError,
    TypeError,
    AttributeError,
    AssertionError,
    StopIteration,
    ZeroDivisionError,
)


def guarded(fn: _F) -> _F:
    """A Game method that raises only ``LictorError``: a state ``from_dict`` accepted but whose parts
    do not fit together (say, a hand-edited queue naming a missing Agent) is reported as an
    ``InvalidStateError`` instead of a crash."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except LictorError:
            raise
        except _RULE_SLIPS as exc:
            raise _slip(exc) from None

    return wrapper  # type: ignore[return-value]


def _slip(exc: Exception) -> InvalidStateError:
    return InvalidStateError(
        f"the state's parts do not fit together ({type(exc).__name__}: {str(exc)[:80]})", field="state"
    )


class CyberverseGame(Game[State, Action]):
    """CyberVerse / New Eden, 2 to 4 Organizations.

    Args:
        content_path: a directory holding a user's content pack ("" for the reference pack).
    """

    def __init__(self, *, content_path: str = "") -> None:
        self.content_pack: Content = load_content(content_path)
        self.info = GameInfo(
            name="cyberverse",
            title="CyberVerse: New Eden",
            min_players=2,
            max_players=4,
            variants=VARIANTS,
            content_version=self.content_pack.version,
            hidden_information=True,
            stochastic=True,
        )

    # ------------------------------------------------------------------ flow
    def options_of(self, config: GameConfig) -> Options:
        """The variants of ``config`` (``ConfigError`` naming a bad option)."""
        values = {f.name: self.option(config, f.name) for f in msgspec.structs.fields(Options)}
        return Options(**values)  # type: ignore[arg-type]

    def new_state(self, config: GameConfig, seed: int) -> State:
        """rule: cyberverse/setup - see :func:`games.cyberverse.engine.new_state`."""
        self.check_players(config)
        opts = self.options_of(config)
        if opts.max_turns < 0 or opts.hire_cost < 0:
            from games.errors import ConfigError

            name = "max_turns" if opts.max_turns < 0 else "hire_cost"
            raise ConfigError(f"option {name} must not be negative", field=f"config.options.{name}")
        return engine.new_state(self.content_pack, config.players, opts, seed)

    def num_players(self, state: State) -> int:
        return state.players

    def current_player(self, state: State) -> int:
        return state.actor

    def legal_actions(self, state: State) -> Sequence[Action]:
        try:  # (inline rather than @guarded: the hot path of playouts)
            return engine.legal_actions(state, self.content_pack)
        except _RULE_SLIPS as exc:
            raise _slip(exc) from None

    @guarded
    def chance_outcomes(self, state: State) -> Sequence[tuple[Action, float]]:
        if state.actor != CHANCE:
            return ()
        return engine.chance_outcomes(state, self.content_pack)

    def sample_chance(self, state: State, rng: random.Random) -> Action:
        """One chance outcome by its probability (the protocol's draw, without the outcome list)."""
        try:
            pool = engine.chance_pool(state, self.content_pack) if state.actor == CHANCE else None
            if pool:
                return engine.sample_draw(pool, rng.random())
        except _RULE_SLIPS as exc:
            raise _slip(exc) from None
        return super().sample_chance(state, rng)

    @guarded
    def apply(self, state: State, action: Action) -> State:
        if state.actor == TERMINAL:
            raise WrongSeatError(
                "the game is over; no action is legal", field="action", rule="cyberverse/end-of-game"
            )
        if action not in self.legal_actions(state):
            raise IllegalActionError(
                f"{action!r} is not legal here ({state.step and 'step'})",
                field="action",
                rule="cyberverse/activation-phase",
            )
        return engine.perform(state, self.content_pack, action)

    def apply_trusted(self, state: State, action: Action) -> State:
        try:  # (inline rather than @guarded: the hot path of playouts)
            return engine.perform(state, self.content_pack, action)
        except _RULE_SLIPS as exc:
            raise _slip(exc) from None

    @guarded
    def returns(self, state: State) -> tuple[float, ...]:
        return scoring.returns(state, self.content_pack)

    @guarded
    def heuristic(self, state: State) -> tuple[float, ...]:
        """Each seat's chance to win estimated from the greedy AI's value of the position (VP,
        Resources, Missions, Agents near their Missions): a softmax over the seats whose spread
        narrows as the end nears (:func:`games.cyberverse.policies.win_chances`)."""
        return policies.win_chances(state, self.content_pack)

    @guarded
    def prior(self, state: State) -> Sequence[float] | None:
        """PUCT priors from the greedy evaluation of each legal action's result."""
        if state.actor < 0:
            return None
        c = self.content_pack
        return policies.action_priors(state, c, engine.legal_actions(state, c))

    # ------------------------------------------------------------------ notation and serialization
    @guarded
    def action_to_text(self, state: State, action: Action) -> str:
        return notation.action_to_text(state, self.content_pack, action)

    @guarded
    def parse_action(self, state: State, text: str) -> Action:
        return notation.parse_action(state, self.content_pack, text)

    def state_to_text(self, state: State) -> str:
        return notation.state_to_text(state, self.content_pack)

    def parse_state(self, text: str) -> State:
        return notation.parse_state(text, self.content_pack)

    def to_dict(self, state: State) -> dict[str, Any]:
        return codec.to_dict(state, self.content_pack)

    def from_dict(self, data: Mapping[str, Any]) -> State:
        return codec.from_dict(data, self.content_pack)

    def state_schema(self) -> Mapping[str, Any]:
        """The JSON Schema of the public form (``to_dict``)."""
        return schema.state_schema(self.content_pack)

    # ------------------------------------------------------------------ the face
    def content(self) -> Catalogue:
        return catalogue.catalogue(self.content_pack)

    @guarded
    def describe(self, state: State, viewer: Viewer = REFEREE) -> Description:
        return face.describe(state, self.content_pack, viewer)

    @guarded
    def render(self, state: State, viewer: Viewer = REFEREE) -> str:
        return render.render(state, self.content_pack, viewer)

    # ------------------------------------------------------------------ hidden information
    @guarded
    def observation(self, state: State, seat: int) -> State:
        """rule: cyberverse/combat - face-down Combat tokens; rule: cyberverse/story-cards - the
        Story card put under the deck (see :mod:`games.cyberverse.hidden`)."""
        return hidden.observation(state, seat)

    @guarded
    def sample_state(self, observation: Any, seat: int, rng: random.Random) -> State:
        return hidden.sample_state(observation, seat, rng)

    @guarded
    def hides(self, state: State, seat: int) -> str:
        return hidden.hides(state, seat)

    @guarded
    def log_line(self, state: State, action: Action, viewer: Viewer = SPECTATOR) -> str:
        owner = face.secret_to(state, action)
        if owner is not None and viewer not in (REFEREE, owner):
            return face.hidden_line(state, self.content_pack, action)
        text = self.action_to_text(state, action)
        if state.actor == CHANCE:
            return f"Chance: {text}."
        who = self.content_pack.organisations[state.actor].name
        fight = state.fight
        if fight is not None and fight.queue:
            f = fight.fighters[fight.queue[0]]
            if f.kind == HENCHMAN and state.step in (D_FIGHT_MOVE, D_GRILL, D_PROJECT, D_SECOND, D_ADRENALIN):
                # rule: cyberverse/combat - the Organization playing the Henchman decides for it
                kind = self.content_pack.henchman_types[f.ref]
                who += f", playing the {kind} henchman in zone {f.zone + 1}"
        return f"{who}: {text}."

    @guarded
    def explain(self, state: State, action: Action) -> Sequence[Fact]:
        """Facts for the mover, computed on a state drawn from its observation (a fixed draw), so
        that no face-down card it cannot see shapes them."""
        if state.actor < 0:
            return ()
        seen = hidden.sample_state(hidden.observation(state, state.actor), state.actor, random.Random(0))
        return explain.explain(seen, self.content_pack, action)

    def outcome_facts(self, state: State, seat: int) -> Sequence[Fact]:
        """Where ``seat`` stands: VP by source, stories resolved, D (:mod:`~games.cyberverse.outcomes`)."""
        return outcomes.outcome_facts(state, self.content_pack, seat)

    round_word = outcomes.ROUND_WORD

    def round_of(self, state: State) -> int:
        """The game turn: a hint looks ahead to the end of it (rule: cyberverse/payday)."""
        return outcomes.round_of(state)

    def policies(self) -> Mapping[str, Callable[[State, random.Random], Action]]:
        return {"greedy": policies.Greedy(self).choose}

    def evaluators(self) -> Mapping[str, Evaluator]:
        """``"fitted"``: a win model fitted to self-play (see :mod:`games.cyberverse.features`)."""
        return {"fitted": features.evaluator(self)}
