"""What happened in a game, as events a viewer may read (``lictor.v1.Event``).

An :class:`EventRecord` keeps the state before the action, so each viewer's event is written
from it by the one per-viewer rule (``games.core.views``): the action's notation only to the
viewers who can tell it apart by their own view of the result (``seen_by``: the actor and the
referee always; a card drawn face down or a secret objective kept, nobody else), and the
description is the game's ``log_line`` as that viewer may read it ("draws a card").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from games.core import CHANCE, TERMINAL, Game, Viewer
from games.core.views import seen_by
from lictor.v1 import position_pb2 as pos_pb

__all__ = ["EventRecord", "action_record", "created_record", "game_over_record", "resign_record", "to_pb"]


@dataclass(frozen=True, slots=True, kw_only=True)
class EventRecord:
    """One event, kept so that each viewer's message can be written from it.

    Attributes:
        kind: a ``pos_pb.EventKind`` value.
        move_number: actions played after the event.
        seat: the seat that acted, CHANCE, or TERMINAL for none.
        text: the action's notation ("" when none).
        before: the state the action was played in (None for events without an action).
        action: the action object (None when none).
        returns: final returns (game over).
        description: a fixed description (events without an action).
        seen: who sees the action's notation (``seen_by``), found on first need and kept.
    """

    kind: int
    move_number: int
    seat: int
    text: str = ""
    before: Any = None
    action: Any = None
    returns: tuple[float, ...] = ()
    description: str = ""
    seen: list[frozenset[Viewer]] = field(default_factory=list, compare=False, repr=False)

    def seen_by(self, game: Game[Any, Any]) -> frozenset[Viewer]:
        """The viewers who see which action this was (found once; a few ms at most)."""
        if not self.seen:
            self.seen.append(seen_by(game, self.before, self.action))
        return self.seen[0]


def action_record(game: Game[Any, Any], before: Any, action: Any, text: str, move_number: int) -> EventRecord:
    """The event of ``action`` (a seat's or chance's) played in ``before``."""
    seat = game.current_player(before)
    kind = pos_pb.EVENT_KIND_CHANCE if seat == CHANCE else pos_pb.EVENT_KIND_ACTION
    return EventRecord(kind=kind, move_number=move_number, seat=seat, text=text, before=before, action=action)


def game_over_record(game: Game[Any, Any], state: Any, move_number: int) -> EventRecord:
    """The game-over event with the returns."""
    returns = tuple(float(v) for v in game.returns(state))
    best = max(returns) if returns else 0.0
    winners = [str(i) for i, v in enumerate(returns) if v == best]
    word = "winner" if len(winners) == 1 else "winners"
    return EventRecord(
        kind=pos_pb.EVENT_KIND_GAME_OVER,
        move_number=move_number,
        seat=TERMINAL,
        returns=returns,
        description=f"Game over; {word}: seat {', '.join(winners)}.",
    )


def resign_record(seat: int, move_number: int, returns: Sequence[float]) -> list[EventRecord]:
    """A resignation and the game over it causes."""
    return [
        EventRecord(
            kind=pos_pb.EVENT_KIND_RESIGN,
            move_number=move_number,
            seat=seat,
            description=f"Seat {seat} resigns.",
        ),
        EventRecord(
            kind=pos_pb.EVENT_KIND_GAME_OVER,
            move_number=move_number,
            seat=TERMINAL,
            returns=tuple(returns),
            description=f"Game over; seat {seat} resigned.",
        ),
    ]


def created_record(description: str) -> EventRecord:
    """The match-created event."""
    return EventRecord(kind=pos_pb.EVENT_KIND_CREATED, move_number=0, seat=TERMINAL, description=description)


def to_pb(game: Game[Any, Any], record: EventRecord, viewer: Viewer) -> pos_pb.Event:
    """``record`` as ``viewer`` may read it."""
    event = pos_pb.Event(kind=record.kind, move_number=record.move_number, seat=record.seat)  # type: ignore[arg-type]
    if record.returns:
        event.returns.extend(record.returns)
    if record.action is None:
        event.description = record.description
        return event
    event.description = game.log_line(record.before, record.action, viewer)
    if viewer in record.seen_by(game):
        event.action = record.text
    return event
