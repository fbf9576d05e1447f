"""Tiberpunk's public state form, declared once (``games.core.form``): its JSON Schema
(docs/schemas/tiberpunk.state.json), the check of every field on its own (types, ranges, the content
pack's ids) and the names ``games.tiberpunk.public`` writes and reads all come from here.

Ids are read into content indices (``"IV"`` -> district 3, ``"flip"`` -> its gadget index); a
face-down card is null (-1). Bounds no rule prints (coins, rounds, the seed) are the largest values
``validate.check_state`` lets through; the others come from the rulebook or the pack (a spaceship
stack's cards, a skill track's length, the challenge cards of each deck).
"""

from __future__ import annotations

from collections.abc import Sequence

from games.core.cache import PerContent
from games.core.form import AnyOf, Bool, Const, Field, Form, Int, ListOf, MapOf, Null, Obj, OneOf
from games.tiberpunk.content import CONDITIONS, GADGETS, GODS, ITYPES, REWARDS, SKILLS, TASKS, Content
from games.tiberpunk.state import PHASES, STAGE2_OBJ
from games.tiberpunk.validate import MAX_COINS, MAX_DICE, MAX_REWARDS, MAX_ROUNDS, MAX_SEED

__all__ = [
    "FORMS",
    "FORM_VERSION",
    "IDS",
    "MINIATURES",
    "PHASE_WORDS",
    "REWARD_WORDS",
    "STAGE2_QUEST",
    "STORY",
    "TARGETS",
    "Ids",
    "state_form",
    "state_schema",
]

FORM_VERSION = 2
"""The version of the public form (1 was the internal tuples' field names, until issue 17)."""
PHASE_WORDS = (
    "ability-draft",
    "first-placement",
    "main",
    "dice-roll",
    "quest-gadgets",
    "lictor-pursuit",
    "combat-gadgets",
    "rewards",
    "lictor-placement",
    "game-over",
)
"""The phase names, in the order of ``state.PHASES`` (the internal phase numbers)."""
assert len(PHASE_WORDS) == len(PHASES)

MINIATURES = ("character", "drone")
TARGETS = ("character", "drone", "lictor")
STORY = ("none", "stage-2", "stage-3", "complete")
REWARD_WORDS = (*REWARDS, "escape")
STAGE2_QUEST = "stage-2-quest"
MAX_SIDE_CARDS = 4
"""The most side objective cards a setup may name (the rulebook's combinations use one or two)."""
MAX_TRIUMPH = 4
"""Triumph tokens on one objective card: its three objectives and the speed bonus (rule:
tiberpunk/game-overview)."""
MAX_TURN_GADGETS = 16
"""The most gadgets a turn may list as used (for Recharge)."""
SEAT = Int(0, 3)
DIE = Int(1, 6)


class Ids:
    """The content pack's component ids."""

    def __init__(self, c: Content) -> None:
        self.c = c
        self.districts = c.district_ids
        self.ship_words = tuple(ITYPES[t] for t in c.ship_types)
        self.hubs = tuple(c.district_ids[d] for d in c.hubs)
        self.quests = tuple(q.id for q in c.stage1)
        self.sides = tuple(sc.id for sc in c.side_cards)
        self.abilities = tuple(ab.id for ab in c.abilities)
        self.challenges = (len(c.challenges1), len(c.challenges3))

    def objective_keys(self, side: Sequence[int]) -> tuple[str, ...]:
        """The objective cards of a game: the three storyline skills, then ``side-<id>`` per side card."""
        return (*SKILLS, *(f"side-{self.sides[i]}" for i in side))


def _words(words: Sequence[object], description: str, *, optional: bool = False, rule: str = "") -> OneOf:
    """A closed set read as the position of its word (the engine's index)."""
    return OneOf(tuple(words), index=True, description=description, optional=optional, rule=rule)


def _maybe(field: Field, description: str = "", means: object = -1) -> AnyOf:
    """``field`` or null (read as ``means``: -1, face down or none)."""
    return AnyOf((field, Null(means)), description=description)


def _counts(keys: Sequence[str], hi: int, description: str, rule: str = "") -> Obj:
    return Obj({k: Int(0, hi, rule=rule) for k in keys}, description=description)


def _challenges(total: int, *, hidden: bool, description: str) -> ListOf:
    """Challenge cards by their number in their deck (1 = the first); null: face down (read as 0)."""
    card = Int(1, total, rule="tiberpunk/stage-1-quests")
    return ListOf(_maybe(card, means=0) if hidden else card, max=total, description=description)


def _setup(ids: Ids) -> Obj:
    return Obj(
        {
            "personal_abilities": Bool(description="the Personal Abilities module is used"),
            "max_rounds": Int(
                0,
                MAX_ROUNDS,
                description="a safety cap on rounds, not in the rulebook (0: none, the default)",
            ),
            "coin_bank": Int(
                0,
                MAX_COINS,
                optional=True,
                description="coins in the bank (0: unlimited, the default; the coin_bank variant: the box's "
                "coins; left out by forms written before the variant: the box's coins)",
            ),
            "side_objectives": ListOf(
                _words(ids.sides, "a side objective card id"),
                max=MAX_SIDE_CARDS,
                description="side objective cards in play",
            ),
            "combat_tiles": ListOf(
                _words(CONDITIONS, "a combat tile's face-up side"),
                2,
                2,
                description="the two combat tiles",
                rule="tiberpunk/combat-tiles",
            ),
        },
        description="the setup choices (rule: general-setup)",
    )


def _turn(ids: Ids) -> Obj:
    ships = ids.c.ships_per_type
    return Obj(
        {
            "token_played": Bool(),
            "favor_moved": Bool(),
            "movement_actions": Int(0, 2, description="movement actions used", rule="tiberpunk/movement"),
            "spaceship_played": Bool(),
            "spaceship_cards_gained": _counts(
                ids.ship_words,
                ships,
                "spaceship cards gained this turn, per type",
                "tiberpunk/spaceship-cards",
            ),
            "lictor_placement_due": Bool(description="a played spaceship card still owes its lictor"),
            "juno_discount_used": Bool(),
            "gadgets_used": ListOf(
                _words(GADGETS, "a gadget card"),
                max=MAX_TURN_GADGETS,
                description="gadgets used this turn (for Recharge)",
            ),
            "recharged": Bool(),
        },
        description="what the active player has done this turn",
    )


def _player_board(ids: Ids) -> dict[str, Field]:
    """A player's coins, skills, miniatures, favor and influence."""
    c = ids.c
    mini = Obj({m: Bool() for m in MINIATURES}, description="per miniature")
    gods = ListOf(_words(GODS, "a god"), max=len(GODS), description="gods")
    district = _words(ids.districts, "a district id")
    return {
        "coins": Int(0, MAX_COINS, description="coins held", rule="tiberpunk/collect-income"),
        "skills": Obj(
            {
                k: Int(
                    1,
                    len(c.levels[i]),
                    description="the skill marker's space on its track (1 = first)",
                    rule="tiberpunk/structure-interaction",
                )
                for i, k in enumerate(SKILLS)
            },
            description="skill tracks",
        ),
        "character": _maybe(district, "the character's district (null: not placed yet)"),
        "drone": _maybe(district, "the drone's district (null: not placed yet)"),
        "shackled": mini,
        "boosted": mini,
        "favor": AnyOf(
            (OneOf(GODS, index=True), Const("centre", -1)), description="the segment of the favor marker"
        ),
        "blessing_tiles": gods,
        "temple_influence": gods,
        "hub_influence": ListOf(
            _words(ids.hubs, "an upgrade hub's district"),
            max=len(ids.hubs),
            description="hubs with an influence marker",
        ),
    }


def _player_cards(ids: Ids) -> dict[str, Field]:
    """A player's cards, tokens, storylines, triumph tokens and ability tile."""
    c = ids.c
    gadget = _words(GADGETS, "a gadget card")
    story = Obj(
        {
            "progress": _words(STORY, "storyline progress", rule="tiberpunk/quest-storyline"),
            "card": _maybe(_words(ids.quests, "a quest card number"), "quest card number"),
        },
        description="a storyline",
    )
    keys = ids.objective_keys(range(len(ids.sides)))
    return {
        "gadgets": ListOf(
            _maybe(gadget, "a gadget (null: face down)"),
            max=len(c.gadget_deck),
            description="gadget cards in hand",
        ),
        "gadgets_known": ListOf(
            gadget, max=len(c.gadget_deck), description="the gadgets in hand every player knows"
        ),
        "spaceship_cards": _counts(ids.ship_words, c.ships_per_type, "spaceship cards held per type"),
        "interaction_tokens": Obj(
            {
                t: ListOf(_words(ITYPES, "an interaction type"), max=len(ITYPES), description="types allowed")
                for t in ITYPES
            },
            description="per token (by its printed type)",
        ),
        "tokens_on_wheel": ListOf(
            _words(ITYPES, "a token"), max=len(ITYPES), description="tokens on the wheel, earliest first"
        ),
        "storylines": Obj({k: story for k in SKILLS}, description="per storyline skill"),
        "side_tasks_done": MapOf(
            _words(ids.sides, "a side objective card in play"),
            ListOf(_words(TASKS, "a task"), max=3, description="tasks done"),
            max=MAX_SIDE_CARDS,
            description="per side objective card in play",
            rule="tiberpunk/side-objectives",
        ),
        "triumph_tokens": MapOf(
            OneOf(keys, what="an objective card in play"),
            Int(0, MAX_TRIUMPH, rule="tiberpunk/game-overview"),
            max=len(SKILLS) + MAX_SIDE_CARDS,
            description="per objective card: the skills, then side-<id>",
        ),
        "ability": _maybe(_words(ids.abilities, "an ability tile id"), "the ability tile (null: none)"),
        "rebooter_uses": Int(
            0,
            max((len(ab.costs) for ab in c.abilities), default=0),
            description="Rebooter uses so far",
            rule="tiberpunk/personal-abilities",
        ),
    }


def _player(ids: Ids) -> Obj:
    return Obj({**_player_board(ids), **_player_cards(ids)}, description="one player's components")


def _contest(ids: Ids) -> Obj:
    """The quest roll or combat in progress: a quest's fields are null in a combat, and the other way."""
    side_task = Obj(
        {
            "side_objective": _words(ids.sides, "a side objective card in play"),
            "task": _words(TASKS, "a task of that card"),
        },
        description="a side task",
    )
    dice = ListOf(DIE, max=MAX_DICE)
    return Obj(
        {
            "kind": _words(("quest", "combat"), "a quest roll or a combat"),
            "stage": _maybe(OneOf((1, 3)), "quest stage (null in a combat)", None),
            "storyline": _maybe(_words(SKILLS, "a skill"), "the quest's storyline (null in a combat)", None),
            "miniature": _words(MINIATURES, "the acting miniature"),
            "district": _words(ids.districts, "a district id"),
            "challenge_card": _maybe(
                Int(1, max(ids.challenges), rule="tiberpunk/stage-1-quests"),
                "the revealed challenge card's number (null in a combat)",
                None,
            ),
            "dice": dice.described("the quester's or attacker's dice, sorted"),
            "dice_to_roll": Int(0, MAX_DICE, description="dice still to roll into dice"),
            "gadgets_played": Int(0, 3, description="gadgets played by the quester or attacker on this roll"),
            "defender_dice": dice.described("the defender's or lictor's dice, sorted"),
            "defender_dice_to_roll": Int(0, MAX_DICE, description="dice still to roll into defender_dice"),
            "defender_gadgets_played": Int(0, 3, description="gadgets played by the defender on this roll"),
            "target": _maybe(_words(TARGETS, "a target"), "the combat target (null in a quest)", None),
            "target_seat": _maybe(SEAT, "the defending seat (null: a lictor, or a quest)", None),
            "combat_tile": _maybe(
                _words(CONDITIONS, "a combat tile side"),
                "the chosen combat tile side (null in a quest)",
                None,
            ),
            "objective": AnyOf(
                (Const(STAGE2_QUEST, STAGE2_OBJ), side_task, Null(None)),
                description="the objective the combat is declared for (null in a quest)",
            ),
            "deciding_seat": _maybe(SEAT, "the seat deciding in a gadget phase (null: none yet)"),
        },
        description="the quest roll or combat in progress",
    )


def _reward(ids: Ids) -> Obj:
    return Obj(
        {
            "seat": SEAT.described("who takes it"),
            "reward": _words(REWARD_WORDS, "the reward", rule="tiberpunk/objective-rewards"),
            "skills": ListOf(
                _words(SKILLS, "a skill"),
                max=len(SKILLS),
                optional=True,
                description="skills the upgrade may go to (skill rewards)",
            ),
            "from": _words(
                ids.districts,
                "the last lictor's district (escape)",
                optional=True,
                rule="tiberpunk/combat-vs-lictor",
            ),
        }
    )


def _piles(ids: Ids) -> dict[str, Field]:
    """The quest stacks, the spaceship stacks, the blessing tiles and the decks."""
    c = ids.c
    gadget = _words(GADGETS, "a gadget card")
    quest = _maybe(_words(ids.quests, "a Stage I quest card number"))
    n1, n3 = ids.challenges
    return {
        "quest_stacks": Obj(
            {
                k: ListOf(quest, max=len(c.stage1), description="top (face up) first; null: face down")
                for k in SKILLS
            },
            description="the Stage I quest stacks, per storyline skill",
        ),
        "spaceship_stacks": _counts(
            ids.ship_words,
            c.ships_per_type,
            "spaceship cards left per stack",
            "tiberpunk/spaceship-interaction",
        ),
        "spaceship_lock": _maybe(
            _words(ids.ship_words, "a spaceship stack"),
            "the stack under the spaceship lock marker (null: none yet)",
        ),
        "blessing_tiles_left": _counts(
            GODS, 4, "blessing tiles left per god (one per player)", "tiberpunk/general-setup"
        ),
        "gadget_deck": ListOf(
            _maybe(gadget, "a gadget (null: face down)"), max=len(c.gadget_deck), description="top first"
        ),
        "gadget_discard": ListOf(gadget, max=len(c.gadget_deck), description="the gadget discard pile"),
        "stage1_challenge_deck": _challenges(
            n1, hidden=True, description="Stage I challenge cards by number, top first (null: face down)"
        ),
        "stage1_challenge_discard": _challenges(
            n1, hidden=False, description="Stage I challenge discard pile"
        ),
        "stage3_challenge_deck": _challenges(
            n3, hidden=True, description="Stage III challenge cards by number, top first (null: face down)"
        ),
        "stage3_challenge_discard": _challenges(
            n3, hidden=False, description="Stage III challenge discard pile"
        ),
    }


def state_form(c: Content) -> Form:
    """The public form of a position (``public.to_public``) with the ids of pack ``c``."""
    ids = Ids(c)
    top: dict[str, Field] = {
        "form": Const(FORM_VERSION, FORM_VERSION, description="the version of this form"),
        "setup": _setup(ids),
        "seed": Int(
            0,
            MAX_SEED - 1,
            description="hidden seed of later reshuffles of discard piles (0 in an observation)",
        ),
        "active_seat": SEAT.described("the active player (0-based seat; the drafting player in the draft)"),
        "phase": _words(PHASE_WORDS, "the step of the game awaiting a decision"),
        "round": Int(
            1, MAX_ROUNDS, description="the round number (1 = the first)", rule="tiberpunk/end-of-game"
        ),
        "turn": _turn(ids),
        "players": ListOf(_player(ids), 2, 4, description="per seat, in turn order"),
        "lictors": ListOf(
            _words(ids.districts, "a district id"),
            1,
            c.lictors_total,
            description="districts of the lictors on the board",
            rule="tiberpunk/movement",
        ),
        **_piles(ids),
        "reshuffles": Int(0, MAX_ROUNDS, description="discard-pile reshuffles so far"),
        "speed_bonuses_taken": ListOf(
            OneOf(ids.objective_keys(range(len(ids.sides))), what="an objective card in play"),
            max=len(SKILLS) + MAX_SIDE_CARDS,
            description="objective cards whose speed bonus was taken (a skill or side-<id>)",
        ),
        "end_triggered": Bool(description="the end of the game was triggered"),
        "abilities_to_draft": ListOf(
            _words(ids.abilities, "an ability tile id"),
            max=len(ids.abilities),
            description="ability tiles not chosen yet",
        ),
        "contest": AnyOf((Null(None), _contest(ids)), description="the quest roll or combat in progress"),
        "rewards_pending": ListOf(
            _reward(ids), max=MAX_REWARDS, description="rewards still to resolve, first first"
        ),
    }
    return Form(
        "tiberpunk",
        "state",
        Obj(
            top,
            description="A Tiberpunk position in the rulebook's words "
            "(docs/tiberpunk.md, 'Public state form')",
        ),
        title="Tiberpunk state",
    )


def state_schema(c: Content) -> dict[str, object]:
    """The JSON Schema (draft 2020-12) of the public form with the ids of pack ``c``."""
    return FORMS(c).schema()


FORMS: PerContent[Content, Form] = PerContent(state_form)
"""The declared form of each content pack."""
IDS: PerContent[Content, Ids] = PerContent(Ids)
"""The ids of each content pack."""
