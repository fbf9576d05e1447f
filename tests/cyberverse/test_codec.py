"""The JSON form: from_dict rejects any bad input with InvalidStateError naming a field, nothing else."""

from __future__ import annotations

import contextlib
import copy
import json
import random
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.core import GameConfig
from games.cyberverse import CyberverseGame
from games.cyberverse.state import NO_CTX, State
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
        assert exc.field.startswith("state.orgs")
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


def _reached(turn: int) -> Callable[[State], bool]:
    return lambda s: s.turn >= turn and s.actor >= 0


STATES = [
    GAME.to_dict(play_until(GAME, p, seed, _reached(k))) for p, seed, k in ((2, 1, 2), (3, 2, 3), (4, 3, 2))
]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    which=st.integers(0, len(STATES) - 1),
    index=st.integers(0, 10_000),
    value=st.integers(-3, 12) | st.none() | st.sampled_from(["S01", "AG03", "W02", "T05", "unknown"]),
)
def test_accepted_states_raise_only_lictor_errors(which: int, index: int, value: Any) -> None:
    """A state from_dict accepts never makes a Game method raise anything but a LictorError."""
    from games.core import REFEREE
    from games.errors import LictorError

    data = copy.deepcopy(STATES[which])
    paths = [p for p in _paths(data) if p]
    _set(data, paths[index % len(paths)], value)
    try:
        state = GAME.from_dict(data)
    except InvalidStateError:
        return
    try:
        legal = list(GAME.legal_actions(state))
        GAME.describe(state, REFEREE)
        GAME.render(state, 0)
        GAME.heuristic(state)
        for a in legal[:5]:
            GAME.log_line(state, a)
            GAME.explain(state, a)
            GAME.apply(state, a)
    except LictorError:
        pass


def test_public_form_matches_its_schema() -> None:
    """to_dict of states from random play validates against state_schema (draft 2020-12)."""
    import jsonschema

    schema = GAME.state_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for data in STATES:
        validator.validate(data)
    validator.validate(BASE)
    assert BASE["orgs"][0]["story"] in {s.id for s in GAME.content_pack.stories}


def _flow_states() -> list[State]:
    """States of seeded random games (2, 3 and 4 players, 12 turns: random play needs the opt-in cap
    to end) covering every step of the flow."""
    states = []
    for players in (2, 3, 4):
        rng = random.Random(players)
        s = GAME.new_state(GameConfig(players=players, options={"max_turns": 12}), players)
        while GAME.current_player(s) != -2:
            states.append(s)
            a = (
                GAME.sample_chance(s, rng)
                if GAME.current_player(s) == -1
                else rng.choice(list(GAME.legal_actions(s)))
            )
            s = GAME.apply_trusted(s, a)
    return states


def test_flow_reads_in_words() -> None:
    """The flow of the turn (ctx) is written in the rulebook's words: Agents by sheet id, districts
    and slots from 1, the investigation stage, stores and Ambush effects by name, the Mission under
    test by its Investigation card; only the fields in use; it reads back to the same state."""
    c = GAME.content_pack
    sheets = set(c.sheet_ids)
    seen_keys: set[str] = set()
    for s in _flow_states():
        data = GAME.to_dict(s)
        ctx = data["ctx"]
        seen_keys |= set(ctx)
        assert GAME.from_dict(data) == s
        assert not {"mp", "visited", "xp"} & set(ctx)
        if data["phase"] in ("activation", "investigation"):
            assert set(ctx.get("queue", [])) <= sheets
        if "agent" in ctx:
            assert ctx["agent"] in sheets
        if data["phase"] == "investigation":
            assert ctx["stage"] in ("ambush", "combat", "hacking", "investigation", "influence")
        if "mission" in ctx:
            seat, where = ctx["seat"], ctx["mission"]["investigation"] - 1
            assert ctx["mission"]["card"] == data["orgs"][seat]["cases"][where]
        if "district" in ctx:
            assert 1 <= ctx["district"] <= 5
        if s.ctx == NO_CTX:
            assert ctx == {}
    assert {"queue", "agent", "movement_points", "stage", "store", "slot", "mission"} <= seen_keys


def test_flow_fields_are_validated() -> None:
    """A ctx field the flow does not have, or a value of the wrong kind, is named in the error."""
    for field, value, where in [
        ("mp", 3, "state.ctx.mp"),
        ("stage", "lunch", "state.ctx.stage"),
        ("store", "bakery", "state.ctx.store"),
        ("queue", ["nobody"], "state.ctx.queue"),
        ("mission", {"investigation": 0, "mission": 1}, "state.ctx.mission.investigation"),
        ("districts_visited", [9], "state.ctx.districts_visited[0]"),
    ]:
        data = copy.deepcopy(BASE)
        data["ctx"] = {**data["ctx"], field: value}
        if field == "queue":
            data["phase"] = "activation"
        try:
            GAME.from_dict(data)
        except InvalidStateError as exc:
            assert exc.field.startswith(where), (field, exc.field)
        else:
            raise AssertionError(f"ctx.{field} = {value!r} was accepted")
