"""After the galaxy: attach home systems, five-player trade goods, STEPS 7-12.

rule: ti4/home-systems - home systems stand in the set positions of the GAME BOARD SETUP diagram
for the player count (seat k clockwise from the diagram's first home at ``Layout.homes[k]``) and
are attached to the galaxy once every tile is placed.
rule: ti4/five-player-trade-goods - in a five-player game three players receive trade goods by
the position of their home system (+2, +4, +2: the three homes squeezed between closer
neighbours; our reading of the diagram, docs/ti4.md).
rule: ti4/custodians-and-decks - the custodians token on Mecatol Rex, the common decks shuffled,
the supply, the eight strategy cards faceup.
rule: ti4/starting-components - starting technologies and units from the faction sheet; three
command tokens in the tactic pool, three in the fleet pool, two in the strategy pool.
rule: ti4/objectives - each player keeps one of two secret objectives; the victory point track
(10 or 14); five stage I and five stage II objectives dealt, the first two stage I revealed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from games.core.protocol import Seat
from games.ti4.content import Content
from games.ti4.setup import starting_planets
from games.ti4.state import OVER, SECRET, TI4State

__all__ = [
    "REVEALED_AT_START",
    "SeatComponents",
    "board_complete",
    "finish_setup",
    "seat_components",
]

REVEALED_AT_START = 2
"""rule: ti4/objectives - the speaker reveals the first two stage I objectives."""


def board_complete(state: TI4State, content: Content) -> TI4State:
    """The galaxy is built: home systems attached, five-player trade goods, then the secret objectives.

    rule: ti4/five-player-trade-goods - trade goods by home position.
    """
    goods = (0,) * state.players
    if state.mode == "rulebook":
        table = content.board.layouts[state.players].trade_goods
        goods = tuple(table.get(state.homes[s], 0) for s in range(state.players))
    return replace(state, trade_goods=goods, phase=SECRET, actor=state.speaker)


def finish_setup(state: TI4State) -> TI4State:
    """Every secret objective kept: reveal the first two stage I objectives; the setup is over.

    rule: ti4/objectives - the speaker reveals the first two stage I objectives.
    """
    return replace(state, revealed=REVEALED_AT_START, phase=OVER, actor=-1)


@dataclass(frozen=True, slots=True)
class SeatComponents:
    """What a seat has in its play area at the end of the setup (for people; derived from the state).

    Attributes:
        seat: the seat.
        planets: its starting planet cards (rule: ti4/color-and-planets).
        technologies: its starting technologies (rule: ti4/starting-components).
        technology_choice: a starting technology still to choose ("" if none).
        units: its starting units in its home system.
        command_tokens: tokens per pool (tactic, fleet, strategy).
        trade_goods: trade goods (rule: ti4/five-player-trade-goods).
    """

    seat: Seat
    planets: tuple[str, ...]
    technologies: tuple[str, ...]
    technology_choice: str
    units: tuple[tuple[str, int], ...]
    command_tokens: tuple[tuple[str, int], ...]
    trade_goods: int


def seat_components(state: TI4State, content: Content, seat: Seat) -> SeatComponents | None:
    """The seat's starting components once its faction is known (None before)."""
    faction = content.faction(state.factions[seat]) if state.factions[seat] else None
    if faction is None:
        return None
    gathered = state.phase in (SECRET, OVER)
    return SeatComponents(
        seat=seat,
        planets=starting_planets(content, faction.id),
        technologies=faction.technologies if gathered else (),
        technology_choice=faction.technology_choice if gathered else "",
        units=faction.units if gathered else (),
        command_tokens=content.command_tokens if gathered else (),
        trade_goods=state.trade_goods[seat],
    )
