"""``check_game``: the shared conformance check every registered game passes (DESIGN.md).

It plays seeded random games and checks at every step that: random playouts terminate; a state
is terminal iff it has no legal actions; ``apply`` never mutates its input; ``apply_trusted``
equals ``apply``; the same seed gives the same game; ``to_dict``/``from_dict`` and the notation
round-trip; ``returns``/``heuristic`` have one entry per seat; chance outcomes sum to one; a
state sampled from a seat's observation has that same observation; a seat's different moves
read differently in the referee's log; and, in a game with hidden information:

- **every view is a position** (``_check_views``): each viewer's observation (the spectator's,
  every seat's) round-trips, describes, renders and estimates, and either lists exactly the legal
  moves of the full state or refuses by name because it hides what the mover decides on
  (``Game.hides``; a seat's own view never does);
- **no log line tells more than the viewer's view** (``_check_events``): two moves whose results
  the viewer's observation cannot tell apart read the same to that viewer
  (``games.core.views.seen_by`` decides whether the move's notation is shown at all).
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass
from typing import Any

from games.core.face import REFEREE, SPECTATOR, as_facts
from games.core.protocol import CHANCE, TERMINAL, Game, GameConfig
from games.core.rng import derive_seed
from games.core.views import check_known, moves_of, viewers_of
from games.errors import LictorError, WrongSeatError

__all__ = ["CheckReport", "GameCheckError", "check_game", "random_playout"]


class GameCheckError(AssertionError):
    """A game broke the protocol; the message says which check, which seed and which step."""


@dataclass(frozen=True, slots=True)
class CheckReport:
    """What ``check_game`` played.

    Attributes:
        games: number of games played to the end.
        steps: actions applied over all games.
        max_length: the longest game, in actions.
    """

    games: int
    steps: int
    max_length: int


def random_playout(
    game: Game[Any, Any], state: Any, rng: random.Random, *, max_steps: int = 100_000
) -> tuple[Any, int]:
    """Play uniformly random legal actions (chance by its odds) to the end; returns (state, steps)."""
    steps = 0
    while game.current_player(state) != TERMINAL:
        if steps >= max_steps:
            raise GameCheckError(f"playout did not end within {max_steps} steps")
        if game.current_player(state) == CHANCE:
            action = game.sample_chance(state, rng)
        else:
            action = rng.choice(list(game.legal_actions(state)))
        state = game.apply(state, action)
        steps += 1
    return state, steps


def _fail(what: str, seed: int, step: int, game: Game[Any, Any], state: Any) -> GameCheckError:
    try:
        shown = game.state_to_text(state)[:400]
    except Exception as exc:
        shown = f"<state_to_text failed: {exc!r}>"
    return GameCheckError(f"{game.info.name}: {what} (seed {seed}, step {step})\nstate: {shown}")


def _check_state(game: Game[Any, Any], state: Any, seed: int, step: int, rng: random.Random) -> None:
    n = game.num_players(state)
    player = game.current_player(state)
    legal = list(game.legal_actions(state))
    if (player == TERMINAL) != (not legal):
        raise _fail(
            f"terminal is {player == TERMINAL} but {len(legal)} legal actions", seed, step, game, state
        )
    if len(set(legal)) != len(legal):
        raise _fail("legal_actions has duplicates", seed, step, game, state)
    if not (player in (CHANCE, TERMINAL) or 0 <= player < n):
        raise _fail(f"current_player {player!r} is no seat", seed, step, game, state)
    _check_forms(game, state, legal, seed, step)
    _check_values(game, state, legal, seed, step)
    if game.info.hidden_information and 0 <= player < n:
        _check_hidden(game, state, legal, seed, step, rng=rng)
    if game.info.hidden_information:
        _check_views(game, state, legal, seed, step, rng=rng)
        _check_events(game, state, seed, step)
    _check_face(game, state, legal, seed, step)


def _check_forms(game: Game[Any, Any], state: Any, legal: list[Any], seed: int, step: int) -> None:
    """The public form, the state notation and every legal action's notation round-trip."""
    data = game.to_dict(state)
    data2 = json.loads(json.dumps(data))
    back = game.from_dict(data2)
    if back != state or game.to_dict(back) != data:
        raise _fail("to_dict/from_dict does not round-trip", seed, step, game, state)
    # state notation
    text = game.state_to_text(state)
    if game.parse_state(text) != state:
        raise _fail("state_to_text/parse_state does not round-trip", seed, step, game, state)
    # action notation
    for action in legal:
        a_text = game.action_to_text(state, action)
        if game.parse_action(state, a_text) != action:
            raise _fail(f"action notation {a_text!r} does not round-trip", seed, step, game, state)


def _check_values(game: Game[Any, Any], state: Any, legal: list[Any], seed: int, step: int) -> None:
    """Returns, heuristic values and chance probabilities have their shapes."""
    n = game.num_players(state)
    player = game.current_player(state)
    if player == TERMINAL:
        if len(game.returns(state)) != n:
            raise _fail("returns does not have one entry per seat", seed, step, game, state)
    else:
        h = game.heuristic(state)
        if len(h) != n or not all(math.isfinite(x) for x in h):
            raise _fail(f"heuristic {h!r} is not one finite number per seat", seed, step, game, state)
    if player == CHANCE:
        outcomes = list(game.chance_outcomes(state))
        total = sum(p for _, p in outcomes)
        if abs(total - 1.0) > 1e-9 or any(p < 0 for _, p in outcomes):
            raise _fail(f"chance probabilities sum to {total}", seed, step, game, state)
        if sorted(map(repr, (a for a, _ in outcomes))) != sorted(map(repr, legal)):
            raise _fail("chance outcomes differ from legal_actions", seed, step, game, state)


def _check_hidden(
    game: Game[Any, Any], state: Any, legal: list[Any], seed: int, step: int, *, rng: random.Random
) -> None:
    """A sampled state shows the seat to move the same observation, the same legal actions and
    the same face: the seat's view holds nothing its observation does not."""
    player = game.current_player(state)
    obs = game.observation(state, player)
    sampled = game.sample_state(obs, player, rng)
    if game.observation(sampled, player) != obs:
        raise _fail("sample_state is not consistent with the observation", seed, step, game, state)
    if list(game.legal_actions(sampled)) != legal:
        raise _fail("a sampled state offers different legal actions", seed, step, game, state)
    if game.describe(sampled, player) != game.describe(state, player):
        raise _fail("describe(state, seat) shows more than the seat's observation", seed, step, game, state)
    if game.render(sampled, player) != game.render(state, player):
        raise _fail("render(state, seat) shows more than the seat's observation", seed, step, game, state)


def _check_views(
    game: Game[Any, Any], state: Any, legal: list[Any], seed: int, step: int, *, rng: random.Random
) -> None:
    """Every viewer's view of ``state`` is a position every call takes (see the module doc)."""
    player = game.current_player(state)
    texts = [game.action_to_text(state, a) for a in legal]
    for seat in range(game.num_players(state)):
        if game.hides(state, seat):
            raise _fail(f"the full state hides seat {seat}'s secrets", seed, step, game, state)
    for viewer in viewers_of(game, state):
        view = game.observation(state, viewer)
        where = f"the view of viewer {viewer}"
        if game.observation(view, viewer) != view:
            raise _fail(f"{where}: observing it again changes it", seed, step, game, state)
        if game.from_dict(json.loads(json.dumps(game.to_dict(view)))) != view:
            raise _fail(f"{where} does not round-trip through to_dict", seed, step, game, state)
        if game.current_player(view) != player:
            raise _fail(f"{where} has another seat to move", seed, step, game, state)
        try:
            game.describe(view, viewer)
            game.render(view, viewer)
            game.heuristic(view)
            game.sample_state(view, viewer, rng)
            check_known(game, view)
        except WrongSeatError:
            if viewer == player:
                raise _fail(
                    f"{where}: the mover's own view hides its secrets", seed, step, game, state
                ) from None
            continue
        except LictorError:
            continue
        except Exception as exc:
            raise _fail(f"{where} breaks a call: {exc!r}", seed, step, game, state) from exc
        moves = list(game.legal_actions(view)) if player >= 0 else []
        if player >= 0 and [game.action_to_text(view, a) for a in moves] != texts:
            raise _fail(
                f"{where} lists other legal moves but does not say it hides them", seed, step, game, state
            )
        for action in moves[:1]:
            try:
                game.apply(view, action)
                game.explain(view, action)
            except LictorError:
                pass


EVENT_MOVES = 12
"""Moves per state whose log lines ``_check_events`` compares for each viewer."""


def _check_events(game: Game[Any, Any], state: Any, seed: int, step: int) -> None:
    """Moves a viewer cannot tell apart by its view of the result read the same to that viewer."""
    player = game.current_player(state)
    moves = list(moves_of(game, state))[:EVENT_MOVES]
    results = [game.apply(state, a) for a in moves]
    for viewer in viewers_of(game, state):
        if viewer == player:
            continue
        seen: list[tuple[Any, Any, str, Any]] = []
        for action, result in zip(moves, results, strict=True):
            view = game.observation(result, viewer)
            line = game.log_line(state, action, viewer)
            for other, other_result, other_line, other_view in seen:
                if other_view == view and other_result != result and other_line != line:
                    raise _fail(
                        f"viewer {viewer} cannot tell {game.action_to_text(state, other)!r} from "
                        f"{game.action_to_text(state, action)!r} but reads {other_line!r} and {line!r}",
                        seed,
                        step,
                        game,
                        state,
                    )
            seen.append((action, result, line, view))


FACE_ACTIONS = 12
"""Legal actions per state whose log line and explanation ``check_game`` reads."""


def _check_face(game: Game[Any, Any], state: Any, legal: list[Any], seed: int, step: int) -> None:
    """The face answers on every state: describe, render, log lines, explanations."""
    player = game.current_player(state)
    viewers = [REFEREE, SPECTATOR, *range(game.num_players(state))]
    for viewer in viewers:
        d = game.describe(state, viewer)
        if not d.headline or not isinstance(d.to_text(80), str):
            raise _fail(f"describe(state, {viewer}) has no headline", seed, step, game, state)
    svg = game.render(state, player if player >= 0 else REFEREE)
    if not svg.lstrip().startswith("<svg") or not svg.rstrip().endswith("</svg>"):
        raise _fail("render is not an SVG document", seed, step, game, state)
    seen: dict[str, Any] = {}
    for action in legal[:FACE_ACTIONS]:
        for viewer in (SPECTATOR, REFEREE):
            line = game.log_line(state, action, viewer)
            if not isinstance(line, str) or not line:
                raise _fail(f"log_line is empty for {action!r}", seed, step, game, state)
        if player >= 0 and seen.setdefault(line, action) != action:
            raise _fail(f"two moves read the same in the log: {line!r}", seed, step, game, state)
        if player >= 0:
            for fact in as_facts(game.explain(state, action)):
                if not math.isfinite(fact.value):
                    raise _fail(f"explain gives a non-finite fact {fact!r}", seed, step, game, state)


def _play(
    game: Game[Any, Any], config: GameConfig, seed: int, max_steps: int, thorough: bool
) -> tuple[list[str], int]:
    rng = random.Random(derive_seed(seed, "check"))
    sample_rng = random.Random(derive_seed(seed, "sample"))  # kept apart so checks don't shift play
    state = game.new_state(config, seed)
    log: list[str] = []
    step = 0
    while True:
        if thorough:
            _check_state(game, state, seed, step, sample_rng)
        player = game.current_player(state)
        if player == TERMINAL:
            return log, step
        if step >= max_steps:
            raise _fail(f"game did not end within {max_steps} steps", seed, step, game, state)
        if player == CHANCE:
            action = game.sample_chance(state, rng)
        else:
            action = rng.choice(list(game.legal_actions(state)))
        before = game.to_dict(state) if thorough else None
        log.append(game.action_to_text(state, action))
        nxt = game.apply(state, action)
        if thorough and game.to_dict(state) != before:
            raise _fail(f"apply mutated its input ({log[-1]!r})", seed, step, game, state)
        if thorough and game.apply_trusted(state, action) != nxt:
            raise _fail(f"apply_trusted differs from apply ({log[-1]!r})", seed, step, game, state)
        state = nxt
        step += 1


def check_game(
    game: Game[Any, Any],
    *,
    players: int,
    seeds: range | list[int] = range(5),
    options: dict[str, Any] | None = None,
    max_steps: int = 20_000,
    thorough: bool = True,
) -> CheckReport:
    """Run the conformance checks over random games, one per seed. Raises ``GameCheckError``.

    Args:
        game: the game under test.
        players: seats per game.
        seeds: one game per seed.
        options: variant options for the config.
        max_steps: a game longer than this fails the "playouts terminate" check.
        thorough: check every state (slow); False only plays, checks termination and determinism.
    """
    config = GameConfig(players=players, options=options or {})
    total = longest = 0
    seeds = list(seeds)
    first: list[str] = []
    for i, seed in enumerate(seeds):
        log, steps = _play(game, config, seed, max_steps, thorough)
        first = log if i == 0 else first
        total += steps
        longest = max(longest, steps)
    # determinism: the first seed again gives the same game
    if seeds:
        again, _ = _play(game, config, seeds[0], max_steps, False)
        if again != first:
            raise GameCheckError(f"{game.info.name}: seed {seeds[0]} does not replay the same game")
    return CheckReport(games=len(seeds), steps=total, max_length=longest)
