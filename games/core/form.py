"""A game's public form declared once (docs/state.md, "The public form").

The public form of a position (``Game.to_dict`` / ``from_dict``, the rulebook's words and printed
ids) and of a score sheet is a tree of typed fields, declared once per game. The same declaration
gives

- ``Form.schema()``: the published JSON Schema (draft 2020-12; docs/schemas/, ``GetSchema``);
- ``Form.read(data)``: the incoming JSON checked field by field (types, bounds, closed sets, lengths,
  unknown and missing keys) and decoded into plain Python values (a card id into its content index),
  or an ``InvalidStateError`` naming the full path (``state.players[1].cubes.conquests``), the bad
  value (``show``) and what is legal;
- ``Form.write(values)``: the same tree of values encoded back by the same field names.

A declaration::

    CARD = OneOf(("HIS01", "HIS02", "GAL01"), what="a career card id", index=True)
    PLAYER = Obj(
        {
            "coins": Int(0, 99, description="coins held"),
            "hand": ListOf(CARD, max=8, description="in the order drawn"),
            "played": AnyOf((CARD, Null(-1)), description="this turn's card (null: none yet)"),
            "stock": Int(0, 40, description="implied by the boxes", optional=True),
            "age": Int(0, 150, default=0, description="years"),
        }
    )
    FORM = Form("mygame", "state", Obj({"players": ListOf(PLAYER, 1, 6)}), title="My game position")

Cross-field rules (a card in two places, counts that must add up) are not declared: the game's
reader checks them after ``read``, each citing its rulebook section, and raises ``Form.bad(...)``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Self

from games.errors import InvalidStateError

__all__ = [
    "AnyOf",
    "Bool",
    "Const",
    "Field",
    "Form",
    "Id",
    "Int",
    "ListOf",
    "Null",
    "Obj",
    "OneOf",
    "Ref",
    "show",
]

DRAFT = "https://json-schema.org/draft/2020-12/schema"
_SHOWN = 60


def show(value: Any) -> str:
    """A short, safe ``repr`` of input for a message (never deep, never a huge integer spelled out)."""
    if isinstance(value, bool) or value is None or isinstance(value, float):
        return repr(value)
    if isinstance(value, int):
        return repr(value) if value.bit_length() <= 64 else f"<an integer of {value.bit_length()} bits>"
    if isinstance(value, str):
        return repr(value if len(value) <= _SHOWN else value[:_SHOWN] + "...")
    if isinstance(value, Mapping):
        return f"<an object of {len(value)} keys>"
    if isinstance(value, list | tuple):
        return f"<a list of {len(value)} items>"
    return f"<{type(value).__name__}>"


class _FieldError(Exception):
    """A field failed its declaration (``Form.read`` turns it into an ``InvalidStateError``).

    The path is built on the way out, by each container the error passes (``inside``): reading a
    valid form builds no path.
    """

    def __init__(self, why: str, rule: str = "", at: str = "") -> None:
        super().__init__(why)
        self.at, self.why, self.rule = at, why, rule

    def inside(self, part: str) -> _FieldError:
        """The error, its path now under ``part`` (a key, or ``[i]``)."""
        self.at = _join(part, self.at)
        return self


def _join(at: str, name: str) -> str:
    if not at or not name:
        return at or name
    return f"{at}{name}" if name.startswith("[") else f"{at}.{name}"


@dataclass(frozen=True, kw_only=True)
class Field:
    """One field of a form.

    Attributes:
        description: what it means, in the rulebook's words (published in the schema).
        default: the JSON value read when the field is left out of its object (published; None: the
            field has no default).
        optional: may be left out of its object with no default (then it is not in the values read).
        rule: the rulebook section its bounds come from, cited by its errors.
    """

    description: str = ""
    default: Any = None
    optional: bool = False
    rule: str = ""

    def described(self, description: str) -> Self:
        """This field with another description (a shared definition used in one place)."""
        return dataclasses.replace(self, description=description)

    def schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        """The JSON Schema of the field (shared definitions gathered into ``defs``)."""
        node = self._schema(defs)
        if self.default is not None:
            node["default"] = self.default
        if self.description:
            node["description"] = self.description
        return node

    def _schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def read(self, value: Any) -> Any:
        """``value`` checked and decoded (``_FieldError`` when it is not legal)."""
        raise NotImplementedError

    def write(self, value: Any) -> Any:
        """``value`` encoded (the reverse of ``read``)."""
        return value

    def plain(self) -> bool:
        """Whether ``write`` gives the value as it is (containers then skip the call)."""
        return True

    def owns(self, value: Any) -> bool:
        """Whether ``write`` takes this decoded value (``AnyOf`` picks its alternative by it)."""
        return True

    def expected(self) -> str:
        """What a legal value is, for a message."""
        raise NotImplementedError

    def bad(self, value: Any) -> _FieldError:
        return _FieldError(f"expected {self.expected()}, got {show(value)}", self.rule)


@dataclass(frozen=True)
class Int(Field):
    """An integer ``lo..hi``."""

    lo: int
    hi: int

    def _schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        return {"type": "integer", "minimum": self.lo, "maximum": self.hi}

    def read(self, value: Any) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or not self.lo <= value <= self.hi:
            raise self.bad(value)
        return value

    def owns(self, value: Any) -> bool:
        return isinstance(value, int) and self.lo <= value <= self.hi

    def expected(self) -> str:
        return f"an integer {self.lo}..{self.hi}"


@dataclass(frozen=True)
class Bool(Field):
    """``true`` or ``false``."""

    def _schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        return {"type": "boolean"}

    def read(self, value: Any) -> bool:
        if not isinstance(value, bool):
            raise self.bad(value)
        return value

    def expected(self) -> str:
        return "true or false"


@dataclass(frozen=True)
class OneOf(Field):
    """A string (or integer) from a closed set: names from the rulebook, printed ids.

    Attributes:
        choices: the legal values, in the rulebook's order.
        what: how a message names one (``"a career card id"``); else the choices are listed.
        index: read a choice as its position in ``choices`` (a content index), write it back.
    """

    choices: tuple[Any, ...]
    what: str = ""
    index: bool = False

    @cached_property
    def _position(self) -> dict[Any, int]:
        return {c: i for i, c in enumerate(self.choices)}

    def _schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        return {"enum": list(self.choices)}

    def read(self, value: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, str | int) or value not in self._position:
            raise self.bad(value)
        return self._position[value] if self.index else value

    def write(self, value: Any) -> Any:
        return self.choices[value] if self.index else value

    def plain(self) -> bool:
        return not self.index

    def owns(self, value: Any) -> bool:
        if self.index:
            return isinstance(value, int) and 0 <= value < len(self.choices)
        return isinstance(value, str | int) and value in self._position

    def expected(self) -> str:
        if self.what:
            more = ", ..." if len(self.choices) > 3 else ""
            return f"{self.what} ({', '.join(map(repr, self.choices[:3]))}{more})"
        return f"one of {list(self.choices)}"


@dataclass(frozen=True)
class Id(OneOf):
    """A printed id of the content pack (a card, a tile), published as a string of ``min_len..max_len``
    characters so that the schema does not depend on the pack; read against ``choices`` (the pack's
    ids) when given, else left for the game to decode (a hex label depends on the map)."""

    min_len: int | None = None
    max_len: int | None = None

    def _schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        node: dict[str, Any] = {"type": "string"}
        if self.min_len is not None:
            node["minLength"] = self.min_len
        if self.max_len is not None:
            node["maxLength"] = self.max_len
        return node

    def read(self, value: Any) -> Any:
        if (
            not isinstance(value, str)
            or (self.min_len is not None and len(value) < self.min_len)
            or (self.max_len is not None and len(value) > self.max_len)
        ):
            raise self.bad(value)
        return super().read(value) if self.choices else value

    def write(self, value: Any) -> Any:
        return super().write(value) if self.choices else value

    def plain(self) -> bool:
        return not (self.choices and self.index)

    def owns(self, value: Any) -> bool:
        return super().owns(value) if self.choices else isinstance(value, str)

    def expected(self) -> str:
        return super().expected() if self.choices else self.what or "a string"


@dataclass(frozen=True)
class Const(Field):
    """One JSON value, read as ``means``."""

    value: str | int
    means: Any

    def _schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        return {"const": self.value}

    def read(self, value: Any) -> Any:
        if type(value) is not type(self.value) or value != self.value:
            raise self.bad(value)
        return self.means

    def write(self, value: Any) -> Any:
        return self.value

    def plain(self) -> bool:
        return False

    def owns(self, value: Any) -> bool:
        return bool(value == self.means)

    def expected(self) -> str:
        return repr(self.value)


@dataclass(frozen=True)
class Null(Field):
    """``null``, read as ``means`` (e.g. -1 for "no card"): an alternative of ``AnyOf``."""

    means: Any = None

    def _schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        return {"type": "null"}

    def read(self, value: Any) -> Any:
        if value is not None:
            raise self.bad(value)
        return self.means

    def write(self, value: Any) -> None:
        return None

    def plain(self) -> bool:
        return False

    def owns(self, value: Any) -> bool:
        return bool(value == self.means)

    def expected(self) -> str:
        return "null"


@dataclass(frozen=True)
class AnyOf(Field):
    """One of several scalar alternatives (a card, a named constant or null), the first that reads;
    written by the first alternative that ``owns`` the value."""

    alternatives: tuple[Field, ...]

    def _schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        return {"anyOf": [a.schema(defs) for a in self.alternatives]}

    def read(self, value: Any) -> Any:
        inside: _FieldError | None = None
        for alternative in self.alternatives:
            try:
                return alternative.read(value)
            except _FieldError as error:
                inside = inside or (error if error.at else None)
        raise inside or self.bad(value)  # (an object alternative names its own bad field)

    def plain(self) -> bool:
        return False

    def write(self, value: Any) -> Any:
        for alternative in self.alternatives:
            if alternative.owns(value):
                return alternative.write(value)
        raise ValueError(f"{value!r} is none of the alternatives: {self.expected()}")

    def owns(self, value: Any) -> bool:
        return any(a.owns(value) for a in self.alternatives)

    def expected(self) -> str:
        names = [a.expected() for a in self.alternatives]
        return " or ".join(names) if len(names) < 3 else f"{', '.join(names[:-1])} or {names[-1]}"


@dataclass(frozen=True)
class ListOf(Field):
    """A list of ``item``, ``min..max`` long (read as a tuple)."""

    item: Field
    min: int = 0
    max: int | None = None

    def _schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        node: dict[str, Any] = {"type": "array", "items": self.item.schema(defs)}
        if self.min:
            node["minItems"] = self.min
        if self.max is not None:
            node["maxItems"] = self.max
        return node

    def read(self, value: Any) -> tuple[Any, ...]:
        if not isinstance(value, list):
            raise self.bad(value)
        n = len(value)
        if n < self.min or (self.max is not None and n > self.max):
            raise _FieldError(f"expected {self._length()} entries, got {n}", self.rule)
        read = self.item.read
        out = []
        try:
            for v in value:
                out.append(read(v))
        except _FieldError as error:
            raise error.inside(f"[{len(out)}]") from None
        return tuple(out)

    def write(self, value: Any) -> list[Any]:
        if self._plain_items:
            return list(value)
        write = self.item.write
        return [write(v) for v in value]

    @cached_property
    def _plain_items(self) -> bool:
        return self.item.plain()

    def plain(self) -> bool:
        return False

    def _length(self) -> str:
        if self.max is None:
            return f"at least {self.min}"
        return str(self.max) if self.min == self.max else f"{self.min} to {self.max}"

    def expected(self) -> str:
        return "a list"


@dataclass(frozen=True)
class Obj(Field):
    """An object with named fields, no other key.

    Attributes:
        fields: name -> field, in the order written. A field with a ``default`` or ``optional`` may
            be left out; every other one is required.
    """

    fields: Mapping[str, Field]

    def _schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        node: dict[str, Any] = {
            "type": "object",
            "additionalProperties": False,
            "properties": {name: f.schema(defs) for name, f in self.fields.items()},
        }
        required = [n for n, f in self.fields.items() if f.default is None and not f.optional]
        if required:
            node["required"] = required
        return node

    def read(self, value: Any) -> dict[str, Any]:
        """The fields read by name: a left-out field is its default, or absent when optional."""
        if not isinstance(value, Mapping):
            raise self.bad(value)
        for key in value:
            if key not in self.fields:
                name = key if isinstance(key, str) and len(key) <= 40 else show(key)
                raise _FieldError(f"unknown field; expected {list(self.fields)}", at=str(name))
        out = {}
        for name, f in self.fields.items():
            try:
                if name in value:
                    out[name] = f.read(value[name])
                elif f.default is not None:
                    out[name] = f.read(f.default)
                elif not f.optional:
                    raise _FieldError(f"missing; expected {f.expected()}", f.rule)
            except _FieldError as error:
                raise error.inside(name) from None
        return out

    def write(self, value: Mapping[str, Any]) -> dict[str, Any]:
        """The fields of ``value`` encoded, in the declared order (a left-out optional one skipped)."""
        out = {}
        for name, write, plain in self._writers:
            if name in value:
                out[name] = value[name] if plain else write(value[name])
        return out

    @cached_property
    def _writers(self) -> tuple[tuple[str, Callable[[Any], Any], bool], ...]:
        return tuple((name, f.write, f.plain()) for name, f in self.fields.items())

    def plain(self) -> bool:
        return False

    def expected(self) -> str:
        return "an object"


@dataclass(frozen=True)
class Ref(Field):
    """A shared definition, published once under ``$defs`` and referenced by ``$ref``."""

    name: str
    target: Field

    def _schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        if self.name not in defs:
            defs[self.name] = {}  # (taken before recursing: a definition may refer to itself)
            defs[self.name] = self.target.schema(defs)
        return {"$ref": f"#/$defs/{self.name}"}

    def read(self, value: Any) -> Any:
        return self.target.read(value)

    def write(self, value: Any) -> Any:
        return self.target.write(value)

    def plain(self) -> bool:
        return self.target.plain()

    def owns(self, value: Any) -> bool:
        return self.target.owns(value)

    def expected(self) -> str:
        return self.target.expected()


@dataclass(frozen=True)
class Form:
    """A declared public form.

    Attributes:
        game: the game's name (in messages: ``invalid tiberius state: ...``).
        root: the path every field is under (``state``, ``score_sheet``).
        body: the top object.
        title: the schema's title.
        id: the schema's ``$id`` (its URI), if it has one.
    """

    game: str
    root: str
    body: Obj
    title: str
    id: str = ""

    def schema(self) -> dict[str, Any]:
        """The JSON Schema (draft 2020-12)."""
        defs: dict[str, Any] = {}
        node = {"$schema": DRAFT, "title": self.title, **self.body.schema(defs)}
        if self.id:
            node["$id"] = self.id
        if defs:
            node["$defs"] = defs
        return node

    def read(self, data: Any) -> dict[str, Any]:
        """``data`` checked against the declaration and decoded (``InvalidStateError`` naming the
        first bad field)."""
        try:
            return self.body.read(data)
        except _FieldError as bad:
            raise self.bad(bad.at, bad.why, bad.rule) from None

    def write(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """``values`` encoded by the declared names."""
        return self.body.write(values)

    def bad(self, at: str, why: str, rule: str = "") -> InvalidStateError:
        """The house error for the field at ``at`` (for the game's cross-field checks)."""
        return InvalidStateError(
            f"invalid {self.game} {self.root.replace('_', ' ')}: {why}", field=_join(self.root, at), rule=rule
        )
