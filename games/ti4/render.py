"""The galaxy as an SVG picture: hexes with tile numbers, planet names and resource/influence values,
wormholes, anomalies, home systems, and a panel with the balance per seat (hand-written SVG).
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence

from games.ti4.balance import HomeReport
from games.ti4.content import Content, Tile, TileId
from games.ti4.state import TI4State

__all__ = ["render_svg"]

R = 58.0
"""Hex radius (centre to corner) in pixels."""
PANEL = 420
FILL = {
    "blue": "#d7e6f5",
    "red": "#f4d7d2",
    "supernova": "#f7a35c",
    "muaat-supernova": "#f7a35c",
    "asteroid-field": "#b9ad9b",
    "nebula": "#c7b5e6",
    "gravity-rift": "#5c5470",
    "mecatol": "#f3dc8c",
    "empty": "#f2f2f2",
}
SEAT = ("#d64541", "#3a7bd5", "#2e9e5b", "#8e44ad", "#e08e0b", "#16a0a6")
COLOR = {
    "black": "#333333",
    "blue": "#3a7bd5",
    "green": "#2e9e5b",
    "purple": "#8e44ad",
    "red": "#d64541",
    "yellow": "#d4ac0d",
    "orange": "#e67e22",
    "pink": "#e84393",
}
GREEK = {"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ"}
SPECIALTY = {"biotic": "#2e9e5b", "cybernetic": "#d4ac0d", "propulsion": "#3a7bd5", "warfare": "#d64541"}
"""Technology specialty colours as the printed technology cards use them (green, yellow, blue, red)."""


def _faction_lines(name: str) -> list[str]:
    """A faction's printed name on at most two lines of about 17 characters (``The`` dropped)."""
    name = name.removeprefix("The ")
    if len(name) <= 17:
        return [name]
    words = name.split()
    first = ""
    while words and len(first) + len(words[0]) + 1 <= 17:
        first = (first + " " + words.pop(0)).strip()
    return [first, " ".join(words)]


def _centre(content: Content, pos: int) -> tuple[float, float]:
    q, r = content.board.coords[pos]
    return 1.5 * R * q, math.sqrt(3) * R * (r + q / 2)


def _hex(  # noqa: PLR0917
    cx: float, cy: float, fill: str, stroke: str = "#555", width: float = 1.5, dash: str = ""
) -> str:
    pts = " ".join(
        f"{cx + R * math.cos(math.radians(60 * k)):.1f},{cy + R * math.sin(math.radians(60 * k)):.1f}"
        for k in range(6)
    )
    d = f' stroke-dasharray="{dash}"' if dash else ""
    return f'<polygon points="{pts}" fill="{fill}" stroke="{stroke}" stroke-width="{width}"{d}/>'


def _text(  # noqa: PLR0917
    x: float,
    y: float,
    s: str,
    size: int = 10,
    weight: str = "normal",
    fill: str = "#222",
    anchor: str = "middle",
) -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" font-weight="{weight}" fill="{fill}" '
        f'text-anchor="{anchor}">{html.escape(s)}</text>'
    )


def _tile_fill(tile: Tile) -> str:
    if tile.id == 18:
        return FILL["mecatol"]
    if tile.anomalies:
        return FILL.get(tile.anomalies[0], FILL["red"])
    return FILL.get(tile.back, FILL["empty"])


def _system(content: Content, tile: Tile, cx: float, cy: float) -> list[str]:
    out = [_hex(cx, cy, _tile_fill(tile))]
    dark = bool(tile.anomalies and tile.anomalies[0] == "gravity-rift")
    ink = "#fff" if dark else "#222"
    out.append(_text(cx, cy - R * 0.62, str(tile.id), 10, "bold", ink))
    y = cy - R * 0.28
    for p in tile.planets[:3]:
        label = f"{'★ ' if p.legendary else ''}{p.name} {p.resources}/{p.influence}"
        size = 9 if len(label) <= 17 else 8
        out.append(_text(cx, y, label, size, "normal", ink))
        if p.specialty:
            half = len(label) * size * 0.3
            dot = SPECIALTY.get(p.specialty, "#888")
            out.append(
                f'<circle cx="{cx + half + 5:.1f}" cy="{y - 3:.1f}" r="3.5" fill="{dot}">'
                f"<title>{html.escape(p.specialty)} specialty</title></circle>"
            )
        y += 12
    if tile.anomalies:
        out.append(_text(cx, cy + R * 0.48, tile.anomalies[0].replace("-", " "), 9, "bold", ink))
    elif not tile.planets:
        words = " and ".join(f"{w} wormhole" for w in tile.wormholes) or "empty space"
        out.append(_text(cx, cy + R * 0.1, words, 9, "normal", ink))
    if tile.wormholes:
        out.append(
            f'<circle cx="{cx + R * 0.45:.1f}" cy="{cy - R * 0.5:.1f}" r="9" fill="#fff" stroke="#222"/>'
        )
        out.append(
            _text(
                cx + R * 0.45,
                cy - R * 0.5 + 4,
                "".join(GREEK.get(w, w[:1]) for w in tile.wormholes[:2]),
                11,
                "bold",
            )
        )
    del content
    return out


def render_svg(
    content: Content,
    state: TI4State,
    reports: Sequence[HomeReport],
    *,
    title: str,
    hand: Sequence[TileId] = (),
    step: str = "",
) -> str:
    """The SVG of ``state``'s galaxy (built from what the viewer may see)."""
    from games.ti4.ai import spaces_in_play

    spaces = spaces_in_play(state, content)
    cx0, cy0 = 5.6 * R, 6.2 * R  # the galaxy spans 5.5 R either side, 6.1 R above and below
    width = int(11.2 * R + PANEL)
    top = 24 if step else 0  # room for the step under the title
    height = int(12.4 * R + 40) + top
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" '
        'font-family="DejaVu Sans, sans-serif">',
        f'<rect width="{width}" height="{height}" fill="#10131a"/>',
        _text(12, 22, title, 14, "bold", "#eee", "start"),
    ]
    if step:
        out.append(_text(12, 42, step, 12, "normal", "#f3dc8c", "start"))
    homes = {h: k for k, h in enumerate(state.homes) if h}
    later: list[tuple[int, TileId, float, float]] = []
    for pos in spaces:
        x, y = _centre(content, pos)
        cx, cy = cx0 + x, cy0 + y + 20 + top
        t = state.galaxy[pos]
        if pos in homes:
            later.append((pos, t, cx, cy))
        elif t > 0 and t in content.tiles:
            out += _system(content, content.tiles[t], cx, cy)
        else:
            out.append(_hex(cx, cy, "#1d2330", "#667", 1.0, "4 3"))
            out.append(_text(cx, cy - 2, "open", 10, "normal", "#889"))
            out.append(_text(cx, cy + 12, f"at {pos}", 10, "normal", "#889"))
    for pos, t, cx, cy in later:  # drawn last: their labels may pass over a neighbour
        out += _home(content, state, homes[pos], t, cx, cy, reports)
    out += _panel(content, state, reports, int(11.2 * R), hand)
    out.append("</svg>")
    return "\n".join(out)


def _home(  # noqa: PLR0917
    content: Content,
    state: TI4State,
    seat: int,
    t: TileId,
    cx: float,
    cy: float,
    reports: Sequence[HomeReport],
) -> list[str]:
    colour = COLOR.get(state.colors[seat], SEAT[seat % len(SEAT)])
    out = [_hex(cx, cy, colour, "#fff", 3.0)]
    out.append(_text(cx, cy - R * 0.5, f"Seat {seat}", 10, "bold", "#fff"))
    f = content.faction(state.factions[seat]) if state.factions[seat] else None
    y = cy - R * 0.2
    for line in _faction_lines(f.name) if f else ["home system"]:
        out.append(_text(cx, y, line, 9, "normal", "#fff"))
        y += 11
    if t > 0:
        out.append(_text(cx, y, f"tile {t}", 9, "normal", "#fff"))
    if seat < len(reports):
        out.append(_text(cx, cy + R * 0.5, f"{reports[seat].value:.2f}", 12, "bold", "#fff"))
    if seat == state.speaker:
        out.append(_text(cx, cy + R * 0.74, "speaker", 8, "bold", "#fff"))
    return out


def _panel(
    content: Content, state: TI4State, reports: Sequence[HomeReport], x0: int, hand: Sequence[TileId]
) -> list[str]:
    if state.mode == "milty" and not reports:
        return _draft_panel(content, state, x0)
    out = [_text(x0 + 10, 56, "Balance per seat: home value", 13, "bold", "#eee", "start")]
    y = 80
    for k, rep in enumerate(reports):
        colour = COLOR.get(state.colors[k], SEAT[k % len(SEAT)])
        out.append(f'<rect x="{x0 + 10}" y="{y - 11}" width="12" height="12" fill="{colour}"/>')
        f = content.faction(state.factions[k]) if state.factions[k] else None
        name = f.name.removeprefix("The ") if f else "no faction yet"
        out.append(_text(x0 + 28, y, f"Seat {k}, {name}: {rep.value:.2f}", 12, "bold", "#eee", "start"))
        out.append(
            _text(
                x0 + 28,
                y + 15,
                f"resources {rep.resources:.2f}, influence {rep.influence:.2f}, "
                f"{_count(rep.systems, 'system')}",
                10,
                "normal",
                "#bbb",
                "start",
            )
        )
        out.append(
            _text(
                x0 + 28,
                y + 28,
                f"{_count(rep.wormholes, 'wormhole')}, {_count(rep.legendary, 'legendary planet')}, "
                f"{_count(rep.specialties, 'specialty', 'specialties')} within 2 jumps",
                10,
                "normal",
                "#bbb",
                "start",
            )
        )
        lane = ", ".join(_anomaly(content, a) for a in rep.lane_anomalies) or "none"
        jumps = "beyond 6 jumps" if rep.mecatol is None else f"{rep.mecatol} jumps"
        out.append(_text(x0 + 28, y + 41, f"Mecatol Rex {jumps} away", 10, "normal", "#bbb", "start"))
        out.append(_text(x0 + 28, y + 54, f"anomalies on the lane: {lane}", 10, "normal", "#bbb", "start"))
        y += 72
    if reports:
        vals = [r.value for r in reports]
        out.append(
            _text(
                x0 + 10,
                y + 6,
                f"gap between the best and the worst: {max(vals) - min(vals):.2f}",
                13,
                "bold",
                "#f3dc8c",
                "start",
            )
        )
        y += 30
    if state.trade_goods and any(state.trade_goods):
        goods = ", ".join(f"seat {k} {g}" for k, g in enumerate(state.trade_goods) if g)
        out.append(_text(x0 + 10, y, f"trade goods: {goods}", 11, "normal", "#eee", "start"))
        y += 20
    if hand:
        shown = ", ".join(("a face-down tile" if t < 0 else str(t)) for t in hand)
        out.append(_text(x0 + 10, y, f"your systems to place: {shown}", 11, "normal", "#eee", "start"))
        y += 20
    legend = [
        "Planet 3/1: 3 resources, 1 influence. ★ legendary planet.",
        "α β: alpha and beta wormholes. Home value: the systems within reach",
        "(optimal resources and influence, specialties...) by the measure, docs/ti4.md.",
    ]
    for line in legend:
        out.append(_text(x0 + 10, y + 10, line, 10, "normal", "#aaa", "start"))
        y += 14
    y += 4
    for spec, colour in SPECIALTY.items():
        out.append(f'<circle cx="{x0 + 14}" cy="{y + 6}" r="4" fill="{colour}"/>')
        out.append(_text(x0 + 24, y + 10, f"{spec} technology specialty", 10, "normal", "#aaa", "start"))
        y += 14
    return out


def _count(n: int, word: str, plural: str = "") -> str:
    return f"{n} {word if n == 1 else plural or word + 's'}"


def _anomaly(content: Content, t: TileId) -> str:
    tile = content.tiles.get(t)
    kind = tile.anomalies[0].replace("-", " ") if tile and tile.anomalies else "anomaly"
    return f"{kind} (tile {t})"


def _draft_panel(content: Content, state: TI4State, x0: int) -> list[str]:
    """A Milty draft in progress: every slice (tiles, optimal resources and influence, who took it),
    the factions on offer and the seat positions taken."""
    out = [_text(x0 + 10, 56, "Milty draft: slices", 13, "bold", "#eee", "start")]
    y = 80
    owner = {k: s for s, k in enumerate(state.slice_pick) if k >= 0}
    for k, sl in enumerate(state.slices):
        r = i = 0.0
        for t in sl:
            for p in content.tiles[t].planets if t in content.tiles else ():
                r += (
                    p.resources
                    if p.resources > p.influence
                    else (p.resources / 2 if p.resources == p.influence else 0)
                )
                i += (
                    p.influence
                    if p.influence > p.resources
                    else (p.influence / 2 if p.resources == p.influence else 0)
                )
        who = f", taken by seat {owner[k]}" if k in owner else ""
        colour = "#888" if k in owner else "#eee"
        tiles = ", ".join(str(t) for t in sl)
        out.append(_text(x0 + 10, y, f"Slice {k + 1}: tiles {tiles}{who}", 12, "bold", colour, "start"))
        out.append(
            _text(x0 + 28, y + 14, f"optimal resources {r:g}, influence {i:g}", 10, "normal", "#bbb", "start")
        )
        y += 34
    taken = {f for f in state.factions if f}
    offered = [(f, f in taken) for f in state.offered]
    out.append(_text(x0 + 10, y + 6, "Factions offered", 13, "bold", "#eee", "start"))
    y += 26
    for f, done in offered:
        faction = content.faction(f)
        out.append(
            _text(
                x0 + 28,
                y,
                (faction.name if faction else f) + (" (taken)" if done else ""),
                10,
                "normal",
                "#888" if done else "#ddd",
                "start",
            )
        )
        y += 14
    seats = (
        ", ".join(f"seat {s} at position {p}" for s, p in enumerate(state.seat_pick) if p > 0) or "none yet"
    )
    out.append(
        _text(x0 + 10, y + 10, f"Seat positions picked (1 = speaker): {seats}", 11, "normal", "#eee", "start")
    )
    return out
