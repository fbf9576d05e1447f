"""The turn: whose decision it is, the legal actions of a main-phase turn, applying an action, the end of a
turn and what follows it (rule: game-overview, interaction-wheel, divine-favor).

One of the rule modules :class:`games.tiberpunk.rules.Rules` is composed of; the precomputed tables
it reads are :class:`games.tiberpunk.tables.Tables`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.core.rng import derive_seed
from games.errors import IllegalActionError, WrongSeatError
from games.tiberpunk import actions as act
from games.tiberpunk.dice import encode_pool, outcomes
from games.tiberpunk.parts import (
    _I_GDISC,
    _I_PHASE,
    _I_PLAYERS,
    _I_REWARDS,
    _I_SEAT,
    _I_TURN,
    _P_COINS,
    _P_FAVOR,
    _SEAT_DECIDES,
    _T_JUNO,
    _T_LICTOR_DUE,
    AB_REBOOTER,
    AB_RECHARGE,
    AB_STREET,
    FRESH,
    GENIUS,
    JUNO,
    MERCURY,
    R_BOOST,
    R_ESCAPE,
    R_SHIP,
    R_SKILL,
    RULE_OF_OP,
    STELLAR,
    _bits,
    _hand_add,
    _new,
    _with,
)
from games.tiberpunk.state import (
    CHAR,
    PH_CGADGET,
    PH_DRAFT,
    PH_LPLACE,
    PH_MAIN,
    PH_OVER,
    PH_PLACE,
    PH_PURSUE,
    PH_QGADGET,
    PH_REWARD,
    PH_ROLL,
    Player,
    State,
    Turn,
    bank_left,
)
from games.tiberpunk.tables import Tables

__all__ = ["TurnRules"]


class TurnRules(Tables):
    """The turn: whose decision it is, the legal actions of a main-phase turn, applying an action, the end
    of a turn and what follows it."""

    # ------------------------------------------------------------------ queries
    def current(self, s: State) -> int:
        """The deciding seat, -1 for chance, -2 when over."""
        ph = s.phase
        if ph in _SEAT_DECIDES:
            return s.seat
        if ph == PH_ROLL:
            return -1
        if ph == PH_PURSUE:
            return (s.seat + 1) % s.n
        if ph == PH_CGADGET:
            assert s.ctx is not None
            return s.ctx.who
        if ph == PH_REWARD:
            return s.rewards[0][0]
        return -2

    def markers_placed(self, p: Player) -> int:
        """Influence markers a player has on structures."""
        return _bits(p.temples) + _bits(p.hubs)

    def level(self, p: Player, skill: int) -> int:
        """The dice of a skill (the number above the skill marker)."""
        return self.c.levels[skill][p.skills[skill]]

    def dice_count(self, s: State, seat: int, mini: int, skill: int) -> int:
        """Dice a miniature rolls with a skill: level - shackles + boost (+ Street Support).

        rule: stage-1-quests, shackles, objective-rewards, personal-abilities
        """
        p = s.players[seat]
        k = self.c.levels[skill][p.skills[skill]] - ((p.shackles >> mini) & 1) + ((p.boosts >> mini) & 1)
        if p.ability >= 0 and self.c.abilities[p.ability].kind == AB_STREET:
            k += self.markers_placed(p) // 2
        return max(0, k)

    def pos(self, p: Player, mini: int) -> int:
        """District of a player's character or drone."""
        return p.char if mini == CHAR else p.drone

    def quest_markers(self, s: State) -> tuple[int, ...]:
        """Districts holding a quest marker (the face-up Stage I cards)."""
        return tuple(self.c.stage1[q[0]].district for q in s.quests if q)

    def gadget_limit(self, s: State, seat: int) -> int:
        """Gadgets per roll: 1, or 3 with Emperor's Genius (active player only; rule: gadget-cards)."""
        return 3 if seat == s.seat and s.players[seat].favor == GENIUS else 1

    def dice_per_gadget(self, s: State, seat: int) -> int:
        """Dice one gadget affects: 2 with Emperor's Genius blessed (rule: gadget-cards)."""
        p = s.players[seat]
        return 2 if seat == s.seat and p.favor == GENIUS and (p.blessings >> GENIUS) & 1 else 1

    # ------------------------------------------------------------------ legal actions
    def _dice_legal(self, k: int) -> tuple[tuple[int, ...], frozenset[int]]:
        """The chance outcomes of ``k`` dice as actions (a tuple and a set), cached."""
        got = self._dice_legal_cache.get(k)
        if got is None:
            acts = tuple(a for a, _ in self._chance_k(k))
            got = self._dice_legal_cache[k] = (acts, frozenset(acts))
        return got

    def legal(self, s: State) -> Sequence[int]:
        """The legal actions (deterministic order, no duplicates)."""
        ph = s.phase
        if ph == PH_MAIN:
            return self._main_actions(s)
        if ph == PH_ROLL:
            ctx = s.ctx
            assert ctx is not None
            return self._dice_legal(ctx.ra or ctx.rd)[0]
        if ph in (PH_QGADGET, PH_CGADGET):
            return self._gadget_actions(s)
        if ph == PH_PURSUE:
            assert s.ctx is not None
            return [act.pursue(a, b) for a, b in self.board.pursuit_steps(s.ctx.where, s.lictors)]
        if ph == PH_REWARD:
            seat, kind, param = s.rewards[0]
            opcode = {
                R_SKILL: act.OP_SKILL,
                R_BOOST: act.OP_BOOST,
                R_SHIP: act.OP_TAKE,
                R_ESCAPE: act.OP_ESCAPE,
            }[kind]
            return [act.simple(opcode, v) for v in self._reward_options(s, seat, kind, param)]
        if ph == PH_LPLACE:
            return [act.simple(act.OP_LICTOR, d) for d in self._placement(s)]
        if ph == PH_PLACE:
            markers = set(self.quest_markers(s))
            return [act.simple(act.OP_PLACE, d) for d in range(self.nd) if d not in markers]
        if ph == PH_DRAFT:
            return [act.simple(act.OP_DRAFT, a) for a in s.draft]
        return []

    def chance(self, s: State) -> tuple[tuple[int, float], ...]:
        """Chance outcomes at a roll: every sorted multiset of the dice, multinomial odds."""
        ctx = s.ctx
        if s.phase != PH_ROLL or ctx is None:
            return ()
        return self._chance_k(ctx.ra or ctx.rd)

    def _chance_k(self, k: int) -> tuple[tuple[int, float], ...]:
        got = self._dice_actions.get(k)
        if got is None:
            got = tuple((act.dice(encode_pool(pool)), p) for pool, p in outcomes(k))
            self._dice_actions[k] = got
        return got

    def _token_plan(
        self, wheel: tuple[int, ...], tokens: tuple[int, ...]
    ) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
        """The tokens not on the wheel, in index order: (Collect Income action, the token's via field,
        the interaction types it allows) (rule: interaction-wheel, collect-income); cached."""
        key = (wheel, tokens)
        got = self._token_plans.get(key)
        if got is None:
            got = self._token_plans[key] = tuple(
                (self._income_acts[idx], idx << 5, self._its[tokens[idx] & 15])
                for idx in range(4)
                if idx not in wheel
            )
        return got

    def _main_actions(self, s: State) -> list[int]:
        """The active player's options in the main phase, in this order: favor changes, movements
        (the movement action, then each playable spaceship card with its interaction), the tokens
        (Collect Income and each allowed interaction), Rebooter, Recharge, then "end turn"."""
        p = s.players[s.seat]
        t = s.turn
        favor = p.favor
        blessings = p.blessings
        acts: list[int] = [] if t.favor else list(self._favor_by[favor + 1])  # rule: divine-favor
        if (2 if favor == MERCURY and blessings & 1 else 1) > t.moves:  # Mercury blessed: 2 movements
            self._add_moves(acts, s, p, 0)
        # interaction options (via 0) by interaction type, each computed at most once
        opts: list[Sequence[int] | None] = [None, None, None, None]
        ships = p.ships
        if not t.ship and (ships[0] or ships[1] or ships[2]):  # rule: spaceship-cards
            self._ship_card_actions(acts, s, p, opts)
        token = t.token
        if not token:  # rule: interaction-wheel
            opt_fns = self._opt_fns
            plan = self._token_plans.get((p.wheel, p.tokens))
            if plan is None:
                plan = self._token_plan(p.wheel, p.tokens)
            append = acts.append
            for income, via, its in plan:
                append(income)
                for it in its:
                    got = opts[it]
                    if got is None:
                        got = opts[it] = opt_fns[it](s)
                    if got:
                        if via:  # (a loop: cheaper than a list comprehension for the few options)
                            for o in got:
                                append(o | via)
                        else:  # token 0: the options as they are (via 0)
                            acts += got
        if p.ability >= 0:  # rule: personal-abilities
            self._ability_actions(acts, s, p)
        if token:
            acts.append(act.END)
        return acts

    def _ship_card_actions(
        self, acts: list[int], s: State, p: Player, opts: list[Sequence[int] | None]
    ) -> None:
        """Append each playable spaceship card with a movement or the interaction it shows (rule:
        spaceship-cards; Stellar Ark blessed: cards gained this turn too); ``opts`` caches the
        interaction options (via 0) by type."""
        t = s.turn
        ships = p.ships
        ark = p.favor == STELLAR and p.blessings & 2
        gained = t.gained
        for k in range(3):
            if ships[k] - (0 if ark else gained[k]) > 0:
                self._add_moves(acts, s, p, k + 1)
                it = self._ship_types[k]
                got = opts[it]
                if got is None:
                    got = opts[it] = self._opt_fns[it](s)
                via = (act.VIA_SHIP + k) << 5
                acts += [o | via for o in got]

    def _ability_actions(self, acts: list[int], s: State, p: Player) -> None:
        """Append the Rebooter (before a token is used this turn) or Recharge option of the player's
        ability tile (rule: personal-abilities)."""
        t = s.turn
        ab = self.c.abilities[p.ability]
        if ab.kind == AB_REBOOTER and not t.token:
            if p.wheel and p.reboots < len(ab.costs) and p.coins >= ab.costs[p.reboots]:
                acts.append(act.REBOOT)
        elif ab.kind == AB_RECHARGE and not t.recharged:
            for g in sorted(set(t.used)):
                if g in s.gdisc:
                    acts.append(act.simple(act.OP_RECHARGE, g))

    def juno_cost(self, s: State, p: Player, costs: list[int]) -> tuple[int, bool]:
        """(total, uses the basic discount) of purchases in one structure interaction (rule: divine-favor)."""
        total = sum(costs)
        if p.favor != JUNO:
            return total, False
        if (p.blessings >> JUNO) & 1:
            return sum(max(0, x - 1) for x in costs), False
        if not s.turn.juno and total > 0:
            return total - 1, True
        return total, False

    # ------------------------------------------------------------------ apply
    def apply(self, s: State, a: int, legal: Sequence[int]) -> State:
        """The state after legal action ``a`` (``legal`` are the legal actions of ``s``)."""
        if s.phase == PH_OVER:
            raise WrongSeatError(
                "the game is over; no action is legal", field="action", rule="tiberpunk/end-of-game"
            )
        if s.phase == PH_ROLL:
            ctx = s.ctx
            assert ctx is not None
            ok = a in self._dice_legal(ctx.ra or ctx.rd)[1]
        else:
            ok = a in legal
        if not ok:
            raise IllegalActionError(
                f"action {a!r} is not legal here",
                field="action",
                rule=RULE_OF_OP.get(act.op(a), "tiberpunk/game-overview"),
            )
        return self.apply_unchecked(s, a)

    def apply_unchecked(self, s: State, a: int) -> State:
        """The state after ``a``, which must be one of the legal actions (or chance outcomes) of ``s``.

        ``apply`` without the legality check: the fast path of ``Game.apply_trusted`` for searches and
        playouts. Same result as ``apply`` on every legal action (tests/tiberpunk/test_apply_trusted.py).
        """
        o = a & 31
        if o == act.OP_MOVE:
            return self._fast_move(s, a)
        if o == act.OP_INTERACT:
            it = (a >> 8) & 7
            if it in (act.IT_INCOME, act.IT_SPACESHIP):
                via = (a >> 5) & 7
                if via < act.VIA_SHIP and not s.rewards and not s.turn.lictor_due:
                    if it == act.IT_INCOME:
                        return self._fast_income(s, via)
                    if it == act.IT_SPACESHIP:
                        return self._fast_spaceship(s, via, (a >> 13) & 15)
            return self._do_interact(s, a)
        return self._apply_by_op[o](s, a)  # the other op codes by a table (rule: their op's section)

    def _unknown_action(self, s: State, a: int) -> State:
        raise IllegalActionError(f"unknown action {a!r}", field="action")

    def _move_favor(self, s: State, a: int) -> State:
        """Move the favor marker, once a turn (rule: divine-favor)."""
        seat = s.seat
        pv: list[Any] = list(s.players[seat])
        pv[_P_FAVOR] = a >> 5
        tv: list[Any] = list(s.turn)
        tv[1] = True  # favor
        ps = list(s.players)
        ps[seat] = _new(Player, pv)
        sv: list[Any] = list(s)
        sv[_I_TURN] = _new(Turn, tv)
        sv[_I_PLAYERS] = tuple(ps)
        return _new(State, sv)

    def _first_placement(self, s: State, a: int) -> State:
        """rule: game-overview (first turn: the character and the drone placed together)."""
        d = act.value(a)
        p = s.players[s.seat]._replace(char=d, drone=d)
        return _with(self._put(s, s.seat, p), _I_PHASE, PH_MAIN)

    def _reboot(self, s: State, a: int) -> State:
        """Rebooter: pay the next cost, take back the interaction tokens (rule: personal-abilities)."""
        p = s.players[s.seat]
        cost = self.c.abilities[p.ability].costs[p.reboots]
        return self._put(s, s.seat, p._replace(coins=p.coins - cost, wheel=(), reboots=p.reboots + 1))

    def _recharge(self, s: State, a: int) -> State:
        """Recharge: a gadget used this turn back to the hand, face up (rule: personal-abilities)."""
        g = act.value(a)
        disc = list(s.gdisc)
        disc.reverse()
        disc.remove(g)  # the most recent copy
        disc.reverse()
        used = list(s.turn.used)
        used.remove(g)
        p = _hand_add(s.players[s.seat], g, public=True)
        s = _with(self._put(s, s.seat, p), _I_GDISC, tuple(disc))
        return s._replace(turn=s.turn._replace(used=tuple(used), recharged=True))

    # -- small helpers
    @staticmethod
    def _put(s: State, seat: int, p: Player) -> State:
        ps = list(s.players)
        ps[seat] = p
        sv: list[Any] = list(s)
        sv[_I_PLAYERS] = tuple(ps)
        return _new(State, sv)

    def bank(self, s: State) -> int:
        """Coins left in the bank: ``UNLIMITED`` unless the ``coin_bank`` variant limits the bank to
        the box's coins (``cfg.bank``); an empty bank pays nothing."""
        return bank_left(s)

    def _gain(self, s: State, seat: int, amount: int) -> State:
        ps = list(s.players)
        bank = bank_left(s)
        pv: list[Any] = list(ps[seat])
        pv[_P_COINS] += amount if amount < bank else bank
        ps[seat] = _new(Player, pv)
        sv: list[Any] = list(s)
        sv[_I_PLAYERS] = tuple(ps)
        return _new(State, sv)

    def _reshuffle(self, s: State, pile: tuple[int, ...], label: str) -> tuple[tuple[int, ...], int]:
        rng = random.Random(derive_seed(s.seed, label, s.shuffles))
        deck = list(pile)
        rng.shuffle(deck)
        return tuple(deck), s.shuffles + 1

    def _end_turn(self, s: State) -> State:
        """rule: end-of-game — after a trigger the round finishes so everyone has equal turns."""
        n = s.n
        last = s.seat == n - 1
        if last and (s.end or (s.cfg.max_rounds and s.rnd >= s.cfg.max_rounds)):
            return s._replace(phase=PH_OVER, turn=FRESH)
        nxt = (s.seat + 1) % n
        phase = PH_PLACE if s.players[nxt].char < 0 else PH_MAIN
        sv: list[Any] = list(s)
        sv[_I_SEAT] = nxt
        sv[_I_PHASE] = phase
        sv[_I_PHASE + 1] += nxt == 0  # rnd
        sv[_I_TURN] = FRESH
        return _new(State, sv)

    # -- the flow after a sub-step: rewards, owed lictor placement, back to the main phase
    def _advance(self, s: State) -> State:
        while True:
            if s.rewards:
                seat, kind, param = s.rewards[0]
                opts = self._reward_options(s, seat, kind, param)
                if len(opts) > 1:
                    return _with(s, _I_PHASE, PH_REWARD)
                s = _with(s, _I_REWARDS, s.rewards[1:])
                if opts:
                    s = self._apply_reward(s, seat, kind, param, opts[0])
                continue
            if s.turn.lictor_due:
                tv: list[Any] = list(s.turn)
                tv[_T_LICTOR_DUE] = False
                sv: list[Any] = list(s)
                sv[_I_TURN] = _new(Turn, tv)
                if len(s.lictors) < self.c.lictors_total:
                    where = self._placement(s)  # (it does not depend on the turn flags)
                    if len(where) > 1:
                        sv[_I_PHASE] = PH_LPLACE
                        return _new(State, sv)
                    sv[_I_PLAYERS + 1] = tuple(sorted((*s.lictors, where[0])))
                s = _new(State, sv)
                continue
            return s if s.phase == PH_MAIN else _with(s, _I_PHASE, PH_MAIN)

    def _pay(self, s: State, seat: int, costs: list[int]) -> State:
        p = s.players[seat]
        total, basic = self.juno_cost(s, p, costs)
        ps = list(s.players)
        ps[seat] = _with(p, _P_COINS, p.coins - total)
        sv: list[Any] = list(s)
        sv[_I_PLAYERS] = tuple(ps)
        if basic:
            sv[_I_TURN] = _with(s.turn, _T_JUNO, True)
        return _new(State, sv)
