"""The commands that ask a server one question and print its answer: ``games``, ``suggest``,
``hint``, ``score``, ``solve`` and ``render``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import grpc
import typer
from rich.table import Table

from games.core.text import is_digits
from service.cli.root import (
    CaOpt,
    ServerOpt,
    TokenOpt,
    console,
    failure,
    open_session,
    read_position,
    wrap_text,
)


def _option_text(value: Any) -> str:
    kind = value.WhichOneof("kind")
    return "" if kind is None else str(getattr(value, kind))


def game_listing(games: Any, width: int) -> list[str]:
    """``lictor games`` as lines no wider than ``width``, nothing cut (long values wrap)."""
    lines: list[str] = []
    for g in games:
        lines += wrap_text(f"{g.name}: {g.title}", width)
        facts = [f"{g.min_players}-{g.max_players} players"]
        if g.content_version:
            facts.append(f"content {g.content_version}")
        if g.hidden_information:
            facts.append("hidden information")
        if g.stochastic:
            facts.append("chance")
        if g.has_scorer:
            facts.append("exact score")
        lines += wrap_text(", ".join(facts), width, "  ")
        if g.variants:
            shown = ", ".join(f"{v.name}={_option_text(v.default_value)}" for v in g.variants)
            lines += wrap_text(f"variants: {shown}", width, "  ")
        if g.puzzle_kinds:
            lines += wrap_text(f"puzzles: {', '.join(g.puzzle_kinds)}", width, "  ")
        if g.engines:
            lines += wrap_text(f"AI engines: {', '.join(g.engines)}", width, "  ")
        lines.append("")
    return lines[:-1] if lines else ["no games are registered"]


def games(server: ServerOpt = None, auth_token_file: TokenOpt = None, tls_ca: CaOpt = None) -> None:
    """List the registered games (every value shown in full, wrapped to the terminal)."""
    import shutil

    from lictor.v1 import game_service_pb2 as game_pb

    with open_session(server, auth_token_file, tls_ca) as s:
        try:
            reply = s.games.ListGames(game_pb.ListGamesRequest(), timeout=30)
        except grpc.RpcError as exc:
            raise failure(exc) from None
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


def suggest(
    *,
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
    with open_session(server, auth_token_file, tls_ca) as s:
        try:
            reply = s.advisor.SuggestAction(request, timeout=120)
        except grpc.RpcError as exc:
            raise failure(exc) from None
    console.print(f"seat {reply.analysis.seat} plays [bold]{reply.action}[/bold]")
    console.print(_analysis_table(reply.analysis, f"{reply.analysis.simulations} simulations"))


def hint(
    *,
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
    with open_session(server, auth_token_file, tls_ca) as s:
        try:
            reply = s.advisor.Hint(request, timeout=seconds + 60)
        except grpc.RpcError as exc:
            raise failure(exc) from None
    _print_hints(reply)


def hint_lines(reply: Any, width: int, *, reasons: int = 5) -> list[str]:
    """A Hint answer as text: why #1 beats #2 first (at a chance node: what the dice decide), then
    each move (or outcome) with its reasons, the number it is ranked by first."""
    lines: list[str] = []
    if reply.why:
        lines += wrap_text(f"{'Odds' if reply.chance else 'Why #1'}: {reply.why}", width)
    for h in reply.hints:
        lines += wrap_text(f"#{h.rank} {h.action}", width)
        for r in h.reasons[:reasons]:
            lines += wrap_text(f"- {r.sentence or f'{r.text}: {r.value:.3g}'}", width, "  ")
    return lines


def _print_hints(reply: Any) -> None:
    import shutil

    print("\n".join(hint_lines(reply, shutil.get_terminal_size((80, 24)).columns)))


def score(
    position_file: Annotated[Path, typer.Argument(help="position or record JSON file")],
    server: ServerOpt = None,
    auth_token_file: TokenOpt = None,
    tls_ca: CaOpt = None,
) -> None:
    """The exact score per seat, with breakdown and tie-breaks."""
    from lictor.v1 import solver_service_pb2 as solver_pb

    request = solver_pb.ScoreRequest(position=read_position(position_file))
    with open_session(server, auth_token_file, tls_ca) as s:
        try:
            reply = s.solver.Score(request, timeout=60)
        except grpc.RpcError as exc:
            raise failure(exc) from None
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
        lines += wrap_text(f"the game ended: {reply.ended_by}", width, "  ")
    for s in reply.seats:
        lines += wrap_text(f"seat {s.seat}: rank {s.rank}, {s.total:g} points", width, "  ")
        for line in s.breakdown:
            detail = f" ({line.detail})" if line.detail else ""
            lines += wrap_text(f"{line.category}: {line.points:g}{detail}", width, "      ")
        if s.tiebreak:
            lines += wrap_text(f"tie-break: {'; '.join(s.tiebreak)}", width, "      ")
    return lines


def solve(
    *,
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
    with open_session(server, auth_token_file, tls_ca) as s:
        try:
            reply = s.solver.Solve(request, timeout=time_limit + 30)
        except grpc.RpcError as exc:
            raise failure(exc) from None
    status = solver_pb.SolveStatus.Name(reply.status).removeprefix("SOLVE_STATUS_")
    console.print(f"[bold]{reply.kind}[/bold]: {status} objective {reply.objective:g} bound {reply.bound:g}")
    console.print(f"answer: {reply.answer_json}")
    if reply.explanation:
        console.print(reply.explanation)


def render(
    *,
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
    with open_session(server, auth_token_file, tls_ca) as s:
        try:
            reply = s.games.Render(request, timeout=120)
        except grpc.RpcError as exc:
            raise failure(exc) from None
    output.write_bytes(reply.image)
    console.print(f"wrote {output} ({len(reply.image)} bytes, {reply.media_type})")
