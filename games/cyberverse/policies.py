"""Rule-based players: ``greedy``, an AI Organization that looks one decision ahead.

It values a position for its seat by victory points (rule: cyberverse/end-of-game), Resources,
validated Missions, and Agents standing where its open Missions are (and on a Hacking position),
and plays the legal action whose result values highest (ties: the first in legal order).
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING

from games.core.cache import PerContent
from games.cyberverse import engine
from games.cyberverse.content import Content
from games.cyberverse.investigation import HACK, INFLUENCE_MAX, hack_gain
from games.cyberverse.scoring import DISTRICT_BONUS, OVERALL_BONUS, VP_PER_D
from games.cyberverse.state import ACTIVATION, C_STORY, D_KEEP_STORY, INVESTIGATION, Action, State

if TYPE_CHECKING:
    from games.cyberverse.game import CyberverseGame

__all__ = ["Greedy", "action_priors", "value", "values", "win_chances", "win_features"]


def value(s: State, c: Content, seat: int) -> float:
    """The greedy player's value of ``s`` for ``seat``: victory points, Resources (less the
    salaries they cannot pay), validated Missions, and each Agent's closeness to an open Mission
    (its district; for a blue Mission, the Hacking position of that district)."""
    return _value(s, c, seat, _bonus(s)[seat])


class _Tables:
    """Content looked up by :func:`values`, flattened once per content pack."""

    __slots__ = ("content", "hack_bonus", "missions", "salary", "story_vp")

    def __init__(self, c: Content) -> None:
        self.content = c
        self.story_vp = tuple(st.vp for st in c.stories)
        self.missions = tuple(
            tuple((1 << m, mission.kind == HACK, mission.district) for m, mission in enumerate(card.missions))
            for card in c.investigations
        )
        self.salary = tuple(face.salary for face in c.faces)
        bonus = []
        for board in c.boards:
            hack_zone = board.positions[board.hacking][0]
            bonus.append(
                tuple(
                    tuple(
                        4.0 - 0.5 * board.distance[z][hack_zone] + (2.0 if spot == board.hacking else 0.0)
                        for spot in range(-1, len(board.positions))
                    )
                    for z in range(board.zones)
                )
            )
        self.hack_bonus = tuple(bonus)


_tables: PerContent[Content, _Tables] = PerContent(_Tables)
"""The tables of a content pack, built once (``_tables(c)``)."""


def values(s: State, c: Content) -> list[float]:
    """:func:`value` for every seat (victory points as :func:`scoring.breakdown`)."""
    bonus = _bonus(s)
    return [_value(s, c, seat, bonus[seat]) for seat in range(s.players)]


def _bonus(s: State) -> list[int]:
    """Per seat, the influence majorities' victory points (rule: cyberverse/influence)."""
    orgs = s.orgs
    bonus = [0] * s.players
    if s.options.influence_bonus:
        for d in range(5):
            col = [o.influence[d] for o in orgs]
            top = max(col)
            if top > 0 and col.count(top) == 1:
                bonus[col.index(top)] += DISTRICT_BONUS
        totals = [sum(o.influence) for o in orgs]
        top = max(totals)
        if top > 0 and totals.count(top) == 1:
            bonus[totals.index(top)] += OVERALL_BONUS
    return bonus


_STORY_DRAW = frozenset({C_STORY, D_KEEP_STORY})
"""The steps of a Story card being drawn, before one is kept (rule: cyberverse/story-cards): the
Organization drawing is valued as holding one already, so that the draw itself is worth its
Action (once kept, while its Investigation cards are drawn, it holds it)."""


def _value(s: State, c: Content, seat: int, bonus: int) -> float:
    tb = _tables(c)
    org = s.orgs[seat]
    money = org.money
    vp = sum(tb.story_vp[k] for k in org.solved) + sum(org.influence) + bonus + money // VP_PER_D
    story = org.story >= 0 or (s.step in _STORY_DRAW and s.ctx.seat == seat)
    v = 10.0 * vp + money / 100.0 + 8.0 * len(org.solved) + (6.0 if story else 0.0)
    tests = 0
    hacks = 0
    missions = tb.missions
    for k, card in enumerate(org.cases):
        done = org.done[k]
        v += 4.0 * bin(done).count("1")
        for bit, hack, district in missions[card]:
            if not done & bit:
                if hack:
                    hacks |= 1 << district
                else:
                    tests |= 1 << district
    team = [a for a in s.agents if a.org == seat]
    salary = tb.salary
    salaries = sum(salary[2 * a.sheet + a.side] for a in team)
    v -= max(0, salaries - money) / 50.0
    first = True
    boards = s.city.boards
    for a in team:
        v += (6.0 if first else 3.0) + 0.5 * a.health + 1.5 * len(a.kit)
        first = False
        d = a.district
        if d < 0:
            continue
        if tests >> d & 1:
            v += 3.0
        if hacks >> d & 1:
            v += tb.hack_bonus[boards[d]][a.zone][a.spot + 1]
    return v


PENDING_INFLUENCE = 7.0
"""Value of an Influence token the Investigation phase will place for an Organization alone on a
district board (10 per VP, less for the Ambush and Combat that may come first)."""


def _pending(s: State, c: Content) -> list[float]:
    """Per seat, what the Investigation phase still to come this turn should bring: an Influence
    token on each district board where its Agents stand alone (rule: cyberverse/influence), and the
    D of a Hacking for each Agent on a Hacking position (rule: cyberverse/hacking)."""
    out = [0.0] * s.players
    phase = s.phase
    if phase < ACTIVATION or phase > INVESTIGATION:
        return out
    first = s.ctx.district if phase == INVESTIGATION else 0
    if first < 0:
        return out
    owners = [-1] * 5
    boards = s.city.boards
    hacked = phase == INVESTIGATION and s.ctx.stage > 2  # the first district's Hacking is done
    for a in s.agents:
        d = a.district
        if d < first:
            continue
        owners[d] = a.org if owners[d] in (-1, a.org) else -2
        if a.spot >= 0 and a.spot == c.boards[boards[d]].hacking and not (hacked and d == first):
            out[a.org] += hack_gain(s, c, a, d) / 100.0
    for d in range(first, 5):
        seat = owners[d]
        if seat >= 0 and s.orgs[seat].influence[d] < INFLUENCE_MAX:
            out[seat] += PENDING_INFLUENCE
    return out


WIN_WEIGHTS = (0.096, 0.4396, 0.0424, 0.4396, 0.9334, 0.0007, 0.149, 0.9497)
"""The fitted win model's weights on each seat's features now (:func:`win_features`): victory
points, Influence tokens, lead over the next Organization's Influence (when ahead), the same when
behind, the Investigation phase to come (:func:`_pending`, VP), Resources (thousands of D), the rest
of the greedy value (Missions, Agents, VP), resolved stories. (Influence less the lead when behind
is the top Influence, the same for every seat, so the softmax sees only their sum: the fit gives
them equal weights.)"""
WIN_WEIGHTS_LEFT = (-0.0549, -0.4166, -0.3192, -0.4166, -0.2939, 0.4782, -0.1304, 0.0793)
"""... and on the same features times the fraction of the game left (turns left / ``max_turns``).

Both fitted by conditional logit (maximum likelihood of the actual winner among the seats) on
48,765 positions of 1,200 greedy and epsilon-greedy games with 2-4 players, seeds 50000-51199
(disjoint from the bench's); held out (the last 240 games): log-loss 0.828 against 1.213 for
chance and 1.234 for the earlier hand-set softmax, winner ranked first 62.2% (4 players: log-loss
0.932 against 1.304 hand-set). ``python -m bench.cyberverse --fit`` regenerates them."""


def win_features(s: State, c: Content) -> list[tuple[float, ...]]:
    """Per seat, the features of the win model (see :data:`WIN_WEIGHTS`)."""
    tb = _tables(c)
    vs = values(s, c)
    pend = _pending(s, c)
    bonus = _bonus(s)
    infs = [sum(o.influence) for o in s.orgs]
    out: list[tuple[float, ...]] = []
    for i, o in enumerate(s.orgs):
        vp = sum(tb.story_vp[k] for k in o.solved) + infs[i] + bonus[i] + o.money // VP_PER_D
        lead = infs[i] - max(infs[j] for j in range(s.players) if j != i)
        out.append(
            (
                float(vp),
                float(infs[i]),
                float(max(lead, 0)),
                float(min(lead, 0)),
                pend[i] / 10.0,
                o.money / 1000.0,
                (vs[i] - 10.0 * vp) / 10.0,
                float(len(o.solved)),
            )
        )
    return out


def win_chances(s: State, c: Content) -> tuple[float, ...]:
    """Each seat's chance to win: a conditional logit (softmax over the seats) of
    :func:`win_features`, weighted by :data:`WIN_WEIGHTS` plus :data:`WIN_WEIGHTS_LEFT` times the
    fraction of the game left (the turns left to the ``max_turns`` cap, else to an authored horizon
    of 12 turns)."""
    cap = s.options.max_turns or 12
    left = max(0, cap - s.turn) / cap
    weights = [w + left * x for w, x in zip(WIN_WEIGHTS, WIN_WEIGHTS_LEFT, strict=True)]
    utils = [sum(w * f for w, f in zip(weights, feats, strict=True)) for feats in win_features(s, c)]
    top = max(utils)
    exps = [math.exp(u - top) for u in utils]
    total = sum(exps)
    return tuple(e / total for e in exps)


PRIOR_SCALE = 5.0
"""Value points between two actions that make the better one e times likelier in the prior."""


def action_priors(s: State, c: Content, legal: list[Action]) -> list[float]:
    """PUCT priors: a softmax of the greedy value of each action's result for the seat to move."""
    seat = s.actor
    if len(legal) == 1:
        return [1.0]
    vs = [value(engine.perform(s, c, a), c, seat) for a in legal]
    top = max(vs)
    weights = [math.exp((v - top) / PRIOR_SCALE) for v in vs]
    total = sum(weights)
    return [w / total for w in weights]


class Greedy:
    """One-decision lookahead on :func:`value` (an AI Organization for hosted seats and benches)."""

    def __init__(self, game: CyberverseGame) -> None:
        self.game = game

    def choose(self, s: State, rng: random.Random) -> Action:
        """The action whose resulting position values highest for the seat to move."""
        c = self.game.content_pack
        legal = engine.legal_actions(s, c)
        if len(legal) == 1:
            return legal[0]
        seat = s.actor
        best, best_v = legal[0], float("-inf")
        for a in legal:
            v = value(engine.perform(s, c, a), c, seat) + rng.random() * 1e-6
            if v > best_v:
                best, best_v = a, v
        return best
