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
from typing import Any, NoReturn

from games.cytress.board import CREWS, STRAT_ROW, TUBE_SECTIONS
from games.cytress.codec import FACTION_CODES, OP_NAMES
from games.cytress.content import AI_CARDS_PER_FACTION, Content
from games.cytress.economy import MAX_RESOURCE, lifepath_icons
from games.cytress.rules import legal_actions
from games.cytress.scouting import open_spots, scouts_per_round
from games.cytress.setup import INTEL_SLOTS, SOLO_ROUNDS, SOLO_TILES, SOLO_TUBES, TRANSPORTS, TUBES_PER_PLAYER
from games.cytress.state import (
    AMOUNT,
    AUTOMA,
    AUTOMA_CREW,
    AUTOMA_MOVE,
    AUTOMA_TUBE,
    BENEFIT,
    BOUNTY,
    CHOOSE_SIDE,
    CREW,
    EXTRA,
    FACTIONS,
    FIXER_INTEL,
    FIXER_RESERVE,
    HEIGHT,
    INTEL,
    LEVELS,
    NOBODY,
    NONE,
    OP_BOUNTY_ASCEND,
    OP_BOUNTY_CREW,
    OP_NORMAL,
    OP_PLACE,
    OVER,
    PAD,
    PAD_ENFORCERS,
    PAD_FIXER,
    PAD_MERCHANT,
    PAD_RENEGADE,
    PAD_STRATOLITES,
    PADS,
    PAYMENT,
    PHASE_NAMES,
    RESOURCES,
    SCOUT,
    SCOUT_SPOT,
    SIDES,
    SPY,
    STATE_FIELDS,
    STEP_NAMES,
    STRATOLITE,
    TRADE,
    TRAVEL,
    TUBE,
    Automa,
    CytressState,
    Pending,
    make_state,
)
from games.cytress.work import Ctx
from games.errors import InvalidStateError

__all__ = ["state_from_dict"]

MAX_ROUND = 1000
_OP_BY_NAME = {name: op for op, name in OP_NAMES.items()}


def _bad(field: str, why: str, rule: str = "") -> NoReturn:
    raise InvalidStateError(
        f"invalid cytress state: {why}", field=f"state.{field}" if field else "state", rule=rule
    )


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
            _bad(path, f"expected an object, got {_shown(value)}")
        for k in keys:
            if k not in value:
                _bad(f"{path}.{k}" if path else k, "missing")
        return value

    @staticmethod
    def integer(path: str, value: Any, lo: int, hi: int, rule: str = "") -> int:
        if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
            _bad(path, f"expected an integer {lo}..{hi}, got {_shown(value)}", rule)
        return value

    @staticmethod
    def boolean(path: str, value: Any) -> bool:
        if not isinstance(value, bool):
            _bad(path, f"expected true or false, got {_shown(value)}")
        return value

    @staticmethod
    def choice(path: str, value: Any, choices: tuple[str, ...] | list[str]) -> int:
        if not isinstance(value, str) or value not in choices:
            _bad(path, f"expected one of {list(choices)}, got {_shown(value)}")
        return list(choices).index(value)

    @staticmethod
    def items(path: str, value: Any, length: int | None = None, most: int = 100) -> list[Any]:
        if not isinstance(value, list):
            _bad(path, f"expected a list, got {_shown(value)}")
        if length is not None and len(value) != length:
            _bad(path, f"expected {length} entries, got {len(value)}")
        if len(value) > most:
            _bad(path, f"expected at most {most} entries, got {len(value)}")
        return value

    @staticmethod
    def code(path: str, value: Any, table: Mapping[str, int], what: str) -> int:
        if not isinstance(value, str) or value not in table:
            _bad(path, f"unknown {what} {_shown(value)}")
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
        _bad("map.tiles", "a map tile appears twice", "cytress/setup")
    view = ctx.map(tiles)
    labels = view.layout.labels
    raw_hexes = r.items("map.hexes", m["hexes"], len(labels))
    crew: list[int] = []
    tube: list[int] = []
    for i, hx in enumerate(raw_hexes):
        path = f"map.hexes[{i}]"
        hx = r.obj(path, hx, ("hex", "faction", "crew", "tube"))
        if hx["hex"] != labels[i]:
            _bad(f"{path}.hex", f"expected {labels[i]!r} (hexes in layout order), got {_shown(hx['hex'])}")
        if r.choice(f"{path}.faction", hx["faction"], FACTIONS) != view.faction[i]:
            _bad(
                f"{path}.faction",
                f"hex {labels[i]} is {FACTIONS[view.faction[i]]} on these tiles",
                "cytress/minimap-stratos",
            )
        crew.append(_owner(r, f"{path}.crew", hx["crew"], n, allow_none=True))
        tube.append(r.integer(f"{path}.tube", hx["tube"], 0, 3, "cytress/waste-tubes"))
        if crew[-1] != NOBODY and tube[-1]:
            _bad(path, "a hex holds a crew and a waste tube (the crew ascends)", "cytress/waste-tubes")
    return tiles, crew, tube


def _check_components(c: Content, s: CytressState) -> None:
    """rule: cytress/setup - components conserved: 12 crews per owner, 50 tube sections, the 72
    intel cards, the 12 Stratolites, the bounties; intel on its own faction's lifepath; leaders on
    open, unshared scouting spots."""
    n, owners, crew, stratos, supply = s.players, s.owners, s.crew, s.stratos, s.supply
    tubes_left, tubes_box, tube, automa = s.tubes_left, s.tubes_box, s.tube, s.automa
    intel_deck, intel_row, paths = s.intel_deck, s.intel_row, s.paths
    strat_deck, strat_row, strat_discard, reserved = s.strat_deck, s.strat_row, s.strat_discard, s.reserved
    stacks, bounties, board_side, leader = s.bounty_stack, s.bounties, s.board_side, s.leader
    for o in range(owners):
        placed = sum(1 for x in crew if x == o) + sum(stratos[LEVELS * o : LEVELS * o + LEVELS]) + supply[o]
        if placed != CREWS:
            _bad(
                _opath(o, n, "crews_unused"),
                f"{placed} crews in play; every rebel has exactly 12",
                "cytress/setup",
            )
    records = automa.records if automa is not None else 0
    if tubes_left + tubes_box + sum(tube) + records != TUBE_SECTIONS:
        _bad(
            "tube_sections",
            "tube sections near Stratos, in the box, on the map and on the AI tracker must total 50",
            "cytress/setup",
        )
    _conserve_intel(c, intel_deck, intel_row, paths, automa)
    _conserve_stratolites(strat_deck, strat_row, strat_discard, reserved)
    _conserve_bounties(c, n, stacks, bounties)
    if automa is not None:
        _conserve_ai(automa)
    for k, p in enumerate(paths):
        if any(c.intel[x].faction != k % 4 for x in p):
            _bad(
                f"seats[{k // 4}].lifepaths.{FACTIONS[k % 4]}",
                "an intel card on another faction's lifepath",
                "cytress/meet-a-faction",
            )
    spots = set(open_spots(c, board_side, n))
    placed_leaders = [x for x in leader if x != NOBODY]
    if any(x not in spots for x in placed_leaders) or len(set(placed_leaders)) != len(placed_leaders):
        _bad("seats", "a rebel leader is on a closed or shared scouting spot", "cytress/phase-2-scout")


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
    solo = n == 1
    phase = r.choice("phase", d["phase"], PHASE_NAMES)
    step = r.choice("step", d["step"], STEP_NAMES)
    rnd = r.integer("round", d["round"], 0, MAX_ROUND)
    round_limit = r.integer(
        "round_limit", d["round_limit"], SOLO_ROUNDS if solo else 0, SOLO_ROUNDS if solo else MAX_ROUND
    )
    end_triggered = r.boolean("end_triggered", d["end_triggered"])
    box_tubes = r.boolean("tubes_from_box", d["tubes_from_box"])
    if not solo and not box_tubes:
        _bad(
            "tubes_from_box",
            "with 2-5 players the box's tube sections are built from once the allocated ones run out",
            "cytress/game-end-trigger",
        )
    bounty_best = r.choice("bounty_scoring", d["bounty_scoring"], ("each", "best")) == 1
    if end_triggered and (solo or tubes_left):
        _bad(
            "end_triggered",
            "the end is triggered only when the allocated tube sections run out",
            "cytress/game-end-trigger",
        )
    first = r.integer("first_player", d["first_player"], 0, n - 1)
    phase_first = r.integer("phase_first_player", d["phase_first_player"], 0, n - 1)
    turn = r.integer("turn", d["turn"], 0, max(6, 3 * n))
    sh = r.obj("shuffle", d["shuffle"], ("seed", "count"))
    seed = r.integer("shuffle.seed", sh["seed"], 0, 2**63 - 1)
    shuffles = r.integer("shuffle.count", sh["count"], 0, 10**9)
    actor = -1 if phase == OVER else r.integer("to_move", d["to_move"], 0, n - 1)
    if phase == OVER and d["to_move"] is not None:
        _bad("to_move", "nobody moves once the game is over")
    if (phase == SIDES) != (rnd == 0):
        _bad("round", "round 0 is the choice of rebel board sides, and only it", "cytress/core-concepts")
    if phase != SIDES and any(x < 0 for x in sides):
        _bad("seats", "every rebel board side is chosen once the first round starts", "cytress/solo-setup")
    if phase in (SIDES, OVER) and any(x != NOBODY for x in leader):
        _bad("seats", "rebel leaders are home outside a round", "cytress/phase-4-reset")
    return {
        "phase": phase,
        "step": step,
        "round": rnd,
        "round_limit": round_limit,
        "box_tubes": box_tubes,
        "bounty_best": bounty_best,
        "end_triggered": end_triggered,
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
        _bad("game", f"expected 'cytress', got {_shown(d['game'])}")
    n = r.integer("players", d["players"], 1, 5, "cytress/setup")
    solo = n == 1
    owners = 2 if solo else n
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
        _bad(
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
    # -- seats and the automa
    seats = r.items("seats", d["seats"], n)
    seat_data = [_seat_fields(r, f"seats[{s}]", seats[s], s) for s in range(n)]
    automa, automa_owner = _automa(r, d["automa"], solo, labels, hex_index)
    owner_data = [sd[0] for sd in seat_data] + ([automa_owner] if automa_owner is not None else [])
    rebels = tuple(o["rebel"] for o in owner_data)
    if len(set(rebels)) != len(rebels):
        _bad("seats", "two owners play the same rebel board", "cytress/setup")
    sides = tuple(sd[1] for sd in seat_data)
    res = tuple(x for sd in seat_data for x in sd[2])
    paths = tuple(p for sd in seat_data for p in sd[3])
    transports = tuple(sd[4] for sd in seat_data)
    on_stratos = tuple(sd[5] for sd in seat_data)
    reserved = tuple(sd[6] for sd in seat_data)
    stratos = tuple(x for o in owner_data for x in o["stratos"])
    supply = tuple(o["supply"] for o in owner_data)
    leader = tuple(o["leader"] for o in owner_data)
    bounties = tuple(o["bounties"] for o in owner_data)
    # -- flow
    flow = _read_flow(r, d, n, tubes_left, sides=sides, leader=leader)
    pending = _pending(r, d["pending"], labels, hex_index)
    icons = tuple(
        x for s in range(n) for x in lifepath_icons(c, rebels[s], sides[s], paths[4 * s : 4 * s + 4])
    )
    values = {**locals(), **flow}  # every field by its name (STATE_FIELDS)
    values.update(players=n, crew=tuple(crew), tube=tuple(tube))
    values.update(bounty_stack=stacks, map=ctx.map(tiles))
    state = make_state(*(values[name] for name in STATE_FIELDS))
    _check_components(c, state)
    _check_flow(ctx, state)
    return state


def _opath(o: int, n: int, key: str) -> str:
    return f"automa.{key}" if n == 1 and o == AUTOMA else f"seats[{o}].{key}"


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
            _bad(f"{path}.faction", f"expected {FACTIONS[k]!r} (lifepath order), got {_shown(f['faction'])}")
        deck = r.codes(f"{path}.deck", f["deck"], r.intel, "intel card", 18)
        row = tuple(
            r.maybe(f"{path}.intel[{i}]", x, r.intel, "intel card")
            for i, x in enumerate(r.items(f"{path}.intel", f["intel"], INTEL_SLOTS))
        )
        if any(r.c.intel[x].faction != k for x in (*deck, *row) if x != NOBODY):
            _bad(path, f"an intel card of another faction on the {FACTIONS[k]} board", "cytress/setup")
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
            _bad(
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
        _bad(f"{path}.seat", f"expected {seat} (seats in order), got {_shown(s['seat'])}")
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
            _bad("automa", "the automa plays only in solo mode", "cytress/solo-setup")
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
            _bad("pending.card", "a card is pending only at the Stratolites or the enforcers")
    trade = NOBODY
    if p["trade"] is not None:
        words = p["trade"].split(" for ") if isinstance(p["trade"], str) else []
        if len(words) != 2 or words[0] not in RESOURCES or words[1] not in RESOURCES:
            _bad("pending.trade", f"expected '<resource> for <resource>', got {_shown(p['trade'])}")
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


# ---------------------------------------------------------------- conservation
def _once(field: str, cards: list[int], total: int, what: str, rule: str) -> None:
    if len(cards) != len(set(cards)):
        _bad(field, f"a {what} appears twice", rule)
    if len(cards) != total:
        _bad(field, f"{len(cards)} {what}s in play; expected all {total}", rule)


def _conserve_intel(c: Content, decks: Any, rows: Any, paths: Any, automa: Automa | None) -> None:
    cards = [x for d in decks for x in d] + [x for row in rows for x in row if x != NOBODY]
    cards += [x for p in paths for x in p] + (list(automa.intel) if automa is not None else [])
    _once("factions", cards, len(c.intel), "intel card", "cytress/setup")


def _conserve_stratolites(deck: Any, row: Any, discard: Any, reserved: Any) -> None:
    cards = [*deck, *(x for x in row if x != NOBODY), *discard, *(x for x in reserved if x != NOBODY)]
    _once("stratolites", cards, 12, "stratolite", "cytress/meet-a-stratolite")


def _conserve_bounties(c: Content, n: int, stacks: Any, held: Any) -> None:
    cards = [b for s in stacks for b in s] + [b for h in held for b in h]
    in_play = [b.id for b in c.bounties if b.tier == 1 or n >= 4]
    if sorted(cards) != sorted(in_play):
        _bad(
            "bounty_stacks",
            f"the bounties in play with {n} players must each be in a stack or claimed once",
            "cytress/setup",
        )


def _conserve_ai(a: Automa) -> None:
    cards = [*a.deck, *(x for t in a.tracker for x in t), *a.drawn]
    _once("automa.deck", cards, 16, "AI action card", "cytress/solo-setup")
    for f, t in enumerate(a.tracker):
        full = tuple(range(f * AI_CARDS_PER_FACTION, f * AI_CARDS_PER_FACTION + 3))
        if t != full[3 - len(t) :]:
            _bad(
                f"automa.tracker.{FACTIONS[f]}",
                "the tracker holds its faction's cards, removed from the top",
                "cytress/solo-gameplay",
            )


# ---------------------------------------------------------------- whose turn, which step
_TRAVEL_STEPS = (
    PAD,
    INTEL,
    CREW,
    SPY,
    STRATOLITE,
    PAYMENT,
    HEIGHT,
    TUBE,
    BOUNTY,
    BENEFIT,
    FIXER_INTEL,
    FIXER_RESERVE,
    TRADE,
    AMOUNT,
)
_AUTOMA_STEPS = (AUTOMA_CREW, AUTOMA_MOVE, AUTOMA_TUBE)
_PAD_OF_STEP = {
    STRATOLITE: (PAD_STRATOLITES,),
    PAYMENT: (PAD_RENEGADE,),
    BOUNTY: (PAD_ENFORCERS,),
    BENEFIT: (PAD_ENFORCERS,),
    FIXER_INTEL: (PAD_FIXER,),
    FIXER_RESERVE: (PAD_FIXER,),
    TRADE: (PAD_MERCHANT,),
    AMOUNT: (PAD_MERCHANT,),
    INTEL: (0, 1, 2, 3),
    CREW: (0, 1, 2, 3, PAD_ENFORCERS),
    SPY: (0, 1, 2, 3, PAD_ENFORCERS),
    HEIGHT: (PAD_STRATOLITES, PAD_RENEGADE),
    TUBE: (PAD_STRATOLITES, PAD_RENEGADE),
}


def _check_flow(ctx: Ctx, s: CytressState) -> None:
    """The seat to move is the one whose turn it is, and its open decision is coherent."""
    phase, step = s.phase, s.step
    rule = "cytress/core-concepts"
    if phase == OVER:
        if step != NONE:
            _bad("step", "no decision is open once the game is over", rule)
        if s.solo and s.round < s.round_limit:
            _bad("phase", f"a solo game ends after round {s.round_limit}", "cytress/solo-game-end")
        if not s.solo and not s.end_triggered and not (s.round_limit and s.round >= s.round_limit):
            _bad(
                "phase",
                "a 2-5 player game ends at the end of the round the last allocated tube section was "
                "placed (end_triggered), or after the round_limit variant's round",
                "cytress/game-end-trigger",
            )
        return
    allowed = {
        SIDES: (CHOOSE_SIDE,),
        SCOUT: (SCOUT_SPOT,),
        TRAVEL: _TRAVEL_STEPS + _AUTOMA_STEPS,
        EXTRA: _TRAVEL_STEPS,
    }[phase]
    if step not in allowed or (phase == EXTRA and step == STRATOLITE):
        _bad("step", f"{STEP_NAMES[step]!r} is not a decision of the {PHASE_NAMES[phase]} phase", rule)
    _check_turn(s)
    _check_automa_flow(s)
    _check_pending(ctx, s)
    if not legal_actions(ctx, s):
        _bad("step", f"the seat to move has no legal way to {STEP_NAMES[step]}", STEP_RULE_FALLBACK)


def _check_turn(s: CytressState) -> None:
    """The seat to move is the one whose turn of the phase it is."""
    n, phase, step, actor, turn = s.players, s.phase, s.step, s.actor, s.turn
    if phase == SIDES:
        if turn >= n or actor != (s.first + turn) % n or s.sides[actor] >= 0:
            _bad(
                "to_move",
                "rebel board sides are chosen in turn order from the first player",
                "cytress/solo-setup",
            )
    elif phase == SCOUT:
        if s.solo:
            ok = turn in (1, 3) and actor == 0
        else:
            ok = turn < scouts_per_round(n) * n and actor == (s.phase_first + turn) % n
        if not ok:
            _bad("to_move", f"it is not seat {actor}'s scout at turn {turn}", "cytress/phase-2-scout")
    elif phase == TRAVEL:
        if s.solo:
            ok = turn < 6 and actor == 0 and (turn % 2 == 0) == (step in _AUTOMA_STEPS)
        else:
            ok = turn < TRANSPORTS * n and actor == (s.phase_first + turn) % n
        if not ok:
            _bad("to_move", f"it is not seat {actor}'s travel at turn {turn}", "cytress/phase-3a-travel")
    elif turn >= n:
        _bad("turn", "extra travel looks at seats in turn order", "cytress/phase-3b-extra-travel")


def _check_automa_flow(s: CytressState) -> None:
    """The automa's revealed cards and program belong to its turn."""
    phase, step, turn = s.phase, s.step, s.turn
    a = s.automa
    if a is not None:
        in_turn = (phase == SCOUT and turn == 1) or step in _AUTOMA_STEPS
        if bool(a.drawn) != in_turn or bool(a.program) != (step in _AUTOMA_STEPS):
            _bad(
                "automa.revealed",
                "AI action cards are revealed only during the automa's turn",
                "cytress/solo-gameplay",
            )
        if phase == SCOUT and turn == 1 and len(a.drawn) != 1:
            _bad("automa.revealed", "the automa's first scout reveals one card", "cytress/solo-gameplay")


STEP_RULE_FALLBACK = "cytress/phase-3a-travel"


def _check_pending(ctx: Ctx, s: CytressState) -> None:
    """The choices already made fit the open step."""
    p, step, seat = s.pending, s.step, s.actor
    c = ctx.content
    expect = _PAD_OF_STEP.get(step, (NOBODY,))
    if p.pad not in expect:
        _bad(
            "pending.landing_pad",
            f"the step to {STEP_NAMES[step]} expects a pad among {[PADS[x] for x in expect if x >= 0]}",
        )
    if step == PAD and (s.on_stratos[seat] if s.phase == EXTRA else s.transports[seat]) < 1:
        _bad("seats", f"seat {seat} has no transport left to move", "cytress/phase-3a-travel")
    if step == CREW and (p.colour == NOBODY or s.supply[seat] < 1):
        _bad(
            "pending.hex_type",
            "a crew placement needs a hex type and an unused crew",
            "cytress/meet-a-faction",
        )
    if step == SPY and (p.hex == NOBODY or s.crew[p.hex] != seat):
        _bad("pending.crew_hex", "spying follows a crew just placed by the seat", "cytress/meet-a-faction")
    if step in (HEIGHT, TUBE):
        if p.resource == NOBODY or (step == TUBE) != (p.height > 0):
            _bad(
                "pending.resource",
                "a tube drop needs its resource (and, for the hex, its height)",
                "cytress/waste-tubes",
            )
        if p.pad == PAD_STRATOLITES:
            if p.card == NOBODY or (p.card not in s.strat_row and s.reserved[seat] != p.card):
                _bad(
                    "pending.card",
                    "the Stratolite met must be on Stratos or reserved",
                    "cytress/meet-a-stratolite",
                )
            st = c.stratolites[p.card]
            if (p.colour, p.resource) != (st.hex, st.resource):
                _bad(
                    "pending.hex_type",
                    "the Stratolite fixes the hex type and the resource",
                    "cytress/meet-a-stratolite",
                )
        elif p.colour != NOBODY or p.card != NOBODY:
            _bad(
                "pending.hex_type",
                "the Renegade drops on any hex with your crew",
                "cytress/meet-the-renegade",
            )
    if step == BENEFIT and (p.card == NOBODY or not s.bounties[seat] or s.bounties[seat][-1] != p.card):
        _bad("pending.card", "the benefit is the bounty just taken", "cytress/meet-the-enforcers")
    if step == AMOUNT and (p.trade == NOBODY or s.res[4 * seat + p.trade // 4] < 1):
        _bad(
            "pending.trade",
            "a trade amount follows a trade with something to give",
            "cytress/meet-the-merchant",
        )
    if step != AMOUNT and p.trade != NOBODY:
        _bad(
            "pending.trade", "a trade is pending only while choosing its amount", "cytress/meet-the-merchant"
        )
    if (step in _AUTOMA_STEPS) != bool(p.options):
        _bad(
            "pending.options",
            "tie options are pending only for the automa's checklist",
            "cytress/solo-ai-actions",
        )
    if step in _AUTOMA_STEPS:
        _check_automa_choice(s)


def _check_automa_choice(s: CytressState) -> None:
    a = s.automa
    assert a is not None
    head = a.program[0] // 16
    opts = s.pending.options
    if s.step == AUTOMA_TUBE:
        ok = head == OP_NORMAL and all(s.crew[h] == AUTOMA for h in opts)
    elif s.step == AUTOMA_MOVE:
        ok = head in (OP_PLACE, OP_BOUNTY_CREW) and s.supply[AUTOMA] == 0 and a.moving == NOBODY
        ok = ok and all(s.crew[h] == AUTOMA for h in opts)
    else:
        ok = head in (OP_PLACE, OP_BOUNTY_CREW) and s.supply[AUTOMA] >= 1
        ok = ok and all(s.crew[h] == NOBODY and not s.tube[h] and h != a.moving for h in opts)
    if not ok or len(set(opts)) != len(opts):
        _bad(
            "pending.options", "the options do not fit the automa's checklist step", "cytress/solo-ai-actions"
        )
