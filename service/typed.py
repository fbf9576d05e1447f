"""Typed position and action messages (``Position.<game>``, ``Action.<game>``) <-> game states.

A game's typed messages are optional and mapped outside the service (:mod:`wire`): this module
finds a game's :class:`~wire.TypedForm` by the game's registration and applies it, so the game's
own ``from_dict`` validates a typed position and names the bad field, and a typed action becomes
the game's notation, which the game parses and checks as usual. A game without typed messages is
answered with INVALID_ARGUMENT naming the field (send a record, JSON or text).
"""

from __future__ import annotations

from typing import Any

from games.core import Game
from games.errors import LictorError
from lictor.v1 import position_pb2 as pos_pb
from service.errors import RequestError
from wire import TypedForm, typed_form

__all__ = ["action_from_text", "action_text", "form_of", "has_typed_actions", "state_from_pb", "state_to_pb"]


def form_of(name: str) -> TypedForm | None:
    """The typed messages of ``name`` (None: none, or no such game)."""
    try:
        return typed_form(name)
    except LictorError:
        return None


def state_from_pb(game: Game[Any, Any], msg: pos_pb.Position, *, field: str) -> Any:
    """The state held by a typed position message (validated by the game's ``from_dict``)."""
    kind = msg.WhichOneof("kind")
    form = form_of(msg.game)
    if form is None or form.case != kind:
        raise RequestError(
            f"typed position {kind!r} does not fit game {msg.game[:60]!r};"
            " send record, state_json or state_text",
            field=field,
        )
    try:
        data = form.state_from_pb(getattr(msg, kind))
        return game.from_dict(data)
    except LictorError as exc:
        if exc.field == "state" or exc.field.startswith("state."):
            exc.field = field + exc.field.removeprefix("state")
        elif not exc.field:
            exc.field = field
        raise
    except (KeyError, TypeError, ValueError) as exc:
        raise RequestError(f"bad typed position: {exc!r}", field=field) from None


def state_to_pb(game: Game[Any, Any], name: str, state: Any, *, content_pack: str = "") -> pos_pb.Position:
    """A state as its typed position message."""
    form = form_of(name)
    if form is None:
        raise RequestError(f"no typed position message for {name[:60]!r}", field="position")
    msg = pos_pb.Position(game=name, content_pack=content_pack)
    getattr(msg, form.case).CopyFrom(form.state_to_pb(game.to_dict(state)))
    return msg


def has_typed_actions(name: str) -> bool:
    """Whether ``name`` has typed action messages."""
    form = form_of(name)
    return form is not None and form.action_pb is not None


def action_text(name: str, msg: pos_pb.Action, *, field: str) -> str:
    """The notation of a typed ``Action`` (the game then parses and checks it)."""
    kind = msg.WhichOneof("kind")
    form = form_of(name)
    if form is None or form.case != kind or form.action_text is None:
        raise RequestError(
            f"typed action {kind!r} does not fit game {name[:60]!r}; send action.text", field=field
        )
    return form.action_text(getattr(msg, kind), f"{field}.{kind}")


def action_from_text(name: str, text: str) -> pos_pb.Action | None:
    """The typed ``Action`` of a notation, or None when ``name`` has no typed actions."""
    form = form_of(name)
    if form is None or form.action_pb is None:
        return None
    try:
        typed = form.action_pb(text)
    except (KeyError, ValueError, IndexError):
        return None
    msg = pos_pb.Action()
    getattr(msg, form.case).CopyFrom(typed)
    return msg
