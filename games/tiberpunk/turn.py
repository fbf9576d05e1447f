"""The turn: whose decision it is, the legal actions of a main-phase turn, applying an action, the end of
a turn and what follows it (rule: tiberpunk/game-overview).

One of the rule modules :class:`games.tiberpunk.rules.Rules` is composed of; the precomputed tables
it reads are :class:`games.tiberpunk.tables.Tables`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.core.records import replace, replace_at
from games.core.rng import derive_seed
from games.errors import IllegalActionError, WrongSeatError
from games.tiberpunk import actions as act
from games.tiberpunk.dice import encode_pool, outcomes
from games.tiberpunk.favor import FavorRules
from games.tiberpunk.parts import (
    AB_STREET,
    FRESH,
    MERCURY,
    R_BOOST,
    R_ESCAPE,
    R_SHIP,
    R_SKILL,
    RULE_OF_OP,
    SEAT_DECIDES,
    bits,
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
    bank_left,
)

__all__ = ["TurnRules"]


class TurnRules(FavorRules):
    """The turn: whose decision it is, the legal actions of a main-phase turn, applying an action, the end
    of a turn and what follows it."""

    # ------------------------------------------------------------------ queries
    def current(self, s: State) -> int:
        """The deciding seat, -1 for chance, -2 when over."""
        ph = s.phase
        if ph in SEAT_DECIDES:
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
        return bits(p.temples) + bits(p.hubs)

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

    def _first_placement(self, s: State, a: int) -> State:
        """rule: game-overview (first turn: the character and the drone placed together)."""
        d = act.value(a)
        p = replace(s.players[s.seat], char=d, drone=d)
        return replace(self._put(s, s.seat, p), phase=PH_MAIN)

    # -- small helpers
    @staticmethod
    def _put(s: State, seat: int, p: Player) -> State:
        """``s`` with the player of ``seat`` replaced by ``p``."""
        return replace(s, players=replace_at(s.players, seat, p))

    def bank(self, s: State) -> int:
        """Coins left in the bank: ``UNLIMITED`` unless the ``coin_bank`` variant limits the bank to
        the box's coins (``cfg.bank``); an empty bank pays nothing."""
        return bank_left(s)

    def _gain(self, s: State, seat: int, amount: int) -> State:
        """``seat`` gains ``amount`` coins, as many as the bank holds (rule: collect-income)."""
        p = s.players[seat]
        bank = bank_left(s)
        p = replace(p, coins=p.coins + (amount if amount < bank else bank))
        return replace(s, players=replace_at(s.players, seat, p))

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
            return replace(s, phase=PH_OVER, turn=FRESH)
        nxt = (s.seat + 1) % n
        phase = PH_PLACE if s.players[nxt].char < 0 else PH_MAIN
        return replace(s, seat=nxt, phase=phase, rnd=s.rnd + (nxt == 0), turn=FRESH)

    # -- the flow after a sub-step: rewards, owed lictor placement, back to the main phase
    def _advance(self, s: State) -> State:
        while True:
            if s.rewards:
                seat, kind, param = s.rewards[0]
                opts = self._reward_options(s, seat, kind, param)
                if len(opts) > 1:
                    return replace(s, phase=PH_REWARD)
                s = replace(s, rewards=s.rewards[1:])
                if opts:
                    s = self._apply_reward(s, seat, kind, param, opts[0])
                continue
            if s.turn.lictor_due:  # rule: spaceship-cards (a lictor from the reserve)
                turn = replace(s.turn, lictor_due=False)
                if len(s.lictors) < self.c.lictors_total:
                    where = self._placement(s)  # (it does not depend on the turn flags)
                    if len(where) > 1:
                        return replace(s, turn=turn, phase=PH_LPLACE)
                    s = replace(s, turn=turn, lictors=tuple(sorted((*s.lictors, where[0]))))
                else:
                    s = replace(s, turn=turn)
                continue
            return s if s.phase == PH_MAIN else replace(s, phase=PH_MAIN)
