"""The face of every game over gRPC: its content, readable descriptions, pictures and log lines.

Called by :class:`service.game.GameServicer` (``GetContent``, ``Describe``, ``Render``,
``DescribeAction``); every game is reached through the Game protocol and the registry, none is
named here.

Who looks is a ``lictor.v1.Viewer``: a seat, a spectator (the default) or the referee. Every
viewer but the referee sees its own view only, by the one per-viewer rule of ``games.core.views``:
in a game with hidden information the description and the picture are drawn from a state sampled
from that viewer's observation (``seen_state``), so no secret can reach the answer even through a
game's bug (the Game protocol asks the same of ``describe``/``render`` themselves; ``check_game``
tests it), and an action's notation is shown only to those who see which it was (``seen_by``).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import sys
import threading
import weakref
from typing import Any

from games.core import CHANCE, REFEREE, SPECTATOR, Catalogue, Description, Game, Viewer
from games.core.text import is_digits
from games.core.views import check_known, seen_by, seen_state
from games.errors import IllegalActionError, LictorError
from lictor.v1 import game_service_pb2 as game_pb
from service import convert
from service.errors import RequestError

__all__ = [
    "DEFAULT_WIDTH",
    "MAX_WIDTH",
    "MIN_WIDTH",
    "content_response",
    "describe",
    "describe_action",
    "description_to_pb",
    "render",
    "seen_state",
    "svg_to_png",
    "svg_to_png_async",
    "viewer_from_pb",
    "viewer_to_pb",
]

DEFAULT_WIDTH = 80
"""Columns of ``Description.text`` when the request leaves ``width`` at 0."""
MIN_WIDTH = 20
"""Narrowest text a request may ask for."""
MAX_WIDTH = 400
"""Widest text a request may ask for."""
MAX_PNG_SIDE = 8192
"""Largest PNG side in pixels a Render answers (a bigger picture is refused, not drawn)."""


# ---------------------------------------------------------------------------------------- viewers
def viewer_from_pb(msg: game_pb.Viewer, players: int, *, field: str = "viewer") -> Viewer:
    """The viewer a request names (unset: SPECTATOR); RequestError naming ``field`` when bad."""
    role = msg.role
    if role == game_pb.VIEWER_ROLE_SEAT:
        if not 0 <= msg.seat < players:
            raise RequestError(
                f"{field}.seat {msg.seat!r} is not a seat of this {players}-player position "
                f"(seats are 0..{players - 1})",
                field=f"{field}.seat",
            )
        return int(msg.seat)
    if msg.seat:
        raise RequestError(
            f"{field}.seat is set ({msg.seat!r}) but {field}.role is not VIEWER_ROLE_SEAT",
            field=f"{field}.seat",
        )
    return REFEREE if role == game_pb.VIEWER_ROLE_REFEREE else SPECTATOR


def viewer_to_pb(viewer: Viewer) -> game_pb.Viewer:
    """A Viewer message for ``viewer``."""
    if viewer == REFEREE:
        return game_pb.Viewer(role=game_pb.VIEWER_ROLE_REFEREE)
    if viewer == SPECTATOR:
        return game_pb.Viewer(role=game_pb.VIEWER_ROLE_SPECTATOR)
    return game_pb.Viewer(role=game_pb.VIEWER_ROLE_SEAT, seat=viewer)


# ---------------------------------------------------------------------------------------- content
_CONTENT: dict[tuple[str, str], tuple[Game[Any, Any], game_pb.GetContentResponse]] = {}
_CONTENT_LOCK = threading.Lock()
_CONTENT_CAP = 64


def _catalogue_pb(name: str, cat: Catalogue) -> game_pb.GetContentResponse:
    items = [
        game_pb.ContentItem(
            id=i.id,
            kind=i.kind,
            name=i.name,
            text=i.text,
            values_json=json.dumps(dict(i.values), sort_keys=True, default=str),
            authored=i.authored,
        )
        for i in cat.items
    ]
    reply = game_pb.GetContentResponse(
        game=name, version=cat.version, items=items, kinds=cat.kinds(), notes=cat.notes
    )
    reply.digest = hashlib.sha256(reply.SerializeToString(deterministic=True)).hexdigest()[:32]
    return reply


def content_response(
    name: str, pack: str, game: Game[Any, Any], if_none_match: str
) -> game_pb.GetContentResponse:
    """The game's catalogue as a GetContent answer (kept per game and pack; items left out when
    ``if_none_match`` is its digest)."""
    with _CONTENT_LOCK:
        kept = _CONTENT.get((name, pack))
    if kept is None or kept[0] is not game:
        reply = _catalogue_pb(name, game.content())
        with _CONTENT_LOCK:
            if len(_CONTENT) >= _CONTENT_CAP:
                _CONTENT.clear()
            _CONTENT[(name, pack)] = (game, reply)
    else:
        reply = kept[1]
    if if_none_match and if_none_match == reply.digest:
        return game_pb.GetContentResponse(
            game=reply.game, version=reply.version, digest=reply.digest, not_modified=True
        )
    out = game_pb.GetContentResponse()
    out.CopyFrom(reply)
    return out


# ---------------------------------------------------------------------------------------- describe
def description_to_pb(d: Description, width: int) -> game_pb.Description:
    """A Description message, with its plain text at ``width`` columns."""
    msg = game_pb.Description(
        game=d.game, viewer=viewer_to_pb(d.viewer), headline=d.headline, step=d.step, text=d.to_text(width)
    )
    for s in d.sections:
        section = msg.sections.add(title=s.title, lines=list(s.lines))
        if s.seat is not None:
            section.seat = s.seat
        for r in s.rows:
            row = section.rows.add(label=r.label, value=r.value)
            if r.seat is not None:
                row.seat = r.seat
    return msg


def _width(width: int) -> int:
    if width == 0:
        return DEFAULT_WIDTH
    if not MIN_WIDTH <= width <= MAX_WIDTH:
        raise RequestError(f"width must be 0 (80) or {MIN_WIDTH}..{MAX_WIDTH}, not {width!r}", field="width")
    return width


def describe(request: game_pb.DescribeRequest, *, content_root: str | None) -> game_pb.DescribeResponse:
    """Answer Describe: the position as the viewer may see it."""
    width = _width(request.width)
    res = convert.resolve_position(request.position, content_root=content_root)
    game, state = res.game, res.state
    viewer = viewer_from_pb(request.viewer, game.num_players(state))
    d = game.describe(seen_state(game, state, viewer), viewer)
    return game_pb.DescribeResponse(
        description=description_to_pb(d, width), current_player=game.current_player(state)
    )


# ---------------------------------------------------------------------------------------- render
def svg_to_png(svg: str) -> bytes:
    """PNG bytes of an SVG picture (resvg). LictorError when it cannot be drawn."""
    import resvg_py

    try:
        data = resvg_py.svg_to_bytes(svg_string=svg)
    except Exception as exc:  # resvg reports a broken picture as a plain exception
        raise LictorError(f"the game's picture could not be drawn as PNG: {str(exc)[:200]}") from None
    return bytes(data)


def _check_png_size(svg: str) -> None:
    """Refuse an SVG whose declared size would make a huge PNG (width/height attributes)."""
    head = svg[: svg.find(">") + 1] if ">" in svg else svg[:2000]
    for attr in ("width", "height"):
        at = head.find(f' {attr}="')
        if at < 0:
            continue
        raw = head[at + len(attr) + 3 :].split('"', 1)[0]
        number = "".join(ch for ch in raw if is_digits(ch) or ch == ".")
        try:
            size = float(number)
        except ValueError:
            continue
        if size > MAX_PNG_SIDE:
            raise LictorError(
                f"the picture is {size:g} pixels {'wide' if attr == 'width' else 'high'}; "
                f"PNG is drawn up to {MAX_PNG_SIDE}: ask for RENDER_FORMAT_SVG",
                field="format",
            )


PNG_TIMEOUT_S = 30.0
"""Longest a PNG may take to draw (then the drawing process is killed)."""
PNG_AT_ONCE = 2
"""PNGs drawn at once (more wait their turn)."""

_PNG_SCRIPT = (
    "import sys, resvg_py; "
    "sys.stdout.buffer.write(bytes(resvg_py.svg_to_bytes(svg_string=sys.stdin.buffer.read().decode())))"
)
_PNG_GATES: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
    weakref.WeakKeyDictionary()
)


async def svg_to_png_async(svg: str) -> bytes:
    """PNG bytes of an SVG picture, drawn in a short-lived process: resvg holds the GIL for the
    whole drawing (0.5 s for a board), which would stall every other call on the event loop."""
    loop = asyncio.get_running_loop()
    gate = _PNG_GATES.setdefault(loop, asyncio.Semaphore(PNG_AT_ONCE))
    async with gate:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-I",
            "-c",
            _PNG_SCRIPT,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        try:
            out, err = await asyncio.wait_for(proc.communicate(svg.encode("utf-8")), PNG_TIMEOUT_S)
        except (TimeoutError, asyncio.CancelledError):
            proc.kill()
            await proc.wait()
            raise
        if proc.returncode != 0 or not out.startswith(b"\x89PNG"):
            shown = err.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no output"]
            raise LictorError(f"the game's picture could not be drawn as PNG: {shown[0][:200]}")
        return out


async def render(request: game_pb.RenderRequest, *, content_root: str | None) -> game_pb.RenderResponse:
    """Answer Render: the picture as the viewer may see it (a PNG drawn off the event loop)."""
    res = convert.resolve_position(request.position, content_root=content_root)
    game, state = res.game, res.state
    viewer = viewer_from_pb(request.viewer, game.num_players(state))
    svg = game.render(seen_state(game, state, viewer), viewer)
    if request.format == game_pb.RENDER_FORMAT_PNG:
        _check_png_size(svg)
        try:
            png = await svg_to_png_async(svg)
        except TimeoutError:
            raise LictorError(
                f"the picture took over {PNG_TIMEOUT_S:g} s to draw as PNG: ask for RENDER_FORMAT_SVG",
                field="format",
            ) from None
        return game_pb.RenderResponse(image=png, media_type="image/png")
    return game_pb.RenderResponse(image=svg.encode("utf-8"), media_type="image/svg+xml")


# ---------------------------------------------------------------------------------------- log
def describe_action(
    request: game_pb.DescribeActionRequest, *, content_root: str | None
) -> game_pb.DescribeActionResponse:
    """Answer DescribeAction: the log sentence of one action as the viewer may read it."""
    res = convert.resolve_position(request.position, content_root=content_root)
    game, state = res.game, res.state
    viewer = viewer_from_pb(request.viewer, game.num_players(state))
    if not request.HasField("action"):
        raise RequestError("the action is required", field="action")
    action = convert.parse_action(game, state, request.action, field="action")
    seat = game.current_player(state)
    check_known(game, state)
    if seat == CHANCE:
        if action not in [a for a, _ in game.chance_outcomes(state)]:
            text = game.action_to_text(state, action)
            raise IllegalActionError(f"{text!r} is not a chance outcome of this position", field="action")
    else:
        game.check_action(state, action)
    reply = game_pb.DescribeActionResponse(log_line=game.log_line(state, action, viewer), seat=seat)
    if viewer in seen_by(game, state, action):
        reply.action = game.action_to_text(state, action)
    return reply
