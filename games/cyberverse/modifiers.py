"""Feature tests and the Modifier deck (one place for the rule; the solver imports it).

rule: cyberverse/feature-test - the Agent draws a Modifier card from its Organization's deck and
adds its Feature and any bonuses: a result less than or equal to the threshold fails (the card is
discarded), above it succeeds; when the deck is empty the discard pile is shuffled to form a new
deck.
cyberverse/investigation - after a successful test the discard pile is shuffled into the
deck (variant ``reshuffle="success"``, the default; ``"empty"`` reads the feature-test section
alone).
cyberverse/setup - each Organization's deck is -1, 0, 1, 1, 2.

A deck is the sorted tuple of the card values left in it (its order is never fixed: a draw is a
chance node over the cards left); the discard pile is face up.
"""

from __future__ import annotations

__all__ = ["MODIFIER_DECK", "after_draw", "deck_to_draw", "succeeds"]

MODIFIER_DECK: tuple[int, ...] = (-1, 0, 1, 1, 2)
"""cyberverse/setup - the Modifier cards of an Organization."""


def succeeds(total: int, card: int, threshold: int) -> bool:
    """rule: cyberverse/feature-test - success when Feature + bonuses + card is above the threshold."""
    return total + card > threshold


def deck_to_draw(deck: tuple[int, ...], discard: tuple[int, ...]) -> tuple[int, ...]:
    """The cards a draw comes from: the deck, or the discard pile shuffled when the deck is empty."""
    return deck if deck else discard


def after_draw(
    deck: tuple[int, ...], discard: tuple[int, ...], card: int, success: bool, reshuffle: str
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(deck, discard pile) after drawing ``card`` in a test that succeeded or failed.

    The drawn card is discarded; after a success (``reshuffle="success"``) the discard pile goes
    back into the deck; an empty deck takes the discard pile at once.
    """
    if not deck:
        deck, discard = discard, ()
    i = deck.index(card)
    deck = deck[:i] + deck[i + 1 :]
    discard = tuple(sorted((*discard, card)))
    if (success and reshuffle == "success") or not deck:
        deck, discard = tuple(sorted(deck + discard)), ()
    return deck, discard
