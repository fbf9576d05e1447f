"""The public form of the state (plain JSON) and back, every field validated before any rule reads it.

The form mirrors the records of ``state.py`` field by field, in the rulebook's words: components
by their ids (``"AG04"``, ``"W13"``, ``"S01"``, ``"Y08"``, ``"E01"``, ``"T05"``, board ``"A3"``),
districts, zones, tactical positions and Mission numbers from 1, Status tokens and fighter kinds by
name, store stock as a token id or its back (``{"store": "weapon", "price": 300, "expert": false}``),
phases and steps by name; seats are 0-based; ``null`` where the rulebook has nothing (an empty
slot, an Agent in its HQ). Observations write a hidden card as ``"unknown"``. The flow of the turn
(``ctx``) is written by what each field means in the phase under way (:func:`_ctx_out`): only the
fields in use, the queue as Agent sheet ids, seats or district numbers, the investigation stage,
store and Ambush effect by name, the Mission under test as its Investigation card and number.
``from_dict`` raises ``InvalidStateError`` naming the first bad field; no other exception escapes it.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import fields, is_dataclass
from typing import Any

from games.core.cache import PerContent
from games.cyberverse import state as st
from games.cyberverse.content import AMBUSH_EFFECTS, CATEGORIES, COLOURS, Content
from games.errors import InvalidStateError

__all__ = ["from_dict", "state_schema", "to_dict"]

_HINTS: dict[type, dict[str, Any]] = {}
PUBLIC_KEYS = {("Fight", "mp"): "movement_points", ("Fight", "xp"): "xp_spent"}
"""Fields whose public key is in words where the record's name is short (record, field) -> key."""


def _key(tp: type, name: str) -> str:
    """The public key of field ``name`` of record ``tp``."""
    return PUBLIC_KEYS.get((tp.__name__, name), name)


_LIMIT = 10**9


def _hints(cls: type) -> dict[str, Any]:
    got = _HINTS.get(cls)
    if got is None:
        got = _HINTS[cls] = typing.get_type_hints(cls, vars(st))
    return got


Encoder = Callable[[Any], Any]
Decoder = Callable[[Any, str], Any]


def _same(value: Any) -> Any:
    return value


def _fail(path: str, want: str, got: Any) -> InvalidStateError:
    shown = f"<{type(got).__name__}>" if isinstance(got, list | dict) else repr(got)
    if len(shown) > 60:
        shown = shown[:57] + "..."
    return InvalidStateError(f"{path} must be {want}, not {shown}", field=path)


def _int(value: Any, path: str) -> int:
    if type(value) is not int or not -_LIMIT <= value <= _LIMIT:
        raise _fail(path, "an integer", value)
    return value


def _bool(value: Any, path: str) -> bool:
    if type(value) is not bool:
        raise _fail(path, "true or false", value)
    return value


def _str(value: Any, path: str) -> str:
    if type(value) is not str or len(value) > 40:
        raise _fail(path, "a short string", value)
    return value


def _ints(value: Any, path: str) -> tuple[int, ...]:
    if type(value) is not list or len(value) > 500:
        raise _fail(path, "a list", value)
    if not all(type(x) is int for x in value) or (
        value and not -_LIMIT <= min(value) <= max(value) <= _LIMIT
    ):
        bad = next(i for i, x in enumerate(value) if type(x) is not int or not -_LIMIT <= x <= _LIMIT)
        raise _fail(f"{path}[{bad}]", "an integer", value[bad])
    return tuple(value)


def _list(value: Any, path: str, limit: int = 500) -> list[Any]:
    if type(value) is not list or len(value) > limit:
        raise _fail(path, "a list", value)
    return value


class _Ids:
    """Component ids of one kind: index <-> id, -1 <-> null, -2 <-> "unknown" (observations)."""

    def __init__(self, names: tuple[str, ...], what: str) -> None:
        self.names = names
        self.index = {n: i for i, n in enumerate(names)}
        self.what = what

    def enc(self, x: int) -> Any:
        return self.names[x] if x >= 0 else (None if x == -1 else "unknown")

    def dec(self, v: Any, path: str) -> int:
        if v is None:
            return -1
        if v == "unknown":
            return -2
        got = self.index.get(v) if isinstance(v, str) else None
        if got is None:
            raise _fail(path, f"a {self.what} id of the content pack", v)
        return got

    def enc_list(self, v: tuple[int, ...]) -> list[Any]:
        return [self.enc(x) for x in v]

    def dec_list(self, v: Any, path: str) -> tuple[int, ...]:
        return tuple(self.dec(x, f"{path}[{i}]") for i, x in enumerate(_list(v, path)))

    def enc_lists(self, v: tuple[tuple[int, ...], ...]) -> list[Any]:
        return [self.enc_list(x) for x in v]

    def dec_lists(self, v: Any, path: str) -> tuple[tuple[int, ...], ...]:
        return tuple(self.dec_list(x, f"{path}[{i}]") for i, x in enumerate(_list(v, path)))


def _enc_seat(x: int) -> Any:
    return x if x >= 0 else None


def _dec_seat(v: Any, path: str) -> int:
    if v is None:
        return -1
    if type(v) is not int or not 0 <= v <= 3:
        raise _fail(path, "a seat 0 to 3 or null", v)
    return v


def _enc_seats(v: tuple[int, ...]) -> list[Any]:
    return [_enc_seat(x) for x in v]


def _dec_seats(v: Any, path: str) -> tuple[int, ...]:
    return tuple(_dec_seat(x, f"{path}[{i}]") for i, x in enumerate(_list(v, path)))


def _enc_held(v: tuple[int, ...]) -> list[Any]:
    """The step an Organization's Support card adjustment interrupted: [step name, its actor]."""
    if not v:
        return []
    step, actor = v
    return [st.STEPS[step], actor if actor >= 0 else "chance"]


OLD_STEP_NAMES = {"reveal a face-down combat token": st.C_FIGHTER_TOKEN}
"""Step names of earlier versions, still read (a Henchman's or Teammate's Combat token is placed
face down, never revealed: rule: cyberverse/combat-tokens)."""


def _step_index(name: Any) -> int:
    """The step named ``name`` (an earlier version's name too), -1 for none."""
    if name in st.STEPS:
        return st.STEPS.index(name)
    return OLD_STEP_NAMES.get(name, -1) if isinstance(name, str) else -1


def _dec_held(v: Any, path: str) -> tuple[int, ...]:
    items = _list(v, path, 2)
    if not items:
        return ()
    step = _step_index(items[0]) if len(items) == 2 else -1
    if step < 0:
        raise _fail(path, "[] or [a step name, a seat or 'chance']", v)
    actor = items[1]
    if actor == "chance":
        return (step, -1)
    return (step, _dec_seat(actor, f"{path}[1]"))


def _enc_mask(m: int) -> list[int]:
    return [i for i in range(16) if m >> i & 1]


def _dec_mask(v: Any, path: str, top: int = 16) -> int:
    m = 0
    for i, x in enumerate(_list(v, path, top)):
        if type(x) is not int or not 0 <= x < top:
            raise _fail(f"{path}[{i}]", f"a number 0 to {top - 1}", x)
        m |= 1 << x
    return m


def _enc_number(x: int) -> Any:
    """0-based index -> 1-based number (districts, zones, missions, positions); -1 -> null."""
    return x + 1 if x >= 0 else None


def _dec_number(v: Any, path: str) -> int:
    if v is None:
        return -1
    if type(v) is not int or not 1 <= v <= 99:
        raise _fail(path, "a number from 1, or null", v)
    return v - 1


class _Codec:
    """The public form for one content pack: compiled encoders and decoders per record type, with
    the fields that name components written as ids (``_overrides``)."""

    def __init__(self, c: Content) -> None:
        self.c = c
        self.encoders: dict[Any, Encoder] = {}
        self.decoders: dict[Any, Decoder] = {}
        self.fields = _Fields(c)
        self.overrides = self.fields.table()

    def encoder(self, tp: Any) -> Encoder:
        got = self.encoders.get(tp)
        if got is not None:
            return got
        origin = typing.get_origin(tp)
        fn: Encoder
        if tp in (int, bool, str):
            fn = _same
        elif origin is tuple:
            args = typing.get_args(tp)
            inner = [self.encoder(a) for a in args if a is not Ellipsis]
            if all(e is _same for e in inner):
                fn = list
            elif len(args) == 2 and args[1] is Ellipsis:
                one = inner[0]
                fn = lambda v: [one(x) for x in v]  # noqa: E731
            else:
                fn = lambda v: [e(x) for e, x in zip(inner, v, strict=True)]  # noqa: E731
        elif origin in (types.UnionType, typing.Union):
            some = self.encoder(next(a for a in typing.get_args(tp) if a is not type(None)))
            fn = lambda v: None if v is None else some(v)  # noqa: E731
        elif isinstance(tp, type) and is_dataclass(tp):
            hints = _hints(tp)
            parts = [
                (
                    f.name,
                    _key(tp, f.name),
                    self.overrides[tp.__name__, f.name][0]
                    if (tp.__name__, f.name) in self.overrides
                    else self.encoder(hints[f.name]),
                )
                for f in fields(tp)
            ]
            fn = lambda v: {key: e(getattr(v, name)) for name, key, e in parts}  # noqa: E731
        else:  # pragma: no cover - every field type is handled above
            raise TypeError(tp)
        self.encoders[tp] = fn
        return fn

    def decoder(self, tp: Any) -> Decoder:
        got = self.decoders.get(tp)
        if got is not None:
            return got
        origin = typing.get_origin(tp)
        fn: Decoder
        if tp is int:
            fn = _int
        elif tp is bool:
            fn = _bool
        elif tp is str:
            fn = _str
        elif origin is tuple:
            args = typing.get_args(tp)
            if args == (int, Ellipsis):
                fn = _ints
            elif len(args) == 2 and args[1] is Ellipsis:
                fn = _list_of(self.decoder(args[0]))
            else:
                fn = _fixed(tuple(self.decoder(a) for a in args))
        elif origin in (types.UnionType, typing.Union):
            some = self.decoder(next(a for a in typing.get_args(tp) if a is not type(None)))
            fn = lambda v, path: None if v is None else some(v, path)  # noqa: E731
        elif isinstance(tp, type) and is_dataclass(tp):
            hints = _hints(tp)
            parts = [
                (
                    f.name,
                    _key(tp, f.name),
                    self.overrides[tp.__name__, f.name][1]
                    if (tp.__name__, f.name) in self.overrides
                    else self.decoder(hints[f.name]),
                )
                for f in fields(tp)
            ]
            fn = _record(tp, parts)
        else:  # pragma: no cover - every field type is handled above
            raise TypeError(tp)
        self.decoders[tp] = fn
        return fn


class _Fields:
    """The fields written as component ids, names or 1-based numbers instead of pack indices."""

    def __init__(self, c: Content) -> None:
        self.c = c
        self.story = _Ids(tuple(x.id for x in c.stories), "story card")
        self.case = _Ids(tuple(x.id for x in c.investigations), "investigation card")
        self.support = _Ids(tuple(x.id for x in c.support), "support card")
        self.sheet = _Ids(c.sheet_ids, "agent sheet")
        self.token = _Ids(tuple(x.id for x in c.tokens), "supply token")
        self.event = _Ids(tuple(x.id for x in c.events), "event card")
        self.ambush = _Ids(tuple(x.id for x in c.ambush), "ambush card")
        self.brawl = _Ids(tuple(x.id for x in c.brawl), "brawl card")
        self.hench = _Ids(tuple(x.id for x in c.henchmen), "henchman card")
        self.combat = _Ids(tuple(x.id for x in c.combat_tokens), "combat token")
        self.board = _Ids(tuple(x.id for x in c.boards), "district board")
        self.htype = _Ids(c.henchman_types, "henchman type")
        self.kinds = _Ids(st.FIGHTER_KINDS, "fighter kind")
        self.effects = _Ids(
            (
                "grill",
                "projection",
                "adrenalin after being attacked",
                "second target",
                "adrenalin after attacking",
            ),
            "pending effect",
        )
        self.statuses = ("suppression", "wound", "bleeding")
        self.backs = {(CATEGORIES[cat], price, expert): i for i, (cat, price, expert) in enumerate(c.backs)}

    def enc_status(self, m: int) -> list[str]:
        return [self.statuses[i] for i in range(3) if m >> i & 1]

    def dec_status(self, v: Any, path: str) -> int:
        m = 0
        for i, x in enumerate(_list(v, path, 3)):
            if x not in self.statuses:
                raise _fail(f"{path}[{i}]", f"one of {list(self.statuses)}", x)
            m |= 1 << self.statuses.index(x)
        return m

    def enc_masks(self, v: tuple[int, ...]) -> list[list[int]]:
        return [[b + 1 for b in _enc_mask(m)] for m in v]

    def dec_masks(self, v: Any, path: str) -> tuple[int, ...]:
        out = []
        for i, x in enumerate(_list(v, path, 9)):
            nums = _list(x, f"{path}[{i}]", 16)
            if not all(type(n) is int and 1 <= n <= 16 for n in nums):
                raise _fail(f"{path}[{i}]", "mission numbers 1 to 16", x)
            out.append(sum(1 << (n - 1) for n in set(nums)))
        return tuple(out)

    def enc_seatmask(self, m: int) -> list[int]:
        return [i for i in range(4) if m >> i & 1]

    def dec_seatmask(self, v: Any, path: str) -> int:
        return _dec_mask(v, path, 4)

    def enc_numbers(self, v: tuple[int, ...]) -> list[Any]:
        return [_enc_number(x) for x in v]

    def enc_stock(self, v: tuple[tuple[int, ...], ...]) -> list[list[Any]]:
        out = []
        for row in v:
            cells: list[Any] = []
            for x in row:
                if x >= 0:
                    cells.append(self.token.enc(x))
                elif x == -1:
                    cells.append(None)
                else:
                    cat, price, expert = self.c.backs[-2 - x]
                    cells.append({"store": CATEGORIES[cat], "price": price, "expert": expert})
            out.append(cells)
        return out

    def dec_stock(self, v: Any, path: str) -> tuple[tuple[int, ...], ...]:
        rows = []
        for i, row in enumerate(_list(v, path, 4)):
            cells = []
            for k, x in enumerate(_list(row, f"{path}[{i}]", 3)):
                where = f"{path}[{i}][{k}]"
                if isinstance(x, Mapping):
                    key = (x.get("store"), x.get("price"), x.get("expert"))
                    if not all(isinstance(k, str | int) for k in key) or key not in self.backs:
                        raise _fail(where, "a token back (store, price, expert) of the pack", x)
                    cells.append(-2 - self.backs[key])  # type: ignore[index]
                else:
                    cells.append(self.token.dec(x, where))
            rows.append(tuple(cells))
        return tuple(rows)

    def enc_henchmen(self, v: tuple[tuple[tuple[int, int], ...], ...]) -> list[Any]:
        return [[[self.hench.enc(card), zone + 1] for card, zone in d] for d in v]

    def dec_henchmen(self, v: Any, path: str) -> tuple[tuple[tuple[int, int], ...], ...]:
        out = []
        for i, d in enumerate(_list(v, path, 5)):
            items = []
            for k, pair in enumerate(_list(d, f"{path}[{i}]", 5)):
                where = f"{path}[{i}][{k}]"
                pair = _list(pair, where, 2)
                if len(pair) != 2:
                    raise _fail(where, "[henchman card, zone]", pair)
                items.append((self.hench.dec(pair[0], f"{where}[0]"), _dec_number(pair[1], f"{where}[1]")))
            out.append(tuple(items))
        return tuple(out)

    def enc_cases(self, v: tuple[tuple[int, ...], ...]) -> dict[str, Any]:
        return {COLOURS[i]: self.case.enc_list(x) for i, x in enumerate(v)}

    def dec_cases(self, v: Any, path: str) -> tuple[tuple[int, ...], ...]:
        if not isinstance(v, Mapping) or set(v) != set(COLOURS):
            raise _fail(path, f"an object with keys {list(COLOURS)}", v)
        return tuple(self.case.dec_list(v[col], f"{path}.{col}") for col in COLOURS)

    def enc_aside(self, v: tuple[tuple[int, int], ...]) -> list[Any]:
        return [[_enc_seat(o), self.combat.enc(t)] for o, t in v]

    def dec_aside(self, v: Any, path: str) -> tuple[tuple[int, int], ...]:
        out = []
        for i, pair in enumerate(_list(v, path, 40)):
            pair = _list(pair, f"{path}[{i}]", 2)
            if len(pair) != 2:
                raise _fail(f"{path}[{i}]", "[seat or null, combat token]", pair)
            out.append((_dec_seat(pair[0], f"{path}[{i}][0]"), self.combat.dec(pair[1], f"{path}[{i}][1]")))
        return tuple(out)

    def dec_numbers(self, v: Any, path: str) -> tuple[int, ...]:
        return tuple(_dec_number(x, f"{path}[{i}]") for i, x in enumerate(_list(v, path)))

    def dec_stack(self, ids: _Ids) -> Decoder:
        return ids.dec_lists

    def enc_fighter(self, f: st.Fighter) -> dict[str, Any]:
        ref = self.sheet.enc(f.ref) if f.kind == st.AGENT else self.htype.enc(f.ref)
        return {
            "kind": self.kinds.enc(f.kind),
            "ref": ref,
            "card": self.hench.enc(f.card),
            "org": _enc_seat(f.org),
            "zone": _enc_number(f.zone),
            "spot": _enc_number(f.spot),
            "health": f.health,
            "token": self.combat.enc(f.token),
            "shown": f.shown,
            "done": f.done,
            "grappled": f.grappled,
            "disarmed": f.disarmed,
            "gone": f.gone,
            "leader": _enc_number(f.leader),
        }

    def enc_fighters(self, v: tuple[st.Fighter, ...]) -> list[Any]:
        return [self.enc_fighter(f) for f in v]

    def dec_fighter(self, v: Any, path: str) -> st.Fighter:
        if not isinstance(v, Mapping):
            raise _fail(path, "an object", v)
        for name in (
            "kind",
            "ref",
            "card",
            "org",
            "zone",
            "spot",
            "health",
            "token",
            "shown",
            "done",
            "grappled",
            "disarmed",
            "gone",
            "leader",
        ):
            if name not in v:
                raise InvalidStateError(f"{path}.{name} is missing", field=f"{path}.{name}")
        kind = self.kinds.dec(v["kind"], f"{path}.kind")
        if kind < 0:
            raise _fail(f"{path}.kind", f"one of {list(st.FIGHTER_KINDS)}", v["kind"])
        ref = (self.sheet if kind == st.AGENT else self.htype).dec(v["ref"], f"{path}.ref")
        if ref < 0:
            raise _fail(f"{path}.ref", "an agent sheet or a henchman type", v["ref"])
        return st.Fighter(
            kind,
            ref,
            self.hench.dec(v["card"], f"{path}.card"),
            _dec_seat(v["org"], f"{path}.org"),
            _dec_number(v["zone"], f"{path}.zone"),
            _dec_number(v["spot"], f"{path}.spot"),
            _int(v["health"], f"{path}.health"),
            self.combat.dec(v["token"], f"{path}.token"),
            _bool(v["shown"], f"{path}.shown"),
            _bool(v["done"], f"{path}.done"),
            _bool(v["grappled"], f"{path}.grappled"),
            _bool(v["disarmed"], f"{path}.disarmed"),
            _bool(v["gone"], f"{path}.gone"),
            _dec_number(v["leader"], f"{path}.leader"),
        )

    def dec_fighters(self, v: Any, path: str) -> tuple[st.Fighter, ...]:
        return tuple(self.dec_fighter(x, f"{path}[{i}]") for i, x in enumerate(_list(v, path, 12)))

    def table(self) -> dict[tuple[str, str], tuple[Encoder, Decoder]]:
        return {
            ("State", "first"): (_enc_seat, _dec_seat),
            ("State", "order"): (_enc_seats, _dec_seats),
            ("State", "adjust"): (_enc_seats, _dec_seats),
            ("State", "held"): (_enc_held, _dec_held),
            ("Org", "story"): (self.story.enc, self.story.dec),
            ("Org", "cases"): (self.case.enc_list, self.case.dec_list),
            ("Org", "done"): (self.enc_masks, self.dec_masks),
            ("Org", "spent"): (self.enc_masks, self.dec_masks),
            ("Org", "marks"): (self.enc_masks, self.dec_masks),
            ("Org", "solved"): (self.story.enc_list, self.story.dec_list),
            ("Org", "support"): (self.support.enc_list, self.support.dec_list),
            ("Agent", "sheet"): (self.sheet.enc, self.sheet.dec),
            ("Agent", "org"): (_enc_seat, _dec_seat),
            ("Agent", "status"): (self.enc_status, self.dec_status),
            ("Agent", "kit"): (self.token.enc_list, self.token.dec_list),
            ("Agent", "broken"): (self.token.enc_list, self.token.dec_list),
            ("Agent", "district"): (_enc_number, _dec_number),
            ("Agent", "zone"): (_enc_number, _dec_number),
            ("Agent", "spot"): (_enc_number, _dec_number),
            ("City", "boards"): (self.board.enc_list, self.board.dec_list),
            ("City", "news"): (self.event.enc_list, self.event.dec_list),
            ("City", "staff"): (
                lambda v: [self.enc_seatmask(m) for m in v],
                lambda v, p: tuple(self.dec_seatmask(x, f"{p}[{i}]") for i, x in enumerate(_list(v, p, 9))),
            ),
            ("City", "henchmen"): (self.enc_henchmen, self.dec_henchmen),
            ("City", "ambush"): (_enc_seats, _dec_seats),
            ("Market", "stock"): (self.enc_stock, self.dec_stock),
            ("Market", "stack"): (self.token.enc_lists, self.dec_stack(self.token)),
            ("Market", "under"): (self.token.enc_lists, self.dec_stack(self.token)),
            ("Market", "agent_row"): (self.sheet.enc_list, self.sheet.dec_list),
            ("Market", "agent_pool"): (self.sheet.enc_list, self.sheet.dec_list),
            ("Market", "agent_under"): (self.sheet.enc_list, self.sheet.dec_list),
            ("Market", "support_row"): (self.support.enc_list, self.support.dec_list),
            ("Market", "support_pool"): (self.support.enc_list, self.support.dec_list),
            ("Market", "support_discard"): (self.support.enc_list, self.support.dec_list),
            ("Decks", "events"): (self.event.enc_list, self.event.dec_list),
            ("Decks", "events_discard"): (self.event.enc_list, self.event.dec_list),
            ("Decks", "ambush"): (self.ambush.enc_list, self.ambush.dec_list),
            ("Decks", "ambush_discard"): (self.ambush.enc_list, self.ambush.dec_list),
            ("Decks", "brawl"): (self.brawl.enc_list, self.brawl.dec_list),
            ("Decks", "brawl_discard"): (self.brawl.enc_list, self.brawl.dec_list),
            ("Decks", "henchmen"): (self.hench.enc_list, self.hench.dec_list),
            ("Decks", "henchmen_discard"): (self.hench.enc_list, self.hench.dec_list),
            ("Decks", "stories"): (self.story.enc_list, self.story.dec_list),
            ("Decks", "story_under"): (self.story.enc_list, self.story.dec_list),
            ("Decks", "story_knows"): (_enc_seats, _dec_seats),
            ("Decks", "cases"): (self.enc_cases, self.dec_cases),
            ("Decks", "cases_discard"): (self.enc_cases, self.dec_cases),
            ("Decks", "tokens"): (self.combat.enc_list, self.combat.dec_list),
            ("Fight", "district"): (_enc_number, _dec_number),
            ("Fight", "brawl"): (self.brawl.enc, self.brawl.dec),
            ("Fight", "weapon"): (self.token.enc, self.token.dec),
            ("Fight", "pending"): (self.effects.enc_list, self.effects.dec_list),
            ("Fight", "pair"): (self.combat.enc_list, self.combat.dec_list),
            ("Fight", "aside"): (self.enc_aside, self.dec_aside),
            ("Fight", "supported"): (self.enc_seatmask, self.dec_seatmask),
            ("Fight", "took_part"): (self.enc_seatmask, self.dec_seatmask),
            ("Fight", "queue"): (self.enc_numbers, self.dec_numbers),
            ("Fight", "target"): (_enc_number, _dec_number),
            ("Fight", "fighters"): (self.enc_fighters, self.dec_fighters),
            ("Agent", "side"): (_enc_number, _dec_number),
        }


def _list_of(one: Decoder) -> Decoder:
    def read(value: Any, path: str) -> tuple[Any, ...]:
        if type(value) is not list or len(value) > 500:
            raise _fail(path, "a list", value)
        return tuple(one(x, f"{path}[{i}]") for i, x in enumerate(value))

    return read


def _fixed(parts: tuple[Decoder, ...]) -> Decoder:
    def read(value: Any, path: str) -> tuple[Any, ...]:
        if type(value) is not list or len(value) != len(parts):
            raise _fail(path, f"a list of {len(parts)}", value)
        return tuple(d(x, f"{path}[{i}]") for i, (d, x) in enumerate(zip(parts, value, strict=True)))

    return read


def _record(tp: type, parts: list[tuple[str, str, Decoder]]) -> Decoder:
    def read(value: Any, path: str) -> Any:
        if not isinstance(value, Mapping):
            raise _fail(path, "an object", value)
        out = []
        for name, key, d in parts:
            where = f"{path}.{key}" if path else key
            if name != key and name in value:  # the record's short name: one public spelling
                short = f"{path}.{name}" if path else name
                raise InvalidStateError(f"{short} is written {where}", field=short)
            if key not in value:
                raise InvalidStateError(f"{where} is missing", field=where)
            out.append(d(value[key], where))
        return tp(*out)

    return read


_CODECS: PerContent[Content, _Codec] = PerContent(_Codec)


def _codec(c: Content) -> _Codec:
    return _CODECS(c)


# ------------------------------------------------------------------ the flow of the turn (ctx)


def _queue_kind(phase: int) -> str:
    """What ``ctx.queue`` holds in a phase: Organizations (Strategy, Payday), Agents (Activation,
    Investigation) or districts (the Event's Henchmen)."""
    if phase == st.EVENT:
        return "district"
    if phase in (st.ACTIVATION, st.INVESTIGATION):
        return "agent"
    return "seat"


def _cards_ids(f: _Fields, phase: int) -> _Ids:
    """What ``ctx.cards`` holds: the Agent sheet drawn (setup), the Event card placing Henchmen,
    or the Story cards drawn for a choice."""
    if phase == st.SETUP:
        return f.sheet
    if phase == st.EVENT:
        return f.event
    return f.story


def _ctx_out(s: st.State, f: _Fields) -> dict[str, Any]:
    """The flow of the turn in words: only the fields in use, each by what it means in this phase."""
    ctx, phase = s.ctx, s.phase
    out: dict[str, Any] = {}
    if ctx.queue:
        kind = _queue_kind(phase)
        if kind == "agent":
            out["queue"] = f.sheet.enc_list(ctx.queue)
        elif kind == "district":
            out["queue"] = [_enc_number(x) for x in ctx.queue]
        else:
            out["queue"] = _enc_seats(ctx.queue)
    if ctx.agent != -1:
        out["agent"] = f.sheet.enc(ctx.agent)
    if ctx.mp:
        out["movement_points"] = ctx.mp
    if ctx.visited:
        out["districts_visited"] = [d + 1 for d in range(5) if ctx.visited >> d & 1]
    if ctx.started:
        out["started"] = True
    if ctx.district != -1:
        out["district"] = _enc_number(ctx.district)
    if phase == st.INVESTIGATION or ctx.stage:
        out["stage"] = st.STAGES[ctx.stage] if 0 <= ctx.stage < len(st.STAGES) else ctx.stage
    out.update(_ctx_out_cards(s, f))
    return out


def _ctx_out_cards(s: st.State, f: _Fields) -> dict[str, Any]:
    """:func:`_ctx_out` continued: the cards, store, slot, seat and Mission of the step under way."""
    ctx, phase = s.ctx, s.phase
    out: dict[str, Any] = {}
    if ctx.cards:
        out["cards"] = _cards_ids(f, phase).enc_list(ctx.cards)
    if ctx.store != -1:
        if phase == st.EVENT:
            out["henchmen_left"] = ctx.store
        elif phase == st.INVESTIGATION and 0 <= ctx.store < len(AMBUSH_EFFECTS):
            out["ambush_effect"] = AMBUSH_EFFECTS[ctx.store]
        elif 0 <= ctx.store < len(CATEGORIES):
            out["store"] = CATEGORIES[ctx.store]
    if ctx.slot != -1:
        out["placement" if phase == st.EVENT else "slot"] = _enc_number(ctx.slot)
    if ctx.seat != -1:
        out["seat"] = ctx.seat
    if ctx.colours:
        out["colours"] = [COLOURS[x] for x in ctx.colours]
    if ctx.mission != -1:
        case, m = ctx.mission >> 4, ctx.mission & 15
        cases = s.orgs[ctx.seat].cases if 0 <= ctx.seat < len(s.orgs) else ()
        card = f.case.enc(cases[case]) if case < len(cases) else None
        out["mission"] = {"investigation": case + 1, "card": card, "mission": m + 1}
    if ctx.xp:
        out["xp_spent"] = ctx.xp
    if ctx.tested:
        out["missions_tested"] = [
            {"investigation": (b >> 4) + 1, "mission": (b & 15) + 1} for b in range(48) if ctx.tested >> b & 1
        ]
    return out


def _name(value: Any, names: tuple[str, ...], path: str) -> int:
    if value not in names or type(value) is not str:
        raise _fail(path, f"one of {list(names)}", value)
    return names.index(value)


def _count(value: Any, path: str, top: int) -> int:
    if type(value) is not int or not 0 <= value <= top:
        raise _fail(path, f"a number from 0 to {top}", value)
    return value


def _district(value: Any, path: str) -> int:
    """A district number 1 to 5 (or null) -> 0-based (-1)."""
    d = _dec_number(value, path)
    if d > 4:
        raise _fail(path, "a district number from 1 to 5, or null", value)
    return d


def _ctx_in(value: Any, phase: int, f: _Fields) -> dict[str, Any]:
    """The numeric fields of ``Ctx`` from the words of :func:`_ctx_out` (missing fields: unused)."""
    if not isinstance(value, Mapping):
        raise _fail("ctx", "an object", value)
    bad = next((k for k in value if k not in _CTX_KEYS), None)
    if bad is not None:
        raise InvalidStateError(
            f"ctx.{str(bad)[:40]} is not a field of the flow (fields: {', '.join(_CTX_KEYS)})",
            field=f"ctx.{str(bad)[:40]}",
        )
    out: dict[str, Any] = {
        "queue": [],
        "agent": -1,
        "mp": 0,
        "visited": 0,
        "started": False,
        "district": -1,
        "stage": 0,
        "cards": [],
        "store": -1,
        "slot": -1,
        "seat": -1,
        "colours": [],
        "mission": -1,
        "xp": 0,
        "tested": 0,
    }
    if "queue" in value:
        kind, items = _queue_kind(phase), _list(value["queue"], "ctx.queue", 20)
        if kind == "agent":
            out["queue"] = list(f.sheet.dec_list(items, "ctx.queue"))
        elif kind == "district":
            out["queue"] = [_district(x, f"ctx.queue[{i}]") for i, x in enumerate(items)]
        else:
            out["queue"] = list(_dec_seats(items, "ctx.queue"))
    if "agent" in value:
        out["agent"] = f.sheet.dec(value["agent"], "ctx.agent")
    if "movement_points" in value:
        out["mp"] = _count(value["movement_points"], "ctx.movement_points", 99)
    if "districts_visited" in value:
        for i, d in enumerate(_list(value["districts_visited"], "ctx.districts_visited", 5)):
            x = _district(d, f"ctx.districts_visited[{i}]")
            if x < 0:
                raise _fail(f"ctx.districts_visited[{i}]", "a district number from 1 to 5", d)
            out["visited"] |= 1 << x
    if "started" in value:
        out["started"] = _bool(value["started"], "ctx.started")
    if "district" in value:
        out["district"] = _district(value["district"], "ctx.district")
    if "stage" in value:
        out["stage"] = _name(value["stage"], st.STAGES, "ctx.stage")
    out.update(_ctx_in_cards(value, phase, f))
    return out


def _ctx_in_cards(value: Mapping[str, Any], phase: int, f: _Fields) -> dict[str, Any]:
    """:func:`_ctx_in` continued: the cards, store, slot, seat and Mission of the step under way."""
    out: dict[str, Any] = {}
    if "cards" in value:
        cards = _list(value["cards"], "ctx.cards", 10)
        out["cards"] = list(_cards_ids(f, phase).dec_list(cards, "ctx.cards"))
    if "store" in value:
        out["store"] = _name(value["store"], CATEGORIES, "ctx.store")
    if "henchmen_left" in value:
        out["store"] = _count(value["henchmen_left"], "ctx.henchmen_left", 20)
    if "ambush_effect" in value:
        out["store"] = _name(value["ambush_effect"], AMBUSH_EFFECTS, "ctx.ambush_effect")
    for key in ("slot", "placement"):
        if key in value:
            out["slot"] = _dec_number(value[key], f"ctx.{key}")
    if "seat" in value:
        out["seat"] = _dec_seat(value["seat"], "ctx.seat")
    if "colours" in value:
        out["colours"] = [
            _name(x, COLOURS, f"ctx.colours[{i}]")
            for i, x in enumerate(_list(value["colours"], "ctx.colours", 3))
        ]
    if "mission" in value:
        mission = value["mission"]
        if not isinstance(mission, Mapping):
            raise _fail("ctx.mission", "an object {investigation, card, mission}", mission)
        case = _dec_number(mission.get("investigation"), "ctx.mission.investigation")
        m = _dec_number(mission.get("mission"), "ctx.mission.mission")
        if not 0 <= case < len(COLOURS) or not 0 <= m < 16:
            raise _fail("ctx.mission", "an Investigation card's number and a Mission number", mission)
        out["mission"] = case << 4 | m
    if "xp_spent" in value:
        out["xp"] = _count(value["xp_spent"], "ctx.xp_spent", 20)
    if "missions_tested" in value:
        out["tested"] = 0
        for i, mission in enumerate(_list(value["missions_tested"], "ctx.missions_tested", 48)):
            out["tested"] |= 1 << _mission_bit(mission, f"ctx.missions_tested[{i}]")
    return out


def _mission_bit(mission: Any, path: str) -> int:
    """A Mission of the dashboard, ``{investigation, mission}`` numbers from 1 -> (case << 4) | mission."""
    if not isinstance(mission, Mapping):
        raise _fail(path, "an object {investigation, mission}", mission)
    case = _dec_number(mission.get("investigation"), f"{path}.investigation")
    m = _dec_number(mission.get("mission"), f"{path}.mission")
    if not 0 <= case < len(COLOURS) or not 0 <= m < 16:
        raise _fail(path, "an Investigation card's number and a Mission number", mission)
    return case << 4 | m


def _ctx_schema() -> dict[str, Any]:
    number = {"type": "integer", "minimum": 1}
    seat = {"type": "integer", "minimum": 0, "maximum": 3}
    ident = {"type": ["string", "null"], "description": "a component id of the content pack"}
    props: dict[str, Any] = {
        "queue": {
            "type": "array",
            "items": {"type": ["string", "integer", "null"]},
            "description": "Agent sheet ids (Activation, Investigation), seats (Strategy, Payday) or "
            "district numbers (the Event's Henchmen) still to handle, the first now",
        },
        "agent": {**ident, "description": "the Agent sheet id of the Agent concerned"},
        "movement_points": {"type": "integer", "minimum": 0},
        "districts_visited": {"type": "array", "items": number},
        "started": {"type": "boolean"},
        "district": number,
        "stage": {"enum": list(st.STAGES)},
        "cards": {"type": "array", "items": ident},
        "store": {"enum": list(CATEGORIES)},
        "henchmen_left": {"type": "integer", "minimum": 0},
        "ambush_effect": {"enum": list(AMBUSH_EFFECTS)},
        "slot": number,
        "placement": number,
        "seat": seat,
        "colours": {"type": "array", "items": {"enum": list(COLOURS)}},
        "mission": {
            "type": "object",
            "properties": {"investigation": number, "card": ident, "mission": number},
            "required": ["investigation", "mission"],
            "additionalProperties": False,
        },
        "xp_spent": {"type": "integer", "minimum": 0},
        "missions_tested": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"investigation": number, "mission": number},
                "required": ["investigation", "mission"],
                "additionalProperties": False,
            },
            "description": "the Missions the Agent testing has already tested in this stage",
        },
    }
    return {
        "type": "object",
        "properties": props,
        "additionalProperties": False,
        "description": "the flow of the turn: only the fields in use",
    }


_CTX_KEYS = tuple(_ctx_schema()["properties"])
"""The fields of the flow in the public form (the order of :func:`_ctx_schema`)."""


def to_dict(s: st.State, c: Content) -> dict[str, Any]:
    """The state as plain JSON types: component ids, names and 1-based numbers."""
    codec = _codec(c)
    data: dict[str, Any] = codec.encoder(st.State)(s)
    data["ctx"] = _ctx_out(s, codec.fields)
    data["phase"] = st.PHASES[s.phase]
    data["step"] = st.STEPS[s.step]
    data["game"] = "cyberverse"
    return data


def _check_range(value: int, lo: int, hi: int, path: str, rule: str = "") -> None:
    if not lo <= value <= hi:
        raise InvalidStateError(f"{path} must be from {lo} to {hi}, not {value}", field=path, rule=rule)


def _check(s: st.State, c: Content) -> None:
    """Ranges and ids that the rules read (the first bad field named)."""
    _check_range(s.players, 2, 4, "players")
    _check_range(len(s.orgs), s.players, s.players, "orgs")
    _check_range(s.actor, -2, s.players - 1, "actor")
    _check_range(s.turn, 1, 10_000, "turn")
    for i, o in enumerate(s.orgs):
        p = f"orgs[{i}]"
        _check_range(o.money, 0, _LIMIT, f"{p}.money", "cyberverse/setup")
        if len(o.influence) != 5 or any(not 0 <= x <= 3 for x in o.influence):
            raise InvalidStateError(
                f"{p}.influence: 5 districts, 0 to 3 tokens each",
                field=f"{p}.influence",
                rule="cyberverse/influence",
            )
        if len(o.support) > 3 or any(not 0 <= u < len(c.support) for u in o.support):
            raise InvalidStateError(
                f"{p}.support: at most 3 Support cards of the pack",
                field=f"{p}.support",
                rule="cyberverse/support-cards",
            )
        if sorted(o.deck + o.discard) != sorted((-1, 0, 1, 1, 2)):
            raise InvalidStateError(
                f"{p}.deck and discard must hold the Modifier cards -1, 0, 1, 1, 2",
                field=f"{p}.deck",
                rule="cyberverse/setup",
            )
        n = len(o.cases)
        if not (len(o.done) == len(o.spent) == len(o.marks) == n) or any(
            not 0 <= k < len(c.investigations) for k in o.cases
        ):
            raise InvalidStateError(
                f"{p}.cases: Investigation cards of the pack, one mask each",
                field=f"{p}.cases",
                rule="cyberverse/story-cards",
            )
        _check_range(o.story, -1, len(c.stories) - 1, f"{p}.story", "cyberverse/story-cards")
        _check_range(o.actions, 0, 3, f"{p}.actions", "cyberverse/activation-phase")
    if (s.step == st.D_DROP_SUPPORT) != bool(s.held) or (s.held and not s.adjust):
        raise InvalidStateError(
            "held names the interrupted step exactly while an Organization in adjust discards Support cards",
            field="held",
            rule="cyberverse/support-cards",
        )
    seen = set()
    for i, a in enumerate(s.agents):
        p = f"agents[{i}]"
        _check_range(a.sheet, 0, len(c.faces) // 2 - 1, f"{p}.sheet", "cyberverse/agent-sheets")
        if a.sheet in seen:
            raise InvalidStateError(
                f"{p}.sheet is recruited twice", field=f"{p}.sheet", rule="cyberverse/agent-sheets"
            )
        seen.add(a.sheet)
        _check_range(a.side, 0, 1, f"{p}.side")
        _check_range(a.org, 0, s.players - 1, f"{p}.org")
        _check_range(a.health, 1, 20, f"{p}.health", "cyberverse/loss-of-health")
        _check_range(a.status, 0, 7, f"{p}.status", "cyberverse/status-tokens")
        _check_range(a.district, -1, 4, f"{p}.district")
        if any(not 0 <= t < len(c.tokens) for t in a.kit) or len(a.kit) > c.equipment_slots:
            raise InvalidStateError(
                f"{p}.kit: Supply tokens of the pack, at most {c.equipment_slots}",
                field=f"{p}.kit",
                rule="cyberverse/agent-dashboard",
            )
        if a.district >= 0:
            board = c.boards[s.city.boards[a.district]]
            _check_range(a.zone, 0, board.zones - 1, f"{p}.zone", "cyberverse/new-eden-board")
            _check_range(a.spot, -1, len(board.positions) - 1, f"{p}.spot", "cyberverse/tactical-positions")
    if len(s.city.boards) != 5 or any(
        not 0 <= b < len(c.boards) or c.boards[b].district != d for d, b in enumerate(s.city.boards)
    ):
        raise InvalidStateError(
            "city.boards: one board of each district",
            field="city.boards",
            rule="cyberverse/building-new-eden",
        )


def from_dict(data: Mapping[str, Any], c: Content) -> st.State:
    """Rebuild and validate a state (``InvalidStateError`` naming the first bad field)."""
    if not isinstance(data, Mapping):
        raise InvalidStateError("the state must be an object", field="state")
    body = dict(data)
    if body.pop("game", "cyberverse") != "cyberverse":
        raise InvalidStateError("game must be 'cyberverse'", field="game")
    phase, step = body.get("phase"), body.get("step")
    if phase not in st.PHASES:
        raise _fail("phase", f"one of {list(st.PHASES)}", phase)
    body["step"] = _step_index(step)
    if body["step"] < 0:
        raise _fail("step", "a step name", step)
    body["phase"] = st.PHASES.index(phase)
    codec = _codec(c)
    try:
        body["ctx"] = _ctx_in(body.get("ctx", {}), body["phase"], codec.fields)
        s = codec.decoder(st.State)(body, "")
        _check(s, c)
    except InvalidStateError:
        raise
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, RecursionError) as exc:
        raise InvalidStateError(f"inconsistent state: {type(exc).__name__}", field="state") from None
    return typing.cast(st.State, s)


def _schema_of_encoder(enc: Encoder) -> dict[str, Any]:
    ids = getattr(enc, "__self__", None)
    if isinstance(ids, _Ids):
        one: dict[str, Any] = {"enum": [*ids.names, None, "unknown"], "description": f"a {ids.what} id"}
        name = getattr(enc, "__name__", "")
        if name == "enc_list":
            return {"type": "array", "items": one}
        if name == "enc_lists":
            return {"type": "array", "items": {"type": "array", "items": one}}
        return one
    seat = {
        "type": ["integer", "null"],
        "minimum": 0,
        "maximum": 3,
        "description": "a seat (0-based) or null",
    }
    if enc is _enc_seat:
        return seat
    if enc is _enc_seats:
        return {"type": "array", "items": seat}
    if enc is _enc_number:
        return {"type": ["integer", "null"], "minimum": 1, "description": "numbered from 1, or null"}
    return {"description": "see games/cyberverse/codec.py"}


def state_schema(c: Content) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of ``to_dict``."""
    codec = _codec(c)

    def schema(tp: Any) -> dict[str, Any]:
        origin = typing.get_origin(tp)
        if tp is int:
            return {"type": "integer"}
        if tp is bool:
            return {"type": "boolean"}
        if tp is str:
            return {"type": "string"}
        if origin is tuple:
            args = typing.get_args(tp)
            if len(args) == 2 and args[1] is Ellipsis:
                return {"type": "array", "items": schema(args[0])}
            return {
                "type": "array",
                "prefixItems": [schema(a) for a in args],
                "minItems": len(args),
                "maxItems": len(args),
            }
        if origin in (types.UnionType, typing.Union):
            inner = next(a for a in typing.get_args(tp) if a is not type(None))
            return {"anyOf": [{"type": "null"}, schema(inner)]}
        hints = _hints(tp)
        props = {}
        for f in fields(tp):
            key = (tp.__name__, f.name)
            props[_key(tp, f.name)] = (
                _schema_of_encoder(codec.overrides[key][0])
                if key in codec.overrides
                else schema(hints[f.name])
            )
        return {"type": "object", "properties": props, "required": list(props), "additionalProperties": False}

    root = schema(st.State)
    root["properties"]["ctx"] = _ctx_schema()
    root["properties"]["phase"] = {"enum": list(st.PHASES)}
    root["properties"]["step"] = {"enum": list(st.STEPS)}
    root["properties"]["game"] = {"const": "cyberverse"}
    root["required"] = [*root["required"], "game"]
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "CyberVerse state", **root}
