"""General setup and player setup, the side objective cards in play.

rule: tiberpunk/general-setup; rule: tiberpunk/player-setup; rule: tiberpunk/side-objective-combinations

One of the rule modules :class:`games.tiberpunk.rules.Rules` is composed of; the precomputed tables
it reads are :class:`games.tiberpunk.tables.Tables`.
"""

from __future__ import annotations

import random

from games.core.rng import derive_seed
from games.errors import ConfigError
from games.tiberpunk.abilities import AbilityRules
from games.tiberpunk.parts import (
    FRESH,
)
from games.tiberpunk.state import (
    PH_DRAFT,
    PH_PLACE,
    Cfg,
    Player,
    State,
)

__all__ = ["SetupRules"]


class SetupRules(AbilityRules):
    """General setup, player setup and the ability draft."""

    # ------------------------------------------------------------------ setup (rule: general-setup)
    def setup(
        self, n: int, *, abilities: bool, max_rounds: int, side: str, seed: int, bank: int = 0
    ) -> State:
        """General setup and player setup for ``n`` players (rule: general-setup, player-setup);
        ``bank``: the coins in the bank (0: unlimited)."""
        c = self.c
        if n == 1:
            raise ConfigError(
                "tiberpunk has no solo rules in its rulebook; play with 2 to 4 players, not 1",
                field="config.players",
                rule="tiberpunk/general-setup",
            )
        if not 2 <= n <= 4:
            raise ConfigError(f"tiberpunk plays with 2 to 4 players, not {n!r}", field="config.players")
        sides = self.side_cards_for(n, side)
        rng = random.Random(seed)
        quests = []
        for skill in range(3):  # step 3: one stack per type, keep as many cards as players
            stack = [i for i, q in enumerate(c.stage1) if q.skill == skill]
            rng.shuffle(stack)
            quests.append(tuple(stack[:n]))
        c1 = list(range(len(c.challenges1)))
        c3 = list(range(len(c.challenges3)))
        rng.shuffle(c1)  # step 6
        rng.shuffle(c3)
        tiles = (c.combat_tiles[0][rng.randrange(2)], c.combat_tiles[1][rng.randrange(2)])  # step 7
        deck = list(c.gadget_deck)
        rng.shuffle(deck)  # step 8
        players = []
        for _ in range(n):
            players.append(self._new_player(tuple(sorted(deck[: c.start_gadgets])), len(sides)))
            deck = deck[c.start_gadgets :]
        return State(
            n=n,
            cfg=Cfg(abilities=abilities, max_rounds=max_rounds, side=sides, tiles=tiles, bank=bank),
            seed=derive_seed(seed, "tiberpunk", "reshuffle"),
            seat=n - 1 if abilities else 0,
            phase=PH_DRAFT if abilities else PH_PLACE,
            rnd=1,
            turn=FRESH,
            players=tuple(players),
            lictors=tuple(sorted(c.lictor_start)),
            quests=tuple(quests),
            ships=(c.ships_per_type,) * 3,
            lock=-1,
            bless=(n,) * 4,
            gdeck=tuple(deck),
            gdisc=(),
            c1deck=tuple(c1),
            c1disc=(),
            c3deck=tuple(c3),
            c3disc=(),
            shuffles=0,
            speed=0,
            end=False,
            draft=tuple(range(len(c.abilities))) if abilities else (),
            ctx=None,
            rewards=(),
        )

    def _new_player(self, hand: tuple[int, ...], sides: int) -> Player:
        """A player's components at the start (rule: player-setup): coins, skill markers, one gadget,
        four interaction tokens, nothing placed yet."""
        c = self.c
        return Player(
            coins=c.start_coins,
            skills=c.start_slot,
            char=-1,
            drone=-1,
            shackles=0,
            boosts=0,
            favor=-1,
            blessings=0,
            temples=0,
            hubs=0,
            hand=hand,
            known=(),
            ships=(0, 0, 0),
            wheel=(),
            tokens=(1, 2, 4, 8),
            story=(0, 0, 0),
            cards=(-1, -1, -1),
            side=(0,) * sides,
            otoks=(0,) * (3 + sides),
            ability=-1,
            reboots=0,
        )

    def side_cards_for(self, n: int, side: str) -> tuple[int, ...]:
        """Side objective cards for ``n`` players from a scenario name or ids like "1A+2A" or "3".

        rule: side-objective-combinations
        """
        group = "2" if n == 2 else "3-4"
        want = 1 if n == 2 else 2
        scen = self.c.scenarios[group]
        name = side or "basic"
        if name in scen:
            return scen[name]
        ids = [x.strip().lstrip("#") for x in name.split("+")]
        by_id = {card.id: i for i, card in enumerate(self.c.side_cards) if card.players == group}
        if len(ids) != want or len(set(ids)) != want or any(x not in by_id for x in ids):
            raise ConfigError(
                f"side objectives {side!r} do not fit {n} players: use {want} card(s) of {sorted(by_id)} "
                f"or a scenario of {sorted(scen)}",
                field="config.options.side_objectives",
                rule="tiberpunk/side-objective-combinations",
            )
        return tuple(by_id[x] for x in ids)
