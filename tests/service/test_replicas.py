"""Issue #33, replicas share matches on PostgreSQL: two servers on one database behind a client-side
round-robin channel pass the match tests of test_matches.py and play AI matches to the end;
WatchMatch on one replica sees the moves made on the other at once (LISTEN/NOTIFY); kill -9 of a
replica in the middle of an AI move loses no acknowledged action, and the move is made once, by
the other replica, after the lease expires.

PostgreSQL is a server of the test run's own (tests/service/pg_cluster.py); without it these skip.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest

from games.core import get_game
from lictor.v1 import game_service_pb2 as game_pb
from lictor.v1 import match_service_pb2 as match_pb
from lictor.v1 import position_pb2 as pos_pb
from service.client import Stubs, stubs
from service.convert import new_game, setup_from_pb
from service.limits import Limits
from service.server import LictorServer, create_server
from tests.service import test_matches as tm
from tests.service.helpers import all_games

REPO = Path(__file__).resolve().parents[2]
LEASE_S = 2.0
LIMITS = Limits(
    ai_workers=2, max_concurrent_searches=1, default_search_s=0.2, ai_lease_s=LEASE_S, db_connections=4
)
HUMAN = match_pb.Seat(kind=match_pb.SEAT_KIND_HUMAN)


def ai(level: int = 1) -> match_pb.Seat:
    return match_pb.Seat(kind=match_pb.SEAT_KIND_AI, level=level)


def round_robin(*ports: int) -> grpc.Channel:
    """One channel over every replica, calls spread round robin (gRPC's client-side balancing)."""
    target = "ipv4:" + ",".join(f"127.0.0.1:{p}" for p in ports)
    return grpc.insecure_channel(target, options=[("grpc.lb_policy_name", "round_robin")])


@contextlib.contextmanager
def replica(url: str, limits: Limits = LIMITS) -> Iterator[tuple[LictorServer, int]]:
    srv, port = create_server("127.0.0.1:0", db_path=url, limits=limits)
    try:
        yield srv, port
    finally:
        srv.stop(0).wait(10)
        srv.close()


@pytest.fixture(scope="module")
def two(postgres) -> Iterator[tuple[LictorServer, LictorServer, Stubs, Stubs, Stubs]]:
    """Two replicas on one new database: (A, B, A's stubs, B's stubs, round-robin stubs)."""
    url = postgres.new_database()
    with replica(url) as (a, pa), replica(url) as (b, pb):
        channels = [grpc.insecure_channel(f"127.0.0.1:{pa}"), grpc.insecure_channel(f"127.0.0.1:{pb}")]
        rr = round_robin(pa, pb)
        grpc.channel_ready_future(rr).result(timeout=10)
        try:
            yield a, b, stubs(channels[0]), stubs(channels[1]), stubs(rr)
        finally:
            for ch in (*channels, rr):
                ch.close()


MATCH_TESTS: dict[str, Callable[[Stubs], None]] = {
    "create, get, list": tm.test_create_get_list,
    "submit, then the server's die": tm.test_submit_then_dice_by_the_server,
    "a stale move is aborted": tm.test_stale_submission_is_aborted_never_a_double_move,
    "bad submissions": tm.test_bad_submissions,
    "watch from a move number": tm.test_watch_from_a_move_number,
    "resign": tm.test_resign,
    "a seat's view": tm.test_viewer_seat_sees_only_its_observation,
    "hidden information": tm.test_hidden_information_is_not_shown_by_default,
}


@pytest.mark.parametrize("case", list(MATCH_TESTS))
def test_the_match_tests_pass_on_two_replicas_behind_round_robin(two, case):
    """Each call of the test may reach either replica (GetMatch right after SubmitAction included)."""
    MATCH_TESTS[case](two[4])


@pytest.mark.parametrize("name", all_games())
def test_human_matches_of_every_game_on_two_replicas(two, name):
    tm.test_human_match_happy_path_per_game(two[4], name)


def test_round_robin_reaches_both_replicas(two):
    a, b, *_, rr = two
    made = [tm.create(rr).match_id for _ in range(4)]
    assert any(m in a.store._live for m in made) and any(m in b.store._live for m in made)


def test_two_replicas_play_ai_matches_to_the_end(two):
    """Six AI-only matches; every AI turn is claimed from the queue by one replica or the other."""
    a, b, *_, rr = two
    before = (len(a.ai.waits), len(b.ai.waits))
    made = [tm.create(rr, seats=(ai(1), ai(2)), seed=40 + i, target=40) for i in range(6)]
    game = get_game("pig")
    for m in made:
        done = tm.wait_for(rr, m.match_id, lambda x: x.status == match_pb.MATCH_STATUS_FINISHED, 90, True)
        state = new_game(game, setup_from_pb(done.setup, field="setup"), field="setup")
        for text in done.position.record.actions:  # the record replays to the end: no move twice
            state = game.apply(state, game.parse_action(state, text))
        assert game.is_terminal(state) and done.move_number == len(done.position.record.actions)
    moved = (len(a.ai.waits) - before[0], len(b.ai.waits) - before[1])
    assert min(moved) > 0, moved  # both replicas played
    ai_moves = sum(
        1
        for m in made
        for e in rr.matches.WatchMatch(match_pb.WatchMatchRequest(match_id=m.match_id), timeout=30)
        if e.event.kind == pos_pb.EVENT_KIND_ACTION
    )
    assert sum(moved) == ai_moves  # each AI move made once, by one replica


def test_watch_on_one_replica_sees_moves_made_on_the_other(two):
    """LISTEN/NOTIFY: B's watcher wakes within a moment of A's commit (not at its 5 s look)."""
    _, _, on_a, on_b, _ = two
    m = tm.create(on_a)
    stream = on_b.matches.WatchMatch(match_pb.WatchMatchRequest(match_id=m.match_id), timeout=30)
    assert next(stream).event.kind == pos_pb.EVENT_KIND_CREATED
    for text in ("roll", "hold"):
        t0 = time.monotonic()
        reply = tm.submit(on_a, m, m.summary.current_player, text)
        got = [next(stream) for _ in reply.events]
        assert time.monotonic() - t0 < 2.0
        assert [g.event.action for g in got] == [e.action for e in reply.events]
        assert got[-1].match.move_number == reply.match.move_number
        m = reply.match
    stream.cancel()


def test_an_ai_match_watched_on_one_replica_is_seen_to_its_end(two):
    _, _, _, on_b, rr = two
    m = tm.create(rr, seats=(ai(1), ai(1)), seed=7, target=30)
    events = list(on_b.matches.WatchMatch(match_pb.WatchMatchRequest(match_id=m.match_id), timeout=90))
    numbers = [e.event.move_number for e in events]
    assert events[-1].event.kind == pos_pb.EVENT_KIND_GAME_OVER and numbers == sorted(numbers)
    moves = [e for e in events if e.event.kind in (pos_pb.EVENT_KIND_ACTION, pos_pb.EVENT_KIND_CHANCE)]
    record = rr.matches.GetMatch(match_pb.GetMatchRequest(match_id=m.match_id, reveal_all=True), timeout=10)
    assert len(moves) == len(record.match.position.record.actions)  # every move, once


# ----------------------------------------------------------------------------------------- kill -9
_LAUNCH = """
import sys
from tests.service.conftest import register_pig
register_pig()
from service.limits import Limits
from service.server import serve
limits = Limits(ai_workers=1, max_concurrent_searches=1, ai_lease_s=float(sys.argv[2]), db_connections=2)
serve("127.0.0.1:0", db_path=sys.argv[1], grace_s=1.0, http_address=None, limits=limits)
"""


def launch(url: str, lease_s: float) -> tuple[subprocess.Popen[str], int]:
    """``lictor serve`` on ``url`` as a process of its own (its own session: killed as a group)."""
    proc = subprocess.Popen(
        [sys.executable, "-c", _LAUNCH, url, str(lease_s)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        start_new_session=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert "serving on" in line, line
    assert "postgresql://postgres@/" in line  # the database it serves, without a password
    return proc, int(line.split()[3].rsplit(":", 1)[1])


def lease(url: str, match_id: str) -> tuple[int, str] | None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT move, leased_by FROM ai_queue WHERE match_id = %s AND lease_until > now()", (match_id,)
        ).fetchone()
    return (int(row[0]), str(row[1])) if row else None


def play_human_moves(api: Stubs, m: Any) -> Any:
    """Seat 0's moves (its first legal one each time) until the AI seat is to move."""
    while m.summary.current_player == 0:
        view = api.matches.GetMatch(
            match_pb.GetMatchRequest(match_id=m.match_id, viewer_seat=0), timeout=10
        ).match
        legal = api.games.GetLegalActions(game_pb.GetLegalActionsRequest(position=view.position), timeout=30)
        m = tm.submit(api, m, 0, legal.actions[0].text).match
    return m


def test_kill_9_of_a_replica_mid_move_loses_nothing_and_the_other_makes_the_move(postgres):
    """Two replicas run all along; the one that claims a level-10 Tiberius move (an 8 s search) is
    killed (SIGKILL) in the middle of it; the other leaves the turn alone while the lease lives,
    then claims it once the lease has expired and makes the move, once. (Both are up before the
    turn comes: a replica started after the claim could still be warming up when the move is made,
    on a loaded machine.)"""
    url = postgres.new_database()
    procs = [launch(url, LEASE_S) for _ in range(2)]
    try:
        with grpc.insecure_channel(f"127.0.0.1:{procs[0][1]}") as ch:
            on_a = stubs(ch)
            m = tm.create(on_a, game="tiberius", seats=(HUMAN, ai(10)))
            acked = play_human_moves(on_a, m)  # every one acknowledged
        deadline = time.monotonic() + 30
        while (held := lease(url, m.match_id)) is None:
            assert time.monotonic() < deadline, "no replica claimed the AI turn"
            time.sleep(0.05)
        move, owner = held
        assert move == acked.move_number
        [(claimant, _)] = [(p, port) for p, port in procs if f":{p.pid}:" in owner]
        [(other, other_port)] = [(p, port) for p, port in procs if p is not claimant]
        time.sleep(1.5)  # the other polls meanwhile: the claimant's lease (renewed) keeps the turn
        assert lease(url, m.match_id) == (move, owner)
        with grpc.insecure_channel(f"127.0.0.1:{other_port}") as ch:
            on_b = stubs(ch)
            assert tm.wait_for(on_b, m.match_id, lambda x: True).move_number == move  # not played yet
            os.killpg(claimant.pid, signal.SIGKILL)  # the server and its worker processes, mid-search
            claimant.wait(10)
            killed = time.monotonic()
            after = tm.wait_for(on_b, m.match_id, lambda x: x.move_number > move, timeout=60)
            took = time.monotonic() - killed
            full = on_b.matches.GetMatch(
                match_pb.GetMatchRequest(match_id=m.match_id, viewer_seat=0), timeout=10
            ).match
            assert full.move_number == after.move_number >= move + 1
        assert other.poll() is None  # the move was the other replica's: the claimant is dead
        # it waited for the lease (renewed up to the kill) to expire, then searched (8 s at most)
        assert LEASE_S / 2 <= took < LEASE_S + 30
        rows = _log(url, m.match_id)
        assert [r[0] for r in rows] == list(range(len(rows)))  # every move once, none missing
        assert rows[move][1:] == ("action", 1)  # the AI seat's move, once
        assert len(rows) >= acked.move_number + 1
    finally:
        for proc, _ in procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(10)


def _log(url: str, match_id: str) -> list[tuple[int, str, int]]:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT seq, kind, seat FROM log WHERE match_id = %s ORDER BY seq", (match_id,)
        ).fetchall()
    return [(int(r[0]), str(r[1]), int(r[2])) for r in rows]


def test_a_replica_stopping_gives_its_turns_back_at_once(postgres):
    """SIGTERM (a rolling restart): the turns it had claimed are released, not left to expire."""
    url = postgres.new_database()
    proc, port = launch(url, 60.0)  # a lease far longer than the test
    try:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as ch:
            m = tm.create(stubs(ch), game="tiberius", seats=(ai(10), ai(10)), seed=3)
        deadline = time.monotonic() + 30
        while lease(url, m.match_id) is None:
            assert time.monotonic() < deadline, "the replica did not claim the AI turn"
            time.sleep(0.05)
        t0 = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0
        assert time.monotonic() - t0 < 10
        assert lease(url, m.match_id) is None  # given back: another replica may claim it now
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)


def test_replicas_ride_out_a_database_restart():
    """The database server stops under two replicas: match calls are UNAVAILABLE (at once, not after
    the busy timeout), everything else answers, and once it is back the next call works and a
    watcher on the other replica gets the move (its listening connection reopened)."""
    from tests.service import pg_cluster

    why = pg_cluster.unavailable()
    if why:
        pytest.skip(why)
    with pg_cluster.cluster() as cluster:
        url = cluster.new_database()
        with (
            replica(url) as (_, pa),
            replica(url) as (_, pb),
            grpc.insecure_channel(f"127.0.0.1:{pa}") as ca,
            grpc.insecure_channel(f"127.0.0.1:{pb}") as cb,
        ):
            on_a, on_b = stubs(ca), stubs(cb)
            m = tm.create(on_a)
            stream = on_b.matches.WatchMatch(match_pb.WatchMatchRequest(match_id=m.match_id), timeout=60)
            assert next(stream).event.kind == pos_pb.EVENT_KIND_CREATED
            cluster.halt()
            t0 = time.monotonic()
            with pytest.raises(grpc.RpcError) as err:
                tm.submit(on_a, m, 0, "roll")
            assert err.value.code() == grpc.StatusCode.UNAVAILABLE, err.value.details()
            assert "cannot be reached" in err.value.details() and time.monotonic() - t0 < 5
            on_a.games.ListGames(game_pb.ListGamesRequest(), timeout=10)  # the rest answers
            cluster.resume()
            reply = tm.submit(on_a, m, 0, "roll")
            got = [next(stream) for _ in reply.events]
            assert [g.event.action for g in got] == [e.action for e in reply.events]
            stream.cancel()
