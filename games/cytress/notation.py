"""Cytress notation: every decision in the rulebook's words, and the state's text form.

Actions (``CAction``) read as a table says them::

    play side A                      scout corpocrat spot 1          meet the privateers
    meet a stratolite                meet the renegade               meet the enforcers
    meet the fixer                   meet the merchant               take intel COR07
    place crew at C4                 spy on seat 2 / spy on the automa / do not spy
    use stratolite S07               pay the renegade in tech        tube height 2
    drop tube at C4                  take bounty B1-COR              no benefit / send crew /
    ascend crew from level 1         reserve stratolite S03          keep reservation
    trade glow for creds             give 4                          done trading
    automa crew at C4                automa moves crew from C4       automa tube at C4

Hex ids are the layout's column letter and row number; cards are their pack codes. The state's text
form is ``cytress `` followed by the public form (``to_dict``) as compact JSON.
"""

from __future__ import annotations

from collections.abc import Callable

from games.cytress.board import act
from games.cytress.content import Content, Layout
from games.cytress.state import FACTIONS, RESOURCES, CAction
from games.cytress.undercity import BENEFIT_ASCEND_1, BENEFIT_ASCEND_2, BENEFIT_CREW, BENEFIT_NONE
from games.errors import NotationError

__all__ = ["action_text", "parse_action_text", "seat_name"]

PAD_WORDS: tuple[str, ...] = (
    "meet the corpocrats",
    "meet the privateers",
    "meet the hooligangs",
    "meet the rovers",
    "meet a stratolite",
    "meet the renegade",
    "meet the enforcers",
    "meet the fixer",
    "meet the merchant",
)
"""rule: cytress/phase-3a-travel - the 9 landing pads, as ``meet ...`` (``PADS`` order)."""
BENEFIT_WORDS: dict[int, str] = {
    BENEFIT_NONE: "no benefit",
    BENEFIT_CREW: "send crew",
    BENEFIT_ASCEND_1: "ascend crew from level 1",
    BENEFIT_ASCEND_2: "ascend crew from level 2",
}
_FIXED: dict[str, CAction] = {
    "do not spy": act("nospy"),
    "keep reservation": act("keep"),
    "done trading": act("done"),
    **{text: act("pad", p) for p, text in enumerate(PAD_WORDS)},
    **{text: act("benefit", b) for b, text in BENEFIT_WORDS.items()},
}
HINT = (
    "e.g. 'scout corpocrat spot 1', 'meet the fixer', 'take intel COR07', 'place crew at C4', "
    "'drop tube at C4', 'trade glow for creds', 'give 4'"
)


def seat_name(owner: int, players: int) -> str:
    """``seat 2``, or ``the automa`` (owner 1 in solo mode)."""
    return "the automa" if players == 1 and owner == 1 else f"seat {owner}"


_TEXT: dict[str, Callable[[Content, Layout, int, int], str]] = {
    "side": lambda c, lay, n, x: f"play side {'AB'[x]}",
    "scout": lambda c, lay, n, x: f"scout {FACTIONS[x // 2]} spot {x % 2 + 1}",
    "pad": lambda c, lay, n, x: PAD_WORDS[x],
    "intel": lambda c, lay, n, x: f"take intel {c.intel[x].code}",
    "crew": lambda c, lay, n, x: f"place crew at {lay.labels[x]}",
    "spy": lambda c, lay, n, x: f"spy on {seat_name(x, n)}",
    "nospy": lambda c, lay, n, x: "do not spy",
    "stratolite": lambda c, lay, n, x: f"use stratolite {c.stratolites[x].code}",
    "pay": lambda c, lay, n, x: f"pay the renegade in {RESOURCES[x]}",
    "height": lambda c, lay, n, x: f"tube height {x}",
    "tube": lambda c, lay, n, x: f"drop tube at {lay.labels[x]}",
    "bounty": lambda c, lay, n, x: f"take bounty {c.bounties[x].code}",
    "benefit": lambda c, lay, n, x: BENEFIT_WORDS[x],
    "reserve": lambda c, lay, n, x: f"reserve stratolite {c.stratolites[x].code}",
    "keep": lambda c, lay, n, x: "keep reservation",
    "trade": lambda c, lay, n, x: f"trade {RESOURCES[x // 4]} for {RESOURCES[x % 4]}",
    "amount": lambda c, lay, n, x: f"give {x}",
    "done": lambda c, lay, n, x: "done trading",
    "automa-crew": lambda c, lay, n, x: f"automa crew at {lay.labels[x]}",
    "automa-move": lambda c, lay, n, x: f"automa moves crew from {lay.labels[x]}",
    "automa-tube": lambda c, lay, n, x: f"automa tube at {lay.labels[x]}",
}
"""The notation of each action kind, from its argument."""


def action_text(content: Content, layout: Layout, players: int, a: CAction) -> str:
    """The notation of ``a``."""
    text = _TEXT.get(a.kind)
    if text is None:
        raise NotationError(f"unknown action kind {a.kind!r}", field="action")
    return text(content, layout, players, a.arg)


def _is_number(word: str) -> bool:
    return word.isascii() and word.isdigit() and len(word) <= 3


def _bad(text: str) -> NotationError:
    shown = text if len(text) <= 80 else text[:80] + "..."
    return NotationError(f"{shown!r} is not a cytress action; {HINT}", field="action")


def _parse_card(content: Content, t: str, last: str) -> CAction | None:
    """An intel card, Stratolite or bounty taken, used or reserved, by its code (None: not one)."""
    codes = {
        "take intel": ("intel", {c.code.lower(): c.id for c in content.intel}),
        "use stratolite": ("stratolite", {s.code.lower(): s.id for s in content.stratolites}),
        "reserve stratolite": ("reserve", {s.code.lower(): s.id for s in content.stratolites}),
        "take bounty": ("bounty", {b.code.lower(): b.id for b in content.bounties}),
    }
    for prefix, (kind, table) in codes.items():
        if t == f"{prefix} {last}" and last in table:
            return act(kind, table[last])
    return None


def parse_action_text(content: Content, layout: Layout, players: int, text: str) -> CAction:
    """Parse an action's notation (``NotationError`` when it does not parse)."""
    if not isinstance(text, str):
        raise NotationError(f"an action's notation is a string, not {type(text).__name__}", field="action")
    t = " ".join(text.strip().lower().split())
    if t in _FIXED:
        return _FIXED[t]
    words = t.split(" ")
    last = words[-1]
    hexes = {label.lower(): i for i, label in enumerate(layout.labels)}
    if t.startswith("play side ") and last in ("a", "b") and len(words) == 3:
        return act("side", "ab".index(last))
    if (
        words[0] == "scout"
        and len(words) == 4
        and words[1] in FACTIONS
        and words[2] == "spot"
        and last in ("1", "2")
    ):
        return act("scout", 2 * FACTIONS.index(words[1]) + int(last) - 1)
    for prefix, kind in (
        ("place crew at", "crew"),
        ("drop tube at", "tube"),
        ("automa crew at", "automa-crew"),
        ("automa moves crew from", "automa-move"),
        ("automa tube at", "automa-tube"),
    ):
        if t == f"{prefix} {last}" and last in hexes:
            return act(kind, hexes[last])
    card = _parse_card(content, t, last)
    if card is not None:
        return card
    if t == "spy on the automa" and players == 1:
        return act("spy", 1)
    if len(words) == 4 and t.startswith("spy on seat ") and _is_number(last) and int(last) < max(players, 2):
        return act("spy", int(last))
    if t.startswith("pay the renegade in ") and last in RESOURCES and len(words) == 5:
        return act("pay", RESOURCES.index(last))
    if t.startswith("tube height ") and last in ("1", "2", "3") and len(words) == 3:
        return act("height", int(last))
    if (
        len(words) == 4
        and words[0] == "trade"
        and words[2] == "for"
        and words[1] in RESOURCES
        and last in RESOURCES
    ):
        return act("trade", 4 * RESOURCES.index(words[1]) + RESOURCES.index(last))
    if len(words) == 2 and words[0] == "give" and _is_number(last) and 1 <= int(last) <= 25:
        return act("amount", int(last))
    raise _bad(text)
