"""Typed Tiberpunk actions (``Action.tiberpunk``): every legal action of many seeded positions maps
to a typed message and back to the very same notation and action, and the server accepts it.

rule: tiberpunk/movement, tiberpunk/interaction-wheel, tiberpunk/gadget-cards
"""

from __future__ import annotations

import random

import grpc
import pytest

from games.core import CHANCE, TERMINAL, GameConfig, get_game
from lictor.v1 import game_service_pb2 as game_pb
from lictor.v1 import position_pb2 as pos_pb
from lictor.v1 import tiberpunk_pb2 as tp_pb
from service.typed import action_from_text, action_text
from tests.service.helpers import all_games, record, violations

pytestmark = pytest.mark.skipif("tiberpunk" not in all_games(), reason="tiberpunk is not registered")


def _positions(seed: int, steps: int):
    game = get_game("tiberpunk")
    players = 2 + seed % 3
    state = game.new_state(GameConfig(players=players), seed)
    rng = random.Random(seed)
    texts: list[str] = []
    for _ in range(steps):
        cp = game.current_player(state)
        if cp == TERMINAL:
            return
        acts = [a for a, _ in game.chance_outcomes(state)] if cp == CHANCE else game.legal_actions(state)
        yield players, tuple(texts), state, acts
        a = acts[rng.randrange(len(acts))]
        texts.append(game.action_to_text(state, a))
        state = game.apply(state, a)


@pytest.mark.parametrize("seed", range(6))
def test_every_legal_action_round_trips(seed):
    """text -> TiberpunkAction -> wire -> text is the identity and parses to the same action."""
    game = get_game("tiberpunk")
    kinds: set[int] = set()
    for _, _, state, acts in _positions(seed, 120):
        for a in acts:
            text = game.action_to_text(state, a)
            typed = action_from_text("tiberpunk", text)
            assert typed is not None, text
            wire = pos_pb.Action.FromString(typed.SerializeToString())
            assert wire.WhichOneof("kind") == "tiberpunk"
            kinds.add(wire.tiberpunk.kind)
            back = action_text("tiberpunk", wire, field="action")
            assert back == text
            assert game.parse_action(state, back) == a
    assert len(kinds) >= 6


def test_typed_tiberpunk_actions_over_grpc(api):
    """GetLegalActions types every action; ApplyAction of the typed action equals the text's."""
    for players, texts, _, _ in _positions(3, 40):
        if len(texts) not in (0, 5, 17, 39):
            continue
        pos = record("tiberpunk", players=players, seed=3, actions=texts)
        legal = api.games.GetLegalActions(game_pb.GetLegalActionsRequest(position=pos), timeout=30).actions
        assert all(item.action.WhichOneof("kind") == "tiberpunk" for item in legal)
        for item in legal[:: max(1, len(legal) // 3)]:
            reply = api.games.ApplyAction(
                game_pb.ApplyActionRequest(position=pos, action=item.action), timeout=30
            )
            assert list(reply.position.record.actions)[-1] == item.text


def test_typed_tiberpunk_action_errors(api):
    pos = record("tiberpunk", players=2)
    cases = [
        (tp_pb.TiberpunkAction(), "action.tiberpunk.kind"),
        (tp_pb.TiberpunkAction(kind=tp_pb.TIBERPUNK_ACTION_KIND_PLACE), "action.tiberpunk.name"),
        (tp_pb.TiberpunkAction(kind=tp_pb.TIBERPUNK_ACTION_KIND_TOKEN), "action.tiberpunk.token"),
        (tp_pb.TiberpunkAction(kind=tp_pb.TIBERPUNK_ACTION_KIND_PLACE, name="nowhere"), "action.tiberpunk"),
    ]
    for typed, field in cases:
        with pytest.raises(grpc.RpcError) as err:
            api.games.ApplyAction(
                game_pb.ApplyActionRequest(position=pos, action=pos_pb.Action(tiberpunk=typed)), timeout=10
            )
        assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert violations(err.value)[0][0] == field


BAD_STATES = [
    # (field of the public form to set, value, public path named) — rule: tiberpunk/general-setup
    (("players", 0, "coins"), -1, "players[0].coins"),
    (("gadget_deck", 0), "laser", "gadget_deck[0]"),
    (("players", 0, "gadgets"), ["flip"] * 5, "gadget_deck"),
    (("phase",), 2, "phase"),
]


@pytest.mark.parametrize(("path", "value", "field"), BAD_STATES)
def test_validate_state_reports_bad_tiberpunk_states(api, path, value, field):
    """ValidateState answers valid=false with the public field (issue 16), never an error."""
    import json

    game = get_game("tiberpunk")
    state = game.new_state(GameConfig(players=2), 3)
    data = game.to_dict(state)
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    reply = api.games.ValidateState(
        game_pb.ValidateStateRequest(position=pos_pb.Position(game="tiberpunk", state_json=json.dumps(data))),
        timeout=10,
    )
    assert not reply.valid and reply.problems
    assert reply.problems[0].field.endswith(field), reply.problems[0]
    good = api.games.ValidateState(
        game_pb.ValidateStateRequest(
            position=pos_pb.Position(game="tiberpunk", state_json=json.dumps(game.to_dict(state)))
        ),
        timeout=10,
    )
    assert good.valid
