"""A game's face for people (DESIGN.md, "A game's face"): content, readable views, log lines, facts.

Every game answers, in the rulebook's words and component names (never an index, bit mask or
abbreviation):

- ``content()`` -> :class:`Catalogue`: the components a person sees (cards, quests, tiles,
  districts, ...), each a :class:`ContentItem` with its id, name, rules text, values and whether it
  is *authored* (not printed in the rulebook).
- ``describe(state, viewer)`` -> :class:`Description`: a structured readable view of what
  ``viewer`` may see: a headline, whose turn and which step, and titled :class:`Section` s of rows.
- ``render(state, viewer)`` -> SVG text: a picture of the position as ``viewer`` may see it.
- ``log_line(state, action, viewer)`` -> one sentence, as an online table writes its log.
- ``explain(state, action)`` -> :class:`Fact` s: what the move gains and costs, odds, distances,
  margins; facts that differ between candidates, so a hint can say why #1 beats #2.

Who looks is a :data:`Viewer`: a seat (0-based), :data:`SPECTATOR` (public information only) or
:data:`REFEREE` (everything: a finished match, an analysis of a full state).
"""

from __future__ import annotations

import difflib
import html
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

__all__ = [
    "REFEREE",
    "SPECTATOR",
    "Catalogue",
    "ContentItem",
    "Description",
    "Fact",
    "Row",
    "Section",
    "Viewer",
    "as_facts",
    "did_you_mean",
    "drawn_width",
    "is_drawn",
    "text_svg",
    "viewer_name",
]

Viewer: TypeAlias = int
"""Who looks at a position: a seat (0-based), :data:`SPECTATOR` or :data:`REFEREE`."""

SPECTATOR: Viewer = -3
"""A viewer who sees public information only (an onlooker at the table)."""

REFEREE: Viewer = -4
"""A viewer who sees everything (the full state: a finished match, an analysis)."""


def viewer_name(viewer: Viewer) -> str:
    """``"seat 2"``, ``"spectator"`` or ``"referee"``."""
    if viewer == SPECTATOR:
        return "spectator"
    if viewer == REFEREE:
        return "referee"
    return f"seat {viewer}"


@dataclass(frozen=True, slots=True, kw_only=True)
class ContentItem:
    """One component a person sees at the table.

    Attributes:
        id: the component's id as notation and the public state use it (``"IV"``, ``"flip"``,
            ``"AFR06"``).
        kind: what it is, in the rulebook's words (``"district"``, ``"gadget card"``).
        name: its printed (or authored) name.
        text: its rules text ("" when it has none).
        values: its icons and numbers as plain JSON values (``{"cost": 3, "icons": ["tech"]}``).
        authored: True when the rulebook does not print it and the reference pack authored it.
    """

    id: str
    kind: str
    name: str
    text: str = ""
    values: Mapping[str, Any] = field(default_factory=dict)
    authored: bool = False

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types."""
        return {
            "id": self.id,
            "kind": self.kind,
            "name": self.name,
            "text": self.text,
            "values": dict(self.values),
            "authored": self.authored,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class Catalogue:
    """A game's components (its content pack as a person reads it).

    Attributes:
        game: the game's registry name.
        version: the content pack's version (clients cache by it).
        items: every component, grouped by kind in the order a rulebook lists them.
        notes: where authored content comes from and how to replace it ("" when nothing is authored).
    """

    game: str
    version: str
    items: tuple[ContentItem, ...] = ()
    notes: str = ""

    def kinds(self) -> list[str]:
        """The kinds present, in first-seen order."""
        return list(dict.fromkeys(i.kind for i in self.items))

    def by_id(self, kind: str, item_id: str) -> ContentItem | None:
        """The item of ``kind`` with ``item_id`` (None when absent)."""
        return next((i for i in self.items if i.kind == kind and i.id == item_id), None)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types."""
        return {
            "game": self.game,
            "version": self.version,
            "notes": self.notes,
            "items": [i.to_dict() for i in self.items],
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class Row:
    """One labelled line of a section (``"Coins" : "7"``).

    Attributes:
        label: what the row is, in the rulebook's words.
        value: its value as a person reads it.
        seat: the seat it belongs to (None: the board or nobody in particular).
    """

    label: str
    value: str
    seat: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Section:
    """A titled part of a description (the board, one player's holdings, the hand, the log).

    Attributes:
        title: the heading (``"Seat 1 (Red)"``, ``"Your hand"``, ``"Board"``).
        rows: labelled lines.
        lines: free sentences after the rows (a map drawn in text, notes).
        seat: the seat the section is about (None: the board, the market, the log).
    """

    title: str
    rows: tuple[Row, ...] = ()
    lines: tuple[str, ...] = ()
    seat: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Description:
    """What a viewer may see of a position, as a person reads it.

    Attributes:
        game: the game's registry name.
        viewer: who looks (a seat, SPECTATOR or REFEREE).
        headline: one line: the round or turn and who is to move (``"Round 3 of 8: seat 1 to move"``).
        step: which decision is open, in the rulebook's words (``"choose a gadget for die 2"``;
            ``"game over: seat 0 wins with 5 triumph tokens"`` at the end).
        sections: the board, each player's public holdings, the viewer's own hand, and so on.
    """

    game: str
    viewer: Viewer
    headline: str
    step: str
    sections: tuple[Section, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types."""
        return {
            "game": self.game,
            "viewer": self.viewer,
            "headline": self.headline,
            "step": self.step,
            "sections": [
                {
                    "title": s.title,
                    "seat": s.seat,
                    "rows": [{"label": r.label, "value": r.value, "seat": r.seat} for r in s.rows],
                    "lines": list(s.lines),
                }
                for s in self.sections
            ],
        }

    def to_text(self, width: int = 80) -> str:
        """The description as plain text lines no wider than ``width``: sentences wrap, a drawn
        line (a map row, a grid: see :func:`is_drawn`) keeps its spacing and is clipped instead."""
        out = [_clip(self.headline, width), _clip(self.step, width)]
        for s in self.sections:
            out.append("")
            out.append(_clip(s.title, width))
            label_w = _label_width(s, width)
            for r in s.rows:
                lead = f"  {r.label.ljust(label_w)}  "
                if is_drawn(r.value):
                    out.append(_clip(lead + r.value, width))
                    continue
                wrapped = textwrap.wrap(r.value, max(10, width - len(lead))) or [""]
                out.append(lead + wrapped[0])
                out.extend(" " * len(lead) + w for w in wrapped[1:])
            for line in s.lines:
                if is_drawn(line):
                    out.append(_clip("  " + line, width))
                    continue
                out.extend(textwrap.wrap(line, width, initial_indent="  ", subsequent_indent="  ") or [""])
        return "\n".join(out)

    def drawn_width(self) -> int:
        """The columns the widest drawn line needs (0 when there is none): a terminal narrower than
        this cuts the map, so a screen layout gives the description at least this much."""
        return drawn_width(self.sections)


def is_drawn(text: str) -> bool:
    """A line drawn in text (a map row, a grid): it aligns its cells with runs of spaces (one run of
    three or more, leading ones too, or two runs of two), which a sentence never has."""
    inner = text.rstrip()
    return "   " in inner or inner.strip().count("  ") >= 2


def _label_width(section: Any, width: int) -> int:
    return int(min(max((len(r.label) for r in section.rows), default=0), width // 2))


def drawn_width(sections: Sequence[Any]) -> int:
    """:meth:`Description.drawn_width` of any sections with ``rows`` (``label``, ``value``) and
    ``lines`` (the dataclasses here or their gRPC messages)."""
    need = 0
    for s in sections:
        label_w = _label_width(s, 200)
        need = max(
            [
                need,
                *(len(r.value) + label_w + 4 for r in s.rows if is_drawn(r.value)),
                *(len(line) + 2 for line in s.lines if is_drawn(line)),
            ]
        )
    return need


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(0, width - 1)] + "…"


@dataclass(frozen=True, slots=True, kw_only=True)
class Fact:
    """One fact about a move, with the number behind it (for hints and for comparing candidates).

    Attributes:
        label: what it measures, in the rulebook's words (``"quest success odds"``,
            ``"VP gained now"``, ``"nearest lictor after the move"``).
        value: the number.
        unit: how to read the number (``"VP"``, ``"coins"``, ``"districts"``, ``"probability"``; "").
        better: +1 when more is better for the mover, -1 when less is, 0 when neither.
        text: the fact as a sentence ("" to let the client write ``label: value unit``).
    """

    label: str
    value: float
    unit: str = ""
    better: int = 0
    text: str = ""

    def sentence(self) -> str:
        """The fact as a person reads it."""
        if self.text:
            return self.text
        if self.unit == "probability":
            return f"{self.label}: {self.value:.0%}"
        shown = f"{self.value:g}" if float(self.value).is_integer() else f"{self.value:.2f}"
        return f"{self.label}: {shown}{' ' + self.unit if self.unit else ''}"


def as_facts(items: Iterable[Fact | tuple[str, float]]) -> list[Fact]:
    """Facts from ``explain`` (older games return ``(label, value)`` pairs)."""
    out = []
    for item in items:
        if isinstance(item, Fact):
            out.append(item)
        else:
            label, value = item
            out.append(Fact(label=str(label), value=float(value)))
    return out


def text_svg(title: str, lines: Sequence[str], *, width: int = 720) -> str:
    """A plain SVG showing ``lines`` of text: the picture of a game that draws nothing better."""
    line_h = 18
    height = 40 + line_h * (len(lines) + 1)
    body = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, sans-serif" font-size="13">',
        f'<rect width="{width}" height="{height}" fill="#fbfaf6"/>',
        f'<text x="16" y="26" font-size="16" font-weight="bold">{html.escape(title)}</text>',
    ]
    for i, line in enumerate(lines):
        body.append(f'<text x="16" y="{48 + i * line_h}" xml:space="preserve">{html.escape(line)}</text>')
    body.append("</svg>")
    return "\n".join(body)


def did_you_mean(text: str, choices: Iterable[str], *, most: int = 3) -> str:
    """``"; did you mean 'row 2'?"`` for a mistyped ``text`` ("" when nothing is close): the closest
    ``choices`` by :mod:`difflib`, for error messages and the CLI."""
    options = list(dict.fromkeys(choices))
    if not text or not options:
        return ""
    close = difflib.get_close_matches(text.strip(), options, n=most, cutoff=0.6)
    if not close:
        lowered = {o.lower(): o for o in options}
        found = difflib.get_close_matches(text.strip().lower(), lowered, n=most, cutoff=0.6)
        close = [lowered[c] for c in found]
    if not close:
        return ""
    shown = " or ".join(repr(c) for c in close)
    return f"; did you mean {shown}?"
