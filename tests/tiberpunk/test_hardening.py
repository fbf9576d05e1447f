"""Hostile input: a position from outside is validated before any rule code sees it (issue 16).

``from_dict`` raises only ``InvalidStateError`` (naming the field and the rule) for any JSON-like
input: out-of-range numbers, wrong types, unknown ids, deleted or unknown keys, deep nesting, and
fields that contradict each other. On a state it accepts, no Game method raises anything but a
``LictorError``. ``parse_state`` and ``parse_action`` raise only ``NotationError``.
(rule: tiberpunk/general-setup, rule: tiberpunk/game-overview)
"""

from __future__ import annotations

import contextlib
import copy
import json
import math
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.core import CHANCE, TERMINAL, GameConfig
from games.errors import InvalidStateError, LictorError, NotationError
from tests.tiberpunk.helpers import GAME, purposeful

# ------------------------------------------------------------------------------------ positions


def _playout_states() -> list[Any]:
    """Every 9th position of a few seeded games (2-4 players, the abilities module, gang war), with
    the active seat's observation of some of them (face-down cards)."""
    out = []
    cases: tuple[tuple[int, int, dict[str, Any]], ...] = (
        (1, 2, {"side_objectives": "gang-war"}),
        (2, 3, {"abilities": True}),
        (3, 4, {}),
        (4, 2, {"abilities": True, "side_objectives": "mixed"}),
    )
    for seed, players, options in cases:
        s = GAME.new_state(GameConfig(players=players, options={**options, "max_rounds": 25}), seed)
        rng = random.Random(seed)
        step = 0
        while GAME.current_player(s) != TERMINAL:
            if step % 9 == 0:
                out.append(s)
                if step % 27 == 0:
                    out.append(GAME.observation(s, max(0, GAME.current_player(s))))
            p = GAME.current_player(s)
            s = GAME.apply(s, GAME.sample_chance(s, rng) if p == CHANCE else purposeful(s, rng))
            step += 1
        out.append(s)
    return out


STATES = _playout_states()
DICTS = [json.loads(json.dumps(GAME.to_dict(s))) for s in STATES]


def _main_phase() -> dict[str, Any]:
    """A main-phase position in round 3 (every miniature placed)."""
    for s, d in zip(STATES, DICTS, strict=True):
        if GAME.current_player(s) >= 0 and s.phase == 2 and s.rnd >= 3 and s.players[0].hand[:1] != (-1,):
            out: dict[str, Any] = _copy(d)
            return out
    raise AssertionError("no main-phase position")


# ------------------------------------------------------------------------------------ exercising


def _exercise(state: Any) -> None:
    """Every Game method on ``state``: only LictorError may come out (the caller checks)."""
    g = GAME
    rng = random.Random(0)
    player = g.current_player(state)
    g.num_players(state)
    g.is_terminal(state)
    legal = list(g.legal_actions(state))
    g.returns(state)
    g.heuristic(state)
    g.prior(state)
    g.to_dict(state)
    assert g.from_dict(json.loads(json.dumps(g.to_dict(state)))) == state
    assert g.parse_state(g.state_to_text(state)) == state
    g.describe(state)
    g.render(state)
    for seat in range(g.num_players(state)):
        obs = g.observation(state, seat)
        g.legal_actions(g.sample_state(obs, seat, rng))
    if player == CHANCE:
        outcomes = [a for a, _ in g.chance_outcomes(state)]
        legal = [*outcomes[:8], g.sample_chance(state, rng)]
    for a in legal[:25]:
        text = g.action_to_text(state, a)
        assert g.parse_action(state, text) == a
        g.log_line(state, a)
        if player >= 0:
            g.explain(state, a)
        try:
            after = g.apply(state, a)
        except LictorError:
            continue
        g.heuristic(after)
        g.legal_actions(after)


def _check_or_rejected(data: Any) -> str:
    """``from_dict`` rejects ``data`` with InvalidStateError naming a field, or every method works."""
    try:
        state = GAME.from_dict(data)
    except InvalidStateError as exc:
        assert exc.field, exc
        assert exc.rule.startswith("tiberpunk/") or not exc.rule, exc
        return "rejected"
    with contextlib.suppress(LictorError):
        _exercise(state)
    return "accepted"


# ------------------------------------------------------------------------------------ mutations

DEEP_LIST: list[Any] = []
for _ in range(1000):
    DEEP_LIST = [DEEP_LIST]
DEEP_DICT: dict[str, Any] = {}
for _ in range(1000):
    DEEP_DICT = {"x": DEEP_DICT}
ODD_VALUES = [
    "zz",
    "",
    1.5,
    float("nan"),
    float("inf"),
    -float("inf"),
    True,
    False,
    None,
    [],
    {},
    [1],
    {"x": 1},
    10**30,
    -(10**30),
    -1,
    0,
    99,
    "IV",
    "flip",
    DEEP_LIST,
    DEEP_DICT,
]
NUDGES = [-1, 1, -2, 2, 5, 99, -99, 10**6, 2**70]


def _deep_memo() -> dict[int, Any]:
    memo: dict[int, Any] = {}
    node: Any = DEEP_LIST
    while node:
        memo[id(node)] = node
        node = node[0]
    node = DEEP_DICT
    while node:
        memo[id(node)] = node
        node = node["x"]
    return memo


_DEEP_MEMO = _deep_memo()


def _copy(data: Any) -> Any:
    """A deep copy that keeps the 1,000-deep values (and every level of them) as they are (deepcopy
    would recurse into them)."""
    return copy.deepcopy(data, dict(_DEEP_MEMO))


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if node is DEEP_LIST or node is DEEP_DICT:
        return out
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, (*prefix, i))
    return out


def _get(node: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        node = node[part]
    return node


def _set(root: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    _get(root, path[:-1])[path[-1]] = value
    return root


def mutate(data: dict[str, Any], other: dict[str, Any], choice: int, pick: int, how: str) -> Any:
    """One mutation of ``data`` (a deep copy): ``how`` at the ``pick``-th path."""
    data = _copy(data)
    paths = _paths(data)
    path = paths[pick % len(paths)]
    node = _get(data, path)
    if how == "nudge":
        if isinstance(node, int) and not isinstance(node, bool):
            return _set(data, path, node + NUDGES[choice % len(NUDGES)])
        how = "odd"
    if how == "odd":
        return _set(data, path, ODD_VALUES[choice % len(ODD_VALUES)])
    if how == "delete" and path:
        parent = _get(data, path[:-1])
        del parent[path[-1]]
        return data
    if how == "add":
        if isinstance(node, dict):
            node[f"zz{choice}"] = 1
        elif isinstance(node, list):
            node.append(_copy(node[choice % len(node)]) if node else ODD_VALUES[choice % 9])
        return data
    if how == "swap":
        try:
            return _set(data, path, _copy(_get(other, path)))
        except (KeyError, IndexError, TypeError):
            return data
    if how == "dup" and isinstance(node, list) and node:
        node.insert(0, _copy(node[choice % len(node)]))
        return data
    return _set(data, path, ODD_VALUES[choice % len(ODD_VALUES)])


HOW = st.sampled_from(["nudge", "nudge", "odd", "delete", "add", "swap", "swap", "dup"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    base=st.integers(0, len(DICTS) - 1),
    other=st.integers(0, len(DICTS) - 1),
    pick=st.integers(0, 10**6),
    choice=st.integers(0, 10**6),
    how=HOW,
)
def test_mutated_states_are_rejected_or_work(base: int, other: int, pick: int, choice: int, how: str) -> None:
    """rule: tiberpunk/general-setup — a playout state with one field nudged out of range, a wrong
    type, an unknown id, a deleted or unknown key, deep nesting or another game's value: from_dict
    raises InvalidStateError naming the field, or every method works (no IndexError, KeyError, ...)."""
    _check_or_rejected(mutate(DICTS[base], DICTS[other], choice, pick, how))


@settings(max_examples=60, deadline=None)
@given(
    base=st.integers(0, len(DICTS) - 1),
    picks=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 10**6), HOW), min_size=2, max_size=5),
)
def test_several_mutations(base: int, picks: list[tuple[int, int, str]]) -> None:
    """rule: tiberpunk/general-setup — several mutations at once: rejected or working."""
    data: Any = DICTS[base]
    for pick, choice, how in picks:
        if not isinstance(data, dict):
            break
        data = mutate(data, DICTS[(base + 1) % len(DICTS)], choice, pick, how)
    _check_or_rejected(data)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None)
@given(data=JSON)
def test_random_json_is_rejected(data: Any) -> None:
    """rule: tiberpunk/general-setup — random JSON is refused with InvalidStateError, nothing else."""
    with pytest.raises(InvalidStateError):
        GAME.from_dict(data)


def test_every_playout_state_works() -> None:
    """rule: tiberpunk/game-overview — the unmutated positions (and observations) pass and work."""
    for data in DICTS[::3]:
        assert _check_or_rejected(data) == "accepted"


# ------------------------------------------------------------------------------------ the cases

CASES = [
    # (field to set, value, field named) — before the checks, from_dict accepted each, and a method
    # then raised (the cases, in the public form's words)
    (("gadget_deck", 0), "laser", "gadget_deck[0]"),  # a gadget that does not exist
    (("players", 0, "coins"), -1, "players[0].coins"),
    (("players", 0, "gadgets"), ["flip", "flip", "flip", "flip", "flip"], "gadget_deck"),  # 9 flips
    (("quest_stacks", "hacking", 0), 99, "quest_stacks.hacking[0]"),  # IndexError in ai._targets
    (("players", 0, "ability"), "x-ray", "players[0].ability"),  # IndexError in dice_count
    (("players", 0, "shackled"), {"character": 1, "drone": False}, "players[0].shackled.character"),
    (("players", 0, "favor"), "vesta", "players[0].favor"),  # IndexError in _main_actions
    (("players", 0, "storylines", "hacking", "progress"), "stage-2", "players[0].storylines.hacking"),
    (("blessing_tiles_left", "juno"), -3, "blessing_tiles_left.juno"),
    (("contest",), {"kind": "duel"}, "contest.stage"),
    (("players", 1, "triumph_tokens", "hacking"), 5, "players[1].triumph_tokens.hacking"),
    (("active_seat",), 5, "active_seat"),
    (("lictors",), ["IV", "IV", "IV", "IV", "IV", "IV"], "lictors"),
    (("rewards_pending",), [{"seat": 0, "reward": "wish"}], "rewards_pending[0].reward"),
    (("phase",), 2, "phase"),  # a phase is a word now
]


@pytest.mark.parametrize(("path", "value", "field"), CASES)
def test_out_of_range_fields_are_named(path: tuple[Any, ...], value: Any, field: str) -> None:
    """rule: tiberpunk/general-setup — each out-of-range field raises InvalidStateError naming it."""
    data = _main_phase()
    _set(data, path, value)
    with pytest.raises(InvalidStateError) as err:
        GAME.from_dict(data)
    assert err.value.field == f"state.{field}", err.value


def test_conservation_is_checked() -> None:
    """rule: tiberpunk/general-setup — a card created or lost, a blessing tile from nowhere, tokens
    without objectives, coins beyond the bank of the coin_bank variant: refused."""
    base = _main_phase()
    for path, value in (
        (("gadget_discard",), "append"),
        (("stage1_challenge_deck",), "pop"),
        (("players", 0, "spaceship_cards", "drone"), "plus"),
        (("players", 0, "triumph_tokens", "hacking"), "plus"),
        (("players", 0, "coins"), 71),
    ):
        data = _copy(base)
        data["setup"]["coin_bank"] = 70
        node = _get(data, path)
        if value == "append":
            node.append("reroll")
        elif value == "pop":
            node.pop()
        elif value == "plus":
            _set(data, path, node + 1)
        else:
            _set(data, path, value)
        with pytest.raises(InvalidStateError):
            GAME.from_dict(data)


def test_coins_are_unlimited_by_default() -> None:
    """rule: tiberpunk/collect-income — the rulebook limits no coins: a player may hold more than the
    box's 70 (the coin_bank variant limits the bank to them, see test_conservation_is_checked)."""
    data = _main_phase()
    assert data["setup"]["coin_bank"] == 0
    data["players"][0]["coins"] = 500
    assert GAME.from_dict(data).players[0].coins == 500
    older = _copy(data)
    del older["setup"]["coin_bank"]  # a form written before the variant played with the box's coins
    with pytest.raises(InvalidStateError):
        GAME.from_dict(older)
    older["players"][0]["coins"] = 3
    assert GAME.from_dict(older).cfg.bank == 70


def test_deep_nesting_and_huge_numbers() -> None:
    """rule: tiberpunk/general-setup — 1,000-deep nesting and huge numbers in any field: InvalidStateError."""
    base = _main_phase()
    for path in _paths(base)[1:200]:
        for value in (DEEP_LIST, DEEP_DICT, 10**40, math.nan):
            data = _copy(base)
            _set(data, path, value)
            with pytest.raises(InvalidStateError):
                GAME.from_dict(data)


# ------------------------------------------------------------------------------------ notation


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=80))
def test_parse_action_raises_only_notation_errors(text: str) -> None:
    """rule: tiberpunk/game-overview — random text: an action or NotationError, nothing else."""
    state = STATES[5]
    with contextlib.suppress(NotationError):
        GAME.parse_action(state, text)


WORDS = st.sampled_from(
    [
        "token",
        "ship:drone",
        "move",
        "char",
        "drone",
        "lictor",
        "I-II",
        "pay99",
        "pay",
        "quest1:hack",
        "attack",
        "lictor",
        "char:P9",
        "drone:P0",
        "tile:odd",
        "for:quest2",
        "for:zz@1",
        "gadget",
        "flip",
        "A9",
        "D1+7",
        "add-die",
        "x9",
        "dice",
        "1,2,99",
        "-",
        "take:zz",
        "hub:I",
        "up:zz",
        "temple:zz",
        "task:zz@1",
        "P2",
        "gadgets:flip,zz",
        "ability",
        "zz",
        "skill",
        "escape",
        "XIII",
        "as",
        "income",
        "structure",
    ]
)


@settings(max_examples=200, deadline=None)
@given(words=st.lists(WORDS, min_size=1, max_size=6))
def test_parse_action_word_salad(words: list[str]) -> None:
    """rule: tiberpunk/game-overview — notation words in the wrong places: NotationError or an action
    whose text parses again."""
    state = next(s for s in STATES if GAME.current_player(s) >= 0 and s.phase == 2)
    try:
        a = GAME.parse_action(state, " ".join(words))
    except NotationError:
        return
    with contextlib.suppress(NotationError):
        GAME.action_to_text(state, a)


@settings(max_examples=150, deadline=None)
@given(index=st.integers(0, len(STATES) - 1), cut=st.integers(0, 10**6), junk=st.text(max_size=12))
def test_parse_state_raises_only_notation_errors(index: int, cut: int, junk: str) -> None:
    """rule: tiberpunk/game-overview — a state text with a line changed: a state or NotationError."""
    lines = GAME.state_to_text(STATES[index]).splitlines()
    i = 1 + cut % (len(lines) - 1)
    key, _, value = lines[i].partition("=")
    lines[i] = [f"{key}={junk}", f"{junk}={value}", f"{key}.{junk}={value}", junk][cut % 4]
    with contextlib.suppress(NotationError):
        GAME.parse_state("\n".join(lines))


def test_action_to_text_of_garbage_is_a_notation_error() -> None:
    """rule: tiberpunk/game-overview — an int that is no action here: NotationError, not IndexError."""
    state = STATES[3]
    for a in (-1, 2**40, 31, 0b11111_00000, 10**30):
        with contextlib.suppress(NotationError):
            GAME.action_to_text(state, a)


GARBAGE_ACTIONS = [-1, 2**40, 31, 1 | 99 << 5, 3 | 9 << 5, 10 | 7 << 5, 6 | 7 << 5 | 2 << 8, 10**30]


def test_action_text_and_explain_of_garbage_raise_lictor_errors() -> None:
    """rule: tiberpunk/game-overview — an int that is no action here: action_to_text raises
    NotationError, explain and apply IllegalActionError (today: IndexError from the notation)."""
    from games.errors import IllegalActionError

    state = next(s for s in STATES if GAME.current_player(s) >= 0 and s.phase == 2)
    for a in GARBAGE_ACTIONS:
        if a not in GAME.legal_actions(state):
            with pytest.raises(IllegalActionError):
                GAME.explain(state, a)
            with pytest.raises(IllegalActionError):
                GAME.apply(state, a)
    with pytest.raises(NotationError):
        GAME.action_to_text(state, 1 | 99 << 5)  # an ability tile that does not exist
    with pytest.raises(NotationError):
        GAME.action_to_text(state, 3 | 9 << 5)  # a god that does not exist


@pytest.mark.parametrize(
    "text",
    [
        "token spaceship",  # no take:  (today: KeyError)
        "token structure",  # no temple/hub/task  (today: KeyError)
        "token character attack char:P9 tile:odd for:quest2",  # no seat 9
        "token character attack char:P0 tile:odd for:quest2",
        "move char I-II pay99",  # more than a move can pay
        "gadget rotate1 A9+1",  # no die shows 9
        "gadget add-die x7",
        "gadget flip A1,A2,A3",
    ],
)
def test_parse_action_refuses_with_notation_errors(text: str) -> None:
    """rule: tiberpunk/game-overview — malformed actions: NotationError (not KeyError, not an action
    whose fields overflow into each other)."""
    state = next(s for s in STATES if GAME.current_player(s) >= 0 and s.phase == 2)
    with pytest.raises(NotationError):
        GAME.parse_action(state, text)


def test_parse_state_refuses_huge_indices_and_clashing_keys() -> None:
    """rule: tiberpunk/game-overview — a key with a huge list index is refused at once (today it
    grew a list to that size); keys that clash or values of the wrong kind are NotationErrors."""
    text = GAME.state_to_text(STATES[2])
    for extra in ("players.99999999999.coins=1", "players.0=1", "turn.moves.0=1", "ctx.kind=zz"):
        with pytest.raises(NotationError):
            GAME.parse_state(text + "\n" + extra)
    with pytest.raises(NotationError):
        GAME.parse_state("x" * 200_000)


@pytest.mark.parametrize("value", [-1, -80, 10**12])
def test_max_rounds_out_of_range_is_a_config_error(value: int) -> None:
    """rule: tiberpunk/end-of-game — the round cap is 0 (none) or a round number (today -1 was taken
    and ended the game after the first round)."""
    from games.errors import ConfigError

    with pytest.raises(ConfigError) as err:
        GAME.new_state(GameConfig(players=2, options={"max_rounds": value}), 1)
    assert err.value.field == "config.options.max_rounds"
