"""Protocol conformance, properties (hypothesis), notation, content packs and hidden information."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import GameConfig, check_game, get_game
from games.errors import ContentError, NotationError
from games.tiberius import TiberiusGame
from games.tiberius.model import BD, CARD, HIDDEN
from tests.tiberius.helpers import game


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_check_game(players):
    """rule: tiberius/setup - the shared conformance check for 1-6 players."""
    report = check_game(game(), players=players, seeds=range(1))
    assert report.games == 1 and report.steps > 0


def test_check_game_variants():
    opts = {
        "influence_table": "mat",
        "pcim_rule": "influence",
        "marriage_vp": "aid",
        "imperator_solo": "most",
        "imperator_empty": "none",
        "turns": 7,
        "oldest_seat": 2,
    }
    check_game(game(), players=4, seeds=range(1), options=opts)


def test_registered():
    assert get_game("tiberius").info.title == "Tiberius Who?"
    info = game().info
    assert info.hidden_information and not info.stochastic and info.content_version == "1.0"


def _playout(players: int, seed: int, steps: int):
    g = game()
    rng = random.Random(seed)
    s = g.new_state(GameConfig(players=players), seed)
    seen = [s]
    for _ in range(steps):
        if g.is_terminal(s):
            break
        s = g.apply(s, rng.choice(list(g.legal_actions(s))))
        seen.append(s)
    return seen


@settings(max_examples=25, deadline=None)
@given(players=st.integers(1, 6), seed=st.integers(0, 10**6))
def test_cubes_conserved_and_bids_unique(players, seed):
    """rule: tiberius/setup - 40 cubes per player, never more; rule: tiberius/card-phase - bids unique."""
    for s in _playout(players, seed, 400):
        for p in range(players):
            assert all(x >= 0 for x in s.players[p].cubes)
            assert 0 <= s.players[p].stock <= 40 and s.players[p].cubes[BD] == s.players[p].bid
        live = [p.bid for p in s.players if p.bid > 0]
        assert len(live) == len(set(live))
        if not game().is_terminal(s):
            assert all(0.0 <= h <= 1.0 for h in game().heuristic(s))


@settings(max_examples=20, deadline=None)
@given(players=st.integers(1, 6), seed=st.integers(0, 10**6))
def test_apply_never_mutates_and_notation_round_trips(players, seed):
    g = game()
    rng = random.Random(seed)
    s = g.new_state(GameConfig(players=players), seed)
    for _ in range(120):
        if g.is_terminal(s):
            break
        before = g.to_dict(s)
        assert g.parse_state(g.state_to_text(s)) == s
        actions = list(g.legal_actions(s))
        for a in actions:
            assert g.parse_action(s, g.action_to_text(s, a)) == a
        a = rng.choice(actions)
        s2 = g.apply(s, a)
        assert g.to_dict(s) == before
        s = s2


def test_observation_hides_secrets_and_deck_order():
    g = game()
    s = g.new_state(GameConfig(players=4), 7)
    obs = g.observation(s, 1)
    assert obs.players[1].secret == s.players[1].secret and all(
        obs.players[p].secret == HIDDEN for p in (0, 2, 3)
    )
    assert all(list(d) == sorted(d) for d in obs.decks)
    assert sorted(obs.adopt_unused) == sorted(
        [*s.adopt_unused, s.players[0].secret, s.players[2].secret, s.players[3].secret]
    )
    sampled = g.sample_state(obs, 1, random.Random(1))
    assert g.observation(sampled, 1) == obs and HIDDEN not in [p.secret for p in sampled.players]


def test_notation_examples_and_errors():
    g = game()
    s = g.new_state(GameConfig(players=2), 1)
    assert s.phase == CARD
    assert g.action_to_text(s, g.parse_action(s, "BID 4")) == "bid 4"
    assert g.action_to_text(s, g.parse_action(s, "adopt a04")) == "adopt A04"
    assert g.action_to_text(s, g.parse_action(s, "row none")) == "row none"
    for bad in ("bid", "buy XYZ99", "black QQ", "row 4", "fly away"):
        with pytest.raises(NotationError):
            g.parse_action(s, bad)
    with pytest.raises(NotationError):
        g.parse_state("chess {}")


def _copy_pack(tmp_path: Path) -> Path:
    src = Path(__file__).resolve().parents[2] / "games" / "tiberius" / "content"
    dst = tmp_path / "pack"
    shutil.copytree(src, dst)
    return dst


def test_user_pack_loads_and_bad_pack_names_file_and_field(tmp_path):
    pack = _copy_pack(tmp_path)
    assert TiberiusGame(content_path=str(pack)).pack.name == "tiberius-reference"
    data = json.loads((pack / "careers.json").read_text())
    data["decks"][2]["cards"][0]["rows"][0]["icons"] = ["purple-ish"]
    (pack / "careers.json").write_text(json.dumps(data))
    with pytest.raises(ContentError) as err:
        TiberiusGame(content_path=str(pack))
    assert err.value.file.endswith("careers.json")
    assert err.value.field == "decks[2].cards[0].rows[0].icons[0]"
    pack2 = _copy_pack(tmp_path / "b")
    data = json.loads((pack2 / "adoptions.json").read_text())
    del data["cards"][8]
    (pack2 / "adoptions.json").write_text(json.dumps(data))
    with pytest.raises(ContentError) as err:
        TiberiusGame(content_path=str(pack2))
    assert err.value.field == "cards"


def test_reference_content_shape():
    c = game().pack
    assert len(c.cards) == 64 and len(c.decks) == 6 and min(len(d) for d in c.decks) == 8
    assert [a.code for a in c.adoptions if not a.authored] == ["A04", "A06"]
    his06 = c.card_by_code("HIS06")
    assert his06 is not None and his06.title == "Governor of Tarraconensis"


def test_prior_favours_small_bids():
    g = game()
    s = g.new_state(GameConfig(players=3), 4)
    prior = g.prior(s)
    assert prior is not None and abs(sum(prior) - 1.0) < 1e-9
    texts = [g.action_to_text(s, a) for a in g.legal_actions(s)]
    assert prior[texts.index("bid 1")] > prior[texts.index("bid 9")]
