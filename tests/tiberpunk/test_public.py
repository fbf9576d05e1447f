"""The public state form speaks the rulebook (issue 17): ids, words and booleans, a JSON Schema, a
text form, and the lictor.v1 typed message mapped to it (rule: tiberpunk/general-setup)."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from games.core import CHANCE, TERMINAL, GameConfig
from games.errors import InvalidStateError
from games.tiberpunk import TiberpunkGame
from games.tiberpunk.public import public_field

GAME = TiberpunkGame()
OLD_NAMES = {
    "otoks", "c1deck", "c1disc", "c3deck", "c3disc", "gdeck", "gdisc", "tkind", "tseat", "ctx", "cfg",
    "rnd", "bless", "shackles", "boosts", "ua", "ud", "ra", "rd", "a", "d", "n", "obj", "who", "where",
}  # fmt: skip


def _states() -> list[Any]:
    out = []
    for seed in range(3):
        s = GAME.new_state(GameConfig(players=2 + seed, options={"abilities": seed == 1}), seed)
        rng = random.Random(seed)
        step = 0
        while GAME.current_player(s) != TERMINAL and step < 900:
            if step % 37 == 0:
                out += [s, GAME.observation(s, 0)]
            p = GAME.current_player(s)
            s = GAME.apply(
                s, GAME.sample_chance(s, rng) if p == CHANCE else rng.choice(GAME.legal_actions(s))
            )
            step += 1
        out.append(s)
    return out


STATES = _states()


def _keys(v: Any, out: set[str]) -> set[str]:
    if isinstance(v, dict):
        for k, x in v.items():
            out.add(k)
            _keys(x, out)
    elif isinstance(v, list):
        for x in v:
            _keys(x, out)
    return out


def test_round_trips_and_fits_the_schema() -> None:
    """to_dict -> JSON -> from_dict and the text form round-trip; the schema accepts every form."""
    validator = Draft202012Validator(GAME.state_schema())
    Draft202012Validator.check_schema(GAME.state_schema())
    for s in STATES:
        data = json.loads(json.dumps(GAME.to_dict(s)))
        errors = list(validator.iter_errors(data))
        assert not errors, errors[0]
        assert GAME.from_dict(data) == s
        assert GAME.parse_state(GAME.state_to_text(s)) == s


def test_no_internal_names_masks_or_indices() -> None:
    """No abbreviation of the engine's fields; districts, gadgets and phases as ids and words."""
    for s in STATES[:20]:
        data = GAME.to_dict(s)
        assert not _keys(data, set()) & OLD_NAMES
        assert isinstance(data["phase"], str)
        assert all(d in GAME.pack.district_ids for d in data["lictors"])
        for p in data["players"]:
            assert set(p["shackled"]) == {"character", "drone"}
            assert all(isinstance(v, bool) for v in p["shackled"].values())
            assert all(g is None or isinstance(g, str) for g in p["gadgets"])


def test_the_v1_text_form_still_parses() -> None:
    """Version 1 of the state text (the engine's field names) is still read."""
    from games.tiberpunk.notation import state_text

    s = STATES[5]
    old = state_text(GAME.rules, GAME.internal_dict(s), GAME._shape)
    assert old.startswith("tiberpunk-state 1") and GAME.parse_state(old) == s


@pytest.mark.parametrize(
    ("internal", "public"),
    [
        ("players[1].otoks[0]", "players[1].triumph_tokens.hacking"),
        ("quests[0][2]", "quest_stacks.hacking[2]"),
        ("ctx.ua", "contest.gadgets_played"),
        ("c1deck", "stage1_challenge_deck"),
        ("players[0].shackles", "players[0].shackled"),
        ("cfg.side[0]", "setup.side_objectives[0]"),
        ("bless[2]", "blessing_tiles_left.juno"),
    ],
)
def test_internal_fields_are_named_publicly(internal: str, public: str) -> None:
    assert public_field(internal) == public


def test_a_rule_error_names_the_public_field() -> None:
    """A conservation error found on the internal state is named by its public path."""
    data = GAME.to_dict(STATES[4])
    data["gadget_discard"].append("flip")
    with pytest.raises(InvalidStateError) as err:
        GAME.from_dict(data)
    assert re.fullmatch(r"state\.[a-z_0-9.\[\]-]+", err.value.field), err.value.field
    assert not set(re.split(r"[.\[\]]", err.value.field)) & OLD_NAMES


def test_typed_v1_message_maps_to_the_public_form() -> None:
    """lictor.v1 TiberpunkState keeps its fields; wire.tiberpunk maps it both ways."""
    from wire.tiberpunk import FORM

    for s in STATES[:6]:
        msg = FORM.state_to_pb(GAME.to_dict(s))
        assert msg.c1deck == list(s.c1deck)
        assert GAME.from_dict(FORM.state_from_pb(msg)) == s


def test_rule_error_messages_quote_public_paths() -> None:
    """The rules' invariant messages quote the public paths, not the engine's field names."""
    from games.tiberpunk.public import public_message

    assert public_message("ctx.a lists dice (1 to 6) in order") == "contest.dice lists dice (1 to 6) in order"
    said = public_message("players[1].otoks[0] is 5; c1deck and gdeck[2]")
    assert said == "players[1].triumph_tokens.hacking is 5; stage1_challenge_deck and gadget_deck[2]"
