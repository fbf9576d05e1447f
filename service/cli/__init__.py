"""The ``lictor`` command: serve, list games, play against AI seats, ask for moves, hints, scores.

One module per command group: :mod:`~service.cli.root` (the app and what every command shares),
:mod:`~service.cli.serving`, :mod:`~service.cli.queries` (one question to a server),
:mod:`~service.cli.playing` (the terminal table: :mod:`~service.cli.table`,
:mod:`~service.cli.screen`, :mod:`~service.cli.turns`), :mod:`~service.cli.reviewing` and
:mod:`~service.cli.batch_runs` (tournaments and training). The commands are listed here, in the
order ``lictor --help`` shows them.
"""

from __future__ import annotations

import os

# gRPC's core reads this once, at import: the server says what went wrong itself, in one line.
os.environ.setdefault("GRPC_VERBOSITY", "NONE")

from service.cli.batch_runs import tournament, train
from service.cli.playing import play
from service.cli.queries import games, hint, render, score, solve, suggest
from service.cli.reviewing import review
from service.cli.root import app
from service.cli.screen import board_lines, fitted_moves, log_lines, move_lines
from service.cli.serving import serve

__all__ = ["app", "board_lines", "fitted_moves", "log_lines", "main", "move_lines"]

for _command in (serve, games, suggest, hint, score, solve, play, review, render, tournament, train):
    app.command()(_command)


def main() -> None:
    """Console-script entry point."""
    app()
