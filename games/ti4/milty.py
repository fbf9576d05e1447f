"""The Milty draft: a community setup procedure played as a game (not in the Living Rules Reference).

Slices of five systems (three blue, two red) are laid out with more factions than players; in a
random order, snaking (1..n, n..1, 1..n), each player picks one thing per turn - a slice, a faction
or a seat position (1 = speaker, then clockwise) - until every player holds one of each. The galaxy
is then the six-player rulebook layout with each player's slice in front of their home system; with
fewer than six players the free homes' slices are filled with undrafted slices (authored reading:
docs/ti4.md). The slices come from ``config.options["milty_slices"]`` (e.g. from the solver's
``ti4.milty_slices`` puzzle) or are dealt at random from the seed.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import replace

from games.core.protocol import Seat
from games.core.rng import make_rng, shuffle
from games.errors import ConfigError
from games.ti4.content import Content, Pos, TileId
from games.ti4.placement import clash
from games.ti4.setup import draw_objectives
from games.ti4.state import DRAFT, TI4State

__all__ = [
    "assemble",
    "draft_seat",
    "milty_spaces",
    "new_milty_state",
    "parse_slices",
    "random_slices",
    "slice_positions",
    "slices_to_text",
]

SLICE_BLUE, SLICE_RED = 3, 2
"""The usual mix of a Milty slice."""


def slice_positions(content: Content, home: Pos) -> tuple[Pos, ...]:
    """The five spaces of the slice in front of ``home`` (one of the six-player homes), slot order."""
    steps = (home - 19) // 3
    return tuple(content.board.rotate(p, steps) for p in content.milty_slice)


def slot_adjacency(content: Content) -> list[tuple[int, int]]:
    """Pairs of slots of one slice that are adjacent on the board."""
    pos = content.milty_slice
    return [
        (i, j) for i, j in itertools.combinations(range(5), 2) if pos[j] in content.board.adjacent[pos[i]]
    ]


def slice_ok(content: Content, tiles: Sequence[TileId]) -> bool:
    """Whether no two neighbouring slots of a slice hold clashing tiles (anomalies, same wormholes)."""
    t = content.tiles
    return not any(clash(t[tiles[i]], t[tiles[j]]) for i, j in slot_adjacency(content))


def slices_to_text(slices: Sequence[Sequence[TileId]]) -> str:
    """``"26,45,19,41,32;..."``: the option string of ``milty_slices``."""
    return ";".join(",".join(str(t) for t in s) for s in slices)


def parse_slices(content: Content, text: str, expansion: str) -> list[tuple[TileId, ...]]:
    """Read ``milty_slices``: slices separated by ``;``, five tile numbers each in slot order."""
    field = "config.options.milty_slices"
    pool = set(content.pile("blue", expansion)) | set(content.pile("red", expansion))
    out: list[tuple[TileId, ...]] = []
    seen: set[TileId] = set()
    for k, part in enumerate(text.split(";")):
        items = [x.strip() for x in part.split(",")]
        if len(items) != 5 or not all(x.isdigit() and len(x) <= 3 for x in items):
            raise ConfigError(f"slice {k} must be five tile numbers, not {part[:60]!r}", field=field)
        tiles = tuple(int(x) for x in items)
        bad = [t for t in tiles if t not in pool]
        if bad:
            raise ConfigError(
                f"slice {k}: tile {bad[0]} is not in the {expansion} blue and red piles", field=field
            )
        if seen & set(tiles) or len(set(tiles)) != 5:
            raise ConfigError(f"slice {k}: a tile is used twice", field=field)
        seen |= set(tiles)
        out.append(tiles)
    return out


def _arrange(content: Content, tiles: list[TileId]) -> tuple[TileId, ...] | None:
    """An order of the slice's tiles in its slots without clashing neighbours (None if none)."""
    for perm in itertools.permutations(tiles):
        if slice_ok(content, perm):
            return perm
    return None


def random_slices(
    content: Content, count: int, expansion: str, rng: random.Random
) -> list[tuple[TileId, ...]]:
    """``count`` random slices of three blue and two red tiles, each arranged without clashing
    neighbours and with at most one wormhole of each type."""
    blue = list(content.pile("blue", expansion))
    red = list(content.pile("red", expansion))
    if len(blue) < SLICE_BLUE * count or len(red) < SLICE_RED * count:
        raise ConfigError(
            f"{count} slices need {SLICE_BLUE * count} blue and {SLICE_RED * count} red tiles; the "
            f"{expansion} piles hold {len(blue)} and {len(red)} (use expansion 'pok' or fewer slices)",
            field="config.options.milty_extra",
        )
    for _ in range(500):
        shuffle(rng, blue)
        shuffle(rng, red)
        out = []
        for k in range(count):
            tiles = blue[SLICE_BLUE * k : SLICE_BLUE * (k + 1)] + red[SLICE_RED * k : SLICE_RED * (k + 1)]
            worms = [w for t in tiles for w in content.tiles[t].wormholes]
            arranged = _arrange(content, tiles) if len(worms) == len(set(worms)) else None
            if arranged is None:
                break
            out.append(arranged)
        if len(out) == count:
            return out
    raise ConfigError("could not deal slices without clashing neighbours", field="config.options.milty_extra")


def slice_count(players: int, extra: int) -> int:
    """Slices on the table: one per player plus ``extra``, and never fewer than the galaxy's six."""
    return max(6, players + extra)


def new_milty_state(
    content: Content,
    *,
    players: int,
    expansion: str,
    reading: str,
    vp_track: int,
    extra: int,
    slices_text: str,
    seed: int,
) -> TI4State:
    """The table before the first pick: draft order, slices and factions on offer, objectives drawn."""
    if not 0 <= extra <= 6:
        raise ConfigError(f"milty_extra must be 0..6, not {extra!r}", field="config.options.milty_extra")
    rng = make_rng(seed)
    order = list(range(players))
    shuffle(rng, order)
    count = slice_count(players, extra)
    if not slices_text:  # never more slices than the piles hold (a base game deals at most six)
        most = min(
            len(content.pile("blue", expansion)) // SLICE_BLUE,
            len(content.pile("red", expansion)) // SLICE_RED,
        )
        count = max(min(count, most), slice_count(players, 0))
    if slices_text:
        slices = parse_slices(content, slices_text, expansion)
        if len(slices) < count:
            raise ConfigError(
                f"{players} players with milty_extra {extra} need {count} slices, got {len(slices)}",
                field="config.options.milty_slices",
            )
    else:
        slices = random_slices(content, count, expansion, rng)
    factions = [f.id for f in content.factions_for(expansion)]
    if len(factions) < players + extra:
        raise ConfigError(
            f"{players + extra} factions to offer; the {expansion} game has {len(factions)}",
            field="config.options.milty_extra",
        )
    shuffle(rng, factions)
    drawn, stage1, stage2 = draw_objectives(content, players, rng)
    galaxy = [0] * len(content.board.rings)
    galaxy[0] = 18
    return TI4State(
        players=players,
        mode="milty",
        expansion=expansion,
        reading=reading,
        vp_track=vp_track,
        phase=DRAFT,
        actor=order[0],
        speaker=-1,
        factions=("",) * players,
        colors=("",) * players,
        homes=(0,) * players,
        table=tuple(range(players)),
        hands=((),) * players,
        undealt=(),
        red_tile=0,
        galaxy=tuple(galaxy),
        placed=(),
        trade_goods=(0,) * players,
        secret_drawn=drawn,
        secret_kept=("",) * players,
        stage1=stage1,
        stage2=stage2,
        revealed=0,
        slices=tuple(slices),
        offered=tuple(sorted(factions[: players + extra])),
        draft_order=tuple(order),
        slice_pick=(-1,) * players,
        seat_pick=(0,) * players,
    )


def picks_made(state: TI4State) -> int:
    """How many Milty picks have been made."""
    return (
        sum(1 for s in state.slice_pick if s >= 0)
        + sum(1 for f in state.factions if f)
        + sum(1 for p in state.seat_pick if p > 0)
    )


def draft_seat(state: TI4State, index: int) -> Seat:
    """The seat making the ``index``-th pick: the draft order, snaking (1..n, n..1, 1..n)."""
    rnd, k = divmod(index, state.players)
    return state.draft_order[k if rnd % 2 == 0 else state.players - 1 - k]


def milty_spaces(content: Content, players: int) -> tuple[Pos, ...]:
    """The spaces in play in a Milty galaxy: every slice space and the players' homes."""
    six = content.board.layouts[6].homes
    seats = content.milty_seats[players]
    spaces = [p for h in six for p in slice_positions(content, h)]
    return tuple(sorted({0, *seats, *spaces}))


def assemble(state: TI4State, content: Content, home_tiles: Sequence[TileId]) -> TI4State:
    """After the last pick: speaker, table order, homes and the galaxy of slices.

    ``home_tiles``: the tile standing in each seat's home position (by seat).
    """
    n = state.players
    seats = content.milty_seats[n]
    table = tuple(sorted(range(n), key=lambda s: state.seat_pick[s]))
    homes = tuple(seats[state.seat_pick[s] - 1] for s in range(n))
    galaxy = list(state.galaxy)
    used = set(state.slice_pick)
    spare = [k for k in range(len(state.slices)) if k not in used]
    owner = {homes[s]: state.slice_pick[s] for s in range(n)}
    for h in content.board.layouts[6].homes:
        k = owner.get(h)
        if k is None:
            k = spare.pop(0)
        for p, t in zip(slice_positions(content, h), state.slices[k], strict=True):
            galaxy[p] = t
    for s in range(n):
        galaxy[homes[s]] = home_tiles[s]
    speaker = next(s for s in range(n) if state.seat_pick[s] == 1)
    return replace(state, speaker=speaker, table=table, homes=homes, galaxy=tuple(galaxy))
