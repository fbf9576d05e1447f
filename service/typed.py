"""Typed per-game position messages (``Position.tiberius``, ...) <-> game states.

Each typed message mirrors its game's ``to_dict`` form field by field (``""`` stands for JSON
``null``), so the game's own ``from_dict`` validates a typed position and names the bad field. A
game without a typed message here is answered with INVALID_ARGUMENT naming the field.

Typed actions (``Action.tiberius``, ``Action.tiberpunk``) map to and from the game's notation,
which the game then parses and checks as usual.

Mapped: ``tiberius`` (``TiberiusState``, ``TiberiusAction``) and ``tiberpunk`` (``TiberpunkState``,
mapped field by field by name through :func:`dict_to_message` / :func:`message_to_dict`;
``TiberpunkAction``, word by word of the notation).
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


_TP_SIMPLE: dict[str, Any] = {
    "ability": tp_pb.TIBERPUNK_ACTION_KIND_ABILITY,
    "place": tp_pb.TIBERPUNK_ACTION_KIND_PLACE,
    "favor": tp_pb.TIBERPUNK_ACTION_KIND_FAVOR,
    "recharge": tp_pb.TIBERPUNK_ACTION_KIND_RECHARGE,
    "skill": tp_pb.TIBERPUNK_ACTION_KIND_SKILL,
    "boost": tp_pb.TIBERPUNK_ACTION_KIND_BOOST,
    "take-ship": tp_pb.TIBERPUNK_ACTION_KIND_TAKE_SHIP,
    "lictor": tp_pb.TIBERPUNK_ACTION_KIND_LICTOR,
    "escape": tp_pb.TIBERPUNK_ACTION_KIND_ESCAPE,
}
_TP_BARE: dict[str, Any] = {
    "end": tp_pb.TIBERPUNK_ACTION_KIND_END,
    "reboot": tp_pb.TIBERPUNK_ACTION_KIND_REBOOT,
    "stop": tp_pb.TIBERPUNK_ACTION_KIND_STOP,
}
_TP_WORDS: dict[int, str] = {k: w for w, k in (_TP_SIMPLE | _TP_BARE).items()}
_TP_DELTAS: dict[str, int] = {"": 0, "+1": 1, "-1": -1, "+2": 2, "-2": -2}
_TP_DELTA_TEXT: dict[int, str] = {v: k for k, v in _TP_DELTAS.items()}
# Interaction option keys in the order the notation writes them, per interaction kind.
_TP_OPTION_ORDER: dict[str, tuple[str, ...]] = {
    "temple": ("by",),
    "hub": ("up", "gadget", "by"),
    "task": ("ship", "gadgets"),
    "quest2": ("gadgets", "ship"),
}


def _tp_interaction_pb(words: list[str]) -> tp_pb.TiberpunkInteraction:
    msg = tp_pb.TiberpunkInteraction()
    if words[0] == "income":
        msg.kind = "income"
        rest = words[1:]
    elif words[0] == "attack":
        msg.kind, msg.target = "attack", words[1]
        rest = words[2:]
    else:
        msg.kind, _, msg.target = words[0].partition(":")
        rest = words[1:]
    for word in rest:
        key, sep, val = word.partition(":")
        if not sep:
            if word != "gadget":
                raise ValueError(word)
            msg.gadget = True
        elif key == "up":
            msg.up.extend([] if val == "-" else val.split(","))
        elif key == "gadgets":
            msg.gadgets.extend(val.split(","))
        elif key == "for":
            msg.objective = val
        elif key in ("by", "ship", "tile"):
            setattr(msg, key, val)
        else:
            raise ValueError(word)
    return msg


def _tp_interaction_text(msg: tp_pb.TiberpunkInteraction, field: str) -> str:
    if not msg.kind:
        raise RequestError("the interaction's kind is required", field=f"{field}.kind")
    if msg.kind == "income":
        return "income"
    if not msg.target:
        raise RequestError(f"a {msg.kind} interaction names its target", field=f"{field}.target")
    if msg.kind == "attack":
        return f"attack {msg.target} tile:{msg.tile} for:{msg.objective}"
    words = [f"{msg.kind}:{msg.target}"]
    for key in _TP_OPTION_ORDER.get(msg.kind, ()):
        if key == "up":
            words.append("up:" + (",".join(msg.up) or "-"))
        elif key == "gadget":
            if msg.gadget:
                words.append("gadget")
        elif key == "gadgets":
            if msg.gadgets:
                words.append("gadgets:" + ",".join(msg.gadgets))
        elif getattr(msg, key):
            words.append(f"{key}:{getattr(msg, key)}")
    return " ".join(words)


def _tiberpunk_action_text(msg: tp_pb.TiberpunkAction, field: str) -> str:
    kind = msg.kind
    word = _TP_WORDS.get(kind)
    if kind in _TP_BARE.values():
        return str(word)
    if word is not None:
        if not msg.name:
            raise RequestError(f"a {word} action names its {word} target", field=f"{field}.name")
        return f"{word} {msg.name}"
    if kind == tp_pb.TIBERPUNK_ACTION_KIND_DICE:
        return "dice " + (",".join(str(d) for d in sorted(msg.dice)) or "-")
    if kind == tp_pb.TIBERPUNK_ACTION_KIND_PURSUE:
        return f"pursue {msg.from_district}-{msg.to_district}"
    if kind == tp_pb.TIBERPUNK_ACTION_KIND_GADGET:
        if not msg.name:
            raise RequestError("a gadget action names its gadget", field=f"{field}.name")
        if msg.count:
            return f"gadget {msg.name} x{msg.count}"
        targets = []
        for i, t in enumerate(msg.targets):
            if t.delta not in _TP_DELTA_TEXT:
                raise RequestError(
                    f"a die changes by 0, +-1 or +-2, not {t.delta}", field=f"{field}.targets[{i}]"
                )
            targets.append(f"{t.pool}{t.value}{_TP_DELTA_TEXT[t.delta]}")
        return f"gadget {msg.name} " + ",".join(targets)
    prefix = f"ship:{msg.ship} " if msg.ship else ""
    if kind == tp_pb.TIBERPUNK_ACTION_KIND_MOVE:
        return f"{prefix}move {msg.mini} {msg.from_district}-{msg.to_district}" + (
            f" pay{msg.pay}" if msg.pay else ""
        )
    if kind == tp_pb.TIBERPUNK_ACTION_KIND_UNSHACKLE:
        return f"{prefix}unshackle {msg.mini}"
    if kind == tp_pb.TIBERPUNK_ACTION_KIND_TOKEN:
        if not msg.token:
            raise RequestError("a token action names its token", field=f"{field}.token")
        head = f"token {msg.token}" + (f" as {msg.as_type}" if msg.as_type else "")
        return f"{head} {_tp_interaction_text(msg.interaction, f'{field}.interaction')}"
    if kind == tp_pb.TIBERPUNK_ACTION_KIND_SHIP:
        if not msg.ship:
            raise RequestError("a ship action names its spaceship card type", field=f"{field}.ship")
        return f"{prefix}{_tp_interaction_text(msg.interaction, f'{field}.interaction')}"
    raise RequestError("the typed action's kind is required", field=f"{field}.kind")


def _tiberpunk_action_pb(text: str) -> tp_pb.TiberpunkAction:
    words = text.split()
    head, args = words[0], words[1:]
    msg = tp_pb.TiberpunkAction()
    if head in _TP_BARE and not args:
        msg.kind = _TP_BARE[head]
    elif head in _TP_SIMPLE and len(args) == 1:
        msg.kind, msg.name = _TP_SIMPLE[head], args[0]
    elif head == "dice" and len(args) == 1:
        msg.kind = tp_pb.TIBERPUNK_ACTION_KIND_DICE
        msg.dice.extend([] if args[0] == "-" else [int(d) for d in args[0].split(",")])
    elif head == "pursue" and len(args) == 1:
        msg.kind = tp_pb.TIBERPUNK_ACTION_KIND_PURSUE
        msg.from_district, msg.to_district = args[0].split("-")
    elif head == "gadget" and len(args) == 2:
        msg.kind, msg.name = tp_pb.TIBERPUNK_ACTION_KIND_GADGET, args[0]
        if args[1].startswith("x"):
            msg.count = int(args[1][1:])
        else:
            for t in args[1].split(","):
                msg.targets.add(pool=t[0], value=int(t[1]), delta=_TP_DELTAS[t[2:]])
    else:
        if head.startswith("ship:"):
            msg.ship = head[5:]
            head, args = args[0], args[1:]
        if head == "move":
            msg.kind, msg.mini = tp_pb.TIBERPUNK_ACTION_KIND_MOVE, args[0]
            msg.from_district, msg.to_district = args[1].split("-")
            if len(args) == 3:
                msg.pay = int(args[2].removeprefix("pay"))
        elif head == "unshackle":
            msg.kind, msg.mini = tp_pb.TIBERPUNK_ACTION_KIND_UNSHACKLE, args[0]
        elif head == "token":
            msg.kind, msg.token = tp_pb.TIBERPUNK_ACTION_KIND_TOKEN, args[0]
            rest = args[1:]
            if len(rest) >= 2 and rest[0] == "as":
                msg.as_type, rest = rest[1], rest[2:]
            msg.interaction.CopyFrom(_tp_interaction_pb(rest))
        elif msg.ship:
            msg.kind = tp_pb.TIBERPUNK_ACTION_KIND_SHIP
            msg.interaction.CopyFrom(_tp_interaction_pb([head, *args]))
        else:
            raise ValueError(text)
    return msg


TYPED_ACTIONS: dict[str, tuple[str, Callable[[Any, str], str], Callable[[str], Any]]] = {
    "tiberius": ("tiberius", _tiberius_action_text, _tiberius_action_pb),
    "tiberpunk": ("tiberpunk", _tiberpunk_action_text, _tiberpunk_action_pb),
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
