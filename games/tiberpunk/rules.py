"""Tiberpunk's rules: setup, legal actions and pure transitions (the rulebook section ids are cited).

Decision points follow the rulebook: the active player decides their turn; the player to the left
decides the lictor pursuit after a failed quest roll; the losing side of a combat decides whether
to play a gadget; a reward's recipient chooses the skill, boost slot or spaceship stack. Dice are
chance nodes. A choice with a single option is applied at once.

One module per rulebook section, each a mixin of :class:`Rules`:

- ``setup.py``: general setup, player setup, the ability draft;
- ``turn.py``: whose decision it is, a turn's legal actions, apply, the end of a turn;
- ``movement.py``: movement and shackles;
- ``interactions.py``: spaceship, structure and income interactions, the miniatures' options, spaceship cards;
- ``quests.py``: Stage I, II and III quests and the lictor pursuit;
- ``combat.py``: combat against miniatures and lictors;
- ``gadgets.py``: gadget cards;
- ``objectives.py``: objectives, rewards and the end trigger; ``end.py``: who wins.

The precomputed tables are :class:`games.tiberpunk.tables.Tables`; constants and tuple helpers are
in ``parts.py``.
"""

from __future__ import annotations

from games.tiberpunk.combat import CombatRules
from games.tiberpunk.gadgets import GadgetRules
from games.tiberpunk.interactions import InteractionRules
from games.tiberpunk.movement import MovementRules
from games.tiberpunk.objectives import ObjectiveRules
from games.tiberpunk.parts import (
    AB_MIRROR,
    FRESH,
    MINIS_FOR,
    OFF,
    RULE_OF_OP,
    T_DEF_CHAR,
    T_DEF_DRONE,
    T_DEF_LICTOR,
    T_DEVOTION,
    T_MASTERY,
    T_MERCHANTS,
    T_NETWORK,
    T_PRIESTS,
    T_SENATOR,
    T_SUPPLY,
    TPL_BLESS,
    TPL_DEFEAT,
    TPL_DELIVER,
    TPL_GADGETS,
    TPL_INFILTRATE,
    TPL_RELAY,
    TPL_SHADOW,
    TPL_SHIP,
)
from games.tiberpunk.quests import QuestRules
from games.tiberpunk.setup import SetupRules
from games.tiberpunk.state import CHAR, DRONE, LICTOR
from games.tiberpunk.turn import TurnRules

__all__ = [
    "AB_MIRROR",
    "CHAR",
    "DRONE",
    "FRESH",
    "LICTOR",
    "MINIS_FOR",
    "OFF",
    "RULE_OF_OP",
    "TPL_BLESS",
    "TPL_DEFEAT",
    "TPL_DELIVER",
    "TPL_GADGETS",
    "TPL_INFILTRATE",
    "TPL_RELAY",
    "TPL_SHADOW",
    "TPL_SHIP",
    "T_DEF_CHAR",
    "T_DEF_DRONE",
    "T_DEF_LICTOR",
    "T_DEVOTION",
    "T_MASTERY",
    "T_MERCHANTS",
    "T_NETWORK",
    "T_PRIESTS",
    "T_SENATOR",
    "T_SUPPLY",
    "Rules",
]


class Rules(
    SetupRules,
    TurnRules,
    MovementRules,
    InteractionRules,
    QuestRules,
    CombatRules,
    GadgetRules,
    ObjectiveRules,
):
    """The rules engine over a content pack (the game class adds notation and the protocol glue)."""
