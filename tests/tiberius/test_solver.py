"""Solver cross-checks: every solver equals brute-force enumeration on >= 500 seeded instances.

rule: tiberius/cube-phase, rule: tiberius/tie-breaker (placements and scores), rule: tiberius/card-phase
(best bid), rule: tiberius/end-of-game (elimination).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.core import GameConfig
from games.core.records import replace, replace_at
from games.errors import LictorError
from games.tiberius.model import ADOPT, CARD, CUBE, IN, OVER, PCIM_CARD, PICK, Player
from games.tiberius.rules import MOVE_BOXES
from games.tiberius.scoring import chain_key, consul_points
from solver.core import SolveLimits, Status, get_puzzle, get_scorer
from solver.tiberius import (
    best_bid,
    best_placement,
    brute_force_bid,
    brute_force_elimination,
    brute_force_placement,
    elimination,
    score,
)
from tests.tiberius.helpers import at_card_phase, cv, game, run

ONE = SolveLimits(time_limit_s=10.0, workers=1)


VARIANTS: dict[str, str | int] = {
    "marriage_vp": "aid",
    "pcim_rule": "influence",
    "influence_table": "mat",
    "imperator_solo": "most",
    "imperator_empty": "least",
    "turns": 7,
}


def _states(seed: int, players: int, keep, *, every: int = 1):
    """Yield the states of a seeded random playout for which ``keep(state)`` holds (one seed in
    four plays with every variant option switched)."""
    g = game()
    rng = random.Random(seed)
    options: dict[str, str | int] = {**VARIANTS, "oldest_seat": seed % players} if seed % 4 == 0 else {}
    s = g.new_state(GameConfig(players=players, options=options), seed)
    k = 0
    while not g.is_terminal(s):
        if keep(s):
            k += 1
            if k % every == 0:
                yield s
        s = g.apply(s, rng.choice(list(g.legal_actions(s))))


def _instances(kind: str, count: int, make) -> list[Any]:
    """``count`` instances from ``make(seed)`` (each call yields zero or more)."""
    out: list[Any] = []
    seed = 0
    while len(out) < count:
        seed += 1
        out.extend(make(seed))
        assert seed < count * 5, f"too few {kind} instances"
    return out[:count]


# ------------------------------------------------------------------------------------ score


def _reference_points(cubes, adopted, ages):
    """An independent brute-force scorer: a seat's place = 1 + the seats that beat it pairwise."""
    n = len(cubes)
    keys = [chain_key(cubes[s], adopted[s], ages[s]) for s in range(n)]

    def place(s, box, need):
        if cubes[s][box] < need:
            return 0
        return 1 + sum(
            1
            for t in range(n)
            if t != s and cubes[t][box] >= need and (cubes[t][box], keys[t]) > (cubes[s][box], keys[s])
        )

    out = []
    for s in range(n):
        x = cubes[s]
        v = {1: 10, 2: 5, 3: 2}.get(place(s, 0, 1), 0)
        others_im = [cubes[t][1] for t in range(n) if t != s]
        v += 5 if x[1] >= 1 and all(x[1] > o for o in others_im) else (-5 if x[1] == 0 else 0)
        p = place(s, 2, 1)
        v += 0 if p == 0 else {1: 12, 2: 10}.get(p, 7)
        v += consul_points(x[3])
        p = place(s, 4, 1)
        v += 0 if p == 0 else {1: 6, 2: 5, 3: 4}.get(p, 2)
        v += 2 * x[5] if x[5] else -3
        # rule: tiberius/score-imperator with the literal readings: all ties broken, even at 0
        # cubes each, and a lone player is both most and least.
        p_all = place(s, 6, 0)
        v += x[6] + (3 if p_all == 1 else 0) - (3 if p_all == n else 0)
        v += x[7] + (8 if adopted[s] else 0) + x[9] // 3
        out.append(v)
    return out


def test_score_equals_reference_on_500_instances():
    """rule: tiberius/tie-breaker - exact scores with every tie broken equal the pairwise reference."""
    g = game()
    rng = random.Random(2026)
    base = at_card_phase(3, ["HIS01"])
    for _ in range(500):
        n = rng.randint(1, 6)
        cubes = tuple((*(rng.randint(0, 3) for _ in range(10)), 0) for _ in range(n))
        adopted = tuple(rng.choice([-1, -1, 1]) for _ in range(n))
        age = tuple(rng.sample(range(n), n))
        players = tuple(Player(cubes=c, adopted=a) for c, a in zip(cubes, adopted, strict=True))
        s = replace(base, players=players, age=age)
        report = score(g, s)
        ranks = [age.index(p) for p in range(n)]
        expected = _reference_points(cubes, [a >= 0 for a in adopted], ranks)
        assert [int(x.total) for x in report.seats] == expected
        assert g.totals(s) == expected  # the fast path agrees
        assert sorted(x.rank for x in report.seats) == list(range(1, n + 1))


def test_score_report_shape_and_registry():
    """rule: tiberius/score-influence - the report lists every category, and the deciding tie-breaks."""
    # seat 0 wins the chain at priesthoods, so seat 1 is least in Imperator (-3); totals are equal
    s = at_card_phase(
        2, ["HIS01"], cubes=[cv(IN=9, PR=2), cv(IN=9, CC=2)], age=(1, 0), options={"imperator_empty": "least"}
    )
    report = get_scorer("tiberius")(game(), s)
    assert report.game == "tiberius" and not report.final
    assert report.seats[0].total == report.seats[1].total
    assert [x.rank for x in report.seats] == [1, 2]
    assert report.seats[0].tiebreak == ("priesthoods: 2 vs 0, ahead of seat 1",)
    assert report.seats[1].tiebreak == ("priesthoods: 0 vs 2, behind seat 0",)
    assert len(report.seats[0].breakdown) == 11
    assert {"tiberius.best_placement", "tiberius.best_bid", "tiberius.elimination"} <= {
        k for k in ("tiberius.best_placement", "tiberius.best_bid", "tiberius.elimination") if get_puzzle(k)
    }


# ------------------------------------------------------------------------------------ placement


def _placement_instance(seed):
    rng = random.Random(seed)
    for s in _states(seed, rng.randint(2, 3), lambda st: st.phase == CUBE, every=2):
        seat = s.actor
        x = list(s.players[seat].cubes)
        if s.players[seat].played == -2:  # keep the PCIM brute force small: trim the cubes to move
            x[IN] = min(x[IN], rng.randint(2, 5))
            s = replace(s, players=replace_at(s.players, seat, replace(s.players[seat], cubes=tuple(x))))
            if sum(x) - x[2] > 8:
                continue
        yield s


def test_best_placement_equals_brute_force_on_150_instances():
    """rule: tiberius/cube-phase - CP-SAT's best placement equals enumeration of every legal line."""
    g = game()
    instances = _instances("placement", 150, _placement_instance)
    pcim = 0
    for s in instances:
        expected, _ = brute_force_placement(g, s)
        res = best_placement(g, s, {"method": "cp-sat"}, ONE)
        assert res.status is Status.OPTIMAL and res.method == "cp-sat"
        assert res.objective == expected == res.answer["vp"]
        assert res.bound >= res.objective
        pcim += s.players[s.actor].played == -2
    assert pcim >= 3


def test_best_placement_auto_method_is_exact_either_way(monkeypatch: pytest.MonkeyPatch):
    """rule: tiberius/cube-phase - ``method="auto"`` enumerates small instances and hands larger
    ones to CP-SAT; either way the optimum equals exhaustive enumeration. (The threshold is lowered
    so that these small instances fall on both sides of it.)"""
    import solver.tiberius.params

    monkeypatch.setattr(solver.tiberius.params, "ENUMERATION_STATES", 6)
    g = game()
    methods = set()
    for s in _instances("placement-auto", 40, _placement_instance):
        expected, line = brute_force_placement(g, s)
        res = best_placement(g, s, {}, ONE)
        assert res.status is Status.OPTIMAL and res.objective == expected == res.answer["vp"]
        if res.method == "enumeration":
            assert res.answer["actions"] == line and res.bound == res.objective
        methods.add(res.method)
    assert methods == {"enumeration", "cp-sat"}
    with pytest.raises(LictorError) as err:
        best_placement(g, s, {"method": "magic"}, ONE)
    assert err.value.field == "params.method"


def test_best_placement_rejects_other_phases():
    from games.errors import IllegalActionError

    with pytest.raises(IllegalActionError) as err:
        best_placement(game(), at_card_phase(2, ["HIS01"]), {}, ONE)
    assert err.value.rule == "tiberius/cube-phase"


# ------------------------------------------------------------------------------------ best bid


def _bid_instance(seed):
    rng = random.Random(seed)
    n = rng.randint(1, 3)
    for s in _states(seed, n, lambda st: st.phase == CARD, every=3):
        seat = s.actor
        x = list(s.players[seat].cubes)
        x[IN] = min(x[IN], rng.randint(0, 6))  # small bids keep the brute force fast
        if rng.random() < 0.5:
            x[0] += min(rng.randint(0, 25), 40 - sum(x))  # scarce stock or not: both paths
        s = replace(s, players=replace_at(s.players, seat, replace(s.players[seat], cubes=tuple(x))))
        if rng.random() < 0.85:  # PCIM lines need a CP-SAT solve each: keep most instances without
            s = replace(s, players=replace_at(s.players, seat, replace(s.players[seat], pcim_used=True)))
        order = [(s.start_priority + k) % n for k in range(n)]
        later = order[order.index(seat) + 1 :]  # the seats still to act in this card phase
        others = {str(o): f"bid {rng.randint(1, 6)}" for o in later if rng.random() < 0.6}
        if rng.random() < 0.15:  # unknown seats' actions sampled from the likely-bid model
            yield s, {"others": others, "samples": 2, "seed": seed}
        else:
            yield s, {"others": others}


def test_best_bid_equals_brute_force_on_120_instances():
    """rule: tiberius/card-phase - the collapsed bid enumeration equals trying every action."""
    g = game()
    collapsed = 0
    for s, params in _instances("bid", 120, _bid_instance):
        expected = brute_force_bid(g, s, params)
        res = best_bid(g, s, params, ONE)
        assert res.status is Status.OPTIMAL and res.objective == expected, (g.state_to_text(s), params)
        assert res.answer["scenarios"] == params.get("samples", 1)
        collapsed += res.answer["evaluated"] < len(g.legal_actions(s))
    assert collapsed > 10  # the enumeration really is smaller than brute force


def _engine_oracle(state, plan):
    """Every legal card-phase action of the seat to act, valued by playing the engine itself to the end
    of the turn: the seat's every later decision tried (its pick, every cube decision one by one,
    PCIM moves included, its adoption), the other seats by the puzzle's opponent model (their plan
    or take 2 in the card phase; the card with most top-row icons; a PCIM player moves from its last
    box and stops at 5; otherwise the first legal action); the value is the seat's VP when the turn
    is over. Written apart from ``solver.tiberius`` (no pruned bids, no CP-SAT, no shared helper)."""
    g = game()
    seat, turn = state.actor, state.turn
    memo: dict[Any, int] = {}

    def planned(s):
        text = plan.get(s.actor) or plan.get(str(s.actor))
        if text is not None:
            action = g.parse_action(s, text)
            if action in g.legal_actions(s):
                return action
        return g.parse_action(s, "take 2 influence")

    def model(s):
        legal = list(g.legal_actions(s))
        if s.phase == PICK:
            icons = [len(g.pack.cards[a.arg].rows[0].icons) for a in legal]
            return legal[icons.index(max(icons))]
        if s.phase == CUBE and s.players[s.actor].played == PCIM_CARD:
            return legal[-1]
        return legal[0]

    def value(s):
        if s.turn != turn or g.is_terminal(s):
            return g.totals(s)[seat]
        if s not in memo:
            if s.actor == seat:
                memo[s] = max(value(g.apply(s, a)) for a in g.legal_actions(s))
            else:
                memo[s] = value(g.apply(s, planned(s) if s.phase == CARD else model(s)))
        return memo[s]

    return {g.action_to_text(state, a): value(g.apply(state, a)) for a in g.legal_actions(state)}


def _small_bid_instance(seed):
    """``_bid_instance`` where the oracle's PCIM enumeration stays small (at most 300 positions)."""
    for s, params in _bid_instance(seed):
        positions = 1
        for b in MOVE_BOXES:
            positions *= s.players[s.actor].cubes[b] + 1
        if s.players[s.actor].pcim_used or positions <= 300:
            yield s, params


def test_best_bid_values_only_this_turn_on_a_fresh_game():
    """rule: tiberius/card-phase - on a fresh 2-player game every action is valued at the end of this
    turn (issue 16: take 2 was valued after eight turns of everybody taking 2 Influence)."""
    g = game()
    s = g.new_state(GameConfig(players=2), 0)
    res = best_bid(g, s, {}, ONE)
    expected = _engine_oracle(s, {})
    got = {c["action"]: c["vp"] for c in res.answer["candidates"]}
    assert (
        got["take 2 influence"]
        == expected["take 2 influence"]
        == g.totals(run(s, "take 2 influence", "take 2 influence"))[s.actor]
    )
    assert got == {a: expected[a] for a in got}
    assert res.objective == max(expected.values())


def test_best_bid_equals_an_engine_enumeration_on_60_instances():
    """rule: tiberius/card-phase, rule: tiberius/cube-phase, rule: tiberius/adoption-phase - the
    puzzle's value of every action it evaluates, and its best value, equal the engine oracle's (every
    action tried, every line played). PCIM lines go to CP-SAT or enumeration (``method``)."""
    g = game()
    cp_sat = 0
    for i, (s, params) in enumerate(_instances("bid-oracle", 60, _small_bid_instance)):
        params = {"others": params["others"], "method": ("auto", "cp-sat")[i % 2]}
        expected = _engine_oracle(s, params["others"])
        res = best_bid(g, s, params, ONE)
        assert res.status is Status.OPTIMAL
        assert res.objective == max(expected.values()), (g.state_to_text(s), params)
        for c in res.answer["candidates"]:
            assert c["vp"] == expected[c["action"]], (c, g.state_to_text(s), params)
        cp_sat += params["method"] == "cp-sat" and not s.players[s.actor].pcim_used
    assert cp_sat >= 2


# ------------------------------------------------------------------------------------ elimination


def _elimination_instance(seed):
    rng = random.Random(seed)
    n = rng.randint(1, 3)
    for s in _states(seed, n, lambda st: st.turn == 8 and st.phase >= CUBE):
        for seat in range(n):
            try:
                answer = brute_force_elimination(game(), s, seat, max_nodes=100)
            except RuntimeError:
                continue
            yield s, seat, answer


def test_elimination_equals_brute_force_on_150_instances():
    """rule: tiberius/end-of-game - YES (with a witness that wins) / NO agree with exhaustive search."""
    g = game()
    yes = no = 0
    for i, (s, seat, expected) in enumerate(_instances("elimination", 150, _elimination_instance)):
        res = elimination(g, s, {"seat": seat, "probes": i % 2}, ONE)  # with and without guided lines
        assert res.status in (Status.OPTIMAL, Status.INFEASIBLE)
        assert (res.status is Status.OPTIMAL) == expected
        if expected:
            yes += 1
            end = s
            for text in res.answer["witness"]:
                end = g.apply(end, g.parse_action(end, text))
            assert end.phase == OVER and g.returns(end)[seat] == 1.0
        else:
            no += 1
    assert yes > 15 and no > 15


def test_elimination_bound_proves_no_early():
    """rule: tiberius/end-of-game - a hopeless seat is eliminated by the bound alone."""
    s = at_card_phase(2, ["HIS01"], cubes=[cv(IN=0), cv(CC=20, PR=15, IP=5)], pcim_used=(True, True), turn=8)
    s = replace(s, phase=ADOPT)
    res = elimination(game(), s, {"seat": 0}, ONE)
    assert res.status is Status.INFEASIBLE and res.answer["can_finish_first"] == "no"
    assert res.answer["upper_bound"] < res.answer["leader_guaranteed"]


def test_score_of_finished_games_matches_returns():
    """rule: tiberius/end-of-game - the scorer's first place is the seat ``returns`` calls the winner."""
    g = game()
    for seed in range(20):
        players = 1 + seed % 6
        s = g.new_state(GameConfig(players=players), seed)
        rng = random.Random(seed)
        while not g.is_terminal(s):
            s = g.apply(s, rng.choice(list(g.legal_actions(s))))
        report = score(g, s)
        assert report.final
        first = [x.seat for x in report.seats if x.rank == 1]
        returns = g.returns(s)
        if players > 1:
            assert returns[first[0]] == 1.0 and sum(returns) == 1.0
        else:
            assert returns[0] == (1.0 if report.seats[0].total >= 45 else 0.0)


def test_placement_handles_every_status_under_a_tiny_time_limit():
    """Every CP-SAT status maps to a result; a non-answer carries no actions."""
    g = game()
    for s in _placement_instance(3):
        res = best_placement(g, s, {"method": "cp-sat"}, SolveLimits(time_limit_s=1e-6, workers=1))
        assert res.status in (Status.OPTIMAL, Status.FEASIBLE, Status.UNKNOWN)
        if res.status is Status.UNKNOWN:
            assert not res.answer and res.method == "cp-sat"
        else:
            assert res.answer["actions"] is not None


BAD_NUMBERS: list[Any] = [
    -1,
    float("nan"),
    float("inf"),
    -float("inf"),
    10**100,
    2.5,
    True,
    "x",
    None,
    [],
    {},
    "9" * 5000,
]


def test_puzzle_params_are_validated():
    """Bad parameters fail with a LictorError naming ``params.<name>`` (never KeyError/TypeError):
    unknown names, wrong types, negative, NaN, infinite and huge numbers (issue 16)."""
    s = at_card_phase(2, ["HIS01"])
    bad_elimination: list[dict[str, Any]] = [{"seat": 5}, {"seat": "x"}, {"max_nodes": 0}, {"probes": True}]
    bad_elimination += [{key: v} for key in ("seat", "max_nodes", "probes") for v in BAD_NUMBERS]
    bad_elimination += [{"colour": "red"}, {7: 1}]  # type: ignore[dict-item]
    for params in bad_elimination:
        with pytest.raises(LictorError) as err:
            elimination(game(), s, params, ONE)
        assert err.value.field.startswith("params."), params
    bad_bid: list[dict[str, Any]] = [
        {"others": {"zero": "take 2 influence"}},
        {"others": {"0": "take 2 influence"}},  # the seat that asks
        {"others": {"1": "pick HIS01"}},  # not a card-phase action
        {"others": {"1": "fly"}},
        {"others": {"1": 3}},
        {"others": {"1": "bid " + "9" * 5000}},
        {"others": {"-1": "take 2 influence"}},
        {"others": [1, 2]},
        {"samples": 999},
        {"method": "magic"},
        {"sample": 2},
    ]
    bad_bid += [{"samples": v} for v in BAD_NUMBERS if v is not None]
    bad_bid += [{"seed": v} for v in BAD_NUMBERS if v not in (None, -1)]  # a seed may be negative
    for params in bad_bid:
        with pytest.raises(LictorError) as err:
            best_bid(game(), s, params, ONE)
        assert err.value.field.startswith("params."), params
    cube = run(at_card_phase(2, ["HIS02"]), "buy HIS02", "take 2 influence")
    for params in ({"method": 3}, {"method": None}, {"methods": "auto"}):
        with pytest.raises(LictorError) as err:
            best_placement(game(), cube, params, ONE)
        assert err.value.field.startswith("params."), params
    with pytest.raises(LictorError) as err:
        best_bid(game(), s, [], ONE)  # type: ignore[arg-type]
    assert err.value.field == "params"
    # integral floats and digit strings are accepted
    assert elimination(game(), s, {"seat": 1.0, "max_nodes": "50"}, ONE).answer["seat"] == 1
