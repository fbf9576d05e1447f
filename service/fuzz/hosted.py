"""Hosted matches under fuzz: one per game for the requests to name, and the views fetched from matches
while AI seats move (:func:`hosted_views`)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

import grpc

from games.core import get_game
from lictor.v1 import match_service_pb2
from service.fuzz.checks import NO_ORACLE, Oracle
from service.fuzz.corpus import Corpus
from service.fuzz.rpcs import Method, by_name, deadline_of, methods, reads_a_position
from service.fuzz.sending import FuzzResult, send
from service.fuzz.targeted import read_request


def create_matches(target: str, c: Corpus) -> None:
    """One hosted match per game (a human seat, AI seats at level 1) for the fuzz to name."""
    ms = by_name(methods())
    channel = grpc.insecure_channel(target)
    try:
        for name in c.games:
            reply = _call(channel, ms["CreateMatch"], _create_request(name, human=True))
            if reply is not None:
                c.match_ids.append(reply.match.match_id)
    finally:
        channel.close()


def _players(name: str) -> int:
    info = get_game(name).info
    return min(info.max_players, max(info.min_players, 2))


def _create_request(name: str, *, human: bool) -> Any:
    ai = match_service_pb2.Seat(kind=match_service_pb2.SEAT_KIND_AI, level=1)
    seats = [ai] * _players(name)
    if human:
        seats[0] = match_service_pb2.Seat(kind=match_service_pb2.SEAT_KIND_HUMAN)
    return match_service_pb2.CreateMatchRequest(game=name, seats=seats, issue_seat_secrets=False)


def _call(channel: grpc.Channel, method: Method, msg: Any, timeout: float = 30.0) -> Any:
    try:
        return channel.unary_unary(
            method.path,
            request_serializer=type(msg).SerializeToString,
            response_deserializer=method.response.FromString,
        )(msg, timeout=timeout)
    except grpc.RpcError:
        return None


def hosted_views(
    target: str,
    c: Corpus,
    result: FuzzResult,
    *,
    rounds: int,
    reads: int,
    seed: int,
    oracle: Oracle = NO_ORACLE,
) -> None:
    """Views fetched from hosted matches while AI seats move, read by ``reads`` read RPCs each.

    Per game: an AI-only match (every seat's view) and a human-and-AI match whose human seat is
    played through its own view (GetLegalActions on it, then SubmitAction). Every match is looked
    at ``rounds`` times, all matches in turn (the AI seats move meanwhile); then each is resigned.
    """
    rng = random.Random(seed)
    ms = by_name(methods())
    readers = [m for m in methods() if reads_a_position(m)]
    channel = grpc.insecure_channel(target)

    def sent(method: Method, msg: Any) -> Any:
        reply = send(channel, method, msg, result, timeout=deadline_of(method), oracle=oracle, phase="hosted")
        ok = reply.status == "OK" and reply.answers and not method.streaming
        return method.response.FromString(reply.answers[0]) if ok else None

    def look(match_id: str, seat: int, plays: bool) -> None:
        got = sent(ms["GetMatch"], match_service_pb2.GetMatchRequest(match_id=match_id, viewer_seat=seat))
        if got is None or not got.match.position.state_json:
            return
        position, moves = got.match.position, []
        legal = sent(ms["GetLegalActions"], ms["GetLegalActions"].request(position=position))
        if legal is not None:
            moves = [a.text for a in legal.actions]
        for method in rng.sample(readers, min(reads, len(readers))):
            sent(method, read_request(method, position, c, rng, viewer=seat, actions=moves))
        summary = got.match.summary
        if plays and moves and summary.HasField("current_player") and summary.current_player == seat:
            submit = match_service_pb2.SubmitActionRequest(
                match_id=match_id, seat=seat, expected_move_number=got.match.move_number
            )
            submit.action.text = rng.choice(moves)
            sent(ms["SubmitAction"], submit)

    matches: list[tuple[str, list[int], bool]] = []  # (match, viewers, whether seat 0 is ours to play)
    try:
        _open_matches(c.games, lambda msg: sent(ms["CreateMatch"], msg), matches)
        for _ in range(rounds):
            for match_id, viewers, human in matches:
                for seat in viewers:
                    look(match_id, seat, human)
            time.sleep(0.05)
    finally:
        for match_id, _, _ in matches:
            _call(channel, ms["ResignMatch"], match_service_pb2.ResignMatchRequest(match_id=match_id, seat=0))
        channel.close()


def _open_matches(
    games: Sequence[str], create: Callable[[Any], Any], matches: list[tuple[str, list[int], bool]]
) -> None:
    """Per game, an AI-only match (every seat looked at) and a human-and-AI one (seat 0 played
    through its view), each added to ``matches`` once made: (match, viewers, whether seat 0 plays)."""
    for name in games:
        for human in (False, True):
            made = create(_create_request(name, human=human))
            if made is not None:
                viewers = [0] if human else list(range(_players(name)))
                matches.append((made.match.match_id, viewers, human))
