"""The checks of a CyberVerse state read from its public form that the field types cannot say:
ranges and ids the rules read, the first bad field named (``InvalidStateError`` with the rulebook
section it breaks)."""

from __future__ import annotations

from games.cyberverse import state as st
from games.cyberverse.content import Content
from games.cyberverse.form import LIMIT
from games.errors import InvalidStateError

__all__ = ["check"]


def _check_range(value: int, lo: int, hi: int, path: str, rule: str = "") -> None:
    if not lo <= value <= hi:
        raise InvalidStateError(f"{path} must be from {lo} to {hi}, not {value}", field=path, rule=rule)


def check(s: st.State, c: Content) -> None:
    """Ranges and ids that the rules read (the first bad field named)."""
    _check_range(s.players, 2, 4, "players")
    _check_range(len(s.orgs), s.players, s.players, "orgs")
    _check_range(s.actor, -2, s.players - 1, "actor")
    _check_range(s.turn, 1, 10_000, "turn")
    for i, o in enumerate(s.orgs):
        _check_org(o, f"orgs[{i}]", c)
    if (s.step == st.D_DROP_SUPPORT) != bool(s.held) or (s.held and not s.adjust):
        raise InvalidStateError(
            "held names the interrupted step exactly while an Organization in adjust discards Support cards",
            field="held",
            rule="cyberverse/support-cards",
        )
    seen: set[int] = set()
    for i, a in enumerate(s.agents):
        p = f"agents[{i}]"
        if a.sheet in seen:
            _check_range(a.sheet, 0, len(c.faces) // 2 - 1, f"{p}.sheet", "cyberverse/agent-sheets")
            raise InvalidStateError(
                f"{p}.sheet is recruited twice", field=f"{p}.sheet", rule="cyberverse/agent-sheets"
            )
        seen.add(a.sheet)
        _check_agent(s, a, p, c)
    if len(s.city.boards) != 5 or any(
        not 0 <= b < len(c.boards) or c.boards[b].district != d for d, b in enumerate(s.city.boards)
    ):
        raise InvalidStateError(
            "city.boards: one board of each district",
            field="city.boards",
            rule="cyberverse/building-new-eden",
        )


def _check_org(o: st.Org, p: str, c: Content) -> None:
    """An Organization's HQ: its D, Influence, Support cards, Modifier cards and Story card."""
    _check_range(o.money, 0, LIMIT, f"{p}.money", "cyberverse/setup")
    if len(o.influence) != 5 or any(not 0 <= x <= 3 for x in o.influence):
        raise InvalidStateError(
            f"{p}.influence: 5 districts, 0 to 3 tokens each",
            field=f"{p}.influence",
            rule="cyberverse/influence",
        )
    if len(o.support) > 3 or any(not 0 <= u < len(c.support) for u in o.support):
        raise InvalidStateError(
            f"{p}.support: at most 3 Support cards of the pack",
            field=f"{p}.support",
            rule="cyberverse/support-cards",
        )
    if sorted(o.deck + o.discard) != sorted((-1, 0, 1, 1, 2)):
        raise InvalidStateError(
            f"{p}.deck and discard must hold the Modifier cards -1, 0, 1, 1, 2",
            field=f"{p}.deck",
            rule="cyberverse/setup",
        )
    n = len(o.cases)
    if not (len(o.done) == len(o.spent) == len(o.marks) == n) or any(
        not 0 <= k < len(c.investigations) for k in o.cases
    ):
        raise InvalidStateError(
            f"{p}.cases: Investigation cards of the pack, one mask each",
            field=f"{p}.cases",
            rule="cyberverse/story-cards",
        )
    _check_range(o.story, -1, len(c.stories) - 1, f"{p}.story", "cyberverse/story-cards")
    _check_range(o.actions, 0, 3, f"{p}.actions", "cyberverse/activation-phase")


def _check_agent(s: st.State, a: st.Agent, p: str, c: Content) -> None:
    """A recruited Agent: its sheet, Health, Status tokens, Supply tokens and where it stands."""
    _check_range(a.sheet, 0, len(c.faces) // 2 - 1, f"{p}.sheet", "cyberverse/agent-sheets")
    _check_range(a.side, 0, 1, f"{p}.side")
    _check_range(a.org, 0, s.players - 1, f"{p}.org")
    _check_range(a.health, 1, 20, f"{p}.health", "cyberverse/loss-of-health")
    _check_range(a.status, 0, 7, f"{p}.status", "cyberverse/status-tokens")
    _check_range(a.district, -1, 4, f"{p}.district")
    if any(not 0 <= t < len(c.tokens) for t in a.kit) or len(a.kit) > c.equipment_slots:
        raise InvalidStateError(
            f"{p}.kit: Supply tokens of the pack, at most {c.equipment_slots}",
            field=f"{p}.kit",
            rule="cyberverse/agent-dashboard",
        )
    if a.district >= 0:
        board = c.boards[s.city.boards[a.district]]
        _check_range(a.zone, 0, board.zones - 1, f"{p}.zone", "cyberverse/new-eden-board")
        _check_range(a.spot, -1, len(board.positions) - 1, f"{p}.spot", "cyberverse/tactical-positions")
