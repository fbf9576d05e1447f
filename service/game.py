# ruff: noqa: N802  (handler methods are named after the RPCs)
"""GameService (the rules referee) and DiagnosticsService (echo). Thin: convert, call, convert back.

Transport-neutral (:mod:`service.rpc`): served over gRPC and over HTTP (Connect, gRPC-Web) alike.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from games.core import CHANCE, REFEREE, TERMINAL, Game, game_names, get_game, make_rng
from games.core.registry import GameEntry, entries
from games.core.rng import derive_seed
from games.core.views import check_known
from games.errors import LictorError
from lictor.v1 import diagnostics_service_pb2 as diag_pb
from lictor.v1 import game_service_pb2 as game_pb
from lictor.v1 import position_pb2 as pos_pb
from service import convert, events, face, typed
from service.rpc import Call, checked
from solver.core import get_puzzle_spec, get_scorer, puzzle_kinds

__all__ = ["DiagnosticsServicer", "GameServicer", "apply_with_events", "list_game_infos"]

log = logging.getLogger("lictor.service")

MAX_CHANCE_STEPS = 1000
"""Most chance outcomes one ApplyAction resolves in a row."""


def list_game_infos() -> list[game_pb.GameInfo]:
    """Every registered game's listing, by name."""
    kinds = puzzle_kinds()
    infos = []
    for name in game_names():
        game = get_game(name)
        try:
            get_scorer(name)
            has_scorer = True
        except LictorError:
            has_scorer = False
        info = convert.game_info_to_pb(
            game.info, has_scorer=has_scorer, puzzle_kinds=[k for k in kinds if k.startswith(f"{name}.")]
        )
        info.engines.extend(sorted(game.policies()))
        infos.append(info)
    return infos


def apply_with_events(
    game: Game[Any, Any],
    state: Any,
    action: Any,
    *,
    move_number: int,
    resolve_chance: bool = False,
    chance_seed: int = 0,
) -> tuple[Any, list[str], list[pos_pb.Event]]:
    """Apply ``action`` (and, if asked, the chance outcomes after it, drawn from ``chance_seed``).

    Returns the new state, the actions applied in notation and the events (as the referee reads
    them: the caller sent the whole state).
    """
    text = game.action_to_text(state, action)
    after = game.apply(state, action)
    move_number += 1
    records = [events.action_record(game, state, action, text, move_number)]
    played = [text]
    state = after
    if resolve_chance:
        steps = 0
        while game.current_player(state) == CHANCE and steps < MAX_CHANCE_STEPS:
            rng = make_rng(derive_seed(chance_seed, "chance", move_number))
            outcome = game.sample_chance(state, rng)
            text = game.action_to_text(state, outcome)
            after = game.apply(state, outcome)
            move_number += 1
            records.append(events.action_record(game, state, outcome, text, move_number))
            played.append(text)
            state = after
            steps += 1
    if game.current_player(state) == TERMINAL:
        records.append(events.game_over_record(game, state, move_number))
    return state, played, [events.to_pb(game, r, REFEREE) for r in records]


class GameServicer:
    """The rules referee (one method per RPC of ``lictor.v1.GameService``)."""

    def __init__(self, *, content_root: str | None = None) -> None:
        self.content_root = content_root
        self._listing: tuple[tuple[GameEntry, ...], game_pb.ListGamesResponse] | None = None

    @checked
    async def ListGames(self, request: game_pb.ListGamesRequest, call: Call) -> game_pb.ListGamesResponse:
        """Every registered game (the listing is made once per set of registrations)."""
        key = entries()
        if self._listing is None or self._listing[0] != key:
            self._listing = (key, game_pb.ListGamesResponse(games=list_game_infos()))
        return self._listing[1]

    @checked
    async def NewGame(self, request: game_pb.NewGameRequest, call: Call) -> game_pb.NewGameResponse:
        """Set a game up."""
        game, pack = convert.game_with_pack(request.game, request.content_pack, self.content_root)
        setup = convert.setup_from_pb(request.setup, field="setup")
        state = convert.new_game(game, setup, field="setup", content_pack=pack)
        return game_pb.NewGameResponse(
            position=convert.record_position(request.game, setup, (), request.content_pack),
            summary=convert.summary_of(game, request.game, state, 0),
        )

    @checked
    async def GetLegalActions(
        self, request: game_pb.GetLegalActionsRequest, call: Call
    ) -> game_pb.GetLegalActionsResponse:
        """The legal actions of a position."""
        res = convert.resolve_position(request.position, content_root=self.content_root)
        game, state = res.game, res.state
        check_known(game, state)
        if game.current_player(state) == CHANCE:
            actions = [
                game_pb.LegalAction(text=game.action_to_text(state, a), probability=float(p))
                for a, p in game.chance_outcomes(state)
            ]
        else:
            actions = [
                game_pb.LegalAction(text=game.action_to_text(state, a)) for a in game.legal_actions(state)
            ]
            if typed.has_typed_actions(res.name):
                for legal in actions:
                    typed_action = typed.action_from_text(res.name, legal.text)
                    if typed_action is not None:
                        legal.action.CopyFrom(typed_action)
        return game_pb.GetLegalActionsResponse(
            actions=actions, summary=convert.summary_of(game, res.name, state, res.move_number)
        )

    @checked
    async def ApplyAction(
        self, request: game_pb.ApplyActionRequest, call: Call
    ) -> game_pb.ApplyActionResponse:
        """Apply one action (and resolve the chance nodes after it if asked)."""
        res = convert.resolve_position(request.position, content_root=self.content_root)
        game = res.game
        check_known(game, res.state)
        action = convert.parse_action(game, res.state, request.action, field="action")
        try:
            state, played, events = apply_with_events(
                game,
                res.state,
                action,
                move_number=res.move_number,
                resolve_chance=request.resolve_chance,
                chance_seed=request.chance_seed,
            )
        except LictorError as exc:
            where = f"action.{request.action.WhichOneof('kind')}"
            exc.field = where if not exc.field or exc.field == "action" else exc.field
            raise
        return game_pb.ApplyActionResponse(
            position=convert.position_like(res, state, played),
            events=events,
            summary=convert.summary_of(game, res.name, state, res.move_number + len(played)),
        )

    @checked
    async def ValidateState(
        self, request: game_pb.ValidateStateRequest, call: Call
    ) -> game_pb.ValidateStateResponse:
        """Check a position; rule problems are reported in the answer."""
        try:
            res = convert.resolve_position(request.position, content_root=self.content_root)
            game, state = res.game, res.state
            problems = _sanity(game, state)
        except LictorError as exc:
            if exc.field in ("position.game", "position.kind", "position.content_pack"):
                raise  # not a position of a game at all: NOT_FOUND / INVALID_ARGUMENT
            problem = game_pb.Problem(field=exc.field[:200], rule=exc.rule, message=exc.message[:500])
            return game_pb.ValidateStateResponse(valid=False, problems=[problem])
        except Exception as exc:  # a check that failed is a problem to report, never an error
            log.exception("ValidateState: a check raised")
            problem = game_pb.Problem(
                field="position", message=f"the position could not be checked: {exc!r}"[:500]
            )
            return game_pb.ValidateStateResponse(valid=False, problems=[problem])
        if problems:
            return game_pb.ValidateStateResponse(valid=False, problems=problems)
        return game_pb.ValidateStateResponse(
            valid=True, summary=convert.summary_of(game, res.name, state, res.move_number)
        )

    @checked
    async def GetContent(self, request: game_pb.GetContentRequest, call: Call) -> game_pb.GetContentResponse:
        """The game's components as a person reads them (service/face.py)."""
        game, pack = convert.game_with_pack(request.game, request.content_pack, self.content_root)
        return face.content_response(request.game, pack, game, request.if_none_match)

    @checked
    async def Describe(self, request: game_pb.DescribeRequest, call: Call) -> game_pb.DescribeResponse:
        """What a viewer may see of a position, readable (service/face.py)."""
        return face.describe(request, content_root=self.content_root)

    @checked
    async def Render(self, request: game_pb.RenderRequest, call: Call) -> game_pb.RenderResponse:
        """A picture of a position as a viewer may see it (service/face.py)."""
        return await face.render(request, content_root=self.content_root)

    @checked
    async def DescribeAction(
        self, request: game_pb.DescribeActionRequest, call: Call
    ) -> game_pb.DescribeActionResponse:
        """One action as a viewer reads it in the log (service/face.py)."""
        return face.describe_action(request, content_root=self.content_root)

    @checked
    async def GetSchema(self, request: game_pb.GetSchemaRequest, call: Call) -> game_pb.GetSchemaResponse:
        """The JSON Schemas of a game's public forms and of its puzzles' parameters."""
        game, _ = convert.game_with_pack(request.game, request.content_pack, self.content_root)
        sheet = game.score_sheet_schema()
        reply = game_pb.GetSchemaResponse(
            game=request.game,
            state_schema_json=json.dumps(game.state_schema(), sort_keys=True),
            score_sheet_schema_json=json.dumps(sheet, sort_keys=True) if sheet is not None else "",
        )
        for kind in puzzle_kinds():
            spec = get_puzzle_spec(kind)
            if spec.game == request.game:
                reply.puzzles.add(
                    kind=kind,
                    summary=spec.summary,
                    params_schema_json=json.dumps(spec.params_schema, sort_keys=True),
                )
        return reply


def _sanity(game: Game[Any, Any], state: Any) -> list[game_pb.Problem]:
    """Invariants every legal position keeps (the conformance check's, on one state)."""
    problems = []
    player = game.current_player(state)
    n = game.num_players(state)
    hidden = 0 <= player < n and game.hides(state, player)  # a view: the mover's moves are unknown
    legal = () if hidden else game.legal_actions(state)
    if not hidden and (player == TERMINAL) != (len(legal) == 0):
        problems.append(
            game_pb.Problem(
                field="position", message=f"terminal is {player == TERMINAL} but {len(legal)} legal actions"
            )
        )
    if player not in (TERMINAL, CHANCE) and not 0 <= player < n:
        problems.append(
            game_pb.Problem(field="position", message=f"seat to move {player!r} is not in 0..{n - 1}")
        )
    if json.dumps(game.to_dict(game.from_dict(game.to_dict(state))), sort_keys=True) != json.dumps(
        game.to_dict(state), sort_keys=True
    ):
        problems.append(
            game_pb.Problem(field="position", message="the state does not round-trip through to_dict")
        )
    return problems


class DiagnosticsServicer:
    """Echo: the latency baseline."""

    async def Echo(self, request: diag_pb.EchoRequest, call: Call) -> diag_pb.EchoResponse:
        """The payload back."""
        return diag_pb.EchoResponse(payload=request.payload)
