"""GameService per registered game (and the fixture game): happy paths, bad inputs, and a
hypothesis test that drives random legal sequences through ApplyAction against the engine."""

from __future__ import annotations

import json
import random
from typing import Any

import grpc
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.core import CHANCE, TERMINAL, GameConfig, get_game
from lictor.v1 import game_service_pb2 as game_pb
from lictor.v1 import position_pb2 as pos_pb
from tests.service.helpers import all_games, error_info, players_for, record, violations

GAMES = all_games()


def _apply(api, position, text, **kw):
    return api.games.ApplyAction(
        game_pb.ApplyActionRequest(position=position, action=pos_pb.Action(text=text), **kw), timeout=30
    )


@pytest.mark.parametrize("name", GAMES)
def test_new_game_matches_the_engine(api, name):
    players = players_for(name)
    request = game_pb.NewGameRequest(game=name)
    request.setup.players = players
    request.setup.seed = 7
    reply = api.games.NewGame(request, timeout=30)
    game = get_game(name)
    state = game.new_state(GameConfig(players=players), 7)
    assert reply.position.WhichOneof("kind") == "record"
    assert list(reply.position.record.actions) == []
    assert json.loads(reply.summary.state_json) == json.loads(json.dumps(game.to_dict(state)))
    assert reply.summary.players == players
    assert reply.summary.current_player == game.current_player(state)
    assert reply.summary.state_text == game.state_to_text(state)


@pytest.mark.parametrize("name", GAMES)
def test_legal_actions_and_apply_in_every_position_form(api, name):
    game = get_game(name)
    pos = record(name, seed=3)
    legal = api.games.GetLegalActions(game_pb.GetLegalActionsRequest(position=pos), timeout=30)
    assert legal.actions
    state = game.new_state(GameConfig(players=players_for(name)), 3)
    assert [a.text for a in legal.actions] == [
        game.action_to_text(state, a) for a in game.legal_actions(state)
    ]
    first = legal.actions[0].text
    expected = game.apply(state, game.parse_action(state, first))
    forms = [
        pos,
        pos_pb.Position(game=name, state_json=json.dumps(game.to_dict(state))),
        pos_pb.Position(game=name, state_text=game.state_to_text(state)),
    ]
    for form in forms:
        reply = _apply(api, form, first)
        kind = form.WhichOneof("kind")
        assert reply.position.WhichOneof("kind") == kind
        assert json.loads(reply.summary.state_json) == json.loads(json.dumps(game.to_dict(expected)))
        assert reply.events[0].action == first
        assert reply.events[0].kind in (pos_pb.EVENT_KIND_ACTION, pos_pb.EVENT_KIND_CHANCE)
    assert list(_apply(api, pos, first).position.record.actions) == [first]


@pytest.mark.parametrize("name", GAMES)
def test_validate_state(api, name):
    ok = api.games.ValidateState(game_pb.ValidateStateRequest(position=record(name)), timeout=30)
    assert ok.valid and not ok.problems
    bad = api.games.ValidateState(
        game_pb.ValidateStateRequest(position=record(name, actions=("not-a-move!!",))), timeout=30
    )
    assert not bad.valid
    assert bad.problems[0].field == "position.record.actions[0]"
    junk = api.games.ValidateState(
        game_pb.ValidateStateRequest(position=pos_pb.Position(game=name, state_json='{"nope": 1}')),
        timeout=30,
    )
    assert not junk.valid and junk.problems[0].field.startswith("position.state_json")


def test_chance_nodes_list_probabilities_and_resolve_on_request(api):
    pos = record("pig", actions=("roll",))
    legal = api.games.GetLegalActions(game_pb.GetLegalActionsRequest(position=pos), timeout=10)
    assert legal.summary.chance and legal.summary.current_player == CHANCE
    assert abs(sum(a.probability for a in legal.actions) - 1) < 1e-9
    reply = _apply(api, record("pig"), "roll", resolve_chance=True, chance_seed=5)
    kinds = [e.kind for e in reply.events]
    assert kinds[0] == pos_pb.EVENT_KIND_ACTION and kinds[1] == pos_pb.EVENT_KIND_CHANCE
    assert reply.events[1].action.startswith("d")
    assert not reply.summary.chance
    assert len(reply.position.record.actions) == 2
    again = _apply(api, record("pig"), "roll", resolve_chance=True, chance_seed=5)
    assert again.position == reply.position  # same seed, same dice


def test_game_over_event(api):
    actions = ["roll", "d6", "roll", "d6", "hold"]  # seat 0 banks 12 = target
    reply = _apply(api, record("pig", actions=tuple(actions[:-1])), "hold")
    assert reply.summary.terminal and reply.summary.current_player == TERMINAL
    assert reply.events[-1].kind == pos_pb.EVENT_KIND_GAME_OVER
    assert len(reply.events[-1].returns) == 2


# ----------------------------------------------------------------------------------- bad inputs
def _err(call, request):
    with pytest.raises(grpc.RpcError) as err:
        call(request, timeout=10)
    return err.value


BAD = [
    # (description, request builder, status, field)
    (
        "no position",
        game_pb.GetLegalActionsRequest,
        grpc.StatusCode.INVALID_ARGUMENT,
        "position.game",
    ),
    (
        "empty position",
        lambda: game_pb.GetLegalActionsRequest(position=pos_pb.Position(game="pig")),
        grpc.StatusCode.INVALID_ARGUMENT,
        "position.kind",
    ),
    (
        "unknown game",
        lambda: game_pb.GetLegalActionsRequest(
            position=record("pig").__class__(game="nope", state_json="{}")
        ),
        grpc.StatusCode.NOT_FOUND,
        "position.game",
    ),
    (
        "no players",
        lambda: game_pb.GetLegalActionsRequest(
            position=pos_pb.Position(game="pig", record=pos_pb.GameRecord(setup=pos_pb.GameSetup()))
        ),
        grpc.StatusCode.INVALID_ARGUMENT,
        "position.record.setup.players",
    ),
    (
        "too many players",
        lambda: game_pb.GetLegalActionsRequest(position=record("pig", players=7)),
        grpc.StatusCode.INVALID_ARGUMENT,
        "position.record.setup.players",
    ),
    (
        "unparsable record action",
        lambda: game_pb.GetLegalActionsRequest(position=record("pig", actions=("jump",))),
        grpc.StatusCode.INVALID_ARGUMENT,
        "position.record.actions[0]",
    ),
    (
        "illegal record action",
        lambda: game_pb.GetLegalActionsRequest(position=record("pig", actions=("roll", "hold"))),
        grpc.StatusCode.INVALID_ARGUMENT,
        "position.record.actions[1]",
    ),
    (
        "state_json not JSON",
        lambda: game_pb.GetLegalActionsRequest(position=pos_pb.Position(game="pig", state_json="{")),
        grpc.StatusCode.INVALID_ARGUMENT,
        "position.state_json",
    ),
    (
        "state_json missing fields",
        lambda: game_pb.GetLegalActionsRequest(position=pos_pb.Position(game="pig", state_json="{}")),
        grpc.StatusCode.INVALID_ARGUMENT,
        "position.state_json",
    ),
    (
        "state_text garbage",
        lambda: game_pb.GetLegalActionsRequest(position=pos_pb.Position(game="pig", state_text="garbage")),
        grpc.StatusCode.INVALID_ARGUMENT,
        "position.state_text",
    ),
]


@pytest.mark.parametrize(("what", "build", "code", "field"), BAD, ids=[b[0] for b in BAD])
def test_bad_position_inputs(api, what, build, code, field):
    err = _err(api.games.GetLegalActions, build())
    assert err.code() == code, err.details()
    got = violations(err)[0][0] if code == grpc.StatusCode.INVALID_ARGUMENT else error_info(err)["field"]
    assert got == field, err.details()


def test_bad_option(api):
    request = game_pb.NewGameRequest(game="pig")
    request.setup.players = 2
    request.setup.options["target"].text = "high"
    err = _err(api.games.NewGame, request)
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert violations(err)[0][0] == "setup.options.target"
    request = game_pb.NewGameRequest(game="pig")
    request.setup.players = 2
    request.setup.options["speed"].integer = 3
    err = _err(api.games.NewGame, request)
    assert violations(err)[0][0] == "setup.options.speed"


def test_bad_actions(api):
    err = _err(api.games.ApplyAction, game_pb.ApplyActionRequest(position=record("pig")))
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT and violations(err)[0][0] == "action"
    err = _err(
        api.games.ApplyAction,
        game_pb.ApplyActionRequest(position=record("pig"), action=pos_pb.Action(text="fly")),
    )
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT and violations(err)[0][0] == "action.text"
    assert "roll" in err.details()  # says what would be legal
    err = _err(
        api.games.ApplyAction,
        game_pb.ApplyActionRequest(position=record("pig"), action=pos_pb.Action(text="d3")),
    )
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT and violations(err)[0][0] == "action.text"


def test_action_after_the_end_is_failed_precondition(api):
    over = record("pig", actions=("roll", "d6", "roll", "d6", "hold"))
    err = _err(
        api.games.ApplyAction, game_pb.ApplyActionRequest(position=over, action=pos_pb.Action(text="roll"))
    )
    assert err.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert error_info(err)["field"] == "action.text"


def test_record_limit(api):
    from service.convert import MAX_RECORD_ACTIONS

    pos = record("pig", actions=("roll",) * (MAX_RECORD_ACTIONS + 1))
    err = _err(api.games.GetLegalActions, game_pb.GetLegalActionsRequest(position=pos))
    # a list over its documented cap is a malformed request (docs/service.md, "Limits")
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert violations(err)[0][0] == "position.record.actions"


# ----------------------------------------------------------------------------------- property
@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**20), steps=st.integers(1, 25))
def test_random_legal_sequences_match_the_engine(api, name, seed, steps):
    """ApplyAction over the wire (record and state_json forms) agrees with the in-process engine."""
    game = get_game(name)
    players = players_for(name)
    state = game.new_state(GameConfig(players=players), seed)
    rng = random.Random(seed)
    pos_record = record(name, seed=seed)
    pos_json = pos_pb.Position(game=name, state_json=json.dumps(game.to_dict(state)))
    for _ in range(steps):
        if game.current_player(state) == TERMINAL:
            break
        legal = game.legal_actions(state)
        action = legal[rng.randrange(len(legal))]
        text = game.action_to_text(state, action)
        state = game.apply(state, action)
        expected = json.loads(json.dumps(game.to_dict(state)))
        reply = _apply(api, pos_record, text)
        assert json.loads(reply.summary.state_json) == expected
        assert reply.summary.current_player == game.current_player(state)
        pos_record = reply.position
        reply_json = _apply(api, pos_json, text)
        assert json.loads(reply_json.position.state_json) == expected
        pos_json = reply_json.position


# ----------------------------------------------------------------------------------- typed positions
from service.typed import form_of, state_to_pb  # noqa: E402

TYPED: list[Any] = [g for g in GAMES if form_of(g) is not None] or [
    pytest.param("", marks=pytest.mark.skip(reason="none registered"))
]


@pytest.mark.parametrize("name", TYPED)
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**20), steps=st.integers(0, 40))
def test_typed_positions_round_trip_and_apply(api, name, seed, steps):
    """A typed position maps to exactly the game's state, and ApplyAction answers in the typed form."""
    game = get_game(name)
    state = game.new_state(GameConfig(players=players_for(name)), seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.current_player(state) == TERMINAL:
            break
        legal = game.legal_actions(state)
        state = game.apply(state, legal[rng.randrange(len(legal))])
    pos = state_to_pb(game, name, state)
    from service.typed import state_from_pb

    assert game.to_dict(state_from_pb(game, pos, field="position")) == game.to_dict(state)
    if game.current_player(state) == TERMINAL:
        return
    legal = game.legal_actions(state)
    text = game.action_to_text(state, legal[0])
    reply = _apply(api, pos, text)
    kind = form_of(name).case  # type: ignore[union-attr]
    assert reply.position.WhichOneof("kind") == kind
    assert json.loads(reply.summary.state_json) == json.loads(
        json.dumps(game.to_dict(game.apply(state, legal[0])))
    )


def test_typed_position_errors_name_the_field(api):
    if "tiberius" not in GAMES:
        pytest.skip("tiberius is not registered")
    game = get_game("tiberius")
    pos = state_to_pb(game, "tiberius", game.new_state(GameConfig(players=3), 1))
    pos.tiberius.phase = "party"
    with pytest.raises(grpc.RpcError) as err:
        api.games.GetLegalActions(game_pb.GetLegalActionsRequest(position=pos), timeout=10)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert violations(err.value)[0][0] == "position.tiberius.phase"
    wrong = pos_pb.Position(game="pig", tiberius=pos.tiberius)
    with pytest.raises(grpc.RpcError) as err:
        api.games.GetLegalActions(game_pb.GetLegalActionsRequest(position=wrong), timeout=10)
    assert violations(err.value)[0][0] == "position.tiberius"


# ----------------------------------------------------------------------------------- content packs
def test_content_packs_are_refused_without_a_content_root(api):
    request = game_pb.NewGameRequest(game="pig", content_pack="mypack")
    request.setup.players = 2
    with pytest.raises(grpc.RpcError) as err:
        api.games.NewGame(request, timeout=10)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert violations(err.value)[0][0] == "content_pack"


def test_content_pack_under_the_content_root(tmp_path):
    from pathlib import Path

    from service.client import stubs
    from service.server import create_server

    if "tiberius" not in GAMES:
        pytest.skip("tiberius is not registered")
    root = Path(__file__).resolve().parents[2] / "games" / "tiberius"
    srv, port = create_server("127.0.0.1:0", db_path=tmp_path / "p.db", content_root=root)
    ch = grpc.insecure_channel(f"127.0.0.1:{port}")
    api = stubs(ch)
    try:
        request = game_pb.NewGameRequest(game="tiberius", content_pack="content")
        request.setup.players = 3
        reply = api.games.NewGame(request, timeout=30)
        assert reply.position.content_pack == "content"
        legal = api.games.GetLegalActions(game_pb.GetLegalActionsRequest(position=reply.position), timeout=30)
        assert legal.actions
        for bad in ("../../..", "nope"):
            request.content_pack = bad
            with pytest.raises(grpc.RpcError) as err:
                api.games.NewGame(request, timeout=10)
            assert violations(err.value)[0][0] == "content_pack"
    finally:
        ch.close()
        srv.stop(None).wait(5)
        srv.close()


def test_max_message_size(api):
    from lictor.v1 import diagnostics_service_pb2 as diag_pb

    with pytest.raises(grpc.RpcError) as err:
        api.diagnostics.Echo(diag_pb.EchoRequest(payload=b"x" * (17 * 1024 * 1024)), timeout=30)
    assert err.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED


@pytest.mark.skipif("tiberius" not in GAMES, reason="tiberius is not registered")
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**20), steps=st.integers(0, 60))
def test_typed_actions_match_their_notation(api, seed, steps):
    """Every legal action comes typed too, and applying the typed action equals applying the text."""
    game = get_game("tiberius")
    state = game.new_state(GameConfig(players=3), seed)
    rng = random.Random(seed)
    actions = []
    for _ in range(steps):
        if game.current_player(state) == TERMINAL:
            break
        legal = game.legal_actions(state)
        a = legal[rng.randrange(len(legal))]
        actions.append(game.action_to_text(state, a))
        state = game.apply(state, a)
    if game.current_player(state) == TERMINAL:
        return
    pos = record("tiberius", players=3, seed=seed, actions=tuple(actions))
    legal = api.games.GetLegalActions(game_pb.GetLegalActionsRequest(position=pos), timeout=30).actions
    for item in legal[:: max(1, len(legal) // 4)]:
        assert item.action.WhichOneof("kind") == "tiberius"
        by_typed = api.games.ApplyAction(
            game_pb.ApplyActionRequest(position=pos, action=item.action), timeout=30
        )
        assert list(by_typed.position.record.actions)[-1] == item.text


def test_typed_action_errors(api):
    from lictor.v1 import tiberius_pb2 as tib_pb

    if "tiberius" not in GAMES:
        pytest.skip("tiberius is not registered")
    pos = record("tiberius", players=3)
    bad = pos_pb.Action(tiberius=tib_pb.TiberiusAction())
    with pytest.raises(grpc.RpcError) as err:
        api.games.ApplyAction(game_pb.ApplyActionRequest(position=pos, action=bad), timeout=10)
    assert violations(err.value)[0][0] == "action.tiberius.kind"
    illegal = pos_pb.Action(
        tiberius=tib_pb.TiberiusAction(kind=tib_pb.TIBERIUS_ACTION_KIND_PICK, card="HIS01")
    )
    with pytest.raises(grpc.RpcError) as err:
        api.games.ApplyAction(game_pb.ApplyActionRequest(position=pos, action=illegal), timeout=10)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert violations(err.value)[0][0] == "action.tiberius"
    with pytest.raises(grpc.RpcError) as err:
        api.games.ApplyAction(game_pb.ApplyActionRequest(position=record("pig"), action=bad), timeout=10)
    assert violations(err.value)[0][0] == "action"


def test_typed_tiberpunk_position_errors(api):
    if "tiberpunk" not in GAMES:
        pytest.skip("tiberpunk is not registered")
    game = get_game("tiberpunk")
    pos = state_to_pb(game, "tiberpunk", game.new_state(GameConfig(players=2), 1))
    reply = api.games.GetLegalActions(game_pb.GetLegalActionsRequest(position=pos), timeout=10)
    assert reply.actions
    pos.tiberpunk.phase = 99
    with pytest.raises(grpc.RpcError) as err:
        api.games.GetLegalActions(game_pb.GetLegalActionsRequest(position=pos), timeout=10)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert violations(err.value)[0][0].startswith("position.tiberpunk")


# ----------------------------------------------------------------------------------- schemas
@pytest.mark.parametrize("name", GAMES)
def test_get_schema_serves_the_public_forms(api, name):
    """GetSchema answers every game's state schema (draft 2020-12) and its puzzles' parameters, and
    a state the server gives validates against it."""
    from jsonschema import Draft202012Validator

    reply = api.games.GetSchema(game_pb.GetSchemaRequest(game=name), timeout=30)
    schema = json.loads(reply.state_schema_json)
    Draft202012Validator.check_schema(schema)
    new = api.games.NewGame(
        game_pb.NewGameRequest(game=name, setup=pos_pb.GameSetup(players=players_for(name)))
    )
    assert not list(Draft202012Validator(schema).iter_errors(json.loads(new.summary.state_json)))
    if reply.score_sheet_schema_json:
        Draft202012Validator.check_schema(json.loads(reply.score_sheet_schema_json))
    for puzzle in reply.puzzles:
        assert puzzle.kind.startswith(f"{name}.") and puzzle.summary
        Draft202012Validator.check_schema(json.loads(puzzle.params_schema_json))


def test_get_schema_of_an_unknown_game_is_not_found(api):
    with pytest.raises(grpc.RpcError) as err:
        api.games.GetSchema(game_pb.GetSchemaRequest(game="chess"), timeout=10)
    assert err.value.code() == grpc.StatusCode.NOT_FOUND
