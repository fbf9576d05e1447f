"""MatchService: hosted matches with AI seats, SQLite persistence, stale submissions, SIGKILL restart."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import grpc
import pytest

from games.core import get_game
from lictor.v1 import match_service_pb2 as match_pb
from lictor.v1 import position_pb2 as pos_pb
from service.client import stubs
from tests.service.helpers import all_games, error_info, players_for, violations

HUMAN = match_pb.Seat(kind=match_pb.SEAT_KIND_HUMAN)
REPO = Path(__file__).resolve().parents[2]


def ai(level=1):
    return match_pb.Seat(kind=match_pb.SEAT_KIND_AI, level=level)


def create(api, game="pig", seats=(HUMAN, HUMAN), seed=None, secrets=False, **options):
    """A match; without seat secrets unless asked (their tests are in test_seat_secrets.py)."""
    request = match_pb.CreateMatchRequest(game=game, seats=list(seats), issue_seat_secrets=secrets)
    if seed is not None:
        request.seed = seed
    for k, v in options.items():
        request.options[k].integer = v
    return api.matches.CreateMatch(request, timeout=30).match


def submit(api, match, seat, text, expected=None):
    request = match_pb.SubmitActionRequest(
        match_id=match.match_id,
        seat=seat,
        expected_move_number=match.move_number if expected is None else expected,
        action=pos_pb.Action(text=text),
    )
    return api.matches.SubmitAction(request, timeout=30)


def wait_for(api, match_id, pred, timeout=20.0, reveal_all=False):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        m = api.matches.GetMatch(
            match_pb.GetMatchRequest(match_id=match_id, reveal_all=reveal_all), timeout=10
        ).match
        if pred(m):
            return m
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting on match {match_id}")


def test_create_get_list(api):
    m = create(api)
    assert m.match_id and m.game == "pig" and m.status == match_pb.MATCH_STATUS_ACTIVE
    assert m.move_number == 0 and m.summary.current_player == 0
    assert [s.kind for s in m.seats] == [match_pb.SEAT_KIND_HUMAN] * 2
    got = api.matches.GetMatch(match_pb.GetMatchRequest(match_id=m.match_id), timeout=10).match
    assert got == m
    listed = api.matches.ListMatches(match_pb.ListMatchesRequest(game="pig", page_size=500), timeout=10)
    assert m.match_id in [x.match_id for x in listed.matches]
    page = api.matches.ListMatches(match_pb.ListMatchesRequest(page_size=1), timeout=10)
    assert len(page.matches) == 1
    if page.next_page_token:
        nxt = api.matches.ListMatches(
            match_pb.ListMatchesRequest(page_size=1, page_token=page.next_page_token), timeout=10
        )
        assert nxt.matches[0].match_id != page.matches[0].match_id


def test_submit_then_dice_by_the_server(api):
    m = create(api)
    reply = submit(api, m, 0, "roll")
    assert reply.events[0].kind == pos_pb.EVENT_KIND_ACTION and reply.events[0].seat == 0
    assert reply.events[1].kind == pos_pb.EVENT_KIND_CHANCE  # the server rolled
    assert reply.match.move_number == 2
    assert reply.match.view == match_pb.MATCH_VIEW_SEAT  # the submitter's view: no record
    assert not reply.match.position.HasField("record")
    # the die shows in everyone's view of the turn total, so everyone sees which it was (views.seen_by)
    assert reply.events[1].action.startswith("d")


def test_stale_submission_is_aborted_never_a_double_move(api):
    m = create(api)
    results = []

    def go():
        try:
            results.append(submit(api, m, 0, "roll", expected=0).match.move_number)
        except grpc.RpcError as exc:
            results.append(exc.code())

    threads = [threading.Thread(target=go) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results.count(grpc.StatusCode.ABORTED) == 3
    final = api.matches.GetMatch(match_pb.GetMatchRequest(match_id=m.match_id), timeout=10).match
    assert final.move_number == 2  # one roll + its die
    with pytest.raises(grpc.RpcError) as err:
        submit(api, final, final.summary.current_player, "hold", expected=0)
    assert err.value.code() == grpc.StatusCode.ABORTED
    assert error_info(err.value)["field"] == "expected_move_number"


def test_bad_submissions(api):
    m = create(api, seats=(HUMAN, ai()))
    cases = [
        (dict(seat=1, text="roll"), grpc.StatusCode.FAILED_PRECONDITION, "seat"),  # not its turn
        (dict(seat=5, text="roll"), grpc.StatusCode.INVALID_ARGUMENT, "seat"),
        (dict(seat=0, text="fly"), grpc.StatusCode.INVALID_ARGUMENT, "action.text"),
        (dict(seat=0, text="d3"), grpc.StatusCode.INVALID_ARGUMENT, "action.text"),
    ]
    for kw, code, field in cases:
        with pytest.raises(grpc.RpcError) as err:
            submit(api, m, kw["seat"], kw["text"])
        assert err.value.code() == code, (kw, err.value.details())
        got = (
            violations(err.value)[0][0]
            if code == grpc.StatusCode.INVALID_ARGUMENT
            else error_info(err.value)["field"]
        )
        assert got == field
    with pytest.raises(grpc.RpcError) as err:
        api.matches.GetMatch(match_pb.GetMatchRequest(match_id="nope"), timeout=10)
    assert err.value.code() == grpc.StatusCode.NOT_FOUND
    with pytest.raises(grpc.RpcError) as err:
        api.matches.GetMatch(match_pb.GetMatchRequest(), timeout=10)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    with pytest.raises(grpc.RpcError) as err:
        api.matches.CreateMatch(match_pb.CreateMatchRequest(game="pig", seats=[HUMAN] * 6), timeout=10)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT and violations(err.value)[0][0] == "seats"
    with pytest.raises(grpc.RpcError) as err:
        api.matches.CreateMatch(
            match_pb.CreateMatchRequest(game="pig", seats=[HUMAN, match_pb.Seat()]), timeout=10
        )
    assert violations(err.value)[0][0] == "seats[1].kind"
    with pytest.raises(grpc.RpcError) as err:
        api.matches.CreateMatch(match_pb.CreateMatchRequest(game="chess", seats=[HUMAN] * 2), timeout=10)
    assert err.value.code() == grpc.StatusCode.NOT_FOUND


def test_human_cannot_play_an_ai_seat(tmp_path):
    """Without the AI worker running, seat 0 (AI) is to move: a human submission is refused."""
    from games.errors import WrongSeatError
    from service.convert import Setup
    from service.matches import MatchStore, SeatSpec

    store = MatchStore(tmp_path / "m.db")
    live = store.create(
        "pig", Setup(players=2, options={}, seed=1), (SeatSpec(ai=True, level=1), SeatSpec(ai=False))
    )
    with pytest.raises(WrongSeatError, match="played by the server's AI"):
        store.submit(live, seat=0, expected_move_number=0, action_msg="roll")
    events = store.submit(live, seat=0, expected_move_number=0, action_msg="roll", by_ai=True)
    assert events[0].action == "roll"
    store.close()
    again = MatchStore(tmp_path / "m.db").get(live.match_id)  # replayed from the log
    assert again.actions == live.actions


@pytest.mark.parametrize("name", all_games())
def test_ai_match_plays_itself_and_watch_streams_to_the_end(api, name):
    """AI seats move by themselves; WatchMatch streams every event and ends at game over."""
    players = players_for(name)
    m = create(api, game=name, seats=[ai(1)] * players, seed=9)
    events = []
    for item in api.matches.WatchMatch(match_pb.WatchMatchRequest(match_id=m.match_id), timeout=60):
        events.append(item.event)
        if name != "pig" and len(events) > 12:
            break  # long games: enough that the AI moves by itself
    assert events[0].kind == pos_pb.EVENT_KIND_CREATED
    numbers = [e.move_number for e in events]
    assert numbers == sorted(numbers)
    if name == "pig":
        assert events[-1].kind == pos_pb.EVENT_KIND_GAME_OVER
        done = api.matches.GetMatch(
            match_pb.GetMatchRequest(match_id=m.match_id, reveal_all=True), timeout=10
        ).match
        assert done.view == match_pb.MATCH_VIEW_FULL
        assert done.status == match_pb.MATCH_STATUS_FINISHED and len(done.returns) == players
        # The record replays to the same end state in-process.
        game = get_game(name)
        from service.convert import new_game, setup_from_pb

        state = new_game(game, setup_from_pb(done.setup, field="setup"), field="setup")
        for text in done.position.record.actions:
            state = game.apply(state, game.parse_action(state, text))
        assert game.is_terminal(state)
    else:
        assert any(e.kind == pos_pb.EVENT_KIND_ACTION for e in events)
        seat = 0
        api.matches.ResignMatch(match_pb.ResignMatchRequest(match_id=m.match_id, seat=seat), timeout=10)


def test_watch_from_a_move_number(api):
    m = create(api)
    submit(api, m, 0, "roll")
    it = api.matches.WatchMatch(
        match_pb.WatchMatchRequest(match_id=m.match_id, from_move_number=1), timeout=5
    )
    first = next(iter(it))
    assert first.event.move_number == 2
    it.cancel()


def test_resign(api):
    m = create(api)
    reply = api.matches.ResignMatch(match_pb.ResignMatchRequest(match_id=m.match_id, seat=1), timeout=10)
    assert reply.match.status == match_pb.MATCH_STATUS_FINISHED
    assert reply.match.resigned_seat == 1 and list(reply.match.returns) == [1.0, 0.0]
    with pytest.raises(grpc.RpcError) as err:
        submit(api, reply.match, 0, "roll")
    assert err.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    events = list(api.matches.WatchMatch(match_pb.WatchMatchRequest(match_id=m.match_id), timeout=5))
    assert [e.event.kind for e in events][-2:] == [pos_pb.EVENT_KIND_RESIGN, pos_pb.EVENT_KIND_GAME_OVER]


# ----------------------------------------------------------------------------------- SIGKILL
_LAUNCH = """
import sys
from tests.service.conftest import register_pig
register_pig()
from service.server import serve
serve("127.0.0.1:0", db_path=sys.argv[1], grace_s=1.0)
"""


def _start(db: Path) -> tuple[subprocess.Popen[str], int]:
    proc = subprocess.Popen(
        [sys.executable, "-c", _LAUNCH, str(db)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert "serving on" in line, line
    port = int(line.split()[3].rsplit(":", 1)[1])
    return proc, port


def test_sigkill_and_restart_loses_no_acknowledged_action(tmp_path):
    db = tmp_path / "matches.db"
    proc, port = _start(db)
    try:
        ch = grpc.insecure_channel(f"127.0.0.1:{port}")
        api = stubs(ch)
        human = create(api)
        acked = human
        for text in ("roll", "roll", "roll"):
            if acked.summary.current_player != 0:
                break
            acked = submit(api, acked, 0, text).match
        # An AI-vs-AI match long enough to be mid-game at the kill.
        bots = create(api, seats=(ai(2), ai(2)), seed=22, target=60)
        seen = wait_for(api, bots.match_id, lambda x: x.move_number >= 4, reveal_all=True)
        ch.close()
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    proc, port = _start(db)
    try:
        ch = grpc.insecure_channel(f"127.0.0.1:{port}")
        api = stubs(ch)
        after = api.matches.GetMatch(match_pb.GetMatchRequest(match_id=human.match_id), timeout=10).match
        assert after.move_number == acked.move_number
        latest = after
        if after.status == match_pb.MATCH_STATUS_ACTIVE and after.summary.current_player == 0:
            latest = submit(api, after, 0, "hold").match
            assert latest.move_number > after.move_number  # the match continues
        if latest.status == match_pb.MATCH_STATUS_ACTIVE:
            api.matches.ResignMatch(match_pb.ResignMatchRequest(match_id=human.match_id, seat=1), timeout=10)
        full = api.matches.GetMatch(
            match_pb.GetMatchRequest(match_id=human.match_id, reveal_all=True), timeout=10
        ).match
        actions = list(full.position.record.actions)
        assert actions[0] == "roll" and len(actions) >= acked.move_number  # every acknowledged action
        resumed = wait_for(
            api,
            bots.match_id,
            lambda x: x.move_number > seen.move_number + 2 or x.status == 2,
            reveal_all=True,
        )
        prefix = list(seen.position.record.actions)
        assert list(resumed.position.record.actions)[: len(prefix)] == prefix  # the AI seats resumed
        ch.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


def test_sigterm_drains_in_flight_calls(tmp_path):
    """SIGTERM: the in-flight search answers (its best so far) within the grace period, then exit 0."""
    from lictor.v1 import advisor_service_pb2 as advisor_pb
    from tests.service.helpers import record

    proc, port = _start(tmp_path / "drain.db")
    ch = grpc.insecure_channel(f"127.0.0.1:{port}")
    api = stubs(ch)
    request = advisor_pb.AnalyzeRequest(position=record("pig"), report_every_ms=50)
    request.budget.time_s = 5.0  # longer than the grace period (1 s)
    reports = []
    call = api.advisor.Analyze(request, timeout=20)
    reports.append(next(call))
    t0 = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    reports.extend(call)
    assert reports[-1].analysis.final
    assert time.monotonic() - t0 < 5.0  # within the grace period (1 s), with slack for a busy machine
    assert proc.wait(10) == 0
    ch.close()


def test_viewer_seat_sees_only_its_observation(api):
    """Hidden information: a seat's view hides the other seats' secrets (and the replayable record)."""
    m = create(api)
    full = m
    for seat in (0, 1):
        view = api.matches.GetMatch(
            match_pb.GetMatchRequest(match_id=m.match_id, viewer_seat=seat), timeout=10
        ).match
        seen = json.loads(view.summary.state_json)["bonus"]
        assert seen[seat] >= 0 and seen[1 - seat] == -1
        assert view.position.WhichOneof("kind") == "state_json"
    submit(api, full, 0, "roll")
    it = api.matches.WatchMatch(match_pb.WatchMatchRequest(match_id=m.match_id, viewer_seat=1), timeout=5)
    events = [next(it).event for _ in range(3)]
    it.cancel()
    # the die shows in the turn total everyone sees: its notation too (games.core.views.seen_by)
    assert events[2].kind == pos_pb.EVENT_KIND_CHANCE and events[2].action.startswith("d")
    with pytest.raises(grpc.RpcError) as err:
        api.matches.GetMatch(match_pb.GetMatchRequest(match_id=m.match_id, viewer_seat=2), timeout=10)
    assert violations(err.value)[0][0] == "viewer_seat"


@pytest.mark.parametrize("name", all_games())
def test_human_match_happy_path_per_game(api, name):
    """CreateMatch, GetMatch, ListMatches, SubmitAction (legal moves from GetLegalActions), ResignMatch."""
    from lictor.v1 import game_service_pb2 as game_pb

    m = create(api, game=name, seats=[HUMAN] * players_for(name))
    for _ in range(3):
        if m.status != match_pb.MATCH_STATUS_ACTIVE:
            break
        seat = m.summary.current_player
        view = api.matches.GetMatch(
            match_pb.GetMatchRequest(match_id=m.match_id, viewer_seat=seat), timeout=10
        ).match
        legal = api.games.GetLegalActions(  # from the seat's own view: no secrets needed
            game_pb.GetLegalActionsRequest(position=view.position), timeout=30
        ).actions
        before = m.move_number
        reply = submit(api, m, seat, legal[-1].text)
        m = reply.match
        assert m.move_number > before
        assert reply.events[0].action == legal[-1].text
    listed = api.matches.ListMatches(
        match_pb.ListMatchesRequest(game=name, page_size=500), timeout=10
    ).matches
    assert m.match_id in [x.match_id for x in listed]
    got = api.matches.GetMatch(match_pb.GetMatchRequest(match_id=m.match_id), timeout=10).match
    assert got.move_number == m.move_number
    done = api.matches.ResignMatch(match_pb.ResignMatchRequest(match_id=m.match_id, seat=0), timeout=10).match
    assert done.status == match_pb.MATCH_STATUS_FINISHED


def test_hidden_information_is_not_shown_by_default(api):
    """Without viewer_seat nobody sees a seat's secrets: the public view (no record, no seed, no state,
    no dice) everywhere; reveal_all only once the match is over or for AI-only matches."""
    m = create(api)
    assert m.view == match_pb.MATCH_VIEW_PUBLIC
    reply = submit(api, m, 0, "roll")
    views = [
        m,
        api.matches.GetMatch(match_pb.GetMatchRequest(match_id=m.match_id), timeout=10).match,
        *[
            x
            for x in api.matches.ListMatches(
                match_pb.ListMatchesRequest(game="pig", page_size=500, reveal_all=True), timeout=10
            ).matches
            if x.match_id == m.match_id
        ],
    ]
    it = api.matches.WatchMatch(match_pb.WatchMatchRequest(match_id=m.match_id), timeout=5)
    streamed = [next(it) for _ in range(3)]
    it.cancel()
    views.append(streamed[-1].match)
    assert len(views) == 4
    for v in views:
        assert v.view == match_pb.MATCH_VIEW_PUBLIC
        assert v.position.WhichOneof("kind") is None and v.setup.seed == 0
        assert not v.summary.state_json and not v.summary.state_text
    assert streamed[2].event.kind == pos_pb.EVENT_KIND_CHANCE and streamed[2].event.action.startswith("d")
    assert reply.match.setup.seed == 0 and reply.match.view == match_pb.MATCH_VIEW_SEAT
    # reveal_all is refused while a human seat's secrets are at stake ...
    for call in (
        lambda: api.matches.GetMatch(
            match_pb.GetMatchRequest(match_id=m.match_id, reveal_all=True), timeout=10
        ),
        lambda: next(
            iter(
                api.matches.WatchMatch(
                    match_pb.WatchMatchRequest(match_id=m.match_id, reveal_all=True), timeout=5
                )
            )
        ),
    ):
        with pytest.raises(grpc.RpcError) as err:
            call()
        assert err.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        assert error_info(err.value)["field"] == "reveal_all"
    # ... and allowed once the match is over.
    done = api.matches.ResignMatch(match_pb.ResignMatchRequest(match_id=m.match_id, seat=1), timeout=10).match
    assert done.view == match_pb.MATCH_VIEW_FULL and done.seed_revealed and done.setup.seed != 0
    # provably fair: the seed revealed at the end is the one committed to at creation
    text = f"lictor-seed:{m.match_id}:{done.setup.seed}"
    assert hashlib.sha256(text.encode()).hexdigest() == m.seed_commitment == done.seed_commitment
    full = api.matches.GetMatch(
        match_pb.GetMatchRequest(match_id=m.match_id, reveal_all=True), timeout=10
    ).match
    assert full.view == match_pb.MATCH_VIEW_FULL and next(iter(full.position.record.actions)) == "roll"
    assert json.loads(full.summary.state_json)["bonus"]
