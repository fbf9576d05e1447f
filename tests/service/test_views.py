"""One per-viewer rule for every stream and view (issue 27, games.core.views).

- A hosted match's events, as WatchMatch and SubmitAction send them to a spectator or a seat, never
  name what that viewer's own view hides (TI4's secret objective kept was shown to everyone).
- Every view a match shows (GetMatch with ``viewer_seat``) is a position every read RPC takes:
  an answer, or FAILED_PRECONDITION naming the position when the view hides what the seat to move
  decides on — never INTERNAL (TI4 seat 0's view while an AI seat places tiles answered
  ``KeyError: -2``).
"""

from __future__ import annotations

import json
import random
import re
import threading
import time
from collections import Counter
from typing import Any

import grpc
import pytest

from games.core import REFEREE, SPECTATOR, GameConfig, get_game
from games.core.views import seen_by
from lictor.v1 import advisor_service_pb2 as advisor_pb
from lictor.v1 import game_service_pb2 as game_pb
from lictor.v1 import match_service_pb2 as match_pb
from lictor.v1 import position_pb2 as pos_pb
from lictor.v1 import solver_service_pb2 as solver_pb
from service.face import viewer_to_pb
from tests.service.helpers import error_info

HUMAN = match_pb.Seat(kind=match_pb.SEAT_KIND_HUMAN)
BAD = {grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN, grpc.StatusCode.DEADLINE_EXCEEDED}
GAMES = ["cyberverse", "cytress", "ti4", "tiberius", "tiberpunk"]
ENGINE = {"cyberverse": "greedy", "cytress": "automa", "ti4": "greedy", "tiberius": "greedy"}
SEAT_DECISIONS = {"cyberverse": 25, "cytress": 25, "ti4": 99, "tiberius": 25, "tiberpunk": 20}


# ------------------------------------------------------------------------------------ secret names
def _leaves(data: Any, out: Counter[str]) -> Counter[str]:
    if isinstance(data, dict):
        for v in data.values():
            _leaves(v, out)
    elif isinstance(data, list):
        for v in data:
            _leaves(v, out)
    elif isinstance(data, str):
        out[data] += 1
    return out


def secret_words(game: Any, state: Any, viewer: int) -> set[str]:
    """Names and ids of the components in ``state`` that ``viewer``'s view hides: a component id
    the full public form holds more often than the viewer's view of it, unless a component of the
    same name is in view (a second copy) or the name is words of a component in view (tile 39 is
    named "alpha wormhole", a feature of tile 26 too)."""
    if viewer == REFEREE:
        return set()
    full = _leaves(game.to_dict(state), Counter())
    seen = _leaves(game.to_dict(game.observation(state, viewer)), Counter())
    hidden = {x for x in full if full[x] > seen[x]}
    items = game.content().items
    visible = " / ".join(f"{i.name} {i.text}" for i in items if i.id in seen)
    words = set()
    for item in items:
        if item.id in hidden and item.name not in visible:
            if len(item.name) >= 4 and not item.name.isdigit():
                words.add(item.name)
            if len(item.id) >= 3 and not item.id.isdigit():
                words.add(item.id)
    return words


def named(text: str, words: set[str]) -> list[str]:
    """The words of ``words`` that ``text`` names (whole words), outside the quoted notation examples
    a legend prints for everyone (Tiberpunk's "'flip A2' turns its 2" names the move, not a hand)."""
    q = r"(?:'|&#x27;|&#39;|&apos;)"  # a quote, also as an SVG writes it
    text = re.sub(rf"{q}[a-z0-9+-]+ [A-Z]\d[^'&]*{q}", "", text)
    return [w for w in words if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text)]


# ------------------------------------------------------------------------------------ a match
class Watcher(threading.Thread):
    """Collects one viewer's WatchMatch stream until the match ends."""

    def __init__(self, api: Any, match_id: str, viewer: int) -> None:
        super().__init__(daemon=True)
        self.api, self.match_id, self.viewer = api, match_id, viewer
        self.events: list[pos_pb.Event] = []
        self.error: BaseException | None = None

    def run(self) -> None:
        request = match_pb.WatchMatchRequest(match_id=self.match_id)
        if self.viewer >= 0:
            request.viewer_seat = self.viewer
        try:
            for reply in self.api.matches.WatchMatch(request, timeout=300):
                self.events.append(reply.event)
        except BaseException as exc:
            self.error = exc


def _call(fn: Any, request: Any, codes: Counter[str], timeout: float = 30) -> Any:
    try:
        reply = fn(request, timeout=timeout)
    except grpc.RpcError as err:
        code = err.code()  # type: ignore[attr-defined]
        codes[code.name] += 1
        assert code not in BAD, f"{fn._method}: {code.name}: {err.details()}"  # type: ignore[attr-defined]
        return err
    codes["OK"] += 1
    return reply


def read_every_rpc(api: Any, position: pos_pb.Position, seat: int, codes: Counter[str]) -> None:
    """Every read RPC on a view: an answer or a caller's error, never INTERNAL/UNKNOWN/a hang."""
    legal = _call(api.games.GetLegalActions, game_pb.GetLegalActionsRequest(position=position), codes)
    viewer = viewer_to_pb(seat)
    _call(api.games.Describe, game_pb.DescribeRequest(position=position, viewer=viewer), codes)
    _call(api.games.Render, game_pb.RenderRequest(position=position, viewer=viewer), codes)
    _call(api.games.ValidateState, game_pb.ValidateStateRequest(position=position), codes)
    _call(api.solver.Score, solver_pb.ScoreRequest(position=position), codes)
    budget = advisor_pb.SearchBudget(simulations=8)
    _call(api.advisor.Hint, advisor_pb.HintRequest(position=position, budget=budget, top_k=2), codes)
    _call(api.advisor.SuggestAction, advisor_pb.SuggestActionRequest(position=position, budget=budget), codes)
    if isinstance(legal, game_pb.GetLegalActionsResponse) and legal.actions:
        action = pos_pb.Action(text=legal.actions[0].text)
        _call(api.games.ApplyAction, game_pb.ApplyActionRequest(position=position, action=action), codes)
        _call(
            api.games.DescribeAction,
            game_pb.DescribeActionRequest(position=position, action=action, viewer=viewer),
            codes,
        )


def play_as_seat0(api: Any, name: str, rng: random.Random, codes: Counter[str]) -> tuple[str, list[Watcher]]:
    """A match of seat 0 (random legal moves, every read RPC on each of its views) against AI seats;
    seat 0 resigns after its share of decisions. Returns the match id and the finished watchers."""
    game = get_game(name)
    players = min(game.info.max_players, max(game.info.min_players, 3))
    ai = match_pb.Seat(kind=match_pb.SEAT_KIND_AI, level=1, engine=ENGINE.get(name, ""))
    created = api.matches.CreateMatch(
        match_pb.CreateMatchRequest(game=name, seats=[HUMAN, *([ai] * (players - 1))]), timeout=60
    )
    match_id = created.match.match_id
    watchers = [Watcher(api, match_id, SPECTATOR), Watcher(api, match_id, 0)]
    for w in watchers:
        w.start()
    decisions, deadline = 0, time.monotonic() + 240
    while time.monotonic() < deadline:
        got = api.matches.GetMatch(
            match_pb.GetMatchRequest(match_id=match_id, viewer_seat=0), timeout=30
        ).match
        if got.status != match_pb.MATCH_STATUS_ACTIVE:
            break
        if got.summary.current_player != 0:
            if rng.random() < 0.3:  # a view while another seat or chance is to move
                read_every_rpc(api, got.position, 0, codes)
            time.sleep(0.05)
            continue
        if decisions >= SEAT_DECISIONS[name]:
            api.matches.ResignMatch(match_pb.ResignMatchRequest(match_id=match_id, seat=0), timeout=30)
            break
        read_every_rpc(api, got.position, 0, codes)
        legal = api.games.GetLegalActions(game_pb.GetLegalActionsRequest(position=got.position), timeout=30)
        choice = rng.choice(list(legal.actions)).text
        request = match_pb.SubmitActionRequest(
            match_id=match_id, seat=0, expected_move_number=got.move_number, action=pos_pb.Action(text=choice)
        )
        try:
            api.matches.SubmitAction(request, timeout=30)
        except grpc.RpcError as err:
            assert err.code() == grpc.StatusCode.ABORTED, err.details()  # an AI move came first
            continue
        decisions += 1
    else:
        pytest.fail(f"{name}: the match did not finish in time")
    for w in watchers:
        w.join(60)
        assert not w.is_alive() and w.error is None, w.error
    return match_id, watchers


def replay(api: Any, name: str, match_id: str) -> tuple[Any, list[Any], list[Any]]:
    """The finished match's states and actions, replayed from its revealed record."""
    full = api.matches.GetMatch(
        match_pb.GetMatchRequest(match_id=match_id, reveal_all=True), timeout=30
    ).match
    game = get_game(name)
    setup = full.position.record.setup
    state = game.new_state(GameConfig(players=setup.players), setup.seed)
    states, actions = [state], []
    for text in full.position.record.actions:
        action = game.parse_action(state, text)
        state = game.apply(state, action)
        actions.append(action)
        states.append(state)
    return game, states, actions


# ------------------------------------------------------------------------------------ the tests
def test_ti4_secret_objective_kept_is_not_in_the_event_stream(api: Any) -> None:
    """rule: ti4/objectives - a secret objective is kept face down: the spectator's and the other
    seats' streams say a seat keeps one, never which (WatchMatch showed "keep secret objective X")."""
    codes: Counter[str] = Counter()
    match_id, watchers = play_as_seat0(api, "ti4", random.Random(1), codes)
    game, states, actions = replay(api, "ti4", match_id)
    names = {i.id: i.name for i in game.content().items}
    keeps = [k for k, a in enumerate(actions) if a.kind == "keep"]
    assert len(keeps) == 3, "every seat kept a secret objective"
    for w in watchers:
        by_move = {e.move_number: e for e in w.events if e.kind == pos_pb.EVENT_KIND_ACTION}
        for k in keeps:
            event, seat = by_move[k + 1], game.current_player(states[k])
            kept = names[actions[k].name]
            if seat == w.viewer:
                assert event.action, "a seat sees its own secret objective"
                continue
            assert not event.action, f"viewer {w.viewer} sees {event.action!r}"
            assert "keeps a secret objective" in event.description
            assert kept not in event.description


def test_a_seat_view_while_another_seat_places_tiles_is_a_position(api: Any) -> None:
    """rule: ti4/deal-system-tiles - seat 0's view hides seat 1's tiles; GetLegalActions, ApplyAction,
    Hint and SuggestAction on it say so (FAILED_PRECONDITION, field position), never INTERNAL."""
    game = get_game("ti4")
    rng = random.Random(2)
    state = game.new_state(GameConfig(players=3), 2)
    while not (game.current_player(state) == 1 and game.legal_actions(state)[0].kind == "place"):
        state = game.apply(state, rng.choice(list(game.legal_actions(state))))
    view = game.observation(state, 0)
    position = pos_pb.Position(game="ti4", state_json=json.dumps(game.to_dict(view)))
    budget = advisor_pb.SearchBudget(simulations=8)
    calls = [
        (api.games.GetLegalActions, game_pb.GetLegalActionsRequest(position=position)),
        (
            api.games.ApplyAction,
            game_pb.ApplyActionRequest(
                position=position,
                action=pos_pb.Action(text=game.action_to_text(state, game.legal_actions(state)[0])),
            ),
        ),
        (api.advisor.Hint, advisor_pb.HintRequest(position=position, budget=budget)),
        (api.advisor.SuggestAction, advisor_pb.SuggestActionRequest(position=position, budget=budget)),
    ]
    for call, request in calls:
        with pytest.raises(grpc.RpcError) as err:
            call(request, timeout=30)
        assert err.value.code() == grpc.StatusCode.FAILED_PRECONDITION, err.value.details()
        assert error_info(err.value)["field"] == "position"
        assert "hides seat 1's system tiles" in err.value.details()
    # the same view read by every other RPC answers
    codes: Counter[str] = Counter()
    read_every_rpc(api, position, 0, codes)
    assert codes["OK"] >= 3


@pytest.mark.parametrize("name", GAMES)
def test_no_stream_names_what_its_viewer_does_not_see(api: Any, name: str) -> None:
    """Property over all five games: seat 0 plays random moves against AI seats while a spectator
    and seat 0 watch; every view seat 0 gets goes through every read RPC (never INTERNAL); then, from
    the revealed record, no event either viewer received names a component its view of the position
    hid once the action was played, and an event shows the action's notation exactly to those who
    see which it was."""
    codes: Counter[str] = Counter()
    match_id, watchers = play_as_seat0(api, name, random.Random(7), codes)
    game, states, actions = replay(api, name, match_id)
    checked = 0
    for w in watchers:
        for event in w.events:
            k = event.move_number
            if event.kind not in (pos_pb.EVENT_KIND_ACTION, pos_pb.EVENT_KIND_CHANCE) or not 0 < k <= len(
                actions
            ):
                continue
            before, after = states[k - 1], states[k]
            secrets = secret_words(game, after, w.viewer)
            leaks = named(event.description + " " + event.action, secrets)
            assert not leaks, f"move {k}: viewer {w.viewer} reads {event.description!r} {event.action!r}"
            assert bool(event.action) == (w.viewer in seen_by(game, before, actions[k - 1])), (k, event)
            checked += 1
    assert checked > 10
    # the face of full positions, as each viewer may see them
    sample = random.Random(3).sample(range(1, len(actions) + 1), min(6, len(actions)))
    for k in sample:
        before, after = states[k - 1], states[k]
        for viewer in (SPECTATOR, 0, 1):
            words = secret_words(game, after, viewer)
            position = pos_pb.Position(game=name, state_json=json.dumps(game.to_dict(after)))
            seen = viewer_to_pb(viewer)
            d = api.games.Describe(game_pb.DescribeRequest(position=position, viewer=seen), timeout=30)
            assert not named(d.description.text, words), (k, viewer)
            svg = api.games.Render(game_pb.RenderRequest(position=position, viewer=seen), timeout=30)
            assert not named(svg.image.decode(), words), (k, viewer)
            prior = pos_pb.Position(game=name, state_json=json.dumps(game.to_dict(before)))
            text = game.action_to_text(before, actions[k - 1])
            line = api.games.DescribeAction(
                game_pb.DescribeActionRequest(position=prior, action=pos_pb.Action(text=text), viewer=seen),
                timeout=30,
            )
            assert not named(line.log_line + " " + line.action, words), (k, viewer, line)
    assert codes["OK"] > 0
