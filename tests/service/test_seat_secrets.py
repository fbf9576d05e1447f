"""MatchService seat secrets: one secret per human seat, required to act or look as that seat."""

from __future__ import annotations

import hashlib
import json
import sqlite3

import grpc
import pytest

from lictor.v1 import match_service_pb2 as match_pb
from lictor.v1 import position_pb2 as pos_pb
from service.matches import MatchStore
from tests.service.helpers import error_info

HUMAN = match_pb.Seat(kind=match_pb.SEAT_KIND_HUMAN)
AI = match_pb.Seat(kind=match_pb.SEAT_KIND_AI, level=1)


def _create(api, seats=(HUMAN, HUMAN)):
    request = match_pb.CreateMatchRequest(game="pig", seats=list(seats), issue_seat_secrets=True)
    return api.matches.CreateMatch(request, timeout=30)


def _denied(call, field="seat_secret"):
    with pytest.raises(grpc.RpcError) as err:
        call()
    assert err.value.code() == grpc.StatusCode.PERMISSION_DENIED, err.value.details()
    assert error_info(err.value)["field"] == field
    assert field in err.value.details()
    return err.value


def _submit(api, match, seat, secret, text="roll"):
    request = match_pb.SubmitActionRequest(
        match_id=match.match_id,
        seat=seat,
        expected_move_number=match.move_number,
        action=pos_pb.Action(text=text),
        seat_secret=secret,
    )
    return api.matches.SubmitAction(request, timeout=30)


def test_create_issues_one_secret_per_human_seat(api):
    reply = _create(api, seats=(HUMAN, AI, HUMAN))
    assert [s.seat for s in reply.seat_secrets] == [0, 2]
    assert len({s.secret for s in reply.seat_secrets}) == 2 and all(
        len(s.secret) >= 32 for s in reply.seat_secrets
    )
    assert reply.match.seat_secrets
    got = api.matches.GetMatch(match_pb.GetMatchRequest(match_id=reply.match.match_id), timeout=10).match
    assert got.seat_secrets and got.view == match_pb.MATCH_VIEW_PUBLIC  # the public view needs no secret
    opted_out = api.matches.CreateMatch(
        match_pb.CreateMatchRequest(game="pig", seats=[HUMAN, HUMAN], issue_seat_secrets=False), timeout=30
    )
    assert not opted_out.seat_secrets and not opted_out.match.seat_secrets


def test_two_human_seats_get_secrets_by_default(api):
    """Issue #16: with two or more human seats, seat secrets are the default (one client can no
    longer act or look as another player); one human seat against AI seats gets none unless asked."""
    two = api.matches.CreateMatch(match_pb.CreateMatchRequest(game="pig", seats=[HUMAN, HUMAN]), timeout=30)
    assert [s.seat for s in two.seat_secrets] == [0, 1] and two.match.seat_secrets
    _denied(lambda: _submit(api, two.match, 0, ""))
    _denied(
        lambda: api.matches.GetMatch(
            match_pb.GetMatchRequest(match_id=two.match.match_id, viewer_seat=1), timeout=10
        )
    )
    one = api.matches.CreateMatch(match_pb.CreateMatchRequest(game="pig", seats=[HUMAN, AI]), timeout=30)
    assert not one.seat_secrets and not one.match.seat_secrets


def test_an_ai_seats_view_is_never_shown_while_a_human_plays(api):
    """Without seat secrets, a client still cannot read an AI seat's hidden cards while the match runs."""
    reply = api.matches.CreateMatch(match_pb.CreateMatchRequest(game="pig", seats=[HUMAN, AI]), timeout=30)
    _denied(
        lambda: api.matches.GetMatch(
            match_pb.GetMatchRequest(match_id=reply.match.match_id, viewer_seat=1), timeout=10
        ),
        field="viewer_seat",
    )


def test_submit_needs_the_seats_secret(api):
    reply = _create(api)
    match, secrets = reply.match, {s.seat: s.secret for s in reply.seat_secrets}
    _denied(lambda: _submit(api, match, 0, ""))
    _denied(lambda: _submit(api, match, 0, secrets[1]))  # another seat's secret
    _denied(lambda: _submit(api, match, 0, secrets[0] + "x"))
    done = _submit(api, match, 0, secrets[0])
    assert done.match.move_number > match.move_number and done.match.view == match_pb.MATCH_VIEW_SEAT


def test_seat_views_need_the_seats_secret(api):
    reply = _create(api)
    match, secrets = reply.match, {s.seat: s.secret for s in reply.seat_secrets}
    get = match_pb.GetMatchRequest(match_id=match.match_id, viewer_seat=1)
    _denied(lambda: api.matches.GetMatch(get, timeout=10))
    get.seat_secret = secrets[0]
    _denied(lambda: api.matches.GetMatch(get, timeout=10))
    get.seat_secret = secrets[1]
    assert api.matches.GetMatch(get, timeout=10).match.view == match_pb.MATCH_VIEW_SEAT
    watch = match_pb.WatchMatchRequest(match_id=match.match_id, viewer_seat=0, seat_secret=secrets[1])
    _denied(lambda: next(iter(api.matches.WatchMatch(watch, timeout=10))))
    watch.seat_secret = secrets[0]
    stream = api.matches.WatchMatch(watch, timeout=10)
    first = next(iter(stream))
    assert first.match.view == match_pb.MATCH_VIEW_SEAT
    stream.cancel()


def test_ai_seats_cannot_be_looked_at_or_resigned(api):
    reply = _create(api, seats=(HUMAN, AI))
    match = reply.match
    get = match_pb.GetMatchRequest(match_id=match.match_id, viewer_seat=1, seat_secret="anything")
    _denied(lambda: api.matches.GetMatch(get, timeout=10))
    resign = match_pb.ResignMatchRequest(match_id=match.match_id, seat=1)
    _denied(lambda: api.matches.ResignMatch(resign, timeout=10))


def test_resign_needs_the_seats_secret(api):
    reply = _create(api)
    match, secrets = reply.match, {s.seat: s.secret for s in reply.seat_secrets}
    resign = match_pb.ResignMatchRequest(match_id=match.match_id, seat=1, seat_secret=secrets[0])
    _denied(lambda: api.matches.ResignMatch(resign, timeout=10))
    resign.seat_secret = secrets[1]
    done = api.matches.ResignMatch(resign, timeout=10).match
    assert done.status == match_pb.MATCH_STATUS_FINISHED and done.resigned_seat == 1


def test_only_hashes_are_stored_and_survive_a_reopen(tmp_path):
    db = tmp_path / "m.db"
    store = MatchStore(db)
    from service.convert import Setup
    from service.matches import SeatSpec

    secret = "s3cret-" + "x" * 40
    live = store.create(
        "pig",
        Setup(players=2, options={}, seed=3),
        (SeatSpec(ai=False), SeatSpec(ai=False)),
        seat_secrets={0: secret},
    )
    store.close()
    raw = (
        db.read_bytes() + (tmp_path / "m.db-wal").read_bytes()
        if (tmp_path / "m.db-wal").exists()
        else db.read_bytes()
    )
    assert secret.encode() not in raw
    with sqlite3.connect(db) as conn:
        (stored,) = conn.execute("SELECT seat_secrets_json FROM matches").fetchone()
    assert json.loads(stored) == [hashlib.sha256(secret.encode()).hexdigest(), ""]
    again = MatchStore(db)
    try:
        reloaded = again.get(live.match_id)
        assert reloaded.has_secrets
        reloaded.check_secret(0, secret)
        with pytest.raises(Exception, match="seat_secret"):
            reloaded.check_secret(0, "wrong")
    finally:
        again.close()


OLD_SCHEMA = """
CREATE TABLE matches (
    match_id TEXT PRIMARY KEY, game TEXT NOT NULL, setup_json TEXT NOT NULL,
    seats_json TEXT NOT NULL, created_at REAL NOT NULL
);
CREATE TABLE log (
    match_id TEXT NOT NULL REFERENCES matches(match_id), seq INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('action', 'chance', 'resign')), seat INTEGER NOT NULL,
    action TEXT NOT NULL, at REAL NOT NULL, PRIMARY KEY (match_id, seq)
);
"""


def test_a_database_from_before_seat_secrets_still_opens(tmp_path):
    db = tmp_path / "old.db"
    with sqlite3.connect(db) as conn:
        conn.executescript(OLD_SCHEMA)
        conn.execute(
            "INSERT INTO matches VALUES (?, ?, ?, ?, ?)",
            (
                "old1",
                "pig",
                json.dumps({"players": 2, "options": {}, "seed": 4}),
                json.dumps([{"ai": False, "level": 5, "name": ""}] * 2),
                1.0,
            ),
        )
    store = MatchStore(db)
    try:
        live = store.get("old1")
        assert not live.has_secrets
        live.check_secret(0, "")  # no secrets: nothing to check
        assert not live.to_pb().seat_secrets
    finally:
        store.close()
    MatchStore(db).close()  # migrating twice is harmless
