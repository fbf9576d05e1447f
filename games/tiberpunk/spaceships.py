"""Spaceships: the spaceship interaction, playing spaceship cards and placing a lictor from the reserve
(rule: tiberpunk/spaceship-interaction; rule: tiberpunk/spaceship-cards).

One of the rule modules :class:`games.tiberpunk.rules.Rules` is composed of; the precomputed tables
it reads are :class:`games.tiberpunk.tables.Tables`.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.core.records import replace, replace_at
from games.tiberpunk import actions as act
from games.tiberpunk.parts import (
    STELLAR,
)
from games.tiberpunk.quests import QuestRules
from games.tiberpunk.state import PH_MAIN, Player, State

__all__ = ["SpaceshipRules"]


class SpaceshipRules(QuestRules):
    """The spaceship interaction and spaceship cards."""

    def _spaceship_options(self, s: State) -> Sequence[int]:
        """rule: spaceship-interaction (Stellar Ark basic: a locked stack too)."""
        ark = s.players[s.seat].favor == STELLAR
        ships = s.ships
        key = ((ships[0] > 0) | (ships[1] > 0) << 1 | (ships[2] > 0) << 2, s.lock, ark)
        got = self._ship_cache.get(key)
        if got is None:
            got = self._ship_cache[key] = self._spaceship_options_all(s)
        return got

    def _spaceship_options_all(self, s: State) -> tuple[int, ...]:
        """``_spaceship_options`` without the cache (the reference for tests)."""
        ark = s.players[s.seat].favor == STELLAR
        return tuple(
            act.interact(0, act.IT_SPACESHIP, 0, k)
            for k in range(3)
            if s.ships[k] > 0 and (k != s.lock or ark)
        )

    def _play_ship(self, s: State, k: int) -> State:
        """Discard a spaceship card to its stack; a lictor placement is owed (rule: spaceship-cards)."""
        seat = s.seat
        p = s.players[seat]
        p = replace(p, ships=replace_at(p.ships, k, p.ships[k] - 1))
        return replace(
            s,
            players=replace_at(s.players, seat, p),
            ships=replace_at(s.ships, k, s.ships[k] + 1),
            turn=replace(s.turn, ship=True, lictor_due=True),
        )

    def _fast_spaceship(self, s: State, via: int, k: int) -> State:
        """``_do_interact`` for a spaceship interaction with a token (rule: spaceship-interaction),
        when no reward or lictor placement is pending: fewer intermediate states, same result."""
        seat = s.seat
        p = s.players[seat]
        hand = p.hand
        deck, disc, shuffles = s.gdeck, s.gdisc, s.shuffles
        if not deck and disc:
            deck, shuffles = self._reshuffle(s, disc, "gadgets")
            disc = ()
        if deck:
            hand = tuple(sorted((*hand, deck[0])))
            deck = deck[1:]
        p = replace(
            p, wheel=self._wheel_after(p.wheel, via), hand=hand, ships=replace_at(p.ships, k, p.ships[k] + 1)
        )
        t = s.turn
        return replace(
            s,
            turn=replace(t, token=True, gained=replace_at(t.gained, k, t.gained[k] + 1)),
            players=replace_at(s.players, seat, p),
            ships=replace_at(s.ships, k, s.ships[k] - 1),
            lock=k,
            phase=PH_MAIN,
            gdeck=deck,
            gdisc=disc,
            shuffles=shuffles,
        )

    def _return_ship(self, s: State, seat: int, k: int) -> State:
        """``seat`` discards a spaceship card of type ``k`` to its stack (the price of a Stage II quest
        or a side task; rule: stage-2-quests, side-objectives)."""
        p = s.players[seat]
        p = replace(p, ships=replace_at(p.ships, k, p.ships[k] - 1))
        return replace(
            s, players=replace_at(s.players, seat, p), ships=replace_at(s.ships, k, s.ships[k] + 1)
        )

    def _place_lictor(self, s: State, a: int) -> State:
        """A lictor from the reserve placed in the district chosen (rule: spaceship-cards)."""
        return self._advance(replace(s, lictors=tuple(sorted((*s.lictors, act.value(a))))))

    def _placement(self, s: State) -> tuple[int, ...]:
        """Where a lictor from the reserve may go (rule: spaceship-cards): ``Board.placement``, cached
        by the occupied districts."""
        minis = 0
        for p in s.players:
            if p.char >= 0:
                minis |= 1 << p.char
            if p.drone >= 0:
                minis |= 1 << p.drone
        busy = minis
        for d in s.lictors:
            busy |= 1 << d
        s1d = self._stage1_district
        for q in s.quests:
            if q:
                busy |= 1 << s1d[q[0]]
        key = busy << 32 | minis
        got = self._placement_cache.get(key)
        if got is None:
            if len(self._placement_cache) > 100_000:  # bounded
                self._placement_cache.clear()
            nd = self.nd
            got = self._placement_cache[key] = self.board.placement(
                [d for d in range(nd) if (busy >> d) & 1], [d for d in range(nd) if (minis >> d) & 1]
            )
        return got

    def _ship_card_actions(
        self, acts: list[int], s: State, p: Player, opts: list[Sequence[int] | None]
    ) -> None:
        """Append each playable spaceship card with a movement or the interaction it shows (rule:
        spaceship-cards; Stellar Ark blessed: cards gained this turn too); ``opts`` caches the
        interaction options (via 0) by type."""
        t = s.turn
        ships = p.ships
        ark = p.favor == STELLAR and p.blessings & 2
        gained = t.gained
        for k in range(3):
            if ships[k] - (0 if ark else gained[k]) > 0:
                self._add_moves(acts, s, p, k + 1)
                it = self._ship_types[k]
                if ships[k] == 1:  # the card played was the last of its type: what it shows cannot
                    # spend it again (the priests' task, a Stage II quest returning a spaceship card)
                    without = replace(p, ships=replace_at(ships, k, 0))
                    got = self._opt_fns[it](self._put(s, s.seat, without))
                else:
                    cached = opts[it]
                    if cached is None:
                        cached = opts[it] = self._opt_fns[it](s)
                    got = cached
                via = (act.VIA_SHIP + k) << 5
                acts += [o | via for o in got]
