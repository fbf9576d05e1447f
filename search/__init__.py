"""Search: MCTS and ISMCTS that play any Lictor game through the Game protocol.

The search knows nothing of any particular game. Entry points:

- :func:`analyze` — analyse a position: ranked :class:`Candidate` moves (visits, value per seat,
  prior, lower confidence bound, principal variation), root values, simulations, time, seed.
  Hidden-information games are searched with :class:`ISMCTS` from the mover's observation only.
- :class:`MCTS` / :class:`ISMCTS` — the engines (MCTS keeps its tree between moves: ``advance``).
- :class:`SearchLimit` (simulations, wall time, absolute deadline) and :class:`SearchOptions`.
- :func:`choose_action` — an AI seat's move at a strength level 1–10 (:func:`level`, :data:`LEVELS`);
  :func:`pick_move` — a move from an analysis at a temperature.
- Bots: :class:`RandomBot`, :class:`GreedyBot`, :class:`SearchBot`.
- :func:`full_collections_deferred` — the context manager a search runs in to keep CPython's full
  garbage collections off its clock (``SearchOptions.defer_full_gc``), for code with the same need.

Every action the search takes from ``legal_actions`` or a chance draw is applied with
``game.apply_trusted`` (the game's fast path, no legality re-check); an action given from outside
(``MCTS.advance``) goes through the checked ``apply``.
"""

from games.core import compiled as _compiled

COMPILED = ("_loop", "tree", "ismcts", "mcts")
"""The modules compiled by ``make fast`` (docs/compiled.md): what runs at every simulation, the budget
loop, the shared walk (``tree``) and the two engines' steps. The rest stays Python: the entry points
(``api``), the bots, root parallelism, the analysis records (``types``, ``_stats``) and the
collector's and the janitor's helpers run once a search, not once a simulation."""

_compiled.activate(__name__, __path__, COMPILED, package_file=__file__)

from search._gc import full_collections_deferred  # noqa: E402
from search.api import LEVELS, Level, analyze, choose_action, level, pick_move  # noqa: E402
from search.bots import Bot, GreedyBot, RandomBot, SearchBot  # noqa: E402
from search.ismcts import ISMCTS  # noqa: E402
from search.mcts import MCTS  # noqa: E402
from search.types import Analysis, Candidate, ProgressCallback, SearchLimit, SearchOptions, StopFlag  # noqa: E402

__all__ = [
    "COMPILED",
    "ISMCTS",
    "LEVELS",
    "MCTS",
    "Analysis",
    "Bot",
    "Candidate",
    "GreedyBot",
    "Level",
    "ProgressCallback",
    "RandomBot",
    "SearchBot",
    "SearchLimit",
    "SearchOptions",
    "StopFlag",
    "analyze",
    "choose_action",
    "full_collections_deferred",
    "level",
    "pick_move",
]
