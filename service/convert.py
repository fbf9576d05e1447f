"""Conversions between the ``lictor.v1`` messages and the domain (games, search, solver).

Positions arrive in one of several forms (a record the server replays, state JSON, state text,
typed per-game messages); :func:`resolve_position` turns any of them into a game and a state and
:func:`position_like` writes a new state back in the form the client used. Errors raised by a game
while reading a request get the request path prepended to their ``field``.
"""

from __future__ import annotations

import json
import logging
import pickle
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.core import CHANCE, TERMINAL, Game, GameConfig, GameInfo, get_game
from games.core.protocol import OptionValue
from games.errors import ContentError, InvalidStateError, LictorError, LimitError
from lictor.v1 import advisor_service_pb2 as advisor_pb
from lictor.v1 import game_service_pb2 as game_pb
from lictor.v1 import position_pb2 as pos_pb
from lictor.v1 import solver_service_pb2 as solver_pb
from service.errors import RequestError, with_field
from service.packs import (
    MAX_PACK_NAME_CHARS,
    MAX_PACK_NAME_PARTS,
    MAX_PACK_PART_CHARS,
    PACK_FAILURES,
    PACK_NAME_RULE,
    clipped_pack_name,
    pack_error_message,
    pack_name_problem,
    pack_stamp,
    resolve_pack,
)
from solver.core import ScoreReport, SolveResult, Status

__all__ = [
    "MAX_PACK_NAME_CHARS",
    "MAX_PACK_NAME_PARTS",
    "MAX_PACK_PART_CHARS",
    "MAX_RECORD_ACTIONS",
    "PACK_NAME_RULE",
    "ByteLru",
    "Resolved",
    "analysis_to_pb",
    "cache_bytes",
    "candidate_to_pb",
    "configure_caches",
    "game_info_or_unknown",
    "game_info_to_pb",
    "game_with_pack",
    "lookup_game",
    "new_game",
    "option_value_to_pb",
    "options_from_pb",
    "pack_name_problem",
    "parse_action",
    "parse_json",
    "position_key",
    "position_like",
    "record_position",
    "resolve_pack",
    "resolve_position",
    "score_to_pb",
    "setup_from_pb",
    "solve_to_pb",
    "state_bytes",
    "summary_of",
    "unknown_game_info",
]

log = logging.getLogger("lictor.service")

MAX_RECORD_ACTIONS = 20_000
"""Most actions a record may hold (a LimitError beyond)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Setup:
    """A game setup read from a ``GameSetup`` message.

    Attributes:
        players: number of seats.
        options: variant options.
        seed: setup seed.
    """

    players: int
    options: dict[str, OptionValue]
    seed: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Resolved:
    """A position read from a request.

    Attributes:
        name: the game name.
        game: the game.
        state: the state.
        kind: which ``Position.kind`` it came as (``"record"``, ``"state_json"``, ``"state_text"``).
        content_pack: the content pack as the request named it ("" = reference).
        pack_path: the content pack's directory on the server ("" = reference).
        setup: the setup when it came as a record, else None.
        actions: the record's actions in notation (empty unless a record).
    """

    name: str
    game: Game[Any, Any]
    state: Any
    kind: str
    content_pack: str = ""
    pack_path: str = ""
    setup: Setup | None = None
    actions: tuple[str, ...] = ()

    @property
    def move_number(self) -> int:
        """Actions played since setup (0 when unknown: not a record)."""
        return len(self.actions)


# ---------------------------------------------------------------------------------------- options
def option_value_to_pb(value: OptionValue) -> pos_pb.OptionValue:
    """An option value as its message."""
    if isinstance(value, bool):
        return pos_pb.OptionValue(flag=value)
    if isinstance(value, int):
        return pos_pb.OptionValue(integer=value)
    if isinstance(value, float):
        return pos_pb.OptionValue(real=value)
    return pos_pb.OptionValue(text=str(value))


def option_value_from_pb(msg: pos_pb.OptionValue, field: str) -> OptionValue:
    """An option value from its message; RequestError when no kind is set."""
    kind = msg.WhichOneof("kind")
    if kind is None:
        raise RequestError(
            f"option value at {field!r} has no kind set; set text, integer, real or flag", field=field
        )
    value: OptionValue = getattr(msg, kind)
    return value


def options_from_pb(options: Mapping[str, pos_pb.OptionValue], field: str) -> dict[str, OptionValue]:
    """The options map of a request as plain values."""
    return {k: option_value_from_pb(v, f"{field}.{k}") for k, v in sorted(options.items())}


def options_to_pb(options: Mapping[str, OptionValue], target: Any) -> None:
    """Fill a ``map<string, OptionValue>`` field."""
    for k, v in options.items():
        target[k].CopyFrom(option_value_to_pb(v))


MAX_JSON_DEPTH = 32
"""Deepest nesting of arrays and objects a JSON input may have."""


def parse_json(text: str, *, field: str, error: type[LictorError] = RequestError) -> Any:
    """``json.loads(text)``, refusing text that is not JSON or nests over :data:`MAX_JSON_DEPTH`.

    Raises ``error`` naming ``field`` (never a RecursionError from a 1,000-deep input).
    """
    try:
        data = json.loads(text)  # the C scanner stops a too-deep input with RecursionError
    except (ValueError, RecursionError) as exc:
        raise error(f"{field} is not JSON: {str(exc)[:200]}", field=field) from None
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:  # the nesting depth, without recursion
        value, depth = stack.pop()
        if depth > MAX_JSON_DEPTH:
            raise error(f"{field} nests deeper than {MAX_JSON_DEPTH} levels", field=field)
        if isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values() if isinstance(v, dict | list))
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value if isinstance(v, dict | list))
    return data


def unknown_game_info(name: str) -> GameInfo:
    """A stand-in listing for a game no longer registered (its stored matches are damaged)."""
    return GameInfo(name=name, title=f"{name} (not registered)", min_players=1, max_players=64)


def game_info_or_unknown(name: str) -> GameInfo:
    """The game's listing, or :func:`unknown_game_info` when it is not registered."""
    try:
        return get_game(name).info
    except LictorError:
        return unknown_game_info(name)


# ---------------------------------------------------------------------------------------- content packs
def game_with_pack(
    name: str, content_pack: str, root: str | None, *, prefix: str = ""
) -> tuple[Game[Any, Any], str]:
    """The game ``name`` with the content pack a request named, and the pack's directory ("" = reference).

    The one door of every RPC naming a pack: the name is checked (:func:`resolve_pack`), the pack
    loaded under the caps of :mod:`games.core.content`, and a pack that fails is refused with
    INVALID_ARGUMENT naming ``<prefix>.content_pack`` (remembered until its files change).

    Args:
        name: the game.
        content_pack: the pack as the request named it ("" = the reference pack).
        root: the server's content root (None: no user packs).
        prefix: the request path of the message holding the fields (``"position"``; "" = top level).
    """
    game_field = f"{prefix}.game" if prefix else "game"
    pack_field = f"{prefix}.content_pack" if prefix else "content_pack"
    pack = resolve_pack(content_pack, root, field=pack_field)
    reference = lookup_game(name, field=game_field)  # (an unknown game is NOT_FOUND before any pack is read)
    if not pack:
        return reference, ""
    key = (name, pack)
    stamp = pack_stamp(pack)  # (before loading: a pack that changes while it loads is loaded again)
    failed = PACK_FAILURES.get(key)
    if failed is not None and failed[0] == stamp:
        raise ContentError(failed[1], field=pack_field)
    try:
        game = get_game(name, content_path=pack)
    except ContentError as exc:
        message = pack_error_message(name, content_pack, pack, exc)
    except (LookupError, TypeError, ValueError, AttributeError, RecursionError, OSError) as exc:
        log.warning("content pack %s for %s broke its loader", pack, name, exc_info=exc)
        message = (
            f"content pack {clipped_pack_name(content_pack)!r} is not valid for {name}: "
            "its files break the game's loader (the server log has the details)"
        )
    else:
        if failed is not None:
            PACK_FAILURES.forget(key)
        return game, pack
    log.warning("content pack %s for %s refused: %s", pack, name, message)
    PACK_FAILURES.put(key, stamp, message)
    raise ContentError(message, field=pack_field)


# ---------------------------------------------------------------------------------------- games
def lookup_game(name: str, content_pack: str = "", *, field: str = "game") -> Game[Any, Any]:
    """The registered game ``name`` (UnknownGameError → NOT_FOUND); RequestError when empty.

    ``content_pack`` is a pack directory :func:`resolve_pack` returned (RPCs go through
    :func:`game_with_pack`, which also turns a pack's errors into what a client may read).
    """
    if not name:
        raise RequestError("the game name is required", field=field)
    try:
        return get_game(name, content_path=content_pack)
    except LictorError as exc:
        if exc.field in ("", "game"):
            exc.field = field
        raise


def game_info_to_pb(info: GameInfo, *, has_scorer: bool, puzzle_kinds: Sequence[str]) -> game_pb.GameInfo:
    """A game's listing."""
    return game_pb.GameInfo(
        name=info.name,
        title=info.title,
        min_players=info.min_players,
        max_players=info.max_players,
        variants=[
            game_pb.Variant(
                name=v.name,
                description=v.description,
                default_value=option_value_to_pb(v.default),
                choices=[option_value_to_pb(c) for c in v.choices],
            )
            for v in info.variants
        ],
        content_version=info.content_version,
        hidden_information=info.hidden_information,
        stochastic=info.stochastic,
        has_scorer=has_scorer,
        puzzle_kinds=list(puzzle_kinds),
    )


def _config_error_field(exc: LictorError, prefix: str) -> LictorError:
    # A game names its config fields "config.players", "config.options.x": map them onto the setup.
    if exc.field.startswith("config."):
        rest = exc.field.removeprefix("config.")
        exc.field = f"{prefix}.{rest}" if prefix else rest
        return exc
    return with_field(exc, prefix)


def _state_error(exc: LictorError, prefix: str) -> LictorError:
    # A game names the state's own fields "state" / "state.x": map them onto the request field.
    if exc.field == "state" or exc.field.startswith("state."):
        exc.field = prefix + exc.field.removeprefix("state")
        return exc
    return with_field(exc, prefix)


def setup_from_pb(msg: pos_pb.GameSetup, *, field: str) -> Setup:
    """Read a ``GameSetup`` (players required)."""
    players = msg.players
    if players <= 0:
        raise RequestError(
            f"players must be a positive number of seats, not {players!r}", field=f"{field}.players"
        )
    options = options_from_pb(msg.options, f"{field}.options") if msg.options else {}
    return Setup(players=players, options=options, seed=msg.seed)


def setup_to_pb(setup: Setup) -> pos_pb.GameSetup:
    """A setup as its message."""
    msg = pos_pb.GameSetup(players=setup.players, seed=setup.seed)
    options_to_pb(setup.options, msg.options)
    return msg


def new_game(game: Game[Any, Any], setup: Setup, *, field: str, content_pack: str = "") -> Any:
    """The start state of ``setup``; config errors name ``field``'s sub-fields."""
    config = GameConfig(players=setup.players, options=dict(setup.options), content_path=content_pack)
    try:
        return game.new_state(config, setup.seed)
    except LictorError as exc:
        raise _config_error_field(exc, field) from None


def parse_action(game: Game[Any, Any], state: Any, msg: pos_pb.Action | str, *, field: str) -> Any:
    """The action of an ``Action`` message (its text or a typed action) or of a notation, in ``state``."""
    if isinstance(msg, str):
        text = msg
    else:
        kind = msg.WhichOneof("kind")
        if kind is None:
            raise RequestError("the action is required (set action.text to its notation)", field=field)
        if kind == "text":
            text = msg.text
        else:
            from service import typed

            text = typed.action_text(game.info.name, msg, field=field)
        field = f"{field}.{kind}"
    if not text.strip():
        raise RequestError("the action text is empty", field=field)
    try:
        return game.parse_action(state, text.strip())
    except LictorError as exc:
        exc.field = field
        raise


def apply_checked(game: Game[Any, Any], state: Any, action: Any, *, field: str) -> Any:
    """``game.apply`` with its error's field set to ``field``."""
    try:
        return game.apply(state, action)
    except LictorError as exc:
        exc.field = field
        raise


class ByteLru:
    """A thread-safe LRU of immutable values (states, answers) bounded by bytes, not entries.

    Each entry costs what the caller says it does (the key's bytes plus an estimate of the value's,
    e.g. :func:`state_bytes`); the oldest entries go once the total passes ``capacity``. A lookup
    takes no lock (one ``OrderedDict.get``, atomic in C); recency moves under the lock on hits.
    """

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.total = 0
        self._data: OrderedDict[Any, tuple[Any, int]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Any) -> Any:
        """The value kept for ``key`` (None when absent)."""
        data = self._data
        entry = data.get(key)
        if entry is None:
            return None
        with self._lock:
            if key in data:  # (unless evicted meanwhile)
                data.move_to_end(key)
        return entry[0]

    def put(self, key: Any, value: Any, cost: int) -> None:
        """Keep ``value`` for ``key`` at ``cost`` bytes (not kept when it alone is over capacity)."""
        if cost > self.capacity // 4:
            return
        data = self._data
        evicted = []
        with self._lock:
            old = data.pop(key, None)
            if old is not None:
                self.total -= old[1]
            data[key] = (value, cost)
            self.total += cost
            while self.total > self.capacity and data:
                _, (gone, gone_cost) = data.popitem(last=False)
                self.total -= gone_cost
                evicted.append(gone)
        del evicted  # freed here, after the lock

    def clear(self) -> None:
        """Forget everything."""
        with self._lock:
            self._data.clear()
            self.total = 0

    def __len__(self) -> int:
        return len(self._data)


def state_bytes(state: Any) -> int:
    """An estimate of the memory a state holds (its pickled size, times two for the objects)."""
    try:
        return 2 * len(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)) + 256
    except Exception:
        return 64 * 1024


def _key_bytes(key: tuple[Any, ...]) -> int:
    return sum(len(k) if isinstance(k, str | bytes) else 64 for k in key) + 128


_CACHE = ByteLru(8 * 1024 * 1024)
"""States by record (game, pack, setup bytes, actions) or by state text/JSON: a client that resends
a record plus one action costs one replayed action."""

_RESOLVED = ByteLru(8 * 1024 * 1024)
"""Whole positions already read, by (content root, the ``Position``'s bytes): a repeated position
(the same record asked for a move again, or scored again) skips every step of reading it."""

_INITIAL = ByteLru(2 * 1024 * 1024)
"""Start states by (game, pack, setup bytes): ``new_state`` is the costly part of reading a record
whose actions were never seen (a state is immutable, so sharing one is safe)."""


def configure_caches(total_bytes: int) -> None:
    """Share ``total_bytes`` among the position caches (positions, states, start states: 4:4:1)."""
    _RESOLVED.capacity = _CACHE.capacity = total_bytes * 4 // 9
    _INITIAL.capacity = total_bytes // 9


def cache_bytes() -> int:
    """Bytes the position caches hold now (by their estimates)."""
    return _RESOLVED.total + _CACHE.total + _INITIAL.total


MAX_KEYED_POSITION_BYTES = 8 * 1024
"""Positions larger than this are not kept by their bytes (at most 32 MiB of keys in all; a longer
record's state is still kept by record, and its replay dwarfs reading the bytes anyway)."""


def position_key(msg: pos_pb.Position) -> bytes | None:
    """The bytes a position is cached by (None when it is too large to keep)."""
    data: bytes = msg.SerializeToString(deterministic=True)  # one pass (``ByteSize`` would encode it too)
    return data if len(data) <= MAX_KEYED_POSITION_BYTES else None


def _start_state(game: Game[Any, Any], setup: Setup, base: tuple[Any, ...], *, field: str, pack: str) -> Any:
    """The setup's start state, kept by (game, pack, setup bytes) in ``_INITIAL``."""
    state = _INITIAL.get(base)
    if state is None:
        state = new_game(game, setup, field=f"{field}.record.setup", content_pack=pack)
        _INITIAL.put(base, state, _key_bytes(base) + state_bytes(state))
    return state


def _replay_record(
    game: Game[Any, Any],
    msg: pos_pb.Position,
    setup: Setup,
    *,
    setup_msg: pos_pb.GameSetup,
    actions: tuple[str, ...],
    field: str,
    pack: str,
) -> Any:
    if len(actions) > MAX_RECORD_ACTIONS:
        raise LimitError(
            f"a record holds at most {MAX_RECORD_ACTIONS} actions, not {len(actions)}",
            field=f"{field}.record.actions",
        )
    base = (msg.game, pack, setup_msg.SerializeToString(deterministic=True))
    if not actions:
        return _start_state(game, setup, base, field=field, pack=pack)
    state = _CACHE.get((*base, actions))
    if state is not None:
        return state
    state = _CACHE.get((*base, actions[:-1]))
    done = len(actions) - 1 if state is not None else 0
    if state is None:
        state = _start_state(game, setup, base, field=field, pack=pack)
    for i in range(done, len(actions)):
        f = f"{field}.record.actions[{i}]"
        state = apply_checked(game, state, parse_action(game, state, actions[i], field=f), field=f)
    key = (*base, actions)
    _CACHE.put(key, state, _key_bytes(base) + sum(map(len, actions)) + 64 * len(actions) + state_bytes(state))
    return state


def resolve_position(
    msg: pos_pb.Position,
    *,
    field: str = "position",
    content_root: str | None = None,
    key: bytes | None = None,
    keep: bool = True,
) -> Resolved:
    """Read any form of ``Position`` into a game and a state (packs only under ``content_root``).

    A position read before (the same bytes, ``key`` when the caller has them) comes from a cache;
    ``keep=False`` does not add a position read anew to it (a caller that keeps its own answer by
    the same bytes, like Score, would never come back for it; its start state and replayed states
    are still kept by setup and by record).
    """
    if key is None:
        key = position_key(msg)
    if key is not None:
        hit: Resolved | None = _RESOLVED.get((content_root, key))
        if hit is not None:
            return hit
    res = _resolve_position(msg, field=field, content_root=content_root)
    if key is not None and keep:
        _RESOLVED.put((content_root, key), res, len(key) + 256 + state_bytes(res.state))
    return res


def _resolve_position(msg: pos_pb.Position, *, field: str, content_root: str | None) -> Resolved:
    game, pack = game_with_pack(msg.game, msg.content_pack, content_root, prefix=field)
    kind = msg.WhichOneof("kind")
    if kind is None:
        raise RequestError(
            "the position is empty: set record, state_json or state_text", field=f"{field}.kind"
        )
    if kind == "record":
        record = msg.record
        setup_msg = record.setup
        setup = setup_from_pb(setup_msg, field=f"{field}.record.setup")
        actions = tuple(record.actions)
        state = _replay_record(game, msg, setup, setup_msg=setup_msg, actions=actions, field=field, pack=pack)
        return Resolved(
            name=msg.game,
            game=game,
            state=state,
            kind=kind,
            content_pack=msg.content_pack,
            pack_path=pack,
            setup=setup,
            actions=actions,
        )
    if kind in ("state_json", "state_text"):
        key = (msg.game, pack, kind, getattr(msg, kind))
        cached = _CACHE.get(key)
        if cached is not None:
            return Resolved(
                name=msg.game,
                game=game,
                state=cached,
                kind=kind,
                content_pack=msg.content_pack,
                pack_path=pack,
            )
    state = _read_state(game, msg, kind, field)
    if kind in ("state_json", "state_text"):
        text = getattr(msg, kind)
        _CACHE.put((msg.game, pack, kind, text), state, len(text) + 256 + state_bytes(state))
    return Resolved(
        name=msg.game, game=game, state=state, kind=kind, content_pack=msg.content_pack, pack_path=pack
    )


def _read_state(game: Game[Any, Any], msg: pos_pb.Position, kind: str, field: str) -> Any:
    """The state a position gives as state JSON, as state text or as a typed message."""
    if kind == "state_json":
        data = parse_json(msg.state_json, field=f"{field}.state_json", error=InvalidStateError)
        if not isinstance(data, dict):
            raise InvalidStateError(
                f"state_json must be a JSON object, not {type(data).__name__}", field=f"{field}.state_json"
            )
        try:
            return game.from_dict(data)
        except LictorError as exc:
            raise _state_error(exc, f"{field}.state_json") from None
        except (KeyError, TypeError, ValueError, AttributeError, IndexError, RecursionError) as exc:
            shown = repr(exc)[:200]
            raise InvalidStateError(f"bad state_json: {shown}", field=f"{field}.state_json") from None
    if kind == "state_text":
        try:
            return game.parse_state(msg.state_text)
        except LictorError as exc:
            raise _state_error(exc, f"{field}.state_text") from None
    from service import typed

    return typed.state_from_pb(game, msg, field=f"{field}.{kind}")


def record_position(
    name: str, setup: Setup, actions: Sequence[str], content_pack: str = ""
) -> pos_pb.Position:
    """A record position."""
    return pos_pb.Position(
        game=name,
        content_pack=content_pack,
        record=pos_pb.GameRecord(setup=setup_to_pb(setup), actions=list(actions)),
    )


def position_like(res: Resolved, state: Any, new_actions: Sequence[str]) -> pos_pb.Position:
    """``state`` in the form ``res`` came in (a record gets ``new_actions`` appended)."""
    if res.kind == "record":
        assert res.setup is not None
        return record_position(res.name, res.setup, (*res.actions, *new_actions), res.content_pack)
    if res.kind == "state_text":
        return pos_pb.Position(
            game=res.name, content_pack=res.content_pack, state_text=res.game.state_to_text(state)
        )
    if res.kind == "state_json":
        return pos_pb.Position(
            game=res.name,
            content_pack=res.content_pack,
            state_json=json.dumps(res.game.to_dict(state), sort_keys=True),
        )
    from service import typed

    return typed.state_to_pb(res.game, res.name, state, content_pack=res.content_pack)


def summary_of(game: Game[Any, Any], name: str, state: Any, move_number: int = 0) -> pos_pb.PositionSummary:
    """The summary of a position."""
    player = game.current_player(state)
    terminal = player == TERMINAL
    values = game.returns(state) if terminal else game.heuristic(state)
    return pos_pb.PositionSummary(
        game=name,
        players=game.num_players(state),
        current_player=player,
        chance=player == CHANCE,
        terminal=terminal,
        returns=[float(v) for v in values],
        state_json=json.dumps(game.to_dict(state), sort_keys=True),
        state_text=game.state_to_text(state),
        move_number=move_number,
    )


# ---------------------------------------------------------------------------------------- search
def candidate_to_pb(c: Any) -> advisor_pb.Candidate:
    """A ranked candidate."""
    proven = None if c.proven is None else float(c.proven)
    return advisor_pb.Candidate(
        action=c.text,
        visits=c.visits,
        value=[float(v) for v in c.value],
        prior=float(c.prior),
        lcb=float(c.lcb),
        pv=list(c.pv),
        proven=proven is not None,
        proven_value=proven if proven is not None else 0.0,
    )


def analysis_to_pb(
    a: Any,
    *,
    max_candidates: int = 0,
    final: bool | None = None,
    into: advisor_pb.Analysis | None = None,
) -> advisor_pb.Analysis:
    """An analysis (``max_candidates`` > 0 keeps only the best ones; built in place with ``add``).

    ``into``: an (empty) ``Analysis`` field of a response to fill instead of a new message (no copy).
    """
    cands = a.candidates[:max_candidates] if max_candidates > 0 else a.candidates
    out = advisor_pb.Analysis() if into is None else into
    out.seat = a.seat
    out.root_value.extend(float(v) for v in a.root_value)
    out.simulations = a.simulations
    out.elapsed_s = a.elapsed_s
    out.seed = a.seed
    out.final = a.final if final is None else final
    out.stopped_by = str(getattr(a, "stopped_by", ""))
    add = out.candidates.add
    for c in cands:
        # Field by field: a third of the cost of keyword arguments to ``add`` (upb). The search's
        # numbers are floats already (upb takes any real number for a double).
        m = add()
        m.action = c.text
        m.visits = c.visits
        m.value.extend(c.value)
        m.prior = c.prior
        m.lcb = c.lcb
        m.pv.extend(c.pv)
        if c.proven is not None:
            m.proven = True
            m.proven_value = c.proven
    return out


# ---------------------------------------------------------------------------------------- solver
_STATUS = {
    Status.OPTIMAL: solver_pb.SOLVE_STATUS_OPTIMAL,
    Status.FEASIBLE: solver_pb.SOLVE_STATUS_FEASIBLE,
    Status.INFEASIBLE: solver_pb.SOLVE_STATUS_INFEASIBLE,
    Status.UNKNOWN: solver_pb.SOLVE_STATUS_UNKNOWN,
}


def score_to_pb(report: ScoreReport) -> solver_pb.ScoreResponse:
    """An exact score as its message (the Score servicer keeps recent answers: one cache, at its
    boundary)."""
    out = solver_pb.ScoreResponse(game=report.game, final=report.final, ended_by=report.ended_by)
    for s in report.seats:
        seat = out.seats.add()
        seat.seat = s.seat
        seat.total = float(s.total)
        seat.rank = s.rank
        seat.tiebreak.extend(s.tiebreak)
        for line in s.breakdown:
            m = seat.breakdown.add()
            m.category = line.category
            m.points = float(line.points)
            m.detail = line.detail
    return out


def solve_to_pb(result: SolveResult) -> solver_pb.SolveResponse:
    """A puzzle's answer."""
    return solver_pb.SolveResponse(
        kind=result.kind,
        status=_STATUS[result.status],
        objective=float(result.objective),
        bound=float(result.bound),
        answer_json=json.dumps(dict(result.answer), sort_keys=True, default=str),
        explanation=result.explanation,
        method=result.method,
        wall_s=float(result.wall_s),
    )
