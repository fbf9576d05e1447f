"""Hostile requests against a running server: every RPC of ``lictor.v1``, every registered game.

Five generators, each seeded so that a run sends the same requests again:

- **generic** (hypothesis): requests built from the contract's descriptors (so a new RPC is fuzzed
  the day it is added). Each field is left unset, given a value that makes sense (a game's name, a
  legal move's notation, a real position or a seat's view of one, an existing match, a content
  pack) or a hostile one (NaN, infinities, huge and negative numbers, undefined enum numbers, long
  and odd strings, deep or broken JSON, a real state with one field replaced).
- **content packs**: every string field named ``content_pack`` (top level or in a ``Position``)
  gets the packs of a content root made by :func:`make_content_root` (valid copies of the reference
  packs; a pack without pack.json, with a file nested 50,000 deep, with a 20 MB file, with a file or
  the directory a symlink to outside the root, an empty one...) or a hostile name (NUL, 256 to
  5,000 characters, ``..``, absolute paths, 200 parts, unicode, ``.``, a trailing slash).
- **views**: a seat's or the spectator's view of a real state (``observation(state, viewer)`` of
  random mid-game states, as ``state_json``) through every call that reads a position.
- **hosted views**: the same, fetched from hosted matches (GetMatch with ``viewer_seat``) while
  AI seats move (AI-only matches, and a human seat played through its own view).
- **solves**: Solve of every registered puzzle kind on real positions of its game, parameters drawn
  from the kind's params schema (GetSchema), time limits 0.3 to 3 s and client deadlines a little
  longer, from 6 threads at once.

A reply is *acceptable* when its status is OK or one the error table gives to the caller's mistake.
*Bad* are INTERNAL, UNKNOWN (a bug), DEADLINE_EXCEEDED or an answer after the client's deadline (a
hang; a watch that has nothing to say before the deadline is no hang), UNAVAILABLE (the server went
away), DATA_LOSS, ``PATH_LEAK`` (any reply, its details, its rich status or its message, that shows
a server path the request did not hold: the content root, ``/work/``, the home directory, a Python
installation, a traceback) and ``PACK_ACCEPTED`` (an OK with a content pack that must be refused:
broken, over a cap, or reached through a symlink or a path out of the root). Used by
tests/service/test_fuzz.py (make test: a slice of 2,000) and bench/service.py (make bench: 50,000).
``LICTOR_FUZZ_SEED`` replays another seed.

One module per concern: :mod:`~service.fuzz.rpcs` (the RPCs and the statuses no answer may get),
:mod:`~service.fuzz.packs` (the content root), :mod:`~service.fuzz.corpus` (what makes sense to
send), :mod:`~service.fuzz.mutations` (the generic requests), :mod:`~service.fuzz.targeted` (the
views, packs and solves requests), :mod:`~service.fuzz.checks` (what no answer may do),
:mod:`~service.fuzz.sending` (sending and counting), :mod:`~service.fuzz.hosted` (hosted matches)
and :mod:`~service.fuzz.phases` (a run's plan).
"""

from __future__ import annotations

from service.fuzz.checks import Oracle, leaked_marker, make_oracle
from service.fuzz.corpus import Corpus, corpus
from service.fuzz.hosted import create_matches
from service.fuzz.mutations import request
from service.fuzz.packs import Packs, make_content_root
from service.fuzz.phases import Plan, env_seed, load_schemas, run_plan
from service.fuzz.rpcs import BAD_STATUSES, Method, methods
from service.fuzz.sending import FuzzResult, Reply, send

__all__ = [
    "BAD_STATUSES",
    "Corpus",
    "FuzzResult",
    "Method",
    "Oracle",
    "Packs",
    "Plan",
    "Reply",
    "corpus",
    "create_matches",
    "env_seed",
    "leaked_marker",
    "load_schemas",
    "make_content_root",
    "make_oracle",
    "methods",
    "request",
    "run_plan",
    "send",
]
