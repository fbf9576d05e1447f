"""Invariants (hypothesis): apply never mutates, playouts end, components are conserved, bad input
is rejected with a clear error; and check_game for every player count."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.core.check import check_game
from games.core.protocol import TERMINAL, GameConfig
from games.cytress.board import CREWS, TUBE_SECTIONS
from games.cytress.economy import MAX_RESOURCE
from games.cytress.state import NOBODY, CytressState
from games.errors import InvalidStateError, LictorError, NotationError
from tests.cytress.helpers import GAME

SLOW = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _conserved(s: CytressState) -> None:
    """rule: cytress/setup - 12 crews per owner, 50 tube sections, 72 intel cards, 12 Stratolites;
    rule: cytress/resources - every resource 0..25."""
    for o in range(s.owners):
        on_map = sum(1 for x in s.crew if x == o)
        up = sum(s.rebels[o].stratos)
        assert on_map + up + s.rebels[o].unused == CREWS
    records = s.automa.records if s.automa else 0
    assert sum(s.tube) + s.tubes_left + s.tubes_box + records == TUBE_SECTIONS
    assert all(0 <= r <= MAX_RESOURCE for p in s.players for r in p.resources)
    cards = [c for d in s.intel_deck for c in d] + [c for r in s.intel_row for c in r if c != NOBODY]
    cards += [c for p in s.players for path in p.lifepaths for c in path]
    cards += list(s.automa.intel) if s.automa else []
    assert sorted(cards) == list(range(72))
    strat = [*s.strat_deck, *(c for c in s.strat_row if c != NOBODY), *s.strat_discard]
    strat += [p.reserved for p in s.players if p.reserved != NOBODY]
    assert sorted(strat) == list(range(12))
    # every crew on the map stands on a hex without a tube
    assert all(not (x != NOBODY and t) for x, t in zip(s.crew, s.tube, strict=True))


@SLOW
@given(players=st.integers(1, 5), seed=st.integers(0, 2**31))
def test_playouts_end_conserving_components(players: int, seed: int) -> None:
    """rule: cytress/game-end-trigger - every random game ends; components are conserved at every
    step and apply never mutates its input."""
    s = GAME.new_state(GameConfig(players=players), seed)
    rng = random.Random(seed)
    steps = 0
    while GAME.current_player(s) != TERMINAL:
        _conserved(s)
        before = GAME.to_dict(s)
        a = rng.choice(list(GAME.legal_actions(s)))
        nxt = GAME.apply(s, a)
        if steps % 7 == 0:
            assert GAME.to_dict(s) == before
        s = nxt
        steps += 1
        assert steps < 5000
    _conserved(s)


def _mutations(draw: Any, data: Any, depth: int = 0) -> Any:
    if isinstance(data, dict) and data:
        key = draw(st.sampled_from(sorted(data)))
        out = dict(data)
        if depth < 3 and draw(st.booleans()):
            out[key] = _mutations(draw, data[key], depth + 1)
        else:
            out[key] = draw(_junk)
        if draw(st.integers(0, 9)) == 0:
            out.pop(key)
        return out
    if isinstance(data, list) and data:
        i = draw(st.integers(0, len(data) - 1))
        out_l = list(data)
        out_l[i] = _mutations(draw, data[i], depth + 1) if depth < 3 else draw(_junk)
        return out_l
    return draw(_junk)


_junk = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**12), 10**12),
    st.floats(allow_nan=True),
    st.text(max_size=6),
    st.sampled_from(["automa", "A1", "COR01", "S01", "B1-COR", "rover", "glow", "travel"]),
    st.lists(st.integers(-3, 30), max_size=4),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
)


@pytest.fixture(scope="module")
def sample_dicts() -> list[dict[str, Any]]:
    out = []
    for players in (1, 3, 5):
        s = GAME.new_state(GameConfig(players=players), players)
        rng = random.Random(players)
        for k in range(120):
            if GAME.current_player(s) == TERMINAL:
                break
            if k % 30 == 0:
                out.append(GAME.to_dict(s))
            s = GAME.apply(s, rng.choice(list(GAME.legal_actions(s))))
    return out


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_from_dict_rejects_mutations_cleanly(sample_dicts: list[dict[str, Any]], data: Any) -> None:
    """rule: cytress/setup - from_dict validates every field: a mutated public form is either a
    valid state or an InvalidStateError naming a field; nothing else escapes, and an accepted
    state answers every method with a LictorError at worst."""
    base = data.draw(st.sampled_from(sample_dicts))
    bad = _mutations(data.draw, json.loads(json.dumps(base)))
    try:
        s = GAME.from_dict(bad)
    except InvalidStateError as exc:
        assert exc.field
        return
    try:
        for a in list(GAME.legal_actions(s))[:5]:
            GAME.apply(s, a)
            GAME.log_line(s, a)
            GAME.explain(s, a)
            GAME.parse_action(s, GAME.action_to_text(s, a))
        GAME.parse_state(GAME.state_to_text(s))
        GAME.describe(s)
        GAME.render(s)
        GAME.heuristic(s)
    except LictorError:
        pass


def test_from_dict_deep_nesting_and_garbage() -> None:
    """rule: cytress/setup - garbage and deep nesting are rejected, never crash."""
    deep: Any = []
    for _ in range(1000):
        deep = [deep]
    bads: list[Any] = [None, 3, "x", [], {}, {"game": "cytress"}, {"game": "cytress", "players": deep}]
    for bad in bads:
        with pytest.raises(InvalidStateError):
            GAME.from_dict(bad)
    with pytest.raises(NotationError):
        GAME.parse_state("cytress {" + "[" * 5000)
    s = GAME.new_state(GameConfig(players=2), 0)
    for text in ("", "meet the", "scout nowhere", "x" * 1000, "meet the corpocrats at Z99"):
        with pytest.raises(NotationError):
            GAME.parse_action(s, text)


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_check_game(players: int) -> None:
    """rule: cytress/core-concepts - the shared conformance check (a short game for 4-5 players)."""
    options = {"round_limit": 3} if players >= 4 else {}
    report = check_game(GAME, players=players, seeds=range(1), options=options)
    assert report.games == 1


def test_observation_hides_deck_order() -> None:
    """rule: cytress/setup - the decks are face down: an observation shows no order and no seed."""
    s = GAME.new_state(GameConfig(players=3), 9)
    obs = GAME.observation(s, 0)
    assert obs.seed == 0 and all(list(d) == sorted(d) for d in obs.intel_deck)
    t = GAME.sample_state(obs, 0, random.Random(1))
    assert GAME.observation(t, 0) == obs and GAME.legal_actions(t) == GAME.legal_actions(s)


def test_prior_is_a_distribution_of_the_observation() -> None:
    """The PUCT prior sums to 1 over the legal actions and reads only what the mover sees."""
    rng = random.Random(2)
    for players in (1, 3):
        s = GAME.new_state(GameConfig(players=players), 4)
        for _ in range(60):
            if GAME.current_player(s) == TERMINAL:
                break
            p = GAME.prior(s)
            legal = list(GAME.legal_actions(s))
            if p is not None:
                assert len(p) == len(legal) and abs(sum(p) - 1.0) < 1e-9 and min(p) > 0
                seat = GAME.current_player(s)
                other = GAME.sample_state(GAME.observation(s, seat), seat, rng)
                assert GAME.prior(other) == p
            s = GAME.apply(s, rng.choice(legal))


def test_public_form_matches_its_schema() -> None:
    """rule: cytress/setup - ``to_dict`` of states along random games validates against
    ``state_schema()`` (JSON Schema draft 2020-12)."""
    import jsonschema

    schema = GAME.state_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    rng = random.Random(8)
    for players in (1, 2, 4, 5):
        s = GAME.new_state(GameConfig(players=players), players + 10)
        k = 0
        while True:
            if k % 15 == 0 or GAME.current_player(s) == TERMINAL:
                validator.validate(GAME.to_dict(s))
            if GAME.current_player(s) == TERMINAL:
                break
            s = GAME.apply(s, rng.choice(list(GAME.legal_actions(s))))
            k += 1
