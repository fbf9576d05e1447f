"""``TiberpunkGame``: the Game protocol over the Tiberpunk rules engine."""

from __future__ import annotations

import functools
import random
import types
import typing
from collections.abc import Mapping, Sequence
from typing import Any, TypeAlias

from games.core.face import REFEREE, SPECTATOR, Catalogue, Description, Fact, Viewer, did_you_mean
from games.core.protocol import CHANCE, TERMINAL, Game, GameConfig, GameInfo, Variant
from games.errors import ConfigError, IllegalActionError, InvalidStateError, NotationError, WrongSeatError
from games.tiberpunk import actions as act
from games.tiberpunk import ai, end, face, public
from games.tiberpunk.content import Content, load_content
from games.tiberpunk.notation import action_text, parse_action_text, parse_state_text
from games.tiberpunk.rules import Rules
from games.tiberpunk.state import PH_CGADGET, PH_MAIN, PH_OVER, PH_QGADGET, PH_ROLL, Player, State
from games.tiberpunk.validate import MAX_ROUNDS, check_state, show

__all__ = ["TiberpunkGame"]


_new = tuple.__new__
_I_SEED = State._fields.index("seed")
_I_PLAYERS = State._fields.index("players")
_I_GDECK = State._fields.index("gdeck")
_I_C1DECK = State._fields.index("c1deck")
_I_C3DECK = State._fields.index("c3deck")
_I_QUESTS = State._fields.index("quests")
_P_HAND = Player._fields.index("hand")
_SamplePlan: TypeAlias = tuple[
    tuple[int, ...],
    tuple[tuple[int, list[int], int], ...],
    tuple[int, ...],
    tuple[int, ...],
    tuple[tuple[int, int, tuple[int, ...], int], ...],
]
"""``TiberpunkGame._sample_plan``: what a sampled state is dealt from (unseen cards by observation)."""
_HIDDEN = tuple((-1,) * n for n in range(128))
"""``_HIDDEN[n]``: n face-down cards."""


def _hidden(n: int) -> tuple[int, ...]:
    """``n`` face-down cards (-1 each)."""
    return _HIDDEN[n] if n < 128 else (-1,) * n


def _face_down(hand: tuple[int, ...], known: tuple[int, ...]) -> tuple[int, ...]:
    """Another player's hand as seen: the publicly known gadgets, the others face down (-1, first)."""
    if not known:
        return _hidden(len(hand))
    return tuple(sorted((*known, *(-1,) * (len(hand) - len(known)))))


_BITS_BELOW = tuple((i + 1).bit_length() for i in range(128))
"""``_BITS_BELOW[i]``: the random bits ``Random._randbelow(i + 1)`` draws at a time."""


def _shuffle(rng: random.Random, x: list[int]) -> None:
    """``rng.shuffle(x)``, the same permutation and the same random draws, with fewer calls.

    For a plain ``random.Random`` this is CPython's Fisher-Yates shuffle with its ``_randbelow``
    (rejection sampling on ``getrandbits``) written inline; any other generator uses its own
    ``shuffle``. tests/tiberpunk/test_sampling.py proves both give the same list and generator state.
    """
    if type(rng) is not random.Random or len(x) > 128:
        rng.shuffle(x)
        return
    getrandbits = rng.getrandbits
    bits = _BITS_BELOW
    for i in range(len(x) - 1, 0, -1):
        k = bits[i]
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def _plain(x: Any) -> Any:
    if isinstance(x, tuple) and hasattr(x, "_fields"):
        return {f: _plain(getattr(x, f)) for f in x._fields}
    if isinstance(x, tuple):
        return [_plain(y) for y in x]
    return x


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _bad(path: str, expected: str, v: Any) -> InvalidStateError:
    return InvalidStateError(
        f"{path or 'the state'} must be {expected}, not {show(v)}", field=path or "state"
    )


def _build(tp: Any, v: Any, path: str) -> Any:
    """Rebuild a value of type ``tp`` from plain JSON data at ``path``: exact types, every key present
    and no unknown key (no recursion into data the type does not expect)."""
    origin = typing.get_origin(tp)
    if tp is int:
        if type(v) is not int:
            raise _bad(path, "an integer", v)
        return v
    if tp is bool:
        if type(v) is not bool:
            raise _bad(path, "true or false", v)
        return v
    if origin is tuple:
        args = typing.get_args(tp)
        if not isinstance(v, list):
            raise _bad(path, "a list", v)
        if len(args) == 2 and args[1] is Ellipsis:
            if len(v) > _MAX_LIST:
                raise _bad(path, f"a list of at most {_MAX_LIST} items", v)
            return tuple(_build(args[0], y, f"{path}[{i}]") for i, y in enumerate(v))
        if len(v) != len(args):
            raise _bad(path, f"a list of {len(args)} items", v)
        return tuple(_build(a, y, f"{path}[{i}]") for i, (a, y) in enumerate(zip(args, v, strict=True)))
    if origin in (typing.Union, types.UnionType):
        if v is None:
            return None
        return _build(next(a for a in typing.get_args(tp) if a is not type(None)), v, path)
    if isinstance(tp, type) and issubclass(tp, tuple) and hasattr(tp, "_fields"):
        if not isinstance(v, Mapping):
            raise _bad(path, f"an object ({tp.__name__})", v)
        prefix = f"{path}." if path else ""
        missing = [f for f in tp._fields if f not in v]
        if missing:
            raise InvalidStateError(f"{prefix}{missing[0]} is missing", field=prefix + missing[0])
        unknown = [k for k in v if k not in tp._fields]
        if unknown:
            key = show(unknown[0])
            raise InvalidStateError(
                f"unknown field {key} in {path or 'the state'}; known: {', '.join(tp._fields)}",
                field=path or "state",
            )
        hints = _hints(tp)
        return tp(**{f: _build(hints[f], v[f], prefix + f) for f in tp._fields})
    raise TypeError(f"unsupported type {tp!r}")


_MAX_LIST = 64
"""The longest list a state field may hold (the gadget deck has 25 cards)."""


def _shape(tp: Any, prefix: str, out: dict[str, str]) -> None:
    origin = typing.get_origin(tp)
    if tp is bool:
        out[prefix] = "bool"
    elif tp is int:
        out[prefix] = "int"
    elif origin is tuple:
        args = typing.get_args(tp)
        inner = args[0]
        if isinstance(inner, type) and hasattr(inner, "_fields"):
            _shape(inner, prefix + ".#", out)
        elif typing.get_origin(inner) is tuple:
            out[prefix] = "intss"
        else:
            out[prefix] = "ints"
    elif origin is not None:  # Optional[Ctx]
        out[prefix] = "int"
        _shape(next(a for a in typing.get_args(tp) if a is not type(None)), prefix, out)
    elif isinstance(tp, type) and hasattr(tp, "_fields"):
        for f, h in _hints(tp).items():
            _shape(h, f"{prefix}.{f}" if prefix else f, out)


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
        self._sample_memo: tuple[State, _SamplePlan] | None = None  # the last observation sampled
        # sample_state tables: whether the gadget deck is listed sorted (then the unseen gadgets are
        # rebuilt from counts), copies of each gadget, challenge deck sizes, Stage I cards per skill
        c = self.pack
        self._deck_sorted = list(c.gadget_deck) == sorted(c.gadget_deck)
        self._gadget_runs = tuple((g,) * n for g, n in enumerate(self.rules.gadget_total))
        self._n_challenges = (len(c.challenges1), len(c.challenges3))
        self._stage1_of_skill = tuple(
            tuple(i for i, card in enumerate(c.stage1) if card.skill == skill) for skill in range(3)
        )
        shape: dict[str, str] = {}
        _shape(State, "", shape)
        self._shape = shape
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

    # ------------------------------------------------------------------ hidden information
    def observation(self, state: State, seat: int) -> State:
        """What ``seat`` sees: others' face-down gadgets, deck orders and unseen quest cards hidden."""
        players = tuple(
            p if i == seat else _new(Player, (*p[:_P_HAND], _face_down(p.hand, p.known), *p[_P_HAND + 1 :]))
            for i, p in enumerate(state.players)
        )
        sv: list[Any] = list(state)
        sv[_I_SEED] = 0
        sv[_I_PLAYERS] = players
        sv[_I_GDECK] = _hidden(len(state.gdeck))
        sv[_I_C1DECK] = _hidden(len(state.c1deck))
        sv[_I_C3DECK] = _hidden(len(state.c3deck))
        sv[_I_QUESTS] = tuple(q if len(q) <= 1 else (q[0], *_hidden(len(q) - 1)) for q in state.quests)
        return _new(State, sv)

    def hides(self, state: State, seat: int) -> str:
        """Another seat's view shows this seat's face-down gadget cards as backs (-1): the main
        actions and the gadget steps of a quest or a combat depend on them."""
        if state.phase not in (PH_MAIN, PH_QGADGET, PH_CGADGET):
            return ""
        if 0 <= seat < len(state.players) and -1 in state.players[seat].hand:
            return f"seat {seat}'s face-down gadget cards"
        return ""

    def sample_state(self, observation: Any, seat: int, rng: random.Random) -> State:
        """A full state consistent with ``observation`` (uniform over the unseen cards).

        The random draws are the same as a plain version's (one shuffle each of the unseen gadgets,
        the Stage I and Stage III challenge decks and each quest stack's unseen cards, then the seed),
        so a seeded rng gives the same sample (tests/tiberpunk/test_sampling.py). What only depends
        on the observation (the unseen cards) is kept for the last observation: ISMCTS samples the
        same one every iteration.
        """
        obs: State = observation
        memo = self._sample_memo
        if memo is not None and memo[0] is obs:
            plan = memo[1]
        else:
            plan = self._sample_plan(obs)
            self._sample_memo = (obs, plan)
        unseen_gadgets, deals, unseen1, unseen3, stacks = plan
        # gadgets: the unseen ones go to the others' unknown hand cards in seat order, the rest to the deck
        pool = list(unseen_gadgets)
        _shuffle(rng, pool)
        players = obs.players
        dealt = 0
        if deals:
            ps = list(players)
            for i, known, unknown in deals:
                hand = tuple(sorted(known + pool[dealt : dealt + unknown]))
                dealt += unknown
                ps[i] = _new(Player, (*ps[i][:_P_HAND], hand, *ps[i][_P_HAND + 1 :]))
            players = tuple(ps)
        rest1 = list(unseen1)
        _shuffle(rng, rest1)
        rest3 = list(unseen3)
        _shuffle(rng, rest3)
        quests = obs.quests
        if stacks:
            qs = list(quests)
            for skill, top, unseen, hidden in stacks:
                cards = list(unseen)
                _shuffle(rng, cards)
                qs[skill] = (top, *cards[:hidden])
            quests = tuple(qs)
        sv: list[Any] = list(obs)
        sv[_I_SEED] = rng.getrandbits(62)
        sv[_I_PLAYERS] = players
        sv[_I_GDECK] = tuple(pool[dealt:])
        sv[_I_C1DECK] = tuple(rest1)
        sv[_I_C3DECK] = tuple(rest3)
        sv[_I_QUESTS] = quests
        return _new(State, sv)

    def _sample_plan(self, obs: State) -> _SamplePlan:
        """What ``sample_state`` deals from, by observation: the unseen gadgets (in gadget-deck order),
        the hands to complete (seat, visible gadgets, number face down), the unseen Stage I and Stage
        III challenge cards, and per quest stack with hidden cards (skill, face-up card, unseen cards,
        number hidden)."""
        deals = tuple(
            (i, [x for x in p.hand if x >= 0], p.hand.count(-1))
            for i, p in enumerate(obs.players)
            if -1 in p.hand
        )
        ctx = obs.ctx
        in_use = ctx.card if ctx is not None and ctx.kind == 0 else -1
        stage = ctx.stage if ctx is not None else -1
        unseen1 = self._unseen_challenges(self._n_challenges[0], obs.c1disc, in_use if stage == 1 else -1)
        unseen3 = self._unseen_challenges(self._n_challenges[1], obs.c3disc, in_use if stage == 3 else -1)
        held = {i for p in obs.players for i in p.cards}  # Stage I cards kept by the players
        stacks = tuple(
            (
                skill,
                q[0],
                tuple(i for i in self._stage1_of_skill[skill] if i != q[0] and i not in held),
                len(q) - 1,
            )
            for skill, q in enumerate(obs.quests)
            if len(q) > 1
        )
        return (tuple(self._unseen_gadgets(obs)), deals, tuple(unseen1), tuple(unseen3), stacks)

    def _unseen_gadgets(self, obs: State) -> list[int]:
        """The gadgets neither discarded nor in a visible hand, in gadget-deck order (a fresh list)."""
        seen = obs.gdisc
        for p in obs.players:
            seen += p.hand  # (face-down cards are -1: never counted below)
        if not self._deck_sorted:  # the general case: remove the first copy of each seen gadget
            pool = list(self.pack.gadget_deck)
            for g in seen:
                if g >= 0:
                    pool.remove(g)
            return pool
        pool = []
        for g, run in enumerate(self._gadget_runs):
            k = len(run) - seen.count(g)
            if k:
                if k < 0:
                    raise ValueError(f"gadget {g!r} is seen more often than the deck holds it")
                pool += run[:k]
        return pool

    @staticmethod
    def _unseen_challenges(total: int, disc: tuple[int, ...], in_use: int) -> list[int]:
        """Challenge cards neither discarded nor revealed in the current quest, by index."""
        if not disc and in_use < 0:
            return list(range(total))
        gone = {*disc, in_use}
        return [i for i in range(total) if i not in gone]

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
        return public.state_lines(self.to_dict(state))

    def parse_state(self, text: str) -> State:
        """Parse a state text: version 2 (the public form), or version 1 (the internal fields)."""
        first = text.lstrip().partition("\n")[0].strip() if isinstance(text, str) else ""
        try:
            if first == "tiberpunk-state 1":
                return self.from_internal_dict(parse_state_text(self.rules, text, self._shape))
            return self.from_dict(public.parse_state_lines(text))
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
        return public.state_schema(self.pack)

    def internal_dict(self, state: State) -> dict[str, Any]:
        """The internal state's fields as plain JSON (lictor.v1 ``TiberpunkState``; the reference games'
        digests). Not the public form: indices, bit masks and the engine's field names."""
        out: dict[str, Any] = _plain(state)
        return out

    def from_internal_dict(self, data: Mapping[str, Any]) -> State:
        """Rebuild and validate a state from ``internal_dict``'s form (fields named ``state.<internal>``)."""
        try:
            state: State = _build(State, data, "")
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
