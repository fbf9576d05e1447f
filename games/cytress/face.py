"""The face of Cytress for people: the catalogue, readable views, log lines and facts (the SVG:
``games.cytress.render``).

Everything a seat may see of a position is public except the order of the face-down decks (and the
reshuffle seed), which only the referee's view shows; so a seat's view is a function of its
observation. The words are the rulebook's: factions, resources, landing pads, PRESTIGE.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from games.core.face import (
    REFEREE,
    Catalogue,
    ContentItem,
    Description,
    Fact,
    Row,
    Section,
    Viewer,
)
from games.cytress.board import CREW_PRESTIGE, TUBE_COST, TUBE_PRESTIGE
from games.cytress.codec import ai_card_code
from games.cytress.content import TILE_COLUMNS, Content
from games.cytress.flow import END_LIMIT, END_SOLO, END_TUBES, end_condition
from games.cytress.notation import PAD_WORDS, seat_name
from games.cytress.schema import state_schema
from games.cytress.scoring import Tally, card_facts, rebellion
from games.cytress.state import (
    AUTOMA,
    AUTOMA_CREW,
    AUTOMA_MOVE,
    AUTOMA_TUBE,
    EXTRA,
    FACTIONS,
    INTEL,
    NOBODY,
    OVER,
    PADS,
    PHASE_NAMES,
    RESOURCES,
    SPY,
    STEP_NAMES,
    TRAVEL,
    CAction,
    CytressState,
)
from games.cytress.undercity import ASCEND_COST, BENEFIT_ASCEND_1, BENEFIT_CREW, BENEFIT_NONE

if TYPE_CHECKING:
    from games.cytress.game import CytressGame

__all__ = [
    "FACTION_TITLES",
    "LEVEL_WORDS",
    "catalogue",
    "describe",
    "explain",
    "log_line",
    "schema",
    "step_text",
]

FACTION_TITLES = ("Corpocrats", "Privateers", "Hooligangs", "Rovers")
LEVEL_WORDS = ("level 1", "level 2", "level 3")


def schema() -> dict[str, Any]:
    """The JSON Schema of the public form."""
    return state_schema()


# ---------------------------------------------------------------- the catalogue
def _faction_items(c: Content) -> list[ContentItem]:
    """The catalogue's the factions and their district boards."""
    items: list[ContentItem] = []
    for f in range(4):
        items.append(
            ContentItem(
                id=FACTIONS[f],
                kind="faction",
                name=c.faction_names[f],
                text=f"{c.faction_colour[f]} hexes; scouting and spying give "
                f"{RESOURCES[c.faction_resource[f]]}",
                values={"colour": c.faction_colour[f], "resource": RESOURCES[c.faction_resource[f]]},
                authored=c.faction_authored[f],
            )
        )
    for side in c.board_sides:
        spots = [{"resources": v, "from_players": p} for v, p in side.spots]
        items.append(
            ContentItem(
                id=side.id,
                kind="faction district board side",
                name=f"{side.id} player side",
                text=f"intel costs {side.intel_cost} of the faction's resource; scouting spots {spots}",
                values={"intel_cost": side.intel_cost, "spots": spots},
                authored=side.authored,
            )
        )
    return items


def _card_items(c: Content) -> list[ContentItem]:
    """The catalogue's intel cards and rebel boards."""
    items: list[ContentItem] = []
    for card in c.intel:
        icons = [RESOURCES[r] for r in card.icons]
        items.append(
            ContentItem(
                id=card.code,
                kind="intel card",
                name=f"{c.faction_names[card.faction]} intel {card.code[-2:]}",
                text=f"adds {', '.join(icons)} to the {FACTIONS[card.faction]} lifepath; "
                f"targets the {FACTION_TITLES[card.target]}",
                values={"faction": FACTIONS[card.faction], "icons": icons, "target": FACTIONS[card.target]},
                authored=card.authored,
            )
        )
    for rebel in c.rebels:
        for k, side_icons in enumerate(rebel.sides):
            paths = {FACTIONS[f]: [RESOURCES[r] for r in icons] for f, icons in enumerate(side_icons)}
            items.append(
                ContentItem(
                    id=f"{rebel.id}-{'AB'[k]}",
                    kind="rebel board",
                    name=f"{rebel.name} (side {'AB'[k]})",
                    text=f"{rebel.colour} rebel; starting lifepath icons {paths}",
                    values={"colour": rebel.colour, "lifepaths": paths},
                    authored=rebel.authored,
                )
            )
    return items


def _board_items(c: Content) -> list[ContentItem]:
    """The catalogue's map tiles, Stratolites and bounties."""
    items: list[ContentItem] = []
    for tile in c.tiles:
        rows = [
            "".join("CPHR"[f] for f in tile.factions[r * TILE_COLUMNS : (r + 1) * TILE_COLUMNS])
            for r in range(2)
        ]
        items.append(
            ContentItem(
                id=tile.id,
                kind="map tile",
                name=f"map tile {tile.id}",
                text="hexes by faction, row by row: " + " / ".join(rows),
                values={"rows": rows},
                authored=tile.authored,
            )
        )
    for st in c.stratolites:
        items.append(
            ContentItem(
                id=st.code,
                kind="stratolite",
                name=st.name,
                text=f"drops waste tubes on {FACTIONS[st.hex]} hexes, paid in {RESOURCES[st.resource]}",
                values={"hex": FACTIONS[st.hex], "resource": RESOURCES[st.resource]},
                authored=st.authored,
            )
        )
    for b in c.bounties:
        per = 2 if b.tier == 1 else 1
        items.append(
            ContentItem(
                id=b.code,
                kind="enforcer bounty",
                name=f"tier {b.tier} bounty on the {FACTION_TITLES[b.faction]}",
                text=f"{per} PRESTIGE per {FACTIONS[b.faction]} target icon; benefit: a crew on a "
                f"{FACTIONS[b.hex]} hex, or pay 5 {RESOURCES[b.resource]} to move a crew up one level",
                values={
                    "faction": FACTIONS[b.faction],
                    "tier": b.tier,
                    "hex": FACTIONS[b.hex],
                    "resource": RESOURCES[b.resource],
                },
                authored=b.authored,
            )
        )
    return items


def _other_items(c: Content) -> list[ContentItem]:
    """The catalogue's the trade market, waste tubes, landing pads, AI action cards."""
    items: list[ContentItem] = []
    for m in c.market:
        arrows = [f"{RESOURCES[g]} -> {RESOURCES[t]}" for g, t in m.arrows]
        items.append(
            ContentItem(
                id=m.id,
                kind="trade market side",
                name=f"Cytress district board side {m.id}",
                text="trades " + ", ".join(arrows) + "; glow -> creds, tech or ammo",
                values={"arrows": arrows},
                authored=m.authored,
            )
        )
    for h in (1, 2, 3):
        items.append(
            ContentItem(
                id=f"tube-{h}",
                kind="waste tube",
                name=f"{h}-high waste tube",
                text=f"costs {TUBE_COST[h]}; its crew ascends to level {h} "
                f"({CREW_PRESTIGE[h - 1]} PRESTIGE); "
                f"controlling it scores {TUBE_PRESTIGE[h]}",
                values={
                    "cost": TUBE_COST[h],
                    "crew_prestige": CREW_PRESTIGE[h - 1],
                    "tube_prestige": TUBE_PRESTIGE[h],
                },
            )
        )
    for p, words in enumerate(PAD_WORDS):
        items.append(ContentItem(id=PADS[p], kind="landing pad", name=words))
    for ai_card in range(16):
        items.append(
            ContentItem(
                id=ai_card_code(ai_card),
                kind="AI action card",
                name=f"AI action card: {FACTION_TITLES[ai_card // 4]}",
                text="on the AI tracker board" if ai_card % 4 < 3 else "in the AI action deck at setup",
                values={"faction": FACTIONS[ai_card // 4]},
                authored=ai_card % 4 == 3,
            )
        )
    return items


def catalogue(c: Content) -> Catalogue:
    """Every component, authored items marked (rule: cytress/setup lists them)."""
    items = [*_faction_items(c), *_card_items(c), *_board_items(c), *_other_items(c)]
    notes = (
        "The rulebook prints the rules, the tube costs and the PRESTIGE tables but no card list, map tile "
        "or board value: the intel cards, Stratolites, tiles and layouts, rebel boards' icons, board values, "
        "bounty benefits and the second market side are authored (marked). Load your own pack with "
        "content_path=."
    )
    return Catalogue(game="cytress", version=c.version, items=tuple(items), notes=notes)


# ---------------------------------------------------------------- describe
def _who(s: CytressState, owner: int) -> str:
    return seat_name(owner, s.num_players)


def step_text(game: CytressGame, s: CytressState) -> str:
    """The open decision in the rulebook's words, with what the action has chosen so far."""
    if s.phase == OVER:
        scores = game.scores(s)
        best = max(scores)
        top = [o for o, x in enumerate(scores) if x == best]
        names = " and ".join(_who(s, o) for o in top)
        if s.solo and not scores[0] > scores[AUTOMA]:
            return f"game over: the automa {scores[AUTOMA]} - seat 0 {scores[0]} PRESTIGE: no win for seat 0"
        return f"game over: {names} {'rule' if len(top) > 1 else 'rules'} Stratos with {best} PRESTIGE"
    p = s.pending
    what = STEP_NAMES[s.step]
    if p.pad >= 0:
        what = f"{PAD_WORDS[p.pad]}: {what}"
    if s.step in (AUTOMA_CREW, AUTOMA_MOVE, AUTOMA_TUBE):
        what = f"{what} (the automa's checklist is tied)"
    return f"{_who(s, s.actor)}: {what}"


def _cell(s: CytressState, h: int, faction: int) -> str:
    letter = "CPHR"[faction]
    if s.tube[h]:
        return f"{letter}^{s.tube[h]}"
    o = s.crew[h]
    if o == NOBODY:
        return f"{letter}. "
    return f"{letter}{'A' if s.solo and o == AUTOMA else o} "


def _map_lines(game: CytressGame, s: CytressState) -> list[str]:
    cache = game.map_lines_cache
    key = (s.tiles, s.crew, s.tube, s.num_players)
    hit = cache.get(key)
    if hit is None:
        if len(cache) > 256:
            cache.clear()
        hit = cache[key] = _draw_map_lines(game, s)
    return hit


def _draw_map_lines(game: CytressGame, s: CytressState) -> list[str]:
    view = game.ctx.map(s.tiles)
    rows: dict[int, dict[int, int]] = {}
    for h, (col, row) in enumerate(view.layout.coords):
        rows.setdefault(row, {})[col] = h
    width = max(c for c, _ in view.layout.coords) + 1
    lines = []
    for row in sorted(rows):
        cells = [
            _cell(s, rows[row][c], view.faction[rows[row][c]]) if c in rows[row] else "   "
            for c in range(width)
        ]
        lines.append(f"{row + 1:>2} " + ("  " if row % 2 else "") + " ".join(cells).rstrip())
    header = "   " + " ".join(f"{chr(65 + c)}  " for c in range(width)).rstrip()
    return [header, *lines]


def _stratos_line(s: CytressState) -> str:
    parts = []
    for level in (3, 2, 1):
        counts = "/".join(str(r.stratos[level - 1]) for r in s.rebels)
        parts.append(f"level {level} {counts}")
    return ", ".join(parts)


def _intel_line(game: CytressGame, s: CytressState) -> str:
    """The face-up intel cards by faction board: ``COR 06 03 14 | PRI ...`` (a card's code is its
    board's three letters and its number; an empty slot ``--``); while a seat chooses among a
    faction's cards, those cards with their icons and target: ``COR 06 creds+tech→PRI, ...``."""
    c = game.pack
    offered = s.pending.pad if s.step == INTEL else -1
    groups = []
    for f in range(4):
        head = FACTIONS[f][:3].upper()
        cards = [c.intel[x].code if x != NOBODY else "--" for x in s.intel_row[f]]
        if all(x == "--" or x.startswith(head) for x in cards):
            cards = [x.removeprefix(head) for x in cards]
        if f == offered:  # the cards to choose from, with what they show
            cards = [_intel_short(c, x, code) for x, code in zip(s.intel_row[f], cards, strict=True)]
            return f"{head} {', '.join(cards)}"
        groups.append(f"{head} {' '.join(cards)}")
    return " | ".join(groups)


def _intel_short(c: Content, x: int, code: str) -> str:
    """``11 creds+tech→PRI``: an offered intel card's resource icons and the faction it targets."""
    if x == NOBODY:
        return code
    card = c.intel[x]
    return f"{code} {'+'.join(RESOURCES[r] for r in card.icons)}→{FACTIONS[card.target][:3].upper()}"


def _board_rows(game: CytressGame, s: CytressState) -> list[Row]:
    """Stratos, the faction boards' intel, the Stratolites, the tubes, the transports and the
    enforcers."""
    c = game.pack
    owners = "you/automa" if s.solo else "by seat"
    decks = "/".join(str(len(d)) for d in s.intel_deck)
    strat = " ".join(c.stratolites[x].code if x != NOBODY else "--" for x in s.strat_row)
    bounties = " ".join(c.bounties[st[0]].code for st in s.bounty_stack if st) or "none left"
    tubes = f"{s.tubes_left} near Stratos, {s.tubes_box} in box"
    if not s.solo:
        tubes += f"; first player seat {s.first}"
    if s.end_triggered:
        tubes += "; final round"
    rows = [
        Row(label=f"Stratos {owners}", value=_stratos_line(s)),
        Row(label=f"Intel (cost {c.board_sides[s.board_side].intel_cost})", value=_intel_line(game, s)),
        Row(label="Stratolites", value=f"{strat}; deck {len(s.strat_deck)}; intel decks {decks}"),
        Row(label="Tube sections", value=tubes),
    ]
    if s.phase in (TRAVEL, EXTRA):
        home = "/".join(str(p.transports) for p in s.players)
        up = "/".join(str(p.on_stratos) for p in s.players)
        rows.append(Row(label="Transports", value=f"on the tracker {home}, on Stratos {up}"))
    claimed = "/".join(str(len(r.bounties)) for r in s.rebels)
    rows.append(Row(label="Enforcers", value=f"bounties {bounties}; claimed {claimed}"))
    return rows


SEAT_WIDTH = 69
"""The longest rebel row that fits an 80-column description on one line."""


def _seat_row(game: CytressGame, s: CytressState, seat: int, viewer: Viewer) -> Row:
    c = game.pack
    player = s.players[seat]
    res = "/".join(str(x) for x in player.resources)
    paths = "/".join(str(len(p)) for p in player.lifepaths)
    side = "?" if player.side < 0 else "AB"[player.side]
    owner = s.rebels[seat]
    rebel = c.rebels[owner.board]
    mark = ">" if s.actor == seat and s.phase != OVER else " "
    value = f"{rebel.name} {side}, {res}; intel {paths}; crews {owner.unused}"
    if player.reserved != NOBODY:
        value += f"; reserved {c.stratolites[player.reserved].code}"
    held = owner.bounties
    if held:  # named when they fit (the enforcers' row counts them for every seat)
        named = f"; bounties {' '.join(c.bounties[b].code for b in held)}"
        value += named if len(value) + len(named) <= SEAT_WIDTH else ""
    return Row(label=f"{mark}seat {seat}", value=value, seat=seat)


def _automa_row(game: CytressGame, s: CytressState) -> Row:
    c = game.pack
    a = s.automa
    assert a is not None
    left = "/".join(str(len(t)) for t in a.tracker)
    rogue = s.rebels[AUTOMA]
    value = f"intel {len(a.intel)}; crews {rogue.unused}; tracker {left}; deck {len(a.deck)}"
    named = f"; bounties {' '.join(c.bounties[b].code for b in rogue.bounties)}"
    if rogue.bounties and len(value) + len(named) <= SEAT_WIDTH:
        value += named
    return Row(label=" automa", value=value)


MAP_TITLE = "Mini-map (hexes C/P/H/R by faction, a crew's seat, ^ a waste tube's height)"
END_WORDS = {
    END_TUBES: "the last allocated tube section was placed",
    END_SOLO: "a solo game ends after round 5",
    END_LIMIT: "the round_limit cap, not the rulebook's end",
}
"""Which end finished the game (``flow.end_condition``), as the headline says it."""
REBELS_TITLE = "Rebels (creds/tech/ammo/glow; intel cards on lifepaths C/P/H/R; crews left)"


def describe(game: CytressGame, s: CytressState, viewer: Viewer) -> Description:
    """What ``viewer`` may see: everything but deck order (the referee sees that too). Two
    sections (the mini-map with the boards around it, and the rebels) keep 4-5 players within 24
    lines of 80 columns."""
    c = game.pack
    if 0 <= viewer < s.num_players:
        s = game.observation(s, viewer)
    headline = f"Cytress, {'solo, ' if s.solo else ''}round {s.round}: {PHASE_NAMES[s.phase]}"
    if s.phase != OVER:
        headline += f", {_who(s, s.actor)} to move"
    else:
        headline += f" ({END_WORDS[end_condition(s)]})"
    if 0 <= viewer < s.num_players and not s.solo:
        headline += f"; you are seat {viewer}"
    board = [Row(label="", value=x) for x in _map_lines(game, s)] + _board_rows(game, s)
    rebels = [_seat_row(game, s, seat, viewer) for seat in range(s.num_players)]
    if s.automa is not None:
        rebels.append(_automa_row(game, s))
    sections = [Section(title=MAP_TITLE, rows=tuple(board)), Section(title=REBELS_TITLE, rows=tuple(rebels))]
    if viewer == REFEREE:
        decks = " | ".join(
            " ".join(c.intel[x].code for x in s.intel_deck[f][:3]) or f"no {FACTIONS[f]} card"
            for f in range(4)
        )
        nxt = " ".join(c.stratolites[x].code for x in s.strat_deck[:3]) or "none"
        lines = [f"next intel: {decks}", f"next Stratolites: {nxt}"]
        if s.automa is not None:
            lines.append("AI action deck: " + " ".join(ai_card_code(x) for x in s.automa.deck))
        sections.append(Section(title="Face-down (referee only)", lines=tuple(lines)))
    return Description(
        game="cytress", viewer=viewer, headline=headline, step=step_text(game, s), sections=tuple(sections)
    )


# ---------------------------------------------------------------- log lines
_Line = Callable[["CytressGame", CytressState, int], str]
"""A log line's predicate (what follows "Seat N "), from the state before the move and its argument."""


def _title(name: str) -> str:
    return name.capitalize()


def _hex(game: CytressGame, s: CytressState, h: int) -> str:
    """``hex C4 (a Privateer hex)``: its label and its faction colour."""
    view = game.ctx.map(s.tiles)
    return f"hex {view.layout.labels[h]} (a {_title(FACTIONS[view.faction[h]])} hex)"


def _stratolite(game: CytressGame, x: int) -> str:
    card = game.pack.stratolites[x]
    return (
        f"the Stratolite {card.name} ({card.code}: waste tubes onto {_title(FACTIONS[card.hex])} "
        f"hexes, paid in {RESOURCES[card.resource]})"
    )


def _side(game: CytressGame, s: CytressState, x: int) -> str:
    rebel = game.pack.rebels[s.rebels[s.actor].board]
    icons = "; ".join(
        f"{_title(FACTIONS[f])} {', '.join(RESOURCES[r] for r in path)}"
        for f, path in enumerate(rebel.sides[x])
        if path
    )
    return f"plays {rebel.name}'s rebel board on side {'AB'[x]} (lifepath icons: {icons})"


def _intel(game: CytressGame, s: CytressState, x: int) -> str:
    card = game.pack.intel[x]
    icons = ", ".join(RESOURCES[r] for r in card.icons) or "no resource icon"
    return (
        f"takes the {_title(FACTIONS[card.faction])} intel card {card.code} ({icons}) onto the "
        f"{_title(FACTIONS[card.faction])} lifepath; it targets the {FACTION_TITLES[card.target]}"
    )


def _spy(game: CytressGame, s: CytressState, x: int) -> str:
    view = game.ctx.map(s.tiles)
    near = [h for h in view.layout.adjacent[s.pending.hex] if s.crew[h] == x]
    gains = ", ".join(RESOURCES[view.resource[h]] for h in near)
    return f"spies on {_who(s, x)} next to {_hex(game, s, s.pending.hex)}: gains {gains}"


def _bounty(game: CytressGame, s: CytressState, x: int) -> str:
    card = game.pack.bounties[x]
    return (
        f"meets the Enforcers and takes the tier {card.tier} bounty against the "
        f"{FACTION_TITLES[card.faction]} ({card.code})"
    )


def _benefit(game: CytressGame, s: CytressState, x: int) -> str:
    card = game.pack.bounties[s.pending.card]
    if x == BENEFIT_NONE:
        return "takes no immediate benefit from the bounty"
    if x == BENEFIT_CREW:
        return f"sends a crew to a {_title(FACTIONS[card.hex])} hex (the bounty's benefit)"
    level = x - BENEFIT_ASCEND_1 + 1
    return (
        f"pays {ASCEND_COST} {RESOURCES[card.resource]} to move a crew on Stratos from level {level} to "
        f"level {level + 1} (the bounty's benefit)"
    )


def _trade(game: CytressGame, s: CytressState, x: int) -> str:
    give, get = divmod(s.pending.trade, 4)
    return f"trades {x} {RESOURCES[give]} for {RESOURCES[get]} at the Merchant"


def _automa(verb: str) -> _Line:
    def line(game: CytressGame, s: CytressState, x: int) -> str:
        return f"breaks the automa's tie: the automa {verb} {_hex(game, s, x)}"

    return line


_LINES: dict[str, _Line] = {
    "side": _side,
    "scout": lambda g, s, x: f"scouts the {FACTION_TITLES[x // 2]} (scouting spot {x % 2 + 1})",
    "pad": lambda g, s, x: (
        f"meets the {FACTION_TITLES[x]} and pays their intel cost in {RESOURCES[g.pack.faction_resource[x]]}"
        if x < 4
        else f"sends a transport to the {PADS[x].capitalize()} landing pad"
    ),
    "intel": _intel,
    "crew": lambda g, s, x: f"places a crew on {_hex(g, s, x)}",
    "spy": _spy,
    "nospy": lambda g, s, x: "does not spy",
    "stratolite": lambda g, s, x: f"meets {_stratolite(g, x)}",
    "pay": lambda g, s, x: f"meets the Renegade and will pay in {RESOURCES[x]}",
    "height": lambda g, s, x: (
        f"pays {TUBE_COST[x]} {RESOURCES[s.pending.resource]} for a waste tube {x} "
        f"section{'s' if x > 1 else ''} high"
    ),
    "tube": lambda g, s, x: (
        f"drops a waste tube {s.pending.height} section{'s' if s.pending.height > 1 else ''} high "
        f"onto {_hex(g, s, x)}; the crew there ascends to level {s.pending.height} of Stratos"
    ),
    "bounty": _bounty,
    "benefit": _benefit,
    "reserve": lambda g, s, x: f"reserves {_stratolite(g, x)}",
    "keep": lambda g, s, x: "keeps the Stratolite already reserved",
    "trade": lambda g, s, x: f"chooses the Merchant's trade of {RESOURCES[x // 4]} for {RESOURCES[x % 4]}",
    "amount": _trade,
    "done": lambda g, s, x: "is done trading at the Merchant",
    "automa-crew": _automa("places a crew on"),
    "automa-move": _automa("moves its crew from"),
    "automa-tube": _automa("drops a waste tube onto"),
}
"""rule: cytress/phase-3a-travel (and the phases' sections) - each decision as a table's log says it."""


def log_line(game: CytressGame, s: CytressState, a: CAction, viewer: Viewer) -> str:
    """One sentence, as an online table writes its log (nothing in an action is hidden)."""
    if s.phase == OVER:
        return "The game is over."
    line = _LINES.get(a.kind)
    who = _who(s, s.actor).capitalize()
    if line is None:
        return f"{who}: {game.action_to_text(s, a)}."
    return f"{who} {line(game, s, a.arg)}."


# ---------------------------------------------------------------- explain
def explain(game: CytressGame, s: CytressState, a: CAction) -> Sequence[Fact]:
    """What the move gains and costs for the mover, the same labels on every candidate."""
    seat = s.actor
    if s.phase == OVER or seat < 0:
        return ()
    after = game.apply_trusted(s, a)
    ev = game.evaluator
    before = _tallies(game, s)
    tallies = _tallies(game, after)
    before_now = before[seat].total
    after_now = tallies[seat].total
    proj_before = ev.projected(s, before)[seat]
    proj_after_all = ev.projected(after, tallies)
    proj_after = proj_after_all[seat]
    spent = sum(s.players[seat].resources) - sum(after.players[seat].resources)
    mine = tallies[seat]
    others = [t.total for t in tallies if t.owner != seat]
    margin = mine.total - max(others) if others else 0
    if after.phase == OVER:
        chance = game.returns(after)[seat]
    else:
        chance = ev.chances_from(after, proj_after_all)[seat]
    return (
        Fact(
            label="PRESTIGE if the rebellion broke out now",
            value=float(after_now - before_now),
            unit="PRESTIGE",
            better=1,
        ),
        Fact(
            # the heuristic's fitted projection: solo, the margin over the automa; else a fitted score
            label=(
                "projected margin over the automa (estimate), change"
                if game.num_players(s) == 1
                else "projected final PRESTIGE (estimate), change"
            ),
            value=round(proj_after - proj_before, 2),
            unit="PRESTIGE",
            better=1,
        ),
        Fact(label="resources spent", value=float(spent), unit="resources", better=-1),
        Fact(label="crews on Stratos", value=float(sum(mine.crews)), unit="crews", better=1),
        Fact(label="waste tubes controlled", value=float(len(mine.tubes)), unit="tubes", better=1),
        Fact(
            label="your crews around waste tubes, change",
            value=float(_around_tubes(game, after, seat) - _around_tubes(game, s, seat)),
            unit="crews",
            better=1,
        ),
        *_holding_facts(game, after, seat, mine),
        Fact(label="margin over the best rival now", value=float(margin), unit="PRESTIGE", better=1),
        Fact(label="win chance (estimate)", value=round(float(chance), 4), unit="probability", better=1),
    )


def _holding_facts(game: CytressGame, after: CytressState, seat: int, mine: Tally) -> tuple[Fact, ...]:
    """``explain``'s facts about what the mover holds after the move: resources, icons, targets, the
    reach of its reserved Stratolite and the rivals to spy on."""
    return (
        *(
            Fact(label=f"{name} after the move", value=float(after.players[seat].resources[r]), unit=name)
            for r, name in enumerate(RESOURCES)
        ),
        *(
            Fact(
                label=f"{name} icons on your lifepaths",
                value=float(sum(path[r] for path in after.players[seat].icons)),
                unit="icons",
                better=1,
            )
            for r, name in enumerate(RESOURCES)
        ),
        *(
            Fact(
                label=f"your intel cards targeting the {FACTION_TITLES[f]}",
                value=float(mine.facts.targets[f]),
                unit="cards",
                better=1,
            )
            for f in range(4)
        ),
        Fact(
            label="hexes with your crew your reserved Stratolite can drop a tube on",
            value=float(_reserved_reach(game, after, seat)),
            unit="hexes",
            better=1,
        ),
        Fact(
            label="rivals next to the crew placed (to spy on)",
            value=float(sum(1 for b in game.legal_actions(after) if b.kind == "spy"))
            if after.step == SPY and after.actor == seat
            else 0.0,
            unit="rivals",
            better=1,
        ),
    )


def _around_tubes(game: CytressGame, s: CytressState, seat: int) -> int:
    """rule: cytress/score-waste-tubes - the seat's crews on hexes around waste tubes (each crew
    counted once per tube it surrounds: what decides the tubes' majorities)."""
    adjacent = game.ctx.map(s.tiles).layout.adjacent
    return sum(1 for h, height in enumerate(s.tube) if height for n in adjacent[h] if s.crew[n] == seat)


def _reserved_reach(game: CytressGame, s: CytressState, seat: int) -> int:
    """rule: cytress/meet-the-fixer - the hexes holding the seat's crew and no tube whose type the
    seat's reserved Stratolite drops tubes onto (0 with none reserved)."""
    card = s.players[seat].reserved if seat < len(s.players) else -1
    if card < 0:
        return 0
    faction = game.ctx.map(s.tiles).faction
    kind = game.pack.stratolites[card].hex
    return sum(1 for h, o in enumerate(s.crew) if o == seat and not s.tube[h] and faction[h] == kind)


def _tallies(game: CytressGame, s: CytressState) -> tuple[Tally, ...]:
    """The rebellion of ``s`` (the game keeps the last few: every candidate shares its position)."""
    last = game.last_tallies
    for st, t in last:
        if st is s:
            return t
    view = game.ctx.map(s.tiles)
    t, _ = rebellion(
        card_facts(game.pack, s), [r.stratos for r in s.rebels], s.crew, s.tube, view.layout.adjacent
    )
    last.insert(0, (s, t))
    del last[4:]
    return t
