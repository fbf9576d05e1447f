"""The phases of a fuzz run (:class:`Plan`, :func:`run_plan`): the puzzle kinds' schemas and what
Solves take learnt first, then every generator in turn."""

from __future__ import annotations

import json
import os
import random
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import grpc

from service.fuzz.checks import NO_ORACLE, Oracle
from service.fuzz.corpus import Corpus, harvest
from service.fuzz.hosted import hosted_views
from service.fuzz.mutations import generated_shots
from service.fuzz.rpcs import by_name, methods
from service.fuzz.sending import FuzzResult, run, send
from service.fuzz.targeted import pack_shots, params_from_schema, solve_shots, view_shots
from solver.core import get_puzzle_spec


def load_schemas(target: str, c: Corpus) -> None:
    """Each puzzle kind's params schema as GetSchema lists it (the registry's where it fails)."""
    get_schema = by_name(methods())["GetSchema"]
    channel = grpc.insecure_channel(target)
    try:
        call = channel.unary_unary(
            get_schema.path,
            request_serializer=get_schema.request.SerializeToString,
            response_deserializer=get_schema.response.FromString,
        )
        for game in c.games:
            try:
                reply = call(get_schema.request(game=game), timeout=30)
            except grpc.RpcError:
                continue
            for puzzle in reply.puzzles:
                c.schemas[puzzle.kind] = json.loads(puzzle.params_schema_json or "{}")
    finally:
        channel.close()


_PARAM_FIELD = re.compile(r"field generic\.params_json\.([A-Za-z_]+)")
_LISTED = re.compile(r"\[([^\]]{1,2000})\]")


def _learn_from_refusal(strings: dict[str, list[str]], details: str) -> None:
    """The values a refusal lists as legal for a parameter ("attacker must be a recruited Agent
    ['Dasha Volk', 'Doc Halloran'] ... (field generic.params_json.attacker)"), kept under its name."""
    named = _PARAM_FIELD.search(details)
    if named is None:
        return
    for listed in _LISTED.findall(details):
        harvest(strings, {named.group(1): re.findall(r"'([^']{1,40})'", listed)})


def learn_solves(
    target: str, c: Corpus, result: FuzzResult, *, seed: int, tries: int = 8, oracle: Oracle = NO_ORACLE
) -> None:
    """Solve every puzzle kind up to ``tries`` times (until it answers twice), one call at a time,
    with a 0.3 s limit, to learn what it takes: the values refusals list as legal, the strings of
    answers (a map string, a district) and the positions it answers on (``Corpus.solvable``), for
    the concurrent phase's requests."""
    rng = random.Random(seed)
    solve = by_name(methods())["Solve"]
    channel = grpc.insecure_channel(target)
    try:
        for kind in c.kinds:
            game = get_puzzle_spec(kind).game
            schema = c.schemas.get(kind, {})
            strings = c.strings.setdefault(game, {})
            positions = c.positions_of(game)
            for i in range(tries if positions else 0):
                if len(c.solvable.get(kind, [])) >= 2:
                    break
                msg = solve.request(position=positions[(i * 7 + seed) % len(positions)])
                msg.generic.kind = kind
                msg.generic.params_json = json.dumps(params_from_schema(schema, rng, strings, hostile=False))
                msg.limits.time_limit_s = 0.3
                reply = send(channel, solve, msg, result, timeout=1.5, oracle=oracle, phase="solves")
                if reply.status == "OK" and reply.answers:
                    c.solvable.setdefault(kind, []).append(msg.position)
                    harvest(
                        strings, json.loads(solve.response.FromString(reply.answers[0]).answer_json or "{}")
                    )
                elif reply.status == "INVALID_ARGUMENT":
                    _learn_from_refusal(strings, reply.details)
    finally:
        channel.close()


@dataclass(frozen=True)
class Plan:
    """How many requests each generator sends.

    Attributes:
        generic: hypothesis requests over every RPC.
        packs: requests naming a content pack.
        views: reads of local views (every seat's and the spectator's).
        hosted_rounds: looks at each hosted match's views (see :func:`hosted_views`).
        hosted_reads: read RPCs per hosted view.
        solves: concurrent Solve requests.
        learn_tries: Solves of each puzzle kind, one at a time, before them (:func:`learn_solves`).
        clients: client threads of the generic, packs and views phases.
        solve_threads: client threads of the Solve phase.
    """

    generic: int = 0
    packs: int = 0
    views: int = 0
    hosted_rounds: int = 0
    hosted_reads: int = 4
    solves: int = 0
    learn_tries: int = 8
    clients: int = 1
    solve_threads: int = 6

    @classmethod
    def of(cls, total: int, *, clients: int = 1) -> Plan:
        """A plan of about ``total`` requests: a half generic, the rest from the fresh generators
        (a hosted round is about 50 requests a game)."""
        return cls(
            generic=total // 2,
            packs=total // 6,
            views=total // 5,
            hosted_rounds=max(1, total // 5000),
            hosted_reads=4 if total < 10_000 else 11,
            solves=max(30, total // 50),
            clients=clients,
        )


def run_plan(
    target: str,
    c: Corpus,
    plan: Plan,
    result: FuzzResult,
    *,
    seed: int = 0,
    oracle: Oracle = NO_ORACLE,
    phases: Sequence[str] = ("generic", "packs", "views", "hosted", "solves"),
    log: Callable[[str], None] = lambda line: None,
) -> None:
    """Run the phases of ``plan`` against the server at ``target``, counting into ``result``."""
    ms = methods()
    for phase in phases:
        t0, before = time.monotonic(), result.total
        if phase == "hosted":
            hosted_views(
                target,
                c,
                result,
                rounds=plan.hosted_rounds,
                reads=plan.hosted_reads,
                seed=seed,
                oracle=oracle,
            )
        elif phase == "solves":
            learn_solves(target, c, result, seed=seed, tries=plan.learn_tries, oracle=oracle)
            log(f"solves: learnt in {time.monotonic() - t0:.1f} s")
            shots = solve_shots(c, by_name(ms)["Solve"], plan.solves, seed)
            run(target, shots, result, clients=plan.solve_threads, oracle=oracle, phase=phase, back_off=0.1)
        else:
            make = {"generic": generated_shots, "packs": pack_shots, "views": view_shots}[phase]
            count = {"generic": plan.generic, "packs": plan.packs, "views": plan.views}[phase]
            run(target, make(c, ms, count, seed), result, clients=plan.clients, oracle=oracle, phase=phase)
        took = time.monotonic() - t0
        result.seconds_by_phase[phase] = result.seconds_by_phase.get(phase, 0.0) + took
        log(f"{phase}: {result.total - before} requests in {took:.1f} s")


def env_seed(default: int) -> int:
    """The fuzz seed: ``LICTOR_FUZZ_SEED`` when set (to replay another run), else ``default``."""
    return int(os.environ.get("LICTOR_FUZZ_SEED", default))
