"""Resources and lifepaths: limits, income, Privateer gains, Hooligang discounts, Rover ratios.

rule: cytress/resources - four resources, each tracked 0..25 ("to a maximum of 25"): gains past
25 are lost; a cost is paid in full or the action cannot be taken.
rule: cytress/lifepaths-factions - a rebel's ability in a lifepath is the number of resource icons
along it: the rebel board's starting icons plus those of every intel card added to it.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.cytress.content import Content
from games.cytress.state import CORPOCRAT, HOOLIGANG, PRIVATEER, ROVER
from games.cytress.work import Work

__all__ = [
    "MAX_RESOURCE",
    "START_RESOURCE",
    "cost_after_discount",
    "discount",
    "gain",
    "income",
    "lifepath_icons",
    "pay",
    "privateer_gain",
    "trade_ratio",
]

MAX_RESOURCE = 25
"""rule: cytress/resources - the most of one resource a rebel can hold."""
START_RESOURCE = 2
"""rule: cytress/setup - every resource tracker token starts on the value 2 space."""


def lifepath_icons(
    content: Content, rebel: int, side: int, paths: Sequence[tuple[int, ...]]
) -> tuple[int, ...]:
    """rule: cytress/lifepaths-factions - a seat's icons: ``[4 * lifepath + resource]`` counts of
    its rebel board side's starting icons plus its lifepaths' intel cards (``side`` -1: not chosen,
    no starting icons yet)."""
    out = [0] * 16
    if side >= 0:
        for f, icons in enumerate(content.rebels[rebel].sides[side]):
            for r in icons:
                out[4 * f + r] += 1
    for f, cards in enumerate(paths):
        for c in cards:
            for r in content.intel[c].icons:
                out[4 * f + r] += 1
    return tuple(out)


def gain(w: Work, seat: int, resource: int, amount: int) -> None:
    """rule: cytress/resources - gain up to the 25 limit (the rest is lost)."""
    if amount <= 0:
        return
    res = w.res_()
    i = 4 * seat + resource
    v = res[i] + amount
    res[i] = v if v < MAX_RESOURCE else MAX_RESOURCE


def pay(w: Work, seat: int, resource: int, amount: int) -> None:
    """rule: cytress/resources - pay a cost (the caller checked it is affordable)."""
    if amount > 0:
        w.res_()[4 * seat + resource] -= amount


def discount(icons: Sequence[int], seat: int, resource: int) -> int:
    """rule: cytress/phase-3a-travel - the Hooligang discount: the ``resource`` icons on the seat's
    Hooligang lifepath."""
    return icons[16 * seat + 4 * HOOLIGANG + resource]


def cost_after_discount(icons: Sequence[int], seat: int, resource: int, cost: int) -> int:
    """rule: cytress/rules-to-remember - a cost paid in ``resource`` less the Hooligang discount
    (never below 0); the seat must be able to pay this reduced cost."""
    return max(0, cost - icons[16 * seat + 4 * HOOLIGANG + resource])


def privateer_gain(icons: Sequence[int], seat: int, resource: int) -> int:
    """rule: cytress/phase-2-scout - what ``seat`` gains when another rebel scouts ``resource``: the
    ``resource`` icons on its Privateer lifepath."""
    return icons[16 * seat + 4 * PRIVATEER + resource]


def trade_ratio(icons: Sequence[int], seat: int, resource: int) -> int:
    """rule: cytress/meet-the-merchant - the seat's trade ratio for gaining ``resource``: the
    ``resource`` icons on its Rover lifepath (every rebel starts with 1 CREDS, TECH and AMMO)."""
    return icons[16 * seat + 4 * ROVER + resource]


def income(w: Work) -> None:
    """rule: cytress/phase-1-income - every seat gains all resources shown on its Corpocrat
    lifepath (simultaneously; the automa gains nothing: rule: cytress/solo-gameplay)."""
    icons = w.icons
    for seat in range(w.players):
        base = 16 * seat + 4 * CORPOCRAT
        for r in range(4):
            k = icons[base + r]
            if k:
                gain(w, seat, r, k)
