"""The legality checker: every setup rule a finished (or partly built) galaxy breaks, with its tiles.

Given a map string (or a galaxy), it finds the rulebook layout (up to turning and mirroring the
galaxy) and checks: rule: ti4/home-systems (homes where the GAME BOARD SETUP diagram puts them,
distinct home systems); rule: ti4/separate-systems (blue and red system tiles only, in the
expansion); rule: ti4/deal-system-tiles (each tile once; as many blue and red tiles as the deal);
rule: ti4/five-player-red-tile (a red tile next to Mecatol Rex); rule: ti4/ring-order (no ring
with tiles while an inner ring has a gap); rule: ti4/anomaly-adjacency and
rule: ti4/wormhole-adjacency (no neighbours that may not touch, unless there was no other option).

"No other option", exactly: with the placement record (a setup played here), each placement that
made a forbidden neighbour is judged against the placing player's hand at that moment. A bare map
string has no record; then the reading is global: a forbidden pair is a violation when the same
tiles fit the same galaxy with fewer forbidden pairs (computed by an exact branch and bound), and
a note when no arrangement avoids it. A Milty galaxy is checked by its own procedure: five tiles
per slice, no forbidden neighbours inside a slice; pairs across slices are notes (the draft, not
a player, put them there).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from games.ti4.content import Content, Layout, Pos, TileId
from games.ti4.mapstring import ABSENT, MapString, parse_map_string
from games.ti4.placement import Conflict, clash, conflicts, legal_placements, open_spaces, snake_seat

__all__ = ["MapReport", "Violation", "check_map", "check_string", "min_conflicts"]


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken rule.

    Attributes:
        rule: the section id (``ti4/anomaly-adjacency``).
        message: what is wrong, naming the tiles and positions.
        tiles: the tiles involved.
        positions: the positions involved.
    """

    rule: str
    message: str
    tiles: tuple[TileId, ...] = ()
    positions: tuple[Pos, ...] = ()

    def to_dict(self) -> dict[str, object]:
        """Plain JSON types."""
        return {
            "rule": self.rule,
            "message": self.message,
            "tiles": [str(t) for t in self.tiles],
            "positions": list(self.positions),
        }


@dataclass(frozen=True, slots=True)
class MapReport:
    """What the checker found.

    Attributes:
        players: the player count the layout fits (0 if none).
        procedure: ``rulebook`` or ``milty``.
        turn: sixths of a turn the string is turned from our canonical layout (-1: no layout).
        mirrored: whether the string is our layout mirrored.
        homes: the home positions found (in the string's own numbering).
        violations: every broken rule.
        notes: forbidden neighbours the rules allow here (no other option), and other remarks.
    """

    players: int
    procedure: str
    turn: int
    mirrored: bool
    homes: tuple[Pos, ...]
    violations: tuple[Violation, ...] = ()
    notes: tuple[str, ...] = field(default=())

    @property
    def ok(self) -> bool:
        """Whether no rule is broken."""
        return not self.violations

    def to_dict(self) -> dict[str, object]:
        """Plain JSON types."""
        return {
            "players": self.players,
            "procedure": self.procedure,
            "legal": self.ok,
            "homes": list(self.homes),
            "violations": [v.to_dict() for v in self.violations],
            "notes": list(self.notes),
        }


def _transform(content: Content, pos: Pos, turn: int, mirrored: bool) -> Pos:
    board = content.board
    return board.rotate(board.mirror(pos) if mirrored else pos, turn)


def _find_layout(
    content: Content, homes: set[Pos], players: int | None, procedure: str
) -> tuple[int, int, bool, tuple[Pos, ...], tuple[Pos, ...]] | None:
    """(players, turn, mirrored, homes, systems) of the rulebook or Milty layout with these homes."""
    from games.ti4.milty import milty_spaces

    counts = [players] if players else sorted({len(homes)} & {3, 4, 5, 6})
    for n in counts:
        if procedure == "milty":
            base_homes: Sequence[Pos] = content.milty_seats[n]
            base_systems: Sequence[Pos] = [p for p in milty_spaces(content, n) if p and p not in base_homes]
        else:
            lay = content.board.layouts[n]
            base_homes, base_systems = lay.homes, lay.systems
        for mirrored in (False, True):
            for turn in range(6):
                moved = {_transform(content, h, turn, mirrored) for h in base_homes}
                if moved == homes:
                    systems = tuple(sorted(_transform(content, p, turn, mirrored) for p in base_systems))
                    return n, turn, mirrored, tuple(sorted(moved)), systems
    return None


def check_string(content: Content, text: str, **kwargs: object) -> MapReport:
    """:func:`check_map` of a TTS map string (``NotationError`` if it does not parse)."""
    return check_map(content, parse_map_string(text), **kwargs)  # type: ignore[arg-type]


def check_map(
    content: Content,
    galaxy: MapString | Sequence[int],
    *,
    players: int | None = None,
    expansion: str = "pok",
    procedure: str = "rulebook",
    record: Sequence[tuple[int, TileId, Pos]] | None = None,
    hands: Sequence[Sequence[TileId]] | None = None,
    speaker: int = 0,
    reading: str = "player",
    node_limit: int = 200_000,
) -> MapReport:
    """Every setup rule ``galaxy`` breaks.

    Args:
        content: the content pack.
        galaxy: a parsed map string, or 37 entries by position (tile number, 0, or -1).
        players: the player count (None: from the number of homes).
        expansion: tiles allowed: ``pok`` (all) or ``base``.
        procedure: ``rulebook`` or ``milty``.
        record: the placement record (seat, tile, position) of a setup played here (None: none).
        hands: with ``record``: each seat's tiles left in hand at the end (normally empty).
        speaker: with ``record``: the speaker.
        reading: with ``record``: the reading of "no other option" (``player`` or ``tile``).
        node_limit: search nodes for the global "no other option" (a note says when it ran out).
    """
    entries = [galaxy.at(p) for p in range(37)] if isinstance(galaxy, MapString) else list(galaxy)
    tiles = content.tiles
    violations: list[Violation] = []
    notes: list[str] = []
    if entries[0] != 18:
        violations.append(
            Violation(
                "ti4/home-systems",
                f"the centre holds {entries[0]}, not Mecatol Rex (18)",
                (entries[0],),
                (0,),
            )
        )
    homes = {
        p
        for p in range(1, 37)
        if entries[p] == 0 or (entries[p] in tiles and tiles[entries[p]].back == "green")
    }
    found = _find_layout(content, homes, players, procedure)
    if found is None:
        return _no_layout(homes, players, procedure, violations)
    n, turn, mirrored, home_pos, systems = found
    layout = content.board.layouts[n]
    _check_homes(content, entries, home_pos, violations)
    placed = _check_tiles(content, entries, home_pos, systems, expansion, violations)
    if procedure == "rulebook":
        _check_counts(content, layout, placed, violations)
        _check_rings(content, entries, systems, violations)
        pairs = _pairs(content, entries)
        if record is not None:
            _judge_record(content, layout, entries, record, hands, speaker, reading, pairs, violations, notes)
        else:
            _judge_globally(content, placed, pairs, node_limit, violations, notes)
    else:
        _check_milty(content, entries, n, turn, mirrored, violations, notes)
    return MapReport(
        players=n,
        procedure=procedure,
        turn=turn,
        mirrored=mirrored,
        homes=home_pos,
        violations=tuple(violations),
        notes=tuple(notes),
    )


def _no_layout(
    homes: set[Pos], players: int | None, procedure: str, violations: list[Violation]
) -> MapReport:
    """rule: ti4/home-systems - the homes fit no layout: the report says where they are."""
    shown = sorted(homes)
    want = f"{players} players" if players else "3-6 players"
    violations.append(
        Violation(
            "ti4/home-systems",
            f"home systems (0 or green tiles) at {shown}: not the {procedure} layout for {want}",
            positions=tuple(shown),
        )
    )
    return MapReport(
        players=0,
        procedure=procedure,
        turn=-1,
        mirrored=False,
        homes=tuple(shown),
        violations=tuple(violations),
    )


def _check_homes(
    content: Content, entries: Sequence[int], homes: Sequence[Pos], out: list[Violation]
) -> None:
    """rule: ti4/home-systems - distinct home systems (the Creuss Gate or home stands for the Ghosts)."""
    seen: dict[str, Pos] = {}
    for p in homes:
        t = entries[p]
        if t <= 0:
            continue
        faction = content.tiles[t].faction
        if faction in seen:
            out.append(
                Violation(
                    "ti4/home-systems",
                    f"two home systems of {faction} ({seen[faction]} and {p})",
                    (t,),
                    (seen[faction], p),
                )
            )
        seen[faction] = p


def _check_tiles(  # noqa: PLR0917
    content: Content,
    entries: Sequence[int],
    homes: Sequence[Pos],
    systems: Sequence[Pos],
    expansion: str,
    out: list[Violation],
) -> dict[Pos, TileId]:
    """rule: ti4/separate-systems, rule: ti4/deal-system-tiles - system tiles from the piles, once."""
    tiles = content.tiles
    placed: dict[Pos, TileId] = {}
    system_set = set(systems)
    for p in range(1, 37):
        t = entries[p]
        if p in homes:
            continue
        if p not in system_set:
            if t not in (0, ABSENT):
                out.append(
                    Violation(
                        "ti4/home-systems", f"position {p} is outside this galaxy but holds {t}", (t,), (p,)
                    )
                )
            continue
        if t in (0, ABSENT):
            continue
        tile = tiles.get(t)
        if tile is None:
            out.append(
                Violation("ti4/separate-systems", f"position {p}: no system tile {t} exists", (t,), (p,))
            )
            continue
        if tile.pile not in ("blue", "red"):
            what = "a home system" if tile.back == "green" else "not a tile of the blue or red piles"
            out.append(Violation("ti4/separate-systems", f"position {p}: tile {t} is {what}", (t,), (p,)))
            continue
        if expansion == "base" and tile.expansion != "base":
            out.append(
                Violation(
                    "ti4/separate-systems", f"position {p}: tile {t} is a Prophecy of Kings tile", (t,), (p,)
                )
            )
        placed[p] = t
    for t, c in Counter(placed.values()).items():
        if c > 1:
            where = tuple(p for p, x in placed.items() if x == t)
            out.append(
                Violation(
                    "ti4/deal-system-tiles", f"tile {t} appears {c} times (at {list(where)})", (t,), where
                )
            )
    return placed


def _check_counts(
    content: Content, layout: Layout, placed: Mapping[Pos, TileId], out: list[Violation]
) -> None:
    """rule: ti4/deal-system-tiles - the deal's blue and red counts; rule: ti4/five-player-red-tile."""
    n = layout.players
    backs = Counter(content.tiles[t].pile for t in placed.values())
    want = {"blue": n * layout.blue, "red": n * layout.red + layout.extra_red}
    if len(placed) == len(layout.systems):
        for back in ("blue", "red"):
            if backs[back] != want[back]:
                out.append(
                    Violation(
                        "ti4/deal-system-tiles",
                        f"{backs[back]} {back}-backed systems; {n} players are dealt {want[back]}"
                        + (" (with the speaker's red tile)" if back == "red" and layout.extra_red else ""),
                    )
                )
    if layout.extra_red:
        ring1 = [p for p in placed if content.board.rings[p] == 1]
        if len(ring1) == 6 and not any(content.tiles[placed[p]].back == "red" for p in ring1):
            out.append(
                Violation(
                    "ti4/five-player-red-tile",
                    "no red-backed tile next to Mecatol Rex: the speaker places a random red tile there",
                    tuple(placed[p] for p in ring1),
                    tuple(ring1),
                )
            )


def _check_rings(
    content: Content, entries: Sequence[int], systems: Sequence[Pos], out: list[Violation]
) -> None:
    """rule: ti4/ring-order - a ring holds tiles only when every inner ring is full."""
    rings = content.board.rings
    empty_by_ring: dict[int, list[Pos]] = {}
    for p in systems:
        if entries[p] in (0, ABSENT):
            empty_by_ring.setdefault(rings[p], []).append(p)
    for ring in (1, 2):
        gaps = empty_by_ring.get(ring, [])
        outer = [p for p in systems if rings[p] > ring and entries[p] not in (0, ABSENT)]
        if gaps and outer:
            out.append(
                Violation(
                    "ti4/ring-order",
                    f"ring {ring} has empty positions {gaps} while ring {ring + 1}+ holds tiles "
                    f"{[entries[p] for p in outer[:6]]}",
                    tuple(entries[p] for p in outer),
                    tuple(gaps),
                )
            )


def _pairs(content: Content, entries: Sequence[int]) -> list[Conflict]:
    """Neighbouring tiles that may not touch (each pair once)."""
    tiles = content.tiles
    out = []
    for p in range(1, 37):
        a = tiles.get(entries[p])
        if a is None or not (a.is_anomaly or a.wormholes):
            continue
        for q in content.board.adjacent[p]:
            b = tiles.get(entries[q])
            if q > p and b is not None:
                out += [Conflict(k, a.id, p, b.id, q) for k in clash(a, b)]
    return out


def _describe(c: Conflict) -> str:
    what = "anomalies" if c.kind == "anomaly" else f"{c.kind} wormholes"
    return f"tiles {c.tile} (at {c.pos}) and {c.other} (at {c.other_pos}) are neighbouring {what}"


def _judge_globally(  # noqa: PLR0917
    content: Content,
    placed: Mapping[Pos, TileId],
    pairs: Sequence[Conflict],
    node_limit: int,
    out: list[Violation],
    notes: list[str],
) -> None:
    if not pairs:
        return
    best, exact = min_conflicts(content, list(placed), list(placed.values()), node_limit=node_limit)
    for c in pairs:
        if best < len(pairs):
            out.append(
                Violation(
                    c.rule,
                    f"{_describe(c)}: allowed only when there is no other option, and these tiles fit this "
                    f"galaxy with {best} such pair{'s' if best != 1 else ''} ({len(pairs)} here)",
                    (c.tile, c.other),
                    (c.pos, c.other_pos),
                )
            )
        else:
            why = (
                "no arrangement of these tiles avoids it"
                if exact
                else "no arrangement found that avoids it (search stopped)"
            )
            notes.append(f"{_describe(c)}: allowed, {why}")


def _judge_record(  # noqa: PLR0917
    content: Content,
    layout: Layout,
    entries: Sequence[int],
    record: Sequence[tuple[int, TileId, Pos]],
    hands: Sequence[Sequence[TileId]] | None,
    speaker: int,
    reading: str,
    pairs: Sequence[Conflict],
    out: list[Violation],
    notes: list[str],
) -> None:
    """Replay the record; each forbidden pair is judged when its second tile was placed."""
    n = layout.players
    table = list(range(n))
    held = [list(h) for h in (hands or [[] for _ in range(n)])]
    steps = list(record)
    galaxy = [0] * 37
    galaxy[0] = 18
    for p in layout.homes:
        galaxy[p] = entries[p] if entries[p] > 0 else 0
    if layout.extra_red and steps:
        _, t, p = steps.pop(0)
        galaxy[p] = t
    for s, t, _ in steps:
        held[s].append(t)
    judged: set[frozenset[Pos]] = set()
    for i, (s, t, p) in enumerate(steps):
        if s != snake_seat(i, n, table, speaker):
            out.append(
                Violation(
                    "ti4/place-system-tiles",
                    f"placement {i + 1}: seat {s} placed out of the snake order",
                    (t,),
                    (p,),
                )
            )
        if p not in open_spaces(galaxy, content.board, layout):
            out.append(
                Violation(
                    "ti4/ring-order",
                    f"placement {i + 1}: tile {t} at {p} before the inner ring was full",
                    (t,),
                    (p,),
                )
            )
        made = conflicts(galaxy, content.board, content.tiles, t, p) if t in content.tiles else []
        if made:
            ok = (t, p) in legal_placements(galaxy, content, layout, held[s], reading)
            for c in made:
                judged.add(frozenset((c.pos, c.other_pos)))
                if ok:
                    notes.append(f"{_describe(c)}: allowed, seat {s} had no other option (placement {i + 1})")
                else:
                    out.append(
                        Violation(
                            c.rule,
                            f"{_describe(c)}: seat {s} had another option (placement {i + 1})",
                            (c.tile, c.other),
                            (c.pos, c.other_pos),
                        )
                    )
        if t in held[s]:
            held[s].remove(t)
        galaxy[p] = t
    for c in pairs:
        if frozenset((c.pos, c.other_pos)) not in judged:
            out.append(
                Violation(
                    c.rule,
                    f"{_describe(c)}: not in the placement record",
                    (c.tile, c.other),
                    (c.pos, c.other_pos),
                )
            )


def min_conflicts(
    content: Content, spaces: Sequence[Pos], tiles: Sequence[TileId], *, node_limit: int = 200_000
) -> tuple[int, bool]:
    """The fewest neighbouring pairs that may not touch over every arrangement of ``tiles`` in
    ``spaces`` (exact branch and bound; returns (best, proven))."""
    t = content.tiles
    special = sorted(
        (x for x in tiles if t[x].is_anomaly or t[x].wormholes),
        key=lambda x: -len(t[x].anomalies) - len(t[x].wormholes),
    )
    clashes = {(a, b): len(clash(t[a], t[b])) for a, b in itertools.permutations(special, 2)}
    adjacent = {p: [q for q in content.board.adjacent[p] if q in set(spaces)] for p in spaces}
    order = list(spaces)
    best = [sum(1 for a, b in clashes if clashes[a, b]) // 2 + 1]
    nodes = [0]

    def go(i: int, where: dict[Pos, TileId], cost: int) -> None:
        if cost >= best[0]:
            return
        if i == len(special):
            best[0] = cost
            return
        nodes[0] += 1
        if nodes[0] > node_limit:
            return
        tile = special[i]
        options = []
        for p in order:
            if p in where:
                continue
            add = sum(clashes.get((tile, where[q]), 0) for q in adjacent[p] if q in where)
            options.append((add, p))
        options.sort()
        for add, p in options:
            where[p] = tile
            go(i + 1, where, cost + add)
            del where[p]
            if best[0] == 0 or nodes[0] > node_limit:
                return

    go(0, {}, 0)
    return best[0], nodes[0] <= node_limit


def _check_milty(  # noqa: PLR0917
    content: Content,
    entries: Sequence[int],
    players: int,
    turn: int,
    mirrored: bool,
    out: list[Violation],
    notes: list[str],
) -> None:
    """A Milty galaxy: three blue and two red per slice, no forbidden neighbours inside a slice, and
    between neighbouring slices only as many as no order of each slice's tiles avoids (the global
    reading of "no other option", ``milty.fewest_touching``)."""
    from games.ti4.milty import fewest_touching, slice_positions

    tiles = content.tiles
    ring: list[list[TileId]] = []
    for h in content.board.layouts[6].homes:
        spaces = [_transform(content, p, turn, mirrored) for p in slice_positions(content, h)]
        sl = [entries[p] for p in spaces]
        if any(x not in tiles for x in sl):
            continue
        ring.append(sl)
        backs = Counter(tiles[x].pile for x in sl)
        if backs["blue"] != 3 or backs["red"] != 2:
            out.append(
                Violation(
                    "ti4/deal-system-tiles",
                    f"the slice at {spaces} holds {backs['blue']} blue and {backs['red']} red tiles, "
                    "not 3 and 2",
                    tuple(sl),
                    tuple(spaces),
                )
            )
        inside = set(spaces)
        for c in _pairs(content, entries):
            if c.pos in inside and c.other_pos in inside:
                out.append(
                    Violation(
                        c.rule, f"{_describe(c)} inside one slice", (c.tile, c.other), (c.pos, c.other_pos)
                    )
                )
    flagged = {frozenset(v.positions) for v in out}
    across = [c for c in _pairs(content, entries) if frozenset((c.pos, c.other_pos)) not in flagged]
    fewest = fewest_touching(content, ring) if len(ring) == 6 else len(across)
    for c in across:
        if len(across) > fewest:
            out.append(
                Violation(
                    c.rule,
                    f"{_describe(c)} across two slices: the slices' tiles can be laid out with {fewest} such "
                    f"pair{'s' if fewest != 1 else ''} ({len(across)} here)",
                    (c.tile, c.other),
                    (c.pos, c.other_pos),
                )
            )
        else:
            notes.append(
                f"{_describe(c)} across two slices: allowed, no order of the slices' tiles avoids it"
            )
    del players
