"""The AI-facing evaluation of Tiberius Who? (``games.tiberius.ai``): heuristic, prior, fast VP.

rule: tiberius/end-of-game - the heuristic estimates the chance of winning by the VP schedule.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import GameConfig
from games.core.records import replace
from games.tiberius.ai import seat_vp
from games.tiberius.model import CARD, CUBE, PICK
from games.tiberius.scoring import chain_key, score_totals

from .helpers import at_card_phase, cv, game, with_seats


def _random_state(players: int, seed: int, steps: int):
    g = game()
    rng = random.Random(seed)
    s = g.new_state(GameConfig(players=players), seed)
    for _ in range(steps):
        if g.current_player(s) < 0:
            break
        legal = g.legal_actions(s)
        s = g.apply(s, legal[rng.randrange(len(legal))])
    return s


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(1, 6),
    seed=st.integers(0, 10**6),
    counts=st.lists(st.lists(st.integers(0, 4), min_size=11, max_size=11), min_size=6, max_size=6),
    marriage=st.sampled_from(["schedule", "aid"]),
    imperator=st.fixed_dictionaries(
        {
            "imperator_solo": st.sampled_from(["both", "most"]),
            "imperator_empty": st.sampled_from(["tiebreak", "least", "none"]),
        }
    ),
)
def test_seat_vp_equals_score_totals(players, seed, counts, marriage, imperator):
    """rule: tiberius/tie-breaker - the one-seat fast path scores exactly like ``score_totals``."""
    rng = random.Random(seed)
    cubes = [tuple(c) for c in counts[:players]]
    adopted = [rng.random() < 0.3 for _ in range(players)]
    loyal = [rng.random() < 0.2 for _ in range(players)]
    ages = list(range(players))
    rng.shuffle(ages)
    keys = [chain_key(cubes[k], adopted[k], ages[k]) for k in range(players)]
    totals = score_totals(cubes, adopted, loyal, ages, marriage_vp=marriage, **imperator)
    for seat in range(players):
        got = seat_vp(
            cubes,
            keys,
            seat,
            cubes[seat],
            adopted=adopted[seat],
            loyal=loyal[seat],
            age_rank=ages[seat],
            marriage_vp=marriage,
            **imperator,
        )
        assert got == totals[seat]


@settings(max_examples=25, deadline=None)
@given(players=st.integers(1, 6), seed=st.integers(0, 10**6), steps=st.integers(0, 120))
def test_heuristic_and_prior_are_distributions(players, seed, steps):
    """Heuristic in [0, 1] per seat (summing to 1 with 2+ seats); prior one weight per legal action."""
    g = game()
    s = _random_state(players, seed, steps)
    h = g.heuristic(s)
    assert len(h) == players and all(0.0 <= x <= 1.0 for x in h)
    if players > 1:
        assert abs(sum(h) - 1.0) < 1e-9
    if g.current_player(s) >= 0:
        prior = g.prior(s)
        assert prior is not None and len(prior) == len(g.legal_actions(s))
        assert abs(sum(prior) - 1.0) < 1e-9 and all(p >= 0.0 for p in prior)


FACE = ["HIS06", "GAL03", "BAL01", "AFR01", "ROM01", "SYR01"]


def test_prior_prefers_a_cheap_winning_bid_to_a_big_one():
    """rule: tiberius/card-phase - a bid of 1 picks first when nobody bid; bidding 20 wastes cubes."""
    g = game()
    s = at_card_phase(4, FACE, cubes=[cv(IN=28)] * 4)
    texts = [g.action_to_text(s, a) for a in g.legal_actions(s)]
    prior = g.prior(s)
    assert prior is not None
    assert prior[texts.index("bid 1")] > prior[texts.index("bid 20")] * 100
    assert prior[texts.index("bid 1")] > prior[texts.index("take 2 influence")]


def test_heuristic_values_a_bid_that_will_pick_a_card():
    """rule: tiberius/card-phase - a bidder will pick a card, so bidding beats taking 2 influence."""
    g = game()
    s = at_card_phase(4, FACE, cubes=[cv(IN=28)] * 4)
    bid = g.apply(s, g.parse_action(s, "bid 1"))
    take = g.apply(s, g.parse_action(s, "take 2 influence"))
    assert g.heuristic(bid)[0] > g.heuristic(take)[0]


def test_prior_black_icon_goes_where_it_wins_a_majority():
    """rule: tiberius/special-cases - a black icon to any box; the prior favours the box it wins."""
    g = game()
    s = _random_state(4, 3, 0)
    # seat 0 to place a black icon; everybody has 1 Conquest: one more wins the 10 VP majority
    mine = cv(CQ=1, IM=1, CC=0, IN=20)
    others = cv(CQ=1, IM=2, IN=25)  # influence (the first tie-breaker) stays behind
    played = g.pack.card_by_code("HIS06")
    assert played is not None
    s = replace(
        s,
        phase=CUBE,
        actor=0,
        start_priority=0,
        priority=0,
        black=1,
        age=(3, 2, 1, 0),  # seat 0 youngest: it loses every tie
    )
    s = with_seats(s, cubes=(mine, others, others, others), played=(played.id, -1, -1, -1))
    texts = [g.action_to_text(s, a) for a in g.legal_actions(s)]
    prior = g.prior(s)
    assert prior is not None
    best = texts[max(range(len(prior)), key=prior.__getitem__)]
    assert best == "black conquests", dict(zip(texts, prior, strict=True))


def test_prior_picks_the_card_with_more_value():
    """rule: tiberius/card-phase - bidders pick in bid order; the prior ranks cards by VP gained."""
    g = game()
    s = at_card_phase(4, FACE, cubes=[cv(IN=28)] * 4)
    for text in ("bid 1", "take 2 influence", "take 2 influence", "take 2 influence"):
        s = g.apply(s, g.parse_action(s, text))
    assert s.phase == PICK and s.actor == 0
    prior = g.prior(s)
    assert prior is not None and abs(sum(prior) - 1.0) < 1e-9
    assert max(prior) > 1.0 / len(prior)


def test_heuristic_early_is_flatter_than_late():
    """rule: tiberius/end-of-game - the same VP lead counts for more with fewer turns left."""
    g = game()
    s = at_card_phase(4, FACE, cubes=[cv(IN=28, CQ=3, PR=4), cv(IN=28), cv(IN=28), cv(IN=28)])
    early = g.heuristic(s)[0]
    late = g.heuristic(replace(s, turn=8))[0]
    assert s.phase == CARD and 0.25 < early < late <= 1.0


def test_ai_seat_plays_a_whole_game_against_greedy():
    """rule: tiberius/card-phase, rule: tiberius/adoption-phase - an ISMCTS seat (priors on, cut-off
    at the heuristic) plays bids, picks, cubes and adoption from its observation to the end."""
    from search import GreedyBot, SearchBot, SearchLimit, SearchOptions

    g = game()
    s = g.new_state(GameConfig(players=4), 11)
    ai = SearchBot(
        g,
        limit=SearchLimit(simulations=12),
        options=SearchOptions(rollout_depth=0, determinizations=4),
        seed=1,
    )
    greedy = [GreedyBot(g, seed=k) for k in range(4)]
    kinds = set()
    while g.current_player(s) >= 0:
        p = g.current_player(s)
        a = ai.act(s) if p == 0 else greedy[p].act(s)
        if p == 0:
            kinds.add(a.kind)
        s = g.apply(s, a)
    assert s.turn == 9 and len(g.returns(s)) == 4 and sum(g.returns(s)) == 1.0
    assert kinds & {"bid", "buy", "imperium maius"}


def test_prior_prefers_a_bid_of_one_to_buying_the_best_card_first_in_the_card_phase():
    """rule: tiberius/card-phase - the Priority holder acts first: a bid of 1 keeps 5 of the 6
    Influence a buy spends (Influence pays for every later bid and buy), so the prior ranks it well
    above any buy (issue 16: since playing PCIM takes the Priority marker the AI often acts first,
    and buying every turn cost it the Influence for later turns)."""
    g = game()
    s = at_card_phase(4, FACE, cubes=[cv(IN=28)] * 4)
    assert s.actor == s.start_priority
    texts = [g.action_to_text(s, a) for a in g.legal_actions(s)]
    prior = g.prior(s)
    assert prior is not None
    buys = [p for t, p in zip(texts, prior, strict=True) if t.startswith("buy ")]
    assert buys and prior[texts.index("bid 1")] > 5 * max(buys)
