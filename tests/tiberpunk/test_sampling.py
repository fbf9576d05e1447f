"""The fast hidden-information and chance helpers equal their plain versions, draw for draw.

``observation``, ``sample_state`` and ``sample_chance`` were rewritten for speed (precomputed tables,
one state copy, an inline Fisher-Yates shuffle). Here the plain versions they replaced are the
reference: the same observation, and for the same seeded generator the same sampled state, the same
dice and the same generator state afterwards (rule: tiberpunk/player-setup — face-down gadgets and
unknown deck orders; rule: tiberpunk/stage-1-quests — dice rolls).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.core import CHANCE, TERMINAL, GameConfig
from games.core.records import replace
from games.core.rng import shuffle
from games.tiberpunk import actions as act
from games.tiberpunk.dice import encode_pool
from games.tiberpunk.state import State
from tests.tiberpunk.helpers import GAME


def _plain_observation(state: State, seat: int) -> State:
    """The plain observation (others' unknown gadgets, deck orders and unseen quest cards hidden)."""
    players = tuple(
        p if i == seat else replace(p, hand=tuple(sorted((*p.known, *(-1,) * (len(p.hand) - len(p.known))))))
        for i, p in enumerate(state.players)
    )
    return replace(
        state,
        seed=0,
        players=players,
        gdeck=(-1,) * len(state.gdeck),
        c1deck=(-1,) * len(state.c1deck),
        c3deck=(-1,) * len(state.c3deck),
        quests=tuple(q[:1] + (-1,) * (len(q) - 1) for q in state.quests),
    )


def _plain_sample_state(obs: State, rng: random.Random) -> State:
    """The plain determinization: ``random.shuffle`` of each unseen set, in the same order."""
    c = GAME.pack
    pool = list(c.gadget_deck)
    for g in (*obs.gdisc, *(x for p in obs.players for x in p.hand if x >= 0)):
        pool.remove(g)
    rng.shuffle(pool)
    players = []
    for p in obs.players:
        unknown = p.hand.count(-1)
        if unknown:
            dealt, pool = pool[:unknown], pool[unknown:]
            p = replace(p, hand=tuple(sorted((*(x for x in p.hand if x >= 0), *dealt))))
        players.append(p)
    in_use = obs.ctx.card if obs.ctx is not None and obs.ctx.kind == 0 else -1
    decks = []
    for stage, disc in ((1, obs.c1disc), (3, obs.c3disc)):
        total = len(c.challenges1 if stage == 1 else c.challenges3)
        rest = [
            i
            for i in range(total)
            if i not in disc and not (obs.ctx and obs.ctx.stage == stage and i == in_use)
        ]
        rng.shuffle(rest)
        decks.append(tuple(rest))
    quests = []
    for skill, q in enumerate(obs.quests):
        if len(q) <= 1:
            quests.append(q)
            continue
        seen = {q[0], *(p.cards[skill] for p in obs.players)}
        unseen = [i for i, card in enumerate(c.stage1) if card.skill == skill and i not in seen]
        rng.shuffle(unseen)
        quests.append((q[0], *unseen[: len(q) - 1]))
    return replace(
        obs,
        seed=rng.getrandbits(62),
        players=tuple(players),
        gdeck=tuple(pool),
        c1deck=decks[0],
        c3deck=decks[1],
        quests=tuple(quests),
    )


def _positions(players: int, seed: int, options: dict[str, Any]) -> list[State]:
    """Every 5th position of a seeded random game."""
    s = GAME.new_state(GameConfig(players=players, options=options), seed)
    rng = random.Random(seed)
    out = []
    while GAME.current_player(s) != TERMINAL:
        out.append(s)
        if GAME.current_player(s) == CHANCE:
            a = GAME.sample_chance(s, rng)
        else:
            a = rng.choice(GAME.legal_actions(s))
        s = GAME.apply_trusted(s, a)
    return out[::5]


@pytest.mark.parametrize(
    ("players", "seed", "options"),
    [(2, 1, {}), (3, 2, {"abilities": True, "max_rounds": 20}), (4, 3, {"max_rounds": 20})],
)
def test_observation_and_sample_state_equal_the_plain_versions(
    players: int, seed: int, options: dict[str, Any]
) -> None:
    """rule: tiberpunk/player-setup — same observation for every seat; same sample, same rng state."""
    checked = 0
    for i, s in enumerate(_positions(players, seed, options)):
        for seat in range(s.n):
            obs = GAME.observation(s, seat)
            assert obs == _plain_observation(s, seat)
            for rng_seed in (i, i + 1000):  # the second draw reuses what was derived from ``obs``
                fast, plain = random.Random(rng_seed), random.Random(rng_seed)
                assert GAME.sample_state(obs, seat, fast) == _plain_sample_state(obs, plain)
                assert fast.getstate() == plain.getstate()
            checked += 1
    assert checked > 50


def test_sample_chance_draws_like_randint() -> None:
    """rule: tiberpunk/stage-1-quests — the dice are ``k`` draws of ``randint(1, 6)``."""
    states = [s for s in _positions(2, 4, {}) if GAME.current_player(s) == CHANCE]
    states += [s for s in _positions(3, 5, {}) if GAME.current_player(s) == CHANCE]
    assert states
    fast, plain = random.Random(9), random.Random(9)
    for s in states * 20:
        assert s.ctx is not None
        k = s.ctx.ra or s.ctx.rd
        want = act.dice(encode_pool(tuple(sorted(plain.randint(1, 6) for _ in range(k)))))
        assert GAME.sample_chance(s, fast) == want
    assert fast.getstate() == plain.getstate()


class _Other(random.Random):
    """A generator subclass: ``shuffle`` must defer to its own ``shuffle``."""


@pytest.mark.parametrize("cls", [random.Random, _Other])
def test_inline_shuffle_equals_random_shuffle(cls: type[random.Random]) -> None:
    """rule: tiberpunk/player-setup — the shuffle sampling uses (``games.core.rng.shuffle``) is
    ``random.shuffle``: the same permutation and draws."""
    for seed in range(30):
        for n in (0, 1, 2, 3, 7, 14, 25, 64, 130):
            fast, plain = cls(seed), cls(seed)
            a, b = list(range(n)), list(range(n))
            shuffle(fast, a)
            plain.shuffle(b)
            assert a == b
            assert fast.getstate() == plain.getstate()
