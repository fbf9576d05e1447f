"""Reading a Cytress position from its public form, validating every field before any rule sees it.

Every field is first checked on its own by the declaration (``games.cytress.schema``: types, ranges,
closed sets, ids that exist in the content pack); then the fields are checked against each other
here (bounds that depend on the player count, hexes in the map's layout order, the automa only in
solo), and the components and the flow by ``games.cytress.consistency``: conservation (72 intel
cards, 12 Stratolites, the bounties in play, 16 AI action cards each exactly once; 12 crews per
owner; 50 tube sections) and coherence (the seat to move is the one whose turn it is, the open
decision's pending choices fit its step, and it has a legal choice). Bad data raises
``InvalidStateError`` naming the first bad field (``state.seats[1].resources.tech``) and, where a
rule is broken, the rule. No other exception escapes for any JSON input.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.cytress.consistency import check_components, check_flow, refuse
from games.cytress.content import Content
from games.cytress.economy import lifepath_icons
from games.cytress.schema import FORMS, OP_NAMES
from games.cytress.setup import SOLO_ROUNDS, SOLO_TILES, SOLO_TUBES, TRANSPORTS, TUBES_PER_PLAYER
from games.cytress.state import (
    AUTOMA,
    FACTIONS,
    NOBODY,
    OP_BOUNTY_ASCEND,
    OVER,
    PAD_ENFORCERS,
    PAD_STRATOLITES,
    SIDES,
    Automa,
    CytressState,
    Pending,
    Player,
    Rebel,
)
from games.cytress.work import Ctx

__all__ = ["state_from_dict"]

_OP_BY_NAME = {name: op for op, name in OP_NAMES.items()}


def _seat_no(field: str, value: int, n: int) -> int:
    if value >= n:
        refuse(field, f"expected a seat 0..{n - 1}, got {value!r}")
    return value


def _count(field: str, items: Sequence[Any], n: int, rule: str = "") -> None:
    if len(items) != n:
        refuse(field, f"expected {n} entries, got {len(items)}", rule)


def _hex(field: str, label: str, hex_index: Mapping[str, int]) -> int:
    if label not in hex_index:
        refuse(
            field, f"unknown hex {label[:16]!r}; the map's hexes are {', '.join(list(hex_index)[:4])}, ..."
        )
    return hex_index[label]


def _read_map(ctx: Ctx, m: Mapping[str, Any], n: int) -> tuple[tuple[int, ...], list[int], list[int]]:
    """The map tiles and, per hex in layout order, its crew owner and waste tube height."""
    tiles = m["tiles"]
    _count("map.tiles", tiles, SOLO_TILES if n == 1 else n, "cytress/setup")
    if len(set(tiles)) != len(tiles):
        refuse("map.tiles", "a map tile appears twice", "cytress/setup")
    view = ctx.map(tiles)
    labels = view.layout.labels
    _count("map.hexes", m["hexes"], len(labels))
    crew: list[int] = []
    tube: list[int] = []
    for i, hx in enumerate(m["hexes"]):
        path = f"map.hexes[{i}]"
        if hx["hex"] != labels[i]:
            refuse(f"{path}.hex", f"expected {labels[i]!r} (hexes in layout order), got {hx['hex'][:16]!r}")
        if hx["faction"] != view.faction[i]:
            refuse(
                f"{path}.faction",
                f"hex {labels[i]} is {FACTIONS[view.faction[i]]} on these tiles",
                "cytress/minimap-stratos",
            )
        crew.append(_owner_of(f"{path}.crew", hx["crew"], n))
        tube.append(hx["tube"])
        if crew[-1] != NOBODY and tube[-1]:
            refuse(path, "a hex holds a crew and a waste tube (the crew ascends)", "cytress/waste-tubes")
    return tiles, crew, tube


def _owner_of(field: str, value: int | str | None, n: int) -> int:
    """A crew's owner: a seat, the automa (solo only) or nobody."""
    if value is None:
        return NOBODY
    if value == "automa":
        if n != 1:
            refuse(
                field, f"expected a seat 0..{n - 1}: the automa plays only in solo mode", "cytress/solo-setup"
            )
        return AUTOMA
    return _seat_no(field, int(value), n)


def _read_end(d: Mapping[str, Any], n: int, tubes_left: int) -> dict[str, Any]:
    """The round limit, the end trigger and the variants about tubes and bounties, checked against
    the player count and the tube sections left."""
    solo = n == 1
    if solo and d["round_limit"] != SOLO_ROUNDS:
        refuse(
            "round_limit",
            f"expected {SOLO_ROUNDS} in solo mode, got {d['round_limit']!r}",
            "cytress/solo-setup",
        )
    if not solo and not d["tubes_from_box"]:
        refuse(
            "tubes_from_box",
            "with 2-5 players the box's tube sections are built from once the allocated ones run out",
            "cytress/game-end-trigger",
        )
    if d["end_triggered"] and (solo or tubes_left):
        refuse(
            "end_triggered",
            "the end is triggered only when the allocated tube sections run out",
            "cytress/game-end-trigger",
        )
    return {
        "round_limit": d["round_limit"],
        "end_triggered": d["end_triggered"],
        "box_tubes": d["tubes_from_box"],
        "bounty_best": d["bounty_scoring"] == 1,
    }


def _read_flow(
    d: Mapping[str, Any], n: int, tubes_left: int, *, sides: tuple[int, ...], leader: tuple[int, ...]
) -> dict[str, Any]:
    """The round, phase, step, seat to move, markers, variant limit and reshuffle seed, checked
    against each other."""
    phase, rnd = d["phase"], d["round"]
    if d["turn"] > max(6, 3 * n):
        refuse("turn", f"expected an integer 0..{max(6, 3 * n)}, got {d['turn']!r}")
    if phase == OVER and d["to_move"] != NOBODY:
        refuse("to_move", "nobody moves once the game is over")
    if phase != OVER and d["to_move"] == NOBODY:
        refuse("to_move", f"expected a seat 0..{n - 1}, got None")
    if (phase == SIDES) != (rnd == 0):
        refuse("round", "round 0 is the choice of rebel board sides, and only it", "cytress/core-concepts")
    if phase != SIDES and any(x < 0 for x in sides):
        refuse("seats", "every rebel board side is chosen once the first round starts", "cytress/solo-setup")
    if phase in (SIDES, OVER) and any(x != NOBODY for x in leader):
        refuse("seats", "rebel leaders are home outside a round", "cytress/phase-4-reset")
    return {
        **_read_end(d, n, tubes_left),
        "phase": phase,
        "step": d["step"],
        "round": rnd,
        "first": _seat_no("first_player", d["first_player"], n),
        "phase_first": _seat_no("phase_first_player", d["phase_first_player"], n),
        "turn": d["turn"],
        "seed": d["shuffle"]["seed"],
        "shuffles": d["shuffle"]["count"],
        "actor": -1 if phase == OVER else _seat_no("to_move", d["to_move"], n),
    }


def state_from_dict(ctx: Ctx, data: Any) -> CytressState:
    """The state ``to_dict`` wrote, validated (``InvalidStateError`` naming the first bad field)."""
    d = FORMS(ctx.content).read(data)
    c = ctx.content
    n = d["players"]
    tiles, crew, tube = _read_map(ctx, d["map"], n)
    view = ctx.map(tiles)
    hex_index = {label: i for i, label in enumerate(view.layout.labels)}
    board_side = d["faction_board_side"]
    if n > 1 and board_side != (1 if n >= 4 else 0):
        refuse(
            "faction_board_side",
            f"{n} players use the {c.board_sides[1 if n >= 4 else 0].id} side",
            "cytress/setup",
        )
    intel_deck, intel_row = _factions(c, d["factions"])
    strat = d["stratolites"]
    tubes_left = d["tube_sections"]["near_stratos"]
    allocated = SOLO_TUBES if n == 1 else TUBES_PER_PLAYER * n
    if tubes_left > allocated:
        refuse(
            "tube_sections.near_stratos",
            f"expected an integer 0..{allocated}, got {tubes_left}",
            "cytress/setup",
        )
    held = _holdings(c, d, n, hex_index)
    sides = tuple(p.side for p in held["players"])
    state = CytressState(
        tiles=tiles,
        crew=tuple(crew),
        tube=tuple(tube),
        market=d["cytress_board_side"],
        board_side=board_side,
        intel_deck=intel_deck,
        intel_row=intel_row,
        strat_deck=strat["deck"],
        strat_row=strat["row"],
        strat_discard=strat["discard"],
        bounty_stack=_bounty_stacks(c, d["bounty_stacks"], n),
        tubes_left=tubes_left,
        tubes_box=d["tube_sections"]["box"],
        pending=_pending(c, d["pending"], hex_index),
        map=view,
        **held,
        **_read_flow(d, n, tubes_left, sides=sides, leader=tuple(r.leader for r in held["rebels"])),
    )
    check_components(c, state)
    check_flow(ctx, state)
    return state


def _holdings(c: Content, d: Mapping[str, Any], n: int, hex_index: Mapping[str, int]) -> dict[str, Any]:
    """The seats' and the automa's holdings, by field of the state."""
    seats = d["seats"]
    _count("seats", seats, n)
    for s, seat in enumerate(seats):
        _check_seat(f"seats[{s}]", seat, s)
    automa = _automa(d["automa"], n == 1, hex_index)
    owners = [*seats, d["automa"]] if automa is not None else seats
    rebels = tuple(_rebel(o) for o in owners)
    if len({r.board for r in rebels}) != len(rebels):
        refuse("seats", "two owners play the same rebel board", "cytress/setup")
    return {
        "players": tuple(_player(c, s, rebels[seat].board) for seat, s in enumerate(seats)),
        "rebels": rebels,
        "automa": automa,
    }


def _rebel(o: Mapping[str, Any]) -> Rebel:
    """An owner's rebels from its checked public form (a seat's block, or the automa's)."""
    leader = o["leader"]
    return Rebel(
        board=o["rebel"],
        stratos=o["stratos"],
        unused=o["crews_unused"],
        bounties=o["bounties"],
        leader=NOBODY if leader is None else 2 * leader["faction"] + leader["spot"] - 1,
    )


def _player(c: Content, s: Mapping[str, Any], rebel: int) -> Player:
    """A seat's record from its checked public form (its icons counted from its board and cards)."""
    lifepaths = tuple(s["lifepaths"].values())
    return Player(
        side=s["side"],
        resources=tuple(s["resources"].values()),
        lifepaths=lifepaths,
        icons=lifepath_icons(c, rebel, s["side"], lifepaths),
        reserved=s["reserved_stratolite"],
        transports=s["transports_on_board"],
        on_stratos=s["transports_on_stratos"],
    )


def _check_seat(path: str, s: Mapping[str, Any], seat: int) -> None:
    if s["seat"] != seat:
        refuse(f"{path}.seat", f"expected {seat} (seats in order), got {s['seat']!r}")
    most = TRANSPORTS - s["transports_on_board"]
    if s["transports_on_stratos"] > most:
        refuse(
            f"{path}.transports_on_stratos",
            f"expected an integer 0..{most}, got {s['transports_on_stratos']!r}",
            "cytress/phase-3b-extra-travel",
        )


def _factions(c: Content, factions: Sequence[Mapping[str, Any]]) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """Each faction board's intel deck and row, in lifepath order, holding its own faction's cards."""
    for k, f in enumerate(factions):
        path = f"factions[{k}]"
        if f["faction"] != k:
            refuse(
                f"{path}.faction",
                f"expected {FACTIONS[k]!r} (lifepath order), got {FACTIONS[f['faction']]!r}",
            )
        if any(c.intel[x].faction != k for x in (*f["deck"], *f["intel"]) if x != NOBODY):
            refuse(path, f"an intel card of another faction on the {FACTIONS[k]} board", "cytress/setup")
    return tuple(f["deck"] for f in factions), tuple(f["intel"] for f in factions)


def _bounty_stacks(c: Content, stacks: Mapping[str, tuple[int, ...]], n: int) -> tuple[tuple[int, ...], ...]:
    """rule: cytress/setup - each faction's bounty stack: the top of its tier-1 (and, with 4 or more
    players, tier-2) cards."""
    for k, f in enumerate(FACTIONS):
        full = tuple(
            b.id for t in (1, 2) for b in c.bounties if b.faction == k and b.tier == t and (t == 1 or n >= 4)
        )
        if stacks[f] != full[len(full) - len(stacks[f]) :]:
            refuse(
                f"bounty_stacks.{f}",
                f"expected the top of {[c.bounties[b].code for b in full]} cut from above",
                "cytress/setup",
            )
    return tuple(stacks.values())


def _automa(a: Mapping[str, Any] | None, solo: bool, hex_index: Mapping[str, int]) -> Automa | None:
    if not solo:
        if a is not None:
            refuse("automa", "the automa plays only in solo mode", "cytress/solo-setup")
        return None
    if a is None:
        refuse("automa", "expected the automa: it plays in solo mode", "cytress/solo-setup")
    program = []
    for i, op in enumerate(a["to_do"]):
        code = _OP_BY_NAME[op["action"]]
        if op["faction"] is None and code != OP_BOUNTY_ASCEND:
            refuse(f"automa.to_do[{i}].faction", f"expected one of {list(FACTIONS)}, got None")
        program.append(code * 16 + (op["faction"] or 0))
    moving = a["moving_from"]
    return Automa(
        deck=a["deck"],
        tracker=tuple(a["tracker"].values()),
        intel=a["intel"],
        records=a["tube_pieces"],
        drawn=a["revealed"],
        program=tuple(program),
        moving=NOBODY if moving == NOBODY else _hex("automa.moving_from", moving, hex_index),
    )


def _pending(c: Content, p: Mapping[str, Any], hex_index: Mapping[str, int]) -> Pending:
    """The action under way: its card is a Stratolite or a bounty card by its landing pad."""
    pad, card = p["landing_pad"], p["card"]
    if card != NOBODY:
        if pad == PAD_STRATOLITES:
            ids = {x.code: x.id for x in c.stratolites}
        elif pad == PAD_ENFORCERS:
            ids = {x.code: x.id for x in c.bounties}
        else:
            refuse("pending.card", "a card is pending only at the Stratolites or the enforcers")
        if card not in ids:
            what = "stratolite" if pad == PAD_STRATOLITES else "bounty card"
            refuse("pending.card", f"unknown {what} {card[:16]!r}")
        card = ids[card]
    crew_hex = p["crew_hex"]
    return Pending(
        pad=pad,
        colour=p["hex_type"],
        card=card,
        resource=p["resource"],
        height=p["height"],
        hex=NOBODY if crew_hex == NOBODY else _hex("pending.crew_hex", crew_hex, hex_index),
        trades=p["trades_made"],
        trade=p["trade"],
        options=tuple(_hex(f"pending.options[{i}]", h, hex_index) for i, h in enumerate(p["options"])),
    )
