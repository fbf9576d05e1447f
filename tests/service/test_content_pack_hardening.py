"""Content packs named by clients (issue 27): bounded names, capped pack files, no server path shown.

A real server on port 0 with a ``content_root`` holding good packs, broken packs and symlinks. Every
RPC that takes a pack (NewGame, GetContent, GetSchema, and every RPC taking a ``Position``) refuses
a bad name or a bad pack with INVALID_ARGUMENT naming the request field, never INTERNAL, and no
status, message or detail shows a server path. A missing pack reads the same whether its directory
is missing, lacks ``pack.json``, is a file or is a symlink.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from grpc_status import rpc_status

from lictor.v1 import advisor_service_pb2 as advisor_pb
from lictor.v1 import game_service_pb2 as game_pb
from lictor.v1 import position_pb2 as pos_pb
from lictor.v1 import solver_service_pb2 as solver_pb
from service.client import Stubs, stubs
from service.server import create_server
from tests.service.conftest import TEST_LIMITS
from tests.service.helpers import error_info, violations

GAME = "tiberius"
PLAYERS = 3
REFERENCE = Path(__file__).resolve().parents[2] / "games" / GAME / "content"


def _copy(dest: Path) -> Path:
    shutil.copytree(REFERENCE, dest)
    return dest


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A content root with good and bad packs, and a directory outside it the symlinks point to."""
    base = tmp_path_factory.mktemp("packs")
    root, outside = base / "root", base / "outside"
    root.mkdir()
    _copy(outside / "pack")
    _copy(root / "good")
    _copy(root / "season2" / "promo")
    (root / "empty").mkdir()  # a directory without pack.json
    (root / "afile").write_text("not a directory")
    (root / "linkdir").symlink_to(outside / "pack", target_is_directory=True)
    linkfile = _copy(root / "linkfile")
    (linkfile / "careers.json").unlink()
    (linkfile / "careers.json").symlink_to(outside / "pack" / "careers.json")
    linkmanifest = _copy(root / "linkmanifest")
    (linkmanifest / "pack.json").unlink()
    (linkmanifest / "pack.json").symlink_to(outside / "pack" / "pack.json")
    (root / "season3").symlink_to(root / "season2", target_is_directory=True)  # a link mid-path
    deep = _copy(root / "deep")
    (deep / "careers.json").write_text("[" * 50_000 + "]" * 50_000)
    big = _copy(root / "big")
    text = (big / "careers.json").read_text()
    (big / "careers.json").write_text(text + " " * (3 * 1024 * 1024))
    crowded = _copy(root / "crowded")
    for i in range(200):
        (crowded / f"extra{i}.json").write_text("{}")
    return {"root": root, "outside": outside, "base": base}


@pytest.fixture(scope="module")
def api(tree: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stubs]:
    """Stubs of a server whose content root is ``tree["root"]``."""
    db = tmp_path_factory.mktemp("db") / "lictor.db"
    srv, port = create_server("127.0.0.1:0", db_path=db, limits=TEST_LIMITS, content_root=tree["root"])
    ch = grpc.insecure_channel(f"127.0.0.1:{port}")
    try:
        yield stubs(ch)
    finally:
        ch.close()
        srv.stop(None).wait(5)
        srv.close()


def _position(pack: str) -> pos_pb.Position:
    setup = pos_pb.GameSetup(players=PLAYERS, seed=1)
    return pos_pb.Position(game=GAME, content_pack=pack, record=pos_pb.GameRecord(setup=setup))


def _budget() -> Any:
    msg = advisor_pb.SuggestActionRequest().budget
    msg.simulations = 10
    return msg


Call = Callable[[Stubs, str], Any]

TOP_LEVEL: dict[str, Call] = {
    "NewGame": lambda api, pack: api.games.NewGame(
        game_pb.NewGameRequest(game=GAME, content_pack=pack, setup=pos_pb.GameSetup(players=PLAYERS)),
        timeout=30,
    ),
    "GetContent": lambda api, pack: api.games.GetContent(
        game_pb.GetContentRequest(game=GAME, content_pack=pack), timeout=30
    ),
    "GetSchema": lambda api, pack: api.games.GetSchema(
        game_pb.GetSchemaRequest(game=GAME, content_pack=pack), timeout=30
    ),
}
"""RPCs naming a pack in a top-level ``content_pack`` field."""

IN_POSITION: dict[str, Call] = {
    "GetLegalActions": lambda api, pack: api.games.GetLegalActions(
        game_pb.GetLegalActionsRequest(position=_position(pack)), timeout=30
    ),
    "ApplyAction": lambda api, pack: api.games.ApplyAction(
        game_pb.ApplyActionRequest(position=_position(pack), action=pos_pb.Action(text="pass")), timeout=30
    ),
    "ValidateState": lambda api, pack: api.games.ValidateState(
        game_pb.ValidateStateRequest(position=_position(pack)), timeout=30
    ),
    "Describe": lambda api, pack: api.games.Describe(
        game_pb.DescribeRequest(position=_position(pack)), timeout=30
    ),
    "Render": lambda api, pack: api.games.Render(game_pb.RenderRequest(position=_position(pack)), timeout=30),
    "DescribeAction": lambda api, pack: api.games.DescribeAction(
        game_pb.DescribeActionRequest(position=_position(pack), action=pos_pb.Action(text="pass")), timeout=30
    ),
    "SuggestAction": lambda api, pack: api.advisor.SuggestAction(
        advisor_pb.SuggestActionRequest(position=_position(pack), budget=_budget()), timeout=30
    ),
    "Hint": lambda api, pack: api.advisor.Hint(
        advisor_pb.HintRequest(position=_position(pack), budget=_budget()), timeout=30
    ),
    "Analyze": lambda api, pack: list(
        api.advisor.Analyze(advisor_pb.AnalyzeRequest(position=_position(pack), budget=_budget()), timeout=30)
    ),
    "Score": lambda api, pack: api.solver.Score(solver_pb.ScoreRequest(position=_position(pack)), timeout=30),
}
"""RPCs naming a pack in ``position.content_pack``."""

RPCS: dict[str, tuple[Call, str]] = {
    **{name: (call, "content_pack") for name, call in TOP_LEVEL.items()},
    **{name: (call, "position.content_pack") for name, call in IN_POSITION.items()},
}


def _refused(api: Stubs, rpc: str, pack: str, tree: dict[str, Path]) -> tuple[grpc.RpcError, str]:
    """Call ``rpc`` naming ``pack``: INVALID_ARGUMENT naming the pack field, no server path shown.

    Returns the error and its BadRequest description.
    """
    call, field = RPCS[rpc]
    with pytest.raises(grpc.RpcError) as caught:
        call(api, pack)
    err = caught.value
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT, (rpc, pack[:40], err.code(), err.details())
    found = violations(err)
    assert found and found[0][0] == field, (rpc, found)
    assert error_info(err).get("field") == field
    status = rpc_status.from_call(err)
    shown = [err.details() or "", *(str(v) for v in found), str(error_info(err))]
    raw = status.SerializeToString().decode("latin-1") if status is not None else ""
    shown, raw = [t.replace(pack, "<sent>") for t in shown], raw.replace(pack, "<sent>")  # (its own input)
    for secret in (str(tree["base"]), str(tree["root"]), str(tree["outside"]), str(REFERENCE.parent)):
        for text in (*shown, raw):
            assert secret not in text, (rpc, pack[:40], text[:300])
    assert not re.search(r"(^|[\s'\"(])/(tmp|home|root|work|srv|var|etc)/", " ".join(shown)), shown
    return err, found[0][1]


# ------------------------------------------------------------------------------------- good packs
@pytest.mark.parametrize("pack", ["good", "season2/promo"])
def test_a_pack_under_the_root_loads_for_every_rpc(api, pack):
    """A valid name of a real pack (one or two parts) works for every RPC that takes a pack."""
    reply = TOP_LEVEL["NewGame"](api, pack)
    assert reply.position.content_pack == pack  # the client's name, never the server's path
    for name in ("GetContent", "GetSchema"):
        TOP_LEVEL[name](api, pack)
    legal = IN_POSITION["GetLegalActions"](api, pack)
    assert legal.actions
    assert IN_POSITION["ValidateState"](api, pack).valid
    IN_POSITION["Describe"](api, pack)
    IN_POSITION["Score"](api, pack)


# -------------------------------------------------------------------------------------- bad names
BAD_NAMES = {
    "nul": "a\x00b",
    "control": "bad\nname",
    "256": "x" * 256,
    "300": "x" * 300,
    "5000": "x" * 5000,
    "parent": "..",
    "up_and_back": "good/../good",
    "escape": "../root/good",
    "dot": "./good",
    "absolute": "/etc",
    "empty_part": "season2//promo",
    "trailing_slash": "good/",
    "backslash": "good\\x",
    "too_many_parts": "/".join("a" * 9),
    "long_part": "p" * 100,
    "space": "my pack",
    "unicode": "pāck",
}


@pytest.mark.parametrize("rpc", sorted(RPCS))
@pytest.mark.parametrize("label", sorted(BAD_NAMES))
def test_a_bad_pack_name_is_refused_naming_the_field(api, tree, rpc, label):
    """NUL, control chars, 256+ chars, '..', absolute paths...: INVALID_ARGUMENT, never INTERNAL."""
    _, description = _refused(api, rpc, BAD_NAMES[label], tree)
    if len(BAD_NAMES[label]) <= 256:  # (longer ones are stopped by the request's field cap)
        assert "letters, digits" in description, description


@pytest.mark.parametrize("rpc", ["NewGame", "GetLegalActions", "Score"])
def test_an_absolute_path_to_a_real_pack_is_refused(api, tree, rpc):
    """Even a path that does lead to a pack under the root: a pack is named relative to the root."""
    _refused(api, rpc, str(tree["root"] / "good"), tree)


# ----------------------------------------------------------------------------------- missing packs
MISSING = ["missing", "empty", "afile", "linkdir", "season3/promo", "good/careers.json", "deeper/missing"]


@pytest.mark.parametrize("rpc", sorted(RPCS))
def test_every_kind_of_missing_pack_reads_the_same(api, tree, rpc):
    """A missing directory, one without pack.json, a file or a symlink: one message, the name aside."""
    messages = set()
    for pack in MISSING:
        err, description = _refused(api, rpc, pack, tree)
        assert repr(pack) in description
        messages.add(description.replace(repr(pack), "<pack>"))
        messages.add(err.details().replace(repr(pack), "<pack>"))
    assert len(messages) == 2, messages  # one description and one status message, for every pack


# ----------------------------------------------------------------------------------- broken packs
@pytest.mark.parametrize("rpc", sorted(RPCS))
def test_a_symlinked_pack_file_is_not_followed(api, tree, rpc):
    """A pack file (or pack.json) that is a symlink, even to a valid file, is refused."""
    for pack in ("linkfile", "linkmanifest"):
        _, description = _refused(api, rpc, pack, tree)
        assert repr(pack) in description


@pytest.mark.parametrize("rpc", sorted(RPCS))
def test_a_deeply_nested_pack_file_is_refused(api, tree, rpc):
    """A pack file 50,000 arrays deep: INVALID_ARGUMENT naming the pack and the file, not INTERNAL."""
    _, description = _refused(api, rpc, "deep", tree)
    assert "'deep'" in description and "careers.json" in description and "deep" in description


@pytest.mark.parametrize("rpc", sorted(RPCS))
def test_an_oversized_pack_file_is_refused(api, tree, rpc):
    """A pack file over the size cap is refused before it is parsed."""
    _, description = _refused(api, rpc, "big", tree)
    assert "'big'" in description and "careers.json" in description and "bytes" in description


@pytest.mark.parametrize("rpc", ["NewGame", "GetLegalActions"])
def test_a_pack_with_too_many_files_is_refused(api, tree, rpc):
    """A pack directory holding more entries than the file cap."""
    _, description = _refused(api, rpc, "crowded", tree)
    assert "'crowded'" in description and "files" in description


def test_a_bad_pack_is_answered_from_memory_until_it_changes(api, tree, monkeypatch):
    """A pack that failed is not loaded again while its files are unchanged; a fixed pack loads."""
    from games.core import get_game as real

    loads = []

    def counting(name, *, content_path=""):
        if content_path:
            loads.append(content_path)
        return real(name, content_path=content_path)

    monkeypatch.setattr("service.convert.get_game", counting)
    root = tree["root"]
    _copy(root / "fixme")
    careers = root / "fixme" / "careers.json"
    good_text = careers.read_text()
    careers.write_text("{not json")
    for _ in range(5):
        _refused(api, "NewGame", "fixme", tree)
    assert len(loads) == 1, loads
    careers.write_text(good_text)
    assert TOP_LEVEL["NewGame"](api, "fixme").position.content_pack == "fixme"
    assert len(loads) == 2, loads
