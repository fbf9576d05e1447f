"""What a move leads to, in the game's own terms: the look ahead behind hints and reviews (issue 30).

A hint compares its first two moves by what each leads to, never by how often the search tried it:

- **along the line**: the move, then the search's principal variation (its most visited replies,
  chance outcomes included), then the game's playout policy up to the horizon: the end of the
  round (``Game.round_of``) once every other seat has decided at least once;
- **in expectation**: ``samples`` continuations from the move to the same horizon, each on a fresh
  sample of the mover's view (hidden information) with the dice drawn by their odds and every seat
  played by the game's policy (its ``greedy`` engine if it ships one, else its prior, else at
  random).

At the end of each, ``Game.outcome_facts(state, seat)`` says where the mover stands (VP by scoring
category, coins, tokens, distances); the difference between two moves' facts is the reason.

:func:`hint_order` ranks candidates for a hint by the number it shows first (the search's
pessimistic value of the move, proven values exact), and :func:`interval` / :func:`separated` say
whether the search can tell two moves apart at all.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.core import CHANCE, TERMINAL, Fact, Game, as_facts, make_rng
from games.errors import LictorError
from search.types import Analysis, Candidate, StopFlag

__all__ = [
    "Outcome",
    "hint_order",
    "interval",
    "look_ahead",
    "playout_policy",
    "separated",
    "value_of",
]

MAX_PLIES = 400
"""Longest continuation played to the horizon (a game whose round never ends stops here)."""
Z = 1.96
"""The normal quantile of a 95% interval."""

Policy = Callable[[Any, random.Random], Any]


@dataclass(frozen=True, slots=True, kw_only=True)
class Outcome:
    """What one move leads to for the mover.

    Attributes:
        action: the move's notation.
        line: the moves after it along the line (the search's principal variation, then the
            playout policy to the horizon), in notation.
        line_facts: ``Game.outcome_facts`` for the mover at the end of the line.
        expected: per fact label, the mean over the sampled continuations.
        spread: per fact label, the standard error of that mean (0 with one sample).
        samples: the continuations sampled (0 when none could be played).
        horizon: where the line and the continuations stop, in words ("the end of round 3").
    """

    action: str
    line: tuple[str, ...] = ()
    line_facts: tuple[Fact, ...] = ()
    expected: Mapping[str, float] = field(default_factory=dict)
    spread: Mapping[str, float] = field(default_factory=dict)
    samples: int = 0
    horizon: str = ""


def playout_policy(game: Game[Any, Any]) -> Policy:
    """How a continuation plays every seat: the game's ``greedy`` engine (else its first engine),
    else a draw by its prior, else a uniform draw."""
    engines = game.policies()
    engine = engines.get("greedy") or next(iter(engines.values()), None)
    if engine is not None:
        return engine

    def by_prior(state: Any, rng: random.Random) -> Any:
        actions = list(game.legal_actions(state))
        prior = game.prior(state)
        if prior is not None and len(prior) == len(actions) and sum(prior) > 0:
            return rng.choices(actions, weights=list(prior))[0]
        return rng.choice(actions)

    return by_prior


@dataclass(frozen=True, slots=True)
class _Ahead:
    """One look ahead: the game, the mover, the round it starts in and the playout policy."""

    game: Game[Any, Any]
    seat: int
    start_round: int
    policy: Policy

    def reached(self, state: Any, waiting: set[int]) -> bool:
        """Whether ``state`` is the horizon: the game is over, or every other seat has decided since
        the move (``waiting`` is empty) and the round has changed (when the game counts rounds)."""
        g = self.game
        if g.current_player(state) == TERMINAL:
            return True
        return not waiting and (self.start_round < 0 or g.round_of(state) != self.start_round)

    def waiting(self, state: Any) -> set[int]:
        """The seats that must decide before the horizon."""
        return set(range(self.game.num_players(state))) - {self.seat}

    def play_on(
        self, state: Any, rng: random.Random, waiting: set[int], moves: list[str] | None = None
    ) -> Any:
        """Play ``state`` on to the horizon; the moves' notation into ``moves``."""
        g = self.game
        for _ in range(MAX_PLIES):
            if self.reached(state, waiting):
                break
            player = g.current_player(state)
            action = g.sample_chance(state, rng) if player == CHANCE else self.policy(state, rng)
            waiting.discard(player)
            if moves is not None:
                moves.append(g.action_to_text(state, action))
            state = g.apply_trusted(state, action)
        return state

    def horizon(self, state: Any) -> str:
        """Where a line stopped, in words."""
        if self.game.current_player(state) == TERMINAL:
            return "the end of the game"
        if self.start_round >= 0:
            return f"the end of {self.game.round_word} {self.start_round}"
        return "every other seat's next decision"

    def line(self, state: Any, action: Any, pv: Sequence[str], seed: int) -> Outcome:
        """The move, its principal variation as far as it replays here, then the policy to the horizon."""
        g = self.game
        text = g.action_to_text(state, action)
        s = g.apply(state, action)
        moves: list[str] = []
        waiting = self.waiting(state)
        for step_text in pv[1:]:
            if self.reached(s, waiting):
                break
            player = g.current_player(s)
            try:
                step = g.parse_action(s, step_text)
                if player == CHANCE and step not in {a for a, _ in g.chance_outcomes(s)}:
                    break
                s = g.apply(s, step)
            except LictorError:  # the line was written on another sample of hidden cards
                break
            waiting.discard(player)
            moves.append(step_text)
        end = self.play_on(s, make_rng(seed), waiting, moves)
        facts = tuple(as_facts(g.outcome_facts(end, self.seat)))
        return Outcome(action=text, line=tuple(moves), line_facts=facts, horizon=self.horizon(end))


def look_ahead(
    game: Game[Any, Any],
    state: Any,
    seat: int,
    moves: Sequence[tuple[Any, Sequence[str]]],
    *,
    samples: int = 16,
    seed: int = 0,
    time_s: float = 0.5,
    stop: StopFlag | None = None,
) -> list[Outcome]:
    """What each of ``moves`` (an action and its principal variation, notation starting with the
    move) leads to for ``seat`` from ``state``: along its line and over ``samples`` continuations,
    within ``time_s`` seconds (or until ``stop``) for all of them together.

    ``state`` is the position as the mover may know it (a sample of its view in a game with hidden
    information); the continuations draw fresh samples of the view. A game without
    ``outcome_facts`` gets empty outcomes at once.
    """
    if not as_facts(game.outcome_facts(state, seat)):
        return [Outcome(action=game.action_to_text(state, a)) for a, _ in moves]
    ahead = _Ahead(game, seat, game.round_of(state), playout_policy(game))
    end_at = time.monotonic() + max(0.0, time_s)
    hidden = game.info.hidden_information
    view = game.observation(state, seat) if hidden else None
    out: list[Outcome] = []
    for i, (action, pv) in enumerate(moves):
        try:
            out.append(ahead.line(state, action, pv, seed + i))
        except LictorError:
            out.append(Outcome(action=game.action_to_text(state, action)))
    sums: list[dict[str, list[float]]] = [{} for _ in moves]
    rng = make_rng(seed)
    for _ in range(samples):  # round robin over the moves, so a short budget treats them alike
        for i, (action, _pv) in enumerate(moves):
            if time.monotonic() >= end_at or (stop is not None and stop.is_set()):
                return _finish(out, sums)
            if not out[i].line_facts:
                continue
            try:
                start = game.sample_state(view, seat, rng) if hidden else state
                end = ahead.play_on(game.apply(start, action), rng, ahead.waiting(start))
                facts = as_facts(game.outcome_facts(end, seat))
            except LictorError:
                continue
            for f in facts:
                sums[i].setdefault(f.label, []).append(f.value)
    return _finish(out, sums)


def _finish(out: list[Outcome], sums: list[dict[str, list[float]]]) -> list[Outcome]:
    done = []
    for o, values in zip(out, sums, strict=True):
        expected: dict[str, float] = {}
        spread: dict[str, float] = {}
        n = 0
        for label, xs in values.items():
            n = max(n, len(xs))
            mean = sum(xs) / len(xs)
            expected[label] = mean
            var = sum((x - mean) ** 2 for x in xs) / (len(xs) - 1) if len(xs) > 1 else 0.0
            spread[label] = math.sqrt(var / len(xs))
        done.append(
            Outcome(
                action=o.action,
                line=o.line,
                line_facts=o.line_facts,
                expected=expected,
                spread=spread,
                samples=n,
                horizon=o.horizon,
            )
        )
    return done


# ------------------------------------------------------------------------------------ ranking
def value_of(c: Candidate, seat: int) -> float:
    """The mover's value of a candidate: its proven value when proven, else its mean."""
    if c.proven is not None:
        return float(c.proven)
    return float(c.value[seat]) if 0 <= seat < len(c.value) else 0.0


def interval(c: Candidate, seat: int) -> tuple[float, float]:
    """A 95% interval of the mover's value (Bernoulli bound on the mean; a point when proven)."""
    m = value_of(c, seat)
    if c.proven is not None:
        return m, m
    if c.visits <= 0:
        return 0.0, 1.0
    half = Z * math.sqrt(max(0.0, min(1.0, m) * (1.0 - min(1.0, m))) / c.visits)
    return max(0.0, m - half), min(1.0, m + half)


def separated(a: Candidate, b: Candidate, seat: int) -> bool:
    """Whether the search tells ``a`` and ``b`` apart: their 95% intervals do not overlap."""
    lo_a, hi_a = interval(a, seat)
    lo_b, hi_b = interval(b, seat)
    return lo_a > hi_b or lo_b > hi_a


def hint_order(analysis: Analysis, exact: Mapping[str, float] | None = None) -> list[Candidate]:
    """The candidates in a hint's order, by the number it shows first.

    With ``exact`` values (an exact solver's answer, by notation): by them (moves it did not value
    after), ties by the search's pessimistic value. Else by the search's pessimistic value (the
    lower end of the 95% interval, ``Candidate.lcb``; the exact value when proven): a move the
    search tried a few times with a lucky mean does not stand above a well-searched one, and the
    first number shown never favours a lower-ranked move. Ties keep the search's order.
    """
    cands = list(analysis.candidates)
    if exact:
        known = [c for c in cands if c.text in exact]
        rest = [c for c in cands if c.text not in exact]
        known.sort(key=lambda c: (exact[c.text], c.lcb), reverse=True)
        return known + rest
    return sorted(cands, key=lambda c: c.lcb, reverse=True)
