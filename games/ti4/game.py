"""``TI4Game``: the galaxy setup of Twilight Imperium 4 (Living Rules Reference 1.3) as a game.

Decision points, each owned by the seat the rulebook names: ``choose faction`` (from the speaker,
clockwise), ``choose color``, five players: the speaker's ``place`` of the random red tile next to
Mecatol Rex, then ``place TILE at POSITION`` snaking from the speaker ring by ring, then ``keep
secret objective``. In the Milty mode: ``pick slice|faction|seat`` in snake order, ``choose color``,
``keep secret objective``. Everything random is drawn from the seed at setup (no chance nodes);
the tiles dealt, the secret objectives and the face-down objectives are hidden information.

The result of the setup for a seat is its home value by the community's measure (``community`` in
``games.ti4.measures``, the default of every home value the game, its hints and its AI seats show;
``weights=`` another measure): ``returns`` gives each seat its share of a softmax of the home values,
so AI seats build toward their own home.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.core.face import REFEREE, SPECTATOR, Catalogue, Description, Fact, Viewer
from games.core.protocol import TERMINAL, Game, GameConfig, GameInfo, Seat, Variant
from games.core.protocol import Evaluator as LeafEvaluator
from games.errors import ConfigError, InvalidStateError, NotationError
from games.ti4 import ai, face, features, flow, hidden, notation, outcomes
from games.ti4.balance import HomeReport, Weights, home_reports
from games.ti4.codec import state_from_dict, state_schema, state_to_dict
from games.ti4.content import Content, load_content
from games.ti4.explain import explain
from games.ti4.mapstring import format_map_string
from games.ti4.measures import COMMUNITY
from games.ti4.milty import SliceRules, new_milty_state, parse_total
from games.ti4.setup import new_rulebook_state
from games.ti4.state import OVER, TI4Action, TI4State
from games.ti4.validate import check_state

__all__ = ["TI4Game"]


VARIANTS: tuple[Variant, ...] = (
    Variant(
        name="mode",
        description="'rulebook': the Living Rules Reference's COMPLETE SETUP (deal and place "
        "system tiles); 'milty': a Milty draft of slices, factions and seats (community)",
        default="rulebook",
        choices=("rulebook", "milty"),
    ),
    Variant(
        name="expansion",
        description="'base': the base game's tiles and factions; 'pok': with Prophecy of Kings",
        default="base",
        choices=("base", "pok"),
    ),
    Variant(
        name="factions",
        description="'choose': each player chooses a faction, speaker first (STEP 2); "
        "'random': factions are dealt at random",
        default="choose",
        choices=("choose", "random"),
    ),
    Variant(
        name="no_other_option",
        description="reading of 'unless there is no other option' (rule: ti4/anomaly-adjacency): "
        "'player' = no other placement of any tile in hand; 'tile' = no other space for "
        "this tile",
        default="player",
        choices=("player", "tile"),
    ),
    Variant(
        name="victory_points",
        description="the victory point track side (STEP 12.ii): 10 or 14",
        default=10,
        choices=(10, 14),
    ),
    Variant(
        name="milty_slices",
        description="Milty: slices as 'T,T,T,T,T;T,...' (tile numbers in slot order: left, "
        "front, right, far front, far right), e.g. from the ti4.milty_slices puzzle; '' deals "
        "random slices",
        default="",
    ),
    Variant(
        name="milty_extra",
        description="Milty: slices and factions offered beyond one per player",
        default=1,
    ),
    Variant(
        name="milty_total",
        description="Milty random deal: a slice's optimal total (each planet's larger of "
        "resources and influence, summed) as a range, the community's '9-13' by default; 'any' "
        "for no limit",
        default="9-13",
    ),
    Variant(
        name="milty_wormholes",
        description="Milty random deal: 'one type' (no slice holds an alpha and a beta wormhole, "
        "the community's convention) or 'any'",
        default="one type",
        choices=("one type", "any"),
    ),
    Variant(
        name="milty_legendary",
        description="Milty random deal: legendary planets one slice may hold (1: spread out)",
        default=1,
    ),
)
"""The options of a setup: the procedure, the expansion, the readings and the Milty deal's conventions."""


class TI4Game(Game[TI4State, TI4Action]):
    """Twilight Imperium 4: the galaxy setup, 3-6 players (rulebook or Milty draft)."""

    def __init__(self, *, content_path: str = "", weights: Weights | None = None) -> None:
        self.pack: Content = load_content(content_path)
        self.weights = weights or COMMUNITY  # the community's measure (docs/ti4.md): face, AI, score
        self._reports: dict[tuple[object, ...], list[HomeReport]] = {}
        self._values: dict[tuple[object, ...], list[float]] = {}
        self.info = GameInfo(
            name="ti4",
            title="Twilight Imperium 4: galaxy setup",
            min_players=3,
            max_players=6,
            variants=VARIANTS,
            content_version=self.pack.version,
            hidden_information=True,
            stochastic=False,
        )

    # ------------------------------------------------------------------ setup and flow
    def new_state(self, config: GameConfig, seed: int) -> TI4State:
        """rule: ti4/speaker - STEP 1 onwards; every draw of the setup made from ``seed``."""
        self.check_players(config)
        mode = str(self.option(config, "mode"))
        expansion = str(self.option(config, "expansion"))
        reading = str(self.option(config, "no_other_option"))
        vp = int(self.option(config, "victory_points"))
        if mode == "milty":
            return new_milty_state(
                self.pack,
                players=config.players,
                expansion=expansion,
                reading=reading,
                vp_track=vp,
                extra=int(self.option(config, "milty_extra")),
                slices_text=str(self.option(config, "milty_slices")),
                seed=seed,
                rules=self._slice_rules(config),
            )
        return new_rulebook_state(
            self.pack,
            players=config.players,
            expansion=expansion,
            reading=reading,
            vp_track=vp,
            random_factions=self.option(config, "factions") == "random",
            seed=seed,
        )

    def _slice_rules(self, config: GameConfig) -> SliceRules:
        """The Milty random deal's conventions from the options (docs/ti4.md)."""
        lo, hi = parse_total(str(self.option(config, "milty_total")))
        legendary = int(self.option(config, "milty_legendary"))
        if not 0 <= legendary <= 5:
            raise ConfigError(
                f"milty_legendary must be 0..5, not {legendary!r}", field="config.options.milty_legendary"
            )
        types = 1 if self.option(config, "milty_wormholes") == "one type" else 4
        return SliceRules(min_total=lo, max_total=hi, wormhole_types=types, max_legendary=legendary)

    def num_players(self, state: TI4State) -> int:
        return state.players

    def current_player(self, state: TI4State) -> Seat:
        return TERMINAL if state.phase == OVER else state.actor

    def legal_actions(self, state: TI4State) -> Sequence[TI4Action]:
        return flow.legal_actions(state, self.pack)

    def apply(self, state: TI4State, action: TI4Action) -> TI4State:
        return flow.apply_action(state, self.pack, action)

    def apply_trusted(self, state: TI4State, action: TI4Action) -> TI4State:
        """``apply`` without the legality check (actions from ``legal_actions`` only)."""
        return flow.apply_action(state, self.pack, action, trusted=True)

    # ------------------------------------------------------------------ values
    def reports(self, state: TI4State) -> list[HomeReport]:
        """Each home's :class:`~games.ti4.balance.HomeReport` on the galaxy as placed (cached by galaxy)."""
        if not all(state.homes):
            return []
        key = (state.galaxy, state.homes, state.mode, state.players)
        found = self._reports.get(key)
        if found is None:
            if len(self._reports) > 512:
                self._reports.clear()
            found = home_reports(
                self.pack.board,
                {p: t for p, t in enumerate(state.galaxy) if t > 0},
                state.homes,
                self.pack.tiles,
                self.weights,
                spaces=ai.spaces_in_play(state, self.pack),
            )
            self._reports[key] = found
        return list(found)

    def home_values(self, state: TI4State, *, fill: bool = True) -> list[float]:
        """Each seat's home value (``games.ti4.balance``; empty spaces at the mean tile in hand; cached
        by galaxy, homes and that mean)."""
        if not all(state.homes):
            return [0.0] * state.players
        mean = ai.fill_value(state, self.pack, self.weights) if fill else 0
        key = (state.galaxy, state.homes, state.mode, state.players, mean)
        found = self._values.get(key)
        if found is None:
            if len(self._values) > 2048:
                self._values.clear()
            found = ai.seat_values(state, self.pack, self.weights, fill=fill)
            self._values[key] = found
        return list(found)

    def returns(self, state: TI4State) -> tuple[float, ...]:
        """At the end: each seat's share of a softmax of the home values (best home scores most)."""
        if state.phase != OVER:
            return (0.0,) * state.players
        return ai.shares(self.home_values(state, fill=False))

    def heuristic(self, state: TI4State) -> tuple[float, ...]:
        """The same shares on the galaxy so far, empty spaces at the mean tile still in hand."""
        return ai.shares(self.home_values(state))

    def evaluators(self) -> Mapping[str, LeafEvaluator]:
        """``"fitted"``: a win model fitted to self-play (see :mod:`games.ti4.features`)."""
        return {"fitted": features.evaluator(self)}

    def policies(self) -> Mapping[str, Callable[[TI4State, random.Random], TI4Action]]:
        """``greedy`` (its own home first) and ``balanced`` (the fairest galaxy for the table)."""
        return {
            "greedy": lambda s, rng: ai.greedy_policy(s, self.pack, self.weights, rng),
            "balanced": lambda s, rng: ai.balanced_policy(s, self.pack, self.weights, rng),
        }

    # ------------------------------------------------------------------ hidden information
    def observation(self, state: TI4State, seat: Seat) -> TI4State:
        return hidden.observe(state, self.pack, seat)

    def sample_state(self, observation: Any, seat: Seat, rng: random.Random) -> TI4State:
        return hidden.sample(observation, self.pack, seat, rng)

    def hides(self, state: TI4State, seat: Seat) -> str:
        return hidden.hides(state, seat)

    # ------------------------------------------------------------------ the face
    def content(self) -> Catalogue:
        """Every system tile, faction, strategy card and objective of the pack."""
        return face.catalogue(self.pack)

    def describe(self, state: TI4State, viewer: Viewer = REFEREE) -> Description:
        return face.describe(self, state, viewer)

    def render(self, state: TI4State, viewer: Viewer = REFEREE) -> str:
        return face.render(self, state, viewer)

    def log_line(self, state: TI4State, action: TI4Action, viewer: Viewer = SPECTATOR) -> str:
        return face.log_line(self, state, action, viewer)

    def explain(self, state: TI4State, action: TI4Action) -> Sequence[Fact]:
        return explain(self, state, action)

    def outcome_facts(self, state: TI4State, seat: Seat) -> Sequence[Fact]:
        """Where ``seat`` stands (``games.ti4.outcomes``): its home value by the measure's terms, its
        lead over the best rival, the best rival's value, the galaxy's balance."""
        return outcomes.outcome_facts(self, state, seat)

    round_word = outcomes.ROUND_WORD

    def round_of(self, state: TI4State) -> int:
        """The setup round (rule: ti4/place-system-tiles: one pass of the snake; -1 outside the
        snake): a hint looks ahead to its end."""
        return outcomes.round_of(state)

    def state_schema(self) -> Mapping[str, Any]:
        return state_schema(self.pack)

    def map_string(self, state: TI4State, *, home_tiles: bool = False) -> str:
        """The galaxy as a TTS map string (homes as 0, or their tile numbers with ``home_tiles``)."""
        spaces = ai.spaces_in_play(state, self.pack)
        homes = {h: state.galaxy[h] for h in state.homes if h}
        return format_map_string(state.galaxy, spaces, homes, home_tiles=homes if home_tiles else None)

    # ------------------------------------------------------------------ notation
    def action_to_text(self, state: TI4State, action: TI4Action) -> str:
        return notation.action_to_text(self.pack, state, action)

    def parse_action(self, state: TI4State, text: str) -> TI4Action:
        return notation.parse_action(self.pack, state, text)

    def state_to_text(self, state: TI4State) -> str:
        return notation.state_text(self.to_dict(state))

    def parse_state(self, text: str) -> TI4State:
        data = notation.parse_state_json(text)
        try:
            return self.from_dict(data)
        except InvalidStateError as exc:
            raise NotationError(exc.message, field=exc.field, rule=exc.rule) from None

    # ------------------------------------------------------------------ serialization
    def to_dict(self, state: TI4State) -> dict[str, Any]:
        return state_to_dict(state)

    def from_dict(self, data: Mapping[str, Any]) -> TI4State:
        """Read and validate a state (``InvalidStateError`` naming the first bad field and rule)."""
        state = state_from_dict(self.pack, data)
        check_state(state, self.pack)
        return state
