"""Typed Tiberpunk messages: ``TiberpunkState``, ``TiberpunkAction`` word by word of the notation.

``lictor.v1.TiberpunkState`` predates the public form in the rulebook's words (issue 17): its fields
are the engine's internal ones (``c1deck``, ``otoks``, bit masks, content-pack indices). It stays as
it was (backward compatible); this module maps it to and from the public form
(``TiberpunkGame.to_dict``) through the internal state, with the reference content pack.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from games.errors import NotationError
from games.tiberpunk.game import TiberpunkGame
from lictor.v1 import tiberpunk_pb2 as tp_pb
from wire import TypedForm, dict_to_message, message_to_dict

__all__ = ["FORM"]


@functools.cache
def _game() -> TiberpunkGame:
    return TiberpunkGame()


def _tiberpunk_to_pb(data: Mapping[str, Any]) -> tp_pb.TiberpunkState:
    """The public form -> the v1 message (the engine's field names)."""
    game = _game()
    msg = tp_pb.TiberpunkState()
    dict_to_message(game.internal_dict(game.from_dict(data)), msg)
    return msg


def _tiberpunk_from_pb(msg: tp_pb.TiberpunkState) -> dict[str, Any]:
    """The v1 message -> the public form (``InvalidStateError`` names ``state.<v1 field>``)."""
    game = _game()
    return game.to_dict(game.from_internal_dict(message_to_dict(msg)))


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
        raise NotationError("the interaction's kind is required", field=f"{field}.kind")
    if msg.kind == "income":
        return "income"
    if not msg.target:
        raise NotationError(f"a {msg.kind} interaction names its target", field=f"{field}.target")
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
            raise NotationError(f"a {word} action names its {word} target", field=f"{field}.name")
        return f"{word} {msg.name}"
    if kind == tp_pb.TIBERPUNK_ACTION_KIND_DICE:
        return "dice " + (",".join(str(d) for d in sorted(msg.dice)) or "-")
    if kind == tp_pb.TIBERPUNK_ACTION_KIND_PURSUE:
        return f"pursue {msg.from_district}-{msg.to_district}"
    if kind == tp_pb.TIBERPUNK_ACTION_KIND_GADGET:
        return _tp_gadget_text(msg, field)
    return _tp_miniature_text(msg, field)


def _tp_gadget_text(msg: tp_pb.TiberpunkAction, field: str) -> str:
    if not msg.name:
        raise NotationError("a gadget action names its gadget", field=f"{field}.name")
    if msg.count:
        return f"gadget {msg.name} x{msg.count}"
    targets = []
    for i, t in enumerate(msg.targets):
        if t.delta not in _TP_DELTA_TEXT:
            raise NotationError(
                f"a die changes by 0, +-1 or +-2, not {t.delta}", field=f"{field}.targets[{i}]"
            )
        targets.append(f"{t.pool}{t.value}{_TP_DELTA_TEXT[t.delta]}")
    return f"gadget {msg.name} " + ",".join(targets)


def _tp_miniature_text(msg: tp_pb.TiberpunkAction, field: str) -> str:
    """Moves, unshackles, tokens and spaceship cards (``ship:<type>`` first when played with one)."""
    kind = msg.kind
    prefix = f"ship:{msg.ship} " if msg.ship else ""
    if kind == tp_pb.TIBERPUNK_ACTION_KIND_MOVE:
        return f"{prefix}move {msg.mini} {msg.from_district}-{msg.to_district}" + (
            f" pay{msg.pay}" if msg.pay else ""
        )
    if kind == tp_pb.TIBERPUNK_ACTION_KIND_UNSHACKLE:
        return f"{prefix}unshackle {msg.mini}"
    if kind == tp_pb.TIBERPUNK_ACTION_KIND_TOKEN:
        if not msg.token:
            raise NotationError("a token action names its token", field=f"{field}.token")
        head = f"token {msg.token}" + (f" as {msg.as_type}" if msg.as_type else "")
        return f"{head} {_tp_interaction_text(msg.interaction, f'{field}.interaction')}"
    if kind == tp_pb.TIBERPUNK_ACTION_KIND_SHIP:
        if not msg.ship:
            raise NotationError("a ship action names its spaceship card type", field=f"{field}.ship")
        return f"{prefix}{_tp_interaction_text(msg.interaction, f'{field}.interaction')}"
    raise NotationError("the typed action's kind is required", field=f"{field}.kind")


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
        _tp_miniature_pb(msg, head, args, text)
    return msg


def _tp_miniature_pb(msg: tp_pb.TiberpunkAction, head: str, args: list[str], text: str) -> None:
    """Moves, unshackles, tokens and spaceship cards (``ship:<type>`` first when played with one)."""
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


FORM = TypedForm(
    case="tiberpunk",
    state_to_pb=_tiberpunk_to_pb,
    state_from_pb=_tiberpunk_from_pb,
    action_text=_tiberpunk_action_text,
    action_pb=_tiberpunk_action_pb,
)
"""Tiberpunk's typed messages."""
