"""Conformance (check_game), property tests and the content pack."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import CHANCE, TERMINAL, GameConfig, check_game, get_game
from games.core.records import replace
from games.errors import ContentError
from games.tiberpunk import TiberpunkGame
from tests.tiberpunk.helpers import GAME, C, R

PACK = Path(__file__).resolve().parents[2] / "games" / "tiberpunk" / "content"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_check_game(players: int) -> None:
    """rule: tiberpunk/game-overview — seeded random games pass the shared conformance check."""
    # thorough (every form, face and observation checked at every step): one short game, each player
    # count (the face's checks are the slow part)
    report = check_game(GAME, players=players, seeds=range(1), options={"max_rounds": 6})
    assert report.games == 1 and report.steps > 40
    many = check_game(GAME, players=players, seeds=range(100, 112), thorough=False)
    assert many.games == 12


def test_check_game_with_abilities_and_many_seeds() -> None:
    """rule: tiberpunk/personal-abilities — the module passes check_game; long games terminate."""
    check_game(GAME, players=3, seeds=[7], options={"abilities": True, "max_rounds": 4})
    report = check_game(GAME, players=4, seeds=range(6), options={"abilities": True}, thorough=False)
    assert report.games == 6


def _invariants(s) -> None:
    # coins: the bank and the players hold the box's coins
    assert R.bank(s) >= 0 and all(p.coins >= 0 for p in s.players)
    # gadgets: deck + discard + hands = 25
    assert len(s.gdeck) + len(s.gdisc) + sum(len(p.hand) for p in s.players) == len(C.gadget_deck)
    # lictors: board + reserve = 5 (at least one on the board)
    assert 1 <= len(s.lictors) <= C.lictors_total
    # spaceship cards: stacks + hands = 18, none below zero anywhere
    assert sum(s.ships) + sum(sum(p.ships) for p in s.players) == 18
    assert min(s.ships) >= 0 and all(min(p.ships) >= 0 for p in s.players)
    # blessings: stacks + tiles held
    for g in range(4):
        assert s.bless[g] + sum((p.blessings >> g) & 1 for p in s.players) == s.n
    # triumph tokens: the tokens on objective cards are the players' placed tokens
    bonus = bin(s.speed).count("1")
    assert sum(sum(p.otoks) for p in s.players) >= bonus
    for p in s.players:
        assert set(p.known) <= set(p.hand)


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(2, 4),
    abilities=st.booleans(),
    side=st.sampled_from(["basic", "peace", "gang-war", "mixed"]),
)
def test_conservation_and_purity(seed: int, players: int, abilities: bool, side: str) -> None:
    """rule: tiberpunk/general-setup — coins, gadgets, tokens, spaceship cards and lictors conserved
    (with every side objective set: the priests' task takes a spaceship card); apply is pure."""
    options: dict[str, str | int | float | bool] = {
        "abilities": abilities,
        "max_rounds": 8,
        "side_objectives": side,
    }
    s = GAME.new_state(GameConfig(players=players, options=options), seed)
    rng = random.Random(seed)
    tokens = [0] * players
    steps = 0
    while GAME.current_player(s) != TERMINAL and steps < 600:
        _invariants(s)
        before = GAME.to_dict(s)
        if GAME.current_player(s) == CHANCE:
            a = GAME.sample_chance(s, rng)
        else:
            a = rng.choice(list(GAME.legal_actions(s)))
        text = GAME.action_to_text(s, a)
        assert GAME.parse_action(s, text) == a
        nxt = GAME.apply(s, a)
        assert GAME.to_dict(s) == before  # apply never mutates
        now = [sum(p.otoks) for p in nxt.players]
        assert all(x >= y for x, y in zip(now, tokens, strict=True))  # placed tokens stay placed
        tokens = now
        s = nxt
        steps += 1
        if steps % 25 == 0:
            assert GAME.parse_state(GAME.state_to_text(s)) == s


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 120))
def test_state_notation_round_trips(seed: int, steps: int) -> None:
    """rule: tiberpunk/game-overview — the state text and dict forms round-trip at any point."""
    s = GAME.new_state(GameConfig(players=3, options={"abilities": True}), seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if GAME.current_player(s) == TERMINAL:
            break
        a = (
            GAME.sample_chance(s, rng)
            if GAME.current_player(s) == CHANCE
            else rng.choice(GAME.legal_actions(s))
        )
        s = GAME.apply(s, a)
    text = GAME.state_to_text(s)
    assert GAME.parse_state(text) == s
    assert GAME.from_dict(json.loads(json.dumps(GAME.to_dict(s)))) == s
    seat = GAME.current_player(s)
    if seat >= 0:
        obs = GAME.observation(s, seat)
        assert GAME.parse_state(GAME.state_to_text(obs)) == obs


def test_observation_hides_hands_and_decks() -> None:
    """rule: tiberpunk/player-setup — gadget cards face down (the owner sees them); decks unknown."""
    s = GAME.new_state(GameConfig(players=3), 5)
    obs = GAME.observation(s, 0)
    assert obs.players[0].hand == s.players[0].hand
    assert obs.players[1].hand == (-1,) and set(obs.gdeck) == {-1} and obs.seed == 0
    sampled = GAME.sample_state(obs, 0, random.Random(1))
    assert GAME.observation(sampled, 0) == obs
    assert sorted(sampled.gdeck + sum((p.hand for p in sampled.players), ())) == sorted(
        s.gdeck + sum((p.hand for p in s.players), ())
    )


def _copy_pack(tmp_path: Path) -> Path:
    dst = tmp_path / "pack"
    shutil.copytree(PACK, dst)
    return dst


def test_user_pack_replaces_reference(tmp_path: Path) -> None:
    """rule: tiberpunk/general-setup — a user's pack (content_path) replaces the reference pack."""
    pack = _copy_pack(tmp_path)
    board = json.loads((pack / "board.json").read_text())
    board["lictors"]["start"] = ["I", "XII"]
    (pack / "board.json").write_text(json.dumps(board))
    game = get_game("tiberpunk", content_path=str(pack))
    assert game.new_state(GameConfig(players=2), 1).lictors == (0, 11)
    assert GAME.pack.authored and GAME.pack.name == "tiberpunk-reference"


@pytest.mark.parametrize(
    ("file", "edit", "field"),
    [
        ("board.json", lambda b: b["edges"].append(["I", "XIII"]), "edges[21][1]"),
        ("quests.json", lambda q: q["stage1"][0].update(skill="charm"), "stage1[0].skill"),
        ("challenges.json", lambda c: c["stage1"].append([7]), "stage1"),
        ("components.json", lambda c: c["gadgets"].update(flip=5), "gadgets"),
        ("board.json", lambda b: b["temples"][0].update(districts=["I", "IX"]), "temples[0].districts"),
    ],
)
def test_bad_user_pack_names_file_and_field(tmp_path: Path, file, edit, field) -> None:
    """rule: tiberpunk/general-setup — a bad pack raises ContentError naming the file and the field."""
    pack = _copy_pack(tmp_path)
    data = json.loads((pack / file).read_text())
    edit(data)
    (pack / file).write_text(json.dumps(data))
    with pytest.raises(ContentError) as err:
        TiberpunkGame(content_path=str(pack))
    assert err.value.file.endswith(file)
    assert err.value.field == field
    assert file in str(err.value)


def test_board_graph_tables() -> None:
    """rule: tiberpunk/movement — distances precomputed from the networkx graph; routes and nearest."""
    import networkx as nx

    b = R.board
    assert b.size == 12 and nx.is_connected(b.graph)
    for a in range(12):
        for t in range(12):
            assert b.dist[a][t] == nx.shortest_path_length(b.graph, a, t)
    assert b.nearest(8, (3, 9)) == (2, (3, 9))
    assert all(len(r) == b.dist[9][8] + 1 for r in b.shortest_routes(9, 8))


def test_returns_heuristic_and_explain() -> None:
    """rule: tiberpunk/end-of-game — heuristic in [0, 1] per seat; explain gives numbers for hints."""
    from tests.tiberpunk.helpers import placed, put

    s = put(placed(3, where=("IX", "V", "I")), 0, otoks=(1, 1, 0, 0, 0))
    h = GAME.heuristic(s)
    assert len(h) == 3 and all(0 <= x <= 1 for x in h) and abs(sum(h) - 1) < 1e-9 and h[0] == max(h)
    assert GAME.returns(s) == (0.0, 0.0, 0.0)
    s = replace(s, quests=((0, 1), (6, 7), (12, 13)))
    quest = GAME.parse_action(s, "token drone quest1:hack")
    reasons = {f.label: f.value for f in GAME.explain(s, quest)}
    assert 0 < reasons["quest success odds (no gadgets)"] < 1
    assert reasons["nearest lictor, districts away"] == 2 and reasons["dice rolled"] == 2
    move = {f.label: f.value for f in GAME.explain(s, GAME.parse_action(s, "move drone IX-VII"))}
    assert move["nearest lictor after the move, districts away"] == 2
    prior = GAME.prior(s)
    legal = list(GAME.legal_actions(s))
    assert prior is not None and len(prior) == len(legal) and abs(sum(prior) - 1) < 1e-9
    assert prior[legal.index(quest)] == max(prior)


def test_bad_state_input_is_rejected() -> None:
    """rule: tiberpunk/general-setup — typed-in states are validated (InvalidStateError / NotationError)."""
    from games.errors import InvalidStateError, NotationError

    s = GAME.new_state(GameConfig(players=2), 3)
    data = GAME.to_dict(s)
    data["players"][0]["coins"] = "many"
    with pytest.raises(InvalidStateError):
        GAME.from_dict(data)
    data = GAME.to_dict(s)
    data["lictors"] = ["I", "II", "III", "IV", "V", "VI"]  # six lictors: the box has five
    with pytest.raises(InvalidStateError, match="lictors"):
        GAME.from_dict(data)
    with pytest.raises(NotationError):
        GAME.parse_state("chess 1\nfoo=bar")
    with pytest.raises(NotationError):
        GAME.parse_state(GAME.state_to_text(s).replace('lictors=["IV","X"]', 'lictors=["IV","XX"]'))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_purposeful_games_end_by_the_eighth_token(players: int) -> None:
    """rule: tiberpunk/end-of-game — games played with purpose end by the 8th token, in equal turns."""
    from tests.tiberpunk.helpers import purposeful

    ended = 0
    for seed in range(4):
        s = GAME.new_state(GameConfig(players=players), seed)
        rng = random.Random(seed)
        turns = 0
        while GAME.current_player(s) != TERMINAL:
            a = GAME.sample_chance(s, rng) if GAME.current_player(s) == CHANCE else purposeful(s, rng)
            turns += a == 7  # "end" ends a turn
            s = GAME.apply(s, a)
        ended += s.end
        if s.end:
            assert max(sum(p.otoks) for p in s.players) >= 8
            assert turns == s.rnd * players  # everyone had the same number of turns
        r = GAME.returns(s)
        assert sum(r) == pytest.approx(1.0)
    assert ended >= 2
