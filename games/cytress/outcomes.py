"""Where a seat stands, in the rulebook's terms, for hints and reviews (issue 30).

A hint plays its first two moves on to the end of the round (``round_of``) along the search's line
and in sampled continuations, then compares these facts: the PRESTIGE the rebellion would give now
by scoring category (cytress/score-crews-on-stratos, cytress/score-stratos-rewards,
cytress/score-waste-tubes, cytress/score-bounties), the lead over the best rival (solo: over the
automa, cytress/solo-game-end), the contests still open (crews around waste tubes, Stratos
majorities) and what pays for the next moves (resources, crews left, lifepaths).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from games.core.face import Fact
from games.core.text import plural
from games.cytress.board import CREW_PRESTIGE, TUBE_PRESTIGE
from games.cytress.scoring import LEVEL_REWARD, Tally, card_facts, rebellion
from games.cytress.state import AUTOMA, LEVELS, RESOURCES, CytressState

if TYPE_CHECKING:
    from games.cytress.game import CytressGame

__all__ = ["ROUND_WORD", "outcome_facts", "round_of"]

ROUND_WORD = "round"
"""What :func:`round_of` counts (cytress/core-concepts: scout, travel, income, reset)."""

REWARD_BASES = ("crews on Stratos", "cards in the longest lifepath", "complete sets of target icons")
"""What each Stratos level's majority pays per (cytress/score-stratos-rewards)."""


def round_of(state: CytressState) -> int:
    """The round of ``state``, from 1 (0 while the rebel board sides are chosen)."""
    return state.round


def _tallies(game: CytressGame, s: CytressState) -> tuple[Tally, ...]:
    adjacent = game.ctx.map(s.tiles).layout.adjacent
    tallies, _ = rebellion(card_facts(game.pack, s), [r.stratos for r in s.rebels], s.crew, s.tube, adjacent)
    return tallies


def _score_facts(mine: Tally, rival: int | None, solo: bool) -> list[Fact]:
    """The total, the lead and the PRESTIGE of every scoring category, with how it is earned."""
    facts = [
        Fact(
            label="PRESTIGE if the rebellion broke out now",
            value=float(mine.total),
            unit="PRESTIGE",
            better=1,
            text=f"{mine.total} PRESTIGE if the rebellion broke out now",
        )
    ]
    if rival is not None:
        lead = mine.total - rival
        whom = "the automa" if solo else "the best rival"
        words = "leads" if lead > 0 else "trails" if lead < 0 else "ties"
        facts.append(
            Fact(
                label=f"lead over {whom}",
                value=float(lead),
                unit="PRESTIGE",
                better=1,
                text=f"{words} {whom}" + (f" by {abs(lead)} PRESTIGE" if lead else ""),
            )
        )
    return facts + _category_facts(mine)


def _category_facts(mine: Tally) -> list[Fact]:
    """The PRESTIGE of every scoring category, with how it is earned."""
    crews = " + ".join(
        f"{mine.crews[k]} on level {k + 1} × {CREW_PRESTIGE[k]}" for k in range(LEVELS) if mine.crews[k]
    )
    facts = [
        Fact(
            label="Crews on Stratos PRESTIGE",
            value=float(mine.crew_prestige),
            unit="PRESTIGE",
            better=1,
            text=f"Crews on Stratos {mine.crew_prestige:+d} PRESTIGE ({crews or 'no crew on Stratos'})",
        )
    ]
    f = mine.facts
    bases = (sum(mine.crews), f.longest, f.sets)
    for k in range(LEVELS):
        how = (
            f"the majority: {LEVEL_REWARD[k]} × {bases[k]} {REWARD_BASES[k]}"
            if mine.majority[k]
            else "no majority"
        )
        facts.append(
            Fact(
                label=f"Stratos level {k + 1} majority PRESTIGE",
                value=float(mine.rewards[k]),
                unit="PRESTIGE",
                better=1,
                text=f"Stratos level {k + 1} {mine.rewards[k]:+d} PRESTIGE ({how})",
            )
        )
    facts += [
        Fact(
            label="Waste tubes PRESTIGE",
            value=float(mine.tube_prestige),
            unit="PRESTIGE",
            better=1,
            text=f"Waste tubes {mine.tube_prestige:+d} PRESTIGE ({plural(len(mine.tubes), 'tube')} "
            f"controlled, {'/'.join(map(str, TUBE_PRESTIGE[1:]))} by height)",
        ),
        Fact(
            label="Bounties PRESTIGE",
            value=float(mine.bounty_prestige),
            unit="PRESTIGE",
            better=1,
            text=f"Bounties {mine.bounty_prestige:+d} PRESTIGE ({sum(f.targets)} target icons)",
        ),
    ]
    return facts


def _contest_facts(game: CytressGame, s: CytressState, seat: int, mine: Tally) -> list[Fact]:
    """The contests still open: crews on Stratos, crews around the waste tubes (their majorities)."""
    adjacent = game.ctx.map(s.tiles).layout.adjacent
    around = sum(1 for h, height in enumerate(s.tube) if height for n in adjacent[h] if s.crew[n] == seat)
    on_map = sum(1 for o in s.crew if o == seat)
    return [
        Fact(
            label="crews on Stratos",
            value=float(sum(mine.crews)),
            unit="crews",
            better=1,
            text=f"{plural(sum(mine.crews), 'crew')} on Stratos",
        ),
        Fact(
            label="crews around waste tubes",
            value=float(around),
            unit="crews",
            better=1,
            text=f"{plural(around, 'crew')} around waste tubes (a strict majority controls a tube)",
        ),
        Fact(
            label="crews on the mini-map",
            value=float(on_map),
            unit="crews",
            better=1,
            text=f"{plural(on_map, 'crew')} on the mini-map (hosts for waste tubes)",
        ),
        Fact(
            label="complete sets of target icons",
            value=float(mine.facts.sets),
            unit="sets",
            better=1,
            text=f"{plural(mine.facts.sets, 'complete set')} of target icons (the level 3 reward)",
        ),
    ]


def _holding_facts(s: CytressState, seat: int) -> list[Fact]:
    """What pays for the next moves: resources, intel cards on the lifepaths, crews left."""
    res = s.players[seat].resources
    cards = sum(len(p) for p in s.players[seat].lifepaths)
    facts = [
        Fact(
            label="resources",
            value=float(sum(res)),
            unit="resources",
            better=1,
            text=f"{sum(res)} resources ({', '.join(f'{n} {RESOURCES[r]}' for r, n in enumerate(res))})",
        ),
        *(
            Fact(label=name, value=float(res[r]), unit=name, better=1, text=f"{res[r]} {name}")
            for r, name in enumerate(RESOURCES)
        ),
        Fact(
            label="intel cards on your lifepaths",
            value=float(cards),
            unit="cards",
            better=1,
            text=f"{plural(cards, 'intel card')} on your lifepaths",
        ),
        Fact(
            label="crews left to place",
            value=float(s.rebels[seat].unused),
            unit="crews",
            better=0,
            text=f"{plural(s.rebels[seat].unused, 'crew')} left to place",
        ),
    ]
    return facts


def outcome_facts(game: CytressGame, s: CytressState, seat: int) -> Sequence[Fact]:
    """Where ``seat`` stands in ``s``: its PRESTIGE if the rebellion broke out now, its lead over the
    best rival (solo: the automa), every scoring category's PRESTIGE with how it is earned, the open
    contests (crews on Stratos, around waste tubes, on the map, target sets), then its resources,
    intel cards and crews left. Every position gives the same labels in the same order. Nothing
    here is hidden (only deck order is), so the seat's view gives the same facts."""
    if not 0 <= seat < s.num_players:
        return ()
    tallies = _tallies(game, s)
    mine = tallies[seat]
    if s.solo:
        rival: int | None = tallies[AUTOMA].total
    else:
        others = [t.total for t in tallies if t.owner != seat]
        rival = max(others) if others else None
    return (
        *_score_facts(mine, rival, s.solo),
        *_contest_facts(game, s, seat, mine),
        *_holding_facts(s, seat),
    )
