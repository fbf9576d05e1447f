"""The public form of Tiberius Who? (``games/tiberius/public.py``): the rulebook's words, the JSON
Schema, validation of every field (hypothesis fuzz: only ``InvalidStateError`` naming a field), the
score sheet, and the typed message mapping (``wire/tiberius.py``)."""

from __future__ import annotations

import copy
import json
import random
from functools import lru_cache
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.core import GameConfig
from games.errors import InvalidStateError, LictorError
from games.tiberius.model import BOX_KEYS, OVER
from tests.tiberius.helpers import game

_ABBREVIATIONS = {"BD", "CC", "CQ", "IM", "PC", "GV", "TR", "IP", "PR", "EM", "IN", "PCIM"}


@lru_cache(maxsize=1)
def _positions() -> tuple[Any, ...]:
    """States along seeded random games of 1-6 players, and seat views of them."""
    g = game()
    out = []
    for players in range(1, 7):
        rng = random.Random(players)
        s = g.new_state(GameConfig(players=players), players)
        k = 0
        while True:
            if k % 9 == 0:
                out.append(s)
                out.append(g.observation(s, k % players))
            if g.is_terminal(s):
                out.append(s)
                break
            s = g.apply(s, rng.choice(g.legal_actions(s)))
            k += 1
    return tuple(out)


def _keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in _keys(v)}
    return set()


def _strings(value: Any) -> set[str]:
    if isinstance(value, dict):
        return {s for v in value.values() for s in _strings(v)}
    if isinstance(value, list):
        return {s for v in value for s in _strings(v)}
    return {value} if isinstance(value, str) else set()


def test_public_form_round_trips_and_matches_its_schema():
    """The public form of every position (and every seat's view) round-trips through JSON and
    validates against ``state_schema`` (draft 2020-12)."""
    g = game()
    schema = g.state_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for s in _positions():
        data = json.loads(json.dumps(g.to_dict(s)))
        validator.validate(data)
        assert g.from_dict(data) == s
        assert g.parse_state(g.state_to_text(s)) == s


def test_public_form_speaks_the_rulebook():
    """Box names, card ids, words: no two-letter box codes or abbreviations as keys or values, and
    the turn and seats as plain numbers (issue 17)."""
    g = game()
    data = g.to_dict(_positions()[5])
    assert not _keys(data) & _ABBREVIATIONS and not _strings(data) & _ABBREVIATIONS
    player = data["players"][0]
    assert set(player["cubes"]) == set(BOX_KEYS)
    assert player["stock"] == 40 - sum(player["cubes"].values())
    assert [d["region"] for d in data["decks"]] == list(g.pack.regions)
    assert data["phase"] in ("card", "pick", "cube", "adoption", "over")
    end = g.to_dict(next(s for s in _positions() if s.phase == OVER))
    assert end["to_act"] is None


def _bad(data: Any) -> InvalidStateError:
    with pytest.raises(InvalidStateError) as err:
        game().from_dict(data)
    return err.value


def test_from_dict_names_the_broken_rule():
    """rule: tiberius/setup - 40 cubes per seat and every card in one place; rule:
    tiberius/card-phase - bids unique and in the Bid box; rule: tiberius/end-of-game - turns."""
    g = game()
    base = json.loads(json.dumps(g.to_dict(g.new_state(GameConfig(players=3), 1))))
    data = copy.deepcopy(base)
    data["players"][0]["cubes"]["conquests"] = 30
    err = _bad(data)
    assert err.field == "state.players[0].cubes" and "40" in err.message and err.rule == "tiberius/setup"
    data = copy.deepcopy(base)
    data["players"][1]["stock"] = 3
    assert _bad(data).field == "state.players[1].stock"
    data = copy.deepcopy(base)
    data["decks"][0]["face_up"] = data["decks"][1]["face_down"][0]
    assert _bad(data).field == "state.decks[0].face_up"
    data = copy.deepcopy(base)
    data["discarded_cards"] = [data["decks"][2]["face_down"][0]]
    err = _bad(data)
    assert err.field == "state.discarded_cards" and "also in" in err.message
    data = copy.deepcopy(base)
    data["decks"][3]["face_down"].pop()
    assert "nowhere" in _bad(data).message
    data = copy.deepcopy(base)
    data["players"][2]["career_cards"] = ["XYZ01"]
    assert _bad(data).field == "state.players[2].career_cards[0]"
    data = copy.deepcopy(base)
    data["adoption_cards_face_up"] = ["A99"]
    assert _bad(data).field == "state.adoption_cards_face_up[0]"
    data = copy.deepcopy(base)
    data["turn"] = 9
    assert _bad(data).rule == "tiberius/end-of-game"
    data = copy.deepcopy(base)
    data["variants"]["turns"] = 6
    assert _bad(data).field == "state.variants.turns"
    data = copy.deepcopy(base)
    data["players"][0]["cubes"]["CQ"] = 1
    assert _bad(data).field == "state.players[0].cubes.CQ"
    data = copy.deepcopy(base)
    later = (data["to_act"] + 2) % 3  # a seat after the one to act has not bid yet
    data["players"][later]["cubes"]["bid"] = 2
    data["players"][later]["cubes"]["influence"] -= 2
    err = _bad(data)
    assert err.rule == "tiberius/card-phase" and err.field == f"state.players[{later}]"


_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=True)
    | st.text(max_size=8)
    | st.sampled_from(["HIS01", "A04", "pro_consular_imperium_maius", "conquests", "card", "over"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out.extend(_paths(v, (*prefix, k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.extend(_paths(v, (*prefix, i)))
    return out


def _set(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    *head, last = path
    node = data
    for k in head:
        node = node[k]
    node[last] = value
    return data


def _deep(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    which=st.integers(0, 10**6),
    where=st.integers(0, 10**6),
    junk=_JSON | st.builds(_deep, st.sampled_from([50, 1000])),
    drop=st.booleans(),
)
def test_from_dict_fuzz_raises_only_invalid_state_error(which, where, junk, drop):
    """Any field of a real position replaced by junk (wrong types, huge or negative numbers, unknown
    ids, 1,000-deep nesting) or dropped: ``from_dict`` loads it or raises ``InvalidStateError``
    naming a field under ``state``; what it loads plays on with nothing but ``LictorError``s."""
    g = game()
    positions = _positions()
    data = json.loads(json.dumps(g.to_dict(positions[which % len(positions)])))
    path = _paths(data)[where % len(_paths(data))]
    if drop and path:
        *head, last = path
        node = data
        for k in head:
            node = node[k]
        del node[last]
    else:
        data = _set(data, path, junk)
    try:
        s = g.from_dict(data)
    except InvalidStateError as err:
        assert err.field == "state" or err.field.startswith("state."), err.field
        assert len(err.message) < 600
        return
    try:
        for a in g.legal_actions(s):
            g.apply(s, a)
            g.explain(s, a)
        g.heuristic(s)
        g.describe(s)
        g.render(s)
    except LictorError:
        pass


@settings(max_examples=100, deadline=None)
@given(data=_JSON)
def test_from_dict_of_anything_raises_only_invalid_state_error(data):
    """Random JSON is never a crash."""
    with pytest.raises(InvalidStateError):
        game().from_dict(data)


def test_parse_state_of_deep_json_is_a_notation_error():
    """1,000-deep JSON is refused with a clear error, not a RecursionError."""
    with pytest.raises(LictorError):
        game().parse_state("tiberius " + "[" * 100_000 + "]" * 100_000)


# ------------------------------------------------------------------------------------ the score sheet

SHEET_EXAMPLE = {
    "players": [
        {
            "conquests": 3,
            "imperial_marriages": 2,
            "pro_consular_imperium_maius": 5,
            "consul_censor": 2,
            "governorships": 1,
            "triumphs": 2,
            "imperator": 3,
            "priesthoods": 1,
            "influence": 7,
            "adopted": True,
            "age": 52,
        },
        {
            "conquests": 1,
            "imperial_marriages": 1,
            "consul_censor": 4,
            "governorships": 2,
            "imperator": 1,
            "priesthoods": 3,
            "emperor": 2,
            "influence": 10,
            "all_six_decks": True,
            "age": 47,
        },
    ]
}
"""The example of docs/tiberius.md ("Scoring a real table")."""


def test_score_sheet_example_scores_by_the_schedule():
    """rule: tiberius/end-of-game - the short end-of-game form (cubes per box, influence, adoption,
    age) is scored by the VP schedule (rule: tiberius/score-conquests ... score-influence)."""
    g = game()
    schema = g.score_sheet_schema()
    assert schema is not None
    jsonschema.Draft202012Validator(schema).validate(SHEET_EXAMPLE)
    s = g.from_score_sheet(SHEET_EXAMPLE)
    assert g.is_terminal(s)
    # seat 0: conquests 10, marriages 5, PCIM 12, consul 5, governorships 5, triumphs 4,
    # imperator 3 + 3, priesthoods 1, adopted 8, influence 2 = 58
    # seat 1: conquests 5, marriages 0, PCIM 0, consul 7, governorships 6, triumphs -3,
    # imperator 1 - 3, priesthoods 3, loyalty 5, influence 3 = 24
    assert g.totals(s) == [58, 24]
    assert g.returns(s) == (1.0, 0.0)
    assert g.from_dict(g.to_dict(s)) == s


def test_score_sheet_errors_name_the_field():
    """Bad sheets fail with ``score_sheet.<path>``."""
    g = game()
    cases: list[tuple[Any, str]] = [
        ({"players": [{"conquests": -1}]}, "score_sheet.players[0].conquests"),
        ({"players": [{"bid": 1}]}, "score_sheet.players[0].bid"),
        ({"players": [{"influence": 41}]}, "score_sheet.players[0].influence"),
        ({"players": []}, "score_sheet.players"),
        ({"players": [{"adopted": "yes"}]}, "score_sheet.players[0].adopted"),
        ({"players": [{}], "variants": {"imperator_solo": "x"}}, "score_sheet.variants.imperator_solo"),
        ([], "score_sheet"),
    ]
    for sheet, field in cases:
        with pytest.raises(InvalidStateError) as err:
            g.from_score_sheet(sheet)
        assert err.value.field == field, (sheet, err.value.field)


def test_score_sheet_solo_reading():
    """rule: tiberius/score-imperator - a sheet can name the readings (variants)."""
    g = game()
    sheet = {"players": [{"imperator": 4}], "variants": {"imperator_solo": "most"}}
    assert (
        g.totals(g.from_score_sheet(sheet))[0]
        == g.totals(g.from_score_sheet({"players": [{"imperator": 4}]}))[0] + 3
    )


# ------------------------------------------------------------------------------------ typed messages


def test_typed_message_round_trips_the_public_form():
    """``wire/tiberius.py`` maps the public form to lictor.v1.TiberiusState and back unchanged."""
    from wire.tiberius import FORM

    g = game()
    for s in _positions()[::3]:
        data = json.loads(json.dumps(g.to_dict(s)))
        back = FORM.state_from_pb(FORM.state_to_pb(data))
        assert g.from_dict(back) == s
