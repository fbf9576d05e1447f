"""The legality checker: every setup rule a finished (or partly built) galaxy breaks, with its tiles.

Given a map string (or a galaxy), it finds the rulebook layout (up to turning and mirroring the
galaxy) and checks the rules of these sections, whose code is in ``setup.py`` and ``placement.py``:
ti4/home-systems (homes where the GAME BOARD SETUP diagram puts them, distinct home systems);
ti4/separate-systems (blue and red system tiles only, in the expansion); ti4/deal-system-tiles (each
tile once; as many blue and red tiles as the deal); ti4/five-player-red-tile (a red tile next to
Mecatol Rex); ti4/ring-order (no ring with tiles while an inner ring has a gap);
ti4/anomaly-adjacency and ti4/wormhole-adjacency (no neighbours that may not touch, unless there
was no other option).

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
from games.ti4.state import Placement

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


@dataclass
class _Findings:
    """What the checker finds as it goes: broken rules and remarks."""

    violations: list[Violation] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def add(
        self, rule: str, message: str, tiles: Sequence[TileId] = (), positions: Sequence[Pos] = ()
    ) -> None:
        """A broken rule (``rule`` is its section id)."""
        self.violations.append(Violation(rule, message, tuple(tiles), tuple(positions)))

    def conflict(self, c: Conflict, why: str) -> None:
        """A pair of neighbours that may not touch, and why that is a violation here."""
        self.add(c.rule, f"{_describe(c)}{why}", (c.tile, c.other), (c.pos, c.other_pos))


def check_map(
    content: Content,
    galaxy: MapString | Sequence[int],
    *,
    players: int | None = None,
    expansion: str = "pok",
    procedure: str = "rulebook",
    record: Sequence[Placement] | None = None,
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
        record: the placement record of a setup played here (None: none).
        hands: with ``record``: each seat's tiles left in hand at the end (normally empty).
        speaker: with ``record``: the speaker.
        reading: with ``record``: the reading of "no other option" (``player`` or ``tile``).
        node_limit: search nodes for the global "no other option" (a note says when it ran out).
    """
    entries = [galaxy.at(p) for p in range(37)] if isinstance(galaxy, MapString) else list(galaxy)
    found = _Findings()
    if entries[0] != 18:
        found.add(
            "ti4/home-systems", f"the centre holds {entries[0]}, not Mecatol Rex (18)", (entries[0],), (0,)
        )
    homes = {p for p in range(1, 37) if entries[p] == 0 or _is_home_system(content, entries[p])}
    fit = _find_layout(content, homes, players, procedure)
    if fit is None:
        return _no_layout(homes, players, procedure, found)
    n, turn, mirrored, home_pos, systems = fit
    layout = content.board.layouts[n]
    _check_homes(content, entries, home_pos, found)
    placed = _check_tiles(content, entries, home_pos, systems, expansion=expansion, found=found)
    if procedure == "rulebook":
        _check_counts(content, layout, placed, found)
        _check_rings(content, entries, systems, found)
        pairs = _pairs(content, entries)
        if record is not None:
            _judge_record(content, layout, entries, pairs, found, play=_Play(record, hands, speaker, reading))
        else:
            _judge_globally(content, placed, pairs, found, node_limit=node_limit)
    else:
        _check_milty(content, entries, found, turn=turn, mirrored=mirrored)
    return MapReport(
        players=n,
        procedure=procedure,
        turn=turn,
        mirrored=mirrored,
        homes=home_pos,
        violations=tuple(found.violations),
        notes=tuple(found.notes),
    )


def _is_home_system(content: Content, t: TileId) -> bool:
    """Whether ``t`` is a green-backed tile (a home system, or the Creuss Gate)."""
    tile = content.tiles.get(t)
    return tile is not None and tile.back == "green"


def _no_layout(homes: set[Pos], players: int | None, procedure: str, found: _Findings) -> MapReport:
    """The homes fit no layout of the GAME BOARD SETUP diagrams: the report says where they are."""
    shown = sorted(homes)
    want = f"{players} players" if players else "3-6 players"
    found.add(
        "ti4/home-systems",
        f"home systems (0 or green tiles) at {shown}: not the {procedure} layout for {want}",
        positions=shown,
    )
    return MapReport(
        players=0,
        procedure=procedure,
        turn=-1,
        mirrored=False,
        homes=tuple(shown),
        violations=tuple(found.violations),
    )


def _check_homes(content: Content, entries: Sequence[int], homes: Sequence[Pos], found: _Findings) -> None:
    """Distinct home systems (the Creuss Gate or home stands for the Ghosts)."""
    seen: dict[str, Pos] = {}
    for p in homes:
        t = entries[p]
        if t <= 0:
            continue
        faction = content.tiles[t].faction
        if faction in seen:
            found.add(
                "ti4/home-systems",
                f"two home systems of {faction} ({seen[faction]} and {p})",
                (t,),
                (seen[faction], p),
            )
        seen[faction] = p


def _check_tiles(
    content: Content,
    entries: Sequence[int],
    homes: Sequence[Pos],
    systems: Sequence[Pos],
    *,
    expansion: str,
    found: _Findings,
) -> dict[Pos, TileId]:
    """System tiles from the blue and red piles of the expansion, each once (the separated piles and
    the deal); returns the system tiles placed by position."""
    placed: dict[Pos, TileId] = {}
    system_set = set(systems)
    for p in range(1, 37):
        t = entries[p]
        if p in homes or (p in system_set and t in (0, ABSENT)):
            continue
        if p not in system_set:
            if t not in (0, ABSENT):
                found.add(
                    "ti4/home-systems", f"position {p} is outside this galaxy but holds {t}", (t,), (p,)
                )
            continue
        why = _not_in_the_piles(content, t)
        if why:
            found.add("ti4/separate-systems", f"position {p}: {why}", (t,), (p,))
            continue
        if expansion == "base" and content.tiles[t].expansion != "base":
            found.add(
                "ti4/separate-systems", f"position {p}: tile {t} is a Prophecy of Kings tile", (t,), (p,)
            )
        placed[p] = t
    for t, c in Counter(placed.values()).items():
        if c > 1:
            where = tuple(p for p, x in placed.items() if x == t)
            found.add("ti4/deal-system-tiles", f"tile {t} appears {c} times (at {list(where)})", (t,), where)
    return placed


def _not_in_the_piles(content: Content, t: TileId) -> str:
    """Why ``t`` is not a tile of the blue or red piles ("" when it is one)."""
    tile = content.tiles.get(t)
    if tile is None:
        return f"no system tile {t} exists"
    if tile.pile not in ("blue", "red"):
        what = "a home system" if tile.back == "green" else "not a tile of the blue or red piles"
        return f"tile {t} is {what}"
    return ""


def _check_counts(content: Content, layout: Layout, placed: Mapping[Pos, TileId], found: _Findings) -> None:
    """The deal's blue and red counts; five players: a red tile next to Mecatol Rex."""
    n = layout.players
    backs = Counter(content.tiles[t].pile for t in placed.values())
    want = {"blue": n * layout.blue, "red": n * layout.red + layout.extra_red}
    if len(placed) == len(layout.systems):
        for back in ("blue", "red"):
            if backs[back] != want[back]:
                found.add(
                    "ti4/deal-system-tiles",
                    f"{backs[back]} {back}-backed systems; {n} players are dealt {want[back]}"
                    + (" (with the speaker's red tile)" if back == "red" and layout.extra_red else ""),
                )
    if layout.extra_red:
        ring1 = [p for p in placed if content.board.rings[p] == 1]
        if len(ring1) == 6 and not any(content.tiles[placed[p]].back == "red" for p in ring1):
            found.add(
                "ti4/five-player-red-tile",
                "no red-backed tile next to Mecatol Rex: the speaker places a random red tile there",
                [placed[p] for p in ring1],
                ring1,
            )


def _check_rings(content: Content, entries: Sequence[int], systems: Sequence[Pos], found: _Findings) -> None:
    """A ring holds tiles only when every inner ring is full."""
    rings = content.board.rings
    empty_by_ring: dict[int, list[Pos]] = {}
    for p in systems:
        if entries[p] in (0, ABSENT):
            empty_by_ring.setdefault(rings[p], []).append(p)
    for ring in (1, 2):
        gaps = empty_by_ring.get(ring, [])
        outer = [p for p in systems if rings[p] > ring and entries[p] not in (0, ABSENT)]
        if gaps and outer:
            found.add(
                "ti4/ring-order",
                f"ring {ring} has empty positions {gaps} while ring {ring + 1}+ holds tiles "
                f"{[entries[p] for p in outer[:6]]}",
                [entries[p] for p in outer],
                gaps,
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


def _judge_globally(
    content: Content,
    placed: Mapping[Pos, TileId],
    pairs: Sequence[Conflict],
    found: _Findings,
    *,
    node_limit: int,
) -> None:
    """Without a record: a forbidden pair breaks the rule when the same tiles fit the galaxy with
    fewer such pairs."""
    if not pairs:
        return
    best, exact = min_conflicts(content, list(placed), list(placed.values()), node_limit=node_limit)
    for c in pairs:
        if best < len(pairs):
            found.conflict(
                c,
                ": allowed only when there is no other option, and these tiles fit this "
                f"galaxy with {best} such pair{'s' if best != 1 else ''} ({len(pairs)} here)",
            )
        else:
            why = (
                "no arrangement of these tiles avoids it"
                if exact
                else "no arrangement found that avoids it (search stopped)"
            )
            found.notes.append(f"{_describe(c)}: allowed, {why}")


@dataclass(frozen=True, slots=True)
class _Play:
    """A setup played here: the placement record and what judging it needs (see :func:`check_map`)."""

    record: Sequence[Placement]
    hands: Sequence[Sequence[TileId]] | None
    speaker: int
    reading: str


def _judge_record(
    content: Content,
    layout: Layout,
    entries: Sequence[int],
    pairs: Sequence[Conflict],
    found: _Findings,
    *,
    play: _Play,
) -> None:
    """Replay the record; each forbidden pair is judged when its second tile was placed."""
    n = layout.players
    held = [list(h) for h in (play.hands or [[] for _ in range(n)])]
    steps = list(play.record)
    galaxy = [0] * 37
    galaxy[0] = 18
    for p in layout.homes:
        galaxy[p] = entries[p] if entries[p] > 0 else 0
    if layout.extra_red and steps:
        red = steps.pop(0)
        galaxy[red.pos] = red.tile
    for pl in steps:
        held[pl.seat].append(pl.tile)
    judged: set[frozenset[Pos]] = set()
    for i, pl in enumerate(steps):
        s, t, p = pl.seat, pl.tile, pl.pos
        if s != snake_seat(i, n, list(range(n)), play.speaker):
            found.add(
                "ti4/place-system-tiles",
                f"placement {i + 1}: seat {s} placed out of the snake order",
                (t,),
                (p,),
            )
        if p not in open_spaces(galaxy, content.board, layout):
            found.add(
                "ti4/ring-order",
                f"placement {i + 1}: tile {t} at {p} before the inner ring was full",
                (t,),
                (p,),
            )
        made = conflicts(galaxy, content.board, content.tiles, t, p) if t in content.tiles else []
        ok = bool(made) and (t, p) in legal_placements(galaxy, content, layout, held[s], play.reading)
        for c in made:
            judged.add(frozenset((c.pos, c.other_pos)))
            if ok:
                found.notes.append(
                    f"{_describe(c)}: allowed, seat {s} had no other option (placement {i + 1})"
                )
            else:
                found.conflict(c, f": seat {s} had another option (placement {i + 1})")
        if t in held[s]:
            held[s].remove(t)
        galaxy[p] = t
    for c in pairs:
        if frozenset((c.pos, c.other_pos)) not in judged:
            found.conflict(c, ": not in the placement record")


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


def _check_milty(
    content: Content, entries: Sequence[int], found: _Findings, *, turn: int, mirrored: bool
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
            found.add(
                "ti4/deal-system-tiles",
                f"the slice at {spaces} holds {backs['blue']} blue and {backs['red']} red tiles, not 3 and 2",
                sl,
                spaces,
            )
        inside = set(spaces)
        for c in _pairs(content, entries):
            if c.pos in inside and c.other_pos in inside:
                found.conflict(c, " inside one slice")
    flagged = {frozenset(v.positions) for v in found.violations}
    across = [c for c in _pairs(content, entries) if frozenset((c.pos, c.other_pos)) not in flagged]
    fewest = fewest_touching(content, ring) if len(ring) == 6 else len(across)
    for c in across:
        if len(across) > fewest:
            found.conflict(
                c,
                " across two slices: the slices' tiles can be laid out with "
                f"{fewest} such pair{'s' if fewest != 1 else ''} ({len(across)} here)",
            )
        else:
            found.notes.append(
                f"{_describe(c)} across two slices: allowed, no order of the slices' tiles avoids it"
            )
