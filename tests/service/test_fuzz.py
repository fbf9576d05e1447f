"""Hostile requests against a real server (issues 16 and 27): a slice of 2,000 of the 50,000 that
``make bench`` sends (bench/service.py), from every generator of the service/fuzz package: generic requests
over every RPC, content packs (a content root of broken, escaping and oversized packs, and hostile
names), seats' and the spectator's views (local and fetched from hosted matches) through every read
RPC, and Solves of every puzzle kind from 6 threads at once on 2 search slots. No reply may be
INTERNAL, UNKNOWN, DATA_LOSS, UNAVAILABLE, a hang (DEADLINE_EXCEEDED or an answer after the
client's deadline), show a server path, or take a content pack that must be refused.
``LICTOR_FUZZ_SEED`` replays another seed."""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field

import pytest

from games.core import game_names
from lictor.v1.game_service_pb2 import GetContentRequest
from service.fuzz import (
    Corpus,
    FuzzResult,
    Oracle,
    Plan,
    corpus,
    create_matches,
    env_seed,
    leaked_marker,
    load_schemas,
    make_content_root,
    make_oracle,
    methods,
    run_plan,
)
from service.limits import Limits
from service.server import create_server

SEED = env_seed(3)
PHASES = ("generic", "packs", "views", "hosted", "solves")
PLAN = Plan(generic=1_150, packs=340, views=400, hosted_rounds=2, hosted_reads=3, solves=60)
TOTAL = 2_000
LIMITS = Limits(max_concurrent_searches=2, ai_workers=1, default_search_s=0.05, max_search_s=5.0)


@dataclass
class Fuzz:
    target: str
    c: Corpus
    oracle: Oracle
    result: FuzzResult = field(default_factory=FuzzResult)
    ran: set[str] = field(default_factory=set)


@pytest.fixture(scope="module")
def fuzz(tmp_path_factory):
    base = tmp_path_factory.mktemp("fuzz")
    packs = make_content_root(base, game_names())
    srv, port = create_server("127.0.0.1:0", db_path=base / "f.db", limits=LIMITS, content_root=packs.root)
    try:
        target = f"127.0.0.1:{port}"
        c = corpus(seed=SEED, positions_per_game=3, views_per_game=3, packs=packs)
        load_schemas(target, c)
        create_matches(target, c)
        state = Fuzz(target, c, make_oracle(packs))
        yield state
    finally:
        srv.stop(0).wait(10)
        srv.close()
        shutil.rmtree(base, ignore_errors=True)  # (the content root holds 100 MB of oversized packs)
    r = state.result
    print(f"\nfuzz (seed {SEED}): {r.total} requests, by status {dict(r.counts.most_common())}")
    print(f"slowest {r.slowest_s:.2f} s ({r.slowest}); by phase {r.summary()['by_phase']}")
    print(f"seconds by phase {r.summary()['seconds_by_phase']}")


@pytest.mark.parametrize("phase", PHASES)
def test_no_hostile_request_gets_a_bad_reply(fuzz, phase):
    bad_before = fuzz.result.bad_total
    run_plan(fuzz.target, fuzz.c, PLAN, fuzz.result, seed=SEED, oracle=fuzz.oracle, phases=[phase], log=print)
    fuzz.ran.add(phase)
    found = [b for b in fuzz.result.bad if b.startswith(f"[{phase}]")]
    assert fuzz.result.bad_total == bad_before, (
        f"{fuzz.result.bad_total - bad_before} bad replies, {dict(fuzz.result.bad_kinds)}:\n"
        + "\n".join(found)
    )
    assert not fuzz.result.client_errors, fuzz.result.client_errors


def test_the_slice_sends_two_thousand_requests(fuzz):
    if fuzz.ran != set(PHASES):
        pytest.skip("counts the whole slice only")
    assert fuzz.result.total >= TOTAL, fuzz.result.summary()["by_phase"]
    for phase in PHASES:
        assert sum(fuzz.result.by_phase[phase].values()) > 0, phase
    assert set(fuzz.result.by_rpc) == {m.name for m in methods()}


def test_every_rpc_is_fuzzed():
    names = {m.name for m in methods()}
    assert {"ListGames", "ApplyAction", "Hint", "Solve", "CreateMatch", "WatchMatch", "Echo"} <= names


def test_the_oracle_sees_a_path_and_a_pack_taken(tmp_path):
    """The fuzz's own checks: a reply naming the content root is a leak unless the request named
    it; an OK with a symlinked pack is a pack taken."""
    packs = make_content_root(tmp_path, game_names()[:1], big_mb=1)
    oracle = make_oracle(packs)
    game = game_names()[0]
    asked = GetContentRequest(game=game, content_pack=f"symfile-{game}")
    shown = f"cannot read {packs.root}/symfile-{game}/pack.json".encode()
    assert leaked_marker(oracle.markers, asked, [shown])
    assert not leaked_marker(oracle.markers, GetContentRequest(content_pack=str(packs.root)), [shown])
    assert (game, f"symfile-{game}") in oracle.refused_packs
    assert (game, f"symdir-{game}") in oracle.refused_packs
    assert (game, game) not in oracle.refused_packs
