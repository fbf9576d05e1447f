"""Hidden information in Tiberpunk: what a seat sees (``observation``) and a full state drawn consistent
with it (``Sampler.sample``, the determinization behind ``sample_state``).

A seat does not see the others' face-down gadget cards (but those returned face up by Recharge), the
order of the decks or the quest cards under the face-up one of each Stage I stack.
"""

from __future__ import annotations

import random
from typing import TypeAlias

from games.core.records import replace
from games.core.rng import shuffle
from games.tiberpunk.content import Content
from games.tiberpunk.state import State

__all__ = ["SamplePlan", "Sampler", "observation"]


SamplePlan: TypeAlias = tuple[
    tuple[int, ...],
    tuple[tuple[int, list[int], int], ...],
    tuple[int, ...],
    tuple[int, ...],
    tuple[tuple[int, int, tuple[int, ...], int], ...],
]
"""``Sampler.plan``: what a sampled state is dealt from (unseen cards by observation)."""
_HIDDEN = tuple((-1,) * n for n in range(128))
"""``_HIDDEN[n]``: n face-down cards."""


def _hidden(n: int) -> tuple[int, ...]:
    """``n`` face-down cards (-1 each)."""
    return _HIDDEN[n] if n < 128 else (-1,) * n


def _face_down(hand: tuple[int, ...], known: tuple[int, ...]) -> tuple[int, ...]:
    """Another player's hand as seen: the publicly known gadgets, the others face down (-1, first)."""
    if not known:
        return _hidden(len(hand))
    return tuple(sorted((*known, *(-1,) * (len(hand) - len(known)))))


def observation(state: State, seat: int) -> State:
    """What ``seat`` sees: others' face-down gadgets, deck orders and unseen quest cards hidden."""
    players = tuple(
        p if i == seat else replace(p, hand=_face_down(p.hand, p.known)) for i, p in enumerate(state.players)
    )
    return replace(
        state,
        seed=0,
        players=players,
        gdeck=_hidden(len(state.gdeck)),
        c1deck=_hidden(len(state.c1deck)),
        c3deck=_hidden(len(state.c3deck)),
        quests=tuple(q if len(q) <= 1 else (q[0], *_hidden(len(q) - 1)) for q in state.quests),
    )


class Sampler:
    """Draws full states consistent with an observation, with the tables it reads built once per pack.

    Args:
        pack: the content pack.
        gadget_total: copies of each gadget in the deck.
    """

    def __init__(self, pack: Content, gadget_total: tuple[int, ...]) -> None:
        c = pack
        self._memo: tuple[State, SamplePlan] | None = None  # the last observation sampled, its plan
        # whether the gadget deck is listed sorted (then the unseen gadgets are rebuilt from counts),
        # copies of each gadget, challenge deck sizes, Stage I cards per skill
        self._gadget_deck = tuple(c.gadget_deck)
        self._deck_sorted = list(c.gadget_deck) == sorted(c.gadget_deck)
        self._gadget_runs = tuple((g,) * n for g, n in enumerate(gadget_total))
        self._n_challenges = (len(c.challenges1), len(c.challenges3))
        self._stage1_of_skill = tuple(
            tuple(i for i, card in enumerate(c.stage1) if card.skill == skill) for skill in range(3)
        )

    def sample(self, obs: State, rng: random.Random) -> State:
        """A full state consistent with ``observation`` (uniform over the unseen cards).

        The random draws are the same as a plain version's (one shuffle each of the unseen gadgets,
        the Stage I and Stage III challenge decks and each quest stack's unseen cards, then the seed),
        so a seeded rng gives the same sample (tests/tiberpunk/test_sampling.py). What only depends
        on the observation (the unseen cards) is kept for the last observation: ISMCTS samples the
        same one every iteration.
        """
        memo = self._memo
        if memo is not None and memo[0] is obs:
            plan = memo[1]
        else:
            plan = self.plan(obs)
            self._memo = (obs, plan)
        unseen_gadgets, deals, unseen1, unseen3, stacks = plan
        # gadgets: the unseen ones go to the others' unknown hand cards in seat order, the rest to the deck
        pool = list(unseen_gadgets)
        shuffle(rng, pool)
        players = obs.players
        dealt = 0
        if deals:
            ps = list(players)
            for i, known, unknown in deals:
                hand = tuple(sorted(known + pool[dealt : dealt + unknown]))
                dealt += unknown
                ps[i] = replace(ps[i], hand=hand)
            players = tuple(ps)
        rest1 = list(unseen1)
        shuffle(rng, rest1)
        rest3 = list(unseen3)
        shuffle(rng, rest3)
        quests = obs.quests
        if stacks:
            qs = list(quests)
            for skill, top, unseen, hidden in stacks:
                cards = list(unseen)
                shuffle(rng, cards)
                qs[skill] = (top, *cards[:hidden])
            quests = tuple(qs)
        return replace(
            obs,
            seed=rng.getrandbits(62),
            players=players,
            gdeck=tuple(pool[dealt:]),
            c1deck=tuple(rest1),
            c3deck=tuple(rest3),
            quests=quests,
        )

    def plan(self, obs: State) -> SamplePlan:
        """What :meth:`sample` deals from, by observation: the unseen gadgets (in gadget-deck order),
        the hands to complete (seat, visible gadgets, number face down), the unseen Stage I and Stage
        III challenge cards, and per quest stack with hidden cards (skill, face-up card, unseen cards,
        number hidden)."""
        deals = tuple(
            (i, [x for x in p.hand if x >= 0], p.hand.count(-1))
            for i, p in enumerate(obs.players)
            if -1 in p.hand
        )
        ctx = obs.ctx
        in_use = ctx.card if ctx is not None and ctx.kind == 0 else -1
        stage = ctx.stage if ctx is not None else -1
        unseen1 = self._unseen_challenges(self._n_challenges[0], obs.c1disc, in_use if stage == 1 else -1)
        unseen3 = self._unseen_challenges(self._n_challenges[1], obs.c3disc, in_use if stage == 3 else -1)
        held = {i for p in obs.players for i in p.cards}  # Stage I cards kept by the players
        stacks = tuple(
            (
                skill,
                q[0],
                tuple(i for i in self._stage1_of_skill[skill] if i != q[0] and i not in held),
                len(q) - 1,
            )
            for skill, q in enumerate(obs.quests)
            if len(q) > 1
        )
        return (tuple(self._unseen_gadgets(obs)), deals, tuple(unseen1), tuple(unseen3), stacks)

    def _unseen_gadgets(self, obs: State) -> list[int]:
        """The gadgets neither discarded nor in a visible hand, in gadget-deck order (a fresh list)."""
        seen = obs.gdisc
        for p in obs.players:
            seen += p.hand  # (face-down cards are -1: never counted below)
        if not self._deck_sorted:  # the general case: remove the first copy of each seen gadget
            pool = list(self._gadget_deck)
            for g in seen:
                if g >= 0:
                    pool.remove(g)
            return pool
        pool = []
        for g, run in enumerate(self._gadget_runs):
            k = len(run) - seen.count(g)
            if k:
                if k < 0:
                    raise ValueError(f"gadget {g!r} is seen more often than the deck holds it")
                pool += run[:k]
        return pool

    @staticmethod
    def _unseen_challenges(total: int, disc: tuple[int, ...], in_use: int) -> list[int]:
        """Challenge cards neither discarded nor revealed in the current quest, by index."""
        if not disc and in_use < 0:
            return list(range(total))
        gone = {*disc, in_use}
        return [i for i in range(total) if i not in gone]
