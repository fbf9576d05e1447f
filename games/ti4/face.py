"""The face of the TI4 setup for people: the tile catalogue, readable views, log lines, hint facts.

Every view of a seat is built from that seat's observation (``games.ti4.hidden``): the galaxy is
face up, a hand is seen only by its holder, secret objectives only by their owner.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from games.core.face import REFEREE, Catalogue, ContentItem, Description, Row, Section, Viewer
from games.core.text import plural
from games.ti4 import ai, hidden
from games.ti4.content import Content, Faction, Tile, TileId
from games.ti4.placement import current_ring, snake_seat
from games.ti4.render import render_svg
from games.ti4.setup import starting_planets
from games.ti4.state import (
    COLOR,
    DRAFT,
    FACTION,
    HIDDEN,
    HIDDEN_BLUE,
    HIDDEN_RED,
    OVER,
    PLACE,
    RED,
    SECRET,
    TI4Action,
    TI4State,
)

if TYPE_CHECKING:
    from games.ti4.game import TI4Game

__all__ = [
    "catalogue",
    "describe",
    "faction_name",
    "galaxy_map",
    "log_line",
    "render",
    "slice_totals",
    "tile_words",
    "where",
]

GREEK = {"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ"}


def catalogue(content: Content) -> Catalogue:
    """Every system tile, faction, colour, strategy card and objective of the pack."""
    items = [_tile_item(content, t) for t in sorted(content.tiles.values(), key=lambda x: x.id)]
    items += [_faction_item(content, f) for f in content.factions]
    for c, e in content.colors:
        items.append(ContentItem(id=c, kind="colour", name=c, values={"expansion": e}))
    for i, name in enumerate(content.strategy_cards):
        items.append(
            ContentItem(id=str(i + 1), kind="strategy card", name=name, values={"initiative": i + 1})
        )
    for o in content.objectives:
        items.append(
            ContentItem(id=o.id, kind="objective", name=o.name, values={"deck": o.deck}, authored=o.authored)
        )
    return Catalogue(
        game="ti4",
        version=content.version,
        items=tuple(items),
        notes="System tiles and factions' home systems are transcribed from the printed tiles; the "
        "factions' starting technologies and units and the objective titles (base game) are authored "
        "(typed from the printed components, not from the reference data): load your own pack to "
        "replace them. Five-player trade goods by home position and the Milty slice shape are our "
        "readings (docs/ti4.md).",
    )


def _tile_item(content: Content, t: Tile) -> ContentItem:
    """A system tile in the catalogue: its planets, wormholes and anomalies."""
    return ContentItem(
        id=str(t.id),
        kind="system tile",
        name=t.name,
        text=f"system {t.id}: {tile_words(content, t.id)}" + (f" ({t.note})" if t.note else ""),
        values={
            "back": t.back,
            "pile": t.pile,
            "expansion": t.expansion,
            "planets": [
                {
                    "name": p.name,
                    "resources": p.resources,
                    "influence": p.influence,
                    "trait": p.trait or None,
                    "specialty": p.specialty or None,
                    "legendary": p.legendary,
                }
                for p in t.planets
            ],
            "wormholes": list(t.wormholes),
            "anomalies": list(t.anomalies),
            "faction": t.faction or None,
        },
        authored=t.authored,
    )


def _faction_item(content: Content, f: Faction) -> ContentItem:
    """A faction in the catalogue: its home system, starting technologies and units."""
    units = ", ".join(f"{n} {u.replace('_', ' ')}" for u, n in f.units)
    techs = ", ".join(f.technologies) or "none"
    choice = f"; {f.technology_choice}" if f.technology_choice else ""
    return ContentItem(
        id=f.id,
        kind="faction",
        name=f.name,
        text=f"home system {f.home} ({', '.join(starting_planets(content, f.id))}); starting "
        f"technologies: {techs}{choice}; starting units: {units}",
        values={
            "home_system": str(f.home),
            "expansion": f.expansion,
            "technologies": list(f.technologies),
            "units": dict(f.units),
        },
        authored=f.authored,
    )


def _seat_name(game: TI4Game, state: TI4State, seat: int) -> str:
    f = (
        game.pack.faction(state.factions[seat])
        if 0 <= seat < state.players and state.factions[seat]
        else None
    )
    return f"seat {seat}" + (f" ({f.name})" if f else "")


def _view(game: TI4Game, state: TI4State, viewer: Viewer) -> TI4State:
    return state if viewer == REFEREE else hidden.observe(state, game.pack, viewer)


def _step(game: TI4Game, s: TI4State) -> str:
    who = _seat_name(game, s, s.actor)
    if s.phase == OVER:
        vals = game.home_values(s, fill=False)
        shown = ", ".join(f"seat {k} {v:.2f}" for k, v in enumerate(vals))
        gap = max(vals) - min(vals)
        return f"setup complete: home values {shown}; gap between the best and the worst {gap:.2f}"
    if s.phase == FACTION:
        return f"{who} chooses a faction"
    if s.phase == COLOR:
        return f"{who} chooses a colour"
    if s.phase == RED:
        red = f"red tile {s.red_tile}" if s.red_tile > 0 else "a red-backed tile"
        return f"{who}, speaker: place {red} next to Mecatol Rex"
    if s.phase == PLACE:
        layout = game.pack.board.layouts[s.players]
        done = len(s.placed) - (1 if s.red_tile else 0)
        total = len(layout.systems) - layout.extra_red
        ring = current_ring(s.galaxy, game.pack.board, layout)
        nxt = snake_seat(done + 1, s.players, s.table, s.speaker) if done + 1 < total else -1
        tail = f", next seat {nxt}" if nxt >= 0 else ""
        return f"{who} places a system tile in ring {ring} (placement {done + 1} of {total}{tail})"
    if s.phase == SECRET:
        return f"{who} keeps one of two secret objectives"
    done = (
        sum(1 for k in s.slice_pick if k >= 0)
        + sum(1 for f in s.factions if f)
        + sum(1 for p in s.seat_pick if p)
    )
    return f"{who} picks a slice, a faction or a seat (pick {done + 1} of {3 * s.players})"


def pack_name(game: TI4Game, objective: str) -> str:
    """An objective's title (``hidden`` for one the viewer cannot see)."""
    if objective == HIDDEN:
        return "hidden"
    return next((o.name for o in game.pack.objectives if o.id == objective), objective)


_SHORT = {"jolnar": "Jol-Nar", "naazrokha": "Naaz-Rokha", "l1z1x": "L1Z1X", "cabal": "Vuil'raith"}
"""Short faction names as players say them where the id is not the name (a map cell is narrow)."""

_COMPASS = ("north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west")


def faction_name(game: TI4Game, faction: str) -> str:
    """The printed name (``The Arborec``), or the id when the pack does not know it."""
    f = game.pack.faction(faction) if faction else None
    return f.name if f else faction


def short_faction(faction: str) -> str:
    """The name players use at the table (``Arborec``, ``Jol-Nar``) for a narrow map cell."""
    return _SHORT.get(faction, faction.capitalize())


def where(content: Content, pos: int) -> str:
    """A position in words: ``ring 3, south-east (position 22)``; Mecatol Rex at the centre."""
    if pos == 0:
        return "the centre (Mecatol Rex)"
    q, r = content.board.coords[pos]
    x, y = 1.5 * q, math.sqrt(3) * (r + q / 2)
    angle = math.degrees(math.atan2(x, -y)) % 360  # 0 = north, clockwise
    side = _COMPASS[round(angle / 45) % 8]
    return f"ring {content.board.rings[pos]}, {side} (position {pos})"


def planets_words(tile: Tile) -> str:
    """``Lodor: 3 resources, 1 influence, cultural`` for each planet, ``;``-separated."""
    parts = []
    for p in tile.planets:
        extra = [x for x in (p.trait, f"{p.specialty} specialty" if p.specialty else "") if x]
        if p.legendary:
            extra.append("legendary")
        parts.append(
            f"{p.name}: {plural(p.resources, 'resource')}, {p.influence} influence"
            + "".join(f", {x}" for x in extra)
        )
    return "; ".join(parts)


def tile_words(content: Content, t: TileId) -> str:
    """A tile in full words: its planets, anomalies and wormholes (``empty space`` when none)."""
    if t == HIDDEN_BLUE:
        return "a face-down blue-backed system"
    if t == HIDDEN_RED:
        return "a face-down red-backed system"
    tile = content.tiles.get(t)
    if tile is None:
        return f"system {t}"
    bits = [planets_words(tile)] if tile.planets else []
    bits += [a.replace("-", " ") for a in tile.anomalies]
    bits += [f"{w} wormhole" for w in tile.wormholes]
    return "; ".join(bits) if bits else "empty space"


def _backs(pack: Content, hand: tuple[TileId, ...]) -> str:
    blue = sum(1 for t in hand if t == HIDDEN_BLUE or (t > 0 and pack.tiles[t].back == "blue"))
    red = len(hand) - blue
    parts = [f"{n} {colour}-backed" for n, colour in ((blue, "blue"), (red, "red")) if n]
    return " and ".join(parts) + (" system" if len(hand) == 1 else " systems")


_CELL = 10


def _cell(game: TI4Game, s: TI4State, pos: int, homes: dict[int, int], open_now: set[int]) -> str:
    t = s.galaxy[pos]
    if pos == 0:
        return "Mecatol"
    if pos in homes:
        k = homes[pos]
        return short_faction(s.factions[k]) if s.factions[k] else f"seat {k}"
    if t > 0:
        return f"tile {t}"
    return f"at {pos}" if pos in open_now else "."


def _open_ring(game: TI4Game, s: TI4State) -> int:
    """The ring that receives tiles now (0 when no tile is being placed)."""
    if s.phase != PLACE:
        return 0
    layout = game.pack.board.layouts[s.players]
    return current_ring(s.galaxy, game.pack.board, layout)


def galaxy_map(game: TI4Game, s: TI4State) -> list[str]:
    """The galaxy drawn as a honeycomb of 13 lines (flat-topped hexes, north up): ``tile 26`` for a
    placed system, ``at 7`` for an open position (the notation's ``place T at 7``), a faction (or
    ``seat 2``) on a home system, ``Mecatol`` at the centre."""
    pack = game.pack
    spaces = set(ai.spaces_in_play(s, pack))
    homes = {h: k for k, h in enumerate(s.homes) if h}
    ring = _open_ring(game, s)
    open_now = {p for p in spaces if s.galaxy[p] == 0 and p not in homes and pack.board.rings[p] == ring}
    rows: dict[int, dict[int, str]] = {}
    for pos in spaces | {0}:
        q, r = pack.board.coords[pos]
        rows.setdefault(2 * r + q, {})[q] = _cell(game, s, pos, homes, open_now)
    lo = min(q for row in rows.values() for q in row)
    lines = []
    for y in range(min(rows), max(rows) + 1):
        cells = rows.get(y, {})
        line = "".join(cells.get(q, "").center(_CELL) for q in range(lo, lo + 7))
        lines.append(line.rstrip())
    return lines


def _seat_rows(game: TI4Game, s: TI4State, viewer: Viewer) -> list[Row]:
    pack = game.pack
    vals = game.home_values(s) if all(s.homes) else [0.0] * s.players
    best = max(vals) if all(s.homes) else 0.0
    rows = []
    for k in range(s.players):
        bits = [faction_name(game, s.factions[k]) if s.factions[k] else "no faction yet"]
        bits.append(s.colors[k] or "no colour yet")
        if s.homes[k]:
            home = f"home system in {where(pack, s.homes[k])}"
            if all(s.homes):
                home += f", home value {vals[k]:.2f}" + (
                    " (the best)" if vals[k] == best else f" ({vals[k] - best:+.2f} to the best)"
                )
            bits.append(home)
        hand = s.hands[k]
        if hand:
            verb = "to place" if hidden.dealt(s) else "to be dealt"
            bits.append(f"{verb}: {_backs(pack, hand)}")
        if s.trade_goods[k]:
            bits.append(f"{s.trade_goods[k]} trade goods")
        if s.mode == "milty" and s.slice_pick[k] >= 0:
            bits.append(f"slice {s.slice_pick[k] + 1}")
        if s.mode == "milty" and s.seat_pick[k]:
            bits.append(f"seat position {s.seat_pick[k]}" + (" (speaker)" if s.seat_pick[k] == 1 else ""))
        label = f"Seat {k}" + (" (speaker)" if k == s.speaker else "") + (", you" if k == viewer else "")
        rows.append(Row(label=label, value="; ".join(bits), seat=k))
    return rows


def _placed_rows(game: TI4Game, s: TI4State) -> tuple[Row, ...]:
    pack = game.pack
    rows = []
    for pos in ai.spaces_in_play(s, pack):
        t = s.galaxy[pos]
        if t > 0 and pos not in s.homes and pos != 0 and t in pack.tiles:
            rows.append(
                Row(
                    label=f"tile {t}", value=f"{tile_words(pack, t)} (at {pos}, ring {pack.board.rings[pos]})"
                )
            )
    return tuple(rows)


def describe(game: TI4Game, state: TI4State, viewer: Viewer) -> Description:
    """What ``viewer`` may see: the viewer's own hand (tile by tile, in words), the galaxy as a map,
    every seat's faction, colour, home system and home value, the Milty slices or the objectives, and
    the systems placed so far (last: a short screen cuts it first)."""
    s = _view(game, state, viewer)
    pack = game.pack
    mode = ", Milty draft" if s.mode == "milty" else ""
    pok = " with Prophecy of Kings" if s.expansion == "pok" else ""
    head = f"Twilight Imperium 4 galaxy setup, {s.players} players{mode}{pok}"
    sections: list[Section] = []
    if 0 <= viewer < s.players or viewer == REFEREE:
        sections += _private(game, s, viewer)
    legend = "tile N: a system placed; at N: a position open now (place T at N); . : open later"
    if s.phase != DRAFT:  # a Milty draft has no galaxy until the seats are picked
        sections.append(Section(title="Galaxy (north up)", lines=(*galaxy_map(game, s), legend)))
    sections.append(Section(title="Seats", rows=tuple(_seat_rows(game, s, viewer))))
    if s.mode == "milty" and s.phase == DRAFT:
        slice_rows = tuple(
            Row(
                label=f"Slice {k + 1}",
                value=_slice_summary(game, sl)
                + ": "
                + "; ".join(f"tile {t}: {tile_words(pack, t)}" for t in sl),
            )
            for k, sl in enumerate(s.slices)
            if k not in s.slice_pick
        )
        sections.append(Section(title="Slices left", rows=slice_rows))
        taken = {f for f in s.factions if f}
        offered = [faction_name(game, f) for f in s.offered if f not in taken]
        sections.append(Section(title="Factions offered", lines=(", ".join(offered) or "none",)))
    if s.phase == OVER:
        shown = [pack_name(game, o) for o in s.stage1[: s.revealed]]
        sections.append(Section(title="Objectives", lines=(f"stage I revealed: {', '.join(shown)}",)))
    placed = _placed_rows(game, s)
    if placed:
        sections.append(Section(title="Systems placed", rows=placed))
    return Description(
        game="ti4", viewer=viewer, headline=head, step=_step(game, s), sections=tuple(sections)
    )


def slice_totals(pack: Content, tiles: tuple[TileId, ...]) -> tuple[float, float, int, int]:
    """Optimal resources, optimal influence, wormholes and legendary planets of a slice."""
    r = i = 0.0
    worm = legend = 0
    for t in tiles:
        tile = pack.tiles[t]
        worm += len(tile.wormholes)
        for p in tile.planets:
            legend += p.legendary
            if p.resources > p.influence:
                r += p.resources
            elif p.influence > p.resources:
                i += p.influence
            else:
                r += p.resources / 2
                i += p.influence / 2
    return r, i, worm, legend


def _slice_summary(game: TI4Game, tiles: tuple[TileId, ...]) -> str:
    r, i, worm, legend = slice_totals(game.pack, tiles)
    value = ai.slice_value(game.pack, tiles, game.weights)
    text = f"value {value:.1f}, optimal resources {r:g}, influence {i:g}"
    if worm:
        text += f", {worm} wormhole{'s' if worm > 1 else ''}"
    if legend:
        text += f", {legend} legendary planet{'s' if legend > 1 else ''}"
    return text


def _private(game: TI4Game, s: TI4State, viewer: Viewer) -> list[Section]:
    seats = range(s.players) if viewer == REFEREE else [viewer]
    out = []
    for k in seats:
        rows = []
        if s.hands[k] and all(t > 0 for t in s.hands[k]) and hidden.dealt(s):
            for t in s.hands[k]:
                back = game.pack.tiles[t].back
                rows.append(
                    Row(label=f"tile {t}", value=f"{tile_words(game.pack, t)} ({back}-backed)", seat=k)
                )
        if s.phase in (SECRET, OVER) and all(o != HIDDEN for o in s.secret_drawn[k]):
            kept = s.secret_kept[k]
            text = (
                pack_name(game, kept) if kept else " or ".join(pack_name(game, o) for o in s.secret_drawn[k])
            )
            rows.append(Row(label="secret objective", value=text, seat=k))
        if rows:
            title = "Yours alone (hidden from the other seats)" if k == viewer else f"Seat {k} alone"
            out.append(Section(title=title, rows=tuple(rows), seat=k))
    return out


def render(game: TI4Game, state: TI4State, viewer: Viewer) -> str:
    """An SVG of the galaxy as ``viewer`` sees it, with the balance per seat."""
    s = _view(game, state, viewer)
    reports = game.reports(s)
    hand = s.hands[viewer] if 0 <= viewer < s.players else ()
    d = describe(game, state, viewer)
    return render_svg(game.pack, s, reports, title=d.headline, hand=hand, step=d.step)


def log_line(game: TI4Game, state: TI4State, action: TI4Action, viewer: Viewer) -> str:
    """One sentence per decision; a secret objective kept is named only to its owner and the referee."""
    who = "S" + _seat_name(game, state, state.actor)[1:]
    pack = game.pack
    if action.kind == "faction":
        f = pack.faction(action.name)
        verb = "picks" if state.phase == DRAFT else "chooses"
        return f"{who} {verb} {f.name if f else action.name}" + (
            f" (home system: tile {f.home})." if f else "."
        )
    if action.kind == "color":
        return f"{who} chooses {action.name}."
    if action.kind == "place":
        ring = pack.board.rings[action.pos] if 0 <= action.pos < len(pack.board.rings) else 0
        if state.phase == RED:
            return (
                f"{who}, the speaker, draws red tile {action.tile} ({tile_words(pack, action.tile)}) "
                f"and places it next to Mecatol Rex in {where(pack, action.pos)}."
            )
        del ring
        return (
            f"{who} places tile {action.tile} ({tile_words(pack, action.tile)}) in {where(pack, action.pos)}."
        )
    if action.kind == "keep":
        if viewer in (REFEREE, state.actor):
            return f"{who} keeps secret objective {pack_name(game, action.name)}."
        return f"{who} keeps a secret objective."
    if action.kind == "slice":
        sl = state.slices[action.pos] if 0 <= action.pos < len(state.slices) else ()
        return f"{who} picks slice {action.pos + 1} (tiles {', '.join(str(t) for t in sl)})."
    if action.kind == "seat":
        return f"{who} picks seat {action.pos}" + (" and becomes speaker." if action.pos == 1 else ".")
    return f"{who} plays {action.kind}."
