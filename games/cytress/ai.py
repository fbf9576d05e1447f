"""Evaluation for searches and rule-based players: projected PRESTIGE and win chances.

Not a rule: an estimate. ``projected`` starts from each owner's PRESTIGE if the rebellion broke out
now (``games.cytress.scoring``), scores the majorities still open (Stratos levels, waste tubes with
an empty hex around) by the chance of ruling them at the end (``open_contests``), and adds what its
assets are likely worth by the end: crews on the mini-map and still to place, resources, its
lifepaths' icons over the rounds left, its target icons, and the part of an action under way already
paid for. The weights are fitted by least squares to the final margins of self-play positions
(``FITTED_WEIGHTS`` with 2+ seats, ``SOLO_WEIGHTS`` solo: there ``projected`` is the seat's margin
over the automa). ``win_chances`` turns the projections into a probability per seat (a softmax whose
temperature shrinks as the game nears its end; solo: a logistic of the margin), its temperatures
fitted with the weights.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from games.cytress.board import CREW_PRESTIGE, TUBE_COST, TUBE_PRESTIGE, strict_leader, tube_neighbours
from games.cytress.economy import cost_after_discount
from games.cytress.scoring import BOUNTY_PRESTIGE, LEVEL_REWARD, Tally, bounty_prestige
from games.cytress.setup import SOLO_ROUNDS
from games.cytress.state import (
    AUTOMA,
    CORPOCRAT,
    CREW,
    FIXER_INTEL,
    HEIGHT,
    HOOLIGANG,
    INTEL,
    LEVELS,
    OVER,
    PAYMENT,
    PRIVATEER,
    ROVER,
    STRATOLITE,
    TUBE,
    CytressState,
)
from games.cytress.work import Ctx

__all__ = ["Evaluator"]


RESOURCE_VALUE = 0.75
"""PRESTIGE per resource while rounds remain (a 2-high tube: 11 resources for 10-15 PRESTIGE)."""
MAP_CREW_VALUE = 2.5
"""PRESTIGE per crew on the mini-map beyond what it already scores (it may ascend)."""
ICON_ROUND_VALUE = (0.75, 0.45, 0.5, 0.3)
"""PRESTIGE per icon per round left, by lifepath (income, Privateer gains, discounts, ratios)."""
FITTED_WEIGHTS: tuple[tuple[float, float], ...] = (
    (0.96, 0.38),  # PRESTIGE if the rebellion broke out now
    (0.24, 1.15),  # the open contests' expected change (``open_contests``)
    (4.40, 4.56),  # crews on the mini-map (x live)
    (7.67, -7.86),  # crews not yet placed (x live x min(1, rounds left))
    (0.07, 0.54),  # resources (x live)
    (2.50, -1.79),  # Corpocrat lifepath icons x rounds left
    (2.45, -2.30),  # Privateer lifepath icons x rounds left
    (1.87, -0.93),  # Hooligang lifepath icons x rounds left
    (1.93, -1.82),  # Rover lifepath icons x rounds left
    (-0.14, -6.22),  # faction target icons (x live)
    (1.50, -0.10),  # the action under way (the mover only, ``pending_credit``)
)
"""With 2+ seats, ``projected`` is a linear model of an owner's features, each weight ``a + b * t``
(``t``: the rounds left, at most 4, over 4): fitted by least squares (numpy, a small ridge) to the
final PRESTIGE margins from the mean of 3236 positions of 300 3-player games between greedy,
automa-policy and random seats (one game in five held out: R^2 0.42 against 0.27 for the hand-set
values it replaces; the winner's log-likelihood under ``chances_from`` 0.81 against 1.00 nats). A
refit on 11,570 positions of 400 3-player games of the rules of issue 28 predicted a little better
(held out R^2 0.62 against 0.58 for these) but played worse (the search against two greedy seats
71.5% against 79.0% over the same 100 games), so these stay."""
SOLO_WEIGHTS: tuple[tuple[float, float], ...] = (
    (0.98, -0.49),  # the seat's PRESTIGE now minus the automa's
    (1.05, -3.49),  # the open contests' expected change, the seat's minus the automa's
    (4.02, 3.66),  # the seat's crews on the mini-map (x live)
    (0.13, -0.71),  # the automa's crews on the mini-map (x live)
    (-3.08, -4.71),  # the seat's crews not yet placed (x live x min(1, rounds left))
    (0.22, 3.39),  # the automa's crews not yet placed (the same)
    (-0.32, -0.16),  # the seat's resources (x live)
    (0.55, -1.74),  # Corpocrat lifepath icons x rounds left
    (-0.12, 0.16),  # Privateer lifepath icons x rounds left
    (0.07, -0.80),  # Hooligang lifepath icons x rounds left
    (0.19, 0.50),  # Rover lifepath icons x rounds left
    (-5.54, -6.83),  # the seat's faction target icons (x live)
    (4.30, 4.02),  # the automa's faction target icons (x live)
    (1.61, -2.09),  # the action under way (``pending_credit``)
)
"""Solo, ``projected`` gives the seat the projected margin over the automa (and the automa 0): a
linear model as ``FITTED_WEIGHTS``, fitted (ridge 1000) to the final margins of 11,872 positions of
900 solo games of the rules of issue 28 (tubes from the 14 sections only, no faction meeting without
a hex for the crew) played by the automa policy, greedy and random (one game in five held out: R^2
0.52 against 0.44 for the weights fitted on the earlier rules; the win's log-likelihood 0.27
against 0.32 nats). Those earlier weights, fitted to 5855 positions of 600 solo games of the earlier
rules, had held out R^2 0.51 there."""
SOLO_TEMPERATURE = (10.0, 4.0)
"""Solo, the logistic's temperature ``a + b * min(rounds left, 4)``, fitted with the weights."""
FITTED_TEMPERATURE = (14.0, 1.0)
"""With 2+ seats, the softmax temperature ``a + b * min(rounds left, 4)``, fitted with the weights."""
LEVEL_SPREAD = (0.35, 0.45)
"""A Stratos level's open contest: the logistic's width over the lead in crews, a constant plus per
round left (up to 4)."""
TUBE_SPREAD = (0.35, 0.45)
"""A waste tube's open contest, the same way."""
TARGET_VALUE = 1.2
"""PRESTIGE per faction target icon beyond what bounties and sets score now."""


class Evaluator:
    """Projections and win chances for a game (its content and caches)."""

    def __init__(self, ctx: Ctx) -> None:
        self.ctx = ctx
        self.card_value = [self._card_value(i) for i in range(len(ctx.content.intel))]
        self.bounty_tf = [(BOUNTY_PRESTIGE[b.tier], b.faction) for b in ctx.content.bounties]

    def _card_value(self, card: int) -> float:
        intel = self.ctx.content.intel[card]
        return len(intel.icons) * ICON_ROUND_VALUE[intel.faction] * 2.0 + TARGET_VALUE

    def rounds_left(self, s: CytressState) -> float:
        """Rounds expected after this one: solo to round 5; else from the tube sections left
        (about 1.5 sections per player per round), at most the variant's limit."""
        if s.phase == OVER:
            return 0.0
        if s.solo:
            return float(max(0, SOLO_ROUNDS - max(s.round, 1)))
        if s.end_triggered:
            return 0.0
        left = s.tubes_left / (1.5 * s.num_players)
        if s.round_limit:
            left = min(left, float(max(0, s.round_limit - max(s.round, 1))))
        return left

    def card_counts(self, s: CytressState, o: int) -> tuple[list[int], int, int]:
        """Owner ``o``'s intel cards counted: (its faction target icons per faction, its level 2
        reward base (the longest lifepath; the automa's: its most cards of one faction), its bounty
        PRESTIGE), the numbers ``scoring.card_facts`` counts. ``features.py`` reads them too."""
        intel_target = self.ctx.intel_target
        targets = [0, 0, 0, 0]
        if s.solo and o == AUTOMA:
            assert s.automa is not None
            per_faction = [0, 0, 0, 0]
            for c in s.automa.intel:
                targets[intel_target[c]] += 1
                per_faction[self.ctx.intel_faction[c]] += 1
            longest = max(per_faction)
        else:
            longest = 0
            for p in s.players[o].lifepaths:
                longest = max(longest, len(p))
                for c in p:
                    targets[intel_target[c]] += 1
        held = s.rebels[o].bounties
        if s.bounty_best and len(held) > 1:
            bounty = bounty_prestige(self.ctx.content, held, targets, best=True)
        else:
            bounty = 0
            for b in held:
                per_icon, faction = self.bounty_tf[b]
                bounty += per_icon * targets[faction]
        return targets, longest, bounty

    def totals(self, s: CytressState) -> tuple[list[int], list[int]]:
        """Per owner, the rebellion's PRESTIGE now and its faction target icons: the same numbers
        as ``scoring.rebellion`` over ``scoring.card_facts`` (``tests/cytress/test_engine.py``
        checks), without building the tallies (this runs at every leaf of a search)."""
        owners = s.owners
        totals = [0] * owners
        icons = [0] * owners
        bases = []
        stratos = [r.stratos for r in s.rebels]
        for o in range(owners):
            targets, longest, bounty = self.card_counts(s, o)
            a, b, c = stratos[o]
            totals[o] = CREW_PRESTIGE[0] * a + CREW_PRESTIGE[1] * b + CREW_PRESTIGE[2] * c + bounty
            icons[o] = sum(targets)
            bases.append((a + b + c, longest, min(targets)))
        for k in range(LEVELS):
            best = max(stratos[o][k] for o in range(owners))
            if best:
                for o in range(owners):
                    if stratos[o][k] == best:
                        totals[o] += LEVEL_REWARD[k] * bases[o][k]
        crew, adjacent = s.crew, s.map.layout.adjacent
        for h, height in enumerate(s.tube):
            if height:
                counts = [0] * owners
                for n in adjacent[h]:
                    x = crew[n]
                    if x >= 0:
                        counts[x] += 1
                who = strict_leader(counts)
                if who >= 0:
                    totals[who] += TUBE_PRESTIGE[height]
        return totals, icons

    def projected(self, s: CytressState, tallies: Sequence[Tally] | None = None) -> list[float]:
        """Per owner, projected final PRESTIGE (``tallies``: the rebellion of ``s``, if known)."""
        if tallies is None:
            now, icons = self.totals(s)
        else:
            now, icons = [t.total for t in tallies], [sum(t.facts.targets) for t in tallies]
        if s.phase == OVER:
            return [float(t) for t in now]
        later = self.rounds_left(s)
        contests = self.open_contests(s, later)
        if not s.solo:
            return self.fitted_values(s, now, icons, contests, later)
        return [self._solo_margin(s, now, icons, contests, later), 0.0]

    def fitted_values(
        self,
        s: CytressState,
        now: Sequence[int],
        icons: Sequence[int],
        contests: Sequence[float],
        later: float,
    ) -> list[float]:
        """``projected`` with 2+ seats: per owner, ``FITTED_WEIGHTS`` over its features, given the
        owners' PRESTIGE ``now`` and target ``icons`` (``totals``), their ``open_contests`` and the
        rounds left (``later``: ``rounds_left``). ``features.py`` turns them into win chances."""
        live, w = _blend(FITTED_WEIGHTS, later)
        crew, reach = s.crew, live * min(1.0, later)
        pending = self.pending_credit(s, later) if 0 <= s.actor < s.num_players else 0.0
        out = []
        for o, total in enumerate(now):
            own = s.players[o].icons
            v = (
                w[0] * total
                + w[1] * contests[o]
                + w[2] * crew.count(o) * live
                + w[3] * s.rebels[o].unused * reach
                + w[4] * sum(s.players[o].resources) * live
                + later
                * (
                    w[5] * sum(own[CORPOCRAT])
                    + w[6] * sum(own[PRIVATEER])
                    + w[7] * sum(own[HOOLIGANG])
                    + w[8] * sum(own[ROVER])
                )
                + w[9] * icons[o] * live
            )
            if o == s.actor:
                v += w[10] * pending
            out.append(v)
        return out

    def _solo_margin(
        self,
        s: CytressState,
        now: Sequence[int],
        icons: Sequence[int],
        contests: Sequence[float],
        later: float,
    ) -> float:
        """Solo: the seat's projected margin over the automa (``SOLO_WEIGHTS``)."""
        live, w = _blend(SOLO_WEIGHTS, later)
        crew, reach, own = s.crew, live * min(1.0, later), s.players[0].icons
        v = (
            w[0] * (now[0] - now[AUTOMA])
            + w[1] * (contests[0] - contests[AUTOMA])
            + w[2] * crew.count(0) * live
            + w[3] * crew.count(AUTOMA) * live
            + w[4] * s.rebels[0].unused * reach
            + w[5] * s.rebels[AUTOMA].unused * reach
            + w[6] * sum(s.players[0].resources) * live
            + later
            * (
                w[7] * sum(own[CORPOCRAT])
                + w[8] * sum(own[PRIVATEER])
                + w[9] * sum(own[HOOLIGANG])
                + w[10] * sum(own[ROVER])
            )
            + w[11] * icons[0] * live
            + w[12] * icons[AUTOMA] * live
        )
        if s.actor == 0:
            v += w[13] * self.pending_credit(s, later)
        return v

    def open_contests(self, s: CytressState, later: float) -> list[float]:
        """Per owner, what the majorities still open are expected to add to (or take from) what they
        score now: each Stratos level bonus and each waste tube is scored with the chance of ruling it
        at the end instead of the current ruler (a logistic of the lead, wider with the rounds left,
        and for a tube only while a hex around it is empty)."""
        owners = s.owners
        out = [0.0] * owners
        stratos = [r.stratos for r in s.rebels]
        spread = LEVEL_SPREAD[0] + LEVEL_SPREAD[1] * min(later, 4.0)
        bases: list[tuple[int, int, int]] = []
        for o in range(owners):
            _, longest, sets = self._bases(s, o)
            a, b, c = stratos[o]
            bases.append((a + b + c, longest, sets))
        for k in range(LEVELS):
            counts = [stratos[o][k] for o in range(owners)]
            best = max(counts)
            reward = LEVEL_REWARD[k]
            for o in range(owners):
                base = bases[o][k]
                if not base:
                    continue
                mine = counts[o]
                rival = max(c for x, c in enumerate(counts) if x != o)
                held = 1.0 if best and mine == best else 0.0
                if mine == 0 and s.rebels[o].unused == 0 and o not in s.crew:
                    chance = 0.0  # no crew left to climb with
                else:
                    chance = _logistic((mine - rival + 0.5) / spread)
                out[o] += reward * base * (chance - held)
        self._open_tubes(s, later, out)
        return out

    def _open_tubes(self, s: CytressState, later: float, out: list[float]) -> None:
        owners = s.owners
        crew, adjacent = s.crew, s.map.layout.adjacent
        spread = TUBE_SPREAD[0] + TUBE_SPREAD[1] * min(later, 4.0)
        for h, height in enumerate(s.tube):
            if not height:
                continue
            counts, empty = tube_neighbours(adjacent[h], crew, s.tube, owners)
            if not empty:
                continue
            who = strict_leader(counts)
            worth = TUBE_PRESTIGE[height]
            for o in range(owners):
                rival = max(c for x, c in enumerate(counts) if x != o)
                lead = counts[o] - rival
                if lead + empty < 1 and lead <= 0:
                    continue  # cannot be won any more (unless by spying)
                chance = _logistic((lead - 0.5) / spread)
                out[o] += worth * (chance - (1.0 if who == o else 0.0))

    def _bases(self, s: CytressState, o: int) -> tuple[int, int, int]:
        """An owner's faction target icons, longest lifepath and complete sets."""
        targets, longest, _ = self.card_counts(s, o)
        return sum(targets), longest, min(targets)

    def pending_credit(self, s: CytressState, later: float) -> float:
        """The value of what the action under way has paid for and not yet received (an intel card
        to take, a crew to place, a tube to drop), credited to the seat to move; ``later``: the rounds
        left (``rounds_left``)."""
        step, p = s.step, s.pending
        if step in (INTEL, FIXER_INTEL):
            rows = (s.intel_row[p.pad],) if step == INTEL else s.intel_row
            values = [self.card_value[c] for row in rows for c in row if c >= 0]
            card = max(values, default=0.0) * min(1.0, 0.3 + later / 3)
            crew = MAP_CREW_VALUE if step == INTEL and s.rebels[s.actor].unused > 0 else 0.0
            return card + crew
        if step == CREW:
            return MAP_CREW_VALUE
        if step in (STRATOLITE, PAYMENT, HEIGHT):
            return self._tube_credit(s)
        if step == TUBE:
            return CREW_PRESTIGE[p.height - 1] + 0.5 * TUBE_PRESTIGE[p.height] - MAP_CREW_VALUE
        return 0.0

    def _tube_credit(self, s: CytressState) -> float:
        """A tube drop under way (Stratolite, payment or height still to choose): the best height's
        worth less what it will cost, over the resources it may be paid in."""
        seat, p = s.actor, s.pending
        if s.step == STRATOLITE:
            cards = [c for c in (*s.strat_row, s.players[seat].reserved) if c >= 0]
            resources = sorted({self.ctx.content.stratolites[c].resource for c in cards})
        elif p.resource >= 0:
            resources = [p.resource]
        else:
            resources = [0, 1, 2, 3]
        best = 0.0
        for r in resources:
            have = s.players[seat].resources[r]
            for h in (1, 2, 3):
                cost = cost_after_discount(s.players[seat].icons, r, TUBE_COST[h])
                if cost <= have:
                    worth = CREW_PRESTIGE[h - 1] + 0.5 * TUBE_PRESTIGE[h] - MAP_CREW_VALUE
                    best = max(best, worth - RESOURCE_VALUE * cost)
        return best

    def win_chances(self, s: CytressState) -> tuple[float, ...]:
        """Per seat, a probability of winning (summing to 1 with 2+ seats)."""
        return self.chances_from(s, self.projected(s))

    def chances_from(self, s: CytressState, proj: Sequence[float]) -> tuple[float, ...]:
        """``win_chances`` from the projections ``proj`` of ``s``."""
        later = self.rounds_left(s)
        if s.solo:
            a, b = SOLO_TEMPERATURE
            temperature = a + b * min(later, 4.0)
            margin = proj[0] - proj[AUTOMA]
            return (1.0 / (1.0 + math.exp(-margin / temperature)),)
        a, b = FITTED_TEMPERATURE
        return _softmax(proj, a + b * min(later, 4.0))


def _blend(weights: Sequence[tuple[float, float]], later: float) -> tuple[float, list[float]]:
    """(how much what stands on the board still counts: 1 with rounds left, 0.45 in the last; each
    weight pair ``(a, b)`` as ``a + b * t``, ``t`` the rounds left out of 4)."""
    t = min(later, 4.0) / 4.0
    return (1.0 if later > 0 else 0.45), [a + b * t for a, b in weights]


def _logistic(x: float) -> float:
    if x < -30.0:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def _softmax(values: Sequence[float], temperature: float) -> tuple[float, ...]:
    top = max(values)
    weights = [math.exp((v - top) / temperature) for v in values]
    total = sum(weights)
    return tuple(w / total for w in weights)
