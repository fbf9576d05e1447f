"""``CytressGame``: Cytress (Sean Lee) on the Game protocol, 1-5 players, solo against the automa.

Decision points (each owned by the seat the rulebook names; ``games.cytress.state.STEP_NAMES``):
the rebel board side; each scout; each travel: the landing pad, then inside the action the intel
card, the crew's hex, the rival spied on, the Stratolite, the Renegade's resource, the tube height,
the tube's hex, the bounty and its benefit, the fixer's free card and reservation, each trade and
its amount; in solo mode the automa's checklist ties ("you choose"), decided by the solo player.

Hidden information: the order of the intel decks, the Stratolite deck and the AI action deck, and
the seed of later reshuffles. Decks are shuffled with the seed, so the game has no chance nodes
(``stochastic`` False); searches use ISMCTS over ``sample_state``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from functools import cached_property
from typing import Any

from games.core.face import REFEREE, SPECTATOR, Catalogue, Description, Fact, Viewer
from games.core.protocol import TERMINAL, Game, GameConfig, GameInfo, Seat, Variant
from games.core.protocol import Evaluator as LeafEvaluator
from games.core.records import replace
from games.core.rng import shuffle
from games.cytress import face, features, outcomes, policies, render
from games.cytress.ai import Evaluator
from games.cytress.codec import state_to_dict
from games.cytress.content import Content, load_content
from games.cytress.flow import advance
from games.cytress.notation import action_text, parse_action_text
from games.cytress.rules import STEP_LEGAL, perform, perform_trusted
from games.cytress.scoring import Tally, final_scores, winners
from games.cytress.setup import Setup, new_game
from games.cytress.state import OVER, Automa, CAction, CytressState
from games.cytress.validate import state_from_dict
from games.cytress.work import Ctx, Work, freeze_work, load_work
from games.errors import ConfigError, InvalidStateError, NotationError

__all__ = ["CytressGame"]

PRIOR_SPREAD = 0.75
"""The share of the PUCT prior spread evenly over the legal actions (the rest on the automa's pick),
with 2-5 players (measured best of 0.25/0.5/0.75 against two greedy seats)."""
PRIOR_SPREAD_SOLO = 0.5
"""The same share in a solo game (measured better than 0.75 against the official automa)."""

DEFAULT_ROUND_LIMIT = 0
"""The ``round_limit`` variant's default: none. The rulebook ends a 2-5 player game only "at the end of
the round where the last of the game's allocated waste tubes were placed" (rule:
cytress/game-end-trigger); a cap is an opt-in safety net, and a game it ends says so (its score
sheet's "Game end" line, ``describe``)."""


VARIANTS: tuple[Variant, ...] = (
    Variant(
        name="first_player",
        description="the first player's seat (rule: cytress/setup: the player who most "
        "recently watched a cyberpunk film); -1 draws it at random",
        default=-1,
    ),
    Variant(
        name="market_side",
        description="the Cytress district board side (rule: cytress/setup: chosen at random)",
        default="random",
        choices=("random", "A", "B"),
    ),
    Variant(
        name="solo_board_side",
        description="solo: the faction boards' side (rule: cytress/solo-setup: 4+ easier, "
        "recommended; 1-3 more challenging)",
        default="4+",
        choices=("4+", "1-3"),
    ),
    Variant(
        name="rebel_sides",
        description="'choose': each player picks a side of their rebel board at the start "
        "(rule: cytress/solo-setup); 'A' or 'B': every board on that side",
        default="choose",
        choices=("choose", "A", "B"),
    ),
    Variant(
        name="round_limit",
        description="2-5 players: a safety cap, not in the rulebook: the game also ends after "
        "this round (0, the default: only at the end of the round the last allocated tube "
        "section is placed, rule: cytress/game-end-trigger); a game it ends says so in its "
        "score sheet; solo always ends after round 5",
        default=DEFAULT_ROUND_LIMIT,
    ),
    Variant(
        name="solo_tubes",
        description="solo: 'supply' (the rulebook: 'Place 14 tube sections near Stratos. Keep "
        "the others in the box', rule: cytress/solo-setup): tubes are built from those 14 "
        "only; 'box': once they run out, from the box's sections too",
        default="supply",
        choices=("supply", "box"),
    ),
    Variant(
        name="bounty_scoring",
        description="'each' (rule: cytress/meet-the-enforcers: 'Each bounty also provides "
        "prestige'): every bounty pays its tier per matching icon, so a tier 1 and a tier 2 "
        "bounty against one faction pay 3; 'best': a faction's icons are paid once, at the "
        "best tier held against it",
        default="each",
        choices=("each", "best"),
    ),
)
"""The variants (``GameInfo.variants``): the rulebook's choices and this referee's opt-in caps."""


class CytressGame(Game[CytressState, CAction]):
    """Cytress, 1-5 players (1: solo against the automa)."""

    def __init__(self, *, content_path: str = "") -> None:
        self.pack: Content = load_content(content_path)
        self.ctx = Ctx(self.pack)
        self.evaluator = Evaluator(self.ctx)
        self._last_observation: tuple[CytressState, CytressState] | None = None
        self._setups: dict[Any, Setup] = {}
        """Validated setups by (players, options with their types) (``new_state``; bounded)."""
        self.map_lines_cache: dict[tuple[object, ...], list[str]] = {}
        """The text mini-map by (tiles, crews, tubes, players) (``face.describe``; bounded)."""
        self.last_tallies: list[tuple[CytressState, tuple[Tally, ...]]] = []
        """The rebellion of the last few states explained (``face.explain``; at most 4)."""
        self.info = GameInfo(
            name="cytress",
            title="Cytress",
            min_players=1,
            max_players=5,
            variants=VARIANTS,
            content_version=self.pack.version,
            hidden_information=True,
            stochastic=False,
        )

    # ------------------------------------------------------------------ setup and flow
    def new_state(self, config: GameConfig, seed: int) -> CytressState:
        """rule: cytress/setup (solo: rule: cytress/solo-setup), then the first decision."""
        try:  # the same players and options (values and their types) make the same setup
            key: Any = (config.players, tuple(sorted((k, type(v), v) for k, v in config.options.items())))
            setup = self._setups.get(key)
        except TypeError:  # an unhashable option value: checked (and refused) below
            key, setup = None, None
        if setup is None:
            setup = self._setup(config)
            if key is not None and len(self._setups) < 256:
                self._setups[key] = setup
        w = load_work(new_game(self.ctx, setup, seed))
        advance(self.pack, w)
        return freeze_work(w)

    def _setup(self, config: GameConfig) -> Setup:
        """The validated setup choices of ``config`` (``ConfigError`` naming the option)."""
        self.check_players(config)
        n = config.players
        first = self.option(config, "first_player")
        if not isinstance(first, int) or not -1 <= first < n:
            raise ConfigError(
                f"first_player must be a seat 0..{n - 1} or -1 (at random), not {first!r}",
                field="config.options.first_player",
            )
        limit = self.option(config, "round_limit")
        if not isinstance(limit, int) or not 0 <= limit <= 100:
            raise ConfigError(
                f"round_limit must be 0 (none) to 100, not {limit!r}", field="config.options.round_limit"
            )
        market = ("random", "A", "B").index(str(self.option(config, "market_side"))) - 1
        sides = ("choose", "A", "B").index(str(self.option(config, "rebel_sides"))) - 1
        solo_side = 1 if self.option(config, "solo_board_side") == "4+" else 0
        board_side = solo_side if n == 1 else (1 if n >= 4 else 0)
        solo_tubes = self.option(config, "solo_tubes")
        bounty_scoring = self.option(config, "bounty_scoring")
        return Setup(
            players=n,
            first_player=first,
            market_side=market,
            board_side=board_side,
            fixed_side=sides,
            round_limit=limit,
            solo_box_tubes=solo_tubes == "box",
            bounty_best=bounty_scoring == "best",
        )

    def num_players(self, state: CytressState) -> int:
        return state.num_players

    def current_player(self, state: CytressState) -> Seat:
        return TERMINAL if state.phase == OVER else state.actor

    def legal_actions(self, state: CytressState) -> Sequence[CAction]:
        if state.phase == OVER:
            return []
        return STEP_LEGAL[state.step](self.pack, state)

    def apply(self, state: CytressState, action: CAction) -> CytressState:
        return perform(self.ctx, state, action)

    def apply_trusted(self, state: CytressState, action: CAction) -> CytressState:
        """``apply`` without re-checking legality (``tests/cytress/test_engine.py`` proves equal)."""
        return perform_trusted(self.pack, state, action)

    # ------------------------------------------------------------------ scoring
    def scores(self, state: CytressState) -> list[int]:
        """Every owner's PRESTIGE if the rebellion broke out now (seats, then the automa in solo)."""
        adjacent = self.ctx.map(state.tiles).layout.adjacent
        return [t.total for t in final_scores(self.pack, state, adjacent)]

    def returns(self, state: CytressState) -> tuple[float, ...]:
        """rule: cytress/core-concepts - the most PRESTIGE wins; tied players share the win (1/k
        each). Solo (rule: cytress/solo-game-end): 1 with more PRESTIGE than the automa, else 0."""
        n = state.num_players
        if state.phase != OVER:
            return (0.0,) * n
        won = winners(self.scores(state), solo=state.solo)
        return tuple(1.0 / len(won) if s in won else 0.0 for s in range(n))

    def prior(self, state: CytressState) -> Sequence[float] | None:
        """PUCT priors: a share of the mass on the automa policy's choice (its checklists; a public-only
        draw for its random parts; but spying on the best rival: ``policies.prior_pick``), the rest
        spread evenly."""
        legal = self.legal_actions(state)
        n = len(legal)
        if n <= 1 or state.phase == OVER:
            return None
        rng = random.Random(state.round * 1000 + state.turn * 10 + state.step)
        pick = policies.prior_pick(self, state, rng)
        spread = PRIOR_SPREAD_SOLO if state.solo else PRIOR_SPREAD
        base = spread / n
        return [base + (1.0 - spread) * (a == pick) for a in legal]

    def heuristic(self, state: CytressState) -> tuple[float, ...]:
        """Per seat in [0, 1]: a softmax of projected PRESTIGE (``games.cytress.ai``); solo: a
        logistic of the projected margin over the automa."""
        if state.phase == OVER:
            return self.returns(state)
        return self.evaluator.win_chances(state)

    # ------------------------------------------------------------------ hidden information
    def observation(self, state: CytressState, seat: Seat) -> CytressState:
        """Every seat sees the same: face-down decks as their cards in id order, no reshuffle seed."""
        last = self._last_observation
        if last is not None and last[0] is state:
            return last[1]
        obs = self._observe(state)
        self._last_observation = (state, obs)
        return obs

    def _observe(self, state: CytressState) -> CytressState:
        a = state.automa
        return replace(
            state,
            intel_deck=tuple(tuple(sorted(d)) for d in state.intel_deck),
            strat_deck=tuple(sorted(state.strat_deck)),
            automa=None if a is None else replace(a, deck=tuple(sorted(a.deck))),
            seed=0,
        )

    def sample_state(self, observation: Any, seat: Seat, rng: random.Random) -> CytressState:
        """A state with the observation's face-down decks shuffled and a fresh reshuffle seed."""
        obs: CytressState = observation
        decks = []
        for d in obs.intel_deck:
            cards = list(d)
            shuffle(rng, cards)
            decks.append(tuple(cards))
        strat = list(obs.strat_deck)
        shuffle(rng, strat)
        w = Work.of(obs)
        a = obs.automa
        if a is not None:
            ai = list(a.deck)
            shuffle(rng, ai)
            w.automa = Automa(tuple(ai), a.tracker, a.intel, a.records, a.drawn, a.program, a.moving)
        w.intel_deck, w.strat_deck, w.seed = decks, strat, rng.getrandbits(62)
        return w.freeze()

    # ------------------------------------------------------------------ notation
    def action_to_text(self, state: CytressState, action: CAction) -> str:
        return action_text(self.pack, self.ctx.map(state.tiles).layout, state.num_players, action)

    def parse_action(self, state: CytressState, text: str) -> CAction:
        return parse_action_text(self.pack, self.ctx.map(state.tiles).layout, state.num_players, text)

    def state_to_text(self, state: CytressState) -> str:
        """``cytress `` followed by the public form as compact JSON (keys sorted)."""
        return "cytress " + json.dumps(self.to_dict(state), sort_keys=True, separators=(",", ":"))

    def parse_state(self, text: str) -> CytressState:
        if not isinstance(text, str):
            raise NotationError("a state's text form is a string", field="state")
        head, _, body = text.strip().partition(" ")
        if head != "cytress":
            raise NotationError("a cytress state starts with 'cytress '", field="state")
        try:
            data = json.loads(body)
        except (json.JSONDecodeError, RecursionError) as exc:
            raise NotationError(f"state is not valid JSON: {exc}", field="state") from None
        try:
            return self.from_dict(data)
        except InvalidStateError as exc:
            raise NotationError(exc.message, field=exc.field, rule=exc.rule) from None

    # ------------------------------------------------------------------ serialization
    def to_dict(self, state: CytressState) -> dict[str, Any]:
        return state_to_dict(self.ctx, state)

    def from_dict(self, data: Mapping[str, Any]) -> CytressState:
        """Rebuild and validate a state; raises ``InvalidStateError`` naming the field."""
        return state_from_dict(self.ctx, data)

    def state_schema(self) -> Mapping[str, Any]:
        """The JSON Schema of the public form (``games/cytress/schema.json``)."""
        return face.schema()

    # ------------------------------------------------------------------ the face
    @cached_property
    def _catalogue(self) -> Catalogue:
        return face.catalogue(self.pack)

    def content(self) -> Catalogue:  # type: ignore[override]
        return self._catalogue

    def describe(self, state: CytressState, viewer: Viewer = REFEREE) -> Description:
        return face.describe(self, state, viewer)

    def render(self, state: CytressState, viewer: Viewer = REFEREE) -> str:
        return render.render(self, state, viewer)

    def log_line(self, state: CytressState, action: CAction, viewer: Viewer = SPECTATOR) -> str:
        return face.log_line(self, state, action, viewer)

    def explain(self, state: CytressState, action: CAction) -> Sequence[Fact]:
        return face.explain(self, state, action)

    def outcome_facts(self, state: CytressState, seat: Seat) -> Sequence[Fact]:
        """Where ``seat`` stands, for hints (``games.cytress.outcomes``)."""
        return outcomes.outcome_facts(self, state, seat)

    round_word = outcomes.ROUND_WORD

    def round_of(self, state: CytressState) -> int:
        """The round, from 1 (the horizon of a hint's look ahead)."""
        return outcomes.round_of(state)

    def policies(self) -> Mapping[str, Callable[[CytressState, random.Random], CAction]]:
        return policies.policies(self)

    def evaluators(self) -> Mapping[str, LeafEvaluator]:
        """``"fitted"``: a win model fitted to who won games of greedy and automa-policy seats (see
        :mod:`games.cytress.features`); ``heuristic`` and the greedy policy stay hand-written."""
        return {"fitted": features.evaluator(self)}
