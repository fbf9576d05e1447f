"""The face of Tiberpunk for people: the catalogue, readable views, the SVG map, log lines and facts.

What a seat may see: everything on the table except the other players' face-down gadget cards (a
gadget returned by Recharge is face up and known), the order of the decks and the cards left in the
Stage I quest stacks under the face-up card. Dice are rolled in the open, and the revealed challenge
card is public. So a seat's description and picture are functions of its observation
(``TiberpunkGame.observation``); the spectator sees what every seat sees; the referee sees all hands.

One module per part: ``snapshot.py`` (the engine's state read in one place, ``read_position``, and
the words), ``catalogue.py``, ``describe.py``, ``render.py`` (SVG), ``log.py`` (log lines) and
``explain.py`` (facts for hints). A field renamed in ``state.py``, ``actions.py`` or the rules is a
fix in ``snapshot.py`` only; everything else works on its plain snapshot (``Pos``, ``Seat``, ``Roll``,
``Act``).

Names and texts are in ``content/face.json`` (the rulebook's words where it prints them; the map
coordinates, colours and Stage II card texts are authored and marked so).
"""

from __future__ import annotations

from games.tiberpunk.catalogue import catalogue
from games.tiberpunk.describe import describe
from games.tiberpunk.explain import explain, outcome_facts
from games.tiberpunk.log import log_line
from games.tiberpunk.render import render

__all__ = ["catalogue", "describe", "explain", "log_line", "outcome_facts", "render"]
