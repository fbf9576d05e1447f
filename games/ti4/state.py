"""The TI4 setup's state and action: records (``games.core.records``), changed by name.

A state is the table during the COMPLETE SETUP of the Living Rules Reference (steps 1-12), or
during a Milty draft: who is speaker, who holds which faction and colour, the system tiles dealt
(secret to their holder), the galaxy as built so far with the record of every placement, trade
goods and the objectives. The public form (``codec.py``) speaks the rulebook's words; this is the
fast internal form.

Hidden information is written into the state itself when a seat looks at it
(``observation``): a tile it cannot see becomes :data:`HIDDEN_BLUE` or :data:`HIDDEN_RED` (its
back is public), an objective it cannot see becomes :data:`HIDDEN`.
"""

from __future__ import annotations

from typing import TypeAlias

from games.core.protocol import Seat
from games.core.records import Record
from games.ti4.content import Pos, TileId

__all__ = [
    "COLOR",
    "DRAFT",
    "FACTION",
    "HIDDEN",
    "HIDDEN_BLUE",
    "HIDDEN_RED",
    "OVER",
    "PHASE_NAMES",
    "PLACE",
    "RED",
    "SECRET",
    "Phase",
    "Placement",
    "TI4Action",
    "TI4State",
    "next_in_order",
]

Phase: TypeAlias = int
"""A step of the setup that waits for a decision (or OVER)."""

FACTION, COLOR, RED, PLACE, SECRET, DRAFT, OVER = range(7)
PHASE_NAMES: tuple[str, ...] = (
    "choose factions",
    "choose colors",
    "place the speaker's red tile",
    "place system tiles",
    "choose secret objectives",
    "milty draft",
    "setup complete",
)
"""The public names of the phases (rule sections: factions, color-and-planets, five-player-red-tile,
place-system-tiles, objectives; the Milty draft is a community procedure)."""

HIDDEN_BLUE: TileId = -1
"""A blue-backed tile the viewer cannot see."""
HIDDEN_RED: TileId = -2
"""A red-backed tile the viewer cannot see."""
HIDDEN = "?"
"""An objective card the viewer cannot see."""


class Placement(Record, frozen=True):
    """One placement of the record.

    Attributes:
        seat: the seat that placed the tile.
        tile: the system tile placed (face up).
        pos: where it went.
    """

    seat: Seat
    tile: TileId
    pos: Pos


class TI4Action(Record, frozen=True):
    """One decision of the setup.

    Attributes:
        kind: ``faction`` (choose a faction), ``color`` (choose a colour), ``place`` (place a system
            tile), ``keep`` (keep a secret objective), ``slice`` / ``seat`` (Milty draft picks; a
            Milty faction pick is ``faction``).
        tile: the tile placed (``place``), else 0.
        pos: the position (``place``), the slice index (``slice``, from 0) or the seat position
            (``seat``, 1 = speaker), else 0.
        name: the faction, colour or objective id, else "".
    """

    kind: str
    tile: TileId = 0
    pos: int = 0
    name: str = ""


class TI4State(Record, frozen=True):
    """The setup at one moment.

    Attributes:
        players: number of seats (3-6).
        mode: ``rulebook`` (the Living Rules Reference's setup) or ``milty`` (a Milty draft).
        expansion: ``base`` or ``pok`` (Prophecy of Kings tiles and factions added).
        reading: how "unless there is no other option" reads: ``player`` (no other placement of any
            tile in hand) or ``tile`` (no other space for this tile).
        vp_track: the victory point track side, 10 or 14 (STEP 12, ``objectives.py``).
        phase: the phase waiting for a decision (OVER at the end).
        actor: the seat to decide (-1 when the setup is complete).
        speaker: the speaker (STEP 1, ``setup.py``; -1 in a Milty draft until the seat picks).
        factions: each seat's faction id ("" not chosen yet).
        colors: each seat's colour ("" not chosen yet).
        homes: each seat's home position (0 until known).
        table: the seats in clockwise order around the table.
        hands: each seat's system tiles not yet placed (sorted; hidden ones as markers).
        undealt: tiles of the blue and red piles that nobody was dealt (sorted).
        red_tile: the five-player speaker's random red tile (0 if none).
        galaxy: the system tile in each of the 37 positions (0: empty; homes hold home systems once
            placed; Mecatol Rex at 0).
        placed: every system tile placed, in order (the speaker's red tile first in five-player).
        trade_goods: each seat's trade goods (five players, by home position: ``finish.py``).
        secret_drawn: the two secret objectives each seat drew ("" before the draw).
        secret_kept: the secret objective each seat kept ("" not yet).
        stage1: the five stage I objectives dealt face down (revealed ones first).
        stage2: the five stage II objectives dealt face down.
        revealed: how many stage I objectives are revealed.
        slices: the Milty slices, five tiles each in slot order (empty in rulebook mode).
        offered: the factions offered in a Milty draft.
        draft_order: the first round's pick order of a Milty draft.
        slice_pick: each seat's Milty slice (-1 none yet).
        seat_pick: each seat's Milty seat position (1 = speaker; 0 none yet).
    """

    players: int
    mode: str
    expansion: str
    reading: str
    vp_track: int
    phase: Phase
    actor: Seat
    speaker: Seat
    factions: tuple[str, ...]
    colors: tuple[str, ...]
    homes: tuple[Pos, ...]
    table: tuple[Seat, ...]
    hands: tuple[tuple[TileId, ...], ...]
    undealt: tuple[TileId, ...]
    red_tile: TileId
    galaxy: tuple[TileId, ...]
    placed: tuple[Placement, ...]
    trade_goods: tuple[int, ...]
    secret_drawn: tuple[tuple[str, ...], ...]
    secret_kept: tuple[str, ...]
    stage1: tuple[str, ...]
    stage2: tuple[str, ...]
    revealed: int
    slices: tuple[tuple[TileId, ...], ...] = ()
    offered: tuple[str, ...] = ()
    draft_order: tuple[Seat, ...] = ()
    slice_pick: tuple[int, ...] = ()
    seat_pick: tuple[int, ...] = ()


def next_in_order(state: TI4State, done: int) -> Seat:
    """The seat that decides ``done``-th (from 0) in a step taken from the speaker clockwise."""
    start = state.table.index(state.speaker)
    return state.table[(start + done) % state.players]
