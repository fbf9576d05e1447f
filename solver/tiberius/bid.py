"""``tiberius.best_bid`` (exact enumeration of the card phase's actions against an opponent model)
and the hint advice of a card-phase or cube-phase decision."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ortools.sat.python import cp_model

import solver.tiberius.params as tiberius_params
from games.core import Game, make_rng
from games.core.records import replace
from games.core.text import is_digits
from games.errors import ConfigError, IllegalActionError, NotationError
from games.tiberius import TAction, TiberiusGame, TiberiusState
from games.tiberius.model import CARD, CUBE, IN, OVER, PCIM_CARD, PICK
from games.tiberius.rules import MOVE_BOXES, PCIM_MIN_MOVES, adoption_options, is_legal, priority_order
from games.tiberius.scoring import chain_key
from solver.core import Advice, SolveLimits, SolveResult, Status, check_param_keys, shown
from solver.tiberius.elimination import max_new_cubes
from solver.tiberius.params import BEST_BID_PARAMS, METHODS, as_game, as_state, choice_param, int_param
from solver.tiberius.placement import (
    PlacementProblem,
    build_placement_model,
    line_from_solution,
    solve_stoppable,
)


def _opponent_action(game: TiberiusGame, state: TiberiusState) -> TAction:
    """The opponent model of ``best_bid``: what a seat other than the asking one does after the card
    phase.

    A bidder picks the face-up card with the most top-row icons (the first on ties); a PCIM player
    moves cubes from the last box that has any (Influence, usually) and stops as soon as 5 have
    moved; every other decision is the first legal action (a black icon to Conquests, no extra row,
    adoption with the first card the seat may take).
    """
    actions = game.legal_actions(state)
    if state.phase == PICK:
        return max(actions, key=lambda a: len(game.pack.cards[a.arg].rows[0].icons))
    if state.phase == CUBE and state.players[state.actor].played == PCIM_CARD:
        return actions[-1]
    return actions[0]


def _planned(game: TiberiusGame, state: TiberiusState, plan: Mapping[int, str]) -> TAction:
    """A seat's card-phase action in a scenario: its planned action, or take 2 when none is planned or
    the plan is not legal when its turn comes (a bid another seat made first)."""
    text = plan.get(state.actor)
    if text is not None:
        action = game.parse_action(state, text)
        if is_legal(state, game.pack, action):
            return action
    return TAction("take2")


def _adoption_choices(
    game: TiberiusGame, s: TiberiusState, cubes: Sequence[Sequence[int]], seat: int
) -> list[tuple[TAction | None, list[bool]]]:
    """The seat's choices in this turn's adoption phase, each with who is adopted at its end.

    ``None`` stands for passing (or for a seat already adopted); ``adopt own`` / ``adopt A04`` for a
    card, whether or not ``cubes[seat]`` meets it (the caller requires that). The other seats decide
    in priority order by the model (their first option: own card first) on their ``cubes``; a
    face-up card claimed before the seat's turn is not offered (rule: tiberius/adoption-phase).
    """
    options: list[TAction | None] = [None]
    me = s.players[seat]
    if me.adopted < 0:
        if me.secret >= 0:
            options.append(TAction("adopt", -1))
        options.extend(TAction("adopt", a) for a in s.adopt_face_up)
    out: list[tuple[TAction | None, list[bool]]] = []
    for choice in options:
        adopted, face = [p.adopted for p in s.players], list(s.adopt_face_up)
        for k in priority_order(s.start_priority, s.num_players):
            if k == seat:
                took = None if choice is None else choice.arg
            else:
                players = tuple(
                    replace(p, cubes=tuple(c), adopted=a)
                    for p, c, a in zip(s.players, cubes, adopted, strict=True)
                )
                view = replace(s, players=players, adopt_face_up=tuple(face))
                offered = adoption_options(view, game.pack, k)
                took = offered[0] if offered else None
            if took is None:
                continue
            if took >= 0:
                if took not in face:
                    break  # claimed by an earlier seat: not a choice
                face.remove(took)
            adopted[k] = s.players[k].secret if took == -1 else took
        else:
            out.append((choice, [a >= 0 for a in adopted]))
    return out


_Value = tuple[int, tuple[str, ...]]
"""A line's value: the asking seat's VP at the end of the turn, and its own decisions along the line."""


class _TurnValue:
    """The rest of one turn played through the engine, for the seat that asks.

    From a position of the turn, every other seat plays by the model (its planned card-phase action,
    then :func:`_opponent_action`) and ``seat`` takes the best of its own decisions (its pick, its
    cube decisions, its adoption) until the turn ends. The value is ``seat``'s VP at that moment
    (``game.totals``: the score if the game ended then; the final score after the last turn).
    Positions where ``seat`` decides are memoised. A PCIM action with more than
    ``ENUMERATION_STATES`` positions goes to CP-SAT (:meth:`_pcim_value`), the rest is enumerated.

    Args:
        game: the game.
        seat: the seat that asks.
        turn: the turn being played.
        plan: the other seats' card-phase actions (notation).
        method: ``"auto"``, ``"cp-sat"`` (every PCIM action by CP-SAT) or ``"enumeration"`` (none).
        limits: each CP-SAT solve's time limit, workers and stop.
    """

    def __init__(
        self,
        game: TiberiusGame,
        seat: int,
        turn: int,
        plan: Mapping[int, str],
        *,
        method: str,
        limits: SolveLimits,
    ) -> None:
        self.game = game
        self.seat = seat
        self.turn = turn
        self.plan = plan
        self.method = method
        self.limits = limits
        self.memo: dict[TiberiusState, _Value] = {}
        self.exact = True  # False once a CP-SAT solve stopped before proving its optimum

    def value(self, state: TiberiusState) -> _Value:
        """The value of ``state``: the asking seat's VP at the end of the turn, and its line."""
        g, seat = self.game, self.seat
        s = state
        while True:  # the other seats' actions: one each, nothing to memoise
            if s.turn != self.turn or s.phase == OVER:
                return g.totals(s)[seat], ()
            if s.actor == seat:
                break
            s = g.apply(s, _planned(g, s, self.plan) if s.phase == CARD else _opponent_action(g, s))
        known = self.memo.get(s)
        if known is not None:
            return known
        if s.phase == CUBE and s.players[seat].played == PCIM_CARD and self._pcim_by_cp_sat(s):
            found = self._pcim_value(s)
        else:
            best: _Value | None = None
            for a in g.legal_actions(s):
                v, line = self.value(g.apply(s, a))
                if best is None or v > best[0]:
                    best = (v, (g.action_to_text(s, a), *line))
            assert best is not None  # a seat to act has a legal action
            found = best
        self.memo[s] = found
        return found

    def _pcim_by_cp_sat(self, s: TiberiusState) -> bool:
        """Whether the seat's PCIM action at ``s`` goes to CP-SAT: always with ``method="cp-sat"``,
        never with ``"enumeration"``, and with ``"auto"`` when its lines reach more than
        ``ENUMERATION_STATES`` positions (one per count of cubes moved from each box)."""
        if self.method != "auto":
            return self.method == "cp-sat"
        positions = 1
        for b in MOVE_BOXES:
            positions *= s.players[self.seat].cubes[b] + 1
        return positions > tiberius_params.ENUMERATION_STATES

    def _pcim_value(self, s: TiberiusState) -> _Value:
        """The seat's best PCIM action at ``s`` with the adoption it then takes, by CP-SAT.

        The other seats' cube actions and the set bonus do not depend on which cubes the seat moves:
        their cubes at the end of the cube phase are those of any completion of its action. What
        the seat does in the adoption phase (pass, reveal its own card, or claim a face-up one) can
        change which later seats are adopted (a card it claims is gone for them), which the
        tie-breaker chain reads first: one model per choice (the seat's cubes must meet that card),
        and the best of them.
        """
        g, seat = self.game, self.seat
        ref = s
        while ref.turn == s.turn and ref.phase == CUBE:  # a completion, then the others' actions
            ref = g.apply(ref, _opponent_action(g, ref))
        best: _Value | None = None
        for choice, adopted in _adoption_choices(g, s, [p.cubes for p in ref.players], seat):
            found = self._pcim_choice(s, ref, choice, adopted)
            if found is not None and (best is None or found[0] > best[0]):
                best = found
        if best is None:  # every solve stopped: the value of the completion played (a valid line)
            self.exact = False
            while ref.turn == s.turn and ref.phase != OVER:
                ref = g.apply(ref, _opponent_action(g, ref))
            return g.totals(ref)[seat], ()
        return best

    def _pcim_choice(
        self, s: TiberiusState, ref: TiberiusState, choice: TAction | None, adopted: Sequence[bool]
    ) -> _Value | None:
        """The seat's best PCIM action at ``s`` when it then makes ``choice`` in the adoption phase
        (None: pass), by one CP-SAT model; the other seats' cubes are ``ref``'s and ``adopted`` says
        who is adopted. None when the seat cannot meet the card or the solve found nothing in time."""
        g, seat = self.game, self.seat
        card = None if choice is None else (s.players[seat].secret if choice.arg == -1 else choice.arg)
        built = build_placement_model(_pcim_problem(g, s, ref, seat, card=card, adopted=adopted))
        solver = cp_model.CpSolver()
        solver.parameters.max_time_in_seconds = max(1e-3, float(self.limits.time_limit_s))
        solver.parameters.num_workers = max(1, int(self.limits.workers))
        code = solve_stoppable(solver, built.model, self.limits.stop)
        if code == cp_model.INFEASIBLE:
            return None  # the seat cannot meet this card
        if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            self.exact = False
            return None
        self.exact = self.exact and code == cp_model.OPTIMAL
        line, _ = line_from_solution(g, s, built, solver)
        if choice is not None:
            line.append("adopt own" if choice.arg == -1 else f"adopt {g.pack.adoptions[choice.arg].code}")
        return round(solver.objective_value), tuple(line)


def _pcim_problem(
    g: TiberiusGame,
    s: TiberiusState,
    ref: TiberiusState,
    seat: int,
    *,
    card: int | None,
    adopted: Sequence[bool],
) -> PlacementProblem:
    """The placement model's data of ``seat``'s PCIM action at ``s``: the others settled as in ``ref``,
    the seat required to meet adoption card ``card`` (None: no adoption)."""
    ages = g.age_rank(s)
    others = tuple(o for o in range(s.num_players) if o != seat)
    me = s.players[seat]
    return PlacementProblem(
        seat=seat,
        x0=me.cubes,
        pcim=True,
        min_moves=max(0, PCIM_MIN_MOVES - s.moved),
        black_boxes=(),
        first_blacks=0,
        rows=(),
        opponents=tuple(tuple(ref.players[o].cubes) for o in others),
        opponent_keys=tuple(chain_key(ref.players[o].cubes, adopted[o], ages[o]) for o in others),
        opponent_seats=others,
        already_adopted=me.adopted >= 0,
        adoption_requirements=() if card is None else (g.pack.adoptions[card].requires,),
        loyal=g.loyal(s, seat),
        age_rank=ages[seat],
        marriage_vp=s.marriage_vp,
        imperator_solo=s.imperator_solo,
        imperator_empty=s.imperator_empty,
        force_adoption=card is not None,
    )


LIKELY_MAX_BID = 5
"""The likely-bid model of ``best_bid`` samples bids 1..5 (or taking 2 influence)."""
CARD_PHASE_KINDS = ("bid", "buy", "pcim", "take2")


def _later_seats(state: TiberiusState) -> list[int]:
    """The seats after the one to act in this card phase (rule: tiberius/card-phase: clockwise from
    the priority holder at the start of the turn)."""
    order = priority_order(state.start_priority, state.num_players)
    return order[order.index(state.actor) + 1 :]


def _others_param(game: TiberiusGame, state: TiberiusState, params: Mapping[str, Any]) -> dict[int, str]:
    """``params["others"]``: {seat: card-phase action} for seats still to act in this card phase."""
    raw = params.get("others", {})
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise ConfigError(
            f"others must map seats to card-phase actions, got {shown(raw)}", field="params.others"
        )
    later = _later_seats(state)
    out: dict[int, str] = {}
    for key, text in raw.items():
        seat = _seat_key(key)
        where = f"params.others.{key[:20] if isinstance(key, str) else shown(key, 20)}"
        if seat is None or seat not in later:
            raise ConfigError(
                f"others names the seats still to act in this card phase ({later}), not {shown(key)}",
                field=where,
            )
        if not isinstance(text, str) or len(text) > 40:
            raise ConfigError(f"a planned action is notation like 'bid 3', not {shown(text)}", field=where)
        try:
            action = game.parse_action(state, text)
        except NotationError as exc:
            raise ConfigError(f"planned action {shown(text)}: {exc.message}", field=where) from None
        if action.kind not in CARD_PHASE_KINDS:
            raise ConfigError(
                "a planned action is a card-phase action (bid N, buy CARD, imperium maius, "
                f"take 2 influence), not {shown(text)}",
                field=where,
                rule="tiberius/card-phase",
            )
        out[seat] = text
    return out


def _seat_key(key: Any) -> int | None:
    """A seat number given as an int or a string of digits (JSON object keys are strings)."""
    if isinstance(key, bool):
        return None
    if isinstance(key, int):
        return key
    if isinstance(key, str) and 0 < len(key) <= 2 and is_digits(key):
        return int(key)
    return None


def _bid_setup(game: TiberiusGame, state: TiberiusState, params: Mapping[str, Any]) -> list[dict[int, str]]:
    """The scenarios: the known actions of the later seats, completed by samples (or by take 2)."""
    if state.phase != CARD:
        raise IllegalActionError(
            "best bid needs a card-phase decision; this state is in another phase",
            field="state",
            rule="tiberius/card-phase",
        )
    check_param_keys(params, BEST_BID_PARAMS)
    others = _others_param(game, state, params)
    choice_param(params, "method", METHODS)
    samples = int_param(params, "samples", 0, 0, 64)
    seed = int_param(params, "seed", 0, -(2**62), 2**62)
    if samples == 0:
        return [others]
    rng = make_rng(seed)
    scenarios = []
    for _ in range(samples):
        scenario = dict(others)
        for o in _later_seats(state):
            if o not in scenario:
                # the likely-bid model: take 2 influence or a small bid, uniformly
                top = min(state.players[o].cubes[IN], LIKELY_MAX_BID)
                scenario[o] = rng.choice(["take2", *(f"bid {b}" for b in range(1, top + 1))])
        scenarios.append(scenario)
    return scenarios


def _need_stock(game: TiberiusGame) -> int:
    """Stock above which no cube phase can run short: the biggest card's cubes plus the set bonus."""
    return max_new_cubes(game) + 3


def _bid_candidates(
    game: TiberiusGame, state: TiberiusState, scenarios: Sequence[Mapping[int, str]]
) -> list[TAction]:
    """The card-phase actions worth evaluating (every one when the stock is scarce).

    With ample stock a seat's VP never rises with its bid while its rank among the bids stays the
    same (the bid goes to stock either way; fewer Influence cubes only score less and rank lower in
    the tie-breaker chain), so the smallest bid per rank is enough, plus every bid that equals a
    later seat's planned bid (it makes that bid illegal). Ranks are taken over the bids of every
    scenario.
    """
    seat = state.actor
    legal = list(game.legal_actions(state))
    bids = [a for a in legal if a.kind == "bid"]
    rest = [a for a in legal if a.kind != "bid"]
    if state.players[seat].stock < _need_stock(game):
        return legal
    planned: set[int] = set()
    for others in scenarios:
        for v in others.values():
            words = v.split()
            if len(words) == 2 and words[0] == "bid" and is_digits(words[1]):
                planned.add(int(words[1]))
    thresholds = sorted({p.bid for p in state.players if p.bid > 0} | planned)
    keep: list[TAction] = []
    seen_rank: set[int] = set()
    for a in bids:  # ascending
        rank = sum(1 for t in thresholds if t > a.arg)
        if a.arg in planned or rank not in seen_rank:
            keep.append(a)
            seen_rank.add(rank)
    return keep + rest


@dataclass(frozen=True, slots=True)
class _Candidate:
    """One card-phase action valued.

    Attributes:
        action: the action.
        text: its notation.
        vp: the seat's VP at the end of the turn (the mean over the scenarios).
        line: the seat's own decisions after it in the first scenario (its pick, cube decisions,
            adoption).
    """

    action: TAction
    text: str
    vp: float
    line: tuple[str, ...]


def _bid_values(
    game: TiberiusGame,
    state: TiberiusState,
    candidates: Sequence[TAction],
    scenarios: Sequence[Mapping[int, str]],
    *,
    method: str,
    limits: SolveLimits,
) -> tuple[list[_Candidate], bool]:
    """Each candidate valued (mean over the scenarios), and whether every value is exact."""
    seat = state.actor
    per_scenario = [
        _TurnValue(game, seat, state.turn, plan, method=method, limits=limits) for plan in scenarios
    ]
    out = []
    for a in candidates:
        after = game.apply(state, a)
        values = [t.value(after) for t in per_scenario]
        mean = sum(v for v, _ in values) / len(values)
        out.append(_Candidate(a, game.action_to_text(state, a), mean, values[0][1]))
    return out, all(t.exact for t in per_scenario)


def brute_force_bid(game: TiberiusGame, state: TiberiusState, params: Mapping[str, Any]) -> float:
    """Best value over every legal card-phase action (the cross-check of :func:`best_bid`'s pruned
    candidates)."""
    scenarios = _bid_setup(game, state, params)
    method = str(params.get("method", "auto"))
    values, _ = _bid_values(
        game, state, game.legal_actions(state), scenarios, method=method, limits=SolveLimits(workers=1)
    )
    return max(c.vp for c in values)


def _card_text(game: TiberiusGame, card: int) -> str:
    """``SYR06 "Legate of Antioch" (Syria/East)``."""
    c = game.pack.cards[card]
    return f'{c.code} "{c.title}" ({game.pack.regions[c.region]})'


def _bid_explanation(
    game: TiberiusGame,
    state: TiberiusState,
    ranked: Sequence[_Candidate],
    scenarios: Sequence[Mapping[int, str]],
) -> str:
    """The answer as a player reads it: which card the action wins, what the seat does with it, the
    VP it ends the turn with, and by how much it beats the next best action."""
    best = ranked[0]
    seat = state.actor
    first = scenarios[0]
    rest = list(best.line)
    picked = next((w for w in rest if w.startswith("pick ")), None)
    if picked is not None:
        rest.remove(picked)
    if best.action.kind == "bid":
        planned = [
            int(v.split()[1]) for v in first.values() if v.startswith("bid ") and is_digits(v.split()[1])
        ]
        bids = [p.bid for p in state.players if p.bid > 0] + planned
        rank = 1 + sum(1 for b in bids if b > best.action.arg)
        order = ("first", "second", "third", "fourth", "fifth", "sixth")[rank - 1]
        head = (
            f"{best.text}: seat {seat}, the only bidder, picks first"
            if not bids
            else f"{best.text}: seat {seat} picks {order} of {len(bids) + 1} bidders"
        )
        if picked is not None:
            code = picked.split()[1]
            found = game.pack.card_by_code(code)
            head += f" and takes {_card_text(game, found.id) if found else code}"
        else:
            head += " but finds no card left (the bid still goes to stock)"
    elif best.action.kind == "buy":
        head = f"{best.text}: seat {seat} buys {_card_text(game, best.action.arg)} for 6 Influence"
    elif best.action.kind == "pcim":
        head = f"imperium maius: seat {seat} plays Pro-Consular Imperium Maius (no career card this turn)"
    else:
        head = f"take 2 influence: seat {seat} takes 2 Influence (no career card this turn)"
    if rest:
        head += f", then plays {', '.join(rest)}"
    when = "the final score" if state.turn == state.turns else "at the end of this turn"
    over = f"mean over {len(scenarios)} sampled scenarios, " if len(scenarios) > 1 else ""
    text = f"{head}; {over}{best.vp:g} VP {when}"
    if len(ranked) > 1:
        second = ranked[1]
        text += f" ({best.vp - second.vp:+g} VP over the next best, {second.text}: {second.vp:g} VP)"
    if len(scenarios) == 1 and not first:
        text += "; the seats still to act are assumed to take 2 Influence"
    return text + "."


def best_bid(game: Game[Any, Any], state: Any, params: Mapping[str, Any], limits: SolveLimits) -> SolveResult:
    """The card-phase action (bid / buy / PCIM / take 2) that leaves the seat the most VP at the end of
    this turn (exact enumeration through the engine; see :class:`_TurnValue`).

    Params (``BEST_BID_PARAMS``): ``others`` {seat: action} for seats still to act this card phase
    (the rest take 2 influence, or with ``samples`` = N > 0 and ``seed`` each of N scenarios draws
    their action from the likely-bid model, take 2 or bid 1..5, and values are means); ``method``
    for PCIM lines (``auto``, ``cp-sat``, ``enumeration``).
    """
    start = time.perf_counter()
    g, s = as_game(game), as_state(state)
    scenarios = _bid_setup(g, s, params)
    method = choice_param(params, "method", METHODS)
    candidates = _bid_candidates(g, s, scenarios)
    values, exact = _bid_values(g, s, candidates, scenarios, method=method, limits=limits)
    if limits.stop is not None and limits.stop():
        return SolveResult(
            kind="tiberius.best_bid",
            status=Status.UNKNOWN,
            explanation="stopped before every candidate was valued; ask again with more time",
            method="enumeration",
            wall_s=time.perf_counter() - start,
        )
    ranked = sorted(values, key=lambda c: -c.vp)  # stable: the first legal action on ties
    best = ranked[0]
    card = best.action.arg if best.action.kind == "buy" else None
    picked = next((w.split()[1] for w in best.line if w.startswith("pick ")), None)
    return SolveResult(
        kind="tiberius.best_bid",
        status=Status.OPTIMAL if exact else Status.FEASIBLE,
        objective=float(best.vp),
        bound=float(best.vp),
        answer={
            "action": best.text,
            "vp": best.vp,
            "card": picked if card is None else g.card_code(card),
            "line": list(best.line),
            "scenarios": len(scenarios),
            "evaluated": len(candidates),
            "candidates": [{"action": c.text, "vp": c.vp, "line": list(c.line)} for c in ranked],
        },
        explanation=_bid_explanation(g, s, ranked, scenarios),
        method="enumeration",
        wall_s=time.perf_counter() - start,
    )


def hint_advice(
    game: Game[Any, Any], state: Any, actions: tuple[Any, ...], limits: SolveLimits
) -> Advice | None:
    """The exact advice behind a card-phase hint (``solver.core.Advice``): every card-phase action the
    hint shows valued by :func:`best_bid`'s question (the seat's VP at the end of this turn, its own
    pick, cubes and adoption played best), so the hint ranks by it. None outside the card phase or
    when stopped before every value is known."""
    g, s = as_game(game), as_state(state)
    if s.phase != CARD or s.actor < 0:
        return None
    scenarios = _bid_setup(g, s, {})
    wanted = list(
        dict.fromkeys(
            [*_bid_candidates(g, s, scenarios), *(a for a in actions if a.kind in CARD_PHASE_KINDS)]
        )
    )
    values, _exact = _bid_values(g, s, wanted, scenarios, method="auto", limits=limits)
    if limits.stop is not None and limits.stop():
        return None
    best = max(values, key=lambda c: c.vp)  # the first legal action on ties, as best_bid answers
    when = "the final score" if s.turn == s.turns else "at the end of this turn"
    later = _later_seats(s)
    return Advice(
        label="VP at the end of this turn" if s.turn != s.turns else "final VP",
        unit="VP",
        values={c.text: float(c.vp) for c in values},
        best=best.text,
        method="exact enumeration (tiberius.best_bid)",
        assumption=(
            f"seat{'s' if len(later) > 1 else ''} {', '.join(map(str, later))} still to bid "
            f"{'are' if len(later) > 1 else 'is'} assumed to take 2 Influence"
            if later
            else ""
        ),
        sentences={
            c.text: f"{c.vp:g} VP {when}" + (f", then {', '.join(c.line)}" if c.line else "") for c in values
        },
    )
