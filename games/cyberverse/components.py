"""The components of CyberVerse as the engine reads them: the closed vocabularies of effects and the
records of a content pack (Organizations, Agent sheets, district boards, Supply tokens, Support,
Henchman, Brawl, Ambush, Event, Story and Investigation cards, Combat tokens) and :class:`Content`,
the whole pack. ``content.py`` loads and validates a pack into them.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.errors import ContentError

FEATURES = ("movement", "analysis", "hacking", "reputation", "combat")
"""rulebook: cyberverse/agent-sheets - the Features of an Agent sheet, in printed order."""
MOVEMENT, ANALYSIS, HACKING, REPUTATION, COMBAT = range(5)


CATEGORIES = ("weapon", "cyber-implant", "gear", "vehicle")
"""rulebook: cyberverse/strategy-phase - the four stores."""
WEAPON, IMPLANT, GEAR, VEHICLE = range(4)


COLOURS = ("yellow", "blue", "red")
"""rulebook: cyberverse/story-cards - the three kinds of Investigation card."""
STATUSES = ("suppression", "wound", "bleeding")
"""rulebook: cyberverse/status-tokens - the Status tokens of the Damage table."""
POSITION_KINDS = ("advantageous", "covered", "hacking")
"""rulebook: cyberverse/tactical-positions and cyberverse/hacking - tactical positions by colour."""
WEAPON_EFFECTS = ("grill", "fragile", "twin", "extra", "reach")
"""rulebook: cyberverse/supply-weapons - the five printed weapon effects (also henchmen effects)."""
TOKEN_EFFECTS = (
    "grapple",
    "frenzy",
    "disarm",
    "armor_piercer",
    "poisoned_blade",
    "multiple_shot",
    "adrenalin_attack",
    "projection",
    "energy_shield",
    "anti_virus",
    "bandage",
    "medkit",
    "smoke_bomb",
    "adrenalin_defense",
    "stealth",
)
"""rulebook: cyberverse/status-tokens - the printed attack effects, then the defense effects."""
SKILLS = ("attack_bonus", "defense_bonus", "test_bonus", "hack_bonus", "fast_travel", "medic", "ambush_proof")
"""Authored vocabulary of Agent skills (the rulebook prints that each Agent has a unique skill)."""
GEAR_KINDS = ("defense", "reputation", "test_bonus", "ambush_guard", "medkit")
"""Authored vocabulary of Gear effects (rulebook: cyberverse/supply-gear prints "effects")."""
SUPPORT_EFFECTS = ("armor", "test_bonus", "discount", "hack_bonus", "ambush_guard")
"""Authored vocabulary of Support card effects (rulebook: cyberverse/support-cards)."""
EVENT_EFFECTS = ("none", "toll", "blackout", "lockdown", "scrutiny", "inflation", "strike")
"""Authored vocabulary of Event cards' negative effects (rulebook: cyberverse/event-phase): ``toll``
+1 Movement point to enter the district, ``blackout`` no Hacking there, ``lockdown`` no Influence
token placed there, ``scrutiny`` -1 to tests there, ``inflation`` +100 D in a store, ``strike``
no Support card taken in the Strategy phase."""


EVENT_REWARDS = ("money", "heal", "influence")
"""Authored vocabulary of Event card rewards for a Staff token (rulebook: cyberverse/event-phase)."""
AMBUSH_EFFECTS = ("none", "damage", "status", "money", "grill", "break")
"""Authored vocabulary of Ambush card effects (rulebook: cyberverse/ambush)."""
MISSION_KINDS = ("test", "combat", "hack", "influence")
"""rulebook: cyberverse/story-cards - yellow feature tests (and combats), blue hacking, red influence."""
PRINTED_COUNTS = {
    "agent sheets": 14,
    "support cards": 20,
    "event cards": 45,
    "story cards": 40,
    "investigation cards": 60,
    "ambush cards": 25,
    "weapon tokens": 25,
    "cyber-implant tokens": 20,
    "gear tokens": 30,
    "vehicle tokens": 15,
    "organisations": 4,
    "districts": 5,
}
"""rulebook: cyberverse/components - the counts the rulebook prints (a pack must match them)."""


@dataclass(frozen=True, slots=True)
class Organisation:
    """An Organization (rulebook: cyberverse/setup).

    Attributes:
        id: short id (``"FSB"``).
        name: its name.
        colour: its colour for pictures (``"#c0392b"``).
        starting_story: index of its starting Story card.
        authored: whether the pack authored it.
    """

    id: str
    name: str
    colour: str
    starting_story: int
    authored: bool


@dataclass(frozen=True, slots=True)
class AgentFace:
    """One side of an Agent sheet (rulebook: cyberverse/agent-sheets).

    Attributes:
        id: ``"AG04A"`` (sheet id and side letter).
        sheet: index of the sheet.
        side: 0 or 1.
        name: the Agent's name.
        features: Movement, Analysis, Hacking, Reputation, Combat (``FEATURES`` order).
        initiative: the Initiative value (lower acts first).
        salary: D paid at Payday.
        health: Health points on the Health track at recruitment.
        skill: index into ``SKILLS``.
        skill_feature: the Feature of a ``test_bonus`` skill (-1 otherwise).
        skill_text: the skill's rules text.
        authored: whether the pack authored it.
    """

    id: str
    sheet: int
    side: int
    name: str
    features: tuple[int, int, int, int, int]
    initiative: int
    salary: int
    health: int
    skill: int
    skill_feature: int
    skill_text: str
    authored: bool


@dataclass(frozen=True, slots=True)
class Board:
    """A District board (rulebook: cyberverse/new-eden-board).

    Zones are 0-based here and numbered from 1 in the public form.

    Attributes:
        id: ``"A1"`` (side letter and district number).
        district: its district (0-based).
        coords: per zone, its (column, row) for pictures.
        adjacent: per zone, the zones adjacent to it (walls are not adjacency).
        walls: pairs of zones separated by a wall (for pictures).
        entry: the Entry zone (also the Exit zone).
        positions: the tactical positions as (zone, kind index into ``POSITION_KINDS``).
        position_at: per zone, the index of its tactical position (-1 none).
        hacking: the index of the Hacking position in ``positions``.
        distance: zone-to-zone steps (the nearest-agent rule of henchmen).
        authored: whether the pack authored it.
    """

    id: str
    district: int
    coords: tuple[tuple[int, int], ...]
    adjacent: tuple[tuple[int, ...], ...]
    walls: tuple[tuple[int, int], ...]
    entry: int
    positions: tuple[tuple[int, int], ...]
    position_at: tuple[int, ...]
    hacking: int
    distance: tuple[tuple[int, ...], ...]
    authored: bool

    @property
    def zones(self) -> int:
        """Number of zones."""
        return len(self.coords)


@dataclass(frozen=True, slots=True)
class SupplyToken:
    """A Supply token (rulebook: cyberverse/supply-weapons, supply-cyber-implants, supply-gear,
    supply-vehicles).

    Attributes:
        id: ``"W03"``.
        category: index into ``CATEGORIES``.
        name: its name.
        price: D (on the back).
        expert: weapons: the EXPERT icon (on the back).
        back: index of its back (category, price, EXPERT) in ``Content.backs``.
        bonus: weapons: Combat bonus.
        ranged: weapons: RANGED attack type (else CLOSE COMBAT).
        effects: weapons: its Weapon effects (indices of ``WEAPON_EFFECTS``, sorted).
        feature: implants: the Feature raised by 1; gear ``test_bonus``: the Feature tested (-1).
        kind: gear: index into ``GEAR_KINDS`` (-1 otherwise).
        value: gear: the amount of its effect.
        movement: vehicles: Movement increase.
        free_travel: vehicles: moving between districts costs no Movement points.
        ambush_guard: gear and vehicles: protects against Ambush cards (where the card allows).
        authored: whether the pack authored it.
    """

    id: str
    category: int
    name: str
    price: int
    expert: bool
    back: int
    bonus: int
    ranged: bool
    effects: tuple[int, ...]
    feature: int
    kind: int
    value: int
    movement: int
    free_travel: bool
    ambush_guard: bool
    authored: bool


@dataclass(frozen=True, slots=True)
class SupportCard:
    """A Support card (rulebook: cyberverse/support-cards).

    Attributes:
        id: ``"U01"``.
        name: the New Eden resident.
        teammates: Henchmen it changes into Teammates before a Combat.
        effect: index into ``SUPPORT_EFFECTS`` (applied while the card is held).
        value: amount of the effect (D for ``discount``/``hack_bonus``, points otherwise).
        feature: ``test_bonus``: the Feature (-1 otherwise).
        category: ``discount``: the store (-1 otherwise).
        authored: whether the pack authored it.
    """

    id: str
    name: str
    teammates: int
    effect: int
    value: int
    feature: int
    category: int
    authored: bool


@dataclass(frozen=True, slots=True)
class HenchmanCard:
    """A Henchman card (rulebook: cyberverse/henchmen).

    Attributes:
        id: ``"H01"``.
        name: the denomination (type), e.g. ``"Marauder"``.
        kind: index of the type in ``Content.henchman_types``.
        defense: Defense feature.
        attack: Attack (Combat) feature.
        movement: zones it may move.
        health: Health points.
        ranged: RANGED attack type (else close combat).
        effects: its Weapon effects (indices of ``WEAPON_EFFECTS``, sorted).
        authored: whether the pack authored it.
    """

    id: str
    name: str
    kind: int
    defense: int
    attack: int
    movement: int
    health: int
    ranged: bool
    effects: tuple[int, ...]
    authored: bool


@dataclass(frozen=True, slots=True)
class BrawlCard:
    """A Brawl card (rulebook: cyberverse/combat).

    Attributes:
        id: ``"B01"``.
        red: red (Henchmen attack) or green (they neither attack nor can be attacked).
        henchmen: Henchman types to place, in order (indices into ``Content.henchman_types``).
        authored: whether the pack authored it.
    """

    id: str
    red: bool
    henchmen: tuple[int, ...]
    authored: bool


@dataclass(frozen=True, slots=True)
class CombatToken:
    """A Combat token (rulebook: cyberverse/combat-tokens).

    Attributes:
        id: ``"T01"``.
        attack: Combat bonus on Attack.
        defense: Defense value.
        effect: index into ``TOKEN_EFFECTS`` (-1 none).
        authored: whether the pack authored it.
    """

    id: str
    attack: int
    defense: int
    effect: int
    authored: bool


@dataclass(frozen=True, slots=True)
class AmbushCard:
    """An Ambush card (rulebook: cyberverse/ambush).

    Attributes:
        id: ``"X01"``.
        name: its name.
        effect: index into ``AMBUSH_EFFECTS``.
        value: Health points (``damage``), D (``money``), tokens (``grill``/``break``).
        status: ``status``: index into ``STATUSES`` (-1 otherwise).
        vehicles_protect: whether a vehicle (or gear) with ambush protection protects its Agent.
        authored: whether the pack authored it.
    """

    id: str
    name: str
    effect: int
    value: int
    status: int
    vehicles_protect: bool
    authored: bool


@dataclass(frozen=True, slots=True)
class EventCard:
    """An Event card (rulebook: cyberverse/event-phase).

    Attributes:
        id: ``"E01"``.
        name: its headline.
        time: its time value: the News track slot it is placed on (1 = leaves next).
        effect: index into ``EVENT_EFFECTS`` (the negative effect while in play).
        district: the district of a district effect (-1 none).
        category: the store of an ``inflation`` effect (-1 none).
        reward: index into ``EVENT_REWARDS`` (for a Staff token).
        reward_value: D of a ``money`` reward.
        reward_district: the district of an ``influence`` reward (-1 none).
        henchmen: Henchmen to place in each district when the card comes into play.
        authored: whether the pack authored it.
    """

    id: str
    name: str
    time: int
    effect: int
    district: int
    category: int
    reward: int
    reward_value: int
    reward_district: int
    henchmen: tuple[int, ...]
    authored: bool


@dataclass(frozen=True, slots=True)
class StoryCard:
    """A Story card (rulebook: cyberverse/story-cards).

    Attributes:
        id: ``"S01"``.
        name: its title.
        vp: Victory points once resolved.
        requires: colours of the Investigation cards it requires (indices into ``COLOURS``).
        organisation: the Organization whose starting card it is (-1 for the others).
        authored: whether the pack authored it.
    """

    id: str
    name: str
    vp: int
    requires: tuple[int, ...]
    organisation: int
    authored: bool


@dataclass(frozen=True, slots=True)
class Mission:
    """One Mission of an Investigation card (rulebook: cyberverse/investigation).

    Attributes:
        kind: index into ``MISSION_KINDS``.
        district: the district designated (0-based).
        feature: ``test``: the Feature tested (``hack``: Hacking; -1 otherwise).
        threshold: ``test``/``hack``: the result must be above it (-1 otherwise).
        reward: D earned (plus 1 XP token).
    """

    kind: int
    district: int
    feature: int
    threshold: int
    reward: int


@dataclass(frozen=True, slots=True)
class InvestigationCard:
    """An Investigation card (rulebook: cyberverse/story-cards).

    Attributes:
        id: ``"Y01"``, ``"L01"`` (blue) or ``"R01"``.
        colour: index into ``COLOURS``.
        name: its title.
        missions: its Missions in printed order.
        authored: whether the pack authored it.
    """

    id: str
    colour: int
    name: str
    missions: tuple[Mission, ...]
    authored: bool


@dataclass(frozen=True, slots=True)
class Content:
    """A loaded, validated content pack.

    Attributes:
        name: pack name.
        version: pack version.
        authored: whether the pack as a whole is authored.
        organisations: the Organizations.
        faces: every Agent sheet face (two per sheet, sheet ``k`` at ``2k`` and ``2k+1``).
        sheet_ids: the sheet ids (``"AG01"``).
        district_names: district names, district 1 first.
        travel: Movement points between districts (New Eden board).
        news_slots: slots of the News track.
        equipment_slots: Supply token slots of an Agent dashboard.
        boards: the District boards (A and B of each district).
        tokens: every Supply token.
        backs: the distinct token backs as (category, price, EXPERT).
        support: the Support cards.
        henchmen: the Henchman cards.
        henchman_types: type names, first seen first.
        henchman_type_card: per type, the first card of that type (its stats).
        brawl: the Brawl cards.
        combat_tokens: the Combat tokens.
        ambush: the Ambush cards.
        events: the Event cards.
        stories: the Story cards.
        investigations: the Investigation cards.
        investigation_decks: per colour, the card indices.
    """

    name: str
    version: str
    authored: bool
    organisations: tuple[Organisation, ...]
    faces: tuple[AgentFace, ...]
    sheet_ids: tuple[str, ...]
    district_names: tuple[str, ...]
    travel: tuple[tuple[int, ...], ...]
    news_slots: int
    equipment_slots: int
    boards: tuple[Board, ...]
    tokens: tuple[SupplyToken, ...]
    backs: tuple[tuple[int, int, bool], ...]
    support: tuple[SupportCard, ...]
    henchmen: tuple[HenchmanCard, ...]
    henchman_types: tuple[str, ...]
    henchman_type_card: tuple[int, ...]
    brawl: tuple[BrawlCard, ...]
    combat_tokens: tuple[CombatToken, ...]
    ambush: tuple[AmbushCard, ...]
    events: tuple[EventCard, ...]
    stories: tuple[StoryCard, ...]
    investigations: tuple[InvestigationCard, ...]
    investigation_decks: tuple[tuple[int, ...], ...]

    @property
    def sheets(self) -> int:
        """Number of Agent sheets."""
        return len(self.sheet_ids)

    def face(self, sheet: int, side: int) -> AgentFace:
        """The face ``side`` of sheet ``sheet``."""
        return self.faces[2 * sheet + side]

    def board_of(self, district: int, side: int) -> int:
        """Index of the board of ``district`` with side ``side`` (0 = A, 1 = B)."""
        want = ("A", "B")[side] + str(district + 1)
        for i, b in enumerate(self.boards):
            if b.id == want:
                return i
        raise ContentError(f"no district board {want!r}", field="boards")
