"""Rule-based players: ``greedy``, an AI Organization that looks one decision ahead.

It values a position for its seat by victory points (rule: cyberverse/end-of-game), Resources,
validated Missions, and Agents standing where its open Missions are, by the odds of their tests
(on the Hacking position for a blue Mission; on a board no rival holds for a red one), or on their
way there, and plays the legal action whose result values highest (ties broken at random). Playing
a Henchman it sends it at its target.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING

from games.core.cache import PerContent
from games.cyberverse import engine
from games.cyberverse.agents import feature
from games.cyberverse.content import HACKING, Content
from games.cyberverse.investigation import HACK, INFLUENCE, INFLUENCE_MAX, TEST, hack_gain
from games.cyberverse.modifiers import MODIFIER_DECK
from games.cyberverse.scoring import DISTRICT_BONUS, OVERALL_BONUS, VP_PER_D
from games.cyberverse.state import (
    ACTIVATION,
    AGENT,
    C_STORY,
    D_FIGHT_MOVE,
    D_KEEP_STORY,
    HENCHMAN,
    INVESTIGATION,
    Action,
    Org,
    State,
)

if TYPE_CHECKING:
    from games.cyberverse.game import CyberverseGame

__all__ = ["Greedy", "action_priors", "action_values", "value", "values", "win_chances", "win_features"]


def value(s: State, c: Content, seat: int) -> float:
    """The greedy player's value of ``s`` for ``seat``: victory points, Resources (less the
    salaries they cannot pay), validated Missions, and each Agent's closeness to an open Mission
    (its district, by the odds of the tests it may take there; for a blue Mission, the Hacking
    position of that district; a red Mission's district counts only while no rival's Agent stands
    there, rule: cyberverse/influence), or its way out toward one; an Agent trained while away
    from every open Mission counts for less (it cannot be activated this turn)."""
    return _value(s, c, seat, _bonus(s)[seat])


class _Tables:
    """Content looked up by :func:`values`, flattened once per content pack."""

    __slots__ = ("content", "exit", "hack_bonus", "missions", "salary", "story_vp", "travel")

    def __init__(self, c: Content) -> None:
        self.content = c
        self.story_vp = tuple(st.vp for st in c.stories)
        self.missions = tuple(
            tuple(
                (
                    m,
                    mission.kind,
                    mission.district,
                    mission.feature if mission.kind == TEST else -1,
                    mission.threshold,
                )
                for m, mission in enumerate(card.missions)
            )
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
        self.exit = tuple(
            tuple(board.distance[z][board.entry] for z in range(board.zones)) for board in c.boards
        )
        self.travel = c.travel


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


class _Open:
    """An Organization's open Missions (not validated) by kind: their districts, and the tests' and
    Hackings' numbers."""

    __slots__ = ("hack_list", "hacks", "reds", "test_list", "tests")

    def __init__(self, tb: _Tables, org: Org) -> None:
        self.tests: set[int] = set()  # districts of open tests (feature and combat Missions)
        self.hacks: set[int] = set()  # districts of open Hackings
        self.reds: set[int] = set()  # districts of open red (influence) Missions
        self.test_list: list[tuple[int, int, int]] = []  # (district, feature, threshold); combat: -1
        self.hack_list: list[tuple[int, int]] = []  # (district, threshold)
        for k, card in enumerate(org.cases):
            done = org.done[k]
            for m, kind, district, feat, threshold in tb.missions[card]:
                if m in done:
                    continue
                if kind == HACK:
                    self.hacks.add(district)
                    self.hack_list.append((district, threshold))
                elif kind == INFLUENCE:
                    self.reds.add(district)
                else:
                    self.tests.add(district)
                    self.test_list.append((district, feat, threshold))


def _value(s: State, c: Content, seat: int, bonus: int) -> float:
    tb = _tables(c)
    org = s.orgs[seat]
    money = org.money
    vp = sum(tb.story_vp[k] for k in org.solved) + sum(org.influence) + bonus + money // VP_PER_D
    story = org.story >= 0 or (s.step in _STORY_DRAW and s.ctx.seat == seat)
    v = 10.0 * vp + money / 100.0 + 8.0 * len(org.solved) + (6.0 if story else 0.0)
    v += 4.0 * sum(len(done) for done in org.done)
    todo = _Open(tb, org)
    rivals = {a.district for a in s.agents if a.org != seat and a.district >= 0}
    # where an Agent has work: a red Mission needs the board to itself (rule: cyberverse/influence)
    reds = todo.reds - rivals
    goals = todo.tests | todo.hacks | reds
    team = [a for a in s.agents if a.org == seat]
    salaries = sum(tb.salary[2 * a.sheet + a.side] for a in team if not (a.trained or a.rescued))
    v -= max(0, salaries - money) / SHORTFALL
    for i, a in enumerate(team):
        v += (6.0 if i == 0 else 3.0) + 0.5 * a.health + 1.5 * len(a.kit)
        d = a.district
        near = d in goals
        if a.trained and not near:
            v -= TRAINED_AWAY
        if d < 0:
            continue
        board = s.city.boards[d]
        if not near and goals:  # on its way out toward an open Mission elsewhere
            far = min(tb.travel[d][x] for x in goals)
            v += max(0.0, 2.0 - 0.4 * (tb.exit[board][a.zone] + far))
        if d in todo.tests:  # each open Mission of the district it may test, by its odds
            for district, feat, threshold in todo.test_list:
                if district == d:
                    v += 1.0 + 2.5 * (0.5 if feat < 0 else _odds(feature(c, a, feat), threshold))
        if d in reds:
            v += 3.0
        if d in todo.hacks:
            hack = feature(c, a, HACKING)
            odds = max(_odds(hack, threshold) for district, threshold in todo.hack_list if district == d)
            v += tb.hack_bonus[board][a.zone][a.spot + 1] * (0.2 + 0.8 * odds)
    return v


def _odds(total: int, threshold: int) -> float:
    """The chance that ``total`` plus a Modifier card of a full deck beats ``threshold`` (rule:
    cyberverse/feature-test; the greedy's estimate, blind to the cards already drawn)."""
    return sum(1 for x in MODIFIER_DECK if total + x > threshold) / len(MODIFIER_DECK)


SHORTFALL = 50.0
"""D of salaries the Resources cannot pay per value point lost (rule: cyberverse/payday: an unpaid
Agent leaves; an Organization with no D and no Agent at work cannot earn any)."""
TRAINED_AWAY = 5.0
"""Value lost by an Agent trained this turn while it stands away from every open Mission: it cannot
be activated to go there (rule: cyberverse/strategy-phase)."""


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


WIN_WEIGHTS = (0.1316, 0.2193, -0.0847, 0.2193, 0.848, 0.2072, 0.1773, 0.0128)
"""The fitted win model's weights on each seat's features now (:func:`win_features`): victory
points, Influence tokens, lead over the next Organization's Influence (when ahead), the same when
behind, the Investigation phase to come (:func:`_pending`, VP), Resources (thousands of D), the rest
of the greedy value (Missions, Agents, VP), resolved stories. (Influence less the lead when behind
is the top Influence, the same for every seat, so the softmax sees only their sum: the fit gives
them equal weights.)"""
WIN_WEIGHTS_LEFT = (-0.0705, -0.12, -0.2419, -0.12, -0.5003, -0.2387, 0.0732, 0.3671)
"""... and on the same features times the fraction of the game left (:func:`game_left`).

Both fitted by conditional logit (maximum likelihood of the actual winner among the seats) on
66,808 positions of the first 960 of 1,200 greedy and epsilon-greedy games with 2-4 players and
no turn cap, seeds 50000-51199 (disjoint from the bench's), on the rules of issue 28 and its pack
before every threshold became 1; held out (the last 240 games, 16,407 positions): log-loss 0.941
against 1.164 for chance and 1.028 for the weights fitted on the 12-turn games before, winner
ranked first 56.7% (2 players 0.691 against 0.693 chance: a 2-player game among greedy seats is
close to a coin toss from most of its positions; 4 players 1.064 against 1.386). Fitted again on
the final pack 2.0 (``python -m bench.cyberverse --only fit``): held out 0.903 fitted against
0.908 with these weights, and 0.702 against 0.693 with 2 players, so these stay."""


WIN_WEIGHTS_4P = (0.1885, 0.301, -0.0457, 0.301, 1.1751, 0.0356, 0.2811, 0.2741)
"""The same weights for 4 players, fitted on 4-player games of the greedy player of issue 28 (its
Story-card draws, Missions and Henchmen): ..."""
WIN_WEIGHTS_LEFT_4P = (-0.1652, -0.1361, -0.0799, -0.1361, -0.6257, -0.2416, 0.0886, 0.402)
"""... and times the fraction of the game left. Fitted as above (``python -m bench.cyberverse
--only fit --fit-players 4``) on 61,807 positions of the first 960 of 1,200 4-player games of greedy
seats that play at random with 0, 0, 5 or 15% probability, seeds 60000-61199 (disjoint from the
bench's); held out (the last 240 games, 15,390 positions): log-loss 0.950 against 0.997 with
:data:`WIN_WEIGHTS` and 1.386 for chance, the winner ranked first 59.0% against 57.4%. The search
seat at 4 players was measured with them (docs/cyberverse.md, The AI)."""


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


def game_left(s: State) -> float:
    """The fraction of the game left, from 1 at the start to 0 at the end: the Story cards the
    leading Organization has still to resolve (rule: cyberverse/end-of-game: 6, 5 or 4), or with
    the ``max_turns`` cap the turns left to it when fewer."""
    goal = engine.STORIES_TO_WIN[s.players]
    left = max(0.0, 1.0 - max(len(o.solved) for o in s.orgs) / goal)
    cap = s.options.max_turns
    if cap:
        left = min(left, max(0, cap - s.turn) / cap)
    return left


def win_chances(s: State, c: Content, features: list[tuple[float, ...]] | None = None) -> tuple[float, ...]:
    """Each seat's chance to win: a conditional logit (softmax over the seats) of
    :func:`win_features` (``features`` when the caller has them already), weighted by
    :data:`WIN_WEIGHTS` plus :data:`WIN_WEIGHTS_LEFT` times the fraction of the game left
    (:func:`game_left`); with 4 players, :data:`WIN_WEIGHTS_4P` and :data:`WIN_WEIGHTS_LEFT_4P`."""
    left = game_left(s)
    now, late = (WIN_WEIGHTS_4P, WIN_WEIGHTS_LEFT_4P) if s.players == 4 else (WIN_WEIGHTS, WIN_WEIGHTS_LEFT)
    weights = [w + left * x for w, x in zip(now, late, strict=True)]
    rows = win_features(s, c) if features is None else features
    utils = [sum(w * f for w, f in zip(weights, feats, strict=True)) for feats in rows]
    top = max(utils)
    exps = [math.exp(u - top) for u in utils]
    total = sum(exps)
    return tuple(e / total for e in exps)


PRIOR_SCALE = 5.0
"""Value points between two actions that make the better one e times likelier in the prior."""


def action_values(s: State, c: Content, legal: list[Action]) -> list[float]:
    """The greedy player's score of each legal action for the seat to move: the :func:`value` of its
    result, less, where the seat plays a Henchman's move in Combat, how far it leaves the Henchman
    from its target (:func:`_henchman_distance`)."""
    seat = s.actor
    fight = s.fight
    hench = s.step == D_FIGHT_MOVE and fight is not None and fight.fighters[fight.queue[0]].kind == HENCHMAN
    out = []
    for a in legal:
        after = engine.perform(s, c, a)
        v = value(after, c, seat)
        if hench:
            v -= _henchman_distance(after, c, s)
        out.append(v)
    return out


def action_priors(s: State, c: Content, legal: list[Action]) -> list[float]:
    """PUCT priors: a softmax of the greedy player's score of each action (:func:`action_values`),
    so that the search weighs the moves as the greedy player ranks them, a Henchman's included."""
    if len(legal) == 1:
        return [1.0]
    vs = action_values(s, c, legal)
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
        best, best_v = legal[0], float("-inf")
        for a, v in zip(legal, action_values(s, c, legal), strict=True):
            v += rng.random() * 1e-6
            if v > best_v:
                best, best_v = a, v
        return best


def _henchman_distance(after: State, c: Content, before: State) -> float:
    """For the Organization playing a Henchman (rule: cyberverse/combat): how far the move leaves it
    from the character it was sent against (0 once it has attacked; it attacks when in range), so
    that the greedy player sends it at its target, taking the advantageous position on the way."""
    fight = before.fight
    if (
        after.fight is None
        or fight is None
        or after.fight.target != fight.target
        or after.step != D_FIGHT_MOVE
    ):
        return 0.0
    i, j = fight.queue[0], fight.target
    board = c.boards[before.city.boards[fight.district]]
    f, g = after.fight.fighters[i], after.fight.fighters[j]
    zone = g.zone if g.kind != AGENT else next((a.zone for a in after.agents if a.sheet == g.ref), f.zone)
    spot = 0.5 if f.spot >= 0 and board.positions[f.spot][1] == 0 else 0.0
    return float(board.distance[f.zone][zone]) - spot
