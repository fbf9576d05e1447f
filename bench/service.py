"""The service under load, each figure against a baseline measured in the same run.

Run: ``python -m bench.service [--fuzz 50000] [--only-fuzz]`` (the fuzz alone takes about 4
minutes on 2 cores). A real server runs as a subprocess (``lictor serve --port 0``; the fuzz's own
server with few search slots and a content root of its own); the clients are this process.

1. Light calls under heavy work (issue 16): p99 of ListGames, GetLegalActions and ApplyAction
   while 4 searches run (SuggestAction, 30 s budgets, in worker processes), against their p99 on
   the idle server, calls alternating (target: <= 5x idle).
2. AI seats, fairly: the time a level-1 AI seat waits for each move of an AI-only match while two
   AI-only level-10 matches play, against the same match on an idle server (target: every move
   within 2 s).
3. RPC cost: SuggestAction at 1 simulation (the search runs in a worker process) against
   DiagnosticsService.Echo, p50, calls alternating.
4. Deadline: SuggestAction with a 30 s budget and a 200 ms client deadline; wall time to the
   answer, max (target: an answer, not DEADLINE_EXCEEDED, within 250 ms).
5. Soak: the server's memory (its process and its worker processes, RSS) when warm, right after a
   soak of searches, solves and scores on many distinct positions, and after a short rest (target:
   back within 20% of warm).
6. Fuzz: ``--fuzz`` hostile requests (the service/fuzz package, 50,000 by default) across every RPC and
   every registered game: generic ones from 4 clients at once, content packs (broken, escaping,
   oversized, hostile names), seats' and the spectator's views (local and from hosted matches)
   through every read RPC, Solves of every puzzle kind from 6 threads on 2 search slots; counts by
   status, by RPC and by generator, the slowest answer, the bad replies (target: 0 INTERNAL,
   UNKNOWN, DATA_LOSS, UNAVAILABLE, hang or server path in a reply).

Results are printed and written as JSON to ``bench/results/service.json``.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import grpc

from games.core import CHANCE, GameConfig, game_names, get_game
from lictor.v1 import advisor_service_pb2 as advisor_pb
from lictor.v1 import diagnostics_service_pb2 as diag_pb
from lictor.v1 import game_service_pb2 as game_pb
from lictor.v1 import match_service_pb2 as match_pb
from lictor.v1 import position_pb2 as pos_pb
from lictor.v1 import solver_service_pb2 as solver_pb
from service.client import stubs

RESULTS = Path(__file__).parent / "results" / "service.json"


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def _decision_position(name: str, seed: int = 1, moves: int = 0) -> pos_pb.Position:
    """A record of ``name`` at a seat's decision, ``moves`` random moves in."""
    game = get_game(name)
    info = game.info
    players = min(info.max_players, max(info.min_players, 2))
    state = game.new_state(GameConfig(players=players), seed)
    rng = random.Random(seed)
    actions = []
    played = 0
    while game.current_player(state) == CHANCE or played < moves:
        player = game.current_player(state)
        if player < 0 and player != CHANCE:
            break
        if player == CHANCE:
            a = game.sample_chance(state, rng)
        else:
            a = rng.choice(list(game.legal_actions(state)))
            played += 1
        actions.append(game.action_to_text(state, a))
        state = game.apply(state, a)
    return pos_pb.Position(
        game=name,
        record=pos_pb.GameRecord(setup=pos_pb.GameSetup(players=players, seed=seed), actions=actions),
    )


def _alternating(fns: dict[str, Callable[[], Any]], n: int) -> dict[str, list[float]]:
    """``n`` timed calls of each function, taken in turn, so every one sees the same machine."""
    out: dict[str, list[float]] = {k: [] for k in fns}
    for _ in range(n):
        for key, fn in fns.items():
            t0 = time.perf_counter()
            fn()
            out[key].append(time.perf_counter() - t0)
    return out


def _start_server(db: Path, *extra: str) -> tuple[subprocess.Popen[str], int]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "serve", "--port", "0", "--db", str(db), *extra],
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


def _stop(proc: subprocess.Popen[str]) -> None:
    proc.terminate()
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()


def _tree_rss_mb(pid: int) -> float:
    """RSS of a process and all its descendants, in MB (Linux /proc)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
            children.setdefault(ppid, []).append(int(entry))
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        todo.extend(children.get(p, []))
        try:
            with open(f"/proc/{p}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


# ----------------------------------------------------------------------------------- measurements
def light_calls_under_searches(api: Any, game: str, calls: int) -> dict[str, Any]:
    pos = _decision_position(game, moves=6)
    legal = api.games.GetLegalActions(game_pb.GetLegalActionsRequest(position=pos), timeout=10)
    action = pos_pb.Action(text=legal.actions[0].text)
    light = {
        "ListGames": lambda: api.games.ListGames(game_pb.ListGamesRequest(), timeout=30),
        "GetLegalActions": lambda: api.games.GetLegalActions(
            game_pb.GetLegalActionsRequest(position=pos), timeout=30
        ),
        "ApplyAction": lambda: api.games.ApplyAction(
            game_pb.ApplyActionRequest(position=pos, action=action), timeout=30
        ),
    }
    for fn in light.values():
        for _ in range(30):
            fn()
    idle = _alternating(light, calls)
    stop = threading.Event()
    big = advisor_pb.SuggestActionRequest(position=pos, seed=5)
    big.budget.time_s = 30.0

    def search() -> None:
        while not stop.is_set():
            try:
                api.advisor.SuggestAction(big, timeout=8)
            except grpc.RpcError:
                time.sleep(0.05)

    threads = [threading.Thread(target=search, daemon=True) for _ in range(4)]
    for t in threads:
        t.start()
    time.sleep(1.0)  # the four searches are running
    loaded = _alternating(light, calls)
    stop.set()
    out: dict[str, Any] = {"game": game, "calls": calls}
    for key in light:
        i99, l99 = _pct(idle[key], 0.99), _pct(loaded[key], 0.99)
        out[key] = {"idle_p99_ms": 1000 * i99, "loaded_p99_ms": 1000 * l99, "ratio": l99 / i99}
    worst = max(out[k]["ratio"] for k in light)
    out["worst_ratio"] = worst
    print(
        f"[1] light calls, p99 with 4 searches running vs idle ({calls} calls each, alternating;"
        " target <= 5x):",
        flush=True,
    )
    for key in light:
        r = out[key]
        print(
            f"    {key:16s} idle {r['idle_p99_ms']:.2f} ms, under 4 searches {r['loaded_p99_ms']:.2f} ms"
            f" = {r['ratio']:.2f}x",
            flush=True,
        )
    print(f"    worst {worst:.2f}x: {'met' if worst <= 5 else 'missed'}", flush=True)
    for t in threads:
        t.join(10)
    return out


def _move_waits(api: Any, game: str, seconds: float) -> list[float]:
    """Seconds between the moves of an AI-only level-1 match of ``game``, for ``seconds``."""
    seat = match_pb.Seat(kind=match_pb.SEAT_KIND_AI, level=1)
    m = api.matches.CreateMatch(match_pb.CreateMatchRequest(game=game, seats=[seat, seat])).match
    stream = api.matches.WatchMatch(match_pb.WatchMatchRequest(match_id=m.match_id), timeout=seconds + 30)
    waits: list[float] = []
    last = time.monotonic()
    end = last + seconds
    try:
        for reply in stream:
            now = time.monotonic()
            if reply.event.kind == pos_pb.EVENT_KIND_ACTION:
                waits.append(now - last)
                last = now
            if now > end or reply.match.status == match_pb.MATCH_STATUS_FINISHED:
                break
    except grpc.RpcError:
        pass
    stream.cancel()
    return waits


def ai_fairness(api: Any, light_game: str, heavy_game: str, seconds: float) -> dict[str, Any]:
    idle = _move_waits(api, light_game, seconds)
    heavy = match_pb.Seat(kind=match_pb.SEAT_KIND_AI, level=10)
    for _ in range(2):
        api.matches.CreateMatch(match_pb.CreateMatchRequest(game=heavy_game, seats=[heavy, heavy]))
    time.sleep(1.0)
    loaded = _move_waits(api, light_game, seconds)
    out: dict[str, Any] = {
        "light_game": light_game,
        "heavy_game": heavy_game,
        "idle_moves": len(idle),
        "idle_max_s": max(idle, default=0.0),
        "idle_p50_s": _pct(idle, 0.5) if idle else 0.0,
        "loaded_moves": len(loaded),
        "loaded_max_s": max(loaded, default=0.0),
        "loaded_p50_s": _pct(loaded, 0.5) if loaded else 0.0,
    }
    print(
        f"[2] AI seats: a level-1 {light_game} match's moves while two level-10 {heavy_game} matches play:"
        f" {out['loaded_moves']} moves in {seconds:.0f} s, p50 wait {1000 * out['loaded_p50_s']:.0f} ms,"
        f" max {out['loaded_max_s']:.2f} s"
        f" (target <= 2 s: {'met' if out['loaded_max_s'] <= 2 else 'missed'});"
        f" on the idle server {out['idle_moves']} moves, p50 {1000 * out['idle_p50_s']:.0f} ms,"
        f" max {out['idle_max_s']:.2f} s",
        flush=True,
    )
    return out


def rpc_cost(api: Any, game: str, calls: int) -> dict[str, Any]:
    echo_req = diag_pb.EchoRequest(payload=b"x" * 64)
    req = advisor_pb.SuggestActionRequest(position=_decision_position(game), seed=1)
    req.budget.simulations = 1
    fns = {
        "echo": lambda: api.diagnostics.Echo(echo_req, timeout=10),
        "suggest": lambda: api.advisor.SuggestAction(req, timeout=10),
    }
    for fn in fns.values():
        for _ in range(30):
            fn()
    alt = _alternating(fns, calls)
    e50, s50 = _pct(alt["echo"], 0.5), _pct(alt["suggest"], 0.5)
    out = {"echo_p50_ms": 1000 * e50, "suggest_p50_ms": 1000 * s50, "ratio": s50 / e50}
    print(
        f"[3] SuggestAction (1 simulation, in a worker process) vs echo, p50: {1000 * s50:.2f} ms vs"
        f" {1000 * e50:.2f} ms = {out['ratio']:.2f}x",
        flush=True,
    )
    return out


def deadline(api: Any, game: str) -> dict[str, Any]:
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
    out = {"deadline_ms": 200, "max_ms": 1000 * max(walls), "answered": answered, "calls": len(walls)}
    print(
        f"[4] deadline 200 ms on a 30 s search: max {out['max_ms']:.0f} ms (target <= 250 ms),"
        f" answered {answered}/{len(walls)} with the best move so far",
        flush=True,
    )
    return out


def _quest_odds(i: int) -> solver_pb.SolveRequest:
    """A distinct exact quest-odds puzzle (the solve that kept ~75 MB a call before issue 16)."""
    from games.tiberpunk.content import GADGETS

    rng = random.Random(i)
    dice = rng.randint(3, 6)
    params = {
        "dice": dice,
        "need": sorted(rng.randint(1, 6) for _ in range(rng.randint(2, dice))),
        "gadgets": rng.sample(list(GADGETS), rng.randint(1, 3)),
        "rolls": rng.randint(1, 3),
    }
    req = solver_pb.SolveRequest(position=_decision_position("tiberpunk"))
    req.generic.kind = "tiberpunk.quest_odds"
    req.generic.params_json = json.dumps(params)
    req.limits.time_limit_s = 2.0
    return req


def soak(api: Any, pid: int, games: list[str], rounds: int) -> dict[str, Any]:
    warm = _tree_rss_mb(pid)
    for i in range(rounds):
        if "tiberpunk" in games:
            with contextlib.suppress(grpc.RpcError):
                api.solver.Solve(_quest_odds(i), timeout=10)
        for name in games:
            pos = _decision_position(name, seed=1000 + i, moves=i % 7)
            req = advisor_pb.HintRequest(position=pos, top_k=3)
            req.budget.time_s = 0.3
            for method, msg in (
                (api.advisor.Hint, req),
                (api.solver.Score, solver_pb.ScoreRequest(position=pos)),
                (api.games.GetLegalActions, game_pb.GetLegalActionsRequest(position=pos)),
            ):
                with contextlib.suppress(grpc.RpcError):
                    method(msg, timeout=10)
    after = _tree_rss_mb(pid)
    time.sleep(3.0)
    rested = _tree_rss_mb(pid)
    out = {"warm_mb": warm, "after_mb": after, "rested_mb": rested, "ratio": rested / warm, "rounds": rounds}
    print(
        f"[5] soak ({rounds} rounds: an exact quest-odds solve, then Hint, Score and GetLegalActions on"
        " distinct positions of every game):"
        f" server and workers {warm:.0f} MB warm, {after:.0f} MB right after, {rested:.0f} MB after 3 s"
        f" = {out['ratio']:.2f}x warm (target <= 1.20x: {'met' if out['ratio'] <= 1.2 else 'missed'})",
        flush=True,
    )
    return out


_FUZZ_SERVER = """
import json, logging, sys
from service.limits import Limits
from service.server import serve
logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
serve("127.0.0.1:0", db_path=sys.argv[1], content_root=sys.argv[2], limits=Limits(**json.loads(sys.argv[3])))
"""
"""The server under fuzz: few search slots, short default budgets, the fuzz's content root."""

FUZZ_LIMITS = {"max_concurrent_searches": 2, "ai_workers": 2, "default_search_s": 0.05, "max_search_s": 5.0}


def _start_fuzz_server(base: Path, root: Path, log: Path) -> tuple[subprocess.Popen[str], int]:
    with log.open("w") as err:
        proc = subprocess.Popen(
            [sys.executable, "-c", _FUZZ_SERVER, str(base / "fuzz.db"), str(root), json.dumps(FUZZ_LIMITS)],
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
        )
    assert proc.stdout is not None
    for line in proc.stdout:
        if "serving on" in line:
            return proc, int(line.split()[3].rsplit(":", 1)[1])
    proc.kill()
    raise RuntimeError(f"the fuzz server did not start: {log.read_text()[-2000:]}")


def _log_errors(log: Path) -> dict[str, Any]:
    """ERROR lines and tracebacks in the server's log: how many, and the first distinct ones."""
    lines = log.read_text(errors="replace").splitlines() if log.exists() else []
    errors = [line for line in lines if " ERROR " in line or " CRITICAL " in line]
    distinct = list(dict.fromkeys(line.split(": ", 1)[-1][:200] for line in errors))
    return {
        "error_lines": len(errors),
        "tracebacks": sum("Traceback (most recent call last)" in line for line in lines),
        "warnings": sum(" WARNING " in line for line in lines),
        "first_errors": distinct[:10],
    }


def _say(line: str) -> None:
    print(f"    {line}", flush=True)


def fuzz(total: int, clients: int = 4, seed: int = 11) -> dict[str, Any]:
    """``total`` hostile requests (the service/fuzz package) against a server of its own (see FUZZ_LIMITS)
    holding the fuzz's content root; the generic ones from ``clients`` threads, the Solves from 6."""
    from service.fuzz import (
        FuzzResult,
        Plan,
        corpus,
        create_matches,
        env_seed,
        load_schemas,
        make_content_root,
        make_oracle,
        run_plan,
    )

    seed = env_seed(seed)
    result = FuzzResult()
    plan = Plan.of(total, clients=clients)
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="lictor-fuzz-") as tmp:
        base = Path(tmp)
        packs = make_content_root(base, game_names())
        log = base / "server.log"
        proc, port = _start_fuzz_server(base, packs.root, log)
        target = f"127.0.0.1:{port}"
        try:
            c = corpus(seed, positions_per_game=4, views_per_game=6, packs=packs)
            load_schemas(target, c)
            create_matches(target, c)
            oracle = make_oracle(packs)
            run_plan(target, c, plan, result, seed=seed, oracle=oracle, log=_say)
            if result.total < total:  # top up with generic requests
                extra = Plan(generic=total - result.total, clients=clients)
                run_plan(target, c, extra, result, seed=seed + 1, oracle=oracle, phases=["generic"], log=_say)
            alive = proc.poll() is None
        finally:
            _stop(proc)
        server_log = _log_errors(log)
    wall = time.monotonic() - t0
    out = result.summary() | {
        "seed": seed,
        "clients": clients,
        "plan": dataclasses.asdict(plan),
        "games": c.games,
        "rpcs": len(result.by_rpc),
        "wall_s": round(wall, 1),
        "server_alive_at_end": alive,
        "server_log": server_log,
    }
    _print_fuzz(out, result, wall=wall)
    return out


def _print_fuzz(out: dict[str, Any], result: Any, *, wall: float) -> None:
    """Print the fuzz's summary ``out`` (``FuzzResult.summary`` and the run's settings), its bad
    replies (the first 20) and what the server's log shows; ``wall``: the run's wall seconds."""
    bad, seed, alive, server_log = out["bad"], out["seed"], out["server_alive_at_end"], out["server_log"]
    print(
        f"[6] fuzz (seed {seed}): {result.total} hostile requests over {len(result.by_rpc)} RPCs and"
        f" {len(out['games'])} games in {wall:.0f} s; by status {out['by_status']};"
        f" bad (INTERNAL, UNKNOWN, DATA_LOSS, UNAVAILABLE, hangs, path leaks, packs taken): {bad}"
        f" (target 0: {'met' if bad == 0 else 'missed'});"
        f" hangs {out['hangs']}, path leaks {out['path_leaks']};"
        f" slowest answer {result.slowest_s:.2f} s ({result.slowest})",
        flush=True,
    )
    print(f"    by phase: {out['by_phase']}", flush=True)
    print(f"    by RPC: {out['by_rpc']}", flush=True)
    print(
        f"    server log: {server_log['error_lines']} ERROR lines, {server_log['tracebacks']} tracebacks,"
        f" {server_log['warnings']} warnings; the server {'stayed up' if alive else 'DIED'}",
        flush=True,
    )
    if result.bad_kinds:
        print(f"    bad replies by kind: {dict(result.bad_kinds.most_common())}", flush=True)
    for line in result.bad[:20]:
        print("    " + line.replace("\n", "\n    "), flush=True)


def main(argv: list[str] | None = None) -> int:
    """Run the measurements and print them."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--calls", type=int, default=300, help="calls per latency run")
    parser.add_argument("--fairness-s", type=float, default=12.0, help="seconds per fairness run")
    parser.add_argument("--soak-rounds", type=int, default=40, help="rounds of the soak")
    parser.add_argument("--fuzz", type=int, default=50_000, help="hostile requests")
    parser.add_argument("--only-fuzz", action="store_true", help="run the fuzz alone (other results kept)")
    ns = parser.parse_args(argv)
    if ns.only_fuzz:
        kept: dict[str, Any] = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
        kept["fuzz"] = fuzz(ns.fuzz)
        RESULTS.parent.mkdir(exist_ok=True)
        RESULTS.write_text(json.dumps(kept, indent=2))
        return 0
    names = game_names()
    if not names:
        print("no registered game: nothing to measure")
        return 1
    game = "tiberpunk" if "tiberpunk" in names else names[0]
    light_game = "tiberius" if "tiberius" in names else names[-1]
    results: dict[str, Any] = {"game": game}
    with tempfile.TemporaryDirectory() as tmp:
        proc, port = _start_server(Path(tmp) / "bench.db")
        try:
            channel = grpc.insecure_channel(f"127.0.0.1:{port}")
            api = stubs(channel)
            results["light_under_searches"] = light_calls_under_searches(api, game, ns.calls)
            results["rpc_cost"] = rpc_cost(api, game, ns.calls)
            results["deadline"] = deadline(api, game)
            results["soak"] = soak(api, proc.pid, names, ns.soak_rounds)
            channel.close()
        finally:
            _stop(proc)
        proc, port = _start_server(Path(tmp) / "fair.db")
        try:
            channel = grpc.insecure_channel(f"127.0.0.1:{port}")
            results["ai_fairness"] = ai_fairness(stubs(channel), light_game, game, ns.fairness_s)
            channel.close()
        finally:
            _stop(proc)
        results["fuzz"] = fuzz(ns.fuzz)
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
