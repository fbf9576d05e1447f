"""The ``max_rounds`` safety cap (not in the rulebook) and the heuristic for cut-off rollouts.

rule: tiberpunk/end-of-game — the rulebook ends the game only after an 8th triumph token; the engine
adds a cap on rounds so that random playouts terminate, and ``heuristic`` estimates ``returns`` from
what decides the game (tokens, then coins) plus quest progress.
"""

from __future__ import annotations

import random
from typing import Any

from games.core import CHANCE, TERMINAL, GameConfig
from games.core.records import replace
from games.tiberpunk.state import PH_OVER, State
from tests.tiberpunk.helpers import GAME, placed, put


def play_random(players: int, seed: int, **options: Any) -> list[State]:
    """Every state of a seeded random game."""
    s = GAME.new_state(GameConfig(players=players, options=options), seed)
    rng = random.Random(seed)
    out = [s]
    while GAME.current_player(s) != TERMINAL:
        if GAME.current_player(s) == CHANCE:
            a = GAME.sample_chance(s, rng)
        else:
            a = rng.choice(GAME.legal_actions(s))
        s = GAME.apply(s, a)
        out.append(s)
    return out


def test_max_rounds_is_an_opt_in_variant() -> None:
    """rule: tiberpunk/end-of-game — the rulebook ends the game only with an 8th triumph token: the
    cap is an opt-in option, off by default, described as not in the rulebook (issue 28)."""
    v = {x.name: x for x in GAME.info.variants}["max_rounds"]
    assert v.default == 0 and "not in the rulebook" in v.description
    assert GAME.new_state(GameConfig(players=2), 1).cfg.max_rounds == 0


def test_the_cap_ends_the_game_after_its_round() -> None:
    """rule: tiberpunk/end-of-game — with max_rounds=3 the game ends after round 3 as if triggered,
    everyone having had equal turns; 0 means no cap."""
    states = play_random(3, 4, max_rounds=3)
    last = states[-1]
    assert last.phase == PH_OVER and last.rnd == 3 and not last.end
    assert max(sum(p.otoks) for p in last.players) < 8
    assert abs(sum(GAME.returns(last)) - 1) < 1e-9
    uncapped = play_random(2, 5, max_rounds=0)  # random play rarely reaches 8 tokens: runs longer
    assert uncapped[-1].rnd > 80 or uncapped[-1].end


def test_heuristic_counts_tokens_quest_progress_and_coins() -> None:
    """rule: tiberpunk/end-of-game, rule: tiberpunk/storyline-objectives — each raises a seat's value."""
    base = placed(2)
    h0 = GAME.heuristic(base)  # the seats stand in different districts: not exactly even
    assert abs(sum(h0) - 1) < 1e-9
    token = put(base, 0, otoks=(1, 0, 0, 0))
    stage2 = put(base, 0, story=(1, 0, 0), cards=(0, -1, -1))
    stage3 = put(base, 0, story=(2, 0, 0), cards=(0, -1, -1))
    coins = put(base, 0, coins=base.players[0].coins + 4)
    for s in (token, stage2, stage3, coins):
        h = GAME.heuristic(s)
        assert h[0] > h0[0] and abs(sum(h) - 1) < 1e-9
    assert GAME.heuristic(stage3)[0] > GAME.heuristic(stage2)[0]
    assert GAME.heuristic(token)[0] > GAME.heuristic(coins)[0]  # a token outweighs 4 coins


def test_heuristic_in_the_final_round_leans_to_the_standings() -> None:
    """rule: tiberpunk/end-of-game — after the trigger (or in the cap's round) the leader by tokens,
    then coins, gets at least half; a finished game gives ``returns``."""
    s = put(put(placed(2, max_rounds=40), 0, otoks=(3, 2, 1, 1)), 1, otoks=(3, 2, 1, 0), coins=30)
    mid = GAME.heuristic(s)
    final = GAME.heuristic(replace(s, end=True))
    capped = GAME.heuristic(replace(s, rnd=s.cfg.max_rounds))
    assert final == capped and final[0] >= 0.5 and final[0] > mid[0]
    over = replace(s, end=True, phase=PH_OVER)
    assert GAME.heuristic(over) == GAME.returns(over) == (1.0, 0.0)


def test_cut_off_random_rollouts_get_informative_values() -> None:
    """rule: tiberpunk/end-of-game — at a cut-off, seats differ and the token leader is valued highest."""
    for seed in range(3):
        states = play_random(3, seed, max_rounds=12)
        cut = states[len(states) * 3 // 4]
        h = GAME.heuristic(cut)
        assert len(set(h)) > 1 and abs(sum(h) - 1) < 1e-9
        toks = [sum(p.otoks) for p in cut.players]
        if toks.count(max(toks)) == 1:
            assert h[toks.index(max(toks))] == max(h)
