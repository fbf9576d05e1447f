"""The position caches of ``service.convert``: by request bytes, by record, and start states."""

from __future__ import annotations

from lictor.v1 import position_pb2 as pos_pb
from service import convert
from tests.service.helpers import record


def test_same_bytes_same_resolved_position():
    pos = record("pig", seed=4101)
    first = convert.resolve_position(pos)
    again = convert.resolve_position(pos_pb.Position.FromString(pos.SerializeToString()))
    assert again is first  # read once, shared (states are immutable)
    other_root = convert.resolve_position(pos, content_root="/nonexistent-root")
    assert other_root is not first and other_root.state == first.state


def test_a_new_record_of_a_known_setup_skips_new_state(monkeypatch):
    start = convert.resolve_position(record("pig", seed=4102))
    game = start.game
    first = game.legal_actions(start.state)[0]
    text = game.action_to_text(start.state, first)
    calls = []
    real = convert.new_game

    def counting(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(convert, "new_game", counting)
    moved = convert.resolve_position(record("pig", seed=4102, actions=(text,)))
    assert calls == []  # the start state came from the cache
    assert moved.state == game.apply(start.state, first) and moved.move_number == 1
    convert.resolve_position(record("pig", seed=4103))
    assert len(calls) == 1  # an unseen setup is set up


def test_large_positions_are_not_keyed_by_their_bytes():
    small = record("pig", seed=4104)
    assert convert.position_key(small) == small.SerializeToString(deterministic=True)
    big = record("pig", seed=4104, actions=("x" * (convert.MAX_KEYED_POSITION_BYTES + 1),))
    assert convert.position_key(big) is None


def test_keep_false_reads_without_keeping_the_position():
    """Score keeps its answers by the position's bytes, so it reads a new position without keeping it
    as well; its start state is still kept by setup, and a kept position is still found."""
    pos = record("pig", seed=4105)
    first = convert.resolve_position(pos, keep=False)
    second = convert.resolve_position(pos, keep=False)
    assert second is not first and second.state is first.state  # the start state, kept by setup
    kept = convert.resolve_position(pos)
    assert convert.resolve_position(pos, keep=False) is kept
