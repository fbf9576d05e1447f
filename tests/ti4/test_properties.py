"""Hypothesis properties: every finished setup passes the legality checker; apply never mutates;
from_dict never lets a non-Lictor exception escape."""

from __future__ import annotations

import contextlib
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.errors import LictorError
from games.ti4.legality import check_map
from games.ti4.state import OVER
from tests.ti4.helpers import GAME, new


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), players=st.integers(3, 6))
def test_every_setup_passes_the_checker(seed: int, players: int) -> None:
    """rule: ti4/anomaly-adjacency, rule: ti4/wormhole-adjacency - a setup played by the rules
    passes the checker with its placement record; apply never mutates its input."""
    s = new(players, seed)
    rng = random.Random(seed)
    while s.phase != OVER:
        before = GAME.to_dict(s)
        nxt = GAME.apply(s, rng.choice(list(GAME.legal_actions(s))))
        assert GAME.to_dict(s) == before
        s = nxt
    in_play = {0, *GAME.pack.board.layouts[players].homes, *GAME.pack.board.layouts[players].systems}
    entries = [t if p in in_play else -1 for p, t in enumerate(s.galaxy)]
    for h in s.homes:
        entries[h] = 0
    report = check_map(
        GAME.pack,
        entries,
        players=players,
        expansion=s.expansion,
        record=s.placed,
        speaker=s.speaker,
        reading=s.reading,
    )
    assert report.ok, report.violations


@settings(max_examples=15, deadline=None)
@given(
    data=st.recursive(
        st.none() | st.integers() | st.text(max_size=5),
        lambda c: st.lists(c) | st.dictionaries(st.text(max_size=8), c),
        max_leaves=20,
    )
)
def test_from_dict_rejects_garbage_cleanly(data: object) -> None:
    with contextlib.suppress(LictorError):
        GAME.from_dict(data)  # type: ignore[arg-type]


@settings(max_examples=10, deadline=None)
@given(
    seed=st.integers(0, 1000),
    key=st.sampled_from(["speaker", "to_decide", "seats", "galaxy", "placements", "step"]),
    value=st.one_of(st.integers(-5, 99), st.text(max_size=4), st.none()),
)
def test_from_dict_mutated_fields(seed: int, key: str, value: object) -> None:
    data = GAME.to_dict(new(4, seed))
    data[key] = value
    with contextlib.suppress(LictorError):
        GAME.from_dict(data)


@settings(max_examples=25, deadline=None)
@given(
    tokens=st.lists(
        st.sampled_from(["-1", "0", "18", "19", "25", "26", "41", "42", "51", "82", "99", "{18}", "x"]),
        max_size=40,
    ),
    procedure=st.sampled_from(["rulebook", "milty"]),
)
def test_map_string_puzzles_reject_bad_input_cleanly(tokens: list[str], procedure: str) -> None:
    """rule: ti4/home-systems - any map string gets a report or a LictorError naming the field."""
    from solver.core import SolveLimits
    from solver.ti4 import check_map_puzzle, home_values_puzzle

    for fn in (check_map_puzzle, home_values_puzzle):
        with contextlib.suppress(LictorError):
            fn(
                GAME,
                None,
                {"map_string": " ".join(tokens), "procedure": procedure},
                SolveLimits(time_limit_s=1),
            )


@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(3, 6), mode=st.sampled_from(["rulebook", "milty"]))
def test_public_form_matches_its_schema(seed: int, players: int, mode: str) -> None:
    """rule: ti4/home-systems - to_dict of states along a random setup validates against state_schema."""
    import jsonschema

    schema = GAME.state_schema()
    validator = jsonschema.Draft202012Validator(schema)
    s = new(players, seed, mode=mode, expansion="pok")
    rng = random.Random(seed)
    while True:
        validator.validate(GAME.to_dict(s))
        validator.validate(GAME.to_dict(GAME.observation(s, seed % players)))
        if s.phase == OVER:
            break
        s = GAME.apply(s, rng.choice(list(GAME.legal_actions(s))))


@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**31 - 1),
    players=st.integers(3, 6),
    expansion=st.sampled_from(["base", "pok"]),
    weighted=st.booleans(),
)
def test_every_built_galaxy_passes_the_checker(
    seed: int, players: int, expansion: str, weighted: bool
) -> None:
    """rule: ti4/deal-system-tiles, rule: ti4/anomaly-adjacency, rule: ti4/factions - every galaxy the
    builder makes (full map: the decomposition), with random factions and secondary weights, passes
    the legality checker with its home systems in the map string."""
    from games.ti4.legality import check_string
    from solver.core import SolveLimits, Status, get_puzzle

    rng = random.Random(seed)
    allowed = [f.id for f in GAME.pack.factions if expansion == "pok" or f.expansion == "base"]
    params: dict[str, object] = {
        "players": players,
        "expansion": expansion,
        "seed": seed,
        "factions": rng.sample(allowed, players),
    }
    if weighted:
        params |= {"wormhole_spread": 0.5, "specialty_missing": 0.25}
    _, fn = get_puzzle("ti4.balanced_map")
    res = fn(GAME, None, params, SolveLimits(time_limit_s=0.6, workers=1))
    assert res.status in (Status.OPTIMAL, Status.FEASIBLE)
    report = check_string(GAME.pack, res.answer["map_string"], players=players, expansion=expansion)
    assert report.ok, report.violations
