"""The end-of-game rule in one place (games/tiberpunk/end.py) and the Score answer built on it.

rule: tiberpunk/end-of-game — most triumph tokens wins; a tie goes to the most coins; still tied,
the players share the victory.
"""

from __future__ import annotations

import random

import pytest

from games.core import CHANCE, TERMINAL, GameConfig
from games.core.records import replace
from games.errors import InvalidStateError
from games.tiberpunk import TiberpunkGame, end
from games.tiberpunk.state import PH_OVER, State
from solver.core import get_scorer

GAME = TiberpunkGame()


def _with(s: State, seat: int, *, tokens: int, coins: int) -> State:
    p = s.players[seat]
    otoks = (tokens, *p.otoks[1:])
    players = list(s.players)
    players[seat] = replace(p, otoks=otoks, coins=coins)
    return replace(s, players=tuple(players))


def _base(players: int = 3) -> State:
    return GAME.new_state(GameConfig(players=players), 1)


def test_most_tokens_wins() -> None:
    """rule: tiberpunk/end-of-game — most triumph tokens wins, whatever the coins."""
    s = _with(_with(_with(_base(), 0, tokens=3, coins=0), 1, tokens=2, coins=40), 2, tokens=1, coins=9)
    assert end.winners(s) == [0] and end.standings(s) == (1.0, 0.0, 0.0)
    assert end.places(s) == [1, 2, 3]


def test_coins_break_a_tie_then_the_victory_is_shared() -> None:
    """rule: tiberpunk/end-of-game — tied on tokens: most coins; still tied: shared."""
    s = _with(_with(_with(_base(), 0, tokens=3, coins=5), 1, tokens=3, coins=7), 2, tokens=1, coins=9)
    assert end.winners(s) == [1] and end.places(s) == [2, 1, 3]
    s = _with(s, 0, tokens=3, coins=7)
    assert end.standings(s) == (0.5, 0.5, 0.0) and end.places(s) == [1, 1, 3]


def test_returns_use_the_rule_at_the_end() -> None:
    """rule: tiberpunk/end-of-game — ``returns`` is the rule's standings once the game is over."""
    s = replace(_with(_with(_base(2), 0, tokens=2, coins=1), 1, tokens=2, coins=3), phase=PH_OVER)
    assert GAME.returns(s) == end.standings(s) == (0.0, 1.0)


def test_score_answers_with_reasons() -> None:
    """rule: tiberpunk/end-of-game — Score: tokens as the total, places, the coin tie-break named."""
    s = _with(_with(_with(_base(), 0, tokens=3, coins=5), 1, tokens=3, coins=7), 2, tokens=1, coins=9)
    report = get_scorer("tiberpunk")(GAME, s)
    assert report.game == "tiberpunk" and not report.final
    assert [x.total for x in report.seats] == [3.0, 3.0, 1.0]
    assert [x.rank for x in report.seats] == [2, 1, 3]
    assert "most coins" in report.seats[0].tiebreak[0] and "behind" in report.seats[0].tiebreak[1]
    assert report.seats[2].tiebreak == ()
    lines = report.seats[0].breakdown
    assert [(x.category, x.points, x.detail) for x in lines] == [
        ("triumph tokens on the hacking card", 3.0, "3 tokens × 1")
    ]
    assert sum(x.points for x in lines) == report.seats[0].total  # the sheet adds up; coins are no part
    s = _with(s, 0, tokens=3, coins=7)
    shared = get_scorer("tiberpunk")(GAME, s)
    assert [x.rank for x in shared.seats] == [1, 1, 3] and "shared" in shared.seats[0].tiebreak[1]


def test_score_of_a_finished_game_matches_returns() -> None:
    """rule: tiberpunk/end-of-game — a played-out game: rank 1 exactly for the seats ``returns`` pays."""
    s = GAME.new_state(GameConfig(players=2, options={"max_rounds": 6}), 4)
    rng = random.Random(4)
    while GAME.current_player(s) != TERMINAL:
        p = GAME.current_player(s)
        s = GAME.apply(s, GAME.sample_chance(s, rng) if p == CHANCE else rng.choice(GAME.legal_actions(s)))
    report = get_scorer("tiberpunk")(GAME, s)
    assert report.final
    returns = GAME.returns(s)
    assert [x.rank == 1 for x in report.seats] == [r > 0 for r in returns]


def test_score_refuses_another_game() -> None:
    with pytest.raises(InvalidStateError):
        get_scorer("tiberpunk")(GAME, "not a state")


def _play(players: int, seed: int, policy: str, **options: int | bool) -> State:
    s = GAME.new_state(GameConfig(players=players, options=dict(options)), seed)
    rng = random.Random(seed)
    while GAME.current_player(s) != TERMINAL:
        if GAME.current_player(s) == CHANCE:
            a = GAME.sample_chance(s, rng)
        else:
            acts, weights = GAME.legal_actions(s), GAME.prior(s)
            a = rng.choices(acts, weights=weights)[0] if policy == "prior" and weights else rng.choice(acts)
        s = GAME.apply(s, a)
    return s


@pytest.mark.parametrize("players", [2, 3, 4])
def test_games_end_by_the_rulebook_without_a_cap(players: int) -> None:
    """rule: tiberpunk/end-of-game — with the defaults (no round cap, no coin limit: issue 28) games
    end by an 8th triumph token, with a purposeful policy (the prior) and with random play; the score
    says how it ended."""
    for seed in range(4):
        for policy in ("prior", "random") if seed == 0 else ("prior",):
            last = _play(players, seed, policy)
            assert last.phase == PH_OVER and last.end and last.cfg.max_rounds == 0, (seed, policy)
            assert max(sum(p.otoks) for p in last.players) >= 8
            report = get_scorer("tiberpunk")(GAME, last)
            assert report.final and "8th triumph token" in report.ended_by
            assert "8th triumph token" in GAME.describe(last).headline


def test_a_game_ended_by_the_cap_says_so() -> None:
    """rule: tiberpunk/end-of-game — the max_rounds variant's end is named as a variant."""
    last = _play(3, 2, "random", max_rounds=5)
    assert last.phase == PH_OVER and not last.end and last.rnd == 5
    report = get_scorer("tiberpunk")(GAME, last)
    assert "max_rounds cap of 5 rounds (a variant, not in the rulebook)" in report.ended_by
    assert "a variant" in GAME.describe(last).headline


def test_the_coin_bank_variant_pays_only_what_the_box_holds() -> None:
    """rule: tiberpunk/collect-income — by default no coin limit; with coin_bank the players never
    hold more than the box's 70 coins between them."""
    most = {}
    for bank in (False, True):
        top = 0
        for seed in range(6):
            s = GAME.new_state(GameConfig(players=4, options={"coin_bank": bank}), seed)
            rng = random.Random(seed)
            while GAME.current_player(s) != TERMINAL:
                player = GAME.current_player(s)
                if player == CHANCE:
                    s = GAME.apply(s, GAME.sample_chance(s, rng))
                    continue
                acts, weights = GAME.legal_actions(s), GAME.prior(s)
                s = GAME.apply(s, rng.choices(acts, weights=weights)[0] if weights else rng.choice(acts))
                top = max(top, sum(p.coins for p in s.players))
        most[bank] = top
    assert most[True] <= 70 < most[False]


def test_ai_seats_of_a_level_end_the_game_without_a_cap() -> None:
    """rule: tiberpunk/end-of-game — two AI seats at the lowest level (its temperature) play a game
    to its 8th triumph token with no round cap (issue 28: no policy may stall a game; a search at
    temperature 0 and a few dozen simulations can: two lictors shuffled between two districts for
    hundreds of rounds, see docs/tiberpunk.md)."""
    from search import SearchBot, SearchLimit
    from search.api import LEVELS

    for seed in range(2):
        s = GAME.new_state(GameConfig(players=2), seed)
        sims = LEVELS[0].simulations
        bots = [
            SearchBot(GAME, level=1, limit=SearchLimit(simulations=sims), seed=seed * 10 + i)
            for i in range(2)
        ]
        rng = random.Random(seed)
        while GAME.current_player(s) != TERMINAL and s.rnd < 200:
            p = GAME.current_player(s)
            s = GAME.apply(s, GAME.sample_chance(s, rng) if p == CHANCE else bots[p].act(s))
        assert s.phase == PH_OVER and s.end, (seed, s.rnd)
