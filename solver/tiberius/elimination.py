"""``tiberius.elimination``: can a seat still finish first? An exact depth-first search with memo
over every line of play, pruned by a valid upper bound on the seat's VP."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from games.core import Game, make_rng
from games.core.cache import PerContent
from games.tiberius import TAction, TiberiusGame, TiberiusState
from games.tiberius.game import SOLO_TARGET
from games.tiberius.model import ADOPT, CARD, CC, CQ, CUBE, IM, IN, IP, OVER, PCIM_CARD, PICK, PR, TR, Content
from games.tiberius.rules import adoption_options
from games.tiberius.scoring import (
    ADOPTION_VP,
    IMPERATOR_LEAST,
    IMPERATOR_MOST,
    INFLUENCE_PER_VP,
    LOYALTY_VP,
    MARRIAGE_MOST,
    MARRIAGE_NONE,
    PLACE_VP,
    TRIUMPH_NONE,
    TRIUMPH_PER_CUBE,
    consul_points,
    score_totals,
)
from solver.core import SolveLimits, SolveResult, Status, check_param_keys, past_deadline_or_stopped
from solver.tiberius.params import ELIMINATION_PARAMS, as_game, as_state, int_param


def _most_new_cubes(pack: Content) -> int:
    return max(len(c.rows[0].icons) + max((len(r.icons) for r in c.rows[1:]), default=0) for c in pack.cards)


_MOST_NEW_CUBES: PerContent[Content, int] = PerContent(_most_new_cubes)


def max_new_cubes(game: TiberiusGame) -> int:
    """Most cubes one cube action can take from stock: top row plus the largest extra row."""
    return _MOST_NEW_CUBES(game.pack)


def _turns_with_cubes_left(state: TiberiusState, seat: int) -> int:
    """Cube phases in which ``seat`` may still gain cubes (this one counts until it has acted)."""
    if state.phase == OVER:
        return 0
    later = state.turns - state.turn
    if state.phase in (CARD, PICK):
        return later + 1
    if state.phase == CUBE:
        return later + 1  # its own action or the set bonus may still come
    return later


def upper_bound(game: TiberiusGame, state: TiberiusState, seat: int) -> int:
    """A VP no line of play lets ``seat`` exceed.

    Per-cube VP (triumphs 2, consul/censor at most 3, imperator 1, priesthoods 1, influence 1/3,
    marriages 1 with the aid) of the cubes held, plus at most 3 VP for each cube still to come
    (per remaining cube phase: a card's icons, 2 taken influence or the set bonus), plus every
    majority and bonus won and no penalty.
    """
    if _cubes_final(state):
        return _final_score(game, state, seat, boost={seat})
    me = state.players[seat]
    x = me.cubes
    per_cube = TRIUMPH_PER_CUBE * x[TR] + consul_points(x[CC]) + x[IP] + x[PR] + x[IN] // INFLUENCE_PER_VP
    if state.marriage_vp == "aid":
        per_cube += x[IM]
    turns = _turns_with_cubes_left(state, seat)
    future = turns * (max_new_cubes(game) + 3 + 2) * 3
    majorities = sum(table[0] for _, table, _ in PLACE_VP) + MARRIAGE_MOST + IMPERATOR_MOST
    adoption = ADOPTION_VP if me.adopted >= 0 or state.phase != OVER else 0
    loyalty = LOYALTY_VP if game.loyal(state, seat) or turns > 0 else 0
    return per_cube + future + majorities + adoption + loyalty


def lower_bound(game: TiberiusGame, state: TiberiusState, seat: int) -> int:
    """A VP ``seat`` keeps on every line of play.

    Once a seat can no longer play PCIM, its board cubes never leave (only Influence and Emperor
    cubes are spent), so triumphs, consul/censor, imperator (less 3 for least), priesthoods, the
    PCIM and Governorship floors, adoption and loyalty are kept. A seat that may still play PCIM
    only keeps its adoption and loyalty (less every penalty).
    """
    if _cubes_final(state):
        return _final_score(game, state, seat, boost=set(range(state.num_players)) - {seat})
    me = state.players[seat]
    x = me.cubes
    kept = (ADOPTION_VP if me.adopted >= 0 else 0) + (LOYALTY_VP if game.loyal(state, seat) else 0)
    pcim_ahead = me.played == PCIM_CARD and (
        state.phase in (CARD, PICK)
        or (state.phase == CUBE and (state.actor == seat or _pending(state, seat)))
    )
    may_pcim = state.phase != OVER and (state.pcim_rule == "influence" or not me.pcim_used or pcim_ahead)
    if may_pcim:
        return kept + MARRIAGE_NONE + TRIUMPH_NONE + IMPERATOR_LEAST  # every penalty
    lb = kept + consul_points(x[CC]) + x[IP] + IMPERATOR_LEAST + x[PR]
    lb += TRIUMPH_PER_CUBE * x[TR] if x[TR] else TRIUMPH_NONE
    lb += 0 if x[IM] else MARRIAGE_NONE
    if state.marriage_vp == "aid":
        lb += x[IM]
    lb += sum(later for box, _, later in PLACE_VP if box != CQ and x[box])  # PCIM 7, Governorships 2
    return lb


def _cubes_final(state: TiberiusState) -> bool:
    """In the last adoption phase (or after) no cube moves any more; only adoptions remain."""
    return state.phase == OVER or (state.turn == state.turns and state.phase == ADOPT)


def _final_score(game: TiberiusGame, state: TiberiusState, seat: int, *, boost: set[int]) -> int:
    """``seat``'s VP with the cubes as they are, the seats in ``boost`` adopted wherever they may be."""
    adopted = [
        p.adopted >= 0 or (s in boost and state.phase != OVER and bool(adoption_options(state, game.pack, s)))
        for s, p in enumerate(state.players)
    ]
    loyal = [game.loyal(state, s) for s in range(state.num_players)]
    return score_totals(
        [p.cubes for p in state.players],
        adopted,
        loyal,
        game.age_rank(state),
        marriage_vp=state.marriage_vp,
        imperator_solo=state.imperator_solo,
        imperator_empty=state.imperator_empty,
    )[seat]


def _pending(state: TiberiusState, seat: int) -> bool:
    """Whether ``seat`` still has its cube action ahead in this cube phase."""
    order = [(state.start_priority + k) % state.num_players for k in range(state.num_players)]
    return order.index(seat) > order.index(state.actor)


def _wins(game: TiberiusGame, state: TiberiusState, seat: int) -> bool:
    return game.returns(state)[seat] == 1.0


def brute_force_elimination(
    game: TiberiusGame, state: TiberiusState, seat: int, *, max_nodes: int = 2_000_000
) -> bool:
    """Whether some line of play makes ``seat`` the winner (plain exhaustive search)."""
    memo: dict[TiberiusState, bool] = {}
    nodes = 0

    def go(s: TiberiusState) -> bool:
        nonlocal nodes
        if s.phase == OVER:
            return _wins(game, s, seat)
        if s in memo:
            return memo[s]
        nodes += 1
        if nodes > max_nodes:
            raise RuntimeError("brute force too large")
        found = any(go(game.apply(s, a)) for a in game.legal_actions(s))
        memo[s] = found
        return found

    return go(state)


def _probe_witness(
    game: TiberiusGame, state: TiberiusState, seat: int, *, probes: int, deadline: float
) -> list[str] | None:
    """Try a few guided lines before the exhaustive search: seat X takes the action best for its
    VP-if-the-game-ended-now, every other seat the action worst for its own (ties at random).
    Returns the first line that ends with X first, or None."""
    for k in range(probes):
        rng = make_rng(k)
        s, line = state, []
        while s.phase != OVER:
            if time.perf_counter() > deadline:
                return None
            actor = s.actor
            sign = 1 if actor == seat else -1
            best: list[TAction] = []
            best_v = None
            for a in game.legal_actions(s):
                v = sign * game.totals(game.apply(s, a))[actor]
                if best_v is None or v > best_v:
                    best, best_v = [a], v
                elif v == best_v:
                    best.append(a)
            a = best[rng.randrange(len(best))] if k else best[0]
            line.append(game.action_to_text(s, a))
            s = game.apply(s, a)
        if _wins(game, s, seat):
            return line
    return None


def elimination(
    game: Game[Any, Any], state: Any, params: Mapping[str, Any], limits: SolveLimits
) -> SolveResult:
    """Can seat ``params["seat"]`` still finish first? YES with a witness, NO proven, or UNKNOWN.

    Params: ``seat`` (default: the seat to act), ``max_nodes`` (default 200000), ``probes``
    (guided lines tried before the exhaustive search, default 3).
    The search uses the full state (deck order, secret cards); to ask from a seat's point of view,
    pass a state sampled from its observation.
    """
    start = time.perf_counter()
    g, s = as_game(game), as_state(state)
    check_param_keys(params, ELIMINATION_PARAMS)
    seat = int_param(params, "seat", max(s.actor, 0), 0, s.num_players - 1)
    max_nodes = int_param(params, "max_nodes", 200_000, 1, 50_000_000)
    probes = int_param(params, "probes", 3, 0, 100)
    deadline = start + float(limits.time_limit_s)
    search = _Search(g, seat, max_nodes=max_nodes, deadline=deadline, limits=limits)
    ub = upper_bound(g, s, seat)
    lb, leader = search.target(s)
    base: dict[str, Any] = {"seat": seat, "upper_bound": ub, "leader": leader, "leader_guaranteed": lb}
    if ub < lb and s.phase != OVER:
        return SolveResult(
            kind="tiberius.elimination",
            status=Status.INFEASIBLE,
            objective=0.0,
            bound=float(ub),
            answer={**base, "can_finish_first": "no", "witness": []},
            explanation=f"no: seat {seat} can reach at most {ub} VP but seat {leader} keeps {lb}",
            method="enumeration",
            wall_s=time.perf_counter() - start,
        )
    witness = _probe_witness(g, s, seat, probes=probes, deadline=deadline)
    if witness is None:
        witness = search.witness(s, [])
    if witness is not None:
        base["witness_seats"] = _witness_seats(g, s, witness)
    return _elimination_answer(
        base,
        witness,
        seat=seat,
        ub=ub,
        nodes=search.nodes,
        out_of_budget=search.out_of_budget,
        wall=time.perf_counter() - start,
    )


class _Search:
    """The exhaustive depth-first search for a line of play on which ``seat`` finishes first: a
    position is cut when the seat's upper bound falls below what a rival keeps (``target``), the
    positions proven lost are remembered, and the search stops past ``max_nodes`` positions or the
    deadline (``out_of_budget``)."""

    def __init__(
        self, game: TiberiusGame, seat: int, *, max_nodes: int, deadline: float, limits: SolveLimits
    ) -> None:
        self.game, self.seat = game, seat
        self.max_nodes, self.deadline, self.limits = max_nodes, deadline, limits
        self.lost: set[TiberiusState] = set()
        self.nodes = 0
        self.out_of_budget = False

    def target(self, st: TiberiusState) -> tuple[int, int]:
        """The VP the seat must reach and who holds it: a rival's guaranteed VP, or 45 solo (-1)."""
        if st.num_players == 1:
            return SOLO_TARGET, -1
        rivals = [(lower_bound(self.game, st, o), o) for o in range(st.num_players) if o != self.seat]
        return max(rivals) if rivals else (-(10**9), -1)

    def witness(self, st: TiberiusState, line: list[str]) -> list[str] | None:
        """A line of play from ``st`` (after ``line``) on which the seat finishes first, or None."""
        g = self.game
        if st.phase == OVER:
            return line if _wins(g, st, self.seat) else None
        if st in self.lost:
            return None
        self.nodes += 1
        if self.nodes > self.max_nodes or (
            self.nodes % 512 == 0 and past_deadline_or_stopped(self.deadline, self.limits.stop)
        ):
            self.out_of_budget = True
            return None
        if upper_bound(g, st, self.seat) < self.target(st)[0]:
            self.lost.add(st)
            return None
        for a in g.legal_actions(st):
            found = self.witness(g.apply(st, a), [*line, g.action_to_text(st, a)])
            if found is not None:
                return found
            if self.out_of_budget:
                return None
        self.lost.add(st)
        return None


def _witness_seats(game: TiberiusGame, state: TiberiusState, witness: Sequence[str]) -> list[int]:
    """Who plays each action of a witness line (replayed through the engine)."""
    seats, s = [], state
    for text in witness:
        seats.append(s.actor)
        s = game.apply(s, game.parse_action(s, text))
    return seats


def _witness_text(witness: Sequence[str], seats: Sequence[int], most: int = 8) -> str:
    """``"seat 0 bid 3, seat 1 take 2 influence, ..."``: a witness's first actions with who plays them."""
    shown = [f"seat {p} {t}" for p, t in zip(seats, witness, strict=True)][:most]
    return ", ".join(shown) + (", ..." if len(witness) > most else "")


def _elimination_answer(
    base: dict[str, Any],
    witness: list[str] | None,
    *,
    seat: int,
    ub: int,
    nodes: int,
    out_of_budget: bool,
    wall: float,
) -> SolveResult:
    """The elimination puzzle's answer, with a sentence a player can act on."""
    if witness is not None:
        return SolveResult(
            kind="tiberius.elimination",
            status=Status.OPTIMAL,
            objective=1.0,
            bound=float(ub),
            answer={**base, "can_finish_first": "yes", "witness": witness},
            explanation=(
                f"yes: seat {seat} finishes first along the witness line ({len(witness)} actions: "
                + _witness_text(witness, base["witness_seats"])
                + ")"
                if witness
                else f"yes: the game is over and seat {seat} is first"
            ),
            method="enumeration",
            wall_s=wall,
        )
    if out_of_budget:
        return SolveResult(
            kind="tiberius.elimination",
            status=Status.UNKNOWN,
            bound=float(ub),
            answer={**base, "can_finish_first": "unknown", "witness": []},
            explanation=f"unknown: {nodes} positions searched within the limits",
            method="enumeration",
            wall_s=wall,
        )
    return SolveResult(
        kind="tiberius.elimination",
        status=Status.INFEASIBLE,
        objective=0.0,
        bound=float(ub),
        answer={**base, "can_finish_first": "no", "witness": []},
        explanation=f"no: every line of play searched ({nodes} positions); seat {seat} never finishes first",
        method="enumeration",
        wall_s=wall,
    )
