"""``lictor play``: a game at the terminal against AI seats, new or resumed from a saved record."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Annotated, Any

import grpc
import typer

from games.core.text import is_digits
from service.cli.root import CaOpt, ServerOpt, TokenOpt, failure, open_session, read_position, stop_with
from service.cli.table import AI, HUMAN, GameTable
from service.cli.turns import run_table


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


GameArg = Annotated[str | None, typer.Argument(help="game name (see `lictor games`); not with --resume")]
SeatsOpt = Annotated[
    str | None,
    typer.Option(help="comma-separated seats: human or ai:LEVEL (1..10) [default: human,ai:5]"),
]
VariantOpt = Annotated[
    list[str] | None, typer.Option("--option", help="a variant option NAME=VALUE (repeatable)")
]
SaveOpt = Annotated[Path | None, typer.Option("--save", help="save the game record to FILE after every move")]
ResumeOpt = Annotated[Path | None, typer.Option("--resume", help="go on with a saved game (a record file)")]
DiceOpt = Annotated[
    str, typer.Option(help="roll: the table draws the dice; ask: roll them yourself and type the outcome")
]


def play(
    *,
    game: GameArg = None,
    seats: SeatsOpt = None,
    seed: Annotated[int | None, typer.Option(help="setup and dice seed (default: a random one)")] = None,
    option: VariantOpt = None,
    think: Annotated[float, typer.Option(help="seconds the search thinks for a hint or an analysis")] = 2.0,
    save: SaveOpt = None,
    resume: ResumeOpt = None,
    dice: DiceOpt = "roll",
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
    if dice not in ("roll", "ask"):
        raise typer.BadParameter(f"{dice!r}: roll or ask", param_hint="--dice")
    actions: list[str] | None = None
    if resume is not None:
        game, seats, seed, options, actions = _resumed(resume, game, seats)
        save = save or resume
    elif game is None:
        raise typer.BadParameter("name the game to play (or --resume FILE)", param_hint="GAME")
    else:
        options = _parse_options(option or [])
    parsed = _parse_seats(seats or "human,ai:5")
    with open_session(server, auth_token_file, tls_ca) as s:
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
            run_table(table, _read_line, sys.stdout, _terminal_size, resume=actions)
        except grpc.RpcError as exc:
            raise failure(exc) from None


def _terminal_size() -> tuple[int, int]:
    """The terminal's columns and rows (at least 40 x 12)."""
    import shutil

    cols, rows = shutil.get_terminal_size((80, 24))
    return max(40, cols), max(12, rows)


def _read_line() -> str:
    """The player's next line; "" once the input is closed."""
    return sys.stdin.readline()  # "" once the input is closed


def _resumed(
    resume: Path, game: str | None, seats: str | None
) -> tuple[str, str, int, dict[str, Any], list[str]]:
    """What a saved game goes on with: its game (``game``, when named, must be it), its seats
    (unless ``seats`` names others), seed, options and actions."""
    saved = read_saved_game(resume)
    if game is not None and game != saved["game"]:
        raise stop_with(f"{resume}: holds a {saved['game']} game, not {game}")
    return saved["game"], seats or saved["seats"], saved["seed"], saved["options"], saved["actions"]


def read_saved_game(path: Path) -> dict[str, Any]:
    """A saved game (``lictor play --save``): game, seats, seed, options, actions; one line and exit 2
    when the file is not one."""
    from games.errors import LictorError
    from service.convert import option_value_from_pb

    position = read_position(path)
    if position.WhichOneof("kind") != "record":
        raise stop_with(f"{path}: a saved game is a record (moves from the setup), not a state")
    setup = position.record.setup
    try:
        options = {k: option_value_from_pb(v, f"options.{k}") for k, v in setup.options.items()}
    except LictorError as exc:
        raise stop_with(f"{path}: a bad option ({exc})") from None
    import json

    seats = json.loads(path.read_text(encoding="utf-8")).get("seats")
    if seats is not None and not isinstance(seats, str):
        raise stop_with(f"{path}: 'seats' is a text like \"human,ai:5\"")
    return {
        "game": position.game,
        "seats": seats or ",".join(["human"] + ["ai:5"] * (setup.players - 1)),
        "seed": int(setup.seed),
        "options": options,
        "actions": list(position.record.actions),
    }
