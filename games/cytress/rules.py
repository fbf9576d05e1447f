"""The decision points: the legal actions of each step and what each does.

Every step of ``games.cytress.state.STEP_NAMES`` is a decision of its own, owned by the seat the
rulebook names (the automa's ties: the solo player). :func:`legal_actions` lists a step's choices
and :func:`perform` applies one, then runs the automatic steps after it (``flow.advance``). Each
choice's rule lives in the module of its rulebook section; this module only dispatches.
"""

from __future__ import annotations

from collections.abc import Callable

from games.core.records import replace
from games.cytress import automa
from games.cytress.board import act
from games.cytress.content import Content
from games.cytress.crews import after_crew, crew_hexes, place_crew, spy, spy_rivals
from games.cytress.economy import lifepath_icons
from games.cytress.flow import advance
from games.cytress.intel import face_up
from games.cytress.scouting import scout, scout_options
from games.cytress.state import (
    AMOUNT,
    AUTOMA_CREW,
    AUTOMA_MOVE,
    AUTOMA_TUBE,
    BENEFIT,
    BOUNTY,
    CHOOSE_SIDE,
    CREW,
    FIXER_INTEL,
    FIXER_RESERVE,
    HEIGHT,
    INTEL,
    NOBODY,
    OVER,
    PAD,
    PAD_MERCHANT,
    PAYMENT,
    SCOUT_SPOT,
    SPY,
    STEP_NAMES,
    STRATOLITE,
    TRADE,
    TUBE,
    CAction,
    CytressState,
)
from games.cytress.travel import meet_faction_intel, pad_choices, start_pad
from games.cytress.tubes import (
    buildable,
    choose_height,
    choose_payment,
    choose_stratolite,
    finish_tube,
    heights,
    renegade_resources,
    stratolites_open,
    tube_hexes,
)
from games.cytress.undercity import (
    amount,
    benefit,
    benefit_options,
    bounty_options,
    choose_trade,
    free_intel,
    reserve,
    take_bounty,
    trade_options,
)
from games.cytress.work import Ctx, Pos, Work, freeze_work, load_work, set_player
from games.errors import IllegalActionError, WrongSeatError

__all__ = ["STEP_LEGAL", "STEP_RULE", "legal_actions", "perform", "perform_trusted"]

STEP_RULE: dict[int, str] = {
    CHOOSE_SIDE: "cytress/solo-setup",
    SCOUT_SPOT: "cytress/phase-2-scout",
    PAD: "cytress/phase-3a-travel",
    INTEL: "cytress/meet-a-faction",
    CREW: "cytress/meet-a-faction",
    SPY: "cytress/meet-a-faction",
    STRATOLITE: "cytress/meet-a-stratolite",
    PAYMENT: "cytress/meet-the-renegade",
    HEIGHT: "cytress/waste-tubes",
    TUBE: "cytress/waste-tubes",
    BOUNTY: "cytress/meet-the-enforcers",
    BENEFIT: "cytress/meet-the-enforcers",
    FIXER_INTEL: "cytress/meet-the-fixer",
    FIXER_RESERVE: "cytress/meet-the-fixer",
    TRADE: "cytress/meet-the-merchant",
    AMOUNT: "cytress/meet-the-merchant",
    AUTOMA_CREW: "cytress/solo-ai-actions",
    AUTOMA_MOVE: "cytress/solo-ai-actions",
    AUTOMA_TUBE: "cytress/solo-ai-actions",
}
"""The rulebook section that governs each decision (named by errors)."""


def legal_actions(ctx: Ctx, state: CytressState) -> list[CAction]:
    """The legal actions of the open decision, in a fixed order (empty once the game is over)."""
    if state.phase == OVER:
        return []
    return STEP_LEGAL[state.step](ctx.content, state)


class _Table(dict[int, CAction]):
    """The shared action objects of one kind by argument (``board.act``), made on first use."""

    def __init__(self, kind: str) -> None:
        super().__init__()
        self.kind = kind

    def __missing__(self, arg: int) -> CAction:
        a = self[arg] = act(self.kind, arg)
        return a


_SIDE, _SCOUT, _PAD, _INTEL, _CREW, _SPY = map(_Table, ("side", "scout", "pad", "intel", "crew", "spy"))
_STRAT, _PAY, _HEIGHT, _TUBE, _BOUNTY = map(_Table, ("stratolite", "pay", "height", "tube", "bounty"))
_BENEFIT, _RESERVE, _TRADE, _AMOUNT = map(_Table, ("benefit", "reserve", "trade", "amount"))
_NOSPY, _KEEP, _DONE = act("nospy"), act("keep"), act("done")


def _sides(c: Content, w: Pos) -> list[CAction]:
    return [_SIDE[0], _SIDE[1]]


def _scout(c: Content, w: Pos) -> list[CAction]:
    t = _SCOUT
    return [t[s] for s in scout_options(c, w.board_side, len(w.players), w.rebels, w.actor)]


_PADS = tuple(_PAD[p] for p in range(PAD_MERCHANT + 1))


def _pad(c: Content, w: Pos) -> list[CAction]:
    return pad_choices(c, w, w.actor, _PADS)


def _intel(c: Content, w: Pos) -> list[CAction]:
    t = _INTEL
    return [t[x] for x in w.intel_row[w.pending.pad] if x != NOBODY]


def _crew(c: Content, w: Pos) -> list[CAction]:
    t = _CREW
    return [t[h] for h in crew_hexes(w.map, w.crew, w.tube, w.pending.colour)]


def _spy(c: Content, w: Pos) -> list[CAction]:
    t = _SPY
    return [*(t[r] for r in spy_rivals(w.map, w.crew, w.pending.hex, w.actor)), _NOSPY]


def _stratolite(c: Content, w: Pos) -> list[CAction]:
    t = _STRAT
    return [t[x] for x in stratolites_open(c, w, w.actor)]


def _payment(c: Content, w: Pos) -> list[CAction]:
    t = _PAY
    return [t[r] for r in renegade_resources(w.players[w.actor])]


def _height(c: Content, w: Pos) -> list[CAction]:
    t = _HEIGHT
    hs = heights(w.players[w.actor], w.pending.resource, buildable(w))
    return [t[h] for h in hs]


def _tube(c: Content, w: Pos) -> list[CAction]:
    t = _TUBE
    return [t[h] for h in tube_hexes(w.map, w.crew, w.actor, w.pending.colour)]


def _bounty(c: Content, w: Pos) -> list[CAction]:
    t = _BOUNTY
    return [t[b] for b in bounty_options(w.bounty_stack)]


def _benefit(c: Content, w: Pos) -> list[CAction]:
    t = _BENEFIT
    return [t[b] for b in benefit_options(c, w, w.actor, w.pending.card)]


def _free(c: Content, w: Pos) -> list[CAction]:
    t = _INTEL
    return [t[x] for x in face_up(w.intel_row)]


def _reserve(c: Content, w: Pos) -> list[CAction]:
    t = _RESERVE
    return [*(t[x] for x in w.strat_row if x != NOBODY), _KEEP]


def _trade(c: Content, w: Pos) -> list[CAction]:
    t = _TRADE
    return [*(t[x] for x in trade_options(c, w.market, w.players[w.actor])), _DONE]


def _amount(c: Content, w: Pos) -> list[CAction]:
    give = w.pending.trade // 4
    t = _AMOUNT
    return [t[k] for k in range(1, w.players[w.actor].resources[give] + 1)]


def _automa_choice(kind: str) -> Callable[[Content, Pos], list[CAction]]:
    table = _Table(kind)

    def options(c: Content, w: Pos) -> list[CAction]:
        return [table[h] for h in w.pending.options]

    return options


STEP_LEGAL: dict[int, Callable[[Content, Pos], list[CAction]]] = {
    CHOOSE_SIDE: _sides,
    SCOUT_SPOT: _scout,
    PAD: _pad,
    INTEL: _intel,
    CREW: _crew,
    SPY: _spy,
    STRATOLITE: _stratolite,
    PAYMENT: _payment,
    HEIGHT: _height,
    TUBE: _tube,
    BOUNTY: _bounty,
    BENEFIT: _benefit,
    FIXER_INTEL: _free,
    FIXER_RESERVE: _reserve,
    TRADE: _trade,
    AMOUNT: _amount,
    AUTOMA_CREW: _automa_choice("automa-crew"),
    AUTOMA_MOVE: _automa_choice("automa-move"),
    AUTOMA_TUBE: _automa_choice("automa-tube"),
}


# ---------------------------------------------------------------- applying a choice
def perform(ctx: Ctx, state: CytressState, action: CAction, *, check: bool = True) -> CytressState:
    """The state after ``action`` and every automatic step it leads to. With ``check`` the action
    must be legal (``IllegalActionError`` naming the rule and the legal choices)."""
    if check:
        _check(ctx, state, action)
    w = Work.of(state)
    _DO[state.step](ctx.content, w, action)
    advance(ctx.content, w)
    return w.freeze()


def perform_trusted(content: Content, state: CytressState, action: CAction) -> CytressState:
    """``perform`` without the legality check (``Work.of`` and ``freeze`` inlined: this runs on
    every step of a playout)."""
    w = load_work(state)
    _DO[state.step](content, w, action)
    advance(content, w)
    return freeze_work(w)


def _check(ctx: Ctx, state: CytressState, action: CAction) -> None:
    if state.phase == OVER:
        raise WrongSeatError(
            "the game is over; no action is legal", field="action", rule="cytress/game-end-trigger"
        )
    legal = legal_actions(ctx, state)
    if action not in legal:
        shown = ", ".join(f"{a.kind} {a.arg}" for a in legal[:8]) + (" ..." if len(legal) > 8 else "")
        raise IllegalActionError(
            f"{action!r} is not legal when the step is to {STEP_NAMES[state.step]}; legal: {shown}",
            field="action",
            rule=STEP_RULE.get(state.step, "cytress/core-concepts"),
        )


def _do_side(c: Content, w: Work, a: CAction) -> None:
    seat = w.actor
    p = w.players[seat]
    icons = lifepath_icons(c, w.rebels[seat].board, a.arg, p.lifepaths)
    set_player(w, seat, replace(p, side=a.arg, icons=icons))
    w.finish()


def _do_scout(c: Content, w: Work, a: CAction) -> None:
    scout(c, w, w.actor, a.arg)
    w.finish()


def _do_crew(c: Content, w: Work, a: CAction) -> None:
    place_crew(w, w.actor, a.arg)
    after_crew(w, w.actor, a.arg)


def _do_spy(c: Content, w: Work, a: CAction) -> None:
    if a.kind == "spy":
        spy(w, w.actor, w.pending.hex, a.arg)
    w.finish()


def _do_trade(c: Content, w: Work, a: CAction) -> None:
    if a.kind == "done":
        w.finish()
    else:
        choose_trade(w, a.arg)


def _do_automa(c: Content, w: Work, a: CAction) -> None:
    automa.answer(w, w.step, a.arg)


_DO: dict[int, Callable[[Content, Work, CAction], None]] = {
    CHOOSE_SIDE: _do_side,
    SCOUT_SPOT: _do_scout,
    PAD: lambda c, w, a: start_pad(c, w, a.arg),
    INTEL: lambda c, w, a: meet_faction_intel(c, w, a.arg),
    CREW: _do_crew,
    SPY: _do_spy,
    STRATOLITE: lambda c, w, a: choose_stratolite(c, w, a.arg),
    PAYMENT: lambda c, w, a: choose_payment(w, a.arg),
    HEIGHT: lambda c, w, a: choose_height(w, a.arg),
    TUBE: lambda c, w, a: finish_tube(c, w, a.arg),
    BOUNTY: lambda c, w, a: take_bounty(c, w, w.actor, a.arg),
    BENEFIT: lambda c, w, a: benefit(c, w, a.arg),
    FIXER_INTEL: lambda c, w, a: free_intel(c, w, a.arg),
    FIXER_RESERVE: lambda c, w, a: reserve(w, a.arg if a.kind == "reserve" else NOBODY),
    TRADE: _do_trade,
    AMOUNT: lambda c, w, a: amount(w, a.arg),
    AUTOMA_CREW: _do_automa,
    AUTOMA_MOVE: _do_automa,
    AUTOMA_TUBE: _do_automa,
}
