"""How to hold a state (issue 32): the candidate record idioms, one small ``apply`` each.

Run: ``python -m bench.idiom``. Each idiom holds a state of 4 players (8 fields each) and 8 top
fields; one ``apply`` changes two fields of one player and one top field, copying what it changes.
Printed: applies per second and the ratio to ``NamedTuple._replace`` (the idiom Tiberpunk used) in
the same run. The choice (docs/state.md): frozen ``msgspec`` structs replaced by name
(``games.core.records``).
"""

from __future__ import annotations

import copy
import dataclasses
import sys
import time
from collections.abc import Callable
from typing import Any, NamedTuple

import msgspec

from games.core.records import Record, replace, replace_at

N = 100_000


class TPlayer(NamedTuple):
    coins: int
    score: int
    hand: tuple[int, ...]
    a: int
    b: int
    c: int
    d: int
    e: int


class TState(NamedTuple):
    players: tuple[TPlayer, ...]
    turn: int
    phase: int
    deck: tuple[int, ...]
    x: int
    y: int
    z: int
    w: int


def tuple_apply(s: TState, seat: int) -> TState:
    p = s.players[seat]
    p = p._replace(coins=p.coins + 1, score=p.score + 2)
    return s._replace(players=(*s.players[:seat], p, *s.players[seat + 1 :]), turn=s.turn + 1)


@dataclasses.dataclass(frozen=True, slots=True)
class DPlayer:
    coins: int
    score: int
    hand: tuple[int, ...]
    a: int
    b: int
    c: int
    d: int
    e: int


@dataclasses.dataclass(frozen=True, slots=True)
class DState:
    players: tuple[DPlayer, ...]
    turn: int
    phase: int
    deck: tuple[int, ...]
    x: int
    y: int
    z: int
    w: int


def dataclass_apply(s: DState, seat: int) -> DState:
    p = s.players[seat]
    p = dataclasses.replace(p, coins=p.coins + 1, score=p.score + 2)
    return dataclasses.replace(s, players=(*s.players[:seat], p, *s.players[seat + 1 :]), turn=s.turn + 1)


@dataclasses.dataclass(slots=True)
class MPlayer:
    coins: int
    score: int
    hand: tuple[int, ...]
    a: int
    b: int
    c: int
    d: int
    e: int


@dataclasses.dataclass(slots=True)
class MState:
    players: list[MPlayer]
    turn: int
    phase: int
    deck: tuple[int, ...]
    x: int
    y: int
    z: int
    w: int


def mutable_apply(s: MState, seat: int) -> MState:
    s = copy.copy(s)
    s.players = list(s.players)
    p = s.players[seat] = copy.copy(s.players[seat])
    p.coins += 1
    p.score += 2
    s.turn += 1
    return s


class RPlayer(Record, frozen=True):
    coins: int
    score: int
    hand: tuple[int, ...]
    a: int
    b: int
    c: int
    d: int
    e: int


class RState(Record, frozen=True):
    players: tuple[RPlayer, ...]
    turn: int
    phase: int
    deck: tuple[int, ...]
    x: int
    y: int
    z: int
    w: int


def record_apply(s: RState, seat: int) -> RState:
    p = s.players[seat]
    p = replace(p, coins=p.coins + 1, score=p.score + 2)
    return replace(s, players=replace_at(s.players, seat, p), turn=s.turn + 1)


def _rate(apply: Callable[[Any, int], Any], state: Any) -> float:
    best = float("inf")
    for _ in range(3):
        s = state
        start = time.perf_counter()
        for i in range(N):
            s = apply(s, i & 3)
        best = min(best, time.perf_counter() - start)
    return N / best


def main() -> int:
    hand = (1, 2)
    rows: dict[str, tuple[Callable[[Any, int], Any], Any]] = {
        "NamedTuple._replace (baseline)": (
            tuple_apply,
            TState(tuple(TPlayer(0, 0, hand, 0, 0, 0, 0, 0) for _ in range(4)), 0, 0, (), 0, 0, 0, 0),
        ),
        "frozen dataclass + dataclasses.replace": (
            dataclass_apply,
            DState(tuple(DPlayer(0, 0, hand, 0, 0, 0, 0, 0) for _ in range(4)), 0, 0, (), 0, 0, 0, 0),
        ),
        "slotted dataclass, copy.copy then set": (
            mutable_apply,
            MState([MPlayer(0, 0, hand, 0, 0, 0, 0, 0) for _ in range(4)], 0, 0, (), 0, 0, 0, 0),
        ),
        "games.core.records (frozen msgspec struct + replace)": (
            record_apply,
            RState(tuple(RPlayer(0, 0, hand, 0, 0, 0, 0, 0) for _ in range(4)), 0, 0, (), 0, 0, 0, 0),
        ),
    }
    version = sys.version.split()[0]
    print(f"state records, {N:,} applies each (best of 3), msgspec {msgspec.__version__}, Python {version}")
    base = 0.0
    for name, (apply, state) in rows.items():
        rate = _rate(apply, state)
        base = base or rate
        print(f"  {name:<54} {rate / 1e3:8.0f}k applies/s  {rate / base:5.2f}x the baseline")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
