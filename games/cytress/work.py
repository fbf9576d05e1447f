"""The mutable working copy ``apply`` runs the rules on, and the rules' shared context.

``Work.of(state)`` copies a frozen :class:`~games.cytress.state.CytressState` by reference; a rule
that changes a field first asks for it as a list (``w.res_()``, copied once, on first use), so an
action copies only what it touches. ``w.freeze()`` builds the next frozen state. The rule
functions take ``(ctx, w)``: :class:`Ctx` holds the content pack and per-map caches.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeAlias, TypeVar, cast

from games.cytress.content import Content, MapView
from games.cytress.state import (
    EXTRA,
    NO_PENDING,
    NONE,
    STATE_FIELDS,
    Automa,
    CytressState,
    Pending,
)

__all__ = ["Ctx", "Pos", "Work", "freeze_work", "load_work", "put"]


class Ctx:
    """The content pack and caches the rules read (one per game object)."""

    def __init__(self, content: Content) -> None:
        self.content = content
        self._maps: dict[tuple[int, ...], MapView] = {}
        self.intel_faction = tuple(c.faction for c in content.intel)
        self.intel_target = tuple(c.target for c in content.intel)

    def map(self, tiles: tuple[int, ...]) -> MapView:
        """The mini-map of a game whose slots hold ``tiles`` (content indices)."""
        view = self._maps.get(tiles)
        if view is None:
            layout = self.content.layouts[len(tiles)]
            faction = tuple(self.content.tiles[tiles[slot]].factions[pos] for slot, pos in layout.cell)
            by_faction = tuple(tuple(h for h, f in enumerate(faction) if f == k) for k in range(4))
            resource = tuple(self.content.faction_resource[f] for f in faction)
            view = self._maps[tiles] = MapView(layout, faction, by_faction, resource)
        return view


_LOAD = "".join(f"    w.{n} = s.{n}\n" for n in STATE_FIELDS)
_LISTABLE = (
    "res",
    "paths",
    "icons",
    "crew",
    "tube",
    "stratos",
    "supply",
    "intel_deck",
    "intel_row",
    "strat_deck",
    "strat_row",
    "strat_discard",
    "leader",
    "transports",
)
"""The fields a rule may turn into a list (the ``Sequence`` fields of :class:`Work`). The fields a
rule changes a few times a game (``sides``, ``reserved``, ``bounty_stack``, ``bounties``,
``on_stratos``) are replaced whole by tuples (``put``), so the freeze need not look at them."""
_FREEZE = "".join(f"    if w.{n}.__class__ is list:\n        w.{n} = tuple(w.{n})\n" for n in _LISTABLE)
_CODE = (
    f"def _load(w, s):\n{_LOAD}    return w\n"
    f"def _load_new(s):\n    w = _new(Work)\n{_LOAD}    return w\n"
    f"def _freeze(w, list=list, tuple=tuple, CytressState=CytressState):\n{_FREEZE}"
    "    w.__class__ = CytressState\n    return w\n"
)


if TYPE_CHECKING:
    _Slots = object
else:
    _Slots = CytressState


class Work(_Slots):
    """A working copy of a state: fields by reference until a rule asks for one as a list.

    At run time a subclass of :class:`CytressState` adding no slots and writable (the generic
    ``__setattr__``), so ``freeze`` turning it into a ``CytressState`` is the cheap ``__class__``
    change between two types of one layout (no comparison of the 40 slot names); the type checker
    sees a plain class of writable fields."""

    __slots__ = ()
    __setattr__ = object.__setattr__
    __delattr__ = object.__delattr__

    players: int
    round: int
    phase: int
    step: int
    actor: int
    turn: int
    first: int
    phase_first: int
    pending: Pending
    tiles: tuple[int, ...]
    market: int
    board_side: int
    rebels: tuple[int, ...]
    sides: tuple[int, ...]
    res: Sequence[int]
    paths: Sequence[tuple[int, ...]]
    icons: Sequence[int]
    crew: Sequence[int]
    tube: Sequence[int]
    stratos: Sequence[int]
    supply: Sequence[int]
    intel_deck: Sequence[tuple[int, ...]]
    intel_row: Sequence[tuple[int, ...]]
    strat_deck: Sequence[int]
    strat_row: Sequence[int]
    strat_discard: Sequence[int]
    reserved: tuple[int, ...]
    bounty_stack: tuple[tuple[int, ...], ...]
    bounties: tuple[tuple[int, ...], ...]
    tubes_left: int
    tubes_box: int
    leader: Sequence[int]
    transports: Sequence[int]
    on_stratos: tuple[int, ...]
    end_triggered: bool
    automa: Automa | None
    seed: int
    shuffles: int
    round_limit: int
    box_tubes: bool
    bounty_best: bool
    map: MapView

    @classmethod
    def of(cls, state: CytressState) -> Work:
        """A working copy of ``state``."""
        return _load(cls.__new__(cls), state)

    def freeze(self) -> CytressState:
        """The frozen state: the lists made tuples, then this very object becomes a
        :class:`CytressState` (the same slots in the same order; the working copy is used up)."""
        return _freeze(self)

    @property
    def owners(self) -> int:
        """Crew owners: the seats, plus the automa in solo mode."""
        return self.players + (1 if self.players == 1 else 0)

    @property
    def solo(self) -> bool:
        """Whether this is a solo game."""
        return self.players == 1

    def finish(self) -> None:
        """The action (or turn) under way is complete: the next turn of the phase comes up (rule:
        cytress/phase-3a-travel: players take turns one transport at a time; in extra travel the
        next seat after this one)."""
        self.pending = NO_PENDING
        self.step = NONE
        if self.phase == EXTRA:
            self.turn = (self.actor + 1) % self.players
        else:
            self.turn += 1

    # -- lists on demand (copied once per apply)
    def res_(self) -> list[int]:
        """``res`` as a list."""
        v = self.res
        if type(v) is not list:
            v = self.res = list(v)
        return v

    def paths_(self) -> list[tuple[int, ...]]:
        """``paths`` as a list."""
        v = self.paths
        if type(v) is not list:
            v = self.paths = list(v)
        return v

    def icons_(self) -> list[int]:
        """``icons`` as a list."""
        v = self.icons
        if type(v) is not list:
            v = self.icons = list(v)
        return v

    def crew_(self) -> list[int]:
        """``crew`` as a list."""
        v = self.crew
        if type(v) is not list:
            v = self.crew = list(v)
        return v

    def tube_(self) -> list[int]:
        """``tube`` as a list."""
        v = self.tube
        if type(v) is not list:
            v = self.tube = list(v)
        return v

    def stratos_(self) -> list[int]:
        """``stratos`` as a list."""
        v = self.stratos
        if type(v) is not list:
            v = self.stratos = list(v)
        return v

    def supply_(self) -> list[int]:
        """``supply`` as a list."""
        v = self.supply
        if type(v) is not list:
            v = self.supply = list(v)
        return v

    def intel_deck_(self) -> list[tuple[int, ...]]:
        """``intel_deck`` as a list."""
        v = self.intel_deck
        if type(v) is not list:
            v = self.intel_deck = list(v)
        return v

    def intel_row_(self) -> list[tuple[int, ...]]:
        """``intel_row`` as a list."""
        v = self.intel_row
        if type(v) is not list:
            v = self.intel_row = list(v)
        return v

    def strat_deck_(self) -> list[int]:
        """``strat_deck`` as a list."""
        v = self.strat_deck
        if type(v) is not list:
            v = self.strat_deck = list(v)
        return v

    def strat_row_(self) -> list[int]:
        """``strat_row`` as a list."""
        v = self.strat_row
        if type(v) is not list:
            v = self.strat_row = list(v)
        return v

    def strat_discard_(self) -> list[int]:
        """``strat_discard`` as a list."""
        v = self.strat_discard
        if type(v) is not list:
            v = self.strat_discard = list(v)
        return v

    def leader_(self) -> list[int]:
        """``leader`` as a list."""
        v = self.leader
        if type(v) is not list:
            v = self.leader = list(v)
        return v

    def transports_(self) -> list[int]:
        """``transports`` as a list."""
        v = self.transports
        if type(v) is not list:
            v = self.transports = list(v)
        return v


_T = TypeVar("_T")


def put(seq: tuple[_T, ...], i: int, value: _T) -> tuple[_T, ...]:
    """``seq`` with ``value`` at ``i`` (a new tuple: for the fields the freeze does not look at)."""
    return (*seq[:i], value, *seq[i + 1 :])


Pos: TypeAlias = "Work | CytressState"
"""A position read by the rules: the frozen state, or the working copy an action is changing."""

_namespace: dict[str, object] = {"CytressState": CytressState, "Work": Work, "_new": object.__new__}
exec(_CODE, _namespace)
_load: Callable[[Work, CytressState], Work] = cast(Callable[[Work, CytressState], Work], _namespace["_load"])
_freeze: Callable[[Work], CytressState] = cast(Callable[[Work], CytressState], _namespace["_freeze"])
load_work: Callable[[CytressState], Work] = cast(Callable[[CytressState], Work], _namespace["_load_new"])
"""``Work.of(state)``, one call fewer (the new object made in the generated loader)."""
freeze_work = _freeze
"""``w.freeze()``, one call fewer."""
