"""Tournaments and ratings (issue 33, batch/): the same results in one process, in a pool and on Ray;
Bradley–Terry ratings checked against hand-computed ones."""

from __future__ import annotations

import math

import pytest

from batch.ratings import PRIOR_DRAWS, PairResult, bradley_terry, elo_scale, rate
from batch.tournament import entrant, pair_results, run, schedule
from games.core import get_game
from games.errors import ConfigError

ENTRANTS = ["random", "greedy", "sims:8"]


def test_two_entrants_rate_as_their_record_says() -> None:
    """A beats B 3 times in 4: with the prior's half win each way, pi_A / pi_B = 3.5 / 1.5 exactly
    (the maximum likelihood of two entrants), so A is 400 log10(7/3) Elo above B."""
    results = [PairResult(0, 1, 1.0)] * 3 + [PairResult(0, 1, 0.0)]
    pi = bradley_terry(2, results)
    assert pi[0] / pi[1] == pytest.approx((3 + PRIOR_DRAWS / 2) / (1 + PRIOR_DRAWS / 2), rel=1e-9)
    elo = elo_scale(pi)
    assert elo[0] - elo[1] == pytest.approx(400 * math.log10(7 / 3), rel=1e-9)
    assert elo.mean() == pytest.approx(0.0, abs=1e-9)


def test_three_entrants_meet_the_likelihood_equations() -> None:
    """At the maximum, each entrant's wins equal its expected wins (the Bradley–Terry equations)."""
    results = (
        [PairResult(0, 1, 1.0)] * 5
        + [PairResult(0, 1, 0.0)] * 2
        + [PairResult(1, 2, 1.0)] * 4
        + [PairResult(1, 2, 0.5)] * 2
        + [PairResult(0, 2, 1.0)] * 6
    )
    pi = bradley_terry(3, results)
    wins = [0.0] * 3
    games: dict[tuple[int, int], float] = {}
    for r in results:
        wins[r.a] += r.score
        wins[r.b] += 1 - r.score
        games[(r.a, r.b)] = games.get((r.a, r.b), 0) + 1
    for a, b in games:  # the prior: one virtual game per pair, half a win each
        wins[a] += PRIOR_DRAWS / 2
        wins[b] += PRIOR_DRAWS / 2
        games[(a, b)] += PRIOR_DRAWS
    for i in range(3):
        expected = sum(
            n * pi[i] / (pi[i] + pi[b if a == i else a]) for (a, b), n in games.items() if i in (a, b)
        )
        assert expected == pytest.approx(wins[i], rel=1e-6)
    ratings = rate(["a", "b", "c"], results, samples=50)
    assert [r.name for r in ratings] == ["a", "b", "c"]
    assert all(r.low <= r.elo <= r.high for r in ratings)


def test_the_schedule_swaps_seats_on_shared_deals() -> None:
    jobs = schedule("tiberius", ENTRANTS, games=4, players=2, seed=5)
    assert len(jobs) == 3 * 4
    first = jobs[:4]
    assert [j.seats for j in first] == [("random", "greedy"), ("greedy", "random")] * 2
    assert first[0].seed == first[1].seed != first[2].seed
    three = schedule("cytress", ["greedy", "engine:automa"], games=2, players=3, seed=1)
    assert three[0].seats == ("greedy", "engine:automa", "greedy")
    assert three[1].seats == ("engine:automa", "greedy", "engine:automa")


def test_one_process_and_a_pool_give_the_same_tournament() -> None:
    one = run("tiberius", ENTRANTS, games=2, players=2, seed=7, bootstrap=20)
    pool = run("tiberius", ENTRANTS, games=2, players=2, seed=7, bootstrap=20, jobs=2)
    assert [g.returns for g in one.results] == [g.returns for g in pool.results]
    assert [(r.name, r.elo) for r in one.ratings] == [(r.name, r.elo) for r in pool.ratings]
    assert len(pair_results(ENTRANTS, one.results)) == 6
    data = one.to_json()
    assert data["entrants"] == ENTRANTS and len(data["games"]) == 6


def test_ray_gives_the_same_tournament() -> None:
    """The same seeds on a local Ray give the same games and ratings as one process."""
    ray = pytest.importorskip("ray")
    try:
        one = run("tiberius", ENTRANTS, games=2, players=2, seed=9, bootstrap=20)
        on_ray = run("tiberius", ENTRANTS, games=2, players=2, seed=9, bootstrap=20, ray_address="local")
    finally:
        ray.shutdown()
    assert [g.returns for g in one.results] == [g.returns for g in on_ray.results]
    assert [(r.name, r.elo) for r in one.ratings] == [(r.name, r.elo) for r in on_ray.ratings]


def test_bad_entrants_are_named() -> None:
    game = get_game("tiberpunk")
    for spec, words in (("engine:automa", "ships no engine"), ("level:11", "1 to 10"), ("wizard", "unknown")):
        with pytest.raises(ConfigError) as err:
            entrant(game, spec, seed=0)
        assert words in err.value.message and err.value.field == "entrants"
    with pytest.raises(ConfigError):
        run("tiberius", ["random", "random"], games=1)


def test_openspiel_mctsbot_is_an_entrant() -> None:
    """``openspiel:N``: OpenSpiel's MCTSBot on the same engine and evaluation, N simulations a move;
    the same games in one process and in a pool (its seed is the job's); in a game with hidden
    information it searches a state sampled from its seat's view."""
    pytest.importorskip("pyspiel")
    entrants = ["random", "openspiel:16"]
    one = run("tiberius", entrants, games=2, players=2, seed=11, bootstrap=10)
    pool = run("tiberius", entrants, games=2, players=2, seed=11, bootstrap=10, jobs=2)
    assert [g.returns for g in one.results] == [g.returns for g in pool.results]
    assert len(one.results) == 2 and all(g.moves > 0 for g in one.results)
    hidden = run(
        "tiberpunk",
        ["random", "openspiel:8"],
        games=1,
        players=2,
        seed=3,
        bootstrap=5,
        options={"max_rounds": 4},
    )
    assert len(hidden.results) == 1
    with pytest.raises(ConfigError):
        entrant(get_game("tiberius"), "openspiel:0", seed=0)
