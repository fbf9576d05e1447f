"""The AI-facing evaluation of Tiberius Who?: projected VP, the heuristic and the move prior.

Nothing here is a rule: these functions only read states (through the scoring rules) to guide a
search. ``TiberiusGame.heuristic`` and ``TiberiusGame.prior`` delegate here.

- :meth:`Evaluator.projected`: per seat, the VP if the game ended now, plus what is already on its way
  (the card played or picked this turn whose icons are not placed yet, a bid that will pick a card,
  a PCIM card still to move, black icons still to place, a card action not yet taken this turn),
  plus the chance of an adoption card (8 VP) and of loyalty (5 VP), plus a small value per future
  turn for cubes left in stock (icons are placed from stock).
- :meth:`Evaluator.win_chances`: a softmax of the projected VP whose temperature shrinks as turns run out.
- :meth:`Evaluator.priors`: a softmax over the one-ply gain of each legal action in projected VP,
  computed directly (bids by the rank of the card they will pick, a buy by its card less the 6
  Influence at ``BUY_INFLUENCE_VP`` each, exact marginal VP for a picked card, a black icon's box,
  an extra row, a PCIM move; adoption first).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from games.core.protocol import Seat
from games.tiberius.model import (
    ADOPT,
    BD,
    BLACK,
    CARD,
    CC,
    CQ,
    CUBE,
    CUBES_PER_PLAYER,
    EM,
    EMPTY,
    GV,
    IM,
    IN,
    IP,
    PC,
    PCIM_CARD,
    PICK,
    PR,
    TR,
    Box,
    CardId,
    Content,
    IconRow,
    TAction,
    TiberiusState,
)
from games.tiberius.rules import BUY_PRICE, PCIM_MIN_MOVES, PCIM_PRICE, legal_actions, priority_order
from games.tiberius.scoring import (
    ADOPTION_VP,
    IMPERATOR_LEAST,
    IMPERATOR_MOST,
    INFLUENCE_PER_VP,
    LOYALTY_VP,
    MARRIAGE_MOST,
    MARRIAGE_NONE,
    PLACE_VP,
    TRIUMPH_NONE,
    TRIUMPH_PER_CUBE,
    chain_key,
    consul_points,
    imperator_awards,
)

__all__ = ["Evaluator", "seat_vp"]

_Ctx = tuple[list[tuple[int, ...]], list[bool], list[bool], list[int], list[tuple[int, ...]]]
"""Per seat: cubes, adopted, loyal, age rank, tie-breaker chain key (of the state's cubes)."""


def seat_vp(
    cubes: Sequence[Sequence[int]],
    keys: Sequence[tuple[int, ...]],
    seat: Seat,
    mine: Sequence[int],
    *,
    adopted: bool,
    loyal: bool,
    age_rank: int,
    marriage_vp: str,
    imperator_solo: str = "both",
    imperator_empty: str = "tiebreak",
    soft_least: bool = False,
) -> float:
    """One seat's VP by the schedule with its cubes replaced by ``mine`` (the others as in ``cubes``
    with chain keys ``keys``): ``score_totals(...)[seat]`` without scoring every seat
    (``tests/tiberius/test_ai.py`` checks both agree).

    With ``soft_least`` (before the last turn) an Imperator box nobody has a cube in scores no
    "most", and Imperator's "least" -3 is shared among the seats with
    the fewest Imperator cubes instead of going to the one the chain names (mid-game that chain
    step flips with every influence cube and only adds noise)."""
    n = len(cubes)
    me = chain_key(mine, adopted, age_rank)
    others = [cubes[t] for t in range(n) if t != seat]
    other_keys = [keys[t] for t in range(n) if t != seat]
    vp = 0.0
    for box, table, rest in PLACE_VP:
        x = mine[box]
        if x:
            rank = 0
            for c, k in zip(others, other_keys, strict=True):
                y = c[box]
                if y > x or (y == x and k > me):
                    rank += 1
            vp += table[rank] if rank < len(table) else rest
    x = mine[IM]
    if x == 0:
        vp += MARRIAGE_NONE
    elif all(x > c[IM] for c in others):
        vp += MARRIAGE_MOST
    if marriage_vp == "aid":
        vp += x
    triumphs = TRIUMPH_PER_CUBE * mine[TR] if mine[TR] else TRIUMPH_NONE
    vp += consul_points(mine[CC]) + triumphs + mine[IP] + mine[PR] + mine[IN] // INFLUENCE_PER_VP
    vp += (ADOPTION_VP if adopted else 0) + (LOYALTY_VP if loyal else 0)
    return _add_imperator_awards(
        vp,
        mine[IP],
        me,
        others,
        other_keys=other_keys,
        imperator_solo=imperator_solo,
        imperator_empty=imperator_empty,
        soft_least=soft_least,
    )


def _add_imperator_awards(
    vp: float,
    x: int,
    me: tuple[int, ...],
    others: Sequence[Sequence[int]],
    *,
    other_keys: Sequence[tuple[int, ...]],
    imperator_solo: str,
    imperator_empty: str,
    soft_least: bool,
) -> float:
    """``vp`` plus Imperator's most +3 / least -3 for a seat with ``x`` cubes and chain key ``me``
    among ``others`` (see :func:`seat_vp` for ``soft_least``), added in that order."""
    n = len(others) + 1
    above = 0
    for c, k in zip(others, other_keys, strict=True):
        y = c[IP]
        if y > x or (y == x and k > me):
            above += 1
    top_cubes = max([x, *(c[IP] for c in others)])
    most, least = imperator_awards(n, top_cubes, imperator_solo, imperator_empty)
    if soft_least and top_cubes == 0:  # mid-game an empty box's "most" is chain noise: it will fill
        most = False
    if above == 0 and most:
        vp += IMPERATOR_MOST
    if least:
        if soft_least and n >= 2:
            fewest = min(c[IP] for c in others)
            if x <= fewest:
                vp += IMPERATOR_LEAST / (1 + (sum(1 for c in others if c[IP] == x) if x == fewest else 0))
        elif above == n - 1:
            vp += IMPERATOR_LEAST
    return vp


ICON_VALUE: dict[Box, float] = {
    CQ: 2.0,
    IM: 2.0,
    CC: 1.5,
    GV: 1.5,
    TR: 1.5,
    IP: 1.3,
    PR: 1.0,
    EM: 0.8,
    IN: 0.34,
}
"""A rough VP value per icon by box, for cards not yet chosen (exact VP changes are used once a
card is in hand)."""
BLACK_VALUE = 2.0
"""A black icon (any box but PCIM) is worth about the best box."""
PRIORITY_VALUE = 0.3
"""A row's Priority icon (first in the next turn's card phase)."""
TURN_VALUE = 3.0
"""VP a seat gains in a future turn when it has at least 4 cubes in stock (or bid) to place; less
with fewer (icons are placed from stock)."""
OPEN_CARD_DISCOUNT = 1.0
"""A seat that has not yet taken its card action this turn expects the best card left, less this."""
BUY_INFLUENCE_VP = 1.0
"""What the prior charges a buy per Influence cube it spends (VP): three times the 1/3 VP an Influence
cube scores at the end, because Influence is also the currency of every later bid and buy. At 1/3 the
Priority holder (first in the card phase; since issue 16 the seat that played PCIM, which the AI does
on turn 1) bought its card in most turns and spent the Influence a bid of 1 or 2 would have kept.
Measured against three GreedyBots (``bench/tiberius_ai.py``, seeds 0-39 / 40-79): 27/40 and 26/40
won at 1/3, 33/40 and 36/40 at 2/3, 36/40 and 36/40 at 5/6, 36/40 and 37/40 at 1."""
PRIOR_TEMPERATURE = 1.0
"""Softmax temperature of the prior over one-ply gains (VP)."""
PRIOR_MIX = 0.0
"""Share of the uniform prior mixed into the softmax."""


def card_value(content: Content, card: CardId) -> float:
    """A static VP estimate of a career card's top row (for cards not yet chosen)."""
    row = content.cards[card].rows[0]
    return sum(BLACK_VALUE if i == BLACK else ICON_VALUE[i] for i in row.icons) + (
        PRIORITY_VALUE if row.priority else 0.0
    )


class Evaluator:
    """Scores positions for one content pack (card values cached).

    Args:
        content: the loaded content pack.
        temperature: the prior's softmax temperature in VP.
        mix: the share of the uniform prior mixed in.
    """

    def __init__(
        self, content: Content, *, temperature: float = PRIOR_TEMPERATURE, mix: float = PRIOR_MIX
    ) -> None:
        self.content = content
        self.temperature = temperature
        self.mix = mix
        self.values = [card_value(content, c.id) for c in content.cards]
        self.requires = [(a.requires, sum(v for _, v in a.requires)) for a in content.adoptions]
        self.regions = [c.region for c in content.cards]

    # ------------------------------------------------------------------ basics
    def _context(self, s: TiberiusState) -> _Ctx:
        players = s.players
        regions = len(self.content.decks)
        cards = self.content.cards
        cubes = [p.cubes for p in players]
        loyal = [len({cards[c].region for c in p.careers}) == regions for p in players]
        ages = [s.age.index(k) for k in range(len(players))]
        adopted = [p.adopted >= 0 for p in players]
        keys = [chain_key(c, a, age) for c, a, age in zip(cubes, adopted, ages, strict=True)]
        return cubes, adopted, loyal, ages, keys

    def _total_with(self, s: TiberiusState, ctx: _Ctx, seat: Seat, mine: Sequence[int]) -> float:
        """``seat``'s VP if the game ended now with its cubes replaced by ``mine``."""
        cubes, adopted, loyal, ages, keys = ctx
        return seat_vp(
            cubes,
            keys,
            seat,
            mine,
            adopted=adopted[seat],
            loyal=loyal[seat],
            age_rank=ages[seat],
            marriage_vp=s.marriage_vp,
            imperator_solo=s.imperator_solo,
            imperator_empty=s.imperator_empty,
            soft_least=s.turn < s.turns,
        )

    @staticmethod
    def place_row(mine: list[int], row: IconRow, family: bool) -> int:
        """Place a row's coloured icons on ``mine`` (stock permitting); returns the black icons."""
        black = 0
        for icon in row.icons:
            if icon == BLACK:
                black += 1
            elif CUBES_PER_PLAYER - sum(mine) > 0 and (icon != TR or family):
                mine[icon] += 1
        return black

    def _best_cards(self, s: TiberiusState) -> list[float]:
        """The face-up cards' static values, best first."""
        return sorted((self.values[c] for c in s.face_up if c != EMPTY), reverse=True)

    # ------------------------------------------------------------------ projected VP
    def projected(self, s: TiberiusState) -> list[float]:
        """Per seat: VP now, plus pending icons, adoption and loyalty chances, future turns."""
        n = s.num_players
        ctx = self._context(s)
        out = [self._total_with(s, ctx, k, s.players[k].cubes) for k in range(n)]
        future = s.turns - s.turn  # whole turns after this one
        phase = s.phase
        order = priority_order(s.start_priority, n)
        pos = order.index(s.actor) if s.actor >= 0 else n
        cards = self.content.cards
        ranked = self._best_cards(s) if phase == CARD else []
        live = [p.bid for p in s.players if p.bid > 0]
        bids = sorted(live, reverse=True)
        for k, player in enumerate(s.players):
            mine = list(player.cubes)
            extra = 0.0
            played = player.played
            pending_card = played >= 0 and (phase in (CARD, PICK) or (phase == CUBE and order.index(k) > pos))
            if pending_card:
                family = mine[IM] > 0 or player.adopted >= 0
                black = self.place_row(mine, cards[played].rows[0], family)
                extra += BLACK_VALUE * min(black, CUBES_PER_PLAYER - sum(mine))
            elif played == PCIM_CARD and (phase in (CARD, PICK) or (phase == CUBE and order.index(k) > pos)):
                move = min(PCIM_MIN_MOVES, mine[IN])
                mine[IN] -= move
                mine[PC] += move
            elif phase == CUBE and k == s.actor and s.black:
                extra += BLACK_VALUE * min(s.black, CUBES_PER_PLAYER - sum(mine))
            if phase == CARD:
                if player.bid > 0:
                    rank = bids.index(player.bid)
                    extra += ranked[rank] if rank < len(ranked) else 0.0
                    mine[BD] = 0  # the bid goes back to stock after the pick
                elif order.index(k) >= pos:
                    taken = len(live)
                    extra += max(ranked[taken] - OPEN_CARD_DISCOUNT, 0.67) if taken < len(ranked) else 0.67
            elif phase == PICK and player.bid > 0:
                left = sorted((self.values[c] for c in s.face_up if c != EMPTY), reverse=True)
                rank = sum(1 for b in live if b > player.bid)
                extra += left[rank] if rank < len(left) else 0.0
                mine[BD] = 0
            if tuple(mine) != player.cubes:
                out[k] = self._total_with(s, ctx, k, mine) + extra
            else:
                out[k] += extra
            stock = CUBES_PER_PLAYER - sum(mine)
            out[k] += future * TURN_VALUE * min(1.0, (stock + mine[BD]) / 4.0)
            out[k] += self._adoption_chance(s, k, mine, future)
            out[k] += self._loyalty_chance(s, k, future)
        return out

    def _adoption_chance(self, s: TiberiusState, seat: Seat, mine: Sequence[int], future: int) -> float:
        """About 8 VP times the chance of meeting the seat's own or a face-up adoption card in time."""
        me = s.players[seat]
        if me.adopted >= 0:
            return 0.0
        own = me.secret
        in_turn = s.phase != ADOPT
        turns = future + (1 if in_turn else 0)
        best = 0.0
        for a in (own, *s.adopt_face_up) if own >= 0 else s.adopt_face_up:
            req, need = self.requires[a]
            have = 0
            for b, v in req:
                x = mine[b]
                have += x if x < v else v
            if have == need:
                return 7.0
            if turns == 0:
                continue
            # about 2 useful cubes per remaining turn
            reach = min(1.0, 2.0 * turns / (need - have))
            best = max(best, 6.0 * (have / need) ** 2 * reach)
        return best

    def _loyalty_chance(self, s: TiberiusState, seat: Seat, future: int) -> float:
        """5 VP times a chance of having cards from all six decks by the end."""
        regions = {self.regions[c] for c in s.players[seat].careers}
        have = len(regions)
        total = len(self.content.decks)
        if have == total:
            return 0.0  # already in the VP
        turns = future + (1 if s.phase == CARD and s.players[seat].played < 0 else 0)
        if total - have > turns:
            return 0.0
        return 5.0 * (have / total) ** 3

    # ------------------------------------------------------------------ heuristic
    def win_chances(self, s: TiberiusState) -> tuple[float, ...]:
        """A softmax of projected VP: temperature 3 VP at the end, +1.5 VP per turn left."""
        vp = self.projected(s)
        temp = 3.0 + 1.5 * max(s.turns - s.turn, 0)
        top = max(vp)
        weights = [math.exp((v - top) / temp) for v in vp]
        z = sum(weights)
        return tuple(w / z for w in weights)

    # ------------------------------------------------------------------ prior
    def gains(self, s: TiberiusState, actions: Sequence[TAction]) -> list[float]:
        """One-ply gain (projected VP, roughly) of each legal action for the seat to act."""
        ctx = self._context(s)
        now = self._total_with(s, ctx, s.actor, s.players[s.actor].cubes)
        if s.phase == CARD:
            return self._card_gains(s, actions, ctx, now)
        if s.phase == PICK:
            return self._pick_gains(s, actions, ctx, now)
        if s.phase == CUBE:
            return self._cube_gains(s, actions, ctx, now)
        # ADOPT: being adopted is 8 VP; claiming a face-up card keeps one's own card for nobody
        return [
            8.5 if a.kind == "adopt" and a.arg >= 0 else (8.0 if a.kind == "adopt" else 0.0) for a in actions
        ]

    def _card_gains(self, s: TiberiusState, actions: Sequence[TAction], ctx: _Ctx, now: float) -> list[float]:
        """Card phase (rule: tiberius/card-phase): a bid by the card it may win less its risk and price, a
        purchase by the card's value, the Pro-Consular Imperium Maius card by its moves, 2 influence."""
        seat = s.actor
        me = s.players[seat].cubes
        ranked = self._best_cards(s)
        bids = [p.bid for p in s.players if p.bid > 0]
        later = s.num_players - 1 - priority_order(s.start_priority, s.num_players).index(seat)
        out = []
        for a in actions:
            if a.kind == "bid":
                rank = sum(1 for b in bids if b > a.arg)
                card = ranked[rank] if rank < len(ranked) else 0.0
                # later seats may outbid a small bid; a little margin is worth a little
                risk = 0.5 * later / (1 + a.arg)
                out.append(card - risk - a.arg / 3.0)
            elif a.kind == "buy":
                out.append(self.values[a.arg] - BUY_PRICE * BUY_INFLUENCE_VP + 0.5)
            elif a.kind == "pcim":  # rule: tiberius/pcim-card
                mine = list(me)
                move = min(PCIM_MIN_MOVES, mine[IN])
                mine[IN] -= move + (PCIM_PRICE if s.pcim_rule == "influence" else 0)
                mine[PC] += move
                out.append(self._total_with(s, ctx, seat, mine) - now)
            else:  # take2
                out.append(min(2, CUBES_PER_PLAYER - sum(me)) / 3.0)
        return out

    def _pick_gains(self, s: TiberiusState, actions: Sequence[TAction], ctx: _Ctx, now: float) -> list[float]:
        """Picking a won card (rule: tiberius/card-phase): its first row placed, and the adoption chance."""
        seat = s.actor
        player = s.players[seat]
        me = player.cubes
        family = me[IM] > 0 or player.adopted >= 0
        out = []
        for a in actions:
            mine = list(me)
            mine[BD] -= player.bid
            black = self.place_row(mine, self.content.cards[a.arg].rows[0], family)
            v = self._total_with(s, ctx, seat, mine) - now + BLACK_VALUE * black
            out.append(v + self._adoption_chance(s, seat, mine, s.turns - s.turn))
        return out

    def _cube_gains(self, s: TiberiusState, actions: Sequence[TAction], ctx: _Ctx, now: float) -> list[float]:
        """Cube phase (rule: tiberius/cube-phase): a black icon's box, a move to gray (rule:
        tiberius/pcim-card) or a bought row, each by the VP and adoption chance it adds."""
        seat = s.actor
        me = s.players[seat].cubes
        adopt_now = self._adoption_chance(s, seat, me, s.turns - s.turn)
        out = []
        for a in actions:
            if a.kind == "row" and a.arg:
                out.append(self._row_gain(s, ctx, now, a.arg) - adopt_now)
                continue
            if a.kind in ("done", "row"):  # the turn's cubes stay as they are
                out.append(0.0)
                continue
            mine = list(me)
            if a.kind == "black":
                mine[a.arg] += 1
            elif a.kind == "move":
                mine[a.arg] -= 1
                mine[PC] += 1
            gain = self._total_with(s, ctx, seat, mine) - now
            out.append(gain + self._adoption_chance(s, seat, mine, s.turns - s.turn) - adopt_now)
        return out

    def _row_gain(self, s: TiberiusState, ctx: _Ctx, now: float, k: int) -> float:
        """The VP and adoption chance of buying row ``k`` of the played card with Emperor cubes, its black
        icons and priority included (rule: tiberius/cube-phase, tiberius/special-cases)."""
        seat = s.actor
        player = s.players[seat]
        mine = list(player.cubes)
        row = self.content.cards[player.played].rows[k]
        mine[EM] -= row.cost
        black = self.place_row(mine, row, s.family)
        gain = self._total_with(s, ctx, seat, mine) - now + BLACK_VALUE * black
        if row.priority:
            gain += PRIORITY_VALUE
        return gain + self._adoption_chance(s, seat, mine, s.turns - s.turn)

    def priors(self, s: TiberiusState, actions: Sequence[TAction] | None = None) -> list[float]:
        """A softmax of :meth:`gains` at ``temperature`` VP, mixed with ``mix`` of the uniform prior
        (so that no legal action is starved)."""
        acts = actions if actions is not None else legal_actions(s, self.content)
        g = self.gains(s, acts)
        top = max(g)
        w = [math.exp((x - top) / self.temperature) for x in g]
        z = sum(w)
        flat = self.mix / len(w)
        return [(1.0 - self.mix) * x / z + flat for x in w]
