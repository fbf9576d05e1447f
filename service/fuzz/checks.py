"""The checks on every answer, whatever its status: no server path shown (:func:`leak_markers`), no OK
to a content pack that must be refused (:class:`Oracle`)."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games.core import game_names
from service.fuzz.packs import Packs, hostile_pack_names
from service.fuzz.rpcs import Method


def leak_markers(*paths: str | Path) -> list[str]:
    """Texts no reply may show: the given paths (e.g. the content root's temporary directory) as
    given and resolved, ``/work/``, the home directory, the project's and Python's directories, a
    traceback."""
    out = {
        "/work/",
        "site-packages",
        "Traceback (most recent call last)",
        str(Path(__file__).resolve().parents[2]),  # the project's directory
    }
    home = str(Path.home())
    if len(home) > 1:
        out.add(home.rstrip("/") + "/")
    for prefix in {sys.prefix, sys.base_prefix, sys.exec_prefix}:
        if len(prefix) > 4:
            out.add(prefix.rstrip("/") + "/lib/")
    for p in paths:
        out.update({str(p), str(Path(p).resolve())})
    return sorted((m for m in out if len(m) > 4), key=lambda m: (-len(m), m))


@dataclass(frozen=True)
class Oracle:
    """What no reply may do, whatever its status: show a server path, or take a content pack that
    must be refused (broken, over a cap, or reached through a symlink or a path out of the root).

    Attributes:
        markers: texts no reply may show (:func:`leak_markers`) unless the request held them.
        refused_packs: (game, pack name) no call may answer OK with (games that read a content
            pack only: one that reads none has nothing to refuse).
    """

    markers: tuple[str, ...] = ()
    refused_packs: frozenset[tuple[str, str]] = frozenset()


NO_ORACLE = Oracle()


def make_oracle(packs: Packs) -> Oracle:
    """The oracle of a fuzz with the content root ``packs``: no path under its temporary directory
    (nor ``/work/``, the home directory...) in a reply, no OK with a pack that must be refused."""
    escaping = [
        n for n in hostile_pack_names(game_names(), packs) if n.startswith("/") or ".." in n.split("/")
    ]
    refused = [(g, n) for g in packs.by_game for n in [*packs.refused, *escaping]]
    return Oracle(tuple(leak_markers(packs.base)), frozenset(refused))


def named_pack(msg: Any) -> tuple[str, str]:
    """The game and the content pack a request names (("", "") when none)."""
    fields = msg.DESCRIPTOR.fields_by_name
    if "content_pack" in fields:
        return str(getattr(msg, "game", "")), str(msg.content_pack)
    if "position" in fields and fields["position"].message_type.full_name == "lictor.v1.Position":
        return str(msg.position.game), str(msg.position.content_pack)
    return "", ""


def leaked_marker(markers: Sequence[str], msg: Any, texts: Iterable[bytes]) -> str:
    """The first marker the reply shows and the request does not hold ("" when none)."""
    asked = msg.SerializeToString()
    blob = b"\n".join(texts)
    for m in markers:
        mb = m.encode()
        if mb in blob and mb not in asked:
            at = blob.index(mb)
            return f"shows {m!r}: ...{blob[max(0, at - 120) : at + 80].decode('utf-8', 'replace')}..."
    return ""


def watches(method: Method) -> bool:
    """Whether a stream waits for events (WatchMatch): silent until something happens, so its
    deadline passing with no answer is no hang (a stream that computes, like Analyze, must answer)."""
    return method.streaming and method.name.startswith("Watch")
