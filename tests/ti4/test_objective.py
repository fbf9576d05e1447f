"""The builder's objective beyond the gap: weighted secondary terms (wormhole and legendary spread,
seats without a specialty) and the factions' home systems; each cross-checked by brute force."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.errors import ConfigError
from games.ti4.balance import SCALE, Weights, home_bonus, home_system, tile_points
from games.ti4.legality import check_string
from games.ti4.mapstring import parse_map_string
from solver.core import SolveLimits, Status, get_puzzle
from solver.ti4 import (
    MapProblem,
    brute_force_map,
    canonical,
    map_problem,
    objective_units,
    secondary_terms,
    solve_map,
    with_weights,
)
from tests.ti4.helpers import GAME
from tests.ti4.test_solver import _small

PACK = GAME.pack


@pytest.mark.parametrize(("term", "seed", "players"), [("wormhole_spread", 0, 4), ("legendary_spread", 6, 4)])
def test_weighted_term_changes_the_answer_as_brute_force_does(term: str, seed: int, players: int) -> None:
    """rule: ti4/wormhole-adjacency - with a weight on the spread the most even map by the gap alone
    is no longer the answer: CP-SAT and brute force agree on both optima."""
    plain = _small(seed, players, Weights())
    weighted = replace(plain, **{term: 1.0})
    exact0, exact1 = brute_force_map(PACK, plain), brute_force_map(PACK, weighted)
    assert exact0 is not None and exact1 is not None
    sol0 = solve_map(PACK, plain, time_limit_s=20, workers=1)
    sol1 = solve_map(PACK, weighted, time_limit_s=20, workers=1)
    assert sol0.status == Status.OPTIMAL and sol0.objective == pytest.approx(exact0[0], abs=1e-9)
    assert sol1.status == Status.OPTIMAL and sol1.objective == pytest.approx(exact1[0], abs=1e-9)
    assert sol1.gap > sol0.gap  # the weight traded evenness of value for evenness of the term
    assert secondary_terms(PACK, weighted, exact1[1])[term] < secondary_terms(PACK, plain, exact0[1])[term]
    assert sol1.objective == pytest.approx(sol1.gap + sol1.terms[term])
    assert objective_units(PACK, weighted, sol1.galaxy) == round(sol1.objective * SCALE)


def test_specialty_term_counts_homes_without_one() -> None:
    """rule: ti4/home-systems - the soft "no seat without a specialty": each home with no technology
    specialty within ``specialty_reach`` jumps costs the weight; CP-SAT equals brute force."""
    plain = _small(1, 3, Weights())
    weighted = replace(plain, specialty_missing=0.5, specialty_reach=1)
    exact = brute_force_map(PACK, weighted)
    assert exact is not None
    sol = solve_map(PACK, weighted, time_limit_s=20, workers=1)
    assert sol.status == Status.OPTIMAL and sol.objective == pytest.approx(exact[0], abs=1e-9)
    assert sol.objective == pytest.approx(sol.gap + 0.5 * sol.terms["specialty_missing"])


def test_weights_must_be_multiples_of_a_twentieth() -> None:
    problem = replace(map_problem(PACK, players=3), wormhole_spread=0.33)
    with pytest.raises(ConfigError, match="wormhole_spread"):
        problem.term_units()


def test_weighted_full_map_and_hard_requests_stay_legal() -> None:
    """The full-map builder (the decomposition) with weights and the hard requests together: a
    legal map whose reported objective is the measure's."""
    problem = replace(
        map_problem(PACK, players=4, expansion="base"),
        wormhole_spread=0.5,
        specialty_missing=0.5,
        max_wormholes_per_home=2,
    )
    sol = solve_map(PACK, problem, time_limit_s=2.5, workers=1)
    assert sol.status in (Status.OPTIMAL, Status.FEASIBLE)
    assert objective_units(PACK, problem, sol.galaxy) == round(sol.objective * SCALE)
    assert set(sol.terms) == {"wormhole_spread", "legendary_spread", "specialty_missing"}


def test_interchangeable_tiles_are_renumbered_not_moved() -> None:
    """Symmetry breaking: the empty red systems are interchangeable; ``canonical`` renumbers them
    into the builder's order without changing the values or the legality."""
    problem = map_problem(PACK, players=6, expansion="base")
    sol = solve_map(PACK, problem, time_limit_s=1.0, workers=1)
    out = canonical(PACK, problem, sol.galaxy)
    assert objective_units(PACK, problem, out) == objective_units(PACK, problem, sol.galaxy)
    empties = [t for t in (46, 47, 48, 49, 50) if t in out.values()]
    spots = sorted((p for p, t in out.items() if t in empties), key=problem.open.index)
    assert [out[p] for p in spots] == sorted(empties)


# ------------------------------------------------------------------------------- factions


def test_home_system_counts_for_its_seat() -> None:
    """rule: ti4/factions - a home system counts for its own seat at ``weights.home``, as its tile
    prints it; the Creuss Gate stands for the Ghosts' home system off the board (tile 51)."""
    w = Weights(home=1.0)
    tiles = PACK.tiles
    assert home_bonus(1, tiles, w) == tile_points(tiles[1], w) * 20 * 60
    assert home_system(17, tiles) is tiles[51]
    assert home_bonus(17, tiles, w) == home_bonus(51, tiles, w) > 0
    assert home_bonus(1, tiles, Weights()) == 0


def _with_homes(problem: MapProblem, homes: tuple[int, ...]) -> MapProblem:
    return replace(with_weights(problem, replace(problem.weights, home=1.0)), home_tiles=homes)


@pytest.mark.parametrize("seed", [1, 3])
def test_builder_with_factions_equals_brute_force(seed: int) -> None:
    """rule: ti4/factions - with the home systems known the builder balances them too: CP-SAT equals
    brute force, and the values differ from the faction-blind ones by each home system's value."""
    plain = _small(seed, 3, Weights())
    known = _with_homes(plain, (1, 17, 4))
    exact = brute_force_map(PACK, known)
    assert exact is not None
    sol = solve_map(PACK, known, time_limit_s=20, workers=1)
    assert sol.status == Status.OPTIMAL and sol.gap == pytest.approx(exact[0], abs=1e-9)
    blind = solve_map(PACK, plain, time_limit_s=20, workers=1)
    again = solve_map(PACK, replace(known, home_tiles=()), time_limit_s=20, workers=1)
    assert again.gap == pytest.approx(blind.gap)


def test_balanced_map_with_factions_passes_the_checker() -> None:
    """rule: ti4/factions - the request names a faction per seat: the home systems stand in the map
    string (the Creuss Gate for the Ghosts), the map passes the checker and the home values count
    the home systems."""
    _, fn = get_puzzle("ti4.balanced_map")
    params = {"players": 3, "expansion": "pok", "factions": ["sol", "creuss", "nekro"]}
    res = fn(GAME, None, params, SolveLimits(time_limit_s=1.0, workers=1))
    assert res.status in (Status.OPTIMAL, Status.FEASIBLE)
    text = res.answer["map_string"]
    parsed = parse_map_string(text)
    homes = res.answer["home_positions"]
    nekro = PACK.faction("nekro")
    assert nekro is not None
    assert [parsed.at(h) for h in homes] == [1, 17, nekro.home]
    assert check_string(PACK, text, players=3, expansion="pok").ok
    assert res.answer["factions"] == ["sol", "creuss", "nekro"]
    assert "home systems" in res.explanation


@pytest.mark.parametrize(
    ("factions", "field"),
    [
        (["sol"], "params.factions"),
        (["sol", "sol", "hacan"], "params.factions[1]"),
        (["sol", "nobody", "hacan"], "params.factions[1]"),
        (["sol", "hacan", "nomad"], "params.factions[2]"),  # a PoK faction in a base game
    ],
)
def test_balanced_map_bad_factions(factions: list[str], field: str) -> None:
    _, fn = get_puzzle("ti4.balanced_map")
    with pytest.raises(ConfigError) as err:
        fn(
            GAME,
            None,
            {"players": 3, "expansion": "base", "factions": factions},
            SolveLimits(time_limit_s=1.0),
        )
    assert err.value.field == field
