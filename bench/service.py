"""RPC costs of the service, each against an echo RPC on the same server in the same run.

Run: ``python -m bench.service [--seconds 3]`` (about 30 s). A real server runs as a subprocess
(``lictor serve --port 0``); the client is this process.

1. Latency: SuggestAction at a 1-simulation budget vs DiagnosticsService.Echo, p50 and p99
   (target: SuggestAction p50 <= 2x echo p50). The game is the first registered one (Tiberpunk
   when registered), at a seat's decision after setup. The calls alternate (echo, SuggestAction,
   echo, ...) so that both sides of the ratio see the same load on a shared machine. The handler
   is then run in-process, each call after an echo RPC (as in a server, between calls: not in a
   hot loop, which keeps caches warm and understates it), and split into the search and the
   service's own code (the handler minus the search).
2. Throughput: Score with 16 calls in flight vs Echo with 16 in flight (target >= 50%), on the
   first registered game with an exact scorer (skipped, and said so, when none has one): the
   same position again and again (the server keeps recent answers, as Score is a pure function of
   the position), and distinct positions on every call (twice as many games' positions, each a new
   setup, as the largest cache a Score call goes through holds — ``service.convert``'s positions
   already read, 4096 — so the calls never come back round to a position the server still keeps an
   answer, a state or a start state for: a real client scoring other tables' games; mid-game records
   would only add replay work). The three run in interleaved rounds (echo, uncached, cached,
   again), and each ratio is the median of the rounds' ratios: a load spike from another process
   then hits both sides of a ratio, not one.
3. Deadline accuracy: SuggestAction with a 30 s budget and a 200 ms client deadline; wall time
   to the answer, p50 and max (target: max <= 250 ms, and an answer, not DEADLINE_EXCEEDED).

Results are printed and written as JSON to ``bench/results/service.json``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import grpc

from games.core import CHANCE, GameConfig, game_names, get_game
from lictor.v1 import advisor_service_pb2 as advisor_pb
from lictor.v1 import diagnostics_service_pb2 as diag_pb
from lictor.v1 import position_pb2 as pos_pb
from lictor.v1 import solver_service_pb2 as solver_pb
from service.client import stubs
from solver.core import get_scorer

RESULTS = Path(__file__).parent / "results" / "service.json"


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def _decision_position(name: str, seed: int = 1) -> pos_pb.Position:
    game = get_game(name)
    info = game.info
    players = min(info.max_players, max(info.min_players, 2))
    state = game.new_state(GameConfig(players=players), seed)
    rng = random.Random(seed)
    actions = []
    while game.current_player(state) == CHANCE:
        a = game.sample_chance(state, rng)
        actions.append(game.action_to_text(state, a))
        state = game.apply(state, a)
    return pos_pb.Position(
        game=name,
        record=pos_pb.GameRecord(setup=pos_pb.GameSetup(players=players, seed=seed), actions=actions),
    )


def _latencies(fn: Any, n: int) -> list[float]:
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def _alternating_latencies(fns: dict[str, Any], n: int) -> dict[str, list[float]]:
    """``n`` timed calls of each function, taken in turn (one of each, then again), so that every
    function sees the same machine: the CPU is shared, and a load spike during one block of calls
    would otherwise land on one side of a ratio only."""
    out: dict[str, list[float]] = {k: [] for k in fns}
    for _ in range(n):
        for key, fn in fns.items():
            t0 = time.perf_counter()
            fn()
            out[key].append(time.perf_counter() - t0)
    return out


def _interleaved_throughput(
    fns: dict[str, Any], seconds: float, *, rounds: int = 6, in_flight: int = 16
) -> dict[str, Any]:
    """Throughput of each function with ``in_flight`` calls in flight, measured in ``rounds`` short
    slices taken in turn (``seconds`` per function in all). Returns the rate of each over all its
    slices and, for each other function, the median over rounds of its rate / the first one's rate
    in the same round (neighbouring slices see the same load)."""
    counts = {k: 0 for k in fns}
    times = {k: 0.0 for k in fns}
    ratios: dict[str, list[float]] = {k: [] for k in fns}
    base = next(iter(fns))
    for _ in range(rounds):
        rates = {}
        for key, fn in fns.items():
            calls, wall = _run_in_flight(fn, seconds / rounds, in_flight)
            counts[key] += calls
            times[key] += wall
            rates[key] = calls / wall
        for key in fns:
            ratios[key].append(rates[key] / rates[base])
    return {
        "rate": {k: counts[k] / times[k] for k in fns},
        "ratio": {k: statistics.median(v) for k, v in ratios.items()},
    }


def _run_in_flight(fn: Any, seconds: float, in_flight: int) -> tuple[int, float]:
    stop = time.monotonic() + seconds
    counts = [0] * in_flight

    def worker(i: int) -> None:
        while time.monotonic() < stop:
            fn()
            counts[i] += 1

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(in_flight)]
    t0 = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(counts), time.monotonic() - t0


def _start_server(db: Path) -> tuple[subprocess.Popen[str], int]:
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "service.cli",
            "serve",
            "--port",
            "0",
            "--db",
            str(db),
            "--max-concurrent-searches",
            "32",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if "serving on" not in line:
        proc.kill()
        raise RuntimeError(f"server did not start: {line!r}")
    return proc, int(line.split()[3].rsplit(":", 1)[1])


def main(argv: list[str] | None = None) -> int:
    """Run the three measurements and print them."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per throughput side")
    parser.add_argument("--calls", type=int, default=400, help="calls per latency run")
    parser.add_argument("--rounds", type=int, default=6, help="interleaved rounds of the throughput runs")
    ns = parser.parse_args(argv)
    names = game_names()
    if not names:
        print("no registered game: nothing to measure")
        return 1
    game = "tiberpunk" if "tiberpunk" in names else names[0]
    scored = []
    for n in names:
        try:
            get_scorer(n)
            scored.append(n)
        except Exception:
            pass
    results: dict[str, Any] = {"game": game}
    with tempfile.TemporaryDirectory() as tmp:
        proc, port = _start_server(Path(tmp) / "bench.db")
        try:
            channel = grpc.insecure_channel(f"127.0.0.1:{port}")
            api = stubs(channel)
            echo_req = diag_pb.EchoRequest(payload=b"x" * 64)
            suggest_req = advisor_pb.SuggestActionRequest(position=_decision_position(game), seed=1)
            suggest_req.budget.simulations = 1

            def echo() -> None:
                api.diagnostics.Echo(echo_req, timeout=10)

            def suggest() -> None:
                api.advisor.SuggestAction(suggest_req, timeout=10)

            for _ in range(50):
                echo()
                suggest()
            alt = _alternating_latencies({"echo": echo, "suggest": suggest}, ns.calls)
            e, s = alt["echo"], alt["suggest"]
            lat = {
                "echo_p50_ms": 1000 * _pct(e, 0.5),
                "echo_p99_ms": 1000 * _pct(e, 0.99),
                "suggest_p50_ms": 1000 * _pct(s, 0.5),
                "suggest_p99_ms": 1000 * _pct(s, 0.99),
            }
            lat["p50_ratio"] = lat["suggest_p50_ms"] / lat["echo_p50_ms"]
            lat["p99_ratio"] = lat["suggest_p99_ms"] / lat["echo_p99_ms"]
            # The handler in-process (no RPC), to split SuggestAction into the search and the
            # service's own code. Each timed call comes right after an (untimed) echo RPC, as a
            # handler in the server comes between calls: a hot loop would keep every cache warm
            # and understate both parts (by about a third on the development machine).
            from search import SearchLimit
            from service import ai, convert
            from service.advisor import AdvisorServicer
            from service.limits import Limits, SearchGate

            class _Context:  # the few ServicerContext methods SuggestAction uses
                def time_remaining(self) -> float:
                    return 10.0

                def add_callback(self, cb: Any) -> bool:
                    return True

            servicer = AdvisorServicer(Limits(), SearchGate(4), threading.Event())
            ctx = _Context()
            res0 = convert.resolve_position(suggest_req.position)
            parts = {
                "handler": lambda: servicer.SuggestAction(suggest_req, ctx),
                "search": lambda: ai.choose(res0.game, res0.state, seed=1, limit=SearchLimit(simulations=1)),
            }
            for fn in parts.values():
                for _ in range(20):
                    fn()
            between = _alternating_latencies(
                {"echo": echo, "handler": parts["handler"], "echo_2": echo, "search": parts["search"]},
                ns.calls,
            )
            for key in parts:
                lat[f"in_process_{key}_p50_ms"] = 1000 * _pct(between[key], 0.5)
            lat["service_own_p50_ms"] = lat["in_process_handler_p50_ms"] - lat["in_process_search_p50_ms"]
            lat["rpc_overhead_p50_ms"] = lat["suggest_p50_ms"] - lat["in_process_handler_p50_ms"]
            results["latency"] = lat
            print(
                f"[1] latency on {game}: echo"
                f" p50 {lat['echo_p50_ms']:.2f} ms p99 {lat['echo_p99_ms']:.2f} ms; "
                f"SuggestAction(1 sim) p50 {lat['suggest_p50_ms']:.2f} ms"
                f" p99 {lat['suggest_p99_ms']:.2f} ms; ratio p50 {lat['p50_ratio']:.2f}x (target <= 2x)"
                f" p99 {lat['p99_ratio']:.2f}x",
                flush=True,
            )
            print(
                f"    the handler in-process (between calls): {lat['in_process_handler_p50_ms']:.3f} ms ="
                f" the search (search/ and the game) {lat['in_process_search_p50_ms']:.3f} ms"
                f" ({lat['in_process_search_p50_ms'] / lat['echo_p50_ms']:.2f}x echo p50)"
                f" + the service's own code {lat['service_own_p50_ms']:.3f} ms"
                f" ({100 * lat['service_own_p50_ms'] / lat['suggest_p50_ms']:.0f}% of SuggestAction p50);"
                f" the RPC around it {lat['rpc_overhead_p50_ms']:.2f} ms"
                f" ({lat['rpc_overhead_p50_ms'] / lat['echo_p50_ms']:.2f}x echo p50)",
                flush=True,
            )

            if scored:
                score_req = solver_pb.ScoreRequest(position=_decision_position(scored[0]))
                # Distinct positions, twice as many as the largest cache on the way holds: every call
                # reads and scores anew, even once the calls have gone round the list.
                distinct = 2 * max(c.size for c in (convert._RESOLVED, convert._CACHE, convert._INITIAL))
                fresh = [
                    solver_pb.ScoreRequest(position=_decision_position(scored[0], seed))
                    for seed in range(distinct)
                ]
                counter = iter(range(10**9))

                def score() -> None:
                    api.solver.Score(score_req, timeout=30)

                def score_fresh() -> None:
                    api.solver.Score(fresh[next(counter) % len(fresh)], timeout=30)

                for _ in range(20):
                    score()
                    score_fresh()
                tp = _interleaved_throughput(
                    {"echo": echo, "fresh": score_fresh, "cached": score}, ns.seconds, rounds=ns.rounds
                )
                echo_rate, fresh_rate, score_rate = (tp["rate"][k] for k in ("echo", "fresh", "cached"))
                results["throughput"] = {
                    "game": scored[0],
                    "echo_per_s": echo_rate,
                    "score_per_s": score_rate,
                    "ratio": tp["ratio"]["cached"],
                    "score_distinct_per_s": fresh_rate,
                    "ratio_distinct": tp["ratio"]["fresh"],
                    "distinct_positions": len(fresh),
                    "rounds": ns.rounds,
                    "target_judged_on": "ratio_distinct",
                }
                print(
                    f"[2] throughput, 16 in flight, Score on {scored[0]} vs echo {echo_rate:.0f}/s"
                    f" (target >= 50%, judged on the uncached number; ratios: median over"
                    f" {ns.rounds} interleaved rounds):\n"
                    f"    uncached, a distinct game's position every call ({len(fresh)} positions):"
                    f" {fresh_rate:.0f}/s ="
                    f" {100 * tp['ratio']['fresh']:.0f}% of echo  <- the target's number\n"
                    f"    cached, the same position again (the server keeps recent answers):"
                    f" {score_rate:.0f}/s = {100 * tp['ratio']['cached']:.0f}% of echo",
                    flush=True,
                )
            else:
                results["throughput"] = None
                print("[2] throughput: skipped, no registered game has an exact scorer yet", flush=True)

            big = advisor_pb.SuggestActionRequest(position=_decision_position(game), seed=2)
            big.budget.time_s = 30.0
            walls, answered = [], 0
            for _ in range(10):
                t0 = time.perf_counter()
                try:
                    reply = api.advisor.SuggestAction(big, timeout=0.2)
                    answered += bool(reply.action)
                except grpc.RpcError as exc:
                    print(f"    deadline call failed: {exc.code().name}")
                walls.append(time.perf_counter() - t0)
            results["deadline"] = {
                "deadline_ms": 200,
                "p50_ms": 1000 * statistics.median(walls),
                "max_ms": 1000 * max(walls),
                "answered": answered,
                "calls": len(walls),
            }
            d = results["deadline"]
            print(
                f"[3] deadline 200 ms on a 30 s search: p50 {d['p50_ms']:.0f} ms, max {d['max_ms']:.0f} ms "
                f"(target <= 250 ms), answered {answered}/{len(walls)} with the best move so far",
                flush=True,
            )
            channel.close()
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
