"""The content root of the fuzz: valid copies of the reference packs, broken and escaping ones
(:func:`make_content_root`), and pack names no server may take as a path."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from games.core import get_game
from games.core.content import resolve_pack_dir

_OUTSIDE_FILE_TEXT = '{"outside": "a file outside the content root"}'


@dataclass
class Packs:
    """A content root made for the fuzz (:func:`make_content_root`).

    Attributes:
        base: the temporary directory holding the root and what lies outside it.
        root: the content root the server under fuzz is given.
        names: every pack name worth sending (valid, broken and escaping ones).
        by_game: the names made from each game's reference pack.
        refused: the names every call must refuse (broken, over a cap, symlinked, not a pack).
    """

    base: Path
    root: Path
    names: list[str]
    by_game: dict[str, list[str]]
    refused: list[str]


def _reference_pack(name: str) -> Path | None:
    """The reference content directory of a registered game (None when it has none)."""
    package = type(get_game(name)).__module__.rsplit(".", 1)[0]
    try:
        path = resolve_pack_dir(package)
    except Exception:  # a third-party game without a content/ directory
        return None
    return path if (path / "pack.json").is_file() else None


def _data_files(pack: Path) -> list[Path]:
    return sorted(p for p in pack.rglob("*.json") if p.name != "pack.json")


def _no_manifest(pack: Path, outside: Path, big_mb: int) -> None:
    (pack / "pack.json").unlink()


def _deep(pack: Path, outside: Path, big_mb: int) -> None:
    for f in _data_files(pack):
        f.write_text("[" * 50_000 + "]" * 50_000)


def _big(pack: Path, outside: Path, big_mb: int) -> None:
    for f in _data_files(pack)[:1]:
        f.write_text("[" + "1," * (big_mb * 512 * 1024) + "1]")


def _symlinked_file(pack: Path, outside: Path, big_mb: int) -> None:
    for f in _data_files(pack):
        away = outside / f"{pack.name}-{f.name}"
        f.rename(away)
        f.symlink_to(away)


def _many_files(pack: Path, outside: Path, big_mb: int) -> None:
    for i in range(200):
        (pack / f"extra{i:03}.json").write_text("{}")


def _bad_manifest(pack: Path, outside: Path, big_mb: int) -> None:
    (pack / "pack.json").write_text('{"version": ')


def _deep_manifest(pack: Path, outside: Path, big_mb: int) -> None:
    (pack / "pack.json").write_text('{"version": ' + "[" * 50_000 + "]" * 50_000 + "}")


_SPOILERS: dict[str, Callable[[Path, Path, int], None]] = {
    "nomanifest": _no_manifest,
    "deep": _deep,
    "big": _big,
    "symfile": _symlinked_file,
    "many": _many_files,
    "badjson": _bad_manifest,
    "deepmanifest": _deep_manifest,
}
"""Broken copies of a reference pack, by name prefix: what each does to the copy."""

_REFUSED = frozenset({"nomanifest", "deep", "big", "symfile", "badjson", "deepmanifest", "symdir"}) | {
    "empty",
    "afile",
    "linkout",
}
"""Packs every call must refuse, by name or name prefix (``many-`` is only over today's file cap)."""


def make_content_root(base: Path, games: Sequence[str], *, big_mb: int = 20) -> Packs:
    """Build ``base/packs``, a content root of valid and hostile packs, and ``base/outside``.

    For each game with a reference pack: ``<game>`` and ``sets/<game>`` (valid copies),
    ``nomanifest-<game>`` (no pack.json), ``deep-<game>`` (every data file ``[[[…]]]`` 50,000
    deep), ``big-<game>`` (a ``big_mb`` MB data file), ``symfile-<game>`` (its data files are symlinks
    to files outside the root), ``symdir-<game>`` (the pack is a symlink to a copy outside the
    root), ``many-<game>`` (200 extra files), ``badjson-<game>`` (pack.json is not JSON) and
    ``deepmanifest-<game>`` (pack.json 50,000 deep); then ``empty`` (an empty directory), ``afile``
    (a regular file) and ``linkout`` (a symlink to a file outside the root).
    """
    root, outside = base / "packs", base / "outside"
    root.mkdir(parents=True)
    outside.mkdir()
    (outside / "secret.json").write_text(_OUTSIDE_FILE_TEXT)
    by_game: dict[str, list[str]] = {}
    for name in games:
        ref = _reference_pack(name)
        if ref is None:
            continue
        made = by_game[name] = [name, f"sets/{name}", f"symdir-{name}"]
        shutil.copytree(ref, root / name)
        shutil.copytree(ref, root / "sets" / name)
        shutil.copytree(ref, outside / name)
        (root / f"symdir-{name}").symlink_to(outside / name, target_is_directory=True)
        for kind, spoil in _SPOILERS.items():
            pack = root / f"{kind}-{name}"
            shutil.copytree(ref, pack)
            spoil(pack, outside, big_mb)
            made.append(pack.name)
    (root / "empty").mkdir()
    (root / "afile").write_text("{}")
    (root / "linkout").symlink_to(outside / "secret.json")
    names = [n for made in by_game.values() for n in made] + ["empty", "afile", "linkout"]
    refused = [n for n in names if n.split("-", 1)[0] in _REFUSED or n in _REFUSED]
    return Packs(base=base, root=root, names=names, by_game=by_game, refused=refused)


def hostile_pack_names(games: Sequence[str], packs: Packs | None) -> list[str]:
    """Pack names no server may take as a path: NUL, too long, escaping, absolute, odd."""
    g = games[0] if games else "pack"
    names = [
        "\x00",
        f"{g}\x00",
        f"\x00{g}",
        "a\x00b/c",
        "x" * 256,
        "x" * 300,
        "y" * 5000,
        "/".join(["a"] * 200),
        "/".join(["ab"] * 60),
        ".",
        "..",
        "./",
        "../",
        "../..",
        "../../etc",
        "../../../../../../../../etc/passwd",
        "../outside",
        f"../outside/{g}",
        f"sets/../{g}",
        f"sets/../../outside/{g}",
        "/",
        "/etc",
        "/etc/passwd",
        "/tmp",
        "/proc/self/environ",
        "//etc",
        f"{g}/",
        f"./{g}",
        f"{g}/.",
        f"{g}//",
        f"sets//{g}",
        f"{g}/pack.json",
        "~",
        "~/",
        "$HOME",
        "%2e%2e%2fetc",
        "..\\..\\windows",
        "C:\\Windows",
        "NUL",
        " ",
        f" {g}",
        f"{g} ",
        f"{g}\n",
        "\t",
        "é" * 10,
        "パック",
        "🂡" * 5,
        "\u202e" + g,
        "a" * 64 + "/b",
        "a" * 65,
    ]
    if packs is not None:  # absolute paths of real packs, inside and outside the root
        names += [str(packs.root), str(packs.root / g), str(packs.base / "outside" / g)]
    return names
