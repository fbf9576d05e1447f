"""The checked-in generated code (lictor/v1) is what `make proto` makes from proto/ today."""

from __future__ import annotations

import subprocess
import sys

from service.protogen import REPO_ROOT, generated_files, proto_files


def test_generated_code_is_fresh(tmp_path):
    # protoc runs in its own process (the compiler must not share a process with live servers).
    subprocess.run(
        [sys.executable, "-m", "service.protogen", "--out", str(tmp_path)], cwd=REPO_ROOT, check=True
    )
    fresh = generated_files(tmp_path)
    checked_in = generated_files(REPO_ROOT)
    assert [p.name for p in fresh] == [p.name for p in checked_in], "run `make proto`: files differ"
    stale = [p.name for p, q in zip(fresh, checked_in, strict=True) if p.read_bytes() != q.read_bytes()]
    assert not stale, f"generated code is stale, run `make proto`: {stale}"
    assert (REPO_ROOT / "lictor" / "v1" / "__init__.py").exists()


def test_every_proto_is_generated():
    names = {p.name for p in generated_files(REPO_ROOT)}
    for proto in proto_files():
        stem = proto.stem
        assert {f"{stem}_pb2.py", f"{stem}_pb2.pyi", f"{stem}_pb2_grpc.py"} <= names
