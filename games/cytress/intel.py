"""Taking faction intel cards (cytress/meet-a-faction, step "Take INTEL"; the fixer's free
card: cytress/meet-the-fixer; the automa's: cytress/solo-ai-actions)."""

from __future__ import annotations

from collections.abc import Sequence

from games.core.records import replace, replace_at
from games.cytress.content import Content
from games.cytress.state import NOBODY
from games.cytress.work import Work, set_player

__all__ = ["face_up", "take_from_row", "take_intel"]


def face_up(rows: Sequence[tuple[int, ...]], faction: int = -1) -> list[int]:
    """The face-up intel cards of ``faction`` (-1: of every faction board), top first."""
    if faction >= 0:
        return [c for c in rows[faction] if c != NOBODY]
    return [c for row in rows for c in row if c != NOBODY]


def take_from_row(content: Content, w: Work, card: int) -> None:
    """Take ``card`` from its faction board and refill the empty slot from the top of that
    faction's deck if possible (an empty deck leaves the slot empty)."""
    f = content.intel_faction[card]
    rows = w.intel_row_()
    row = list(rows[f])
    slot = row.index(card)
    deck = w.intel_deck[f]
    if deck:
        row[slot] = deck[0]
        w.intel_deck_()[f] = deck[1:]
    else:
        row[slot] = NOBODY
    rows[f] = tuple(row)


def take_intel(content: Content, w: Work, seat: int, card: int) -> None:
    """cytress/meet-a-faction - move ``card`` onto the end of the matching lifepath (its
    faction's) and refill its slot; its icons count from now on (rule:
    cytress/lifepaths-factions)."""
    take_from_row(content, w, card)
    intel = content.intel[card]
    lifepath = intel.faction
    p = w.players[seat]
    counts = list(p.icons[lifepath])
    for r in intel.icons:
        counts[r] += 1
    lifepaths = replace_at(p.lifepaths, lifepath, (*p.lifepaths[lifepath], card))
    set_player(w, seat, replace(p, lifepaths=lifepaths, icons=replace_at(p.icons, lifepath, tuple(counts))))
