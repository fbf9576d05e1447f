"""The engine: setup, the phase table, Payday, the end of the game, and the step dispatch.

rule: cyberverse/setup - each Organization: 900 D, the Modifier deck -1, 0, 1, 1, 2, its starting
Story card with one random Investigation card of each colour, its tokens; an Agent chosen in turn
(the first player first, clockwise) with the side of its sheet.
rule: cyberverse/order-of-play - the last Organization to choose an Agent begins the first turn;
from the second turn the richest plays first, ties to the lowest Agent Initiative.
rule: cyberverse/building-new-eden - 3 random Supply tokens per store, the Event deck, 3 Agent
sheets and 3 Support cards in rows, the Ambush, Henchman, Brawl, Story and Investigation decks.
rule: cyberverse/payday - salaries are paid at the end of the turn (not for an Agent trained or
rescued this turn); Supply tokens other than Cyber-Implants may be resold for half their price
rounded down to the hundred; an unpaid Agent leaves and joins the row of Agents for hire.
cyberverse/end-of-game - the game ends at the end of a turn when an Organization has
resolved 6 (2 players), 5 (3) or 4 (4) Story cards, or dominates every district. The rulebook has
no turn limit: the ``max_turns`` variant (off by default) is an opt-in safety cap.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from games.core.records import replace
from games.cyberverse import activation, combat, events, flow, investigation, stories, strategy
from games.cyberverse.agents import agent_lost, support_limit
from games.cyberverse.content import Content
from games.cyberverse.modifiers import MODIFIER_DECK
from games.cyberverse.state import (
    ACTIVATION,
    AUXILIARY,
    C_AGENT_ROW,
    C_AMBUSH,
    C_BRAWL,
    C_CASE,
    C_EVENT,
    C_FIGHTER_TOKEN,
    C_HENCHMAN,
    C_MODIFIER,
    C_RESTOCK,
    C_REVEAL,
    C_SETUP_SHEET,
    C_STORY,
    C_SUPPORT_ROW,
    C_TOKEN,
    D_ADRENALIN,
    D_ATTACK,
    D_AUX,
    D_CHOOSE_AGENT,
    D_CHOOSE_SIDE,
    D_CONVERT,
    D_DODGE,
    D_DROP_SUPPORT,
    D_FIGHT_MOVE,
    D_GRILL,
    D_HENCHMAN_TARGET,
    D_INFLUENCE,
    D_KEEP_STORY,
    D_KEEP_TOKEN,
    D_LOSE_TOKEN,
    D_MOVE,
    D_PAYDAY,
    D_PROJECT,
    D_SECOND,
    D_STRATEGY,
    D_SUPPORT,
    D_TEST,
    EVENT,
    INVESTIGATION,
    NO_CTX,
    PAYDAY,
    SETUP,
    STRATEGY,
    Action,
    City,
    Decks,
    Market,
    Options,
    Org,
    State,
    act,
)
from games.cyberverse.work import Work, insert_sorted, remove_one

COMBAT_STEPS = frozenset(
    {
        D_KEEP_TOKEN,
        D_FIGHT_MOVE,
        D_ATTACK,
        D_GRILL,
        D_SUPPORT,
        D_CONVERT,
        D_SECOND,
        D_PROJECT,
        D_DODGE,
        D_ADRENALIN,
        D_HENCHMAN_TARGET,
    }
)
"""The decisions of a Combat (``combat.py``)."""

__all__ = [
    "END_CAP",
    "END_DOMINATION",
    "END_STORIES",
    "STARTING_MONEY",
    "STORIES_TO_WIN",
    "chance_outcomes",
    "dominates",
    "end_reason",
    "legal_actions",
    "new_state",
    "perform",
    "turn_order",
]

STARTING_MONEY = 900
"""rule: cyberverse/setup - 900 D on the Resources counter."""
STORIES_TO_WIN = {2: 6, 3: 5, 4: 4}
"""cyberverse/end-of-game - resolved Story cards that end the game, by player count."""
STORE_STOCK = 3
"""rule: cyberverse/building-new-eden - 3 Supply tokens drawn per store."""
ROW = 3
"""rule: cyberverse/building-new-eden - 3 Agent sheets and 3 Support cards in their rows."""


# ------------------------------------------------------------------ setup
def _new_orgs(c: Content, players: int, rng: random.Random, cases_left: list[list[int]]) -> tuple[Org, ...]:
    """rule: cyberverse/setup - 900 D, the Modifier deck, the starting Story card and one random
    Investigation card of each colour it requires."""
    orgs = []
    for seat in range(players):
        story = c.organisations[seat].starting_story
        cases = []
        for colour in c.stories[story].requires:
            card = rng.choice(cases_left[colour])
            cases_left[colour].remove(card)
            cases.append(card)
        n = len(cases)
        blank: tuple[tuple[int, ...], ...] = ((),) * n
        orgs.append(
            Org(
                STARTING_MONEY,
                MODIFIER_DECK,
                (),
                story,
                tuple(cases),
                blank,
                blank,
                blank,
                (),
                (),
                (0,) * 5,
                0,
                False,
            )
        )
    return tuple(orgs)


def _new_market(c: Content, rng: random.Random) -> Market:
    """rule: cyberverse/building-new-eden - 3 random Supply tokens per store (backs showing), the
    Agent sheets and the Support cards (3 in the row)."""
    stock, stack = [], []
    for cat in range(4):
        tokens = [i for i, t in enumerate(c.tokens) if t.category == cat]
        shown = rng.sample(tokens, min(STORE_STOCK, len(tokens)))
        stock.append(tuple(-2 - c.tokens[t].back for t in shown) + (-1,) * (STORE_STOCK - len(shown)))
        stack.append(tuple(sorted(tokens)))
    support = list(range(len(c.support)))
    row = rng.sample(support, min(ROW, len(support)))
    sheets = tuple(range(len(c.faces) // 2))
    rest = tuple(sorted(set(support) - set(row)))
    return Market(tuple(stock), tuple(stack), ((),) * 4, (), sheets, (), tuple(row), rest, ())


def _new_city(c: Content, options: Options, rng: random.Random) -> City:
    """rule: cyberverse/building-new-eden - one board per district (variant ``boards``), the News track."""
    boards = []
    for d in range(5):
        sides = [i for i, b in enumerate(c.boards) if b.district == d]
        want = options.boards if options.boards != "random" else rng.choice("AB")
        pick = [i for i in sides if c.boards[i].id[0] == want] or sides
        boards.append(pick[0])
    return City(tuple(boards), (-1,) * c.news_slots, ((),) * c.news_slots, ((),) * 5, (-1,) * 5)


def new_state(c: Content, players: int, options: Options, seed: int) -> State:
    """rule: cyberverse/setup, cyberverse/building-new-eden - the game set up; the first decision is
    the first Organization's choice of an Agent."""
    rng = random.Random(seed)
    cases_left = [list(deck) for deck in c.investigation_decks]
    starting = {o.starting_story for o in c.organisations}
    orgs = _new_orgs(c, players, rng, cases_left)
    market = _new_market(c, rng)
    city = _new_city(c, options, rng)
    decks = Decks(
        tuple(range(len(c.events))),
        (),
        tuple(range(len(c.ambush))),
        (),
        tuple(range(len(c.brawl))),
        (),
        tuple(range(len(c.henchmen))),
        (),
        tuple(i for i in range(len(c.stories)) if i not in starting),
        (),
        (),
        tuple(tuple(x) for x in cases_left),
        ((), (), ()),
        tuple(range(len(c.combat_tokens))),
    )
    order = tuple(range(players))
    state = State(
        players,
        options,
        1,
        SETUP,
        D_CHOOSE_AGENT,
        0,
        players - 1,
        order,
        orgs,
        (),
        city,
        market,
        decks,
        None,
        NO_CTX,
        (),
        (),
    )
    w = Work(state)
    w.set_ctx(seat=0)
    _next_choice(w, c)
    return w.freeze()


def _next_choice(w: Work, c: Content) -> None:
    """rule: cyberverse/order-of-play - the Organizations choose an Agent in turn."""
    seat = w.ctx.seat
    if seat >= w.players:
        w.set_ctx(seat=-1, cards=())
        if not activation.refill_agents(w):
            _setup_done(w, c)
        return
    if w.options.starting_agent == "random":
        flow.chance(w, C_SETUP_SHEET)
    else:
        flow.decide(w, D_CHOOSE_AGENT, seat)


def _setup_done(w: Work, c: Content) -> None:
    """rule: cyberverse/order-of-play - the last Organization to choose begins the first turn."""
    first = w.players - 1
    w.order = tuple((first + k) % w.players for k in range(w.players))
    w.ctx = NO_CTX
    flow.finish(w, c)


def _choose(w: Work, c: Content, sheet: int, side: int) -> None:
    seat = w.ctx.seat
    w.set_market(agent_pool=remove_one(w.market.agent_pool, sheet))
    activation.add_agent(w, c, activation.new_agent(c, sheet, side, seat, recruited=False))
    w.set_ctx(seat=seat + 1, cards=())
    _next_choice(w, c)


# ------------------------------------------------------------------ payday and the end
def _begin_payday(w: Work, c: Content) -> None:
    """rule: cyberverse/payday - the Organizations in order of play."""
    w.set_ctx(queue=w.order)
    _next_payer(w, c)


def _resellable(s: State | Work, c: Content, seat: int) -> list[Action]:
    return strategy.resell_actions(s, c, seat)


def _next_payer(w: Work, c: Content) -> None:
    while w.ctx.queue:
        seat = w.ctx.queue[0]
        if _resellable(w, c, seat):
            flow.decide(w, D_PAYDAY, seat)
            return
        _pay(w, c, seat)
        w.set_ctx(queue=w.ctx.queue[1:])
    _end_of_turn(w, c)


def salary_due(c: Content, agent_sheet: int, side: int) -> int:
    """The salary printed on an Agent sheet's side (cyberverse/agent-sheets)."""
    return c.faces[2 * agent_sheet + side].salary


def _pay(w: Work, c: Content, seat: int) -> None:
    """Pay each Agent in Initiative order while the Resources allow; an unpaid Agent leaves."""
    for agent in [a for a in w.agents if a.org == seat]:
        if agent.trained or agent.rescued:
            continue
        due = salary_due(c, agent.sheet, agent.side)
        money = w.orgs[seat].money
        if money >= due:
            w.set_org(seat, money=money - due)
        else:
            agent_lost(w, c, agent.sheet, left=True)


def _payday(w: Work, c: Content, a: Action) -> None:
    seat = w.ctx.queue[0]
    if a.kind == "resell":
        strategy.resell(w, c, a.a, a.b)
        if _resellable(w, c, seat):
            return
    _pay(w, c, seat)
    w.set_ctx(queue=w.ctx.queue[1:])
    _next_payer(w, c)


def dominates(s: State | Work, seat: int, rule: str) -> bool:
    """cyberverse/end-of-game - ``seat`` dominates every district (``"most"``: strictly the most
    Influence tokens in each; ``"sole"``: the only Influence tokens in each)."""
    for d in range(5):
        mine = s.orgs[seat].influence[d]
        others = max((s.orgs[p].influence[d] for p in range(s.players) if p != seat), default=0)
        if mine == 0 or (others > 0 if rule == "sole" else others >= mine):
            return False
    return True


END_STORIES, END_DOMINATION, END_CAP = "stories", "domination", "turn cap"
"""Why a game ended (:func:`end_reason`): the rulebook's two ends and the opt-in cap."""


def end_reason(s: State | Work) -> str:
    """Why the game is over ("" while it runs): ``"stories"`` (an Organization resolved the Story
    cards that end it) or ``"domination"`` (cyberverse/end-of-game), else ``"turn cap"``
    (the ``max_turns`` variant, not a rule)."""
    if s.actor != flow.TERMINAL_SEAT:
        return ""
    if any(len(o.solved) >= STORIES_TO_WIN[s.players] for o in s.orgs):
        return END_STORIES
    if any(dominates(s, p, s.options.domination) for p in range(s.players)):
        return END_DOMINATION
    return END_CAP


def turn_order(s: State | Work, c: Content) -> tuple[int, ...]:
    """rule: cyberverse/order-of-play - richest first, ties to the lowest Agent Initiative (then seat)."""

    def key(seat: int) -> tuple[int, int, int]:
        ini = [c.faces[2 * a.sheet + a.side].initiative for a in s.agents if a.org == seat]
        return (-s.orgs[seat].money, min(ini, default=99), seat)

    return tuple(sorted(range(s.players), key=key))


def _end_of_turn(w: Work, c: Content) -> None:
    """Flags of the turn are cleared; the end of the game is checked; the next turn begins."""
    w.agents = tuple(
        replace(a, recruited=False, trained=False, rescued=False)
        if a.recruited or a.trained or a.rescued
        else a
        for a in w.agents
    )
    for seat in range(w.players):
        if w.orgs[seat].took_support:
            w.set_org(seat, took_support=False)
    w.ctx = NO_CTX
    goal = STORIES_TO_WIN[w.players]
    if any(len(o.solved) >= goal for o in w.orgs) or any(
        dominates(w, p, w.options.domination) for p in range(w.players)
    ):
        flow.game_over(w)
        return
    if w.options.max_turns and w.turn >= w.options.max_turns:
        flow.game_over(w)
        return
    w.turn += 1
    w.order = turn_order(w, c)
    flow.finish(w, c)


def adjust_support(w: Work, c: Content) -> None:
    """cyberverse/support-cards - an Organization that lost an Agent "must adjust the number
    of its Support cards" to its team's Reputation: it chooses the cards to discard, one decision
    per card, before the flow goes on (the interrupted step is held in ``held``)."""
    while w.adjust:
        seat = w.adjust[0]
        limit = support_limit(w, c, seat)
        if w.actor == flow.TERMINAL_SEAT:  # the game is over: no decision left (newest first)
            support = w.orgs[seat].support
            while len(support) > limit:
                w.set_market(support_discard=insert_sorted(w.market.support_discard, support[-1]))
                support = support[:-1]
            w.set_org(seat, support=support)
        elif len(w.orgs[seat].support) > limit:
            if not w.held:
                w.held = (w.step, w.actor)
            flow.decide(w, D_DROP_SUPPORT, seat)
            return
        w.adjust = w.adjust[1:]
    if w.held:
        w.step, w.actor = w.held
        w.held = ()


def _drop_support(w: Work, c: Content, card: int) -> None:
    """The Organization adjusting its Support cards discards ``card``."""
    seat = w.adjust[0]
    w.set_org(seat, support=remove_one(w.orgs[seat].support, card))
    w.set_market(support_discard=insert_sorted(w.market.support_discard, card))


BEGIN: dict[int, Callable[[Work, Content], None]] = {
    EVENT: events.begin,
    STRATEGY: strategy.begin,
    ACTIVATION: activation.begin,
    AUXILIARY: activation.begin_aux,
    INVESTIGATION: investigation.begin,
    PAYDAY: _begin_payday,
}
"""Per phase, the function that begins it (``flow.finish``)."""
NEXT: dict[int, int] = {
    SETUP: EVENT,
    EVENT: STRATEGY,
    STRATEGY: ACTIVATION,
    ACTIVATION: AUXILIARY,
    AUXILIARY: INVESTIGATION,
    INVESTIGATION: PAYDAY,
    PAYDAY: EVENT,
}
"""Per phase, the phase that follows it (cyberverse/order-of-play)."""
RESUME: dict[int, Callable[[Work, Content], None]] = {
    SETUP: _setup_done,
    STRATEGY: strategy.resume,
    AUXILIARY: activation.resume_aux,
}
"""Per phase, the function that takes the phase up again after a shared sub-flow (a Story card
drawn in the Strategy phase or as an Auxiliary Action; ``flow.resume``)."""


# ------------------------------------------------------------------ dispatch
def legal_actions(s: State, c: Content) -> list[Action]:
    """The legal actions (or chance outcomes' actions) of the pending step."""
    if s.actor == flow.CHANCE_SEAT:
        return [a for a, _ in chance_outcomes(s, c)]
    step = s.step
    if step == D_CHOOSE_AGENT:
        return [act("choose", sheet, side) for sheet in s.market.agent_pool for side in (0, 1)]
    if step == D_CHOOSE_SIDE:
        return [act("choose", s.ctx.cards[0], side) for side in (0, 1)]
    if step == D_STRATEGY:
        return strategy.legal(s, c)
    if step == D_KEEP_STORY:
        return [act("keep", card) for card in sorted(set(s.ctx.cards))]
    if step == D_MOVE:
        return activation.legal_move(s, c)
    if step == D_AUX:
        return activation.legal_aux(s, c)
    if step == D_LOSE_TOKEN:
        return investigation.legal_loss(s, c)
    if step in COMBAT_STEPS:
        return combat.legal(s, c)
    if step == D_TEST:
        return investigation.legal_test(s, c)
    if step == D_INFLUENCE:
        return investigation.legal_influence(s, c)
    if step == D_PAYDAY:
        return [act("pay"), *_resellable(s, c, s.ctx.queue[0])]
    if step == D_DROP_SUPPORT:
        return [act("drop-support", card) for card in sorted(set(s.orgs[s.adjust[0]].support))]
    return []


def _draws(pool: Sequence[int]) -> list[tuple[Action, float]]:
    """The draw actions of a (sorted) deck with their chances."""
    return [(act("draw", x), p) for x, p in flow.draw_outcomes(tuple(pool))]


def chance_outcomes(s: State, c: Content) -> list[tuple[Action, float]]:
    """The outcomes of the pending chance draw with their probabilities."""
    step = s.step
    if step in (C_SETUP_SHEET, C_AGENT_ROW):
        return _draws(s.market.agent_pool)
    if step == C_SUPPORT_ROW:
        return _draws(s.market.support_pool)
    if step == C_EVENT:
        return _draws(s.decks.events)
    if step == C_HENCHMAN:
        return _draws(s.decks.henchmen)
    if step == C_REVEAL:
        back = -2 - s.market.stock[s.ctx.store][s.ctx.slot]
        return _draws([t for t in s.market.stack[s.ctx.store] if c.tokens[t].back == back])
    if step == C_RESTOCK:
        weights = strategy.restock_weights(s, c, s.ctx.store)
        total = sum(weights.values())
        return [(act("draw", b), n / total) for b, n in sorted(weights.items())]
    if step == C_STORY:
        return _draws(s.decks.stories)
    if step == C_CASE:
        return _draws(s.decks.cases[s.ctx.colours[0]])
    if step == C_AMBUSH:
        return _draws(s.decks.ambush)
    if step == C_BRAWL:
        return _draws(s.decks.brawl)
    if step in (C_TOKEN, C_FIGHTER_TOKEN):
        return _draws(s.decks.tokens)
    if step == C_MODIFIER:
        return _draws(s.orgs[s.ctx.seat].deck)
    return []


def chance_pool(s: State, c: Content) -> tuple[int, ...] | None:
    """The sorted deck the pending chance step draws one card from (None: a weighted draw)."""
    step = s.step
    if step in (C_SETUP_SHEET, C_AGENT_ROW):
        return s.market.agent_pool
    if step == C_SUPPORT_ROW:
        return s.market.support_pool
    if step == C_EVENT:
        return s.decks.events
    if step == C_HENCHMAN:
        return s.decks.henchmen
    if step == C_STORY:
        return s.decks.stories
    if step == C_CASE:
        return s.decks.cases[s.ctx.colours[0]]
    if step == C_AMBUSH:
        return s.decks.ambush
    if step == C_BRAWL:
        return s.decks.brawl
    if step in (C_TOKEN, C_FIGHTER_TOKEN):
        return s.decks.tokens
    if step == C_MODIFIER:
        return s.orgs[s.ctx.seat].deck
    return None


def sample_draw(pool: tuple[int, ...], r: float) -> Action:
    """The card of a sorted deck drawn for ``r`` in [0, 1): the outcome ``sample_chance`` picks from
    ``chance_outcomes`` (same order, same sums) without building the outcome list."""
    n = len(pool)
    acc = 0.0
    i = 0
    while i < n:
        x = pool[i]
        j = i + 1
        while j < n and pool[j] == x:
            j += 1
        acc += (j - i) / n
        if r < acc:
            return act("draw", x)
        i = j
    return act("draw", pool[-1])


_CHANCE = {
    C_AGENT_ROW: activation.on_agent_row,
    C_SUPPORT_ROW: strategy.on_support_row,
    C_EVENT: events.on_event,
    C_HENCHMAN: events.on_henchman,
    C_REVEAL: strategy.on_reveal,
    C_RESTOCK: strategy.on_restock,
    C_STORY: stories.on_story,
    C_CASE: stories.on_case,
    C_AMBUSH: investigation.on_ambush,
    C_BRAWL: combat.on_brawl,
    C_TOKEN: combat.on_token,
    C_FIGHTER_TOKEN: combat.on_fighter_token,
    C_MODIFIER: investigation.on_modifier,
}


def perform(s: State, c: Content, a: Action) -> State:
    """The state after action ``a`` (taken from ``legal_actions``)."""
    w = Work(s)
    step = s.step
    if s.actor == flow.CHANCE_SEAT:
        if step == C_SETUP_SHEET:
            w.set_ctx(cards=(a.a,))
            flow.decide(w, D_CHOOSE_SIDE, w.ctx.seat)
        else:
            _CHANCE[step](w, c, a.a)
    elif step in (D_CHOOSE_AGENT, D_CHOOSE_SIDE):
        _choose(w, c, a.a, a.b)
    elif step == D_STRATEGY:
        strategy.perform(w, c, a)
    elif step == D_KEEP_STORY:
        stories.keep(w, c, a.a)
    elif step == D_MOVE:
        activation.move(w, c, a)
    elif step == D_AUX:
        activation.aux(w, c, a)
    elif step == D_LOSE_TOKEN:
        investigation.lose(w, c, a)
    elif step in COMBAT_STEPS:
        combat.perform(w, c, a)
    elif step == D_TEST:
        investigation.test(w, c, a)
    elif step == D_INFLUENCE:
        investigation.influence(w, c, a, w.ctx.seat)
    elif step == D_PAYDAY:
        _payday(w, c, a)
    elif step == D_DROP_SUPPORT:
        _drop_support(w, c, a.a)
    if w.adjust:
        adjust_support(w, c)
    return w.freeze()
