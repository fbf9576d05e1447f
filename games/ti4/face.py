"""The face of the TI4 setup for people: the tile catalogue, readable views, log lines, hint facts.

Every view of a seat is built from that seat's observation (``games.ti4.hidden``): the galaxy is
face up, a hand is seen only by its holder, secret objectives only by their owner.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.core.face import REFEREE, Catalogue, ContentItem, Description, Fact, Row, Section, Viewer
from games.ti4 import ai, hidden
from games.ti4.content import Content, Tile, TileId
from games.ti4.placement import current_ring, snake_seat
from games.ti4.render import render_svg
from games.ti4.setup import starting_planets
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
    TI4Action,
    TI4State,
)

if TYPE_CHECKING:
    from games.ti4.game import TI4Game

__all__ = ["catalogue", "describe", "explain", "log_line", "render", "tile_text"]

GREEK = {"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ"}


def planet_text(tile: Tile) -> str:
    """``Lodor 3/1 cultural`` for each planet."""
    parts = []
    for p in tile.planets:
        extra = [x for x in (p.trait, p.specialty, "legendary" if p.legendary else "") if x]
        parts.append(f"{p.name} {p.resources}/{p.influence}" + (f" {' '.join(extra)}" if extra else ""))
    return "; ".join(parts)


def tile_text(content: Content, t: TileId) -> str:
    """A tile as a person reads it: ``26 Lodor 3/1 cultural, alpha wormhole``."""
    if t == HIDDEN_BLUE:
        return "a blue tile"
    if t == HIDDEN_RED:
        return "a red tile"
    tile = content.tiles.get(t)
    if tile is None:
        return str(t)
    bits = [planet_text(tile)] if tile.planets else []
    bits += [a.replace("-", " ") for a in tile.anomalies]
    bits += [f"{w} wormhole" for w in tile.wormholes]
    return f"{t} " + (", ".join(bits) if bits else "empty space")


def catalogue(content: Content) -> Catalogue:
    """Every system tile, faction, colour, strategy card and objective of the pack."""
    items: list[ContentItem] = []
    for t in sorted(content.tiles.values(), key=lambda x: x.id):
        items.append(
            ContentItem(
                id=str(t.id),
                kind="system tile",
                name=t.name,
                text=tile_text(content, t.id) + (f" ({t.note})" if t.note else ""),
                values={
                    "back": t.back,
                    "pile": t.pile,
                    "expansion": t.expansion,
                    "planets": [
                        {
                            "name": p.name,
                            "resources": p.resources,
                            "influence": p.influence,
                            "trait": p.trait or None,
                            "specialty": p.specialty or None,
                            "legendary": p.legendary,
                        }
                        for p in t.planets
                    ],
                    "wormholes": list(t.wormholes),
                    "anomalies": list(t.anomalies),
                    "faction": t.faction or None,
                },
                authored=t.authored,
            )
        )
    for f in content.factions:
        units = ", ".join(f"{n} {u.replace('_', ' ')}" for u, n in f.units)
        techs = ", ".join(f.technologies) or "none"
        choice = f"; {f.technology_choice}" if f.technology_choice else ""
        items.append(
            ContentItem(
                id=f.id,
                kind="faction",
                name=f.name,
                text=f"home system {f.home} ({', '.join(starting_planets(content, f.id))}); starting "
                f"technologies: {techs}{choice}; starting units: {units}",
                values={
                    "home_system": str(f.home),
                    "expansion": f.expansion,
                    "technologies": list(f.technologies),
                    "units": dict(f.units),
                },
                authored=f.authored,
            )
        )
    for c, e in content.colors:
        items.append(ContentItem(id=c, kind="colour", name=c, values={"expansion": e}))
    for i, name in enumerate(content.strategy_cards):
        items.append(
            ContentItem(id=str(i + 1), kind="strategy card", name=name, values={"initiative": i + 1})
        )
    for o in content.objectives:
        items.append(
            ContentItem(id=o.id, kind="objective", name=o.name, values={"deck": o.deck}, authored=o.authored)
        )
    return Catalogue(
        game="ti4",
        version=content.version,
        items=tuple(items),
        notes="System tiles and factions' home systems are transcribed from the printed tiles; the "
        "factions' starting technologies and units and the objective titles (base game) are authored "
        "(typed from the printed components, not from the reference data): load your own pack to "
        "replace them. Five-player trade goods by home position and the Milty slice shape are our "
        "readings (docs/ti4.md).",
    )


def _seat_name(game: TI4Game, state: TI4State, seat: int) -> str:
    f = (
        game.pack.faction(state.factions[seat])
        if 0 <= seat < state.players and state.factions[seat]
        else None
    )
    short = f.name.replace("The ", "") if f else ""
    return f"seat {seat}" + (f" ({short})" if short else "")


def _view(game: TI4Game, state: TI4State, viewer: Viewer) -> TI4State:
    return state if viewer == REFEREE else hidden.observe(state, game.pack, viewer)


def _step(game: TI4Game, s: TI4State) -> str:
    who = _seat_name(game, s, s.actor)
    if s.phase == OVER:
        vals = game.home_values(s, fill=False)
        shown = ", ".join(f"{v:.2f}" for v in vals)
        return f"setup complete: home values {shown} (gap {max(vals) - min(vals):.2f})"
    if s.phase == FACTION:
        return f"{who} chooses a faction"
    if s.phase == COLOR:
        return f"{who} chooses a colour"
    if s.phase == RED:
        return f"{who} (speaker) places the random red tile {s.red_tile} next to Mecatol Rex"
    if s.phase == PLACE:
        layout = game.pack.board.layouts[s.players]
        done = len(s.placed) - (1 if s.red_tile else 0)
        total = len(layout.systems) - layout.extra_red
        ring = current_ring(s.galaxy, game.pack.board, layout)
        nxt = snake_seat(done + 1, s.players, s.table, s.speaker) if done + 1 < total else -1
        tail = f"; then seat {nxt}" if nxt >= 0 else ""
        return f"{who} places a system tile in ring {ring} (tile {done + 1} of {total}{tail})"
    if s.phase == SECRET:
        return f"{who} keeps one of two secret objectives"
    done = (
        sum(1 for k in s.slice_pick if k >= 0)
        + sum(1 for f in s.factions if f)
        + sum(1 for p in s.seat_pick if p)
    )
    return f"{who} picks a slice, a faction or a seat (pick {done + 1} of {3 * s.players})"


def _galaxy_lines(game: TI4Game, s: TI4State) -> list[str]:
    spaces = set(ai.spaces_in_play(s, game.pack))
    homes = {h: k for k, h in enumerate(s.homes) if h}
    lines = []
    for ring in (1, 2, 3):
        cells = []
        for p in game.pack.board.ring_positions(ring):
            if p not in spaces:
                continue
            if p in homes:
                cells.append(f"H{homes[p]}")
            else:
                cells.append(str(s.galaxy[p]) if s.galaxy[p] else "·")
        lines.append(f"ring {ring}: " + " ".join(cells))
    return lines


def describe(game: TI4Game, state: TI4State, viewer: Viewer) -> Description:
    """What ``viewer`` may see: the galaxy ring by ring, every seat's home value and holdings, the
    viewer's own hand and objectives (80 columns, about 20 lines)."""
    s = _view(game, state, viewer)
    pack = game.pack
    mode = "Milty draft" if s.mode == "milty" else "rulebook setup"
    pok = " + PoK" if s.expansion == "pok" else ""
    head = f"TI4 galaxy, {s.players} players, {mode}{pok}: {PHASE_NAMES[s.phase]}"
    sections = [
        Section(title="Galaxy (map-string order; H = home of seat)", lines=tuple(_galaxy_lines(game, s)))
    ]
    vals = game.home_values(s) if all(s.homes) else [0.0] * s.players
    rows = []
    for k in range(s.players):
        hand = s.hands[k]
        blue = sum(1 for t in hand if t == HIDDEN_BLUE or (t > 0 and pack.tiles[t].back == "blue"))
        red = len(hand) - blue
        bits = [s.factions[k] or "no faction", s.colors[k] or "no colour"]
        if s.homes[k]:
            bits.append(f"home {s.homes[k]} value {vals[k]:.2f}")
        if hand:
            bits.append(f"hand {blue}B {red}R")
        if s.trade_goods[k]:
            bits.append(f"+{s.trade_goods[k]} TG")
        if s.mode == "milty" and s.slice_pick[k] >= 0:
            bits.append(f"slice {s.slice_pick[k] + 1}")
        if s.mode == "milty" and s.seat_pick[k]:
            bits.append(f"seat {s.seat_pick[k]}")
        label = f"Seat {k}{'*' if k == s.speaker else ''}"
        rows.append(Row(label=label, value=", ".join(bits), seat=k))
    sections.append(Section(title="Seats (* speaker)", rows=tuple(rows)))
    if 0 <= viewer < s.players or viewer == REFEREE:
        sections += _private(game, s, viewer)
    if s.mode == "milty" and s.phase == DRAFT:
        slice_rows = tuple(
            Row(
                label=f"Slice {k + 1}",
                value=" ".join(str(t) for t in sl) + f" ({ai.slice_value(pack, sl, game.weights):.1f})",
            )
            for k, sl in enumerate(s.slices)
            if k not in s.slice_pick
        )
        sections.append(Section(title="Slices left (value)", rows=slice_rows))
    if s.phase == OVER:
        shown = [pack_name(game, o) for o in s.stage1[: s.revealed]]
        sections.append(Section(title="Objectives", lines=(f"stage I revealed: {', '.join(shown)}",)))
    return Description(
        game="ti4", viewer=viewer, headline=head, step=_step(game, s), sections=tuple(sections)
    )


def pack_name(game: TI4Game, objective: str) -> str:
    """An objective's title (``hidden`` for one the viewer cannot see)."""
    if objective == HIDDEN:
        return "hidden"
    return next((o.name for o in game.pack.objectives if o.id == objective), objective)


def _private(game: TI4Game, s: TI4State, viewer: Viewer) -> list[Section]:
    seats = range(s.players) if viewer == REFEREE else [viewer]
    out = []
    for k in seats:
        lines = []
        if s.hands[k] and all(t > 0 for t in s.hands[k]):
            lines.append("hand: " + ", ".join(str(t) for t in s.hands[k]))
        if s.phase in (SECRET, OVER) and all(o != HIDDEN for o in s.secret_drawn[k]):
            kept = s.secret_kept[k]
            lines.append(
                "secret: "
                + (
                    pack_name(game, kept)
                    if kept
                    else " or ".join(pack_name(game, o) for o in s.secret_drawn[k])
                )
            )
        if lines:
            out.append(Section(title=f"Seat {k} only", lines=tuple(lines), seat=k))
    return out


def render(game: TI4Game, state: TI4State, viewer: Viewer) -> str:
    """An SVG of the galaxy as ``viewer`` sees it, with the balance per seat."""
    s = _view(game, state, viewer)
    reports = game.reports(s)
    hand = s.hands[viewer] if 0 <= viewer < s.players else ()
    return render_svg(game.pack, s, reports, title=describe(game, state, viewer).headline, hand=hand)


def log_line(game: TI4Game, state: TI4State, action: TI4Action, viewer: Viewer) -> str:
    """One sentence per decision; a secret objective kept is named only to its owner and the referee."""
    who = _seat_name(game, state, state.actor).capitalize()
    pack = game.pack
    if action.kind == "faction":
        f = pack.faction(action.name)
        verb = "picks" if state.phase == DRAFT else "chooses"
        return f"{who} {verb} {f.name if f else action.name}" + (f" (home system {f.home})." if f else ".")
    if action.kind == "color":
        return f"{who} chooses {action.name}."
    if action.kind == "place":
        ring = pack.board.rings[action.pos] if 0 <= action.pos < len(pack.board.rings) else 0
        if state.phase == RED:
            return (
                f"{who}, the speaker, draws red tile {tile_text(pack, action.tile)} "
                f"and places it next to Mecatol Rex at {action.pos}."
            )
        return f"{who} places {tile_text(pack, action.tile)} in ring {ring} at {action.pos}."
    if action.kind == "keep":
        if viewer in (REFEREE, state.actor):
            return f"{who} keeps secret objective {pack_name(game, action.name)}."
        return f"{who} keeps a secret objective."
    if action.kind == "slice":
        sl = state.slices[action.pos] if 0 <= action.pos < len(state.slices) else ()
        return f"{who} picks slice {action.pos + 1} ({', '.join(str(t) for t in sl)})."
    if action.kind == "seat":
        return f"{who} picks seat {action.pos}" + (" and becomes speaker." if action.pos == 1 else ".")
    return f"{who} plays {action.kind}."


def explain(game: TI4Game, state: TI4State, action: TI4Action) -> list[Fact]:
    """What a decision gains the mover now (home value, resources and influence within 2 jumps,
    the best rival's value, anomalies on the mover's lane), the same labels on every candidate."""
    seat = state.actor
    if seat < 0 or action not in game.legal_actions(state):
        return []
    if action.kind == "place":
        return _explain_place(game, state, action)
    if action.kind == "faction":
        f = game.pack.faction(action.name)
        planets = game.pack.tiles[f.home].planets if f else ()
        r = sum(p.resources for p in planets)
        i = sum(p.influence for p in planets)
        return [
            Fact(label="home system resources", value=float(r), unit="resources", better=1),
            Fact(label="home system influence", value=float(i), unit="influence", better=1),
        ]
    if action.kind == "slice":
        v = ai.slice_value(game.pack, state.slices[action.pos], game.weights)
        return [
            Fact(label="slice value", value=v, unit="points", better=1, text=f"slice value {v:.2f} points")
        ]
    if action.kind == "seat":
        return [
            Fact(
                label="seat position",
                value=float(action.pos),
                better=-1,
                text=f"seat {action.pos}" + (" (speaker)" if action.pos == 1 else ""),
            )
        ]
    return []


def _explain_place(game: TI4Game, state: TI4State, action: TI4Action) -> list[Fact]:
    pack, seat = game.pack, state.actor
    after = game.apply_trusted(state, action)
    b, a = game.reports(state), game.reports(after)
    mine_b, mine_a = b[seat], a[seat]
    dv = mine_a.value - mine_b.value
    dr = mine_a.near_resources - mine_b.near_resources
    di = mine_a.near_influence - mine_b.near_influence
    rivals = [k for k in range(state.players) if k != seat]
    rival_gain = max((a[k].value - b[k].value for k in rivals), default=0.0)
    lane = len(mine_a.lane_anomalies)
    tile = pack.tiles[action.tile]
    lane_text = f"{lane} anomalies next to your home or on your lane to Mecatol Rex"
    if tile.is_anomaly:
        kind = tile.anomalies[0].replace("-", " ")
        on_mine = action.tile in mine_a.lane_anomalies
        hit = [k for k in rivals if action.tile in a[k].lane_anomalies]
        lane_text = (
            f"puts the {kind} on your own lane"
            if on_mine
            else f"puts the {kind} on seat {hit[0]}'s lane"
            if hit
            else f"keeps the {kind} off your lane"
        )
    return [
        Fact(
            label="your home value", value=dv, unit="points", better=1, text=f"{dv:+.2f} home value for you"
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
        Fact(
            label="best rival's home value",
            value=rival_gain,
            unit="points",
            better=-1,
            text=f"{rival_gain:+.2f} home value for the rival it helps most",
        ),
        Fact(label="anomalies on your lane", value=float(lane), better=-1, text=lane_text),
        Fact(
            label="no-other-option exception",
            value=1.0 if ai.uses_exception(state, pack, action) else 0.0,
            better=-1,
            text="touches a tile it may not: legal only because there is no other option"
            if ai.uses_exception(state, pack, action)
            else "obeys the adjacency rules",
        ),
    ]
