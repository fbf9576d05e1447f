"""Fixtures of the browser tests: a real server with its HTTP port, and headless Chromium.

Chromium is Debian's (``/usr/bin/chromium``, installed by ``make test`` / ``.ci/run`` where
missing), driven by Playwright's Python package through its executable path (Playwright's own
browser download is not reachable here). Each test gets a fresh profile (``--user-data-dir``).
When Chromium truly cannot be had, the tests skip, saying so.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from games.core import register_game, unregister_game
from service.limits import Limits
from service.server import LictorServer, create_server

CHROMIUM = os.environ.get("LICTOR_CHROMIUM", "/usr/bin/chromium")
"""The browser the tests drive."""

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"
"""Where the screenshots are kept (build/ is ignored by git)."""


def _why_no_browser() -> str | None:
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        return f"no Chromium at {CHROMIUM} (apt-get install -y chromium; make test installs it)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install -e '.[dev]')"
    return None


@pytest.fixture(scope="session")
def table_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LictorServer, str]]:
    """A real server (gRPC and HTTP on free loopback ports) with its own database; its page's URL."""
    register_game("pig", "tests.fixtures.pig:PigGame", solver="tests.fixtures.pig_solver")
    db = tmp_path_factory.mktemp("web") / "table.db"
    limits = Limits(max_concurrent_searches=2, ai_workers=2, default_search_s=0.3)
    srv, _ = create_server(
        "127.0.0.1:0", db_path=db, limits=limits, http_address="127.0.0.1:0", cors_origins=["null"]
    )
    yield srv, f"http://127.0.0.1:{srv.http_port}/"
    srv.stop(None).wait(5)
    srv.close()
    unregister_game("pig")


@pytest.fixture(scope="session")
def playwright_driver() -> Iterator[Any]:
    """Playwright, started once."""
    why = _why_no_browser()
    if why:
        pytest.skip(f"browser tests skipped: {why}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        yield driver


@pytest.fixture
def page(playwright_driver: Any, tmp_path: Path) -> Iterator[Any]:
    """A page of a fresh headless Chromium (its own --user-data-dir), 1280x900."""
    context = playwright_driver.chromium.launch_persistent_context(
        user_data_dir=str(tmp_path / "profile"),
        executable_path=CHROMIUM,
        headless=True,
        args=CHROMIUM_ARGS,
        viewport={"width": 1280, "height": 900},
    )
    context.set_default_timeout(30_000)
    page = context.pages[0] if context.pages else context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    yield page
    context.close()
    assert not errors, f"the page threw: {errors}"
