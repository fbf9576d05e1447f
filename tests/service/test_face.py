"""The face over gRPC (issue 18): GetContent, Describe, Render, DescribeAction for every registered
game, the viewer rules (a seat never sees another seat's secret), bounded inputs naming the field,
and hints that say why #1 beats #2 from the game's facts."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import grpc
import pytest
from google.protobuf import json_format  # type: ignore[import-untyped]

from games.core import (
    CHANCE,
    REFEREE,
    SPECTATOR,
    Catalogue,
    ContentItem,
    Description,
    Fact,
    GameInfo,
    Row,
    Section,
    Variant,
    get_game,
    register_game,
    unregister_game,
)
from lictor.v1 import advisor_service_pb2 as advisor_pb
from lictor.v1 import game_service_pb2 as game_pb
from lictor.v1 import position_pb2 as pos_pb
from tests.fixtures.pig import PigGame, PigState
from tests.service.helpers import all_games, players_for, record, violations

GAMES = all_games()


class FacePig(PigGame):
    """Hidden Pig with a face whose describe and render show EVERY secret bonus card (a deliberately
    leaky face: the service must still show a seat only what its observation holds)."""

    info = GameInfo(
        name="facepig",
        title="Hidden Pig with a face (test fixture)",
        min_players=2,
        max_players=4,
        variants=(Variant(name="target", description="points to win", default=12),),
        hidden_information=True,
        stochastic=True,
        content_version="face-1",
    )

    def content(self) -> Catalogue:
        return Catalogue(
            game="facepig",
            version="face-1",
            items=(
                ContentItem(
                    id="d6",
                    kind="die",
                    name="Six-sided die",
                    text="A 1 loses the turn total.",
                    values={"faces": 6},
                ),
                ContentItem(
                    id="bonus", kind="bonus card", name="Secret bonus", values={"max": 2}, authored=True
                ),
            ),
            notes="The bonus card is authored for the fixture.",
        )

    def describe(self, state: PigState, viewer: int = REFEREE) -> Description:
        rows = tuple(
            Row(label=f"Seat {i}", value=f"{s} banked, bonus card {b}", seat=i)
            for i, (s, b) in enumerate(zip(state.scores, state.bonus, strict=True))
        )
        step = (
            "game over"
            if state.over
            else ("the die is rolling" if state.rolling else f"seat {state.turn} to move")
        )
        return Description(
            game="facepig",
            viewer=viewer,
            headline=f"Hidden Pig to {state.target}: turn total {state.turn_total}",
            step=step,
            sections=(Section(title="Scores", rows=rows),),
        )

    def render(self, state: PigState, viewer: int = REFEREE) -> str:
        bars = "".join(
            f'<rect x="20" y="{30 + 30 * i}" width="{10 + 20 * s}" height="20" fill="#b33"/>'
            f'<text x="20" y="{26 + 30 * i}" font-size="10" font-family="DejaVu Sans">'
            f"seat {i} bonus {b}</text>"
            for i, (s, b) in enumerate(zip(state.scores, state.bonus, strict=True))
        )
        return f'<svg xmlns="http://www.w3.org/2000/svg" width="300" height="160">{bars}</svg>'

    def log_line(self, state: PigState, action: str, viewer: int = SPECTATOR) -> str:
        if state.rolling:
            return f"Seat {state.turn} rolls a {action[1:]}."
        return f"Seat {state.turn} {'holds' if action == 'hold' else 'rolls the die'}."

    def explain(self, state: PigState, action: str) -> list[Fact]:
        hold = action == "hold"
        return [
            Fact(label="points banked now", value=state.turn_total if hold else 0, unit="points", better=1),
            Fact(label="turn total at risk", value=0 if hold else state.turn_total, unit="points", better=-1),
            Fact(label="target", value=state.target, unit="points"),  # the same for every move
        ]


class LeakyFactPig(FacePig):
    """FacePig whose explain reads the next seat's secret bonus card (a leaky explain)."""

    def explain(self, state: PigState, action: str) -> list[Fact]:
        secret = state.bonus[(state.turn + 1) % len(state.bonus)]
        return [
            *super().explain(state, action),
            Fact(label="next seat's bonus", value=secret if action == "hold" else -1),
        ]


class UnsampledPig(FacePig):
    """FacePig whose observations cannot be sampled (every sample_state raises a LictorError)."""

    def sample_state(self, observation: Any, seat: int, rng: Any) -> PigState:
        from games.errors import InvalidStateError

        raise InvalidStateError("no sample", field="state")


@pytest.fixture(scope="module", autouse=True)
def facepig() -> Iterator[None]:
    register_game("facepig", "tests.service.test_face:FacePig")
    register_game("leakpig", "tests.service.test_face:LeakyFactPig")
    register_game("unsampled", "tests.service.test_face:UnsampledPig")
    yield
    for name in ("facepig", "leakpig", "unsampled"):
        unregister_game(name)


def _viewer(seat: int | None = None, role: int = 0) -> game_pb.Viewer:
    if seat is not None:
        return game_pb.Viewer(role=game_pb.VIEWER_ROLE_SEAT, seat=seat)
    return game_pb.Viewer(role=role)  # type: ignore[arg-type]


def _describe(api: Any, position: pos_pb.Position, viewer: game_pb.Viewer, width: int = 0) -> Any:
    return api.games.Describe(
        game_pb.DescribeRequest(position=position, viewer=viewer, width=width), timeout=30
    )


def _bad(call: Any) -> tuple[grpc.StatusCode, list[tuple[str, str]]]:
    with pytest.raises(grpc.RpcError) as err:
        call()
    return err.value.code(), violations(err.value)


# ---------------------------------------------------------------------------------------- content
@pytest.mark.parametrize("name", GAMES)
def test_content_for_every_game_caches_by_digest(api, name):
    reply = api.games.GetContent(game_pb.GetContentRequest(game=name), timeout=30)
    cat = get_game(name).content()
    assert reply.game == name and reply.version == cat.version and len(reply.digest) == 32
    assert [i.id for i in reply.items] == [i.id for i in cat.items]
    for item in reply.items:
        assert item.kind and item.name is not None
        assert isinstance(json.loads(item.values_json), dict)
    again = api.games.GetContent(game_pb.GetContentRequest(game=name, if_none_match=reply.digest), timeout=30)
    assert again.not_modified and not again.items and again.digest == reply.digest
    stale = api.games.GetContent(game_pb.GetContentRequest(game=name, if_none_match="0" * 32), timeout=30)
    assert not stale.not_modified and len(stale.items) == len(reply.items)


def test_content_items_carry_names_texts_values_and_authored(api):
    reply = api.games.GetContent(game_pb.GetContentRequest(game="facepig"), timeout=30)
    assert list(reply.kinds) == ["die", "bonus card"]
    die, bonus = reply.items
    assert (die.name, die.text, json.loads(die.values_json), die.authored) == (
        "Six-sided die",
        "A 1 loses the turn total.",
        {"faces": 6},
        False,
    )
    assert bonus.authored and reply.notes


def test_content_bad_inputs_name_the_field(api):
    code, bad = _bad(lambda: api.games.GetContent(game_pb.GetContentRequest(game=""), timeout=10))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and bad[0][0] == "game"
    with pytest.raises(grpc.RpcError) as err:
        api.games.GetContent(game_pb.GetContentRequest(game="no-such-game"), timeout=10)
    assert err.value.code() == grpc.StatusCode.NOT_FOUND
    code, bad = _bad(
        lambda: api.games.GetContent(game_pb.GetContentRequest(game="pig", content_pack="x"), timeout=10)
    )
    assert code == grpc.StatusCode.INVALID_ARGUMENT and bad[0][0] == "content_pack"
    code, bad = _bad(
        lambda: api.games.GetContent(
            game_pb.GetContentRequest(game="pig", if_none_match="f" * 300), timeout=10
        )
    )
    assert code == grpc.StatusCode.INVALID_ARGUMENT and bad[0][0] == "if_none_match"


# ---------------------------------------------------------------------------------------- describe
@pytest.mark.parametrize("name", GAMES)
def test_describe_every_game_and_viewer_fits_the_width(api, name):
    pos = record(name)
    players = players_for(name)
    viewers = [_viewer(role=0), _viewer(role=game_pb.VIEWER_ROLE_REFEREE)] + [
        _viewer(s) for s in range(players)
    ]
    for viewer in viewers:
        for width in (0, 60):
            d = _describe(api, pos, viewer, width).description
            assert d.game == name and d.headline
            assert all(len(line) <= (width or 80) for line in d.text.splitlines()), d.text
            assert d.text.splitlines()[0] == d.headline[: width or 80] or d.headline.startswith(
                d.text.splitlines()[0][:-1]
            )


def test_describe_matches_the_game_and_keeps_sections(api):
    pos = record("facepig", actions=("roll", "d5"))
    d = _describe(api, pos, _viewer(role=game_pb.VIEWER_ROLE_REFEREE)).description
    assert d.headline == "Hidden Pig to 12: turn total 5" and d.step == "seat 0 to move"
    assert d.viewer.role == game_pb.VIEWER_ROLE_REFEREE
    (section,) = d.sections
    assert section.title == "Scores" and [r.seat for r in section.rows] == [0, 1]
    assert not section.HasField("seat")
    assert _describe(api, pos, _viewer(0)).current_player == 0


def _pig_state(bonus: tuple[int, ...]) -> pos_pb.Position:
    state = PigState(scores=(3, 4), bonus=bonus, turn=1, turn_total=2)
    return pos_pb.Position(game="facepig", state_json=json.dumps(FacePig().to_dict(state)))


def test_a_seat_never_sees_another_seats_secret_even_through_a_leaky_face(api):
    """Seat 0's view of two positions that differ only in seat 1's secret bonus is the same, in text
    and in picture; the referee sees the difference; seat 0 sees its own card."""
    a, b = _pig_state((2, 0)), _pig_state((2, 1))
    da, db = (_describe(api, p, _viewer(0)).description for p in (a, b))
    assert da == db
    assert "bonus card 2" in da.sections[0].rows[0].value  # its own card, as it is
    ra, rb = (
        api.games.Render(game_pb.RenderRequest(position=p, viewer=_viewer(0)), timeout=30).image
        for p in (a, b)
    )
    assert ra == rb
    referee = _viewer(role=game_pb.VIEWER_ROLE_REFEREE)
    assert _describe(api, a, referee).description != _describe(api, b, referee).description


def test_describe_bad_inputs_name_the_field(api):
    pos = record("pig")
    for viewer, field in (
        (_viewer(2), "viewer.seat"),
        (_viewer(-1), "viewer.seat"),
        (game_pb.Viewer(role=game_pb.VIEWER_ROLE_SPECTATOR, seat=1), "viewer.seat"),
        (game_pb.Viewer(role=9), "viewer.role"),  # type: ignore[arg-type]
    ):
        code, bad = _bad(lambda v=viewer: _describe(api, pos, v))
        assert code == grpc.StatusCode.INVALID_ARGUMENT and bad[0][0] == field, (viewer, bad)
    for width in (5, 401, -1):
        code, bad = _bad(lambda w=width: _describe(api, pos, _viewer(0), w))
        assert code == grpc.StatusCode.INVALID_ARGUMENT and bad[0][0] == "width"
    code, bad = _bad(lambda: _describe(api, pos_pb.Position(game="pig", state_json="{"), _viewer(0)))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and bad[0][0] == "position.state_json"


# ---------------------------------------------------------------------------------------- render
@pytest.mark.parametrize("name", GAMES)
def test_render_every_game_as_svg_and_png(api, name):
    pos = record(name)
    svg = api.games.Render(game_pb.RenderRequest(position=pos, viewer=_viewer(0)), timeout=30)
    assert svg.media_type == "image/svg+xml" and b"<svg" in svg.image[:400]
    png = api.games.Render(
        game_pb.RenderRequest(position=pos, viewer=_viewer(0), format=game_pb.RENDER_FORMAT_PNG), timeout=60
    )
    assert png.media_type == "image/png" and png.image.startswith(b"\x89PNG\r\n\x1a\n")


def test_render_refuses_a_bad_format(api):
    code, bad = _bad(
        lambda: api.games.Render(game_pb.RenderRequest(position=record("pig"), format=7), timeout=10)  # type: ignore[arg-type]
    )
    assert code == grpc.StatusCode.INVALID_ARGUMENT and bad[0][0] == "format"


# ---------------------------------------------------------------------------------------- log lines
def test_describe_action_writes_the_log_line_for_the_viewer(api):
    rolling = record("pig", actions=("roll",))
    req = game_pb.DescribeActionRequest(position=rolling, action=pos_pb.Action(text="d4"), viewer=_viewer(0))
    reply = api.games.DescribeAction(req, timeout=30)
    game = get_game("pig")
    state = game.apply(game.new_state(__import__("games.core").core.GameConfig(players=2), 1), "roll")
    assert game.current_player(state) == CHANCE
    assert reply.log_line == game.log_line(state, "d4", 0) and reply.seat == CHANCE
    assert reply.action == "d4"  # the die shows in the turn total everyone sees (views.seen_by)
    req.viewer.CopyFrom(_viewer(role=game_pb.VIEWER_ROLE_REFEREE))
    assert api.games.DescribeAction(req, timeout=30).action == "d4"
    face = api.games.DescribeAction(
        game_pb.DescribeActionRequest(
            position=record("facepig", actions=("roll",)), action=pos_pb.Action(text="d4"), viewer=_viewer(1)
        ),
        timeout=30,
    )
    assert (face.log_line, face.action) == ("Seat 0 rolls a 4.", "d4")  # dice in the open


def test_describe_action_bad_inputs(api):
    pos = record("pig")
    code, bad = _bad(
        lambda: api.games.DescribeAction(game_pb.DescribeActionRequest(position=pos), timeout=10)
    )
    assert code == grpc.StatusCode.INVALID_ARGUMENT and bad[0][0] == "action"
    code, bad = _bad(
        lambda: api.games.DescribeAction(
            game_pb.DescribeActionRequest(position=pos, action=pos_pb.Action(text="d4")), timeout=10
        )
    )
    assert code == grpc.StatusCode.INVALID_ARGUMENT and bad[0][0] == "action"
    code, bad = _bad(
        lambda: api.games.DescribeAction(
            game_pb.DescribeActionRequest(position=pos, action=pos_pb.Action(text="x" * 2000)), timeout=10
        )
    )
    assert code == grpc.StatusCode.INVALID_ARGUMENT and bad[0][0] == "action.text"


# ---------------------------------------------------------------------------------------- JSON
def test_seat_zero_shows_in_json(api):
    """``current_player`` (and an event's seat) are present in JSON when they are 0."""
    reply = api.games.NewGame(
        game_pb.NewGameRequest(game="pig", setup=pos_pb.GameSetup(players=2, seed=1)), timeout=30
    )
    assert json.loads(json_format.MessageToJson(reply.summary))["currentPlayer"] == 0
    applied = api.games.ApplyAction(
        game_pb.ApplyActionRequest(position=reply.position, action=pos_pb.Action(text="roll")), timeout=30
    )
    assert json.loads(json_format.MessageToJson(applied.events[0]))["seat"] == 0
    described = _describe(api, reply.position, _viewer(0))
    assert json.loads(json_format.MessageToJson(described))["currentPlayer"] == 0
    said = api.games.DescribeAction(
        game_pb.DescribeActionRequest(position=reply.position, action=pos_pb.Action(text="roll")), timeout=30
    )
    assert json.loads(json_format.MessageToJson(said))["seat"] == 0


# ---------------------------------------------------------------------------------------- hints
def test_hint_says_why_first_beats_second_from_facts_that_differ(api):
    """The hints are ranked by the number each shows first; facts equal for every move are left out;
    the one-line reason compares #1 with #2 on the facts that differ."""
    pos = record("facepig", actions=("roll", "d6", "roll", "d5"))  # turn total 11 of 12
    request = advisor_pb.HintRequest(position=pos, top_k=2, seed=3)
    request.budget.simulations = 300
    reply = api.advisor.Hint(request, timeout=60)
    assert reply.seat == 0 and len(reply.hints) == 2
    firsts = [h.reasons[0] for h in reply.hints]
    assert all(r.text == reply.ranked_by for r in firsts)
    assert firsts[0].value >= firsts[1].value
    for h in reply.hints:
        labels = [r.text for r in h.reasons]
        assert "target" not in labels  # the same for every candidate
        assert "points banked now" in labels and "turn total at risk" in labels
        assert all(r.sentence for r in h.reasons)
    first, second = reply.hints[0].action, reply.hints[1].action
    assert reply.why.startswith(f"{first} over {second}: ")
    assert "points banked now" in reply.why and "target" not in reply.why
    assert "\n" not in reply.why and len(reply.why) <= 500


def test_hint_facts_helpers():
    from service.advisor import varying_labels

    same = Fact(label="coins", value=3)
    rows = [[same, Fact(label="VP", value=1)], [same, Fact(label="VP", value=2)], [same]]
    assert varying_labels(rows) == {"VP"}
    assert varying_labels([[same], [replace(same)]]) == set()


def test_hint_facts_come_from_what_the_mover_may_know(api):
    """A hint's facts in a hidden-information game are read from the mover's view: two positions
    that differ only in another seat's secret give the same facts, even with a leaky explain."""
    values = []
    for secret in (0, 2):
        state = PigState(scores=(3, 4), bonus=(1, secret), turn=0, turn_total=4)
        pos = pos_pb.Position(game="leakpig", state_json=json.dumps(FacePig().to_dict(state)))
        request = advisor_pb.HintRequest(position=pos, top_k=2, seed=3)
        request.budget.simulations = 64
        reply = api.advisor.Hint(request, timeout=60)
        hold = next(h for h in reply.hints if h.action == "hold")
        values.append([r.value for r in hold.reasons if r.text == "next seat's bonus"])
    assert values[0] == values[1] and len(values[0]) == 1


def test_huge_pictures_are_refused_as_png_not_drawn():
    from games.errors import LictorError
    from service.face import MAX_PNG_SIDE, _check_png_size

    _check_png_size('<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800">')
    with pytest.raises(LictorError) as err:
        _check_png_size(f'<svg xmlns="http://www.w3.org/2000/svg" width="{MAX_PNG_SIDE + 1}" height="10">')
    assert err.value.field == "format" and "RENDER_FORMAT_SVG" in err.value.message


def test_png_is_drawn_in_its_own_process():
    """The PNG comes from a short-lived process (resvg holds the GIL while it draws): the same
    picture as drawn in-process; a broken SVG is a clear error, not a crash."""
    import asyncio

    from games.errors import LictorError
    from service.face import svg_to_png, svg_to_png_async

    svg = FacePig().render(PigState(scores=(3, 4), bonus=(1, 2)), REFEREE)
    png = asyncio.run(svg_to_png_async(svg))
    assert png.startswith(b"\x89PNG") and png == svg_to_png(svg)
    with pytest.raises(LictorError) as err:
        asyncio.run(svg_to_png_async("<svg this is not a picture"))
    assert "could not be drawn as PNG" in err.value.message


def test_hint_without_a_sample_of_the_movers_view_gives_no_facts(api):
    """When the mover's view cannot be sampled, Hint answers a clear error (the search needs samples
    too: INVALID_ARGUMENT naming the field) or hints with the search's numbers only; never INTERNAL."""
    pos = record("unsampled", actions=("roll", "d5"))
    request = advisor_pb.HintRequest(position=pos, top_k=2, seed=3)
    request.budget.time_s = 0.3
    try:
        reply = api.advisor.Hint(request, timeout=60)
    except grpc.RpcError as exc:  # the search itself needs samples: a clear error, never INTERNAL
        assert exc.code() != grpc.StatusCode.INTERNAL, exc.details()
        return
    for h in reply.hints:
        assert h.reasons[0].text == reply.ranked_by
        assert not {"points banked now", "turn total at risk"} & {r.text for r in h.reasons}
