"""The targeted requests (seeded): well-formed reads of real positions and views, requests naming a
content pack, and Solves with parameters drawn from each puzzle kind's params schema."""

from __future__ import annotations

import json
import math
import random
import re
from collections.abc import Iterator, Sequence
from typing import Any

from games.core import SPECTATOR, get_game
from lictor.v1 import game_service_pb2, position_pb2
from service.fuzz.corpus import Corpus
from service.fuzz.mutations import odd_digits
from service.fuzz.rpcs import Method, Shot, deadline_of, reads_a_position
from solver.core import get_puzzle_spec


def _schema_value(
    name: str, schema: dict[str, Any], rng: random.Random, strings: dict[str, list[str]]
) -> Any:
    """A value for one property of a params schema: mostly in range, sometimes not."""
    if "enum" in schema:
        return rng.choice(schema["enum"])
    kind = schema.get("type", "string")
    if kind == "integer":
        low = int(schema.get("minimum", -2))
        high = int(min(schema.get("maximum", low + 12), low + 10**6))
        return rng.choice([low, high, rng.randint(low, min(high, low + 12)), rng.randint(low, high)])
    if kind == "number":
        return round(rng.uniform(float(schema.get("minimum", 0)), float(schema.get("maximum", 10))), 3)
    if kind == "boolean":
        return rng.random() < 0.5
    if kind == "array":
        items = schema.get("items", {"type": "string"})
        size = rng.randint(int(schema.get("minItems", 0)), min(int(schema.get("maxItems", 4)), 6))
        return [_schema_value(name, items, rng, strings) for _ in range(size)]
    if kind == "object":
        return {}
    pool = strings.get(name) or re.findall(r"'([^']{1,24})'", str(schema.get("description", "")))
    if not pool:
        pool = [v for vs in strings.values() for v in vs[:3]] or ["x"]
    return rng.choice(pool)


def params_from_schema(
    schema: dict[str, Any], rng: random.Random, strings: dict[str, list[str]], *, hostile: bool = True
) -> dict[str, Any]:
    """Parameters for a puzzle kind from its JSON Schema: required properties always, others at
    random; one time in eight one value of the wrong type or an unknown property."""
    props: dict[str, Any] = schema.get("properties", {})
    required = set(schema.get("required", []))
    out = {
        name: _schema_value(name, sub, rng, strings)
        for name, sub in props.items()
        if name in required or rng.random() < 0.4
    }
    if hostile and rng.random() < 0.125:
        key = rng.choice([*props, "unknown_param"])
        good = _schema_value(key, props.get(key, {}), rng, strings)
        out[key] = rng.choice([None, -1, 10**12, "x" * 300, [[]], {"a": {}}, math.inf, "³", odd_digits(good)])
    return out


def _game_strings(c: Corpus, game: str) -> dict[str, list[str]]:
    return c.strings.get(game, {})


def read_request(
    method: Method,
    position: position_pb2.Position,
    c: Corpus,
    rng: random.Random,
    *,
    viewer: int,
    actions: Sequence[str],
) -> Any:
    """A well-formed request of a call that reads a position, on ``position``, with small budgets:
    a move from ``actions``, the viewer who holds the view, a puzzle kind of the game."""
    msg = method.request()
    msg.position.CopyFrom(position)
    fields = msg.DESCRIPTOR.fields_by_name
    if "action" in fields and (actions or c.notations):
        text = rng.choice(list(actions) or c.notations)
        msg.action.text = odd_digits(text) if rng.random() < 0.1 else text
    if "viewer" in fields:
        if rng.random() < 0.85:
            role = (
                game_service_pb2.VIEWER_ROLE_SPECTATOR
                if viewer == SPECTATOR
                else game_service_pb2.VIEWER_ROLE_SEAT
            )
            msg.viewer.role = role
            msg.viewer.seat = max(0, viewer)
        else:
            msg.viewer.role = rng.choice([1, 2, 3])
            msg.viewer.seat = rng.randint(0, 6)
    if "budget" in fields:
        if rng.random() < 0.5:
            msg.budget.simulations = rng.choice([1, 4, 16, 48])
        else:
            msg.budget.time_s = rng.choice([0.05, 0.1, 0.2])
    if "level" in fields:
        msg.level = rng.choice([0, 1, 2])
    if "limits" in fields:
        msg.limits.time_limit_s = rng.choice([0.2, 0.3, 0.5])
    if "generic" in fields:
        kinds = c.kinds_by_game.get(position.game) or c.kinds
        if kinds:
            kind = rng.choice(kinds)
            msg.generic.kind = kind
            params = params_from_schema(c.schemas.get(kind, {}), rng, _game_strings(c, position.game))
            msg.generic.params_json = json.dumps(params)
    for name, choices in (
        ("top_k", (1, 3, 5)),
        ("width", (0, 40, 120)),
        ("format", (0, 1, 1, 1, 2)),
        ("report_every_ms", (20, 50, 100)),
        ("max_candidates", (0, 3)),
        ("resolve_chance", (False, True)),
    ):
        if name in fields:
            setattr(msg, name, rng.choice(choices))
    for name in ("seed", "chance_seed"):
        if name in fields:
            setattr(msg, name, rng.randrange(2**32))
    return msg


def view_shots(c: Corpus, ms: Sequence[Method], count: int, seed: int) -> Iterator[Shot]:
    """``count`` reads of seats' and the spectator's views: every read RPC on every view in turn."""
    rng = random.Random(seed)
    readers = [m for m in ms if reads_a_position(m)]
    if not c.views or not readers:
        return
    order = [(v, m) for v in c.views for m in readers]
    rng.shuffle(order)
    for i in range(count):
        view, method = order[i % len(order)]
        msg = read_request(method, view.position, c, rng, viewer=view.viewer, actions=view.actions)
        yield method, msg, deadline_of(method)


def _pack_paths(method: Method) -> list[str]:
    """Where a request carries a content pack: "content_pack" or "position.content_pack"."""
    fields = method.request.DESCRIPTOR.fields_by_name
    out = ["content_pack"] if "content_pack" in fields else []
    return out + (["position.content_pack"] if reads_a_position(method) else [])


def pack_shots(c: Corpus, ms: Sequence[Method], count: int, seed: int) -> Iterator[Shot]:
    """``count`` requests naming a content pack: every field named ``content_pack``, a pack of the
    content root or a hostile name, on a real game (and a real position of it) or a wrong one."""
    rng = random.Random(seed)
    targets = [(m, p) for m in ms for p in _pack_paths(m)]
    if not targets or not c.pack_names:
        return
    for _ in range(count):
        method, path = rng.choice(targets)
        game = rng.choice(c.games)
        own = c.packs.by_game.get(game, []) if c.packs else []
        name = rng.choice(own) if own and rng.random() < 0.4 else rng.choice(c.pack_names)
        if path == "content_pack":
            msg = method.request()
            msg.content_pack = name
            if "game" in msg.DESCRIPTOR.fields_by_name:
                msg.game = game if rng.random() < 0.9 else rng.choice(c.games)
            if "setup" in msg.DESCRIPTOR.fields_by_name:
                info = get_game(game).info
                msg.setup.players = rng.randint(info.min_players, info.max_players)
                msg.setup.seed = rng.randrange(1000)
        else:
            positions = c.positions_of(game) or [position_pb2.Position(game=game)]
            position = position_pb2.Position()
            position.CopyFrom(rng.choice(positions))
            position.content_pack = name
            msg = read_request(method, position, c, rng, viewer=SPECTATOR, actions=())
        yield method, msg, deadline_of(method)


def solve_shots(c: Corpus, solve: Method, count: int, seed: int) -> Iterator[Shot]:
    """``count`` Solve requests: every puzzle kind in turn, a real position of its game, params from
    its schema, a time limit of 0.3 to 3 s and a client deadline 0.2 to 1 s longer."""
    rng = random.Random(seed)
    kinds = [k for k in c.kinds if c.positions_of(get_puzzle_spec(k).game)]
    if not kinds:
        return
    for i in range(count):
        kind = kinds[i % len(kinds)]
        game = get_puzzle_spec(kind).game
        msg = solve.request()
        known = c.solvable.get(kind)
        msg.position.CopyFrom(rng.choice(known if known and rng.random() < 0.7 else c.positions_of(game)))
        msg.generic.kind = kind
        msg.generic.params_json = json.dumps(
            params_from_schema(c.schemas.get(kind, {}), rng, _game_strings(c, game))
        )
        msg.limits.time_limit_s = round(rng.uniform(0.3, 3.0), 2)
        if rng.random() < 0.3:
            msg.limits.workers = rng.choice([1, 2])
        yield solve, msg, msg.limits.time_limit_s + round(rng.uniform(0.2, 1.0), 2)
