"""The one exception tree of Lictor.

Every error a game, a solver or the search raises on bad input is one of these. The service maps
them to gRPC status codes in one table (``service/errors.py``)::

    LictorError                      base: ``field`` (what was wrong) and ``rule`` (the rule broken)
    ├── ConfigError                  bad setup: player count, variant, option         → INVALID_ARGUMENT
    ├── ContentError                 a content pack fails validation (file, field)    → INVALID_ARGUMENT
    ├── NotationError                text that does not parse as an action or state   → INVALID_ARGUMENT
    ├── InvalidStateError            a position that breaks an invariant of the rules → INVALID_ARGUMENT
    ├── IllegalActionError           an action the rules forbid in this position      → INVALID_ARGUMENT
    │   └── WrongSeatError           the action is not this seat's to take            → FAILED_PRECONDITION
    ├── NotFoundError                unknown game, match or puzzle kind               → NOT_FOUND
    │   └── UnknownGameError
    └── LimitError                   a request over a server or solver limit          → RESOURCE_EXHAUSTED

Messages are lowercase, show the bad input with ``!r`` and say what would be legal.
"""

from __future__ import annotations

__all__ = [
    "ConfigError",
    "ContentError",
    "IllegalActionError",
    "InvalidStateError",
    "LictorError",
    "LimitError",
    "NotFoundError",
    "NotationError",
    "UnknownGameError",
    "WrongSeatError",
]


class LictorError(Exception):
    """Base of every Lictor error.

    Attributes:
        message: the human-readable message (lowercase, names the bad input).
        field: the path of the offending input field (e.g. ``"action"``, ``"config.players"``), or "".
        rule: the rulebook section id broken (e.g. ``"tiberpunk/movement"``), or "".
    """

    def __init__(self, message: str, *, field: str = "", rule: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.rule = rule

    def __str__(self) -> str:
        extra = []
        if self.field:
            extra.append(f"field {self.field}")
        if self.rule:
            extra.append(f"rule {self.rule}")
        return f"{self.message} ({', '.join(extra)})" if extra else self.message


class ConfigError(LictorError):
    """A game cannot be set up with this configuration (players, variant, options)."""


class ContentError(LictorError):
    """A content pack failed validation.

    Attributes:
        file: the pack file that is wrong.
    """

    def __init__(self, message: str, *, file: str = "", field: str = "", rule: str = "") -> None:
        super().__init__(message, field=field, rule=rule)
        self.file = file

    def __str__(self) -> str:
        where = f"{self.file}: " if self.file else ""
        return where + super().__str__()


class NotationError(LictorError):
    """Text that does not parse as an action or a state."""


class InvalidStateError(LictorError):
    """A position that breaks an invariant of the rules (typed-in or deserialized)."""


class IllegalActionError(LictorError):
    """An action the rules forbid in this position."""


class WrongSeatError(IllegalActionError):
    """The action belongs to another seat (or the game is over)."""


class NotFoundError(LictorError):
    """Something named by the request does not exist."""


class UnknownGameError(NotFoundError):
    """No game is registered under this name."""


class LimitError(LictorError):
    """A request beyond a server or solver limit."""
