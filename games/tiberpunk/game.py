"""``TiberpunkGame``: the Game protocol over the Tiberpunk rules engine."""

from __future__ import annotations

import random
import typing
from collections.abc import Mapping, Sequence
from typing import Any

from games.core.protocol import CHANCE, TERMINAL, Game, GameConfig, GameInfo, Variant
from games.errors import IllegalActionError, InvalidStateError, NotationError, WrongSeatError
from games.tiberpunk import actions as act
from games.tiberpunk import ai
from games.tiberpunk.content import Content, load_content
from games.tiberpunk.dice import encode_pool, p_attacker_wins, p_contains
from games.tiberpunk.notation import action_text, parse_action_text, parse_state_text, state_text
from games.tiberpunk.rules import OFF, Rules
from games.tiberpunk.state import LICTOR, PH_MAIN, PH_OVER, State

__all__ = ["TiberpunkGame"]


def _plain(x: Any) -> Any:
    if isinstance(x, tuple) and hasattr(x, "_fields"):
        return {f: _plain(getattr(x, f)) for f in x._fields}
    if isinstance(x, tuple):
        return [_plain(y) for y in x]
    return x


def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _build(tp: Any, v: Any) -> Any:
    """Rebuild a value of type ``tp`` from plain JSON data (strict enough to catch bad input)."""
    origin = typing.get_origin(tp)
    if tp is int:
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError(f"expected an integer, got {v!r}")
        return v
    if tp is bool:
        if not isinstance(v, bool):
            raise TypeError(f"expected true or false, got {v!r}")
        return v
    if origin is tuple:
        args = typing.get_args(tp)
        if not isinstance(v, list):
            raise TypeError(f"expected a list, got {v!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_build(args[0], y) for y in v)
        if len(v) != len(args):
            raise TypeError(f"expected {len(args)} entries, got {v!r}")
        return tuple(_build(a, y) for a, y in zip(args, v, strict=True))
    if origin in (typing.Union, getattr(__import__("types"), "UnionType", None)):
        if v is None:
            return None
        return _build(next(a for a in typing.get_args(tp) if a is not type(None)), v)
    if isinstance(tp, type) and issubclass(tp, tuple) and hasattr(tp, "_fields"):
        if not isinstance(v, Mapping):
            raise TypeError(f"expected an object for {tp.__name__}, got {v!r}")
        hints = _hints(tp)
        missing = [f for f in tp._fields if f not in v]
        if missing:
            raise KeyError(f"{tp.__name__}.{missing[0]}")
        return tp(**{f: _build(hints[f], v[f]) for f in tp._fields})
    raise TypeError(f"unsupported type {tp!r}")


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
        self.content: Content = load_content(content_path)
        self.rules = Rules(self.content)
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
                    description="engine safety cap: the game ends after this round as if triggered "
                    "(not in the rulebook; 0 = no cap)",
                    default=80,
                ),
            ),
            content_version=self.content.version,
            hidden_information=True,
            stochastic=True,
        )
        self._last: tuple[State | None, tuple[int, ...]] = (None, ())
        shape: dict[str, str] = {}
        _shape(State, "", shape)
        self._shape = shape

    # ------------------------------------------------------------------ flow
    def new_state(self, config: GameConfig, seed: int) -> State:
        if config.players == 1:
            # the rulebook's box says 1-4 but it prints no solo rules
            return self.rules.setup(1, abilities=False, max_rounds=0, side="", seed=seed)
        self.check_players(config)
        abilities = self.option(config, "abilities")
        side = self.option(config, "side_objectives")
        max_rounds = self.option(config, "max_rounds")
        assert isinstance(abilities, bool) and isinstance(side, str) and isinstance(max_rounds, int)
        return self.rules.setup(
            config.players, abilities=abilities, max_rounds=max_rounds, side=side, seed=seed
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
        ctx = state.ctx
        assert ctx is not None
        k = ctx.ra or ctx.rd
        return act.dice(encode_pool(tuple(sorted(rng.randint(1, 6) for _ in range(k)))))

    def apply(self, state: State, action: int) -> State:
        last = self._last
        legal = last[1] if last[0] is state else self.legal_actions(state)
        try:
            return self.rules.apply(state, action, legal)
        except IllegalActionError as exc:
            if isinstance(exc, WrongSeatError):
                raise
            try:
                shown = repr(action_text(self.rules, state, action))
            except (IndexError, ValueError, KeyError):
                shown = repr(action)
            options = ", ".join(action_text(self.rules, state, a) for a in legal[:8])
            raise IllegalActionError(
                f"{shown} is not legal here; legal: {options}{' ...' if len(legal) > 8 else ''}",
                field="action",
                rule=exc.rule,
            ) from None

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
        return ai.standings(state)

    def prior(self, state: State) -> Sequence[float] | None:
        """Move priors for PUCT in the main phase (see :func:`ai.prior`)."""
        return ai.prior(self, state)

    # ------------------------------------------------------------------ hidden information
    def observation(self, state: State, seat: int) -> State:
        """What ``seat`` sees: others' face-down gadgets, deck orders and unseen quest cards hidden."""
        players = tuple(
            p
            if i == seat
            else p._replace(hand=tuple(sorted((*p.known, *(-1,) * (len(p.hand) - len(p.known))))))
            for i, p in enumerate(state.players)
        )
        return state._replace(
            seed=0,
            players=players,
            gdeck=(-1,) * len(state.gdeck),
            c1deck=(-1,) * len(state.c1deck),
            c3deck=(-1,) * len(state.c3deck),
            quests=tuple(q[:1] + (-1,) * (len(q) - 1) for q in state.quests),
        )

    def sample_state(self, observation: Any, seat: int, rng: random.Random) -> State:
        """A full state consistent with ``observation`` (uniform over the unseen cards)."""
        obs: State = observation
        c = self.content
        # gadgets: the unseen ones go to the deck and to the others' unknown hand cards
        pool = list(c.gadget_deck)
        for g in (*obs.gdisc, *(x for p in obs.players for x in p.hand if x >= 0)):
            pool.remove(g)
        rng.shuffle(pool)
        players = []
        for p in obs.players:
            unknown = p.hand.count(-1)
            if unknown:
                dealt, pool = pool[:unknown], pool[unknown:]
                p = p._replace(hand=tuple(sorted((*(x for x in p.hand if x >= 0), *dealt))))
            players.append(p)
        gdeck = tuple(pool)
        in_use = obs.ctx.card if obs.ctx is not None and obs.ctx.kind == 0 else -1
        decks = []
        for stage, disc in ((1, obs.c1disc), (3, obs.c3disc)):
            total = len(c.challenges1 if stage == 1 else c.challenges3)
            rest = [
                i
                for i in range(total)
                if i not in disc and not (obs.ctx and obs.ctx.stage == stage and i == in_use)
            ]
            rng.shuffle(rest)
            decks.append(tuple(rest))
        quests = []
        for skill, q in enumerate(obs.quests):
            if len(q) <= 1:
                quests.append(q)
                continue
            seen = {q[0], *(p.cards[skill] for p in obs.players)}
            unseen = [i for i, card in enumerate(c.stage1) if card.skill == skill and i not in seen]
            rng.shuffle(unseen)
            quests.append((q[0], *unseen[: len(q) - 1]))
        return obs._replace(
            seed=rng.getrandbits(62),
            players=tuple(players),
            gdeck=gdeck,
            c1deck=decks[0],
            c3deck=decks[1],
            quests=tuple(quests),
        )

    def explain(self, state: State, action: int) -> Sequence[tuple[str, float]]:
        """Reasons with numbers: quest odds, lictor distance, tokens, coins (for hints)."""
        r = self.rules
        seat = state.seat
        p = state.players[seat]
        out: list[tuple[str, float]] = [
            ("triumph tokens placed", float(sum(p.otoks))),
            ("coins", float(p.coins)),
        ]
        o = act.op(action)
        if o == act.OP_INTERACT:
            _via, it, sub, p1, *_ = act.interact_fields(action)
            if it in (1, 3) and sub in (0, 2):
                mini = 0 if it == 1 else 1
                k = r.dice_count(state, seat, mini, p1)
                where = r.pos(p, mini)
                dist, _ = r.board.nearest(where, state.lictors)
                needs = self.content.challenges1 if sub == 0 else self.content.challenges3
                disc = state.c1disc if sub == 0 else state.c3disc
                cards = [i for i in range(len(needs)) if i not in disc] or list(range(len(needs)))
                odds = sum(1 - (1 - p_contains(k, needs[i])) ** max(dist, 1) for i in cards) / len(cards)
                out += [
                    ("quest success odds (no gadgets)", odds),
                    ("dice rolled", float(k)),
                    ("nearest lictor, districts away", float(dist)),
                ]
            if it in (1, 3) and sub == 3:  # a combat: exact odds without gadgets
                p2, p3 = act.interact_fields(action)[4:6]
                mini = 0 if it == 1 else 1
                ka = r.dice_count(state, seat, mini, OFF)
                kd = ka + 1 if p1 == LICTOR else r.dice_count(state, p2, p1, 1 if p1 == 0 else 0)
                out += [
                    (
                        "combat win odds (no gadgets)",
                        p_attacker_wins(state.cfg.tiles[p3], min(ka, 8), min(kd, 8)),
                    ),
                    ("attacker dice", float(ka)),
                    ("defender dice", float(kd)),
                ]
            if it == 4:
                out.append(("income", float(self.content.income[r.markers_placed(p)])))
        elif o == act.OP_MOVE:
            _via, mini, _src, dst, pay = act.move_fields(action)
            if mini != LICTOR:
                dist, _ = r.board.nearest(dst, state.lictors)
                out.append(("nearest lictor after the move, districts away", float(dist)))
            out.append(("coins paid", float(pay)))
        return out

    # ------------------------------------------------------------------ notation
    def action_to_text(self, state: State, action: int) -> str:
        return action_text(self.rules, state, action)

    def parse_action(self, state: State, text: str) -> int:
        """Parse an action's notation (see docs/tiberpunk.md); it need not be legal here."""
        try:
            return parse_action_text(self.rules, state, text)
        except NotationError as exc:
            acts = self.legal_actions(state)
            shown = ", ".join(action_text(self.rules, state, a) for a in list(acts)[:8])
            raise NotationError(
                f"{exc.message}; legal here: {shown}{' ...' if len(acts) > 8 else ''}", field="action"
            ) from None

    def state_to_text(self, state: State) -> str:
        return state_text(self.rules, self.to_dict(state), self._shape)

    def parse_state(self, text: str) -> State:
        data = parse_state_text(self.rules, text, self._shape)
        try:
            return self.from_dict(data)
        except InvalidStateError as exc:
            raise NotationError(f"not a tiberpunk state: {exc.message}", field="state") from None

    # ------------------------------------------------------------------ serialization
    def to_dict(self, state: State) -> dict[str, Any]:
        out: dict[str, Any] = _plain(state)
        return out

    def from_dict(self, data: Mapping[str, Any]) -> State:
        try:
            state: State = _build(State, data)
        except (KeyError, TypeError, ValueError, StopIteration) as exc:
            raise InvalidStateError(f"bad tiberpunk state: {exc}", field="state") from None
        self._validate(state)
        return state

    def _validate(self, s: State) -> None:
        c = self.content
        nd = len(c.district_ids)
        problems = []
        if not 2 <= s.n <= 4 or len(s.players) != s.n:
            problems.append(f"players: {s.n} seats with {len(s.players)} players")
        if not 0 <= s.phase <= PH_OVER or not 0 <= s.seat < max(s.n, 1):
            problems.append(f"phase {s.phase} / seat {s.seat}")
        if len(s.lictors) > c.lictors_total or any(not 0 <= d < nd for d in s.lictors):
            problems.append(f"lictors {s.lictors}")
        for i, p in enumerate(s.players):
            if not (-1 <= p.char < nd and -1 <= p.drone < nd) or p.coins < 0:
                problems.append(f"player {i + 1}: position or coins")
            if len(p.skills) != 3 or any(not 0 <= v < len(c.levels[k]) for k, v in enumerate(p.skills)):
                problems.append(f"player {i + 1}: skills {p.skills}")
        if problems:
            raise InvalidStateError("invalid tiberpunk state: " + "; ".join(problems), field="state")
