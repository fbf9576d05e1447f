"""Helpers for the Tiberius Who? tests: build positions by hand and play notation."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import msgspec

from games.core import GameConfig
from games.core.records import replace
from games.tiberius import TiberiusGame, TiberiusState
from games.tiberius.model import BOX_CODES, EMPTY, Player

PLAYER_FIELDS = frozenset(f.name for f in msgspec.structs.fields(Player))


@lru_cache(maxsize=1)
def game() -> TiberiusGame:
    return TiberiusGame()


def cv(**counts: int) -> tuple[int, ...]:
    """A cube vector from box codes, e.g. ``cv(CQ=2, IN=5)``."""
    bad = set(counts) - set(BOX_CODES)
    assert not bad, bad
    return tuple(counts.get(b, 0) for b in BOX_CODES)


def with_seats(state: TiberiusState, **per_seat: Sequence[object]) -> TiberiusState:
    """``state`` with each named ``Player`` field set seat by seat, e.g.
    ``with_seats(s, cubes=(cv(IN=5), cv(IN=24)), adopted=(0, -1))``."""
    players = tuple(
        replace(p, **{name: values[k] for name, values in per_seat.items()})
        for k, p in enumerate(state.players)
    )
    return replace(state, players=players)


def card(code: str) -> int:
    c = game().pack.card_by_code(code)
    assert c is not None, code
    return c.id


def at_card_phase(
    players: int,
    face_up: list[str],
    *,
    cubes: list[tuple[int, ...]] | None = None,
    priority: int = 0,
    seed: int = 0,
    options: dict[str, str | int | bool] | None = None,
    **fields: object,
) -> TiberiusState:
    """A turn-1 card phase with the given face-up cards (one per deck slot, in order); ``fields`` set
    the state's fields, or a ``Player`` field seat by seat (``adopted=(0, -1)``)."""
    g = game()
    s = g.new_state(GameConfig(players=players, options=options or {}), seed)
    ids = [card(c) for c in face_up]
    slots = [EMPTY] * 6
    for cid in ids:
        slots[g.pack.cards[cid].region] = cid
    decks = tuple(tuple(c for c in d if c not in ids) for d in s.decks)
    # put the previously face-up cards back under their decks so no card is lost
    decks = tuple(
        d + tuple(c for c in s.face_up if c != EMPTY and g.pack.cards[c].region == r and c not in ids)
        for r, d in enumerate(decks)
    )
    s = replace(
        s,
        face_up=tuple(slots),
        decks=decks,
        start_priority=priority,
        priority=priority,
        actor=priority,
    )
    if cubes is not None:
        s = with_seats(s, cubes=cubes)
    per_seat = {k: v for k, v in fields.items() if k in PLAYER_FIELDS}
    if per_seat:
        s = with_seats(s, **per_seat)  # type: ignore[arg-type]
    rest = {k: v for k, v in fields.items() if k not in PLAYER_FIELDS}
    return replace(s, **rest) if rest else s


def run(state: TiberiusState, *texts: str) -> TiberiusState:
    g = game()
    for t in texts:
        state = g.apply(state, g.parse_action(state, t))
    return state


def legal_texts(state: TiberiusState) -> list[str]:
    g = game()
    return [g.action_to_text(state, a) for a in g.legal_actions(state)]
