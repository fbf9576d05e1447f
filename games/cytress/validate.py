"""Reading a Cytress position from its public form, validating every field before any rule sees it.

Bad data raises ``InvalidStateError`` naming the first bad field (``state.seats[1].resources.tech``)
and, where a rule is broken, the rule. Checked: types and ranges, ids that exist in the content pack,
conservation (72 intel cards, 12 Stratolites, the bounties in play, 16 AI action cards each exactly
once; 12 crews per owner; 50 tube sections), and cross-field coherence (the seat to move is the one
whose turn it is, the open decision's pending choices fit its step, and it has a legal choice).
No other exception escapes for any JSON input.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.cytress.board import CREWS, STRAT_ROW, TUBE_SECTIONS
from games.cytress.codec import FACTION_CODES, OP_NAMES
from games.cytress.consistency import check_components, check_flow, refuse
from games.cytress.content import AI_CARDS_PER_FACTION, Content
from games.cytress.economy import MAX_RESOURCE, lifepath_icons
from games.cytress.setup import INTEL_SLOTS, SOLO_ROUNDS, SOLO_TILES, SOLO_TUBES, TRANSPORTS, TUBES_PER_PLAYER
from games.cytress.state import (
    AUTOMA,
    FACTIONS,
    LEVELS,
    NOBODY,
    OP_BOUNTY_ASCEND,
    OVER,
    PAD_ENFORCERS,
    PAD_STRATOLITES,
    PADS,
    PHASE_NAMES,
    RESOURCES,
    SIDES,
    STEP_NAMES,
    Automa,
    CytressState,
    Pending,
)
from games.cytress.work import Ctx

__all__ = ["state_from_dict"]

MAX_ROUND = 1000
_OP_BY_NAME = {name: op for op, name in OP_NAMES.items()}


def _shown(value: Any) -> str:
    text = repr(value) if isinstance(value, (int, float, str, bool, type(None))) else type(value).__name__
    return text if len(text) <= 60 else text[:60] + "..."


class _Reader:
    """Typed, validating access to the parts of one state dict."""

    def __init__(self, ctx: Ctx) -> None:
        self.c: Content = ctx.content
        self.intel = {x.code: x.id for x in self.c.intel}
        self.strat = {x.code: x.id for x in self.c.stratolites}
        self.bounty = {x.code: x.id for x in self.c.bounties}
        self.tiles = {t.id: i for i, t in enumerate(self.c.tiles)}
        self.rebels = {r.id: i for i, r in enumerate(self.c.rebels)}
        self.ai = {
            f"AI-{FACTION_CODES[f]}-{k + 1}": f * AI_CARDS_PER_FACTION + k for f in range(4) for k in range(4)
        }

    @staticmethod
    def obj(path: str, value: Any, keys: tuple[str, ...]) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            refuse(path, f"expected an object, got {_shown(value)}")
        for k in keys:
            if k not in value:
                refuse(f"{path}.{k}" if path else k, "missing")
        return value

    @staticmethod
    def integer(path: str, value: Any, lo: int, hi: int, rule: str = "") -> int:
        if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
            refuse(path, f"expected an integer {lo}..{hi}, got {_shown(value)}", rule)
        return value

    @staticmethod
    def boolean(path: str, value: Any) -> bool:
        if not isinstance(value, bool):
            refuse(path, f"expected true or false, got {_shown(value)}")
        return value

    @staticmethod
    def choice(path: str, value: Any, choices: tuple[str, ...] | list[str]) -> int:
        if not isinstance(value, str) or value not in choices:
            refuse(path, f"expected one of {list(choices)}, got {_shown(value)}")
        return list(choices).index(value)

    @staticmethod
    def items(path: str, value: Any, length: int | None = None, most: int = 100) -> list[Any]:
        if not isinstance(value, list):
            refuse(path, f"expected a list, got {_shown(value)}")
        if length is not None and len(value) != length:
            refuse(path, f"expected {length} entries, got {len(value)}")
        if len(value) > most:
            refuse(path, f"expected at most {most} entries, got {len(value)}")
        return value

    @staticmethod
    def code(path: str, value: Any, table: Mapping[str, int], what: str) -> int:
        if not isinstance(value, str) or value not in table:
            refuse(path, f"unknown {what} {_shown(value)}")
        return table[value]

    def codes(self, path: str, value: Any, table: Mapping[str, int], what: str, most: int) -> tuple[int, ...]:
        return tuple(
            self.code(f"{path}[{i}]", v, table, what)
            for i, v in enumerate(self.items(path, value, most=most))
        )

    def maybe(self, path: str, value: Any, table: Mapping[str, int], what: str) -> int:
        return NOBODY if value is None else self.code(path, value, table, what)


_TOP_KEYS: tuple[str, ...] = (
    *("game", "players", "round", "phase", "step", "to_move", "turn", "first_player", "phase_first_player"),
    *("pending", "map", "cytress_board_side", "faction_board_side", "factions", "stratolites"),
    *("bounty_stacks", "tube_sections", "seats", "automa", "end_triggered", "round_limit", "shuffle"),
    *("tubes_from_box", "bounty_scoring"),
)
"""Every key of the public form's top level."""


def _read_map(r: _Reader, ctx: Ctx, value: Any, n: int) -> tuple[tuple[int, ...], list[int], list[int]]:
    """The map tiles and, per hex in layout order, its crew owner and waste tube height."""
    solo = n == 1
    m = r.obj("map", value, ("tiles", "hexes"))
    n_tiles = SOLO_TILES if solo else n
    tiles = tuple(
        r.code(f"map.tiles[{i}]", t, r.tiles, "map tile")
        for i, t in enumerate(r.items("map.tiles", m["tiles"], n_tiles))
    )
    if len(set(tiles)) != len(tiles):
        refuse("map.tiles", "a map tile appears twice", "cytress/setup")
    view = ctx.map(tiles)
    labels = view.layout.labels
    raw_hexes = r.items("map.hexes", m["hexes"], len(labels))
    crew: list[int] = []
    tube: list[int] = []
    for i, hx in enumerate(raw_hexes):
        path = f"map.hexes[{i}]"
        hx = r.obj(path, hx, ("hex", "faction", "crew", "tube"))
        if hx["hex"] != labels[i]:
            refuse(f"{path}.hex", f"expected {labels[i]!r} (hexes in layout order), got {_shown(hx['hex'])}")
        if r.choice(f"{path}.faction", hx["faction"], FACTIONS) != view.faction[i]:
            refuse(
                f"{path}.faction",
                f"hex {labels[i]} is {FACTIONS[view.faction[i]]} on these tiles",
                "cytress/minimap-stratos",
            )
        crew.append(_owner(r, f"{path}.crew", hx["crew"], n, allow_none=True))
        tube.append(r.integer(f"{path}.tube", hx["tube"], 0, 3, "cytress/waste-tubes"))
        if crew[-1] != NOBODY and tube[-1]:
            refuse(path, "a hex holds a crew and a waste tube (the crew ascends)", "cytress/waste-tubes")
    return tiles, crew, tube


def _read_end(r: _Reader, d: Mapping[str, Any], n: int, tubes_left: int) -> dict[str, Any]:
    """The round limit, the end trigger and the variants about tubes and bounties, checked against
    the player count and the tube sections left."""
    solo = n == 1
    round_limit = r.integer(
        "round_limit", d["round_limit"], SOLO_ROUNDS if solo else 0, SOLO_ROUNDS if solo else MAX_ROUND
    )
    end_triggered = r.boolean("end_triggered", d["end_triggered"])
    box_tubes = r.boolean("tubes_from_box", d["tubes_from_box"])
    if not solo and not box_tubes:
        refuse(
            "tubes_from_box",
            "with 2-5 players the box's tube sections are built from once the allocated ones run out",
            "cytress/game-end-trigger",
        )
    if end_triggered and (solo or tubes_left):
        refuse(
            "end_triggered",
            "the end is triggered only when the allocated tube sections run out",
            "cytress/game-end-trigger",
        )
    return {
        "round_limit": round_limit,
        "end_triggered": end_triggered,
        "box_tubes": box_tubes,
        "bounty_best": r.choice("bounty_scoring", d["bounty_scoring"], ("each", "best")) == 1,
    }


def _read_flow(
    r: _Reader,
    d: Mapping[str, Any],
    n: int,
    tubes_left: int,
    *,
    sides: tuple[int, ...],
    leader: tuple[int, ...],
) -> dict[str, Any]:
    """The round, phase, step, seat to move, markers, variant limit and reshuffle seed, checked
    against each other."""
    phase = r.choice("phase", d["phase"], PHASE_NAMES)
    step = r.choice("step", d["step"], STEP_NAMES)
    rnd = r.integer("round", d["round"], 0, MAX_ROUND)
    first = r.integer("first_player", d["first_player"], 0, n - 1)
    phase_first = r.integer("phase_first_player", d["phase_first_player"], 0, n - 1)
    turn = r.integer("turn", d["turn"], 0, max(6, 3 * n))
    sh = r.obj("shuffle", d["shuffle"], ("seed", "count"))
    seed = r.integer("shuffle.seed", sh["seed"], 0, 2**63 - 1)
    shuffles = r.integer("shuffle.count", sh["count"], 0, 10**9)
    actor = -1 if phase == OVER else r.integer("to_move", d["to_move"], 0, n - 1)
    if phase == OVER and d["to_move"] is not None:
        refuse("to_move", "nobody moves once the game is over")
    if (phase == SIDES) != (rnd == 0):
        refuse("round", "round 0 is the choice of rebel board sides, and only it", "cytress/core-concepts")
    if phase != SIDES and any(x < 0 for x in sides):
        refuse("seats", "every rebel board side is chosen once the first round starts", "cytress/solo-setup")
    if phase in (SIDES, OVER) and any(x != NOBODY for x in leader):
        refuse("seats", "rebel leaders are home outside a round", "cytress/phase-4-reset")
    return {
        **_read_end(r, d, n, tubes_left),
        "phase": phase,
        "step": step,
        "round": rnd,
        "first": first,
        "phase_first": phase_first,
        "turn": turn,
        "seed": seed,
        "shuffles": shuffles,
        "actor": actor,
    }


def state_from_dict(ctx: Ctx, data: Any) -> CytressState:
    """The state ``to_dict`` wrote, validated (``InvalidStateError`` naming the first bad field)."""
    r = _Reader(ctx)
    c = r.c
    d = r.obj("", data, ("game", "players", "round", "phase", "step", "to_move", "turn", "first_player"))
    if d["game"] != "cytress":
        refuse("game", f"expected 'cytress', got {_shown(d['game'])}")
    n = r.integer("players", d["players"], 1, 5, "cytress/setup")
    solo = n == 1
    r.obj("", d, _TOP_KEYS)
    # -- the map
    tiles, crew, tube = _read_map(r, ctx, d["map"], n)
    view = ctx.map(tiles)
    labels = view.layout.labels
    hex_index = {label: i for i, label in enumerate(labels)}
    # -- boards
    market = r.choice("cytress_board_side", d["cytress_board_side"], [s.id for s in c.market])
    board_side = r.choice("faction_board_side", d["faction_board_side"], [s.id for s in c.board_sides])
    if not solo and board_side != (1 if n >= 4 else 0):
        refuse(
            "faction_board_side",
            f"{n} players use the {c.board_sides[1 if n >= 4 else 0].id} side",
            "cytress/setup",
        )
    intel_deck, intel_row = _factions(r, d["factions"])
    strat_deck, strat_row, strat_discard = _stratolites(r, d["stratolites"])
    stacks = _bounty_stacks(r, d["bounty_stacks"], n)
    ts = r.obj("tube_sections", d["tube_sections"], ("near_stratos", "box"))
    allocated = SOLO_TUBES if solo else TUBES_PER_PLAYER * n
    tubes_left = r.integer("tube_sections.near_stratos", ts["near_stratos"], 0, allocated, "cytress/setup")
    tubes_box = r.integer("tube_sections.box", ts["box"], 0, TUBE_SECTIONS, "cytress/setup")
    held = _holdings(r, d, n, labels, hex_index)
    sides, paths = held["sides"], held["paths"]
    flow = _read_flow(r, d, n, tubes_left, sides=sides, leader=held["leader"])
    pending = _pending(r, d["pending"], labels, hex_index)
    state = CytressState(
        players=n,
        tiles=tiles,
        crew=tuple(crew),
        tube=tuple(tube),
        market=market,
        board_side=board_side,
        intel_deck=intel_deck,
        intel_row=intel_row,
        strat_deck=strat_deck,
        strat_row=strat_row,
        strat_discard=strat_discard,
        bounty_stack=stacks,
        tubes_left=tubes_left,
        tubes_box=tubes_box,
        pending=pending,
        icons=tuple(lifepath_icons(c, held["rebels"][s], sides[s], paths[s]) for s in range(n)),
        map=view,
        **held,
        **flow,
    )
    check_components(c, state)
    check_flow(ctx, state)
    return state


def _holdings(
    r: _Reader, d: Mapping[str, Any], n: int, labels: tuple[str, ...], hex_index: Mapping[str, int]
) -> dict[str, Any]:
    """The seats' and the automa's holdings, by field of the state."""
    seats = r.items("seats", d["seats"], n)
    seat_data = [_seat_fields(r, f"seats[{s}]", seats[s], s) for s in range(n)]
    automa, automa_owner = _automa(r, d["automa"], n == 1, labels, hex_index)
    owner_data = [sd[0] for sd in seat_data] + ([automa_owner] if automa_owner is not None else [])
    rebels = tuple(o["rebel"] for o in owner_data)
    if len(set(rebels)) != len(rebels):
        refuse("seats", "two owners play the same rebel board", "cytress/setup")
    return {
        "rebels": rebels,
        "sides": tuple(sd[1] for sd in seat_data),
        "res": tuple(sd[2] for sd in seat_data),
        "paths": tuple(sd[3] for sd in seat_data),
        "transports": tuple(sd[4] for sd in seat_data),
        "on_stratos": tuple(sd[5] for sd in seat_data),
        "reserved": tuple(sd[6] for sd in seat_data),
        "stratos": tuple(o["stratos"] for o in owner_data),
        "supply": tuple(o["supply"] for o in owner_data),
        "leader": tuple(o["leader"] for o in owner_data),
        "bounties": tuple(o["bounties"] for o in owner_data),
        "automa": automa,
    }


def _owner(r: _Reader, path: str, value: Any, n: int, *, allow_none: bool) -> int:
    if value is None and allow_none:
        return NOBODY
    if value == "automa" and n == 1:
        return AUTOMA
    return r.integer(path, value, 0, n - 1)


def _factions(r: _Reader, value: Any) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    decks, rows = [], []
    for k, f in enumerate(r.items("factions", value, 4)):
        path = f"factions[{k}]"
        f = r.obj(path, f, ("faction", "deck", "intel"))
        if f["faction"] != FACTIONS[k]:
            refuse(
                f"{path}.faction", f"expected {FACTIONS[k]!r} (lifepath order), got {_shown(f['faction'])}"
            )
        deck = r.codes(f"{path}.deck", f["deck"], r.intel, "intel card", 18)
        row = tuple(
            r.maybe(f"{path}.intel[{i}]", x, r.intel, "intel card")
            for i, x in enumerate(r.items(f"{path}.intel", f["intel"], INTEL_SLOTS))
        )
        if any(r.c.intel[x].faction != k for x in (*deck, *row) if x != NOBODY):
            refuse(path, f"an intel card of another faction on the {FACTIONS[k]} board", "cytress/setup")
        decks.append(deck)
        rows.append(row)
    return tuple(decks), tuple(rows)


def _stratolites(r: _Reader, value: Any) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    s = r.obj("stratolites", value, ("deck", "row", "discard"))
    deck = r.codes("stratolites.deck", s["deck"], r.strat, "stratolite", 12)
    row = tuple(
        r.maybe(f"stratolites.row[{i}]", x, r.strat, "stratolite")
        for i, x in enumerate(r.items("stratolites.row", s["row"], STRAT_ROW))
    )
    discard = r.codes("stratolites.discard", s["discard"], r.strat, "stratolite", 12)
    return deck, row, discard


def _bounty_stacks(r: _Reader, value: Any, n: int) -> tuple[tuple[int, ...], ...]:
    s = r.obj("bounty_stacks", value, FACTIONS)
    out = []
    for k, f in enumerate(FACTIONS):
        stack = r.codes(f"bounty_stacks.{f}", s[f], r.bounty, "bounty card", 2)
        full = tuple(
            b.id
            for t in (1, 2)
            for b in r.c.bounties
            if b.faction == k and b.tier == t and (t == 1 or n >= 4)
        )
        if stack != full[len(full) - len(stack) :]:
            refuse(
                f"bounty_stacks.{f}",
                f"expected the top of {[r.c.bounties[b].code for b in full]} cut from above",
                "cytress/setup",
            )
        out.append(stack)
    return tuple(out)


def _owner_fields(r: _Reader, path: str, o: Mapping[str, Any]) -> dict[str, Any]:
    o = r.obj(path, o, ("rebel", "crews_unused", "stratos", "leader", "bounties"))
    stratos = tuple(
        r.integer(f"{path}.stratos[{k}]", x, 0, CREWS)
        for k, x in enumerate(r.items(f"{path}.stratos", o["stratos"], LEVELS))
    )
    leader = NOBODY
    if o["leader"] is not None:
        lp = r.obj(f"{path}.leader", o["leader"], ("faction", "spot"))
        leader = (
            2 * r.choice(f"{path}.leader.faction", lp["faction"], FACTIONS)
            + r.integer(f"{path}.leader.spot", lp["spot"], 1, 2)
            - 1
        )
    return {
        "rebel": r.code(f"{path}.rebel", o["rebel"], r.rebels, "rebel board"),
        "supply": r.integer(f"{path}.crews_unused", o["crews_unused"], 0, CREWS, "cytress/setup"),
        "stratos": stratos,
        "leader": leader,
        "bounties": r.codes(f"{path}.bounties", o["bounties"], r.bounty, "bounty card", 8),
    }


def _seat_fields(
    r: _Reader, path: str, value: Any, seat: int
) -> tuple[dict[str, Any], int, tuple[int, ...], tuple[tuple[int, ...], ...], int, int, int]:
    keys = (
        "seat",
        "side",
        "resources",
        "lifepaths",
        "transports_on_board",
        "transports_on_stratos",
        "reserved_stratolite",
    )
    s = r.obj(path, value, keys)
    if s["seat"] != seat or isinstance(s["seat"], bool):
        refuse(f"{path}.seat", f"expected {seat} (seats in order), got {_shown(s['seat'])}")
    owner = _owner_fields(r, path, s)
    side = NOBODY if s["side"] is None else r.choice(f"{path}.side", s["side"], ("A", "B"))
    rs = r.obj(f"{path}.resources", s["resources"], RESOURCES)
    res = tuple(
        r.integer(f"{path}.resources.{x}", rs[x], 0, MAX_RESOURCE, "cytress/resources") for x in RESOURCES
    )
    lp = r.obj(f"{path}.lifepaths", s["lifepaths"], FACTIONS)
    paths = tuple(r.codes(f"{path}.lifepaths.{f}", lp[f], r.intel, "intel card", 18) for f in FACTIONS)
    on_board = r.integer(
        f"{path}.transports_on_board", s["transports_on_board"], 0, TRANSPORTS, "cytress/phase-3a-travel"
    )
    on_stratos = r.integer(
        f"{path}.transports_on_stratos",
        s["transports_on_stratos"],
        0,
        TRANSPORTS - on_board,
        "cytress/phase-3b-extra-travel",
    )
    reserved = r.maybe(f"{path}.reserved_stratolite", s["reserved_stratolite"], r.strat, "stratolite")
    return owner, side, res, paths, on_board, on_stratos, reserved


def _automa(
    r: _Reader, value: Any, solo: bool, labels: tuple[str, ...], hex_index: Mapping[str, int]
) -> tuple[Automa | None, dict[str, Any] | None]:
    if not solo:
        if value is not None:
            refuse("automa", "the automa plays only in solo mode", "cytress/solo-setup")
        return None, None
    keys = ("intel", "deck", "tracker", "tube_pieces", "revealed", "to_do", "moving_from")
    a = r.obj("automa", value, keys)
    owner = _owner_fields(r, "automa", a)
    tr = r.obj("automa.tracker", a["tracker"], FACTIONS)
    tracker = tuple(r.codes(f"automa.tracker.{f}", tr[f], r.ai, "AI action card", 3) for f in FACTIONS)
    program = []
    for i, op in enumerate(r.items("automa.to_do", a["to_do"], most=4)):
        op = r.obj(f"automa.to_do[{i}]", op, ("action", "faction"))
        code = list(_OP_BY_NAME.values())[
            r.choice(f"automa.to_do[{i}].action", op["action"], list(_OP_BY_NAME))
        ]
        faction = (
            0
            if code == OP_BOUNTY_ASCEND and op["faction"] is None
            else r.choice(f"automa.to_do[{i}].faction", op["faction"], FACTIONS)
        )
        program.append(code * 16 + faction)
    moving = (
        NOBODY
        if a["moving_from"] is None
        else r.code("automa.moving_from", a["moving_from"], hex_index, "hex")
    )
    automa = Automa(
        deck=r.codes("automa.deck", a["deck"], r.ai, "AI action card", 16),
        tracker=tracker,
        intel=r.codes("automa.intel", a["intel"], r.intel, "intel card", 72),
        records=r.integer("automa.tube_pieces", a["tube_pieces"], 0, TUBE_SECTIONS),
        drawn=r.codes("automa.revealed", a["revealed"], r.ai, "AI action card", 16),
        program=tuple(program),
        moving=moving,
    )
    return automa, owner


def _pending(r: _Reader, value: Any, labels: tuple[str, ...], hex_index: Mapping[str, int]) -> Pending:
    keys = (
        "landing_pad",
        "hex_type",
        "card",
        "resource",
        "height",
        "crew_hex",
        "trades_made",
        "trade",
        "options",
    )
    p = r.obj("pending", value, keys)
    pad = NOBODY if p["landing_pad"] is None else r.choice("pending.landing_pad", p["landing_pad"], PADS)
    card = NOBODY
    if p["card"] is not None:
        if pad == PAD_STRATOLITES:
            card = r.code("pending.card", p["card"], r.strat, "stratolite")
        elif pad == PAD_ENFORCERS:
            card = r.code("pending.card", p["card"], r.bounty, "bounty card")
        else:
            refuse("pending.card", "a card is pending only at the Stratolites or the enforcers")
    trade = NOBODY
    if p["trade"] is not None:
        words = p["trade"].split(" for ") if isinstance(p["trade"], str) else []
        if len(words) != 2 or words[0] not in RESOURCES or words[1] not in RESOURCES:
            refuse("pending.trade", f"expected '<resource> for <resource>', got {_shown(p['trade'])}")
        trade = 4 * RESOURCES.index(words[0]) + RESOURCES.index(words[1])
    options = r.items("pending.options", p["options"], most=len(labels))
    return Pending(
        pad=pad,
        colour=NOBODY if p["hex_type"] is None else r.choice("pending.hex_type", p["hex_type"], FACTIONS),
        card=card,
        resource=NOBODY if p["resource"] is None else r.choice("pending.resource", p["resource"], RESOURCES),
        height=r.integer("pending.height", p["height"], 0, 3),
        hex=NOBODY if p["crew_hex"] is None else r.code("pending.crew_hex", p["crew_hex"], hex_index, "hex"),
        trades=r.integer("pending.trades_made", p["trades_made"], 0, 1),
        trade=trade,
        options=tuple(r.code(f"pending.options[{i}]", h, hex_index, "hex") for i, h in enumerate(options)),
    )
