"""The compiled accelerator (games/core/compiled.py, docs/compiled.md): the loader picks pure Python
unless the build matches the sources and the interpreter, and a fresh CyberVerse build plays the same
games as pure Python."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from games.core import compiled

ROOT = Path(__file__).resolve().parents[2]
SUFFIX = compiled.interpreter()["ext_suffix"]


# ------------------------------------------------------------------ the loader, on a fake build
def _fake(tmp_path: Path) -> tuple[Path, Path, tuple[str, ...]]:
    """A package ``fakepkg`` with modules a and b under ``tmp_path/src`` and a build of it (empty
    files where the extension modules would be) under ``tmp_path/builds``."""
    src = tmp_path / "src"
    (src / "fakepkg").mkdir(parents=True)
    (src / "fakepkg" / "__init__.py").write_text("")
    (src / "fakepkg" / "a.py").write_text("A = 1\n")
    (src / "fakepkg" / "b.py").write_text("B = 2\n")
    builds = tmp_path / "builds"
    build = builds / "fakepkg"
    (build / "lib").mkdir(parents=True)
    (build / "pkg").mkdir()
    lib = f"lib/fake0123__mypyc{SUFFIX}"
    (build / lib).write_bytes(b"")
    modules = ("a", "b")
    for m in modules:
        (build / "pkg" / f"{m}{SUFFIX}").write_bytes(b"")
    manifest = {
        "format": compiled.FORMAT,
        "package": "fakepkg",
        "modules": list(modules),
        "interpreter": compiled.interpreter(),
        "mypy": "2.4.1",
        "shared_lib": lib,
        "sources": {f"fakepkg/{m}.py": compiled.sha256(src / "fakepkg" / f"{m}.py") for m in modules},
    }
    (build / "manifest.json").write_text(json.dumps(manifest))
    return src, builds, modules


def _activate(src: Path, modules: tuple[str, ...]) -> tuple[compiled.Status, list[str]]:
    path = [str(src / "fakepkg")]
    status = compiled.activate("fakepkg", path, modules, package_file=str(src / "fakepkg" / "__init__.py"))
    return status, path


@pytest.fixture
def fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path, tuple[str, ...]]:
    src, builds, modules = _fake(tmp_path)
    monkeypatch.setenv(compiled.DIR_ENV, str(builds))
    monkeypatch.delenv(compiled.PURE_ENV, raising=False)
    monkeypatch.setattr(compiled, "_STATUS", {})
    return src, builds, modules


def test_a_matching_manifest_passes_the_check(fake: tuple[Path, Path, tuple[str, ...]]) -> None:
    src, builds, modules = fake
    assert compiled.check("fakepkg", modules, src, builds / "fakepkg")[0] == ""


def test_lictor_pure_forces_pure_python(
    fake: tuple[Path, Path, tuple[str, ...]], monkeypatch: pytest.MonkeyPatch
) -> None:
    src, _, modules = fake
    monkeypatch.setenv(compiled.PURE_ENV, "1")
    status, path = _activate(src, modules)
    assert (status.mode, status.reason) == ("pure", "LICTOR_PURE=1")
    assert path == [str(src / "fakepkg")]
    assert compiled.mode("fakepkg") == "pure" and compiled.reason("fakepkg") == "LICTOR_PURE=1"


def test_no_manifest_is_pure_python(fake: tuple[Path, Path, tuple[str, ...]]) -> None:
    src, builds, modules = fake
    (builds / "fakepkg" / "manifest.json").unlink()
    status, path = _activate(src, modules)
    assert status.mode == "pure" and status.reason.startswith("no build")
    assert path == [str(src / "fakepkg")]


def test_one_changed_source_is_pure_python_naming_it(fake: tuple[Path, Path, tuple[str, ...]]) -> None:
    src, _, modules = fake
    (src / "fakepkg" / "b.py").write_text("B = 3\n")
    status, path = _activate(src, modules)
    assert (status.mode, status.reason) == ("pure", "stale: fakepkg/b.py changed since the build (make fast)")
    assert path == [str(src / "fakepkg")]


def test_another_module_list_or_interpreter_is_pure_python(
    fake: tuple[Path, Path, tuple[str, ...]],
) -> None:
    src, builds, modules = fake
    assert "list of compiled modules" in _activate(src, ("a",))[0].reason
    manifest_file = builds / "fakepkg" / "manifest.json"
    manifest = json.loads(manifest_file.read_text())
    manifest["interpreter"]["version"] = "3.0.0"
    manifest_file.write_text(json.dumps(manifest))
    assert _activate(src, modules)[0].reason.startswith("built for another interpreter (version")


def test_a_corrupt_manifest_is_pure_python(fake: tuple[Path, Path, tuple[str, ...]]) -> None:
    src, builds, modules = fake
    manifest_file = builds / "fakepkg" / "manifest.json"
    manifest = json.loads(manifest_file.read_text())
    manifest["interpreter"] = "cpython"
    manifest_file.write_text(json.dumps(manifest))
    assert _activate(src, modules)[0].reason.startswith("unreadable manifest")
    manifest_file.write_text("{")
    assert _activate(src, modules)[0].reason.startswith("unreadable manifest")


def test_a_build_that_does_not_load_is_pure_python(fake: tuple[Path, Path, tuple[str, ...]]) -> None:
    """The manifest matches but the shared library is no extension module (an empty file here)."""
    src, _, modules = fake
    before = list(sys.path)
    status, path = _activate(src, modules)
    assert status.mode == "pure" and status.reason.startswith("the build does not load")
    assert path == [str(src / "fakepkg")] and sys.path == before


# ------------------------------------------------------------------ the CyberVerse build
PLAYOUTS = """
import hashlib, json, random, sys
from games.core import CHANCE, TERMINAL, GameConfig, compiled
from games.cyberverse import CyberverseGame
import games.cyberverse.engine as engine

game = CyberverseGame()
greedy = game.policies()["greedy"]
traces = {}
for players in (2, 3, 4):
    for seed in range(6):
        rng = random.Random(seed)
        state = game.new_state(GameConfig(players=players, options={"max_turns": 12}), seed)
        digest = hashlib.sha256(game.state_to_text(state).encode())
        steps = 0
        while game.current_player(state) != TERMINAL:
            if game.current_player(state) == CHANCE:
                action = game.sample_chance(state, rng)
            else:
                action = rng.choice(list(game.legal_actions(state)))
            state = game.apply(state, action)
            digest.update(game.state_to_text(state).encode())
            steps += 1
        traces[f"{players}p seed {seed}"] = [steps, digest.hexdigest()]
# The policies, the scoring and the hidden information: seat 0 greedy, the heuristic, the priors and
# a determinization of the seat to play now and then.
for players in (2, 4):
    for seed in range(2):
        rng = random.Random(100 + seed)
        state = game.new_state(GameConfig(players=players, options={"max_turns": 12}), 100 + seed)
        digest = hashlib.sha256()
        steps = 0
        while game.current_player(state) != TERMINAL:
            seat = game.current_player(state)
            if seat == CHANCE:
                action = game.sample_chance(state, rng)
            else:
                if steps % 7 == 0:
                    seen = game.sample_state(game.observation(state, seat), seat, random.Random(steps))
                    digest.update(game.state_to_text(seen).encode())
                    digest.update(repr((game.heuristic(state), game.prior(state))).encode())
                action = greedy(state, rng) if seat == 0 else rng.choice(list(game.legal_actions(state)))
            state = game.apply(state, action)
            digest.update(game.state_to_text(state).encode())
            steps += 1
        traces[f"{players}p greedy seed {100 + seed}"] = [steps, digest.hexdigest(), game.returns(state)]
json.dump({"mode": compiled.mode("games.cyberverse"), "reason": compiled.reason("games.cyberverse"),
           "engine": engine.__file__, "traces": traces}, sys.stdout)
"""


def _playouts(pure: bool) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != compiled.PURE_ENV}
    if pure:
        env[compiled.PURE_ENV] = "1"
    out = subprocess.run(
        [sys.executable, "-c", PLAYOUTS],
        check=False,
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    result: dict[str, object] = json.loads(out.stdout)
    return result


def test_compiled_cyberverse_plays_the_same_games_as_pure_python() -> None:
    """Seeded random games, 2, 3 and 4 players, whole: the same positions one after the other; and a
    few with a greedy seat, the heuristic, the priors and determinizations: the same values."""
    from games import cyberverse

    root, build = compiled.locate("games.cyberverse", cyberverse.__file__ or "")
    why, _ = compiled.check("games.cyberverse", cyberverse.COMPILED, root, build)
    if why:
        pytest.skip(f"no fresh compiled build of games.cyberverse: {why}")
    fast = _playouts(pure=False)
    slow = _playouts(pure=True)
    assert (fast["mode"], fast["reason"]) == ("compiled", "")
    assert str(fast["engine"]).endswith(SUFFIX)
    assert (slow["mode"], slow["reason"]) == ("pure", "LICTOR_PURE=1")
    assert str(slow["engine"]).endswith(".py")
    assert isinstance(fast["traces"], dict) and len(fast["traces"]) == 3 * 6 + 2 * 2
    assert fast["traces"] == slow["traces"]
