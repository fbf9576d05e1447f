"""Pictures a person can read (issue 30), checked over the SVG every game's ``render`` draws:

- every piece, box and text stands out from what it sits on: a contrast ratio of at least 3:1
  (WCAG's relative luminance) between its fill and the fill of the topmost shape under its centre
  (a piece whose fill does not, passes only with a stroke at least 2 wide that does; a box, with a
  stroke at least 1 wide);
- no text overlaps another (text boxes approximated from the font size and the number of
  characters: DejaVu Sans averages 0.6 em a character, bold 0.66);
- nothing is cut at the edge: every shape and text box lies inside the picture.

Positions: the start, three moments of random playouts and the end, for every player count, seen
by the referee, a spectator and seat 0. Games not checked yet are listed in ``TO_DO`` with why.
"""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from games.core import CHANCE, REFEREE, SPECTATOR, TERMINAL, GameConfig, game_names, get_game

TO_DO: dict[str, str] = {}
"""Games whose pictures are not checked yet, with the reason."""
MIN_CONTRAST = 3.0
MIN_STROKE = 2.0
"""A piece whose fill blends in stands out by a stroke at least this wide that contrasts."""
PIECE = 30.0
"""A shape with no side this long is a piece (a cube, a die, a marker); a longer one is a box."""
NAMED = {"white": "#ffffff", "black": "#000000", "red": "#ff0000", "gray": "#808080", "grey": "#808080"}
SVG = "{http://www.w3.org/2000/svg}"
KEYS = (
    "fill",
    "stroke",
    "stroke-width",
    "font-size",
    "text-anchor",
    "font-weight",
    "opacity",
    "fill-opacity",
    "paint-order",
)
"""The presentation attributes read (inherited from the enclosing groups)."""


@dataclass
class Shape:
    """A drawn element: its kind, box, fill (rgb or None), stroke, and for text its content."""

    kind: str
    box: tuple[float, float, float, float]  # x0, y0, x1, y1
    fill: tuple[float, float, float] | None
    stroke: tuple[float, float, float] | None
    stroke_width: float
    text: str = ""
    circle: tuple[float, float, float] | None = None  # cx, cy, r

    def contains(self, x: float, y: float) -> bool:
        if self.circle is not None:
            cx, cy, r = self.circle
            return (x - cx) ** 2 + (y - cy) ** 2 <= r * r
        x0, y0, x1, y1 = self.box
        return x0 <= x <= x1 and y0 <= y <= y1

    @property
    def centre(self) -> tuple[float, float]:
        x0, y0, x1, y1 = self.box
        return (x0 + x1) / 2, (y0 + y1) / 2


def colour(value: str | None) -> tuple[float, float, float] | None:
    """An SVG paint as 0..1 rgb (None for none, transparent, a gradient or no paint)."""
    if value is None:
        return None
    v = NAMED.get(value.strip().lower(), value.strip())
    if re.fullmatch(r"#[0-9a-fA-F]{3}", v):
        v = "#" + "".join(c * 2 for c in v[1:])
    if re.fullmatch(r"#[0-9a-fA-F]{6}", v):
        return tuple(int(v[i : i + 2], 16) / 255 for i in (1, 3, 5))  # type: ignore[return-value]
    m = re.fullmatch(r"rgb\((\d+),\s*(\d+),\s*(\d+)\)", v)
    if m:
        return tuple(int(g) / 255 for g in m.groups())  # type: ignore[return-value]
    return None


def luminance(rgb: tuple[float, float, float]) -> float:
    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def _number(raw: str, default: float) -> float:
    m = re.match(r"-?[\d.]+", raw)
    return float(m.group()) if m else default


def _f(el: ET.Element, name: str, default: float = 0.0) -> float:
    raw = el.get(name)
    if raw is None:
        return default
    m = re.match(r"-?[\d.]+", raw)
    return float(m.group()) if m else default


def _blend(
    fg: tuple[float, float, float], bg: tuple[float, float, float], alpha: float
) -> tuple[float, float, float]:
    return tuple(alpha * f + (1 - alpha) * b for f, b in zip(fg, bg, strict=True))  # type: ignore[return-value]


def shapes(svg: str) -> tuple[float, float, list[Shape]]:
    """The picture's size and its drawn elements in paint order (inherited fill, font size and
    anchor resolved; text boxes estimated)."""
    root = ET.fromstring(svg)
    view = root.get("viewBox")
    if view:
        _, _, width, height = (float(v) for v in view.split())
    else:
        width, height = _f(root, "width"), _f(root, "height")
    out: list[Shape] = []

    def walk(el: ET.Element, inherited: dict[str, str]) -> None:
        attrs = dict(inherited)
        for key in KEYS:
            if el.get(key) is not None:
                attrs[key] = el.get(key, "")
        if el.get("transform"):
            raise AssertionError(f"a transform the check cannot follow: {el.get('transform')!r}")
        tag = el.tag.removeprefix(SVG)
        fill = colour(attrs.get("fill", "#000000"))
        alpha = float(attrs.get("opacity", 1)) * float(attrs.get("fill-opacity", 1))
        if fill is not None and alpha < 1:
            under = next((s.fill for s in reversed(out) if s.fill is not None), (1.0, 1.0, 1.0))
            fill = _blend(fill, under, alpha)
        stroke = colour(attrs.get("stroke"))
        sw = _number(attrs.get("stroke-width", "1"), 1.0) if stroke else 0.0
        if tag == "rect":
            x, y, w, h = _f(el, "x"), _f(el, "y"), _f(el, "width"), _f(el, "height")
            out.append(Shape("rect", (x, y, x + w, y + h), fill, stroke, sw))
        elif tag == "circle":
            cx, cy, r = _f(el, "cx"), _f(el, "cy"), _f(el, "r")
            out.append(
                Shape("circle", (cx - r, cy - r, cx + r, cy + r), fill, stroke, sw, circle=(cx, cy, r))
            )
        elif tag == "ellipse":
            cx, cy, rx, ry = _f(el, "cx"), _f(el, "cy"), _f(el, "rx"), _f(el, "ry")
            out.append(Shape("ellipse", (cx - rx, cy - ry, cx + rx, cy + ry), fill, stroke, sw))
        elif tag in ("polygon", "polyline"):
            nums = [float(v) for v in re.findall(r"-?[\d.]+", el.get("points", ""))]
            xs, ys = nums[0::2], nums[1::2]
            if xs:
                out.append(
                    Shape(
                        tag,
                        (min(xs), min(ys), max(xs), max(ys)),
                        fill if tag == "polygon" else None,
                        stroke,
                        sw,
                    )
                )
        elif tag == "line":
            x1, y1, x2, y2 = _f(el, "x1"), _f(el, "y1"), _f(el, "x2"), _f(el, "y2")
            out.append(Shape("line", (min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2)), None, stroke, sw))
        elif tag == "text":
            content = "".join(el.itertext())
            if content.strip():
                size = _number(attrs.get("font-size", "16"), 16.0)
                em = 0.66 if attrs.get("font-weight") == "bold" else 0.6
                w = len(content) * size * em
                x, y = _f(el, "x"), _f(el, "y")
                anchor = attrs.get("text-anchor", "start")
                halo = stroke if attrs.get("paint-order") == "stroke" else None  # a ring behind the glyphs
                x0 = x - w / 2 if anchor == "middle" else x - w if anchor == "end" else x
                out.append(
                    Shape("text", (x0, y - 0.75 * size, x0 + w, y + 0.2 * size), fill, halo, sw, text=content)
                )
            return
        for child in el:
            walk(child, attrs)

    walk(root, {})
    return width, height, out


def outlined(s: Shape, under: Shape) -> bool:
    """A shape whose fill blends in still stands out by its outline: a stroke that contrasts, at
    least 2 wide on a piece (a side under 30), at least 1 on a box."""
    if s.stroke is None or under.fill is None:
        return False
    if s.kind == "text":  # a halo: the glyphs read against it
        return (
            s.fill is not None and s.stroke_width >= MIN_STROKE and contrast(s.fill, s.stroke) >= MIN_CONTRAST
        )
    piece = max(s.box[2] - s.box[0], s.box[3] - s.box[1]) < PIECE
    return s.stroke_width >= (MIN_STROKE if piece else 1.0) and contrast(s.stroke, under.fill) >= MIN_CONTRAST


def problems(svg: str) -> list[str]:
    """What a person would stumble on in the picture (empty: none)."""
    width, height, drawn = shapes(svg)
    found: list[str] = []
    for i, s in enumerate(drawn):
        x0, y0, x1, y1 = s.box
        if x0 < -0.5 or y0 < -0.5 or x1 > width + 0.5 or y1 > height + 0.5:
            found.append(f"cut at the edge: {s.kind} {s.text!r} at {tuple(round(v) for v in s.box)}")
        if s.fill is None or s.box[2] - s.box[0] >= width - 1:
            continue
        cx, cy = s.centre
        under = next(
            (
                b
                for b in reversed(drawn[:i])
                if b.fill is not None and b.kind != "text" and b.contains(cx, cy)
            ),
            None,
        )
        if under is None or under.fill is None:
            continue
        ratio = contrast(s.fill, under.fill)
        if ratio >= MIN_CONTRAST - 1e-9 or outlined(s, under):
            continue
        what = f"text {s.text!r}" if s.kind == "text" else f"{s.kind} at {tuple(round(v) for v in s.box)}"
        found.append(
            f"low contrast {ratio:.2f}: {what} on a {under.kind} {tuple(round(v) for v in under.box)}"
        )
    texts = [s for s in drawn if s.kind == "text"]
    for i, a in enumerate(texts):
        for b in texts[i + 1 :]:
            if (
                min(a.box[2], b.box[2]) - max(a.box[0], b.box[0]) > 1
                and min(a.box[3], b.box[3]) - max(a.box[1], b.box[1]) > 1
            ):
                found.append(f"text over text: {a.text!r} and {b.text!r}")
    return found


def positions(name: str) -> Iterator[tuple[str, object]]:
    """Positions of every player count: the start, three moments of a random playout, the end."""
    game = get_game(name)
    info = game.info
    for players in range(info.min_players, info.max_players + 1):
        rng = random.Random(players)
        state = game.new_state(GameConfig(players=players), players)
        yield f"{players}p start", state
        step = 0
        marks = {20, 80, 200}
        while game.current_player(state) != TERMINAL and step < 3000:
            player = game.current_player(state)
            action = (
                game.sample_chance(state, rng)
                if player == CHANCE
                else rng.choice(list(game.legal_actions(state)))
            )
            state = game.apply(state, action)
            step += 1
            if step in marks:
                yield f"{players}p move {step}", state
        yield f"{players}p end", state


CHECKED = [
    pytest.param(n, marks=pytest.mark.skip(reason=f"to do: {TO_DO[n]}")) if n in TO_DO else n
    for n in game_names()
    if n != "pig"
]


@pytest.mark.parametrize("name", CHECKED)
def test_every_picture_reads(name):
    game = get_game(name)
    found: list[str] = []
    for label, state in positions(name):
        for viewer in (REFEREE, SPECTATOR, 0):
            for problem in problems(game.render(state, viewer)):
                found.append(f"{label}, viewer {viewer}: {problem}")
    assert not found, "\n".join(dict.fromkeys(found))


def test_the_checks_catch_what_they_claim():
    """A blue cube in a blue box, two labels on one spot and a label past the edge are all found."""
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 200 100">'
        '<rect width="200" height="100" fill="#ffffff"/>'
        '<rect x="10" y="10" width="80" height="60" fill="#4a7fd4"/>'
        '<rect x="20" y="20" width="9" height="9" fill="#2e6fd8" stroke="#222"/>'
        '<text x="100" y="50" font-size="12">one label</text>'
        '<text x="110" y="52" font-size="12">another</text>'
        '<text x="170" y="90" font-size="12">too long to fit</text>'
        "</svg>"
    )
    found = problems(svg)
    assert any(p.startswith("low contrast") and "rect" in p for p in found), found
    assert any(p.startswith("text over text") for p in found), found
    assert any(p.startswith("cut at the edge") for p in found), found
    assert contrast((1, 1, 1), (0, 0, 0)) == pytest.approx(21.0)
