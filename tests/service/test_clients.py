"""The Node client of docs/clients.md (examples/node/client.js) plays a hosted match to its end
against a real server: create, watch, hint, submit, without a double submit."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "node"


@pytest.fixture(scope="module")
def node_client() -> Path:
    """The example with its packages installed (npm install, once)."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        pytest.skip(
            "node/npm are not installed: the Node client example cannot run (apt-get install nodejs npm)"
        )
    if not (EXAMPLE / "node_modules" / "@grpc" / "grpc-js").is_dir():
        done = subprocess.run(
            [npm, "install", "--no-audit", "--no-fund"],
            cwd=EXAMPLE,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        if done.returncode != 0:
            pytest.fail(f"npm install failed in examples/node:\n{done.stderr[-2000:]}")
    return EXAMPLE / "client.js"


def test_node_client_plays_a_hosted_match_to_the_end(server, node_client):
    node = shutil.which("node")
    assert node is not None
    done = subprocess.run(
        [node, str(node_client), f"127.0.0.1:{server[1]}", "pig", "target=8"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "match created" in out and "hint: " in out
    assert "game over after" in out and "returns seat 0:" in out
    assert "ABORTED" not in out + done.stderr
