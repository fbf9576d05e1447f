"""Hints a person can trust (issue 30) for Cytress: where a seat stands in the rulebook's terms
(``outcome_facts``), the exact best-placement advice at a crew's or a waste tube's hex, and a hint
that ranks by it and says so."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator

import grpc
import pytest

from games.core import TERMINAL, GameConfig
from games.cytress.scoring import card_facts
from games.cytress.state import AUTOMA, CREW, PAD, TUBE, CytressState
from games.cytress.tubes import buildable
from lictor.v1 import advisor_service_pb2 as advisor_pb
from lictor.v1 import position_pb2 as pos_pb
from search import SearchLimit
from service import jobs
from service.advisor import build_hints
from service.client import Stubs, stubs
from service.limits import Limits
from service.server import create_server
from solver.core import SolveLimits, get_advice, get_scorer
from solver.cytress import Placement, best_placement, margin_of
from tests.cytress.helpers import GAME

LIMITS = SolveLimits(time_limit_s=30.0, workers=1)


def _positions(players: int, step: int, count: int, seed: int) -> list[CytressState]:
    """``count`` positions where a seat chooses among two or more hexes at ``step``, from random play."""
    rng = random.Random(seed)
    out: list[CytressState] = []
    while len(out) < count:
        s = GAME.new_state(GameConfig(players=players), rng.randrange(10**6))
        while GAME.current_player(s) != TERMINAL and len(out) < count:
            legal = list(GAME.legal_actions(s))
            if s.step == step and len(legal) >= 2 and rng.random() < 0.3:
                out.append(s)
            s = GAME.apply_trusted(s, rng.choice(legal))
    return out


@pytest.mark.parametrize("players", [1, 3])
def test_outcome_facts_are_the_score_by_category(players: int) -> None:
    """rule: cytress/score-crews-on-stratos, rule: cytress/score-stratos-rewards, rule:
    cytress/score-waste-tubes, rule: cytress/score-bounties - the first fact is the PRESTIGE the
    rebellion would give now, the categories add up to it, the lead is over the best rival (solo:
    the automa), and every position gives the same labels."""
    labels = None
    for s in _positions(players, CREW, 6, seed=players):
        seat = s.actor
        facts = GAME.outcome_facts(s, seat)
        scores = GAME.scores(s)
        assert facts[0].value == scores[seat]
        rival = scores[AUTOMA] if s.solo else max(x for o, x in enumerate(scores) if o != seat)
        assert facts[1].label == ("lead over the automa" if s.solo else "lead over the best rival")
        assert facts[1].value == scores[seat] - rival
        parts = [f.value for f in facts if f.label.endswith(" PRESTIGE") and f is not facts[0]]
        assert sum(parts) == facts[0].value
        names = [f.label for f in facts]
        assert labels in (None, names)
        labels = names
    assert GAME.round_word == "round"


@pytest.mark.parametrize("players", [1, 3])
def test_crew_advice_is_the_exact_best_placement(players: int) -> None:
    """rule: cytress/meet-a-faction, rule: cytress/waste-tubes - at a crew's hex the advice values
    every legal hex by the final margin with the crew there and the best tube drop after it: equal
    to scoring every such placement (enumeration), and its best is the best of them."""
    advise = get_advice("cytress")
    assert advise is not None
    for s in _positions(players, CREW, 8, seed=10 + players):
        advice = advise(GAME, s, (), LIMITS)
        assert advice is not None and advice.decides
        tubes = 1 if buildable(s) else 0
        for a in GAME.legal_actions(s):
            hexes = [s.map.layout.labels[a.arg]]
            params = {"crews": 1, "tubes": tubes, "hexes": hexes, "method": "enumeration"}
            found = best_placement(GAME, s, params, LIMITS)
            assert advice.values[GAME.action_to_text(s, a)] == found.answer["margin"]
        assert advice.values[advice.best] == max(advice.values.values())


def test_tube_advice_is_the_margin_with_the_tube_there() -> None:
    """rule: cytress/waste-tubes, rule: cytress/score-waste-tubes - at a waste tube's hex every legal
    hex is valued by the final margin with the tube of the chosen height there."""
    advise = get_advice("cytress")
    assert advise is not None
    for s in _positions(3, TUBE, 6, seed=4):
        advice = advise(GAME, s, (), LIMITS)
        assert advice is not None
        facts = card_facts(GAME.pack, s)
        for a in GAME.legal_actions(s):
            want = margin_of(facts, s, s.actor, Placement((), ((a.arg, s.pending.height),)))
            assert advice.values[GAME.action_to_text(s, a)] == want


def test_no_advice_where_the_solver_asks_nothing() -> None:
    """rule: cytress/phase-3a-travel - a landing pad is no placement: the hint is the search's."""
    advise = get_advice("cytress")
    assert advise is not None
    for s in _positions(3, PAD, 3, seed=5):
        assert advise(GAME, s, (), LIMITS) is None


def test_a_crew_hint_ranks_by_the_exact_margin_and_says_why() -> None:
    """rule: cytress/meet-a-faction - a hint at a crew's hex puts the solver's best first, shows the
    exact margin as its first number, and #1 never looks worse than #2 on it."""
    s = _positions(3, CREW, 1, seed=21)[0]
    found = jobs.hint(
        game="cytress",
        pack="",
        state=s,
        limit=SearchLimit(simulations=150),
        seed=1,
        top_k=3,
        look_s=0.5,
        stop=threading.Event(),
        progress=None,
    )
    reply = advisor_pb.HintResponse(seat=found.analysis.seat)
    build_hints(reply, found, 3)
    advice = found.advice
    assert advice is not None and advice.decides
    assert advice.values[found.order[0]] == max(advice.values.values())
    assert reply.ranked_by.startswith("final PRESTIGE margin over the best rival")
    first, second = reply.hints[0].reasons[0], reply.hints[1].reasons[0]
    assert first.value >= second.value and "(exact)" in first.sentence
    assert "(exact" in reply.why


def test_score_sheet_names_every_weight() -> None:
    """rule: cytress/score-crews-on-stratos ... cytress/score-bounties - each part says what it
    counts at what weight ("× 5", "× 3 PRESTIGE"), and the parts add up to the total."""
    s = GAME.new_state(GameConfig(players=4), 2)
    rng = random.Random(2)
    while GAME.current_player(s) != TERMINAL:
        s = GAME.apply_trusted(s, rng.choice(list(GAME.legal_actions(s))))
    report = get_scorer("cytress")(GAME, s)
    for seat in report.seats:
        assert sum(line.points for line in seat.breakdown) == seat.total
        for line in seat.breakdown:
            assert "×" in line.detail, line


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stubs]:
    """A real server on a free loopback port, and stubs of its services."""
    db = tmp_path_factory.mktemp("db") / "lictor.db"
    srv, port = create_server("127.0.0.1:0", db_path=db, limits=Limits(max_search_s=20.0))
    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    yield stubs(channel)
    channel.close()
    srv.stop(None).wait(5)
    srv.close()


def test_the_served_hint_at_a_crew_is_the_exact_best(api: Stubs) -> None:
    """rule: cytress/meet-a-faction - over the service, a hint where a seat places a crew is ranked
    by the exact final margin ("(exact)"), its first hint is the solver's best, and the reply says
    which solver and what it assumes."""
    rng = random.Random(3)
    s = GAME.new_state(GameConfig(players=3), 9)
    moves: list[str] = []
    while not (s.step == CREW and len(GAME.legal_actions(s)) >= 2 and s.round >= 2):
        a = rng.choice(list(GAME.legal_actions(s)))
        moves.append(GAME.action_to_text(s, a))
        s = GAME.apply_trusted(s, a)
    position = pos_pb.Position(
        game="cytress", record=pos_pb.GameRecord(setup=pos_pb.GameSetup(players=3, seed=9), actions=moves)
    )
    request = advisor_pb.HintRequest(position=position, top_k=2)
    request.budget.simulations = 64
    reply = api.advisor.Hint(request, timeout=60)
    advise = get_advice("cytress")
    assert advise is not None
    advice = advise(GAME, s, (), LIMITS)
    assert advice is not None
    assert reply.ranked_by == "final PRESTIGE margin over the best rival (exact)"
    assert "CP-SAT" in reply.exact and "rivals stand still" in reply.exact
    assert advice.values[reply.hints[0].action] == max(advice.values.values())
    assert reply.hints[0].reasons[0].value == advice.values[reply.hints[0].action]
    assert reply.hints[0].reasons[0].value >= reply.hints[1].reasons[0].value
