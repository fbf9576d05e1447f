"""The turns at the terminal table: a human seat's keys and moves, the dice when a person rolls
them, and the loop that plays the game to its end."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import grpc

from games.core.text import is_digits
from service.cli.queries import hint_lines
from service.cli.root import wrap_text
from service.cli.screen import final_lines, gloss_lines, move_lines, seat_viewer, table_screen
from service.cli.table import AI, CHANCE_SEAT, TERMINAL_SEAT, GameTable

PLAY_HELP = (
    "At the table:",
    "  a number     play the move with that number",
    "  a notation   play that move as written (e.g. the text after the number)",
    "  h            hints: the best moves, each with its reasons, and why #1 beats #2",
    "  a            a live analysis of the position, with a progress bar",
    "  u            take back your last move (and the AI's answers) against AI seats",
    "  b            the whole board, a page at a time",
    "  m            every legal move with the cards it names, a page at a time",
    "  q            leave: save the game to resume later, or resign (asks first)",
    "  ?            this help",
    "At the dice (--dice ask): Enter rolls them; type the real outcome as the game writes",
    "  it (e.g. the first of the outcomes shown); h tells what each outcome means for you.",
    "The game record is saved (--save FILE, else lictor-GAME-SEED.json) whenever you leave:",
    "  lictor play --resume FILE goes on; lictor review/score/hint/render FILE read it.",
)


def _show(lines: list[str], out: Any) -> None:
    out.write("\x1b[2J\x1b[H" + "\n".join(lines) + "\n")
    out.flush()


def _pause(read: Any, out: Any) -> None:
    out.write("(Enter to go back to the table) ")
    out.flush()
    read()  # closed input: the next prompt sees it too


def _analysis_bar(done: float, width: int) -> str:
    cells = max(10, min(30, width - 50))
    filled = round(done * cells)
    return "[" + "#" * filled + "." * (cells - filled) + f"] {done:4.0%}"


def run_analysis(table: GameTable, seconds: float, width: int, out: Any) -> list[str]:
    """Stream an analysis of the current position with a progress bar; returns its summary lines."""
    from lictor.v1 import advisor_service_pb2 as advisor_pb

    request = advisor_pb.AnalyzeRequest(
        position=table.position, report_every_ms=200, max_candidates=5, seed=1
    )
    request.budget.time_s = seconds
    last = None
    for report in table.stubs.advisor.Analyze(request, timeout=seconds + 60):
        a = report.analysis
        last = a
        best = a.candidates[0] if a.candidates else None
        value = best.value[a.seat] if best is not None and 0 <= a.seat < len(best.value) else 0.0
        head = f"best {best.action} ({value:.2f})" if best is not None else ""
        bar = _analysis_bar(1.0 if a.final else min(1.0, a.elapsed_s / seconds), width)
        line = f"{bar} {a.simulations} simulations {head}"
        out.write("\r" + line[: width - 1].ljust(width - 1))
        out.flush()
    out.write("\n")
    lines = ["Analysis:"]
    if last is not None:
        total = max(1, sum(c.visits for c in last.candidates))
        for i, c in enumerate(last.candidates[:5], 1):
            value = c.value[last.seat] if 0 <= last.seat < len(c.value) else 0.0
            pv = " ".join(c.pv[1:4])
            lines += wrap_text(
                f"#{i} {c.action}: expected {value:.2f}, {c.visits / total:.0%} of simulations"
                + (f"; then {pv}" if pv else ""),
                width,
            )
    return lines


@dataclass
class _Turn:
    """What a key of a human seat's turn acts on."""

    table: GameTable
    seat: int
    legal: list[str]
    read: Any
    out: Any
    width: int
    height: int

    def pages(self, lines: list[str]) -> None:
        """Show ``lines`` a screen at a time."""
        page = max(4, self.height - 1)
        for start in range(0, len(lines), page):
            _show(lines[start : start + page], self.out)
            _pause(self.read, self.out)


def _key_help(turn: _Turn) -> None:
    _show(list(PLAY_HELP), turn.out)
    _pause(turn.read, turn.out)


def _key_leave(turn: _Turn) -> None:
    """Leave the table: save the game to go on later, or resign (asked first; Enter plays on)."""
    table = turn.table
    turn.out.write("Leave: s save and quit (resume later), r resign, Enter play on? ")
    turn.out.flush()
    answer = turn.read()
    choice = answer.strip().lower() if answer else "s"  # closed input: save, never resign unasked
    if choice in ("s", "save"):
        table.left = True
    elif choice in ("r", "resign"):
        turn.out.write("Resign the game? [y/N] ")
        turn.out.flush()
        confirm = turn.read()
        if confirm and confirm.strip().lower() in ("y", "yes"):
            table.resigned = turn.seat
            table.log.append(f"Seat {turn.seat} resigns.")
        else:
            table.message = "You play on."
    else:
        table.message = "You play on."


def _key_take_back(turn: _Turn) -> None:
    table = turn.table
    if not any(kind == AI for kind, _ in table.seats):
        table.message = "Take-backs are for games against AI seats."
    elif not table.take_back(turn.seat):
        table.message = "There is no move of yours to take back."


def _key_board(turn: _Turn) -> None:
    turn.pages(turn.table.describe(seat_viewer(turn.seat), turn.width).text.splitlines())


def _key_moves(turn: _Turn) -> None:
    gloss = gloss_lines(turn.legal, turn.table.glossary, turn.width, 10_000)
    turn.pages(
        move_lines(turn.legal, turn.width) + (["", "The cards these moves name:", *gloss] if gloss else [])
    )


def _key_advice(turn: _Turn, hint: bool) -> None:
    from lictor.v1 import advisor_service_pb2 as advisor_pb

    table, out = turn.table, turn.out
    try:
        if hint:
            request = advisor_pb.HintRequest(position=table.position, top_k=3, seed=1)
            request.budget.time_s = table.think
            out.write("thinking…\n")
            out.flush()
            lines = hint_lines(table.stubs.advisor.Hint(request, timeout=60), turn.width)
        else:
            lines = run_analysis(table, table.think, turn.width, out)
    except grpc.RpcError as exc:
        lines = [f"{exc.code().name}: {exc.details()}"]
    if len(lines) <= turn.height - 3:
        out.write("\n".join(lines) + "\n")
        _pause(turn.read, out)
    else:  # a page at a time: nothing is cut
        turn.pages(lines)


_KEYS: dict[str, Any] = {
    "": lambda turn: None,
    "?": _key_help,
    "q": _key_leave,
    "u": _key_take_back,
    "b": _key_board,
    "m": _key_moves,
    "h": lambda turn: _key_advice(turn, hint=True),
    "a": lambda turn: _key_advice(turn, hint=False),
}
"""The keys of a human seat's turn (anything else is a move's number or its notation)."""


def human_turn(table: GameTable, seat: int, read: Any, out: Any, size: Any) -> None:
    """One decision of a human seat: show the table, read a key or a move, act on it."""
    width, height = size()
    legal = table.legal()
    _show(table_screen(table, seat, legal, width, height), out)
    out.write(f"seat {seat}> ")
    out.flush()
    raw = read()
    if not raw:  # the input is closed: the player has left the table; the game is saved
        table.left = True
        return
    answer = raw.strip()
    key = _KEYS.get(answer)
    if key is not None:
        key(_Turn(table, seat, legal, read, out, width, height))
        return
    text = legal[int(answer) - 1] if is_digits(answer) and 0 < int(answer) <= len(legal) else answer
    try:
        table.play(text)
    except grpc.RpcError as exc:
        table.message = refusal(text, exc.details(), legal)


def refusal(text: str, details: str, legal: list[str]) -> str:
    """The message for a move the server refused, with the legal moves closest to it when the
    server's own message names none."""
    from games.core.face import did_you_mean

    close = "" if "did you mean" in details else did_you_mean(text, legal)
    number = "" if not is_digits(text) else f" (moves are numbered 1 to {len(legal)})"
    return f"{text!r}: {details}{number}{close}"


def chance_turn(table: GameTable, read: Any, out: Any, size: Any) -> None:
    """A chance moment played at the table (``--dice ask``): Enter draws the outcome by its odds, a
    typed outcome (the real dice) is played as the game writes it, ``h`` tells what each outcome
    means for the human seat."""
    width, height = size()
    outcomes = table.outcomes()
    texts = [o.text for o in outcomes]
    seat = table.humans[0] if table.humans else 0
    sample = ", ".join(texts[:3]) + (" …" if len(texts) > 3 else "")
    table.message = table.message or f"{len(texts)} possible outcomes, e.g. {sample}"
    _show(
        table_screen(
            table,
            seat,
            [],
            width,
            height,
            title="Chance: the dice (or the deck) decide.",
            keys="Enter rolls · type the real outcome · h odds · b board · q leave · ? help",
        ),
        out,
    )
    out.write("dice> ")
    out.flush()
    raw = read()
    if not raw:
        table.left = True
        return
    answer = raw.strip()
    if not answer:
        table.roll()
    elif answer == "h":
        _chance_hint(_Turn(table, seat, [], read, out, width, height))
    elif answer in ("q", "b", "?"):
        _KEYS[answer](_Turn(table, seat, [], read, out, width, height))
    elif answer in texts:
        table.play(answer)
    else:
        table.message = refusal(answer, "not an outcome of this roll", texts)


def _chance_hint(turn: _Turn) -> None:
    from lictor.v1 import advisor_service_pb2 as advisor_pb

    table, seat, width, height, read, out = (
        turn.table,
        turn.seat,
        turn.width,
        turn.height,
        turn.read,
        turn.out,
    )

    try:
        reply = table.stubs.advisor.Hint(
            advisor_pb.HintRequest(position=table.position, top_k=6, seat=seat, seed=1), timeout=60
        )
        lines = hint_lines(reply, width)
    except grpc.RpcError as exc:
        lines = [f"{exc.code().name}: {exc.details()}"]
    if len(lines) <= height - 3:
        out.write("\n".join(lines) + "\n")
        _pause(read, out)
    else:
        turn.pages(lines)


def run_table(table: GameTable, read: Any, out: Any, size: Any, *, resume: list[str] | None = None) -> None:
    """Play the game at the terminal to its end, a resignation or the player leaving (the record is
    saved then, and where it is said); ``resume``: the actions of a saved game to play again first."""
    if resume is None:
        table.start()
    else:
        table.resume(resume)
    while True:
        try:
            table.advance(out)
            if table.mover == TERMINAL_SEAT or table.resigned is not None:
                _show(final_lines(table, size()[0]), out)
                break
            if table.mover == CHANCE_SEAT:
                chance_turn(table, read, out, size)
            else:
                human_turn(table, table.mover, read, out, size)
            if table.left:
                out.write("\n")
                break
        except grpc.RpcError as exc:
            out.write(f"\n{exc.code().name}: {exc.details()}\n")
            break
    saved = table.save()
    again = f"lictor play --resume {saved}; " if table.left else ""
    out.write(f"The game record is in {saved} ({again}lictor review {saved}).\n")
    out.flush()
