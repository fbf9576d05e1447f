"""Hints a person can trust (issue 30): the checks of the hint's reasons and its agreement with the
exact solvers, measured in one run.

Prints, per game:

1. over 10 positions (a seat choosing among two or more moves, from random playouts, 3 seats): on
   how many #1 and #2 differ in a game fact (what they lead to, or a fact about the move itself),
   and on how many #1 does not look worse than #2 on the number shown first (target: >= 8 of 10
   and 10 of 10);
2. where an exact solver answers the hint's question (Tiberius: the card-phase action with the most
   VP at the end of the turn, ``tiberius.best_bid``; Tiberpunk: the gadget play with the best
   quest success odds, ``tiberpunk.quest_odds``; TI4: the tile placement with the largest home
   value lead over the best rival after it, ``solver.ti4.advice``; Cytress: the hex for a crew or a
   waste tube with the largest final PRESTIGE margin, ``solver.cytress.hint_advice``; CyberVerse: an
   Agent's move with the best activation plan after it, ``solver.cyberverse.hint_advice``), over >= 200
   positions: how often the hint's #1 is the solver's best (equal exact value), against the
   baseline of the search's own #1 at the same budget (Wilson 95% intervals).

``python -m bench.hints [--quick] [--game NAME]``; results in ``bench/results/hints.json``.
"""

from __future__ import annotations

import json
import random
import sys
import threading
import time
from pathlib import Path
from typing import Any

from bench._stats import wilson
from games.core import CHANCE, TERMINAL, GameConfig, get_game
from lictor.v1 import advisor_service_pb2 as advisor_pb
from search import SearchLimit
from search.outcomes import hint_order
from service import jobs
from service.advisor import build_hints, differences, varying_labels

RESULTS = Path(__file__).parent / "results" / "hints.json"
GAMES = ("tiberius", "tiberpunk", "ti4", "cytress", "cyberverse")


def _hint(name: str, state: Any, simulations: int) -> tuple[jobs.Hint, advisor_pb.HintResponse]:
    found = jobs.hint(
        game=name,
        pack="",
        state=state,
        limit=SearchLimit(simulations=simulations),
        seed=1,
        top_k=3,
        look_s=2.0,
        stop=threading.Event(),
        progress=None,
    )
    reply = advisor_pb.HintResponse(seat=found.analysis.seat)
    build_hints(reply, found, 3)
    return found, reply


def _playout_positions(name: str, want: Any, count: int, seed: int, players: int = 3) -> list[Any]:
    """``count`` positions where ``want(state)`` holds, met along random playouts."""
    game = get_game(name)
    rng = random.Random(seed)
    found: list[Any] = []
    while len(found) < count:
        state = game.new_state(GameConfig(players=players), rng.randrange(10**6))
        stop_at = rng.randrange(5, 120)
        for step in range(2000):
            player = game.current_player(state)
            if player == TERMINAL:
                break
            if player >= 0 and want(state, step, stop_at):
                found.append(state)
                if len(found) >= count or want is _decision:
                    break
            moves = list(game.legal_actions(state))
            state = game.apply(
                state, game.sample_chance(state, rng) if player == CHANCE else rng.choice(moves)
            )
    return found[:count]


def _decision(state: Any, step: int, stop_at: int) -> bool:
    return step >= stop_at


def reasons_check(name: str, simulations: int) -> dict[str, Any]:
    """[1]: 10 positions: #1/#2 differ in a game fact; #1 never looks worse on the first number."""
    game = get_game(name)
    states = [s for s in _playout_positions(name, _decision, 40, seed=7) if len(game.legal_actions(s)) >= 2][
        :10
    ]
    differ = never_worse = exact = 0
    for state in states:
        found, reply = _hint(name, state, simulations)
        o = {x.action: x for x in found.outcomes}
        a, b = found.order[0], found.order[1]
        facts_differ = a in o and b in o and bool(differences(o[a], o[b]))
        differ += facts_differ or bool(varying_labels([found.facts[0], found.facts[1]]))
        never_worse += reply.hints[0].reasons[0].value >= reply.hints[1].reasons[0].value
        exact += bool(reply.exact)
    n = len(states)
    print(
        f"[1] {name}: #1 and #2 differ in a game fact on {differ}/{n} positions (target >= 8); "
        f"#1 never looks worse on the first number on {never_worse}/{n}; ranked by an exact solver on {exact}"
    )
    return {"positions": n, "differ": differ, "never_worse": never_worse, "exact": exact}


def _card_phase(state: Any, step: int, stop_at: int) -> bool:
    from games.tiberius.model import CARD

    return bool(state.phase == CARD) and step >= stop_at


def _quest_gadget(state: Any, step: int, stop_at: int) -> bool:
    from games.tiberpunk.state import PH_QGADGET

    return bool(state.phase == PH_QGADGET)


def _placement(state: Any, step: int, stop_at: int) -> bool:
    """One tile placement per playout (3 seats: factions and colours take steps 0-5, the 24
    placements steps 6-29)."""
    from games.ti4.state import PLACE, RED

    return state.phase in (PLACE, RED) and step == 6 + stop_at % 24


def _crew_or_tube(state: Any, step: int, stop_at: int) -> bool:
    """A seat choosing among two or more hexes for its crew or its waste tube, every fifth step from
    ``stop_at`` on (so one playout gives positions from several rounds)."""
    from games.cytress.state import CREW, TUBE

    return (
        state.step in (CREW, TUBE)
        and step >= stop_at
        and step % 5 == stop_at % 5
        and len(get_game("cytress").legal_actions(state)) >= 2
    )


def _agent_move(state: Any, step: int, stop_at: int) -> bool:
    """An Agent's move in the Activation phase (``solver.cyberverse.hint_advice``), every fifth step
    from ``stop_at`` on (so one playout gives positions from several turns)."""
    from games.cyberverse.state import ACTIVATION, D_MOVE

    return state.phase == ACTIVATION and state.step == D_MOVE and step >= stop_at and step % 5 == stop_at % 5


WANTED = {
    "tiberius": _card_phase,
    "tiberpunk": _quest_gadget,
    "ti4": _placement,
    "cytress": _crew_or_tube,
    "cyberverse": _agent_move,
}
"""Per game, the positions its exact solver answers."""


def agreement(name: str, count: int, simulations: int) -> dict[str, Any]:
    """[2]: the hint's #1 against the exact solver's best, and the search's own #1 as the baseline,
    over ``count`` positions where the solver answers (a position it does not take, e.g. a hand of
    more gadget cards than its enumeration, is left to the search and counted apart)."""
    want = WANTED[name]
    agree = search_agree = asked = skipped = 0
    start = time.monotonic()
    batch = 0
    while asked < count:
        batch += 1
        for state in _playout_positions(name, want, count - asked, seed=11 * batch):
            found, _reply = _hint(name, state, simulations)
            advice = found.advice
            if advice is None or not advice.decides:
                skipped += 1
                continue
            asked += 1
            best = advice.values[advice.best]
            agree += advice.values.get(found.order[0], -1.0) == best
            own = hint_order(found.analysis)[0].text
            search_agree += advice.values.get(own, -1.0) == best
    rate, base = agree / asked, search_agree / asked
    lo, hi = wilson(agree, asked)
    blo, bhi = wilson(search_agree, asked)
    print(
        f"[2] {name}: the hint's #1 is the exact solver's best on {agree}/{asked} positions = {rate:.1%} "
        f"[{lo:.1%}, {hi:.1%}]; the search alone at {simulations} simulations: {search_agree}/{asked} = "
        f"{base:.1%} [{blo:.1%}, {bhi:.1%}]; {skipped} positions the solver does not take left to the "
        f"search ({time.monotonic() - start:.0f} s)"
    )
    return {
        "positions": asked,
        "agree": agree,
        "rate": rate,
        "search_agree": search_agree,
        "search_rate": base,
        "skipped": skipped,
    }


def main(argv: list[str] | None = None) -> int:
    """``--quick``: 40 positions, nothing written; ``--game NAME`` (repeatable): only those games,
    merged into the results file's other games."""
    args = sys.argv[1:] if argv is None else argv
    quick = "--quick" in args
    chosen = [args[i + 1] for i, a in enumerate(args[:-1]) if a == "--game"]
    unknown = [g for g in chosen if g not in GAMES]
    if unknown:
        print(f"unknown game {unknown[0]!r}; measured: {', '.join(GAMES)}")
        return 2
    count = 40 if quick else 200
    results: dict[str, Any] = json.loads(RESULTS.read_text()) if chosen and RESULTS.exists() else {}
    for name in chosen or GAMES:
        results[name] = {
            "reasons": reasons_check(name, 300),
            "agreement": agreement(name, count, 100 if quick else 200),
        }
    if not quick:
        RESULTS.write_text(json.dumps(results, indent=1) + "\n")
        print(f"wrote {RESULTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
