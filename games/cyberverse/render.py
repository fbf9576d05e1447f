"""The SVG picture of a CyberVerse position: New Eden with its districts and News track, and the
district board of the Combat under way (games/core/face.py, ``render``)."""

from __future__ import annotations

import html

from games.core.face import REFEREE, Viewer
from games.cyberverse.content import POSITION_KINDS, Content
from games.cyberverse.engine import STORIES_TO_WIN
from games.cyberverse.face import step_text
from games.cyberverse.hidden import observation as hidden_observation
from games.cyberverse.state import AGENT, TEAMMATE, State

__all__ = ["render"]


ZONE = "#f4f1ea"
"""A zone of a district board in the picture."""
ENTRY = "#dfe9f3"
"""The entry zone of a district board."""
EDGE = "#6b6b6b"
"""The outline of a zone: at least 3:1 against the page and the zones (issue 30's pictures)."""
POSITION_COLOURS = ("#b85c00", "#1f6aa5", "#0e7a63")
"""The dot of an advantageous, covered and hacking position (``POSITION_KINDS``): at least 3:1
against the page and every zone."""


NEWS_CHARS = 53
"""The News track's line in the picture wraps at this many characters (10 px text, 320 px wide)."""
HEADLINE_CHARS = 96
"""The picture's headline wraps at this many characters (15 px bold text, 960 px wide)."""


def _ink(fill: str) -> str:
    """Black or white, whichever reads better on ``fill`` (``#rrggbb`` or ``#rgb``; an
    Organization's colour comes from the content pack)."""

    def lin(v: int) -> float:
        x = v / 255
        return x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4

    if len(fill) == 4 and fill.startswith("#"):  # "#333"
        fill = "#" + "".join(ch * 2 for ch in fill[1:])
    if not (len(fill) == 7 and fill.startswith("#")):
        return "#fff"
    r, g, b = (lin(int(fill[i : i + 2], 16)) for i in (1, 3, 5))
    lum = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return "#000" if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else "#fff"


def _miniatures(s: State, c: Content, d: int) -> list[tuple[int, str, str]]:
    """(zone, colour, name) of each miniature on district ``d``'s board: Agents, then Teammates and
    Henchmen of the Combat under way (or the Henchmen standing there)."""
    minis: list[tuple[int, str, str]] = []
    for a in s.agents:
        if a.district == d:
            org = c.organisations[a.org]
            minis.append((a.zone, org.colour, f"{c.faces[2 * a.sheet + a.side].name} ({org.name})"))
    if s.fight is not None and s.fight.district == d:
        for f in s.fight.fighters:
            if f.kind != AGENT and not f.gone:
                role = "teammate" if f.kind == TEAMMATE else "henchman"
                colour = c.organisations[f.org].colour if f.kind == TEAMMATE else "#333"
                minis.append((f.zone, colour, f"{c.henchman_types[f.ref]} ({role})"))
    else:
        for card, zone in s.city.henchmen[d]:
            minis.append((zone, "#333", f"{c.henchmen[card].name} (henchman)"))
    return minis


def _board_svg(s: State, c: Content, d: int, x0: int, y0: int) -> list[str]:
    board = c.boards[s.city.boards[d]]
    cell = 56
    out = [
        f'<text x="{x0}" y="{y0 - 6}" font-size="12" font-weight="bold">{d + 1}. {html.escape(c.district_names[d])} (district board {board.id})</text>'  # noqa: E501
    ]
    for z, (col, row) in enumerate(board.coords):
        x, y = x0 + col * cell, y0 + row * cell
        fill = ENTRY if z == board.entry else ZONE
        out.append(
            f'<rect x="{x}" y="{y}" width="{cell - 2}" height="{cell - 2}" fill="{fill}" stroke="{EDGE}" stroke-dasharray="3,2"/>'  # noqa: E501
        )
        out.append(f'<text x="{x + 3}" y="{y + 11}" font-size="9">{z + 1}</text>')
        p = board.position_at[z]
        if p >= 0:
            colour = POSITION_COLOURS[board.positions[p][1]]
            out.append(
                f'<circle cx="{x + cell - 12}" cy="{y + 10}" r="5" fill="{colour}"><title>{POSITION_KINDS[board.positions[p][1]]}</title></circle>'  # noqa: E501
            )
    for a_, b_ in board.walls:
        (ca, ra), (cb, rb) = board.coords[a_], board.coords[b_]
        if ra == rb:
            x = x0 + max(ca, cb) * cell - 1
            out.append(
                f'<line x1="{x}" y1="{y0 + ra * cell}" x2="{x}" y2="{y0 + ra * cell + cell - 2}" stroke="#222" stroke-width="4"/>'  # noqa: E501
            )
        else:
            y = y0 + max(ra, rb) * cell - 1
            out.append(
                f'<line x1="{x0 + ca * cell}" y1="{y}" x2="{x0 + ca * cell + cell - 2}" y2="{y}" stroke="#222" stroke-width="4"/>'  # noqa: E501
            )
    slots: dict[int, int] = {}
    minis = _miniatures(s, c, d)
    infl = ", ".join(f"{c.organisations[p].name} {s.orgs[p].influence[d]}" for p in range(s.players))
    amb = s.city.ambush[d]
    names = [f"influence: {infl}" + (f"; ambush token of {c.organisations[amb].name}" if amb >= 0 else "")]
    for n, (zone, colour, name) in enumerate(minis):
        k = slots.get(zone, 0)
        slots[zone] = k + 1
        col, row = board.coords[zone]
        x, y = x0 + col * cell + 10 + 15 * k, y0 + row * cell + 36
        out.append(
            f'<circle cx="{x}" cy="{y}" r="7" fill="{colour}" stroke="#000" stroke-width="2"><title>{html.escape(name)}</title></circle>'  # noqa: E501
        )
        ink = _ink(colour)
        out.append(
            f'<text x="{x}" y="{y + 3}" font-size="8" fill="{ink}" text-anchor="middle">{n + 1}</text>'
        )
        names.append(f"{n + 1} {name} in zone {zone + 1}")
    lines = _wrap_svg(names[0], 60) + _wrap_svg("; ".join(names[1:]), 60)
    for k, line in enumerate(lines[:5]):
        out.append(f'<text x="{x0}" y="{y0 + 128 + 12 * k}" font-size="9">{html.escape(line)}</text>')
    return out


def _wrap_svg(text: str, width: int) -> list[str]:
    import textwrap

    return textwrap.wrap(text, width) if text else []


def _new_eden_svg(s: State, c: Content, cx: int, cy: int) -> list[str]:
    """The New Eden board: the 5 districts, the Movement points between them, the News track."""
    import math

    pts = [
        (cx + round(90 * math.sin(2 * math.pi * d / 5)), cy - round(80 * math.cos(2 * math.pi * d / 5)))
        for d in range(5)
    ]
    out = [f'<text x="{cx - 60}" y="{cy - 100}" font-size="12" font-weight="bold">New Eden</text>']
    for a in range(5):
        for b in range(a + 1, 5):
            (xa, ya), (xb, yb) = pts[a], pts[b]
            out.append(f'<line x1="{xa}" y1="{ya}" x2="{xb}" y2="{yb}" stroke="#bbb"/>')
            mx, my = (xa + xb) // 2, (ya + yb) // 2
            out.append(f'<text x="{mx}" y="{my}" font-size="9" fill="#777">{c.travel[a][b]}</text>')
    out.append(
        f'<text x="{cx - 150}" y="{cy + 96}" font-size="9" fill="#767676">'
        "on the lines: movement points between districts</text>"
    )
    for d, (x, y) in enumerate(pts):
        out.append(f'<circle cx="{x}" cy="{y}" r="13" fill="#fff" stroke="#333" stroke-width="2"/>')
        out.append(f'<text x="{x - 4}" y="{y + 4}" font-weight="bold">{d + 1}</text>')
    news = [f"{k + 1}: {c.events[e].name}" for k, e in enumerate(s.city.news) if e >= 0]
    for k, line in enumerate(_wrap_svg("news: " + ("; ".join(news) or "none"), NEWS_CHARS)):
        out.append(f'<text x="{cx - 150}" y="{cy + 110 + 12 * k}" font-size="10">{html.escape(line)}</text>')
    return out


def render(s: State, c: Content, viewer: Viewer) -> str:
    """New Eden (the districts with their movement costs and influence) and the 5 district boards."""
    if viewer != REFEREE:
        s = hidden_observation(s, viewer)
    width, height = 1000, 520 + 16 * s.players
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '  # noqa: E501
        'font-family="DejaVu Sans, sans-serif" font-size="11">',
        f'<rect width="{width}" height="{height}" fill="#fbfaf6"/>',
    ]
    for k, line in enumerate(_wrap_svg(f"{step_text(s, c)} - turn {s.turn}", HEADLINE_CHARS)[:2]):
        out.append(
            f'<text x="16" y="{22 + 18 * k}" font-size="15" font-weight="bold">{html.escape(line)}</text>'
        )
    for d in range(5):
        x0 = 16 + (d % 3) * 330
        y0 = 60 + (d // 3) * 200
        out.extend(_board_svg(s, c, d, x0, y0))
    out.extend(_new_eden_svg(s, c, 826, 370))
    y = 480
    goal = STORIES_TO_WIN[s.players]
    for seat, org in enumerate(s.orgs):
        colour = c.organisations[seat].colour
        cards = len(org.support)
        text = (
            f"{c.organisations[seat].name}: {org.money} D, stories solved {len(org.solved)} of {goal}, "
            f"{cards} support card{'' if cards == 1 else 's'}"
        )
        out.append(
            f'<rect x="16" y="{y}" width="12" height="12" fill="{colour}" stroke="#222" stroke-width="2"/>'
        )
        out.append(f'<text x="32" y="{y + 10}" font-size="10">{html.escape(text)}</text>')
        y += 16
    x = 16
    for colour, word in zip(POSITION_COLOURS, POSITION_KINDS, strict=True):
        word += " position"
        out.append(f'<circle cx="{x + 5}" cy="{y + 27}" r="5" fill="{colour}"/>')
        out.append(f'<text x="{x + 14}" y="{y + 31}" font-size="10">{word}</text>')
        x += 160
    out.append(
        f'<rect x="{x}" y="{y + 21}" width="12" height="12" fill="{ENTRY}" stroke="{EDGE}" stroke-width="2"/>'
    )
    out.append(f'<text x="{x + 17}" y="{y + 31}" font-size="10">entry zone</text>')
    out.append(
        f'<line x1="{x + 100}" y1="{y + 27}" x2="{x + 130}" y2="{y + 27}" stroke="#222" stroke-width="4"/>'
    )
    out.append(f'<text x="{x + 136}" y="{y + 31}" font-size="10">wall (zones apart)</text>')
    out.append("</svg>")
    return "".join(out)
