"""Issue #27, storage faults stay local: a damaged row quarantines its match only, and a full disk
(or an I/O error, or a lock held too long) answers RESOURCE_EXHAUSTED/UNAVAILABLE with a reason,
loses no acknowledged action, and passes by itself when the fault does.

A full disk is SQLite's own ``SQLITE_FULL`` ("database or disk is full"): ``PRAGMA max_page_count``
caps the database at its current size, and raising it again is space returning. Other faults come
through the store's ``write_fault`` seam. Each test failed on the code before.
"""

from __future__ import annotations

import contextlib
import logging
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from lictor.v1 import match_service_pb2 as match_pb
from lictor.v1 import position_pb2 as pos_pb
from service.client import Stubs, stubs
from service.limits import Limits
from service.matches import store as store_module
from service.matches.sqlite import SqliteDatabase
from service.server import LictorServer, create_server
from tests.fixtures.pig import PigGame
from tests.service.helpers import error_info

HUMAN = match_pb.Seat(kind=match_pb.SEAT_KIND_HUMAN)
AI = match_pb.Seat(kind=match_pb.SEAT_KIND_AI, level=1)
REPO = Path(__file__).resolve().parents[2]
LIMITS = Limits(ai_workers=1, max_concurrent_searches=1, default_search_s=0.2)
PYTHON_WORDS = ("Error", "Exception", "Traceback", "<", "sqlite")
"""What a reason meant for a person never shows (an exception's repr, a class name)."""


@contextlib.contextmanager
def serving(db: Path, limits: Limits = LIMITS) -> Iterator[tuple[LictorServer, Stubs]]:
    srv, port = create_server("127.0.0.1:0", db_path=db, limits=limits)
    ch = grpc.insecure_channel(f"127.0.0.1:{port}")
    try:
        yield srv, stubs(ch)
    finally:
        ch.close()
        srv.stop(0).wait(10)
        srv.close()


def create(api: Stubs, game: str = "pig", seats=(HUMAN, HUMAN), **options: int):
    request = match_pb.CreateMatchRequest(game=game, seats=list(seats), issue_seat_secrets=False)
    for k, v in options.items():
        request.options[k].integer = v
    return api.matches.CreateMatch(request, timeout=30).match


def get(api: Stubs, match_id: str, **kw):
    return api.matches.GetMatch(match_pb.GetMatchRequest(match_id=match_id, **kw), timeout=10).match


def submit(api: Stubs, m: match_pb.Match, text: str = "roll"):
    return api.matches.SubmitAction(
        match_pb.SubmitActionRequest(
            match_id=m.match_id,
            seat=m.summary.current_player,
            expected_move_number=m.move_number,
            action=pos_pb.Action(text=text),
        ),
        timeout=30,
    )


def refused(call) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as err:
        call()
    return err.value


def listed(api: Stubs) -> dict[str, match_pb.Match]:
    reply = api.matches.ListMatches(match_pb.ListMatchesRequest(page_size=500), timeout=10)
    return {m.match_id: m for m in reply.matches}


def log_rows(db: Path, match_id: str) -> list[tuple[int, str, int, str]]:
    with contextlib.closing(sqlite3.connect(db)) as conn:
        return conn.execute(
            "SELECT seq, kind, seat, action FROM log WHERE match_id = ? ORDER BY seq", (match_id,)
        ).fetchall()


def readable(reason: str, db: Path) -> bool:
    """A reason a person reads: said, no exception repr or class name, no server path."""
    return bool(reason) and not any(w in reason for w in PYTHON_WORDS) and str(db.parent) not in reason


def disk_full(srv: LictorServer, *, full: bool = True) -> None:
    """The database's disk is full (no page beyond those it has), or has room again."""
    db = srv.store.db
    assert isinstance(db, SqliteDatabase)
    with db.lock:
        pages = db.conn.execute("PRAGMA page_count").fetchone()[0] if full else 1 << 30
        db.conn.execute(f"PRAGMA max_page_count = {int(pages)}")


def sqlite_fault(message: str, code: int) -> sqlite3.OperationalError:
    """The exception SQLite raises for ``code`` (as the sqlite3 module builds it)."""
    exc = sqlite3.OperationalError(message)
    exc.sqlite_errorcode = code  # type: ignore[attr-defined]
    return exc


# ---------------------------------------------------------------------------------- damaged rows
DAMAGES: dict[str, tuple[str, tuple[object, ...], str]] = {
    # case: (SQL on the match's rows, its extra arguments, a word its reason names)
    "setup_json not JSON": ("UPDATE matches SET setup_json = 'not json {' WHERE match_id = ?", (), "setup"),
    "setup options": (
        """UPDATE matches SET setup_json = '{"players": 2, "options": {"target": [1]}, "seed": 7}'
        WHERE match_id = ?""",
        (),
        "options",
    ),
    "seats_json not JSON": ("UPDATE matches SET seats_json = '[{' WHERE match_id = ?", (), "seats"),
    "seats of the wrong count": (
        """UPDATE matches SET seats_json = '[{"ai": false}]' WHERE match_id = ?""",
        (),
        "seats",
    ),
    "seat_secrets_json": ("UPDATE matches SET seat_secrets_json = '{oops' WHERE match_id = ?", (), "secrets"),
    "client_seed": ("UPDATE matches SET client_seed = 'maybe' WHERE match_id = ?", (), "seed"),
    "game unknown": ("UPDATE matches SET game = 'chess' WHERE match_id = ?", (), "chess"),
    "created_at text": ("UPDATE matches SET created_at = 'yesterday' WHERE match_id = ?", (), "time"),
    "log row illegal": ("INSERT INTO log VALUES (?, 2, 'action', 0, 'fly away', 0)", (), "fly"),
    "log row a blob": ("INSERT INTO log VALUES (?, 2, 'action', 0, X'ff00', 0)", (), "move 2"),
    "log row missing": ("DELETE FROM log WHERE match_id = ? AND seq = 0", (), "move 0"),
    "replay raises": (
        "INSERT INTO log VALUES (?, 2, 'action', 0, 'explode', 0)",
        (),
        "details in the server log",
    ),
}
"""Every column of a stored match damaged, one match each (after two moves: roll and its die)."""


def _exploding_parse(self, state, text):  # a bug in a game's rules, on one stored action
    if text == "explode":
        raise KeyError(-2)
    return _parse(self, state, text)


_parse = PigGame.parse_action


@pytest.fixture(scope="module")
def damaged(tmp_path_factory) -> Iterator[tuple[LictorServer, Stubs, Path, dict[str, str], str]]:
    """A server started on a database where every match but one has a damaged row."""
    db = tmp_path_factory.mktemp("damaged") / "d.db"
    with serving(db) as (_, api):
        good = create(api, target=1000)
        ids = {}
        for case in DAMAGES:
            m = create(api, target=1000)
            ids[case] = submit(api, m).match.match_id  # a roll, then the server's die
    with contextlib.closing(sqlite3.connect(db)) as conn, conn:
        for case, (sql, args, _) in DAMAGES.items():
            conn.execute(sql, (ids[case], *args))
        conn.execute(  # a summary that is not what was written: rebuilt from the log, not quarantined
            "UPDATE matches SET returns_json = 'nope', status = 'finished' WHERE match_id = ?",
            (good.match_id,),
        )
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(PigGame, "parse_action", _exploding_parse)
        with serving(db) as (srv, api):
            yield srv, api, db, ids, good.match_id


@pytest.mark.parametrize("case", list(DAMAGES))
def test_a_damaged_row_quarantines_its_match_only(damaged, case):
    _, api, db, ids, _ = damaged
    match_id, word = ids[case], DAMAGES[case][2]
    shown = listed(api)[match_id]
    assert shown.status == match_pb.MATCH_STATUS_DAMAGED, shown
    assert readable(shown.damage, db) and word in shown.damage, shown.damage
    got = get(api, match_id)
    assert got.status == match_pb.MATCH_STATUS_DAMAGED and got.damage == shown.damage
    with contextlib.suppress(grpc.RpcError):  # a seat's view: shown or refused, never INTERNAL
        get(api, match_id, viewer_seat=0)
    err = refused(
        lambda: api.matches.SubmitAction(
            match_pb.SubmitActionRequest(
                match_id=match_id,
                seat=0,
                expected_move_number=got.move_number,
                action=pos_pb.Action(text="roll"),
            ),
            timeout=10,
        )
    )
    assert err.code() == grpc.StatusCode.FAILED_PRECONDITION and "damaged" in err.details()
    err = refused(
        lambda: api.matches.ResignMatch(match_pb.ResignMatchRequest(match_id=match_id, seat=0), timeout=10)
    )
    assert err.code() == grpc.StatusCode.FAILED_PRECONDITION
    list(api.matches.WatchMatch(match_pb.WatchMatchRequest(match_id=match_id), timeout=10))  # ends


def test_the_other_matches_play_on(damaged):
    _, api, _, _, good_id = damaged
    shown = listed(api)
    assert sum(m.status == match_pb.MATCH_STATUS_DAMAGED for m in shown.values()) == len(DAMAGES)
    assert shown[good_id].status == match_pb.MATCH_STATUS_ACTIVE  # its summary was rebuilt
    good = get(api, good_id)
    assert submit(api, good, "hold").match.move_number == good.move_number + 1
    fresh = create(api)
    assert submit(api, fresh).match.move_number >= 1
    err = refused(lambda: get(api, "0" * 32))
    assert err.code() == grpc.StatusCode.NOT_FOUND


def test_lictor_serve_starts_on_a_damaged_row(tmp_path):
    """The CLI start path (it exited 2 on a non-JSON setup_json): it serves, the match is DAMAGED."""
    db = tmp_path / "cli.db"
    with serving(db) as (_, api):
        good = create(api, "cytress")
        bad = create(api, "cytress")
    with contextlib.closing(sqlite3.connect(db)) as conn, conn:
        conn.execute("UPDATE matches SET setup_json = 'not json {' WHERE match_id = ?", (bad.match_id,))
    log_file = tmp_path / "stderr.txt"
    with open(log_file, "w") as err_out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "service.cli", "serve", "--port", "0", "--db", str(db), "--grace", "1"],
            stdout=subprocess.PIPE,
            stderr=err_out,
            text=True,
            cwd=REPO,
        )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()  # "lictor serving on 127.0.0.1:<port> (db ...)", or EOF on exit
        assert "serving on" in line, (proc.wait(30), log_file.read_text())
        port = int(line.split("serving on ", 1)[1].split()[0].rsplit(":", 1)[1])
        with grpc.insecure_channel(f"127.0.0.1:{port}") as ch:
            api = stubs(ch)
            assert get(api, good.match_id).status == match_pb.MATCH_STATUS_ACTIVE
            got = get(api, bad.match_id)
            assert got.status == match_pb.MATCH_STATUS_DAMAGED and readable(got.damage, db), got.damage
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    text = log_file.read_text()
    assert "quarantined" in text and "Traceback" not in text, text


# ---------------------------------------------------------------------------------- write faults
def test_a_full_disk_refuses_an_action_and_keeps_memory_and_disk_equal(tmp_path):
    """SubmitAction on a full disk: RESOURCE_EXHAUSTED with a reason, nothing moved; the same
    action once space returns; a restart shows what the database holds."""
    db = tmp_path / "full.db"
    with serving(db) as (srv, api):
        m = create(api, target=1000)
        disk_full(srv)
        for _ in range(2000):  # the pages the database has fill up
            try:
                m = submit(api, m).match
            except grpc.RpcError as exc:
                err = exc
                break
        else:
            pytest.fail("the database never filled up")
        assert err.code() == grpc.StatusCode.RESOURCE_EXHAUSTED, err.details()
        assert "full" in err.details() and readable(err.details(), db)
        assert error_info(err)["reason"] == "StorageFullError"
        assert get(api, m.match_id).move_number == m.move_number  # not advanced in memory
        assert len(log_rows(db, m.match_id)) == m.move_number  # nor on disk
        again = refused(lambda: submit(api, m))  # still full: still refused, still nothing moved
        assert again.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert get(api, m.match_id).move_number == m.move_number
        disk_full(srv, full=False)  # space returns
        after = submit(api, m).match
        assert after.move_number > m.move_number
        assert len(log_rows(db, m.match_id)) == after.move_number
    with serving(db) as (_, api):  # a restart replays what the database holds
        assert get(api, m.match_id).move_number == after.move_number


def test_create_match_on_a_full_disk_leaves_no_half_match(tmp_path):
    db = tmp_path / "create.db"
    with serving(db) as (srv, api):
        made = [create(api).match_id]
        disk_full(srv)
        for _ in range(500):
            try:
                made.append(create(api).match_id)
            except grpc.RpcError as exc:
                err = exc
                break
        else:
            pytest.fail("the database never filled up")
        assert err.code() == grpc.StatusCode.RESOURCE_EXHAUSTED and readable(err.details(), db)
        assert sorted(listed(api)) == sorted(made)
        with contextlib.closing(sqlite3.connect(db)) as conn:
            stored = {r[0] for r in conn.execute("SELECT match_id FROM matches")}
            logged = {r[0] for r in conn.execute("SELECT DISTINCT match_id FROM log")}
        assert stored == set(made) and logged <= stored
        disk_full(srv, full=False)
        assert create(api).status == match_pb.MATCH_STATUS_ACTIVE


@pytest.mark.parametrize(
    ("fault", "word"),
    [
        (sqlite_fault("disk I/O error", sqlite3.SQLITE_IOERR_WRITE), "I/O"),
        (sqlite_fault("attempt to write a readonly database", sqlite3.SQLITE_READONLY), "read-only"),
    ],
    ids=["io-error", "read-only"],
)
def test_a_write_fault_is_unavailable_and_passes(tmp_path, fault, word):
    db = tmp_path / "io.db"
    with serving(db) as (srv, api):
        m = create(api)

        def fail(what: str) -> None:
            raise fault

        srv.store.write_fault = fail
        err = refused(lambda: submit(api, m))
        assert err.code() == grpc.StatusCode.UNAVAILABLE and word in err.details(), err.details()
        assert readable(err.details(), db) and error_info(err)["reason"] == "StorageError"
        err = refused(
            lambda: api.matches.ResignMatch(
                match_pb.ResignMatchRequest(match_id=m.match_id, seat=0), timeout=10
            )
        )
        assert err.code() == grpc.StatusCode.UNAVAILABLE
        now = get(api, m.match_id)
        assert (
            now.status == match_pb.MATCH_STATUS_ACTIVE
            and now.move_number == 0
            and not log_rows(db, m.match_id)
        )
        srv.store.write_fault = None  # the fault passes
        assert submit(api, m).match.move_number >= 1


def test_a_lock_held_past_the_busy_timeout_is_unavailable(tmp_path, monkeypatch):
    monkeypatch.setattr(store_module, "BUSY_TIMEOUT_S", 0.2)
    db = tmp_path / "locked.db"
    with serving(db) as (_, api):
        m = create(api)
        other = sqlite3.connect(db, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        try:
            err = refused(lambda: submit(api, m))
            assert err.code() == grpc.StatusCode.UNAVAILABLE and "lock" in err.details(), err.details()
            assert get(api, m.match_id).move_number == 0
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert submit(api, m).match.move_number >= 1


def test_an_ai_move_on_a_full_disk_is_played_once_when_space_returns(tmp_path, caplog):
    """The AI seat's move is found once, kept while the disk is full (no INTERNAL, no busy loop, a
    line or two in the log), and saved once space returns."""
    caplog.set_level(logging.INFO)
    db = tmp_path / "ai.db"
    with serving(db) as (srv, api):
        saves: list[tuple[int, str]] = []
        searches = []
        submit_ = srv.store.submit
        run = srv.seats.run

        def recording_submit(live, **kw):
            if kw.get("by_ai"):
                saves.append((kw["expected_move_number"], kw["action_msg"]))
            return submit_(live, **kw)

        async def counting_run(job, **kw):
            searches.append(job.args["state"])
            return await run(job, **kw)

        srv.store.submit = recording_submit  # type: ignore[method-assign]
        srv.seats.run = counting_run  # type: ignore[method-assign]
        full = threading.Event()
        full.set()

        def fail(what: str) -> None:
            if full.is_set() and what == "the action":
                raise sqlite_fault("database or disk is full", sqlite3.SQLITE_FULL)

        srv.store.write_fault = fail
        m = create(api, seats=(AI, HUMAN), target=1000)  # the AI moves first
        deadline = time.monotonic() + 20
        while not saves:  # its move is found (a search under load may take a while)
            assert time.monotonic() < deadline, "the AI seat did not move"
            time.sleep(0.05)
        time.sleep(2.0)  # a full disk for two seconds: saved again after 0.5 s and 1 s more
        assert get(api, m.match_id).move_number == 0 and not log_rows(db, m.match_id)
        assert listed(api)[m.match_id].status == match_pb.MATCH_STATUS_ACTIVE
        assert len(searches) == 1, "the move is searched once, then only saved again"
        assert 2 <= len(saves) <= 4 and len(set(saves)) == 1, saves  # 0.5 s, 1 s, 2 s apart
        ours = [r for r in caplog.records if r.name.startswith("lictor")]  # (not grpc's own noise)
        noisy = [r for r in ours if r.levelno >= logging.WARNING]
        assert len(noisy) <= 2, [r.getMessage() for r in noisy]  # the store's line, the AI seat's line
        assert not [r for r in ours if r.levelno >= logging.ERROR]
        full.clear()  # space returns
        deadline = time.monotonic() + 15
        while get(api, m.match_id).move_number == 0:
            assert time.monotonic() < deadline, "the AI seat did not resume"
            time.sleep(0.1)
        rows = log_rows(db, m.match_id)
        assert rows[0][1:] == ("action", 0, saves[0][1])  # the move found during the fault, once
        assert any("work again" in r.getMessage() for r in caplog.records)


def test_a_fault_that_comes_and_goes_does_not_flood_the_log(tmp_path, caplog):
    db = tmp_path / "flap.db"
    with serving(db) as (srv, api):
        m = create(api, target=1000)
        writes = iter(range(10**6))

        def every_other(what: str) -> None:
            if next(writes) % 2:
                raise sqlite_fault("database or disk is full", sqlite3.SQLITE_FULL)

        srv.store.write_fault = every_other
        codes = []
        for _ in range(60):
            try:
                m = submit(api, m).match
                codes.append(grpc.StatusCode.OK)
            except grpc.RpcError as exc:
                codes.append(exc.code())
        assert set(codes) == {grpc.StatusCode.OK, grpc.StatusCode.RESOURCE_EXHAUSTED}
        lines = [r.getMessage() for r in caplog.records if "match database" in r.getMessage()]
        assert len(lines) == 2, lines  # "... not saved (...)", "writes work again": not 60
        assert len(log_rows(db, m.match_id)) == m.move_number
