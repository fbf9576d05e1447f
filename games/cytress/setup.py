"""Setting up a game of Cytress (rule: cytress/setup; solo: rule: cytress/solo-setup)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.core.rng import shuffle
from games.cytress.board import CREWS, STRAT_ROW, TUBE_SECTIONS
from games.cytress.content import AI_CARDS_PER_FACTION, Content
from games.cytress.economy import START_RESOURCE, lifepath_icons
from games.cytress.state import (
    LEVELS,
    NO_PENDING,
    NOBODY,
    NONE,
    SIDES,
    Automa,
    CytressState,
    Player,
    Rebel,
)
from games.cytress.work import Ctx

__all__ = [
    "INTEL_SLOTS",
    "SOLO_ROUNDS",
    "SOLO_TILES",
    "SOLO_TUBES",
    "TRANSPORTS",
    "TUBES_PER_PLAYER",
    "Setup",
    "new_game",
]

TUBES_PER_PLAYER = 7
"""rule: cytress/setup - 7 tube sections per player near Stratos; the rest stay in the box."""
SOLO_TUBES = 14
"""rule: cytress/solo-setup - 14 tube sections near Stratos."""
SOLO_TILES = 3
"""rule: cytress/solo-setup - 3 randomly selected mini-map tiles."""
SOLO_ROUNDS = 5
"""cytress/solo-game-end - a solo game ends at the end of the 5th round."""
TRANSPORTS = 3
"""cytress/phase-3a-travel - 3 transports per player."""
INTEL_SLOTS = 3
"""rule: cytress/setup - the top 3 intel cards of each faction deck face up next to it."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Setup:
    """The setup choices a config makes (validated by the game).

    Attributes:
        players: seats (1 = solo).
        first_player: the first player's seat (-1: drawn at random).
        market_side: the Cytress district board side: -1 random, 0 (A) or 1 (B).
        board_side: the faction district boards' side: 0 (1-3 players) or 1 (4+ players).
        fixed_side: every rebel board's side (-1: each seat chooses at the start).
        round_limit: the ``round_limit`` variant's last round (0: none, the rulebook's end; solo
            always ends after round 5).
        solo_box_tubes: solo: tubes may be built from the box once the 14 sections run out (the
            ``solo_tubes`` variant ``box``; the rulebook keeps them in the box).
        bounty_best: a seat's bounties against one faction pay its icons once, at the best tier
            (the ``bounty_scoring`` variant ``best``).
    """

    players: int
    first_player: int
    market_side: int
    board_side: int
    fixed_side: int
    round_limit: int
    solo_box_tubes: bool = False
    bounty_best: bool = False


def _deal_intel(
    intel_decks: tuple[tuple[int, ...], ...], rng: random.Random
) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """Each faction's deck shuffled, its top 3 face up in the slots: (decks, rows)."""
    decks, rows = [], []
    for cards in intel_decks:
        deck = list(cards)
        shuffle(rng, deck)
        rows.append(tuple(deck[:INTEL_SLOTS]))
        decks.append(tuple(deck[INTEL_SLOTS:]))
    return tuple(decks), tuple(rows)


def _new_automa(rng: random.Random) -> Automa:
    """rule: cytress/solo-setup - 3 AI action cards above each faction's space, the other 4 shuffled
    into the AI action deck."""
    tracker = tuple(tuple(range(f * AI_CARDS_PER_FACTION, f * AI_CARDS_PER_FACTION + 3)) for f in range(4))
    ai_deck = [f * AI_CARDS_PER_FACTION + 3 for f in range(4)]
    shuffle(rng, ai_deck)
    return Automa(deck=tuple(ai_deck), tracker=tracker)


def _bounty_stacks(content: Content, n: int) -> tuple[tuple[int, ...], ...]:
    """rule: cytress/setup - per faction, its enforcer bounty stack, top first: tier 1 only with
    1-3 players, tier 2 below it with 4-5."""
    tier1 = {b.faction: b.id for b in content.bounties if b.tier == 1}
    tier2 = {b.faction: b.id for b in content.bounties if b.tier == 2}
    return tuple((tier1[f], tier2[f]) if n >= 4 else (tier1[f],) for f in range(4))


def new_game(ctx: Ctx, setup: Setup, seed: int) -> CytressState:
    """rule: cytress/setup - the mini-map (1 random tile per player; solo 3: rule:
    cytress/solo-setup), faction boards on the side for the player count, shuffled intel decks with
    3 face up, the Cytress district board on a random side, bounties by player count (tier 1 only
    with 1-3 players, tier 2 below it with 4-5), 7 tube sections per player near Stratos (solo 14),
    5 Stratolites face up, rebel boards dealt at random, 2 of each resource, 12 crews, 3
    transports, the first player marker; solo: the AI tracker with 3 AI action cards per faction
    and a shuffled AI action deck of the other 4.

    The state returned still has no seat to move: ``flow.advance`` opens the first decision.
    """
    content = ctx.content
    rng = random.Random(seed)
    n = setup.players
    solo = n == 1
    owners = 2 if solo else n
    tiles = tuple(rng.sample(range(len(content.tiles)), SOLO_TILES if solo else n))
    market = setup.market_side if setup.market_side >= 0 else rng.randrange(len(content.market))
    decks, rows = _deal_intel(content.intel_decks, rng)
    strat = list(range(len(content.stratolites)))
    shuffle(rng, strat)
    boards = tuple(rng.sample(range(len(content.rebels)), owners))
    hexes = len(content.layouts[len(tiles)].labels)
    first = setup.first_player if setup.first_player >= 0 else rng.randrange(n)
    allocated = SOLO_TUBES if solo else TUBES_PER_PLAYER * n
    automa = _new_automa(rng) if solo else None
    return CytressState(
        round=0,  # the first round starts once rebel sides are chosen
        phase=SIDES,
        step=NONE,
        actor=-1,
        turn=0,
        first=first,
        phase_first=first,
        pending=NO_PENDING,
        tiles=tiles,
        market=market,
        board_side=setup.board_side,
        players=tuple(_player(content, boards[seat], setup.fixed_side) for seat in range(n)),
        rebels=tuple(Rebel(board, stratos=(0,) * LEVELS, unused=CREWS) for board in boards),
        crew=(NOBODY,) * hexes,
        tube=(0,) * hexes,
        intel_deck=decks,
        intel_row=rows,
        strat_deck=tuple(strat[STRAT_ROW:]),
        strat_row=tuple(strat[:STRAT_ROW]),
        strat_discard=(),
        bounty_stack=_bounty_stacks(content, n),
        tubes_left=allocated,
        tubes_box=TUBE_SECTIONS - allocated,
        end_triggered=False,
        automa=automa,
        seed=rng.getrandbits(62),
        shuffles=0,
        round_limit=SOLO_ROUNDS if solo else setup.round_limit,
        box_tubes=setup.solo_box_tubes or not solo,  # cytress/game-end-trigger, cytress/solo-setup
        bounty_best=setup.bounty_best,
        map=ctx.map(tiles),
    )


def _player(content: Content, rebel: int, side: int) -> Player:
    """A seat at the start: its rebel board on ``side`` (-1: to be chosen), 2 of each resource, no
    intel card on a lifepath, no Stratolite reserved, no transport out yet (3 each once the travel
    phase starts)."""
    lifepaths: tuple[tuple[int, ...], ...] = ((),) * 4
    return Player(
        side=side,
        resources=(START_RESOURCE,) * 4,
        lifepaths=lifepaths,
        icons=lifepath_icons(content, rebel, side, lifepaths),
    )
