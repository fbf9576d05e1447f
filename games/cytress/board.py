"""The mini-map and Stratos: hexes, crews around waste tubes, level majorities, the decks.

rule: cytress/minimap-stratos - crews are placed on empty mini-map hexes of a faction's colour;
waste tubes stand on hexes; crews ascend to the three levels of Stratos. Control of a tube is a
majority of crews across the hexes adjacent to it; control of a level is the most crews on it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.core.records import replace, replace_at
from games.core.rng import derive_seed, shuffled
from games.cytress.state import NOBODY, CAction
from games.cytress.work import Work, set_rebel

__all__ = [
    "CREWS",
    "CREW_PRESTIGE",
    "STRAT_ROW",
    "TUBE_COST",
    "TUBE_PRESTIGE",
    "TUBE_SECTIONS",
    "act",
    "adjacent_counts",
    "ascend",
    "controller",
    "draw_stratolite",
    "is_empty",
    "level_leaders",
    "reshuffled",
    "slide_stratolites",
    "strict_leader",
]

CREWS = 12
"""cytress/setup - 12 crew tokens per player (and for the automa)."""
TUBE_SECTIONS = 50
"""cytress/setup - 50 tube sections in the box."""
TUBE_COST: tuple[int, ...] = (0, 5, 11, 18)
"""cytress/waste-tubes - resources to drop a waste tube 1, 2 or 3 sections high."""
TUBE_PRESTIGE: tuple[int, ...] = (0, 3, 5, 7)
"""cytress/score-waste-tubes - PRESTIGE for controlling a 1, 2 or 3 high tube."""
CREW_PRESTIGE: tuple[int, ...] = (5, 10, 15)
"""cytress/score-crews-on-stratos - PRESTIGE per crew on level 1, 2 and 3."""
STRAT_ROW = 5
"""cytress/meet-a-stratolite - 5 Stratolite cards face up on Stratos."""


def act(kind: str, arg: int = 0) -> CAction:
    """The action ``kind`` with ``arg``."""
    return CAction(kind, arg)


def is_empty(crew: Sequence[int], tube: Sequence[int], h: int) -> bool:
    """cytress/meet-a-faction - an empty hex holds no crew and no waste tube."""
    return crew[h] == NOBODY and not tube[h]


def adjacent_counts(adjacent: Sequence[int], crew: Sequence[int], owners: int) -> list[int]:
    """Per owner, its crews on the hexes ``adjacent`` (a tube's or a hex's neighbours)."""
    counts = [0] * owners
    for n in adjacent:
        o = crew[n]
        if o >= 0:
            counts[o] += 1
    return counts


def tube_neighbours(
    adjacent: Sequence[int], crew: Sequence[int], tube: Sequence[int], owners: int
) -> tuple[list[int], int]:
    """Around a waste tube: per owner, its crews on the hexes next to it (what decides who controls
    it, cytress/score-waste-tubes), and the empty hexes next to it (no crew, no tube: where a crew
    could still be placed and change that)."""
    counts = [0] * owners
    empty = 0
    for n in adjacent:
        o = crew[n]
        if o >= 0:
            counts[o] += 1
        elif not tube[n]:
            empty += 1
    return counts, empty


def strict_leader(counts: Sequence[int]) -> int:
    """The owner with strictly more than every other (-1 when tied or all zero)."""
    best, who, tied = 0, NOBODY, False
    for o, c in enumerate(counts):
        if c > best:
            best, who, tied = c, o, False
        elif c == best and c > 0:
            tied = True
    return NOBODY if tied else who


def controller(adjacent: Sequence[int], crew: Sequence[int], owners: int) -> int:
    """cytress/score-waste-tubes - who controls a tube: a majority of crews across all
    adjacent hexes (-1: tied or nobody, and nobody scores it)."""
    return strict_leader(adjacent_counts(adjacent, crew, owners))


def ascend(w: Work, owner: int, level: int) -> None:
    """One of ``owner``'s crews on Stratos ``level`` (1 or 2) moves up one level (a bounty's benefit,
    the automa's bounty ascent)."""
    rebel = w.rebels[owner]
    levels = replace_at(rebel.stratos, level - 1, rebel.stratos[level - 1] - 1)
    set_rebel(w, owner, replace(rebel, stratos=replace_at(levels, level, levels[level] + 1)))


def level_leaders(stratos: Sequence[Sequence[int]], owners: int, level: int) -> tuple[int, ...]:
    """cytress/score-stratos-rewards - the owners with the absolute or tied majority of crews
    on Stratos ``level`` (1-3); none when nobody has a crew there."""
    counts = [stratos[o][level - 1] for o in range(owners)]
    best = max(counts)
    if best == 0:
        return ()
    return tuple(o for o, c in enumerate(counts) if c == best)


def reshuffled(w: Work, cards: Sequence[int]) -> list[int]:
    """A reshuffle of ``cards`` drawn from the game's hidden seed (cytress/meet-a-stratolite
    reshuffles the discard pile; cytress/solo-gameplay shuffles the AI action deck)."""
    out = shuffled(random.Random(derive_seed(w.seed, "shuffle", w.shuffles)).getrandbits, cards)
    w.shuffles += 1
    return out


def draw_stratolite(w: Work) -> int:
    """cytress/meet-a-stratolite - the top Stratolite of the deck; an empty deck is first
    remade from the shuffled discard pile (-1 when both are empty)."""
    if not w.strat_deck:
        if not w.strat_discard:
            return NOBODY
        w.strat_deck = reshuffled(w, w.strat_discard)
        w.strat_discard = []
    deck = w.strat_deck_()
    return deck.pop(0)


def slide_stratolites(w: Work, slot: int) -> None:
    """cytress/meet-a-stratolite - the card at ``slot`` has left: the cards to its left slide
    one space right and a new card fills the leftmost slot (cytress/phase-4-reset does the
    same after discarding the rightmost)."""
    row = w.strat_row_()
    for i in range(slot, 0, -1):
        row[i] = row[i - 1]
    row[0] = draw_stratolite(w)
