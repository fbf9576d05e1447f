"""The rebellion: final scoring and the rulebook's worked example (Green: 111 PRESTIGE)."""

from __future__ import annotations

from games.core.protocol import GameConfig
from games.core.records import replace
from games.cytress.board import CREW_PRESTIGE, TUBE_PRESTIGE
from games.cytress.scoring import BOUNTY_PRESTIGE, LEVEL_REWARD, card_facts, final_scores, winners
from games.cytress.state import NOBODY, CytressState
from tests.cytress.helpers import GAME, PACK, set_player, set_rebels, start

FACTION = ("corpocrat", "privateer", "hooligang", "rover")


def _cards(spec: list[tuple[str, str]]) -> list[int]:
    """Distinct intel cards of (faction, target)."""
    used: set[int] = set()
    out = []
    for faction, target in spec:
        f, t = FACTION.index(faction), FACTION.index(target)
        card = next(i for i, c in enumerate(PACK.intel) if c.faction == f and c.target == t and i not in used)
        used.add(card)
        out.append(card)
    return out


def _ring(s: CytressState, centre: int) -> list[int]:
    return list(s.map.layout.adjacent[centre])


def green_example() -> CytressState:
    """rule: cytress/scoring-example - the rulebook's Green player, seat 0, against Blue, seat 1.

    Stratos: Green 2 crews on level 3, 3 on level 2, 1 on level 1; Blue 2 on level 3 (a shared
    majority), 2 on level 2, 2 on level 1 (Blue's majority). Lifepaths: 11 intel cards whose
    targets make 2 full sets and 5 Corpocrat icons, the longest lifepath 4 cards. The Corpocrat
    bounty. Tubes: Green has the majority around a 3-high and a 2-high tube; Blue has 2 crews
    around the 1-high tube, Green 1."""
    s = start(2, seed=4)
    paths = (
        _cards([("corpocrat", t) for t in ("privateer", "hooligang", "rover", "privateer")]),
        _cards([("privateer", t) for t in ("corpocrat", "corpocrat", "hooligang")]),
        _cards([("hooligang", t) for t in ("corpocrat", "rover")]),
        _cards([("rover", t) for t in ("corpocrat", "corpocrat")]),
    )
    bounty = next(i for i, b in enumerate(PACK.bounties) if b.tier == 1 and b.faction == 0)
    adj = s.map.layout.adjacent
    # three tube hexes whose neighbourhoods do not overlap
    chosen: list[int] = []
    for h in range(len(adj)):
        near = {h, *adj[h]}
        if len(adj[h]) >= 3 and all(not near & {c, *adj[c]} for c in chosen):
            chosen.append(h)
        if len(chosen) == 3:
            break
    t3, t2, t1 = chosen
    crew = [NOBODY] * len(adj)
    tube = [0] * len(adj)
    tube[t3], tube[t2], tube[t1] = 3, 2, 1
    crew[adj[t3][0]] = 0
    crew[adj[t3][1]] = 0
    crew[adj[t3][2]] = 1
    crew[adj[t2][0]] = 0
    crew[adj[t1][0]] = 0
    crew[adj[t1][1]] = 1
    crew[adj[t1][2]] = 1
    stacks = tuple(tuple(b for b in st if b != bounty) for st in s.bounty_stack)
    s = replace(
        set_player(s, 0, lifepaths=tuple(tuple(p) for p in paths)),
        crew=tuple(crew),
        tube=tuple(tube),
        bounty_stack=stacks,
    )
    return set_rebels(
        s, stratos=((1, 3, 2), (2, 2, 2)), bounties=((bounty,), ()), unused=(12 - 6 - 4, 12 - 6 - 3)
    )


def test_scoring_example_green_111() -> None:
    """rule: cytress/scoring-example - Green ends with 111 PRESTIGE: crews on Stratos 65, Stratos
    levels ruled 24 (level 3 shared: 12; level 2: 12; level 1: none), bounties 10, tubes 12."""
    s = green_example()
    green = final_scores(PACK, s, s.map.layout.adjacent)[0]
    assert green.crew_prestige == 65
    assert green.rewards == (0, 12, 12)
    assert green.majority == (False, True, True)
    assert green.bounty_prestige == 10
    assert green.tube_prestige == 12
    assert green.total == 111
    assert GAME.scores(s)[0] == 111


def test_score_crews_on_stratos() -> None:
    """rule: cytress/score-crews-on-stratos - 15, 10 and 5 PRESTIGE per crew on levels 3, 2, 1."""
    assert CREW_PRESTIGE == (5, 10, 15)
    s = set_rebels(start(2), stratos=((1, 1, 1), (0, 0, 0)), unused=(9, 12))
    assert final_scores(PACK, s, s.map.layout.adjacent)[0].crew_prestige == 30


def test_score_stratos_rewards() -> None:
    """rule: cytress/score-stratos-rewards - level 1: 3 per crew on Stratos; level 2: 3 per card in
    the longest lifepath; level 3: 6 per complete set of the four target icons."""
    assert LEVEL_REWARD == (3, 3, 6)
    s = green_example()
    blue = final_scores(PACK, s, s.map.layout.adjacent)[1]
    assert blue.majority == (True, False, True)
    assert blue.rewards == (3 * 6, 0, 0)  # Blue: 6 crews on Stratos, no intel cards


def test_score_waste_tubes() -> None:
    """rule: cytress/score-waste-tubes - 7, 5, 3 PRESTIGE for a 3-, 2-, 1-high tube controlled; a
    tie scores nothing."""
    assert TUBE_PRESTIGE[1:] == (3, 5, 7)
    s = green_example()
    blue = final_scores(PACK, s, s.map.layout.adjacent)[1]
    assert blue.tube_prestige == 3


def test_score_bounties_tiers() -> None:
    """rule: cytress/score-bounties - 2 PRESTIGE per matching target icon for a tier 1 bounty and
    1 for tier 2 (4-5 players)."""
    assert BOUNTY_PRESTIGE[1:] == (2, 1)
    s = green_example()
    tier2 = next(i for i, b in enumerate(PACK.bounties) if b.tier == 2 and b.faction == 0)
    t = set_rebels(s, bounties=((tier2,), ()))
    assert card_facts(PACK, t)[0].bounty == 5


def test_two_bounties_against_one_faction() -> None:
    """rule: cytress/meet-the-enforcers - "Each bounty also provides prestige during GAME END
    SCORING": a tier 1 and a tier 2 bounty against the Corpocrats (4-5 players) pay 2 + 1 per
    Corpocrat icon (Green's 5: 15). rule: cytress/score-bounties - the ``bounty_scoring`` variant
    ``best`` reads "Earn 1 or 2 PRESTIGE per intel card" as a cap: the icons once, at 2 (10). The
    search's fast tally agrees with the rulebook's scoring either way."""
    s = green_example()
    tier1, tier2 = (
        next(i for i, b in enumerate(PACK.bounties) if b.tier == t and b.faction == 0) for t in (1, 2)
    )
    both = set_rebels(s, bounties=((tier1, tier2), ()))
    assert not both.bounty_best and card_facts(PACK, both)[0].bounty == 15
    best = replace(both, bounty_best=True)
    assert card_facts(PACK, best)[0].bounty == 10
    assert card_facts(PACK, set_rebels(best, bounties=((tier2,), ())))[0].bounty == 5
    for t in (both, best):
        assert GAME.evaluator.totals(t)[0] == [x.total for x in final_scores(PACK, t, t.map.layout.adjacent)]
    assert GAME.new_state(GameConfig(players=4, options={"bounty_scoring": "best"}), 1).bounty_best
    assert not GAME.new_state(GameConfig(players=4), 1).bounty_best


def test_ties_rule_together_and_solo_tie_nobody() -> None:
    """rule: cytress/core-concepts - tied players rule Stratos and Cytress together. rule:
    cytress/solo-game-end - a tie with the automa: no one wins."""
    assert winners([10, 12, 12], solo=False) == (1, 2)
    assert winners([12, 12], solo=True) == ()
    assert winners([13, 12], solo=True) == (0,)
