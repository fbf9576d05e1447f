"""``lictor serve``: run the server (gRPC, and the web table and API over HTTP)."""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Annotated

import typer

from service.cli.root import console

DbOpt = Annotated[
    str,
    typer.Option(
        help="hosted matches: an SQLite file, or postgresql://user@host/dbname to share them with other "
        "replicas (docs/operations.md)"
    ),
]
HttpPortOpt = Annotated[
    int | None,
    typer.Option(
        "--http-port",
        help="HTTP port on --host: the web table at / and the same API over Connect and gRPC-Web "
        "(default 8080, or a free port when --port is 0; 0 = no HTTP)",
        show_default=False,
    ),
]
CorsOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--http-cors-origin",
        help="an origin whose pages may call the HTTP API (repeatable; '*' = any; none by default)",
    ),
]


def serve(
    *,
    host: Annotated[str, typer.Option(help="address to bind (loopback by default)")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port (0 = any free port)")] = 50051,
    db: DbOpt = "lictor.db",
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
    http_port: HttpPortOpt = None,
    http_cors_origin: CorsOpt = None,
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
