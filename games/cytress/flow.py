"""The round: who decides next, and the automatic phases between decisions.

rule: cytress/core-concepts - each round has 4 phases: 1 income (simultaneous), 2 scout districts
(in turn order), 3 travel (in turn order; 3B extra travel), 4 reset (simultaneous).
rule: cytress/phase-3b-extra-travel - after all transports have moved, each transport left on Stratos
takes one more travel action (not the Stratolites), one at a time in turn order from the current
first player.
rule: cytress/phase-4-reset - discard the rightmost Stratolite, slide the others right and fill the
leftmost slot; leaders and transports go home; the first player marker's holder starts the next
round, unless the game end was triggered (rule: cytress/game-end-trigger): then the rebellion.
cytress/solo-game-end - a solo game ends after round 5.
rule: cytress/game-end-trigger - a 2-5 player game ends only "at the end of the round where the last of
the game's allocated waste tubes were placed"; the ``round_limit`` variant (off by default) is a
safety cap the rulebook lacks, and :func:`end_condition` tells which end fired.

:func:`advance` runs these automatic steps (and the automa's turns) until a seat must decide.
"""

from __future__ import annotations

from games.core.records import replace
from games.cytress import automa
from games.cytress.board import STRAT_ROW, draw_stratolite
from games.cytress.content import Content
from games.cytress.economy import income
from games.cytress.scouting import scout_options, scouts_per_round
from games.cytress.setup import TRANSPORTS
from games.cytress.state import (
    CHOOSE_SIDE,
    EXTRA,
    NOBODY,
    NONE,
    OVER,
    PAD,
    SCOUT,
    SCOUT_SPOT,
    SIDES,
    TRAVEL,
)
from games.cytress.work import Pos, Work

__all__ = ["END_LIMIT", "END_SOLO", "END_TUBES", "advance", "end_condition", "reset", "start_round"]

END_TUBES = "tubes"
"""The rulebook's end (rule: cytress/game-end-trigger): the round the last allocated section was placed."""
END_SOLO = "solo round 5"
"""The solo end (cytress/solo-game-end): after round 5."""
END_LIMIT = "round limit"
"""The ``round_limit`` variant's cap (not in the rulebook)."""


def advance(content: Content, w: Work) -> None:
    """Run automatic steps until a seat decides or the game is over."""
    while w.step == NONE and w.phase != OVER:
        if w.phase == SIDES:
            _next_side(content, w)
        elif w.phase == SCOUT:
            _next_scout(content, w)
        elif w.phase == TRAVEL:
            _next_travel(content, w)
        else:
            _next_extra(content, w)


def _next_side(content: Content, w: Work) -> None:
    """cytress/solo-setup - each player chooses which side of their rebel board to play
    (reading for every player count: in turn order from the first player, at the start)."""
    n = len(w.players)
    while w.turn < n:
        seat = (w.first + w.turn) % n
        if w.players[seat].side < 0:
            w.step, w.actor = CHOOSE_SIDE, seat
            return
        w.turn += 1
    start_round(content, w)


def start_round(content: Content, w: Work) -> None:
    """A new round: phase 1 income (cytress/phase-1-income), then scouting from the first
    player."""
    w.round += 1
    income(w)
    w.phase, w.turn, w.phase_first = SCOUT, 0, w.first
    w.players = tuple(replace(p, transports=TRANSPORTS) for p in w.players)


def _next_scout(content: Content, w: Work) -> None:
    """cytress/phase-2-scout - in clockwise order from the first player; with 2-3 players
    every leader scouts twice (all once, then again); solo: the automa, you, the automa, you
    (cytress/solo-gameplay). A seat with no open spot skips its scout."""
    n = len(w.players)
    if n == 1:  # solo
        if w.turn >= 4:
            _start_travel(w)
        elif w.turn % 2 == 0:
            (automa.scout_first if w.turn == 0 else automa.scout_second)(content, w)
            w.turn += 1
        elif scout_options(content, w.board_side, n, w.rebels, 0):
            w.step, w.actor = SCOUT_SPOT, 0
        else:
            w.turn += 1
        return
    if w.turn >= scouts_per_round(n) * n:
        _start_travel(w)
        return
    seat = (w.phase_first + w.turn) % n
    if scout_options(content, w.board_side, n, w.rebels, seat):
        w.step, w.actor = SCOUT_SPOT, seat
    else:
        w.turn += 1


def _start_travel(w: Work) -> None:
    """cytress/phase-3a-travel - from the first player, one transport at a time."""
    w.phase, w.turn, w.phase_first = TRAVEL, 0, w.first


def _next_travel(content: Content, w: Work) -> None:
    """cytress/phase-3a-travel - players take turns moving one transport until all 3 of each
    have moved; solo: the automa's turn, then yours, three times (cytress/solo-gameplay)."""
    n = len(w.players)
    solo = n == 1
    total = 2 * TRANSPORTS if solo else TRANSPORTS * n
    if w.turn >= total:
        w.phase, w.turn = EXTRA, w.first % n  # rule: cytress/phase-3b-extra-travel
        return
    if solo:
        if w.turn % 2 == 0:
            if automa.run_turn(content, w):
                w.turn += 1
            return
        w.step, w.actor = PAD, 0
        return
    w.step, w.actor = PAD, (w.phase_first + w.turn) % n


def _next_extra(content: Content, w: Work) -> None:
    """rule: cytress/phase-3b-extra-travel - the next seat (from ``turn``, in turn order) with a
    transport on Stratos takes an extra travel action; none left: reset."""
    players = w.players
    n = len(players)
    for k in range(n):
        seat = (w.turn + k) % n
        if players[seat].on_stratos > 0:
            w.step, w.actor = PAD, seat
            return
    reset(content, w)


def end_condition(s: Pos) -> str:
    """Which end finished the game: ``END_TUBES``, ``END_SOLO`` or ``END_LIMIT`` ("" while it runs).
    The tube trigger wins when it fired in the cap's round too."""
    if s.phase != OVER:
        return ""
    if s.solo:
        return END_SOLO
    return END_TUBES if s.end_triggered else END_LIMIT


def reset(content: Content, w: Work) -> None:
    """rule: cytress/phase-4-reset - the Stratolites move on, leaders and transports go home; the
    rebellion follows the round that triggered the end (rule: cytress/game-end-trigger; solo: round
    5), or the last round of the ``round_limit`` variant when it is set."""
    row = w.strat_row_()
    if row[STRAT_ROW - 1] >= 0:
        w.strat_discard_().append(row[STRAT_ROW - 1])
    for i in range(STRAT_ROW - 1, 0, -1):
        row[i] = row[i - 1]
    row[0] = draw_stratolite(w)
    w.rebels = tuple(replace(r, leader=NOBODY) for r in w.rebels)
    w.players = tuple(replace(p, transports=0, on_stratos=0) for p in w.players)
    if w.end_triggered or (w.round_limit and w.round >= w.round_limit):
        w.phase, w.actor, w.turn = OVER, -1, 0
        return
    start_round(content, w)
