"""The compiled accelerator (games/core/compiled.py, docs/compiled.md): the loader picks pure Python
unless the build matches the sources and the interpreter, and every package's fresh build plays the
same games as pure Python."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from games.core import compiled, get_game

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


# ------------------------------------------------------------------ every package's build
def test_every_game_opts_in_with_modules_that_exist() -> None:
    """The five games name their compiled modules; ``make fast`` builds exactly these packages."""
    packages = compiled.opted_in()
    assert packages == ("games.cyberverse", "games.cytress", "games.ti4", "games.tiberius", "games.tiberpunk")
    for package in packages:
        modules = importlib.import_module(package).COMPILED
        assert modules and len(set(modules)) == len(modules)
        assert all((ROOT / package.replace(".", "/") / f"{m}.py").is_file() for m in modules)


PLAYERS = {"cytress": (1, 3), "tiberius": (3, 6)}
"""Player counts other than the game's fewest and most."""
OPTIONS = {"cyberverse": {"max_turns": 12}}
"""Random play ends CyberVerse only by its opt-in turn cap."""

PLAYOUTS = """
import hashlib, json, random, re, sys
from games.core import CHANCE, TERMINAL, GameConfig, compiled, get_game

name, players_list, options = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
game = get_game(name)
greedy = game.policies().get("greedy")
traces = {}
for players in players_list:
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_state(GameConfig(players=players, options=options), seed)
        digest = hashlib.sha256(game.state_to_text(state).encode())
        steps = 0
        while (seat := game.current_player(state)) != TERMINAL:
            if seat == CHANCE:
                action = game.sample_chance(state, rng)
            else:
                if steps % 25 == 0:  # what a search calls at a node, now and then
                    digest.update(repr((game.heuristic(state), game.prior(state))).encode())
                    seen = game.sample_state(game.observation(state, seat), seat, random.Random(steps))
                    digest.update(game.state_to_text(seen).encode())
                if seed == 0 and seat == 0 and greedy is not None:
                    action = greedy(state, rng)
                else:
                    action = rng.choice(list(game.legal_actions(state)))
            state = game.apply(state, action)
            # every field (the text form is slow in long games), without the address of an object
            digest.update(re.sub(" at 0x[0-9a-f]+", "", repr(state)).encode())
            if steps % 50 == 0:
                digest.update(game.state_to_text(state).encode())
            steps += 1
        digest.update(game.state_to_text(state).encode())
        traces[f"{players}p seed {seed}"] = [steps, digest.hexdigest(), list(game.returns(state))]
package = f"games.{name}"
status = compiled.registered()[package]
files = [sys.modules[f"{package}.{m}"].__file__ for m in status.modules if f"{package}.{m}" in sys.modules]
json.dump({"mode": status.mode, "reason": status.reason, "files": files, "traces": traces}, sys.stdout)
"""


def _playouts(game: str, players: tuple[int, ...], *, pure: bool) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != compiled.PURE_ENV}
    env["PYTHONHASHSEED"] = "0"  # the same order of any set in a repr in both children
    if pure:
        env[compiled.PURE_ENV] = "1"
    args = [sys.executable, "-c", PLAYOUTS, game, json.dumps(players), json.dumps(OPTIONS.get(game, {}))]
    out = subprocess.run(args, check=False, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    result: dict[str, object] = json.loads(out.stdout)
    return result


@pytest.mark.parametrize("package", compiled.opted_in())
def test_a_compiled_package_plays_the_same_games_as_pure_python(package: str) -> None:
    """Seeded games at the fewest and the most players, whole, random but for a greedy seat 0 in the
    first: compiled and pure Python reach the same positions one after the other (each state's repr,
    its text every 50 steps and at the end), with the same heuristic, priors, determinizations and
    returns; the compiled child ran the extension modules."""
    module = importlib.import_module(package)
    modules = tuple(module.COMPILED)
    root, build = compiled.locate(package, module.__file__ or "")
    why, _ = compiled.check(package, modules, root, build)
    if why:
        pytest.skip(f"no fresh compiled build of {package}: {why}")
    name = package.removeprefix("games.")
    info = get_game(name).info
    players = PLAYERS.get(name, (info.min_players, info.max_players))
    fast = _playouts(name, players, pure=False)
    slow = _playouts(name, players, pure=True)
    assert (fast["mode"], fast["reason"]) == ("compiled", "")
    assert (slow["mode"], slow["reason"]) == ("pure", "LICTOR_PURE=1")
    assert isinstance(fast["files"], list) and fast["files"]
    assert all(str(f).endswith(SUFFIX) for f in fast["files"])
    assert isinstance(slow["files"], list) and all(str(f).endswith(".py") for f in slow["files"])
    assert isinstance(fast["traces"], dict) and len(fast["traces"]) == 3 * len(players)
    assert fast["traces"] == slow["traces"]


# ------------------------------------------------------------------ the search's build
SEARCHES = """
import hashlib, json, random, sys
from games.core import CHANCE, TERMINAL, GameConfig, compiled, get_game
import search
from search import ISMCTS, MCTS, SearchLimit, SearchOptions
from search.api import level

results = {}
for name, players, moves in (("tiberpunk", 2, 20), ("cytress", 3, 20)):
    game = get_game(name)
    rng = random.Random(7)
    state = game.new_state(GameConfig(players=players), 7)
    for _ in range(moves):  # a position some random moves in, a seat to move
        seat = game.current_player(state)
        legal = game.legal_actions(state)
        state = game.apply(state, game.sample_chance(state, rng) if seat == CHANCE else rng.choice(legal))
    while game.current_player(state) == CHANCE:
        state = game.apply(state, game.sample_chance(state, rng))
    runs = {
        "ismcts": (ISMCTS, level(7).options_for(game)),
        "ismcts pooled": (ISMCTS, SearchOptions(determinizations=8)),
        "mcts": (MCTS, SearchOptions(rollout_depth=4)),
    }
    for kind, (engine_type, options) in runs.items():
        for seed in (1, 2):
            engine = engine_type(game, options=options)
            analysis = engine.search(state, limit=SearchLimit(simulations=300), seed=seed)
            data = analysis.to_dict()
            del data["elapsed_s"]
            results[f"{name} {players}p {kind} seed {seed}"] = {
                "move": analysis.best.text,
                "visits": [[c.text, c.visits] for c in analysis.candidates],
                "digest": hashlib.sha256(repr(sorted(data.items())).encode()).hexdigest(),
            }
status = compiled.registered()["search"]
files = [sys.modules[f"search.{m}"].__file__ for m in status.modules]
json.dump({"mode": status.mode, "reason": status.reason, "files": files, "results": results}, sys.stdout)
"""


def _searches(*, pure: bool) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != compiled.PURE_ENV}
    env["PYTHONHASHSEED"] = "0"
    if pure:
        env[compiled.PURE_ENV] = "1"
    out = subprocess.run(
        [sys.executable, "-c", SEARCHES],
        check=False,
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr
    result: dict[str, object] = json.loads(out.stdout)
    return result


def test_the_search_opts_in_and_make_builds_it() -> None:
    """``search`` names its compiled modules, and the build tool's default list includes it."""
    import search

    assert search.COMPILED and all((ROOT / "search" / f"{m}.py").is_file() for m in search.COMPILED)
    assert compiled.assigns_compiled(ROOT / "search" / "__init__.py")
    assert not compiled.assigns_compiled(ROOT / "solver" / "__init__.py")


def test_the_compiled_search_chooses_as_pure_python() -> None:
    """Seeded searches (ISMCTS at level 7's options, pooled ISMCTS, MCTS with rollouts) on Tiberpunk
    2p and Cytress 3p: the compiled search and pure Python choose the same move with the same visit
    counts, and the same analysis field for field (values float for float); the compiled child ran
    the extension modules."""
    import search

    root, build = compiled.locate("search", search.__file__ or "")
    why, _ = compiled.check("search", tuple(search.COMPILED), root, build)
    if why:
        pytest.skip(f"no fresh compiled build of search: {why}")
    fast = _searches(pure=False)
    slow = _searches(pure=True)
    assert (fast["mode"], fast["reason"]) == ("compiled", "")
    assert (slow["mode"], slow["reason"]) == ("pure", "LICTOR_PURE=1")
    assert isinstance(fast["files"], list) and all(str(f).endswith(SUFFIX) for f in fast["files"])
    assert isinstance(slow["files"], list) and all(str(f).endswith(".py") for f in slow["files"])
    assert isinstance(fast["results"], dict) and len(fast["results"]) == 12
    assert fast["results"] == slow["results"]
