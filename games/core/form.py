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

A declaration (docs/state.md has a longer one)::

    CARD = OneOf(("HIS01", "HIS02", "GAL01"), what="a career card id", index=True)
    PLAYER = Obj({"hand": ListOf(CARD, max=8), "card": AnyOf((CARD, Null(-1))), "zone": Int(1, 6, offset=1)})
    FORM = Form("mygame", "state", Obj({"players": ListOf(PLAYER, 1, 6)}), title="My game position")

Cross-field rules (a card in two places, counts that must add up) are not declared: the game's
reader checks them after ``read``, each citing its rulebook section, and raises ``Form.bad(...)``.
"""

from __future__ import annotations

import dataclasses
import re
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
    "MapOf",
    "Null",
    "Obj",
    "OneOf",
    "Ref",
    "Tuple",
    "show",
]

DRAFT = "https://json-schema.org/draft/2020-12/schema"
_SHOWN = 60
_MISSING = object()


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
    """A field failed its declaration (``Form.read`` turns it into an ``InvalidStateError``); the path
    is built on the way out, by each container it passes (``inside``): a valid form builds none."""

    def __init__(
        self, why: str = "", rule: str = "", at: str = "", *, field: Field | None = None, value: Any = None
    ):
        super().__init__(why)
        self.at, self.rule, self._why, self._field, self._value = at, rule, why, field, value

    @property
    def why(self) -> str:
        """What is wrong (for a value that fails its field, written only when shown: an ``AnyOf``
        tries alternatives that fail)."""
        if self._field is None:
            return self._why
        return f"expected {self._field.expected()}, got {show(self._value)}"

    def inside(self, part: str) -> _FieldError:
        """The error, its path now under ``part`` (a key, or ``[i]``)."""
        self.at = _join(part, self.at)
        return self


def _length(lo: int, hi: int | None) -> str:
    """``lo..hi`` entries, in words."""
    if hi is None:
        return f"at least {lo}"
    return str(hi) if lo == hi else f"{lo} to {hi}"


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

    def encoder(self) -> Callable[[Any], Any] | None:
        """The quickest callable doing ``write`` (None: the value is written as it is)."""
        return None if self.plain() else self.write

    def owns(self, value: Any) -> bool:
        """Whether ``write`` takes this decoded value (``AnyOf`` picks its alternative by it)."""
        return True

    def expected(self) -> str:
        """What a legal value is, for a message."""
        raise NotImplementedError

    def bad(self, value: Any) -> _FieldError:
        return _FieldError(rule=self.rule, field=self, value=value)


@dataclass(frozen=True)
class Int(Field):
    """An integer ``lo..hi``, read as ``offset`` less (``Int(1, 5, offset=1)``: a district numbered
    from 1 in the rulebook, from 0 in the records)."""

    lo: int
    hi: int
    offset: int = 0

    def _schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        return {"type": "integer", "minimum": self.lo, "maximum": self.hi}

    def read(self, value: Any) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or not self.lo <= value <= self.hi:
            raise self.bad(value)
        return value - self.offset if self.offset else value

    def write(self, value: Any) -> Any:
        return value + self.offset

    def plain(self) -> bool:
        return not self.offset

    def owns(self, value: Any) -> bool:
        return isinstance(value, int) and self.lo <= value + self.offset <= self.hi

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

    @cached_property
    def _decoded(self) -> dict[Any, Any]:
        """Each choice -> what it reads as."""
        return {c: i if self.index else c for i, c in enumerate(self.choices)}

    def _schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        return {"enum": list(self.choices)}

    def read(self, value: Any) -> Any:
        if isinstance(value, str | int) and not isinstance(value, bool):
            got = self._decoded.get(value, _MISSING)
            if got is not _MISSING:
                return got
        raise self.bad(value)

    def write(self, value: Any) -> Any:
        return self.choices[value] if self.index else value

    def plain(self) -> bool:
        return not self.index

    def encoder(self) -> Callable[[Any], Any] | None:
        return self.choices.__getitem__ if self.index else None

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
    characters (matching ``pattern``, a JSON Schema regular expression, when given) so that the schema
    does not depend on the pack; read against ``choices`` (the pack's ids) when given, else left for the
    game to decode (a hex label depends on the map).

    Attributes:
        number: a printed number (a tile's ``"26"``): read as the integer, written back as its digits.
    """

    min_len: int | None = None
    max_len: int | None = None
    pattern: str | None = None
    number: bool = False

    def __post_init__(self) -> None:
        refused = [c for c in self.choices if not self._fits(c)]
        if refused:
            raise ValueError(f"{self.what or 'an id'}: the choice {refused[0]!r} breaks the declared shape")

    @cached_property
    def _match(self) -> Callable[[str], Any] | None:
        return re.compile(self.pattern).search if self.pattern is not None else None

    @cached_property
    def _decoded(self) -> dict[Any, Any]:
        if self.number:
            return {c: int(c) for c in self.choices}
        return super()._decoded

    def _fits(self, value: Any) -> bool:
        """Whether ``value`` has the published shape (a string of the lengths, the pattern, digits)."""
        return not (
            not isinstance(value, str)
            or (self.min_len is not None and len(value) < self.min_len)
            or (self.max_len is not None and len(value) > self.max_len)
            or (self._match is not None and self._match(value) is None)
            or (self.number and not (value.isascii() and value.isdigit()))
        )

    def _schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        node: dict[str, Any] = {"type": "string"}
        if self.min_len is not None:
            node["minLength"] = self.min_len
        if self.max_len is not None:
            node["maxLength"] = self.max_len
        if self.pattern is not None:
            node["pattern"] = self.pattern
        return node

    def read(self, value: Any) -> Any:
        if self.choices:  # (each choice has the published shape: checked at declaration)
            got = self._decoded.get(value, _MISSING) if isinstance(value, str) else _MISSING
            if got is _MISSING:
                raise self.bad(value)
            return got
        if not self._fits(value):
            raise self.bad(value)
        return int(value) if self.number else value

    def write(self, value: Any) -> Any:
        if self.number:
            return str(value)
        return super().write(value) if self.choices else value

    def plain(self) -> bool:
        return not (self.number or (self.choices and self.index))

    def encoder(self) -> Callable[[Any], Any] | None:
        if self.number:
            return str
        return self.choices.__getitem__ if self.choices and self.index else None

    def owns(self, value: Any) -> bool:
        if self.number:
            ok = isinstance(value, int) and not isinstance(value, bool) and value >= 0
            return ok and (not self.choices or str(value) in self._position)
        return super().owns(value) if self.choices else isinstance(value, str)

    def expected(self) -> str:
        if self.choices:
            return super().expected()
        return self.what or (f"a string matching {self.pattern!r}" if self.pattern else "a string")


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
    """One of several alternatives (a card, a named constant, null, an object). A sentinel (``Null``,
    ``Const``: one JSON value, one meaning) is read and written before the others; else the value is
    read by the first alternative that reads it and written by the only other alternative, or by the
    first that ``owns`` it."""

    alternatives: tuple[Field, ...]

    def _schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        return {"anyOf": [a.schema(defs) for a in self.alternatives]}

    def read(self, value: Any) -> Any:
        if value is None or type(value) is str or type(value) is int:
            got = self._sentinels_read.get((type(value), value), _MISSING)
            if got is not _MISSING:
                return got
        inside: _FieldError | None = None
        for alternative in self._open:
            try:
                return alternative.read(value)
            except _FieldError as error:
                inside = inside or (error if error.at else None)
        raise inside or self.bad(value)  # (an object alternative names its own bad field)

    def plain(self) -> bool:
        return False

    def write(self, value: Any) -> Any:
        return self._write(value)

    def encoder(self) -> Callable[[Any], Any] | None:
        return self._write

    @cached_property
    def _write(self) -> Callable[[Any], Any]:
        """``write``: a sentinel's JSON value, else the one open alternative's, else the first that
        ``owns`` the value."""
        table, alternatives = self._sentinels_written, self._open
        if self._closed:
            return table.__getitem__
        encode = alternatives[0].encoder() if len(alternatives) == 1 else None

        def write(value: Any) -> Any:
            try:
                got = table.get(value, _MISSING)
            except TypeError:  # (an unhashable value: an object's fields)
                got = _MISSING
            if got is not _MISSING:
                return got
            if len(alternatives) == 1:
                return value if encode is None else encode(value)
            for alternative in alternatives:
                if alternative.owns(value):
                    return alternative.write(value)
            raise ValueError(f"{value!r} is none of the alternatives: {self.expected()}")

        return write

    @cached_property
    def _sentinels(self) -> tuple[Null | Const, ...]:
        """The alternatives of one value (``Null``, ``Const``): read and written before the others, so
        that "no faction", ``""``, is null even where a faction is any string (a form declared
        without its content pack)."""
        return tuple(a for a in self.alternatives if isinstance(a, Null | Const))

    @cached_property
    def _open(self) -> tuple[Field, ...]:
        return tuple(a for a in self.alternatives if not isinstance(a, Null | Const))

    @cached_property
    def _closed(self) -> tuple[OneOf, ...]:
        """The open alternatives when all are closed sets (then every value is one lookup)."""
        closed = tuple(a for a in self._open if type(a) is OneOf)
        return closed if len(closed) == len(self._open) else ()

    @cached_property
    def _sentinels_read(self) -> dict[tuple[type, Any], Any]:
        """(JSON type, JSON value) -> what it reads as (the sentinels', and the closed sets')."""
        out = {(type(c), c): a._decoded[c] for a in reversed(self._closed) for c in a.choices}
        for a in reversed(self._sentinels):
            json = a.value if isinstance(a, Const) else None
            out[(type(json), json)] = a.means
        return out

    @cached_property
    def _sentinels_written(self) -> dict[Any, Any]:
        """What is read -> its JSON value (the sentinels', and the closed sets')."""
        out = {a._decoded[c]: c for a in reversed(self._closed) for c in a.choices}
        return out | {a.means: a.write(a.means) for a in reversed(self._sentinels)}

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
            raise _FieldError(f"expected {_length(self.min, self.max)} entries, got {n}", self.rule)
        read = self.item.read
        out = []
        try:
            for v in value:
                out.append(read(v))
        except _FieldError as error:
            raise error.inside(f"[{len(out)}]") from None
        return tuple(out)

    def write(self, value: Any) -> list[Any]:
        encode = self._encode_item
        return list(value) if encode is None else list(map(encode, value))

    @cached_property
    def _encode_item(self) -> Callable[[Any], Any] | None:
        return self.item.encoder()

    def plain(self) -> bool:
        return False

    def expected(self) -> str:
        return "a list"


@dataclass(frozen=True)
class Tuple(Field):
    """A list of ``len(items)`` entries, each read by its own field (``[card, zone]``; read as a tuple)."""

    items: tuple[Field, ...]

    def _schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        n, items = len(self.items), [f.schema(defs) for f in self.items]
        return {"type": "array", "prefixItems": items, "minItems": n, "maxItems": n}

    def read(self, value: Any) -> tuple[Any, ...]:
        if not isinstance(value, list) or len(value) != len(self.items):
            raise self.bad(value)
        out: list[Any] = []
        try:
            for f, v in zip(self.items, value, strict=True):
                out.append(f.read(v))
        except _FieldError as error:
            raise error.inside(f"[{len(out)}]") from None
        return tuple(out)

    def write(self, value: Any) -> list[Any]:
        return [f.write(v) for f, v in zip(self.items, value, strict=True)]

    def plain(self) -> bool:
        return False

    def owns(self, value: Any) -> bool:
        return isinstance(value, tuple | list) and len(value) == len(self.items)

    def expected(self) -> str:
        return f"a list of {len(self.items)}"


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
        if self._required:
            node["required"] = list(self._required)
        return node

    def read(self, value: Any) -> dict[str, Any]:
        """The fields read by name: a left-out field is its default, or absent when optional. The keys
        are checked before the values (an unknown key, then the first required one missing)."""
        if not isinstance(value, Mapping):
            raise self.bad(value)
        fields = self.fields
        for key in value:
            if key not in fields:
                name = key if isinstance(key, str) and len(key) <= 40 else show(key)
                raise _FieldError(f"unknown field; expected {list(fields)}", at=str(name))
        if len(value) < len(fields):
            for name in self._required:
                if name not in value:
                    f = fields[name]
                    raise _FieldError(f"missing; expected {f.expected()}", f.rule, at=name)
        out = {}
        for name, f in fields.items():
            try:
                if name in value:
                    out[name] = f.read(value[name])
                elif f.default is not None:
                    out[name] = f.read(f.default)
            except _FieldError as error:
                raise error.inside(name) from None
        return out

    @cached_property
    def _required(self) -> tuple[str, ...]:
        return tuple(n for n, f in self.fields.items() if f.default is None and not f.optional)

    def write(self, value: Mapping[str, Any]) -> dict[str, Any]:
        """The fields of ``value`` encoded, in the declared order (a left-out optional or defaulted one
        skipped)."""
        out = {}
        if len(self._required) == len(self.fields):  # (every field is there: a value missing is a bug)
            for name, encode in self._writers:
                out[name] = value[name] if encode is None else encode(value[name])
            return out
        get = value.get
        for name, encode in self._writers:
            v = get(name, _MISSING)
            if v is not _MISSING:
                out[name] = v if encode is None else encode(v)
        return out

    @cached_property
    def _writers(self) -> tuple[tuple[str, Callable[[Any], Any] | None], ...]:
        return tuple((name, f.encoder()) for name, f in self.fields.items())

    def plain(self) -> bool:
        return False

    def expected(self) -> str:
        return "an object"


@dataclass(frozen=True)
class MapOf(Field):
    """An object keyed by ids (``{"1A": [...], "3B": [...]}``: one entry per side card in play),
    ``min..max`` keys, each key read by ``key`` (a ``OneOf`` or ``Id``) and its value by ``value``;
    which keys must be there is the game's cross-field check. Read as a dict, in the order given."""

    key: Field
    value: Field
    min: int = 0
    max: int | None = None

    def _schema(self, defs: dict[str, Any]) -> dict[str, Any]:
        node: dict[str, Any] = {
            "type": "object",
            "propertyNames": self.key.schema(defs),
            "additionalProperties": self.value.schema(defs),
        }
        if self.min:
            node["minProperties"] = self.min
        if self.max is not None:
            node["maxProperties"] = self.max
        return node

    def read(self, value: Any) -> dict[Any, Any]:
        if not isinstance(value, Mapping):
            raise self.bad(value)
        n = len(value)
        if n < self.min or (self.max is not None and n > self.max):
            raise _FieldError(f"expected {_length(self.min, self.max)} keys, got {n}", self.rule)
        out = {}
        for k, v in value.items():
            name = k if isinstance(k, str) and len(k) <= 40 else show(k)
            try:
                key = self.key.read(k)
            except _FieldError as error:
                why, rule = f"unknown key: {error.why}", error.rule or self.rule
                raise _FieldError(why, rule, at=str(name)) from None
            try:
                out[key] = self.value.read(v)
            except _FieldError as error:
                raise error.inside(str(name)) from None
        return out

    def write(self, value: Mapping[Any, Any]) -> dict[Any, Any]:
        key, item = self.key.write, self.value.write
        return {key(k): item(v) for k, v in value.items()}

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

    def encoder(self) -> Callable[[Any], Any] | None:
        return self.target.encoder()

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
