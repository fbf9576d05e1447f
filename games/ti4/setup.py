"""STEPS 1-6.ii of the COMPLETE SETUP: speaker, factions, colours and planets, the tile piles, the deal.

Everything random in the setup is drawn here from the seed, in the rulebook's order (speaker,
factions when dealt at random, the blue and red piles shuffled and dealt, the five-player red tile,
the secret objectives, the public objectives), so the game has no chance nodes; what a seat may
not see yet stays hidden by ``observation`` until the rulebook reveals it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.core.records import replace, replace_at
from games.core.rng import make_rng, shuffle
from games.errors import ConfigError
from games.ti4.content import Content, Layout, Pos, TileId
from games.ti4.objectives import draw_objectives
from games.ti4.state import COLOR, FACTION, TI4State, next_in_order

__all__ = [
    "available_colors",
    "available_factions",
    "deal_tiles",
    "home_system_tile",
    "new_rulebook_state",
    "starting_planets",
    "take_color",
    "take_faction",
]


def available_factions(state: TI4State, content: Content) -> list[str]:
    """Factions nobody has chosen (rule: ti4/factions): the base game's 17, or 24 with PoK; in a
    Milty draft, the factions offered."""
    taken = set(state.factions)
    pool = state.offered if state.mode == "milty" else [f.id for f in content.factions_for(state.expansion)]
    return [f for f in pool if f not in taken]


def available_colors(state: TI4State, content: Content) -> list[str]:
    """Colours nobody has chosen (rule: ti4/color-and-planets)."""
    taken = set(state.colors)
    return [c for c in content.colors_for(state.expansion) if c not in taken]


def home_system_tile(content: Content, faction: str) -> TileId:
    """The tile that stands in the faction's home position (rule: ti4/factions): its home system;
    for the Ghosts of Creuss the Creuss Gate (their home system lies off the board)."""
    f = content.faction(faction)
    if f is None:
        return 0
    gate = next(
        (t.id for t in content.tiles.values() if t.faction == faction and t.id != f.home and not t.planets),
        0,
    )
    return gate or f.home


def take_faction(state: TI4State, faction: str) -> TI4State:
    """rule: ti4/factions - the seat takes the faction; the next seat clockwise chooses, and after the
    last one the speaker chooses a colour first."""
    factions = replace_at(state.factions, state.actor, faction)
    done = sum(1 for f in factions if f)
    if done < state.players:
        return replace(state, factions=factions, actor=next_in_order(state, done))
    return replace(state, factions=factions, phase=COLOR, actor=state.speaker)


def take_color(state: TI4State, color: str) -> TI4State:
    """rule: ti4/color-and-planets - the seat takes the colour; the next seat clockwise chooses (the
    seat to act is unchanged after the last one: the caller moves on to the next step)."""
    colors = replace_at(state.colors, state.actor, color)
    done = sum(1 for c in colors if c)
    s = replace(state, colors=colors)
    return replace(s, actor=next_in_order(s, done)) if done < state.players else s


def starting_planets(content: Content, faction: str) -> tuple[str, ...]:
    """The planet cards a faction starts with: its home system's planets (rule: ti4/color-and-planets)."""
    f = content.faction(faction)
    if f is None:
        return ()
    return tuple(p.name for p in content.tiles[f.home].planets)


def deal_tiles(
    content: Content, layout: Layout, expansion: str, rng: random.Random
) -> tuple[list[list[TileId]], list[TileId], TileId]:
    """Shuffle the blue and red piles and deal them by player count.

    rule: ti4/separate-systems - blue-backed and red-backed piles (green home systems apart).
    rule: ti4/deal-system-tiles - 3p six blue and two red each, 4p 5/3, 5p 4/2, 6p 3/2.
    Five players: the speaker draws one more random red tile (placed next to Mecatol Rex,
    ``placement.py``).

    Returns:
        (hands by seat, undealt tiles sorted, the five-player red tile or 0).
    """
    n = layout.players
    blue = list(content.pile("blue", expansion))
    red = list(content.pile("red", expansion))
    need_blue, need_red = n * layout.blue, n * layout.red + layout.extra_red
    if len(blue) < need_blue or len(red) < need_red:
        raise ConfigError(
            f"{n} players need {need_blue} blue and {need_red} red tiles; the {expansion} piles hold "
            f"{len(blue)} and {len(red)}",
            field="config.options.expansion",
            rule="ti4/deal-system-tiles",
        )
    shuffle(rng, blue)
    shuffle(rng, red)
    hands = [
        sorted(blue[s * layout.blue : (s + 1) * layout.blue] + red[s * layout.red : (s + 1) * layout.red])
        for s in range(n)
    ]
    red_rest = red[n * layout.red :]
    red_tile = red_rest.pop(0) if layout.extra_red else 0
    undealt = sorted(blue[need_blue:] + red_rest)
    return hands, undealt, red_tile


def new_rulebook_state(
    content: Content,
    *,
    players: int,
    expansion: str,
    reading: str,
    vp_track: int,
    random_factions: bool,
    seed: int,
) -> TI4State:
    """The table after STEP 1 (and STEP 2 when factions are dealt at random), everything drawn.

    rule: ti4/speaker - one player at random gains the speaker token.
    rule: ti4/factions - each player chooses a faction (or, with ``random_factions``, is dealt one).
    rule: ti4/home-systems - the homes stand in the set positions of the GAME BOARD SETUP diagram for
    the player count (seat k clockwise from the diagram's first home at ``Layout.homes[k]``); their
    tiles go down first when the placement starts (``placement.start_placement``).
    """
    layout = content.board.layouts[players]
    rng = make_rng(seed)
    speaker = rng.randrange(players)
    factions: Sequence[str] = [""] * players
    if random_factions:
        pool = [f.id for f in content.factions_for(expansion)]
        shuffle(rng, pool)
        factions = pool[:players]
    hands, undealt, red_tile = deal_tiles(content, layout, expansion, rng)
    drawn, stage1, stage2 = draw_objectives(content, players, rng)
    galaxy = [0] * len(content.board.rings)
    galaxy[0] = 18
    homes: tuple[Pos, ...] = tuple(layout.homes)
    return TI4State(
        players=players,
        mode="rulebook",
        expansion=expansion,
        reading=reading,
        vp_track=vp_track,
        phase=COLOR if random_factions else FACTION,
        actor=speaker,
        speaker=speaker,
        factions=tuple(factions),
        colors=("",) * players,
        homes=homes,
        table=tuple(range(players)),
        hands=tuple(tuple(h) for h in hands),
        undealt=tuple(undealt),
        red_tile=red_tile,
        galaxy=tuple(galaxy),
        placed=(),
        trade_goods=(0,) * players,
        secret_drawn=drawn,
        secret_kept=("",) * players,
        stage1=stage1,
        stage2=stage2,
        revealed=0,
    )
