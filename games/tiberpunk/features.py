"""Tiberpunk's fitted win model: what a player reads off the table, weighed by self-play.

:func:`win_features` gives each seat a vector of named features (:data:`FEATURES`) a Tiberpunk player
would recognise: the triumph tokens placed, the hand-written evaluation's own estimate
(:func:`games.tiberpunk.ai.heuristic`, as a log-chance, so the fit starts from it), its potential in
tokens, how far the game has run, coins, gadgets, spaceship cards, shackles, stages held, and how
close the nearest lictor drone stands to the seat's character. :func:`fitted_heuristic` turns them
into win chances with the weights of ``fitted.json`` (a conditional logit, ``games/core/fitted.py``),
trained by ``lictor train tiberpunk`` (``batch/selfplay.py``). Nothing here is a rule: it reads
states as ``ai.py`` does, on the position a roll, combat or reward in progress settles to.
"""

from __future__ import annotations

import math
from importlib import resources
from typing import TYPE_CHECKING

from games.core.cache import PerContent, memo
from games.core.fitted import FittedPrior, WinModel, fitted_evaluator, load_model, win_chances
from games.core.protocol import Evaluator
from games.tiberpunk import actions as act
from games.tiberpunk import ai
from games.tiberpunk.end import standings
from games.tiberpunk.state import CHAR, DRONE, LICTOR, PH_MAIN, PH_OVER, State

if TYPE_CHECKING:
    from games.tiberpunk.game import TiberpunkGame

__all__ = [
    "FEATURES",
    "PRIOR_FEATURES",
    "evaluator",
    "fitted_heuristic",
    "fitted_prior",
    "model",
    "prior_features",
    "prior_model",
    "win_features",
]

FEATURES = (
    "hand-written log-chance",
    "triumph tokens",
    "triumph tokens x game run",
    "potential (tokens)",
    "potential x game run",
    "coins",
    "gadget cards",
    "spaceship cards",
    "shackled miniatures",
    "storyline stages held",
    "lictor next to character",
    "standing now x final round",
)
"""The features of each seat, in order (the names the shipped model's weights are given by):

- hand-written log-chance: the log of :func:`ai.heuristic`'s chance for the seat (weight 1 and
  nothing else is the hand-written evaluation itself);
- triumph tokens: placed on the seat's objective cards; "x game run" is the same times the share of
  the game run (the leader's tokens over the tokens that end the game, or the rounds over the cap
  when that is nearer);
- potential: :func:`ai.potentials` (tokens plus progress toward the next ones), and times the game run;
- coins (at most 15 count), gadget cards in hand, spaceship cards, shackled miniatures;
- storyline stages held: Stage II or III cards held and storylines complete;
- lictor next to character: 1 when a lictor drone stands within one district of the seat's
  character (its quests there roll once), else 0;
- standing now x final round: the standings as ``returns`` would give them now, in the final round
  only (the end is triggered or the round cap reached).
"""

FOR_LEVELS = False
"""Whether the AI's strength levels search with the fitted model (``Evaluator.levels``): only where
the head-to-head at equal time (``python -m bench.fitted``) measured it stronger than the hand-written
evaluation; see docs/search.md, "Fitted evaluators". Not so far: the shipped model (cross-validated on
200 self-play games) stays at the hand-written evaluation and scored 52.4% [46.9, 57.8] against it
over 317 games at 30 ms a move (target 60%). A leaner model tried after it (4 of these features, a
leaf 47 µs instead of 56) scored 54.2% [49.4, 59.1] against it and 67.1% [62.4, 71.5] against
OpenSpiel's MCTSBot over 400 games each (this one: 74.5% over 290), so it was not kept."""

MODEL_FILE = "fitted.json"
"""The shipped model (package data of ``games.tiberpunk``)."""


def model() -> WinModel:
    """The shipped fitted model (read once: :func:`games.core.fitted.load_model`)."""
    return load_model("games.tiberpunk", MODEL_FILE)


def game_run(game: TiberpunkGame, state: State) -> float:
    """The share of the game run, 0 at the start to 1 at the end: the leader's triumph tokens over
    the tokens that end the game, or the rounds played over the ``max_rounds`` cap when that is more."""
    run = max(sum(p.otoks) for p in state.players) / game.pack.end_tokens
    cap = state.cfg.max_rounds
    if cap:
        run = max(run, state.rnd / cap)
    return min(1.0, run)


def win_features(game: TiberpunkGame, state: State) -> list[tuple[float, ...]]:
    """Per seat, the features of :data:`FEATURES` (on the position ``state`` settles to)."""
    state = ai.settled(game, state)
    if state.phase == PH_OVER:
        chances = game.returns(state)
    else:
        chances = ai.heuristic(game, state)
    pot = ai.potentials(game, state)
    run = game_run(game, state)
    cap = state.cfg.max_rounds
    final = state.end or bool(cap and state.rnd >= cap) or state.phase == PH_OVER
    now = standings(state) if final else (0.0,) * len(state.players)
    dist = game.rules.board.dist
    out: list[tuple[float, ...]] = []
    for seat, p in enumerate(state.players):
        tokens = float(sum(p.otoks))
        near = p.char >= 0 and any(dist[p.char][x] <= 1 for x in state.lictors)
        out.append(
            (
                math.log(max(chances[seat], 1e-4)),
                tokens,
                tokens * run,
                pot[seat],
                pot[seat] * run,
                float(min(p.coins, 15)),
                float(len(p.hand)),
                float(sum(p.ships)),
                float(p.shackles.bit_count()),
                float(sum(min(s, 2) for s in p.story) + sum(s == 3 for s in p.story)),
                1.0 if near else 0.0,
                now[seat],
            )
        )
    return out


def fitted_heuristic(game: TiberpunkGame, state: State) -> tuple[float, ...]:
    """Each seat's chance to win by the fitted model (a finished game gives ``returns``)."""
    if state.phase == PH_OVER:
        return game.returns(state)
    m = model()
    return win_chances(m.weights_for(len(state.players)), win_features(game, state))


PRIOR_FEATURES = (
    "hand-written prior logit",
    "one-ply gain (tokens)",
    "moves the character",
    "moves the drone",
    "moves a lictor drone",
    "coins paid",
    "plays a spaceship card",
    "Stage I quest",
    "Stage II quest",
    "Stage III quest",
    "combat",
    "takes income",
    "visits a structure",
    "spaceship interaction",
    "divine favor",
    "removes shackles",
    "ends the turn",
)
"""The features of each legal action of the main phase, in order (the fitted prior's weights are
given by these names):

- hand-written prior logit: the logit of :func:`ai.prior` for the action (weight 1 and nothing else
  is the hand-written prior itself); one-ply gain: :func:`ai.move_gains`, within [-2, 2] tokens;
- the kind of action, 1 or 0 (rule: movement, interaction-wheel, divine-favor, shackles): which
  miniature moves, which interaction (a quest of each stage, a combat, income, a structure: temple,
  hub or side-objective site; a spaceship), divine favor, removing shackles, ending the turn;
- coins paid for a movement, and whether the action plays a spaceship card for its token.
"""

PRIOR_FILE = "fitted_prior.json"
"""The shipped prior (package data of ``games.tiberpunk``), when one is shipped."""

_INTERACTIONS = {
    (act.IT_CHARACTER, act.SUB_Q1): "Stage I quest",
    (act.IT_DRONE, act.SUB_Q1): "Stage I quest",
    (act.IT_CHARACTER, act.SUB_Q2): "Stage II quest",
    (act.IT_DRONE, act.SUB_Q2): "Stage II quest",
    (act.IT_CHARACTER, act.SUB_Q3): "Stage III quest",
    (act.IT_DRONE, act.SUB_Q3): "Stage III quest",
    (act.IT_CHARACTER, act.SUB_FIGHT): "combat",
    (act.IT_DRONE, act.SUB_FIGHT): "combat",
}
_AT = {name: i for i, name in enumerate(PRIOR_FEATURES)}


def _kind(a: int) -> tuple[str, int, bool]:
    """The action's kind (a name of :data:`PRIOR_FEATURES`, "" for none), the coins it pays, and
    whether it plays a spaceship card."""
    o = a & 31
    if o == act.OP_MOVE:
        via, mini, _src, _dst, pay = act.move_fields(a)
        kind = {CHAR: "moves the character", DRONE: "moves the drone", LICTOR: "moves a lictor drone"}
        return kind.get(mini, ""), pay, bool(via)
    if o == act.OP_INTERACT:
        via, it, sub, *_ = act.interact_fields(a)
        if it == act.IT_INCOME:
            name = "takes income"
        elif it == act.IT_STRUCTURE:
            name = "visits a structure"
        elif it == act.IT_SPACESHIP:
            name = "spaceship interaction"
        else:
            name = _INTERACTIONS.get((it, sub), "")
        return name, 0, via >= act.VIA_SHIP
    if o == act.OP_UNSHACKLE:
        return "removes shackles", 0, bool(act.move_fields(a)[0])
    return {act.OP_FAVOR: "divine favor", act.OP_END: "ends the turn"}.get(o, ""), 0, False


def prior_features(game: TiberpunkGame, state: State) -> list[tuple[float, ...]] | None:
    """Per legal action of the main phase, the features of :data:`PRIOR_FEATURES` (None elsewhere)."""
    gains = ai.move_gains(game, state)
    if gains is None:
        return None
    out: list[tuple[float, ...]] = []
    for a, gain in zip(game.legal_actions(state), gains, strict=True):
        row = [0.0] * len(PRIOR_FEATURES)
        row[0] = ai.prior_logit(gain)
        row[1] = max(-2.0, min(2.0, gain))
        kind, pay, ship = _kind(a)
        if kind:
            row[_AT[kind]] = 1.0
        row[5] = float(pay)
        row[6] = 1.0 if ship else 0.0
        out.append(tuple(row))
    return out


@memo(bound=None)
def prior_model() -> WinModel | None:
    """The shipped fitted prior (a conditional logit over the legal actions), or None when the
    package ships none (looked up once: every fitted-prior call and every search asks)."""
    if not resources.files("games.tiberpunk").joinpath(PRIOR_FILE).is_file():
        return None
    return load_model("games.tiberpunk", PRIOR_FILE)


_PRIORS: PerContent[object, dict[tuple[object, ...], tuple[float, ...]]] = PerContent(lambda rules: {})


def fitted_prior(game: TiberpunkGame, state: State) -> tuple[float, ...] | None:
    """Move priors by the fitted prior (None outside the main phase or when none is shipped), cached
    on what the mover knows (:func:`ai.mover_knows`), as the hand-written prior is."""
    m = prior_model()
    if m is None or state.phase != PH_MAIN:
        return None
    cache = _PRIORS(game.rules)
    key = ai.mover_knows(state)
    got = cache.get(key)
    if got is not None and len(got) == len(game.legal_actions(state)):
        return got
    rows = prior_features(game, state)
    if rows is None:
        return None
    if len(cache) > 8192:  # bounded (and kept small: the collector walks it)
        cache.clear()
    got = cache[key] = win_chances(m.weights_for(len(state.players)), rows)
    return got


def evaluator(game: TiberpunkGame) -> Evaluator:
    """The ``"fitted"`` evaluator: :func:`fitted_heuristic`, with :func:`fitted_prior` when one is
    shipped (else the game's own prior)."""
    return fitted_evaluator(
        model(),
        lambda state: fitted_heuristic(game, state),
        lambda state: win_features(game, state),
        FEATURES,
        levels=FOR_LEVELS,
        prior=FittedPrior(
            prior=(lambda state: fitted_prior(game, state)) if prior_model() is not None else None,
            features=lambda state: prior_features(game, state),
            feature_names=PRIOR_FEATURES,
        ),
    )
