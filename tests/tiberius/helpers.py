"""Helpers for the Tiberius Who? tests: build positions by hand and play notation."""

from __future__ import annotations

from functools import lru_cache

from games.core import GameConfig
from games.core.records import replace
from games.tiberius import TiberiusGame, TiberiusState
from games.tiberius.model import BOX_CODES, EMPTY


@lru_cache(maxsize=1)
def game() -> TiberiusGame:
    return TiberiusGame()


def cv(**counts: int) -> tuple[int, ...]:
    """A cube vector from box codes, e.g. ``cv(CQ=2, IN=5)``."""
    bad = set(counts) - set(BOX_CODES)
    assert not bad, bad
    return tuple(counts.get(b, 0) for b in BOX_CODES)


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
    """A turn-1 card phase with the given face-up cards (one per deck slot, in order)."""
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
        cubes=tuple(cubes) if cubes is not None else s.cubes,
    )
    return replace(s, **fields) if fields else s  # type: ignore[arg-type]


def run(state: TiberiusState, *texts: str) -> TiberiusState:
    g = game()
    for t in texts:
        state = g.apply(state, g.parse_action(state, t))
    return state


def legal_texts(state: TiberiusState) -> list[str]:
    g = game()
    return [g.action_to_text(state, a) for a in g.legal_actions(state)]
