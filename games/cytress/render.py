"""The picture of a Cytress position (SVG): the mini-map by faction, Stratos, the rebels, the intel
for sale, the Stratolites and the tube sections, as a viewer may see them (``face.describe`` gives
its title and the open decision)."""

from __future__ import annotations

import html
import math
from typing import TYPE_CHECKING

from games.core.face import REFEREE, SPECTATOR, Viewer
from games.cytress.content import Content
from games.cytress.face import FACTION_TITLES, describe, step_text
from games.cytress.state import AUTOMA, FACTIONS, NOBODY, RESOURCES, CytressState

if TYPE_CHECKING:
    from games.cytress.game import CytressGame

__all__ = ["render"]

FACTION_FILL = ("#f2e08a", "#b9d0f0", "#f2b5a8", "#bfe2b4")
"""The hexes' faction colours (yellow, blue, red, green), light tints: every seat's crew, drawn in a
deep colour, reads on every hex at 3:1 or better, and no seat's colour is a hex's colour."""
OWNER_FILL = ("#186a31", "#1f4fa0", "#b0242a", "#6b3fa0", "#9a4a00", "#444444")
"""The rebels' colours (green, blue, red, purple, orange; grey for any other), deep tones."""
INK = "#222222"
"""Words and outlines on a light tint (the hexes, Stratos' levels)."""
PAPER = "#15161c"
"""The picture's background."""
STRATOS_FILL = "#d9dde8"
TUBE_FILL = "#3a3d45"
HEX_R = 22.0
CHAR_W = 11 * 0.6
"""A character's width at the picture's font size (DejaVu Sans averages 0.6 em), to size the picture."""


def _hex_points(cx: float, cy: float, r: float) -> str:
    """The SVG points of a pointy-top hexagon of radius ``r`` around (``cx``, ``cy``)."""
    pts = []
    for k in range(6):
        ang = math.radians(60 * k - 30)
        pts.append(f"{cx + r * math.cos(ang):.1f},{cy + r * math.sin(ang):.1f}")
    return " ".join(pts)


def _owner_fill(game: CytressGame, s: CytressState, o: int) -> str:
    colour = game.pack.rebels[s.rebels[o].board].colour
    named = {"green": 0, "blue": 1, "red": 2, "purple": 3, "orange": 4}
    return OWNER_FILL[named.get(colour, 5)]


def _swatch(x: float, y: float, r: float, fill: str) -> str:
    """A seat's disc on the dark background: its deep colour ringed in white (2 wide) to stand out."""
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r}" fill="{fill}" stroke="#ffffff" stroke-width="2"/>'


def _svg_stratos(game: CytressGame, s: CytressState, sx: float) -> list[str]:
    """Stratos' three levels (widest at the bottom) with each owner's crews, owner after owner."""
    out: list[str] = []
    for k, level in enumerate((3, 2, 1)):
        y = 40.0 + 34 * k
        wlev = 220 + 40 * k
        x0 = sx + (300 - wlev) / 2
        out.append(
            f'<rect x="{x0:.1f}" y="{y}" width="{wlev}" height="28" rx="6" fill="{STRATOS_FILL}" '
            'stroke="#7d8aa8"/>'
        )
        out.append(f'<text x="{x0 + 6:.1f}" y="{y + 17}" fill="{INK}">level {level}</text>')
        x = x0 + 60
        for o in range(s.owners):
            cnt = s.rebels[o].stratos[level - 1]
            for _ in range(cnt):
                out.append(
                    f'<circle cx="{x:.1f}" cy="{y + 14}" r="4.5" fill="{_owner_fill(game, s, o)}" '
                    'stroke="#ffffff" stroke-width="2"/>'
                )
                x += 11
            x += 6 if cnt else 0
    return out


def _svg_text(x: float, y: float, text: str, fill: str = "#e8e8e8") -> str:
    return f'<text x="{x}" y="{y}" fill="{fill}">{html.escape(text)}</text>'


def _intel_words(c: Content, x: int) -> str:
    """``COR08 creds, tech → Privateers`` (its resource icons and the faction it targets); ``empty``
    for an empty slot."""
    if x == NOBODY:
        return "empty"
    card = c.intel[x]
    icons = ", ".join(RESOURCES[r] for r in card.icons)
    return f"{card.code} {icons} → {FACTION_TITLES[card.target]}"


def _svg_side(game: CytressGame, s: CytressState, sx: float) -> tuple[list[str], float]:
    """The rebels' holdings, the faction boards' intel, the Stratolites and the tubes, in words; and
    the right edge of the longest line (the picture is made that wide)."""
    out: list[str] = []
    right = 0.0

    def text(x: float, y: float, words: str, fill: str = "#e8e8e8") -> None:
        nonlocal right
        right = max(right, x + len(words) * CHAR_W)
        out.append(_svg_text(x, y, words, fill))

    c = game.pack
    y = 160.0
    for seat, player in enumerate(s.players):
        res = ", ".join(f"{x} {RESOURCES[r]}" for r, x in enumerate(player.resources))
        paths = ", ".join(f"{FACTIONS[f].capitalize()} {len(p)}" for f, p in enumerate(player.lifepaths))
        rebel = c.rebels[s.rebels[seat].board]
        side = f", side {'AB'[player.side]}" if player.side >= 0 else ""
        out.append(_swatch(sx + 6, y - 4, 5, _owner_fill(game, s, seat)))
        text(sx + 16, y, f"seat {seat} ({rebel.name}{side}): {res}; {s.rebels[seat].unused} crews left")
        text(sx + 16, y + 14, f"intel cards on lifepaths: {paths}", "#b8b8b8")
        y += 34
    if s.automa is not None:
        out.append(_swatch(sx + 6, y - 4, 5, _owner_fill(game, s, AUTOMA)))
        text(sx + 16, y, f"automa: {len(s.automa.intel)} intel cards; {s.rebels[AUTOMA].unused} crews left")
        y += 22
    cost = c.board_sides[s.board_side].intel_cost
    text(sx, y, f"Intel for sale (cost {cost}; a card's resource icons → the faction it targets):")
    y += 16
    for f in range(4):
        cards = "  ·  ".join(_intel_words(c, x) for x in s.intel_row[f])
        out.append(f'<rect x="{sx}" y="{y - 9}" width="10" height="10" fill="{FACTION_FILL[f]}"/>')
        text(sx + 16, y, f"{FACTION_TITLES[f]}:")
        text(sx + 96, y, cards, "#d0d0d0")
        y += 16
    text(sx, y + 4, f"Stratolites on Stratos ({len(s.strat_deck)} in the deck):")
    y += 20
    for x in s.strat_row:
        if x != NOBODY:
            card = c.stratolites[x]
            words = f"{card.name} ({card.code}): tubes onto {FACTIONS[card.hex].capitalize()} hexes, paid in "
            text(sx + 16, y, words + RESOURCES[card.resource])
            y += 16
    text(sx, y + 4, f"Waste tube sections: {s.tubes_left} near Stratos, {s.tubes_box} in the box")
    return out, right


def _svg_hex(game: CytressGame, s: CytressState, h: int, cx: float, cy: float) -> list[str]:
    """A hex in its faction's tint, its label inside near the top, and below it a waste tube (its
    height on it) or a crew (its owner's number on it)."""
    view = game.ctx.map(s.tiles)
    label = view.layout.labels[h]
    out = [
        f'<polygon points="{_hex_points(cx, cy, HEX_R - 1)}" fill="{FACTION_FILL[view.faction[h]]}" '
        f'stroke="{INK}" stroke-width="1.5"/>',
        f'<text x="{cx:.1f}" y="{cy - 8:.1f}" font-size="8" text-anchor="middle" fill="{INK}">{label}</text>',
    ]
    if s.tube[h]:
        t = s.tube[h]
        top = cy + 14 - (3 * t + 8)
        out.append(
            f'<rect x="{cx - 6:.1f}" y="{top:.1f}" width="12" height="{3 * t + 8}" fill="{TUBE_FILL}" '
            f'stroke="{INK}"/>'
        )
        out.append(
            f'<text x="{cx:.1f}" y="{cy + 12:.1f}" font-size="9" text-anchor="middle" font-weight="bold" '
            f'fill="#ffffff">{t}</text>'
        )
    elif s.crew[h] != NOBODY:
        o = s.crew[h]
        out.append(
            f'<circle cx="{cx:.1f}" cy="{cy + 4:.1f}" r="7.5" fill="{_owner_fill(game, s, o)}" '
            'stroke="#ffffff" stroke-width="1"/>'
        )
        mark = "A" if s.solo and o == AUTOMA else str(o)
        out.append(
            f'<text x="{cx:.1f}" y="{cy + 7.5:.1f}" font-size="10" text-anchor="middle" fill="#ffffff">'
            f"{mark}</text>"
        )
    return out


def render(game: CytressGame, s: CytressState, viewer: Viewer) -> str:
    """The mini-map (hexes in faction tints, labelled inside, crews in their seat's deep colour,
    tubes with their height), Stratos' three levels with each owner's crews, and the rebels'
    resources, as ``viewer`` may see them."""
    if 0 <= viewer < s.num_players:
        s = game.observation(s, viewer)
    view = game.ctx.map(s.tiles)
    w3 = HEX_R * 3**0.5
    body: list[str] = []
    map_w = (max(c for c, _ in view.layout.coords) + 1.5) * w3 + 20
    map_h = (max(r for _, r in view.layout.coords) + 1) * HEX_R * 1.5 + HEX_R + 20
    title = describe(game, s, viewer if viewer != REFEREE else SPECTATOR).headline
    step = step_text(game, s)
    top = 40.0
    for h, (col, row) in enumerate(view.layout.coords):
        cx = 10 + w3 * (col + 0.5 + (0.5 if row % 2 else 0))
        cy = top + HEX_R + row * HEX_R * 1.5
        body += _svg_hex(game, s, h, cx, cy)
    sx = map_w + 10
    body += _svg_stratos(game, s, sx)
    side, right = _svg_side(game, s, sx)
    body += side
    width = int(max(map_w + 650, right + 12, 12 + len(title) * 14 * 0.66 + 12, 12 + len(step) * CHAR_W + 12))
    height = int(max(map_h + 150, 160 + 34 * s.num_players + 22 + 16 * 5 + 20 + 16 * 5 + 60))
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" '
        'font-family="DejaVu Sans, sans-serif" font-size="11">',
        f'<rect width="{width}" height="{height}" fill="{PAPER}"/>',
        f'<text x="12" y="20" font-size="14" font-weight="bold" fill="#f0f0f0">{html.escape(title)}</text>',
        *body,
        f'<text x="12" y="{height - 10}" fill="#bbbbbb">{html.escape(step)}</text>',
        "</svg>",
    ]
    return "\n".join(out)
