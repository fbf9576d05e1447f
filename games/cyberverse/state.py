"""CyberVerse's immutable state: records of ints and tuples, and the action.

Indices are internal (content-pack order); the public form (``codec.py``) speaks component ids and
the rulebook's words. One :class:`State` holds the whole position; its records are:

- :class:`Org`: an Organization's HQ (resources, modifier deck, story in progress, support cards,
  influence tokens, actions left);
- :class:`Agent`: a recruited Agent (sheet and side, health, status tokens, supply tokens, XP,
  where it stands);
- :class:`City`: New Eden (district boards, the News track with its Staff tokens, Henchmen standing
  on the boards, Ambush tokens);
- :class:`Market`: the stores and the rows of Agent sheets and Support cards with their decks;
- :class:`Decks`: the face-down decks (events, ambush, brawl, henchmen, stories, investigations,
  combat tokens);
- :class:`Fight`: the Combat being fought on a district board (None otherwise);
- :class:`Ctx`: where the flow of the turn stands (queues, the agent moving, its movement points).

Decks are stored as the *multiset* of their cards (sorted): the order of a shuffled deck is never
fixed in advance, a draw is a chance node over the cards left (cyberverse/feature-test, the
modifier deck drawn without replacement). Cards put *under* a deck (a Story card discarded to the
bottom, a resold Supply token, a dead Agent's sheet) are kept in order apart and drawn only once
the shuffled part is empty.

Every record is a :class:`~games.core.records.Record` (a frozen ``msgspec`` struct, docs/state.md),
changed by name with :func:`~games.core.records.replace`. A set (the Status tokens of an Agent, the
Missions validated on an Investigation card, the Organizations with a Staff token on an Event card)
is the sorted tuple of its members: ``WOUND in agent.status`` reads "the Agent has the Wound token".
Inside one ``apply`` the rules work on :class:`~games.cyberverse.work.Work` (``work.py``): the
State's top-level fields, each replaced by a new record (never mutated in place), frozen back into a
new :class:`State`.
"""

from __future__ import annotations

from typing import TypeAlias

from games.core.records import Record

__all__ = [
    "ACTIVATION",
    "AUXILIARY",
    "EVENT",
    "INVESTIGATION",
    "OVER",
    "PAYDAY",
    "PHASES",
    "SETUP",
    "STAGES",
    "STEPS",
    "STRATEGY",
    "Action",
    "Agent",
    "City",
    "Ctx",
    "Decks",
    "Fight",
    "Fighter",
    "Market",
    "Options",
    "Org",
    "State",
    "act",
    "mission_arg",
    "mission_of",
]

Seat: TypeAlias = int
"""An Organization's seat (0-based, clockwise from the player who saw Blade Runner last)."""
Sheet: TypeAlias = int
"""An Agent sheet: its index in the content pack."""
District: TypeAlias = int
"""A district of New Eden, 0-based (district 1 is 0)."""
Zone: TypeAlias = int
"""A zone of a district board, 0-based (zone 1 is 0)."""

SETUP, EVENT, STRATEGY, ACTIVATION, AUXILIARY, INVESTIGATION, PAYDAY, OVER = range(8)
PHASES = ("setup", "event", "strategy", "activation", "auxiliary", "investigation", "payday", "over")
"""The phases of a game turn (cyberverse/event-phase ... cyberverse/payday); ``setup`` is the
agent choice before the first turn, ``auxiliary`` the Auxiliary Actions of the Activation phase."""

STAGES = ("ambush", "combat", "hacking", "investigation", "influence")
"""The stages of one district's Investigation phase, in order (``Ctx.stage``; rule:
cyberverse/ambush, cyberverse/combat, cyberverse/hacking, cyberverse/investigation,
cyberverse/influence)."""

# Steps: the pending decision (D_) or chance draw (C_).
(
    D_CHOOSE_AGENT,
    D_CHOOSE_SIDE,
    D_STRATEGY,
    D_KEEP_STORY,
    D_MOVE,
    D_AUX,
    D_LOSE_TOKEN,
    D_SUPPORT,
    D_CONVERT,
    D_KEEP_TOKEN,
    D_FIGHT_MOVE,
    D_ATTACK,
    D_GRILL,
    D_PROJECT,
    D_DODGE,
    D_ADRENALIN,
    D_SECOND,
    D_TEST,
    D_INFLUENCE,
    D_PAYDAY,
    D_DROP_SUPPORT,
    D_HENCHMAN_TARGET,
    C_SETUP_SHEET,
    C_AGENT_ROW,
    C_SUPPORT_ROW,
    C_EVENT,
    C_HENCHMAN,
    C_REVEAL,
    C_RESTOCK,
    C_STORY,
    C_CASE,
    C_AMBUSH,
    C_BRAWL,
    C_TOKEN,
    C_FIGHTER_TOKEN,
    C_MODIFIER,
    S_OVER,
) = range(37)
STEPS = (
    "choose an agent",
    "choose the side of the agent sheet",
    "strategy actions",
    "keep a story card",
    "move an agent",
    "auxiliary action",
    "lose a supply token",
    "discard a support card for teammates",
    "choose a henchman to become a teammate",
    "keep a combat token",
    "move in combat",
    "attack",
    "grill a cyber-implant",
    "project the target",
    "adrenalin: move after being attacked",
    "adrenalin: move after attacking",
    "choose a second target",
    "feature test",
    "place or remove influence",
    "payday",
    "discard a support card over the reputation limit",
    "choose the target of a henchman",
    "draw an agent sheet",
    "draw an agent sheet for the row",
    "draw a support card for the row",
    "draw an event card",
    "draw a henchman card",
    "reveal the supply token bought",
    "restock the store",
    "draw a story card",
    "draw an investigation card",
    "draw an ambush card",
    "draw a brawl card",
    "draw a combat token",
    "place a combat token face down by a henchman or teammate",
    "draw a modifier card",
    "game over",
)
"""Public names of the steps (``codec.py``), in step order."""
FIRST_CHANCE = C_SETUP_SHEET

AGENT, TEAMMATE, HENCHMAN = range(3)
FIGHTER_KINDS = ("agent", "teammate", "henchman")
SUPPRESSION, WOUND, BLEEDING = range(3)
"""The Status tokens, by their index in ``STATUSES`` (cyberverse/status-tokens)."""

# Pending effects after an attack (Fight.pending), resolved in this order.
E_GRILL, E_PROJECT, E_DODGE, E_SECOND, E_ADRENALIN = range(5)


class Options(Record, frozen=True):
    """The rules variants of one game (``GameInfo.variants``; docs/cyberverse.md, readings).

    Attributes:
        reshuffle: ``"success"``: the discard is shuffled back after a successful test (rule:
            cyberverse/investigation) and when the deck is empty; ``"empty"``: only when empty
            (cyberverse/feature-test read alone).
        dead_agents: ``"bottom"``: a dead Agent's sheet goes under the Agent stack (rule:
            cyberverse/agent-dashboard); ``"removed"``: it leaves the game (rule:
            cyberverse/loss-of-health).
        forced_actions: the 3 Actions must be played while an Auxiliary Action is possible.
        influence_bonus: score the influence majorities of cyberverse/influence (+1 per
            district, +5 overall) besides 1 VP per token.
        domination: ``"most"``: an Organization dominates a district with strictly the most
            Influence tokens there; ``"sole"``: with the only ones.
        rescue_clears: paying 100 D per Status token at a rescue also removes them (the default:
            the fee is paid, the tokens stay; the rescue's healing by 1 removes one).
        resale: ``"payday"``: Supply tokens are resold at Payday only; ``"always"``: also in the
            Strategy phase.
        starting_agent: ``"choose"``: each Organization chooses its first Agent in turn;
            ``"random"``: the sheet is drawn at random and the Organization chooses the side.
        max_turns: an opt-in safety cap, not a rule: the game ends after this turn as if
            triggered (0, the default: none, the rulebook's end only); see ``game.VARIANTS``.
        hire_cost: D paid to recruit an Agent (the rulebook prints none: 0).
        boards: the side of the district boards: ``"A"``, ``"B"`` or ``"random"`` (one per district).
        tests: ``"each-mission"``: an Agent present may test each open Mission of its district
            once per Investigation phase; ``"one-per-agent"``: one test per Agent and phase.
        training: ``"stays"``: a trained Agent stays where it stands (not activated in the next
            Activation phase); ``"headquarters"``: it goes back to its HQ.
        henchmen_moves: ``"free"``: the Organization playing a Henchman moves it up to its Movement
            through any adjacent zones and may stop; ``"shortest"``: it always moves toward its
            target by a shortest way until in range.
    """

    reshuffle: str = "success"
    dead_agents: str = "bottom"
    forced_actions: bool = True
    influence_bonus: bool = True
    domination: str = "most"
    rescue_clears: bool = False
    resale: str = "payday"
    starting_agent: str = "choose"
    max_turns: int = 0
    hire_cost: int = 0
    boards: str = "A"
    tests: str = "each-mission"
    training: str = "stays"
    henchmen_moves: str = "free"


class Org(Record, frozen=True):
    """An Organization's HQ (cyberverse/setup).

    Attributes:
        money: Resources in D (never negative).
        deck: the Modifier cards in its draw pile (values, sorted; order never fixed).
        discard: its Modifier discard pile (values, sorted; face up).
        story: the Story card in progress (-1 none).
        cases: the Investigation cards of that story (card indices).
        done: per case, its validated Missions (sorted; an XP token next to each).
        spent: per case, the validated Missions whose XP token is used (turned over), sorted.
        marks: per case, Missions validated when the XP reserve was empty (marked, no token), sorted.
        solved: resolved Story cards, in order.
        support: Support cards held (at most 3, at most the team's Reputation).
        influence: Influence tokens on each district of the New Eden board.
        actions: Actions left in the Activation phase.
        took_support: a Support card was taken this Strategy phase.
    """

    money: int
    deck: tuple[int, ...]
    discard: tuple[int, ...]
    story: int
    cases: tuple[int, ...]
    done: tuple[tuple[int, ...], ...]
    spent: tuple[tuple[int, ...], ...]
    marks: tuple[tuple[int, ...], ...]
    solved: tuple[int, ...]
    support: tuple[int, ...]
    influence: tuple[int, ...]
    actions: int
    took_support: bool


class Agent(Record, frozen=True):
    """A recruited Agent (cyberverse/agent-dashboard).

    Attributes:
        sheet: its Agent sheet.
        side: the side of the sheet recruited (0 or 1).
        org: the Organization it works for.
        health: Health points left.
        status: its Status tokens (``SUPPRESSION``, ``WOUND``, ``BLEEDING``), sorted, never two of a type.
        kit: Supply tokens on its dashboard (sorted).
        broken: the ones grilled or broken (flipped over), sorted.
        xp: unused XP tokens on its dashboard.
        district: the district board it stands on (-1: in its HQ).
        zone: its zone there (-1 in HQ).
        spot: the tactical position it occupies (index on the board, -1 none).
        recruited: recruited this turn (cannot be activated).
        trained: trained this turn (not activated, no salary).
        rescued: rescued this turn (no salary).
    """

    sheet: int
    side: int
    org: int
    health: int
    status: tuple[int, ...]
    kit: tuple[int, ...]
    broken: tuple[int, ...]
    xp: int
    district: int
    zone: int
    spot: int
    recruited: bool
    trained: bool
    rescued: bool


class City(Record, frozen=True):
    """New Eden (cyberverse/building-new-eden, cyberverse/event-phase).

    Attributes:
        boards: the district board used for each district (board index).
        news: the Event card in each News track slot (-1 empty); slot 0 leaves next.
        staff: per slot, the Organizations with a Staff token on its card (seats, sorted).
        henchmen: per district, the Henchmen standing on its board as (henchman card, zone).
        ambush: per district, the Organization whose Ambush token is there (-1 none).
    """

    boards: tuple[int, ...]
    news: tuple[int, ...]
    staff: tuple[tuple[int, ...], ...]
    henchmen: tuple[tuple[tuple[int, int], ...], ...]
    ambush: tuple[int, ...]


class Market(Record, frozen=True):
    """The stores and the rows (cyberverse/building-new-eden, cyberverse/strategy-phase).

    Attributes:
        stock: per store, its 3 slots: a token whose identity is known (id >= 0), a token showing
            only its back ``b`` (``-2 - b``), or -1 (empty).
        stack: per store, the face-down tokens whose identity nobody knows (the stack and the
            unknown stock), sorted.
        under: per store, resold tokens under the stack, in order (known to all).
        agent_row: Agent sheets available for recruitment, in order.
        agent_pool: the shuffled Agent stack (sorted).
        agent_under: sheets put under the stack, in order.
        support_row: Support cards available.
        support_pool: the Support deck (sorted).
        support_discard: discarded Support cards (sorted).
    """

    stock: tuple[tuple[int, ...], ...]
    stack: tuple[tuple[int, ...], ...]
    under: tuple[tuple[int, ...], ...]
    agent_row: tuple[int, ...]
    agent_pool: tuple[int, ...]
    agent_under: tuple[int, ...]
    support_row: tuple[int, ...]
    support_pool: tuple[int, ...]
    support_discard: tuple[int, ...]


class Decks(Record, frozen=True):
    """The face-down decks and their discard piles (sorted multisets, see the module doc).

    Attributes:
        events: the Event deck.
        events_discard: discarded Event cards.
        ambush: the Ambush deck.
        ambush_discard: discarded Ambush cards.
        brawl: the Brawl deck.
        brawl_discard: discarded Brawl cards.
        henchmen: the Henchman deck.
        henchmen_discard: discarded Henchman cards.
        stories: the shuffled part of the Story deck.
        story_under: Story cards put at the bottom, in order.
        story_knows: per card under the deck, the seat who saw it (-1: everyone).
        cases: per colour, the Investigation deck.
        cases_discard: per colour, discarded Investigation cards.
        tokens: the Combat tokens in the pool.
    """

    events: tuple[int, ...]
    events_discard: tuple[int, ...]
    ambush: tuple[int, ...]
    ambush_discard: tuple[int, ...]
    brawl: tuple[int, ...]
    brawl_discard: tuple[int, ...]
    henchmen: tuple[int, ...]
    henchmen_discard: tuple[int, ...]
    stories: tuple[int, ...]
    story_under: tuple[int, ...]
    story_knows: tuple[int, ...]
    cases: tuple[tuple[int, ...], ...]
    cases_discard: tuple[tuple[int, ...], ...]
    tokens: tuple[int, ...]


class Fighter(Record, frozen=True):
    """A miniature in a Combat (cyberverse/combat).

    Attributes:
        kind: 0 Agent, 1 Teammate, 2 Henchman.
        ref: Agents: the sheet; others: the Henchman type.
        card: the Henchman card (-1 for Agents and for Henchmen placed by the Brawl card).
        org: the Organization of an Agent or a Teammate (-1 for a Henchman).
        zone: Teammates and Henchmen: the zone (an Agent's stands in its ``Agent``).
        spot: Teammates and Henchmen: the tactical position (-1 none).
        health: Teammates and Henchmen: Health points left.
        token: its Combat token (-1: none, or not drawn yet for a face-down one).
        shown: the Combat token is face up (revealed).
        done: it has been activated.
        grappled: it cannot move (Grapple).
        disarmed: it cannot use its Weapon tokens (Disarm).
        gone: it has left the board (eliminated).
        leader: Teammates: the Agent whose Support card recruited it (-1 otherwise).
    """

    kind: int
    ref: int
    card: int
    org: int
    zone: int
    spot: int
    health: int
    token: int
    shown: bool
    done: bool
    grappled: bool
    disarmed: bool
    gone: bool
    leader: int


class Fight(Record, frozen=True):
    """The Combat on one district board (cyberverse/combat).

    Attributes:
        district: the district.
        brawl: the Brawl card drawn.
        red: its colour is red (Henchmen attack).
        fighters: every miniature (indices stay valid; eliminated ones are ``gone``).
        queue: fighters still to act in the current stage, the first acting now.
        mp: movement points left to the acting fighter (-1: its movement is over).
        attacks: attacks left to the acting fighter (an extra Combat Action adds one).
        targets: targets left in the current attack (Multiple shot or a weapon aiming at two).
        target: the fighter last attacked (-1 none).
        weapon: the Weapon token of the current attack (-1: bare hands or a Henchman's own attack).
        xp: XP tokens spent on the current attack.
        pending: effects to resolve after the current attack (E_* codes), first next.
        pair: the Combat tokens drawn for the Agent whose Organization is choosing.
        aside: Combat tokens set aside face down, as (organization, token).
        supported: the Organizations that discarded a Support card on this board (seats, sorted).
        took_part: the Organizations with an Agent on the board when it started (seats, sorted).
        engaged: a Combat is engaged (else only the Support cards were offered).
        convert: Henchmen the Support card just discarded still changes into Teammates.
    """

    district: int
    brawl: int
    red: bool
    fighters: tuple[Fighter, ...]
    queue: tuple[int, ...]
    mp: int
    attacks: int
    targets: int
    target: int
    weapon: int
    xp: int
    pending: tuple[int, ...]
    pair: tuple[int, ...]
    aside: tuple[tuple[int, int], ...]
    supported: tuple[int, ...]
    took_part: tuple[int, ...]
    engaged: bool
    convert: int


class Ctx(Record, frozen=True):
    """Where the flow of the turn stands (phase-specific; -1 / () when unused).

    Attributes:
        queue: seats (strategy, payday), agents (activation, tests), districts (event henchmen),
            colours (investigation cards to draw) still to handle, the first now.
        agent: the agent concerned (moving, testing, buying for, losing a token).
        mp: movement points left to the moving agent.
        visited: the districts the moving agent has stood in this activation (sorted).
        started: the moving agent has begun its move (the Action is spent).
        district: the district under investigation or receiving event Henchmen.
        stage: the investigation stage in that district, an index of ``STAGES`` (0 ambush, 1 combat,
            2 hacking, 3 investigation, 4 influence).
        cards: cards drawn awaiting a choice (two Story cards), or tokens to lose.
        store: the store of a purchase (or the henchmen left to place).
        slot: the stock slot of a purchase (or the placement index of event henchmen).
        seat: the seat a chance draw or a test belongs to (-1 none).
        colours: Investigation card colours still to draw for a new Story card.
        mission: the Mission under test as (case, mission): the Investigation card's place on the
            dashboard and the Mission's index on it (``()`` none).
        xp: XP tokens spent on the test under way.
        tested: the Missions, as (case, mission) sorted, the Agent testing has already tested in
            this stage (the ``tests`` variant ``"each-mission"``).
    """

    queue: tuple[int, ...] = ()
    agent: int = -1
    mp: int = 0
    visited: tuple[int, ...] = ()
    started: bool = False
    district: int = -1
    stage: int = 0
    cards: tuple[int, ...] = ()
    store: int = -1
    slot: int = -1
    seat: int = -1
    colours: tuple[int, ...] = ()
    mission: tuple[int, ...] = ()
    xp: int = 0
    tested: tuple[tuple[int, int], ...] = ()


class State(Record, frozen=True):
    """A CyberVerse position.

    Attributes:
        players: seats (2 to 4).
        options: the rules variants.
        turn: the game turn (1-based).
        phase: the phase (``PHASES``).
        step: the pending step (``STEPS``).
        actor: the seat to decide, ``CHANCE`` (-1) or ``TERMINAL`` (-2).
        first: the seat that began the first turn (the last to choose an Agent).
        order: this turn's order of play, first to play first.
        orgs: the Organizations, by seat.
        agents: the recruited Agents, by Initiative.
        city: New Eden.
        market: the stores and the rows.
        decks: the face-down decks.
        fight: the Combat under way (None).
        ctx: the flow of the turn.
        adjust: Organizations that lost an Agent and must discard Support cards, first next.
        held: while one of them chooses the cards to discard, the step it interrupted and that
            step's actor (``()`` otherwise); the flow takes it up again afterwards.
    """

    players: int
    options: Options
    turn: int
    phase: int
    step: int
    actor: int
    first: int
    order: tuple[int, ...]
    orgs: tuple[Org, ...]
    agents: tuple[Agent, ...]
    city: City
    market: Market
    decks: Decks
    fight: Fight | None
    ctx: Ctx
    adjust: tuple[int, ...]
    held: tuple[int, ...]


class Action(Record, frozen=True):
    """A CyberVerse action (notation in ``notation.py``).

    Attributes:
        kind: what it does (``"buy"``, ``"step"``, ``"attack"``, ``"draw"``, ...).
        a: first argument (an agent sheet, a store, a zone, a card, a target...; 0 when unused; a
            ``test`` names its Mission by :func:`mission_arg`).
        b: second argument.
        c: third argument.
    """

    kind: str
    a: int = 0
    b: int = 0
    c: int = 0


act = Action
"""An action by its kind and arguments: ``act("go", district)``."""


def mission_arg(case: int, mission: int) -> int:
    """The argument of a ``test`` action naming Mission ``mission`` of the Investigation card in
    place ``case`` on the dashboard: ``case << 4 | mission``, kept at the action boundary because the
    seeded traces pin every action's integers (decoded once, by :func:`mission_of`)."""
    return case << 4 | mission


def mission_of(arg: int) -> tuple[int, int]:
    """(case, mission) of a ``test`` action's argument (:func:`mission_arg`)."""
    return arg >> 4, arg & 15


NO_CTX = Ctx()
"""The flow of the turn between phases: nothing under way."""
