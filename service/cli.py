"""The ``lictor`` command: serve, list games, play against AI seats, ask for moves, hints, scores."""

from __future__ import annotations

import os

# gRPC's core reads this once, at import: the server says what went wrong itself, in one line.
os.environ.setdefault("GRPC_VERBOSITY", "NONE")

import json
import logging
import sys
import time
from pathlib import Path
from typing import Annotated, Any

import grpc
import typer
from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table

from lictor import __version__

__all__ = ["app", "main"]

app = typer.Typer(
    name="lictor",
    help="Lictor: rules referee, AI opponent and solver service for tabletop games, over gRPC.",
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
    """Lictor: rules referee, AI opponent and solver service for tabletop games, over gRPC."""


def _session(server: str | None, token_file: Path | None, ca: Path | None) -> Any:
    from service.auth import read_token_file
    from service.client import session

    token = read_token_file(token_file) if token_file else None
    return session(server, token=token, ca_cert=ca.read_bytes() if ca else None)


def _fail(exc: grpc.RpcError) -> typer.Exit:
    console.print(f"[red]{exc.code().name}[/red]: {exc.details()}")
    return typer.Exit(code=1)


@app.command()
def serve(  # noqa: PLR0917
    host: Annotated[str, typer.Option(help="address to bind (loopback by default)")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port (0 = any free port)")] = 50051,
    db: Annotated[Path, typer.Option(help="SQLite database of hosted matches")] = Path("lictor.db"),
    tls_cert: Annotated[Path | None, typer.Option("--tls-cert", help="PEM certificate chain (TLS)")] = None,
    tls_key: Annotated[Path | None, typer.Option("--tls-key", help="PEM private key (TLS)")] = None,
    auth_token_file: Annotated[
        Path | None, typer.Option("--auth-token-file", help="require this bearer token (health stays open)")
    ] = None,
    grace: Annotated[float, typer.Option(help="seconds to drain in-flight calls on SIGTERM")] = 10.0,
    content_root: Annotated[
        Path | None, typer.Option("--content-root", help="directory of user content packs requests may name")
    ] = None,
    max_concurrent_searches: Annotated[
        int, typer.Option(help="searches at once; more get RESOURCE_EXHAUSTED")
    ] = 4,
) -> None:
    """Run the gRPC server until SIGTERM or Ctrl-C."""
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
        )
    except (StartupError, OSError, ValueError) as exc:
        # One line, no traceback: a port in use, an unusable database, an unreadable file.
        print(f"lictor: {exc}", file=sys.stderr, flush=True)
        raise typer.Exit(code=2) from None


def _option_text(value: Any) -> str:
    kind = value.WhichOneof("kind")
    return "" if kind is None else str(getattr(value, kind))


@app.command()
def games(server: ServerOpt = None, auth_token_file: TokenOpt = None, tls_ca: CaOpt = None) -> None:
    """List the registered games."""
    from lictor.v1 import game_service_pb2 as game_pb

    with _session(server, auth_token_file, tls_ca) as s:
        try:
            reply = s.games.ListGames(game_pb.ListGamesRequest(), timeout=30)
        except grpc.RpcError as exc:
            raise _fail(exc) from None
    table = Table(title="Lictor games")
    for col in ("name", "title", "players", "variants", "content", "scorer / puzzles"):
        table.add_column(col)
    for g in reply.games:
        variants = ", ".join(f"{v.name}={_option_text(v.default_value)}" for v in g.variants)
        extras = ("score" if g.has_scorer else "") + ("; " if g.has_scorer and g.puzzle_kinds else "")
        table.add_row(
            g.name,
            g.title,
            f"{g.min_players}-{g.max_players}",
            variants,
            g.content_version,
            extras + ", ".join(g.puzzle_kinds),
        )
    console.print(table)


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
    from service.client import position_from_file

    request = advisor_pb.SuggestActionRequest(
        position=position_from_file(position_file), level=level, seed=seed
    )
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
    from service.client import position_from_file

    request = advisor_pb.HintRequest(position=position_from_file(position_file), top_k=top_k, seed=seed)
    request.budget.time_s = seconds
    with _session(server, auth_token_file, tls_ca) as s:
        try:
            reply = s.advisor.Hint(request, timeout=seconds + 60)
        except grpc.RpcError as exc:
            raise _fail(exc) from None
    _print_hints(reply)


def _print_hints(reply: Any) -> None:
    for h in reply.hints:
        lines = "\n".join(f"• {r.text}: {r.value:.3g}" for r in h.reasons)
        console.print(Panel(escape(lines), title=escape(f"#{h.rank} {h.action}"), expand=False))


@app.command()
def score(
    position_file: Annotated[Path, typer.Argument(help="position or record JSON file")],
    server: ServerOpt = None,
    auth_token_file: TokenOpt = None,
    tls_ca: CaOpt = None,
) -> None:
    """The exact score per seat, with breakdown and tie-breaks."""
    from lictor.v1 import solver_service_pb2 as solver_pb
    from service.client import position_from_file

    request = solver_pb.ScoreRequest(position=position_from_file(position_file))
    with _session(server, auth_token_file, tls_ca) as s:
        try:
            reply = s.solver.Score(request, timeout=60)
        except grpc.RpcError as exc:
            raise _fail(exc) from None
    table = Table(title=f"{reply.game} score ({'final' if reply.final else 'if the game ended now'})")
    for col in ("seat", "rank", "total", "breakdown", "tie-break"):
        table.add_column(col)
    for seat in reply.seats:
        breakdown = "; ".join(f"{line.category} {line.points:g}" for line in seat.breakdown)
        table.add_row(str(seat.seat), str(seat.rank), f"{seat.total:g}", breakdown, ", ".join(seat.tiebreak))
    console.print(table)


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
    from service.client import position_from_file

    request = solver_pb.SolveRequest(
        position=position_from_file(position_file),
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


def _board(text: str) -> Any:
    """A state's text form for the terminal: a field table when it holds a JSON object, else the text."""
    from rich.text import Text

    start = text.find("{")
    candidates = [(text, "")] + ([(text[start:], text[:start].strip())] if start > 0 else [])
    for candidate, title in candidates:
        try:
            data = json.loads(candidate)
        except ValueError:
            continue
        if not isinstance(data, dict):
            break
        table = Table(show_header=False, box=None, title=title or None, title_justify="left")
        table.add_column(style="cyan", no_wrap=True)
        table.add_column(overflow="fold")
        for key, value in data.items():
            table.add_row(escape(str(key)), escape(json.dumps(value, separators=(", ", ": "))))
        return table
    lines = text.splitlines()
    if len(lines) > 20:  # a long key=value listing: side by side, to fit the terminal
        from rich.columns import Columns

        return Columns([Text(line) for line in lines], column_first=True, padding=(0, 3))
    return Text(text)


def _parse_seats(spec: str) -> list[Any]:
    from lictor.v1 import match_service_pb2 as match_pb

    seats: list[Any] = []
    for part in spec.split(","):
        part = part.strip().lower()
        if part == "human":
            seats.append(match_pb.Seat(kind=match_pb.SEAT_KIND_HUMAN, name=f"human {len(seats)}"))
        elif part.startswith("ai"):
            _, _, level = part.partition(":")
            seats.append(
                match_pb.Seat(kind=match_pb.SEAT_KIND_AI, level=int(level or 5), name=f"ai {len(seats)}")
            )
        else:
            raise typer.BadParameter(f"seat {part!r}: use human or ai[:LEVEL]", param_hint="--seats")
    return seats


@app.command()
def play(  # noqa: PLR0917
    game: Annotated[str, typer.Argument(help="game name (see `lictor games`)")],
    seats: Annotated[str, typer.Option(help="comma-separated seats: human or ai:LEVEL")] = "human,ai:5",
    seed: Annotated[
        int | None, typer.Option(help="setup and dice seed (AI-only matches; else the server draws it)")
    ] = None,
    server: ServerOpt = None,
    auth_token_file: TokenOpt = None,
    tls_ca: CaOpt = None,
) -> None:
    """Play in the terminal against AI seats (type a move's number or notation; h = hint; q = resign)."""
    from lictor.v1 import advisor_service_pb2 as advisor_pb
    from lictor.v1 import game_service_pb2 as game_pb
    from lictor.v1 import match_service_pb2 as match_pb

    with _session(server, auth_token_file, tls_ca) as s:
        try:
            # every human seat plays at this one terminal: no seat secrets between them
            create = match_pb.CreateMatchRequest(
                game=game, seats=_parse_seats(seats), issue_seat_secrets=False
            )
            if seed is not None:
                create.seed = seed
            match = s.matches.CreateMatch(create, timeout=30).match
        except grpc.RpcError as exc:
            raise _fail(exc) from None
        console.print(f"match {match.match_id}")
        while True:
            match = s.matches.GetMatch(match_pb.GetMatchRequest(match_id=match.match_id), timeout=30).match
            summary = match.summary
            if match.status == match_pb.MATCH_STATUS_FINISHED:
                summary = s.matches.GetMatch(  # over: everything may be shown
                    match_pb.GetMatchRequest(match_id=match.match_id, reveal_all=True), timeout=30
                ).match.summary
                console.print(Panel(_board(summary.state_text), title=f"{game}: game over", expand=False))
                console.print(
                    "returns: " + ", ".join(f"seat {i}: {v:g}" for i, v in enumerate(match.returns))
                )
                return
            seat = summary.current_player
            if seat < 0 or match.seats[seat].kind == match_pb.SEAT_KIND_AI:
                time.sleep(0.1)  # the server's AI (or dice) moves
                continue
            view = s.matches.GetMatch(  # what this seat may see (hidden information stays hidden)
                match_pb.GetMatchRequest(match_id=match.match_id, viewer_seat=seat), timeout=30
            ).match
            title = f"{game}: move {match.move_number}, seat {seat} to play"
            console.print(Panel(_board(view.summary.state_text), title=title, expand=False))
            legal = s.games.GetLegalActions(
                game_pb.GetLegalActionsRequest(position=view.position), timeout=30
            ).actions
            console.print("  ".join(f"[cyan]{i + 1}[/cyan] {escape(a.text)}" for i, a in enumerate(legal)))
            answer = typer.prompt(f"seat {seat}").strip()
            if answer == "q":
                s.matches.ResignMatch(
                    match_pb.ResignMatchRequest(match_id=match.match_id, seat=seat), timeout=30
                )
                continue
            if answer == "h":
                request = advisor_pb.HintRequest(position=view.position, top_k=3)
                request.budget.time_s = 1.0
                try:
                    _print_hints(s.advisor.Hint(request, timeout=60))
                except grpc.RpcError as exc:
                    console.print(f"[red]{exc.code().name}[/red]: {exc.details()}")
                continue
            text = (
                legal[int(answer) - 1].text if answer.isdigit() and 0 < int(answer) <= len(legal) else answer
            )
            submit = match_pb.SubmitActionRequest(
                match_id=match.match_id, seat=seat, expected_move_number=match.move_number
            )
            submit.action.text = text
            try:
                reply = s.matches.SubmitAction(submit, timeout=30)
            except grpc.RpcError as exc:
                console.print(f"[red]{exc.code().name}[/red]: {exc.details()}")
                continue
            for event in reply.events:
                console.print(f"  {escape(event.description)}")


def main() -> None:
    """Console-script entry point."""
    app()


if __name__ == "__main__":
    main()
