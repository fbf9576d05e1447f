"""The rules' invariants of a TI4 setup state (a typed-in or deserialized position).

Checked in order, each failure an ``InvalidStateError`` naming the field and the rule: the table,
factions and colours (distinct, in the expansion), every system tile of the blue and red piles
exactly once (in a hand, not dealt, on the galaxy or as the five-player red tile) with each hand
matching the deal, the galaxy equal to the home systems plus the placement record, the record
itself replayed (snake order, ring order, adjacency unless there was no other option, where the
hands are visible), the objectives, and the phase and seat to decide that follow from all this.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from games.core.protocol import Seat
from games.core.records import replace
from games.ti4 import milty
from games.ti4.content import Content, TileId
from games.ti4.placement import legal_placements, open_spaces, snake_seat
from games.ti4.schema import bad
from games.ti4.setup import home_system_tile
from games.ti4.state import (
    COLOR,
    DRAFT,
    FACTION,
    HIDDEN,
    HIDDEN_BLUE,
    HIDDEN_RED,
    OVER,
    PHASE_NAMES,
    PLACE,
    RED,
    SECRET,
    TI4State,
    next_in_order,
)

__all__ = ["check_state", "expected_turn"]


def check_state(state: TI4State, content: Content) -> None:
    """Raise ``InvalidStateError`` unless ``state`` is a position the setup can reach."""
    n = state.players
    if sorted(state.table) != list(range(n)):
        raise bad("table", f"expected the seats 0..{n - 1} once each, got {list(state.table)}")
    _check_people(state, content)
    if state.mode == "rulebook":
        _check_tiles(state, content)
        _check_galaxy(state, content)
        _check_record(state, content)
    else:
        _check_milty(state, content)
    _check_objectives(state, content)
    phase, actor = expected_turn(state, content)
    if state.phase != phase:
        raise bad("step", f"the position is at step {PHASE_NAMES[phase]!r}, not {PHASE_NAMES[state.phase]!r}")
    if state.actor != actor:
        raise bad("to_decide", f"seat {actor} decides here, not {state.actor}")


def _ordered(state: TI4State, chosen: list[bool], field: str, rule: str) -> int:
    """How many seats chose; they must be the first ones from the speaker clockwise."""
    done = sum(chosen)
    if state.speaker < 0:
        if done:
            raise bad(field, "nobody chooses before the speaker is known", rule)
        return 0
    for i in range(done):
        seat = next_in_order(state, i)
        if not chosen[seat]:
            raise bad(
                f"seats[{seat}].{field}",
                f"seat {seat} chooses before the seats after it (speaker first)",
                rule,
            )
    return done


def _check_people(state: TI4State, content: Content) -> None:
    n = state.players
    pool = {f.id for f in content.factions_for(state.expansion)}
    chosen = [f for f in state.factions if f]
    for s, f in enumerate(state.factions):
        if f and f not in pool:
            raise bad(
                f"seats[{s}].faction", f"{f!r} is not a faction of the {state.expansion} game", "ti4/factions"
            )
        if f and state.mode == "milty" and f not in state.offered:
            raise bad(f"seats[{s}].faction", f"{f!r} was not offered in the draft", "ti4/factions")
    if len(set(chosen)) != len(chosen):
        raise bad("seats", "two seats hold the same faction", "ti4/factions")
    colors = set(content.colors_for(state.expansion))
    picked = [c for c in state.colors if c]
    for s, c in enumerate(state.colors):
        if c and c not in colors:
            raise bad(
                f"seats[{s}].color",
                f"{c!r} is not a colour of the {state.expansion} game",
                "ti4/color-and-planets",
            )
    if len(set(picked)) != len(picked):
        raise bad("seats", "two seats hold the same colour", "ti4/color-and-planets")
    if picked and len(chosen) < n:
        raise bad("seats", "colours are chosen after every faction", "ti4/color-and-planets")
    if state.mode == "rulebook":
        layout = content.board.layouts[n]
        if state.homes != layout.homes:
            raise bad(
                "seats", f"home positions must be {list(layout.homes)} for {n} players", "ti4/home-systems"
            )
        if not 0 <= state.speaker < n:
            raise bad("speaker", "the speaker is drawn at the start", "ti4/speaker")
        if state.table != tuple(range(n)):
            raise bad("table", "seats sit in order around the table", "ti4/place-system-tiles")


def _backs(content: Content, tiles: Iterable[TileId]) -> Counter[str]:
    out: Counter[str] = Counter()
    for t in tiles:
        back = "blue" if t == HIDDEN_BLUE else "red" if t == HIDDEN_RED else content.tiles[t].pile
        out[back] += 1
    return out


def _check_tiles(state: TI4State, content: Content) -> None:
    """rule: ti4/deal-system-tiles - every pile tile exactly once; each hand matches the deal."""
    n = state.players
    layout = content.board.layouts[n]
    piles = {b: set(content.pile(b, state.expansion)) for b in ("blue", "red")}
    red_placed = bool(state.placed) and state.red_tile > 0 and state.placed[0].tile == state.red_tile
    if (n == 5) != (state.red_tile != 0):
        raise bad(
            "speakers_red_tile",
            "five players have one extra red tile, others none",
            "ti4/five-player-red-tile",
        )
    if state.red_tile not in (0, HIDDEN_RED) and state.red_tile not in piles["red"]:
        raise bad(
            "speakers_red_tile", f"{state.red_tile} is not a red-backed tile", "ti4/five-player-red-tile"
        )
    held = [t for h in state.hands for t in h] + list(state.undealt)
    held += [pl.tile for pl in state.placed]
    if state.red_tile and not red_placed:
        held.append(state.red_tile)
    known = [t for t in held if t > 0]
    for t in known:
        if t not in piles["blue"] and t not in piles["red"]:
            raise bad(
                "system_tiles",
                f"tile {t} is not in the {state.expansion} blue or red piles",
                "ti4/separate-systems",
            )
    dup = [t for t, c in Counter(known).items() if c > 1]
    if dup:
        raise bad("system_tiles", f"tile {dup[0]} appears twice", "ti4/deal-system-tiles")
    counts = _backs(content, held)
    for back in ("blue", "red"):
        if counts[back] != len(piles[back]):
            raise bad(
                "system_tiles",
                f"{counts[back]} {back}-backed tiles where the pile has {len(piles[back])}",
                "ti4/separate-systems",
            )
    for s in range(n):
        mine = list(state.hands[s]) + [
            pl.tile for pl in state.placed[1 if red_placed else 0 :] if pl.seat == s
        ]
        c = _backs(content, mine)
        if c["blue"] != layout.blue or c["red"] != layout.red:
            raise bad(
                f"seats[{s}].system_tiles_in_hand",
                f"seat {s} was dealt {c['blue']} blue and {c['red']} red; "
                f"{n} players get {layout.blue} and {layout.red}",
                "ti4/deal-system-tiles",
            )


def _check_galaxy(state: TI4State, content: Content) -> None:
    """rule: ti4/home-systems - the galaxy is Mecatol Rex, the home systems and the record."""
    expect = [0] * len(content.board.rings)
    expect[0] = 18
    if state.phase in (PLACE, SECRET, OVER):
        for s in range(state.players):
            expect[state.homes[s]] = home_system_tile(content, state.factions[s])
    for k, pl in enumerate(state.placed):
        if expect[pl.pos]:
            raise bad(
                f"placements[{k}].position",
                f"position {pl.pos} already holds a tile",
                "ti4/place-system-tiles",
            )
        expect[pl.pos] = pl.tile
    for p, (got, want) in enumerate(zip(state.galaxy, expect, strict=True)):
        if got != want:
            raise bad(
                f"galaxy[{p}]",
                f"expected {want or None!r} from the homes and the placements, got {got or None!r}",
                "ti4/place-system-tiles",
            )


def _check_record(state: TI4State, content: Content) -> None:
    """Replay the placements: the red tile, then the snake, ring by ring, adjacency where visible."""
    layout = content.board.layouts[state.players]
    record = list(state.placed)
    galaxy = [0] * len(content.board.rings)
    galaxy[0] = 18
    if state.red_tile and record and record[0].tile == state.red_tile:
        red = record.pop(0)
        if red.seat != state.speaker or content.board.rings[red.pos] != 1:
            raise bad(
                "placements[0]",
                "the speaker places the red tile next to Mecatol Rex",
                "ti4/five-player-red-tile",
            )
        galaxy[red.pos] = red.tile
    elif record and state.red_tile:
        raise bad("placements[0]", "the speaker's red tile is placed first", "ti4/five-player-red-tile")
    if record:
        for s in range(state.players):
            galaxy[state.homes[s]] = home_system_tile(content, state.factions[s])
    hands = [list(h) for h in state.hands]
    for pl in record:
        hands[pl.seat].append(pl.tile)
    offset = len(state.placed) - len(record)
    for i, pl in enumerate(record):
        s, t, p = pl.seat, pl.tile, pl.pos
        at = f"placements[{i + offset}]"
        want = snake_seat(i, state.players, state.table, state.speaker)
        if s != want:
            raise bad(
                f"{at}.seat",
                f"seat {want} places this tile (speaker first, snaking), not {s}",
                "ti4/place-system-tiles",
            )
        if p not in open_spaces(galaxy, content.board, layout):
            raise bad(
                f"{at}.position",
                f"position {p} is not open: each ring is built before the next",
                "ti4/ring-order",
            )
        if all(x > 0 for x in hands[s]) and (t, p) not in legal_placements(
            galaxy, content, layout, hands[s], state.reading
        ):
            raise bad(
                at,
                f"tile {t} at {p} touches a tile it may not while another option existed",
                "ti4/anomaly-adjacency",
            )
        hands[s].remove(t)
        galaxy[p] = t


def _check_milty(state: TI4State, content: Content) -> None:
    n = state.players
    if sorted(state.draft_order) != list(range(n)):
        raise bad("milty.draft_order", "expected every seat once")
    pool = set(content.pile("blue", state.expansion)) | set(content.pile("red", state.expansion))
    tiles = [t for sl in state.slices for t in sl]
    if any(t not in pool for t in tiles) or len(set(tiles)) != len(tiles):
        raise bad("milty.slices", "slices hold distinct tiles of the blue and red piles")
    if len(state.slices) < max(6, n):
        raise bad("milty.slices", f"at least {max(6, n)} slices fill the galaxy")
    if len(set(state.offered)) != len(state.offered) or len(state.offered) < n:
        raise bad("milty.factions_offered", f"at least {n} distinct factions")
    sp = [k for k in state.slice_pick if k >= 0]
    if any(k >= len(state.slices) for k in sp) or len(set(sp)) != len(sp):
        raise bad("seats", "each slice is picked at most once")
    st = [k for k in state.seat_pick if k > 0]
    if len(set(st)) != len(st):
        raise bad("seats", "each seat position is picked at most once")
    if any(state.hands) or state.undealt or state.placed or state.red_tile:
        raise bad("placements", "a Milty draft deals and places no tiles")
    done = milty.picks_made(state)
    counts = Counter(milty.draft_seat(state, i) for i in range(done))
    for s in range(n):
        mine = (state.slice_pick[s] >= 0) + bool(state.factions[s]) + (state.seat_pick[s] > 0)
        if mine != counts.get(s, 0):
            raise bad(
                f"seats[{s}]", f"seat {s} has {mine} picks; the snake order gives it {counts.get(s, 0)}"
            )
    galaxy = [0] * len(content.board.rings)
    galaxy[0] = 18
    expect = state
    if done == 3 * n:
        homes = [home_system_tile(content, f) for f in state.factions]
        expect = milty.assemble(replace(state, galaxy=tuple(galaxy)), content, homes)
        galaxy = list(expect.galaxy)
    if state.galaxy != tuple(galaxy):
        raise bad("galaxy", "the galaxy is Mecatol Rex until the draft ends, then the drafted slices")
    if (expect.speaker, expect.table, expect.homes) != (state.speaker, state.table, state.homes):
        raise bad("speaker", "the speaker, table and homes follow from the seat picks")


def _check_objectives(state: TI4State, content: Content) -> None:
    """rule: ti4/objectives - two secret objectives each, one kept; five stage I and five stage II."""
    decks = {d: {o.id for o in content.objectives_in(d)} for d in ("stage I", "stage II", "secret")}
    for field, ids, deck in (("stage_i", state.stage1, "stage I"), ("stage_ii", state.stage2, "stage II")):
        seen = [o for o in ids if o != HIDDEN]
        if any(o not in decks[deck] for o in seen) or len(set(seen)) != len(seen):
            raise bad(f"objectives.{field}", f"five distinct {deck} objectives", "ti4/objectives")
    if any(o == HIDDEN for o in state.stage1[: state.revealed]) or any(o == HIDDEN for o in state.stage2[:0]):
        raise bad("objectives.stage_i", "revealed objectives are face up", "ti4/objectives")
    drawn = [o for d in state.secret_drawn for o in d if o != HIDDEN]
    if any(o not in decks["secret"] for o in drawn) or len(set(drawn)) != len(drawn):
        raise bad("seats", "secret objectives drawn are distinct secret objectives", "ti4/objectives")
    for s, (d, k) in enumerate(zip(state.secret_drawn, state.secret_kept, strict=True)):
        if k and k != HIDDEN and k not in d:
            raise bad(
                f"seats[{s}].secret_objective_kept", f"{k!r} is not one of the two drawn", "ti4/objectives"
            )
    want = 2 if state.phase == OVER else 0
    if state.revealed != want:
        raise bad(
            "objectives.stage_i_revealed",
            f"{want} stage I objectives are revealed at this step",
            "ti4/objectives",
        )


def expected_turn(state: TI4State, content: Content) -> tuple[int, Seat]:
    """The step and the seat to decide that the position's contents imply."""
    n = state.players
    if state.mode == "milty":
        done = milty.picks_made(state)
        if done < 3 * n:
            _quiet(state, "colors", "secret_kept")
            return DRAFT, milty.draft_seat(state, done)
    else:
        f = _ordered(state, [bool(x) for x in state.factions], "faction", "ti4/factions")
        if f < n:
            _quiet(state, "colors", "secret_kept", "placed")
            return FACTION, next_in_order(state, f)
    c = _ordered(state, [bool(x) for x in state.colors], "color", "ti4/color-and-planets")
    if c < n:
        _quiet(state, "secret_kept", "placed")
        return COLOR, next_in_order(state, c)
    if state.mode == "rulebook":
        red_placed = bool(state.placed) and state.placed[0].tile == state.red_tile
        if state.red_tile and not red_placed:
            _quiet(state, "secret_kept", "placed")
            return RED, state.speaker
        if any(state.hands):
            _quiet(state, "secret_kept")
            index = len(state.placed) - (1 if state.red_tile else 0)
            return PLACE, snake_seat(index, n, state.table, state.speaker)
        layout = content.board.layouts[n]
        goods = tuple(layout.trade_goods.get(state.homes[s], 0) for s in range(n))
        if state.trade_goods != goods:
            raise bad("seats", f"trade goods must be {list(goods)}", "ti4/five-player-trade-goods")
    k = _ordered(state, [bool(x) for x in state.secret_kept], "secret_objective_kept", "ti4/objectives")
    if k < n:
        return SECRET, next_in_order(state, k)
    return OVER, -1


def _quiet(state: TI4State, *fields: str) -> None:
    """Fields that must still be untouched at an earlier step."""
    for name in fields:
        value = getattr(state, name)
        if any(value):
            raise bad(name.replace("_", " "), f"{name} is set before its step comes")
    if any(state.trade_goods):
        raise bad("seats", "trade goods come once the galaxy is built", "ti4/five-player-trade-goods")
