# ruff: noqa: N802  (gRPC servicer methods are named after the RPCs)
"""SolverService: exact scores and puzzles. Thin over ``solver``."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import grpc

from games.errors import LictorError
from lictor.v1 import solver_service_pb2 as solver_pb
from lictor.v1 import solver_service_pb2_grpc as solver_grpc
from service import convert
from service.errors import RequestError, grpc_errors
from service.limits import Limits, SearchGate, call_deadline, cancel_event
from solver.core import SolveLimits, get_puzzle, get_scorer

__all__ = ["PUZZLE_CASES", "SolverServicer"]

PUZZLE_CASES: dict[str, str] = {
    "tiberius_best_bid": "tiberius.best_bid",
    "tiberius_best_placement": "tiberius.best_placement",
    "tiberius_elimination": "tiberius.elimination",
    "tiberpunk_quest_odds": "tiberpunk.quest_odds",
    "tiberpunk_route_plan": "tiberpunk.route_plan",
}
"""``SolveRequest.puzzle`` oneof case -> registered puzzle kind (``generic`` names its kind)."""

DEFAULT_SOLVE_S = 10.0


def puzzle_of(request: solver_pb.SolveRequest) -> tuple[str, dict[str, Any]]:
    """(kind, params) of a Solve request's ``puzzle`` oneof."""
    case = request.WhichOneof("puzzle")
    if case is None:
        raise RequestError("the puzzle is required: set one case of the puzzle oneof", field="puzzle")
    if case == "generic":
        if not request.generic.kind:
            raise RequestError("generic.kind names the puzzle kind", field="generic.kind")
        try:
            loaded = json.loads(request.generic.params_json or "{}")
        except ValueError as exc:
            raise RequestError(f"params_json is not JSON: {exc}", field="generic.params_json") from None
        if not isinstance(loaded, dict):
            raise RequestError("params_json must be a JSON object", field="generic.params_json")
        return request.generic.kind, loaded
    msg = getattr(request, case)
    params: dict[str, Any] = {}
    if case == "tiberius_best_bid":
        params["others"] = {int(k): v for k, v in msg.others.items()}
    elif case == "tiberius_elimination":
        if msg.HasField("seat"):
            params["seat"] = msg.seat
        if msg.max_nodes:
            params["max_nodes"] = msg.max_nodes
    elif case == "tiberpunk_quest_odds":
        if msg.skill:
            params.update(skill=msg.skill, stage=msg.stage or 1, mini=msg.mini or "character")
        elif msg.dice > 0:
            params.update(
                dice=msg.dice,
                need=list(msg.need),
                gadgets=list(msg.gadgets),
                rolls=msg.rolls or 1,
                per_roll=msg.per_roll or 1,
                dice_per_gadget=msg.dice_per_gadget or 1,
            )
        else:
            raise RequestError("name a quest (skill) or give the numbers (dice, need)", field=f"{case}.skill")
    elif case == "tiberpunk_route_plan":
        if not msg.to:
            raise RequestError("the destination district is required", field=f"{case}.to")
        params.update(mini=msg.mini or "character", to=msg.to)
        if msg.HasField("coins"):
            params["coins"] = msg.coins
    return PUZZLE_CASES[case], params


def _solver_field(exc: LictorError, case: str) -> LictorError:
    # A solver names "params.x" (its parameters) or "state..." (the position): map them onto the request.
    if exc.field.startswith("params"):
        rest = exc.field.removeprefix("params")
        exc.field = ("generic.params_json" if case == "generic" else case) + rest
    elif exc.field == "state" or exc.field.startswith("state."):
        exc.field = "position" + exc.field.removeprefix("state")
    elif not exc.field:
        exc.field = "position"
    return exc


class SolverServicer(solver_grpc.SolverServiceServicer):  # type: ignore[misc]
    """Exact answers over gRPC."""

    def __init__(
        self,
        limits: Limits,
        gate: SearchGate,
        server_stop: threading.Event,
        *,
        content_root: str | None = None,
    ) -> None:
        self.content_root = content_root
        self._scores = convert.LruCache(1024)
        self.limits = limits
        self.gate = gate
        self.server_stop = server_stop

    @grpc_errors
    def Score(
        self, request: solver_pb.ScoreRequest, context: grpc.ServicerContext
    ) -> solver_pb.ScoreResponse:
        """The exact score of a position (a pure function of it: recent answers are kept)."""
        data = convert.position_key(request.position)
        key = (self.content_root, data)
        cached: solver_pb.ScoreResponse | None = self._scores.get(key) if data is not None else None
        if cached is not None:
            return cached
        # The answer is kept by these bytes (below): the position itself need not be kept as well.
        res = convert.resolve_position(request.position, content_root=self.content_root, key=data, keep=False)
        try:
            scorer = get_scorer(res.name)
        except LictorError as exc:
            exc.field = "position.game"
            raise
        reply = convert.score_to_pb(scorer(res.game, res.state))
        if data is not None:
            self._scores.put(key, reply)
        return reply

    @grpc_errors
    def Solve(
        self, request: solver_pb.SolveRequest, context: grpc.ServicerContext
    ) -> solver_pb.SolveResponse:
        """Solve a puzzle (bounded by the client's deadline)."""
        kind, params = puzzle_of(request)
        res = convert.resolve_position(request.position, content_root=self.content_root)
        try:
            game_name, fn = get_puzzle(kind)
        except LictorError as exc:
            exc.field = (
                "generic.kind"
                if request.WhichOneof("puzzle") == "generic"
                else str(request.WhichOneof("puzzle"))
            )
            raise
        if game_name != res.name:
            raise RequestError(
                f"puzzle {kind!r} is about {game_name!r}, not {res.name!r}",
                field=str(request.WhichOneof("puzzle")),
            )
        lim = request.limits
        if lim.time_limit_s < 0 or lim.workers < 0:
            raise RequestError("limits must be >= 0", field="limits")
        time_limit = min(lim.time_limit_s or DEFAULT_SOLVE_S, self.limits.max_search_s)
        deadline = call_deadline(context)
        if deadline is not None:
            time_limit = max(0.01, min(time_limit, deadline - time.monotonic() - 0.03))
        workers = min(lim.workers or self.limits.max_solve_workers, self.limits.max_solve_workers)
        case = str(request.WhichOneof("puzzle"))
        stop = cancel_event(context, self.server_stop)  # a cancelled call stops its solve
        with self.gate.slot():
            try:
                result = fn(
                    res.game,
                    res.state,
                    params,
                    SolveLimits(time_limit_s=time_limit, workers=workers, stop=stop.is_set),
                )
            except LictorError as exc:
                raise _solver_field(exc, case) from None
            except (KeyError, ValueError, TypeError, IndexError) as exc:
                # A solver reading its parameters: a bad or missing parameter is the client's error.
                where = "generic.params_json" if case == "generic" else case
                raise RequestError(f"bad parameters for {kind!r}: {exc!r}", field=where) from None
        return convert.solve_to_pb(result)
