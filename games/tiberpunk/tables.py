"""The precomputed tables of Tiberpunk's rules, built once per content pack.

:class:`Tables` holds every table and cache the rule modules read (move tables, action templates,
option caches, per-district lookups); :class:`~games.tiberpunk.methods.RuleMethods` declares for type
checkers the rule methods the modules call on each other (each is defined once, in its section's module).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from games.tiberpunk import actions as act
from games.tiberpunk.board import Board
from games.tiberpunk.content import GADGETS, Content
from games.tiberpunk.methods import RuleMethods
from games.tiberpunk.parts import (
    MINIS_FOR,
)
from games.tiberpunk.state import (
    CHAR,
    DRONE,
    LICTOR,
    State,
)

__all__ = ["Tables"]


class Tables(RuleMethods):
    """The rules' tables over a content pack (``Rules`` is this plus one class per rulebook section)."""

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
        """Action templates and per-district lookups of the interactions, and the option caches."""
        c = self.c
        self._district_tables()
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
        # favor options by the marker's segment + 1 (index 0: the centre)
        self._favor_by = tuple(self._favor_acts[g] for g in range(-1, 4))
        self._income_acts = tuple(act.interact(i, act.IT_INCOME) for i in range(4))
        self.gadget_total = tuple(c.gadget_deck.count(g) for g in range(len(GADGETS)))
        # interaction types a token allows, by its mask (the wheel's four types; income is separate)
        self._its = tuple(tuple(it for it in range(4) if (mask >> it) & 1) for mask in range(16))
        # coins above this never change which hub visits are affordable
        self._hub_coin_cap = sum(max(cs) for cs in c.costs) + c.gadget_cost
        # skills whose quests a miniature may do (rule: character-drone-interactions)
        self._skills_for = tuple(tuple(k for k in range(3) if m in MINIS_FOR[k]) for m in (CHAR, DRONE))
        self._ship_types = tuple(c.ship_types)
        its = (act.IT_CHARACTER, act.IT_DRONE)
        self._fight_base = tuple(act.interact(0, it, act.SUB_FIGHT) for it in its)
        temple = act.interact(0, act.IT_STRUCTURE, act.SUB_TEMPLE)
        self._temple_act = tuple(tuple(temple | g << 13 | m << 17 for m in (CHAR, DRONE)) for g in range(4))
        self._q1_act = tuple(tuple(act.interact(0, it, act.SUB_Q1, k) for k in range(3)) for it in its)
        self._q3_act = tuple(tuple(act.interact(0, it, act.SUB_Q3, k) for k in range(3)) for it in its)
        self._it_of_mini = its  # the interaction type of a miniature (CHAR, DRONE)
        # the option builders by interaction type (as ``_options`` dispatches, one call less)
        self._opt_fns: tuple[Callable[[State], Sequence[int]], ...] = (
            self._spaceship_options,
            lambda s: self._mini_options(s, CHAR),  # (a lambda: a keyword partial call costs more)
            self._structure_options,
            lambda s: self._mini_options(s, DRONE),
        )
        self._option_caches()

    def _district_tables(self) -> None:
        """Per district: the temples' gods, whether a structure or a site is there, the quest cards'
        districts (index -1, an unplaced miniature, reads the trailing empty entry)."""
        c = self.c
        self.temples_at = (*(tuple(g for g in range(4) if d in c.temples[g]) for d in range(self.nd)), ())
        # whether any structure or side-objective site is in a district (index -1: none)
        sites = set(c.sites)
        self._structure_at = (
            *(bool(self.temples_at[d]) or self.hub_of[d] >= 0 or d in sites for d in range(self.nd)),
            False,
        )
        self._stage1_district = tuple(q.district for q in c.stage1)
        self._stage3_district = tuple(q.district for q in c.stage3)
        # the gods of the temples in a district, as a bit mask (index -1: none)
        self._temple_gods_at = (*(sum(1 << g for g in self.temples_at[d]) for d in range(self.nd)), 0)
        self._hub_at = (*(self.hub_of[d] >= 0 for d in range(self.nd)), False)

    def _option_caches(self) -> None:
        """The caches of options and rolls, filled as positions are met (each bounded where it could
        grow without end)."""
        self._hub_cache: dict[tuple[object, ...], tuple[int, ...]] = {}
        self._site_cache: dict[tuple[int, ...], tuple[tuple[int, int, int, int], ...]] = {}
        self._combat_tasks: dict[tuple[int, ...], tuple[tuple[tuple[int, int], ...], ...]] = {}
        self._dice_actions: dict[int, tuple[tuple[int, float], ...]] = {}
        self._ship_cache: dict[tuple[int, int, bool], tuple[int, ...]] = {}
        self._dice_legal_cache: dict[int, tuple[tuple[int, ...], frozenset[int]]] = {}
        self._pools: dict[int, tuple[int, ...]] = {}  # decoded dice pools by code (few: small rolls)
        self._scores: dict[tuple[int, tuple[int, ...]], int] = {}  # combat scores (``_score_of``)
        self._gadget_cache: dict[tuple[object, ...], tuple[int, ...]] = {}  # ``_gadget_actions``
        # side-task combat objectives by (side cards, the player's side progress, target kind)
        self._side_objs: dict[tuple[tuple[int, ...], tuple[int, ...], int], tuple[int, ...]] = {}
        self._placement_cache: dict[int, tuple[int, ...]] = {}
        # per side cards in play: whether one of their sites is in a district (index -1: none)
        self._sites_at: dict[tuple[int, ...], tuple[bool, ...]] = {}
        # per (wheel, tokens): the free tokens in order as (income action, via field, interaction types)
        self._token_plans: dict[
            tuple[tuple[int, ...], tuple[int, ...]], tuple[tuple[int, int, tuple[int, ...]], ...]
        ] = {}
