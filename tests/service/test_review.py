"""Hints at chance moments and the game review over the API (issue 30), as a client sees them."""

from __future__ import annotations

import random
from typing import Any

import grpc
import pytest

from games.core import CHANCE, TERMINAL, GameConfig, get_game
from lictor.v1 import advisor_service_pb2 as advisor_pb
from lictor.v1 import game_service_pb2 as game_pb
from lictor.v1 import position_pb2 as pos_pb
from tests.service.helpers import record, violations


def _played(name: str, seed: int, want, players: int = 2, limit: int = 3000) -> tuple[list[str], Any]:
    """A random game's actions up to the first position where ``want(state)`` holds."""
    game = get_game(name)
    rng = random.Random(seed)
    state = game.new_state(GameConfig(players=players), seed)
    actions: list[str] = []
    for _ in range(limit):
        if want(state):
            return actions, state
        player = game.current_player(state)
        if player == TERMINAL:
            break
        action = (
            game.sample_chance(state, rng)
            if player == CHANCE
            else rng.choice(list(game.legal_actions(state)))
        )
        actions.append(game.action_to_text(state, action))
        state = game.apply(state, action)
    raise AssertionError("no such position")


def test_hint_at_a_chance_node_tells_each_outcomes_odds(api):
    """rule: tiberpunk/stage-1-quests - at a quest roll, the hint says the odds that the roll meets
    the challenge and what each outcome means for the quester, instead of FAILED_PRECONDITION."""
    from games.tiberpunk.state import QUEST

    game = get_game("tiberpunk")

    def quest_roll(s):
        return game.current_player(s) == CHANCE and s.ctx is not None and s.ctx.kind == QUEST and s.ctx.ra > 0

    for seed in range(40):
        try:
            actions, state = _played("tiberpunk", seed, quest_roll)
            break
        except AssertionError:
            continue
    reply = api.advisor.Hint(
        advisor_pb.HintRequest(position=record("tiberpunk", seed=seed, actions=tuple(actions)), top_k=5),
        timeout=60,
    )
    assert reply.chance and reply.ranked_by == "probability" and reply.seat == state.seat
    odds = [h.reasons[0].value for h in reply.hints]
    assert odds == sorted(odds, reverse=True) and sum(odds) == pytest.approx(1.0)
    assert len(reply.hints) == 2  # the roll meets the challenge, or it does not
    texts = " ".join(r.sentence for h in reply.hints for r in h.reasons)
    assert "meets the challenge" in texts and "misses the challenge" in texts
    assert reply.why.startswith("chance decides")
    position = record("tiberpunk", seed=seed, actions=tuple(actions))
    request = game_pb.GetLegalActionsRequest(position=position)
    legal = {a.text for a in api.games.GetLegalActions(request, timeout=30).actions}
    assert all(h.action in legal for h in reply.hints)


def test_hint_at_a_chance_node_for_a_named_seat(api):
    reply = api.advisor.Hint(
        advisor_pb.HintRequest(position=record("pig", actions=("roll",)), seat=1), timeout=60
    )
    assert reply.chance and reply.seat == 1 and reply.hints
    with pytest.raises(grpc.RpcError) as err:
        api.advisor.Hint(
            advisor_pb.HintRequest(position=record("pig", actions=("roll",)), seat=7), timeout=60
        )
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT and violations(err.value)[0][0] == "seat"


def test_review_reports_every_move_and_explains_the_worst(api):
    """Each seat's estimate after every move, then the moves that gave up most with a hint's reason."""
    actions, _ = _played("tiberius", 4, lambda s: s.turn >= 3, players=2)
    request = advisor_pb.ReviewRequest(
        position=record("tiberius", players=2, seed=4, actions=tuple(actions)),
        budget=advisor_pb.SearchBudget(simulations=40),
        seed=1,
        worst=2,
    )
    reports = list(api.advisor.Review(request, timeout=120))
    moves, last = reports[:-1], reports[-1]
    assert last.final and last.moves == len(actions) and not last.stopped_by
    assert [m.move.number for m in moves] == list(range(1, len(actions) + 1))
    assert all(len(m.move.values) == 2 and m.move.log_line for m in moves)
    assert [m.move.action for m in moves] == actions
    assert len(last.start_values) == 2 and 1 <= len(last.mistakes) <= 2
    losses = [m.loss for m in last.mistakes]
    assert losses == sorted(losses, reverse=True) and losses[0] > 0
    for mistake in last.mistakes:
        assert mistake.best_action != mistake.played
        assert mistake.why.startswith(f"{mistake.best_action} over {mistake.played}: ")
        assert mistake.reasons and mistake.reasons[0].sentence


def test_review_needs_a_record(api):
    state = pos_pb.Position(
        game="pig",
        state_text=get_game("pig").state_to_text(get_game("pig").new_state(GameConfig(players=2), 1)),
    )
    with pytest.raises(grpc.RpcError) as err:
        list(api.advisor.Review(advisor_pb.ReviewRequest(position=state), timeout=30))
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert violations(err.value)[0][0] == "position.record"
