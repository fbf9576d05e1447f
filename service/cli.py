"""The ``lictor`` command: serve, list games, play against AI seats, ask for moves, hints, scores."""

from __future__ import annotations

import os

# gRPC's core reads this once, at import: the server says what went wrong itself, in one line.
os.environ.setdefault("GRPC_VERBOSITY", "NONE")

import logging
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import grpc
import typer
from rich.console import Console
from rich.table import Table

from games.core.text import is_digits
from lictor import __version__

__all__ = ["app", "main"]

app = typer.Typer(
    name="lictor",
    help="Lictor: rules referee, AI opponent and solver service for tabletop games, over gRPC and HTTP.",
    no_args_is_help=True,
    add_completion=False,
)
console = Console()

ServerOpt = Annotated[
    str | None, typer.Option("--server", help="host:port of a Lictor server (default: run in-process)")
]
TokenOpt = Annotated[Path | None, typer.Option("--auth-token-file", help="file holding the bearer token")]
CaOpt = Annotated[Path | None, typer.Option("--tls-ca", help="CA certificate (PEM) to reach a TLS server")]


def _version(value: bool) -> None:
    if value:
        console.print(f"lictor {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="print the version and exit")
    ] = False,
) -> None:
    """Lictor: rules referee, AI opponent and solver service for tabletop games, over gRPC and HTTP."""


def _session(server: str | None, token_file: Path | None, ca: Path | None) -> Any:
    from service.auth import read_token_file
    from service.client import session

    token = read_token_file(token_file) if token_file else None
    return session(server, token=token, ca_cert=ca.read_bytes() if ca else None)


def _fail(exc: grpc.RpcError) -> typer.Exit:
    console.print(f"[red]{exc.code().name}[/red]: {exc.details()}", soft_wrap=True)
    return typer.Exit(code=1)


def _stop(message: str) -> typer.Exit:
    """One line on stderr (``lictor: ...``) and exit 2: a file or an option the command cannot use."""
    print(f"lictor: {message}", file=sys.stderr, flush=True)
    return typer.Exit(code=2)


def read_position(path: Path) -> Any:
    """The position a file holds (see ``service.client.position_from_dict``); a missing, unreadable
    or malformed file exits with one line naming the problem, never a traceback."""
    import json

    from google.protobuf import json_format

    from service.client import position_from_dict

    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise _stop(f"{path}: no such file") from None
    except IsADirectoryError:
        raise _stop(f"{path}: a directory, not a position file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise _stop(f"{path}: cannot be read ({getattr(exc, 'strerror', None) or exc})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _stop(f"{path}: not JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})") from None
    except RecursionError:
        raise _stop(f"{path}: JSON nested too deeply") from None
    if not isinstance(data, dict):
        raise _stop(f"{path}: a position file holds a JSON object, not a {type(data).__name__}")
    if not isinstance(data.get("game"), str) or not data["game"]:
        raise _stop(
            f'{path}: names no game (a position file starts {{"game": "NAME", ...}}; lictor games lists them)'
        )
    try:
        return position_from_dict(data)
    except (ValueError, TypeError, AttributeError, KeyError, json_format.ParseError) as exc:
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise _stop(f"{path}: not a position ({first[:200]})") from None


@app.command()
def serve(  # noqa: PLR0917
    host: Annotated[str, typer.Option(help="address to bind (loopback by default)")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port (0 = any free port)")] = 50051,
    db: Annotated[
        str,
        typer.Option(
            help="hosted matches: an SQLite file, or postgresql://user@host/dbname to share them with other "
            "replicas (docs/operations.md)"
        ),
    ] = "lictor.db",
    tls_cert: Annotated[Path | None, typer.Option("--tls-cert", help="PEM certificate chain (TLS)")] = None,
    tls_key: Annotated[Path | None, typer.Option("--tls-key", help="PEM private key (TLS)")] = None,
    auth_token_file: Annotated[
        Path | None, typer.Option("--auth-token-file", help="require this bearer token (health stays open)")
    ] = None,
    grace: Annotated[
        float, typer.Option(help="seconds to drain in-flight calls on SIGTERM or SIGINT (Ctrl-C)")
    ] = 10.0,
    content_root: Annotated[
        Path | None, typer.Option("--content-root", help="directory of user content packs requests may name")
    ] = None,
    max_concurrent_searches: Annotated[
        int, typer.Option(help="searches at once; more get RESOURCE_EXHAUSTED")
    ] = 4,
    http_port: Annotated[
        int | None,
        typer.Option(
            "--http-port",
            help="HTTP port on --host: the web table at / and the same API over Connect and gRPC-Web "
            "(default 8080, or a free port when --port is 0; 0 = no HTTP)",
            show_default=False,
        ),
    ] = None,
    http_cors_origin: Annotated[
        list[str] | None,
        typer.Option(
            "--http-cors-origin",
            help="an origin whose pages may call the HTTP API (repeatable; '*' = any; none by default)",
        ),
    ] = None,
) -> None:
    """Run the server until SIGTERM or Ctrl-C (then drain for --grace seconds and exit 0): gRPC on
    --port, and on --http-port (default 8080) the web table and the same API over HTTP (Connect,
    gRPC-Web): open http://127.0.0.1:8080/ to play."""
    from service.auth import read_token_file
    from service.limits import Limits
    from service.server import StartupError
    from service.server import serve as run

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if (tls_cert is None) != (tls_key is None):
        console.print("[red]--tls-cert and --tls-key go together[/red]")
        raise typer.Exit(code=2)
    try:
        run(
            f"{host}:{port}",
            db_path=db,
            grace_s=grace,
            tls_cert=tls_cert.read_bytes() if tls_cert else None,
            tls_key=tls_key.read_bytes() if tls_key else None,
            auth_token=read_token_file(auth_token_file) if auth_token_file else None,
            limits=Limits(max_concurrent_searches=max_concurrent_searches),
            content_root=content_root,
            http_address=_http_address(host, port, http_port),
            cors_origins=tuple(http_cors_origin or ()),
        )
    except (StartupError, OSError, ValueError) as exc:
        # One line, no traceback: a port in use, an unusable database, an unreadable file.
        print(f"lictor: {exc}", file=sys.stderr, flush=True)
        raise typer.Exit(code=2) from None


def _http_address(host: str, port: int, http_port: int | None) -> str | None:
    """Where ``serve`` answers over HTTP: --http-port, else 8080 (a free port beside --port 0)."""
    if http_port is None:
        return f"{host}:{8080 if port else 0}"
    return f"{host}:{http_port}" if http_port else None


def _option_text(value: Any) -> str:
    kind = value.WhichOneof("kind")
    return "" if kind is None else str(getattr(value, kind))


def _wrap(text: str, width: int, indent: str = "") -> list[str]:
    import textwrap

    return textwrap.wrap(text, max(20, width), initial_indent=indent, subsequent_indent=indent + "  ") or [
        indent
    ]


def game_listing(games: Any, width: int) -> list[str]:
    """``lictor games`` as lines no wider than ``width``, nothing cut (long values wrap)."""
    lines: list[str] = []
    for g in games:
        lines += _wrap(f"{g.name}: {g.title}", width)
        facts = [f"{g.min_players}-{g.max_players} players"]
        if g.content_version:
            facts.append(f"content {g.content_version}")
        if g.hidden_information:
            facts.append("hidden information")
        if g.stochastic:
            facts.append("chance")
        if g.has_scorer:
            facts.append("exact score")
        lines += _wrap(", ".join(facts), width, "  ")
        if g.variants:
            shown = ", ".join(f"{v.name}={_option_text(v.default_value)}" for v in g.variants)
            lines += _wrap(f"variants: {shown}", width, "  ")
        if g.puzzle_kinds:
            lines += _wrap(f"puzzles: {', '.join(g.puzzle_kinds)}", width, "  ")
        if g.engines:
            lines += _wrap(f"AI engines: {', '.join(g.engines)}", width, "  ")
        lines.append("")
    return lines[:-1] if lines else ["no games are registered"]


@app.command()
def games(server: ServerOpt = None, auth_token_file: TokenOpt = None, tls_ca: CaOpt = None) -> None:
    """List the registered games (every value shown in full, wrapped to the terminal)."""
    import shutil

    from lictor.v1 import game_service_pb2 as game_pb

    with _session(server, auth_token_file, tls_ca) as s:
        try:
            reply = s.games.ListGames(game_pb.ListGamesRequest(), timeout=30)
        except grpc.RpcError as exc:
            raise _fail(exc) from None
    width = shutil.get_terminal_size((80, 24)).columns
    print("\n".join(game_listing(reply.games, width)))


def _analysis_table(analysis: Any, title: str, limit: int = 8) -> Table:
    table = Table(title=title)
    for col in ("#", "move", "visits", "value (mover)", "LCB", "PV"):
        table.add_column(col)
    for i, c in enumerate(analysis.candidates[:limit]):
        value = c.value[analysis.seat] if 0 <= analysis.seat < len(c.value) else 0.0
        table.add_row(str(i + 1), c.action, str(c.visits), f"{value:.3f}", f"{c.lcb:.3f}", " ".join(c.pv[:6]))
    return table


@app.command()
def suggest(  # noqa: PLR0917
    position_file: Annotated[Path, typer.Argument(help="position or record JSON file")],
    level: Annotated[int, typer.Option(help="AI strength 1..10")] = 5,
    simulations: Annotated[int, typer.Option(help="simulation budget (overrides the level's)")] = 0,
    seed: Annotated[int, typer.Option(help="search seed")] = 0,
    server: ServerOpt = None,
    auth_token_file: TokenOpt = None,
    tls_ca: CaOpt = None,
) -> None:
    """The AI's move for the seat to move."""
    from lictor.v1 import advisor_service_pb2 as advisor_pb

    request = advisor_pb.SuggestActionRequest(position=read_position(position_file), level=level, seed=seed)
    if simulations:
        request.budget.simulations = simulations
    with _session(server, auth_token_file, tls_ca) as s:
        try:
            reply = s.advisor.SuggestAction(request, timeout=120)
        except grpc.RpcError as exc:
            raise _fail(exc) from None
    console.print(f"seat {reply.analysis.seat} plays [bold]{reply.action}[/bold]")
    console.print(_analysis_table(reply.analysis, f"{reply.analysis.simulations} simulations"))


@app.command()
def hint(  # noqa: PLR0917
    position_file: Annotated[Path, typer.Argument(help="position or record JSON file")],
    top_k: Annotated[int, typer.Option("--top-k", help="number of moves")] = 3,
    seconds: Annotated[float, typer.Option(help="search time")] = 1.0,
    seed: Annotated[int, typer.Option(help="search seed")] = 0,
    server: ServerOpt = None,
    auth_token_file: TokenOpt = None,
    tls_ca: CaOpt = None,
) -> None:
    """The best moves with reasons."""
    from lictor.v1 import advisor_service_pb2 as advisor_pb

    request = advisor_pb.HintRequest(position=read_position(position_file), top_k=top_k, seed=seed)
    request.budget.time_s = seconds
    with _session(server, auth_token_file, tls_ca) as s:
        try:
            reply = s.advisor.Hint(request, timeout=seconds + 60)
        except grpc.RpcError as exc:
            raise _fail(exc) from None
    _print_hints(reply)


def hint_lines(reply: Any, width: int, *, reasons: int = 5) -> list[str]:
    """A Hint answer as text: why #1 beats #2 first (at a chance node: what the dice decide), then
    each move (or outcome) with its reasons, the number it is ranked by first."""
    lines: list[str] = []
    if reply.why:
        lines += _wrap(f"{'Odds' if reply.chance else 'Why #1'}: {reply.why}", width)
    for h in reply.hints:
        lines += _wrap(f"#{h.rank} {h.action}", width)
        for r in h.reasons[:reasons]:
            lines += _wrap(f"- {r.sentence or f'{r.text}: {r.value:.3g}'}", width, "  ")
    return lines


def _print_hints(reply: Any) -> None:
    import shutil

    print("\n".join(hint_lines(reply, shutil.get_terminal_size((80, 24)).columns)))


@app.command()
def score(
    position_file: Annotated[Path, typer.Argument(help="position or record JSON file")],
    server: ServerOpt = None,
    auth_token_file: TokenOpt = None,
    tls_ca: CaOpt = None,
) -> None:
    """The exact score per seat, with breakdown and tie-breaks."""
    from lictor.v1 import solver_service_pb2 as solver_pb

    request = solver_pb.ScoreRequest(position=read_position(position_file))
    with _session(server, auth_token_file, tls_ca) as s:
        try:
            reply = s.solver.Score(request, timeout=60)
        except grpc.RpcError as exc:
            raise _fail(exc) from None
    import shutil

    width = shutil.get_terminal_size((80, 24)).columns
    head = f"{reply.game} score ({'final' if reply.final else 'if the game ended now'}):"
    print("\n".join([head, *score_lines(reply, width)]))


def score_lines(reply: Any, width: int) -> list[str]:
    """A Score answer as text: how the game ended, then per seat its rank and total, every part of
    its score with the category, points and how they were earned, and the tie-breaks that decided
    (wrapped to ``width``, nothing cut)."""
    lines: list[str] = []
    if reply.ended_by:
        lines += _wrap(f"the game ended: {reply.ended_by}", width, "  ")
    for s in reply.seats:
        lines += _wrap(f"seat {s.seat}: rank {s.rank}, {s.total:g} points", width, "  ")
        for line in s.breakdown:
            detail = f" ({line.detail})" if line.detail else ""
            lines += _wrap(f"{line.category}: {line.points:g}{detail}", width, "      ")
        if s.tiebreak:
            lines += _wrap(f"tie-break: {'; '.join(s.tiebreak)}", width, "      ")
    return lines


@app.command()
def solve(  # noqa: PLR0917
    position_file: Annotated[Path, typer.Argument(help="position or record JSON file")],
    kind: Annotated[str, typer.Option(help="puzzle kind, <game>.<puzzle> (lictor games lists them)")],
    params: Annotated[str, typer.Option(help="puzzle parameters as a JSON object")] = "{}",
    time_limit: Annotated[float, typer.Option(help="seconds")] = 10.0,
    server: ServerOpt = None,
    auth_token_file: TokenOpt = None,
    tls_ca: CaOpt = None,
) -> None:
    """Solve a puzzle about a position."""
    from lictor.v1 import solver_service_pb2 as solver_pb

    request = solver_pb.SolveRequest(
        position=read_position(position_file),
        generic=solver_pb.GenericPuzzle(kind=kind, params_json=params),
        limits=solver_pb.SolveLimits(time_limit_s=time_limit),
    )
    with _session(server, auth_token_file, tls_ca) as s:
        try:
            reply = s.solver.Solve(request, timeout=time_limit + 30)
        except grpc.RpcError as exc:
            raise _fail(exc) from None
    status = solver_pb.SolveStatus.Name(reply.status).removeprefix("SOLVE_STATUS_")
    console.print(f"[bold]{reply.kind}[/bold]: {status} objective {reply.objective:g} bound {reply.bound:g}")
    console.print(f"answer: {reply.answer_json}")
    if reply.explanation:
        console.print(reply.explanation)


# ---------------------------------------------------------------------------------------- the table
HUMAN = "human"
AI = "ai"

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


def _parse_seats(spec: str) -> list[tuple[str, int]]:
    """``"human,ai:5"`` -> ``[("human", 0), ("ai", 5)]``."""
    seats: list[tuple[str, int]] = []
    for part in spec.split(","):
        part = part.strip().lower()
        if part == HUMAN:
            seats.append((HUMAN, 0))
            continue
        kind, _, level = part.partition(":")
        if kind != AI or (level and not (is_digits(level) and 1 <= int(level) <= 10)):
            raise typer.BadParameter(f"seat {part!r}: use human or ai[:LEVEL 1..10]", param_hint="--seats")
        seats.append((AI, int(level or 5)))
    if len(seats) > 16:
        raise typer.BadParameter("at most 16 seats", param_hint="--seats")
    return seats


def _parse_options(specs: list[str]) -> dict[str, Any]:
    """``["target=20", "fast=true"]`` -> ``{"target": 20, "fast": True}``."""
    options: dict[str, Any] = {}
    for spec in specs:
        name, eq, raw = spec.partition("=")
        if not eq or not name.strip():
            raise typer.BadParameter(f"{spec!r}: use NAME=VALUE", param_hint="--option")
        value: Any = raw
        if raw.lower() in ("true", "false"):
            value = raw.lower() == "true"
        else:
            for kind in (int, float):
                try:
                    value = kind(raw)
                    break
                except ValueError:
                    continue
        options[name.strip()] = value
    return options


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
        lines += _wrap(line.rstrip(), width)  # a first move longer than the line wraps, never cut
    if len(lines) > budget - 1:
        hidden = len(lines) - (budget - 2)
        lines = [*lines[: budget - 2], f"… {hidden} more kinds of move"]
    return [*lines, "(m lists every move)"]


GLOSSED_KINDS = ("card", "tile")
"""Components named in a move whose text is shown under the move list: kinds holding these words."""


def glossary(content: Any) -> dict[str, tuple[str, str, str]]:
    """The components a move may name, by id: (kind, name, rules text), from a GetContent answer:
    the cards and tiles with an id of their own (not a bare number, not shared with another
    component)."""
    count: dict[str, int] = {}
    for item in content.items:
        count[item.id] = count.get(item.id, 0) + 1
    return {
        item.id: (item.kind, item.name, item.text)
        for item in content.items
        if count[item.id] == 1
        and not is_digits(item.id)
        and any(word in item.kind for word in GLOSSED_KINDS)
        and (item.text or item.name != item.id)
    }


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
        wrapped = _wrap(f"{head}: {text}" if text else head, width, "  ")
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
    head = [*_wrap(description.headline, width), *step]
    blocks = []
    hands = 0  # lines of the viewer's sections down to the end of its hand's rows: never cut
    for section in description.sections:
        mine = section.HasField("seat") and section.seat == seat
        body = _section_lines(section, width, hand_first=mine)
        title = _wrap(section.title, width)
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
        wrapped = _wrap(entry, width)
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


@dataclass
class GameTable:
    """A game at the terminal: the record kept here, each move refereed by the server
    (GameService), the AI seats played by its AdvisorService, dice drawn from the table's seed.

    Attributes:
        stubs: the server's stubs.
        game: the game name.
        seats: (HUMAN or AI, level) per seat.
        seed: the setup and dice seed.
        options: variant options by name.
        think: seconds of search for a hint or an analysis.
        positions: the position after each action played (a record), the start first.
        movers: the seat to decide in each of ``positions`` (CHANCE, TERMINAL).
        log: the game log as the log viewer reads it.
        log_at: the length of the log when each of ``positions`` was reached.
        message: a line shown once at the next screen (an error, a note).
        resigned: the seat that resigned, else None.
        result: the final summary once the game is over.
        has_scorer: whether the game has an exact scorer (the end shows its sheet).
        save_path: where the record is saved after every move (None: only when leaving, to
            ``lictor-GAME-SEED.json``).
        dice: ``"roll"`` (the table draws every chance outcome) or ``"ask"`` (a person rolls or
            types the real outcome).
        left: True once the player saved and left the table (the game goes on later).
        glossary: the components a move may name, by id: (kind, name, rules text).
    """

    stubs: Any
    game: str
    seats: list[tuple[str, int]]
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    think: float = 2.0
    positions: list[Any] = field(default_factory=list)
    movers: list[int] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    log_at: list[int] = field(default_factory=list)
    message: str = ""
    resigned: int | None = None
    result: Any = None
    has_scorer: bool = False
    save_path: Path | None = None
    dice: str = "roll"
    left: bool = False
    glossary: dict[str, tuple[str, str, str]] = field(default_factory=dict)

    @property
    def humans(self) -> list[int]:
        """The human seats."""
        return [i for i, (kind, _) in enumerate(self.seats) if kind == HUMAN]

    @property
    def log_viewer(self) -> Any:
        """Who reads the log: the one human seat, a spectator when several share the screen, the
        referee when only AI seats play."""
        from lictor.v1 import game_service_pb2 as game_pb

        humans = self.humans
        if len(humans) == 1:
            return game_pb.Viewer(role=game_pb.VIEWER_ROLE_SEAT, seat=humans[0])
        return game_pb.Viewer(role=game_pb.VIEWER_ROLE_SPECTATOR if humans else game_pb.VIEWER_ROLE_REFEREE)

    def start(self) -> Any:
        """Set the game up; returns its summary."""
        from lictor.v1 import game_service_pb2 as game_pb
        from lictor.v1 import position_pb2 as pos_pb
        from service.convert import option_value_to_pb

        request = game_pb.NewGameRequest(
            game=self.game, setup=pos_pb.GameSetup(players=len(self.seats), seed=self.seed)
        )
        for name, value in self.options.items():
            request.setup.options[name].CopyFrom(option_value_to_pb(value))
        reply = self.stubs.games.NewGame(request, timeout=60)
        self.positions = [reply.position]
        self.movers = [reply.summary.current_player]
        self.log_at = [0]
        infos = self.stubs.games.ListGames(game_pb.ListGamesRequest(), timeout=30).games
        self.has_scorer = any(g.name == self.game and g.has_scorer for g in infos)
        self.glossary = glossary(
            self.stubs.games.GetContent(game_pb.GetContentRequest(game=self.game), timeout=30)
        )
        return reply.summary

    @property
    def record_path(self) -> Path:
        """Where the record is saved: ``--save``, else ``lictor-GAME-SEED.json`` here."""
        return self.save_path or Path(f"lictor-{self.game}-{self.seed}.json")

    def record_dict(self) -> dict[str, Any]:
        """The game so far as a position file (``lictor play --resume``, ``lictor review``, ``score``,
        ``hint``, ``render`` read it) with the table's seats."""
        seats = ",".join(HUMAN if kind == HUMAN else f"{AI}:{level}" for kind, level in self.seats)
        return {
            "game": self.game,
            "record": {
                "players": len(self.seats),
                "options": dict(self.options),
                "seed": self.seed,
                "actions": list(self.position.record.actions),
            },
            "seats": seats,
        }

    def save(self, path: Path | None = None) -> Path:
        """Write the record (whole, then renamed: a crash never leaves half a file); returns where."""
        import json

        target = path or self.record_path
        tmp = target.with_name(target.name + ".tmp")
        tmp.write_text(json.dumps(self.record_dict(), indent=1) + "\n", encoding="utf-8")
        tmp.replace(target)
        return target

    def resume(self, actions: list[str]) -> None:
        """Set the game up and play ``actions`` again (a saved record), as the log reads them."""
        self.start()
        for number, text in enumerate(actions, 1):
            try:
                self.play(text, save=False)
            except grpc.RpcError as exc:
                raise _stop(f"move {number} of the saved game ({text!r}): {exc.details()}") from None

    @property
    def position(self) -> Any:
        """The current position."""
        return self.positions[-1]

    @property
    def mover(self) -> int:
        """The seat to decide now (CHANCE, TERMINAL)."""
        return int(self.movers[-1])

    def play(self, text: str, *, save: bool = True) -> Any:
        """Referee ``text`` in the current position, log it, and move on (saved to ``save_path``
        when one is given); returns the summary."""
        from lictor.v1 import game_service_pb2 as game_pb
        from lictor.v1 import position_pb2 as pos_pb

        action = pos_pb.Action(text=text)
        line = self.stubs.games.DescribeAction(
            game_pb.DescribeActionRequest(position=self.position, action=action, viewer=self.log_viewer),
            timeout=30,
        ).log_line
        reply = self.stubs.games.ApplyAction(
            game_pb.ApplyActionRequest(position=self.position, action=action), timeout=60
        )
        self.log.append(line)
        self.log += [e.description for e in reply.events if e.kind == pos_pb.EVENT_KIND_GAME_OVER]
        self.positions.append(reply.position)
        self.movers.append(reply.summary.current_player)
        self.log_at.append(len(self.log))
        if reply.summary.terminal:
            self.result = reply.summary
        if save and self.save_path is not None:
            self.save()
        return reply.summary

    def roll(self) -> Any:
        """Draw the chance outcome (a die, a card) from the table's seed and play it."""
        outcomes = self.outcomes()
        rng = random.Random(f"{self.seed}:{len(self.positions)}")
        pick = rng.choices(outcomes, weights=[max(0.0, o.probability) for o in outcomes])[0]
        return self.play(pick.text)

    def outcomes(self) -> list[Any]:
        """The chance outcomes of the current position (each with its probability)."""
        from lictor.v1 import game_service_pb2 as game_pb

        return list(
            self.stubs.games.GetLegalActions(
                game_pb.GetLegalActionsRequest(position=self.position), timeout=30
            ).actions
        )

    def ai_move(self) -> Any:
        """The AI seat's move, from the server's search."""
        from lictor.v1 import advisor_service_pb2 as advisor_pb

        _, level = self.seats[self.mover]
        request = advisor_pb.SuggestActionRequest(
            position=self.position, level=level, seed=self.seed + len(self.positions)
        )
        reply = self.stubs.advisor.SuggestAction(request, timeout=300)
        return self.play(reply.action)

    def take_back(self, seat: int) -> bool:
        """Undo back to ``seat``'s previous decision (its last move and everything after it)."""
        for i in range(len(self.positions) - 2, -1, -1):
            if self.movers[i] == seat:
                dropped = len(self.positions) - 1 - i
                del self.positions[i + 1 :]
                del self.movers[i + 1 :]
                del self.log[self.log_at[i] :]
                del self.log_at[i + 1 :]
                self.log.append(f"Seat {seat} takes back {dropped} action{'s' if dropped != 1 else ''}.")
                self.result = None
                if self.save_path is not None:
                    self.save()
                return True
        return False

    def advance(self, out: Any) -> None:
        """Play dice and AI seats until a human seat decides or the game ends."""
        while self.mover != TERMINAL_SEAT and self.resigned is None:
            mover = self.mover
            if mover == CHANCE_SEAT and self.dice == "ask":
                return
            if mover == CHANCE_SEAT:
                self.roll()
            elif self.seats[mover][0] == AI:
                out.write(f"\rseat {mover} (AI) is thinking…".ljust(40))
                out.flush()
                self.ai_move()
            else:
                return

    def legal(self) -> list[str]:
        """The legal moves of the seat to decide, in notation."""
        from lictor.v1 import game_service_pb2 as game_pb

        return [
            a.text
            for a in self.stubs.games.GetLegalActions(
                game_pb.GetLegalActionsRequest(position=self.position), timeout=30
            ).actions
        ]

    def describe(self, viewer: Any, width: int) -> Any:
        """The current position as ``viewer`` sees it."""
        from lictor.v1 import game_service_pb2 as game_pb

        return self.stubs.games.Describe(
            game_pb.DescribeRequest(position=self.position, viewer=viewer, width=width), timeout=30
        ).description


CHANCE_SEAT = -1
TERMINAL_SEAT = -2


def _seat_viewer(seat: int) -> Any:
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
    foot = _wrap(keys, width)[:1]
    status = _wrap(table.message, width)[:MAX_STATUS_LINES] if table.message else []
    table.message = ""
    description = table.describe(_seat_viewer(seat), width if width < 120 else width // 2 - 2)
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
    lines += [w for entry in collapse_log(table.log)[-5:] for w in _wrap(entry, width)]
    lines += ["", "Final score:"]
    if table.resigned is not None:
        others = [str(i) for i in range(len(table.seats)) if i != table.resigned]
        lines += _wrap(
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
            lines += _wrap(
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
    turn.pages(turn.table.describe(_seat_viewer(turn.seat), turn.width).text.splitlines())


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


@app.command()
def play(  # noqa: PLR0917
    game: Annotated[
        str | None, typer.Argument(help="game name (see `lictor games`); not with --resume")
    ] = None,
    seats: Annotated[
        str | None,
        typer.Option(help="comma-separated seats: human or ai:LEVEL (1..10) [default: human,ai:5]"),
    ] = None,
    seed: Annotated[int | None, typer.Option(help="setup and dice seed (default: a random one)")] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", help="a variant option NAME=VALUE (repeatable)")
    ] = None,
    think: Annotated[float, typer.Option(help="seconds the search thinks for a hint or an analysis")] = 2.0,
    save: Annotated[
        Path | None, typer.Option("--save", help="save the game record to FILE after every move")
    ] = None,
    resume: Annotated[
        Path | None, typer.Option("--resume", help="go on with a saved game (a record file)")
    ] = None,
    dice: Annotated[
        str, typer.Option(help="roll: the table draws the dice; ask: roll them yourself and type the outcome")
    ] = "roll",
    server: ServerOpt = None,
    auth_token_file: TokenOpt = None,
    tls_ca: CaOpt = None,
) -> None:
    """Play at the terminal against AI seats: a move's number or notation; h hints, a analysis,
    u take back, b board, q leave (save or resign).

    The game record is kept here and saved when you leave (--save FILE after every move); the server
    referees every move, plays the AI seats and describes the position as your seat sees it (for a
    hosted match that others join, see MatchService).
    """
    import shutil

    if dice not in ("roll", "ask"):
        raise typer.BadParameter(f"{dice!r}: roll or ask", param_hint="--dice")
    actions: list[str] | None = None
    if resume is not None:
        saved = read_saved_game(resume)
        if game is not None and game != saved["game"]:
            raise _stop(f"{resume}: holds a {saved['game']} game, not {game}")
        game = saved["game"]
        seats = seats or saved["seats"]
        seed, actions = saved["seed"], saved["actions"]
        options = saved["options"]
        save = save or resume
    elif game is None:
        raise typer.BadParameter("name the game to play (or --resume FILE)", param_hint="GAME")
    else:
        options = _parse_options(option or [])
    parsed = _parse_seats(seats or "human,ai:5")

    def size() -> tuple[int, int]:
        cols, rows = shutil.get_terminal_size((80, 24))
        return max(40, cols), max(12, rows)

    def read() -> str:
        return sys.stdin.readline()  # "" once the input is closed

    with _session(server, auth_token_file, tls_ca) as s:
        table = GameTable(
            stubs=s,
            game=game,
            seats=parsed,
            seed=seed if seed is not None else random.randrange(2**31),
            options=options,
            think=min(60.0, max(0.1, think)),
            save_path=save,
            dice=dice,
        )
        try:
            run_table(table, read, sys.stdout, size, resume=actions)
        except grpc.RpcError as exc:
            raise _fail(exc) from None


def read_saved_game(path: Path) -> dict[str, Any]:
    """A saved game (``lictor play --save``): game, seats, seed, options, actions; one line and exit 2
    when the file is not one."""
    from games.errors import LictorError
    from service.convert import option_value_from_pb

    position = read_position(path)
    if position.WhichOneof("kind") != "record":
        raise _stop(f"{path}: a saved game is a record (moves from the setup), not a state")
    setup = position.record.setup
    try:
        options = {k: option_value_from_pb(v, f"options.{k}") for k, v in setup.options.items()}
    except LictorError as exc:
        raise _stop(f"{path}: a bad option ({exc})") from None
    import json

    seats = json.loads(path.read_text(encoding="utf-8")).get("seats")
    if seats is not None and not isinstance(seats, str):
        raise _stop(f"{path}: 'seats' is a text like \"human,ai:5\"")
    return {
        "game": position.game,
        "seats": seats or ",".join(["human"] + ["ai:5"] * (setup.players - 1)),
        "seed": int(setup.seed),
        "options": options,
        "actions": list(position.record.actions),
    }


@app.command()
def review(  # noqa: PLR0917
    record_file: Annotated[Path, typer.Argument(help="a game record file (lictor play saves one)")],
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="the graph: a PNG (default: RECORD.png)")
    ] = None,
    simulations: Annotated[int, typer.Option(help="search simulations per position")] = 100,
    worst: Annotated[int, typer.Option(help="how many of the moves that gave up most to explain")] = 3,
    seed: Annotated[int, typer.Option(help="search seed")] = 0,
    server: ServerOpt = None,
    auth_token_file: TokenOpt = None,
    tls_ca: CaOpt = None,
) -> None:
    """Review a played game (KaTrain-like): a PNG of each seat's win chance after every move, and the
    moves that gave up most against the AI's choice, each with the hint's reason."""
    import shutil

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    from lictor.v1 import advisor_service_pb2 as advisor_pb

    position = read_position(record_file)
    if position.WhichOneof("kind") != "record":
        raise _stop(f"{record_file}: a review needs a game record (moves from the setup), not a state")
    if output is not None and output.suffix.lower() != ".png":
        raise typer.BadParameter(f"{output.name!r}: the graph is a .png", param_hint="--output")
    target = output or record_file.with_suffix(".png")
    request = advisor_pb.ReviewRequest(
        position=position, budget=advisor_pb.SearchBudget(simulations=simulations), seed=seed, worst=worst
    )
    moves: list[Any] = []
    final = None
    total = len(position.record.actions)
    with (
        _session(server, auth_token_file, tls_ca) as s,
        Progress(
            "{task.description}", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=console
        ) as bar,
    ):
        task = bar.add_task(f"reviewing {position.game}", total=total)
        try:
            for report in s.advisor.Review(request, timeout=3600):
                if report.final:
                    final = report
                else:
                    moves.append(report.move)
                    bar.update(task, completed=len(moves))
        except grpc.RpcError as exc:
            raise _fail(exc) from None
    assert final is not None
    players = position.record.setup.players
    review_plot(
        position.game, list(final.start_values), moves, list(final.mistakes), players=players, path=target
    )
    width = shutil.get_terminal_size((80, 24)).columns
    lines = [
        f"wrote {target}: each seat's win chance after every move ({simulations} simulations a position)"
    ]
    if final.stopped_by:
        lines.append(f"the review stopped early ({final.stopped_by}) after {len(moves)} of {total} moves")
    lines.append(
        "The moves that gave up most against the AI's choice:" if final.mistakes else "No move gave up much."
    )
    for m in final.mistakes:
        lines += _wrap(
            f"move {m.number}, seat {m.seat}: {m.played!r} gave up {m.loss:.0%} of its win chance; "
            f"the AI plays {m.best_action!r}",
            width,
        )
        lines += _wrap(f"why: {m.why}", width, "  ")
    print("\n".join(lines))


SEAT_LINE_COLOURS = ("#1f5fa8", "#c0392b", "#2f8f3a", "#8a5a00", "#6a3d9a", "#444444")
"""A line colour per seat in a review graph (distinct in colour and lightness)."""


def review_plot(
    game: str, start: list[float], moves: list[Any], mistakes: list[Any], *, players: int, path: Path
) -> Path:
    """The review's PNG: each seat's win chance after every move (matplotlib), the moves that gave up
    most marked and numbered on their player's line."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise _stop("the review graph needs matplotlib: pip install 'lictor[plots]'") from None
    fig, ax = plt.subplots(figsize=(10, 4.5), dpi=120)
    xs = [0] + [m.number for m in moves]
    for seat in range(players):
        ys = [start[seat] if seat < len(start) else 1 / players]
        ys += [m.values[seat] if seat < len(m.values) else ys[-1] for m in moves]
        colour = SEAT_LINE_COLOURS[seat % len(SEAT_LINE_COLOURS)]
        ax.plot(xs, ys, color=colour, linewidth=1.6, label=f"seat {seat}", drawstyle="steps-post")
    by_number = {m.number: m for m in moves}
    for rank, mistake in enumerate(mistakes, 1):
        move = by_number.get(mistake.number)
        if move is None or not 0 <= mistake.seat < len(move.values):
            continue
        y = move.values[mistake.seat]
        ax.plot(
            [mistake.number],
            [y],
            "o",
            color="#d62728",
            markersize=9,
            markerfacecolor="none",
            markeredgewidth=2,
        )
        ax.annotate(
            f"{rank}: {mistake.played} (-{mistake.loss:.0%})",
            (mistake.number, y),
            textcoords="offset points",
            xytext=(6, 8 if y < 0.8 else -14),
            fontsize=8,
            color="#8b0000",
        )
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlim(0, max(1, xs[-1]))
    ax.set_xlabel("move")
    ax.set_ylabel("win chance (the search's estimate)")
    ax.set_title(f"{game}: each seat's win chance after every move")
    ax.grid(True, alpha=0.3)
    ax.legend(loc="upper left", fontsize=8, ncols=min(players, 6))
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


@app.command()
def render(  # noqa: PLR0917
    position_file: Annotated[Path, typer.Argument(help="position or record JSON file")],
    output: Annotated[Path, typer.Option("-o", "--output", help="the picture: board.svg or board.png")],
    viewer: Annotated[str, typer.Option(help="who looks: referee, spectator or a seat number")] = "referee",
    server: ServerOpt = None,
    auth_token_file: TokenOpt = None,
    tls_ca: CaOpt = None,
) -> None:
    """Draw a position as SVG or PNG (by the output's extension)."""
    from lictor.v1 import game_service_pb2 as game_pb

    suffix = output.suffix.lower()
    if suffix not in (".svg", ".png"):
        raise typer.BadParameter(f"{output.name!r}: the output ends in .svg or .png", param_hint="--output")
    if is_digits(viewer):
        who = game_pb.Viewer(role=game_pb.VIEWER_ROLE_SEAT, seat=int(viewer))
    elif viewer in ("referee", "spectator"):
        role = game_pb.VIEWER_ROLE_REFEREE if viewer == "referee" else game_pb.VIEWER_ROLE_SPECTATOR
        who = game_pb.Viewer(role=role)
    else:
        raise typer.BadParameter(f"{viewer!r}: referee, spectator or a seat number", param_hint="--viewer")
    fmt = game_pb.RENDER_FORMAT_PNG if suffix == ".png" else game_pb.RENDER_FORMAT_SVG
    request = game_pb.RenderRequest(position=read_position(position_file), viewer=who, format=fmt)
    with _session(server, auth_token_file, tls_ca) as s:
        try:
            reply = s.games.Render(request, timeout=120)
        except grpc.RpcError as exc:
            raise _fail(exc) from None
    output.write_bytes(reply.image)
    console.print(f"wrote {output} ({len(reply.image)} bytes, {reply.media_type})")


@app.command()
def tournament(  # noqa: PLR0917
    game: Annotated[str, typer.Argument(help="the game (lictor games lists them)")],
    entrants: Annotated[
        str,
        typer.Option(help="comma-separated: random, greedy, engine:NAME, level:1..10, sims:N, openspiel:N"),
    ] = "random,greedy,level:1,level:3,level:5",
    games_per_pair: Annotated[int, typer.Option("--games", help="games per pair of entrants")] = 20,
    players: Annotated[int, typer.Option(help="seats at the table (entrants alternate)")] = 2,
    seed: Annotated[int, typer.Option(help="the seed every deal and player derives from")] = 0,
    jobs: Annotated[int, typer.Option(help="local worker processes")] = 1,
    ray: Annotated[
        str | None, typer.Option("--ray", help="play on Ray: 'local', or a cluster's address")
    ] = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="write the results as JSON")] = None,
    plot: Annotated[Path | None, typer.Option(help="write a PNG of strength vs thinking time")] = None,
) -> None:
    """A round robin between AI configurations, with Bradley–Terry ratings (docs/search.md)."""
    import json as json_module

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    from batch.report import pair_table, ratings_table
    from batch.tournament import run
    from games.errors import LictorError

    names = [e.strip() for e in entrants.split(",") if e.strip()]
    with Progress("{task.description}", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()) as bar:
        task = bar.add_task(f"{game}: {len(names)} entrants", total=None)
        try:
            result = run(
                game,
                names,
                games=games_per_pair,
                players=players,
                seed=seed,
                jobs=jobs,
                ray_address=ray,
                progress=lambda done, total: bar.update(task, completed=done, total=total),
            )
        except LictorError as exc:
            console.print(f"[red]{exc.message}[/red]")
            raise typer.Exit(2) from None
    console.print(ratings_table(result))
    console.print(pair_table(result))
    if json_out is not None:
        json_out.write_text(json_module.dumps(result.to_json(), indent=1) + "\n")
        console.print(f"wrote {json_out}")
    if plot is not None:
        from batch.plots import strength_plot

        console.print(f"wrote {strength_plot(result, plot)}")


@app.command()
def train(  # noqa: PLR0917
    game: Annotated[str, typer.Argument(help="the game (one that ships a 'fitted' evaluator)")],
    games_count: Annotated[int, typer.Option("--games", help="self-play games")] = 120,
    players: Annotated[int, typer.Option(help="seats at the table")] = 2,
    simulations: Annotated[int, typer.Option(help="simulations per move of every seat")] = 32,
    evaluator: Annotated[
        str, typer.Option(help="the evaluator the seats search with ('' = the hand-written one)")
    ] = "",
    option: Annotated[
        list[str] | None, typer.Option("--option", help="a game option NAME=VALUE (repeatable)")
    ] = None,
    seed: Annotated[int, typer.Option(help="the seed every deal and player derives from")] = 0,
    jobs: Annotated[int, typer.Option(help="local worker processes")] = 1,
    ray: Annotated[
        str | None, typer.Option("--ray", help="play on Ray: 'local', or a cluster's address")
    ] = None,
    out: Annotated[Path | None, typer.Option(help="write the fitted model here (JSON)")] = None,
    save_games: Annotated[
        Path | None, typer.Option("--save-games", help="write the self-play games here (JSON lines)")
    ] = None,
    from_games: Annotated[
        Path | None, typer.Option("--from-games", help="fit games saved before instead of playing")
    ] = None,
) -> None:
    """Self-play, then fit the game's win model (batch/selfplay.py; docs/search.md)."""
    import json as json_module
    import shlex

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    from batch.selfplay import load_games
    from batch.selfplay import train as run_training
    from games.errors import LictorError

    options: dict[str, Any] = {}
    for item in option or []:
        name, sep, value = item.partition("=")
        if not sep:
            raise typer.BadParameter(f"{item!r}: NAME=VALUE", param_hint="--option")
        options[name] = int(value) if value.lstrip("-").isdigit() else value
    command = "lictor train " + " ".join(shlex.quote(a) for a in sys.argv[2:])
    with Progress("{task.description}", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()) as bar:
        task = bar.add_task(f"{game}: self-play", total=games_count)
        try:
            model = run_training(
                game,
                games=games_count,
                players=players,
                seed=seed,
                simulations=simulations,
                evaluator=evaluator,
                options=options,
                jobs=jobs,
                ray_address=ray,
                progress=lambda done, total: bar.update(task, completed=done, total=total),
                command=command,
                save=None if save_games is None else str(save_games),
                played=None if from_games is None else load_games(str(from_games)),
            )
        except LictorError as exc:
            console.print(f"[red]{exc.message}[/red]")
            raise typer.Exit(2) from None
    held = model["training"]["held_out"]
    console.print(f"held-out log-loss: {held}")
    for name, weight in zip(model["features"], model["weights"][str(players)], strict=True):
        console.print(f"  {weight:+.4f}  {name}")
    if out is not None:
        out.write_text(json_module.dumps(model, indent=1) + "\n")
        console.print(f"wrote {out}")


def main() -> None:
    """Console-script entry point."""
    app()


if __name__ == "__main__":
    main()
