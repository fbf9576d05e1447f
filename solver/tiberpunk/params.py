"""The parameters of Tiberpunk's puzzles, validated: each bad value raises ``ConfigError`` naming
``params.<name>`` and what is allowed.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from games.core.text import is_integer
from games.errors import ConfigError, LimitError
from games.tiberpunk.content import GADGETS
from solver.core import (
    shown,
)

__all__ = [
    "MAX_DICE",
    "MAX_GADGETS",
    "MAX_ROLLS",
    "choice_param",
    "gadgets_param",
    "int_param",
    "mini_param",
    "need_param",
]


MAX_DICE = 8
"""The most dice an exact enumeration takes."""
MAX_GADGETS = 6
"""The most gadget cards in hand an exact enumeration takes."""
MAX_ROLLS = 12
"""The most rolls (the nearest lictor's distance) an exact enumeration takes."""
MINIS = ("character", "drone")


def int_param(
    params: Mapping[str, Any], key: str, default: int, lo: int, hi: int, *, cap: int | None = None
) -> int:
    """An integer parameter in [lo, hi] (an int, an integral finite float or a short string of digits);
    ``ConfigError`` naming ``params.<key>`` and the allowed range otherwise (negative, NaN, infinite or
    huge numbers, booleans, other types). Above ``cap`` (an enumeration's size limit): ``LimitError``."""
    value = params.get(key, default)
    number: int | None = None
    if isinstance(value, bool):
        number = None
    elif isinstance(value, int):
        number = value
    elif isinstance(value, float) and math.isfinite(value) and value.is_integer():
        number = int(value)
    elif isinstance(value, str) and 0 < len(value.strip()) <= 20 and is_integer(value.strip()):
        number = int(value.strip())
    if number is not None and cap is not None and cap < number <= hi:
        raise LimitError(
            f"{key} is {number}: exact quest odds enumerate at most {cap}", field=f"params.{key}"
        )
    if number is None or not lo <= number <= (cap if cap is not None else hi):
        top = cap if cap is not None else hi
        raise ConfigError(
            f"{key} must be an integer from {lo} to {top}, not {shown(value)}", field=f"params.{key}"
        )
    return number


def choice_param(params: Mapping[str, Any], key: str, choices: Sequence[str], default: str) -> str:
    """A string parameter among ``choices``."""
    value = params.get(key, default)
    if not isinstance(value, str) or value not in choices:
        raise ConfigError(f"{key} must be one of {list(choices)}, not {shown(value)}", field=f"params.{key}")
    return value


def mini_param(params: Mapping[str, Any]) -> int:
    """``mini``: "character" (also "char", the notation's word) or "drone"; default the character."""
    value = params.get("mini", "character")
    if value == "char":
        value = "character"
    return MINIS.index(choice_param({"mini": value}, "mini", MINIS, "character"))


def need_param(params: Mapping[str, Any]) -> tuple[int, ...]:
    """``need``: the challenge card's required values, 1 to 8 dice values of 1 to 6."""
    value = params.get("need")
    if not isinstance(value, (list, tuple)) or not 1 <= len(value) <= MAX_DICE:
        raise ConfigError(
            f"need must be a list of 1 to {MAX_DICE} required dice values (1 to 6), not {shown(value)}",
            field="params.need",
        )
    return tuple(sorted(int_param({"need": v}, "need", 0, 1, 6) for v in value))


def gadgets_param(params: Mapping[str, Any]) -> tuple[int, ...]:
    """``gadgets``: gadget cards in hand, by name or index (at most ``MAX_GADGETS``)."""
    value = params.get("gadgets", [])
    if not isinstance(value, (list, tuple)):
        raise ConfigError(
            f"gadgets must be a list of gadget names {list(GADGETS)}, not {shown(value)}",
            field="params.gadgets",
        )
    if len(value) > MAX_GADGETS:
        raise LimitError(
            f"quest odds enumerate at most {MAX_GADGETS} gadgets, not {len(value)}", field="params.gadgets"
        )
    hand = []
    for g in value:
        if isinstance(g, str) and g in GADGETS:
            hand.append(GADGETS.index(g))
        elif isinstance(g, int) and not isinstance(g, bool) and 0 <= g < len(GADGETS):
            hand.append(g)
        else:
            raise ConfigError(
                f"gadgets must be gadget names {list(GADGETS)} (or their indices 0 to {len(GADGETS) - 1}); "
                f"{shown(g)} does not exist",
                field="params.gadgets",
            )
    return tuple(sorted(hand))
