"""Tiberpunk's rules: setup, legal actions and pure transitions (the rulebook section ids are cited).

Decision points follow the rulebook: the active player decides their turn; the player to the left
decides the lictor pursuit after a failed quest roll; the losing side of a combat decides whether
to play a gadget; a reward's recipient chooses the skill, boost slot or spaceship stack. Dice are
chance nodes. A choice with a single option is applied at once.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any, Final, TypeVar

from games.core.rng import derive_seed
from games.errors import ConfigError, IllegalActionError, InvalidStateError, WrongSeatError
from games.tiberpunk import actions as act
from games.tiberpunk.board import Board
from games.tiberpunk.content import GADGETS, Content
from games.tiberpunk.dice import contains, decode_pool, encode_pool, outcomes, score
from games.tiberpunk.state import (
    CHAR,
    COMBAT,
    DRONE,
    LICTOR,
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
    QUEST,
    STAGE2_OBJ,
    Cfg,
    Ctx,
    Player,
    State,
    Turn,
)

__all__ = ["Rules"]

T = TypeVar("T")
HACK, GUILE, OFF = 0, 1, 2
MERCURY, STELLAR, JUNO, GENIUS = 0, 1, 2, 3
REROLL, ADD, ROT1, ROT2, FLIP = 0, 1, 2, 3, 4
R_SKILL, R_COINS, R_SHIP, R_GADGET, R_BOOST, R_ESCAPE = 0, 1, 2, 3, 4, 5
T_DEF_CHAR, T_DEF_DRONE, T_DEF_LICTOR, T_NETWORK, T_SUPPLY, T_DEVOTION = 0, 1, 2, 3, 4, 5
T_PRIESTS, T_SENATOR, T_MASTERY, T_MERCHANTS = 6, 7, 8, 9
TPL_DELIVER, TPL_RELAY, TPL_INFILTRATE, TPL_SHADOW, TPL_GADGETS, TPL_SHIP, TPL_BLESS, TPL_DEFEAT = range(8)
AB_RECHARGE, AB_TOKEN, AB_MIRROR, AB_STREET, AB_REBOOTER = range(5)
MINIS_FOR = ((DRONE,), (CHAR,), (CHAR, DRONE))  # rule: character-drone-interactions
FRESH = Turn()

RULE_OF_OP = {
    act.OP_DICE: "tiberpunk/stage-1-quests",
    act.OP_DRAFT: "tiberpunk/personal-abilities",
    act.OP_PLACE: "tiberpunk/game-overview",
    act.OP_FAVOR: "tiberpunk/divine-favor",
    act.OP_MOVE: "tiberpunk/movement",
    act.OP_UNSHACKLE: "tiberpunk/shackles",
    act.OP_INTERACT: "tiberpunk/interaction-wheel",
    act.OP_END: "tiberpunk/game-overview",
    act.OP_REBOOT: "tiberpunk/personal-abilities",
    act.OP_RECHARGE: "tiberpunk/personal-abilities",
    act.OP_GADGET: "tiberpunk/gadget-cards",
    act.OP_STOP: "tiberpunk/gadget-cards",
    act.OP_PURSUE: "tiberpunk/stage-1-quests",
    act.OP_SKILL: "tiberpunk/objective-rewards",
    act.OP_BOOST: "tiberpunk/objective-rewards",
    act.OP_TAKE: "tiberpunk/objective-rewards",
    act.OP_LICTOR: "tiberpunk/spaceship-cards",
    act.OP_ESCAPE: "tiberpunk/combat-vs-lictor",
}


def _bits(m: int) -> int:
    return m.bit_count()


def _set(t: tuple[T, ...], i: int, v: T) -> tuple[T, ...]:
    return (*t[:i], v, *t[i + 1 :])


def _hand_add(p: Player, g: int, *, public: bool = False) -> Player:
    pv: list[Any] = list(p)
    pv[_P_HAND] = tuple(sorted((*p.hand, g)))
    if public:
        pv[_P_KNOWN] = tuple(sorted((*p.known, g)))
    return _new(Player, pv)


def _hand_remove(p: Player, g: int) -> Player:
    """Play or discard gadget ``g``. If it could have been a publicly known copy, the others can no
    longer tell which copy went, so one known copy stops being known (unless the whole hand was known)."""
    hand = list(p.hand)
    hand.remove(g)
    known = p.known
    if g in known:
        k = list(known)
        k.remove(g)
        known = tuple(hand) if len(p.known) == len(p.hand) else tuple(k)
    pv: list[Any] = list(p)
    pv[_P_HAND] = tuple(hand)
    pv[_P_KNOWN] = known
    return _new(Player, pv)


def _counts_to_list(code: int) -> list[int]:
    out: list[int] = []
    for g in range(len(GADGETS)):
        out += [g] * ((code >> (3 * g)) & 7)
    return out


def _list_to_counts(gs: tuple[int, ...] | list[int]) -> int:
    code = 0
    for g in gs:
        code += 1 << (3 * g)
    return code


@lru_cache(maxsize=4096)
def _multisets(hand: tuple[int, ...], k: int) -> tuple[tuple[int, ...], ...]:
    """Distinct k-card choices (as sorted gadget tuples) from a hand (cached: hands repeat); face-down
    cards (-1, in an observation) cannot be chosen."""
    out: set[tuple[int, ...]] = set()
    hand = tuple(g for g in hand if g >= 0)

    def rec(start: int, chosen: tuple[int, ...]) -> None:
        if len(chosen) == k:
            out.add(chosen)
            return
        for i in range(start, len(hand)):
            rec(i + 1, (*chosen, hand[i]))

    rec(0, ())
    return tuple(sorted(out))


@lru_cache(maxsize=4096)
def _combo_codes(hand: tuple[int, ...], k: int) -> tuple[int, ...]:
    """The gadget-count codes (``_list_to_counts``) of the distinct k-card choices from a hand (cached)."""
    return tuple(_list_to_counts(combo) for combo in _multisets(hand, k))


class Rules:
    """The rules engine over a content pack (the game class adds notation and the protocol glue)."""

    def __init__(self, content: Content) -> None:
        c = content
        self.c = c
        self.board = Board(c.district_ids, c.district_names, c.edges)
        self.nd = self.board.size
        self._diam = self.board.diameter
        self.hub_of = tuple(c.hubs.index(d) if d in c.hubs else -1 for d in range(self.nd))
        self.track = c.favor_track
        self.max_slot = tuple(len(lv) - 1 for lv in c.levels)
        self.need1 = c.challenges1
        self.need3 = c.challenges3
        # _moves_tab[via][mercury][coins][mini][src]: the move actions, built once
        self._moves_tab = tuple(
            tuple(
                tuple(
                    tuple(
                        tuple(
                            self._move_table(via, mini, src, (1 if mini == CHAR else 2) + merc, budget)
                            for src in range(self.nd)
                        )
                        for mini in (CHAR, DRONE, LICTOR)
                    )
                    for budget in range(self.board.diameter + 1)
                )
                for merc in (0, 1)
            )
            for via in range(4)
        )
        self._hub_cache: dict[tuple[object, ...], tuple[int, ...]] = {}
        self._site_cache: dict[tuple[int, ...], tuple[tuple[int, int, int, int], ...]] = {}
        # favor options by the marker's segment (-1: the centre, any segment); income per token
        track = self.track
        self._favor_acts = {
            -1: tuple(act.simple(act.OP_FAVOR, g) for g in range(4)),
            **{
                g: tuple(
                    act.simple(act.OP_FAVOR, x)
                    for x in sorted({track[track.index(g) - 1], track[(track.index(g) + 1) % 4]})
                )
                for g in range(4)
            },
        }
        self._income_acts = tuple(act.interact(i, act.IT_INCOME) for i in range(4))
        self._combat_tasks: dict[tuple[int, ...], tuple[tuple[tuple[int, int], ...], ...]] = {}
        # index -1 (an unplaced miniature) reads the trailing empty entry
        self.temples_at = (*(tuple(g for g in range(4) if d in c.temples[g]) for d in range(self.nd)), ())
        self._dice_actions: dict[int, tuple[tuple[int, float], ...]] = {}
        self.gadget_total = tuple(c.gadget_deck.count(g) for g in range(len(GADGETS)))
        # hot-path tables (derived once from the content pack)
        # interaction types a token allows, by its mask (the wheel's four types; income is separate)
        self._its = tuple(tuple(it for it in range(4) if (mask >> it) & 1) for mask in range(16))
        # coins above this never change which hub visits are affordable
        self._hub_coin_cap = sum(max(cs) for cs in c.costs) + c.gadget_cost
        # whether any structure or side-objective site is in a district (index -1: none)
        sites = set(c.sites)
        self._structure_at = (
            *(bool(self.temples_at[d]) or self.hub_of[d] >= 0 or d in sites for d in range(self.nd)),
            False,
        )
        self._stage1_district = tuple(q.district for q in c.stage1)
        # skills whose quests a miniature may do (rule: character-drone-interactions)
        self._skills_for = tuple(tuple(k for k in range(3) if m in MINIS_FOR[k]) for m in (CHAR, DRONE))
        self._ship_cache: dict[tuple[int, int, bool], tuple[int, ...]] = {}
        self._ship_types = tuple(c.ship_types)
        its = (act.IT_CHARACTER, act.IT_DRONE)
        self._fight_base = tuple(act.interact(0, it, act.SUB_FIGHT) for it in its)
        temple = act.interact(0, act.IT_STRUCTURE, act.SUB_TEMPLE)
        self._temple_act = tuple(tuple(temple | g << 13 | m << 17 for m in (CHAR, DRONE)) for g in range(4))
        self._q1_act = tuple(tuple(act.interact(0, it, act.SUB_Q1, k) for k in range(3)) for it in its)
        self._q3_act = tuple(tuple(act.interact(0, it, act.SUB_Q3, k) for k in range(3)) for it in its)
        self._it_of_mini = its  # the interaction type of a miniature (CHAR, DRONE)
        self._stage3_district = tuple(q.district for q in c.stage3)
        self._dice_legal_cache: dict[int, tuple[tuple[int, ...], frozenset[int]]] = {}
        self._pools: dict[int, tuple[int, ...]] = {}  # decoded dice pools by code (few: small rolls)
        self._scores: dict[tuple[int, tuple[int, ...]], int] = {}  # combat scores (``_score_of``)
        self._gadget_cache: dict[tuple[object, ...], tuple[int, ...]] = {}  # ``_gadget_actions``
        # side-task combat objectives by (side cards, the player's side progress, target kind)
        self._side_objs: dict[tuple[tuple[int, ...], tuple[int, ...], int], tuple[int, ...]] = {}
        self._placement_cache: dict[int, tuple[int, ...]] = {}
        # the option builders by interaction type (as ``_options`` dispatches, one call less)
        self._opt_fns: tuple[Callable[[State], Sequence[int]], ...] = (
            self._spaceship_options,
            lambda s: self._mini_options(s, CHAR),  # (a lambda: a keyword partial call costs more)
            self._structure_options,
            lambda s: self._mini_options(s, DRONE),
        )
        # the gods of the temples in a district, as a bit mask (index -1: none)
        self._temple_gods_at = (*(sum(1 << g for g in self.temples_at[d]) for d in range(self.nd)), 0)
        self._hub_at = (*(self.hub_of[d] >= 0 for d in range(self.nd)), False)
        # per side cards in play: whether one of their sites is in a district (index -1: none)
        self._sites_at: dict[tuple[int, ...], tuple[bool, ...]] = {}
        # movement contexts, flat by (via * 2 + Mercury) * budgets + coin budget: the character's and
        # the drone's move tables by district, the lictors' table and a cache of the lictors' moves by
        # the (sorted) lictor districts (rule: movement)
        self._budgets = self._diam + 1
        self._move_ctx: tuple[
            tuple[
                tuple[tuple[int, ...], ...],
                tuple[tuple[int, ...], ...],
                tuple[tuple[int, ...], ...],
                dict[tuple[int, ...], tuple[int, ...]],
            ],
            ...,
        ] = tuple(
            (
                self._moves_tab[via][merc][budget][CHAR],
                self._moves_tab[via][merc][budget][DRONE],
                self._moves_tab[via][merc][budget][LICTOR],
                {},
            )
            for via in range(4)
            for merc in (0, 1)
            for budget in range(self._budgets)
        )
        # unshackle options by source and shackles mask (rule: shackles)
        self._unshackle_acts = tuple(
            tuple(
                tuple(act.unshackle(via, mini) for mini in (CHAR, DRONE) if (mask >> mini) & 1)
                for mask in range(4)
            )
            for via in range(4)
        )
        # favor options by the marker's segment + 1 (index 0: the centre)
        self._favor_by = tuple(self._favor_acts[g] for g in range(-1, 4))
        # per (wheel, tokens): the free tokens in order as (income action, via field, interaction types)
        self._token_plans: dict[
            tuple[tuple[int, ...], tuple[int, ...]], tuple[tuple[int, int, tuple[int, ...]], ...]
        ] = {}

    # ------------------------------------------------------------------ setup (rule: general-setup)
    def setup(self, n: int, *, abilities: bool, max_rounds: int, side: str, seed: int) -> State:
        """General setup and player setup for ``n`` players (rule: general-setup, player-setup)."""
        c = self.c
        if n == 1:
            raise ConfigError(
                "tiberpunk has no solo rules in its rulebook; play with 2 to 4 players, not 1",
                field="config.players",
                rule="tiberpunk/general-setup",
            )
        if not 2 <= n <= 4:
            raise ConfigError(f"tiberpunk plays with 2 to 4 players, not {n!r}", field="config.players")
        sides = self.side_cards_for(n, side)
        rng = random.Random(seed)
        quests = []
        for skill in range(3):  # step 3: one stack per type, keep as many cards as players
            stack = [i for i, q in enumerate(c.stage1) if q.skill == skill]
            rng.shuffle(stack)
            quests.append(tuple(stack[:n]))
        c1 = list(range(len(c.challenges1)))
        c3 = list(range(len(c.challenges3)))
        rng.shuffle(c1)  # step 6
        rng.shuffle(c3)
        tiles = (c.combat_tiles[0][rng.randrange(2)], c.combat_tiles[1][rng.randrange(2)])  # step 7
        deck = list(c.gadget_deck)
        rng.shuffle(deck)  # step 8
        players = []
        for _ in range(n):
            hand = tuple(sorted(deck[: c.start_gadgets]))
            deck = deck[c.start_gadgets :]
            players.append(
                Player(
                    coins=c.start_coins,
                    skills=c.start_slot,
                    char=-1,
                    drone=-1,
                    shackles=0,
                    boosts=0,
                    favor=-1,
                    blessings=0,
                    temples=0,
                    hubs=0,
                    hand=hand,
                    known=(),
                    ships=(0, 0, 0),
                    wheel=(),
                    tokens=(1, 2, 4, 8),
                    story=(0, 0, 0),
                    cards=(-1, -1, -1),
                    side=(0,) * len(sides),
                    otoks=(0,) * (3 + len(sides)),
                    ability=-1,
                    reboots=0,
                )
            )
        return State(
            n=n,
            cfg=Cfg(abilities=abilities, max_rounds=max_rounds, side=sides, tiles=tiles),
            seed=derive_seed(seed, "tiberpunk", "reshuffle"),
            seat=n - 1 if abilities else 0,
            phase=PH_DRAFT if abilities else PH_PLACE,
            rnd=1,
            turn=FRESH,
            players=tuple(players),
            lictors=tuple(sorted(c.lictor_start)),
            quests=tuple(quests),
            ships=(c.ships_per_type,) * 3,
            lock=-1,
            bless=(n,) * 4,
            gdeck=tuple(deck),
            gdisc=(),
            c1deck=tuple(c1),
            c1disc=(),
            c3deck=tuple(c3),
            c3disc=(),
            shuffles=0,
            speed=0,
            end=False,
            draft=tuple(range(len(c.abilities))) if abilities else (),
            ctx=None,
            rewards=(),
        )

    def side_cards_for(self, n: int, side: str) -> tuple[int, ...]:
        """Side objective cards for ``n`` players from a scenario name or ids like "1A+2A" or "3".

        rule: side-objective-combinations
        """
        group = "2" if n == 2 else "3-4"
        want = 1 if n == 2 else 2
        scen = self.c.scenarios[group]
        name = side or "basic"
        if name in scen:
            return scen[name]
        ids = [x.strip().lstrip("#") for x in name.split("+")]
        by_id = {card.id: i for i, card in enumerate(self.c.side_cards) if card.players == group}
        if len(ids) != want or len(set(ids)) != want or any(x not in by_id for x in ids):
            raise ConfigError(
                f"side objectives {side!r} do not fit {n} players: use {want} card(s) of {sorted(by_id)} "
                f"or a scenario of {sorted(scen)}",
                field="config.options.side_objectives",
                rule="tiberpunk/side-objective-combinations",
            )
        return tuple(by_id[x] for x in ids)

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

    def _blessed(self, p: Player, god: int) -> bool:
        return p.favor == god and bool((p.blessings >> god) & 1)

    def _has_ability(self, p: Player, kind: int) -> bool:
        return p.ability >= 0 and self.c.abilities[p.ability].kind == kind

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

    def _move_table(self, via: int, mini: int, src: int, base: int, budget: int) -> tuple[int, ...]:
        """Move actions of one miniature: every district within ``base`` + ``budget`` coins."""
        reach = self.board.reach(src, base, budget)
        return tuple(act.move(via, mini, src, d, pay) for d, pay in sorted(reach.items()))

    def _moves(self, s: State, p: Player, via: int) -> list[int]:
        """Movement options (rule: movement): character 1, drone/lictor 2, +1 Mercury, +1 per coin."""
        out: list[int] = []
        self._add_moves(out, s, p, via)
        return out

    def _add_moves(self, out: list[int], s: State, p: Player, via: int) -> None:
        """Append the movement options (``_moves``) to ``out``: the character's, the drone's, each
        distinct lictor district's (in order), then the unshackle options (rule: movement, shackles)."""
        coins = p.coins
        chars, drones, lics, cache = self._move_ctx[
            (via * 2 + (p.favor == MERCURY)) * self._budgets + (coins if coins < self._diam else self._diam)
        ]
        out += chars[p.char]
        out += drones[p.drone]
        lictors = s.lictors
        got = cache.get(lictors)
        if got is None:
            if len(cache) > 8192:  # bounded (the sorted lictor tuples of one board are fewer)
                cache.clear()
            got = cache[lictors] = self._lictor_moves(lics, lictors)
        out += got
        if p.shackles:
            out += self._unshackle_acts[via][p.shackles]

    @staticmethod
    def _lictor_moves(lics: tuple[tuple[int, ...], ...], lictors: tuple[int, ...]) -> tuple[int, ...]:
        """The lictors' move actions: each distinct district once, in the (sorted) order of ``lictors``."""
        out: list[int] = []
        prev = -1
        for lic in lictors:
            if lic != prev:
                out += lics[lic]
                prev = lic
        return tuple(out)

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
            ark = favor == STELLAR and blessings & 2
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
        if p.ability >= 0:
            kind = self.c.abilities[p.ability].kind
            if kind == AB_REBOOTER and not token:
                ab = self.c.abilities[p.ability]
                if p.wheel and p.reboots < len(ab.costs) and p.coins >= ab.costs[p.reboots]:
                    acts.append(act.REBOOT)
            elif kind == AB_RECHARGE and not t.recharged:
                for g in sorted(set(t.used)):
                    if g in s.gdisc:
                        acts.append(act.simple(act.OP_RECHARGE, g))
        if token:
            acts.append(act.END)
        return acts

    # -- interaction options (with via = 0)
    def _options(self, s: State, it: int) -> Sequence[int]:
        if it == act.IT_SPACESHIP:
            return self._spaceship_options(s)
        if it == act.IT_STRUCTURE:
            return self._structure_options(s)
        return self._mini_options(s, CHAR if it == act.IT_CHARACTER else DRONE)

    def _spaceship_options(self, s: State) -> Sequence[int]:
        """rule: spaceship-interaction (Stellar Ark basic: a locked stack too)."""
        ark = s.players[s.seat].favor == STELLAR
        ships = s.ships
        key = ((ships[0] > 0) | (ships[1] > 0) << 1 | (ships[2] > 0) << 2, s.lock, ark)
        got = self._ship_cache.get(key)
        if got is None:
            got = self._ship_cache[key] = self._spaceship_options_all(s)
        return got

    def _spaceship_options_all(self, s: State) -> tuple[int, ...]:
        """``_spaceship_options`` without the cache (the reference for tests)."""
        ark = s.players[s.seat].favor == STELLAR
        return tuple(
            act.interact(0, act.IT_SPACESHIP, 0, k)
            for k in range(3)
            if s.ships[k] > 0 and (k != s.lock or ark)
        )

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

    def _structure_options(self, s: State) -> list[int]:
        """rule: structure-interaction, side-objectives."""
        p = s.players[s.seat]
        char, drone = p.char, p.drone
        if p.ability >= 0:  # the Mirror code ability lets either miniature use any structure
            if not self._structure_at[char] | self._structure_at[drone]:
                return []
        else:
            lictors = s.lictors
            temple = self._temple_gods_at[char] & ~(p.temples | p.blessings) and char not in lictors
            hub = self._hub_at[drone] and drone not in lictors
            if temple or hub:
                return self._structure_options_all(s)
            # no temple of a god not yet held for the character, no hub for the drone: only sites
            sites_at = self._sites_at.get(s.cfg.side)
            if sites_at is None:
                in_play = {d for _slot, _ti, _kind, d in self._sites_of(s.cfg.side)}
                sites_at = self._sites_at[s.cfg.side] = (*(d in in_play for d in range(self.nd)), False)
            if not sites_at[char] and not sites_at[drone]:
                return []  # nothing here
        return self._structure_options_all(s)

    def _structure_options_all(self, s: State) -> list[int]:
        """``_structure_options`` without the quick "nothing here" check (the reference for tests)."""
        seat = s.seat
        p = s.players[seat]
        c = self.c
        lictors = s.lictors
        out: list[int] = []
        mirror = p.ability >= 0 and c.abilities[p.ability].kind == AB_MIRROR
        left = c.influence_markers - p.temples.bit_count() - p.hubs.bit_count()  # markers_placed
        # temples: the character in one of the two districts (Mirror code: the drone too)
        temple_minis = (CHAR, DRONE) if mirror else (CHAR,)
        held = p.temples | p.blessings
        for m in temple_minis if left > 0 else ():
            d = p.char if m == CHAR else p.drone
            if d in lictors:
                continue
            for g in self.temples_at[d]:
                if (held >> g) & 1 or s.bless[g] <= 0:
                    continue
                cost = c.temple_cost if p.favor != JUNO else self.juno_cost(s, p, [c.temple_cost])[0]
                if p.coins >= cost:
                    out.append(self._temple_act[g][m])
        if mirror:
            out.sort()
        # upgrade hubs: the drone in the district (Mirror code: the character too)
        hub_minis = (DRONE, CHAR) if mirror else (DRONE,)
        gadget_ok = bool(s.gdeck or s.gdisc)
        for m in hub_minis:
            d = p.char if m == CHAR else p.drone
            h = self.hub_of[d] if d >= 0 else -1
            if h < 0 or d in lictors:
                continue
            first = not (p.hubs >> h) & 1 and left > 0
            juno = 0 if p.favor != JUNO else 2 if (p.blessings >> JUNO) & 1 else 0 if s.turn.juno else 1
            key = (h, m, p.skills, min(p.coins, self._hub_coin_cap), juno, first, gadget_ok)
            got = self._hub_cache.get(key)
            if got is None:
                got = self._hub_visits(s, p, h, m, first, gadget_ok)
                self._hub_cache[key] = got
            out += got
        # side objective sites: either miniature there and no lictor
        sites = self._site_cache.get(s.cfg.side)
        if sites is None:
            sites = self._sites_of(s.cfg.side)
        for slot, ti, kind, d in sites:
            if (p.side[slot] >> ti) & 1 or d not in (p.char, p.drone) or d in lictors:
                continue
            if kind == T_PRIESTS:
                cost, _ = self.juno_cost(s, p, [3])
                if p.coins >= cost:
                    for k in range(3):
                        if p.ships[k]:
                            out.append(act.interact(0, act.IT_STRUCTURE, act.SUB_SITE, slot, ti, k))
            elif kind == T_SENATOR:
                cost, _ = self.juno_cost(s, p, [7])
                if p.coins >= cost:
                    out.append(act.interact(0, act.IT_STRUCTURE, act.SUB_SITE, slot, ti))
            elif kind == T_MASTERY:
                if any(p.skills[k] >= self.max_slot[k] for k in range(3)):
                    out.append(act.interact(0, act.IT_STRUCTURE, act.SUB_SITE, slot, ti))
            else:
                base = act.interact(0, act.IT_STRUCTURE, act.SUB_SITE, slot, ti)
                out += [base | code << 30 for code in _combo_codes(p.hand, 3)]  # (p5: the gadgets)
        return out

    def _sites_of(self, side: tuple[int, ...]) -> tuple[tuple[int, int, int, int], ...]:
        """(slot, task, kind, district) of the site tasks on the side cards in play (cached)."""
        got = self._site_cache.get(side)
        if got is None:
            got = tuple(
                (slot, ti, task.kind, self.c.sites[task.kind - T_PRIESTS])
                for slot, card_i in enumerate(side)
                for ti, task in enumerate(self.c.side_cards[card_i].tasks)
                if task.kind >= T_PRIESTS
            )
            self._site_cache[side] = got
        return got

    def _hub_visits(  # noqa: PLR0917
        self, s: State, p: Player, h: int, m: int, first: bool, gadget_ok: bool
    ) -> tuple[int, ...]:
        """Every affordable hub visit: up to 3 different skills (+1 each) and at most one gadget."""
        c = self.c
        out = []
        ups = [k for k in range(3) if p.skills[k] < self.max_slot[k]]
        for mask in range(8):
            if any((mask >> k) & 1 and k not in ups for k in range(3)):
                continue
            for gad in (0, 1) if gadget_ok else (0,):
                if not mask and not gad and not first:
                    continue
                costs = [c.costs[k][p.skills[k] + 1] for k in range(3) if (mask >> k) & 1]
                if gad:
                    costs.append(c.gadget_cost)
                cost, _ = self.juno_cost(s, p, costs)
                if cost <= p.coins:
                    out.append(act.interact(0, act.IT_STRUCTURE, act.SUB_HUB, h, m, mask, gad))
        return tuple(out)

    def _mini_options(self, s: State, m: int) -> list[int]:
        """Quests and combats of the character or drone interaction (rule: character-drone-interactions)."""
        seat = s.seat
        players = s.players
        p = players[seat]
        d = p[_P_CHAR] if m == CHAR else p[_P_DRONE]  # (indexing: a little faster than attributes)
        if d < 0:
            return []
        lictor_here = d in s.lictors
        out: list[int] = []
        story = p.story
        for skill in self._skills_for[m]:
            st = story[skill]
            if st == 0:
                if not lictor_here:
                    stack = s.quests[skill]
                    if stack and self._stage1_district[stack[0]] == d:
                        out.append(self._q1_act[m][skill])  # rule: stage-1-quests
            elif st == 1:
                if skill != OFF:
                    out += self._stage2_options(s, p, m, d, lictor_here, skill, self._it_of_mini[m])
            elif st == 2 and not lictor_here and self._stage3_district[p.cards[skill]] == d:
                out.append(self._q3_act[m][skill])  # rule: stage-3-quests
        # combats (rule: combat): targets in the district, an available combat objective declared
        if not lictor_here:
            objs: list[Sequence[int] | None] | None = None  # per target kind, computed once
            q = -1
            for other in players:
                q += 1
                oc = other[_P_CHAR]
                od = other[_P_DRONE]
                if d not in (oc, od) or q == seat:
                    continue
                if objs is None:
                    objs = [None, None]
                fight = self._fight_base[m]
                for tk, where in ((CHAR, oc), (DRONE, od)):
                    if where == d:
                        got = objs[tk]
                        if got is None:
                            got = objs[tk] = self._combat_objectives(s, p, tk, d)
                        base = fight | tk << 13 | q << 17  # act.interact(0, it, SUB_FIGHT, tk, q, tile, obj)
                        for obj in got:
                            out.append(base | obj << 25)
                            out.append(base | 1 << 21 | obj << 25)
        else:
            base = self._fight_base[m] | LICTOR << 13  # act.interact(0, it, SUB_FIGHT, LICTOR, 0, tile, obj)
            for obj in self._combat_objectives(s, p, LICTOR, d):
                out.append(base | obj << 25)
                out.append(base | 1 << 21 | obj << 25)
        return out

    def _stage2_options(  # noqa: PLR0917
        self, s: State, p: Player, m: int, d: int, lictor_here: bool, skill: int, it: int
    ) -> list[int]:
        """rule: stage-2-quests (hacking: drones; guile: gadgets, spaceship cards, blessings)."""
        card = self.c.stage2[p.cards[skill]]
        tpl = card.template
        base = act.interact(0, it, act.SUB_Q2, skill)
        if tpl == TPL_INFILTRATE:  # the card explicitly needs a lictor in the drone's district
            return [base] if lictor_here else []
        if lictor_here or (card.district >= 0 and card.district != d):
            return []
        if tpl == TPL_DELIVER:
            return [base]
        if tpl == TPL_RELAY:
            return [base] if p.char >= 0 and self.board.dist[p.char][p.drone] >= card.count else []
        if tpl == TPL_SHADOW:
            seat = s.seat
            near = any(q != seat and d in (o.char, o.drone) for q, o in enumerate(s.players))
            return [base] if near else []
        if tpl == TPL_GADGETS:
            return [base | code << 30 for code in _combo_codes(p.hand, card.count)]  # (p5: the gadgets)
        if tpl == TPL_SHIP:
            return [act.interact(0, it, act.SUB_Q2, skill, k) for k in range(3) if p.ships[k] >= 1]
        if tpl == TPL_BLESS:
            return [base] if _bits(p.blessings) >= card.count else []
        return []

    def _combat_objectives(self, s: State, p: Player, tk: int, d: int) -> Sequence[int]:
        """Available, unfulfilled combat objectives against a target kind (rule: combat)."""
        key = (s.cfg.side, p.side, tk)
        out = self._side_objs.get(key)  # the side tasks part, cached
        if out is None:
            if len(self._side_objs) > 10_000:  # bounded
                self._side_objs.clear()
            tasks = self._combat_tasks.get(s.cfg.side)
            if tasks is None:
                tasks = tuple(
                    tuple(
                        (slot, ti)
                        for slot, card_i in enumerate(s.cfg.side)
                        for ti, task in enumerate(self.c.side_cards[card_i].tasks)
                        if task.kind == want
                    )
                    for want in (T_DEF_CHAR, T_DEF_DRONE, T_DEF_LICTOR)
                )
                self._combat_tasks[s.cfg.side] = tasks
            side = p.side
            out = self._side_objs[key] = tuple(
                slot * 3 + ti for slot, ti in tasks[tk] if not (side[slot] >> ti) & 1
            )
        if p.story[OFF] == 1:
            card = self.c.stage2[p.cards[OFF]]
            if card.template == TPL_DEFEAT and card.target in (tk, 3) and card.district in (-1, d):
                return (*out, STAGE2_OBJ)
        return out

    def _gadget_actions(self, s: State) -> Sequence[int]:
        """Gadgets the deciding player may play on this roll, then "stop" (rule: gadget-cards).

        Cached by what they depend on: the hand, dice per gadget, quest or combat, the two pools.
        """
        ctx = s.ctx
        assert ctx is not None
        actor = s.seat if s.phase == PH_QGADGET else ctx.who
        p = s.players[actor]
        per = self.dice_per_gadget(s, actor)
        key = (p.hand, per, ctx.kind, ctx.a, ctx.d)
        got = self._gadget_cache.get(key)
        if got is None:
            if len(self._gadget_cache) > 50_000:  # bounded
                self._gadget_cache.clear()
            got = self._gadget_cache[key] = tuple(
                self._gadget_actions_of(p.hand, per, ctx.kind, ctx.a, ctx.d)
            )
        return got

    def _gadget_actions_of(
        self, hand: tuple[int, ...], per: int, kind: int, a: tuple[int, ...], d: tuple[int, ...]
    ) -> list[int]:
        """``_gadget_actions`` from its inputs (``per``: dice one gadget affects; ``kind``: QUEST or
        COMBAT; ``a``/``d``: the quester's or attacker's and the defender's dice)."""
        sides = (0,) if kind == QUEST else (0, 1)
        pools = (a, d)
        acts: set[int] = set()
        for g in set(hand):
            if g < 0:  # a face-down card (an observation): not playable
                continue
            if g == ADD:
                acts.add(act.gadget(ADD, 1))
                if per == 2:
                    acts.add(act.gadget(ADD, 2))
                continue
            singles = [
                (side, v, dc) for side in sides for v in sorted(set(pools[side])) for dc in self._deltas(g, v)
            ]
            for t in singles:
                acts.add(act.gadget(g, 1, (t,)))
            if per == 2:
                for i, t1 in enumerate(singles):
                    for t2 in singles[i:]:
                        if t1[0] != t2[0]:
                            continue
                        if t1[1] == t2[1] and pools[t1[0]].count(t1[1]) < 2:
                            continue
                        acts.add(act.gadget(g, 2, (t1, t2)))
        return [*sorted(acts), act.STOP]

    @staticmethod
    def _deltas(g: int, v: int) -> tuple[int, ...]:
        if g == ROT1:
            return tuple(dc for dc, ok in ((1, v < 6), (2, v > 1)) if ok)
        if g == ROT2:
            return tuple(dc for dc, ok in ((3, v <= 4), (4, v >= 3)) if ok)
        return (0,)

    def _reward_options(self, s: State, seat: int, kind: int, param: int) -> list[int]:
        p = s.players[seat]
        if kind == R_SKILL:
            return [k for k in range(3) if (param >> k) & 1 and p.skills[k] < self.max_slot[k]]
        if kind == R_BOOST:
            return [m for m in (CHAR, DRONE) if not (p.boosts >> m) & 1]
        if kind == R_SHIP:
            return [k for k in range(3) if s.ships[k] > 0]
        if kind == R_ESCAPE:
            return list(self.board.neighbors[param])
        return [0]  # coins, gadget: automatic

    def _placement(self, s: State) -> tuple[int, ...]:
        """Where a lictor from the reserve may go (``Board.placement``, cached by occupied districts)."""
        minis = 0
        for p in s.players:
            if p.char >= 0:
                minis |= 1 << p.char
            if p.drone >= 0:
                minis |= 1 << p.drone
        busy = minis
        for d in s.lictors:
            busy |= 1 << d
        s1d = self._stage1_district
        for q in s.quests:
            if q:
                busy |= 1 << s1d[q[0]]
        key = busy << 32 | minis
        got = self._placement_cache.get(key)
        if got is None:
            if len(self._placement_cache) > 100_000:  # bounded
                self._placement_cache.clear()
            nd = self.nd
            got = self._placement_cache[key] = self.board.placement(
                [d for d in range(nd) if (busy >> d) & 1], [d for d in range(nd) if (minis >> d) & 1]
            )
        return got

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
        if o == act.OP_DICE:
            return self._do_dice(s, a)
        if o == act.OP_END:
            return self._end_turn(s)
        if o == act.OP_FAVOR:
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
        if o == act.OP_GADGET:
            return self._do_gadget(s, a)
        if o == act.OP_STOP:
            assert s.ctx is not None
            return self._quest_fail_roll(s) if s.ctx.kind == QUEST else self._resolve_fight(s)
        if o == act.OP_PURSUE:
            return self._pursue(s, (a >> 5) & 15, (a >> 9) & 15)
        if o == act.OP_UNSHACKLE:
            via, mini = (a >> 5) & 7, (a >> 8) & 3
            s = self._use_move(s, via)
            p = s.players[s.seat]
            s = self._put(s, s.seat, _with(p, _P_SHACKLES, p.shackles & ~(1 << mini)))
            return self._advance(s) if via else s
        if o in (act.OP_SKILL, act.OP_BOOST, act.OP_TAKE, act.OP_ESCAPE):
            seat, kind, param = s.rewards[0]
            s = _with(s, _I_REWARDS, s.rewards[1:])
            return self._advance(self._apply_reward(s, seat, kind, param, act.value(a)))
        if o == act.OP_LICTOR:
            return self._advance(_with(s, _I_LICTORS, tuple(sorted((*s.lictors, act.value(a))))))
        if o == act.OP_PLACE:
            d = act.value(a)
            p = s.players[s.seat]._replace(char=d, drone=d)  # rule: game-overview (first turn)
            return _with(self._put(s, s.seat, p), _I_PHASE, PH_MAIN)
        if o == act.OP_DRAFT:
            return self._draft(s, act.value(a))
        if o == act.OP_REBOOT:
            p = s.players[s.seat]
            cost = self.c.abilities[p.ability].costs[p.reboots]
            return self._put(s, s.seat, p._replace(coins=p.coins - cost, wheel=(), reboots=p.reboots + 1))
        if o == act.OP_RECHARGE:
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
        raise IllegalActionError(f"unknown action {a!r}", field="action")

    # -- small helpers
    @staticmethod
    def _put(s: State, seat: int, p: Player) -> State:
        ps = list(s.players)
        ps[seat] = p
        sv: list[Any] = list(s)
        sv[_I_PLAYERS] = tuple(ps)
        return _new(State, sv)

    def bank(self, s: State) -> int:
        """Coins left in the bank (the box holds ``content.bank`` in coins)."""
        return self.c.bank - sum(p.coins for p in s.players)

    def _gain(self, s: State, seat: int, amount: int) -> State:
        ps = list(s.players)
        bank = self.c.bank
        for q in ps:
            bank -= q.coins
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

    def _draw_gadget(self, s: State, seat: int) -> State:
        """Draw the top gadget (the discard pile is reshuffled when the deck is empty)."""
        deck = s.gdeck
        if not deck:
            if not s.gdisc:
                return s
            deck, shuffles = self._reshuffle(s, s.gdisc, "gadgets")
            s = s._replace(gdisc=(), shuffles=shuffles)
        ps = list(s.players)
        ps[seat] = _hand_add(ps[seat], deck[0])
        sv: list[Any] = list(s)
        sv[_I_PLAYERS] = tuple(ps)
        sv[_I_GDECK] = deck[1:]
        return _new(State, sv)

    def _discard_gadget(self, s: State, seat: int, g: int) -> State:
        ps = list(s.players)
        ps[seat] = _hand_remove(ps[seat], g)
        sv: list[Any] = list(s)
        sv[_I_PLAYERS] = tuple(ps)
        sv[_I_GDISC] = (*s.gdisc, g)
        return _new(State, sv)

    def _use_move(self, s: State, via: int) -> State:
        if via == 0:
            tv: list[Any] = list(s.turn)
            tv[2] += 1  # moves
            sv: list[Any] = list(s)
            sv[_I_TURN] = _new(Turn, tv)
            return _new(State, sv)
        return self._play_ship(s, via - 1)

    def _play_ship(self, s: State, k: int) -> State:
        """Discard a spaceship card to its stack; a lictor placement is owed (rule: spaceship-cards)."""
        seat = s.seat
        pv: list[Any] = list(s.players[seat])
        pv[_P_SHIPS] = _set(pv[_P_SHIPS], k, pv[_P_SHIPS][k] - 1)
        ps = list(s.players)
        ps[seat] = _new(Player, pv)
        tv: list[Any] = list(s.turn)
        tv[_T_SHIP] = True
        tv[_T_LICTOR_DUE] = True
        sv: list[Any] = list(s)
        sv[_I_PLAYERS] = tuple(ps)
        sv[_I_SHIPS] = _set(s.ships, k, s.ships[k] + 1)
        sv[_I_TURN] = _new(Turn, tv)
        return _new(State, sv)

    def _fast_move(self, s: State, a: int) -> State:
        """``_do_move`` with fewer intermediate states (same result)."""
        via, mini, dst, pay = (a >> 5) & 7, (a >> 8) & 3, (a >> 14) & 15, (a >> 18) & 15
        if via:
            s = self._play_ship(s, via - 1)
            sv: list[Any] = list(s)
        else:
            tv: list[Any] = list(s.turn)
            tv[2] += 1  # moves
            sv = list(s)
            sv[_I_TURN] = _new(Turn, tv)
        seat = s.seat
        pv: list[Any] = list(s.players[seat])
        pv[0] -= pay  # coins
        if mini == CHAR:
            pv[2] = dst
        elif mini == DRONE:
            pv[3] = dst
        else:
            lic = list(s.lictors)
            lic.remove((a >> 10) & 15)
            lic.append(dst)
            lic.sort()
            sv[_I_PLAYERS + 1] = tuple(lic)
        ps = list(s.players)
        ps[seat] = _new(Player, pv)
        sv[_I_PLAYERS] = tuple(ps)
        return self._advance(_new(State, sv)) if via else _new(State, sv)

    def _fast_income(self, s: State, via: int) -> State:
        """``_do_interact`` for Collect Income with a token (rule: collect-income, interaction-wheel),
        when no reward or lictor placement is pending: one new state, same result."""
        seat = s.seat
        players = s.players
        p = players[seat]
        pv: list[Any] = list(p)
        wheel = (*p.wheel, via)
        pv[_P_WHEEL] = wheel[1:] if len(wheel) == 3 else wheel
        amount = self.c.income[(p.temples.bit_count() + p.hubs.bit_count())]
        bank = self.c.bank
        for q in players:
            bank -= q.coins
        pv[0] += amount if amount < bank else bank
        tv: list[Any] = list(s.turn)
        tv[0] = True  # token
        sv: list[Any] = list(s)
        sv[_I_PHASE] = PH_MAIN
        sv[_I_TURN] = _new(Turn, tv)
        ps = list(players)
        ps[seat] = _new(Player, pv)
        sv[_I_PLAYERS] = tuple(ps)
        return _new(State, sv)

    def _fast_spaceship(self, s: State, via: int, k: int) -> State:
        """``_do_interact`` for a spaceship interaction with a token (rule: spaceship-interaction),
        when no reward or lictor placement is pending: fewer intermediate states, same result."""
        seat = s.seat
        ps = s.players
        pv: list[Any] = list(ps[seat])
        wheel = (*pv[_P_WHEEL], via)
        if len(wheel) == 3:
            wheel = wheel[1:]
        pv[_P_WHEEL] = wheel
        sv: list[Any] = list(s)
        deck = s.gdeck
        if not deck and s.gdisc:
            deck, sv[_I_SHUFFLES] = self._reshuffle(s, s.gdisc, "gadgets")
            sv[_I_GDISC] = ()
        if deck:
            pv[_P_HAND] = tuple(sorted((*pv[_P_HAND], deck[0])))
            sv[_I_GDECK] = deck[1:]
        ships = pv[_P_SHIPS]
        pv[_P_SHIPS] = _set(ships, k, ships[k] + 1)
        tv: list[Any] = list(s.turn)
        tv[0] = True
        tv[_T_GAINED] = _set(tv[_T_GAINED], k, tv[_T_GAINED][k] + 1)
        sv[_I_TURN] = _new(Turn, tv)
        sv[_I_PLAYERS] = (*ps[:seat], _new(Player, pv), *ps[seat + 1 :])
        sv[_I_SHIPS] = _set(s.ships, k, s.ships[k] - 1)
        sv[_I_LOCK] = k
        sv[_I_PHASE] = PH_MAIN
        return _new(State, sv)

    def _do_move(self, s: State, a: int) -> State:
        via, mini, src, dst, pay = act.move_fields(a)
        s = self._use_move(s, via)
        seat = s.seat
        p = s.players[seat]
        if mini == CHAR:
            p = p._replace(char=dst, coins=p.coins - pay)
        elif mini == DRONE:
            p = p._replace(drone=dst, coins=p.coins - pay)
        else:
            p = _with(p, _P_COINS, p.coins - pay)
            lic = list(s.lictors)
            lic.remove(src)
            lic.append(dst)
            s = _with(s, _I_LICTORS, tuple(sorted(lic)))
        s = self._put(s, seat, p)
        return self._advance(s) if via else s

    def _draft(self, s: State, a: int) -> State:
        """rule: personal-abilities (chosen from the last player counter-clockwise)."""
        ab = self.c.abilities[a]
        p = s.players[s.seat]
        tokens = p.tokens
        if ab.kind == AB_TOKEN:
            tokens = _set(tokens, ab.replace, ab.mask)
        s = self._put(s, s.seat, p._replace(ability=a, tokens=tokens))
        draft = tuple(x for x in s.draft if x != a)
        if s.seat > 0:
            return s._replace(draft=draft, seat=s.seat - 1)
        return s._replace(draft=draft, phase=PH_PLACE, seat=0)

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

    def _apply_reward(self, s: State, seat: int, kind: int, param: int, choice: int) -> State:
        """rule: objective-rewards."""
        p = s.players[seat]
        if kind == R_SKILL:
            return self._put(s, seat, _with(p, _P_SKILLS, _set(p.skills, choice, p.skills[choice] + 1)))
        if kind == R_COINS:
            return self._gain(s, seat, param)
        if kind == R_GADGET:
            return self._draw_gadget(s, seat)
        if kind == R_BOOST:
            return self._put(s, seat, _with(p, _P_BOOSTS, p.boosts | 1 << choice))
        if kind == R_SHIP:
            s = self._put(s, seat, _with(p, _P_SHIPS, _set(p.ships, choice, p.ships[choice] + 1)))
            s = _with(s, _I_SHIPS, _set(s.ships, choice, s.ships[choice] - 1))
            if seat == s.seat:
                s = _with(
                    s,
                    _I_TURN,
                    _with(s.turn, _T_GAINED, _set(s.turn.gained, choice, s.turn.gained[choice] + 1)),
                )
            return s
        # escape: the last lictor moves to an adjacent district instead (rule: combat-vs-lictor)
        lic = list(s.lictors)
        lic.remove(param)
        lic.append(choice)
        return _with(s, _I_LICTORS, tuple(sorted(lic)))

    def _score(self, s: State, seat: int, obj: int, count: int) -> State:
        """Place triumph tokens on an objective card, with the speed bonus (rule: game-overview)."""
        p = s.players[seat]
        before = p.otoks[obj]
        after = before + count
        speed = s.speed
        if before < 3 <= after and not (speed >> obj) & 1:
            after += 1
            speed |= 1 << obj
        otoks = _set(p.otoks, obj, after)
        s = self._put(s, seat, _with(p, _P_OTOKS, otoks))
        end = s.end or sum(otoks) >= self.c.end_tokens
        return s._replace(speed=speed, end=end)

    def _complete_side(self, s: State, seat: int, slot: int, ti: int) -> State:
        """A side task is done: a token on its card and the slot's reward (rule: side-objectives)."""
        p = s.players[seat]
        s = self._put(s, seat, _with(p, _P_SIDE, _set(p.side, slot, p.side[slot] | 1 << ti)))
        s = self._score(s, seat, 3 + slot, 1)
        task = self.c.side_cards[s.cfg.side[slot]].tasks[ti]
        param = task.skills if task.reward == R_SKILL else 2
        return _with(s, _I_REWARDS, (*s.rewards, (seat, task.reward, param)))

    def _side_reward_for(self, s: State, seat: int, obj: int) -> tuple[int, int, int]:
        slot, ti = divmod(obj, 3)
        task = self.c.side_cards[s.cfg.side[slot]].tasks[ti]
        return (seat, task.reward, task.skills if task.reward == R_SKILL else 2)

    def _influence_tasks(self, s: State, seat: int) -> State:
        """Network (4 in structures), supply line (3 in hubs), devotion (3 in temples)."""
        for slot, card_i in enumerate(s.cfg.side):
            for ti, task in enumerate(self.c.side_cards[card_i].tasks):
                p = s.players[seat]
                if (p.side[slot] >> ti) & 1:
                    continue
                if (
                    (task.kind == T_NETWORK and self.markers_placed(p) >= 4)
                    or (task.kind == T_SUPPLY and _bits(p.hubs) >= 3)
                    or (task.kind == T_DEVOTION and _bits(p.temples) >= 3)
                ):
                    s = self._complete_side(s, seat, slot, ti)
        return s

    def _story_done(self, s: State, seat: int, skill: int, stage: int, reward: int) -> State:
        """A storyline stage is done: token in its slot, 2 coins and a skill (rule: storyline-objectives)."""
        p = s.players[seat]
        s = self._put(s, seat, _with(p, _P_STORY, _set(p.story, skill, stage if stage < 3 else 3)))
        s = self._score(s, seat, skill, 1)
        return _with(s, _I_REWARDS, (*s.rewards, (seat, R_COINS, 2), (seat, R_SKILL, reward)))

    # -- interactions
    def _do_interact(self, s: State, a: int) -> State:
        via, it, sub, p1, p2, p3, p4, p5 = act.interact_fields(a)
        seat = s.seat
        p = s.players[seat]
        if via < act.VIA_SHIP:  # rule: interaction-wheel (the third token returns the earliest)
            wheel = (*p.wheel, via)
            if len(wheel) == 3:
                wheel = wheel[1:]
            ps = list(s.players)
            ps[seat] = _with(p, _P_WHEEL, wheel)
            sv: list[Any] = list(s)
            sv[_I_PLAYERS] = tuple(ps)
            sv[_I_TURN] = _with(s.turn, _T_TOKEN, True)
            s = _new(State, sv)
        else:
            s = self._play_ship(s, via - act.VIA_SHIP)
        p = s.players[seat]
        c = self.c
        if it == act.IT_INCOME:  # rule: collect-income
            s = self._gain(s, seat, c.income[self.markers_placed(p)])
        elif it == act.IT_SPACESHIP:  # rule: spaceship-interaction
            s = self._draw_gadget(s, seat)
            p = s.players[seat]
            s = self._put(s, seat, _with(p, _P_SHIPS, _set(p.ships, p1, p.ships[p1] + 1)))
            t = s.turn
            s = s._replace(
                ships=_set(s.ships, p1, s.ships[p1] - 1),
                lock=p1,
                turn=_with(t, _T_GAINED, _set(t.gained, p1, t.gained[p1] + 1)),
            )
        elif it == act.IT_STRUCTURE:
            s = self._do_structure(s, sub, p1, p2, p3, p4, p5)
        else:
            mini = CHAR if it == act.IT_CHARACTER else DRONE
            if sub == act.SUB_Q1:
                return self._start_quest(s, 1, p1, mini)
            if sub == act.SUB_Q3:
                return self._start_quest(s, 3, p1, mini)
            if sub == act.SUB_Q2:
                card = c.stage2[p.cards[p1]]
                if card.template == TPL_GADGETS:
                    for g in _counts_to_list(p5):
                        s = self._discard_gadget(s, seat, g)
                elif card.template == TPL_SHIP:
                    q = s.players[seat]
                    s = self._put(s, seat, _with(q, _P_SHIPS, _set(q.ships, p2, q.ships[p2] - 1)))
                    s = _with(s, _I_SHIPS, _set(s.ships, p2, s.ships[p2] + 1))
                s = self._story_done(s, seat, p1, 2, card.reward)
            else:
                return self._start_fight(s, mini, p1, p2, p3, p4)
        return self._advance(s)

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

    def _do_structure(  # noqa: PLR0917
        self, s: State, sub: int, p1: int, p2: int, p3: int, p4: int, p5: int
    ) -> State:
        """rule: structure-interaction, side-objectives."""
        c = self.c
        seat = s.seat
        if sub == act.SUB_TEMPLE:
            s = self._pay(s, seat, [c.temple_cost])
            p = s.players[seat]
            p = p._replace(blessings=p.blessings | 1 << p1, temples=p.temples | 1 << p1)
            s = _with(self._put(s, seat, p), _I_BLESS, _set(s.bless, p1, s.bless[p1] - 1))
            return self._influence_tasks(s, seat)
        if sub == act.SUB_HUB:
            p = s.players[seat]
            costs = [c.costs[k][p.skills[k] + 1] for k in range(3) if (p3 >> k) & 1]
            if p4:
                costs.append(c.gadget_cost)
            s = self._pay(s, seat, costs)
            p = s.players[seat]
            skills = tuple(v + ((p3 >> k) & 1) for k, v in enumerate(p.skills))
            s = self._put(s, seat, _with(p, _P_SKILLS, skills))
            if p4:
                s = self._draw_gadget(s, seat)
            p = s.players[seat]
            if not (p.hubs >> p1) & 1 and self.markers_placed(p) < c.influence_markers:
                s = self._put(s, seat, _with(p, _P_HUBS, p.hubs | 1 << p1))
                s = self._influence_tasks(s, seat)
            return s
        # a side objective site
        task = c.side_cards[s.cfg.side[p1]].tasks[p2]
        if task.kind == T_PRIESTS:
            s = self._pay(s, seat, [3])
            p = s.players[seat]
            s = self._put(s, seat, _with(p, _P_SHIPS, _set(p.ships, p3, p.ships[p3] - 1)))
            s = _with(s, _I_SHIPS, _set(s.ships, p3, s.ships[p3] + 1))
        elif task.kind == T_SENATOR:
            s = self._pay(s, seat, [7])
        elif task.kind == T_MERCHANTS:
            for g in _counts_to_list(p5):
                s = self._discard_gadget(s, seat, g)
        return self._complete_side(s, seat, p1, p2)

    # -- quests (rule: stage-1-quests, stage-3-quests)
    def _start_quest(self, s: State, stage: int, skill: int, mini: int) -> State:
        if stage == 1:
            deck, disc = s.c1deck, s.c1disc
        else:
            deck, disc = s.c3deck, s.c3disc
        shuffles = s.shuffles
        if not deck:
            deck, shuffles = self._reshuffle(s, disc, f"challenges{stage}")
            disc = ()
        card = deck[0]
        if card < 0:
            raise InvalidStateError(
                f"the next stage {stage} challenge card is face down in this position (an observation); "
                "sample a full state (sample_state) to play it",
                field=f"c{stage}deck",
                rule="tiberpunk/stage-1-quests",
            )
        deck = deck[1:]
        if stage == 1:
            s = s._replace(c1deck=deck, c1disc=disc, shuffles=shuffles)
        else:
            s = s._replace(c3deck=deck, c3disc=disc, shuffles=shuffles)
        k = self.dice_count(s, s.seat, mini, skill)
        where = self.pos(s.players[s.seat], mini)
        ctx = Ctx(QUEST, stage, skill, mini, card, (), (), k, 0, 0, 0, 0, 0, 0, 0, where, s.seat)
        return self._roll_or_check(_with(s, _I_CTX, ctx))

    def _roll_or_check(self, s: State) -> State:
        ctx = s.ctx
        assert ctx is not None
        if ctx.ra or ctx.rd:
            return _with(s, _I_PHASE, PH_ROLL)
        if ctx.kind == QUEST:
            return self._quest_check(s)
        return self._combat_check(s)

    def _do_dice(self, s: State, a: int) -> State:
        """The rolled dice join the pending side's pool (rule: stage-1-quests, combat-tiles)."""
        ctx = s.ctx
        assert ctx is not None
        code = a >> 5
        pool = self._pools.get(code)
        if pool is None:
            pool = self._pools[code] = decode_pool(code)
        cv: list[Any] = list(ctx)
        if ctx.ra:
            cv[_C_A] = tuple(sorted(ctx.a + pool)) if ctx.a else pool
            cv[_C_RA] = 0
        else:
            cv[_C_D] = tuple(sorted(ctx.d + pool)) if ctx.d else pool
            cv[_C_RD] = 0
        return self._roll_or_check(_with(s, _I_CTX, _new(Ctx, cv)))

    def challenge(self, ctx: Ctx) -> tuple[int, ...]:
        """The required values of the revealed challenge card."""
        return self.need1[ctx.card] if ctx.stage == 1 else self.need3[ctx.card]

    def _quest_check(self, s: State) -> State:
        ctx = s.ctx
        assert ctx is not None
        if contains(ctx.a, self.challenge(ctx)):
            return self._quest_success(s)
        if s.players[s.seat].hand and ctx.ua < self.gadget_limit(s, s.seat):
            return _with(s, _I_PHASE, PH_QGADGET)
        return self._quest_fail_roll(s)

    def _end_quest(self, s: State) -> State:
        ctx = s.ctx
        assert ctx is not None
        if ctx.stage == 1:
            return s._replace(ctx=None, c1disc=(*s.c1disc, ctx.card))
        return s._replace(ctx=None, c3disc=(*s.c3disc, ctx.card))

    def _quest_success(self, s: State) -> State:
        ctx = s.ctx
        assert ctx is not None
        seat, skill = s.seat, ctx.skill
        p = s.players[seat]
        if ctx.stage == 1:  # keep the card, move the marker, take Stage II
            card = s.quests[skill][0]
            if len(s.quests[skill]) > 1 and s.quests[skill][1] < 0:
                raise InvalidStateError(
                    "the next Stage I card of the stack is face down in this position (an observation); "
                    "sample a full state (sample_state) to play it",
                    field=f"quests[{skill}]",
                    rule="tiberpunk/stage-1-quests",
                )
            s = self._put(s, seat, _with(p, _P_CARDS, _set(p.cards, skill, card)))
            s = _with(s, _I_QUESTS, _set(s.quests, skill, s.quests[skill][1:]))
            s = self._story_done(s, seat, skill, 1, self.c.stage1[card].reward)
        else:
            s = self._story_done(s, seat, skill, 3, self.c.stage3[p.cards[skill]].reward)
        return self._advance(self._end_quest(s))

    def _quest_fail_roll(self, s: State) -> State:
        """A failed roll: the left-hand player moves the nearest lictor one district closer."""
        ctx = s.ctx
        assert ctx is not None
        steps = self.board.pursuit_steps(ctx.where, s.lictors)
        if not steps:
            return self._quest_failed(s)
        if len(steps) == 1:
            return self._pursue(s, *steps[0])
        return _with(s, _I_PHASE, PH_PURSUE)

    def _pursue(self, s: State, src: int, dst: int) -> State:
        ctx = s.ctx
        assert ctx is not None
        lic = list(s.lictors)
        lic.remove(src)
        lic.append(dst)
        s = _with(s, _I_LICTORS, tuple(sorted(lic)))
        if dst == ctx.where:
            return self._quest_failed(s)
        k = self.dice_count(s, s.seat, ctx.mini, ctx.skill)
        return self._roll_or_check(s._replace(ctx=ctx._replace(a=(), ua=0, ra=k)))

    def _quest_failed(self, s: State) -> State:
        """The lictor arrived: the attempt fails with shackles (rule: shackles)."""
        ctx = s.ctx
        assert ctx is not None
        p = s.players[s.seat]
        s = self._put(s, s.seat, _with(p, _P_SHACKLES, p.shackles | 1 << ctx.mini))
        return self._advance(self._end_quest(s))

    # -- gadgets (rule: gadget-cards)
    def _do_gadget(self, s: State, a: int) -> State:
        """Play a gadget on the roll: discard it, count it, change the dice (rule: gadget-cards).

        One new state (the general ``_replace`` steps in a single copy).
        """
        ctx = s.ctx
        assert ctx is not None
        g, count, targets = act.gadget_fields(a)
        seat = s.seat
        actor = seat if s.phase == PH_QGADGET else ctx.who
        sv: list[Any] = list(s)
        ps = list(s.players)
        ps[actor] = _hand_remove(ps[actor], g)
        sv[_I_PLAYERS] = tuple(ps)
        sv[_I_GDISC] = (*s.gdisc, g)
        cv: list[Any] = list(ctx)
        mine = actor == seat
        if mine:
            t = s.turn
            sv[_I_TURN] = _with(t, _T_USED, (*t.used, g))
            cv[_C_UA] += 1
        else:
            cv[_C_UD] += 1
        if g == ADD:
            cv[_C_RA if mine else _C_RD] += count
        else:
            pools = [list(ctx.a), list(ctx.d)]
            pend = [0, 0]
            for side, v, dc in targets:
                pools[side].remove(v)
                if g == REROLL:
                    pend[side] += 1
                elif g == FLIP:
                    pools[side].append(7 - v)
                else:
                    pools[side].append(v + act.DELTAS[dc])
            cv[_C_A] = tuple(sorted(pools[0]))
            cv[_C_D] = tuple(sorted(pools[1]))
            cv[_C_RA] += pend[0]
            cv[_C_RD] += pend[1]
        sv[_I_CTX] = _new(Ctx, cv)
        return self._roll_or_check(_new(State, sv))

    # -- combat (rule: combat, combat-vs-miniature, combat-vs-lictor)
    def _start_fight(self, s: State, mini: int, tk: int, tseat: int, tile: int, obj: int) -> State:  # noqa: PLR0917
        seat = s.seat
        ka = self.dice_count(s, seat, mini, OFF)
        if tk == LICTOR:
            kd = ka + 1
            tseat = 0
        else:
            kd = self.dice_count(s, tseat, tk, HACK if tk == DRONE else GUILE)
        where = self.pos(s.players[seat], mini)
        ctx = Ctx(
            COMBAT, 0, OFF, mini, -1, (), (), ka, kd, 0, 0, tk, tseat, s.cfg.tiles[tile], obj, where, -1
        )
        return self._roll_or_check(_with(s, _I_CTX, ctx))

    def attacker_wins(self, ctx: Ctx) -> bool:
        """Whether the attacker is winning now (ties go to the defender or the lictor)."""
        return self._score_of(ctx.tile, ctx.a) > self._score_of(ctx.tile, ctx.d)

    def _score_of(self, cond: int, pool: tuple[int, ...]) -> int:
        """``dice.score`` (rule: combat-tiles), cached by (condition, pool): pools are small and repeat."""
        key = (cond, pool)
        got = self._scores.get(key)
        if got is None:
            if len(self._scores) > 50_000:  # bounded
                self._scores.clear()
            got = self._scores[key] = score(cond, pool)
        return got

    def _combat_check(self, s: State) -> State:
        ctx = s.ctx
        assert ctx is not None
        if self.attacker_wins(ctx):
            if ctx.tkind == LICTOR:
                return self._resolve_fight(s)
            loser = ctx.tseat
            can = bool(s.players[loser].hand) and ctx.ud < self.gadget_limit(s, loser)
        else:
            loser = s.seat
            can = bool(s.players[loser].hand) and ctx.ua < self.gadget_limit(s, loser)
        if can:
            return s._replace(phase=PH_CGADGET, ctx=_with(ctx, _C_WHO, loser))
        return self._resolve_fight(s)

    def _resolve_fight(self, s: State) -> State:
        ctx = s.ctx
        assert ctx is not None
        seat = s.seat
        s = _with(s, _I_CTX, None)
        if self.attacker_wins(ctx):
            if ctx.obj == STAGE2_OBJ:  # token and reward first, then the lictor or shackles
                p = s.players[seat]
                s = self._story_done(s, seat, OFF, 2, self.c.stage2[p.cards[OFF]].reward)
            else:
                s = self._complete_side(s, seat, *divmod(ctx.obj, 3))
            if ctx.tkind == LICTOR:
                if len(s.lictors) == 1:  # the last lictor moves to an adjacent district instead
                    s = _with(s, _I_REWARDS, (*s.rewards, (seat, R_ESCAPE, ctx.where)))
                else:
                    lic = list(s.lictors)
                    lic.remove(ctx.where)
                    s = _with(s, _I_LICTORS, tuple(lic))
            else:
                loser = s.players[ctx.tseat]
                s = self._put(s, ctx.tseat, _with(loser, _P_SHACKLES, loser.shackles | 1 << ctx.tkind))
        else:
            p = s.players[seat]
            s = self._put(s, seat, _with(p, _P_SHACKLES, p.shackles | 1 << ctx.mini))
            if ctx.tkind != LICTOR:  # the defender gains the reward of the slot
                q = ctx.tseat
                if ctx.obj == STAGE2_OBJ:
                    reward = self.c.stage2[p.cards[OFF]].reward
                    s = _with(s, _I_REWARDS, (*s.rewards, (q, R_COINS, 2), (q, R_SKILL, reward)))
                else:
                    s = _with(s, _I_REWARDS, (*s.rewards, self._side_reward_for(s, q, ctx.obj)))
        return self._advance(s)


_new = tuple.__new__


_TupleT = TypeVar("_TupleT", bound=tuple[Any, ...])


def _with(t: _TupleT, i: int, v: object) -> _TupleT:
    """A copy of a state NamedTuple with field ``i`` set to ``v`` (a one-field ``_replace``)."""
    tv: list[Any] = list(t)
    tv[i] = v
    return _new(type(t), tv)


_I_CTX = State._fields.index("ctx")
_C_A = Ctx._fields.index("a")
_C_D = Ctx._fields.index("d")
_C_RA = Ctx._fields.index("ra")
_C_RD = Ctx._fields.index("rd")
_I_PLAYERS = State._fields.index("players")
_I_TURN = State._fields.index("turn")
_I_SEAT = State._fields.index("seat")
_I_PHASE = State._fields.index("phase")
_I_SHUFFLES = State._fields.index("shuffles")
_I_GDISC = State._fields.index("gdisc")
_I_GDECK = State._fields.index("gdeck")
_I_SHIPS = State._fields.index("ships")
_I_LOCK = State._fields.index("lock")
_P_HAND = Player._fields.index("hand")
_P_KNOWN = Player._fields.index("known")
_P_COINS = Player._fields.index("coins")
_P_CHAR: Final = 2  # (literal indices: mypy types ``p[_P_CHAR]`` as the field's type; checked below)
_P_DRONE: Final = 3
_P_SHACKLES = Player._fields.index("shackles")
_T_USED = Turn._fields.index("used")
_T_TOKEN = Turn._fields.index("token")
_T_JUNO = Turn._fields.index("juno")
_I_REWARDS = State._fields.index("rewards")
_I_BLESS = State._fields.index("bless")
_I_LICTORS = State._fields.index("lictors")
_I_QUESTS = State._fields.index("quests")
_P_BOOSTS = Player._fields.index("boosts")
_P_CARDS = Player._fields.index("cards")
_P_HUBS = Player._fields.index("hubs")
_P_OTOKS = Player._fields.index("otoks")
_P_SIDE = Player._fields.index("side")
_P_SKILLS = Player._fields.index("skills")
_P_STORY = Player._fields.index("story")
_C_UA = Ctx._fields.index("ua")
_C_UD = Ctx._fields.index("ud")
_C_WHO = Ctx._fields.index("who")
_P_SHIPS = Player._fields.index("ships")
_T_GAINED = Turn._fields.index("gained")
_T_SHIP = Turn._fields.index("ship")
_T_LICTOR_DUE = Turn._fields.index("lictor_due")
_P_FAVOR = Player._fields.index("favor")
_P_WHEEL = Player._fields.index("wheel")
_SEAT_DECIDES = frozenset((PH_MAIN, PH_PLACE, PH_QGADGET, PH_LPLACE, PH_DRAFT))
assert State._fields[_I_SEAT : _I_TURN + 3] == ("seat", "phase", "rnd", "turn", "players", "lictors")
assert Player._fields[:4] == ("coins", "skills", "char", "drone")
assert Player._fields[_P_CHAR] == "char" and Player._fields[_P_DRONE] == "drone"
assert Turn._fields[:3] == ("token", "favor", "moves")
assert State._fields[_I_PHASE + 1] == "rnd"
