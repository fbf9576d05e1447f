"""Tiberius Who? data model: boxes, cards, the content pack, the state and the action.

Boxes are integer ids (``Box``); a seat's record (``Player``) holds its cubes as a tuple of 11 counts
indexed by box, and its stock is what is left of the 40 (section tiberius/setup: "the cubes provided are
an absolute limit").
"""

from __future__ import annotations

from pathlib import Path
from typing import TypeAlias

from games.core.content import Node, load_json, load_manifest, resolve_pack_dir
from games.core.protocol import OptionValue, Seat, Variant
from games.core.records import Record
from games.errors import ContentError

__all__ = [
    "ADOPT",
    "BD",
    "BOARD_BOXES",
    "BOX_CODES",
    "BOX_KEYS",
    "BOX_NAMES",
    "CARD",
    "CC",
    "CQ",
    "CUBE",
    "CUBES_PER_PLAYER",
    "EM",
    "EMPTY",
    "GV",
    "HIDDEN",
    "IM",
    "IN",
    "IP",
    "NOTHING",
    "OVER",
    "PC",
    "PCIM_CARD",
    "PICK",
    "PR",
    "TR",
    "TURNS",
    "VARIANTS",
    "VARIANT_CHOICES",
    "AdoptionCard",
    "Box",
    "CardId",
    "CareerCard",
    "Content",
    "IconRow",
    "Player",
    "TAction",
    "TiberiusState",
    "load_content",
]

Box: TypeAlias = int
"""A cube box: one of the board's boxes, the mat's Influence or Bid box."""

CardId: TypeAlias = int
"""A career card: its index in ``Content.cards``."""

Phase: TypeAlias = int
"""A phase of the turn (CARD, PICK, CUBE, ADOPT) or OVER."""

CQ, IM, PC, CC, GV, TR, IP, PR, EM, IN, BD = range(11)
BOX_CODES: tuple[str, ...] = ("CQ", "IM", "PC", "CC", "GV", "TR", "IP", "PR", "EM", "IN", "BD")
BOX_NAMES: tuple[str, ...] = (
    "Conquests",
    "Imperial Marriages",
    "Pro-Consular Imperium Maius",
    "Consul/Censor",
    "Governorships",
    "Triumphs",
    "Imperator",
    "Priesthoods",
    "Emperor",
    "Influence",
    "Bid",
)
BOX_KEYS: tuple[str, ...] = (
    "conquests",
    "imperial_marriages",
    "pro_consular_imperium_maius",
    "consul_censor",
    "governorships",
    "triumphs",
    "imperator",
    "priesthoods",
    "emperor",
    "influence",
    "bid",
)
"""The boxes in the public form and the notation: ``BOX_NAMES`` as lower-case words (the rulebook's
box names; "emperor" is the blue box of Emperor cubes, "bid" the mat's Bid box)."""
BOARD_BOXES: tuple[Box, ...] = (CQ, IM, PC, CC, GV, TR, IP, PR, EM)
"""The boxes of the main board (the set bonus, section tiberius/set-bonus, counts cubes in all of them)."""

ICON_BOX: dict[str, Box] = {
    "conquest": CQ,
    "marriage": IM,
    "consul": CC,
    "governor": GV,
    "triumph": TR,
    "imperator": IP,
    "priest": PR,
    "emperor": EM,
    "influence": IN,
}
BLACK: Box = -1
"""A black icon: a cube to any box but PCIM (section tiberius/special-cases)."""
ICON_NAMES: dict[Box, str] = {**{b: n for n, b in ICON_BOX.items()}, BLACK: "black"}

CUBES_PER_PLAYER = 40
TURNS = 8
EMPTY: CardId = -1
"""An empty face-up slot."""
NOTHING: CardId = -1
"""``played``: no card this turn (took influence, or bid and found no card)."""
PCIM_CARD: CardId = -2
"""``played``: the Pro-Consular Imperium Maius card this turn."""
HIDDEN = -1
"""An adoption card the observing seat cannot see."""

CARD, PICK, CUBE, ADOPT, OVER = range(5)
PHASE_NAMES: tuple[str, ...] = ("card", "pick", "cube", "adoption", "over")
"""The phases in the public form: card phase, the bidders' picks, cube phase, adoption phase, over."""


VARIANTS: tuple[Variant, ...] = (
    Variant(
        name="influence_table",
        description="starting Influence: 'setup' = the set-up list by player count (12/24/26/"
        "28/30/32); 'mat' = the player mat, by priority position (26/28/30/32, +2 beyond)",
        default="setup",
        choices=("setup", "mat"),
    ),
    Variant(
        name="pcim_rule",
        description="Pro-Consular Imperium Maius: 'once' = once per game (rules text); "
        "'influence' = costs 3 Influence each time (player mat)",
        default="once",
        choices=("once", "influence"),
    ),
    Variant(
        name="marriage_vp",
        description="Imperial Marriages: 'schedule' = most +5 / none -5 (VP schedule); "
        "'aid' = also 1 VP per cube (VP aid)",
        default="schedule",
        choices=("schedule", "aid"),
    ),
    Variant(
        name="imperator_solo",
        description="Imperator with one player: 'both' = the lone player has both the most "
        "and the least cubes, +3 and -3 (rules text); 'most' = a lone player is never 'least'",
        default="both",
        choices=("both", "most"),
    ),
    Variant(
        name="imperator_empty",
        description="Imperator when nobody has a cube: 'tiebreak' = all ties must be broken, "
        "so the chain names a most (+3) and a least (-3) (rules text); 'least' = most needs "
        "a cube, least does not; 'none' = neither is scored",
        default="tiebreak",
        choices=("tiebreak", "least", "none"),
    ),
    Variant(
        name="turns",
        description="game length: 8 = 'The game lasts 8 turns' (rules text); 7 = the 7 "
        "spaces of the printed turn track (11-9 BC ... 11-13 AD)",
        default=TURNS,
        choices=(TURNS, 7),
    ),
    Variant(
        name="oldest_seat",
        description="the oldest player's seat (the last tie-breaker); ages fall clockwise",
        default=0,
    ),
)
"""The options of ``GameConfig.options`` (``TiberiusGame.info.variants``); the readings where the
rulebook is unclear default to its literal text (docs/tiberius.md, "Readings")."""
VARIANT_CHOICES: dict[str, tuple[OptionValue, ...]] = {v.name: v.choices for v in VARIANTS if v.choices}
"""The variants kept in the state, with their choices (the first is the default)."""


class IconRow(Record, frozen=True):
    """One row of icons on a career card.

    Attributes:
        icons: boxes in printed order (``BLACK`` for a black icon).
        priority: whether the row shows a Priority icon.
    """

    icons: tuple[Box, ...]
    priority: bool

    @property
    def cost(self) -> int:
        """Emperor cubes to buy this row as a second/third row: icons plus the priority icon."""
        return len(self.icons) + (1 if self.priority else 0)


class CareerCard(Record, frozen=True):
    """A career card of a regional deck.

    Attributes:
        id: index in ``Content.cards``.
        code: notation, e.g. ``"HIS06"`` (deck code and number).
        region: index of its regional deck (0..5).
        title: the office, e.g. ``"Governor of Tarraconensis"``.
        rows: the top row first, then the optional second and third rows.
    """

    id: CardId
    code: str
    region: int
    title: str
    rows: tuple[IconRow, ...]


class AdoptionCard(Record, frozen=True):
    """A "Son of Augustus" adoption card.

    Attributes:
        id: index in ``Content.adoptions``.
        code: notation, e.g. ``"A04"``.
        requires: (box, cubes) pairs that must all be possessed simultaneously.
        authored: False for the cards transcribed from the rulebook (04 and 06).
    """

    id: int
    code: str
    requires: tuple[tuple[Box, int], ...]
    authored: bool


class Content(Record, frozen=True):
    """A loaded content pack.

    Attributes:
        name: pack name.
        version: pack version.
        regions: regional deck names, in deck order.
        region_codes: three-letter deck codes.
        cards: every career card.
        decks: the card ids of each deck (pack order).
        adoptions: the adoption cards.
    """

    name: str
    version: str
    regions: tuple[str, ...]
    region_codes: tuple[str, ...]
    cards: tuple[CareerCard, ...]
    decks: tuple[tuple[CardId, ...], ...]
    adoptions: tuple[AdoptionCard, ...]

    def card_by_code(self, code: str) -> CareerCard | None:
        """The career card with notation ``code`` (case-insensitive), or None."""
        code = code.upper()
        for card in self.cards:
            if card.code == code:
                return card
        return None


def _row(node: Node) -> IconRow:
    icons = node.str_list("icons", choices=[*ICON_BOX, "black"])
    if not 1 <= len(icons) <= 6:
        raise node["icons"].fail("1 to 6 icons", got=len(icons))
    return IconRow(
        icons=tuple(BLACK if i == "black" else ICON_BOX[i] for i in icons), priority=node.bool("priority")
    )


def load_content(content_path: str = "") -> Content:
    """Load and validate the pack (reference pack when ``content_path`` is "").

    Raises ``ContentError`` naming the file and field: six decks, 64 cards, each deck of at least
    8 cards (one face-up per turn for 8 turns), 1-3 rows per card; exactly 9 adoption cards.
    """
    directory: Path = resolve_pack_dir("games.tiberius", content_path)
    manifest = load_manifest(directory)
    careers = load_json(directory / "careers.json")
    cards, decks, regions, codes = _career_decks(careers)
    if len(cards) != 64:
        raise ContentError(
            f"expected 64 career cards in the six decks, got {len(cards)}",
            file=careers.file,
            field="decks",
        )
    return Content(
        name=manifest.name,
        version=manifest.version,
        regions=tuple(regions),
        region_codes=tuple(codes),
        cards=tuple(cards),
        decks=tuple(decks),
        adoptions=tuple(_adoption_cards(load_json(directory / "adoptions.json"))),
    )


def _career_decks(
    careers: Node,
) -> tuple[list[CareerCard], list[tuple[CardId, ...]], list[str], list[str]]:
    """The six regional decks of ``careers.json``: the cards, each deck's card ids, the region names
    and the deck codes."""
    cards: list[CareerCard] = []
    decks: list[tuple[CardId, ...]] = []
    regions: list[str] = []
    codes: list[str] = []
    for r, deck in enumerate(careers.list("decks", min_len=6, max_len=6)):
        regions.append(deck.str("region"))
        code = deck.str("code").upper()
        if len(code) != 3 or not code.isalpha() or code in codes:
            raise deck.fail("a unique three-letter deck code", key="code", got=code)
        codes.append(code)
        ids: list[CardId] = []
        for c in deck.list("cards", min_len=8):
            number = c.int("number", min=1, max=99)
            rows = c.list("rows", min_len=1, max_len=3)
            card = CareerCard(
                id=len(cards),
                code=f"{code}{number:02d}",
                region=r,
                title=c.str("title"),
                rows=tuple(_row(n) for n in rows),
            )
            if any(x.code == card.code for x in cards):
                raise c.fail("a number unique in its deck", key="number", got=number)
            ids.append(card.id)
            cards.append(card)
        decks.append(tuple(ids))
    return cards, decks, regions, codes


def _adoption_cards(adoption_file: Node) -> list[AdoptionCard]:
    """The nine adoption cards of ``adoptions.json``."""
    adoptions: list[AdoptionCard] = []
    for a in adoption_file.list("cards", min_len=9, max_len=9):
        number = a.int("number", min=1, max=99)
        req: list[tuple[Box, int]] = []
        for key, node in a["requires"].items():
            if key not in ICON_BOX:
                raise a["requires"].fail(f"a box among {sorted(ICON_BOX)}", key=key, got=key)
            req.append((ICON_BOX[key], node.int(min=1, max=CUBES_PER_PLAYER)))
        if not req:
            raise a.fail("at least one requirement", key="requires")
        code = f"A{number:02d}"
        if any(x.code == code for x in adoptions):
            raise a.fail("a unique adoption card number", key="number", got=number)
        adoptions.append(
            AdoptionCard(
                id=len(adoptions), code=code, requires=tuple(sorted(req)), authored=a.bool("authored")
            )
        )
    return adoptions


class TAction(Record, frozen=True):
    """A Tiberius Who? action (notation in ``games.tiberius.game``).

    Attributes:
        kind: ``"bid"``, ``"buy"``, ``"pcim"``, ``"take2"`` (card phase); ``"pick"`` (bidders);
            ``"black"``, ``"row"``, ``"move"``, ``"done"`` (cube phase); ``"adopt"``, ``"pass"``
            (adoption phase).
        arg: the bid amount, card id, box, row index (0 = no extra row) or adoption card id
            (-1 = reveal one's own card); 0 when unused.
    """

    kind: str
    arg: int = 0


class Player(Record, frozen=True):
    """One seat's holdings: its cubes, its career cards, this turn's card or bid, its adoption card.

    Attributes:
        cubes: the cube count in each box (index ``Box``: the board's boxes, Influence, Bid); the seat's
            stock is what is left of its 40 (``stock``).
        careers: the career cards taken, in order.
        played: this turn's card: a card id, ``PCIM_CARD`` or ``NOTHING``.
        bid: this turn's bid still in the Bid box (0 = none; always ``cubes[BD]``).
        pcim_used: whether the seat has played the Pro-Consular Imperium Maius card (once per game by
            default).
        secret: the seat's secret adoption card id (``HIDDEN`` in another seat's observation).
        adopted: the adoption card that adopted the seat (its own or a face-up one), or -1.
    """

    cubes: tuple[int, ...]
    careers: tuple[CardId, ...] = ()
    played: CardId = NOTHING
    bid: int = 0
    pcim_used: bool = False
    secret: int = HIDDEN
    adopted: int = -1

    @property
    def stock(self) -> int:
        """Cubes in the seat's stock: 40 minus the cubes in its boxes (section tiberius/setup)."""
        return CUBES_PER_PLAYER - sum(self.cubes)


class TiberiusState(Record, frozen=True):
    """A Tiberius Who? position.

    Attributes:
        turn: game turn 1..8 (9 once the game is over).
        phase: CARD, PICK, CUBE, ADOPT or OVER.
        actor: the seat to decide (-1 when the game is over).
        start_priority: the Priority marker's holder at the start of the turn (priority order).
        priority: the Priority marker's holder now.
        players: the seats' holdings, by seat.
        decks: per regional deck, the face-down card ids, top first.
        face_up: per deck, the face-up card id or ``EMPTY``.
        adopt_face_up: the face-up adoption cards still on the board.
        adopt_unused: the adoption cards nobody may use (plus, in an observation, the unseen secret
            cards of the other seats), sorted.
        discarded: career cards removed from the game, in order.
        black: black icons the actor still has to place.
        row_open: whether the actor may still buy a second or third row.
        family: whether the actor counts as Augustus's family for Triumphs this cube action.
        moved: cubes the PCIM actor has moved to gray so far.
        age: seats from oldest to youngest (the last tie-breaker).
        influence_table: variant "setup" or "mat" (section tiberius/setup).
        pcim_rule: variant "once" or "influence" (section tiberius/card-phase).
        marriage_vp: variant "schedule" or "aid" (section tiberius/score-imperial-marriages).
        imperator_solo: variant "both" or "most" (section tiberius/score-imperator, one player).
        imperator_empty: variant "tiebreak", "least" or "none" (section tiberius/score-imperator,
            nobody has a cube).
        turns: variant 8 or 7, the game's length (section tiberius/end-of-game).
    """

    turn: int
    phase: Phase
    actor: Seat
    start_priority: Seat
    priority: Seat
    players: tuple[Player, ...]
    decks: tuple[tuple[CardId, ...], ...]
    face_up: tuple[CardId, ...]
    adopt_face_up: tuple[int, ...]
    adopt_unused: tuple[int, ...]
    discarded: tuple[CardId, ...]
    black: int
    row_open: bool
    family: bool
    moved: int
    age: tuple[Seat, ...]
    influence_table: str
    pcim_rule: str
    marriage_vp: str
    imperator_solo: str
    imperator_empty: str
    turns: int

    @property
    def num_players(self) -> int:
        """The number of seats."""
        return len(self.players)
