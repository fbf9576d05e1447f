"""Reading numbers out of text sent by clients (notation, parameters, state forms), and counting
things in words for the faces.

``str.isdigit()`` is true for "³", "①" and "𝟗", which ``int()`` then refuses with a ValueError: a
client's odd character must be a clear error naming its field, never a crash. Every reader of a
number in text asks :func:`is_digits` (ASCII 0-9 only).
"""

from __future__ import annotations

__all__ = ["is_digits", "is_integer", "plural"]


def is_digits(text: str) -> bool:
    """Whether ``text`` is one or more ASCII digits 0-9 (``int(text)`` then reads it)."""
    return text.isascii() and text.isdigit()


def is_integer(text: str) -> bool:
    """Whether ``text`` is an optional minus sign and ASCII digits (``int(text)`` then reads it)."""
    return is_digits(text[1:] if text.startswith("-") else text)


def plural(n: int, word: str, many: str = "") -> str:
    """``"1 crew"``, ``"3 crews"``; ``many`` where the plural is not ``word + "s"`` (``"2 hexes"``)."""
    return f"{n} {word if n == 1 else many or word + 's'}"
