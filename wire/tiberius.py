"""Typed Tiberius Who? messages (``TiberiusState``, ``TiberiusAction``) <-> the public form and notation.

The ``lictor.v1.TiberiusState`` message keeps its field names (backward compatible); this module is
the one documented mapping between it and the game's public form (``games/tiberius/public.py``):

=============================  ==========================================================
message field                  public form
=============================  ==========================================================
``turn``                       ``turn``
``phase`` ("adopt")            ``phase`` ("adoption"; the other phases are the same words)
``actor`` (-1 once over)       ``to_act`` (null once over)
``start_priority``             ``priority_order_from``
``priority``                   ``priority_marker``
``cubes[s].<box>``             ``players[s].cubes.<box>`` (``pro_consular`` is
                               ``pro_consular_imperium_maius``); ``bids[s]`` is ``bid``
``decks[d].cards``             ``decks[d].face_down``
``face_up[d]`` ("" = none)     ``decks[d].face_up`` (null)
``careers[s].cards``           ``players[s].career_cards``
``played[s]`` ("PCIM")         ``players[s].card_this_turn`` ("pro_consular_imperium_maius")
``pcim_used[s]``               ``players[s].pro_consular_imperium_maius_played``
``secret[s]`` ("" = hidden)    ``players[s].adoption_card`` (null)
``adopted[s]`` ("" = none)     ``players[s].adopted_with`` (null)
``adopt_face_up``              ``adoption_cards_face_up``
``adopt_unused``               ``adoption_cards_unused``
``discarded``                  ``discarded_cards``
``black``, ``row_open``,       ``cube_action.black_icons_to_place``, ``.extra_row_open``,
``family``, ``moved``          ``.augustus_family``, ``.cubes_moved_to_gray``
``age``                        ``oldest_first``
``variants``                   ``variants`` ("" / 0 = the default)
=============================  ==========================================================
"""

from __future__ import annotations

from typing import Any

from games.errors import NotationError
from lictor.v1 import tiberius_pb2 as tib_pb
from wire import TypedForm

__all__ = ["FORM"]

# The public form's box -> TiberiusCubes field.
_TIB_BOXES: tuple[tuple[str, str], ...] = (
    ("conquests", "conquests"),
    ("imperial_marriages", "imperial_marriages"),
    ("pro_consular_imperium_maius", "pro_consular"),
    ("consul_censor", "consul_censor"),
    ("governorships", "governorships"),
    ("triumphs", "triumphs"),
    ("imperator", "imperator"),
    ("priesthoods", "priesthoods"),
    ("emperor", "emperor"),
    ("influence", "influence"),
    ("bid", "bid"),
)
_PCIM_WORDS = ("pro_consular_imperium_maius", "PCIM")  # (public form, message)
_PHASE_WORDS = ("adoption", "adopt")  # (public form, message)
_ACTION_FIELDS = (
    ("black", "black_icons_to_place"),
    ("row_open", "extra_row_open"),
    ("family", "augustus_family"),
    ("moved", "cubes_moved_to_gray"),
)
_VARIANT_DEFAULTS: dict[str, Any] = {
    "influence_table": "setup",
    "pcim_rule": "once",
    "marriage_vp": "schedule",
    "imperator_solo": "both",
    "imperator_empty": "tiebreak",
    "turns": 8,
}


def _word(value: Any, pair: tuple[str, str], *, to_message: bool) -> Any:
    """``value`` in the other form when it is one of the two spellings of ``pair``."""
    public, message = pair
    if to_message:
        return message if value == public else value
    return public if value == message else value


def _tiberius_to_pb(data: dict[str, Any]) -> tib_pb.TiberiusState:
    msg = tib_pb.TiberiusState(
        turn=data["turn"],
        phase=_word(data["phase"], _PHASE_WORDS, to_message=True),
        actor=-1 if data["to_act"] is None else data["to_act"],
        start_priority=data["priority_order_from"],
        priority=data["priority_marker"],
    )
    for p in data["players"]:
        msg.cubes.add(**{name: int(p["cubes"].get(key, 0)) for key, name in _TIB_BOXES})
        msg.careers.add(cards=list(p["career_cards"]))
        played = p["card_this_turn"]
        msg.played.append("" if played is None else _word(played, _PCIM_WORDS, to_message=True))
        msg.bids.append(int(p["cubes"].get("bid", 0)))
        msg.pcim_used.append(p["pro_consular_imperium_maius_played"])
        msg.secret.append(p["adoption_card"] or "")
        msg.adopted.append(p["adopted_with"] or "")
    for deck in data["decks"]:
        msg.decks.add(cards=list(deck["face_down"]))
        msg.face_up.append(deck["face_up"] or "")
    msg.adopt_face_up.extend(data["adoption_cards_face_up"])
    msg.adopt_unused.extend(data["adoption_cards_unused"])
    msg.discarded.extend(data["discarded_cards"])
    for name, key in _ACTION_FIELDS:
        setattr(msg, name, data["cube_action"][key])
    msg.age.extend(data["oldest_first"])
    msg.variants.CopyFrom(tib_pb.TiberiusVariants(**data["variants"]))
    return msg


def _tiberius_from_pb(msg: tib_pb.TiberiusState) -> dict[str, Any]:
    players = []
    for s, cubes in enumerate(msg.cubes):
        played = msg.played[s] if s < len(msg.played) else ""
        players.append(
            {
                "cubes": {key: getattr(cubes, name) for key, name in _TIB_BOXES},
                "career_cards": list(msg.careers[s].cards) if s < len(msg.careers) else [],
                "card_this_turn": _word(played, _PCIM_WORDS, to_message=False) or None,
                "pro_consular_imperium_maius_played": s < len(msg.pcim_used) and msg.pcim_used[s],
                "adoption_card": (msg.secret[s] if s < len(msg.secret) else "") or None,
                "adopted_with": (msg.adopted[s] if s < len(msg.adopted) else "") or None,
            }
        )
    decks = [
        {"face_up": (msg.face_up[d] if d < len(msg.face_up) else "") or None, "face_down": list(deck.cards)}
        for d, deck in enumerate(msg.decks)
    ]
    v = msg.variants
    variants = {key: getattr(v, key) or default for key, default in _VARIANT_DEFAULTS.items()}
    return {
        "turn": msg.turn,
        "phase": _word(msg.phase, _PHASE_WORDS, to_message=False),
        "to_act": None if msg.actor < 0 else msg.actor,
        "priority_marker": msg.priority,
        "priority_order_from": msg.start_priority,
        "players": players,
        "oldest_first": list(msg.age),
        "decks": decks,
        "discarded_cards": list(msg.discarded),
        "adoption_cards_face_up": list(msg.adopt_face_up),
        "adoption_cards_unused": list(msg.adopt_unused),
        "cube_action": {key: getattr(msg, name) for name, key in _ACTION_FIELDS},
        "variants": variants,
    }


_TIB_KIND_WORDS: dict[int, str] = {
    tib_pb.TIBERIUS_ACTION_KIND_BID: "bid",
    tib_pb.TIBERIUS_ACTION_KIND_BUY: "buy",
    tib_pb.TIBERIUS_ACTION_KIND_PCIM: "imperium maius",
    tib_pb.TIBERIUS_ACTION_KIND_TAKE2: "take 2 influence",
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
    if text in _TIB_WORD_KINDS:  # a kind without an argument, e.g. "take 2 influence"
        return tib_pb.TiberiusAction(kind=_TIB_WORD_KINDS[text])
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
