"""What a decision leads to, for hints and reviews (issue 30): where an Organization stands in the
game's own terms, and the game turn a hint looks ahead to the end of.

A hint plays its first two moves on to the end of the turn and compares these facts: the victory
points by source (cyberverse/end-of-game, cyberverse/influence), the story cards resolved
against the number that ends the game, the progress of the story in progress, its D, its Support
cards and its Agents' Health. Every fact is read from the state it is given, which for a hint is a
sample of the mover's view: its own holdings are known, the rest (influence, resolved stories) is
public.
"""

from __future__ import annotations

from games.core.face import Fact
from games.core.text import plural
from games.cyberverse import scoring
from games.cyberverse.content import Content
from games.cyberverse.engine import STORIES_TO_WIN
from games.cyberverse.state import WOUND, State

__all__ = ["ROUND_WORD", "outcome_facts", "round_of"]

ROUND_WORD = "turn"
"""What :func:`round_of` counts: the game turn (cyberverse/event-phase ... cyberverse/payday)."""


def round_of(s: State) -> int:
    """The game turn of ``s``: a hint looks ahead to the end of it (after Payday)."""
    return s.turn


def _lead(s: State, c: Content, totals: list[int], seat: int) -> Fact:
    """The seat's VP minus the best other Organization's."""
    others = [k for k in range(s.players) if k != seat]
    best = max(others, key=lambda k: (totals[k], -k))
    lead = totals[seat] - totals[best]
    name = c.organisations[best].name
    if lead > 0:
        text = f"leads {name} (the best other Organization) by {lead} VP"
    elif lead < 0:
        text = f"trails {name} (the best other Organization) by {-lead} VP"
    else:
        text = f"level with {name} (the best other Organization) on VP"
    return Fact(
        label="lead over the best other Organization", value=float(lead), unit="VP", better=1, text=text
    )


def _vp_facts(s: State, c: Content, seat: int, b: scoring.Breakdown) -> list[Fact]:
    """The victory points by source if the game ended now (cyberverse/end-of-game)."""
    districts, overall = scoring.majorities(s, seat)
    held = [c.district_names[d] for d in districts] + (["all districts combined"] if overall else [])
    return [
        Fact(
            label="story cards VP",
            value=float(b.stories),
            unit="VP",
            better=1,
            text=f"story cards {b.stories} VP ({plural(len(s.orgs[seat].solved), 'story card')} resolved)",
        ),
        Fact(
            label="influence tokens VP",
            value=float(b.influence),
            unit="VP",
            better=1,
            text=f"influence tokens {b.influence} VP ({scoring.VP_PER_INFLUENCE} VP per token)",
        ),
        Fact(
            label="influence majorities VP",
            value=float(b.majorities),
            unit="VP",
            better=1,
            text=f"influence majorities {b.majorities} VP"
            + (f" (the sole most in {', '.join(held)})" if held else " (no sole majority)"),
        ),
        Fact(
            label="resources VP",
            value=float(b.money),
            unit="VP",
            better=1,
            text=f"resources {b.money} VP (1 VP per {scoring.VP_PER_D} D)",
        ),
    ]


def _story_facts(s: State, c: Content, seat: int) -> list[Fact]:
    """The story cards resolved against the number that ends the game (cyberverse/end-of-game),
    and the Missions validated of the story in progress (cyberverse/story-cards)."""
    org = s.orgs[seat]
    goal = STORIES_TO_WIN[s.players]
    solved = len(org.solved)
    facts = [
        Fact(
            label="story cards resolved",
            value=float(solved),
            unit="cards",
            better=1,
            text=f"{solved} of {goal} story cards resolved (the game ends when an Organization has {goal})",
        )
    ]
    total = sum(len(c.investigations[k].missions) for k in org.cases)
    done = sum(len(d) for d in org.done)
    if org.story >= 0:
        story = f'"{c.stories[org.story].name}"'
        text = f"{done} of {plural(total, 'Mission')} of {story} validated"
    else:
        text = "no story card in progress"
    facts.append(
        Fact(
            label="Missions validated on the story in progress",
            value=float(done),
            unit="",
            better=1,
            text=text,
        )
    )
    return facts


def _holding_facts(s: State, seat: int) -> list[Fact]:
    """Its D, Support cards and Agents' Health (cyberverse/payday, cyberverse/loss-of-health)."""
    org = s.orgs[seat]
    agents = [a for a in s.agents if a.org == seat]
    health = sum(a.health for a in agents)
    wounded = sum(1 for a in agents if WOUND in a.status)
    return [
        Fact(label="D", value=float(org.money), unit="D", better=1, text=f"{org.money} D in its HQ"),
        Fact(
            label="support cards",
            value=float(len(org.support)),
            unit="cards",
            better=1,
            text=plural(len(org.support), "Support card") + " held",
        ),
        Fact(
            label="Agents' Health",
            value=float(health),
            unit="",
            better=1,
            text=f"{plural(len(agents), 'Agent')} with {health} Health in all"
            + (f", {wounded} Wounded" if wounded else ""),
        ),
    ]


def outcome_facts(s: State, c: Content, seat: int) -> list[Fact]:
    """Where ``seat`` stands, for hints: its VP if the game ended now, its lead over the best other
    Organization, the VP by source, the story cards resolved against the number that ends the game,
    the Missions validated of its story in progress, its D, Support cards and Agents' Health."""
    if not 0 <= seat < s.players:
        return []
    parts = scoring.breakdown(s, c)
    totals = [b.total for b in parts]
    mine = parts[seat]
    facts = [
        Fact(
            label="VP if the game ended now",
            value=float(mine.total),
            unit="VP",
            better=1,
            text=f"{mine.total} VP if the game ended now",
        )
    ]
    if s.players > 1:
        facts.append(_lead(s, c, totals, seat))
    return facts + _vp_facts(s, c, seat, mine) + _story_facts(s, c, seat) + _holding_facts(s, seat)
