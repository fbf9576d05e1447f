"""The CyberVerse score sheet (``register_scorer("cyberverse")``): the victory points of
:mod:`games.cyberverse.scoring` by source, with each part's weight and the end in words."""

from __future__ import annotations

from typing import Any

from games.core import Game
from games.cyberverse import scoring
from games.cyberverse.content import Content
from games.cyberverse.face import end_text
from games.cyberverse.state import State
from solver.core import ScoreLine, ScoreReport, SeatScore
from solver.cyberverse.params import game_of, state_of


# ============================================================================ score
def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _sheet(s: State, c: Content, seat: int, b: scoring.Breakdown) -> tuple[ScoreLine, ...]:
    """A seat's score sheet: each source of VP with how it was earned at what weight (rule:
    cyberverse/end-of-game, cyberverse/influence)."""
    org = s.orgs[seat]
    cards = " + ".join(f'"{c.stories[k].name}" {c.stories[k].vp} VP' for k in org.solved)
    printed = sorted({st.vp for st in c.stories})
    each = f"{printed[0]} VP" if len(printed) == 1 else f"{printed[0]} to {printed[-1]} VP"
    stories = f"{_count(len(org.solved), 'story card')} resolved" + (f": {cards}" if cards else "")
    tokens = sum(org.influence)
    districts, overall = scoring.majorities(s, seat)
    if not s.options.influence_bonus:
        held = "0 VP: no majority bonus (the influence_bonus variant is off)"
    else:
        won = []
        if districts:
            names = ", ".join(c.district_names[d] for d in districts)
            won.append(f"most in {names}: {len(districts)} × {scoring.DISTRICT_BONUS} VP")
        if overall:
            won.append(f"most in all districts combined: 1 × {scoring.OVERALL_BONUS} VP")
        held = "; ".join(won) or (
            f"no sole majority ({scoring.DISTRICT_BONUS} VP per district held with the sole most Influence "
            f"tokens, {scoring.OVERALL_BONUS} VP for the sole most in all districts combined)"
        )
    lines: tuple[ScoreLine, ...] = (
        ScoreLine(
            category="story cards",
            points=float(b.stories),
            detail=f"{stories} (each scores the VP printed on it, {each})",
        ),
        ScoreLine(
            category="influence tokens",
            points=float(b.influence),
            detail=f"{_count(tokens, 'token')} × {scoring.VP_PER_INFLUENCE} VP",
        ),
        ScoreLine(category="influence majorities", points=float(b.majorities), detail=held),
        ScoreLine(
            category="resources",
            points=float(b.money),
            detail=f"{b.resources} D, 1 VP per {scoring.VP_PER_D} D (rounded down)",
        ),
    )
    ended = end_text(s, c)
    if ended:  # rule: cyberverse/end-of-game - which end fired (the turn cap is no rule)
        end = ScoreLine(
            category="end of the game", points=0.0, detail=f"0 VP, which end fired: ended by {ended}"
        )
        lines = (*lines, end)
    return lines


def score(game: Game[Any, Any], state: Any) -> ScoreReport:
    """rule: cyberverse/end-of-game - victory points by source; ties to the most D."""
    g, s = game_of(game), state_of(state)
    c = g.content_pack
    parts = scoring.breakdown(s, c)
    keys = [(b.total, b.resources) for b in parts]
    seats = []
    for seat, b in enumerate(parts):
        rank = 1 + sum(1 for k in keys if k > keys[seat])
        tied = any(k[0] == b.total for i, k in enumerate(keys) if i != seat)
        tiebreak = (f"{b.resources} D (the most D wins a tie)",) if tied else ()
        seats.append(
            SeatScore(
                seat=seat, total=float(b.total), rank=rank, breakdown=_sheet(s, c, seat, b), tiebreak=tiebreak
            )
        )
    final = s.actor == -2
    return ScoreReport(
        game="cyberverse", final=final, seats=tuple(seats), ended_by=end_text(s, c) if final else ""
    )
