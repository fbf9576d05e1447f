"""``TiberpunkGame``: the Game protocol over the Tiberpunk rules engine."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.core.face import REFEREE, SPECTATOR, Catalogue, Description, Fact, Viewer, did_you_mean
from games.core.protocol import CHANCE, TERMINAL, Evaluator, Game, GameConfig, GameInfo, Variant
from games.errors import ConfigError, IllegalActionError, InvalidStateError, NotationError, WrongSeatError
from games.tiberpunk import actions as act
from games.tiberpunk import ai, codec, end, face, features, hidden, notation, public, schema
from games.tiberpunk.content import Content, load_content
from games.tiberpunk.notation import action_text, parse_action_text, parse_state_text
from games.tiberpunk.rules import Rules
from games.tiberpunk.state import PH_CGADGET, PH_MAIN, PH_OVER, PH_QGADGET, PH_ROLL, State
from games.tiberpunk.validate import MAX_ROUNDS, check_state, show

__all__ = ["TiberpunkGame"]


class TiberpunkGame(Game[State, int]):
    """Tiberpunk: Streets of Rome, 2-4 players, the full rulebook with the reference content pack.

    Args:
        content_path: a directory with a user's content pack ("" for the reference pack).
    """

    def __init__(self, *, content_path: str = "") -> None:
        self.pack: Content = load_content(content_path)
        """The content pack (``content()`` is the face's catalogue of it)."""
        self.rules = Rules(self.pack)
        self.info = GameInfo(
            name="tiberpunk",
            title="Tiberpunk: Streets of Rome",
            min_players=2,
            max_players=4,
            variants=(
                Variant(
                    name="abilities",
                    description="the Personal Abilities module (rulebook: MODULES)",
                    default=False,
                ),
                Variant(
                    name="side_objectives",
                    description="side objective cards: a scenario (basic, peace, gang-war, mixed, ...) "
                    "or ids such as '3' or '1B+3B' (rulebook: COMBINATIONS OF SIDE OBJECTIVES); '' = basic",
                    default="",
                ),
                Variant(
                    name="max_rounds",
                    description="a safety cap, not in the rulebook (which ends the game only with an "
                    "8th triumph token): the game ends after this round as if triggered; 0 = no cap",
                    default=0,
                ),
                Variant(
                    name="coin_bank",
                    description="the bank holds only the box's coins (20 of 1 and 10 of 5: 70) and an "
                    "empty bank pays nothing; not in the rulebook, which limits no coins",
                    default=False,
                ),
            ),
            content_version=self.pack.version,
            hidden_information=True,
            stochastic=True,
        )
        self._last: tuple[State | None, tuple[int, ...]] = (None, ())
        self._sampler = hidden.Sampler(self.pack, self.rules.gadget_total)
        self._shape = codec.shape()
        ai.prepare(self)  # the evaluation's tables, built once here rather than in the first search

    # ------------------------------------------------------------------ flow
    def new_state(self, config: GameConfig, seed: int) -> State:
        if config.players == 1:
            # the rulebook's box says 1-4 but it prints no solo rules
            return self.rules.setup(1, abilities=False, max_rounds=0, side="", seed=seed)
        self.check_players(config)
        abilities = self.option(config, "abilities")
        side = self.option(config, "side_objectives")
        max_rounds = self.option(config, "max_rounds")
        coin_bank = self.option(config, "coin_bank")
        assert isinstance(abilities, bool) and isinstance(side, str) and isinstance(max_rounds, int)
        assert isinstance(coin_bank, bool)
        if not 0 <= max_rounds <= MAX_ROUNDS:
            raise ConfigError(
                f"option 'max_rounds' is a round number from 0 (no cap) to {MAX_ROUNDS}, not {max_rounds!r}",
                field="config.options.max_rounds",
                rule="tiberpunk/end-of-game",
            )
        return self.rules.setup(
            config.players,
            abilities=abilities,
            max_rounds=max_rounds,
            side=side,
            seed=seed,
            bank=self.pack.bank if coin_bank else 0,
        )

    def num_players(self, state: State) -> int:
        return state.n

    def current_player(self, state: State) -> int:
        if state.phase == PH_MAIN:  # the common case, as in Rules.current
            return state.seat
        c = self.rules.current(state)
        return TERMINAL if c == -2 else CHANCE if c == -1 else c

    def legal_actions(self, state: State) -> Sequence[int]:
        last = self._last
        if last[0] is state:
            return last[1]
        rules = self.rules
        acts = tuple(rules._main_actions(state) if state.phase == PH_MAIN else rules.legal(state))
        self._last = (state, acts)
        return acts

    def chance_outcomes(self, state: State) -> Sequence[tuple[int, float]]:
        return self.rules.chance(state)

    def sample_chance(self, state: State, rng: random.Random) -> int:
        """``k`` dice rolled as ``k`` draws of ``rng.randint(1, 6)``, encoded (``encode_pool`` counts
        each face, so the order of the draws does not matter)."""
        ctx = state.ctx
        if state.phase != PH_ROLL or ctx is None:
            raise WrongSeatError("no dice are being rolled here: not a chance node", field="state")
        code = 0
        if type(rng) is random.Random:  # randint(1, 6) inline: 1 + _randbelow(6), 3 random bits
            getrandbits = rng.getrandbits
            for _ in range(ctx.ra or ctx.rd):
                r = getrandbits(3)
                while r >= 6:
                    r = getrandbits(3)
                code += 1 << 4 * r
        else:
            for _ in range(ctx.ra or ctx.rd):
                code += 1 << 4 * (rng.randint(1, 6) - 1)
        return act.OP_DICE | code << 5

    def apply(self, state: State, action: int) -> State:
        last = self._last
        legal = last[1] if last[0] is state else self.legal_actions(state)
        if type(action) is not int:
            raise IllegalActionError(f"an action is an int, not {show(action)}", field="action")
        try:
            return self.rules.apply(state, action, legal)
        except IllegalActionError as exc:
            if isinstance(exc, WrongSeatError):
                raise
            raise _not_legal(self.rules, state, action, legal, exc.rule) from None

    def apply_trusted(self, state: State, action: int) -> State:
        """``apply`` for an action from ``legal_actions(state)`` or ``chance_outcomes(state)``: the fast
        path, with no legality re-check (proven equal to ``apply`` by tests/tiberpunk/test_apply_trusted.py).
        """
        return self.rules.apply_unchecked(state, action)

    def returns(self, state: State) -> tuple[float, ...]:
        """Most triumph tokens wins; then most coins; else the tied players share (rule: end-of-game)."""
        if state.phase != PH_OVER:
            return (0.0,) * state.n
        return self._standings(state)

    def heuristic(self, state: State) -> tuple[float, ...]:
        """Each seat's estimated share of the win, for cut-off rollouts (see :func:`ai.heuristic`)."""
        return ai.heuristic(self, state)

    def _standings(self, state: State) -> tuple[float, ...]:
        return end.standings(state)

    def prior(self, state: State) -> Sequence[float] | None:
        """Move priors for PUCT in the main phase (see :func:`ai.prior`)."""
        return ai.prior(self, state)

    def evaluators(self) -> Mapping[str, Evaluator]:
        """``"fitted"``: a win model fitted to self-play (see :mod:`games.tiberpunk.features`)."""
        return {"fitted": features.evaluator(self)}

    # ------------------------------------------------------------------ hidden information
    def observation(self, state: State, seat: int) -> State:
        """What ``seat`` sees: others' face-down gadgets, deck orders and unseen quest cards hidden."""
        return hidden.observation(state, seat)

    def hides(self, state: State, seat: int) -> str:
        """Another seat's view shows this seat's face-down gadget cards as backs (-1): the main
        actions and the gadget steps of a quest or a combat depend on them."""
        if state.phase not in (PH_MAIN, PH_QGADGET, PH_CGADGET):
            return ""
        if 0 <= seat < len(state.players) and -1 in state.players[seat].hand:
            return f"seat {seat}'s face-down gadget cards"
        return ""

    def sample_state(self, observation: Any, seat: int, rng: random.Random) -> State:
        """A full state consistent with ``observation`` (uniform over the unseen cards; see
        :meth:`games.tiberpunk.hidden.Sampler.sample`)."""
        return self._sampler.sample(observation, rng)

    # ------------------------------------------------------------------ the face (face.py)
    def explain(self, state: State, action: int) -> Sequence[Fact]:
        """Facts for hints (see :func:`games.tiberpunk.face.explain`); ``IllegalActionError`` for an
        action that is not legal in ``state``."""
        if action not in self.legal_actions(state):
            raise IllegalActionError(f"{show(action)} is not legal here: nothing to explain", field="action")
        return face.explain(self, state, action)

    def outcome_facts(self, state: State, seat: int) -> Sequence[Fact]:
        return face.outcome_facts(self, state, seat)

    def round_of(self, state: State) -> int:
        return state.rnd  # rule: tiberpunk/game-overview (a round: every player's turn)

    def content(self) -> Catalogue:
        return face.catalogue(self)

    def describe(self, state: State, viewer: Viewer = REFEREE) -> Description:
        return face.describe(self, state, viewer)

    def render(self, state: State, viewer: Viewer = REFEREE) -> str:
        return face.render(self, state, viewer)

    def log_line(self, state: State, action: int, viewer: Viewer = SPECTATOR) -> str:
        return face.log_line(self, state, action, viewer)

    # ------------------------------------------------------------------ notation
    def action_to_text(self, state: State, action: int) -> str:
        try:
            return action_text(self.rules, state, action)
        except (IndexError, ValueError, KeyError, TypeError):
            raise NotationError(
                f"{show(action)} is not a tiberpunk action in this position", field="action"
            ) from None

    def parse_action(self, state: State, text: str) -> int:
        """Parse an action's notation (see docs/tiberpunk.md); it need not be legal here."""
        try:
            return parse_action_text(self.rules, state, text)
        except NotationError as exc:
            texts = [action_text(self.rules, state, a) for a in self.legal_actions(state)]
            close = did_you_mean(text, texts) or ";"
            more = " ..." if len(texts) > 8 else ""
            raise NotationError(
                f"{exc.message}{close} legal here: {', '.join(texts[:8])}{more}", field="action"
            ) from None

    def state_to_text(self, state: State) -> str:
        """The text form (version 2): the public form as ``path=value`` lines (docs/tiberpunk.md)."""
        return notation.state_lines(self.to_dict(state))

    def parse_state(self, text: str) -> State:
        """Parse a state text: version 2 (the public form), or version 1 (the internal fields)."""
        first = text.lstrip().partition("\n")[0].strip() if isinstance(text, str) else ""
        try:
            if first == "tiberpunk-state 1":
                return self.from_internal_dict(parse_state_text(self.rules, text, self._shape))
            return self.from_dict(notation.parse_state_lines(text))
        except InvalidStateError as exc:
            raise NotationError(
                f"not a tiberpunk state: {exc.message} ({exc.field})", field="state"
            ) from None

    # ------------------------------------------------------------------ serialization
    def to_dict(self, state: State) -> dict[str, Any]:
        """The public form (docs/tiberpunk.md, "Public state form"; ``state_schema`` is its schema)."""
        return public.to_public(self.pack, state)

    def from_dict(self, data: Mapping[str, Any]) -> State:
        """Rebuild and validate a state from the public form (``InvalidStateError`` names the first
        bad field by its public path, ``state.players[0].coins``, and the rule)."""
        state = public.from_public(self.pack, data)
        try:
            check_state(self.rules, state)
        except InvalidStateError as exc:
            inner = exc.field.removeprefix("state").removeprefix(".")
            exc.field = f"state.{public.public_field(inner)}" if inner else "state"
            exc.message = public.public_message(exc.message)
            exc.args = (exc.message,)
            raise
        return state

    def state_schema(self) -> Mapping[str, Any]:
        """The JSON Schema (draft 2020-12) of ``to_dict``'s public form."""
        return schema.state_schema(self.pack)

    def internal_dict(self, state: State) -> dict[str, Any]:
        """The internal state's fields as plain JSON (lictor.v1 ``TiberpunkState``; the reference games'
        digests). Not the public form: indices, bit masks and the engine's field names."""
        return codec.plain(state)

    def from_internal_dict(self, data: Mapping[str, Any]) -> State:
        """Rebuild and validate a state from ``internal_dict``'s form (fields named ``state.<internal>``)."""
        try:
            state = codec.from_plain(data)
            check_state(self.rules, state)
        except InvalidStateError as exc:
            if exc.field != "state" and not exc.field.startswith("state."):
                exc.field = f"state.{exc.field}" if exc.field else "state"
            raise
        return state


def _not_legal(rules: Any, state: State, action: int, legal: Sequence[int], rule: str) -> IllegalActionError:
    """The refusal of an action that is not legal here: its notation, the closest legal moves, the
    first legal ones."""
    try:
        shown = repr(action_text(rules, state, action))
    except (IndexError, ValueError, KeyError, TypeError):
        shown = repr(action)
    texts = [action_text(rules, state, a) for a in legal]
    close = did_you_mean(shown.strip("'\""), texts) or ";"
    more = " ..." if len(legal) > 8 else ""
    return IllegalActionError(
        f"{shown} is not legal here{close} legal: {', '.join(texts[:8])}{more}", field="action", rule=rule
    )
