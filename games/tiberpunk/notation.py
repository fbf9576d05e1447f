"""Text notation of Tiberpunk actions and states (both round-trip).

Actions (examples; districts are the pack's ids, seats P1..P4)::

    place VII                      first-turn placement of character and drone
    favor juno                     move the favor marker
    move drone IV-VI pay1          a movement action (pay = coins for extra districts)
    move lictor X-VIII             move a lictor
    unshackle char                 spend the movement to remove shackles
    token structure hub:VI up:hack,guile gadget
    token drone income             any token as Collect Income
    token spaceship take:drone     spaceship interaction from the drone-card stack
    token character quest1:guile   start a Stage I quest (quest2/quest3 likewise)
    token drone attack char:P2 tile:odd for:defeat-character@1A
    token character/drone as drone quest1:hack   (a hybrid token of the abilities module)
    ship:drone move drone IV-VI    play a spaceship card for a movement ...
    ship:structure temple:juno     ... or for the interaction it shows
    dice 1,3,3,6                   a chance outcome (sorted dice)
    gadget rotate1 A3+1            gadget on a die of pool A (quester/attacker) or D (defender/lictor)
    gadget reroll A2,A5 / gadget add-die x1 / stop
    pursue X-VIII                  the left-hand player moves the nearest lictor
    skill guile / boost drone / take-ship character / lictor VII / escape IX
    end / reboot / recharge flip / ability recharge

A state is one ``key=value`` line per field of the public form (version 2: ``state_lines``,
``parse_state_lines``), or of the internal fields (version 1: ``state_text``, ``parse_state_text``),
dotted keys for nested parts; see docs/tiberpunk.md.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, NoReturn

from games.core.text import is_digits
from games.errors import NotationError
from games.tiberpunk import actions as act
from games.tiberpunk.content import CONDITIONS, GADGETS, GODS, ITYPES, SKILLS, TASKS
from games.tiberpunk.dice import decode_pool
from games.tiberpunk.public import FORM_VERSION
from games.tiberpunk.state import PHASES
from games.tiberpunk.validate import show

if TYPE_CHECKING:
    from games.tiberpunk.content import Content
    from games.tiberpunk.rules import Rules
    from games.tiberpunk.state import State

__all__ = [
    "MAX_TEXT",
    "TEXT_HEADER",
    "action_text",
    "parse_action_text",
    "parse_state_lines",
    "parse_state_text",
    "state_lines",
    "state_text",
]

SK = ("hack", "guile", "offense")
MINI = ("char", "drone", "lictor")
DELTA_TEXT = ("", "+1", "-1", "+2", "-2")


def _token_name(mask: int) -> str:
    return "/".join(ITYPES[i] for i in range(4) if (mask >> i) & 1)


def _gadget_list(code: int) -> str:
    out = []
    for g in range(len(GADGETS)):
        out += [GADGETS[g]] * ((code >> (3 * g)) & 7)
    return ",".join(out)


def action_text(r: Rules, s: State, a: int) -> str:
    """The notation of action ``a`` in state ``s``."""
    o = a & 31
    if o in (act.OP_MOVE, act.OP_UNSHACKLE):
        return _movement_text(r.c, a)
    if o == act.OP_INTERACT:
        return _interact_text(r, s, a)
    if o == act.OP_GADGET:
        return _gadget_text(a)
    word = _WORD_TEXT.get(o)
    if word is not None:
        return word
    text = _VALUE_TEXT.get(o)
    return f"?{a}" if text is None else text(r.c, a >> 5)


_WORD_TEXT = {act.OP_END: "end", act.OP_REBOOT: "reboot", act.OP_STOP: "stop"}
"""The actions written as one word (rule: game-overview, personal-abilities, gadget-cards)."""

_VALUE_TEXT: dict[int, Callable[[Content, int], str]] = {
    # the actions written as a word and their one field (an action's bits above the op code)
    act.OP_DICE: lambda c, v: "dice " + (",".join(map(str, decode_pool(v))) or "-"),  # rule: stage-1-quests
    act.OP_DRAFT: lambda c, v: "ability " + c.abilities[v].id,  # rule: personal-abilities
    act.OP_PLACE: lambda c, v: "place " + c.district_ids[v],  # rule: game-overview
    act.OP_FAVOR: lambda c, v: "favor " + GODS[v],  # rule: divine-favor
    act.OP_RECHARGE: lambda c, v: "recharge " + GADGETS[v],  # rule: personal-abilities
    act.OP_PURSUE: lambda c, v: (  # rule: stage-1-quests (the lictor pursuit)
        f"pursue {c.district_ids[v & 15]}-{c.district_ids[(v >> 4) & 15]}"
    ),
    act.OP_SKILL: lambda c, v: "skill " + SKILLS[v],  # rule: objective-rewards
    act.OP_BOOST: lambda c, v: "boost " + MINI[v],
    act.OP_TAKE: lambda c, v: "take-ship " + ITYPES[c.ship_types[v]],
    act.OP_LICTOR: lambda c, v: "lictor " + c.district_ids[v],  # rule: spaceship-cards
    act.OP_ESCAPE: lambda c, v: "escape " + c.district_ids[v],  # rule: combat-vs-lictor
}


def _movement_text(c: Content, a: int) -> str:
    """A movement or unshackling, by the movement action or a spaceship card (rule: movement, shackles,
    spaceship-cards)."""
    via = (a >> 5) & 7
    prefix = f"ship:{ITYPES[c.ship_types[via - 1]]} " if via else ""
    if a & 31 == act.OP_UNSHACKLE:
        return f"{prefix}unshackle {MINI[(a >> 8) & 3]}"
    via, mini, src, dst, pay = act.move_fields(a)
    ids = c.district_ids
    return f"{prefix}move {MINI[mini]} {ids[src]}-{ids[dst]}" + (f" pay{pay}" if pay else "")


def _gadget_text(a: int) -> str:
    """A gadget card played on a roll (rule: gadget-cards)."""
    g, count, targets = act.gadget_fields(a)
    if g == 1:
        return f"gadget {GADGETS[g]} x{count}"
    return f"gadget {GADGETS[g]} " + ",".join(
        f"{'AD'[side]}{val}{DELTA_TEXT[dc]}" for side, val, dc in targets
    )


def _interact_text(r: Rules, s: State, a: int) -> str:
    c = r.c
    via, it, sub, p1, _p2, _p3, _p4, _p5 = act.interact_fields(a)
    head = _interaction_head(r, s, via, it)
    if it == act.IT_INCOME:  # rule: collect-income
        return head + " income"
    if it == act.IT_SPACESHIP:  # rule: spaceship-interaction
        return f"{head} take:{ITYPES[c.ship_types[p1]]}"
    if it == act.IT_STRUCTURE:
        return head + _structure_text(r, s, a)
    if sub in (act.SUB_Q1, act.SUB_Q3):  # rule: stage-1-quests, stage-3-quests
        return f"{head} quest{1 if sub == act.SUB_Q1 else 3}:{SK[p1]}"
    if sub == act.SUB_Q2:
        return head + _stage2_text(r, s, a)
    return head + _attack_text(r, s, a)


def _interaction_head(r: Rules, s: State, via: int, it: int) -> str:
    """``token NAMES [as TYPE]`` or ``ship:TYPE`` (rule: interaction-wheel, spaceship-cards)."""
    if via < act.VIA_SHIP:
        mask = s.players[s.seat].tokens[via]
        head = "token " + _token_name(mask)
        if it != act.IT_INCOME and mask != 1 << it:
            head += " as " + ITYPES[it]
        return head
    return "ship:" + ITYPES[r.c.ship_types[via - act.VIA_SHIP]]


def _structure_text(r: Rules, s: State, a: int) -> str:
    """A temple, an upgrade hub (rule: structure-interaction) or a side objective site (rule:
    side-objectives)."""
    c = r.c
    _via, _it, sub, p1, p2, p3, p4, p5 = act.interact_fields(a)
    if sub == act.SUB_TEMPLE:
        return f" temple:{GODS[p1]}" + (" by:drone" if p2 == 1 else "")
    if sub == act.SUB_HUB:
        ups = ",".join(SK[k] for k in range(3) if (p3 >> k) & 1) or "-"
        return (
            f" hub:{c.district_ids[c.hubs[p1]]} up:{ups}"
            + (" gadget" if p4 else "")
            + (" by:char" if p2 == 0 else "")
        )
    card = c.side_cards[s.cfg.side[p1]]
    text = f" task:{TASKS[card.tasks[p2].kind]}@{card.id}"
    if card.tasks[p2].kind == 6:
        text += " ship:" + ITYPES[c.ship_types[p3]]
    if p5:
        text += " gadgets:" + _gadget_list(p5)
    return text


def _stage2_text(r: Rules, s: State, a: int) -> str:
    """A Stage II quest with its price: gadgets or a spaceship card (rule: stage-2-quests)."""
    _via, _it, _sub, p1, p2, _p3, _p4, p5 = act.interact_fields(a)
    text = f" quest2:{SK[p1]}"
    if p5:
        text += " gadgets:" + _gadget_list(p5)
    player = s.players[s.seat]
    if r.c.stage2[player.cards[p1]].template == 5:
        text += " ship:" + ITYPES[r.c.ship_types[p2]]
    return text


def _attack_text(r: Rules, s: State, a: int) -> str:
    """A combat: the target, the combat tile and the objective declared (rule: combat)."""
    _via, _it, _sub, p1, p2, p3, p4, _p5 = act.interact_fields(a)
    target = "lictor" if p1 == 2 else f"{MINI[p1]}:P{p2 + 1}"
    if p4 == 15:
        obj = "quest2"
    else:
        card = r.c.side_cards[s.cfg.side[p4 // 3]]
        obj = f"{TASKS[card.tasks[p4 % 3].kind]}@{card.id}"
    return f" attack {target} tile:{CONDITIONS[s.cfg.tiles[p3]]} for:{obj}"


# ---------------------------------------------------------------------------- states
# to_dict output, flattened: nested objects as dotted keys, lists of ints comma-joined ("-" empty),
# lists of lists "/"-joined; districts, gadgets and phases by name for a human reader.
_DISTRICT_KEYS = ("char", "drone", "lictors", "where")
_GADGET_KEYS = ("hand", "known", "gdeck", "gdisc", "used")


def _fmt_scalar(r: Rules, key: str, v: Any) -> str:
    leaf = key.rsplit(".", 1)[-1]
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "1" if v else "0"
    if leaf in _DISTRICT_KEYS:
        return r.c.district_ids[v] if v >= 0 else "off"
    if leaf in _GADGET_KEYS:
        return GADGETS[v] if v >= 0 else "?"
    if leaf == "phase":
        return PHASES[v]
    return str(v)


def _flatten(r: Rules, prefix: str, v: Any, out: list[str], shape: dict[str, str]) -> None:
    if isinstance(v, dict):
        for k, x in v.items():
            _flatten(r, f"{prefix}.{k}" if prefix else k, x, out, shape)
    elif isinstance(v, list) and v and isinstance(v[0], dict):
        for i, x in enumerate(v):
            _flatten(r, f"{prefix}.{i}", x, out, shape)
    elif isinstance(v, list):
        pattern = ".".join("#" if is_digits(part) else part for part in prefix.split("."))
        if shape.get(pattern) == "intss":
            out.append(
                f"{prefix}=" + "/".join(",".join(_fmt_scalar(r, prefix, y) for y in x) or "-" for x in v)
            )
        else:
            out.append(f"{prefix}=" + (",".join(_fmt_scalar(r, prefix, y) for y in v) or "-"))
    else:
        out.append(f"{prefix}={_fmt_scalar(r, prefix, v)}")


def state_text(r: Rules, data: dict[str, Any], shape: dict[str, str]) -> str:
    """A whole state (its ``to_dict`` form) as ``key=value`` lines (``shape``: see parse_state_text)."""
    out = ["tiberpunk-state 1"]
    _flatten(r, "", data, out, shape)
    return "\n".join(out)


def _parse_scalar(r: Rules, key: str, text: str) -> Any:
    leaf = key.rsplit(".", 1)[-1]
    if text == "none":
        return None
    if leaf in _DISTRICT_KEYS:
        return -1 if text == "off" else r.c.district_ids.index(text)
    if leaf in _GADGET_KEYS:
        return -1 if text == "?" else GADGETS.index(text)
    if leaf == "phase":
        return PHASES.index(text)
    return int(text)


MAX_STATE_TEXT = 100_000
"""The longest state text parsed (a 4-player state is about 3,000 characters)."""
MAX_INDEX = 64
"""The largest list index in a state text key (a deck holds at most 25 cards)."""


def parse_state_text(r: Rules, text: str, shape: dict[str, str]) -> dict[str, Any]:
    """Parse :func:`state_text` back into a plain dict, guided by ``shape`` (key -> kind).

    ``shape`` maps each flattened key pattern (digits replaced by ``#``) to "int", "bool", "ints",
    "intss" or "ctx"; unknown keys, bad values and keys that do not fit together raise NotationError
    (only NotationError).
    """
    if not isinstance(text, str) or len(text) > MAX_STATE_TEXT:
        raise NotationError(
            f"a tiberpunk state is a text of at most {MAX_STATE_TEXT} characters", field="state"
        )
    lines = text.strip().splitlines()
    if not lines or lines[0].strip() != "tiberpunk-state 1":
        raise NotationError("a tiberpunk state starts with the line 'tiberpunk-state 1'", field="state")
    data: dict[str, Any] = {}
    for line in lines[1:]:
        key, sep, val = line.partition("=")
        if not sep:
            raise NotationError(f"expected key=value, got {show(line)}", field="state")
        pattern = ".".join("#" if is_digits(part) else part for part in key.split("."))
        kind = shape.get(pattern)
        if kind is None:
            raise NotationError(f"unknown state field {show(key)}", field="state")
        try:
            value = _parse_value(r, key, val, kind)
            _place(data, key.split("."), value)
        except (ValueError, IndexError, KeyError, TypeError, AttributeError):
            raise NotationError(f"bad value {show(val)} for state field {show(key)}", field="state") from None
    return data


def _parse_value(r: Rules, key: str, val: str, kind: str) -> Any:
    if kind == "ints":
        return [] if val == "-" else [_parse_scalar(r, key, x) for x in val.split(",")]
    if kind == "intss":
        if val == "":
            return []
        return [[] if g == "-" else [_parse_scalar(r, key, x) for x in g.split(",")] for g in val.split("/")]
    if kind == "bool":
        if val not in ("0", "1"):
            raise ValueError(val)
        return val == "1"
    return _parse_scalar(r, key, val)


def _place(data: dict[str, Any], parts: list[str], value: Any) -> None:
    """Put ``value`` at the dotted key ``parts`` of nested dicts and lists (ValueError if they clash)."""
    node: Any = data
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        fresh: Any = value if last else ([] if is_digits(parts[i + 1]) else {})
        if is_digits(part):
            idx = int(part)
            if not isinstance(node, list) or idx > MAX_INDEX:
                raise ValueError(part)
            while len(node) <= idx:
                node.append(None)
            if last or node[idx] is None:
                node[idx] = fresh
            node = node[idx]
        else:
            if not isinstance(node, dict):
                raise ValueError(part)
            if last or node.get(part) is None:
                node[part] = fresh
            node = node[part]


# ---------------------------------------------------------------------------- parsing actions
def _bad(text: str, why: str) -> NotationError:
    return NotationError(f"{text!r} is not a tiberpunk action: {why}", field="action")


def _index(seq: tuple[str, ...], name: str, what: str, text: str) -> int:
    if name not in seq:
        raise _bad(text, f"unknown {what} {name!r}; known: {', '.join(seq)}")
    return seq.index(name)


def _gadget_codes(r: Rules, names: str, text: str) -> int:
    code = 0
    for name in names.split(","):
        code += 1 << (3 * _index(GADGETS, name, "gadget", text))
    return code


MAX_ACTION_TEXT = 200
"""The longest action text parsed."""


def parse_action_text(r: Rules, s: State, text: str) -> int:
    """Parse the notation of an action (legal or not) in state ``s``. Raises NotationError (only)."""
    if not isinstance(text, str) or len(text) > MAX_ACTION_TEXT:
        raise NotationError(f"an action is a text of at most {MAX_ACTION_TEXT} characters", field="action")
    try:
        return _parse_action(r, s, text)
    except (ValueError, IndexError, KeyError, TypeError):
        raise _bad(text, "see docs/tiberpunk.md for the notation") from None


def _parse_dice(text: str, arg: str) -> int:
    """``dice 1,3,3``: a chance outcome (rule: stage-1-quests)."""
    vals = () if arg == "-" else tuple(sorted(int(x) for x in arg.split(",")))
    if any(not 1 <= v <= 6 for v in vals) or max(map(vals.count, vals), default=0) > 15:
        raise _bad(text, "dice show 1 to 6 (at most 15 of a kind)")
    code = 0
    for v in vals:
        code += 1 << (4 * (v - 1))
    return act.dice(code)


def _parse_gadget(text: str, name: str, spec: str) -> int:
    """``gadget add-die x2`` or ``gadget rotate1 A3+1,D2-1`` (rule: gadget-cards)."""
    g = GADGETS.index(name)
    if g == 1:
        if spec not in ("x1", "x2"):
            raise _bad(text, "add-die takes x1 or x2")
        return act.gadget(1, int(spec[1:]))
    targets = []
    for t in spec.split(","):
        side = "AD".index(t[0])
        val = int(t[1])
        dc = DELTA_TEXT.index(t[2:])
        if len(t) < 2 or not 1 <= val <= 6 or (dc and g not in (2, 3)) or (g in (2, 3) and not dc):
            raise _bad(text, f"expected a die like A3 (rotations: A3+1), got {t!r}")
        targets.append((side, val, dc))
    if not 1 <= len(targets) <= 2:
        raise _bad(text, "a gadget changes one or two dice")
    return act.gadget(g, len(targets), tuple(targets))


def _parse_token(r: Rules, s: State, text: str, args: list[str]) -> int:
    """``token character/drone as drone quest1:hack``: an interaction by token (rule: interaction-wheel)."""
    p = s.players[s.seat]
    names = [_token_name(m) for m in p.tokens]
    via = _index(tuple(names), args[0], "token", text)
    mask = p.tokens[via]
    rest = args[1:]
    if len(rest) >= 2 and rest[0] == "as":
        it = _index(ITYPES, rest[1], "interaction", text)
        rest = rest[2:]
    elif rest and rest[0] == "income":
        it = act.IT_INCOME
    else:
        if bin(mask).count("1") != 1:
            raise _bad(text, f"say which interaction the {args[0]} token performs ('as ...')")
        it = mask.bit_length() - 1
    return _interaction(r, s, text, via=via, it=it, rest=rest)


def _parse_action(r: Rules, s: State, text: str) -> int:
    c = r.c
    words = text.split()
    if not words:
        raise _bad(text, "empty")
    head, args = words[0], words[1:]
    if head == "dice" and len(args) == 1:
        return _parse_dice(text, args[0])
    simple_ops: dict[str, tuple[int, Callable[[str], int]]] = {
        "ability": (act.OP_DRAFT, [a.id for a in c.abilities].index),  # rule: personal-abilities
        "place": (act.OP_PLACE, lambda name: _district_index(r, text, name)),  # rule: game-overview
        "favor": (act.OP_FAVOR, GODS.index),  # rule: divine-favor
        "recharge": (act.OP_RECHARGE, GADGETS.index),  # rule: personal-abilities
        "skill": (act.OP_SKILL, SKILLS.index),  # rule: objective-rewards
        "boost": (act.OP_BOOST, MINI[:2].index),
        "take-ship": (act.OP_TAKE, lambda name: _ship_stack(r, text, name)),
        "lictor": (act.OP_LICTOR, lambda name: _district_index(r, text, name)),  # rule: spaceship-cards
        "escape": (act.OP_ESCAPE, lambda name: _district_index(r, text, name)),  # rule: combat-vs-lictor
    }
    if head in simple_ops and len(args) == 1:
        opcode, conv = simple_ops[head]
        return act.simple(opcode, conv(args[0]))
    if not args and head in ("end", "reboot", "stop"):
        return {"end": act.END, "reboot": act.REBOOT, "stop": act.STOP}[head]
    if head == "pursue" and len(args) == 1:  # rule: stage-1-quests (the lictor pursuit)
        return act.pursue(*_district_pair(r, text, args[0]))
    if head == "gadget" and len(args) == 2:
        return _parse_gadget(text, args[0], args[1])
    return _parse_turn_action(r, s, text, head, args)


def _district_index(r: Rules, text: str, name: str) -> int:
    return _index(r.c.district_ids, name, "district", text)


def _district_pair(r: Rules, text: str, arg: str) -> tuple[int, int]:
    """``FROM-TO``: two districts."""
    a, sep, b = arg.partition("-")
    if not sep:
        raise _bad(text, f"expected FROM-TO, got {arg!r}")
    return _district_index(r, text, a), _district_index(r, text, b)


def _ship_stack(r: Rules, text: str, name: str) -> int:
    """The spaceship stack whose cards show interaction type ``name``."""
    it = _index(ITYPES, name, "spaceship card type", text)
    if it not in r.c.ship_types:
        raise _bad(text, f"no spaceship cards show {name!r}")
    return r.c.ship_types.index(it)


def _parse_turn_action(r: Rules, s: State, text: str, head: str, args: list[str]) -> int:
    """A movement, an unshackling or an interaction, optionally from a spaceship card (``ship:TYPE ...``;
    rule: spaceship-cards)."""
    via_ship = -1
    if head.startswith("ship:"):
        via_ship = _ship_stack(r, text, head[5:])
        if not args:
            raise _bad(text, "a spaceship card needs a movement or an interaction")
        head, args = args[0], args[1:]
        if head not in ("move", "unshackle"):
            args = [head, *args]
            head = "ship"
    if head == "move" and len(args) in (2, 3):
        return _parse_move(r, text, via_ship, args)
    if head == "unshackle" and len(args) == 1:  # rule: shackles
        return act.unshackle(via_ship + 1, MINI[:2].index(args[0]))
    if head == "token" and args:
        return _parse_token(r, s, text, args)
    if head == "ship":
        return _interaction(r, s, text, via=act.VIA_SHIP + via_ship, it=r.c.ship_types[via_ship], rest=args)
    raise _bad(text, "see docs/tiberpunk.md for the notation")


def _parse_move(r: Rules, text: str, via_ship: int, args: list[str]) -> int:
    """``move MINI FROM-TO [payN]`` (rule: movement: extra districts paid in coins)."""
    mini = MINI.index(args[0])
    src, dst = _district_pair(r, text, args[1])
    pay = 0
    if len(args) == 3:
        if not args[2].startswith("pay"):
            raise _bad(text, f"expected payN, got {args[2]!r}")
        pay = int(args[2][3:])
        if not 1 <= pay <= 15:
            raise _bad(text, "pay 1 to 15 coins")
    return act.move(via_ship + 1, mini, src, dst, pay)


def _objective(r: Rules, s: State, text: str, spec: str) -> tuple[int, int]:
    kind, sep, card_id = spec.partition("@")
    if not sep:
        raise _bad(text, f"expected TASK@CARD, got {spec!r}")
    k = _index(TASKS, kind, "task", text)
    for slot, card_i in enumerate(s.cfg.side):
        card = r.c.side_cards[card_i]
        if card.id == card_id:
            for ti, task in enumerate(card.tasks):
                if task.kind == k:
                    return slot, ti
    raise _bad(text, f"no side objective {spec!r} in this game")


def _interaction(r: Rules, s: State, text: str, *, via: int, it: int, rest: list[str]) -> int:
    c = r.c
    opts = dict(w.split(":", 1) for w in rest if ":" in w)
    if it == act.IT_INCOME:  # rule: collect-income
        return act.interact(via, act.IT_INCOME)
    if it == act.IT_SPACESHIP:  # rule: spaceship-interaction
        k = c.ship_types.index(ITYPES.index(opts["take"]))
        return act.interact(via, it, 0, k)
    if it == act.IT_STRUCTURE:
        return _structure_interaction(r, s, text, via, rest)
    for stage, sub in (("quest1", act.SUB_Q1), ("quest2", act.SUB_Q2), ("quest3", act.SUB_Q3)):
        if stage in opts:  # rule: stage-1-quests, stage-2-quests, stage-3-quests
            skill = SK.index(opts[stage])
            if sub != act.SUB_Q2:
                return act.interact(via, it, sub, skill)
            k = c.ship_types.index(ITYPES.index(opts["ship"])) if "ship" in opts else 0
            code = _gadget_codes(r, opts["gadgets"], text) if "gadgets" in opts else 0
            return act.interact(via, it, sub, skill, k, 0, 0, code)
    if rest and rest[0] == "attack" and len(rest) >= 2:
        return _attack(r, s, text, via=via, it=it, rest=rest)
    raise _bad(text, "unknown interaction option")


def _structure_interaction(r: Rules, s: State, text: str, via: int, rest: list[str]) -> int:
    """``temple:GOD [by:drone]``, ``hub:DISTRICT up:SKILLS [gadget] [by:char]`` (rule:
    structure-interaction) or ``task:TASK@CARD [ship:TYPE] [gadgets:...]`` (rule: side-objectives)."""
    c = r.c
    it = act.IT_STRUCTURE
    opts = dict(w.split(":", 1) for w in rest if ":" in w)
    if "temple" in opts:
        mini = 1 if opts.get("by") == "drone" else 0
        return act.interact(via, it, act.SUB_TEMPLE, GODS.index(opts["temple"]), mini)
    if "hub" in opts:
        h = c.hubs.index(c.district_ids.index(opts["hub"]))
        mask = 0
        if opts.get("up", "-") != "-":
            for name in opts["up"].split(","):
                mask |= 1 << SK.index(name)
        mini = 0 if opts.get("by") == "char" else 1
        flags = {w for w in rest if ":" not in w}
        return act.interact(via, it, act.SUB_HUB, h, mini, mask, 1 if "gadget" in flags else 0)
    slot, ti = _objective(r, s, text, opts["task"])
    k = c.ship_types.index(ITYPES.index(opts["ship"])) if "ship" in opts else 0
    code = _gadget_codes(r, opts["gadgets"], text) if "gadgets" in opts else 0
    return act.interact(via, it, act.SUB_SITE, slot, ti, k, 0, code)


def _attack(r: Rules, s: State, text: str, *, via: int, it: int, rest: list[str]) -> int:
    """``attack lictor|char:Pn|drone:Pn tile:TILE for:quest2|TASK@CARD`` (rule: combat)."""
    opts = dict(w.split(":", 1) for w in rest if ":" in w)
    target = rest[1]
    if target == "lictor":
        tk, tseat = 2, 0
    else:
        kind, _, seat = target.partition(":")
        tk = MINI[:2].index(kind)
        if not seat.startswith("P"):
            raise _bad(text, f"expected a seat P1..P4, got {seat!r}")
        tseat = int(seat[1:]) - 1
        if not 0 <= tseat < s.n:
            raise _bad(text, f"expected a seat P1..P{s.n}, got {seat!r}")
    tile = s.cfg.tiles.index(CONDITIONS.index(opts["tile"]))
    if opts["for"] == "quest2":
        obj = 15
    else:
        slot, ti = _objective(r, s, text, opts["for"])
        obj = slot * 3 + ti
    return act.interact(via, it, act.SUB_FIGHT, tk, tseat, tile, obj)


# --------------------------------------------------------------------------------------- text form

TEXT_HEADER = f"tiberpunk-state {FORM_VERSION}"
MAX_TEXT = 100_000
"""The longest state text parsed (a 4-player state is about 4,000 characters)."""
_SAFE = re.compile(r"[A-Za-z0-9_\-]+")
_KEY = re.compile(r"([A-Za-z0-9_\-]+)|\[(\d{1,2})\]")


def _safe_keys(d: Mapping[str, Any]) -> bool:
    return all(isinstance(k, str) and _SAFE.fullmatch(k) for k in d)


_JSON_WORDS = frozenset(("true", "false", "null", "NaN", "Infinity"))
_NUMBER = re.compile(r"-?\d")


def _bare(word: str) -> bool:
    """Whether ``word`` reads back as itself unquoted (a word JSON would not take for a value)."""
    return bool(_SAFE.fullmatch(word)) and word not in _JSON_WORDS and not _NUMBER.match(word)


def _leaf(v: Any) -> str:
    if isinstance(v, str) and _bare(v):
        return v  # a bare word: district, gadget, phase ...
    return json.dumps(v, separators=(",", ":"))


def _lines(prefix: str, v: Any, out: list[str]) -> None:
    if isinstance(v, dict) and v and _safe_keys(v):
        for k, x in v.items():
            _lines(f"{prefix}.{k}" if prefix else k, x, out)
    elif isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
        for i, x in enumerate(v):
            _lines(f"{prefix}[{i}]", x, out)
    else:
        out.append(f"{prefix}={_leaf(v)}")


def state_lines(data: Mapping[str, Any]) -> str:
    """The text form of a public form: a header line, then one ``path=value`` line per field.

    Objects nest by ``.``, lists of objects by ``[i]``; a value is a bare word (``phase=main``,
    ``players[0].character=IV``) or compact JSON (``lictors=["IV","X"]``, ``contest=null``).
    """
    out = [TEXT_HEADER]
    _lines("", dict(data), out)
    return "\n".join(out)


def _value(text: str, field: str) -> Any:
    if _bare(text):
        return text
    if text.count("[") + text.count("{") > 200:
        _bad_text(f"the value of {field} nests too deeply", field)
    try:
        return json.loads(text)
    except ValueError:
        _bad_text(f"the value of {field} is neither a word nor JSON: {show(text)}", field)
    except RecursionError:
        _bad_text(f"the value of {field} nests too deeply", field)


def _bad_text(message: str, field: str) -> NoReturn:
    raise NotationError(message, field=field if field == "state" else "state") from None


def parse_state_lines(text: str) -> dict[str, Any]:
    """Parse :func:`state_lines` back into the public form (``NotationError`` when it does not parse;
    ``from_public`` then checks the fields)."""
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        _bad_text(f"a tiberpunk state is a text of at most {MAX_TEXT} characters", "state")
    lines = text.strip().splitlines()
    if not lines or lines[0].strip() != TEXT_HEADER:
        _bad_text(f"a tiberpunk state starts with the line {TEXT_HEADER!r}", "state")
    root: dict[str, Any] = {}
    for line in lines[1:]:
        if not line.strip():
            continue
        key, sep, val = line.partition("=")
        if not sep:
            _bad_text(f"expected path=value, got {show(line)}", "state")
        _put(root, _path(key.strip()), _value(val.strip(), key), key)
    return root


def _path(key: str) -> list[str | int]:
    parts: list[str | int] = []
    pos = 0
    while pos < len(key):
        if parts and key[pos] == ".":
            pos += 1
        m = _KEY.match(key, pos)
        if m is None:
            _bad_text(f"bad field path {show(key)}", "state")
        parts.append(m.group(1) if m.group(1) is not None else int(m.group(2)))
        pos = m.end()
    if not parts or not isinstance(parts[0], str):
        _bad_text(f"bad field path {show(key)}", "state")
    return parts


def _put(root: dict[str, Any], parts: list[str | int], value: Any, key: str) -> None:
    node: Any = root
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        fresh: Any = value if last else ([] if isinstance(parts[i + 1], int) else {})
        if isinstance(part, int):
            if not isinstance(node, list) or part > len(node):
                _bad_text(f"list items out of order at {show(key)}", "state")
            if part == len(node):
                node.append(fresh)
            elif last:
                _bad_text(f"{show(key)} is given twice", "state")
        else:
            if not isinstance(node, dict):
                _bad_text(f"{show(key)} does not fit the fields before it", "state")
            if part not in node:
                node[part] = fresh
            elif last:
                _bad_text(f"{show(key)} is given twice", "state")
        node = node[part]
        if not last and not isinstance(node, (dict, list)):
            _bad_text(f"{show(key)} does not fit the fields before it", "state")
