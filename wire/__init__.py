"""Typed per-game gRPC messages: the optional, hand-kept mapping of a game's public form.

A game may have typed ``Position`` / ``Action`` messages in the ``lictor.v1`` contract (a oneof
case named after the game). Its mapping lives in a module of this package (``wire.<game>`` for the
built-in games, or the ``wire=`` given to ``register_game``) that defines ``FORM``, a
:class:`TypedForm`. A game without one still works through records, JSON and text: typed messages
are optional. ``service/`` reaches a mapping only through :func:`typed_form`, never by name.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from games.core.registry import game_entry

__all__ = ["TypedForm", "dict_to_message", "message_to_dict", "typed_form"]


@dataclass(frozen=True, slots=True)
class TypedForm:
    """One game's typed messages.

    Attributes:
        case: the oneof case of ``Position.kind`` and ``Action.kind`` (the game's name).
        state_to_pb: the game's public form (``to_dict``) -> the typed state message.
        state_from_pb: the typed state message -> the public form (the game's ``from_dict`` checks it).
        action_text: (typed action message, field path) -> the game's notation of the action;
            raises :class:`~games.errors.NotationError` naming the field for an incomplete message.
        action_pb: notation -> typed action message (``ValueError``/``KeyError`` if it has none).
    """

    case: str
    state_to_pb: Callable[[dict[str, Any]], Any]
    state_from_pb: Callable[[Any], dict[str, Any]]
    action_text: Callable[[Any, str], str] | None = None
    action_pb: Callable[[str], Any] | None = None


def typed_form(name: str) -> TypedForm | None:
    """The typed messages of the registered game ``name``, or None when it has none."""
    module = game_entry(name).wire
    if not module:
        return None
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name == module:
            return None
        raise
    form: TypedForm = mod.FORM
    return form


def dict_to_message(data: Mapping[str, Any], msg: Any) -> None:
    """Fill ``msg`` from a game's ``to_dict`` data, field by field by name.

    Nested objects map to sub-messages, ``None`` to an unset sub-message, lists of lists to a
    repeated wrapper message whose one field is ``values``.
    """
    for fd in msg.DESCRIPTOR.fields:
        if fd.name not in data:
            raise KeyError(fd.name)
        value = data[fd.name]
        if value is None:
            continue
        target = getattr(msg, fd.name)
        if fd.is_repeated:
            if fd.message_type is None:
                target.extend(value)
            else:
                for item in value:
                    sub = target.add()
                    if isinstance(item, Mapping):
                        dict_to_message(item, sub)
                    else:
                        sub.values.extend(item)
        elif fd.message_type is not None:
            dict_to_message(value, target)
        else:
            setattr(msg, fd.name, value)


def message_to_dict(msg: Any) -> dict[str, Any]:
    """The inverse of :func:`dict_to_message`: the game's ``to_dict`` form of a typed message."""
    out: dict[str, Any] = {}
    for fd in msg.DESCRIPTOR.fields:
        value = getattr(msg, fd.name)
        if fd.is_repeated:
            if fd.message_type is None:
                out[fd.name] = list(value)
            elif [f.name for f in fd.message_type.fields] == ["values"]:
                out[fd.name] = [list(item.values) for item in value]
            else:
                out[fd.name] = [message_to_dict(item) for item in value]
        elif fd.message_type is not None:
            out[fd.name] = message_to_dict(value) if msg.HasField(fd.name) else None
        else:
            out[fd.name] = value
    return out
