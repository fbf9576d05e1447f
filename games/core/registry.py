"""The registry of games: a game plugs in with one line.

A game is named by its key and built lazily from its ``"module:Class"`` target (the class takes
``content_path=`` as a keyword, "" for the reference pack). Three ways in, all equal:

- the built-in games, one line each in :data:`BUILTIN_GAMES`;
- :func:`register_game` at run time (``register_game("pig", "tests.fixtures.pig:PigGame")``);
- an entry point in the group ``lictor.games`` of any installed distribution, so a third party can
  ship a game as its own package (``[project.entry-points."lictor.games"] mygame =
  "mygame.game:MyGame"``).

A game's solver module (its scorer and puzzle kinds, registered with ``solver.core``) is
``solver.<name>`` for the built-in games, or the ``solver=`` given to :func:`register_game`; an
entry point may name it as ``"module:Class solver_module"``. ``get_game(name)`` returns the game
with its reference content pack (cached); ``get_game(name, content_path=DIR)`` loads a user's pack.
"""

from __future__ import annotations

import importlib
import importlib.util
import threading
from dataclasses import dataclass
from importlib import metadata
from typing import Any

from games.core.cache import clear, memo
from games.core.protocol import Game, GameInfo
from games.errors import UnknownGameError

__all__ = [
    "BUILTIN_GAMES",
    "ENTRY_POINT_GROUP",
    "GameEntry",
    "entries",
    "game_entry",
    "game_names",
    "get_game",
    "list_games",
    "register_game",
    "unregister_game",
]

ENTRY_POINT_GROUP = "lictor.games"
"""The entry-point group third-party games register in."""

BUILTIN_GAMES: dict[str, str] = {
    "tiberpunk": "games.tiberpunk:TiberpunkGame",
    "tiberius": "games.tiberius:TiberiusGame",
    "cyberverse": "games.cyberverse:CyberverseGame",
    "cytress": "games.cytress:CytressGame",
    "ti4": "games.ti4:TI4Game",
}
"""The games that ship with Lictor: name -> ``"module:Class"`` (one line per game)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class GameEntry:
    """How to build a registered game.

    Attributes:
        name: the registry key (``GameInfo.name``).
        target: ``"module:Class"``; the class takes ``content_path=``.
        solver: the module that registers the game's scorer and puzzles ("" = none).
        wire: the module mapping the game's typed gRPC messages (``FORM``; "" = none: the game
            is spoken to through records, JSON and text).
    """

    name: str
    target: str
    solver: str = ""
    wire: str = ""


_ENTRIES: dict[str, GameEntry] = {
    name: GameEntry(name=name, target=target, solver=f"solver.{name}", wire=f"wire.{name}")
    for name, target in BUILTIN_GAMES.items()
}
_LOCK = threading.Lock()


@memo(bound=1)
def _load_entry_points() -> None:
    """Add the games other packages register as entry points (read once)."""
    with _LOCK:
        for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
            target, solver, wire = [*ep.value.split(), "", "", ""][:3]
            entry = GameEntry(name=ep.name, target=target, solver=solver, wire=wire)
            _ENTRIES.setdefault(ep.name, entry)


def _find_spec(module: str) -> object | None:
    """The import spec of ``module`` (None when it, or its package, does not exist), not importing it."""
    try:
        return importlib.util.find_spec(module)
    except ModuleNotFoundError:
        return None


def register_game(name: str, target: str, *, solver: str = "", wire: str = "") -> None:
    """Register (or replace) the game ``name`` built from ``target`` (``"module:Class"``).

    Args:
        name: the registry key; must equal the class's ``info.name``.
        target: ``"module:Class"``, imported on first use.
        solver: the module that registers the game's scorer and puzzle kinds ("" = none).
        wire: the module mapping the game's typed gRPC messages ("" = none).
    """
    if not name or ":" not in target:
        raise ValueError(f"register_game needs a name and a 'module:Class' target, not {name!r}, {target!r}")
    for kind, module in (("solver", solver), ("wire", wire)):
        if module and _find_spec(module) is None:
            raise ValueError(f"register_game({name!r}): the {kind} module {module!r} does not exist")
    _load_entry_points()
    with _LOCK:
        _ENTRIES[name] = GameEntry(name=name, target=target, solver=solver, wire=wire)
    clear(get_game)


def unregister_game(name: str) -> None:
    """Remove a game registered with :func:`register_game` (tests)."""
    with _LOCK:
        _ENTRIES.pop(name, None)
    clear(get_game)


def game_entry(name: str) -> GameEntry:
    """The registration of ``name``; ``UnknownGameError`` naming the known games."""
    _load_entry_points()
    entry = _ENTRIES.get(name)
    if entry is None:
        shown = name if len(name) <= 60 else name[:60] + "..."
        raise UnknownGameError(f"no game named {shown!r}; known games: {game_names()}", field="game")
    return entry


def entries() -> tuple[GameEntry, ...]:
    """Every registration (worker processes are handed those registered at run time)."""
    _load_entry_points()
    with _LOCK:
        return tuple(_ENTRIES.values())


def game_names() -> list[str]:
    """Registered game names, sorted."""
    _load_entry_points()
    return sorted(_ENTRIES)


@memo(bound=32)
def get_game(name: str, *, content_path: str = "") -> Game[Any, Any]:
    """The game registered as ``name``; raises ``UnknownGameError`` naming the known games."""
    entry = game_entry(name)
    module_name, _, attr = entry.target.partition(":")
    cls = getattr(importlib.import_module(module_name), attr)
    game: Game[Any, Any] = cls(content_path=content_path)
    return game


def list_games() -> list[GameInfo]:
    """``GameInfo`` of every registered game, by name."""
    return [get_game(name).info for name in game_names()]
