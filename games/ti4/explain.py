"""Hint facts about one decision (``Game.explain``): what it gains the mover now, the same labels on
every candidate of a decision so a hint can say why #1 beats #2 (issue 30).

Placements are read from the mover's view like the hint's exact advice (``games.ti4.outcomes``): home
values count every open space at the expected tile still to place.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from games.core.face import Fact
from games.core.text import plural
from games.ti4 import ai
from games.ti4.balance import TERM_NAMES, TILE_UNIT, HomeReport, tile_terms
from games.ti4.content import Content, Tile
from games.ti4.face import pack_name, slice_totals, tile_words, where
from games.ti4.outcomes import placement_values
from games.ti4.placement import conflicts
from games.ti4.state import TI4Action, TI4State

if TYPE_CHECKING:
    from games.ti4.game import TI4Game

__all__ = ["explain", "hexes"]


def explain(game: TI4Game, state: TI4State, action: TI4Action) -> list[Fact]:
    """What a decision gains the mover now: a placement's home value for the mover and the rival it
    helps most, the tile, its distances and its kind; a faction's home system; a Milty slice's
    values; a seat position. A colour or a secret objective changes nothing in the balance."""
    seat = state.actor
    if seat < 0 or action not in game.legal_actions(state):
        return []
    if action.kind == "place":
        return _place(game, state, action)
    if action.kind == "color":  # STEP 4: a colour changes nothing in the balance
        return [
            Fact(
                label="balance",
                value=0.0,
                text=f"plays {action.name}: the colour changes nothing in the balance",
            )
        ]
    if action.kind == "keep":  # STEP 12: the other card goes back; the galaxy is the same
        return [Fact(label="balance", value=0.0, text=f"keeps {pack_name(game, action.name)} secret")]
    if action.kind == "faction":
        return _faction(game, action.name)
    if action.kind == "slice":
        return _slice(game, state, action.pos)
    if action.kind == "seat":
        return [
            Fact(
                label="seat position",
                value=float(action.pos),
                better=-1,
                text=f"seat {action.pos}" + (" (speaker: places first)" if action.pos == 1 else ""),
            )
        ]
    return []


def _faction(game: TI4Game, faction: str) -> list[Fact]:
    """A faction pick (STEP 2): the faction's home system in words and numbers (the totals said once: a
    one-planet home's totals are its planet's, so they read as the home system's line itself)."""
    f = game.pack.faction(faction)
    planets = game.pack.tiles[f.home].planets if f else ()
    r = sum(p.resources for p in planets)
    i = sum(p.influence for p in planets)
    home = f"{f.name}: home system tile {f.home} ({tile_words(game.pack, f.home)})" if f else faction
    totals = home if len(planets) <= 1 else f"home planets in total: {r} resources, {i} influence"
    value = ai.faction_value(game.pack, faction)
    return [
        Fact(label="home system planets", value=float(len(planets)), better=1, text=home),
        Fact(label="home system resources", value=float(r), unit="resources", better=1, text=totals),
        Fact(label="home system influence", value=float(i), unit="influence", better=1, text=totals),
        Fact(
            label="home system optimal value",
            value=value,
            unit="points",
            better=1,
            text=f"home planets worth {value:g} (the larger of resources and influence of each); the home "
            "value measures the galaxy around a home, not its own planets",
        ),
    ]


def _slice(game: TI4Game, state: TI4State, k: int) -> list[Fact]:
    """A Milty slice's value and what it holds."""
    sl = state.slices[k]
    v = ai.slice_value(game.pack, sl, game.weights)
    sr, si, worm, legend = slice_totals(game.pack, sl)
    anomalies = sum(1 for t in sl if game.pack.tiles[t].anomalies)
    specs = [p.specialty for t in sl for p in game.pack.tiles[t].planets if p.specialty]
    parts = [sum(tile_terms(game.pack.tiles[t], game.weights)[j] for t in sl) for j in range(len(TERM_NAMES))]
    how = " + ".join(f"{name} {x / TILE_UNIT:g}" for name, x in zip(TERM_NAMES, parts, strict=True) if x)
    return [
        Fact(
            label="slice value",
            value=v,
            unit="points",
            better=1,
            text=f"slice value {v:.2f} points" + (f" = {how}" if how else ""),
        ),
        Fact(label="optimal resources in the slice", value=sr, unit="resources", better=1),
        Fact(label="optimal influence in the slice", value=si, unit="influence", better=1),
        Fact(label="wormholes in the slice", value=float(worm), better=1),
        Fact(label="legendary planets in the slice", value=float(legend), better=1),
        Fact(label="anomalies in the slice", value=float(anomalies), better=-1),
        Fact(
            label="technology specialties in the slice",
            value=float(len(specs)),
            better=1,
            text="technology specialties in the slice: " + (", ".join(specs) or "none"),
        ),
        Fact(
            label="systems in the slice",
            value=float(len(sl)),
            text="systems in the slice: " + ", ".join(str(t) for t in sl),
        ),
    ]


def hexes(content: Content, a: int, b: int) -> int:
    """Hexes between two positions (plain distance on the board)."""
    (q1, r1), (q2, r2) = content.board.coords[a], content.board.coords[b]
    return (abs(q1 - q2) + abs(r1 - r2) + abs(q1 + r1 - q2 - r2)) // 2


def _distance_text(dist: list[int], seat: int) -> str:
    """``"2 hexes from your home, nearer yours than any rival's"``."""
    mine = dist[seat]
    rivals = [k for k in range(len(dist)) if k != seat and dist[k] < 99]
    text = f"{plural(mine, 'hex', 'hexes')} from your home" if mine < 99 else "your home is not placed yet"
    if not rivals:
        return text
    nearest = min(rivals, key=lambda k: (dist[k], k))
    if dist[nearest] < mine:
        return text + f"; nearer seat {nearest}'s home ({plural(dist[nearest], 'hex', 'hexes')})"
    if dist[nearest] == mine:
        return text + f", as far as seat {nearest}'s home"
    return text + ", nearer yours than any rival's"


def _kind(tile: Tile) -> list[Fact]:
    """Whether the tile is an anomaly, and its wormholes: what it forbids next to it later (the
    adjacency rules of ``placement.py``)."""
    unless = "unless there is no other option"
    kind = tile.anomalies[0].replace("-", " ") if tile.is_anomaly else ""
    worm = " and ".join(tile.wormholes)
    article = "an" if worm[:1] in "aeiou" else "a"
    return [
        Fact(
            label="anomaly",
            value=1.0 if tile.is_anomaly else 0.0,
            text=f"an anomaly ({kind}): no anomaly may go next to it {unless}" if kind else "not an anomaly",
        ),
        Fact(
            label="wormholes on the tile",
            value=float(len(tile.wormholes)),
            text=f"{article} {worm} wormhole: no other {worm} wormhole may go next to it {unless}"
            if worm
            else "no wormhole",
        ),
    ]


def _neighbour_anomalies(game: TI4Game, state: TI4State, pos: int) -> list[int]:
    """The anomalies already placed next to ``pos``."""
    tiles = game.pack.tiles
    near = (state.galaxy[q] for q in game.pack.board.adjacent[pos])
    return [t for t in near if t > 0 and t in tiles and tiles[t].is_anomaly]


def _place(game: TI4Game, state: TI4State, action: TI4Action) -> list[Fact]:
    """A placement's facts (see :func:`explain`): the four a short hint shows come first; the rest are
    there for "why #1 beats #2"."""
    return [*_value_facts(game, state, action), *_where_facts(game, state, action)]


def _value_facts(game: TI4Game, state: TI4State, action: TI4Action) -> list[Fact]:
    """What the placement gives: the tile's planets, the change in the mover's home value and in the
    rival's it helps most, anomalies on the mover's lane, resources and influence near its home."""
    pack, seat = game.pack, state.actor
    found = placement_values(game, state, [action])
    gain = found[0].gain if found else 0.0
    rival, rival_gain = (found[0].rival, found[0].rival_gain) if found else (-1, 0.0)
    b, a = game.reports(state), game.reports(game.apply_trusted(state, action))
    dr = a[seat].near_resources - b[seat].near_resources if a and b else 0.0
    di = a[seat].near_influence - b[seat].near_influence if a and b else 0.0
    lane = len(a[seat].lane_anomalies) if a else 0
    tile = pack.tiles[action.tile]
    placed = f"tile {action.tile} ({tile_words(pack, action.tile)}) in {where(pack, action.pos)}"
    helped = f"seat {rival}, the rival it helps most" if rival >= 0 else "no rival"
    return [
        Fact(
            label="resources and influence on the tile",
            value=float(sum(p.resources + p.influence for p in tile.planets)),
            better=1,
            text=placed,
        ),
        Fact(
            label="change in your home value",
            value=gain,
            unit="points",
            better=1,
            text=f"{gain:+.2f} home value for you (open spaces at the expected tile still to place)",
        ),
        Fact(
            label="change in the home value of the rival it helps most",
            value=rival_gain,
            unit="points",
            better=-1,
            text=f"{rival_gain:+.2f} home value for {helped}",
        ),
        Fact(
            label="anomalies on your lane",
            value=float(lane),
            better=-1,
            text=_lane_text(tile, state, a, lane),
        ),
        Fact(
            label="optimal resources within 2 jumps of your home",
            value=dr,
            unit="resources",
            better=1,
            text=f"{dr:+.1f} optimal resources within 2 jumps of your home",
        ),
        Fact(
            label="optimal influence within 2 jumps of your home",
            value=di,
            unit="influence",
            better=1,
            text=f"{di:+.1f} optimal influence within 2 jumps of your home",
        ),
    ]


def _lane_text(tile: Tile, state: TI4State, after: Sequence[HomeReport], lane: int) -> str:
    """Whose lane to Mecatol Rex an anomaly lands on, else how many anomalies are on the mover's."""
    if not (tile.is_anomaly and after):
        return f"{plural(lane, 'anomaly', 'anomalies')} next to your home or on your lane to Mecatol Rex"
    seat = state.actor
    kind = tile.anomalies[0].replace("-", " ")
    if tile.id in after[seat].lane_anomalies:
        return f"puts the {kind} on your own lane"
    hit = [k for k in range(state.players) if k != seat and tile.id in after[k].lane_anomalies]
    return f"puts the {kind} on seat {hit[0]}'s lane" if hit else f"keeps the {kind} off your lane"


def _where_facts(game: TI4Game, state: TI4State, action: TI4Action) -> list[Fact]:
    """Where the tile goes: hexes from the homes, what it forbids next to it, the anomalies beside it
    and whether it takes the no-other-option exception."""
    pack, seat = game.pack, state.actor
    tile = pack.tiles[action.tile]
    dist = [hexes(pack, action.pos, h) if h else 99 for h in state.homes]
    rivals = [dist[k] for k in range(state.players) if k != seat and dist[k] < 99]
    beside = _neighbour_anomalies(game, state, action.pos)
    exception = conflicts(state.galaxy, pack.board, pack.tiles, action.tile, action.pos)
    return [
        Fact(
            label="hexes from your home", value=float(dist[seat]), better=-1, text=_distance_text(dist, seat)
        ),
        Fact(
            label="hexes from the nearest rival's home",
            value=float(min(rivals, default=0)),
            text=f"{plural(min(rivals), 'hex', 'hexes')} from the nearest rival's home"
            if rivals
            else "no rival",
        ),
        *_kind(tile),
        Fact(
            label="anomalies next to it",
            value=float(len(beside)),
            text="next to " + ", ".join(f"tile {t} ({tile_words(pack, t)})" for t in beside)
            if beside
            else "no anomaly next to it",
        ),
        Fact(
            label="no-other-option exception",
            value=1.0 if exception else 0.0,
            better=-1,
            text=f"touches tile {exception[0].other} at {exception[0].other_pos}: legal only because "
            "there is no other option"
            if exception
            else "obeys the adjacency rules",
        ),
    ]
