"""The AI-facing evaluation of Tiberpunk: the heuristic for cut-off rollouts and the move prior.

Nothing here is a rule: these functions only read states (through the engine: ``game.rules``,
``game.pack``, ``rules.board.dist``, ``rules.dice_count``) to guide a search.
``TiberpunkGame.heuristic`` and ``TiberpunkGame.prior`` delegate here, so a better evaluation can be
worked on without touching the rules engine.

- :func:`potentials`: per seat, the triumph tokens placed plus the expected worth of what is on its
  way, in tokens: the next stage of each storyline (its odds with the seat's dice, discounted by the
  turns its miniature needs to reach the quest's district), the side objectives (influence markers
  toward the network, coins toward the senator, ...), and small values for coins, gadgets,
  spaceship cards, skills and shackles.
- :func:`heuristic`: a softmax of the potentials whose temperature shrinks as the end nears (a
  win-probability estimate, so one step toward a quest changes the value visibly), read on the
  position a roll, combat or reward in progress settles to (:func:`settled`).
- :func:`prior`: move priors for PUCT: a sharp softmax of each action's one-ply gain in the mover's
  potential (moves by the mover's reach from the destination, once per destination; lictor moves by
  what they block for the opponents; quests and combats by their odds; other interactions by
  applying them), cached on what the mover knows.

The potentials and the per-content tables are cached (bounded dicts): a seat's potential (and the
targets it is computed from, which the prior reads again) is looked up by its own state, the board,
and every seat's miniatures and dice, so a rollout leaf recomputes only the seat that changed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from games.core.cache import PerContent
from games.core.records import replace
from games.tiberpunk import actions as act
from games.tiberpunk.content import Content
from games.tiberpunk.dice import p_attacker_wins, p_contains
from games.tiberpunk.end import standings
from games.tiberpunk.rules import (
    MINIS_FOR,
    OFF,
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
    Rules,
)
from games.tiberpunk.state import (
    CHAR,
    DRONE,
    LICTOR,
    PH_CGADGET,
    PH_MAIN,
    PH_OVER,
    PH_PURSUE,
    PH_QGADGET,
    PH_REWARD,
    Player,
    State,
)

if TYPE_CHECKING:
    from games.tiberpunk.game import TiberpunkGame

__all__ = [
    "heuristic",
    "move_gains",
    "mover_knows",
    "potentials",
    "prepare",
    "prior",
    "prior_logit",
    "settled",
    "standings",
]

DECAY = 0.7
"""A target ``t`` turns of movement away is worth ``DECAY ** t`` of what it is worth in reach."""
STAGE_BASE = (0.0, 0.3, 0.55)
"""Tokens credited for holding a storyline at stage 0 (none) / Stage II / Stage III card, besides
the tokens already placed (the later stages are worth more than one token in all)."""
STAGE_NEXT = (0.45, 0.4, 0.35)
"""Tokens credited for the next stage of a storyline when it is in reach (scaled by its odds and by
``DECAY`` per turn away). Holding a stage plus its next stage stays below the token it gives, so
completing a stage always raises the potential."""
SPEED_BONUS = 0.35
"""Extra credit at Stage III while the card's speed bonus is still free (rule: game-overview)."""
COIN = 0.04
"""Tokens per coin held (up to 15; each coin also adds 0.01: coins break ties at the end)."""
GADGET = 0.06
"""Tokens per gadget card (up to 4)."""
SHIP = 0.05
"""Tokens per spaceship card (up to 3)."""
SKILL = 0.1
"""Tokens per skill upgrade (besides the better odds of the quests it serves)."""
BOOST = 0.1
"""Tokens per boost marker."""
SHACKLE = 0.12
"""Tokens lost per shackled miniature."""
BLESSING = 0.04
"""Tokens per blessing tile."""
PRIOR_TEMPERATURE = 0.05
"""Softmax temperature of the prior over one-ply gains in potential (tokens)."""


Targets = Sequence[tuple[float, int, int]]
"""A seat's movement targets (:func:`_targets`): (credit in tokens, miniature mask, district)."""


class _Tables:
    """Per content pack: quest odds by dice and lictor distance, turn discounts, site districts."""

    def __init__(self, rules: Rules) -> None:
        c: Content = rules.c
        self.content = c
        self.rules = rules
        self.dist = rules.board.dist
        self.nd = rules.nd
        diam = rules.board.diameter
        # p[k][D]: the odds of a quest with k dice when the nearest lictor is D districts away (D rolls)
        self.p1 = tuple(self._odds(c.challenges1, k, diam) for k in range(12))
        self.p3 = tuple(self._odds(c.challenges3, k, diam) for k in range(12))
        self.decay = tuple(DECAY**t for t in range(4 * diam + 8))
        # turns of movement a miniature needs for a distance (character 1, drone 2 districts a move)
        self.turns = (tuple(range(diam + 1)), tuple((x + 1) // 2 for x in range(diam + 1)))
        self.hubs = c.hubs
        self.sites = c.sites
        self.side_kinds = tuple(tuple(t.kind for t in card.tasks) for card in c.side_cards)
        self.lictor_rows: dict[tuple[int, ...], tuple[int, ...]] = {}
        self.seat_cache: dict[tuple[object, ...], tuple[float, Targets]] = {}
        self.prior_cache: dict[tuple[object, ...], tuple[float, ...]] = {}
        self.gain_cache: dict[tuple[object, ...], tuple[float, ...]] = {}

    @staticmethod
    def _odds(cards: tuple[tuple[int, ...], ...], k: int, diam: int) -> tuple[float, ...]:
        one = [p_contains(k, need) if k > 0 else 0.0 for need in cards]
        return tuple(sum(1 - (1 - p) ** max(rolls, 1) for p in one) / len(one) for rolls in range(diam + 1))


_TABLES: PerContent[Rules, _Tables] = PerContent(_Tables)


def prepare(game: TiberpunkGame) -> None:
    """Build the per-content tables now (a fraction of a second), so that no search pays for them."""
    _tables(game)


def _tables(game: TiberpunkGame) -> _Tables:
    return _TABLES(game.rules)


def _lictor_dist(t: _Tables, state: State, d: int) -> int:
    """Districts from ``d`` to the nearest lictor (a table per lictor layout, cached)."""
    lictors = state.lictors
    row = t.lictor_rows.get(lictors)
    if row is None:
        if len(t.lictor_rows) > 4096:
            t.lictor_rows.clear()
        dist = t.dist
        row = t.lictor_rows[lictors] = tuple(
            min((dist[d][x] for x in lictors), default=t.nd) for d in range(t.nd)
        )
    return row[d]


def _quest_odds(t: _Tables, state: State, seat: int, *, stage: int, skill: int, it: int) -> float:
    """The odds of a Stage I or III quest attempted now (no gadgets; the nearest lictor's distance
    is the number of rolls)."""
    mini = CHAR if it == act.IT_CHARACTER else DRONE
    p = state.players[seat]
    dice = t.rules.dice_count(state, seat, mini, skill)
    ld = _lictor_dist(t, state, p.char if mini == CHAR else p.drone)
    return (t.p1 if stage == 1 else t.p3)[min(dice, 11)][max(ld, 1)]


def _targets(t: _Tables, state: State, seat: int) -> list[tuple[float, int, int]]:
    """The seat's movement targets: (credit in tokens, miniature mask, district).

    The mask says which miniatures may act there (bit 0 character, bit 1 drone); the credit is
    what reaching the district is worth at once (already scaled by the odds there).
    """
    c = t.content
    r = t.rules
    p = state.players[seat]
    out: list[tuple[float, int, int]] = []
    for k in range(3):
        st = p.story[k]
        mask = 0
        for m in MINIS_FOR[k]:
            mask |= 1 << m
        if st == 0:
            q = state.quests[k]
            if not q:
                continue
            d = c.stage1[q[0]].district
            dice = max(r.dice_count(state, seat, m, k) for m in MINIS_FOR[k])
            ld = _lictor_dist(t, state, d)
            odds = t.p1[min(dice, 11)][max(ld, 1)] * (0.6 if ld == 0 else 1.0)
            out.append((STAGE_NEXT[0] * (0.3 + 0.7 * odds), mask, d))
        elif st == 1:
            _stage2_targets(t, state, seat, k, mask=mask, out=out)
        elif st == 2:
            d = c.stage3[p.cards[k]].district
            dice = max(r.dice_count(state, seat, m, k) for m in MINIS_FOR[k])
            ld = _lictor_dist(t, state, d)
            odds = t.p3[min(dice, 11)][max(ld, 1)] * (0.6 if ld == 0 else 1.0)
            bonus = SPEED_BONUS if not (state.speed >> k) & 1 else 0.0
            out.append(((STAGE_NEXT[2] + bonus) * (0.2 + 0.8 * odds), mask, d))
    _side_targets(t, state, seat, out)
    return out


def _stage2_targets(
    t: _Tables, state: State, seat: int, k: int, *, mask: int, out: list[tuple[float, int, int]]
) -> None:
    """Targets of the seat's Stage II card of storyline ``k`` (rule: stage-2-quests)."""
    c = t.content
    p = state.players[seat]
    lictors = state.lictors
    card = c.stage2[p.cards[k]]
    tpl = card.template
    w = STAGE_NEXT[1]
    if tpl in (TPL_DELIVER, TPL_GADGETS, TPL_SHIP, TPL_BLESS):
        if tpl == TPL_GADGETS:
            w *= min(1.0, (len(p.hand) + 0.5) / (card.count + 0.5))
        elif tpl == TPL_SHIP:
            w *= 1.0 if sum(p.ships) else 0.5
        elif tpl == TPL_BLESS:
            w *= min(1.0, (p.blessings.bit_count() + 0.5) / (card.count + 0.5))
        if card.district >= 0:
            out.append((w, mask, card.district))
        else:
            out.append((w, mask, p.char if mask & 1 else p.drone))
    elif tpl == TPL_RELAY:
        gap = t.dist[p.char][p.drone] if p.char >= 0 else 0
        out.append((w * t.decay[max(0, card.count - gap + 1) // 2], 0, 0))
    elif tpl == TPL_INFILTRATE:
        for x in set(lictors):
            out.append((w, mask, x))
    elif tpl == TPL_SHADOW:
        for i, o in enumerate(state.players):
            if i != seat and o.char >= 0:
                out.append((w, mask, o.char))
                out.append((w, mask, o.drone))
    elif tpl == TPL_DEFEAT:
        _fights(t, state, seat, p, target=card.target, district=card.district, w=w, out=out)


def _side_targets(t: _Tables, state: State, seat: int, out: list[tuple[float, int, int]]) -> None:
    """Targets of the seat's unfinished side tasks (rule: side-objectives)."""
    p = state.players[seat]
    for slot, card_i in enumerate(state.cfg.side):
        done = p.side[slot]
        for ti, kind in enumerate(t.side_kinds[card_i]):
            if (done >> ti) & 1:
                continue
            if kind in (T_NETWORK, T_SUPPLY):
                _hub_task_targets(t, p, out)
            elif kind == T_DEVOTION:
                _temple_task_targets(t, state, p, out)
            elif kind >= T_PRIESTS:
                out.append((_site_task_weight(t, p, kind), 3, t.sites[kind - T_PRIESTS]))
            elif kind in _DEFEAT_TARGET:
                _fights(t, state, seat, p, target=_DEFEAT_TARGET[kind], district=-1, w=0.3, out=out)


_DEFEAT_TARGET = {T_DEF_LICTOR: LICTOR, T_DEF_CHAR: CHAR, T_DEF_DRONE: DRONE}
"""The miniature a combat side task asks to defeat, by task kind (rule: side-objectives)."""


def _hub_task_targets(t: _Tables, p: Player, out: list[tuple[float, int, int]]) -> None:
    """Network and supply tasks: the upgrade hubs without the seat's marker, while it has markers left
    (rule: side-objectives)."""
    if p.temples.bit_count() + p.hubs.bit_count() < t.content.influence_markers:
        for i, h in enumerate(t.hubs):
            if not (p.hubs >> i) & 1:
                out.append((0.12, 2, h))


def _temple_task_targets(t: _Tables, state: State, p: Player, out: list[tuple[float, int, int]]) -> None:
    """Devotion task: both districts of each temple the seat can still buy (rule: side-objectives)."""
    c = t.content
    if p.coins >= c.temple_cost:
        for g, pair in enumerate(c.temples):
            if not (p.temples >> g) & 1 and state.bless[g] > 0:
                out.append((0.08, 1, pair[0]))
                out.append((0.08, 1, pair[1]))


def _site_task_weight(t: _Tables, p: Player, kind: int) -> float:
    """The credit of a site task, by how near the seat is to paying its price (rule: side-objectives)."""
    if kind == T_SENATOR:
        return 0.25 * min(1.0, p.coins / 7.0) ** 2
    if kind == T_PRIESTS:
        have = min(1.0, p.coins / 3.0) * (1.0 if sum(p.ships) else 0.4)
        return 0.4 * have
    if kind == T_MERCHANTS:
        return 0.4 * min(1.0, len(p.hand) / 3.0) ** 2
    if kind == T_MASTERY:  # a skill at its top slot
        top = max(p.skills[k] / t.rules.max_slot[k] for k in range(3))
        return 0.4 * top**3
    return 0.0


def _fights(
    t: _Tables,
    state: State,
    seat: int,
    p: Player,
    *,
    target: int,
    district: int,
    w: float,
    out: list[tuple[float, int, int]],
) -> None:
    """Targets to attack for a combat objective: its credit scaled by the odds of winning."""
    ka = max(t.rules.dice_count(state, seat, m, OFF) for m in (CHAR, DRONE))
    tiles = state.cfg.tiles
    if target in (LICTOR, 3):
        odds = max(p_attacker_wins(tile, min(ka, 8), min(ka + 1, 8)) for tile in tiles)
        for x in set(state.lictors):
            if district < 0 or x == district:
                out.append((w * (0.2 + 0.8 * odds), 3, x))
    if target != LICTOR:
        for i, o in enumerate(state.players):
            if i == seat or o.char < 0:
                continue
            for tk in (CHAR, DRONE):
                if target not in (tk, 3):
                    continue
                x = o.char if tk == CHAR else o.drone
                if district >= 0 and x != district:
                    continue
                kd = t.rules.dice_count(state, i, tk, 0 if tk == DRONE else 1)
                odds = max(p_attacker_wins(tile, min(ka, 8), min(kd, 8)) for tile in tiles)
                out.append((w * (0.2 + 0.8 * odds), 3, x))


def _reach(t: _Tables, targets: Targets, char: int, drone: int) -> float:
    """The credit of the targets, each discounted by the turns its nearest able miniature needs."""
    dist = t.dist
    tc, td = t.turns
    decay = t.decay
    total = 0.0
    for w, mask, d in targets:
        if not mask:
            total += w
            continue
        by_char = tc[dist[char][d]] if mask & 1 and char >= 0 else 99
        by_drone = td[dist[drone][d]] if mask & 2 and drone >= 0 else 99
        best = by_char if by_char < by_drone else by_drone  # (not min(): the hottest loop here)
        if best < 99:
            total += w * decay[best]
    return total


def _near(t: _Tables, mask: int, char: int, drone: int, d: int) -> float:
    """The turn discount of the nearest miniature in ``mask`` to district ``d``."""
    tc, td = t.turns
    by_char = tc[t.dist[char][d]] if mask & 1 and char >= 0 else 99
    by_drone = td[t.dist[drone][d]] if mask & 2 and drone >= 0 else 99
    best = by_char if by_char < by_drone else by_drone
    return t.decay[best] if best < 99 else 0.0


def _static(t: _Tables, state: State, seat: int) -> float:
    """The part of a seat's potential that does not depend on where its miniatures stand."""
    c = t.content
    p = state.players[seat]
    v = float(sum(p.otoks))
    for k in range(3):
        st = p.story[k]
        if st < 3:
            v += STAGE_BASE[st]
    placed = p.temples.bit_count() + p.hubs.bit_count()
    for slot, card_i in enumerate(state.cfg.side):
        done = p.side[slot]
        for ti, kind in enumerate(t.side_kinds[card_i]):
            if (done >> ti) & 1:
                continue
            if kind == T_NETWORK:
                v += 0.2 * min(placed, 4)
            elif kind == T_SUPPLY:
                v += 0.25 * min(p.hubs.bit_count(), 3)
            elif kind == T_DEVOTION:
                v += 0.25 * min(p.temples.bit_count(), 3)
            elif kind == T_SENATOR:
                v += 0.03 * min(p.coins, 7)
    v += COIN * min(p.coins, 15) + 0.01 * p.coins
    v += GADGET * min(len(p.hand), 4) + SHIP * min(sum(p.ships), 3) + BLESSING * p.blessings.bit_count()
    v += SKILL * sum(x - s for x, s in zip(p.skills, c.start_slot, strict=True))
    v += BOOST * p.boosts.bit_count() - SHACKLE * p.shackles.bit_count()
    v += 0.03 * c.income[min(placed, len(c.income) - 1)]
    return v


def potentials(game: TiberpunkGame, state: State) -> list[float]:
    """Per seat, the tokens placed plus the expected worth of progress toward more, in tokens."""
    t = _tables(game)
    common = _common(state)
    return [_potential(t, state, seat, common) for seat in range(len(state.players))]


def _common(state: State) -> tuple[object, ...]:
    """The part of the potentials' cache key that all seats share: what a seat's potential reads
    besides its own state (the board, the setup's side cards and combat tiles, every seat's
    miniatures and dice, which a combat objective reads)."""
    # only what the potentials read: the face-up quest cards (not the decks below them) and the size
    # of each hand (not the cards), so ISMCTS's determinizations of hidden cards share entries
    # per seat: skills, char, drone, shackles, boosts, temples, hubs
    seats = tuple((q.skills, q.char, q.drone, q.shackles, q.boosts, q.temples, q.hubs) for q in state.players)
    faceup = tuple(q[0] if q else -1 for q in state.quests)
    cfg = state.cfg
    return (state.lictors, faceup, state.speed, state.bless, cfg.side, cfg.tiles, seats)


def _potential(t: _Tables, state: State, seat: int, common: tuple[object, ...]) -> float:
    """One seat's potential (cached on the seat's own state and ``common``, :func:`_common`)."""
    return _seat(t, state, seat, common)[0]


def _seat(t: _Tables, state: State, seat: int, common: tuple[object, ...]) -> tuple[float, Targets]:
    """One seat's potential and its targets (:func:`_targets`), cached on the seat's own state and
    ``common`` (:func:`_common`): the prior reads the targets of the position the heuristic scored
    on the node's first visit."""
    cache = t.seat_cache
    p = state.players[seat]
    # the seat's own state but for its hand cards: only their number
    key = (seat, replace(p, hand=(), known=()), len(p.hand), common)
    got = cache.get(key)
    if got is None:
        if len(cache) > 50_000:  # bounded (and kept small: the collector walks it)
            cache.clear()
        targets = tuple(_targets(t, state, seat))
        got = cache[key] = (_static(t, state, seat) + _reach(t, targets, p.char, p.drone), targets)
    return got


SETTLE_STEPS = 12
"""The most steps :func:`settled` plays (a combat's gadget exchange, rewards, a lictor's pursuit)."""


def settled(game: TiberpunkGame, state: State) -> State:
    """Where a quest roll, combat or reward in progress comes to if nobody plays another gadget.

    :func:`potentials` reads the board, not a roll in progress (``state.ctx``) nor rewards still to
    take, so a position in the middle of one is scored as what it settles to: at a gadget decision
    the decider stops (the dice decide as they lie: a combat is won or lost, a failed quest roll
    brings the lictor closer), a reward goes to the option that raises its taker's potential most,
    a lictor pursues by its first shortest step. It stops at a roll still to come (the quest odds
    in :func:`potentials` then count the rolls the lictor's distance leaves), at the main phase or
    at the end.
    """
    for _ in range(SETTLE_STEPS):
        phase = state.phase
        if phase in (PH_QGADGET, PH_CGADGET):
            state = game.apply_trusted(state, act.STOP)
        elif phase == PH_PURSUE:
            state = game.apply_trusted(state, game.legal_actions(state)[0])
        elif phase == PH_REWARD:
            seat = state.rewards[0][0]
            options = [game.apply_trusted(state, a) for a in game.legal_actions(state)]
            state = max(options, key=lambda after: potentials(game, after)[seat])
        else:
            break
    return state


def heuristic(game: TiberpunkGame, state: State) -> tuple[float, ...]:
    """Each seat's estimated chance to win, for cut-off rollouts (e.g. at the ``max_rounds`` cap).

    A softmax of :func:`potentials` (tokens placed plus progress toward the next ones, rule:
    end-of-game) with a temperature in tokens that shrinks as the leader nears the 8th token and
    as the ``max_rounds`` cap nears. In the final round (the end was triggered, or this round is the
    cap) half of the value is the standings as ``returns`` would give them now. Values are in
    [0, 1] and sum to 1; a finished game gives ``returns``. A position in the middle of a quest roll,
    combat or reward is scored as what it settles to (:func:`settled`).
    """
    state = settled(game, state)
    if state.phase == PH_OVER:
        return game.returns(state)
    pot = potentials(game, state)
    cap = state.cfg.max_rounds
    final = state.end or bool(cap and state.rnd >= cap)
    end_tokens = game.pack.end_tokens
    left = max(0, end_tokens - max(sum(p.otoks) for p in state.players))
    temp = 1.2 + 0.2 * left
    if final:
        temp = 0.6
    elif cap:
        temp = min(temp, 0.6 + 0.1 * (cap - state.rnd))
    top = max(pot)
    w = [math.exp((x - top) / temp) for x in pot]
    z = sum(w)
    share = [x / z for x in w]
    if final:
        standing = standings(state)
        share = [0.5 * a + 0.5 * b for a, b in zip(share, standing, strict=True)]
    return tuple(share)


def prior(game: TiberpunkGame, state: State) -> Sequence[float] | None:
    """Move priors for PUCT in the main phase: a softmax of each action's one-ply gain in the mover's
    potential (:func:`move_gains`, at ``PRIOR_TEMPERATURE`` tokens, each logit kept within [-4, 8]).
    The result is cached on what the mover knows (ISMCTS asks again for every determinization)."""
    if state.phase != PH_MAIN:
        return None
    t = _tables(game)
    key = mover_knows(state)
    legal = game.legal_actions(state)
    cache = t.prior_cache
    got = cache.get(key)
    if got is not None and len(got) == len(legal):
        return got
    gains = _gains(game, t, state, key, legal)
    if len(cache) > 8192:  # bounded (and kept small: the collector walks it)
        cache.clear()
    weights = [math.exp(prior_logit(g)) for g in gains]
    total = sum(weights)
    got = cache[key] = tuple([w / total for w in weights])  # a tuple: the collector stops tracking it
    return got


def prior_logit(gain: float) -> float:
    """The hand-written prior's logit of a move with one-ply ``gain`` (tokens): the gain over
    ``PRIOR_TEMPERATURE``, kept within [-4, 8]."""
    return max(-4.0, min(8.0, gain / PRIOR_TEMPERATURE))


def move_gains(game: TiberpunkGame, state: State) -> tuple[float, ...] | None:
    """Per legal action of the main phase, its one-ply gain (tokens, roughly) for the seat to act
    (None outside the main phase).

    Moves of the character and drone are scored by the mover's reach with the miniature at the
    destination (once per destination); lictor moves by what a lictor in each district blocks for the
    opponents minus what it blocks for the mover; quests and combats by their odds; other
    interactions (income, spaceship, structures, side-objective sites) by applying them. A minor
    interaction pays for using a token whose quest is within a turn's reach. Cached on what the
    mover knows.
    """
    if state.phase != PH_MAIN:
        return None
    return _gains(game, _tables(game), state, mover_knows(state), game.legal_actions(state))


def _gains(
    game: TiberpunkGame, t: _Tables, state: State, key: tuple[object, ...], legal: Sequence[int]
) -> tuple[float, ...]:
    """:func:`move_gains` with the cache key and the legal actions already at hand."""
    cache = t.gain_cache
    got = cache.get(key)
    if got is not None and len(got) == len(legal):
        return got
    if len(cache) > 8192:  # bounded (and kept small: the collector walks it)
        cache.clear()
    ply = _OnePly(game, t, state)
    got = cache[key] = tuple([ply.gain(a) for a in legal])
    return got


def mover_knows(state: State) -> tuple[object, ...]:
    """What the seat to act knows of ``state`` that its move gains read (the caches' key)."""
    seat = state.seat
    return (
        seat,
        state.cfg,
        state.turn,
        state.rnd,
        state.lictors,
        tuple(q[0] if q else -1 for q in state.quests),
        state.ships,
        state.lock,
        state.bless,
        state.speed,
        tuple(
            q if i == seat else replace(q, hand=(len(q.hand),), known=()) for i, q in enumerate(state.players)
        ),
    )


def _lictor_block(
    t: _Tables, state: State, seat: int, targets: Sequence[tuple[float, int, int]], common: tuple[object, ...]
) -> list[float]:
    """What a lictor standing in each district is worth to the seat: it blocks the quests and sites
    the opponents are about to reach, and the seat's own."""
    p = state.players[seat]
    block = [0.0] * t.nd
    for w, mask, d in targets:
        if mask:
            block[d] -= 0.4 * w * _near(t, mask, p.char, p.drone, d)
    for i, other in enumerate(state.players):
        if i != seat and other.char >= 0:
            for w, mask, d in _seat(t, state, i, common)[1]:
                if mask:
                    block[d] += 0.4 * w * _near(t, mask, other.char, other.drone, d)
    return block


class _OnePly:
    """The one-ply gain (tokens, roughly) of a legal action for the seat to act, with what the prior
    computes once per state: the seat's potential and targets, its reach, the lictor block, the tokens
    to keep."""

    def __init__(self, game: TiberpunkGame, t: _Tables, state: State) -> None:
        self.game = game
        self.t = t
        self.state = state
        seat = self.seat = state.seat
        p = self.p = state.players[seat]
        common = _common(state)
        self.now, targets = _seat(t, state, seat, common)
        self.targets = targets
        self.here = _reach(t, targets, p.char, p.drone)
        # the seat's gain in reach with its character (or drone) moved to a district, by (miniature,
        # district): computed for the destinations of the legal moves only
        self.moved: dict[tuple[int, int], float] = {}
        self.keep = _tokens_to_keep(t, targets, p.char, p.drone)
        self.block = _lictor_block(t, state, seat, targets, common)

    def gain(self, a: int) -> float:
        """The gain of legal action ``a``."""
        o = a & 31
        if o == act.OP_MOVE:
            return self._move(a)
        if o == act.OP_INTERACT:
            return self._interact(a)
        if o == act.OP_FAVOR:  # rule: divine-favor (the centre a little)
            return 0.02 if act.value(a) == 0 else 0.0
        if o == act.OP_UNSHACKLE:  # rule: shackles
            return SHACKLE - (SHIP if act.move_fields(a)[0] else 0.0)
        return 0.0

    def _move(self, a: int) -> float:
        """A movement (rule: movement): a lictor by the block it makes, a miniature by the reach it gains;
        less the coins paid and the spaceship card played."""
        via, mini, src, dst, pay = act.move_fields(a)
        if mini == LICTOR:
            gain = self.block[dst] - self.block[src] - 0.02
        else:
            got = self.moved.get((mini, dst))
            if got is None:
                p, t, targets = self.p, self.t, self.targets
                if mini == CHAR:
                    got = _reach(t, targets, dst, p.drone) - self.here
                else:
                    got = _reach(t, targets, p.char, dst) - self.here
                self.moved[mini, dst] = got
            gain = got
        return gain - ((COIN + 0.01) * pay + (SHIP if via else 0.0))

    def _interact(self, a: int) -> float:
        """An interaction (rule: interaction-wheel): a quest or combat by its odds, any other by the
        seat's potential after it (one ply)."""
        via, it, sub, p1, p2, p3, *_ = act.interact_fields(a)
        state, seat = self.state, self.seat
        if it in (act.IT_CHARACTER, act.IT_DRONE) and sub != act.SUB_Q2:
            if sub == act.SUB_FIGHT:  # rule: combat
                r = self.t.rules
                mini = CHAR if it == act.IT_CHARACTER else DRONE
                ka = r.dice_count(state, seat, mini, OFF)
                kd = ka + 1 if p1 == LICTOR else r.dice_count(state, p2, p1, 0 if p1 == DRONE else 1)
                odds = p_attacker_wins(state.cfg.tiles[p3], min(ka, 8), min(kd, 8))
                gain = 0.8 * odds - 0.15 * (1 - odds)
            else:  # rule: stage-1-quests, stage-3-quests
                odds = _quest_odds(self.t, state, seat, stage=1 if sub == act.SUB_Q1 else 3, skill=p1, it=it)
                win = 1.4 if sub == act.SUB_Q1 else 1.0 + (0.0 if (state.speed >> p1) & 1 else 1.0)
                gain = win * odds - 0.15 * (1 - odds) - 0.05
            return gain - SHIP if via >= act.VIA_SHIP else gain
        # one ply: the seat's potential after the interaction
        after = self.game.apply_trusted(state, a)
        gain = _potential(self.t, after, seat, _common(after)) - self.now
        if via < act.VIA_SHIP and self.p.tokens[via] & self.keep and gain < 0.5:
            gain -= 0.1  # this token's quest is near: play another one for a minor interaction
        return gain


def _tokens_to_keep(t: _Tables, targets: Targets, char: int, drone: int) -> int:
    """Interaction types (a bit mask) whose token the seat will want soon: a quest or combat target
    within one turn of the miniature that can take it (rule: interaction-wheel)."""
    tc, td = t.turns
    dist = t.dist
    keep = 0
    for w, mask, d in targets:
        if w >= 0.1 and mask:
            if mask & 1 and char >= 0 and tc[dist[char][d]] <= 1:
                keep |= 1 << act.IT_CHARACTER
            if mask & 2 and drone >= 0 and td[dist[drone][d]] <= 1:
                keep |= 1 << act.IT_DRONE
    return keep
