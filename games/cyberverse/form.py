"""The field codecs of CyberVerse's public form: each record of ``state.py`` written field by field
in the rulebook's words (component ids, names, 1-based numbers) and read back with the bad field
named. ``codec.py`` writes and reads a whole state with them, ``schema.py`` describes them as a
JSON Schema, ``validate.py`` checks what their types cannot say."""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Mapping
from typing import Any

import msgspec

from games.core.cache import PerContent
from games.cyberverse import state as st
from games.cyberverse.content import CATEGORIES, COLOURS, Content
from games.errors import InvalidStateError

PUBLIC_KEYS = {("Fight", "mp"): "movement_points", ("Fight", "xp"): "xp_spent"}
"""Fields whose public key is in words where the record's name is short (record, field) -> key."""


def public_key(tp: type, name: str) -> str:
    """The public key of field ``name`` of record ``tp``."""
    return PUBLIC_KEYS.get((tp.__name__, name), name)


LIMIT = 10**9


def type_hints(cls: type) -> dict[str, Any]:
    """The field types of record ``cls`` (read when a pack's codec is built: ``codec_of``)."""
    return typing.get_type_hints(cls, vars(st))


Encoder = Callable[[Any], Any]


Decoder = Callable[[Any, str], Any]


def _same(value: Any) -> Any:
    return value


def fail(path: str, want: str, got: Any) -> InvalidStateError:
    shown = f"<{type(got).__name__}>" if isinstance(got, list | dict) else repr(got)
    if len(shown) > 60:
        shown = shown[:57] + "..."
    return InvalidStateError(f"{path} must be {want}, not {shown}", field=path)


def _int(value: Any, path: str) -> int:
    if type(value) is not int or not -LIMIT <= value <= LIMIT:
        raise fail(path, "an integer", value)
    return value


def read_bool(value: Any, path: str) -> bool:
    if type(value) is not bool:
        raise fail(path, "true or false", value)
    return value


def _str(value: Any, path: str) -> str:
    if type(value) is not str or len(value) > 40:
        raise fail(path, "a short string", value)
    return value


def _ints(value: Any, path: str) -> tuple[int, ...]:
    if type(value) is not list or len(value) > 500:
        raise fail(path, "a list", value)
    if not all(type(x) is int for x in value) or (value and not -LIMIT <= min(value) <= max(value) <= LIMIT):
        bad = next(i for i, x in enumerate(value) if type(x) is not int or not -LIMIT <= x <= LIMIT)
        raise fail(f"{path}[{bad}]", "an integer", value[bad])
    return tuple(value)


def read_list(value: Any, path: str, limit: int = 500) -> list[Any]:
    if type(value) is not list or len(value) > limit:
        raise fail(path, "a list", value)
    return value


class Ids:
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
            raise fail(path, f"a {self.what} id of the content pack", v)
        return got

    def enc_list(self, v: tuple[int, ...]) -> list[Any]:
        return [self.enc(x) for x in v]

    def dec_list(self, v: Any, path: str) -> tuple[int, ...]:
        return tuple(self.dec(x, f"{path}[{i}]") for i, x in enumerate(read_list(v, path)))

    def enc_lists(self, v: tuple[tuple[int, ...], ...]) -> list[Any]:
        return [self.enc_list(x) for x in v]

    def dec_lists(self, v: Any, path: str) -> tuple[tuple[int, ...], ...]:
        return tuple(self.dec_list(x, f"{path}[{i}]") for i, x in enumerate(read_list(v, path)))


def enc_seat(x: int) -> Any:
    return x if x >= 0 else None


def dec_seat(v: Any, path: str) -> int:
    if v is None:
        return -1
    if type(v) is not int or not 0 <= v <= 3:
        raise fail(path, "a seat 0 to 3 or null", v)
    return v


def enc_seats(v: tuple[int, ...]) -> list[Any]:
    return [enc_seat(x) for x in v]


def dec_seats(v: Any, path: str) -> tuple[int, ...]:
    return tuple(dec_seat(x, f"{path}[{i}]") for i, x in enumerate(read_list(v, path)))


def _enc_held(v: tuple[int, ...]) -> list[Any]:
    """The step an Organization's Support card adjustment interrupted: [step name, its actor]."""
    if not v:
        return []
    step, actor = v
    return [st.STEPS[step], actor if actor >= 0 else "chance"]


OLD_STEP_NAMES = {"reveal a face-down combat token": st.C_FIGHTER_TOKEN}
"""Step names of earlier versions, still read (a Henchman's or Teammate's Combat token is placed
face down, never revealed: rule: cyberverse/combat-tokens)."""


def step_index(name: Any) -> int:
    """The step named ``name`` (an earlier version's name too), -1 for none."""
    if name in st.STEPS:
        return st.STEPS.index(name)
    return OLD_STEP_NAMES.get(name, -1) if isinstance(name, str) else -1


def _dec_held(v: Any, path: str) -> tuple[int, ...]:
    items = read_list(v, path, 2)
    if not items:
        return ()
    step = step_index(items[0]) if len(items) == 2 else -1
    if step < 0:
        raise fail(path, "[] or [a step name, a seat or 'chance']", v)
    actor = items[1]
    if actor == "chance":
        return (step, -1)
    return (step, dec_seat(actor, f"{path}[1]"))


def _enc_mask(m: int) -> list[int]:
    return [i for i in range(16) if m >> i & 1]


def _dec_mask(v: Any, path: str, top: int = 16) -> int:
    m = 0
    for i, x in enumerate(read_list(v, path, top)):
        if type(x) is not int or not 0 <= x < top:
            raise fail(f"{path}[{i}]", f"a number 0 to {top - 1}", x)
        m |= 1 << x
    return m


def enc_number(x: int) -> Any:
    """0-based index -> 1-based number (districts, zones, missions, positions); -1 -> null."""
    return x + 1 if x >= 0 else None


def dec_number(v: Any, path: str) -> int:
    if v is None:
        return -1
    if type(v) is not int or not 1 <= v <= 99:
        raise fail(path, "a number from 1, or null", v)
    return v - 1


class _Codec:
    """The public form for one content pack: compiled encoders and decoders per record type, with
    the fields that name components written as ids (``_overrides``)."""

    def __init__(self, c: Content) -> None:
        self.c = c
        self.encoders: dict[Any, Encoder] = {}
        self.decoders: dict[Any, Decoder] = {}
        self.fields = Fields(c)
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
        elif isinstance(tp, type) and issubclass(tp, msgspec.Struct):
            hints = type_hints(tp)
            parts = [
                (
                    f.name,
                    public_key(tp, f.name),
                    self.overrides[tp.__name__, f.name][0]
                    if (tp.__name__, f.name) in self.overrides
                    else self.encoder(hints[f.name]),
                )
                for f in msgspec.structs.fields(tp)
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
            fn = read_bool
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
        elif isinstance(tp, type) and issubclass(tp, msgspec.Struct):
            hints = type_hints(tp)
            parts = [
                (
                    f.name,
                    public_key(tp, f.name),
                    self.overrides[tp.__name__, f.name][1]
                    if (tp.__name__, f.name) in self.overrides
                    else self.decoder(hints[f.name]),
                )
                for f in msgspec.structs.fields(tp)
            ]
            fn = _record(tp, parts)
        else:  # pragma: no cover - every field type is handled above
            raise TypeError(tp)
        self.decoders[tp] = fn
        return fn


class Fields:
    """The fields written as component ids, names or 1-based numbers instead of pack indices."""

    def __init__(self, c: Content) -> None:
        self.c = c
        self.story = Ids(tuple(x.id for x in c.stories), "story card")
        self.case = Ids(tuple(x.id for x in c.investigations), "investigation card")
        self.support = Ids(tuple(x.id for x in c.support), "support card")
        self.sheet = Ids(c.sheet_ids, "agent sheet")
        self.token = Ids(tuple(x.id for x in c.tokens), "supply token")
        self.event = Ids(tuple(x.id for x in c.events), "event card")
        self.ambush = Ids(tuple(x.id for x in c.ambush), "ambush card")
        self.brawl = Ids(tuple(x.id for x in c.brawl), "brawl card")
        self.hench = Ids(tuple(x.id for x in c.henchmen), "henchman card")
        self.combat = Ids(tuple(x.id for x in c.combat_tokens), "combat token")
        self.board = Ids(tuple(x.id for x in c.boards), "district board")
        self.htype = Ids(c.henchman_types, "henchman type")
        self.kinds = Ids(st.FIGHTER_KINDS, "fighter kind")
        self.effects = Ids(
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
        for i, x in enumerate(read_list(v, path, 3)):
            if x not in self.statuses:
                raise fail(f"{path}[{i}]", f"one of {list(self.statuses)}", x)
            m |= 1 << self.statuses.index(x)
        return m

    def enc_masks(self, v: tuple[int, ...]) -> list[list[int]]:
        return [[b + 1 for b in _enc_mask(m)] for m in v]

    def dec_masks(self, v: Any, path: str) -> tuple[int, ...]:
        out = []
        for i, x in enumerate(read_list(v, path, 9)):
            nums = read_list(x, f"{path}[{i}]", 16)
            if not all(type(n) is int and 1 <= n <= 16 for n in nums):
                raise fail(f"{path}[{i}]", "mission numbers 1 to 16", x)
            out.append(sum(1 << (n - 1) for n in set(nums)))
        return tuple(out)

    def enc_seatmask(self, m: int) -> list[int]:
        return [i for i in range(4) if m >> i & 1]

    def dec_seatmask(self, v: Any, path: str) -> int:
        return _dec_mask(v, path, 4)

    def enc_numbers(self, v: tuple[int, ...]) -> list[Any]:
        return [enc_number(x) for x in v]

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
        for i, row in enumerate(read_list(v, path, 4)):
            cells = []
            for k, x in enumerate(read_list(row, f"{path}[{i}]", 3)):
                where = f"{path}[{i}][{k}]"
                if isinstance(x, Mapping):
                    key = (x.get("store"), x.get("price"), x.get("expert"))
                    if not all(isinstance(k, str | int) for k in key) or key not in self.backs:
                        raise fail(where, "a token back (store, price, expert) of the pack", x)
                    cells.append(-2 - self.backs[key])  # type: ignore[index]
                else:
                    cells.append(self.token.dec(x, where))
            rows.append(tuple(cells))
        return tuple(rows)

    def enc_henchmen(self, v: tuple[tuple[tuple[int, int], ...], ...]) -> list[Any]:
        return [[[self.hench.enc(card), zone + 1] for card, zone in d] for d in v]

    def dec_henchmen(self, v: Any, path: str) -> tuple[tuple[tuple[int, int], ...], ...]:
        out = []
        for i, d in enumerate(read_list(v, path, 5)):
            items = []
            for k, pair in enumerate(read_list(d, f"{path}[{i}]", 5)):
                where = f"{path}[{i}][{k}]"
                pair = read_list(pair, where, 2)
                if len(pair) != 2:
                    raise fail(where, "[henchman card, zone]", pair)
                items.append((self.hench.dec(pair[0], f"{where}[0]"), dec_number(pair[1], f"{where}[1]")))
            out.append(tuple(items))
        return tuple(out)

    def enc_cases(self, v: tuple[tuple[int, ...], ...]) -> dict[str, Any]:
        return {COLOURS[i]: self.case.enc_list(x) for i, x in enumerate(v)}

    def dec_cases(self, v: Any, path: str) -> tuple[tuple[int, ...], ...]:
        if not isinstance(v, Mapping) or set(v) != set(COLOURS):
            raise fail(path, f"an object with keys {list(COLOURS)}", v)
        return tuple(self.case.dec_list(v[col], f"{path}.{col}") for col in COLOURS)

    def enc_aside(self, v: tuple[tuple[int, int], ...]) -> list[Any]:
        return [[enc_seat(o), self.combat.enc(t)] for o, t in v]

    def dec_aside(self, v: Any, path: str) -> tuple[tuple[int, int], ...]:
        out = []
        for i, pair in enumerate(read_list(v, path, 40)):
            pair = read_list(pair, f"{path}[{i}]", 2)
            if len(pair) != 2:
                raise fail(f"{path}[{i}]", "[seat or null, combat token]", pair)
            out.append((dec_seat(pair[0], f"{path}[{i}][0]"), self.combat.dec(pair[1], f"{path}[{i}][1]")))
        return tuple(out)

    def dec_numbers(self, v: Any, path: str) -> tuple[int, ...]:
        return tuple(dec_number(x, f"{path}[{i}]") for i, x in enumerate(read_list(v, path)))

    def dec_stack(self, ids: Ids) -> Decoder:
        return ids.dec_lists

    def enc_fighter(self, f: st.Fighter) -> dict[str, Any]:
        ref = self.sheet.enc(f.ref) if f.kind == st.AGENT else self.htype.enc(f.ref)
        return {
            "kind": self.kinds.enc(f.kind),
            "ref": ref,
            "card": self.hench.enc(f.card),
            "org": enc_seat(f.org),
            "zone": enc_number(f.zone),
            "spot": enc_number(f.spot),
            "health": f.health,
            "token": self.combat.enc(f.token),
            "shown": f.shown,
            "done": f.done,
            "grappled": f.grappled,
            "disarmed": f.disarmed,
            "gone": f.gone,
            "leader": enc_number(f.leader),
        }

    def enc_fighters(self, v: tuple[st.Fighter, ...]) -> list[Any]:
        return [self.enc_fighter(f) for f in v]

    def dec_fighter(self, v: Any, path: str) -> st.Fighter:
        if not isinstance(v, Mapping):
            raise fail(path, "an object", v)
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
            raise fail(f"{path}.kind", f"one of {list(st.FIGHTER_KINDS)}", v["kind"])
        ref = (self.sheet if kind == st.AGENT else self.htype).dec(v["ref"], f"{path}.ref")
        if ref < 0:
            raise fail(f"{path}.ref", "an agent sheet or a henchman type", v["ref"])
        return st.Fighter(
            kind,
            ref,
            self.hench.dec(v["card"], f"{path}.card"),
            dec_seat(v["org"], f"{path}.org"),
            dec_number(v["zone"], f"{path}.zone"),
            dec_number(v["spot"], f"{path}.spot"),
            _int(v["health"], f"{path}.health"),
            self.combat.dec(v["token"], f"{path}.token"),
            read_bool(v["shown"], f"{path}.shown"),
            read_bool(v["done"], f"{path}.done"),
            read_bool(v["grappled"], f"{path}.grappled"),
            read_bool(v["disarmed"], f"{path}.disarmed"),
            read_bool(v["gone"], f"{path}.gone"),
            dec_number(v["leader"], f"{path}.leader"),
        )

    def dec_fighters(self, v: Any, path: str) -> tuple[st.Fighter, ...]:
        return tuple(self.dec_fighter(x, f"{path}[{i}]") for i, x in enumerate(read_list(v, path, 12)))

    def table(self) -> dict[tuple[str, str], tuple[Encoder, Decoder]]:
        """(record, field) -> (encoder, decoder) of the fields written as ids, names or numbers."""
        return {**self._table_of_holdings(), **self._table_of_decks()}

    def _table_of_holdings(self) -> dict[tuple[str, str], tuple[Encoder, Decoder]]:
        """The State's, the Organizations', the Agents' and New Eden's fields."""
        return {
            ("State", "first"): (enc_seat, dec_seat),
            ("State", "order"): (enc_seats, dec_seats),
            ("State", "adjust"): (enc_seats, dec_seats),
            ("State", "held"): (_enc_held, _dec_held),
            ("Org", "story"): (self.story.enc, self.story.dec),
            ("Org", "cases"): (self.case.enc_list, self.case.dec_list),
            ("Org", "done"): (self.enc_masks, self.dec_masks),
            ("Org", "spent"): (self.enc_masks, self.dec_masks),
            ("Org", "marks"): (self.enc_masks, self.dec_masks),
            ("Org", "solved"): (self.story.enc_list, self.story.dec_list),
            ("Org", "support"): (self.support.enc_list, self.support.dec_list),
            ("Agent", "sheet"): (self.sheet.enc, self.sheet.dec),
            ("Agent", "org"): (enc_seat, dec_seat),
            ("Agent", "status"): (self.enc_status, self.dec_status),
            ("Agent", "kit"): (self.token.enc_list, self.token.dec_list),
            ("Agent", "broken"): (self.token.enc_list, self.token.dec_list),
            ("Agent", "district"): (enc_number, dec_number),
            ("Agent", "zone"): (enc_number, dec_number),
            ("Agent", "spot"): (enc_number, dec_number),
            ("City", "boards"): (self.board.enc_list, self.board.dec_list),
            ("City", "news"): (self.event.enc_list, self.event.dec_list),
            ("City", "staff"): (
                lambda v: [self.enc_seatmask(m) for m in v],
                lambda v, p: tuple(
                    self.dec_seatmask(x, f"{p}[{i}]") for i, x in enumerate(read_list(v, p, 9))
                ),
            ),
            ("City", "henchmen"): (self.enc_henchmen, self.dec_henchmen),
            ("City", "ambush"): (enc_seats, dec_seats),
        }

    def _table_of_decks(self) -> dict[tuple[str, str], tuple[Encoder, Decoder]]:
        """The stores', the rows', the decks' and the Combat's fields."""
        return {
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
            ("Decks", "story_knows"): (enc_seats, dec_seats),
            ("Decks", "cases"): (self.enc_cases, self.dec_cases),
            ("Decks", "cases_discard"): (self.enc_cases, self.dec_cases),
            ("Decks", "tokens"): (self.combat.enc_list, self.combat.dec_list),
            ("Fight", "district"): (enc_number, dec_number),
            ("Fight", "brawl"): (self.brawl.enc, self.brawl.dec),
            ("Fight", "weapon"): (self.token.enc, self.token.dec),
            ("Fight", "pending"): (self.effects.enc_list, self.effects.dec_list),
            ("Fight", "pair"): (self.combat.enc_list, self.combat.dec_list),
            ("Fight", "aside"): (self.enc_aside, self.dec_aside),
            ("Fight", "supported"): (self.enc_seatmask, self.dec_seatmask),
            ("Fight", "took_part"): (self.enc_seatmask, self.dec_seatmask),
            ("Fight", "queue"): (self.enc_numbers, self.dec_numbers),
            ("Fight", "target"): (enc_number, dec_number),
            ("Fight", "fighters"): (self.enc_fighters, self.dec_fighters),
            ("Agent", "side"): (enc_number, dec_number),
        }


def _list_of(one: Decoder) -> Decoder:
    def read(value: Any, path: str) -> tuple[Any, ...]:
        if type(value) is not list or len(value) > 500:
            raise fail(path, "a list", value)
        return tuple(one(x, f"{path}[{i}]") for i, x in enumerate(value))

    return read


def _fixed(parts: tuple[Decoder, ...]) -> Decoder:
    def read(value: Any, path: str) -> tuple[Any, ...]:
        if type(value) is not list or len(value) != len(parts):
            raise fail(path, f"a list of {len(parts)}", value)
        return tuple(d(x, f"{path}[{i}]") for i, (d, x) in enumerate(zip(parts, value, strict=True)))

    return read


def _record(tp: type, parts: list[tuple[str, str, Decoder]]) -> Decoder:
    def read(value: Any, path: str) -> Any:
        if not isinstance(value, Mapping):
            raise fail(path, "an object", value)
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


def codec_of(c: Content) -> _Codec:
    return _CODECS(c)
