"""The rebellion: final scoring (rule: cytress/score-crews-on-stratos, cytress/score-stratos-rewards,
cytress/score-waste-tubes, cytress/score-bounties; solo: cytress/solo-game-end).

Pure functions over plain data, so that the solvers (``solver/cytress/``) score what-if
positions with the very same rules. :func:`card_facts` reads the per-owner numbers the cards
decide (complete target sets, the level 2 count, bounty PRESTIGE); :func:`rebellion` scores the
board (crews on Stratos, level majorities, waste tubes) on top of them.

rule: cytress/scoring-example - the rulebook's worked example (the Green player, 111 PRESTIGE) scores
as printed with these functions (``tests/cytress/test_scoring.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.cytress.board import CREW_PRESTIGE, TUBE_PRESTIGE, adjacent_counts, level_leaders, strict_leader
from games.cytress.content import Content
from games.cytress.state import AUTOMA, LEVELS, CytressState

__all__ = [
    "BOUNTY_PRESTIGE",
    "LEVEL_REWARD",
    "CardFacts",
    "Tally",
    "TubeResult",
    "bounty_prestige",
    "bounty_weights",
    "card_facts",
    "final_scores",
    "rebellion",
    "winners",
]

LEVEL_REWARD: tuple[int, ...] = (3, 3, 6)
"""rule: cytress/score-stratos-rewards - PRESTIGE per crew on Stratos (level 1), per card in the
longest lifepath (level 2), per complete set of faction target icons (level 3)."""
BOUNTY_PRESTIGE: tuple[int, ...] = (0, 2, 1)
"""rule: cytress/score-bounties - PRESTIGE per matching target icon for a tier 1 / tier 2 bounty."""


@dataclass(frozen=True, slots=True)
class CardFacts:
    """What an owner's intel cards and bounties are worth at the rebellion.

    Attributes:
        targets: faction target icons per faction on its intel cards.
        sets: complete sets of the four target icons (level 3 reward base).
        longest: cards in its longest lifepath; for the automa, cards of the faction it took most
            of (rule: cytress/solo-game-end) (level 2 reward base).
        bounty: PRESTIGE from its bounties.
    """

    targets: tuple[int, ...]
    sets: int
    longest: int
    bounty: int


@dataclass(frozen=True, slots=True)
class TubeResult:
    """One waste tube at the rebellion.

    Attributes:
        hex: where it stands.
        height: 1-3 sections.
        counts: per owner, crews on the hexes adjacent to it.
        controller: the owner with the majority (-1: tied or nobody).
        prestige: what the controller scores for it.
    """

    hex: int
    height: int
    counts: tuple[int, ...]
    controller: int
    prestige: int


@dataclass(frozen=True, slots=True)
class Tally:
    """One owner's PRESTIGE at the rebellion.

    Attributes:
        owner: the seat (or the automa).
        total: total PRESTIGE.
        crews: crews on Stratos per level (1-3).
        crew_prestige: PRESTIGE for crews on Stratos.
        rewards: PRESTIGE for each level's majority (levels 1-3; 0 without the majority).
        majority: per level, whether the owner has the absolute or tied majority.
        tube_prestige: PRESTIGE for waste tubes controlled.
        tubes: the hexes of the tubes it controls.
        bounty_prestige: PRESTIGE for bounties.
        facts: the card facts behind the rewards.
    """

    owner: int
    total: int
    crews: tuple[int, ...]
    crew_prestige: int
    rewards: tuple[int, ...]
    majority: tuple[bool, ...]
    tube_prestige: int
    tubes: tuple[int, ...]
    bounty_prestige: int
    facts: CardFacts


def card_facts(content: Content, state: CytressState) -> tuple[CardFacts, ...]:
    """Per owner, its target icons, complete sets, level 2 count and bounty PRESTIGE."""
    out = []
    for o in range(state.owners):
        if state.solo and o == AUTOMA:
            assert state.automa is not None
            cards: Sequence[int] = state.automa.intel
            per_faction = [0, 0, 0, 0]
            for c in cards:
                per_faction[content.intel[c].faction] += 1
            longest = max(per_faction)  # rule: cytress/solo-game-end
        else:
            paths = state.players[o].lifepaths
            cards = [c for p in paths for c in p]
            longest = max(len(p) for p in paths)  # rule: cytress/score-stratos-rewards (level 2)
        targets = [0, 0, 0, 0]
        for c in cards:
            targets[content.intel[c].target] += 1
        bounty = bounty_prestige(content, state.rebels[o].bounties, targets, best=state.bounty_best)
        out.append(CardFacts(tuple(targets), min(targets), longest, bounty))
    return tuple(out)


def bounty_prestige(content: Content, bounties: Sequence[int], targets: Sequence[int], *, best: bool) -> int:
    """rule: cytress/score-bounties - PRESTIGE for an owner's bounties: per bounty, 2 (tier 1) or 1
    (tier 2) per matching faction target icon on its intel cards ("Each bounty also provides
    prestige": cytress/meet-the-enforcers; two bounties against one faction pay 3 per icon).
    ``best`` (the ``bounty_scoring`` variant ``best``): a faction's icons are paid once, at the best
    tier held against it."""
    per_icon = bounty_weights(content, bounties, best=best)
    return sum(p * t for p, t in zip(per_icon, targets, strict=True))


def bounty_weights(content: Content, bounties: Sequence[int], *, best: bool) -> tuple[int, ...]:
    """rule: cytress/score-bounties - per faction, the PRESTIGE an owner's bounties pay per target
    icon of that faction on its intel cards (see :func:`bounty_prestige`)."""
    per_icon = [0, 0, 0, 0]
    for b in bounties:
        card = content.bounties[b]
        value = BOUNTY_PRESTIGE[card.tier]
        f = card.faction
        per_icon[f] = max(per_icon[f], value) if best else per_icon[f] + value
    return tuple(per_icon)


def rebellion(
    facts: Sequence[CardFacts],
    stratos: Sequence[Sequence[int]],
    crew: Sequence[int],
    tube: Sequence[int],
    adjacent: Sequence[Sequence[int]],
) -> tuple[tuple[Tally, ...], tuple[TubeResult, ...]]:
    """Every owner's PRESTIGE and every tube's control, from the board and the card facts."""
    owners = len(facts)
    tubes: list[TubeResult] = []
    tube_points = [0] * owners
    tube_hexes: list[list[int]] = [[] for _ in range(owners)]
    for h, height in enumerate(tube):
        if not height:
            continue
        counts = adjacent_counts(adjacent[h], crew, owners)
        who = strict_leader(counts)  # rule: cytress/score-waste-tubes - a tie scores nothing
        points = TUBE_PRESTIGE[height] if who >= 0 else 0
        if who >= 0:
            tube_points[who] += points
            tube_hexes[who].append(h)
        tubes.append(TubeResult(h, height, tuple(counts), who, points))
    leaders = [level_leaders(stratos, owners, level) for level in (1, 2, 3)]
    tallies = []
    for o in range(owners):
        crews = tuple(stratos[o])
        crew_points = sum(c * p for c, p in zip(crews, CREW_PRESTIGE, strict=True))
        f = facts[o]
        bases = (sum(crews), f.longest, f.sets)
        majority = tuple(o in leaders[k] for k in range(LEVELS))
        rewards = tuple(LEVEL_REWARD[k] * bases[k] if majority[k] else 0 for k in range(LEVELS))
        total = crew_points + sum(rewards) + tube_points[o] + f.bounty
        tallies.append(
            Tally(
                o,
                total,
                crews,
                crew_points,
                rewards,
                majority,
                tube_points[o],
                tuple(tube_hexes[o]),
                f.bounty,
                f,
            )
        )
    return tuple(tallies), tuple(tubes)


def final_scores(
    content: Content, state: CytressState, adjacent: Sequence[Sequence[int]]
) -> tuple[Tally, ...]:
    """rule: cytress/score-crews-on-stratos ... cytress/score-bounties - every owner's PRESTIGE as if
    the rebellion broke out now (exact at the end of the game)."""
    tallies, _ = rebellion(
        card_facts(content, state), [r.stratos for r in state.rebels], state.crew, state.tube, adjacent
    )
    return tallies


def winners(totals: Sequence[int], *, solo: bool) -> tuple[int, ...]:
    """cytress/core-concepts - the owners with the most PRESTIGE ("the tied players rule
    Stratos and Cytress together"); solo (rule: cytress/solo-game-end): the seat wins only with
    strictly more than the automa ("if scores are tied, no one wins")."""
    if solo:
        return (0,) if totals[0] > totals[AUTOMA] else ()
    best = max(totals)
    return tuple(o for o, t in enumerate(totals) if t == best)
