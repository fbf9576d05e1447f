"""The ``lictor`` app and what every command shares: the connection options, the session, failing
with one line, reading a position file, wrapping text."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import grpc
import typer
from rich.console import Console

from lictor import __version__

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


def open_session(server: str | None, token_file: Path | None, ca: Path | None) -> Any:
    from service.auth import read_token_file
    from service.client import session

    token = read_token_file(token_file) if token_file else None
    return session(server, token=token, ca_cert=ca.read_bytes() if ca else None)


def failure(exc: grpc.RpcError) -> typer.Exit:
    console.print(f"[red]{exc.code().name}[/red]: {exc.details()}", soft_wrap=True)
    return typer.Exit(code=1)


def stop_with(message: str) -> typer.Exit:
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
        raise stop_with(f"{path}: no such file") from None
    except IsADirectoryError:
        raise stop_with(f"{path}: a directory, not a position file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise stop_with(f"{path}: cannot be read ({getattr(exc, 'strerror', None) or exc})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise stop_with(f"{path}: not JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})") from None
    except RecursionError:
        raise stop_with(f"{path}: JSON nested too deeply") from None
    if not isinstance(data, dict):
        raise stop_with(f"{path}: a position file holds a JSON object, not a {type(data).__name__}")
    if not isinstance(data.get("game"), str) or not data["game"]:
        raise stop_with(
            f'{path}: names no game (a position file starts {{"game": "NAME", ...}}; lictor games lists them)'
        )
    try:
        return position_from_dict(data)
    except (ValueError, TypeError, AttributeError, KeyError, json_format.ParseError) as exc:
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise stop_with(f"{path}: not a position ({first[:200]})") from None


def wrap_text(text: str, width: int, indent: str = "") -> list[str]:
    import textwrap

    return textwrap.wrap(text, max(20, width), initial_indent=indent, subsequent_indent=indent + "  ") or [
        indent
    ]
