"""The public form declared once (``games.core.form``, issue 32): the JSON Schema, the validation
errors (the full field path, the bad value clipped, what is legal) and the decoding all come from one
declaration; the declared games' states round-trip through ``to_dict`` / ``from_dict``."""

from __future__ import annotations

import functools
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from games.core import CHANCE, TERMINAL, GameConfig, get_game
from games.core.form import (
    AnyOf,
    Bool,
    Const,
    Form,
    Id,
    Int,
    ListOf,
    MapOf,
    Null,
    Obj,
    OneOf,
    Ref,
    Tuple,
    show,
)
from games.errors import InvalidStateError

CARD = OneOf(("HIS01", "HIS02", "GAL01", "GAL02"), what="a career card id", index=True)
PLAYER = Obj(
    {
        "coins": Int(0, 99, description="coins held"),
        "hand": ListOf(CARD, max=3, description="in the order drawn"),
        "played": AnyOf((CARD, Const("joker", -2), Null(-1)), description="this turn's card"),
        "stock": Int(0, 40, optional=True),
        "ready": Bool(default=False),
        "tile": AnyOf((Id((), pattern="^([0-9]{1,3}|hidden)$", what="a tile number or 'hidden'"), Null(""))),
        "tasks": MapOf(
            OneOf(("1A", "2B")), ListOf(OneOf(("defeat", "network")), max=2), max=2, optional=True
        ),
    }
)
FORM = Form(
    "toy",
    "state",
    Obj({"players": ListOf(Ref("player", PLAYER), 1, 4, rule="toy/setup"), "phase": OneOf(("day", "night"))}),
    title="A toy position",
)
GOOD = {
    "players": [
        {
            "coins": 3,
            "hand": ["HIS02", "GAL01"],
            "played": None,
            "stock": 7,
            "ready": True,
            "tile": "26",
            "tasks": {"2B": ["network"], "1A": []},
        },
        {"coins": 0, "hand": [], "played": "joker", "ready": False, "tile": None},
    ],
    "phase": "night",
}


def test_the_schema_is_the_declaration() -> None:
    """Bounds, closed sets, lengths, descriptions, defaults, required fields and shared definitions."""
    schema = FORM.schema()
    Draft202012Validator.check_schema(schema)
    assert schema["title"] == "A toy position" and schema["required"] == ["players", "phase"]
    assert schema["properties"]["players"] == {
        "type": "array",
        "items": {"$ref": "#/$defs/player"},
        "minItems": 1,
        "maxItems": 4,
    }
    player = schema["$defs"]["player"]
    assert player["required"] == ["coins", "hand", "played", "tile"]  # (stock optional, ready defaulted)
    assert player["properties"]["coins"] == {
        "type": "integer",
        "minimum": 0,
        "maximum": 99,
        "description": "coins held",
    }
    assert player["properties"]["hand"]["items"] == {"enum": ["HIS01", "HIS02", "GAL01", "GAL02"]}
    assert player["properties"]["played"]["anyOf"][1:] == [{"const": "joker"}, {"type": "null"}]
    assert player["properties"]["ready"] == {"type": "boolean", "default": False}
    assert player["additionalProperties"] is False
    assert player["properties"]["tile"]["anyOf"][0] == {"type": "string", "pattern": "^([0-9]{1,3}|hidden)$"}
    assert player["properties"]["tasks"] == {
        "type": "object",
        "propertyNames": {"enum": ["1A", "2B"]},
        "additionalProperties": {"type": "array", "items": {"enum": ["defeat", "network"]}, "maxItems": 2},
        "maxProperties": 2,
    }


def test_read_decodes_and_write_encodes_by_the_same_names() -> None:
    values = FORM.read(GOOD)
    assert values["players"][0] == {
        "coins": 3,
        "hand": (1, 2),
        "played": -1,
        "stock": 7,
        "ready": True,
        "tile": "26",
        "tasks": {"2B": ("network",), "1A": ()},
    }
    assert values["players"][1]["played"] == -2 and "stock" not in values["players"][1]
    assert values["players"][1]["tile"] == ""
    assert FORM.write(values) == GOOD
    assert json.dumps(FORM.write(values)) == json.dumps(GOOD)  # (key order included)


def _bad(path: tuple[Any, ...], value: Any) -> InvalidStateError:
    data = json.loads(json.dumps(GOOD))
    node = data
    for k in path[:-1]:
        node = node[k]
    if value is KeyError:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    with pytest.raises(InvalidStateError) as err:
        FORM.read(data)
    return err.value


@pytest.mark.parametrize(
    ("path", "value", "field", "says"),
    [
        (("players", 1, "coins"), 100, "state.players[1].coins", "expected an integer 0..99, got 100"),
        (("players", 1, "coins"), True, "state.players[1].coins", "got True"),
        (("players", 1, "coins"), 2**90, "state.players[1].coins", "<an integer of 91 bits>"),
        (("players", 0, "hand", 1), "XYZ", "state.players[0].hand[1]", "a career card id ('HIS01'"),
        (("players", 0, "hand"), ["HIS01"] * 4, "state.players[0].hand", "expected 0 to 3 entries, got 4"),
        (("players", 0, "played"), "x" * 500, "state.players[0].played", "'joker' or null, got 'xxx"),
        (("players", 0, "ready"), "yes", "state.players[0].ready", "expected true or false, got 'yes'"),
        (("players", 0, "coins"), KeyError, "state.players[0].coins", "missing; expected an integer"),
        (("players", 0, "bogus"), 1, "state.players[0].bogus", "unknown field; expected ['coins'"),
        (("players",), [], "state.players", "expected 1 to 4 entries, got 0"),
        (("players",), {"a": 1}, "state.players", "expected a list, got <an object of 1 keys>"),
        (("phase",), "dusk", "state.phase", "expected one of ['day', 'night'], got 'dusk'"),
        (
            ("players", 0, "tile"),
            "2600",
            "state.players[0].tile",
            "a tile number or 'hidden' or null, got '2600'",
        ),
        (
            ("players", 0, "tasks", "1A"),
            ["x"],
            "state.players[0].tasks.1A[0]",
            "['defeat', 'network'], got 'x'",
        ),
        (
            ("players", 0, "tasks"),
            {"3C": []},
            "state.players[0].tasks.3C",
            "unknown key: expected one of ['1A'",
        ),
        (
            ("players", 0, "tasks"),
            [],
            "state.players[0].tasks",
            "expected an object, got <a list of 0 items>",
        ),
    ],
)
def test_errors_name_the_path_the_value_and_what_is_legal(
    path: tuple[Any, ...], value: Any, field: str, says: str
) -> None:
    err = _bad(path, value)
    assert err.field == field and says in err.message, (err.field, err.message)
    assert err.message.startswith("invalid toy state: ") and len(err.message) < 300


def test_a_declared_rule_is_cited() -> None:
    assert _bad(("players",), []).rule == "toy/setup"
    with pytest.raises(InvalidStateError) as err:
        FORM.read([])
    assert err.value.field == "state"


def test_keys_are_checked_before_values() -> None:
    """An object's unknown and missing keys are named before a bad value (its shape first)."""
    err = _bad(("players", 0, "hand"), KeyError)
    assert err.field == "state.players[0].hand"
    data = json.loads(json.dumps(GOOD))
    data["players"][0]["coins"] = "many"
    del data["players"][0]["played"]
    with pytest.raises(InvalidStateError) as caught:
        FORM.read(data)
    assert caught.value.field == "state.players[0].played" and "missing" in caught.value.message


def test_a_map_is_bounded_and_keyed() -> None:
    data = json.loads(json.dumps(GOOD))
    data["players"][0]["tasks"] = {"1A": [], "2B": [], "3C": []}
    with pytest.raises(InvalidStateError) as err:
        FORM.read(data)
    assert err.value.field == "state.players[0].tasks" and "expected 0 to 2 keys, got 3" in err.value.message


def test_a_sentinel_is_written_before_an_open_set() -> None:
    """``""`` is "no tile" (null) even though a tile is any string matching the pattern."""
    field = AnyOf((Id((), pattern="^[0-9]+$"), Null("")))
    assert field.write("") is None and field.write("26") == "26"
    assert field.read(None) == "" and field.read("26") == "26"


def test_an_id_is_read_as_declared() -> None:
    """A printed number reads as the integer; a choice the published shape would refuse is a
    declaration error (the reader never accepts what the schema refuses)."""
    tile = Id(("19", "26"), number=True, pattern="^[0-9]{1,3}$", what="a tile number")
    assert tile.read("26") == 26 and tile.write(26) == "26"
    with pytest.raises(InvalidStateError, match=r"expected a tile number \('19', '26'\), got '026'"):
        Form("toy", "state", Obj({"tile": tile}), title="").read({"tile": "026"})
    with pytest.raises(ValueError, match="breaks the declared shape"):
        Id(("19", "2600"), pattern="^[0-9]{1,3}$")


def test_a_number_from_one_reads_from_zero() -> None:
    """``Int(1, 5, offset=1)``: the rulebook's district 1..5 is the records' 0..4 (null: -1)."""
    district = AnyOf((Int(1, 5, offset=1), Null(-1)))
    assert district.read(1) == 0 and district.read(None) == -1
    assert district.write(4) == 5 and district.write(-1) is None
    assert district.schema({})["anyOf"][0] == {"type": "integer", "minimum": 1, "maximum": 5}
    with pytest.raises(InvalidStateError, match=r"expected an integer 1\.\.5 or null, got 0"):
        Form("toy", "state", Obj({"d": district}), title="").read({"d": 0})


def test_a_tuple_reads_each_entry_by_its_field() -> None:
    """``Tuple``: ``[card, zone]``, each entry its own field, the length fixed; an ``AnyOf`` writes an
    empty list by its other alternative."""
    pair = Tuple((CARD, Int(1, 6, offset=1)))
    held = AnyOf((pair, ListOf(Null(), max=0)))
    assert pair.read(["GAL01", 3]) == (2, 2) and pair.write((2, 2)) == ["GAL01", 3]
    assert held.read([]) == () and held.write(()) == [] and held.write((0, 5)) == ["HIS01", 6]
    assert pair.schema({}) == {
        "type": "array",
        "prefixItems": [
            {"enum": ["HIS01", "HIS02", "GAL01", "GAL02"]},
            {"type": "integer", "minimum": 1, "maximum": 6},
        ],
        "minItems": 2,
        "maxItems": 2,
    }
    form = Form("toy", "state", Obj({"pair": pair}), title="")
    with pytest.raises(InvalidStateError) as err:
        form.read({"pair": ["GAL01", 7]})
    assert err.value.field == "state.pair[1]" and "expected an integer 1..6, got 7" in err.value.message
    with pytest.raises(InvalidStateError, match=r"expected a list of 2, got <a list of 3 items>"):
        form.read({"pair": ["GAL01", 1, 1]})


def test_show_clips() -> None:
    assert show("a" * 100) == repr("a" * 60 + "...")
    assert show([[[0]]]) == "<a list of 1 items>" and show(1.5) == "1.5"


_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 120)
    | st.sampled_from(["HIS01", "GAL02", "joker", "day", "x"]),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(["coins", "hand", "played", "stock", "ready", "zz"]), inner, max_size=5
        )
    ),
    max_leaves=12,
)
_PLAYERS = st.lists(
    st.fixed_dictionaries(
        {
            "coins": st.integers(-1, 100),
            "hand": st.lists(st.sampled_from(["HIS01", "GAL02", "X"]), max_size=4),
            "tile": st.sampled_from(["26", "hidden", "hidden!", "2600", "", "26\n", None, 26]),
        },
        optional={
            "played": _JSON,
            "stock": st.integers(-1, 41),
            "ready": _JSON,
            "zz": _JSON,
            "tasks": st.dictionaries(
                st.sampled_from(["1A", "2B", "3C"]),
                st.lists(st.sampled_from(["defeat", "network", "x"]), max_size=3),
                max_size=3,
            )
            | _JSON,
        },
    ),
    max_size=5,
)


@settings(max_examples=300, deadline=None)
@given(players=_PLAYERS | _JSON, phase=st.sampled_from(["day", "night", "dusk", 1]))
def test_the_reader_accepts_exactly_what_the_schema_accepts(players: Any, phase: Any) -> None:
    """One declaration: ``read`` and the published schema agree on every input (and what is read
    writes back as it came, defaults filled in)."""
    data = {"players": players, "phase": phase}
    valid = Draft202012Validator(FORM.schema()).is_valid(data)
    try:
        values = FORM.read(data)
    except InvalidStateError:
        assert not valid, data
        return
    assert valid, data
    assert FORM.write(values) == {
        "players": [{**p, "ready": p.get("ready", False)} for p in players],
        "phase": phase,
    }


# ------------------------------------------------------------------ the declared games' states

DECLARED = ["cyberverse", "cytress", "ti4", "tiberius", "tiberpunk"]
"""The games whose public form is declared with ``games.core.form``."""


@functools.cache
def _game(name: str) -> Any:
    return get_game(name)


@functools.cache
def _validator(name: str) -> Draft202012Validator:
    return Draft202012Validator(_game(name).state_schema())


def _play(name: str, seed: int, players: int, steps: int, seat: int | None) -> Any:
    game = _game(name)
    rng = random.Random(seed)
    state = game.new_state(GameConfig(players=players), seed)
    for _ in range(steps):
        player = game.current_player(state)
        if player == TERMINAL:
            break
        action = game.sample_chance(state, rng) if player == CHANCE else rng.choice(game.legal_actions(state))
        state = game.apply(state, action)
    return state if seat is None else game.observation(state, seat % players)


@pytest.mark.parametrize("name", DECLARED)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_valid_states_round_trip(name: str, data: st.DataObject) -> None:
    """A state of random play (or a seat's view of it) -> to_dict -> JSON -> from_dict is the same
    state, and writes the same JSON again."""
    game = _game(name)
    info = game.info
    state = _play(
        name,
        data.draw(st.integers(0, 2**32), label="seed"),
        data.draw(st.integers(info.min_players, info.max_players), label="players"),
        data.draw(st.integers(0, 400), label="steps"),
        data.draw(st.none() | st.integers(0, 5), label="seat"),
    )
    text = json.dumps(game.to_dict(state))
    back = game.from_dict(json.loads(text))
    assert back == state
    assert json.dumps(game.to_dict(back)) == text


def _paths(node: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into a JSON value (the root's children first)."""
    out: list[tuple[Any, ...]] = []
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, child in items:
        out += [(*at, key), *_paths(child, (*at, key))]
    return out


def _at(node: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        node = node[key]
    return node


_ODD = st.none() | st.booleans() | st.integers(-3, 40) | st.sampled_from([2**70, 1.5, "", "x" * 300, [], {}])


@pytest.mark.parametrize("name", DECLARED)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_what_the_schema_refuses_the_reader_refuses(name: str, data: st.DataObject) -> None:
    """One declaration: a form of random play with one field set to another value (another field's,
    or an odd one), or left out, is refused by ``from_dict`` whenever the published schema refuses it
    (the reader adds the cross-field rules, and never accepts more than the schema)."""
    game = _game(name)
    info = game.info
    state = _play(
        name,
        data.draw(st.integers(0, 2**32), label="seed"),
        data.draw(st.integers(info.min_players, info.max_players), label="players"),
        data.draw(st.integers(0, 150), label="steps"),
        data.draw(st.none() | st.integers(0, 5), label="seat"),
    )
    form = json.loads(json.dumps(game.to_dict(state)))
    paths = _paths(form)
    path = data.draw(st.sampled_from(paths), label="path")
    parent = _at(form, path[:-1])
    if data.draw(st.booleans(), label="leave out") and isinstance(parent, dict):
        del parent[path[-1]]
    else:
        other = json.loads(json.dumps(_at(form, data.draw(st.sampled_from(paths), label="from"))))
        parent[path[-1]] = data.draw(st.just(other) | _ODD, label="value")
    valid = _validator(name).is_valid(form)
    try:
        game.from_dict(form)
    except InvalidStateError as error:
        assert error.field.startswith("state"), error
        return
    assert valid, (path, _at(form, path[:-1]))
