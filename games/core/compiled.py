"""Opt-in compiled accelerators (mypyc) for a package's hot modules, never stale.

The pure-Python sources are the source of truth. ``tools/build_compiled.py`` (``make fast``) copies
them to ``build/compiled/`` and compiles chosen modules there with mypyc; the extension modules never
sit next to the ``.py`` files. A package opts in from its ``__init__`` before importing anything else
of itself::

    from games.core import compiled
    compiled.activate(__name__, __path__, ("engine", "flow"))

:func:`activate` puts the build's directory first on the package's ``__path__`` only when the build's
manifest matches the sources exactly (the sha256 of every file the build read: the compiled modules
and every module they were type-checked against) and this interpreter, and ``LICTOR_PURE`` is not
set; otherwise the package runs its pure-Python modules. :func:`mode` tells which, :func:`reason`
why pure. ``python -m games.core.compiled`` prints the mode of the packages that opt in.

Layout of a build (one directory per package, under ``build/compiled/`` or ``$LICTOR_COMPILED_DIR``)::

    <package>/manifest.json            what was compiled, from which sources, for which interpreter
    <package>/lib/<hash>__mypyc.*.so   mypyc's shared library (its directory goes on sys.path)
    <package>/pkg/<module>.*.so        the compiled modules (this directory goes on __path__)

Documented in docs/compiled.md.
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import importlib.machinery
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "DIR_ENV",
    "FORMAT",
    "MANIFEST",
    "PURE_ENV",
    "Status",
    "activate",
    "assigns_compiled",
    "build_root",
    "check",
    "interpreter",
    "locate",
    "mode",
    "opted_in",
    "package_dir",
    "reason",
    "registered",
    "sha256",
    "source_root",
]

FORMAT = 1
"""The manifest's format version."""
PURE_ENV = "LICTOR_PURE"
"""Set to ``1`` to force pure Python (any value but ``""`` and ``0``)."""
DIR_ENV = "LICTOR_COMPILED_DIR"
"""Where the builds are (default: ``build/compiled`` beside the top-level package)."""
MANIFEST = "manifest.json"


@dataclass(frozen=True, slots=True)
class Status:
    """How a package runs.

    Attributes:
        package: the package's dotted name.
        mode: ``"compiled"`` or ``"pure"``.
        reason: why pure ("" when compiled).
        modules: the modules asked to be compiled.
        build: the package's build directory.
    """

    package: str
    mode: str
    reason: str
    modules: tuple[str, ...]
    build: Path


_STATUS: dict[str, Status] = {}


def interpreter() -> dict[str, str]:
    """What a build is tied to: the exact interpreter build and its extension-module suffix."""
    return {
        "implementation": sys.implementation.cache_tag or sys.implementation.name,
        "version": sys.version,
        "ext_suffix": importlib.machinery.EXTENSION_SUFFIXES[0],
    }


def sha256(path: Path) -> str:
    """The hex sha256 of a file's bytes."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def source_root(package_file: str, package: str) -> Path:
    """The directory holding the top-level package of ``package`` (given its ``__init__`` file)."""
    return Path(package_file).resolve().parents[package.count(".") + 1]


def build_root(root: Path) -> Path:
    """The directory of every package's build: ``$LICTOR_COMPILED_DIR`` or ``<root>/build/compiled``."""
    env = os.environ.get(DIR_ENV, "")
    return Path(env) if env else root / "build" / "compiled"


def package_dir(builds: Path, package: str) -> Path:
    """A package's build directory."""
    return builds / package


def locate(package: str, package_file: str) -> tuple[Path, Path]:
    """(the directory of the sources' top-level package, the package's build directory), given the
    package's ``__init__`` file."""
    root = source_root(package_file, package)
    return root, package_dir(build_root(root), package)


def _pure_forced() -> bool:
    return os.environ.get(PURE_ENV, "") not in ("", "0")


def check(package: str, modules: tuple[str, ...], root: Path, build: Path) -> tuple[str, dict[str, Any]]:
    """Why the build in ``build`` cannot be used for ``package`` (sources under ``root``), or ``""``
    and its manifest when it can (it does not look at ``LICTOR_PURE``)."""
    try:
        return _check(package, modules, root, build)
    except (AttributeError, KeyError, TypeError) as err:
        return f"unreadable manifest {build / MANIFEST}: {err!r}", {}


def _check(package: str, modules: tuple[str, ...], root: Path, build: Path) -> tuple[str, dict[str, Any]]:
    try:
        manifest: dict[str, Any] = json.loads((build / MANIFEST).read_text())
    except FileNotFoundError:
        return f"no build in {build} (make fast)", {}
    except (OSError, ValueError) as err:
        return f"unreadable manifest {build / MANIFEST}: {err}", {}
    if manifest.get("format") != FORMAT or manifest.get("package") != package:
        return f"the manifest in {build} is not a format-{FORMAT} build of {package} (make fast)", {}
    if tuple(manifest.get("modules", ())) != tuple(modules):
        return "stale: the list of compiled modules changed since the build (make fast)", {}
    here = interpreter()
    built = manifest.get("interpreter", {})
    for key, value in here.items():
        if built.get(key) != value:
            return f"built for another interpreter ({key} {built.get(key)!r}, this one {value!r})", {}
    sources: dict[str, str] = manifest.get("sources", {})
    for name in modules:
        if package.replace(".", "/") + f"/{name}.py" not in sources:
            return f"the manifest has no source for {package}.{name}", {}
    for rel, digest in sorted(sources.items()):
        try:
            now = sha256(root / rel)
        except OSError:
            return f"stale: {rel} is gone since the build (make fast)", {}
        if now != digest:
            return f"stale: {rel} changed since the build (make fast)", {}
    files = [build / manifest.get("shared_lib", "?")]
    files += [build / "pkg" / f"{name}{here['ext_suffix']}" for name in modules]
    for path in files:
        if not path.is_file():
            return f"incomplete build: {path} is missing (make fast)", {}
    return "", manifest


def activate(package: str, path: list[str], modules: tuple[str, ...], *, package_file: str = "") -> Status:
    """Run ``package`` compiled when its build is fresh: put the build first on ``path`` (the
    package's ``__path__``) and its shared library's directory on ``sys.path``. Call it from the
    package's ``__init__`` before importing any of its modules. Returns (and records) the status."""
    root, build = locate(package, package_file or sys.modules[package].__file__ or "")
    why = f"{PURE_ENV}={os.environ.get(PURE_ENV)}" if _pure_forced() else ""
    manifest: dict[str, Any] = {}
    if not why:
        why, manifest = check(package, modules, root, build)
    if not why:
        lib = build / manifest["shared_lib"]
        sys.path.append(str(lib.parent))
        try:
            importlib.import_module(lib.name.split(".")[0])
        except ImportError as err:
            sys.path.remove(str(lib.parent))
            why = f"the build does not load: {err}"
        else:
            path.insert(0, str(build / "pkg"))
    status = Status(package, "pure" if why else "compiled", why, tuple(modules), build)
    _STATUS[package] = status
    return status


def mode(package: str) -> str:
    """``"compiled"`` or ``"pure"`` (``"pure"`` for a package that does not opt in)."""
    status = _STATUS.get(package)
    return status.mode if status else "pure"


def reason(package: str) -> str:
    """Why ``package`` runs pure Python ("" when compiled)."""
    status = _STATUS.get(package)
    return status.reason if status else f"{package} has no compiled accelerator (or is not imported)"


def opted_in() -> tuple[str, ...]:
    """The game packages that opt in (their ``__init__`` assigns ``COMPILED``), sorted; read from the
    sources of ``games``, without importing them."""
    games = Path(__file__).resolve().parents[1]
    inits = sorted(games.glob("*/__init__.py"))
    return tuple(f"{games.name}.{init.parent.name}" for init in inits if assigns_compiled(init))


def assigns_compiled(init: Path) -> bool:
    """Whether the package ``__init__`` file ``init`` assigns ``COMPILED`` (read, not imported)."""
    tree = ast.parse(init.read_bytes(), str(init))
    names = {
        target.id
        for node in tree.body
        if isinstance(node, ast.Assign | ast.AnnAssign)
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Name)
    }
    return "COMPILED" in names


def registered() -> dict[str, Status]:
    """The packages imported so far that opt in, with their status."""
    return dict(_STATUS)


def _main(argv: list[str]) -> int:
    """``python -m games.core.compiled [package ...]``: print one line per package (default: every
    package that opts in, :func:`opted_in`): its mode and, when pure, why."""
    this = importlib.import_module(__spec__.name if __spec__ else "games.core.compiled")
    for package in argv or this.opted_in():
        importlib.import_module(package)
        status = this.registered().get(package)
        if status is None:
            print(f"{package}: pure Python (no compiled accelerator)")
        elif status.mode == "compiled":
            print(f"{package}: compiled (mypyc, {len(status.modules)} modules from {status.build})")
        else:
            print(f"{package}: pure Python ({status.reason})")
    return 0


if __name__ == "__main__":
    raise SystemExit(_main(sys.argv[1:]))
