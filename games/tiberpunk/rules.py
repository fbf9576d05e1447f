"""Tiberpunk's rules: setup, legal actions and pure transitions (the rulebook section ids are cited).

Decision points follow the rulebook: the active player decides their turn; the player to the left
decides the lictor pursuit after a failed quest roll; the losing side of a combat decides whether
to play a gadget; a reward's recipient chooses the skill, boost slot or spaceship stack. Dice are
chance nodes. A choice with a single option is applied at once.

One module per rulebook section (its docstring cites the section ids it owns, ``rule: tiberpunk/<id>``),
each one class of the line that :class:`Rules` ends, in this order (each extends the next; the last,
``ObjectiveRules``, extends the tables):

- ``setup.py``: general setup, player setup, the side objective cards in play;
- ``abilities.py``: the Personal Abilities module (the draft, Rebooter, Recharge);
- ``turn.py``: the game overview: whose decision it is, a turn's legal actions, apply, the end of a turn;
- ``favor.py``: divine favor (the marker, Juno's discounts);
- ``movement.py``: movement and shackles;
- ``interactions.py``: the interaction wheel, collect income, the character's and the drone's options;
- ``structures.py``: temples, upgrade hubs, side objective sites;
- ``spaceships.py``: the spaceship interaction and spaceship cards (the lictor placement);
- ``quests.py``: Stage I, II and III quests, the lictor pursuit, storyline objectives;
- ``combat.py``: combat against miniatures and lictors, combat tiles;
- ``gadgets.py``: gadget cards (and Emperor's Genius);
- ``objectives.py``: side objectives and rewards; ``end.py``: the end of the game and who wins.

The precomputed tables are :class:`games.tiberpunk.tables.Tables` (the methods the modules call on
each other are declared in ``methods.py``); constants and small helpers are in ``parts.py``. The line
is single inheritance because that is what mypyc compiles to native classes (docs/compiled.md): its
method resolution order is the one the twelve sections had as mixins of :class:`Rules`.
:class:`Rules` builds the table from op code to the section's handler that
``TurnRules.apply_unchecked`` dispatches through (movement and interactions are dispatched inline).
"""

from __future__ import annotations

from collections.abc import Callable

from games.tiberpunk import actions as act
from games.tiberpunk.content import Content
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
from games.tiberpunk.setup import SetupRules
from games.tiberpunk.state import CHAR, DRONE, LICTOR, State

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


class Rules(SetupRules):
    """The rules engine over a content pack (the game class adds notation and the protocol glue)."""

    def __init__(self, content: Content) -> None:
        super().__init__(content)
        self._apply_by_op = self._apply_table()

    def _apply_table(self) -> tuple[Callable[[State, int], State], ...]:
        """The handler of each op code but movement and interaction (index: the action's low 5 bits), each
        in the module of its rulebook section (``actions.Op`` names the rule of each op code)."""
        by_op: dict[int, Callable[[State, int], State]] = {
            act.OP_DICE: self._do_dice,
            act.OP_DRAFT: lambda s, a: self._draft(s, act.value(a)),  # rule: personal-abilities
            act.OP_PLACE: self._first_placement,
            act.OP_FAVOR: self._move_favor,
            act.OP_UNSHACKLE: self._unshackle,
            act.OP_END: lambda s, a: self._end_turn(s),
            act.OP_REBOOT: self._reboot,
            act.OP_RECHARGE: self._recharge,
            act.OP_GADGET: self._do_gadget,
            act.OP_STOP: self._no_gadget,
            act.OP_PURSUE: lambda s, a: self._pursue(s, (a >> 5) & 15, (a >> 9) & 15),  # rule: stage-1-quests
            act.OP_SKILL: self._choose_reward,
            act.OP_BOOST: self._choose_reward,
            act.OP_TAKE: self._choose_reward,
            act.OP_LICTOR: self._place_lictor,
            act.OP_ESCAPE: self._choose_reward,
        }
        return tuple(by_op.get(o, self._unknown_action) for o in range(32))
