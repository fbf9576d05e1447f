"""The precomputed tables of Tiberpunk's rules, built once per content pack.

:class:`Tables` holds every table and cache the rule modules read (move tables, action templates,
option caches, per-district lookups), and declares for type checkers the rule methods the modules
call on each other (each is defined once, in its section's module).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from games.tiberpunk import actions as act
from games.tiberpunk.board import Board
from games.tiberpunk.content import GADGETS, Content
from games.tiberpunk.parts import (
    MINIS_FOR,
)
from games.tiberpunk.state import (
    CHAR,
    DRONE,
    LICTOR,
    Ctx,
    Player,
    State,
)

__all__ = ["Tables"]


class Tables:
    """The rules' tables over a content pack (``Rules`` is this plus one mixin per rulebook section)."""

    _apply_by_op: tuple[Callable[[State, int], State], ...]
    """The apply handler of each op code but movement and interaction, by op code (``Rules``)."""

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
        self._movement_tables()
        self._action_tables()

    def _movement_tables(self) -> None:
        """The move actions by source of the move, Mercury, coin budget, miniature and district
        (rule: movement), and the unshackle actions (rule: shackles)."""
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

    def _action_tables(self) -> None:
        """Action templates, per-district lookups and the option caches of the interactions and rolls."""
        c = self.c
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
        # favor options by the marker's segment + 1 (index 0: the centre)
        self._favor_by = tuple(self._favor_acts[g] for g in range(-1, 4))
        # per (wheel, tokens): the free tokens in order as (income action, via field, interaction types)
        self._token_plans: dict[
            tuple[tuple[int, ...], tuple[int, ...]], tuple[tuple[int, int, tuple[int, ...]], ...]
        ] = {}

    if TYPE_CHECKING:

        @abstractmethod
        def setup(
            self, n: int, *, abilities: bool, max_rounds: int, side: str, seed: int, bank: int = 0
        ) -> State: ...

        @abstractmethod
        def side_cards_for(self, n: int, side: str) -> tuple[int, ...]: ...

        @abstractmethod
        def current(self, s: State) -> int: ...

        @abstractmethod
        def markers_placed(self, p: Player) -> int: ...

        @abstractmethod
        def level(self, p: Player, skill: int) -> int: ...

        @abstractmethod
        def dice_count(self, s: State, seat: int, mini: int, skill: int) -> int: ...

        @abstractmethod
        def pos(self, p: Player, mini: int) -> int: ...

        @abstractmethod
        def quest_markers(self, s: State) -> tuple[int, ...]: ...

        @abstractmethod
        def gadget_limit(self, s: State, seat: int) -> int: ...

        @abstractmethod
        def dice_per_gadget(self, s: State, seat: int) -> int: ...

        @abstractmethod
        def _dice_legal(self, k: int) -> tuple[tuple[int, ...], frozenset[int]]: ...

        @abstractmethod
        def legal(self, s: State) -> Sequence[int]: ...

        @abstractmethod
        def chance(self, s: State) -> tuple[tuple[int, float], ...]: ...

        @abstractmethod
        def _chance_k(self, k: int) -> tuple[tuple[int, float], ...]: ...

        @abstractmethod
        def _move_table(self, via: int, mini: int, src: int, base: int, budget: int) -> tuple[int, ...]: ...

        @abstractmethod
        def _add_moves(self, out: list[int], s: State, p: Player, via: int) -> None: ...

        @staticmethod
        @abstractmethod
        def _lictor_moves(lics: tuple[tuple[int, ...], ...], lictors: tuple[int, ...]) -> tuple[int, ...]: ...

        @abstractmethod
        def _token_plan(
            self, wheel: tuple[int, ...], tokens: tuple[int, ...]
        ) -> tuple[tuple[int, int, tuple[int, ...]], ...]: ...

        @abstractmethod
        def _main_actions(self, s: State) -> list[int]: ...

        @abstractmethod
        def _lictor_combat_options(self, s: State, p: Player, m: int, d: int) -> list[int]: ...

        @abstractmethod
        def _spaceship_options(self, s: State) -> Sequence[int]: ...

        @abstractmethod
        def _spaceship_options_all(self, s: State) -> tuple[int, ...]: ...

        @abstractmethod
        def juno_cost(self, s: State, p: Player, costs: list[int]) -> tuple[int, bool]: ...

        @abstractmethod
        def _structure_options(self, s: State) -> list[int]: ...

        @abstractmethod
        def _structure_options_all(self, s: State) -> list[int]: ...

        @abstractmethod
        def _sites_of(self, side: tuple[int, ...]) -> tuple[tuple[int, int, int, int], ...]: ...

        @abstractmethod
        def _hub_visits(  # noqa: PLR0917
            self, s: State, p: Player, h: int, m: int, first: bool, gadget_ok: bool
        ) -> tuple[int, ...]: ...

        @abstractmethod
        def _mini_options(self, s: State, m: int) -> list[int]: ...

        @abstractmethod
        def _stage2_options(  # noqa: PLR0917
            self, s: State, p: Player, m: int, d: int, lictor_here: bool, skill: int, it: int
        ) -> list[int]: ...

        @abstractmethod
        def _combat_objectives(self, s: State, p: Player, tk: int, d: int) -> Sequence[int]: ...

        @abstractmethod
        def _gadget_actions(self, s: State) -> Sequence[int]: ...

        @abstractmethod
        def _gadget_actions_of(
            self, hand: tuple[int, ...], per: int, kind: int, a: tuple[int, ...], d: tuple[int, ...]
        ) -> list[int]: ...

        @staticmethod
        @abstractmethod
        def _deltas(g: int, v: int) -> tuple[int, ...]: ...

        @abstractmethod
        def _reward_options(self, s: State, seat: int, kind: int, param: int) -> list[int]: ...

        @abstractmethod
        def _placement(self, s: State) -> tuple[int, ...]: ...

        @abstractmethod
        def apply(self, s: State, a: int, legal: Sequence[int]) -> State: ...

        @abstractmethod
        def apply_unchecked(self, s: State, a: int) -> State: ...

        @staticmethod
        @abstractmethod
        def _put(s: State, seat: int, p: Player) -> State: ...

        @abstractmethod
        def bank(self, s: State) -> int: ...

        @abstractmethod
        def _gain(self, s: State, seat: int, amount: int) -> State: ...

        @abstractmethod
        def _reshuffle(self, s: State, pile: tuple[int, ...], label: str) -> tuple[tuple[int, ...], int]: ...

        @abstractmethod
        def _draw_gadget(self, s: State, seat: int) -> State: ...

        @abstractmethod
        def _discard_gadget(self, s: State, seat: int, g: int) -> State: ...

        @abstractmethod
        def _use_move(self, s: State, via: int) -> State: ...

        @abstractmethod
        def _play_ship(self, s: State, k: int) -> State: ...

        @abstractmethod
        def _fast_move(self, s: State, a: int) -> State: ...

        @abstractmethod
        def _fast_income(self, s: State, via: int) -> State: ...

        @abstractmethod
        def _fast_spaceship(self, s: State, via: int, k: int) -> State: ...

        @abstractmethod
        def _do_move(self, s: State, a: int) -> State: ...

        @abstractmethod
        def _draft(self, s: State, a: int) -> State: ...

        @abstractmethod
        def _end_turn(self, s: State) -> State: ...

        @abstractmethod
        def _advance(self, s: State) -> State: ...

        @abstractmethod
        def _apply_reward(self, s: State, seat: int, kind: int, param: int, choice: int) -> State: ...

        @abstractmethod
        def _score(self, s: State, seat: int, obj: int, count: int) -> State: ...

        @abstractmethod
        def _complete_side(self, s: State, seat: int, slot: int, ti: int) -> State: ...

        @abstractmethod
        def _side_reward_for(self, s: State, seat: int, obj: int) -> tuple[int, int, int]: ...

        @abstractmethod
        def _influence_tasks(self, s: State, seat: int) -> State: ...

        @abstractmethod
        def _story_done(self, s: State, seat: int, skill: int, stage: int, reward: int) -> State: ...

        @abstractmethod
        def _do_interact(self, s: State, a: int) -> State: ...

        @abstractmethod
        def _pay(self, s: State, seat: int, costs: list[int]) -> State: ...

        @abstractmethod
        def _do_structure(  # noqa: PLR0917
            self, s: State, sub: int, p1: int, p2: int, p3: int, p4: int, p5: int
        ) -> State: ...

        @abstractmethod
        def _start_quest(self, s: State, stage: int, skill: int, mini: int) -> State: ...

        @abstractmethod
        def _roll_or_check(self, s: State) -> State: ...

        @abstractmethod
        def _do_dice(self, s: State, a: int) -> State: ...

        @abstractmethod
        def challenge(self, ctx: Ctx) -> tuple[int, ...]: ...

        @abstractmethod
        def _quest_check(self, s: State) -> State: ...

        @abstractmethod
        def _end_quest(self, s: State) -> State: ...

        @abstractmethod
        def _quest_success(self, s: State) -> State: ...

        @abstractmethod
        def _quest_fail_roll(self, s: State) -> State: ...

        @abstractmethod
        def _pursue(self, s: State, src: int, dst: int) -> State: ...

        @abstractmethod
        def _quest_failed(self, s: State) -> State: ...

        @abstractmethod
        def _do_gadget(self, s: State, a: int) -> State: ...

        @abstractmethod
        def _start_fight(self, s: State, mini: int, tk: int, tseat: int, tile: int, obj: int) -> State:  # noqa: PLR0917
            ...

        @abstractmethod
        def attacker_wins(self, ctx: Ctx) -> bool: ...

        @abstractmethod
        def _score_of(self, cond: int, pool: tuple[int, ...]) -> int: ...

        @abstractmethod
        def _combat_check(self, s: State) -> State: ...

        @abstractmethod
        def _resolve_fight(self, s: State) -> State: ...
