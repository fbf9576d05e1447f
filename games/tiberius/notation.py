"""The notation of Tiberius Who? actions, in the rulebook's words: ``bid 3``, ``buy HIS06``,
``imperium maius``, ``take 2 influence``, ``pick GAL03``, ``black conquests``, ``row 2`` / ``row none``,
``move imperator``, ``done``, ``adopt own`` / ``adopt A04``, ``pass``."""

from __future__ import annotations

from games.core.text import is_digits
from games.tiberius.model import BOX_CODES, BOX_KEYS, Content, TAction

__all__ = ["HINT", "Notation"]

HINT = (
    "bid N, buy CARD, imperium maius, take 2 influence, pick CARD, black BOX, row 2|3|none, "
    "move BOX, done, adopt own|A04, pass (BOX: a box name such as conquests or imperial_marriages)"
)
"""What an action looks like, for an error message."""

# The card phase's two actions without a card, in the rulebook's words (Card Phase, options 3 and 4);
# the older short codes ``pcim`` and ``take2`` are still read, so old records replay.
PHRASE_OF = {"pcim": "imperium maius", "take2": "take 2 influence"}
KIND_OF_PHRASE = {
    "imperium maius": "pcim",
    "play imperium maius": "pcim",
    "pcim": "pcim",
    "take 2 influence": "take2",
    "take2": "take2",
    "done": "done",
    "pass": "pass",
}


class Notation:
    """Actions to text and back for one content pack (card and adoption card ids).

    Args:
        pack: the content pack.
    """

    def __init__(self, pack: Content) -> None:
        self.pack = pack
        self.by_code = {c.code: c.id for c in pack.cards}
        self.adopt_by_code = {a.code: a.id for a in pack.adoptions}

    def card_code(self, card: int) -> str:
        """Notation of a career card id."""
        return self.pack.cards[card].code

    def action_text(self, action: TAction) -> str:
        """The text of ``action``."""
        k, a = action.kind, action.arg
        if k == "bid":
            return f"bid {a}"
        if k in ("buy", "pick"):
            return f"{k} {self.card_code(a)}"
        if k in ("black", "move"):
            return f"{k} {BOX_KEYS[a]}"
        if k == "row":
            return f"row {a + 1}" if a else "row none"
        if k == "adopt":
            return "adopt own" if a == -1 else f"adopt {self.pack.adoptions[a].code}"
        return PHRASE_OF.get(k, k)

    def parse_action(self, text: str) -> TAction | None:
        """The action ``text`` says, or None when it says none."""
        words = text.strip().lower().split()
        phrase = " ".join(words)
        if phrase in KIND_OF_PHRASE:
            return TAction(KIND_OF_PHRASE[phrase])
        if len(words) != 2:
            return None
        k, a = words
        if k == "bid" and is_digits(a):
            return TAction("bid", int(a))
        if k in ("buy", "pick") and a.upper() in self.by_code:
            return TAction(k, self.by_code[a.upper()])
        if k in ("black", "move") and a in BOX_KEYS:
            return TAction(k, BOX_KEYS.index(a))
        if k in ("black", "move") and a.upper() in BOX_CODES:  # the older two-letter codes, still read
            return TAction(k, BOX_CODES.index(a.upper()))
        if k == "row" and a in ("none", "2", "3"):
            return TAction("row", 0 if a == "none" else int(a) - 1)
        if k == "adopt" and (a == "own" or a.upper() in self.adopt_by_code):
            return TAction("adopt", -1 if a == "own" else self.adopt_by_code[a.upper()])
        return None
