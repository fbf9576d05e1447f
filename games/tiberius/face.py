"""The face of Tiberius Who? for people: the catalogue of components, a readable description of a
position, an SVG picture of the boxes with their cubes and the face-up cards, log lines, and facts
about a move (games/core/face.py).

Everything a seat is shown is drawn from its observation (``TiberiusGame.observation``): the deck
order and the other seats' secret adoption cards stay hidden; a spectator sees no secret card; the
referee sees everything.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from games.core.face import (
    REFEREE,
    SPECTATOR,
    Catalogue,
    ContentItem,
    Description,
    Fact,
    Row,
    Section,
    Viewer,
)
from games.core.text import plural
from games.tiberius.model import (
    BD,
    BLACK,
    BOARD_BOXES,
    BOX_KEYS,
    BOX_NAMES,
    CARD,
    CUBE,
    EM,
    EMPTY,
    HIDDEN,
    ICON_NAMES,
    IN,
    NOTHING,
    OVER,
    PC,
    PCIM_CARD,
    PICK,
    AdoptionCard,
    CareerCard,
    TAction,
    TiberiusState,
)

if TYPE_CHECKING:
    from games.tiberius.game import TiberiusGame

__all__ = ["Face"]

SEAT_COLOURS = ("#c0392b", "#2160c4", "#1e7b34", "#a87800", "#8e44ad", "#404040")
"""A colour per seat (the six player colours of the cubes), each at least 3:1 against every box's
tint and the table (tests/core/test_pictures.py)."""
BOX_COLOURS = {
    "conquests": "#d9534f",
    "imperial_marriages": "#f4a6c6",
    "pro_consular_imperium_maius": "#a0a0a0",
    "consul_censor": "#8e6bbf",
    "governorships": "#5cb85c",
    "triumphs": "#f0913a",
    "imperator": "#f2d14b",
    "priesthoods": "#9c6b3f",
    "emperor": "#4a7fd4",
    "influence": "#ffffff",
}
"""The colour of each box and its icon (the icon colours of the career cards)."""
ICON_WORDS = {
    "conquest": "Conquests",
    "marriage": "Imperial Marriages",
    "consul": "Consul/Censor",
    "governor": "Governorships",
    "triumph": "Triumphs",
    "imperator": "Imperator",
    "priest": "Priesthoods",
    "emperor": "Emperor",
    "influence": "Influence",
    "black": "any box (black)",
}
ICON_BOX_KEYS = {
    "conquest": "conquests",
    "marriage": "imperial_marriages",
    "consul": "consul_censor",
    "governor": "governorships",
    "triumph": "triumphs",
    "imperator": "imperator",
    "priest": "priesthoods",
    "emperor": "emperor",
    "influence": "influence",
}
BOX_TEXTS = {
    "conquests": "Most: 10 VP; 2nd: 5 VP; 3rd: 2 VP; others: 0 VP. Tie-breaker 8.",
    "imperial_marriages": "Most cubes (no ties): +5 VP; no cubes: -5 VP. Tie-breaker 4.",
    "pro_consular_imperium_maius": "Most cubes: 12 VP; 2nd: 10 VP; others with cubes: 7 VP; no cubes: "
    "0 VP. Tie-breaker 3.",
    "consul_censor": "All players: 3 VP for the first cube, 2 VP for the second, 1 VP per cube after "
    "two. Tie-breaker 9.",
    "governorships": "Most cubes: 6 VP; 2nd: 5 VP; 3rd: 4 VP; others with cubes: 2 VP; no cubes: 0 VP. "
    "Tie-breaker 7.",
    "triumphs": "2 VP per cube; no cubes: -3 VP. Only Augustus's family (Imperial Marriages or adopted "
    "sons) is awarded Triumphs. Tie-breaker 10.",
    "imperator": "1 VP per cube; most cubes: +3 VP; least cubes: -3 VP. Tie-breaker 5.",
    "priesthoods": "1 VP per cube. Tie-breaker 6.",
    "emperor": "The blue box: Emperor cubes pay for a career card's second or third row.",
    "influence": "The player mat's Influence box: bids and purchases are paid from it. At the end: "
    "1 VP per 3 Influence cubes. Tie-breaker 2 (after adoption).",
    "bid": "The player mat's Bid box: this turn's bid for the order of picking career cards.",
}
"""Each box's rules text, transcribed from the VP schedule and the board."""
PCIM_TEXT = (
    "Augustus grants Pro-Consular Imperium Maius for 3 years: move at least 5 cubes from anywhere "
    "(except Stock) to Gray. Once per game; the player takes no career card this turn and takes the "
    "Priority marker."
)
_ONE_CUBE = re.compile(r"\b1 cubes\b")
"""The scoring module's ``"1 cubes"``, said ``"1 cube"``."""
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")
ROW_NAMES = ("top", "second", "third")


def _tint(colour: str, white: float = 0.85) -> str:
    """``colour`` mixed with ``white`` parts of white: a box's body, where the cubes stand out."""
    rgb = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(c + (255 - c) * white):02x}" for c in rgb)


def _luminance(colour: str) -> float:
    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(int(colour[i : i + 2], 16) / 255) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _ink(colour: str) -> str:
    """Black or white, whichever reads better on ``colour`` (a box's header)."""
    return "#111111" if _luminance(colour) > 0.18 else "#ffffff"


class Face:
    """The face of one ``TiberiusGame`` (its content pack loaded).

    Args:
        game: the game whose pack, scoring and observation the face reads.
    """

    def __init__(self, game: TiberiusGame) -> None:
        self.game = game
        self.pack = game.pack
        self._catalogue: Catalogue | None = None

    # ------------------------------------------------------------------ naming things
    def card_name(self, card: int) -> str:
        """``"GAL03 Triumph in Germania"`` (a career card, its id and title)."""
        c = self.pack.cards[card]
        return f"{c.code} {c.title}"

    def row_text(self, card: CareerCard, index: int) -> str:
        """One icon row as words: ``"Conquests, Triumphs, Priority"``."""
        row = card.rows[index]
        words = [ICON_WORDS[ICON_NAMES[i]] for i in row.icons] + (["Priority"] if row.priority else [])
        text = ", ".join(words)
        if index:
            text += f" (costs {plural(row.cost, 'Emperor cube')})"
        return text

    def card_text(self, card: CareerCard) -> str:
        """A career card's rules text: its rows of icons."""
        return "; ".join(f"{ROW_NAMES[i]} row: {self.row_text(card, i)}" for i in range(len(card.rows)))

    def _adoption_short(self, card: AdoptionCard) -> str:
        """``"A08 (needs 2 Conquests, 1 Priesthoods)"``."""
        return f"{card.code} (needs {', '.join(f'{n} {BOX_NAMES[b]}' for b, n in card.requires)})"

    def adoption_text(self, card: AdoptionCard) -> str:
        """``"1 Priesthoods, 3 Imperator (simultaneously): 8 VP"``."""
        needs = ", ".join(f"{n} {BOX_NAMES[b]}" for b, n in card.requires)
        return f"For possessing the following cubes simultaneously: {needs}. 8 VP."

    # ------------------------------------------------------------------ content
    def content(self) -> Catalogue:
        """The career cards, the adoption cards, the Pro-Consular Imperium Maius card and the boxes."""
        if self._catalogue is not None:
            return self._catalogue
        items: list[ContentItem] = []
        for card in self.pack.cards:
            items.append(
                ContentItem(
                    id=card.code,
                    kind="career card",
                    name=card.title,
                    text=self.card_text(card),
                    values={
                        "region": self.pack.regions[card.region],
                        "rows": [
                            {
                                "icons": [ICON_NAMES[i] for i in row.icons],
                                "priority": row.priority,
                                "emperor_cost": row.cost if k else 0,
                            }
                            for k, row in enumerate(card.rows)
                        ],
                    },
                    authored=True,
                )
            )
        for a in self.pack.adoptions:
            items.append(
                ContentItem(
                    id=a.code,
                    kind="adoption card",
                    name=f"Son of Augustus (Adoption {a.code[1:]})",
                    text=self.adoption_text(a),
                    values={"requires": {BOX_KEYS[b]: n for b, n in a.requires}, "vp": 8},
                    authored=a.authored,
                )
            )
        items.append(
            ContentItem(
                id="pro_consular_imperium_maius",
                kind="card",
                name="Pro-Consular Imperium Maius",
                text=PCIM_TEXT,
            )
        )
        for key, name in zip(BOX_KEYS, BOX_NAMES, strict=True):
            items.append(ContentItem(id=key, kind="box", name=name, text=BOX_TEXTS[key]))
        self._catalogue = Catalogue(
            game="tiberius",
            version=self.pack.version,
            items=tuple(items),
            notes="The rulebook prints no career cards: the 64 career cards (titles and icons; only "
            "'Governor of Tarraconensis, Hispania 06' is printed) and seven of the nine adoption cards "
            "(all but Adoption 04 and 06) are authored; replace them with a content pack "
            "(content_path=). The boxes' texts are transcribed from the VP schedule.",
        )
        return self._catalogue

    # ------------------------------------------------------------------ describe
    def view(self, state: TiberiusState, viewer: Viewer) -> TiberiusState:
        """What ``viewer`` may see: a seat's observation; a spectator sees no unrevealed secret card."""
        if viewer == REFEREE:
            return state
        return self.game.observation(state, -1 if viewer == SPECTATOR else viewer)

    def headline(self, s: TiberiusState) -> str:
        if s.phase == OVER:
            return f"Tiberius Who? - the game is over after {s.turns} turns"
        return f"Tiberius Who? - turn {s.turn} of {s.turns}: seat {s.actor} to move"

    def step(self, s: TiberiusState) -> str:
        """The decision that is open, in the rulebook's words."""
        a = s.actor
        if s.phase == OVER:
            totals = self.game.totals(s)
            winner = self.game.standings(s)[0]
            if s.num_players == 1:
                verdict = "wins" if totals[0] >= 45 else "falls short of the 45 VP needed"
                return f"game over: seat 0 {verdict} with {totals[0]} VP"
            return f"game over: seat {winner} wins with {totals[winner]} VP"
        if s.phase == CARD:
            return "card phase: bid, buy a card (6 Influence), play Imperium Maius or take 2 Influence"
        if s.phase == PICK:
            return f"card phase: seat {a}, bidder of {s.players[a].bid}, takes a face-up career card"
        if s.phase == CUBE:
            if s.players[a].played == PCIM_CARD:
                return f"cube phase: Imperium Maius - move cubes to gray ({s.moved} of 5 moved)"
            if s.black:
                return f"cube phase: place a black icon's cube in any box ({s.black} to place)"
            card = self.pack.cards[s.players[a].played]
            rows = "; ".join(
                f"row {k + 1} ({ROW_NAMES[k]}): {self.row_text(card, k)}" for k in range(1, len(card.rows))
            )
            head = f"cube phase: buy an extra row of {card.code} {card.title} with Emperor cubes, or none"
            return f"{head}; {rows}"
        return "adoption phase: declare an adoption (one's own card or a face-up one) or pass"

    def _cubes_text(self, cubes: Sequence[int]) -> str:
        shown = [f"{BOX_NAMES[b]} {cubes[b]}" for b in (*BOARD_BOXES, BD) if cubes[b]]
        return ", ".join(shown) or "no cubes on the board"

    def _this_turn(self, s: TiberiusState, p: int) -> str:
        me = s.players[p]
        played = me.played
        if me.bid:
            return f"bid {me.bid}"
        if played == PCIM_CARD:
            return "Pro-Consular Imperium Maius"
        if played != NOTHING:
            return self.pack.cards[played].code
        return "-"

    def _seat_section(self, s: TiberiusState, p: int, viewer: Viewer, vp: int) -> Section:
        """One seat's holdings in three lines: its mat in the title, its boxes, its cards."""
        me = s.players[p]
        c = me.cubes
        marks = [f"Influence {c[IN]}", f"stock {me.stock}", f"VP now {vp}"]
        if s.priority == p:
            marks.append("Priority marker")
        if me.adopted >= 0:
            marks.append(f"Son of Augustus ({self.pack.adoptions[me.adopted].code})")
        careers = ", ".join(self.pack.cards[x].code for x in me.careers) or "none"
        imperium = "; Imperium Maius played" if me.pcim_used and me.played != PCIM_CARD else ""
        rows = [
            Row(label="Boxes", value=self._cubes_text(c), seat=p),
            Row(label="Cards", value=f"{careers}; this turn: {self._this_turn(s, p)}{imperium}", seat=p),
        ]
        secret = me.secret
        if viewer in (p, REFEREE) and secret not in (HIDDEN, me.adopted):
            card = self.pack.adoptions[secret]
            needs = ", ".join(f"{n} {BOX_NAMES[b]}" for b, n in card.requires)
            rows.append(Row(label="Secret", value=f"adoption card {card.code}: {needs}", seat=p))
        return Section(title=f"Seat {p}: {', '.join(marks)}", rows=tuple(rows), seat=p)

    def describe(self, state: TiberiusState, viewer: Viewer) -> Description:
        """The board (face-up cards, adoption cards), then every seat's holdings; a seat's own
        secret adoption card only in its own view (and the referee's)."""
        s = self.view(state, viewer)
        board = []
        for d, region in enumerate(self.pack.regions):
            up = s.face_up[d]
            shown = "-" if up == EMPTY else self.card_name(up)
            board.append(Row(label=region, value=f"{shown} ({len(s.decks[d])} face down)"))
        face_up = "; ".join(self._adoption_short(self.pack.adoptions[a]) for a in s.adopt_face_up) or "none"
        board.append(Row(label="Adoption cards face up", value=face_up))
        totals = self.game.totals(s)
        sections = [Section(title="Board", rows=tuple(board))]
        sections += [self._seat_section(s, p, viewer, totals[p]) for p in range(s.num_players)]
        return Description(
            game="tiberius",
            viewer=viewer,
            headline=self.headline(s),
            step=self.step(s),
            sections=tuple(sections),
        )

    # ------------------------------------------------------------------ log lines
    def log_line(self, state: TiberiusState, action: TAction, viewer: Viewer) -> str:
        """One sentence per action, as an online table writes it (every Tiberius action is public)."""
        p, k, a = state.actor, action.kind, action.arg
        who = f"Seat {p}"
        if k == "bid":
            return f"{who} bids {a} Influence for the order of picking career cards."
        if k == "buy":
            return f"{who} buys {self.card_name(a)} for 6 Influence."
        if k == "pcim":
            return f"{who} plays Pro-Consular Imperium Maius and takes the Priority marker."
        if k == "take2":
            return f"{who} takes 2 Influence."
        if k == "pick":
            return f"{who} (bid {state.players[p].bid}) takes {self.card_name(a)}."
        if k == "black":
            return f"{who} places a black icon's cube in {BOX_NAMES[a]}."
        if k == "row":
            if not a:
                return f"{who} buys no extra row."
            card = self.pack.cards[state.players[p].played]
            return f"{who} buys the {ROW_NAMES[a]} row of {card.code}: {self.row_text(card, a)}."
        if k == "move":
            return f"{who} moves a cube from {BOX_NAMES[a]} to {BOX_NAMES[PC]} (gray)."
        if k == "done":
            return f"{who} ends its Pro-Consular Imperium Maius moves ({plural(state.moved, 'cube')} moved)."
        if k == "adopt":
            if a == -1:
                own = state.players[p].secret
                code = self.pack.adoptions[own].code if own >= 0 else "its card"
                return f"{who} turns its adoption card {code} face up: a Son of Augustus."
            return f"{who} claims the face-up adoption card {self.pack.adoptions[a].code}: a Son of Augustus."
        return f"{who} passes."

    # ------------------------------------------------------------------ explain and outcome facts
    def explain(self, state: TiberiusState, action: TAction) -> list[Fact]:
        """See :func:`explain_move`."""
        return explain_move(self.game, state, action)

    def outcome_facts(self, state: TiberiusState, seat: int) -> list[Fact]:
        """See :func:`standing_facts`."""
        return standing_facts(self.game, state, seat)

    # ------------------------------------------------------------------ render
    def render(self, state: TiberiusState, viewer: Viewer) -> str:
        """An SVG: the face-up career cards, the main board's boxes with each seat's cubes, and each
        seat's mat (Influence, bid, stock, career cards, adoption)."""
        return _Picture(self, self.view(state, viewer), viewer).svg()


class _Picture:
    """The SVG drawing of one view of a position."""

    WIDTH = 980

    def __init__(self, face: Face, s: TiberiusState, viewer: Viewer) -> None:
        self.face = face
        self.s = s
        self.viewer = viewer
        self.out: list[str] = []

    def text(
        self, x: float, y: float, body: str, *, size: int = 12, weight: str = "normal", fill: str = "#222"
    ) -> None:
        self.out.append(
            f'<text x="{x:g}" y="{y:g}" font-size="{size}" font-weight="{weight}" fill="{fill}">'
            f"{html.escape(body)}</text>"
        )

    def rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        fill: str,
        *,
        stroke: str = "#555",
        rx: int = 4,
        width: float = 1,
    ) -> None:
        self.out.append(
            f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="{rx}" '
            f'fill="{fill}" stroke="{stroke}"' + (f' stroke-width="{width:g}"' if width != 1 else "") + "/>"
        )

    def svg(self) -> str:
        s = self.s
        height = 452 + 26 * s.num_players
        self.out = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.WIDTH}" height="{height}" '
            f'viewBox="0 0 {self.WIDTH} {height}" font-family="DejaVu Sans, sans-serif">',
            f'<rect width="{self.WIDTH}" height="{height}" fill="#f6f1e4"/>',
        ]
        self.text(16, 28, self.face.headline(s), size=17, weight="bold")
        self.text(16, 48, self.face.step(s), size=12, fill="#444")
        self.cards(16, 64)
        self.boxes(16, 214)
        self.mats(16, 456)
        self.out.append("</svg>")
        return "\n".join(self.out)

    def cards(self, x0: float, y0: float) -> None:
        """The six regional decks: the face-up career card of each, its icon rows as coloured dots."""
        pack = self.face.pack
        w, h = 152, 136
        for d, region in enumerate(pack.regions):
            x = x0 + d * (w + 8)
            up = self.s.face_up[d]
            self.rect(x, y0, w, h, "#fffdf6" if up != EMPTY else "#e6e0d0")
            self.text(x + 6, y0 + 15, region, size=11, weight="bold", fill="#6b4f1d")
            self.text(x + 6, y0 + h - 6, f"{len(self.s.decks[d])} face down", size=10, fill="#777")
            if up == EMPTY:
                continue
            card = pack.cards[up]
            self.text(x + 6, y0 + 31, card.code, size=11, weight="bold")
            title = card.title if len(card.title) <= 25 else card.title[:24] + "\u2026"
            self.text(x + 6, y0 + 45, title, size=10)
            for r, row in enumerate(card.rows):
                y = y0 + 62 + r * 20
                if r:  # a row bought with Emperor cubes: the Emperor box's tint
                    self.rect(x + 4, y - 9, w - 8, 18, _tint(BOX_COLOURS["emperor"]), stroke="#7d93bd", rx=3)
                for i, icon in enumerate(row.icons):
                    name = ICON_NAMES[icon]
                    colour = "#111" if icon == BLACK else BOX_COLOURS[ICON_BOX_KEYS[name]]
                    self.out.append(
                        f'<circle cx="{x + 14 + 16 * i}" cy="{y}" r="6" fill="{colour}" stroke="#333" '
                        'stroke-width="2"/>'
                    )
                if row.priority:
                    self.text(
                        x + 14 + 16 * len(row.icons) - 5, y + 4, "P", size=11, weight="bold", fill="#7a5600"
                    )

    def boxes(self, x0: float, y0: float) -> None:
        """The main board's boxes with each seat's cubes (a row of squares and the count per seat)."""
        s = self.s
        w, h = 184, 100
        for i, b in enumerate(BOARD_BOXES):
            x = x0 + (i % 5) * (w + 8)
            y = y0 + (i // 5) * (h + 8)
            colour = BOX_COLOURS[BOX_KEYS[b]]
            self.rect(x, y, w, h, _tint(colour))  # the body the cubes stand in: a light tint
            self.rect(x, y, w, 20, colour)  # the header in the box's own colour
            name = "Pro-Consular Imp. Maius" if b == PC else BOX_NAMES[b]
            self.text(x + 6, y + 15, name, size=11, weight="bold", fill=_ink(colour))
            for p, player in enumerate(s.players):
                n = player.cubes[b]
                yy = y + 26 + p * 12
                for k in range(min(n, 12)):
                    self.rect(x + 8 + k * 11, yy, 9, 9, SEAT_COLOURS[p], stroke="#222", rx=1)
                if n:
                    self.text(x + 8 + min(n, 12) * 11 + 4, yy + 9, str(n), size=10)

    def mats(self, x0: float, y0: float) -> None:
        """Each seat's mat: Influence, bid, stock, career cards, adoption."""
        s, face = self.s, self.face
        totals = face.game.totals(s)
        for p, me in enumerate(s.players):
            y = y0 + p * 26
            self.rect(x0, y - 12, 14, 14, SEAT_COLOURS[p], stroke="#222", rx=2)
            adoption = "Son of Augustus" if me.adopted >= 0 else ""
            secret = me.secret
            if self.viewer in (p, REFEREE) and secret not in (HIDDEN, me.adopted):
                adoption = (
                    adoption + "; " if adoption else ""
                ) + f"secret card {face.pack.adoptions[secret].code}"
            marks = " - Priority" if s.priority == p else ""
            line = (
                f"Seat {p}{marks}: Influence {me.cubes[IN]}, bid {me.cubes[BD]}, stock {me.stock}, "
                f"{plural(len(me.careers), 'career card')}, VP now {totals[p]}"
                + (f"; {adoption}" if adoption else "")
            )
            self.text(x0 + 22, y, line, size=12)


def explain_move(g: TiberiusGame, state: TiberiusState, action: TAction) -> list[Fact]:
    """What the move gains and costs now, with the same labels on every candidate: VP if the game
    ended after it, Influence spent, cubes placed on the board, Emperor cubes spent, and the
    margin over the best other seat in the boxes the move changes."""
    seat = state.actor
    if seat < 0:
        return []
    after = g.apply(state, action)
    gain = g.totals(after)[seat] - g.totals(state)[seat]
    me0, me1 = state.players[seat].cubes, after.players[seat].cubes
    spent = me0[IN] - me1[IN]  # (a bid moves Influence to the Bid box: spent once it is made)
    placed = sum(me1[b] for b in BOARD_BOXES if b != EM) - sum(me0[b] for b in BOARD_BOXES if b != EM)
    facts = [
        Fact(
            label="VP if the game ended now",
            value=float(gain),
            unit="VP",
            better=1,
            text=f"{gain:+d} VP if the game ended now",
        ),
        Fact(
            label="Influence spent",
            value=float(spent),
            unit="cubes",
            better=-1,
            text=f"spends {plural(spent, 'Influence cube')}" if spent >= 0 else f"gains {-spent} Influence",
        ),
        Fact(
            label="cubes placed in scoring boxes",
            value=float(placed),
            unit="cubes",
            better=1,
            text=f"places {plural(placed, 'cube')} in scoring boxes",
        ),
        Fact(label="Emperor cubes spent", value=float(max(0, me0[EM] - me1[EM])), unit="cubes", better=-1),
    ]
    return facts + _margin_facts(state, after, seat) + _action_facts(state, action)


def standing_facts(g: TiberiusGame, state: TiberiusState, seat: int) -> list[Fact]:
    """Where ``seat`` stands, for hints: its VP if the game ended now, its lead over the best other
    seat, the VP of every scoring category with how it is earned (rule: tiberius/end-of-game),
    then its Influence and Emperor cubes (the next bids and rows)."""
    if not 0 <= seat < state.num_players:
        return []
    tallies = g.tally(state)
    mine = tallies[seat]
    facts = [
        Fact(
            label="VP if the game ended now",
            value=float(mine.total),
            unit="VP",
            better=1,
            text=f"{mine.total} VP if the game ended now",
        )
    ]
    others = [t.total for t in tallies if t.seat != seat]
    if others:
        lead = mine.total - max(others)
        facts.append(
            Fact(
                label="lead over the best other seat",
                value=float(lead),
                unit="VP",
                better=1,
                text=f"{'leads' if lead > 0 else 'trails' if lead < 0 else 'ties'} the best other seat"
                + (f" by {abs(lead)} VP" if lead else ""),
            )
        )
    for line in mine.lines:
        detail = _ONE_CUBE.sub("1 cube", line.detail)
        facts.append(
            Fact(
                label=f"{line.category} VP",
                value=float(line.points),
                unit="VP",
                better=1,
                text=f"{line.category} {line.points:+d} VP ({detail})",
            )
        )
    c = state.players[seat].cubes
    facts += [
        Fact(
            label="Influence cubes",
            value=float(c[IN]),
            unit="cubes",
            better=1,
            text=f"{plural(c[IN], 'Influence cube')} for later bids and purchases",
        ),
        Fact(
            label="Emperor cubes",
            value=float(c[EM]),
            unit="cubes",
            better=1,
            text=f"{plural(c[EM], 'Emperor cube')} to pay for extra rows",
        ),
    ]
    return facts


def _margin_facts(state: TiberiusState, after: TiberiusState, seat: int) -> list[Fact]:
    """The margin over the best other seat in (at most two of) the boxes the move changes."""
    me0, me1 = state.players[seat].cubes, after.players[seat].cubes
    facts = []
    changed = [b for b in BOARD_BOXES if b != EM and me1[b] != me0[b]]
    for b in changed[:2]:
        best_other = max(
            (after.players[t].cubes[b] for t in range(state.num_players) if t != seat), default=0
        )
        margin = me1[b] - best_other
        facts.append(
            Fact(
                label=f"majority margin in {BOX_NAMES[b]}",
                value=float(margin),
                unit="cubes",
                better=1,
                text=f"{'leads' if margin > 0 else 'trails' if margin < 0 else 'ties'} {BOX_NAMES[b]} "
                f"by {abs(margin)} after the move"
                if margin
                else f"ties the lead in {BOX_NAMES[b]}",
            )
        )
    return facts


def _action_facts(state: TiberiusState, action: TAction) -> list[Fact]:
    """What a bid's rank or an adoption adds."""
    facts = []
    if action.kind == "bid":
        rank = 1 + sum(1 for p in state.players if p.bid > action.arg)
        facts.append(
            Fact(
                label="picking order among the bids so far",
                value=float(rank),
                better=-1,
                text=f"picks {ORDINALS[rank - 1]} among the bids so far",
            )
        )
    if action.kind == "adopt":
        facts.append(Fact(label="Son of Augustus", value=8.0, unit="VP", better=1, text="adopted: +8 VP"))
    return facts
