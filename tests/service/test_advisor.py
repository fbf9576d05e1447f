"""AdvisorService per registered game: SuggestAction, the Analyze stream, Hint; deadlines, caps, cancel."""

from __future__ import annotations

import threading
import time

import grpc
import pytest

from games.core import CHANCE, GameConfig, as_facts, get_game
from lictor.v1 import advisor_service_pb2 as advisor_pb
from service.client import stubs
from service.limits import Limits
from service.server import create_server
from tests.service.helpers import all_games, error_info, players_for, record, violations


def _decision_record(name: str, seed: int = 1):
    """A record at a seat's decision (chance nodes at the start are resolved)."""
    game = get_game(name)
    state = game.new_state(GameConfig(players=players_for(name)), seed)
    actions = []
    import random

    rng = random.Random(seed)
    while game.current_player(state) == CHANCE:
        a = game.sample_chance(state, rng)
        actions.append(game.action_to_text(state, a))
        state = game.apply(state, a)
    return record(name, seed=seed, actions=tuple(actions)), game, state


@pytest.mark.parametrize("name", all_games())
def test_suggest_action(api, name):
    pos, game, state = _decision_record(name)
    request = advisor_pb.SuggestActionRequest(position=pos, seed=3)
    request.budget.simulations = 16
    reply = api.advisor.SuggestAction(request, timeout=60)
    legal = [game.action_to_text(state, a) for a in game.legal_actions(state)]
    assert reply.action in legal
    assert reply.analysis.final and reply.analysis.seat == game.current_player(state)
    assert reply.analysis.candidates and reply.analysis.simulations >= 1
    again = api.advisor.SuggestAction(request, timeout=60)
    assert again.action == reply.action  # same seed + simulation budget: same answer
    # a budget without a level plays the best move found (no temperature draw)
    assert reply.action == reply.analysis.candidates[0].action
    by_level = api.advisor.SuggestAction(advisor_pb.SuggestActionRequest(position=pos, level=1), timeout=60)
    assert by_level.action in legal


@pytest.mark.parametrize("name", all_games())
def test_analyze_streams_progress_and_a_final_report(api, name):
    pos, _game, _ = _decision_record(name)
    request = advisor_pb.AnalyzeRequest(position=pos, report_every_ms=50, max_candidates=3)
    request.budget.time_s = 0.4
    reports = list(api.advisor.Analyze(request, timeout=30))
    assert reports[-1].analysis.final
    assert all(not r.analysis.final for r in reports[:-1])
    assert len(reports) >= 2
    best = reports[-1].analysis.candidates[0]
    assert len(reports[-1].analysis.candidates) <= 3
    assert best.pv and best.pv[0] == best.action and len(best.value) == players_for(name)


@pytest.mark.parametrize("name", all_games())
def test_hint_gives_top_k_with_reasons(api, name):
    pos, game, state = _decision_record(name)
    request = advisor_pb.HintRequest(position=pos, top_k=2)
    request.budget.simulations = 64
    reply = api.advisor.Hint(request, timeout=60)
    assert 1 <= len(reply.hints) <= 2
    assert [h.rank for h in reply.hints] == list(range(1, len(reply.hints) + 1))
    rows = [list(as_facts(game.explain(state, game.parse_action(state, h.action)))) for h in reply.hints]
    for i, h in enumerate(reply.hints):
        assert h.reasons and all(r.text for r in h.reasons)
        assert h.candidate.action == h.action
        assert h.reasons[0].text == reply.ranked_by  # hints are ranked by the number shown first
        facts = [f.sentence() for f in rows[i]]
        shown = [r.sentence for r in h.reasons[1:] if r.sentence in facts]
        # the game's facts: first those that set it apart from the other hint, each part in the
        # game's order
        rival = {f.label: f.value for f in rows[1 - i]} if len(rows) == 2 else {}
        apart = [f.sentence() for f in rows[i] if rival.get(f.label, f.value) != f.value]
        # (facts that share one sentence, e.g. a home system's planets, resources and influence, are
        # said once)
        ordered = [f for f in facts if f in apart] + [f for f in facts if f not in apart]
        expected = list(dict.fromkeys(ordered))
        assert shown == [f for f in expected if f in shown]


def test_advisor_bad_inputs(api):
    chance = record("pig", actions=("roll",))
    with pytest.raises(grpc.RpcError) as err:
        api.advisor.SuggestAction(advisor_pb.SuggestActionRequest(position=chance), timeout=10)
    assert err.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    over = record("pig", actions=("roll", "d6", "roll", "d6", "hold"))
    with pytest.raises(grpc.RpcError) as err:
        api.advisor.Hint(advisor_pb.HintRequest(position=over), timeout=10)
    assert err.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    with pytest.raises(grpc.RpcError) as err:
        api.advisor.SuggestAction(
            advisor_pb.SuggestActionRequest(position=record("pig"), level=11), timeout=10
        )
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT and violations(err.value)[0][0] == "level"
    with pytest.raises(grpc.RpcError) as err:
        api.advisor.Hint(advisor_pb.HintRequest(position=record("pig"), top_k=99), timeout=10)
    assert violations(err.value)[0][0] == "top_k"
    big = advisor_pb.SuggestActionRequest(position=record("pig"))
    big.budget.simulations = 10**9
    with pytest.raises(grpc.RpcError) as err:
        api.advisor.SuggestAction(big, timeout=10)
    assert err.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert error_info(err.value)["field"] == "budget.simulations"
    slow = advisor_pb.AnalyzeRequest(position=record("pig"))
    slow.budget.time_s = 10**6
    with pytest.raises(grpc.RpcError) as err:
        list(api.advisor.Analyze(slow, timeout=10))
    assert err.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED


def test_deadline_bounds_the_search_and_returns_the_best_so_far(api):
    request = advisor_pb.SuggestActionRequest(position=record("pig"))
    request.budget.time_s = 10.0
    t0 = time.monotonic()
    reply = api.advisor.SuggestAction(request, timeout=1.0)
    elapsed = time.monotonic() - t0
    assert reply.action in ("roll", "hold")
    assert elapsed < 1.0
    assert reply.analysis.simulations > 0


def test_level_budget_is_bounded_by_the_deadline(api):
    request = advisor_pb.SuggestActionRequest(position=record("pig"), level=10)
    t0 = time.monotonic()
    reply = api.advisor.SuggestAction(request, timeout=1.0)
    assert time.monotonic() - t0 < 1.0 and reply.action


def test_cancelled_call_stops_its_search(api):
    request = advisor_pb.AnalyzeRequest(position=record("pig"), report_every_ms=50)
    request.budget.time_s = 15.0
    call = api.advisor.Analyze(request, timeout=30)
    first = next(call)
    assert not first.analysis.final
    call.cancel()
    # The search's slot is released soon after (the gate is not held by a dead call).
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        quick = advisor_pb.SuggestActionRequest(position=record("pig"))
        quick.budget.simulations = 4
        try:
            api.advisor.SuggestAction(quick, timeout=5)
            break
        except grpc.RpcError:
            time.sleep(0.05)


def test_concurrent_search_cap_answers_resource_exhausted(tmp_path):
    srv, port = create_server(
        "127.0.0.1:0", db_path=tmp_path / "c.db", limits=Limits(max_concurrent_searches=1)
    )
    ch = grpc.insecure_channel(f"127.0.0.1:{port}")
    api = stubs(ch)
    try:
        long = advisor_pb.AnalyzeRequest(position=record("pig"), report_every_ms=50)
        long.budget.time_s = 5.0
        call = api.advisor.Analyze(long, timeout=10)
        next(call)  # the one slot is taken
        quick = advisor_pb.SuggestActionRequest(position=record("pig"))
        quick.budget.simulations = 4
        with pytest.raises(grpc.RpcError) as err:
            api.advisor.SuggestAction(quick, timeout=5)
        assert err.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        call.cancel()
    finally:
        ch.close()
        srv.stop(None).wait(5)
        srv.close()


def test_many_parallel_suggestions(api):
    errors = []

    def go():
        r = advisor_pb.SuggestActionRequest(position=record("pig"))
        r.budget.simulations = 8
        try:
            api.advisor.SuggestAction(r, timeout=20)
        except grpc.RpcError as exc:
            errors.append(exc.code())

    ts = [threading.Thread(target=go) for _ in range(8)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert set(errors) <= {grpc.StatusCode.RESOURCE_EXHAUSTED}


def test_a_cancelled_stream_leaves_no_pending_task(api, caplog):
    """A caller gone while its Analyze stream waits for the next report: the stream's pending read
    of its reports is cancelled with the search (it was left pending and later collected with its
    queue: asyncio logged "Task was destroyed but it is pending!", 11 times in a 50,000-call fuzz)."""
    import gc
    import logging

    caplog.set_level(logging.ERROR, logger="asyncio")
    for _ in range(3):
        request = advisor_pb.AnalyzeRequest(position=record("pig"), report_every_ms=1000)
        request.budget.time_s = 15.0
        call = api.advisor.Analyze(request, timeout=30)
        next(call)  # the first report; the stream now waits up to 1 s for the next
        time.sleep(0.2)
        call.cancel()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and "destroyed" not in caplog.text:
        gc.collect()
        time.sleep(0.2)
    assert "Task was destroyed but it is pending" not in caplog.text
