"""Build the compiled accelerator of a package with mypyc (``make fast``; docs/compiled.md).

``python tools/build_compiled.py [--package games.ti4 ...] [--force] [--if-possible] [--quiet]``

Without ``--package`` it builds every package that opts in (``COMPILED`` in its ``__init__``, naming
its compiled modules: the games, ``games.core.compiled.opted_in``, then ``search``), one after the
other. For each, the tool copies those modules and every module of this checkout they import (the
type information mypyc compiles against) to ``build/compiled/.work/<package>/src`` (no pyproject.toml
there: the venv's setuptools never reads ours), runs mypyc there, keeps only the extension modules
in ``build/compiled/<package>/`` and writes the manifest (the sha256 of every copied source, the
interpreter, mypy's version). Nothing is written next to the sources. A fresh build is left alone
(``--force`` rebuilds).

It ends with one line per package saying the mode the package will run in (``--quiet``: only that
line; mypyc's output goes to ``build/compiled/.work/<package>/build.log``). Exit status: 0 built or
up to date; 1 the build failed; 2 it cannot be built here (no mypy, no C compiler, no Python
headers). ``--if-possible``: that last case exits 0 (the package runs pure Python); ``--or-pure``:
a failed build too (``make serve``).
"""

from __future__ import annotations

import argparse
import ast
import fcntl
import importlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

USER_PURE = os.environ.get("LICTOR_PURE", "")
os.environ["LICTOR_PURE"] = "1"  # this process reads the sources, never loads the build

from games.core import compiled  # noqa: E402


class CannotBuildError(Exception):
    """This machine lacks what a build needs."""


def module_file(root: Path, name: str) -> Path | None:
    """The source file of module ``name`` under ``root`` (None: not a source there)."""
    base = root / name.replace(".", "/")
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _imported(root: Path, tree: ast.AST, name: str, is_package: bool) -> set[str]:
    """The modules the import statements of module ``name`` name (``from p import m``: ``p.m``
    when it is a module, else ``p``)."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = name.split(".")
                keep = len(parts) - node.level + (1 if is_package else 0)
                base = ".".join(parts[:keep] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                out.add(sub if module_file(root, sub) else base)
    return out


def closure(root: Path, modules: list[str], *, parents: bool) -> list[Path]:
    """The sources ``modules`` depend on: them and every module under ``root`` they import (of
    their own top-level package or another one of this checkout: ``search`` imports ``games.core``),
    transitively. ``parents``: also the packages above each (their ``__init__`` and what it imports),
    which mypy reads too; without, the sources whose types the compiled code relies on."""
    seen: dict[str, Path] = {}
    todo = list(modules)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        path = module_file(root, name)
        if path is None:
            continue
        seen[name] = path
        if parents:
            parts = name.split(".")
            todo += [".".join(parts[:i]) for i in range(1, len(parts))]
        tree = ast.parse(path.read_bytes(), str(path))
        todo += _imported(root, tree, name, path.name == "__init__.py")
    return sorted(seen.values())


def opted_in() -> tuple[str, ...]:
    """Every package that opts in: the game packages (:func:`games.core.compiled.opted_in`), then the
    top-level packages of this checkout whose ``__init__`` assigns ``COMPILED`` (``search``)."""
    tops = (
        init.parent.name for init in sorted(ROOT.glob("*/__init__.py")) if compiled.assigns_compiled(init)
    )
    return compiled.opted_in() + tuple(tops)


def preflight() -> str:
    """mypy's version; raises :class:`CannotBuildError` saying what is missing."""
    try:
        from importlib import metadata

        import mypyc  # noqa: F401

        version = metadata.version("mypy")
    except ImportError as err:
        raise CannotBuildError(f"mypy is not installed ({err}): pip install -e '.[fast]'") from err
    cc = os.environ.get("CC") or str(sysconfig.get_config_var("CC") or "cc")
    exe = shlex.split(cc)[0] if cc.strip() else "cc"
    if shutil.which(exe) is None:
        raise CannotBuildError(f"no C compiler ({exe!r} not found; install gcc or set CC)")
    header = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not header.is_file():
        raise CannotBuildError(f"no Python headers ({header} is missing; install python3-dev)")
    return version


def build(package: str, modules: tuple[str, ...], force: bool, quiet: bool) -> str:
    """Build ``package`` (a no-op when fresh; one build at a time); returns a line saying what was
    done."""
    builds = _locate(package)[1].parent
    builds.mkdir(parents=True, exist_ok=True)
    with (builds / ".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _build(package, modules, force, quiet)


def _locate(package: str) -> tuple[Path, Path]:
    """(the sources' root, the build directory) of ``package`` (imported for its location)."""
    return compiled.locate(package, importlib.import_module(package).__file__ or "")


def _build(package: str, modules: tuple[str, ...], force: bool, quiet: bool) -> str:
    root, target = _locate(package)
    why, _ = compiled.check(package, modules, root, target)
    if not why and not force:
        return f"{package}: compiled build up to date ({target})"
    mypy_version = preflight()
    names = [f"{package}.{m}" for m in modules]
    work = target.parent / ".work" / package
    shutil.rmtree(work, ignore_errors=True)
    src = work / "src"
    digests = _stage(root, names, src)
    started = time.monotonic()
    _mypyc(src, [n.replace(".", "/") + ".py" for n in names], log=work / "build.log", quiet=quiet)
    lib = _shared_lib(src)
    manifest = {
        "format": compiled.FORMAT,
        "package": package,
        "modules": list(modules),
        "interpreter": compiled.interpreter(),
        "mypy": mypy_version,
        "shared_lib": f"lib/{lib.name}",
        "sources": digests,
        "built": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    _install(package, modules, src, lib=lib, target=target, manifest=manifest)
    took = time.monotonic() - started
    return (
        f"{package}: compiled {len(modules)} modules with mypyc {mypy_version} in {took:.0f} s "
        f"({len(digests)} sources hashed) -> {target}"
    )


def _stage(root: Path, names: list[str], src: Path) -> dict[str, str]:
    """Copy the modules ``names`` and everything they import from ``root`` (with their parent
    packages) to ``src``; returns the SHA-256 of each copied source the build depends on (by path
    relative to ``root``), which the loader checks against the tree."""
    sources = closure(root, names, parents=True)
    hashed = set(closure(root, names, parents=False))
    digests: dict[str, str] = {}
    for path in sources:
        rel = path.relative_to(root).as_posix()
        copy = src / rel
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_bytes(path.read_bytes())
        if path in hashed:
            digests[rel] = compiled.sha256(copy)
    # mypy looks for a config up to the repository's root: this one stops it. Defaults, and the
    # modules not compiled are read for their types only (their errors are not the build's).
    (src / "mypy.ini").write_text("[mypy]\nfollow_imports = silent\n")
    return digests


def _mypyc(src: Path, files: list[str], *, log: Path, quiet: bool) -> None:
    """Run mypyc on ``files`` in ``src`` (its output to ``log`` when ``quiet``).

    Raises:
        RuntimeError: mypyc failed.
    """
    with log.open("w") as out:
        proc = subprocess.run(
            [sys.executable, "-m", "mypyc", *files],
            cwd=src,
            stdout=out if quiet else None,
            stderr=subprocess.STDOUT if quiet else None,
            env={**os.environ, "MYPYC_OPT_LEVEL": os.environ.get("MYPYC_OPT_LEVEL", "3")},
            check=False,
        )
    if proc.returncode:
        raise RuntimeError(f"mypyc failed (exit {proc.returncode})" + (f"; see {log}" if quiet else ""))


def _shared_lib(src: Path) -> Path:
    """The one shared library mypyc made in ``src``.

    Raises:
        RuntimeError: mypyc made none, or several.
    """
    libs = sorted(src.glob(f"*__mypyc{compiled.interpreter()['ext_suffix']}"))
    if len(libs) != 1:
        raise RuntimeError(f"expected one mypyc shared library in {src}, found {libs}")
    return libs[0]


def _install(
    package: str, modules: tuple[str, ...], src: Path, *, lib: Path, target: Path, manifest: dict[str, object]
) -> None:
    """Put the build made in ``src`` at ``target``: the shared library ``lib``, the modules'
    extensions and ``manifest``, swapped in whole."""
    builds = target.parent
    suffix = compiled.interpreter()["ext_suffix"]
    fresh = builds / f".{package}.new"
    shutil.rmtree(fresh, ignore_errors=True)
    (fresh / "lib").mkdir(parents=True)
    (fresh / "pkg").mkdir()
    shutil.copy2(lib, fresh / "lib" / lib.name)
    pkg_src = src / package.replace(".", "/")
    for m in modules:
        shutil.copy2(pkg_src / f"{m}{suffix}", fresh / "pkg" / f"{m}{suffix}")
    (fresh / compiled.MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n")
    # Swap the new build in; a process that loaded the old one keeps its mapped files.
    old = builds / f".{package}.old"
    shutil.rmtree(old, ignore_errors=True)
    if target.exists():
        target.rename(old)
    fresh.rename(target)
    shutil.rmtree(old, ignore_errors=True)


def mode_line(package: str, modules: tuple[str, ...], failure: str = "") -> str:
    """The mode ``package`` runs in with this build, as :func:`games.core.compiled.activate` sees it
    (``failure``: why the build was not made, shown instead of the loader's reason)."""
    root, target = _locate(package)
    why, _ = compiled.check(package, modules, root, target)
    if USER_PURE not in ("", "0"):
        why = f"LICTOR_PURE={USER_PURE}"
    elif why and failure:
        why = failure
    try:
        shown = target.relative_to(root)
    except ValueError:
        shown = target
    if why:
        return f"{package}: pure Python ({why})"
    return f"{package}: compiled (mypyc, {len(modules)} modules, {shown})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python tools/build_compiled.py",
        description="Build a package's compiled accelerator with mypyc (docs/compiled.md).",
    )
    parser.add_argument(
        "--package", action="append", help="package to build (default: every package with COMPILED)"
    )
    parser.add_argument("--force", action="store_true", help="rebuild even when the build is fresh")
    parser.add_argument(
        "--if-possible", action="store_true", help="exit 0 (pure Python) when it cannot be built here"
    )
    parser.add_argument("--or-pure", action="store_true", help="exit 0 (pure Python) when the build fails")
    parser.add_argument("--quiet", action="store_true", help="print only the mode line of each package")
    args = parser.parse_args(argv)
    status = 0
    for package in args.package or opted_in():
        failure = ""
        modules = tuple(getattr(importlib.import_module(package), "COMPILED", ()))
        if not modules:
            print(f"{package} names no COMPILED modules", file=sys.stderr)
            return 1
        try:
            done = build(package, modules, args.force, args.quiet)
            if not args.quiet:
                print(done, flush=True)
        except CannotBuildError as err:
            failure = f"cannot compile here: {err}"
            if not (args.if_possible or args.or_pure):
                status = 2
        except RuntimeError as err:
            failure = f"the compiled build failed: {err}"
            if not args.or_pure:
                status = 1
        if failure and (status or not args.quiet):
            print(f"{package}: {failure}", file=sys.stderr)
        print(mode_line(package, modules, failure), flush=True)
    return status


if __name__ == "__main__":
    raise SystemExit(main())
