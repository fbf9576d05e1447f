"""Every game's engine speed, as a ratio to the Pig fixture measured in the same process (issue 32).

Run: ``python -m bench.engines [--seconds 6] [--games tiberpunk,ti4]``. For each registered game and
two player counts: random playouts (``legal_actions`` + ``apply_trusted``, chance by
``sample_chance``) per CPU second of this process, in pure Python (``LICTOR_PURE=1``) and with the
game's compiled build where it has one (docs/compiled.md), each in a child process that also times
Pig, so each ratio compares two numbers taken side by side on a shared machine. Targets (issue 32):
every engine at or above its ratio before the move to the one idiom, >= 0.25x Pig compiled, pure
Python within 2x of compiled. Writes ``bench/results/engines.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

RESULTS = Path(__file__).parent / "results" / "engines.json"
PLAYERS = {"tiberpunk": (2, 4), "tiberius": (3, 6), "cytress": (1, 3), "cyberverse": (2, 4), "ti4": (3, 6)}
OPTIONS = {"cyberverse": {"max_turns": 12}}
"""Random play ends CyberVerse only by its opt-in turn cap (docs/cyberverse.md): the speed of its steps
is what is measured, not how long a game lasts."""

_CHILD = """
import json, random, sys, time
from games.core import CHANCE, TERMINAL, GameConfig, get_game
from games.core.compiled import mode
from tests.fixtures.pig import PigGame

def rate(game, players, options, budget):
    config = GameConfig(players=players, options=options)
    steps, seed = 0, 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < budget:
        state = game.new_state(config, seed)
        rng = random.Random(seed)
        seed += 1
        moves = 0
        while (p := game.current_player(state)) != TERMINAL and moves < 20000:
            a = game.sample_chance(state, rng) if p == CHANCE else rng.choice(game.legal_actions(state))
            state = game.apply_trusted(state, a)
            steps += 1
            moves += 1
    return steps / (time.process_time() - cpu)

name, players, options, budget = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3]), float(sys.argv[4])
game = get_game(name)
pig = rate(PigGame(), 2, {}, budget / 2)
own = rate(game, players, options, budget)
print(json.dumps({"steps_per_s": own, "pig_steps_per_s": pig, "mode": mode(f"games.{name}")}))
"""


def measure(name: str, players: int, seconds: float, *, pure: bool) -> dict[str, object]:
    """One child process: the game's and Pig's steps per CPU second."""
    env = dict(os.environ)
    if pure:
        env["LICTOR_PURE"] = "1"
    args = [sys.executable, "-c", _CHILD, name, str(players), json.dumps(OPTIONS.get(name, {})), str(seconds)]
    out = subprocess.run(args, env=env, capture_output=True, text=True, check=True).stdout
    data: dict[str, object] = json.loads(out.strip().splitlines()[-1])
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=6.0)
    parser.add_argument("--games", default=",".join(PLAYERS))
    args = parser.parse_args(argv)
    rows = []
    print("engine speed: random playouts, steps per CPU second, ratio to Pig in the same process")
    for name in args.games.split(","):
        for players in PLAYERS[name]:
            pure = measure(name, players, args.seconds, pure=True)
            fast = measure(name, players, args.seconds, pure=False)
            r_pure = float(pure["steps_per_s"]) / float(pure["pig_steps_per_s"])  # type: ignore[arg-type]
            r_fast = float(fast["steps_per_s"]) / float(fast["pig_steps_per_s"])  # type: ignore[arg-type]
            rows.append({"game": name, "players": players, "pure": pure, "compiled": fast})
            print(
                f"  {name:<10} {players}p  pure {float(pure['steps_per_s']):>9,.0f}/s = {r_pure:.3f}x Pig"  # type: ignore[arg-type]
                f"   {fast['mode']}: {float(fast['steps_per_s']):>9,.0f}/s = {r_fast:.3f}x Pig"  # type: ignore[arg-type]
                f"   compiled/pure {r_fast / r_pure:.2f}x",
                flush=True,
            )
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
