"""Typed Tiberius Who? messages (``TiberiusState``, ``TiberiusAction``) <-> the public form and notation."""

from __future__ import annotations

from typing import Any

from games.errors import NotationError
from lictor.v1 import tiberius_pb2 as tib_pb
from wire import TypedForm

__all__ = ["FORM"]

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
        "imperator_solo": v.imperator_solo or "both",
        "imperator_empty": v.imperator_empty or "tiebreak",
        "turns": v.turns or 8,
    }
    return data


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
        raise NotationError("the typed action's kind is required", field=f"{field}.kind")
    if word == "bid":
        return f"bid {msg.amount}"
    if word in ("buy", "pick", "adopt"):
        if not msg.card:
            raise NotationError(f"a {word} action names its card", field=f"{field}.card")
        return f"{word} {msg.card}"
    if word in ("black", "move"):
        if not msg.box:
            raise NotationError(f"a {word} action names its box", field=f"{field}.box")
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


FORM = TypedForm(
    case="tiberius",
    state_to_pb=_tiberius_to_pb,
    state_from_pb=_tiberius_from_pb,
    action_text=_tiberius_action_text,
    action_pb=_tiberius_action_pb,
)
"""Tiberius Who?'s typed messages."""
