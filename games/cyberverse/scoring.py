"""Victory points (one place for the rule; the scorer and the solver import it).

rule: cyberverse/end-of-game - each Organization counts the victory points on its resolved Story
cards, its Influence tokens in each district, and 1 VP per 1000 D (rounded down); a tie goes to
the Organization with the most D.
cyberverse/influence - 1 VP per Influence token placed, 1 more for the Organization with the
most Influence tokens in each district, 5 for the one with the most in all districts combined
(variant ``influence_bonus``; reading: a tie for the most earns nobody the bonus).
"""

from __future__ import annotations

from dataclasses import dataclass

from games.cyberverse.content import Content
from games.cyberverse.state import State

__all__ = [
    "DISTRICT_BONUS",
    "OVERALL_BONUS",
    "VP_PER_D",
    "VP_PER_INFLUENCE",
    "Breakdown",
    "breakdown",
    "majorities",
    "returns",
]

VP_PER_INFLUENCE = 1
"""cyberverse/influence - 1 VP for each Influence token placed."""
VP_PER_D = 1000
"""rule: cyberverse/end-of-game - 1 VP for every 1000 D remaining (round down)."""
DISTRICT_BONUS = 1
"""cyberverse/influence - the most Influence tokens in a district."""
OVERALL_BONUS = 5
"""cyberverse/influence - the most Influence tokens in all districts combined."""


@dataclass(frozen=True, slots=True)
class Breakdown:
    """One Organization's victory points, by source.

    Attributes:
        stories: VP of its resolved Story cards.
        influence: 1 per Influence token.
        majorities: district majorities (1 each) and the overall majority (5).
        money: 1 per 1000 D.
        resources: its D (the tie-break).
    """

    stories: int
    influence: int
    majorities: int
    money: int
    resources: int

    @property
    def total(self) -> int:
        """The victory points."""
        return self.stories + self.influence + self.majorities + self.money


def _sole_most(values: list[int], seat: int) -> bool:
    top = max(values)
    return top > 0 and values[seat] == top and values.count(top) == 1


def majorities(s: State, seat: int) -> tuple[tuple[int, ...], bool]:
    """The districts where the seat has the sole most Influence tokens, and whether it has the sole
    most in all districts combined; none while the ``influence_bonus`` variant is off (rule:
    cyberverse/influence)."""
    if not s.options.influence_bonus:
        return (), False
    districts = tuple(d for d in range(5) if _sole_most([o.influence[d] for o in s.orgs], seat))
    return districts, _sole_most([sum(o.influence) for o in s.orgs], seat)


def breakdown(s: State, c: Content) -> tuple[Breakdown, ...]:
    """Every Organization's victory points (rule: cyberverse/end-of-game, cyberverse/influence)."""
    out = []
    for seat, org in enumerate(s.orgs):
        districts, overall = majorities(s, seat)
        bonus = DISTRICT_BONUS * len(districts) + (OVERALL_BONUS if overall else 0)
        out.append(
            Breakdown(
                stories=sum(c.stories[k].vp for k in org.solved),
                influence=VP_PER_INFLUENCE * sum(org.influence),
                majorities=bonus,
                money=org.money // VP_PER_D,
                resources=org.money,
            )
        )
    return tuple(out)


def returns(s: State, c: Content) -> tuple[float, ...]:
    """1 to the winner (most VP, then most D), shared on a full tie, 0 to the others."""
    keys = [(b.total, b.resources) for b in breakdown(s, c)]
    best = max(keys)
    winners = [i for i, k in enumerate(keys) if k == best]
    return tuple(1.0 / len(winners) if i in winners else 0.0 for i in range(s.players))
