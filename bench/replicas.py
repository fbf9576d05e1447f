"""Replicas on one PostgreSQL database: AI moves per second with 1, 2 and 4 replicas, as ratios.

Run: ``python -m bench.replicas [--quick] [--replicas 1,2,4] [--seconds 12]``. A PostgreSQL server
of the bench's own is started (tests/service/pg_cluster.py: ``initdb`` into a temporary directory,
commits synced to disk as in a deployment); for each count N, a new database and N ``lictor
serve`` processes on it, each with ``--ai-workers`` AI processes (1 by default: a replica's own
capacity is then less than the machine's, so what replicas add shows). AI-only Pig matches at
``--level`` (7: 600 simulations, about 55 ms of one core per move) are created through the first
replica, more than the replicas can play; every AI turn goes through the database's queue. The
figure is the AI moves committed to the log in a window of ``--seconds`` after a warm-up,
divided by the window, against the same with one replica.

The costs printed beside it: memory per replica (the server and its worker processes, RSS),
PostgreSQL connections (each replica holds ``db_connections`` at most plus one that listens),
and database transactions per AI move (claims, catch-ups, lease renewals, idle looks: this is
what grows with replicas).

On a machine of C cores, expect moves per second to grow with replicas while their AI processes
are fewer than C, and no further: on 2 cores, 2 replicas of one AI process each are about 2x one
replica, and 4 are no faster than 2 (they share the same 2 cores; the extra database work makes
them a little slower). Results go to ``bench/results/replicas.json``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc

from lictor.v1 import match_service_pb2 as match_pb
from service.client import stubs

RESULTS = Path(__file__).parent / "results" / "replicas.json"
REPO = Path(__file__).resolve().parents[1]

_LAUNCH = """
import sys
from tests.service.conftest import register_pig
register_pig()
from service.limits import Limits
from service.server import serve
limits = Limits(ai_workers=int(sys.argv[2]), max_concurrent_searches=1, db_connections=4)
serve("127.0.0.1:0", db_path=sys.argv[1], grace_s=2.0, http_address=None, limits=limits)
"""


def _launch(url: str, ai_workers: int) -> tuple[subprocess.Popen[str], int]:
    proc = subprocess.Popen(
        [sys.executable, "-c", _LAUNCH, url, str(ai_workers)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        start_new_session=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if "serving on" not in line:
        os.killpg(proc.pid, signal.SIGKILL)
        raise RuntimeError(f"a replica did not start: {line!r}")
    return proc, int(line.split()[3].rsplit(":", 1)[1])


@contextlib.contextmanager
def _replicas(url: str, n: int, ai_workers: int) -> Iterator[list[tuple[subprocess.Popen[str], int]]]:
    started: list[tuple[subprocess.Popen[str], int]] = []
    try:
        for _ in range(n):
            started.append(_launch(url, ai_workers))
        yield started
    finally:
        for proc, _ in started:
            proc.send_signal(signal.SIGTERM)
        for proc, _ in started:
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(10)


def _group_rss_mb(pgid: int) -> float:
    """RSS of every process of a process group, in MB (Linux /proc)."""
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            if int(fields[2]) != pgid:
                continue
            with open(f"/proc/{entry}/statm") as f:
                total += int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, IndexError, ValueError):
            continue
    return total / 2**20


def _sql(url: str, query: str, args: tuple[Any, ...] = ()) -> Any:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        return conn.execute(query, args).fetchone()


def _moves(url: str, since: float, until: float) -> int:
    row = _sql(url, "SELECT COUNT(*) FROM log WHERE kind = 'action' AND at >= %s AND at < %s", (since, until))
    return int(row[0])


def _transactions(url: str) -> int:
    row = _sql(url, "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()")
    return int(row[0])


def measure(cluster: Any, n: int, args: argparse.Namespace) -> dict[str, Any]:
    """AI moves per second with ``n`` replicas on a new database, and what they cost."""
    url = cluster.new_database("bench")
    with _replicas(url, n, args.ai_workers) as started:
        with grpc.insecure_channel(f"127.0.0.1:{started[0][1]}") as ch:
            api = stubs(ch)
            seat = match_pb.Seat(kind=match_pb.SEAT_KIND_AI, level=args.level)
            for i in range(args.matches):
                request = match_pb.CreateMatchRequest(game="pig", seats=[seat, seat], seed=1000 + i)
                request.options["target"].integer = 100_000  # longer than the window
                api.matches.CreateMatch(request, timeout=30)
        time.sleep(args.warmup)
        xact0, t0 = _transactions(url), time.time()
        time.sleep(args.seconds)
        t1 = time.time()
        xact1 = _transactions(url)
        moves = _moves(url, t0, t1)
        rss = [_group_rss_mb(proc.pid) for proc, _ in started]
        conns = int(_sql(url, "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database()")[0])
    return {
        "replicas": n,
        "ai_moves": moves,
        "seconds": round(t1 - t0, 2),
        "moves_per_s": round(moves / (t1 - t0), 2),
        "rss_mb_per_replica": round(sum(rss) / len(rss), 1),
        "pg_connections": conns,
        "transactions_per_move": round((xact1 - xact0) / max(1, moves), 2),
    }


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--quick", action="store_true", help="a short run (1 and 2 replicas, 4 s each)")
    parser.add_argument("--replicas", default="1,2,4", help="replica counts to measure")
    parser.add_argument("--seconds", type=float, default=12.0, help="the measured window per count")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds before the window")
    parser.add_argument("--level", type=int, default=7, help="the AI seats' level")
    parser.add_argument("--ai-workers", type=int, default=1, help="AI processes per replica")
    parser.add_argument("--matches", type=int, default=24, help="AI-only matches at once")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.quick:
        args.replicas, args.seconds, args.warmup = "1,2", 4.0, 2.0
    counts = [int(x) for x in args.replicas.split(",")]

    from tests.service import pg_cluster

    why = pg_cluster.unavailable()
    if why:
        print(f"skipped: {why}")
        return 0
    cores = os.cpu_count() or 1
    print(
        f"AI moves per second with replicas on one machine ({cores} cores; Pig, level {args.level}, "
        f"{args.ai_workers} AI process(es) per replica, {args.matches} AI-only matches, "
        f"{args.seconds:g} s windows; PostgreSQL on this machine, commits synced to disk)",
        flush=True,
    )
    load_before = os.getloadavg()[0]
    rows = []
    with pg_cluster.cluster(durable=True) as cluster:
        for n in counts:
            row = measure(cluster, n, args)
            rows.append(row)
            base = rows[0]["moves_per_s"] or 1.0
            row["ratio_to_1"] = round(row["moves_per_s"] / base, 2)
            print(
                f"[{n} replica{'s' if n > 1 else ''}] {row['moves_per_s']:.1f} AI moves/s = "
                f"{row['ratio_to_1']:.2f}x one replica ({row['ai_moves']} moves in {row['seconds']:.1f} s); "
                f"{row['rss_mb_per_replica']:.0f} MB per replica, {row['pg_connections']} PostgreSQL "
                f"connections, {row['transactions_per_move']:.1f} database transactions per AI move",
                flush=True,
            )
    load = (round(load_before, 1), round(os.getloadavg()[0], 1))
    print(
        f"(the machine's load average: {load[0]} before, {load[1]} after; other jobs compete for the cores)"
    )
    busy = sum(args.ai_workers * n > cores for n in counts)
    if busy:
        print(
            f"(beyond {cores // max(1, args.ai_workers)} replicas their AI processes outnumber the "
            f"{cores} cores: no further speed-up is expected on one machine; replicas add capacity "
            "when they run on machines of their own)"
        )
    _write_results(rows, cores=cores, load=load, args=args)
    return 0


def _write_results(
    rows: list[dict[str, Any]], *, cores: int, load: tuple[float, float], args: argparse.Namespace
) -> None:
    """Write the runs to ``RESULTS`` with when and on what machine they were measured."""
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(
        json.dumps(
            {
                "measured_at": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                "cores": cores,
                "load_average": load,
                "level": args.level,
                "ai_workers": args.ai_workers,
                "runs": rows,
            },
            indent=2,
        )
        + "\n"
    )


if __name__ == "__main__":
    sys.exit(main())
