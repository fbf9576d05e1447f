"""After the galaxy: five-player trade goods, STEPS 7-11 (the home systems stand in the galaxy from
the start of the placement, ``setup.py`` and ``placement.py``; STEP 12, the objectives, is
``objectives.py``).

rule: ti4/five-player-trade-goods - in a five-player game three players receive trade goods by
the position of their home system (+2, +4, +2: the three homes squeezed between closer
neighbours; our reading of the diagram, docs/ti4.md).
rule: ti4/custodians-and-decks - the custodians token on Mecatol Rex, the common decks shuffled,
the supply, the eight strategy cards faceup.
rule: ti4/starting-components - starting technologies and units from the faction sheet; three
command tokens in the tactic pool, three in the fleet pool, two in the strategy pool.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.core.protocol import Seat
from games.core.records import replace
from games.ti4.content import Content
from games.ti4.setup import starting_planets
from games.ti4.state import OVER, SECRET, TI4State

__all__ = ["SeatComponents", "board_complete", "seat_components"]


def board_complete(state: TI4State, content: Content) -> TI4State:
    """The galaxy is built: five-player trade goods, then the secret objectives.

    rule: ti4/five-player-trade-goods - trade goods by home position.
    """
    goods = (0,) * state.players
    if state.mode == "rulebook":
        table = content.board.layouts[state.players].trade_goods
        goods = tuple(table.get(state.homes[s], 0) for s in range(state.players))
    return replace(state, trade_goods=goods, phase=SECRET, actor=state.speaker)


@dataclass(frozen=True, slots=True)
class SeatComponents:
    """What a seat has in its play area at the end of the setup (for people; derived from the state).

    Attributes:
        seat: the seat.
        planets: its starting planet cards (STEP 5, ``setup.starting_planets``).
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
