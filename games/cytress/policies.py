"""Rule-based players Cytress ships: ``"automa"`` (the official automa's decisions, for a seat of any
game) and ``"greedy"`` (one ply on the heuristic).

The automa policy plays a regular seat (with resources and transports) the way the solo automa
decides (rule: cytress/solo-ai-actions), choosing among that seat's legal actions:

- each travel turn it draws a faction and a reveal (1-3) at random, as its AI action deck and
  tracker would: reveal 1 takes an intel card; 2 drops a waste tube if the tube checklist finds a hex
  it can pay for, else takes an intel card; 3 first goes for a bounty of that faction it lacks, then
  as 2. Taking intel meets the drawn faction (else any faction it can meet);
- when it can meet no faction (no card left, or no empty hex of a payable faction's colour for its
  crew) it drops a waste tube wherever it can (the checklist's hex first, else the hex where it has
  the most crews around, fewest rivals' next), and only when it cannot the fixer. The solo automa
  never meets this (its game ends after round 5); a seat that never drops a tube would stall a 2-5
  player game, which ends only when the allocated tube sections run out (rule:
  cytress/game-end-trigger);
- intel: the card-choice priority (the first card whose target helps a set of 4, else the top);
- crews: the crew placement checklist among the legal hexes; tubes: the tube checklist and height
  rule (capped at what it can pay); it never spies ("AI crew do not spy") and never trades;
- scouting: a district drawn at random, its largest open spot; rebel side A; fixer: keeps its
  reservation; a bounty's benefit: the ascent if the automa's ascent rule allows it, else a crew.
- the automa's own ties in a solo game ("you choose"): the first option.

``greedy`` plays the legal action whose result has the best ``heuristic`` for the mover, on one
determinization of its observation (ties at random).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from games.cytress import automa
from games.cytress.board import act, adjacent_counts
from games.cytress.state import (
    BENEFIT,
    BOUNTY,
    CHOOSE_SIDE,
    CREW,
    FIXER_INTEL,
    FIXER_RESERVE,
    HEIGHT,
    INTEL,
    PAD,
    PAD_ENFORCERS,
    PAD_FIXER,
    PAD_MERCHANT,
    PAD_RENEGADE,
    PAD_STRATOLITES,
    PAYMENT,
    SCOUT_SPOT,
    SPY,
    STRATOLITE,
    TRADE,
    TUBE,
    CAction,
    CytressState,
)
from games.cytress.tubes import stratolites_open
from games.cytress.undercity import BENEFIT_ASCEND_1, BENEFIT_CREW
from games.cytress.work import Work

if TYPE_CHECKING:
    from games.cytress.game import CytressGame

__all__ = ["automa_policy", "greedy_policy", "policies", "prior_pick"]

Policy = Callable[[CytressState, random.Random], CAction]


def policies(game: CytressGame) -> Mapping[str, Policy]:
    """The engines by name."""
    return {
        "automa": lambda s, rng: automa_policy(game, s, rng),
        "greedy": lambda s, rng: greedy_policy(game, s, rng),
    }


def greedy_policy(game: CytressGame, state: CytressState, rng: random.Random) -> CAction:
    """The legal action with the best one-ply heuristic for the mover (ties at random)."""
    seat = state.actor
    det = game.sample_state(game.observation(state, seat), seat, rng)
    best: list[CAction] = []
    best_v = -1.0
    for a in game.legal_actions(det):
        v = game.heuristic(game.apply_trusted(det, a))[seat]
        if v > best_v + 1e-12:
            best_v, best = v, [a]
        elif v >= best_v - 1e-12:
            best.append(a)
    return best[rng.randrange(len(best))]


def automa_policy(game: CytressGame, state: CytressState, rng: random.Random) -> CAction:
    """The automa's decision for the seat to move (see the module docstring)."""
    legal = list(game.legal_actions(state))
    if len(legal) == 1:
        return legal[0]
    decide = _DECIDE.get(state.step)
    pick = decide(game, state, legal, rng) if decide is not None else None
    return pick if pick is not None and pick in legal else legal[0]


def prior_pick(game: CytressGame, state: CytressState, rng: random.Random) -> CAction:
    """The search's PUCT favourite (``CytressGame.prior``): the automa policy's choice, except that
    the seat spies on the rival whose crews next to the new one pay it the most. The official automa
    never spies ("AI crew do not spy", rule: cytress/solo-ai-actions), but for a seat spying is free
    resources (rule: cytress/meet-a-faction): with the automa's "do not spy" as the favourite the
    search, short of simulations to tell the two apart, mostly declined (issue 28: against two
    greedy seats 53.3% over 60 games, 79.0% over 100 with this favourite)."""
    if state.step == SPY:
        legal = game.legal_actions(state)
        spies = [a for a in legal if a.kind == "spy"]
        if spies:
            near, crew = state.map.layout.adjacent[state.pending.hex], state.crew
            return max(spies, key=lambda a: (sum(1 for h in near if crew[h] == a.arg), -a.arg))
    return automa_policy(game, state, rng)


Decide = Callable[["CytressGame", CytressState, list[CAction], random.Random], CAction | None]


def _kind(kind: str) -> Decide:
    """Pick the legal action of ``kind`` (never spy, keep the reservation, no trade)."""
    return lambda game, state, legal, rng: next((a for a in legal if a.kind == kind), None)


def _scout(game: CytressGame, state: CytressState, legal: list[CAction], rng: random.Random) -> CAction:
    by_faction: dict[int, CAction] = {}
    for a in legal:
        by_faction.setdefault(a.arg // 2, a)  # the larger spot comes first
    return by_faction[rng.choice(sorted(by_faction))]


def _crew(game: CytressGame, state: CytressState, legal: list[CAction], rng: random.Random) -> CAction:
    w = Work.of(state)
    hexes = automa.crew_candidates(w, state.pending.colour, me=state.actor, allowed=[a.arg for a in legal])
    return act("crew", hexes[0])


def _payment(game: CytressGame, state: CytressState, legal: list[CAction], rng: random.Random) -> CAction:
    seat = state.actor
    return max(legal, key=lambda a: (state.players[seat].resources[a.arg], -a.arg))


def _height(game: CytressGame, state: CytressState, legal: list[CAction], rng: random.Random) -> CAction:
    wanted = automa.tube_height(Work.of(state), me=state.actor)
    return max(legal, key=lambda a: (a.arg <= wanted, a.arg if a.arg <= wanted else -a.arg))


def _tube(game: CytressGame, state: CytressState, legal: list[CAction], rng: random.Random) -> CAction:
    """The tube checklist's hex; none legal: the hex with the most of the seat's crews around it,
    then the fewest of the strongest rival's."""
    seat = state.actor
    options = set(automa.tube_candidates(Work.of(state), me=seat)) & {a.arg for a in legal}
    if options:
        return act("tube", min(options))
    adjacent, crew = state.map.layout.adjacent, state.crew

    def around(a: CAction) -> tuple[int, int]:
        counts = adjacent_counts(adjacent[a.arg], crew, state.owners)
        return counts[seat], -max((c for o, c in enumerate(counts) if o != seat), default=0)

    return max(legal, key=around)


def _bounty(game: CytressGame, state: CytressState, legal: list[CAction], rng: random.Random) -> CAction:
    held = {game.pack.bounties[b].faction for b in state.rebels[state.actor].bounties}
    fresh = [a for a in legal if game.pack.bounties[a.arg].faction not in held]
    return (fresh or legal)[0]


def _benefit(
    game: CytressGame, state: CytressState, legal: list[CAction], rng: random.Random
) -> CAction | None:
    up = automa.bounty_ascend_level(Work.of(state), me=state.actor)
    choices = {a.arg for a in legal}
    if up and BENEFIT_ASCEND_1 + up - 1 in choices:
        return act("benefit", BENEFIT_ASCEND_1 + up - 1)
    if BENEFIT_CREW in choices:
        return act("benefit", BENEFIT_CREW)
    return None


def _pad(game: CytressGame, w: Work, seat: int, legal: list[CAction], rng: random.Random) -> CAction:
    """The automa's cascade for one travel turn, on the seat's legal landing pads."""
    pads = {a.arg for a in legal}
    faction = rng.randrange(4)
    reveal = rng.randrange(1, 4)
    held = {game.pack.bounties[b].faction for b in w.rebels[seat].bounties}
    if (
        reveal == 3
        and PAD_ENFORCERS in pads
        and any(stack and game.pack.bounties[stack[0]].faction not in held for stack in w.bounty_stack)
    ):
        return act("pad", PAD_ENFORCERS)
    if reveal >= 2 and automa.tube_candidates(w, me=seat):
        if PAD_STRATOLITES in pads and _stratolite_hexes(game, w, seat):
            return act("pad", PAD_STRATOLITES)
        if PAD_RENEGADE in pads:
            return act("pad", PAD_RENEGADE)
    if faction in pads:
        return act("pad", faction)
    others = [f for f in range(4) if f in pads]
    if others:
        return act("pad", rng.choice(others))
    # no faction to meet: a waste tube anywhere it can (progress toward the game's end)
    listed = automa.tube_candidates(w, me=seat)
    if PAD_STRATOLITES in pads and (not listed or _stratolite_hexes(game, w, seat)):
        return act("pad", PAD_STRATOLITES)
    if PAD_RENEGADE in pads:
        return act("pad", PAD_RENEGADE)
    return act("pad", PAD_FIXER if PAD_FIXER in pads else PAD_MERCHANT)


def _stratolite_hexes(game: CytressGame, w: Work, seat: int) -> list[int]:
    """Checklist hexes a Stratolite the seat can use drops on."""
    good = set(automa.tube_candidates(w, me=seat))
    out = []
    for card in stratolites_open(game.pack, w, seat):
        colour = game.pack.stratolites[card].hex
        out += [h for h in good if w.map.faction[h] == colour]
    return out


def _stratolite(game: CytressGame, w: Work, seat: int, legal: list[CAction]) -> CAction:
    good = set(automa.tube_candidates(w, me=seat))
    for a in legal:
        colour = game.pack.stratolites[a.arg].hex
        if any(w.map.faction[h] == colour for h in good):
            return a
    return legal[0]


def _intel(game: CytressGame, state: CytressState, seat: int, legal: list[CAction]) -> CAction:
    """rule: cytress/solo-ai-actions - the first card (top first) whose target helps a set of the 4
    faction targets, else the topmost."""
    targets = [0, 0, 0, 0]
    for path in state.players[seat].lifepaths:
        for c in path:
            targets[game.pack.intel[c].target] += 1
    low = min(targets)
    for a in legal:
        if targets[game.pack.intel[a.arg].target] == low:
            return a
    return legal[0]


_DECIDE: dict[int, Decide] = {
    CHOOSE_SIDE: lambda game, state, legal, rng: act("side", 0),
    SCOUT_SPOT: _scout,
    PAD: lambda game, state, legal, rng: _pad(game, Work.of(state), state.actor, legal, rng),
    INTEL: lambda game, state, legal, rng: _intel(game, state, state.actor, legal),
    FIXER_INTEL: lambda game, state, legal, rng: _intel(game, state, state.actor, legal),
    CREW: _crew,
    SPY: _kind("nospy"),
    STRATOLITE: lambda game, state, legal, rng: _stratolite(game, Work.of(state), state.actor, legal),
    PAYMENT: _payment,
    HEIGHT: _height,
    TUBE: _tube,
    BOUNTY: _bounty,
    BENEFIT: _benefit,
    FIXER_RESERVE: _kind("keep"),
    TRADE: _kind("done"),
}
"""The automa policy's choice at each step (None: the first legal action)."""
