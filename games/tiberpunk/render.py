"""Tiberpunk's SVG picture of a position (``render``): the map of Rome with its pieces, the legend and
the players' panels.
"""

from __future__ import annotations

import html
import math
import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import networkx as nx

from games.core.cache import memo
from games.core.face import (
    REFEREE,
    Viewer,
)
from games.tiberpunk.content import (
    GODS,
    SKILLS,
    Content,
)
from games.tiberpunk.describe import hand_text, headline_text, step_text
from games.tiberpunk.dice import score
from games.tiberpunk.snapshot import (
    MINI_WORDS,
    Pos,
    Roll,
    Seat,
    dice_text,
    face_texts,
    god_name,
    pack_of,
    plural,
    read_position,
    seat_colour,
    tile_name,
)
from games.tiberpunk.state import (
    LICTOR,
    PH_DRAFT,
    PH_OVER,
    State,
)

if TYPE_CHECKING:
    from games.tiberpunk.game import TiberpunkGame

__all__ = ["R_DISTRICT", "STEP_CHARS", "render"]


# ---------------------------------------------------------------------------- render (SVG)
W, H = 1240, 832
MAP_X0, MAP_Y0, MAP_W, MAP_H = 40, 82, 700, 700
STEP_CHARS = 150
"""Characters of the step's text on one line of the picture (13 px: 1,170 px of the 1,240)."""
R_DISTRICT = 54


@memo(bound=None)
def _layout(ids: tuple[str, ...], edges: tuple[tuple[int, int], ...]) -> tuple[tuple[float, float], ...]:
    """Pixel centres of the districts: ``face.json``'s map, else a seeded networkx layout (once)."""
    fixed = face_texts()["map"]
    coords: dict[int, tuple[float, float]] = {}
    for i, did in enumerate(ids):
        xy = fixed.get(did)
        if isinstance(xy, list) and len(xy) == 2:
            coords[i] = (float(xy[0]), float(xy[1]))
    if len(coords) < len(ids):
        g = nx.Graph()
        g.add_nodes_from(range(len(ids)))
        g.add_edges_from(edges)
        pos = nx.spring_layout(
            g,
            seed=7,
            pos={k: ((v[0] - 50) / 50, (v[1] - 50) / 50) for k, v in coords.items()} or None,
            fixed=list(coords) or None,
        )
        for i in range(len(ids)):
            if i not in coords:
                x, y = pos[i]
                coords[i] = (50 + 45 * float(x), 50 + 45 * float(y))
    return tuple(
        (MAP_X0 + 50 + coords[i][0] / 100 * (MAP_W - 100), MAP_Y0 + 50 + coords[i][1] / 100 * (MAP_H - 100))
        for i in range(len(ids))
    )


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _text(
    x: float,
    y: float,
    text: str,
    *,
    size: int = 13,
    anchor: str = "start",
    weight: str = "normal",
    fill: str = "#222",
    halo: bool = False,
) -> str:
    ring = ' stroke="#fffaf0" stroke-width="3" paint-order="stroke"' if halo else ""
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" '
        f'font-weight="{weight}" fill="{fill}"{ring}>{_e(text)}</text>'
    )


def _shade(colour: str, black: float = 0.4) -> str:
    """``colour`` mixed with ``black`` parts of black: a label in a colour that must read on the board."""
    rgb = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(c * (1 - black)):02x}" for c in rgb)


def _fitted(x: float, y: float, text: str, width: float, *, size: int = 12, weight: str = "normal") -> str:
    """``text`` at ``size``, smaller when it would run past ``width`` pixels: never cut (0.6 em a
    character, 0.66 bold)."""
    em = 0.66 if weight == "bold" else 0.6
    fits = min(float(size), width / max(1.0, em * len(text)))
    return _text(x, y, text, size=max(7, int(fits)), weight=weight)


def _character(x: float, y: float, fill: str, shackled: bool) -> str:
    ring = (
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="12" fill="none" stroke="#111" stroke-width="3" '
        'stroke-dasharray="3,2"/>'
        if shackled
        else ""
    )
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="9" fill="{fill}" stroke="#111" stroke-width="2"/>{ring}'


def _drone(x: float, y: float, fill: str, shackled: bool) -> str:
    pts = f"{x:.1f},{y - 11:.1f} {x + 11:.1f},{y:.1f} {x:.1f},{y + 11:.1f} {x - 11:.1f},{y:.1f}"
    ring = (
        f'<rect x="{x - 13:.1f}" y="{y - 13:.1f}" width="26" height="26" fill="none" stroke="#111" '
        'stroke-width="3" stroke-dasharray="3,2"/>'
        if shackled
        else ""
    )
    return f'<polygon points="{pts}" fill="{fill}" stroke="#111" stroke-width="2"/>{ring}'


def _lictor(x: float, y: float) -> str:
    corners = ((-9, -10), (9, -10), (9, 2), (0, 11), (-9, 2))
    pts = " ".join(f"{x + dx:.1f},{y + dy:.1f}" for dx, dy in corners)
    return f'<polygon points="{pts}" fill="#222" stroke="#e74c3c" stroke-width="2"/>'


def _quest_marker(x: float, y: float, fill: str) -> str:
    pts = []
    for i in range(10):
        r = 11 if i % 2 == 0 else 4.5
        a = math.pi / 2 + i * math.pi / 5
        pts.append(f"{x + r * math.cos(a):.1f},{y - r * math.sin(a):.1f}")
    return f'<polygon points="{" ".join(pts)}" fill="{fill}" stroke="#111" stroke-width="2"/>'


def _temple(x: float, y: float, fill: str) -> str:
    return (
        f'<g><polygon points="{x - 13:.1f},{y - 4:.1f} {x:.1f},{y - 14:.1f} {x + 13:.1f},{y - 4:.1f}" '
        f'fill="{fill}" stroke="#333" stroke-width="2"/>'
        f'<rect x="{x - 11:.1f}" y="{y - 4:.1f}" width="22" height="13" fill="#fdfaf0" '
        'stroke="#333" stroke-width="2"/>'
        f'<line x1="{x - 4:.1f}" y1="{y - 4:.1f}" x2="{x - 4:.1f}" y2="{y + 9:.1f}" '
        f'stroke="{fill}" stroke-width="2"/>'
        f'<line x1="{x + 4:.1f}" y1="{y - 4:.1f}" x2="{x + 4:.1f}" y2="{y + 9:.1f}" '
        f'stroke="{fill}" stroke-width="2"/></g>'
    )


def _die(x: float, y: float, value: int, needed: bool) -> str:
    """A die showing ``value`` (gold when it shows a value the challenge needs)."""
    fill = "#f5d76e" if needed else "#ffffff"
    return (
        f'<rect x="{x - 10:.1f}" y="{y - 10:.1f}" width="20" height="20" rx="4" fill="{fill}" '
        'stroke="#333" stroke-width="2"/>'
        + _text(x, y + 5, str(value), size=13, anchor="middle", weight="bold")
    )


def _boost(x: float, y: float) -> str:
    """The boost marker on a miniature's base (+1 die)."""
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="6" fill="#fff" stroke="#111" stroke-width="2"/>' + _text(
        x, y + 4, "+", size=11, anchor="middle", weight="bold"
    )


def _hub(x: float, y: float) -> str:
    pts = " ".join(
        f"{x + 10 * math.cos(t):.1f},{y + 10 * math.sin(t):.1f}"
        for t in (math.pi / 6 + i * math.pi / 3 for i in range(6))
    )
    return (
        f'<polygon points="{pts}" fill="#ecf0f1" stroke="#555" stroke-width="2"/>'
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="#555"/>'
    )


def _influence(x: float, y: float, fill: str) -> str:
    return (
        f'<rect x="{x - 4:.1f}" y="{y - 4:.1f}" width="8" height="8" fill="{fill}" '
        'stroke="#111" stroke-width="2"/>'
    )


def render(game: TiberpunkGame, state: State, viewer: Viewer = REFEREE) -> str:
    """The district graph of Rome with every miniature, marker and temple, a legend and each
    player's public holdings (the viewer's own hand named), as an SVG document.

    rule: tiberpunk/movement (the districts and their borders), tiberpunk/structure-interaction
    """
    c = pack_of(game)
    pos = read_position(game, state, viewer)
    xy = _layout(c.district_ids, c.edges)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" '
        'font-family="DejaVu Sans, Verdana, sans-serif">',
        f'<rect width="{W}" height="{H}" fill="#f6f1e4"/>',
        _fitted(20, 30, headline_text(pos), W - 40, size=18, weight="bold"),
        *(
            _text(20, 50 + 16 * i, line, size=13, fill="#444")
            for i, line in enumerate(textwrap.wrap(step_text(game, pos), STEP_CHARS)[:2])
        ),
        f'<rect x="{MAP_X0}" y="{MAP_Y0}" width="{MAP_W}" height="{MAP_H}" rx="14" '
        'fill="#e9dfc7" stroke="#7a6a48"/>',
    ]
    out += _map_static(c, pos, xy)
    out += _map_pieces(c, pos, xy)
    out += _legend(c)
    out += _panel(game, pos, viewer)
    out.append("</svg>")
    return "\n".join(out)


def _map_static(c: Content, pos: Pos, xy: Sequence[tuple[float, float]]) -> list[str]:
    """The districts and their borders, the upgrade hubs and temples with influence markers."""
    tx = face_texts()
    out: list[str] = []
    for a, b in c.edges:
        (x1, y1), (x2, y2) = xy[a], xy[b]
        out.append(
            f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
            'stroke="#9c8a64" stroke-width="6" stroke-linecap="round"/>'
        )
    for d, (x, y) in enumerate(xy):
        out.append(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{R_DISTRICT}" fill="#fffaf0" '
            'stroke="#7a6a48" stroke-width="2.5"/>'
        )
        out.append(
            _text(x, y - 28, c.district_ids[d], size=17, anchor="middle", weight="bold", fill="#5a4a2a")
        )
        out.append(_text(x, y - 13, c.district_names[d], size=10, anchor="middle", fill="#5a4a2a"))
        if d in c.hubs:
            hx, hy = x + 40, y - 38
            out.append(_hub(hx, hy))
            owners = [p for p in pos.players if d in p.hubs]
            for j, p in enumerate(owners):
                out.append(_influence(hx + 15 + 9 * j, hy, seat_colour(p.seat)[1]))
    for g, (a, b) in enumerate(c.temples):
        (x1, y1), (x2, y2) = xy[a], xy[b]
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        fill = str(tx["gods"][GODS[g]]["colour"])
        out.append(_temple(mx, my, fill))
        out.append(_text(mx + 16, my + 4, god_name(g), size=11, weight="bold", fill=_shade(fill), halo=True))
        owners = [p for p in pos.players if g in p.temples]
        for j, p in enumerate(owners):
            out.append(_influence(mx - 9 + 9 * j, my + 17, seat_colour(p.seat)[1]))
    return out


def _map_pieces(c: Content, pos: Pos, xy: Sequence[tuple[float, float]]) -> list[str]:
    """Characters, drones, lictors and quest markers: rows of icons inside each district."""
    tx = face_texts()
    out: list[str] = []
    for d, (x, y) in enumerate(xy):
        icons: list[str] = []
        for p in pos.players:
            fill = seat_colour(p.seat)[1]
            if p.char == d:
                icons.append("c" + fill + ("!" if p.shackled[0] else "") + ("+" if p.boosted[0] else ""))
            if p.drone == d:
                icons.append("d" + fill + ("!" if p.shackled[1] else "") + ("+" if p.boosted[1] else ""))
        lictors = pos.lictors.count(d)
        if lictors:
            icons.append(f"l{lictors}")  # one icon with the number of lictors
        for k, (card, _n) in enumerate(pos.quests):
            if card >= 0 and c.stage1[card].district == d:
                icons.append("q" + str(tx["skills"][SKILLS[k]]["colour"]))
        counts: list[str] = []  # drawn last, over the icons
        per_row = 4 if len(icons) <= 8 else 5
        step = 24 if len(icons) <= 8 else 19
        for j, icon in enumerate(icons):
            row, col = divmod(j, per_row)
            in_row = min(per_row, len(icons) - row * per_row)
            px = x + (col - (in_row - 1) / 2) * step
            py = y + 12 + row * step
            kind, rest = icon[0], icon[1:]
            shackled = "!" in rest
            fill = rest.rstrip("!+")
            if kind == "c":
                out.append(_character(px, py, fill, shackled))
            elif kind == "d":
                out.append(_drone(px, py, fill, shackled))
            elif kind == "l":
                out.append(_lictor(px, py))
                if rest != "1":
                    counts.append(_text(px + 8, py + 14, f"×{rest}", size=11, weight="bold", halo=True))
            else:
                out.append(_quest_marker(px, py, fill))
            if "+" in rest:
                out.append(_boost(px + 9, py - 10))
        out += counts
    return out


def _legend(c: Content) -> list[str]:
    """What each icon means (bottom right)."""
    tx = face_texts()
    x0, y0 = MAP_X0 + MAP_W + 34, H - 114
    out = [
        f'<rect x="{x0 - 14}" y="{y0 - 30}" width="{W - x0 - 6}" height="138" rx="8" fill="#fffaf0" '
        'stroke="#7a6a48"/>',
        _text(x0 - 4, y0 - 12, "Legend", size=12, weight="bold"),
    ]
    grey = "#888"
    columns: list[list[tuple[Any, str]]] = [
        [
            (lambda x, y: _character(x, y, grey, False), "character"),
            (lambda x, y: _drone(x, y, grey, False), "drone"),
            (_lictor, "lictor"),
            (lambda x, y: _character(x, y, grey, True), "shackled"),
            (lambda x, y: _character(x, y, grey, False) + _boost(x + 10, y - 2), "boosted"),
        ],
        [
            *(
                (
                    lambda x, y, k=k: _quest_marker(x, y, str(tx["skills"][SKILLS[k]]["colour"])),
                    f"{SKILLS[k]} quest",
                )
                for k in range(3)
            ),
            (_hub, "upgrade hub"),
        ],
        [
            (lambda x, y: _temple(x, y, "#777"), "temple"),
            (lambda x, y: _influence(x, y, "#777"), "influence marker"),
            (lambda x, y: _die(x, y, 5, False), "die"),
            (lambda x, y: _die(x, y, 5, True), "needed value"),
        ],
    ]
    for col, entries in enumerate(columns):
        x = x0 + 8 + col * 130
        for row, (draw, label) in enumerate(entries):
            y = y0 + 6 + 21 * row
            out.append(draw(x, y))
            out.append(_text(x + 16, y + 5, label, size=12))
    del c
    return out


def _player_card(pos: Pos, p: Seat, viewer: Viewer, x0: float, y: float) -> list[str]:
    """One player's public holdings (the viewer's own gadgets named), framed in the seat's colour."""
    name, fill = seat_colour(p.seat)
    h = 112
    deciding = p.seat == (pos.decider if pos.decider >= 0 else pos.seat) and pos.phase != PH_OVER
    out = [
        f'<rect x="{x0}" y="{y - 4}" width="{W - x0 - 20}" height="{h}" rx="8" fill="#fffaf0" '
        f'stroke="{fill}" stroke-width="{4 if deciding else 1.5}"/>',
        f'<rect x="{x0}" y="{y - 4}" width="12" height="{h}" rx="4" fill="{fill}"/>',
    ]
    title = (
        f"Seat {p.seat} ({name})"
        + ("  — you" if viewer == p.seat else "")
        + ("  ▶ to decide" if deciding else "")
    )
    out.append(_text(x0 + 22, y + 13, title, size=15, weight="bold"))
    tokens = f"{plural(p.total, 'triumph token')} · {plural(p.coins, 'coin')} · "
    tokens += plural(sum(p.ships), "spaceship card")
    out.append(_text(x0 + 22, y + 32, tokens, size=13))
    dice = "dice: " + ", ".join(f"{SKILLS[k]} {p.dice[k]}" for k in range(3))
    out.append(_text(x0 + 22, y + 49, dice, size=12))
    favor = "favor: " + ("none yet" if p.favor < 0 else god_name(p.favor))
    if p.blessings:
        favor += " · blessed by " + ", ".join(god_name(g) for g in p.blessings)
    out.append(_fitted(x0 + 22, y + 66, favor, W - x0 - 50))
    room = W - x0 - 20 - 30
    out.append(_fitted(x0 + 22, y + 83, f"gadgets: {hand_text(p.hand)}", room))
    story = ", ".join(
        f"{SKILLS[k]} {('', 'Stage II', 'Stage III', 'done')[min(p.story[k], 3)]}"
        for k in range(3)
        if p.story[k]
    )
    out.append(_fitted(x0 + 22, y + 100, f"storylines: {story or 'none'}", room))
    return out


def _roll_panel(c: Content, pos: Pos, roll: Roll, x0: float, y: float) -> list[str]:
    """The dice on the table: a combat's two pools and their matches, or a quest's roll against its
    challenge (the dice that meet it marked)."""
    out: list[str] = []
    out.append(_text(x0, y + 14, "Dice on the table", size=15, weight="bold"))
    if roll.combat:
        out.append(
            _text(x0, y + 34, f"Combat on '{tile_name(roll.tile)}' in {c.district_ids[roll.where]}", size=12)
        )
        who = "lictor" if roll.target == LICTOR else f"Seat {roll.defender}"
        for row, (name, pool) in enumerate(((f"Seat {pos.seat}", roll.a), (who, roll.d))):
            yy = y + 56 + 24 * row
            out.append(_text(x0, yy + 4, f"{name}: {score(roll.tile, pool)} matching", size=12))
            out += [_die(x0 + 150 + 24 * i, yy, v, False) for i, v in enumerate(pool)]
    else:
        out.append(
            _text(
                x0,
                y + 34,
                f"Seat {pos.seat}'s {MINI_WORDS[roll.mini]}, Stage {'I' if roll.stage == 1 else 'III'} "
                f"{SKILLS[roll.skill]} quest in {c.district_ids[roll.where]}: "
                f"needs {dice_text(roll.need)}",
                size=12,
            )
        )
        out.append(_text(x0, y + 58, "rolled:", size=12))
        left = list(roll.need)
        for i, v in enumerate(roll.a):
            hit = v in left
            if hit:
                left.remove(v)
            out.append(_die(x0 + 70 + 26 * i, y + 54, v, hit))
    return out


def _panel(game: TiberpunkGame, pos: Pos, viewer: Viewer) -> list[str]:
    """The side panel: each player's card, the ability draft, the dice on the table, the supply."""
    c = pack_of(game)
    x0 = MAP_X0 + MAP_W + 20
    y = MAP_Y0 + 6
    out: list[str] = []
    for p in pos.players:
        out += _player_card(pos, p, viewer, x0, y)
        if p.ability >= 0:
            out.append(_text(W - 30, y + 13, c.abilities[p.ability].name, size=12, anchor="end", fill="#555"))
        y += 120
    if pos.phase == PH_DRAFT and pos.draft:
        out.append(_text(x0, y + 14, "Ability tiles to choose", size=15, weight="bold"))
        names = [c.abilities[a].name for a in pos.draft]
        for row in range(0, len(names), 4):
            out.append(_text(x0, y + 34 + 9 * row // 2, ", ".join(names[row : row + 4]), size=12))
        y += 80
    roll = pos.roll
    if roll is not None:
        out += _roll_panel(c, pos, roll, x0, y)
        y += 96
    else:
        last = [
            f"Stage {'I' if i == 0 else 'III'}: {dice_text(need)}"
            for i, need in enumerate(pos.last_challenges)
            if need
        ]
        if last:
            out.append(_text(x0, y + 14, "Last challenge cards: " + "; ".join(last), size=12))
            y += 24
    supply = f"lictor reserve: {c.lictors_total - len(pos.lictors)} · gadget deck: {pos.gadget_deck}"
    out.append(_text(W - 30, H - 126, supply, size=12, anchor="end", fill="#444"))
    del y
    return out
