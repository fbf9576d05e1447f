"""Hostile requests against a running server: every RPC of ``lictor.v1``, every registered game.

Five generators, each seeded so that a run sends the same requests again:

- **generic** (hypothesis): requests built from the contract's descriptors (so a new RPC is fuzzed
  the day it is added). Each field is left unset, given a value that makes sense (a game's name, a
  legal move's notation, a real position or a seat's view of one, an existing match, a content
  pack) or a hostile one (NaN, infinities, huge and negative numbers, undefined enum numbers, long
  and odd strings, deep or broken JSON, a real state with one field replaced).
- **content packs**: every string field named ``content_pack`` (top level or in a ``Position``)
  gets the packs of a content root made by :func:`make_content_root` (valid copies of the reference
  packs; a pack without pack.json, with a file nested 50,000 deep, with a 20 MB file, with a file or
  the directory a symlink to outside the root, an empty one...) or a hostile name (NUL, 256 to
  5,000 characters, ``..``, absolute paths, 200 parts, unicode, ``.``, a trailing slash).
- **views**: a seat's or the spectator's view of a real state (``observation(state, viewer)`` of
  random mid-game states, as ``state_json``) through every call that reads a position.
- **hosted views**: the same, fetched from hosted matches (GetMatch with ``viewer_seat``) while
  AI seats move (AI-only matches, and a human seat played through its own view).
- **solves**: Solve of every registered puzzle kind on real positions of its game, parameters drawn
  from the kind's params schema (GetSchema), time limits 0.3 to 3 s and client deadlines a little
  longer, from 6 threads at once.

A reply is *acceptable* when its status is OK or one the error table gives to the caller's mistake.
*Bad* are INTERNAL, UNKNOWN (a bug), DEADLINE_EXCEEDED or an answer after the client's deadline (a
hang; a watch that has nothing to say before the deadline is no hang), UNAVAILABLE (the server went
away), DATA_LOSS, ``PATH_LEAK`` (any reply, its details, its rich status or its message, that shows
a server path the request did not hold: the content root, ``/work/``, the home directory, a Python
installation, a traceback) and ``PACK_ACCEPTED`` (an OK with a content pack that must be refused:
broken, over a cap, or reached through a symlink or a path out of the root). Used by
tests/service/test_fuzz.py (make test: a slice of 2,000) and bench/service.py (make bench: 50,000).
``LICTOR_FUZZ_SEED`` replays another seed.
"""

from __future__ import annotations

import json
import math
import os
import queue
import random
import re
import shutil
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
from google.protobuf import descriptor as gdesc
from google.protobuf import text_format
from google.protobuf.message_factory import GetMessageClass
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from games.core import CHANCE, SPECTATOR, TERMINAL, GameConfig, game_names, get_game
from games.core.content import resolve_pack_dir
from lictor.v1 import (
    advisor_service_pb2,
    diagnostics_service_pb2,
    game_service_pb2,
    match_service_pb2,
    position_pb2,
    solver_service_pb2,
)
from solver.core import get_puzzle_spec, puzzle_kinds

__all__ = [
    "BAD_STATUSES",
    "Corpus",
    "FuzzResult",
    "Method",
    "Oracle",
    "Packs",
    "Plan",
    "Reply",
    "corpus",
    "create_matches",
    "env_seed",
    "load_schemas",
    "make_content_root",
    "make_oracle",
    "methods",
    "request",
    "run_plan",
    "send",
]

BAD_STATUSES = frozenset(
    {
        grpc.StatusCode.INTERNAL,
        grpc.StatusCode.UNKNOWN,
        grpc.StatusCode.DEADLINE_EXCEEDED,
        grpc.StatusCode.UNAVAILABLE,
        grpc.StatusCode.DATA_LOSS,
    }
)
"""Statuses no request may ever get: a bug, a hang, a server gone."""

PATH_LEAK = "PATH_LEAK"
"""The status counted for a reply that shows a server path."""

LATE = "LATE_REPLY"
"""The status counted for an answer that came after the client's deadline (a hang)."""

PACK_ACCEPTED = "PACK_ACCEPTED"
"""The status counted for an OK to a request naming a content pack that must be refused."""

_MODULES = (
    game_service_pb2,
    advisor_service_pb2,
    solver_service_pb2,
    match_service_pb2,
    diagnostics_service_pb2,
)


@dataclass(frozen=True)
class Method:
    """One RPC: its path, its request and response classes and whether it streams its answers."""

    path: str
    request: Any
    response: Any
    streaming: bool

    @property
    def name(self) -> str:
        """The RPC's name ("GetLegalActions")."""
        return self.path.rsplit("/", 1)[1]


def methods() -> list[Method]:
    """Every RPC of the ``lictor.v1`` services."""
    out = []
    for mod in _MODULES:
        for service in mod.DESCRIPTOR.services_by_name.values():
            for m in service.methods:
                out.append(
                    Method(
                        f"/{service.full_name}/{m.name}",
                        GetMessageClass(m.input_type),
                        GetMessageClass(m.output_type),
                        m.server_streaming,
                    )
                )
    return out


def _by_name(ms: Sequence[Method]) -> dict[str, Method]:
    return {m.name: m for m in ms}


def _reads_a_position(method: Method) -> bool:
    fd = method.request.DESCRIPTOR.fields_by_name.get("position")
    return (
        fd is not None and fd.message_type is not None and fd.message_type.full_name == "lictor.v1.Position"
    )


# ------------------------------------------------------------------------------------ content packs
_OUTSIDE_FILE_TEXT = '{"outside": "a file outside the content root"}'


@dataclass
class Packs:
    """A content root made for the fuzz (:func:`make_content_root`).

    Attributes:
        base: the temporary directory holding the root and what lies outside it.
        root: the content root the server under fuzz is given.
        names: every pack name worth sending (valid, broken and escaping ones).
        by_game: the names made from each game's reference pack.
        refused: the names every call must refuse (broken, over a cap, symlinked, not a pack).
    """

    base: Path
    root: Path
    names: list[str]
    by_game: dict[str, list[str]]
    refused: list[str]


def _reference_pack(name: str) -> Path | None:
    """The reference content directory of a registered game (None when it has none)."""
    package = type(get_game(name)).__module__.rsplit(".", 1)[0]
    try:
        path = resolve_pack_dir(package)
    except Exception:  # a third-party game without a content/ directory
        return None
    return path if (path / "pack.json").is_file() else None


def _data_files(pack: Path) -> list[Path]:
    return sorted(p for p in pack.rglob("*.json") if p.name != "pack.json")


def _no_manifest(pack: Path, outside: Path, big_mb: int) -> None:
    (pack / "pack.json").unlink()


def _deep(pack: Path, outside: Path, big_mb: int) -> None:
    for f in _data_files(pack):
        f.write_text("[" * 50_000 + "]" * 50_000)


def _big(pack: Path, outside: Path, big_mb: int) -> None:
    for f in _data_files(pack)[:1]:
        f.write_text("[" + "1," * (big_mb * 512 * 1024) + "1]")


def _symlinked_file(pack: Path, outside: Path, big_mb: int) -> None:
    for f in _data_files(pack):
        away = outside / f"{pack.name}-{f.name}"
        f.rename(away)
        f.symlink_to(away)


def _many_files(pack: Path, outside: Path, big_mb: int) -> None:
    for i in range(200):
        (pack / f"extra{i:03}.json").write_text("{}")


def _bad_manifest(pack: Path, outside: Path, big_mb: int) -> None:
    (pack / "pack.json").write_text('{"version": ')


def _deep_manifest(pack: Path, outside: Path, big_mb: int) -> None:
    (pack / "pack.json").write_text('{"version": ' + "[" * 50_000 + "]" * 50_000 + "}")


_SPOILERS: dict[str, Callable[[Path, Path, int], None]] = {
    "nomanifest": _no_manifest,
    "deep": _deep,
    "big": _big,
    "symfile": _symlinked_file,
    "many": _many_files,
    "badjson": _bad_manifest,
    "deepmanifest": _deep_manifest,
}
"""Broken copies of a reference pack, by name prefix: what each does to the copy."""

_REFUSED = frozenset({"nomanifest", "deep", "big", "symfile", "badjson", "deepmanifest", "symdir"}) | {
    "empty",
    "afile",
    "linkout",
}
"""Packs every call must refuse, by name or name prefix (``many-`` is only over today's file cap)."""


def make_content_root(base: Path, games: Sequence[str], *, big_mb: int = 20) -> Packs:
    """Build ``base/packs``, a content root of valid and hostile packs, and ``base/outside``.

    For each game with a reference pack: ``<game>`` and ``sets/<game>`` (valid copies),
    ``nomanifest-<game>`` (no pack.json), ``deep-<game>`` (every data file ``[[[…]]]`` 50,000
    deep), ``big-<game>`` (a ``big_mb`` MB data file), ``symfile-<game>`` (its data files are symlinks
    to files outside the root), ``symdir-<game>`` (the pack is a symlink to a copy outside the
    root), ``many-<game>`` (200 extra files), ``badjson-<game>`` (pack.json is not JSON) and
    ``deepmanifest-<game>`` (pack.json 50,000 deep); then ``empty`` (an empty directory), ``afile``
    (a regular file) and ``linkout`` (a symlink to a file outside the root).
    """
    root, outside = base / "packs", base / "outside"
    root.mkdir(parents=True)
    outside.mkdir()
    (outside / "secret.json").write_text(_OUTSIDE_FILE_TEXT)
    by_game: dict[str, list[str]] = {}
    for name in games:
        ref = _reference_pack(name)
        if ref is None:
            continue
        made = by_game[name] = [name, f"sets/{name}", f"symdir-{name}"]
        shutil.copytree(ref, root / name)
        shutil.copytree(ref, root / "sets" / name)
        shutil.copytree(ref, outside / name)
        (root / f"symdir-{name}").symlink_to(outside / name, target_is_directory=True)
        for kind, spoil in _SPOILERS.items():
            pack = root / f"{kind}-{name}"
            shutil.copytree(ref, pack)
            spoil(pack, outside, big_mb)
            made.append(pack.name)
    (root / "empty").mkdir()
    (root / "afile").write_text("{}")
    (root / "linkout").symlink_to(outside / "secret.json")
    names = [n for made in by_game.values() for n in made] + ["empty", "afile", "linkout"]
    refused = [n for n in names if n.split("-", 1)[0] in _REFUSED or n in _REFUSED]
    return Packs(base=base, root=root, names=names, by_game=by_game, refused=refused)


def hostile_pack_names(games: Sequence[str], packs: Packs | None) -> list[str]:
    """Pack names no server may take as a path: NUL, too long, escaping, absolute, odd."""
    g = games[0] if games else "pack"
    names = [
        "\x00",
        f"{g}\x00",
        f"\x00{g}",
        "a\x00b/c",
        "x" * 256,
        "x" * 300,
        "y" * 5000,
        "/".join(["a"] * 200),
        "/".join(["ab"] * 60),
        ".",
        "..",
        "./",
        "../",
        "../..",
        "../../etc",
        "../../../../../../../../etc/passwd",
        "../outside",
        f"../outside/{g}",
        f"sets/../{g}",
        f"sets/../../outside/{g}",
        "/",
        "/etc",
        "/etc/passwd",
        "/tmp",
        "/proc/self/environ",
        "//etc",
        f"{g}/",
        f"./{g}",
        f"{g}/.",
        f"{g}//",
        f"sets//{g}",
        f"{g}/pack.json",
        "~",
        "~/",
        "$HOME",
        "%2e%2e%2fetc",
        "..\\..\\windows",
        "C:\\Windows",
        "NUL",
        " ",
        f" {g}",
        f"{g} ",
        f"{g}\n",
        "\t",
        "é" * 10,
        "パック",
        "🂡" * 5,
        "\u202e" + g,
        "a" * 64 + "/b",
        "a" * 65,
    ]
    if packs is not None:  # absolute paths of real packs, inside and outside the root
        names += [str(packs.root), str(packs.root / g), str(packs.base / "outside" / g)]
    return names


# ------------------------------------------------------------------------------------------ corpus
@dataclass(frozen=True)
class View:
    """A seat's or the spectator's view of a real state, as a position.

    Attributes:
        position: the view as ``state_json``.
        viewer: the seat (0-based) or :data:`games.core.SPECTATOR`.
        actions: notations worth playing in it (the true state's and, where the view has legal
            moves of its own, those).
    """

    position: position_pb2.Position
    viewer: int
    actions: tuple[str, ...]


@dataclass
class Corpus:
    """What makes sense to send: real games, positions, views, moves, matches, packs, puzzle kinds.

    Attributes:
        games: registered game names.
        positions: records and JSON states at random depths.
        notations: moves played on the way to them.
        states: the JSON states (``to_dict``).
        views: seats' and the spectator's views of random states.
        match_ids: hosted matches.
        kinds: registered puzzle kinds.
        kinds_by_game: the puzzle kinds of each game.
        schemas: each puzzle kind's params schema (GetSchema fills it; the registry otherwise).
        strings: by game, by key: string values seen in its states and in solve answers (for
            params schemas' free strings, e.g. a hex or a district).
        pack_names: content pack names to send (valid, broken, hostile).
        packs: the content root under fuzz, if any.
        solvable: by puzzle kind, positions it answered on (:func:`learn_solves`).
    """

    games: list[str]
    positions: list[position_pb2.Position] = field(default_factory=list)
    notations: list[str] = field(default_factory=list)
    states: list[dict[str, Any]] = field(default_factory=list)
    views: list[View] = field(default_factory=list)
    match_ids: list[str] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)
    kinds_by_game: dict[str, list[str]] = field(default_factory=dict)
    schemas: dict[str, dict[str, Any]] = field(default_factory=dict)
    strings: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    pack_names: list[str] = field(default_factory=list)
    packs: Packs | None = None
    solvable: dict[str, list[position_pb2.Position]] = field(default_factory=dict)

    def positions_of(self, game: str) -> list[position_pb2.Position]:
        """The corpus positions (and views) of ``game``."""
        return [p for p in self.positions if p.game == game] + [
            v.position for v in self.views if v.position.game == game
        ]


def _playout(game: Any, state: Any, moves: int, rng: random.Random) -> tuple[Any, list[str], list[str]]:
    """``state`` after up to ``moves`` random moves: (state, record actions, seats' notations)."""
    actions: list[str] = []
    notations: list[str] = []
    for _ in range(moves):
        player = game.current_player(state)
        if player == TERMINAL:
            break
        a = (
            game.sample_chance(state, rng)
            if player == CHANCE
            else rng.choice(list(game.legal_actions(state)))
        )
        text = game.action_to_text(state, a)
        actions.append(text)
        if player != CHANCE:
            notations.append(text)
        state = game.apply(state, a)
    return state, actions, notations


def _moves_of(game: Any, state: Any, limit: int = 6) -> list[str]:
    try:
        if game.current_player(state) < 0:
            return []
        return [game.action_to_text(state, a) for a in list(game.legal_actions(state))[:limit]]
    except Exception:  # a view a game cannot list moves in: the true state's moves serve
        return []


def _views_of(name: str, state: Any, true_moves: list[str]) -> list[View]:
    """Every seat's and the spectator's view of ``state`` as positions."""
    game = get_game(name)
    out = []
    for viewer in [*range(game.num_players(state)), SPECTATOR]:
        try:
            data = game.to_dict(game.observation(state, viewer))
        except Exception:  # a view the game cannot write down: nothing to send
            continue
        try:
            own = _moves_of(game, game.from_dict(json.loads(json.dumps(data))))
        except Exception:  # a view the game cannot read back: the server is asked all the same
            own = []
        text = json.dumps(data, sort_keys=True)
        moves = tuple(dict.fromkeys([*own, *true_moves]))
        out.append(View(position_pb2.Position(game=name, state_json=text), viewer, moves))
    return out


def _harvest(strings: dict[str, list[str]], data: Any, key: str = "") -> None:
    """Collect string leaves of ``data`` by the key they sit under (at most 40 per key)."""
    stack = [(data, key)]
    while stack:
        node, k = stack.pop()
        if isinstance(node, dict):
            stack.extend((v, str(kk)) for kk, v in node.items())
        elif isinstance(node, list):
            stack.extend((v, k) for v in node)
        elif isinstance(node, str) and k and len(node) <= 2000:
            seen = strings.setdefault(k, [])
            if node not in seen and len(seen) < 40:
                seen.append(node)


def corpus(
    seed: int = 0,
    positions_per_game: int = 4,
    *,
    views_per_game: int = 0,
    packs: Packs | None = None,
) -> Corpus:
    """Real positions of every registered game (records and JSON states at random depths), views of
    ``views_per_game`` more states (every seat's and the spectator's), and the packs' names."""
    rng = random.Random(seed)
    out = Corpus(games=game_names(), kinds=sorted(puzzle_kinds()), packs=packs)
    for kind in out.kinds:
        spec = get_puzzle_spec(kind)
        out.kinds_by_game.setdefault(spec.game, []).append(kind)
        out.schemas[kind] = dict(spec.params_schema)
    out.pack_names = [*(packs.names if packs else []), *hostile_pack_names(out.games, packs)]
    for name in out.games:
        game = get_game(name)
        info = game.info
        strings = out.strings.setdefault(name, {})
        for i in range(positions_per_game + views_per_game):
            players = rng.choice(sorted({info.min_players, info.max_players, min(info.max_players, 3)}))
            start = game.new_state(GameConfig(players=players), seed + i)
            depth = rng.choice((0, 3, 12, 40)) if i < positions_per_game else rng.randrange(0, 160)
            state, actions, notations = _playout(game, start, depth, rng)
            data = game.to_dict(state)
            _harvest(strings, data)
            if i >= positions_per_game:
                out.views += _views_of(name, state, _moves_of(game, state))
                continue
            out.notations += notations
            record = position_pb2.GameRecord(
                setup=position_pb2.GameSetup(players=players, seed=seed + i), actions=actions
            )
            out.positions.append(position_pb2.Position(game=name, record=record))
            out.states.append(data)
            out.positions.append(position_pb2.Position(game=name, state_json=json.dumps(data)))
    return out


# ------------------------------------------------------------------------------------------ values
_ODD_STRINGS = st.sampled_from(
    [
        "",
        " ",
        "\x00",
        "é" * 40,
        "🂡" * 10,
        "x" * 300,
        "y" * 5000,
        "-1",
        "9999999999999999999",
        "³",
        "٣٤",
        "１２",
        "1_000",
        " 7",
        "NaN",
        "null",
        "{}",
        "[]",
        '{"a":',
        "[" * 200 + "]" * 200,
        "[" * 50_000 + "]" * 50_000,
        "../../etc/passwd",
        "%s%n",
    ]
)
_NUMBERS = st.one_of(
    st.sampled_from([0, 1, 2, 3, 5, 7, 99, -1, -5, 2**31 - 1, 2**31, 2**53, 2**63 - 1]),
    st.integers(-(2**31), 2**31 - 1),
)
_FLOATS = st.one_of(
    st.sampled_from([0.0, 0.01, 0.05, 0.2, 1.0, 60.0, 1e9, -1.0, math.nan, math.inf, -math.inf]),
    st.floats(allow_nan=True, allow_infinity=True),
)
# Budgets stay small or over any cap: a fuzzed search is an error or a short search, never minutes.
_BUDGET_FLOATS = st.sampled_from([0.0, 0.01, 0.05, 0.1, 0.3, -1.0, math.nan, math.inf, 1e12, 3600.0])
_BUDGET_INTS = st.sampled_from([0, 1, 2, 10, 50, -1, 2**31 - 1, 2**63 - 1])
_HOSTILE_JSON: st.SearchStrategy[Any] = st.sampled_from(
    [
        None,
        -1,
        10**30,
        1e308,
        "x" * 200,
        [],
        {},
        [[[]]],
        True,
        "IV",
        0.5,
        [-1, 99],
        {"a": 1},
        "³",
        "1①",
        ["𝟗"],
    ]
)


def _mutated_state(draw: Callable[..., Any], states: list[dict[str, Any]]) -> str:
    """A real state with one value somewhere inside it replaced by a hostile one (or by itself with
    an odd digit)."""
    data = json.loads(json.dumps(draw(st.sampled_from(states))))
    node: Any = data
    for _ in range(draw(st.integers(1, 4))):
        if isinstance(node, dict) and node:
            key = draw(st.sampled_from(sorted(node)))
            if not isinstance(node[key], dict | list) or draw(st.booleans()):
                node[key] = draw(st.one_of(_HOSTILE_JSON, st.just(_odd_digits(node[key]))))
                break
            node = node[key]
        elif isinstance(node, list) and node:
            i = draw(st.integers(0, len(node) - 1))
            if not isinstance(node[i], dict | list) or draw(st.booleans()):
                node[i] = draw(st.one_of(_HOSTILE_JSON, st.just(_odd_digits(node[i]))))
                break
            node = node[i]
        else:
            break
    return json.dumps(data)


def _string(draw: Callable[..., Any], name: str, c: Corpus) -> str:
    pools: list[Any] = [_ODD_STRINGS, st.text(max_size=20)]
    if name == "game":
        pools += [st.sampled_from(c.games)] * 4
    elif name == "content_pack" and c.pack_names:
        pools += [st.sampled_from(c.pack_names)] * 4
    elif name in ("match_id",) and c.match_ids:
        pools += [st.sampled_from(c.match_ids)] * 4
    elif name == "kind" and c.kinds:
        pools += [st.sampled_from(c.kinds)] * 4
    elif name in ("text", "action", "actions", "state_text") and c.notations:
        pools += [st.sampled_from(c.notations)] * 4
        pools += [st.sampled_from(c.notations).map(_odd_digits)]
    elif name in ("state_json", "score_sheet_json") and c.states:
        pools += [st.sampled_from([json.dumps(s) for s in c.states])]
        if c.views:
            pools += [st.sampled_from([v.position.state_json for v in c.views])]
        pools += [st.just("")]
        return draw(st.one_of(*pools)) if draw(st.integers(0, 2)) else _mutated_state(draw, c.states)
    elif name == "params_json":
        pools += [
            st.dictionaries(
                st.sampled_from(
                    sorted({k for sch in c.schemas.values() for k in sch.get("properties", {})} | {"x"})
                ),
                _HOSTILE_JSON,
                max_size=3,
            ).map(json.dumps)
        ] * 3
    elif name in ("engine",):
        pools += [st.sampled_from(["automa", "greedy", "random", "search", "none"])] * 2
    return draw(st.one_of(*pools))  # type: ignore[no-any-return]


def _scalar(draw: Callable[..., Any], fd: gdesc.FieldDescriptor, c: Corpus) -> Any:
    t = fd.type
    budget = any(w in fd.name for w in ("time", "limit", "seconds", "simulations", "budget", "max"))
    if t == fd.TYPE_STRING:
        return _string(draw, fd.name, c)
    if t == fd.TYPE_BYTES:
        return draw(st.binary(max_size=64))
    if t == fd.TYPE_BOOL:
        return draw(st.booleans())
    if t in (fd.TYPE_DOUBLE, fd.TYPE_FLOAT):
        value = draw(_BUDGET_FLOATS if budget else _FLOATS)
        return value if t == fd.TYPE_DOUBLE or not math.isfinite(value) else max(-3e38, min(3e38, value))
    if t == fd.TYPE_ENUM:
        numbers = [v.number for v in fd.enum_type.values]
        return draw(st.sampled_from([*numbers, *numbers, 7, 99, -1]))
    value = draw(_BUDGET_INTS if budget else _NUMBERS)
    if t in (fd.TYPE_UINT32, fd.TYPE_FIXED32):
        return abs(value) % 2**32
    if t in (fd.TYPE_UINT64, fd.TYPE_FIXED64):
        return abs(value) % 2**64
    if t in (fd.TYPE_INT32, fd.TYPE_SINT32, fd.TYPE_SFIXED32):
        return max(-(2**31), min(2**31 - 1, value))
    return value


def _fill(draw: Callable[..., Any], msg: Any, c: Corpus, depth: int) -> None:
    if msg.DESCRIPTOR.full_name == "lictor.v1.Position" and c.positions and draw(st.integers(0, 3)):
        real = c.positions + [v.position for v in c.views]
        msg.CopyFrom(draw(st.sampled_from(real)))
        roll = draw(st.integers(0, 5))
        if roll == 0:  # a real position with one field made hostile
            _fill_field(draw, msg, draw(st.sampled_from(list(msg.DESCRIPTOR.fields))), c, depth)
        elif roll == 1 and c.pack_names:  # a real position read with a content pack
            packs = c.packs.by_game.get(msg.game, []) if c.packs else []
            msg.content_pack = draw(st.sampled_from(packs or c.pack_names))
        return
    chosen_oneofs: set[str] = set()
    for fd in msg.DESCRIPTOR.fields:
        oneof = fd.containing_oneof
        if oneof is not None:
            if oneof.name in chosen_oneofs or draw(st.integers(0, len(oneof.fields))):
                continue
            chosen_oneofs.add(oneof.name)
        elif not draw(st.booleans()):
            continue
        _fill_field(draw, msg, fd, c, depth)


def _fill_field(draw: Callable[..., Any], msg: Any, fd: gdesc.FieldDescriptor, c: Corpus, depth: int) -> None:
    if fd.message_type is not None:
        if depth >= 5 or fd.message_type.full_name.startswith("google."):
            return
        if fd.is_repeated:
            target = getattr(msg, fd.name)
            if fd.message_type.GetOptions().map_entry:
                return
            for _ in range(draw(st.integers(0, 3))):
                _fill(draw, target.add(), c, depth + 1)
        else:
            _fill(draw, getattr(msg, fd.name), c, depth + 1)
            if not getattr(msg, fd.name).ListFields():
                getattr(msg, fd.name).SetInParent()
        return
    if fd.is_repeated:
        getattr(msg, fd.name).extend(_scalar(draw, fd, c) for _ in range(draw(st.integers(0, 4))))
    else:
        setattr(msg, fd.name, _scalar(draw, fd, c))


def request(method: Method, c: Corpus) -> st.SearchStrategy[Any]:
    """A strategy of requests for ``method``."""

    @st.composite
    def build(draw: Callable[..., Any]) -> Any:
        msg = method.request()
        _fill(draw, msg, c, 0)
        return msg

    return build()


# ------------------------------------------------------------------------ targeted requests (seeded)
Shot = tuple[Method, Any, float]
"""One request to send: the RPC, the message and the client's deadline in seconds."""

UNARY_TIMEOUT_S = 10.0
"""Client deadline of a generic unary call."""
STREAM_TIMEOUT_S = 1.5
"""Client deadline of a stream (read for at most 3 answers)."""


def _timeout(method: Method) -> float:
    return STREAM_TIMEOUT_S if method.streaming else UNARY_TIMEOUT_S


def _schema_value(
    name: str, schema: dict[str, Any], rng: random.Random, strings: dict[str, list[str]]
) -> Any:
    """A value for one property of a params schema: mostly in range, sometimes not."""
    if "enum" in schema:
        return rng.choice(schema["enum"])
    kind = schema.get("type", "string")
    if kind == "integer":
        low = int(schema.get("minimum", -2))
        high = int(min(schema.get("maximum", low + 12), low + 10**6))
        return rng.choice([low, high, rng.randint(low, min(high, low + 12)), rng.randint(low, high)])
    if kind == "number":
        return round(rng.uniform(float(schema.get("minimum", 0)), float(schema.get("maximum", 10))), 3)
    if kind == "boolean":
        return rng.random() < 0.5
    if kind == "array":
        items = schema.get("items", {"type": "string"})
        size = rng.randint(int(schema.get("minItems", 0)), min(int(schema.get("maxItems", 4)), 6))
        return [_schema_value(name, items, rng, strings) for _ in range(size)]
    if kind == "object":
        return {}
    pool = strings.get(name) or re.findall(r"'([^']{1,24})'", str(schema.get("description", "")))
    if not pool:
        pool = [v for vs in strings.values() for v in vs[:3]] or ["x"]
    return rng.choice(pool)


def params_from_schema(
    schema: dict[str, Any], rng: random.Random, strings: dict[str, list[str]], *, hostile: bool = True
) -> dict[str, Any]:
    """Parameters for a puzzle kind from its JSON Schema: required properties always, others at
    random; one time in eight one value of the wrong type or an unknown property."""
    props: dict[str, Any] = schema.get("properties", {})
    required = set(schema.get("required", []))
    out = {
        name: _schema_value(name, sub, rng, strings)
        for name, sub in props.items()
        if name in required or rng.random() < 0.4
    }
    if hostile and rng.random() < 0.125:
        key = rng.choice([*props, "unknown_param"])
        good = _schema_value(key, props.get(key, {}), rng, strings)
        out[key] = rng.choice(
            [None, -1, 10**12, "x" * 300, [[]], {"a": {}}, math.inf, "³", _odd_digits(good)]
        )
    return out


_ODD_DIGITS = ("³", "①", "𝟗")
"""Characters ``str.isdigit`` takes for digits and ``int`` refuses (a check by isdigit, then int())."""


def _odd_digits(value: Any) -> Any:
    """``value`` with the first ASCII digit of every string in it replaced by an odd digit."""
    if isinstance(value, str):
        return re.sub(r"[0-9]", _ODD_DIGITS[len(value) % len(_ODD_DIGITS)], value, count=1)
    if isinstance(value, list):
        return [_odd_digits(v) for v in value]
    if isinstance(value, dict):
        return {k: _odd_digits(v) for k, v in value.items()}
    return value


def _game_strings(c: Corpus, game: str) -> dict[str, list[str]]:
    return c.strings.get(game, {})


def read_request(
    method: Method,
    position: position_pb2.Position,
    c: Corpus,
    rng: random.Random,
    *,
    viewer: int,
    actions: Sequence[str],
) -> Any:
    """A well-formed request of a call that reads a position, on ``position``, with small budgets:
    a move from ``actions``, the viewer who holds the view, a puzzle kind of the game."""
    msg = method.request()
    msg.position.CopyFrom(position)
    fields = msg.DESCRIPTOR.fields_by_name
    if "action" in fields and (actions or c.notations):
        text = rng.choice(list(actions) or c.notations)
        msg.action.text = _odd_digits(text) if rng.random() < 0.1 else text
    if "viewer" in fields:
        if rng.random() < 0.85:
            role = (
                game_service_pb2.VIEWER_ROLE_SPECTATOR
                if viewer == SPECTATOR
                else game_service_pb2.VIEWER_ROLE_SEAT
            )
            msg.viewer.role = role
            msg.viewer.seat = max(0, viewer)
        else:
            msg.viewer.role = rng.choice([1, 2, 3])
            msg.viewer.seat = rng.randint(0, 6)
    if "budget" in fields:
        if rng.random() < 0.5:
            msg.budget.simulations = rng.choice([1, 4, 16, 48])
        else:
            msg.budget.time_s = rng.choice([0.05, 0.1, 0.2])
    if "level" in fields:
        msg.level = rng.choice([0, 1, 2])
    if "limits" in fields:
        msg.limits.time_limit_s = rng.choice([0.2, 0.3, 0.5])
    if "generic" in fields:
        kinds = c.kinds_by_game.get(position.game) or c.kinds
        if kinds:
            kind = rng.choice(kinds)
            msg.generic.kind = kind
            params = params_from_schema(c.schemas.get(kind, {}), rng, _game_strings(c, position.game))
            msg.generic.params_json = json.dumps(params)
    for name, choices in (
        ("top_k", (1, 3, 5)),
        ("width", (0, 40, 120)),
        ("format", (0, 1, 1, 1, 2)),
        ("report_every_ms", (20, 50, 100)),
        ("max_candidates", (0, 3)),
        ("resolve_chance", (False, True)),
    ):
        if name in fields:
            setattr(msg, name, rng.choice(choices))
    for name in ("seed", "chance_seed"):
        if name in fields:
            setattr(msg, name, rng.randrange(2**32))
    return msg


def view_shots(c: Corpus, ms: Sequence[Method], count: int, seed: int) -> Iterator[Shot]:
    """``count`` reads of seats' and the spectator's views: every read RPC on every view in turn."""
    rng = random.Random(seed)
    readers = [m for m in ms if _reads_a_position(m)]
    if not c.views or not readers:
        return
    order = [(v, m) for v in c.views for m in readers]
    rng.shuffle(order)
    for i in range(count):
        view, method = order[i % len(order)]
        msg = read_request(method, view.position, c, rng, viewer=view.viewer, actions=view.actions)
        yield method, msg, _timeout(method)


def _pack_paths(method: Method) -> list[str]:
    """Where a request carries a content pack: "content_pack" or "position.content_pack"."""
    fields = method.request.DESCRIPTOR.fields_by_name
    out = ["content_pack"] if "content_pack" in fields else []
    return out + (["position.content_pack"] if _reads_a_position(method) else [])


def pack_shots(c: Corpus, ms: Sequence[Method], count: int, seed: int) -> Iterator[Shot]:
    """``count`` requests naming a content pack: every field named ``content_pack``, a pack of the
    content root or a hostile name, on a real game (and a real position of it) or a wrong one."""
    rng = random.Random(seed)
    targets = [(m, p) for m in ms for p in _pack_paths(m)]
    if not targets or not c.pack_names:
        return
    for _ in range(count):
        method, path = rng.choice(targets)
        game = rng.choice(c.games)
        own = c.packs.by_game.get(game, []) if c.packs else []
        name = rng.choice(own) if own and rng.random() < 0.4 else rng.choice(c.pack_names)
        if path == "content_pack":
            msg = method.request()
            msg.content_pack = name
            if "game" in msg.DESCRIPTOR.fields_by_name:
                msg.game = game if rng.random() < 0.9 else rng.choice(c.games)
            if "setup" in msg.DESCRIPTOR.fields_by_name:
                info = get_game(game).info
                msg.setup.players = rng.randint(info.min_players, info.max_players)
                msg.setup.seed = rng.randrange(1000)
        else:
            positions = c.positions_of(game) or [position_pb2.Position(game=game)]
            position = position_pb2.Position()
            position.CopyFrom(rng.choice(positions))
            position.content_pack = name
            msg = read_request(method, position, c, rng, viewer=SPECTATOR, actions=())
        yield method, msg, _timeout(method)


def solve_shots(c: Corpus, solve: Method, count: int, seed: int) -> Iterator[Shot]:
    """``count`` Solve requests: every puzzle kind in turn, a real position of its game, params from
    its schema, a time limit of 0.3 to 3 s and a client deadline 0.2 to 1 s longer."""
    rng = random.Random(seed)
    kinds = [k for k in c.kinds if c.positions_of(get_puzzle_spec(k).game)]
    if not kinds:
        return
    for i in range(count):
        kind = kinds[i % len(kinds)]
        game = get_puzzle_spec(kind).game
        msg = solve.request()
        known = c.solvable.get(kind)
        msg.position.CopyFrom(rng.choice(known if known and rng.random() < 0.7 else c.positions_of(game)))
        msg.generic.kind = kind
        msg.generic.params_json = json.dumps(
            params_from_schema(c.schemas.get(kind, {}), rng, _game_strings(c, game))
        )
        msg.limits.time_limit_s = round(rng.uniform(0.3, 3.0), 2)
        if rng.random() < 0.3:
            msg.limits.workers = rng.choice([1, 2])
        yield solve, msg, msg.limits.time_limit_s + round(rng.uniform(0.2, 1.0), 2)


# ------------------------------------------------------------------------------------------ sending
def leak_markers(*paths: str | Path) -> list[str]:
    """Texts no reply may show: the given paths (e.g. the content root's temporary directory) as
    given and resolved, ``/work/``, the home directory, the project's and Python's directories, a
    traceback."""
    out = {
        "/work/",
        "site-packages",
        "Traceback (most recent call last)",
        str(Path(__file__).resolve().parents[1]),
    }
    home = str(Path.home())
    if len(home) > 1:
        out.add(home.rstrip("/") + "/")
    for prefix in {sys.prefix, sys.base_prefix, sys.exec_prefix}:
        if len(prefix) > 4:
            out.add(prefix.rstrip("/") + "/lib/")
    for p in paths:
        out.update({str(p), str(Path(p).resolve())})
    return sorted((m for m in out if len(m) > 4), key=lambda m: (-len(m), m))


def _clip(msg: Any, limit: int = 160) -> str:
    """The request as protobuf text, every long string or bytes value cut to ``limit``."""
    copy = type(msg)()
    copy.CopyFrom(msg)
    _clip_fields(copy, limit)
    text = str(text_format.MessageToString(copy, as_one_line=True))
    return text if len(text) <= 2000 else text[:2000] + "..."


def _clip_fields(msg: Any, limit: int) -> None:
    for fd, value in msg.ListFields():
        if fd.message_type is not None:
            if fd.message_type.GetOptions().map_entry:
                continue
            for sub in value if fd.is_repeated else [value]:
                _clip_fields(sub, limit)
        elif fd.type in (fd.TYPE_STRING, fd.TYPE_BYTES):
            if fd.is_repeated:
                values = [_cut(v, limit) for v in value]
                del value[:]
                value.extend(values)
            else:
                setattr(msg, fd.name, _cut(value, limit))


def _cut(value: Any, limit: int) -> Any:
    if len(value) <= limit:
        return value
    tail = f"...({len(value)} in all)"
    return value[:limit] + (tail.encode() if isinstance(value, bytes) else tail)


@dataclass
class FuzzResult:
    """Counts by status, by RPC and by phase; the bad replies by kind (RPC and status) with the
    first two of each kind in full (at most 40), the first 20 path leaks and hangs."""

    counts: Counter[str] = field(default_factory=Counter)
    by_rpc: dict[str, Counter[str]] = field(default_factory=dict)
    by_phase: dict[str, Counter[str]] = field(default_factory=dict)
    bad: list[str] = field(default_factory=list)
    bad_total: int = 0
    bad_kinds: Counter[str] = field(default_factory=Counter)
    leaks: list[str] = field(default_factory=list)
    hangs: list[str] = field(default_factory=list)
    slowest_s: float = 0.0
    slowest: str = ""
    seconds_by_rpc: dict[str, float] = field(default_factory=dict)
    seconds_by_phase: dict[str, float] = field(default_factory=dict)
    client_errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def total(self) -> int:
        """Requests answered (any status)."""
        return sum(self.counts.values())

    def record(
        self, method: Method, msg: Any, *, phase: str, status: str, elapsed: float, problem: str
    ) -> None:
        """Count one reply; keep a bad one's story (status, details, the request clipped)."""
        with self.lock:
            self.counts[status] += 1
            self.by_rpc.setdefault(method.name, Counter())[status] += 1
            self.by_phase.setdefault(phase, Counter())[status] += 1
            self.seconds_by_rpc[method.name] = self.seconds_by_rpc.get(method.name, 0.0) + elapsed
            if elapsed > self.slowest_s:
                self.slowest_s, self.slowest = elapsed, f"{method.name} ({phase}, {status})"
            if not problem:
                return
            self.bad_total += 1
            story = f"[{phase}] {method.name} -> {status} after {elapsed:.2f} s: {problem[:400]}"
            story += f"\n    request: {_clip(msg)}"
            kind = f"{method.name} -> {status}"
            self.bad_kinds[kind] += 1
            if status == PATH_LEAK and len(self.leaks) < 20:
                self.leaks.append(story)
            if status in ("DEADLINE_EXCEEDED", LATE) and len(self.hangs) < 20:
                self.hangs.append(story)
            if self.bad_kinds[kind] <= 2 and len(self.bad) < 40:
                self.bad.append(story)

    def summary(self) -> dict[str, Any]:
        """The result as plain data (bench/results/service.json)."""
        return {
            "requests": self.total,
            "bad": self.bad_total,
            "by_status": dict(self.counts.most_common()),
            "by_rpc": {k: dict(v.most_common()) for k, v in sorted(self.by_rpc.items())},
            "by_phase": {k: dict(v.most_common()) for k, v in self.by_phase.items()},
            "seconds_by_phase": {k: round(v, 1) for k, v in self.seconds_by_phase.items()},
            "mean_ms_by_rpc": {
                k: round(1000 * s / max(1, sum(self.by_rpc[k].values())), 1)
                for k, s in sorted(self.seconds_by_rpc.items())
            },
            "slowest_s": round(self.slowest_s, 3),
            "slowest": self.slowest,
            "path_leaks": self.counts[PATH_LEAK],
            "hangs": self.counts["DEADLINE_EXCEEDED"] + self.counts[LATE],
            "bad_by_kind": dict(self.bad_kinds.most_common()),
            "bad_examples": self.bad,
            "leak_examples": self.leaks,
            "hang_examples": self.hangs,
            "client_errors": self.client_errors[:10],
        }


@dataclass(frozen=True)
class Oracle:
    """What no reply may do, whatever its status: show a server path, or take a content pack that
    must be refused (broken, over a cap, or reached through a symlink or a path out of the root).

    Attributes:
        markers: texts no reply may show (:func:`leak_markers`) unless the request held them.
        refused_packs: (game, pack name) no call may answer OK with (games that read a content
            pack only: one that reads none has nothing to refuse).
    """

    markers: tuple[str, ...] = ()
    refused_packs: frozenset[tuple[str, str]] = frozenset()


NO_ORACLE = Oracle()


def make_oracle(packs: Packs) -> Oracle:
    """The oracle of a fuzz with the content root ``packs``: no path under its temporary directory
    (nor ``/work/``, the home directory...) in a reply, no OK with a pack that must be refused."""
    escaping = [
        n for n in hostile_pack_names(game_names(), packs) if n.startswith("/") or ".." in n.split("/")
    ]
    refused = [(g, n) for g in packs.by_game for n in [*packs.refused, *escaping]]
    return Oracle(tuple(leak_markers(packs.base)), frozenset(refused))


def _named_pack(msg: Any) -> tuple[str, str]:
    """The game and the content pack a request names (("", "") when none)."""
    fields = msg.DESCRIPTOR.fields_by_name
    if "content_pack" in fields:
        return str(getattr(msg, "game", "")), str(msg.content_pack)
    if "position" in fields and fields["position"].message_type.full_name == "lictor.v1.Position":
        return str(msg.position.game), str(msg.position.content_pack)
    return "", ""


def _leak(markers: Sequence[str], msg: Any, texts: Iterable[bytes]) -> str:
    """The first marker the reply shows and the request does not hold ("" when none)."""
    asked = msg.SerializeToString()
    blob = b"\n".join(texts)
    for m in markers:
        mb = m.encode()
        if mb in blob and mb not in asked:
            at = blob.index(mb)
            return f"shows {m!r}: ...{blob[max(0, at - 120) : at + 80].decode('utf-8', 'replace')}..."
    return ""


@dataclass(frozen=True)
class Reply:
    """What a request got.

    Attributes:
        status: the status's name, or IDLE_STREAM, PATH_LEAK, LATE_REPLY.
        answers: the raw answers (one for a unary call, up to 3 of a stream).
        details: the error's text ("" when OK).
    """

    status: str
    answers: list[bytes]
    details: str


def _watches(method: Method) -> bool:
    """Whether a stream waits for events (WatchMatch): silent until something happens, so its
    deadline passing with no answer is no hang (a stream that computes, like Analyze, must answer)."""
    return method.streaming and method.name.startswith("Watch")


def send(
    channel: grpc.Channel,
    method: Method,
    msg: Any,
    result: FuzzResult,
    *,
    timeout: float = UNARY_TIMEOUT_S,
    stream_timeout: float = STREAM_TIMEOUT_S,
    metadata: Iterable[tuple[str, str]] = (),
    oracle: Oracle = NO_ORACLE,
    phase: str = "generic",
) -> Reply:
    """Send one request, count its status, and return the reply.

    A stream is read for at most 3 answers, then cancelled. A stream that answered and then stays
    open until the deadline, or a watch that had nothing to say, is ``IDLE_STREAM``, not a hang.
    """
    t0 = time.monotonic()
    code = grpc.StatusCode.OK
    replies: list[bytes] = []
    texts: list[bytes] = []
    details = ""
    limit = stream_timeout if method.streaming else timeout
    try:
        if method.streaming:
            stream = channel.unary_stream(method.path, request_serializer=type(msg).SerializeToString)(
                msg, timeout=stream_timeout, metadata=tuple(metadata)
            )
            for item in stream:
                replies.append(item)
                if len(replies) >= 3:
                    stream.cancel()
                    break
        else:
            unary = channel.unary_unary(method.path, request_serializer=type(msg).SerializeToString)
            replies.append(unary(msg, timeout=timeout, metadata=tuple(metadata)))
    except grpc.RpcError as exc:
        code = exc.code()  # type: ignore[attr-defined]
        details = exc.details() or ""  # type: ignore[attr-defined]
        texts.append(details.encode("utf-8", "replace"))
        for _, value in exc.trailing_metadata() or ():  # type: ignore[attr-defined]
            texts.append(value if isinstance(value, bytes) else str(value).encode())
    elapsed = time.monotonic() - t0
    status, problem = code.name, ""
    if code == grpc.StatusCode.CANCELLED and method.streaming:
        status = "OK"
    elif code == grpc.StatusCode.DEADLINE_EXCEEDED and method.streaming and (replies or _watches(method)):
        status = "IDLE_STREAM"
    elif code in BAD_STATUSES:
        problem = details or code.name
    elif elapsed > limit + 0.5:
        status, problem = LATE, f"answered {code.name} {elapsed - limit:.2f} s after the client's deadline"
    if not problem:
        leak = _leak(oracle.markers, msg, texts + replies)
        if leak:
            status, problem = PATH_LEAK, f"{code.name} reply {leak}"
        elif status == "OK" and _named_pack(msg) in oracle.refused_packs:
            status, problem = PACK_ACCEPTED, f"the content pack {_named_pack(msg)[1]!r} must be refused"
    result.record(method, msg, phase=phase, status=status, elapsed=elapsed, problem=problem)
    return Reply(status, replies, details)


def run(
    target: str,
    shots: Iterable[Shot],
    result: FuzzResult,
    *,
    clients: int = 1,
    oracle: Oracle = NO_ORACLE,
    phase: str = "generic",
    back_off: float = 0.0,
) -> None:
    """Send ``shots`` from ``clients`` threads at once, each on its own channel to ``target``; a
    client refused for want of a slot (RESOURCE_EXHAUSTED) waits ``back_off`` seconds, as a
    polite client would."""
    todo: queue.Queue[Shot | None] = queue.Queue(maxsize=4 * clients)

    def client() -> None:
        channel = grpc.insecure_channel(target)
        try:
            while (shot := todo.get()) is not None:
                method, msg, timeout = shot
                try:
                    reply = send(
                        channel,
                        method,
                        msg,
                        result,
                        timeout=timeout,
                        stream_timeout=min(timeout, STREAM_TIMEOUT_S),
                        oracle=oracle,
                        phase=phase,
                    )
                    if reply.status == "RESOURCE_EXHAUSTED" and back_off:
                        time.sleep(back_off)
                except Exception as exc:  # a request the client itself cannot send: the fuzz's bug
                    with result.lock:
                        result.client_errors.append(f"{method.name}: {type(exc).__name__}: {exc}"[:300])
        finally:
            channel.close()

    threads = [threading.Thread(target=client, name=f"fuzz-{phase}-{k}", daemon=True) for k in range(clients)]
    for t in threads:
        t.start()
    try:
        for shot in shots:
            todo.put(shot)
    finally:
        for _ in threads:
            todo.put(None)
        for t in threads:
            t.join()


def generated_shots(
    c: Corpus, ms: Sequence[Method], count: int, seed: int, per_example: int = 4
) -> Iterator[Shot]:
    """``count`` generic requests drawn by hypothesis (seeded: the same ones each run), made in a
    thread of their own while they are sent."""
    made: queue.Queue[Shot | None] = queue.Queue(maxsize=64)
    produced = [0]

    def produce() -> None:
        try:
            for round_ in range(8):  # (an example hypothesis discards sends fewer: top up)
                left = count - produced[0]
                if left <= 0:
                    return

                @hypothesis_seed(seed * 1000 + round_)
                @settings(
                    max_examples=math.ceil(left / per_example),
                    deadline=None,
                    database=None,
                    phases=[Phase.generate],
                    suppress_health_check=list(HealthCheck),
                )
                @given(data=st.data())
                def draw_all(data: Any) -> None:
                    for _ in range(per_example):  # (always drawn alike: hypothesis replays prefixes)
                        method = data.draw(st.sampled_from(list(ms)))
                        msg = data.draw(request(method, c))
                        if produced[0] < count:
                            produced[0] += 1
                            made.put((method, msg, _timeout(method)))

                draw_all()
        finally:
            made.put(None)

    threading.Thread(target=produce, name="fuzz-draw", daemon=True).start()
    while (shot := made.get()) is not None:
        yield shot


# ------------------------------------------------------------------------------------------ phases
def load_schemas(target: str, c: Corpus) -> None:
    """Each puzzle kind's params schema as GetSchema lists it (the registry's where it fails)."""
    get_schema = _by_name(methods())["GetSchema"]
    channel = grpc.insecure_channel(target)
    try:
        call = channel.unary_unary(
            get_schema.path,
            request_serializer=get_schema.request.SerializeToString,
            response_deserializer=get_schema.response.FromString,
        )
        for game in c.games:
            try:
                reply = call(get_schema.request(game=game), timeout=30)
            except grpc.RpcError:
                continue
            for puzzle in reply.puzzles:
                c.schemas[puzzle.kind] = json.loads(puzzle.params_schema_json or "{}")
    finally:
        channel.close()


def create_matches(target: str, c: Corpus) -> None:
    """One hosted match per game (a human seat, AI seats at level 1) for the fuzz to name."""
    ms = _by_name(methods())
    channel = grpc.insecure_channel(target)
    try:
        for name in c.games:
            reply = _call(channel, ms["CreateMatch"], _create_request(name, human=True))
            if reply is not None:
                c.match_ids.append(reply.match.match_id)
    finally:
        channel.close()


def _players(name: str) -> int:
    info = get_game(name).info
    return min(info.max_players, max(info.min_players, 2))


def _create_request(name: str, *, human: bool) -> Any:
    ai = match_service_pb2.Seat(kind=match_service_pb2.SEAT_KIND_AI, level=1)
    seats = [ai] * _players(name)
    if human:
        seats[0] = match_service_pb2.Seat(kind=match_service_pb2.SEAT_KIND_HUMAN)
    return match_service_pb2.CreateMatchRequest(game=name, seats=seats, issue_seat_secrets=False)


def _call(channel: grpc.Channel, method: Method, msg: Any, timeout: float = 30.0) -> Any:
    try:
        return channel.unary_unary(
            method.path,
            request_serializer=type(msg).SerializeToString,
            response_deserializer=method.response.FromString,
        )(msg, timeout=timeout)
    except grpc.RpcError:
        return None


def hosted_views(
    target: str,
    c: Corpus,
    result: FuzzResult,
    *,
    rounds: int,
    reads: int,
    seed: int,
    oracle: Oracle = NO_ORACLE,
) -> None:
    """Views fetched from hosted matches while AI seats move, read by ``reads`` read RPCs each.

    Per game: an AI-only match (every seat's view) and a human-and-AI match whose human seat is
    played through its own view (GetLegalActions on it, then SubmitAction). Every match is looked
    at ``rounds`` times, all matches in turn (the AI seats move meanwhile); then each is resigned.
    """
    rng = random.Random(seed)
    ms = _by_name(methods())
    readers = [m for m in methods() if _reads_a_position(m)]
    channel = grpc.insecure_channel(target)

    def sent(method: Method, msg: Any) -> Any:
        reply = send(channel, method, msg, result, timeout=_timeout(method), oracle=oracle, phase="hosted")
        ok = reply.status == "OK" and reply.answers and not method.streaming
        return method.response.FromString(reply.answers[0]) if ok else None

    def look(match_id: str, seat: int, plays: bool) -> None:
        got = sent(ms["GetMatch"], match_service_pb2.GetMatchRequest(match_id=match_id, viewer_seat=seat))
        if got is None or not got.match.position.state_json:
            return
        position, moves = got.match.position, []
        legal = sent(ms["GetLegalActions"], ms["GetLegalActions"].request(position=position))
        if legal is not None:
            moves = [a.text for a in legal.actions]
        for method in rng.sample(readers, min(reads, len(readers))):
            sent(method, read_request(method, position, c, rng, viewer=seat, actions=moves))
        summary = got.match.summary
        if plays and moves and summary.HasField("current_player") and summary.current_player == seat:
            submit = match_service_pb2.SubmitActionRequest(
                match_id=match_id, seat=seat, expected_move_number=got.match.move_number
            )
            submit.action.text = rng.choice(moves)
            sent(ms["SubmitAction"], submit)

    matches: list[tuple[str, list[int], bool]] = []  # (match, viewers, whether seat 0 is ours to play)
    try:
        for name in c.games:
            for human in (False, True):
                made = sent(ms["CreateMatch"], _create_request(name, human=human))
                if made is not None:
                    viewers = [0] if human else list(range(_players(name)))
                    matches.append((made.match.match_id, viewers, human))
        for _ in range(rounds):
            for match_id, viewers, human in matches:
                for seat in viewers:
                    look(match_id, seat, human)
            time.sleep(0.05)
    finally:
        for match_id, _, _ in matches:
            _call(channel, ms["ResignMatch"], match_service_pb2.ResignMatchRequest(match_id=match_id, seat=0))
        channel.close()


_PARAM_FIELD = re.compile(r"field generic\.params_json\.([A-Za-z_]+)")
_LISTED = re.compile(r"\[([^\]]{1,2000})\]")


def _learn_from_refusal(strings: dict[str, list[str]], details: str) -> None:
    """The values a refusal lists as legal for a parameter ("attacker must be a recruited Agent
    ['Dasha Volk', 'Doc Halloran'] ... (field generic.params_json.attacker)"), kept under its name."""
    named = _PARAM_FIELD.search(details)
    if named is None:
        return
    for listed in _LISTED.findall(details):
        _harvest(strings, {named.group(1): re.findall(r"'([^']{1,40})'", listed)})


def learn_solves(
    target: str, c: Corpus, result: FuzzResult, *, seed: int, tries: int = 8, oracle: Oracle = NO_ORACLE
) -> None:
    """Solve every puzzle kind up to ``tries`` times (until it answers twice), one call at a time,
    with a 0.3 s limit, to learn what it takes: the values refusals list as legal, the strings of
    answers (a map string, a district) and the positions it answers on (``Corpus.solvable``), for
    the concurrent phase's requests."""
    rng = random.Random(seed)
    solve = _by_name(methods())["Solve"]
    channel = grpc.insecure_channel(target)
    try:
        for kind in c.kinds:
            game = get_puzzle_spec(kind).game
            schema = c.schemas.get(kind, {})
            strings = c.strings.setdefault(game, {})
            positions = c.positions_of(game)
            for i in range(tries if positions else 0):
                if len(c.solvable.get(kind, [])) >= 2:
                    break
                msg = solve.request(position=positions[(i * 7 + seed) % len(positions)])
                msg.generic.kind = kind
                msg.generic.params_json = json.dumps(params_from_schema(schema, rng, strings, hostile=False))
                msg.limits.time_limit_s = 0.3
                reply = send(channel, solve, msg, result, timeout=1.5, oracle=oracle, phase="solves")
                if reply.status == "OK" and reply.answers:
                    c.solvable.setdefault(kind, []).append(msg.position)
                    _harvest(
                        strings, json.loads(solve.response.FromString(reply.answers[0]).answer_json or "{}")
                    )
                elif reply.status == "INVALID_ARGUMENT":
                    _learn_from_refusal(strings, reply.details)
    finally:
        channel.close()


@dataclass(frozen=True)
class Plan:
    """How many requests each generator sends.

    Attributes:
        generic: hypothesis requests over every RPC.
        packs: requests naming a content pack.
        views: reads of local views (every seat's and the spectator's).
        hosted_rounds: looks at each hosted match's views (see :func:`hosted_views`).
        hosted_reads: read RPCs per hosted view.
        solves: concurrent Solve requests.
        learn_tries: Solves of each puzzle kind, one at a time, before them (:func:`learn_solves`).
        clients: client threads of the generic, packs and views phases.
        solve_threads: client threads of the Solve phase.
    """

    generic: int = 0
    packs: int = 0
    views: int = 0
    hosted_rounds: int = 0
    hosted_reads: int = 4
    solves: int = 0
    learn_tries: int = 8
    clients: int = 1
    solve_threads: int = 6

    @classmethod
    def of(cls, total: int, *, clients: int = 1) -> Plan:
        """A plan of about ``total`` requests: a half generic, the rest from the fresh generators
        (a hosted round is about 50 requests a game)."""
        return cls(
            generic=total // 2,
            packs=total // 6,
            views=total // 5,
            hosted_rounds=max(1, total // 5000),
            hosted_reads=4 if total < 10_000 else 11,
            solves=max(30, total // 50),
            clients=clients,
        )


def run_plan(
    target: str,
    c: Corpus,
    plan: Plan,
    result: FuzzResult,
    *,
    seed: int = 0,
    oracle: Oracle = NO_ORACLE,
    phases: Sequence[str] = ("generic", "packs", "views", "hosted", "solves"),
    log: Callable[[str], None] = lambda line: None,
) -> None:
    """Run the phases of ``plan`` against the server at ``target``, counting into ``result``."""
    ms = methods()
    for phase in phases:
        t0, before = time.monotonic(), result.total
        if phase == "hosted":
            hosted_views(
                target,
                c,
                result,
                rounds=plan.hosted_rounds,
                reads=plan.hosted_reads,
                seed=seed,
                oracle=oracle,
            )
        elif phase == "solves":
            learn_solves(target, c, result, seed=seed, tries=plan.learn_tries, oracle=oracle)
            log(f"solves: learnt in {time.monotonic() - t0:.1f} s")
            shots = solve_shots(c, _by_name(ms)["Solve"], plan.solves, seed)
            run(target, shots, result, clients=plan.solve_threads, oracle=oracle, phase=phase, back_off=0.1)
        else:
            make = {"generic": generated_shots, "packs": pack_shots, "views": view_shots}[phase]
            count = {"generic": plan.generic, "packs": plan.packs, "views": plan.views}[phase]
            run(target, make(c, ms, count, seed), result, clients=plan.clients, oracle=oracle, phase=phase)
        took = time.monotonic() - t0
        result.seconds_by_phase[phase] = result.seconds_by_phase.get(phase, 0.0) + took
        log(f"{phase}: {result.total - before} requests in {took:.1f} s")


def env_seed(default: int) -> int:
    """The fuzz seed: ``LICTOR_FUZZ_SEED`` when set (to replay another run), else ``default``."""
    return int(os.environ.get("LICTOR_FUZZ_SEED", default))
