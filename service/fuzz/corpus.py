"""What makes sense to send (:class:`Corpus`): real games, positions at random depths, seats' and the
spectator's views, moves, the content packs, the puzzle kinds."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

from games.core import CHANCE, SPECTATOR, TERMINAL, GameConfig, game_names, get_game
from lictor.v1 import position_pb2
from service.fuzz.packs import Packs, hostile_pack_names
from solver.core import get_puzzle_spec, puzzle_kinds


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


def harvest(strings: dict[str, list[str]], data: Any, key: str = "") -> None:
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
            harvest(strings, data)
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
