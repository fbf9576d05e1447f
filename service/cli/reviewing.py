"""``lictor review``: a played game reviewed by the server's search, drawn as each seat's win
chance after every move, with the moves that gave up most."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import grpc
import typer

from service.cli.root import (
    CaOpt,
    ServerOpt,
    TokenOpt,
    console,
    failure,
    open_session,
    read_position,
    stop_with,
    wrap_text,
)


def review(
    *,
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

    from lictor.v1 import advisor_service_pb2 as advisor_pb

    position = read_position(record_file)
    if position.WhichOneof("kind") != "record":
        raise stop_with(f"{record_file}: a review needs a game record (moves from the setup), not a state")
    if output is not None and output.suffix.lower() != ".png":
        raise typer.BadParameter(f"{output.name!r}: the graph is a .png", param_hint="--output")
    target = output or record_file.with_suffix(".png")
    request = advisor_pb.ReviewRequest(
        position=position, budget=advisor_pb.SearchBudget(simulations=simulations), seed=seed, worst=worst
    )
    total = len(position.record.actions)
    with open_session(server, auth_token_file, tls_ca) as s:
        moves, final = _reviewed(s, request, position.game, total)
    assert final is not None
    players = position.record.setup.players
    review_plot(
        position.game, list(final.start_values), moves, list(final.mistakes), players=players, path=target
    )
    width = shutil.get_terminal_size((80, 24)).columns
    lines = review_lines(final, moves, total, target=target, simulations=simulations, width=width)
    print("\n".join(lines))


def _reviewed(s: Any, request: Any, game: str, total: int) -> tuple[list[Any], Any]:
    """The review's reports, streamed with a progress bar: each move's values, then the final
    report (start values, the mistakes, why it stopped)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    moves: list[Any] = []
    final = None
    with Progress(
        "{task.description}", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=console
    ) as bar:
        task = bar.add_task(f"reviewing {game}", total=total)
        try:
            for report in s.advisor.Review(request, timeout=3600):
                if report.final:
                    final = report
                else:
                    moves.append(report.move)
                    bar.update(task, completed=len(moves))
        except grpc.RpcError as exc:
            raise failure(exc) from None
    return moves, final


def review_lines(
    final: Any, moves: list[Any], total: int, *, target: Path, simulations: int, width: int
) -> list[str]:
    """The review as text: where the graph is, whether the review stopped early, and the moves that
    gave up most against the AI's choice, each with why."""
    lines = [
        f"wrote {target}: each seat's win chance after every move ({simulations} simulations a position)"
    ]
    if final.stopped_by:
        lines.append(f"the review stopped early ({final.stopped_by}) after {len(moves)} of {total} moves")
    lines.append(
        "The moves that gave up most against the AI's choice:" if final.mistakes else "No move gave up much."
    )
    for m in final.mistakes:
        lines += wrap_text(
            f"move {m.number}, seat {m.seat}: {m.played!r} gave up {m.loss:.0%} of its win chance; "
            f"the AI plays {m.best_action!r}",
            width,
        )
        lines += wrap_text(f"why: {m.why}", width, "  ")
    return lines


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
        raise stop_with("the review graph needs matplotlib: pip install 'lictor[plots]'") from None
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
