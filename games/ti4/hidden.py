"""Hidden information: what a seat may see, and a full state consistent with it (ISMCTS).

Secret: the tiles dealt to each player (rule: ti4/deal-system-tiles - dealt face down; a player
sees their own once dealt, and everyone sees how many blue and red backs each holds), the tiles
nobody was dealt, the five-player red tile until the speaker draws it, the secret objectives (a
player sees their own two once drawn, then the one kept), the face-down public objectives and the
order of the decks. Everything placed on the galaxy is face up.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.core.protocol import Seat
from games.core.records import replace
from games.ti4.content import Content, TileId
from games.ti4.state import (
    COLOR,
    DRAFT,
    FACTION,
    HIDDEN,
    HIDDEN_BLUE,
    HIDDEN_RED,
    OVER,
    PLACE,
    RED,
    SECRET,
    TI4State,
)

__all__ = ["hides", "observe", "sample", "unseen_tiles"]


def _mask(content: Content, tiles: Sequence[TileId]) -> tuple[TileId, ...]:
    return tuple(
        sorted(
            t if t < 0 else (HIDDEN_BLUE if content.tiles[t].back == "blue" else HIDDEN_RED) for t in tiles
        )
    )


def dealt(state: TI4State) -> bool:
    """Whether the system tiles have been dealt (STEP 6.ii follows the colours)."""
    return state.phase not in (FACTION, COLOR, DRAFT)


def observe(state: TI4State, content: Content, seat: Seat) -> TI4State:
    """``state`` as ``seat`` sees it (a seat outside 0..players-1: a spectator, public only)."""
    n = state.players
    hands = tuple(h if (s == seat and dealt(state)) else _mask(content, h) for s, h in enumerate(state.hands))
    red = state.red_tile
    if red and not dealt(state):
        red = HIDDEN_RED
    objectives_out = state.phase in (SECRET, OVER)
    drawn = tuple(
        d if (s == seat and objectives_out) else tuple(HIDDEN for _ in d)
        for s, d in enumerate(state.secret_drawn)
    )
    kept = tuple(k if (s == seat or not k) else HIDDEN for s, k in enumerate(state.secret_kept))
    stage1 = tuple(o if i < state.revealed else HIDDEN for i, o in enumerate(state.stage1))
    stage2 = tuple(HIDDEN for _ in state.stage2)
    del n
    return replace(
        state,
        hands=hands,
        undealt=_mask(content, state.undealt),
        red_tile=red,
        secret_drawn=drawn,
        secret_kept=kept,
        stage1=stage1,
        stage2=stage2,
    )


def hides(state: TI4State, seat: Seat) -> str:
    """What ``seat``'s decision depends on that ``state`` (another seat's view) does not show: its
    system tiles while tiles are placed, the red tile the speaker places, its secret objectives
    while one is kept ("" when nothing)."""
    if not 0 <= seat < state.players:
        return ""
    if state.phase == PLACE and any(t < 0 for t in state.hands[seat]):
        return f"seat {seat}'s system tiles"
    if state.phase == RED and state.red_tile < 0:
        return "the red tile the speaker draws"
    if state.phase == SECRET and (HIDDEN in state.secret_drawn[seat] or state.secret_kept[seat] == HIDDEN):
        return f"seat {seat}'s secret objectives"
    return ""


def unseen_tiles(obs: TI4State, content: Content) -> dict[str, list[TileId]]:
    """The tiles of each setup pile (``blue``, ``red``) that ``obs`` does not show anywhere: what a
    hidden tile of that back may be."""
    visible: set[TileId] = {t for t in obs.galaxy if t > 0}
    for h in obs.hands:
        visible |= {t for t in h if t > 0}
    visible |= {t for t in obs.undealt if t > 0}
    if obs.red_tile > 0:
        visible.add(obs.red_tile)
    return {
        back: sorted(t for t in content.pile(back, obs.expansion) if t not in visible)
        for back in ("blue", "red")
    }


def _fill(tiles: Sequence[TileId], pools: dict[str, list[TileId]]) -> tuple[TileId, ...]:
    out = []
    for t in tiles:
        if t == HIDDEN_BLUE:
            out.append(pools["blue"].pop())
        elif t == HIDDEN_RED:
            out.append(pools["red"].pop())
        else:
            out.append(t)
    return tuple(sorted(out))


def sample(obs: TI4State, content: Content, seat: Seat, rng: random.Random) -> TI4State:
    """A full state consistent with ``obs`` (what ``seat`` sees): hidden tiles and objectives drawn
    at random from those the seat has not seen, backs and counts kept."""
    pools = unseen_tiles(obs, content)
    for back in pools:
        rng.shuffle(pools[back])
    red = obs.red_tile
    if red == HIDDEN_RED:
        red = pools["red"].pop()
    hands = tuple(_fill(h, pools) for h in obs.hands)
    undealt = _fill(obs.undealt, pools)
    seen: set[str] = {o for o in (*obs.stage1, *obs.stage2) if o != HIDDEN}
    for d in obs.secret_drawn:
        seen |= {o for o in d if o != HIDDEN}
    seen |= {k for k in obs.secret_kept if k and k != HIDDEN}

    def pool(deck: str) -> list[str]:
        ids = [o.id for o in content.objectives_in(deck) if o.id not in seen]
        rng.shuffle(ids)
        return ids

    stage1_pool, stage2_pool, secret_pool = pool("stage I"), pool("stage II"), pool("secret")
    stage1 = tuple(stage1_pool.pop() if o == HIDDEN else o for o in obs.stage1)
    stage2 = tuple(stage2_pool.pop() if o == HIDDEN else o for o in obs.stage2)
    drawn: list[tuple[str, ...]] = []
    kept: list[str] = []
    for d, k in zip(obs.secret_drawn, obs.secret_kept, strict=True):
        if any(o == HIDDEN for o in d):
            new = sorted(secret_pool.pop() for _ in d)
            drawn.append(tuple(new))
            kept.append(rng.choice(new) if k == HIDDEN else k)
        else:
            drawn.append(d)
            kept.append(k)
    del seat
    return replace(
        obs,
        hands=hands,
        undealt=undealt,
        red_tile=red,
        secret_drawn=tuple(drawn),
        secret_kept=tuple(kept),
        stage1=stage1,
        stage2=stage2,
    )
