"""The JSON form: from_dict rejects any bad input with InvalidStateError naming a field, nothing else."""

from __future__ import annotations

import contextlib
import copy
import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.core import GameConfig
from games.cyberverse import CyberverseGame
from games.errors import InvalidStateError, NotationError
from tests.cyberverse.helpers import play_until

GAME = CyberverseGame()
BASE = GAME.to_dict(play_until(GAME, 3, 4, lambda s: s.fight is not None and s.actor >= 0))

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(data, dict):
        for k, v in data.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += _paths(v, (*prefix, i))
    return out


PATHS = [p for p in _paths(BASE) if p]


def _set(data: Any, path: tuple[Any, ...], value: Any) -> None:
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(0, len(PATHS) - 1), value=JSON)
def test_mutated_dicts_raise_only_invalid_state(index: int, value: Any) -> None:
    data = copy.deepcopy(BASE)
    _set(data, PATHS[index], value)
    try:
        state = GAME.from_dict(data)
    except InvalidStateError as exc:
        assert exc.field
        return
    assert GAME.to_dict(state)["players"] == state.players


@settings(max_examples=30, deadline=None)
@given(value=JSON)
def test_random_json_raises_only_invalid_state(value: Any) -> None:
    with contextlib.suppress(InvalidStateError):
        GAME.from_dict(value)


def test_deep_nesting_and_missing_keys() -> None:
    deep: Any = []
    for _ in range(1000):
        deep = [deep]
    data = copy.deepcopy(BASE)
    data["orgs"] = deep
    try:
        GAME.from_dict(data)
        raise AssertionError("accepted")
    except InvalidStateError as exc:
        assert exc.field.startswith("orgs")
    for key in list(BASE)[:8]:
        data = copy.deepcopy(BASE)
        del data[key]
        try:
            GAME.from_dict(data)
            raise AssertionError("accepted")
        except InvalidStateError:
            pass


def test_parse_state_raises_only_notation_error() -> None:
    rng = random.Random(1)
    text = GAME.state_to_text(GAME.new_state(GameConfig(players=2), 0))
    for _ in range(50):
        i = rng.randrange(len(text))
        bad = text[:i] + rng.choice(['"', "]", "9", "x", "-"]) + text[i + 1 :]
        with contextlib.suppress(NotationError):
            GAME.parse_state(bad)
    assert GAME.parse_state(text) == GAME.from_dict(json.loads(text))
