"""Typed per-game position messages (``Position.tiberius``, ...) <-> game states.

Each typed message mirrors its game's ``to_dict`` form field by field (``""`` stands for JSON
``null``), so the game's own ``from_dict`` validates a typed position and names the bad field. A
game without a typed message here is answered with INVALID_ARGUMENT naming the field.

Typed actions (``Action.tiberius``) map to and from the game's notation, which the game then
parses and checks as usual.

Mapped: ``tiberius`` (``TiberiusState``, ``TiberiusAction``) and ``tiberpunk`` (``TiberpunkState``,
mapped field by field by name through :func:`dict_to_message` / :func:`message_to_dict`; Tiberpunk
actions travel as text).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.core import Game
from games.errors import LictorError
from lictor.v1 import position_pb2 as pos_pb
from lictor.v1 import tiberius_pb2 as tib_pb
from lictor.v1 import tiberpunk_pb2 as tp_pb
from service.errors import RequestError

__all__ = [
    "TYPED_ACTIONS",
    "TYPED_GAMES",
    "action_from_text",
    "action_text",
    "state_from_pb",
    "state_to_pb",
    "typed_case",
]

# Box code (the game's to_dict keys) -> TiberiusCubes field.
_TIB_BOXES: tuple[tuple[str, str], ...] = (
    ("CQ", "conquests"),
    ("IM", "imperial_marriages"),
    ("PC", "pro_consular"),
    ("CC", "consul_censor"),
    ("GV", "governorships"),
    ("TR", "triumphs"),
    ("IP", "imperator"),
    ("PR", "priesthoods"),
    ("EM", "emperor"),
    ("IN", "influence"),
    ("BD", "bid"),
)
_TIB_NULLABLE = ("face_up", "played", "secret", "adopted")
_TIB_PLAIN_LISTS = ("bids", "pcim_used", "adopt_face_up", "adopt_unused", "discarded", "age")
_TIB_SCALARS = (
    "turn",
    "phase",
    "actor",
    "start_priority",
    "priority",
    "black",
    "row_open",
    "family",
    "moved",
)


def _tiberius_to_pb(data: dict[str, Any]) -> tib_pb.TiberiusState:
    msg = tib_pb.TiberiusState()
    for key in _TIB_SCALARS:
        setattr(msg, key, data[key])
    for cubes in data["cubes"]:
        msg.cubes.add(**{name: int(cubes.get(code, 0)) for code, name in _TIB_BOXES})
    for deck in data["decks"]:
        msg.decks.add(cards=list(deck))
    for cards in data["careers"]:
        msg.careers.add(cards=list(cards))
    for key in _TIB_NULLABLE:
        getattr(msg, key).extend("" if v is None else v for v in data[key])
    for key in _TIB_PLAIN_LISTS:
        getattr(msg, key).extend(data[key])
    msg.variants.CopyFrom(tib_pb.TiberiusVariants(**data["variants"]))
    return msg


def _tiberius_from_pb(msg: tib_pb.TiberiusState) -> dict[str, Any]:
    data: dict[str, Any] = {key: getattr(msg, key) for key in _TIB_SCALARS}
    data["cubes"] = [{code: getattr(c, name) for code, name in _TIB_BOXES} for c in msg.cubes]
    data["decks"] = [list(d.cards) for d in msg.decks]
    data["careers"] = [list(c.cards) for c in msg.careers]
    for key in _TIB_NULLABLE:
        data[key] = [v or None for v in getattr(msg, key)]
    for key in _TIB_PLAIN_LISTS:
        data[key] = list(getattr(msg, key))
    v = msg.variants
    data["variants"] = {
        "influence_table": v.influence_table,
        "pcim_rule": v.pcim_rule,
        "marriage_vp": v.marriage_vp,
    }
    return data


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


def _tiberpunk_to_pb(data: dict[str, Any]) -> tp_pb.TiberpunkState:
    msg = tp_pb.TiberpunkState()
    dict_to_message(data, msg)
    return msg


TYPED_GAMES: dict[str, tuple[str, Callable[[dict[str, Any]], Any], Callable[[Any], dict[str, Any]]]] = {
    "tiberius": ("tiberius", _tiberius_to_pb, _tiberius_from_pb),
    "tiberpunk": ("tiberpunk", _tiberpunk_to_pb, message_to_dict),
}
"""game name -> (``Position`` oneof case, to_dict -> message, message -> dict)."""


def typed_case(name: str) -> str | None:
    """The ``Position.kind`` case of ``name``'s typed message, or None."""
    entry = TYPED_GAMES.get(name)
    return entry[0] if entry else None


def state_from_pb(game: Game[Any, Any], msg: pos_pb.Position, *, field: str) -> Any:
    """The state held by a typed position message (validated by the game's ``from_dict``)."""
    kind = msg.WhichOneof("kind")
    entry = TYPED_GAMES.get(msg.game)
    if entry is None or entry[0] != kind:
        raise RequestError(
            f"typed position {kind!r} does not fit game {msg.game!r}; send record, state_json or state_text",
            field=field,
        )
    data = entry[2](getattr(msg, kind))
    try:
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
    entry = TYPED_GAMES.get(name)
    if entry is None:
        raise RequestError(f"no typed position message for {name!r}", field="position")
    case, to_pb, _ = entry
    msg = pos_pb.Position(game=name, content_pack=content_pack)
    getattr(msg, case).CopyFrom(to_pb(game.to_dict(state)))
    return msg


# ------------------------------------------------------------------------------------------- actions
_TIB_KIND_WORDS: dict[int, str] = {
    tib_pb.TIBERIUS_ACTION_KIND_BID: "bid",
    tib_pb.TIBERIUS_ACTION_KIND_BUY: "buy",
    tib_pb.TIBERIUS_ACTION_KIND_PCIM: "pcim",
    tib_pb.TIBERIUS_ACTION_KIND_TAKE2: "take2",
    tib_pb.TIBERIUS_ACTION_KIND_PICK: "pick",
    tib_pb.TIBERIUS_ACTION_KIND_BLACK: "black",
    tib_pb.TIBERIUS_ACTION_KIND_ROW: "row",
    tib_pb.TIBERIUS_ACTION_KIND_MOVE: "move",
    tib_pb.TIBERIUS_ACTION_KIND_DONE: "done",
    tib_pb.TIBERIUS_ACTION_KIND_ADOPT: "adopt",
    tib_pb.TIBERIUS_ACTION_KIND_PASS: "pass",
}
_TIB_WORD_KINDS: dict[str, Any] = {w: k for k, w in _TIB_KIND_WORDS.items()}


def _tiberius_action_text(msg: tib_pb.TiberiusAction, field: str) -> str:
    word = _TIB_KIND_WORDS.get(msg.kind)
    if word is None:
        raise RequestError("the typed action's kind is required", field=f"{field}.kind")
    if word == "bid":
        return f"bid {msg.amount}"
    if word in ("buy", "pick", "adopt"):
        if not msg.card:
            raise RequestError(f"a {word} action names its card", field=f"{field}.card")
        return f"{word} {msg.card}"
    if word in ("black", "move"):
        if not msg.box:
            raise RequestError(f"a {word} action names its box", field=f"{field}.box")
        return f"{word} {msg.box}"
    if word == "row":
        return f"row {msg.row}" if msg.row else "row none"
    return word


def _tiberius_action_pb(text: str) -> tib_pb.TiberiusAction:
    words = text.split()
    msg = tib_pb.TiberiusAction(kind=_TIB_WORD_KINDS[words[0]])
    if len(words) > 1:
        arg = words[1]
        if words[0] == "bid":
            msg.amount = int(arg)
        elif words[0] in ("buy", "pick", "adopt"):
            msg.card = arg
        elif words[0] in ("black", "move"):
            msg.box = arg
        elif words[0] == "row" and arg != "none":
            msg.row = int(arg)
    return msg


TYPED_ACTIONS: dict[str, tuple[str, Callable[[Any, str], str], Callable[[str], Any]]] = {
    "tiberius": ("tiberius", _tiberius_action_text, _tiberius_action_pb),
}
"""game name -> (``Action`` oneof case, message -> notation, notation -> message)."""


def action_text(name: str, msg: pos_pb.Action, *, field: str) -> str:
    """The notation of a typed ``Action`` (the game then parses and checks it)."""
    kind = msg.WhichOneof("kind")
    entry = TYPED_ACTIONS.get(name)
    if entry is None or entry[0] != kind:
        raise RequestError(f"typed action {kind!r} does not fit game {name!r}; send action.text", field=field)
    return entry[1](getattr(msg, kind), f"{field}.{kind}")


def action_from_text(name: str, text: str) -> pos_pb.Action | None:
    """The typed ``Action`` of a notation, or None when ``name`` has no typed actions."""
    entry = TYPED_ACTIONS.get(name)
    if entry is None:
        return None
    try:
        typed = entry[2](text)
    except (KeyError, ValueError, IndexError):
        return None
    msg = pos_pb.Action()
    getattr(msg, entry[0]).CopyFrom(typed)
    return msg
