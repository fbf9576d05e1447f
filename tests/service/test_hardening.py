"""Issue #16, the regression suite: secret deals, a server no client can stall, fair AI seats,
bounded inputs, a store that fails loudly and isolates damage. Each test failed on the code before.
"""

from __future__ import annotations

import hashlib
import math
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import grpc
import pytest

from lictor.v1 import advisor_service_pb2 as advisor_pb
from lictor.v1 import game_service_pb2 as game_pb
from lictor.v1 import match_service_pb2 as match_pb
from lictor.v1 import position_pb2 as pos_pb
from lictor.v1 import solver_service_pb2 as solver_pb
from service.client import stubs
from service.limits import Limits
from service.server import StartupError, create_server
from tests.service.helpers import error_info, record, violations

HUMAN = match_pb.Seat(kind=match_pb.SEAT_KIND_HUMAN)
REPO = Path(__file__).resolve().parents[2]


def ai(level: int = 1) -> match_pb.Seat:
    return match_pb.Seat(kind=match_pb.SEAT_KIND_AI, level=level)


def _code(call) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as err:
        call()
    return err.value


@pytest.fixture
def small(tmp_path):
    """A server with small caps (streams, matches per client)."""
    limits = Limits(
        max_streams_per_client=4,
        max_streams=6,
        max_active_matches_per_client=3,
        max_concurrent_searches=2,
        ai_workers=2,
        default_search_s=0.2,
    )
    srv, port = create_server("127.0.0.1:0", db_path=tmp_path / "s.db", limits=limits)
    ch = grpc.insecure_channel(f"127.0.0.1:{port}")
    yield srv, stubs(ch)
    ch.close()
    srv.stop(0).wait(10)
    srv.close()


# ------------------------------------------------------------------ hidden information stays hidden
def test_hosted_matches_draw_a_secret_seed_and_commit_to_it(api):
    """No seed given: every match gets its own seed from the OS, shown only as a commitment until
    the end; then the seed is revealed and hashes to the commitment (provably fair dice)."""
    made = [
        api.matches.CreateMatch(match_pb.CreateMatchRequest(game="pig", seats=[HUMAN, ai(1), ai(1)]))
        for _ in range(2)
    ]
    a, b = (r.match for r in made)
    assert a.setup.seed == 0 and not a.seed_revealed and len(a.seed_commitment) == 64
    assert a.seed_commitment != b.seed_commitment
    # a spectator's view carries neither the seed nor the deals
    public = api.matches.GetMatch(match_pb.GetMatchRequest(match_id=a.match_id)).match
    assert public.setup.seed == 0 and not public.summary.state_json and not public.position.HasField("record")
    done = api.matches.ResignMatch(match_pb.ResignMatchRequest(match_id=a.match_id, seat=0)).match
    assert done.seed_revealed and done.setup.seed != 0
    text = f"lictor-seed:{a.match_id}:{done.setup.seed}"
    assert hashlib.sha256(text.encode()).hexdigest() == a.seed_commitment


def test_a_clients_seed_is_refused_when_a_human_would_learn_from_it(api):
    err = _code(
        lambda: api.matches.CreateMatch(match_pb.CreateMatchRequest(game="pig", seats=[HUMAN, ai()], seed=0))
    )
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT and error_info(err)["field"] == "seed"
    bots = api.matches.CreateMatch(match_pb.CreateMatchRequest(game="pig", seats=[ai(), ai()], seed=7)).match
    assert bots.seed_revealed and bots.setup.seed == 7  # nothing to hide from an AI


def test_events_show_a_spectator_what_its_view_shows(api):
    """The one per-viewer rule (games.core.views.seen_by): Pig's die shows in the turn total everyone
    sees, so the spectator reads which it was; draws nobody else sees are hidden (tests/core/test_views.py,
    tests/service/test_views.py)."""
    m = api.matches.CreateMatch(
        match_pb.CreateMatchRequest(game="pig", seats=[HUMAN, HUMAN], issue_seat_secrets=False)
    ).match
    api.matches.SubmitAction(
        match_pb.SubmitActionRequest(match_id=m.match_id, seat=0, action=pos_pb.Action(text="roll"))
    )
    stream = api.matches.WatchMatch(match_pb.WatchMatchRequest(match_id=m.match_id), timeout=5)
    events = [next(stream).event for _ in range(3)]
    stream.cancel()
    assert events[2].kind == pos_pb.EVENT_KIND_CHANCE and events[2].action.startswith("d")
    assert events[2].description  # the game's log line, as a spectator may read it


# ------------------------------------------------------------------ no client can stall the server
def test_idle_watch_streams_hold_no_thread(small):
    """Open streams up to the caps; light calls still answer at once; one more stream is refused
    with RESOURCE_EXHAUSTED (per client, then in all)."""
    _, api = small
    m = api.matches.CreateMatch(
        match_pb.CreateMatchRequest(game="pig", seats=[HUMAN, HUMAN], issue_seat_secrets=False)
    ).match
    streams = [api.matches.WatchMatch(match_pb.WatchMatchRequest(match_id=m.match_id)) for _ in range(4)]
    for s in streams:
        next(s)  # the created event: the stream is open
    t0 = time.monotonic()
    for _ in range(20):
        api.games.ListGames(game_pb.ListGamesRequest(), timeout=2)
    assert time.monotonic() - t0 < 2.0
    extra = api.matches.WatchMatch(match_pb.WatchMatchRequest(match_id=m.match_id))
    err = _code(lambda: next(extra))
    assert err.code() == grpc.StatusCode.RESOURCE_EXHAUSTED and "streams" in err.details()
    for s in streams:
        s.cancel()


def test_a_level_1_seat_moves_while_two_level_10_matches_play(tmp_path):
    """Fair AI seats: two AI-only level-10 matches cannot starve a third match's level-1 seat."""
    srv, port = create_server("127.0.0.1:0", db_path=tmp_path / "f.db", limits=Limits(ai_workers=3))
    ch = grpc.insecure_channel(f"127.0.0.1:{port}")
    api = stubs(ch)
    try:
        for _ in range(2):
            api.matches.CreateMatch(match_pb.CreateMatchRequest(game="tiberpunk", seats=[ai(10), ai(10)]))
        time.sleep(1.0)  # both heavy matches are thinking
        m = api.matches.CreateMatch(match_pb.CreateMatchRequest(game="pig", seats=[HUMAN, ai(1)])).match
        api.matches.SubmitAction(
            match_pb.SubmitActionRequest(match_id=m.match_id, seat=0, action=pos_pb.Action(text="hold"))
        )
        t0 = time.monotonic()
        while time.monotonic() - t0 < 10:
            now = api.matches.GetMatch(match_pb.GetMatchRequest(match_id=m.match_id)).match
            if now.summary.current_player == 0 or now.status != match_pb.MATCH_STATUS_ACTIVE:
                break
            time.sleep(0.02)
        waited = time.monotonic() - t0
        assert waited < 2.0, f"the level-1 seat waited {waited:.2f} s"
    finally:
        ch.close()
        srv.stop(0).wait(10)
        srv.close()


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, -1.0])
def test_budgets_must_be_finite_and_not_negative(api, value):
    pos = record("pig")
    calls = [
        (
            lambda: api.advisor.SuggestAction(
                advisor_pb.SuggestActionRequest(position=pos, budget=advisor_pb.SearchBudget(time_s=value))
            ),
            "budget.time_s",
        ),
        (
            lambda: api.advisor.Hint(
                advisor_pb.HintRequest(position=pos, budget=advisor_pb.SearchBudget(time_s=value))
            ),
            "budget.time_s",
        ),
        (
            lambda: list(
                api.advisor.Analyze(
                    advisor_pb.AnalyzeRequest(position=pos, budget=advisor_pb.SearchBudget(time_s=value))
                )
            ),
            "budget.time_s",
        ),
        (
            lambda: api.solver.Solve(
                solver_pb.SolveRequest(
                    position=pos,
                    generic=solver_pb.GenericPuzzle(kind="pig.points_needed"),
                    limits=solver_pb.SolveLimits(time_limit_s=value),
                )
            ),
            "limits.time_limit_s",
        ),
    ]
    for call, field in calls:
        err = _code(call)
        assert err.code() == grpc.StatusCode.INVALID_ARGUMENT, (field, err.details())
        assert error_info(err)["field"] == field


def test_a_long_hint_answers_before_a_short_deadline(api):
    """A 60 s Hint under a 1.5 s client deadline answers its best so far in time (not DEADLINE_EXCEEDED)."""
    t0 = time.monotonic()
    reply = api.advisor.Hint(
        advisor_pb.HintRequest(position=record("tiberpunk"), budget=advisor_pb.SearchBudget(time_s=20.0)),
        timeout=1.5,
    )
    assert time.monotonic() - t0 < 1.5
    assert reply.hints and reply.analysis.stopped_by in ("time", "stop", "deadline")


# ------------------------------------------------------------------ every input bounded
def test_long_strings_are_refused_naming_the_field_with_a_short_message(api):
    name = "x" * (1 << 20)
    err = _code(
        lambda: api.games.NewGame(game_pb.NewGameRequest(game=name, setup=pos_pb.GameSetup(players=2)))
    )
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT and len(err.details()) < 600
    seat = match_pb.Seat(kind=match_pb.SEAT_KIND_HUMAN, name="n" * 5000)
    err = _code(lambda: api.matches.CreateMatch(match_pb.CreateMatchRequest(game="pig", seats=[seat, HUMAN])))
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT and violations(err)[0][0] == "seats[0].name"
    api.matches.ListMatches(match_pb.ListMatchesRequest())  # listing is unaffected
    bad = "z" * 1000
    err = _code(
        lambda: api.games.ApplyAction(
            game_pb.ApplyActionRequest(position=record("pig"), action=pos_pb.Action(text=bad))
        )
    )
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT and len(err.details()) < 600


@pytest.mark.parametrize("token", ["9999999999999999999", "-1", "abc", "1e3"])
def test_bad_page_tokens(api, token):
    err = _code(lambda: api.matches.ListMatches(match_pb.ListMatchesRequest(page_token=token)))
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT and violations(err)[0][0] == "page_token"


def test_deep_json_is_refused_not_recursed(api):
    deep = "[" * 1000 + "]" * 1000
    err = _code(
        lambda: api.games.GetLegalActions(
            game_pb.GetLegalActionsRequest(position=pos_pb.Position(game="pig", state_json=deep))
        )
    )
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT
    err = _code(
        lambda: api.solver.Solve(
            solver_pb.SolveRequest(
                position=record("pig"),
                generic=solver_pb.GenericPuzzle(kind="pig.points_needed", params_json=deep),
            )
        )
    )
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT and violations(err)[0][0] == "generic.params_json"


def test_unknown_enum_numbers_are_refused(api):
    seat = match_pb.Seat(kind=7)  # type: ignore[arg-type]
    err = _code(lambda: api.matches.CreateMatch(match_pb.CreateMatchRequest(game="pig", seats=[seat, HUMAN])))
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT and violations(err)[0][0] == "seats[0].kind"


def test_garbage_request_bytes_are_invalid_argument(api, channel):
    call = channel.unary_unary(
        "/lictor.v1.GameService/ListGames", request_serializer=None, response_deserializer=None
    )
    err = _code(lambda: call(b"\xff\xff\xff\xff", timeout=5))
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT


def test_matches_per_client_are_capped(small):
    _, api = small
    for _ in range(3):
        api.matches.CreateMatch(match_pb.CreateMatchRequest(game="pig", seats=[HUMAN, ai()]))
    err = _code(lambda: api.matches.CreateMatch(match_pb.CreateMatchRequest(game="pig", seats=[HUMAN, ai()])))
    assert err.code() == grpc.StatusCode.RESOURCE_EXHAUSTED and "active matches" in err.details()


# ------------------------------------------------------------------ a store that fails loudly
def test_a_read_only_database_is_refused_at_start(tmp_path):
    db = tmp_path / "ro.db"
    srv, _ = create_server("127.0.0.1:0", db_path=db)
    srv.stop(0).wait(10)
    srv.close()
    uri_dir = tmp_path / "ro"
    uri_dir.mkdir()
    ro = uri_dir / "m.db"
    ro.write_bytes(db.read_bytes())
    ro.chmod(0o444)
    uri_dir.chmod(0o555)
    try:
        if _writable(ro):
            pytest.skip("this user can write read-only files (root)")
        with pytest.raises(StartupError, match="cannot use the match database"):
            create_server("127.0.0.1:0", db_path=ro)
    finally:
        uri_dir.chmod(0o755)


def _writable(path: Path) -> bool:
    try:
        with open(path, "ab"):
            return True
    except OSError:
        return False


def test_a_read_only_store_connection_is_refused(tmp_path):
    """(As root, permissions do not stop writes: a read-only SQLite URI stands in for the file.)"""
    from service.matches.store import MatchStore, StoreError

    db = tmp_path / "x.db"
    MatchStore(db).close()
    with pytest.raises(StoreError):
        MatchStore(f"file:{db}?mode=ro")


def _serve(args: list[str], **kw) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "service.cli", "serve", *args],
        capture_output=True,
        check=False,
        text=True,
        timeout=60,
        cwd=REPO,
        **kw,
    )


def test_port_in_use_one_line_exit_2_and_no_database_file(tmp_path):
    srv, port = create_server("127.0.0.1:0", db_path=tmp_path / "a.db")
    try:
        db = tmp_path / "b.db"
        done = _serve(["--port", str(port), "--db", str(db)])
        assert done.returncode == 2, done.stderr
        lines = [x for x in done.stderr.strip().splitlines() if x.strip()]
        assert len(lines) == 1 and "Traceback" not in done.stderr and "in use" in lines[0]
        assert not db.exists()
    finally:
        srv.stop(0).wait(10)
        srv.close()


def test_a_corrupt_database_one_line_exit_2(tmp_path):
    db = tmp_path / "bad.db"
    db.write_bytes(b"this is not a database" * 100)
    done = _serve(["--port", "0", "--db", str(db)])
    assert done.returncode == 2
    lines = [x for x in done.stderr.strip().splitlines() if x.strip()]
    assert len(lines) == 1 and "Traceback" not in done.stderr and "database" in lines[0]


def test_a_match_that_no_longer_replays_is_quarantined(tmp_path):
    db = tmp_path / "q.db"
    srv, port = create_server("127.0.0.1:0", db_path=db)
    ch = grpc.insecure_channel(f"127.0.0.1:{port}")
    api = stubs(ch)
    good = api.matches.CreateMatch(match_pb.CreateMatchRequest(game="pig", seats=[HUMAN, ai()])).match
    bad = api.matches.CreateMatch(match_pb.CreateMatchRequest(game="pig", seats=[HUMAN, ai()])).match
    ch.close()
    srv.stop(0).wait(10)
    srv.close()
    with sqlite3.connect(db) as conn:  # a log the rules no longer accept
        conn.execute("INSERT INTO log VALUES (?, 0, 'action', 0, 'fly away', 0)", (bad.match_id,))
    srv, port = create_server("127.0.0.1:0", db_path=db)
    ch = grpc.insecure_channel(f"127.0.0.1:{port}")
    api = stubs(ch)
    try:
        listed = {m.match_id: m for m in api.matches.ListMatches(match_pb.ListMatchesRequest()).matches}
        assert listed[bad.match_id].status == match_pb.MATCH_STATUS_DAMAGED and listed[bad.match_id].damage
        assert listed[good.match_id].status == match_pb.MATCH_STATUS_ACTIVE
        got = api.matches.GetMatch(match_pb.GetMatchRequest(match_id=bad.match_id)).match
        assert got.status == match_pb.MATCH_STATUS_DAMAGED and "fly" in got.damage
        err = _code(
            lambda: api.matches.SubmitAction(
                match_pb.SubmitActionRequest(match_id=bad.match_id, seat=0, action=pos_pb.Action(text="roll"))
            )
        )
        assert err.code() == grpc.StatusCode.FAILED_PRECONDITION
    finally:
        ch.close()
        srv.stop(0).wait(10)
        srv.close()


def test_watch_ends_with_unavailable_on_shutdown(tmp_path):
    srv, port = create_server("127.0.0.1:0", db_path=tmp_path / "w.db")
    ch = grpc.insecure_channel(f"127.0.0.1:{port}")
    api = stubs(ch)
    m = api.matches.CreateMatch(
        match_pb.CreateMatchRequest(game="pig", seats=[HUMAN, HUMAN], issue_seat_secrets=False)
    ).match
    stream = api.matches.WatchMatch(match_pb.WatchMatchRequest(match_id=m.match_id), timeout=20)
    next(stream)
    codes = []

    def drain():
        try:
            for _ in stream:
                pass
            codes.append(grpc.StatusCode.OK)
        except grpc.RpcError as exc:
            codes.append(exc.code())

    t = threading.Thread(target=drain)
    t.start()
    time.sleep(0.2)
    srv.stop(2.0).wait(10)
    t.join(10)
    srv.close()
    ch.close()
    assert codes == [grpc.StatusCode.UNAVAILABLE]


def test_token_without_tls_off_loopback_is_warned(tmp_path):
    srv, _ = create_server("0.0.0.0:0", db_path=tmp_path / "t.db", auth_token="t0ken", start=False)
    try:
        assert any("without TLS" in w for w in srv.warnings)
    finally:
        srv.close()


def test_unauthenticated_bodies_are_never_decoded(tmp_path):
    srv, port = create_server("127.0.0.1:0", db_path=tmp_path / "a.db", auth_token="t0ken")
    ch = grpc.insecure_channel(f"127.0.0.1:{port}")
    try:
        call = ch.unary_unary(
            "/lictor.v1.GameService/ListGames", request_serializer=None, response_deserializer=None
        )
        err = _code(lambda: call(b"\xff\xff\xff\xff", timeout=5))
        assert err.code() == grpc.StatusCode.UNAUTHENTICATED
    finally:
        ch.close()
        srv.stop(0).wait(10)
        srv.close()


def test_limits_are_documented_with_their_numbers():
    """docs/service.md's Limits table names every cap of ``Limits`` with its default."""
    from dataclasses import fields

    doc = (REPO / "docs" / "service.md").read_text()
    section = doc.split("## Limits", 1)[1].split("\n## ", 1)[0]
    for f in fields(Limits):
        assert f"`{f.name}`" in section, f.name
