"""Placing crews on the mini-map and spying on rivals (rule: cytress/meet-a-faction, steps "Place
CREW" and "SPY on a rival"; the enforcers' crew benefit uses the same rules: rule:
cytress/meet-the-enforcers)."""

from __future__ import annotations

from collections.abc import Sequence

from games.core.records import replace
from games.cytress.content import MapView
from games.cytress.economy import gain
from games.cytress.state import NOBODY, SPY, pending
from games.cytress.work import Pos, Work, set_rebel

__all__ = ["after_crew", "crew_hexes", "place_crew", "spy", "spy_rivals", "start_crew"]


def crew_hexes(view: MapView, crew: Sequence[int], tube: Sequence[int], colour: int) -> list[int]:
    """rule: cytress/meet-a-faction - the empty hexes (no crew, no waste tube) of faction
    ``colour`` (-1: any hex)."""
    hexes = view.by_faction[colour] if colour >= 0 else range(len(crew))
    return [h for h in hexes if crew[h] == NOBODY and not tube[h]]


def start_crew(w: Pos, seat: int, colour: int) -> bool:
    """Whether a crew placement decision opens: the seat has an unused crew and an empty hex of
    ``colour`` exists. A seat out of crews completes a faction meeting without one (rule:
    cytress/rules-to-remember: "players can still acquire cards after running out of crew
    tokens"); a seat with crews meets a faction only if this holds (``travel.pad_choices``)."""
    if w.rebels[seat].unused <= 0:
        return False
    hexes = w.map.by_faction[colour] if colour >= 0 else range(len(w.crew))
    crew, tube = w.crew, w.tube
    for h in hexes:  # a loop, not ``any`` over a generator: this runs on every faction visit
        if crew[h] == NOBODY and not tube[h]:
            break
    else:
        return False
    return True


def place_crew(w: Work, owner: int, h: int) -> None:
    """Put one of ``owner``'s unused crews on hex ``h``."""
    w.crew_()[h] = owner
    rebel = w.rebels[owner]
    set_rebel(w, owner, replace(rebel, unused=rebel.unused - 1))


def spy_rivals(view: MapView, crew: Sequence[int], h: int, seat: int) -> list[int]:
    """rule: cytress/meet-a-faction - the rivals with a crew adjacent to hex ``h`` (the automa's
    crews count as a rival's in solo mode)."""
    return sorted({crew[n] for n in view.layout.adjacent[h] if crew[n] != NOBODY and crew[n] != seat})


def spy(w: Work, seat: int, h: int, rival: int) -> None:
    """rule: cytress/meet-a-faction - gain 1 resource of the type matching the colour of each hex
    adjacent to ``h`` occupied by ``rival``'s crews."""
    crew, resource = w.crew, w.map.resource
    for n in w.map.layout.adjacent[h]:
        if crew[n] == rival:
            gain(w, seat, resource[n], 1)


def after_crew(w: Work, seat: int, h: int) -> None:
    """After a seat's crew lands on ``h``: the spy decision if a rival is adjacent, else the action
    is complete."""
    crew = w.crew
    for n in w.map.layout.adjacent[h]:  # a rival's crew adjacent (``spy_rivals`` not empty)
        o = crew[n]
        if o >= 0 and o != seat:  # NOBODY is -1
            break
    else:
        w.finish()
        return
    w.step = SPY
    w.pending = pending(w.pending.pad, hex=h)
