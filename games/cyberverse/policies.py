"""Rule-based players: ``greedy``, an AI Organization that looks one decision ahead.

It values a position for its seat by victory points (rule: cyberverse/end-of-game), Resources,
validated Missions, and Agents standing where its open Missions are (and on a Hacking position),
and plays the legal action whose result values highest (ties: the first in legal order).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from games.cyberverse import engine, scoring
from games.cyberverse.content import Content
from games.cyberverse.investigation import HACK
from games.cyberverse.state import Action, State

if TYPE_CHECKING:
    from games.cyberverse.game import CyberverseGame

__all__ = ["Greedy", "value"]


def value(s: State, c: Content, seat: int) -> float:
    """The greedy player's value of ``s`` for ``seat``: victory points, Resources (less the
    salaries they cannot pay), validated Missions, and each Agent's closeness to an open Mission
    (its district; for a blue Mission, the Hacking position of that district)."""
    b = scoring.breakdown(s, c)[seat]
    org = s.orgs[seat]
    v = 10.0 * b.total + org.money / 100.0 + 8.0 * len(org.solved) + (6.0 if org.story >= 0 else 0.0)
    tests: set[int] = set()
    hacks: set[int] = set()
    for k, card in enumerate(org.cases):
        done = org.done[k]
        v += 4.0 * bin(done).count("1")
        for m, mission in enumerate(c.investigations[card].missions):
            if not done >> m & 1:
                (hacks if mission.kind == HACK else tests).add(mission.district)
    team = [a for a in s.agents if a.org == seat]
    salaries = sum(c.faces[2 * a.sheet + a.side].salary for a in team)
    v -= max(0, salaries - org.money) / 50.0
    for n, a in enumerate(team):
        v += (6.0 if n == 0 else 3.0) + 0.5 * a.health + 1.5 * len(a.kit)
        if a.district < 0:
            continue
        board = c.boards[s.city.boards[a.district]]
        if a.district in tests:
            v += 3.0
        if a.district in hacks:
            hack_zone = board.positions[board.hacking][0]
            v += 4.0 - 0.5 * board.distance[a.zone][hack_zone] + (2.0 if a.spot == board.hacking else 0.0)
    return v


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
