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
from dataclasses import dataclass

from games.core.protocol import Seat
from games.core.records import replace
from games.core.rng import make_rng, shuffle
from games.core.text import is_digits
from games.errors import ConfigError
from games.ti4.content import Content, Pos, TileId
from games.ti4.objectives import draw_objectives
from games.ti4.placement import clash
from games.ti4.state import DRAFT, TI4State

__all__ = [
    "SliceRules",
    "assemble",
    "cross_pairs",
    "draft_seat",
    "fewest_touching",
    "layouts",
    "milty_spaces",
    "new_milty_state",
    "parse_slices",
    "parse_total",
    "random_slices",
    "rules_ok",
    "safe_layouts",
    "side_by_side",
    "slice_positions",
    "slice_total",
    "slices_to_text",
]

SLICE_BLUE, SLICE_RED = 3, 2
"""The usual mix of a Milty slice."""

SLOTS = ("left", "front", "right", "far front", "far right")
"""The five slots of a slice, in the order of ``milty_slices``."""


@dataclass(frozen=True, slots=True, kw_only=True)
class SliceRules:
    """The community's conventions for a random Milty deal (every one a game option).

    Attributes:
        min_total: a slice's optimal total (the larger of resources and influence of each planet,
            summed) at least (``milty_total``, default 9-13).
        max_total: that total at most.
        wormhole_types: wormhole types one slice may hold (``milty_wormholes``: ``one type`` = 1, no
            alpha and beta together; ``any`` = 4).
        max_legendary: legendary planets one slice may hold (``milty_legendary``, default 1: spread).
    """

    min_total: float = 9.0
    max_total: float = 13.0
    wormhole_types: int = 1
    max_legendary: int = 1


def parse_total(text: str) -> tuple[float, float]:
    """``milty_total``: ``"9-13"`` (a slice's optimal total from 9 to 13) or ``"any"``."""
    field = "config.options.milty_total"
    if text.strip().lower() in ("", "any"):
        return 0.0, 99.0
    parts = text.replace(" ", "").split("-")
    try:
        lo, hi = (float(x) for x in parts) if len(parts) == 2 else (None, None)
    except ValueError:
        lo = hi = None
    if lo is None or hi is None or not 0 <= lo <= hi <= 99:
        raise ConfigError(f"milty_total must be a range like '9-13' or 'any', not {text[:40]!r}", field=field)
    return lo, hi


def slice_total(content: Content, tiles: Sequence[TileId]) -> float:
    """A slice's optimal total: each planet's larger of resources and influence, summed."""
    return float(sum(max(p.resources, p.influence) for t in tiles for p in content.tiles[t].planets))


def rules_ok(content: Content, tiles: Sequence[TileId], rules: SliceRules) -> bool:
    """Whether a slice's tiles keep to ``rules`` (total, wormhole types, legendary planets)."""
    t = content.tiles
    total = slice_total(content, tiles)
    kinds = {w for x in tiles for w in t[x].wormholes}
    worms = [w for x in tiles for w in t[x].wormholes]
    legendary = sum(1 for x in tiles for p in t[x].planets if p.legendary)
    return (
        rules.min_total <= total <= rules.max_total
        and len(kinds) <= rules.wormhole_types
        and len(worms) == len(kinds)
        and legendary <= rules.max_legendary
    )


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


def cross_pairs(content: Content) -> list[tuple[int, int]]:
    """Pairs (i, j): slot i of a slice and slot j of the next slice clockwise are adjacent on the board
    (right-left, far front-far front, far right-left, far right-front, far right-far front)."""
    six = content.board.layouts[6].homes
    a, b = slice_positions(content, six[0]), slice_positions(content, six[1])
    return [(i, j) for i in range(5) for j in range(5) if b[j] in content.board.adjacent[a[i]]]


def slice_ok(content: Content, tiles: Sequence[TileId]) -> bool:
    """Whether no two neighbouring slots of a slice hold clashing tiles (anomalies, same wormholes)."""
    t = content.tiles
    return not any(clash(t[tiles[i]], t[tiles[j]]) for i, j in slot_adjacency(content))


def side_by_side(content: Content, left: Sequence[TileId], right: Sequence[TileId]) -> int:
    """Forbidden neighbours between slice ``left`` and the next slice clockwise ``right`` (the
    adjacency rules of ``placement.py``)."""
    t = content.tiles
    return sum(len(clash(t[left[i]], t[right[j]])) for i, j in cross_pairs(content))


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
        if len(items) != 5 or not all(is_digits(x) and len(x) <= 3 for x in items):
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


def _signature(content: Content, layout: Sequence[TileId]) -> tuple[tuple[str, ...], ...]:
    """What a layout shows its neighbours: per slot, the kinds that may not touch (anomaly, wormholes)."""
    t = content.tiles
    return tuple((("anomaly",) if t[x].is_anomaly else ()) + tuple(sorted(t[x].wormholes)) for x in layout)


def layouts(
    content: Content, tiles: Sequence[TileId]
) -> dict[tuple[tuple[str, ...], ...], tuple[TileId, ...]]:
    """The slice's orders without clashing neighbours inside it, one per signature (what the
    neighbouring slices see), the first found in tile order."""
    out: dict[tuple[tuple[str, ...], ...], tuple[TileId, ...]] = {}
    for perm in itertools.permutations(tiles):
        if slice_ok(content, perm):
            out.setdefault(_signature(content, perm), perm)
    return out


def _touch(
    a: tuple[tuple[str, ...], ...], b: tuple[tuple[str, ...], ...], pairs: Sequence[tuple[int, int]]
) -> int:
    """Forbidden neighbours between signature ``a`` and the next slice's ``b``."""
    return sum(len(set(a[i]) & set(b[j])) for i, j in pairs)


def safe_layouts(
    content: Content,
    slices: Sequence[Sequence[TileId]],
    rng: random.Random | None = None,
    *,
    node_limit: int = 20_000,
) -> list[tuple[TileId, ...]] | None:
    """An order of each slice such that no two slices put forbidden neighbours side by side, whichever
    seats the draft gives them (every slice beside every other, both ways), or None if the search
    finds none. ``rng`` shuffles the choices (a random deal); without it the first layouts are kept."""
    pairs = cross_pairs(content)
    options = []
    for s in slices:
        found = list(layouts(content, s).items())
        if not found:
            return None
        if rng is not None:
            rng.shuffle(found)
        else:  # the fewest exposed slots first
            found.sort(key=lambda kv: sum(1 for k in kv[0] if k))
        options.append(found)
    order = sorted(range(len(slices)), key=lambda k: len(options[k]))
    chosen: dict[int, tuple[tuple[tuple[str, ...], ...], tuple[TileId, ...]]] = {}
    nodes = [0]

    def go(i: int) -> bool:
        if i == len(order):
            return True
        nodes[0] += 1
        if nodes[0] > node_limit:
            return False
        k = order[i]
        for sig, lay in options[k]:
            if all(
                not _touch(sig, other, pairs) and not _touch(other, sig, pairs)
                for other, _ in chosen.values()
            ):
                chosen[k] = (sig, lay)
                if go(i + 1):
                    return True
                del chosen[k]
        return False

    return [chosen[k][1] for k in range(len(slices))] if go(0) else None


def fewest_touching(content: Content, ring: Sequence[Sequence[TileId]]) -> int:
    """The fewest forbidden neighbours between neighbouring slices of ``ring`` (the slices clockwise
    around the galaxy) over every order of each slice's tiles (inside each slice none): exact, a
    walk around the ring over the signatures."""
    pairs = cross_pairs(content)
    sigs = [list(layouts(content, s)) or [_signature(content, s)] for s in ring]
    best = None
    for first in sigs[0]:
        cost = {first: 0}
        for k in range(1, len(ring)):
            cost = {b: min(c + _touch(a, b, pairs) for a, c in cost.items()) for b in sigs[k]}
        total = min(c + _touch(b, first, pairs) for b, c in cost.items())
        best = total if best is None else min(best, total)
    return best or 0


def random_slices(
    content: Content, count: int, expansion: str, rng: random.Random, rules: SliceRules | None = None
) -> list[tuple[TileId, ...]]:
    """``count`` random slices of three blue and two red tiles keeping to ``rules`` (the community's
    conventions by default), each laid out without clashing neighbours inside it or beside any other
    slice, whatever the seats (the adjacency rules of ``placement.py``)."""
    rules = rules or SliceRules()
    blue = list(content.pile("blue", expansion))
    red = list(content.pile("red", expansion))
    if len(blue) < SLICE_BLUE * count or len(red) < SLICE_RED * count:
        raise ConfigError(
            f"{count} slices need {SLICE_BLUE * count} blue and {SLICE_RED * count} red tiles; the "
            f"{expansion} piles hold {len(blue)} and {len(red)} (use expansion 'pok' or fewer slices)",
            field="config.options.milty_extra",
        )
    for _ in range(300):
        left_blue, left_red = list(blue), list(red)
        shuffle(rng, left_blue)
        shuffle(rng, left_red)
        out: list[list[TileId]] = []
        for _ in range(count):
            found = _draw_slice(content, left_blue, left_red, rules, rng)
            if found is None:
                break
            out.append(found)
            left_blue = [t for t in left_blue if t not in found]
            left_red = [t for t in left_red if t not in found]
        if len(out) < count:
            continue
        laid = safe_layouts(content, out, rng, node_limit=2_000)
        if laid is not None:
            return laid
    raise ConfigError(
        "could not deal slices that keep to the Milty conventions with no forbidden neighbours side by "
        "side: widen milty_total, allow more wormhole types or legendary planets, or use 'pok'",
        field="config.options.milty_total",
    )


def _draw_slice(
    content: Content, blue: Sequence[TileId], red: Sequence[TileId], rules: SliceRules, rng: random.Random
) -> list[TileId] | None:
    """Three blue and two red tiles from the piles' tops keeping to ``rules`` (None after many tries)."""
    for _ in range(200):
        tiles = rng.sample(list(blue), SLICE_BLUE) + rng.sample(list(red), SLICE_RED)
        if rules_ok(content, tiles, rules) and layouts(content, tiles):
            return tiles
    return None


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
    rules: SliceRules | None = None,
) -> TI4State:
    """The table before the first pick: draft order, slices and factions on offer, objectives drawn."""
    if not 0 <= extra <= 6:
        raise ConfigError(f"milty_extra must be 0..6, not {extra!r}", field="config.options.milty_extra")
    rng = make_rng(seed)
    order = list(range(players))
    shuffle(rng, order)
    slices = _deal_slices(
        content, rng, players=players, extra=extra, expansion=expansion, text=slices_text, rules=rules
    )
    factions = [f.id for f in content.factions_for(expansion)]
    if len(factions) < players + extra:
        raise ConfigError(
            f"{players + extra} factions to offer; the {expansion} game has {len(factions)}",
            field="config.options.milty_extra",
        )
    shuffle(rng, factions)
    drawn, stage1, stage2 = draw_objectives(content, players, rng)
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
        galaxy=(18,) + (0,) * (len(content.board.rings) - 1),  # Mecatol Rex at the centre
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


def _deal_slices(
    content: Content,
    rng: random.Random,
    *,
    players: int,
    extra: int,
    expansion: str,
    text: str,
    rules: SliceRules | None,
) -> list[tuple[TileId, ...]]:
    """The slices on offer: ``text``'s (at least one per player plus ``extra``) or dealt at random."""
    count = slice_count(players, extra)
    if text:
        slices = parse_slices(content, text, expansion)
        if len(slices) < count:
            raise ConfigError(
                f"{players} players with milty_extra {extra} need {count} slices, got {len(slices)}",
                field="config.options.milty_slices",
            )
        return slices
    # never more slices than the piles hold (a base game deals at most six)
    most = min(
        len(content.pile("blue", expansion)) // SLICE_BLUE,
        len(content.pile("red", expansion)) // SLICE_RED,
    )
    return random_slices(content, max(min(count, most), slice_count(players, 0)), expansion, rng, rules)


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
