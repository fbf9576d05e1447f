"""Resources and lifepaths: limits, income, Privateer gains, Hooligang discounts, Rover ratios.

rule: cytress/resources - four resources, each tracked 0..25 ("to a maximum of 25"): gains past
25 are lost; a cost is paid in full or the action cannot be taken.
rule: cytress/lifepaths-factions - a rebel's ability in a lifepath is the number of resource icons
along it: the rebel board's starting icons plus those of every intel card added to it.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.core.records import replace, replace_at
from games.cytress.content import Content
from games.cytress.state import CORPOCRAT, FACTIONS, HOOLIGANG, Icons
from games.cytress.work import Work, set_player

__all__ = [
    "MAX_RESOURCE",
    "START_RESOURCE",
    "cost_after_discount",
    "gain",
    "income",
    "lifepath_icons",
    "pay",
]

MAX_RESOURCE = 25
"""rule: cytress/resources - the most of one resource a rebel can hold."""
START_RESOURCE = 2
"""cytress/setup - every resource tracker token starts on the value 2 space."""


def lifepath_icons(
    content: Content, rebel: int, side: int, paths: Sequence[tuple[int, ...]]
) -> tuple[tuple[int, ...], ...]:
    """rule: cytress/lifepaths-factions - a seat's icons: per lifepath, the count of each resource
    among its rebel board side's starting icons plus its intel cards (``side`` -1: not chosen, no
    starting icons yet)."""
    out = [[0, 0, 0, 0] for _ in FACTIONS]
    if side >= 0:
        for f, icons in enumerate(content.rebels[rebel].sides[side]):
            for r in icons:
                out[f][r] += 1
    for f, cards in enumerate(paths):
        for c in cards:
            for r in content.intel[c].icons:
                out[f][r] += 1
    return tuple(tuple(counts) for counts in out)


def gain(w: Work, seat: int, resource: int, amount: int) -> None:
    """rule: cytress/resources - gain up to the 25 limit (the rest is lost)."""
    if amount <= 0:
        return
    p = w.players[seat]
    have = p.resources
    v = have[resource] + amount
    resources = replace_at(have, resource, v if v < MAX_RESOURCE else MAX_RESOURCE)
    set_player(w, seat, replace(p, resources=resources))


def pay(w: Work, seat: int, resource: int, amount: int) -> None:
    """rule: cytress/resources - pay a cost (the caller checked it is affordable)."""
    if amount > 0:
        p = w.players[seat]
        have = p.resources
        set_player(w, seat, replace(p, resources=replace_at(have, resource, have[resource] - amount)))


def cost_after_discount(icons: Icons, resource: int, cost: int) -> int:
    """cytress/rules-to-remember - a cost paid in ``resource`` less the Hooligang discount of a
    seat's ``icons`` (never below 0); the seat must be able to pay this reduced cost."""
    return max(0, cost - icons[HOOLIGANG][resource])


def income(w: Work) -> None:
    """rule: cytress/phase-1-income - every seat gains all resources shown on its Corpocrat
    lifepath (simultaneously; the automa gains nothing: cytress/solo-gameplay)."""
    for seat, p in enumerate(w.players):
        corpocrat = p.icons[CORPOCRAT]
        if any(corpocrat):
            have = p.resources
            gained = tuple(min(MAX_RESOURCE, x + k) for x, k in zip(have, corpocrat, strict=True))
            set_player(w, seat, replace(p, resources=gained))
