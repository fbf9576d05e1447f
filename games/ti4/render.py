"""The galaxy as an SVG picture: hexes with tile numbers, planet names and resource/influence values,
wormholes, anomalies, home systems, and a panel with the balance per seat (hand-written SVG).
"""

from __future__ import annotations

import html
import math
import textwrap
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
DARK = {"gravity-rift"}
"""Anomalies drawn dark: white ink on them and a light outline against the dark background."""
BACKGROUND = "#10131a"
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


def _luminance(colour: str) -> float:
    """WCAG relative luminance of ``#rrggbb`` or ``#rgb``."""
    h = colour.lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    lin = [c / 255 / 12.92 if c <= 10 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in bytes.fromhex(h)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _ink(background: str) -> str:
    """White or near-black, whichever reads better on ``background`` (a seat's colour may be light)."""
    lum = _luminance(background) + 0.05
    return "#fff" if 1.05 / lum >= lum / (_luminance("#111") + 0.05) else "#111"


def _wrap(s: str, size: int, room: float, weight: str = "normal") -> list[str]:
    """``s`` broken at spaces into lines that fit ``room`` pixels at ``size`` (DejaVu Sans averages
    0.6 em a character, bold 0.66)."""
    return textwrap.wrap(s, max(8, int(room / (size * (0.66 if weight == "bold" else 0.6))))) or [""]


def _centre(content: Content, pos: int) -> tuple[float, float]:
    q, r = content.board.coords[pos]
    return 1.5 * R * q, math.sqrt(3) * R * (r + q / 2)


def _hex(cx: float, cy: float, fill: str, stroke: str = "#555", *, width: float = 1.5, dash: str = "") -> str:
    pts = " ".join(
        f"{cx + R * math.cos(math.radians(60 * k)):.1f},{cy + R * math.sin(math.radians(60 * k)):.1f}"
        for k in range(6)
    )
    d = f' stroke-dasharray="{dash}"' if dash else ""
    return f'<polygon points="{pts}" fill="{fill}" stroke="{stroke}" stroke-width="{width}"{d}/>'


def _text(
    x: float,
    y: float,
    s: str,
    size: int = 10,
    *,
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
    dark = bool(tile.anomalies and tile.anomalies[0] in DARK)
    out = [_hex(cx, cy, _tile_fill(tile), "#aaa" if dark else "#555")]
    ink = "#fff" if dark else "#222"
    out.append(_text(cx, cy - R * 0.62, str(tile.id), 10, weight="bold", fill=ink))
    y = cy - R * 0.28
    for p in tile.planets[:3]:
        label = f"{'★ ' if p.legendary else ''}{p.name} {p.resources}/{p.influence}"
        size = 9 if len(label) <= 17 else 8
        x = cx - 6 if p.specialty else cx  # room for the dot inside the hex
        out.append(_text(x, y, label, size, weight="normal", fill=ink))
        if p.specialty:  # a dot ringed in the ink: the specialty colours vanish on the pale tiles
            half = len(label) * size * 0.29
            dot = SPECIALTY.get(p.specialty, "#888")
            out.append(
                f'<circle cx="{x + half + 6:.1f}" cy="{y - 3:.1f}" r="4.5" fill="{dot}" stroke="{ink}" '
                f'stroke-width="2"><title>{html.escape(p.specialty)} specialty</title></circle>'
            )
        y += 12
    if tile.anomalies:
        out.append(_text(cx, cy + R * 0.48, tile.anomalies[0].replace("-", " "), 9, weight="bold", fill=ink))
    elif not tile.planets:
        words = " and ".join(f"{w} wormhole" for w in tile.wormholes) or "empty space"
        out.append(_text(cx, cy + R * 0.1, words, 9, weight="normal", fill=ink))
    if tile.wormholes:  # beside the tile number, above the planets' labels
        wx, wy = cx + R * 0.36, cy - R * 0.66
        out.append(f'<circle cx="{wx:.1f}" cy="{wy:.1f}" r="8" fill="#fff" stroke="#222" stroke-width="2"/>')
        out.append(
            _text(wx, wy + 4, "".join(GREEK.get(w, w[:1]) for w in tile.wormholes[:2]), 10, weight="bold")
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
    width = int(11.2 * R + PANEL)
    head: list[str] = []
    y = 22.0
    for line in _wrap(title, 14, width - 24, "bold"):
        head.append(_text(12, y, line, 14, weight="bold", fill="#eee", anchor="start"))
        y += 18
    y += 2
    for line in _wrap(step, 12, width - 24) if step else ():  # the step under the title
        head.append(_text(12, y, line, 12, weight="normal", fill="#f3dc8c", anchor="start"))
        y += 16
    top = int(y) - (34 if step else 42)  # the galaxy moves down by the lines above it
    below = y - 2 if step else y + 14  # where the panel starts
    cx0, cy0 = 5.6 * R, 6.2 * R + 20 + top  # the galaxy spans 5.5 R either side, 6.1 R above and below
    homes = {h: k for k, h in enumerate(state.homes) if h}
    body: list[str] = []
    later: list[tuple[int, TileId, float, float]] = []
    for pos in spaces:
        x, y = _centre(content, pos)
        cx, cy = cx0 + x, cy0 + y
        t = state.galaxy[pos]
        if pos in homes:
            later.append((pos, t, cx, cy))
        elif t > 0 and t in content.tiles:
            body += _system(content, content.tiles[t], cx, cy)
        else:
            body.append(_hex(cx, cy, "#1d2330", "#667", width=1.0, dash="4 3"))
            body.append(_text(cx, cy - 2, "open", 10, weight="normal", fill="#889"))
            body.append(_text(cx, cy + 12, f"at {pos}", 10, weight="normal", fill="#889"))
    for pos, t, cx, cy in later:  # drawn last: their labels may pass over a neighbour
        body += _home(content, state, homes[pos], tile=t, centre=(cx, cy), reports=reports)
    panel, bottom = _panel(content, state, reports, x0=int(11.2 * R), hand=hand, y0=below)
    height = max(int(12.4 * R + 40) + top, int(bottom) + 12)
    return "\n".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, sans-serif">',
            f'<rect width="{width}" height="{height}" fill="{BACKGROUND}"/>',
            *head,
            *body,
            *panel,
            "</svg>",
        ]
    )


def _home(
    content: Content,
    state: TI4State,
    seat: int,
    *,
    tile: TileId,
    centre: tuple[float, float],
    reports: Sequence[HomeReport],
) -> list[str]:
    """A seat's home: its colour, faction, home system tile, home value and the speaker token."""
    t = tile
    cx, cy = centre
    colour = COLOR.get(state.colors[seat], SEAT[seat % len(SEAT)])
    ink = _ink(colour)
    out = [_hex(cx, cy, colour, "#fff", width=3.0)]
    out.append(_text(cx, cy - R * 0.5, f"Seat {seat}", 10, weight="bold", fill=ink))
    f = content.faction(state.factions[seat]) if state.factions[seat] else None
    y = cy - R * 0.2
    for line in _faction_lines(f.name) if f else ["home system"]:
        out.append(_text(cx, y, line, 9, weight="normal", fill=ink))
        y += 11
    if t > 0:
        out.append(_text(cx, y, f"tile {t}", 9, weight="normal", fill=ink))
    if seat < len(reports):
        out.append(_text(cx, cy + R * 0.5, f"{reports[seat].value:.2f}", 12, weight="bold", fill=ink))
    if seat == state.speaker:
        out.append(_text(cx, cy + R * 0.74, "speaker", 8, weight="bold", fill=ink))
    return out


class _Column:
    """Text lines set down a column of the panel, each wrapped to the panel's width."""

    def __init__(self, x0: int, y: float) -> None:
        self.x0, self.y = x0, y
        self.out: list[str] = []

    def line(
        self,
        s: str,
        size: int = 10,
        *,
        weight: str = "normal",
        fill: str = "#bbb",
        indent: int = 18,
        gap: int = 0,
    ) -> None:
        """Set ``s`` at ``indent`` from the panel's edge (wrapped lines below), then leave ``gap``."""
        room = PANEL - indent - 12
        for part in _wrap(s, size, room, weight):
            self.out.append(
                _text(self.x0 + 10 + indent, self.y, part, size, weight=weight, fill=fill, anchor="start")
            )
            self.y += size + 3
        self.y += gap


def _panel(
    content: Content,
    state: TI4State,
    reports: Sequence[HomeReport],
    *,
    x0: int,
    hand: Sequence[TileId],
    y0: float,
) -> tuple[list[str], float]:
    """The panel beside the galaxy and the height it reaches."""
    if state.mode == "milty" and not reports:
        return _draft_panel(content, state, x0, y0)
    col = _Column(x0, y0)
    _balance_lines(col, content, state, reports)
    if state.trade_goods and any(state.trade_goods):
        goods = ", ".join(f"seat {k} {g}" for k, g in enumerate(state.trade_goods) if g)
        col.line(f"trade goods: {goods}", 11, fill="#eee", indent=0, gap=6)
    if hand:
        hidden = sum(1 for t in hand if t < 0)
        col.line(
            "your systems to place:" + (f" {_count(hidden, 'face-down tile')}" if hidden else ""),
            11,
            weight="normal",
            fill="#eee",
            indent=0,
        )
        for t in hand:
            if t > 0 and t in content.tiles:
                col.line(f"tile {t}: {_short(content.tiles[t])}", fill="#ddd")
        col.y += 6
    col.y += 10
    _legend(col)
    return col.out, col.y


def _balance_lines(col: _Column, content: Content, state: TI4State, reports: Sequence[HomeReport]) -> None:
    """Each seat's home value and what stands behind it, then the gap between the best and the worst."""
    col.line("Balance per seat: home value", 13, weight="bold", fill="#eee", indent=0, gap=6)
    for k, rep in enumerate(reports):
        colour = COLOR.get(state.colors[k], SEAT[k % len(SEAT)])
        col.out.append(  # outlined: a black seat's swatch on the dark panel
            f'<rect x="{col.x0 + 10}" y="{col.y - 11:.1f}" width="12" height="12" fill="{colour}" '
            'stroke="#eee" stroke-width="2"/>'
        )
        f = content.faction(state.factions[k]) if state.factions[k] else None
        name = f.name.removeprefix("The ") if f else "no faction yet"
        col.line(f"Seat {k}, {name}: {rep.value:.2f}", 12, weight="bold", fill="#eee")
        col.line(
            f"resources {rep.resources:.2f}, influence {rep.influence:.2f}, {_count(rep.systems, 'system')}"
        )
        col.line(
            f"{_count(rep.wormholes, 'wormhole')}, {_count(rep.legendary, 'legendary planet')}, "
            f"{_count(rep.specialties, 'specialty', 'specialties')} within 2 jumps"
        )
        jumps = "beyond 6 jumps" if rep.mecatol is None else f"{rep.mecatol} jumps"
        col.line(f"Mecatol Rex {jumps} away")
        lane = ", ".join(_anomaly(content, a) for a in rep.lane_anomalies) or "none"
        col.line(f"anomalies on the lane: {lane}", gap=5)
    if reports:
        vals = [r.value for r in reports]
        col.y += 6
        col.line(
            f"gap between the best and the worst: {max(vals) - min(vals):.2f}",
            13,
            weight="bold",
            fill="#f3dc8c",
            indent=0,
            gap=8,
        )


def _legend(col: _Column) -> None:
    """What the numbers and signs on the tiles mean, and the specialty colours."""
    col.line("Planet 3/1: 3 resources, 1 influence. ★ legendary planet.", fill="#aaa", indent=0)
    col.line(
        "α β: alpha and beta wormholes. Home value: the systems within reach (optimal resources and "
        "influence, specialties...) by the measure, docs/ti4.md.",
        fill="#aaa",
        indent=0,
        gap=4,
    )
    for spec, colour in SPECIALTY.items():
        col.out.append(f'<circle cx="{col.x0 + 14}" cy="{col.y - 4:.1f}" r="4" fill="{colour}"/>')
        col.line(f"{spec} technology specialty", fill="#aaa", indent=14, gap=1)


def _short(tile: Tile) -> str:
    """A system in a few words: ``"Bereg 3/1, Lirta IV 2/3"``, ``"asteroid field"``, ``"beta wormhole"``."""
    planets = [f"{p.name} {p.resources}/{p.influence}" for p in tile.planets]
    kinds = [a.replace("-", " ") for a in tile.anomalies] + [f"{w} wormhole" for w in tile.wormholes]
    return ", ".join(planets + kinds) or "empty space"


def _count(n: int, word: str, plural: str = "") -> str:
    return f"{n} {word if n == 1 else plural or word + 's'}"


def _anomaly(content: Content, t: TileId) -> str:
    tile = content.tiles.get(t)
    kind = tile.anomalies[0].replace("-", " ") if tile and tile.anomalies else "anomaly"
    return f"{kind} (tile {t})"


def _draft_panel(content: Content, state: TI4State, x0: int, y0: float) -> tuple[list[str], float]:
    """A Milty draft in progress: every slice (tiles, optimal resources and influence, who took it),
    the factions on offer and the seat positions taken; and the height the panel reaches."""
    col = _Column(x0, y0)
    col.line("Milty draft: slices", 13, weight="bold", fill="#eee", indent=0, gap=6)
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
        tiles = ", ".join(str(t) for t in sl)
        col.line(
            f"Slice {k + 1}: tiles {tiles}{who}",
            12,
            weight="bold",
            fill="#888" if k in owner else "#eee",
            indent=0,
        )
        col.line(f"optimal resources {r:g}, influence {i:g}", gap=5)
    taken = {f for f in state.factions if f}
    col.y += 6
    col.line("Factions offered", 13, weight="bold", fill="#eee", indent=0, gap=4)
    for f in state.offered:
        faction = content.faction(f)
        done = f in taken
        col.line(
            (faction.name if faction else f) + (" (taken)" if done else ""), fill="#888" if done else "#ddd"
        )
    seats = (
        ", ".join(f"seat {s} at position {p}" for s, p in enumerate(state.seat_pick) if p > 0) or "none yet"
    )
    col.y += 6
    col.line(f"Seat positions picked (1 = speaker): {seats}", 11, fill="#eee", indent=0)
    return col.out, col.y
