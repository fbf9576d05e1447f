"""``tiberius.best_placement``: the cube action's choices (black icons, the extra row, PCIM moves) by
CP-SAT, or by enumeration when the lines are few; the objective is the seat's VP if the cube phase
ended after its action."""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ortools.sat.python import cp_model

import solver.tiberius.params as tiberius_params
from games.core import Game
from games.errors import IllegalActionError
from games.tiberius import TAction, TiberiusGame, TiberiusState
from games.tiberius.model import (
    BLACK,
    BOARD_BOXES,
    BOX_CODES,
    CC,
    CQ,
    CUBE,
    CUBES_PER_PLAYER,
    EM,
    GV,
    IM,
    IN,
    IP,
    PC,
    PCIM_CARD,
    PR,
    TR,
)
from games.tiberius.rules import BLACK_BOXES, MOVE_BOXES, PCIM_MIN_MOVES, meets, set_bonus
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
    chain_key,
    imperator_awards,
    score_totals,
)
from solver.core import SolveLimits, SolveResult, Status, check_param_keys, past_deadline_or_stopped
from solver.tiberius.params import BEST_PLACEMENT_PARAMS, METHODS, as_game, as_state, choice_param


def settle(game: TiberiusGame, state: TiberiusState, seat: int) -> tuple[list[list[int]], list[bool]]:
    """Cubes and adoption flags if the cube phase ended now: the set bonus for every seat (unless
    the engine already gave it) and ``seat`` taking an adoption open to it."""
    cubes = [list(p.cubes) for p in state.players]
    if state.phase == CUBE:
        for c in cubes:
            c[IN] += set_bonus(c)
    adopted = [p.adopted >= 0 for p in state.players]
    if not adopted[seat]:
        adopted[seat] = any(meets(game.pack.adoptions[a], cubes[seat]) for a in _adoption_cards(state, seat))
    return cubes, adopted


def _adoption_cards(state: TiberiusState, seat: int) -> list[int]:
    """The adoption cards ``seat`` may take: its own secret card (when known) and the face-up ones."""
    own = state.players[seat].secret
    return ([own] if own >= 0 else []) + list(state.adopt_face_up)


def settled_vp(game: TiberiusGame, state: TiberiusState, seat: int) -> int:
    """The placement objective: ``seat``'s VP after :func:`settle`."""
    cubes, adopted = settle(game, state, seat)
    loyal = [game.loyal(state, s) for s in range(state.num_players)]
    return score_totals(
        cubes,
        adopted,
        loyal,
        game.age_rank(state),
        marriage_vp=state.marriage_vp,
        imperator_solo=state.imperator_solo,
        imperator_empty=state.imperator_empty,
    )[seat]


def _in_action(state: TiberiusState, seat: int) -> bool:
    return state.phase == CUBE and state.actor == seat


def _require_cube_decision(state: TiberiusState) -> int:
    if state.phase != CUBE:
        raise IllegalActionError(
            "best placement needs a cube-phase decision; this state is in another phase",
            field="state",
            rule="tiberius/cube-phase",
        )
    return state.actor


class _EnumerationStopped(Exception):  # noqa: N818 (control flow, not an error)
    """Enumeration passed its state budget (the caller switches to CP-SAT)."""


def brute_force_placement(
    game: TiberiusGame,
    state: TiberiusState,
    *,
    max_states: int | None = None,
    until: Callable[[], bool] | None = None,
) -> tuple[int, list[str]]:
    """Best objective by enumerating every legal sequence of the actor's cube decisions (memoised).

    Raises ``_EnumerationStopped`` once more than ``max_states`` distinct positions were expanded, or once
    ``until()`` (polled every 64 positions: a deadline or a stop flag) returns True.
    """
    seat = _require_cube_decision(state)
    memo: dict[TiberiusState, tuple[int, list[str]]] = {}

    def go(s: TiberiusState) -> tuple[int, list[str]]:
        if not _in_action(s, seat):
            return settled_vp(game, s, seat), []
        if s in memo:
            return memo[s]
        if max_states is not None and len(memo) >= max_states:
            raise _EnumerationStopped
        if until is not None and len(memo) & 63 == 0 and until():
            raise _EnumerationStopped
        best: tuple[int, list[str]] | None = None
        for a in game.legal_actions(s):
            v, line = go(game.apply(s, a))
            if best is None or v > best[0]:
                best = (v, [game.action_to_text(s, a), *line])
        assert best is not None
        memo[s] = best
        return best

    return go(state)


# ============================================================================ best placement (CP-SAT)


@dataclass(frozen=True, slots=True)
class _Row:
    """An extra row as the model sees it.

    Attributes:
        index: 1 or 2 (printed row 2 or 3).
        cost: Emperor cubes to pay (icons plus priority).
        delta: cube change per box when bought (payment and non-black icons).
        blacks: black cubes it then lets the player place.
    """

    index: int
    cost: int
    delta: tuple[int, ...]
    blacks: int


@dataclass(frozen=True, slots=True)
class PlacementProblem:
    """The data of one placement model.

    Attributes:
        seat: the seat to act.
        x0: its cubes now.
        pcim: True for a PCIM action (moves to gray), False for a career card.
        min_moves: PCIM cubes still to move at least.
        black_boxes: boxes open to black cubes.
        first_blacks: black cubes to place before the row choice.
        rows: the extra rows that may still be bought.
        opponents: settled cubes of every other seat.
        opponent_keys: their tie-breaker chain keys.
        opponent_seats: their seat numbers.
        already_adopted: whether the seat is already adopted.
        adoption_requirements: requirement lists of the adoption cards the seat may take.
        loyal: whether the seat holds all six regions.
        age_rank: the seat's age rank (0 oldest).
        marriage_vp: the marriage variant.
        imperator_solo: the Imperator variant with one player.
        imperator_empty: the Imperator variant when nobody has a cube.
        force_adoption: whether the seat must meet one of ``adoption_requirements`` (a choice fixed
            by the caller, e.g. the card it claims in the adoption phase).
    """

    seat: int
    x0: tuple[int, ...]
    pcim: bool
    min_moves: int
    black_boxes: tuple[int, ...]
    first_blacks: int
    rows: tuple[_Row, ...]
    opponents: tuple[tuple[int, ...], ...]
    opponent_keys: tuple[tuple[int, ...], ...]
    opponent_seats: tuple[int, ...]
    already_adopted: bool
    adoption_requirements: tuple[tuple[tuple[int, int], ...], ...]
    loyal: bool
    age_rank: int
    marriage_vp: str
    imperator_solo: str = "both"
    imperator_empty: str = "tiebreak"
    force_adoption: bool = False


def placement_problem(game: TiberiusGame, state: TiberiusState) -> PlacementProblem:
    """Extract the model's data from a cube-phase decision of ``state.actor``."""
    seat = _require_cube_decision(state)
    me = state.players[seat]
    x0 = me.cubes
    stock0 = me.stock
    pcim = me.played == PCIM_CARD
    # The other seats' settled cubes do not depend on this seat's choices: take any completion.
    ref = state
    while _in_action(ref, seat):
        ref = game.apply(ref, game.legal_actions(ref)[-1] if pcim else game.legal_actions(ref)[0])
    opp_cubes, opp_adopted = settle(game, ref, seat)
    ages = game.age_rank(state)
    others = tuple(s for s in range(state.num_players) if s != seat)
    rows: list[_Row] = []
    k1 = 0 if pcim else min(state.black, stock0)
    if not pcim and state.row_open:
        card = game.pack.cards[me.played]
        for r in range(1, len(card.rows)):
            row = card.rows[r]
            delta = [0] * len(x0)
            delta[EM] -= row.cost
            stock = stock0 - k1 + row.cost
            blacks = 0
            for icon in row.icons:
                if icon == BLACK:
                    blacks += 1
                elif stock > 0 and (icon != TR or state.family):
                    delta[icon] += 1
                    stock -= 1
            rows.append(_Row(index=r, cost=row.cost, delta=tuple(delta), blacks=min(blacks, stock)))
    cards = _adoption_cards(state, seat)
    return PlacementProblem(
        seat=seat,
        x0=x0,
        pcim=pcim,
        min_moves=max(0, PCIM_MIN_MOVES - state.moved),
        black_boxes=tuple(b for b in BLACK_BOXES if b != TR or state.family),
        first_blacks=k1,
        rows=tuple(rows),
        opponents=tuple(tuple(opp_cubes[o]) for o in others),
        opponent_keys=tuple(chain_key(opp_cubes[o], opp_adopted[o], ages[o]) for o in others),
        opponent_seats=others,
        already_adopted=me.adopted >= 0,
        adoption_requirements=tuple(game.pack.adoptions[a].requires for a in cards),
        loyal=game.loyal(state, seat),
        age_rank=ages[seat],
        marriage_vp=state.marriage_vp,
        imperator_solo=state.imperator_solo,
        imperator_empty=state.imperator_empty,
    )


_Lit = Any  # a CP-SAT literal or 0/1 constant


class _Bools:
    """Reified comparisons that read like the math: ``ge(x, k)`` is the literal [x >= k]."""

    def __init__(self, model: cp_model.CpModel) -> None:
        self.m = model
        self.true = model.new_constant(1)
        self.false = model.new_constant(0)

    def const(self, value: bool) -> _Lit:
        return self.true if value else self.false

    def ge(self, x: Any, k: int, name: str) -> _Lit:
        if isinstance(x, int):
            return self.const(x >= k)
        b = self.m.new_bool_var(name)
        self.m.add(x >= k).only_enforce_if(b)
        self.m.add(x <= k - 1).only_enforce_if(b.negated())
        return b

    def all_of(self, lits: Sequence[_Lit], name: str) -> _Lit:
        if not lits:
            return self.true
        b = self.m.new_bool_var(name)
        self.m.add_min_equality(b, list(lits))
        return b

    def any_of(self, lits: Sequence[_Lit], name: str) -> _Lit:
        if not lits:
            return self.false
        b = self.m.new_bool_var(name)
        self.m.add_max_equality(b, list(lits))
        return b

    def not_(self, lit: _Lit, name: str) -> _Lit:
        b = self.m.new_bool_var(name)
        self.m.add(b == 1 - lit)
        return b

    def eq(self, x: Any, k: int, name: str) -> _Lit:
        return self.all_of(
            [self.ge(x, k, f"{name}_ge"), self.not_(self.ge(x, k + 1, f"{name}_gt"), f"{name}_le")], name
        )


CHAIN_BASE = 41
"""Every digit of the tie-breaker chain is 0..40 (cubes are limited to 40), so the chain read as a
number in base 41 orders seats exactly as the lexicographic chain does."""


def chain_number(key: Sequence[Any]) -> Any:
    """The chain key (``scoring.chain_key``: ..., -age rank) as one base-41 number (int or expression)."""
    *head, age = key
    digits = [*head, 6 + age]  # -age_rank in -5..0 -> 1..6
    value: Any = 0
    for d in digits:
        value = value * CHAIN_BASE + d
    return value


@dataclass(slots=True)
class _PlacementModel:
    """A built placement model and the variables needed to read a solution."""

    model: cp_model.CpModel
    total: cp_model.IntVar
    moves: dict[int, cp_model.IntVar]
    first: dict[int, cp_model.IntVar]
    second: dict[int, cp_model.IntVar]
    use_row: dict[int, cp_model.IntVar]


def build_placement_model(p: PlacementProblem) -> _PlacementModel:
    """The best-placement CP-SAT model of one cube action.

    Variables: ``move_B`` (PCIM cubes taken from box B) or ``black1_B``/``black2_B`` (black cubes
    placed in box B before/after the row choice) and ``row_R`` (extra row R bought); ``cubes_B``
    the resulting counts; the reified placements and the chain comparisons.
    Constraints: how the action changes the cubes; the set bonus; the adoption; the ranks.
    Objective: the seat's VP (schedule plus tie-breakers), maximised.
    """
    m = cp_model.CpModel()
    lit = _Bools(m)
    moves: dict[int, cp_model.IntVar] = {}
    first: dict[int, cp_model.IntVar] = {}
    second: dict[int, cp_model.IntVar] = {}
    use_row: dict[int, cp_model.IntVar] = {}
    if p.pcim:
        expr, moves = _pcim_moves(m, p)
    else:
        expr, first, second, use_row = _card_icons(m, p)
    x = [m.new_int_var(0, CUBES_PER_PLAYER, f"cubes_{BOX_CODES[b]}") for b in range(len(p.x0))]
    for b, e in enumerate(expr):
        m.add(x[b] == e)
    v = _with_set_bonus(m, lit, x)
    objective = _objective(m, lit, p, v, _adoption(m, lit, p, v))
    total = m.new_int_var(-100, 400, "total_vp")
    m.add(total == objective)
    m.maximize(total)
    return _PlacementModel(model=m, total=total, moves=moves, first=first, second=second, use_row=use_row)


_Vars = dict[int, cp_model.IntVar]
"""Decision variables by box or row."""


def _pcim_moves(m: cp_model.CpModel, p: PlacementProblem) -> tuple[list[Any], _Vars]:
    """rule: tiberius/pcim-card - the cubes after moving ``move_B`` cubes from each box to gray (at
    least 5, all of them when fewer remain), and the ``move_B`` variables."""
    moves = {b: m.new_int_var(0, p.x0[b], f"move_{BOX_CODES[b]}") for b in MOVE_BOXES}
    moved = sum(moves.values())
    m.add(moved >= min(p.min_moves, sum(p.x0[b] for b in MOVE_BOXES)))
    expr: list[Any] = list(p.x0)
    for b in MOVE_BOXES:
        expr[b] = expr[b] - moves[b]
    expr[PC] = expr[PC] + moved
    return expr, moves


def _card_icons(m: cp_model.CpModel, p: PlacementProblem) -> tuple[list[Any], _Vars, _Vars, _Vars]:
    """rule: tiberius/cube-phase - the cubes after the card's black icons (``black1_B``), one extra row
    or none (``row_R``, afforded at its full price) and that row's black icons (``black2_B``), and
    those three sets of variables."""
    max2 = max((r.blacks for r in p.rows), default=0)
    first = {b: m.new_int_var(0, p.first_blacks, f"black1_{BOX_CODES[b]}") for b in p.black_boxes}
    second = {b: m.new_int_var(0, max2, f"black2_{BOX_CODES[b]}") for b in p.black_boxes}
    use_row = {r.index: m.new_bool_var(f"row_{r.index + 1}") for r in p.rows}
    m.add(sum(first.values()) == p.first_blacks)  # every black icon places a cube
    m.add(sum(use_row.values()) <= 1)  # one OR the other row, or none
    for r in p.rows:
        # rule: tiberius/cube-phase - afford the full price (before the Emperor discount).
        m.add(p.x0[EM] + first[EM] >= r.cost).only_enforce_if(use_row[r.index])
    m.add(sum(second.values()) == sum(r.blacks * use_row[r.index] for r in p.rows))
    expr: list[Any] = list(p.x0)
    for b in range(len(p.x0)):
        expr[b] = expr[b] + first.get(b, 0) + second.get(b, 0)
        expr[b] = expr[b] + sum(r.delta[b] * use_row[r.index] for r in p.rows if r.delta[b])
    return expr, first, second, use_row


def _with_set_bonus(m: cp_model.CpModel, lit: _Bools, x: list[Any]) -> list[Any]:
    """rule: tiberius/set-bonus - the cubes ``x`` with the set bonus's Influence (3 from stock, if in
    every board box)."""
    stock = m.new_int_var(0, CUBES_PER_PLAYER, "stock")
    m.add(stock == CUBES_PER_PLAYER - sum(x))
    cap = m.new_int_var(0, 3, "bonus_cap")
    m.add_min_equality(cap, [stock, 3])
    full_set = lit.all_of([lit.ge(x[b], 1, f"has_{BOX_CODES[b]}") for b in BOARD_BOXES], "full_set")
    bonus = m.new_int_var(0, 3, "set_bonus")
    m.add(bonus == cap).only_enforce_if(full_set)
    m.add(bonus == 0).only_enforce_if(full_set.negated())
    v: list[Any] = list(x)
    v[IN] = m.new_int_var(0, CUBES_PER_PLAYER, "influence")
    m.add(v[IN] == x[IN] + bonus)
    return v


def _adoption(m: cp_model.CpModel, lit: _Bools, p: PlacementProblem, v: list[Any]) -> _Lit:
    """rule: tiberius/adoption-phase - [the seat is adopted]: already, or it meets one of the cards it
    may take (it must when ``force_adoption``)."""
    if p.already_adopted:
        return lit.true
    met = [
        lit.all_of([lit.ge(v[b], need, f"adopt{i}_{BOX_CODES[b]}") for b, need in req], f"adopt{i}")
        for i, req in enumerate(p.adoption_requirements)
    ]
    adopted = lit.any_of(met, "adopted")
    if p.force_adoption:
        m.add(adopted == 1)
    return adopted


class _Ranks:
    """The seat's ranks against the settled opponents, decided by cubes and the tie-breaker chain.

    rule: tiberius/tie-breaker - the chain as one number: the seat ranks below opponent o iff its
    chain is below o's (``behind[o]``).
    """

    def __init__(self, m: cp_model.CpModel, lit: _Bools, p: PlacementProblem, v: list[Any], adopted: _Lit):
        self.m, self.lit, self.p, self.v = m, lit, p, v
        mine = [adopted, v[IN], v[PC], v[IM], v[IP], v[PR], v[GV], v[CQ], v[CC], v[TR], -p.age_rank]
        chain = m.new_int_var(0, CHAIN_BASE**11, "chain")
        m.add(chain == chain_number(mine))
        self.behind = [
            lit.not_(lit.ge(chain, chain_number(key), f"chain_ge_{s}"), f"chain_below_{s}")
            for key, s in zip(p.opponent_keys, p.opponent_seats, strict=True)
        ]

    def beaten_by(self, o: int, box: int) -> _Lit:
        """[opponent o ranks above the seat in ``box``]: more cubes, or as many and a better chain."""
        lit, v = self.lit, self.v
        k = self.p.opponents[o][box]
        name = f"{BOX_CODES[box]}_vs_{self.p.opponent_seats[o]}"
        fewer = lit.not_(lit.ge(v[box], k, f"{name}_ge"), f"{name}_fewer")
        tied = lit.eq(v[box], k, f"{name}_tied")
        return lit.any_of([fewer, lit.all_of([tied, self.behind[o]], f"{name}_tiebreak")], name)

    def placed(self, box: int, table: Sequence[int], others: int) -> Any:
        """VP of a most/next-most category among seats with cubes."""
        m, lit, p = self.m, self.lit, self.p
        rivals = [o for o in range(len(p.opponents)) if p.opponents[o][box] >= 1]
        ahead = m.new_int_var(0, len(rivals), f"ahead_{BOX_CODES[box]}")
        m.add(ahead == sum(self.beaten_by(o, box) for o in rivals))
        has = lit.ge(self.v[box], 1, f"any_{BOX_CODES[box]}")
        pts: Any = 0
        for i, value in enumerate(table):
            pts += value * lit.all_of(
                [has, lit.eq(ahead, i, f"place{i + 1}_{BOX_CODES[box]}")], f"p{i + 1}_{BOX_CODES[box]}"
            )
        if others:
            later = lit.ge(ahead, len(table), f"later_{BOX_CODES[box]}")
            pts += others * lit.all_of([has, later], f"others_{BOX_CODES[box]}")
        return pts


def _objective(m: cp_model.CpModel, lit: _Bools, p: PlacementProblem, v: list[Any], adopted: _Lit) -> Any:
    """The seat's VP by the schedule (``scoring``'s numbers) with every rank against the settled
    opponents decided by cubes and the tie-breaker chain (``_Ranks``), as a CP-SAT expression."""
    ranks = _Ranks(m, lit, p, v, adopted)
    # rule: tiberius/score-conquests, score-pcim, score-governorships (the schedule's PLACE_VP)
    by_place = sum(ranks.placed(box, table, others) for box, table, others in PLACE_VP)
    imperator = v[IP] + _imperator_terms(m, lit, p, v[IP], ranks.beaten_by)  # rule: tiberius/score-imperator
    best_other = max((o[IM] for o in p.opponents), default=0)
    marriages = MARRIAGE_MOST * lit.ge(v[IM], best_other + 1, "most_IM") + MARRIAGE_NONE * lit.not_(
        lit.ge(v[IM], 1, "any_IM"), "no_IM"
    )
    if p.marriage_vp == "aid":
        marriages += v[IM]
    consul = (
        v[CC] + 2 * lit.ge(v[CC], 1, "cc1") + lit.ge(v[CC], 2, "cc2")
    )  # rule: tiberius/score-consul-censor (consul_points: 3, 2, then 1 each)
    triumphs = TRIUMPH_PER_CUBE * v[TR] + TRIUMPH_NONE * lit.not_(lit.ge(v[TR], 1, "any_TR"), "no_TR")
    influence = m.new_int_var(0, CUBES_PER_PLAYER // INFLUENCE_PER_VP, "influence_vp")
    m.add_division_equality(influence, v[IN], INFLUENCE_PER_VP)  # rule: tiberius/score-influence
    return (
        by_place
        + marriages
        + consul
        + triumphs
        + imperator
        + v[PR]
        + ADOPTION_VP * adopted
        + (LOYALTY_VP if p.loyal else 0)
        + influence
    )


def _imperator_terms(m: cp_model.CpModel, lit: _Bools, p: PlacementProblem, ip: Any, beaten_by: Any) -> Any:
    """rule: tiberius/score-imperator - most +3 and least -3 for the seat, as the schedule's
    ``imperator_awards`` decides them (variants for one player and for a box nobody has a cube in):
    the first seat's cube count is the opponents' best, or the seat's own when they have none."""
    n_opp = len(p.opponents)
    ahead = m.new_int_var(0, n_opp, "ahead_IP_all")
    m.add(ahead == sum(beaten_by(o, IP) for o in range(n_opp)))
    players = n_opp + 1
    others_have = max((o[IP] for o in p.opponents), default=0) >= 1
    with_cubes = imperator_awards(players, 1, p.imperator_solo, p.imperator_empty)
    empty = imperator_awards(players, 0, p.imperator_solo, p.imperator_empty)
    has = lit.ge(ip, 1, "any_IP_all")

    def award(k: int, place: _Lit, name: str) -> Any:
        if with_cubes[k] and (others_have or empty[k]):
            return place
        if with_cubes[k]:  # only when the seat itself has a cube (nobody else does)
            return lit.all_of([place, has], name)
        return 0  # (an award never needs fewer cubes: imperator_awards is monotone)

    most = award(0, lit.eq(ahead, 0, "first_IP"), "most_IP")
    least = award(1, lit.eq(ahead, n_opp, "last_IP"), "least_IP")
    return IMPERATOR_MOST * most + IMPERATOR_LEAST * least


_STATUS = {
    cp_model.OPTIMAL: Status.OPTIMAL,
    cp_model.FEASIBLE: Status.FEASIBLE,
    cp_model.INFEASIBLE: Status.INFEASIBLE,
    cp_model.UNKNOWN: Status.UNKNOWN,
    cp_model.MODEL_INVALID: Status.UNKNOWN,
}


def line_from_solution(
    game: TiberiusGame, state: TiberiusState, built: _PlacementModel, solver: cp_model.CpSolver
) -> tuple[list[str], TiberiusState]:
    """Replay the solution through the engine (so the line is legal by construction)."""
    seat = state.actor
    s = state
    line: list[str] = []

    def play(a: TAction) -> None:
        nonlocal s
        line.append(game.action_to_text(s, a))
        s = game.apply(s, a)

    if built.moves:
        for b, var in built.moves.items():
            for _ in range(solver.value(var)):
                play(TAction("move", b))
        if _in_action(s, seat):
            play(TAction("done"))
        return line, s
    for b, var in built.first.items():
        for _ in range(solver.value(var)):
            play(TAction("black", b))
    if _in_action(s, seat) and s.black == 0 and s.row_open:
        chosen = [r for r, var in built.use_row.items() if solver.value(var)]
        play(TAction("row", chosen[0] if chosen else 0))
    for b, var in built.second.items():
        for _ in range(solver.value(var)):
            play(TAction("black", b))
    return line, s


def solve_stoppable(
    solver: cp_model.CpSolver, model: cp_model.CpModel, stop: Callable[[], bool] | None
) -> Any:
    """``solver.solve(model)``, ended early (``stop_search``) once ``stop()`` is True."""
    if stop is None:
        return solver.solve(model)
    done = threading.Event()

    def watch() -> None:
        while not done.wait(0.02):
            if stop():
                solver.stop_search()  # repeated until the solve returns: a stop before it starts is not lost

    watcher = threading.Thread(target=watch, name="cp-sat-stop", daemon=True)
    watcher.start()
    try:
        return solver.solve(model)
    finally:
        done.set()
        watcher.join()


def _placement_explanation(state: TiberiusState, line: Sequence[str], vp: int) -> str:
    """The answer in words: the line to play and the VP it reaches."""
    what = "final VP" if state.turn == state.turns else "VP if the game ended after this cube phase"
    return f"play {', '.join(line) or 'nothing'}: {what} {vp}"


def best_placement(
    game: Game[Any, Any], state: Any, params: Mapping[str, Any], limits: SolveLimits
) -> SolveResult:
    """The row choice, black-icon boxes or PCIM moves that maximise the actor's VP.

    ``params["method"]``: ``"cp-sat"``; ``"enumeration"`` (every legal line, memoised: exact, but
    exponential in the cubes to place); or ``"auto"`` (the default): enumeration while it stays
    within ``ENUMERATION_STATES`` positions (small instances, e.g. most career cards), else CP-SAT.
    Both are exact and agree (tests/tiberius/test_solver.py).
    """
    start = time.perf_counter()
    g, s = as_game(game), as_state(state)
    check_param_keys(params, BEST_PLACEMENT_PARAMS)
    method = choice_param(params, "method", METHODS)
    if method != "cp-sat":
        enumerated = _by_enumeration(g, s, method, limits, start)
        if enumerated is not None:
            return enumerated
    return _by_cp_sat(g, s, limits, start)


def _by_enumeration(
    g: TiberiusGame, s: TiberiusState, method: str, limits: SolveLimits, start: float
) -> SolveResult | None:
    """The best placement by enumerating every line; None when ``method`` is "auto" and the lines
    are more than ``ENUMERATION_STATES`` positions or the time ran out (CP-SAT takes over)."""
    seat = _require_cube_decision(s)
    end = time.perf_counter() + float(limits.time_limit_s)

    def until() -> bool:
        return past_deadline_or_stopped(end, limits.stop)

    try:
        vp, line = brute_force_placement(
            g, s, max_states=tiberius_params.ENUMERATION_STATES if method == "auto" else None, until=until
        )
    except _EnumerationStopped:
        if method != "enumeration":
            return None
        return SolveResult(
            kind="tiberius.best_placement",
            status=Status.UNKNOWN,
            explanation="enumeration stopped (time limit or stop) before it finished",
            method="enumeration",
            wall_s=time.perf_counter() - start,
        )
    return SolveResult(
        kind="tiberius.best_placement",
        status=Status.OPTIMAL,
        objective=float(vp),
        bound=float(vp),
        answer={"seat": seat, "actions": line, "vp": vp},
        explanation=_placement_explanation(s, line, vp),
        method="enumeration",
        wall_s=time.perf_counter() - start,
    )


def _by_cp_sat(g: TiberiusGame, s: TiberiusState, limits: SolveLimits, start: float) -> SolveResult:
    """The best placement by the CP-SAT model, its line replayed through the engine; the time limit
    counts from ``start`` (an enumeration before it spent some)."""
    problem = placement_problem(g, s)
    built = build_placement_model(problem)
    solver = cp_model.CpSolver()
    left = float(limits.time_limit_s) - (time.perf_counter() - start)  # after any enumeration
    solver.parameters.max_time_in_seconds = max(1e-3, left)
    solver.parameters.num_workers = max(1, int(limits.workers))
    code = solve_stoppable(solver, built.model, limits.stop)
    status = _STATUS.get(code, Status.UNKNOWN)
    wall = time.perf_counter() - start
    if status not in (Status.OPTIMAL, Status.FEASIBLE):
        return SolveResult(
            kind="tiberius.best_placement",
            status=status,
            explanation=f"no placement found ({solver.status_name(code)})",
            method="cp-sat",
            wall_s=wall,
        )
    line, after = line_from_solution(g, s, built, solver)
    objective = round(solver.objective_value)
    replayed = settled_vp(g, after, problem.seat)
    explanation = _placement_explanation(s, line, int(objective))
    return SolveResult(
        kind="tiberius.best_placement",
        status=status,
        objective=float(objective),
        bound=float(math.floor(solver.best_objective_bound + 1e-6)),  # integer VP
        answer={"seat": problem.seat, "actions": line, "vp": replayed},
        explanation=explanation,
        method="cp-sat",
        wall_s=time.perf_counter() - start,
    )
