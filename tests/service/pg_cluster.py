"""A throwaway PostgreSQL server for tests and benchmarks, as pytest-postgresql makes one.

``initdb`` into a new temporary directory, then ``pg_ctl start`` listening on a Unix socket in that
directory only (no TCP port, so two clusters never collide). PostgreSQL refuses to run as root: as
root, the directory is given to the ``postgres`` user (Debian's package makes it) and the server
runs as that user (``runuser``). Durability is off (``fsync=off``) for tests: they test replicas
of Lictor, not the database's own crash safety, and die with the run.

``make test`` and ``.ci/run`` install Debian's ``postgresql`` where it is missing; without it
:func:`unavailable` says why and the tests that need it skip.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

__all__ = ["Cluster", "cluster", "find_bin", "unavailable"]

SERVER_OPTIONS = "-c listen_addresses='' -c max_connections=200 -c shared_buffers=32MB"
FAST_OPTIONS = " -c fsync=off -c full_page_writes=off -c synchronous_commit=off"
"""Tests' clusters do not sync to disk (benchmarks' do: ``Cluster(durable=True)``)."""


def find_bin() -> Path | None:
    """The directory of PostgreSQL's server programs (``initdb``, ``pg_ctl``), newest version first."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).resolve().parent
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0,
    )
    return versions[-1].parent if versions else None


def _run_as() -> list[str]:
    """The command prefix that runs a server program as a user PostgreSQL accepts."""
    if os.geteuid() != 0:
        return []
    return ["runuser", "-u", "postgres", "--"]


def unavailable() -> str:
    """Why no cluster can be started here ("" when one can)."""
    if find_bin() is None:
        return (
            "PostgreSQL is not installed (Debian: apt-get install -y postgresql; make test does it): "
            "the PostgreSQL store tests are skipped"
        )
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root without a 'postgres' user: PostgreSQL refuses to run as root"
        if shutil.which("runuser") is None:
            return "running as root without runuser: PostgreSQL refuses to run as root"
    try:
        import psycopg  # noqa: F401
        import psycopg_pool  # noqa: F401
    except ImportError:
        return "psycopg and psycopg-pool are not installed (pip install -e '.[dev]' or '.[postgres]')"
    return ""


class Cluster:
    """A PostgreSQL server in a temporary directory (see the module doc).

    Args:
        durable: sync commits to disk as a real deployment does (benchmarks); tests do not.

    Attributes:
        base: the directory (data in ``data/``, the socket in the directory itself, ``log``).
    """

    def __init__(self, *, durable: bool = False) -> None:
        self.base = Path(tempfile.mkdtemp(prefix="lictor-pg-"))
        self._options = SERVER_OPTIONS + ("" if durable else FAST_OPTIONS)
        self._bin = find_bin()
        self._started = False

    def _as_server(self, *args: str, timeout: float = 120) -> None:
        assert self._bin is not None
        cmd = [*_run_as(), str(self._bin / args[0]), *args[1:]]
        # (in its own directory: the postgres user may not enter the caller's)
        done = subprocess.run(
            cmd, capture_output=True, text=True, timeout=timeout, check=False, cwd=self.base
        )
        if done.returncode:
            log = self.base / "log"
            tail = log.read_text()[-2000:] if log.exists() else ""
            raise RuntimeError(f"{' '.join(args[:2])} failed: {done.stderr.strip()}\n{tail}")

    def start(self) -> Cluster:
        """initdb and start the server (returns self)."""
        if os.geteuid() == 0:
            entry = pwd.getpwnam("postgres")
            os.chown(self.base, entry.pw_uid, entry.pw_gid)
        self.base.chmod(0o755)
        data = str(self.base / "data")
        self._as_server("initdb", "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")
        self._started = True
        self.resume()
        return self

    def url(self, dbname: str = "postgres") -> str:
        """The connection URL of database ``dbname`` (over the cluster's Unix socket)."""
        return f"postgresql://postgres@/{dbname}?host={self.base}"

    def new_database(self, prefix: str = "lictor") -> str:
        """Create an empty database; returns its URL."""
        import psycopg

        name = f"{prefix}_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def halt(self) -> None:
        """Stop the server (fast shutdown: connections are cut), keeping its data."""
        self._as_server("pg_ctl", "-D", str(self.base / "data"), "-m", "fast", "-w", "stop")

    def resume(self) -> None:
        """Start a halted server again."""
        self._as_server(
            "pg_ctl",
            "-D",
            str(self.base / "data"),
            "-o",
            f"-k {self.base} {self._options}",
            "-l",
            str(self.base / "log"),
            "-w",
            "start",
        )

    def stop(self) -> None:
        """Stop the server at once and remove its directory."""
        if self._started:
            with contextlib.suppress(Exception):
                self._as_server("pg_ctl", "-D", str(self.base / "data"), "-m", "immediate", "-w", "stop")
            self._started = False
        shutil.rmtree(self.base, ignore_errors=True)


@contextlib.contextmanager
def cluster(*, durable: bool = False) -> Iterator[Cluster]:
    """A started :class:`Cluster`, stopped and removed afterwards."""
    c = Cluster(durable=durable)
    try:
        yield c.start()
    finally:
        c.stop()
