# ruff: noqa: N802  (handler methods are named after the RPCs)
"""SolverService: exact scores and puzzles, for every registered game, with no per-game code.

A puzzle is named by its kind (``"<game>.<name>"``, registered by the game's solver module with
its parameter schema) and its parameters as JSON (``generic``). The typed cases of the ``puzzle``
oneof (kept for clients of earlier versions) are read the same way: case ``<game>_<name>`` is
kind ``<game>.<name>`` and its message's set fields are the parameters. Transport-neutral
(:mod:`service.rpc`): served over gRPC and HTTP alike.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from games.core.registry import GameEntry
from games.errors import LictorError
from lictor.v1 import solver_service_pb2 as solver_pb
from service import convert
from service.errors import RequestError, UnavailableError
from service.limits import Limits, answer_by, check_number, give_up_at
from service.rpc import Call, checked
from service.workers import STOP_GRACE_S, Job, JobLateError, WorkerPool, wait_until
from solver.core import SolveResult, Status, get_puzzle_spec, get_scorer

__all__ = ["SolverServicer", "message_params", "puzzle_of", "solve_slack"]

DEFAULT_SOLVE_S = 10.0


def solve_slack(time_limit_s: float) -> float:
    """Seconds a solve may run past its time limit before its stop flag is set: a quarter of the
    limit, at least 0.5 s (a solver watches its limit itself; the flag is the backstop)."""
    return max(0.5, 0.25 * time_limit_s)


def message_params(msg: Any) -> dict[str, Any]:
    """The set fields of a message as plain values (maps keep their key type; unset fields absent)."""
    out: dict[str, Any] = {}
    for fd, value in msg.ListFields():
        if fd.message_type is not None and fd.message_type.GetOptions().map_entry:
            vfd = fd.message_type.fields_by_name["value"]
            out[fd.name] = {k: message_params(v) if vfd.message_type else v for k, v in value.items()}
        elif fd.is_repeated:
            out[fd.name] = [message_params(v) if fd.message_type else v for v in value]
        elif fd.message_type is not None:
            out[fd.name] = message_params(value)
        else:
            out[fd.name] = value
    return out


def puzzle_of(request: solver_pb.SolveRequest) -> tuple[str, str, dict[str, Any]]:
    """(kind, request field, params) of a Solve request's ``puzzle`` oneof."""
    case = request.WhichOneof("puzzle")
    if case is None:
        raise RequestError("the puzzle is required: set generic (kind + params_json)", field="puzzle")
    if case == "generic":
        if not request.generic.kind:
            raise RequestError("generic.kind names the puzzle kind", field="generic.kind")
        loaded = convert.parse_json(request.generic.params_json or "{}", field="generic.params_json")
        if not isinstance(loaded, dict):
            raise RequestError("params_json must be a JSON object", field="generic.params_json")
        return request.generic.kind, "generic.params_json", loaded
    game, _, name = case.partition("_")
    return f"{game}.{name}", case, message_params(getattr(request, case))


def _solver_field(exc: LictorError, where: str) -> LictorError:
    # A solver names "params.x" (its parameters) or "state..." (the position): map them onto the request.
    if exc.field.startswith("params"):
        exc.field = where + exc.field.removeprefix("params")
    elif exc.field == "state" or exc.field.startswith("state."):
        exc.field = "position" + exc.field.removeprefix("state")
    elif not exc.field:
        exc.field = "position"
    return exc


class SolverServicer:
    """Exact answers (one method per RPC of ``lictor.v1.SolverService``).

    Args:
        limits: the server's caps.
        pool: the worker processes for calls (solves run there).
        games: the run-time game registrations the workers must know.
        content_root: the directory under which requests may name content packs.
        score_cache: the cache of Score answers (by the position's bytes).
    """

    def __init__(
        self,
        limits: Limits,
        pool: WorkerPool,
        games: Callable[[], tuple[GameEntry, ...]],
        *,
        content_root: str | None = None,
        score_cache: convert.ByteLru | None = None,
    ) -> None:
        self.limits = limits
        self.pool = pool
        self.games = games
        self.content_root = content_root
        self._scores = score_cache or convert.ByteLru(4 * 1024 * 1024)

    @checked
    async def Score(self, request: solver_pb.ScoreRequest, call: Call) -> solver_pb.ScoreResponse:
        """The exact score of a position (a pure function of it: recent answers are kept)."""
        data = convert.position_key(request.position)
        key = (self.content_root, data)
        cached: solver_pb.ScoreResponse | None = self._scores.get(key) if data is not None else None
        if cached is not None:
            return cached
        res = convert.resolve_position(request.position, content_root=self.content_root, key=data, keep=False)
        try:
            scorer = get_scorer(res.name)
        except LictorError as exc:
            exc.field = "position.game"
            raise
        reply = convert.score_to_pb(scorer(res.game, res.state))
        if data is not None:
            self._scores.put(key, reply, len(data) + reply.ByteSize())
        return reply

    @checked
    async def Solve(self, request: solver_pb.SolveRequest, call: Call) -> solver_pb.SolveResponse:
        """Solve a puzzle (bounded by the client's deadline, in a worker process)."""
        kind, where, params = puzzle_of(request)
        res = convert.resolve_position(request.position, content_root=self.content_root)
        try:
            spec = get_puzzle_spec(kind)
        except LictorError as exc:
            exc.field = "generic.kind" if where == "generic.params_json" else where
            raise
        if spec.game != res.name:
            raise RequestError(
                f"puzzle {kind!r} is about {spec.game!r}, not {res.name!r}",
                field="generic.kind" if where == "generic.params_json" else where,
            )
        lim = request.limits
        check_number(lim.time_limit_s, field="limits.time_limit_s")
        if lim.workers < 0:
            raise RequestError(f"limits.workers must be >= 0, not {lim.workers!r}", field="limits.workers")
        time_limit = min(lim.time_limit_s or DEFAULT_SOLVE_S, self.limits.max_search_s)
        by = answer_by(call.time_remaining(), self.limits)
        # A process first (a replacement warming up is waited for, at most half the client's time:
        # not half the solver's, which a loaded machine's warm-up outlasts); the solver's time counts
        # from then.
        worker = await self.pool.acquire(wait=False, until=wait_until(by))
        remaining = call.time_remaining()
        now = time.monotonic()
        time_limit = max(0.01, min(time_limit, by - now))
        # The solver stops itself at its time limit; the stop flag backs it up a little later (and
        # never after the client's deadline allows), and a solver that ignores both is killed.
        stop_at = min(by, now + time_limit + solve_slack(time_limit))
        workers = min(lim.workers or self.limits.max_solve_workers, self.limits.max_solve_workers)
        job = Job(
            kind="solve",
            games=self.games(),
            args={
                "game": res.name,
                "pack": res.pack_path,
                "kind": kind,
                "state": res.state,
                "params": params,
                "time_limit_s": time_limit,
                "workers": workers,
            },
            deadline=stop_at,
            progress=False,
        )
        answer_at = min(give_up_at(remaining, by, grace=2.0), stop_at + STOP_GRACE_S)
        try:
            outcome = await self.pool.run(job, worker=worker, give_up_at=answer_at)
        except JobLateError as exc:  # no answer in time: the best so far is "unknown", and why
            return convert.solve_to_pb(SolveResult(kind=kind, status=Status.UNKNOWN, explanation=exc.message))
        except UnavailableError:  # the process died, or the server is stopping: not the request's fault
            raise
        except LictorError as exc:
            raise _solver_field(exc, where) from None
        result: SolveResult = outcome.value
        if outcome.late or result is None:
            result = SolveResult(kind=kind, status=Status.UNKNOWN, explanation="the solver ran out of time")
        return convert.solve_to_pb(result)
