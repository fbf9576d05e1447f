"""CyberVerse solvers: Score, exact feature-test odds, the combat outcome distribution, and the best
activation plan (CP-SAT, cross-checked against brute force in tests/cyberverse/test_solver.py).

- **Score** (``register_scorer("cyberverse")``): the victory points of
  :mod:`games.cyberverse.scoring` (rule: cyberverse/end-of-game).
- ``cyberverse.feature_test``: the exact odds of one Feature test, or of the chain of tests of an
  Investigation card, drawn from the Organization's Modifier deck as it stands, without replacement,
  with the reshuffle rule of the game's variant (rule: cyberverse/feature-test, investigation).
- ``cyberverse.combat``: the exact distribution of one attack's result on the Damage table over the
  Combat tokens still in the pool (the attacker draws 2 and keeps 1; the target receives 1, or
  draws 2 and keeps 1 if it is an Agent) (rule: cyberverse/combat, combat-tokens, damage-table).
- ``cyberverse.activation_plan``: which Agents to send to which district with the 3 Actions to
  maximise expected clues (the odds of each open Mission there an Agent may test, or the best of
  them with the variant ``tests="one-per-agent"``) plus influence (a district
  the Organization would hold alone), under movement costs (rule: cyberverse/activation-phase,
  moving-agents, influence).
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from ortools.sat.python import cp_model

from games.core import Game
from games.cyberverse import scoring
from games.cyberverse.agents import attack_bonus, defense_bonus, feature, movement_points, usable_weapons
from games.cyberverse.combat import attack, damage, keep_better
from games.cyberverse.content import COMBAT, FEATURES, STATUSES, Content
from games.cyberverse.face import end_text
from games.cyberverse.game import CyberverseGame
from games.cyberverse.investigation import TEST, test_total
from games.cyberverse.modifiers import after_draw, deck_to_draw, succeeds
from games.cyberverse.state import ACTIVATION, D_MOVE, WOUND, State
from games.errors import ConfigError, InvalidStateError
from solver.core import (
    Advice,
    ScoreLine,
    ScoreReport,
    SeatScore,
    SolveLimits,
    SolveResult,
    Status,
    check_param_keys,
    past_deadline_or_stopped,
    register_advice,
    register_puzzle,
    register_scorer,
    shown,
)

__all__ = [
    "ActivationProblem",
    "brute_force_plan",
    "chain_by_orders",
    "chain_odds",
    "combat_distribution",
    "hint_advice",
    "score",
    "single_test_odds",
    "solve_plan",
]

SCALE = 1000
"""Expected values are scaled to integers (thousandths) in the CP-SAT model."""


# ============================================================================ parameters
def _int(params: Mapping[str, Any], key: str, default: int, lo: int, hi: int) -> int:
    value = params.get(key, default)
    ok = isinstance(value, int) and not isinstance(value, bool)
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        value, ok = int(value), True
    if not ok or not lo <= value <= hi:
        raise ConfigError(f"{key} must be an integer {lo}..{hi}, got {shown(value)}", field=f"params.{key}")
    return int(value)


def _str(params: Mapping[str, Any], key: str, default: str) -> str:
    value = params.get(key, default)
    if not isinstance(value, str) or len(value) > 60:
        raise ConfigError(f"{key} must be a short string, got {shown(value)}", field=f"params.{key}")
    return value


def _game(game: Game[Any, Any]) -> CyberverseGame:
    if not isinstance(game, CyberverseGame):
        raise InvalidStateError(f"expected the cyberverse game, got {game.info.name!r}", field="game")
    return game


def _state(state: Any) -> State:
    if not isinstance(state, State):
        raise InvalidStateError(f"expected a cyberverse state, got {type(state).__name__}", field="state")
    return state


def _seat(s: State, params: Mapping[str, Any]) -> int:
    default = s.actor if s.actor >= 0 else 0
    return _int(params, "seat", default, 0, s.players - 1)


# ============================================================================ score
def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _sheet(s: State, c: Content, seat: int, b: scoring.Breakdown) -> tuple[ScoreLine, ...]:
    """A seat's score sheet: each source of VP with how it was earned at what weight (rule:
    cyberverse/end-of-game, cyberverse/influence)."""
    org = s.orgs[seat]
    cards = " + ".join(f'"{c.stories[k].name}" {c.stories[k].vp} VP' for k in org.solved)
    printed = sorted({st.vp for st in c.stories})
    each = f"{printed[0]} VP" if len(printed) == 1 else f"{printed[0]} to {printed[-1]} VP"
    stories = f"{_count(len(org.solved), 'story card')} resolved" + (f": {cards}" if cards else "")
    tokens = sum(org.influence)
    districts, overall = scoring.majorities(s, seat)
    if not s.options.influence_bonus:
        held = "0 VP: no majority bonus (the influence_bonus variant is off)"
    else:
        won = []
        if districts:
            names = ", ".join(c.district_names[d] for d in districts)
            won.append(f"most in {names}: {len(districts)} × {scoring.DISTRICT_BONUS} VP")
        if overall:
            won.append(f"most in all districts combined: 1 × {scoring.OVERALL_BONUS} VP")
        held = "; ".join(won) or (
            f"no sole majority ({scoring.DISTRICT_BONUS} VP per district held with the sole most Influence "
            f"tokens, {scoring.OVERALL_BONUS} VP for the sole most in all districts combined)"
        )
    lines: tuple[ScoreLine, ...] = (
        ScoreLine(
            category="story cards",
            points=float(b.stories),
            detail=f"{stories} (each scores the VP printed on it, {each})",
        ),
        ScoreLine(
            category="influence tokens",
            points=float(b.influence),
            detail=f"{_count(tokens, 'token')} × {scoring.VP_PER_INFLUENCE} VP",
        ),
        ScoreLine(category="influence majorities", points=float(b.majorities), detail=held),
        ScoreLine(
            category="resources",
            points=float(b.money),
            detail=f"{b.resources} D, 1 VP per {scoring.VP_PER_D} D (rounded down)",
        ),
    )
    ended = end_text(s, c)
    if ended:  # rule: cyberverse/end-of-game - which end fired (the turn cap is no rule)
        end = ScoreLine(
            category="end of the game", points=0.0, detail=f"0 VP, which end fired: ended by {ended}"
        )
        lines = (*lines, end)
    return lines


def score(game: Game[Any, Any], state: Any) -> ScoreReport:
    """rule: cyberverse/end-of-game - victory points by source; ties to the most D."""
    g, s = _game(game), _state(state)
    c = g.content_pack
    parts = scoring.breakdown(s, c)
    keys = [(b.total, b.resources) for b in parts]
    seats = []
    for seat, b in enumerate(parts):
        rank = 1 + sum(1 for k in keys if k > keys[seat])
        tied = any(k[0] == b.total for i, k in enumerate(keys) if i != seat)
        tiebreak = (f"{b.resources} D (the most D wins a tie)",) if tied else ()
        seats.append(
            SeatScore(
                seat=seat, total=float(b.total), rank=rank, breakdown=_sheet(s, c, seat, b), tiebreak=tiebreak
            )
        )
    final = s.actor == -2
    return ScoreReport(
        game="cyberverse", final=final, seats=tuple(seats), ended_by=end_text(s, c) if final else ""
    )


# ============================================================================ feature tests
def single_test_odds(deck: tuple[int, ...], discard: tuple[int, ...], total: int, threshold: int) -> float:
    """rule: cyberverse/feature-test - P(total + card > threshold) for one card drawn from the deck
    as it stands (the discard pile if the deck is empty)."""
    pile = deck_to_draw(tuple(sorted(deck)), tuple(sorted(discard)))
    if not pile:
        return 0.0
    return sum(1 for x in pile if succeeds(total, x, threshold)) / len(pile)


@lru_cache(maxsize=65536)
def _chain(
    deck: tuple[int, ...], discard: tuple[int, ...], tests: tuple[tuple[int, int], ...], reshuffle: str
) -> tuple[float, ...]:
    """Distribution of the number of successes over ``tests`` in order (exact, by recursion over the
    deck's multiset: each distinct card drawn with its count's probability)."""
    if not tests:
        return (1.0,)
    total, threshold = tests[0]
    pile = deck_to_draw(deck, discard)
    out = [0.0] * (len(tests) + 1)
    if not pile:
        rest = _chain(deck, discard, tests[1:], reshuffle)
        for k, p in enumerate(rest):
            out[k] += p
        return tuple(out)
    counts: dict[int, int] = {}
    for x in pile:
        counts[x] = counts.get(x, 0) + 1
    for card, n in counts.items():
        ok = succeeds(total, card, threshold)
        nd, nx = after_draw(deck, discard, card, ok, reshuffle)
        rest = _chain(nd, nx, tests[1:], reshuffle)
        for k, p in enumerate(rest):
            out[k + ok] += n / len(pile) * p
    return tuple(out)


def chain_odds(
    deck: Sequence[int], discard: Sequence[int], tests: Sequence[tuple[int, int]], reshuffle: str = "success"
) -> tuple[float, ...]:
    """P(exactly k successes) for k = 0..len(tests): the chain of (total, threshold) tests drawn in
    order from one Modifier deck (rule: cyberverse/feature-test, investigation)."""
    return _chain(tuple(sorted(deck)), tuple(sorted(discard)), tuple(tests), reshuffle)


def chain_by_orders(
    deck: Sequence[int], discard: Sequence[int], tests: Sequence[tuple[int, int]], reshuffle: str = "success"
) -> tuple[float, ...]:
    """The same distribution as :func:`chain_odds` by brute force: every order of the shuffled pile
    is enumerated (``itertools.permutations``, equally likely), and again at each reshuffle. For
    cross-checks on small chains (exponential)."""
    out = [0.0] * (len(tests) + 1)

    def run(pile: tuple[int, ...], discard: tuple[int, ...], k: int, wins: int, weight: float) -> None:
        if k == len(tests):
            out[wins] += weight
            return
        if not pile:
            if not discard:
                run(pile, discard, k + 1, wins, weight)
                return
            orders = list(itertools.permutations(discard))
            for order in orders:
                run(order, (), k, wins, weight / len(orders))
            return
        card, rest = pile[0], pile[1:]
        total, threshold = tests[k]
        ok = succeeds(total, card, threshold)
        discard = (*discard, card)
        if (ok and reshuffle == "success") or not rest:
            merged = rest + discard
            orders = list(itertools.permutations(merged))
            for order in orders:
                run(order, (), k + 1, wins + ok, weight / len(orders))
            return
        run(rest, discard, k + 1, wins + ok, weight)

    pile = tuple(deck)
    if pile:
        orders = list(itertools.permutations(pile))
        for order in orders:
            run(order, tuple(discard), 0, 0, 1.0 / len(orders))
    else:
        run((), tuple(discard), 0, 0, 1.0)
    return tuple(out)


FEATURE_TEST_PARAMS: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "seat": {
            "type": "integer",
            "description": "The Organization whose Modifier deck is drawn (default: the seat to move).",
        },
        "total": {
            "type": "integer",
            "description": "Feature plus bonuses of one test (without an investigation).",
        },
        "threshold": {
            "type": "integer",
            "description": "The Mission's threshold: the test succeeds above it.",
        },
        "investigation": {
            "type": "string",
            "description": "An Investigation card id of the seat's story (e.g. 'Y03'): "
            "the chain of its open test Missions.",
        },
        "agent": {
            "type": "string",
            "description": "With investigation: the Agent (its sheet's name) taking the tests.",
        },
    },
}


def feature_test(
    game: Game[Any, Any], state: Any, params: Mapping[str, Any], limits: SolveLimits
) -> SolveResult:
    """Exact odds of one test or of an Investigation card's chain of tests."""
    t0 = time.perf_counter()
    g, s = _game(game), _state(state)
    c = g.content_pack
    params = check_param_keys(params, FEATURE_TEST_PARAMS)
    seat = _seat(s, params)
    org = s.orgs[seat]
    if "investigation" in params:
        card_id = _str(params, "investigation", "")
        ids = [c.investigations[k].id for k in org.cases]
        if card_id not in ids:
            raise ConfigError(
                f"investigation must be one of the story's cards {ids}, got {shown(card_id)}",
                field="params.investigation",
            )
        case = ids.index(card_id)
        name = _str(params, "agent", "")
        mine = {c.faces[2 * a.sheet + a.side].name: a for a in s.agents if a.org == seat}
        if name not in mine:
            raise ConfigError(f"agent must be one of {sorted(mine)}, got {shown(name)}", field="params.agent")
        agent = mine[name]
        card = c.investigations[org.cases[case]]
        tests = [
            (test_total(s, c, agent, m.feature, xp=0, district=m.district), m.threshold)
            for i, m in enumerate(card.missions)
            if m.kind == TEST and not org.done[case] >> i & 1
        ]
        dist = chain_odds(org.deck, org.discard, tests, s.options.reshuffle)
        p_all = dist[-1]
        expected = sum(k * p for k, p in enumerate(dist))
        text = (
            f"{name} clears all {len(tests)} open test missions of {card_id} with probability {p_all:.3f} "
            f"(expected {expected:.2f} successes) from the deck {list(org.deck)}"
        )
        advice = " - go for it." if p_all >= 0.5 else " - raise the Feature (Cyber-Implant or XP) first."
        answer = {
            "tests": [list(t) for t in tests],
            "distribution": list(dist),
            "all": p_all,
            "expected": expected,
        }
        return SolveResult(
            kind="cyberverse.feature_test",
            status=Status.OPTIMAL,
            objective=p_all,
            bound=p_all,
            answer=answer,
            explanation=text + advice,
            method="exact recursion over the deck",
            wall_s=time.perf_counter() - t0,
        )
    total = _int(params, "total", 0, -5, 20)
    threshold = _int(params, "threshold", 0, -5, 30)
    p = single_test_odds(org.deck, org.discard, total, threshold)
    need = threshold - total + 1
    text = (
        f"A test of {total} against threshold {threshold} succeeds with probability {p:.3f}: it needs a "
        f"Modifier card of {need:+d} or more from {list(deck_to_draw(org.deck, org.discard))}"
    )
    text += "; take it." if p >= 0.5 else "; add XP tokens or wait for a better deck."
    return SolveResult(
        kind="cyberverse.feature_test",
        status=Status.OPTIMAL,
        objective=p,
        bound=p,
        answer={"probability": p, "card_needed": need},
        explanation=text,
        method="exact count over the cards left",
        wall_s=time.perf_counter() - t0,
    )


# ============================================================================ combat
@dataclass(frozen=True, slots=True)
class Side:
    """A fighter's numbers for one attack (without its Combat token).

    Attributes:
        combat: Combat feature (Attack feature for a Henchman) plus skill.
        weapon_bonus: the Weapon's Combat bonus (0 bare-handed).
        ranged: the Weapon is ranged.
        defense: Defense bonus of Equipment (Agents) or the Defense feature (Henchmen).
        agent: it is an Agent (draws 2 Combat tokens and keeps 1; takes Status tokens).
        advantage: stands on an Advantageous position.
        cover: stands on a Covered position.
    """

    combat: int
    weapon_bonus: int
    ranged: bool
    defense: int
    agent: bool
    advantage: bool = False
    cover: bool = False


def combat_distribution(
    c: Content, pool: Sequence[int], attacker: Side, target: Side
) -> dict[tuple[int, int], float]:
    """rule: cyberverse/combat, combat-tokens, damage-table - P((Health lost, Status bit)) of one
    attack over the Combat tokens drawn from ``pool``: an Agent draws 2 and keeps the better for its
    role (attack for the attacker, defense for the target), a Henchman receives 1; draws without
    replacement, the attacker first. A Smoke bomb counts as no damage."""
    pool = list(pool)
    out: dict[tuple[int, int], float] = {}

    def hits(ta: int, td: int, w: float) -> None:
        a, d = c.combat_tokens[ta], c.combat_tokens[td]
        blow = attack(
            combat=attacker.combat,
            token_attack=a.attack,
            weapon_bonus=attacker.weapon_bonus,
            ranged_weapon=attacker.ranged,
            attacker_effect=a.effect,
            advantage=attacker.advantage,
            other_zone_reach=False,
            defense=target.defense,
            token_defense=d.defense,
            defender_effect=d.effect,
            cover=target.cover,
            target_is_agent=target.agent,
        )
        key = (blow.health, blow.status)
        out[key] = out.get(key, 0.0) + w

    n = len(pool)
    draws_a: list[tuple[tuple[int, ...], tuple[int, ...]]]
    if attacker.agent:
        draws_a = [((pool[i], pool[j]), (i, j)) for i, j in itertools.combinations(range(n), 2)]
    else:
        draws_a = [((pool[i],), (i,)) for i in range(n)]
    wa = 1.0 / len(draws_a)
    for tokens, used in draws_a:
        ta = keep_better(c, (tokens[0], tokens[1]), "attack") if len(tokens) == 2 else tokens[0]
        rest = [pool[k] for k in range(n) if k not in used]
        if target.agent:
            pairs = list(itertools.combinations(rest, 2))
            for pair in pairs:
                hits(ta, keep_better(c, pair, "defense"), wa / len(pairs))
        else:
            for td in rest:
                hits(ta, td, wa / len(rest))
    return out


def _side_of_agent(s: State, c: Content, name: str, field: str) -> Side | None:
    for a in s.agents:
        if c.faces[2 * a.sheet + a.side].name == name:
            weapons = usable_weapons(c, a)
            best = max(weapons, key=lambda t: c.tokens[t].bonus, default=-1)
            kind = -1
            if a.district >= 0 and a.spot >= 0:  # rule: cyberverse/tactical-positions
                kind = c.boards[s.city.boards[a.district]].positions[a.spot][1]
            return Side(
                combat=feature(c, a, COMBAT) + attack_bonus(c, a),
                weapon_bonus=c.tokens[best].bonus if best >= 0 else 0,
                ranged=bool(best >= 0 and c.tokens[best].ranged),
                defense=defense_bonus(c, s, a),
                agent=True,
                advantage=kind == 0,
                cover=kind == 1,
            )
    return None


COMBAT_PARAMS: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "attacker": {"type": "string", "description": "The attacking Agent (its sheet's name)."},
        "target": {
            "type": "string",
            "description": "The target: an Agent's name or a Henchman type (e.g. 'Killer').",
        },
    },
}


def combat(game: Game[Any, Any], state: Any, params: Mapping[str, Any], limits: SolveLimits) -> SolveResult:
    """The exact distribution of one attack's result over the Combat tokens left in the pool."""
    t0 = time.perf_counter()
    g, s = _game(game), _state(state)
    c = g.content_pack
    params = check_param_keys(params, COMBAT_PARAMS)
    names = sorted(c.faces[2 * a.sheet + a.side].name for a in s.agents)
    att = _side_of_agent(s, c, _str(params, "attacker", ""), "attacker")
    if att is None:
        raise ConfigError(
            f"attacker must be a recruited Agent {names}, got {shown(params.get('attacker'))}",
            field="params.attacker",
        )
    tname = _str(params, "target", "")
    tgt = _side_of_agent(s, c, tname, "target")
    if tgt is None:
        if tname not in c.henchman_types:
            raise ConfigError(
                f"target must be an Agent {names} or a Henchman {list(c.henchman_types)}, got {shown(tname)}",
                field="params.target",
            )
        h = c.henchmen[c.henchman_type_card[c.henchman_types.index(tname)]]
        tgt = Side(combat=h.attack, weapon_bonus=0, ranged=h.ranged, defense=h.defense, agent=False)
    pool = s.decks.tokens
    if len(pool) < 4:
        raise ConfigError("fewer than 4 Combat tokens in the pool", field="state.decks.tokens")
    dist = combat_distribution(c, pool, att, tgt)
    rows = sorted(dist.items(), key=lambda kv: (-kv[0][0], -kv[0][1]))
    p_hurt = sum(p for (hp, _), p in dist.items() if hp > 0)
    expected = sum(hp * p for (hp, _), p in dist.items())
    answer = {
        "outcomes": [
            {"health lost": hp, "status": [STATUSES[i] for i in range(3) if st >> i & 1], "probability": p}
            for (hp, st), p in rows
        ],
        "wound probability": p_hurt,
        "expected health lost": expected,
    }
    text = (
        f"{params['attacker']} takes at least 1 Health point from {tname} with probability {p_hurt:.3f} "
        f"(expected {expected:.2f})"
    )
    text += "; attack." if p_hurt >= 0.5 else "; find a tactical position or a better Weapon first."
    return SolveResult(
        kind="cyberverse.combat",
        status=Status.OPTIMAL,
        objective=expected,
        bound=expected,
        answer=answer,
        explanation=text,
        method="exact enumeration of the token draws",
        wall_s=time.perf_counter() - t0,
    )


# ============================================================================ activation plan
@dataclass(frozen=True, slots=True)
class ActivationProblem:
    """One Organization's activation as an assignment problem.

    Attributes:
        agents: the Agents' names.
        current: per Agent, its district (-1 in HQ).
        reach: per Agent, the districts it may end in (its own included).
        clue: per Agent and district, the expected clues (thousandths) of its tests there.
        influence: per district, the value (thousandths) of holding it alone (0 if impossible).
        actions: Actions available (3).
    """

    agents: tuple[str, ...]
    current: tuple[int, ...]
    reach: tuple[frozenset[int], ...]
    clue: tuple[tuple[int, ...], ...]
    influence: tuple[int, ...]
    actions: int


def plan_value(p: ActivationProblem, plan: Sequence[int]) -> int:
    """The objective of a plan (one district or -1 per Agent)."""
    total = sum(p.clue[i][d] for i, d in enumerate(plan) if d >= 0)
    held = {d for d in plan if d >= 0}
    return total + sum(p.influence[d] for d in held)


def _moves(p: ActivationProblem, plan: Sequence[int]) -> int:
    return sum(1 for i, d in enumerate(plan) if d != p.current[i])


def brute_force_plan(p: ActivationProblem) -> tuple[int, tuple[int, ...]]:
    """The best plan by enumeration (for cross-checks)."""
    best, arg = -1, tuple(p.current)
    options = [sorted(r | {p.current[i]}) for i, r in enumerate(p.reach)]
    for plan in itertools.product(*options):
        if _moves(p, plan) <= p.actions:
            v = plan_value(p, plan)
            if v > best:
                best, arg = v, tuple(plan)
    return best, arg


def solve_plan(
    p: ActivationProblem, limits: SolveLimits | None = None
) -> tuple[int, tuple[int, ...], Status]:
    """The best plan by CP-SAT: x[a, d] one district per Agent, moves within the Actions, y[d] a
    district held (influence counted once)."""
    limits = limits or SolveLimits()
    m = cp_model.CpModel()
    x: dict[tuple[int, int], Any] = {}
    for i, r in enumerate(p.reach):
        for d in sorted(r | {p.current[i]}):
            x[i, d] = m.new_bool_var(f"x{i}_{d}")
        m.add_exactly_one(x[i, d] for d in sorted(r | {p.current[i]}))
    m.add(sum(v for (i, d), v in x.items() if d != p.current[i]) <= p.actions)
    y = {}
    for d in range(5):
        here = [v for (i, dd), v in x.items() if dd == d]
        if here and p.influence[d] > 0:
            y[d] = m.new_bool_var(f"y{d}")
            m.add(y[d] <= sum(here))
    m.maximize(
        sum(p.clue[i][d] * v for (i, d), v in x.items() if d >= 0)
        + sum(p.influence[d] * v for d, v in y.items())
    )
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = max(0.1, limits.time_limit_s)
    solver.parameters.num_workers = max(1, limits.workers)
    code = solver.solve(m)
    if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return -1, tuple(p.current), Status.UNKNOWN
    plan = tuple(
        next(d for (ii, d), v in x.items() if ii == i and solver.value(v)) for i in range(len(p.agents))
    )
    return plan_value(p, plan), plan, Status.OPTIMAL if code == cp_model.OPTIMAL else Status.FEASIBLE


def _reach(s: State, c: Content, agent: Any) -> frozenset[int]:
    """Districts the Agent can end its move in (rule: cyberverse/moving-agents): anywhere from its HQ;
    else through the Entry zone with its Movement points (not out of the district when Wounded)."""
    if agent.district < 0:
        return frozenset(range(5))
    return _onward(s, c, agent, movement_points(c, agent), 0)


def _onward(s: State, c: Content, agent: Any, mp: int, visited: int) -> frozenset[int]:
    """Districts an Agent on a district board can still go on to with ``mp`` Movement points: out
    through the Entry zone, never back to a district in the bit mask ``visited``, not at all when
    Wounded (rule: cyberverse/moving-agents, cyberverse/status-tokens)."""
    from games.cyberverse.activation import travel_cost

    if agent.status & WOUND:
        return frozenset()
    board = c.boards[s.city.boards[agent.district]]
    mp -= board.distance[agent.zone][board.entry]
    best = {agent.district: 0}
    todo = [agent.district]
    while todo:
        d = todo.pop()
        for e in range(5):
            cost = best[d] + travel_cost(s, c, agent, d, e)
            if e != d and not visited >> e & 1 and cost <= mp and cost < best.get(e, 99):
                best[e] = cost
                todo.append(e)
    return frozenset(best) - {agent.district}


def activation_problem(s: State, c: Content, seat: int) -> ActivationProblem:
    """The seat's activation as an :class:`ActivationProblem` from the state."""
    org = s.orgs[seat]
    agents = [a for a in s.agents if a.org == seat and not a.recruited and not a.trained]
    others = {a.district for a in s.agents if a.org != seat and a.district >= 0}
    each = s.options.tests == "each-mission"  # an Agent tests every open Mission of its district
    clue = []
    for a in agents:
        row = []
        for d in range(5):
            odds = [0.0]
            for k, card in enumerate(org.cases):
                for i, m in enumerate(c.investigations[card].missions):
                    if m.kind == TEST and m.district == d and not org.done[k] >> i & 1:
                        total = test_total(s, c, a, m.feature, xp=0, district=d)
                        odds.append(single_test_odds(org.deck, org.discard, total, m.threshold))
            row.append(round((sum(odds) if each else max(odds)) * SCALE))
        clue.append(tuple(row))
    influence = tuple(SCALE if d not in others and org.influence[d] < 3 else 0 for d in range(5))
    return ActivationProblem(
        agents=tuple(c.faces[2 * a.sheet + a.side].name for a in agents),
        current=tuple(a.district for a in agents),
        reach=tuple(_reach(s, c, a) for a in agents),
        clue=tuple(clue),
        influence=influence,
        actions=org.actions if s.phase in (3, 4) else 3,
    )


ACTIVATION_PARAMS: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "seat": {
            "type": "integer",
            "description": "The Organization to plan for (default: the seat to move).",
        },
    },
}


def activation_plan(
    game: Game[Any, Any], state: Any, params: Mapping[str, Any], limits: SolveLimits
) -> SolveResult:
    """The best assignment of Agents to districts for this turn's Actions (CP-SAT)."""
    t0 = time.perf_counter()
    g, s = _game(game), _state(state)
    c = g.content_pack
    params = check_param_keys(params, ACTIVATION_PARAMS)
    seat = _seat(s, params)
    p = activation_problem(s, c, seat)
    if not p.agents:
        return SolveResult(
            kind="cyberverse.activation_plan",
            status=Status.OPTIMAL,
            answer={"plan": {}},
            explanation="No Agent can be activated this turn: recruit one with an Auxiliary Action.",
            method="none",
            wall_s=time.perf_counter() - t0,
        )
    value, plan, status = solve_plan(p, limits)
    names = c.district_names
    moves = {p.agents[i]: ("headquarters" if d < 0 else names[d]) for i, d in enumerate(plan)}
    sends = [f"{a} to {w}" for (a, w), d, cur in zip(moves.items(), plan, p.current, strict=True) if d != cur]
    text = "Send " + ", ".join(sends) if sends else "Keep every Agent where it stands"
    text += f": {value / SCALE:.2f} expected clues and districts held."
    return SolveResult(
        kind="cyberverse.activation_plan",
        status=status,
        objective=value / SCALE,
        bound=value / SCALE,
        answer={"plan": moves, "value": value / SCALE},
        explanation=text,
        method="CP-SAT assignment",
        wall_s=time.perf_counter() - t0,
    )


# ============================================================================ hint advice
ADVICE_LABEL = "expected clues and districts held by the best plan after it"
"""What the hint advice's values measure (the activation plan's objective, see ``activation_plan``)."""


def _rest_of_activation(
    s: State, c: Content, seat: int, limits: SolveLimits
) -> tuple[int, tuple[int, ...], ActivationProblem]:
    """The best plan for the rest of ``seat``'s Activation phase from ``s`` (rule:
    cyberverse/activation-phase): the Agents already activated stay, the one moving goes on with the
    Movement points it has left (its Action already spent), those still waiting in the Initiative
    order move as in ``activation_plan``. Returns (objective in thousandths, the plan, the problem)."""
    p = activation_problem(s, c, seat)
    agents = [a for a in s.agents if a.org == seat and not a.recruited and not a.trained]
    ctx = s.ctx
    moving_phase = s.phase == ACTIVATION and s.step == D_MOVE
    waiting = set(ctx.queue) if s.phase == ACTIVATION else set()
    reach = list(p.reach)
    moving, onward = -1, frozenset[int]()
    for i, a in enumerate(agents):
        if moving_phase and a.sheet == ctx.agent and ctx.started:
            moving, onward = i, _onward(s, c, a, ctx.mp, ctx.visited)
            reach[i] = frozenset()
        elif a.sheet not in waiting and not (moving_phase and a.sheet == ctx.agent):
            reach[i] = frozenset()  # activated already (or never this turn): it stays
    p = replace(p, reach=tuple(reach))
    if moving < 0:
        value, plan, _ = solve_plan(p, limits)
        return value, plan, p
    best: tuple[int, tuple[int, ...]] = (-1, p.current)
    for end in sorted({p.current[moving], *onward}):  # its further steps cost no Action: each end fixed
        q = replace(p, current=tuple(end if i == moving else d for i, d in enumerate(p.current)))
        value, plan, _ = solve_plan(q, limits)
        best = max(best, (value, plan))
    return best[0], best[1], p


def hint_advice(
    game: Game[Any, Any], state: Any, actions: tuple[Any, ...], limits: SolveLimits
) -> Advice | None:
    """At an Agent's move in the Activation phase (rule: cyberverse/activation-phase,
    cyberverse/moving-agents), every legal step valued by the best activation plan after it (CP-SAT,
    ``solve_plan``): the expected clues of the Missions the Agents may test where they end, plus the
    districts the Organization would hold alone. None elsewhere."""
    del actions  # every legal step is valued: a few small CP-SAT models
    if not isinstance(game, CyberverseGame) or not isinstance(state, State):
        return None
    s, c = state, game.content_pack
    if s.phase != ACTIVATION or s.step != D_MOVE or s.actor < 0:
        return None
    seat = s.actor
    deadline = time.perf_counter() + limits.time_limit_s
    values: dict[str, float] = {}
    sentences: dict[str, str] = {}
    for a in game.legal_actions(s):
        if past_deadline_or_stopped(deadline, limits.stop):
            return None
        value, plan, p = _rest_of_activation(game.apply(s, a), c, seat, limits)
        text = game.action_to_text(s, a)
        values[text] = value / SCALE
        ends = [
            f"{name} in {'its HQ' if d < 0 else c.district_names[d]}"
            for name, d in zip(p.agents, plan, strict=True)
        ]
        sentences[text] = f"{value / SCALE:.2f} expected clues and districts held, ending with " + (
            ", ".join(ends) or "no Agent activated"
        )
    if not values:
        return None
    return Advice(
        label=ADVICE_LABEL,
        unit="points",
        values=values,
        best=max(values, key=values.__getitem__),  # the first legal step on ties
        decides=len(set(values.values())) > 1,  # every step alike: the plan has nothing to say
        method="CP-SAT assignment (solver.cyberverse.solve_plan)",
        assumption="this Activation phase only; the other Organizations' Agents stay where they stand",
        sentences=sentences,
    )


register_scorer("cyberverse", score)
register_advice("cyberverse", hint_advice)
register_puzzle(
    "cyberverse",
    "cyberverse.feature_test",
    feature_test,
    summary="What are the exact odds of a Feature test, or of an Investigation card's chain of tests, with "
    "the Modifier deck as it stands?",
    params_schema=FEATURE_TEST_PARAMS,
)
register_puzzle(
    "cyberverse",
    "cyberverse.combat",
    combat,
    summary="What is the exact distribution of an attack's result on the Damage table over the Combat "
    "tokens still in the pool?",
    params_schema=COMBAT_PARAMS,
)
register_puzzle(
    "cyberverse",
    "cyberverse.activation_plan",
    activation_plan,
    summary="Which Agents should the Organization send to which districts with its 3 Actions to "
    "maximise expected clues and influence?",
    params_schema=ACTIVATION_PARAMS,
)

assert FEATURES and damage(0) == (0, 0)
