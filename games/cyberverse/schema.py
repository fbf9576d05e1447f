"""The public form of a CyberVerse position, declared once (``games.core.form``): its JSON Schema
(docs/schemas/cyberverse.state.json), the check of every field on its own and the names
``games.cyberverse.codec`` writes and reads all come from here.

The form mirrors the records of ``state.py`` field by field, in the rulebook's words: components by
their ids (``"AG04"``, ``"W13"``, ``"S01"``, ``"Y08"``, ``"E01"``, ``"T05"``, board ``"A3"``), a card
a viewer cannot see as ``"unknown"`` and an empty slot as ``null``; districts, zones, tactical
positions, sides, fighters and Missions numbered from 1; Status tokens, fighter kinds, phases, steps
and stores by name; seats from 0 (``null``: none). A set of the records (the Missions validated, the
Staff tokens, the Organizations that took part) is the list of what it holds. The flow of the
turn (``ctx``) has only the fields in use.
"""

from __future__ import annotations

from typing import Any

from games.core.cache import PerContent
from games.core.form import AnyOf, Bool, Const, Field, Form, Int, ListOf, Null, Obj, OneOf, Tuple
from games.cyberverse import state as st
from games.cyberverse.content import AMBUSH_EFFECTS, CATEGORIES, COLOURS, Content
from games.errors import InvalidStateError

__all__ = [
    "EFFECTS",
    "FORMS",
    "LIMIT",
    "OLD_STEP_NAMES",
    "PACKS",
    "STATUSES",
    "Pack",
    "bad",
    "state_form",
    "state_schema",
]

LIMIT = 10**9
"""The largest count a field no rule limits may hold (D, XP tokens, movement points)."""
MANY = 500
"""The most entries of a list no rule or pack counts (the News track, the order of pending effects)."""
STATUSES = ("suppression", "wound", "bleeding")
"""The Status tokens, by their index in ``Agent.status`` (rule: cyberverse/status-tokens)."""
EFFECTS = (
    "grill",
    "projection",
    "adrenalin after being attacked",
    "second target",
    "adrenalin after attacking",
)
"""The effects pending after an attack (``Fight.pending``, ``E_*``), by name."""
OLD_STEP_NAMES = {"reveal a face-down combat token": st.C_FIGHTER_TOKEN}
"""Step names of earlier versions, still read (a Henchman's or Teammate's Combat token is placed
face down, never revealed: rule: cyberverse/combat-tokens)."""

INT = Int(-LIMIT, LIMIT)
SEAT = AnyOf((Int(0, 3), Null(-1)), description="a seat (0-based) or null")
SEATS = ListOf(Int(0, 3), max=4, description="the seats holding it, in seat order")
DISTRICT = Int(1, 5, offset=1, rule="cyberverse/building-new-eden", description="a district, from 1")


def _or_none(field: Field, description: str = "") -> AnyOf:
    """``field``, or null for none (-1)."""
    return AnyOf((field, Null(-1)), description=description)


class Pack:
    """The content pack's ids (``one``: an id read as its index; ``ids``: or null, or ``"unknown"``)
    and bounds."""

    def __init__(self, c: Content) -> None:
        names = {
            "sheet": (c.sheet_ids, "agent sheet"),
            "story": (tuple(x.id for x in c.stories), "story card"),
            "case": (tuple(x.id for x in c.investigations), "investigation card"),
            "support": (tuple(x.id for x in c.support), "support card"),
            "token": (tuple(x.id for x in c.tokens), "supply token"),
            "event": (tuple(x.id for x in c.events), "event card"),
            "ambush": (tuple(x.id for x in c.ambush), "ambush card"),
            "brawl": (tuple(x.id for x in c.brawl), "brawl card"),
            "hench": (tuple(x.id for x in c.henchmen), "henchman card"),
            "combat": (tuple(x.id for x in c.combat_tokens), "combat token"),
            "board": (tuple(x.id for x in c.boards), "district board"),
        }
        self.names = {kind: ids for kind, (ids, _) in names.items()}
        self.one = {kind: OneOf(ids, what=f"a {what} id", index=True) for kind, (ids, what) in names.items()}
        self.ids = {kind: AnyOf((one, Null(-1), Const("unknown", -2))) for kind, one in self.one.items()}
        self.htypes = c.henchman_types
        zones = max(b.zones for b in c.boards)
        spots = max(len(b.positions) for b in c.boards)
        self.zone = Int(1, zones, offset=1, rule="cyberverse/new-eden-board", description="a zone, from 1")
        self.spot = Int(1, spots, offset=1, rule="cyberverse/tactical-positions", description="from 1")
        prices = [price for _, price, _ in c.backs]
        self.back = Obj(
            {
                "store": OneOf(CATEGORIES, index=True),
                "price": Int(min(prices), max(prices), rule="cyberverse/strategy-phase"),
                "expert": Bool(),
            },
            description="a Supply token showing only its back",
        )
        self.equipment_slots = c.equipment_slots

    def deck(self, kind: str, description: str = "") -> ListOf:
        """A pile of the pack's cards of ``kind`` (at most the pack's)."""
        return ListOf(self.ids[kind], max=len(self.names[kind]), description=description)


def _options() -> Obj:
    """The rules variants (``GameInfo.variants``: their choices, their defaults' types)."""
    from games.cyberverse.game import VARIANTS  # (the game module declares them; it imports this one)

    fields: dict[str, Field] = {}
    for v in sorted(VARIANTS, key=lambda v: list(st.Options.__struct_fields__).index(v.name)):
        if v.choices:
            fields[v.name] = OneOf(tuple(v.choices))
        elif isinstance(v.default, bool):
            fields[v.name] = Bool()
        else:
            fields[v.name] = Int(0, LIMIT)
    return Obj(fields, description="the rules variants (GetGameInfo)")


def _org(p: Pack) -> Obj:
    """An Organization's HQ (rule: cyberverse/setup)."""
    missions = ListOf(
        ListOf(Int(1, 16), max=16), max=9, description="per Investigation card, the Mission numbers"
    )
    modifiers = ListOf(Int(-1, 2), max=5, rule="cyberverse/setup", description="Modifier card values")
    return Obj(
        {
            "money": Int(0, LIMIT, rule="cyberverse/setup", description="Resources in D"),
            "deck": modifiers,
            "discard": modifiers,
            "story": _or_none(p.one["story"], "the Story card in progress"),
            "cases": ListOf(p.one["case"], max=9, rule="cyberverse/story-cards"),
            "done": missions,
            "spent": missions,
            "marks": missions,
            "solved": p.deck("story"),
            "support": ListOf(p.one["support"], max=3, rule="cyberverse/support-cards"),
            "influence": ListOf(Int(0, 3), 5, 5, rule="cyberverse/influence"),
            "actions": Int(0, 3, rule="cyberverse/activation-phase"),
            "took_support": Bool(),
        }
    )


def _agent(p: Pack) -> Obj:
    """A recruited Agent (rule: cyberverse/agent-dashboard)."""
    return Obj(
        {
            "sheet": p.one["sheet"],
            "side": Int(1, 2, offset=1, rule="cyberverse/agent-sheets"),
            "org": Int(0, 3),
            "health": Int(1, 20, rule="cyberverse/loss-of-health"),
            "status": ListOf(OneOf(STATUSES), max=3, rule="cyberverse/status-tokens"),
            "kit": ListOf(p.one["token"], max=p.equipment_slots, rule="cyberverse/agent-dashboard"),
            "broken": p.deck("token"),
            "xp": Int(0, LIMIT),
            "district": _or_none(DISTRICT, "null: in its HQ"),
            "zone": _or_none(p.zone),
            "spot": _or_none(p.spot),
            "recruited": Bool(),
            "trained": Bool(),
            "rescued": Bool(),
        }
    )


def _city(p: Pack) -> Obj:
    """New Eden (rule: cyberverse/building-new-eden)."""
    return Obj(
        {
            "boards": ListOf(
                p.one["board"],
                5,
                5,
                rule="cyberverse/building-new-eden",
            ),
            "news": ListOf(p.ids["event"], max=MANY, description="the News track, slot 1 leaves next"),
            "staff": ListOf(SEATS, max=MANY, rule="cyberverse/event-phase"),
            "henchmen": ListOf(
                ListOf(Tuple((p.ids["hench"], _or_none(p.zone))), max=MANY),
                max=5,
                description="per district, [henchman card, zone]",
            ),
            "ambush": ListOf(SEAT, max=5, rule="cyberverse/ambush"),
        }
    )


def _market(p: Pack) -> Obj:
    """The stores and the rows (rule: cyberverse/strategy-phase)."""
    cell = AnyOf((p.one["token"], Null(-1), p.back), description="a token, its back, or null")
    stacks = ListOf(p.deck("token"), max=len(CATEGORIES))
    return Obj(
        {
            "stock": ListOf(ListOf(cell, max=3), max=len(CATEGORIES), rule="cyberverse/strategy-phase"),
            "stack": stacks,
            "under": stacks,
            "agent_row": p.deck("sheet"),
            "agent_pool": p.deck("sheet"),
            "agent_under": p.deck("sheet"),
            "support_row": p.deck("support"),
            "support_pool": p.deck("support"),
            "support_discard": p.deck("support"),
        }
    )


def _decks(p: Pack) -> Obj:
    """The face-down decks and their discard piles (sorted)."""
    cases = Obj({colour: p.deck("case") for colour in COLOURS})
    return Obj(
        {
            "events": p.deck("event"),
            "events_discard": p.deck("event"),
            "ambush": p.deck("ambush"),
            "ambush_discard": p.deck("ambush"),
            "brawl": p.deck("brawl"),
            "brawl_discard": p.deck("brawl"),
            "henchmen": p.deck("hench"),
            "henchmen_discard": p.deck("hench"),
            "stories": p.deck("story"),
            "story_under": p.deck("story"),
            "story_knows": ListOf(
                SEAT, max=len(p.names["story"]), description="per card under the deck: who saw it"
            ),
            "cases": cases,
            "cases_discard": cases,
            "tokens": p.deck("combat"),
        }
    )


MAX_FIGHTERS = 12
"""The most miniatures in one Combat (rule: cyberverse/combat)."""
FIGHTER_NO = Int(1, MAX_FIGHTERS, offset=1, rule="cyberverse/combat", description="a fighter, from 1")


def _fighter(p: Pack) -> Obj:
    """A miniature in a Combat (rule: cyberverse/combat)."""
    return Obj(
        {
            "kind": OneOf(st.FIGHTER_KINDS, index=True),
            "ref": OneOf(
                (*p.names["sheet"], *p.htypes),
                description="an Agent's sheet id, else the Henchman type",
                what="an agent sheet id or a henchman type",
            ),
            "card": p.ids["hench"],
            "org": SEAT,
            "zone": _or_none(p.zone),
            "spot": _or_none(p.spot),
            "health": INT,
            "token": p.ids["combat"],
            "shown": Bool(),
            "done": Bool(),
            "grappled": Bool(),
            "disarmed": Bool(),
            "gone": Bool(),
            "leader": _or_none(FIGHTER_NO),
        }
    )


def _fight(p: Pack) -> Obj:
    """The Combat on one district board (rule: cyberverse/combat)."""
    return Obj(
        {
            "district": _or_none(DISTRICT),
            "brawl": p.ids["brawl"],
            "red": Bool(),
            "fighters": ListOf(_fighter(p), max=MAX_FIGHTERS, rule="cyberverse/combat"),
            "queue": ListOf(_or_none(FIGHTER_NO), max=MANY, description="still to act, the first now"),
            "movement_points": Int(
                -1, LIMIT, description="left to the fighter acting (-1: its move is over)"
            ),
            "attacks": INT,
            "targets": INT,
            "target": _or_none(FIGHTER_NO, "the fighter last attacked"),
            "weapon": p.ids["token"],
            "xp_spent": INT,
            "pending": ListOf(
                AnyOf((OneOf(EFFECTS, index=True), Null(-1), Const("unknown", -2))),
                max=MANY,
                description="the effects to resolve after the attack, first next",
            ),
            "pair": ListOf(p.ids["combat"], max=MANY),
            "aside": ListOf(Tuple((SEAT, p.ids["combat"])), max=40, description="[seat, combat token]"),
            "supported": SEATS,
            "took_part": SEATS,
            "engaged": Bool(),
            "convert": INT,
        }
    )


MISSION = Obj({"investigation": Int(1, len(COLOURS), offset=1), "mission": Int(1, 16, offset=1)})
"""A Mission of an Organization's dashboard: its Investigation card's place (1 to 3) and number."""


def _ctx(p: Pack) -> Obj:
    """The flow of the turn: only the fields in use, each by what it means in the phase."""
    card = AnyOf(
        (OneOf((*p.names["sheet"], *p.names["event"], *p.names["story"])), Null(-1), Const("unknown", -2))
    )
    queued = AnyOf((OneOf(p.names["sheet"]), Int(0, 5), Null(-1), Const("unknown", -2)))
    return Obj(
        {
            "queue": ListOf(
                queued,
                max=20,
                description="Agent sheet ids (Activation, Investigation), seats (Strategy, Payday) or "
                "district numbers (the Event's Henchmen) still to handle, the first now",
                optional=True,
            ),
            "agent": AnyOf(p.ids["sheet"].alternatives, description="the Agent concerned", optional=True),
            "movement_points": Int(0, 99, rule="cyberverse/moving-agents", optional=True),
            "districts_visited": ListOf(DISTRICT, max=5, optional=True),
            "started": Bool(optional=True),
            "district": Int(1, 5, offset=1, optional=True),
            "stage": OneOf(st.STAGES, index=True, optional=True),
            "cards": ListOf(
                card,
                max=10,
                description="the Agent sheet drawn (setup), the Event card placing Henchmen, or the Story "
                "cards drawn for a choice",
                optional=True,
            ),
            "store": OneOf(CATEGORIES, index=True, optional=True),
            "henchmen_left": Int(0, 20, rule="cyberverse/event-phase", optional=True),
            "ambush_effect": OneOf(AMBUSH_EFFECTS, index=True, rule="cyberverse/ambush", optional=True),
            "slot": Int(1, 99, offset=1, optional=True),
            "placement": Int(1, 99, offset=1, optional=True),
            "seat": Int(0, 3, optional=True),
            "colours": ListOf(OneOf(COLOURS, index=True), max=3, optional=True),
            "mission": Obj(
                {
                    "investigation": MISSION.fields["investigation"],
                    "card": AnyOf(p.ids["case"].alternatives, optional=True),
                    "mission": MISSION.fields["mission"],
                },
                description="the Mission under test",
                optional=True,
            ),
            "xp_spent": Int(0, 20, optional=True),
            "missions_tested": ListOf(
                MISSION,
                max=48,
                description="the Missions the Agent testing has already tested in this stage",
                optional=True,
            ),
        },
        description="the flow of the turn: only the fields in use",
    )


HELD = AnyOf(
    (
        Tuple((OneOf(st.STEPS, index=True), AnyOf((Int(0, 3), Const("chance", -1))))),
        ListOf(Null(), max=0),
    ),
    description="while an Organization discards Support cards: [the step it interrupted, its actor]",
    rule="cyberverse/support-cards",
)


PACKS: PerContent[Content, Pack] = PerContent(Pack)
"""The ids and bounds of each content pack."""


def state_form(c: Content) -> Form:
    """The public form of a position (``codec.to_dict``); ids read against ``c``."""
    p = PACKS(c)
    top = {
        "players": Int(2, 4, rule="cyberverse/setup"),
        "options": _options(),
        "turn": Int(1, 10_000, rule="cyberverse/order-of-play"),
        "phase": OneOf(st.PHASES, index=True),
        "step": OneOf(st.STEPS, index=True, description="the pending decision or draw"),
        "actor": Int(-2, 3, description="the seat to decide; -1: a draw; -2: the game is over"),
        "first": SEAT,
        "order": ListOf(SEAT, max=4, rule="cyberverse/order-of-play"),
        "orgs": ListOf(_org(p), 2, 4, rule="cyberverse/setup"),
        "agents": ListOf(_agent(p), max=len(p.names["sheet"]), rule="cyberverse/agent-sheets"),
        "city": _city(p),
        "market": _market(p),
        "decks": _decks(p),
        "fight": AnyOf((_fight(p), Null(None))),
        "ctx": _ctx(p),
        "adjust": ListOf(SEAT, max=MANY, description="Organizations discarding Support cards, first next"),
        "held": HELD,
        "game": Const("cyberverse", "cyberverse"),
    }
    return Form("cyberverse", "state", Obj(top), title="CyberVerse state")


FORMS: PerContent[Content, Form] = PerContent(state_form)
"""The declared form of each content pack (its ids read against the pack)."""


def state_schema(c: Content) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of ``codec.to_dict`` for the pack ``c``."""
    return FORMS(c).schema()


_NAMES = Form("cyberverse", "state", Obj({}), title="CyberVerse state")


def bad(at: str, why: str, rule: str = "") -> InvalidStateError:
    """The house error for the field at ``at`` (``state.<at>``) of a position (a cross-field rule)."""
    return _NAMES.bad(at, why, rule)
