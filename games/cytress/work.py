"""The mutable working copy ``apply`` runs the rules on, and the rules' shared context.

``Work.of(state)`` copies a frozen :class:`~games.cytress.state.CytressState` by reference; a rule
that changes a field first asks for it as a list (``w.crew_()``, copied once, on first use), so an
action copies only what it touches; a seat's :class:`~games.cytress.state.Player` and an owner's
:class:`~games.cytress.state.Rebel` are records the rule replaces by name and hands back
(``set_player(w, seat, replace(p, resources=...))``,
``set_rebel(w, owner, replace(rebel, unused=rebel.unused - 1))``; the list of them made once).
``w.freeze()`` builds the next frozen state (a new record). The rule functions take ``(ctx, w)``:
:class:`Ctx` holds the content pack and per-map caches.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeAlias, TypeVar

import msgspec
from msgspec.structs import astuple

from games.cytress.content import Content, MapView
from games.cytress.state import (
    EXTRA,
    NO_PENDING,
    NONE,
    Automa,
    CytressState,
    Pending,
    Player,
    Rebel,
)

__all__ = ["Ctx", "Pos", "Work", "freeze_work", "load_work", "put", "set_player", "set_rebel"]


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


class Work(msgspec.Struct, gc=False):
    """A working copy of a state: fields by reference until a rule asks for one as a list.

    The fields of :class:`CytressState`, in its order (``tests/cytress/test_engine.py`` checks), but
    writable: ``of`` and ``freeze`` pass them over in one go (``msgspec.structs.astuple``)."""

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
    players: Sequence[Player]
    rebels: Sequence[Rebel]
    crew: Sequence[int]
    tube: Sequence[int]
    intel_deck: Sequence[tuple[int, ...]]
    intel_row: Sequence[tuple[int, ...]]
    strat_deck: Sequence[int]
    strat_row: Sequence[int]
    strat_discard: Sequence[int]
    bounty_stack: tuple[tuple[int, ...], ...]
    tubes_left: int
    tubes_box: int
    end_triggered: bool
    automa: Automa | None
    seed: int
    shuffles: int
    round_limit: int
    box_tubes: bool
    bounty_best: bool
    map: MapView

    @classmethod
    def of(cls, s: CytressState) -> Work:
        """A working copy of ``s`` (its fields by reference)."""
        return cls(*astuple(s))

    def freeze(self) -> CytressState:
        """The frozen state: the fields a rule turned into lists made tuples again (the working copy
        is used up)."""
        if type(self.players) is list:
            self.players = tuple(self.players)
        if type(self.rebels) is list:
            self.rebels = tuple(self.rebels)
        if type(self.crew) is list:
            self.crew = tuple(self.crew)
        if type(self.tube) is list:
            self.tube = tuple(self.tube)
        if type(self.intel_deck) is list:
            self.intel_deck = tuple(self.intel_deck)
        if type(self.intel_row) is list:
            self.intel_row = tuple(self.intel_row)
        if type(self.strat_deck) is list:
            self.strat_deck = tuple(self.strat_deck)
        if type(self.strat_row) is list:
            self.strat_row = tuple(self.strat_row)
        if type(self.strat_discard) is list:
            self.strat_discard = tuple(self.strat_discard)
        return CytressState(*astuple(self))

    @property
    def num_players(self) -> int:
        """The player count (1: solo against the automa)."""
        return len(self.players)

    @property
    def owners(self) -> int:
        """Crew owners: the seats, plus the automa in solo mode (``len(rebels)``)."""
        return len(self.rebels)

    @property
    def solo(self) -> bool:
        """Whether this is a solo game."""
        return len(self.players) == 1

    def finish(self) -> None:
        """The action (or turn) under way is complete: the next turn of the phase comes up (rule:
        cytress/phase-3a-travel: players take turns one transport at a time; in extra travel the
        next seat after this one)."""
        self.pending = NO_PENDING
        self.step = NONE
        if self.phase == EXTRA:
            self.turn = (self.actor + 1) % len(self.players)
        else:
            self.turn += 1

    # -- lists on demand (copied once per apply)
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


def set_player(w: Work, seat: int, player: Player) -> None:
    """``seat``'s :class:`Player` becomes ``player``, a record the rule replaced by name
    (``set_player(w, seat, replace(p, resources=...))``; ``players`` made a list once per apply).

    A function, not a method: ``Work`` derives from ``msgspec.Struct``, so mypyc calls its methods
    through Python (an attribute lookup and an argument parse) but a module function natively."""
    players = w.players
    if type(players) is not list:
        players = w.players = list(players)
    players[seat] = player


def set_rebel(w: Work, owner: int, rebel: Rebel) -> None:
    """``owner``'s :class:`Rebel` becomes ``rebel``, a record the rule replaced by name
    (``set_rebel(w, owner, replace(r, unused=r.unused - 1))``; ``rebels`` made a list once per
    apply). Not ``**changes`` passed on to ``replace``: a dict and a keyword parse per call, 3% of a
    compiled step (docs/cytress.md)."""
    rebels = w.rebels
    if type(rebels) is not list:
        rebels = w.rebels = list(rebels)
    rebels[owner] = rebel


_T = TypeVar("_T")


def put(seq: tuple[_T, ...], i: int, value: _T) -> tuple[_T, ...]:
    """``seq`` with ``value`` at ``i`` (a new tuple: for the fields the freeze does not look at)."""
    return (*seq[:i], value, *seq[i + 1 :])


Pos: TypeAlias = "Work | CytressState"
"""A position read by the rules: the frozen state, or the working copy an action is changing."""


def load_work(s: CytressState) -> Work:
    """``Work.of(s)``."""
    return Work.of(s)


def freeze_work(w: Work) -> CytressState:
    """``w.freeze()``."""
    return w.freeze()
