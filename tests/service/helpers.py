"""Helpers of the service tests: game lists, positions, status details."""

from __future__ import annotations

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from games.core import game_names, get_game
from lictor.v1 import position_pb2 as pos_pb


def all_games() -> list[str]:
    """Every registered game plus the fixture game."""
    return sorted({*game_names(), "pig"})


def players_for(name: str) -> int:
    """A player count the game accepts (2 where possible)."""
    info = get_game(name).info
    return min(info.max_players, max(info.min_players, 2))


def record(
    name: str, *, players: int | None = None, seed: int = 1, actions: tuple[str, ...] = ()
) -> pos_pb.Position:
    """A record position."""
    return pos_pb.Position(
        game=name,
        record=pos_pb.GameRecord(
            setup=pos_pb.GameSetup(players=players or players_for(name), seed=seed), actions=list(actions)
        ),
    )


def violations(err: grpc.RpcError) -> list[tuple[str, str]]:
    """(field, description) of every BadRequest field violation in an error's rich status."""
    status = rpc_status.from_call(err)
    out = []
    if status is not None:
        for detail in status.details:
            if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
                bad = error_details_pb2.BadRequest()
                detail.Unpack(bad)
                out += [(v.field, v.description) for v in bad.field_violations]
    return out


def error_info(err: grpc.RpcError) -> dict[str, str]:
    """The ErrorInfo metadata (+ reason) of an error's rich status."""
    status = rpc_status.from_call(err)
    if status is not None:
        for detail in status.details:
            if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                info = error_details_pb2.ErrorInfo()
                detail.Unpack(info)
                return {"reason": info.reason, **dict(info.metadata)}
    return {}
