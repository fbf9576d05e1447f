"""The rules' invariants of a CyberVerse state read from its public form (what the declared fields
of ``games.cyberverse.schema`` cannot say on their own): counts that follow the player count, the
Modifier deck, one list of Missions per Investigation card, an Agent recruited once and standing on
its board, one board per district. Each failure is an ``InvalidStateError`` naming the field and the
rulebook section.
"""

from __future__ import annotations

from games.cyberverse import state as st
from games.cyberverse.content import Content
from games.cyberverse.schema import bad

__all__ = ["check"]

MODIFIERS = (-1, 0, 1, 1, 2)
"""Each Organization's Modifier cards (rule: cyberverse/setup)."""


def _below(value: int, n: int, path: str, what: str, rule: str = "") -> None:
    if value >= n:
        raise bad(path, f"expected {what} below {n}, got {value}", rule)


def check(s: st.State, c: Content) -> None:
    """Raise ``InvalidStateError`` naming the first field that breaks a rule."""
    if len(s.orgs) != s.players:
        raise bad(
            "orgs",
            f"expected {s.players} Organizations (one per player), got {len(s.orgs)}",
            "cyberverse/setup",
        )
    _below(s.actor, s.players, "actor", "a seat", "cyberverse/order-of-play")
    for i, o in enumerate(s.orgs):
        _check_org(o, f"orgs[{i}]")
    if (s.step == st.D_DROP_SUPPORT) != bool(s.held) or (s.held and not s.adjust):
        raise bad(
            "held",
            "held names the interrupted step exactly while an Organization in adjust discards Support cards",
            "cyberverse/support-cards",
        )
    seen: set[int] = set()
    for i, a in enumerate(s.agents):
        if a.sheet in seen:
            raise bad(f"agents[{i}].sheet", "the Agent sheet is recruited twice", "cyberverse/agent-sheets")
        seen.add(a.sheet)
        _check_agent(s, a, f"agents[{i}]", c)
    for d, b in enumerate(s.city.boards):
        if c.boards[b].district != d:
            why = f"expected a board of district {d + 1}, got {c.boards[b].id!r}"
            raise bad(f"city.boards[{d}]", why, "cyberverse/building-new-eden")


def _check_org(o: st.Org, p: str) -> None:
    """An Organization's Modifier cards and its Missions per Investigation card."""
    if sorted(o.deck + o.discard) != sorted(MODIFIERS):
        raise bad(
            f"{p}.deck", "deck and discard must hold the Modifier cards -1, 0, 1, 1, 2", "cyberverse/setup"
        )
    n = len(o.cases)
    for key in ("done", "spent", "marks"):
        if len(getattr(o, key)) != n:
            why = f"expected one list per Investigation card ({n}), got {len(getattr(o, key))}"
            raise bad(f"{p}.{key}", why, "cyberverse/story-cards")


def _check_agent(s: st.State, a: st.Agent, p: str, c: Content) -> None:
    """A recruited Agent: its Organization, and where it stands on its district's board."""
    _below(a.org, s.players, f"{p}.org", "a seat")
    if a.district >= 0:
        board = c.boards[s.city.boards[a.district]]
        if not 0 <= a.zone < board.zones:
            raise bad(
                f"{p}.zone",
                f"expected a zone 1..{board.zones} of board {board.id}",
                "cyberverse/new-eden-board",
            )
        _below(
            a.spot, len(board.positions), f"{p}.spot", "a tactical position", "cyberverse/tactical-positions"
        )
