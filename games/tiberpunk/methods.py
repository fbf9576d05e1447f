"""The rule methods Tiberpunk's rule modules call on each other, declared.

:class:`games.tiberpunk.rules.Rules` ends a line of classes, one per rulebook section, over
:class:`games.tiberpunk.tables.Tables`; each method is defined once, in its section's module, and
declared here (abstract) so that a module may call one of a section further down the line (the
compiled build calls it through the class's method table); a ``Rules`` that leaves one undefined
cannot be made.
"""

from __future__ import annotations

from abc import ABCMeta, abstractmethod
from collections.abc import Callable, Sequence

from games.tiberpunk.state import Ctx, Player, State

__all__ = ["RuleMethods"]


class RuleMethods(metaclass=ABCMeta):
    """The rule methods of :class:`games.tiberpunk.rules.Rules`, declared (each section defines its own)."""

    _apply_by_op: tuple[Callable[[State, int], State], ...]
    """The apply handler of each op code but movement and interaction, by op code (``Rules``)."""

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
    def _hub_visits(
        self, s: State, p: Player, h: int, m: int, *, first: bool, gadget_ok: bool
    ) -> tuple[int, ...]: ...

    @abstractmethod
    def _mini_options(self, s: State, m: int) -> list[int]: ...

    @abstractmethod
    def _stage2_options(
        self, s: State, p: Player, m: int, d: int, *, lictor_here: bool, skill: int, it: int
    ) -> list[int]: ...

    @abstractmethod
    def _combat_objectives(self, s: State, p: Player, tk: int, d: int) -> Sequence[int]: ...

    @abstractmethod
    def _gadget_actions(self, s: State) -> Sequence[int]: ...

    @abstractmethod
    def _gadget_actions_of(
        self, hand: tuple[int, ...], per: int, kind: int, a: tuple[int, ...], d: tuple[int, ...]
    ) -> list[int]: ...

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
    def _do_structure(self, s: State, a: int) -> State: ...

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
    def _start_fight(self, s: State, mini: int, *, tk: int, tseat: int, tile: int, obj: int) -> State: ...

    @abstractmethod
    def attacker_wins(self, ctx: Ctx) -> bool: ...

    @abstractmethod
    def _score_of(self, cond: int, pool: tuple[int, ...]) -> int: ...

    @abstractmethod
    def _combat_check(self, s: State) -> State: ...

    @abstractmethod
    def _resolve_fight(self, s: State) -> State: ...

    @abstractmethod
    def _ship_card_actions(
        self, acts: list[int], s: State, p: Player, opts: list[Sequence[int] | None]
    ) -> None: ...

    @abstractmethod
    def _ability_actions(self, acts: list[int], s: State, p: Player) -> None: ...

    @abstractmethod
    def _return_ship(self, s: State, seat: int, k: int) -> State: ...

    @staticmethod
    @abstractmethod
    def _wheel_after(wheel: tuple[int, ...], via: int) -> tuple[int, ...]: ...
