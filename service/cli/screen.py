"""The terminal table's screen: the board, the log, the numbered moves and the cards they name,
laid out to the terminal's size (one or two columns), and the final screen."""

from __future__ import annotations

from typing import Any

import grpc

from service.cli.queries import score_lines
from service.cli.root import wrap_text
from service.cli.table import GameTable


def move_groups(texts: list[str]) -> list[tuple[str, list[tuple[int, str]]]]:
    """Legal moves grouped by kind (the notation's first word), numbered from 1 in the game's order."""
    groups: dict[str, list[tuple[int, str]]] = {}
    for i, text in enumerate(texts, 1):
        kind, _, rest = text.partition(" ")
        if rest:
            groups.setdefault(kind, []).append((i, rest))
        else:  # one-word moves share one line
            groups.setdefault("", []).append((i, text))
    return list(groups.items())


def move_lines(texts: list[str], width: int) -> list[str]:
    """The numbered legal moves, one block per kind, packed to ``width`` columns."""
    import textwrap

    lines: list[str] = []
    for kind, items in move_groups(texts):
        lead = "" if not kind else (f"{kind:<10} " if len(kind) <= 10 else f"{kind} ")
        pad = " " * min(len(lead), 11)
        line, cells = lead, 0
        for number, rest in items:
            cell = f"[{number}] {rest}"
            if cells and len(line) + len(cell) > width:
                lines.append(line.rstrip())
                line, cells = pad, 0
            if len(line) + len(cell) > width:  # longer than the column: wrapped under its words
                hang = " " * (len(str(number)) + 3)
                parts = textwrap.wrap(cell, max(12, width - len(line)), subsequent_indent=hang)
                lines.append((line + parts[0])[:width])
                lines.extend((pad + part)[:width] for part in parts[1:])
                line, cells = pad, 0
                continue
            line += cell + "  "
            cells += 1
        if cells or not lines:
            lines.append(line.rstrip()[:width])
    return lines


def fitted_moves(texts: list[str], width: int, budget: int) -> list[str]:
    """The numbered moves in at most ``budget`` lines: in full when they fit, else one line per kind
    (its first moves, then how many more; ``m`` lists them all)."""
    full = move_lines(texts, width)
    if len(full) <= budget:
        return full
    lines = []
    for kind, items in move_groups(texts):
        line = f"{kind:<10} " if kind else ""
        for n, (number, rest) in enumerate(items):
            cell = f"[{number}] {rest}  "
            if n and len(line) + len(cell) + 12 > width:
                line = line.rstrip() + f" … +{len(items) - n} more"
                break
            line += cell
        lines += wrap_text(line.rstrip(), width)  # a first move longer than the line wraps, never cut
    if len(lines) > budget - 1:
        hidden = len(lines) - (budget - 2)
        lines = [*lines[: budget - 2], f"… {hidden} more kinds of move"]
    return [*lines, "(m lists every move)"]


def named_components(texts: list[str], glossed: dict[str, tuple[str, str, str]]) -> list[str]:
    """The ids of ``glossed`` components the moves name, in order of first mention."""
    import re

    found: dict[str, None] = {}
    for text in texts:
        for word in re.split(r"[\s,:;/@()=|]+", text):
            if word in glossed:
                found.setdefault(word, None)
    return list(found)


def gloss_lines(
    texts: list[str], glossed: dict[str, tuple[str, str, str]], width: int, room: int
) -> list[str]:
    """What the components the moves name are: ``"HIS03 Tribune in Cantabria: top row: ..."``, each
    wrapped, in at most ``room`` lines (the last says when some were left out)."""
    lines: list[str] = []
    ids = named_components(texts, glossed)
    for n, item_id in enumerate(ids):
        _kind, name, text = glossed[item_id]
        head = item_id if name in (item_id, "") else f"{item_id} {name}"
        wrapped = wrap_text(f"{head}: {text}" if text else head, width, "  ")
        if len(lines) + len(wrapped) > room - (1 if n < len(ids) - 1 else 0):
            if room > len(lines):
                lines.append(_clip(f"  … {len(ids) - n} more: m shows every move with its cards", width))
            break
        lines += wrapped
    return lines


def _hand_lines(section: Any, lines: list[str]) -> int:
    """How many of a section's ``lines`` (from :func:`_section_lines` with its hand rows first) its
    hand rows fill: up to where the next row starts (a row's first line is not indented past its
    label's two spaces; the lines a row wraps onto are)."""
    hand_rows = sum(1 for r in section.rows if "hand" in r.label.lower())
    if not hand_rows:
        return 0
    starts = [i for i, line in enumerate(lines) if line[2:3].strip()]
    return starts[hand_rows] if len(starts) > hand_rows else len(lines)


def _section_lines(section: Any, width: int, *, hand_first: bool = False) -> list[str]:
    """A section's rows and lines as text (the hand's rows first when ``hand_first``: they are what
    a cut screen must keep)."""
    from games.core.face import Description, Row, Section

    rows = list(section.rows)
    if hand_first:
        rows.sort(key=lambda r: "hand" not in r.label.lower())
    one = Section(
        title=section.title,
        rows=tuple(Row(label=r.label, value=r.value) for r in rows),
        lines=tuple(section.lines),
    )
    return (
        Description(game="", viewer=0, headline="", step="", sections=(one,)).to_text(width).splitlines()[4:]
    )


def board_lines(description: Any, width: int, height: int, seat: int | None) -> list[str]:
    """The description as at most ``height`` lines of ``width``: headline, step, then the sections;
    the board and the viewer's own sections (its hand) share the room when it runs short."""
    import textwrap

    most = max(2, height // 4)  # the step in full unless the screen is tiny (b shows it all)
    step = textwrap.wrap(description.step, width, max_lines=most, placeholder=" …") or [""]
    head = [*wrap_text(description.headline, width), *step]
    blocks = []
    hands = 0  # lines of the viewer's sections down to the end of its hand's rows: never cut
    for section in description.sections:
        mine = section.HasField("seat") and section.seat == seat
        body = _section_lines(section, width, hand_first=mine)
        title = wrap_text(section.title, width)
        blocks.append((mine, [*title, *body]))
        if mine:
            hands += len(title) + _hand_lines(section, body)
    room = height - len(head)
    total = sum(len(b) for _, b in blocks)
    if total <= room:
        return head + [line for _, b in blocks for line in b]
    room -= 1  # the last line says there is more
    own_total = sum(len(b) for mine, b in blocks if mine)
    own_room = min(own_total, max(room // 2, room - (total - own_total), min(hands, room)))
    others_room = room - own_room
    out = list(head)
    for mine, block in blocks:
        if mine:
            take = block[:own_room]
            own_room -= len(take)
        else:
            take = block[:others_room]
            others_room -= len(take)
        out += take
    return [*out, _clip("… more: b shows the whole board", width)]


def collapse_log(log: list[str]) -> list[str]:
    """The log with each run of the same line said once: ``"Seat 1 moves a cube from Influence to
    Pro-Consular Imperium Maius (gray). (8 times)"``."""
    out: list[str] = []
    runs: list[int] = []
    for entry in log:
        if out and entry == out[-1]:
            runs[-1] += 1
        else:
            out.append(entry)
            runs.append(1)
    return [e if n == 1 else f"{e} ({n} times)" for e, n in zip(out, runs, strict=True)]


def log_lines(log: list[str], width: int, room: int) -> list[str]:
    """The newest log entries that fit ``room`` lines of ``width``, each wrapped, never cut; a run of
    the same line is said once with its count."""
    out: list[str] = []
    for entry in reversed(collapse_log(log)):
        wrapped = wrap_text(entry, width)
        if out and len(out) + len(wrapped) > room:
            break
        out = wrapped + out
    return out[-room:] if room > 0 else []


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(0, width - 1)] + "…"


def _pad(lines: list[str], width: int) -> list[str]:
    return [line[:width].ljust(width) for line in lines]


def side_by_side(left: list[str], right: list[str], width: int, left_w: int = 0) -> list[str]:
    """Two columns: ``left`` in the first ``left_w`` columns (half of ``width`` by default),
    ``right`` after it."""
    left_w = left_w or width // 2 - 1
    rows = max(len(left), len(right))
    left = _pad(left + [""] * (rows - len(left)), left_w)
    right = right + [""] * (rows - len(right))
    return [f"{a} │ {b}"[:width].rstrip() for a, b in zip(left, right, strict=True)]


def seat_viewer(seat: int) -> Any:
    from lictor.v1 import game_service_pb2 as game_pb

    return game_pb.Viewer(role=game_pb.VIEWER_ROLE_SEAT, seat=seat)


KEYS = "h hints · a analysis · u take back · b board · m moves · q leave · ? help"
"""The keys line of a human seat's turn."""
MAX_STATUS_LINES = 6
"""Lines a message (an error, a note) may take at the foot of the screen."""
MAX_GLOSS_LINES = 4
"""Lines the cards a move names may take under the moves (``m`` shows them all)."""


def table_screen(
    table: GameTable,
    seat: int,
    legal: list[str],
    width: int,
    height: int,
    *,
    title: str = "",
    keys: str = KEYS,
) -> list[str]:
    """The screen of ``seat``'s decision: the board, the log, the numbered moves and the cards they
    name, the keys; fits ``width`` x ``height`` (two columns when the terminal is wide)."""
    from games.core.face import drawn_width

    budget = max(3, height // 2 - 3)
    foot = wrap_text(keys, width)[:1]
    status = wrap_text(table.message, width)[:MAX_STATUS_LINES] if table.message else []
    table.message = ""
    description = table.describe(seat_viewer(seat), width if width < 120 else width // 2 - 2)
    left_w = max(width // 2 - 2, drawn_width(description.sections))  # never cut a drawn map
    right_w = width - left_w - 3 if width >= 120 and width - left_w - 3 >= 40 else 0
    moves = [title or f"Your moves (seat {seat}):", *fitted_moves(legal, right_w or width, budget)]
    if right_w:
        room = height - len(foot) - len(status) - 1
        left = board_lines(description, left_w, room, seat)
        gloss = gloss_lines(legal, table.glossary, right_w, max(0, min(MAX_GLOSS_LINES * 2, room // 3)))
        log_room = max(3, room - len(moves) - len(gloss) - 1)
        right = ["Game log:", *log_lines(table.log, right_w, log_room - 1), "", *moves, *gloss]
        return side_by_side(left, right[:room], width, left_w) + status + foot
    log_n = min(5, max(2, len(table.log)))
    gloss = gloss_lines(legal, table.glossary, width, MAX_GLOSS_LINES if height >= 20 else 0)
    fixed = len(moves) + len(gloss) + log_n + 1 + len(foot) + len(status) + 1
    room = max(4, height - fixed)
    board = board_lines(description, width, room, seat)
    log = ["Game log:", *log_lines(table.log, width, log_n)]
    lines = board + log + moves + gloss + status + foot
    return lines[: height - 1]


def final_lines(table: GameTable, width: int) -> list[str]:
    """The end: the whole board, who won, and the score breakdown per seat."""
    from lictor.v1 import game_service_pb2 as game_pb
    from lictor.v1 import solver_service_pb2 as solver_pb

    referee = game_pb.Viewer(role=game_pb.VIEWER_ROLE_REFEREE)
    description = table.describe(referee, width)
    over = f"{table.game}: game over" + (
        f", seat {table.resigned} resigned" if table.resigned is not None else ""
    )
    lines = [over, "", *description.text.splitlines(), "", "Game log (last moves):"]
    lines += [w for entry in collapse_log(table.log)[-5:] for w in wrap_text(entry, width)]
    lines += ["", "Final score:"]
    if table.resigned is not None:
        others = [str(i) for i in range(len(table.seats)) if i != table.resigned]
        lines += wrap_text(
            f"seat {table.resigned} resigned; the game goes to seat {', '.join(others)}", width, "  "
        )
    reply = None
    if table.has_scorer and table.resigned is None:
        try:
            reply = table.stubs.solver.Score(solver_pb.ScoreRequest(position=table.position), timeout=60)
        except grpc.RpcError:
            reply = None
    if reply is not None:
        lines += score_lines(reply, width)
    elif table.result is not None:
        for i, v in enumerate(table.result.returns):
            word = "wins" if v == 1 else ("shares the win" if v > 0 else "loses")
            lines.append(f"  seat {i}: {word} ({v:g})")
    return lines
