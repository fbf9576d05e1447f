"""The mutable view of a CyberVerse :class:`~games.cyberverse.state.State` that one ``apply`` edits.

It holds the State's top-level fields; a rule replaces a record by name (``w.set_org(seat,
money=...)``, ``w.set_ctx(stage=...)``: :func:`~games.core.records.replace`), never mutates one, and
``freeze()`` makes the new State. Kept apart from ``state.py`` (the records) so that the rules' hot
path, this module and the rule modules, is compiled with mypyc (docs/compiled.md) while the records
stay ordinary Python classes (``msgspec`` structs) to the compiled code.
"""

from __future__ import annotations

from typing import Any

from games.core.records import replace
from games.cyberverse.state import Agent, Fight, Fighter, Org, State

__all__ = ["Work", "insert_sorted", "remove_one", "with_member"]


class Work:
    """A mutable view of a :class:`State` for one ``apply`` (fields replaced, never mutated).

    Attributes are the State's fields; the records inside stay immutable and are swapped with the
    ``set_*`` helpers. ``freeze()`` builds the new State.
    """

    __slots__ = (
        "actor",
        "adjust",
        "agents",
        "city",
        "ctx",
        "decks",
        "fight",
        "first",
        "held",
        "market",
        "options",
        "order",
        "orgs",
        "phase",
        "players",
        "step",
        "turn",
    )

    def __init__(self, s: State) -> None:
        self.players = s.players
        self.options = s.options
        self.turn = s.turn
        self.phase = s.phase
        self.step = s.step
        self.actor = s.actor
        self.first = s.first
        self.order = s.order
        self.orgs = s.orgs
        self.agents = s.agents
        self.city = s.city
        self.market = s.market
        self.decks = s.decks
        self.fight = s.fight
        self.ctx = s.ctx
        self.adjust = s.adjust
        self.held = s.held

    def freeze(self) -> State:
        """The new State."""
        return State(
            self.players,
            self.options,
            self.turn,
            self.phase,
            self.step,
            self.actor,
            self.first,
            self.order,
            self.orgs,
            self.agents,
            self.city,
            self.market,
            self.decks,
            self.fight,
            self.ctx,
            self.adjust,
            self.held,
        )

    # ------------------------------------------------------------- records
    def set_org(self, seat: int, **changes: Any) -> Org:
        """Replace fields of an Organization; returns the new record."""
        org = replace(self.orgs[seat], **changes)
        orgs = list(self.orgs)
        orgs[seat] = org
        self.orgs = tuple(orgs)
        return org

    def agent_at(self, sheet: int) -> int:
        """Index of the agent of ``sheet`` in ``agents`` (-1 if not recruited)."""
        for i, a in enumerate(self.agents):
            if a.sheet == sheet:
                return i
        return -1

    def agent(self, sheet: int) -> Agent:
        """The recruited agent of ``sheet``."""
        for a in self.agents:
            if a.sheet == sheet:
                return a
        raise KeyError(sheet)

    def set_agent(self, sheet: int, **changes: Any) -> Agent:
        """Replace fields of an agent; returns the new record."""
        agents = list(self.agents)
        for i, a in enumerate(agents):
            if a.sheet == sheet:
                agents[i] = new = replace(a, **changes)
                self.agents = tuple(agents)
                return new
        raise KeyError(sheet)

    def set_city(self, **changes: Any) -> None:
        """Replace fields of the city."""
        self.city = replace(self.city, **changes)

    def set_market(self, **changes: Any) -> None:
        """Replace fields of the market."""
        self.market = replace(self.market, **changes)

    def set_decks(self, **changes: Any) -> None:
        """Replace fields of the decks."""
        self.decks = replace(self.decks, **changes)

    def set_ctx(self, **changes: Any) -> None:
        """Replace fields of the flow context."""
        self.ctx = replace(self.ctx, **changes)

    def set_fight(self, **changes: Any) -> Fight:
        """Replace fields of the fight under way."""
        assert self.fight is not None
        self.fight = replace(self.fight, **changes)
        return self.fight

    def set_fighter(self, index: int, **changes: Any) -> Fighter:
        """Replace fields of a fighter of the fight under way."""
        fight = self.fight
        assert fight is not None
        fighters = list(fight.fighters)
        fighters[index] = new = replace(fighters[index], **changes)
        self.fight = replace(fight, fighters=tuple(fighters))
        return new


def remove_one(items: tuple[int, ...], value: int) -> tuple[int, ...]:
    """``items`` (sorted) without one ``value``."""
    i = items.index(value)
    return items[:i] + items[i + 1 :]


def with_member(items: tuple[int, ...], value: int) -> tuple[int, ...]:
    """``items`` (a sorted set) with ``value`` in it."""
    return items if value in items else insert_sorted(items, value)


def insert_sorted(items: tuple[int, ...], value: int) -> tuple[int, ...]:
    """``items`` (sorted) with ``value`` added in order."""
    i = 0
    n = len(items)
    while i < n and items[i] <= value:
        i += 1
    return (*items[:i], value, *items[i:])
