"""Issue #33, one store interface, two backends: the match store's contract, the same tests on SQLite
and on PostgreSQL (a server of the test run's own), and two stores on one database standing for
two replicas. The AI turns' queue (PostgreSQL only) has its own tests at the end.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from games.errors import WrongSeatError
from service.convert import Setup
from service.errors import StaleMoveError, StorageError, StorageFullError
from service.matches import MatchStore, SeatSpec, StoreError
from service.matches.backend import is_postgres, shown
from service.matches.postgres import MIGRATIONS as PG_MIGRATIONS
from service.matches.sqlite import MIGRATIONS as SQLITE_MIGRATIONS

HUMANS = (SeatSpec(ai=False), SeatSpec(ai=False))
SETUP = Setup(players=2, options={"target": 1000}, seed=5)


@pytest.fixture(params=["sqlite", "postgres"])
def target(request: pytest.FixtureRequest, tmp_path) -> str:
    """A new, empty match database of each backend."""
    if request.param == "postgres":
        url: str = request.getfixturevalue("pg_url")
        return url
    return str(tmp_path / "m.db")


@contextlib.contextmanager
def opened(target: str) -> Iterator[MatchStore]:
    store = MatchStore(target)
    try:
        yield store
    finally:
        store.close()


def raw(target: str, query: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """One statement straight on the database (``?`` placeholders), as an operator would run it."""
    if is_postgres(target):
        import psycopg

        with psycopg.connect(target, autocommit=True) as pg:
            cur = pg.execute(query.replace("?", "%s"), args)  # type: ignore[arg-type]
            return cur.fetchall() if cur.description else []
    with contextlib.closing(sqlite3.connect(target)) as conn, conn:
        return conn.execute(query, args).fetchall()


def faults(target: str) -> tuple[BaseException, BaseException]:
    """(a full disk, an I/O fault) as the backend raises them."""
    if is_postgres(target):
        import psycopg

        return (
            psycopg.errors.DiskFull("could not extend file: No space left on device"),
            psycopg.OperationalError("server closed the connection unexpectedly"),
        )
    full = sqlite3.OperationalError("database or disk is full")
    full.sqlite_errorcode = sqlite3.SQLITE_FULL  # type: ignore[attr-defined]
    io = sqlite3.OperationalError("disk I/O error")
    io.sqlite_errorcode = sqlite3.SQLITE_IOERR_WRITE  # type: ignore[attr-defined]
    return full, io


def play(store: MatchStore, live, text: str = "roll") -> None:
    with live.lock:
        seat, move = live.to_move(), len(live.actions)
    store.submit(live, seat=seat, expected_move_number=move, action_msg=text)


# ---------------------------------------------------------------------------------- one store
def test_a_match_is_its_log_replayed(target):
    with opened(target) as store:
        live = store.create("pig", SETUP, HUMANS, seat_secrets={0: "s" * 40}, creator="ipv4:1.2.3.4")
        events = store.submit(live, seat=0, expected_move_number=0, action_msg="roll")
        assert events[0].action == "roll" and len(events) == 2  # the roll, the server's die
        play(store, live, "hold")
        actions = list(live.actions)
    with opened(target) as again:
        back = again.get(live.match_id)
        assert back.actions == actions and back.state == live.state
        assert back.has_secrets and back.created_at == live.created_at
        assert again.count() == 1 and again.count(active=True, creator="ipv4:1.2.3.4") == 1
    rows = raw(target, "SELECT seq, kind FROM log WHERE match_id = ? ORDER BY seq", (live.match_id,))
    assert [r[0] for r in rows] == list(range(len(actions)))


def test_listing_reads_summaries_newest_first(target):
    with opened(target) as store:
        made = [store.create("pig", SETUP, HUMANS).match_id for _ in range(3)]
        done = store.get(made[0])
        store.resign(done, 1)
        page = store.list_page(game="pig", offset=0, limit=2)
        assert [m.match_id for m in page] == made[::-1][:2]
        rest = store.list_page(game="", offset=2, limit=10)
        assert [m.match_id for m in rest] == [made[0]]
        assert rest[0].message.status == 2 and list(rest[0].message.returns) == [1.0, 0.0]
        assert store.count(active=True) == 2 and store.active_ids() == made[1:]


def test_a_stale_move_is_aborted_and_the_match_ends_once(target):
    with opened(target) as store:
        live = store.create("pig", SETUP, HUMANS)
        play(store, live)
        with pytest.raises(StaleMoveError, match="stale"):
            store.submit(live, seat=0, expected_move_number=0, action_msg="roll")
        store.resign(live, 0)
        with pytest.raises(WrongSeatError, match="over"):
            store.resign(live, 1)


def test_schema_versions_are_numbered_and_applied_once(target):
    steps = len(PG_MIGRATIONS if is_postgres(target) else SQLITE_MIGRATIONS)
    MatchStore(target).close()
    MatchStore(target).close()  # opening again changes nothing
    assert raw(target, "SELECT version FROM schema_version") == [(steps,)]
    raw(target, "UPDATE schema_version SET version = ?", (steps + 1,))
    with pytest.raises(StoreError, match="newer than this server"):
        MatchStore(target)


def test_a_database_from_before_versioning_is_migrated(tmp_path):
    """SQLite's ad-hoc migration (seat secrets, summary columns) is its migration 2."""
    db = str(tmp_path / "old.db")
    raw(
        db,
        "CREATE TABLE matches (match_id TEXT PRIMARY KEY, game TEXT NOT NULL, setup_json TEXT NOT NULL, "
        "seats_json TEXT NOT NULL, created_at REAL NOT NULL, seat_secrets_json TEXT NOT NULL DEFAULT '')",
    )
    raw(
        db,
        "INSERT INTO matches VALUES ('old', 'pig', ?, ?, 1.0, '')",
        ('{"players": 2, "options": {}, "seed": 3}', '[{"ai": false}, {"ai": false}]'),
    )
    with opened(db) as store:
        live = store.get("old")
        assert not live.damage and live.to_move() == 0
        assert [m.match_id for m in store.list_page(game="", offset=0, limit=5)] == ["old"]
    assert raw(db, "SELECT version FROM schema_version") == [(len(SQLITE_MIGRATIONS),)]
    assert raw(db, "SELECT status, summarized FROM matches") == [("active", 1)]


DAMAGES = {
    "setup_json": ("UPDATE matches SET setup_json = 'not json {' WHERE match_id = ?", "setup"),
    "game": ("UPDATE matches SET game = 'chess' WHERE match_id = ?", "chess"),
    "log row": ("INSERT INTO log VALUES (?, 2, 'action', 0, 'fly away', 0)", "fly"),
    "missing row": ("DELETE FROM log WHERE match_id = ? AND seq = 0", "move 0"),
}


@pytest.mark.parametrize("case", list(DAMAGES))
def test_a_damaged_row_quarantines_its_match_only(target, case):
    sql, word = DAMAGES[case]
    with opened(target) as store:
        bad = store.create("pig", SETUP, HUMANS)
        play(store, bad)
        good = store.create("pig", SETUP, HUMANS)
    raw(target, sql, (bad.match_id,))
    with opened(target) as store:
        live = store.get(bad.match_id)
        assert word in live.damage and "Error" not in live.damage
        with pytest.raises(WrongSeatError, match="damaged"):
            store.submit(live, seat=0, expected_move_number=len(live.actions), action_msg="roll")
        shown_ = {m.match_id: m.message for m in store.list_page(game="", offset=0, limit=10)}
        assert shown_[bad.match_id].status == 3 and shown_[bad.match_id].damage == live.damage
        play(store, store.get(good.match_id))  # the other match plays on
    assert raw(target, "SELECT status FROM matches WHERE match_id = ?", (bad.match_id,)) == [("damaged",)]


def test_a_write_fault_changes_neither_memory_nor_disk_and_passes(target):
    full, io = faults(target)
    with opened(target) as store:
        live = store.create("pig", SETUP, HUMANS)
        for fault, kind in ((full, StorageFullError), (io, StorageError)):

            def fail(what: str, fault: BaseException = fault) -> None:
                raise fault

            store.write_fault = fail
            with pytest.raises(kind) as err:
                store.submit(live, seat=0, expected_move_number=0, action_msg="roll")
            assert ("full" in str(err.value)) == (kind is StorageFullError), err.value
            with pytest.raises(kind):
                store.resign(live, 1)
            with pytest.raises(kind):
                store.create("pig", SETUP, HUMANS)
            assert live.actions == [] and not live.finished
        store.write_fault = None
        assert raw(target, "SELECT COUNT(*) FROM log") == [(0,)]
        assert raw(target, "SELECT COUNT(*) FROM matches") == [(1,)]
        play(store, live)  # the fault passed
        assert len(live.actions) == 2


# ---------------------------------------------------------------------------------- two stores
def test_a_second_store_catches_up_before_it_answers_or_acts(target):
    """Two stores on one database (two replicas): each reads the other's moves before answering,
    and a move against a stale number is refused whichever store it reaches."""
    with opened(target) as a, opened(target) as b:
        live_a = a.create("pig", SETUP, HUMANS)
        live_b = b.get(live_a.match_id)
        play(a, live_a)  # roll + die on A
        assert b.get(live_a.match_id) is live_b and live_b.actions == live_a.actions  # caught up
        play(a, live_a, "hold")
        seen = []
        b.on_change.append(lambda m: seen.append(len(m.actions)))
        # B acts without being asked to read first: it catches up under the match's lock
        with pytest.raises(StaleMoveError):
            b.submit(live_b, seat=0, expected_move_number=2, action_msg="roll")
        assert live_b.actions == live_a.actions and seen == []  # (caught up inside the refusal)
        play(b, live_b)  # seat 1 rolls on B
        assert a.get(live_a.match_id).actions == live_b.actions
        b.resign(live_b, 0)
        with pytest.raises(WrongSeatError, match="over"):
            a.submit(
                live_a, seat=live_a.to_move(), expected_move_number=len(live_b.actions), action_msg="hold"
            )
        assert live_a.finished and live_a.resigned_seat == 0


def test_the_log_key_refuses_a_racing_second_move(target, monkeypatch):
    """A store that could not catch up in time (the race between two replicas): the log's key
    refuses its move, and its memory stays as it was."""
    with opened(target) as a, opened(target) as b:
        live_a = a.create("pig", SETUP, HUMANS)
        live_b = b.get(live_a.match_id)
        play(a, live_a)
        monkeypatch.setattr(b, "_catch_up", lambda live: False)  # B has not seen A's move yet
        with pytest.raises(StaleMoveError, match="already played"):
            b.submit(live_b, seat=0, expected_move_number=0, action_msg="hold")
        assert live_b.actions == []
        monkeypatch.undo()
        assert b.get(live_a.match_id).actions == live_a.actions


def test_racing_submissions_from_two_stores_make_one_move(target):
    with opened(target) as a, opened(target) as b:
        live = a.create("pig", SETUP, HUMANS)
        copies = [live, b.get(live.match_id)]
        results: list[str] = []
        barrier = threading.Barrier(4)

        def go(i: int) -> None:
            store, copy = (a, b)[i % 2], copies[i % 2]
            barrier.wait()
            try:
                store.submit(copy, seat=0, expected_move_number=0, action_msg="roll")
                results.append("ok")
            except StaleMoveError:
                results.append("aborted")

        threads = [threading.Thread(target=go, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(results) == ["aborted"] * 3 + ["ok"]
        assert raw(target, "SELECT COUNT(*) FROM log WHERE seq = 0") == [(1,)]


def test_a_resignation_after_another_stores_move_comes_after_it(target):
    with opened(target) as a, opened(target) as b:
        live_a = a.create("pig", SETUP, HUMANS)
        live_b = b.get(live_a.match_id)
        play(a, live_a)
        b.resign(live_b, 1)
        rows = raw(target, "SELECT seq, kind FROM log WHERE match_id = ? ORDER BY seq", (live_a.match_id,))
        assert rows == [(0, "action"), (1, "chance"), (2, "resign")]
        assert a.get(live_a.match_id).finished


def test_the_summary_of_another_stores_newer_move_is_not_overwritten(target):
    with opened(target) as a:
        live = a.create("pig", SETUP, HUMANS)
        raw(target, "UPDATE matches SET summarized = 0 WHERE match_id = ?", (live.match_id,))
        with opened(target) as b:  # B replays the log; before it writes the summary, A moves
            moved: list[int] = []

            original = b._summarize

            def summarize_late(m):
                if not moved:
                    play(a, live)
                    moved.append(1)
                original(m)

            b._summarize = summarize_late  # type: ignore[method-assign]
            b.get(live.match_id)
        row = raw(target, "SELECT moves, summarized FROM matches WHERE match_id = ?", (live.match_id,))
        assert row == [(2, 0)], row  # A's summary (two moves) stands; B's (none) was not written


def test_a_url_never_shows_its_password():
    assert (
        shown("postgresql://lictor:s3cret@db.example/lictor") == "postgresql://lictor:***@db.example/lictor"
    )
    assert "s3cret" not in shown("postgres://u@h/db?password=s3cret&sslmode=require")
    assert shown("./lictor.db") == "./lictor.db"


def test_an_unreachable_postgres_is_one_line(tmp_path):
    with pytest.raises(StoreError) as err:
        MatchStore(f"postgresql://nobody:pw@/lictor?host={tmp_path}&connect_timeout=2")
    text = str(err.value)
    assert "cannot use the match database" in text and "pw@" not in text and "\n" not in text


# ---------------------------------------------------------------------------------- AI turns' queue
AI_FIRST = (SeatSpec(ai=True, level=1), SeatSpec(ai=False))


def queue(url: str) -> list[tuple[Any, ...]]:
    return raw(url, "SELECT match_id, move, heavy, leased_by FROM ai_queue ORDER BY due_since")


def test_an_ai_turn_is_queued_with_the_move_that_makes_it_due(pg_url):
    with opened(pg_url) as store:
        ai_first = store.create("pig", SETUP, AI_FIRST)
        humans = store.create("pig", SETUP, (SeatSpec(ai=False), SeatSpec(ai=True, level=9)))
        assert queue(pg_url) == [(ai_first.match_id, 0, False, "")]
        store.submit(humans, seat=0, expected_move_number=0, action_msg="roll")
        store.submit(humans, seat=0, expected_move_number=2, action_msg="hold")  # seat 1 (AI) is due
        assert queue(pg_url)[1] == (humans.match_id, 3, True, "")  # level 9 is heavy
        store.resign(humans, 0)
        store.submit(ai_first, seat=0, expected_move_number=0, action_msg="hold", by_ai=True)
        assert queue(pg_url) == []  # the human's turn; a finished match


def test_two_stores_claim_each_turn_once_and_a_lapsed_lease_is_claimed_again(pg_url):
    with opened(pg_url) as a, opened(pg_url) as b:
        made = [a.create("pig", SETUP, AI_FIRST).match_id for _ in range(4)]
        got_a = a.claim_turns(limit=3, heavy_slots=3, lease_s=30)
        got_b = b.claim_turns(limit=3, heavy_slots=3, lease_s=30)
        assert [t[0] for t in got_a] == made[:3] and [t[0] for t in got_b] == made[3:]  # oldest first
        assert b.claim_turns(limit=3, heavy_slots=3, lease_s=30) == []
        b.release_turns([(made[3], 0)])
        assert [t[0] for t in a.claim_turns(limit=3, heavy_slots=3, lease_s=0.2)] == [made[3]]
        a.renew_turns(made[:3], 30)
        time.sleep(0.3)  # made[3]'s lease (0.2 s) lapses; the renewed ones do not
        assert [t[0] for t in b.claim_turns(limit=3, heavy_slots=3, lease_s=30)] == [made[3]]
        # the move's own transaction clears the turn, whoever holds its lease
        live = a.get(made[0])
        a.submit(live, seat=0, expected_move_number=0, action_msg="hold", by_ai=True)
        assert made[0] not in [row[0] for row in queue(pg_url)]


def test_a_claim_skips_the_turns_another_replica_is_claiming(pg_url):
    """SKIP LOCKED: a row locked by another replica's claim is passed over, never waited for."""
    import psycopg

    with opened(pg_url) as store:
        made = [store.create("pig", SETUP, AI_FIRST).match_id for _ in range(2)]
        with psycopg.connect(pg_url) as other:  # (a transaction: its lock holds until it ends)
            other.execute("SELECT 1 FROM ai_queue WHERE match_id = %s FOR UPDATE", (made[0],))
            t0 = time.monotonic()
            got = store.claim_turns(limit=2, heavy_slots=2, lease_s=30)
            assert [t[0] for t in got] == [made[1]] and time.monotonic() - t0 < 1.0
        assert [t[0] for t in store.claim_turns(limit=2, heavy_slots=2, lease_s=30)] == [made[0]]


def test_heavy_turns_leave_room_for_light_ones(pg_url):
    heavy_first = (SeatSpec(ai=True, level=10), SeatSpec(ai=False))
    with opened(pg_url) as store:
        heavy = [store.create("pig", SETUP, heavy_first).match_id for _ in range(2)]
        light = store.create("pig", SETUP, AI_FIRST).match_id
        got = store.claim_turns(limit=3, heavy_slots=1, lease_s=30)
        assert [(t[0], t[2]) for t in got] == [(heavy[0], True), (light, False)]
        assert store.claim_turns(limit=3, heavy_slots=0, lease_s=30) == []


def test_a_database_server_that_goes_away_is_unavailable_then_recovers():
    """The server stops (a restart, a failover): calls answer UNAVAILABLE naming the cause, then
    work again once it is back: the pool reconnects by itself."""
    from tests.service import pg_cluster

    why = pg_cluster.unavailable()
    if why:
        pytest.skip(why)
    with pg_cluster.cluster() as cluster:
        url = cluster.new_database()
        with opened(url) as store:
            live = store.create("pig", SETUP, HUMANS)
            cluster.halt()
            t0 = time.monotonic()
            with pytest.raises(StorageError, match="the database server cannot be reached"):
                store.submit(live, seat=0, expected_move_number=0, action_msg="roll")
            assert time.monotonic() - t0 < 3.0  # not the 10 s busy timeout
            assert live.actions == []
            cluster.resume()
            play(store, live)
            assert store.get(live.match_id).actions == live.actions and len(live.actions) == 2
