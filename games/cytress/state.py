"""Cytress positions and actions: records (``games.core.records``), and the integer domains they use.

The internal encoding is compact (content indices; each seat's holdings one :class:`Player` record,
``s.players[seat].resources[resource]``; each owner's rebels one :class:`Rebel` record,
``s.rebels[owner].stratos[level - 1]``; the crews on the mini-map by hex); the
public form (``games.cytress.codec``) speaks the rulebook's words. The one place that maps one to the
other is ``games.cytress.codec``.

Owners: every *rebel* at the table is an owner: seats ``0..num_players-1`` and, in solo mode
(cytress/solo-setup: "deal yourself and the AI a rebel board each ... the rebel leader standees and
12 matching crew tokens"), the automa's rogue rebel as owner ``1`` (``AUTOMA``), the last entry of
``rebels``. What every rebel has (its rebel board, leader, crews unused and on Stratos, bounties) is
its :class:`Rebel`, ``s.rebels[owner]``; what only a seat has (resources, lifepaths, transports, a
reserved Stratolite) is its :class:`Player`, ``s.players[seat]`` (the automa has no resources and
no transports: cytress/solo-gameplay).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

from games.core.records import Record

if TYPE_CHECKING:
    from games.cytress.content import MapView

__all__ = [
    "FACTIONS",
    "LEVELS",
    "PADS",
    "PHASE_NAMES",
    "RESOURCES",
    "STEP_NAMES",
    "Automa",
    "CAction",
    "CytressState",
    "Faction",
    "Hex",
    "Pending",
    "Player",
    "Rebel",
    "Resource",
    "pending",
]

Faction: TypeAlias = int
"""A faction, which is also a lifepath and a hex colour: index into ``FACTIONS``."""
Resource: TypeAlias = int
"""A resource: index into ``RESOURCES``."""
Hex: TypeAlias = int
"""A mini-map hex: index into the layout's hex list (``games.cytress.content.Layout``)."""
Icons: TypeAlias = tuple[tuple[int, ...], ...]
"""A seat's resource icons: per lifepath (``FACTIONS``), the count of each resource (``RESOURCES``)."""
Owner: TypeAlias = int
"""Whose crews: an index into ``CytressState.rebels``, a seat or ``AUTOMA`` (1) in solo mode."""

FACTIONS: tuple[str, ...] = ("corpocrat", "privateer", "hooligang", "rover")
"""cytress/lifepaths-factions - the four factions and lifepaths, in lifepath order."""
CORPOCRAT, PRIVATEER, HOOLIGANG, ROVER = range(4)
RESOURCES: tuple[str, ...] = ("creds", "tech", "ammo", "glow")
"""cytress/resources - the four resources."""
CREDS, TECH, AMMO, GLOW = range(4)
LEVELS = 3
"""cytress/minimap-stratos - Stratos has three levels."""

AUTOMA: Owner = 1
"""The automa's owner index in solo mode (the one seat is 0)."""
NOBODY = -1
"""An empty hex, an empty slot, no card."""

# ---------------------------------------------------------------- phases and steps
SIDES, SCOUT, TRAVEL, EXTRA, OVER = range(5)
PHASE_NAMES: tuple[str, ...] = ("rebel sides", "scout districts", "travel", "extra travel", "game over")
"""The phases a seat decides in (INCOME and RESET are automatic; cytress/core-concepts)."""

(
    NONE,
    CHOOSE_SIDE,
    SCOUT_SPOT,
    PAD,
    INTEL,
    CREW,
    SPY,
    STRATOLITE,
    PAYMENT,
    HEIGHT,
    TUBE,
    BOUNTY,
    BENEFIT,
    FIXER_INTEL,
    FIXER_RESERVE,
    TRADE,
    AMOUNT,
    AUTOMA_CREW,
    AUTOMA_MOVE,
    AUTOMA_TUBE,
) = range(20)
STEP_NAMES: tuple[str, ...] = (
    "none",
    "choose your rebel board side",
    "choose a scouting spot",
    "choose a landing pad",
    "choose an intel card",
    "choose a hex for your crew",
    "choose a rival to spy on",
    "choose a Stratolite",
    "choose the resource to pay the Renegade",
    "choose the waste tube height",
    "choose the hex for the waste tube",
    "choose a bounty card",
    "choose the bounty's benefit",
    "choose a free intel card",
    "choose a Stratolite to reserve",
    "choose a trade",
    "choose how many to trade",
    "choose the hex for the automa's crew",
    "choose which automa crew moves",
    "choose the hex for the automa's waste tube",
)
"""The open decision, in the rulebook's words (``CytressState.step``)."""

PADS: tuple[str, ...] = (
    "corpocrat",
    "privateer",
    "hooligang",
    "rover",
    "stratolites",
    "renegade",
    "enforcers",
    "fixer",
    "merchant",
)
"""cytress/phase-3a-travel - the 9 landing pads (the four factions first, by faction index)."""
PAD_STRATOLITES, PAD_RENEGADE, PAD_ENFORCERS, PAD_FIXER, PAD_MERCHANT = range(4, 9)

# Automa program operations (cytress/solo-ai-actions); an op is ``code * 16 + argument``.
OP_BOUNTY_CREW = 1  # place a crew by the checklist for the bounty card (argument: hex faction)
OP_BOUNTY_ASCEND = 2  # move one crew up one level of Stratos if allowed
OP_NORMAL = 3  # drop a waste tube if the checklist allows, else take an intel card (argument: faction)
OP_INTEL = 4  # take an intel card (argument: faction)
OP_PLACE = 5  # place a crew by the checklist (argument: hex faction)


class CAction(Record, frozen=True):
    """One decision (notation in ``games.cytress.notation``).

    Attributes:
        kind: what is decided: ``side``, ``scout``, ``pad``, ``intel``, ``crew``, ``spy``,
            ``nospy``, ``stratolite``, ``pay``, ``height``, ``tube``, ``bounty``, ``benefit``,
            ``reserve``, ``keep``, ``trade``, ``amount``, ``done``, ``automa-crew``,
            ``automa-move``, ``automa-tube``.
        arg: the choice: side 0/1, scouting spot (``faction * 2 + spot``), landing pad, card id,
            hex, seat spied on, resource, height, benefit (0 none, 1 crew, 2 ascend from level 1,
            3 ascend from level 2), trade (``give * 4 + get``) or amount.
    """

    kind: str
    arg: int = 0


class Pending(Record, frozen=True):
    """What the action under way has chosen so far (cytress/phase-3a-travel: every choice
    inside an action is its own decision).

    Attributes:
        pad: the landing pad of the action under way (-1: none).
        colour: the faction of the hexes the next crew or tube may go to (-1: any hex).
        card: the Stratolite or bounty card in use (-1: none).
        resource: the resource paying for the waste tube (-1: not chosen).
        height: the waste tube height paid for (0: not chosen).
        hex: the hex a crew was just placed on (spying; -1: none).
        trades: trades made at the merchant so far (0-2).
        trade: the trade chosen, ``give * 4 + get`` (-1: none).
        options: the hexes (or crews) the solo player chooses among for the automa (ties).
    """

    pad: int = -1
    colour: int = -1
    card: int = -1
    resource: int = -1
    height: int = 0
    hex: int = -1
    trades: int = 0
    trade: int = -1
    options: tuple[int, ...] = ()


NO_PENDING = Pending()


class Automa(Record, frozen=True):
    """The solo automa's tracker and deck (cytress/solo-setup, cytress/solo-gameplay).

    Attributes:
        deck: the AI action deck, top first (card ids; a card's faction is ``id // 4``).
        tracker: per faction, the AI action cards still above its action space, top first.
        intel: the intel cards the automa took, in order (its tracker's round/turn spaces).
        records: tube pieces from the box marking its waste-tube actions.
        drawn: AI action cards revealed and not yet returned to the deck.
        program: the rest of the automa's current turn (``OP_* * 16 + argument`` codes).
        moving: the hex a crew was taken from to be moved (-1: none).
    """

    deck: tuple[int, ...]
    tracker: tuple[tuple[int, ...], ...]
    intel: tuple[int, ...] = ()
    records: int = 0
    drawn: tuple[int, ...] = ()
    program: tuple[int, ...] = ()
    moving: int = -1


class Player(Record, frozen=True):
    """One seat's holdings: its rebel board's side, resource tracker, lifepaths, transports and
    reserved Stratolite (cytress/setup; the automa has none of these: cytress/solo-gameplay).

    Attributes:
        side: its rebel board side (0 or 1; -1 not chosen yet).
        resources: its 4 resource counts (``resources[resource]``, ``RESOURCES``), each 0..25.
        lifepaths: its 4 lifepaths' intel cards in order (``lifepaths[lifepath]``, ``FACTIONS``).
        icons: its resource icons per lifepath including the rebel board side's
            (``icons[lifepath][resource]``); derived from ``lifepaths`` and ``side``
            (``economy.lifepath_icons``).
        reserved: its reserved Stratolite (-1: none).
        transports: transports still on its resource tracker board.
        on_stratos: transports on Stratos owing an extra travel action.
    """

    side: int
    resources: tuple[int, ...]
    lifepaths: tuple[tuple[int, ...], ...]
    icons: Icons
    reserved: int = -1
    transports: int = 0
    on_stratos: int = 0


class Rebel(Record, frozen=True):
    """One owner's band of rebels, a seat's or the solo automa's: its rebel board, rebel leader and
    12 crew tokens (cytress/setup; cytress/solo-gameplay: the AI "has 1 leader and 12 crews").

    Attributes:
        board: its rebel board (content index; the automa's gives only its colour).
        stratos: its crews on Stratos levels 1-3 (``stratos[level - 1]``).
        unused: its unused crew tokens (12 minus its crews on the map and on Stratos).
        bounties: the bounty cards it claimed, in order.
        leader: its rebel leader's scouting spot (``faction * 2 + spot``; -1: home).
    """

    board: int
    stratos: tuple[int, ...]
    unused: int
    bounties: tuple[int, ...] = ()
    leader: int = -1


class CytressState(Record, frozen=True):
    """A Cytress position.

    Attributes:
        round: the round, from 1 (0 while rebel sides are chosen).
        phase: SIDES, SCOUT, TRAVEL, EXTRA or OVER (INCOME and RESET run by themselves).
        step: the open decision (``STEP_NAMES``; NONE only between turns and when over).
        actor: the seat to decide (-1 when the game is over).
        turn: the turn of the phase's sequence (scouting, travel) or the next seat to look at
            (extra travel).
        first: the seat holding the first player marker.
        phase_first: the seat that went first in this phase (the marker takes effect next phase).
        pending: the choices of the action under way.
        tiles: the map tile (content index) in each slot of the layout.
        market: the Cytress district board side face up (index into the market sides).
        board_side: the faction district boards' side (0: 1-3 players, 1: 4+ players).
        players: the seats' holdings, by seat (one seat: solo against the automa).
        rebels: every owner's rebels, by owner: the seats, then the automa in solo mode (last).
        crew: per hex, the owner of the crew on it (-1: none).
        tube: per hex, the height of the waste tube on it (0: none).
        intel_deck: per faction, its face-down intel deck, top first.
        intel_row: per faction, its 3 face-up intel slots, top first (-1: empty).
        strat_deck: the Stratolite deck, top first.
        strat_row: the 5 Stratolites on Stratos, left to right (-1: empty).
        strat_discard: the Stratolite discard pile, in the order discarded.
        bounty_stack: per faction, the enforcer bounty cards on its space, top first.
        tubes_left: the allocated tube sections still near Stratos.
        tubes_box: the tube sections in the box.
        end_triggered: the last allocated tube section dropped: this is the final round.
        automa: the solo automa (None with 2+ players).
        seed: the seed of later reshuffles (hidden: 0 in an observation).
        shuffles: reshuffles made so far.
        round_limit: the ``round_limit`` variant's last round with 2-5 players (0, the default: none,
            the game ends as the rulebook says; solo always ends after round 5).
        box_tubes: whether tubes may be built from the box's sections once those near Stratos run
            out (2-5 players: always, cytress/game-end-trigger; solo: only with the
            ``solo_tubes`` variant ``box``, the rulebook keeps them in the box: rule:
            cytress/solo-setup).
        bounty_best: the ``bounty_scoring`` variant ``best``: a seat's bounties against one faction
            pay its icons once, at the best tier (default ``each``: every bounty pays, rule:
            cytress/meet-the-enforcers).
        map: the mini-map of ``tiles`` (derived and shared between states: equal when ``tiles`` are).
    """

    round: int
    phase: int
    step: int
    actor: int
    turn: int
    first: int
    phase_first: int
    pending: Pending
    tiles: tuple[int, ...]
    market: int
    board_side: int
    players: tuple[Player, ...]
    rebels: tuple[Rebel, ...]
    crew: tuple[int, ...]
    tube: tuple[int, ...]
    intel_deck: tuple[tuple[int, ...], ...]
    intel_row: tuple[tuple[int, ...], ...]
    strat_deck: tuple[int, ...]
    strat_row: tuple[int, ...]
    strat_discard: tuple[int, ...]
    bounty_stack: tuple[tuple[int, ...], ...]
    tubes_left: int
    tubes_box: int
    end_triggered: bool
    automa: Automa | None
    seed: int
    shuffles: int
    round_limit: int
    box_tubes: bool
    bounty_best: bool
    map: MapView

    @property
    def num_players(self) -> int:
        """The player count (1: solo against the automa)."""
        return len(self.players)

    @property
    def owners(self) -> int:
        """Crew owners: the seats, plus the automa in solo mode (``len(rebels)``)."""
        return len(self.rebels)

    @property
    def solo(self) -> bool:
        """Whether this is a solo game against the automa."""
        return len(self.players) == 1


def pending(
    pad: int,
    colour: int = -1,
    card: int = -1,
    resource: int = -1,
    height: int = 0,
    *,
    hex: int = -1,
    trades: int = 0,
    trade: int = -1,
) -> Pending:
    """The ``Pending`` of these choices and no options."""
    return Pending(pad, colour, card, resource, height, hex, trades, trade)
