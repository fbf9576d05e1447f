"""The content pack loader's caps (issue 27): size, nesting depth, entries, no symlinks, no paths.

Every refusal is a ContentError naming the file relative to its pack, never a RecursionError,
OSError or ValueError, and never a directory of the machine.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from games.core.content import (
    MAX_PACK_FILE_BYTES,
    MAX_PACK_FILES,
    MAX_PACK_JSON_DEPTH,
    NO_PACK,
    check_pack_dir,
    json_depth,
    load_json,
    resolve_pack_dir,
)
from games.core.registry import BUILTIN_GAMES
from games.errors import ContentError

GAMES_DIR = Path(__file__).resolve().parents[2] / "games"


def _error(path: Path) -> ContentError:
    with pytest.raises(ContentError) as err:
        load_json(path)
    exc = err.value
    assert exc.file == path.name
    assert str(path.parent) not in str(exc) and str(path.parent) not in exc.message
    return exc


@pytest.mark.parametrize("depth", [MAX_PACK_JSON_DEPTH + 1, 1_000, 50_000])
def test_too_deep_a_file_is_a_content_error(tmp_path, depth):
    f = tmp_path / "deep.json"
    f.write_text("[" * depth + "]" * depth)
    assert "deeper than" in _error(f).message
    g = tmp_path / "deep_objects.json"
    g.write_text('{"a":' * depth + "1" + "}" * depth)
    assert "deeper than" in _error(g).message


def test_depth_at_the_cap_loads(tmp_path):
    f = tmp_path / "ok.json"
    f.write_text("[" * MAX_PACK_JSON_DEPTH + "]" * MAX_PACK_JSON_DEPTH)
    assert json_depth(load_json(f).value, MAX_PACK_JSON_DEPTH) == MAX_PACK_JSON_DEPTH


def test_json_depth_counts_without_recursion():
    deep: list[object] = []
    cur = deep
    for _ in range(100_000):  # far past the recursion limit
        nxt: list[object] = []
        cur.append(nxt)
        cur = nxt
    assert json_depth(deep, 40) == 41
    assert json_depth({"a": [1, {"b": []}]}, 40) == 4
    assert json_depth(7, 40) == 0


def test_an_oversized_file_is_refused_before_parsing(tmp_path):
    f = tmp_path / "big.json"
    f.write_text("[" + " " * MAX_PACK_FILE_BYTES + "]")
    assert "bytes" in _error(f).message


def test_bad_bytes_and_huge_integers_are_content_errors(tmp_path):
    f = tmp_path / "latin.json"
    f.write_bytes(b'{"name": "caf\xe9"}')
    assert "UTF-8" in _error(f).message
    g = tmp_path / "digits.json"
    g.write_text("1" * 5000)
    assert "not valid JSON" in _error(g).message


def test_a_symlinked_file_is_not_followed(tmp_path):
    outside = tmp_path / "outside.json"
    outside.write_text(json.dumps({"secret": 1}))
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "cards.json").symlink_to(outside)
    assert "symbolic link" in _error(pack / "cards.json").message


def test_a_fifo_is_refused_without_blocking(tmp_path):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    f = tmp_path / "fifo.json"
    os.mkfifo(f)
    assert "regular file" in _error(f).message


def test_a_missing_file_names_only_the_file(tmp_path):
    assert "cannot read" in _error(tmp_path / "nope.json").message


def _pack(at: Path) -> Path:
    at.mkdir(parents=True)
    (at / "pack.json").write_text(json.dumps({"name": "p", "version": "1", "authored": True}))
    return at


def test_check_pack_dir_one_message_for_every_missing_pack(tmp_path):
    real = _pack(tmp_path / "real")
    check_pack_dir(real)
    (tmp_path / "empty").mkdir()
    (tmp_path / "file").write_text("x")
    (tmp_path / "link").symlink_to(real, target_is_directory=True)
    manifest_link = tmp_path / "manifest_link"
    manifest_link.mkdir()
    (manifest_link / "pack.json").symlink_to(real / "pack.json")
    for name in ("missing", "empty", "file", "link", "manifest_link"):
        with pytest.raises(ContentError) as err:
            resolve_pack_dir("games", str(tmp_path / name))
        assert err.value.message == NO_PACK, name


def test_a_pack_with_too_many_entries_is_refused(tmp_path):
    pack = _pack(tmp_path / "crowded")
    for i in range(MAX_PACK_FILES):
        (pack / f"f{i}.json").write_text("{}")
    with pytest.raises(ContentError, match=f"at most {MAX_PACK_FILES} files"):
        check_pack_dir(pack)


@pytest.mark.parametrize("name", sorted(BUILTIN_GAMES))
def test_reference_packs_hold_no_symlink_and_pass_the_caps(tmp_path, name):
    """The shipped packs load as user packs: no symlinks, within every cap."""
    src = GAMES_DIR / name / "content"
    assert not any(p.is_symlink() for p in [src, *src.rglob("*")])
    check_pack_dir(src)
    for f in src.glob("*.json"):
        assert f.stat().st_size <= MAX_PACK_FILE_BYTES
        load_json(f)
    from games.core import get_game

    dst = tmp_path / "copy"
    shutil.copytree(src, dst)
    assert get_game(name, content_path=str(dst)).info.name == name
