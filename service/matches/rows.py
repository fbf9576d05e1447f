"""A match's stored row read back: every column checked, a damaged one said in words a person reads.

The store (:mod:`service.matches.store`) writes a match's row once (its setup, seats and secrets'
hashes) and keeps its summary with every append. Reading either back never trusts it: a column
that is not what was written raises :class:`DamageError` with what is wrong, and the match is
quarantined (or, for a listing, loaded instead). No stored row can stop the server.
"""

from __future__ import annotations

import json
import math
from typing import Any, TypeGuard

from games.core import TERMINAL
from games.errors import LictorError
from lictor.v1 import match_service_pb2 as match_pb
from service import convert, events
from service.matches.model import MAX_LEVEL, LiveMatch, SeatSpec, commitment, seats_pb, summary_pb

__all__ = [
    "LISTED",
    "LOADED",
    "DamageError",
    "created_record",
    "decode_flag",
    "decode_seats",
    "decode_secrets",
    "decode_setup",
    "decode_time",
    "is_int",
    "listed_pb",
    "quote",
    "summary",
]

_STATUS = {
    "active": match_pb.MATCH_STATUS_ACTIVE,
    "finished": match_pb.MATCH_STATUS_FINISHED,
    "damaged": match_pb.MATCH_STATUS_DAMAGED,
}
LISTED = (
    "match_id, game, setup_json, seats_json, created_at, seat_secrets_json, status, moves, to_move, "
    "resigned_seat, returns_json, damage, client_seed, summarized"
)
"""The columns a listing reads."""
LOADED = (
    "game, setup_json, seats_json, created_at, seat_secrets_json, client_seed, "
    "status, moves, to_move, resigned_seat, returns_json, damage, summarized"
)
"""The columns a load reads: the match, then its summary (rewritten only when it is not right)."""


class DamageError(Exception):
    """A stored match that does not read back; the message says what, for a person."""


def is_int(value: Any) -> TypeGuard[int]:
    """Whether ``value`` is an int (not a bool)."""
    return isinstance(value, int) and not isinstance(value, bool)


def quote(value: Any, cap: int = 40) -> str:
    """``value`` quoted for a message, clipped to ``cap`` characters."""
    text = str(value)
    return repr(text if len(text) <= cap else text[: cap - 3] + "...")


def _json(text: Any, what: str) -> Any:
    if not isinstance(text, str):
        raise DamageError(f"its stored {what} is not text")
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise DamageError(f"its stored {what} is not JSON") from None


def decode_setup(text: Any) -> convert.Setup:
    """The stored setup (players, options, the seed)."""
    d = _json(text, "setup")
    if not isinstance(d, dict):
        raise DamageError("its stored setup is not an object")
    players, options, seed = d.get("players"), d.get("options"), d.get("seed")
    if not (is_int(players) and 1 <= players <= 1024):
        raise DamageError("its stored setup has no valid player count")
    if not isinstance(options, dict) or not all(_option_ok(v) for v in options.values()):
        raise DamageError("its stored setup's options are unreadable")
    if not (is_int(seed) and 0 <= seed < 2**64):
        raise DamageError("its stored setup has no valid seed")
    return convert.Setup(players=players, options=options, seed=seed)


def _option_ok(value: Any) -> bool:
    if is_int(value):
        return bool(-(2**63) <= value < 2**63)
    return isinstance(value, (bool, float, str))


def decode_seats(text: Any, players: int) -> tuple[SeatSpec, ...]:
    """The stored seats, one per player."""
    items = _json(text, "seats")
    if not isinstance(items, list) or not all(isinstance(s, dict) for s in items):
        raise DamageError("its stored seats are unreadable")
    if len(items) != players:
        raise DamageError(f"it stores {len(items)} seats for {players} players")
    seats = []
    for i, s in enumerate(items):
        ai, level, name, engine = s.get("ai"), s.get("level", 5), s.get("name", ""), s.get("engine", "")
        if not isinstance(ai, bool) or not (is_int(level) and 1 <= level <= MAX_LEVEL):
            raise DamageError(f"its stored seat {i} is unreadable")
        if not isinstance(name, str) or not isinstance(engine, str):
            raise DamageError(f"its stored seat {i} is unreadable")
        seats.append(SeatSpec(ai=ai, level=level, name=name, engine=engine))
    return tuple(seats)


def decode_secrets(text: Any, seats: int) -> tuple[str, ...]:
    """The stored hashes of the seats' secrets (empty: the match has none)."""
    if text == "":
        return ()
    hashes = _json(text, "seat secrets")
    if not isinstance(hashes, list) or len(hashes) != seats or not all(isinstance(h, str) for h in hashes):
        raise DamageError("its stored seat secrets are unreadable")
    return tuple(hashes)


def decode_time(value: Any) -> float:
    """The stored creation time (Unix seconds)."""
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
        raise DamageError("its stored creation time is not a time")
    return float(value)


def decode_flag(value: Any, what: str) -> bool:
    """A stored 0/1 flag."""
    if value not in (0, 1) or not is_int(value):
        raise DamageError(f"its stored {what} is unreadable")
    return bool(value)


def _decode_int(value: Any, what: str, low: int = -(2**31), high: int = 2**31 - 1) -> int:
    if not (is_int(value) and low <= value <= high):
        raise DamageError(f"its stored {what} is unreadable")
    return int(value)


def _decode_returns(text: Any) -> list[float]:
    values = _json(text, "returns")
    if not isinstance(values, list) or not all(
        isinstance(v, (int, float)) and not isinstance(v, bool) for v in values
    ):
        raise DamageError("its stored returns are unreadable")
    return [float(v) for v in values]


def summary(live: LiveMatch) -> tuple[str, int, int, int, str]:
    """The summary columns of a match: status, moves, the seat to move, the resigned seat, returns."""
    status = "damaged" if live.damage else "finished" if live.finished else "active"
    return status, len(live.actions), live.to_move(), live.resigned_seat, json.dumps(live.returns())


def created_record(live: LiveMatch) -> events.EventRecord:
    """A match's first event: the game and who plays each seat."""
    kinds = ", ".join(
        f"seat {i}: " + (("AI, " + (s.engine or f"level {s.level}")) if s.ai else "human")
        for i, s in enumerate(live.seats)
    )
    return events.created_record(f"{live.game.info.title} match created ({kinds}).")


def listed_pb(row: tuple[Any, ...]) -> match_pb.Match:
    """A listing's light ``Match`` from its summary row (the :data:`LISTED` columns); DamageError when
    the row is not as written (then the listing loads the match instead)."""
    (match_id, name, setup_json, seats_json, created_at, secrets_json) = row[:6]
    (status, moves, to_move, resigned_seat, returns_json, damage, client_seed, summarized) = row[6:]
    if not summarized or status not in _STATUS or not isinstance(damage, str):
        raise DamageError("no summary")
    try:
        info = convert.lookup_game(name).info
    except LictorError:
        raise DamageError("no game") from None
    setup_d = decode_setup(setup_json)
    seats = decode_seats(seats_json, setup_d.players)
    revealed = (
        status == "finished"
        or decode_flag(client_seed, "seed's origin")
        or not (info.hidden_information or info.stochastic)
    )
    setup = convert.setup_to_pb(setup_d)
    if not revealed:
        setup.seed = 0
    returns = _decode_returns(returns_json)
    moves = _decode_int(moves, "move count", 0)
    player = TERMINAL if status != "active" else _decode_int(to_move, "seat to move")
    return match_pb.Match(
        match_id=match_id,
        game=name,
        seats=seats_pb(seats),
        setup=setup,
        status=_STATUS[status],
        move_number=moves,
        summary=summary_pb(name, len(seats), player, returns, moves),
        returns=returns,
        resigned_seat=_decode_int(resigned_seat, "resigned seat"),
        created_at=decode_time(created_at),
        view=match_pb.MATCH_VIEW_PUBLIC if info.hidden_information else match_pb.MATCH_VIEW_FULL,
        seat_secrets=any(decode_secrets(secrets_json, len(seats))),
        seed_commitment=commitment(match_id, setup_d.seed),
        damage=damage,
        seed_revealed=revealed,
    )
