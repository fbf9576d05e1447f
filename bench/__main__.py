"""``make bench``: run every benchmark of bench/ in turn and print its numbers.

Each benchmark is a module ``bench/<name>.py`` with a ``main()``; it prints its claims as ratios
against a baseline measured in the same run. Run one alone with ``python -m bench.<name>``.
Pass names to run only those: ``python -m bench tiberpunk_engine service``.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

ORDER = ("tiberpunk_engine", "search_vs_openspiel", "fitted", "tiberius_solver", "service")


def main(argv: list[str]) -> int:
    here = Path(__file__).parent
    present = [p.stem for p in sorted(here.glob("*.py")) if not p.stem.startswith("_")]
    names = argv or [n for n in ORDER if n in present] + [n for n in present if n not in ORDER]
    failed = []
    for name in names:
        print(f"\n=== bench/{name}.py ===", flush=True)
        start = time.monotonic()
        rc = subprocess.call([sys.executable, "-m", f"bench.{name}"])
        print(f"--- {name}: exit {rc} in {time.monotonic() - start:.0f} s", flush=True)
        if rc:
            failed.append(name)
    if failed:
        print(f"failed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
