"""Whether a position read from its public form hangs together: the components conserved (crews,
tube sections, intel cards, Stratolites, bounties, AI action cards) and the flow coherent (the phase,
the seat to move, the open decision and its choices so far). ``games.cytress.validate`` reads the
fields, then asks these checks; each refusal names the field and the rulebook section.
"""

from __future__ import annotations

from typing import Any, NoReturn

from games.cytress.board import CREWS, TUBE_SECTIONS
from games.cytress.content import AI_CARDS_PER_FACTION, Content
from games.cytress.rules import legal_actions
from games.cytress.scouting import open_spots, scouts_per_round
from games.cytress.setup import TRANSPORTS
from games.cytress.state import (
    AMOUNT,
    AUTOMA,
    AUTOMA_CREW,
    AUTOMA_MOVE,
    AUTOMA_TUBE,
    BENEFIT,
    BOUNTY,
    CHOOSE_SIDE,
    CREW,
    EXTRA,
    FACTIONS,
    FIXER_INTEL,
    FIXER_RESERVE,
    HEIGHT,
    INTEL,
    NOBODY,
    NONE,
    OP_BOUNTY_CREW,
    OP_NORMAL,
    OP_PLACE,
    OVER,
    PAD,
    PAD_ENFORCERS,
    PAD_FIXER,
    PAD_MERCHANT,
    PAD_RENEGADE,
    PAD_STRATOLITES,
    PADS,
    PAYMENT,
    PHASE_NAMES,
    SCOUT,
    SCOUT_SPOT,
    SIDES,
    SPY,
    STEP_NAMES,
    STRATOLITE,
    TRADE,
    TRAVEL,
    TUBE,
    Automa,
    CytressState,
)
from games.cytress.work import Ctx
from games.errors import InvalidStateError

__all__ = ["check_components", "check_flow", "owner_path", "refuse"]


def refuse(field: str, why: str, rule: str = "") -> NoReturn:
    """Refuse a state: ``InvalidStateError`` naming ``state.<field>`` and the ``rule`` broken."""
    raise InvalidStateError(
        f"invalid cytress state: {why}", field=f"state.{field}" if field else "state", rule=rule
    )


def owner_path(o: int, n: int, key: str) -> str:
    """The public form's path to owner ``o``'s ``key`` (the automa's own block in solo)."""
    return f"automa.{key}" if n == 1 and o == AUTOMA else f"seats[{o}].{key}"


def check_components(c: Content, s: CytressState) -> None:
    """Components conserved (the rulebook's setup): 12 crews per owner, 50 tube sections, the 72
    intel cards, the 12 Stratolites, the bounties; intel on its own faction's lifepath; leaders on
    open, unshared scouting spots."""
    n, crew, rebels = s.num_players, s.crew, s.rebels
    tubes_left, tubes_box, tube, automa = s.tubes_left, s.tubes_box, s.tube, s.automa
    intel_deck, intel_row = s.intel_deck, s.intel_row
    paths = [p.lifepaths for p in s.players]
    strat_deck, strat_row, strat_discard = s.strat_deck, s.strat_row, s.strat_discard
    reserved = [p.reserved for p in s.players]
    stacks, board_side = s.bounty_stack, s.board_side
    for o, rebel in enumerate(rebels):
        placed = sum(1 for x in crew if x == o) + sum(rebel.stratos) + rebel.unused
        if placed != CREWS:
            refuse(
                owner_path(o, n, "crews_unused"),
                f"{placed} crews in play; every rebel has exactly 12",
                "cytress/setup",
            )
    records = automa.records if automa is not None else 0
    if tubes_left + tubes_box + sum(tube) + records != TUBE_SECTIONS:
        refuse(
            "tube_sections",
            "tube sections near Stratos, in the box, on the map and on the AI tracker must total 50",
            "cytress/setup",
        )
    _conserve_intel(c, intel_deck, intel_row, paths, automa)
    _conserve_stratolites(strat_deck, strat_row, strat_discard, reserved)
    _conserve_bounties(c, n, stacks, [r.bounties for r in rebels])
    if automa is not None:
        _conserve_ai(automa)
    for seat, mine in enumerate(paths):
        for lifepath, cards in enumerate(mine):
            if any(c.intel[x].faction != lifepath for x in cards):
                refuse(
                    f"seats[{seat}].lifepaths.{FACTIONS[lifepath]}",
                    "an intel card on another faction's lifepath",
                    "cytress/meet-a-faction",
                )
    spots = set(open_spots(c, board_side, n))
    placed_leaders = [r.leader for r in rebels if r.leader != NOBODY]
    if any(x not in spots for x in placed_leaders) or len(set(placed_leaders)) != len(placed_leaders):
        refuse("seats", "a rebel leader is on a closed or shared scouting spot", "cytress/phase-2-scout")


# ---------------------------------------------------------------- conservation
def _once(field: str, cards: list[int], total: int, what: str, rule: str) -> None:
    if len(cards) != len(set(cards)):
        refuse(field, f"a {what} appears twice", rule)
    if len(cards) != total:
        refuse(field, f"{len(cards)} {what}s in play; expected all {total}", rule)


def _conserve_intel(c: Content, decks: Any, rows: Any, paths: Any, automa: Automa | None) -> None:
    cards = [x for d in decks for x in d] + [x for row in rows for x in row if x != NOBODY]
    cards += [x for mine in paths for p in mine for x in p] + (
        list(automa.intel) if automa is not None else []
    )
    _once("factions", cards, len(c.intel), "intel card", "cytress/setup")


def _conserve_stratolites(deck: Any, row: Any, discard: Any, reserved: Any) -> None:
    cards = [*deck, *(x for x in row if x != NOBODY), *discard, *(x for x in reserved if x != NOBODY)]
    _once("stratolites", cards, 12, "stratolite", "cytress/meet-a-stratolite")


def _conserve_bounties(c: Content, n: int, stacks: Any, held: Any) -> None:
    cards = [b for s in stacks for b in s] + [b for h in held for b in h]
    in_play = [b.id for b in c.bounties if b.tier == 1 or n >= 4]
    if sorted(cards) != sorted(in_play):
        refuse(
            "bounty_stacks",
            f"the bounties in play with {n} players must each be in a stack or claimed once",
            "cytress/setup",
        )


def _conserve_ai(a: Automa) -> None:
    cards = [*a.deck, *(x for t in a.tracker for x in t), *a.drawn]
    _once("automa.deck", cards, 16, "AI action card", "cytress/solo-setup")
    for f, t in enumerate(a.tracker):
        full = tuple(range(f * AI_CARDS_PER_FACTION, f * AI_CARDS_PER_FACTION + 3))
        if t != full[3 - len(t) :]:
            refuse(
                f"automa.tracker.{FACTIONS[f]}",
                "the tracker holds its faction's cards, removed from the top",
                "cytress/solo-gameplay",
            )


# ---------------------------------------------------------------- whose turn, which step
_TRAVEL_STEPS = (
    PAD,
    INTEL,
    CREW,
    SPY,
    STRATOLITE,
    PAYMENT,
    HEIGHT,
    TUBE,
    BOUNTY,
    BENEFIT,
    FIXER_INTEL,
    FIXER_RESERVE,
    TRADE,
    AMOUNT,
)
_AUTOMA_STEPS = (AUTOMA_CREW, AUTOMA_MOVE, AUTOMA_TUBE)
_PAD_OF_STEP = {
    STRATOLITE: (PAD_STRATOLITES,),
    PAYMENT: (PAD_RENEGADE,),
    BOUNTY: (PAD_ENFORCERS,),
    BENEFIT: (PAD_ENFORCERS,),
    FIXER_INTEL: (PAD_FIXER,),
    FIXER_RESERVE: (PAD_FIXER,),
    TRADE: (PAD_MERCHANT,),
    AMOUNT: (PAD_MERCHANT,),
    INTEL: (0, 1, 2, 3),
    CREW: (0, 1, 2, 3, PAD_ENFORCERS),
    SPY: (0, 1, 2, 3, PAD_ENFORCERS),
    HEIGHT: (PAD_STRATOLITES, PAD_RENEGADE),
    TUBE: (PAD_STRATOLITES, PAD_RENEGADE),
}


def check_flow(ctx: Ctx, s: CytressState) -> None:
    """The seat to move is the one whose turn it is, and its open decision is coherent."""
    phase, step = s.phase, s.step
    rule = "cytress/core-concepts"
    if phase == OVER:
        if step != NONE:
            refuse("step", "no decision is open once the game is over", rule)
        if s.solo and s.round < s.round_limit:
            refuse("phase", f"a solo game ends after round {s.round_limit}", "cytress/solo-game-end")
        if not s.solo and not s.end_triggered and not (s.round_limit and s.round >= s.round_limit):
            refuse(
                "phase",
                "a 2-5 player game ends at the end of the round the last allocated tube section was "
                "placed (end_triggered), or after the round_limit variant's round",
                "cytress/game-end-trigger",
            )
        return
    allowed = {
        SIDES: (CHOOSE_SIDE,),
        SCOUT: (SCOUT_SPOT,),
        TRAVEL: _TRAVEL_STEPS + _AUTOMA_STEPS,
        EXTRA: _TRAVEL_STEPS,
    }[phase]
    if step not in allowed or (phase == EXTRA and step == STRATOLITE):
        refuse("step", f"{STEP_NAMES[step]!r} is not a decision of the {PHASE_NAMES[phase]} phase", rule)
    _check_turn(s)
    _check_automa_flow(s)
    _check_pending(ctx, s)
    if not legal_actions(ctx, s):
        refuse("step", f"the seat to move has no legal way to {STEP_NAMES[step]}", STEP_RULE_FALLBACK)


def _check_turn(s: CytressState) -> None:
    """The seat to move is the one whose turn of the phase it is."""
    n, phase, step, actor, turn = s.num_players, s.phase, s.step, s.actor, s.turn
    if phase == SIDES:
        if turn >= n or actor != (s.first + turn) % n or s.players[actor].side >= 0:
            refuse(
                "to_move",
                "rebel board sides are chosen in turn order from the first player",
                "cytress/solo-setup",
            )
    elif phase == SCOUT:
        if s.solo:
            ok = turn in (1, 3) and actor == 0
        else:
            ok = turn < scouts_per_round(n) * n and actor == (s.phase_first + turn) % n
        if not ok:
            refuse("to_move", f"it is not seat {actor}'s scout at turn {turn}", "cytress/phase-2-scout")
    elif phase == TRAVEL:
        if s.solo:
            ok = turn < 6 and actor == 0 and (turn % 2 == 0) == (step in _AUTOMA_STEPS)
        else:
            ok = turn < TRANSPORTS * n and actor == (s.phase_first + turn) % n
        if not ok:
            refuse("to_move", f"it is not seat {actor}'s travel at turn {turn}", "cytress/phase-3a-travel")
    elif turn >= n:
        refuse("turn", "extra travel looks at seats in turn order", "cytress/phase-3b-extra-travel")


def _check_automa_flow(s: CytressState) -> None:
    """The automa's revealed cards and program belong to its turn."""
    phase, step, turn = s.phase, s.step, s.turn
    a = s.automa
    if a is not None:
        in_turn = (phase == SCOUT and turn == 1) or step in _AUTOMA_STEPS
        if bool(a.drawn) != in_turn or bool(a.program) != (step in _AUTOMA_STEPS):
            refuse(
                "automa.revealed",
                "AI action cards are revealed only during the automa's turn",
                "cytress/solo-gameplay",
            )
        if phase == SCOUT and turn == 1 and len(a.drawn) != 1:
            refuse("automa.revealed", "the automa's first scout reveals one card", "cytress/solo-gameplay")


STEP_RULE_FALLBACK = "cytress/phase-3a-travel"


def _check_pending(ctx: Ctx, s: CytressState) -> None:
    """The choices already made fit the open step."""
    p, step, seat = s.pending, s.step, s.actor
    c = ctx.content
    expect = _PAD_OF_STEP.get(step, (NOBODY,))
    if p.pad not in expect:
        refuse(
            "pending.landing_pad",
            f"the step to {STEP_NAMES[step]} expects a pad among {[PADS[x] for x in expect if x >= 0]}",
        )
    player = s.players[seat]
    if step == PAD and (player.on_stratos if s.phase == EXTRA else player.transports) < 1:
        refuse("seats", f"seat {seat} has no transport left to move", "cytress/phase-3a-travel")
    if step == CREW and (p.colour == NOBODY or s.rebels[seat].unused < 1):
        refuse(
            "pending.hex_type",
            "a crew placement needs a hex type and an unused crew",
            "cytress/meet-a-faction",
        )
    if step == SPY and (p.hex == NOBODY or s.crew[p.hex] != seat):
        refuse("pending.crew_hex", "spying follows a crew just placed by the seat", "cytress/meet-a-faction")
    if step in (HEIGHT, TUBE):
        _check_tube_pending(c, s)
    if step == BENEFIT and (p.card == NOBODY or s.rebels[seat].bounties[-1:] != (p.card,)):
        refuse("pending.card", "the benefit is the bounty just taken", "cytress/meet-the-enforcers")
    if step == AMOUNT and (p.trade == NOBODY or player.resources[p.trade // 4] < 1):
        refuse(
            "pending.trade",
            "a trade amount follows a trade with something to give",
            "cytress/meet-the-merchant",
        )
    if step != AMOUNT and p.trade != NOBODY:
        refuse(
            "pending.trade", "a trade is pending only while choosing its amount", "cytress/meet-the-merchant"
        )
    if (step in _AUTOMA_STEPS) != bool(p.options):
        refuse(
            "pending.options",
            "tie options are pending only for the automa's checklist",
            "cytress/solo-ai-actions",
        )
    if step in _AUTOMA_STEPS:
        _check_automa_choice(s)


def _check_tube_pending(c: Content, s: CytressState) -> None:
    """The choices of a tube drop under way: its resource and height, and the Stratolite met (which
    fixes the hex type and the resource) or the Renegade (no hex type)."""
    p, step, seat = s.pending, s.step, s.actor
    if p.resource == NOBODY or (step == TUBE) != (p.height > 0):
        refuse(
            "pending.resource",
            "a tube drop needs its resource (and, for the hex, its height)",
            "cytress/waste-tubes",
        )
    if p.pad == PAD_STRATOLITES:
        if p.card == NOBODY or (p.card not in s.strat_row and s.players[seat].reserved != p.card):
            refuse(
                "pending.card",
                "the Stratolite met must be on Stratos or reserved",
                "cytress/meet-a-stratolite",
            )
        st = c.stratolites[p.card]
        if (p.colour, p.resource) != (st.hex, st.resource):
            refuse(
                "pending.hex_type",
                "the Stratolite fixes the hex type and the resource",
                "cytress/meet-a-stratolite",
            )
    elif p.colour != NOBODY or p.card != NOBODY:
        refuse(
            "pending.hex_type",
            "the Renegade drops on any hex with your crew",
            "cytress/meet-the-renegade",
        )


def _check_automa_choice(s: CytressState) -> None:
    a = s.automa
    assert a is not None
    head = a.program[0] // 16
    opts = s.pending.options
    if s.step == AUTOMA_TUBE:
        ok = head == OP_NORMAL and all(s.crew[h] == AUTOMA for h in opts)
    elif s.step == AUTOMA_MOVE:
        ok = head in (OP_PLACE, OP_BOUNTY_CREW) and s.rebels[AUTOMA].unused == 0 and a.moving == NOBODY
        ok = ok and all(s.crew[h] == AUTOMA for h in opts)
    else:
        ok = head in (OP_PLACE, OP_BOUNTY_CREW) and s.rebels[AUTOMA].unused >= 1
        ok = ok and all(s.crew[h] == NOBODY and not s.tube[h] and h != a.moving for h in opts)
    if not ok or len(set(opts)) != len(opts):
        refuse(
            "pending.options", "the options do not fit the automa's checklist step", "cytress/solo-ai-actions"
        )
