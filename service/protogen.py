"""Regenerate the Python code of the ``lictor.v1`` contract from ``proto/`` (``make proto``).

Runs ``grpc_tools.protoc`` with ``-I proto`` and writes ``lictor/v1/*_pb2.py``, ``*_pb2.pyi`` and
``*_pb2_grpc.py`` (gRPC) and, from the connectrpc organisation's generator ``protoc-gen-connectrpc``
(for google.protobuf messages), ``*_connect.py`` (the Connect protocol and gRPC-Web: ASGI
applications and clients) under the output root (the repository root by default), so the generated
imports ``lictor.v1.x_pb2`` resolve. ``python -m service.protogen [--out DIR]``.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from importlib import resources
from pathlib import Path

__all__ = [
    "GENERATED_SUFFIXES",
    "REPO_ROOT",
    "connect_plugin",
    "generate",
    "generated_files",
    "main",
    "proto_files",
]

REPO_ROOT = Path(__file__).resolve().parent.parent
"""The repository root (holds ``proto/`` and the ``lictor`` package)."""

GENERATED_SUFFIXES = ("_pb2.py", "_pb2.pyi", "_pb2_grpc.py", "_connect.py")
"""Endings of the files protoc writes."""

_INIT = '"""Generated code of the lictor.v1 contract (``make proto``; do not edit)."""\n'


def proto_files(proto_root: Path = REPO_ROOT / "proto") -> list[Path]:
    """The ``.proto`` files of the contract, sorted."""
    return sorted((proto_root / "lictor" / "v1").glob("*.proto"))


def generated_files(out_root: Path) -> list[Path]:
    """The generated files under ``out_root/lictor/v1``, sorted."""
    pkg = out_root / "lictor" / "v1"
    return sorted(p for p in pkg.iterdir() if p.name.endswith(GENERATED_SUFFIXES)) if pkg.is_dir() else []


def connect_plugin() -> str:
    """The path of ``protoc-gen-connectrpc`` (installed beside this Python, or on PATH)."""
    beside = Path(sys.executable).parent / "protoc-gen-connectrpc"
    found = str(beside) if beside.exists() else shutil.which("protoc-gen-connectrpc")
    if not found:
        raise RuntimeError("protoc-gen-connectrpc is not installed: pip install -e '.[dev]'")
    return found


def generate(out_root: Path = REPO_ROOT, proto_root: Path = REPO_ROOT / "proto") -> list[Path]:
    """Run protoc for every contract file into ``out_root``; returns the generated files.

    Stale generated files (of a removed ``.proto``) are deleted first.
    """
    from grpc_tools import protoc  # type: ignore[import-untyped]

    pkg = out_root / "lictor" / "v1"
    pkg.mkdir(parents=True, exist_ok=True)
    for old in generated_files(out_root):
        old.unlink()
    init = pkg / "__init__.py"
    if not init.exists():
        init.write_text(_INIT)
    well_known = str(resources.files("grpc_tools") / "_proto")
    files = [str(p.relative_to(proto_root)) for p in proto_files(proto_root)]
    args = [
        "grpc_tools.protoc",
        f"-I{proto_root}",
        f"-I{well_known}",
        f"--python_out={out_root}",
        f"--pyi_out={out_root}",
        f"--grpc_python_out={out_root}",
        f"--plugin=protoc-gen-connectrpc={connect_plugin()}",
        f"--connectrpc_out=protobuf=google:{out_root}",
        *files,
    ]
    code = protoc.main(args)
    if code != 0:
        raise RuntimeError(f"protoc failed with exit code {code}")
    return generated_files(out_root)


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=REPO_ROOT, help="output root (default: the repository)")
    ns = parser.parse_args(argv)
    written = generate(ns.out)
    print(f"generated {len(written)} files into {ns.out / 'lictor' / 'v1'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
