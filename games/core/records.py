"""The one way every game holds and changes its state (docs/state.md).

A state is a tree of **records**: ``msgspec`` structs with named, typed fields, frozen, so a state
handed out is never changed by anyone. ``apply`` copies what it changes and changes it by name::

    from games.core.records import Record, replace, replace_at

    class Player(Record, frozen=True):
        \"\"\"One player's holdings.

        Attributes:
            coins: coins held.
            hand: gadget cards in hand, sorted.
        \"\"\"

        coins: int
        hand: tuple[int, ...] = ()

    class State(Record, frozen=True):
        players: tuple[Player, ...]
        turn: int = 1

    def pay(s: State, seat: int, cost: int) -> State:
        \"\"\"rule: mygame/structure-interaction - pay the cost in coins.\"\"\"
        player = s.players[seat]
        return replace(s, players=replace_at(s.players, seat, replace(player, coins=player.coins - cost)))

Why this and not another (measured, ``bench/idiom.py``): a frozen struct replaced by name runs as fast
in pure Python as a hand-written mutable class (≈1.5 million small applies a second here, against
0.1 million for frozen dataclasses and ``dataclasses.replace``, 0.3 for ``NamedTuple._replace``), it
gives equality, hashing, a repr and field introspection for free, and compiled rules (mypyc) call it
as they are: pure Python stays within 2x of compiled. The public form (JSON in the rulebook's words)
is declared apart, once per game, with the typed fields of ``games.core.form`` (its JSON Schema, the
check of every incoming field and the writing by the same names all come from that declaration), so
a field of the public form is named once; docs/state.md, "The public form", says why not msgspec.

No ``exec``, no ``__class__`` assignment, no index constants: a rule reads its fields by name.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

import msgspec
from msgspec.structs import replace

__all__ = ["Record", "replace", "replace_at", "without"]

T = TypeVar("T")


class Record(msgspec.Struct, frozen=True, gc=False):
    """Base of every record of a game's state: frozen, hashed and compared by value, not tracked by
    the cyclic garbage collector (a state is a tree: it holds no cycle)."""


def replace_at(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """``items`` with the entry at ``index`` replaced by ``value`` (a new tuple)."""
    return (*items[:index], value, *items[index + 1 :])


def without(items: Sequence[T], value: T) -> tuple[T, ...]:
    """``items`` with the first ``value`` taken out (a new tuple); ValueError when it is not there."""
    i = list(items).index(value)
    return (*items[:i], *items[i + 1 :])
