"""The search defers the collector's full collections while it runs (search/_gc.py)."""

from __future__ import annotations

import gc
import time
import weakref
from collections.abc import Iterator
from typing import Any

import pytest

from games.core import GameConfig
from search import ISMCTS, MCTS, SearchLimit, SearchOptions, analyze
from search._gc import full_collections_deferred
from tests.fixtures.pig import PigGame
from tests.search.games import PeekGame


@pytest.fixture(autouse=True)
def _default_threshold() -> Iterator[tuple[int, int, int]]:
    """Each test starts from the collector's thresholds as they are, and gets them back."""
    before = gc.get_threshold()
    yield before
    gc.set_threshold(*before)


def _oldest_thresholds(search: Any) -> list[int]:
    """The oldest generation's threshold at every progress report of ``search(progress=...)``."""
    seen: list[int] = []
    search(lambda _a: seen.append(gc.get_threshold()[2]))
    assert seen
    return seen


def _opts(**kw: Any) -> SearchOptions:
    return SearchOptions(progress_interval_s=0.0, **kw)


def _during_search(engine: MCTS | ISMCTS, game: Any, seed: int = 1) -> list[int]:
    """:func:`_oldest_thresholds` of a 30-simulation search of ``game``'s start (2 players)."""
    state = game.new_state(GameConfig(players=2), seed)
    return _oldest_thresholds(lambda cb: engine.search(state, limit=SearchLimit(simulations=30), progress=cb))


def test_a_search_defers_full_collections_while_it_runs_and_restores_the_threshold() -> None:
    before = gc.get_threshold()
    game = PigGame()
    assert min(_during_search(MCTS(game, options=_opts()), game)) >= 1 << 30
    assert gc.get_threshold() == before


def test_ismcts_and_parallel_searches_defer_too() -> None:
    before = gc.get_threshold()
    game = PeekGame()
    assert min(_during_search(ISMCTS(game, options=_opts()), game, seed=0)) >= 1 << 30
    pig = PigGame()
    pstate = pig.new_state(GameConfig(players=2), 1)
    seen = _oldest_thresholds(
        lambda cb: analyze(
            pig, pstate, limit=SearchLimit(simulations=40), workers=2, options=_opts(), progress=cb
        )
    )
    assert min(seen) >= 1 << 30
    assert gc.get_threshold() == before


def test_defer_full_gc_false_leaves_the_collector_alone() -> None:
    before = gc.get_threshold()
    game = PigGame()
    assert set(_during_search(MCTS(game, options=_opts(defer_full_gc=False)), game)) == {before[2]}


def test_overlapping_searches_share_the_deferral_and_the_last_one_restores() -> None:
    gc.set_threshold(700, 10, 7)
    with full_collections_deferred():
        assert gc.get_threshold()[2] >= 1 << 30
        with full_collections_deferred():
            pass
        assert gc.get_threshold()[2] >= 1 << 30  # the inner one did not restore
        gc.set_threshold(5000, 10, gc.get_threshold()[2])  # young thresholds changed meanwhile: kept
    assert gc.get_threshold() == (5000, 10, 7)
    gc.disable()
    try:
        with full_collections_deferred():  # the collector is off: nothing to defer
            assert gc.get_threshold()[2] == 7
    finally:
        gc.enable()


def test_a_deferral_lapses_when_searches_keep_overlapping(monkeypatch: pytest.MonkeyPatch) -> None:
    """Overlapping searches without a pause do not defer full collections for ever."""
    import search._gc as sgc

    gc.set_threshold(700, 10, 7)
    with full_collections_deferred():
        monkeypatch.setattr(sgc, "MAX_DEFERRAL_S", 0.0)
        time.sleep(0.01)
        with full_collections_deferred():  # starts after the deferral's time is up: it lapses
            assert gc.get_threshold() == (700, 10, 7)
        assert gc.get_threshold() == (700, 10, 7)
    assert gc.get_threshold() == (700, 10, 7)
    monkeypatch.setattr(sgc, "MAX_DEFERRAL_S", 30.0)
    with full_collections_deferred():  # no search was running in between: a fresh deferral
        assert gc.get_threshold()[2] >= 1 << 30
    assert gc.get_threshold() == (700, 10, 7)


def test_a_child_forked_while_the_lock_is_held_can_still_search() -> None:
    """A worker forked while another thread holds the deferral's lock must not hang on it."""
    import multiprocessing as mp

    import search._gc as sgc

    def child(q: Any) -> None:
        with full_collections_deferred():
            q.put("searched")

    ctx = mp.get_context("fork")
    q = ctx.Queue()
    with sgc._Deferral.lock:
        proc = ctx.Process(target=child, args=(q,), daemon=True)
        proc.start()
    try:
        assert q.get(timeout=10) == "searched"
    finally:
        proc.join(timeout=1)
        if proc.is_alive():
            proc.kill()


def test_an_error_in_the_search_restores_the_threshold() -> None:
    before = gc.get_threshold()
    with pytest.raises(RuntimeError), full_collections_deferred():
        raise RuntimeError("boom")
    assert gc.get_threshold() == before


def test_garbage_cycles_made_during_a_search_are_collected_after_it() -> None:
    class Cycle:
        other: Any = None

    probes: list[weakref.ref[Cycle]] = []

    def make_cycle(_a: Any) -> None:
        a, b = Cycle(), Cycle()
        a.other, b.other = b, a
        probes.append(weakref.ref(a))

    game = PigGame()
    state = game.new_state(GameConfig(players=2), 1)
    MCTS(game, options=_opts()).search(state, limit=SearchLimit(simulations=30), progress=make_cycle)
    assert probes
    gc.collect()
    assert all(p() is None for p in probes)
